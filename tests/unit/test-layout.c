/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/analysis/layout.c: PFNs, lowmem and max_low_pfn from a hand-built machine. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/layout.h"
#include "machine.h"

/* Each test's machine and layout, released by teardown even when an assert fails. */
struct ctx {
	struct machine m;
	struct layout l;
};

static int setup(void **state)
{
	struct ctx *c = calloc(1, sizeof(*c));

	if (!c)
		return -1;
	machine_init(&c->m);
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	struct ctx *c = *state;

	layout_done(&c->l);
	machine_done(&c->m);
	free(c);
	return 0;
}

static struct machine *machine_of(void **state)
{
	return &((struct ctx *)*state)->m;
}

static struct layout *layout_of(void **state)
{
	return &((struct ctx *)*state)->l;
}

/* A machine as the readers would leave it; ram and zones are copied. */
static void machine_setup(struct machine *m, const char *arch, unsigned page_size,
			  const struct ram_range *ram, size_t n_ram, const struct zone *zones,
			  size_t n_zones)
{
	machine_done(m); /* a test may set up several machines in turn */
	machine_init(m);
	m->page_size = page_size;
	m->page_size_prov = PROV_ASSUMED;
	if (arch) {
		m->arch.value = strdup(arch);
		m->arch_info = arch_lookup(m->arch.value);
		assert_non_null(m->arch.value);
		m->arch.prov = PROV_READ;
		m->arch.source = "proc/sys/kernel/arch";
	}
	if (ram) {
		m->ram = malloc(n_ram * sizeof(*ram));
		assert_non_null(m->ram);
		memcpy(m->ram, ram, n_ram * sizeof(*ram));
		m->n_ram = n_ram;
		m->iomem_ok = true;
	}
	if (zones) {
		m->zones = malloc(n_zones * sizeof(*zones));
		assert_non_null(m->zones);
		memcpy(m->zones, zones, n_zones * sizeof(*zones));
		m->n_zones = n_zones;
		m->zoneinfo_ok = true;
	}
}

static struct zone mkzone(int node, const char *name, uint64_t start_pfn, uint64_t spanned,
			  uint64_t present)
{
	struct zone z = { .node = node };

	strncpy(z.name, name, sizeof(z.name) - 1);
	z.populated = spanned > 0;
	z.start_pfn = z.populated ? start_pfn : 0;
	z.spanned = spanned;
	z.present = present;
	z.managed = present;
	return z;
}

/* ---- the worked example: RAM at 0xc0000000, a 26-bit device ---- */

static const struct ram_range arm_2013_ram[] = { { 0x40000000, 0xbfffffff } };

static void test_worked_example_2013(void **state)
{
	const struct zone zones[] = {
		mkzone(0, "Normal", 0x40000, 0x2f800, 0x2f800),
		mkzone(0, "HighMem", 0x6f800, 0x50800, 0x50800),
	};
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	machine_setup(m, "armv7l", 4096, arm_2013_ram, 1, zones, 2);
	assert_int_equal(layout_compute(m, l), 0);

	assert_int_equal(l->source, LAYOUT_SOURCE_IOMEM);
	assert_string_equal(layout_source_to_string(l->source), "iomem");
	assert_int_equal(l->page_size, 4096);
	assert_int_equal(l->page_shift, 12);
	assert_int_equal(l->n_ranges, 1);
	assert_int_equal(l->ranges[0].start, 0x40000000);
	assert_int_equal(l->ranges[0].end, 0xbfffffff);
	assert_ptr_not_equal(l->ranges, m->ram); /* a copy, not the machine's */
	assert_int_equal(l->ram_bytes, 0x80000000ull);
	assert_int_equal(l->base_pfn, 0x40000);
	assert_int_equal(l->end_pfn, 0xc0000);
	assert_true(l->lowmem.known);
	assert_non_null(l->lowmem.source);
	assert_int_equal(l->lowmem.end_pfn, 0x6f800);
	assert_int_equal(l->lowmem.page_count, 0x2f800);
	assert_int_equal(l->lowmem.max_low_pfn_as_count, 0x2f800); /* what 3.3 stored */
	assert_int_equal(l->lowmem.max_low_pfn_as_pfn, 0x6f800);   /* what 3.13+ stores */
	assert_int_equal(l->lowmem.highmem_bytes, 0x50800ull * 4096);
	assert_ptr_equal(l->zones, m->zones);
	assert_int_equal(l->n_zones, 2);
	/* The count-era max_pfn of the report: end_pfn - base_pfn. */
	assert_int_equal(l->end_pfn - l->base_pfn, 0x80000);

	layout_done(l);
	assert_null(l->ranges);
	assert_int_equal(l->n_ranges, 0);
	machine_done(m);
}

