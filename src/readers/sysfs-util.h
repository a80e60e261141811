/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the device readers (pci.c, platform.c, block.c, modules.c) share:
 * small attribute reads relative to a device's directory handle with the
 * "missing is silent, malformed is an invalid input" rule, and the
 * driver/module/iommu_group links every bus device has.
 *
 * Functions that read return 1 when they set their output, 0 when the value
 * is absent or unusable (a malformed or unreadable file is recorded in
 * machine->inputs; a missing one is not), and -ENOMEM.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "machine.h"
#include "sysroot/sysroot.h"

#include "shared/kernel-defs.h"
#include "shared/strmap.h"
#include "shared/strv.h"

/* A sysfs attribute is at most one page (fs/sysfs/file.c); 64 KiB pages included. */
#define SYSFS_ATTR_MAX SYSROOT_ATTR_MAX

/* Pure: "a/b" from "a" and "b"; "b" when a is "" (the root). NULL on OOM. */
char *path_join(const char *a, const char *b);

/* A read of dir/name failed with r: absent is silent, anything else an input. 0 or -ENOMEM. */
int sysfs_read_failed(struct sysroot_dir *dir, struct machine *m, const char *name, int r);

/* Read the number attribute dir/name (see parse_int_line); malformed: input invalid. */
int sysfs_read_int(struct sysroot_dir *dir, struct machine *m, const char *name, unsigned base,
		   int64_t min, int64_t max, int64_t *ret);

/* Read a one-line printable attribute, trailing newline removed. */
int sysfs_read_string(struct sysroot_dir *dir, struct machine *m, const char *name, char **ret);

/* The last component of the target of the symlink dir/name; absent: 0, nothing recorded. */
int sysfs_link_basename(struct sysroot_dir *dir, const char *name, char **ret);

/*
 * The of_node link of the device directory dir (a real path, e.g. a
 * syspath): 1 and the node relative to DT_BASE ("soc/mmc@fe340000", "" for
 * the root); 0 when there is none; -ENOMEM. A link that is there but cannot
 * be read, or points outside DT_BASE, gives 0 with ret_bad's err, err_path
 * and error set: the device has a node the audit cannot see.
 */
int sysfs_of_node(struct sysroot_dir *dir, char **ret, struct dt_info *ret_bad);

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

/* machine.devices sorted by syspath, for finding the device a sysfs path lies under. */
struct dev_index {
	const char *syspath;     /* borrowed from the device: valid while m->devices is unchanged */
	size_t index;            /* in m->devices */
};

/* Index the devices that have a syspath; *ret NULL when there are none. 0 or -ENOMEM. */
int dev_index_build(const struct machine *m, struct dev_index **ret, size_t *ret_n);

/*
 * Pure: the device whose syspath is path (when self) or the nearest of its
 * ancestors, climbing one component at a time; NULL when none.
 */
const struct dev_index *dev_index_find(const struct dev_index *idx, size_t n, const char *path,
				       bool self);
