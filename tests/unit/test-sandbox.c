/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * src/shared/sandbox.c: the private directory (made, filled, removed, also by a
 * signal), each confinement on its own (a confined process can open the
 * directory's files and nothing of the host, /proc/cmdline above all), and
 * the child's limits and closed fds.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "shared/sandbox.h"

#define EXIT_SKIP 77

static bool exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

static void test_files(void **state)
{
	struct sandbox *sb = NULL;
	char path[4096], file[4200];
	struct stat st;

	assert_int_equal(sandbox_new(&sb), 0);
	snprintf(path, sizeof(path), "%s", sandbox_path(sb));
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0700);
	assert_int_equal(sandbox_new(&(struct sandbox *){ NULL }), -EBUSY); /* one at a time */

	assert_int_equal(sandbox_add_file(sb, "modules.alias.bin", "abc", 3), 0);
	assert_int_equal(sandbox_add_file(sb, "empty", "", 0), 0);
	assert_int_equal(sandbox_add_file(sb, "modules.alias.bin", "x", 1), -EEXIST);
	assert_int_equal(sandbox_add_file(sb, "../escape", "x", 1), -EINVAL);
	assert_int_equal(sandbox_add_file(sb, "..", "x", 1), -EINVAL);
	assert_int_equal(sandbox_add_file(sb, "", "x", 1), -EINVAL);
	snprintf(file, sizeof(file), "%s/modules.alias.bin", path);
	assert_int_equal(lstat(file, &st), 0);
	assert_int_equal(st.st_size, 3);
	assert_int_equal(st.st_mode & 07777, 0600);

	sandbox_free(sb);
	assert_false(exists(file));
	assert_false(exists(path));
	sandbox_free(NULL);

	/* the table is full at SANDBOX_FILES_MAX */
	assert_int_equal(sandbox_new(&sb), 0);
	for (int i = 0; i < SANDBOX_FILES_MAX; i++) {
		char name[16];
		snprintf(name, sizeof(name), "f%d", i);
		assert_int_equal(sandbox_add_file(sb, name, "x", 1), 0);
	}
	assert_int_equal(sandbox_add_file(sb, "one-more", "x", 1), -ENOSPC);
	snprintf(path, sizeof(path), "%s", sandbox_path(sb));
	sandbox_free(sb);
	assert_false(exists(path));
}

/*
 * In a child: confine with methods, then the directory's file must open and
 * the host's files must not. Exit 0, EXIT_SKIP when the method is not
 * available here, else the line that failed.
 */
static int confined_child(struct sandbox *sb, unsigned methods, bool drop_root)
{
	const char *dir;
	char file[4200];
	int fd;

	if (drop_root && (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0 ||
			  setresuid(65534, 65534, 65534) < 0))
		return EXIT_SKIP;
	unsigned applied = sandbox_confine(sb, methods, &dir);
	if (!(applied & methods))
		return EXIT_SKIP;
	if (applied != methods)
		return __LINE__;
	snprintf(file, sizeof(file), "%s/modules.alias.bin", dir);
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return __LINE__;
	close(fd);
	if (open("/proc/cmdline", O_RDONLY | O_CLOEXEC) >= 0)
		return __LINE__;
	if (open("/etc/passwd", O_RDONLY | O_CLOEXEC) >= 0)
		return __LINE__;
	return 0;
}

/* The parent makes and removes the directory (given to nobody when the child drops root). */
static void run_confined(unsigned methods, bool drop_root)
{
	struct sandbox *sb = NULL;
	char file[4200];
	int status;

	assert_int_equal(sandbox_new(&sb), 0);
	assert_int_equal(sandbox_add_file(sb, "modules.alias.bin", "index", 5), 0);
	snprintf(file, sizeof(file), "%s/modules.alias.bin", sandbox_path(sb));
	if (drop_root) {
		assert_int_equal(chown(sandbox_path(sb), 65534, 65534), 0);
		assert_int_equal(chown(file, 65534, 65534), 0);
	}
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(confined_child(sb, methods, drop_root));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	sandbox_free(sb);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == EXIT_SKIP)
		skip();
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_chroot(void **state)
{
	run_confined(SANDBOX_CHROOT, false);
}

static void test_landlock(void **state)
{
	run_confined(SANDBOX_LANDLOCK, false);
}

/* Not root: chroot through a user namespace of its own (skipped where those are off). */
static void test_chroot_unprivileged(void **state)
{
	if (geteuid() != 0)
		run_confined(SANDBOX_CHROOT, false);
	else
		run_confined(SANDBOX_CHROOT, true);
}