static void test_256m_at_c0000000_no_highmem(void **state)
{
	const struct ram_range ram[] = { { 0xc0000000, 0xcfffffff } };
	const struct zone zones[] = { mkzone(0, "Normal", 0xc0000, 0x10000, 0x10000) };
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	machine_setup(m, "armv5tel", 4096, ram, 1, zones, 1);
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->source, LAYOUT_SOURCE_IOMEM);
	assert_int_equal(l->base_pfn, 0xc0000);
	assert_int_equal(l->end_pfn, 0xd0000);
	assert_true(l->lowmem.known);
	assert_int_equal(l->lowmem.end_pfn, 0xd0000);
	assert_int_equal(l->lowmem.page_count, 0x10000);
	assert_int_equal(l->lowmem.max_low_pfn_as_count, 0x10000); /* blk_max_low_pfn 0xffff */
	assert_int_equal(l->lowmem.max_low_pfn_as_pfn, 0xd0000);
	assert_int_equal(l->lowmem.highmem_bytes, 0);
	assert_int_equal(l->ram_bytes, 256ull << 20);
	layout_done(l);
	machine_done(m);
}

static void test_unpopulated_highmem_ignored(void **state)
{
	/* A HighMem zone with no pages does not end lowmem. */
	const struct ram_range ram[] = { { 0xc0000000, 0xcfffffff } };
	const struct zone zones[] = {
		mkzone(0, "Normal", 0xc0000, 0x10000, 0x10000),
		mkzone(0, "HighMem", 0, 0, 0),
	};
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	machine_setup(m, "armv7l", 4096, ram, 1, zones, 2);
	assert_int_equal(layout_compute(m, l), 0);
	assert_true(l->lowmem.known);
	assert_int_equal(l->lowmem.end_pfn, 0xd0000);
	assert_int_equal(l->lowmem.highmem_bytes, 0);
	layout_done(l);
	machine_done(m);
}

static void test_first_highmem_zone_of_several(void **state)
{
	/* Two nodes with HighMem: lowmem ends where the lowest one starts. */
	const struct ram_range ram[] = { { 0x40000000, 0x7fffffff }, { 0x80000000, 0xffffffff } };
	const struct zone zones[] = {
		mkzone(0, "Normal", 0x40000, 0x2f800, 0x2f800),
		mkzone(0, "HighMem", 0x6f800, 0x10800, 0x10800),
		mkzone(1, "HighMem", 0x80000, 0x80000, 0x80000),
	};
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	/* Listed node 1 first: order must not matter. */
	struct zone swapped[3] = { zones[2], zones[0], zones[1] };
	machine_setup(m, "armv7l", 4096, ram, 2, swapped, 3);
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->lowmem.end_pfn, 0x6f800);
	assert_int_equal(l->base_pfn, 0x40000);
	assert_int_equal(l->end_pfn, 0x100000);
	assert_int_equal(l->lowmem.highmem_bytes, 0x100000000ull - 0x6f800000ull);
	layout_done(l);
	machine_done(m);
}

/* ---- x86_64, this machine ---- */

static const struct ram_range x86_ram[] = {
	{ 0x1000, 0x9fbff },
	{ 0x100000, 0xbfffffff },
	{ 0x100000000, 0x63fffffff },
};

static const uint64_t x86_ram_bytes =
	(0x9fbffull - 0x1000 + 1) + (0xbfffffffull - 0x100000 + 1) + (0x63fffffffull - 0x100000000 + 1);

static void test_x86_64_above_4g(void **state)
{
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	machine_setup(m, "x86_64", 4096, x86_ram, 3, NULL, 0);
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->source, LAYOUT_SOURCE_IOMEM);
	assert_int_equal(l->n_ranges, 3);
	assert_int_equal(l->base_pfn, 1);
	assert_int_equal(l->end_pfn, 0x640000);
	assert_int_equal(l->ram_bytes, x86_ram_bytes);
	assert_int_equal(l->ram_bytes, 0x9ec00ull + 0xbff00000ull + 0x540000000ull);
	/* 64-bit: no highmem, lowmem is all of RAM even without zoneinfo. */
	assert_true(l->lowmem.known);
	assert_int_equal(l->lowmem.end_pfn, 0x640000);
	assert_int_equal(l->lowmem.page_count, 0x640000 - 1);
	assert_int_equal(l->lowmem.max_low_pfn_as_pfn, 0x640000);
	assert_int_equal(l->lowmem.highmem_bytes, 0);
	assert_null(l->unknown_reason);
	layout_done(l);
	machine_done(m);
}

