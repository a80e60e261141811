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
#include "analysis/model.h"
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

/* The memory block of a report with one RAM range and this lowmem; the rest as given. */
static char *memory_block(struct report *r, const struct ram_range *ram, uint64_t low_end_pfn)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct layout *l = &r->layout;
	const struct render_options o = { 0 };

	assert_non_null(out);
	l->source = LAYOUT_SOURCE_IOMEM;
	l->page_size = 4096;
	l->page_shift = 12;
	l->ranges = (struct ram_range *)ram;
	l->n_ranges = 1;
	l->ram_bytes = ram->end - ram->start + 1;
	l->base_pfn = ram->start >> 12;
	l->end_pfn = (ram->end + 1) >> 12;
	l->lowmem = (struct lowmem){ .known = true, .end_pfn = low_end_pfn, .source = "test",
				     .page_count = low_end_pfn - l->base_pfn,
				     .max_low_pfn_as_count = low_end_pfn - l->base_pfn,
				     .max_low_pfn_as_pfn = low_end_pfn,
				     .highmem_bytes = (l->end_pfn - low_end_pfn) << 12 };
	text_print_memory(out, r, &o, 0); /* width 0: one line a sentence */
	return captured(out, &buf);
}

/*
 * The max_low_pfn line (issue 38): where the kernel keeps the PFN, why the
 * count differs (x86: the firmware's page 0; elsewhere RAM's base); where it
 * keeps the count, what it costs or why it costs nothing. Numbers by hand.
 */
static void test_memory_confusion_line(void **state)
{
	static const struct ram_range x86 = { 0x1000, 0xbfffffff };     /* PFN 0x1-0xbffff */
	static const struct ram_range arm = { 0x40000000, 0xbfffffff }; /* PFN 0x40000-0xbffff */
	static const struct ram_range arm256 = { 0xc0000000, 0xcfffffff };
	struct report r = { .release = KV(6, 1, 0), .arch_family = ARCH_X86,
			    .max_low_pfn_reading = MAX_LOW_PFN_PFN };
	char *s;
	(void)state;

	/* x86: PFN 0xc0000 is the end of lowmem; counted from page 1 it is 0xbffff */
	s = memory_block(&r, &x86, 0xc0000);
	assert_non_null(strstr(s, "max_low_pfn is a page frame number on this kernel (0xc0000), the unit "
				  "the block layer compares it in: the confusion does not apply."));
	assert_non_null(strstr(s, "it would be 0xbffff, 1 page fewer, only because the firmware keeps page 0"));
	assert_null(strstr(s, "short"));
	free(s);

	/* 32-bit ARM 5.10: 0x6f800 as a PFN, 0x6f800 - 0x40000 = 0x2f800 as a count */
	r.arch_family = ARCH_ARM;
	r.release = KV(5, 10, 0);
	s = memory_block(&r, &arm, 0x6f800);
	assert_non_null(strstr(s, "it would be 0x2f800, 0x40000 pages fewer: one for each page frame below RAM"));
	assert_null(strstr(s, "firmware"));
	free(s);

	/* 3.3 keeps the count: 0x2f800 lowmem pages bounce only for it (760 MiB) */
	r.release = KV(3, 3, 0);
	r.max_low_pfn_reading = MAX_LOW_PFN_COUNT;
	r.confusion = (struct confusion_cost){ .applies = true, .bounce_high_known = true,
					       .bounce_high_differs = true, .highmem = true,
					       .devices = 1, .devices_differ = 1,
					       .count_reading_only_bytes = 0x2f800ull * 4096 };
	s = memory_block(&r, &arm, 0x6f800);
	assert_non_null(strstr(s, "this kernel keeps max_low_pfn as a page count (0x2f800) where the block "
				  "layer compares page frame numbers (0x6f800): the confusion applies: it makes "
				  "the block layer bounce 760 MiB more for the disks of 1 device"));
	free(s);

	/* a mask 0xc3ffffff on 256 MiB at 0xc0000000: 0xc000 pages left unbounced */
	r.confusion = (struct confusion_cost){ .applies = true, .bounce_high_known = true,
					       .devices = 1, .devices_differ = 1,
					       .count_reading_missed_bytes = 0xc000ull * 4096 };
	s = memory_block(&r, &arm256, 0xd0000);
	assert_non_null(strstr(s, "it makes the block layer leave 192 MiB unbounced for the disks of 1 device"));
	assert_null(strstr(s, "more"));
	free(s);

	/* a decision that differs by reading, the bytes alike (the ISA path against none above) */
	r.confusion = (struct confusion_cost){ .applies = true, .bounce_high_known = true,
					       .devices = 2, .devices_differ = 2 };
	s = memory_block(&r, &arm256, 0xd0000);
	assert_non_null(strstr(s, "it changes how the block layer bounces for the disks of 2 devices, "
				  "though not how much"));
	free(s);

	/* no queue decides differently: why, with and without a listed disk */
	r.confusion = (struct confusion_cost){ .applies = true, .bounce_high_known = true };
	s = memory_block(&r, &arm256, 0xd0000);
	assert_non_null(strstr(s, "the confusion applies, but changes no bounce decision here: with no high "
				  "memory, a queue without a DMA mask bounces nothing under either reading, "
				  "and no disk's queue is listed"));
	free(s);
	r.confusion.devices = 1;
	s = memory_block(&r, &arm256, 0xd0000);
	assert_non_null(strstr(s, "and the listed device's disks bounce the same pages under either reading"));
	free(s);
	r.confusion.devices = 2;
	s = memory_block(&r, &arm256, 0xd0000);
	assert_non_null(strstr(s, "and the 2 listed devices' disks bounce the same pages"));
	free(s);

	/* only a queue without a mask would differ, and no listed disk has one */
	r.confusion = (struct confusion_cost){ .applies = true, .bounce_high_known = true,
					       .bounce_high_differs = true, .highmem = true, .devices = 1 };
	s = memory_block(&r, &arm, 0x6f800);
	assert_non_null(strstr(s, "the confusion applies to a disk without a DMA mask (see "
				  "pfn-count-confusion), but no listed disk's queue decides differently"));
	free(s);

	/* not applying (the analysis says so): the line stops at "applies" */
	r.confusion = (struct confusion_cost){ 0 };
	s = memory_block(&r, &arm, 0x6f800);
	assert_non_null(strstr(s, "(0x6f800): the confusion applies\n"));
	free(s);
}

