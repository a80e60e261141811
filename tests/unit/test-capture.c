/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * src/capture.c against real directories under /tmp: the lock, the MANIFEST
 * that says complete=0 until the end, the refusal to write through a symlink
 * planted in the capture, the error set and its bound, the reader accepting
 * what the writer wrote. Every test runs with openat2 and with the
 * component walk (CAPTURE_NO_OPENAT2).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "snapshot/capture.h"
#include "readers/readers.h"
#include "sysroot/sysroot.h"
#include "fake-root.h"

static unsigned group_flags;

struct fixture {
	char *base;    /* holds cap/ and outside/ */
	char cap[PATH_MAX];
	char outside[PATH_MAX];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	f->base = tmp_root_new();
	snprintf(f->cap, sizeof(f->cap), "%s/cap", f->base);
	snprintf(f->outside, sizeof(f->outside), "%s/outside", f->base);
	assert_int_equal(mkdir(f->outside, 0755), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	tmp_root_free(f->base);
	free(f);
	return 0;
}

static char *path_in(const char *dir, const char *rel)
{
	char *p;
	assert_true(asprintf(&p, "%s/%s", dir, rel) > 0);
	return p;
}

/* The whole file, NUL-terminated; NULL when it cannot be opened. */
static char *slurp(const char *dir, const char *rel, size_t *ret_len)
{
	char *p = path_in(dir, rel);
	FILE *f = fopen(p, "re");
	free(p);
	if (!f)
		return NULL;
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap + 1);
	size_t n;
	while ((n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap)
			buf = realloc(buf, (cap *= 2) + 1);
	}
	fclose(f);
	buf[len] = '\0';
	if (ret_len)
		*ret_len = len;
	return buf;
}

static bool exists(const char *dir, const char *rel)
{
	struct stat st;
	char *p = path_in(dir, rel);
	bool r = lstat(p, &st) == 0;
	free(p);
	return r;
}

static void free_entries(struct manifest_entry *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].key);
		free(v[i].value);
	}
	free(v);
}

/* MANIFEST read back the way a replay reads it: through a sysroot, capped at MANIFEST_MAX. */
static bool manifest_says_complete(const char *cap, const char **ret_why, char **ret_text)
{
	struct sysroot *sr;
	char *buf;
	size_t len, n;
	struct manifest_entry *v;
	struct parse_error e = { 0 };
	static char why[4096];
	const char *w = NULL;

	assert_int_equal(sysroot_open(cap, 0, &sr), 0);
	assert_int_equal(sysroot_read_file(sr, "MANIFEST", MANIFEST_MAX, &buf, &len), 0);
	sysroot_free(sr);
	assert_int_equal(manifest_parse(buf, len, &v, &n, &e), 0);
	bool complete = manifest_complete(v, n, &w);
	if (!complete) {
		snprintf(why, sizeof(why), "%s", w);
		*ret_why = why;
	}
	free_entries(v, n);
	if (ret_text)
		*ret_text = buf;
	else
		free(buf);
	return complete;
}

static const struct manifest_entry kv[] = {
	{ (char *)"arch", (char *)"x86_64" },
	{ (char *)"page_size", (char *)"4096" },
};

static struct capture *new_capture(const struct fixture *f)
{
	struct capture *c = NULL;

	assert_int_equal(capture_new(f->cap, group_flags, &c), 0);
	return c;
}

/* ---- a capture that finishes ---- */

