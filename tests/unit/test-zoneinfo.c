/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/readers/zoneinfo.c: zoneinfo_parse on real and broken proc/zoneinfo files. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "readers/readers.h"

struct result {
	int r;
	struct zone *zones;
	size_t n;
	struct parse_error err;
};

static void parse_n(const char *buf, size_t len, struct result *res)
{
	memset(res, 0, sizeof(*res));
	res->err.line = 999;
	res->r = zoneinfo_parse(buf, len, &res->zones, &res->n, &res->err);
}

static void parse(const char *text, struct result *res)
{
	parse_n(text, strlen(text), res);
}

static void result_done(struct result *res)
{
	free(res->zones);
	res->zones = NULL;
}

static void assert_zone(const struct zone *z, int node, const char *name, bool populated,
			uint64_t start_pfn, uint64_t spanned, uint64_t present, uint64_t managed)
{
	assert_int_equal(z->node, node);
	assert_string_equal(z->name, name);
	assert_int_equal(z->populated, populated);
	if (populated)
		assert_int_equal(z->start_pfn, start_pfn);
	assert_int_equal(z->spanned, spanned);
	assert_int_equal(z->present, present);
	assert_int_equal(z->managed, managed);
}

#include "parse-assert.h"

/* This machine's /proc/zoneinfo (x86_64, 6.18, 24 GiB), verbatim. */
static const char x86_zoneinfo[] =
	"Node 0, zone      DMA\n"
	"  per-node stats\n"
	"      nr_inactive_anon 689\n"
	"      nr_active_anon 378\n"
	"      nr_inactive_file 27943\n"
	"      nr_active_file 29131\n"
	"      nr_unevictable 2538\n"
	"      nr_slab_reclaimable 14303\n"
	"      nr_slab_unreclaimable 5167\n"
	"      nr_isolated_anon 0\n"
	"      nr_isolated_file 0\n"
	"      workingset_nodes 9002\n"
	"      workingset_refault_anon 0\n"
	"      workingset_refault_file 113212\n"
	"      workingset_activate_anon 0\n"
	"      workingset_activate_file 18003\n"
	"      workingset_restore_anon 0\n"
	"      workingset_restore_file 0\n"
	"      workingset_nodereclaim 0\n"
	"      nr_anon_pages 1269\n"
	"      nr_mapped    2769\n"
	"      nr_file_pages 59469\n"
	"      nr_dirty     334\n"
	"      nr_writeback 0\n"
	"      nr_shmem     2392\n"
	"      nr_shmem_hugepages 0\n"
	"      nr_shmem_pmdmapped 0\n"
	"      nr_file_hugepages 0\n"
	"      nr_file_pmdmapped 0\n"
	"      nr_anon_transparent_hugepages 0\n"
	"      nr_vmscan_write 0\n"
	"      nr_vmscan_immediate_reclaim 340\n"
	"      nr_dirtied   94336\n"
	"      nr_written   68014\n"
	"      nr_throttled_written 0\n"
	"      nr_kernel_misc_reclaimable 0\n"
	"      nr_foll_pin_acquired 0\n"
	"      nr_foll_pin_released 0\n"
	"      nr_kernel_stack 1352\n"
	"      nr_page_table_pages 318\n"
	"      nr_sec_page_table_pages 0\n"
	"      nr_iommu_pages 0\n"
	"      nr_swapcached 0\n"
	"      pgpromote_success 0\n"
	"      pgpromote_candidate 0\n"
	"      pgpromote_candidate_nrl 0\n"
	"      pgdemote_kswapd 0\n"
	"      pgdemote_direct 0\n"
	"      pgdemote_khugepaged 0\n"
	"      pgdemote_proactive 0\n"
	"      nr_hugetlb   0\n"
	"      nr_balloon_pages 0\n"
	"      nr_kernel_file_pages 0\n"
	"  pages free     3840\n"
	"        boost    0\n"
	"        min      62\n"
	"        low      77\n"
	"        high     92\n"
	"        promo    107\n"
	"        spanned  4095\n"
	"        present  3998\n"
	"        managed  3840\n"
	"        cma      0\n"
	"        protection: (0, 3018, 4042, 4042, 4042)\n"
	"      nr_free_pages 3840\n"
	"      nr_free_pages_blocks 3584\n"
	"      nr_zone_inactive_anon 0\n"
	"      nr_zone_active_anon 0\n"
	"      nr_zone_inactive_file 0\n"
	"      nr_zone_active_file 0\n"
	"      nr_zone_unevictable 0\n"
	"      nr_zone_write_pending 0\n"
	"      nr_mlock     0\n"
	"      nr_zspages   0\n"
	"      nr_free_cma  0\n"
	"      numa_hit     0\n"
	"      numa_miss    0\n"
	"      numa_foreign 0\n"
	"      numa_interleave 0\n"
	"      numa_local   0\n"
	"      numa_other   0\n"
	"  pagesets\n"
	"    cpu: 0\n"
	"              count:    0\n"
	"              high:     0\n"
	"              batch:    1\n"
	"              high_min: 38\n"
	"              high_max: 240\n"
	"  vm stats threshold: 4\n"
	"    cpu: 1\n"
	"              count:    0\n"
	"              high:     0\n"
	"              batch:    1\n"
	"              high_min: 38\n"
	"              high_max: 240\n"
	"  vm stats threshold: 4\n"
	"  node_unreclaimable:  0\n"
	"  start_pfn:           1\n"
	"Node 0, zone    DMA32\n"
	"  pages free     772818\n"
	"        boost    0\n"
	"        min      12569\n"
	"        low      15711\n"
	"        high     18853\n"
	"        promo    21995\n"
	"        spanned  1044480\n"
	"        present  782336\n"
	"        managed  772818\n"
	"        cma      0\n"
	"        protection: (0, 0, 1024, 1024, 1024)\n"
	"      nr_free_pages 772818\n"
	"      nr_free_pages_blocks 771072\n"
	"      nr_zone_inactive_anon 0\n"
	"      nr_zone_active_anon 0\n"
	"      nr_zone_inactive_file 0\n"
	"      nr_zone_active_file 0\n"
	"      nr_zone_unevictable 0\n"
	"      nr_zone_write_pending 0\n"
	"      nr_mlock     0\n"
	"      nr_zspages   0\n"
	"      nr_free_cma  0\n"
	"      numa_hit     0\n"
	"      numa_miss    0\n"
	"      numa_foreign 0\n"
	"      numa_interleave 0\n"
	"      numa_local   0\n"
	"      numa_other   0\n"
	"  pagesets\n"
	"    cpu: 0\n"
	"              count:    0\n"
	"              high:     7855\n"
	"              batch:    63\n"
	"              high_min: 7855\n"
	"              high_max: 48301\n"
	"  vm stats threshold: 24\n"
	"    cpu: 1\n"
	"              count:    0\n"
	"              high:     7855\n"
	"              batch:    63\n"
	"              high_min: 7855\n"
	"              high_max: 48301\n"
	"  vm stats threshold: 24\n"
	"  node_unreclaimable:  0\n"
	"  start_pfn:           4096\n"
	"Node 0, zone   Normal\n"
	"  pages free     171462\n"
	"        boost    0\n"
	"        min      4263\n"
	"        low      5328\n"
	"        high     6393\n"
	"        promo    7458\n"
	"        spanned  5505024\n"
	"        present  5505024\n"
	"        managed  262144\n"
	"        cma      0\n"
	"        protection: (0, 0, 0, 0, 0)\n"
	"      nr_free_pages 171462\n"
	"      nr_free_pages_blocks 158208\n"
	"      nr_zone_inactive_anon 694\n"
	"      nr_zone_active_anon 378\n"
	"      nr_zone_inactive_file 27943\n"
	"      nr_zone_active_file 29131\n"
	"      nr_zone_unevictable 2538\n"
	"      nr_zone_write_pending 334\n"
	"      nr_mlock     2133\n"
	"      nr_zspages   0\n"
	"      nr_free_cma  0\n"
	"      numa_hit     2929836\n"
	"      numa_miss    0\n"
	"      numa_foreign 0\n"
	"      numa_interleave 1119\n"
	"      numa_local   2929836\n"
	"      numa_other   0\n"
	"  pagesets\n"
	"    cpu: 0\n"
	"              count:    2493\n"
	"              high:     2853\n"
	"              batch:    63\n"
	"              high_min: 2664\n"
	"              high_max: 16384\n"
	"  vm stats threshold: 20\n"
	"    cpu: 1\n"
	"              count:    2474\n"
	"              high:     2727\n"
	"              batch:    63\n"
	"              high_min: 2664\n"
	"              high_max: 16384\n"
	"  vm stats threshold: 20\n"
	"  node_unreclaimable:  0\n"
	"  start_pfn:           1048576\n"
	"Node 0, zone  Movable\n"
	"  pages free     0\n"
	"        boost    0\n"
	"        min      32\n"
	"        low      32\n"
	"        high     32\n"
	"        promo    32\n"
	"        spanned  0\n"
	"        present  0\n"
	"        managed  0\n"
	"        cma      0\n"
	"        protection: (0, 0, 0, 0, 0)\n"
	"Node 0, zone   Device\n"
	"  pages free     0\n"
	"        boost    0\n"
	"        min      0\n"
	"        low      0\n"
	"        high     0\n"
	"        promo    0\n"
	"        spanned  0\n"
	"        present  0\n"
	"        managed  0\n"
	"        cma      0\n"
	"        protection: (0, 0, 0, 0, 0)\n";

