/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/readers/iomem.c: iomem_parse on real and broken proc/iomem files. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "readers/readers.h"

struct result {
	int r;
	struct ram_range *ram;
	size_t n;
	bool hidden;
	struct opt_u64 reserved_end;
	struct parse_error err;
};

static void parse_n(const char *buf, size_t len, struct result *res)
{
	memset(res, 0, sizeof(*res));
	res->n = 999;
	res->hidden = true;
	res->err.line = 999;
	res->r = iomem_parse(buf, len, &res->ram, &res->n, &res->hidden, &res->reserved_end, &res->err);
}

static void parse(const char *text, struct result *res)
{
	parse_n(text, strlen(text), res);
}

static void result_done(struct result *res)
{
	free(res->ram);
	res->ram = NULL;
}

static void assert_range(const struct ram_range *r, uint64_t start, uint64_t end)
{
	assert_int_equal(r->start, start);
	assert_int_equal(r->end, end);
}

#include "parse-assert.h"

/* This machine (x86_64 VM, 24 GiB): RAM below 640 KiB, below 3 GiB and above 4 GiB. */
static const char x86_iomem[] =
	"00000000-00000fff : Reserved\n"
	"00001000-0009fbff : System RAM\n"
	"0009fc00-000fffff : Reserved\n"
	"  000de000-000defff : AMZNC10C:00\n"
	"  000f0000-000fffff : System ROM\n"
	"00100000-bfffffff : System RAM\n"
	"  01000000-02269a87 : Kernel code\n"
	"  02400000-02e06fff : Kernel rodata\n"
	"  03000000-0327c03f : Kernel data\n"
	"  03b30000-03c60fff : Kernel bss\n"
	"c0001000-eebfffff : PCI Bus 0000:00\n"
	"eec00000-febfffff : Reserved\n"
	"  eec00000-eecfffff : PCI ECAM 0000 [bus 00-00]\n"
	"    eec00000-eecfffff : PCI Bus 0000:00\n"
	"fec00000-fec003ff : IOAPIC 0\n"
	"100000000-63fffffff : System RAM\n"
	"4000000000-7fffffffff : PCI Bus 0000:00\n"
	"  4000000000-400007ffff : 0000:00:01.0\n"
	"    4000000000-400007ffff : virtio-pci-modern\n"
	"  4000080000-40000fffff : 0000:00:02.0\n"
	"    4000080000-40000fffff : virtio-pci-modern\n"
	"  4000100000-400017ffff : 0000:00:03.0\n"
	"    4000100000-400017ffff : virtio-pci-modern\n"
	"  4000180000-40001fffff : 0000:00:04.0\n"
	"    4000180000-40001fffff : virtio-pci-modern\n"
	"  4000200000-400027ffff : 0000:00:05.0\n"
	"    4000200000-400027ffff : virtio-pci-modern\n";

static void test_x86_real(void **state)
{
	struct result res;

	parse(x86_iomem, &res);
	assert_int_equal(res.r, 0);
	assert_false(res.hidden);
	assert_int_equal(res.n, 3);
	assert_range(&res.ram[0], 0x1000, 0x9fbff);
	assert_range(&res.ram[1], 0x100000, 0xbfffffff); /* Kernel code etc. not counted */
	assert_range(&res.ram[2], 0x100000000, 0x63fffffff);
	/* the outermost "Reserved" that ends last; nested ones are not memblock regions */
	assert_true(res.reserved_end.known);
	assert_int_equal(res.reserved_end.v, 0xfebfffff);
	result_done(&res);
}

/* arm64 request_standard_resources: a nomap memblock region is an outermost "reserved"
 * (here, synthetic, two at the top of RAM); a "reserved" inside System RAM is not one. */
static void test_arm64_nomap_reserved_end(void **state)
{
	static const char text[] =
		"40000000-bbd3ffff : System RAM\n"
		"  40210000-4185ffff : Kernel code\n"
		"  bb000000-bbd3ffff : reserved\n"
		"bbd40000-bbe1ffff : reserved\n"
		"bbe20000-bfffffff : reserved\n";
	struct result res;

	parse(text, &res);
	assert_int_equal(res.r, 0);
	assert_int_equal(res.n, 1);
	assert_true(res.reserved_end.known);
	assert_int_equal(res.reserved_end.v, 0xbfffffff);
	result_done(&res);
	parse("40000000-bfffffff : System RAM\n  40008000-405a4fff : reserved\n", &res);
	assert_int_equal(res.r, 0);
	assert_false(res.reserved_end.known);
	result_done(&res);
}

