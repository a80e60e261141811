/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Names and short texts for the errnos the report shows. */
#include <errno.h>
#include <string.h>

#include "shared/errno-util.h"
#include "shared/macro.h"

static const struct {
	int err;
	const char *name;
	const char *text;
} errors[] = {
	{ ENOENT, "ENOENT", "no such file" },
	{ ENOTDIR, "ENOTDIR", "a path component is not a directory" },
	{ EACCES, "EACCES", "permission denied" },
	{ EPERM, "EPERM", "operation not permitted" },
	{ EINVAL, "EINVAL", "not a regular file (FIFO, socket or device node), refused" },
	{ EISDIR, "EISDIR", "is a directory" },
	{ EFBIG, "EFBIG", "larger than the read cap" },
	{ ELOOP, "ELOOP", "too many levels of symbolic links" },
	{ ENAMETOOLONG, "ENAMETOOLONG", "path too long" },
	{ EIO, "EIO", "input/output error" },
	{ ENOMEM, "ENOMEM", "out of memory" },
	{ ENODEV, "ENODEV", "no such device" },
	{ ENXIO, "ENXIO", "no such device or address" },
	{ EBADMSG, "EBADMSG", "malformed content" },
	{ ERANGE, "ERANGE", "value out of range" },
	{ EEXIST, "EEXIST", "another entry already has this name" },
	{ ELIBACC, "ELIBACC", "the library it needs cannot be loaded" },
};

const char *errno_describe(int err)
{
	if (err < 0)
		err = -err;
	for (size_t i = 0; i < ARRAY_SIZE(errors); i++)
		if (errors[i].err == err)
			return errors[i].text;
	return strerror(err);
}

const char *errno_name(int err)
{
	if (err < 0)
		err = -err;
	for (size_t i = 0; i < ARRAY_SIZE(errors); i++)
		if (errors[i].err == err)
			return errors[i].name;
	return NULL;
}

int errno_from_name(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(errors); i++)
		if (strcmp(errors[i].name, name) == 0)
			return errors[i].err;
	return 0;
}
