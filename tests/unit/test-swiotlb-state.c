/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/analysis/swiotlb-state.c: whether a pool exists, from the best evidence there is. */
#include <errno.h>
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

	/* RAM ending at 4 GiB: pci_swiotlb_detect_4gb() allocated nothing to free */
	struct machine m;
	struct layout l;
	const char *why;
	x86_6g(&m, &l);
	l.end_pfn = 0x100000;
	opt_set(&m.srat_mem_end, 0x100000000);
	m.iommu_groups_present = true;
	m.log_intel_iommu = true;
	assert_int_equal(active(&m, &l, KV(5, 6, 0), &why), TRI_NO);
	assert_non_null(strstr(why, "no RAM and no ACPI SRAT memory range above 4 GiB"));
	l.end_pfn = 0x100001;
	assert_int_equal(active(&m, &l, KV(5, 6, 0), &why), TRI_UNKNOWN);

	/* a Hygon CPU's IOMMU is AMD's (amd_iommu): freed before 5.19 unless passthrough */
	x86_6g(&m, &l);
	m.iommu_groups_present = true;
	m.cpu_vendor = (char *)"HygonGenuine";
	assert_int_equal(active(&m, &l, KV(5, 10, 0), &why), TRI_NO);
	m.cpu_vendor = (char *)"AuthenticAMD";
	assert_int_equal(active(&m, &l, KV(5, 10, 0), &why), TRI_NO);
	m.cpu_vendor = (char *)"GenuineIntel";
	assert_int_equal(active(&m, &l, KV(5, 10, 0), &why), TRI_YES);
	m.cpu_vendor = (char *)"CentaurHauls";
	assert_int_equal(active(&m, &l, KV(5, 10, 0), &why), TRI_UNKNOWN);
	/* sys/class/iommu's unit names before the CPU vendor: QEMU's qemu64 says
	 * AuthenticAMD on a q35 with intel-iommu (dmar0), where the pool stays */
	m.cpu_vendor = (char *)"AuthenticAMD";
	m.class_intel_iommu = true;
	assert_int_equal(active(&m, &l, KV(5, 10, 0), &why), TRI_YES);
	m.class_amd_iommu = true; /* both names: the CPU vendor decides again */
	assert_int_equal(active(&m, &l, KV(5, 10, 0), &why), TRI_NO);
	m.class_intel_iommu = false; /* ivhd only, an Intel CPU: AMD's driver */
	m.cpu_vendor = (char *)"GenuineIntel";
	assert_int_equal(active(&m, &l, KV(5, 10, 0), &why), TRI_NO);
	m.log_intel_iommu = true; /* the log first */
	assert_int_equal(active(&m, &l, KV(5, 10, 0), &why), TRI_YES);
	m.log_intel_iommu = false;
	m.class_amd_iommu = false;
}

/* The assumed size from 6.0 (ERA_POOL_AREAS): one area per possible CPU, a power of
 * two of 128 slots at least, the slots a power of two (swiotlb_adjust_nareas,
 * round_up_default_nslabs, 20347fca71a3 and 57e6840cf79a); read sizes win. */
