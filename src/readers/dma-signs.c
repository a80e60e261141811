/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Signs that a device does DMA. Every platform/AMBA device gets a default
 * DMA mask (of_dma_configure, amba_device_add), a UART or an RTC as much as
 * an MMC host, so the mask says nothing; what does:
 * - class devices only DMA masters have under them: a disk (read_block), a
 *   network interface, a USB root hub, a sound card, a DRM device, a
 *   DMA-engine channel (whose parent is the DMA controller itself:
 *   drivers/dma/dmaengine.c __dma_async_device_channel_register), an IOMMU
 *   unit (sys/class/iommu: the IOMMU's own device);
 * - devicetree properties of the device's node that describe a DMA master
 *   or provider: #dma-cells, iommus, dma-coherent, memory-region (not "dmas":
 *   a DMA-engine client's buffers are mapped for the controller, which its
 *   channels and #dma-cells already mark);
 * - live mappings in debugfs dma-api/dump (CONFIG_DMA_API_DEBUG, root only);
 * - a "DMA addr ... overflow" line for the device in the kernel log.
 * Each sets a bit in device.dma_signs; the analysis decides what they mean.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readers/device-index.h"
#include "readers/readers.h"
#include "shared/kernel-defs.h"
#include "shared/macro.h"
#include "shared/path.h"
#include "shared/text.h"

#define DMA_API_DUMP "sys/kernel/debug/dma-api/dump"
/* Devicetree properties are small; a cap keeps a hostile snapshot cheap. */
#define DT_SIGN_PROP_MAX 65536

/* Class directories whose devices' "device" link names a DMA master (or a child of one). */
static const struct {
	const char *dir;
	enum dma_sign sign;
	bool climb;              /* credit the nearest known ancestor, not only the device itself */
} class_sources[] = {
	{ "sys/class/net", DMA_SIGN_NET, true },
	{ "sys/class/sound", DMA_SIGN_SOUND, true },
	{ "sys/class/drm", DMA_SIGN_DRM, true },
	/* a channel's device is its controller: nothing above it is credited */
	{ "sys/class/dma", DMA_SIGN_DMA_ENGINE, false },
	/* drivers/iommu/iommu-sysfs.c iommu_device_sysfs_add(): the unit's parent is its
	 * hardware device (an SMMU, AMD-Vi's PCI function); Intel's DMAR units are virtual */
	{ "sys/class/iommu", DMA_SIGN_IOMMU_UNIT, false },
};

/* Properties of the device's own node (Documentation/devicetree/bindings/dma, iommu). */
static const struct {
	const char *name;
	enum dma_sign sign;
	bool cells;              /* must hold u32 cells; else a boolean, presence is enough */
} dt_sources[] = {
	{ "#dma-cells", DMA_SIGN_DT_DMA_CELLS, true },
	{ "iommus", DMA_SIGN_DT_IOMMUS, true },
	{ "dma-coherent", DMA_SIGN_DT_COHERENT, false },
	{ "memory-region", DMA_SIGN_DT_MEMORY_REGION, true },
};

static void set_sign(struct device *d, enum dma_sign s)
{
	d->dma_signs |= 1u << s;
}

/* A network interface under d, for the report's "used by": names sorted as listed. 0 or -ENOMEM. */
/* "a,b" + name into *list: 0 or -ENOMEM. */
static int append_name(char **list, const char *name)
{
	char *s;

	if (asprintf(&s, "%s%s%s", *list ? *list : "", *list ? "," : "", name) < 0)
		return -ENOMEM;
	free(*list);
	*list = s;
	return 0;
}

static int add_interface(struct device *d, const char *name)
{
	return append_name(&d->interfaces, name);
}

static bool has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/*
 * One class device: its real directory (the class link resolved; an entry
 * that is not a link is taken as a copied directory), then its "device"
 * link (drivers/base/core.c device_add_class_symlinks), resolved from that
 * directory. The sign goes to the device the target is, or (climb) lies
 * under: a USB network adapter's interface under its host controller, an
 * SDIO card's function under its MMC host. 0 or -ENOMEM; anything unusable
 * is recorded.
 */
static int read_class_device(struct sysroot *sr, struct machine *m, const struct dev_index *idx,
			     size_t n_idx, struct sysroot_dir *class, const char *name,
			     enum dma_sign sign, bool climb)
{
	_cleanup_sysroot_dir_ struct sysroot_dir *dir = NULL;
	_cleanup_free_ char *link = path_join(sysroot_dir_path(class), name);
	_cleanup_free_ char *target = NULL, *devpath = NULL, *dlink = NULL, *dtarget = NULL;
	_cleanup_free_ char *dev = NULL;

	if (!link)
		return -ENOMEM;
	int r = sysroot_dir_readlink(class, name, &target);
	if (r == -ENOMEM)
		return r;
	if (r == 0) {
		r = sysroot_link_resolve(link, target, &devpath);
		if (r == -ENOMEM)
			return r;
		if (r < 0)
			return machine_add_input(m, link, INPUT_INVALID, EINVAL, "empty symlink");
	} else if (r == -EINVAL) {
		devpath = TAKE_PTR(link);
	} else {
		return machine_add_input_errno(m, link, r);
	}
	/* lo, sit0, the ALSA sequencer and timer: no hardware behind them; an interface
	 * is kept by name, so that selecting it says what it is */
	if (has_prefix(devpath, "sys/devices/virtual/"))
		return sign == DMA_SIGN_NET ? append_name(&m->virtual_interfaces, name) : 0;

	if (sysroot_dir_new(sr, &dir, "%s", devpath) < 0 || !(dlink = path_join(devpath, "device")))
		return -ENOMEM;
	r = sysroot_dir_readlink(dir, "device", &dtarget);
	if (r == -ENOMEM)
		return r;
	if (r == -ENOENT)
		return 0; /* a class device without a parent device */
	if (r == -ENOTDIR)
		return machine_add_input(m, link ? link : devpath, INPUT_INVALID, ENOTDIR,
					 "neither a link to a class device nor a directory");
	if (r == -EINVAL)
		return machine_add_input(m, dlink, INPUT_INVALID, EINVAL, "not a symlink");
	if (r < 0)
		return machine_add_input_errno(m, dlink, r);
	r = sysroot_link_resolve(dlink, dtarget, &dev);
	if (r == -ENOMEM)
		return r;
	if (r < 0 || !has_prefix(dev, "sys/devices/"))
		return machine_add_input(m, dlink, INPUT_INVALID, EBADMSG,
					 "device link does not point into sys/devices");

	const struct dev_index *hit = dev_index_find(idx, n_idx, dev, true);
	bool exact = hit && strcmp(hit->syspath, dev) == 0;
	if (!hit || (!exact && !climb))
		return 0; /* under no device this tool knows (an ACPI or board-file parent) */
	if (!exact) {
		/* an ancestor: make sure the target exists before crediting it */
		struct stat st;
		r = sysroot_stat(sr, dev, &st);
		if (r == -ENOMEM)
			return r;
		if (r == -ENOENT || r == -ENOTDIR)
			return machine_add_input(m, dlink, INPUT_INVALID, -r,
						 "device link points to nothing");
		if (r < 0)
			return machine_add_input_errno(m, dlink, r);
	}
	set_sign(&m->devices[hit->index], sign);
	if (sign == DMA_SIGN_NET)
		return add_interface(&m->devices[hit->index], name);
	return 0;
}

/* "dmar0", "ivhd12": prefix then one or more digits, nothing else. */
static bool prefix_digits(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);

	if (strncmp(name, prefix, n) != 0 || !name[n])
		return false;
	for (const char *p = name + n; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

static int read_class(struct sysroot *sr, struct machine *m, const struct dev_index *idx,
		      size_t n_idx, const char *dir, enum dma_sign sign, bool climb)
{
	_cleanup_sysroot_dir_ struct sysroot_dir *class = NULL;
	struct strv names = { 0 };
	int r = sysroot_dir_new(sr, &class, "%s", dir);

	if (r < 0)
		return r;
	r = sysroot_dir_list(class, &names);
	if (r == -ENOMEM)
		return r;
	r = machine_add_input_errno(m, dir, r);
	for (size_t i = 0; r >= 0 && i < names.n; i++) {
		/* the unit's name says whose driver made it, to users the log is closed to */
		if (sign == DMA_SIGN_IOMMU_UNIT) {
			m->class_intel_iommu |= prefix_digits(names.v[i], "dmar");
			m->class_amd_iommu |= prefix_digits(names.v[i], "ivhd");
		}
		r = read_class_device(sr, m, idx, n_idx, class, names.v[i], sign, climb);
	}
	strv_done(&names);
	return r < 0 ? r : 0;
}

/* "usb1", "usb12": a root hub (drivers/usb/core/hcd.c usb_add_hcd names it usb<busnum>). */
static bool is_root_hub(const char *name)
{
	return prefix_digits(name, "usb");
}

/* A usb-storage refusal on bus "usbN": the interface "N-PORT...:C.I" lies on it
 * (drivers/usb/core/message.c usb_set_configuration names "%d-%s:%d.%d"). */
static bool refused_on_bus(const struct machine *m, const char *hub)
{
	size_t n = strlen(hub + 3);

	for (size_t i = 0; i < m->n_mask_lines; i++) {
		const struct mask_line *l = &m->mask_lines[i];
		if (l->kind == MASK_LINE_USB_STORAGE && strncmp(l->device, hub + 3, n) == 0 &&
		    l->device[n] == '-')
			return true;
	}
	return false;
}

/* Each root hub's parent is its host controller (hcd->self.controller), or lies under it. */
static int read_usb_hosts(struct sysroot *sr, struct machine *m, const struct dev_index *idx,
			  size_t n_idx)
{
	static const char path[] = "sys/bus/usb/devices";
	_cleanup_sysroot_dir_ struct sysroot_dir *dir = NULL;
	struct strv names = { 0 };
	int r = sysroot_dir_new(sr, &dir, path);

	if (r < 0)
		return r;
	r = sysroot_dir_list(dir, &names);
	if (r == -ENOMEM)
		return r;
	r = machine_add_input_errno(m, path, r);
	for (size_t i = 0; r >= 0 && i < names.n; i++) {
		_cleanup_free_ char *hub = NULL;
		if (!is_root_hub(names.v[i]))
			continue;
		r = sysroot_dir_follow(dir, names.v[i], &hub);
		if (r == -ENOMEM)
			break;
		r = 0; /* not a link (a copied directory): nothing to climb */
		const struct dev_index *hit = hub ? dev_index_find(idx, n_idx, hub, false) : NULL;
		if (hit) {
			set_sign(&m->devices[hit->index], DMA_SIGN_USB_HOST);
			if (refused_on_bus(m, names.v[i]))
				m->devices[hit->index].usb_storage_refused = true;
		}
	}
	strv_done(&names);
	return r < 0 ? r : 0;
}

/* The properties of a platform/AMBA device's own node. 0 or -ENOMEM. */
static int read_dt_signs(struct sysroot *sr, struct machine *m, struct device *d)
{
	_cleanup_sysroot_dir_ struct sysroot_dir *dir = NULL;
	int r = sysroot_dir_new(sr, &dir, DT_BASE "/%s", device_dt(d)->node);

	if (r < 0)
		return r;
	for (size_t i = 0; i < ARRAY_SIZE(dt_sources); i++) {
		_cleanup_free_ char *buf = NULL, *path = NULL;
		size_t len;

		r = sysroot_dir_read_file(dir, dt_sources[i].name, DT_SIGN_PROP_MAX, &buf, &len);
		if (r == -ENOMEM)
			return r;
		if (r == -ENOENT || r == -ENOTDIR)
			continue;
		bool bad = r < 0 || (dt_sources[i].cells && (len == 0 || len % 4));
		if (bad && !(path = path_join(sysroot_dir_path(dir), dt_sources[i].name)))
			return -ENOMEM;
		if (r < 0) {
			/* a FIFO, a directory, a denied file: not a property, no sign */
			r = machine_add_input_errno(m, path, r);
			if (r < 0)
				return r;
			continue;
		}
		if (bad) {
			r = machine_add_input(m, path, INPUT_INVALID, EBADMSG,
					      "not a list of u32 cells");
			if (r < 0)
				return r;
			continue;
		}
		set_sign(d, dt_sources[i].sign);
	}
	return 0;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The next blank-separated token of [*p, end); false at the end. */
static bool next_token(const char **p, const char *end, const char **ret, size_t *ret_len)
{
	const char *s = *p;

	while (s < end && is_blank(*s))
		s++;
	if (s == end)
		return false;
	const char *e = s;
	while (e < end && !is_blank(*e))
		e++;
	*ret = s;
	*ret_len = (size_t)(e - s);
	*p = e;
	return true;
}

/*
 * kernel/dma/debug.c dump_show() (5.1+): one line per live mapping,
 * "DRIVER DEVICE TYPE idx N P=... D=... L=... ...", the fields after idx
 * changed over the years (N= dropped, cln= and attrs= added). The driver
 * string (dev_driver_string) may be empty: then the line opens with the
 * device.
 */
int dma_api_dump_parse(const char *buf, size_t len, struct strv *ret, struct parse_error *ret_err)
{
	_cleanup_strv_ struct strv names = { 0 };
	unsigned line = 0;
	int r = 0;

	if (text_has_nul(buf, len))
		return parse_fail(ret_err, 0, "binary data (NUL bytes)");
	for (const char *p = buf, *end = buf + len; p < end && r == 0;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		const char *tok[4] = { 0 }, *q = p;
		size_t tlen[4] = { 0 }, nt = 0;
		const char *dev = NULL;
		size_t dev_len = 0;

		line++;
		while (nt < 4 && next_token(&q, eol, &tok[nt], &tlen[nt]))
			nt++;
		p = nl ? nl + 1 : end;
		if (nt == 0)
			continue; /* a blank line */
		if (nt == 4 && tlen[3] == 3 && memcmp(tok[3], "idx", 3) == 0) {
			dev = tok[1];
			dev_len = tlen[1];
		} else if (nt >= 3 && tlen[2] == 3 && memcmp(tok[2], "idx", 3) == 0) {
			dev = tok[0]; /* an empty driver string: the line opens with the device */
			dev_len = tlen[0];
		} else {
			r = parse_fail(ret_err, line, "not \"DRIVER DEVICE TYPE idx N ...\"");
			break;
		}
		_cleanup_free_ char *name = strndup(dev, dev_len);
		r = name ? strv_push(&names, name) : -ENOMEM;
	}
	if (r < 0)
		return r;
	/* sorted, each device once */
	size_t u = 0;
	strv_sort(&names);
	for (size_t i = 0; i < names.n; i++) {
		if (u && strcmp(names.v[u - 1], names.v[i]) == 0)
			free(names.v[i]);
		else
			names.v[u++] = names.v[i];
	}
	names.n = u;
	*ret = names;
	names = (struct strv){ 0 };
	return 0;
}

static int read_dma_api_dump(struct sysroot *sr, struct machine *m)
{
	_cleanup_free_ char *buf = NULL;
	struct parse_error e = { 0 };
	_cleanup_strv_ struct strv names = { 0 };
	size_t len;
	int r = read_input(sr, m, DMA_API_DUMP, SYSROOT_READ_MAX, &buf, &len);

	if (r <= 0)
		return r;
	r = dma_api_dump_parse(buf, len, &names, &e);
	for (size_t i = 0; r == 0 && i < names.n; i++) {
		struct device *d = machine_find_device(m, names.v[i]);
		if (d)
			set_sign(d, DMA_SIGN_DMA_API_DEBUG);
	}
	return record_parse_result(m, DMA_API_DUMP, r, &e);
}

int read_dma_signs(struct sysroot *sr, struct machine *m)
{
	_cleanup_free_ struct dev_index *idx = NULL;
	size_t n_idx = 0;
	int r;

	/* what read_block and read_kmsg already learnt */
	for (size_t i = 0; i < m->n_blocks; i++)
		if (m->blocks[i].dev_index.known && m->blocks[i].dev_index.v < m->n_devices)
			set_sign(&m->devices[m->blocks[i].dev_index.v], DMA_SIGN_DISK);
	for (size_t i = 0; i < m->n_overflows; i++) {
		struct device *d = m->overflows[i].device
					   ? machine_find_device(m, m->overflows[i].device)
					   : NULL;
		if (d)
			set_sign(d, DMA_SIGN_KERNEL_LOG);
	}
	for (size_t i = 0; i < m->n_pool_overflows; i++) {
		struct device *d = m->pool_overflows[i].device
					   ? machine_find_device(m, m->pool_overflows[i].device)
					   : NULL;
		if (d)
			set_sign(d, DMA_SIGN_KERNEL_LOG);
	}

	r = dev_index_build(m, &idx, &n_idx);
	for (size_t i = 0; r >= 0 && i < ARRAY_SIZE(class_sources); i++)
		r = read_class(sr, m, idx, n_idx, class_sources[i].dir, class_sources[i].sign,
			       class_sources[i].climb);
	if (r >= 0)
		r = read_usb_hosts(sr, m, idx, n_idx);
	for (size_t i = 0; r >= 0 && i < m->n_devices; i++) {
		struct device *d = &m->devices[i];
		if (d->bus != DEV_BUS_PCI && device_dt(d)->node_is_device && device_dt(d)->node)
			r = read_dt_signs(sr, m, d);
	}
	if (r >= 0)
		r = read_dma_api_dump(sr, m);
	return r < 0 ? r : 0;
}
