/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * src/readers/pci.c, iommu.c and src/shared/path.c's path_join: read_pci and
 * read_iommu on fake sysfs trees laid out as the kernel lays them out.
 */
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
#include "shortcuts.h"
#include "shared/path.h"
#include "shared/text.h"
#include "fake-root.h"

/* ---- path helpers ---- */

static void test_path_join(void **state)
{
	char *s = path_join("", "b");
	assert_string_equal(s, "b");
	free(s);
	s = path_join("a/b", "c");
	assert_string_equal(s, "a/b/c");
	free(s);
}

static void assert_int(const char *s, unsigned base, int64_t min, int64_t max, int want_r,
		       int64_t want)
{
	int64_t v = 12345;
	int r = parse_int_line(s, strlen(s), base, min, max, &v);

	assert_int_equal(r, want_r);
	assert_true(v == (r == 0 ? want : 12345));
}

static void test_parse_int(void **state)
{
	assert_int("0x8086\n", 16, 0, 0xffff, 0, 0x8086);
	assert_int("0x060400\n", 16, 0, 0xffffff, 0, 0x060400);
	assert_int("8086", 16, 0, 0xffff, 0, 0x8086);
	assert_int("0x10000\n", 16, 0, 0xffff, -ERANGE, 0);
	assert_int("zz\n", 16, 0, 0xffffff, -EINVAL, 0);
	assert_int("0x\n", 16, 0, 0xffff, -EINVAL, 0);
	assert_int("64\n", 10, 0, 64, 0, 64);
	assert_int("65\n", 10, 0, 64, -ERANGE, 0);
	assert_int("-1\n", 10, -1, 65535, 0, -1);
	assert_int("-2\n", 10, -1, 65535, -ERANGE, 0);
	assert_int("-1\n", 10, 0, 64, -EINVAL, 0); /* no sign where none is allowed */
	assert_int("abc\n", 10, 0, 64, -EINVAL, 0);
	assert_int("\n", 10, 0, 64, -EINVAL, 0);
	assert_int("", 10, 0, 64, -EINVAL, 0);
	assert_int("32\n\n", 10, 0, 64, -EINVAL, 0);
	assert_int(" 32\n", 10, 0, 64, -EINVAL, 0);
	assert_int("-\n", 10, -1, 64, -EINVAL, 0);
	assert_int("99999999999999999999\n", 10, 0, INT64_MAX, -ERANGE, 0);
	assert_int("9223372036854775807\n", 10, 0, INT64_MAX, 0, INT64_MAX);
	assert_int("-9223372036854775808\n", 10, INT64_MIN, 0, 0, INT64_MIN);
}

/* ---- read_pci ---- */

/* One PCI function directory under sys/devices with the bus link to it. */
static void add_function(const struct fake_root *f, const char *syspath, const char *ids[5],
			 const char *dma, const char *numa)
{
	static const char *const files[5] = {
		"vendor", "device", "subsystem_vendor", "subsystem_device", "class",
	};
	char path[512], target[512];
	const char *name = strrchr(syspath, '/') + 1;

	for (size_t i = 0; i < 5; i++) {
		snprintf(path, sizeof(path), "%s/%s", syspath, files[i]);
		fx_file(f, path, ids[i]);
	}
	snprintf(path, sizeof(path), "%s/dma_mask_bits", syspath);
	fx_file(f, path, dma);
	snprintf(path, sizeof(path), "%s/consistent_dma_mask_bits", syspath);
	fx_file(f, path, dma);
	snprintf(path, sizeof(path), "%s/numa_node", syspath);
	fx_file(f, path, numa);
	snprintf(path, sizeof(path), "sys/bus/pci/devices/%s", name);
	snprintf(target, sizeof(target), "../../../%s", syspath + strlen("sys/"));
	fx_link(f, path, target);
}

#define NVME "sys/devices/pci0000:00/0000:00:02.0"
#define BAD "sys/devices/pci0000:00/0000:00:03.0"
#define BEHIND "sys/devices/pci0000:00/0000:00:1c.0/0000:01:00.0"

