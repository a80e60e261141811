/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/shared/strbuf.h: numbers, sizes and hex as the report prints them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shared/strbuf.h"

static void check_size(uint64_t bytes, const char *expected)
{
	struct strbuf b = { 0 };
	strbuf_append_size(&b, bytes);
	char *s = strbuf_steal(&b);
	assert_non_null(s);
	assert_string_equal(s, expected);
	free(s);
}

static void check_hex(uint64_t v, const char *expected)
{
	struct strbuf b = { 0 };
	strbuf_append_hex(&b, v);
	char *s = strbuf_steal(&b);
	assert_non_null(s);
	assert_string_equal(s, expected);
	free(s);
}

static void check_u64(uint64_t v, const char *expected)
{
	struct strbuf b = { 0 };
	strbuf_append_u64(&b, v);
	char *s = strbuf_steal(&b);
	assert_non_null(s);
	assert_string_equal(s, expected);
	free(s);
}

static void test_u64(void **state)
{
	check_u64(0, "0");
	check_u64(7, "7");
	check_u64(10, "10");
	check_u64(4096, "4096");
	check_u64(4294967296ull, "4294967296");
	check_u64(UINT64_MAX, "18446744073709551615");
}

static void test_hex(void **state)
{
	check_hex(0, "0x0");
	check_hex(0xf, "0xf");
	check_hex(0x10, "0x10");
	check_hex(0xc3ffffff, "0xc3ffffff");
	check_hex(0xDEADBEEFull, "0xdeadbeef"); /* lower case */
	check_hex(0x6f800, "0x6f800");          /* no padding */
	check_hex(1ull << 52, "0x10000000000000");
	check_hex(UINT64_MAX, "0xffffffffffffffff");
}

static void check_micro(uint64_t v, const char *expected)
{
	struct strbuf b = { 0 };
	strbuf_append_micro(&b, v);
	char *s = strbuf_steal(&b);
	assert_non_null(s);
	assert_string_equal(s, expected);
	free(s);
}

/* millionths as a decimal: trailing zeros dropped, never a point alone, never rounded */
static void test_micro(void **state)
{
	(void)state;
	check_micro(0, "0");
	check_micro(1, "0.000001");
	check_micro(200000, "0.2");
	check_micro(800000, "0.8");
	check_micro(1000000, "1");
	check_micro(12500000, "12.5");
	check_micro(3333333, "3.333333");
	check_micro(UINT64_MAX, "18446744073709.551615");
}

static void test_size_bytes(void **state)
{
	check_size(0, "0 B");
	check_size(1, "1 B");
	check_size(1023, "1023 B");
}

static void test_size_exact_multiples(void **state)
{
	check_size(1024, "1 KiB");
	check_size(1ull << 20, "1 MiB");
	check_size(4ull << 30, "4 GiB");
	check_size(2ull << 30, "2 GiB");
	check_size(256ull << 20, "256 MiB");
	check_size(1ull << 40, "1 TiB");
	check_size(1ull << 50, "1 PiB");
	check_size(1ull << 60, "1 EiB");
	check_size(15ull << 60, "15 EiB");
	check_size(1023ull << 30, "1023 GiB");
}

static void test_size_fractions(void **state)
{
	check_size(1536, "1.5 KiB");
	check_size(3ull << 29, "1.5 GiB");
	check_size(0x50800ull * 4096, "1.3 GiB"); /* highmem of the 2013 board: 1.2578 GiB */
	check_size((1ull << 20) + (1ull << 18), "1.3 MiB"); /* 1.25: half rounds up */
	check_size((1ull << 20) + (1ull << 18) - 1, "1.2 MiB"); /* a byte short of half */
	check_size(1024 + 51, "1 KiB");   /* 1.0498: ".0" dropped, as lsblk's "1K" */
	check_size(1024 + 52, "1.1 KiB"); /* 1.0508 */
	check_size(1023ull * 1024 + 972, "1023.9 KiB"); /* 1023.949 */
}

/* Rounding up: the figure may read above the bytes, as lsblk's does. */
static void test_size_rounds_up(void **state)
{
	/* 24 GiB of RAM less the firmware's 41 MiB: 23.96 GiB, lsblk and free -h say 24G */
	check_size((24ull << 30) - (41ull << 20), "24 GiB");
	check_size((4ull << 30) - 1, "4 GiB");
	check_size(4241280205ull, "4 GiB");   /* 3.95 GiB and 0.2 bytes: half rounds up */
	check_size(4241280204ull, "3.9 GiB"); /* 0.8 bytes short of 3.95 GiB */
	/* The unit is the one before rounding (util-linux get_exp()): 1023.95 KiB is
	 * "1024 KiB" as lsblk prints 1024K, not "1 MiB", nor "1023.9 KiB". */
	check_size(1023ull * 1024 + 973, "1024 KiB");
	check_size((1ull << 20) - 1, "1024 KiB");
	check_size((1ull << 30) - 1, "1024 MiB");
	check_size(1ull << 20, "1 MiB");
}

