/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/readers/devicetree.c: dma-ranges cells, and chains read from fake devicetrees. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "readers/readers.h"
#include "fake-root.h"

#define DT "sys/firmware/devicetree/base/"

/* ---- dt_parse_dma_ranges ---- */

static void be_cells(uint8_t *buf, const uint32_t *cells, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		buf[4 * i] = (uint8_t)(cells[i] >> 24);
		buf[4 * i + 1] = (uint8_t)(cells[i] >> 16);
		buf[4 * i + 2] = (uint8_t)(cells[i] >> 8);
		buf[4 * i + 3] = (uint8_t)cells[i];
	}
}

static int parse(const uint32_t *cells, size_t n, unsigned cc, bool pci, unsigned pc, unsigned sc,
		 struct dt_range **r, size_t *nr)
{
	uint8_t buf[256];
	assert_true(n * 4 <= sizeof(buf));
	be_cells(buf, cells, n);
	*r = NULL;
	*nr = 999;
	return dt_parse_dma_ranges(buf, n * 4, cc, pci, pc, sc, r, nr);
}

static void assert_range(const struct dt_range *r, uint64_t child, uint64_t parent, uint64_t size)
{
	assert_int_equal(r->child, child);
	assert_int_equal(r->parent, parent);
	assert_int_equal(r->size, size);
}

static void test_ranges_2_2_2(void **state)
{
	/* two entries: bus 0xc0000000 is CPU 0 (1 GiB), bus 4 GiB is CPU 4 GiB (2 GiB) */
	static const uint32_t c[] = { 0x0, 0xc0000000, 0x0, 0x0,	 0x0, 0x40000000,
				      0x1, 0x0,	       0x1, 0x0, 0x0, 0x80000000 };
	struct dt_range *r;
	size_t n;
	(void)state;

	assert_int_equal(parse(c, 12, 2, false, 2, 2, &r, &n), 0);
	assert_int_equal(n, 2);
	assert_range(&r[0], 0xc0000000, 0x0, 0x40000000);
	assert_range(&r[1], 0x100000000, 0x100000000, 0x80000000);
	free(r);

	assert_int_equal(parse(c, 6, 2, false, 2, 2, &r, &n), 0);
	assert_int_equal(n, 1);
	assert_range(&r[0], 0xc0000000, 0x0, 0x40000000);
	free(r);
}

static void test_ranges_pci(void **state)
{
	/* Raspberry Pi 4 PCIe: <0x02000000 0x0 0x0  0x0 0x0  0x0 0xc0000000>; phys.hi dropped */
	static const uint32_t c[] = { 0x02000000, 0x0, 0x0, 0x0, 0x0, 0x0, 0xc0000000 };
	static const uint32_t c64[] = { 0x43000000, 0x4, 0x0, 0x0, 0x0, 0x1, 0x0 };
	struct dt_range *r;
	size_t n;
	(void)state;

	assert_int_equal(parse(c, 7, 3, true, 2, 2, &r, &n), 0);
	assert_int_equal(n, 1);
	assert_range(&r[0], 0x0, 0x0, 0xc0000000);
	free(r);

	assert_int_equal(parse(c64, 7, 3, true, 2, 2, &r, &n), 0);
	assert_range(&r[0], 0x400000000, 0x0, 0x100000000);
	free(r);

	/* Not PCI: a non-zero leading cell does not fit 64 bits */
	assert_int_equal(parse(c64, 7, 3, false, 2, 2, &r, &n), -EBADMSG);
	assert_null(r);
	/* ... a zero one does */
	assert_int_equal(parse(c, 7, 3, false, 2, 2, &r, &n), -EBADMSG);
	static const uint32_t z[] = { 0x0, 0x1, 0x0, 0x0, 0x0, 0x0, 0x1000 };
	assert_int_equal(parse(z, 7, 3, false, 2, 2, &r, &n), 0);
	assert_range(&r[0], 0x100000000, 0x0, 0x1000);
	free(r);
	/* PCI child addresses are 3 cells */
	assert_int_equal(parse(c, 6, 2, true, 2, 2, &r, &n), -EBADMSG);
}

