/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The only code that opens files: confined, bounded, -errno reads. */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "shared/debug.h"
#include "shared/errno-util.h"
#include "shared/macro.h"
#include "shared/read-fd.h"
#include "shared/openat2.h"
#include "shared/kernel-defs.h"
#include "shared/path.h"
#include "sysroot/sysroot-private.h"


static int openat2_in_root(int root_fd, const char *path, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)(flags | O_CLOEXEC),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, root_fd, path, &how, sizeof(how));

	return fd < 0 ? -errno : (int)fd;
}

/* openat2() gives up with EAGAIN when a rename anywhere raced its ".." steps. */
#define OPENAT2_TRIES 8

int sysroot_resolve(struct sysroot *sr, const char *path, bool follow_last, char **ret_canon)
{
	for (unsigned i = 0; sr->use_openat2 && i < OPENAT2_TRIES; i++) {
		int fd = openat2_in_root(sr->root_fd, path, O_PATH | (follow_last ? 0 : O_NOFOLLOW));
		if (fd != -EAGAIN)
			return fd;
	}
	/* the walk has no such race: it answers when openat2 keeps losing it */
	return sysroot_walk(sr->root_fd, path, follow_last, sr, sr->tap ? ret_canon : NULL);
}

int sysroot_resolve_dir(struct sysroot *sr, const char *path, char **ret_canon)
{
	struct stat st;

	for (unsigned i = 0; sr->use_openat2 && i < OPENAT2_TRIES; i++) {
		int fd = openat2_in_root(sr->root_fd, path, O_PATH | O_DIRECTORY);
		if (fd != -EAGAIN)
			return fd;
	}
	int fd = sysroot_walk(sr->root_fd, path, true, sr, sr->tap ? ret_canon : NULL);
	if (fd < 0)
		return fd;
	int r = fstat(fd, &st) < 0 ? -errno : S_ISDIR(st.st_mode) ? fd : -ENOTDIR;
	if (r < 0)
		close(fd);
	return r;
}

/* The tap is told of a failed read (a capture's MANIFEST error.<path>=ERRNO). */
static int noted(struct sysroot *sr, const char *path, int r)
{
	if (r < 0 && r != -ENOMEM && r != -EAGAIN)
		SYSROOT_TAP(sr, error, path, r);
	return r;
}

/* Reopen an O_PATH fd for reading: opens the very inode that was checked. */
static int reopen(int path_fd, int flags)
{
	char p[64];

	snprintf(p, sizeof(p), "/proc/self/fd/%d", path_fd);
	int fd = open(p, flags | O_CLOEXEC | O_NOCTTY);
	return fd < 0 ? -errno : fd;
}

/* An absence the MANIFEST recorded as an error reads as that error. */
static int recorded_error(const struct sysroot *sr, const char *path, int r)
{
	int e = r == -ENOENT ? sysroot_recorded_error(sr, path) : 0;

	return e ? e : r;
}

int sysroot_finish(struct sysroot *sr, const char *op, const char *dir, const char *name, int r,
		   const char *detail)
{
	/* "not a link" is an answer, not a failure: nothing recorded */
	bool failed = r < 0 && !(r == -EINVAL && strcmp(op, "readlink") == 0);
	_cleanup_free_ char *joined = NULL;
	const char *path = name;

	if (failed && dir && (r != -ENOENT || sr->tap || sr->errors.n)) {
		joined = path_join(dir, name);
		if (!joined)
			return -ENOMEM;
		path = joined;
	}
	/* out of descriptors or memory (this run's, not one a MANIFEST recorded): what it hid is unread */
	if (failed && errno_is_exhaustion(r) && !sr->exhausted) {
		sr->exhausted = r;
		sr->exhausted_path = dir ? path_join(dir, name) : strdup(name);
	}
	if (failed && (!dir || joined)) {
		r = recorded_error(sr, path, r);
		noted(sr, path, r);
	}
	sysroot_trace(sr, op, dir, name, r, detail);
	return r;
}

