/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Lifetime and bookkeeping of struct machine; no reading, no analysis. */
#include <stdint.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"
#include "shared/array.h"
#include "shared/errno-util.h"
#include "shared/macro.h"
#include "shared/string-table.h"

static const char *const provenance_table[_PROV_MAX] = {
	[PROV_UNKNOWN] = "unknown", [PROV_READ] = "read",	[PROV_DERIVED] = "derived",
	[PROV_ASSUMED] = "assumed", [PROV_USER] = "user",
};

DEFINE_STRING_TABLE_LOOKUP_TO_STRING(provenance, enum provenance);

static const char *const input_status_table[_INPUT_STATUS_MAX] = {
	[INPUT_OK] = "ok",
	[INPUT_MISSING] = "missing",
	[INPUT_DENIED] = "denied",
	[INPUT_INVALID] = "invalid",
};

DEFINE_STRING_TABLE_LOOKUP_TO_STRING(input_status, enum input_status);

enum input_status input_status_from_errno(int err)
{
	switch (err < 0 ? -err : err) {
	case 0:
		return INPUT_OK;
	case ENOENT:
	case ENOTDIR:
		return INPUT_MISSING;
	case EACCES:
	case EPERM:
		return INPUT_DENIED;
	default:
		return INPUT_INVALID;
	}
}

static const char *const dma_sign_table[_DMA_SIGN_MAX] = {
	[DMA_SIGN_DISK] = "disk",
	[DMA_SIGN_NET] = "net",
	[DMA_SIGN_USB_HOST] = "usb-host",
	[DMA_SIGN_SOUND] = "sound",
	[DMA_SIGN_DRM] = "drm",
	[DMA_SIGN_DMA_ENGINE] = "dma-engine",
	[DMA_SIGN_IOMMU_UNIT] = "iommu-unit",
	[DMA_SIGN_DT_DMA_CELLS] = "#dma-cells",
	[DMA_SIGN_DT_IOMMUS] = "iommus",
	[DMA_SIGN_DT_COHERENT] = "dma-coherent",
	[DMA_SIGN_DT_MEMORY_REGION] = "memory-region",
	[DMA_SIGN_DMA_API_DEBUG] = "dma-api-debug",
	[DMA_SIGN_KERNEL_LOG] = "kernel-log",
};

DEFINE_STRING_TABLE_LOOKUP_TO_STRING(dma_sign, enum dma_sign);

void machine_init(struct machine *m)
{
	memset(m, 0, sizeof(*m));
}

static void sourced_str_done(struct sourced_str *s)
{
	free(s->value);
	s->value = NULL;
}

void machine_done(struct machine *m)
{
	if (!m)
		return;
	free(m->sysroot);
	sourced_str_done(&m->arch);
	sourced_str_done(&m->release);
	sourced_str_done(&m->stable_release);
	sourced_str_done(&m->hostname);
	free(m->captured_at);
	for (size_t i = 0; i < m->n_manifest; i++) {
		free(m->manifest[i].key);
		free(m->manifest[i].value);
	}
	free(m->manifest);
	free(m->snapshot_incomplete_why);
	for (size_t i = 0; i < m->n_identity_conflicts; i++) {
		free(m->identity_conflicts[i].manifest);
		free(m->identity_conflicts[i].file);
	}
	free(m->ram);
	free(m->zones);
	observation_done(&m->observed);
	free(m->cmdline);
	free(m->cpu_vendor);
	for (size_t i = 0; i < m->n_iort; i++)
		free(m->iort[i].name);
	free(m->iort);
	for (size_t i = 0; i < m->n_devices; i++)
		device_done(&m->devices[i]);
	free(m->devices);
	for (size_t i = 0; i < m->n_blocks; i++)
		block_queue_done(&m->blocks[i]);
	free(m->blocks);
	free(m->virtual_interfaces);
	for (size_t i = 0; i < m->n_overflows; i++)
		free(m->overflows[i].device);
	free(m->overflows);
	for (size_t i = 0; i < m->n_pool_overflows; i++)
		free(m->pool_overflows[i].device);
	free(m->pool_overflows);
	for (size_t i = 0; i < m->n_swiotlb_full; i++)
		free(m->swiotlb_full[i].device);
	free(m->swiotlb_full);
	for (size_t i = 0; i < m->n_mask_lines; i++)
		free(m->mask_lines[i].device);
	free(m->mask_lines);
	free(m->coco.log_line);
	free(m->pci_ids_source);
	for (size_t i = 0; i < m->n_inputs; i++) {
		free(m->inputs[i].path);
		free(m->inputs[i].detail);
	}
	free(m->inputs);
	for (int b = 0; b < _DEV_BUS_MAX; b++)
		free(m->buses[b].first_unreadable);
	memset(m, 0, sizeof(*m));
}

