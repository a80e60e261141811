/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Directory handles: a reader's reads relative to a directory it holds open. */
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "shared/macro.h"
#include "shared/read-fd.h"
#include "shared/openat2.h"
#include "shared/path.h"
#include "shared/text.h"
#include "sysroot/sysroot-private.h"

/* base "/" fmt as one root-relative path without leading or trailing '/'. */
_printf_(2, 0) static int format_path(const char *base, const char *fmt, va_list ap, char **ret)
{
	_cleanup_free_ char *rel = NULL;
	char *p;

	if (vasprintf(&rel, fmt, ap) < 0)
		return -ENOMEM;
	char *s = rel;
	while (*s == '/')
		s++;
	size_t len = strlen(s);
	while (len > 0 && s[len - 1] == '/')
		len--;
	s[len] = '\0';
	p = base && *base && !len ? strdup(base) : path_join(base ? base : "", s);
	if (!p)
		return -ENOMEM;
	*ret = p;
	return 0;
}

/*
 * What the mount of the directory open as fd allows; nothing when
 * fstatfs() fails. No device node can be opened on a nodev mount, nor on
 * sysfs or procfs whatever their mount flags (a VM may mount /sys without
 * nodev): neither filesystem has a mknod (fs/kernfs/dir.c kernfs_dir_iops,
 * fs/proc/base.c), so only directories, regular files and links are found
 * there, and procfs's magic links are refused by RESOLVE_NO_MAGICLINKS.
 */
static struct mount_traits mount_traits(const struct sysroot *sr, int fd)
{
	struct statfs sfs;

	/* the fast read needs openat2's RESOLVE_NO_XDEV to stay on this mount */
	if (!sr->use_openat2 || fstatfs(fd, &sfs) < 0)
		return (struct mount_traits){ 0 };
	unsigned long type = (unsigned long)sfs.f_type;
	bool nodev = (sfs.f_flags & ST_NODEV) || type == SYSFS_MAGIC || type == PROC_SUPER_MAGIC;
	return (struct mount_traits){
		.nodev = nodev,
		.short_read_ends = nodev && (type == SYSFS_MAGIC || type == TMPFS_MAGIC),
	};
}

/*
 * path ("sys/bus/pci/devices/X") resolved below its top directory's anchor
 * without leaving the anchor's mount, so with the anchor's mount flags and
 * no fstatfs() of its own: 20,698 fewer calls at 10,000 devices. Where this
 * succeeds it finds what the resolution from the root finds: the anchor is
 * that resolution of the top directory, and RESOLVE_BENEATH refuses the
 * only paths on which the two differ (an absolute link, a ".." above the
 * anchor). -EAGAIN: resolve from the root (a link out, another mount, a
 * tap, which needs the canonical path, the walk resolver).
 */
static int anchored(struct sysroot *sr, const char *path, struct mount_traits *traits)
{
	const char *slash = strchr(path, '/');
	struct sysroot_anchor *a = NULL;
	size_t len = slash ? (size_t)(slash - path) : 0;

	if (sr->tap || !sr->use_openat2 || len == 0 || len >= sizeof(a->name) || !slash[1])
		return -EAGAIN;
	for (size_t i = 0; i < sr->n_anchors && !a; i++)
		if (strlen(sr->anchors[i].name) == len && memcmp(sr->anchors[i].name, path, len) == 0)
			a = &sr->anchors[i];
	if (!a) {
		if (sr->n_anchors == SYSROOT_ANCHORS)
			return -EAGAIN;
		char name[sizeof(a->name)];
		memcpy(name, path, len);
		name[len] = '\0';
		int fd = sysroot_resolve_dir(sr, name, NULL);
		if (fd == -ENOMEM || fd == -EAGAIN)
			return -EAGAIN; /* worth another try */
		a = &sr->anchors[sr->n_anchors++];
		memcpy(a->name, name, len + 1);
		a->fd = fd;
		if (fd >= 0)
			a->traits = mount_traits(sr, fd);
	}
	if (a->fd < 0)
		return -EAGAIN;
	struct open_how how = {
		.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS,
	};
	long r = syscall(SYS_openat2, a->fd, slash + 1, &how, sizeof(how));
	if (r < 0)
		return errno == ENOENT || errno == ENOTDIR ? -errno : -EAGAIN;
	*traits = a->traits;
	return (int)r;
}

