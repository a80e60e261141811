/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sys/kernel/iommu_groups (drivers/iommu/iommu.c iommu_group_alloc): one
 * directory per group when an IOMMU driver registered devices. Each
 * device's group and its default domain type are read with the device
 * (driver-binding.c sysfs_read_binding); here only whether groups exist at all.
 */
#include "readers/readers.h"

#define IOMMU_GROUPS "sys/kernel/iommu_groups"

int read_iommu(struct sysroot *sr, struct machine *m)
{
	struct strv names = { 0 };
	int r;

	r = sysroot_list_dir(sr, IOMMU_GROUPS, &names);
	if (r == -ENOMEM)
		return r;
	/* iommu_init() makes the directory with CONFIG_IOMMU_API alone: empty is not "present" */
	m->iommu_groups_present = r == 0 && names.n > 0;
	strv_done(&names);
	return machine_add_input_errno(m, IOMMU_GROUPS, r);
}
