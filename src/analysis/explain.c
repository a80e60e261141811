/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --explain: the steps of one device's decision, read off the device report
 * devices.c filled (the same mask, map, limit, reach and pool it judged
 * with), in the kernel's order. The words of every step and every source
 * are in the tables below and nowhere else.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/eras.h"
#include "analysis/explain.h"
#include "analysis/verdict-catalogue.h"
#include "analysis/verdict-rules.h"
#include "shared/kernel-defs.h"
#include "shared/string-table.h"

struct explain_case_info {
	const char *name;
	enum explain_kind kind;
	const char *template;
};

#define C(c, name, kind, text) [EXPLAIN_##c] = { name, EXPLAIN_KIND_##kind, text }

static const struct explain_case_info cases[_EXPLAIN_CASE_MAX] = {
	C(DOMAIN_IDENTITY, "domain-identity", DOMAIN,
	  "IOMMU group {group}'s default domain {type}: passthrough, the IOMMU translates nothing; dma-direct maps "
	  "this device, so what follows decides"),
	C(DOMAIN_TRANSLATED, "domain-translated", DOMAIN,
	  "IOMMU group {group}'s default domain {type}: the IOMMU maps I/O virtual addresses inside the mask; "
	  "where a buffer lies in RAM does not matter"),
	C(DOMAIN_UNTRUSTED, "domain-untrusted", DOMAIN,
	  "IOMMU group {group}'s default domain {type}, the device untrusted (below an external-facing port): "
	  "its buffers not aligned to the IOMMU page bounce through swiotlb"),
	C(DOMAIN_OTHER, "domain-other", DOMAIN,
	  "IOMMU group {group}'s default domain {type}"),
	C(MASK_SYSFS, "mask-sysfs", MASK,
	  "the DMA mask is {mask}: sysfs shows dma_mask_bits {bits}, fls64() of the mask, "
	  "so the mask is read as DMA_BIT_MASK({bits})"),
	C(MASK_DRIVER, "mask-driver", MASK,
	  "the DMA mask is {mask}: what its driver sets, as its row says ({why})"),
	C(MASK_DEFAULT, "mask-default", MASK,
	  "the DMA mask is {mask}: the platform bus default of this era, no driver sets another"),
	C(MASK_DEFAULT_CLIPPED, "mask-default-clipped", MASK,
	  "the DMA mask is {mask}: the platform bus default {default} clipped to the dma-ranges window "
	  "at configure time, {default} & DMA_BIT_MASK(ilog2({window_end}) + 1) = {mask}"),
	C(MASK_USER, "mask-user", MASK,
	  "the DMA mask is {mask}: given with --assume-mask"),
	C(MASK_NONE, "mask-none", MASK,
	  "no DMA mask: {why}"),
	C(MASK_NOT_CONTIGUOUS, "mask-not-contiguous", MASK,
	  "{mask} is not of the form 2^n - 1: where the kernel compares with it (dma_capable(), the "
	  "block layer's bounce limit) it reads a limit, not a bitmask; read as a bitmask it would "
	  "reach {bitmask_reachable} of RAM, read as a limit {limit_reachable}"),
	C(BUS_LIMIT_NONE, "bus-limit-none", BUS_LIMIT,
	  "no bus limit ({why}): the limit is the mask, {limit}"),
	C(BUS_LIMIT_NOT_KEPT, "bus-limit-not-kept", BUS_LIMIT,
	  "the dma-ranges window ends at bus {window_end}, but this era's dma_capable() reads the mask "
	  "alone: the limit is the mask, {limit}"),
	C(BUS_LIMIT_DT, "bus-limit-dt", BUS_LIMIT,
	  "the dma-ranges window ends at bus {window_end}; the kernel keeps the bus limit {bus_limit}: "
	  "limit = min_not_zero(mask {mask}, bus limit {bus_limit}) = {limit}"),
	C(BUS_LIMIT_IORT, "bus-limit-iort", BUS_LIMIT,
	  "the ACPI IORT memory address limit ends bus addresses at {window_end}; the kernel keeps the "
	  "bus limit {bus_limit}: limit = min_not_zero(mask {mask}, bus limit {bus_limit}) = {limit}"),
	C(BUS_RANGE, "bus-range", BUS_RANGE,
	  "a mapping passes dma_capable() when its last bus address is at or below {limit}: "
	  "bus addresses 0x0-{limit}"),
	C(BUS_RANGE_UNCHECKED, "bus-range-unchecked", BUS_RANGE,
	  "the kernel passes bus addresses up to {limit}, but the window ends at {window_end}: "
	  "a buffer between them is handed to a device that cannot reach it; the reach below "
	  "is the window's"),
	C(BUS_RANGE_ARM_UNCHECKED, "bus-range-arm-unchecked", BUS_RANGE,
	  "this era's 32-bit ARM streaming map checks no reach: a buffer at any address is handed to "
	  "the device, which reaches bus addresses 0x0-{limit} only"),
	C(BUS_RANGE_ARM_MAYBE, "bus-range-arm-maybe", BUS_RANGE,
	  "a mapping is checked against {limit} only if this 32-bit ARM kernel maps through dma-direct "
	  "(an LPAE kernel of this era, or a release from 6.0); otherwise nothing checks its reach"),
	C(TRANSLATION_IDENTITY, "translation-identity", TRANSLATION,
	  "no dma-ranges translate ({why}): bus address = CPU physical address"),
	C(TRANSLATION_REGION, "translation-region", TRANSLATION,
	  "dma-ranges of {node}: CPU {cpu_start}-{cpu_end} is bus {dma_start}-{dma_end}, {size}; "
	  "offset = CPU - bus = {offset}, and bus = CPU - offset"),
	C(TRANSLATION_IORT, "translation-iort", TRANSLATION,
	  "the ACPI IORT limit translates nothing: bus = CPU, window 0x0-{window_end}"),
	C(TRANSLATION_IGNORED, "translation-ignored", TRANSLATION,
	  "dma-ranges of {node} describe the window CPU {cpu_start}-{cpu_end} = bus {dma_start}-{dma_end}, "
	  "which this era's kernel never reads; the hardware still ends there"),
	C(CPU_REACH_MASK, "cpu-reach-mask", CPU_REACH,
	  "the limit {limit} translated back to the CPU side: the device reaches CPU addresses up to "
	  "{cpu_reach_end}; the mask ends it, a wider one would reach further"),
	C(CPU_REACH_WINDOW, "cpu-reach-window", CPU_REACH,
	  "the limit {limit} translated back to the CPU side: the device reaches CPU addresses up to "
	  "{cpu_reach_end}; the window ends it, a wider mask would not reach further"),
	C(CPU_REACH_NONE, "cpu-reach-none", CPU_REACH,
	  "no CPU address translates to a bus address at or below the limit {limit}: the device "
	  "reaches no RAM"),
	C(RAM_IN_REACH, "ram-in-reach", RAM,
	  "RAM {start}-{end}, {size}: bus {bus_start}-{bus_end}, within reach"),
	C(RAM_BEYOND, "ram-beyond", RAM,
	  "RAM {start}-{end}, {size}: bus {bus_start}-{bus_end}, beyond reach: every buffer there "
	  "bounces or fails"),
	C(RAM_UNCOVERED, "ram-uncovered", RAM,
	  "RAM {start}-{end}, {size}: no dma-ranges region covers it (DMA_MAPPING_ERROR), "
	  "beyond reach: every buffer there bounces or fails"),
	C(RAM_PARTLY, "ram-partly", RAM,
	  "RAM {start}-{end}, {size}: {reachable} within reach (bus {bus_start}-{bus_end}), "
	  "{unreachable} beyond it from {lowest_unreachable}"),
	C(RAM_TOTAL, "ram-total", RAM,
	  "of {ram} of RAM, {reachable} lies within reach and {unreachable} beyond it"),
	C(POOL_NONE, "pool-none", POOL,
	  "no swiotlb pool ({why}): a buffer beyond reach has nowhere to bounce"),
	C(POOL_UNKNOWN, "pool-unknown", POOL,
	  "whether a swiotlb pool exists is unknown ({why})"),
	C(POOL_IN_REACH, "pool-in-reach", POOL,
	  "the swiotlb pool lies at CPU {pool_start}-{pool_end}, {size}, bus {bus_start}-{bus_end}: "
	  "at or below the limit {limit}, within reach"),
	C(POOL_OUT_OF_REACH, "pool-out-of-reach", POOL,
	  "the swiotlb pool lies at CPU {pool_start}-{pool_end}, {size}, bus {bus_start}-{bus_end}: "
	  "past the limit {limit}, out of reach: a bounce through it fails too"),
	C(POOL_UNCOVERED, "pool-uncovered", POOL,
	  "the swiotlb pool lies at CPU {pool_start}-{pool_end}, {size}: no dma-ranges region covers "
	  "it, out of reach: a bounce through it fails too"),
	C(POOL_DERIVED_IN_REACH, "pool-derived-in-reach", POOL,
	  "the swiotlb pool is not placed by the log; its allocation keeps it at or below {pool_limit} "
	  "({why}), below the first RAM beyond reach {lowest_unreachable}: within reach"),
	C(POOL_DERIVED_ALL_IN_REACH, "pool-derived-all-in-reach", POOL,
	  "the swiotlb pool is not placed by the log; its allocation keeps it at or below {pool_limit} "
	  "({why}); all RAM is within reach, and so is the pool"),
	C(POOL_DERIVED_OUT_OF_REACH, "pool-derived-out-of-reach", POOL,
	  "the swiotlb pool is not placed by the log; its allocation keeps it at or below {pool_limit} "
	  "({why}), and all RAM there is beyond reach: out of reach"),
	C(POOL_DERIVED_PARTLY, "pool-derived-partly", POOL,
	  "the swiotlb pool is not placed by the log; its allocation keeps it at or below {pool_limit} "
	  "({why}), where RAM beyond reach starts at {lowest_unreachable}: it may lie on either side"),
	C(POOL_TRANSLATED, "pool-translated", POOL,
	  "the swiotlb pool ({why}): the IOMMU maps its slots as any buffer, so where it lies "
	  "does not matter"),
	C(BLOCK_LIMIT, "block-limit", BLOCK,
	  "the driver gives the block layer the bounce limit {max_addr}: page frames above "
	  "{b_pfn} bounce"),
	C(BLOCK_LIMIT_HIGH, "block-limit-high", BLOCK,
	  "no DMA mask: the driver gives the block layer BLK_BOUNCE_HIGH, highmem bounces"),
	C(BLOCK_READING, "block-reading", BLOCK,
	  "max_low_pfn read as {reading} ({whose}): {max_low_pfn}, so blk_max_low_pfn {blk_max_low_pfn}, "
	  "bounce_pfn {bounce_pfn}: {bounce_pages} above it bounce"),
	C(BLOCK_READING_NOTHING, "block-reading-nothing", BLOCK,
	  "max_low_pfn read as {reading} ({whose}): {max_low_pfn}, bounce_pfn {bounce_pfn} at or above "
	  "blk_max_pfn {blk_max_pfn}: nothing bounces"),
	C(VERDICT, "verdict", VERDICT,
	  "{verdict} ({case}): {reason}"),
	C(LIMITER_NONE, "limiter-none", LIMITER,
	  "what limits it ({limiter}): nothing, there is nothing to remedy"),
	C(LIMITER_MASK, "limiter-mask", LIMITER,
	  "what limits it ({limiter}): the DMA mask; a wider one, if the hardware has the address "
	  "lines, would reach further"),
	C(LIMITER_BUS_WINDOW, "limiter-bus-window", LIMITER,
	  "what limits it ({limiter}): the bus window; a wider mask cannot help, the window ends the reach "
	  "(fix the devicetree or IORT if the hardware reaches further, or keep its buffers below "
	  "the window)"),
	C(LIMITER_POOL, "limiter-pool", LIMITER,
	  "what limits it ({limiter}): the bounce pool; none it can use takes the RAM beyond its reach"),
	C(LIMITER_POOL_FORCED, "limiter-pool-forced", LIMITER,
	  "what limits it ({limiter}): the bounce pool; every mapping is forced through it and it lies "
	  "out of reach, so every mapping fails, RAM within reach too"),
	C(LIMITER_IOMMU, "limiter-iommu", LIMITER,
	  "what limits it ({limiter}): the IOMMU; its domain decides what bounces: a passthrough "
	  "domain leaves the reach to dma-direct, an untrusted device's translated one bounces what "
	  "is not aligned to its page"),
	C(LIMITER_KERNEL_ERA, "limiter-kernel-era", LIMITER,
	  "what limits it ({limiter}): the kernel release; its block layer or DMA ops bounce or miss "
	  "what later releases do not"),
	C(LIMITER_UNKNOWN, "limiter-unknown", LIMITER,
	  "what limits it ({limiter}): not known, since the reach or the verdict is not"),
	C(MISSING, "missing", MISSING,
	  "the explanation stops here: {what} is not known ({reason})"),
};

