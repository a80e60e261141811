/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The root parser's children (options.c lists them) and the keys they share. */
#pragma once

#include <argp.h>

/* Keys of the long options without a short one: unique across every group. */
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
	OPT_EXPLAIN,
	OPT_FLEET,
	OPT_OBSERVE_PROBE,
	OPT_WHAT_IF,
};

extern const struct argp options_output_argp;
extern const struct argp options_snapshot_argp;
extern const struct argp options_observe_argp;
extern const struct argp options_selection_argp;
