/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The root parser: the mode (audit or --diff), DEVICE..., --fail-on, help, and its children. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/model.h"
#include "cli/cli-usage.h"
#include "cli/options.h"
#include "cli/options-groups.h"
#include "render/columns.h"
#include "shared/macro.h"

const char *argp_program_version = PACKAGE_NAME " " PACKAGE_VERSION;

static const char doc[] =
	"Audit which devices' DMA reaches all of RAM, and where the kernel's own "
	"bookkeeping (mask vs limit, PFN vs page count) would mislead it."
	"\vExit status: 0 when no finding is at or above --fail-on, 1 when one is, "
	"2 on usage or fatal errors.";

static const struct argp_option root_options[] = {
	{ "diff", OPT_DIFF, NULL, 0,
	  "Compare two reports (--json) or snapshots, OLD NEW: what changed; exit 1 when something "
	  "at or above --fail-on got worse", 0 },
	{ "fleet", OPT_FLEET, NULL, 0,
	  "With --diff: PATH... are many hosts' JSON reports (files, or directories of *.json); each "
	  "host's first report is compared with its last, the changes grouped across hosts", 0 },
	{ "what-if", OPT_WHAT_IF, "KEY=VALUE", 0,
	  "Judge the machine as it would be after a change, and compare as --diff does: kernel=RELEASE, "
	  "cmdline=\"WORDS\" (-WORD removes), ram=SIZE|+SIZE|-SIZE|+SIZE@ADDR, "
	  "device=ID,mask=BITS|0xHEX[,like=DEV][,driver=NAME]; repeatable", 0 },
	{ "fail-on", OPT_FAIL_ON, "SEVERITY", 0,
	  "Exit 1 when a finding is at least info, warning or error (default)", 0 },
	{ "help", 'h', NULL, 0, "Give this help list", -1 },
	{ "usage", OPT_USAGE, NULL, 0, "Give a short usage message", -1 },
	{ "version", 'V', NULL, 0, "Print the program version", -1 },
	{ 0 },
};

static const struct argp_child children[] = {
	{ &options_output_argp, 0, "Output:", 1 },
	{ &options_selection_argp, 0, "Devices:", 2 },
	{ &options_snapshot_argp, 0, "Snapshots:", 3 },
	{ &options_observe_argp, 0, "Observing the kernel:", 4 },
	{ 0 },
};

/* argp's errors go through it (util-linux's "Try" line); closed once parsing is done. */
static FILE *usage_stream;

/*
 * The option with an optional value (--observe, --color) that arg came
 * after, apart, in the command line as given; NULL when it did not: "--color
 * always" is a DEVICE to argp, and a typo to the user.
 */
static const char *joined_value_option(const struct options *o, const char *arg)
{
	static const char *const optional[] = { "--observe", "--color" };

	for (int i = 1; i < o->raw_argc; i++) {
		if (o->raw_argv[i] != arg)
			continue;
		for (size_t j = 0; j < ARRAY_SIZE(optional); j++)
			if (strcmp(o->raw_argv[i - 1], optional[j]) == 0)
				return optional[j];
	}
	return NULL;
}

/*
 * As lsblk: -J, -P and -r are three shapes of one table and exclude each
 * other; -o, -b and -x shape JSON as they shape text; Prometheus's metric
 * families are fixed, so alerts and dashboards find them on every host.
 */
static void check_format_options(struct argp_state *state, const struct options *o)
{
	const struct render_options *r = &o->render;
	char fmt[32];
	const char *given[3];
	size_t n = 0;

	snprintf(fmt, sizeof(fmt), o->json_flag ? "--json" : "--format %s", format_to_string(o->format));
	if (r->raw)
		given[n++] = "--raw";
	if (r->pairs)
		given[n++] = "--pairs";
	if (o->format != FORMAT_TEXT)
		given[n++] = fmt;
	if (n > 1)
		argp_error(state, "%s and %s are mutually exclusive", given[0], given[1]);
	if (o->format == FORMAT_PROMETHEUS && (o->have_columns || r->noheadings || r->sort))
		argp_error(state, "--output, --noheadings and --sort shape tables: Prometheus metrics "
				  "have fixed names and labels");
	if (o->format == FORMAT_NDJSON && (o->have_columns || r->noheadings))
		argp_error(state, "--output and --noheadings shape tables: --format ndjson writes every "
				  "field of each device");
}

