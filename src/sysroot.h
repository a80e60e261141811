/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The sysroot layer: the only code in dmamask-audit that touches the
 * filesystem. Every path is relative to the root ("proc/iomem") and is
 * resolved as if the root were "/": openat2(RESOLVE_IN_ROOT) where the kernel
 * has it (5.6+), else a hand-written walk with the same semantics. No symlink,
 * absolute or "../..", can lead a read outside the root.
 *
 * All functions return 0 or a negative errno; ret_* outputs are untouched on
 * failure.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

struct sysroot;

/* Default cap for one file: /proc/iomem of a big server is ~100 KiB. */
#define SYSROOT_READ_MAX (4u << 20)

enum sysroot_flags {
	SYSROOT_NO_OPENAT2 = 1 << 0, /* force the hand-written resolver (tests) */
};

/* -ENOTDIR when path is not a directory, -ENOENT when it does not exist. */
int sysroot_open(const char *path, unsigned flags, struct sysroot **ret);
void sysroot_free(struct sysroot *sr);

/* True when the root is the running system's "/". */
bool sysroot_is_live(const struct sysroot *sr);
const char *sysroot_path(const struct sysroot *sr);
/* Which resolver is in use: "openat2" or "walk". */
const char *sysroot_resolver(const struct sysroot *sr);

/*
 * Read a whole regular file, NUL-terminated. FIFOs, sockets and device nodes
 * are refused with -EINVAL without being opened for reading; a file longer
 * than max gives -EFBIG.
 */
int sysroot_read_file(struct sysroot *sr, const char *path, size_t max, char **ret_buf,
		      size_t *ret_len);

/*
 * Read a record-oriented kernel file: a regular file as sysroot_read_file()
 * does, or, on a live root only, a character device such as dev/kmsg, read
 * without blocking one record per read() until none is left. Records lost
 * to a ring-buffer overrun (EPIPE) are skipped.
 */
int sysroot_read_records(struct sysroot *sr, const char *path, size_t max, char **ret_buf,
			 size_t *ret_len);

/* The target of the symlink at path (the last component is not followed). */
int sysroot_readlink(struct sysroot *sr, const char *path, char **ret);

/* Sorted names in a directory, without "." and "..". */
int sysroot_list_dir(struct sysroot *sr, const char *path, char ***ret_names, size_t *ret_n);
void sysroot_free_names(char **names, size_t n);

/* stat() of path, following symlinks inside the root. */
int sysroot_stat(struct sysroot *sr, const char *path, struct stat *ret);

struct capture;
/*
 * Copy everything read from now on into cap (see capture.h). Switches to the
 * hand-written resolver, which sees every symlink it crosses.
 */
int sysroot_set_capture(struct sysroot *sr, struct capture *cap);

/*
 * A snapshot's MANIFEST may record that a read failed at capture time
 * (error.<path>=EACCES). Reads of such a path that find nothing then report
 * the recorded error, so a replay tells "denied" from "absent" as live did.
 */
int sysroot_add_recorded_error(struct sysroot *sr, const char *path, int err);