static const char *const explain_kind_table[_EXPLAIN_KIND_MAX] = {
	[EXPLAIN_KIND_DOMAIN] = "domain",
	[EXPLAIN_KIND_MASK] = "mask",
	[EXPLAIN_KIND_BUS_LIMIT] = "bus-limit",
	[EXPLAIN_KIND_BUS_RANGE] = "bus-range",
	[EXPLAIN_KIND_TRANSLATION] = "translation",
	[EXPLAIN_KIND_CPU_REACH] = "cpu-reach",
	[EXPLAIN_KIND_RAM] = "ram",
	[EXPLAIN_KIND_POOL] = "pool",
	[EXPLAIN_KIND_BLOCK] = "block",
	[EXPLAIN_KIND_VERDICT] = "verdict",
	[EXPLAIN_KIND_LIMITER] = "limiter",
	[EXPLAIN_KIND_MISSING] = "missing",
};
DEFINE_STRING_TABLE_LOOKUP_TO_STRING(explain_kind, enum explain_kind);

static const char *const explain_unit_table[_EXPLAIN_UNIT_MAX] = {
	[EXPLAIN_UNIT_ADDRESS] = "address",
	[EXPLAIN_UNIT_PFN] = "pfn",
	[EXPLAIN_UNIT_BYTES] = "bytes",
	[EXPLAIN_UNIT_PAGES] = "pages",
	[EXPLAIN_UNIT_COUNT] = "count",
	[EXPLAIN_UNIT_DELTA] = "delta",
};
DEFINE_STRING_TABLE_LOOKUP_TO_STRING(explain_unit, enum explain_unit);