static void test_complete(void **state)
{
	struct fixture *f = *state;
	struct capture *c = new_capture(f);
	const char *why = NULL;
	char *text;

	/* from the start, a MANIFEST that says the capture has not finished */
	assert_false(manifest_says_complete(f->cap, &why, NULL));
	assert_string_equal(why, "capture in progress, or stopped before it finished");

	if (!(group_flags & CAPTURE_NO_OPENAT2) && syscall(SYS_openat2, -1, "", NULL, 0) < 0 &&
	    errno != ENOSYS)
		assert_string_equal(capture_resolver(c), "openat2");
	else
		assert_string_equal(capture_resolver(c), "walk");

	assert_int_equal(capture_file(c, "proc/iomem", "00000000-00000fff : Reserved\n", 29), 0);
	assert_int_equal(capture_link(c, "sys/bus/pci/devices/0000:00:01.0",
				      "/sys/devices/pci0000:00/0000:00:01.0"), 0);
	assert_int_equal(capture_dir(c, "sys/devices/pci0000:00/0000:00:01.0"), 0);
	assert_int_equal(capture_placeholder(c, "dev/sev-guest"), 0);
	assert_int_equal(capture_error(c, "/proc/kcore", -EACCES), 0);
	assert_null(capture_incomplete_reason(c));
	assert_int_equal(capture_finish(c, kv, 2), 0);

	assert_true(manifest_says_complete(f->cap, &why, &text));
	assert_string_equal(text, "manifest_version=2\narch=x86_64\npage_size=4096\n"
				  "error.proc/kcore=EACCES\ncomplete=1\n");
	free(text);
	char *iomem = slurp(f->cap, "proc/iomem", NULL);
	assert_string_equal(iomem, "00000000-00000fff : Reserved\n");
	free(iomem);
	char target[PATH_MAX];
	char *l = path_in(f->cap, "sys/bus/pci/devices/0000:00:01.0");
	ssize_t n = readlink(l, target, sizeof(target) - 1);
	free(l);
	assert_true(n > 0);
	target[n] = '\0';
	assert_string_equal(target, "../../../../sys/devices/pci0000:00/0000:00:01.0");
	/* no temporaries, no lock file left */
	assert_false(exists(f->cap, ".MANIFEST.tmp"));
	assert_false(exists(f->cap, ".dmamask-audit.lock"));
	capture_free(c);
}

/* ---- two captures, one directory ---- */

static void test_not_empty(void **state)
{
	struct fixture *f = *state;
	struct capture *c = NULL;

	tmp_root_write_str(f->base, "cap/proc/iomem", "x\n");
	assert_int_equal(capture_new(f->cap, group_flags, &c), -ENOTEMPTY);
	assert_null(c);
	assert_false(exists(f->cap, "MANIFEST"));
}

static void test_locked(void **state)
{
	struct fixture *f = *state;
	struct capture *a = new_capture(f), *b = NULL;

	/* the second one fails at once, before it reads or writes anything */
	assert_int_equal(capture_new(f->cap, group_flags, &b), -EBUSY);
	assert_null(b);
	assert_int_equal(capture_file(a, "proc/cmdline", "quiet\n", 6), 0);
	assert_int_equal(capture_finish(a, kv, 1), 0);
	capture_free(a);
	/* unlocked, but no longer empty */
	assert_int_equal(capture_new(f->cap, group_flags, &b), -ENOTEMPTY);
}

/* Where flock() fails (NFS), an O_EXCL lock file, gone at the end however it ends. */
static void test_lock_file(void **state)
{
	struct fixture *f = *state;
	unsigned flags = group_flags | CAPTURE_NO_FLOCK;
	struct capture *a = NULL, *b = NULL;

	assert_int_equal(capture_new(f->cap, flags, &a), 0);
	assert_true(exists(f->cap, ".dmamask-audit.lock"));
	assert_int_equal(capture_new(f->cap, flags, &b), -EBUSY);
	assert_true(exists(f->cap, ".dmamask-audit.lock")); /* the loser leaves the winner's */
	assert_int_equal(capture_finish(a, kv, 1), 0);
	assert_false(exists(f->cap, ".dmamask-audit.lock"));
	capture_free(a);
	assert_int_equal(capture_new(f->cap, flags, &b), -ENOTEMPTY);
	assert_false(exists(f->cap, ".dmamask-audit.lock")); /* nor its own */

	/* a fresh directory: the end by a signal */
	tmp_root_free(f->base);
	free(f);
	assert_int_equal(setup(state), 0);
	f = *state;
	assert_int_equal(capture_new(f->cap, flags, &a), 0);
	capture_interrupt(a, "SIGTERM");
	assert_false(exists(f->cap, ".dmamask-audit.lock"));
	capture_free(a);
}

