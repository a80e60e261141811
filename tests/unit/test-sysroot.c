/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * src/sysroot.c against real directory trees made under /tmp. Every test runs
 * twice: with openat2(RESOLVE_IN_ROOT) and with the hand-written walk
 * (SYSROOT_NO_OPENAT2), which must behave the same.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include <cmocka.h>

#include "live-root.h"
#include "sysroot/sysroot.h"

/* Flags every sysroot of the running group is opened with. */
static unsigned group_flags;

struct fixture {
	char root[64];
	struct sysroot *sr;
};

static int rm_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	return remove(path);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	strcpy(f->root, "/tmp/dmamask-sysroot-XXXXXX");
	if (!mkdtemp(f->root)) {
		free(f);
		return -1;
	}
	if (sysroot_open(f->root, group_flags, &f->sr) < 0) {
		rmdir(f->root);
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	sysroot_free(f->sr);
	nftw(f->root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(f);
	return 0;
}

/* ---- building the tree ---- */

static void full_path(const struct fixture *f, const char *rel, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s/%s", f->root, rel);
	assert_true(n > 0 && (size_t)n < size);
}

/* mkdir -p of rel's parent directories. */
static void make_parents(const struct fixture *f, const char *rel)
{
	char p[PATH_MAX];

	full_path(f, rel, p, sizeof(p));
	for (char *s = p + strlen(f->root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		assert_true(mkdir(p, 0755) == 0 || errno == EEXIST);
		*s = '/';
	}
}

static void make_dir(const struct fixture *f, const char *rel)
{
	char p[PATH_MAX];

	make_parents(f, rel);
	full_path(f, rel, p, sizeof(p));
	assert_int_equal(mkdir(p, 0755), 0);
}

static void write_file_n(const struct fixture *f, const char *rel, const char *data, size_t len)
{
	char p[PATH_MAX];

	make_parents(f, rel);
	full_path(f, rel, p, sizeof(p));
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	while (len > 0) {
		ssize_t n = write(fd, data, len);
		assert_true(n > 0);
		data += n;
		len -= (size_t)n;
	}
	assert_int_equal(close(fd), 0);
}

static void write_file(const struct fixture *f, const char *rel, const char *data)
{
	write_file_n(f, rel, data, strlen(data));
}

static void make_link(const struct fixture *f, const char *rel, const char *target)
{
	char p[PATH_MAX];

	make_parents(f, rel);
	full_path(f, rel, p, sizeof(p));
	assert_int_equal(symlink(target, p), 0);
}

/* Read rel: 0 and its content in *ret, or the error. */
static int read_rel(struct fixture *f, const char *rel, char **ret)
{
	char sentinel;
	char *buf = &sentinel;
	size_t len = 12345;
	int r = sysroot_read_file(f->sr, rel, SYSROOT_READ_MAX, &buf, &len);

	if (r < 0) {
		/* outputs untouched on failure */
		assert_ptr_equal(buf, &sentinel);
		assert_int_equal(len, 12345);
		*ret = NULL;
		return r;
	}
	assert_non_null(buf);
	assert_int_equal(len, strlen(buf));
	*ret = buf;
	return 0;
}

/* Macros, so that a failure names the line of the case, not of a helper. */
#define assert_reads(f, rel, expected)                          \
	do {                                                    \
		char *s_;                                       \
		assert_int_equal(read_rel((f), (rel), &s_), 0); \
		assert_string_equal(s_, (expected));            \
		free(s_);                                       \
	} while (0)
#define assert_read_fails(f, rel, err)                            \
	do {                                                      \
		char *s_;                                         \
		int r_ = read_rel((f), (rel), &s_);               \
		free(s_); /* read when it should not have been */ \
		assert_int_equal(r_, (err));                      \
	} while (0)

/* ---- opening ---- */

struct probe_how {
	uint64_t flags, mode, resolve;
};

static bool kernel_has_openat2(void)
{
#ifdef SYS_openat2
	struct probe_how how = { .flags = O_PATH | O_CLOEXEC };
	long fd = syscall(SYS_openat2, AT_FDCWD, "/", &how, sizeof(how));
	if (fd >= 0)
		close((int)fd);
	return fd >= 0;
#else
	return false;
#endif
}

static void test_resolver(void **state)
{
	struct fixture *f = *state;

	if (group_flags & SYSROOT_NO_OPENAT2)
		assert_string_equal(sysroot_resolver(f->sr), "walk");
	else
		assert_string_equal(sysroot_resolver(f->sr), kernel_has_openat2() ? "openat2" : "walk");
}

static void test_path_and_live(void **state)
{
	struct fixture *f = *state;
	struct sysroot *live = NULL;

	assert_string_equal(sysroot_path(f->sr), f->root);
	assert_false(sysroot_is_live(f->sr));

	assert_int_equal(sysroot_open("/", group_flags, &live), 0);
	if (root_remapped())
		print_message("qemu-user remaps \"/\": a sysroot of / cannot be live here\n");
	else
		assert_true(sysroot_is_live(live));
	assert_string_equal(sysroot_path(live), "/");
	sysroot_free(live);
	sysroot_free(NULL);
}

static void test_open_missing(void **state)
{
	struct fixture *f = *state;
	char p[PATH_MAX];
	struct sysroot *sr = f->sr; /* must stay untouched */

	full_path(f, "nonexistent", p, sizeof(p));
	assert_int_equal(sysroot_open(p, group_flags, &sr), -ENOENT);
	assert_ptr_equal(sr, f->sr);
}

static void test_open_regular_file(void **state)
{
	struct fixture *f = *state;
	char p[PATH_MAX];
	struct sysroot *sr = NULL;

	write_file(f, "MANIFEST", "arch=x86_64\n");
	full_path(f, "MANIFEST", p, sizeof(p));
	assert_int_equal(sysroot_open(p, group_flags, &sr), -ENOTDIR);
	assert_null(sr);
}

static void test_open_through_symlink(void **state)
{
	struct fixture *f = *state;
	char p[PATH_MAX];
	struct sysroot *sr = NULL;

	make_dir(f, "snap");
	write_file(f, "snap/proc/cmdline", "quiet\n");
	make_link(f, "current", "snap");
	full_path(f, "current", p, sizeof(p));
	assert_int_equal(sysroot_open(p, group_flags, &sr), 0);
	char *buf = NULL;
	assert_int_equal(sysroot_read_file(sr, "proc/cmdline", 100, &buf, NULL), 0);
	assert_string_equal(buf, "quiet\n");
	free(buf);
	sysroot_free(sr);
}

/* ---- plain reads ---- */

static void test_read_regular(void **state)
{
	struct fixture *f = *state;

	write_file(f, "proc/iomem", "00001000-0009fbff : System RAM\n");
	assert_reads(f, "proc/iomem", "00001000-0009fbff : System RAM\n");
	assert_reads(f, "proc//iomem", "00001000-0009fbff : System RAM\n");
	assert_reads(f, "./proc/./iomem", "00001000-0009fbff : System RAM\n");
	/* An absolute path is taken relative to the root. */
	assert_reads(f, "/proc/iomem", "00001000-0009fbff : System RAM\n");
}

static void test_read_empty(void **state)
{
	struct fixture *f = *state;

	write_file(f, "proc/sys/kernel/empty", "");
	assert_reads(f, "proc/sys/kernel/empty", "");
}

static void test_read_binary_len(void **state)
{
	struct fixture *f = *state;
	static const char data[] = { 'a', '\0', 'b', '\n' };
	char *buf = NULL;
	size_t len = 0;

	write_file_n(f, "bin", data, sizeof(data));
	assert_int_equal(sysroot_read_file(f->sr, "bin", 100, &buf, &len), 0);
	assert_int_equal(len, 4);
	assert_memory_equal(buf, data, 4);
	assert_int_equal(buf[4], '\0'); /* NUL-terminated past the data */
	free(buf);
}

static void test_read_large(void **state)
{
	struct fixture *f = *state;
	size_t size = 300000;
	char *data = malloc(size + 1);
	char *buf = NULL;
	size_t len = 0;

	assert_non_null(data);
	for (size_t i = 0; i < size; i++)
		data[i] = (char)('a' + i % 23);
	data[size] = '\0';
	write_file_n(f, "proc/iomem", data, size);
	assert_int_equal(sysroot_read_file(f->sr, "proc/iomem", SYSROOT_READ_MAX, &buf, &len), 0);
	assert_int_equal(len, size);
	assert_memory_equal(buf, data, size);
	assert_int_equal(buf[size], '\0');
	free(buf);
	free(data);
}

static void check_cap(struct fixture *f, size_t size, size_t max, int expected)
{
	char *data = malloc(size ? size : 1);
	char *buf = NULL;
	size_t len = 0;

	assert_non_null(data);
	memset(data, 'x', size);
	write_file_n(f, "file", data, size);
	assert_int_equal(sysroot_read_file(f->sr, "file", max, &buf, &len), expected);
	if (expected == 0) {
		assert_int_equal(len, size);
		free(buf);
	} else {
		assert_null(buf);
	}
	free(data);
}

static void test_read_cap(void **state)
{
	struct fixture *f = *state;

	check_cap(f, 100, 100, 0);
	check_cap(f, 101, 100, -EFBIG);
	check_cap(f, 4096, 4096, 0);
	check_cap(f, 4097, 4096, -EFBIG);
	check_cap(f, 8192, 8192, 0);
	check_cap(f, 8193, 8192, -EFBIG);
	check_cap(f, 10000, 5000, -EFBIG);
	check_cap(f, 0, 0, 0);
	check_cap(f, 1, 0, -EFBIG);
	check_cap(f, SYSROOT_READ_MAX + 1, SYSROOT_READ_MAX, -EFBIG);
}

static void test_read_missing(void **state)
{
	struct fixture *f = *state;

	make_dir(f, "proc");
	assert_read_fails(f, "proc/iomem", -ENOENT);
	assert_read_fails(f, "sys/bus/pci/devices/x/dma_mask_bits", -ENOENT);
	assert_read_fails(f, "nothing", -ENOENT);
}

static void test_read_through_file(void **state)
{
	struct fixture *f = *state;

	write_file(f, "proc/iomem", "x\n");
	assert_read_fails(f, "proc/iomem/more", -ENOTDIR);
}

static void test_read_directory(void **state)
{
	struct fixture *f = *state;

	make_dir(f, "proc/sys");
	assert_read_fails(f, "proc/sys", -EISDIR);
	assert_read_fails(f, "proc", -EISDIR);
	assert_read_fails(f, ".", -EISDIR);
	assert_read_fails(f, "/", -EISDIR);
}

static void test_read_fifo(void **state)
{
	struct fixture *f = *state;
	char p[PATH_MAX];

	make_dir(f, "proc");
	full_path(f, "proc/iomem", p, sizeof(p));
	assert_int_equal(mkfifo(p, 0644), 0);
	make_link(f, "proc/link-to-fifo", "/proc/iomem");

	alarm(10); /* opening a FIFO without a writer would block: fail, don't hang */
	assert_read_fails(f, "proc/iomem", -EINVAL);
	assert_read_fails(f, "proc/link-to-fifo", -EINVAL);
	alarm(0);
}

static void test_read_socket(void **state)
{
	struct fixture *f = *state;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	make_dir(f, "run");
	full_path(f, "run/sock", sa.sun_path, sizeof(sa.sun_path));
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(s >= 0);
	assert_int_equal(bind(s, (struct sockaddr *)&sa, sizeof(sa)), 0);
	alarm(10);
	assert_read_fails(f, "run/sock", -EINVAL);
	alarm(0);
	close(s);
}

/* ---- sysroot_read_stream_deferred(): a long file in pieces ---- */

/* An eater that copies what it is given, using all but `leave` bytes (all when last). */
struct eaten {
	char *data;
	size_t len, leave, calls;
	int fail_at; /* the call that returns -EPROTO, 0 for none */
};

static ssize_t eat_copy(const char *buf, size_t len, bool last, void *userdata)
{
	struct eaten *e = userdata;

	if (++e->calls == (size_t)e->fail_at)
		return -EPROTO;
	size_t use = last || len < e->leave ? (last ? len : 0) : len - e->leave;
	char *nd = realloc(e->data, e->len + use + 1);
	assert_non_null(nd);
	e->data = nd;
	memcpy(e->data + e->len, buf, use);
	e->len += use;
	return (ssize_t)use;
}

static void test_read_stream(void **state)
{
	struct fixture *f = *state;
	size_t size = 300001, len = 0;
	char *data = malloc(size), *canon = (char *)"untouched", p[PATH_MAX];

	assert_non_null(data);
	for (size_t i = 0; i < size; i++)
		data[i] = (char)('a' + i % 23);
	write_file_n(f, "usr/share/misc/pci.ids", data, size);
	/* the eater gets every byte once, in order, whatever it leaves to the next piece */
	for (size_t leave = 0; leave < 16384; leave = leave * 3 + 1000) {
		struct eaten e = { .leave = leave };
		assert_int_equal(sysroot_read_stream_deferred(f->sr, "usr/share/misc/pci.ids", SIZE_MAX, eat_copy, &e,
							  &len, &canon),
				 0);
		assert_int_equal(len, size);
		assert_int_equal(e.len, size);
		assert_memory_equal(e.data, data, size);
		assert_true(e.calls >= size / 65536 + 2);
		assert_null(canon); /* no capture */
		free(e.data);
	}
	/* its error ends the read; so does the size cap; leaving too much is refused */
	struct eaten e = { .fail_at = 2 };
	assert_int_equal(sysroot_read_stream_deferred(f->sr, "usr/share/misc/pci.ids", SIZE_MAX, eat_copy, &e, &len,
						  &canon),
			 -EPROTO);
	assert_int_equal(e.calls, 2);
	free(e.data);
	e = (struct eaten){ 0 };
	assert_int_equal(sysroot_read_stream_deferred(f->sr, "usr/share/misc/pci.ids", size - 1, eat_copy, &e, &len,
						  &canon),
			 -EFBIG);
	assert_int_equal(e.calls, 0); /* said before any of it is eaten, as sysroot_read_file() says it */
	free(e.data);
	e = (struct eaten){ .leave = SYSROOT_STREAM_KEEP };
	assert_int_equal(sysroot_read_stream_deferred(f->sr, "usr/share/misc/pci.ids", SIZE_MAX, eat_copy, &e, &len,
						  &canon),
			 -ENOBUFS);
	free(e.data);
	/* an empty file: one call, last */
	write_file_n(f, "empty", "", 0);
	e = (struct eaten){ 0 };
	assert_int_equal(sysroot_read_stream_deferred(f->sr, "empty", SIZE_MAX, eat_copy, &e, &len, &canon), 0);
	assert_int_equal(e.calls, 1);
	assert_int_equal(len, 0);
	free(e.data);
	/* what sysroot_read_file() refuses, this refuses, without opening it for reading */
	make_dir(f, "dir");
	full_path(f, "fifo", p, sizeof(p));
	assert_int_equal(mkfifo(p, 0644), 0);
	alarm(10);
	e = (struct eaten){ 0 };
	assert_int_equal(sysroot_read_stream_deferred(f->sr, "fifo", SIZE_MAX, eat_copy, &e, &len, &canon), -EINVAL);
	assert_int_equal(sysroot_read_stream_deferred(f->sr, "dir", SIZE_MAX, eat_copy, &e, &len, &canon), -EISDIR);
	assert_int_equal(sysroot_read_stream_deferred(f->sr, "nothing", SIZE_MAX, eat_copy, &e, &len, &canon),
			 -ENOENT);
	assert_int_equal(sysroot_read_stream_deferred(f->sr, "../../etc/passwd", SIZE_MAX, eat_copy, &e, &len,
						  &canon),
			 -ENOENT);
	alarm(0);
	assert_int_equal(e.calls, 0);
	free(data);
}

static void test_name_too_long(void **state)
{
	struct fixture *f = *state;
	char name[NAME_MAX + 20];

	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	assert_read_fails(f, name, -ENAMETOOLONG);
}

/* ---- symlinks stay inside the root ---- */

static void test_absolute_symlink_inside_root(void **state)
{
	struct fixture *f = *state;

	write_file(f, "etc/hostname", "inside\n");
	make_link(f, "proc/sys/kernel/hostname", "/etc/hostname");
	assert_reads(f, "proc/sys/kernel/hostname", "inside\n");
}

static void test_absolute_symlink_no_escape(void **state)
{
	struct fixture *f = *state;

	/* The host has /etc/hostname; the root does not: must not read the host's. */
	assert_int_equal(access("/etc/hostname", R_OK), 0);
	make_link(f, "proc/sys/kernel/hostname", "/etc/hostname");
	assert_read_fails(f, "proc/sys/kernel/hostname", -ENOENT);
}

static void test_dotdot_symlink_no_escape(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(access("/etc/passwd", R_OK), 0);
	make_link(f, "sys/class/x/link", "../../../../etc/passwd");
	assert_read_fails(f, "sys/class/x/link", -ENOENT);
	/* ".." stops at the root: the link means ROOT/etc/passwd. */
	write_file(f, "etc/passwd", "root-inside\n");
	assert_reads(f, "sys/class/x/link", "root-inside\n");
}

static void test_dotdot_path_no_escape(void **state)
{
	struct fixture *f = *state;

	make_dir(f, "proc");
	assert_read_fails(f, "../../../../etc/passwd", -ENOENT);
	assert_read_fails(f, "proc/../../../../../etc/passwd", -ENOENT);
	write_file(f, "etc/passwd", "root-inside\n");
	assert_reads(f, "../../../../etc/passwd", "root-inside\n");
	assert_reads(f, "proc/../../../../../etc/passwd", "root-inside\n");
}

static void test_symlink_to_root(void **state)
{
	struct fixture *f = *state;

	write_file(f, "etc/x", "x\n");
	make_link(f, "r", "/");
	make_link(f, "up", "..");
	assert_reads(f, "r/r/r/etc/x", "x\n");
	assert_reads(f, "up/up/etc/x", "x\n");
	assert_reads(f, "r/../up/etc/x", "x\n");
}

static void test_relative_symlink_chain(void **state)
{
	struct fixture *f = *state;

	/* sysfs style: class links point into devices with "../../". */
	write_file(f, "sys/devices/pci0000:00/0000:00:01.0/dma_mask_bits", "64\n");
	make_link(f, "sys/bus/pci/devices/0000:00:01.0", "../../../devices/pci0000:00/0000:00:01.0");
	assert_reads(f, "sys/bus/pci/devices/0000:00:01.0/dma_mask_bits", "64\n");
	/* ".." after a followed link climbs from the target, as the kernel does. */
	write_file(f, "sys/devices/pci0000:00/uevent", "pci\n");
	assert_reads(f, "sys/bus/pci/devices/0000:00:01.0/../uevent", "pci\n");
}

static void test_absolute_dir_symlink_then_dotdot(void **state)
{
	struct fixture *f = *state;

	write_file(f, "x/f", "x-f\n");
	make_dir(f, "x/y");
	make_link(f, "a/link", "/x/y");
	assert_reads(f, "a/link/../f", "x-f\n");
}

static void test_link_chain_within_limit(void **state)
{
	struct fixture *f = *state;
	char name[32], target[32];

	write_file(f, "end", "end\n");
	make_link(f, "l0", "/end");
	for (int i = 1; i < 20; i++) {
		snprintf(name, sizeof(name), "l%d", i);
		snprintf(target, sizeof(target), "%sl%d", i % 2 ? "/" : "", i - 1);
		make_link(f, name, target);
	}
	assert_reads(f, "l19", "end\n");
}

static void test_link_limit(void **state)
{
	struct fixture *f = *state;
	char name[32], target[32];

	/* Linux follows at most 40 links in one lookup (MAXSYMLINKS): l39 takes 40, l40 41. */
	write_file(f, "end", "end\n");
	make_link(f, "l0", "/end");
	for (int i = 1; i <= 40; i++) {
		snprintf(name, sizeof(name), "l%d", i);
		snprintf(target, sizeof(target), "l%d", i - 1);
		make_link(f, name, target);
	}
	assert_reads(f, "l39", "end\n");
	assert_read_fails(f, "l40", -ELOOP);
}

static void test_symlink_loop(void **state)
{
	struct fixture *f = *state;

	make_link(f, "a", "b");
	make_link(f, "b", "/a");
	make_link(f, "self", "self");
	make_link(f, "dir/loop", "../dir/loop/x");
	assert_read_fails(f, "a", -ELOOP);
	assert_read_fails(f, "self", -ELOOP);
	assert_read_fails(f, "a/x", -ELOOP);
	assert_read_fails(f, "dir/loop", -ELOOP);
}

static void test_dangling_symlink(void **state)
{
	struct fixture *f = *state;

	make_link(f, "proc/dangling", "/nowhere/at/all");
	assert_read_fails(f, "proc/dangling", -ENOENT);
}

/* ---- readlink ---- */

static void assert_readlink(struct fixture *f, const char *rel, const char *expected)
{
	char *s = NULL;

	assert_int_equal(sysroot_readlink(f->sr, rel, &s), 0);
	assert_non_null(s);
	assert_string_equal(s, expected);
	free(s);
}

static void test_readlink(void **state)
{
	struct fixture *f = *state;
	char *s = NULL;

	make_link(f, "sys/devices/x/driver", "../../../bus/pci/drivers/nvme");
	make_link(f, "abs", "/etc/hostname");
	make_link(f, "loop", "loop");
	make_link(f, "sys/bus/pci/devices/x", "../../../devices/x");
	write_file(f, "regular", "r\n");

	assert_readlink(f, "sys/devices/x/driver", "../../../bus/pci/drivers/nvme");
	assert_readlink(f, "abs", "/etc/hostname"); /* verbatim, not resolved */
	assert_readlink(f, "loop", "loop");         /* the last component is not followed */
	/* Links before the last component are followed. */
	assert_readlink(f, "sys/bus/pci/devices/x/driver", "../../../bus/pci/drivers/nvme");

	assert_int_equal(sysroot_readlink(f->sr, "regular", &s), -EINVAL);
	assert_int_equal(sysroot_readlink(f->sr, "sys", &s), -EINVAL);
	assert_int_equal(sysroot_readlink(f->sr, "missing", &s), -ENOENT);
	assert_int_equal(sysroot_readlink(f->sr, "loop/x", &s), -ELOOP);
	assert_null(s);
}

/* ---- list_dir ---- */

static void test_list_dir_sorted(void **state)
{
	struct fixture *f = *state;
	static const char *const expected[] = { ".hidden", "0000:00:01.0", "Z", "a", "b", "c", "dir" };
	struct strv names = { 0 };

	write_file(f, "d/c", "");
	write_file(f, "d/a", "");
	write_file(f, "d/b", "");
	write_file(f, "d/.hidden", "");
	write_file(f, "d/Z", "");
	make_dir(f, "d/dir");
	make_link(f, "d/0000:00:01.0", "/nowhere");

	assert_int_equal(sysroot_list_dir(f->sr, "d", &names), 0);
	assert_int_equal(names.n, sizeof(expected) / sizeof(expected[0]));
	for (size_t i = 0; i < names.n; i++)
		assert_string_equal(names.v[i], expected[i]);
	strv_done(&names);
}

static void test_list_dir_many(void **state)
{
	struct fixture *f = *state;
	struct strv names = { 0 };
	char rel[32];

	for (int i = 99; i >= 0; i--) {
		snprintf(rel, sizeof(rel), "many/e%03d", i);
		write_file(f, rel, "");
	}
	assert_int_equal(sysroot_list_dir(f->sr, "many", &names), 0);
	assert_int_equal(names.n, 100);
	for (size_t i = 0; i < names.n; i++) {
		snprintf(rel, sizeof(rel), "e%03zu", i);
		assert_string_equal(names.v[i], rel);
	}
	strv_done(&names);
}

static void test_list_dir_empty_and_root(void **state)
{
	struct fixture *f = *state;
	struct strv names = { .n = 99 };

	make_dir(f, "empty");
	assert_int_equal(sysroot_list_dir(f->sr, "empty", &names), 0);
	assert_int_equal(names.n, 0);
	strv_done(&names);

	assert_int_equal(sysroot_list_dir(f->sr, "/", &names), 0);
	assert_int_equal(names.n, 1);
	assert_string_equal(names.v[0], "empty");
	strv_done(&names);
}

static void test_list_dir_through_symlink(void **state)
{
	struct fixture *f = *state;
	struct strv names = { 0 };

	write_file(f, "sys/devices/pci0000:00/0000:00:01.0/vendor", "0x8086\n");
	write_file(f, "sys/devices/pci0000:00/0000:00:01.0/device", "0x1234\n");
	make_link(f, "sys/bus/pci/devices/0000:00:01.0", "/sys/devices/pci0000:00/0000:00:01.0");
	assert_int_equal(sysroot_list_dir(f->sr, "sys/bus/pci/devices/0000:00:01.0", &names), 0);
	assert_int_equal(names.n, 2);
	assert_string_equal(names.v[0], "device");
	assert_string_equal(names.v[1], "vendor");
	strv_done(&names);

	/* A link out of the root lists the root's directory of that name, or nothing. */
	make_link(f, "escape", "../../../../../../etc");
	assert_int_equal(sysroot_list_dir(f->sr, "escape", &names), -ENOENT);
}

static void test_list_dir_errors(void **state)
{
	struct fixture *f = *state;
	char *untouched[1];
	struct strv names = { .v = untouched, .n = 77 };

	write_file(f, "file", "x");
	assert_int_equal(sysroot_list_dir(f->sr, "file", &names), -ENOTDIR);
	assert_int_equal(sysroot_list_dir(f->sr, "missing", &names), -ENOENT);
	make_link(f, "loop", "loop");
	assert_int_equal(sysroot_list_dir(f->sr, "loop", &names), -ELOOP);
	assert_ptr_equal(names.v, untouched);
	assert_int_equal(names.n, 77);
}

/* ---- stat ---- */

static void test_stat(void **state)
{
	struct fixture *f = *state;
	struct stat st;

	write_file(f, "proc/cmdline", "quiet\n");
	make_link(f, "link", "/proc/cmdline");
	assert_int_equal(sysroot_stat(f->sr, "proc/cmdline", &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_size, 6);
	assert_int_equal(sysroot_stat(f->sr, "link", &st), 0);
	assert_true(S_ISREG(st.st_mode)); /* followed */
	assert_int_equal(sysroot_stat(f->sr, "proc", &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(sysroot_stat(f->sr, "missing", &st), -ENOENT);
	make_link(f, "out", "/etc/hostname");
	assert_int_equal(sysroot_stat(f->sr, "out", &st), -ENOENT);
}

/* ---- recorded errors ---- */

static void test_recorded_error(void **state)
{
	struct fixture *f = *state;
	char *s = NULL;
	struct strv names = { 0 };
	struct stat st;

	write_file(f, "proc/present", "here\n");
	assert_int_equal(sysroot_add_recorded_error(f->sr, "proc/iomem", EACCES), 0);
	assert_int_equal(sysroot_add_recorded_error(f->sr, "/sys/kernel/debug", EPERM), 0);
	assert_int_equal(sysroot_add_recorded_error(f->sr, "proc/present", EACCES), 0);

	/* A read that finds nothing reports what capture saw. */
	assert_read_fails(f, "proc/iomem", -EACCES);
	assert_read_fails(f, "/proc/iomem", -EACCES);
	assert_int_equal(sysroot_list_dir(f->sr, "sys/kernel/debug", &names), -EPERM);
	assert_int_equal(sysroot_readlink(f->sr, "proc/iomem", &s), -EACCES);
	assert_int_equal(sysroot_stat(f->sr, "sys/kernel/debug", &st), -EPERM);
	/* Other paths are still just missing. */
	assert_read_fails(f, "proc/zoneinfo", -ENOENT);
	assert_read_fails(f, "proc/iomem2", -ENOENT);
	/* A file that is there is read, whatever was recorded. */
	assert_reads(f, "proc/present", "here\n");
	/* Only a positive errno can be recorded. */
	assert_int_equal(sysroot_add_recorded_error(f->sr, "proc/x", 0), -EINVAL);
	assert_int_equal(sysroot_add_recorded_error(f->sr, "proc/x", -EACCES), -EINVAL);
	assert_read_fails(f, "proc/x", -ENOENT);
}

/* ---- no descriptor is left open, whatever the outcome ---- */

static int count_fds(void)
{
	/* opendir's own descriptor is counted each time: the counts compare. */
	DIR *d = opendir("/proc/self/fd");
	int count = 0;

	assert_non_null(d);
	while (readdir(d))
		count++;
	closedir(d);
	return count;
}

static void test_no_fd_leak(void **state)
{
	struct fixture *f = *state;
	char *buf = NULL;
	struct strv names = { 0 };
	struct stat st;
	char p[PATH_MAX];

	write_file(f, "proc/iomem", "x\n");
	write_file(f, "big", "0123456789");
	make_dir(f, "dir/sub");
	make_link(f, "loop", "loop");
	make_link(f, "link", "/proc/iomem");
	full_path(f, "fifo", p, sizeof(p));
	assert_int_equal(mkfifo(p, 0644), 0);

	/* the layer keeps one O_PATH fd on the last directory it resolved (a cache):
	 * count after a first round has filled it, then no round may add any */
	int before = -1;
	for (int i = 0; i < 4; i++) {
		if (i == 1)
			before = count_fds();
		assert_int_equal(sysroot_read_file(f->sr, "link", 100, &buf, NULL), 0);
		free(buf);
		assert_int_equal(sysroot_read_file(f->sr, "big", 5, &buf, NULL), -EFBIG);
		assert_int_equal(sysroot_read_file(f->sr, "fifo", 5, &buf, NULL), -EINVAL);
		assert_int_equal(sysroot_read_file(f->sr, "dir", 5, &buf, NULL), -EISDIR);
		assert_int_equal(sysroot_read_file(f->sr, "loop", 5, &buf, NULL), -ELOOP);
		assert_int_equal(sysroot_read_file(f->sr, "proc/iomem/x", 5, &buf, NULL), -ENOTDIR);
		assert_int_equal(sysroot_read_file(f->sr, "dir/sub/../../nothing", 5, &buf, NULL),
				 -ENOENT);
		assert_int_equal(sysroot_readlink(f->sr, "link", &buf), 0);
		free(buf);
		assert_int_equal(sysroot_readlink(f->sr, "proc/iomem", &buf), -EINVAL);
		assert_int_equal(sysroot_list_dir(f->sr, "dir", &names), 0);
		strv_done(&names);
		assert_int_equal(sysroot_list_dir(f->sr, "big", &names), -ENOTDIR);
		assert_int_equal(sysroot_stat(f->sr, "dir/sub", &st), 0);
		assert_int_equal(sysroot_stat(f->sr, "loop", &st), -ELOOP);
	}
	assert_int_equal(count_fds(), before);
}

/* ---- the two resolvers agree on odd paths ---- */

static void test_trailing_slash(void **state)
{
	struct fixture *f = *state;
	struct strv names = { 0 };

	write_file(f, "proc/iomem", "x\n");
	write_file(f, "dir/a", "");
	/* "file/" names a directory that is not one. */
	assert_read_fails(f, "proc/iomem/", -ENOTDIR);
	assert_int_equal(sysroot_list_dir(f->sr, "dir/", &names), 0);
	assert_int_equal(names.n, 1);
	strv_done(&names);
}

static void test_empty_path(void **state)
{
	struct fixture *f = *state;

	/* As for open(""): no such file. */
	assert_read_fails(f, "", -ENOENT);
}

#define SYSROOT_TEST(t) cmocka_unit_test_setup_teardown(t, setup, teardown)

static const struct CMUnitTest tests[] = {
	SYSROOT_TEST(test_resolver),
	SYSROOT_TEST(test_path_and_live),
	SYSROOT_TEST(test_open_missing),
	SYSROOT_TEST(test_open_regular_file),
	SYSROOT_TEST(test_open_through_symlink),
	SYSROOT_TEST(test_read_regular),
	SYSROOT_TEST(test_read_empty),
	SYSROOT_TEST(test_read_binary_len),
	SYSROOT_TEST(test_read_large),
	SYSROOT_TEST(test_read_cap),
	SYSROOT_TEST(test_read_missing),
	SYSROOT_TEST(test_read_through_file),
	SYSROOT_TEST(test_read_directory),
	SYSROOT_TEST(test_read_fifo),
	SYSROOT_TEST(test_read_socket),
	SYSROOT_TEST(test_read_stream),
	SYSROOT_TEST(test_name_too_long),
	SYSROOT_TEST(test_absolute_symlink_inside_root),
	SYSROOT_TEST(test_absolute_symlink_no_escape),
	SYSROOT_TEST(test_dotdot_symlink_no_escape),
	SYSROOT_TEST(test_dotdot_path_no_escape),
	SYSROOT_TEST(test_symlink_to_root),
	SYSROOT_TEST(test_relative_symlink_chain),
	SYSROOT_TEST(test_absolute_dir_symlink_then_dotdot),
	SYSROOT_TEST(test_link_chain_within_limit),
	SYSROOT_TEST(test_link_limit),
	SYSROOT_TEST(test_symlink_loop),
	SYSROOT_TEST(test_dangling_symlink),
	SYSROOT_TEST(test_readlink),
	SYSROOT_TEST(test_list_dir_sorted),
	SYSROOT_TEST(test_list_dir_many),
	SYSROOT_TEST(test_list_dir_empty_and_root),
	SYSROOT_TEST(test_list_dir_through_symlink),
	SYSROOT_TEST(test_list_dir_errors),
	SYSROOT_TEST(test_stat),
	SYSROOT_TEST(test_recorded_error),
	SYSROOT_TEST(test_no_fd_leak),
	SYSROOT_TEST(test_trailing_slash),
	SYSROOT_TEST(test_empty_path),
};

int main(void)
{
	int failed = 0;

	print_message("resolver: openat2 (flags 0)\n");
	group_flags = 0;
	failed += cmocka_run_group_tests_name("sysroot-openat2", tests, NULL, NULL);
	print_message("resolver: hand-written walk (SYSROOT_NO_OPENAT2)\n");
	group_flags = SYSROOT_NO_OPENAT2;
	failed += cmocka_run_group_tests_name("sysroot-walk", tests, NULL, NULL);
	return failed;
}
