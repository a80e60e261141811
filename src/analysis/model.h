/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The analysis model: what a verdict is, the per-device report the rules
 * fill and the renderers read, the whole report and its options, and the
 * words each enum is printed as. The base of analysis/: the rule files
 * (verdict-rules, prediction-check, findings-*) and the orchestrators
 * (devices.c, report.c) include it; it includes only what lies below them.
 */
#pragma once

#include "shared/macro.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "analysis/dma-map.h"
#include "analysis/driver-masks.h"
#include "analysis/findings.h"
#include "analysis/layout.h"
#include "analysis/legacy-block.h"
#include "analysis/reach.h"
#include "analysis/swiotlb-state.h"
#include "machine.h"

enum verdict {
	VERDICT_DIRECT,  /* all RAM reachable: bounce unnecessary */
	VERDICT_IOMMU,   /* translated IOMMU domain: unnecessary */
	VERDICT_PARTIAL, /* some RAM unreachable; those buffers bounce through a reachable pool */
	VERDICT_FORCED,  /* every mapping bounces whatever the mask */
	VERDICT_FAILS,   /* some RAM unreachable and no pool the device can use */
	VERDICT_IDLE,    /* no DMA: no driver, a bridge, or a platform/AMBA device with no sign of DMA */
	VERDICT_UNKNOWN, /* reason says what is missing */
	_VERDICT_MAX,
	_VERDICT_INVALID = -EINVAL,
};

/* What an unknown verdict lacks: verdict-unknown's case, and how the user can supply it. */
enum unknown_cause {
	UNKNOWN_CAUSE_OTHER,      /* the reason says */
	UNKNOWN_CAUSE_MASK,       /* no DMA mask: sysfs shows none, no bus default */
	UNKNOWN_CAUSE_LAYOUT,     /* where RAM lies: proc/iomem, proc/zoneinfo */
	UNKNOWN_CAUSE_CONTRADICTION, /* the memory inputs contradict one another */
	UNKNOWN_CAUSE_POOL,       /* whether a swiotlb pool exists, or where */
	UNKNOWN_CAUSE_DEVICETREE, /* the devicetree nodes that set the window */
	UNKNOWN_CAUSE_KERNEL,     /* how the kernel was built or which IOMMU driver runs */
	UNKNOWN_CAUSE_HARDWARE,   /* a CPU fact Linux does not show (the SME C-bit) */
	UNKNOWN_CAUSE_RELEASE,    /* the kernel release, which decides the era's rule */
	UNKNOWN_CAUSE_PORT,       /* whether the device sits below an external-facing port */
	UNKNOWN_CAUSE_XEN,        /* Xen PV: machine addresses the guest cannot see */
	UNKNOWN_CAUSE_OWNER,      /* another owner (VFIO) maps its DMA: this kernel maps none */
	_UNKNOWN_CAUSE_MAX,
	_UNKNOWN_CAUSE_INVALID = -EINVAL,
};

enum mask_source {
	MASK_SOURCE_SYSFS,   /* dma_mask_bits: fls64 of the mask, so a contiguous reading */
	MASK_SOURCE_ASSUMED, /* the bus default of the era (platform: 32 bits) */
	MASK_SOURCE_USER,    /* --assume-mask */
	MASK_SOURCE_NONE,
	MASK_SOURCE_DRIVER,  /* what the driver sets, from a row of driver-masks.c (mask_rule) */
	_MASK_SOURCE_MAX,
};

/* The model of the kernel's own era that decides the verdict (the others expose confusions). */
enum kernel_model {
	KERNEL_MODEL_DMA_DIRECT,   /* dma_capable() against min_not_zero(mask, bus limit) */
	KERNEL_MODEL_LEGACY_BLOCK, /* the block layer's bounce_pfn before 5.13 */
	_KERNEL_MODEL_MAX,
	_KERNEL_MODEL_INVALID = -EINVAL,
};

