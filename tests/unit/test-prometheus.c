/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * src/render/prometheus.c on hand-made reports: the exact text of a report
 * that knows nothing, label escaping and UTF-8 repair, findings counted and
 * sorted, machine-wide ones apart, the --observe window, unknown values left
 * out, a failed run's reason, write errors returned.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "render/render.h"

/* Everything render_prometheus() printed, NUL-terminated; free() it. */
static char *render(const struct machine *m, const struct report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(render_prometheus(f, m, r), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* A report that knows nothing: layout and swiotlb unknown, no device. */
static void empty_report(struct report *r)
{
	memset(r, 0, sizeof(*r));
	r->layout.source = LAYOUT_SOURCE_NONE;
	r->swiotlb.active = TRI_UNKNOWN;
	r->exit_status = EXIT_CLEAN;
	r->generated_at = (struct opt_i64)OPT(1796411912); /* 2026-12-04T19:18:32Z */
}

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return true;
	return false;
}

static void test_nothing_known(void **state)
{
	struct machine m = { 0 };
	struct report r;
	(void)state;

	empty_report(&r);
	char *out = render(&m, &r);
	assert_string_equal(out,
		"# HELP dmamask_info dmamask-audit version and the audited kernel; always 1.\n"
		"# TYPE dmamask_info gauge\n"
		"dmamask_info{version=\"" PACKAGE_VERSION "\",kernel_release=\"\",arch=\"\"} 1\n"
		"# HELP dmamask_swiotlb_forced 1 when every dma-direct mapping bounces whatever the mask.\n"
		"# TYPE dmamask_swiotlb_forced gauge\n"
		"dmamask_swiotlb_forced 0\n"
		"# HELP dmamask_devices DMA devices by verdict.\n"
		"# TYPE dmamask_devices gauge\n"
		"dmamask_devices{verdict=\"direct\"} 0\n"
		"dmamask_devices{verdict=\"iommu\"} 0\n"
		"dmamask_devices{verdict=\"partial\"} 0\n"
		"dmamask_devices{verdict=\"forced\"} 0\n"
		"dmamask_devices{verdict=\"fails\"} 0\n"
		"dmamask_devices{verdict=\"idle\"} 0\n"
		"dmamask_devices{verdict=\"unknown\"} 0\n"
		"# HELP dmamask_inputs Kernel interfaces the audit tried to read, by outcome.\n"
		"# TYPE dmamask_inputs gauge\n"
		"dmamask_inputs{status=\"ok\"} 0\n"
		"dmamask_inputs{status=\"missing\"} 0\n"
		"dmamask_inputs{status=\"denied\"} 0\n"
		"dmamask_inputs{status=\"invalid\"} 0\n"
		"# HELP dmamask_exit_status Exit status of the run: 0 clean, 1 findings at --fail-on, 2 fatal.\n"
		"# TYPE dmamask_exit_status gauge\n"
		"dmamask_exit_status 0\n"
		"# HELP dmamask_report_timestamp_seconds When the report these metrics come from was made (a "
		"failed run keeps the last), in seconds since the epoch.\n"
		"# TYPE dmamask_report_timestamp_seconds gauge\n"
		"dmamask_report_timestamp_seconds 1796411912\n"
		"# HELP dmamask_last_run_success 1 when the last run produced a report, 0 when it failed.\n"
		"# TYPE dmamask_last_run_success gauge\n"
		"dmamask_last_run_success 1\n"
		"# HELP dmamask_last_run_timestamp_seconds When the last run ended, in seconds since the epoch.\n"
		"# TYPE dmamask_last_run_timestamp_seconds gauge\n"
		"dmamask_last_run_timestamp_seconds 1796411912\n");
	free(out);
}

static char *failure_why(int64_t now, const char *reason, const char *previous)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	struct opt_i64 when = { .v = now, .known = now >= 0 };

	assert_int_equal(render_prometheus_failure(f, when, reason, previous, previous ? strlen(previous) : 0), 0);
	fclose(f);
	return buf;
}

