/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The catalogue of findings: each id's name, then its highest severity and
 * usual remedy, and each case it is raised in with its message template, severity
 * and remedy. Call sites name a case and pass values (struct finding_args);
 * the words are all here. lsblk's infos[] is the model.
 */
#include <string.h>

#include "analysis/finding-catalogue.h"
#include "shared/string-table.h"
#include "shared/strbuf.h"

/* The ids' names, stable (JSON "id", Prometheus label), in the man page's order (FINDINGS). */
static const char *const finding_id_table[_FINDING_ID_MAX] = {
	[FINDING_IOMEM_HIDDEN] = "iomem-hidden",
	[FINDING_MEMORY_LAYOUT_UNKNOWN] = "memory-layout-unknown",
	[FINDING_LOWMEM_UNKNOWN] = "lowmem-unknown",
	[FINDING_MEMORY_INPUTS_DISAGREE] = "memory-inputs-disagree",
	[FINDING_SNAPSHOT_INCONSISTENT] = "snapshot-inconsistent",
	[FINDING_BOUNCE_NEEDED] = "bounce-needed",
	[FINDING_BOUNCE_IMPOSSIBLE] = "bounce-impossible",
	[FINDING_BOUNCE_MISSED] = "bounce-missed",
	[FINDING_SWIOTLB_OUT_OF_REACH] = "swiotlb-out-of-reach",
	[FINDING_SWIOTLB_PRESSURE] = "swiotlb-pressure",
	[FINDING_SWIOTLB_NO_SLOT] = "swiotlb-no-slot",
	[FINDING_FORCED_BOUNCE] = "forced-bounce",
	[FINDING_MASK_NOT_CONTIGUOUS] = "mask-not-contiguous",
	[FINDING_MASK_LIMITED_BY_BUS] = "mask-limited-by-bus",
	[FINDING_PFN_COUNT_CONFUSION] = "pfn-count-confusion",
	[FINDING_DMA_OVERFLOW_LOGGED] = "dma-overflow-logged",
	[FINDING_XEN_PV_UNDECIDABLE] = "xen-pv-undecidable",
	[FINDING_SNAPSHOT_INCOMPLETE] = "snapshot-incomplete",
	[FINDING_BOUNCE_MAPPING_TOO_LARGE] = "bounce-mapping-too-large",
	[FINDING_UNTRUSTED_BOUNCE] = "untrusted-bounce",
	[FINDING_UNTRUSTED_BOUNCE_IMPOSSIBLE] = "untrusted-bounce-impossible",
	[FINDING_PREDICTION_CONTRADICTED] = "prediction-contradicted",
	[FINDING_BOUNCE_OBSERVED] = "bounce-observed",
	[FINDING_DEVICES_NOT_VISIBLE] = "devices-not-visible",
	[FINDING_VERDICT_UNKNOWN] = "verdict-unknown",
	[FINDING_NO_BOUNCE_POOL] = "no-bounce-pool",
};
DEFINE_STRING_TABLE_LOOKUP(finding_id, enum finding_id);

static const char *const severity_table[_SEVERITY_MAX] = {
	[SEVERITY_INFO] = "info",
	[SEVERITY_WARNING] = "warning",
	[SEVERITY_ERROR] = "error",
};

DEFINE_STRING_TABLE_LOOKUP(severity, enum severity);

