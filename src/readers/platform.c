/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sys/bus/platform/devices and sys/bus/amba/devices: the devices the
 * devicetree created (drivers/of/platform.c of_platform_device_create_pdata,
 * of_amba_device_create). Only those with an of_node link are kept: their
 * DMA reach comes from the devicetree (of_dma_configure), and sysfs shows
 * no mask for them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readers/driver-binding.h"
#include "readers/of-node.h"
#include "readers/readers.h"
#include "readers/sysfs-attr.h"
#include "shared/kernel-defs.h"
#include "shared/macro.h"
#include "shared/path.h"

static const enum dev_bus buses[] = { DEV_BUS_PLATFORM, DEV_BUS_AMBA };

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
	for (size_t i = 0; i < s->n; i++)
		free(s->ids[i]);
	free(s->ids);
}

/* Whether buf holds only non-empty printable strings, each NUL-terminated (of_prop_next_string). */
static bool compatible_well_formed(const char *buf, size_t len)
{
	if (len == 0 || buf[len - 1] != '\0')
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];
		if (c == '\0' ? i == 0 || buf[i - 1] == '\0' : c < 0x20 || c > 0x7e)
			return false;
	}
	return true;
}

/*
 * The node's compatible strings (NUL-separated; drivers/of/base.c
 * __of_device_is_compatible scores them in order): the first, the most
 * specific, names the device; all of them, when well formed, say which
 * entry of a driver's of_match_table bound it (its variant data).
 */
static int read_compatible(struct sysroot *sr, struct machine *m, const char *node, struct device *d)
{
	_cleanup_sysroot_dir_ struct sysroot_dir *dir = NULL;
	_cleanup_free_ char *buf = NULL, *path = NULL;
	size_t len;
	int r;

	r = sysroot_dir_new(sr, &dir, DT_BASE "/%s", node);
	if (r < 0)
		return r;
	r = sysroot_dir_read_file(dir, "compatible", SYSFS_ATTR_MAX, &buf, &len);
	if (r == -ENOMEM)
		return r;
	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	size_t first = r < 0 ? 0 : strnlen(buf, len);
	bool ok = first > 0;
	for (size_t i = 0; ok && i < first; i++)
		ok = (unsigned char)buf[i] >= 0x20 && (unsigned char)buf[i] <= 0x7e;
	if (!(path = path_join(sysroot_dir_path(dir), "compatible")))
		return -ENOMEM;
	if (!ok) {
		if (r < 0)
			return machine_add_input_errno(m, path, r);
		return machine_add_input(m, path, INPUT_INVALID, EBADMSG,
					 "first compatible string empty or not printable");
	}
	if (!(d->name = strndup(buf, first)))
		return -ENOMEM;
	/* a variant matched on a string that is not there would be a guess: none then */
	if (!compatible_well_formed(buf, len))
		return machine_add_input(m, path, INPUT_INVALID, EBADMSG,
					 "a compatible string empty, not printable or not NUL-terminated: "
					 "the driver's variant is not matched");
	d->compatible = TAKE_PTR(buf);
	d->compatible_len = len;
	return 0;
}

/* What the bus readers share: the driver directory devices of one driver have in common. */
struct platform_walk {
	struct sysroot *sr;
	struct seen added;
	struct sysfs_driver_cache driver;
};

static int read_device(struct platform_walk *w, struct machine *m, struct sysroot_dir *busdir,
		       enum dev_bus bus, const char *name)
{
	_cleanup_sysroot_dir_ struct sysroot_dir *dir = NULL, *real = NULL;
	_cleanup_free_ char *syspath = NULL, *node = NULL;
	struct device *d;
	int r;

