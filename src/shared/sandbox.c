/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A private directory and a confined child for libraries that open files by
 * path. libkmod opens its indexes by name, and absolute host paths of its
 * own (/proc/cmdline in every version, /sys/module/compression from kmod
 * 32): in a chroot into the directory those name nothing, under Landlock
 * they cannot be opened.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_LINUX_LANDLOCK_H
#include <linux/landlock.h>
#endif

#include "shared/sandbox.h"
#include "shared/macro.h"
#include "shared/rm-rf.h"
#include "shared/text.h"
#include "shared/tmp-dir.h"

#ifndef LANDLOCK_CREATE_RULESET_VERSION
#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#define LANDLOCK_RULE_PATH_BENEATH 1
#define LANDLOCK_ACCESS_FS_READ_FILE (1ULL << 2)
#define LANDLOCK_ACCESS_FS_READ_DIR (1ULL << 3)
#define LANDLOCK_ACCESS_FS_MAKE_SYM (1ULL << 12)
#endif
/* the same numbers on every architecture, as openat2's */
#ifndef SYS_close_range
#define SYS_close_range 436
#endif
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif
/* Every access right of Landlock ABI 1 (execute .. make_sym): all the file system reads and writes */
#define LANDLOCK_FS_ABI1 ((LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1)

/* struct landlock_ruleset_attr and landlock_path_beneath_attr as ABI 1 has them */
struct ruleset_attr {
	uint64_t handled_access_fs;
};
struct path_beneath_attr {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

struct sandbox {
	char path[PATH_MAX]; /* absolute: mkdtemp's */
	int dir_fd;          /* O_DIRECTORY on it */
	pid_t owner;         /* the process that removes it; not a child */
	volatile sig_atomic_t n_files;
	char names[SANDBOX_FILES_MAX][SANDBOX_NAME_MAX];
};

/* The directory a signal must not leave behind; one sandbox at a time. */
static struct sandbox *volatile active;
static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
static bool handled[ARRAY_SIZE(cleanup_signals)];
/* What each signal did before: a default, or the program's own cleanup (a capture's, a report's) */
static struct sigaction previous[ARRAY_SIZE(cleanup_signals)];

/* Async-signal-safe: unlinkat() only. */
static void remove_contents(struct sandbox *sb)
{
	for (sig_atomic_t i = 0; i < sb->n_files; i++)
		unlinkat(sb->dir_fd, sb->names[i], 0);
	unlinkat(AT_FDCWD, sb->path, AT_REMOVEDIR);
}

/*
 * Remove the directory, then hand the signal on: the previous action is put
 * back and the signal raised again, so it runs once this handler returns
 * (the program's own cleanup, or the default: death by the signal).
 */
static void on_signal(int sig)
{
	struct sandbox *sb = active;
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	const struct sigaction *prev = &dfl;

	if (sb && getpid() == sb->owner)
		remove_contents(sb);
	for (size_t i = 0; i < ARRAY_SIZE(cleanup_signals); i++)
		if (cleanup_signals[i] == sig && handled[i])
			prev = &previous[i];
	sigaction(sig, prev, NULL);
	raise(sig);
}

/* Catch the signals not ignored, in front of whatever handles them; restore = true puts that back. */
static void cleanup_handlers(bool restore)
{
	for (size_t i = 0; i < ARRAY_SIZE(cleanup_signals); i++) {
		struct sigaction sa = { .sa_handler = on_signal };

		if (restore) {
			if (handled[i])
				sigaction(cleanup_signals[i], &previous[i], NULL);
			handled[i] = false;
			continue;
		}
		if (sigaction(cleanup_signals[i], NULL, &previous[i]) < 0 ||
		    (!(previous[i].sa_flags & SA_SIGINFO) && previous[i].sa_handler == SIG_IGN))
			continue; /* ignored (nohup): left so */
		sigemptyset(&sa.sa_mask);
		handled[i] = sigaction(cleanup_signals[i], &sa, NULL) == 0;
	}
}

int sandbox_new(struct sandbox **ret)
{
	const char *tmp = tmp_dir();
	struct sandbox *sb;

	if (active)
		return -EBUSY;
	sb = calloc(1, sizeof(*sb));
	if (!sb)
		return -ENOMEM;
	sb->dir_fd = -1;
	/* not path_join: mkdtemp fills it in place, in the struct the signal handler reads */
	if ((size_t)snprintf(sb->path, sizeof(sb->path), "%s/dmamask-audit.XXXXXX", tmp) >=
	    sizeof(sb->path)) {
		free(sb);
		return -ENAMETOOLONG;
	}
	if (!mkdtemp(sb->path)) { /* mode 0700 */
		int r = -errno;
		free(sb);
		return r;
	}
	sb->dir_fd = open(sb->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sb->dir_fd < 0) {
		int r = -errno;
		rmdir(sb->path);
		free(sb);
		return r;
	}
	sb->owner = getpid();
	active = sb;
	cleanup_handlers(false);
	*ret = sb;
	return 0;
}

void sandbox_free(struct sandbox *sb)
{
	if (!sb)
		return;
	/* the files, and whatever a child left without Landlock (a kernel before
	 * 5.13, or qemu-user: a root child in the chroot can create entries) */
	(void)!rm_rf_at(AT_FDCWD, sb->path); /* what cannot go is left: nothing else to do */
	if (active == sb) {
		cleanup_handlers(true);
		active = NULL;
	}
	close(sb->dir_fd);
	free(sb);
}

const char *sandbox_path(const struct sandbox *sb)
{
	return sb->path;
}

int sandbox_add_file(struct sandbox *sb, const char *name, const void *buf, size_t len)
{
	size_t nlen = strlen(name);
	sig_atomic_t n = sb->n_files;
	const char *p = buf;

	if (nlen >= SANDBOX_NAME_MAX || !filename_is_plain(name))
		return -EINVAL;
	for (sig_atomic_t i = 0; i < n; i++)
		if (strcmp(sb->names[i], name) == 0)
			return -EEXIST;
	if (n >= SANDBOX_FILES_MAX)
		return -ENOSPC;
	/* named before it exists: a signal from here on removes it */
	memcpy(sb->names[n], name, nlen + 1);
	sb->n_files = n + 1;

	_cleanup_close_ int fd = openat(sb->dir_fd, name,
					O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		int r = -errno;
		sb->n_files = n;
		return r;
	}
	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno; /* the file stays listed: sandbox_free() removes it */
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Landlock: reads of the directory only, no write anywhere. */
static bool landlock(int dir_fd)
{
	struct ruleset_attr attr = { .handled_access_fs = LANDLOCK_FS_ABI1 };
	struct path_beneath_attr rule = {
		.allowed_access = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR,
		.parent_fd = dir_fd,
	};

	if (syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION) < 1)
		return false; /* kernel without Landlock, or disabled at boot */
	_cleanup_close_ int ruleset =
		(int)syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0);
	if (ruleset < 0)
		return false;
	if (syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) < 0)
		return false;
	return syscall(SYS_landlock_restrict_self, ruleset, 0) == 0;
}

