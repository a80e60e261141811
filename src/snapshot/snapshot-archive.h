/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A snapshot as one file to send: a capture directory packed as a tar
 * archive (gzip'd for .tar.gz), and such an archive unpacked again for
 * --sysroot. libarchive reads and writes the format; every file of an
 * unpacked archive is written by the capture's confined writer (capture.c),
 * so no entry, link or "..", lands outside the directory it is unpacked in.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "shared/macro.h"

enum snapshot_archive {
	SNAPSHOT_DIR,    /* not an archive name: a directory */
	SNAPSHOT_TAR,    /* NAME.tar */
	SNAPSHOT_TAR_GZ, /* NAME.tar.gz, NAME.tgz */
	SNAPSHOT_UNWRITTEN, /* another archive's name (.tar.xz, .tar.zst, .zip...): refused */
	SNAPSHOT_SLASHED,   /* an archive's name with a trailing '/': a file or a directory? refused */
};

/* What a --capture argument names, by its suffix, in any case (B.TAR.GZ is an archive). */
enum snapshot_archive snapshot_archive_kind(const char *name);

/*
 * The archive's top directory for FILE: its base name without the suffix
 * ("host1" for /tmp/host1.tar.gz or /tmp/host1.TGZ), or "snapshot" when that leaves nothing
 * usable. Newly allocated, or NULL.
 */
char *snapshot_archive_top(const char *file);

/*
 * Pack the directory dir_fd (a finished capture) into out_fd, every entry
 * under top/, in name order, dated when, owned by 0:0: the same capture
 * packs to the same bytes. 0, or -errno with *ret_err saying what failed.
 */
_must_check_ int snapshot_pack(int dir_fd, const char *top, enum snapshot_archive kind, int64_t when,
			       int out_fd, char **ret_err);

/*
 * Bounds on what an archive may unpack to: past them it is refused, as a
 * decompression bomb or a tree no capture writes. A capture never holds a
 * file longer than the longest read (16 MiB, the kernel log).
 */
#define SNAPSHOT_ENTRIES_MAX (4u << 20)
#define SNAPSHOT_BYTES_MAX (2ull << 30)
#define SNAPSHOT_ENTRY_BYTES_MAX (64u << 20)
/* the whole unpack, wall clock: a real capture unpacks in well under a second */
#define SNAPSHOT_UNPACK_MS_MAX (60u * 1000)

struct snapshot_limits {
	uint64_t entries, bytes, entry_bytes;
	uint64_t ms; /* checked before each entry */
};

/*
 * Unpack the tar(.gz) file at path into the empty directory dest: regular
 * files, directories and symbolic links only, each path relative and free
 * of "..", within lim (NULL: the defaults above). 0, or -errno with
 * *ret_err a one-line reason (EINVAL: not a tar archive, or an entry
 * refused; EFBIG: past a limit; ETIMEDOUT: past the time limit; EIO:
 * corrupt or truncated).
 */
_must_check_ int snapshot_unpack(const char *path, const char *dest, const struct snapshot_limits *lim,
				 char **ret_err);
