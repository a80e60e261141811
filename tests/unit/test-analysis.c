/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The models' arithmetic: eras, dma-ranges maps, reach, the legacy block layer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/dma-map.h"
#include "analysis/eras.h"
#include "analysis/layout.h"
#include "analysis/legacy-block.h"
#include "analysis/reach.h"

#define GiB (1ull << 30)
#define MiB (1ull << 20)

/* A layout over the given inclusive ranges, lowmem ending at low_end_pfn (0: end). */
static struct layout mk_layout(const struct ram_range *r, size_t n, uint64_t low_end_pfn)
{
	struct layout l = { .source = LAYOUT_SOURCE_IOMEM, .page_size = 4096, .page_shift = 12 };
	l.ranges = malloc(n * sizeof(*r));
	assert_non_null(l.ranges);
	memcpy(l.ranges, r, n * sizeof(*r));
	l.n_ranges = n;
	for (size_t i = 0; i < n; i++)
		l.ram_bytes += r[i].end - r[i].start + 1;
	l.base_pfn = (r[0].start + 4095) >> 12;
	l.end_pfn = (r[n - 1].end + 1) >> 12;
	l.lowmem.known = true;
	l.lowmem.end_pfn = low_end_pfn ? low_end_pfn : l.end_pfn;
	l.lowmem.page_count = l.lowmem.end_pfn - l.base_pfn;
	l.lowmem.max_low_pfn_as_count = l.lowmem.page_count;
	l.lowmem.max_low_pfn_as_pfn = l.lowmem.end_pfn;
	l.lowmem.highmem_bytes = layout_ram_bytes_above(&l, l.lowmem.end_pfn << 12);
	return l;
}

static void test_version_parse(void **state)
{
	uint32_t v;
	(void)state;
	assert_true(kernel_version_parse("6.18.44-fc-v1147", &v));
	assert_int_equal(v, KV(6, 18, 44));
	assert_true(kernel_version_parse("3.3.0", &v));
	assert_int_equal(v, KV(3, 3, 0));
	assert_true(kernel_version_parse("5.10", &v));
	assert_int_equal(v, KV(5, 10, 0));
	assert_true(kernel_version_parse("4.19.300", &v)); /* sublevel saturates at 255 */
	assert_int_equal(v, KV(4, 19, 255));
	assert_false(kernel_version_parse("", &v));
	assert_false(kernel_version_parse("linux", &v));
	assert_false(kernel_version_parse("6", &v));
	assert_false(kernel_version_parse(NULL, &v));
	assert_false(kernel_version_parse("999.1.1", &v));
}

static void test_eras(void **state)
{
	const char *src = NULL;
	(void)state;
	assert_int_equal(era_value(ERA_MAX_LOW_PFN, KV(3, 12, 9), ARCH_ARM, &src), MAX_LOW_PFN_COUNT);
	assert_non_null(src);
	assert_int_equal(era_value(ERA_MAX_LOW_PFN, KV(3, 13, 0), ARCH_ARM, NULL), MAX_LOW_PFN_PFN);
	assert_int_equal(era_value(ERA_MAX_LOW_PFN, KV(3, 3, 0), ARCH_X86, NULL), MAX_LOW_PFN_PFN);
	assert_int_equal(era_value(ERA_MAX_LOW_PFN, 0, ARCH_ARM, NULL), MAX_LOW_PFN_PFN);
	assert_int_equal(era_value(ERA_BLOCK_BOUNCE, KV(5, 12, 19), ANY_ARCH, NULL), BLOCK_BOUNCE_PFN);
	assert_int_equal(era_value(ERA_BLOCK_BOUNCE, KV(5, 13, 0), ANY_ARCH, NULL), BLOCK_BOUNCE_NEVER_HIGHMEM);
	assert_int_equal(era_value(ERA_BLOCK_BOUNCE, KV(6, 16, 0), ANY_ARCH, NULL), BLOCK_BOUNCE_NONE);
	assert_int_equal(era_value(ERA_BLOCK_LIMIT, KV(3, 14, 0), ARCH_ARM, NULL), BLOCK_LIMIT_PHYS_OFFSET_PFN);
	assert_int_equal(era_value(ERA_BLOCK_LIMIT, KV(3, 14, 0), ARCH_X86, NULL), BLOCK_LIMIT_DMA_MAX_PFN);
	/* ARM's PHYS_PFN_OFFSET form: still in 4.2, gone by 4.12 (4.10 taken) */
	assert_int_equal(era_value(ERA_BLOCK_LIMIT, KV(4, 9, 99), ARCH_ARM, NULL), BLOCK_LIMIT_PHYS_OFFSET_PFN);
	assert_int_equal(era_value(ERA_BLOCK_LIMIT, KV(4, 10, 0), ARCH_ARM, NULL), BLOCK_LIMIT_DMA_MAX_PFN);
	/* untrusted devices without a pool, by era and stable release */
	static const struct {
		uint32_t release;
		int want;
	} untrusted[] = {
		{ KV(5, 10, 223), UNTRUSTED_NOT_MODELLED }, { KV(5, 11, 0), UNTRUSTED_NO_POOL_FULL },
		{ KV(5, 12, 19), UNTRUSTED_NO_POOL_FULL },  { KV(5, 13, 0), UNTRUSTED_NO_POOL_PANIC },
		{ KV(5, 14, 21), UNTRUSTED_NO_POOL_PANIC }, { KV(5, 15, 0), UNTRUSTED_NO_POOL_FULL },
		{ KV(5, 15, 60), UNTRUSTED_NO_POOL_FULL },  { KV(5, 15, 61), UNTRUSTED_NO_POOL_PANIC },
		{ KV(5, 15, 190), UNTRUSTED_NO_POOL_PANIC }, { KV(5, 16, 0), UNTRUSTED_NO_POOL_FULL },
		{ KV(5, 18, 17), UNTRUSTED_NO_POOL_FULL },  { KV(5, 18, 18), UNTRUSTED_NO_POOL_PANIC },
		{ KV(5, 18, 19), UNTRUSTED_NO_POOL_PANIC }, { KV(5, 19, 0), UNTRUSTED_NO_POOL_CHECKED },
	};
	for (size_t i = 0; i < sizeof(untrusted) / sizeof(*untrusted); i++)
		assert_int_equal(era_value(ERA_UNTRUSTED_BOUNCE, untrusted[i].release, ARCH_X86, NULL),
				 untrusted[i].want);
	/* 82806744fd7d and its stable backports */
	assert_int_equal(era_value(ERA_MAPPING_ALIGN, KV(5, 10, 34), ANY_ARCH, NULL), MAPPING_ALIGN_NONE);
	assert_int_equal(era_value(ERA_MAPPING_ALIGN, KV(5, 10, 35), ANY_ARCH, NULL), MAPPING_ALIGN_UNCOUNTED);
	assert_int_equal(era_value(ERA_MAPPING_ALIGN, KV(5, 10, 146), ANY_ARCH, NULL), MAPPING_ALIGN_UNCOUNTED);
	/* the 5.4.y submission was declined: no min_align_mask in any 5.4 */
	assert_int_equal(era_value(ERA_MAPPING_ALIGN, KV(5, 4, 255), ANY_ARCH, NULL), MAPPING_ALIGN_NONE);
	assert_int_equal(era_value(ERA_MAPPING_ALIGN, KV(5, 10, 147), ANY_ARCH, NULL), MAPPING_ALIGN_SUBTRACTED);
	assert_int_equal(era_value(ERA_MAPPING_ALIGN, KV(5, 15, 71), ANY_ARCH, NULL), MAPPING_ALIGN_UNCOUNTED);
	assert_int_equal(era_value(ERA_MAPPING_ALIGN, KV(5, 15, 72), ANY_ARCH, NULL), MAPPING_ALIGN_SUBTRACTED);
	assert_int_equal(era_value(ERA_MAPPING_ALIGN, KV(5, 18, 19), ANY_ARCH, NULL), MAPPING_ALIGN_UNCOUNTED);
	assert_int_equal(era_value(ERA_MAPPING_ALIGN, KV(5, 19, 0), ANY_ARCH, NULL), MAPPING_ALIGN_SUBTRACTED);
	assert_int_equal(era_value(ERA_AMD_PASSTHROUGH, KV(5, 3, 18), ANY_ARCH, NULL), 0);
	assert_int_equal(era_value(ERA_AMD_PASSTHROUGH, KV(5, 4, 0), ANY_ARCH, NULL), 1);
	assert_int_equal(era_value(ERA_RANGE_MAP, KV(5, 9, 0), ANY_ARCH, NULL), RANGE_MAP_PFN_OFFSET);
	assert_int_equal(era_value(ERA_RANGE_MAP, KV(5, 10, 0), ANY_ARCH, NULL), RANGE_MAP_REGIONS);
	assert_int_equal(era_value(ERA_BUS_LIMIT, KV(5, 4, 0), ANY_ARCH, NULL), BUS_LIMIT_MASK);
	assert_int_equal(era_value(ERA_PLATFORM_MASK, KV(3, 3, 0), ARCH_ARM, NULL), PLATFORM_MASK_NONE);
	assert_int_equal(era_value(ERA_SCSI_BLOCK_LIMIT, KV(4, 17, 19), ANY_ARCH, NULL), SCSI_LIMIT_AS_BLOCK);
	assert_int_equal(era_value(ERA_SCSI_BLOCK_LIMIT, KV(4, 18, 0), ANY_ARCH, NULL), SCSI_LIMIT_NONE);
	assert_int_equal(era_value(ERA_STREAMING_MAP, KV(5, 2, 0), ARCH_ARM, NULL), STREAMING_ARM_NO_CHECK);
	assert_int_equal(era_value(ERA_HYPERV_FORCE, KV(5, 16, 20), ANY_ARCH, NULL), 0);
	assert_int_equal(era_value(ERA_HYPERV_FORCE, KV(5, 17, 0), ANY_ARCH, NULL), 1);
	assert_int_equal(era_value(ERA_S390_PCI_DMA, KV(6, 6, 0), ANY_ARCH, NULL), S390_PCI_OWN_OPS);
	assert_int_equal(era_value(ERA_S390_PCI_DMA, KV(6, 7, 0), ANY_ARCH, NULL), S390_PCI_DMA_IOMMU);
	assert_int_equal(era_value(ERA_STREAMING_MAP, KV(5, 10, 0), ARCH_ARM, NULL), STREAMING_ARM_LPAE_DIRECT);
	assert_int_equal(era_value(ERA_STREAMING_MAP, KV(6, 0, 0), ARCH_ARM, NULL), STREAMING_DMA_DIRECT);
	assert_int_equal(era_value(ERA_STREAMING_MAP, KV(4, 19, 0), ARCH_ARM64, NULL), STREAMING_DMA_DIRECT);
	assert_int_equal(era_value(ERA_MAPPING_ALIGN, KV(4, 19, 0), ANY_ARCH, NULL), MAPPING_ALIGN_NONE);
	assert_int_equal(era_value(ERA_MAPPING_ALIGN, KV(5, 12, 0), ANY_ARCH, NULL), MAPPING_ALIGN_UNCOUNTED);
	assert_int_equal(era_value(ERA_MAPPING_ALIGN, KV(5, 19, 0), ANY_ARCH, NULL), MAPPING_ALIGN_SUBTRACTED);
	assert_int_equal(era_value(ERA_MAPPING_ALIGN, 0, ANY_ARCH, NULL), MAPPING_ALIGN_SUBTRACTED);
	/* of_dma_get_range's start: above np before 5.5, np to 6.1, the bus after */
	assert_int_equal(era_value(ERA_DT_WALK_START, KV(5, 4, 300), ANY_ARCH, NULL), DT_WALK_ABOVE_NODE);
	assert_int_equal(era_value(ERA_DT_WALK_START, KV(5, 5, 0), ANY_ARCH, NULL), DT_WALK_DEVICE_NODE);
	assert_int_equal(era_value(ERA_DT_WALK_START, KV(6, 0, 19), ANY_ARCH, NULL), DT_WALK_DEVICE_NODE);
	assert_int_equal(era_value(ERA_DT_WALK_START, KV(6, 1, 0), ANY_ARCH, NULL), DT_WALK_PARENT_BUS);
	/* swiotlb=noforce: unknown before 4.10, one unused slab to 5.12, no pool from 5.13 */
	assert_int_equal(era_value(ERA_SWIOTLB_NOFORCE, KV(4, 9, 0), ANY_ARCH, NULL), NOFORCE_IGNORED);
	assert_int_equal(era_value(ERA_SWIOTLB_NOFORCE, KV(4, 10, 0), ANY_ARCH, NULL), NOFORCE_ONE_SLAB);
	assert_int_equal(era_value(ERA_SWIOTLB_NOFORCE, KV(5, 12, 19), ANY_ARCH, NULL), NOFORCE_ONE_SLAB);
	assert_int_equal(era_value(ERA_SWIOTLB_NOFORCE, KV(5, 13, 0), ANY_ARCH, NULL), NOFORCE_NO_POOL);
	/* no pool: swiotlb_map() still tried 5.0-5.18, is_swiotlb_active() first from 5.19 */
	assert_int_equal(era_value(ERA_POOLLESS_MAP, KV(4, 20, 0), ANY_ARCH, NULL), -1);
	assert_int_equal(era_value(ERA_POOLLESS_MAP, KV(5, 0, 0), ANY_ARCH, NULL), POOLLESS_TRIES_SWIOTLB);
	assert_int_equal(era_value(ERA_POOLLESS_MAP, KV(5, 18, 19), ANY_ARCH, NULL), POOLLESS_TRIES_SWIOTLB);
	assert_int_equal(era_value(ERA_POOLLESS_MAP, KV(5, 19, 0), ANY_ARCH, NULL), POOLLESS_OVERFLOW);
	/* ...except where mem_init() set SWIOTLB_NO_FORCE without a pool */
	assert_int_equal(era_value(ERA_POOLLESS_MAP, KV(5, 10, 0), ARCH_X86, NULL), POOLLESS_TRIES_SWIOTLB);
	assert_int_equal(era_value(ERA_POOLLESS_MAP, KV(5, 10, 0), ARCH_ARM64, NULL), POOLLESS_OVERFLOW);
	assert_int_equal(era_value(ERA_POOLLESS_MAP, KV(5, 10, 68), ARCH_ARM, NULL), POOLLESS_TRIES_SWIOTLB);
	assert_int_equal(era_value(ERA_POOLLESS_MAP, KV(5, 10, 69), ARCH_ARM, NULL), POOLLESS_OVERFLOW);
	assert_int_equal(era_value(ERA_POOLLESS_MAP, KV(5, 13, 255), ARCH_RISCV, NULL), POOLLESS_TRIES_SWIOTLB);
	assert_int_equal(era_value(ERA_POOLLESS_MAP, KV(5, 14, 0), ARCH_RISCV, NULL), POOLLESS_OVERFLOW);
	/* 32-bit ARM LPAE's pool: none before ad3c7b18c5b3 (5.3), always until
	 * fcf044891c84 (5.13; stable 5.4.149 and 5.10.69), then only past arm_dma_pfn_limit */
	assert_int_equal(era_value(ERA_ARM_LPAE_POOL, KV(5, 2, 21), ARCH_ARM, NULL), ARM_POOL_NONE);
	assert_int_equal(era_value(ERA_ARM_LPAE_POOL, KV(5, 3, 0), ARCH_ARM, NULL), ARM_POOL_ALWAYS);
	assert_int_equal(era_value(ERA_ARM_LPAE_POOL, KV(5, 4, 148), ARCH_ARM, NULL), ARM_POOL_ALWAYS);
	assert_int_equal(era_value(ERA_ARM_LPAE_POOL, KV(5, 4, 149), ARCH_ARM, NULL), ARM_POOL_ABOVE_DMA_LIMIT);
	assert_int_equal(era_value(ERA_ARM_LPAE_POOL, KV(5, 5, 0), ARCH_ARM, NULL), ARM_POOL_ALWAYS);
	assert_int_equal(era_value(ERA_ARM_LPAE_POOL, KV(5, 10, 0), ARCH_ARM, NULL), ARM_POOL_ALWAYS);
	assert_int_equal(era_value(ERA_ARM_LPAE_POOL, KV(5, 10, 68), ARCH_ARM, NULL), ARM_POOL_ALWAYS);
	assert_int_equal(era_value(ERA_ARM_LPAE_POOL, KV(5, 10, 69), ARCH_ARM, NULL), ARM_POOL_ABOVE_DMA_LIMIT);
	assert_int_equal(era_value(ERA_ARM_LPAE_POOL, KV(5, 11, 0), ARCH_ARM, NULL), ARM_POOL_ALWAYS);
	assert_int_equal(era_value(ERA_ARM_LPAE_POOL, KV(5, 12, 19), ARCH_ARM, NULL), ARM_POOL_ALWAYS);
	assert_int_equal(era_value(ERA_ARM_LPAE_POOL, KV(5, 13, 0), ARCH_ARM, NULL), ARM_POOL_ABOVE_DMA_LIMIT);
	assert_int_equal(era_value(ERA_ARM_LPAE_POOL, 0, ARCH_ARM, NULL), ARM_POOL_ABOVE_DMA_LIMIT);
	assert_int_equal(era_value(ERA_ARM_LPAE_POOL, KV(5, 10, 0), ARCH_ARM64, NULL), -1);
	/* the default pool: low memory, then low unless SWIOTLB_ANY (8ba2ed1be90f, 5.19) */
	assert_int_equal(era_value(ERA_POOL_PLACEMENT, KV(3, 14, 0), ANY_ARCH, NULL), POOL_PLACE_LOW);
	assert_int_equal(era_value(ERA_POOL_PLACEMENT, KV(5, 18, 19), ARCH_ARM64, NULL), POOL_PLACE_LOW);
	assert_int_equal(era_value(ERA_POOL_PLACEMENT, KV(5, 19, 0), ARCH_ARM64, NULL), POOL_PLACE_LOW_UNLESS_ANY);
	assert_int_equal(era_value(ERA_POOL_PLACEMENT, 0, ARCH_X86, NULL), POOL_PLACE_LOW_UNLESS_ANY);
	/* the bus limit checked from 4.20 (b4ebe6063204) */
	assert_int_equal(era_value(ERA_BUS_LIMIT, KV(4, 19, 300), ANY_ARCH, NULL), BUS_LIMIT_NONE);
	assert_int_equal(era_value(ERA_BUS_LIMIT, KV(4, 20, 0), ANY_ARCH, NULL), BUS_LIMIT_MASK);

	/* every row cites its source, and rows of one rule do not overlap for one arch */
	unsigned n;
	const struct era_row *t = era_table(&n);
	for (unsigned i = 0; i < n; i++) {
		assert_non_null(t[i].source);
		assert_true(strlen(t[i].source) > 10);
		assert_true(t[i].until == 0 || t[i].until > t[i].since);
	}
}