static void test_pool_areas(void **state)
{
	struct machine m;
	struct layout l;
	struct swiotlb_state s;
	(void)state;

	/* a 64-CPU arm64 6.7+ box, 2 GiB all in the DMA zone: RAM/1024 is 2 MiB, 64 areas take 16 */
	x86_6g(&m, &l);
	m.arch.value = (char *)"aarch64";
	m.arch_info = arch_lookup(m.arch.value);
	l.base_pfn = 0x40000;
	l.end_pfn = 0xc0000;
	l.ram_bytes = 2ull << 30;
	opt_set(&m.cpus_possible, 64);
	swiotlb_state_compute(&m, &l, KV(6, 12, 0), &s);
	assert_int_equal(s.active, TRI_YES);
	assert_int_equal(s.size_bytes.v, 16ull << 20);
	assert_int_equal(s.size_prov, PROV_ASSUMED);
	assert_true(s.areas.known);
	assert_int_equal(s.areas.v, 64);
	assert_non_null(strstr(s.size_why, "possible CPU"));
	/* 6 CPUs make 8 areas, 1024 slots: the 2 MiB stand; 9 make 16, 4 MiB */
	opt_set(&m.cpus_possible, 6);
	swiotlb_state_compute(&m, &l, KV(6, 12, 0), &s);
	assert_int_equal(s.size_bytes.v, 2ull << 20);
	assert_int_equal(s.areas.v, 8);
	opt_set(&m.cpus_possible, 9);
	swiotlb_state_compute(&m, &l, KV(6, 12, 0), &s);
	assert_int_equal(s.size_bytes.v, 4ull << 20);
	assert_int_equal(s.areas.v, 16);
	/* 3 GiB: 3 MiB is 1536 slots, rounded up to 2048 whatever the CPUs */
	opt_set(&m.cpus_possible, 1);
	l.ram_bytes = 3ull << 30;
	swiotlb_state_compute(&m, &l, KV(6, 12, 0), &s);
	assert_int_equal(s.size_bytes.v, 4ull << 20);
	assert_int_equal(s.areas.v, 1);
	/* possible CPUs unreadable: the one-area size, a lower bound, no areas */
	opt_clear(&m.cpus_possible);
	swiotlb_state_compute(&m, &l, KV(6, 12, 0), &s);
	assert_int_equal(s.size_bytes.v, 4ull << 20);
	assert_false(s.areas.known);
	assert_non_null(strstr(s.size_why, "at least"));
	/* swiotlb=<slabs>,<areas>: its areas, not the CPUs (3 -> 4 areas, 512 slots) */
	l.ram_bytes = 2ull << 30;
	opt_set(&m.cpus_possible, 64);
	opt_set(&m.cmd.swiotlb_slabs, 256);
	opt_set(&m.cmd.swiotlb_areas, 3);
	swiotlb_state_compute(&m, &l, KV(6, 12, 0), &s);
	assert_int_equal(s.size_bytes.v, 1ull << 20);
	assert_int_equal(s.areas.v, 4);
	assert_non_null(strstr(s.size_why, "swiotlb="));
	/* <areas> 0 is one area ("Zero is treated as 1") */
	opt_set(&m.cmd.swiotlb_areas, 0);
	swiotlb_state_compute(&m, &l, KV(6, 12, 0), &s);
	assert_int_equal(s.size_bytes.v, 512ull << 10);
	assert_int_equal(s.areas.v, 1);
	opt_clear(&m.cmd.swiotlb_areas);
	/* swiotlb=<slabs> alone: 256 slots, 64 areas of 128 */
	swiotlb_state_compute(&m, &l, KV(6, 12, 0), &s);
	assert_int_equal(s.size_bytes.v, 16ull << 20);
	opt_clear(&m.cmd.swiotlb_slabs);

	/* x86 with RAM above 4 GiB: the 64 MiB default stands up to 256 CPUs */
	x86_6g(&m, &l);
	opt_set(&m.cpus_possible, 256);
	swiotlb_state_compute(&m, &l, KV(6, 0, 0), &s);
	assert_int_equal(s.size_bytes.v, 64ull << 20);
	/* 257 CPUs: 512 areas, 65536 slots: 128 MiB from 6.0, 64 MiB in 5.19 */
	opt_set(&m.cpus_possible, 257);
	swiotlb_state_compute(&m, &l, KV(6, 0, 0), &s);
	assert_int_equal(s.size_bytes.v, 128ull << 20);
	assert_int_equal(s.areas.v, 512);
	swiotlb_state_compute(&m, &l, KV(5, 19, 255), &s);
	assert_int_equal(s.size_bytes.v, 64ull << 20);
	assert_false(s.areas.known);
	assert_non_null(strstr(s.size_why, "before 6.0"));
	/* before 6.0, swiotlb=<slabs> as asked (ALIGNed to 128): 3 segments */
	opt_set(&m.cmd.swiotlb_slabs, 384);
	swiotlb_state_compute(&m, &l, KV(5, 19, 255), &s);
	assert_int_equal(s.size_bytes.v, 384ull << 11);
	swiotlb_state_compute(&m, &l, KV(6, 0, 0), &s);
	assert_int_equal(s.size_bytes.v, 128ull << 20); /* 512 areas x 128 slots */
	opt_clear(&m.cmd.swiotlb_slabs);

	/* the log's mapped line and debugfs win over the rule */
	opt_set(&m.swiotlb.pool_start, 0xbbe00000);
	opt_set(&m.swiotlb.pool_end, 0xbfe00000);
	swiotlb_state_compute(&m, &l, KV(6, 12, 0), &s);
	assert_int_equal(s.size_bytes.v, 64ull << 20);
	assert_int_equal(s.size_prov, PROV_READ);
	assert_null(s.size_why);
	assert_false(s.areas.known);
	opt_set(&m.swiotlb.nslabs, 8192);
	swiotlb_state_compute(&m, &l, KV(6, 12, 0), &s);
	assert_int_equal(s.size_bytes.v, 16ull << 20);
	assert_int_equal(s.size_prov, PROV_READ);
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
	assert_int_equal(s.size_bytes.v, 64ull << 20);
	swiotlb_state_compute(&m, &l, KV(6, 12, 0), &s);
	assert_int_equal(s.active, TRI_YES);
	assert_int_equal(s.size_bytes.v, 2ull << 20); /* RAM / 1024 */
	assert_int_equal(s.size_prov, PROV_ASSUMED);
	/* swiotlb=<slabs> sizes it instead */
	opt_set(&m.cmd.swiotlb_slabs, 1024);
	swiotlb_state_compute(&m, &l, KV(6, 12, 0), &s);
	assert_int_equal(s.size_bytes.v, 2ull << 20);
	opt_set(&m.cmd.swiotlb_slabs, 4096);
	swiotlb_state_compute(&m, &l, KV(6, 12, 0), &s);
	assert_int_equal(s.size_bytes.v, 8ull << 20);
	/* swiotlb_adjust_size(): ALIGN(size >> IO_TLB_SHIFT, IO_TLB_SEGSIZE), whole 256 KiB
	 * segments: 1984 MiB of RAM wants 1984 KiB, which takes 2 MiB */
	opt_clear(&m.cmd.swiotlb_slabs);
	l.ram_bytes = 1984ull << 20;
	swiotlb_state_compute(&m, &l, KV(6, 12, 0), &s);
	assert_int_equal(s.size_bytes.v, 2ull << 20);
	l.ram_bytes = 2ull << 30;
	/* x86 has no such pool */
	opt_clear(&m.cmd.swiotlb_slabs);
	m.arch.value = (char *)"x86_64";
	m.arch_info = arch_lookup(m.arch.value);
	l.base_pfn = 1;
	l.end_pfn = 0x80000;
	opt_set(&m.srat_mem_end, 0x80000000);
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
	/* x86 only: arm64 has no such parameter (a ZONE_DMA32 to 4 GiB, RAM beyond) */
	struct zone dma32_normal[] = {
		{ .name = "DMA32", .populated = true, .start_pfn = 1, .spanned = 0xfffff },
		{ .name = "Normal", .populated = true, .start_pfn = 0x100000, .spanned = 0xc0000 },
	};
	m.arch.value = (char *)"aarch64";
	m.arch_info = arch_lookup(m.arch.value);
	l.zones = dma32_normal;
	l.n_zones = 2;
	assert_int_equal(active(&m, &l, KV(6, 1, 0), &why), TRI_YES);
	l.n_zones = 0;
	/* the log line wins over the command line */
	m.arch.value = (char *)"x86_64";
	m.arch_info = arch_lookup(m.arch.value);
	opt_set(&m.swiotlb.pool_start, 0xbb936000);
	opt_set(&m.swiotlb.pool_end, 0xbf936000);
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
	opt_set(&m.swiotlb.nslabs, 32768);
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
	opt_set(&m.swiotlb.nslabs, 1ull << 53);
	opt_set(&m.swiotlb.used, UINT64_MAX);
	opt_set(&m.swiotlb.hiwater, (1ull << 53) + 1);
	swiotlb_state_compute(&m, &l, KV(6, 1, 0), &s);
	assert_int_equal(s.size_bytes.v, UINT64_MAX);
	assert_int_equal(s.used_bytes.v, UINT64_MAX);
	assert_int_equal(s.hiwater_bytes.v, UINT64_MAX);
	opt_clear(&m.swiotlb.nslabs);
	opt_set(&m.cmd.swiotlb_slabs, 1ull << 60);
	swiotlb_state_compute(&m, &l, KV(6, 1, 0), &s);
	assert_int_equal(s.size_bytes.v, UINT64_MAX);
	opt_set(&m.cmd.swiotlb_slabs, 32768);
	swiotlb_state_compute(&m, &l, KV(6, 1, 0), &s);
	assert_int_equal(s.size_bytes.v, 64ull << 20);
}

