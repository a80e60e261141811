/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Writing a snapshot: the only code besides --output-file that writes files. */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "shared/errno-util.h"
#include "shared/macro.h"

struct capture {
	int fd;              /* the capture directory */
	char **errors;       /* "path=ERRNO" lines, deduplicated */
	size_t n_errors;
	int first_error;     /* sticky */
};

static int keep(struct capture *c, int r)
{
	if (r < 0 && c->first_error == 0)
		c->first_error = r;
	return r;
}

int capture_new(const char *dir, struct capture **ret)
{
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* refuse to mix with whatever is there already */
	DIR *d = fdopendir(fcntl(fd, F_DUPFD_CLOEXEC, 3));
	if (!d) {
		close(fd);
		return -errno;
	}
	struct dirent *de;
	bool empty = true;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			empty = false;
	closedir(d);
	if (!empty) {
		close(fd);
		return -ENOTEMPTY;
	}
	struct capture *c = calloc(1, sizeof(*c));
	if (!c) {
		close(fd);
		return -ENOMEM;
	}
	c->fd = fd;
	*ret = c;
	return 0;
}

void capture_free(struct capture *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n_errors; i++)
		free(c->errors[i]);
	free(c->errors);
	close(c->fd);
	free(c);
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

/* mkdir -p of the directories above canon (or of canon itself when whole). */
static int make_parents(struct capture *c, const char *canon, bool whole)
{
	char buf[PATH_MAX];
	size_t len = strlen(canon);

	if (len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, canon, len + 1);
	for (char *p = buf; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdirat(c->fd, buf, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (whole && mkdirat(c->fd, buf, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int capture_file(struct capture *c, const char *canon, const char *buf, size_t len)
{
	if (!path_ok(canon))
		return keep(c, -EINVAL);
	int r = make_parents(c, canon, false);
	if (r < 0)
		return keep(c, r);
	_cleanup_close_ int fd = openat(c->fd, canon, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
					0644);
	if (fd < 0)
		return keep(c, -errno);
	for (size_t off = 0; off < len;) {
		ssize_t n = write(fd, buf + off, len - off);
		if (n < 0)
			return keep(c, -errno);
		off += (size_t)n;
	}
	return 0;
}

int capture_link(struct capture *c, const char *canon, const char *target)
{
	char rel[PATH_MAX] = "";

	if (!path_ok(canon))
		return keep(c, -EINVAL);
	if (target[0] == '/') {
		/* an absolute target means root-relative: climb from the link's directory */
		size_t depth = 0, used = 0;
		for (const char *p = canon; *p; p++)
			depth += *p == '/';
		for (size_t i = 0; i < depth; i++) {
			if (used + 3 >= sizeof(rel))
				return keep(c, -ENAMETOOLONG);
			memcpy(rel + used, "../", 3);
			used += 3;
		}
		const char *t = target;
		while (*t == '/')
			t++;
		if (used + strlen(t) + 1 > sizeof(rel))
			return keep(c, -ENAMETOOLONG);
		strcpy(rel + used, *t ? t : ".");
		target = rel;
	}
	int r = make_parents(c, canon, false);
	if (r < 0)
		return keep(c, r);
	if (symlinkat(target, c->fd, canon) < 0 && errno != EEXIST)
		return keep(c, -errno);
	return 0;
}

int capture_dir(struct capture *c, const char *canon)
{
	if (!*canon)
		return 0; /* the root itself */
	if (!path_ok(canon))
		return keep(c, -EINVAL);
	return keep(c, make_parents(c, canon, true));
}

int capture_placeholder(struct capture *c, const char *canon)
{
	if (!path_ok(canon))
		return keep(c, -EINVAL);
	int r = make_parents(c, canon, false);
	if (r < 0)
		return keep(c, r);
	int fd = openat(c->fd, canon, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return errno == EEXIST ? 0 : keep(c, -errno);
	close(fd);
	return 0;
}

int capture_error(struct capture *c, const char *path, int err)
{
	const char *name = errno_name(err);
	char *line = NULL;

	if (!name || err == -ENOENT || err == ENOENT)
		return 0; /* absence is reproduced by absence */
	while (*path == '/')
		path++;
	if (asprintf(&line, "error.%s=%s", path, name) < 0)
		return keep(c, -ENOMEM);
	for (size_t i = 0; i < c->n_errors; i++)
		if (strcmp(c->errors[i], line) == 0) {
			free(line);
			return 0;
		}
	char **n = realloc(c->errors, (c->n_errors + 1) * sizeof(*n));
	if (!n) {
		free(line);
		return keep(c, -ENOMEM);
	}
	c->errors = n;
	c->errors[c->n_errors++] = line;
	return 0;
}

int capture_finish(struct capture *c, const struct manifest_entry *kv, size_t n)
{
	_cleanup_close_ int fd = openat(c->fd, "MANIFEST", O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
							   O_CLOEXEC, 0644);
	if (fd < 0)
		return keep(c, -errno);
	FILE *f = fdopen(TAKE_FD(fd), "w");
	if (!f)
		return keep(c, -errno);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s=%s\n", kv[i].key, kv[i].value);
	for (size_t i = 0; i < c->n_errors; i++)
		fprintf(f, "%s\n", c->errors[i]);
	if (fclose(f) != 0)
		keep(c, -errno);
	return c->first_error;
}
