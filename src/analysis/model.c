/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The model's words and gravity: one place for every output that prints or ranks a verdict. */
#include <string.h>

#include "analysis/model.h"

static const char *const verdict_names[_VERDICT_MAX] = {
	[VERDICT_DIRECT] = "direct", [VERDICT_IOMMU] = "iommu", [VERDICT_PARTIAL] = "partial",
	[VERDICT_FORCED] = "forced", [VERDICT_FAILS] = "fails", [VERDICT_IDLE] = "idle",
	[VERDICT_UNKNOWN] = "unknown",
};

const char *verdict_to_string(enum verdict v)
{
	return v >= 0 && v < _VERDICT_MAX ? verdict_names[v] : NULL;
}

enum verdict verdict_from_string(const char *s)
{
	for (int v = 0; s && v < _VERDICT_MAX; v++)
		if (strcmp(verdict_names[v], s) == 0)
			return (enum verdict)v;
	return _VERDICT_INVALID;
}

static const char *const mask_source_names[_MASK_SOURCE_MAX] = {
	[MASK_SOURCE_SYSFS] = "sysfs",
	[MASK_SOURCE_ASSUMED] = "assumed",
	[MASK_SOURCE_USER] = "user",
	[MASK_SOURCE_NONE] = "none",
	[MASK_SOURCE_DRIVER] = "driver",
};

const char *mask_source_to_string(enum mask_source s)
{
	return s < _MASK_SOURCE_MAX ? mask_source_names[s] : NULL;
}

static const char *const kernel_model_names[_KERNEL_MODEL_MAX] = {
	[KERNEL_MODEL_DMA_DIRECT] = "dma-direct",
	[KERNEL_MODEL_LEGACY_BLOCK] = "legacy-block",
};

const char *kernel_model_to_string(enum kernel_model k)
{
	return k >= 0 && k < _KERNEL_MODEL_MAX ? kernel_model_names[k] : NULL;
}

static const char *const observed_result_names[_OBSERVED_RESULT_MAX] = {
	[OBSERVED_CONSISTENT] = "consistent",
	[OBSERVED_CONTRADICTED] = "contradicted",
	[OBSERVED_NO_TRAFFIC] = "no-traffic",
	[OBSERVED_UNJUDGED] = "unjudged",
};

const char *observed_result_to_string(enum observed_result r)
{
	return r > OBSERVED_NONE && r < _OBSERVED_RESULT_MAX ? observed_result_names[r] : NULL;
}

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