static const struct zone x86_zones[] = {
	{ .node = 0, .name = "DMA", .populated = true, .start_pfn = 1, .spanned = 4095,
	  .present = 3998, .managed = 3840 },
	{ .node = 0, .name = "DMA32", .populated = true, .start_pfn = 4096, .spanned = 1044480,
	  .present = 782336, .managed = 772818 },
	{ .node = 0, .name = "Normal", .populated = true, .start_pfn = 1048576, .spanned = 5505024,
	  .present = 5505024, .managed = 262144 },
	{ .node = 0, .name = "Movable" },
	{ .node = 0, .name = "Device" },
};

static void test_x86_64_iomem_and_zoneinfo(void **state)
{
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	machine_setup(m, "x86_64", 4096, x86_ram, 3, x86_zones, 5);
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->source, LAYOUT_SOURCE_IOMEM); /* iomem wins when usable */
	assert_int_equal(l->ram_bytes, x86_ram_bytes);
	assert_int_equal(l->base_pfn, 1);
	assert_int_equal(l->end_pfn, 0x640000);
	assert_true(l->lowmem.known);
	assert_int_equal(l->lowmem.end_pfn, 0x640000);
	assert_int_equal(l->lowmem.highmem_bytes, 0);
	layout_done(l);
	machine_done(m);
}

/* ---- zoneinfo as the only source ---- */

static void test_zoneinfo_only(void **state)
{
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	machine_setup(m, "x86_64", 4096, NULL, 0, x86_zones, 5);
	m->iomem_hidden = true; /* read as non-root */
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->source, LAYOUT_SOURCE_ZONEINFO);
	assert_string_equal(layout_source_to_string(l->source), "zoneinfo");
	/* DMA, DMA32 and Normal touch: one merged span from PFN 1 to 0x640000. */
	assert_int_equal(l->n_ranges, 1);
	assert_int_equal(l->ranges[0].start, 0x1000);
	assert_int_equal(l->ranges[0].end, 0x63fffffff);
	assert_int_equal(l->ram_bytes, (3998ull + 782336 + 5505024) * 4096);
	assert_int_equal(l->base_pfn, 1);
	assert_int_equal(l->end_pfn, 0x640000);
	assert_true(l->lowmem.known);
	assert_int_equal(l->lowmem.end_pfn, 0x640000);
	assert_int_equal(l->lowmem.highmem_bytes, 0);
	layout_done(l);
	machine_done(m);
}

static void test_zoneinfo_only_gaps_and_order(void **state)
{
	/* Spans that do not touch stay apart; zones in any order; unpopulated skipped. */
	const struct zone zones[] = {
		mkzone(1, "Normal", 0x880000, 0x80000, 0x7f000),
		mkzone(0, "Movable", 0, 0, 0),
		mkzone(0, "DMA32", 0x1000, 0xff000, 0x80000),
		mkzone(0, "Normal", 0x100000, 0x40000, 0x40000),
		mkzone(0, "DMA", 0x1, 0xfff, 0xf00),
	};
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	machine_setup(m, "x86_64", 4096, NULL, 0, zones, 5);
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->source, LAYOUT_SOURCE_ZONEINFO);
	assert_int_equal(l->n_ranges, 2);
	assert_int_equal(l->ranges[0].start, 0x1000);
	assert_int_equal(l->ranges[0].end, 0x13fffffffull);
	assert_int_equal(l->ranges[1].start, 0x880000000ull);
	assert_int_equal(l->ranges[1].end, 0x8ffffffffull);
	assert_int_equal(l->ram_bytes, (0x7f000ull + 0x80000 + 0x40000 + 0xf00) * 4096);
	assert_int_equal(l->base_pfn, 1);
	assert_int_equal(l->end_pfn, 0x900000);
	layout_done(l);
	machine_done(m);
}

