/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a bus device is bound to: its driver and the driver's module (with a
 * cache, so devices of one driver look the module up once), and its IOMMU
 * group with the group's domain type (pci.c, platform.c, disk-parents.c).
 */
#pragma once

#include "machine.h"
#include "sysroot/sysroot.h"

#include "shared/strmap.h"
#include "shared/strv.h"

/*
 * The module of each driver directory met, read once: devices of one driver
 * share it, however the drivers of a bus alternate.
 */
struct sysfs_driver_cache {
	struct strmap seen;    /* driver directory -> index in modules + 1; 0: no module */
	struct strv modules;
};
void sysfs_driver_cache_done(struct sysfs_driver_cache *c);

/*
 * driver, driver/module, iommu_group and sys/kernel/iommu_groups/N/type of
 * the device whose directory is dir. drivers: the bus's drivers directory
 * when d->driver already says the binding (the uevent's DRIVER=, NULL:
 * unbound), so the driver link is not read and the module is looked up in
 * drivers/NAME; NULL: read the link. Returns 0 or -ENOMEM.
 */
int sysfs_read_binding(struct sysroot *sr, struct sysroot_dir *dir, struct machine *m,
		       struct device *d, struct sysfs_driver_cache *cache, const char *drivers);
