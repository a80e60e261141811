/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The one-screen parsers: meminfo_parse, cmdline_parse, manifest_parse,
 * pci_uevent_parse, udev_props_parse, swiotlb_parse_counter, cpuinfo_has_flag,
 * stable_release_parse, iort_parse, cpu_list_count, srat_parse; and the errno names a MANIFEST's error lines carry.
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
#include "readers/udev.h"
#include "shared/errno-util.h"

/* ---- meminfo ---- */

/* This machine's /proc/meminfo (x86_64, 6.18: no HighTotal/LowTotal). */
static const char x86_meminfo[] =
	"MemTotal:       24683664 kB\n"
	"MemFree:        24410308 kB\n"
	"MemAvailable:   24391376 kB\n"
	"Buffers:            1292 kB\n"
	"Cached:           153316 kB\n"
	"SwapCached:            0 kB\n"
	"Active:            74008 kB\n"
	"Inactive:          82564 kB\n"
	"Active(anon):       1508 kB\n"
	"Inactive(anon):    10340 kB\n"
	"Active(file):      72500 kB\n"
	"Inactive(file):    72224 kB\n"
	"Unevictable:       10308 kB\n"
	"Mlocked:            8720 kB\n"
	"SwapTotal:             0 kB\n"
	"SwapFree:              0 kB\n"
	"Zswap:                 0 kB\n"
	"Zswapped:              0 kB\n"
	"Dirty:                64 kB\n"
	"Writeback:             0 kB\n"
	"AnonPages:         12712 kB\n"
	"Mapped:            15980 kB\n"
	"Shmem:              9568 kB\n"
	"KReclaimable:      58284 kB\n"
	"Slab:              79016 kB\n"
	"SReclaimable:      58284 kB\n"
	"SUnreclaim:        20732 kB\n"
	"KernelStack:        1380 kB\n"
	"PageTables:         1120 kB\n"
	"SecPageTables:         0 kB\n"
	"NFS_Unstable:          0 kB\n"
	"Bounce:                0 kB\n"
	"WritebackTmp:          0 kB\n"
	"CommitLimit:    12341832 kB\n"
	"Committed_AS:      58116 kB\n"
	"VmallocTotal:   34359738367 kB\n"
	"VmallocUsed:        5620 kB\n"
	"VmallocChunk:          0 kB\n"
	"Percpu:              720 kB\n"
	"AnonHugePages:         0 kB\n"
	"ShmemHugePages:        0 kB\n"
	"ShmemPmdMapped:        0 kB\n"
	"FileHugePages:         0 kB\n"
	"FilePmdMapped:         0 kB\n"
	"Balloon:               0 kB\n"
	"HugePages_Total:       0\n"
	"HugePages_Free:        0\n"
	"HugePages_Rsvd:        0\n"
	"HugePages_Surp:        0\n"
	"Hugepagesize:       2048 kB\n"
	"Hugetlb:               0 kB\n"
	"DirectMap4k:       20480 kB\n"
	"DirectMap2M:     2076672 kB\n"
	"DirectMap1G:    25165824 kB\n";

/* A 32-bit ARM board with CONFIG_HIGHMEM (3.x): HighTotal/LowTotal present. */
static const char arm_meminfo[] =
	"MemTotal:        2070084 kB\n"
	"MemFree:         1807088 kB\n"
	"Buffers:           12004 kB\n"
	"Cached:           151284 kB\n"
	"SwapCached:            0 kB\n"
	"HighTotal:       1318912 kB\n"
	"HighFree:        1201804 kB\n"
	"LowTotal:         751172 kB\n"
	"LowFree:          605284 kB\n"
	"SwapTotal:             0 kB\n"
	"Bounce:               12 kB\n"
	"VmallocTotal:     245760 kB\n"
	"HugePages_Total:       0\n";

static int meminfo(const char *text, struct meminfo *mi, struct parse_error *e)
{
	memset(mi, 0xa5, sizeof(*mi));
	memset(e, 0, sizeof(*e));
	e->line = 999;
	return meminfo_parse(text, strlen(text), mi, e);
}

/* A macro, so that a failure names the line of the case, not of a helper. */
#define assert_meminfo_bad(text, line_no)                               \
	do {                                                            \
		struct meminfo mi_;                                     \
		struct parse_error e_;                                  \
		assert_int_equal(meminfo((text), &mi_, &e_), -EBADMSG); \
		assert_int_equal(e_.line, (line_no));                   \
		assert_non_null(e_.what);                               \
	} while (0)

static void test_meminfo_x86(void **state)
{
	struct meminfo mi;
	struct parse_error e;

	assert_int_equal(meminfo(x86_meminfo, &mi, &e), 0);
	assert_true(mi.mem_total.known);
	assert_int_equal(mi.mem_total.v, 24683664ull * 1024);
	assert_true(mi.bounce.known);
	assert_int_equal(mi.bounce.v, 0ull * 1024);
	assert_false(mi.high_total.known); /* no CONFIG_HIGHMEM on 64-bit */
	assert_int_equal(mi.high_total.v, 0);
	assert_int_equal(mi.low_total.v, 0);
}