/* The 2013 report's board: 2 GiB at 0x40000000 (kernel/resource.c, 32-bit, %08llx). */
static const char arm_iomem[] =
	"10000000-10000fff : /soc/serial@10000000\n"
	"12000000-1200ffff : /soc/mmc@12000000\n"
	"40000000-bfffffff : System RAM\n"
	"  40008000-405a4fff : Kernel code\n"
	"  405ce000-4066d3f7 : Kernel data\n";

static void test_arm_board(void **state)
{
	struct result res;

	parse(arm_iomem, &res);
	assert_int_equal(res.r, 0);
	assert_false(res.hidden);
	assert_int_equal(res.n, 1);
	assert_range(&res.ram[0], 0x40000000, 0xbfffffff);
	result_done(&res);
}

static void test_dax_kmem_counted_once(void **state)
{
	/* dax kmem: hot-added memory appears under Soft Reserved / daxX.Y. */
	static const char text[] =
		"00000000-00000fff : Reserved\n"
		"00001000-0009ffff : System RAM\n"
		"00100000-7fffffff : System RAM\n"
		"  01000000-01ffffff : Kernel code\n"
		"880000000-107fffffff : Soft Reserved\n"
		"  880000000-107fffffff : dax0.0\n"
		"    880000000-107fffffff : System RAM (kmem)\n";
	struct result res;

	parse(text, &res);
	assert_int_equal(res.r, 0);
	assert_int_equal(res.n, 3);
	assert_range(&res.ram[0], 0x1000, 0x9ffff);
	assert_range(&res.ram[1], 0x100000, 0x7fffffff);
	assert_range(&res.ram[2], 0x880000000, 0x107fffffff);
	result_done(&res);
}

static void test_ram_in_ram_outermost(void **state)
{
	static const char text[] =
		"40000000-7fffffff : System RAM\n"
		"  40000000-4fffffff : System RAM\n"
		"    40000000-40ffffff : System RAM (kmem)\n"
		"  50000000-50ffffff : Kernel code\n"
		"    50000000-500fffff : System RAM\n"
		"80000000-8fffffff : System RAM\n";
	struct result res;

	parse(text, &res);
	assert_int_equal(res.r, 0);
	assert_int_equal(res.n, 2);
	assert_range(&res.ram[0], 0x40000000, 0x7fffffff);
	assert_range(&res.ram[1], 0x80000000, 0x8fffffff);
	result_done(&res);
}

static void test_ram_under_non_ram_counts(void **state)
{
	/* Nesting level is not what matters: the outermost RAM resource is. */
	static const char text[] =
		"00000000-0fffffff : Reserved\n"
		"  00001000-00001fff : System RAM\n"
		"10000000-1fffffff : System RAM\n";
	struct result res;

	parse(text, &res);
	assert_int_equal(res.r, 0);
	assert_int_equal(res.n, 2);
	assert_range(&res.ram[0], 0x1000, 0x1fff);
	assert_range(&res.ram[1], 0x10000000, 0x1fffffff);
	result_done(&res);
}

static void test_name_must_be_system_ram(void **state)
{
	static const char text[] =
		"00000000-00000fff : System RAMs\n"
		"00001000-00001fff : system ram\n"
		"00002000-00002fff :  System RAM\n"
		"00003000-00003fff : Reserved System RAM\n"
		"00004000-00004fff : System RAM\n";
	struct result res;

	parse(text, &res);
	assert_int_equal(res.r, 0);
	assert_int_equal(res.n, 1);
	assert_range(&res.ram[0], 0x4000, 0x4fff);
	result_done(&res);
}

static void test_nonroot_zeros_hidden(void **state)
{
	/* What a user without CAP_SYS_ADMIN reads (4.6+). */
	static const char text[] =
		"00000000-00000000 : Reserved\n"
		"00000000-00000000 : System RAM\n"
		"00000000-00000000 : Reserved\n"
		"  00000000-00000000 : System ROM\n"
		"00000000-00000000 : System RAM\n"
		"  00000000-00000000 : Kernel code\n"
		"00000000-00000000 : PCI Bus 0000:00\n"
		"00000000-00000000 : System RAM\n";
	struct result res;

	parse(text, &res);
	assert_int_equal(res.r, 0);
	assert_true(res.hidden);
	assert_false(res.reserved_end.known); /* zeros place no reserved range either */
	result_done(&res);
}

static void test_one_nonzero_not_hidden(void **state)
{
	static const char text[] =
		"00000000-00000fff : Reserved\n"
		"00001000-0009ffff : System RAM\n";
	struct result res;

	parse(text, &res);
	assert_int_equal(res.r, 0);
	assert_false(res.hidden);
	assert_int_equal(res.n, 1);
	result_done(&res);
}

