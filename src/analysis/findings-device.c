/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A device's findings: what the kernel model predicts for a device that does
 * DMA, and what the kernel log proves happened to it. Pure: no I/O.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/eras.h"
#include "analysis/findings-device.h"
#include "analysis/findings-machine.h"
#include "analysis/prediction-check.h"
#include "shared/macro.h"
#include "shared/sat.h"
#include "shared/strbuf.h"

/* IO_TLB_SEGSIZE (128) slots of IO_TLB_SIZE (include/linux/swiotlb.h): the most one bounce holds */
#define SWIOTLB_MAX_MAPPING_BYTES (128ull << IO_TLB_SHIFT)

static bool legacy_decisions_differ(const struct legacy_result *lr)
{
	return legacy_block_differ(&lr->by_reading[MAX_LOW_PFN_COUNT],
				   &lr->by_reading[MAX_LOW_PFN_PFN]);
}

static void add_reach_evidence(struct findings *f, struct finding *x, const struct device_report *r)
{
	if (!r->mask_known) {
		finding_add_str(f, x, "mask_source", "none (BLK_BOUNCE_HIGH)");
		return;
	}
	finding_add_hex(f, x, "dma_mask", r->dma_mask);
	finding_add_str(f, x, "mask_source", mask_source_to_string(r->mask_source));
	if (r->bus_limit)
		finding_add_hex(f, x, "bus_limit", r->bus_limit);
	finding_add_hex(f, x, "limit", r->limit);
	finding_add_u64(f, x, "reachable_ram_bytes", r->direct.reachable_bytes);
	finding_add_u64(f, x, "unreachable_ram_bytes", r->direct.unreachable_bytes);
	if (r->direct.any_unreachable)
		finding_add_hex(f, x, "lowest_unreachable", r->direct.lowest_unreachable);
	if (r->direct.uncovered_bytes)
		finding_add_u64(f, x, "uncovered_by_dma_ranges_bytes", r->direct.uncovered_bytes);
}

static char *sized_message(const char *before, uint64_t bytes, const char *after)
{
	struct strbuf b = { 0 };
	strbuf_append(&b, before);
	strbuf_append_size(&b, bytes);
	strbuf_append(&b, after);
	return strbuf_steal(&b);
}

/* b4ebe6063204 (4.20): dma_capable() honours bus_dma_mask, which of_dma_configure() sets from dma-ranges */
#define WINDOW_REMEDY "use a 4.20+ kernel, whose dma_capable() checks the dma-ranges window " \
		      "(bus_dma_mask), or keep the driver's DMA mask within the window"