static void test_meminfo_high_total(void **state)
{
	struct meminfo mi;
	struct parse_error e;

	assert_int_equal(meminfo(arm_meminfo, &mi, &e), 0);
	assert_true(mi.mem_total.known);
	assert_int_equal(mi.mem_total.v, 2070084ull * 1024);
	assert_true(mi.high_total.known);
	assert_int_equal(mi.high_total.v, 1318912ull * 1024);
	assert_int_equal(mi.low_total.v, 751172ull * 1024);
	assert_true(mi.bounce.known);
	assert_int_equal(mi.bounce.v, 12 * 1024);
}

static void test_meminfo_high_total_zero(void **state)
{
	/* CONFIG_HIGHMEM but no highmem: HighTotal present and 0. */
	struct meminfo mi;
	struct parse_error e;

	assert_int_equal(meminfo("MemTotal:         253952 kB\n"
				 "HighTotal:             0 kB\n"
				 "LowTotal:         253952 kB\n",
				 &mi, &e),
			 0);
	assert_true(mi.high_total.known);
	assert_int_equal(mi.high_total.v, 0);
	assert_int_equal(mi.low_total.v, 253952ull * 1024);
	assert_false(mi.bounce.known);
}

static void test_meminfo_minimal(void **state)
{
	struct meminfo mi;
	struct parse_error e;

	assert_int_equal(meminfo("MemTotal: 1 kB\n", &mi, &e), 0);
	assert_true(mi.mem_total.known);
	assert_int_equal(mi.mem_total.v, 1024);
	assert_false(mi.high_total.known);
	assert_false(mi.bounce.known);
}

static void test_meminfo_value_without_kb(void **state)
{
	assert_meminfo_bad("MemTotal:        2070084\n", 1);
	assert_meminfo_bad("MemTotal:        2070084 kB\n"
			   "HighTotal:       1318912 MB\n",
			   2);
	assert_meminfo_bad("MemTotal:        2070084 kB\n"
			   "Bounce:               12 kB extra\n",
			   2);
	assert_meminfo_bad("MemTotal:        2070084 KB\n", 1);
	/* Lines the tool does not use may have any unit, or none. */
	struct meminfo mi;
	struct parse_error e;
	assert_int_equal(meminfo("HugePages_Total:       0\n"
				 "MemTotal:        2070084 kB\n"
				 "Hugepagesize:       2048 kB\n",
				 &mi, &e),
			 0);
}

static void test_meminfo_bad_number(void **state)
{
	assert_meminfo_bad("MemTotal:        -1 kB\n", 1);
	assert_meminfo_bad("MemTotal:        0x10 kB\n", 1);
	assert_meminfo_bad("MemTotal: kB\n", 1);
	assert_meminfo_bad("MemTotal:\n", 1);
	assert_meminfo_bad("MemTotal:        12 kB\n"
			   "LowTotal:        1.5 kB\n",
			   2);
}

static void test_meminfo_missing_mem_total(void **state)
{
	assert_meminfo_bad("MemFree:         1807088 kB\n"
			   "HighTotal:       1318912 kB\n",
			   0);
	assert_meminfo_bad("", 0);
	/* "MemTotalX" is another key. */
	assert_meminfo_bad("MemTotalX:       1807088 kB\n", 0);
}

static void test_meminfo_overflow(void **state)
{
	struct meminfo mi;
	struct parse_error e;

	/* (2^64-1)/1024 kB still fits in bytes ... */
	assert_int_equal(meminfo("MemTotal:        18014398509481983 kB\n", &mi, &e), 0);
	assert_int_equal(mi.mem_total.v, 18014398509481983ull * 1024);
	/* ... one more does not. */
	assert_meminfo_bad("MemTotal:        18014398509481984 kB\n", 1);
	assert_meminfo_bad("MemTotal:        1 kB\n"
			   "HighTotal:       18446744073709551615 kB\n",
			   2);
	assert_meminfo_bad("MemTotal:        18446744073709551616 kB\n", 1);
}

static void test_meminfo_malformed(void **state)
{
	struct meminfo mi;
	struct parse_error e;
	static const char bin[] = "MemTotal:        2070084 kB\n\0\n";

	assert_meminfo_bad("MemTotal:        2070084 kB\n"
			   "no colon here\n",
			   2);
	assert_meminfo_bad("MemTotal:        2070084 kB", 0); /* truncated */
	memset(&e, 0, sizeof(e));
	assert_int_equal(meminfo_parse(bin, sizeof(bin) - 1, &mi, &e), -EBADMSG);
	assert_non_null(e.what);
}

/* ---- cmdline ---- */

static int cmdline(const char *buf, size_t len, char **ret, struct parse_error *e)
{
	*ret = NULL;
	memset(e, 0, sizeof(*e));
	return cmdline_parse(buf, len, ret, e);
}

