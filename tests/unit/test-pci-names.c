/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/readers/pci-names.c and pci-ids.c: names from the pci.ids of the sysroot, and only from it. */
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

#include "readers/pci-ids.h"
#include "readers/readers.h"
#include "fake-root.h"

static const char ids[] = "# test list\n"
			  "144d  Samsung Electronics Co Ltd\n"
			  "\ta808  NVMe SSD Controller SM981/PM981/PM983\n"
			  "8086  Intel Corporation\n"
			  "\t1237  440FX - 82441FX PMC [Natoma]\n"
			  "C 01  Mass storage controller\n"
			  "\t08  Non-Volatile memory controller\n";

static void add_function(const struct fake_root *f, const char *name, const char *vendor,
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

static void build(struct fake_root *f)
{
	fx_init(f);
	add_function(f, "0000:00:00.0", "0x8086\n", "0x1237\n");
	add_function(f, "0000:00:01.0", "0x8086\n", "0xbeef\n"); /* vendor known, device not */
	add_function(f, "0000:00:02.0", "0x144d\n", "0xa808\n");
	add_function(f, "0000:00:03.0", "0x1d0f\n", "0x0001\n");	  /* vendor unknown */
	fx_file(f, "sys/devices/pci0000:00/0000:00:04.0/class", "bad\n"); /* no ids: not named */
	fx_link(f, "sys/bus/pci/devices/0000:00:04.0", "../../../devices/pci0000:00/0000:00:04.0");
}

static void read_all(const struct fake_root *f, struct machine *m, struct sysroot **ret_sr)
{
	*ret_sr = fx_open(f);
	machine_init(m);
	assert_int_equal(read_pci(*ret_sr, m), 0);
	assert_int_equal(m->n_devices, 5);
	assert_int_equal(read_pci_names(*ret_sr, m), 0);
}

static void test_names(void **state)
{
	struct fake_root f;
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
	struct fake_root f;
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
	struct fake_root f;
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

/* A malformed list is an invalid input, with lspci's words for where. */
static void test_malformed(void **state)
{
	struct fake_root f;
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

	/* and the next run still works: no state left behind */
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
	struct fake_root f;
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

/*
 * The list given in pieces of at most piece bytes, as sysroot_read_stream_deferred()
 * gives them: what the scan leaves is given again with the next piece.
 */
static int lookup_in_pieces(struct pci_ids_scan *s, const char *list, size_t len, size_t piece,
			    struct pci_ids_query *q, size_t n, unsigned *line, const char **why)
{
	size_t used_to = 0, read_to = 0;

	assert_int_equal(pci_ids_scan_start(s, q, n), 0);
	for (;;) {
		size_t more = len - read_to < piece ? len - read_to : piece;
		read_to += more;
		ssize_t used = pci_ids_scan_feed(s, list + used_to, read_to - used_to, more == 0);
		if (used == -EBADMSG)
			break;
		assert_true(used >= 0 && (size_t)used <= read_to - used_to);
		used_to += (size_t)used;
		assert_true(read_to - used_to < 1024); /* a line cut short, never more */
		if (more == 0) {
			assert_int_equal(used_to, len);
			break;
		}
	}
	return pci_ids_scan_end(s, line, why);
}

static void assert_same_name(const char *a, size_t alen, const char *b, size_t blen)
{
	assert_int_equal(!a, !b);
	assert_int_equal(alen, blen);
	if (a)
		assert_memory_equal(a, b, alen);
}

/*
 * The grammar, without a sysroot: each line kind, and the first bad line
 * named; the same whole and in pieces of every size.
 */
static void lookup(struct pci_ids_scan *s, const char *list, struct pci_ids_query *q, size_t n, int want,
		   unsigned want_line)
{
	size_t len = strlen(list);
	unsigned line = 0;
	const char *why = NULL;

	pci_ids_scan_free(s);
	for (size_t i = 0; i < n; i++)
		q[i].vendor_name = q[i].device_name = NULL;
	assert_int_equal(pci_ids_lookup(s, list, len, q, n, &line, &why), want);
	if (want < 0)
		assert_int_equal(line, want_line);
	for (size_t piece = 1; piece <= len; piece++) {
		struct pci_ids_query again[8];
		struct pci_ids_scan s2;
		unsigned line2 = 0;
		const char *why2 = NULL;

		assert_true(n <= ARRAY_SIZE(again));
		for (size_t i = 0; i < n; i++)
			again[i] = (struct pci_ids_query){ .vendor = q[i].vendor, .device = q[i].device };
		assert_int_equal(lookup_in_pieces(&s2, list, len, piece, again, n, &line2, &why2), want);
		if (want < 0) {
			assert_int_equal(line2, line);
			assert_string_equal(why2, why);
		}
		for (size_t i = 0; want == 0 && i < n; i++) {
			assert_same_name(again[i].vendor_name, again[i].vendor_len, q[i].vendor_name, q[i].vendor_len);
			assert_same_name(again[i].device_name, again[i].device_len, q[i].device_name, q[i].device_len);
		}
		pci_ids_scan_free(&s2);
	}
}

static void test_grammar(void **state)
{
	static const char list[] =
		"# comment\n"
		"\n"
		"8086  Intel Corporation \r\n"     /* trailing blanks and CR go */
		"\t1237  440FX - 82441FX PMC\n"
		"\t\t1af4 1100  Qemu virtual machine\n"
		"  # an indented comment\n"
		"8086  Intel again\n"               /* listed twice: the first wins */
		"\t1237  second\n"
		"\t29c0  Express DRAM Controller\n"
		"C 06  Bridge\n"
		"\t00  Host bridge\n"
		"\t\t00  none\n"
		"S 1af4\n"
		"\t1100  generic subsystem\n"
		"X unknown block\n"
		"\tanything  at all\n"
		"\t\tmore\n";
	struct pci_ids_query q[] = {
		{ .vendor = 0x8086, .device = 0x1237 }, { .vendor = 0x8086, .device = 0x29c0 },
		{ .vendor = 0x8086, .device = 0xbeef }, { .vendor = 0x1af4, .device = 0x1100 },
		{ .vendor = 0x8086, .device = 0x1237 },
	};
	struct pci_ids_scan s = { 0 };

	lookup(&s, list, q, ARRAY_SIZE(q), 0, 0);
	assert_int_equal(q[0].vendor_len, strlen("Intel Corporation"));
	assert_memory_equal(q[0].vendor_name, "Intel Corporation", q[0].vendor_len);
	assert_memory_equal(q[0].device_name, "440FX - 82441FX PMC", q[0].device_len);
	assert_memory_equal(q[1].device_name, "Express DRAM Controller", q[1].device_len);
	assert_non_null(q[2].vendor_name);
	assert_null(q[2].device_name);
	assert_null(q[3].vendor_name); /* a subsystem vendor is no vendor */
	assert_ptr_equal(q[4].device_name, q[0].device_name);

	struct pci_ids_query one = { .vendor = 0x8086, .device = 0x1237 };
	lookup(&s, "8086  Intel\n\t\t\tdeep\n", &one, 1, -EBADMSG, 2);
	lookup(&s, "8086 Intel\n", &one, 1, 0, 0);           /* one blank is enough... */
	lookup(&s, "808  Intel\n", &one, 1, -EBADMSG, 1);     /* ...three digits are not */
	lookup(&s, "8086  \n", &one, 1, -EBADMSG, 1);         /* no name */
	lookup(&s, "\t1237  orphan\n", &one, 1, -EBADMSG, 1); /* a device before any vendor */
	lookup(&s, "8086  I\n\t\t1af4 11  short\n", &one, 1, -EBADMSG, 2);
	lookup(&s, "S 12345\n", &one, 1, -EBADMSG, 1);
	lookup(&s, "C 6  Bridge\n", &one, 1, -EBADMSG, 1);
	char longline[1100];
	memset(longline, 'a', sizeof(longline));
	memcpy(longline, "8086  ", 6);
	longline[sizeof(longline) - 1] = '\0';
	lookup(&s, longline, &one, 1, -EBADMSG, 1);
	longline[1050] = '\n'; /* too long before its LF too */
	lookup(&s, longline, &one, 1, -EBADMSG, 1);
	/* a CR ends the line; what follows it up to the LF is not read, however long */
	char crline[3000];
	memset(crline, 'x', sizeof(crline));
	memcpy(crline, "8086  Intel\r", 12);
	strcpy(crline + 2000, "\n\t1237  PMC\n");
	lookup(&s, crline, &one, 1, 0, 0);
	assert_memory_equal(one.vendor_name, "Intel", one.vendor_len);
	assert_memory_equal(one.device_name, "PMC", one.device_len);
	lookup(&s, "8086  Intel\r\r\n\t1237  PMC\r", &one, 1, 0, 0);
	assert_memory_equal(one.device_name, "PMC", one.device_len);
	lookup(&s, "", &one, 1, 0, 0);
	assert_null(one.vendor_name);
	pci_ids_scan_free(&s);
}

/* A capture's reduced list names the queries as the whole one did. */
static void test_reduce(void **state)
{
	static const char list[] = "1af4  Red Hat, Inc.\n\t1000  Virtio network device\n"
				   "8086  Intel Corporation\n\t1237  440FX\n\t7000  PIIX3 ISA\n";
	struct pci_ids_query q[] = {
		{ .vendor = 0x8086, .device = 0x1237 }, { .vendor = 0x1af4, .device = 0x1000 },
		{ .vendor = 0x8086, .device = 0xbeef }, { .vendor = 0x9999, .device = 0x0001 },
	};
	struct pci_ids_scan scan, scan2;
	struct strbuf b = { 0 };
	unsigned line;
	const char *why;

	assert_int_equal(pci_ids_lookup(&scan, list, strlen(list), q, ARRAY_SIZE(q), &line, &why), 0);
	pci_ids_reduce(q, ARRAY_SIZE(q), "usr/share/misc/pci.ids", &b);
	char *s = strbuf_steal(&b);
	assert_non_null(s);
	assert_non_null(strstr(s, "1af4  Red Hat, Inc.\n\t1000  Virtio network device\n"
				  "8086  Intel Corporation\n\t1237  440FX\n"));
	assert_null(strstr(s, "7000")); /* not this machine's */
	assert_null(strstr(s, "9999"));
	free(s);
	pci_ids_scan_free(&scan);

	/* the longest names pciutils reads (lines of 1022 bytes) are kept whole, with one blank before them */
	char longest[2048];
	struct pci_ids_query one = { .vendor = 0x8086, .device = 0x1237 }, again = one;
	memcpy(longest, "8086 ", 5);
	memset(longest + 5, 'v', 1017);
	memcpy(longest + 1022, "\n\t1237 ", 7);
	memset(longest + 1029, 'd', 1016);
	strcpy(longest + 2045, "\n");
	assert_int_equal(pci_ids_lookup(&scan, longest, strlen(longest), &one, 1, &line, &why), 0);
	assert_int_equal(one.vendor_len, 1017);
	assert_int_equal(one.device_len, 1016);
	pci_ids_reduce(&one, 1, "usr/share/misc/pci.ids", &b);
	s = strbuf_steal(&b);
	assert_non_null(s);
	assert_int_equal(pci_ids_lookup(&scan2, s, strlen(s), &again, 1, &line, &why), 0);
	assert_memory_equal(again.vendor_name, one.vendor_name, 1017);
	assert_int_equal(again.device_len, 1016);
	free(s);
	pci_ids_scan_free(&scan2);
	pci_ids_scan_free(&scan);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),	   cmocka_unit_test(test_search_order),
		cmocka_unit_test(test_missing),	   cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_no_devices),  cmocka_unit_test(test_grammar),
		cmocka_unit_test(test_reduce),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
