/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Directory handles (src/sysroot-dir.c), the one path resolver
 * (sysroot_realpath, sysroot_link_resolve) and DMAMASK_DEBUG parsing. Every
 * handle test runs twice: with openat2(RESOLVE_IN_ROOT) and with the
 * hand-written walk.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "shared/debug.h"
#include "fake-root.h"
#include "sysroot/sysroot.h"

/* Flags every sysroot of the running group is opened with. */
static unsigned group_flags;

struct state {
	struct fake_root f;
	struct sysroot *sr;
};

/*
 * The tree: a sysfs-like device reached through a bus link, a root-escaping
 * link or two, a FIFO, a file where a directory is expected.
 */
static int setup(void **ptr)
{
	struct state *s = calloc(1, sizeof(*s));

	if (!s)
		return -1;
	fx_init(&s->f);
	fx_file(&s->f, "sys/devices/pci0000:00/0000:00:02.0/dma_mask_bits", "64\n");
	fx_file(&s->f, "sys/devices/pci0000:00/0000:00:02.0/numa_node", "-1\n");
	fx_file(&s->f, "sys/devices/pci0000:00/0000:00:02.0/vendor", "0x8086\n");
	fx_file(&s->f, "sys/devices/pci0000:00/0000:00:02.0/bad", "sixty-four\n");
	fx_file(&s->f, "sys/devices/pci0000:00/0000:00:02.0/big", "65\n");
	fx_file(&s->f, "sys/devices/pci0000:00/0000:00:02.0/empty", "\n");
	fx_file_n(&s->f, "sys/devices/pci0000:00/0000:00:02.0/binary", "a\0b\n", 4);
	fx_file(&s->f, "sys/devices/pci0000:00/0000:00:02.0/queue/depth", "32\n");
	fx_link(&s->f, "sys/devices/pci0000:00/0000:00:02.0/driver", "../../../bus/pci/drivers/nvme");
	fx_link(&s->f, "sys/devices/pci0000:00/0000:00:02.0/abs", "/etc/hostname");
	fx_dir(&s->f, "sys/bus/pci/drivers/nvme");
	fx_link(&s->f, "sys/bus/pci/devices/0000:00:02.0", "../../../devices/pci0000:00/0000:00:02.0");
	fx_file(&s->f, "etc/hostname", "inside\n");
	fx_link(&s->f, "up", "../../../../../..");
	fx_link(&s->f, "host-var", "/var");
	fx_link(&s->f, "loop", "loop");
	fx_file(&s->f, "plain", "not a directory\n");
	/* below the sys and proc anchors: links that leave them, and an anchor that is a link */
	fx_link(&s->f, "sys/abs-dir", "/etc");
	fx_link(&s->f, "sys/up-dir", "../etc");
	fx_link(&s->f, "sys/far/deep", "../../etc");
	fx_link(&s->f, "proc", "sys/devices");
	char fifo[PATH_MAX];
	snprintf(fifo, sizeof(fifo), "%s/sys/fifo", s->f.root);
	assert_int_equal(mkfifo(fifo, 0644), 0);
	assert_int_equal(sysroot_open(s->f.root, group_flags, &s->sr), 0);
	*ptr = s;
	return 0;
}

static int teardown(void **ptr)
{
	struct state *s = *ptr;

	sysroot_free(s->sr);
	fx_done(&s->f);
	free(s);
	return 0;
}

#define DEV "sys/bus/pci/devices/0000:00:02.0"

static void test_reads(void **ptr)
{
	struct state *s = *ptr;
	struct sysroot_dir *d = NULL;
	char *str = NULL;
	int64_t v = 0;
	size_t len = 0;

	assert_int_equal(sysroot_dir_open(s->sr, &d, "sys/bus/pci/devices/%s", "0000:00:02.0"), 0);
	assert_string_equal(sysroot_dir_path(d), DEV);
	assert_int_equal(sysroot_dir_read_int(d, "dma_mask_bits", 10, 0, 64, &v), 0);
	assert_int_equal(v, 64);
	assert_int_equal(sysroot_dir_read_int(d, "numa_node", 10, -1, 65535, &v), 0);
	assert_int_equal(v, -1);
	assert_int_equal(sysroot_dir_read_int(d, "vendor", 16, 0, 0xffff, &v), 0);
	assert_int_equal(v, 0x8086);
	assert_int_equal(sysroot_dir_read_string(d, "vendor", &str), 0);
	assert_string_equal(str, "0x8086");
	free(str);
	assert_int_equal(sysroot_dir_read_file(d, "dma_mask_bits", 16, &str, &len), 0);
	assert_string_equal(str, "64\n");
	assert_int_equal(len, 3);
	free(str);
	/* a name with '/' is read too, resolved from the root */
	assert_int_equal(sysroot_dir_read_int(d, "queue/depth", 10, 0, 100, &v), 0);
	assert_int_equal(v, 32);
	/* an absolute link in the directory leads to the root's file, not the host's */
	assert_int_equal(sysroot_dir_read_string(d, "abs", &str), 0);
	assert_string_equal(str, "inside");
	free(str);
	sysroot_dir_free(d);
}