static void check_cmdline(const char *text, const char *expected)
{
	char *s;
	struct parse_error e;

	assert_int_equal(cmdline(text, strlen(text), &s, &e), 0);
	assert_non_null(s);
	assert_string_equal(s, expected);
	free(s);
}

static void test_cmdline_trailing_newline(void **state)
{
	check_cmdline("console=ttyS0 quiet swiotlb=noforce\n", "console=ttyS0 quiet swiotlb=noforce");
	/* The kernel (some versions, some bootloaders) leaves a blank before the newline. */
	check_cmdline("console=ttyAMA0 root=/dev/mmcblk0p2 \n", "console=ttyAMA0 root=/dev/mmcblk0p2");
	check_cmdline("swiotlb=force", "swiotlb=force");
	check_cmdline("  leading blanks kept\n", "  leading blanks kept");
}

static void test_cmdline_empty(void **state)
{
	check_cmdline("", "");
	check_cmdline("\n", "");
}

static void test_cmdline_nul(void **state)
{
	static const char buf[] = "console=ttyS0\0quiet\n";
	char *s;
	struct parse_error e;

	assert_int_equal(cmdline(buf, sizeof(buf) - 1, &s, &e), -EBADMSG);
	assert_null(s);
	assert_non_null(e.what);
}

static void test_cmdline_two_lines(void **state)
{
	static const char buf[] = "console=ttyS0\nquiet\n";
	char *s;
	struct parse_error e;

	assert_int_equal(cmdline(buf, sizeof(buf) - 1, &s, &e), -EBADMSG);
	assert_null(s);
	assert_int_equal(e.line, 2);
	assert_non_null(e.what);
}

static void test_cmdline_respects_len(void **state)
{
	static const char buf[] = "quiet\nnot part of the file";
	char *s;
	struct parse_error e;

	assert_int_equal(cmdline(buf, 6, &s, &e), 0);
	assert_string_equal(s, "quiet");
	free(s);
}

/* ---- MANIFEST ---- */

static void manifest_free_entries(struct manifest_entry *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].key);
		free(v[i].value);
	}
	free(v);
}

static int manifest(const char *text, struct manifest_entry **v, size_t *n, struct parse_error *e)
{
	*v = NULL;
	*n = 999;
	memset(e, 0, sizeof(*e));
	e->line = 999;
	return manifest_parse(text, strlen(text), v, n, e);
}

static void assert_entry(const struct manifest_entry *m, const char *key, const char *value)
{
	assert_string_equal(m->key, key);
	assert_string_equal(m->value, value);
}

static void test_manifest_basic(void **state)
{
	static const char text[] =
		"# captured by dmamask-audit --capture\n"
		"arch=armv7l\n"
		"\n"
		"page_size=4096\n"
		"kernel_release=3.3.0-rc7+\n"
		"#comment=not an entry\n"
		"captured_at=2013-03-14T10:00:00Z\n"
		"error.proc/iomem=EACCES\n"
		"cmdline=console=ttyS0 mem=512M\n" /* the first '=' splits */
		"empty=\n";
	struct manifest_entry *v;
	size_t n;
	struct parse_error e;

	assert_int_equal(manifest(text, &v, &n, &e), 0);
	assert_int_equal(n, 7);
	assert_entry(&v[0], "arch", "armv7l");
	assert_entry(&v[1], "page_size", "4096");
	assert_entry(&v[2], "kernel_release", "3.3.0-rc7+");
	assert_entry(&v[3], "captured_at", "2013-03-14T10:00:00Z");
	assert_entry(&v[4], "error.proc/iomem", "EACCES");
	assert_entry(&v[5], "cmdline", "console=ttyS0 mem=512M");
	assert_entry(&v[6], "empty", "");
	manifest_free_entries(v, n);
}

static void test_manifest_no_final_newline(void **state)
{
	struct manifest_entry *v;
	size_t n;
	struct parse_error e;

	assert_int_equal(manifest("arch=x86_64\npage_size=4096", &v, &n, &e), 0);
	assert_int_equal(n, 2);
	assert_entry(&v[1], "page_size", "4096");
	manifest_free_entries(v, n);
}

static void test_manifest_empty(void **state)
{
	struct manifest_entry *v;
	size_t n;
	struct parse_error e;

	assert_int_equal(manifest("", &v, &n, &e), 0);
	assert_int_equal(n, 0);
	manifest_free_entries(v, n);
	assert_int_equal(manifest("# only a comment\n\n", &v, &n, &e), 0);
	assert_int_equal(n, 0);
	manifest_free_entries(v, n);
}

static void test_manifest_line_without_equals(void **state)
{
	struct manifest_entry *v;
	size_t n;
	struct parse_error e;

	assert_int_equal(manifest("arch=armv7l\n"
				  "# fine\n"
				  "\n"
				  "page_size 4096\n"
				  "kernel_release=3.3\n",
				  &v, &n, &e),
			 -EBADMSG);
	assert_int_equal(e.line, 4);
	assert_non_null(e.what);
	assert_null(v); /* nothing handed out on failure */

	assert_int_equal(manifest("=value\n", &v, &n, &e), -EBADMSG);
	assert_int_equal(e.line, 1);
	assert_null(v);
}