static const struct finding_info catalogue[_FINDING_ID_MAX] = {
	[FINDING_IOMEM_HIDDEN] = { SEVERITY_INFO,
		"run as root (CAP_SYS_ADMIN) for the exact System RAM ranges" },
	[FINDING_MEMORY_LAYOUT_UNKNOWN] = { SEVERITY_ERROR,
		"check the inputs list: proc/iomem (as root) or proc/zoneinfo must be readable" },
	[FINDING_LOWMEM_UNKNOWN] = { SEVERITY_WARNING,
		"make proc/zoneinfo readable, or capture it with the snapshot" },
	[FINDING_MEMORY_INPUTS_DISAGREE] = { SEVERITY_ERROR,
		"audit again (memory hot-plugged between the reads?); if it stays, report the three "
		"files: a snapshot edited or assembled from two machines, or a kernel bug" },
	[FINDING_SNAPSHOT_INCONSISTENT] = { SEVERITY_ERROR,
		"capture again with --capture; a MANIFEST written by hand or copied from another "
		"snapshot must say what the tree's kernel files say" },
	[FINDING_BOUNCE_NEEDED] = { SEVERITY_WARNING,
		"widen the driver's DMA mask if the hardware allows (the mask ends its reach), "
		"translate it through an IOMMU, or keep its buffers in low memory" },
	[FINDING_BOUNCE_IMPOSSIBLE] = { SEVERITY_ERROR,
		"place the swiotlb pool within the device's reach (swiotlb= and memory layout), or "
		"enable an IOMMU" },
	[FINDING_BOUNCE_MISSED] = { SEVERITY_ERROR,
		"give the queue a bounce limit that matches the reach (a contiguous mask, "
		"dma-ranges), or use a kernel that checks dma_capable()" },
	[FINDING_SWIOTLB_OUT_OF_REACH] = { SEVERITY_ERROR,
		"move the pool low (swiotlb placement, mem= or a restricted-dma-pool the device "
		"reaches)" },
	[FINDING_SWIOTLB_PRESSURE] = { SEVERITY_WARNING,
		"enlarge it with swiotlb=<slabs> or remove the need to bounce" },
	[FINDING_SWIOTLB_NO_SLOT] = { SEVERITY_ERROR,
		"a larger pool does not help: see swiotlb-out-of-reach (the pool must lie in the "
		"device's dma-ranges window), or cap the device's I/O below 256 KiB" },
	[FINDING_FORCED_BOUNCE] = { SEVERITY_INFO,
		"expected for confidential guests; otherwise drop swiotlb=force" },
	[FINDING_MASK_NOT_CONTIGUOUS] = { SEVERITY_WARNING,
		"express the reach as dma-ranges (a bus limit and offset) and keep the mask 2^n-1" },
	[FINDING_MASK_LIMITED_BY_BUS] = { SEVERITY_INFO,
		"none needed if the dma-ranges are right; otherwise fix the devicetree" },
	[FINDING_PFN_COUNT_CONFUSION] = { SEVERITY_WARNING,
		"use a v3.13+ kernel (26ba47b18318, ARM: 7805/1 makes max*pfn absolute)" },
	[FINDING_DMA_OVERFLOW_LOGGED] = { SEVERITY_ERROR,
		"see bounce-impossible; the log line is proof the failure happens" },
	[FINDING_XEN_PV_UNDECIDABLE] = { SEVERITY_INFO,
		"audit from the hypervisor side, or use a PVH/HVM guest" },
	[FINDING_SNAPSHOT_INCOMPLETE] = { SEVERITY_ERROR,
		"capture again into an empty directory with room to spare, and let it finish; "
		"--allow-incomplete audits this one anyway" },
	[FINDING_BOUNCE_MAPPING_TOO_LARGE] = { SEVERITY_ERROR,
		"cap the queue below the swiotlb maximum (echo N > queue/max_sectors_kb), use a "
		"kernel whose driver caps it with dma_max_mapping_size(), or remove the need to "
		"bounce" },
	[FINDING_UNTRUSTED_BOUNCE] = { SEVERITY_INFO,
		"none needed: the bounce protects memory around the buffer from the device" },
	[FINDING_UNTRUSTED_BOUNCE_IMPOSSIBLE] = { SEVERITY_ERROR,
		"give the kernel a swiotlb pool (swiotlb=<slabs>, or iommu=soft on x86), or align "
		"the driver's buffers to the IOMMU page" },
	[FINDING_PREDICTION_CONTRADICTED] = { SEVERITY_ERROR,
		"report it with a --capture --observe snapshot: the tool's model of this kernel is "
		"wrong here" },
	[FINDING_BOUNCE_OBSERVED] = { SEVERITY_INFO,
		"none needed if the rate is low; otherwise remove the need to bounce (a wider mask, "
		"an IOMMU)" },
	[FINDING_DEVICES_NOT_VISIBLE] = { SEVERITY_ERROR,
		"run on the host, or in a container with the host's /sys mounted (read-only is "
		"enough) and enough descriptors; for a snapshot, capture it again" },
	[FINDING_VERDICT_UNKNOWN] = { SEVERITY_WARNING,
		"see the reason; --verbose lists the inputs that could not be read" },
	[FINDING_NO_BOUNCE_POOL] = { SEVERITY_INFO,
		"none while no such device is bound; to be ready for one, boot without "
		"swiotlb=noforce or iommu=off, or keep an IOMMU translating" },
};

/* b4ebe6063204 (4.20): dma_capable() honours bus_dma_mask, which of_dma_configure() sets from dma-ranges */
#define WINDOW_REMEDY "use a 4.20+ kernel, whose dma_capable() checks the dma-ranges window " \
		      "(bus_dma_mask), or keep the driver's DMA mask within the window"
#define IGNORED_WINDOW_REMEDY "use a 5.5+ kernel, which reads the host bridge's own dma-ranges " \
			      "(951d48855d86), or keep the driver's DMA mask within the window"
#define UNTRUSTED_NO_POOL "untrusted (external-facing) device: buffers not aligned to the " \
			  "IOMMU page must bounce, and there is no swiotlb pool, "
#define UNTRUSTED_POOL "untrusted (external-facing) device: buffers not aligned to the " \
		       "IOMMU page bounce through swiotlb"
#define PFN_NOT_USED_REMEDY "none on this kernel; the count reading is what 32-bit ARM " \
			    "before v3.13 used"
#define PFN_QUEUE_MESSAGE "the block layer's bounce decision for this device's queue depends " \
			  "on whether max_low_pfn is a page count or a PFN (they differ by the " \
			  "memory base PFN)"
#define PFN_QUEUE_REMEDY "use a v3.13+ kernel (ARM: 7805/1) or set the queue's bounce limit " \
			 "from dma_max_pfn()"
#define PFN_UNUSED_MESSAGE "this kernel keeps max_low_pfn as a page count where the block " \
			   "layer compares page frame numbers, but here that changes no queue's " \
			   "bounce decision: "
#define PFN_UNUSED_REMEDY "none needed on this layout; high memory, or a disk whose bounce " \
			  "limit falls between the two readings, would make it cost (a v3.13+ " \
			  "kernel, ARM: 7805/1, removes it)"
#define NO_USABLE_POOL_MESSAGE "{bytes} of RAM is out of this device's reach and there is no " \
			       "usable bounce buffer: DMA to it fails (\"DMA addr ... overflow\")"
