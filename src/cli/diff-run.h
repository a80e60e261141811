/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --diff OLD NEW: each side a JSON report (--json) or a snapshot, which is
 * audited first by this program run on it (--sysroot SIDE --json), so a
 * snapshot side is judged exactly as it would be alone.
 */
#pragma once

#include <stdbool.h>

#include "analysis/findings.h"
#include "cli/output.h"

struct diff_request {
	const char *old, *new;
	enum severity fail_on;
	bool json;             /* -J: the diff as JSON */
	bool bytes;            /* -b: exact sizes in the text */
	bool allow_incomplete; /* passed on to a snapshot's audit */
};

/* Compare, write to out (freed), and return the exit status: 0 same or better, 1 worse, 2 failed. */
int diff_run(const struct diff_request *q, struct output *out);
