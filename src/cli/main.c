/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Options (argp) -> collect -> analyse -> render -> exit status. */
#include <argp.h>
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analysis/device-select.h"
#include "analysis/report.h"
#include "snapshot/capture.h"
#include "snapshot/capture-run.h"
#include "cli/diff-run.h"
#include "snapshot/snapshot-run.h"
#include "cli/cli-parse.h"
#include "cli/cli-usage.h"
#include "observe/observe-run.h"
#include "cli/output.h"
#include "readers/readers.h"
#include "render/columns.h"
#include "render/render.h"
#include "shared/errno-util.h"
#include "shared/macro.h"
#include "shared/text.h"
#include "sysroot/sysroot.h"

enum format {
	FORMAT_TEXT,
	FORMAT_JSON,
	FORMAT_PROMETHEUS,
	FORMAT_NDJSON,
};

static const char *const format_names[] = {
	[FORMAT_TEXT] = "text", [FORMAT_JSON] = "json", [FORMAT_PROMETHEUS] = "prometheus",
	[FORMAT_NDJSON] = "ndjson",
};

#define MAX_ASSUMED_MASKS 64
#define MAX_COLUMNS 32

struct options {
	const char *sysroot;
	enum format format;
	unsigned page_size;
	enum severity fail_on;
	unsigned sysroot_flags;
	struct assumed_mask masks[MAX_ASSUMED_MASKS];
	size_t n_masks;
	size_t columns[MAX_COLUMNS];
	size_t n_columns;
	bool have_columns;
	bool json_flag;               /* -J, not --format json: -J -r is lsblk's exclusive pair */
	bool list_columns;
	const char *output_file;
	unsigned output_flags;
	const char *capture;
	unsigned capture_flags;
	unsigned long test_interrupt; /* raise test_signal halfway through the n-th captured file */
	int test_signal;
	uint64_t test_unpack_ms;      /* the time an archive may take to unpack; 0: the default */
	bool allow_incomplete;
	bool sysroot_given;
	unsigned observe;             /* --observe seconds; 0: not observing */
	const char **select;          /* DEVICE...: argv's own strings */
	size_t n_select;
	bool no_idle;
	bool diff;                    /* --diff OLD NEW: the two in select[] */
	char **raw_argv;              /* argv as given: getopt permutes argv itself */
	int raw_argc;
	struct render_options render;
	const char *fail_reason;      /* why the run failed, for dmamask_last_run_failure_info */
};

enum {
	OPT_PAGE_SIZE = 0x100,
	OPT_FAIL_ON,
	OPT_RESOLVER,
	OPT_ASSUME_MASK,
	OPT_LIST_COLUMNS,
	OPT_COLOR,
	OPT_OUTPUT_FILE,
	OPT_CAPTURE,
	OPT_CAPTURE_FULL_LOG,
	OPT_NO_IDLE,
	OPT_TEST_STOP,
	OPT_ALLOW_INCOMPLETE,
	OPT_TEST_INTERRUPT,
	OPT_OBSERVE,
	OPT_USAGE,
	OPT_DIFF,
	OPT_TEST_UNPACK_MS,
};

const char *argp_program_version = PACKAGE_NAME " " PACKAGE_VERSION;

static const char doc[] =
	"Audit which devices' DMA reaches all of RAM, and where the kernel's own "
	"bookkeeping (mask vs limit, PFN vs page count) would mislead it."
	"\vExit status: 0 when no finding is at or above --fail-on, 1 when one is, "
	"2 on usage or fatal errors.";

