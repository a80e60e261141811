/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Writing a snapshot: the only code besides --output-file that writes files. */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "snapshot/capture.h"
#include "sysroot/sysroot.h"
#include "shared/errno-util.h"
#include "shared/macro.h"
#include "shared/openat2.h"
#include "shared/strmap.h"

/* The capture's own names at its top: never copied from the source tree. */
#define MANIFEST_NAME "MANIFEST"
#define MANIFEST_TMP ".MANIFEST.tmp"    /* the final MANIFEST until renamed */
#define LOCK_NAME ".dmamask-audit.lock" /* the lock where flock() is missing */

/*
 * The MANIFEST a capture starts with (complete=0) is this long, padded with
 * a comment line: rewritten where it is, with the reason a capture failed
 * or stopped, it needs no more room on a full disk and no malloc in a
 * signal handler.
 */
#define PLACEHOLDER_SIZE 4096

#define STR(x) STR_(x)
#define STR_(x) #x
#define MANIFEST_HEAD "manifest_version=" STR(MANIFEST_VERSION) "\n"
#define CAPTURED_BY "captured_by=" PACKAGE_NAME " " PACKAGE_VERSION "\n"

_Static_assert(MANIFEST_ERRORS_MAX + (64u << 10) <= MANIFEST_MAX,
	       "the reader must accept every MANIFEST a capture writes");

struct capture {
	int fd;                 /* the capture directory, O_RDONLY (flock wants an open file) */
	bool use_openat2;
	bool lock_file;         /* locked by LOCK_NAME, removed at the end */
	bool plain;             /* CAPTURE_PLAIN */
	bool full_log;          /* CAPTURE_FULL_LOG */
	struct strmap made;     /* links and directories written: the walk meets them again and again */
	/* CAPTURE_PLAIN: the last directory entered, kept open (an archive lists a directory's
	 * entries after it, and a chain's each under the one before) */
	int last_fd;            /* O_PATH; -1: none */
	char *last_dir;
	struct strmap errors;   /* failed reads: path -> errno; 0 when not recorded */
	size_t error_bytes;     /* MANIFEST bytes of the recorded ones */
	size_t errors_omitted;  /* past MANIFEST_ERRORS_MAX, or no line can hold the path */
	int first_error;        /* sticky -errno of the first failure */
	char *reason;           /* ... in words */
	/* capture_interrupt() reads these from a signal handler */
	volatile sig_atomic_t done;    /* the final MANIFEST is in place */
	volatile sig_atomic_t writing; /* cur_leaf in cur_dir_fd is being written */
	int cur_dir_fd;
	char cur_leaf[NAME_MAX + 1];
	unsigned long writes, interrupt_at; /* capture_set_test_interrupt() */
	int interrupt_sig;
};

/* Keep the first failure, and where it happened. Returns r. */
static int keep(struct capture *c, int r, const char *where)
{
	if (r < 0 && c->first_error == 0) {
		c->first_error = r;
		if (asprintf(&c->reason, "%s, writing %s", strerror(-r), where) < 0)
			c->reason = NULL;
	}
	return r;
}

static void fail_with(struct capture *c, int r, const char *reason)
{
	if (c->first_error)
		return;
	c->first_error = r;
	c->reason = strdup(reason);
}

