/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The catalogue of verdict reasons (verdict-catalogue.c): each case's
 * verdict, its unknown cause, the flags it sets and its words. A rule names
 * a case (struct verdict_decision); devices.c applies it; the words are all
 * in the catalogue, as finding-catalogue.c holds findings'. Pure: no I/O.
 */
#pragma once

#include "shared/macro.h"

#include <stdbool.h>

#include "analysis/model.h"

enum verdict_reason {
	_VR_NONE, /* the rule does not decide */
	/* outside the DMA API (verdict-rules.c decided_outside_dma_api) */
	VR_NO_DRIVER,
	VR_BRIDGE,
	VR_SIGNS_DT_UNREADABLE,
	VR_NO_DMA_SIGN,
	VR_IOMMU_UNIT,
	VR_USB_STORAGE_REFUSED,
	VR_NO_DMA_API,             /* words: the driver's row (verdict-rules.c no_dma_api[]) */
	VR_VIRTIO_BYPASS,
	/* the IOMMU domain (decided_by_domain) */
	VR_XEN_TYPE_UNKNOWN,
	VR_XEN_PV,
	VR_S390_ZPCI,
	VR_UNTRUSTED_UNKNOWN,
	VR_TRANSLATED_UNTRUSTED,
	VR_TRANSLATED,
	VR_DOMAIN_OWNED,
	VR_NO_DOMAIN_TYPE,
	VR_INTEL_FALLBACK,
	VR_FALLBACK_VENDOR_UNKNOWN,
	/* forced bouncing (decided_by_forcing) */
	VR_RESTRICTED_RELEASE_UNKNOWN,
	VR_FORCING_UNKNOWN,        /* words: swiotlb-state's forced_unknown_why */
	VR_FORCED,                 /* words: who forces it (r->forced_why) */
	VR_SME_CBIT_UNKNOWN,
	VR_SME_PHYS_BITS_UNKNOWN,
	/* forced, through a pool out of reach (devices.c forced_decision) */
	VR_FORCED_POOL_OUT_OF_REACH,
	VR_FORCED_POOL_DERIVED_OUT_OF_REACH,
	/* the mask and the devicetree map (devices.c decide) */
	VR_IORT_ZEROED,            /* words: the mask's (r->mask_why) */
	VR_DT_MAP_UNREADABLE,
	VR_DT_RANGES_UNUSABLE,
	VR_MASK_ZERO,
	VR_NO_MASK_BITS,
	VR_PLATFORM_MASK_RELEASE_UNKNOWN,
	VR_NO_DEFAULT_MASK,
	VR_LAYOUT_CONTRADICTS,
	VR_LAYOUT_UNKNOWN,
	VR_ALL_IN_REACH,
	/* the block layer before 5.13 (devices.c decide_legacy) */
	VR_BLOCK_BOUNCES,
	VR_BLOCK_NOTHING,
	VR_BLOCK_NO_MASK,
	VR_BLOCK_MISSED_UNCHECKED,
	VR_BLOCK_MISSED_LPAE_UNKNOWN,
	VR_BLOCK_WINDOW_IGNORED,
	VR_BLOCK_WINDOW_ROUNDED,
	VR_BLOCK_WINDOW_MASK_ONLY,
	/* RAM out of reach (decided_by_lowmem_only_net, decided_by_arm_dma_ops, devices.c) */
	VR_LOWMEM_ONLY_NET,
	VR_ARM_NO_POOL_RELEASE_UNKNOWN,
	VR_ARM_RELEASE_UNKNOWN,
	VR_ARM_LPAE_UNKNOWN,
	VR_ARM_NOT_LPAE_LOG,
	VR_ARM_NOT_LPAE_RELEASE,
	VR_ARM_UNCHECKED,
	VR_WINDOW_RELEASE_UNKNOWN,
	VR_WINDOW_IGNORED,
	VR_WINDOW_ROUNDED,
	VR_WINDOW_MASK_ONLY,
	/* the swiotlb pool (devices.c pool_decision) */
	VR_POOL_NOFORCE,
	VR_NO_POOL,
	VR_POOL_UNKNOWN,
	VR_POOL_OUT_OF_REACH,
	VR_POOL_DERIVED_OUT_OF_REACH,
	VR_POOL_REACH_PARTLY,
	VR_POOL_REACH_UNKNOWN,
	VR_BOUNCES,
	VR_BOUNCES_DERIVED,
	_VR_MAX,
};

/* What a case sets beside the verdict. */
enum {
	VR_OUT_OF_REACH = 1u << 0,    /* the verdict is about the RAM out of reach (out_of_reach_decides) */
	VR_MISSED_CORRUPTS = 1u << 1, /* unbounced RAM out of reach, nothing checks below (missed_corrupts) */
	VR_UNTRUSTED = 1u << 2,       /* an untrusted device in a DMA domain that bounces (untrusted) */
};

struct verdict_reason_info {
	const char *name;          /* "VR_BOUNCES": the case in DMAMASK_DEBUG=verdicts */
	enum verdict verdict;
	enum unknown_cause cause;  /* VERDICT_UNKNOWN: what it lacks */
	unsigned flags;            /* VR_OUT_OF_REACH, ... */
	/* a phrase of the man page's VERDICTS entry for the verdict that covers the case
	 * (test-verdict-catalogue holds the two together) */
	const char *man;
	const char *text;          /* the reason; NULL: the decision's detail gives it */
};

/* A rule's decision: the case, and the words of a case whose catalogue text is NULL. */
struct verdict_decision {
	enum verdict_reason why;   /* _VR_NONE: not decided */
	const char *detail;        /* static */
};

#define DECIDED(w) ((struct verdict_decision){ .why = (w) })
#define UNDECIDED DECIDED(_VR_NONE)

/* The case's entry; NULL for _VR_NONE and out of range. */
const struct verdict_reason_info *verdict_reason_info(enum verdict_reason w);