static char *failure(int64_t now, const char *previous)
{
	return failure_why(now, "sysroot", previous);
}

#define FAIL_TAIL(report_line)                                                                   \
	"# HELP dmamask_exit_status Exit status of the run: 0 clean, 1 findings at --fail-on, 2 fatal.\n" \
	"# TYPE dmamask_exit_status gauge\n"                                                     \
	"dmamask_exit_status 2\n"                                                                \
	report_line                                                                              \
	"# HELP dmamask_last_run_success 1 when the last run produced a report, 0 when it failed.\n" \
	"# TYPE dmamask_last_run_success gauge\n"                                                \
	"dmamask_last_run_success 0\n"                                                           \
	"# HELP dmamask_last_run_failure_info Why the last run failed (absent when it did not); always 1.\n" \
	"# TYPE dmamask_last_run_failure_info gauge\n"                                           \
	"dmamask_last_run_failure_info{reason=\"sysroot\"} 1\n"                                  \
	"# HELP dmamask_last_run_timestamp_seconds When the last run ended, in seconds since the epoch.\n" \
	"# TYPE dmamask_last_run_timestamp_seconds gauge\n"                                      \
	"dmamask_last_run_timestamp_seconds 1796411912\n"

#define REPORT_HEAD                                                                              \
	"# HELP dmamask_report_timestamp_seconds When the report these metrics come from was made (a " \
	"failed run keeps the last), in seconds since the epoch.\n"                              \
	"# TYPE dmamask_report_timestamp_seconds gauge\n"

/* A run that failed: the last report's metrics, dated, then its exit status, success 0 and when. */
static void test_failure(void **state)
{
	static const char last[] =
		"# HELP dmamask_device_verdict A judged DMA device and its verdict; always 1.\n"
		"# TYPE dmamask_device_verdict gauge\n"
		"dmamask_device_verdict{device=\"0000:00:1f.2\",driver=\"ahci\",verdict=\"fails\"} 1\n"
		"# HELP dmamask_exit_status Exit status of the run: 0 clean, 1 findings at --fail-on, 2 fatal.\n"
		"# TYPE dmamask_exit_status gauge\n"
		"dmamask_exit_status 1\n"
		"# HELP dmamask_last_run_success 1 when the last run produced a report, 0 when it failed.\n"
		"# TYPE dmamask_last_run_success gauge\n"
		"dmamask_last_run_success 1\n"
		"# HELP dmamask_last_run_timestamp_seconds When the last run ended, in seconds since the epoch.\n"
		"# TYPE dmamask_last_run_timestamp_seconds gauge\n"
		"dmamask_last_run_timestamp_seconds 1796400000\n";
	char *out;
	(void)state;

	/* nothing before: the failure alone, no report date */
	out = failure(1796411912, NULL);
	assert_string_equal(out, FAIL_TAIL(""));
	free(out);
	/* a good run's file (from before the report date existed): kept, dated by its run */
	out = failure(1796411912, last);
	assert_string_equal(out,
		"# HELP dmamask_device_verdict A judged DMA device and its verdict; always 1.\n"
		"# TYPE dmamask_device_verdict gauge\n"
		"dmamask_device_verdict{device=\"0000:00:1f.2\",driver=\"ahci\",verdict=\"fails\"} 1\n"
		FAIL_TAIL(REPORT_HEAD "dmamask_report_timestamp_seconds 1796400000\n"));
	/* a second failure keeps the first report's date, not its own run's */
	char *again = failure(1796411912 + 900, out);
	assert_non_null(strstr(again, "\ndmamask_report_timestamp_seconds 1796400000\n"));
	assert_non_null(strstr(again, "\ndmamask_last_run_timestamp_seconds 1796412812\n"));
	assert_non_null(strstr(again, "verdict=\"fails\"} 1\n"));
	free(again);
	free(out);
	/* a file that is not only ours is not carried */
	out = failure(1796411912, "node_load1 3\n");
	assert_string_equal(out, FAIL_TAIL(""));
	free(out);
	out = failure(1796411912, "# HELP dmamask_x y\nnode_load1 3\n");
	assert_string_equal(out, FAIL_TAIL(""));
	free(out);
}

