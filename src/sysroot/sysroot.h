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
#include <stdint.h>
#include <sys/stat.h>

#include "shared/strv.h"

#include "shared/macro.h"

struct sysroot;

/* Default cap for one file: /proc/iomem of a big server is ~100 KiB. */
#define SYSROOT_READ_MAX (4u << 20)

enum sysroot_flags {
	SYSROOT_NO_OPENAT2 = 1 << 0, /* force the hand-written resolver (tests) */
};

/* A snapshot has one of these at its top; a tree with none is not one (main.c, snapshot-run.c). */
#define SYSROOT_SNAPSHOT_MARKS { "proc", "sys", "MANIFEST" }

/* -ENOTDIR when path is not a directory, -ENOENT when it does not exist. */
int sysroot_open(const char *path, unsigned flags, struct sysroot **ret);
void sysroot_free(struct sysroot *sr);

/* True when the root is the running system's "/". */
bool sysroot_is_live(const struct sysroot *sr);
/*
 * The first access that ran out of descriptors or memory (EMFILE, ENFILE,
 * ENOMEM, ENOBUFS), as -errno, and its path; 0 when none did. Readers record
 * such a failure as they record any other; the caller must not report on it.
 */
int sysroot_exhausted(const struct sysroot *sr, const char **ret_path);
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

/*
 * As sysroot_read_file() and sysroot_read_records(), for a reader that
 * tells the tap only what it used (the kernel log records it parsed, the
 * names pci.ids gave): with a tap, it is told nothing now, and *ret_canon
 * (newly allocated) is the path sysroot_tap_record() then records; NULL
 * when there is no tap.
 */
int sysroot_read_file_deferred(struct sysroot *sr, const char *path, size_t max, char **ret_buf,
			       size_t *ret_len, char **ret_canon);
int sysroot_read_records_deferred(struct sysroot *sr, const char *path, size_t max, char **ret_buf,
				  size_t *ret_len, char **ret_canon);
/*
 * What the tap records for a deferred read at canon: used, what the reader
 * used, and whole, all it read (NULL: streamed, never held whole). The tap
 * decides which it keeps (--capture-full-log keeps the whole log).
 */
void sysroot_tap_record(struct sysroot *sr, const char *canon, const char *used, size_t used_len,
			const char *whole, size_t whole_len);

/*
 * As sysroot_read_file_deferred(), for a long file scanned once (pci.ids): it
 * is read in pieces through one reused buffer and never held whole. eat()
 * gets the bytes it has not used yet (what it left last time, then what was
 * read after it; last once the file's end is in) and returns how many it
 * used from the front, all of them when last, or a negative errno that
 * ends the read and is returned. What it leaves must be under
 * SYSROOT_STREAM_KEEP bytes (-ENOBUFS otherwise). A file longer than max
 * is -EFBIG before eat() sees any of it. The tap is told nothing now:
 * *ret_canon (NULL without a tap; set too when eat() failed, the read
 * having succeeded) is where the reader records what it used.
 */
#define SYSROOT_STREAM_KEEP 16384
typedef ssize_t (*sysroot_eat_t)(const char *buf, size_t len, bool last, void *userdata);
int sysroot_read_stream_deferred(struct sysroot *sr, const char *path, size_t max, sysroot_eat_t eat,
				 void *userdata, size_t *ret_len, char **ret_canon);

/* The target of the symlink at path (the last component is not followed). */
int sysroot_readlink(struct sysroot *sr, const char *path, char **ret);

/* Sorted names in a directory, without "." and "..". */
int sysroot_list_dir(struct sysroot *sr, const char *path, struct strv *ret);

/* stat() of path, following symlinks inside the root. */
int sysroot_stat(struct sysroot *sr, const char *path, struct stat *ret);

/*
 * path with every symlink resolved inside the root, as a root-relative path
 * ("" for the root itself): what a library that opens paths on its own can
 * be given, prefixed with sysroot_path(). -ENOENT, -ELOOP (more than 40
 * links), ... as any read.
 */
int sysroot_realpath(struct sysroot *sr, const char *path, char **ret);

/*
 * Pure: the root-relative path a symlink at link_path with this target
 * names, resolved lexically: a relative target from the link's directory, an
 * absolute one from the root; "." and empty components vanish, ".." drops
 * the previous one (never above the root). link_path's directories must hold
 * no symlink (a device's syspath, not its bus link). Returns 0, -EINVAL for
 * an empty target, -ENOMEM.
 */
int sysroot_link_resolve(const char *link_path, const char *target, char **ret);

/*
 * A tap on the layer, as util-linux extends its path context by hooks: told,
 * as each access happens, of every file, link and directory it used, at
 * its canonical path (every link resolved, root-relative), and of every
 * read that failed, at the path asked. --capture is one (capture.c). Any
 * callback may be NULL; data is theirs.
 */