/* "partial, 2 GiB (760 MiB of it ...)": the device line carries the count's share. */
static void test_summary_confusion_share(void **state)
{
	static const struct {
		enum kernel_model model;
		enum verdict verdict;
		uint64_t total, only, missed;
		const char *want; /* NULL: no share said */
	} cases[] = {
		{ KERNEL_MODEL_LEGACY_BLOCK, VERDICT_PARTIAL, 2ull << 30, 0x2f800ull * 4096, 0,
		  "partial, 2 GiB (760 MiB of it bounced only because max_low_pfn is read as a page count): why" },
		{ KERNEL_MODEL_LEGACY_BLOCK, VERDICT_FAILS, 0xc000ull * 4096, 0, 0xc000ull * 4096,
		  "fails, 192 MiB (all of it left unbounced only because max_low_pfn is read as a page count): why" },
		{ KERNEL_MODEL_LEGACY_BLOCK, VERDICT_PARTIAL, 256ull << 20, 0, 0, NULL },
		{ KERNEL_MODEL_DMA_DIRECT, VERDICT_PARTIAL, 2ull << 30, 0x2f800ull * 4096, 0, NULL },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct device dev = { .id = (char *)"c8000000.mmc", .driver = (char *)"mmc-test" };
		struct legacy_result lr = { .known = true, .kernel_reading = MAX_LOW_PFN_COUNT,
					    .count_reading_only_bytes = cases[i].only,
					    .count_reading_missed_bytes = cases[i].missed };
		struct device_report dr = { .dev = &dev, .legacy = &lr, .reason = "why",
					    .kernel_model = cases[i].model, .verdict = cases[i].verdict };
		struct report r = { .devices = { .devices = &dr, .n_devices = 1 } };
		const struct render_options o = { 0 };
		char *buf = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&buf, &len);

		assert_non_null(out);
		opt_set(&dr.unreachable_ram_bytes, cases[i].total);
		assert_int_equal(text_print_summary(out, &r, &o, 0), 0);
		char *s = captured(out, &buf);
		if (cases[i].want && !strstr(s, cases[i].want))
			fail_msg("case %zu: \"%s\" not in:\n%s", i, cases[i].want, s);
		if (!cases[i].want && strstr(s, "max_low_pfn"))
			fail_msg("case %zu: a share said:\n%s", i, s);
		free(s);
	}
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
		cmocka_unit_test(test_memory_confusion_line),
		cmocka_unit_test(test_summary_confusion_share),
		cmocka_unit_test(test_rfc3339_by_hand),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
