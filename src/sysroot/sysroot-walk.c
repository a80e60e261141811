/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The hand-written resolver, for kernels without openat2 (before 5.6) and
 * for when openat2 keeps losing a rename race: it must answer as
 * openat2(RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS) does for every path.
 * So no depth limit of its own: the kernel has none (only MAXSYMLINKS, a
 * PATH_MAX input and NAME_MAX components), and a tree 3,000 directories
 * deep behind a few symlinks is read by openat2. The walk keeps the fds of
 * the last WALK_OPEN_FDS directories; a ".." past them reopens its parent
 * from the root along the path walked so far (real directories only), never
 * by the kernel's "..", so a rename cannot lead it out of the root.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shared/kernel-defs.h"
#include "shared/macro.h"
#include "sysroot/sysroot-private.h"

#define WALK_OPEN_FDS 64

struct walk {
	int root_fd;
	int *fds;        /* fds[d]: the directory at depth d; -1 once closed */
	size_t *at;      /* at[d]: canon's length at depth d */
	size_t depth, slots;
	char *canon;     /* the path walked so far, every link resolved */
	size_t len, cap;
};

static void walk_done(struct walk *w)
{
	for (size_t d = 0; w->fds && d <= w->depth; d++)
		if (w->fds[d] >= 0)
			close(w->fds[d]);
	free(w->fds);
	free(w->at);
	free(w->canon);
}

static int canon_append(struct walk *w, const char *comp)
{
	size_t clen = strlen(comp), need = w->len + 1 + clen + 1;

	if (need > w->cap) {
		size_t ncap = w->cap ? w->cap * 2 : 256;
		while (ncap < need)
			ncap *= 2;
		char *n = realloc(w->canon, ncap);
		if (!n)
			return -ENOMEM;
		w->canon = n;
		w->cap = ncap;
	}
	if (w->len)
		w->canon[w->len++] = '/';
	memcpy(w->canon + w->len, comp, clen + 1);
	w->len += clen;
	return 0;
}

static void canon_cut(struct walk *w, size_t len)
{
	w->len = len;
	if (w->canon)
		w->canon[len] = '\0';
}

/* Descend into fd (a directory, canon already extended). 0 or -ENOMEM (fd closed). */
static int push(struct walk *w, int fd)
{
	if (w->depth + 1 >= w->slots) {
		size_t n = w->slots * 2;
		int *f = realloc(w->fds, n * sizeof(*f));
		if (f)
			w->fds = f;
		size_t *a = f ? realloc(w->at, n * sizeof(*a)) : NULL;
		if (!a) {
			close(fd);
			return -ENOMEM;
		}
		w->at = a;
		w->slots = n;
	}
	w->depth++;
	w->fds[w->depth] = fd;
	w->at[w->depth] = w->len;
	if (w->depth > WALK_OPEN_FDS && w->fds[w->depth - WALK_OPEN_FDS] >= 0) {
		close(w->fds[w->depth - WALK_OPEN_FDS]);
		w->fds[w->depth - WALK_OPEN_FDS] = -1;
	}
	return 0;
}

/*
 * The directory at w->depth, reopened from the root along canon: each
 * component must still be a real directory (a link there now means a rename
 * raced the walk: -EAGAIN, as openat2 says for its own race).
 */
