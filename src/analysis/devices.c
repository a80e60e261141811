/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Device verdicts. The order of the checks is the kernel's: no driver, no
 * DMA (nor for a bridge, nor for a platform/AMBA device with no sign of
 * DMA); an IOMMU translates before reach matters; forced bouncing ignores
 * reach; then the kernel model of the era compares RAM with the reach.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/devices.h"
#include "analysis/eras.h"
#include "analysis/limiter.h"
#include "analysis/prediction-check.h"
#include "analysis/verdict-catalogue.h"
#include "analysis/verdict-rules.h"
#include "shared/debug.h"
#include "shared/kernel-defs.h"
#include "shared/macro.h"
#include "shared/strbuf.h"

static uint64_t bit_mask(int bits)
{
	return bits >= 64 ? UINT64_MAX : bits <= 0 ? 0 : (1ull << bits) - 1;
}

static const struct assumed_mask *assumed_mask(const struct devices_input *in, const char *id)
{
	for (size_t i = 0; i < in->n_masks; i++)
		if (strcmp(in->masks[i].device, id) == 0)
			return &in->masks[i];
	return NULL;
}

static void none_known(struct device_report *r)
{
	opt_clear(&r->dma_mask);
	opt_clear(&r->coherent_mask);
	r->mask_source = MASK_SOURCE_NONE;
}

/* Only arm64 reads an IORT: an unknown architecture with one is arm64. */
static enum arch_family iort_arch(const struct devices_input *in)
{
	return in->arch_family == _ARCH_FAMILY_INVALID ? ARCH_ARM64 : in->arch_family;
}

/* Which mask the kernel holds for the device, and how we know it. */
static void pick_mask(const struct devices_input *in, const struct device *d, struct device_report *r)
{
	const struct assumed_mask *user = assumed_mask(in, d->id);

	if (user || (d->dma_mask_bits.known && d->dma_mask_bits.v > 0)) {
		r->mask_source = user ? MASK_SOURCE_USER : MASK_SOURCE_SYSFS;
		opt_set(&r->dma_mask, user ? user->mask : bit_mask(d->dma_mask_bits.v));
		if (d->coherent_mask_bits.known && d->coherent_mask_bits.v > 0)
			opt_set(&r->coherent_mask, bit_mask(d->coherent_mask_bits.v));
		return;
	}
	/* an IOMMU's driver sets its mask from the hardware (arm-smmu-v3: IDR5.OAS):
	 * the bus default says nothing of it */
	if ((d->bus != DEV_BUS_PLATFORM && d->bus != DEV_BUS_AMBA) || (d->dma_signs & (1u << DMA_SIGN_IOMMU_UNIT))) {
		none_known(r);
		return;
	}
	struct driver_mask dm;
	driver_mask_find(in->m, d, in->release, &dm);
	r->mask_row = dm.row;
	r->mask_why = dm.why;
	/* at an unknown release none is assumed: before 3.13 the kernel set none */
	bool has_default = in->release != 0 &&
			   era_value(ERA_PLATFORM_MASK, in->release, in->arch_family, NULL) == PLATFORM_MASK_32;
	bool iort_replaces = (r->map.from_iort || r->map.iort_zero_limit) &&
			     era_value(ERA_IORT_MASK, in->release, iort_arch(in), NULL) == IORT_MASK_REPLACES;
	if (iort_replaces && r->map.iort_zero_limit && !dm.bits) {
		none_known(r);
		r->iort_zeroed = true;
		r->mask_why = "the IORT's memory_address_limit of 0 zeroed the masks before 5.11 "
			      "(a1df829ead58): every mapping fails unless the driver sets its own";
		return;
	}
	uint64_t def = bit_mask(32);
	/* of_dma_configure_id(): *dma_mask &= DMA_BIT_MASK(ilog2(end) + 1); iort_dma_setup()
	 * before 5.11 set the IORT's mask instead, wider than 32 bits too */
	if (r->map.state == DMA_MAP_RANGES && !r->window_ignored)
		def = iort_replaces ? mask_covering(r->map.bus_limit) : def & mask_covering(r->map.bus_limit);
	if (dm.bits) {
		/* dma_set_mask*() after probe's of_dma_configure: the driver's bits, unclipped */
		r->mask_source = MASK_SOURCE_DRIVER;
		opt_set(&r->dma_mask, bit_mask((int)dm.bits));
		if (dm.coherent_bits)
			opt_set(&r->coherent_mask, bit_mask((int)dm.coherent_bits));
		else if (has_default)
			opt_set(&r->coherent_mask, def);
		else
			opt_clear(&r->coherent_mask);
		return;
	}
	if (has_default) {
		r->mask_source = dm.default_kept ? MASK_SOURCE_DRIVER : MASK_SOURCE_ASSUMED;
		opt_set(&r->dma_mask, def);
		opt_set(&r->coherent_mask, def);
		return;
	}
	none_known(r);
}

