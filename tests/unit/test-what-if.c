/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/what-if: --what-if's words parsed, and the machine edited as each change says. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/eras.h"
#include "analysis/layout.h"
#include "analysis/report.h"
#include "analysis/swiotlb-state.h"
#include "readers/readers.h"
#include "what-if/what-if.h"

#define GiB (1ull << 30)

static void test_sizes(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(what_if_parse_size("512M", 4, &v), 0);
	assert_int_equal(v, 512ull << 20);
	assert_int_equal(what_if_parse_size("4g", 2, &v), 0);
	assert_int_equal(v, 4 * GiB);
	assert_int_equal(what_if_parse_size("0x1000", 6, &v), 0);
	assert_int_equal(v, 0x1000);
	assert_int_equal(what_if_parse_size("4096", 4, &v), 0);
	assert_int_equal(v, 4096);
	/* memparse's E is 2^60: 16E overflows */
	assert_int_equal(what_if_parse_size("16E", 3, &v), -EINVAL);
	assert_int_equal(what_if_parse_size("G", 1, &v), -EINVAL);
	assert_int_equal(what_if_parse_size("4Q", 2, &v), -EINVAL);
	assert_int_equal(what_if_parse_size("-1", 2, &v), -EINVAL);
}

static void test_parse(void **state)
{
	struct what_if_change c;
	const char *why = NULL;

	(void)state;
	assert_int_equal(what_if_parse("kernel=6.12.57+deb13-amd64", &c, &why), 0);
	assert_int_equal(c.key, WHAT_IF_KERNEL);
	assert_int_equal(c.kernel.version, KV(6, 12, 57));
	assert_int_equal(what_if_parse("kernel=six", &c, &why), -EINVAL);
	assert_int_equal(what_if_parse("ram=+3G", &c, &why), 0);
	assert_int_equal(c.ram.op, WHAT_IF_RAM_GROW);
	assert_int_equal(c.ram.size, 3 * GiB);
	assert_int_equal(what_if_parse("ram=+1G@0x100000000", &c, &why), 0);
	assert_int_equal(c.ram.op, WHAT_IF_RAM_ADD_AT);
	assert_int_equal(c.ram.at, 4 * GiB);
	assert_int_equal(what_if_parse("ram=-512M", &c, &why), 0);
	assert_int_equal(c.ram.op, WHAT_IF_RAM_SHRINK);
	assert_int_equal(what_if_parse("ram=8G", &c, &why), 0);
	assert_int_equal(c.ram.op, WHAT_IF_RAM_TOTAL);
	assert_int_equal(what_if_parse("ram=0", &c, &why), -EINVAL);
	assert_int_equal(what_if_parse("ram=1G@0x0", &c, &why), -EINVAL); /* @ only after + */
	assert_int_equal(what_if_parse("device=nvme9,mask=32,like=0000:00:01.0", &c, &why), 0);
	assert_int_equal(c.device.mask, 0xffffffffull);
	assert_string_equal(c.device.like, "0000:00:01.0");
	assert_int_equal(what_if_parse("device=x,mask=0x3fffffffff", &c, &why), 0);
	assert_int_equal(c.device.mask, 0x3fffffffffull);
	assert_int_equal(what_if_parse("device=x", &c, &why), -EINVAL);
	assert_non_null(strstr(why, "mask"));
	assert_int_equal(what_if_parse("device=x,mask=65", &c, &why), -EINVAL);
	assert_int_equal(what_if_parse("device=x,colour=red,mask=32", &c, &why), -EINVAL);
	assert_int_equal(what_if_parse("device=a/b,mask=32", &c, &why), -EINVAL);
	assert_int_equal(what_if_parse("cmdline=   ", &c, &why), -EINVAL);
	assert_int_equal(what_if_parse("colour=red", &c, &why), -EINVAL);
	assert_int_equal(what_if_parse("kernel=", &c, &why), -EINVAL);
	assert_int_equal(what_if_parse("noequals", &c, &why), -EINVAL);
}

