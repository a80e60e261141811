/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What sysroot.c and sysroot-dir.c share; nothing outside them includes it. */
#pragma once

#include <stdbool.h>
#include <sys/stat.h>

#include "shared/strmap.h"
#include "sysroot/sysroot.h"

/* What the filesystem a directory is on allows a read there to skip (sysroot-dir.c mount_traits()). */
struct mount_traits {
	bool nodev;           /* no device node can be opened there (a nodev mount, sysfs, procfs): one open */
	bool short_read_ends; /* nodev sysfs or tmpfs: a short read is the end of a file (read_leaf_nodev) */
};

/*
 * A top directory of the root (sys, proc), resolved once with what its mount
 * allows: a directory below it found without leaving that mount shares it.
 */
struct sysroot_anchor {
	char name[16];
	int fd; /* O_PATH, or -errno when it could not be resolved */
	struct mount_traits traits;
};

#define SYSROOT_ANCHORS 4

struct sysroot {
	char *path;
	int root_fd; /* O_PATH|O_DIRECTORY on the root */
	bool live;
	bool use_openat2;
	bool trace;           /* DMAMASK_DEBUG=sysroot: one stderr line per access */
	struct strmap errors; /* MANIFEST error.<path>=ERRNO: path -> errno */
	const struct sysroot_tap *tap; /* told of every access (--capture); NULL otherwise */
	void *tap_data;
	struct sysroot_anchor anchors[SYSROOT_ANCHORS];
	size_t n_anchors;
	int exhausted;        /* the first EMFILE/ENFILE/ENOMEM any access met (-errno); 0 none */
	char *exhausted_path; /* where */
};

struct sysroot_dir {
	struct sysroot *sr;
	char *path;  /* root-relative, as asked, no leading or trailing '/': "" is the root */
	char *canon; /* with a tap: the directory with every link resolved */
	int fd;      /* O_PATH on the directory; -1 until resolved or when it failed */
	int err;     /* why it could not be resolved (-errno); 0 when fine or not tried yet */
	struct mount_traits traits;
};

/* The -errno a snapshot's MANIFEST recorded for path (error.<path>=), 0 when none. */
int sysroot_recorded_error(const struct sysroot *sr, const char *path);

/* An O_PATH fd for path inside the root; with a tap, its canonical path too. */
int sysroot_resolve(struct sysroot *sr, const char *path, bool follow_last, char **ret_canon);
/*
 * Resolve path under root_fd as openat2(RESOLVE_IN_ROOT) does, by hand:
 * absolute links restart at the root, ".." never climbs above it. An O_PATH
 * fd or -errno; follow_last=false leaves a final link unresolved (readlink).
 * Each link met is told to sr's tap (sr may be NULL); *ret_canon the path with
 * links resolved.
 */
int sysroot_walk(int root_fd, const char *path, bool follow_last, struct sysroot *sr,
		 char **ret_canon);

/* The same for a directory: -ENOTDIR for anything else. */
int sysroot_resolve_dir(struct sysroot *sr, const char *path, char **ret_canon);

/* DMAMASK_DEBUG=sysroot: "dmamask-audit: sysroot: OP DIR/NAME: RESULT (DETAIL)" on stderr. */
void sysroot_trace(const struct sysroot *sr, const char *op, const char *dir, const char *name,
		   int r, const char *detail);

/*
 * Where every public access ends: an absence the MANIFEST says was an error
 * becomes that error, the tap is told of the failure, the trace prints a line.
 * The path is dir/name (dir NULL: name alone); detail is the trace's
 * parenthesised suffix or NULL. Returns r, or what it became.
 */
int sysroot_finish(struct sysroot *sr, const char *op, const char *dir, const char *name, int r,
		   const char *detail);

/* The slow, careful accesses of a whole root-relative path (with a tap: *ret_canon too). */
int sysroot_read_careful(struct sysroot *sr, const char *path, size_t max, char **ret_buf,
			 size_t *ret_len, char **ret_canon);
int sysroot_readlink_careful(struct sysroot *sr, const char *path, char **ret, char **ret_canon);
int sysroot_stat_careful(struct sysroot *sr, const char *path, struct stat *ret, char **ret_canon);
/* List the directory open as O_PATH pfd; with a tap (canon set), tell it the listing. */
int sysroot_list_fd(struct sysroot *sr, int pfd, const char *canon, struct strv *ret);
/* What a successful stat tells the tap: a directory, or that a file exists. */
void sysroot_tap_stat(struct sysroot *sr, const char *canon, const struct stat *st);

/* The tap's callbacks, each a no-op without a tap or that callback. */
#define SYSROOT_TAP(sr, cb, ...) \
	do { \
		if ((sr)->tap && (sr)->tap->cb) \
			(sr)->tap->cb((sr)->tap_data, __VA_ARGS__); \
	} while (0)
