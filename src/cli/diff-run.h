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
#include "shared/macro.h"

#include <json-c/json.h>

struct diff_request {
	const char *old, *new;
	enum severity fail_on;
	bool json;             /* -J: the diff as JSON */
	bool bytes;            /* -b: exact sizes in the text */
	bool allow_incomplete; /* passed on to a snapshot's audit */
	const char *const *paths; /* --fleet: the reports and directories given */
	size_t n_paths;
};

/* Compare, write to out (freed), and return the exit status: 0 same or better, 1 worse, 2 failed. */
int diff_run(const struct diff_request *q, struct output *out);

/*
 * --fleet: every report of q->paths, grouped by host.hostname; each host's
 * first report (by captured_at, else generated_at) compared with its last,
 * the changes grouped across hosts. A report that cannot be read, or paired,
 * is listed as skipped. Exit status as diff_run(), 1 when a host got worse;
 * 2 when no report could be read, or a PATH is neither a file nor a
 * directory, or a directory holds no *.json.
 */
int fleet_run(const struct diff_request *q, struct output *out);

#define DIFF_WHY_MAX 256

/*
 * The JSON report in the regular file path, parsed and checked as --diff
 * checks a side. 0, or -errno with why (DIFF_WHY_MAX bytes) saying what it
 * is instead, in one line.
 */
_must_check_ int diff_read_report(const char *path, json_object **ret, char *why) _nonnull_all_;

/*
 * buf (len bytes) as one JSON report --diff can rank: 0 and *ret, or -EINVAL
 * with why (DIFF_WHY_MAX) and *ret_unranked when a value cannot be ranked.
 */
_must_check_ int diff_parse_report(const char *buf, size_t len, json_object **ret, char *why,
				   bool *ret_unranked) _nonnull_all_;
