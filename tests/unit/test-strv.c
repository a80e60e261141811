/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/shared/strv.c: push, sort, done. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "shared/strv.h"

static void test_push_sort_done(void **state)
{
	_cleanup_strv_ struct strv s = { 0 };
	char name[32];
	(void)state;

	/* past several doublings, in reverse order */
	for (int i = 99; i >= 0; i--) {
		snprintf(name, sizeof(name), "e%03d", i);
		assert_int_equal(strv_push(&s, name), 0);
	}
	assert_int_equal(s.n, 100);
	strv_sort(&s);
	for (size_t i = 0; i < s.n; i++) {
		snprintf(name, sizeof(name), "e%03zu", i);
		assert_string_equal(s.v[i], name);
	}
	strv_done(&s);
	assert_null(s.v);
	assert_int_equal(s.n, 0);
	strv_done(&s); /* twice is fine */
	strv_sort(&s); /* empty is fine */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_push_sort_done),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