static bool enter_chroot(int dir_fd)
{
	if (fchdir(dir_fd) < 0)
		return false;
	if (chroot(".") == 0)
		return chdir("/") == 0;
	/* unprivileged: a user namespace of our own gives CAP_SYS_CHROOT in it */
	if (errno != EPERM || unshare(CLONE_NEWUSER) < 0 || chroot(".") < 0)
		return false;
	return chdir("/") == 0;
}

unsigned sandbox_confine(struct sandbox *sb, unsigned methods, const char **ret_dir)
{
	unsigned applied = 0;

	/* Landlock needs it when unprivileged; nothing here has to gain privileges anyway */
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	if ((methods & SANDBOX_CHROOT) && enter_chroot(sb->dir_fd))
		applied |= SANDBOX_CHROOT;
	/* after a chroot too: a Landlock domain holds even for root, whatever the code does */
	if ((methods & SANDBOX_LANDLOCK) && landlock(sb->dir_fd))
		applied |= SANDBOX_LANDLOCK;
	*ret_dir = applied & SANDBOX_CHROOT ? "/" : sb->path;
	return applied;
}

/* Close every fd above 2 but keep_a and keep_b: the child holds nothing else of the parent's. */
static void close_others(int keep_a, int keep_b)
{
	long lo = keep_a < keep_b ? keep_a : keep_b, hi = keep_a < keep_b ? keep_b : keep_a;
	const long ranges[3][2] = { { 3, lo - 1 }, { lo + 1, hi - 1 }, { hi + 1, INT_MAX } };

	for (size_t i = 0; i < ARRAY_SIZE(ranges); i++) {
		long a = ranges[i][0], b = ranges[i][1];
		if (a > b)
			continue;
		if (syscall(SYS_close_range, (unsigned)a, (unsigned)b, 0) == 0)
			continue;
		for (long fd = a; fd <= b && fd < 4096; fd++) /* before 5.9: the usual range */
			close((int)fd);
	}
}