static void build_x86(struct fake_root *f)
{
	const char *nvme[5] = { "0x144d\n", "0xa808\n", "0x144d\n", "0xa801\n", "0x010802\n" };
	const char *bad[5] = { "0x8086\n", "0x1234\n", "0x8086\n", "0x0000\n", "zz\n" };
	const char *bridge[5] = { "0x8086\n", "0xa110\n", "0x0000\n", "0x0000\n", "0x060400\n" };
	const char *behind[5] = { "0x10ec\n", "0x8168\n", "0x1043\n", "0x8554\n", "0x020000\n" };

	fx_init(f);
	add_function(f, NVME, nvme, "64\n", "-1\n");
	fx_file(f, NVME "/modalias", "pci:v0000144Dd0000A808sv0000144Dsd0000A801bc01sc08i02\n");
	fx_link(f, NVME "/driver", "../../../bus/pci/drivers/nvme");
	fx_link(f, "sys/bus/pci/drivers/nvme/module", "../../../../module/nvme");
	fx_dir(f, "sys/module/nvme");
	fx_link(f, NVME "/iommu_group", "../../../kernel/iommu_groups/3");
	fx_file(f, "sys/kernel/iommu_groups/3/type", "DMA-FQ\n");

	add_function(f, BAD, bad, "abc\n", "1\n");
	fx_file(f, BAD "/consistent_dma_mask_bits", "32\n");
	fx_file(f, BAD "/modalias", "pci:v00008086d00001234sv00008086sd00000000bc00sc00i00\n");
	fx_link(f, BAD "/iommu_group", "../../../kernel/iommu_groups/x");

	add_function(f, "sys/devices/pci0000:00/0000:00:1c.0", bridge, "32\n", "0\n");
	fx_link(f, "sys/devices/pci0000:00/0000:00:1c.0/driver",
		"../../../bus/pci/drivers/pcieport");
	fx_dir(f, "sys/bus/pci/drivers/pcieport");

	add_function(f, BEHIND, behind, "32\n", "0\n");
	fx_link(f, BEHIND "/driver", "../../../../bus/pci/drivers/r8169");
	fx_dir(f, "sys/bus/pci/drivers/r8169"); /* built in: no module link */
}

