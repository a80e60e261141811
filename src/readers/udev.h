/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libudev extras (live only). read_udev() in readers.h handles devices. */
#pragma once

#include "machine.h"
#include "sysroot/sysroot.h"

/*
 * ID_PATH, ID_SERIAL and the /dev/disk/by-path link of every block queue.
 * A collection stage of its own, after read_block() and read_disk_parents()
 * (read_udev, for devices, runs before them). Does nothing unless the sysroot is live and run/udev/data
 * exists; records no input (read_udev did). Returns 0 or -ENOMEM.
 */
int read_udev_blocks(struct sysroot *sr, struct machine *m);

/*
 * A capture stores what libudev gave as plain files, read back by read_udev()
 * on a snapshot: UDEV_SNAPSHOT/<device id> and UDEV_SNAPSHOT/block/<disk>.
 */
#define UDEV_SNAPSHOT "run/dmamask-audit/udev"

/*
 * Read back what udev_props_format() wrote: known keys set u's fields (the
 * last line of a key wins), others are ignored. 0, -EBADMSG for binary
 * content, -ENOMEM.
 */
int udev_props_parse(const char *buf, size_t len, struct udev_props *u);

/* KEY=value lines for u (malloc'd, possibly empty). 0 or -ENOMEM. */
int udev_props_format(const struct udev_props *u, char **ret);
