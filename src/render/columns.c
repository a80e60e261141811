/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/prediction-check.h"
#include "render/columns.h"
#include "shared/kernel-defs.h"
#include "shared/macro.h"
#include "shared/strbuf.h"

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static char *hex_or_null(bool known, uint64_t v)
{
	return known ? hex_string(v) : NULL;
}

/* "21 GiB", or with -b the exact byte count. */
static void append_size(struct strbuf *b, uint64_t v, bool bytes)
{
	if (bytes)
		strbuf_append_u64(b, v);
	else
		strbuf_append_size(b, v);
}

static char *size_or_null(bool known, uint64_t v, bool bytes)
{
	if (!known)
		return NULL;
	struct strbuf b = { 0 };
	append_size(&b, v, bytes);
	return strbuf_steal(&b);
}

static char *u64_str(uint64_t v)
{
	struct strbuf b = { 0 };
	strbuf_append_u64(&b, v);
	return strbuf_steal(&b);
}

static char *get_device(const struct device_report *r, bool bytes) { return dup_or_null(r->dev->id); }
static char *get_bus(const struct device_report *r, bool bytes) { return dup_or_null(dev_bus_to_string(r->dev->bus)); }
static char *get_driver(const struct device_report *r, bool bytes) { return dup_or_null(r->dev->driver); }
static char *get_module(const struct device_report *r, bool bytes) { return dup_or_null(r->dev->module); }
static char *get_name(const struct device_report *r, bool bytes) { return dup_or_null(r->dev->name); }
static char *get_iommu(const struct device_report *r, bool bytes) { return dup_or_null(r->dev->iommu_type); }
static char *get_verdict(const struct device_report *r, bool bytes) { return dup_or_null(verdict_to_string(r->verdict)); }
static char *get_reason(const struct device_report *r, bool bytes) { return dup_or_null(r->reason); }
static char *get_model(const struct device_report *r, bool bytes) { return dup_or_null(kernel_model_to_string(r->kernel_model)); }
static char *get_syspath(const struct device_report *r, bool bytes) { return dup_or_null(r->dev->syspath); }
static char *get_id_path(const struct device_report *r, bool bytes) { return dup_or_null(udev_or_none(r->dev->udev)->id_path); }
static char *get_mask_hex(const struct device_report *r, bool bytes) { return hex_or_null(r->dma_mask.known, r->dma_mask.v); }
static char *get_coherent(const struct device_report *r, bool bytes) { return hex_or_null(r->coherent_mask.known, r->coherent_mask.v); }
static char *get_src(const struct device_report *r, bool bytes) { return dup_or_null(mask_source_to_string(r->mask_source)); }
static char *get_of_node(const struct device_report *r, bool bytes) { return dup_or_null(device_dt(r->dev)->node); }

/* "32-bit" for 2^n-1 masks (what people say), the hex value otherwise; '*' marks an assumed mask. */
static char *get_mask(const struct device_report *r, bool bytes)
{
	if (!r->dma_mask.known)
		return NULL;
	struct strbuf b = { 0 };
	if (mask_is_contiguous(r->dma_mask.v)) {
		strbuf_append_u64(&b, (uint64_t)fls64(r->dma_mask.v)); /* the mask in use: an assumed one too */
		strbuf_append(&b, "-bit");
	} else {
		strbuf_append_hex(&b, r->dma_mask.v);
	}
	if (r->mask_source == MASK_SOURCE_ASSUMED)
		strbuf_append(&b, "*");
	return strbuf_steal(&b);
}

static char *get_limit(const struct device_report *r, bool bytes) { return hex_or_null(r->bus_limit != 0, r->bus_limit); }
static char *get_reach_end(const struct device_report *r, bool bytes) { return hex_or_null(r->cpu_reach_end.known, r->cpu_reach_end.v); }
static char *get_unreach(const struct device_report *r, bool bytes) { return size_or_null(r->unreachable_ram_bytes.known, r->unreachable_ram_bytes.v, bytes); }
static char *get_reach(const struct device_report *r, bool bytes) { return size_or_null(r->direct.known, r->direct.reachable_bytes, bytes); }