/* 32-bit ARM, RAM 0x40000000-0xbfffffff, lowmem to 0x6f800000; zones as given (NULL: Normal, HighMem). */
static void arm_2g(struct machine *m, struct layout *l, const char *release, struct zone *zones, size_t n)
{
	static struct zone normal_high[] = {
		{ .name = "Normal", .populated = true, .start_pfn = 0x40000, .spanned = 0x2f800 },
		{ .name = "HighMem", .populated = true, .start_pfn = 0x6f800, .spanned = 0x50800 },
	};

	x86_6g(m, l);
	m->arch.value = (char *)"armv7l";
	m->arch_info = arch_lookup(m->arch.value);
	m->release.value = (char *)release;
	l->base_pfn = 0x40000;
	l->end_pfn = 0xc0000;
	l->ram_bytes = 2ull << 30;
	l->lowmem.known = true;
	l->lowmem.end_pfn = 0x6f800;
	l->zones = zones ? zones : normal_high;
	l->n_zones = zones ? n : 2;
}

/* LPAE or not: the boot log's SCTLR.AFE first, then the release, then RAM above 4 GiB. */
static void test_arm_lpae(void **state)
{
	static const struct {
		const char *release;
		int cr;                 /* -1: no CPU line; -2: none, and RAM up to 4 GiB */
		bool above_4g;
		enum tristate want;
		enum arm_lpae_source from;
	} cases[] = {
		{ "5.10.0-32-custom", 0x30c5387d, false, TRI_YES, ARM_LPAE_SOURCE_LOG },
		{ "5.10.0-32-custom", 0x10c5387d, false, TRI_NO, ARM_LPAE_SOURCE_LOG },
		{ "6.1.0-27-armmp-lpae", 0x10c5387d, false, TRI_NO, ARM_LPAE_SOURCE_LOG }, /* the log wins */
		{ "5.10.0-32-custom", 0x10c5387d, true, TRI_NO, ARM_LPAE_SOURCE_LOG },
		{ "6.1.0-27-armmp-lpae", -1, false, TRI_YES, ARM_LPAE_SOURCE_RELEASE },
		{ "6.1.0-27-armmp", -1, false, TRI_NO, ARM_LPAE_SOURCE_RELEASE },
		{ "5.10.103-v7l+", -1, false, TRI_YES, ARM_LPAE_SOURCE_RELEASE },
		{ "5.10.103-v7+", -1, false, TRI_NO, ARM_LPAE_SOURCE_RELEASE },
		{ "6.6.51+rpt-rpi-v7l", -1, false, TRI_YES, ARM_LPAE_SOURCE_RELEASE },
		{ "6.1.0-rpi7-rpi-v7", -1, false, TRI_NO, ARM_LPAE_SOURCE_RELEASE },
		{ "6.1.0-rpi7-rpi-v6", -1, false, TRI_NO, ARM_LPAE_SOURCE_RELEASE },
		{ "5.10.0-32-custom", -1, true, TRI_YES, ARM_LPAE_SOURCE_RAM },
		/* RAM ending at 4 GiB fits a 32-bit phys_addr_t (arm_add_memory keeps it) */
		{ "5.10.0-32-custom", -2, false, TRI_UNKNOWN, ARM_LPAE_SOURCE_NONE },
		{ "5.10.0-32-custom", -1, false, TRI_UNKNOWN, ARM_LPAE_SOURCE_NONE },
		{ "5.10.0-v7lx", -1, false, TRI_UNKNOWN, ARM_LPAE_SOURCE_NONE }, /* not the flavour */
		{ "5.10.0-myv7+", -1, false, TRI_UNKNOWN, ARM_LPAE_SOURCE_NONE },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct layout l;
		struct swiotlb_state s;
		arm_2g(&m, &l, cases[i].release, NULL, 0);
		if (cases[i].cr >= 0)
			opt_set(&m.arm_cr, (uint32_t)cases[i].cr);
		else
			opt_clear(&m.arm_cr);
		if (cases[i].above_4g)
			l.end_pfn = 0x140000;
		if (cases[i].cr == -2)
			l.end_pfn = 0x100000; /* no CPU line, RAM to 0xffffffff */
		swiotlb_state_compute(&m, &l, KV(5, 10, 0), &s);
		assert_int_equal(s.arm_lpae, cases[i].want);
		assert_int_equal(s.arm_lpae_source, cases[i].from);
		assert_non_null(s.arm_lpae_why);
	}
	/* off 32-bit ARM there is no such question */
	struct machine m;
	struct layout l;
	struct swiotlb_state s;
	x86_6g(&m, &l);
	opt_set(&m.arm_cr, 0x30c5387d);
	swiotlb_state_compute(&m, &l, KV(6, 1, 0), &s);
	assert_int_equal(s.arm_lpae, TRI_UNKNOWN);
	assert_null(s.arm_lpae_why);
}

/*
 * arch/arm/mm/init.c mem_init(), rotated log: no pool before 5.3 nor without
 * LPAE; LPAE 5.3-5.12 always (and 5.10.0-5.10.68); 5.13+ (5.10.69+) only
 * when max_pfn > arm_dma_pfn_limit, read from where zoneinfo ends ZONE_DMA.
 */
