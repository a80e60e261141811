/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/analysis/swiotlb-state.c: whether a pool exists, from the best evidence there is. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/eras.h"
#include "analysis/swiotlb-state.h"

/* x86_64 with 6 GiB: RAM above 4 GiB, so the default would be a pool. */
static void x86_6g(struct machine *m, struct layout *l)
{
	machine_init(m);
	m->arch.value = (char *)"x86_64";
	m->arch_info = arch_lookup(m->arch.value);
	memset(l, 0, sizeof(*l));
	l->source = LAYOUT_SOURCE_IOMEM;
	l->page_size = 4096;
	l->page_shift = 12;
	l->base_pfn = 1;
	l->end_pfn = 0x1c0000;
}

static enum tristate active(const struct machine *m, const struct layout *l, uint32_t release,
			    const char **why)
{
	struct swiotlb_state s;

	swiotlb_state_compute(m, l, release, &s);
	*why = s.active_why;
	return s.active;
}

static void test_default_pool(void **state)
{
	struct machine m;
	struct layout l;
	const char *why;

	(void)state;
	x86_6g(&m, &l);
	assert_int_equal(active(&m, &l, KV(6, 1, 0), &why), TRI_YES);
	assert_non_null(strstr(why, "assumed"));
}

/* An x86 IOMMU driver that came up (groups) frees the pool, by vendor and era. */
static void test_iommu_frees_pool(void **state)
{
	static const struct {
		bool log_intel, log_amd, pt;
		uint32_t release;
		enum tristate want;
	} cases[] = {
		{ true, false, false, KV(4, 19, 0), TRI_NO },
		{ true, false, true, KV(4, 19, 0), TRI_NO },      /* Intel: pt or not */
		{ true, false, false, KV(5, 6, 0), TRI_UNKNOWN }, /* unless untrusted devices */
		{ true, false, false, KV(5, 10, 0), TRI_YES },
		{ false, true, false, KV(5, 10, 0), TRI_NO },
		{ false, true, true, KV(5, 10, 0), TRI_YES },      /* AMD keeps it with passthrough */
		{ false, true, false, KV(5, 19, 0), TRI_YES },     /* 121660bba631 */
		{ false, false, false, KV(5, 10, 0), TRI_UNKNOWN },
		{ true, true, false, KV(5, 10, 0), TRI_UNKNOWN },  /* both named: which is unknown */
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct layout l;
		const char *why;
		x86_6g(&m, &l);
		m.iommu_groups_present = true;
		m.log_intel_iommu = cases[i].log_intel;
		m.log_amd_iommu = cases[i].log_amd;
		m.cmd.iommu_pt = cases[i].pt;
		assert_int_equal(active(&m, &l, cases[i].release, &why), cases[i].want);
		m.iommu_groups_present = false; /* no IOMMU driver: the default pool */
		assert_int_equal(active(&m, &l, cases[i].release, &why), TRI_YES);
	}
}

/* arm64 with 2 GiB below 4 GiB: a kmalloc bouncing pool from 6.5, small from 6.7. */
static void test_arm64_kmalloc_pool(void **state)
{
	struct machine m;
	struct layout l;
	struct swiotlb_state s;
	(void)state;

	x86_6g(&m, &l);
	m.arch.value = (char *)"aarch64";
	m.arch_info = arch_lookup(m.arch.value);
	l.base_pfn = 0x40000;
	l.end_pfn = 0xc0000;
	l.ram_bytes = 2ull << 30;
	swiotlb_state_compute(&m, &l, KV(6, 1, 0), &s);
	assert_int_equal(s.active, TRI_NO);
	swiotlb_state_compute(&m, &l, KV(6, 6, 0), &s);
	assert_int_equal(s.active, TRI_YES);
	assert_int_equal(s.size_bytes, 64ull << 20);
	swiotlb_state_compute(&m, &l, KV(6, 12, 0), &s);
	assert_int_equal(s.active, TRI_YES);
	assert_int_equal(s.size_bytes, 2ull << 20); /* RAM / 1024 */
	assert_int_equal(s.size_prov, PROV_ASSUMED);
	/* swiotlb=<slabs> sizes it instead */
	m.cmd.have_swiotlb_slabs = true;
	m.cmd.swiotlb_slabs = 1024;
	swiotlb_state_compute(&m, &l, KV(6, 12, 0), &s);
	assert_int_equal(s.size_bytes, 2ull << 20);
	m.cmd.swiotlb_slabs = 4096;
	swiotlb_state_compute(&m, &l, KV(6, 12, 0), &s);
	assert_int_equal(s.size_bytes, 8ull << 20);
	/* x86 has no such pool */
	m.cmd.have_swiotlb_slabs = false;
	m.arch.value = (char *)"x86_64";
	m.arch_info = arch_lookup(m.arch.value);
	l.base_pfn = 1;
	l.end_pfn = 0x80000;
	swiotlb_state_compute(&m, &l, KV(6, 12, 0), &s);
	assert_int_equal(s.active, TRI_NO);
}