/*
 * The directory's O_PATH fd, resolved on its first use and kept; -errno when
 * it cannot be. lazy: the resolution is part of a read, which the trace
 * shows after this line.
 */
static int dir_fd(struct sysroot_dir *d, bool lazy)
{
	struct sysroot *sr = d->sr;
	bool have_traits = false;
	int fd;

	if (d->fd >= 0 || d->err < 0)
		return d->fd >= 0 ? d->fd : d->err;
	if (*d->path) {
		fd = anchored(sr, d->path, &d->traits);
		have_traits = fd >= 0;
		if (fd == -EAGAIN)
			fd = sysroot_resolve_dir(sr, d->path, &d->canon);
	} else {
		fd = fcntl(sr->root_fd, F_DUPFD_CLOEXEC, 3);
		fd = fd < 0 ? -errno : fd;
		if (fd >= 0 && sr->tap && !(d->canon = strdup(""))) {
			close(fd);
			fd = -ENOMEM;
		}
	}
	if (lazy)
		sysroot_trace(sr, "opendir", NULL, d->path, fd < 0 ? fd : 0, NULL);
	if (fd == -ENOMEM)
		return fd; /* worth another try */
	if (fd < 0) {
		d->err = fd;
	} else {
		d->fd = fd;
		if (!have_traits)
			d->traits = mount_traits(sr, fd);
		/* a directory read through is there in the replay, even when nothing in it could be read */
		if (sr->tap && d->canon)
			SYSROOT_TAP(sr, dir, d->canon);
	}
	return fd;
}

_printf_(5, 0) static int dir_make(struct sysroot *sr, const char *base, bool now,
				   struct sysroot_dir **ret, const char *fmt, va_list ap)
{
	_cleanup_free_ char *path = NULL;
	int r = format_path(base, fmt, ap, &path);

	if (r < 0)
		return r;
	if (strlen(path) >= PATH_MAX && now)
		return -ENAMETOOLONG;
	struct sysroot_dir *d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->sr = sr;
	d->path = TAKE_PTR(path);
	d->fd = -1;
	/* as a read by path would: each read through it fails so */
	if (strlen(d->path) >= PATH_MAX)
		d->err = -ENAMETOOLONG;
	if (now) {
		r = sysroot_finish(sr, "opendir", NULL, d->path, dir_fd(d, false), NULL);
		if (r < 0) {
			sysroot_dir_free(d);
			return r;
		}
	}
	*ret = d;
	return 0;
}

int sysroot_dir_open(struct sysroot *sr, struct sysroot_dir **ret, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = dir_make(sr, NULL, true, ret, fmt, ap);
	va_end(ap);
	return r;
}

int sysroot_dir_open_at(struct sysroot_dir *parent, struct sysroot_dir **ret, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = dir_make(parent->sr, parent->path, true, ret, fmt, ap);
	va_end(ap);
	return r;
}

int sysroot_dir_new(struct sysroot *sr, struct sysroot_dir **ret, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = dir_make(sr, NULL, false, ret, fmt, ap);
	va_end(ap);
	return r;
}

int sysroot_dir_new_at(struct sysroot_dir *parent, struct sysroot_dir **ret, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = dir_make(parent->sr, parent->path, false, ret, fmt, ap);
	va_end(ap);
	return r;
}

void sysroot_dir_free(struct sysroot_dir *d)
{
	if (!d)
		return;
	if (d->fd >= 0)
		close(d->fd);
	free(d->path);
	free(d->canon);
	free(d);
}

const char *sysroot_dir_path(const struct sysroot_dir *d)
{
	return d->path;
}

/*
 * The directory fd for a quick access to a plain name in it, or -EAGAIN for
 * the careful path over dir/name (a name with '/', a directory the resolver
 * failed on for a reason of its own, a tap set after it was opened).
 */
static int quick_fd(struct sysroot_dir *d, const char *name)
{
	if (!filename_is_plain(name))
		return -EAGAIN;
	int fd = dir_fd(d, true);
	if (fd >= 0)
		return d->sr->tap && !d->canon ? -EAGAIN : fd;
	/* what the careful path would say too: no need to ask it */
	return fd == -ENOENT || fd == -ENOTDIR || fd == -EACCES || fd == -ELOOP || fd == -ENOMEM
		       ? fd
		       : -EAGAIN;
}

