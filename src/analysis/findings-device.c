/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A device's findings: what the kernel model predicts for a device that does
 * DMA, and what the kernel log proves happened to it. Pure: no I/O.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/eras.h"
#include "analysis/findings-device.h"
#include "analysis/findings-evidence.h"
#include "analysis/prediction-check.h"
#include "shared/macro.h"
#include "shared/sat.h"

/* IO_TLB_SEGSIZE (128) slots of IO_TLB_SIZE (include/linux/swiotlb.h): the most one bounce holds */
#define SWIOTLB_MAX_MAPPING_BYTES (128ull << IO_TLB_SHIFT)

static bool legacy_decisions_differ(const struct legacy_result *lr)
{
	return legacy_block_differ(&lr->by_reading[MAX_LOW_PFN_COUNT],
				   &lr->by_reading[MAX_LOW_PFN_PFN]);
}

/* Where the reach ends in CPU addresses and the offset from bus addresses, where they are not the limit's. */
static void cpu_reach_evidence(struct findings *f, struct finding *x, const struct device_report *r)
{
	if (r->dma_offset.known && r->dma_offset.v)
		finding_add_offset(f, x, "dma_offset", r->dma_offset.v);
	if (r->cpu_reach_end.known && r->cpu_reach_end.v != r->limit)
		finding_add_hex(f, x, "cpu_reach_end", r->cpu_reach_end.v);
}

static void add_reach_evidence(struct findings *f, struct finding *x, const struct device_report *r)
{
	if (!r->dma_mask.known) {
		finding_add_str(f, x, "mask_source", "none (BLK_BOUNCE_HIGH)");
		return;
	}
	finding_add_hex(f, x, "dma_mask", r->dma_mask.v);
	finding_add_str(f, x, "mask_source", mask_source_to_string(r->mask_source));
	if (r->mask_row)
		finding_add_str(f, x, "mask_rule", r->mask_row->source);
	if (r->mask_why)
		finding_add_str(f, x, "mask_why", r->mask_why);
	if (r->bus_limit)
		finding_add_hex(f, x, "bus_limit", r->bus_limit);
	finding_add_hex(f, x, "limit", r->limit);
	cpu_reach_evidence(f, x, r);
	finding_add_u64(f, x, "reachable_ram_bytes", r->direct.reachable_bytes);
	finding_add_u64(f, x, "unreachable_ram_bytes", r->direct.unreachable_bytes);
	if (r->direct.any_unreachable)
		finding_add_hex(f, x, "lowest_unreachable", r->direct.lowest_unreachable);
	if (r->direct.uncovered_bytes)
		finding_add_u64(f, x, "uncovered_by_dma_ranges_bytes", r->direct.uncovered_bytes);
}

/*
 * The case of a device's bounce-missed: the window the kernel does not check
 * (never read before 5.5, rounded up 4.20-5.4, only the mask before 4.20),
 * else the block layer's missed pages or ARM's unchecked mapping.
 */
static enum finding_case missed_case(const struct device_report *r, bool block)
{
	if (!r->window_unchecked)
		return block ? FC_BOUNCE_MISSED_BLOCK : FC_BOUNCE_MISSED_ARM_UNCHECKED;
	if (r->window_ignored)
		return block ? FC_BOUNCE_MISSED_BLOCK_IGNORED_WINDOW : FC_BOUNCE_MISSED_IGNORED_WINDOW;
	if (r->bus_limit)
		return block ? FC_BOUNCE_MISSED_BLOCK_ROUNDED_WINDOW : FC_BOUNCE_MISSED_ROUNDED_WINDOW;
	return block ? FC_BOUNCE_MISSED_BLOCK_UNCHECKED_WINDOW : FC_BOUNCE_MISSED_UNCHECKED_WINDOW;
}