#define VERDICT_UNKNOWN_MESSAGE "the verdict is unknown: {why}"
#define BOUNCE_NEEDED_MESSAGE "{bytes} of RAM is out of this device's reach: buffers there are " \
			      "copied through a bounce buffer on every I/O"
#define BOUNCE_NEEDED_BLOCK_MESSAGE "the block layer bounces {bytes} of RAM for this device's queue " \
				    "(pages above bounce_pfn): a copy on every I/O"
#define WINDOW_LIMITS_REMEDY "a wider DMA mask cannot help: the bus window ends its reach; fix " \
			     "the firmware's window (devicetree dma-ranges, ACPI IORT " \
			     "memory_address_limit) if the interconnect reaches further, or keep " \
			     "its buffers below the window (ZONE_DMA, a CMA area there)"
/* ae626eb97376 (6.0): dma-direct on every 32-bit ARM kernel; ad3c7b18c5b3 (5.3) with LPAE */
#define UNCHECKED_REMEDY "use a kernel that checks every mapping against the reach (dma-direct: " \
			 "32-bit ARM from 6.0, ae626eb97376; with LPAE from 5.3), or keep its " \
			 "buffers within the reach (a ZONE_DMA no larger than it)"
#define SWIOTLB_FULL_REMEDY "enlarge the pool with swiotlb=<slabs> or remove the need to bounce"

/* a case at its id's severity and with its usual remedy unless it says otherwise */
#define CASE(i, msg, ...) { .id = (i), .message = (msg), __VA_ARGS__ }