struct sysroot_tap {
	void (*file)(void *data, const char *canon, const char *buf, size_t len);
	void (*link)(void *data, const char *canon, const char *target);
	void (*dir)(void *data, const char *canon);
	void (*placeholder)(void *data, const char *canon); /* it exists; its contents were not read */
	void (*error)(void *data, const char *path, int err);
	/* a deferred read's record (sysroot_tap_record()) */
	void (*record)(void *data, const char *canon, const char *used, size_t used_len,
		       const char *whole, size_t whole_len);
};

/*
 * Tell tap of every access from now on (NULL: none). Switches to the
 * hand-written resolver, which sees every symlink it crosses.
 */
int sysroot_set_tap(struct sysroot *sr, const struct sysroot_tap *tap, void *data);

/*
 * A snapshot's MANIFEST may record that a read failed at capture time
 * (error.<path>=EACCES). Reads of such a path that find nothing then report
 * the recorded error, so a replay tells "denied" from "absent" as live did.
 */
int sysroot_add_recorded_error(struct sysroot *sr, const char *path, int err);

/*
 * A directory handle, as util-linux's struct path_cxt: a reader opens the
 * directory of the device it reads once and reads each attribute relative
 * to it. Every access still goes through the root's confinement, the
 * capture and the MANIFEST's recorded errors, and is reported under its
 * whole path (dir/name) as if it had been read by path.
 *
 * A name is normally one component ("dma_mask_bits"); one with '/', "." or
 * ".." in it is resolved from the root as dir/name, so it cannot leave the
 * root either. Paths are printf-style and root-relative; one longer than
 * PATH_MAX gives -ENAMETOOLONG.
 */
struct sysroot_dir;

/* Resolve the directory now: -ENOENT, -ENOTDIR, -ELOOP, -EACCES... when it cannot be. */
int sysroot_dir_open(struct sysroot *sr, struct sysroot_dir **ret, const char *fmt, ...)
	_printf_(3, 4);
/* The same, the path relative to parent's. */
int sysroot_dir_open_at(struct sysroot_dir *parent, struct sysroot_dir **ret, const char *fmt, ...)
	_printf_(3, 4);
/*
 * A handle resolved on its first read, as ul_new_path() is: only -ENOMEM
 * here; a directory that cannot be resolved (or named: too long) fails each
 * read through it, under that read's path, as reading dir/name by path would.
 */
int sysroot_dir_new(struct sysroot *sr, struct sysroot_dir **ret, const char *fmt, ...)
	_printf_(3, 4);
int sysroot_dir_new_at(struct sysroot_dir *parent, struct sysroot_dir **ret, const char *fmt, ...)
	_printf_(3, 4);
/* NULL is fine. */
void sysroot_dir_free(struct sysroot_dir *dir);
static inline void sysroot_dir_freep(struct sysroot_dir **dir)
{
	sysroot_dir_free(*dir);
}
#define _cleanup_sysroot_dir_ _cleanup_(sysroot_dir_freep)

/* The root-relative path the handle was opened with ("" for the root). */
const char *sysroot_dir_path(const struct sysroot_dir *dir);

/* As sysroot_read_file(), sysroot_readlink(), sysroot_stat() of dir/name. */
int sysroot_dir_read_file(struct sysroot_dir *dir, const char *name, size_t max, char **ret_buf,
			  size_t *ret_len);
int sysroot_dir_readlink(struct sysroot_dir *dir, const char *name, char **ret);
int sysroot_dir_stat(struct sysroot_dir *dir, const char *name, struct stat *ret);
/* As sysroot_list_dir() of the directory itself. */
int sysroot_dir_list(struct sysroot_dir *dir, struct strv *ret);

/* An attribute is at most a page (fs/sysfs/file.c), 64 KiB pages included. */
#define SYSROOT_ATTR_MAX 65536

/*
 * A one-line printable attribute (at most SYSROOT_ATTR_MAX bytes), its
 * trailing newline removed. -EBADMSG when it is empty or holds anything but
 * printable ASCII; read errors as sysroot_dir_read_file().
 */
int sysroot_dir_read_string(struct sysroot_dir *dir, const char *name, char **ret);
/*
 * A number attribute (see parse_int_line() in shared/text.h). -EBADMSG when
 * it is not a number in base, -ERANGE outside [min, max]; read errors as
 * sysroot_dir_read_file().
 */
int sysroot_dir_read_int(struct sysroot_dir *dir, const char *name, unsigned base, int64_t min,
			 int64_t max, int64_t *ret);
/*
 * The root-relative path the symlink dir/name names, resolved lexically from
 * the handle's path (see sysroot_link_resolve()): -EINVAL when it is not a
 * link or its target is empty; read errors as sysroot_dir_readlink().
 */
int sysroot_dir_follow(struct sysroot_dir *dir, const char *name, char **ret);