static const char *const source_words[_EXPLAIN_SRC_MAX] = {
	[EXPLAIN_SRC_SYSFS_MASK_BITS] = "sysfs {arg}/dma_mask_bits",
	[EXPLAIN_SRC_SYSFS_IOMMU_GROUP] = "sysfs {arg}/iommu_group and its group's type",
	[EXPLAIN_SRC_DRIVER_ROW] = "the driver's row in driver-masks.c: {arg}",
	[EXPLAIN_SRC_BUS_DEFAULT] = "the bus default of the era: {arg}",
	[EXPLAIN_SRC_ASSUME_MASK] = "--assume-mask",
	[EXPLAIN_SRC_DT_DMA_RANGES] = "devicetree dma-ranges of {arg}",
	[EXPLAIN_SRC_IORT] = "ACPI IORT memory_address_limit",
	[EXPLAIN_SRC_IOMEM] = "proc/iomem System RAM",
	[EXPLAIN_SRC_ZONEINFO] = "proc/zoneinfo zone spans",
	[EXPLAIN_SRC_SWIOTLB] = "{arg}",
	[EXPLAIN_SRC_LOWMEM] = "lowmem end ({arg})",
	[EXPLAIN_SRC_COMPUTED] = "computed: {arg}",
};

/* What an unknown verdict lacks, as the missing step says it. */
static const char *const missing_words[_UNKNOWN_CAUSE_MAX] = {
	[UNKNOWN_CAUSE_OTHER] = "an input the reason names",
	[UNKNOWN_CAUSE_MASK] = "the DMA mask",
	[UNKNOWN_CAUSE_LAYOUT] = "where RAM lies (proc/iomem, proc/zoneinfo)",
	[UNKNOWN_CAUSE_CONTRADICTION] = "where RAM lies (the memory inputs contradict one another)",
	[UNKNOWN_CAUSE_POOL] = "whether a swiotlb pool exists, or where",
	[UNKNOWN_CAUSE_DEVICETREE] = "the devicetree nodes that set the window",
	[UNKNOWN_CAUSE_KERNEL] = "how the kernel was built or which IOMMU driver runs",
	[UNKNOWN_CAUSE_HARDWARE] = "a CPU fact Linux does not show (the SME C-bit's position)",
	[UNKNOWN_CAUSE_RELEASE] = "the kernel release, which picks the era's rule",
	[UNKNOWN_CAUSE_PORT] = "whether the device sits below an external-facing port",
	[UNKNOWN_CAUSE_XEN] = "the machine addresses of a Xen PV guest",
	[UNKNOWN_CAUSE_OWNER] = "how its owner (VFIO) maps its DMA",
};

/* Words of the steps' own arithmetic and kernel facts that no era decides. */
#define SRC_MIN_NOT_ZERO "min_not_zero(mask, bus limit)"
#define SRC_BUS_LIMIT "the window's end as this era keeps it"
#define SRC_TRANSLATE "the CPU address translated as the translation step says"
#define SRC_REACH "the reach of each RAM range"
#define SRC_SYSFS_BITS_KERNEL "drivers/pci/pci-sysfs.c dma_mask_bits_show: fls64(pdev->dma_mask)"
#define SRC_DOMAIN_KERNEL "drivers/iommu/iommu.c iommu_group_show_type"
#define SRC_DELTA "dma-ranges CPU start minus bus start"
#define SRC_CPU_REACH "the limit translated back through the window as the era does (reach_cpu_end)"

enum explain_kind explain_case_kind(enum explain_case c)
{
	return (unsigned)c < _EXPLAIN_CASE_MAX && cases[c].name ? cases[c].kind : _EXPLAIN_KIND_INVALID;
}

const char *explain_case_template(enum explain_case c)
{
	return (unsigned)c < _EXPLAIN_CASE_MAX ? cases[c].template : NULL;
}

const char *explain_case_to_string(enum explain_case c)
{
	return (unsigned)c < _EXPLAIN_CASE_MAX ? cases[c].name : NULL;
}

const char *explain_source_template(enum explain_source s)
{
	return (unsigned)s < _EXPLAIN_SRC_MAX ? source_words[s] : NULL;
}

struct builder {
	const struct report *rep;
	const struct device_report *r;
	struct explain_step *steps;
	size_t n, cap;
	int err;
};

