/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The devicetree node of a device; see of-node.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readers/of-node.h"
#include "shared/errno-util.h"
#include "shared/kernel-defs.h"
#include "shared/macro.h"
#include "shared/path.h"

/* An of_node link that is there but leads nowhere usable: the device's reach is unknown. */
static int of_node_broken(struct dt_info *bad, const char *link, int err, const char *what)
{
	bad->err = err;
	bad->err_path = strdup(link);
	if (!bad->err_path || asprintf(&bad->error, "of_node %s", what) < 0) {
		bad->error = NULL;
		return -ENOMEM;
	}
	return 0;
}

int sysfs_of_node(struct sysroot_dir *dir, char **ret, struct dt_info *ret_bad)
{
	_cleanup_free_ char *link = path_join(sysroot_dir_path(dir), "of_node");
	_cleanup_free_ char *target = NULL, *resolved = NULL;
	static const char base[] = DT_BASE;
	int r;

	if (!link)
		return -ENOMEM;
	r = sysroot_dir_readlink(dir, "of_node", &target);
	if (r == -ENOMEM)
		return r;
	if (r == -ENOENT || r == -ENOTDIR)
		return 0; /* no devicetree node: not a DT device */
	if (r < 0) {
		_cleanup_free_ char *what = NULL;
		if (asprintf(&what, "unreadable: %s", errno_describe(r)) < 0)
			return -ENOMEM;
		return of_node_broken(ret_bad, link, r, what);
	}
	r = sysroot_link_resolve(link, target, &resolved);
	if (r == -ENOMEM)
		return r;
	if (r < 0 || strncmp(resolved, base, sizeof(base) - 1) != 0 ||
	    (resolved[sizeof(base) - 1] != '\0' && resolved[sizeof(base) - 1] != '/'))
		return of_node_broken(ret_bad, link, -EBADMSG, "does not point into " DT_BASE);
	const char *node = resolved + sizeof(base) - 1;
	char *s = strdup(*node == '/' ? node + 1 : node);
	if (!s)
		return -ENOMEM;
	*ret = s;
	return 1;
}