/* The last stable release of a series: KV saturates the sublevel at 255, and so
 * does kernel_version_parse("5.7.300"). */
#define LAST(a, b) KV(a, b, 255)

/*
 * Every boundary of THE era table (issue 28), pinned on both sides: the value
 * at the last release before it and at the release itself. cite is the commit
 * (or the words) the row on one side cites in its source, checked against the
 * table so the two cannot drift apart. A new row's boundary without a case
 * here fails test_era_boundaries_covered.
 */
static const struct era_case {
	enum era_rule rule;
	enum arch_family arch; /* ANY_ARCH for a row of every architecture */
	uint32_t before, at;
	int want_before, want_at;
	const char *cite;
} era_cases[] = {
	/* ARM: 7805/1 "mm: change max*pfn to include the physical offset of memory" */
	{ ERA_MAX_LOW_PFN, ARCH_ARM, LAST(3, 12), KV(3, 13, 0), MAX_LOW_PFN_COUNT, MAX_LOW_PFN_PFN,
	  "26ba47b18318" },
	/* "block: refactor the bounce buffering code", "block: remove bounce buffering support" */
	{ ERA_BLOCK_BOUNCE, ANY_ARCH, LAST(5, 12), KV(5, 13, 0), BLOCK_BOUNCE_PFN,
	  BLOCK_BOUNCE_NEVER_HIGHMEM, "9bb33f24abbd" },
	{ ERA_BLOCK_BOUNCE, ANY_ARCH, LAST(6, 15), KV(6, 16, 0), BLOCK_BOUNCE_NEVER_HIGHMEM,
	  BLOCK_BOUNCE_NONE, "eeadd68e2a5f" },
	/* dma_max_pfn() (3.13), ARM's PHYS_PFN_OFFSET form (ARM: 7795/1) until 4.10, removed in 5.3 */
	{ ERA_BLOCK_LIMIT, ARCH_X86, LAST(3, 12), KV(3, 13, 0), BLOCK_LIMIT_MASK, BLOCK_LIMIT_DMA_MAX_PFN,
	  "dma_max_pfn (3.13" },
	{ ERA_BLOCK_LIMIT, ARCH_ARM, LAST(3, 12), KV(3, 13, 0), BLOCK_LIMIT_MASK,
	  BLOCK_LIMIT_PHYS_OFFSET_PFN, "ARM: 7795/1" },
	{ ERA_BLOCK_LIMIT, ARCH_ARM, LAST(4, 9), KV(4, 10, 0), BLOCK_LIMIT_PHYS_OFFSET_PFN,
	  BLOCK_LIMIT_DMA_MAX_PFN, "gone by 4.12" },
	{ ERA_BLOCK_LIMIT, ANY_ARCH, LAST(5, 2), KV(5, 3, 0), BLOCK_LIMIT_DMA_MAX_PFN,
	  BLOCK_LIMIT_ANY_WITH_MASK, "dma-mapping: remove dma_max_pfn" },
	/* "scsi: reduce use of block bounce buffers" */
	{ ERA_SCSI_BLOCK_LIMIT, ANY_ARCH, LAST(4, 17), KV(4, 18, 0), SCSI_LIMIT_AS_BLOCK, SCSI_LIMIT_NONE,
	  "21e07dba9fb1" },
	/* "ARM: dma-mapping: use dma-direct for LPAE", "ARM/dma-mapping: use dma-direct unconditionally" */
	{ ERA_STREAMING_MAP, ARCH_ARM, LAST(5, 2), KV(5, 3, 0), STREAMING_ARM_NO_CHECK,
	  STREAMING_ARM_LPAE_DIRECT, "ad3c7b18c5b3" },
	{ ERA_STREAMING_MAP, ARCH_ARM, LAST(5, 19), KV(6, 0, 0), STREAMING_ARM_LPAE_DIRECT,
	  STREAMING_DMA_DIRECT, "ae626eb97376" },
	/* arm64 selects DMA_BOUNCE_UNALIGNED_KMALLOC (6.5); "arm64: swiotlb: Reduce the default
	 * size if no ZONE_DMA bouncing needed" (6.7) */
	{ ERA_KMALLOC_POOL, ARCH_ARM64, LAST(6, 4), KV(6, 5, 0), KMALLOC_POOL_NONE, KMALLOC_POOL_DEFAULT,
	  "DMA_BOUNCE_UNALIGNED_KMALLOC (6.5)" },
	{ ERA_KMALLOC_POOL, ARCH_ARM64, LAST(6, 6), KV(6, 7, 0), KMALLOC_POOL_DEFAULT, KMALLOC_POOL_SMALL,
	  "65033574ade9" },
	/* dma_kmalloc_needs_bounce(): arm64 (6.5), riscv "enable DMA_BOUNCE_UNALIGNED_KMALLOC for !dma_coherent" (6.6) */
	{ ERA_KMALLOC_BOUNCE, ARCH_ARM64, LAST(6, 4), KV(6, 5, 0), 0, 1, "DMA_BOUNCE_UNALIGNED_KMALLOC (6.5)" },
	{ ERA_KMALLOC_BOUNCE, ARCH_RISCV, LAST(6, 5), KV(6, 6, 0), 0, 1, "f51f7a0fc2f4" },
	{ ERA_REMOVABLE_ATTR, ANY_ARCH, LAST(5, 13), KV(5, 14, 0), 0, 1, "c037b6c818c3" },
	/* "ACPI/IORT: Do not blindly trust DMA masks from firmware": 5.11, stable 5.10.13 */
	{ ERA_IORT_MASK, ARCH_ARM64, KV(5, 10, 12), KV(5, 10, 13), IORT_MASK_REPLACES, IORT_MASK_CLAMPS,
	  "stable 5.10.13" },
	/* "swiotlb: make swiotlb_force a bool", "swiotlb: split up the global swiotlb lock" */
	{ ERA_SWIOTLB_PARAM, ANY_ARCH, LAST(5, 18), KV(5, 19, 0), SWIOTLB_PARAM_LAST_WORD,
	  SWIOTLB_PARAM_NOFORCE_WINS, "c6af2aa9ffc9" },
	{ ERA_SWIOTLB_PARAM, ANY_ARCH, LAST(5, 19), KV(6, 0, 0), SWIOTLB_PARAM_NOFORCE_WINS,
	  SWIOTLB_PARAM_AREAS, "20347fca71a3" },
	/* "swiotlb: split up the global swiotlb lock", "swiotlb: ensure a segment doesn't cross
	 * the area boundary" (both 6.0) */
	{ ERA_POOL_AREAS, ANY_ARCH, LAST(5, 19), KV(6, 0, 0), POOL_AREAS_NONE, POOL_AREAS_PER_CPU,
	  "20347fca71a3, 57e6840cf79a" },
	/* the Hyper-V Isolation VM series (5.16) */
	{ ERA_HYPERV_FORCE, ANY_ARCH, LAST(5, 16), KV(5, 17, 0), 0, 1, "062a5c4260cd, 5.17" },
	/* "s390/pci: Use dma-iommu layer" */
	{ ERA_S390_PCI_DMA, ANY_ARCH, LAST(6, 6), KV(6, 7, 0), S390_PCI_OWN_OPS, S390_PCI_DMA_IOMMU,
	  "c76c067e488c" },
	/* "dma-mapping: introduce DMA range map, supplanting dma_pfn_offset" */
	{ ERA_RANGE_MAP, ANY_ARCH, LAST(5, 9), KV(5, 10, 0), RANGE_MAP_PFN_OFFSET, RANGE_MAP_REGIONS,
	  "translate_phys_to_dma (5.10)" },
	/* "dma-direct: implement complete bus_dma_mask handling", then bus_dma_limit */
	{ ERA_BUS_LIMIT, ANY_ARCH, LAST(4, 19), KV(4, 20, 0), BUS_LIMIT_NONE, BUS_LIMIT_MASK,
	  "b4ebe6063204" },
	{ ERA_BUS_LIMIT, ANY_ARCH, LAST(5, 4), KV(5, 5, 0), BUS_LIMIT_MASK, BUS_LIMIT_EXACT,
	  "a7ba70f1787f" },
	/* "of: Make of_dma_get_range() work on bus nodes", "of: Fix dma-ranges handling for bus
	 * controllers" */
	{ ERA_DT_WALK_START, ANY_ARCH, LAST(5, 4), KV(5, 5, 0), DT_WALK_ABOVE_NODE, DT_WALK_DEVICE_NODE,
	  "951d48855d86" },
	{ ERA_DT_WALK_START, ANY_ARCH, LAST(6, 0), KV(6, 1, 0), DT_WALK_DEVICE_NODE, DT_WALK_PARENT_BUS,
	  "bus_np = __of_get_dma_parent(np) (6.1)" },
	/* "swiotlb: Add swiotlb=noforce debug option", "swiotlb: Make SWIOTLB_NO_FORCE perform no
	 * allocation" */
	{ ERA_SWIOTLB_NOFORCE, ANY_ARCH, LAST(4, 9), KV(4, 10, 0), NOFORCE_IGNORED, NOFORCE_ONE_SLAB,
	  "fff5d99225" },
	{ ERA_SWIOTLB_NOFORCE, ANY_ARCH, LAST(5, 12), KV(5, 13, 0), NOFORCE_ONE_SLAB, NOFORCE_NO_POOL,
	  "2726bf3ff252" },
	/* swiotlb_dma_ops merged into dma-direct (5.0: no row before); "dma-direct: use
	 * is_swiotlb_active in dma_direct_map_page" (5.19) */
	{ ERA_POOLLESS_MAP, ANY_ARCH, LAST(4, 20), KV(5, 0, 0), -1, POOLLESS_TRIES_SWIOTLB, "5.0-5.18" },
	{ ERA_POOLLESS_MAP, ARCH_ARM64, LAST(4, 20), KV(5, 0, 0), -1, POOLLESS_OVERFLOW,
	  "SWIOTLB_NO_FORCE without a pool (5.0 on)" },
	{ ERA_POOLLESS_MAP, ARCH_ARM, KV(5, 4, 148), KV(5, 4, 149), POOLLESS_TRIES_SWIOTLB,
	  POOLLESS_OVERFLOW, "fcf044891c84 in stable 5.4.149" },
	{ ERA_POOLLESS_MAP, ARCH_ARM, LAST(5, 4), KV(5, 5, 0), POOLLESS_OVERFLOW, POOLLESS_TRIES_SWIOTLB,
	  "fcf044891c84 in stable 5.4.149" },
	{ ERA_POOLLESS_MAP, ARCH_ARM, KV(5, 10, 68), KV(5, 10, 69), POOLLESS_TRIES_SWIOTLB,
	  POOLLESS_OVERFLOW, "fcf044891c84 in stable 5.10.69" },
	{ ERA_POOLLESS_MAP, ARCH_ARM, LAST(5, 10), KV(5, 11, 0), POOLLESS_OVERFLOW,
	  POOLLESS_TRIES_SWIOTLB, "fcf044891c84 in stable 5.10.69" },
	{ ERA_POOLLESS_MAP, ARCH_ARM, LAST(5, 12), KV(5, 13, 0), POOLLESS_TRIES_SWIOTLB,
	  POOLLESS_OVERFLOW, "fcf044891c84, 5.13" },
	{ ERA_POOLLESS_MAP, ARCH_RISCV, LAST(5, 13), KV(5, 14, 0), POOLLESS_TRIES_SWIOTLB,
	  POOLLESS_OVERFLOW, "ce3aca0465e3, 5.14" },
	{ ERA_POOLLESS_MAP, ANY_ARCH, LAST(5, 18), KV(5, 19, 0), POOLLESS_TRIES_SWIOTLB, POOLLESS_OVERFLOW,
	  "is_swiotlb_active() first (5.19)" },
	/* "of: set dma_mask to point to coherent_dma_mask" */
	{ ERA_PLATFORM_MASK, ANY_ARCH, LAST(3, 12), KV(3, 13, 0), PLATFORM_MASK_NONE, PLATFORM_MASK_32,
	  "no dma_mask, before 3.13" },
	/* a conservative bound, not a commit (eras.c) */
	{ ERA_POOL_LOGGED, ANY_ARCH, LAST(3, 19), KV(4, 0, 0), POOL_LOG_UNPARSED, POOL_LOG_ALWAYS,
	  "(4.0 on)" },
	/* "swiotlb: respect min_align_mask" (5.12), "swiotlb: max mapping size takes min align mask
	 * into account" (5.19), in stable 5.10.147 and 5.15.72 */
	{ ERA_MAPPING_ALIGN, ANY_ARCH, KV(5, 10, 34), KV(5, 10, 35), MAPPING_ALIGN_NONE,
	  MAPPING_ALIGN_UNCOUNTED, "1f221a0d0dbf in stable 5.10.35" },
	{ ERA_MAPPING_ALIGN, ANY_ARCH, KV(5, 10, 146), KV(5, 10, 147), MAPPING_ALIGN_UNCOUNTED,
	  MAPPING_ALIGN_SUBTRACTED, "82806744fd7d in stable 5.10.147" },
	{ ERA_MAPPING_ALIGN, ANY_ARCH, KV(5, 11, 18), KV(5, 11, 19), MAPPING_ALIGN_NONE,
	  MAPPING_ALIGN_UNCOUNTED, "stable 5.11.19" },
	{ ERA_MAPPING_ALIGN, ANY_ARCH, LAST(5, 10), KV(5, 11, 0), MAPPING_ALIGN_SUBTRACTED,
	  MAPPING_ALIGN_NONE, "82806744fd7d in stable 5.10.147" },
	{ ERA_MAPPING_ALIGN, ANY_ARCH, KV(5, 15, 71), KV(5, 15, 72), MAPPING_ALIGN_UNCOUNTED,
	  MAPPING_ALIGN_SUBTRACTED, "82806744fd7d in stable 5.15.72" },
	{ ERA_MAPPING_ALIGN, ANY_ARCH, LAST(5, 15), KV(5, 16, 0), MAPPING_ALIGN_SUBTRACTED,
	  MAPPING_ALIGN_UNCOUNTED, "82806744fd7d in stable 5.15.72" },
	{ ERA_MAPPING_ALIGN, ANY_ARCH, LAST(5, 18), KV(5, 19, 0), MAPPING_ALIGN_UNCOUNTED,
	  MAPPING_ALIGN_SUBTRACTED, "82806744fd7d, 5.19" },
	/* "swiotlb: Add restricted DMA pool initialization" */
	{ ERA_RESTRICTED_POOL, ANY_ARCH, LAST(5, 14), KV(5, 15, 0), 0, 1, "0b84e4f8b793" },
	/* "iommu: Allow the dma-iommu api to use bounce buffers" (5.11); the panic of 2d29960af0be
	 * (5.13) until the static io_tlb_default_mem of 463e862ac63e (5.15), back with c51ba246cb17
	 * (6.0, stable 5.15.61); "dma-iommu: Check that swiotlb is active before trying to use it" */
	{ ERA_UNTRUSTED_BOUNCE, ANY_ARCH, LAST(5, 10), KV(5, 11, 0), UNTRUSTED_NOT_MODELLED,
	  UNTRUSTED_NO_POOL_FULL, "82612d66d51d" },
	{ ERA_UNTRUSTED_BOUNCE, ANY_ARCH, LAST(5, 12), KV(5, 13, 0), UNTRUSTED_NO_POOL_FULL,
	  UNTRUSTED_NO_POOL_PANIC, "2d29960af0be" },
	{ ERA_UNTRUSTED_BOUNCE, ANY_ARCH, LAST(5, 14), KV(5, 15, 0), UNTRUSTED_NO_POOL_PANIC,
	  UNTRUSTED_NO_POOL_FULL, "463e862ac63e" },
	{ ERA_UNTRUSTED_BOUNCE, ANY_ARCH, KV(5, 15, 60), KV(5, 15, 61), UNTRUSTED_NO_POOL_FULL,
	  UNTRUSTED_NO_POOL_PANIC, "c51ba246cb17 in stable 5.15.61" },
	{ ERA_UNTRUSTED_BOUNCE, ANY_ARCH, LAST(5, 15), KV(5, 16, 0), UNTRUSTED_NO_POOL_PANIC,
	  UNTRUSTED_NO_POOL_FULL, "c51ba246cb17 in stable 5.15.61" },
	{ ERA_UNTRUSTED_BOUNCE, ANY_ARCH, KV(5, 18, 17), KV(5, 18, 18), UNTRUSTED_NO_POOL_FULL,
	  UNTRUSTED_NO_POOL_PANIC, "c51ba246cb17 in stable 5.18.18" },
	{ ERA_UNTRUSTED_BOUNCE, ANY_ARCH, LAST(5, 18), KV(5, 19, 0), UNTRUSTED_NO_POOL_PANIC,
	  UNTRUSTED_NO_POOL_CHECKED, "f316ba0a8814" },
	/* "iommu/vt-d: Allow 32bit devices to uses DMA domain" */
	{ ERA_INTEL_IDENTITY_FALLBACK, ANY_ARCH, LAST(5, 7), KV(5, 8, 0), 1, 0, "327d5b2fee91" },
	/* Intel keeps the pool for untrusted devices (5.4), always (5.8); "iommu/amd: Enable swiotlb
	 * in all cases" (5.19) */
	{ ERA_IOMMU_DROPS_POOL, ANY_ARCH, LAST(5, 3), KV(5, 4, 0), IOMMU_POOL_DROPPED_BOTH,
	  IOMMU_POOL_DROPPED_AMD_INTEL_UNTRUSTED, "without untrusted devices, 5.4-5.7" },
	{ ERA_IOMMU_DROPS_POOL, ANY_ARCH, LAST(5, 7), KV(5, 8, 0), IOMMU_POOL_DROPPED_AMD_INTEL_UNTRUSTED,
	  IOMMU_POOL_DROPPED_AMD, "without untrusted devices, 5.4-5.7" },
	{ ERA_IOMMU_DROPS_POOL, ANY_ARCH, KV(5, 15, 45), KV(5, 15, 46), IOMMU_POOL_DROPPED_AMD,
	  IOMMU_POOL_KEPT, "121660bba631 in stable 5.15.46" },
	{ ERA_IOMMU_DROPS_POOL, ANY_ARCH, LAST(5, 15), KV(5, 16, 0), IOMMU_POOL_KEPT,
	  IOMMU_POOL_DROPPED_AMD, "121660bba631 in stable 5.15.46" },
	{ ERA_IOMMU_DROPS_POOL, ANY_ARCH, KV(5, 17, 13), KV(5, 17, 14), IOMMU_POOL_DROPPED_AMD,
	  IOMMU_POOL_KEPT, "121660bba631 in stable 5.17.14" },
	{ ERA_IOMMU_DROPS_POOL, ANY_ARCH, LAST(5, 17), KV(5, 18, 0), IOMMU_POOL_KEPT,
	  IOMMU_POOL_DROPPED_AMD, "121660bba631 in stable 5.17.14" },
	{ ERA_IOMMU_DROPS_POOL, ANY_ARCH, KV(5, 18, 2), KV(5, 18, 3), IOMMU_POOL_DROPPED_AMD,
	  IOMMU_POOL_KEPT, "121660bba631, 5.19; stable 5.18.3" },
	/* "iommu/amd: Request passthrough mode from IOMMU core" */
	{ ERA_AMD_PASSTHROUGH, ANY_ARCH, LAST(5, 3), KV(5, 4, 0), 0, 1, "iommu_default_passthrough() (5.4)" },
	/* "arm64: mm: only initialize swiotlb when necessary", "riscv: Only initialize swiotlb when
	 * necessary", "riscv: enable DMA_BOUNCE_UNALIGNED_KMALLOC for !dma_coherent" */
	{ ERA_ARCH_POOL, ARCH_ARM64, LAST(4, 7), KV(4, 8, 0), ARCH_POOL_ALWAYS, ARCH_POOL_ABOVE_DMA_LIMIT,
	  "b67a8b29df7e" },
	{ ERA_ARCH_POOL, ARCH_RISCV, LAST(5, 13), KV(5, 14, 0), ARCH_POOL_ALWAYS,
	  ARCH_POOL_ABOVE_DMA_LIMIT, "ce3aca0465e3" },
	{ ERA_ARCH_POOL, ARCH_RISCV, LAST(6, 9), KV(6, 10, 0), ARCH_POOL_ABOVE_DMA_LIMIT,
	  ARCH_POOL_ABOVE_OR_NONCOHERENT, "fc7a50eed986" },
	/* nc_dma_get_range (4.14, its commit not pinned), "ACPI/IORT: Support address size
	 * limit for root complexes" (4.19) */
	{ ERA_IORT_LIMIT, ARCH_ARM64, LAST(4, 13), KV(4, 14, 0), IORT_LIMIT_NONE, IORT_LIMIT_NAMED,
	  "absent in 4.13.4, present in 4.14.5" },
	{ ERA_IORT_LIMIT, ARCH_ARM64, LAST(4, 18), KV(4, 19, 0), IORT_LIMIT_NAMED, IORT_LIMIT_BOTH,
	  "5ac65e8c8941" },
	/* "x86: enable swiotlb for > 4GiG ram on 32-bit kernels", "x86/dma: Fix max PFN arithmetic
	 * overflow on 32 bit systems" */
	{ ERA_X86_32_POOL, ARCH_X86, LAST(4, 18), KV(4, 19, 0), X86_32_POOL_NONE, X86_32_POOL_ALWAYS,
	  "485734f3fc77" },
	{ ERA_X86_32_POOL, ARCH_X86, KV(4, 19, 125), KV(4, 19, 126), X86_32_POOL_ALWAYS,
	  X86_32_POOL_ABOVE_4G, "88743470668e in stable 4.19.126" },
	{ ERA_X86_32_POOL, ARCH_X86, LAST(4, 19), KV(4, 20, 0), X86_32_POOL_ABOVE_4G, X86_32_POOL_ALWAYS,
	  "88743470668e in stable 4.19.126" },
	{ ERA_X86_32_POOL, ARCH_X86, KV(5, 4, 43), KV(5, 4, 44), X86_32_POOL_ALWAYS,
	  X86_32_POOL_ABOVE_4G, "88743470668e in stable 5.4.44" },
	{ ERA_X86_32_POOL, ARCH_X86, LAST(5, 4), KV(5, 5, 0), X86_32_POOL_ABOVE_4G, X86_32_POOL_ALWAYS,
	  "88743470668e in stable 5.4.44" },
	{ ERA_X86_32_POOL, ARCH_X86, KV(5, 6, 15), KV(5, 6, 16), X86_32_POOL_ALWAYS,
	  X86_32_POOL_ABOVE_4G, "88743470668e, 5.7; stable 5.6.16" },
	/* ad3c7b18c5b3 (5.3); "ARM: Qualify enabling of swiotlb_init()" (5.13, stable 5.4.149
	 * and 5.10.69) */
	{ ERA_ARM_LPAE_POOL, ARCH_ARM, LAST(5, 2), KV(5, 3, 0), ARM_POOL_NONE, ARM_POOL_ALWAYS,
	  "ad3c7b18c5b3" },
	{ ERA_ARM_LPAE_POOL, ARCH_ARM, KV(5, 4, 148), KV(5, 4, 149), ARM_POOL_ALWAYS,
	  ARM_POOL_ABOVE_DMA_LIMIT, "fcf044891c84 in stable 5.4.149" },
	{ ERA_ARM_LPAE_POOL, ARCH_ARM, LAST(5, 4), KV(5, 5, 0), ARM_POOL_ABOVE_DMA_LIMIT, ARM_POOL_ALWAYS,
	  "fcf044891c84 in stable 5.4.149" },
	{ ERA_ARM_LPAE_POOL, ARCH_ARM, KV(5, 10, 68), KV(5, 10, 69), ARM_POOL_ALWAYS,
	  ARM_POOL_ABOVE_DMA_LIMIT, "fcf044891c84 in stable 5.10.69" },
	{ ERA_ARM_LPAE_POOL, ARCH_ARM, LAST(5, 10), KV(5, 11, 0), ARM_POOL_ABOVE_DMA_LIMIT,
	  ARM_POOL_ALWAYS, "fcf044891c84 in stable 5.10.69" },
	{ ERA_ARM_LPAE_POOL, ARCH_ARM, LAST(5, 12), KV(5, 13, 0), ARM_POOL_ALWAYS,
	  ARM_POOL_ABOVE_DMA_LIMIT, "fcf044891c84, 5.13" },
	/* "swiotlb: add a SWIOTLB_ANY flag to lift the low memory restriction" */
	{ ERA_POOL_PLACEMENT, ANY_ARCH, LAST(5, 18), KV(5, 19, 0), POOL_PLACE_LOW,
	  POOL_PLACE_LOW_UNLESS_ANY, "8ba2ed1be90f" },
	/* "usb-storage: reject probe of device one non-DMA HCDs when using highmem" */
	{ ERA_USB_STORAGE_NO_DMA_HCD, ANY_ARCH, LAST(6, 15), KV(6, 16, 0), USB_STORAGE_BOUNCE_HIGH,
	  USB_STORAGE_REFUSED, "48610ec22f0c" },
	/* "arm64: use both ZONE_DMA and ZONE_DMA32", "arm64: mm: Set ZONE_DMA size based on devicetree's dma-ranges" */
	{ ERA_ARM64_ZONE_DMA, ARCH_ARM64, LAST(5, 4), KV(5, 5, 0), ARM64_ZONE_DMA_32BIT, ARM64_ZONE_DMA_30BIT,
	  "1a8e1cef7603" },
	{ ERA_ARM64_ZONE_DMA, ARCH_ARM64, LAST(5, 10), KV(5, 11, 0), ARM64_ZONE_DMA_30BIT, ARM64_ZONE_DMA_FIRMWARE,
	  "8424ecdde7df" },
};

