/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * assert_bad(text, line): the parser rejects text at that line, with a reason.
 * The including test defines struct result (fields r and err), parse(text,
 * &res) and result_done(&res) for its parser.
 */
#pragma once

#include <string.h>

/* A macro, so that a failure names the line of the case, not of a helper. */
#define assert_bad(text, line_no)                                                    \
	do {                                                                         \
		struct result res_;                                                  \
		parse((text), &res_);                                                \
		result_done(&res_); /* before asserting: nothing leaks on failure */ \
		assert_int_equal(res_.r, -EBADMSG);                                  \
		assert_int_equal(res_.err.line, (line_no));                          \
		assert_non_null(res_.err.what);                                      \
		assert_true(strlen(res_.err.what) > 0);                              \
	} while (0)