/* Each case in the order its id is in the catalogue; a NULL remedy is the id's usual one. */
static const struct finding_case_info cases[_FINDING_CASE_MAX] = {
	[FC_SNAPSHOT_INCOMPLETE] = CASE(FINDING_SNAPSHOT_INCOMPLETE,
		"the capture that made this snapshot did not finish: what it did not copy reads "
		"as absent, so inputs, devices and verdicts may be missing or wrong"),
	[FC_IOMEM_HIDDEN] = CASE(FINDING_IOMEM_HIDDEN,
		"proc/iomem shows every address as 0 to this user; the memory layout comes from "
		"proc/zoneinfo zone spans, which count holes inside a zone as RAM ranges and give "
		"sizes from present pages"),
	[FC_MEMORY_LAYOUT_UNKNOWN] = CASE(FINDING_MEMORY_LAYOUT_UNKNOWN, "{why}"),
	[FC_LOWMEM_UNKNOWN] = CASE(FINDING_LOWMEM_UNKNOWN, "{why}"),
	[FC_MEMORY_INPUTS_DISAGREE_ZONES] = CASE(FINDING_MEMORY_INPUTS_DISAGREE,
		"proc/zoneinfo's zones span memory up to {bytes}, but proc/iomem's System RAM ends "
		"at {max_bytes}; the kernel's zones end at its last RAM page, so one of them is "
		"wrong: where RAM ends is unknown, and so is every verdict that depends on it"),
	[FC_MEMORY_INPUTS_DISAGREE_IOMEM] = CASE(FINDING_MEMORY_INPUTS_DISAGREE,
		"proc/meminfo's MemTotal ({bytes}) is more than the System RAM proc/iomem lists "
		"({max_bytes}); MemTotal counts only pages of that RAM, so one of them is wrong: "
		"where RAM ends is unknown, and so is every verdict that depends on it"),
	[FC_MEMORY_INPUTS_DISAGREE_PRESENT] = CASE(FINDING_MEMORY_INPUTS_DISAGREE,
		"proc/meminfo's MemTotal ({bytes}) is more than proc/zoneinfo's present pages "
		"({max_bytes}); MemTotal counts only pages of those zones, so one of them is wrong: "
		"where RAM ends is unknown, and so is every verdict that depends on it"),
	[FC_SNAPSHOT_INCONSISTENT] = CASE(FINDING_SNAPSHOT_INCONSISTENT,
		"the snapshot contradicts itself: {why}; the audit uses the kernel's own file, not "
		"the MANIFEST"),

	[FC_PFN_COUNT_CONFUSION_STORED] = CASE(FINDING_PFN_COUNT_CONFUSION,
		"this kernel stores max_low_pfn as a page count while the block layer compares "
		"it with PFNs: a queue without a DMA mask (BLK_BOUNCE_HIGH) bounces every page "
		"above the count, lowmem included"),
	[FC_PFN_COUNT_CONFUSION_NOT_AT_ZERO] = CASE(FINDING_PFN_COUNT_CONFUSION,
		"RAM does not start at address 0: read as a page count (32-bit ARM before "
		"v3.13), max_low_pfn would make a BLK_BOUNCE_HIGH queue bounce lowmem pages too",
		.harmless = true,
		.remedy = "none on this kernel; shown because code written on x86 mixes the "
			  "readings"),
	[FC_PFN_COUNT_CONFUSION_UNUSED_NO_HIGHMEM] = CASE(FINDING_PFN_COUNT_CONFUSION,
		PFN_UNUSED_MESSAGE "with no high memory, max_low_pfn and max_pfn are equal under "
		"either reading, so a queue without a DMA mask (BLK_BOUNCE_HIGH) bounces nothing "
		"either way, and no listed disk's queue decides differently",
		.harmless = true, .remedy = PFN_UNUSED_REMEDY),
	[FC_PFN_COUNT_CONFUSION_UNUSED] = CASE(FINDING_PFN_COUNT_CONFUSION,
		PFN_UNUSED_MESSAGE "a queue without a DMA mask (BLK_BOUNCE_HIGH) bounces the same "
		"pages under either reading, and no listed disk's queue decides differently",
		.harmless = true, .remedy = PFN_UNUSED_REMEDY),
	[FC_PFN_COUNT_CONFUSION_QUEUE] = CASE(FINDING_PFN_COUNT_CONFUSION,
		PFN_QUEUE_MESSAGE, .remedy = PFN_QUEUE_REMEDY),
	[FC_PFN_COUNT_CONFUSION_QUEUE_BOUNCED] = CASE(FINDING_PFN_COUNT_CONFUSION,
		"{bytes} of the {max_bytes} this device's queue bounces is bounced only because "
		"this kernel keeps max_low_pfn as a page count where the block layer compares "
		"page frame numbers: read as a PFN, it would not be",
		.remedy = PFN_QUEUE_REMEDY),
	[FC_PFN_COUNT_CONFUSION_QUEUE_MISSED] = CASE(FINDING_PFN_COUNT_CONFUSION,
		"{bytes} of RAM goes unbounced on this device's queue only because this kernel "
		"keeps max_low_pfn as a page count where the block layer compares page frame "
		"numbers: read as a PFN, the block layer would bounce it",
		.remedy = PFN_QUEUE_REMEDY),
	[FC_PFN_COUNT_CONFUSION_QUEUE_NOT_USED] = CASE(FINDING_PFN_COUNT_CONFUSION,
		PFN_QUEUE_MESSAGE,
		.harmless = true, .remedy = PFN_NOT_USED_REMEDY),

	[FC_FORCED_BOUNCE] = CASE(FINDING_FORCED_BOUNCE, "{why}"),
	[FC_FORCED_BOUNCE_RESTRICTED_POOL] = CASE(FINDING_FORCED_BOUNCE, "{why}",
		.remedy = "none needed: the devicetree confines this device's DMA to its "
			  "restricted-dma-pool"),
	[FC_FORCED_BOUNCE_MASK] = CASE(FINDING_FORCED_BOUNCE, "{why}",
		.remedy = "give the device a mask above the C-bit (64-bit) if the hardware allows, "
			  "or a translated IOMMU domain"),

	[FC_SWIOTLB_PRESSURE_PEAK] = CASE(FINDING_SWIOTLB_PRESSURE,
		"the swiotlb pool has been at least 90% full: mappings may fail with \"swiotlb "
		"buffer is full\""),
	/* nothing failed: it only costs allocations under memory pressure */
	[FC_SWIOTLB_PRESSURE_PEAK_GROWS] = CASE(FINDING_SWIOTLB_PRESSURE,
		"the swiotlb pool has been at least 90% full, but it grows (dynamic swiotlb): a "
		"full pool adds transient pools, and mappings fail only when that allocation does",
		.harmless = true,
		.remedy = "none needed; swiotlb=<slabs> avoids the transient allocations"),
	[FC_SWIOTLB_PRESSURE_LOGGED] = CASE(FINDING_SWIOTLB_PRESSURE,
		"the kernel log says \"swiotlb buffer is full\": mappings failed",
		.remedy = SWIOTLB_FULL_REMEDY),
	/* still a failure when dynamic: the transient pool could not be had either, or the
	 * mapping was over IO_TLB_SEGSIZE slots, which no pool holds */
	[FC_SWIOTLB_PRESSURE_LOGGED_GROWS] = CASE(FINDING_SWIOTLB_PRESSURE,
		"the kernel log says \"swiotlb buffer is full\" although the pool grows (dynamic "
		"swiotlb): mappings failed, larger than 256 KiB or with no memory for a transient "
		"pool",
		.remedy = SWIOTLB_FULL_REMEDY),

	[FC_SWIOTLB_NO_SLOT_UNLISTED] = CASE(FINDING_SWIOTLB_NO_SLOT,
		"the kernel log says \"swiotlb buffer is full\" for that device, but the pool did "
		"not run out: no free slot suited the mapping (over 256 KiB, more than one bounce "
		"holds, or the pool's bus address outside the device's reach), so it failed",
		.remedy = "find the device and see swiotlb-no-slot"),

	[FC_XEN_PV_UNDECIDABLE] = CASE(FINDING_XEN_PV_UNDECIDABLE,
		"Xen PV domain: xen-swiotlb bounces by machine addresses, which the guest's RAM "
		"map does not show; device verdicts are unknown"),

	[FC_DMA_OVERFLOW_LOGGED_UNLISTED] = CASE(FINDING_DMA_OVERFLOW_LOGGED,
		"the kernel log shows a failed DMA mapping (\"DMA addr ... overflow\")",
		.remedy = "find the device and see bounce-impossible"),
	[FC_SWIOTLB_OUT_OF_REACH_UNLISTED] = CASE(FINDING_SWIOTLB_OUT_OF_REACH,
		"the kernel log shows a bounce that failed: the swiotlb pool lies outside that "
		"device's reach (\"swiotlb addr ... overflow\")",
		.remedy = "find the device and see swiotlb-out-of-reach"),

	[FC_BOUNCE_NEEDED] = CASE(FINDING_BOUNCE_NEEDED, BOUNCE_NEEDED_MESSAGE),
	[FC_BOUNCE_NEEDED_WINDOW] = CASE(FINDING_BOUNCE_NEEDED, BOUNCE_NEEDED_MESSAGE,
		.remedy = WINDOW_LIMITS_REMEDY),
	[FC_BOUNCE_NEEDED_IOMMU] = CASE(FINDING_BOUNCE_NEEDED, BOUNCE_NEEDED_MESSAGE,
		.remedy = "its IOMMU group is in passthrough (identity): a translated domain maps "
			  "all RAM inside the mask; drop iommu=pt (iommu.passthrough=0), or write DMA "
			  "to its group's type with the driver unbound; else widen the driver's DMA mask"),
	[FC_BOUNCE_NEEDED_BLOCK] = CASE(FINDING_BOUNCE_NEEDED, BOUNCE_NEEDED_BLOCK_MESSAGE,
		.remedy = "widen the driver's DMA mask if the hardware allows (the queue's "
			  "bounce_pfn follows it), or keep its buffers in low memory"),
	[FC_BOUNCE_NEEDED_BLOCK_WINDOW] = CASE(FINDING_BOUNCE_NEEDED, BOUNCE_NEEDED_BLOCK_MESSAGE,
		.remedy = WINDOW_LIMITS_REMEDY),
	/* 9bb33f24abbd (5.13): blk_queue_may_bounce() is false wherever highmem exists */
	[FC_BOUNCE_NEEDED_BLOCK_ERA] = CASE(FINDING_BOUNCE_NEEDED, BOUNCE_NEEDED_BLOCK_MESSAGE,
		.remedy = "use a 5.13+ kernel, whose block layer no longer bounces by bounce_pfn "
			  "(9bb33f24abbd): the DMA layer then bounces only RAM out of reach; or set the "
			  "queue's bounce limit from the device's reach"),

	/* 5.0-5.18 try swiotlb_map() with no pool (x86; not arm64, nor LPAE ARM 5.13+
	 * and riscv 5.14+, whose mem_init() sets SWIOTLB_NO_FORCE): no slot is found */
	[FC_BOUNCE_IMPOSSIBLE_NO_SLOTS] = CASE(FINDING_BOUNCE_IMPOSSIBLE,
		"{bytes} of RAM is out of this device's reach and there is no bounce buffer: DMA "
		"to it fails (\"swiotlb buffer is full ... total 0 (slots)\")",
		.remedy = "give the kernel a bounce pool (swiotlb), or enable an IOMMU"),
	[FC_BOUNCE_IMPOSSIBLE] = CASE(FINDING_BOUNCE_IMPOSSIBLE,
		NO_USABLE_POOL_MESSAGE),
	[FC_BOUNCE_IMPOSSIBLE_NOFORCE] = CASE(FINDING_BOUNCE_IMPOSSIBLE,
		NO_USABLE_POOL_MESSAGE,
		.remedy = "drop swiotlb=noforce (or boot with swiotlb=<slabs>) so that a bounce pool "
			  "exists, or enable an IOMMU"),
	[FC_BOUNCE_IMPOSSIBLE_NO_POOL] = CASE(FINDING_BOUNCE_IMPOSSIBLE,
		NO_USABLE_POOL_MESSAGE,
		.remedy = "give the kernel a bounce pool (swiotlb), or enable an IOMMU"),
	/* kernel/dma/swiotlb.c swiotlb_map(): dma_capable() of the slot taken, else DMA_MAPPING_ERROR */
	[FC_BOUNCE_IMPOSSIBLE_FORCED] = CASE(FINDING_BOUNCE_IMPOSSIBLE,
		"every mapping of this device is forced to bounce ({why}), through a swiotlb pool "
		"it cannot reach: all {bytes} of RAM fails to map, RAM within its reach too "
		"(\"swiotlb addr ... overflow\")",
		.remedy = "place the swiotlb pool within the device's reach (below its limit), give the "
			  "device a wider mask if the hardware allows, or drop what forces the bounce "
			  "(swiotlb=force) where nothing requires it"),

	[FC_BOUNCE_MISSED_BLOCK_IGNORED_WINDOW] = CASE(FINDING_BOUNCE_MISSED,
		"the block layer does not bounce {bytes} of RAM past the host bridge's dma-ranges "
		"window, which a kernel before 5.5 never reads: nothing checks it, so DMA there "
		"goes astray",
		.remedy = IGNORED_WINDOW_REMEDY),
	[FC_BOUNCE_MISSED_BLOCK_ROUNDED_WINDOW] = CASE(FINDING_BOUNCE_MISSED,
		"the block layer does not bounce {bytes} of RAM past the devicetree dma-ranges "
		"window: from 4.20 to 5.4 dma_capable() checks the window rounded up to a power of "
		"two, so DMA there goes astray",
		.remedy = WINDOW_REMEDY),
	[FC_BOUNCE_MISSED_BLOCK_UNCHECKED_WINDOW] = CASE(FINDING_BOUNCE_MISSED,
		"the block layer does not bounce {bytes} of RAM past the devicetree dma-ranges "
		"window, inside the device's mask: before 4.20 dma_capable() checks only the mask, "
		"so DMA there goes astray",
		.remedy = WINDOW_REMEDY),
	[FC_BOUNCE_MISSED_BLOCK] = CASE(FINDING_BOUNCE_MISSED,
		"the block layer does not bounce {bytes} of RAM this device cannot reach: without "
		"a mask check further down, its DMA reads or writes the wrong memory",
		.remedy = UNCHECKED_REMEDY),
	[FC_BOUNCE_MISSED_IGNORED_WINDOW] = CASE(FINDING_BOUNCE_MISSED,
		"{bytes} of RAM lies beyond the host bridge's dma-ranges window, which a kernel "
		"before 5.5 never reads: nothing checks it, so DMA there goes astray",
		.remedy = IGNORED_WINDOW_REMEDY),
	[FC_BOUNCE_MISSED_ROUNDED_WINDOW] = CASE(FINDING_BOUNCE_MISSED,
		"{bytes} of RAM lies beyond the devicetree dma-ranges window: from 4.20 to 5.4 the "
		"kernel checks the window rounded up to a power of two, so DMA there goes astray",
		.remedy = WINDOW_REMEDY),
	[FC_BOUNCE_MISSED_UNCHECKED_WINDOW] = CASE(FINDING_BOUNCE_MISSED,
		"{bytes} of RAM lies beyond the devicetree dma-ranges window, inside the device's "
		"mask: before 4.20 nothing checks the window, so DMA there goes astray",
		.remedy = WINDOW_REMEDY),
	[FC_BOUNCE_MISSED_ARM_UNCHECKED] = CASE(FINDING_BOUNCE_MISSED,
		"{bytes} of RAM is out of this device's reach and arm_dma_map_page() maps it "
		"unchecked, with no bounce buffer: its DMA reads or writes the wrong memory",
		.remedy = UNCHECKED_REMEDY),

	[FC_SWIOTLB_OUT_OF_REACH] = CASE(FINDING_SWIOTLB_OUT_OF_REACH,
		"the swiotlb pool lies outside this device's reach: bouncing cannot help it "
		"(\"swiotlb addr ... overflow\", or \"swiotlb buffer is full\" with the pool unused)"),
	[FC_SWIOTLB_OUT_OF_REACH_BELOW_BOUND] = CASE(FINDING_SWIOTLB_OUT_OF_REACH,
		"the swiotlb pool lies below its derived bound, in RAM this device cannot reach: "
		"bouncing cannot help it (\"swiotlb addr ... overflow\", or \"swiotlb buffer is full\" "
		"with the pool unused)"),
	[FC_SWIOTLB_OUT_OF_REACH_LOGGED] = CASE(FINDING_SWIOTLB_OUT_OF_REACH,
		"the kernel log shows a bounce of this device that failed: the swiotlb pool lies "
		"outside its reach (\"swiotlb addr ... overflow\"), so every bounce fails"),
	/* swiotlb_area_find_slots() reckons alignment and boundary from the pool's bus address */
	[FC_SWIOTLB_NO_SLOT] = CASE(FINDING_SWIOTLB_NO_SLOT,
		"the kernel log says \"swiotlb buffer is full\" for this device, but the pool did "
		"not run out: no free slot suited the mapping (over 256 KiB, more than one bounce "
		"holds, or the pool's bus address outside the device's reach), so it failed"),

	[FC_MASK_NOT_CONTIGUOUS] = CASE(FINDING_MASK_NOT_CONTIGUOUS,
		"DMA mask is not of the form 2^n-1: read as a limit (what dma-direct does) and as "
		"a bitmask (the DMA-API definition) it reaches different RAM; they differ by "
		"{bytes}"),
	[FC_MASK_NOT_CONTIGUOUS_AGREES] = CASE(FINDING_MASK_NOT_CONTIGUOUS,
		"DMA mask is not of the form 2^n-1: the limit and bitmask readings agree on this "
		"machine's RAM, but not on every layout",
		.harmless = true),
	[FC_MASK_LIMITED_BY_BUS] = CASE(FINDING_MASK_LIMITED_BY_BUS,
		"the devicetree dma-ranges window ends this device's reach at a lower CPU address "
		"than its DMA mask: the window, not the mask, decides the reach"),
	[FC_MASK_LIMITED_BY_IORT] = CASE(FINDING_MASK_LIMITED_BY_BUS,
		"the ACPI IORT memory address limit ends this device's reach at a lower CPU address "
		"than its DMA mask: the limit, not the mask, decides the reach",
		.remedy = "none needed if the IORT's memory_address_limit is right; otherwise fix "
			  "the firmware's table"),

	[FC_UNTRUSTED_BOUNCE] = CASE(FINDING_UNTRUSTED_BOUNCE, UNTRUSTED_POOL),
	[FC_UNTRUSTED_BOUNCE_POOL_UNKNOWN] = CASE(FINDING_UNTRUSTED_BOUNCE,
		UNTRUSTED_POOL "; whether a pool exists is unknown"),
	[FC_UNTRUSTED_BOUNCE_IMPOSSIBLE_FULL] = CASE(FINDING_UNTRUSTED_BOUNCE_IMPOSSIBLE,
		UNTRUSTED_NO_POOL "so those mappings fail (\"swiotlb buffer is full\")"),
	[FC_UNTRUSTED_BOUNCE_IMPOSSIBLE_PANIC] = CASE(FINDING_UNTRUSTED_BOUNCE_IMPOSSIBLE,
		UNTRUSTED_NO_POOL "and this kernel panics on the first one (\"Can not allocate "
		"SWIOTLB buffer earlier\")"),
	[FC_UNTRUSTED_BOUNCE_IMPOSSIBLE_CHECKED] = CASE(FINDING_UNTRUSTED_BOUNCE_IMPOSSIBLE,
		UNTRUSTED_NO_POOL "so those mappings fail (\"DMA bounce buffers are inactive\")"),

	[FC_BOUNCE_MAPPING_TOO_LARGE] = CASE(FINDING_BOUNCE_MAPPING_TOO_LARGE,
		"disk {text} allows segments of {bytes}, but one swiotlb bounce holds at most "
		"{max_bytes}: larger I/O fails with \"swiotlb buffer is full\""),
	[FC_BOUNCE_MAPPING_TOO_LARGE_ALIGNED] = CASE(FINDING_BOUNCE_MAPPING_TOO_LARGE,
		"disk {text} allows segments of {bytes}, but one swiotlb bounce holds at most "
		"{max_bytes} and NVMe's min_align_mask keeps a segment's offset in it: a full "
		"segment not on a 2 KiB boundary fails with \"swiotlb buffer is full\""),

	[FC_DMA_OVERFLOW_LOGGED] = CASE(FINDING_DMA_OVERFLOW_LOGGED,
		"the kernel log shows a DMA mapping of this device that failed: \"DMA addr ... "
		"overflow\""),

	[FC_PREDICTION_CONTRADICTED] = CASE(FINDING_PREDICTION_CONTRADICTED,
		"the kernel contradicts the verdict {text}: {why}"),
	[FC_BOUNCE_OBSERVED] = CASE(FINDING_BOUNCE_OBSERVED,
		"{bytes} bounced through swiotlb in the window"),
	/* a consistent fails: swiotlb_bounced fired for attempts with no pool */
	[FC_BOUNCE_OBSERVED_FAILED] = CASE(FINDING_BOUNCE_OBSERVED,
		"{bytes} tried swiotlb in the window and failed: no pool"),

	[FC_DEVICES_NOT_VISIBLE_BUS] = CASE(FINDING_DEVICES_NOT_VISIBLE,
		"{text} could not be listed ({why}): the devices on that bus were not judged"),
	/* drivers/base/init.c driver_init() registers the platform bus on every kernel */
	[FC_DEVICES_NOT_VISIBLE_NONE] = CASE(FINDING_DEVICES_NOT_VISIBLE,
		"none of sys/bus/pci/devices, sys/bus/platform/devices and sys/bus/amba/devices "
		"exists, though every kernel registers the platform bus: sysfs is not mounted or is "
		"hidden here, and no device was judged"),

	[FC_DEVICES_NOT_VISIBLE_ENTRIES] = CASE(FINDING_DEVICES_NOT_VISIBLE,
		"{text} lists devices that could not be read ({why}): none of them can be called "
		"healthy"),

	/* pci_claim_resource() names a function's BARs pci_name(dev) */
	[FC_DEVICES_NOT_VISIBLE_IOMEM] = CASE(FINDING_DEVICES_NOT_VISIBLE,
		"proc/iomem names PCI functions ({text} and others) but sys/bus/pci/devices lists "
		"none: the PCI bus is masked here, and its devices were not judged"),

	[FC_VERDICT_UNKNOWN] = CASE(FINDING_VERDICT_UNKNOWN, VERDICT_UNKNOWN_MESSAGE),
	[FC_VERDICT_UNKNOWN_MASK] = CASE(FINDING_VERDICT_UNKNOWN, VERDICT_UNKNOWN_MESSAGE,
		.remedy = "give the mask its driver sets (its dma_set_mask() call) with "
			  "--assume-mask DEVICE=0xMASK, or audit while a driver that sets one is bound"),
	[FC_VERDICT_UNKNOWN_LAYOUT] = CASE(FINDING_VERDICT_UNKNOWN, VERDICT_UNKNOWN_MESSAGE,
		.remedy = "run as root (proc/iomem shows addresses only with CAP_SYS_ADMIN), or make "
			  "proc/zoneinfo readable"),
	[FC_VERDICT_UNKNOWN_CONTRADICTION] = CASE(FINDING_VERDICT_UNKNOWN, VERDICT_UNKNOWN_MESSAGE,
		.remedy = "see memory-inputs-disagree: read the three files again (as root, at one "
			  "moment), or capture the snapshot again"),
	[FC_VERDICT_UNKNOWN_POOL] = CASE(FINDING_VERDICT_UNKNOWN, VERDICT_UNKNOWN_MESSAGE,
		.remedy = "run as root with debugfs mounted (mount -t debugfs none /sys/kernel/debug) "
			  "for swiotlb's io_tlb_nslabs, and with the kernel log readable from boot: "
			  "its \"software IO TLB: mapped\" line says where the pool lies"),
	[FC_VERDICT_UNKNOWN_DEVICETREE] = CASE(FINDING_VERDICT_UNKNOWN, VERDICT_UNKNOWN_MESSAGE,
		.remedy = "make sys/firmware/devicetree/base readable (run as root), or capture the "
			  "snapshot again with it"),
	[FC_VERDICT_UNKNOWN_KERNEL] = CASE(FINDING_VERDICT_UNKNOWN, VERDICT_UNKNOWN_MESSAGE,
		.remedy = "keep the boot log readable (run as root, or kernel.dmesg_restrict=0; a "
			  "larger log_buf_len keeps its first lines), or give the kernel's config "
			  "(proc/config.gz or boot/config-RELEASE)"),
	[FC_VERDICT_UNKNOWN_HARDWARE] = CASE(FINDING_VERDICT_UNKNOWN, VERDICT_UNKNOWN_MESSAGE,
		.remedy = "read the C-bit's position (CPUID 0x8000001F, EBX bits 5:0, e.g. with "
			  "cpuid -l 0x8000001f) and the physical address bits: a device limit below "
			  "the C-bit bounces every mapping"),
	[FC_VERDICT_UNKNOWN_RELEASE] = CASE(FINDING_VERDICT_UNKNOWN, VERDICT_UNKNOWN_MESSAGE,
		.remedy = "give the kernel release: a snapshot's proc/sys/kernel/osrelease or its "
			  "MANIFEST kernel_release"),
	[FC_VERDICT_UNKNOWN_PORT] = CASE(FINDING_VERDICT_UNKNOWN, VERDICT_UNKNOWN_MESSAGE,
		.remedy = "see whether it sits below an external-facing (Thunderbolt, USB4) port: "
			  "lspci -tv and boltctl list show it; a 5.14+ kernel shows it as sysfs "
			  "\"removable\""),
	[FC_VERDICT_UNKNOWN_XEN] = CASE(FINDING_VERDICT_UNKNOWN, VERDICT_UNKNOWN_MESSAGE,
		.remedy = "audit from the hypervisor side, which sees machine addresses, or use a "
			  "PVH or HVM guest"),
	/* VFIO maps the device's DMA for its user: nothing this kernel maps can bounce */
	[FC_VERDICT_UNKNOWN_OWNER] = CASE(FINDING_VERDICT_UNKNOWN,
		VERDICT_UNKNOWN_MESSAGE ": this kernel maps none of its DMA", .harmless = true,
		.remedy = "audit inside the guest or program that owns the device"),

	[FC_NO_BOUNCE_POOL] = CASE(FINDING_NO_BOUNCE_POOL,
		"there is no swiotlb pool ({why}) and {bytes} of RAM lies above {text}: a device "
		"whose reach ends there, bound later and not translated by an IOMMU, fails every "
		"mapping to it"),
	[FC_NO_BOUNCE_POOL_UNCHECKED] = CASE(FINDING_NO_BOUNCE_POOL,
		"there is no swiotlb pool ({why}) and {bytes} of RAM lies above {text}: a device "
		"whose reach ends there, bound later, is handed buffers there unchecked by "
		"arm_dma_ops, and its DMA lands at the wrong address"),
	[FC_NO_BOUNCE_POOL_OUT_OF_REACH] = CASE(FINDING_NO_BOUNCE_POOL,
		"the swiotlb pool lies above {text} and {bytes} of RAM lies there too: a device whose "
		"reach ends there, bound later and not translated by an IOMMU, can bounce through "
		"nothing and fails every mapping to that RAM",
		.remedy = "none while no such device is bound; one bound later needs an IOMMU, or "
			  "a pool it can reach (the boot log's \"software IO TLB: mapped\" line says "
			  "where it lies)"),
};