static bool row_holds(const struct era_row *r, enum era_rule rule, enum arch_family arch)
{
	return r->rule == rule && (r->arch == ANY_ARCH || r->arch == arch);
}

/* Each case: its values on both sides, its citation in the table, and nothing in between. */
static void test_era_boundaries(void **state)
{
	unsigned n;
	const struct era_row *t = era_table(&n);
	(void)state;

	for (size_t i = 0; i < sizeof(era_cases) / sizeof(*era_cases); i++) {
		const struct era_case *c = &era_cases[i];
		const char *src_before = NULL, *src_at = NULL;
		int before = era_value(c->rule, c->before, c->arch, &src_before);
		int at = era_value(c->rule, c->at, c->arch, &src_at);

		if (before != c->want_before || at != c->want_at)
			fail_msg("%s at %#x: %d, at %#x: %d; want %d and %d", era_rule_name(c->rule),
				 c->before, before, c->at, at, c->want_before, c->want_at);
		assert_int_not_equal(c->want_before, c->want_at);
		assert_true(c->before < c->at);
		if (!(src_before && strstr(src_before, c->cite)) && !(src_at && strstr(src_at, c->cite)))
			fail_msg("%s at %#x: neither row cites \"%s\"", era_rule_name(c->rule), c->at, c->cite);
		/* before is the release just before: no boundary of the rule in (before, at) */
		for (unsigned k = 0; k < n; k++) {
			if (!row_holds(&t[k], c->rule, c->arch))
				continue;
			assert_false(t[k].since > c->before && t[k].since < c->at);
			assert_false(t[k].until > c->before && t[k].until < c->at);
		}
	}
}