/* complete= decides; without it, manifest_version= says the MANIFEST was cut short. */
static void assert_complete(const char *text, bool want, const char *want_why)
{
	struct manifest_entry *v;
	size_t n;
	struct parse_error e;
	const char *why = "untouched";

	assert_int_equal(manifest(text, &v, &n, &e), 0);
	assert_int_equal(manifest_complete(v, n, &why), want);
	if (want_why)
		assert_string_equal(why, want_why);
	else if (want)
		assert_string_equal(why, "untouched");
	manifest_free_entries(v, n);
}

static void test_manifest_complete(void **state)
{
	/* before manifest_version 2, and hand-made fixture trees: complete */
	assert_complete("arch=x86_64\npage_size=4096\n", true, NULL);
	assert_complete("", true, NULL);
	assert_complete("manifest_version=2\narch=x86_64\ncomplete=1\n", true, NULL);
	/* a writer that knows the key lost its last line */
	assert_complete("manifest_version=2\narch=x86_64\nerror.proc/iomem=EACCES\n", false,
			"MANIFEST has manifest_version but no complete=1: it was cut short");
	assert_complete("manifest_version=3\n", false, NULL);
	/* complete=0 anywhere, or anything but 1, says incomplete; incomplete_reason says why */
	assert_complete("arch=x86_64\ncomplete=0\n", false, "MANIFEST says complete=0");
	assert_complete("manifest_version=2\nincomplete_reason=interrupted by SIGINT\ncomplete=0\n",
			false, "interrupted by SIGINT");
	assert_complete("complete=yes\n", false, NULL);
	assert_complete("complete=1\ncomplete=0\n", false, NULL);
	assert_complete("complete=0\ncomplete=1\n", false, NULL);
	assert_complete("manifest_version=2\nincomplete_reason=\ncomplete=0\n", false,
			"MANIFEST says complete=0");
}

static void test_manifest_many_lines(void **state)
{
	/* a capture's MANIFEST can hold 100,000 error lines: all of them come back */
	size_t lines = 100000, len = 0;
	char *text = malloc(lines * 64);
	struct manifest_entry *v;
	size_t n;
	struct parse_error e = { 0 };

	assert_non_null(text);
	for (size_t i = 0; i < lines; i++)
		len += (size_t)sprintf(text + len, "error.sys/bus/pci/devices/%06zu/vendor=EISDIR\n", i);
	assert_int_equal(manifest_parse(text, len, &v, &n, &e), 0);
	assert_int_equal(n, lines);
	assert_entry(&v[lines - 1], "error.sys/bus/pci/devices/099999/vendor", "EISDIR");
	manifest_free_entries(v, n);
	free(text);
}

static void test_manifest_binary(void **state)
{
	static const char text[] = "arch=armv7l\n\0page_size=4096\n";
	struct manifest_entry *v = NULL;
	size_t n = 0;
	struct parse_error e = { 0 };

	assert_int_equal(manifest_parse(text, sizeof(text) - 1, &v, &n, &e), -EBADMSG);
	assert_non_null(e.what);
	assert_null(v);
}

/* ---- PCI uevent ---- */

/* A real one (drivers/pci/pci-driver.c pci_uevent), this machine's virtio-blk. */
static const char uevent[] = "DRIVER=virtio-pci\nPCI_CLASS=10000\nPCI_ID=1AF4:1001\n"
			     "PCI_SUBSYS_ID=1AF4:0002\nPCI_SLOT_NAME=0000:00:05.0\n"
			     "MODALIAS=pci:v00001AF4d00001001sv00001AF4sd00000002bc01sc00i00\n";

static void test_uevent_ids(void **state)
{
	struct pci_uevent u;

	(void)state;
	assert_int_equal(pci_uevent_parse(uevent, sizeof(uevent) - 1, &u), 1);
	assert_int_equal(u.vendor, 0x1af4);
	assert_int_equal(u.device_id, 0x1001);
	assert_int_equal(u.subsys_vendor, 0x1af4);
	assert_int_equal(u.subsys_device, 0x0002);
	assert_int_equal(u.class_code, 0x010000);
	assert_int_equal(u.modalias_len, strlen("pci:v00001AF4d00001001sv00001AF4sd00000002bc01sc00i00"));
	assert_memory_equal(u.modalias, "pci:v00001AF4d", 14);
}