static void test_arm_pool_default(void **state)
{
	static struct zone dma_below[] = { /* dma_zone_size 512 MiB: Normal above it */
		{ .name = "DMA", .populated = true, .start_pfn = 0x40000, .spanned = 0x20000 },
		{ .name = "Normal", .populated = true, .start_pfn = 0x60000, .spanned = 0xf800 },
		{ .name = "HighMem", .populated = true, .start_pfn = 0x6f800, .spanned = 0x50800 },
	};
	static struct zone dma_lowmem[] = { /* ZONE_DMA to max_low, highmem above: the limit unseen */
		{ .name = "DMA", .populated = true, .start_pfn = 0x40000, .spanned = 0x2f800 },
		{ .name = "Normal", .populated = false },
		{ .name = "HighMem", .populated = true, .start_pfn = 0x6f800, .spanned = 0x50800 },
	};
	static struct zone dma_all[] = { /* all RAM in ZONE_DMA */
		{ .name = "DMA", .populated = true, .start_pfn = 0x40000, .spanned = 0x80000 },
	};
	static const struct {
		uint32_t release;
		int cr;
		struct zone *zones;
		size_t n;
		uint64_t end_pfn;
		enum tristate want;
	} cases[] = {
		{ KV(5, 2, 21), 0x30c5387d, NULL, 0, 0xc0000, TRI_NO },
		{ KV(5, 3, 0), 0x30c5387d, NULL, 0, 0xc0000, TRI_YES },
		{ KV(5, 3, 0), 0x10c5387d, NULL, 0, 0xc0000, TRI_NO },
		{ KV(5, 3, 0), -1, NULL, 0, 0xc0000, TRI_UNKNOWN },
		{ KV(5, 4, 148), 0x30c5387d, NULL, 0, 0xc0000, TRI_YES },
		{ KV(5, 4, 149), 0x30c5387d, NULL, 0, 0xc0000, TRI_NO },
		{ KV(5, 10, 68), 0x30c5387d, NULL, 0, 0xc0000, TRI_YES },
		{ KV(5, 10, 69), 0x30c5387d, NULL, 0, 0xc0000, TRI_NO },
		{ KV(5, 12, 19), 0x30c5387d, NULL, 0, 0xc0000, TRI_YES },
		{ KV(5, 13, 0), 0x30c5387d, NULL, 0, 0xc0000, TRI_NO },    /* no ZONE_DMA: 4 GiB */
		{ KV(5, 13, 0), 0x30c5387d, NULL, 0, 0xfffff, TRI_NO },    /* max_pfn 0xfffff: not above */
		{ KV(5, 13, 0), 0x30c5387d, NULL, 0, 0x100000, TRI_YES },  /* max_pfn 0x100000 > 0xfffff */
		{ KV(5, 13, 0), 0x30c5387d, NULL, 0, 0x140000, TRI_YES },
		{ KV(6, 1, 0), 0x30c5387d, dma_below, 3, 0xc0000, TRI_YES },
		{ KV(6, 1, 0), 0x30c5387d, dma_lowmem, 3, 0xc0000, TRI_UNKNOWN },
		{ KV(6, 1, 0), 0x30c5387d, dma_all, 1, 0xc0000, TRI_NO },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct layout l;
		struct swiotlb_state s;
		arm_2g(&m, &l, "custom", cases[i].zones, cases[i].n);
		if (cases[i].cr >= 0)
			opt_set(&m.arm_cr, (uint32_t)cases[i].cr);
		else
			opt_clear(&m.arm_cr);
		l.end_pfn = cases[i].end_pfn;
		if (cases[i].zones == dma_all)
			l.lowmem.end_pfn = l.end_pfn;
		swiotlb_state_compute(&m, &l, cases[i].release, &s);
		assert_int_equal(s.active, cases[i].want);
		assert_non_null(s.active_why);
		/* where a pool may exist it lies in lowmem: memblock.current_limit */
		assert_int_equal(s.pool_limit.known, s.active != TRI_NO);
		if (s.pool_limit.known)
			assert_int_equal(s.pool_limit.v, (l.lowmem.end_pfn << 12) - 1);
	}
}

/* Where the pool lies when neither the log nor debugfs says: below ARCH_LOW_ADDRESS_LIMIT. */
static void test_pool_placement(void **state)
{
	static struct zone pi4[] = {
		{ .name = "DMA", .populated = true, .start_pfn = 0, .spanned = 0x40000 },
		{ .name = "DMA32", .populated = true, .start_pfn = 0x40000, .spanned = 0xc0000 },
		{ .name = "Normal", .populated = true, .start_pfn = 0x100000, .spanned = 0x100000 },
	};
	static struct zone dma32_only[] = {
		{ .name = "DMA", .populated = false },
		{ .name = "DMA32", .populated = true, .start_pfn = 0, .spanned = 0x100000 },
		{ .name = "Normal", .populated = true, .start_pfn = 0x100000, .spanned = 0x100000 },
	};
	struct machine m;
	struct layout l;
	struct swiotlb_state s;
	(void)state;

	/* x86: memblock's default ARCH_LOW_ADDRESS_LIMIT, 4 GiB, on both sides of 5.19 */
	x86_6g(&m, &l);
	swiotlb_state_compute(&m, &l, KV(5, 18, 19), &s);
	assert_true(s.pool_limit.known);
	assert_int_equal(s.pool_limit.v, 0xffffffff);
	assert_int_equal(s.pool_limit_prov, PROV_DERIVED);
	swiotlb_state_compute(&m, &l, KV(5, 19, 0), &s);
	assert_int_equal(s.pool_limit.v, 0xffffffff);
	/* no pool, no place */
	m.cmd.iommu_off = true;
	swiotlb_state_compute(&m, &l, KV(6, 1, 0), &s);
	assert_false(s.pool_limit.known);
	m.cmd.iommu_off = false;
	/* the log's pool is the place, read */
	opt_set(&m.swiotlb.pool_start, 0xbbfe8000);
	opt_set(&m.swiotlb.pool_end, 0xbffe8000);
	swiotlb_state_compute(&m, &l, KV(6, 1, 0), &s);
	assert_int_equal(s.pool_limit.v, 0xbffe7fff);
	assert_int_equal(s.pool_limit_prov, PROV_READ);
	opt_clear(&m.swiotlb.pool_start);
	opt_clear(&m.swiotlb.pool_end);
	/* Xen PV: swiotlb-xen, SWIOTLB_ANY from 5.19: no bound */
	m.hyp.type = HYPERVISOR_XEN;
	m.hyp.xen_guest_type = XEN_GUEST_PV;
	swiotlb_state_compute(&m, &l, KV(5, 19, 0), &s);
	assert_false(s.pool_limit.known);
	m.hyp.type = HYPERVISOR_NONE;
	/* an SEV guest passes SWIOTLB_FORCE, not SWIOTLB_ANY: still below 4 GiB */
	m.coco.log_sev = true;
	swiotlb_state_compute(&m, &l, KV(6, 1, 0), &s);
	assert_true(s.forced);
	assert_int_equal(s.pool_limit.v, 0xffffffff);
	m.coco.log_sev = false;

	/* arm64: arm64_dma_phys_limit - 1, the end of ZONE_DMA, else of ZONE_DMA32 */
	m.arch.value = (char *)"aarch64";
	m.arch_info = arch_lookup(m.arch.value);
	l.base_pfn = 0;
	l.end_pfn = 0x200000;
	l.zones = pi4;
	l.n_zones = 3;
	swiotlb_state_compute(&m, &l, KV(6, 1, 0), &s);
	assert_int_equal(s.active, TRI_YES);
	assert_int_equal(s.pool_limit.v, 0x3fffffff);
	assert_non_null(strstr(s.pool_limit_why, "ZONE_DMA "));
	l.zones = dma32_only;
	swiotlb_state_compute(&m, &l, KV(6, 1, 0), &s);
	assert_int_equal(s.pool_limit.v, 0xffffffff);
	assert_non_null(strstr(s.pool_limit_why, "ZONE_DMA32"));
	/* no zoneinfo: whether a DMA zone exists, so the pool, and the bound unknown */
	l.n_zones = 0;
	swiotlb_state_compute(&m, &l, KV(6, 1, 0), &s);
	assert_int_equal(s.active, TRI_UNKNOWN);
	assert_false(s.pool_limit.known);
	m.cmd.swiotlb_force = true;
	m.cmd.swiotlb_last_word = SWIOTLB_WORD_FORCE;
	swiotlb_state_compute(&m, &l, KV(6, 1, 0), &s);
	assert_int_equal(s.active, TRI_YES);
	assert_false(s.pool_limit.known);
	m.cmd.swiotlb_force = false;
	m.cmd.swiotlb_last_word = SWIOTLB_WORD_NONE;
	/* an architecture with limits of its own */
	m.arch.value = (char *)"s390x";
	m.arch_info = arch_lookup(m.arch.value);
	m.cmd.swiotlb_force = true;
	m.cmd.swiotlb_last_word = SWIOTLB_WORD_FORCE; /* as readers/cmdline.c keeps it */
	swiotlb_state_compute(&m, &l, KV(6, 1, 0), &s);
	assert_int_equal(s.active, TRI_YES);
	assert_false(s.pool_limit.known);
}

