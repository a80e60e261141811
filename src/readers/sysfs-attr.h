/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A device's attributes read relative to its directory handle, with the
 * rule every device reader (pci.c, platform.c, block.c, iort.c) follows:
 * missing is silent, malformed or unreadable is an input in machine->inputs.
 *
 * Functions that read return 1 when they set their output, 0 when the value
 * is absent or unusable (a malformed or unreadable file is recorded in
 * machine->inputs; a missing one is not), and -ENOMEM.
 */
#pragma once

#include <stdint.h>

#include "machine.h"
#include "sysroot/sysroot.h"

/* A sysfs attribute is at most one page (fs/sysfs/file.c); 64 KiB pages included. */
#define SYSFS_ATTR_MAX SYSROOT_ATTR_MAX

/* A read of dir/name failed with r: absent is silent, anything else an input. 0 or -ENOMEM. */
int sysfs_read_failed(struct sysroot_dir *dir, struct machine *m, const char *name, int r);

/* dir/name holds no usable value: an invalid input with err and detail. 0 or -ENOMEM. */
int sysfs_invalid(struct sysroot_dir *dir, struct machine *m, const char *name, int err,
		  const char *detail);

/* Read the number attribute dir/name (see parse_int_line); malformed: input invalid. */
int sysfs_read_int(struct sysroot_dir *dir, struct machine *m, const char *name, unsigned base,
		   int64_t min, int64_t max, int64_t *ret);

/* Read a one-line printable attribute, trailing newline removed. */
int sysfs_read_string(struct sysroot_dir *dir, struct machine *m, const char *name, char **ret);

/*
 * Pure: the last component of a link's target (trailing '/' cut off in
 * target itself): 1 and *ret; 0 when it names no plain file name; -ENOMEM.
 */
int sysfs_target_basename(char *target, char **ret);

/* The last component of the target of the symlink dir/name; absent: 0, nothing recorded. */
int sysfs_link_basename(struct sysroot_dir *dir, const char *name, char **ret);