static void test_read_pci(void **state)
{
	struct fake_root f;
	struct machine m;
	struct sysroot *sr;

	build_x86(&f);
	sr = fx_open(&f);
	machine_init(&m);
	assert_int_equal(read_pci(sr, &m), 0);
	assert_true(machine_input_ok(&m, "sys/bus/pci/devices"));
	fx_assert_input(&m, "sys/bus/pci/devices", INPUT_OK);
	assert_int_equal(m.n_devices, 4);

	/* sorted by id */
	const struct device *d = &m.devices[0];
	assert_string_equal(d->id, "0000:00:02.0");
	assert_string_equal(d->syspath, NVME);
	assert_int_equal(d->bus, DEV_BUS_PCI);
	assert_true(d->have_pci_ids);
	assert_int_equal(d->vendor, 0x144d);
	assert_int_equal(d->device_id, 0xa808);
	assert_int_equal(d->subsys_vendor, 0x144d);
	assert_int_equal(d->subsys_device, 0xa801);
	assert_int_equal(d->class_code, 0x010802);
	assert_true(opt_is(&d->dma_mask_bits, 64));
	assert_true(opt_is(&d->coherent_mask_bits, 64));
	assert_false(d->numa_node.known);
	assert_null(d->modalias); /* bound: nothing would look it up, so it is not kept */
	assert_string_equal(d->driver, "nvme");
	assert_string_equal(d->module, "nvme");
	assert_string_equal(d->module_source, "sysfs");
	assert_true(opt_is(&d->iommu_group, 3));
	assert_string_equal(d->iommu_type, "DMA-FQ");
	assert_int_equal(d->iommu_domain, IOMMU_DOMAIN_DMA_FQ);
	assert_null(d->name);
	assert_null(device_dt(d)->node);

	/* malformed files: the field stays unknown and the file is named invalid */
	d = &m.devices[1];
	assert_string_equal(d->id, "0000:00:03.0");
	assert_false(d->have_pci_ids);
	assert_false(d->dma_mask_bits.known);
	assert_true(opt_is(&d->coherent_mask_bits, 32));
	assert_true(opt_is(&d->numa_node, 1));
	assert_null(d->driver);
	/* unbound: its modalias is kept for the module lookup (readers/modules.c) */
	assert_string_equal(d->modalias, "pci:v00008086d00001234sv00008086sd00000000bc00sc00i00");
	assert_null(d->module);
	assert_null(d->module_source);
	assert_false(d->iommu_group.known);
	assert_null(d->iommu_type);
	assert_int_equal(d->iommu_domain, IOMMU_DOMAIN_NONE);
	fx_assert_input(&m, "sys/bus/pci/devices/0000:00:03.0/class", INPUT_INVALID);
	fx_assert_input(&m, "sys/bus/pci/devices/0000:00:03.0/dma_mask_bits", INPUT_INVALID);
	fx_assert_input(&m, "sys/bus/pci/devices/0000:00:03.0/iommu_group", INPUT_INVALID);
	assert_null(fx_input(&m, "sys/bus/pci/devices/0000:00:03.0/vendor"));

	d = &m.devices[2];
	assert_string_equal(d->id, "0000:00:1c.0");
	assert_int_equal(d->class_code, 0x060400);
	assert_string_equal(d->driver, "pcieport");
	assert_null(d->module);
	assert_null(d->modalias); /* absent: unknown, nothing recorded */
	assert_null(fx_input(&m, "sys/bus/pci/devices/0000:00:1c.0/modalias"));

	d = &m.devices[3];
	assert_string_equal(d->id, "0000:01:00.0");
	assert_string_equal(d->syspath, BEHIND);
	assert_string_equal(d->driver, "r8169");
	assert_null(d->module);
	assert_true(opt_is(&d->dma_mask_bits, 32));
	assert_true(opt_is(&d->numa_node, 0));

	/* per-file inputs only for bad files: 3 of them, plus the interface */
	assert_int_equal(m.n_inputs, 4);
	assert_non_null(machine_find_device(&m, "0000:01:00.0"));

	machine_done(&m);
	sysroot_free(sr);
	fx_done(&f);
}

/* removable, read only for a function in an IOMMU group: 1; absent, said so (the era reads it); else unknown. */
static void test_read_pci_removable(void **state)
{
	const char *ids[5] = { "0x144d\n", "0xa808\n", "0x144d\n", "0xa801\n", "0x010802\n" };
	static const char *const fn[4] = {
		"sys/devices/pci0000:00/0000:00:02.0", "sys/devices/pci0000:00/0000:00:03.0",
		"sys/devices/pci0000:00/0000:00:04.0", "sys/devices/pci0000:00/0000:00:05.0",
	};
	struct fake_root f;
	struct machine m;
	struct sysroot *sr;
	(void)state;

	fx_init(&f);
	for (size_t i = 0; i < 4; i++) {
		char link[128];
		add_function(&f, fn[i], ids, "64\n", "-1\n");
		snprintf(link, sizeof(link), "%s/iommu_group", fn[i]);
		if (i < 3)
			fx_link(&f, link, "../../../kernel/iommu_groups/1");
		fx_file(&f, "sys/kernel/iommu_groups/1/type", "DMA\n");
	}
	fx_file(&f, "sys/devices/pci0000:00/0000:00:02.0/removable", "removable\n");
	fx_file(&f, "sys/devices/pci0000:00/0000:00:04.0/removable", "tunnelled\n");
	fx_file(&f, "sys/devices/pci0000:00/0000:00:05.0/removable", "removable\n");
	sr = fx_open(&f);
	machine_init(&m);
	assert_int_equal(read_pci(sr, &m), 0);
	assert_int_equal(m.n_devices, 4);
	assert_true(opt_is(&m.devices[0].removable, true));
	/* absent: not external-facing from 5.14, no such file before: the analysis reads it by era */
	assert_false(m.devices[1].removable.known);
	assert_true(m.devices[1].removable_absent);
	assert_false(m.devices[0].removable_absent);
	assert_false(m.devices[2].removable.known); /* a value sysfs never writes */
	fx_assert_input(&m, "sys/bus/pci/devices/0000:00:04.0/removable", INPUT_INVALID);
	assert_false(m.devices[3].removable.known); /* no group: not read */
	assert_false(m.devices[3].removable_absent);
	machine_done(&m);
	sysroot_free(sr);
	fx_done(&f);
}