void sysroot_trace(const struct sysroot *sr, const char *op, const char *dir, const char *name,
		   int r, const char *detail)
{
	const char *e = r < 0 ? errno_name(r) : "0";

	if (!sr->trace)
		return;
	fprintf(stderr, "%s: sysroot: %s %s%s%s: %s%s%s%s\n", PACKAGE, op, dir ? dir : "",
		dir && *dir ? "/" : "", name, e, detail ? " (" : "", detail ? detail : "",
		detail ? ")" : "");
}

int sysroot_open(const char *path, unsigned flags, struct sysroot **ret)
{
	_cleanup_close_ int fd = -1;
	struct stat st;

	fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;

	struct sysroot *sr = calloc(1, sizeof(*sr));
	if (!sr)
		return -ENOMEM;
	sr->path = strdup(path);
	if (!sr->path) {
		free(sr);
		return -ENOMEM;
	}
	struct stat rootst;
	sr->live = stat("/", &rootst) == 0 && rootst.st_dev == st.st_dev &&
		   rootst.st_ino == st.st_ino;
	sr->root_fd = TAKE_FD(fd);
	sr->trace = debug_enabled(DEBUG_SYSROOT);
	sr->use_openat2 = false;
	if (!(flags & SYSROOT_NO_OPENAT2)) {
		int probe = openat2_in_root(sr->root_fd, ".", O_PATH);
		if (probe >= 0) {
			close(probe);
			sr->use_openat2 = true;
		}
	}
	/* which resolver every later line went through: openat2 or the walk */
	sysroot_trace(sr, "open", NULL, ".", 0, sysroot_resolver(sr));
	*ret = sr;
	return 0;
}

int sysroot_exhausted(const struct sysroot *sr, const char **ret_path)
{
	if (ret_path)
		*ret_path = sr->exhausted_path ? sr->exhausted_path : "?";
	return sr->exhausted;
}

void sysroot_free(struct sysroot *sr)
{
	if (!sr)
		return;
	strmap_done(&sr->errors);
	free(sr->exhausted_path);
	for (size_t i = 0; i < sr->n_anchors; i++)
		if (sr->anchors[i].fd >= 0)
			close(sr->anchors[i].fd);
	if (sr->root_fd >= 0)
		close(sr->root_fd);
	free(sr->path);
	free(sr);
}

bool sysroot_is_live(const struct sysroot *sr)
{
	return sr->live;
}

const char *sysroot_path(const struct sysroot *sr)
{
	return sr->path;
}

const char *sysroot_resolver(const struct sysroot *sr)
{
	return sr->use_openat2 ? "openat2" : "walk";
}

int sysroot_recorded_error(const struct sysroot *sr, const char *path)
{
	if (sr->errors.n == 0)
		return 0;
	while (*path == '/')
		path++;
	const struct strmap_entry *e = strmap_get(&sr->errors, path);
	return e ? -e->value : 0;
}

int sysroot_add_recorded_error(struct sysroot *sr, const char *path, int err)
{
	if (err <= 0)
		return -EINVAL;
	while (*path == '/')
		path++;
	int r = strmap_add(&sr->errors, path, err); /* the first one recorded wins */
	return r < 0 ? r : 0;
}

/* path opened for reading once it is known to be a regular file, and its size; -errno. */
static int open_regular(struct sysroot *sr, const char *path, off_t *ret_size, char **ret_canon)
{
	_cleanup_close_ int pfd = sysroot_resolve(sr, path, true, ret_canon);
	struct stat st;

	if (pfd < 0)
		return pfd;
	if (fstat(pfd, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode))
		return -EINVAL; /* FIFO, socket or device node: never opened for reading */
	*ret_size = st.st_size;
	return reopen(pfd, O_RDONLY | O_NONBLOCK);
}

int sysroot_read_careful(struct sysroot *sr, const char *path, size_t max, char **ret_buf,
			 size_t *ret_len, char **ret_canon)
{
	off_t size = 0;
	_cleanup_close_ int fd = open_regular(sr, path, &size, ret_canon);

	if (fd < 0)
		return fd;
	return read_fd_all(fd, max, size, ret_buf, ret_len);
}

