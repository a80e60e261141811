/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Which devices are audited, and as what: --assume-mask, --no-idle, --page-size, --explain. */
#include <errno.h>
#include <string.h>

#include "analysis/model.h"
#include "cli/cli-parse.h"
#include "cli/options.h"
#include "cli/options-groups.h"
#include "shared/text.h"

static const struct argp_option selection_options[] = {
	{ "assume-mask", OPT_ASSUME_MASK, "DEV=0xHEX|BITS", 0,
	  "Audit DEV with this DMA mask: the full 64-bit mask, or a bit count as sysfs shows it", 0 },
	{ "explain", OPT_EXPLAIN, "DEVICE", 0,
	  "The kernel's DMA decision for DEVICE, step by step, each number with its source", 0 },
	{ "no-idle", OPT_NO_IDLE, NULL, 0, "Leave out the devices that do no DMA (idle)", 0 },
	{ "page-size", OPT_PAGE_SIZE, "BYTES", 0,
	  "Page size of the audited kernel (default: live, MANIFEST, else 4096)", 0 },
	{ 0 },
};

static error_t parse_selection(int key, char *arg, struct argp_state *state)
{
	struct options *o = state->input;
	uint64_t v = 0;

	switch (key) {
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
	case OPT_EXPLAIN:
		if (o->explain)
			argp_error(state, "--explain takes one device: '%s' and '%s' are two", o->explain, arg);
		o->explain = arg;
		break;
	case OPT_NO_IDLE:
		o->no_idle = true;
		break;
	case OPT_PAGE_SIZE:
		if (parse_u64(arg, strlen(arg), 10, &v) < 0 || v < 4096 || v > (1u << 18) ||
		    (v & (v - 1)))
			argp_error(state, "--page-size '%s': want a power of two from 4096 to 262144",
				   arg);
		o->page_size = (unsigned)v;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp options_selection_argp = { selection_options, parse_selection, NULL, NULL, NULL, NULL, NULL };