static void test_uevent_incomplete(void **state)
{
	static const char no_subsys[] = "PCI_CLASS=10000\nPCI_ID=1AF4:1001\n";
	static const char wide_id[] = "PCI_CLASS=10000\nPCI_ID=11AF4:1001\nPCI_SUBSYS_ID=1AF4:0002\n";
	static const char wide_class[] = "PCI_CLASS=1000000\nPCI_ID=1AF4:1001\nPCI_SUBSYS_ID=1AF4:0002\n";
	static const char no_colon[] = "PCI_CLASS=10000\nPCI_ID=1AF41001\nPCI_SUBSYS_ID=1AF4:0002\n";
	static const char binary[] = "PCI_CLASS=10000\nPCI_ID=1AF4:1001\0\nPCI_SUBSYS_ID=1AF4:0002\n";
	struct pci_uevent u;

	(void)state;
	/* 0: the reader falls back to the attribute files */
	assert_int_equal(pci_uevent_parse(no_subsys, sizeof(no_subsys) - 1, &u), 0);
	assert_int_equal(pci_uevent_parse(wide_id, sizeof(wide_id) - 1, &u), 0);
	assert_int_equal(pci_uevent_parse(wide_class, sizeof(wide_class) - 1, &u), 0);
	assert_int_equal(pci_uevent_parse(no_colon, sizeof(no_colon) - 1, &u), 0);
	assert_int_equal(pci_uevent_parse(binary, sizeof(binary) - 1, &u), -EBADMSG);
	assert_int_equal(pci_uevent_parse("", 0, &u), 0);
}

/* ---- udev properties of a snapshot ---- */

static void test_udev_props_round_trip(void **state)
{
	static const char text[] = "ID_PATH=pci-0000:00:05.0\nUNKNOWN=x\nID_SERIAL=\n"
				   "ID_MODEL_FROM_DATABASE=Virtio block device\nID_PATH=pci-0000:00:06.0\n"
				   "no equals sign\n";
	struct udev_props u = { 0 }, again = { 0 };
	char *out = NULL;

	(void)state;
	assert_int_equal(udev_props_parse(text, sizeof(text) - 1, &u), 0);
	assert_string_equal(u.id_path, "pci-0000:00:06.0"); /* the last one wins */
	assert_string_equal(u.model_db, "Virtio block device");
	assert_null(u.serial); /* an empty value is none */
	assert_null(u.vendor_db);
	assert_int_equal(udev_props_format(&u, &out), 0);
	assert_int_equal(udev_props_parse(out, strlen(out), &again), 0);
	assert_string_equal(again.id_path, u.id_path);
	assert_string_equal(again.model_db, u.model_db);
	free(out);
	udev_props_done(&u);
	udev_props_done(&again);
}

static void test_udev_props_binary(void **state)
{
	static const char text[] = "ID_PATH=pci\0-0000:00:05.0\n";
	struct udev_props u = { 0 };

	(void)state;
	assert_int_equal(udev_props_parse(text, sizeof(text) - 1, &u), -EBADMSG);
	/* no final newline: the last line still counts */
	assert_int_equal(udev_props_parse("ID_SERIAL=QM00001", 17, &u), 0);
	assert_string_equal(u.serial, "QM00001");
	udev_props_done(&u);
}

/* ---- debugfs swiotlb counter, cpuinfo flags ---- */

static void test_swiotlb_counter(void **state)
{
	uint64_t v = 0;

	(void)state;
	assert_int_equal(swiotlb_parse_counter("32768\n", 6, &v), 0);
	assert_int_equal(v, 32768);
	assert_int_equal(swiotlb_parse_counter("18446744073709551615\n", 21, &v), 0);
	assert_int_equal(v, UINT64_MAX);
	assert_int_equal(swiotlb_parse_counter("18446744073709551616\n", 21, &v), -EBADMSG);
	assert_int_equal(swiotlb_parse_counter("-1\n", 3, &v), -EBADMSG);
	assert_int_equal(swiotlb_parse_counter("\n", 1, &v), -EBADMSG);
	assert_int_equal(swiotlb_parse_counter("12 34\n", 6, &v), -EBADMSG);
}

static void test_cpuinfo_flag(void **state)
{
	static const char text[] = "processor\t: 0\nflags\t\t: fpu vme tdx_guest_x hypervisor\n"
				   "bugs\t\t: tdx_guest\nflags\t: sse tdx_guest\n";

	(void)state;
	/* a whole word of a "flags" line: not a prefix, not another key's value */
	assert_true(cpuinfo_has_flag(text, sizeof(text) - 1, "tdx_guest"));
	assert_false(cpuinfo_has_flag(text, 60, "tdx_guest"));
	assert_true(cpuinfo_has_flag(text, sizeof(text) - 1, "hypervisor"));
	assert_false(cpuinfo_has_flag(text, sizeof(text) - 1, "tdx"));
	assert_false(cpuinfo_has_flag("flagsx : tdx_guest\n", 19, "tdx_guest"));
}

/* ---- the stable release behind an ABI name ---- */

static const char *stable(const char *text, const char *release)
{
	static char out[64];
	char *v = NULL;
	int r = stable_release_parse(text, strlen(text), release, &v);

	if (r < 0)
		return r == -ENOENT ? "ENOENT" : "error";
	snprintf(out, sizeof(out), "%s", v);
	free(v);
	return out;
}