/* With a tap: where the quick path's name is, every link resolved. */
static int quick_canon(const struct sysroot_dir *d, const char *name, char **ret_canon)
{
	if (!d->sr->tap)
		return 0;
	*ret_canon = path_join(d->canon, name);
	return *ret_canon ? 0 : -ENOMEM;
}

/*
 * A regular file, checked with fstatat() before it is opened (so no FIFO or
 * device node is ever opened) and again after (the very inode). -EAGAIN:
 * anything else, which the careful path decides.
 */
/*
 * The same in one open and one fstat, on a mount that refuses device nodes
 * (sysfs and procfs are nodev, and what a live audit reads is there). Why it
 * is as safe: openat2 of one component with RESOLVE_NO_XDEV cannot leave
 * the directory's mount (not even to a file bind-mounted over the name), so
 * a device node found there cannot be opened at all (fs/namei.c may_open:
 * MNT_NODEV gives EACCES) and its open has no side effect; a FIFO opened
 * O_NONBLOCK for reading returns at once, a socket fails with ENXIO; and
 * anything but a regular file is closed unread. -EAGAIN: the careful path
 * decides (a link, a FIFO, a denied open, another mount).
 *
 * short_read_ends (a nodev sysfs or tmpfs): no fstat() either, the read
 * tells. A sysfs attribute is made whole by one show() and handed out by
 * seq_file, a binary one at most PAGE_SIZE a read (fs/kernfs/file.c
 * kernfs_fop_read_iter), and a tmpfs file reads short only at its end
 * (mm/shmem.c shmem_file_read_iter): a read shorter than the 4 KiB buffer
 * is the whole file. What is not a regular file shows itself: a directory
 * fails EISDIR, a FIFO without a writer reads 0 bytes (fstat() then decides,
 * as for an empty file), a socket does not open. A FIFO that another
 * process keeps writing to is read as the file of what it wrote, which that
 * process could as well have written to a file: nothing blocks, nothing is
 * opened that nodev refuses. 4 syscalls a file -> 3 (sysfs: 5 -> 3, its
 * size of 4096 meant a second read for the end).
 */
static int read_leaf_nodev(int dfd, const char *name, size_t max, bool short_read_ends,
			   char **ret_buf, size_t *ret_len)
{
	struct open_how how = {
		.flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_XDEV | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	struct stat st;
	long r = syscall(SYS_openat2, dfd, name, &how, sizeof(how));

	if (r < 0)
		return errno == ENOENT || errno == ENOTDIR ? -errno : -EAGAIN;
	_cleanup_close_ int fd = (int)r;
	if (short_read_ends) {
		char buf[4096];
		size_t want = max < sizeof(buf) ? max + 1 : sizeof(buf);
		ssize_t n = read_some(fd, buf, want);
		if (n < 0)
			return -EAGAIN; /* EISDIR, a FIFO's EAGAIN: the careful path says what it is */
		if (n > 0 && (size_t)n < want) {
			char *s = malloc((size_t)n + 1);
			if (!s)
				return -ENOMEM;
			memcpy(s, buf, (size_t)n);
			s[n] = '\0';
			*ret_buf = s;
			if (ret_len)
				*ret_len = (size_t)n;
			return 0;
		}
		/* empty (a file, or a FIFO?) or longer than the buffer: the ordinary read from the start */
		if (n > 0 && lseek(fd, 0, SEEK_SET) != 0)
			return -EAGAIN;
	}
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EAGAIN;
	return read_fd_all(fd, max, st.st_size, ret_buf, ret_len);
}

static int read_leaf(int dfd, const char *name, size_t max, char **ret_buf, size_t *ret_len)
{
	struct stat st, st2;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EAGAIN; /* links, directories, FIFOs, devices */
	_cleanup_close_ int fd =
		openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st2) < 0)
		return -errno;
	if (st2.st_ino != st.st_ino || st2.st_dev != st.st_dev || !S_ISREG(st2.st_mode))
		return -EAGAIN; /* swapped under us: let the careful path look again */
	return read_fd_all(fd, max, st2.st_size, ret_buf, ret_len);
}