/* A new step of case c, citing the running era's row of era (_ERA_RULE_MAX: kernel as given). */
static struct explain_step *add_step(struct builder *b, enum explain_case c, enum era_rule era,
				     const char *kernel)
{
	static struct explain_step sink; /* after a failed allocation: written, never kept */

	if (b->err)
		return memset(&sink, 0, sizeof(sink));
	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 16;
		struct explain_step *grown = reallocarray(b->steps, cap, sizeof(*grown));
		if (!grown) {
			b->err = -ENOMEM;
			return memset(&sink, 0, sizeof(sink));
		}
		b->steps = grown;
		b->cap = cap;
	}
	struct explain_step *s = &b->steps[b->n++];
	*s = (struct explain_step){ .c = c, .era = era, .kernel = kernel, .era_value = -1 };
	if (era < _ERA_RULE_MAX) {
		const char *src = NULL;
		s->era_value = era_value(era, b->rep->release, b->rep->arch_family, &src);
		s->kernel = src;
	}
	return s;
}

static void num(struct explain_step *s, const char *name, uint64_t v, enum explain_unit unit,
		enum explain_source source, const char *arg)
{
	if (s->n_numbers < EXPLAIN_MAX_NUMBERS)
		s->n[s->n_numbers++] = (struct explain_number){ name, v, unit, source, arg };
}

static void computed(struct explain_step *s, const char *name, uint64_t v, enum explain_unit unit, const char *how)
{
	num(s, name, v, unit, EXPLAIN_SRC_COMPUTED, how);
}

static void word(struct explain_step *s, const char *name, const char *text)
{
	if (s->n_words < EXPLAIN_MAX_WORDS)
		s->w[s->n_words++] = (struct explain_word){ name, text };
}

static void missing(struct builder *b, enum unknown_cause cause, const char *reason, struct explain *ret)
{
	struct explain_step *s = add_step(b, EXPLAIN_MISSING, _ERA_RULE_MAX, NULL);

	if ((unsigned)cause >= _UNKNOWN_CAUSE_MAX)
		cause = UNKNOWN_CAUSE_OTHER;
	word(s, "what", missing_words[cause]);
	word(s, "reason", reason);
	ret->missing = missing_words[cause];
}

/* How devices.c translates for this device: the era's map, or none without usable ranges. */
static enum range_map device_range_map(const struct builder *b)
{
	const struct device_report *r = b->r;

	if (r->map.state != DMA_MAP_RANGES || r->window_ignored)
		return RANGE_MAP_NONE;
	return (enum range_map)era_value(ERA_RANGE_MAP, b->rep->release, b->rep->arch_family, NULL);
}

/* The bus limit devices.c computed r->direct with: the window itself when the kernel checks past it. */
static uint64_t reach_bus_limit(const struct device_report *r)
{
	return r->window_unchecked ? r->map.bus_limit : r->bus_limit;
}

/* phys -> bus as the reach was computed: the era's map (one offset before 5.10), or identity. */
static bool to_bus(const struct builder *b, uint64_t phys, uint64_t *ret)
{
	const struct dma_map *m = &b->r->map;

	switch (device_range_map(b)) {
	case RANGE_MAP_REGIONS:
		return dma_map_translate(m, phys, ret);
	case RANGE_MAP_PFN_OFFSET:
		*ret = phys - m->regions[0].cpu_start + m->regions[0].dma_start;
		return true;
	default:
		*ret = phys;
		return true;
	}
}

static void domain_step(struct builder *b)
{
	const struct device *d = b->r->dev;
	enum explain_case c;
	enum era_rule era = _ERA_RULE_MAX;

	switch (d->iommu_domain) {
	case IOMMU_DOMAIN_NONE:
		return;
	case IOMMU_DOMAIN_IDENTITY:
		c = EXPLAIN_DOMAIN_IDENTITY;
		break;
	case IOMMU_DOMAIN_DMA:
	case IOMMU_DOMAIN_DMA_FQ:
		c = b->r->untrusted ? EXPLAIN_DOMAIN_UNTRUSTED : EXPLAIN_DOMAIN_TRANSLATED;
		if (b->r->untrusted)
			era = ERA_UNTRUSTED_BOUNCE;
		break;
	default:
		c = EXPLAIN_DOMAIN_OTHER;
		break;
	}
	struct explain_step *s = add_step(b, c, era, SRC_DOMAIN_KERNEL);
	word(s, "type", d->iommu_type ? d->iommu_type : "unknown");
	if (d->iommu_group.known)
		num(s, "group", (uint64_t)d->iommu_group.v, EXPLAIN_UNIT_COUNT, EXPLAIN_SRC_SYSFS_IOMMU_GROUP,
		    d->syspath);
	else
		word(s, "group", "?");
}

/* The mask and its source; false when there is none (the explanation stops). */
static bool mask_step(struct builder *b)
{
	const struct device_report *r = b->r;
	const struct device *d = r->dev;
	struct explain_step *s;

	if (!r->dma_mask.known)
		return false;
	switch (r->mask_source) {
	case MASK_SOURCE_SYSFS:
		s = add_step(b, EXPLAIN_MASK_SYSFS, _ERA_RULE_MAX, SRC_SYSFS_BITS_KERNEL);
		num(s, "mask", r->dma_mask.v, EXPLAIN_UNIT_ADDRESS, EXPLAIN_SRC_SYSFS_MASK_BITS, d->syspath);
		num(s, "bits", (uint64_t)d->dma_mask_bits.v, EXPLAIN_UNIT_COUNT, EXPLAIN_SRC_SYSFS_MASK_BITS,
		    d->syspath);
		return true;
	case MASK_SOURCE_USER:
		s = add_step(b, EXPLAIN_MASK_USER, _ERA_RULE_MAX, NULL);
		num(s, "mask", r->dma_mask.v, EXPLAIN_UNIT_ADDRESS, EXPLAIN_SRC_ASSUME_MASK, NULL);
		return true;
	case MASK_SOURCE_DRIVER:
		if (r->mask_row) {
			s = add_step(b, EXPLAIN_MASK_DRIVER, _ERA_RULE_MAX, r->mask_row->source);
			num(s, "mask", r->dma_mask.v, EXPLAIN_UNIT_ADDRESS, EXPLAIN_SRC_DRIVER_ROW,
			    r->mask_row->source);
			word(s, "why", r->mask_why);
			return true;
		}
		break; /* the bus default the driver keeps */
	default:
		break;
	}
	uint64_t def = UINT32_MAX;
	if (r->dma_mask.v == def || r->map.state != DMA_MAP_RANGES) {
		s = add_step(b, EXPLAIN_MASK_DEFAULT, ERA_PLATFORM_MASK, NULL);
		num(s, "mask", r->dma_mask.v, EXPLAIN_UNIT_ADDRESS, EXPLAIN_SRC_BUS_DEFAULT, s->kernel);
		return true;
	}
	/* of_dma_configure clipped the default to the window (devices.c pick_mask) */
	s = add_step(b, EXPLAIN_MASK_DEFAULT_CLIPPED, ERA_DT_WALK_START, NULL);
	num(s, "mask", r->dma_mask.v, EXPLAIN_UNIT_ADDRESS, EXPLAIN_SRC_COMPUTED,
	    "the default & DMA_BIT_MASK(ilog2(window end) + 1)");
	num(s, "default", def, EXPLAIN_UNIT_ADDRESS, EXPLAIN_SRC_BUS_DEFAULT,
	    "DMA_BIT_MASK(32) (ERA_PLATFORM_MASK)");
	num(s, "window_end", r->map.bus_limit, EXPLAIN_UNIT_ADDRESS,
	    r->map.from_iort ? EXPLAIN_SRC_IORT : EXPLAIN_SRC_DT_DMA_RANGES, r->map.node);
	return true;
}

