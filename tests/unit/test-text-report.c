/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The text report's parts: findings grouped by cause, wrapping by display width. */
#include <errno.h>
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "analysis/findings.h"
#include "render/text-parts.h"
#include "render/text-util.h"
#include "shared/rfc3339.h"

/* What was written to f, an open_memstream onto *buf: malloc'd. */
static char *captured(FILE *f, char **buf)
{
	fclose(f);
	return *buf;
}

static void test_findings_grouped_by_cause(void **state)
{
	struct findings f = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	findings_raise(&f, FC_BOUNCE_NEEDED, "0000:00:1f.2", &(struct finding_args){ .bytes = 21ull << 30 });
	findings_raise(&f, FC_BOUNCE_NEEDED, "0000:00:1f.3", &(struct finding_args){ .bytes = 21ull << 30 });
	findings_raise(&f, FC_BOUNCE_NEEDED, "0000:00:1f.4", &(struct finding_args){ .bytes = 3ull << 30 });
	findings_raise(&f, FC_PFN_COUNT_CONFUSION_STORED, NULL, NULL);
	assert_int_equal(text_print_findings(out, &f, 0, false), 0);
	char *s = captured(out, &buf);
	/* the two alike are one block naming both; the third, another cause, its own */
	assert_non_null(strstr(s, "  warning bounce-needed (2 devices): 21 GiB of RAM is out of this device's"));
	assert_non_null(strstr(s, "          devices: 0000:00:1f.2, 0000:00:1f.3\n"));
	assert_non_null(strstr(s, "  warning bounce-needed 0000:00:1f.4: 3 GiB of RAM is out of this device's"));
	assert_non_null(strstr(s, "pfn-count-confusion: this kernel stores max_low_pfn"));
	assert_null(strstr(s, "bounce-needed 0000:00:1f.3"));
	free(s);
	findings_done(&f);
}

static void test_group_evidence_differs(void **state)
{
	struct findings f = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	findings_raise(&f, FC_BOUNCE_NEEDED, "a", &(struct finding_args){ .bytes = 1 << 20 });
	finding_add_u64(&f, &f.v[0], "unreachable_ram_bytes", 1);
	findings_raise(&f, FC_BOUNCE_NEEDED, "b", &(struct finding_args){ .bytes = 1 << 20 });
	finding_add_u64(&f, &f.v[1], "unreachable_ram_bytes", 2);
	assert_int_equal(text_print_findings(out, &f, 0, false), 0);
	char *s = captured(out, &buf);
	/* one block, but each device's own numbers: evidence is never merged away */
	assert_non_null(strstr(s, "(2 devices)"));
	assert_non_null(strstr(s, "evidence for a: unreachable_ram_bytes=1\n"));
	assert_non_null(strstr(s, "evidence for b: unreachable_ram_bytes=2\n"));
	free(s);
	findings_done(&f);
}

static void test_wrap_counts_display_columns(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	if (!setlocale(LC_ALL, "C.UTF-8"))
		skip();
	/* "ÄÄÄÄ" is 8 bytes but 4 columns: "x ÄÄÄÄ y" fits in 10 columns */
	out = open_memstream(&buf, &len);
	text_print_wrapped(out, "x \xc3\x84\xc3\x84\xc3\x84\xc3\x84 y", 0, 0, 10);
	char *s = captured(out, &buf);
	assert_string_equal(s, "x \xc3\x84\xc3\x84\xc3\x84\xc3\x84 y\n");
	free(s);
	assert_int_equal(text_display_width("\xc3\x84", 2), 1);
	assert_int_equal(text_display_width("\xe4\xb8\xad", 3), 2); /* a wide CJK character */
	assert_int_equal(text_display_width("\xff", 1), 1);        /* undecodable: one per byte */
	setlocale(LC_ALL, "C");
}

static void test_wrap_never_splits_a_word(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	text_print_wrapped(out, "aaaa 0x123456789abcdef bb", 0, 2, 8);
	char *s = captured(out, &buf);
	assert_string_equal(s, "aaaa\n  0x123456789abcdef\n  bb\n");
	free(s);
}

static void test_safe_escapes_outside_utf8_locale(void **state)
{
	struct strbuf b = { 0 };

	setlocale(LC_ALL, "C");
	text_append_safe(&b, "\xc3\x84 a\\b\n");
	char *s = strbuf_steal(&b);
	assert_string_equal(s, "\\xc3\\x84 a\\\\b\\x0a");
	free(s);
}

static void check_pages(uint64_t pages, unsigned shift, bool exact, const char *expected)
{
	struct strbuf b = { 0 };
	text_append_pages(&b, pages, shift, exact);
	char *s = strbuf_steal(&b);
	assert_string_equal(s, expected);
	free(s);
}

/* A page count in hex as PFNs are, its size beside it. */
static void test_pages_hex_and_size(void **state)
{
	check_pages(0x40000, 12, false, "0x40000 = 1 GiB");
	check_pages(0x2f800, 12, false, "0x2f800 = 760 MiB"); /* the 2013 board's lowmem */
	check_pages(0x40000, 16, false, "0x40000 = 16 GiB");  /* 64 KiB pages */
	check_pages(0x40000, 12, true, "0x40000 = 1073741824");
	check_pages(0, 12, false, "0x0");
	check_pages(0x40000, 0, false, "0x40000");      /* page size unknown: no size */
	check_pages((1ull << 52) - 1, 12, false, "0xfffffffffffff = 16 EiB"); /* 2^64 - 4 KiB */
	check_pages(1ull << 52, 12, false, "0x10000000000000"); /* 2^64 bytes: past a u64 */
	check_pages(UINT64_MAX, 12, false, "0xffffffffffffffff");
}

static void test_rfc3339_by_hand(void **state)
{
	char b[RFC3339_MAX];

	assert_int_equal(rfc3339_utc(0, b, sizeof(b)), 0);
	assert_string_equal(b, "1970-01-01T00:00:00Z");
	assert_int_equal(rfc3339_utc(1709164800, b, sizeof(b)), 0); /* a leap day */
	assert_string_equal(b, "2024-02-29T00:00:00Z");
	assert_int_equal(rfc3339_utc(1796411912, b, sizeof(b)), 0);
	assert_string_equal(b, "2026-12-04T19:18:32Z");
	assert_int_equal(rfc3339_utc(-1, b, sizeof(b)), 0);
	assert_string_equal(b, "1969-12-31T23:59:59Z");
	assert_int_equal(rfc3339_utc(253402300799, b, sizeof(b)), 0);
	assert_string_equal(b, "9999-12-31T23:59:59Z");
	assert_int_equal(rfc3339_utc(253402300800, b, sizeof(b)), -ERANGE);
	/* every day of four years against gmtime's answer */
	for (int64_t t = 1672531200; t < 1672531200 + 4 * 366 * 86400LL; t += 86400 + 3671) {
		time_t tt = (time_t)t;
		struct tm tm;
		char g[RFC3339_MAX];
		gmtime_r(&tt, &tm);
		strftime(g, sizeof(g), "%Y-%m-%dT%H:%M:%SZ", &tm);
		assert_int_equal(rfc3339_utc(t, b, sizeof(b)), 0);
		assert_string_equal(b, g);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_findings_grouped_by_cause),
		cmocka_unit_test(test_group_evidence_differs),
		cmocka_unit_test(test_wrap_counts_display_columns),
		cmocka_unit_test(test_wrap_never_splits_a_word),
		cmocka_unit_test(test_safe_escapes_outside_utf8_locale),
		cmocka_unit_test(test_pages_hex_and_size),
		cmocka_unit_test(test_rfc3339_by_hand),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