static void test_no_ram_resource(void **state)
{
	/* Well formed, no RAM: 0 ranges; read_iomem decides what that means. */
	static const char text[] = "10000000-10000fff : serial\n";
	struct result res;

	parse(text, &res);
	assert_int_equal(res.r, 0);
	assert_false(res.hidden);
	assert_int_equal(res.n, 0);
	result_done(&res);
}

static void test_empty_buffer(void **state)
{
	struct result res;

	parse_n("", 0, &res);
	assert_int_equal(res.r, 0);
	assert_int_equal(res.n, 0);
	assert_false(res.hidden);
	result_done(&res);
}

static void test_truncated(void **state)
{
	static const char text[] =
		"00001000-0009ffff : System RAM\n"
		"00100000-bfffffff : System RAM";
	struct result res;

	parse(text, &res);
	assert_int_equal(res.r, -EBADMSG);
	assert_non_null(res.err.what);
	result_done(&res);

	/* Cut in the middle of a number, too. */
	parse_n(x86_iomem, 100, &res);
	assert_int_equal(res.r, -EBADMSG);
	result_done(&res);
}

static void test_garbage_line_number(void **state)
{
	assert_bad("00000000-00000fff : Reserved\n"
		   "00001000-0009fbff : System RAM\n"
		   "hello world\n"
		   "00100000-bfffffff : System RAM\n",
		   3);
	assert_bad("garbage\n", 1);
	assert_bad("00001000-0009fbff : System RAM\n\n", 2);   /* empty line */
	assert_bad("00001000-0009fbff System RAM\n", 1);       /* no " : " */
	assert_bad("00001000-0009fbff :System RAM\n", 1);
	assert_bad("00001000 - 0009fbff : System RAM\n", 1);
	assert_bad("00000000-00000fff : Reserved\n"
		   "00001000-0009zbff : System RAM\n",
		   2);
	assert_bad("00001000-0009fbff : System RAM\n"
		   "-0009fbff : System RAM\n",
		   2);
	assert_bad("00001000- : System RAM\n", 1);
	assert_bad("\t00001000-0009fbff : System RAM\n", 1);
}

static void test_binary(void **state)
{
	static const char text[] = "00001000-0009fbff : System RAM\n\0\0\0\n";
	struct result res;

	parse_n(text, sizeof(text) - 1, &res);
	assert_int_equal(res.r, -EBADMSG);
	assert_non_null(res.err.what);
	result_done(&res);
}

static void test_huge_value(void **state)
{
	struct result res;

	/* 17 hex digits: beyond 64 bits. */
	assert_bad("10000000000000000-1ffffffffffffffff : System RAM\n", 1);
	assert_bad("00001000-0009fbff : System RAM\n"
		   "00100000-10000000000000000 : System RAM\n",
		   2);
	/* 16 digits up to 2^64-1 are fine. */
	parse("ffffffffffff0000-ffffffffffffffff : System RAM\n", &res);
	assert_int_equal(res.r, 0);
	assert_int_equal(res.n, 1);
	assert_range(&res.ram[0], 0xffffffffffff0000ull, UINT64_MAX);
	result_done(&res);
}

static void test_end_below_start(void **state)
{
	assert_bad("00001000-0009fbff : System RAM\n"
		   "bfffffff-00100000 : System RAM\n",
		   2);
	assert_bad("00001000-00000fff : Reserved\n", 1);
}

static void test_single_byte_resource(void **state)
{
	struct result res;

	parse("00001000-00001000 : System RAM\n", &res);
	assert_int_equal(res.r, 0);
	assert_int_equal(res.n, 1);
	assert_range(&res.ram[0], 0x1000, 0x1000);
	result_done(&res);
}

static void test_odd_indent(void **state)
{
	assert_bad("00100000-bfffffff : System RAM\n"
		   " 01000000-02269a87 : Kernel code\n",
		   2);
	assert_bad("00100000-bfffffff : System RAM\n"
		   "  01000000-02269a87 : Kernel code\n"
		   "   01000000-01ffffff : odd\n",
		   3);
}

static void test_nested_without_parent(void **state)
{
	assert_bad("  01000000-02269a87 : Kernel code\n", 1);
}