/* The case of a device's bounce-needed: its limiter's remedy, below the block layer or in it. */
static enum finding_case needed_case(const struct device_report *r, bool block)
{
	switch (r->limiter) {
	case LIMITER_KERNEL_ERA:
		return FC_BOUNCE_NEEDED_BLOCK_ERA; /* only the block layer's arithmetic decides by era */
	case LIMITER_BUS_WINDOW:
		return block ? FC_BOUNCE_NEEDED_BLOCK_WINDOW : FC_BOUNCE_NEEDED_WINDOW;
	case LIMITER_IOMMU:
		return block ? FC_BOUNCE_NEEDED_BLOCK : FC_BOUNCE_NEEDED_IOMMU;
	default:
		return block ? FC_BOUNCE_NEEDED_BLOCK : FC_BOUNCE_NEEDED;
	}
}

/* What bouncing, forced bouncing or its failure predicts for a device that does DMA. */
static void bounce_findings(const struct devices_input *in, const struct device_report *r,
			    struct findings *f)
{
	const struct device *d = r->dev;
	const struct swiotlb_state *sw = in->sw;
	struct finding *x;

	if (r->verdict == VERDICT_PARTIAL) {
		const struct legacy_block *k = &device_legacy(r)->by_reading[device_legacy(r)->kernel_reading];
		bool block = r->kernel_model == KERNEL_MODEL_LEGACY_BLOCK && k->bounce_bytes;
		x = findings_raise(f, needed_case(r, block), d->id,
				   &(struct finding_args){ .bytes = block ? k->bounce_bytes
									  : r->direct.unreachable_bytes });
		add_reach_evidence(f, x, r);
		finding_add_str(f, x, "limiter", reach_limiter_to_string(r->limiter));
		if (block)
			finding_add_u64(f, x, "block_bounce_bytes", k->bounce_bytes);
	}
	if (r->verdict == VERDICT_FORCED && !sw->forced) {
		/* forced for this device alone: the machine-wide finding does not cover it */
		bool pool = device_dt(d)->restricted_pool;
		x = findings_raise(f, pool ? FC_FORCED_BOUNCE_RESTRICTED_POOL : FC_FORCED_BOUNCE_MASK,
				   d->id, &(struct finding_args){ .why = r->forced_why });
		add_reach_evidence(f, x, r);
		if (!pool && in->m->coco.cpuinfo_phys_bits.known)
			finding_add_u64(f, x, "physical_address_bits", in->m->coco.cpuinfo_phys_bits.v);
	}
	if (r->verdict == VERDICT_FAILS && !r->missed_corrupts) {
		/* 5.0-5.18 try swiotlb_map() with no pool where mem_init() left swiotlb_force
		 * alone (x86): the slot search fails instead; ERA_POOLLESS_MAP is per arch */
		bool tries = sw->active == TRI_NO && !sw->cmdline_noforce &&
			     era_value(ERA_POOLLESS_MAP, in->release, in->arch_family, NULL) ==
				     POOLLESS_TRIES_SWIOTLB;
		/* forced (devices.c forced_decision): every mapping bounces through a pool out of
		 * reach, so all RAM fails, and the pool is there (swiotlb-out-of-reach places it) */
		enum finding_case c = r->forced			 ? FC_BOUNCE_IMPOSSIBLE_FORCED
				      : tries			 ? FC_BOUNCE_IMPOSSIBLE_NO_SLOTS
				      : sw->cmdline_noforce	 ? FC_BOUNCE_IMPOSSIBLE_NOFORCE
				      : sw->active == TRI_NO	 ? FC_BOUNCE_IMPOSSIBLE_NO_POOL
								 : FC_BOUNCE_IMPOSSIBLE;
		uint64_t bytes = r->forced && r->unreachable_ram_bytes.known ? r->unreachable_ram_bytes.v
									     : r->direct.unreachable_bytes;
		x = findings_raise(f, c, d->id,
				   &(struct finding_args){ .bytes = bytes, .why = r->forced_why });
		add_reach_evidence(f, x, r);
		finding_add_str(f, x, "limiter", reach_limiter_to_string(r->limiter));
		finding_add_str(f, x, "swiotlb", sw->active == TRI_NO ? "absent" : "active");
		if (r->forced) {
			finding_add_str(f, x, "forced_by", r->forced_why ? r->forced_why : "");
			finding_add_u64(f, x, "failing_ram_bytes", bytes);
		}
	}
	if (r->missed_corrupts && r->kernel_model == KERNEL_MODEL_LEGACY_BLOCK) {
		x = findings_raise(f, missed_case(r, true), d->id,
				   &(struct finding_args){ .bytes = device_legacy(r)->missed_bytes });
		add_reach_evidence(f, x, r);
		finding_add_str(f, x, "limiter", reach_limiter_to_string(r->limiter));
		const struct legacy_block *k = &device_legacy(r)->by_reading[device_legacy(r)->kernel_reading];
		finding_add_pfn(f, x, "bounce_pfn", k->bounce_pfn);
		finding_add_u64(f, x, "missed_bytes", device_legacy(r)->missed_bytes);
		if (r->window_unchecked)
			finding_add_hex(f, x, "window_end", r->map.bus_limit);
	} else if (r->missed_corrupts) {
		x = findings_raise(f, missed_case(r, false), d->id,
				   &(struct finding_args){ .bytes = r->direct.unreachable_bytes });
		add_reach_evidence(f, x, r);
		finding_add_str(f, x, "limiter", reach_limiter_to_string(r->limiter));
		if (r->window_unchecked)
			finding_add_hex(f, x, "window_end", r->map.bus_limit);
	}
	if (r->pool_reachable == TRI_NO && sw->pool.known) {
		x = findings_raise(f, FC_SWIOTLB_OUT_OF_REACH, d->id, NULL);
		finding_add_hex(f, x, "pool_start", sw->pool.start);
		finding_add_hex(f, x, "pool_end", sw->pool.end - 1);
		finding_add_hex(f, x, "limit", r->limit);
	} else if (r->pool_reachable == TRI_NO && sw->pool_limit.known) {
		x = findings_raise(f, FC_SWIOTLB_OUT_OF_REACH_BELOW_BOUND, d->id, NULL);
		finding_add_hex(f, x, "pool_limit", sw->pool_limit.v);
		finding_add_str(f, x, "pool_limit_why", sw->pool_limit_why);
		finding_add_hex(f, x, "limit", r->limit);
	}
}