static uint64_t era_bus_limit(const struct devices_input *in, const struct device_report *r)
{
	const struct dma_map *map = &r->map;

	if (map->state != DMA_MAP_RANGES || r->window_ignored)
		return 0;
	switch (era_value(ERA_BUS_LIMIT, in->release, in->arch_family, NULL)) {
	case BUS_LIMIT_EXACT:
		return map->bus_limit;
	case BUS_LIMIT_MASK:
		return mask_covering(map->bus_limit);
	default:
		return 0;
	}
}

static uint64_t min_not_zero(uint64_t a, uint64_t b)
{
	return a == 0 ? b : b == 0 ? a : a < b ? a : b;
}

/* Unreachable bytes at or above addr under dma-direct. */
static int unreachable_above(const struct devices_input *in, const struct device_report *r,
			     enum range_map range_map, uint64_t addr, uint64_t *ret)
{
	struct layout c;
	struct reach x;
	int e = layout_clip_above(in->l, addr, &c);

	if (e < 0)
		return e;
	e = reach_compute(&c, &r->map, range_map, r->dma_mask.v, r->bus_limit, REACH_LIMIT, &x);
	layout_done(&c);
	if (e == 0)
		*ret = x.unreachable_bytes;
	return e;
}

/* The first bounced address for a legacy result: pfn > bounce_pfn. */
static bool bounce_threshold(const struct layout *l, const struct legacy_block *b, uint64_t *ret)
{
	if (b->early_return || b->bounce_pfn + 1 == 0 ||
	    ((b->bounce_pfn + 1) >> (64 - l->page_shift)) != 0)
		return false;
	*ret = (b->bounce_pfn + 1) << l->page_shift;
	return true;
}

/*
 * Before 4.18 scsi_calculate_bounce_limit() returned BLK_BOUNCE_ANY when
 * !PCI_DMA_BUS_IS_PHYS: always on arm64 (asm/pci.h: 0); on x86 dma_ops->is_phys,
 * 0 for swiotlb's and the IOMMUs' ops, 1 for nommu_dma_ops (no pool, no IOMMU:
 * 32-bit x86 before 4.19). 32-bit ARM and the rest: taken as 1.
 */
static bool scsi_bus_not_phys(const struct devices_input *in)
{
	if (in->arch_family == ARCH_ARM64)
		return true;
	if (in->arch_family == ARCH_X86)
		return in->m->iommu_groups_present || in->sw->active == TRI_YES;
	return false;
}

static int legacy_for(const struct devices_input *in, const struct device_report *r, enum range_map range_map,
		      struct legacy_result *out)
{
	const struct layout *l = in->l;
	struct legacy_result lr = { 0 };

	if (!in->bits.known) {
		lr.why_not = "architecture unknown: BITS_PER_LONG unknown";
	} else if (l->source == LAYOUT_SOURCE_NONE || !l->lowmem.known) {
		lr.why_not = "memory layout or lowmem end unknown";
	}
	if (lr.why_not) {
		*out = lr;
		return 0;
	}
	bool scsi_none = r && r->scsi_block &&
			 (era_value(ERA_SCSI_BLOCK_LIMIT, in->release, in->arch_family, NULL) == SCSI_LIMIT_NONE ||
			  scsi_bus_not_phys(in));
	struct legacy_block_input li = {
		.bits = in->bits.v,
		.limit_rule = scsi_none ? BLOCK_LIMIT_NONE
					: era_value(ERA_BLOCK_LIMIT, in->release, in->arch_family, NULL),
		.has_mask = r && r->dma_mask.known,
		.mask = r && r->dma_mask.known ? r->dma_mask.v : 0,
	};
	if (r && r->map.state == DMA_MAP_RANGES) {
		const struct dma_region *g = &r->map.regions[0];
		li.dma_pfn_offset = (int64_t)((g->cpu_start >> l->page_shift) - (g->dma_start >> l->page_shift));
	}
	for (int reading = 0; reading < N_READINGS; reading++) {
		li.reading = reading;
		int e = legacy_block_compute(l, &li, &lr.by_reading[reading]);
		if (e < 0) {
			lr.why_not = "memory layout incomplete";
			*out = lr;
			return 0;
		}
	}
	lr.known = true;
	lr.kernel_reading = era_value(ERA_MAX_LOW_PFN, in->release, in->arch_family, NULL);
	if (lr.kernel_reading < 0)
		lr.kernel_reading = MAX_LOW_PFN_PFN;

