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

int sysfs_read_failed(struct sysroot_dir *dir, struct machine *m, const char *name, int r)
{
	if (r == -ENOMEM)
		return r;
	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	_cleanup_free_ char *path = path_join(sysroot_dir_path(dir), name);
	if (!path)
		return -ENOMEM;
	return machine_add_input_errno(m, path, r);
}

/* dir/name holds no usable value: an invalid input. 0 or -ENOMEM. */
static int invalid(struct sysroot_dir *dir, struct machine *m, const char *name, int err,
		   const char *detail)
{
	_cleanup_free_ char *path = path_join(sysroot_dir_path(dir), name);

	if (!path)
		return -ENOMEM;
	return machine_add_input(m, path, INPUT_INVALID, err, detail);
}

int sysfs_read_int(struct sysroot_dir *dir, struct machine *m, const char *name, unsigned base,
		   int64_t min, int64_t max, int64_t *ret)
{
	int r = sysroot_dir_read_int(dir, name, base, min, max, ret);

	if (r == -ERANGE)
		return invalid(dir, m, name, ERANGE, "value out of range");
	if (r == -EBADMSG)
		return invalid(dir, m, name, EBADMSG,
			       base == 16 ? "not a hex number" : "not a decimal number");
	return r < 0 ? sysfs_read_failed(dir, m, name, r) : 1;
}

int sysfs_read_string(struct sysroot_dir *dir, struct machine *m, const char *name, char **ret)
{
	int r = sysroot_dir_read_string(dir, name, ret);

	if (r == -EBADMSG)
		return invalid(dir, m, name, EBADMSG, "not a printable line");
	return r < 0 ? sysfs_read_failed(dir, m, name, r) : 1;
}

/* The last component of a link's target, or NULL when it names none. */
static int target_basename(char *target, char **ret)
{
	size_t len = strlen(target);
	while (len > 0 && target[len - 1] == '/')
		target[--len] = '\0';
	const char *slash = strrchr(target, '/');
	const char *base = slash ? slash + 1 : target;
	if (!filename_is_plain(base))
		return 0;
	char *s = strdup(base);
	if (!s)
		return -ENOMEM;
	*ret = s;
	return 1;
}

int sysfs_link_basename(struct sysroot_dir *dir, const char *name, char **ret)
{
	_cleanup_free_ char *target = NULL;
	int r = sysroot_dir_readlink(dir, name, &target);

	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0;
	return target_basename(target, ret);
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

int sysfs_of_node(struct sysroot_dir *dir, char **ret, struct dt_info *ret_bad)
{
	_cleanup_free_ char *link = path_join(sysroot_dir_path(dir), "of_node");
	_cleanup_free_ char *target = NULL, *resolved = NULL;
	static const char base[] = DT_BASE;
	int r;

	if (!link)
		return -ENOMEM;
	r = sysroot_dir_readlink(dir, "of_node", &target);
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
	r = sysroot_link_resolve(link, target, &resolved);
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

void sysfs_driver_cache_done(struct sysfs_driver_cache *c)
{
	strmap_done(&c->seen);
	strv_done(&c->modules);
}

/*
 * drivers/base/module.c module_add_driver: "module" under the driver, when
 * it has one. Looked up from the driver's own directory drvdir (root-relative;
 * NULL: unknown, so driver/module is read through the device), once per
 * driver: the cache answers for the next devices of the same driver.
 */
static int read_module(struct sysroot *sr, struct sysroot_dir *dir, const char *drvdir,
		       struct device *d, struct sysfs_driver_cache *cache)
{
	int r;

	if (!drvdir)
		return sysfs_link_basename(dir, "driver/module", &d->module);
	const struct strmap_entry *e = strmap_get(&cache->seen, drvdir);
	if (e) {
		if (e->value && !(d->module = strdup(cache->modules.v[e->value - 1])))
			return -ENOMEM;
		return 0;
	}
	_cleanup_sysroot_dir_ struct sysroot_dir *drv = NULL;
	r = sysroot_dir_new(sr, &drv, "%s", drvdir);
	if (r == 0)
		r = sysfs_link_basename(drv, "module", &d->module);
	if (r == -ENOMEM)
		return r;
	/* a path too long to name, or no link: no module, for every device of it */
	if (d->module && strv_push(&cache->modules, d->module) < 0)
		return -ENOMEM;
	return strmap_add(&cache->seen, drvdir, d->module ? (int)cache->modules.n : 0) < 0 ? -ENOMEM : 0;
}

int sysfs_read_binding(struct sysroot *sr, struct sysroot_dir *dir, struct machine *m,
		       struct device *d, struct sysfs_driver_cache *cache, const char *drivers)
{
	_cleanup_sysroot_dir_ struct sysroot_dir *group = NULL;
	_cleanup_free_ char *target = NULL, *group_name = NULL, *drvdir = NULL;
	int64_t n;
	int r;

	if (drivers) {
		/* bus_add_driver: the driver's directory is the bus's drivers/NAME, where the link leads */
		if (d->driver && !(drvdir = path_join(drivers, d->driver)))
			return -ENOMEM;
	} else {
		/* drivers/base/dd.c driver_sysfs_add: the "driver" link exists while bound. */
		r = sysroot_dir_readlink(dir, "driver", &target);
		if (r == -ENOMEM)
			return r;
		if (r == 0 && target_basename(target, &d->driver) < 0)
			return -ENOMEM;
		_cleanup_free_ char *base = d->syspath ? path_join(d->syspath, "driver") : NULL;
		if (d->syspath && !base)
			return -ENOMEM;
		if (target && base && sysroot_link_resolve(base, target, &drvdir) == -ENOMEM)
			return -ENOMEM;
	}
	/* drivers/iommu/iommu.c iommu_group_add_device: "iommu_group" -> kernel/iommu_groups/N */
	r = sysfs_link_basename(dir, "iommu_group", &group_name);
	if (r < 0)
		return r;
	if (d->driver) {
		r = read_module(sr, dir, drvdir, d, cache);
		if (r < 0)
			return r;
		if (d->module)
			d->module_source = "sysfs";
	}

	if (!group_name)
		return 0;
	if (parse_int_line(group_name, strlen(group_name), 10, 0, INT_MAX, &n) < 0)
		return invalid(dir, m, "iommu_group", EBADMSG,
			       "iommu_group does not name a group number");
	d->iommu_group = (int)n;
	r = sysroot_dir_new(sr, &group, "sys/kernel/iommu_groups/%d", d->iommu_group);
	if (r == 0)
		r = sysfs_read_string(group, m, "type", &d->iommu_type);
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