/* --observe: the verdict against the bounces the kernel traced (prediction-check.c). */
enum observed_result {
	OBSERVED_NONE,           /* nothing was observed: no --observe, no snapshot observation */
	OBSERVED_CONSISTENT,     /* bounces (or failed mappings) the verdict explains */
	OBSERVED_CONTRADICTED,   /* traffic the verdict says cannot happen: observed_why says which */
	OBSERVED_NO_BOUNCE,      /* its disks or interfaces moved data in the window, and none of it bounced */
	OBSERVED_NO_TRAFFIC,     /* its disks and interfaces were counted, and moved nothing */
	OBSERVED_CANNOT_TELL,    /* nothing bounced, and its traffic could not be counted */
	OBSERVED_UNJUDGED,       /* bounces, but the verdict was unknown */
	_OBSERVED_RESULT_MAX,
	_OBSERVED_RESULT_INVALID = -EINVAL,
};

/*
 * What ends a device's reach or decides what happens to the RAM beyond it:
 * the subject of its remedy (devices.c decides it once; the bounce-* cases
 * and --explain carry it).
 */
enum reach_limiter {
	LIMITER_NONE,       /* nothing to remedy: all RAM in reach, no DMA, translated, policy */
	LIMITER_MASK,       /* the DMA mask: a wider one would reach further */
	LIMITER_BUS_WINDOW, /* the bus window (dma-ranges, IORT): a wider mask would not help */
	LIMITER_POOL,       /* no bounce pool the device can use takes the RAM beyond */
	LIMITER_IOMMU,      /* an IOMMU leaves it in passthrough, or bounces what is not page-aligned */
	LIMITER_KERNEL_ERA, /* the release's block layer or DMA ops bounce or miss what later ones do not */
	LIMITER_UNKNOWN,    /* the reach or the verdict is unknown */
	_LIMITER_MAX,
	_LIMITER_INVALID = -EINVAL,
};

/* The two readings of max_low_pfn, indexed by MAX_LOW_PFN_* (analysis/eras.h). */
#define N_READINGS 2

struct legacy_result {
	bool known;
	enum max_low_pfn_reading kernel_reading; /* which one the kernel used */
	const char *why_not;                 /* static, when !known */
	struct legacy_block by_reading[N_READINGS];
	uint64_t unreachable_bounced;        /* bytes the kernel reading bounces that must bounce */
	uint64_t needless_bytes;             /* bounced though reachable (or lowmem for BOUNCE_HIGH) */
	uint64_t missed_bytes;               /* unreachable and not bounced by the block layer */
	/* what the kernel's count reading changes against the PFN reading (0 when it reads
	 * the PFN): each reading bounces a suffix of RAM (pfn > bounce_pfn) or nothing, so
	 * the difference of the two bounce_bytes is the RAM one bounces and the other not */
	uint64_t count_reading_only_bytes;   /* bounced only because max_low_pfn is read as a count */
	uint64_t count_reading_missed_bytes; /* not bounced only because of it: the PFN reading bounces it */
};

/* A device's records of one kind of logged overflow: how many, the first and the last. */
struct overflow_tally {
	uint64_t n;
	const struct dma_overflow *first;
	const struct dma_overflow *last;
};

/* A device's "swiotlb buffer is full" lines whose pool had room (FULL_WITH_ROOM). */
struct full_tally {
	uint64_t n;
	const struct swiotlb_full *first;
};

