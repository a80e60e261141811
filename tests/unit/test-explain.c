/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * src/analysis/explain.c on hand-made machines: the steps and their numbers
 * (computed here from the machine's inputs), the tables complete, every
 * template's placeholder filled, and an unknown verdict explained up to the
 * input that is missing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shortcuts.h"
#include "source-file.h"
#include "analysis/explain.h"
#include "analysis/report.h"
#include "render/explain-parts.h"

#define RAM_START 0x40000000ull
#define RAM_END 0x23fffffffull
#define WINDOW 0x80000000ull          /* the host bridge's dma-ranges: CPU = bus 0x0, this size */
#define POOL_START 0x7bfff000ull
#define POOL_END 0x7ffff000ull        /* exclusive, as the log prints it */

/* QEMU virt, 8 GiB at 0x40000000, 6.1 arm64; the log's pool. */
static void setup_virt(struct machine *m)
{
	static const struct ram_range ram = { RAM_START, RAM_END };

	machine_init(m);
	m->page_size = 4096;
	m->arch.value = strdup("aarch64");
	m->arch_info = arch_lookup(m->arch.value);
	m->release.value = strdup("6.1.0-27-arm64");
	m->ram = malloc(sizeof(ram));
	assert_non_null(m->ram);
	*m->ram = ram;
	m->n_ram = 1;
	m->iomem_ok = true;
	opt_set(&m->swiotlb.pool_start, POOL_START);
	opt_set(&m->swiotlb.pool_end, POOL_END);
}

/* A PCI function behind a host bridge whose dma-ranges are CPU = bus 0x0, WINDOW long. */
static struct device *add_pci(struct machine *m, const char *id, struct opt_int bits)
{
	struct device *d = machine_add_device(m);
	struct dt_info *dt;

	assert_non_null(d);
	d->id = strdup(id);
	d->syspath = strdup("sys/devices/platform/4010000000.pcie/pci0000:00/0000:00:01.0");
	d->driver = strdup("sym53c8xx");
	d->bus = DEV_BUS_PCI;
	d->dma_mask_bits = bits;
	d->have_pci_ids = true;
	d->class_code = 0x010000;
	dt = device_dt_new(d);
	assert_non_null(dt);
	dt->node = strdup("pcie@10000000");
	dt->chain = calloc(2, sizeof(*dt->chain));
	assert_non_null(dt->chain);
	dt->n_chain = 2;
	dt->chain[0].path = strdup("pcie@10000000");
	dt->chain[0].dma_ranges = DT_PROP_PRESENT;
	dt->chain[0].ranges = calloc(1, sizeof(*dt->chain[0].ranges));
	assert_non_null(dt->chain[0].ranges);
	dt->chain[0].ranges[0] = (struct dt_range){ .child = 0, .parent = 0, .size = WINDOW };
	dt->chain[0].n_ranges = 1;
	dt->chain[0].address_cells = 3;
	dt->chain[0].size_cells = 2;
	dt->chain[0].is_pci = true;
	dt->chain[1].path = strdup("");
	dt->chain[1].address_cells = 2;
	dt->chain[1].size_cells = 2;
	return d;
}

static const struct explain_step *step_of(const struct explain *e, enum explain_case c)
{
	for (size_t i = 0; i < e->n_steps; i++)
		if (e->steps[i].c == c)
			return &e->steps[i];
	static const struct explain_step none; /* fail_msg() does not return */

	fail_msg("no step %s", explain_case_to_string(c));
	return &none;
}

static uint64_t number(const struct explain_step *s, const char *name)
{
	for (size_t i = 0; i < s->n_numbers; i++)
		if (strcmp(s->n[i].name, name) == 0)
			return s->n[i].v;
	fail_msg("no number %s in step %s", name, explain_case_to_string(s->c));
	return 0;
}

/* Every placeholder of every step filled: no '{' left in its sentence. */
static void assert_sentences_filled(const struct explain *e)
{
	for (size_t i = 0; i < e->n_steps; i++) {
		struct strbuf b = { 0 };
		explain_append_sentence(&b, &e->steps[i], 12, false);
		char *t = strbuf_steal(&b);
		assert_non_null(t);
		if (strchr(t, '{'))
			fail_msg("step %s left a placeholder: %s", explain_case_to_string(e->steps[i].c), t);
		free(t);
	}
}

static void test_tables_complete(void **state)
{
	(void)state;
	for (int c = 0; c < _EXPLAIN_CASE_MAX; c++) {
		assert_non_null(explain_case_to_string(c));
		assert_non_null(explain_case_template(c));
		assert_non_null(explain_kind_to_string(explain_case_kind(c)));
		for (int d = 0; d < c; d++)
			assert_string_not_equal(explain_case_to_string(c), explain_case_to_string(d));
	}
	for (int k = 0; k < _EXPLAIN_KIND_MAX; k++)
		assert_non_null(explain_kind_to_string(k));
	for (int u = 0; u < _EXPLAIN_UNIT_MAX; u++)
		assert_non_null(explain_unit_to_string(u));
	for (int s = 0; s < _EXPLAIN_SRC_MAX; s++)
		assert_non_null(explain_source_template(s));
	assert_null(explain_case_template(_EXPLAIN_CASE_MAX));
	assert_int_equal(explain_case_kind(_EXPLAIN_CASE_MAX), _EXPLAIN_KIND_INVALID);
}

/* A 32-bit device behind a 2 GiB window: the window's end decides, the pool lies inside it. */
static void test_window_partial(void **state)
{
	struct machine m;
	struct report r;
	struct explain e;

	(void)state;
	setup_virt(&m);
	add_pci(&m, "0000:00:01.0", (struct opt_int)OPT(32));
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	assert_int_equal(explain_build(&r, &r.devices.devices[0], &e), 0);

	static const enum explain_case order[] = {
		EXPLAIN_MASK_SYSFS, EXPLAIN_BUS_LIMIT_DT, EXPLAIN_BUS_RANGE, EXPLAIN_TRANSLATION_REGION,
		EXPLAIN_CPU_REACH_WINDOW, EXPLAIN_RAM_PARTLY, EXPLAIN_RAM_TOTAL, EXPLAIN_POOL_IN_REACH,
		EXPLAIN_VERDICT, EXPLAIN_LIMITER_BUS_WINDOW,
	};
	assert_int_equal(e.n_steps, sizeof(order) / sizeof(*order));
	for (size_t i = 0; i < e.n_steps; i++)
		assert_int_equal(e.steps[i].c, order[i]);
	assert_null(e.missing);

	const struct explain_step *s = step_of(&e, EXPLAIN_MASK_SYSFS);
	assert_int_equal(number(s, "mask"), 0xffffffffull);
	assert_int_equal(number(s, "bits"), 32);
	s = step_of(&e, EXPLAIN_BUS_LIMIT_DT);
	assert_int_equal(number(s, "window_end"), WINDOW - 1);
	assert_int_equal(number(s, "limit"), WINDOW - 1); /* min_not_zero(0xffffffff, 0x7fffffff) */
	assert_int_equal(s->era, ERA_BUS_LIMIT);
	assert_non_null(strstr(s->kernel, "bus_dma_limit"));
	s = step_of(&e, EXPLAIN_TRANSLATION_REGION);
	assert_int_equal(number(s, "offset"), 0);
	assert_int_equal(number(s, "cpu_end"), WINDOW - 1);
	s = step_of(&e, EXPLAIN_CPU_REACH_WINDOW);
	assert_int_equal(number(s, "cpu_reach_end"), WINDOW - 1);
	s = step_of(&e, EXPLAIN_RAM_PARTLY);
	assert_int_equal(number(s, "reachable"), WINDOW - RAM_START);
	assert_int_equal(number(s, "unreachable"), RAM_END + 1 - WINDOW);
	assert_int_equal(number(s, "lowest_unreachable"), WINDOW);
	assert_int_equal(number(s, "bus_end"), WINDOW - 1);
	s = step_of(&e, EXPLAIN_POOL_IN_REACH);
	assert_int_equal(number(s, "pool_start"), POOL_START);
	assert_int_equal(number(s, "pool_end"), POOL_END - 1);
	assert_int_equal(number(s, "bus_end"), POOL_END - 1);
	s = step_of(&e, EXPLAIN_VERDICT);
	assert_string_equal(s->w[0].s, "partial");
	assert_string_equal(s->w[1].s, "VR_BOUNCES");
	assert_int_equal(number(s, "unreachable_ram_bytes"), RAM_END + 1 - WINDOW);
	assert_sentences_filled(&e);
	explain_done(&e);
	report_done(&r);
	machine_done(&m);
}

/* The pool past the window: out of reach, a bounce fails too. */
static void test_pool_out_of_reach(void **state)
{
	struct machine m;
	struct report r;
	struct explain e;

	(void)state;
	setup_virt(&m);
	opt_set(&m.swiotlb.pool_start, 0xfbfff000);
	opt_set(&m.swiotlb.pool_end, 0xffbff000);
	add_pci(&m, "0000:00:01.0", (struct opt_int)OPT(32));
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	assert_int_equal(explain_build(&r, &r.devices.devices[0], &e), 0);
	/* CPU = bus inside the window: the pool's end, 0xffbfefff, is no region's */
	const struct explain_step *s = step_of(&e, EXPLAIN_POOL_UNCOVERED);
	assert_int_equal(number(s, "pool_start"), 0xfbfff000);
	assert_string_equal(step_of(&e, EXPLAIN_VERDICT)->w[0].s, "fails");
	assert_sentences_filled(&e);
	explain_done(&e);
	report_done(&r);
	machine_done(&m);
}

/* No dma_mask_bits: explained up to the mask, which the missing step names. */
static void test_unknown_mask(void **state)
{
	struct machine m;
	struct report r;
	struct explain e;

	(void)state;
	setup_virt(&m);
	add_pci(&m, "0000:00:01.0", (struct opt_int){ 0 });
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	assert_int_equal(r.devices.devices[0].verdict, VERDICT_UNKNOWN);
	assert_int_equal(explain_build(&r, &r.devices.devices[0], &e), 0);
	assert_int_equal(e.n_steps, 3);
	assert_int_equal(e.steps[0].c, EXPLAIN_MISSING);
	assert_int_equal(e.steps[1].c, EXPLAIN_VERDICT);
	assert_int_equal(e.steps[2].c, EXPLAIN_LIMITER_UNKNOWN);
	assert_non_null(e.missing);
	assert_string_equal(e.missing, "the DMA mask");
	assert_string_equal(e.steps[1].w[1].s, "VR_NO_MASK_BITS");
	assert_sentences_filled(&e);
	explain_done(&e);
	report_done(&r);
	machine_done(&m);
}

/* No RAM ranges: the mask and the window are explained, then where RAM lies is missing. */
static void test_unknown_layout(void **state)
{
	struct machine m;
	struct report r;
	struct explain e;

	(void)state;
	setup_virt(&m);
	m.iomem_ok = false;
	m.n_ram = 0;
	add_pci(&m, "0000:00:01.0", (struct opt_int)OPT(32));
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	assert_int_equal(r.devices.devices[0].verdict, VERDICT_UNKNOWN);
	assert_int_equal(explain_build(&r, &r.devices.devices[0], &e), 0);
	step_of(&e, EXPLAIN_MASK_SYSFS);
	step_of(&e, EXPLAIN_TRANSLATION_REGION);
	assert_int_equal(e.steps[e.n_steps - 3].c, EXPLAIN_MISSING);
	assert_int_equal(e.steps[e.n_steps - 2].c, EXPLAIN_VERDICT);
	assert_int_equal(e.steps[e.n_steps - 1].c, EXPLAIN_LIMITER_UNKNOWN);
	assert_non_null(strstr(e.missing, "where RAM lies"));
	for (size_t i = 0; i < e.n_steps; i++)
		assert_int_not_equal(explain_case_kind(e.steps[i].c), EXPLAIN_KIND_RAM);
	assert_sentences_filled(&e);
	explain_done(&e);
	report_done(&r);
	machine_done(&m);
}

static void test_number_format(void **state)
{
	static const struct {
		struct explain_number n;
		const char *want;
	} cases[] = {
		{ { "a", 0xc0000000, EXPLAIN_UNIT_ADDRESS, EXPLAIN_SRC_COMPUTED, "x" }, "0xc0000000" },
		{ { "p", 0x2f800, EXPLAIN_UNIT_PFN, EXPLAIN_SRC_COMPUTED, "x" }, "0x2f800" },
		{ { "n", 0x40000, EXPLAIN_UNIT_PAGES, EXPLAIN_SRC_COMPUTED, "x" }, "0x40000 pages = 1 GiB" },
		{ { "d", (uint64_t)-0x40000000ll, EXPLAIN_UNIT_DELTA, EXPLAIN_SRC_COMPUTED, "x" }, "-0x40000000" },
		{ { "d", 0xc0000000, EXPLAIN_UNIT_DELTA, EXPLAIN_SRC_COMPUTED, "x" }, "+0xc0000000" },
		{ { "c", 64, EXPLAIN_UNIT_COUNT, EXPLAIN_SRC_COMPUTED, "x" }, "64" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct strbuf b = { 0 };
		explain_append_number(&b, &cases[i].n, 12, false);
		char *t = strbuf_steal(&b);
		assert_string_equal(t, cases[i].want);
		free(t);
	}
	struct strbuf b = { 0 };
	const struct explain_number n = { "w", 0, EXPLAIN_UNIT_ADDRESS, EXPLAIN_SRC_DT_DMA_RANGES, "soc" };
	explain_append_source(&b, &n);
	char *t = strbuf_steal(&b);
	assert_string_equal(t, "devicetree dma-ranges of soc");
	free(t);
}

/* The schema's definitions/explain names every case, kind and unit, and no case the table lacks. */
static void test_schema_knows_cases(void **state)
{
	char *text = slurp("schema/dmamask-audit.schema.json");
	const char *def = strstr(text, "\"explain\": {");
	char want[80];

	(void)state;
	assert_non_null(def);
	for (int c = 0; c < _EXPLAIN_CASE_MAX; c++) {
		snprintf(want, sizeof(want), "\"%s\"", explain_case_to_string(c));
		if (!strstr(def, want))
			fail_msg("the schema lacks case %s", want);
	}
	for (int k = 0; k < _EXPLAIN_KIND_MAX; k++) {
		snprintf(want, sizeof(want), "\"%s\"", explain_kind_to_string(k));
		assert_non_null(strstr(def, want));
	}
	for (int u = 0; u < _EXPLAIN_UNIT_MAX; u++) {
		snprintf(want, sizeof(want), "\"%s\"", explain_unit_to_string(u));
		assert_non_null(strstr(def, want));
	}
	/* the case enum's entries, one a line: as many as the table's */
	const char *e = strstr(strstr(def, "\"case\": {"), "\"enum\": [");
	assert_non_null(e);
	size_t n = 0;
	for (const char *p = e; *p && *p != ']'; p++)
		n += *p == '\n' && p[1] != '\0' && strchr(" ", p[1]) && strchr(p + 1, '"') < strchr(p + 1, '\n');
	assert_int_equal(n, _EXPLAIN_CASE_MAX);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables_complete),
		cmocka_unit_test(test_window_partial),
		cmocka_unit_test(test_pool_out_of_reach),
		cmocka_unit_test(test_unknown_mask),
		cmocka_unit_test(test_unknown_layout),
		cmocka_unit_test(test_number_format),
		cmocka_unit_test(test_schema_knows_cases),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
