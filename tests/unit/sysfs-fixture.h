/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Fake sysroot trees for the device reader tests: built in a mkdtemp
 * directory with the same symlinks the kernel makes, removed afterwards.
 * Include after <cmocka.h>.
 */
#pragma once

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "machine.h"
#include "sysroot/sysroot.h"

struct fixture {
	char root[64];
};

static inline void fx_init(struct fixture *f)
{
	snprintf(f->root, sizeof(f->root), "/tmp/dmamask-unit-XXXXXX");
	assert_non_null(mkdtemp(f->root));
}

static inline void fx_mkdir_p(const char *path)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			assert_true(mkdir(buf, 0755) == 0 || errno == EEXIST);
			*p = '/';
		}
	assert_true(mkdir(buf, 0755) == 0 || errno == EEXIST);
}

/* root/path, with path's parent directories created. */
static inline void fx_prepare(const struct fixture *f, const char *path, char *full, size_t size)
{
	snprintf(full, size, "%s/%s", f->root, path);
	char *slash = strrchr(full, '/');
	*slash = '\0';
	fx_mkdir_p(full);
	*slash = '/';
}

static inline void fx_dir(const struct fixture *f, const char *path)
{
	char full[PATH_MAX];

	snprintf(full, sizeof(full), "%s/%s", f->root, path);
	fx_mkdir_p(full);
}

static inline void fx_file_n(const struct fixture *f, const char *path, const void *buf, size_t len)
{
	char full[PATH_MAX];

	fx_prepare(f, path, full, sizeof(full));
	FILE *fp = fopen(full, "w");
	assert_non_null(fp);
	assert_int_equal(fwrite(buf, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
}

static inline void fx_file(const struct fixture *f, const char *path, const char *text)
{
	fx_file_n(f, path, text, strlen(text));
}

static inline void fx_link(const struct fixture *f, const char *path, const char *target)
{
	char full[PATH_MAX];

	fx_prepare(f, path, full, sizeof(full));
	assert_int_equal(symlink(target, full), 0);
}

static inline int fx_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static inline void fx_done(struct fixture *f)
{
	assert_int_equal(nftw(f->root, fx_rm, 16, FTW_DEPTH | FTW_PHYS), 0);
}

static inline struct sysroot *fx_open(const struct fixture *f)
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