#define IGNORED_WINDOW_REMEDY "use a 5.5+ kernel, which reads the host bridge's own dma-ranges " \
			      "(951d48855d86), or keep the driver's DMA mask within the window"

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
		_cleanup_free_ char *msg =
			block ? sized_message("the block layer bounces ", k->bounce_bytes,
					      " of RAM for this device's queue (pages above bounce_pfn): "
					      "a copy on every I/O")
			      : sized_message("", r->direct.unreachable_bytes,
					      " of RAM is out of this device's reach: buffers there are "
					      "copied through a bounce buffer on every I/O");
		x = findings_add(f, FINDING_BOUNCE_NEEDED, d->id, msg);
		add_reach_evidence(f, x, r);
		if (block)
			finding_add_u64(f, x, "block_bounce_bytes", k->bounce_bytes);
	}
	if (r->verdict == VERDICT_FORCED && !sw->forced) {
		/* forced for this device alone: the machine-wide finding does not cover it */
		x = findings_add(f, FINDING_FORCED_BOUNCE, d->id, r->forced_why);
		add_reach_evidence(f, x, r);
		if (device_dt(d)->restricted_pool) {
			finding_set_remedy(f, x, "none needed: the devicetree confines this device's DMA "
						 "to its restricted-dma-pool");
		} else {
			finding_set_remedy(f, x, "give the device a mask above the C-bit (64-bit) if the "
						 "hardware allows, or a translated IOMMU domain");
			if (in->m->coco.cpuinfo_phys_bits)
				finding_add_u64(f, x, "physical_address_bits",
						in->m->coco.cpuinfo_phys_bits);
		}
	}
	if (r->verdict == VERDICT_FAILS && !r->missed_corrupts) {
		/* 5.0-5.18 try swiotlb_map() with no pool: the slot search fails instead */
		bool tries = sw->active == TRI_NO && !in->m->cmd.swiotlb_noforce &&
			     era_value(ERA_POOLLESS_MAP, in->release, in->arch_family, NULL) ==
				     POOLLESS_TRIES_SWIOTLB;
		_cleanup_free_ char *msg = sized_message("", r->direct.unreachable_bytes,
							 tries ? " of RAM is out of this device's reach and "
								 "there is no bounce buffer: DMA to it fails "
								 "(\"swiotlb buffer is full ... total 0 (slots)\")"
							       : " of RAM is out of this device's reach and "
								 "there is no usable bounce buffer: DMA to it "
								 "fails (\"DMA addr ... overflow\")");
		x = findings_add(f, FINDING_BOUNCE_IMPOSSIBLE, d->id, msg);
		if (in->m->cmd.swiotlb_noforce)
			finding_set_remedy(f, x, "drop swiotlb=noforce (or boot with swiotlb=<slabs>), "
						 "or enable an IOMMU");
		else if (sw->active == TRI_NO)
			finding_set_remedy(f, x, "give the kernel a bounce pool (swiotlb), or enable an "
						 "IOMMU");
		add_reach_evidence(f, x, r);
		finding_add_str(f, x, "swiotlb", sw->active == TRI_NO ? "absent" : "active");
	}
	if (r->missed_corrupts && r->kernel_model == KERNEL_MODEL_LEGACY_BLOCK) {
		_cleanup_free_ char *msg = sized_message(
			"the block layer does not bounce ", device_legacy(r)->missed_bytes,
			r->window_ignored
				? " of RAM past the host bridge's dma-ranges window, which a kernel before "
				  "5.5 never reads: nothing checks it, so DMA there goes astray"
			: r->window_unchecked && r->bus_limit
				? " of RAM past the devicetree dma-ranges window: from 4.20 to 5.4 "
				  "dma_capable() checks the window rounded up to a power of two, so DMA there "
				  "goes astray"
			: r->window_unchecked
				? " of RAM past the devicetree dma-ranges window, inside the device's mask: "
				  "before 4.20 dma_capable() checks only the mask, so DMA there goes astray"
				: " of RAM this device cannot reach: without a mask check further down, "
				  "its DMA reads or writes the wrong memory");
		x = findings_add(f, FINDING_BOUNCE_MISSED, d->id, msg);
		add_reach_evidence(f, x, r);
		const struct legacy_block *k = &device_legacy(r)->by_reading[device_legacy(r)->kernel_reading];
		finding_add_u64(f, x, "bounce_pfn", k->bounce_pfn);
		finding_add_u64(f, x, "missed_bytes", device_legacy(r)->missed_bytes);
		if (r->window_unchecked) {
			finding_add_hex(f, x, "window_end", r->map.bus_limit);
			finding_set_remedy(f, x, r->window_ignored ? IGNORED_WINDOW_REMEDY : WINDOW_REMEDY);
		}
	} else if (r->missed_corrupts && r->window_unchecked) {
		_cleanup_free_ char *msg = sized_message(
			"", r->direct.unreachable_bytes,
			r->window_ignored
				? " of RAM lies beyond the host bridge's dma-ranges window, which a kernel "
				  "before 5.5 never reads: nothing checks it, so DMA there goes astray"
				: r->bus_limit
				? " of RAM lies beyond the devicetree dma-ranges window: from 4.20 to 5.4 "
				  "the kernel checks the window rounded up to a power of two, so DMA there "
				  "goes astray"
				: " of RAM lies beyond the devicetree dma-ranges window, inside the device's "
				  "mask: before 4.20 nothing checks the window, so DMA there goes astray");
		x = findings_add(f, FINDING_BOUNCE_MISSED, d->id, msg);
		add_reach_evidence(f, x, r);
		finding_add_hex(f, x, "window_end", r->map.bus_limit);
		finding_set_remedy(f, x, r->window_ignored ? IGNORED_WINDOW_REMEDY : WINDOW_REMEDY);
	} else if (r->missed_corrupts) {
		_cleanup_free_ char *msg = sized_message(
			"", r->direct.unreachable_bytes,
			" of RAM is out of this device's reach and arm_dma_map_page() maps it "
			"unchecked, with no bounce buffer: its DMA reads or writes the wrong memory");
		x = findings_add(f, FINDING_BOUNCE_MISSED, d->id, msg);
		add_reach_evidence(f, x, r);
	}
	if (r->pool_reachable == TRI_NO && sw->pool_known) {
		x = findings_add(f, FINDING_SWIOTLB_OUT_OF_REACH, d->id,
				 "the swiotlb pool lies outside this device's reach: bouncing cannot "
				 "help it (\"swiotlb addr ... overflow\")");
		finding_add_hex(f, x, "pool_start", sw->pool_start);
		finding_add_hex(f, x, "pool_end", sw->pool_end - 1);
		finding_add_hex(f, x, "limit", r->limit);
	} else if (r->pool_reachable == TRI_NO && sw->pool_limit_known) {
		x = findings_add(f, FINDING_SWIOTLB_OUT_OF_REACH, d->id,
				 "the swiotlb pool lies below its derived bound, in RAM this device cannot "
				 "reach: bouncing cannot help it (\"swiotlb addr ... overflow\")");
		finding_add_hex(f, x, "pool_limit", sw->pool_limit);
		finding_add_str(f, x, "pool_limit_why", sw->pool_limit_why);
		finding_add_hex(f, x, "limit", r->limit);
	}
}