/* ---- no write through a symlink in the capture ---- */

static void test_planted_directory_link(void **state)
{
	struct fixture *f = *state;
	struct capture *c = new_capture(f);
	char *link = path_in(f->cap, "sys");
	const char *why = NULL;

	/* a directory of the capture turned into a link to outside it */
	assert_int_equal(symlink(f->outside, link), 0);
	free(link);
	assert_int_equal(capture_file(c, "sys/devices/x/vendor", "0x8086\n", 7), -ELOOP);
	assert_int_equal(capture_file(c, "sys/vendor", "0x8086\n", 7), -ELOOP);
	assert_int_equal(capture_dir(c, "sys/devices"), -ELOOP);
	assert_int_equal(capture_link(c, "sys/bus/l", "../t"), -ELOOP);
	assert_int_equal(capture_placeholder(c, "sys/p"), -ELOOP);
	assert_false(exists(f->outside, "devices"));
	assert_false(exists(f->outside, "vendor"));
	assert_false(exists(f->outside, "bus"));
	assert_false(exists(f->outside, "p"));
	assert_non_null(strstr(capture_incomplete_reason(c), "sys/devices/x/vendor"));
	assert_int_equal(capture_finish(c, kv, 2), -ELOOP);
	assert_false(manifest_says_complete(f->cap, &why, NULL));
	assert_non_null(strstr(why, "writing sys/devices/x/vendor"));
	capture_free(c);
}

static void test_planted_deeper_link(void **state)
{
	struct fixture *f = *state;
	struct capture *c = new_capture(f);
	char *link = path_in(f->cap, "sys/devices/pci0000:00");

	assert_int_equal(capture_dir(c, "sys/devices"), 0);
	assert_int_equal(symlink(f->outside, link), 0);
	free(link);
	assert_int_equal(capture_file(c, "sys/devices/pci0000:00/0000:00:01.0/vendor", "0x1\n", 4),
			 -ELOOP);
	assert_int_equal(capture_dir(c, "sys/devices/pci0000:00/0000:00:01.0"), -ELOOP);
	assert_false(exists(f->outside, "0000:00:01.0"));
	capture_free(c);
}

static void test_planted_leaf_link(void **state)
{
	struct fixture *f = *state;
	struct capture *c = new_capture(f);
	char *target = path_in(f->outside, "secret"), *link = path_in(f->cap, "proc/iomem");

	tmp_root_write_str(f->outside, "secret", "keep me\n");
	tmp_root_mkdir(f->cap, "proc");
	assert_int_equal(symlink(target, link), 0);
	assert_int_equal(capture_file(c, "proc/iomem", "overwritten\n", 12), -ELOOP);
	assert_int_equal(capture_placeholder(c, "proc/iomem"), -ELOOP);
	char *s = slurp(f->outside, "secret", NULL);
	assert_string_equal(s, "keep me\n");
	free(s);
	free(target);
	free(link);
	capture_free(c);
}

/* Nor through a FIFO or into a device node planted there: refused, not blocked on. */
static void test_planted_fifo(void **state)
{
	struct fixture *f = *state;
	struct capture *c = new_capture(f);
	char *fifo = path_in(f->cap, "proc/iomem");

	tmp_root_mkdir(f->cap, "proc");
	assert_int_equal(mkfifo(fifo, 0644), 0);
	assert_int_equal(capture_file(c, "proc/iomem", "x\n", 2), -EINVAL);
	assert_int_equal(capture_placeholder(c, "proc/iomem"), -EINVAL);
	free(fifo);
	capture_free(c);
}

static void test_bad_paths(void **state)
{
	struct fixture *f = *state;
	struct capture *c = new_capture(f);

	assert_int_equal(capture_file(c, "../outside/x", "x", 1), -EINVAL);
	assert_int_equal(capture_file(c, "/etc/x", "x", 1), -EINVAL);
	assert_int_equal(capture_dir(c, "sys/../../outside"), -EINVAL);
	assert_int_equal(capture_link(c, "proc/./self", "1"), -EINVAL);
	assert_false(exists(f->outside, "x"));
	capture_free(c);
}