/*
 * pfn-count-confusion for a device's queue whose decision differs by reading:
 * on a kernel that keeps the count, what the count costs this queue (mask or
 * BLK_BOUNCE_HIGH); on 32-bit ARM that keeps the PFN, a queue with a mask
 * only (without one, the machine-wide finding says what a count would do).
 */
static void confusion_queue_finding(const struct devices_input *in, const struct device_report *r,
				    struct findings *f)
{
	const struct legacy_result *lr = device_legacy(r);
	bool used_count = lr->kernel_reading == MAX_LOW_PFN_COUNT;

	if (!lr->known || !r->has_block || !legacy_decisions_differ(lr) ||
	    !(used_count || (in->arch_family == ARCH_ARM && r->dma_mask.known)))
		return;
	const struct legacy_block *c = &lr->by_reading[MAX_LOW_PFN_COUNT];
	const struct legacy_block *p = &lr->by_reading[MAX_LOW_PFN_PFN];
	enum finding_case fc = !used_count		       ? FC_PFN_COUNT_CONFUSION_QUEUE_NOT_USED
			       : lr->count_reading_only_bytes   ? FC_PFN_COUNT_CONFUSION_QUEUE_BOUNCED
			       : lr->count_reading_missed_bytes ? FC_PFN_COUNT_CONFUSION_QUEUE_MISSED
								: FC_PFN_COUNT_CONFUSION_QUEUE;
	struct finding *x = findings_raise(
		f, fc, r->dev->id,
		&(struct finding_args){ .bytes = lr->count_reading_only_bytes ? lr->count_reading_only_bytes
									       : lr->count_reading_missed_bytes,
					.max_bytes = c->bounce_bytes });
	confusion_evidence(f, x, in->l, c, p);
	if (r->dma_mask.known)
		finding_add_hex(f, x, "dma_mask", r->dma_mask.v);
	else
		finding_add_str(f, x, "mask_source", "none (BLK_BOUNCE_HIGH)");
	finding_add_u64(f, x, "missed_bytes", lr->missed_bytes);
	if (used_count) {
		finding_add_u64(f, x, "count_reading_only_bytes", lr->count_reading_only_bytes);
		finding_add_u64(f, x, "count_reading_missed_bytes", lr->count_reading_missed_bytes);
	}
}

