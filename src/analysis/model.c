/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The model's words and gravity: one place for every output that prints or ranks a verdict. */
#include <string.h>

#include "analysis/model.h"
#include "shared/string-table.h"

static const char *const verdict_table[_VERDICT_MAX] = {
	[VERDICT_DIRECT] = "direct", [VERDICT_IOMMU] = "iommu", [VERDICT_PARTIAL] = "partial",
	[VERDICT_FORCED] = "forced", [VERDICT_FAILS] = "fails", [VERDICT_IDLE] = "idle",
	[VERDICT_UNKNOWN] = "unknown",
};

DEFINE_STRING_TABLE_LOOKUP(verdict, enum verdict);

static const char *const mask_source_table[_MASK_SOURCE_MAX] = {
	[MASK_SOURCE_SYSFS] = "sysfs",
	[MASK_SOURCE_ASSUMED] = "assumed",
	[MASK_SOURCE_USER] = "user",
	[MASK_SOURCE_NONE] = "none",
	[MASK_SOURCE_DRIVER] = "driver",
};

DEFINE_STRING_TABLE_LOOKUP_TO_STRING(mask_source, enum mask_source);

static const char *const kernel_model_table[_KERNEL_MODEL_MAX] = {
	[KERNEL_MODEL_DMA_DIRECT] = "dma-direct",
	[KERNEL_MODEL_LEGACY_BLOCK] = "legacy-block",
};

DEFINE_STRING_TABLE_LOOKUP_TO_STRING(kernel_model, enum kernel_model);

static const char *const observed_result_table[_OBSERVED_RESULT_MAX] = {
	[OBSERVED_CONSISTENT] = "consistent",
	[OBSERVED_CONTRADICTED] = "contradicted",
	[OBSERVED_NO_BOUNCE] = "no-bounce",
	[OBSERVED_NO_TRAFFIC] = "no-traffic",
	[OBSERVED_CANNOT_TELL] = "cannot-tell",
	[OBSERVED_UNJUDGED] = "unjudged",
};

DEFINE_STRING_TABLE_LOOKUP_TO_STRING(observed_result, enum observed_result);

/* JSON "limiter" and the schema's enum */
static const char *const reach_limiter_table[_LIMITER_MAX] = {
	[LIMITER_NONE] = "none",
	[LIMITER_MASK] = "mask",
	[LIMITER_BUS_WINDOW] = "bus-window",
	[LIMITER_POOL] = "pool",
	[LIMITER_IOMMU] = "iommu",
	[LIMITER_KERNEL_ERA] = "kernel-era",
	[LIMITER_UNKNOWN] = "unknown",
};
DEFINE_STRING_TABLE_LOOKUP_TO_STRING(reach_limiter, enum reach_limiter);

enum verdict_gravity verdict_gravity(enum verdict v)
{
	switch (v) {
	case VERDICT_FAILS:
		return VERDICT_GRAVITY_ERROR;
	case VERDICT_PARTIAL:
	case VERDICT_FORCED:
	case VERDICT_UNKNOWN:
		return VERDICT_GRAVITY_WARNING;
	case VERDICT_DIRECT:
	case VERDICT_IOMMU:
		return VERDICT_GRAVITY_GOOD;
	default:
		return VERDICT_GRAVITY_NONE;
	}
}

bool device_needs_action(const struct device_report *r)
{
	/* forced and unknown need action through their findings' severity, which may be info
	 * (a restricted-dma-pool the devicetree sets by design): gravity alone would page on them */
	return r->verdict == VERDICT_PARTIAL || r->verdict == VERDICT_FAILS ||
	       (r->worst_severity.known && r->worst_severity.v >= SEVERITY_WARNING);
}

const struct legacy_result *device_legacy(const struct device_report *r)
{
	static const struct legacy_result none;
	return r->legacy ? r->legacy : &none;
}

bool report_all_clear(const struct report *r)
{
	for (size_t i = 0; i < r->devices.n_devices; i++)
		if (device_needs_action(&r->devices.devices[i]))
			return false;
	for (size_t i = 0; i < r->findings.n; i++)
		if (!r->findings.v[i].device && r->findings.v[i].severity >= SEVERITY_WARNING)
			return false;
	return r->unlisted_action == 0;
}
