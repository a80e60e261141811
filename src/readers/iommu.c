/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sys/kernel/iommu_groups (drivers/iommu/iommu.c iommu_group_alloc): one
 * directory per group when an IOMMU driver registered devices. Each
 * device's group and its default domain type are read with the device
 * (sysfs-util.c sysfs_read_binding); here only whether groups exist at all.
 */
#include "readers/readers.h"

#define IOMMU_GROUPS "sys/kernel/iommu_groups"

int read_iommu(struct sysroot *sr, struct machine *m)
{
	char **names = NULL;
	size_t n = 0;
	int r;

	r = sysroot_list_dir(sr, IOMMU_GROUPS, &names, &n);
	if (r == -ENOMEM)
		return r;
	sysroot_free_names(names, n);
	/* iommu_init() makes the directory with CONFIG_IOMMU_API alone: empty is not "present" */
	m->iommu_groups_present = r == 0 && n > 0;
	return machine_add_input_errno(m, IOMMU_GROUPS, r);
}