/* pci_swiotlb_detect(): iommu=off, no pool (Debian 6.1 under QEMU: none was mapped). */
static void test_iommu_off(void **state)
{
	struct machine m;
	struct layout l;
	const char *why;

	(void)state;
	x86_6g(&m, &l);
	m.cmd.iommu_off = true;
	assert_int_equal(active(&m, &l, KV(6, 1, 0), &why), TRI_NO);
	assert_non_null(strstr(why, "iommu=off"));
	/* an SME host keeps its pool for devices below the C-bit */
	m.coco.log_sme = true;
	assert_int_equal(active(&m, &l, KV(6, 1, 0), &why), TRI_YES);
	m.coco.log_sme = false;
	/* iommu=soft sets x86_swiotlb_enable itself, no_iommu or not */
	m.cmd.iommu_soft = true;
	assert_int_equal(active(&m, &l, KV(6, 1, 0), &why), TRI_YES);
	assert_non_null(strstr(why, "iommu=soft"));
	m.cmd.iommu_soft = false;
	/* x86 only: arm64 has no such parameter */
	m.arch.value = (char *)"aarch64";
	m.arch_info = arch_lookup(m.arch.value);
	assert_int_equal(active(&m, &l, KV(6, 1, 0), &why), TRI_YES);
	/* the log line wins over the command line */
	m.arch.value = (char *)"x86_64";
	m.arch_info = arch_lookup(m.arch.value);
	m.swiotlb.have_pool = true;
	m.swiotlb.pool_start = 0xbb936000;
	m.swiotlb.pool_end = 0xbf936000;
	assert_int_equal(active(&m, &l, KV(6, 1, 0), &why), TRI_YES);
}

/* A log kept from boot lists every pool; a rotated one proves nothing. */
static void test_log_from_boot(void **state)
{
	struct machine m;
	struct layout l;
	const char *why;

	(void)state;
	x86_6g(&m, &l);
	m.kmsg_from_boot = true;
	assert_int_equal(active(&m, &l, KV(6, 1, 0), &why), TRI_NO);
	assert_non_null(strstr(why, "from boot"));
	/* before 4.0 the pool line had forms the reader does not parse */
	assert_int_equal(active(&m, &l, KV(3, 2, 0), &why), TRI_YES);
	m.kmsg_from_boot = false;
	assert_int_equal(active(&m, &l, KV(6, 1, 0), &why), TRI_YES);
	/* debugfs counts first */
	m.kmsg_from_boot = true;
	m.swiotlb.have_nslabs = true;
	m.swiotlb.nslabs = 32768;
	assert_int_equal(active(&m, &l, KV(6, 1, 0), &why), TRI_YES);
}

/* Slot counts shifted to bytes saturate: io_tlb_nslabs >= 2^53 wrapped the size to 0. */
static void test_huge_counters(void **state)
{
	struct machine m;
	struct layout l;
	struct swiotlb_state s;

	(void)state;
	x86_6g(&m, &l);
	m.swiotlb.have_nslabs = m.swiotlb.have_used = m.swiotlb.have_hiwater = true;
	m.swiotlb.nslabs = 1ull << 53;
	m.swiotlb.used = UINT64_MAX;
	m.swiotlb.hiwater = (1ull << 53) + 1;
	swiotlb_state_compute(&m, &l, KV(6, 1, 0), &s);
	assert_int_equal(s.size_bytes, UINT64_MAX);
	assert_int_equal(s.used_bytes, UINT64_MAX);
	assert_int_equal(s.hiwater_bytes, UINT64_MAX);
	m.swiotlb.have_nslabs = false;
	m.cmd.have_swiotlb_slabs = true;
	m.cmd.swiotlb_slabs = 1ull << 60;
	swiotlb_state_compute(&m, &l, KV(6, 1, 0), &s);
	assert_int_equal(s.size_bytes, UINT64_MAX);
	m.cmd.swiotlb_slabs = 32768;
	swiotlb_state_compute(&m, &l, KV(6, 1, 0), &s);
	assert_int_equal(s.size_bytes, 64ull << 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arm64_kmalloc_pool),
		cmocka_unit_test(test_default_pool),
		cmocka_unit_test(test_iommu_frees_pool),
		cmocka_unit_test(test_iommu_off),
		cmocka_unit_test(test_log_from_boot),
		cmocka_unit_test(test_huge_counters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