/* A source tree's own MANIFEST (a snapshot captured again) is not copied over ours. */
static void test_reserved_names(void **state)
{
	struct fixture *f = *state;
	struct capture *c = new_capture(f);
	const char *why = NULL;

	assert_int_equal(capture_file(c, "MANIFEST", "arch=arm64\ncomplete=1\n", 22), 0);
	assert_int_equal(capture_placeholder(c, "MANIFEST"), 0);
	assert_int_equal(capture_error(c, "MANIFEST", -EFBIG), 0);
	assert_false(manifest_says_complete(f->cap, &why, NULL));
	assert_int_equal(capture_finish(c, kv, 1), 0);
	char *text;
	assert_true(manifest_says_complete(f->cap, &why, &text));
	assert_null(strstr(text, "arm64"));
	assert_null(strstr(text, "error.MANIFEST"));
	free(text);
	capture_free(c);
}

/* ---- the errors: a set, bounded so that the reader takes what the writer writes ---- */

static void test_errors_once_each(void **state)
{
	struct fixture *f = *state;
	struct capture *c = new_capture(f);
	char path[64], *text;
	const char *why = NULL;

	for (int round = 0; round < 2; round++)
		for (int i = 0; i < 20000; i++) {
			snprintf(path, sizeof(path), "sys/bus/pci/devices/%05d/vendor", i);
			assert_int_equal(capture_error(c, path, round ? -EPERM : -EACCES), 0);
		}
	assert_int_equal(capture_error(c, "proc/iomem", -ENOENT), 0);    /* absence is absence */
	assert_int_equal(capture_finish(c, kv, 1), 0);
	assert_true(manifest_says_complete(f->cap, &why, &text));
	size_t lines = 0;
	for (const char *p = text; (p = strstr(p, "\nerror.")); p++)
		lines++;
	assert_int_equal(lines, 20000);
	assert_null(strstr(text, "=EPERM")); /* the first error of a path wins */
	assert_null(strstr(text, "proc/iomem"));
	assert_non_null(strstr(text, "error.sys/bus/pci/devices/19999/vendor=EACCES\n"));
	free(text);
	capture_free(c);
}

static void test_errors_bounded(void **state)
{
	struct fixture *f = *state;
	struct capture *c = new_capture(f);
	char path[4100], *text;
	const char *why = NULL;
	size_t len, n = 0;

	/* paths of 4000 bytes: 3,500 of them make 14 MiB of lines, past the bound */
	memset(path, 'd', 3990);
	for (size_t i = 0; i < 3500; i++) {
		snprintf(path + 3990, sizeof(path) - 3990, "/%06zu", i);
		assert_int_equal(capture_error(c, path, -EACCES), 0);
	}
	assert_int_equal(capture_error(c, "sys/a=b", -EACCES), 0);       /* would not read back */
	assert_int_equal(capture_error(c, "sys/a\nb=c", -EACCES), 0);
	assert_int_equal(capture_finish(c, kv, 1), -E2BIG);
	assert_non_null(strstr(capture_incomplete_reason(c), "failed reads not recorded"));
	/* the reader takes the whole of it */
	assert_false(manifest_says_complete(f->cap, &why, &text));
	len = strlen(text);
	assert_true(len <= MANIFEST_MAX);
	assert_true(len > MANIFEST_ERRORS_MAX - 8192);
	for (const char *p = text; (p = strstr(p, "\nerror.")); p++)
		n++;
	char want[64];
	snprintf(want, sizeof(want), "\nerrors_omitted=%zu\n", 3500 - n + 2);
	assert_non_null(strstr(text, want));
	assert_null(strstr(text, "sys/a"));
	free(text);
	capture_free(c);
}

/* ---- failures and interruptions ---- */

static void test_fail(void **state)
{
	struct fixture *f = *state;
	struct capture *c = new_capture(f);
	const char *why = NULL;

	capture_fail(c, "the snapshot captured is incomplete: interrupted by SIGINT");
	assert_int_equal(capture_finish(c, kv, 1), -ECANCELED);
	assert_false(manifest_says_complete(f->cap, &why, NULL));
	assert_string_equal(why, "the snapshot captured is incomplete: interrupted by SIGINT");
	capture_free(c);
}