static void test_read_pci_missing(void **state)
{
	struct fake_root f;
	struct machine m;
	struct sysroot *sr;

	fx_init(&f);
	fx_dir(&f, "sys/devices/platform");
	sr = fx_open(&f);
	machine_init(&m);
	assert_int_equal(read_pci(sr, &m), 0);
	assert_false(machine_input_ok(&m, "sys/bus/pci/devices"));
	assert_int_equal(m.n_devices, 0);
	fx_assert_input(&m, "sys/bus/pci/devices", INPUT_MISSING);
	assert_int_equal(m.n_inputs, 1);
	machine_done(&m);
	sysroot_free(sr);
	fx_done(&f);
}

/*
 * The uevent's DRIVER= says the binding without the driver link (one read
 * less a function): bound with no link at all, unbound beside a stale link,
 * and a crafted name that is no path component, for which the link is read.
 */
static void test_read_pci_uevent_driver(void **state)
{
	static const char *const ids = "PCI_CLASS=10802\nPCI_ID=144D:A808\nPCI_SUBSYS_ID=144D:A801\n";
	const char *nvme[5] = { "0x144d\n", "0xa808\n", "0x144d\n", "0xa801\n", "0x010802\n" };
	const char *fn[3] = { "sys/devices/pci0000:00/0000:00:02.0", "sys/devices/pci0000:00/0000:00:03.0",
			      "sys/devices/pci0000:00/0000:00:04.0" };
	struct fake_root f;
	struct machine m;
	struct sysroot *sr;
	char path[256], text[256];

	fx_init(&f);
	for (int i = 0; i < 3; i++)
		add_function(&f, fn[i], nvme, "64\n", "-1\n");
	snprintf(path, sizeof(path), "%s/uevent", fn[0]);
	snprintf(text, sizeof(text), "DRIVER=nvme\n%s", ids);
	fx_file(&f, path, text); /* bound, and no driver link */
	snprintf(path, sizeof(path), "%s/uevent", fn[1]);
	fx_file(&f, path, ids); /* unbound ... */
	snprintf(path, sizeof(path), "%s/driver", fn[1]);
	fx_link(&f, path, "../../../bus/pci/drivers/nvme"); /* ... whatever a stale link says */
	snprintf(path, sizeof(path), "%s/uevent", fn[2]);
	snprintf(text, sizeof(text), "DRIVER=../../nvme\n%s", ids);
	fx_file(&f, path, text);
	snprintf(path, sizeof(path), "%s/driver", fn[2]);
	fx_link(&f, path, "../../../bus/pci/drivers/ahci");
	fx_link(&f, "sys/bus/pci/drivers/nvme/module", "../../../../module/nvme");
	fx_dir(&f, "sys/bus/pci/drivers/ahci");
	fx_dir(&f, "sys/module/nvme");
	sr = fx_open(&f);
	machine_init(&m);
	assert_int_equal(read_pci(sr, &m), 0);
	assert_int_equal(m.n_devices, 3);
	assert_string_equal(m.devices[0].driver, "nvme");
	assert_string_equal(m.devices[0].module, "nvme"); /* from sys/bus/pci/drivers/nvme/module */
	assert_null(m.devices[1].driver);
	assert_null(m.devices[1].module);
	assert_string_equal(m.devices[2].driver, "ahci"); /* the link, not the crafted name */
	assert_null(m.devices[2].module);
	machine_done(&m);
	sysroot_free(sr);
	fx_done(&f);
}