static void test_zoneinfo_only_overlapping_spans(void **state)
{
	/* NUMA nodes can interleave: a span inside another merges into it. */
	const struct zone zones[] = {
		mkzone(0, "Normal", 0x100000, 0x100000, 0x80000),
		mkzone(1, "Normal", 0x140000, 0x10000, 0x10000),
		mkzone(1, "Movable", 0x1f0000, 0x20000, 0x20000),
	};
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	machine_setup(m, "aarch64", 4096, NULL, 0, zones, 3);
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->n_ranges, 1);
	assert_int_equal(l->ranges[0].start, 0x100000000ull);
	assert_int_equal(l->ranges[0].end, 0x20fffffffull);
	assert_int_equal(l->end_pfn, 0x210000);
	layout_done(l);
	machine_done(m);
}

static void test_zoneinfo_only_arm_highmem(void **state)
{
	/* Without iomem, highmem is counted from HighMem's present pages. */
	const struct zone zones[] = {
		mkzone(0, "Normal", 0x40000, 0x2f800, 0x2f800),
		mkzone(0, "HighMem", 0x6f800, 0x50800, 0x50000),
	};
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	machine_setup(m, "armv7l", 4096, NULL, 0, zones, 2);
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->source, LAYOUT_SOURCE_ZONEINFO);
	assert_int_equal(l->n_ranges, 1);
	assert_int_equal(l->ranges[0].start, 0x40000000);
	assert_int_equal(l->ranges[0].end, 0xbfffffff);
	assert_int_equal(l->base_pfn, 0x40000);
	assert_int_equal(l->end_pfn, 0xc0000);
	assert_int_equal(l->ram_bytes, (0x2f800ull + 0x50000) * 4096);
	assert_true(l->lowmem.known);
	assert_int_equal(l->lowmem.end_pfn, 0x6f800);
	assert_int_equal(l->lowmem.max_low_pfn_as_count, 0x2f800);
	assert_int_equal(l->lowmem.max_low_pfn_as_pfn, 0x6f800);
	assert_int_equal(l->lowmem.highmem_bytes, 0x50000ull * 4096);
	layout_done(l);
	machine_done(m);
}

static void test_zoneinfo_without_populated_zone(void **state)
{
	const struct zone zones[] = { mkzone(0, "Movable", 0, 0, 0) };
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	machine_setup(m, "x86_64", 4096, NULL, 0, zones, 1);
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->source, LAYOUT_SOURCE_NONE);
	assert_non_null(l->unknown_reason);
	assert_null(l->ranges);
	assert_int_equal(l->n_ranges, 0);
	assert_false(l->lowmem.known);
	layout_done(l);
	machine_done(m);
}

/* ---- nothing usable ---- */

static void test_no_source(void **state)
{
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	machine_setup(m, "armv7l", 4096, NULL, 0, NULL, 0);
	m->iomem_hidden = true;
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->source, LAYOUT_SOURCE_NONE);
	assert_string_equal(layout_source_to_string(l->source), "none");
	assert_non_null(l->unknown_reason);
	assert_null(l->ranges);
	assert_int_equal(l->n_ranges, 0);
	assert_int_equal(l->ram_bytes, 0);
	assert_false(l->lowmem.known);
	layout_done(l);
	machine_done(m);
}

static void test_iomem_usable_but_empty(void **state)
{
	/* No RAM range is no source, even with proc/iomem read. */
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	machine_setup(m, "armv7l", 4096, NULL, 0, NULL, 0);
	m->iomem_ok = true;
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->source, LAYOUT_SOURCE_NONE);
	assert_non_null(l->unknown_reason);
	layout_done(l);
	machine_done(m);
}

/* ---- where lowmem ends without zoneinfo ---- */

static void test_32bit_without_zoneinfo(void **state)
{
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	machine_setup(m, "armv7l", 4096, arm_2013_ram, 1, NULL, 0);
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->source, LAYOUT_SOURCE_IOMEM);
	assert_int_equal(l->base_pfn, 0x40000);
	assert_int_equal(l->end_pfn, 0xc0000);
	assert_false(l->lowmem.known);
	assert_non_null(l->unknown_reason);
	layout_done(l);
	machine_done(m);

	machine_setup(m, "i686", 4096, x86_ram, 2, NULL, 0);
	assert_int_equal(layout_compute(m, l), 0);
	assert_false(l->lowmem.known);
	assert_non_null(l->unknown_reason);
	layout_done(l);
	machine_done(m);
}