/* What the mask itself and the readings of max_low_pfn say about a device that does DMA. */
static void mask_findings(const struct devices_input *in, const struct device_report *r,
			  struct findings *f)
{
	const struct device *d = r->dev;
	struct finding *x;

	if (r->mask_known && !mask_is_contiguous(r->dma_mask)) {
		uint64_t diff = r->direct.reachable_bytes > r->bitmask.reachable_bytes
					? r->direct.reachable_bytes - r->bitmask.reachable_bytes
					: r->bitmask.reachable_bytes - r->direct.reachable_bytes;
		_cleanup_free_ char *msg =
			diff ? sized_message("DMA mask is not of the form 2^n-1: read as a limit (what "
					     "dma-direct does) and as a bitmask (the DMA-API definition) "
					     "it reaches different RAM; they differ by ",
					     diff, "")
			     : strdup("DMA mask is not of the form 2^n-1: the limit and bitmask "
				      "readings agree on this machine's RAM, but not on every layout");
		x = findings_add(f, FINDING_MASK_NOT_CONTIGUOUS, d->id, msg);
		if (!diff)
			finding_lower_severity(x, SEVERITY_INFO);
		finding_add_hex(f, x, "dma_mask", r->dma_mask);
		finding_add_u64(f, x, "reachable_as_limit_bytes", r->direct.reachable_bytes);
		finding_add_u64(f, x, "reachable_as_bitmask_bytes", r->bitmask.reachable_bytes);
	}
	if (r->mask_known && r->bus_limit && r->bus_limit < r->dma_mask) {
		x = findings_add(f, FINDING_MASK_LIMITED_BY_BUS, d->id,
				 "the firmware bus limit (devicetree dma-ranges) is below the DMA mask: "
				 "the bus limit decides the reach");
		finding_add_hex(f, x, "dma_mask", r->dma_mask);
		finding_add_hex(f, x, "bus_limit", r->bus_limit);
		if (r->map.node)
			finding_add_str(f, x, "dma_ranges_node", r->map.node);
	}
	/* a queue without a mask is the machine-wide pfn-count-confusion finding's case */
	if (device_legacy(r)->known && r->has_block && r->mask_known && legacy_decisions_differ(device_legacy(r)) &&
	    (device_legacy(r)->kernel_reading == MAX_LOW_PFN_COUNT || in->arch_family == ARCH_ARM)) {
		const struct legacy_block *c = &device_legacy(r)->by_reading[MAX_LOW_PFN_COUNT];
		const struct legacy_block *p = &device_legacy(r)->by_reading[MAX_LOW_PFN_PFN];
		bool used_count = device_legacy(r)->kernel_reading == MAX_LOW_PFN_COUNT;
		x = findings_add(f, FINDING_PFN_COUNT_CONFUSION, d->id,
				 "the block layer's bounce decision for this device's queue depends on "
				 "whether max_low_pfn is a page count or a PFN (they differ by the "
				 "memory base PFN)");
		if (!used_count)
			finding_lower_severity(x, SEVERITY_INFO);
		finding_set_remedy(f, x, used_count ? "use a v3.13+ kernel (ARM: 7805/1) or set the "
						      "queue's bounce limit from dma_max_pfn()"
						    : "none on this kernel; the count reading is what "
						      "32-bit ARM before v3.13 used");
		confusion_evidence(f, x, in->l, c, p);
		finding_add_hex(f, x, "dma_mask", r->dma_mask);
		finding_add_u64(f, x, "missed_bytes", device_legacy(r)->missed_bytes);
	}
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
		static const char *const what[] = {
			[UNTRUSTED_NO_POOL_FULL] = "so those mappings fail (\"swiotlb buffer is full\")",
			[UNTRUSTED_NO_POOL_PANIC] = "and this kernel panics on the first one (\"Can not "
						    "allocate SWIOTLB buffer earlier\")",
			[UNTRUSTED_NO_POOL_CHECKED] = "so those mappings fail (\"DMA bounce buffers are "
						      "inactive\")",
		};
		int era = era_value(ERA_UNTRUSTED_BOUNCE, in->release, in->arch_family, NULL);
		_cleanup_free_ char *msg = NULL;
		if (era <= UNTRUSTED_NOT_MODELLED || era > UNTRUSTED_NO_POOL_CHECKED)
			era = UNTRUSTED_NO_POOL_CHECKED;
		if (asprintf(&msg, "untrusted (external-facing) device: buffers not aligned to the "
				   "IOMMU page must bounce, and there is no swiotlb pool, %s", what[era]) < 0)
			msg = NULL;
		x = findings_add(f, FINDING_UNTRUSTED_BOUNCE_IMPOSSIBLE, r->dev->id,
				 msg ? msg : "untrusted (external-facing) device: no swiotlb pool to bounce "
					     "its unaligned buffers");
		finding_add_str(f, x, "without_pool", era == UNTRUSTED_NO_POOL_PANIC ? "panic" : "fails");
	} else {
		x = findings_add(f, FINDING_UNTRUSTED_BOUNCE, r->dev->id,
				 sw->active == TRI_YES
					 ? "untrusted (external-facing) device: buffers not aligned to the "
					   "IOMMU page bounce through swiotlb"
					 : "untrusted (external-facing) device: buffers not aligned to the "
					   "IOMMU page bounce through swiotlb; whether a pool exists is unknown");
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
	if (q->max_segment_size < 0 || q->max_hw_sectors_kb < 0)
		return false;
	uint64_t hw = sat_shl((uint64_t)q->max_hw_sectors_kb, 10);
	*ret = (uint64_t)q->max_segment_size < hw ? (uint64_t)q->max_segment_size : hw;
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
		if (q->dev_index >= m->n_devices || &m->devices[q->dev_index] != r->dev ||
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

	struct strbuf b = { 0 };
	strbuf_append(&b, "disk ");
	strbuf_append(&b, worst->disk ? worst->disk : "?");
	strbuf_append(&b, " allows segments of ");
	strbuf_append_size(&b, worst_seg);
	strbuf_append(&b, ", but one swiotlb bounce holds at most ");
	strbuf_append_size(&b, SWIOTLB_MAX_MAPPING_BYTES);
	strbuf_append(&b, worst_seg == SWIOTLB_MAX_MAPPING_BYTES
				  ? " and NVMe's min_align_mask keeps a segment's offset in it: a full "
				    "segment not on a 2 KiB boundary fails with \"swiotlb buffer is full\""
				  : ": larger I/O fails with \"swiotlb buffer is full\"");
	_cleanup_free_ char *msg = strbuf_steal(&b);
	struct finding *x = findings_add(f, FINDING_BOUNCE_MAPPING_TOO_LARGE, r->dev->id, msg);
	finding_add_str(f, x, "disk", worst->disk ? worst->disk : "");
	finding_add_u64(f, x, "segment_bytes", worst_seg);
	finding_add_u64(f, x, "max_segment_size", (uint64_t)worst->max_segment_size);
	finding_add_u64(f, x, "max_hw_sectors_kb", (uint64_t)worst->max_hw_sectors_kb);
	finding_add_u64(f, x, "swiotlb_max_mapping_bytes", SWIOTLB_MAX_MAPPING_BYTES);
	switch (align_era) {
	case MAPPING_ALIGN_NONE:
		finding_add_str(f, x, "swiotlb_max_mapping", "exact: no min_align_mask before 5.12");
		break;
	case MAPPING_ALIGN_UNCOUNTED:
		finding_add_str(f, x, "swiotlb_max_mapping",
				"upper bound: a device's min_align_mask (NVMe 4095) keeps its offset in "
				"the slots, which dma_max_mapping_size() ignores before 5.19");
		break;
	default:
		finding_add_str(f, x, "swiotlb_max_mapping",
				"upper bound: less roundup(min_align_mask, 2 KiB) for a device with one "
				"(NVMe 4095: 252 KiB), which sysfs does not show");
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
		x = findings_add(f, FINDING_SWIOTLB_OUT_OF_REACH, r->dev->id,
				 "the kernel log shows a bounce of this device that failed: the swiotlb "
				 "pool lies outside its reach (\"swiotlb addr ... overflow\"), so every "
				 "bounce fails");
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
		struct finding *x = findings_add(f, FINDING_DMA_OVERFLOW_LOGGED, r->dev->id,
						 "the kernel log shows a DMA mapping of this device that "
						 "failed: \"DMA addr ... overflow\"");
		add_tally_evidence(f, x, t);
		if (t->n > 1) {
			finding_add_hex(f, x, "last_addr", t->last->addr);
			finding_add_u64(f, x, "last_size", t->last->size);
		}
	}
	pool_overflow_finding(r, f);
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
	if (r->observed_result == OBSERVED_CONTRADICTED) {
		_cleanup_free_ char *msg = NULL;
		if (asprintf(&msg, "the kernel contradicts the verdict %s: %s",
			     verdict_to_string(r->verdict), r->observed_why) < 0)
			msg = NULL;
		x = findings_add(f, FINDING_PREDICTION_CONTRADICTED, r->dev->id,
				 msg ? msg : r->observed_why);
	} else {
		/* a consistent fails: swiotlb_bounced fired for attempts with no pool */
		_cleanup_free_ char *msg = sized_message("", od->bytes,
							 r->verdict == VERDICT_FAILS
								 ? " tried swiotlb in the window and failed: no pool"
								 : " bounced through swiotlb in the window");
		x = findings_add(f, FINDING_BOUNCE_OBSERVED, r->dev->id, msg);
	}
	finding_add_str(f, x, "verdict", verdict_to_string(r->verdict));
	finding_add_u64(f, x, "bounces", od->bounces);
	finding_add_u64(f, x, "bytes", od->bytes);
	finding_add_u64(f, x, "forced_bounces", od->forced_bounces);
	if (od->bounces) {
		finding_add_hex(f, x, "lowest_addr", od->lowest_addr);
		finding_add_hex(f, x, "highest_addr", od->highest_addr);
	}
	if (r->mask_known)
		finding_add_hex(f, x, "limit", r->limit);
	finding_add_u64(f, x, "overflow_messages", od->overflow_messages);
	finding_add_u64(f, x, "window_ms", (uint64_t)(o->window_seconds * 1000 + 0.5));
	if (o->window_seconds > 0)
		finding_add_u64(f, x, "bounces_per_second",
				(uint64_t)((double)od->bounces / o->window_seconds + 0.5));
}

void device_findings(const struct devices_input *in, const struct device_report *r,
			    struct findings *f)
{
	/* a device that does no DMA (unbound, a bridge, no sign of it) gets no
	 * prediction: a mask limited by the bus, or not 2^n-1, costs it nothing */
	if (r->verdict != VERDICT_IDLE) {
		predicted_findings(in, r, f);
		mapping_size_finding(in, r, f);
	}
	logged_findings(r, f);
	observed_findings(in, r, f);
}

