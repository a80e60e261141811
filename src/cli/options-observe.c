/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Checking the prediction against the kernel: --observe's window. */
#include <string.h>

#include "cli/options.h"
#include "cli/options-groups.h"
#include "shared/text.h"

static const struct argp_option observe_options[] = {
	{ "observe", OPT_OBSERVE, "SECONDS", OPTION_ARG_OPTIONAL,
	  "Trace the bounces the kernel really does for SECONDS (default 10; live, root) and "
	  "check each prediction against them", 0 },
	{ "observe-probe", OPT_OBSERVE_PROBE, "DISK", 0,
	  "In the window, read 8 MiB of DISK with O_DIRECT into buffers above its DMA device's reach, "
	  "so the prediction is tested (read-only; implies --observe)", 0 },
	{ 0 },
};

static error_t parse_observe(int key, char *arg, struct argp_state *state)
{
	struct options *o = state->input;
	uint64_t v = 0;

	switch (key) {
	case OPT_OBSERVE:
		o->observe = 10;
		if (arg && (parse_u64(arg, strlen(arg), 10, &v) < 0 || v == 0 || v > 3600))
			argp_error(state, "--observe '%s': want whole seconds from 1 to 3600", arg);
		if (arg)
			o->observe = (unsigned)v;
		break;
	case OPT_OBSERVE_PROBE:
		if (!*arg)
			argp_error(state, "--observe-probe: want a disk, such as sda or /dev/sda");
		o->observe_probe = arg;
		if (!o->observe)
			o->observe = 10; /* implied; a later --observe=N sets the window */
		break;
	case ARGP_KEY_END:
		if (o->observe && o->sysroot_given && strcmp(o->sysroot, "/") != 0)
			argp_error(state, "--observe watches this system: it cannot be used with --sysroot");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp options_observe_argp = { observe_options, parse_observe, NULL, NULL, NULL, NULL, NULL };
