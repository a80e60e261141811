/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Misuse messages in util-linux's words: "Try 'dmamask-audit --help' for more information." */
#pragma once

#include <stdio.h>

/*
 * A stream onto standard error for argp's state->err_stream that rewrites
 * argp's "Try `X --help' or `X --usage' ..." line as util-linux prints it;
 * everything else passes unchanged. NULL when it cannot be made (then
 * argp's own words stand).
 */
FILE *usage_errors_stream(void);
