/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reading a file descriptor to its end: the sysroot layer, --diff and --output-file's previous file. */
#pragma once

#include <stddef.h>
#include <sys/types.h>

/* read(), again after EINTR: the bytes read, or -errno. */
ssize_t read_some(int fd, void *buf, size_t n);

/*
 * Read fd to its end into a NUL-terminated malloc'd buffer. size_hint is
 * st_size (0 when unknown, as on procfs or a pipe): once that many bytes are
 * in, the read that would return 0 is skipped. -EFBIG past max bytes.
 */
int read_fd_all(int fd, size_t max, off_t size_hint, char **ret_buf, size_t *ret_len);
