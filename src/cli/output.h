/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Where the report goes: standard output, or --output-file PATH through a
 * temporary file in PATH's directory renamed over it once complete (the
 * Prometheus textfile contract: a scrape never reads half a report).
 *
 * The renderers write to a stream that keeps the errno of the first failed
 * write(2): a full disk is ENOSPC in every format, whatever the renderer
 * (or json-c, or libsmartcols) made of it. While the temporary exists,
 * SIGINT, SIGTERM and SIGHUP remove it before they end the process.
 *
 * Functions return 0 or -errno.
 */
#pragma once

#include "shared/macro.h"

#include <stdbool.h>
#include <stdio.h>

enum {
	/* SIGSTOP itself once the temporary is written, before the rename: tests time a signal */
	OUTPUT_TEST_STOP = 1 << 0,
};

struct output;

/*
 * path NULL or "-": standard output. Else an existing path must be a regular
 * file; it is only lstat()ed, never opened or followed (a FIFO does not block).
 * Anything else is refused before a byte is written: -EEXIST, and *ret_kind
 * (set only then) says what it is: "a symbolic link", "a FIFO"... Nothing is
 * created yet: the audit runs in between.
 */
_must_check_ int output_open(const char *path, unsigned flags, struct output **ret, const char **ret_kind);

/*
 * The stream to render into (owned by o). For a file, path is checked again
 * (-EEXIST and *ret_kind as above) and the temporary created beside it.
 */
_must_check_ int output_start(struct output *o, FILE **ret, const char **ret_kind);

/*
 * What the file being replaced holds now, at most max bytes (a failed run's
 * Prometheus textfile keeps the last report's metrics). Only a regular file,
 * opened without following a link and without blocking. 0 and *ret (NUL
 * ended, *ret_len bytes); -ENOENT for standard output or no file; -EFBIG;
 * -errno.
 */
_must_check_ int output_previous(const struct output *o, size_t max, char **ret, size_t *ret_len);

/* The report goes to a terminal (standard output is one): its width, colour "auto". */
bool output_is_terminal(const struct output *o);

/*
 * After output_start(); render: what the renderer returned. A failed render is never committed.
 * Flush, then for a file give it its mode, sync and rename it into place.
 * Returns the first failed write's -errno, else render's error, else the
 * flush's, sync's or rename's; on any failure the temporary is removed.
 * Frees o.
 */
_must_check_ int output_finish(struct output *o, int render);

/* A report abandoned before output_finish(): the temporary is removed. NULL is fine. */
void output_free(struct output *o);