static void test_stable_release(void **state)
{
	(void)state;
	/* Debian bullseye's proc/version (the armmp guest, 5.10.0-32) */
	assert_string_equal(stable("Linux version 5.10.0-32-armmp (debian-kernel@lists.debian.org) "
				   "(gcc-10 (Debian 10.2.1-6) 10.2.1 20210110, GNU ld (GNU Binutils "
				   "for Debian) 2.35.2) #1 SMP Debian 5.10.223-1 (2024-08-10)\n",
				   "5.10.0-32-armmp"),
			    "5.10.223");
	/* a backport: "~bpo12+1" */
	assert_string_equal(stable("Linux version 6.12.6+bpo-amd64 #1 SMP Debian 6.12.6-1~bpo12+1 (x)\n",
				   "6.12.0-0-amd64"),
			    "6.12.6");
	/* Ubuntu: version_signature's last word; its "Ubuntu 5.15.0-91..." is the ABI again */
	assert_string_equal(stable("Ubuntu 5.15.0-91.101-generic 5.15.131\n", "5.15.0-91-generic"),
			    "5.15.131");
	/* Ubuntu's proc/version names no stable release */
	assert_string_equal(stable("Linux version 5.15.0-91-generic (buildd@lcy02) (gcc (Ubuntu "
				   "11.4.0-1ubuntu1~22.04) 11.4.0) #101-Ubuntu SMP Tue Nov 14 2023\n",
				   "5.15.0-91-generic"),
			    "ENOENT");
	/* another series is not this kernel's: gcc's "Debian 10.2.1" */
	assert_string_equal(stable("(gcc-10 (Debian 10.2.1-6) 10.2.1)\n", "5.10.0-32-amd64"), "ENOENT");
	assert_string_equal(stable("#1 SMP Debian 5.10.\n", "5.10.0-32-amd64"), "ENOENT");
	assert_string_equal(stable("#1 SMP Debian 5.10.223.4-1\n", "5.10.0-32-amd64"), "ENOENT");
	assert_string_equal(stable("", "5.10.0-32-amd64"), "ENOENT");
	assert_string_equal(stable("Debian 5.10.223", NULL), "ENOENT");
	/* binary content is not a version file */
	static const char bin[] = "#1 SMP Debian 5.10.2\0x";
	char *v = NULL;
	assert_int_equal(stable_release_parse(bin, sizeof(bin) - 1, "5.10.0-1-amd64", &v), -EBADMSG);
	assert_null(v);
}

/* ---- ACPI IORT ---- */

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

/* A table of a named component "\_SB_.SAT0" (40 bits) and a root complex (revision rc_rev, 32 bits). */
static size_t iort_sample(unsigned char *b, int rc_rev)
{
	size_t off = 48;

	memset(b, 0, 256);
	memcpy(b, "IORT", 4);
	put32(b + 36, 2);
	put32(b + 40, 48);
	unsigned char *nc = b + off; /* 16 header + 13 data + "\_SB_.SAT0\0" (11) = 40 */
	nc[0] = 1;
	nc[1] = 40;
	nc[28] = 40;
	memcpy(nc + 29, "\\_SB_.SAT0", 11);
	off += 40;
	unsigned char *rc = b + off; /* 16 header + 20 data (revision 1) */
	rc[0] = 2;
	rc[1] = 36;
	rc[3] = (unsigned char)rc_rev;
	put32(rc + 28, 3);
	rc[32] = 32;
	off += 36;
	put32(b + 4, (uint32_t)off);
	return off;
}