/* x86-64 with RAM below 4 GiB: pci_swiotlb_detect() tests max_possible_pfn, which the
 * SRAT's (hot-pluggable) ranges raise to PFN_UP(end - 1); unknown without the SRAT. */
static void test_x86_possible_pfn(void **state)
{
	static const struct {
		bool known;
		uint64_t end;
		enum tristate want;
	} cases[] = {
		{ false, 0, TRI_UNKNOWN },
		{ true, 0, TRI_NO },                      /* an SRAT of CPUs only */
		{ true, 0x80000000, TRI_NO },             /* the 2 GiB present */
		{ true, 0x100000000, TRI_NO },            /* PFN_UP(0xffffffff) is MAX_DMA32_PFN */
		{ true, 0x100000001, TRI_NO },            /* PFN_UP(0x100000000) still is */
		{ true, 0x100000002, TRI_YES },           /* one byte into the next page */
		{ true, 0x100001000, TRI_YES },
		{ true, 0x280000000, TRI_YES },           /* maxmem=10G: hotplug to 10 GiB */
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct layout l;
		struct swiotlb_state s;
		x86_6g(&m, &l);
		l.end_pfn = 0x80000;
		if (cases[i].known)
			opt_set(&m.srat_mem_end, cases[i].end);
		swiotlb_state_compute(&m, &l, KV(6, 1, 0), &s);
		if (s.active != cases[i].want)
			fail_msg("case %zu: %d, want %d (%s)", i, s.active, cases[i].want, s.active_why);
		assert_int_equal(s.active_prov, cases[i].known ? PROV_DERIVED : PROV_ASSUMED);
		if (cases[i].want == TRI_YES)
			assert_non_null(strstr(s.active_why, "SRAT"));
	}

	/* the boot log outranks the SRAT either way */
	struct machine m;
	struct layout l;
	struct swiotlb_state s;
	x86_6g(&m, &l);
	l.end_pfn = 0x80000;
	m.kmsg_from_boot = true;
	swiotlb_state_compute(&m, &l, KV(6, 1, 0), &s);
	assert_int_equal(s.active, TRI_NO);
	assert_int_equal(s.active_prov, PROV_READ);
	opt_set(&m.swiotlb.pool_start, 0x7b000000);
	opt_set(&m.swiotlb.pool_end, 0x7f000000);
	swiotlb_state_compute(&m, &l, KV(6, 1, 0), &s);
	assert_int_equal(s.active, TRI_YES);
	assert_int_equal(s.active_prov, PROV_READ);
	/* 32-bit x86 keeps its era rows (ERA_X86_32_POOL) */
	x86_6g(&m, &l);
	m.arch.value = (char *)"i686";
	m.arch_info = arch_lookup(m.arch.value);
	l.end_pfn = 0x80000;
	swiotlb_state_compute(&m, &l, KV(6, 1, 0), &s);
	assert_int_equal(s.active, TRI_NO);
}

/* arm64 built without ZONE_DMA and ZONE_DMA32: arm64_dma_phys_limit is PHYS_MASK + 1,
 * no RAM lies beyond it, no pool (arch/arm64/mm/init.c mem_init); zoneinfo shows the zones. */
static void test_arm64_no_dma_zones(void **state)
{
	struct zone normal_only[] = {
		{ .name = "Normal", .populated = true, .start_pfn = 0x40000, .spanned = 0x200000 },
		{ .name = "Movable" },
	};
	struct zone dma32_normal[] = {
		{ .name = "DMA32", .populated = true, .start_pfn = 0x40000, .spanned = 0xc0000 },
		{ .name = "Normal", .populated = true, .start_pfn = 0x100000, .spanned = 0x140000 },
	};
	struct machine m;
	struct layout l;
	struct swiotlb_state s;
	(void)state;

	/* 8 GiB from 1 GiB: RAM above 4 GiB */
	x86_6g(&m, &l);
	m.arch.value = (char *)"aarch64";
	m.arch_info = arch_lookup(m.arch.value);
	l.base_pfn = 0x40000;
	l.end_pfn = 0x240000;
	l.ram_bytes = 8ull << 30;
	l.zones = normal_only;
	l.n_zones = 2;
	swiotlb_state_compute(&m, &l, KV(6, 1, 0), &s);
	assert_int_equal(s.active, TRI_NO);
	assert_non_null(strstr(s.active_why, "no ZONE_DMA or ZONE_DMA32"));
	assert_false(s.size_bytes.known);
	/* the same RAM with ZONE_DMA32: the default pool */
	l.zones = dma32_normal;
	swiotlb_state_compute(&m, &l, KV(6, 1, 0), &s);
	assert_int_equal(s.active, TRI_YES);
	assert_int_equal(s.size_bytes.v, 64ull << 20);
	/* zoneinfo unreadable: either, so unknown rather than the 4 GiB guess */
	l.n_zones = 0;
	swiotlb_state_compute(&m, &l, KV(6, 1, 0), &s);
	assert_int_equal(s.active, TRI_UNKNOWN);
	assert_non_null(strstr(s.active_why, "proc/zoneinfo"));
	/* ... but not with all RAM below 4 GiB, where no zone makes a pool before 6.5 */
	l.end_pfn = 0x100000;
	swiotlb_state_compute(&m, &l, KV(6, 1, 0), &s);
	assert_int_equal(s.active, TRI_NO);
	/* 6.7+ without the zones: the kmalloc pool alone, of RAM / 1024 */
	l.end_pfn = 0x240000;
	l.zones = normal_only;
	l.n_zones = 2;
	swiotlb_state_compute(&m, &l, KV(6, 12, 0), &s);
	assert_int_equal(s.active, TRI_YES);
	assert_non_null(strstr(s.active_why, "kmalloc"));
	assert_int_equal(s.size_bytes.v, 8ull << 20);
	/* x86 never reads the zones so */
	x86_6g(&m, &l);
	l.zones = normal_only;
	l.n_zones = 2;
	swiotlb_state_compute(&m, &l, KV(6, 1, 0), &s);
	assert_int_equal(s.active, TRI_YES);
}