static void test_size_max(void **state)
{
	/* 2^64-1 is 15.99.. EiB: rounded, 16 EiB, as util-linux prints 16E. */
	check_size(UINT64_MAX, "16 EiB");
	check_size((15ull << 60) + (1ull << 59), "15.5 EiB");
	check_size((15ull << 60) + (1ull << 59) - 1, "15.5 EiB");
	check_size(UINT64_MAX - (UINT64_MAX >> 4) / 10, "15.9 EiB"); /* 15.9 EiB and a little */
	check_size((1ull << 60) - 1, "1024 PiB");
}

static void check_beside(uint64_t bytes, uint64_t other, const char *expected)
{
	struct strbuf b = { 0 };
	strbuf_append_size_beside(&b, bytes, other);
	char *s = strbuf_steal(&b);
	assert_non_null(s);
	assert_string_equal(s, expected);
	free(s);
}

/* Sizes set side by side: exact where the rounded figures would read alike. */
static void test_size_beside(void **state)
{
	check_beside((24ull << 30) - (41ull << 20), 24ull << 30, "25726812160 bytes");
	check_beside(24ull << 30, (24ull << 30) - (41ull << 20), "25769803776 bytes");
	check_beside(24ull << 30, 24ull << 30, "24 GiB");  /* equal: nothing to tell apart */
	check_beside(23ull << 30, 24ull << 30, "23 GiB");  /* apart already */
	check_beside(1, 0, "1 B");
	check_beside(1536, 1537, "1536 bytes");
	check_beside(1, 1024 + 1, "1 B");
}

static void test_append_concatenates(void **state)
{
	struct strbuf b = { 0 };

	strbuf_append(&b, "mask ");
	strbuf_append_hex(&b, 0x3ffffff);
	strbuf_append(&b, " reaches ");
	strbuf_append_size(&b, 64ull << 20);
	strbuf_append_n(&b, " of RAM, ignored", 7);
	strbuf_append(&b, "");
	strbuf_append_u64(&b, 1);
	assert_int_equal(b.len, strlen("mask 0x3ffffff reaches 64 MiB of RAM1"));
	char *s = strbuf_steal(&b);
	assert_string_equal(s, "mask 0x3ffffff reaches 64 MiB of RAM1");
	/* Stealing leaves an empty, reusable buffer. */
	assert_null(b.s);
	assert_int_equal(b.len, 0);
	strbuf_append(&b, "again");
	char *t = strbuf_steal(&b);
	assert_string_equal(t, "again");
	free(s);
	free(t);
}

static void test_append_grows(void **state)
{
	struct strbuf b = { 0 };
	char expected[5001];

	for (size_t i = 0; i < 5000; i++) {
		char c = (char)('a' + i % 26);
		strbuf_append_n(&b, &c, 1);
		expected[i] = c;
	}
	expected[5000] = '\0';
	assert_int_equal(b.len, 5000);
	assert_true(b.cap > 5000);
	char *s = strbuf_steal(&b);
	assert_string_equal(s, expected);
	free(s);
}

static void test_steal_empty(void **state)
{
	struct strbuf b = { 0 };
	char *s = strbuf_steal(&b);

	assert_non_null(s);
	assert_string_equal(s, "");
	free(s);
}

static void test_oom_is_sticky(void **state)
{
	struct strbuf b = { 0 };

	strbuf_append(&b, "before");
	b.oom = true; /* as if an allocation had failed */
	strbuf_append(&b, " after");
	strbuf_append_u64(&b, 5);
	assert_int_equal(b.len, 6);
	assert_null(strbuf_steal(&b));
	strbuf_done(&b); /* nothing leaks (ASan build) */
}

static void test_done_resets(void **state)
{
	struct strbuf b = { 0 };

	strbuf_append(&b, "x");
	strbuf_done(&b);
	assert_null(b.s);
	assert_int_equal(b.len, 0);
	assert_int_equal(b.cap, 0);
	strbuf_done(&b); /* twice is fine */
}

static void test_hex_string(void **state)
{
	static const struct {
		uint64_t v;
		const char *s;
	} cases[] = {
		{ 0, "0x0" },
		{ 0x40000000, "0x40000000" },
		{ 0xbfffffff, "0xbfffffff" },
		{ 0xc3ffffff, "0xc3ffffff" },
		{ UINT64_MAX, "0xffffffffffffffff" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s = hex_string(cases[i].v);
		assert_non_null(s);
		assert_string_equal(s, cases[i].s);
		free(s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_u64),
		cmocka_unit_test(test_hex),
		cmocka_unit_test(test_micro),
		cmocka_unit_test(test_size_bytes),
		cmocka_unit_test(test_size_exact_multiples),
		cmocka_unit_test(test_size_fractions),
		cmocka_unit_test(test_size_rounds_up),
		cmocka_unit_test(test_size_max),
		cmocka_unit_test(test_size_beside),
		cmocka_unit_test(test_append_concatenates),
		cmocka_unit_test(test_append_grows),
		cmocka_unit_test(test_steal_empty),
		cmocka_unit_test(test_oom_is_sticky),
		cmocka_unit_test(test_done_resets),
		cmocka_unit_test(test_hex_string),
	};

	return cmocka_run_group_tests_name("strbuf", tests, NULL, NULL);
}