/* The reason is one word of a fixed set: another failure's replaces it, free text never gets through. */
static void test_failure_reason(void **state)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "sysroot", "sysroot" },
		{ "not-a-snapshot", "not-a-snapshot" },
		{ "observe", "observe" },
		{ "capture", "capture" },
		{ "assume-mask", "assume-mask" },
		{ "selection", "selection" },
		{ "analysis", "analysis" },
		{ "out-of-memory", "out-of-memory" },
		{ NULL, "unknown" },
		{ "--sysroot /x: No such file or directory", "unknown" },
		{ "Sysroot", "unknown" },
	};
	char want[128];
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *first = failure_why(1796411912, "capture", NULL);
		char *out = failure_why(1796411912 + 900, cases[i].in, first);
		snprintf(want, sizeof(want), "\ndmamask_last_run_failure_info{reason=\"%s\"} 1\n", cases[i].want);
		if (!strstr(out, want))
			fail_msg("case %zu: no %s in\n%s", i, want, out);
		/* one family, one sample: the first failure's reason is not kept */
		char *p = strstr(out, "# TYPE dmamask_last_run_failure_info");
		assert_non_null(p);
		assert_null(strstr(p + 1, "# TYPE dmamask_last_run_failure_info"));
		assert_null(strstr(strstr(out, want) + 1, "\ndmamask_last_run_failure_info{"));
		free(out);
		free(first);
	}
	/* a good run has no failure family at all */
	struct machine m = { 0 };
	struct report r;
	empty_report(&r);
	char *good = render(&m, &r);
	assert_null(strstr(good, "failure"));
	free(good);
}

static void test_layout_known(void **state)
{
	struct machine m = { 0 };
	struct report r;
	(void)state;

	empty_report(&r);
	r.layout.source = LAYOUT_SOURCE_IOMEM;
	r.layout.ram_bytes = 1ull << 36;
	r.layout.base_pfn = 0xc0000;
	r.layout.end_pfn = 0x10c0000;
	/* lowmem unknown: no highmem, lowmem end or max_low_pfn, rather than zeros */
	char *out = render(&m, &r);
	assert_true(has_line(out, "dmamask_ram_bytes 68719476736"));
	assert_true(has_line(out, "dmamask_memory_base_pfn 786432"));
	assert_null(strstr(out, "dmamask_highmem_bytes"));
	assert_null(strstr(out, "dmamask_lowmem_end_pfn"));
	assert_null(strstr(out, "dmamask_max_low_pfn"));
	free(out);

	r.layout.lowmem.known = true;
	r.layout.lowmem.end_pfn = 0xf0000;
	r.layout.lowmem.max_low_pfn_as_count = 0x30000;
	r.layout.lowmem.max_low_pfn_as_pfn = 0xf0000;
	r.swiotlb.active = TRI_YES;
	r.swiotlb.size_bytes.known = true;
	r.swiotlb.size_bytes.v = 64ull << 20;
	out = render(&m, &r);
	assert_true(has_line(out, "dmamask_highmem_bytes 0"));
	assert_true(has_line(out, "dmamask_max_low_pfn{reading=\"count\"} 196608\n"
				  "dmamask_max_low_pfn{reading=\"pfn\"} 983040"));
	assert_true(has_line(out, "dmamask_swiotlb_active 1"));
	assert_true(has_line(out, "dmamask_swiotlb_size_bytes 67108864"));
	assert_null(strstr(out, "dmamask_swiotlb_used_bytes"));
	free(out);
}