static enum explain_source map_source(const struct dma_map *m)
{
	return m->from_iort ? EXPLAIN_SRC_IORT : EXPLAIN_SRC_DT_DMA_RANGES;
}

/* What the limit is: min_not_zero() of the two from 4.20, the mask alone where no bus limit is kept. */
static const char *limit_how(const struct device_report *r)
{
	return r->bus_limit ? SRC_MIN_NOT_ZERO : "the mask";
}

/* The streaming map's check: dma-direct's dma_capable(), or 32-bit ARM's arm_dma_ops that check nothing. */
static enum explain_case bus_range_case(const struct builder *b)
{
	const struct devices_input in = {
		.l = &b->rep->layout, .sw = &b->rep->swiotlb, .release = b->rep->release,
		.arch_family = b->rep->arch_family, .bits = b->rep->bits,
	};

	switch (arm_streaming_unchecked(&in)) {
	case TRI_YES:
		return EXPLAIN_BUS_RANGE_ARM_UNCHECKED;
	case TRI_UNKNOWN:
		return EXPLAIN_BUS_RANGE_ARM_MAYBE;
	default:
		return b->r->window_unchecked ? EXPLAIN_BUS_RANGE_UNCHECKED : EXPLAIN_BUS_RANGE;
	}
}

static void bus_steps(struct builder *b)
{
	const struct device_report *r = b->r;
	const struct dma_map *m = &r->map;
	struct explain_step *s;
	bool ranges = m->state == DMA_MAP_RANGES && !r->window_ignored;

	if (!ranges) {
		s = add_step(b, EXPLAIN_BUS_LIMIT_NONE, ERA_BUS_LIMIT, NULL);
		word(s, "why", r->window_ignored ? "this era never reads the host bridge's dma-ranges" : m->why);
		num(s, "limit", r->limit, EXPLAIN_UNIT_ADDRESS, EXPLAIN_SRC_COMPUTED, "the mask");
	} else if (r->bus_limit == 0) {
		s = add_step(b, EXPLAIN_BUS_LIMIT_NOT_KEPT, ERA_BUS_LIMIT, NULL);
		num(s, "window_end", m->bus_limit, EXPLAIN_UNIT_ADDRESS, map_source(m), m->node);
		num(s, "limit", r->limit, EXPLAIN_UNIT_ADDRESS, EXPLAIN_SRC_COMPUTED, "the mask");
	} else {
		s = add_step(b, m->from_iort ? EXPLAIN_BUS_LIMIT_IORT : EXPLAIN_BUS_LIMIT_DT, ERA_BUS_LIMIT, NULL);
		num(s, "window_end", m->bus_limit, EXPLAIN_UNIT_ADDRESS, map_source(m), m->node);
		computed(s, "bus_limit", r->bus_limit, EXPLAIN_UNIT_ADDRESS, SRC_BUS_LIMIT);
		computed(s, "mask", r->dma_mask.v, EXPLAIN_UNIT_ADDRESS, "the mask above");
		computed(s, "limit", r->limit, EXPLAIN_UNIT_ADDRESS, SRC_MIN_NOT_ZERO);
	}
	enum explain_case c = bus_range_case(b);
	s = add_step(b, c, ERA_STREAMING_MAP, NULL);
	computed(s, "limit", r->limit, EXPLAIN_UNIT_ADDRESS, limit_how(r));
	if (c == EXPLAIN_BUS_RANGE_UNCHECKED)
		num(s, "window_end", m->bus_limit, EXPLAIN_UNIT_ADDRESS, map_source(m), m->node);
}

static void region_numbers(struct explain_step *s, const struct dma_map *m, const struct dma_region *g)
{
	uint64_t last = g->size ? g->size - 1 : 0;

	num(s, "cpu_start", g->cpu_start, EXPLAIN_UNIT_ADDRESS, map_source(m), m->node);
	computed(s, "cpu_end", g->cpu_start + last, EXPLAIN_UNIT_ADDRESS, "CPU start + size - 1");
	num(s, "dma_start", g->dma_start, EXPLAIN_UNIT_ADDRESS, map_source(m), m->node);
	computed(s, "dma_end", g->dma_start + last, EXPLAIN_UNIT_ADDRESS, "bus start + size - 1");
	num(s, "size", g->size, EXPLAIN_UNIT_BYTES, map_source(m), m->node);
	computed(s, "offset", g->cpu_start - g->dma_start, EXPLAIN_UNIT_DELTA, SRC_DELTA);
	word(s, "node", m->node);
}

static void translation_steps(struct builder *b)
{
	const struct device_report *r = b->r;
	const struct dma_map *m = &r->map;
	struct explain_step *s;

	if (m->state != DMA_MAP_RANGES) {
		s = add_step(b, EXPLAIN_TRANSLATION_IDENTITY, ERA_RANGE_MAP, NULL);
		word(s, "why", m->why);
		return;
	}
	if (m->from_iort) {
		s = add_step(b, EXPLAIN_TRANSLATION_IORT, ERA_IORT_LIMIT, NULL);
		num(s, "window_end", m->bus_limit, EXPLAIN_UNIT_ADDRESS, EXPLAIN_SRC_IORT, NULL);
		return;
	}
	for (size_t k = 0; k < m->n_regions; k++) {
		s = add_step(b, r->window_ignored ? EXPLAIN_TRANSLATION_IGNORED : EXPLAIN_TRANSLATION_REGION,
			     r->window_ignored ? ERA_DT_WALK_START : ERA_RANGE_MAP, NULL);
		region_numbers(s, m, &m->regions[k]);
	}
}