	if (lr.kernel_reading == MAX_LOW_PFN_COUNT)
		legacy_block_count_cost(&lr.by_reading[MAX_LOW_PFN_COUNT], &lr.by_reading[MAX_LOW_PFN_PFN],
					&lr.count_reading_only_bytes, &lr.count_reading_missed_bytes);
	const struct legacy_block *k = &lr.by_reading[lr.kernel_reading];
	uint64_t t = 0;
	bool bounces = bounce_threshold(l, k, &t);
	if (!li.has_mask) {
		/* BLK_BOUNCE_HIGH means "bounce highmem": that is what must bounce */
		/* RAM at or above max(t, lowmem end) is the smaller of the two suffixes;
		 * lowmem_end_pfn << page_shift would wrap for RAM ending at 2^64-1 */
		uint64_t above_low = layout_ram_bytes_from_pfn(l, l->lowmem.end_pfn);
		uint64_t above_t = bounces ? layout_ram_bytes_above(l, t) : 0;
		uint64_t must_and_bounced = above_t < above_low ? above_t : above_low;
		lr.unreachable_bounced = must_and_bounced;
		lr.needless_bytes = k->bounce_bytes - must_and_bounced;
		lr.missed_bytes = l->lowmem.highmem_bytes - must_and_bounced;
	} else {
		uint64_t above = 0;
		if (bounces) {
			int e = unreachable_above(in, r, range_map, t, &above);
			if (e < 0)
				return e;
		}
		lr.unreachable_bounced = above;
		lr.needless_bytes = k->bounce_bytes - above;
		lr.missed_bytes = r->direct.unreachable_bytes - above;
	}
	*out = lr;
	return 0;
}

/*
 * Does the swiotlb pool lie within the device's reach? Where the log or debugfs
 * does not place it, it lies in RAM at or below sw->pool_limit (memblock's low
 * allocation): within reach when all that RAM is, out of reach when none is.
 */
static enum tristate pool_reachable(const struct devices_input *in, const struct device_report *r)
{
	const struct swiotlb_state *sw = in->sw;
	uint64_t a, b;

	if (!sw->pool.known) {
		if (!sw->pool_limit.known || !r->direct.known)
			return TRI_UNKNOWN;
		if (!r->direct.any_unreachable || r->direct.lowest_unreachable > sw->pool_limit.v)
			return TRI_YES;
		uint64_t above = 0, from = sw->pool_limit.v + 1;
		enum range_map range_map = r->map.state == DMA_MAP_RANGES
					? era_value(ERA_RANGE_MAP, in->release, in->arch_family, NULL)
					: RANGE_MAP_NONE;
		if (from != 0 && unreachable_above(in, r, range_map, from, &above) < 0)
			return TRI_UNKNOWN;
		uint64_t ram_below = in->l->ram_bytes - (from ? layout_ram_bytes_above(in->l, from) : 0);
		uint64_t unreachable_below = r->direct.unreachable_bytes - above;
		return ram_below && unreachable_below >= ram_below ? TRI_NO : TRI_UNKNOWN;
	}
	if (!dma_map_translate(&r->map, sw->pool.start, &a) ||
	    !dma_map_translate(&r->map, sw->pool.end - 1, &b))
		return TRI_NO;
	return b <= r->limit || r->limit == 0 ? TRI_YES : TRI_NO;
}

/* The verdict when some RAM must bounce through swiotlb (r->pool_reachable set). */
static struct verdict_decision pool_decision(const struct devices_input *in, const struct device_report *r)
{
	const struct swiotlb_state *sw = in->sw;
	int noforce = sw->cmdline_noforce ? era_value(ERA_SWIOTLB_NOFORCE, in->release, ANY_ARCH, NULL) : -1;

	/* the token slab of 4.10-5.17 is never used: dma-direct skips swiotlb_map() */
	if (noforce == NOFORCE_ONE_SLAB || noforce == NOFORCE_NO_POOL)
		return DECIDED(VR_POOL_NOFORCE);
	if (sw->active == TRI_NO)
		return DECIDED(VR_NO_POOL);
	if (sw->active == TRI_UNKNOWN)
		return DECIDED(VR_POOL_UNKNOWN);
	if (r->pool_reachable == TRI_NO)
		return DECIDED(sw->pool.known ? VR_POOL_OUT_OF_REACH : VR_POOL_DERIVED_OUT_OF_REACH);
	if (r->pool_reachable == TRI_UNKNOWN)
		return DECIDED(sw->pool_limit.known ? VR_POOL_REACH_PARTLY : VR_POOL_REACH_UNKNOWN);
	return DECIDED(sw->pool.known ? VR_BOUNCES : VR_BOUNCES_DERIVED);
}