static void test_label_escaping(void **state)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "plain.dev", "plain.dev" },
		{ "q\"b\\s\nn", "q\\\"b\\\\s\\nn" },
		{ "tab\tcr\r", "tab\tcr\xef\xbf\xbd" },                 /* a tab stays; a CR moves the cursor */
		{ "esc\x1b[31mbel\x07", "esc\xef\xbf\xbd[31mbel\xef\xbf\xbd" }, /* C0 controls */
		{ "del\x7f", "del\xef\xbf\xbd" },
		{ "c1\xc2\x85\xc2\x9b\"", "c1\xef\xbf\xbd\xef\xbf\xbd\\\"" }, /* NEL, CSI: one U+FFFD each */
		{ "nbsp\xc2\xa0", "nbsp\xc2\xa0" },                      /* the first character past C1 */
		{ "smile\xf0\x9f\x98\x80", "smile\xf0\x9f\x98\x80" },    /* valid 4-byte */
		{ "lone\xff", "lone\xef\xbf\xbd" },
		{ "overlong\xc0\xaf", "overlong\xef\xbf\xbd\xef\xbf\xbd" },
		{ "surrogate\xed\xa0\x80", "surrogate\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
		{ "above\xf4\x90\x80\x80", "above\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
		{ "cut\xe2\x82", "cut\xef\xbf\xbd\xef\xbf\xbd" },
		{ "cut\xe2\x82\"", "cut\xef\xbf\xbd\xef\xbf\xbd\\\"" },
	};
	struct machine m = { 0 };
	struct report r;
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct device d = { .id = (char *)cases[i].in, .driver = (char *)"drv\"", .dma_mask_bits = OPT(40) };
		struct device_report dr = { .dev = &d, .verdict = VERDICT_DIRECT, .dma_mask = OPT(0xffffffffff),
					    .mask_source = MASK_SOURCE_SYSFS, .mask_bits = OPT(40) };
		char want[256];

		empty_report(&r);
		r.devices.devices = &dr;
		r.devices.n_devices = 1;
		char *out = render(&m, &r);
		snprintf(want, sizeof(want),
			 "dmamask_device_dma_mask_bit_width{device=\"%s\",driver=\"drv\\\"\"} 40",
			 cases[i].want);
		if (!has_line(out, want))
			fail_msg("case %zu: no line\n%s\nin\n%s", i, want, out);
		free(out);
	}
}