static void test_unknown_arch_without_zoneinfo(void **state)
{
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	machine_setup(m, "vax", 4096, arm_2013_ram, 1, NULL, 0);
	assert_int_equal(layout_compute(m, l), 0);
	assert_false(l->lowmem.known);
	assert_non_null(l->unknown_reason);
	layout_done(l);
	machine_done(m);

	machine_setup(m, NULL, 4096, arm_2013_ram, 1, NULL, 0);
	assert_int_equal(layout_compute(m, l), 0);
	assert_false(l->lowmem.known);
	assert_non_null(l->unknown_reason);
	layout_done(l);
	machine_done(m);
}

static void test_32bit_meminfo_high_total_zero(void **state)
{
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	machine_setup(m, "armv7l", 4096, arm_2013_ram, 1, NULL, 0);
	opt_set(&m->meminfo.mem_total, 0x80000000ull);
	opt_set(&m->meminfo.high_total, 0);
	assert_int_equal(layout_compute(m, l), 0);
	assert_true(l->lowmem.known);
	assert_int_equal(l->lowmem.end_pfn, 0xc0000);
	assert_int_equal(l->lowmem.page_count, 0x80000);
	assert_int_equal(l->lowmem.highmem_bytes, 0);
	layout_done(l);

	/* HighTotal non-zero says highmem exists but not where: still unknown. */
	opt_set(&m->meminfo.high_total, 0x50800000ull);
	assert_int_equal(layout_compute(m, l), 0);
	assert_false(l->lowmem.known);
	layout_done(l);
	machine_done(m);
}

static void test_64bit_without_zoneinfo(void **state)
{
	static const char *const arches[] = { "aarch64", "x86_64", "riscv64", "ppc64le", "s390x" };
	const struct ram_range ram[] = { { 0x80000000, 0x47fffffff } };

	for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); i++) {
		struct machine *m = machine_of(state);
		struct layout *l = layout_of(state);

		machine_setup(m, arches[i], 4096, ram, 1, NULL, 0);
		assert_int_equal(layout_compute(m, l), 0);
		assert_true(l->lowmem.known);
		assert_int_equal(l->base_pfn, 0x80000);
		assert_int_equal(l->end_pfn, 0x480000);
		assert_int_equal(l->lowmem.end_pfn, 0x480000);
		assert_int_equal(l->lowmem.page_count, 0x400000);
		assert_int_equal(l->lowmem.max_low_pfn_as_count, 0x400000);
		assert_int_equal(l->lowmem.max_low_pfn_as_pfn, 0x480000);
		assert_int_equal(l->lowmem.highmem_bytes, 0);
		layout_done(l);
		machine_done(m);
	}
}

static void test_highmem_outside_ram(void **state)
{
	/* A HighMem zone starting past the RAM ranges: lowmem cannot be trusted. */
	const struct zone zones[] = {
		mkzone(0, "Normal", 0x40000, 0x2f800, 0x2f800),
		mkzone(0, "HighMem", 0x100000, 0x1000, 0x1000),
	};
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	machine_setup(m, "armv7l", 4096, arm_2013_ram, 1, zones, 2);
	assert_int_equal(layout_compute(m, l), 0);
	assert_false(l->lowmem.known);
	assert_non_null(l->unknown_reason);
	layout_done(l);
	machine_done(m);

	/* ... or before the first RAM page. */
	const struct zone below[] = { mkzone(0, "HighMem", 0x30000, 0x1000, 0x1000) };
	machine_setup(m, "armv7l", 4096, arm_2013_ram, 1, below, 1);
	assert_int_equal(layout_compute(m, l), 0);
	assert_false(l->lowmem.known);
	layout_done(l);
	machine_done(m);
}

/* ---- page sizes and extremes ---- */

static void test_64k_pages_unaligned_ram(void **state)
{
	const struct ram_range ram[] = { { 0x40001000, 0x7fffefff } };
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	machine_setup(m, "aarch64", 65536, ram, 1, NULL, 0);
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->page_size, 65536);
	assert_int_equal(l->page_shift, 16);
	assert_int_equal(l->base_pfn, 0x4001); /* PFN_UP: the partial first page is not RAM */
	assert_int_equal(l->end_pfn, 0x7fff);  /* PFN_DOWN(end + 1): nor the partial last one */
	assert_int_equal(l->ram_bytes, 0x7fffefffull - 0x40001000 + 1);
	layout_done(l);
	machine_done(m);

	/* Aligned, with 64 KiB pages. */
	const struct ram_range aligned[] = { { 0x40000000, 0x7fffffff } };
	machine_setup(m, "aarch64", 65536, aligned, 1, NULL, 0);
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->base_pfn, 0x4000);
	assert_int_equal(l->end_pfn, 0x8000);
	layout_done(l);
	machine_done(m);
}

