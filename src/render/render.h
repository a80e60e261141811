/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Renderers print a report; they never compute. One file per format. */
#pragma once

#include "shared/macro.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/explain.h"
#include "analysis/model.h"
#include "machine.h"

struct column;

struct render_options {
	const size_t *columns;  /* -o: indexes into columns_all(); NULL: the defaults */
	size_t n_columns;
	const struct column *sort; /* -x: devices ordered by this column; NULL: as analysed */
	bool raw;               /* tables without alignment, for scripts */
	bool pairs;             /* -P: the device table as KEY="value" pairs */
	bool noheadings;
	bool bytes;             /* -b: sizes in bytes, not 21 GiB */
	bool verbose;           /* -v: ranges, zones, every absent input */
	int color;              /* 0 or 1 when rendering (main.c decides auto: -1) */
	bool terminal;          /* the report goes to standard output, a terminal */
	unsigned width;         /* set by render_text: columns to fit, 0 for none (a pipe) */
	const char *const *argv; /* the command line, for JSON's invocation; NULL unknown */
	int argc;
};

/* Each returns 0, or -errno when the output could not be written. */
_must_check_ int render_text(FILE *out, const struct machine *m, const struct report *r,
		const struct render_options *o);
/* o may be NULL (no invocation known). */
_must_check_ int render_json(FILE *out, const struct machine *m, const struct report *r,
			     const struct render_options *o) _nonnull_(1, 2, 3);
/* JSON lines: a record per device, then the machine's; o may be NULL. */
_must_check_ int render_ndjson(FILE *out, const struct machine *m, const struct report *r,
			       const struct render_options *o) _nonnull_(1, 2, 3);
/* --explain DEVICE: e's steps (explain_build) as text, or as one JSON document (definitions/explain). */
_must_check_ int render_explain_text(FILE *out, const struct machine *m, const struct report *rep,
				     const struct explain *e, const struct render_options *o) _nonnull_all_;
_must_check_ int render_explain_json(FILE *out, const struct machine *m, const struct report *rep,
				     const struct explain *e) _nonnull_all_;
/* Prometheus text exposition format (node_exporter textfile collector). */
_must_check_ int render_prometheus(FILE *out, const struct machine *m, const struct report *r) _nonnull_all_;
/*
 * A run that failed before its report: exit status 2, dmamask_last_run_success 0, now.
 * A failed run's textfile: dmamask_last_run_success 0, exit status 2 and
 * dmamask_last_run_failure_info{reason}, after the metrics of previous (the
 * file being replaced, len bytes, NULL for none) when it is one this renderer
 * wrote: the last report stands, dated by dmamask_report_timestamp_seconds,
 * so an alert on it neither resolves nor fires anew while runs fail. reason:
 * "sysroot", "not-a-snapshot", "observe", "capture", "assume-mask",
 * "selection", "analysis" or "out-of-memory"; anything else, NULL included,
 * is exported as "unknown".
 */
_must_check_ int render_prometheus_failure(FILE *out, struct opt_i64 now, const char *reason, const char *previous,
					   size_t len) _nonnull_(1);
