/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sys/bus/pci/devices (drivers/pci/pci-sysfs.c): one symlink per function to
 * its directory under sys/devices. vendor, device, subsystem_vendor,
 * subsystem_device print "0x%04x", class "0x%06x"; dma_mask_bits and
 * consistent_dma_mask_bits print fls64() of the mask, a bit count (32 until
 * a driver widens it); numa_node prints "%d", -1 for NUMA_NO_NODE.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readers/driver-binding.h"
#include "readers/of-node.h"
#include "readers/readers.h"
#include "readers/sysfs-attr.h"
#include "shared/errno-util.h"
#include "shared/macro.h"
#include "shared/path.h"
#include "shared/text.h"

#define PCI_DEVICES dev_bus_dir(DEV_BUS_PCI)
#define PCI_DRIVERS "sys/bus/pci/drivers"

/* The last host bridge's parent seen, and its of_node: functions share bridges. */
struct bridge_cache {
	char *parent;
	char *node;         /* NULL: no of_node */
	struct dt_info bad; /* bad.err: an of_node there, but unreadable */
};

/* "pci%04x:%02x" (drivers/pci/probe.c pci_register_host_bridge); wider domains print wider. */
static bool is_host_bridge(const char *s, size_t len)
{
	const char *colon;

	if (len < 3 + 4 + 1 + 2 || memcmp(s, "pci", 3) != 0)
		return false;
	colon = memchr(s + 3, ':', len - 3);
	if (!colon || colon - (s + 3) < 4 || (size_t)(s + len - colon) != 3)
		return false;
	for (const char *p = s + 3; p < s + len; p++)
		if (p != colon && !isxdigit((unsigned char)*p))
			return false;
	return true;
}

/*
 * The directory of the device above the function's host bridge: the kernel
 * configures a PCI function's DMA from that device's of_node
 * (drivers/pci/pci-driver.c pci_dma_configure: bridge->parent->of_node), not
 * from a bridge function's own node. 1 found, 0 none, -ENOMEM.
 */
static int host_bridge_parent(const char *syspath, char **ret)
{
	const char *best = NULL;

	for (const char *p = syspath; *p;) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);
		if (is_host_bridge(p, len))
			best = p;
		p += len;
		if (*p == '/')
			p++;
	}
	if (!best || best == syspath)
		return 0;
	char *s = strndup(syspath, (size_t)(best - syspath - 1));
	if (!s)
		return -ENOMEM;
	*ret = s;
	return 1;
}

static int read_bridge_dt(struct sysroot *sr, struct machine *m, struct bridge_cache *cache,
			  struct device *d)
{
	_cleanup_free_ char *parent = NULL, *node = NULL;
	int r;

	r = host_bridge_parent(d->syspath, &parent);
	if (r <= 0)
		return r;
	if (!cache->parent || strcmp(cache->parent, parent) != 0) {
		free(cache->parent);
		free(cache->node);
		dt_info_done(&cache->bad);
		cache->parent = cache->node = NULL;
		_cleanup_sysroot_dir_ struct sysroot_dir *dir = NULL;
		r = sysroot_dir_new(sr, &dir, "%s", parent);
		if (r == 0)
			r = sysfs_of_node(dir, &cache->node, &cache->bad);
		if (r < 0)
			return r;
		cache->parent = TAKE_PTR(parent);
	}
	if (!cache->bad.err && !cache->node)
		return 0;
	struct dt_info *dt = device_dt_new(d);
	if (!dt)
		return -ENOMEM;
	if (cache->bad.err) {
		/* the host bridge's node cannot be followed: every function behind it is unknown */
		dt->err = cache->bad.err;
		dt->err_path = strdup(cache->bad.err_path);
		dt->error = strdup(cache->bad.error);
		if (!dt->err_path || !dt->error)
			return -ENOMEM;
		return dt_record_error(m, dt);
	}
	node = strdup(cache->node);
	if (!node)
		return -ENOMEM;
	r = read_dt_chain(sr, node, false, dt);
	if (r == -ENOMEM)
		return r;
	if (!dt->node)
		dt->node = TAKE_PTR(node);
	return dt_record_error(m, dt);
}

