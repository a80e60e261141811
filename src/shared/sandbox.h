/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A sandbox for a library that opens files by path (libkmod): a private
 * directory (mkdtemp under $TMPDIR or /tmp, mode 0700) holding only copies
 * of what the sysroot layer read, and a child process with limits, confined
 * to that directory, that runs the library. The directory is removed by
 * sandbox_free(), and by SIGINT, SIGTERM, SIGHUP or SIGQUIT while it exists.
 *
 * All functions return 0 or a negative errno unless they say otherwise;
 * ret_* outputs are untouched on failure.
 */
#pragma once

#include "shared/macro.h"

#include <stdio.h>
#include <stddef.h>

struct sandbox;

/* Ways of confining the child, strongest first; sandbox_confine() applies what it can. */
enum sandbox_confinement {
	SANDBOX_CHROOT = 1 << 0,   /* chroot(2) into the directory: as root, or in a new user namespace */
	SANDBOX_LANDLOCK = 1 << 1, /* Landlock (5.13+): nothing outside the directory opens */
	SANDBOX_ALL = SANDBOX_CHROOT | SANDBOX_LANDLOCK,
};

/* The files one sandbox can hold (the signal handler needs a fixed table). */
#define SANDBOX_FILES_MAX 16
#define SANDBOX_NAME_MAX 64

_must_check_ int sandbox_new(struct sandbox **ret);
/* Remove the directory and everything in it. Accepts NULL. */
void sandbox_free(struct sandbox *sb);
static inline void sandbox_freep(struct sandbox **sb)
{
	sandbox_free(*sb);
}
const char *sandbox_path(const struct sandbox *sb);

/*
 * Write a copy of buf as the directory's file name (a plain name, no '/'):
 * -EEXIST when already there, -ENOSPC when the table is full.
 */
_must_check_ int sandbox_add_file(struct sandbox *sb, const char *name, const void *buf, size_t len);

/*
 * In a child only: confine this process to the directory with the methods
 * in `methods` that work here (chroot needs root or user namespaces,
 * Landlock a 5.13+ kernel). Returns the sandbox_confinement bits applied,
 * 0 when none could be; *ret_dir is the directory's path as the process
 * now sees it ("/" after a chroot).
 */
unsigned sandbox_confine(struct sandbox *sb, unsigned methods, const char **ret_dir);

struct sandbox_limits {
	unsigned seconds;  /* CPU and wall clock */
	size_t memory;     /* address space; ignored under ASan (it reserves terabytes) */
	size_t max_output; /* what the child may write; more and it is killed */
};

/* Runs in the child: dir is the directory as the child sees it. 0 or -errno. */
typedef int (*sandbox_fn)(const char *dir, FILE *out, void *data);

/*
 * Run fn in a child confined with sandbox_confine(SANDBOX_ALL), with no core
 * file, no file writes and the given limits; what it writes to out comes
 * back NUL-terminated in *ret_out. 1 when the child exited 0 in time, 0 when
 * it failed, crashed, was killed or overran a limit (*ret_out untouched),
 * -errno when it could not run.
 */
_must_check_ int sandbox_run(struct sandbox *sb, const struct sandbox_limits *limits, sandbox_fn fn,
		void *data, char **ret_out, size_t *ret_len);
