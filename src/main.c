/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Options (argp) -> collect -> analyse -> render -> exit status. */
#include "config.h"

#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "readers/readers.h"
#include "render/render.h"
#include "shared/macro.h"
#include "shared/text.h"
#include "sysroot.h"

enum format {
	FORMAT_TEXT,
	FORMAT_JSON,
};

struct options {
	const char *sysroot;
	enum format format;
	unsigned page_size;
	enum severity fail_on;
	unsigned sysroot_flags;
};

enum {
	OPT_PAGE_SIZE = 0x100,
	OPT_FAIL_ON,
	OPT_RESOLVER,
};

const char *argp_program_version = PACKAGE_NAME " " PACKAGE_VERSION;

static const char doc[] =
	"Audit which devices' DMA reaches all of RAM, and where the kernel's own "
	"bookkeeping (mask vs limit, PFN vs page count) would mislead it."
	"\vExit status: 0 when no finding is at or above --fail-on, 1 when one is, "
	"2 on usage or fatal errors.";

static const struct argp_option argp_options[] = {
	{ "sysroot", 's', "DIR", 0, "Audit the snapshot or tree in DIR instead of /", 0 },
	{ "format", 'f', "FORMAT", 0, "Output format: text (default) or json", 0 },
	{ "json", 'J', NULL, 0, "Same as --format json", 0 },
	{ "page-size", OPT_PAGE_SIZE, "BYTES", 0,
	  "Page size of the audited kernel (default: live, MANIFEST, else 4096)", 0 },
	{ "fail-on", OPT_FAIL_ON, "SEVERITY", 0,
	  "Exit 1 when a finding is at least info, warning (default) or error", 0 },
	{ "resolver", OPT_RESOLVER, "openat2|walk", OPTION_HIDDEN,
	  "Path resolver (tests exercise the fallback)", 0 },
	{ "help", 'h', NULL, 0, "Give this help list", -1 },
	{ 0 },
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct options *o = state->input;
	uint64_t v;

	switch (key) {
	case 's':
		o->sysroot = arg;
		break;
	case 'f':
		if (strcmp(arg, "text") == 0)
			o->format = FORMAT_TEXT;
		else if (strcmp(arg, "json") == 0)
			o->format = FORMAT_JSON;
		else
			argp_error(state, "unknown format '%s' (text or json)", arg);
		break;
	case 'J':
		o->format = FORMAT_JSON;
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
	case 'h':
		argp_state_help(state, stdout, ARGP_HELP_STD_HELP);
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static void machine_donep(struct machine *m)
{
	machine_done(m);
}

static void sysroot_freep(struct sysroot **sr)
{
	sysroot_free(*sr);
}

int main(int argc, char **argv)
{
	struct options o = { .sysroot = "/", .format = FORMAT_TEXT, .fail_on = SEVERITY_WARNING };
	const struct argp argp = { argp_options, parse_opt, NULL, doc, NULL, NULL, NULL };
	_cleanup_(sysroot_freep) struct sysroot *sr = NULL;
	_cleanup_(machine_donep) struct machine m;
	struct report rep;
	int r;

	machine_init(&m);
	argp_err_exit_status = EXIT_FATAL;
	if (argc > 0)
		argv[0] = program_invocation_short_name; /* getopt's errors use argv[0] */
	if (argp_parse(&argp, argc, argv, ARGP_NO_HELP, NULL, &o) != 0)
		return EXIT_FATAL;

	r = sysroot_open(o.sysroot, o.sysroot_flags, &sr);
	if (r < 0) {
		fprintf(stderr, "%s: --sysroot %s: %s\n", program_invocation_short_name, o.sysroot,
			strerror(-r));
		return EXIT_FATAL;
	}
	m.sysroot = strdup(o.sysroot);
	if (!m.sysroot)
		goto oom;
	r = read_machine(sr, &m, o.page_size);
	if (r < 0)
		goto oom;
	r = report_build(&m, o.fail_on, &rep);
	if (r < 0) {
		fprintf(stderr, "%s: analysis failed: %s\n", program_invocation_short_name,
			strerror(-r));
		return EXIT_FATAL;
	}
	r = o.format == FORMAT_JSON ? render_json(stdout, &m, &rep) : render_text(stdout, &m, &rep);
	int status = rep.exit_status;
	report_done(&rep);
	if (r < 0 || fflush(stdout) != 0) {
		fprintf(stderr, "%s: writing the report: %s\n", program_invocation_short_name,
			strerror(r < 0 ? -r : errno));
		return EXIT_FATAL;
	}
	return status;
oom:
	fprintf(stderr, "%s: out of memory\n", program_invocation_short_name);
	return EXIT_FATAL;
}