static char *get_group(const struct device_report *r, bool bytes)
{
	return r->dev->iommu_group.known ? u64_str((uint64_t)r->dev->iommu_group.v) : NULL;
}

static char *get_numa(const struct device_report *r, bool bytes)
{
	return r->dev->numa_node.known ? u64_str((uint64_t)r->dev->numa_node.v) : NULL;
}

/* "disk,dma-coherent": the signs that the device does DMA; NULL when none. */
static char *get_signs(const struct device_report *r, bool bytes)
{
	struct strbuf b = { 0 };

	for (int s = 0; s < _DMA_SIGN_MAX; s++)
		if (r->dev->dma_signs & (1u << s)) {
			if (b.len)
				strbuf_append(&b, ",");
			strbuf_append(&b, dma_sign_to_string((enum dma_sign)s));
		}
	if (!b.len) {
		strbuf_done(&b);
		return NULL;
	}
	return strbuf_steal(&b);
}

/* What observed_ops counts: "I/Os" of disks, "packets" of interfaces, "operations" of both. */
static const char *ops_unit(const struct device_report *r)
{
	return r->observed_kinds == 1u << TRAFFIC_BLOCK ? "I/Os"
	       : r->observed_kinds == 1u << TRAFFIC_NET ? "packets"
							 : "operations";
}

/* "1219 / 74 MiB": the window's bounces and bytes, then "of 5000 I/Os" (its disks' and
 * interfaces' traffic, when counted) and "N failed" (overflow lines), each on a line of its
 * own; with nothing bounced "0 of 650 I/Os", "no I/O" when counted and idle, "-" when not
 * counted; NULL when not observed. */
static char *get_observed(const struct device_report *r, bool bytes)
{
	struct strbuf b = { 0 };
	const struct observed_device *od = r->observed;

	if (r->observed_result == OBSERVED_NONE)
		return NULL;
	if (!od || (!od->bounces && !od->overflow_messages)) {
		if (!r->observed_ops.known)
			return strdup("-");
		if (!r->observed_ops.v)
			return strdup(r->observed_kinds == 1u << TRAFFIC_NET ? "no packet" : "no I/O");
		strbuf_append(&b, "0 of ");
		strbuf_append_u64(&b, r->observed_ops.v);
		strbuf_append(&b, " ");
		strbuf_append(&b, ops_unit(r));
		return strbuf_steal(&b);
	}
	if (od->bounces) {
		strbuf_append_u64(&b, od->bounces);
		strbuf_append(&b, " / ");
		append_size(&b, od->bytes, bytes);
		if (r->observed_ops.known) {
			strbuf_append(&b, "\nof ");
			strbuf_append_u64(&b, r->observed_ops.v);
			strbuf_append(&b, " ");
			strbuf_append(&b, ops_unit(r));
		}
	}
	if (od->overflow_messages) {
		if (b.len)
			strbuf_append(&b, "\n");
		strbuf_append_u64(&b, od->overflow_messages);
		strbuf_append(&b, " failed");
	}
	return strbuf_steal(&b);
}

static char *get_check(const struct device_report *r, bool bytes)
{
	const char *s = observed_result_to_string(r->observed_result);
	return s ? strdup(s) : NULL;
}