/*
 * A device whose every mapping is forced to bounce still needs the slot's bus
 * address in reach: kernel/dma/swiotlb.c swiotlb_map() (5.0 on; read at
 * torvalds/linux 009fbfc97b63) "if (unlikely(!dma_capable(dev, dma_addr, size,
 * true)))" unmaps it and returns DMA_MAPPING_ERROR ("swiotlb addr ... overflow");
 * before 5.0 swiotlb_map_page() (lib/swiotlb.c, later kernel/dma/swiotlb.c) made
 * the same dma_capable() check and returned the overflow buffer. A pool out of
 * reach fails every mapping, RAM in reach too.
 */
static struct verdict_decision forced_decision(const struct devices_input *in, struct device_report *r,
					       struct verdict_decision v)
{
	const struct swiotlb_state *sw = in->sw;

	/* a restricted-dma-pool is the device's own io_tlb_mem (rmem_swiotlb_device_init),
	 * not the default pool sw->pool places: where the devicetree put it is not judged */
	if (v.why != VR_FORCED || (device_dt(r->dev)->restricted_pool && !r->restricted_ignored) ||
	    sw->active != TRI_YES)
		return v;
	/* recorded only when it decides: a forced device's JSON keeps null otherwise */
	if (pool_reachable(in, r) != TRI_NO)
		return v;
	r->pool_reachable = TRI_NO;
	return DECIDED(sw->pool.known ? VR_FORCED_POOL_OUT_OF_REACH : VR_FORCED_POOL_DERIVED_OUT_OF_REACH);
}

/*
 * What the kernel checks reaches past the dma-ranges window (window_unchecked):
 * a host bridge's window before 5.5, the window rounded up 4.20-5.4, the mask
 * alone before 4.20; below the block layer (block) or not, the words differ.
 */
static struct verdict_decision window_unchecked(const struct device_report *r, bool block)
{
	if (r->window_ignored)
		return DECIDED(block ? VR_BLOCK_WINDOW_IGNORED : VR_WINDOW_IGNORED);
	if (r->bus_limit)
		return DECIDED(block ? VR_BLOCK_WINDOW_ROUNDED : VR_WINDOW_ROUNDED);
	return DECIDED(block ? VR_BLOCK_WINDOW_MASK_ONLY : VR_WINDOW_MASK_ONLY);
}

/*
 * PCI "removable" as read, or its absence as the era reads it: fixed from
 * 5.14; unknown before, and at an unknown release (the current row would
 * call an untrusted port trusted).
 */
static struct opt_bool device_removable(const struct devices_input *in, const struct device *d)
{
	if (d->removable.known || !d->removable_absent || in->release == 0 ||
	    era_value(ERA_REMOVABLE_ATTR, in->release, in->arch_family, NULL) != 1)
		return d->removable;
	return (struct opt_bool){ .v = false, .known = true };
}

/* The block layer's verdict before 5.13, for a device whose disks' bounce_pfn decides. */
static struct verdict_decision decide_legacy(const struct devices_input *in, const struct device_report *r)
{
	const struct legacy_result *lr = device_legacy(r);

	if (lr->missed_bytes == 0)
		return DECIDED(lr->by_reading[lr->kernel_reading].bounce_bytes ? VR_BLOCK_BOUNCES : VR_BLOCK_NOTHING);
	if (!r->dma_mask.known)
		return DECIDED(VR_BLOCK_NO_MASK);
	/* 32-bit ARM's arm_dma_ops map without checking the mask (no swiotlb
	 * without LPAE/Xen): what the block layer misses reaches the device */
	switch (arm_streaming_unchecked(in)) {
	case TRI_YES:
		return DECIDED(VR_BLOCK_MISSED_UNCHECKED);
	case TRI_UNKNOWN:
		return DECIDED(VR_BLOCK_MISSED_LPAE_UNKNOWN);
	default:
		break;
	}
	/* before 4.20 dma_capable() below the block layer compares with the mask
	 * alone: what lies past the window but inside the mask is handed over */
	if (r->window_unchecked)
		return window_unchecked(r, true);
	return UNDECIDED; /* dma-direct/swiotlb below the block layer catches the rest */
}