/* Read the number file dir/name into *ret when it is well formed. -ENOMEM only. */
static int read_number(struct sysroot_dir *dir, struct machine *m, const char *name,
		       unsigned base, int64_t min, int64_t max, int64_t *ret, bool *ret_ok)
{
	int r = sysfs_read_int(dir, m, name, base, min, max, ret);

	if (r < 0)
		return r;
	if (ret_ok)
		*ret_ok = r > 0;
	return 0;
}

/* "1AF4:1042" -> two 16-bit ids */
static bool parse_id_pair(const char *v, size_t len, uint16_t *a, uint16_t *b)
{
	uint64_t x, y;
	const char *colon = memchr(v, ':', len);

	if (!colon || parse_u64(v, (size_t)(colon - v), 16, &x) < 0 ||
	    parse_u64(colon + 1, len - (size_t)(colon - v) - 1, 16, &y) < 0 || x > 0xffff || y > 0xffff)
		return false;
	*a = (uint16_t)x;
	*b = (uint16_t)y;
	return true;
}

int pci_uevent_parse(const char *buf, size_t len, struct pci_uevent *ret)
{
	struct pci_uevent u = { 0 };
	bool have_cls = false, have_id = false, have_sub = false;
	struct line_iter it;
	struct line l;
	uint64_t cls = 0;

	if (text_has_nul(buf, len))
		return -EBADMSG;
	line_iter_init(&it, buf, len);
	while (line_iter_next(&it, &l)) {
		const char *eq = memchr(l.s, '=', l.len);
		if (!eq)
			continue;
		size_t klen = (size_t)(eq - l.s), vlen = l.len - klen - 1;
		const char *val = eq + 1;
		if (klen == 9 && memcmp(l.s, "PCI_CLASS", 9) == 0)
			have_cls = parse_u64(val, vlen, 16, &cls) == 0 && cls <= 0xffffff;
		else if (klen == 6 && memcmp(l.s, "PCI_ID", 6) == 0)
			have_id = parse_id_pair(val, vlen, &u.vendor, &u.device_id);
		else if (klen == 13 && memcmp(l.s, "PCI_SUBSYS_ID", 13) == 0)
			have_sub = parse_id_pair(val, vlen, &u.subsys_vendor, &u.subsys_device);
		else if (klen == 8 && memcmp(l.s, "MODALIAS", 8) == 0)
			u.modalias = val, u.modalias_len = vlen;
		else if (klen == 6 && memcmp(l.s, "DRIVER", 6) == 0)
			u.driver = val, u.driver_len = vlen;
	}
	if (!have_cls || !have_id || !have_sub)
		return 0;
	u.class_code = (uint32_t)cls;
	*ret = u;
	return 1;
}

/*
 * One read of uevent instead of six attribute files: it matters at 10,000
 * functions. Returns 1 when the ids were all there, 0 to fall back to the
 * attribute files, -ENOMEM. *driver_known: the uevent also said whether the
 * function is bound, and d->driver is its DRIVER= (NULL: unbound), which
 * spares the read of the driver link.
 */
static int read_uevent_ids(struct sysroot_dir *dir, struct device *d, bool *driver_known)
{
	_cleanup_free_ char *buf = NULL;
	struct pci_uevent u;
	size_t len;
	int r = sysroot_dir_read_file(dir, "uevent", 8192, &buf, &len);

	if (r == -ENOMEM)
		return r;
	if (r < 0 || pci_uevent_parse(buf, len, &u) <= 0)
		return 0;
	if (u.modalias_len && !d->modalias && !(d->modalias = strndup(u.modalias, u.modalias_len)))
		return -ENOMEM;
	d->have_pci_ids = true;
	d->vendor = u.vendor;
	d->device_id = u.device_id;
	d->subsys_vendor = u.subsys_vendor;
	d->subsys_device = u.subsys_device;
	d->class_code = u.class_code;
	if (u.driver) {
		if (!(d->driver = strndup(u.driver, u.driver_len)))
			return -ENOMEM;
		/* a crafted DRIVER= ("../..") names no driver directory: the link says */
		if (u.driver_len >= NAME_MAX || !filename_is_plain(d->driver)) {
			free(TAKE_PTR(d->driver));
			return 1;
		}
	}
	*driver_known = true;
	return 1;
}