/* What the mask itself and the readings of max_low_pfn say about a device that does DMA. */
static void mask_findings(const struct devices_input *in, const struct device_report *r,
			  struct findings *f)
{
	const struct device *d = r->dev;
	struct finding *x;

	if (r->dma_mask.known && !mask_is_contiguous(r->dma_mask.v)) {
		uint64_t diff = r->direct.reachable_bytes > r->bitmask.reachable_bytes
					? r->direct.reachable_bytes - r->bitmask.reachable_bytes
					: r->bitmask.reachable_bytes - r->direct.reachable_bytes;
		x = findings_raise(f, diff ? FC_MASK_NOT_CONTIGUOUS : FC_MASK_NOT_CONTIGUOUS_AGREES,
				   d->id, &(struct finding_args){ .bytes = diff });
		finding_add_hex(f, x, "dma_mask", r->dma_mask.v);
		finding_add_u64(f, x, "reachable_as_limit_bytes", r->direct.reachable_bytes);
		finding_add_u64(f, x, "reachable_as_bitmask_bytes", r->bitmask.reachable_bytes);
	}
	/* in CPU terms: a window with an offset ends the reach below the mask though its
	 * bus limit is not (the Raspberry Pi 4's emmc2: bus 0xc0000000-0xffffffff, CPU 1 GiB) */
	if (r->dma_mask.known && r->bus_limit && r->cpu_reach_end.known &&
	    r->cpu_reach_end.v < r->dma_mask.v) {
		x = findings_raise(f, r->map.from_iort ? FC_MASK_LIMITED_BY_IORT : FC_MASK_LIMITED_BY_BUS,
				   d->id, NULL);
		finding_add_hex(f, x, "dma_mask", r->dma_mask.v);
		finding_add_hex(f, x, "bus_limit", r->bus_limit);
		cpu_reach_evidence(f, x, r);
		if (r->map.node)
			finding_add_str(f, x, "dma_ranges_node", r->map.node);
	}
	confusion_queue_finding(in, r, f);
}

/* An untrusted device's unaligned buffers bounce: fine with a pool, failing without one. */
static void untrusted_finding(const struct devices_input *in, const struct device_report *r,
			      struct findings *f)
{
	const struct swiotlb_state *sw = in->sw;
	struct finding *x;

	if (!r->untrusted)
		return;
	if (sw->active == TRI_NO) {
		static const enum finding_case without_pool[] = {
			[UNTRUSTED_NO_POOL_FULL] = FC_UNTRUSTED_BOUNCE_IMPOSSIBLE_FULL,
			[UNTRUSTED_NO_POOL_PANIC] = FC_UNTRUSTED_BOUNCE_IMPOSSIBLE_PANIC,
			[UNTRUSTED_NO_POOL_CHECKED] = FC_UNTRUSTED_BOUNCE_IMPOSSIBLE_CHECKED,
		};
		int era = era_value(ERA_UNTRUSTED_BOUNCE, in->release, in->arch_family, NULL);
		if (era <= UNTRUSTED_NOT_MODELLED || era > UNTRUSTED_NO_POOL_CHECKED)
			era = UNTRUSTED_NO_POOL_CHECKED;
		x = findings_raise(f, without_pool[era], r->dev->id, NULL);
		finding_add_str(f, x, "without_pool", era == UNTRUSTED_NO_POOL_PANIC ? "panic" : "fails");
	} else {
		x = findings_raise(f, sw->active == TRI_YES ? FC_UNTRUSTED_BOUNCE
							    : FC_UNTRUSTED_BOUNCE_POOL_UNKNOWN,
				   r->dev->id, NULL);
	}
	finding_add_str(f, x, "iommu_domain", r->dev->iommu_type ? r->dev->iommu_type : "");
	finding_add_str(f, x, "swiotlb", sw->active == TRI_YES ? "active"
					 : sw->active == TRI_NO ? "absent" : "unknown");
}

/* What the models predict for a device that does DMA. */
static void predicted_findings(const struct devices_input *in, const struct device_report *r,
			       struct findings *f)
{
	bounce_findings(in, r, f);
	mask_findings(in, r, f);
	untrusted_finding(in, r, f);
}

