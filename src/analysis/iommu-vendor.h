/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Which IOMMU driver is behind the groups, from what the readers saw. Pure. */
#pragma once

#include "shared/macro.h"

#include "machine.h"

enum iommu_vendor {
	IOMMU_VENDOR_UNKNOWN,
	IOMMU_VENDOR_INTEL, /* VT-d: drivers/iommu/intel-iommu.c (intel/iommu.c from 5.9) */
	IOMMU_VENDOR_AMD,   /* AMD-Vi: drivers/iommu/amd_iommu.c (amd/iommu.c from 5.9) */
};

/* The log names it, else sys/class/iommu's unit names; on x86 the CPU vendor last (Hygon's is AMD-Vi). */
enum iommu_vendor iommu_vendor(const struct machine *m) _nonnull_all_;