static int dir_read(struct sysroot_dir *d, const char *name, size_t max, char **ret_buf,
		    size_t *ret_len, char **ret_canon)
{
	int dfd = quick_fd(d, name);

	if (dfd >= 0) {
		const struct mount_traits *t = &d->traits;
		int r = t->nodev ? read_leaf_nodev(dfd, name, max, t->short_read_ends, ret_buf, ret_len)
				 : read_leaf(dfd, name, max, ret_buf, ret_len);
		if (r == 0 && quick_canon(d, name, ret_canon) < 0) {
			free(*ret_buf);
			return -ENOMEM;
		}
		if (r != -EAGAIN)
			return r;
	} else if (dfd != -EAGAIN) {
		return dfd;
	}
	_cleanup_free_ char *path = path_join(d->path, name);
	if (!path)
		return -ENOMEM;
	return sysroot_read_careful(d->sr, path, max, ret_buf, ret_len, ret_canon);
}

int sysroot_dir_read_file(struct sysroot_dir *d, const char *name, size_t max, char **ret_buf,
			  size_t *ret_len)
{
	_cleanup_free_ char *canon = NULL;
	char detail[32];
	size_t len = 0;
	int r = dir_read(d, name, max, ret_buf, &len, &canon);

	if (r == 0 && canon)
		SYSROOT_TAP(d->sr, file, canon, *ret_buf, len);
	if (r == 0 && ret_len)
		*ret_len = len;
	if (r == 0 && d->sr->trace)
		snprintf(detail, sizeof(detail), "%zu bytes", len);
	return sysroot_finish(d->sr, "read", d->path, name, r, r == 0 ? detail : NULL);
}

static int dir_readlink(struct sysroot_dir *d, const char *name, char **ret, char **ret_canon)
{
	int dfd = quick_fd(d, name);

	if (dfd >= 0) {
		char target[PATH_MAX];
		ssize_t n = readlinkat(dfd, name, target, sizeof(target) - 1);
		if (n < 0)
			return -errno; /* EINVAL: not a link */
		target[n] = '\0';
		_cleanup_free_ char *s = strdup(target);
		if (!s || quick_canon(d, name, ret_canon) < 0)
			return -ENOMEM;
		*ret = TAKE_PTR(s);
		return 0;
	}
	if (dfd != -EAGAIN)
		return dfd;
	_cleanup_free_ char *path = path_join(d->path, name);
	if (!path)
		return -ENOMEM;
	return sysroot_readlink_careful(d->sr, path, ret, ret_canon);
}

int sysroot_dir_readlink(struct sysroot_dir *d, const char *name, char **ret)
{
	_cleanup_free_ char *canon = NULL;
	int r = dir_readlink(d, name, ret, &canon);

	if (r == 0 && canon)
		SYSROOT_TAP(d->sr, link, canon, *ret);
	return sysroot_finish(d->sr, "readlink", d->path, name, r, r == 0 ? *ret : NULL);
}

static int dir_stat(struct sysroot_dir *d, const char *name, struct stat *ret, char **ret_canon)
{
	int dfd = quick_fd(d, name);

	if (dfd >= 0) {
		struct stat st;
		if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return -errno;
		if (!S_ISLNK(st.st_mode)) {
			if (quick_canon(d, name, ret_canon) < 0)
				return -ENOMEM;
			*ret = st;
			return 0;
		}
	} else if (dfd != -EAGAIN) {
		return dfd;
	}
	_cleanup_free_ char *path = path_join(d->path, name);
	if (!path)
		return -ENOMEM;
	return sysroot_stat_careful(d->sr, path, ret, ret_canon);
}

int sysroot_dir_stat(struct sysroot_dir *d, const char *name, struct stat *ret)
{
	_cleanup_free_ char *canon = NULL;
	int r = dir_stat(d, name, ret, &canon);

	if (r == 0 && canon)
		sysroot_tap_stat(d->sr, canon, ret);
	return sysroot_finish(d->sr, "stat", d->path, name, r, NULL);
}

