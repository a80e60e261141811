/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sys/class/block (block/genhd.c, block/partitions/core.c): one link per
 * disk and partition into its parent device's directory; partitions carry a
 * "partition" file. queue/ holds the request queue limits
 * (block/blk-sysfs.c), never the bounce limit. The device that does the DMA
 * is the nearest ancestor directory that is a PCI, platform or AMBA device.
 */
#include <stdlib.h>
#include <string.h>

#include "readers/readers.h"
#include "readers/sysfs-util.h"
#include "readers/udev.h"
#include "shared/array.h"
#include "shared/macro.h"

#define CLASS_BLOCK "sys/class/block"

static int cmp_block(const void *a, const void *b)
{
	return strcmp(((const struct block_queue *)a)->disk, ((const struct block_queue *)b)->disk);
}

/* Platform devices found only as disks' parents (no of_node: board files, pre-DT kernels). */
struct pending {
	char **paths;
	size_t n;
};

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

static int add_pending(struct pending *p, const char *path)
{
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->paths[i], path) == 0)
			return 0;
	if (array_full(p->n)) {
		char **n = reallocarray(p->paths, array_capacity(p->n), sizeof(*n));
		if (!n)
			return -ENOMEM;
		p->paths = n;
	}
	if (!(p->paths[p->n] = strdup(path)))
		return -ENOMEM;
	p->n++;
	return 0;
}

static int read_disk(struct sysroot *sr, struct machine *m, struct sysroot_dir *class,
		     const struct dev_index *idx, size_t n, const char *name, struct pending *pending)
{
	static const char *const limit_files[] = {
		"max_sectors_kb",   "max_hw_sectors_kb",  "max_segments",
		"max_segment_size", "logical_block_size", "dma_alignment",
	};
	_cleanup_sysroot_dir_ struct sysroot_dir *disk = NULL, *queue = NULL;
	_cleanup_free_ char *syspath = NULL;
	struct block_queue *b;
	struct stat st;
	int r;

	r = sysroot_dir_new_at(class, &disk, "%s", name);
	if (r < 0)
		return r;
	if (sysroot_dir_stat(disk, "partition", &st) == 0)
		return 0; /* a partition shares its disk's queue */

	r = sysroot_dir_follow(class, name, &syspath);
	if (r == -ENOMEM)
		return r;

	b = machine_add_block(m);
	if (!b)
		return -ENOMEM;
	b->disk = strdup(name);
	if (!b->disk)
		return -ENOMEM;
	/* loop, zram, ram, nbd, dm-*, md* live under sys/devices/virtual: no DMA device */
	const struct dev_index *hit = syspath ? dev_index_find(idx, n, syspath, false) : NULL;
	if (hit) {
		b->dev_index = hit->index;
		b->dma_device = strdup(m->devices[hit->index].id);
		if (!b->dma_device)
			return -ENOMEM;
	} else if (syspath && strncmp(syspath, "sys/devices/virtual/", 20) != 0) {
		_cleanup_free_ char *dev = NULL;
		enum dev_bus bus;
		r = find_bus_ancestor(sr, syspath, &dev, &bus);
		if (r < 0)
			return r;
		if (r > 0) {
			const char *base = strrchr(dev, '/');
			b->dma_device = strdup(base ? base + 1 : dev);
			if (!b->dma_device || add_pending(pending, dev) < 0)
				return -ENOMEM;
		}
	}
	int64_t *const limits[] = {
		&b->max_sectors_kb,   &b->max_hw_sectors_kb,  &b->max_segments,
		&b->max_segment_size, &b->logical_block_size, &b->dma_alignment,
	};
	r = sysroot_dir_new_at(disk, &queue, "queue");
	for (size_t i = 0; r >= 0 && i < ARRAY_SIZE(limit_files); i++)
		r = sysfs_read_int(queue, m, limit_files[i], 10, 0, INT64_MAX, limits[i]);
	return r < 0 ? r : 0;
}

/*
 * Add the platform/AMBA devices only their disks revealed, then point every
 * disk at its device again (sorting the devices moved them).
 */
static int add_disk_parents(struct sysroot *sr, struct machine *m, const struct pending *p,
			    struct sysfs_driver_cache *driver)
{
	for (size_t i = 0; i < p->n; i++) {
		const char *base = strrchr(p->paths[i], '/');
		const char *id = base ? base + 1 : p->paths[i];
		if (machine_find_device(m, id))
			continue;
		_cleanup_sysroot_dir_ struct sysroot_dir *dir = NULL;
		_cleanup_free_ char *t = NULL;
		struct device *d = machine_add_device(m);
		if (!d || sysroot_dir_new(sr, &dir, "%s", p->paths[i]) < 0)
			return -ENOMEM;
		d->bus = DEV_BUS_PLATFORM;
		if (sysroot_dir_readlink(dir, "subsystem", &t) == 0 && strstr(t, "bus/amba"))
			d->bus = DEV_BUS_AMBA;
		d->id = strdup(id);
		d->syspath = strdup(p->paths[i]);
		if (!d->id || !d->syspath)
			return -ENOMEM;
		int r = sysfs_read_binding(sr, dir, m, d, driver);
		if (r < 0)
			return r;
		machine_sort_devices(m); /* machine_find_device() needs the order */
	}
	for (size_t i = 0; i < m->n_blocks; i++) {
		struct block_queue *b = &m->blocks[i];
		const struct device *d = b->dma_device ? machine_find_device(m, b->dma_device) : NULL;
		b->dev_index = d ? (size_t)(d - m->devices) : SIZE_MAX;
	}
	return 0;
}

int read_block(struct sysroot *sr, struct machine *m)
{
	_cleanup_sysroot_dir_ struct sysroot_dir *class = NULL;
	_cleanup_free_ struct dev_index *idx = NULL;
	struct sysfs_driver_cache driver = { 0 };
	struct pending pending = { 0 };
	char **names = NULL;
	size_t n = 0, n_idx = 0;
	int r;

	r = sysroot_dir_new(sr, &class, CLASS_BLOCK);
	if (r < 0)
		return r;
	r = sysroot_dir_list(class, &names, &n);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return machine_add_input_errno(m, CLASS_BLOCK, r);
	r = machine_add_input(m, CLASS_BLOCK, INPUT_OK, 0, NULL);
	if (r >= 0)
		r = dev_index_build(m, &idx, &n_idx);
	for (size_t i = 0; r >= 0 && i < n; i++)
		r = read_disk(sr, m, class, idx, n_idx, names[i], &pending);
	sysroot_free_names(names, n);
	if (r >= 0 && pending.n)
		r = add_disk_parents(sr, m, &pending, &driver);
	sysroot_free_names(pending.paths, pending.n);
	sysfs_driver_cache_done(&driver);
	if (r < 0)
		return r;
	if (m->n_blocks)
		qsort(m->blocks, m->n_blocks, sizeof(*m->blocks), cmp_block);
	return read_udev_blocks(sr, m); /* live: libudev; a snapshot: its captured files */
}
