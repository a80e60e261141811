/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/shared/text.h: the line iterator, parse_u64 and the small scanners. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "shared/text.h"

/* Collect every line of buf; returns how many there were. */
static size_t collect_lines(const char *buf, size_t len, struct line *out, size_t max)
{
	struct line_iter it;
	struct line l;
	size_t n = 0;

	line_iter_init(&it, buf, len);
	while (line_iter_next(&it, &l)) {
		if (n < max)
			out[n] = l;
		n++;
	}
	return n;
}

static void assert_line(const struct line *l, const char *text, unsigned no)
{
	assert_int_equal(l->len, strlen(text));
	assert_memory_equal(l->s, text, l->len);
	assert_int_equal(l->no, no);
}

/* ---- line iterator ---- */

static void test_lines_basic(void **state)
{
	static const char buf[] = "first\nsecond line\n\nfourth\n";
	struct line l[8];

	assert_int_equal(collect_lines(buf, sizeof(buf) - 1, l, 8), 4);
	assert_line(&l[0], "first", 1);
	assert_line(&l[1], "second line", 2);
	assert_line(&l[2], "", 3);
	assert_line(&l[3], "fourth", 4);
	/* Views point into the buffer, they are not copies. */
	assert_ptr_equal(l[0].s, buf);
	assert_ptr_equal(l[1].s, buf + 6);
}

static void test_lines_no_final_newline(void **state)
{
	static const char buf[] = "a\nlast";
	struct line l[4];

	assert_int_equal(collect_lines(buf, sizeof(buf) - 1, l, 4), 2);
	assert_line(&l[0], "a", 1);
	assert_line(&l[1], "last", 2);
}

static void test_lines_empty_buffer(void **state)
{
	struct line l[2];

	assert_int_equal(collect_lines("", 0, l, 2), 0);
}

static void test_lines_only_newlines(void **state)
{
	struct line l[4];

	assert_int_equal(collect_lines("\n", 1, l, 4), 1);
	assert_line(&l[0], "", 1);
	assert_int_equal(collect_lines("\n\n\n", 3, l, 4), 3);
	assert_line(&l[2], "", 3);
}

static void test_lines_respect_len(void **state)
{
	/* Only the first len bytes are a file: the rest must not be seen. */
	static const char buf[] = "one\ntwo\nthree\n";
	struct line l[4];

	assert_int_equal(collect_lines(buf, 6, l, 4), 2);
	assert_line(&l[0], "one", 1);
	assert_line(&l[1], "tw", 2);
}

static void test_lines_after_end(void **state)
{
	struct line_iter it;
	struct line l;

	line_iter_init(&it, "x\n", 2);
	assert_true(line_iter_next(&it, &l));
	assert_false(line_iter_next(&it, &l));
	assert_false(line_iter_next(&it, &l)); /* stays exhausted */
}

static void test_lines_carriage_return_kept(void **state)
{
	/* The kernel never writes "\r\n": a '\r' is content, not a separator. */
	struct line l[2];

	assert_int_equal(collect_lines("a\r\nb\n", 5, l, 2), 2);
	assert_line(&l[0], "a\r", 1);
	assert_line(&l[1], "b", 2);
}

/* ---- text_has_nul ---- */

static void test_has_nul(void **state)
{
	static const char bin[] = { 'a', 'b', '\0', 'c' };

	assert_false(text_has_nul("plain text\n", 11));
	assert_false(text_has_nul("", 0));
	assert_true(text_has_nul(bin, sizeof(bin)));
	assert_true(text_has_nul("\0", 1));
	/* Only [buf, buf+len) counts: the string's terminator is outside. */
	assert_false(text_has_nul("ab", 2));
	assert_false(text_has_nul(bin, 2));
	assert_true(text_has_nul(bin, 3));
}

/* ---- parse_u64 ---- */

static int parse(const char *s, unsigned base, uint64_t *v)
{
	return parse_u64(s, strlen(s), base, v);
}

