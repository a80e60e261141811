/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers the device readers share; see sysfs-util.h. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readers/sysfs-util.h"
#include "shared/errno-util.h"
#include "shared/macro.h"
#include "shared/text.h"

/* fs/namei.c: at most 40 symlinks in one lookup. */
#define MAXSYMLINKS 40

char *path_join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = malloc(la + 1 + lb + 1);

	if (!s)
		return NULL;
	if (la == 0) {
		memcpy(s, b, lb + 1);
		return s;
	}
	memcpy(s, a, la);
	s[la] = '/';
	memcpy(s + la + 1, b, lb + 1);
	return s;
}

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
	*ret = out;
	return 0;
}

int path_resolve_link(const char *link_path, const char *target, char **ret)
{
	_cleanup_free_ char *joined = NULL;

	if (!*target)
		return -EINVAL;
	if (target[0] == '/') {
		joined = strdup(target);
	} else {
		const char *slash = strrchr(link_path, '/');
		size_t dlen = slash ? (size_t)(slash - link_path) : 0;
		size_t tlen = strlen(target);

		joined = malloc(dlen + 1 + tlen + 1);
		if (joined) {
			memcpy(joined, link_path, dlen);
			joined[dlen] = '/';
			memcpy(joined + dlen + 1, target, tlen + 1);
		}
	}
	if (!joined)
		return -ENOMEM;
	return path_normalize(joined, ret);
}

int path_resolve_in_root(struct sysroot *sr, const char *path, char **ret)
{
	_cleanup_free_ char *done = strdup(""), *rest = strdup(path);
	unsigned links = 0;

	if (!done || !rest)
		return -ENOMEM;
	for (char *p = rest; *p;) {
		char *slash = strchr(p, '/');
		size_t clen = slash ? (size_t)(slash - p) : strlen(p);
		char *next = slash ? slash + 1 : p + clen;

		if (clen == 0 || (clen == 1 && p[0] == '.')) {
			p = next;
			continue;
		}
		if (clen == 2 && p[0] == '.' && p[1] == '.') {
			char *last = strrchr(done, '/');
			*(last ? last : done) = '\0';
			p = next;
			continue;
		}

		_cleanup_free_ char *comp = strndup(p, clen);
		_cleanup_free_ char *candidate = comp ? path_join(done, comp) : NULL;
		_cleanup_free_ char *target = NULL;
		if (!candidate)
			return -ENOMEM;
		int r = sysroot_readlink(sr, candidate, &target);
		if (r == -EINVAL) { /* exists and is not a link */
			free(done);
			done = TAKE_PTR(candidate);
			p = next;
			continue;
		}
		if (r < 0)
			return r;
		if (++links > MAXSYMLINKS)
			return -ELOOP;
		if (!*target)
			return -ENOENT;
		if (target[0] == '/')
			done[0] = '\0';
		/* Walk the target's components, then what was left of path. */
		char *nrest = path_join(target, next);
		if (!nrest)
			return -ENOMEM;
		free(rest);
		rest = nrest;
		p = rest;
	}
	*ret = TAKE_PTR(done);
	return 0;
}

