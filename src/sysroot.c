/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The only code that opens files: confined, bounded, -errno reads. */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "shared/macro.h"
#include "shared/openat2.h"
#include "shared/strmap.h"
#include "sysroot.h"

/* Linux's own limit on symlinks followed in one lookup (MAXSYMLINKS). */
#define MAX_SYMLINKS 40

/* Directories kept open for leaf lookups (least recently used goes first). */
#define DIR_CACHE 4

struct sysroot {
	char *path;
	int root_fd; /* O_PATH|O_DIRECTORY on the root */
	bool live;
	bool use_openat2;
	struct strmap errors; /* MANIFEST error.<path>=ERRNO: path -> errno */
	struct {
		char *path; /* a directory resolved for leaf lookups */
		int fd;     /* O_PATH on it, -1 when the slot is free */
		unsigned long used;
	} dirs[DIR_CACHE]; /* a device's own directory, its bus list, its driver, its group */
	unsigned long clock;
	struct capture *cap; /* --capture: copy what is read; NULL otherwise */
};

static int openat2_in_root(int root_fd, const char *path, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)(flags | O_CLOEXEC),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, root_fd, path, &how, sizeof(how));

	return fd < 0 ? -errno : (int)fd;
}

/* Split off the first component of *rest; skips empty components and ".". */
static bool next_component(const char **rest, char *buf, size_t bufsz, int *err)
{
	const char *p = *rest;

	for (;;) {
		while (*p == '/')
			p++;
		if (!*p) {
			*rest = p;
			return false;
		}
		size_t len = strcspn(p, "/");
		if (len >= bufsz) {
			*err = -ENAMETOOLONG;
			*rest = p + len;
			return false;
		}
		if (len == 1 && p[0] == '.') {
			p += 1;
			continue;
		}
		memcpy(buf, p, len);
		buf[len] = '\0';
		*rest = p + len;
		return true;
	}
}

/*
 * Resolve path under root_fd as RESOLVE_IN_ROOT does: absolute symlinks
 * restart at the root, ".." never climbs above it. Returns an O_PATH fd.
 * follow_last=false leaves a final symlink unresolved (for readlink).
 */
static int walk_in_root(int root_fd, const char *path, bool follow_last, struct capture *cap,
			char **ret_canon)
{
	int stack[PATH_MAX / 2]; /* fds of the directories walked, [0] = root copy */
	size_t canon_at[PATH_MAX / 2]; /* length of canon at each depth */
	char canon[PATH_MAX] = "";     /* the path walked so far, every link resolved */
	size_t depth = 0;
	unsigned links = 0;
	int r = 0;
	_cleanup_free_ char *pending = strdup(path); /* what is left to walk */

	if (!pending)
		return -ENOMEM;
	if (!*path)
		return -ENOENT; /* openat2 resolves "" to nothing, not to the root */
	stack[0] = fcntl(root_fd, F_DUPFD_CLOEXEC, 3);
	if (stack[0] < 0)
		return -errno;
	canon_at[0] = 0;

	const char *rest = pending;
	char comp[NAME_MAX + 1];
	int err = 0;

	while (next_component(&rest, comp, sizeof(comp), &err)) {
		if (strcmp(comp, "..") == 0) {
			if (depth > 0)
				close(stack[depth--]);
			canon[canon_at[depth]] = '\0';
			continue;
		}
		size_t here = canon_at[depth], clen = strlen(comp);
		if (here + 1 + clen + 1 > sizeof(canon)) {
			r = -ENAMETOOLONG;
			goto out;
		}
		/* canon becomes the path of this component */
		if (here)
			canon[here++] = '/';
		memcpy(canon + here, comp, clen + 1);
		int fd = openat(stack[depth], comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			r = -errno;
			goto out;
		}
		struct stat st;
		if (fstat(fd, &st) < 0) {
			r = -errno;
			close(fd);
			goto out;
		}
		bool last = true;
		for (const char *q = rest; *q; q++)
			if (*q != '/') {
				last = false;
				break;
			}
		bool slash = *rest == '/'; /* "file/" must be a directory, as for openat2 */
		if (S_ISLNK(st.st_mode) && (!last || follow_last || slash)) {
			char target[PATH_MAX];
			ssize_t n = readlinkat(fd, "", target, sizeof(target) - 1);
			close(fd);
			if (n < 0) {
				r = -errno;
				goto out;
			}
			target[n] = '\0';
			if (cap)
				capture_link(cap, canon, target);
			canon[canon_at[depth]] = '\0';
			if (++links > MAX_SYMLINKS) {
				r = -ELOOP;
				goto out;
			}
			if (target[0] == '/') {
				while (depth > 0)
					close(stack[depth--]);
				canon[0] = '\0';
			}
			size_t tl = strlen(target), rl = strlen(rest);
			char *np = malloc(tl + 1 + rl + 1);
			if (!np) {
				r = -ENOMEM;
				goto out;
			}
			memcpy(np, target, tl);
			np[tl] = '/'; /* rest starts with '/' or is empty: no trailing slash added */
			memcpy(np + (rl ? tl + 1 : tl), rest, rl + 1);
			free(pending);
			pending = np;
			rest = pending;
			continue;
		}
		if ((!last || slash) && !S_ISDIR(st.st_mode)) {
			close(fd);
			r = -ENOTDIR;
			goto out;
		}
		if (depth + 1 >= ARRAY_SIZE(stack)) {
			close(fd);
			r = -ENAMETOOLONG;
			goto out;
		}
		stack[++depth] = fd;
		canon_at[depth] = strlen(canon);
	}
	if (err < 0) {
		r = err;
		goto out;
	}
	if (ret_canon && !(*ret_canon = strdup(canon))) {
		r = -ENOMEM;
		goto out;
	}
	r = stack[depth];
	stack[depth] = -1;
out:
	for (size_t i = 0; i <= depth; i++)
		if (stack[i] >= 0)
			close(stack[i]);
	return r;
}

