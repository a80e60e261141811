/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "shared/macro.h"
#include "shared/read-fd.h"

ssize_t read_some(int fd, void *buf, size_t n)
{
	ssize_t r;

	do
		r = read(fd, buf, n);
	while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : r;
}

/*
 * Read fd to its end. size_hint is st_size (0 when unknown, as on procfs):
 * once that many bytes are in, the read that would return 0 is skipped, which
 * halves the read() calls on snapshots and sysfs binary attributes.
 */
int read_fd_all(int fd, size_t max, off_t size_hint, char **ret_buf, size_t *ret_len)
{
	/* compared as uint64_t: a 64-bit off_t truncated to a 32-bit size_t could look small */
	bool hint = size_hint > 0 && (uint64_t)size_hint <= max;
	size_t cap = hint ? (size_t)size_hint : 4096, len = 0;
	_cleanup_free_ char *buf = malloc(cap + 1);

	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (len == cap) {
			if (cap > max)
				return -EFBIG;
			size_t ncap = cap * 2;
			char *nb = realloc(buf, ncap + 1);
			if (!nb)
				return -ENOMEM;
			buf = nb;
			cap = ncap;
		}
		ssize_t n = read_some(fd, buf + len, cap - len);
		if (n < 0)
			return (int)n;
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > max)
			return -EFBIG;
		if (hint && len == (size_t)size_hint)
			break;
	}
	buf[len] = '\0';
	*ret_buf = TAKE_PTR(buf);
	if (ret_len)
		*ret_len = len;
	return 0;
}