static void test_ranges_1_1_1(void **state)
{
	static const uint32_t c[] = { 0xc0000000, 0x0, 0x40000000 };
	struct dt_range *r;
	size_t n;
	(void)state;

	assert_int_equal(parse(c, 3, 1, false, 1, 1, &r, &n), 0);
	assert_int_equal(n, 1);
	assert_range(&r[0], 0xc0000000, 0x0, 0x40000000);
	free(r);
}

static void test_ranges_bad(void **state)
{
	static const uint32_t c[] = { 0xc0000000, 0x0, 0x0, 0x40000000, 0x1 };
	struct dt_range *r;
	size_t n;
	(void)state;

	/* 5 cells are not a whole number of 4-cell entries */
	assert_int_equal(parse(c, 5, 1, false, 2, 1, &r, &n), -EBADMSG);
	assert_null(r);
	/* 0 size cells, 0 address cells, more than OF_MAX_ADDR_CELLS */
	assert_int_equal(parse(c, 4, 2, false, 2, 0, &r, &n), -EBADMSG);
	assert_int_equal(parse(c, 4, 0, false, 2, 2, &r, &n), -EBADMSG);
	assert_int_equal(parse(c, 4, 1, false, 0, 3, &r, &n), -EBADMSG);
	assert_int_equal(parse(c, 5, 5, false, 0, 0, &r, &n), -EBADMSG);
	/* a byte count that is not whole cells */
	uint8_t b[6] = { 0 };
	assert_int_equal(dt_parse_dma_ranges(b, 6, 1, false, 1, 1, &r, &n), -EBADMSG);
	/* empty: no entries, no error */
	n = 999;
	assert_int_equal(dt_parse_dma_ranges(b, 0, 1, false, 2, 1, &r, &n), 0);
	assert_int_equal(n, 0);
	assert_null(r);
}

/* ---- read_dt_chain ---- */

struct tree {
	char *root;
	struct sysroot *sr;
};

