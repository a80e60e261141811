/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * src/readers/modules.c: modalias -> module with libkmod on a
 * lib/modules/<release> built here (a modules.alias.bin written by hand in
 * libkmod's index format), and the refusals that keep libkmod's own reads
 * inside the sysroot. Also read_udev, which must leave snapshots alone.
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
#include "sysfs-fixture.h"

#define RELEASE "6.1.0-test"

/* libkmod/libkmod-index.h */
#define INDEX_MAGIC 0xB007F457u
#define INDEX_VERSION 0x00020001u
#define INDEX_NODE_PREFIX 0x80000000u
#define INDEX_NODE_VALUES 0x40000000u

static size_t put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
	return 4;
}

/* An index of one key (a wildcard pattern, as depmod writes aliases) and one value. */
static void write_alias_index(const struct fixture *f, const char *path, const char *pattern,
			      const char *module)
{
	uint8_t buf[512];
	size_t n = 0;

	n += put32(buf + n, INDEX_MAGIC);
	n += put32(buf + n, INDEX_VERSION);
	n += put32(buf + n, 12 | INDEX_NODE_PREFIX | INDEX_NODE_VALUES); /* root right after */
	memcpy(buf + n, pattern, strlen(pattern) + 1);
	n += strlen(pattern) + 1;
	n += put32(buf + n, 1); /* one value */
	n += put32(buf + n, 0); /* its priority */
	memcpy(buf + n, module, strlen(module) + 1);
	n += strlen(module) + 1;
	fx_file_n(f, path, buf, n);
}

static void add_function(const struct fixture *f, const char *name, const char *modalias,
			 bool bound)
{
	char path[512], target[512];

	snprintf(path, sizeof(path), "sys/devices/pci0000:00/%s/modalias", name);
	fx_file(f, path, modalias);
	if (bound) {
		snprintf(path, sizeof(path), "sys/devices/pci0000:00/%s/driver", name);
		fx_link(f, path, "../../../bus/pci/drivers/nvme");
		fx_dir(f, "sys/bus/pci/drivers/nvme");
	}
	snprintf(path, sizeof(path), "sys/bus/pci/devices/%s", name);
	snprintf(target, sizeof(target), "../../../devices/pci0000:00/%s", name);
	fx_link(f, path, target);
}

#define NVME_ALIAS "pci:v0000144Dd0000A808sv0000144Dsd0000A801bc01sc08i02\n"
#define OTHER_ALIAS "pci:v00001234d00001111sv00000000sd00000000bc03sc00i00\n"

static void build(struct fixture *f)
{
	fx_init(f);
	add_function(f, "0000:00:01.0", NVME_ALIAS, false);
	add_function(f, "0000:00:02.0", NVME_ALIAS, true);
	add_function(f, "0000:00:03.0", OTHER_ALIAS, false);
}

static void read_all(const struct fixture *f, struct machine *m, struct sysroot **ret_sr,
		     const char *release)
{
	*ret_sr = fx_open(f);
	machine_init(m);
	if (release)
		assert_non_null(m->release.value = strdup(release));
	assert_int_equal(read_pci(*ret_sr, m), 0);
	assert_int_equal(m->n_devices, 3);
	assert_int_equal(read_modules(*ret_sr, m), 0);
}

static void done(struct fixture *f, struct machine *m, struct sysroot *sr)
{
	machine_done(m);
	sysroot_free(sr);
	fx_done(f);
}

static void test_lookup(void **state)
{
	struct fixture f;
	struct machine m;
	struct sysroot *sr;

	build(&f);
	/* lib is a link, as on merged-/usr systems: followed inside the sysroot */
	write_alias_index(&f, "usr/lib/modules/" RELEASE "/modules.alias.bin",
			  "pci:v0000144Dd0000A808sv*sd*bc01sc08i02*", "nvme");
	fx_link(&f, "lib", "usr/lib");
	read_all(&f, &m, &sr, RELEASE);
	fx_assert_input(&m, "lib/modules/" RELEASE, INPUT_OK);

	fx_assert_str(m.devices[0].module, "nvme");
	fx_assert_str(m.devices[0].module_source, "modalias");
	/* bound: the driver link decides, no lookup */
	fx_assert_str(m.devices[1].driver, "nvme");
	fx_assert_str(m.devices[1].module, NULL);
	fx_assert_str(m.devices[1].module_source, NULL);
	/* no alias matches */
	fx_assert_str(m.devices[2].module, NULL);
	fx_assert_str(m.devices[2].module_source, NULL);
	done(&f, &m, sr);
}