static int reopen_current(struct walk *w)
{
	int fd = fcntl(w->root_fd, F_DUPFD_CLOEXEC, 3);
	const char *p = w->canon ? w->canon : "";

	if (fd < 0)
		return -errno;
	while (*p) {
		size_t n = strcspn(p, "/");
		char comp[NAME_MAX + 1];
		struct stat st;
		memcpy(comp, p, n);
		comp[n] = '\0';
		int next = openat(fd, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		int e = next < 0 ? -errno : fstat(next, &st) < 0 ? -errno : S_ISDIR(st.st_mode) ? 0 : -EAGAIN;
		close(fd);
		if (e < 0) {
			if (next >= 0)
				close(next);
			return e == -ENOENT || e == -ENOTDIR ? -EAGAIN : e;
		}
		fd = next;
		p += n;
		p += *p == '/';
	}
	return fd;
}

/* "..": never above the root. 0 or -errno. */
static int pop(struct walk *w)
{
	if (w->depth == 0)
		return 0;
	close(w->fds[w->depth]);
	w->depth--;
	canon_cut(w, w->at[w->depth]);
	if (w->fds[w->depth] < 0) {
		int fd = reopen_current(w);
		if (fd < 0)
			return fd;
		w->fds[w->depth] = fd;
	}
	return 0;
}

/* Back to the root, for an absolute link. */
static void to_root(struct walk *w)
{
	while (w->depth > 0) {
		if (w->fds[w->depth] >= 0)
			close(w->fds[w->depth]);
		w->depth--;
	}
	canon_cut(w, 0);
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

/* Nothing but slashes left. */
static bool only_slashes(const char *s)
{
	return s[strspn(s, "/")] == '\0';
}

/* "target" + rest (which starts with '/' or is empty), malloc'd. */
static char *link_splice(const char *target, const char *rest)
{
	size_t tl = strlen(target), rl = strlen(rest);
	char *np = malloc(tl + 1 + rl + 1);

	if (!np)
		return NULL;
	memcpy(np, target, tl);
	np[tl] = '/';
	memcpy(np + (rl ? tl + 1 : tl), rest, rl + 1);
	return np;
}

int sysroot_walk(int root_fd, const char *path, bool follow_last, struct sysroot *sr,
		 char **ret_canon)
{
	struct walk w = { .root_fd = root_fd, .slots = 64 };
	_cleanup_free_ char *pending = NULL; /* what is left to walk */
	char comp[NAME_MAX + 1];
	unsigned links = 0;
	int r = 0, err = 0;

	if (!*path)
		return -ENOENT; /* openat2 resolves "" to nothing, not to the root */
	if (strlen(path) >= PATH_MAX)
		return -ENAMETOOLONG; /* the kernel refuses such a name before resolving it */
	pending = strdup(path);
	w.fds = malloc(w.slots * sizeof(*w.fds));
	w.at = malloc(w.slots * sizeof(*w.at));
	if (!pending || !w.fds || !w.at) {
		free(w.fds);
		free(w.at);
		return -ENOMEM;
	}
	w.fds[0] = fcntl(root_fd, F_DUPFD_CLOEXEC, 3);
	w.at[0] = 0;
	if (w.fds[0] < 0) {
		r = -errno;
		goto out;
	}

	const char *rest = pending;
	while (next_component(&rest, comp, sizeof(comp), &err)) {
		if (strcmp(comp, "..") == 0) {
			r = pop(&w);
			if (r < 0)
				goto out;
			continue;
		}
		size_t before = w.len;
		r = canon_append(&w, comp);
		if (r < 0)
			goto out;
		int fd = openat(w.fds[w.depth], comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		struct stat st;
		if (fd < 0 || fstat(fd, &st) < 0) {
			r = -errno;
			if (fd >= 0)
				close(fd);
			goto out;
		}
		bool last = only_slashes(rest);
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
			if (sr)
				SYSROOT_TAP(sr, link, w.canon, target);
			canon_cut(&w, before);
			if (++links > MAXSYMLINKS) {
				r = -ELOOP;
				goto out;
			}
			if (target[0] == '/')
				to_root(&w);
			char *np = link_splice(target, rest);
			if (!np) {
				r = -ENOMEM;
				goto out;
			}
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
		r = push(&w, fd);
		if (r < 0)
			goto out;
	}
	if (err < 0) {
		r = err;
		goto out;
	}
	if (ret_canon && !(*ret_canon = strdup(w.canon ? w.canon : ""))) {
		r = -ENOMEM;
		goto out;
	}
	r = w.fds[w.depth];
	w.fds[w.depth] = -1;
out:
	walk_done(&w);
	return r;
}