/* A Raspberry Pi 4-like tree (bcm2711.dtsi, simplified). */
static void build_rpi4(const char *root)
{
	tmp_root_write_cells(root, DT "#address-cells", 1, 2u);
	tmp_root_write_cells(root, DT "#size-cells", 1, 1u);
	tmp_root_write_str(root, DT "compatible", "raspberrypi,4-model-b\0brcm,bcm2711");
	/* soc: 1 child cell, 2 parent cells (the root's), 1 size cell */
	tmp_root_write_cells(root, DT "soc/#address-cells", 1, 1u);
	tmp_root_write_cells(root, DT "soc/#size-cells", 1, 1u);
	tmp_root_write_cells(root, DT "soc/dma-ranges", 4, 0xc0000000u, 0x0u, 0x0u, 0x40000000u);
	tmp_root_write_str(root, DT "soc/mmc@7e340000/compatible", "brcm,bcm2711-emmc2");
	tmp_root_write_cells(root, DT "soc/mmc@7e340000/reg", 2, 0x7e340000u, 0x100u);
	/* scb: empty dma-ranges (1:1), a PCIe host bridge below */
	tmp_root_write_cells(root, DT "scb/#address-cells", 1, 2u);
	tmp_root_write_cells(root, DT "scb/#size-cells", 1, 2u);
	tmp_root_write(root, DT "scb/dma-ranges", "", 0);
	tmp_root_write_str(root, DT "scb/ethernet@7d580000/compatible", "brcm,bcm2711-genet-v5");
	tmp_root_write_str(root, DT "scb/pcie@7d500000/device_type", "pci");
	tmp_root_write_cells(root, DT "scb/pcie@7d500000/#address-cells", 1, 3u);
	tmp_root_write_cells(root, DT "scb/pcie@7d500000/#size-cells", 1, 2u);
	tmp_root_write_cells(root, DT "scb/pcie@7d500000/dma-ranges", 7, 0x02000000u, 0x0u, 0x0u,
			     0x0u, 0x0u, 0x0u, 0xc0000000u);
	/* a bus with a malformed dma-ranges (12 bytes, entries are 16) */
	tmp_root_write_cells(root, DT "bad-bus/#address-cells", 1, 1u);
	tmp_root_write_cells(root, DT "bad-bus/#size-cells", 1, 1u);
	tmp_root_write_cells(root, DT "bad-bus/dma-ranges", 3, 0x0u, 0x0u, 0x1000u);
	tmp_root_write_str(root, DT "bad-bus/dev@0/compatible", "x,y");
	/* reserved-memory: a shared pool (0x41) and a restricted one (0x42) */
	tmp_root_write_cells(root, DT "reserved-memory/#address-cells", 1, 2u);
	tmp_root_write_cells(root, DT "reserved-memory/#size-cells", 1, 1u);
	tmp_root_write(root, DT "reserved-memory/ranges", "", 0);
	tmp_root_write_str(root, DT "reserved-memory/linux,cma/compatible", "shared-dma-pool");
	tmp_root_write_cells(root, DT "reserved-memory/linux,cma/phandle", 1, 0x41u);
	tmp_root_write_cells(root, DT "reserved-memory/linux,cma/size", 1, 0x4000000u);
	tmp_root_write_str(root, DT "reserved-memory/restricted@3e000000/compatible",
			   "restricted-dma-pool");
	tmp_root_write_cells(root, DT "reserved-memory/restricted@3e000000/reg", 3, 0x0u,
			     0x3e000000u, 0x400000u);
	tmp_root_write_cells(root, DT "reserved-memory/restricted@3e000000/phandle", 1, 0x42u);
	/* a disabled restricted pool (legacy linux,phandle) must not count */
	tmp_root_write_str(root, DT "reserved-memory/off@30000000/compatible", "restricted-dma-pool");
	tmp_root_write_str(root, DT "reserved-memory/off@30000000/status", "disabled");
	tmp_root_write_cells(root, DT "reserved-memory/off@30000000/reg", 3, 0x0u, 0x30000000u,
			     0x100000u);
	tmp_root_write_cells(root, DT "reserved-memory/off@30000000/linux,phandle", 1, 0x43u);
	tmp_root_write_cells(root, DT "soc/wifi@7e300000/memory-region", 2, 0x41u, 0x42u);
	tmp_root_write_cells(root, DT "soc/nowifi@7e310000/memory-region", 1, 0x43u);
}

static int setup_rpi4(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));
	assert_non_null(t);
	t->root = tmp_root_new();
	build_rpi4(t->root);
	assert_int_equal(sysroot_open(t->root, 0, &t->sr), 0);
	*state = t;
	return 0;
}

static int teardown_tree(void **state)
{
	struct tree *t = *state;
	sysroot_free(t->sr);
	tmp_root_free(t->root);
	free(t);
	return 0;
}

static void dt_info_free(struct dt_info *d)
{
	dt_info_done(d);
}

static void assert_node(const struct dt_node *n, const char *path, enum dt_prop state,
			unsigned addr, unsigned size, bool pci)
{
	assert_string_equal(n->path, path);
	assert_int_equal(n->dma_ranges, state);
	assert_int_equal(n->address_cells, addr);
	assert_int_equal(n->size_cells, size);
	assert_int_equal(n->is_pci, pci);
	if (state != DT_PROP_PRESENT) {
		assert_null(n->ranges);
		assert_int_equal(n->n_ranges, 0);
	}
}