static void test_x86_real(void **state)
{
	struct result res;

	parse(x86_zoneinfo, &res);
	assert_int_equal(res.r, 0);
	assert_int_equal(res.n, 5);
	assert_zone(&res.zones[0], 0, "DMA", true, 1, 4095, 3998, 3840);
	assert_zone(&res.zones[1], 0, "DMA32", true, 4096, 1044480, 782336, 772818);
	assert_zone(&res.zones[2], 0, "Normal", true, 1048576, 5505024, 5505024, 262144);
	/* Unpopulated zones (printed since 4.12) have no start_pfn line. */
	assert_zone(&res.zones[3], 0, "Movable", false, 0, 0, 0, 0);
	assert_zone(&res.zones[4], 0, "Device", false, 0, 0, 0, 0);
	result_done(&res);
}

/*
 * The 2013 board on a 3.10 kernel (arm, one CPU, SMP): Normal from PFN 0x40000
 * to 0x6f800, HighMem from 0x6f800 to 0xc0000. 3.x printed only populated zones.
 */
static const char arm_3_10_zoneinfo[] =
	"Node 0, zone   Normal\n"
	"  pages free     150233\n"
	"        min      2361\n"
	"        low      2951\n"
	"        high     3541\n"
	"        scanned  0\n"
	"        spanned  194560\n"
	"        present  194560\n"
	"        managed  190528\n"
	"    nr_free_pages 150233\n"
	"    nr_inactive_anon 0\n"
	"    nr_active_anon 2077\n"
	"    nr_mlock     0\n"
	"    nr_dirty     3\n"
	"    nr_bounce    0\n"
	"    nr_free_cma  0\n"
	"        protection: (0, 20607, 20607)\n"
	"  pagesets\n"
	"    cpu: 0\n"
	"              count: 139\n"
	"              high:  186\n"
	"              batch: 31\n"
	"  vm stats threshold: 24\n"
	"  all_unreclaimable: 0\n"
	"  start_pfn:         262144\n"
	"  inactive_ratio:    1\n"
	"Node 0, zone  HighMem\n"
	"  pages free     300451\n"
	"        min      128\n"
	"        low      574\n"
	"        high     1020\n"
	"        scanned  0\n"
	"        spanned  329728\n"
	"        present  329728\n"
	"        managed  329728\n"
	"    nr_free_pages 300451\n"
	"    nr_inactive_anon 0\n"
	"    nr_active_anon 0\n"
	"    nr_mlock     0\n"
	"    nr_dirty     0\n"
	"    nr_bounce    0\n"
	"    nr_free_cma  0\n"
	"        protection: (0, 0, 0)\n"
	"  pagesets\n"
	"    cpu: 0\n"
	"              count: 27\n"
	"              high:  186\n"
	"              batch: 31\n"
	"  vm stats threshold: 32\n"
	"  all_unreclaimable: 0\n"
	"  start_pfn:         456704\n"
	"  inactive_ratio:    3\n";