/* The trace's "(N bytes)". */
static const char *count_detail(char *buf, size_t size, int r, size_t n, const char *unit)
{
	if (r < 0)
		return NULL;
	snprintf(buf, size, "%zu %s", n, unit);
	return buf;
}

/*
 * After a read of path: the tap told now, or (ret_canon) where the reader
 * records what it used later; the length; the trace line.
 */
static int read_done(struct sysroot *sr, const char *op, const char *path, int r, const char *buf,
		     size_t len, char **canon, size_t *ret_len, char **ret_canon)
{
	char detail[32];

	if (r == 0 && *canon && !ret_canon)
		SYSROOT_TAP(sr, file, *canon, buf, len);
	if (r == 0 && ret_len)
		*ret_len = len;
	if (r == 0 && ret_canon)
		*ret_canon = TAKE_PTR(*canon);
	return sysroot_finish(sr, op, NULL, path, r, count_detail(detail, sizeof(detail), r, len, "bytes"));
}

int sysroot_read_file_deferred(struct sysroot *sr, const char *path, size_t max, char **ret_buf,
			   size_t *ret_len, char **ret_canon)
{
	_cleanup_free_ char *canon = NULL;
	size_t len = 0;
	int r = sysroot_read_careful(sr, path, max, ret_buf, &len, &canon);

	return read_done(sr, "read", path, r, r == 0 ? *ret_buf : NULL, len, &canon, ret_len, ret_canon);
}

int sysroot_read_file(struct sysroot *sr, const char *path, size_t max, char **ret_buf,
		      size_t *ret_len)
{
	return sysroot_read_file_deferred(sr, path, max, ret_buf, ret_len, NULL);
}

/* 64 KiB: the pages are touched once and reused, where a whole pci.ids faults in 330 fresh ones */
#define STREAM_CHUNK 65536
_Static_assert(SYSROOT_STREAM_KEEP < STREAM_CHUNK / 2, "each read must bring more than what is kept");

/* 0 once the file is read or eat() refused it (*ret_eaten: its error); -errno when the read failed. */
static int read_stream_fd(int fd, size_t max, sysroot_eat_t eat, void *userdata, size_t *ret_len,
			  int *ret_eaten)
{
	_cleanup_free_ char *buf = malloc(STREAM_CHUNK);
	size_t have = 0, total = 0;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n = read_some(fd, buf + have, STREAM_CHUNK - have);
		if (n < 0)
			return (int)n;
		total += (size_t)n;
		if (total > max)
			return -EFBIG;
		have += (size_t)n;
		bool last = n == 0;
		ssize_t used = eat(buf, have, last, userdata);
		if (used < 0) {
			*ret_eaten = (int)used;
			break;
		}
		if ((size_t)used > have || (last && (size_t)used != have))
			return -EINVAL;
		have -= (size_t)used;
		if (have >= SYSROOT_STREAM_KEEP)
			return -ENOBUFS;
		if (last)
			break;
		memmove(buf, buf + used, have);
	}
	*ret_len = total;
	return 0;
}

int sysroot_read_stream_deferred(struct sysroot *sr, const char *path, size_t max, sysroot_eat_t eat,
			     void *userdata, size_t *ret_len, char **ret_canon)
{
	_cleanup_free_ char *canon = NULL;
	off_t size = 0;
	_cleanup_close_ int fd = open_regular(sr, path, &size, &canon);
	size_t len = 0;
	int r = fd < 0 ? fd : 0, eaten = 0;

	/* too long is said before anything in it, as sysroot_read_file() says it */
	if (r == 0 && (uint64_t)size > max)
		r = -EFBIG;
	if (r == 0)
		r = read_stream_fd(fd, max, eat, userdata, &len, &eaten);
	/* what the reader refused was read all the same: the read succeeded, for the trace and a MANIFEST */
	r = read_done(sr, "read", path, r, NULL, len, &canon, ret_len, ret_canon);
	return r < 0 ? r : eaten;
}