/* An O_PATH fd for path inside the root; when capturing, its canonical path too. */
static int resolve_canon(struct sysroot *sr, const char *path, bool follow_last, char **ret_canon)
{
	if (sr->use_openat2)
		return openat2_in_root(sr->root_fd, path, O_PATH | (follow_last ? 0 : O_NOFOLLOW));
	return walk_in_root(sr->root_fd, path, follow_last, sr->cap, sr->cap ? ret_canon : NULL);
}

static int resolve(struct sysroot *sr, const char *path, bool follow_last)
{
	return resolve_canon(sr, path, follow_last, NULL);
}

/* "dir/leaf" for the capture, or NULL (capture off, or no memory: the capture notes it). */
static char *canon_join(const struct sysroot *sr, const char *dir, const char *leaf)
{
	char *p = NULL;
	if (!sr->cap || !dir)
		return NULL;
	if (asprintf(&p, "%s%s%s", dir, *dir ? "/" : "", leaf) < 0)
		return NULL;
	return p;
}

/* What a failed read leaves in a capture: MANIFEST error.<path>=ERRNO. */
static int noted(struct sysroot *sr, const char *path, int r)
{
	if (sr->cap && r < 0 && r != -ENOMEM && r != -EAGAIN)
		capture_error(sr->cap, path, r);
	return r;
}

/*
 * Readers read many files of one directory in a row (a device's attributes):
 * resolve the directory once, keep an O_PATH fd on it, and open plain leaves
 * relative to it. Returns the directory fd (owned by sr) and the leaf, or
 * -EAGAIN when the path does not split into a cacheable directory and a
 * plain name (the caller then takes the full resolver).
 */
static int dir_for_leaf(struct sysroot *sr, const char *path, const char **ret_leaf)
{
	const char *slash = strrchr(path, '/');
	const char *leaf = slash ? slash + 1 : path;
	size_t dlen = slash ? (size_t)(slash - path) : 0;
	size_t victim = 0;

	if (sr->cap || !*leaf || strcmp(leaf, ".") == 0 || strcmp(leaf, "..") == 0)
		return -EAGAIN; /* a capture takes the walk, which sees every link */
	for (size_t i = 0; i < DIR_CACHE; i++) {
		if (sr->dirs[i].fd >= 0 && strlen(sr->dirs[i].path) == dlen &&
		    memcmp(sr->dirs[i].path, path, dlen) == 0) {
			sr->dirs[i].used = ++sr->clock;
			*ret_leaf = leaf;
			return sr->dirs[i].fd;
		}
		/* a free slot first, else the least recently used */
		if (sr->dirs[victim].fd >= 0 &&
		    (sr->dirs[i].fd < 0 || sr->dirs[i].used < sr->dirs[victim].used))
			victim = i;
	}
	char *d = strndup(path, dlen);
	if (!d)
		return -ENOMEM;
	int fd = dlen ? resolve(sr, d, true) : fcntl(sr->root_fd, F_DUPFD_CLOEXEC, 3);
	if (fd < 0) {
		int r = fd == -1 ? -errno : fd;
		free(d);
		return r == -ENOTDIR || r == -ENOENT || r == -EACCES || r == -ELOOP ? r : -EAGAIN;
	}
	if (sr->dirs[victim].fd >= 0)
		close(sr->dirs[victim].fd);
	free(sr->dirs[victim].path);
	sr->dirs[victim].fd = fd;
	sr->dirs[victim].path = d;
	sr->dirs[victim].used = ++sr->clock;
	*ret_leaf = leaf;
	return fd;
}

