/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A device's driver, module and IOMMU group; see driver-binding.h. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "readers/driver-binding.h"
#include "readers/sysfs-attr.h"
#include "shared/macro.h"
#include "shared/path.h"
#include "shared/text.h"

void sysfs_driver_cache_done(struct sysfs_driver_cache *c)
{
	strmap_done(&c->seen);
	strv_done(&c->modules);
}

/*
 * drivers/base/module.c module_add_driver: "module" under the driver, when
 * it has one. Looked up from the driver's own directory drvdir (root-relative;
 * NULL: unknown, so driver/module is read through the device), once per
 * driver: the cache answers for the next devices of the same driver.
 */
static int read_module(struct sysroot *sr, struct sysroot_dir *dir, const char *drvdir,
		       struct device *d, struct sysfs_driver_cache *cache)
{
	int r;

	if (!drvdir)
		return sysfs_link_basename(dir, "driver/module", &d->module);
	const struct strmap_entry *e = strmap_get(&cache->seen, drvdir);
	if (e) {
		if (e->value && !(d->module = strdup(cache->modules.v[e->value - 1])))
			return -ENOMEM;
		return 0;
	}
	_cleanup_sysroot_dir_ struct sysroot_dir *drv = NULL;
	r = sysroot_dir_new(sr, &drv, "%s", drvdir);
	if (r == 0)
		r = sysfs_link_basename(drv, "module", &d->module);
	if (r == -ENOMEM)
		return r;
	/* a path too long to name, or no link: no module, for every device of it */
	if (d->module && strv_push(&cache->modules, d->module) < 0)
		return -ENOMEM;
	return strmap_add(&cache->seen, drvdir, d->module ? (int)cache->modules.n : 0) < 0 ? -ENOMEM : 0;
}

int sysfs_read_binding(struct sysroot *sr, struct sysroot_dir *dir, struct machine *m,
		       struct device *d, struct sysfs_driver_cache *cache, const char *drivers)
{
	_cleanup_sysroot_dir_ struct sysroot_dir *group = NULL;
	_cleanup_free_ char *target = NULL, *group_name = NULL, *drvdir = NULL;
	int64_t n;
	int r;

	if (drivers) {
		/* bus_add_driver: the driver's directory is the bus's drivers/NAME, where the link leads */
		if (d->driver && !(drvdir = path_join(drivers, d->driver)))
			return -ENOMEM;
	} else {
		/* drivers/base/dd.c driver_sysfs_add: the "driver" link exists while bound. */
		r = sysroot_dir_readlink(dir, "driver", &target);
		if (r == -ENOMEM)
			return r;
		if (r == 0 && sysfs_target_basename(target, &d->driver) < 0)
			return -ENOMEM;
		_cleanup_free_ char *base = d->syspath ? path_join(d->syspath, "driver") : NULL;
		if (d->syspath && !base)
			return -ENOMEM;
		if (target && base && sysroot_link_resolve(base, target, &drvdir) == -ENOMEM)
			return -ENOMEM;
	}
	/* drivers/iommu/iommu.c iommu_group_add_device: "iommu_group" -> kernel/iommu_groups/N */
	r = sysfs_link_basename(dir, "iommu_group", &group_name);
	if (r < 0)
		return r;
	if (d->driver) {
		r = read_module(sr, dir, drvdir, d, cache);
		if (r < 0)
			return r;
		if (d->module)
			d->module_source = "sysfs";
	}

	if (!group_name)
		return 0;
	if (parse_int_line(group_name, strlen(group_name), 10, 0, INT_MAX, &n) < 0)
		return sysfs_invalid(dir, m, "iommu_group", EBADMSG,
				     "iommu_group does not name a group number");
	opt_set(&d->iommu_group, (int)n);
	r = sysroot_dir_new(sr, &group, "sys/kernel/iommu_groups/%d", d->iommu_group.v);
	if (r == 0)
		r = sysfs_read_string(group, m, "type", &d->iommu_type);
	d->iommu_domain = iommu_domain_from_string(d->iommu_type);
	return r < 0 ? r : 0;
}