/*
 * A directory below a top directory (sys, proc) is found from that anchor
 * when it can be (sysroot-dir.c anchored); what it finds must be what the
 * resolution from the root finds, which the walk group checks by itself.
 */
static void anchor_read(struct sysroot *sr, const char *dir, const char *name, int want_r,
			const char *want)
{
	struct sysroot_dir *d = NULL;
	char *str = NULL;

	assert_int_equal(sysroot_dir_new(sr, &d, "%s", dir), 0);
	int r = sysroot_dir_read_string(d, name, &str);
	if (r != want_r)
		fail_msg("%s/%s: %d, not %d", dir, name, r, want_r);
	if (want)
		assert_string_equal(str, want);
	free(str);
	sysroot_dir_free(d);
}

static void test_anchored(void **ptr)
{
	struct state *s = *ptr;

	anchor_read(s->sr, "sys/bus/pci/devices/0000:00:02.0", "vendor", 0, "0x8086");
	anchor_read(s->sr, "sys/bus/pci/devices/0000:00:02.0/queue", "depth", 0, "32");
	/* an absolute link is the root's, and ".." above sys stays in the root */
	anchor_read(s->sr, "sys/abs-dir", "hostname", 0, "inside");
	anchor_read(s->sr, "sys/up-dir", "hostname", 0, "inside");
	anchor_read(s->sr, "sys/far/deep", "hostname", 0, "inside");
	anchor_read(s->sr, "sys/nope", "x", -ENOENT, NULL);
	anchor_read(s->sr, "sys/devices/pci0000:00/0000:00:02.0/vendor", "x", -ENOTDIR, NULL);
	/* the anchor itself a link: proc -> sys/devices */
	anchor_read(s->sr, "proc/pci0000:00/0000:00:02.0", "vendor", 0, "0x8086");
	anchor_read(s->sr, "proc/pci0000:00/0000:00:02.0/abs", "x", -ENOTDIR, NULL);
	/* the file read after an anchored directory is the same as read by path */
	char *a = NULL, *b = NULL;
	assert_int_equal(sysroot_read_file(s->sr, "proc/pci0000:00/0000:00:02.0/numa_node", 64, &a, NULL), 0);
	struct sysroot_dir *d = NULL;
	assert_int_equal(sysroot_dir_new(s->sr, &d, "proc/pci0000:00/0000:00:02.0"), 0);
	assert_int_equal(sysroot_dir_read_file(d, "numa_node", 64, &b, NULL), 0);
	assert_string_equal(a, b);
	free(a);
	free(b);
	sysroot_dir_free(d);
}

static void test_bad_values(void **ptr)
{
	struct state *s = *ptr;
	_cleanup_sysroot_dir_ struct sysroot_dir *d = NULL;
	char *str = NULL;
	int64_t v = 7;

	assert_int_equal(sysroot_dir_open(s->sr, &d, DEV), 0);
	assert_int_equal(sysroot_dir_read_int(d, "bad", 10, 0, 64, &v), -EBADMSG);
	assert_int_equal(sysroot_dir_read_int(d, "big", 10, 0, 64, &v), -ERANGE);
	assert_int_equal(sysroot_dir_read_int(d, "binary", 10, 0, 64, &v), -EBADMSG);
	assert_int_equal(sysroot_dir_read_int(d, "missing", 10, 0, 64, &v), -ENOENT);
	assert_int_equal(v, 7); /* untouched on failure */
	assert_int_equal(sysroot_dir_read_string(d, "empty", &str), -EBADMSG);
	assert_int_equal(sysroot_dir_read_string(d, "binary", &str), -EBADMSG);
	assert_int_equal(sysroot_dir_read_string(d, "queue", &str), -EISDIR);
	assert_null(str);
	/* a file too large for the cap */
	assert_int_equal(sysroot_dir_read_file(d, "dma_mask_bits", 2, &str, NULL), -EFBIG);
	assert_null(str);
}