/* --diff compares two finished reports: what shapes an audit has no place in it. */
static void check_diff_options(struct argp_state *state, const struct options *o)
{
	const struct render_options *r = &o->render;
	const char *bad = o->sysroot_given ? "--sysroot" : o->capture ? "--capture"
			  : o->observe ? "--observe" : o->n_masks ? "--assume-mask"
			  : o->have_columns ? "--output" : r->raw ? "--raw" : r->pairs ? "--pairs"
			  : r->sort ? "--sort" : o->no_idle ? "--no-idle" : o->page_size ? "--page-size"
			  : NULL;

	if (o->fleet && o->n_select == 0)
		argp_error(state, "--diff --fleet takes reports or directories of them, PATH...");
	if (!o->fleet && o->n_select != 2)
		argp_error(state, "--diff takes two reports or snapshots, OLD NEW (%zu given)", o->n_select);
	if (bad)
		argp_error(state, "--diff compares two reports: %s has no place in it", bad);
	if (o->fleet && o->allow_incomplete)
		argp_error(state, "--diff --fleet reads JSON reports, never snapshots: --allow-incomplete "
				  "has no place in it");
	if (o->format != FORMAT_TEXT && o->format != FORMAT_JSON)
		argp_error(state, "--diff writes text or JSON, not %s", format_to_string(o->format));
}

/* --what-if judges one machine twice and compares: what picks, shapes or captures one report has no place. */
static void check_what_if_options(struct argp_state *state, const struct options *o)
{
	const struct render_options *r = &o->render;
	const char *bad = o->diff && !o->fleet ? "--diff OLD NEW" : o->explain ? "--explain"
			  : o->capture ? "--capture" : o->observe ? "--observe" : o->have_columns ? "--output"
			  : r->raw ? "--raw" : r->pairs ? "--pairs" : r->sort ? "--sort"
			  : r->noheadings ? "--noheadings" : o->no_idle ? "--no-idle"
			  : !o->fleet && o->n_select ? "DEVICE..." : NULL;

	if (bad)
		argp_error(state, "--what-if compares the machine before and after a change: %s has no place "
				  "in it", bad);
	if (o->format != FORMAT_TEXT && o->format != FORMAT_JSON)
		argp_error(state, "--what-if writes text or JSON, not %s", format_to_string(o->format));
	if (o->fleet && (o->sysroot_given || o->n_masks))
		argp_error(state, "--what-if --diff --fleet takes the snapshots as PATH...: %s has no place in "
				  "it", o->sysroot_given ? "--sysroot" : "--assume-mask (device=ID,mask= is per change)");
	if (o->fleet && !o->n_select)
		argp_error(state, "--what-if --diff --fleet takes snapshots or directories of them, PATH...");
}

/*
 * --explain DEVICE explains one device's decision: a second device, --diff,
 * and what shapes the device table or picks devices by kind have no place in it.
 */
static void check_explain_options(struct argp_state *state, const struct options *o)
{
	const struct render_options *r = &o->render;
	const char *bad = o->diff ? "--diff" : o->have_columns ? "--output" : r->raw ? "--raw"
			  : r->pairs ? "--pairs" : r->sort ? "--sort" : r->noheadings ? "--noheadings"
			  : o->no_idle ? "--no-idle" : NULL;

	if (bad)
		argp_error(state, "--explain explains one device: %s has no place in it", bad);
	if (o->n_select)
		argp_error(state, "--explain takes one device: '%s' and '%s' are two", o->explain, o->select[0]);
	if (o->format != FORMAT_TEXT && o->format != FORMAT_JSON)
		argp_error(state, "--explain writes text or JSON, not %s", format_to_string(o->format));
}

/* DEVICE... (or --diff's OLD NEW): argv's own strings, kept in order. */
static void add_selected(struct argp_state *state, struct options *o, const char *arg)
{
	const char *opt = joined_value_option(o, arg);

	if (opt)
		argp_error(state, "unexpected argument '%s': %s takes its value joined, "
				  "did you mean %s=%s?", arg, opt, opt, arg);
	const char **grown = reallocarray(o->select, o->n_select + 1, sizeof(*grown));
	if (!grown)
		argp_failure(state, EXIT_FATAL, ENOMEM, "DEVICE");
	else {
		o->select = grown;
		o->select[o->n_select++] = arg;
	}
}