static void test_iort(void **state)
{
	unsigned char b[256];
	struct iort_node *v = NULL;
	struct parse_error e = { 0 };
	size_t n = 0, len;

	(void)state;
	len = iort_sample(b, 1);
	assert_int_equal(iort_parse(b, len, &v, &n, &e), 0);
	assert_int_equal(n, 2);
	assert_int_equal(v[0].type, IORT_NODE_NAMED_COMPONENT);
	assert_string_equal(v[0].name, "\\_SB_.SAT0");
	assert_int_equal(v[0].limit_bits, 40);
	assert_int_equal(v[1].type, IORT_NODE_ROOT_COMPLEX);
	assert_int_equal(v[1].segment, 3);
	assert_int_equal(v[1].limit_bits, 32);
	iort_nodes_free(v, n);

	/* rc_dma_get_range(): a root complex of revision 0 has no limit */
	len = iort_sample(b, 0);
	assert_int_equal(iort_parse(b, len, &v, &n, &e), 0);
	assert_int_equal(v[1].limit_bits, 0);
	iort_nodes_free(v, n);

	/* bad tables: one clear reason each, nothing returned */
	static const struct {
		size_t at, cut;
		unsigned char byte;
		const char *why;
	} bad[] = {
		{ 0, 0, 'X', "signature" },            /* not IORT */
		{ 4, 0, 0xff, "beyond the file" },     /* table length past the file */
		{ 89, 0, 0, "node length" },           /* the named component's length 0 */
		{ 40, 0, 0xf0, "beyond the table" },   /* node_offset past the end */
		{ 40, 0, 10, "header" },               /* node_offset 10: inside the header (a fuzzer's) */
		{ 0, 100, 0, "beyond the file" },      /* the file cut inside the root complex */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		len = iort_sample(b, 1);
		if (bad[i].cut)
			len = bad[i].cut;
		else if (bad[i].at == 89)
			b[48 + 1] = 0;
		else
			b[bad[i].at] = bad[i].byte;
		v = NULL;
		e = (struct parse_error){ 0 };
		assert_int_equal(iort_parse(b, len, &v, &n, &e), -EBADMSG);
		assert_null(v);
		if (!strstr(e.what, bad[i].why))
			fail_msg("case %zu: \"%s\" lacks \"%s\"", i, e.what, bad[i].why);
	}
	/* a name with no NUL inside its node */
	len = iort_sample(b, 1);
	memset(b + 48 + 29, 'A', 11);
	assert_int_equal(iort_parse(b, len, &v, &n, &e), -EBADMSG);
	assert_non_null(strstr(e.what, "name"));
	/* a count of nodes no table holds */
	len = iort_sample(b, 1);
	put32(b + 36, 1u << 30);
	assert_int_equal(iort_parse(b, len, &v, &n, &e), -EBADMSG);
	/* too short for a header */
	assert_int_equal(iort_parse("IORT", 4, &v, &n, &e), -EBADMSG);
}

/* ---- errno names: every errno keeps one, and reads back (MANIFEST error.<path>=NAME) ---- */

static void test_errno_names(void **state)
{
	(void)state;
	/* the run's own exhaustion, which the table once dropped (the capture lost them) */
	assert_string_equal(errno_name(EMFILE), "EMFILE");
	assert_string_equal(errno_name(-ENFILE), "ENFILE");
	assert_string_equal(errno_name(EOVERFLOW), "EOVERFLOW");
	assert_string_equal(errno_name(EBUSY), "EBUSY");
	for (int e = 1; e < 200; e++) {
		const char *n = errno_name(e);
		assert_non_null(n);
		assert_true(n[0] == 'E');
		assert_int_equal(errno_from_name(n), e);
	}
	/* one no libc names: the numeric form, read back */
	assert_string_equal(errno_name(4000), "E4000");
	assert_int_equal(errno_from_name("E4000"), 4000);
	assert_int_equal(errno_from_name("E0"), 0);
	assert_int_equal(errno_from_name("E4096"), 0);
	assert_int_equal(errno_from_name("E12x"), 0);
	assert_int_equal(errno_from_name("ENOTANERRNO"), 0);
	assert_int_equal(errno_from_name(""), 0);
	/* what a replay reproduces, and what tells of this run only */
	assert_true(errno_is_answer(ENOENT) && errno_is_answer(-EACCES) && errno_is_answer(EFBIG));
	assert_false(errno_is_answer(EMFILE) || errno_is_answer(EIO) || errno_is_answer(EBUSY));
	assert_true(errno_is_exhaustion(-EMFILE) && errno_is_exhaustion(ENFILE) && errno_is_exhaustion(ENOMEM));
	assert_false(errno_is_exhaustion(EACCES) || errno_is_exhaustion(EIO));
}

/* ---- sys/devices/system/cpu/possible ---- */