/* Every since and until of every row is the at of a case: no boundary unpinned. */
static void test_era_boundaries_covered(void **state)
{
	unsigned n;
	const struct era_row *t = era_table(&n);
	(void)state;

	for (unsigned k = 0; k < n; k++) {
		const uint32_t ends[2] = { t[k].since, t[k].until };
		for (int e = 0; e < 2; e++) {
			bool found = ends[e] == 0;
			for (size_t i = 0; !found && i < sizeof(era_cases) / sizeof(*era_cases); i++)
				found = era_cases[i].rule == t[k].rule && era_cases[i].at == ends[e] &&
					(t[k].arch == ANY_ARCH || era_cases[i].arch == t[k].arch);
			if (!found)
				fail_msg("%s row %u: no case pins its boundary %#x", era_rule_name(t[k].rule), k,
					 ends[e]);
		}
	}
}

/* Every rule but four answers for every release (unknown too) and every
 * architecture (unknown too): era_value()'s -1 is not a value their callers
 * test for. The four are asked only on their own architectures. */
static void test_era_total(void **state)
{
	unsigned n;
	const struct era_row *t = era_table(&n);
	(void)state;

	assert_int_equal(era_value(_ERA_RULE_MAX, 0, ANY_ARCH, NULL), -1);
	for (int rule = 0; rule < _ERA_RULE_MAX; rule++) {
		if (rule == ERA_ARM_LPAE_POOL || rule == ERA_X86_32_POOL || rule == ERA_POOLLESS_MAP ||
		    rule == ERA_ARM64_ZONE_DMA)
			continue;
		for (int a = -1; a < _ARCH_FAMILY_MAX; a++) {
			enum arch_family arch = a < 0 ? _ARCH_FAMILY_INVALID : (enum arch_family)a;
			uint32_t releases[2 * 16 + 2] = { 0, KV(255, 255, 255) };
			unsigned m = 2;
			/* every boundary of the rule's rows, and the release just before it */
			for (unsigned k = 0; k < n; k++)
				if (t[k].rule == (enum era_rule)rule && t[k].since) {
					assert_true(m + 2 <= sizeof(releases) / sizeof(*releases));
					releases[m++] = t[k].since;
					releases[m++] = t[k].since - 1;
				}
			for (unsigned k = 0; k < m; k++)
				if (era_value((enum era_rule)rule, releases[k], arch, NULL) < 0)
					fail_msg("%s: no row for release %#x, arch %d", era_rule_name(rule),
						 releases[k], a);
		}
	}
}

/*
 * An unknown release (0) reads the current rule: the first row still true for
 * the architecture, its own before the generic one, as the newest release
 * does; for every rule, on every architecture the table has rows for. The
 * bug this pins: the generic row answered on arm64 (no IORT limit, no
 * kmalloc pool) because it stands last.
 */