/* A symlink met where a directory must be is refused with ELOOP, as openat2 says. */
static int nofollow_errno(int dfd, const char *name)
{
	int e = errno;
	struct stat st;

	if (e == ENOTDIR && fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
		return -ELOOP;
	return -e;
}

/*
 * openat(dfd, path) that follows no symlink and cannot leave dfd: openat2
 * with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS, or before Linux 5.6 one
 * component at a time with O_NOFOLLOW. path is relative, without "." or
 * ".." (path_ok() checked it).
 */
static int beneath_openat(const struct capture *c, int dfd, const char *path, int flags, mode_t mode)
{
	if (c->use_openat2) {
		struct open_how how = {
			/* openat2 refuses O_PATH with any flag but these */
			.flags = (uint64_t)(flags | O_CLOEXEC | (flags & O_PATH ? 0 : O_NOCTTY)),
			.mode = (flags & O_CREAT) ? mode : 0,
			.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
		};
		long fd = syscall(SYS_openat2, dfd, path, &how, sizeof(how));
		return fd < 0 ? -errno : (int)fd;
	}

	_cleanup_close_ int cur = -1;
	char comp[NAME_MAX + 1];
	const char *p = path;

	for (;;) {
		size_t n = strcspn(p, "/");
		if (!p[n])
			break;
		if (n > NAME_MAX)
			return -ENAMETOOLONG;
		memcpy(comp, p, n);
		comp[n] = '\0';
		int at = cur >= 0 ? cur : dfd;
		int nfd = openat(at, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0)
			return nofollow_errno(at, comp);
		if (cur >= 0)
			close(cur);
		cur = nfd;
		p += n + 1;
	}
	int at = cur >= 0 ? cur : dfd;
	int fd = openat(at, p, flags | O_NOFOLLOW | O_CLOEXEC | (flags & O_PATH ? 0 : O_NOCTTY), mode);
	return fd < 0 ? nofollow_errno(at, p) : fd;
}

/*
 * A regular file to write: whatever else sits there (a FIFO, a device node:
 * nothing a capture makes) is refused with EINVAL, and O_NONBLOCK keeps a
 * FIFO from blocking the open.
 */
static int open_regular(const struct capture *c, int dfd, const char *path, int flags)
{
	int fd = beneath_openat(c, dfd, path, flags | O_NONBLOCK, CAPTURE_FILE_MODE);
	struct stat st;

	if (fd < 0)
		return fd == -ENXIO ? -EINVAL : fd; /* a FIFO without a reader */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	return fd;
}

/* A canonical path is relative, without "." or ".." (the walk made it so); check anyway. */
static bool path_ok(const char *p)
{
	if (!*p || *p == '/')
		return false;
	for (const char *s = p; *s;) {
		size_t n = strcspn(s, "/");
		if (n == 0 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
			return false;
		s += n;
		if (*s == '/')
			s++;
	}
	return true;
}

/* The capture's own files: a source tree's MANIFEST is not copied over ours. */
static bool reserved(const struct capture *c, const char *canon)
{
	return !c->plain && (strcmp(canon, MANIFEST_NAME) == 0 || strcmp(canon, MANIFEST_TMP) == 0 ||
	       strcmp(canon, LOCK_NAME) == 0);
}

/* Directory comp of at, made when missing, opened following no link. */
static int open_or_make(const struct capture *c, int at, const char *comp)
{
	int fd = beneath_openat(c, at, comp, O_PATH | O_DIRECTORY, 0);

	if (fd != -ENOENT)
		return fd;
	if (mkdirat(at, comp, CAPTURE_DIR_MODE) < 0 && errno != EEXIST)
		return -errno;
	return beneath_openat(c, at, comp, O_PATH | O_DIRECTORY, 0);
}

/* mkdir -p dir in directory at: each directory made in the one before, itself opened following no link. */
static int make_dirs(struct capture *c, int at, const char *dir)
{
	_cleanup_close_ int cur = -1;
	char comp[NAME_MAX + 1];

	for (const char *p = dir;;) {
		size_t n = strcspn(p, "/");
		if (n > NAME_MAX)
			return -ENAMETOOLONG;
		memcpy(comp, p, n);
		comp[n] = '\0';
		int nfd = open_or_make(c, cur >= 0 ? cur : at, comp);
		if (nfd < 0)
			return nfd;
		if (cur >= 0)
			close(cur);
		cur = nfd;
		if (!p[n])
			return TAKE_FD(cur);
		p += n + 1;
	}
}

/* What of dir lies below the last directory entered: "" for itself, NULL when not under it. */
static const char *below_last(const struct capture *c, const char *dir)
{
	size_t n = c->last_dir ? strlen(c->last_dir) : 0;

	if (!c->last_dir || strncmp(dir, c->last_dir, n) != 0)
		return NULL;
	return dir[n] == '\0' ? dir + n : dir[n] == '/' ? dir + n + 1 : NULL;
}

/* fd (an O_PATH directory) becomes the last directory entered, dir its path. */
static void keep_last(struct capture *c, int fd, const char *dir)
{
	char *copy = strdup(dir);
	int dup = fcntl(fd, F_DUPFD_CLOEXEC, 3);

	if (!copy || dup < 0) { /* only a shortcut: without it the next entry walks from the top */
		free(copy);
		if (dup >= 0)
			close(dup);
		return;
	}
	if (c->last_fd >= 0)
		close(c->last_fd);
	free(c->last_dir);
	c->last_fd = dup;
	c->last_dir = copy;
}

/*
 * A new O_PATH fd on directory dir of the capture ("" for its top), made
 * with its parents when missing. A live capture resolves it from the
 * capture's fd every time: no fd kept on a directory that could have been
 * moved meanwhile. An unpacked archive's directory is private (mkdtemp)
 * and its writer only adds, so the last directory entered stays where it
 * is: a path below it starts there, and a 2,000-deep chain costs one
 * directory an entry, not its depth.
 */
static int enter_dir(struct capture *c, const char *dir)
{
	const char *rest = c->plain && *dir ? below_last(c, dir) : NULL;
	int fd;

	if (rest && !*rest) { /* the last one again: a directory's files */
		fd = fcntl(c->last_fd, F_DUPFD_CLOEXEC, 3);
		return fd < 0 ? -errno : fd;
	}
	if (rest)
		fd = make_dirs(c, c->last_fd, rest);
	else {
		fd = beneath_openat(c, c->fd, *dir ? dir : ".", O_PATH | O_DIRECTORY, 0);
		if (fd == -ENOENT)
			fd = make_dirs(c, c->fd, dir);
	}
	if (fd >= 0 && c->plain && *dir)
		keep_last(c, fd, dir);
	return fd;
}

/* canon -> a new fd on its directory (entered) and its last component. */
static int enter_parent(struct capture *c, const char *canon, const char **ret_leaf)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(canon, '/');
	size_t dlen = slash ? (size_t)(slash - canon) : 0;

	if (dlen >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, canon, dlen);
	dir[dlen] = '\0';
	*ret_leaf = slash ? slash + 1 : canon;
	if (strlen(*ret_leaf) > NAME_MAX)
		return -ENAMETOOLONG;
	return enter_dir(c, dir);
}

/* 0 empty, -ENOTEMPTY, or why it could not be read (EMFILE is not "not empty"). */
static int dir_empty(int fd, bool lock_file)
{
	int dup = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	DIR *d = dup < 0 ? NULL : fdopendir(dup);
	struct dirent *de;
	int r = 0;

	if (!d) {
		r = -errno;
		if (dup >= 0)
			close(dup);
		return r;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0 &&
		    !(lock_file && strcmp(de->d_name, LOCK_NAME) == 0))
			r = -ENOTEMPTY;
	closedir(d);
	return r;
}

static int write_all(int fd, const char *buf, size_t len)
{
	for (size_t off = 0; off < len;) {
		ssize_t n = write(fd, buf + off, len - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		off += (size_t)n;
	}
	return 0;
}

/* Async-signal-safe string building: no stdio, no malloc. A newline becomes '?'. */
static size_t append(char *buf, size_t size, size_t used, const char *s, bool one_line)
{
	for (; *s && used + 1 < size; s++)
		buf[used++] = one_line && *s == '\n' ? '?' : *s;
	buf[used] = '\0';
	return used;
}

/* The placeholder MANIFEST, saying why there is no other (async-signal-safe). */
static void placeholder_text(char buf[PLACEHOLDER_SIZE], const char *reason)
{
	size_t n = append(buf, PLACEHOLDER_SIZE - 64, 0, MANIFEST_HEAD CAPTURED_BY "incomplete_reason=",
			  false);
	n = append(buf, PLACEHOLDER_SIZE - 64, n, reason, true);
	n = append(buf, PLACEHOLDER_SIZE, n, "\ncomplete=0\n#", false);
	memset(buf + n, ' ', PLACEHOLDER_SIZE - 1 - n);
	buf[PLACEHOLDER_SIZE - 1] = '\n';
}

/* MANIFEST until the capture ends: a capture stopped anywhere says it is not complete. */
static int write_placeholder(struct capture *c)
{
	char text[PLACEHOLDER_SIZE];
	int fd = beneath_openat(c, c->fd, MANIFEST_NAME, O_WRONLY | O_CREAT | O_EXCL, CAPTURE_FILE_MODE);

	if (fd < 0)
		return fd;
	placeholder_text(text, "capture in progress, or stopped before it finished");
	int r = write_all(fd, text, sizeof(text));
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r < 0)
		unlinkat(c->fd, MANIFEST_NAME, 0); /* a truncated MANIFEST might claim nothing */
	return r;
}

/*
 * The placeholder, rewritten in place with the reason (async-signal-safe).
 * One component opened O_NOFOLLOW in the capture's fd: as confined as
 * openat2 would make it.
 */
static void rewrite_placeholder(struct capture *c, const char *reason)
{
	char text[PLACEHOLDER_SIZE];
	int fd = openat(c->fd, MANIFEST_NAME, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return;
	placeholder_text(text, reason);
	(void)!pwrite(fd, text, sizeof(text), 0); /* failing, the old text says complete=0 too */
	close(fd);
}

int capture_new(const char *dir, unsigned flags, struct capture **ret)
{
	if (mkdir(dir, CAPTURE_DIR_MODE) < 0 && errno != EEXIST)
		return -errno;
	struct capture *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->cur_dir_fd = -1;
	c->last_fd = -1;
	/* the directory itself, never where a symlink of that name points (as --output-file) */
	c->fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (c->fd < 0 && errno == ENOTDIR) {
		struct stat st;
		if (lstat(dir, &st) == 0 && S_ISLNK(st.st_mode))
			errno = ELOOP;
	}
	if (c->fd < 0) {
		int r = -errno;
		free(c);
		return r;
	}
	if (!(flags & CAPTURE_NO_OPENAT2)) {
		c->use_openat2 = true;
		int probe = beneath_openat(c, c->fd, ".", O_PATH | O_DIRECTORY, 0);
		if (probe >= 0)
			close(probe);
		else
			c->use_openat2 = false; /* ENOSYS before 5.6, or a seccomp filter's EPERM */
	}

	int r = 0;
	c->full_log = flags & CAPTURE_FULL_LOG;
	if (flags & CAPTURE_PLAIN) {
		c->plain = true;
		if ((r = dir_empty(c->fd, false)) < 0)
			goto fail;
		*ret = c;
		return 0;
	}
	if ((flags & CAPTURE_NO_FLOCK) || flock(c->fd, LOCK_EX | LOCK_NB) < 0) {
		if (!(flags & CAPTURE_NO_FLOCK) && errno == EWOULDBLOCK) {
			r = -EBUSY;
			goto fail;
		}
		/* no flock here (NFS emulates it with POSIX locks, which want a writable fd) */
		int lfd = beneath_openat(c, c->fd, LOCK_NAME, O_WRONLY | O_CREAT | O_EXCL, CAPTURE_FILE_MODE);
		if (lfd < 0) {
			r = lfd == -EEXIST ? -EBUSY : lfd;
			goto fail;
		}
		close(lfd);
		c->lock_file = true;
	}
	/* refuse to mix with whatever is there already */
	if ((r = dir_empty(c->fd, c->lock_file)) < 0)
		goto fail;
	r = write_placeholder(c);
	if (r < 0)
		goto fail;
	*ret = c;
	return 0;
fail:
	capture_free(c);
	return r;
}

void capture_free(struct capture *c)
{
	if (!c)
		return;
	if (c->lock_file)
		unlinkat(c->fd, LOCK_NAME, 0);
	strmap_done(&c->made);
	strmap_done(&c->errors);
	free(c->reason);
	free(c->last_dir);
	if (c->last_fd >= 0)
		close(c->last_fd);
	close(c->fd);
	free(c);
}

/* Tests: the interruption lands halfway through a file, the worst moment. */
static void test_interrupt(struct capture *c, int fd, const char *buf, size_t len)
{
	if (!c->interrupt_at || ++c->writes != c->interrupt_at)
		return;
	if (len > 1)
		(void)!write(fd, buf, len / 2);
	raise(c->interrupt_sig);
}

int capture_file(struct capture *c, const char *canon, const char *buf, size_t len)
{
	const char *leaf;

	if (!path_ok(canon))
		return keep(c, -EINVAL, canon);
	if (reserved(c, canon))
		return 0;
	_cleanup_close_ int dfd = enter_parent(c, canon, &leaf);
	if (dfd < 0)
		return keep(c, dfd, canon);
	/* what capture_interrupt() removes when a signal comes now */
	c->cur_dir_fd = dfd;
	strcpy(c->cur_leaf, leaf);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	c->writing = 1;
	int fd = open_regular(c, dfd, leaf, O_WRONLY | O_CREAT | O_TRUNC);
	if (fd < 0) {
		c->writing = 0;
		return keep(c, fd, canon);
	}
	test_interrupt(c, fd, buf, len);
	int r = write_all(fd, buf, len);
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r < 0)
		unlinkat(dfd, leaf, 0); /* no half file: a replay must not take it for the whole */
	c->writing = 0;
	return r < 0 ? keep(c, r, canon) : 0;
}

int capture_link(struct capture *c, const char *canon, const char *target)
{
	char rel[PATH_MAX] = "";
	const char *leaf;

	if (!path_ok(canon))
		return keep(c, -EINVAL, canon);
	if (reserved(c, canon) || strmap_get(&c->made, canon))
		return 0;
	if (target[0] == '/') {
		/* an absolute target means root-relative: climb from the link's directory */
		size_t depth = 0, used = 0;
		for (const char *p = canon; *p; p++)
			depth += *p == '/';
		for (size_t i = 0; i < depth; i++) {
			if (used + 3 >= sizeof(rel))
				return keep(c, -ENAMETOOLONG, canon);
			memcpy(rel + used, "../", 3);
			used += 3;
		}
		const char *t = target;
		while (*t == '/')
			t++;
		if (used + strlen(t) + 1 > sizeof(rel))
			return keep(c, -ENAMETOOLONG, canon);
		strcpy(rel + used, *t ? t : ".");
		target = rel;
	}
	_cleanup_close_ int dfd = enter_parent(c, canon, &leaf);
	if (dfd < 0)
		return keep(c, dfd, canon);
	if (symlinkat(target, dfd, leaf) < 0 && errno != EEXIST)
		return keep(c, -errno, canon);
	return strmap_add(&c->made, canon, 0) < 0 ? keep(c, -ENOMEM, canon) : 0;
}

int capture_dir(struct capture *c, const char *canon)
{
	if (!*canon)
		return 0; /* the root itself */
	if (!path_ok(canon))
		return keep(c, -EINVAL, canon);
	if (reserved(c, canon) || strmap_get(&c->made, canon))
		return 0;
	int fd = enter_dir(c, canon);
	if (fd < 0)
		return keep(c, fd, canon);
	close(fd);
	return strmap_add(&c->made, canon, 0) < 0 ? keep(c, -ENOMEM, canon) : 0;
}

int capture_placeholder(struct capture *c, const char *canon)
{
	const char *leaf;

	if (!path_ok(canon))
		return keep(c, -EINVAL, canon);
	if (reserved(c, canon))
		return 0;
	_cleanup_close_ int dfd = enter_parent(c, canon, &leaf);
	if (dfd < 0)
		return keep(c, dfd, canon);
	int fd = open_regular(c, dfd, leaf, O_WRONLY | O_CREAT);
	if (fd < 0)
		return keep(c, fd, canon);
	close(fd);
	return 0;
}

int capture_error(struct capture *c, const char *path, int err)
{
	const char *name = errno_name(err);

	if (err == -ENOENT || err == ENOENT)
		return 0; /* absence is reproduced by absence */
	while (*path == '/')
		path++;
	if (reserved(c, path) || strmap_get(&c->errors, path))
		return 0;
	/* an error of this run (EMFILE, EIO...) tells nothing of the machine a replay could repeat */
	if (!errno_is_answer(err)) {
		_cleanup_free_ char *why = NULL;
		if (asprintf(&why, "reading %s failed: %s (%s)", path, name, errno_describe(err)) < 0)
			return keep(c, -ENOMEM, "MANIFEST");
		fail_with(c, err < 0 ? err : -err, why);
	}
	/* error.<path>=<NAME>\n; a path with '=' or a newline would not read back */
	size_t line = strlen("error.") + strlen(path) + 1 + strlen(name) + 1;
	bool fits = !strpbrk(path, "=\n") && c->error_bytes + line <= MANIFEST_ERRORS_MAX;
	int r = strmap_add(&c->errors, path, fits ? (err < 0 ? -err : err) : 0);
	if (r < 0)
		return keep(c, r, "MANIFEST");
	if (fits)
		c->error_bytes += line;
	else
		c->errors_omitted++;
	return 0;
}

void capture_fail(struct capture *c, const char *reason)
{
	fail_with(c, -ECANCELED, reason);
}

const char *capture_incomplete_reason(const struct capture *c)
{
	return c->first_error ? (c->reason ? c->reason : strerror(-c->first_error)) : NULL;
}

/* incomplete_reason= holds one line */
static void put_reason(FILE *f, const char *s)
{
	fputs("incomplete_reason=", f);
	for (; *s; s++)
		fputc(*s == '\n' ? '?' : *s, f);
	fputc('\n', f);
}

int capture_finish(struct capture *c, const struct manifest_entry *kv, size_t n)
{
	if (c->errors_omitted && !c->first_error) {
		char why[160];
		snprintf(why, sizeof(why),
			 "%zu failed reads not recorded (MANIFEST holds %u MiB of error lines)",
			 c->errors_omitted, MANIFEST_ERRORS_MAX >> 20);
		fail_with(c, -E2BIG, why);
	}
	/* complete=1 promises the files are on disk: late write-back errors count */
	if (!c->first_error && syncfs(c->fd) < 0)
		keep(c, -errno, "the capture (syncfs)");

	int fd = open_regular(c, c->fd, MANIFEST_TMP, O_WRONLY | O_CREAT | O_TRUNC);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		keep(c, fd < 0 ? fd : -ENOMEM, MANIFEST_NAME);
		if (fd >= 0) {
			close(fd);
			unlinkat(c->fd, MANIFEST_TMP, 0);
		}
		rewrite_placeholder(c, capture_incomplete_reason(c));
		return c->first_error;
	}
	fputs(MANIFEST_HEAD, f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s=%s\n", kv[i].key, kv[i].value);
	for (size_t i = 0; i < c->errors.n; i++)
		if (c->errors.v[i].value)
			fprintf(f, "error.%s=%s\n", c->errors.v[i].key, errno_name(c->errors.v[i].value));
	if (c->errors_omitted)
		fprintf(f, "errors_omitted=%zu\n", c->errors_omitted);
	/* last: a MANIFEST cut short has no complete=1 */
	if (c->first_error)
		put_reason(f, capture_incomplete_reason(c));
	fprintf(f, "complete=%d\n", c->first_error ? 0 : 1);
	errno = 0;
	int r = fflush(f) != 0 || ferror(f) ? (errno ? -errno : -EIO) : 0;
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (fclose(f) != 0 && r == 0)
		r = -errno;
	if (r == 0) {
		/* capture_interrupt() must see the placeholder or done, never the final one undone */
		sigset_t all, old;
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, &old);
		if (renameat(c->fd, MANIFEST_TMP, c->fd, MANIFEST_NAME) < 0)
			r = -errno;
		else
			c->done = 1;
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	if (r < 0) {
		unlinkat(c->fd, MANIFEST_TMP, 0);
		keep(c, r, MANIFEST_NAME);
		rewrite_placeholder(c, capture_incomplete_reason(c)); /* it needs no room */
		return c->first_error;
	}
	if (c->lock_file && unlinkat(c->fd, LOCK_NAME, 0) == 0)
		c->lock_file = false;
	return c->first_error;
}

bool capture_interrupt(struct capture *c, const char *signame)
{
	char why[64];

	if (!c || c->done)
		return false;
	c->done = 1;
	if (c->writing)
		unlinkat(c->cur_dir_fd, c->cur_leaf, 0);
	unlinkat(c->fd, MANIFEST_TMP, 0);
	append(why, sizeof(why), append(why, sizeof(why), 0, "interrupted by ", true), signame, true);
	rewrite_placeholder(c, why);
	if (c->lock_file)
		unlinkat(c->fd, LOCK_NAME, 0);
	return true;
}

bool capture_full_log(const struct capture *c)
{
	return c && c->full_log;
}

/* The tap: each access of the sysroot layer becomes a copy (errors are kept in c). */
static void tap_file(void *c, const char *canon, const char *buf, size_t len)
{
	(void)capture_file(c, canon, buf, len);
}

static void tap_link(void *c, const char *canon, const char *target)
{
	(void)capture_link(c, canon, target);
}

static void tap_dir(void *c, const char *canon)
{
	(void)capture_dir(c, canon);
}

static void tap_placeholder(void *c, const char *canon)
{
	(void)capture_placeholder(c, canon);
}

static void tap_error(void *c, const char *path, int err)
{
	(void)capture_error(c, path, err);
}

/* A filtering reader's file: what it used, or the whole log for --capture-full-log. */
static void tap_record(void *data, const char *canon, const char *used, size_t used_len,
		       const char *whole, size_t whole_len)
{
	struct capture *c = data;
	bool full = c->full_log && whole;

	(void)capture_file(c, canon, full ? whole : used, full ? whole_len : used_len);
}

static const struct sysroot_tap capture_tap = {
	.file = tap_file, .link = tap_link, .dir = tap_dir, .placeholder = tap_placeholder,
	.error = tap_error, .record = tap_record,
};

int capture_attach(struct capture *c, struct sysroot *sr)
{
	return sysroot_set_tap(sr, &capture_tap, c);
}

const char *capture_resolver(const struct capture *c)
{
	return c->use_openat2 ? "openat2" : "walk";
}

void capture_set_test_interrupt(struct capture *c, unsigned long n, int sig)
{
	c->interrupt_at = n;
	c->interrupt_sig = sig;
}