/*
 * Whether the device's buffers go through swiotlb (not the pre-5.13 block
 * layer's own page copies): only then does kernel/dma/direct.c
 * dma_direct_max_mapping_size() give swiotlb_max_mapping_size(), i.e. when
 * is_swiotlb_active() and (dma_addressing_limited() or is_swiotlb_force_bounce()).
 */
static bool bounces_through_swiotlb(const struct device_report *r)
{
	return r->verdict == VERDICT_FORCED ||
	       (r->verdict == VERDICT_PARTIAL && r->out_of_reach_decides);
}

/* The largest segment a request on q can carry: min(max_segment_size, max_hw_sectors_kb KiB); false when either is absent. */
static bool queue_max_segment(const struct block_queue *q, uint64_t *ret)
{
	if (!q->max_segment_size.known || !q->max_hw_sectors_kb.known)
		return false;
	uint64_t hw = sat_shl((uint64_t)q->max_hw_sectors_kb.v, 10);
	*ret = (uint64_t)q->max_segment_size.v < hw ? (uint64_t)q->max_segment_size.v : hw;
	return true;
}

/*
 * bounce-mapping-too-large: a bounce is at most 128 slots in one piece
 * (swiotlb_find_slots fails beyond it, "swiotlb buffer is full (sz: ...)",
 * dynamic pools included). Drivers that cap their queue with
 * dma_max_mapping_size() (virtio-blk 5.1, nvme and SCSI 5.3, sdhci) show it in
 * the limits, so no driver list is needed. min_align_mask is not in sysfs:
 * 256 KiB is the upper bound, a device with one (NVMe: 4095) fits less.
 */
static void mapping_size_finding(const struct devices_input *in, const struct device_report *r,
				 struct findings *f)
{
	const struct machine *m = in->m;
	const struct block_queue *worst = NULL;
	uint64_t worst_seg = 0, disks = 0;
	int align_era = era_value(ERA_MAPPING_ALIGN, in->release, in->arch_family, NULL);
	/* 5.12-5.18: nvme_probe's dma_set_min_align_mask(4095) keeps a segment's
	 * offset in the slots, which dma_max_mapping_size() ignores, so NVMe's
	 * 256 KiB segment not on a 2 KiB boundary needs 129 slots (find_slots) */
	bool at_limit_fails = align_era == MAPPING_ALIGN_UNCOUNTED && r->dev->driver &&
			      strcmp(r->dev->driver, "nvme") == 0;

	if (!bounces_through_swiotlb(r))
		return;
	for (size_t i = 0; i < m->n_blocks; i++) {
		const struct block_queue *q = &m->blocks[i];
		uint64_t seg;
		if (!q->dev_index.known || q->dev_index.v >= m->n_devices || &m->devices[q->dev_index.v] != r->dev ||
		    !queue_max_segment(q, &seg) ||
		    (at_limit_fails ? seg < SWIOTLB_MAX_MAPPING_BYTES : seg <= SWIOTLB_MAX_MAPPING_BYTES))
			continue;
		disks++;
		if (!worst || seg > worst_seg) {
			worst = q;
			worst_seg = seg;
		}
	}
	if (!worst)
		return;

	struct finding *x = findings_raise(
		f,
		worst_seg == SWIOTLB_MAX_MAPPING_BYTES ? FC_BOUNCE_MAPPING_TOO_LARGE_ALIGNED
						       : FC_BOUNCE_MAPPING_TOO_LARGE,
		r->dev->id,
		&(struct finding_args){ .text = worst->disk ? worst->disk : "?",
					.bytes = worst_seg,
					.max_bytes = SWIOTLB_MAX_MAPPING_BYTES });
	finding_add_str(f, x, "disk", worst->disk ? worst->disk : "");
	finding_add_u64(f, x, "segment_bytes", worst_seg);
	finding_add_u64(f, x, "max_segment_size", (uint64_t)worst->max_segment_size.v);
	finding_add_u64(f, x, "max_hw_sectors_kb", (uint64_t)worst->max_hw_sectors_kb.v);
	finding_add_u64(f, x, "swiotlb_max_mapping_bytes", SWIOTLB_MAX_MAPPING_BYTES);
	switch (align_era) {
	case MAPPING_ALIGN_NONE:
		finding_add_str(f, x, "swiotlb_max_mapping", "exact: no min_align_mask before 5.12");
		break;
	case MAPPING_ALIGN_UNCOUNTED:
		finding_add_str(f, x, "swiotlb_max_mapping",
				"upper bound: a device's min_align_mask (NVMe 0xfff) keeps its offset in "
				"the slots, which dma_max_mapping_size() ignores before 5.19");
		break;
	default:
		finding_add_str(f, x, "swiotlb_max_mapping",
				"upper bound: less roundup(min_align_mask, 2 KiB) for a device with one "
				"(NVMe 0xfff: 252 KiB), which sysfs does not show");
		break;
	}
	if (disks > 1)
		finding_add_u64(f, x, "disks", disks);
}