static error_t parse_root(int key, char *arg, struct argp_state *state)
{
	struct options *o = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		for (size_t i = 0; i < ARRAY_SIZE(children) - 1; i++)
			state->child_inputs[i] = o;
		usage_stream = usage_errors_stream();
		if (usage_stream)
			state->err_stream = usage_stream;
		break;
	case OPT_DIFF:
		o->diff = true;
		break;
	case OPT_FLEET:
		o->fleet = true;
		break;
	case OPT_WHAT_IF: {
		const char *why = NULL;
		if (o->n_what_if == MAX_WHAT_IF)
			argp_error(state, "--what-if: at most %d changes", MAX_WHAT_IF);
		else if (what_if_parse(arg, &o->what_if[o->n_what_if], &why) < 0)
			argp_error(state, "--what-if '%s': %s", arg, why);
		else
			o->n_what_if++;
		break;
	}
	case OPT_FAIL_ON:
		o->fail_on = severity_from_string(arg);
		if (o->fail_on == _SEVERITY_INVALID)
			argp_error(state, "--fail-on '%s': want info, warning or error", arg);
		break;
	case 'h':
		argp_state_help(state, stdout, ARGP_HELP_STD_HELP);
		break;
	case OPT_USAGE:
		argp_state_help(state, stdout, ARGP_HELP_USAGE | ARGP_HELP_EXIT_OK);
		break;
	case 'V':
		printf("%s\n", argp_program_version);
		exit(EXIT_CLEAN);
	case ARGP_KEY_ARG:
		add_selected(state, o, arg);
		break;
	case ARGP_KEY_END: /* after the children's own checks */
		check_format_options(state, o);
		if (o->fleet && !o->diff)
			argp_error(state, "--fleet is a way of --diff: --diff --fleet PATH...");
		if (o->n_what_if)
			check_what_if_options(state, o);
		else if (o->explain)
			check_explain_options(state, o);
		else if (o->diff)
			check_diff_options(state, o);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* 0, or -errno of a failed write (said): a full disk is not a listing. */
static int list_columns(void)
{
	size_t n;
	const struct column *c = columns_all(&n);

	for (size_t i = 0; i < n; i++)
		printf("%14s  %s%s\n", c[i].name, c[i].help, c[i].deflt ? " (default)" : "");
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		int e = errno ? errno : EIO;
		fprintf(stderr, "%s: --list-columns: %s\n", program_invocation_short_name, strerror(e));
		return -e;
	}
	return 0;
}

int options_parse(struct options *o, int argc, char **argv)
{
	const struct argp argp = { root_options, parse_root,
				   "[DEVICE...]\n--explain DEVICE\n--diff OLD NEW\n--diff --fleet PATH...\n--what-if KEY=VALUE...\n--what-if KEY=VALUE... --diff --fleet SNAPSHOT...", doc,
				   children, NULL, NULL };

	argp_err_exit_status = EXIT_FATAL;
	if (argc > 0)
		argv[0] = program_invocation_short_name; /* getopt's errors use argv[0] */
	o->raw_argv = calloc((size_t)argc + 1, sizeof(*o->raw_argv));
	if (!o->raw_argv)
		return EXIT_FATAL;
	memcpy(o->raw_argv, argv, (size_t)argc * sizeof(*argv));
	o->raw_argc = argc;
	o->render.argv = (const char *const *)o->raw_argv;
	o->render.argc = argc;
	int r = argp_parse(&argp, argc, argv, ARGP_NO_HELP, NULL, o);
	if (usage_stream)
		fclose(usage_stream);
	if (r != 0)
		return EXIT_FATAL;
	if (o->list_columns)
		return list_columns() < 0 ? EXIT_FATAL : EXIT_CLEAN;
	if (o->have_columns) {
		o->render.columns = o->columns;
		o->render.n_columns = o->n_columns;
	}
	return -1;
}

void options_done(struct options *o)
{
	for (size_t i = 0; i < o->n_masks; i++)
		free((char *)o->masks[i].device);
	free(o->select);
	free(o->raw_argv);
}
