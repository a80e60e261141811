/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What is audited and kept: --sysroot, --capture and their test hooks. */
#include <limits.h>
#include <signal.h>
#include <string.h>

#include "cli/options.h"
#include "cli/options-groups.h"
#include "shared/text.h"
#include "snapshot/capture.h"
#include "sysroot/sysroot.h"

static const struct argp_option snapshot_options[] = {
	{ "sysroot", 's', "DIR", 0,
	  "Audit the snapshot or tree in DIR instead of /; a snapshot archive (FILE.tar.gz) is "
	  "unpacked first", 0 },
	{ "capture", OPT_CAPTURE, "DIR", 0,
	  "Copy every file, link and listing read into DIR, or into one archive for a DIR "
	  "ending in .tar or .tar.gz: a snapshot --sysroot replays", 0 },
	{ "capture-full-log", OPT_CAPTURE_FULL_LOG, NULL, 0,
	  "Capture the whole kernel log, not only the records the audit parses", 0 },
	{ "allow-incomplete", OPT_ALLOW_INCOMPLETE, NULL, 0,
	  "Audit a snapshot whose capture did not finish (exit by --fail-on, not 2)", 0 },
	{ "resolver", OPT_RESOLVER, "openat2|walk", OPTION_HIDDEN,
	  "Path resolver (tests exercise the fallback)", 0 },
	{ "test-interrupt", OPT_TEST_INTERRUPT, "N[:KILL]", OPTION_HIDDEN,
	  "Raise SIGINT (or SIGKILL) halfway through the N-th file --capture writes (tests)", 0 },
	{ "test-unpack-ms", OPT_TEST_UNPACK_MS, "MS", OPTION_HIDDEN,
	  "The time a --sysroot archive may take to unpack, in milliseconds (tests)", 0 },
	{ 0 },
};

static error_t parse_snapshot(int key, char *arg, struct argp_state *state)
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
	case OPT_RESOLVER:
		if (strcmp(arg, "walk") == 0)
			o->sysroot_flags |= SYSROOT_NO_OPENAT2;
		else if (strcmp(arg, "openat2") != 0)
			argp_error(state, "--resolver '%s': want openat2 or walk", arg);
		break;
	case OPT_TEST_INTERRUPT: {
		size_t n = strcspn(arg, ":");
		if (parse_u64(arg, n, 10, &v) < 0 || v == 0 || v > ULONG_MAX ||
		    (arg[n] && strcmp(arg + n, ":KILL") != 0))
			argp_error(state, "--test-interrupt '%s': want a count from 1, then :KILL or nothing",
				   arg);
		o->test_interrupt = (unsigned long)v;
		o->test_signal = arg[n] ? SIGKILL : SIGINT;
		break;
	}
	case OPT_TEST_UNPACK_MS:
		if (parse_u64(arg, strlen(arg), 10, &v) < 0 || v == 0)
			argp_error(state, "--test-unpack-ms '%s': want milliseconds from 1", arg);
		o->test_unpack_ms = v;
		break;
	case ARGP_KEY_END:
		if ((o->capture_flags & CAPTURE_FULL_LOG) && !o->capture)
			argp_error(state, "--capture-full-log says what --capture keeps: give --capture too");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp options_snapshot_argp = { snapshot_options, parse_snapshot, NULL, NULL, NULL, NULL, NULL };