/* Reopen an O_PATH fd for reading: opens the very inode that was checked. */
static int reopen(int path_fd, int flags)
{
	char p[64];

	snprintf(p, sizeof(p), "/proc/self/fd/%d", path_fd);
	int fd = open(p, flags | O_CLOEXEC | O_NOCTTY);
	return fd < 0 ? -errno : fd;
}

static int recorded_error(const struct sysroot *sr, const char *path, int r)
{
	if (r != -ENOENT)
		return r;
	while (*path == '/')
		path++;
	const struct strmap_entry *e = strmap_get(&sr->errors, path);
	return e ? -e->value : r;
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
	for (size_t i = 0; i < DIR_CACHE; i++)
		sr->dirs[i].fd = -1;
	sr->use_openat2 = false;
	if (!(flags & SYSROOT_NO_OPENAT2)) {
		int probe = openat2_in_root(sr->root_fd, ".", O_PATH);
		if (probe >= 0) {
			close(probe);
			sr->use_openat2 = true;
		}
	}
	*ret = sr;
	return 0;
}

void sysroot_free(struct sysroot *sr)
{
	if (!sr)
		return;
	strmap_done(&sr->errors);
	if (sr->root_fd >= 0)
		close(sr->root_fd);
	for (size_t i = 0; i < DIR_CACHE; i++) {
		if (sr->dirs[i].fd >= 0)
			close(sr->dirs[i].fd);
		free(sr->dirs[i].path);
	}
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

int sysroot_add_recorded_error(struct sysroot *sr, const char *path, int err)
{
	if (err <= 0)
		return -EINVAL;
	while (*path == '/')
		path++;
	int r = strmap_add(&sr->errors, path, err); /* the first one recorded wins */
	return r < 0 ? r : 0;
}

/*
 * Read fd to its end. size_hint is st_size (0 when unknown, as on procfs):
 * once that many bytes are in, the read that would return 0 is skipped, which
 * halves the read() calls on snapshots and sysfs binary attributes.
 */
static int read_fd(int fd, size_t max, off_t size_hint, char **ret_buf, size_t *ret_len)
{
	/* compared as uint64_t: a 64-bit off_t truncated to a 32-bit size_t could look small */
	bool hint = size_hint > 0 && (uint64_t)size_hint <= max;
	size_t cap = hint ? (size_t)size_hint : 4096, len = 0;
	_cleanup_free_ char *buf = malloc(cap + 1);

	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (len == cap) {
			if (cap > max)
				return -EFBIG;
			size_t ncap = cap * 2;
			char *nb = realloc(buf, ncap + 1);
			if (!nb)
				return -ENOMEM;
			buf = nb;
			cap = ncap;
		}
		ssize_t n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > max)
			return -EFBIG;
		if (hint && len == (size_t)size_hint)
			break;
	}
	buf[len] = '\0';
	*ret_buf = TAKE_PTR(buf);
	if (ret_len)
		*ret_len = len;
	return 0;
}

/*
 * The fast path: a plain regular file in a cached directory, checked with
 * fstatat() before it is opened (so no FIFO or device node is ever opened)
 * and again after (the very inode). -EAGAIN: take the full resolver.
 */