/* The mask or the memory layout is not known: what is missing. */
static struct verdict_decision decide_unknown_reach(const struct devices_input *in, const struct device_report *r)
{
	const struct device *d = r->dev;

	if (!r->dma_mask.known) {
		if (d->bus == DEV_BUS_PCI)
			return DECIDED(opt_is(&d->dma_mask_bits, 0) ? VR_MASK_ZERO : VR_NO_MASK_BITS);
		return DECIDED(in->release == 0 ? VR_PLATFORM_MASK_RELEASE_UNKNOWN : VR_NO_DEFAULT_MASK);
	}
	/* no RAM ranges: what the mask reaches is not known; the memory inputs
	 * contradicting one another is said so: the remedy differs */
	return DECIDED(in->l->check.disagree ? VR_LAYOUT_CONTRADICTS : VR_LAYOUT_UNKNOWN);
}

/* The kernel's order: outside the DMA API, the IOMMU domain, forcing; then reach. */
static struct verdict_decision decide(const struct devices_input *in, struct device_report *r)
{
	struct verdict_decision v = decided_outside_dma_api(in, r);

	if (!v.why)
		v = decided_by_domain(in, r);
	if (!v.why)
		v = decided_by_forcing(in, r);
	if (v.why == VR_FORCED) {
		r->forced = true;
		r->forced_why = v.detail;
	}
	if (v.why && v.why != VR_FORCED)
		return v;
	/* no highmem-only reading of "no mask" here: what the driver sets decides */
	if (r->iort_zeroed)
		return (struct verdict_decision){ VR_IORT_ZEROED, r->mask_why };
	if (v.why)
		return forced_decision(in, r, v);
	if (r->map.state == DMA_MAP_ERROR)
		return DECIDED(device_dt(r->dev)->err ? VR_DT_MAP_UNREADABLE : VR_DT_RANGES_UNUSABLE);
	if (r->kernel_model == KERNEL_MODEL_LEGACY_BLOCK) {
		v = decide_legacy(in, r);
		if (v.why)
			return v;
	} else {
		if (!r->dma_mask.known || !r->direct.known)
			return decide_unknown_reach(in, r);
		if (r->direct.unreachable_bytes == 0)
			return DECIDED(VR_ALL_IN_REACH);
		v = decided_by_lowmem_only_net(in, r);
		if (!v.why && in->arch_family == ARCH_ARM)
			v = decided_by_arm_dma_ops(in);
		if (v.why)
			return v;
		/* the current rows check the window exactly; before 4.20 the mask alone, before
		 * 5.5 a host bridge's window not at all: what lies past it would go astray */
		if (in->release == 0 && r->map.state == DMA_MAP_RANGES && !r->map.from_iort &&
		    r->dma_mask.v > r->map.bus_limit)
			return DECIDED(VR_WINDOW_RELEASE_UNKNOWN);
		if (r->window_unchecked)
			return window_unchecked(r, false);
	}
	r->pool_reachable = pool_reachable(in, r);
	return pool_decision(in, r);
}

static const char *tri(enum tristate t)
{
	return t == TRI_YES ? "yes" : t == TRI_NO ? "no" : "unknown";
}

/* The decision's verdict, cause, words and flags into the report. */
static void apply(const struct devices_input *in, struct device_report *r, struct verdict_decision v)
{
	const struct verdict_reason_info *c = verdict_reason_info(v.why);

	if (!c) { /* decide() always ends in pool_decision(): a bug, said rather than guessed */
		verdict_unknown(r, UNKNOWN_CAUSE_OTHER, "internal error: no rule decided (please report it)");
		return;
	}
	r->verdict = c->verdict;
	r->verdict_case = v.why;
	r->unknown_cause = c->cause;
	r->reason = c->text ? c->text : v.detail;
	r->out_of_reach_decides = c->flags & VR_OUT_OF_REACH;
	r->missed_corrupts = c->flags & VR_MISSED_CORRUPTS;
	r->untrusted = c->flags & VR_UNTRUSTED;
	r->limiter = limiter_decide(in, r);
	/* "why is this device partial?": the case and the numbers the rules read */
	debug_log(DEBUG_VERDICTS,
		  "%s: %s -> %s (mask %s%#" PRIx64 ", bus limit %#" PRIx64 ", model %s, "
		  "unreachable %s%" PRIu64 " bytes, pool %s, reachable %s, reach end %s%#" PRIx64
		  ", limiter %s)",
		  r->dev->id, c->name, verdict_to_string(r->verdict), r->dma_mask.known ? "" : "unknown ",
		  r->dma_mask.v, r->bus_limit, kernel_model_to_string(r->kernel_model),
		  r->direct.known ? "" : "unknown ", r->direct.unreachable_bytes,
		  tri(in->sw->active), tri(r->pool_reachable), r->cpu_reach_end.known ? "" : "unknown ",
		  r->cpu_reach_end.v, reach_limiter_to_string(r->limiter));
}