static void test_era_unknown_release(void **state)
{
	unsigned n;
	const struct era_row *t = era_table(&n);
	(void)state;

	for (unsigned k = 0; k < n; k++) {
		const char *src_unknown = NULL, *src_newest = NULL;
		int unknown = era_value(t[k].rule, 0, t[k].arch, &src_unknown);
		int newest = era_value(t[k].rule, KV(255, 255, 255), t[k].arch, &src_newest);
		if (unknown != newest || src_unknown != src_newest)
			fail_msg("%s, arch %d, release unknown: %d (%s), the newest release: %d (%s)",
				 era_rule_name(t[k].rule), t[k].arch, unknown, src_unknown ? src_unknown : "-",
				 newest, src_newest ? src_newest : "-");
		/* a row of the architecture's own still true is what answers */
		if (t[k].until == 0 && t[k].arch != ANY_ARCH) {
			assert_int_equal(unknown, t[k].value);
			assert_ptr_equal(src_unknown, t[k].source);
		}
	}
	assert_int_equal(era_value(ERA_IORT_LIMIT, 0, ARCH_ARM64, NULL), IORT_LIMIT_BOTH);
	assert_int_equal(era_value(ERA_KMALLOC_POOL, 0, ARCH_ARM64, NULL), KMALLOC_POOL_SMALL);
	assert_int_equal(era_value(ERA_KMALLOC_BOUNCE, 0, ARCH_RISCV, NULL), 1);
	assert_int_equal(era_value(ERA_ARCH_POOL, 0, ARCH_ARM64, NULL), ARCH_POOL_ABOVE_DMA_LIMIT);
	assert_int_equal(era_value(ERA_ARCH_POOL, 0, ARCH_X86, NULL), ARCH_POOL_ABOVE_DMA_LIMIT);
	assert_int_equal(era_value(ERA_STREAMING_MAP, 0, ARCH_ARM, NULL), STREAMING_DMA_DIRECT);
	assert_int_equal(era_value(ERA_IORT_LIMIT, 0, ARCH_X86, NULL), IORT_LIMIT_NONE);
}

/*
 * What an unknown release reads for each rule, judged against the rule's
 * older rows: "current" where the current row is the cautious reading (the
 * worse verdict, or no difference to a verdict), else the test that shows the
 * callers answering unknown instead. A new rule fails here until judged.
 */
static const char *const unknown_release_judged[_ERA_RULE_MAX] = {
	[ERA_MAX_LOW_PFN] = "current: read only by the legacy block model, which ERA_BLOCK_BOUNCE's current row keeps from deciding",
	[ERA_BLOCK_BOUNCE] = "current: dma-direct decides; the block layer's bouncing would only turn a fails into partial",
	[ERA_BLOCK_LIMIT] = "current: legacy block model only, not deciding at an unknown release",
	[ERA_RANGE_MAP] = "current: an address no region covers is never capable, the stricter reading",
	[ERA_BUS_LIMIT] = "unknown: test-devices test_unknown_release_window",
	[ERA_DT_WALK_START] = "unknown: test-devices test_unknown_release_window",
	[ERA_SWIOTLB_NOFORCE] = "current: no pool, every mapping out of reach fails",
	[ERA_PLATFORM_MASK] = "unknown: test-devices test_unknown_release_platform_mask",
	[ERA_POOL_LOGGED] = "current: a log from boot without the line means no pool, the worse",
	[ERA_SCSI_BLOCK_LIMIT] = "current: legacy block model only, not deciding at an unknown release",
	[ERA_STREAMING_MAP] = "unknown: test-devices test_unknown_release_arm",
	[ERA_KMALLOC_POOL] = "unknown: test-swiotlb-state test_unknown_release_pool",
	[ERA_HYPERV_FORCE] = "current: the isolation line comes from kernels that bounce (eras.c)",
	[ERA_S390_PCI_DMA] = "current: the domain decides, older kernels always translate",
	[ERA_MAPPING_ALIGN] = "current: findings only (max mapping size), left as found",
	[ERA_RESTRICTED_POOL] = "unknown: test-devices test_unknown_release_restricted_pool",
	[ERA_UNTRUSTED_BOUNCE] = "current: an untrusted device bounces, the finding is raised",
	[ERA_INTEL_IDENTITY_FALLBACK] = "current: identity stays dma-direct, older kernels translate",
	[ERA_IOMMU_DROPS_POOL] = "unknown: test-swiotlb-state test_unknown_release_pool",
	[ERA_ARM_LPAE_POOL] = "unknown: test-swiotlb-state test_unknown_release_pool",
	[ERA_POOL_PLACEMENT] = "current: both rows place the default pool low",
	[ERA_POOLLESS_MAP] = "unknown: test-observe test_prediction_unknown_release",
	[ERA_ARCH_POOL] = "unknown: test-swiotlb-state test_unknown_release_pool (riscv's non-coherent pool)",
	[ERA_X86_32_POOL] = "unknown: test-swiotlb-state test_unknown_release_pool",
	[ERA_AMD_PASSTHROUGH] = "current: read only where ERA_IOMMU_DROPS_POOL's older rows apply",
	[ERA_IORT_LIMIT] = "current: both limits applied, the strictest reach",
	[ERA_KMALLOC_BOUNCE] = "unknown: test-observe test_prediction_unknown_release",
	[ERA_REMOVABLE_ATTR] = "unknown: test-devices test_removable_unknown (release 0 is the old row)",
	[ERA_IORT_MASK] = "current: min() with the 32-bit default; the older row: a wider mask, or none",
	[ERA_SWIOTLB_PARAM] = "unknown: test-swiotlb-state test_cmdline_words_by_era (forcing the eras read differently)",
	[ERA_POOL_AREAS] = "current: an assumed size only, never a verdict; size_why says which reading",
	[ERA_USB_STORAGE_NO_DMA_HCD] = "current: read only with the refusal line, which only the current row prints",
	[ERA_ARM64_ZONE_DMA] = "current: --what-if ram= only, which says the release is not known in its assumption",
};

static void test_era_unknown_release_judged(void **state)
{
	(void)state;
	for (int rule = 0; rule < _ERA_RULE_MAX; rule++)
		if (!unknown_release_judged[rule] ||
		    (strncmp(unknown_release_judged[rule], "current: ", 9) != 0 &&
		     strncmp(unknown_release_judged[rule], "unknown: ", 9) != 0))
			fail_msg("%s: not judged for an unknown release", era_rule_name(rule));
}

/* Every rule and every value a row holds has a name: the kernel suite's era
 * table (tests/kernels/README) is generated from them. */
static void test_era_names(void **state)
{
	(void)state;
	assert_string_equal(era_rule_name(ERA_BLOCK_BOUNCE), "ERA_BLOCK_BOUNCE");
	assert_string_equal(era_rule_name(ERA_POOLLESS_MAP), "ERA_POOLLESS_MAP");
	assert_null(era_rule_name(_ERA_RULE_MAX));
	assert_null(era_rule_name((enum era_rule)-1));
	assert_string_equal(era_value_name(ERA_BLOCK_BOUNCE, BLOCK_BOUNCE_NEVER_HIGHMEM),
			    "BLOCK_BOUNCE_NEVER_HIGHMEM");
	assert_string_equal(era_value_name(ERA_IOMMU_DROPS_POOL, IOMMU_POOL_KEPT), "IOMMU_POOL_KEPT");
	assert_string_equal(era_value_name(ERA_RESTRICTED_POOL, 1), "1");
	assert_null(era_value_name(ERA_RESTRICTED_POOL, 2));
	assert_null(era_value_name(ERA_BLOCK_BOUNCE, -1));
	assert_null(era_value_name(_ERA_RULE_MAX, 0));

	for (int r = 0; r < _ERA_RULE_MAX; r++)
		assert_non_null(era_rule_name((enum era_rule)r));
	unsigned n;
	const struct era_row *t = era_table(&n);
	for (unsigned i = 0; i < n; i++)
		assert_non_null(era_value_name(t[i].rule, t[i].value));
}

/* The count, saturated at 2^64 - 1, through the tool's own count-minus-one. */
static uint64_t bitmask_count(uint64_t lo, uint64_t hi, uint64_t mask)
{
	uint64_t m1;

	if (!bitmask_count_m1(lo, hi, mask, &m1))
		return 0;
	return m1 == UINT64_MAX ? UINT64_MAX : m1 + 1;
}

static void test_bitmask_count(void **state)
{
	(void)state;
	assert_int_equal(bitmask_count(0, 0xffffffff, 0xffffffff), 1ull << 32);
	assert_int_equal(bitmask_count(0, UINT64_MAX, 0xff), 256);
	/* 0xc3ffffff: four 64 MiB blocks at 0, 1, 2 and 3 GiB */
	assert_int_equal(bitmask_count(0, 0xffffffff, 0xc3ffffff), 4 * 64 * MiB);
	assert_int_equal(bitmask_count(0xc0000000, 0xcfffffff, 0xc3ffffff), 64 * MiB);
	assert_int_equal(bitmask_count(0x84000000, 0x84000000, 0xc3ffffff), 0);
	assert_int_equal(bitmask_count(5, 4, 0xff), 0);
	assert_int_equal(bitmask_count(0, UINT64_MAX, UINT64_MAX), UINT64_MAX); /* saturates */
	assert_true(mask_is_contiguous(0xffffffff));
	assert_true(mask_is_contiguous(UINT64_MAX));
	assert_false(mask_is_contiguous(0xc3ffffff));
}

static void test_reach_x86_32bit(void **state)
{
	/* the development VM: RAM to 0x63fffffff, a 32-bit device reaches the low 3 GiB */
	struct ram_range r[] = { { 0x1000, 0x9fbff }, { 0x100000, 0xbfffffff },
				 { 0x100000000, 0x63fffffff } };
	struct layout l = mk_layout(r, 3, 0);
	struct reach x;
	(void)state;

	assert_int_equal(reach_compute(&l, NULL, RANGE_MAP_NONE, 0xffffffff, 0, REACH_LIMIT, &x), 0);
	assert_int_equal(x.unreachable_bytes, 0x540000000ull);
	assert_int_equal(x.reachable_bytes, l.ram_bytes - 0x540000000ull);
	assert_true(x.any_unreachable);
	assert_int_equal(x.lowest_unreachable, 0x100000000ull);
	assert_int_equal(reach_compute(&l, NULL, RANGE_MAP_NONE, UINT64_MAX, 0, REACH_LIMIT, &x), 0);
	assert_int_equal(x.unreachable_bytes, 0);
	/* a range crossing 4 GiB splits at the limit */
	struct ram_range c[] = { { 0xc0000000, 0x13fffffff } };
	struct layout lc = mk_layout(c, 1, 0);
	assert_int_equal(reach_compute(&lc, NULL, RANGE_MAP_NONE, 0xffffffff, 0, REACH_LIMIT, &x), 0);
	assert_int_equal(x.reachable_bytes, GiB);
	assert_int_equal(x.unreachable_bytes, GiB);
	assert_int_equal(x.lowest_unreachable, 0x100000000ull);
	/* mask 0 with no bus limit: min_not_zero(0, 0) is 0, only bus address 0 passes */
	assert_int_equal(reach_compute(&lc, NULL, RANGE_MAP_NONE, 0, 0, REACH_LIMIT, &x), 0);
	assert_int_equal(x.reachable_bytes, 0);
	assert_int_equal(x.unreachable_bytes, 2 * GiB);
	/* mask 0 with a bus limit: the limit alone decides (min_not_zero) */
	assert_int_equal(reach_compute(&lc, NULL, RANGE_MAP_NONE, 0, 0xcfffffff, REACH_LIMIT, &x), 0);
	assert_int_equal(x.reachable_bytes, 256 * MiB);
	/* as a bitmask, mask 0 reaches only address 0 */
	assert_int_equal(bitmask_count(0, UINT64_MAX, 0), 1);
	/* a bus limit below the mask wins (min_not_zero) */
	assert_int_equal(reach_compute(&lc, NULL, RANGE_MAP_NONE, UINT64_MAX, 0xcfffffff, REACH_LIMIT, &x), 0);
	assert_int_equal(x.reachable_bytes, 256 * MiB);
	layout_done(&l);
	layout_done(&lc);
}

