/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What a device's remedy must change: the mask, the window, the pool, the IOMMU or the release. */
#include "analysis/eras.h"
#include "analysis/limiter.h"

/* The end of the reach itself: a wider mask helps (mask) or the window ends it. */
static enum reach_limiter reach_end_limiter(const struct device_report *r)
{
	if (!r->cpu_reach_end.known)
		return LIMITER_UNKNOWN;
	return r->mask_bound ? LIMITER_MASK : LIMITER_BUS_WINDOW;
}

/* The block layer of a release before 5.13 bounces reachable RAM too (a count reading, BLK_BOUNCE_HIGH). */
static bool block_era_bounces_more(const struct device_report *r)
{
	return r->kernel_model == KERNEL_MODEL_LEGACY_BLOCK && device_legacy(r)->known &&
	       device_legacy(r)->needless_bytes > 0;
}

enum reach_limiter limiter_decide(const struct devices_input *in, const struct device_report *r)
{
	switch (r->verdict) {
	case VERDICT_IOMMU:
		/* translated; an untrusted device's unaligned buffers bounce at the IOMMU's page */
		if (!r->untrusted)
			return LIMITER_NONE;
		return in->sw->active == TRI_NO ? LIMITER_POOL : LIMITER_IOMMU;
	case VERDICT_FORCED:
		/* its own mask below the memory-encryption bit; else policy (swiotlb=force, a restricted pool) */
		return !in->sw->forced && !device_dt(r->dev)->restricted_pool ? LIMITER_MASK : LIMITER_NONE;
	case VERDICT_PARTIAL:
		if (block_era_bounces_more(r))
			return LIMITER_KERNEL_ERA;
		if (r->dev->iommu_domain == IOMMU_DOMAIN_IDENTITY)
			return LIMITER_IOMMU; /* passthrough: a translated domain would reach all RAM */
		return reach_end_limiter(r);
	case VERDICT_FAILS:
		/* what nothing checks is the release's doing (arm_dma_ops, the window's check, bounce_pfn) */
		if (r->missed_corrupts)
			return LIMITER_KERNEL_ERA;
		/* no pool it can use; forced through one out of reach (devices.c forced_decision) too */
		return LIMITER_POOL;
	case VERDICT_UNKNOWN:
		return LIMITER_UNKNOWN;
	default:
		return LIMITER_NONE; /* direct, idle */
	}
}