/*
 * The report's unreachable_ram_bytes: the RAM whose buffers bounce or fail
 * for this device, by verdict: none when translated or all in reach, all RAM when
 * forced (through a pool in reach or not), unknown when idle or undecided. The
 * mask's own reach stays in direct whatever the verdict.
 */
static void verdict_unreachable_ram(const struct devices_input *in, struct device_report *r)
{
	const struct legacy_block *k = device_legacy(r)->known ? &device_legacy(r)->by_reading[device_legacy(r)->kernel_reading] : NULL;
	bool layout = in->l->source != LAYOUT_SOURCE_NONE;

	/* forced through a pool out of reach (forced_decision): every mapping bounces, so every one fails */
	switch (r->verdict == VERDICT_FAILS && r->forced ? VERDICT_FORCED : r->verdict) {
	case VERDICT_DIRECT:
	case VERDICT_IOMMU:
		opt_set(&r->unreachable_ram_bytes, 0);
		return;
	case VERDICT_FORCED:
		if (layout)
			opt_set(&r->unreachable_ram_bytes, in->l->ram_bytes);
		return;
	case VERDICT_PARTIAL:
	case VERDICT_FAILS:
	case VERDICT_UNKNOWN:
		if (r->kernel_model == KERNEL_MODEL_LEGACY_BLOCK && k &&
		    (r->verdict != VERDICT_UNKNOWN || r->out_of_reach_decides)) {
			/* what the block layer bounces, and what it misses (bounced or failing below) */
			opt_set(&r->unreachable_ram_bytes, k->bounce_bytes + device_legacy(r)->missed_bytes);
		} else if (r->out_of_reach_decides && r->direct.known) {
			opt_set(&r->unreachable_ram_bytes, r->direct.unreachable_bytes);
		}
		return;
	default:
		return;
	}
}

/* drivers/scsi/sd.c sd_format_disk_name() "sd", sr.c "sr": disks of a SCSI host (libata too). */
static bool is_scsi_disk(const char *disk)
{
	return disk && (strncmp(disk, "sd", 2) == 0 || strncmp(disk, "sr", 2) == 0);
}

enum { HAS_BLOCK = 1 << 0, HAS_SCSI_BLOCK = 1 << 1 };

/* Count each device's records in one pass (binary search by name): a 16 MiB log
 * holds 130,000 of them, and a device's findings take only the tally. */
static void tally_overflows(const struct machine *m, const struct dma_overflow *v, size_t n,
			    struct overflow_tally *per_device)
{
	for (size_t i = 0; i < n; i++) {
		const struct device *d = v[i].device ? machine_find_device(m, v[i].device) : NULL;
		if (!d)
			continue;
		struct overflow_tally *t = &per_device[d - m->devices];
		if (!t->n++)
			t->first = &v[i];
		t->last = &v[i];
	}
}

/* The "buffer is full" lines that found room in the pool, per device named. */
static void tally_no_slot(const struct machine *m, struct full_tally *per_device)
{
	for (size_t i = 0; i < m->n_swiotlb_full; i++) {
		const struct swiotlb_full *l = &m->swiotlb_full[i];
		const struct device *d = l->device ? machine_find_device(m, l->device) : NULL;
		if (!d || swiotlb_full_kind(l, &m->swiotlb) != FULL_WITH_ROOM)
			continue;
		struct full_tally *t = &per_device[d - m->devices];
		if (!t->n++)
			t->first = l;
	}
}

struct tallies {
	struct overflow_tally *dma, *pool;
	struct full_tally *no_slot;
};

/*
 * Before 5.5 the kernel never reads a host bridge's own dma-ranges; the window
 * they describe still bounds the hardware. It replaces r->map when there is
 * one: an identity window as window_ignored (the kernel takes no limit from
 * it); one with an offset, which would misdirect every buffer and which the
 * reach model does not express, as translated (a gap: pre-5.5 offset bridges).
 */