static void test_links_and_stat(void **ptr)
{
	struct state *s = *ptr;
	_cleanup_sysroot_dir_ struct sysroot_dir *bus = NULL, *dev = NULL;
	char *str = NULL;
	struct stat st;

	assert_int_equal(sysroot_dir_open(s->sr, &bus, "sys/bus/pci/devices"), 0);
	assert_int_equal(sysroot_dir_readlink(bus, "0000:00:02.0", &str), 0);
	assert_string_equal(str, "../../../devices/pci0000:00/0000:00:02.0");
	free(str);
	assert_int_equal(sysroot_dir_follow(bus, "0000:00:02.0", &str), 0);
	assert_string_equal(str, "sys/devices/pci0000:00/0000:00:02.0");
	free(str);
	str = NULL;
	assert_int_equal(sysroot_dir_readlink(bus, "missing", &str), -ENOENT);
	/* relative to the parent's path */
	assert_int_equal(sysroot_dir_open_at(bus, &dev, "%s/", "0000:00:02.0"), 0);
	assert_string_equal(sysroot_dir_path(dev), DEV);
	assert_int_equal(sysroot_dir_readlink(dev, "vendor", &str), -EINVAL); /* not a link */
	assert_int_equal(sysroot_dir_follow(dev, "vendor", &str), -EINVAL);
	assert_null(str);
	assert_int_equal(sysroot_dir_stat(dev, "queue", &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(sysroot_dir_stat(dev, "driver", &st), 0); /* followed */
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(sysroot_dir_stat(dev, "missing", &st), -ENOENT);
}

static void test_list(void **ptr)
{
	struct state *s = *ptr;
	_cleanup_sysroot_dir_ struct sysroot_dir *root = NULL, *missing = NULL;
	struct strv names = { 0 };

	/* "" and "/" are the root */
	assert_int_equal(sysroot_dir_open(s->sr, &root, "/"), 0);
	assert_string_equal(sysroot_dir_path(root), "");
	assert_int_equal(sysroot_dir_list(root, &names), 0);
	assert_int_equal(names.n, 7);
	assert_string_equal(names.v[0], "etc"); /* sorted */
	assert_string_equal(names.v[4], "proc");
	assert_string_equal(names.v[6], "up");
	strv_done(&names);
	assert_int_equal(sysroot_dir_new(s->sr, &missing, "nowhere"), 0);
	assert_int_equal(sysroot_dir_list(missing, &names), -ENOENT);
	assert_null(names.v);
}

/* No handle, no read leaves the root, whatever the path or the name says. */
static void test_escapes(void **ptr)
{
	struct state *s = *ptr;
	struct sysroot_dir *d = NULL;
	char *str = NULL;

	/* "up" climbs above the root: it stays at the root */
	assert_int_equal(sysroot_dir_open(s->sr, &d, "up"), 0);
	assert_int_equal(sysroot_dir_read_string(d, "etc/hostname", &str), 0);
	assert_string_equal(str, "inside");
	free(str);
	sysroot_dir_free(d);
	/* ".." in the path */
	assert_int_equal(sysroot_dir_open(s->sr, &d, "sys/../../../../etc"), 0);
	assert_int_equal(sysroot_dir_read_string(d, "hostname", &str), 0);
	assert_string_equal(str, "inside");
	free(str);
	sysroot_dir_free(d);
	/* ".." in a name */
	assert_int_equal(sysroot_dir_open(s->sr, &d, DEV), 0);
	assert_int_equal(sysroot_dir_read_string(d, "../../../../../../../../etc/hostname", &str), 0);
	assert_string_equal(str, "inside");
	free(str);
	str = NULL;
	assert_int_equal(sysroot_dir_read_string(d, "../../../../../../../../etc/passwd", &str),
			 -ENOENT);
	sysroot_dir_free(d);
	/* an absolute link to a directory the host has and the root lacks */
	d = NULL;
	assert_int_equal(sysroot_dir_open(s->sr, &d, "host-var"), -ENOENT);
	assert_int_equal(sysroot_dir_open(s->sr, &d, "loop"), -ELOOP);
	assert_null(d);
	assert_null(str);
}

static void test_bad_directories(void **ptr)
{
	struct state *s = *ptr;
	struct sysroot_dir *d = NULL;
	char *str = NULL, *big = malloc(PATH_MAX + 10);

	assert_non_null(big);
	memset(big, 'a', PATH_MAX + 9);
	big[PATH_MAX + 9] = '\0';
	assert_int_equal(sysroot_dir_open(s->sr, &d, "no/such/dir"), -ENOENT);
	assert_int_equal(sysroot_dir_open(s->sr, &d, "plain"), -ENOTDIR);
	assert_int_equal(sysroot_dir_open(s->sr, &d, "sys/fifo"), -ENOTDIR);
	assert_int_equal(sysroot_dir_open(s->sr, &d, "%s", big), -ENAMETOOLONG);
	assert_null(d);

	/* lazily: each read fails as a read of dir/name by path would */
	assert_int_equal(sysroot_dir_new(s->sr, &d, "no/such/dir"), 0);
	assert_int_equal(sysroot_dir_read_string(d, "x", &str), -ENOENT);
	sysroot_dir_free(d);
	assert_int_equal(sysroot_dir_new(s->sr, &d, "plain"), 0);
	assert_int_equal(sysroot_dir_read_string(d, "x", &str), -ENOTDIR);
	sysroot_dir_free(d);
	assert_int_equal(sysroot_dir_new(s->sr, &d, "%s", big), 0);
	assert_int_equal(sysroot_dir_read_string(d, "x", &str), -ENAMETOOLONG);
	sysroot_dir_free(d);
	/* a FIFO is never opened for reading */
	assert_int_equal(sysroot_dir_open(s->sr, &d, "sys"), 0);
	assert_int_equal(sysroot_dir_read_string(d, "fifo", &str), -EINVAL);
	sysroot_dir_free(d);
	assert_null(str);
	sysroot_dir_free(NULL);
	free(big);
}

/* A MANIFEST's error.<path>=ERRNO answers a read through a handle, by the read's whole path. */
static void test_recorded_error(void **ptr)
{
	struct state *s = *ptr;
	_cleanup_sysroot_dir_ struct sysroot_dir *d = NULL, *gone = NULL;
	char *str = NULL;

	assert_int_equal(sysroot_add_recorded_error(s->sr, DEV "/modalias", EACCES), 0);
	assert_int_equal(sysroot_add_recorded_error(s->sr, "gone/attr", EPERM), 0);
	assert_int_equal(sysroot_add_recorded_error(s->sr, "gone2", EIO), 0);
	assert_int_equal(sysroot_dir_open(s->sr, &d, DEV), 0);
	assert_int_equal(sysroot_dir_read_string(d, "modalias", &str), -EACCES);
	assert_int_equal(sysroot_dir_read_string(d, "other", &str), -ENOENT);
	assert_int_equal(sysroot_dir_new(s->sr, &gone, "gone"), 0);
	assert_int_equal(sysroot_dir_read_string(gone, "attr", &str), -EPERM);
	assert_int_equal(sysroot_dir_open(s->sr, &gone, "gone2"), -EIO);
	assert_null(str);
}

static int count_fds(void)
{
	struct strv names = { 0 };
	struct sysroot *proc;

	assert_int_equal(sysroot_open("/proc/self", 0, &proc), 0);
	assert_int_equal(sysroot_list_dir(proc, "fd", &names), 0);
	strv_done(&names);
	sysroot_free(proc);
	return (int)names.n;
}

static void test_no_fd_leak(void **ptr)
{
	struct state *s = *ptr;
	int before = count_fds();

	for (int i = 0; i < 3; i++) {
		_cleanup_sysroot_dir_ struct sysroot_dir *d = NULL, *lazy = NULL;
		char *str = NULL;
		assert_int_equal(sysroot_dir_open(s->sr, &d, DEV), 0);
		assert_int_equal(sysroot_dir_new(s->sr, &lazy, DEV), 0);
		assert_int_equal(sysroot_dir_read_string(lazy, "vendor", &str), 0);
		free(str);
	}
	assert_int_equal(count_fds(), before);
}

/* ---- the one resolver ---- */

static void test_realpath(void **ptr)
{
	struct state *s = *ptr;
	char *got = NULL;

	fx_dir(&s->f, "usr/lib/modules/6.1.0");
	fx_link(&s->f, "lib", "usr/lib");
	fx_link(&s->f, "usr/lib/modules/current", "/lib/modules/6.1.0"); /* absolute: from the root */
	fx_link(&s->f, "escape", "../../../../etc");

	assert_int_equal(sysroot_realpath(s->sr, "lib/modules/6.1.0", &got), 0);
	assert_string_equal(got, "usr/lib/modules/6.1.0");
	free(got);
	assert_int_equal(sysroot_realpath(s->sr, "lib/modules/current", &got), 0);
	assert_string_equal(got, "usr/lib/modules/6.1.0");
	free(got);
	assert_int_equal(sysroot_realpath(s->sr, "/lib/./modules/../modules/6.1.0/", &got), 0);
	assert_string_equal(got, "usr/lib/modules/6.1.0");
	free(got);
	assert_int_equal(sysroot_realpath(s->sr, DEV "/driver", &got), 0);
	assert_string_equal(got, "sys/bus/pci/drivers/nvme");
	free(got);
	/* "../" above the root stays inside: the root's own etc */
	assert_int_equal(sysroot_realpath(s->sr, "escape", &got), 0);
	assert_string_equal(got, "etc");
	free(got);
	got = NULL;
	assert_int_equal(sysroot_realpath(s->sr, "loop", &got), -ELOOP);
	assert_int_equal(sysroot_realpath(s->sr, "lib/modules/none", &got), -ENOENT);
	assert_int_equal(sysroot_realpath(s->sr, "host-var/lib", &got), -ENOENT);
	assert_null(got);
}

static void assert_resolves(const char *link, const char *target, const char *want)
{
	char *got = NULL;

	assert_int_equal(sysroot_link_resolve(link, target, &got), 0);
	assert_string_equal(got, want);
	free(got);
}

static void test_link_resolve(void **ptr)
{
	assert_resolves("sys/bus/pci/devices/0000:00:02.0",
			"../../../devices/pci0000:00/0000:00:02.0",
			"sys/devices/pci0000:00/0000:00:02.0");
	assert_resolves("sys/class/block/vda",
			"../../devices/pci0000:00/0000:00:02.0/virtio1/block/vda",
			"sys/devices/pci0000:00/0000:00:02.0/virtio1/block/vda");
	assert_resolves("sys/devices/platform/soc/fe340000.mmc/of_node",
			"../../../../firmware/devicetree/base/soc/mmc@fe340000",
			"sys/firmware/devicetree/base/soc/mmc@fe340000");
	/* "." and empty components vanish */
	assert_resolves("a/b/link", "./c//d/.", "a/b/c/d");
	/* ".." at the root stays at the root, as the kernel's walk does */
	assert_resolves("a/link", "../../../../x", "x");
	assert_resolves("a/link", "..", "");
	/* absolute targets start from the root, not from the host's "/" */
	assert_resolves("sys/class/block/vda", "/sys/devices/virtual/block/vda",
			"sys/devices/virtual/block/vda");
	assert_resolves("link", "/", "");
	assert_resolves("link", "target", "target");
	assert_resolves("x/link", "a/../../b", "b");

	char *got = NULL;
	assert_int_equal(sysroot_link_resolve("a/link", "", &got), -EINVAL);
	assert_null(got);
}

static void test_debug_parse(void **ptr)
{
	assert_int_equal(debug_parse(NULL), 0);
	assert_int_equal(debug_parse(""), 0);
	assert_int_equal(debug_parse("sysroot"), DEBUG_SYSROOT);
	assert_int_equal(debug_parse("all,sysroot,"), DEBUG_SYSROOT); /* unknown words ignored */
	assert_int_equal(debug_parse(",,sysroot"), DEBUG_SYSROOT);
	assert_int_equal(debug_parse("sysroots,sys"), 0);
	assert_int_equal(debug_parse("verdicts,readers"), DEBUG_VERDICTS | DEBUG_READERS);
	assert_int_equal(debug_parse("eras,sysroot,eras"), DEBUG_ERAS | DEBUG_SYSROOT);
	assert_int_equal(debug_parse("verdict,reader,era"), 0); /* whole words only */
}

#define T(t) cmocka_unit_test_setup_teardown(t, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_reads),	       T(test_bad_values),   T(test_links_and_stat),
		T(test_list),	       T(test_escapes),	     T(test_bad_directories),
		T(test_recorded_error), T(test_no_fd_leak),   T(test_realpath),
		T(test_anchored),
	};
	const struct CMUnitTest pure[] = {
		cmocka_unit_test(test_link_resolve),
		cmocka_unit_test(test_debug_parse),
	};
	int failed = 0;

	group_flags = 0;
	failed += cmocka_run_group_tests_name("sysroot-dir-openat2", tests, NULL, NULL);
	group_flags = SYSROOT_NO_OPENAT2;
	failed += cmocka_run_group_tests_name("sysroot-dir-walk", tests, NULL, NULL);
	failed += cmocka_run_group_tests_name("sysroot-paths", pure, NULL, NULL);
	return failed;
}
