/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A file of the source tree ($SRCDIR, else .), whole and NUL-ended, for tests that hold code to docs. */
#pragma once

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

static inline char *slurp(const char *rel)
{
	const char *top = getenv("SRCDIR");
	char path[4096];
	char *buf = NULL;
	size_t len = 0;

	snprintf(path, sizeof(path), "%s/%s", top ? top : ".", rel);
	FILE *f = fopen(path, "re");
	assert_non_null(f);
	assert_int_equal(getdelim(&buf, &len, '\0', f) > 0, true);
	fclose(f);
	return buf;
}