int machine_add_input(struct machine *m, const char *path, enum input_status status, int err,
		      const char *detail)
{
	if (array_full(m->n_inputs)) {
		struct input *n = reallocarray(m->inputs, array_capacity(m->n_inputs), sizeof(*n));
		if (!n)
			return -ENOMEM;
		m->inputs = n;
	}
	struct input *in = &m->inputs[m->n_inputs];
	in->path = strdup(path);
	in->detail = detail ? strdup(detail) : NULL;
	if (!in->path || (detail && !in->detail)) {
		free(in->path);
		free(in->detail);
		return -ENOMEM;
	}
	in->status = status;
	in->err = err < 0 ? -err : err;
	m->n_inputs++;
	return 0;
}

int machine_add_input_errno(struct machine *m, const char *path, int r)
{
	return machine_add_input(m, path, input_status_from_errno(r), r,
				 r < 0 ? errno_describe(r) : NULL);
}

/* iommu_group/type as drivers/iommu/iommu.c iommu_group_show_type() writes it */
static const char *const iommu_domain_table[] = {
	[IOMMU_DOMAIN_DMA] = "DMA",		  [IOMMU_DOMAIN_DMA_FQ] = "DMA-FQ",
	[IOMMU_DOMAIN_IDENTITY] = "identity",	  [IOMMU_DOMAIN_UNMANAGED] = "unmanaged",
	[IOMMU_DOMAIN_BLOCKED] = "blocked",	  [IOMMU_DOMAIN_UNKNOWN] = "unknown",
};
DEFINE_STRING_TABLE_LOOKUP_FROM_STRING_OR(iommu_domain, enum iommu_domain, IOMMU_DOMAIN_NONE,
					  IOMMU_DOMAIN_OTHER);

const char *machine_manifest_get(const struct machine *m, const char *key)
{
	for (size_t i = 0; i < m->n_manifest; i++)
		if (strcmp(m->manifest[i].key, key) == 0)
			return m->manifest[i].value;
	return NULL;
}

static const char *const dev_bus_table[_DEV_BUS_MAX] = {
	[DEV_BUS_PCI] = "pci",
	[DEV_BUS_PLATFORM] = "platform",
	[DEV_BUS_AMBA] = "amba",
};

DEFINE_STRING_TABLE_LOOKUP_TO_STRING(dev_bus, enum dev_bus);

static const char *const bus_dirs[_DEV_BUS_MAX] = {
	[DEV_BUS_PCI] = "sys/bus/pci/devices",
	[DEV_BUS_PLATFORM] = "sys/bus/platform/devices",
	[DEV_BUS_AMBA] = "sys/bus/amba/devices",
};

const char *dev_bus_dir(enum dev_bus b)
{
	return b >= 0 && b < _DEV_BUS_MAX ? bus_dirs[b] : NULL;
}

int machine_bus_unreadable(struct machine *m, enum dev_bus b, const char *path, int err)
{
	struct bus_listing *bl = &m->buses[b];

	if (bl->unreadable++ == 0) {
		bl->unreadable_err = err < 0 ? -err : err;
		bl->first_unreadable = strdup(path);
		if (!bl->first_unreadable)
			return -ENOMEM;
	}
	return 0;
}

const struct udev_props udev_props_none;

void udev_props_done(struct udev_props *u)
{
	free(u->id_path);
	free(u->vendor_db);
	free(u->model_db);
	free(u->serial);
	free(u->by_path);
}