static void test_reach_offset_and_uncovered(void **state)
{
	/* 256 MiB at 0xc0000000; dma-ranges map bus 0 -> CPU 0xc0000000 for 64 MiB */
	struct ram_range r[] = { { 0xc0000000, 0xcfffffff } };
	struct layout l = mk_layout(r, 1, 0);
	struct dma_region g = { .cpu_start = 0xc0000000, .dma_start = 0, .size = 64 * MiB };
	struct dma_map map = { .state = DMA_MAP_RANGES, .regions = &g, .n_regions = 1,
			       .bus_limit = 0x3ffffff };
	struct reach x;
	(void)state;

	/* 5.10+: RAM no region covers is never capable */
	assert_int_equal(reach_compute(&l, &map, RANGE_MAP_REGIONS, 0x3ffffff, 0x3ffffff, REACH_LIMIT, &x), 0);
	assert_int_equal(x.reachable_bytes, 64 * MiB);
	assert_int_equal(x.unreachable_bytes, 192 * MiB);
	assert_int_equal(x.uncovered_bytes, 192 * MiB);
	assert_int_equal(x.lowest_unreachable, 0xc4000000);
	/* before 5.10: one offset for every address; the mask then cuts at 64 MiB */
	assert_int_equal(reach_compute(&l, &map, RANGE_MAP_PFN_OFFSET, 0x3ffffff, 0, REACH_LIMIT, &x), 0);
	assert_int_equal(x.reachable_bytes, 64 * MiB);
	assert_int_equal(x.uncovered_bytes, 0);
	/* identity translation with the same mask: nothing of RAM at 3 GiB is reachable */
	assert_int_equal(reach_compute(&l, NULL, RANGE_MAP_NONE, 0x3ffffff, 0, REACH_LIMIT, &x), 0);
	assert_int_equal(x.reachable_bytes, 0);
	/* mask 0xc3ffffff, no translation: the limit and the bitmask agree on this board */
	assert_int_equal(reach_compute(&l, NULL, RANGE_MAP_NONE, 0xc3ffffff, 0, REACH_LIMIT, &x), 0);
	assert_int_equal(x.reachable_bytes, 64 * MiB);
	assert_int_equal(reach_compute(&l, NULL, RANGE_MAP_NONE, 0xc3ffffff, 0, REACH_BITMASK, &x), 0);
	assert_int_equal(x.reachable_bytes, 64 * MiB);
	layout_done(&l);

	/* ...but not where RAM starts lower: 0x84000000 passes the limit, fails the bitmask */
	struct ram_range low[] = { { 0x80000000, 0x8fffffff } };
	struct layout l2 = mk_layout(low, 1, 0);
	assert_int_equal(reach_compute(&l2, NULL, RANGE_MAP_NONE, 0xc3ffffff, 0, REACH_LIMIT, &x), 0);
	assert_int_equal(x.reachable_bytes, 256 * MiB);
	assert_int_equal(reach_compute(&l2, NULL, RANGE_MAP_NONE, 0xc3ffffff, 0, REACH_BITMASK, &x), 0);
	assert_int_equal(x.reachable_bytes, 64 * MiB);
	layout_done(&l2);
}

/* The CPU-side end of the reach, worked by hand from the windows (issue 38). */
static void test_reach_cpu_end(void **state)
{
	/* the Raspberry Pi 4's soc window: CPU 0 at bus 0xc0000000 for 1 GiB */
	struct dma_region soc = { .cpu_start = 0, .dma_start = 0xc0000000, .size = 1ull << 30 };
	struct dma_map m = { .state = DMA_MAP_RANGES, .regions = &soc, .n_regions = 1, .bus_limit = 0xffffffff };
	uint64_t e = 0;
	(void)state;

	/* a 32-bit mask is bus 0xffffffff: CPU 0x3fffffff, and so is a 64-bit one (the window ends) */
	assert_true(reach_cpu_end(&m, RANGE_MAP_REGIONS, 0xffffffff, &e));
	assert_int_equal(e, 0x3fffffff);
	assert_true(reach_cpu_end(&m, RANGE_MAP_REGIONS, UINT64_MAX, &e));
	assert_int_equal(e, 0x3fffffff);
	/* one past the window's last bus address: still its end, not a byte more */
	assert_true(reach_cpu_end(&m, RANGE_MAP_REGIONS, 0x100000000, &e));
	assert_int_equal(e, 0x3fffffff);
	/* a limit inside the window: bus 0xc0000fff is CPU 0xfff; below it nothing */
	assert_true(reach_cpu_end(&m, RANGE_MAP_REGIONS, 0xc0000fff, &e));
	assert_int_equal(e, 0xfff);
	assert_false(reach_cpu_end(&m, RANGE_MAP_REGIONS, 0xbfffffff, &e));
	/* limit 0 is none: the window's own end */
	assert_true(reach_cpu_end(&m, RANGE_MAP_REGIONS, 0, &e));
	assert_int_equal(e, 0x3fffffff);
	/* before 5.10 one offset for every address, no window of its own: bus 0xffffffff - 0xc0000000 */
	assert_true(reach_cpu_end(&m, RANGE_MAP_PFN_OFFSET, 0xffffffff, &e));
	assert_int_equal(e, 0x3fffffff);
	assert_true(reach_cpu_end(&m, RANGE_MAP_PFN_OFFSET, 0x1ffffffff, &e));
	assert_int_equal(e, 0x13fffffff);
	assert_false(reach_cpu_end(&m, RANGE_MAP_PFN_OFFSET, 0xbfffffff, &e));
	/* no translation: the limit itself */
	assert_true(reach_cpu_end(&m, RANGE_MAP_NONE, 0xffffffff, &e));
	assert_int_equal(e, 0xffffffff);

	/* RAM at 0x80000000 seen at bus 0 (CPU = bus + 0x80000000): a 32-bit mask reaches past 4 GiB */
	struct dma_region up[] = {
		{ .cpu_start = 0x80000000, .dma_start = 0, .size = 0x100000000 },
		{ .cpu_start = 0x200000000, .dma_start = 0x200000000, .size = 0x100000000 },
	};
	struct dma_map m2 = { .state = DMA_MAP_RANGES, .regions = up, .n_regions = 2, .bus_limit = 0x2ffffffff };
	assert_true(reach_cpu_end(&m2, RANGE_MAP_REGIONS, 0xffffffff, &e));
	assert_int_equal(e, 0x17fffffff);
	/* a wider limit reaches into the second, identity region: its end wins */
	assert_true(reach_cpu_end(&m2, RANGE_MAP_REGIONS, 0x200000fff, &e));
	assert_int_equal(e, 0x200000fff);
	assert_true(reach_cpu_end(&m2, RANGE_MAP_PFN_OFFSET, UINT64_MAX, &e));
	assert_int_equal(e, UINT64_MAX); /* saturates rather than wrapping */

	/* a region at the top of the address space: no wrap past 2^64 - 1 */
	struct dma_region top = { .cpu_start = 0xfffffffffffff000ull, .dma_start = 0, .size = 0x1000 };
	struct dma_map m3 = { .state = DMA_MAP_RANGES, .regions = &top, .n_regions = 1, .bus_limit = 0xfff };
	assert_true(reach_cpu_end(&m3, RANGE_MAP_REGIONS, UINT64_MAX, &e));
	assert_int_equal(e, UINT64_MAX);
}

static void test_reach_wrap(void **state)
{
	/* a region whose bus addresses would be negative below its CPU start is never capable */
	struct ram_range r[] = { { 0x1000, 0x1fff }, { UINT64_MAX - 0xfff, UINT64_MAX } };
	struct layout l = mk_layout(r, 2, 0);
	struct dma_region g = { .cpu_start = 0x2000, .dma_start = 0, .size = UINT64_MAX - 0x2000 };
	struct dma_map map = { .state = DMA_MAP_RANGES, .regions = &g, .n_regions = 1 };
	struct reach x;
	(void)state;

	assert_int_equal(reach_compute(&l, &map, RANGE_MAP_PFN_OFFSET, UINT64_MAX, 0, REACH_LIMIT, &x), 0);
	assert_int_equal(x.reachable_bytes + x.unreachable_bytes, 0x2000);
	assert_int_equal(reach_compute(&l, &map, RANGE_MAP_REGIONS, UINT64_MAX, 0, REACH_LIMIT, &x), 0);
	/* the region ends one byte short of 2^64: the last byte is uncovered too */
	assert_int_equal(x.uncovered_bytes, 0x1000 + 1);
	layout_done(&l);
}

/* A layout of the given ranges for reach_compute(), which reads only the ranges. */
#define RANGES(...) ((struct layout){ .ranges = (struct ram_range[]){ __VA_ARGS__ }, \
	.n_ranges = sizeof((struct ram_range[]){ __VA_ARGS__ }) / sizeof(struct ram_range) })

/* reach_compute() under test, map built from one region (NULL region: identity). */
static struct reach reach_of(struct layout l, const struct dma_region *g, int range_map,
			     uint64_t mask, uint64_t bus_limit, enum reach_test test)
{
	struct dma_map map = { .state = DMA_MAP_RANGES, .regions = (struct dma_region *)g,
			       .n_regions = 1 };
	struct reach x;
	assert_int_equal(reach_compute(&l, g ? &map : NULL, range_map, mask, bus_limit, test, &x), 0);
	assert_int_equal(x.unreachable_bytes >= x.uncovered_bytes, 1);
	return x;
}

