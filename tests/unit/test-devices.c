/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * src/analysis/devices.c through report_build on hand-made machines: which
 * devices are judged (platform/AMBA only with a sign of DMA, PCI with a
 * driver), and that a device doing no DMA raises no finding.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/report.h"

/* QEMU virt with 8 GiB: RAM 0x40000000-0x23fffffff, a Debian 6.1 arm64 kernel. */
static void setup_virt(struct machine *m)
{
	static const struct ram_range ram = { 0x40000000, 0x23fffffff };

	machine_init(m);
	m->page_size = 4096;
	m->arch.value = strdup("aarch64");
	m->arch_info = arch_lookup(m->arch.value);
	m->release.value = strdup("6.1.0-27-arm64");
	m->ram = malloc(sizeof(ram));
	assert_non_null(m->arch.value);
	assert_non_null(m->release.value);
	assert_non_null(m->ram);
	m->ram[0] = ram;
	m->n_ram = 1;
	assert_int_equal(machine_add_input(m, "proc/iomem", INPUT_OK, 0, NULL), 0);
	/* "software IO TLB: mapped [mem 0x7bfff000-0x7ffff000]" */
	m->swiotlb.have_pool = true;
	m->swiotlb.pool_start = 0x7bfff000;
	m->swiotlb.pool_end = 0x7ffff000;
}

static struct device *add(struct machine *m, const char *id, enum dev_bus bus, const char *driver,
			  unsigned signs)
{
	struct device *d = machine_add_device(m);

	assert_non_null(d);
	d->id = strdup(id);
	d->bus = bus;
	d->driver = driver ? strdup(driver) : NULL;
	d->dma_signs = signs;
	assert_non_null(d->id);
	return d;
}

/* A PCI function behind a DT host bridge whose dma-ranges reach CPU 0x0-0x7fffffff. */
static struct device *add_pci(struct machine *m, const char *id, const char *driver, int mask_bits)
{
	struct device *d = add(m, id, DEV_BUS_PCI, driver, 0);
	struct dt_info *dt = device_dt_new(d);

	assert_non_null(dt);

	d->dma_mask_bits = d->coherent_mask_bits = mask_bits;
	d->have_pci_ids = true;
	d->class_code = 0x020000;
	dt->node = strdup("pcie@10000000");
	dt->chain = calloc(2, sizeof(*dt->chain));
	assert_non_null(dt->node);
	assert_non_null(dt->chain);
	dt->n_chain = 2;
	dt->chain[0].path = strdup("pcie@10000000");
	dt->chain[0].dma_ranges = DT_PROP_PRESENT;
	dt->chain[0].ranges = calloc(1, sizeof(*dt->chain[0].ranges));
	assert_non_null(dt->chain[0].path);
	assert_non_null(dt->chain[0].ranges);
	dt->chain[0].ranges[0] = (struct dt_range){ .child = 0, .parent = 0, .size = 0x80000000 };
	dt->chain[0].n_ranges = 1;
	dt->chain[0].address_cells = 3;
	dt->chain[0].size_cells = 2;
	dt->chain[0].is_pci = true;
	dt->chain[1].path = strdup("");
	assert_non_null(dt->chain[1].path);
	dt->chain[1].address_cells = 2;
	dt->chain[1].size_cells = 2;
	return d;
}

static const struct device_report *report_of(const struct report *r, const char *id)
{
	for (size_t i = 0; i < r->devices.n_devices; i++)
		if (strcmp(r->devices.devices[i].dev->id, id) == 0)
			return &r->devices.devices[i];
	fail_msg("no report for %s", id);
	return NULL;
}

static size_t count_findings(const struct report *r, const char *id, const char *device)
{
	size_t n = 0;

	for (size_t i = 0; i < r->findings.n; i++) {
		const struct finding *x = &r->findings.v[i];
		if ((!id || strcmp(finding_id_to_string(x->id), id) == 0) && x->device &&
		    strcmp(x->device, device) == 0)
			n++;
	}
	return n;
}

