/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/readers/platform.c: read_platform on a fake Raspberry Pi 4-like sysfs tree. */
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
#include "fake-root.h"

#define DT "sys/firmware/devicetree/base"
#define EMMC "sys/devices/platform/emmc2bus/fe340000.mmc"
#define UART "sys/devices/platform/soc/fe201000.serial"
#define GPIO "sys/devices/platform/gpio-keys"

static void build_rpi(struct fake_root *f)
{
	static const char emmc_compat[] = "brcm,bcm2711-emmc2\0";
	static const char uart_compat[] = "arm,pl011\0arm,primecell\0";
	static const char bad_compat[] = "\x01\x02\0";
	/* a good first string, then an empty one: the name stays, the list does not */
	static const char half_compat[] = "brcm,bcm2835-sdhci\0\0";

	fx_init(f);
	/* a platform device with a node, a driver in a module and an IOMMU group */
	fx_dir(f, EMMC);
	fx_link(f, "sys/bus/platform/devices/fe340000.mmc",
		"../../../devices/platform/emmc2bus/fe340000.mmc");
	fx_link(f, EMMC "/of_node", "../../../../firmware/devicetree/base/emmc2bus/mmc@7e340000");
	fx_file_n(f, DT "/emmc2bus/mmc@7e340000/compatible", emmc_compat, sizeof(emmc_compat) - 1);
	fx_file(f, EMMC "/modalias", "of:NmmcT(null)Cbrcm,bcm2711-emmc2\n");
	fx_link(f, EMMC "/driver", "../../../../bus/platform/drivers/sdhci-iproc");
	fx_link(f, "sys/bus/platform/drivers/sdhci-iproc/module", "../../../../module/sdhci_iproc");
	fx_dir(f, "sys/module/sdhci_iproc");
	fx_link(f, EMMC "/iommu_group", "../../../../kernel/iommu_groups/7");
	fx_file(f, "sys/kernel/iommu_groups/7/type", "identity\n");

	/* an AMBA device, listed on both buses: kept once */
	fx_dir(f, UART);
	fx_link(f, "sys/bus/amba/devices/fe201000.serial",
		"../../../devices/platform/soc/fe201000.serial");
	fx_link(f, "sys/bus/platform/devices/fe201000.serial",
		"../../../devices/platform/soc/fe201000.serial");
	fx_link(f, UART "/of_node", "../../../../firmware/devicetree/base/soc/serial@7e201000");
	fx_file_n(f, DT "/soc/serial@7e201000/compatible", uart_compat, sizeof(uart_compat) - 1);

	/* an AMBA-only device whose compatible is not text */
	fx_dir(f, "sys/devices/platform/soc/fe204000.spi");
	fx_link(f, "sys/bus/amba/devices/fe204000.spi",
		"../../../devices/platform/soc/fe204000.spi");
	fx_link(f, "sys/devices/platform/soc/fe204000.spi/of_node",
		"../../../../firmware/devicetree/base/soc/spi@7e204000");
	fx_file_n(f, DT "/soc/spi@7e204000/compatible", bad_compat, sizeof(bad_compat) - 1);

	fx_dir(f, "sys/devices/platform/soc/fe300000.mmcnr");
	fx_link(f, "sys/bus/platform/devices/fe300000.mmcnr",
		"../../../devices/platform/soc/fe300000.mmcnr");
	fx_link(f, "sys/devices/platform/soc/fe300000.mmcnr/of_node",
		"../../../../firmware/devicetree/base/soc/mmcnr@7e300000");
	fx_file_n(f, DT "/soc/mmcnr@7e300000/compatible", half_compat, sizeof(half_compat) - 1);

	/* no of_node: not a devicetree device, skipped */
	fx_dir(f, "sys/devices/platform/serial8250");
	fx_link(f, "sys/bus/platform/devices/serial8250", "../../../devices/platform/serial8250");

	/* an of_node that points outside the devicetree: kept, its reach unknown, recorded */
	fx_dir(f, GPIO);
	fx_link(f, "sys/bus/platform/devices/gpio-keys", "../../../devices/platform/gpio-keys");
	fx_link(f, GPIO "/of_node", "../../../kernel");
}

