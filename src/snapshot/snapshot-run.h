/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A run whose snapshot is one archive: --sysroot FILE.tar[.gz] is unpacked
 * into a private directory and audited there; --capture FILE.tar[.gz]
 * captures into a private directory beside FILE, packed and renamed into
 * place at the end. scratch.c removes both when the run ends.
 */
#pragma once

#include <stdbool.h>

#include "shared/macro.h"

#include "snapshot/scratch.h"
#include "snapshot/snapshot-archive.h"

struct snapshot_run {
	struct scratch scratch;
	const char *sysroot_dir; /* where to audit: the argument, or the unpacked archive */
	const char *capture_dir; /* where to capture: the argument, or a private directory */
	char *sysroot_buf, *capture_buf;
	char *archive_tmp;                  /* the archive until renamed, beside the capture */
	enum snapshot_archive capture_kind; /* SNAPSHOT_DIR: --capture is a directory */
	const char *capture_file;           /* the archive to write */
};

/*
 * Set run up for --sysroot sysroot and --capture capture (NULL: none); an
 * archive is unpacked within lim (NULL: snapshot_unpack()'s defaults).
 * Archives make it fork (scratch_supervise()): the caller goes on in the
 * child. 0, or -errno once the error is printed (one line).
 */
_must_check_ int snapshot_run_begin(struct snapshot_run *run, const char *sysroot, const char *capture,
				    const struct snapshot_limits *lim);

/*
 * After the capture's MANIFEST is written (complete or not): pack it into
 * the archive and rename that into place, never over an existing file.
 * 0 when there is nothing to pack; -errno once the error is printed.
 */
_must_check_ int snapshot_run_pack(struct snapshot_run *run);

void snapshot_run_done(struct snapshot_run *run);