static void test_interrupt_between_files(void **state)
{
	struct fixture *f = *state;
	struct capture *c = new_capture(f);
	const char *why = NULL;
	size_t len;

	assert_int_equal(capture_file(c, "proc/iomem", "x\n", 2), 0);
	assert_true(capture_interrupt(c, "SIGTERM"));
	assert_false(manifest_says_complete(f->cap, &why, NULL));
	assert_string_equal(why, "interrupted by SIGTERM");
	free(slurp(f->cap, "MANIFEST", &len));
	assert_int_equal(len, 4096); /* rewritten where it was: no room needed */
	assert_false(capture_interrupt(c, "SIGINT")); /* once */
	assert_false(manifest_says_complete(f->cap, &why, NULL));
	assert_string_equal(why, "interrupted by SIGTERM");
	capture_free(c);
}

static struct capture *signalled;

static void on_signal(int sig)
{
	capture_interrupt(signalled, sig == SIGUSR1 ? "SIGUSR1" : "?");
	_exit(7);
}

static void test_interrupt_halfway_through_a_file(void **state)
{
	struct fixture *f = *state;
	const char *why = NULL;
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		signalled = new_capture(f);
		signal(SIGUSR1, on_signal);
		capture_set_test_interrupt(signalled, 2, SIGUSR1);
		capture_file(signalled, "proc/iomem", "whole\n", 6);
		capture_file(signalled, "proc/zoneinfo", "Node 0, zone DMA\n", 17);
		capture_file(signalled, "proc/meminfo", "never\n", 6);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 7);
	char *s = slurp(f->cap, "proc/iomem", NULL);
	assert_string_equal(s, "whole\n");
	free(s);
	/* the file half written when the signal came is gone, not left short */
	assert_false(exists(f->cap, "proc/zoneinfo"));
	assert_false(exists(f->cap, "proc/meminfo"));
	assert_false(manifest_says_complete(f->cap, &why, NULL));
	assert_string_equal(why, "interrupted by SIGUSR1");
}

static void test_interrupt_after_finish(void **state)
{
	struct fixture *f = *state;
	struct capture *c = new_capture(f);
	const char *why = NULL;

	assert_int_equal(capture_finish(c, kv, 1), 0);
	assert_false(capture_interrupt(c, "SIGINT")); /* too late to matter: the snapshot is whole */
	assert_true(manifest_says_complete(f->cap, &why, NULL));
	capture_free(c);
}

#define CAPTURE_TEST(t) cmocka_unit_test_setup_teardown(t, setup, teardown)

static const struct CMUnitTest tests[] = {
	CAPTURE_TEST(test_complete),
	CAPTURE_TEST(test_not_empty),
	CAPTURE_TEST(test_locked),
	CAPTURE_TEST(test_lock_file),
	CAPTURE_TEST(test_planted_directory_link),
	CAPTURE_TEST(test_planted_deeper_link),
	CAPTURE_TEST(test_planted_leaf_link),
	CAPTURE_TEST(test_planted_fifo),
	CAPTURE_TEST(test_bad_paths),
	CAPTURE_TEST(test_reserved_names),
	CAPTURE_TEST(test_errors_once_each),
	CAPTURE_TEST(test_errors_bounded),
	CAPTURE_TEST(test_fail),
	CAPTURE_TEST(test_interrupt_between_files),
	CAPTURE_TEST(test_interrupt_halfway_through_a_file),
	CAPTURE_TEST(test_interrupt_after_finish),
};

int main(void)
{
	int failed = 0;

	print_message("capture paths: openat2 (flags 0)\n");
	group_flags = 0;
	failed += cmocka_run_group_tests_name("capture-openat2", tests, NULL, NULL);
	print_message("capture paths: component walk (CAPTURE_NO_OPENAT2)\n");
	group_flags = CAPTURE_NO_OPENAT2;
	failed += cmocka_run_group_tests_name("capture-walk", tests, NULL, NULL);
	return failed;
}