/* A machine of arch with RAM to end_pfn (4 KiB pages) and a rotated log: the default alone. */
static void plain(struct machine *m, struct layout *l, const char *arch, uint64_t end_pfn)
{
	x86_6g(m, l);
	m->arch.value = (char *)arch;
	m->arch_info = arch_lookup(arch);
	l->end_pfn = end_pfn;
	l->ram_bytes = (end_pfn - l->base_pfn) << 12;
	/* x86-64: an SRAT whose ranges are the RAM, none hot-pluggable beyond it */
	if (strcmp(arch, "x86_64") == 0)
		opt_set(&m->srat_mem_end, end_pfn << 12);
	/* arm64: zoneinfo with a ZONE_DMA32 to 4 GiB, as Debian's kernels have it */
	static struct zone arm64_zones[2];
	if (strcmp(arch, "aarch64") == 0) {
		uint64_t dma32_end = end_pfn < 0x100000 ? end_pfn : 0x100000;
		arm64_zones[0] = (struct zone){ .name = "DMA32", .populated = true, .start_pfn = l->base_pfn,
						.spanned = dma32_end - l->base_pfn };
		arm64_zones[1] = (struct zone){ .name = "Normal", .populated = end_pfn > 0x100000,
						.start_pfn = end_pfn > 0x100000 ? 0x100000 : 0,
						.spanned = end_pfn > 0x100000 ? end_pfn - 0x100000 : 0 };
		l->zones = arm64_zones;
		l->n_zones = 2;
	}
}

/* ERA_ARCH_POOL and ERA_X86_32_POOL, each boundary from both sides. */
static void test_arch_pool_eras(void **state)
{
	static const struct {
		const char *arch;
		uint32_t release;
		uint64_t end_pfn;
		int noncoherent;
		enum tristate want;
	} cases[] = {
		/* arm64: swiotlb_init(1) before b67a8b29df7e */
		{ "aarch64", KV(4, 7, 10), 0x80000, -ENOENT, TRI_YES },
		{ "aarch64", KV(4, 8, 0), 0x80000, -ENOENT, TRI_NO },
		{ "aarch64", KV(4, 8, 0), 0x140000, -ENOENT, TRI_YES },
		/* riscv: always before ce3aca0465e3 (5.14), non-coherent from fc7a50eed986 (6.10) */
		{ "riscv64", KV(5, 13, 19), 0xc0000, 0, TRI_YES },
		{ "riscv64", KV(5, 14, 0), 0xc0000, 1, TRI_NO },
		{ "riscv64", KV(5, 14, 0), 0x140000, 0, TRI_YES },
		/* max_pfn > PFN_DOWN(dma32_phys_limit): RAM ending at 4 GiB is not above */
		{ "riscv64", KV(5, 14, 0), 0x100000, 0, TRI_NO },
		{ "riscv64", KV(5, 14, 0), 0x100001, 0, TRI_YES },
		{ "riscv64", KV(6, 9, 12), 0xc0000, 1, TRI_NO },
		{ "riscv64", KV(6, 10, 0), 0xc0000, 1, TRI_YES },
		{ "riscv64", KV(6, 10, 0), 0xc0000, 0, TRI_NO },
		{ "riscv64", KV(6, 10, 0), 0xc0000, -ENOENT, TRI_UNKNOWN },
		/* 32-bit x86: none before 485734f3fc77 (4.19), any RAM until 88743470668e (5.7) */
		{ "i686", KV(4, 18, 20), 0x180000, -ENOENT, TRI_NO },
		{ "i686", KV(4, 19, 0), 0x180000, -ENOENT, TRI_YES },
		{ "i686", KV(4, 19, 0), 0xc0000, -ENOENT, TRI_YES },
		/* 88743470668e: 5.7, stable 4.19.126, 5.4.44 and 5.6.16 */
		{ "i686", KV(4, 19, 125), 0xc0000, -ENOENT, TRI_YES },
		{ "i686", KV(4, 19, 126), 0xc0000, -ENOENT, TRI_NO },
		{ "i686", KV(4, 19, 316), 0xc0000, -ENOENT, TRI_NO },
		{ "i686", KV(5, 4, 43), 0xc0000, -ENOENT, TRI_YES },
		{ "i686", KV(5, 4, 44), 0xc0000, -ENOENT, TRI_NO },
		{ "i686", KV(5, 6, 15), 0xc0000, -ENOENT, TRI_YES },
		{ "i686", KV(5, 6, 16), 0xc0000, -ENOENT, TRI_NO },
		{ "i686", KV(5, 7, 0), 0xc0000, -ENOENT, TRI_NO },
		{ "i686", KV(5, 7, 0), 0x180000, -ENOENT, TRI_YES },
		{ "i686", KV(5, 8, 0), 0xc0000, -ENOENT, TRI_NO },
		{ "i686", KV(5, 8, 0), 0x180000, -ENOENT, TRI_YES },
		/* x86-64: above 4 GiB in every era */
		{ "x86_64", KV(4, 18, 0), 0xc0000, -ENOENT, TRI_NO },
		{ "x86_64", KV(4, 18, 0), 0x180000, -ENOENT, TRI_YES },
		/* no default modelled */
		{ "ppc64le", KV(6, 1, 0), 0x180000, -ENOENT, TRI_UNKNOWN },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct layout l;
		const char *why;
		plain(&m, &l, cases[i].arch, cases[i].end_pfn);
		if (cases[i].noncoherent >= 0)
			opt_set(&m.riscv_noncoherent, cases[i].noncoherent == 1);
		else
			opt_clear(&m.riscv_noncoherent);
		enum tristate got = active(&m, &l, cases[i].release, &why);
		if (got != cases[i].want)
			fail_msg("case %zu (%s %x): %d, want %d (%s)", i, cases[i].arch, cases[i].release,
				 got, cases[i].want, why);
		assert_non_null(why);
	}
}

