/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/readers/pci-names.c: libpci names from the pci.ids of the sysroot, and only from it. */
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
#include "sysfs-fixture.h"

static const char ids[] = "# test list\n"
			  "144d  Samsung Electronics Co Ltd\n"
			  "\ta808  NVMe SSD Controller SM981/PM981/PM983\n"
			  "8086  Intel Corporation\n"
			  "\t1237  440FX - 82441FX PMC [Natoma]\n"
			  "C 01  Mass storage controller\n"
			  "\t08  Non-Volatile memory controller\n";

static void add_function(const struct fixture *f, const char *name, const char *vendor,
			 const char *device)
{
	char path[512], target[512];

	snprintf(path, sizeof(path), "sys/devices/pci0000:00/%s/vendor", name);
	fx_file(f, path, vendor);
	snprintf(path, sizeof(path), "sys/devices/pci0000:00/%s/device", name);
	fx_file(f, path, device);
	snprintf(path, sizeof(path), "sys/devices/pci0000:00/%s/subsystem_vendor", name);
	fx_file(f, path, vendor);
	snprintf(path, sizeof(path), "sys/devices/pci0000:00/%s/subsystem_device", name);
	fx_file(f, path, "0x0001\n");
	snprintf(path, sizeof(path), "sys/devices/pci0000:00/%s/class", name);
	fx_file(f, path, "0x010802\n");
	snprintf(path, sizeof(path), "sys/bus/pci/devices/%s", name);
	snprintf(target, sizeof(target), "../../../devices/pci0000:00/%s", name);
	fx_link(f, path, target);
}

static void build(struct fixture *f)
{
	fx_init(f);
	add_function(f, "0000:00:00.0", "0x8086\n", "0x1237\n");
	add_function(f, "0000:00:01.0", "0x8086\n", "0xbeef\n"); /* vendor known, device not */
	add_function(f, "0000:00:02.0", "0x144d\n", "0xa808\n");
	add_function(f, "0000:00:03.0", "0x1d0f\n", "0x0001\n");	  /* vendor unknown */
	fx_file(f, "sys/devices/pci0000:00/0000:00:04.0/class", "bad\n"); /* no ids: not named */
	fx_link(f, "sys/bus/pci/devices/0000:00:04.0", "../../../devices/pci0000:00/0000:00:04.0");
}

static void read_all(const struct fixture *f, struct machine *m, struct sysroot **ret_sr)
{
	*ret_sr = fx_open(f);
	machine_init(m);
	assert_int_equal(read_pci(*ret_sr, m), 0);
	assert_int_equal(m->n_devices, 5);
	assert_int_equal(read_pci_names(*ret_sr, m), 0);
}

static void test_names(void **state)
{
	struct fixture f;
	struct machine m;
	struct sysroot *sr;

	build(&f);
	fx_file(&f, "usr/share/hwdata/pci.ids", ids); /* the second place looked at */
	read_all(&f, &m, &sr);
	fx_assert_input(&m, "usr/share/hwdata/pci.ids", INPUT_OK);
	fx_assert_str(m.pci_ids_source, "usr/share/hwdata/pci.ids");
	fx_assert_str(m.devices[0].name, "Intel Corporation 440FX - 82441FX PMC [Natoma]");
	fx_assert_str(m.devices[1].name, "Intel Corporation Device beef");
	fx_assert_str(m.devices[2].name,
		      "Samsung Electronics Co Ltd NVMe SSD Controller SM981/PM981/PM983");
	fx_assert_str(m.devices[3].name, NULL);
	fx_assert_str(m.devices[4].name, NULL);
	machine_done(&m);
	sysroot_free(sr);
	fx_done(&f);
}

/* The first place wins; a directory where the file should be is passed over. */
static void test_search_order(void **state)
{
	struct fixture f;
	struct machine m;
	struct sysroot *sr;

	build(&f);
	fx_dir(&f, "usr/share/misc/pci.ids");
	fx_file(&f, "usr/share/hwdata/pci.ids", "8086  Hwdata Intel\n");
	fx_file(&f, "var/lib/pciutils/pci.ids", "8086  Pciutils Intel\n");
	read_all(&f, &m, &sr);
	fx_assert_str(m.pci_ids_source, "usr/share/hwdata/pci.ids");
	fx_assert_str(m.devices[0].name, "Hwdata Intel Device 1237");
	machine_done(&m);
	sysroot_free(sr);
	fx_done(&f);
}

/* A snapshot without pci.ids never borrows the host's. */
static void test_missing(void **state)
{
	struct fixture f;
	struct machine m;
	struct sysroot *sr;

	build(&f);
	read_all(&f, &m, &sr);
	fx_assert_input(&m, "usr/share/misc/pci.ids", INPUT_MISSING);
	assert_null(m.pci_ids_source);
	for (size_t i = 0; i < m.n_devices; i++)
		assert_null(m.devices[i].name);
	machine_done(&m);
	sysroot_free(sr);
	fx_done(&f);
}

/* libpci's error handler would exit(): a malformed list is an invalid input instead. */
static void test_malformed(void **state)
{
	struct fixture f;
	struct machine m;
	struct sysroot *sr;

	build(&f);
	fx_file(&f, "usr/share/misc/pci.ids", "8086  Intel Corporation\n\t\t\tdeep nesting\n");
	read_all(&f, &m, &sr);
	fx_assert_input(&m, "usr/share/misc/pci.ids", INPUT_INVALID);
	fx_assert_str(fx_detail(&m, "usr/share/misc/pci.ids"),
		      "Parse error at usr/share/misc/pci.ids, line 2");
	assert_null(m.pci_ids_source);
	assert_null(m.devices[0].name);
	machine_done(&m);

	/* and the next run still works: no state left behind in libpci */
	sysroot_free(sr);
	fx_file(&f, "usr/share/misc/pci.ids", ids);
	read_all(&f, &m, &sr);
	fx_assert_str(m.devices[0].name, "Intel Corporation 440FX - 82441FX PMC [Natoma]");
	machine_done(&m);
	sysroot_free(sr);
	fx_done(&f);
}

/* Without PCI devices the list is not even looked for. */
static void test_no_devices(void **state)
{
	struct fixture f;
	struct machine m;
	struct sysroot *sr;

	fx_init(&f);
	sr = fx_open(&f);
	machine_init(&m);
	assert_int_equal(read_pci_names(sr, &m), 0);
	assert_int_equal(m.n_inputs, 0);
	machine_done(&m);
	sysroot_free(sr);
	fx_done(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),	   cmocka_unit_test(test_search_order),
		cmocka_unit_test(test_missing),	   cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_no_devices),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