static int described_window(const struct device *d, struct device_report *r)
{
	struct dma_map described;
	int e = dma_map_from_dt(device_dt(d), DT_WALK_DEVICE_NODE, &described);

	if (e < 0)
		return e;
	if (described.state != DMA_MAP_RANGES) {
		dma_map_done(&described);
		return 0;
	}
	bool identity = true;
	for (size_t k = 0; identity && k < described.n_regions; k++)
		identity = described.regions[k].cpu_start == described.regions[k].dma_start;
	dma_map_done(&r->map);
	r->map = described;
	r->window_ignored = identity;
	return 0;
}

/*
 * The reach in CPU terms: where it ends (the true limit, as direct's), whether
 * a wider mask would move that end (else the window ends it), and the one
 * offset every region shares, as the kernel keeps it (cpu - bus).
 */
static void cpu_reach(struct device_report *r, enum range_map range_map)
{
	uint64_t window = r->window_unchecked ? r->map.bus_limit : r->bus_limit, end, widest;

	if (reach_cpu_end(&r->map, range_map, min_not_zero(r->dma_mask.v, window), &end)) {
		opt_set(&r->cpu_reach_end, end);
		r->mask_bound = !reach_cpu_end(&r->map, range_map, window, &widest) || widest > end;
	}
	if (range_map == RANGE_MAP_NONE || r->map.n_regions == 0)
		return;
	uint64_t off = r->map.regions[0].cpu_start - r->map.regions[0].dma_start;
	for (size_t k = 1; range_map == RANGE_MAP_REGIONS && k < r->map.n_regions; k++)
		if (r->map.regions[k].cpu_start - r->map.regions[k].dma_start != off)
			return;
	opt_set(&r->dma_offset, off);
}

static int analyse_one(const struct devices_input *in, const struct device *d, unsigned block,
		       const struct tallies *tallies, struct device_report *r)
{
	int walk = era_value(ERA_DT_WALK_START, in->release, in->arch_family, NULL);
	enum range_map range_map = (enum range_map)era_value(ERA_RANGE_MAP, in->release, in->arch_family, NULL);
	int e;

	memset(r, 0, sizeof(*r));
	r->dev = d;
	r->dma_overflows = tallies->dma[d - in->m->devices];
	r->pool_overflows = tallies->pool[d - in->m->devices];
	r->no_slot = tallies->no_slot[d - in->m->devices];
	r->has_block = block & HAS_BLOCK;
	r->scsi_block = block & HAS_SCSI_BLOCK;
	r->removable = device_removable(in, d);
	e = dma_map_from_dt(device_dt(d), walk, &r->map);
	if (e < 0)
		return e;
	if (walk == DT_WALK_ABOVE_NODE && r->map.state == DMA_MAP_IDENTITY) {
		e = described_window(d, r);
		if (e < 0)
			return e;
	}
	if (r->map.state == DMA_MAP_IDENTITY && !device_dt(d)->node && in->m->iort_read) {
		e = dma_map_from_iort(in->m, d, era_value(ERA_IORT_LIMIT, in->release, iort_arch(in), NULL),
				      &r->map);
		if (e < 0)
			return e;
	}
	if (r->map.state != DMA_MAP_RANGES || r->window_ignored)
		range_map = RANGE_MAP_NONE;
	pick_mask(in, d, r);
	/* the bit counts every format reports: sysfs's own number first */
	r->mask_bits = d->dma_mask_bits;
	if (!r->mask_bits.known && r->dma_mask.known)
		opt_set(&r->mask_bits, fls64(r->dma_mask.v));
	r->coherent_bits = d->coherent_mask_bits;
	if (!r->coherent_bits.known && r->coherent_mask.known)
		opt_set(&r->coherent_bits, fls64(r->coherent_mask.v));
	if (device_dt(d)->restricted_pool)
		r->restricted_ignored = restricted_pool_ignored(in, d);
	/* PCI class 06 (bridges) and DT PCI host controllers carry others' DMA */
	r->bridge = (d->have_pci_ids && (d->class_code >> 16) == 0x06) ||
		    (d->bus != DEV_BUS_PCI && device_dt(d)->n_chain && device_dt(d)->chain[0].is_pci);
	r->bus_limit = era_bus_limit(in, r);
	r->limit = r->dma_mask.known ? min_not_zero(r->dma_mask.v, r->bus_limit) : r->bus_limit;
	/* what the kernel checks reaches past the window: before 4.20 of_dma_configure()
	 * only clipped the mask at probe time, so a driver's wider dma_set_mask() later
	 * passes it; from 4.20 to 5.4 the bus limit it keeps is the window rounded up to
	 * DMA_BIT_MASK(ilog2(end) + 1) (a7ba70f1787f: "impossible to represent with a
	 * mask" for the Raspberry Pi 4's 3 GiB window) */
	r->window_unchecked = r->dma_mask.known && r->map.state == DMA_MAP_RANGES &&
			      r->limit > r->map.bus_limit;
	if (r->dma_mask.known && in->l->source != LAYOUT_SOURCE_NONE) {
		/* the device's true reach is the window, whatever the kernel checks */
		e = reach_compute(in->l, &r->map, range_map, r->dma_mask.v,
				  r->window_unchecked ? r->map.bus_limit : r->bus_limit, REACH_LIMIT,
				  &r->direct);
		if (e == 0)
			e = reach_compute(in->l, &r->map, range_map, r->dma_mask.v, r->bus_limit,
					  REACH_BITMASK, &r->bitmask);
		if (e < 0)
			return e;
	}
	if (r->dma_mask.known)
		cpu_reach(r, range_map);
	if (r->has_block) {
		/* only disks' devices carry it: 240 bytes a device at 10^6 devices otherwise */
		r->legacy = calloc(1, sizeof(*r->legacy));
		if (!r->legacy)
			return -ENOMEM;
		e = legacy_for(in, r, range_map, r->legacy);
		if (e < 0)
			return e;
	}
	int block_era = era_value(ERA_BLOCK_BOUNCE, in->release, in->arch_family, NULL);
	r->kernel_model = block_era == BLOCK_BOUNCE_PFN && r->has_block && device_legacy(r)->known
				  ? KERNEL_MODEL_LEGACY_BLOCK : KERNEL_MODEL_DMA_DIRECT;
	r->pool_reachable = TRI_UNKNOWN;
	apply(in, r, decide(in, r));
	verdict_unreachable_ram(in, r);
	prediction_check(in, r);
	return 0;
}