static void test_arm_highmem(void **state)
{
	struct result res;

	parse(arm_3_10_zoneinfo, &res);
	assert_int_equal(res.r, 0);
	assert_int_equal(res.n, 2);
	assert_zone(&res.zones[0], 0, "Normal", true, 0x40000, 0x2f800, 0x2f800, 190528);
	assert_zone(&res.zones[1], 0, "HighMem", true, 0x6f800, 0x50800, 0x50800, 0x50800);
	result_done(&res);
}

/*
 * The same board on the report's own kernel, 3.3: "managed" only exists from
 * 3.8 (Jiang Liu, "mm: introduce new field "managed_pages" to struct zone");
 * before, a zone printed "scanned", "spanned" and "present" only. Those are
 * exactly the kernels whose max_low_pfn is a count, which this tool exists for.
 */
static const char arm_3_3_zoneinfo[] =
	"Node 0, zone   Normal\n"
	"  pages free     150233\n"
	"        min      2361\n"
	"        low      2951\n"
	"        high     3541\n"
	"        scanned  0\n"
	"        spanned  194560\n"
	"        present  192656\n"
	"    nr_free_pages 150233\n"
	"    nr_inactive_anon 0\n"
	"    nr_bounce    0\n"
	"        protection: (0, 20607, 20607)\n"
	"  pagesets\n"
	"    cpu: 0\n"
	"              count: 139\n"
	"              high:  186\n"
	"              batch: 31\n"
	"  vm stats threshold: 24\n"
	"  all_unreclaimable: 0\n"
	"  start_pfn:         262144\n"
	"  inactive_ratio:    1\n"
	"Node 0, zone  HighMem\n"
	"  pages free     300451\n"
	"        min      128\n"
	"        low      574\n"
	"        high     1020\n"
	"        scanned  0\n"
	"        spanned  329728\n"
	"        present  329728\n"
	"    nr_free_pages 300451\n"
	"    nr_inactive_anon 0\n"
	"    nr_bounce    0\n"
	"        protection: (0, 0, 0)\n"
	"  pagesets\n"
	"    cpu: 0\n"
	"              count: 27\n"
	"              high:  186\n"
	"              batch: 31\n"
	"  vm stats threshold: 32\n"
	"  all_unreclaimable: 0\n"
	"  start_pfn:         456704\n"
	"  inactive_ratio:    3\n";