int sysfs_parse_int(const char *s, size_t len, unsigned base, int64_t min, int64_t max,
		    int64_t *ret)
{
	bool neg = false;
	uint64_t u;
	int64_t v;
	int r;

	if (len > 0 && s[len - 1] == '\n')
		len--;
	if (base == 10 && min < 0 && len > 0 && s[0] == '-') {
		neg = true;
		s++;
		len--;
	}
	r = parse_u64(s, len, base, &u);
	if (r < 0)
		return r == -ERANGE ? -ERANGE : -EINVAL;
	if (neg) {
		if (u > (uint64_t)INT64_MAX + 1)
			return -ERANGE;
		v = u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u;
	} else {
		if (u > (uint64_t)INT64_MAX)
			return -ERANGE;
		v = (int64_t)u;
	}
	if (v < min || v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

/* 1 with the contents, 0 when absent (silent) or unreadable (recorded), -ENOMEM. */
static int read_attr(struct sysroot *sr, struct machine *m, const char *path, char **ret,
		     size_t *ret_len)
{
	int r = sysroot_read_file(sr, path, SYSFS_ATTR_MAX, ret, ret_len);

	if (r == -ENOMEM)
		return r;
	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	if (r < 0)
		return machine_add_input_errno(m, path, r);
	return 1;
}

int sysfs_read_int(struct sysroot *sr, struct machine *m, const char *path, unsigned base,
		   int64_t min, int64_t max, int64_t *ret)
{
	_cleanup_free_ char *buf = NULL;
	size_t len;
	int64_t v;
	int r;

	r = read_attr(sr, m, path, &buf, &len);
	if (r <= 0)
		return r;
	if (text_has_nul(buf, len))
		r = -EINVAL;
	else
		r = sysfs_parse_int(buf, len, base, min, max, &v);
	if (r == -ERANGE)
		return machine_add_input(m, path, INPUT_INVALID, ERANGE, "value out of range");
	if (r < 0)
		return machine_add_input(m, path, INPUT_INVALID, EBADMSG,
					 base == 16 ? "not a hex number" : "not a decimal number");
	*ret = v;
	return 1;
}

static bool printable(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			return false;
	return true;
}

int sysfs_read_string(struct sysroot *sr, struct machine *m, const char *path, char **ret)
{
	_cleanup_free_ char *buf = NULL;
	size_t len;
	int r;

	r = read_attr(sr, m, path, &buf, &len);
	if (r <= 0)
		return r;
	if (len > 0 && buf[len - 1] == '\n')
		buf[--len] = '\0';
	if (len == 0 || !printable(buf, len))
		return machine_add_input(m, path, INPUT_INVALID, EBADMSG, "not a printable line");
	*ret = TAKE_PTR(buf);
	return 1;
}

int sysfs_link_basename(struct sysroot *sr, const char *path, char **ret)
{
	_cleanup_free_ char *target = NULL;
	int r = sysroot_readlink(sr, path, &target);

	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0;
	size_t len = strlen(target);
	while (len > 0 && target[len - 1] == '/')
		target[--len] = '\0';
	const char *slash = strrchr(target, '/');
	const char *base = slash ? slash + 1 : target;
	if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		return 0;
	char *s = strdup(base);
	if (!s)
		return -ENOMEM;
	*ret = s;
	return 1;
}

/* An of_node link that is there but leads nowhere usable: the device's reach is unknown. */
static int of_node_broken(struct dt_info *bad, const char *link, int err, const char *what)
{
	bad->err = err;
	bad->err_path = strdup(link);
	if (!bad->err_path || asprintf(&bad->error, "of_node %s", what) < 0) {
		bad->error = NULL;
		return -ENOMEM;
	}
	return 0;
}

int sysfs_of_node(struct sysroot *sr, const char *dir, char **ret, struct dt_info *ret_bad)
{
	_cleanup_free_ char *link = path_join(dir, "of_node");
	_cleanup_free_ char *target = NULL, *resolved = NULL;
	static const char base[] = DT_BASE;
	int r;

	if (!link)
		return -ENOMEM;
	r = sysroot_readlink(sr, link, &target);
	if (r == -ENOMEM)
		return r;
	if (r == -ENOENT || r == -ENOTDIR)
		return 0; /* no devicetree node: not a DT device */
	if (r < 0) {
		_cleanup_free_ char *what = NULL;
		if (asprintf(&what, "unreadable: %s", errno_describe(r)) < 0)
			return -ENOMEM;
		return of_node_broken(ret_bad, link, r, what);
	}
	r = path_resolve_link(link, target, &resolved);
	if (r == -ENOMEM)
		return r;
	if (r < 0 || strncmp(resolved, base, sizeof(base) - 1) != 0 ||
	    (resolved[sizeof(base) - 1] != '\0' && resolved[sizeof(base) - 1] != '/'))
		return of_node_broken(ret_bad, link, -EBADMSG, "does not point into " DT_BASE);
	const char *node = resolved + sizeof(base) - 1;
	char *s = strdup(*node == '/' ? node + 1 : node);
	if (!s)
		return -ENOMEM;
	*ret = s;
	return 1;
}

int sysfs_read_binding(struct sysroot *sr, struct machine *m, const char *dir, struct device *d)
{
	_cleanup_free_ char *driver = path_join(dir, "driver");
	_cleanup_free_ char *module = path_join(dir, "driver/module");
	_cleanup_free_ char *group = path_join(dir, "iommu_group");
	_cleanup_free_ char *group_name = NULL;
	int64_t n;
	int r;

	if (!driver || !module || !group)
		return -ENOMEM;
	/* drivers/base/dd.c driver_sysfs_add: the "driver" link exists while bound. */
	r = sysfs_link_basename(sr, driver, &d->driver);
	/* drivers/iommu/iommu.c iommu_group_add_device: "iommu_group" -> kernel/iommu_groups/N;
	 * read before leaving the device directory, which the sysroot layer keeps open */
	if (r >= 0)
		r = sysfs_link_basename(sr, group, &group_name);
	if (r < 0)
		return r;
	/* drivers/base/module.c module_add_driver: "module" under the driver, when it has
	 * one. Looked up from the driver's own directory, which devices of one driver
	 * share, so the sysroot layer resolves it once. */
	if (d->driver) {
		_cleanup_free_ char *target = NULL, *drvdir = NULL, *drvmod = NULL;
		r = sysroot_readlink(sr, driver, &target);
		if (r == -ENOMEM)
			return r;
		/* the link text is relative to the device's real directory, not the bus entry */
		_cleanup_free_ char *base = d->syspath ? path_join(d->syspath, "driver") : NULL;
		if (r == 0 && base && path_resolve_link(base, target, &drvdir) == 0 &&
		    (drvmod = path_join(drvdir, "module"))) {
			free(module);
			module = TAKE_PTR(drvmod);
		}
		r = sysfs_link_basename(sr, module, &d->module);
		if (r < 0)
			return r;
		if (d->module)
			d->module_source = "sysfs";
	}

	if (!group_name)
		return 0;
	if (sysfs_parse_int(group_name, strlen(group_name), 10, 0, INT_MAX, &n) < 0)
		return machine_add_input(m, group, INPUT_INVALID, EBADMSG,
					 "iommu_group does not name a group number");
	d->iommu_group = (int)n;
	char type[64];
	snprintf(type, sizeof(type), "sys/kernel/iommu_groups/%d/type", d->iommu_group);
	r = sysfs_read_string(sr, m, type, &d->iommu_type);
	d->iommu_domain = iommu_domain_from_string(d->iommu_type);
	return r < 0 ? r : 0;
}

struct prefix {
	const char *s;
	size_t len;
};

static int cmp_index(const void *a, const void *b)
{
	return strcmp(((const struct dev_index *)a)->syspath,
		      ((const struct dev_index *)b)->syspath);
}

/* The same order as cmp_index, for the first len bytes of s as a string. */
static int cmp_prefix(const void *key, const void *elem)
{
	const struct prefix *k = key;
	const char *e = ((const struct dev_index *)elem)->syspath;
	int c = strncmp(k->s, e, k->len);

	if (c)
		return c;
	return e[k->len] ? -1 : 0;
}

int dev_index_build(const struct machine *m, struct dev_index **ret, size_t *ret_n)
{
	struct dev_index *idx = NULL;
	size_t n = 0;

	if (m->n_devices) {
		idx = malloc(m->n_devices * sizeof(*idx));
		if (!idx)
			return -ENOMEM;
	}
	for (size_t i = 0; i < m->n_devices; i++)
		if (m->devices[i].syspath)
			idx[n++] = (struct dev_index){ m->devices[i].syspath, i };
	if (n)
		qsort(idx, n, sizeof(*idx), cmp_index);
	*ret = idx;
	*ret_n = n;
	return 0;
}

const struct dev_index *dev_index_find(const struct dev_index *idx, size_t n, const char *path,
				       bool self)
{
	struct prefix k = { path, strlen(path) };

	if (n == 0)
		return NULL;
	if (self && k.len) {
		const struct dev_index *hit = bsearch(&k, idx, n, sizeof(*idx), cmp_prefix);
		if (hit)
			return hit;
	}
	for (;;) {
		while (k.len > 0 && path[k.len - 1] != '/')
			k.len--;
		if (k.len == 0)
			return NULL;
		k.len--; /* drop the '/' */
		const struct dev_index *hit = bsearch(&k, idx, n, sizeof(*idx), cmp_prefix);
		if (hit)
			return hit;
	}
}
