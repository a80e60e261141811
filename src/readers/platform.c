/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sys/bus/platform/devices and sys/bus/amba/devices: the devices the
 * devicetree created (drivers/of/platform.c of_platform_device_create_pdata,
 * of_amba_device_create). Only those with an of_node link are kept: their
 * DMA reach comes from the devicetree (of_dma_configure), and sysfs shows
 * no mask for them.
 */
#include <stdlib.h>
#include <string.h>

#include "readers/readers.h"
#include "readers/sysfs-util.h"
#include "shared/macro.h"

static const struct {
	const char *dir;
	enum dev_bus bus;
} buses[] = {
	{ "sys/bus/platform/devices", DEV_BUS_PLATFORM },
	{ "sys/bus/amba/devices", DEV_BUS_AMBA },
};

/* Ids already added: a device on both buses is kept once. */
struct seen {
	char **ids;
	size_t n;
	size_t cap;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Only the first n_sorted ids: those of the earlier buses, sorted. */
static bool seen_has(const struct seen *s, size_t n_sorted, const char *id)
{
	return n_sorted && bsearch(&id, s->ids, n_sorted, sizeof(*s->ids), cmp_str);
}

static int seen_add(struct seen *s, const char *id)
{
	if (s->n == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 64;
		char **n = realloc(s->ids, ncap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		s->ids = n;
		s->cap = ncap;
	}
	s->ids[s->n] = strdup(id);
	if (!s->ids[s->n])
		return -ENOMEM;
	s->n++;
	return 0;
}

static void seen_done(struct seen *s)
{
	sysroot_free_names(s->ids, s->n);
}

/*
 * The node's first compatible string (NUL-separated, drivers/of/base.c
 * of_device_is_compatible reads them in order): the most specific name.
 */
static int read_compatible(struct sysroot *sr, struct machine *m, const char *node, char **ret)
{
	_cleanup_free_ char *dir = path_join(DT_BASE, node);
	_cleanup_free_ char *path = dir ? path_join(dir, "compatible") : NULL;
	_cleanup_free_ char *buf = NULL;
	size_t len;
	int r;

	if (!path)
		return -ENOMEM;
	r = sysroot_read_file(sr, path, SYSFS_ATTR_MAX, &buf, &len);
	if (r == -ENOMEM)
		return r;
	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	if (r < 0)
		return machine_add_input_errno(m, path, r);
	size_t first = strnlen(buf, len);
	bool ok = first > 0;
	for (size_t i = 0; ok && i < first; i++)
		ok = (unsigned char)buf[i] >= 0x20 && (unsigned char)buf[i] <= 0x7e;
	if (!ok)
		return machine_add_input(m, path, INPUT_INVALID, EBADMSG,
					 "first compatible string empty or not printable");
	char *s = strndup(buf, first);
	if (!s)
		return -ENOMEM;
	*ret = s;
	return 0;
}

static int read_device(struct sysroot *sr, struct machine *m, const char *dir, enum dev_bus bus,
		       const char *name, struct seen *added)
{
	_cleanup_free_ char *link = path_join(dir, name), *target = NULL, *syspath = NULL;
	_cleanup_free_ char *node = NULL, *modalias = NULL;
	struct device *d;
	int r;

	if (!link)
		return -ENOMEM;
	r = sysroot_readlink(sr, link, &target);
	if (r == -ENOMEM)
		return r;
	if (r == 0)
		r = path_resolve_link(link, target, &syspath);
	if (r == -ENOMEM)
		return r;
	if (r < 0 && !(syspath = strdup(link))) /* a copied directory, not a link */
		return -ENOMEM;
	/* of_node is relative to the device's real directory, not to its bus link */
	struct dt_info bad = { .node_is_device = true };
	r = sysfs_of_node(sr, syspath, &node, &bad);
	if (r < 0 || (r == 0 && !bad.err)) {
		dt_info_done(&bad);
		return r;
	}
	d = machine_add_device(m);
	if (!d) {
		dt_info_done(&bad);
		return -ENOMEM;
	}
	d->dt = bad; /* empty, or the broken of_node: the device's now */
	d->bus = bus;
	d->id = strdup(name);
	if (!d->id || seen_add(added, name) < 0)
		return -ENOMEM;
	d->syspath = TAKE_PTR(syspath);
	modalias = path_join(link, "modalias");
	if (!modalias)
		return -ENOMEM;
	if ((r = sysfs_read_string(sr, m, modalias, &d->modalias)) < 0 ||
	    (r = sysfs_read_binding(sr, m, link, d)) < 0)
		return r;
	if (d->dt.err) /* an of_node the audit cannot follow: judged unknown, not dropped */
		return dt_record_error(m, &d->dt);
	if ((r = read_compatible(sr, m, node, &d->name)) < 0)
		return r;
	r = read_dt_chain(sr, node, true, &d->dt);
	if (r == -ENOMEM)
		return r;
	if (!d->dt.node)
		d->dt.node = TAKE_PTR(node);
	return dt_record_error(m, &d->dt);
}

int read_platform(struct sysroot *sr, struct machine *m)
{
	struct seen added = { 0 };
	int r = 0;

	for (size_t b = 0; r >= 0 && b < ARRAY_SIZE(buses); b++) {
		char **names = NULL;
		size_t n = 0, before = added.n;

		r = sysroot_list_dir(sr, buses[b].dir, &names, &n);
		if (r == -ENOMEM)
			break;
		/* either bus may be absent (x86 has no AMBA): recorded, not an error */
		r = machine_add_input_errno(m, buses[b].dir, r);
		for (size_t i = 0; r >= 0 && i < n; i++)
			if (!seen_has(&added, before, names[i]))
				r = read_device(sr, m, buses[b].dir, buses[b].bus, names[i],
						&added);
		sysroot_free_names(names, n);
		if (r >= 0 && added.n > before)
			qsort(added.ids, added.n, sizeof(*added.ids), cmp_str);
	}
	seen_done(&added);
	if (r < 0)
		return r;
	machine_sort_devices(m);
	return 0;
}