/* 64-bit edges: counts of 2^64, ends at 2^64 - 1, bus addresses wrapping either way. */
static void test_reach_edges_64(void **state)
{
	const uint64_t top = UINT64_MAX; /* the last byte of the physical address space */
	struct reach x;
	(void)state;

	/* bitmask counts that need all 64 bits, and the one that needs 65 */
	assert_int_equal(bitmask_count(1, top, top), top);
	assert_int_equal(bitmask_count(0, top - 1, top), top);
	assert_int_equal(bitmask_count(0, top, top), top); /* 2^64 saturates */
	assert_int_equal(bitmask_count(top, top, top), 1);
	assert_int_equal(bitmask_count(top, top, top - 1), 0);
	assert_int_equal(bitmask_count(0, top, 1ull << 63), 2);
	assert_int_equal(bitmask_count(1ull << 63, top, 0x8000000000000001ull), 2);
	assert_int_equal(bitmask_count(0, top, 0x8000000000000000ull | 0xffffffffull), 1ull << 33);
	assert_int_equal(bitmask_count(0x100000000ull, top, 0xffffffff), 0);

	/* RAM ending at 2^64 - 1, no translation */
	x = reach_of(RANGES({ top - 0xfff, top }), NULL, RANGE_MAP_NONE, top, 0, REACH_LIMIT);
	assert_int_equal(x.reachable_bytes, 0x1000);
	assert_int_equal(x.unreachable_bytes, 0);
	assert_false(x.any_unreachable);
	x = reach_of(RANGES({ top - 0xfff, top }), NULL, RANGE_MAP_NONE, top, 0, REACH_BITMASK);
	assert_int_equal(x.reachable_bytes, 0x1000);
	x = reach_of(RANGES({ top - 0xfff, top }), NULL, RANGE_MAP_NONE, top, top - 1, REACH_LIMIT);
	assert_int_equal(x.reachable_bytes, 0xfff);
	assert_int_equal(x.unreachable_bytes, 1);
	assert_int_equal(x.lowest_unreachable, top);
	x = reach_of(RANGES({ top - 0xfff, top }), NULL, RANGE_MAP_NONE, 0xffffffff, 0, REACH_LIMIT);
	assert_int_equal(x.unreachable_bytes, 0x1000);
	assert_int_equal(x.lowest_unreachable, top - 0xfff);

	/* an offset that pushes bus addresses past 2^64 - 1: those are never capable */
	struct dma_region up = { .cpu_start = 0, .dma_start = 0x1000, .size = top };
	x = reach_of(RANGES({ top - 0x1fff, top }), &up, RANGE_MAP_PFN_OFFSET, top, 0, REACH_LIMIT);
	assert_int_equal(x.reachable_bytes, 0x1000);
	assert_int_equal(x.unreachable_bytes, 0x1000);
	assert_int_equal(x.lowest_unreachable, top - 0xfff);
	x = reach_of(RANGES({ top - 0x1fff, top }), &up, RANGE_MAP_PFN_OFFSET, top, 0, REACH_BITMASK);
	assert_int_equal(x.reachable_bytes, 0x1000);
	assert_int_equal(x.unreachable_bytes, 0x1000);
	x = reach_of(RANGES({ top - 0xfff, top }), &up, RANGE_MAP_PFN_OFFSET, top, 0, REACH_LIMIT);
	assert_int_equal(x.reachable_bytes, 0); /* the whole range lands above 2^64 - 1 */
	assert_int_equal(x.unreachable_bytes, 0x1000);
	/* the region covers CPU [0, 2^64 - 2]: under the 5.10+ map the last byte is uncovered */
	x = reach_of(RANGES({ top - 0x1fff, top }), &up, RANGE_MAP_REGIONS, top, 0, REACH_LIMIT);
	assert_int_equal(x.reachable_bytes, 0x1000);
	assert_int_equal(x.unreachable_bytes, 0x1000);
	assert_int_equal(x.uncovered_bytes, 1);

	/* an offset that pushes bus addresses below 0 */
	struct dma_region down = { .cpu_start = 0x2000, .dma_start = 0, .size = 0x1000 };
	x = reach_of(RANGES({ 0x1000, 0x2fff }), &down, RANGE_MAP_PFN_OFFSET, 0xfff, 0, REACH_LIMIT);
	assert_int_equal(x.reachable_bytes, 0x1000);
	assert_int_equal(x.unreachable_bytes, 0x1000);
	assert_int_equal(x.lowest_unreachable, 0x1000);
	x = reach_of(RANGES({ 0x1000, 0x2fff }), &down, RANGE_MAP_PFN_OFFSET, 0x7ff, 0, REACH_BITMASK);
	assert_int_equal(x.reachable_bytes, 0x800);
	assert_int_equal(x.unreachable_bytes, 0x1800);
	x = reach_of(RANGES({ 0x1000, 0x1fff }), &down, RANGE_MAP_PFN_OFFSET, top, 0, REACH_LIMIT);
	assert_int_equal(x.reachable_bytes, 0);
	assert_int_equal(x.unreachable_bytes, 0x1000);
	/* bus = phys - 2^64 + 1: only the top byte has a bus address (0) */
	struct dma_region far = { .cpu_start = top, .dma_start = 0, .size = 1 };
	x = reach_of(RANGES({ 0, top }), &far, RANGE_MAP_PFN_OFFSET, top, 0, REACH_LIMIT);
	assert_int_equal(x.reachable_bytes, 1);
	assert_int_equal(x.unreachable_bytes, top);
	assert_int_equal(x.lowest_unreachable, 0);

	/* a region whose end is 2^64 exactly (start + size wraps to 0) */
	struct dma_region last = { .cpu_start = top - 0xfff, .dma_start = top - 0xfff, .size = 0x1000 };
	x = reach_of(RANGES({ top - 0x1fff, top }), &last, RANGE_MAP_REGIONS, top, 0, REACH_LIMIT);
	assert_int_equal(x.reachable_bytes, 0x1000);
	assert_int_equal(x.uncovered_bytes, 0x1000);
	assert_int_equal(x.lowest_unreachable, top - 0x1fff);

	/* RAM of 2^64 bytes, [0, 2^64 - 1]: byte totals saturate, the other side stays exact */
	x = reach_of(RANGES({ 0, top }), NULL, RANGE_MAP_NONE, top, 0, REACH_LIMIT);
	assert_int_equal(x.reachable_bytes, top);
	assert_int_equal(x.unreachable_bytes, 0);
	assert_false(x.any_unreachable);
	x = reach_of(RANGES({ 0, top }), NULL, RANGE_MAP_NONE, top, 0, REACH_BITMASK);
	assert_int_equal(x.reachable_bytes, top);
	assert_int_equal(x.unreachable_bytes, 0);
	x = reach_of(RANGES({ 0, top }), NULL, RANGE_MAP_NONE, 0xffffffff, 0, REACH_LIMIT);
	assert_int_equal(x.reachable_bytes, 1ull << 32);
	assert_int_equal(x.unreachable_bytes, top - 0xffffffff);
	assert_int_equal(x.lowest_unreachable, 1ull << 32);
	x = reach_of(RANGES({ 0, top }), NULL, RANGE_MAP_NONE, 0xc3ffffff, 0, REACH_BITMASK);
	assert_int_equal(x.reachable_bytes, 4 * 64 * MiB);
	assert_int_equal(x.unreachable_bytes, top - (4 * 64 * MiB - 1));
	x = reach_of(RANGES({ 0, top }), NULL, RANGE_MAP_NONE, 0, 0, REACH_BITMASK);
	assert_int_equal(x.reachable_bytes, 1); /* address 0 alone */
	assert_int_equal(x.unreachable_bytes, top);
	/* the largest region, size 2^64 - 1, one byte up: only CPU 2^64 - 1 is uncovered */
	struct dma_region all = { .cpu_start = 0, .dma_start = 1, .size = top };
	x = reach_of(RANGES({ 0, top }), &all, RANGE_MAP_REGIONS, top, 0, REACH_LIMIT);
	assert_int_equal(x.reachable_bytes, top);
	assert_int_equal(x.unreachable_bytes, 1);
	assert_int_equal(x.uncovered_bytes, 1);
	assert_int_equal(x.lowest_unreachable, top);
	/* ...one offset for all: CPU 2^64 - 1 has bus address 2^64, never capable */
	x = reach_of(RANGES({ 0, top }), &all, RANGE_MAP_PFN_OFFSET, top, 0, REACH_LIMIT);
	assert_int_equal(x.reachable_bytes, top);
	assert_int_equal(x.unreachable_bytes, 1);
	assert_int_equal(x.uncovered_bytes, 0);
	/* nothing reachable: 2^64 unreachable bytes saturate, and are still reported */
	x = reach_of(RANGES({ 0, top }), &all, RANGE_MAP_PFN_OFFSET, 0, 0, REACH_LIMIT);
	assert_int_equal(x.reachable_bytes, 0);
	assert_int_equal(x.unreachable_bytes, top);
	assert_true(x.any_unreachable);
	assert_int_equal(x.lowest_unreachable, 0);
}

/* The 2013 board (fixture arm-2013-highmem): every page bounces under the count reading. */
static void test_legacy_2013(void **state)
{
	struct ram_range r[] = { { 0x40000000, 0xbfffffff } };
	struct layout l = mk_layout(r, 1, 0x6f800);
	struct legacy_block b;
	struct legacy_block_input in = { .bits = 32, .reading = MAX_LOW_PFN_COUNT, .has_mask = false };
	(void)state;

	assert_int_equal(legacy_block_compute(&l, &in, &b), 0);
	assert_int_equal(b.max_low_pfn, 0x2f800);
	assert_int_equal(b.max_pfn, 0x80000);
	assert_int_equal(b.blk_max_low_pfn, 0x2f7ff);
	assert_int_equal(b.blk_max_pfn, 0x7ffff);
	assert_int_equal(b.bounce_pfn, 0x2f7ff);
	assert_false(b.isa);
	assert_false(b.early_return);
	assert_int_equal(b.bounce_bytes, 2 * GiB);

	in.reading = MAX_LOW_PFN_PFN;
	assert_int_equal(legacy_block_compute(&l, &in, &b), 0);
	assert_int_equal(b.bounce_pfn, 0x6f7ff);
	assert_int_equal(b.bounce_bytes, 0x50800ull * 4096);
	layout_done(&l);

	/* without highmem nothing bounces: bounce_pfn == blk_max_pfn */
	struct layout nl = mk_layout(r, 1, 0);
	in.reading = MAX_LOW_PFN_COUNT;
	assert_int_equal(legacy_block_compute(&nl, &in, &b), 0);
	assert_true(b.early_return);
	assert_int_equal(b.bounce_bytes, 0);
	layout_done(&nl);
}

/* 256 MiB at 0xc0000000, a 26-bit device (fixture arm-256m-26bit). */
static void test_legacy_26bit(void **state)
{
	struct ram_range r[] = { { 0xc0000000, 0xcfffffff } };
	struct layout l = mk_layout(r, 1, 0);
	struct legacy_block b;
	struct legacy_block_input in = { .bits = 32, .reading = MAX_LOW_PFN_COUNT,
					 .limit_rule = BLOCK_LIMIT_MASK, .has_mask = true,
					 .mask = 0x03ffffff };
	(void)state;

	assert_int_equal(legacy_block_compute(&l, &in, &b), 0);
	assert_int_equal(b.b_pfn, 0x3fff);
	assert_int_equal(b.blk_max_low_pfn, 0xffff);
	assert_true(b.isa);
	assert_int_equal(b.bounce_pfn, 0x3fff);
	assert_int_equal(b.bounce_bytes, 256 * MiB); /* every page, through the ISA pool */

	in.mask = 0xc3ffffff;
	assert_int_equal(legacy_block_compute(&l, &in, &b), 0);
	assert_int_equal(b.b_pfn, 0xc3fff);
	assert_false(b.isa);
	assert_true(b.early_return); /* 0xc3fff >= blk_max_pfn 0xffff: nothing bounces */
	assert_int_equal(b.bounce_bytes, 0);

	in.reading = MAX_LOW_PFN_PFN; /* the same mask read against PFNs: the ISA path */
	assert_int_equal(legacy_block_compute(&l, &in, &b), 0);
	assert_true(b.isa);
	assert_int_equal(b.bounce_bytes, 192 * MiB);

	/* ARM 3.13-3.18: dma_max_pfn adds PHYS_PFN_OFFSET to the mask's PFN */
	in.limit_rule = BLOCK_LIMIT_PHYS_OFFSET_PFN;
	in.mask = 0x03ffffff;
	assert_int_equal(legacy_block_compute(&l, &in, &b), 0);
	assert_int_equal(b.b_pfn, 0xc0000 + 0x3fff);
	assert_int_equal(b.bounce_bytes, 192 * MiB);
	layout_done(&l);
}

static void test_legacy_mask_zero(void **state)
{
	/* a mask of 0 passed as the limit: b_pfn 0, the ISA path, every page bounces */
	struct ram_range r[] = { { 0x40000000, 0x4fffffff } };
	struct layout l = mk_layout(r, 1, 0);
	struct legacy_block b;
	struct legacy_block_input in = { .bits = 32, .reading = MAX_LOW_PFN_PFN,
					 .limit_rule = BLOCK_LIMIT_MASK, .has_mask = true, .mask = 0 };
	(void)state;

	assert_int_equal(legacy_block_compute(&l, &in, &b), 0);
	assert_int_equal(b.b_pfn, 0);
	assert_true(b.isa);
	assert_int_equal(b.bounce_bytes, 256 * MiB);
	layout_done(&l);
}

static void test_legacy_64bit(void **state)
{
	/* 64-bit: anything below 4 GiB takes the ISA path; BLK_BOUNCE_HIGH is -1 */
	struct ram_range r[] = { { 0x1000, 0x63fffffff } };
	struct layout l = mk_layout(r, 1, 0);
	struct legacy_block b;
	struct legacy_block_input in = { .bits = 64, .reading = MAX_LOW_PFN_PFN, .has_mask = false };
	(void)state;

	assert_int_equal(legacy_block_compute(&l, &in, &b), 0);
	assert_true(b.early_return);
	in.has_mask = true;
	in.limit_rule = BLOCK_LIMIT_MASK;
	in.mask = 0xffffffff;
	assert_int_equal(legacy_block_compute(&l, &in, &b), 0);
	assert_false(b.isa);
	assert_int_equal(b.bounce_pfn, l.end_pfn); /* max(max_low_pfn, b_pfn) */
	assert_true(b.early_return);
	in.mask = 0xffffff; /* 24-bit ISA device */
	assert_int_equal(legacy_block_compute(&l, &in, &b), 0);
	assert_true(b.isa);
	assert_int_equal(b.bounce_bytes, l.ram_bytes - (0x1000000 - 0x1000));
	layout_done(&l);
}

/* A chain: device -> bus (dma-ranges) -> root. */
static struct dt_node node(const char *path, enum dt_prop st, struct dt_range *r, size_t n)
{
	return (struct dt_node){ .path = (char *)path, .dma_ranges = st, .ranges = r, .n_ranges = n,
				 .address_cells = 2, .size_cells = 1 };
}