	r = sysroot_dir_follow(busdir, name, &syspath);
	if (r == -ENOMEM)
		return r;
	/* not a link (-EINVAL: a copied directory) or gone (-ENOENT) is fine; else the device is hidden */
	if (r < 0 && r != -EINVAL && r != -ENOENT) {
		_cleanup_free_ char *path = path_join(sysroot_dir_path(busdir), name);
		if (!path || machine_bus_unreadable(m, bus, path, r) < 0)
			return -ENOMEM;
		return machine_add_input_errno(m, path, r);
	}
	/* a copied directory, not a link */
	if (r < 0 && !(syspath = path_join(sysroot_dir_path(busdir), name)))
		return -ENOMEM;
	/* of_node is relative to the device's real directory, not to its bus link */
	r = sysroot_dir_new(w->sr, &real, "%s", syspath);
	if (r < 0)
		return r;
	struct dt_info bad = { .node_is_device = true };
	r = sysfs_of_node(real, &node, &bad);
	if (r < 0 || (r == 0 && !bad.err)) {
		dt_info_done(&bad);
		return r;
	}
	d = machine_add_device(m);
	if (!d) {
		dt_info_done(&bad);
		return -ENOMEM;
	}
	d->dt = malloc(sizeof(*d->dt));
	if (!d->dt) {
		dt_info_done(&bad);
		return -ENOMEM;
	}
	*d->dt = bad; /* empty, or the broken of_node: the device's now */
	d->bus = bus;
	d->id = strdup(name);
	if (!d->id || seen_add(&w->added, name) < 0)
		return -ENOMEM;
	d->syspath = TAKE_PTR(syspath);
	if ((r = sysroot_dir_new_at(busdir, &dir, "%s", name)) < 0 ||
	    (r = sysfs_read_string(dir, m, "modalias", &d->modalias)) < 0 ||
	    (r = sysfs_read_binding(w->sr, dir, m, d, &w->driver, NULL)) < 0)
		return r;
	if (d->dt->err) /* an of_node the audit cannot follow: judged unknown, not dropped */
		return dt_record_error(m, d->dt);
	if ((r = read_compatible(w->sr, m, node, d)) < 0)
		return r;
	r = read_dt_chain(w->sr, node, true, d->dt);
	if (r == -ENOMEM)
		return r;
	if (!d->dt->node)
		d->dt->node = TAKE_PTR(node);
	return dt_record_error(m, d->dt);
}

/*
 * The kernel keeps device names unique on each bus only, so a PCI function
 * and a platform device may share one (a crafted tree makes them): JSON
 * consumers key on id, so the non-PCI one becomes "platform:NAME" (or
 * "amba:NAME"), recorded. Devices sorted by id on entry and on return.
 * 0 or -ENOMEM.
 */
static int qualify_clashes(struct machine *m)
{
	bool renamed = false;

	for (size_t i = 1; i < m->n_devices; i++) {
		struct device *a = &m->devices[i - 1], *b = &m->devices[i];
		if (strcmp(a->id, b->id) != 0)
			continue;
		struct device *d = b->bus == DEV_BUS_PCI ? a : b; /* PCI keeps its address */
		if (d->bus == DEV_BUS_PCI)
			continue; /* two PCI functions of one name cannot be: a bus dir lists it once */
		_cleanup_free_ char *why = NULL;
		char *id = NULL;
		if (asprintf(&id, "%s:%s", dev_bus_to_string(d->bus), d->id) < 0 ||
		    asprintf(&why, "another bus has a device of this name: reported as %s", id) < 0) {
			free(id);
			return -ENOMEM;
		}
		int r = machine_add_input(m, d->syspath ? d->syspath : d->id, INPUT_INVALID, EEXIST, why);
		free(d->id);
		d->id = id;
		renamed = true;
		if (r < 0)
			return r;
	}
	if (renamed)
		machine_sort_devices(m);
	return 0;
}

int read_platform(struct sysroot *sr, struct machine *m)
{
	struct platform_walk w = { .sr = sr };
	int r = 0;

	for (size_t b = 0; r >= 0 && b < ARRAY_SIZE(buses); b++) {
		_cleanup_sysroot_dir_ struct sysroot_dir *busdir = NULL;
		struct strv names = { 0 };
		size_t before = w.added.n;

		const char *dir = dev_bus_dir(buses[b]);
		r = sysroot_dir_new(sr, &busdir, "%s", dir);
		if (r < 0)
			break;
		r = sysroot_dir_list(busdir, &names);
		if (r == -ENOMEM)
			break;
		m->buses[buses[b]] = (struct bus_listing){ .tried = true, .err = r < 0 ? -r : 0, .entries = names.n };
		/* either bus may be absent (x86 has no AMBA): recorded; the analysis judges what that hides */
		r = machine_add_input_errno(m, dir, r);
		for (size_t i = 0; r >= 0 && i < names.n; i++)
			if (!seen_has(&w.added, before, names.v[i]))
				r = read_device(&w, m, busdir, buses[b], names.v[i]);
		strv_done(&names);
		if (r >= 0 && w.added.n > before)
			qsort(w.added.ids, w.added.n, sizeof(*w.added.ids), cmp_str);
	}
	seen_done(&w.added);
	sysfs_driver_cache_done(&w.driver);
	if (r < 0)
		return r;
	machine_sort_devices(m);
	return qualify_clashes(m);
}