static void test_devices(void **state)
{
	struct device d[3] = {
		{ .id = (char *)"0000:00:02.0", .driver = (char *)"nvme", .dma_mask_bits = OPT(64),
		  .iommu_type = (char *)"DMA-FQ", .have_pci_ids = true, .vendor = 0x144d, .device_id = 0xa808 },
		{ .id = (char *)"c8000000.mmc", .bus = DEV_BUS_PLATFORM },
		{ .id = (char *)"fe000000.dma", .bus = DEV_BUS_AMBA },
	};
	struct device_report dr[3] = {
		{ .dev = &d[0], .verdict = VERDICT_IOMMU, .dma_mask = OPT(UINT64_MAX),
		  .direct = { .reachable_bytes = 100, .known = true }, .unreachable_ram_bytes = OPT(0),
		  .mask_source = MASK_SOURCE_SYSFS, .mask_bits = OPT(64) },
		{ .dev = &d[1], .verdict = VERDICT_PARTIAL, .dma_mask = OPT(0x3fffffff),
		  .direct = { .reachable_bytes = 60, .unreachable_bytes = 40, .known = true },
		  .unreachable_ram_bytes = OPT(40), .mask_source = MASK_SOURCE_USER,
		  .mask_bits = OPT(30) }, /* as devices.c derives them: fls64(0x3fffffff) */
		{ .dev = &d[2], .verdict = VERDICT_UNKNOWN, .mask_source = MASK_SOURCE_NONE },
	};
	struct machine m = { 0 };
	struct report r;
	(void)state;

	empty_report(&r);
	r.devices.devices = dr;
	r.devices.n_devices = 3;
	char *out = render(&m, &r);
	assert_true(has_line(out, "dmamask_devices{verdict=\"iommu\"} 1"));
	assert_true(has_line(out, "dmamask_devices{verdict=\"partial\"} 1"));
	assert_true(has_line(out, "dmamask_devices{verdict=\"unknown\"} 1"));
	assert_true(has_line(out, "dmamask_devices{verdict=\"direct\"} 0"));
	/* the PCI id as lspci -n prints it, a fleet's label to count cards by; "" when not PCI */
	assert_true(has_line(out, "dmamask_device_verdict{device=\"0000:00:02.0\",driver=\"nvme\",pci_id=\"144d:a808\",verdict=\"iommu\"} 1"));
	assert_true(has_line(out, "dmamask_device_verdict{device=\"fe000000.dma\",driver=\"\",pci_id=\"\",verdict=\"unknown\"} 1"));
	/* a user mask without sysfs bits: its width, as the JSON report gives it */
	assert_true(has_line(out, "dmamask_device_dma_mask_bit_width{device=\"c8000000.mmc\",driver=\"\"} 30"));
	assert_true(has_line(out, "dmamask_device_unreachable_ram_bytes{device=\"0000:00:02.0\",driver=\"nvme\"} 0"));
	assert_true(has_line(out, "dmamask_device_reachable_ram_bytes{device=\"c8000000.mmc\",driver=\"\"} 60"));
	assert_true(has_line(out, "dmamask_device_unreachable_ram_bytes{device=\"c8000000.mmc\",driver=\"\"} 40"));
	/* the mask unknown: no reach and no width, rather than zeros */
	assert_null(strstr(out, "_bit_width{device=\"fe000000.dma\""));
	assert_null(strstr(out, "_ram_bytes{device=\"fe000000.dma\""));
	free(out);
}

static void test_findings_counted(void **state)
{
	static const struct {
		enum finding_case c;
		const char *device;
	} add[] = {
		{ FC_SWIOTLB_PRESSURE_PEAK, NULL },
		{ FC_BOUNCE_NEEDED, "0000:00:1f.2" },
		{ FC_PFN_COUNT_CONFUSION_NOT_AT_ZERO, NULL }, /* info */
		{ FC_BOUNCE_NEEDED, "0000:00:02.0" },
		{ FC_BOUNCE_NEEDED, "0000:00:1f.2" },
		{ FC_BOUNCE_IMPOSSIBLE, "0000:00:1f.2" },
		{ FC_PFN_COUNT_CONFUSION_STORED, NULL }, /* warning */
	};
	struct machine m = { 0 };
	struct report r;
	(void)state;

	empty_report(&r);
	for (size_t i = 0; i < sizeof(add) / sizeof(add[0]); i++) {
		struct finding *x = findings_raise(&r.findings, add[i].c, add[i].device, NULL);
		assert_non_null(x);
	}
	r.exit_status = EXIT_FINDINGS;
	char *out = render(&m, &r);
	/* by id, severity, device; one id twice for a device counts 2; machine-wide apart, no device label */
	assert_non_null(strstr(out,
		"# HELP dmamask_finding Findings about a device by id, severity and device: how many (usually 1).\n"
		"# TYPE dmamask_finding gauge\n"
		"dmamask_finding{id=\"bounce-impossible\",severity=\"error\",device=\"0000:00:1f.2\"} 1\n"
		"dmamask_finding{id=\"bounce-needed\",severity=\"warning\",device=\"0000:00:02.0\"} 1\n"
		"dmamask_finding{id=\"bounce-needed\",severity=\"warning\",device=\"0000:00:1f.2\"} 2\n"
		"# HELP dmamask_machine_finding Machine-wide findings (about no device) by id and severity: how "
		"many (usually 1).\n"
		"# TYPE dmamask_machine_finding gauge\n"
		"dmamask_machine_finding{id=\"pfn-count-confusion\",severity=\"info\"} 1\n"
		"dmamask_machine_finding{id=\"pfn-count-confusion\",severity=\"warning\"} 1\n"
		"dmamask_machine_finding{id=\"swiotlb-pressure\",severity=\"warning\"} 1\n"
		"# HELP dmamask_inputs "));
	assert_null(strstr(out, "dmamask_findings"));
	assert_null(strstr(out, "device=\"\""));
	assert_true(has_line(out, "dmamask_exit_status 1"));
	free(out);
	findings_done(&r.findings);
}