/* The swiotlb-out-of-reach finding already raised for this device, or NULL. */
static struct finding *find_device_finding(struct findings *f, enum finding_id id, const char *device)
{
	for (size_t i = f->n; i-- > 0;)
		if (f->v[i].id == id && f->v[i].device && strcmp(f->v[i].device, device) == 0)
			return &f->v[i];
	return NULL;
}

/* The first logged record's numbers and how many there are. */
static void add_tally_evidence(struct findings *f, struct finding *x, const struct overflow_tally *t)
{
	finding_add_hex(f, x, "addr", t->first->addr);
	finding_add_u64(f, x, "size", t->first->size);
	finding_add_hex(f, x, "mask", t->first->mask);
	finding_add_hex(f, x, "bus_limit", t->first->bus_limit);
	finding_add_u64(f, x, "log_lines", t->n);
}


/*
 * "swiotlb addr ... overflow" (kernel/dma/swiotlb.c swiotlb_map, dev_WARN_ONCE:
 * once per boot for all devices): a bounce slot came back beyond this
 * device's dma_capable(), so the mapping failed, and so do its other bounces.
 * The prediction's swiotlb-out-of-reach, when raised, takes the log's numbers.
 */
static void pool_overflow_finding(const struct device_report *r, struct findings *f)
{
	const struct overflow_tally *t = &r->pool_overflows;

	if (!t->n)
		return;
	struct finding *x = find_device_finding(f, FINDING_SWIOTLB_OUT_OF_REACH, r->dev->id);
	if (!x)
		x = findings_raise(f, FC_SWIOTLB_OUT_OF_REACH_LOGGED, r->dev->id, NULL);
	add_tally_evidence(f, x, t);
}

/*
 * What the kernel log proves happened to the device, whatever it does now:
 * one finding per kind, however many records (a log can hold 130,000), with
 * the first record's numbers, the last's address and the count.
 */
static void logged_findings(const struct device_report *r, struct findings *f)
{
	const struct overflow_tally *t = &r->dma_overflows;

	if (t->n) {
		struct finding *x = findings_raise(f, FC_DMA_OVERFLOW_LOGGED, r->dev->id, NULL);
		add_tally_evidence(f, x, t);
		if (t->n > 1) {
			finding_add_hex(f, x, "last_addr", t->last->addr);
			finding_add_u64(f, x, "last_size", t->last->size);
		}
	}
	pool_overflow_finding(r, f);
	if (r->no_slot.n) {
		const struct swiotlb_full *l = r->no_slot.first;
		struct finding *x = findings_raise(f, FC_SWIOTLB_NO_SLOT, r->dev->id, NULL);
		add_full_evidence(f, x, l, r->no_slot.n);
	}
}

/* --observe: the trace against the verdict. */
static void observed_findings(const struct devices_input *in, const struct device_report *r,
			      struct findings *f)
{
	const struct observed_device *od = r->observed;
	const struct observation *o = &in->m->observed;
	struct finding *x;

