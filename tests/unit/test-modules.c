/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * src/readers/modules.c: modalias -> module with libkmod on a
 * lib/modules/<release> built here (a modules.alias.bin written by hand in
 * libkmod's index format), and what keeps libkmod's reads inside the
 * sysroot: links out of it name nothing, unreadable files are recorded, the
 * private copy is removed. Also read_udev, which must leave snapshots alone.
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
#include "live-root.h"
#include "fake-root.h"

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
static void write_alias_index(const struct fake_root *f, const char *path, const char *pattern,
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

static void add_function(const struct fake_root *f, const char *name, const char *modalias,
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

static void build(struct fake_root *f)
{
	fx_init(f);
	add_function(f, "0000:00:01.0", NVME_ALIAS, false);
	add_function(f, "0000:00:02.0", NVME_ALIAS, true);
	add_function(f, "0000:00:03.0", OTHER_ALIAS, false);
}

static void read_all(const struct fake_root *f, struct machine *m, struct sysroot **ret_sr,
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

static void done(struct fake_root *f, struct machine *m, struct sysroot *sr)
{
	machine_done(m);
	sysroot_free(sr);
	fx_done(f);
}

static void test_lookup(void **state)
{
	struct fake_root f;
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
	struct fake_root f;
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

/*
 * A file outside the fixture's root, holding what must never be seen: an
 * index that names every PCI device "canary", or a modules.softdep whose
 * alias does the same (libkmod parses it as configuration).
 */
struct outside {
	struct fake_root f;
	char index[128], softdep[128];
};

static void outside_init(struct outside *o)
{
	fx_init(&o->f);
	write_alias_index(&o->f, "modules.alias.bin", "pci:*", "canary");
	fx_file(&o->f, "modules.softdep", "alias pci:* canary\n");
	snprintf(o->index, sizeof(o->index), "%s/modules.alias.bin", o->f.root);
	snprintf(o->softdep, sizeof(o->softdep), "%s/modules.softdep", o->f.root);
}

static void assert_no_canary(const struct machine *m)
{
	for (size_t i = 0; i < m->n_devices; i++)
		assert_true(!m->devices[i].module || strcmp(m->devices[i].module, "canary") != 0);
}

/* Links are followed inside the root; one that leads out of it names nothing. */
static void test_links(void **state)
{
	struct outside o;
	struct fake_root f;
	struct machine m;
	struct sysroot *sr;
	char rel[512];

	outside_init(&o);

	/* inside the root: followed, as the sysroot layer follows every link */
	build(&f);
	write_alias_index(&f, "elsewhere/modules.alias.bin", "pci:*", "nvme");
	fx_link(&f, "lib/modules/" RELEASE "/modules.alias.bin",
		"../../../elsewhere/modules.alias.bin");
	read_all(&f, &m, &sr, RELEASE);
	fx_assert_input(&m, "lib/modules/" RELEASE, INPUT_OK);
	fx_assert_str(m.devices[0].module, "nvme");
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

	/* out of the root, absolute and ../..: each file names nothing, the lookup goes on */
	snprintf(rel, sizeof(rel), "../../../../../../../../../../..%s", o.index);
	const char *const targets[] = { o.index, rel };
	for (size_t i = 0; i < 2; i++) {
		build(&f);
		fx_link(&f, "lib/modules/" RELEASE "/modules.alias.bin", targets[i]);
		fx_link(&f, "lib/modules/" RELEASE "/modules.builtin.alias.bin", targets[i]);
		fx_link(&f, "lib/modules/" RELEASE "/modules.softdep", o.softdep);
		read_all(&f, &m, &sr, RELEASE);
		fx_assert_input(&m, "lib/modules/" RELEASE, INPUT_OK);
		assert_no_canary(&m);
		assert_null(m.devices[0].module);
		done(&f, &m, sr);
	}

	/* the whole directory a link out of the root */
	build(&f);
	fx_dir(&f, "lib/modules");
	fx_link(&f, "lib/modules/" RELEASE, o.f.root);
	read_all(&f, &m, &sr, RELEASE);
	fx_assert_input(&m, "lib/modules/" RELEASE, INPUT_MISSING);
	assert_no_canary(&m);
	done(&f, &m, sr);

	fx_done(&o.f);
}

/* The snapshot's own modules.softdep is libkmod configuration, as modprobe reads it there. */
static void test_softdep(void **state)
{
	struct fake_root f;
	struct machine m;
	struct sysroot *sr;

	build(&f);
	write_alias_index(&f, "lib/modules/" RELEASE "/modules.alias.bin", "pci:*", "nvme");
	fx_file(&f, "lib/modules/" RELEASE "/modules.softdep",
		"# Soft dependencies extracted from modules themselves.\n"
		"softdep nvme pre: crc32c\n"
		"alias pci:v00001234d00001111* from_softdep\n");
	read_all(&f, &m, &sr, RELEASE);
	fx_assert_input(&m, "lib/modules/" RELEASE, INPUT_OK);
	fx_assert_str(m.devices[0].module, "nvme");
	fx_assert_str(m.devices[2].module, "from_softdep");
	done(&f, &m, sr);
}

/* An index that cannot be read is recorded under its path; no lookup runs on the rest. */
static void test_unreadable_index(void **state)
{
	struct fake_root f;
	struct machine m;
	struct sysroot *sr;
	char path[512];

	build(&f);
	write_alias_index(&f, "lib/modules/" RELEASE "/modules.alias.bin", "pci:*", "nvme");
	snprintf(path, sizeof(path), "%s/lib/modules/" RELEASE "/modules.dep.bin", f.root);
	assert_int_equal(mkfifo(path, 0600), 0); /* libkmod would block reading it */
	read_all(&f, &m, &sr, RELEASE);
	fx_assert_input(&m, "lib/modules/" RELEASE "/modules.dep.bin", INPUT_INVALID);
	assert_null(fx_input(&m, "lib/modules/" RELEASE));
	assert_null(m.devices[0].module);
	done(&f, &m, sr);

	/* a link to the host's own path resolves to itself inside the root: a loop */
	build(&f);
	fx_link(&f, "lib/modules/" RELEASE "/modules.alias.bin",
		"/lib/modules/" RELEASE "/modules.alias.bin");
	read_all(&f, &m, &sr, RELEASE);
	fx_assert_input(&m, "lib/modules/" RELEASE "/modules.alias.bin", INPUT_INVALID);
	const struct input *in = fx_input(&m, "lib/modules/" RELEASE "/modules.alias.bin");
	assert_int_equal(in ? in->err : 0, ELOOP);
	done(&f, &m, sr);
}

/* The private directory goes away: nothing is left in $TMPDIR. */
static void test_no_leftovers(void **state)
{
	struct fake_root f, tmp;
	struct machine m;
	struct sysroot *sr;
	char *saved = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;

	fx_init(&tmp);
	assert_int_equal(setenv("TMPDIR", tmp.root, 1), 0);
	build(&f);
	write_alias_index(&f, "lib/modules/" RELEASE "/modules.alias.bin", "pci:*", "nvme");
	read_all(&f, &m, &sr, RELEASE);
	fx_assert_str(m.devices[0].module, "nvme");
	done(&f, &m, sr);
	assert_int_equal(rmdir(tmp.root), 0); /* fails with ENOTEMPTY if anything is left */
	if (saved)
		setenv("TMPDIR", saved, 1);
	else
		unsetenv("TMPDIR");
	free(saved);
}

/* Every device bound: lib/modules is not even looked at. */
static void test_nothing_to_do(void **state)
{
	struct fake_root f;
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
	struct fake_root f;
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
		assert_null(udev_or_none(m.devices[i].udev)->id_path);
	done(&f, &m, sr);

	if (root_remapped()) {
		print_message("qemu-user remaps \"/\": no live udev database to read here\n");
		return;
	}
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
		cmocka_unit_test(test_links),
		cmocka_unit_test(test_softdep),
		cmocka_unit_test(test_unreadable_index),
		cmocka_unit_test(test_no_leftovers),
		cmocka_unit_test(test_nothing_to_do),
		cmocka_unit_test(test_udev),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