/* AMD before 5.19 keeps the pool for a passthrough default domain: iommu=pt, or from 5.4 the groups. */
static void test_amd_passthrough(void **state)
{
	static const struct {
		uint32_t release;
		bool pt;
		enum iommu_domain a, b;
		enum tristate want;
	} cases[] = {
		{ KV(5, 3, 18), false, IOMMU_DOMAIN_IDENTITY, IOMMU_DOMAIN_IDENTITY, TRI_NO },
		{ KV(5, 3, 18), true, IOMMU_DOMAIN_IDENTITY, IOMMU_DOMAIN_IDENTITY, TRI_YES },
		{ KV(5, 4, 0), false, IOMMU_DOMAIN_IDENTITY, IOMMU_DOMAIN_IDENTITY, TRI_YES },
		/* an IOMMUv2 GPU's identity among translated groups is not the default */
		{ KV(5, 4, 0), false, IOMMU_DOMAIN_IDENTITY, IOMMU_DOMAIN_DMA, TRI_NO },
		{ KV(5, 10, 0), false, IOMMU_DOMAIN_DMA_FQ, IOMMU_DOMAIN_DMA, TRI_NO },
		{ KV(5, 10, 0), false, IOMMU_DOMAIN_NONE, IOMMU_DOMAIN_NONE, TRI_NO },
		{ KV(5, 19, 0), false, IOMMU_DOMAIN_DMA, IOMMU_DOMAIN_DMA, TRI_YES },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct device d[2] = { { .iommu_group = OPT(1), .iommu_domain = cases[i].a },
				       { .iommu_group = OPT(2), .iommu_domain = cases[i].b } };
		struct machine m;
		struct layout l;
		const char *why;
		x86_6g(&m, &l);
		m.iommu_groups_present = true;
		m.log_amd_iommu = true;
		m.cmd.iommu_pt = cases[i].pt;
		m.devices = d;
		m.n_devices = 2;
		enum tristate got = active(&m, &l, cases[i].release, &why);
		if (got != cases[i].want)
			fail_msg("case %zu: %d, want %d (%s)", i, got, cases[i].want, why);
	}
}

/*
 * An unknown release (0) where the current row would assume a pool that older
 * kernels do not allocate: unknown, not the pool. Where every era agrees, or
 * the current row is the one without a pool, the answer stands.
 */
static void test_unknown_release_pool(void **state)
{
	static struct zone dma_all[] = { /* all RAM in ZONE_DMA */
		{ .name = "DMA", .populated = true, .start_pfn = 0x40000, .spanned = 0x80000 },
	};
	static const struct {
		const char *arch;
		uint64_t end_pfn;
		bool groups;            /* x86: an Intel IOMMU came up */
		int noncoherent;        /* riscv; -ENOENT: not read */
		enum tristate want;
		const char *why;
	} cases[] = {
		/* the IOMMU drivers freed it before 5.19 (was: TRI_YES, the current row) */
		{ "x86_64", 0x1c0000, true, -ENOENT, TRI_UNKNOWN, "kernel release unknown" },
		{ "x86_64", 0x1c0000, false, -ENOENT, TRI_YES, "RAM above 4 GiB" },
		{ "x86_64", 0xc0000, true, -ENOENT, TRI_NO, "no ACPI SRAT memory range above 4 GiB" },
		/* 32-bit x86 before 4.19: none (was: TRI_YES) */
		{ "i686", 0x180000, false, -ENOENT, TRI_UNKNOWN, "kernel release unknown" },
		{ "i686", 0xc0000, false, -ENOENT, TRI_NO, "no RAM above 4 GiB" },
		/* arm64 before 6.5: no kmalloc pool (was: TRI_NO, the generic row's) */
		{ "aarch64", 0xc0000, false, -ENOENT, TRI_UNKNOWN, "kernel release unknown" },
		{ "aarch64", 0x140000, false, -ENOENT, TRI_YES, "RAM beyond the DMA zone" },
		/* riscv 5.14-6.9: none for non-coherent DMA (was: TRI_UNKNOWN, no default known) */
		{ "riscv64", 0xc0000, false, 1, TRI_UNKNOWN, "kernel release unknown" },
		{ "riscv64", 0xc0000, false, 0, TRI_NO, "coherent DMA" },
		{ "riscv64", 0xc0000, false, -ENOENT, TRI_UNKNOWN, "does not say" },
		{ "riscv64", 0x140000, false, 1, TRI_YES, "RAM above 4 GiB" },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct layout l;
		const char *why;
		plain(&m, &l, cases[i].arch, cases[i].end_pfn);
		if (strcmp(cases[i].arch, "aarch64") == 0 || strcmp(cases[i].arch, "riscv64") == 0)
			l.base_pfn = 0x40000;
		m.iommu_groups_present = cases[i].groups;
		m.log_intel_iommu = cases[i].groups;
		if (cases[i].noncoherent >= 0)
			opt_set(&m.riscv_noncoherent, cases[i].noncoherent == 1);
		enum tristate got = active(&m, &l, 0, &why);
		if (got != cases[i].want || !strstr(why, cases[i].why))
			fail_msg("case %zu (%s): %d (%s), want %d (%s)", i, cases[i].arch, got, why,
				 cases[i].want, cases[i].why);
	}

	/* AMD with iommu=pt keeps the pool in every era */
	struct machine m;
	struct layout l;
	const char *why;
	plain(&m, &l, "x86_64", 0x1c0000);
	m.iommu_groups_present = true;
	m.log_amd_iommu = true;
	m.cmd.iommu_pt = true;
	assert_int_equal(active(&m, &l, 0, &why), TRI_YES);

	/* 32-bit ARM LPAE: before 5.3 no pool (was: TRI_YES with RAM past the limit) */
	arm_2g(&m, &l, NULL, NULL, 0);
	opt_set(&m.arm_cr, 0x30c5387d);
	l.end_pfn = 0x140000;
	assert_int_equal(active(&m, &l, 0, &why), TRI_UNKNOWN);
	assert_non_null(strstr(why, "kernel release unknown"));
	arm_2g(&m, &l, NULL, dma_all, 1); /* no RAM past the limit: none in any era */
	opt_set(&m.arm_cr, 0x30c5387d);
	l.lowmem.end_pfn = l.end_pfn;
	assert_int_equal(active(&m, &l, 0, &why), TRI_NO);
	arm_2g(&m, &l, NULL, NULL, 0); /* not LPAE: none in any era */
	opt_set(&m.arm_cr, 0x10c5387d);
	l.end_pfn = 0x140000;
	assert_int_equal(active(&m, &l, 0, &why), TRI_NO);
}

/* A Hyper-V isolated VM forces bouncing from 5.17 (062a5c4260cd): at an unknown release,
 * not said forced. */
static void test_unknown_release_hyperv(void **state)
{
	struct machine m;
	struct layout l;
	struct swiotlb_state s;
	(void)state;

	x86_6g(&m, &l);
	m.coco.log_hyperv_isolation = 3;
	swiotlb_state_compute(&m, &l, KV(5, 17, 0), &s);
	assert_true(s.forced);
	assert_null(s.forced_unknown_why);
	swiotlb_state_compute(&m, &l, KV(5, 16, 20), &s);
	assert_false(s.forced);
	assert_null(s.forced_unknown_why);
	swiotlb_state_compute(&m, &l, 0, &s); /* was: forced */
	assert_false(s.forced);
	assert_non_null(strstr(s.forced_unknown_why, "kernel release unknown"));
}

