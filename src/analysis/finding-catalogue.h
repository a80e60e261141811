/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The words of findings (finding-catalogue.c): severities, each id's name,
 * severity and remedy, each case's message template. Below findings.h, the
 * list a report collects, which raises the cases. Pure: no I/O.
 */
#pragma once

#include "shared/macro.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum severity {
	SEVERITY_INFO,
	SEVERITY_WARNING,
	SEVERITY_ERROR,
	_SEVERITY_MAX,
	_SEVERITY_INVALID = -EINVAL,
};

struct opt_severity { enum severity v; bool known; }; /* the opt_* of shared/opt.h */

const char *severity_to_string(enum severity s);
enum severity severity_from_string(const char *s);

/*
 * Every finding the tool raises. The catalogue (finding-catalogue.c) names
 * each and gives its severity, usual remedy and the cases it is raised in; the schema's enum and the man page's
 * FINDINGS list the same names (tests/unit/test-findings.c holds them to it).
 */
enum finding_id {
	FINDING_IOMEM_HIDDEN,
	FINDING_MEMORY_LAYOUT_UNKNOWN,
	FINDING_LOWMEM_UNKNOWN,
	FINDING_MEMORY_INPUTS_DISAGREE,
	FINDING_SNAPSHOT_INCONSISTENT,
	FINDING_BOUNCE_NEEDED,
	FINDING_BOUNCE_IMPOSSIBLE,
	FINDING_BOUNCE_MISSED,
	FINDING_SWIOTLB_OUT_OF_REACH,
	FINDING_SWIOTLB_PRESSURE,
	FINDING_SWIOTLB_NO_SLOT,
	FINDING_FORCED_BOUNCE,
	FINDING_MASK_NOT_CONTIGUOUS,
	FINDING_MASK_LIMITED_BY_BUS,
	FINDING_PFN_COUNT_CONFUSION,
	FINDING_DMA_OVERFLOW_LOGGED,
	FINDING_XEN_PV_UNDECIDABLE,
	FINDING_SNAPSHOT_INCOMPLETE,
	FINDING_BOUNCE_MAPPING_TOO_LARGE,
	FINDING_UNTRUSTED_BOUNCE,
	FINDING_UNTRUSTED_BOUNCE_IMPOSSIBLE,
	FINDING_PREDICTION_CONTRADICTED,
	FINDING_BOUNCE_OBSERVED,
	FINDING_DEVICES_NOT_VISIBLE,
	FINDING_VERDICT_UNKNOWN,
	FINDING_NO_BOUNCE_POOL,
	_FINDING_ID_MAX,
	_FINDING_ID_INVALID = -EINVAL,
};

struct finding_info {
	enum severity severity; /* the highest it is raised at; some cases are lower */
	const char *remedy;     /* the usual one; some cases give their own */
};

/* The catalogue's entry, NULL for an id outside it. */
const struct finding_info *finding_info(enum finding_id id);
const char *finding_id_to_string(enum finding_id id);
enum finding_id finding_id_from_string(const char *s);

/*
 * Each case a finding is raised in (finding-catalogue.c holds its words): the
 * call site picks the case and passes values, the catalogue writes the
 * message from its template and gives the severity and remedy.
 */
