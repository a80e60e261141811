/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* virtio features files: bit 33 (VIRTIO_F_ACCESS_PLATFORM) decides whether the DMA API is used. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "readers/readers.h"

static void test_access_platform(void **state)
{
	char bits[129];
	(void)state;

	memset(bits, '0', 128);
	bits[128] = '\0';
	assert_int_equal(virtio_parse_access_platform(bits, 128), 0);
	bits[33] = '1';
	assert_int_equal(virtio_parse_access_platform(bits, 128), 1);
	bits[128 - 1] = '\n'; /* the trailing newline of sysfs */
	assert_int_equal(virtio_parse_access_platform(bits, 128), 1);
	/* the live kernel's format, copied from a QEMU x86 guest's virtio0/features */
	static const char live[] = "0110010100000000000000000000000010000000000000000000000000000000"
				   "0000000000000000000000000000000000000000000000000000000000000000\n";
	assert_int_equal(virtio_parse_access_platform(live, strlen(live)), 0);
}

static void test_malformed(void **state)
{
	(void)state;
	assert_int_equal(virtio_parse_access_platform("", 0), -1);
	assert_int_equal(virtio_parse_access_platform("0101\n", 5), -1); /* too short for bit 33 */
	char bits[64];
	memset(bits, '0', sizeof(bits));
	bits[10] = 'x';
	assert_int_equal(virtio_parse_access_platform(bits, sizeof(bits)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_access_platform),
		cmocka_unit_test(test_malformed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
