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

/* Each returns 0, or -errno when out could not be written. */
_must_check_ int diff_render_text(FILE *out, const struct report_diff *d, const struct diff_side *old,
				  const struct diff_side *new, enum severity fail_on, bool bytes) _nonnull_all_;
_must_check_ int diff_render_json(FILE *out, const struct report_diff *d, const struct diff_side *old,
				  const struct diff_side *new, enum severity fail_on) _nonnull_all_;