enum finding_case {
	FC_SNAPSHOT_INCOMPLETE,
	FC_IOMEM_HIDDEN,
	FC_MEMORY_LAYOUT_UNKNOWN,
	FC_LOWMEM_UNKNOWN,
	FC_MEMORY_INPUTS_DISAGREE_ZONES,       /* zoneinfo's zones past iomem's RAM */
	FC_MEMORY_INPUTS_DISAGREE_IOMEM,       /* MemTotal above iomem's RAM */
	FC_MEMORY_INPUTS_DISAGREE_PRESENT,     /* MemTotal above zoneinfo's present pages */
	FC_SNAPSHOT_INCONSISTENT,              /* MANIFEST against the tree's proc/sys file */
	FC_PFN_COUNT_CONFUSION_STORED,         /* the kernel stores the count */
	FC_PFN_COUNT_CONFUSION_NOT_AT_ZERO,    /* it stores the PFN: harmless here */
	FC_PFN_COUNT_CONFUSION_UNUSED_NO_HIGHMEM, /* count stored, no queue's decision changes: no highmem */
	FC_PFN_COUNT_CONFUSION_UNUSED,         /* count stored, no queue's decision changes */
	FC_PFN_COUNT_CONFUSION_QUEUE,          /* a queue's decision, count stored, same bytes */
	FC_PFN_COUNT_CONFUSION_QUEUE_BOUNCED,  /* the count makes its queue bounce more */
	FC_PFN_COUNT_CONFUSION_QUEUE_MISSED,   /* the count makes its queue bounce less */
	FC_PFN_COUNT_CONFUSION_QUEUE_NOT_USED, /* a queue's decision, PFN stored */
	FC_FORCED_BOUNCE,                      /* machine-wide */
	FC_FORCED_BOUNCE_RESTRICTED_POOL,      /* one device: its restricted-dma-pool */
	FC_FORCED_BOUNCE_MASK,                 /* one device: its mask below the C-bit */
	FC_SWIOTLB_PRESSURE_PEAK,
	FC_SWIOTLB_PRESSURE_PEAK_GROWS,
	FC_SWIOTLB_PRESSURE_LOGGED,
	FC_SWIOTLB_PRESSURE_LOGGED_GROWS,
	FC_SWIOTLB_NO_SLOT_UNLISTED,           /* a device not listed, or none named */
	FC_XEN_PV_UNDECIDABLE,
	FC_DMA_OVERFLOW_LOGGED_UNLISTED,
	FC_SWIOTLB_OUT_OF_REACH_UNLISTED,
	FC_BOUNCE_NEEDED,                      /* limiter mask: a wider one reaches further */
	FC_BOUNCE_NEEDED_WINDOW,               /* limiter bus window */
	FC_BOUNCE_NEEDED_IOMMU,                /* limiter IOMMU: passthrough */
	FC_BOUNCE_NEEDED_BLOCK,                /* the block layer bounces what the mask does not reach */
	FC_BOUNCE_NEEDED_BLOCK_WINDOW,         /* ... what the window does not */
	FC_BOUNCE_NEEDED_BLOCK_ERA,            /* ... and reachable RAM too, by the release's arithmetic */
	FC_BOUNCE_IMPOSSIBLE_NO_SLOTS,         /* 5.0-5.18 try a pool that is not there */
	FC_BOUNCE_IMPOSSIBLE,
	FC_BOUNCE_IMPOSSIBLE_NOFORCE,
	FC_BOUNCE_IMPOSSIBLE_NO_POOL,
	FC_BOUNCE_IMPOSSIBLE_FORCED,           /* every mapping bounces, the pool out of reach */
	FC_BOUNCE_MISSED_BLOCK_IGNORED_WINDOW,
	FC_BOUNCE_MISSED_BLOCK_ROUNDED_WINDOW,
	FC_BOUNCE_MISSED_BLOCK_UNCHECKED_WINDOW,
	FC_BOUNCE_MISSED_BLOCK,
	FC_BOUNCE_MISSED_IGNORED_WINDOW,
	FC_BOUNCE_MISSED_ROUNDED_WINDOW,
	FC_BOUNCE_MISSED_UNCHECKED_WINDOW,
	FC_BOUNCE_MISSED_ARM_UNCHECKED,
	FC_SWIOTLB_OUT_OF_REACH,
	FC_SWIOTLB_OUT_OF_REACH_BELOW_BOUND,
	FC_SWIOTLB_OUT_OF_REACH_LOGGED,
	FC_SWIOTLB_NO_SLOT,
	FC_MASK_NOT_CONTIGUOUS,
	FC_MASK_NOT_CONTIGUOUS_AGREES,
	FC_MASK_LIMITED_BY_BUS,
	FC_MASK_LIMITED_BY_IORT,               /* arm64 ACPI: the IORT's limit, not dma-ranges */
	FC_UNTRUSTED_BOUNCE,
	FC_UNTRUSTED_BOUNCE_POOL_UNKNOWN,
	FC_UNTRUSTED_BOUNCE_IMPOSSIBLE_FULL,
	FC_UNTRUSTED_BOUNCE_IMPOSSIBLE_PANIC,
	FC_UNTRUSTED_BOUNCE_IMPOSSIBLE_CHECKED,
	FC_BOUNCE_MAPPING_TOO_LARGE,
	FC_BOUNCE_MAPPING_TOO_LARGE_ALIGNED,
	FC_DMA_OVERFLOW_LOGGED,
	FC_PREDICTION_CONTRADICTED,
	FC_BOUNCE_OBSERVED,
	FC_BOUNCE_OBSERVED_FAILED,
	FC_DEVICES_NOT_VISIBLE_BUS,            /* a bus directory that could not be listed */
	FC_DEVICES_NOT_VISIBLE_NONE,           /* no bus directory at all */
	FC_DEVICES_NOT_VISIBLE_ENTRIES,        /* listed entries that could not be read */
	FC_DEVICES_NOT_VISIBLE_IOMEM,          /* proc/iomem names PCI functions, sysfs lists none */
	FC_VERDICT_UNKNOWN,                    /* one per enum unknown_cause, in its order */
	FC_VERDICT_UNKNOWN_MASK,
	FC_VERDICT_UNKNOWN_LAYOUT,
	FC_VERDICT_UNKNOWN_CONTRADICTION,
	FC_VERDICT_UNKNOWN_POOL,
	FC_VERDICT_UNKNOWN_DEVICETREE,
	FC_VERDICT_UNKNOWN_KERNEL,
	FC_VERDICT_UNKNOWN_HARDWARE,
	FC_VERDICT_UNKNOWN_RELEASE,
	FC_VERDICT_UNKNOWN_PORT,
	FC_VERDICT_UNKNOWN_XEN,
	FC_VERDICT_UNKNOWN_OWNER,              /* VFIO: this kernel maps nothing for it */
	FC_NO_BOUNCE_POOL,
	FC_NO_BOUNCE_POOL_UNCHECKED,           /* 32-bit ARM's arm_dma_ops: astray, not failed */
	FC_NO_BOUNCE_POOL_OUT_OF_REACH,        /* a pool, placed above the boundary */
	_FINDING_CASE_MAX,
	_FINDING_CASE_INVALID = -EINVAL,
};

/* The values a template's {placeholders} name: sizes are written "3 GiB". */
struct finding_args {
	uint64_t bytes;     /* {bytes} */
	uint64_t max_bytes; /* {max_bytes} */
	const char *text;   /* {text}: a name (a disk, a verdict) */
	const char *why;    /* {why}: a reason the analysis wrote */
};

struct finding_case_info {
	enum finding_id id;
	bool harmless;          /* info here, whatever the id's severity */
	const char *message;    /* the template */
	const char *remedy;     /* NULL: the id's usual one */
};

/* The catalogue's case, NULL outside it. */
const struct finding_case_info *finding_case_info(enum finding_case c);
enum severity finding_case_severity(enum finding_case c);
const char *finding_case_remedy(enum finding_case c);
/* The case's message with a's values in its placeholders (a NULL: zeros and ""); NULL on OOM. */
char *finding_case_message(enum finding_case c, const struct finding_args *a);
