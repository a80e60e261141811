/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <string.h>

#include "analysis/iommu-vendor.h"

enum iommu_vendor iommu_vendor(const struct machine *m)
{
	const char *v = m->cpu_vendor;

	if (m->log_intel_iommu != m->log_amd_iommu)
		return m->log_intel_iommu ? IOMMU_VENDOR_INTEL : IOMMU_VENDOR_AMD;
	/* the units' sysfs names: before the CPU vendor, which an emulated CPU
	 * (QEMU's qemu64 says AuthenticAMD) need not share with the IOMMU */
	if (m->class_intel_iommu != m->class_amd_iommu)
		return m->class_intel_iommu ? IOMMU_VENDOR_INTEL : IOMMU_VENDOR_AMD;
	if (v && strcmp(v, "GenuineIntel") == 0)
		return IOMMU_VENDOR_INTEL;
	if (v && (strcmp(v, "AuthenticAMD") == 0 || strcmp(v, "HygonGenuine") == 0))
		return IOMMU_VENDOR_AMD;
	return IOMMU_VENDOR_UNKNOWN;
}
