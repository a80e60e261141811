/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * machine.devices sorted by syspath, for finding the device a sysfs path
 * lies under (block.c: a disk's device; dma-signs.c: a class device's).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "machine.h"

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
