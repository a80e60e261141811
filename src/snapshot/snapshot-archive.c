/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "snapshot/capture.h"
#include "shared/dlopen-lib.h"
#include "shared/macro.h"
#include "shared/path.h"
#include "shared/strv.h"
#include "snapshot/snapshot-archive.h"

/* libarchive is loaded when an archive is met; libarchive.so.13 since 3.0 (2011). */
#define ARCHIVE_SYMBOLS(X) \
	X(archive_entry_filetype) \
	X(archive_entry_free) \
	X(archive_entry_hardlink) \
	X(archive_entry_new) \
	X(archive_entry_pathname) \
	X(archive_entry_set_filetype) \
	X(archive_entry_set_gid) \
	X(archive_entry_set_mtime) \
	X(archive_entry_set_pathname) \
	X(archive_entry_set_perm) \
	X(archive_entry_set_size) \
	X(archive_entry_set_symlink) \
	X(archive_entry_set_uid) \
	X(archive_entry_size) \
	X(archive_entry_size_is_set) \
	X(archive_entry_symlink) \
	X(archive_errno) \
	X(archive_error_string) \
	X(archive_read_data) \
	X(archive_read_free) \
	X(archive_read_new) \
	X(archive_read_next_header) \
	X(archive_read_open_fd) \
	X(archive_read_support_filter_bzip2) \
	X(archive_read_support_filter_gzip) \
	X(archive_read_support_filter_xz) \
	X(archive_read_support_filter_zstd) \
	X(archive_read_support_format_tar) \
	X(archive_write_add_filter_gzip) \
	X(archive_write_close) \
	X(archive_write_data) \
	X(archive_write_free) \
	X(archive_write_header) \
	X(archive_write_new) \
	X(archive_write_open_fd) \
	X(archive_write_set_format_pax_restricted)
DLOPEN_LIBRARY(archive_load, "libarchive.so.13", ARCHIVE_SYMBOLS)

/* s, its first n bytes, ends with suffix in any case: a name typed in capitals is the same archive */
static bool ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);
	return n > k && strncasecmp(s + n - k, suffix, k) == 0;
}

enum snapshot_archive snapshot_archive_kind(const char *name)
{
	/* names an archiver would make: a directory of that name would mislead */
	static const char *const others[] = {
		".tar.xz", ".txz", ".tar.bz2", ".tbz2", ".tbz", ".tar.zst", ".tzst", ".tar.lz4",
		".tar.lzma", ".tlz", ".tar.Z", ".zip", ".7z", ".cpio", ".xz", ".zst", ".bz2", ".gz",
	};

	size_t n = strlen(name), bare = n;
	enum snapshot_archive kind = SNAPSHOT_DIR;

	while (bare > 0 && name[bare - 1] == '/')
		bare--;
	if (ends_with(name, bare, ".tar.gz") || ends_with(name, bare, ".tgz"))
		kind = SNAPSHOT_TAR_GZ;
	else if (ends_with(name, bare, ".tar"))
		kind = SNAPSHOT_TAR;
	for (size_t i = 0; kind == SNAPSHOT_DIR && i < ARRAY_SIZE(others); i++)
		if (ends_with(name, bare, others[i]))
			kind = SNAPSHOT_UNWRITTEN;
	return kind != SNAPSHOT_DIR && bare < n ? SNAPSHOT_SLASHED : kind;
}

char *snapshot_archive_top(const char *file)
{
	const char *base = strrchr(file, '/');
	base = base ? base + 1 : file;
	size_t n = strlen(base);
	static const char *const suffixes[] = { ".tar.gz", ".tgz", ".tar" };

	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++)
		if (ends_with(base, n, suffixes[i])) {
			n -= strlen(suffixes[i]);
			break;
		}
	/* a name tar and a shell read the same: no dot start, nothing to quote */
	bool plain = n > 0 && base[0] != '.';
	for (size_t i = 0; plain && i < n; i++)
		plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-+",
			       base[i]) != NULL;
	return plain ? strndup(base, n) : strdup("snapshot");
}

/* libarchive's words, or errno's. */
static int archive_fail(struct archive *a, const char *what, char **ret_err)
{
	int e = sym_archive_errno(a) > 0 ? sym_archive_errno(a) : EIO;
	const char *s = sym_archive_error_string(a);

	if (ret_err && asprintf(ret_err, "%s: %s", what, s ? s : strerror(e)) < 0)
		*ret_err = NULL;
	return -e;
}