static void test_chain_emmc2(void **state)
{
	struct tree *t = *state;
	struct dt_info d = { 0 };

	assert_int_equal(read_dt_chain(t->sr, "soc/mmc@7e340000", true, &d), 0);
	assert_null(d.error);
	assert_string_equal(d.node, "soc/mmc@7e340000");
	assert_true(d.node_is_device);
	assert_int_equal(d.n_chain, 3);
	/* the device inherits soc's cells (of_bus_n_addr_cells walks up) */
	assert_node(&d.chain[0], "soc/mmc@7e340000", DT_PROP_ABSENT, 1, 1, false);
	assert_node(&d.chain[1], "soc", DT_PROP_PRESENT, 1, 1, false);
	assert_int_equal(d.chain[1].n_ranges, 1);
	assert_range(&d.chain[1].ranges[0], 0xc0000000, 0x0, 0x40000000);
	assert_node(&d.chain[2], "", DT_PROP_ABSENT, 2, 1, false);
	assert_false(d.restricted_pool);
	dt_info_free(&d);

	/* leading and trailing slashes are the same node */
	assert_int_equal(read_dt_chain(t->sr, "/soc/mmc@7e340000/", true, &d), 0);
	assert_string_equal(d.node, "soc/mmc@7e340000");
	assert_int_equal(d.n_chain, 3);
	dt_info_free(&d);
}

static void test_chain_empty_and_pci(void **state)
{
	struct tree *t = *state;
	struct dt_info d = { 0 };

	assert_int_equal(read_dt_chain(t->sr, "scb/ethernet@7d580000", true, &d), 0);
	assert_null(d.error);
	assert_int_equal(d.n_chain, 3);
	assert_node(&d.chain[0], "scb/ethernet@7d580000", DT_PROP_ABSENT, 2, 2, false);
	assert_node(&d.chain[1], "scb", DT_PROP_EMPTY, 2, 2, false);
	assert_node(&d.chain[2], "", DT_PROP_ABSENT, 2, 1, false);
	dt_info_free(&d);

	/* a PCI function's chain starts at its host bridge */
	assert_int_equal(read_dt_chain(t->sr, "scb/pcie@7d500000", false, &d), 0);
	assert_null(d.error);
	assert_false(d.node_is_device);
	assert_int_equal(d.n_chain, 3);
	assert_node(&d.chain[0], "scb/pcie@7d500000", DT_PROP_PRESENT, 3, 2, true);
	assert_int_equal(d.chain[0].n_ranges, 1);
	assert_range(&d.chain[0].ranges[0], 0x0, 0x0, 0xc0000000);
	assert_node(&d.chain[1], "scb", DT_PROP_EMPTY, 2, 2, false);
	dt_info_free(&d);
}

static void test_chain_malformed(void **state)
{
	struct tree *t = *state;
	struct dt_info d = { 0 };

	assert_int_equal(read_dt_chain(t->sr, "bad-bus/dev@0", true, &d), 0);
	assert_int_equal(d.n_chain, 3);
	assert_node(&d.chain[1], "bad-bus", DT_PROP_INVALID, 1, 1, false);
	assert_non_null(d.error);
	assert_non_null(strstr(d.error, "bad-bus: malformed dma-ranges"));
	dt_info_free(&d);
}

static void test_chain_restricted_pool(void **state)
{
	struct tree *t = *state;
	struct dt_info d = { 0 };

	assert_int_equal(read_dt_chain(t->sr, "soc/wifi@7e300000", true, &d), 0);
	assert_null(d.error);
	assert_true(d.restricted_pool);
	assert_int_equal(d.restricted_base, 0x3e000000);
	assert_int_equal(d.restricted_size, 0x400000);
	dt_info_free(&d);

	/* status = "disabled": of_device_is_available() says no */
	assert_int_equal(read_dt_chain(t->sr, "soc/nowifi@7e310000", true, &d), 0);
	assert_false(d.restricted_pool);
	dt_info_free(&d);
}

