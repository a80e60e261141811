/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * src/shared/rm-rf.c and src/scratch.c against real directories under
 * /tmp: a deep tree goes, a link out is removed and never followed, a FIFO
 * does not block; the waiting parent removes the run's directories and
 * exits as the run did, by status or by signal.
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
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "snapshot/scratch.h"
#include "shared/rm-rf.h"

static char base[] = "/tmp/dmamask-test-scratch.XXXXXX";

static void put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static bool exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

static void test_rm_rf_tree(void **state)
{
	char p[PATH_MAX], outside[512];

	assert_non_null(mkdtemp(base));
	snprintf(outside, sizeof(outside), "%s/outside", base);
	assert_int_equal(mkdir(outside, 0755), 0);
	snprintf(p, sizeof(p), "%s/canary", outside);
	put(p, "keep me");

	/* 300 levels, each with a file, a link to outside and, at the bottom, a FIFO */
	int n = snprintf(p, sizeof(p), "%s/tree", base);
	assert_int_equal(mkdir(p, 0755), 0);
	for (int i = 0; i < 300; i++) {
		char f[PATH_MAX + 16];
		snprintf(f, sizeof(f), "%s/file", p);
		put(f, "x");
		snprintf(f, sizeof(f), "%s/out", p);
		assert_int_equal(symlink(outside, f), 0);
		n += snprintf(p + n, sizeof(p) - (size_t)n, "/d");
		assert_int_equal(mkdir(p, 0755), 0);
	}
	char fifo[PATH_MAX + 16];
	snprintf(fifo, sizeof(fifo), "%s/fifo", p);
	assert_int_equal(mkfifo(fifo, 0644), 0);

	int dfd = open(base, O_RDONLY | O_DIRECTORY);
	assert_true(dfd >= 0);
	assert_int_equal(rm_rf_at(dfd, "tree"), 0);
	snprintf(p, sizeof(p), "%s/tree", base);
	assert_false(exists(p));
	snprintf(p, sizeof(p), "%s/outside/canary", base);
	assert_true(exists(p)); /* no link was followed */

	/* a plain file is removed too; nothing there is ENOENT */
	snprintf(p, sizeof(p), "%s/plain", base);
	put(p, "y");
	assert_int_equal(rm_rf_at(dfd, "plain"), 0);
	assert_false(exists(p));
	assert_int_equal(rm_rf_at(dfd, "plain"), -ENOENT);
	/* a link named as the top is removed, its target kept */
	snprintf(p, sizeof(p), "%s/link", base);
	assert_int_equal(symlink(outside, p), 0);
	assert_int_equal(rm_rf_at(dfd, "link"), 0);
	assert_false(exists(p));
	assert_true(exists(outside));
	assert_int_equal(rm_rf_at(dfd, "outside"), 0);
	close(dfd);
	assert_int_equal(rmdir(base), 0);
}

/* Run scratch_supervise() in a child of the test: the run does what, then how the parent ends. */
static int supervised(int how, const char **dirs)
{
	struct scratch s = { 0 };
	const char *a, *b;
	int fds[2];

	assert_int_equal(pipe(fds), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		if (scratch_make(&s, "/tmp", "dmamask-test-a", &a) < 0 ||
		    scratch_make(&s, "/tmp", "dmamask-test-b", &b) < 0)
			_exit(99);
		dprintf(fds[1], "%s\n%s\n", a, b);
		close(fds[1]);
		if (scratch_supervise(&s) < 0)
			_exit(98);
		/* the run: a file in each, then an end */
		char p[PATH_MAX];
		snprintf(p, sizeof(p), "%s/x", a);
		int fd = open(p, O_WRONLY | O_CREAT, 0644);
		close(fd);
		if (how > 0)
			raise(how);
		_exit(3);
	}
	close(fds[1]);
	static char names[2][PATH_MAX];
	FILE *f = fdopen(fds[0], "r");
	assert_non_null(f);
	assert_non_null(fgets(names[0], sizeof(names[0]), f));
	assert_non_null(fgets(names[1], sizeof(names[1]), f));
	fclose(f);
	names[0][strcspn(names[0], "\n")] = '\0';
	names[1][strcspn(names[1], "\n")] = '\0';
	dirs[0] = names[0];
	dirs[1] = names[1];
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

static void test_supervise_exit(void **state)
{
	const char *dirs[2];
	int status = supervised(0, dirs);

	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 3);
	assert_false(exists(dirs[0]));
	assert_false(exists(dirs[1]));
}

static void test_supervise_signal(void **state)
{
	const char *dirs[2];
	int status = supervised(SIGTERM, dirs);

	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGTERM);
	assert_false(exists(dirs[0]));
	assert_false(exists(dirs[1]));

	status = supervised(SIGKILL, dirs);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGKILL);
	assert_false(exists(dirs[0]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rm_rf_tree),
		cmocka_unit_test(test_supervise_exit),
		cmocka_unit_test(test_supervise_signal),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
