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

#include "readers/device-index.h"
#include "readers/readers.h"
#include "readers/sysfs-attr.h"
#include "shared/macro.h"

#define CLASS_BLOCK "sys/class/block"

static int cmp_block(const void *a, const void *b)
{
	return strcmp(((const struct block_queue *)a)->disk, ((const struct block_queue *)b)->disk);
}

static int read_disk(struct machine *m, struct sysroot_dir *class, const struct dev_index *idx,
		     size_t n, const char *name)
{
	static const char *const limit_files[] = {
		"max_sectors_kb",   "max_hw_sectors_kb",  "max_segments",
		"max_segment_size", "logical_block_size", "dma_alignment",
	};
	_cleanup_sysroot_dir_ struct sysroot_dir *disk = NULL, *queue = NULL;
	struct block_queue *b;
	struct stat st;
	int r;

	r = sysroot_dir_new_at(class, &disk, "%s", name);
	if (r < 0)
		return r;
	if (sysroot_dir_stat(disk, "partition", &st) == 0)
		return 0; /* a partition shares its disk's queue */

	b = machine_add_block(m);
	if (!b)
		return -ENOMEM;
	b->disk = strdup(name);
	if (!b->disk)
		return -ENOMEM;
	r = sysroot_dir_follow(class, name, &b->syspath);
	if (r == -ENOMEM)
		return r;
	/* a disk under no device read so far waits for read_disk_parents() */
	const struct dev_index *hit = b->syspath ? dev_index_find(idx, n, b->syspath, false) : NULL;
	if (hit) {
		opt_set(&b->dev_index, hit->index);
		b->dma_device = strdup(m->devices[hit->index].id);
		if (!b->dma_device)
			return -ENOMEM;
	}
	struct opt_i64 *const limits[] = {
		&b->max_sectors_kb,   &b->max_hw_sectors_kb,  &b->max_segments,
		&b->max_segment_size, &b->logical_block_size, &b->dma_alignment,
	};
	r = sysroot_dir_new_at(disk, &queue, "queue");
	for (size_t i = 0; r >= 0 && i < ARRAY_SIZE(limit_files); i++) {
		int64_t v;
		r = sysfs_read_int(queue, m, limit_files[i], 10, 0, INT64_MAX, &v);
		if (r > 0)
			opt_set(limits[i], v);
	}
	return r < 0 ? r : 0;
}

int read_block(struct sysroot *sr, struct machine *m)
{
	_cleanup_sysroot_dir_ struct sysroot_dir *class = NULL;
	_cleanup_free_ struct dev_index *idx = NULL;
	struct strv names = { 0 };
	size_t n_idx = 0;
	int r;

	r = sysroot_dir_new(sr, &class, CLASS_BLOCK);
	if (r < 0)
		return r;
	r = sysroot_dir_list(class, &names);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return machine_add_input_errno(m, CLASS_BLOCK, r);
	r = machine_add_input(m, CLASS_BLOCK, INPUT_OK, 0, NULL);
	if (r >= 0)
		r = dev_index_build(m, &idx, &n_idx);
	for (size_t i = 0; r >= 0 && i < names.n; i++)
		r = read_disk(m, class, idx, n_idx, names.v[i]);
	strv_done(&names);
	if (r < 0)
		return r;
	if (m->n_blocks)
		qsort(m->blocks, m->n_blocks, sizeof(*m->blocks), cmp_block);
	return 0;
}