/* x86_64, 3 GiB below the PCI hole: DMA, DMA32 zones; MemTotal as the zones' present pages. */
static void pc_3g(struct machine *m)
{
	machine_init(m);
	m->arch.value = strdup("x86_64");
	m->arch_info = arch_lookup("x86_64");
	m->release.value = strdup("6.1.0-28-amd64");
	m->page_size = 4096;
	m->iomem_ok = m->zoneinfo_ok = true;
	m->ram = calloc(2, sizeof(*m->ram));
	m->ram[0] = (struct ram_range){ 0x1000, 0x9efff };
	m->ram[1] = (struct ram_range){ 0x100000, 0xbfffffff };
	m->n_ram = 2;
	m->zones = calloc(3, sizeof(*m->zones));
	m->zones[0] = (struct zone){ 0, "DMA", true, 1, 0xfff, 0x9e, 0x9e };
	m->zones[1] = (struct zone){ 0, "DMA32", true, 0x1000, 0xbf000, 0xbf000, 0xbf000 };
	m->zones[2] = (struct zone){ .name = "Normal" }; /* listed, empty (zoneinfo_show prints every zone) */
	m->n_zones = 3;
	opt_set(&m->meminfo.mem_total, (0x9eull + 0xbf000) << 12);
}

static int apply_one(struct machine *m, const char *arg, struct what_if_notes *n, char *why)
{
	struct what_if_change c;
	const char *w = NULL;

	assert_int_equal(what_if_parse(arg, &c, &w), 0);
	return what_if_apply(m, &c, 1, n, why);
}

/* The zone, or the test ends here. */
static const struct zone *zone(const struct machine *m, const char *name)
{
	for (size_t i = 0; i < m->n_zones; i++)
		if (strcmp(m->zones[i].name, name) == 0)
			return &m->zones[i];
	fail_msg("no zone %s", name);
	abort();
}

/* The device, or the test ends here. */
static const struct device *dev(const struct machine *m, const char *id)
{
	const struct device *d = machine_find_device(m, id);
	if (!d) {
		fail_msg("no device %s", id);
		abort();
	}
	return d;
}

static void test_ram_grow_x86(void **state)
{
	struct what_if_notes n = { 0 };
	char why[WHAT_IF_WHY_MAX];
	struct machine m;

	(void)state;
	pc_3g(&m);
	/* 3 GiB more: past the PCI hole, from 4 GiB, all ZONE_NORMAL (arch/x86/mm/init.c zone_sizes_init) */
	assert_int_equal(apply_one(&m, "ram=+3G", &n, why), 0);
	assert_int_equal(m.n_ram, 3);
	assert_int_equal(m.ram[2].start, 4 * GiB);
	assert_int_equal(m.ram[2].end, 7 * GiB - 1);
	const struct zone *z = zone(&m, "Normal");
	assert_true(z->populated);
	assert_int_equal(z->start_pfn, 0x100000);
	assert_int_equal(z->spanned, 0xc0000);
	assert_int_equal(zone(&m, "DMA32")->spanned, 0xbf000);
	assert_int_equal(m.meminfo.mem_total.v, ((0x9eull + 0xbf000) << 12) + 3 * GiB);
	/* a kernel without ZONE_NORMAL listed (before 4.15: only populated zones): said, not guessed */
	m.n_zones = 2;
	assert_int_equal(apply_one(&m, "ram=+1G", &n, why), -EINVAL);
	assert_non_null(strstr(why, "fall in no zone"));
	m.n_zones = 3;
	/* the layout the analysis computes agrees with itself: no input contradicts another */
	struct layout l;
	assert_int_equal(layout_compute(&m, &l), 0);
	assert_int_equal(l.source, LAYOUT_SOURCE_IOMEM);
	assert_int_equal(l.end_pfn, 0x1c0000);
	layout_done(&l);
	what_if_notes_done(&n);
	machine_done(&m);
}