static void test_no_modules(void **state)
{
	struct fixture f;
	struct machine m;
	struct sysroot *sr;

	build(&f);
	read_all(&f, &m, &sr, RELEASE);
	fx_assert_input(&m, "lib/modules/" RELEASE, INPUT_MISSING);
	for (size_t i = 0; i < m.n_devices; i++)
		assert_null(m.devices[i].module);
	done(&f, &m, sr);

	build(&f);
	read_all(&f, &m, &sr, NULL);
	fx_assert_input(&m, "lib/modules", INPUT_MISSING);
	done(&f, &m, sr);

	build(&f);
	read_all(&f, &m, &sr, "../../etc");
	fx_assert_input(&m, "lib/modules", INPUT_INVALID);
	done(&f, &m, sr);

	/* a directory without modules.alias.bin: the lookup finds nothing, no error */
	build(&f);
	fx_dir(&f, "lib/modules/" RELEASE);
	read_all(&f, &m, &sr, RELEASE);
	fx_assert_input(&m, "lib/modules/" RELEASE, INPUT_OK);
	assert_null(m.devices[0].module);
	done(&f, &m, sr);
}

/* libkmod would follow a link out of the sysroot: refused before it runs. */
static void test_symlinked_index(void **state)
{
	struct fixture f;
	struct machine m;
	struct sysroot *sr;

	build(&f);
	write_alias_index(&f, "elsewhere/modules.alias.bin", "pci:*", "nvme");
	fx_link(&f, "lib/modules/" RELEASE "/modules.alias.bin",
		"../../../elsewhere/modules.alias.bin");
	read_all(&f, &m, &sr, RELEASE);
	fx_assert_input(&m, "lib/modules/" RELEASE, INPUT_INVALID);
	assert_null(m.devices[0].module);
	done(&f, &m, sr);

	/* the directory itself may be a link that leaves the tree: it is followed inside */
	build(&f);
	write_alias_index(&f, "var/modules/modules.alias.bin", "pci:*", "inside");
	fx_dir(&f, "lib/modules");
	fx_link(&f, "lib/modules/" RELEASE, "/var/modules");
	read_all(&f, &m, &sr, RELEASE);
	fx_assert_input(&m, "lib/modules/" RELEASE, INPUT_OK);
	fx_assert_str(m.devices[0].module, "inside");
	done(&f, &m, sr);
}

/* Every device bound: lib/modules is not even looked at. */
static void test_nothing_to_do(void **state)
{
	struct fixture f;
	struct machine m;
	struct sysroot *sr;

	fx_init(&f);
	add_function(&f, "0000:00:02.0", NVME_ALIAS, true);
	sr = fx_open(&f);
	machine_init(&m);
	assert_int_equal(read_pci(sr, &m), 0);
	size_t before = m.n_inputs;
	assert_int_equal(read_modules(sr, &m), 0);
	assert_int_equal(m.n_inputs, before);
	done(&f, &m, sr);
}

/* read_udev: never on a snapshot; live, one input for the database. */
static void test_udev(void **state)
{
	struct fixture f;
	struct machine m;
	struct sysroot *sr;

	build(&f);
	fx_dir(&f, "run/udev/data");
	sr = fx_open(&f);
	machine_init(&m);
	assert_int_equal(read_pci(sr, &m), 0);
	size_t before = m.n_inputs;
	assert_int_equal(read_udev(sr, &m), 0);
	assert_int_equal(m.n_inputs, before);
	for (size_t i = 0; i < m.n_devices; i++)
		assert_null(m.devices[i].udev.id_path);
	done(&f, &m, sr);

	assert_int_equal(sysroot_open("/", 0, &sr), 0);
	machine_init(&m);
	assert_int_equal(read_udev(sr, &m), 0);
	assert_int_equal(m.n_inputs, 1);
	assert_string_equal(m.inputs[0].path, "run/udev/data");
	assert_true(m.inputs[0].status == INPUT_OK || m.inputs[0].status == INPUT_MISSING);
	machine_done(&m);
	sysroot_free(sr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_no_modules),
		cmocka_unit_test(test_symlinked_index),
		cmocka_unit_test(test_nothing_to_do),
		cmocka_unit_test(test_udev),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
