/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What every libFuzzer target shares. A target feeds one input to one parser
 * (or, in machine.c, a whole tree to the tool), then checks what the parser
 * promises; a broken promise aborts, so libFuzzer keeps the input.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define fuzz_assert(cond)                                                             \
	do {                                                                          \
		if (!(cond)) {                                                        \
			fprintf(stderr, "%s:%d: broken: %s\n", __FILE__, __LINE__, #cond); \
			abort();                                                      \
		}                                                                     \
	} while (0)

/* The input as sysroot_read_file() hands files to parsers: a copy with a NUL after it. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* A parser returns 0, -EBADMSG for malformed input, or -ENOMEM; nothing else. */
#define fuzz_assert_parse_result(r) fuzz_assert((r) == 0 || (r) == -EBADMSG || (r) == -ENOMEM)