static void test_dma_map(void **state)
{
	struct dt_range soc = { .child = 0xc0000000, .parent = 0, .size = GiB };
	struct dt_node chain[3] = {
		node("soc/mmc@7e340000", DT_PROP_ABSENT, NULL, 0),
		node("soc", DT_PROP_PRESENT, &soc, 1),
		node("", DT_PROP_ABSENT, NULL, 0),
	};
	struct dt_info dt = { .node = (char *)"soc/mmc@7e340000", .node_is_device = true,
			      .chain = chain, .n_chain = 3 };
	struct dma_map m;
	uint64_t bus;
	(void)state;

	assert_int_equal(dma_map_from_dt(&dt, DT_WALK_PARENT_BUS, &m), 0);
	assert_int_equal(m.state, DMA_MAP_RANGES);
	assert_int_equal(m.n_regions, 1);
	assert_int_equal(m.regions[0].cpu_start, 0);
	assert_int_equal(m.regions[0].dma_start, 0xc0000000);
	assert_int_equal(m.bus_limit, 0xffffffff);
	assert_true(dma_map_translate(&m, 0x1000, &bus));
	assert_int_equal(bus, 0xc0001000);
	assert_false(dma_map_translate(&m, GiB, &bus));
	assert_int_equal(mask_covering(m.bus_limit), 0xffffffff);
	dma_map_done(&m);

	/* the device's own missing dma-ranges is fine; a missing one above the first is -ENODEV */
	struct dt_node chain2[4] = {
		node("bus/sub/dev", DT_PROP_ABSENT, NULL, 0),
		node("bus/sub", DT_PROP_EMPTY, NULL, 0),
		node("bus", DT_PROP_ABSENT, NULL, 0),
		node("", DT_PROP_PRESENT, &soc, 1),
	};
	dt.chain = chain2;
	dt.n_chain = 4;
	assert_int_equal(dma_map_from_dt(&dt, DT_WALK_DEVICE_NODE, &m), 0);
	assert_int_equal(m.state, DMA_MAP_IDENTITY);
	assert_string_equal(m.node, "bus");
	dma_map_done(&m);

	/* a parent address translated up through an ancestor's dma-ranges */
	struct dt_range inner = { .child = 0, .parent = 0x10000000, .size = 256 * MiB };
	struct dt_range outer = { .child = 0x10000000, .parent = 0x80000000, .size = 256 * MiB };
	struct dt_node chain3[4] = {
		node("a/b", DT_PROP_ABSENT, NULL, 0),
		node("a", DT_PROP_PRESENT, &inner, 1),
		node("top", DT_PROP_PRESENT, &outer, 1),
		node("", DT_PROP_ABSENT, NULL, 0),
	};
	dt.chain = chain3;
	assert_int_equal(dma_map_from_dt(&dt, DT_WALK_PARENT_BUS, &m), 0);
	assert_int_equal(m.state, DMA_MAP_RANGES);
	assert_int_equal(m.regions[0].cpu_start, 0x80000000);
	assert_int_equal(m.regions[0].dma_start, 0);
	assert_int_equal(m.bus_limit, 256 * MiB - 1);
	dma_map_done(&m);

	/* an entry that does not translate is skipped; none left is an error */
	outer.child = 0x20000000;
	assert_int_equal(dma_map_from_dt(&dt, DT_WALK_PARENT_BUS, &m), 0);
	assert_int_equal(m.state, DMA_MAP_ERROR);
	dma_map_done(&m);

	/* before 5.5: a PCI host bridge's own dma-ranges are never read (the walk
	 * starts at its DMA parent), and a parent without the property ends it */
	struct dt_range win = { .child = 0, .parent = 0, .size = 3 * GiB };
	struct dt_node bridge[3] = {
		node("pcie@f8000000", DT_PROP_PRESENT, &win, 1),
		node("soc", DT_PROP_ABSENT, NULL, 0),
		node("", DT_PROP_PRESENT, &soc, 1),
	};
	struct dt_info pci = { .node = (char *)"pcie@f8000000", .chain = bridge, .n_chain = 3 };
	assert_int_equal(dma_map_from_dt(&pci, DT_WALK_ABOVE_NODE, &m), 0);
	assert_int_equal(m.state, DMA_MAP_IDENTITY);
	assert_string_equal(m.node, "soc");
	dma_map_done(&m);
	assert_int_equal(dma_map_from_dt(&pci, DT_WALK_DEVICE_NODE, &m), 0);
	assert_int_equal(m.state, DMA_MAP_RANGES);
	assert_int_equal(m.bus_limit, 3 * GiB - 1);
	dma_map_done(&m);
	/* an empty level is passed over, as 5.5+ does */
	bridge[1].dma_ranges = DT_PROP_EMPTY;
	assert_int_equal(dma_map_from_dt(&pci, DT_WALK_ABOVE_NODE, &m), 0);
	assert_int_equal(m.state, DMA_MAP_RANGES);
	assert_int_equal(m.regions[0].dma_start, 0xc0000000);
	dma_map_done(&m);

	/* no node at all */
	struct dt_info none = { 0 };
	assert_int_equal(dma_map_from_dt(&none, DT_WALK_PARENT_BUS, &m), 0);
	assert_int_equal(m.state, DMA_MAP_IDENTITY);
	dma_map_done(&m);
}

/*
 * dma_capable() (include/linux/dma-direct.h): addr + size - 1 <=
 * min_not_zero(*dma_mask, bus_dma_limit), and the bitmask reading (the DMA
 * API's definition) is bounded by the same bus limit.
 */
static void test_reach_limit_edges(void **state)
{
	/* 4 GiB of RAM from 4 GiB: a bus limit of exactly its first byte reaches one byte */
	struct ram_range r[] = { { 0x100000000, 0x1ffffffff } };
	struct layout l = mk_layout(r, 1, 0);
	struct reach x;
	(void)state;

	assert_int_equal(reach_compute(&l, NULL, RANGE_MAP_NONE, UINT64_MAX, 0x100000000, REACH_LIMIT, &x), 0);
	assert_int_equal(x.reachable_bytes, 1);
	assert_int_equal(x.lowest_unreachable, 0x100000001);
	assert_int_equal(reach_compute(&l, NULL, RANGE_MAP_NONE, UINT64_MAX, 0xffffffff, REACH_LIMIT, &x), 0);
	assert_int_equal(x.reachable_bytes, 0);
	assert_int_equal(x.lowest_unreachable, 0x100000000);
	layout_done(&l);

	/* 0xc3ffffff as a bitmask: 64 MiB at 0, 1, 2 and 3 GiB; a 2 GiB bus limit keeps two */
	struct ram_range all[] = { { 0, 0xffffffff } };
	struct layout la = mk_layout(all, 1, 0);
	assert_int_equal(reach_compute(&la, NULL, RANGE_MAP_NONE, 0xc3ffffff, 0, REACH_BITMASK, &x), 0);
	assert_int_equal(x.reachable_bytes, 4 * 64 * MiB);
	assert_int_equal(reach_compute(&la, NULL, RANGE_MAP_NONE, 0xc3ffffff, 0x7fffffff, REACH_BITMASK, &x), 0);
	assert_int_equal(x.reachable_bytes, 2 * 64 * MiB);
	assert_int_equal(x.unreachable_bytes, 4 * GiB - 2 * 64 * MiB);
	layout_done(&la);
}

/*
 * of_dma_configure_id(): the bus limit is the end of the highest dma-ranges
 * entry (dma_range_map_max), and of_translate_dma_address() carries an address
 * up only when an ancestor's entry holds it: [child, child + size).
 */
static void test_dma_map_edges(void **state)
{
	struct dt_range two[] = {
		{ .child = 0, .parent = 0, .size = GiB },
		{ .child = 2 * GiB, .parent = 2 * GiB, .size = GiB },
	};
	struct dt_node chain[2] = {
		node("pcie@0", DT_PROP_PRESENT, two, 2),
		node("", DT_PROP_ABSENT, NULL, 0),
	};
	struct dt_info dt = { .node = (char *)"pcie@0", .chain = chain, .n_chain = 2 };
	struct dma_map m;
	(void)state;

	assert_int_equal(dma_map_from_dt(&dt, DT_WALK_DEVICE_NODE, &m), 0);
	assert_int_equal(m.state, DMA_MAP_RANGES);
	assert_int_equal(m.n_regions, 2);
	assert_int_equal(m.bus_limit, 3 * GiB - 1);
	dma_map_done(&m);
	/* the same entries the other way round */
	struct dt_range rev[] = { two[1], two[0] };
	chain[0].ranges = rev;
	assert_int_equal(dma_map_from_dt(&dt, DT_WALK_DEVICE_NODE, &m), 0);
	assert_int_equal(m.bus_limit, 3 * GiB - 1);
	dma_map_done(&m);

	/* an entry whose parent address is the first byte past the ancestor's: OF_BAD_ADDR */
	struct dt_range inner = { .child = 0, .parent = 0x20000000, .size = 256 * MiB };
	struct dt_range outer = { .child = 0x10000000, .parent = 0x80000000, .size = 256 * MiB };
	struct dt_node chain3[4] = {
		node("a/b", DT_PROP_ABSENT, NULL, 0),
		node("a", DT_PROP_PRESENT, &inner, 1),
		node("top", DT_PROP_PRESENT, &outer, 1),
		node("", DT_PROP_ABSENT, NULL, 0),
	};
	struct dt_info dt3 = { .node = (char *)"a/b", .node_is_device = true, .chain = chain3, .n_chain = 4 };
	assert_int_equal(dma_map_from_dt(&dt3, DT_WALK_PARENT_BUS, &m), 0);
	assert_int_equal(m.state, DMA_MAP_ERROR);
	dma_map_done(&m);
	inner.parent = 0x1ffff000; /* its last page inside: carried up */
	inner.size = 0x1000;
	assert_int_equal(dma_map_from_dt(&dt3, DT_WALK_PARENT_BUS, &m), 0);
	assert_int_equal(m.state, DMA_MAP_RANGES);
	assert_int_equal(m.regions[0].cpu_start, 0x8ffff000);
	dma_map_done(&m);
}

/*
 * iort_dma_setup(): a memory_address_limit of 0 is FW_BUG "missing memory
 * address limit" (nc_dma_get_range, rc_dma_get_range: -EINVAL), no limit; else
 * the device reaches 1 << limit.
 */
static void test_iort_limits(void **state)
{
	struct iort_node nodes[] = {
		{ .type = IORT_NODE_NAMED_COMPONENT, .limit_bits = 0, .name = (char *)"\\_SB_.ETH0" },
		{ .type = IORT_NODE_NAMED_COMPONENT, .limit_bits = 32, .name = (char *)"\\_SB_.ETH1" },
		{ .type = IORT_NODE_ROOT_COMPLEX, .revision = 1, .limit_bits = 40, .segment = 0 },
	};
	struct machine mc = { .iort = nodes, .n_iort = 3, .iort_read = true };
	struct device eth0 = { .id = (char *)"eth0", .bus = DEV_BUS_PLATFORM, .acpi_path = (char *)"\\_SB_.ETH0" };
	struct device eth1 = { .id = (char *)"eth1", .bus = DEV_BUS_PLATFORM, .acpi_path = (char *)"\\_SB_.ETH1" };
	struct device nic = { .id = (char *)"0000:01:00.0", .bus = DEV_BUS_PCI };
	struct dma_map m = { .state = DMA_MAP_IDENTITY };
	(void)state;

	assert_int_equal(dma_map_from_iort(&mc, &eth0, IORT_LIMIT_BOTH, &m), 0);
	assert_int_equal(m.state, DMA_MAP_IDENTITY);
	assert_int_equal(dma_map_from_iort(&mc, &eth1, IORT_LIMIT_BOTH, &m), 0);
	assert_int_equal(m.state, DMA_MAP_RANGES);
	assert_int_equal(m.bus_limit, 0xffffffff);
	dma_map_done(&m);
	m.state = DMA_MAP_IDENTITY;
	/* a root complex's limit from 5ac65e8c8941 (4.19), a named component's from 4.14 */
	assert_int_equal(dma_map_from_iort(&mc, &nic, IORT_LIMIT_NAMED, &m), 0);
	assert_int_equal(m.state, DMA_MAP_IDENTITY);
	assert_int_equal(dma_map_from_iort(&mc, &nic, IORT_LIMIT_BOTH, &m), 0);
	assert_int_equal(m.state, DMA_MAP_RANGES);
	assert_int_equal(m.bus_limit, (1ull << 40) - 1);
	dma_map_done(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version_parse),
		cmocka_unit_test(test_eras),
		cmocka_unit_test(test_era_names),
		cmocka_unit_test(test_era_total),
		cmocka_unit_test(test_era_unknown_release),
		cmocka_unit_test(test_era_unknown_release_judged),
		cmocka_unit_test(test_era_boundaries),
		cmocka_unit_test(test_era_boundaries_covered),
		cmocka_unit_test(test_bitmask_count),
		cmocka_unit_test(test_reach_x86_32bit),
		cmocka_unit_test(test_reach_offset_and_uncovered),
		cmocka_unit_test(test_reach_cpu_end),
		cmocka_unit_test(test_reach_wrap),
		cmocka_unit_test(test_reach_edges_64),
		cmocka_unit_test(test_legacy_2013),
		cmocka_unit_test(test_legacy_26bit),
		cmocka_unit_test(test_legacy_mask_zero),
		cmocka_unit_test(test_legacy_64bit),
		cmocka_unit_test(test_dma_map),
		cmocka_unit_test(test_reach_limit_edges),
		cmocka_unit_test(test_dma_map_edges),
		cmocka_unit_test(test_iort_limits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