const struct finding_info *finding_info(enum finding_id id)
{
	return id >= 0 && id < _FINDING_ID_MAX ? &catalogue[id] : NULL;
}

const struct finding_case_info *finding_case_info(enum finding_case c)
{
	return c >= 0 && c < _FINDING_CASE_MAX && cases[c].message ? &cases[c] : NULL;
}

enum severity finding_case_severity(enum finding_case c)
{
	const struct finding_case_info *k = finding_case_info(c);
	if (!k)
		return _SEVERITY_INVALID;
	return k->harmless ? SEVERITY_INFO : catalogue[k->id].severity;
}

const char *finding_case_remedy(enum finding_case c)
{
	const struct finding_case_info *k = finding_case_info(c);
	if (!k)
		return NULL;
	return k->remedy ? k->remedy : catalogue[k->id].remedy;
}

/* The placeholders a template may hold, each a field of struct finding_args. */
static bool put_placeholder(struct strbuf *b, const char *name, size_t len,
			    const struct finding_args *a)
{
#define IS(s) (len == sizeof(s) - 1 && memcmp(name, s, len) == 0)
	if (IS("bytes")) /* {bytes} and {max_bytes} are compared: exact where they round alike */
		strbuf_append_size_beside(b, a->bytes, a->max_bytes);
	else if (IS("max_bytes"))
		strbuf_append_size_beside(b, a->max_bytes, a->bytes);
	else if (IS("text"))
		strbuf_append(b, a->text ? a->text : "");
	else if (IS("why"))
		strbuf_append(b, a->why ? a->why : "");
	else
		return false;
	return true;
#undef IS
}

char *finding_case_message(enum finding_case c, const struct finding_args *a)
{
	static const struct finding_args none;
	const struct finding_case_info *k = finding_case_info(c);
	struct strbuf b = { 0 };

	if (!k)
		return NULL;
	for (const char *s = k->message; *s;) {
		const char *open = strchr(s, '{');
		const char *close = open ? strchr(open, '}') : NULL;
		if (!close) {
			strbuf_append(&b, s);
			break;
		}
		strbuf_append_n(&b, s, (size_t)(open - s));
		if (!put_placeholder(&b, open + 1, (size_t)(close - open - 1), a ? a : &none))
			strbuf_append_n(&b, open, (size_t)(close - open + 1)); /* test-findings refuses it */
		s = close + 1;
	}
	return strbuf_steal(&b);
}