static void test_parse_dec(void **state)
{
	uint64_t v = 99;

	assert_int_equal(parse("0", 10, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(parse("42", 10, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(parse("000123", 10, &v), 0);
	assert_int_equal(v, 123);
	assert_int_equal(parse("4294967296", 10, &v), 0);
	assert_int_equal(v, 4294967296ull);
}

static void test_parse_hex(void **state)
{
	uint64_t v = 0;

	assert_int_equal(parse("ff", 16, &v), 0);
	assert_int_equal(v, 0xff);
	assert_int_equal(parse("DeadBeef", 16, &v), 0);
	assert_int_equal(v, 0xdeadbeef);
	assert_int_equal(parse("0x40000000", 16, &v), 0);
	assert_int_equal(v, 0x40000000);
	assert_int_equal(parse("0X1f", 16, &v), 0);
	assert_int_equal(v, 0x1f);
	assert_int_equal(parse("00000000bfffffff", 16, &v), 0);
	assert_int_equal(v, 0xbfffffff);
	/* A lone "0" in base 16 is zero, not the start of a prefix. */
	assert_int_equal(parse("0", 16, &v), 0);
	assert_int_equal(v, 0);
}

static void test_parse_prefix_only_in_base16(void **state)
{
	uint64_t v = 7;

	assert_int_equal(parse("0x10", 10, &v), -EINVAL);
	assert_int_equal(v, 7);
	/* "0x" with no digits is not a number. */
	assert_int_equal(parse("0x", 16, &v), -EINVAL);
	assert_int_equal(v, 7);
	/* Only one prefix. */
	assert_int_equal(parse("0x0x1", 16, &v), -EINVAL);
	assert_int_equal(v, 7);
}

static void test_parse_empty(void **state)
{
	uint64_t v = 7;

	assert_int_equal(parse_u64("", 0, 10, &v), -EINVAL);
	assert_int_equal(parse_u64("", 0, 16, &v), -EINVAL);
	/* len 0 of a non-empty string: still nothing to parse. */
	assert_int_equal(parse_u64("123", 0, 10, &v), -EINVAL);
	assert_int_equal(v, 7);
}

static void test_parse_non_digits(void **state)
{
	static const char *const bad10[] = { "12a", "a", "-1", "+1", " 1", "1 ", "1.5", "1\n", "½" };
	static const char *const bad16[] = { "g", "0xg", "-1", "+1", " ff", "ff ", "fg", "0x 1" };
	uint64_t v = 7;

	for (size_t i = 0; i < sizeof(bad10) / sizeof(bad10[0]); i++)
		assert_int_equal(parse(bad10[i], 10, &v), -EINVAL);
	for (size_t i = 0; i < sizeof(bad16) / sizeof(bad16[0]); i++)
		assert_int_equal(parse(bad16[i], 16, &v), -EINVAL);
	assert_int_equal(v, 7); /* untouched on failure */
}

static void test_parse_respects_len(void **state)
{
	uint64_t v = 0;

	/* "123abc" cut after 3 bytes is "123". */
	assert_int_equal(parse_u64("123abc", 3, 10, &v), 0);
	assert_int_equal(v, 123);
	assert_int_equal(parse_u64("0x1000-0x2000", 6, 16, &v), 0);
	assert_int_equal(v, 0x1000);
}

static void test_parse_max_and_overflow_dec(void **state)
{
	uint64_t v = 7;

	assert_int_equal(parse("18446744073709551615", 10, &v), 0);
	assert_int_equal(v, UINT64_MAX);
	v = 7;
	assert_int_equal(parse("18446744073709551616", 10, &v), -ERANGE); /* 2^64 */
	assert_int_equal(v, 7);
	assert_int_equal(parse("18446744073709551620", 10, &v), -ERANGE);
	assert_int_equal(parse("99999999999999999999", 10, &v), -ERANGE);
	assert_int_equal(parse("184467440737095516150", 10, &v), -ERANGE);
	assert_int_equal(v, 7);
	/* Leading zeros do not count towards overflow. */
	assert_int_equal(parse("0000018446744073709551615", 10, &v), 0);
	assert_int_equal(v, UINT64_MAX);
}

static void test_parse_max_and_overflow_hex(void **state)
{
	uint64_t v = 7;

	assert_int_equal(parse("ffffffffffffffff", 16, &v), 0);
	assert_int_equal(v, UINT64_MAX);
	assert_int_equal(parse("0xFFFFFFFFFFFFFFFF", 16, &v), 0);
	assert_int_equal(v, UINT64_MAX);
	v = 7;
	assert_int_equal(parse("10000000000000000", 16, &v), -ERANGE); /* 2^64, 17 digits */
	assert_int_equal(parse("0x10000000000000000", 16, &v), -ERANGE);
	assert_int_equal(parse("fffffffffffffffff", 16, &v), -ERANGE);
	assert_int_equal(v, 7);
	assert_int_equal(parse("0000000000000000ffffffffffffffff", 16, &v), 0);
	assert_int_equal(v, UINT64_MAX);
}

/* ---- skip_blanks, token_len ---- */

static void test_skip_blanks(void **state)
{
	static const char s[] = " \t  x y";
	const char *end = s + sizeof(s) - 1;

	assert_ptr_equal(skip_blanks(s, end), s + 4);
	assert_ptr_equal(skip_blanks(s + 4, end), s + 4);
	assert_ptr_equal(skip_blanks(s + 5, end), s + 6);
	/* Never past end, even when blanks continue. */
	assert_ptr_equal(skip_blanks(s, s + 2), s + 2);
	assert_ptr_equal(skip_blanks(end, end), end);
}

static void test_skip_blanks_newline(void **state)
{
	/* A newline is not a blank. */
	static const char s[] = "\n x";

	assert_ptr_equal(skip_blanks(s, s + 3), s);
}

static void test_token_len(void **state)
{
	static const char s[] = "spanned  4095\tx";
	const char *end = s + sizeof(s) - 1;

	assert_int_equal(token_len(s, end), 7);
	assert_int_equal(token_len(s + 9, end), 4);
	assert_int_equal(token_len(s + 14, end), 1);
	assert_int_equal(token_len(s + 7, end), 0);
	assert_int_equal(token_len(end, end), 0);
	assert_int_equal(token_len(s, s + 3), 3); /* bounded by end */
}

/* One path component, as a driver name or a sandbox file name must be. */
static void test_filename_is_plain(void **state)
{
	assert_true(filename_is_plain("nvme"));
	assert_true(filename_is_plain("..."));
	assert_true(filename_is_plain(".hidden"));
	assert_false(filename_is_plain(""));
	assert_false(filename_is_plain("."));
	assert_false(filename_is_plain(".."));
	assert_false(filename_is_plain("../x"));
	assert_false(filename_is_plain("a/b"));
	assert_false(filename_is_plain("x/"));
}

/* pci_name()'s "dddd:bb:dd.f", and lspci's "bb:dd.f": cli-parse and proc/iomem share it. */
static void test_is_pci_address(void **state)
{
	(void)state;
	assert_true(text_is_pci_address("0000:00:1f.2", 12, true));
	assert_true(text_is_pci_address("10de:c1:00.7", 12, true));
	assert_true(text_is_pci_address("00:1F.2", 7, false));
	assert_false(text_is_pci_address("00:1f.2", 7, true));
	assert_false(text_is_pci_address("0000:00:1f.2", 12, false));
	assert_false(text_is_pci_address("0000:00:1f.8", 12, true)); /* a function is 0-7 */
	assert_false(text_is_pci_address("0000-00:1f.2", 12, true));
	assert_false(text_is_pci_address("000g:00:1f.2", 12, true));
	assert_false(text_is_pci_address("0000:00:1f:2", 12, true));
	assert_false(text_is_pci_address("0000:00:1f.2", 11, true));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_basic),
		cmocka_unit_test(test_lines_no_final_newline),
		cmocka_unit_test(test_lines_empty_buffer),
		cmocka_unit_test(test_lines_only_newlines),
		cmocka_unit_test(test_lines_respect_len),
		cmocka_unit_test(test_lines_after_end),
		cmocka_unit_test(test_lines_carriage_return_kept),
		cmocka_unit_test(test_has_nul),
		cmocka_unit_test(test_parse_dec),
		cmocka_unit_test(test_parse_hex),
		cmocka_unit_test(test_parse_prefix_only_in_base16),
		cmocka_unit_test(test_parse_empty),
		cmocka_unit_test(test_parse_non_digits),
		cmocka_unit_test(test_parse_respects_len),
		cmocka_unit_test(test_parse_max_and_overflow_dec),
		cmocka_unit_test(test_parse_max_and_overflow_hex),
		cmocka_unit_test(test_skip_blanks),
		cmocka_unit_test(test_skip_blanks_newline),
		cmocka_unit_test(test_token_len),
		cmocka_unit_test(test_filename_is_plain),
		cmocka_unit_test(test_is_pci_address),
	};

	return cmocka_run_group_tests_name("text", tests, NULL, NULL);
}