/* One record per read(); a record is at most ~8 KiB (printk's CONSOLE_EXT_LOG_MAX). */
#define RECORD_MAX 16384

static int read_records_fd(int fd, size_t max, char **ret_buf, size_t *ret_len)
{
	size_t cap = 65536, len = 0;
	_cleanup_free_ char *buf = malloc(cap + 1);

	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (cap - len < RECORD_MAX) {
			if (cap > max)
				return -EFBIG;
			char *nb = realloc(buf, cap * 2 + 1);
			if (!nb)
				return -ENOMEM;
			buf = nb;
			cap *= 2;
		}
		ssize_t n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR || errno == EPIPE)
				continue; /* EPIPE: records overwritten before we read them */
			if (errno == EAGAIN)
				break;    /* no more records */
			return -errno;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > max)
			return -EFBIG;
	}
	buf[len] = '\0';
	*ret_buf = TAKE_PTR(buf);
	if (ret_len)
		*ret_len = len;
	return 0;
}

static int read_records_canon(struct sysroot *sr, const char *path, size_t max, char **ret_buf,
			      size_t *ret_len, char **ret_canon)
{
	_cleanup_close_ int pfd = sysroot_resolve(sr, path, true, ret_canon);
	_cleanup_close_ int fd = -1;
	struct stat st;

	if (pfd < 0)
		return pfd;
	if (fstat(pfd, &st) < 0)
		return -errno;
	if (S_ISREG(st.st_mode)) {
		fd = reopen(pfd, O_RDONLY | O_NONBLOCK);
		return fd < 0 ? fd : read_fd_all(fd, max, st.st_size, ret_buf, ret_len);
	}
	if (!S_ISCHR(st.st_mode) || !sr->live)
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL; /* device nodes only live */
	fd = reopen(pfd, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return fd;
	return read_records_fd(fd, max, ret_buf, ret_len);
}

/* The kernel log is told to the tap as a regular file in its record format: whole, or later (ret_canon). */
int sysroot_read_records_deferred(struct sysroot *sr, const char *path, size_t max, char **ret_buf,
			      size_t *ret_len, char **ret_canon)
{
	_cleanup_free_ char *canon = NULL;
	size_t len = 0;
	int r = read_records_canon(sr, path, max, ret_buf, &len, &canon);

	return read_done(sr, "read-records", path, r, r == 0 ? *ret_buf : NULL, len, &canon, ret_len,
			 ret_canon);
}

int sysroot_read_records(struct sysroot *sr, const char *path, size_t max, char **ret_buf,
			 size_t *ret_len)
{
	return sysroot_read_records_deferred(sr, path, max, ret_buf, ret_len, NULL);
}

void sysroot_tap_record(struct sysroot *sr, const char *canon, const char *used, size_t used_len,
			const char *whole, size_t whole_len)
{
	SYSROOT_TAP(sr, record, canon, used, used_len, whole, whole_len);
}

int sysroot_readlink_careful(struct sysroot *sr, const char *path, char **ret, char **ret_canon)
{
	_cleanup_close_ int pfd = sysroot_resolve(sr, path, false, ret_canon);
	char target[PATH_MAX];

	if (pfd < 0)
		return pfd;
	ssize_t n = readlinkat(pfd, "", target, sizeof(target) - 1);
	if (n < 0)
		return errno == ENOENT ? -EINVAL : -errno; /* not a link */
	target[n] = '\0';
	char *s = strdup(target);
	if (!s)
		return -ENOMEM;
	*ret = s;
	return 0;
}

int sysroot_readlink(struct sysroot *sr, const char *path, char **ret)
{
	_cleanup_free_ char *canon = NULL;
	int r = sysroot_readlink_careful(sr, path, ret, &canon);

	if (r == 0 && canon)
		SYSROOT_TAP(sr, link, canon, *ret);
	return sysroot_finish(sr, "readlink", NULL, path, r, r == 0 ? *ret : NULL);
}


/* A listing told to the tap: the directory, and each entry that is a link or a directory. */
static void tap_listing(struct sysroot *sr, int dfd, const char *canon, char **names, size_t n)
{
	SYSROOT_TAP(sr, dir, canon);
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		char target[PATH_MAX];
		_cleanup_free_ char *c = path_join(canon, names[i]);
		if (!c || fstatat(dfd, names[i], &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISLNK(st.st_mode)) {
			ssize_t k = readlinkat(dfd, names[i], target, sizeof(target) - 1);
			if (k >= 0) {
				target[k] = '\0';
				SYSROOT_TAP(sr, link, c, target);
			}
		} else if (S_ISDIR(st.st_mode)) {
			SYSROOT_TAP(sr, dir, c);
		}
		/* regular files are copied when read, not listed: a replay reads what live read */
	}
}

int sysroot_list_fd(struct sysroot *sr, int pfd, const char *canon, struct strv *ret)
{
	_cleanup_strv_ struct strv names = { 0 };
	int r = 0;

	int fd = openat(pfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	DIR *d = fdopendir(fd);
	if (!d) {
		r = -errno;
		close(fd);
		return r;
	}
	struct dirent *de;
	for (errno = 0; (de = readdir(d)); errno = 0) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		r = strv_push(&names, de->d_name);
		if (r < 0)
			break;
	}
	if (r == 0 && errno)
		r = -errno;
	closedir(d);
	if (r < 0)
		return r;
	strv_sort(&names);
	if (canon && sr->tap)
		tap_listing(sr, pfd, canon, names.v, names.n);
	*ret = names;
	names = (struct strv){ 0 };
	return 0;
}

int sysroot_list_dir(struct sysroot *sr, const char *path, struct strv *ret)
{
	_cleanup_free_ char *canon = NULL;
	_cleanup_close_ int pfd = sysroot_resolve(sr, path, true, &canon);
	char detail[32];
	int r = pfd < 0 ? pfd : sysroot_list_fd(sr, pfd, canon, ret);

	return sysroot_finish(sr, "list", NULL, path, r,
			      count_detail(detail, sizeof(detail), r, r == 0 ? ret->n : 0, "entries"));
}

/* The tap learns what existed: a directory, or a placeholder for a file or device node. */
void sysroot_tap_stat(struct sysroot *sr, const char *canon, const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		SYSROOT_TAP(sr, dir, canon);
	else
		SYSROOT_TAP(sr, placeholder, canon);
}

int sysroot_stat_careful(struct sysroot *sr, const char *path, struct stat *ret, char **ret_canon)
{
	_cleanup_close_ int pfd = sysroot_resolve(sr, path, true, ret_canon);

	if (pfd < 0)
		return pfd;
	return fstat(pfd, ret) < 0 ? -errno : 0;
}

int sysroot_stat(struct sysroot *sr, const char *path, struct stat *ret)
{
	_cleanup_free_ char *canon = NULL;
	int r = sysroot_stat_careful(sr, path, ret, &canon);

	if (r == 0 && canon)
		sysroot_tap_stat(sr, canon, ret);
	return sysroot_finish(sr, "stat", NULL, path, r, NULL);
}

int sysroot_realpath(struct sysroot *sr, const char *path, char **ret)
{
	_cleanup_free_ char *canon = NULL;
	int r;

	/* the walk knows the path it took; openat2 does not tell */
	r = sysroot_walk(sr->root_fd, path, true, sr, &canon);
	if (r >= 0) {
		struct stat st;
		if (sr->tap && fstat(r, &st) == 0)
			sysroot_tap_stat(sr, canon, &st);
		close(r);
		r = 0;
	}
	r = sysroot_finish(sr, "realpath", NULL, path, r, r == 0 ? canon : NULL);
	if (r == 0)
		*ret = TAKE_PTR(canon);
	return r;
}

int sysroot_set_tap(struct sysroot *sr, const struct sysroot_tap *tap, void *data)
{
	sr->tap = tap;
	sr->tap_data = data;
	if (tap)
		sr->use_openat2 = false; /* the walk sees (and tells) every link on the way */
	return 0;
}