static void test_arm_pre_3_8_without_managed(void **state)
{
	struct result res;

	parse(arm_3_3_zoneinfo, &res);
	assert_int_equal(res.r, 0);
	assert_int_equal(res.n, 2);
	assert_string_equal(res.zones[0].name, "Normal");
	assert_true(res.zones[0].populated);
	assert_int_equal(res.zones[0].start_pfn, 0x40000);
	assert_int_equal(res.zones[0].spanned, 0x2f800);
	assert_int_equal(res.zones[0].present, 192656);
	assert_string_equal(res.zones[1].name, "HighMem");
	assert_true(res.zones[1].populated);
	assert_int_equal(res.zones[1].start_pfn, 0x6f800);
	assert_int_equal(res.zones[1].spanned, 0x50800);
	result_done(&res);
}

static void test_numa_nodes(void **state)
{
	static const char text[] =
		"Node 0, zone   Normal\n"
		"        spanned  1000\n"
		"        present  900\n"
		"        managed  800\n"
		"  start_pfn:           4096\n"
		"\n" /* blank lines are harmless */
		"Node 1, zone   Normal\n"
		"        spanned  2000\n"
		"        present  2000\n"
		"        managed  1990\n"
		"  start_pfn:           1048576\n"
		"Node 12, zone  Movable\n"
		"        spanned  0\n"
		"        present  0\n"
		"        managed  0\n";
	struct result res;

	parse(text, &res);
	assert_int_equal(res.r, 0);
	assert_int_equal(res.n, 3);
	assert_zone(&res.zones[0], 0, "Normal", true, 4096, 1000, 900, 800);
	assert_zone(&res.zones[1], 1, "Normal", true, 1048576, 2000, 2000, 1990);
	assert_zone(&res.zones[2], 12, "Movable", false, 0, 0, 0, 0);
	result_done(&res);
}

static void test_many_zones(void **state)
{
	/* More zones than the first allocation holds. */
	char buf[40 * 160];
	size_t len = 0;
	struct result res;

	for (int i = 0; i < 40; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len,
					"Node %d, zone   Normal\n        spanned  %d\n"
					"        present  %d\n        managed  %d\n"
					"  start_pfn:           %d\n",
					i, 100 + i, 100 + i, i, 1000 * i);
	parse_n(buf, len, &res);
	assert_int_equal(res.r, 0);
	assert_int_equal(res.n, 40);
	for (int i = 0; i < 40; i++)
		assert_zone(&res.zones[i], i, "Normal", true, 1000ull * (unsigned)i,
			    100ull + (unsigned)i, 100ull + (unsigned)i, (unsigned)i);
	result_done(&res);
}