/* Where the reach ends on the CPU side (devices.c cpu_reach). */
static void cpu_reach_step(struct builder *b)
{
	const struct device_report *r = b->r;
	struct explain_step *s;

	if (!r->cpu_reach_end.known) {
		s = add_step(b, EXPLAIN_CPU_REACH_NONE, ERA_RANGE_MAP, NULL);
		computed(s, "limit", r->limit, EXPLAIN_UNIT_ADDRESS, limit_how(r));
		return;
	}
	s = add_step(b, r->mask_bound ? EXPLAIN_CPU_REACH_MASK : EXPLAIN_CPU_REACH_WINDOW, ERA_RANGE_MAP, NULL);
	computed(s, "limit", r->limit, EXPLAIN_UNIT_ADDRESS, limit_how(r));
	computed(s, "cpu_reach_end", r->cpu_reach_end.v, EXPLAIN_UNIT_ADDRESS, SRC_CPU_REACH);
	if (r->dma_offset.known)
		computed(s, "dma_offset", r->dma_offset.v, EXPLAIN_UNIT_DELTA, SRC_DELTA);
}

static void limiter_step(struct builder *b)
{
	static const enum explain_case by_limiter[_LIMITER_MAX] = {
		[LIMITER_NONE] = EXPLAIN_LIMITER_NONE,
		[LIMITER_MASK] = EXPLAIN_LIMITER_MASK,
		[LIMITER_BUS_WINDOW] = EXPLAIN_LIMITER_BUS_WINDOW,
		[LIMITER_POOL] = EXPLAIN_LIMITER_POOL,
		[LIMITER_IOMMU] = EXPLAIN_LIMITER_IOMMU,
		[LIMITER_KERNEL_ERA] = EXPLAIN_LIMITER_KERNEL_ERA,
		[LIMITER_UNKNOWN] = EXPLAIN_LIMITER_UNKNOWN,
	};
	enum reach_limiter l = (unsigned)b->r->limiter < _LIMITER_MAX ? b->r->limiter : LIMITER_UNKNOWN;
	/* forced through a pool out of reach (devices.c forced_decision): all RAM fails, not the RAM beyond */
	bool forced_fails = l == LIMITER_POOL && b->r->forced && b->r->verdict == VERDICT_FAILS;
	struct explain_step *s = add_step(b, forced_fails ? EXPLAIN_LIMITER_POOL_FORCED : by_limiter[l],
					  _ERA_RULE_MAX, NULL);

	word(s, "limiter", reach_limiter_to_string(l));
}

/* One RAM range against the reach, computed as devices.c computed r->direct, range by range. */
static int ram_step(struct builder *b, const struct ram_range *g, uint64_t *sum)
{
	const struct device_report *r = b->r;
	const struct layout *l = &b->rep->layout;
	struct layout one = *l;
	struct reach x;

	one.ranges = (struct ram_range *)g;
	one.n_ranges = 1;
	one.ram_bytes = g->end - g->start + 1;
	int e = reach_compute(&one, &r->map, device_range_map(b), r->dma_mask.v, reach_bus_limit(r),
			      REACH_LIMIT, &x);
	if (e < 0)
		return e;
	*sum += x.unreachable_bytes;

	enum explain_case c = x.unreachable_bytes == 0 ? EXPLAIN_RAM_IN_REACH
			      : x.reachable_bytes != 0 ? EXPLAIN_RAM_PARTLY
			      : x.uncovered_bytes == x.unreachable_bytes ? EXPLAIN_RAM_UNCOVERED
			      : EXPLAIN_RAM_BEYOND;
	enum explain_source src = l->source == LAYOUT_SOURCE_IOMEM ? EXPLAIN_SRC_IOMEM : EXPLAIN_SRC_ZONEINFO;
	struct explain_step *s = add_step(b, c, ERA_RANGE_MAP, NULL);
	num(s, "start", g->start, EXPLAIN_UNIT_ADDRESS, src, NULL);
	num(s, "end", g->end, EXPLAIN_UNIT_ADDRESS, src, NULL);
	computed(s, "size", g->end - g->start + 1, EXPLAIN_UNIT_BYTES, "end - start + 1");
	uint64_t bs, be;
	if (c != EXPLAIN_RAM_PARTLY && c != EXPLAIN_RAM_UNCOVERED && to_bus(b, g->start, &bs) &&
	    to_bus(b, g->end, &be)) {
		computed(s, "bus_start", bs, EXPLAIN_UNIT_ADDRESS, SRC_TRANSLATE);
		computed(s, "bus_end", be, EXPLAIN_UNIT_ADDRESS, SRC_TRANSLATE);
	}
	if (c == EXPLAIN_RAM_PARTLY) {
		/* the part in reach runs up to the first unreachable address (reach.c: RAM below
		 * it in this range is reachable when the reach is one interval from the start) */
		if (x.lowest_unreachable > g->start && to_bus(b, g->start, &bs) &&
		    to_bus(b, x.lowest_unreachable - 1, &be)) {
			computed(s, "bus_start", bs, EXPLAIN_UNIT_ADDRESS, SRC_TRANSLATE);
			computed(s, "bus_end", be, EXPLAIN_UNIT_ADDRESS, SRC_TRANSLATE);
		}
		computed(s, "reachable", x.reachable_bytes, EXPLAIN_UNIT_BYTES, SRC_REACH);
		computed(s, "unreachable", x.unreachable_bytes, EXPLAIN_UNIT_BYTES, SRC_REACH);
		computed(s, "lowest_unreachable", x.lowest_unreachable, EXPLAIN_UNIT_ADDRESS, SRC_REACH);
	}
	return 0;
}

static int ram_steps(struct builder *b)
{
	const struct device_report *r = b->r;
	const struct layout *l = &b->rep->layout;
	uint64_t sum = 0;

	for (size_t i = 0; i < l->n_ranges; i++) {
		int e = ram_step(b, &l->ranges[i], &sum);
		if (e < 0)
			return e;
	}
	struct explain_step *s = add_step(b, EXPLAIN_RAM_TOTAL, ERA_STREAMING_MAP, NULL);
	num(s, "ram", l->ram_bytes, EXPLAIN_UNIT_BYTES,
	    l->source == LAYOUT_SOURCE_IOMEM ? EXPLAIN_SRC_IOMEM : EXPLAIN_SRC_ZONEINFO, NULL);
	computed(s, "reachable", r->direct.reachable_bytes, EXPLAIN_UNIT_BYTES, SRC_REACH);
	computed(s, "unreachable", r->direct.unreachable_bytes, EXPLAIN_UNIT_BYTES, SRC_REACH);
	/* the ranges' sum is the device's own figure: a step that disagreed would mislead */
	return sum == r->direct.unreachable_bytes ? 0 : -EPROTO;
}