struct device_report {
	/* pointers and 64-bit values first, then enums, then flags: 50,000 of these are held */
	const struct device *dev;
	struct opt_u64 dma_mask;             /* unknown: no mask_source gave one */
	struct opt_u64 coherent_mask;
	struct dma_map map;                  /* from dt; identity without */
	uint64_t bus_limit;                  /* as the era keeps it; 0: none, the kernel's own encoding
					      * (dma_capable(): min_not_zero(*dma_mask, bus_dma_limit)) */
	uint64_t limit;                      /* min_not_zero(dma_mask, bus_limit) */
	struct reach direct;                 /* dma-direct model; known when mask and layout are */
	struct reach bitmask;                /* bitmask model */
	struct opt_u64 cpu_reach_end;        /* the highest CPU address it reaches (reach_cpu_end) */
	struct opt_u64 dma_offset;           /* cpu_start - dma_start of every region: the kernel's
					      * bus_dma_region.offset (5.10), dma_pfn_offset in bytes before */
	struct legacy_result *legacy;        /* legacy-block model when has_block (malloc'd): see device_legacy() */
	const char *reason;                  /* static: why this verdict */
	/* the verdict's unreachable_ram_bytes: RAM whose buffers bounce or fail for
	 * it (all RAM when forced); unknown when idle or undecided. Not direct's
	 * unreachable_bytes, the mask's own reach (mask_unreachable_ram_bytes). */
	struct opt_u64 unreachable_ram_bytes;
	const char *forced_why;              /* static */
	const char *restricted_ignored;      /* static: why the kernel ignores its restricted-dma-pool; NULL none or used */
	struct overflow_tally dma_overflows;  /* "DMA addr ... overflow" records of it */
	struct overflow_tally pool_overflows; /* "swiotlb addr ... overflow" records of it */
	struct full_tally no_slot;           /* "swiotlb buffer is full" records of it, the pool with room */
	const struct observed_device *observed; /* its traffic in the --observe window; NULL none */
	const char *observed_why;            /* static */
	/* its disks' data I/Os and its interfaces' packets in the window (observation.traffic):
	 * unknown when it has neither, or none was counted at both ends */
	struct opt_u64 observed_ops;
	uint64_t observed_io_bytes;
	unsigned observed_kinds;             /* 1u << TRAFFIC_*: what observed_ops counts */
	const struct driver_mask_row *mask_row; /* its driver's row in driver-masks.c; NULL none applies */
	const char *mask_why;                /* static: what the row and the log decided, or why not */
	enum mask_source mask_source;
	enum kernel_model kernel_model;
	enum verdict verdict;
	int verdict_case;                    /* enum verdict_reason (verdict-catalogue.h): the case that decided */
	enum reach_limiter limiter;          /* what its remedy must change (limiter_decide) */
	enum unknown_cause unknown_cause;    /* VERDICT_UNKNOWN only */
	enum tristate pool_reachable;
	enum observed_result observed_result;
	struct opt_severity worst_severity;  /* of its worst finding (report.c); absent: no finding */
	struct opt_int mask_bits;            /* as sysfs dma_mask_bits shows it, else the mask's highest bit */
	struct opt_bool removable;           /* sysfs "removable", its absence read by ERA_REMOVABLE_ATTR */
	struct opt_int coherent_bits;        /* the same for the coherent mask */
	bool has_block;                      /* a disk's queue uses this device */
	bool scsi_block;                     /* one of them is a SCSI disk (sd, sr): libata too */
	bool forced;
	bool bridge;                         /* a PCI bridge or host controller: no DMA of its own */
	bool missed_corrupts;                /* unbounced RAM out of reach, and nothing checks below */
	bool out_of_reach_decides;           /* the verdict is about the RAM out of reach (needs_pool) */
	bool window_unchecked;               /* what the kernel checks reaches past the dma-ranges window: the mask
					      * before 4.20, the window rounded up to a power of two 4.20-5.4 */
	bool window_ignored;                 /* before 5.5: the window the DT describes, which the kernel never read */
	bool iort_zeroed;                    /* before 5.11 an IORT limit of 0 zeroed the masks (mask_why) */
	bool mask_bound;                     /* a wider mask would move cpu_reach_end up */
	bool untrusted;                      /* removable (external-facing) in a DMA domain that bounces unaligned buffers */
};

/* The verdict unknown, for cause, as reason (static) says. */
static inline void verdict_unknown(struct device_report *r, enum unknown_cause cause, const char *reason)
{
	r->verdict = VERDICT_UNKNOWN;
	r->unknown_cause = cause;
	r->reason = reason;
}


/* The legacy-block model of r: a zeroed one (known false) for a device no disk uses. */
const struct legacy_result *device_legacy(const struct device_report *r) _nonnull_all_;

struct block_report {
	const struct block_queue *q;
	const struct device_report *dr;      /* NULL: no DMA device; its legacy-block model is the disk's */
};

struct devices_result {
	struct device_report *devices;
	size_t n_devices;
	struct block_report *blocks;
	size_t n_blocks;
};

/* --assume-mask DEV=HEX: the mask the user says the kernel holds. */
struct assumed_mask {
	const char *device;
	uint64_t mask;
};

struct devices_input {
	const struct machine *m;
	const struct layout *l;
	const struct swiotlb_state *sw;
	uint32_t release;                    /* KV(); 0 unknown, era_value()'s key for it */
	enum arch_family arch_family;        /* _ARCH_FAMILY_INVALID unknown */
	struct opt_u32 bits;                 /* BITS_PER_LONG */
	const struct assumed_mask *masks;    /* --assume-mask */
	size_t n_masks;
};

