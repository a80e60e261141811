/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The devices only disks reveal: on kernels and boards without a devicetree
 * (board files, pre-DT kernels) an MMC host is a platform device with no
 * of_node, so read_platform() never lists it; its disks' sysfs paths lead to
 * it. Runs after read_block(): adds those devices, then points every disk
 * at its device again (sorting the devices moved them).
 */
#include <stdlib.h>
#include <string.h>

#include "readers/driver-binding.h"
#include "readers/readers.h"
#include "shared/macro.h"

/*
 * The nearest ancestor whose subsystem link is bus/platform or bus/amba: on
 * kernels and boards without a devicetree, the device an MMC host's disks
 * hang under (drivers/base/core.c device_add_class_symlinks: "subsystem").
 * 1 with *ret_path and *ret_bus, 0 when there is none, -ENOMEM.
 */
static int find_bus_ancestor(struct sysroot *sr, const char *syspath, char **ret_path,
			     enum dev_bus *ret_bus)
{
	size_t len = strlen(syspath);

	while (len > 0) {
		while (len > 0 && syspath[len - 1] != '/')
			len--;
		if (len <= 1)
			return 0;
		len--;
		_cleanup_sysroot_dir_ struct sysroot_dir *dir = NULL;
		_cleanup_free_ char *bus = NULL;
		int r = sysroot_dir_new(sr, &dir, "%.*s", (int)len, syspath);
		if (r == 0)
			r = sysroot_dir_follow(dir, "subsystem", &bus);
		if (r == -ENOMEM)
			return r;
		if (r < 0)
			continue;
		bool platform = strcmp(bus, "sys/bus/platform") == 0;
		if (platform || strcmp(bus, "sys/bus/amba") == 0) {
			char *path = strdup(sysroot_dir_path(dir));
			if (!path)
				return -ENOMEM;
			*ret_bus = platform ? DEV_BUS_PLATFORM : DEV_BUS_AMBA;
			*ret_path = path;
			return 1;
		}
		/* an mmc card, a SCSI target, a USB interface: keep climbing */
	}
	return 0;
}

/* Add the device at path (a disk's bus ancestor) unless it is known; sorts the devices. */
static int add_parent(struct sysroot *sr, struct machine *m, const char *path,
		      struct sysfs_driver_cache *driver)
{
	const char *base = strrchr(path, '/');
	const char *id = base ? base + 1 : path;

	if (machine_find_device(m, id))
		return 0;
	{
		_cleanup_sysroot_dir_ struct sysroot_dir *dir = NULL;
		_cleanup_free_ char *t = NULL;
		struct device *d = machine_add_device(m);
		if (!d || sysroot_dir_new(sr, &dir, "%s", path) < 0)
			return -ENOMEM;
		d->bus = DEV_BUS_PLATFORM;
		if (sysroot_dir_readlink(dir, "subsystem", &t) == 0 && strstr(t, "bus/amba"))
			d->bus = DEV_BUS_AMBA;
		d->id = strdup(id);
		d->syspath = strdup(path);
		if (!d->id || !d->syspath)
			return -ENOMEM;
		int r = sysfs_read_binding(sr, dir, m, d, driver, NULL);
		if (r < 0)
			return r;
		machine_sort_devices(m); /* machine_find_device() needs the order */
	}
	return 0;
}

int read_disk_parents(struct sysroot *sr, struct machine *m)
{
	struct sysfs_driver_cache driver = { 0 };
	int r = 0;

	for (size_t i = 0; r >= 0 && i < m->n_blocks; i++) {
		struct block_queue *b = &m->blocks[i];
		_cleanup_free_ char *dev = NULL;
		enum dev_bus bus;
		/* loop, zram, ram, nbd, dm-*, md* live under sys/devices/virtual: no DMA device */
		if (b->dma_device || !b->syspath || strncmp(b->syspath, "sys/devices/virtual/", 20) == 0)
			continue;
		r = find_bus_ancestor(sr, b->syspath, &dev, &bus);
		if (r <= 0)
			continue;
		const char *base = strrchr(dev, '/');
		b->dma_device = strdup(base ? base + 1 : dev);
		r = b->dma_device ? add_parent(sr, m, dev, &driver) : -ENOMEM;
	}
	sysfs_driver_cache_done(&driver);
	if (r < 0)
		return r;
	for (size_t i = 0; i < m->n_blocks; i++) {
		struct block_queue *b = &m->blocks[i];
		const struct device *d = b->dma_device ? machine_find_device(m, b->dma_device) : NULL;
		if (d)
			opt_set(&b->dev_index, (size_t)(d - m->devices));
		else
			opt_clear(&b->dev_index);
	}
	return 0;
}