static void test_inputs_and_info(void **state)
{
	struct input in[] = {
		{ .path = (char *)"proc/iomem", .status = INPUT_OK },
		{ .path = (char *)"dev/kmsg", .status = INPUT_DENIED, .err = EACCES },
		{ .path = (char *)"proc/zoneinfo", .status = INPUT_OK },
		{ .path = (char *)"sys/kernel/debug/swiotlb", .status = INPUT_MISSING, .err = ENOENT },
	};
	struct machine m = { .inputs = in, .n_inputs = 4 };
	struct report r;
	(void)state;

	m.release.value = (char *)"6.1.0-27-amd64";
	m.arch.value = (char *)"x86_64";
	m.arch_info = arch_lookup(m.arch.value);
	empty_report(&r);
	char *out = render(&m, &r);
	assert_true(has_line(out, "dmamask_info{version=\"" PACKAGE_VERSION
				  "\",kernel_release=\"6.1.0-27-amd64\",arch=\"x86_64\"} 1"));
	assert_true(has_line(out, "dmamask_inputs{status=\"ok\"} 2"));
	assert_true(has_line(out, "dmamask_inputs{status=\"missing\"} 1"));
	assert_true(has_line(out, "dmamask_inputs{status=\"denied\"} 1"));
	assert_true(has_line(out, "dmamask_inputs{status=\"invalid\"} 0"));
	free(out);
}

/* The --observe window in seconds, to the millisecond, without printf's locale; none when not observed. */
static void test_observe_window(void **state)
{
	static const struct {
		double in;
		const char *want;
	} cases[] = {
		{ 5.0, "5" },
		{ 4.2, "4.2" },
		{ 10.25, "10.25" },
		{ 0.001, "0.001" },
		{ 0.0004, "0" },
		{ 2.9996, "3" },
	};
	struct machine m = { 0 };
	struct report r;
	char want[64];
	(void)state;

	empty_report(&r);
	char *out = render(&m, &r);
	assert_null(strstr(out, "window"));
	free(out);
	m.observed.present = true;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		m.observed.window_seconds = cases[i].in;
		out = render(&m, &r);
		snprintf(want, sizeof(want), "dmamask_observe_window_seconds %s", cases[i].want);
		if (!has_line(out, want))
			fail_msg("case %zu: no line %s in\n%s", i, want, out);
		free(out);
	}
	m.observed.window_seconds = -1; /* not a length: left out */
	out = render(&m, &r);
	assert_null(strstr(out, "window"));
	free(out);
}

static void test_write_error(void **state)
{
	struct machine m = { 0 };
	struct report r;
	FILE *f = fopen("/dev/full", "w");
	(void)state;

	if (!f)
		skip();
	setvbuf(f, NULL, _IONBF, 0);
	empty_report(&r);
	assert_int_equal(render_prometheus(f, &m, &r), -EIO);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nothing_known),
		cmocka_unit_test(test_layout_known),
		cmocka_unit_test(test_label_escaping),
		cmocka_unit_test(test_devices),
		cmocka_unit_test(test_findings_counted),
		cmocka_unit_test(test_inputs_and_info),
		cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_failure),
		cmocka_unit_test(test_failure_reason),
		cmocka_unit_test(test_observe_window),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