/*
 * swiotlb= by era (ERA_SWIOTLB_PARAM): before 5.19 the last of force and
 * noforce wins; from 5.19 noforce wins wherever it stands; from 6.0 a word
 * after <slabs>,<areas> counts too. With the release unknown, a line the eras
 * read differently leaves forcing unknown, unless a confidential guest forces.
 */
static void test_cmdline_words_by_era(void **state)
{
	enum { F = 1, NF = 2, FA = 4, NFA = 8 };
	static const struct {
		unsigned words;
		enum swiotlb_word last;
		uint32_t release;
		bool force, noforce, unknown;
	} cases[] = {
		{ FA, SWIOTLB_WORD_NONE, KV(5, 19, 255), false, false, false }, /* "N,4,force" */
		{ FA, SWIOTLB_WORD_NONE, KV(6, 0, 0), true, false, false },
		{ FA, SWIOTLB_WORD_NONE, 0, true, false, true },
		{ F | NF, SWIOTLB_WORD_NOFORCE, KV(5, 18, 255), false, true, false },
		{ F | NF, SWIOTLB_WORD_NOFORCE, KV(5, 19, 0), false, true, false },
		{ F | NF, SWIOTLB_WORD_NOFORCE, 0, false, true, false }, /* every era: not forced */
		{ F | NF, SWIOTLB_WORD_FORCE, KV(5, 18, 255), true, false, false },
		{ F | NF, SWIOTLB_WORD_FORCE, KV(5, 19, 0), false, true, false },
		{ F | NF, SWIOTLB_WORD_FORCE, 0, false, true, true },
		{ F | NFA, SWIOTLB_WORD_FORCE, KV(5, 19, 255), true, false, false },
		{ F | NFA, SWIOTLB_WORD_FORCE, KV(6, 0, 0), false, true, false },
		{ F, SWIOTLB_WORD_FORCE, 0, true, false, false },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct layout l;
		struct swiotlb_state s;
		x86_6g(&m, &l);
		m.cmd.swiotlb_force = cases[i].words & F;
		m.cmd.swiotlb_noforce = cases[i].words & NF;
		m.cmd.swiotlb_force_areas = cases[i].words & FA;
		m.cmd.swiotlb_noforce_areas = cases[i].words & NFA;
		m.cmd.swiotlb_last_word = cases[i].last;
		swiotlb_state_compute(&m, &l, cases[i].release, &s);
		if (s.cmdline_force != cases[i].force || s.cmdline_noforce != cases[i].noforce ||
		    (s.forced_unknown_why != NULL) != cases[i].unknown || s.forced != cases[i].force)
			fail_msg("case %zu: force %d noforce %d unknown %d forced %d", i, s.cmdline_force,
				 s.cmdline_noforce, s.forced_unknown_why != NULL, s.forced);
		if (cases[i].noforce && cases[i].release)
			assert_int_equal(s.active, TRI_NO); /* the pool swiotlb=noforce leaves out */
	}

	/* an SEV guest bounces whatever the line says, in every era */
	struct machine m;
	struct layout l;
	struct swiotlb_state s;

	/* 4.10-5.12 keep a token slab (debugfs io_tlb_nslabs 1 on Debian's 5.10 guest):
	 * a pool, one slab, never used; no log needed to say so */
	x86_6g(&m, &l);
	m.cmd.swiotlb_noforce = true;
	m.cmd.swiotlb_last_word = SWIOTLB_WORD_NOFORCE;
	swiotlb_state_compute(&m, &l, KV(5, 10, 223), &s);
	assert_int_equal(s.active, TRI_YES);
	assert_true(s.size_bytes.known);
	assert_int_equal(s.size_bytes.v, 1u << IO_TLB_SHIFT);
	assert_non_null(strstr(s.active_why, "token"));
	swiotlb_state_compute(&m, &l, KV(5, 13, 0), &s);
	assert_int_equal(s.active, TRI_NO); /* 2726bf3ff252: no allocation from 5.13 */

	x86_6g(&m, &l);
	m.cmd.swiotlb_force = m.cmd.swiotlb_noforce = true;
	m.cmd.swiotlb_last_word = SWIOTLB_WORD_FORCE;
	m.coco.log_sev = true;
	swiotlb_state_compute(&m, &l, 0, &s);
	assert_true(s.forced);
	assert_null(s.forced_unknown_why);
}

/* Xen without guest_type (before 4.12) or with one unknown: PV not ruled out. */
static void test_xen_guest_type_unknown(void **state)
{
	static const struct {
		enum xen_guest_type type;
		bool dom0;
		bool pv, pv_unknown;
	} cases[] = {
		{ XEN_GUEST_PV, false, true, false },
		{ XEN_GUEST_HVM, false, false, false },
		{ XEN_GUEST_PVH, false, false, false },
		{ XEN_GUEST_UNKNOWN, true, true, false },
		{ XEN_GUEST_UNKNOWN, false, true, true }, /* was: not PV */
		{ XEN_GUEST_OTHER, false, true, true },   /* was: not PV */
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct layout l;
		struct swiotlb_state s;
		x86_6g(&m, &l);
		m.hyp.type = HYPERVISOR_XEN;
		m.hyp.xen_guest_type = cases[i].type;
		m.hyp.xen_dom0 = cases[i].dom0;
		swiotlb_state_compute(&m, &l, KV(6, 1, 0), &s);
		assert_int_equal(s.xen_pv, cases[i].pv);
		assert_int_equal(s.xen_pv_unknown, cases[i].pv_unknown);
		assert_int_equal(s.xen_why != NULL, cases[i].pv);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arm64_kmalloc_pool),
		cmocka_unit_test(test_pool_areas),
		cmocka_unit_test(test_arm64_no_dma_zones),
		cmocka_unit_test(test_x86_possible_pfn),
		cmocka_unit_test(test_default_pool),
		cmocka_unit_test(test_iommu_frees_pool),
		cmocka_unit_test(test_iommu_off),
		cmocka_unit_test(test_log_from_boot),
		cmocka_unit_test(test_huge_counters),
		cmocka_unit_test(test_arm_lpae),
		cmocka_unit_test(test_arm_pool_default),
		cmocka_unit_test(test_pool_placement),
		cmocka_unit_test(test_arch_pool_eras),
		cmocka_unit_test(test_amd_passthrough),
		cmocka_unit_test(test_unknown_release_pool),
		cmocka_unit_test(test_unknown_release_hyperv),
		cmocka_unit_test(test_cmdline_words_by_era),
		cmocka_unit_test(test_xen_guest_type_unknown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
