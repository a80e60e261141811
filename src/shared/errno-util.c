/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Names and short texts for the errnos the report shows. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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
	/* the run's own resources, not the machine's: a snapshot that met one is incomplete */
	{ EMFILE, "EMFILE", "too many open files for this process" },
	{ ENFILE, "ENFILE", "too many open files in the system" },
	{ ENOBUFS, "ENOBUFS", "no buffer space" },
	{ EAGAIN, "EAGAIN", "resource temporarily unavailable" },
	{ EINTR, "EINTR", "interrupted" },
	{ EBUSY, "EBUSY", "device or resource busy" },
	{ EOVERFLOW, "EOVERFLOW", "value too large for its type" },
	{ ETIMEDOUT, "ETIMEDOUT", "timed out" },
	{ ESTALE, "ESTALE", "stale file handle" },
	{ ENOSPC, "ENOSPC", "no space left on device" },
	{ EROFS, "EROFS", "read-only file system" },
	{ EOPNOTSUPP, "EOPNOTSUPP", "operation not supported" },
	{ ENOSYS, "ENOSYS", "function not implemented" },
	{ ENODATA, "ENODATA", "no data available" },
	{ ECANCELED, "ECANCELED", "cancelled" },
	{ E2BIG, "E2BIG", "too big" },
	{ EFAULT, "EFAULT", "bad address" },
};

/* Errnos that say something of the file itself, which a replay reproduces from the MANIFEST. */
static const int answers[] = {
	ENOENT, ENOTDIR, EACCES, EPERM, EINVAL, EISDIR, EFBIG, ELOOP, ENAMETOOLONG,
	ENODEV, ENXIO, EBADMSG, ERANGE, EEXIST, EOPNOTSUPP, ENODATA,
};

bool errno_is_answer(int err)
{
	if (err < 0)
		err = -err;
	for (size_t i = 0; i < ARRAY_SIZE(answers); i++)
		if (answers[i] == err)
			return true;
	return false;
}

bool errno_is_exhaustion(int err)
{
	if (err < 0)
		err = -err;
	return err == EMFILE || err == ENFILE || err == ENOMEM || err == ENOBUFS;
}

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
	/* the numeric fallback's buffers: a few names live at once in one printf */
	static char numeric[4][ERRNO_NAME_MAX];
	static unsigned next;

	if (err < 0)
		err = -err;
	for (size_t i = 0; i < ARRAY_SIZE(errors); i++)
		if (errors[i].err == err)
			return errors[i].name;
#ifdef HAVE_STRERRORNAME_NP
	const char *s = strerrorname_np(err);
	if (s)
		return s;
#endif
	char *b = numeric[next++ % ARRAY_SIZE(numeric)];
	snprintf(b, ERRNO_NAME_MAX, "E%d", err);
	return b;
}

int errno_from_name(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(errors); i++)
		if (strcmp(errors[i].name, name) == 0)
			return errors[i].err;
	/* "E24": the numeric form errno_name() writes for an errno it has no name for */
	if (name[0] == 'E' && name[1] >= '1' && name[1] <= '9') {
		char *end;
		errno = 0;
		long v = strtol(name + 1, &end, 10);
		if (!*end && errno == 0 && v > 0 && v < ERRNO_MAX)
			return (int)v;
		return 0;
	}
#ifdef HAVE_STRERRORNAME_NP
	for (int e = 1; e < ERRNO_MAX; e++) {
		const char *s = strerrorname_np(e);
		if (s && strcmp(s, name) == 0)
			return e;
	}
#endif
	return 0;
}
