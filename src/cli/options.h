/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The command line: one struct options filled by argp, a root parser
 * (options.c: the mode, DEVICE..., --fail-on and the checks across groups)
 * with a child per concern: output (options-output.c), snapshot and
 * capture (options-snapshot.c), observation (options-observe.c) and the
 * devices audited (options-selection.c). A child only fills its fields;
 * what two groups must agree on is checked once, in the root's
 * ARGP_KEY_END.
 */
#pragma once

#include <argp.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/model.h"
#include "analysis/findings.h"
#include "render/render.h"
#include "what-if/what-if.h"

enum format {
	FORMAT_TEXT,
	FORMAT_JSON,
	FORMAT_PROMETHEUS,
	FORMAT_NDJSON,
	_FORMAT_MAX,
	_FORMAT_INVALID = -EINVAL,
};

#define MAX_ASSUMED_MASKS 64
#define MAX_COLUMNS 32
#define MAX_WHAT_IF 32

struct options {
	/* options-snapshot.c */
	const char *sysroot;
	bool sysroot_given;
	unsigned sysroot_flags;
	const char *capture;
	unsigned capture_flags;
	bool allow_incomplete;
	unsigned long test_interrupt; /* raise test_signal halfway through the n-th captured file */
	int test_signal;
	uint64_t test_unpack_ms;      /* the time an archive may take to unpack; 0: the default */
	/* options-output.c */
	enum format format;
	bool json_flag;               /* -J, not --format json: -J -r is lsblk's exclusive pair */
	size_t columns[MAX_COLUMNS];
	size_t n_columns;
	bool have_columns;
	bool list_columns;
	const char *output_file;
	unsigned output_flags;
	struct render_options render;
	/* options-observe.c */
	unsigned observe;             /* --observe seconds; 0: not observing */
	const char *observe_probe;    /* --observe-probe DISK; NULL: none */
	/* options-selection.c */
	struct assumed_mask masks[MAX_ASSUMED_MASKS];
	size_t n_masks;
	unsigned page_size;
	bool no_idle;
	const char *explain;          /* --explain DEVICE: argv's own string; NULL: an audit */
	/* options.c */
	enum severity fail_on;
	bool diff;                    /* --diff OLD NEW: the two in select[] */
	bool fleet;                   /* --diff --fleet PATH...: the reports in select[] */
	struct what_if_change what_if[MAX_WHAT_IF]; /* --what-if KEY=VALUE, in order */
	size_t n_what_if;
	const char **select;          /* DEVICE...: argv's own strings */
	size_t n_select;
	char **raw_argv;              /* argv as given: getopt permutes argv itself */
	int raw_argc;
	const char *fail_reason;      /* why the run failed, for dmamask_last_run_failure_info */
};

/* The defaults: this system, text, exit 1 on an error finding, colour when a terminal. */
#define OPTIONS_INIT                                                                         \
	{ .sysroot = "/", .format = FORMAT_TEXT, .fail_on = SEVERITY_ERROR, .render = { .color = -1 } }

/*
 * argv parsed into o (argv kept as given in o->raw_argv: getopt permutes
 * it). The exit status when the command line is all there is to do (--help,
 * --list-columns, a misuse: said), or -1 to go on.
 */
int options_parse(struct options *o, int argc, char **argv);
void options_done(struct options *o);

/* "text", "json"...: the --format word for f. */
const char *format_to_string(enum format f);