static void test_16k_pages(void **state)
{
	const struct ram_range ram[] = { { 0x800000000ull, 0x9ffffffffull } };
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	machine_setup(m, "aarch64", 16384, ram, 1, NULL, 0);
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->page_shift, 14);
	assert_int_equal(l->base_pfn, 0x800000000ull >> 14);
	assert_int_equal(l->end_pfn, 0xa00000000ull >> 14);
	layout_done(l);
	machine_done(m);
}

/* The top RAM range ends off a page boundary: the part page is above max_pfn, not highmem. */
static void test_ram_ending_off_a_page(void **state)
{
	const struct ram_range ram[] = { { 0x1000, 0x9fbff } };
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	machine_setup(m, "x86_64", 4096, ram, 1, NULL, 0);
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->end_pfn, 0x9f);
	assert_int_equal(l->lowmem.end_pfn, 0x9f);
	assert_int_equal(l->lowmem.highmem_bytes, 0); /* was 0xc00, found by fuzzing */
	layout_done(l);
	machine_done(m);
}

static void test_ram_up_to_2_64(void **state)
{
	const struct ram_range ram[] = { { 0xfffffffffffff000ull, 0xffffffffffffffffull } };
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	machine_setup(m, "x86_64", 4096, ram, 1, NULL, 0);
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->base_pfn, 0xfffffffffffffull);
	assert_int_equal(l->end_pfn, 1ull << 52); /* no wrap to 0 */
	assert_int_equal(l->ram_bytes, 4096);
	assert_int_equal(l->lowmem.end_pfn, 1ull << 52);
	assert_int_equal(l->lowmem.page_count, 1);
	/* lowmem_end_pfn << 12 wrapped to 0 and made all of RAM highmem */
	assert_int_equal(l->lowmem.highmem_bytes, 0);
	assert_int_equal(layout_ram_bytes_from_pfn(l, 1ull << 52), 0);
	assert_int_equal(layout_ram_bytes_from_pfn(l, UINT64_MAX), 0);
	assert_int_equal(layout_ram_bytes_from_pfn(l, (1ull << 52) - 1), 4096);
	layout_done(l);
	machine_done(m);
}

static void test_zoneinfo_up_to_2_64(void **state)
{
	/* The highest possible zone: its span ends exactly at 2^64. */
	const struct zone zones[] = { mkzone(0, "Normal", (1ull << 52) - 16, 16, 16) };
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	machine_setup(m, "x86_64", 4096, NULL, 0, zones, 1);
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->source, LAYOUT_SOURCE_ZONEINFO);
	assert_int_equal(l->n_ranges, 1);
	assert_int_equal(l->ranges[0].start, 0xffffffffffff0000ull);
	assert_int_equal(l->ranges[0].end, UINT64_MAX);
	assert_int_equal(l->end_pfn, 1ull << 52);
	layout_done(l);
	machine_done(m);
}

static void test_bad_page_size(void **state)
{
	static const unsigned sizes[] = { 0, 3000, 4095, 4097, 12288 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct machine *m = machine_of(state);
		struct layout *l = layout_of(state);

		machine_setup(m, "x86_64", sizes[i], x86_ram, 3, NULL, 0);
		assert_int_equal(layout_compute(m, l), -EINVAL);
		machine_done(m);
	}
}

/* ---- layout_ram_bytes_above ---- */

