/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/cli-parse.c: --assume-mask values, device names and repeats. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/cli-parse.h"

static void test_assume_mask_values(void **state)
{
	static const struct {
		const char *arg, *device;
		uint64_t mask;
	} good[] = {
		{ "fe340000.mmc=32", "fe340000.mmc", 0xffffffff },       /* bits, not 0x32 */
		{ "fe340000.mmc=0x32", "fe340000.mmc", 0x32 },
		{ "0000:00:1f.2=0xFFFFFFFF", "0000:00:1f.2", 0xffffffff },
		{ "00:02.0=64", "0000:00:02.0", UINT64_MAX },              /* lspci's short form */
		{ "0000:0A:1F.7=1", "0000:0a:1f.7", 1 },                   /* PCI lower-cased */
		{ "c8000000.MMC=0xc3ffffff", "c8000000.MMC", 0xc3ffffff }, /* others kept as given */
		{ "a=b=12", "a=b", 0xfff },                                /* the last '=' splits */
	};
	static const char *const bad[] = {
		"0000:00:1f.2", "=32", "dev=", "dev=0", "dev=65", "dev=0x", "dev=0x0", "dev=0xzz",
		"dev=ffffffff", "dev=0x1ffffffffffffffff", "dev=-1", "dev= 32", "dev=32k",
	};
	(void)state;

	for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++) {
		struct assumed_mask m = { 0 };
		const char *why = NULL;
		assert_int_equal(assume_mask_parse(good[i].arg, NULL, 0, &m, &why), 0);
		assert_string_equal(m.device, good[i].device);
		assert_true(m.mask == good[i].mask);
		free((char *)m.device);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		struct assumed_mask m = { 0 };
		const char *why = NULL;
		assert_int_equal(assume_mask_parse(bad[i], NULL, 0, &m, &why), -EINVAL);
		assert_non_null(why);
		assert_null(m.device);
	}
}

/* One device, one mask: the short and full forms are the same device. */
static void test_assume_mask_twice(void **state)
{
	struct assumed_mask have[1];
	struct assumed_mask m = { 0 };
	const char *why = NULL;
	(void)state;

	assert_int_equal(assume_mask_parse("00:1f.2=32", NULL, 0, &have[0], &why), 0);
	assert_int_equal(assume_mask_parse("0000:00:1F.2=0xffff", have, 1, &m, &why), -EINVAL);
	assert_non_null(strstr(why, "twice"));
	assert_int_equal(assume_mask_parse("0000:00:1f.3=0xffff", have, 1, &m, &why), 0);
	free((char *)m.device);
	free((char *)have[0].device);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_assume_mask_values),
		cmocka_unit_test(test_assume_mask_twice),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