/* Sort keys: the number behind a cell, so 8-bit sorts before 32-bit and 2 GiB before 16 GiB. */
static bool key_mask(const struct device_report *r, uint64_t *v) { *v = r->dma_mask.v; return r->dma_mask.known; }
static bool key_coherent(const struct device_report *r, uint64_t *v) { *v = r->coherent_mask.v; return r->coherent_mask.known; }
static bool key_limit(const struct device_report *r, uint64_t *v) { *v = r->bus_limit; return r->bus_limit != 0; }
static bool key_reach_end(const struct device_report *r, uint64_t *v) { *v = r->cpu_reach_end.v; return r->cpu_reach_end.known; }
static bool key_unreach(const struct device_report *r, uint64_t *v) { *v = r->unreachable_ram_bytes.v; return r->unreachable_ram_bytes.known; }
static bool key_reach(const struct device_report *r, uint64_t *v) { *v = r->direct.reachable_bytes; return r->direct.known; }
static bool key_group(const struct device_report *r, uint64_t *v) { *v = (uint64_t)r->dev->iommu_group.v; return r->dev->iommu_group.known; }
static bool key_numa(const struct device_report *r, uint64_t *v) { *v = (uint64_t)r->dev->numa_node.v; return r->dev->numa_node.known; }

static bool key_observed(const struct device_report *r, uint64_t *v)
{
	*v = r->observed ? r->observed->bounces : 0;
	return r->observed_result != OBSERVED_NONE;
}

static const struct column columns[] = {
	{ "DEVICE", "PCI address or platform device name", false, false, true, false, get_device, 0, NULL, COLUMN_TEXT, false },
	{ "DRIVER", "bound driver", false, true, true, false, get_driver, 0.125, NULL, COLUMN_TEXT, false },
	{ "MASK", "DMA mask: N-bit, or hex when not 2^n-1 (* assumed)", true, false, true, false, get_mask, 0, key_mask, COLUMN_TEXT, false },
	{ "LIMIT", "bus address where the firmware's window ends (dma-ranges, IORT)", true, false, true, false, get_limit, 0, key_limit, COLUMN_TEXT, false },
	{ "REACH_END", "CPU physical address where the device's reach ends", true, false, false, true, get_reach_end, 0, key_reach_end, COLUMN_TEXT, false },
	{ "IOMMU", "IOMMU default domain type", false, false, true, false, get_iommu, 0, NULL, COLUMN_TEXT, false },
	{ "VERDICT", "direct, iommu, partial, forced, fails, idle or unknown", false, false, true, false, get_verdict, 0, NULL, COLUMN_TEXT, false },
	{ "UNREACHABLE", "RAM whose buffers bounce or fail for the device", true, false, true, false, get_unreach, 0, key_unreach, COLUMN_NUMBER_BYTES, false },
	{ "REACHABLE", "RAM within the device's DMA mask and bus limit", true, false, false, false, get_reach, 0, key_reach, COLUMN_NUMBER_BYTES, false },
	{ "BUS", "pci, platform or amba", false, false, false, false, get_bus, 0, NULL, COLUMN_TEXT, false },
	{ "MODULE", "kernel module of the driver", false, true, false, false, get_module, 0.125, NULL, COLUMN_TEXT, false },
	{ "NAME", "vendor and device name (pci.ids) or DT compatible", false, true, false, false, get_name, 0.08, NULL, COLUMN_TEXT, false },
	{ "DMA_MASK", "DMA mask in hex", true, false, false, false, get_mask_hex, 0, key_mask, COLUMN_TEXT, false },
	{ "COHERENT_MASK", "coherent DMA mask in hex", true, false, false, false, get_coherent, 0, key_coherent, COLUMN_TEXT, false },
	{ "MASK_SOURCE", "sysfs, driver, assumed, user, or none", false, false, false, false, get_src, 0, NULL, COLUMN_TEXT, false },
	{ "GROUP", "IOMMU group number", true, false, false, false, get_group, 0, key_group, COLUMN_NUMBER, false },
	{ "NUMA", "NUMA node", true, false, false, false, get_numa, 0, key_numa, COLUMN_NUMBER, false },
	{ "MODEL", "kernel model that decided the verdict", false, false, false, false, get_model, 0, NULL, COLUMN_TEXT, false },
	{ "REASON", "why this verdict", false, true, false, false, get_reason, 0.08, NULL, COLUMN_TEXT, false },
	{ "DMA_SIGNS", "evidence that it does DMA (disk, net, dma-coherent, ...)", false, true, false, false, get_signs, 0.08, NULL, COLUMN_TEXT, false },
	{ "OF_NODE", "devicetree node", false, true, false, false, get_of_node, 0.08, NULL, COLUMN_TEXT, false },
	{ "SYSPATH", "sysfs path", false, true, false, false, get_syspath, 0.08, NULL, COLUMN_TEXT, false },
	{ "ID_PATH", "udev ID_PATH", false, true, false, false, get_id_path, 0.08, NULL, COLUMN_TEXT, false },
	{ "OBSERVED", "--observe: bounces / bytes, of how many I/Os (or packets) in the window; - when not counted", true, false, false, false, get_observed, 0, key_observed, COLUMN_TEXT, true },
	{ "CHECK", "--observe: consistent, contradicted, no-bounce, no-traffic, cannot-tell or unjudged", false, false, false, false, get_check, 0, NULL, COLUMN_TEXT, false },
};

