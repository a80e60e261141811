/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --what-if KEY=VALUE...: one machine judged today and after the changes,
 * compared as --diff compares (src/what-if edits the machine, src/diff
 * compares and renders); --what-if --diff --fleet SNAPSHOT...: each snapshot
 * so, the changes grouped across hosts as --diff --fleet groups them.
 */
#pragma once

#include <json-c/json.h>

#include "cli/options.h"
#include "cli/output.h"
#include "diff/diff-render.h"
#include "machine.h"
#include "what-if/what-if.h"

/* One machine's two judgements, parsed JSON reports, and what the changes assumed. */
struct what_if_judged {
	json_object *today, *after;
	int today_status, after_status;
	struct what_if_notes notes;
	struct diff_note *note_view;  /* notes as the renderer reads them */
	const char **changes;
};

/* m judged, changed (m becomes the machine after), judged again. 0, or -errno (said on stderr). */
_must_check_ int what_if_judge(struct options *o, struct machine *m, struct what_if_judged *ret) _nonnull_all_;
void what_if_judged_done(struct what_if_judged *j);
/* j's notes as the diff renderers take them (pointing into j). 0 or -ENOMEM. */
_must_check_ int what_if_view(const struct options *o, struct what_if_judged *j, struct diff_what_if *ret) _nonnull_all_;

/* The comparison written to out (freed): 0 nothing worse, 1 worse at or above --fail-on, 2 failed. */
int what_if_run(struct options *o, struct machine *m, struct output *out);

/* --what-if --diff --fleet SNAPSHOT...: written to out (freed); 0, 1 when a host got worse, 2 failed. */
int what_if_fleet_run(struct options *o, struct output *out);