int sysroot_dir_list(struct sysroot_dir *d, struct strv *ret)
{
	int dfd = dir_fd(d, true);
	char detail[32];
	int r;

	if (dfd >= 0 && !(d->sr->tap && !d->canon)) {
		r = sysroot_list_fd(d->sr, dfd, d->canon, ret);
	} else {
		/* a directory not resolved, or resolved before the tap was set */
		_cleanup_free_ char *canon = NULL;
		_cleanup_close_ int pfd = sysroot_resolve(d->sr, d->path, true, &canon);
		r = pfd < 0 ? pfd : sysroot_list_fd(d->sr, pfd, canon, ret);
	}
	/* a capture makes the directory whose listing failed: its MANIFEST's error stands */
	int recorded = r == 0 ? sysroot_recorded_error(d->sr, d->path) : 0;
	if (recorded) {
		strv_done(ret);
		r = recorded;
	}
	if (r == 0 && d->sr->trace)
		snprintf(detail, sizeof(detail), "%zu entries", ret->n);
	return sysroot_finish(d->sr, "list", NULL, d->path, r, r == 0 ? detail : NULL);
}

/* ---- typed reads ---- */

static bool printable(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			return false;
	return true;
}

int sysroot_dir_read_string(struct sysroot_dir *d, const char *name, char **ret)
{
	_cleanup_free_ char *buf = NULL;
	size_t len;
	int r = sysroot_dir_read_file(d, name, SYSROOT_ATTR_MAX, &buf, &len);

	if (r < 0)
		return r;
	if (len > 0 && buf[len - 1] == '\n')
		buf[--len] = '\0';
	if (len == 0 || !printable(buf, len))
		return -EBADMSG;
	*ret = TAKE_PTR(buf);
	return 0;
}

int sysroot_dir_read_int(struct sysroot_dir *d, const char *name, unsigned base, int64_t min,
			 int64_t max, int64_t *ret)
{
	_cleanup_free_ char *buf = NULL;
	size_t len;
	int r = sysroot_dir_read_file(d, name, SYSROOT_ATTR_MAX, &buf, &len);

	if (r < 0)
		return r;
	if (text_has_nul(buf, len))
		return -EBADMSG;
	r = parse_int_line(buf, len, base, min, max, ret);
	return r == -ERANGE ? r : r < 0 ? -EBADMSG : 0;
}

/* ---- links, lexically ---- */

/* Collapse "", "." and ".." components of path into a root-relative path. */
static int path_normalize(const char *path, char **ret)
{
	size_t cap = strlen(path) + 1, len = 0;
	char *out = malloc(cap);

	if (!out)
		return -ENOMEM;
	out[0] = '\0';
	for (const char *p = path; *p;) {
		const char *slash = strchr(p, '/');
		size_t clen = slash ? (size_t)(slash - p) : strlen(p);

		if (clen == 2 && p[0] == '.' && p[1] == '.') {
			char *last = strrchr(out, '/');
			len = last ? (size_t)(last - out) : 0;
			out[len] = '\0';
		} else if (clen > 0 && !(clen == 1 && p[0] == '.')) {
			if (len > 0)
				out[len++] = '/';
			memcpy(out + len, p, clen);
			len += clen;
			out[len] = '\0';
		}
		p += clen;
		if (*p == '/')
			p++;
	}
	/* kept for each device: give back what the "../../.." of the link took */
	char *fit = realloc(out, len + 1);
	*ret = fit ? fit : out;
	return 0;
}

int sysroot_link_resolve(const char *link_path, const char *target, char **ret)
{
	_cleanup_free_ char *joined = NULL;

	if (!*target)
		return -EINVAL;
	if (target[0] == '/') {
		joined = strdup(target);
	} else {
		/* relative to the link's directory ("" when the link is at the root) */
		const char *slash = strrchr(link_path, '/');
		size_t dlen = slash ? (size_t)(slash - link_path) : 0;
		_cleanup_free_ char *dir = strndup(link_path, dlen);

		joined = dir ? path_join(dir, target) : NULL;
	}
	if (!joined)
		return -ENOMEM;
	return path_normalize(joined, ret);
}

int sysroot_dir_follow(struct sysroot_dir *d, const char *name, char **ret)
{
	_cleanup_free_ char *target = NULL, *link = NULL;
	int r = sysroot_dir_readlink(d, name, &target);

	if (r < 0)
		return r;
	link = path_join(d->path, name);
	if (!link)
		return -ENOMEM;
	return sysroot_link_resolve(link, target, ret);
}