static void test_ram_shrink_and_mem(void **state)
{
	struct what_if_notes n = { 0 };
	char why[WHAT_IF_WHY_MAX];
	struct machine m;

	(void)state;
	pc_3g(&m);
	assert_int_equal(apply_one(&m, "ram=-1G", &n, why), 0);
	assert_int_equal(m.ram[1].end, 2 * GiB - 1);
	assert_int_equal(zone(&m, "DMA32")->spanned, 0x80000 - 0x1000);
	assert_int_equal(zone(&m, "DMA32")->present, 0x80000 - 0x1000);
	/* mem= on x86 is an address ceiling (arch/x86/kernel/e820.c parse_memopt) */
	assert_int_equal(apply_one(&m, "cmdline=mem=1G", &n, why), 0);
	assert_int_equal(m.n_ram, 2);
	assert_int_equal(m.ram[1].end, GiB - 1);
	assert_int_equal(m.meminfo.mem_total.v, (0x9eull << 12) + ((0x40000ull - 0x1000) << 12));
	/* more than there is */
	assert_int_equal(apply_one(&m, "ram=-2G", &n, why), -EINVAL);
	assert_non_null(strstr(why, "leaves no RAM"));
	/* a range over RAM the machine has */
	assert_int_equal(apply_one(&m, "ram=+1G@0x20000000", &n, why), -EINVAL);
	assert_non_null(strstr(why, "overlaps"));
	what_if_notes_done(&n);
	machine_done(&m);
}

/* arm64 with 948 MiB at 0 in ZONE_DMA, a device behind a 1 GiB dma-ranges window (a Pi 4 with 1 GiB). */
static void pi4_1g(struct machine *m)
{
	machine_init(m);
	m->arch.value = strdup("aarch64");
	m->arch_info = arch_lookup("aarch64");
	m->release.value = strdup("6.6.51+rpt-rpi-v8");
	m->page_size = 4096;
	m->iomem_ok = m->zoneinfo_ok = true;
	m->ram = calloc(1, sizeof(*m->ram));
	m->ram[0] = (struct ram_range){ 0, 0x3b3fffff };
	m->n_ram = 1;
	m->zones = calloc(3, sizeof(*m->zones));
	m->zones[0] = (struct zone){ 0, "DMA", true, 0, 0x3b400, 0x3b400, 0x3b000 };
	m->zones[1] = (struct zone){ .name = "DMA32" };
	m->zones[2] = (struct zone){ .name = "Normal" };
	m->n_zones = 3;
	struct device *d = machine_add_device(m);
	d->id = strdup("fe340000.mmc");
	struct dt_info *dt = device_dt_new(d);
	dt->chain = calloc(1, sizeof(*dt->chain));
	dt->chain[0].path = strdup("emmc2bus");
	dt->chain[0].dma_ranges = DT_PROP_PRESENT;
	dt->chain[0].ranges = calloc(1, sizeof(*dt->chain[0].ranges));
	dt->chain[0].ranges[0] = (struct dt_range){ 0, 0, 0x40000000 };
	dt->chain[0].n_ranges = 1;
	dt->n_chain = 1;
}

static void test_ram_grow_arm64_zones(void **state)
{
	struct what_if_notes n = { 0 };
	char why[WHAT_IF_WHY_MAX];
	struct machine m;

	(void)state;
	pi4_1g(&m);
	assert_int_equal(apply_one(&m, "ram=+4G@0x40000000", &n, why), 0);
	/* ZONE_DMA to the 1 GiB window's end, DMA32 to 4 GiB, Normal above (arch/arm64/mm/init.c) */
	assert_int_equal(zone(&m, "DMA")->spanned, 0x3b400); /* the new RAM starts past its end */
	const struct zone *d32 = zone(&m, "DMA32"), *nz = zone(&m, "Normal");
	assert_int_equal(d32->start_pfn, 0x40000);
	assert_int_equal(d32->spanned, 0xc0000);
	assert_int_equal(nz->start_pfn, 0x100000);
	assert_int_equal(nz->spanned, 0x40000);
	what_if_notes_done(&n);
	machine_done(&m);
	pi4_1g(&m);
	/* contiguous growth fills ZONE_DMA up to the window first */
	assert_int_equal(apply_one(&m, "ram=+1G", &n, why), 0);
	assert_int_equal(zone(&m, "DMA")->spanned, 0x40000);
	assert_int_equal(zone(&m, "DMA32")->start_pfn, 0x40000);
	assert_int_equal(zone(&m, "DMA32")->spanned, 0x3b400);
	what_if_notes_done(&n);
	machine_done(&m);
	/* before 5.5 arm64's ZONE_DMA was the 32-bit zone (eras.c ERA_ARM64_ZONE_DMA): all of it there */
	pi4_1g(&m);
	free(m.release.value);
	m.release.value = strdup("5.4.0");
	assert_int_equal(apply_one(&m, "ram=+1G", &n, why), 0);
	assert_int_equal(zone(&m, "DMA")->spanned, 0x7b400);
	assert_false(zone(&m, "DMA32")->populated);
	what_if_notes_done(&n);
	machine_done(&m);
}