int devices_analyse(const struct devices_input *in, struct devices_result *ret)
{
	const struct machine *m = in->m;
	struct devices_result res = { 0 };
	_cleanup_free_ unsigned *block = calloc(m->n_devices ? m->n_devices : 1, sizeof(unsigned));
	_cleanup_free_ struct overflow_tally *dma = calloc(m->n_devices ? m->n_devices : 1, sizeof(*dma));
	_cleanup_free_ struct overflow_tally *pool = calloc(m->n_devices ? m->n_devices : 1, sizeof(*pool));
	_cleanup_free_ struct full_tally *no_slot = calloc(m->n_devices ? m->n_devices : 1, sizeof(*no_slot));
	const struct tallies tallies = { dma, pool, no_slot };
	int e = 0;

	if (!block || !dma || !pool || !no_slot)
		return -ENOMEM;
	tally_overflows(m, m->overflows, m->n_overflows, dma);
	tally_overflows(m, m->pool_overflows, m->n_pool_overflows, pool);
	tally_no_slot(m, no_slot);
	for (size_t i = 0; i < m->n_blocks; i++)
		if (m->blocks[i].dev_index.known && m->blocks[i].dev_index.v < m->n_devices)
			block[m->blocks[i].dev_index.v] |=
				HAS_BLOCK | (is_scsi_disk(m->blocks[i].disk) ? HAS_SCSI_BLOCK : 0);

	res.devices = calloc(m->n_devices ? m->n_devices : 1, sizeof(*res.devices));
	res.blocks = calloc(m->n_blocks ? m->n_blocks : 1, sizeof(*res.blocks));
	if (!res.devices || !res.blocks) {
		devices_result_done(&res);
		return -ENOMEM;
	}
	for (size_t i = 0; i < m->n_devices && e == 0; i++) {
		e = analyse_one(in, &m->devices[i], block[i], &tallies, &res.devices[i]);
		res.n_devices = i + 1;
	}
	for (size_t i = 0; i < m->n_blocks && e == 0; i++) {
		struct block_report *b = &res.blocks[i];
		b->q = &m->blocks[i];
		b->dr = b->q->dev_index.known && b->q->dev_index.v < res.n_devices
				? &res.devices[b->q->dev_index.v] : NULL;
		res.n_blocks = i + 1;
	}
	if (e < 0) {
		devices_result_done(&res);
		return e;
	}
	*ret = res;
	return 0;
}

void devices_result_done(struct devices_result *r)
{
	for (size_t i = 0; i < r->n_devices; i++) {
		dma_map_done(&r->devices[i].map);
		free(r->devices[i].legacy);
	}
	free(r->devices);
	free(r->blocks);
	memset(r, 0, sizeof(*r));
}