static void test_platform_needs_a_sign(void **state)
{
	struct machine m;
	struct report r;

	(void)state;
	setup_virt(&m);
	add(&m, "9000000.pl011", DEV_BUS_AMBA, "uart-pl011", 0);
	add(&m, "pmu", DEV_BUS_PLATFORM, "armv8-pmu", 0);
	add(&m, "psci", DEV_BUS_PLATFORM, NULL, 0);
	add(&m, "9050000.mmci", DEV_BUS_AMBA, "mmci-pl18x", 1u << DMA_SIGN_DISK);
	add(&m, "9080000.smmuv3", DEV_BUS_PLATFORM, "arm-smmu-v3", 1u << DMA_SIGN_DT_COHERENT);
	add(&m, "9060000.dma", DEV_BUS_AMBA, "dma-pl330", 1u << DMA_SIGN_DMA_ENGINE);
	/* a user-given mask that is not 2^n-1 would raise mask-not-contiguous: not when idle */
	add(&m, "9030000.pl061", DEV_BUS_AMBA, "pl061_gpio", 0);
	machine_sort_devices(&m);
	static const struct assumed_mask gpio_mask = { "9030000.pl061", 0xc3ffffff };
	const struct report_options o = { .fail_on = SEVERITY_WARNING, .masks = &gpio_mask, .n_masks = 1 };
	assert_int_equal(report_build_with(&m, &o, &r), 0);

	static const char *const idle[] = { "9000000.pl011", "pmu", "9030000.pl061" };
	for (size_t i = 0; i < sizeof(idle) / sizeof(*idle); i++) {
		const struct device_report *d = report_of(&r, idle[i]);
		assert_int_equal(d->verdict, VERDICT_IDLE);
		assert_string_equal(d->reason, "no sign that it does DMA");
		assert_int_equal(count_findings(&r, NULL, idle[i]), 0);
		/* idle: nothing bounces or fails, but the mask still has a reach */
		assert_false(d->affected_known);
		assert_true(d->reach_known);
	}
	/* unbound: the driver rule comes first, its reason stays */
	assert_int_equal(report_of(&r, "psci")->verdict, VERDICT_IDLE);
	assert_string_equal(report_of(&r, "psci")->reason, "no driver bound: no DMA");

	static const char *const judged[] = { "9050000.mmci", "9080000.smmuv3", "9060000.dma" };
	for (size_t i = 0; i < sizeof(judged) / sizeof(*judged); i++) {
		const struct device_report *d = report_of(&r, judged[i]);
		assert_int_equal(d->verdict, VERDICT_PARTIAL); /* assumed 32-bit mask, 5 GiB above */
		assert_true(d->affected_known);
		assert_int_equal(d->affected_bytes, 0x240000000ull - 0x100000000ull);
		assert_int_equal(d->direct.unreachable_bytes, 0x240000000ull - 0x100000000ull);
		assert_int_equal(count_findings(&r, "bounce-needed", judged[i]), 1);
	}
	assert_int_equal(r.exit_status, EXIT_FINDINGS);
	report_done(&r);
	machine_done(&m);

	/* the same board with only the devices that do no DMA: clean */
	setup_virt(&m);
	add(&m, "9000000.pl011", DEV_BUS_AMBA, "uart-pl011", 0);
	add(&m, "9010000.pl031", DEV_BUS_AMBA, "rtc-pl031", 0);
	add(&m, "pmu", DEV_BUS_PLATFORM, "armv8-pmu", 0);
	machine_sort_devices(&m);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	assert_int_equal(r.findings.n, 0);
	assert_int_equal(r.exit_status, EXIT_CLEAN);
	report_done(&r);
	machine_done(&m);
}

static void test_idle_pci_raises_nothing(void **state)
{
	struct machine m;
	struct report r;

	(void)state;
	setup_virt(&m);
	add_pci(&m, "0000:00:02.0", NULL, 32);          /* unbound NIC */
	add_pci(&m, "0000:00:03.0", "xhci_hcd", 64);    /* bound: judged without a sign */
	machine_sort_devices(&m);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);

	const struct device_report *nic = report_of(&r, "0000:00:02.0");
	assert_int_equal(nic->verdict, VERDICT_IDLE);
	assert_int_equal(nic->bus_limit, 0x7fffffff);   /* below its 32-bit mask */
	assert_int_equal(count_findings(&r, NULL, "0000:00:02.0"), 0);

	const struct device_report *xhci = report_of(&r, "0000:00:03.0");
	assert_int_equal(xhci->verdict, VERDICT_PARTIAL);
	assert_int_equal(count_findings(&r, "mask-limited-by-bus", "0000:00:03.0"), 1);
	assert_int_equal(count_findings(&r, "bounce-needed", "0000:00:03.0"), 1);
	report_done(&r);
	machine_done(&m);
}

/* A logged DMA failure is a fact: reported even for a device that is idle now. */
static void test_idle_keeps_logged_overflow(void **state)
{
	struct machine m;
	struct report r;

	(void)state;
	setup_virt(&m);
	add_pci(&m, "0000:00:02.0", NULL, 32);
	machine_sort_devices(&m);
	m.overflows = calloc(1, sizeof(*m.overflows));
	assert_non_null(m.overflows);
	m.n_overflows = 1;
	m.overflows[0].device = strdup("0000:00:02.0");
	m.overflows[0].addr = 0x100000000;
	m.overflows[0].mask = 0xffffffff;
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	assert_int_equal(report_of(&r, "0000:00:02.0")->verdict, VERDICT_IDLE);
	assert_int_equal(count_findings(&r, "dma-overflow-logged", "0000:00:02.0"), 1);
	assert_int_equal(count_findings(&r, NULL, "0000:00:02.0"), 1);
	report_done(&r);
	machine_done(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_platform_needs_a_sign),
		cmocka_unit_test(test_idle_pci_raises_nothing),
		cmocka_unit_test(test_idle_keeps_logged_overflow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
