/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The report's destination: standard output, or a file replaced atomically. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/output.h"
#include "shared/macro.h"
#include "shared/read-fd.h"

struct output {
	FILE *f;            /* the renderers' stream: sink_write() to fd */
	int fd;             /* STDOUT_FILENO, or the temporary */
	int err;            /* errno of the first failed write(2); sticky */
	char *path;         /* --output-file; NULL: standard output */
	char *tmp;          /* PATH.XXXXXX beside it; NULL once renamed or removed */
	mode_t mode;        /* the replaced file's, else 0666 & ~umask */
	bool replaces;      /* path was a regular file: keep its owner too */
	uid_t uid;          /* lstat() of the replaced file */
	gid_t gid;
	unsigned flags;     /* OUTPUT_* */
	struct sigaction saved[3]; /* the dispositions before ours, restored after */
};

static const int fatal_signals[] = { SIGINT, SIGTERM, SIGHUP };

/* The temporary a fatal signal removes; only changed with those signals blocked. */
static const char *volatile doomed;

static void remove_and_die(int sig)
{
	const char *p = doomed;

	if (p)
		unlink(p); /* async-signal-safe, and the path was stored beforehand */
	/* SA_RESETHAND restored the default action: it ends us, now or on return */
	raise(sig);
}

static void block_fatal(sigset_t *ret_old)
{
	sigset_t s;

	sigemptyset(&s);
	for (size_t i = 0; i < ARRAY_SIZE(fatal_signals); i++)
		sigaddset(&s, fatal_signals[i]);
	sigprocmask(SIG_BLOCK, &s, ret_old);
}

/* With the signals blocked: from now on they remove tmp first. */
static void arm(struct output *o)
{
	struct sigaction sa = { .sa_handler = remove_and_die, .sa_flags = SA_RESETHAND };

	for (size_t i = 0; i < ARRAY_SIZE(fatal_signals); i++)
		sigaddset(&sa.sa_mask, fatal_signals[i]);
	doomed = o->tmp;
	for (size_t i = 0; i < ARRAY_SIZE(fatal_signals); i++) {
		sigaction(fatal_signals[i], NULL, &o->saved[i]);
		if (o->saved[i].sa_handler != SIG_IGN) /* nohup's SIGHUP stays ignored */
			sigaction(fatal_signals[i], &sa, NULL);
	}
}

/* With the signals blocked: tmp is gone (renamed or removed). */
static void disarm(struct output *o)
{
	for (size_t i = 0; i < ARRAY_SIZE(fatal_signals); i++)
		sigaction(fatal_signals[i], &o->saved[i], NULL);
	doomed = NULL;
	free(o->tmp);
	o->tmp = NULL;
}

static ssize_t sink_write(void *cookie, const char *buf, size_t n)
{
	struct output *o = cookie;
	size_t done = 0;

	while (o->err == 0 && done < n) {
		ssize_t k = write(o->fd, buf + done, n - done);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			o->err = k < 0 ? errno : EIO;
		else
			done += (size_t)k;
	}
	if (o->err) {
		errno = o->err;
		return -1;
	}
	return (ssize_t)n;
}