static void __attribute__((noreturn))
run_child(struct sandbox *sb, const struct sandbox_limits *limits, sandbox_fn fn, void *data,
	  int fd, pid_t parent)
{
	struct rlimit cpu = { limits->seconds, limits->seconds }, none = { 0, 0 };
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	const char *dir;
	int r;

	/*
	 * Every handler is the parent's (its cleanup, a sanitizer's or a fuzzer's
	 * crash report): a library that crashes here just kills the child, which
	 * the parent sees (systemd's reset_all_signal_handlers does the same).
	 */
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &dfl, NULL);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(1);
	close_others(fd, sb->dir_fd); /* no fd of the sysroot, the report or the capture */
	setrlimit(RLIMIT_CPU, &cpu);
	setrlimit(RLIMIT_CORE, &none);  /* no core file holding a snapshot's data */
	setrlimit(RLIMIT_FSIZE, &none); /* the pipe is the only output */
#ifndef HAVE_ASAN
	struct rlimit as = { limits->memory, limits->memory };
	setrlimit(RLIMIT_AS, &as);
#endif
	sandbox_confine(sb, SANDBOX_ALL, &dir);
	FILE *out = fdopen(fd, "w");
	r = out ? fn(dir, out, data) : -ENOMEM;
	if (out && fclose(out) != 0)
		r = -EIO;
	_exit(r < 0 ? 1 : 0);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* Read the child's output until EOF, the deadline or the cap. 1 complete, 0 not, -ENOMEM. */
static int collect(int fd, const struct sandbox_limits *limits, char **buf, size_t *len)
{
	long deadline = now_ms() + (long)limits->seconds * 1000L;
	size_t cap = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		long left = deadline - now_ms();
		int n = left > 0 ? poll(&p, 1, (int)left) : 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 0; /* timed out */
		if (*len + 4096 + 1 > cap) {
			size_t ncap = cap ? cap * 2 : 8192;
			char *nb = realloc(*buf, ncap);
			if (!nb)
				return -ENOMEM;
			*buf = nb;
			cap = ncap;
		}
		ssize_t got = read(fd, *buf + *len, cap - *len - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return 0;
		if (got == 0)
			return 1;
		*len += (size_t)got;
		if (*len > limits->max_output)
			return 0;
	}
}

int sandbox_run(struct sandbox *sb, const struct sandbox_limits *limits, sandbox_fn fn,
		void *data, char **ret_out, size_t *ret_len)
{
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;
	pid_t parent = getpid();
	int fds[2], status = 0, r;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		r = -errno;
		close(fds[0]);
		close(fds[1]);
		return r;
	}
	if (pid == 0) {
		close(fds[0]);
		run_child(sb, limits, fn, data, fds[1], parent);
	}
	close(fds[1]);
	r = collect(fds[0], limits, &buf, &len);
	close(fds[0]);
	if (r <= 0)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (r < 0)
		return r;
	if (r == 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return 0;
	if (!buf && !(buf = strdup("")))
		return -ENOMEM;
	buf[len] = '\0';
	*ret_out = TAKE_PTR(buf);
	if (ret_len)
		*ret_len = len;
	return 1;
}