static void test_ram_bytes_above(void **state)
{
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	machine_setup(m, "x86_64", 4096, x86_ram, 3, NULL, 0);
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(layout_ram_bytes_above(l, 0), x86_ram_bytes);
	assert_int_equal(layout_ram_bytes_above(l, 0x1000), x86_ram_bytes);
	assert_int_equal(layout_ram_bytes_above(l, 0x1001), x86_ram_bytes - 1);
	/* In the hole between the first two ranges. */
	assert_int_equal(layout_ram_bytes_above(l, 0xa0000), x86_ram_bytes - 0x9ec00);
	/* Inside a range: only its upper part counts. */
	assert_int_equal(layout_ram_bytes_above(l, 0x50000),
			 (0x9fbffull - 0x50000 + 1) + 0xbff00000ull + 0x540000000ull);
	/* 2 GiB, the reach of a 31-bit mask. */
	assert_int_equal(layout_ram_bytes_above(l, 0x80000000), 0x40000000ull + 0x540000000ull);
	/* 4 GiB. */
	assert_int_equal(layout_ram_bytes_above(l, 0x100000000ull), 0x540000000ull);
	assert_int_equal(layout_ram_bytes_above(l, 0x63fffffffull), 1);
	assert_int_equal(layout_ram_bytes_above(l, 0x640000000ull), 0);
	assert_int_equal(layout_ram_bytes_above(l, UINT64_MAX), 0);
	layout_done(l);
	machine_done(m);

	/* No ranges at all. */
	struct layout empty = { 0 };
	assert_int_equal(layout_ram_bytes_above(&empty, 0), 0);
}

static void test_source_to_string(void **state)
{
	assert_string_equal(layout_source_to_string(LAYOUT_SOURCE_NONE), "none");
	assert_string_equal(layout_source_to_string(LAYOUT_SOURCE_IOMEM), "iomem");
	assert_string_equal(layout_source_to_string(LAYOUT_SOURCE_ZONEINFO), "zoneinfo");
	assert_null(layout_source_to_string(_LAYOUT_SOURCE_MAX));
	assert_null(layout_source_to_string(_LAYOUT_SOURCE_INVALID));
}

static void test_done_twice(void **state)
{
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	machine_setup(m, "x86_64", 4096, x86_ram, 3, NULL, 0);
	assert_int_equal(layout_compute(m, l), 0);
	layout_done(l);
	layout_done(l);
	machine_done(m);
}

/* ---- the three memory inputs against one another (memory-check.c) ---- */

/* iomem without the RAM above 4 GiB, zones to 0x640000: the zones reach past it by far. */
static void test_check_zones_past_iomem(void **state)
{
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	machine_setup(m, "x86_64", 4096, x86_ram, 2, x86_zones, 5);
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->check.disagree, 1u << MEMORY_ZONES_PAST_IOMEM);
	assert_int_equal(l->check.zones_end_pfn, 0x640000);
	assert_int_equal(l->check.iomem_last, 0xbfffffff);
	/* which input is wrong is unknown: no layout is taken from any */
	assert_int_equal(l->source, LAYOUT_SOURCE_NONE);
	assert_int_equal(l->n_ranges, 0);
	assert_int_equal(l->end_pfn, 0);
	assert_false(l->lowmem.known);
	assert_non_null(strstr(l->unknown_reason, "memory-inputs-disagree"));
	layout_done(l);
	machine_done(m);
}

/* Zones ending one page past iomem's last whole page: iomem's last page is partly shown. */
static void test_check_zones_page_rounding(void **state)
{
	static const struct ram_range ram[] = { { 0x1000, 0x63ffff7ff } };
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	machine_setup(m, "x86_64", 4096, ram, 1, x86_zones, 3);
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->check.disagree, 0);
	assert_int_equal(l->source, LAYOUT_SOURCE_IOMEM);
	layout_done(l);
	/* one page more is no rounding */
	machine_setup(m, "x86_64", 4096, (const struct ram_range[]){ { 0x1000, 0x63fffefff } }, 1,
		      x86_zones, 3);
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->check.disagree, 1u << MEMORY_ZONES_PAST_IOMEM);
	layout_done(l);
	machine_done(m);
}

/* arm64 lists a nomap region past the last System RAM as "reserved": zones span it. */
static void test_check_arm64_nomap_at_the_end(void **state)
{
	static const struct ram_range ram[] = { { 0x40000000, 0xbbd3ffff } };
	struct zone z[] = { mkzone(0, "DMA", 0x40000, 0x80000, 0x80000) };
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	machine_setup(m, "aarch64", 4096, ram, 1, z, 1);
	opt_set(&m->iomem_reserved_end, 0xbfffffff);
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->check.disagree, 0);
	layout_done(l);
	/* x86 names e820 reserved ranges so: they are no memory of the zones */
	machine_setup(m, "x86_64", 4096, ram, 1, z, 1);
	opt_set(&m->iomem_reserved_end, 0xbfffffff);
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->check.disagree, 1u << MEMORY_ZONES_PAST_IOMEM);
	layout_done(l);
	machine_done(m);
}