static void test_unpopulated_zone(void **state)
{
	static const char text[] =
		"Node 0, zone      DMA\n"
		"  pages free     0\n"
		"        boost    0\n"
		"        min      0\n"
		"        spanned  0\n"
		"        present  0\n"
		"        managed  0\n"
		"        cma      0\n"
		"        protection: (0, 0, 0, 0)\n";
	struct result res;

	parse(text, &res);
	assert_int_equal(res.r, 0);
	assert_int_equal(res.n, 1);
	assert_zone(&res.zones[0], 0, "DMA", false, 0, 0, 0, 0);
	result_done(&res);
}

static void test_populated_zone_without_start_pfn(void **state)
{
	/* Pages present but no start_pfn: the file was cut before the pagesets ended. */
	assert_bad("Node 0, zone   Normal\n"
		   "  pages free     189178\n"
		   "        spanned  5505024\n"
		   "        present  5505024\n"
		   "        managed  262144\n"
		   "  pagesets\n"
		   "    cpu: 0\n",
		   0);
}

static void test_missing_fields(void **state)
{
	/* The error names the header of the zone that lacks them. */
	assert_bad("Node 0, zone      DMA\n"
		   "        present  3998\n"
		   "        managed  3840\n"
		   "  start_pfn:           1\n",
		   1);
	assert_bad("Node 0, zone      DMA\n"
		   "        spanned  4095\n"
		   "        present  3998\n"
		   "        managed  3840\n"
		   "  start_pfn:           1\n"
		   "Node 0, zone   Normal\n"
		   "        present  3998\n"
		   "        managed  3840\n"
		   "  start_pfn:           4096\n"
		   "Node 0, zone  Movable\n"
		   "        spanned  0\n"
		   "        present  0\n"
		   "        managed  0\n",
		   6);
	assert_bad("Node 0, zone      DMA\n"
		   "        spanned  4095\n"
		   "        managed  3840\n"
		   "  start_pfn:           1\n",
		   1);
	assert_bad("Node 0, zone      DMA\n", 1);
}

static void test_repeated_field(void **state)
{
	assert_bad("Node 0, zone      DMA\n"
		   "        spanned  4095\n"
		   "        spanned  4096\n"
		   "        present  3998\n"
		   "        managed  3840\n"
		   "  start_pfn:           1\n",
		   3);
}

static void test_bad_header(void **state)
{
	static const char *const headers[] = {
		"Node 0 zone      DMA\n",
		"Node 0, zone\n",
		"Node 0, zone   \n",
		"Node x, zone      DMA\n",
		"Node -1, zone      DMA\n",
		"Node , zone      DMA\n",
		"Node 65536, zone      DMA\n",
		"Node 0, zone   Normal extra\n",
		"Node 0, zone 0123456789abcdef\n", /* 16 characters: too long for the name */
		"node 0, zone      DMA\n",
		"Node 0, zon      DMA\n",
		"garbage\n",
	};

	for (size_t i = 0; i < sizeof(headers) / sizeof(headers[0]); i++) {
		char buf[256];
		snprintf(buf, sizeof(buf),
			 "Node 0, zone      DMA\n"
			 "        spanned  0\n"
			 "        present  0\n"
			 "        managed  0\n"
			 "%s",
			 headers[i]);
		assert_bad(buf, 5);
	}
}

static void test_header_limits_accepted(void **state)
{
	static const char text[] =
		"Node 65535, zone 0123456789abcde\n" /* 15 characters fit */
		"        spanned  0\n"
		"        present  0\n"
		"        managed  0\n";
	struct result res;

	parse(text, &res);
	assert_int_equal(res.r, 0);
	assert_int_equal(res.n, 1);
	assert_int_equal(res.zones[0].node, 65535);
	assert_string_equal(res.zones[0].name, "0123456789abcde");
	result_done(&res);
}

static void test_field_before_header(void **state)
{
	assert_bad("  pages free     3840\n"
		   "Node 0, zone      DMA\n"
		   "        spanned  0\n"
		   "        present  0\n"
		   "        managed  0\n",
		   1);
	assert_bad("\n"
		   "        spanned  0\n",
		   2);
}