static void test_cmdline(void **state)
{
	struct what_if_notes n = { 0 };
	char why[WHAT_IF_WHY_MAX];
	struct machine m;

	(void)state;
	pc_3g(&m);
	m.cmdline = strdup("root=/dev/sda1 swiotlb=noforce quiet");
	cmdline_parse_params(m.cmdline, &m.cmd);
	assert_true(m.cmd.swiotlb_noforce);
	struct device *d = machine_add_device(&m);
	d->id = strdup("0000:00:1f.2");
	d->driver = strdup("ahci");
	opt_set(&d->iommu_group, 3);
	d->iommu_domain = IOMMU_DOMAIN_DMA;
	d->iommu_type = strdup("DMA");
	struct device *u = machine_add_device(&m);
	u->id = strdup("0000:05:00.0");
	u->driver = strdup("xhci_hcd");
	opt_set(&u->iommu_group, 7);
	opt_set(&u->removable, true);
	u->iommu_domain = IOMMU_DOMAIN_DMA;
	u->iommu_type = strdup("DMA");
	machine_sort_devices(&m);

	/* a word not on the line cannot be removed */
	assert_int_equal(apply_one(&m, "cmdline=-iommu=pt", &n, why), -EINVAL);
	assert_non_null(strstr(why, "no such word"));
	assert_int_equal(apply_one(&m, "cmdline=-swiotlb iommu=pt", &n, why), 0);
	assert_string_equal(m.cmdline, "root=/dev/sda1 quiet iommu=pt");
	assert_string_equal(n.applied[n.n_applied - 1], "command line: removed \"swiotlb=noforce\", added \"iommu=pt\"");
	/* a word only added: no empty removal said */
	assert_int_equal(apply_one(&m, "cmdline=nomodeset", &n, why), 0);
	assert_string_equal(n.applied[n.n_applied - 1], "command line: added \"nomodeset\"");
	assert_false(m.cmd.swiotlb_noforce);
	assert_true(m.cmd.iommu_pt);
	/* passthrough, but for the untrusted device (iommu_get_def_domain_type) */
	assert_int_equal(dev(&m, "0000:00:1f.2")->iommu_domain, IOMMU_DOMAIN_IDENTITY);
	assert_int_equal(dev(&m, "0000:05:00.0")->iommu_domain, IOMMU_DOMAIN_DMA);
	/* back to DMA domains: the driver bound under passthrough is named (its probe may fail) */
	size_t before = n.n_assumptions;
	assert_int_equal(apply_one(&m, "cmdline=-iommu=pt", &n, why), 0);
	assert_int_equal(dev(&m, "0000:00:1f.2")->iommu_domain, IOMMU_DOMAIN_DMA);
	bool named = false;
	for (size_t i = before; i < n.n_assumptions; i++)
		named |= n.assumptions[i].device && strcmp(n.assumptions[i].device, "0000:00:1f.2") == 0 &&
			 strstr(n.assumptions[i].text, "its driver binds under the translated domain");
	assert_true(named);
	/* iommu=off: no groups at all */
	assert_int_equal(apply_one(&m, "cmdline=iommu=off", &n, why), 0);
	assert_false(dev(&m, "0000:00:1f.2")->iommu_group.known);
	assert_int_equal(dev(&m, "0000:05:00.0")->iommu_domain, IOMMU_DOMAIN_NONE);
	assert_false(m.iommu_groups_present);
	what_if_notes_done(&n);
	machine_done(&m);
}

/* The pool as the analysis decides it for m. */
static enum tristate pool_active(const struct machine *m, struct swiotlb_state *s)
{
	struct layout l;