static void test_nesting_depth(void **state)
{
	char buf[64 * 80];
	size_t len = 0;
	struct result res;

	/* 32 levels (0..31) are accepted ... */
	for (unsigned d = 0; d < 32; d++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%*s00001000-00001fff : %s\n",
					(int)(2 * d), "", d == 31 ? "System RAM" : "Reserved");
	parse_n(buf, len, &res);
	assert_int_equal(res.r, 0);
	assert_int_equal(res.n, 1);
	result_done(&res);
	/* ... a 33rd is not. */
	len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%*s00001000-00001fff : x\n", 64, "");
	parse_n(buf, len, &res);
	assert_int_equal(res.r, -EBADMSG);
	assert_int_equal(res.err.line, 33);
	result_done(&res);
}

static void test_overlapping_ram(void **state)
{
	assert_bad("00001000-00002fff : System RAM\n"
		   "00002000-00003fff : System RAM\n",
		   0);
	/* Overlap found even when the lines come in another order. */
	assert_bad("40000000-4fffffff : System RAM\n"
		   "00000000-0fffffff : Reserved\n"
		   "3ffff000-40000fff : System RAM\n",
		   0);
	/* The same range twice. */
	assert_bad("40000000-4fffffff : System RAM\n"
		   "40000000-4fffffff : System RAM\n",
		   0);
	/* One range inside another at the same level. */
	assert_bad("40000000-4fffffff : System RAM\n"
		   "41000000-41ffffff : System RAM\n"
		   "60000000-6fffffff : System RAM\n",
		   0);
}

static void test_touching_ram_not_overlapping(void **state)
{
	struct result res;

	parse("00001000-00001fff : System RAM\n"
	      "00002000-00002fff : System RAM\n",
	      &res);
	assert_int_equal(res.r, 0);
	assert_int_equal(res.n, 2);
	assert_range(&res.ram[0], 0x1000, 0x1fff);
	assert_range(&res.ram[1], 0x2000, 0x2fff);
	result_done(&res);
}

static void test_unsorted_sorted(void **state)
{
	static const char text[] =
		"880000000-8ffffffff : System RAM\n"
		"00100000-3fffffff : System RAM\n"
		"  01000000-01ffffff : Kernel code\n"
		"c0000000-cfffffff : PCI\n"
		"00001000-0009ffff : System RAM\n"
		"100000000-17fffffff : System RAM\n";
	struct result res;

	parse(text, &res);
	assert_int_equal(res.r, 0);
	assert_int_equal(res.n, 4);
	assert_range(&res.ram[0], 0x1000, 0x9ffff);
	assert_range(&res.ram[1], 0x100000, 0x3fffffff);
	assert_range(&res.ram[2], 0x100000000, 0x17fffffff);
	assert_range(&res.ram[3], 0x880000000, 0x8ffffffff);
	result_done(&res);
}

static void test_many_ranges(void **state)
{
	/* More ranges than the first allocation holds, in reverse order. */
	char buf[100 * 48];
	size_t len = 0;
	struct result res;

	for (unsigned i = 100; i-- > 0;)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%08x-%08x : System RAM\n",
					i * 0x100000u, i * 0x100000u + 0xfffffu);
	parse_n(buf, len, &res);
	assert_int_equal(res.r, 0);
	assert_int_equal(res.n, 100);
	for (unsigned i = 0; i < 100; i++)
		assert_range(&res.ram[i], i * 0x100000ull, i * 0x100000ull + 0xfffff);
	result_done(&res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86_real),
		cmocka_unit_test(test_arm_board),
		cmocka_unit_test(test_arm64_nomap_reserved_end),
		cmocka_unit_test(test_dax_kmem_counted_once),
		cmocka_unit_test(test_ram_in_ram_outermost),
		cmocka_unit_test(test_ram_under_non_ram_counts),
		cmocka_unit_test(test_name_must_be_system_ram),
		cmocka_unit_test(test_nonroot_zeros_hidden),
		cmocka_unit_test(test_one_nonzero_not_hidden),
		cmocka_unit_test(test_no_ram_resource),
		cmocka_unit_test(test_empty_buffer),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_garbage_line_number),
		cmocka_unit_test(test_binary),
		cmocka_unit_test(test_huge_value),
		cmocka_unit_test(test_end_below_start),
		cmocka_unit_test(test_single_byte_resource),
		cmocka_unit_test(test_odd_indent),
		cmocka_unit_test(test_nested_without_parent),
		cmocka_unit_test(test_nesting_depth),
		cmocka_unit_test(test_overlapping_ram),
		cmocka_unit_test(test_touching_ram_not_overlapping),
		cmocka_unit_test(test_unsorted_sorted),
		cmocka_unit_test(test_many_ranges),
	};

	return cmocka_run_group_tests_name("iomem", tests, NULL, NULL);
}