static const struct argp_option argp_options[] = {
	{ "sysroot", 's', "DIR", 0,
	  "Audit the snapshot or tree in DIR instead of /; a snapshot archive (FILE.tar.gz) is "
	  "unpacked first", 0 },
	{ "format", 'f', "FORMAT", 0,
	  "Output format: text (default), json, ndjson (a line per device) or prometheus", 0 },
	{ "capture", OPT_CAPTURE, "DIR", 0,
	  "Copy every file, link and listing read into DIR, or into one archive for a DIR "
	  "ending in .tar or .tar.gz: a snapshot --sysroot replays", 0 },
	{ "capture-full-log", OPT_CAPTURE_FULL_LOG, NULL, 0,
	  "Capture the whole kernel log, not only the records the audit parses", 0 },
	{ "observe", OPT_OBSERVE, "SECONDS", OPTION_ARG_OPTIONAL,
	  "Trace the bounces the kernel really does for SECONDS (default 10; live, root) and "
	  "check each prediction against them", 0 },
	{ "diff", OPT_DIFF, NULL, 0,
	  "Compare two reports (--json) or snapshots, OLD NEW: what changed; exit 1 when something "
	  "at or above --fail-on got worse", 0 },
	{ "allow-incomplete", OPT_ALLOW_INCOMPLETE, NULL, 0,
	  "Audit a snapshot whose capture did not finish (exit by --fail-on, not 2)", 0 },
	{ "output-file", OPT_OUTPUT_FILE, "FILE", 0,
	  "Write the report to FILE atomically (a temporary file, then rename); - is stdout", 0 },
	{ "json", 'J', NULL, 0, "Same as --format json", 0 },
	{ "page-size", OPT_PAGE_SIZE, "BYTES", 0,
	  "Page size of the audited kernel (default: live, MANIFEST, else 4096)", 0 },
	{ "fail-on", OPT_FAIL_ON, "SEVERITY", 0,
	  "Exit 1 when a finding is at least info, warning or error (default)", 0 },
	{ "assume-mask", OPT_ASSUME_MASK, "DEV=0xHEX|BITS", 0,
	  "Audit DEV with this DMA mask: the full 64-bit mask, or a bit count as sysfs shows it", 0 },
	{ "output", 'o', "COLUMNS", 0,
	  "Device table columns (+COL adds to the defaults); with -J, the device fields", 0 },
	{ "list-columns", OPT_LIST_COLUMNS, NULL, 0, "List the device table's columns", 0 },
	{ "raw", 'r', NULL, 0, "Only the device table, one device per line, unaligned (for scripts)", 0 },
	{ "pairs", 'P', NULL, 0, "Only the device table, as KEY=\"value\" pairs (for scripts)", 0 },
	{ "sort", 'x', "COLUMN", 0, "List the devices ordered by COLUMN", 0 },
	{ "noheadings", 'n', NULL, 0, "Tables without headings", 0 },
	{ "bytes", 'b', NULL, 0, "Sizes in bytes, not in human-readable units", 0 },
	{ "verbose", 'v', NULL, 0, "Also the RAM ranges, zones and every absent input", 0 },
	{ "no-idle", OPT_NO_IDLE, NULL, 0, "Leave out the devices that do no DMA (idle)", 0 },
	{ "color", OPT_COLOR, "WHEN", OPTION_ARG_OPTIONAL, "Colour: auto (default), always or never",
	  0 },
	{ "resolver", OPT_RESOLVER, "openat2|walk", OPTION_HIDDEN,
	  "Path resolver (tests exercise the fallback)", 0 },
	{ "test-stop-before-rename", OPT_TEST_STOP, NULL, OPTION_HIDDEN,
	  "SIGSTOP with --output-file's temporary written (tests time a signal)", 0 },
	{ "test-interrupt", OPT_TEST_INTERRUPT, "N[:KILL]", OPTION_HIDDEN,
	  "Raise SIGINT (or SIGKILL) halfway through the N-th file --capture writes (tests)", 0 },
	{ "test-unpack-ms", OPT_TEST_UNPACK_MS, "MS", OPTION_HIDDEN,
	  "The time a --sysroot archive may take to unpack, in milliseconds (tests)", 0 },
	{ "help", 'h', NULL, 0, "Give this help list", -1 },
	{ "usage", OPT_USAGE, NULL, 0, "Give a short usage message", -1 },
	{ "version", 'V', NULL, 0, "Print the program version", -1 },
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
	const char *name = format_names[o->format];

	char fmt[32];
	const char *given[3];
	size_t n = 0;

	snprintf(fmt, sizeof(fmt), o->json_flag ? "--json" : "--format %s", name);
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

	if (o->n_select != 2)
		argp_error(state, "--diff takes two reports or snapshots, OLD NEW (%zu given)", o->n_select);
	if (bad)
		argp_error(state, "--diff compares two reports: %s has no place in it", bad);
	if (o->format != FORMAT_TEXT && o->format != FORMAT_JSON)
		argp_error(state, "--diff writes text or JSON, not %s", format_names[o->format]);
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct options *o = state->input;
	uint64_t v = 0; /* argp_error() is not declared noreturn: clang sees it return */

	switch (key) {
	case 's':
		if (!*arg)
			argp_error(state, "--sysroot: empty name");
		o->sysroot = arg;
		o->sysroot_given = true;
		break;
	case 'f': {
		size_t f = 0;
		while (f < ARRAY_SIZE(format_names) && strcmp(arg, format_names[f]) != 0)
			f++;
		if (f == ARRAY_SIZE(format_names))
			argp_error(state, "unknown format '%s' (text, json, ndjson or prometheus)", arg);
		o->format = (enum format)f;
		o->json_flag = false;
		break;
	}
	case 'J':
		o->format = FORMAT_JSON;
		o->json_flag = true;
		break;
	case 'P':
		o->render.pairs = true;
		break;
	case 'x':
		o->render.sort = column_find(arg, strlen(arg));
		if (!o->render.sort)
			argp_error(state, "--sort: unknown column '%s' (see --list-columns)", arg);
		break;
	case OPT_PAGE_SIZE:
		if (parse_u64(arg, strlen(arg), 10, &v) < 0 || v < 4096 || v > (1u << 18) ||
		    (v & (v - 1)))
			argp_error(state, "--page-size '%s': want a power of two from 4096 to 262144",
				   arg);
		o->page_size = (unsigned)v;
		break;
	case OPT_FAIL_ON:
		o->fail_on = severity_from_string(arg);
		if (o->fail_on == _SEVERITY_INVALID)
			argp_error(state, "--fail-on '%s': want info, warning or error", arg);
		break;
	case OPT_RESOLVER:
		if (strcmp(arg, "walk") == 0)
			o->sysroot_flags |= SYSROOT_NO_OPENAT2;
		else if (strcmp(arg, "openat2") != 0)
			argp_error(state, "--resolver '%s': want openat2 or walk", arg);
		break;
	case OPT_ASSUME_MASK: {
		const char *why = NULL;
		if (o->n_masks == MAX_ASSUMED_MASKS)
			argp_error(state, "--assume-mask: at most %d", MAX_ASSUMED_MASKS);
		int r = assume_mask_parse(arg, o->masks, o->n_masks, &o->masks[o->n_masks], &why);
		if (r == -ENOMEM)
			argp_failure(state, EXIT_FATAL, ENOMEM, "--assume-mask");
		else if (r < 0)
			argp_error(state, "--assume-mask '%s': %s", arg, why);
		else
			o->n_masks++;
		break;
	}
	case 'o': {
		const char *bad = NULL;
		size_t bad_len = 0;
		if (columns_parse(arg, o->columns, MAX_COLUMNS, &o->n_columns, &bad, &bad_len) < 0)
			argp_error(state, "--output: unknown column '%.*s' (see --list-columns)",
				   (int)bad_len, bad);
		if (o->n_columns == 0)
			argp_error(state, "--output: no column given");
		o->have_columns = true;
		break;
	}
	case OPT_OUTPUT_FILE:
		if (!*arg)
			argp_error(state, "--output-file: empty name");
		o->output_file = arg;
		break;
	case OPT_TEST_STOP:
		o->output_flags |= OUTPUT_TEST_STOP;
		break;
	case OPT_OBSERVE:
		o->observe = 10;
		if (arg && (parse_u64(arg, strlen(arg), 10, &v) < 0 || v == 0 || v > 3600))
			argp_error(state, "--observe '%s': want whole seconds from 1 to 3600", arg);
		if (arg)
			o->observe = (unsigned)v;
		break;
	case OPT_CAPTURE:
		if (!*arg)
			argp_error(state, "--capture: empty name");
		o->capture = arg;
		break;
	case OPT_CAPTURE_FULL_LOG:
		o->capture_flags |= CAPTURE_FULL_LOG;
		break;
	case OPT_ALLOW_INCOMPLETE:
		o->allow_incomplete = true;
		break;
	case OPT_TEST_INTERRUPT:
	{
		size_t n = strcspn(arg, ":");
		if (parse_u64(arg, n, 10, &v) < 0 || v == 0 || v > ULONG_MAX ||
		    (arg[n] && strcmp(arg + n, ":KILL") != 0))
			argp_error(state, "--test-interrupt '%s': want a count from 1, then :KILL or nothing",
				   arg);
		o->test_interrupt = (unsigned long)v;
		o->test_signal = arg[n] ? SIGKILL : SIGINT;
	}
		break;
	case OPT_TEST_UNPACK_MS:
		if (parse_u64(arg, strlen(arg), 10, &v) < 0 || v == 0)
			argp_error(state, "--test-unpack-ms '%s': want milliseconds from 1", arg);
		o->test_unpack_ms = v;
		break;
	case OPT_LIST_COLUMNS:
		o->list_columns = true;
		break;
	case 'r':
		o->render.raw = true;
		break;
	case 'n':
		o->render.noheadings = true;
		break;
	case 'b':
		o->render.bytes = true;
		break;
	case 'v':
		o->render.verbose = true;
		break;
	case ARGP_KEY_INIT:
		usage_stream = usage_errors_stream();
		if (usage_stream)
			state->err_stream = usage_stream;
		break;
	case OPT_COLOR:
		if (!arg || strcmp(arg, "auto") == 0)
			o->render.color = -1;
		else if (strcmp(arg, "always") == 0)
			o->render.color = 1;
		else if (strcmp(arg, "never") == 0)
			o->render.color = 0;
		else
			argp_error(state, "--color '%s': want auto, always or never", arg);
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
	case OPT_NO_IDLE:
		o->no_idle = true;
		break;
	case OPT_DIFF:
		o->diff = true;
		break;
	case ARGP_KEY_ARG:
	{
		const char *opt = joined_value_option(o, arg);
		if (opt)
			argp_error(state, "unexpected argument '%s': %s takes its value joined, "
					  "did you mean %s=%s?", arg, opt, opt, arg);
		const char **grown = reallocarray(o->select, o->n_select + 1, sizeof(*grown));
		if (!grown)
			argp_failure(state, EXIT_FATAL, ENOMEM, "DEVICE");
		o->select = grown;
		o->select[o->n_select++] = arg;
	}
		break;
	case ARGP_KEY_END:
		if ((o->capture_flags & CAPTURE_FULL_LOG) && !o->capture)
			argp_error(state, "--capture-full-log says what --capture keeps: give --capture too");
		if (o->observe && o->sysroot_given && strcmp(o->sysroot, "/") != 0)
			argp_error(state, "--observe watches this system: it cannot be used with --sysroot");
		check_format_options(state, o);
		if (o->diff)
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

/* A --sysroot with none of proc/, sys/ and MANIFEST is a mistake, not a machine. */
static bool looks_like_snapshot(struct sysroot *sr)
{
	static const char *const marks[] = SYSROOT_SNAPSHOT_MARKS;
	struct stat st;

	for (size_t i = 0; i < ARRAY_SIZE(marks); i++)
		if (sysroot_stat(sr, marks[i], &st) == 0)
			return true;
	return false;
}

/* --assume-mask: every named device must exist, so a typo is not silently ignored. */
static int check_assumed_masks(const struct machine *m, const struct options *o)
{
	for (size_t i = 0; i < o->n_masks; i++)
		if (!machine_find_device(m, o->masks[i].device)) {
			fprintf(stderr, "%s: --assume-mask: no DMA device '%s' (see the DEVICE column)\n",
				program_invocation_short_name, o->masks[i].device);
			return -ENODEV;
		}
	return 0;
}

static void free_options(struct options *o)
{
	for (size_t i = 0; i < o->n_masks; i++)
		free((char *)o->masks[i].device);
	free(o->select);
	free(o->raw_argv);
}

/* DEVICE...: each must name a device, a disk or an interface, so a typo is not an empty report. */
static int check_selection(const struct machine *m, const struct options *o)
{
	for (size_t i = 0; i < o->n_select; i++) {
		bool found = false;
		for (size_t d = 0; !found && d < m->n_devices; d++)
			found = device_matches(m, d, o->select[i]);
		if (!found) {
			fprintf(stderr, "%s: %s: no such device, disk or network interface (see the DEVICE "
				"column)\n", program_invocation_short_name, o->select[i]);
			return -ENODEV;
		}
	}
	return 0;
}

static int render(FILE *out, const struct options *o, const struct machine *m,
		  const struct report *rep)
{
	switch (o->format) {
	case FORMAT_JSON:
		return render_json(out, m, rep, &o->render);
	case FORMAT_PROMETHEUS:
		return render_prometheus(out, m, rep);
	case FORMAT_NDJSON:
		return render_ndjson(out, m, rep, &o->render);
	default:
		return render_text(out, m, rep, &o->render);
	}
}

static void output_failed(const struct options *o, int r, const char *what)
{
	const char *me = program_invocation_short_name;

	if (!o->output_file || strcmp(o->output_file, "-") == 0)
		fprintf(stderr, "%s: writing the report: %s\n", me, strerror(-r));
	else if (r == -EEXIST && what)
		fprintf(stderr, "%s: --output-file %s: %s; only a regular file is replaced\n", me,
			o->output_file, what);
	else
		fprintf(stderr, "%s: --output-file %s: %s\n", me, o->output_file, strerror(-r));
}

/*
 * --color=auto: a terminal, unless NO_COLOR is set and not empty (no-color.org)
 * or TERM is dumb, as util-linux's colors.c decides. 0 or 1.
 */
static int colour_wanted(int when, bool terminal)
{
	const char *no = getenv("NO_COLOR"), *term = getenv("TERM");

	if (when >= 0)
		return when;
	return terminal && !(no && *no) && !(term && strcmp(term, "dumb") == 0);
}

/*
 * Every format fails alike: the errno of the write that failed, exit 2; out
 * is freed. rep NULL: the run failed before a report (Prometheus only: the
 * metrics that say so, dmamask_last_run_success 0).
 */
/* 10^6 devices' metrics are about 600 MiB; a textfile past this is not one of ours */
#define PREVIOUS_TEXTFILE_MAX (1024u << 20)

/* The time now, unknown when time() fails: the report's generated_at. */
static struct opt_i64 clock_now(void)
{
	time_t t = time(NULL);
	struct opt_i64 ret = { 0 };

	if (t != (time_t)-1)
		opt_set(&ret, (int64_t)t);
	return ret;
}

static int write_report(struct output *out, struct options *o, const struct machine *m,
			const struct report *rep)
{
	const char *what = NULL;
	FILE *f;
	int r = output_start(out, &f, &what);

	if (r < 0) {
		output_free(out);
	} else {
		o->render.terminal = output_is_terminal(out);
		o->render.color = colour_wanted(o->render.color, o->render.terminal);
		_cleanup_free_ char *previous = NULL;
		size_t len = 0;
		/* the textfile being replaced: its last report stands through a failed run */
		if (!rep && output_previous(out, PREVIOUS_TEXTFILE_MAX, &previous, &len) < 0)
			previous = NULL;
		r = output_finish(out, rep ? render(f, o, m, rep)
					   : render_prometheus_failure(f, clock_now(),
								       o->fail_reason, previous, len));
	}
	if (r < 0)
		output_failed(o, r, what);
	return r;
}

static void capture_freep(struct capture **c)
{
	if (*c)
		capture_guard(NULL, NULL, false, 0); /* no handler may see it freed */
	capture_free(*c);
}

static void output_freep(struct output **o)
{
	output_free(*o);
}

/* Everything a run holds, freed whichever way main() leaves. */
struct audit_run {
	struct snapshot_run snap;
	struct capture *cap;
	struct sysroot *sr;
	struct observe_raw raw;
	struct machine m;
};

static void audit_run_done(struct audit_run *a)
{
	observe_raw_done(&a->raw);
	machine_done(&a->m);
	sysroot_free(a->sr);
	capture_freep(&a->cap);
	snapshot_run_done(&a->snap);
}

/* A run that cannot go on: why, for dmamask_last_run_failure_info; always -1. */
static int run_failed(struct options *o, const char *reason)
{
	o->fail_reason = reason;
	return -1;
}

/* The options, argv kept as given (getopt permutes it). Exit status, or -1 to go on. */
static int parse_command_line(struct options *o, int argc, char **argv)
{
	const struct argp argp = { argp_options, parse_opt, "[DEVICE...]\n--diff OLD NEW", doc, NULL, NULL, NULL };

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

/* The root to audit: this system, a snapshot directory, or an archive unpacked. 0 or -1 (said). */
static int open_root(struct options *o, struct audit_run *a)
{
	const struct snapshot_limits lim = {
		SNAPSHOT_ENTRIES_MAX, SNAPSHOT_BYTES_MAX, SNAPSHOT_ENTRY_BYTES_MAX,
		o->test_unpack_ms ? o->test_unpack_ms : SNAPSHOT_UNPACK_MS_MAX,
	};
	int r = snapshot_run_begin(&a->snap, o->sysroot, o->capture, &lim);

	if (r < 0) /* a --capture archive's scratch space, else unpacking a --sysroot archive */
		return run_failed(o, a->snap.capture_kind != SNAPSHOT_DIR ? "capture" : "sysroot");
	r = sysroot_open(a->snap.sysroot_dir, o->sysroot_flags, &a->sr);
	if (r < 0) {
		fprintf(stderr, "%s: --sysroot %s: %s\n", program_invocation_short_name, o->sysroot,
			strerror(-r));
		return run_failed(o, "sysroot");
	}
	if (!sysroot_is_live(a->sr) && !looks_like_snapshot(a->sr)) {
		fprintf(stderr, "%s: --sysroot %s: not a snapshot (no proc/, sys/ or MANIFEST)\n",
			program_invocation_short_name, o->sysroot);
		return run_failed(o, "not-a-snapshot");
	}
	return 0;
}

/* --capture: the directory claimed and guarded against signals. 0 or -1 (said). */
static int start_capture(struct options *o, struct audit_run *a)
{
	unsigned flags = o->capture_flags | (o->sysroot_flags & SYSROOT_NO_OPENAT2 ? CAPTURE_NO_OPENAT2 : 0);
	int r = capture_new(a->snap.capture_dir, flags, &a->cap);

	if (r < 0) {
		fprintf(stderr, "%s: --capture %s: %s\n", program_invocation_short_name, o->capture,
			r == -ENOTEMPTY ? "exists and is not empty"
			: r == -EBUSY	? "another capture is writing into it"
			: r == -ELOOP	? "is a symbolic link: give the directory itself"
					: strerror(-r));
		return run_failed(o, "capture");
	}
	capture_guard(a->cap, o->capture, a->snap.capture_kind != SNAPSHOT_DIR,
		      o->test_interrupt ? o->test_signal : 0);
	if (o->test_interrupt)
		capture_set_test_interrupt(a->cap, o->test_interrupt, o->test_signal);
	return 0;
}

/* The capture's MANIFEST, then its archive: an incomplete capture is packed too. 0 or -1 (said unless quiet). */
static int finish_capture(struct options *o, struct audit_run *a, bool quiet)
{
	_cleanup_free_ char *why = NULL;

	/* a copy of an incomplete snapshot is no more complete */
	if (machine_incomplete_why(&a->m) &&
	    asprintf(&why, "the snapshot captured is incomplete: %s", machine_incomplete_why(&a->m)) >= 0)
		capture_fail(a->cap, why);
	int r = capture_finish_machine(a->cap, &a->m);
	capture_guard(NULL, NULL, false, 0);
	if (snapshot_run_pack(&a->snap) < 0)
		return run_failed(o, "capture");
	if (r < 0 && !quiet) {
		fprintf(stderr, "%s: --capture %s: incomplete (%s); its MANIFEST says complete=0\n",
			program_invocation_short_name, o->capture, capture_incomplete_reason(a->cap));
		return run_failed(o, "capture");
	}
	return 0;
}

/*
 * A read that ran out of descriptors or memory hid what it read: a report
 * would judge fewer devices, or none, and call that healthy. One line, the
 * capture marked incomplete, and exit 2. 0 or -1 (said).
 */
static int exhausted(struct options *o, struct audit_run *a)
{
	const char *path;
	int err = sysroot_exhausted(a->sr, &path);
	struct rlimit rl;

	if (!err)
		return 0;
	char limit[48] = "";
	if (err == -EMFILE && getrlimit(RLIMIT_NOFILE, &rl) == 0)
		snprintf(limit, sizeof(limit), " (ulimit -n is %llu)", (unsigned long long)rl.rlim_cur);
	fprintf(stderr, "%s: reading %s: %s: %s%s; no report%s\n", program_invocation_short_name, path,
		errno_name(err), errno_describe(err), limit, a->cap ? ", and the capture is incomplete" : "");
	if (a->cap) {
		_cleanup_free_ char *why = NULL;
		if (asprintf(&why, "reading %s failed: %s", path, errno_name(err)) >= 0)
			capture_fail(a->cap, why);
		(void)finish_capture(o, a, true); /* complete=0, with the reason above */
	}
	return run_failed(o, err == -EMFILE || err == -ENFILE ? "out-of-file-descriptors" : "out-of-memory");
}

/*
 * The soft descriptor limit raised to the hard one (at most 1024), as
 * systemd does for its services: a parent's low soft limit is not ours.
 */
static void raise_nofile_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= 1024 || rl.rlim_cur >= rl.rlim_max)
		return;
	rl.rlim_cur = rl.rlim_max < 1024 ? rl.rlim_max : 1024;
	(void)setrlimit(RLIMIT_NOFILE, &rl);
}

/* The machine: observed, read (and captured), and the devices the command line names checked. */
static int read_root(struct options *o, struct audit_run *a)
{
	/* the window comes first: a refusal leaves no capture behind, and its reads are not captured */
	if (o->observe && observe_window(o->observe, a->sr, &a->raw) < 0)
		return run_failed(o, "observe");
	if (o->capture && start_capture(o, a) < 0)
		return -1;
	if (o->observe && observe_record(&a->raw, a->cap, &a->m) < 0)
		return run_failed(o, "observe");
	if (a->cap)
		(void)capture_attach(a->cap, a->sr);
	a->m.sysroot = strdup(o->sysroot);
	if (!a->m.sysroot || read_machine(a->sr, &a->m, o->page_size) < 0) {
		fprintf(stderr, "%s: out of memory\n", program_invocation_short_name);
		return run_failed(o, "out-of-memory");
	}
	if (exhausted(o, a) < 0)
		return -1;
	if (a->cap && finish_capture(o, a, false) < 0)
		return -1;
	if (check_assumed_masks(&a->m, o) < 0)
		return run_failed(o, "assume-mask");
	if (check_selection(&a->m, o) < 0)
		return run_failed(o, "selection");
	if (machine_incomplete_why(&a->m) && !o->allow_incomplete)
		fprintf(stderr, "%s: --sysroot %s: incomplete snapshot (%s); exit status 2, "
			"--allow-incomplete audits it anyway\n", program_invocation_short_name, o->sysroot,
			machine_incomplete_why(&a->m));
	return 0;
}

/* The report, written: its exit status, or EXIT_FATAL. */
static int audit(struct options *o, struct audit_run *a, struct output **out)
{
	const struct report_options ro = {
		.fail_on = o->fail_on, .allow_incomplete = o->allow_incomplete,
		.masks = o->masks, .n_masks = o->n_masks,
		.select = o->select, .n_select = o->n_select, .no_idle = o->no_idle,
	};
	struct report rep;
	int r = report_build_with(&a->m, &ro, &rep);

	if (r < 0) {
		fprintf(stderr, "%s: analysis failed: %s\n", program_invocation_short_name, strerror(-r));
		return run_failed(o, "analysis");
	}
	rep.generated_at = clock_now();
	int status = rep.exit_status;
	r = write_report(TAKE_PTR(*out), o, &a->m, &rep);
	report_done(&rep);
	return r < 0 ? EXIT_FATAL : status;
}

int main(int argc, char **argv)
{
	_cleanup_(free_options) struct options o = {
		.sysroot = "/", .format = FORMAT_TEXT, .fail_on = SEVERITY_ERROR,
		.render = { .color = -1 },
	};
	_cleanup_(audit_run_done) struct audit_run a = { 0 };
	_cleanup_(output_freep) struct output *out = NULL;
	const char *what = NULL;

	machine_init(&a.m);
	raise_nofile_limit();
	setlocale(LC_ALL, ""); /* display widths and characters of names follow the terminal */
	setlocale(LC_NUMERIC, "C"); /* but JSON, Prometheus and the window file write 0.5, never 0,5 */
	int r = parse_command_line(&o, argc, argv);
	if (r >= 0)
		return r;
	/* a target that will be refused is refused before the audit reads or captures anything */
	r = output_open(o.output_file, o.output_flags, &out, &what);
	if (r < 0) {
		output_failed(&o, r, what);
		return EXIT_FATAL;
	}
	if (o.diff) {
		const struct diff_request q = {
			.old = o.select[0], .new = o.select[1], .fail_on = o.fail_on,
			.json = o.format == FORMAT_JSON, .bytes = o.render.bytes,
			.allow_incomplete = o.allow_incomplete,
		};
		return diff_run(&q, TAKE_PTR(out));
	}
	if (open_root(&o, &a) == 0 && read_root(&o, &a) == 0) {
		r = audit(&o, &a, &out);
		if (r != -1)
			return r;
	}
	/* a textfile collector must not keep serving the last good run as if it were this one */
	if (o.format == FORMAT_PROMETHEUS && out)
		(void)write_report(TAKE_PTR(out), &o, &a.m, NULL);
	return EXIT_FATAL;
}