static int read_leaf(struct sysroot *sr, const char *path, size_t max, char **ret_buf,
		     size_t *ret_len)
{
	const char *leaf;
	int dfd = dir_for_leaf(sr, path, &leaf);
	struct stat st, st2;

	if (dfd < 0)
		return dfd == -EAGAIN ? dfd : recorded_error(sr, path, dfd);
	if (fstatat(dfd, leaf, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? recorded_error(sr, path, -ENOENT) : -errno;
	if (!S_ISREG(st.st_mode))
		return -EAGAIN; /* links, directories, FIFOs, devices: the careful path decides */
	_cleanup_close_ int fd = openat(dfd, leaf, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st2) < 0)
		return -errno;
	if (st2.st_ino != st.st_ino || st2.st_dev != st.st_dev || !S_ISREG(st2.st_mode))
		return -EAGAIN; /* swapped under us: let the careful path look again */
	return read_fd(fd, max, st2.st_size, ret_buf, ret_len);
}

static int read_file_canon(struct sysroot *sr, const char *path, size_t max, char **ret_buf,
			   size_t *ret_len, char **ret_canon)
{
	int r = read_leaf(sr, path, max, ret_buf, ret_len);
	if (r != -EAGAIN)
		return r;

	_cleanup_close_ int pfd = resolve_canon(sr, path, true, ret_canon);
	_cleanup_close_ int fd = -1;
	struct stat st;

	if (pfd < 0)
		return recorded_error(sr, path, pfd);
	if (fstat(pfd, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode))
		return -EINVAL; /* FIFO, socket or device node: never opened for reading */
	fd = reopen(pfd, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return fd;
	return read_fd(fd, max, st.st_size, ret_buf, ret_len);
}

int sysroot_read_file(struct sysroot *sr, const char *path, size_t max, char **ret_buf,
		      size_t *ret_len)
{
	_cleanup_free_ char *canon = NULL;
	size_t len = 0;
	int r = read_file_canon(sr, path, max, ret_buf, &len, &canon);

	if (r == 0 && canon)
		capture_file(sr->cap, canon, *ret_buf, len);
	if (r == 0 && ret_len)
		*ret_len = len;
	return noted(sr, path, r);
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
	_cleanup_close_ int pfd = resolve_canon(sr, path, true, ret_canon);
	_cleanup_close_ int fd = -1;
	struct stat st;

	if (pfd < 0)
		return recorded_error(sr, path, pfd);
	if (fstat(pfd, &st) < 0)
		return -errno;
	if (S_ISREG(st.st_mode)) {
		fd = reopen(pfd, O_RDONLY | O_NONBLOCK);
		return fd < 0 ? fd : read_fd(fd, max, st.st_size, ret_buf, ret_len);
	}
	if (!S_ISCHR(st.st_mode) || !sr->live)
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL; /* device nodes only live */
	fd = reopen(pfd, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return fd;
	return read_records_fd(fd, max, ret_buf, ret_len);
}

/* The kernel log is captured as a regular file in its record format. */
int sysroot_read_records(struct sysroot *sr, const char *path, size_t max, char **ret_buf,
			 size_t *ret_len)
{
	_cleanup_free_ char *canon = NULL;
	size_t len = 0;
	int r = read_records_canon(sr, path, max, ret_buf, &len, &canon);

	if (r == 0 && canon)
		capture_file(sr->cap, canon, *ret_buf, len);
	if (r == 0 && ret_len)
		*ret_len = len;
	return noted(sr, path, r);
}

static int readlink_canon(struct sysroot *sr, const char *path, char **ret, char **ret_canon)
{
	char target[PATH_MAX];
	const char *leaf;
	int dfd = dir_for_leaf(sr, path, &leaf);

	if (dfd >= 0) {
		ssize_t n = readlinkat(dfd, leaf, target, sizeof(target) - 1);
		if (n < 0)
			return errno == ENOENT ? recorded_error(sr, path, -ENOENT)
					       : errno == EINVAL ? -EINVAL : -errno;
		target[n] = '\0';
		char *s = strdup(target);
		if (!s)
			return -ENOMEM;
		*ret = s;
		return 0;
	}
	if (dfd != -EAGAIN)
		return recorded_error(sr, path, dfd);

	_cleanup_close_ int pfd = resolve_canon(sr, path, false, ret_canon);

	if (pfd < 0)
		return recorded_error(sr, path, pfd);
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
	int r = readlink_canon(sr, path, ret, &canon);

	if (r == 0 && canon)
		capture_link(sr->cap, canon, *ret);
	return r == -EINVAL ? r : noted(sr, path, r); /* "not a link" is an answer, not a failure */
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void sysroot_free_names(char **names, size_t n)
{
	if (!names)
		return;
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* A listing in a capture: the directory, and each entry that is a link or a directory. */
static void capture_listing(struct sysroot *sr, int dfd, const char *canon, char **names, size_t n)
{
	capture_dir(sr->cap, canon);
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		char target[PATH_MAX];
		_cleanup_free_ char *c = canon_join(sr, canon, names[i]);
		if (!c || fstatat(dfd, names[i], &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISLNK(st.st_mode)) {
			ssize_t k = readlinkat(dfd, names[i], target, sizeof(target) - 1);
			if (k >= 0) {
				target[k] = '\0';
				capture_link(sr->cap, c, target);
			}
		} else if (S_ISDIR(st.st_mode)) {
			capture_dir(sr->cap, c);
		}
		/* regular files are copied when read, not listed: a replay reads what live read */
	}
}

static int list_dir_canon(struct sysroot *sr, const char *path, char ***ret_names, size_t *ret_n);

int sysroot_list_dir(struct sysroot *sr, const char *path, char ***ret_names, size_t *ret_n)
{
	return noted(sr, path, list_dir_canon(sr, path, ret_names, ret_n));
}

static int list_dir_canon(struct sysroot *sr, const char *path, char ***ret_names, size_t *ret_n)
{
	_cleanup_free_ char *canon = NULL;
	_cleanup_close_ int pfd = resolve_canon(sr, path, true, &canon);
	char **names = NULL;
	size_t n = 0, cap = 0;
	int r = 0;

	if (pfd < 0)
		return recorded_error(sr, path, pfd);
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
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			char **nn = realloc(names, ncap * sizeof(*nn));
			if (!nn) {
				r = -ENOMEM;
				break;
			}
			names = nn;
			cap = ncap;
		}
		names[n] = strdup(de->d_name);
		if (!names[n]) {
			r = -ENOMEM;
			break;
		}
		n++;
	}
	if (r == 0 && errno)
		r = -errno;
	closedir(d);
	if (r < 0) {
		sysroot_free_names(names, n);
		return r;
	}
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
	if (canon)
		capture_listing(sr, pfd, canon, names, n);
	*ret_names = names;
	*ret_n = n;
	return 0;
}

static int stat_canon(struct sysroot *sr, const char *path, struct stat *ret, char **ret_canon);

/* A capture keeps what existed: a directory, or an empty file for a file or device node. */
int sysroot_stat(struct sysroot *sr, const char *path, struct stat *ret)
{
	_cleanup_free_ char *canon = NULL;
	int r = stat_canon(sr, path, ret, &canon);

	if (r == 0 && canon) {
		if (S_ISDIR(ret->st_mode))
			capture_dir(sr->cap, canon);
		else
			capture_placeholder(sr->cap, canon);
	}
	return noted(sr, path, r);
}

static int stat_canon(struct sysroot *sr, const char *path, struct stat *ret, char **ret_canon)
{
	const char *leaf;
	int dfd = dir_for_leaf(sr, path, &leaf);

	if (dfd >= 0) {
		struct stat st;
		if (fstatat(dfd, leaf, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return errno == ENOENT ? recorded_error(sr, path, -ENOENT) : -errno;
		if (!S_ISLNK(st.st_mode)) {
			*ret = st;
			return 0;
		}
	} else if (dfd != -EAGAIN) {
		return recorded_error(sr, path, dfd);
	}

	_cleanup_close_ int pfd = resolve_canon(sr, path, true, ret_canon);

	if (pfd < 0)
		return recorded_error(sr, path, pfd);
	return fstat(pfd, ret) < 0 ? -errno : 0;
}

int sysroot_set_capture(struct sysroot *sr, struct capture *cap)
{
	sr->cap = cap;
	sr->use_openat2 = false; /* the walk sees (and copies) every link on the way */
	for (size_t i = 0; i < DIR_CACHE; i++) {
		if (sr->dirs[i].fd >= 0)
			close(sr->dirs[i].fd);
		sr->dirs[i].fd = -1;
		free(sr->dirs[i].path);
		sr->dirs[i].path = NULL;
	}
	return 0;
}
