/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Where the report goes and its shape: format, table columns, colour, the output file. */
#include <string.h>

#include "cli/options.h"
#include "cli/options-groups.h"
#include "cli/output.h"
#include "render/columns.h"
#include "shared/macro.h"
#include "shared/string-table.h"

static const char *const format_table[] = {
	[FORMAT_TEXT] = "text", [FORMAT_JSON] = "json", [FORMAT_PROMETHEUS] = "prometheus",
	[FORMAT_NDJSON] = "ndjson",
};
_Static_assert(ARRAY_SIZE(format_table) == _FORMAT_MAX, "a name for every format");
DEFINE_STRING_TABLE_LOOKUP_TO_STRING(format, enum format);
DEFINE_PRIVATE_STRING_TABLE_LOOKUP_FROM_STRING(format, enum format);

static const struct argp_option output_options[] = {
	{ "format", 'f', "FORMAT", 0,
	  "Output format: text (default), json, ndjson (a line per device) or prometheus", 0 },
	{ "json", 'J', NULL, 0, "Same as --format json", 0 },
	{ "output-file", OPT_OUTPUT_FILE, "FILE", 0,
	  "Write the report to FILE atomically (a temporary file, then rename); - is stdout", 0 },
	{ "output", 'o', "COLUMNS", 0,
	  "Device table columns (+COL adds to the defaults); with -J, the device fields", 0 },
	{ "list-columns", OPT_LIST_COLUMNS, NULL, 0, "List the device table's columns", 0 },
	{ "raw", 'r', NULL, 0, "Only the device table, one device per line, unaligned (for scripts)", 0 },
	{ "pairs", 'P', NULL, 0, "Only the device table, as KEY=\"value\" pairs (for scripts)", 0 },
	{ "sort", 'x', "COLUMN", 0, "List the devices ordered by COLUMN", 0 },
	{ "noheadings", 'n', NULL, 0, "Tables without headings", 0 },
	{ "bytes", 'b', NULL, 0, "Sizes in bytes, not in human-readable units", 0 },
	{ "verbose", 'v', NULL, 0, "Also the RAM ranges, zones and every absent input", 0 },
	{ "color", OPT_COLOR, "WHEN", OPTION_ARG_OPTIONAL, "Colour: auto (default), always or never",
	  0 },
	{ "test-stop-before-rename", OPT_TEST_STOP, NULL, OPTION_HIDDEN,
	  "SIGSTOP with --output-file's temporary written (tests time a signal)", 0 },
	{ 0 },
};

static error_t parse_output(int key, char *arg, struct argp_state *state)
{
	struct options *o = state->input;
	struct render_options *r = &o->render;

	switch (key) {
	case 'f': {
		enum format f = format_from_string(arg);
		if (f == _FORMAT_INVALID)
			argp_error(state, "unknown format '%s' (text, json, ndjson or prometheus)", arg);
		o->format = f;
		o->json_flag = false;
		break;
	}
	case 'J':
		o->format = FORMAT_JSON;
		o->json_flag = true;
		break;
	case OPT_OUTPUT_FILE:
		if (!*arg)
			argp_error(state, "--output-file: empty name");
		o->output_file = arg;
		break;
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
	case OPT_LIST_COLUMNS:
		o->list_columns = true;
		break;
	case 'r':
		r->raw = true;
		break;
	case 'P':
		r->pairs = true;
		break;
	case 'x':
		r->sort = column_find(arg, strlen(arg));
		if (!r->sort)
			argp_error(state, "--sort: unknown column '%s' (see --list-columns)", arg);
		break;
	case 'n':
		r->noheadings = true;
		break;
	case 'b':
		r->bytes = true;
		break;
	case 'v':
		r->verbose = true;
		break;
	case OPT_COLOR:
		if (!arg || strcmp(arg, "auto") == 0)
			r->color = -1;
		else if (strcmp(arg, "always") == 0)
			r->color = 1;
		else if (strcmp(arg, "never") == 0)
			r->color = 0;
		else
			argp_error(state, "--color '%s': want auto, always or never", arg);
		break;
	case OPT_TEST_STOP:
		o->output_flags |= OUTPUT_TEST_STOP;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp options_output_argp = { output_options, parse_output, NULL, NULL, NULL, NULL, NULL };