static int errno_fail(int r, const char *what, const char *path, char **ret_err)
{
	if (ret_err && asprintf(ret_err, "%s %s: %s", what, path, strerror(-r)) < 0)
		*ret_err = NULL;
	return r;
}

struct packer {
	struct archive *a;
	int root;           /* the capture directory */
	const char *top;
	int64_t when;
	char **err;
};

static int pack_entry(struct packer *p, const char *rel, const struct stat *st)
{
	_cleanup_free_ char *name = NULL;
	struct archive_entry *e;
	int r = 0;

	if (!(name = *rel ? path_join(p->top, rel) : strdup(p->top)))
		return -ENOMEM;
	e = sym_archive_entry_new();
	if (!e)
		return -ENOMEM;
	sym_archive_entry_set_pathname(e, name);
	sym_archive_entry_set_mtime(e, p->when, 0);
	sym_archive_entry_set_uid(e, 0);
	sym_archive_entry_set_gid(e, 0);

	_cleanup_close_ int fd = -1;
	if (S_ISDIR(st->st_mode)) {
		sym_archive_entry_set_filetype(e, AE_IFDIR);
		sym_archive_entry_set_perm(e, CAPTURE_DIR_MODE);
	} else if (S_ISLNK(st->st_mode)) {
		char target[PATH_MAX];
		ssize_t n = readlinkat(p->root, rel, target, sizeof(target) - 1);
		if (n < 0) {
			r = errno_fail(-errno, "reading link", rel, p->err);
			goto out;
		}
		target[n] = '\0';
		sym_archive_entry_set_filetype(e, AE_IFLNK);
		sym_archive_entry_set_perm(e, 0777);
		sym_archive_entry_set_symlink(e, target);
	} else if (S_ISREG(st->st_mode)) {
		fd = openat(p->root, rel, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			r = errno_fail(-errno, "reading", rel, p->err);
			goto out;
		}
		sym_archive_entry_set_filetype(e, AE_IFREG);
		sym_archive_entry_set_perm(e, CAPTURE_FILE_MODE);
		sym_archive_entry_set_size(e, st->st_size);
	} else {
		goto out; /* a capture writes no other kind */
	}
	if (sym_archive_write_header(p->a, e) < ARCHIVE_WARN) {
		r = archive_fail(p->a, "writing the archive", p->err);
		goto out;
	}
	for (off_t left = fd >= 0 ? st->st_size : 0; left > 0;) {
		char buf[65536];
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n <= 0) {
			r = errno_fail(n < 0 ? -errno : -EIO, "reading", rel, p->err);
			goto out;
		}
		if (n > left)
			n = (ssize_t)left; /* grown since: the header said st_size */
		if (sym_archive_write_data(p->a, buf, (size_t)n) < 0) {
			r = archive_fail(p->a, "writing the archive", p->err);
			goto out;
		}
		left -= n;
	}
out:
	sym_archive_entry_free(e);
	return r;
}

/*
 * rel and everything under it, in name order. The directory's fd is closed
 * before descending: a deep tree costs no more than one fd at a time.
 */