const struct column *columns_all(size_t *ret_n)
{
	*ret_n = ARRAY_SIZE(columns);
	return columns;
}

bool columns_reach_differs(const struct devices_result *l)
{
	for (size_t i = 0; i < l->n_devices; i++) {
		const struct device_report *r = &l->devices[i];
		if (r->cpu_reach_end.known && r->dma_mask.known && r->cpu_reach_end.v != r->dma_mask.v)
			return true;
	}
	return false;
}

const struct column *column_find(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(columns); i++)
		if (strlen(columns[i].name) == len && strncasecmp(columns[i].name, name, len) == 0)
			return &columns[i];
	return NULL;
}

int columns_parse(const char *spec, size_t *ret_idx, size_t max, size_t *ret_n,
		  const char **ret_bad, size_t *ret_bad_len)
{
	size_t n = 0;

	if (spec && *spec == '+') {
		for (size_t i = 0; i < ARRAY_SIZE(columns) && n < max; i++)
			if (columns[i].deflt)
				ret_idx[n++] = i;
		spec++;
	}
	for (const char *p = spec; p && *p;) {
		size_t len = strcspn(p, ",");
		const struct column *c = column_find(p, len);
		if (!c) {
			*ret_bad = p;
			*ret_bad_len = len;
			return -EINVAL;
		}
		if (n < max)
			ret_idx[n++] = (size_t)(c - columns);
		p += len;
		if (*p == ',')
			p++;
	}
	*ret_n = n;
	return 0;
}

struct order_ctx {
	const struct devices_result *l;
	const struct column *c;
};

/* -1, 0 or 1 as a before b; a device without a value goes last. */
static int order_cmp(const void *pa, const void *pb, void *data)
{
	const struct order_ctx *x = data;
	size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
	const struct device_report *a = &x->l->devices[ia], *b = &x->l->devices[ib];
	int r = 0;

	if (x->c->key) {
		uint64_t va = 0, vb = 0;
		bool ka = x->c->key(a, &va), kb = x->c->key(b, &vb);
		r = ka != kb ? (ka ? -1 : 1) : !ka ? 0 : va < vb ? -1 : va > vb;
	} else {
		_cleanup_free_ char *sa = x->c->get(a, true);
		_cleanup_free_ char *sb = x->c->get(b, true);
		/* natural order: sda2 before sda10, ata9 before ata10 */
		r = (!sa || !sb) ? (sa ? -1 : sb ? 1 : 0) : strverscmp(sa, sb);
	}
	return r ? r : ia < ib ? -1 : ia > ib;
}

size_t *columns_order(const struct devices_result *l, const struct column *sort)
{
	size_t *idx = calloc(l->n_devices ? l->n_devices : 1, sizeof(*idx));

	if (!idx)
		return NULL;
	for (size_t i = 0; i < l->n_devices; i++)
		idx[i] = i;
	if (sort) {
		struct order_ctx x = { l, sort };
		qsort_r(idx, l->n_devices, sizeof(*idx), order_cmp, &x);
	}
	return idx;
}
