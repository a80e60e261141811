/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The devicetree node of a device: its of_node link (pci.c, platform.c). */
#pragma once

#include "machine.h"
#include "sysroot/sysroot.h"

/*
 * The of_node link of the device directory dir (a real path, e.g. a
 * syspath): 1 and the node relative to DT_BASE ("soc/mmc@fe340000", "" for
 * the root); 0 when there is none; -ENOMEM. A link that is there but cannot
 * be read, or points outside DT_BASE, gives 0 with ret_bad's err, err_path
 * and error set: the device has a node the audit cannot see.
 */
int sysfs_of_node(struct sysroot_dir *dir, char **ret, struct dt_info *ret_bad);