/*
 * "removable" (drivers/pci/probe.c pci_set_removable, c037b6c818c3, 5.14):
 * present and "removable" only below an external-facing port, by the chain
 * that marks the function untrusted (set_pcie_untrusted). Untrusted matters
 * only under an IOMMU (a strict DMA domain that bounces unaligned buffers),
 * so a function without a group costs no read. 0 or -ENOMEM.
 */
static int read_removable(struct sysroot_dir *dir, struct machine *m, struct device *d)
{
	_cleanup_free_ char *v = NULL;
	int r;

	if (!d->iommu_group.known)
		return 0;
	r = sysroot_dir_read_string(dir, "removable", &v);
	if (r == -ENOENT || r == -ENOTDIR) {
		d->removable_absent = true; /* not external-facing, or a kernel before 5.14: the era says */
		return 0;
	}
	if (r < 0) {
		opt_clear(&d->removable);
		return sysfs_read_failed(dir, m, "removable", r);
	}
	/* drivers/base/core.c removable_show: "removable", "fixed" or "unknown" */
	if (strcmp(v, "removable") == 0 || strcmp(v, "fixed") == 0)
		opt_set(&d->removable, strcmp(v, "removable") == 0);
	else
		opt_clear(&d->removable);
	if (!d->removable.known && strcmp(v, "unknown") != 0)
		return sysfs_read_failed(dir, m, "removable", -EBADMSG);
	return 0;
}

/* The readers' state across functions: the bus directory, and what functions share. */
struct pci_walk {
	struct sysroot *sr;
	struct sysroot_dir *bus; /* sys/bus/pci/devices */
	/* entries that lead nowhere: one input for all, however many (a crafted tree has 10^6) */
	size_t n_nowhere;
	char *first_nowhere;
	int nowhere_err;
	struct bridge_cache bridge;
	struct sysfs_driver_cache driver;
};

static int nowhere_add(struct pci_walk *w, const char *name, int err)
{
	if (w->n_nowhere++ == 0) {
		w->first_nowhere = path_join(PCI_DEVICES, name);
		w->nowhere_err = err;
		if (!w->first_nowhere)
			return -ENOMEM;
	}
	return 0;
}

/* The one record of the entries skipped. 0 or -ENOMEM. */
static int nowhere_record(struct pci_walk *w, struct machine *m)
{
	_cleanup_free_ char *why = NULL;

	if (!w->n_nowhere)
		return 0;
	int n = w->n_nowhere == 1
			? asprintf(&why, "leads to no device directory (%s): skipped",
				   errno_describe(w->nowhere_err))
			: asprintf(&why, "leads to no device directory (%s): skipped, as are %zu more "
					 "entries of the bus", errno_describe(w->nowhere_err), w->n_nowhere - 1);
	if (n < 0)
		return -ENOMEM;
	return machine_add_input(m, w->first_nowhere, INPUT_INVALID, -w->nowhere_err, why);
}