	assert_int_equal(layout_compute(m, &l), 0);
	swiotlb_state_compute(m, &l, report_release(m), s);
	layout_done(&l);
	return s->active;
}

static void test_pool_redecided(void **state)
{
	struct what_if_notes n = { 0 };
	char why[WHAT_IF_WHY_MAX];
	struct swiotlb_state s;
	struct machine m;

	(void)state;
	/* all RAM below 4 GiB, no pool; 3 GiB more above it: x86-64 allocates one (pci_swiotlb_detect) */
	pc_3g(&m);
	m.kmsg_from_boot = true; /* a log from boot without "software IO TLB: mapped" */
	assert_int_equal(pool_active(&m, &s), TRI_NO);
	assert_int_equal(apply_one(&m, "ram=+3G", &n, why), 0);
	assert_int_equal(pool_active(&m, &s), TRI_YES);
	assert_false(s.pool.known); /* where: not known, no log said */
	what_if_notes_done(&n);
	machine_done(&m);

	/* a pool logged today, and a word the rules do not read: today's pool stays as read */
	pc_3g(&m);
	assert_int_equal(apply_one(&m, "ram=+3G", &n, why), 0);
	opt_set(&m.swiotlb.pool_start, 0xbbfff000);
	opt_set(&m.swiotlb.pool_end, 0xbbfff000 + (64u << 20));
	what_if_notes_done(&n);
	assert_int_equal(apply_one(&m, "cmdline=quiet", &n, why), 0);
	assert_true(m.swiotlb.pool_start.known);
	/* swiotlb=noforce on 6.1: no pool (kernel/dma/swiotlb.c, 5.18+): today's is forgotten */
	assert_int_equal(apply_one(&m, "cmdline=swiotlb=noforce", &n, why), 0);
	assert_false(m.swiotlb.pool_start.known);
	assert_int_equal(pool_active(&m, &s), TRI_NO);
	/* and removed again: the rules give the default pool, placed where today's kernel put it */
	assert_int_equal(apply_one(&m, "cmdline=-swiotlb=noforce", &n, why), 0);
	assert_int_equal(pool_active(&m, &s), TRI_YES);
	what_if_notes_done(&n);
	machine_done(&m);
}

static void test_kernel_and_device(void **state)
{
	struct what_if_notes n = { 0 };
	char why[WHAT_IF_WHY_MAX];
	struct machine m;

	(void)state;
	pc_3g(&m);
	m.stable_release.value = strdup("6.1.119");
	assert_int_equal(report_release(&m), KV(6, 1, 119));
	assert_int_equal(apply_one(&m, "kernel=5.10.0-32-amd64", &n, why), 0);
	assert_int_equal(report_release(&m), KV(5, 10, 0));
	assert_int_equal(m.release.prov, PROV_USER);
	assert_null(m.stable_release.value);
	assert_int_equal(apply_one(&m, "device=card0,mask=32", &n, why), 0);
	const struct device *d = dev(&m, "card0");
	assert_int_equal(d->dma_mask_bits.v, 32);
	assert_int_equal(n.n_masks, 1);
	assert_int_equal(n.masks[0].mask, 0xffffffffull);
	/* an existing device: its mask only */
	assert_int_equal(apply_one(&m, "device=card0,mask=0x3fffffffff", &n, why), 0);
	assert_int_equal(n.n_masks, 1);
	assert_int_equal(n.masks[0].mask, 0x3fffffffffull);
	assert_int_equal(apply_one(&m, "device=card0,mask=40,driver=x", &n, why), -EINVAL);
	assert_int_equal(apply_one(&m, "device=card1,mask=40,like=nothing", &n, why), -EINVAL);
	assert_non_null(strstr(why, "no such device"));
	what_if_notes_done(&n);
	machine_done(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_ram_grow_x86),
		cmocka_unit_test(test_ram_shrink_and_mem),
		cmocka_unit_test(test_ram_grow_arm64_zones),
		cmocka_unit_test(test_cmdline),
		cmocka_unit_test(test_pool_redecided),
		cmocka_unit_test(test_kernel_and_device),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