static int say_hello(const char *dir, FILE *out, void *data)
{
	fprintf(out, "hello from %s\n", dir);
	return 0;
}

static int fail_io(const char *dir, FILE *out, void *data)
{
	fputs("partial", out);
	return -EIO;
}

static int spin(const char *dir, FILE *out, void *data)
{
	for (volatile unsigned long i = 0;; i++)
		;
	return 0;
}

static int flood(const char *dir, FILE *out, void *data)
{
	for (int i = 0; i < 100000; i++)
		fputs("0123456789abcdef", out);
	return 0;
}

/* Any file written is a failure: Landlock refuses it, RLIMIT_FSIZE kills the writer. */
static int write_file(const char *dir, FILE *out, void *data)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/written", dir);
	FILE *f = fopen(path, "w");
	if (!f)
		return -errno;
	fputs("data", f);
	return fclose(f) == 0 ? 0 : -EIO;
}

/* data: an fd the parent holds; the child must not have it */
static int check_closed(const char *dir, FILE *out, void *data)
{
	int fd = *(int *)data;

	return fcntl(fd, F_GETFD) < 0 && errno == EBADF ? 0 : -EEXIST;
}

static void test_run(void **state)
{
	const struct sandbox_limits limits = { .seconds = 1, .memory = 256u << 20,
					       .max_output = 4096 };
	struct sandbox *sb = NULL;
	char *out = NULL, path[4096], written[4200];
	size_t len = 0;

	assert_int_equal(sandbox_new(&sb), 0);
	snprintf(path, sizeof(path), "%s", sandbox_path(sb));
	assert_int_equal(sandbox_run(sb, &limits, say_hello, NULL, &out, &len), 1);
	assert_non_null(out);
	assert_int_equal(len, strlen(out));
	assert_true(strncmp(out, "hello from ", 11) == 0);
	free(out);
	out = NULL;

	int held = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(held > 2);
	assert_int_equal(sandbox_run(sb, &limits, check_closed, &held, &out, &len), 1);
	free(out);
	out = NULL;
	close(held);

	assert_int_equal(sandbox_run(sb, &limits, fail_io, NULL, &out, &len), 0);
	assert_null(out);
	assert_int_equal(sandbox_run(sb, &limits, spin, NULL, &out, &len), 0);
	assert_int_equal(sandbox_run(sb, &limits, flood, NULL, &out, &len), 0);
	assert_int_equal(sandbox_run(sb, &limits, write_file, NULL, &out, &len), 0);
	assert_null(out);
	snprintf(written, sizeof(written), "%s/written", path);
	struct stat st;
	if (lstat(written, &st) == 0) /* chroot alone lets root create it; never with content */
		assert_int_equal(st.st_size, 0);
	sandbox_free(sb);
	assert_false(exists(path)); /* removed even with a file the child left */
}

/* A signal that ends the program removes the directory first. */
static void test_signal(void **state)
{
	int fds[2], status;
	char path[4096] = "";

	assert_int_equal(pipe(fds), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct sandbox *sb = NULL;
		close(fds[0]);
		if (sandbox_new(&sb) < 0 || sandbox_add_file(sb, "f", "x", 1) < 0)
			_exit(1);
		dprintf(fds[1], "%s", sandbox_path(sb));
		close(fds[1]);
		for (;;)
			pause();
	}
	close(fds[1]);
	ssize_t n = read(fds[0], path, sizeof(path) - 1);
	close(fds[0]);
	assert_true(n > 0);
	path[n] = '\0';
	assert_true(exists(path));
	assert_int_equal(kill(pid, SIGTERM), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGTERM);
	assert_false(exists(path));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_chroot),
		cmocka_unit_test(test_landlock),
		cmocka_unit_test(test_chroot_unprivileged),
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_signal),
	};
	/* qemu-user (tools/cross) passes no landlock syscall and gives a child no user
	 * namespace: those two would only skip, which CI counts as a failure; the
	 * native builds (build/, build-san/, clang) run them */
	const struct CMUnitTest emulated[] = {
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_chroot),
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_signal),
	};
	const char *qemu = getenv("QEMU_USER");

	if (qemu && *qemu) {
		printf("# under %s: test_landlock and test_chroot_unprivileged are not run\n", qemu);
		return cmocka_run_group_tests(emulated, NULL, NULL);
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
