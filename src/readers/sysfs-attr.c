/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A device's attributes, read and recorded; see sysfs-attr.h. */
#include <stdlib.h>
#include <string.h>

#include "readers/sysfs-attr.h"
#include "shared/macro.h"
#include "shared/path.h"
#include "shared/text.h"

int sysfs_read_failed(struct sysroot_dir *dir, struct machine *m, const char *name, int r)
{
	if (r == -ENOMEM)
		return r;
	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	_cleanup_free_ char *path = path_join(sysroot_dir_path(dir), name);
	if (!path)
		return -ENOMEM;
	return machine_add_input_errno(m, path, r);
}

int sysfs_invalid(struct sysroot_dir *dir, struct machine *m, const char *name, int err,
		  const char *detail)
{
	_cleanup_free_ char *path = path_join(sysroot_dir_path(dir), name);

	if (!path)
		return -ENOMEM;
	return machine_add_input(m, path, INPUT_INVALID, err, detail);
}

int sysfs_read_int(struct sysroot_dir *dir, struct machine *m, const char *name, unsigned base,
		   int64_t min, int64_t max, int64_t *ret)
{
	int r = sysroot_dir_read_int(dir, name, base, min, max, ret);

	if (r == -ERANGE)
		return sysfs_invalid(dir, m, name, ERANGE, "value out of range");
	if (r == -EBADMSG)
		return sysfs_invalid(dir, m, name, EBADMSG,
				     base == 16 ? "not a hex number" : "not a decimal number");
	return r < 0 ? sysfs_read_failed(dir, m, name, r) : 1;
}

int sysfs_read_string(struct sysroot_dir *dir, struct machine *m, const char *name, char **ret)
{
	int r = sysroot_dir_read_string(dir, name, ret);

	if (r == -EBADMSG)
		return sysfs_invalid(dir, m, name, EBADMSG, "not a printable line");
	return r < 0 ? sysfs_read_failed(dir, m, name, r) : 1;
}

int sysfs_target_basename(char *target, char **ret)
{
	size_t len = strlen(target);
	while (len > 0 && target[len - 1] == '/')
		target[--len] = '\0';
	const char *slash = strrchr(target, '/');
	const char *base = slash ? slash + 1 : target;
	if (!filename_is_plain(base))
		return 0;
	char *s = strdup(base);
	if (!s)
		return -ENOMEM;
	*ret = s;
	return 1;
}

int sysfs_link_basename(struct sysroot_dir *dir, const char *name, char **ret)
{
	_cleanup_free_ char *target = NULL;
	int r = sysroot_dir_readlink(dir, name, &target);

	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0;
	return sysfs_target_basename(target, ret);
}