static void pool_place_numbers(struct builder *b, struct explain_step *s)
{
	const struct swiotlb_state *sw = &b->rep->swiotlb;
	uint64_t bs, be;

	/* a placed pool's pool_limit_why names the boot log line that placed it (swiotlb-state.c) */
	num(s, "pool_start", sw->pool.start, EXPLAIN_UNIT_ADDRESS, EXPLAIN_SRC_SWIOTLB, sw->pool_limit_why);
	num(s, "pool_end", sw->pool.end - 1, EXPLAIN_UNIT_ADDRESS, EXPLAIN_SRC_SWIOTLB, sw->pool_limit_why);
	computed(s, "size", sw->pool.end - sw->pool.start, EXPLAIN_UNIT_BYTES, "pool end - pool start");
	if (s->c != EXPLAIN_POOL_UNCOVERED && s->c != EXPLAIN_POOL_TRANSLATED && to_bus(b, sw->pool.start, &bs) &&
	    to_bus(b, sw->pool.end - 1, &be)) {
		computed(s, "bus_start", bs, EXPLAIN_UNIT_ADDRESS, SRC_TRANSLATE);
		computed(s, "bus_end", be, EXPLAIN_UNIT_ADDRESS, SRC_TRANSLATE);
		computed(s, "limit", b->r->limit, EXPLAIN_UNIT_ADDRESS, limit_how(b->r));
	}
}

/* Whether the pool is in reach: the device's own answer when the rules asked, else theirs (devices.c pool_reachable). */
static enum explain_case pool_case(struct builder *b)
{
	const struct device_report *r = b->r;
	const struct swiotlb_state *sw = &b->rep->swiotlb;

	if (sw->pool.known) {
		uint64_t bs, be;
		if (!to_bus(b, sw->pool.start, &bs) || !to_bus(b, sw->pool.end - 1, &be))
			return EXPLAIN_POOL_UNCOVERED;
		if (r->pool_reachable == TRI_YES || (r->pool_reachable == TRI_UNKNOWN && (be <= r->limit || r->limit == 0)))
			return EXPLAIN_POOL_IN_REACH;
		return EXPLAIN_POOL_OUT_OF_REACH;
	}
	if (!r->direct.any_unreachable)
		return EXPLAIN_POOL_DERIVED_ALL_IN_REACH;
	if (r->pool_reachable == TRI_YES || r->direct.lowest_unreachable > sw->pool_limit.v)
		return EXPLAIN_POOL_DERIVED_IN_REACH;
	return r->pool_reachable == TRI_NO ? EXPLAIN_POOL_DERIVED_OUT_OF_REACH : EXPLAIN_POOL_DERIVED_PARTLY;
}

static void pool_step(struct builder *b, bool translated)
{
	const struct swiotlb_state *sw = &b->rep->swiotlb;
	struct explain_step *s;

	if (sw->active == TRI_NO) {
		s = add_step(b, EXPLAIN_POOL_NONE, _ERA_RULE_MAX, NULL);
		word(s, "why", sw->active_why);
		return;
	}
	if (sw->active == TRI_UNKNOWN || (!sw->pool.known && !sw->pool_limit.known && !translated)) {
		s = add_step(b, EXPLAIN_POOL_UNKNOWN, _ERA_RULE_MAX, NULL);
		word(s, "why", sw->active_why ? sw->active_why : sw->pool_limit_why);
		return;
	}
	if (translated) {
		s = add_step(b, EXPLAIN_POOL_TRANSLATED, _ERA_RULE_MAX, NULL);
		word(s, "why", sw->active_why);
		if (sw->pool.known)
			pool_place_numbers(b, s);
		return;
	}
	enum explain_case c = pool_case(b);
	if (sw->pool.known) {
		s = add_step(b, c, ERA_POOL_LOGGED, NULL);
		pool_place_numbers(b, s);
		return;
	}
	s = add_step(b, c, ERA_POOL_PLACEMENT, NULL);
	word(s, "why", sw->pool_limit_why);
	num(s, "pool_limit", sw->pool_limit.v, EXPLAIN_UNIT_ADDRESS, EXPLAIN_SRC_SWIOTLB, sw->pool_limit_why);
	if (b->r->direct.any_unreachable)
		computed(s, "lowest_unreachable", b->r->direct.lowest_unreachable, EXPLAIN_UNIT_ADDRESS, SRC_REACH);
}

static const char *const reading_words[N_READINGS] = {
	[MAX_LOW_PFN_PFN] = "a page frame number",
	[MAX_LOW_PFN_COUNT] = "a page count",
};