static int pack_tree(struct packer *p, const char *rel)
{
	_cleanup_strv_ struct strv names = { 0 };
	struct stat st;
	int r;

	if (fstatat(p->root, *rel ? rel : ".", &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno_fail(-errno, "reading", *rel ? rel : ".", p->err);
	r = pack_entry(p, rel, &st);
	if (r < 0 || !S_ISDIR(st.st_mode))
		return r;

	int fd = openat(p->root, *rel ? rel : ".", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		r = -errno;
		if (fd >= 0)
			close(fd);
		return errno_fail(r, "reading", *rel ? rel : ".", p->err);
	}
	struct dirent *de;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0 &&
		    strv_push(&names, de->d_name) < 0) {
			closedir(d);
			return -ENOMEM;
		}
	closedir(d);
	strv_sort(&names);
	for (size_t i = 0; i < names.n; i++) {
		_cleanup_free_ char *child = NULL;
		if (!(child = path_join(rel, names.v[i])))
			return -ENOMEM;
		r = pack_tree(p, child);
		if (r < 0)
			return r;
	}
	return 0;
}

int snapshot_pack(int dir_fd, const char *top, enum snapshot_archive kind, int64_t when, int out_fd,
		  char **ret_err)
{
	struct packer p = { .root = dir_fd, .top = top, .when = when, .err = ret_err };
	int r = archive_load(ret_err);

	if (r < 0)
		return r;
	p.a = sym_archive_write_new();
	if (!p.a)
		return -ENOMEM;
	/* ustar, and pax headers only where ustar cannot say it (paths past 100 bytes) */
	if (sym_archive_write_set_format_pax_restricted(p.a) != ARCHIVE_OK ||
	    (kind == SNAPSHOT_TAR_GZ && sym_archive_write_add_filter_gzip(p.a) != ARCHIVE_OK) ||
	    sym_archive_write_open_fd(p.a, out_fd) != ARCHIVE_OK) {
		r = archive_fail(p.a, "starting the archive", ret_err);
		sym_archive_write_free(p.a);
		return r;
	}
	r = pack_tree(&p, "");
	if (sym_archive_write_close(p.a) != ARCHIVE_OK && r == 0)
		r = archive_fail(p.a, "finishing the archive", ret_err);
	sym_archive_write_free(p.a);
	if (r == -ENOMEM && ret_err && !*ret_err)
		*ret_err = strdup("out of memory");
	return r;
}

/* An entry's name for a message: printable, bounded. */
static void shown(const char *s, char out[96])
{
	size_t i = 0;
	for (; *s && i < 92; s++)
		out[i++] = (*s >= ' ' && *s < 0x7f) ? *s : '?';
	if (*s)
		out[i - 1] = out[i - 2] = out[i - 3] = '.';
	out[i] = '\0';
}

static int refuse(int r, const char *name, const char *why, char **ret_err)
{
	char s[96];
	shown(name ? name : "(no name)", s);
	if (ret_err && asprintf(ret_err, "entry '%s': %s", s, why) < 0)
		*ret_err = NULL;
	return r;
}

/*
 * The entry's path as the capture writer takes it: no leading "./" or
 * trailing '/'; "" for the top itself. NULL when it is absolute, climbs
 * with "..", or has empty components.
 */
static char *entry_path(const char *name)
{
	while (name[0] == '.' && name[1] == '/')
		for (name += 2; *name == '/';)
			name++;
	if (strcmp(name, ".") == 0)
		name = "";
	if (*name == '/')
		return NULL;
	char *p = strdup(name);
	if (!p)
		return NULL;
	size_t n = strlen(p);
	while (n > 0 && p[n - 1] == '/')
		p[--n] = '\0';
	for (const char *s = p; *s;) {
		size_t k = strcspn(s, "/");
		if (k == 0 || (k == 2 && s[0] == '.' && s[1] == '.') || (k == 1 && s[0] == '.')) {
			free(p);
			return NULL;
		}
		s += k;
		if (*s)
			s++;
	}
	return p;
}

static void capture_freep(struct capture **c)
{
	capture_free(*c);
}

static void archive_read_freep(struct archive **a)
{
	if (*a)
		sym_archive_read_free(*a);
}

/* One entry, written by the confined writer. */
static int unpack_entry(struct archive *a, struct archive_entry *e, struct capture *cap,
			const struct snapshot_limits *lim, uint64_t *bytes, char **ret_err)
{
	const char *name = sym_archive_entry_pathname(e);
	_cleanup_free_ char *path = name ? entry_path(name) : NULL;
	mode_t type = sym_archive_entry_filetype(e);
	int r;

	if (!path)
		return refuse(-EINVAL, name, "an absolute path, '..' or no name: refused", ret_err);
	if (sym_archive_entry_hardlink(e))
		return refuse(-EINVAL, name, "a hard link: refused (a capture writes none)", ret_err);
	if (type == AE_IFDIR)
		r = capture_dir(cap, path);
	else if (type == AE_IFLNK) {
		const char *target = sym_archive_entry_symlink(e);
		if (!target || !*target || !*path)
			return refuse(-EINVAL, name, "a link without a target: refused", ret_err);
		r = capture_link(cap, path, target);
	} else if (type == AE_IFREG) {
		if (!*path)
			return refuse(-EINVAL, name, "a file as the top: refused", ret_err);
		if (!sym_archive_entry_size_is_set(e) || sym_archive_entry_size(e) < 0)
			return refuse(-EINVAL, name, "no size: refused", ret_err);
		uint64_t size = (uint64_t)sym_archive_entry_size(e);
		if (size > lim->entry_bytes || *bytes + size > lim->bytes)
			return refuse(-EFBIG, name,
				      size > lim->entry_bytes ? "larger than any file a capture holds"
							      : "the archive unpacks to more than the limit",
				      ret_err);
		_cleanup_free_ char *buf = malloc(size + 1);
		if (!buf)
			return -ENOMEM;
		size_t got = 0;
		for (;;) {
			la_ssize_t n = sym_archive_read_data(a, buf + got, size + 1 - got);
			if (n < 0)
				return archive_fail(a, "reading the archive", ret_err);
			if (n == 0)
				break;
			got += (size_t)n;
			if (got > size)
				return refuse(-EIO, name, "more data than its size says", ret_err);
		}
		if (got != size)
			return refuse(-EIO, name, "truncated", ret_err);
		*bytes += size;
		r = capture_file(cap, path, buf, size);
	} else {
		return refuse(-EINVAL, name,
			      "a device node, FIFO or socket: refused (a capture writes none)", ret_err);
	}
	if (r < 0) {
		char why[128];
		snprintf(why, sizeof(why), "cannot be written: %s",
			 r == -ELOOP ? "a symbolic link is in its way" : strerror(-r));
		return refuse(r, name, why, ret_err);
	}
	return 0;
}

/* Turn filter f on only where libarchive runs it in process: a probe's ARCHIVE_WARN
 * says it would run an external program instead (built without the library). */
static void support_in_process(struct archive *a, int (*f)(struct archive *))
{
	struct archive *probe = sym_archive_read_new();
	bool in_process = probe && f(probe) == ARCHIVE_OK;

	if (probe)
		sym_archive_read_free(probe);
	if (in_process)
		(void)f(a);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int snapshot_unpack(const char *path, const char *dest, const struct snapshot_limits *lim,
		    char **ret_err)
{
	static const struct snapshot_limits defaults = {
		SNAPSHOT_ENTRIES_MAX, SNAPSHOT_BYTES_MAX, SNAPSHOT_ENTRY_BYTES_MAX, SNAPSHOT_UNPACK_MS_MAX,
	};
	_cleanup_(archive_read_freep) struct archive *a = NULL;
	_cleanup_(capture_freep) struct capture *cap = NULL;
	_cleanup_close_ int fd = -1;
	uint64_t entries = 0, bytes = 0, start = now_ms();
	struct stat st;
	int r;

	if (!lim)
		lim = &defaults;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return errno_fail(-errno, "opening", path, ret_err);
	if (fstat(fd, &st) < 0)
		return errno_fail(-errno, "opening", path, ret_err);
	if (!S_ISREG(st.st_mode))
		return errno_fail(-EINVAL, "reading", path, ret_err);
	r = archive_load(ret_err);
	if (r < 0)
		return r;
	r = capture_new(dest, CAPTURE_PLAIN, &cap);
	if (r < 0)
		return errno_fail(r, "unpacking into", dest, ret_err);
	a = sym_archive_read_new();
	if (!a)
		return -ENOMEM;
	/* tar, plain or compressed as tar cz/cJ/cj/--zstd make it: nothing that
	 * would run an external program */
	if (sym_archive_read_support_format_tar(a) != ARCHIVE_OK ||
	    sym_archive_read_support_filter_gzip(a) != ARCHIVE_OK)
		return archive_fail(a, "not a tar archive", ret_err);
	support_in_process(a, sym_archive_read_support_filter_xz);
	support_in_process(a, sym_archive_read_support_filter_bzip2);
	support_in_process(a, sym_archive_read_support_filter_zstd);
	if (sym_archive_read_open_fd(a, fd, 65536) != ARCHIVE_OK)
		return archive_fail(a, "not a tar archive (plain, gzip, xz, bzip2 or zstd)", ret_err);
	for (;;) {
		struct archive_entry *e;
		int s = sym_archive_read_next_header(a, &e);
		if (s == ARCHIVE_EOF)
			break;
		if (s < ARCHIVE_WARN)
			return archive_fail(a, entries ? "corrupt or truncated"
						       : "not a tar archive (plain, gzip, xz, bzip2 or zstd)",
					    ret_err);
		if (now_ms() - start > lim->ms) {
			if (ret_err && asprintf(ret_err, "unpacking took longer than the limit (%g s) after %" PRIu64
						" entries: refused, as a tree no capture writes",
						(double)lim->ms / 1000, entries) < 0)
				*ret_err = NULL;
			return -ETIMEDOUT;
		}
		if (++entries > lim->entries)
			return refuse(-EFBIG, sym_archive_entry_pathname(e), "more entries than the limit", ret_err);
		r = unpack_entry(a, e, cap, lim, &bytes, ret_err);
		if (r < 0)
			return r;
	}
	if (entries == 0 && ret_err)
		*ret_err = strdup("an empty archive");
	return entries == 0 ? -EINVAL : 0;
}