	if (!od || (r->observed_result != OBSERVED_CONTRADICTED && !od->bounces))
		return;
	if (r->observed_result == OBSERVED_CONTRADICTED)
		x = findings_raise(f, FC_PREDICTION_CONTRADICTED, r->dev->id,
				   &(struct finding_args){ .text = verdict_to_string(r->verdict),
							   .why = r->observed_why });
	else
		x = findings_raise(f, r->verdict == VERDICT_FAILS ? FC_BOUNCE_OBSERVED_FAILED
								  : FC_BOUNCE_OBSERVED,
				   r->dev->id, &(struct finding_args){ .bytes = od->bytes });
	finding_add_str(f, x, "verdict", verdict_to_string(r->verdict));
	finding_add_u64(f, x, "bounces", od->bounces);
	finding_add_u64(f, x, "bytes", od->bytes);
	finding_add_u64(f, x, "forced_bounces", od->forced_bounces);
	if (od->bounces) {
		finding_add_hex(f, x, "lowest_addr", od->lowest_addr);
		finding_add_hex(f, x, "highest_addr", od->highest_addr);
	}
	if (r->dma_mask.known)
		finding_add_hex(f, x, "limit", r->limit);
	finding_add_u64(f, x, "overflow_messages", od->overflow_messages);
	finding_add_u64(f, x, "window_ms", (uint64_t)(o->window_seconds * 1000 + 0.5));
	if (o->window_seconds > 0) {
		/* in millionths: 1 bounce in 5 s is 0.2, not 0; a window is at most a day
		 * (observed.c parse_seconds), so one bounce is at least 11 millionths */
		double micro = (double)od->bounces / o->window_seconds * 1e6 + 0.5;
		uint64_t v = micro >= 1.8e19 ? UINT64_MAX : (uint64_t)micro;
		finding_add_micro(f, x, "bounces_per_second", od->bounces && !v ? 1 : v);
	}
}

/* verdict-unknown: the case names what is missing and how to supply it. */
_Static_assert(FC_VERDICT_UNKNOWN_OWNER - FC_VERDICT_UNKNOWN == UNKNOWN_CAUSE_OWNER &&
		       _UNKNOWN_CAUSE_MAX == UNKNOWN_CAUSE_OWNER + 1,
	       "one verdict-unknown case per enum unknown_cause, in its order");
static void unknown_finding(const struct device_report *r, struct findings *f)
{
	static const char *const missing[_UNKNOWN_CAUSE_MAX] = {
		[UNKNOWN_CAUSE_OTHER] = "other", [UNKNOWN_CAUSE_MASK] = "dma-mask",
		[UNKNOWN_CAUSE_LAYOUT] = "memory-layout",
		[UNKNOWN_CAUSE_CONTRADICTION] = "memory-inputs-agree",
		[UNKNOWN_CAUSE_POOL] = "swiotlb-pool",
		[UNKNOWN_CAUSE_DEVICETREE] = "devicetree", [UNKNOWN_CAUSE_KERNEL] = "kernel-build",
		[UNKNOWN_CAUSE_HARDWARE] = "cpu", [UNKNOWN_CAUSE_RELEASE] = "kernel-release",
		[UNKNOWN_CAUSE_PORT] = "external-facing",
		[UNKNOWN_CAUSE_XEN] = "machine-addresses",
		[UNKNOWN_CAUSE_OWNER] = "owner",
	};
	enum unknown_cause c = r->unknown_cause >= 0 && r->unknown_cause < _UNKNOWN_CAUSE_MAX
				       ? r->unknown_cause : UNKNOWN_CAUSE_OTHER;

	if (r->verdict != VERDICT_UNKNOWN)
		return;
	struct finding *x = findings_raise(f, (enum finding_case)(FC_VERDICT_UNKNOWN + c), r->dev->id,
					   &(struct finding_args){ .why = r->reason ? r->reason : "?" });
	finding_add_str(f, x, "missing", missing[c]);
}

void device_findings(const struct devices_input *in, const struct device_report *r,
			    struct findings *f)
{
	unknown_finding(r, f);
	/* a device that does no DMA (unbound, a bridge, no sign of it) gets no
	 * prediction: a mask limited by the bus, or not 2^n-1, costs it nothing */
	if (r->verdict != VERDICT_IDLE) {
		predicted_findings(in, r, f);
		mapping_size_finding(in, r, f);
	}
	logged_findings(r, f);
	observed_findings(in, r, f);
}