static int read_function(struct pci_walk *w, struct machine *m, const char *name)
{
	_cleanup_sysroot_dir_ struct sysroot_dir *dir = NULL;
	int64_t ids[5] = { 0 }, dma = 0, coherent = 0, numa = 0;
	bool dma_ok = false, coherent_ok = false, numa_ok = false;
	bool ok[5] = { false }, driver_known = false;
	static const char *const id_files[5] = {
		"vendor", "device", "subsystem_vendor", "subsystem_device", "class",
	};
	static const int64_t id_max[5] = { 0xffff, 0xffff, 0xffff, 0xffff, 0xffffff };
	struct device *d;
	int r;

	/* an entry that leads to no directory (unplugged while read, or a crafted tree) is no device */
	r = sysroot_dir_open_at(w->bus, &dir, "%s", name);
	if (r == -ENOMEM)
		return r;
	if (r < 0 && r != -ENOENT) {
		/* not gone (unplugged while read): there, but hidden from the audit */
		_cleanup_free_ char *path = path_join(PCI_DEVICES, name);
		if (!path || machine_bus_unreadable(m, DEV_BUS_PCI, path, r) < 0)
			return -ENOMEM;
	}
	if (r < 0)
		return nowhere_add(w, name, r);

	d = machine_add_device(m);
	if (!d)
		return -ENOMEM;
	d->bus = DEV_BUS_PCI;
	d->id = strdup(name);
	if (!d->id)
		return -ENOMEM;
	r = sysroot_dir_follow(w->bus, name, &d->syspath);
	if (r == -ENOMEM)
		return r;
	/* a copied directory, not a link */
	if (r < 0 && !(d->syspath = path_join(PCI_DEVICES, name)))
		return -ENOMEM;
	r = read_uevent_ids(dir, d, &driver_known);
	if (r < 0)
		return r;
	for (size_t i = 0; r == 0 && i < ARRAY_SIZE(id_files); i++) {
		r = read_number(dir, m, id_files[i], 16, 0, id_max[i], &ids[i], &ok[i]);
		if (r < 0)
			return r;
	}
	/* the kernel gives every function a uevent with PCI_ID and a vendor file
	 * (drivers/pci/pci-driver.c pci_uevent, pci-sysfs.c): a directory with
	 * neither is masked (a tmpfs over it) or not a function */
	if (r == 0 && !ok[0] && machine_bus_unreadable(m, DEV_BUS_PCI, d->syspath, -ENOENT) < 0)
		return -ENOMEM;
	if (r == 0 && ok[0] && ok[1] && ok[2] && ok[3] && ok[4]) {
		d->have_pci_ids = true;
		d->vendor = (uint16_t)ids[0];
		d->device_id = (uint16_t)ids[1];
		d->subsys_vendor = (uint16_t)ids[2];
		d->subsys_device = (uint16_t)ids[3];
		d->class_code = (uint32_t)ids[4];
	}

	/* fls64() of a u64 mask: 0..64 */
	r = read_number(dir, m, "dma_mask_bits", 10, 0, 64, &dma, &dma_ok);
	if (r >= 0)
		r = read_number(dir, m, "consistent_dma_mask_bits", 10, 0, 64, &coherent, &coherent_ok);
	if (r >= 0)
		r = read_number(dir, m, "numa_node", 10, -1, 65535, &numa, &numa_ok);
	if (r < 0)
		return r;
	if (dma_ok)
		opt_set(&d->dma_mask_bits, (int)dma);
	if (coherent_ok)
		opt_set(&d->coherent_mask_bits, (int)coherent);
	if (numa_ok && numa >= 0) /* -1: NUMA_NO_NODE */
		opt_set(&d->numa_node, (int)numa);

	if (!d->modalias) {
		r = sysfs_read_string(dir, m, "modalias", &d->modalias);
		if (r < 0)
			return r;
	}
	r = sysfs_read_binding(w->sr, dir, m, d, &w->driver, driver_known ? PCI_DRIVERS : NULL);
	if (r < 0)
		return r;
	/* only an unbound device's modalias is looked up (readers/modules.c): 54 bytes each */
	if (d->driver)
		free(TAKE_PTR(d->modalias));
	r = read_removable(dir, m, d);
	if (r < 0)
		return r;
	return read_bridge_dt(w->sr, m, &w->bridge, d);
}

int read_pci(struct sysroot *sr, struct machine *m)
{
	struct pci_walk w = { .sr = sr };
	struct strv names = { 0 };
	int r;

	r = sysroot_dir_new(sr, &w.bus, "%s", PCI_DEVICES);
	if (r < 0)
		return r;
	r = sysroot_dir_list(w.bus, &names);
	m->buses[DEV_BUS_PCI] = (struct bus_listing){ .tried = true, .err = r < 0 ? -r : 0, .entries = names.n };
	if (r < 0) {
		sysroot_dir_free(w.bus);
		if (r == -ENOMEM)
			return r;
		/* no PCI bus (many boards): recorded; the analysis judges what an unlistable one hides */
		return machine_add_input_errno(m, PCI_DEVICES, r);
	}
	r = machine_add_input(m, PCI_DEVICES, INPUT_OK, 0, NULL);
	for (size_t i = 0; r >= 0 && i < names.n; i++)
		r = read_function(&w, m, names.v[i]);
	if (r >= 0)
		r = nowhere_record(&w, m);
	free(w.first_nowhere);
	strv_done(&names);
	sysroot_dir_free(w.bus);
	sysfs_driver_cache_done(&w.driver);
	free(w.bridge.parent);
	free(w.bridge.node);
	dt_info_done(&w.bridge.bad);
	if (r < 0)
		return r;
	machine_sort_devices(m);
	return 0;
}
