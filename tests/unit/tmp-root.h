/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A throwaway sysroot for the reader tests: a mkdtemp directory filled with
 * text and big-endian cell files, removed at the end. Include after cmocka.h.
 */
#pragma once

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static inline char *tmp_root_new(void)
{
	char *dir = strdup("/tmp/dmamask-unit-XXXXXX");
	assert_non_null(dir);
	assert_non_null(mkdtemp(dir));
	return dir;
}

/* mkdir -p root/path */
static inline void tmp_root_mkdir(const char *root, const char *path)
{
	char full[4096];
	snprintf(full, sizeof(full), "%s/%s", root, path);
	for (char *p = full + strlen(root) + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		assert_true(mkdir(full, 0755) == 0 || errno == EEXIST);
		*p = '/';
	}
	assert_true(mkdir(full, 0755) == 0 || errno == EEXIST);
}

/* root/path with exactly these bytes; parent directories created. */
static inline void tmp_root_write(const char *root, const char *path, const void *data, size_t len)
{
	char full[4096];
	snprintf(full, sizeof(full), "%s/%s", root, path);
	char *slash = strrchr(full, '/');
	*slash = '\0';
	if (strlen(full) > strlen(root))
		tmp_root_mkdir(root, full + strlen(root) + 1);
	*slash = '/';
	int fd = open(full, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
}

static inline void tmp_root_write_str(const char *root, const char *path, const char *s)
{
	tmp_root_write(root, path, s, strlen(s));
}

/* A devicetree property of n big-endian u32 cells. */
static inline void tmp_root_write_cells(const char *root, const char *path, size_t n, ...)
{
	uint8_t buf[256];
	va_list ap;

	assert_true(n * 4 <= sizeof(buf));
	va_start(ap, n);
	for (size_t i = 0; i < n; i++) {
		uint32_t v = va_arg(ap, uint32_t);
		buf[4 * i] = (uint8_t)(v >> 24);
		buf[4 * i + 1] = (uint8_t)(v >> 16);
		buf[4 * i + 2] = (uint8_t)(v >> 8);
		buf[4 * i + 3] = (uint8_t)v;
	}
	va_end(ap);
	tmp_root_write(root, path, buf, n * 4);
}

static inline int tmp_root_rm_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

static inline void tmp_root_free(char *root)
{
	if (!root)
		return;
	assert_int_equal(nftw(root, tmp_root_rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
	free(root);
}