void udev_props_free(struct udev_props **u)
{
	if (*u)
		udev_props_done(*u);
	free(*u);
	*u = NULL;
}

bool udev_props_empty(const struct udev_props *u)
{
	return !u->id_path && !u->vendor_db && !u->model_db && !u->serial && !u->by_path;
}

int udev_props_keep(struct udev_props **dst, struct udev_props *src)
{
	if (udev_props_empty(src))
		return 0;
	udev_props_free(dst);
	*dst = malloc(sizeof(**dst));
	if (!*dst)
		return -ENOMEM;
	**dst = *src;
	memset(src, 0, sizeof(*src));
	return 0;
}

void observation_done(struct observation *o)
{
	for (size_t i = 0; i < o->n_devices; i++)
		free(o->devices[i].device);
	free(o->devices);
	for (size_t i = 0; i < o->n_full; i++)
		free(o->full[i].device);
	free(o->full);
	for (size_t i = 0; i < o->n_traffic; i++)
		free(o->traffic[i].name);
	free(o->traffic);
	free(o->tracefs);
	free(o->probe_disk);
	free(o->probe_why);
	memset(o, 0, sizeof(*o));
}

const struct dt_info dt_info_none;

struct dt_info *device_dt_new(struct device *d)
{
	if (!d->dt)
		d->dt = calloc(1, sizeof(*d->dt));
	return d->dt;
}

void dt_info_done(struct dt_info *d)
{
	free(d->node);
	free(d->restricted_node);
	for (size_t i = 0; i < d->n_chain; i++) {
		free(d->chain[i].path);
		free(d->chain[i].ranges);
	}
	free(d->chain);
	free(d->error);
	free(d->err_path);
	memset(d, 0, sizeof(*d));
}

void device_done(struct device *d)
{
	free(d->id);
	free(d->syspath);
	free(d->interfaces);
	free(d->driver);
	free(d->module);
	free(d->modalias);
	free(d->acpi_path);
	free(d->name);
	free(d->compatible);
	free(d->iommu_type);
	if (d->dt)
		dt_info_done(d->dt);
	free(d->dt);
	udev_props_free(&d->udev);
	memset(d, 0, sizeof(*d));
}

void block_queue_done(struct block_queue *b)
{
	free(b->disk);
	free(b->syspath);
	free(b->dma_device);
	udev_props_free(&b->udev);
	memset(b, 0, sizeof(*b));
}

struct device *machine_add_device(struct machine *m)
{
	if (array_full(m->n_devices)) {
		struct device *n = reallocarray(m->devices, array_capacity(m->n_devices), sizeof(*n));
		if (!n)
			return NULL;
		m->devices = n;
	}
	struct device *d = &m->devices[m->n_devices++];
	memset(d, 0, sizeof(*d));
	return d;
}

struct block_queue *machine_add_block(struct machine *m)
{
	if (array_full(m->n_blocks)) {
		struct block_queue *n = reallocarray(m->blocks, array_capacity(m->n_blocks), sizeof(*n));
		if (!n)
			return NULL;
		m->blocks = n;
	}
	struct block_queue *b = &m->blocks[m->n_blocks++];
	memset(b, 0, sizeof(*b));
	return b;
}

static int cmp_device(const void *a, const void *b)
{
	return strcmp(((const struct device *)a)->id, ((const struct device *)b)->id);
}

void machine_sort_devices(struct machine *m)
{
	if (m->n_devices)
		qsort(m->devices, m->n_devices, sizeof(*m->devices), cmp_device);
}

struct device *machine_find_device(const struct machine *m, const char *id)
{
	struct device key = { .id = (char *)id };
	if (!m->n_devices)
		return NULL;
	return bsearch(&key, m->devices, m->n_devices, sizeof(*m->devices), cmp_device);
}

const char *machine_incomplete_why(const struct machine *m)
{
	if (!m->snapshot_incomplete)
		return NULL;
	return m->snapshot_incomplete_why ? m->snapshot_incomplete_why : "its MANIFEST says complete=0";
}
