/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The one builder of fake sysroot trees in C, for the unit tests: a mkdtemp
 * directory filled with files of exact bytes, symbolic links as sysfs makes
 * them and big-endian devicetree cells, removed at the end. tmp_root_*
 * works on a root path; struct fake_root (the device readers' tests) wraps
 * the same calls and adds assertions on the inputs a read recorded.
 * Include after cmocka.h.
 */
#pragma once

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "machine.h"
#include "sysroot/sysroot.h"

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

/* root/path, a symbolic link to target (as given: sysfs's are relative); parents created. */
static inline void tmp_root_link(const char *root, const char *path, const char *target)
{
	char full[4096];
	snprintf(full, sizeof(full), "%s/%s", root, path);
	char *slash = strrchr(full, '/');
	*slash = '\0';
	if (strlen(full) > strlen(root))
		tmp_root_mkdir(root, full + strlen(root) + 1);
	*slash = '/';
	assert_int_equal(symlink(target, full), 0);
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

/* ---- the device readers' fixture: one root, the same builder ---- */

struct fake_root {
	char root[64];
};

static inline void fx_init(struct fake_root *f)
{
	char *root = tmp_root_new();
	assert_true(strlen(root) < sizeof(f->root));
	snprintf(f->root, sizeof(f->root), "%s", root);
	free(root);
}

static inline void fx_dir(const struct fake_root *f, const char *path)
{
	tmp_root_mkdir(f->root, path);
}

static inline void fx_file_n(const struct fake_root *f, const char *path, const void *buf, size_t len)
{
	tmp_root_write(f->root, path, buf, len);
}

static inline void fx_file(const struct fake_root *f, const char *path, const char *text)
{
	tmp_root_write_str(f->root, path, text);
}

static inline void fx_link(const struct fake_root *f, const char *path, const char *target)
{
	tmp_root_link(f->root, path, target);
}

static inline void fx_done(struct fake_root *f)
{
	assert_int_equal(nftw(f->root, tmp_root_rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
}

static inline struct sysroot *fx_open(const struct fake_root *f)
{
	struct sysroot *sr = NULL;

	assert_int_equal(sysroot_open(f->root, 0, &sr), 0);
	return sr;
}

/* The last input recorded for path, or NULL. */
static inline const struct input *fx_input(const struct machine *m, const char *path)
{
	for (size_t i = m->n_inputs; i > 0; i--)
		if (strcmp(m->inputs[i - 1].path, path) == 0)
			return &m->inputs[i - 1];
	return NULL;
}

/* The detail of the last input recorded for path, or NULL. */
static inline const char *fx_detail(const struct machine *m, const char *path)
{
	const struct input *in = fx_input(m, path);

	return in ? in->detail : NULL;
}

static inline void fx_assert_input(const struct machine *m, const char *path, enum input_status s)
{
	const struct input *in = fx_input(m, path);

	if (!in) {
		fail_msg("no input recorded for %s", path);
		return;
	}
	assert_string_equal(input_status_to_string(in->status), input_status_to_string(s));
}

static inline void fx_assert_str(const char *got, const char *want)
{
	if (!want)
		assert_null(got);
	else {
		assert_non_null(got);
		assert_string_equal(got, want);
	}
}
