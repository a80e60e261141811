/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* analysis/model.c: the enums' words both ways, and one gravity for every output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "analysis/model.h"
#include "diff/report-diff.h"
#include "render/text-util.h"

static void test_verdict_words(void **state)
{
	(void)state;
	for (int v = 0; v < _VERDICT_MAX; v++) {
		const char *s = verdict_to_string((enum verdict)v);
		assert_non_null(s);
		assert_int_equal(verdict_from_string(s), v);
	}
	assert_null(verdict_to_string(_VERDICT_MAX));
	assert_null(verdict_to_string(_VERDICT_INVALID));
	assert_int_equal(verdict_from_string(NULL), _VERDICT_INVALID);
	assert_int_equal(verdict_from_string("Direct"), _VERDICT_INVALID); /* the report's words are lower case */
	assert_int_equal(verdict_from_string(""), _VERDICT_INVALID);
	assert_null(observed_result_to_string(OBSERVED_NONE)); /* nothing observed prints nothing */
	assert_string_equal(observed_result_to_string(OBSERVED_NO_TRAFFIC), "no-traffic");
	assert_null(observed_result_to_string(_OBSERVED_RESULT_MAX));
	assert_string_equal(kernel_model_to_string(KERNEL_MODEL_LEGACY_BLOCK), "legacy-block");
	assert_null(kernel_model_to_string(_KERNEL_MODEL_INVALID));
	assert_string_equal(mask_source_to_string(MASK_SOURCE_DRIVER), "driver");
	assert_null(mask_source_to_string(_MASK_SOURCE_MAX));
}

/* Text's colour and --diff's rank read the same scale: red is an error, yellow a warning. */
static void test_one_gravity(void **state)
{
	static const struct {
		enum verdict v;
		enum verdict_gravity g;
		const char *colour;
		int diff;
	} cases[] = {
		{ VERDICT_DIRECT, VERDICT_GRAVITY_GOOD, "green", -1 },
		{ VERDICT_IOMMU, VERDICT_GRAVITY_GOOD, "green", -1 },
		{ VERDICT_PARTIAL, VERDICT_GRAVITY_WARNING, "yellow", SEVERITY_WARNING },
		{ VERDICT_FORCED, VERDICT_GRAVITY_WARNING, "yellow", SEVERITY_WARNING },
		{ VERDICT_FAILS, VERDICT_GRAVITY_ERROR, "red", SEVERITY_ERROR },
		{ VERDICT_IDLE, VERDICT_GRAVITY_NONE, NULL, -1 },
		{ VERDICT_UNKNOWN, VERDICT_GRAVITY_WARNING, "yellow", SEVERITY_WARNING },
	};
	(void)state;

	assert_int_equal(ARRAY_SIZE(cases), _VERDICT_MAX);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		assert_int_equal(verdict_gravity(cases[i].v), cases[i].g);
		const char *c = text_verdict_colour(cases[i].v);
		assert_true(c == cases[i].colour || (c && cases[i].colour && strcmp(c, cases[i].colour) == 0));
		assert_int_equal(verdict_severity(verdict_to_string(cases[i].v)), cases[i].diff);
	}
	assert_int_equal(verdict_gravity(_VERDICT_INVALID), VERDICT_GRAVITY_NONE);
	assert_int_equal(verdict_gravity(_VERDICT_MAX), VERDICT_GRAVITY_NONE);
	assert_null(text_verdict_colour(_VERDICT_INVALID));
	assert_int_equal(verdict_severity("no-such-verdict"), -1);
	assert_int_equal(verdict_severity(NULL), -1);
}

/* Needs action: partial and fails by their verdict; forced and unknown only by a finding's severity. */
static void test_needs_action(void **state)
{
	struct device_report r = { 0 };
	(void)state;

	for (int v = 0; v < _VERDICT_MAX; v++) {
		r.verdict = (enum verdict)v;
		opt_clear(&r.worst_severity);
		assert_int_equal(device_needs_action(&r), v == VERDICT_PARTIAL || v == VERDICT_FAILS);
		opt_set(&r.worst_severity, SEVERITY_INFO);
		assert_int_equal(device_needs_action(&r), v == VERDICT_PARTIAL || v == VERDICT_FAILS);
		opt_set(&r.worst_severity, SEVERITY_WARNING);
		assert_true(device_needs_action(&r));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdict_words),
		cmocka_unit_test(test_one_gravity),
		cmocka_unit_test(test_needs_action),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