static const char *kind(mode_t m)
{
	if (S_ISLNK(m))
		return "a symbolic link";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

void output_free(struct output *o)
{
	if (!o)
		return;
	if (o->f)
		fclose(o->f);
	if (o->tmp) {
		sigset_t old;
		block_fatal(&old);
		unlink(o->tmp);
		disarm(o);
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	if (o->path && o->fd >= 0)
		close(o->fd);
	free(o->path);
	free(o);
}

static void output_freep(struct output **o)
{
	output_free(*o);
}

/* The temporary beside path, with the fatal signals set to remove it. */
static int create_temporary(struct output *o)
{
	char suffix[8] = "."; /* mkostemp()'s six-letter template */
	sigset_t old;

	memset(suffix + 1, 'X', 6);
	if (asprintf(&o->tmp, "%s%s", o->path, suffix) < 0) {
		o->tmp = NULL;
		return -ENOMEM;
	}
	/* no signal between the file's creation and the handler that removes it */
	block_fatal(&old);
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	int r = o->fd < 0 ? -errno : 0;
	if (r == 0)
		arm(o);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (r < 0) {
		free(o->tmp);
		o->tmp = NULL;
	}
	return r;
}

/* What replacing path needs to know; -EEXIST with *ret_kind when it may not be replaced. */
static int inspect(struct output *o, const char **ret_kind)
{
	struct stat st;

	o->replaces = false;
	if (lstat(o->path, &st) == 0) {
		if (!S_ISREG(st.st_mode)) {
			*ret_kind = kind(st.st_mode);
			return -EEXIST;
		}
		o->mode = st.st_mode & 07777;
		o->replaces = true;
		o->uid = st.st_uid;
		o->gid = st.st_gid;
	} else if (errno == ENOENT) {
		mode_t u = umask(0);
		umask(u);
		o->mode = 0666 & ~u;
	} else {
		return -errno;
	}
	return 0;
}

int output_open(const char *path, unsigned flags, struct output **ret, const char **ret_kind)
{
	_cleanup_(output_freep) struct output *o = calloc(1, sizeof(*o));

	if (!o)
		return -ENOMEM;
	o->fd = -1;
	o->flags = flags;
	if (path && strcmp(path, "-") != 0) {
		o->path = strdup(path);
		if (!o->path)
			return -ENOMEM;
		int r = inspect(o, ret_kind);
		if (r < 0)
			return r;
	}
	*ret = TAKE_PTR(o);
	return 0;
}

int output_start(struct output *o, FILE **ret, const char **ret_kind)
{
	int r;

	if (o->f)
		return -EBUSY;
	if (!o->path) {
		o->fd = STDOUT_FILENO;
	} else {
		/* again: the audit took a while, and the mode is the one at creation */
		r = inspect(o, ret_kind);
		if (r == 0)
			r = create_temporary(o);
		if (r < 0)
			return r;
	}
	o->f = fopencookie(o, "w", (cookie_io_functions_t){ .write = sink_write });
	if (!o->f)
		return -errno; /* output_free() removes the temporary */
	*ret = o->f;
	return 0;
}

int output_previous(const struct output *o, size_t max, char **ret, size_t *ret_len)
{
	struct stat st;

	if (!o->path)
		return -ENOENT;
	_cleanup_close_ int fd = open(o->path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -ENOENT;
	if ((uint64_t)st.st_size > max)
		return -EFBIG;
	return read_fd_all(fd, max, st.st_size, ret, ret_len);
}

bool output_is_terminal(const struct output *o)
{
	return !o->path && isatty(o->fd);
}

/* The complete temporary, made to look like what it replaces, on disk. */
static int seal(struct output *o)
{
	/* best effort: only root may give a file away; the report is then the writer's */
	if (o->replaces && fchown(o->fd, o->uid, o->gid) < 0 && errno != EPERM)
		return -errno;
	/* after fchown(), which clears set-user-ID and set-group-ID */
	if (fchmod(o->fd, o->mode) < 0 || fsync(o->fd) < 0)
		return -errno;
	int fd = TAKE_FD(o->fd);
	return close(fd) < 0 ? -errno : 0;
}

int output_finish(struct output *o, int render)
{
	int r = 0;

	if (fflush(o->f) != 0)
		r = -errno;
	if (fclose(TAKE_PTR(o->f)) != 0 && r == 0)
		r = -errno;
	/* the errno write(2) gave, not what the renderer or stdio made of it */
	if (o->err)
		r = -o->err;
	else if (render < 0)
		r = render;
	if (r == 0 && o->tmp) {
		r = seal(o);
		if (r == 0 && (o->flags & OUTPUT_TEST_STOP))
			raise(SIGSTOP);
		if (r == 0) {
			sigset_t old;
			block_fatal(&old);
			if (rename(o->tmp, o->path) < 0) {
				r = -errno;
				unlink(o->tmp);
			}
			disarm(o);
			sigprocmask(SIG_SETMASK, &old, NULL);
		}
	}
	output_free(o); /* removes a temporary still there */
	return r;
}