static void test_bad_number(void **state)
{
	static const char *const values[] = {
		"        spanned  12x\n",
		"        spanned  -1\n",
		"        spanned  0x10\n",
		"        spanned\n",
		"        spanned  1 2\n",
		"        spanned  18446744073709551616\n",
	};

	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		char buf[256];
		snprintf(buf, sizeof(buf),
			 "Node 0, zone      DMA\n"
			 "        present  0\n"
			 "%s"
			 "        managed  0\n",
			 values[i]);
		assert_bad(buf, 3);
	}
	assert_bad("Node 0, zone      DMA\n"
		   "        spanned  4095\n"
		   "        present  3998\n"
		   "        managed  3840\n"
		   "  start_pfn:           one\n",
		   5);
}

static void test_binary(void **state)
{
	static const char text[] = "Node 0, zone      DMA\n"
				   "        spanned  4095\n\0"
				   "        present  3998\n"
				   "        managed  3840\n"
				   "  start_pfn:           1\n";
	struct result res;

	parse_n(text, sizeof(text) - 1, &res);
	assert_int_equal(res.r, -EBADMSG);
	assert_non_null(res.err.what);
	result_done(&res);
}

static void test_truncated(void **state)
{
	struct result res;

	/* Cut anywhere but after a newline: refused, whatever the cut leaves. */
	static const size_t cuts[] = { 10, 300, 4000, sizeof(x86_zoneinfo) - 2 };
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		assert_true(x86_zoneinfo[cuts[i] - 1] != '\n');
		parse_n(x86_zoneinfo, cuts[i], &res);
		assert_int_equal(res.r, -EBADMSG);
		result_done(&res);
	}
}

static void test_empty(void **state)
{
	struct result res;

	parse_n("", 0, &res);
	assert_int_equal(res.r, -EBADMSG);
	assert_non_null(res.err.what);
	assert_non_null(strstr(res.err.what, "no zone"));
	result_done(&res);
	assert_bad("\n\n", 0);
}

static void test_sizes_out_of_range(void **state)
{
	struct result res;

	/* 2^52 pages: still a 64-bit address space with 4 KiB pages. */
	parse("Node 0, zone   Normal\n"
	      "        spanned  4503599627370496\n"
	      "        present  1\n"
	      "        managed  1\n"
	      "  start_pfn:           0\n",
	      &res);
	assert_int_equal(res.r, 0);
	assert_int_equal(res.zones[0].spanned, 1ull << 52);
	result_done(&res);

	assert_bad("Node 0, zone   Normal\n"
		   "        spanned  4503599627370497\n"
		   "        present  1\n"
		   "        managed  1\n"
		   "  start_pfn:           0\n",
		   0);
	assert_bad("Node 0, zone   Normal\n"
		   "        spanned  18446744073709551615\n"
		   "        present  1\n"
		   "        managed  1\n"
		   "  start_pfn:           0\n",
		   0);
	assert_bad("Node 0, zone   Normal\n"
		   "        spanned  1\n"
		   "        present  1\n"
		   "        managed  1\n"
		   "  start_pfn:           4503599627370497\n",
		   0);
	/* More pages present than spanned. */
	assert_bad("Node 0, zone   Normal\n"
		   "        spanned  100\n"
		   "        present  101\n"
		   "        managed  1\n"
		   "  start_pfn:           0\n",
		   0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86_real),
		cmocka_unit_test(test_arm_highmem),
		cmocka_unit_test(test_arm_pre_3_8_without_managed),
		cmocka_unit_test(test_numa_nodes),
		cmocka_unit_test(test_many_zones),
		cmocka_unit_test(test_unpopulated_zone),
		cmocka_unit_test(test_populated_zone_without_start_pfn),
		cmocka_unit_test(test_missing_fields),
		cmocka_unit_test(test_repeated_field),
		cmocka_unit_test(test_bad_header),
		cmocka_unit_test(test_header_limits_accepted),
		cmocka_unit_test(test_field_before_header),
		cmocka_unit_test(test_bad_number),
		cmocka_unit_test(test_binary),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_sizes_out_of_range),
	};

	return cmocka_run_group_tests_name("zoneinfo", tests, NULL, NULL);
}