static void test_read_platform(void **state)
{
	struct fake_root f;
	struct machine m;
	struct sysroot *sr;
	const struct device *d;

	build_rpi(&f);
	sr = fx_open(&f);
	machine_init(&m);
	assert_int_equal(read_platform(sr, &m), 0);
	fx_assert_input(&m, "sys/bus/platform/devices", INPUT_OK);
	fx_assert_input(&m, "sys/bus/amba/devices", INPUT_OK);
	fx_assert_input(&m, GPIO "/of_node", INPUT_INVALID);
	fx_assert_input(&m, DT "/soc/spi@7e204000/compatible", INPUT_INVALID);
	fx_assert_input(&m, DT "/soc/mmcnr@7e300000/compatible", INPUT_INVALID);
	assert_int_equal(m.n_devices, 5);

	d = machine_find_device(&m, "fe340000.mmc");
	assert_non_null(d);
	assert_int_equal(d->bus, DEV_BUS_PLATFORM);
	assert_string_equal(d->syspath, EMMC);
	assert_string_equal(d->name, "brcm,bcm2711-emmc2");
	assert_string_equal(d->modalias, "of:NmmcT(null)Cbrcm,bcm2711-emmc2");
	assert_string_equal(d->driver, "sdhci-iproc");
	assert_string_equal(d->module, "sdhci_iproc");
	assert_string_equal(d->module_source, "sysfs");
	assert_true(opt_is(&d->iommu_group, 7));
	assert_string_equal(d->iommu_type, "identity");
	assert_int_equal(d->iommu_domain, IOMMU_DOMAIN_IDENTITY);
	assert_false(d->dma_mask_bits.known);
	assert_false(d->coherent_mask_bits.known);
	assert_false(d->numa_node.known);
	assert_false(d->have_pci_ids);
	assert_string_equal(device_dt(d)->node, "emmc2bus/mmc@7e340000");
	assert_true(device_dt(d)->node_is_device);

	d = machine_find_device(&m, "fe201000.serial");
	assert_non_null(d);
	assert_int_equal(d->bus, DEV_BUS_PLATFORM); /* the platform listing came first */
	assert_string_equal(d->name, "arm,pl011");
	/* every string, in the node's order, for the driver's variant match */
	assert_int_equal(d->compatible_len, sizeof("arm,pl011\0arm,primecell"));
	assert_memory_equal(d->compatible, "arm,pl011\0arm,primecell\0", d->compatible_len);
	assert_string_equal(device_dt(d)->node, "soc/serial@7e201000");
	assert_null(d->driver);
	assert_null(d->modalias);
	assert_false(d->iommu_group.known);

	d = machine_find_device(&m, "fe204000.spi");
	assert_non_null(d);
	assert_int_equal(d->bus, DEV_BUS_AMBA);
	assert_null(d->name);
	assert_null(d->compatible);
	assert_string_equal(device_dt(d)->node, "soc/spi@7e204000");

	d = machine_find_device(&m, "fe300000.mmcnr");
	assert_non_null(d);
	assert_string_equal(d->name, "brcm,bcm2835-sdhci");
	assert_null(d->compatible);
	assert_int_equal(d->compatible_len, 0);

	assert_null(machine_find_device(&m, "serial8250"));
	d = machine_find_device(&m, "gpio-keys");
	assert_non_null(d);
	assert_int_equal(device_dt(d)->err, -EBADMSG);
	assert_string_equal(device_dt(d)->err_path, GPIO "/of_node");
	assert_null(device_dt(d)->node);
	/* sorted by id */
	for (size_t i = 1; i < m.n_devices; i++)
		assert_true(strcmp(m.devices[i - 1].id, m.devices[i].id) < 0);

	machine_done(&m);
	sysroot_free(sr);
	fx_done(&f);
}

/* x86: no AMBA bus, platform devices without nodes. */
static void test_read_platform_x86(void **state)
{
	struct fake_root f;
	struct machine m;
	struct sysroot *sr;

	fx_init(&f);
	fx_dir(&f, "sys/devices/platform/rtc_cmos");
	fx_link(&f, "sys/bus/platform/devices/rtc_cmos", "../../../devices/platform/rtc_cmos");
	sr = fx_open(&f);
	machine_init(&m);
	assert_int_equal(read_platform(sr, &m), 0);
	assert_int_equal(m.n_devices, 0);
	fx_assert_input(&m, "sys/bus/platform/devices", INPUT_OK);
	fx_assert_input(&m, "sys/bus/amba/devices", INPUT_MISSING);
	assert_int_equal(m.n_inputs, 2);
	machine_done(&m);
	sysroot_free(sr);
	fx_done(&f);
}

/* PCI devices already read stay sorted with the platform ones. */
static void test_read_platform_after_pci(void **state)
{
	struct fake_root f;
	struct machine m;
	struct sysroot *sr;

	build_rpi(&f);
	fx_dir(&f, "sys/devices/pci0000:00/0000:00:00.0");
	fx_file(&f, "sys/devices/pci0000:00/0000:00:00.0/class", "0x060400\n");
	fx_link(&f, "sys/bus/pci/devices/0000:00:00.0", "../../../devices/pci0000:00/0000:00:00.0");
	sr = fx_open(&f);
	machine_init(&m);
	assert_int_equal(read_pci(sr, &m), 0);
	assert_int_equal(read_platform(sr, &m), 0);
	assert_int_equal(m.n_devices, 6);
	assert_string_equal(m.devices[0].id, "0000:00:00.0");
	assert_non_null(machine_find_device(&m, "fe340000.mmc"));
	assert_non_null(machine_find_device(&m, "0000:00:00.0"));
	machine_done(&m);
	sysroot_free(sr);
	fx_done(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_platform),
		cmocka_unit_test(test_read_platform_x86),
		cmocka_unit_test(test_read_platform_after_pci),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