/* The exit status (dmamask-audit(8), EXIT STATUS): 0 clean, 1 findings at --fail-on, 2 usage/fatal. */
enum exit_status {
	EXIT_CLEAN = 0,
	EXIT_FINDINGS = 1,
	EXIT_FATAL = 2,
};

/*
 * What reading max_low_pfn as a page count costs the machine's queues
 * (confusion-cost.c): it applies where the kernel keeps the count, its block
 * layer bounces by PFN (before 5.13) and RAM does not start at PFN 0.
 */
struct confusion_cost {
	bool applies;
	bool bounce_high_known;         /* a queue without a mask could be computed (bits, lowmem known) */
	bool bounce_high_differs;       /* such a queue (BLK_BOUNCE_HIGH) decides differently by reading */
	bool highmem;                   /* the layout has high memory (lowmem ends below RAM's end) */
	size_t devices;                 /* devices whose disks' queues the legacy model judged */
	size_t devices_differ;          /* of those, the ones whose decision differs by reading */
	uint64_t count_reading_only_bytes;   /* summed over them: see struct legacy_result */
	uint64_t count_reading_missed_bytes;
};

struct report {
	struct layout layout;
	uint32_t release;            /* KV() of the kernel release; 0 unknown, era_value()'s key for it */
	enum provenance release_prov;
	enum arch_family arch_family; /* _ARCH_FAMILY_INVALID: unknown */
	struct opt_u32 bits;         /* BITS_PER_LONG */
	enum max_low_pfn_reading max_low_pfn_reading; /* the kernel's */
	const char *max_low_pfn_source;
	enum block_bounce block_bounce; /* the kernel's */
	const char *block_bounce_source;
	struct swiotlb_state swiotlb;
	struct devices_result devices;
	struct confusion_cost confusion; /* all devices', before any selection */
	struct findings findings;
	enum severity fail_on;
	size_t unlisted_action;      /* findings at warning or above about devices the report does not list */
	enum exit_status exit_status;
	struct opt_i64 generated_at; /* set by the caller: when the report was made (epoch seconds) */
};

struct report_options {
	enum severity fail_on;  /* --fail-on */
	bool allow_incomplete;  /* --allow-incomplete: an incomplete snapshot exits by fail_on, not 2 */
	const struct assumed_mask *masks; /* --assume-mask, each naming a device of the machine */
	size_t n_masks;
	const char *const *select;  /* DEVICE...: the devices the report is about; n_select 0: all */
	size_t n_select;
	bool no_idle;               /* --no-idle */
};

/* The words of each enum as the report prints them; NULL out of range (observed: and for OBSERVED_NONE). */
const char *verdict_to_string(enum verdict v);
const char *mask_source_to_string(enum mask_source s);
const char *kernel_model_to_string(enum kernel_model k);
const char *observed_result_to_string(enum observed_result r);
const char *reach_limiter_to_string(enum reach_limiter l);
/* A verdict's word back (a --diff baseline's): _VERDICT_INVALID for another. */
enum verdict verdict_from_string(const char *s);

/*
 * How grave a verdict is, one scale for every output: text colours it (red,
 * yellow, green), --diff ranks a change by it, needs-action starts from it.
 * VERDICT_GRAVITY_NONE for idle (nothing to judge) and out of range.
 */
enum verdict_gravity {
	VERDICT_GRAVITY_NONE,    /* idle: no DMA */
	VERDICT_GRAVITY_GOOD,    /* direct, iommu: nothing bounces */
	VERDICT_GRAVITY_WARNING, /* partial, forced: I/O bounces; unknown: not judged */
	VERDICT_GRAVITY_ERROR,   /* fails: I/O fails or corrupts */
};
enum verdict_gravity verdict_gravity(enum verdict v);

/* A verdict that costs or loses I/O (partial, fails), or a warning or an error about the device: "needs action". */
bool device_needs_action(const struct device_report *r) _nonnull_all_;

/*
 * "No device needs action" may be said: no device needs action, and no
 * machine-wide finding at warning or above (devices not visible, a snapshot
 * incomplete, the memory layout unknown) says the audit saw too little.
 */
bool report_all_clear(const struct report *r) _nonnull_all_;