/* A function behind a devicetree host bridge takes the bridge's node, not its own parent's. */
static void test_read_pci_dt_bridge(void **state)
{
	const char *rp[5] = { "0x14e4\n", "0x2711\n", "0x0000\n", "0x0000\n", "0x060400\n" };
	const char *usb[5] = { "0x1106\n", "0x3483\n", "0x1106\n", "0x3483\n", "0x0c0330\n" };
	struct fake_root f;
	struct machine m;
	struct sysroot *sr;

	fx_init(&f);
	add_function(&f, "sys/devices/platform/scb/fd500000.pcie/pci0000:00/0000:00:00.0", rp,
		     "32\n", "-1\n");
	add_function(&f,
		     "sys/devices/platform/scb/fd500000.pcie/pci0000:00/0000:00:00.0/0000:01:00.0",
		     usb, "32\n", "-1\n");
	fx_link(&f, "sys/devices/platform/scb/fd500000.pcie/of_node",
		"../../../../firmware/devicetree/base/scb/pcie@7d500000");
	/* the root port has its own node: the kernel does not use it for DMA */
	fx_link(&f, "sys/devices/platform/scb/fd500000.pcie/pci0000:00/0000:00:00.0/of_node",
		"../../../../../../firmware/devicetree/base/scb/pcie@7d500000/pci@0,0");
	fx_file(&f, "sys/firmware/devicetree/base/scb/pcie@7d500000/compatible",
		"brcm,bcm2711-pcie");
	fx_dir(&f, "sys/firmware/devicetree/base/scb/pcie@7d500000/pci@0,0");
	sr = fx_open(&f);
	machine_init(&m);
	assert_int_equal(read_pci(sr, &m), 0);
	assert_int_equal(m.n_devices, 2);
	for (size_t i = 0; i < 2; i++) {
		assert_non_null(device_dt(&m.devices[i])->node);
		assert_string_equal(device_dt(&m.devices[i])->node, "scb/pcie@7d500000");
		assert_false(device_dt(&m.devices[i])->node_is_device);
	}
	assert_string_equal(
		m.devices[1].syspath,
		"sys/devices/platform/scb/fd500000.pcie/pci0000:00/0000:00:00.0/0000:01:00.0");
	machine_done(&m);
	sysroot_free(sr);
	fx_done(&f);
}

/* ---- read_iommu ---- */

static void test_read_iommu(void **state)
{
	struct fake_root f;
	struct machine m;
	struct sysroot *sr;

	fx_init(&f);
	sr = fx_open(&f);
	machine_init(&m);
	assert_int_equal(read_iommu(sr, &m), 0);
	assert_false(m.iommu_groups_present);
	fx_assert_input(&m, "sys/kernel/iommu_groups", INPUT_MISSING);
	machine_done(&m);

	fx_dir(&f, "sys/kernel/iommu_groups"); /* CONFIG_IOMMU_API without an IOMMU */
	machine_init(&m);
	assert_int_equal(read_iommu(sr, &m), 0);
	assert_false(m.iommu_groups_present);
	fx_assert_input(&m, "sys/kernel/iommu_groups", INPUT_OK);
	machine_done(&m);

	fx_file(&f, "sys/kernel/iommu_groups/0/type", "identity\n");
	machine_init(&m);
	assert_int_equal(read_iommu(sr, &m), 0);
	assert_true(m.iommu_groups_present);
	machine_done(&m);

	sysroot_free(sr);
	fx_done(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_join),	   cmocka_unit_test(test_parse_int),
		cmocka_unit_test(test_read_pci),	   cmocka_unit_test(test_read_pci_missing),
		cmocka_unit_test(test_read_pci_dt_bridge), cmocka_unit_test(test_read_iommu),
		cmocka_unit_test(test_read_pci_removable), cmocka_unit_test(test_read_pci_uevent_driver),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
