/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --diff's output: a text summary to read, or JSON (diff schema 1) to store. */
#pragma once

#include "shared/macro.h"

#include <stdbool.h>
#include <stdio.h>

#include "diff/report-diff.h"

struct diff_side {
	const char *name;  /* as given on the command line */
	json_object *doc;
	bool snapshot;     /* audited by this run: its time is the MANIFEST's captured_at */
};

/* One thing --what-if assumed, about a device (NULL: the machine). */
struct diff_note {
	const char *device;
	const char *text;
};

/* --what-if: the two sides are one machine today and after the changes applied. */
struct diff_what_if {
	const char *const *changes; /* as given: "kernel=6.12.57" */
	size_t n_changes;
	const char *const *applied; /* each in words: "kernel 6.1.0-28-amd64 -> 6.12.57" */
	size_t n_applied;
	const struct diff_note *assumptions;
	size_t n_assumptions;
};

/* Each returns 0, or -errno when out could not be written; wi NULL for --diff. */
_must_check_ int diff_render_text(FILE *out, const struct report_diff *d, const struct diff_side *old,
				  const struct diff_side *new, enum severity fail_on, bool bytes,
				  const struct diff_what_if *wi) _nonnull_(1, 2, 3, 4);
_must_check_ int diff_render_json(FILE *out, const struct report_diff *d, const struct diff_side *old,
				  const struct diff_side *new, enum severity fail_on,
				  const struct diff_what_if *wi) _nonnull_(1, 2, 3, 4);