/* The block layer's bounce_pfn, both readings side by side (legacy-block.c's figures). */
static void block_steps(struct builder *b)
{
	const struct legacy_result *lr = device_legacy(b->r);
	const struct layout *l = &b->rep->layout;
	const struct legacy_block *k = &lr->by_reading[lr->kernel_reading];
	struct explain_step *s;

	if (k->bounce_high) {
		add_step(b, EXPLAIN_BLOCK_LIMIT_HIGH, ERA_BLOCK_LIMIT, NULL);
	} else {
		s = add_step(b, EXPLAIN_BLOCK_LIMIT, ERA_BLOCK_LIMIT, NULL);
		computed(s, "max_addr", k->max_addr, EXPLAIN_UNIT_ADDRESS, "the limit this era's driver passes");
		computed(s, "b_pfn", k->b_pfn, EXPLAIN_UNIT_PFN, "max_addr >> PAGE_SHIFT");
	}
	for (int i = 0; i < N_READINGS; i++) {
		/* the kernel's reading first */
		int reading = i == 0 ? (int)lr->kernel_reading : 1 - (int)lr->kernel_reading;
		const struct legacy_block *x = &lr->by_reading[reading];
		s = add_step(b, x->early_return ? EXPLAIN_BLOCK_READING_NOTHING : EXPLAIN_BLOCK_READING,
			     ERA_MAX_LOW_PFN, NULL);
		word(s, "reading", reading_words[reading]);
		word(s, "whose", reading == (int)lr->kernel_reading ? "this kernel's" : "not this kernel's");
		if (reading == MAX_LOW_PFN_COUNT) {
			/* arch/arm/mm/init.c before v3.13: max_low - PHYS_PFN_OFFSET, "the number of _pages_" */
			computed(s, "max_low_pfn", x->max_low_pfn, EXPLAIN_UNIT_PFN, "lowmem_end_pfn - min_low_pfn");
			num(s, "lowmem_end_pfn", l->lowmem.end_pfn, EXPLAIN_UNIT_PFN, EXPLAIN_SRC_LOWMEM,
			    l->lowmem.source);
			num(s, "min_low_pfn", l->base_pfn, EXPLAIN_UNIT_PFN,
			    l->source == LAYOUT_SOURCE_IOMEM ? EXPLAIN_SRC_IOMEM : EXPLAIN_SRC_ZONEINFO, NULL);
		} else {
			num(s, "max_low_pfn", x->max_low_pfn, EXPLAIN_UNIT_PFN, EXPLAIN_SRC_LOWMEM, l->lowmem.source);
		}
		computed(s, "blk_max_low_pfn", x->blk_max_low_pfn, EXPLAIN_UNIT_PFN, "max_low_pfn - 1");
		computed(s, "blk_max_pfn", x->blk_max_pfn, EXPLAIN_UNIT_PFN, "max_pfn - 1");
		computed(s, "bounce_pfn", x->bounce_pfn, EXPLAIN_UNIT_PFN,
			 "blk_queue_bounce_limit(): b_pfn, raised to blk_max_low_pfn when below it");
		if (!x->early_return) {
			computed(s, "bounce_pages", x->bounce_bytes >> l->page_shift, EXPLAIN_UNIT_PAGES,
				 "RAM pages above bounce_pfn");
			computed(s, "bounce_bytes", x->bounce_bytes, EXPLAIN_UNIT_BYTES, "RAM above bounce_pfn");
		}
	}
}

static void verdict_step(struct builder *b)
{
	const struct device_report *r = b->r;
	const struct verdict_reason_info *vc = verdict_reason_info((enum verdict_reason)r->verdict_case);
	struct explain_step *s = add_step(b, EXPLAIN_VERDICT, _ERA_RULE_MAX, NULL);

	word(s, "verdict", verdict_to_string(r->verdict));
	word(s, "case", vc ? vc->name : "no case");
	word(s, "reason", r->reason);
	if (r->unreachable_ram_bytes.known)
		computed(s, "unreachable_ram_bytes", r->unreachable_ram_bytes.v, EXPLAIN_UNIT_BYTES,
			 "the RAM whose buffers bounce or fail for it");
}

/* The missing step where an unknown verdict's input runs out, then the verdict. */
static void end(struct builder *b, struct explain *ret)
{
	if (b->r->verdict == VERDICT_UNKNOWN && !ret->missing)
		missing(b, b->r->unknown_cause, b->r->reason, ret);
	verdict_step(b);
	limiter_step(b);
}

static int build(struct builder *b, struct explain *ret)
{
	const struct device_report *r = b->r;
	bool translated = r->verdict == VERDICT_IOMMU;

	domain_step(b);
	if (r->verdict == VERDICT_IDLE) {
		end(b, ret);
		return 0;
	}
	if (!mask_step(b)) {
		if (r->verdict == VERDICT_UNKNOWN && r->unknown_cause == UNKNOWN_CAUSE_MASK) {
			missing(b, UNKNOWN_CAUSE_MASK, r->mask_why ? r->mask_why : r->reason, ret);
		} else {
			/* the platform bus of an era that gave none, or a driver that set none */
			struct explain_step *s = add_step(b, EXPLAIN_MASK_NONE,
				r->dev->bus == DEV_BUS_PLATFORM || r->dev->bus == DEV_BUS_AMBA
					? ERA_PLATFORM_MASK : _ERA_RULE_MAX, NULL);
			word(s, "why", r->mask_why ? r->mask_why : "none set, none shown in sysfs");
			/* the block layer's BLK_BOUNCE_HIGH needs none */
			if (r->kernel_model == KERNEL_MODEL_LEGACY_BLOCK)
				block_steps(b);
		}
		end(b, ret);
		return 0;
	}
	if (translated) {
		if (r->untrusted)
			pool_step(b, true);
		end(b, ret);
		return 0;
	}
	if (r->map.state == DMA_MAP_ERROR) {
		missing(b, UNKNOWN_CAUSE_DEVICETREE, r->map.why, ret);
		end(b, ret);
		return 0;
	}
	if (!mask_is_contiguous(r->dma_mask.v) && r->direct.known && r->bitmask.known) {
		struct explain_step *s = add_step(b, EXPLAIN_MASK_NOT_CONTIGUOUS, ERA_BUS_LIMIT, NULL);
		computed(s, "mask", r->dma_mask.v, EXPLAIN_UNIT_ADDRESS, "the mask above");
		computed(s, "bitmask_reachable", r->bitmask.reachable_bytes, EXPLAIN_UNIT_BYTES,
			 "RAM whose every address a has a & ~mask == 0");
		computed(s, "limit_reachable", r->direct.reachable_bytes, EXPLAIN_UNIT_BYTES, SRC_REACH);
	}
	bus_steps(b);
	translation_steps(b);
	cpu_reach_step(b);
	if (b->rep->layout.source == LAYOUT_SOURCE_NONE || !r->direct.known) {
		missing(b, b->rep->layout.check.disagree ? UNKNOWN_CAUSE_CONTRADICTION : UNKNOWN_CAUSE_LAYOUT,
			b->rep->layout.unknown_reason ? b->rep->layout.unknown_reason : r->reason, ret);
		end(b, ret);
		return 0;
	}
	int e = ram_steps(b);
	if (e < 0)
		return e;
	if (r->kernel_model == KERNEL_MODEL_LEGACY_BLOCK)
		block_steps(b);
	if (r->direct.any_unreachable || r->forced)
		pool_step(b, false);
	end(b, ret);
	return 0;
}

int explain_build(const struct report *rep, const struct device_report *r, struct explain *ret)
{
	struct builder b = { .rep = rep, .r = r };
	struct explain e = { .r = r };
	int err = build(&b, &e);

	if (!err)
		err = b.err;
	if (err < 0) {
		free(b.steps);
		return err;
	}
	e.steps = b.steps;
	e.n_steps = b.n;
	*ret = e;
	return 0;
}

void explain_done(struct explain *e)
{
	if (!e)
		return;
	free(e->steps);
	*e = (struct explain){ 0 };
}