/* MemTotal (managed pages) above iomem's RAM, or above the zones' present pages. */
static void test_check_mem_total(void **state)
{
	struct machine *m = machine_of(state);
	struct layout *l = layout_of(state);

	uint64_t present = (3998ull + 782336 + 5505024) * 4096; /* below x86_ram_bytes */

	machine_setup(m, "x86_64", 4096, x86_ram, 3, x86_zones, 5);
	m->page_size_prov = PROV_READ;
	opt_set(&m->meminfo.mem_total, present);
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->check.disagree, 0); /* every present page managed: none reserved */
	layout_done(l);
	opt_set(&m->meminfo.mem_total, x86_ram_bytes + 4096);
	assert_int_equal(layout_compute(m, l), 0);
	assert_true(l->check.disagree & (1u << MEMORY_MEMTOTAL_OVER_IOMEM));
	assert_int_equal(l->check.iomem_ram_bytes, x86_ram_bytes);
	layout_done(l);
	/* far less than the RAM is normal: crashkernel, balloons */
	opt_set(&m->meminfo.mem_total, 1ull << 30);
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->check.disagree, 0);
	layout_done(l);
	/* iomem hidden: MemTotal against the present pages only */
	machine_setup(m, "x86_64", 4096, NULL, 0, x86_zones, 5);
	m->iomem_hidden = true;
	m->page_size_prov = PROV_READ;
	opt_set(&m->meminfo.mem_total, present);
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->check.disagree, 0);
	assert_int_equal(l->source, LAYOUT_SOURCE_ZONEINFO);
	layout_done(l);
	opt_set(&m->meminfo.mem_total, present + 4096);
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->check.disagree, 1u << MEMORY_MEMTOTAL_OVER_PRESENT);
	assert_int_equal(l->check.present_bytes, present);
	assert_int_equal(l->source, LAYOUT_SOURCE_NONE);
	layout_done(l);
	/* an assumed page size may be too small (64 KiB pages): present proves nothing */
	m->page_size_prov = PROV_ASSUMED;
	assert_int_equal(layout_compute(m, l), 0);
	assert_int_equal(l->check.disagree, 0);
	layout_done(l);
	machine_done(m);
}

#define LAYOUT_TEST(t) cmocka_unit_test_setup_teardown(t, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		LAYOUT_TEST(test_worked_example_2013),
		LAYOUT_TEST(test_256m_at_c0000000_no_highmem),
		LAYOUT_TEST(test_unpopulated_highmem_ignored),
		LAYOUT_TEST(test_first_highmem_zone_of_several),
		LAYOUT_TEST(test_x86_64_above_4g),
		LAYOUT_TEST(test_x86_64_iomem_and_zoneinfo),
		LAYOUT_TEST(test_zoneinfo_only),
		LAYOUT_TEST(test_zoneinfo_only_gaps_and_order),
		LAYOUT_TEST(test_zoneinfo_only_overlapping_spans),
		LAYOUT_TEST(test_zoneinfo_only_arm_highmem),
		LAYOUT_TEST(test_zoneinfo_without_populated_zone),
		LAYOUT_TEST(test_no_source),
		LAYOUT_TEST(test_iomem_usable_but_empty),
		LAYOUT_TEST(test_32bit_without_zoneinfo),
		LAYOUT_TEST(test_unknown_arch_without_zoneinfo),
		LAYOUT_TEST(test_32bit_meminfo_high_total_zero),
		LAYOUT_TEST(test_64bit_without_zoneinfo),
		LAYOUT_TEST(test_highmem_outside_ram),
		LAYOUT_TEST(test_64k_pages_unaligned_ram),
		LAYOUT_TEST(test_16k_pages),
		LAYOUT_TEST(test_ram_ending_off_a_page),
		LAYOUT_TEST(test_ram_up_to_2_64),
		LAYOUT_TEST(test_zoneinfo_up_to_2_64),
		LAYOUT_TEST(test_bad_page_size),
		LAYOUT_TEST(test_ram_bytes_above),
		LAYOUT_TEST(test_source_to_string),
		LAYOUT_TEST(test_done_twice),
		LAYOUT_TEST(test_check_zones_past_iomem),
		LAYOUT_TEST(test_check_zones_page_rounding),
		LAYOUT_TEST(test_check_arm64_nomap_at_the_end),
		LAYOUT_TEST(test_check_mem_total),
	};

	return cmocka_run_group_tests_name("layout", tests, NULL, NULL);
}
