/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/readers/swiotlb.c: debugfs counters on a fake root. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "readers/readers.h"
#include "fake-root.h"

static void test_read_debugfs(void **state)
{
	char *root = tmp_root_new();
	struct sysroot *sr;
	struct machine m;
	(void)state;

	tmp_root_write_str(root, "sys/kernel/debug/swiotlb/io_tlb_nslabs", "32768\n");
	tmp_root_write_str(root, "sys/kernel/debug/swiotlb/io_tlb_used", "12\n");
	tmp_root_write_str(root, "sys/kernel/debug/swiotlb/io_tlb_used_hiwater", "4096\n");
	assert_int_equal(sysroot_open(root, 0, &sr), 0);
	machine_init(&m);
	assert_int_equal(read_swiotlb(sr, &m), 0);
	assert_true(m.swiotlb.nslabs.known);
	assert_int_equal(m.swiotlb.nslabs.v, 32768);
	assert_true(m.swiotlb.used.known);
	assert_int_equal(m.swiotlb.used.v, 12);
	assert_true(m.swiotlb.hiwater.known);
	assert_int_equal(m.swiotlb.hiwater.v, 4096);
	assert_false(m.swiotlb.transient.known); /* before 6.6 */
	assert_int_equal(m.n_inputs, 1);
	assert_string_equal(m.inputs[0].path, "sys/kernel/debug/swiotlb");
	assert_int_equal(m.inputs[0].status, INPUT_OK);
	machine_done(&m);
	sysroot_free(sr);

	/* a counter that is not a number spoils the set */
	tmp_root_write_str(root, "sys/kernel/debug/swiotlb/io_tlb_used", "many\n");
	assert_int_equal(sysroot_open(root, 0, &sr), 0);
	machine_init(&m);
	assert_int_equal(read_swiotlb(sr, &m), 0);
	assert_false(m.swiotlb.nslabs.known);
	assert_false(m.swiotlb.used.known);
	assert_int_equal(m.n_inputs, 1);
	assert_int_equal(m.inputs[0].status, INPUT_INVALID);
	assert_string_equal(m.inputs[0].detail, "io_tlb_used: not a number");
	machine_done(&m);
	sysroot_free(sr);
	tmp_root_free(root);
}

static void test_read_no_debugfs(void **state)
{
	char *root = tmp_root_new();
	struct sysroot *sr;
	struct machine m;
	(void)state;

	/* an empty mount point, as on a machine where debugfs is not mounted */
	tmp_root_mkdir(root, "sys/kernel/debug");
	assert_int_equal(sysroot_open(root, 0, &sr), 0);
	machine_init(&m);
	assert_int_equal(read_swiotlb(sr, &m), 0);
	assert_false(m.swiotlb.nslabs.known);
	assert_int_equal(m.n_inputs, 1);
	assert_string_equal(m.inputs[0].path, "sys/kernel/debug/swiotlb");
	assert_int_equal(m.inputs[0].status, INPUT_MISSING);
	assert_string_equal(m.inputs[0].detail, "debugfs not mounted");
	machine_done(&m);
	sysroot_free(sr);

	/* debugfs mounted, no swiotlb in it */
	tmp_root_write_str(root, "sys/kernel/debug/dma-api/error_count", "0\n");
	assert_int_equal(sysroot_open(root, 0, &sr), 0);
	machine_init(&m);
	assert_int_equal(read_swiotlb(sr, &m), 0);
	assert_int_equal(m.inputs[0].status, INPUT_MISSING);
	assert_string_equal(m.inputs[0].detail, "no swiotlb directory in debugfs");
	machine_done(&m);
	sysroot_free(sr);
	tmp_root_free(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_debugfs),
		cmocka_unit_test(test_read_no_debugfs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
