/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a file named where a snapshot or a report is expected holds, from
 * its first bytes: an archive (left to libarchive), or one of this tool's
 * outputs or plain text given to the wrong option, so the error can say
 * which option takes it instead of "not a tar archive".
 */
#pragma once

#include "shared/macro.h"

enum file_kind {
	FILE_KIND_ARCHIVE,     /* tar, or gzip, xz, bzip2, zstd */
	FILE_KIND_REPORT,      /* --json */
	FILE_KIND_DIFF_REPORT, /* --diff --json */
	FILE_KIND_NDJSON,      /* --format ndjson */
	FILE_KIND_JSON,        /* other JSON (-J -o, another tool's) */
	FILE_KIND_TEXT_REPORT, /* the text report */
	FILE_KIND_PROMETHEUS,  /* --format prometheus */
	FILE_KIND_TEXT,        /* any other text */
	FILE_KIND_UNKNOWN,     /* other bytes, or none: libarchive says what it makes of them */
	_FILE_KIND_MAX,
};

/* The kind of the regular file fd, from its first 4 KiB (pread: the offset stays). 0 or -errno. */
_must_check_ int file_kind_sniff(int fd, enum file_kind *ret) _nonnull_all_;

/* "a dmamask-audit JSON report", "text"...: what the file is, for an error line. */
const char *file_kind_to_string(enum file_kind k);