static void test_chain_missing(void **state)
{
	struct tree *t = *state;
	struct dt_info d = { 0 };

	assert_int_equal(read_dt_chain(t->sr, "soc/nothere@0", true, &d), 0);
	assert_int_equal(d.n_chain, 0);
	assert_non_null(d.error);
	assert_non_null(strstr(d.error, "no such devicetree node"));
	dt_info_free(&d);

	/* no way out of the devicetree */
	assert_int_equal(read_dt_chain(t->sr, "soc/../../../proc", true, &d), 0);
	assert_int_equal(d.n_chain, 0);
	assert_non_null(d.error);
	dt_info_free(&d);

	/* the root alone */
	assert_int_equal(read_dt_chain(t->sr, "", false, &d), 0);
	assert_null(d.error);
	assert_int_equal(d.n_chain, 1);
	assert_node(&d.chain[0], "", DT_PROP_ABSENT, 2, 1, false);
	dt_info_free(&d);
}

static void test_chain_no_devicetree(void **state)
{
	char *root = tmp_root_new();
	struct sysroot *sr;
	struct dt_info d = { 0 };
	(void)state;

	tmp_root_mkdir(root, "sys/firmware");
	assert_int_equal(sysroot_open(root, 0, &sr), 0);
	assert_int_equal(read_dt_chain(sr, "soc/mmc@7e340000", true, &d), 0);
	assert_string_equal(d.error, "no devicetree");
	assert_int_equal(d.n_chain, 0);
	dt_info_free(&d);
	sysroot_free(sr);
	tmp_root_free(root);
}

/* No #address-cells anywhere: 2 and 1 (OF_ROOT_NODE_*_CELLS_DEFAULT); a 3-cell non-PCI bus. */
static void test_chain_defaults_and_flags_bus(void **state)
{
	char *root = tmp_root_new();
	struct sysroot *sr;
	struct dt_info d = { 0 };
	(void)state;

	/* bus: 3 child cells with a flags cell (6.7+ "default-flags" bus), 2 parent, 1 size */
	tmp_root_write_cells(root, DT "bus/#address-cells", 1, 3u);
	tmp_root_write_cells(root, DT "bus/dma-ranges", 6, 0x1u, 0x0u, 0x80000000u, 0x0u, 0x0u,
			     0x10000000u);
	tmp_root_write_str(root, DT "bus/dev@1,0/compatible", "x,y");
	/* #address-cells shorter than one cell reads as absent */
	tmp_root_write(root, DT "bus/dev@1,0/#size-cells", "\0\0", 2);
	assert_int_equal(sysroot_open(root, 0, &sr), 0);
	assert_int_equal(read_dt_chain(sr, "bus/dev@1,0", true, &d), 0);
	assert_null(d.error);
	assert_int_equal(d.n_chain, 3);
	assert_node(&d.chain[0], "bus/dev@1,0", DT_PROP_ABSENT, 3, 1, false);
	assert_node(&d.chain[1], "bus", DT_PROP_PRESENT, 3, 1, false);
	assert_range(&d.chain[1].ranges[0], 0x80000000, 0x0, 0x10000000);
	assert_node(&d.chain[2], "", DT_PROP_ABSENT, 2, 1, false);
	dt_info_free(&d);
	sysroot_free(sr);
	tmp_root_free(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranges_2_2_2),
		cmocka_unit_test(test_ranges_pci),
		cmocka_unit_test(test_ranges_1_1_1),
		cmocka_unit_test(test_ranges_bad),
		cmocka_unit_test_setup_teardown(test_chain_emmc2, setup_rpi4, teardown_tree),
		cmocka_unit_test_setup_teardown(test_chain_empty_and_pci, setup_rpi4, teardown_tree),
		cmocka_unit_test_setup_teardown(test_chain_malformed, setup_rpi4, teardown_tree),
		cmocka_unit_test_setup_teardown(test_chain_restricted_pool, setup_rpi4, teardown_tree),
		cmocka_unit_test_setup_teardown(test_chain_missing, setup_rpi4, teardown_tree),
		cmocka_unit_test(test_chain_no_devicetree),
		cmocka_unit_test(test_chain_defaults_and_flags_bus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