static void test_cpu_list(void **state)
{
	static const struct {
		const char *in;
		int r;
		unsigned n;
	} cases[] = {
		{ "0-63\n", 0, 64 },          /* a 64-CPU arm64 server */
		{ "0\n", 0, 1 },
		{ "0,2-5,7\n", 0, 6 },
		{ "0-3", 0, 4 },               /* no newline: a hand-made snapshot */
		{ "0-65535\n", 0, 65536 },
		{ "", -EINVAL, 0 },
		{ "\n", -EINVAL, 0 },
		{ "0-\n", -EINVAL, 0 },
		{ "-3\n", -EINVAL, 0 },
		{ "3-1\n", -EINVAL, 0 },       /* descending */
		{ "0-3,2-5\n", -EINVAL, 0 },   /* overlapping */
		{ "4,4\n", -EINVAL, 0 },
		{ "0,\n", -EINVAL, 0 },
		{ "0-3 \n", -EINVAL, 0 },
		{ "ff\n", -EINVAL, 0 },
		{ "0-65536\n", -ERANGE, 0 },
		{ "99999999999999999999\n", -ERANGE, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		unsigned n = 12345;
		int r = cpu_list_count(cases[i].in, strlen(cases[i].in), &n);
		if (r != cases[i].r)
			fail_msg("\"%s\": %d, want %d", cases[i].in, r, cases[i].r);
		assert_int_equal(n, cases[i].r == 0 ? cases[i].n : 12345u);
	}
}

/* ---- ACPI SRAT ---- */

/* An SRAT header (48 bytes) and memory affinity entries {base, length, flags}. */
static size_t srat_build(unsigned char *b, const uint64_t (*mem)[3], size_t n)
{
	size_t len = 48 + 40 * n;

	memset(b, 0, len);
	memcpy(b, "SRAT", 4);
	b[4] = (unsigned char)len;
	b[5] = (unsigned char)(len >> 8);
	for (size_t i = 0; i < n; i++) {
		unsigned char *e = b + 48 + 40 * i;
		e[0] = 1;
		e[1] = 40;
		for (int k = 0; k < 8; k++) {
			e[8 + k] = (unsigned char)(mem[i][0] >> (8 * k));
			e[16 + k] = (unsigned char)(mem[i][1] >> (8 * k));
		}
		e[28] = (unsigned char)mem[i][2];
	}
	return len;
}

static void test_srat(void **state)
{
	/* QEMU -m 2G,maxmem=10G: RAM below 640 KiB and 2 GiB, a hot-pluggable range (flags 3) */
	static const uint64_t qemu[][3] = {
		{ 0, 0xa0000, 1 }, { 0x100000, 0x7ff00000, 1 }, { 0x100000000, 0x180000000, 3 },
	};
	static const uint64_t disabled[][3] = { { 0, 0x80000000, 1 }, { 0x100000000, 0x100000000, 2 } };
	unsigned char b[48 + 40 * 4];
	uint64_t end = 1;
	(void)state;

	assert_int_equal(srat_parse(b, srat_build(b, qemu, 3), &end), 0);
	assert_int_equal(end, 0x280000000);
	/* a range not enabled raises nothing */
	assert_int_equal(srat_parse(b, srat_build(b, disabled, 2), &end), 0);
	assert_int_equal(end, 0x80000000);
	/* CPU entries only (type 0, 16 bytes): no memory range */
	size_t len = srat_build(b, NULL, 0);
	b[48] = 0;
	b[49] = 16;
	b[4] = 64;
	assert_int_equal(srat_parse(b, 64, &end), 0);
	assert_int_equal(end, 0);

	/* refused: each leaves *ret_end alone */
	end = 7;
	len = srat_build(b, qemu, 3);
	assert_int_equal(srat_parse(b, 47, &end), -EBADMSG);           /* shorter than the header */
	assert_int_equal(srat_parse(b, len - 1, &end), -EBADMSG);      /* its length past the data */
	b[0] = 'X';
	assert_int_equal(srat_parse(b, len, &end), -EBADMSG);          /* not "SRAT" */
	srat_build(b, qemu, 3);
	b[48 + 1] = 0;
	assert_int_equal(srat_parse(b, len, &end), -EBADMSG);          /* an entry of length 0 */
	srat_build(b, qemu, 3);
	b[48 + 40 + 1] = 200;
	assert_int_equal(srat_parse(b, len, &end), -EBADMSG);          /* an entry past the end */
	srat_build(b, qemu, 1);
	b[48 + 1] = 24;
	b[4] = 48 + 24;
	assert_int_equal(srat_parse(b, 48 + 24, &end), -EBADMSG);      /* a short memory entry */
	assert_int_equal(end, 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_meminfo_x86),
		cmocka_unit_test(test_meminfo_high_total),
		cmocka_unit_test(test_meminfo_high_total_zero),
		cmocka_unit_test(test_meminfo_minimal),
		cmocka_unit_test(test_meminfo_value_without_kb),
		cmocka_unit_test(test_meminfo_bad_number),
		cmocka_unit_test(test_meminfo_missing_mem_total),
		cmocka_unit_test(test_meminfo_overflow),
		cmocka_unit_test(test_meminfo_malformed),
		cmocka_unit_test(test_cmdline_trailing_newline),
		cmocka_unit_test(test_cmdline_empty),
		cmocka_unit_test(test_cmdline_nul),
		cmocka_unit_test(test_cmdline_two_lines),
		cmocka_unit_test(test_cmdline_respects_len),
		cmocka_unit_test(test_manifest_basic),
		cmocka_unit_test(test_manifest_no_final_newline),
		cmocka_unit_test(test_manifest_empty),
		cmocka_unit_test(test_manifest_line_without_equals),
		cmocka_unit_test(test_manifest_binary),
		cmocka_unit_test(test_manifest_complete),
		cmocka_unit_test(test_manifest_many_lines),
		cmocka_unit_test(test_uevent_ids),
		cmocka_unit_test(test_uevent_incomplete),
		cmocka_unit_test(test_udev_props_round_trip),
		cmocka_unit_test(test_udev_props_binary),
		cmocka_unit_test(test_swiotlb_counter),
		cmocka_unit_test(test_cpuinfo_flag),
		cmocka_unit_test(test_stable_release),
		cmocka_unit_test(test_iort),
		cmocka_unit_test(test_errno_names),
		cmocka_unit_test(test_cpu_list),
		cmocka_unit_test(test_srat),
	};

	return cmocka_run_group_tests_name("small-parsers", tests, NULL, NULL);
}
