/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A device, a finding and the optional values, as JSON: the parts the
 * document (json.c) and its one-line-per-device form (ndjson.c) share.
 */
#include <stdio.h>

#include "analysis/eras.h"
#include "analysis/prediction-check.h"
#include "render/json-parts.h"
#include "shared/strbuf.h"
#include "shared/kernel-defs.h"
#include "shared/macro.h"
#include "shared/rfc3339.h"
#include "shared/sat.h"

/* "0d57", "0106": PCI ids as lspci -n prints them, digits wide. */
void json_pci_id(struct json_writer *w, const char *key, unsigned v, int digits)
{
	char s[16];
	snprintf(s, sizeof(s), "%0*x", digits, v);
	jw_string(w, key, s);
}

/* RFC 3339 in UTC, "2026-12-04T19:18:32Z"; null for a time it cannot show. */
void json_time_utc(struct json_writer *w, const char *key, struct opt_i64 t)
{
	char s[RFC3339_MAX];
	jw_string(w, key, t.known && rfc3339_utc(t.v, s, sizeof(s)) == 0 ? s : NULL);
}

void json_opt_u64(struct json_writer *w, const char *key, bool known, uint64_t v)
{
	if (known)
		jw_u64(w, key, v);
	else
		jw_null(w, key);
}

void json_opt_hex(struct json_writer *w, const char *key, bool known, uint64_t v)
{
	if (known)
		jw_hex(w, key, v);
	else
		jw_null(w, key);
}

void json_opt_offset(struct json_writer *w, const char *key, bool known, uint64_t v)
{
	_cleanup_free_ char *s = known ? offset_string(v) : NULL;

	jw_string(w, key, s);
}

/* -1 (or any negative): not known. */
void json_opt_int(struct json_writer *w, const char *key, bool known, int64_t v)
{
	if (known)
		jw_int(w, key, v);
	else
		jw_null(w, key);
}

void json_opt_bool(struct json_writer *w, const char *key, struct opt_bool v)
{
	if (v.known)
		jw_bool(w, key, v.v);
	else
		jw_null(w, key);
}

void json_tristate(struct json_writer *w, const char *key, enum tristate t)
{
	if (t == TRI_UNKNOWN)
		jw_null(w, key);
	else
		jw_bool(w, key, t == TRI_YES);
}

static void reach_json(struct json_writer *w, const char *key, const struct reach *x)
{
	jw_open_object(w, key);
	jw_u64(w, "reachable_ram_bytes", x->reachable_bytes);
	jw_u64(w, "unreachable_ram_bytes", x->unreachable_bytes);
	jw_u64(w, "uncovered_ram_bytes", x->uncovered_bytes);
	json_opt_hex(w, "lowest_unreachable", x->any_unreachable, x->lowest_unreachable);
	jw_close_object(w);
}

static void legacy_one_json(struct json_writer *w, const char *key, const struct legacy_block *b)
{
	jw_open_object(w, key);
	jw_u64(w, "max_low_pfn", b->max_low_pfn);
	jw_u64(w, "max_pfn", b->max_pfn);
	jw_u64(w, "blk_max_low_pfn", b->blk_max_low_pfn);
	jw_u64(w, "blk_max_pfn", b->blk_max_pfn);
	jw_bool(w, "bounce_high", b->bounce_high);
	jw_hex(w, "max_addr", b->max_addr);
	jw_u64(w, "b_pfn", b->b_pfn);
	jw_bool(w, "isa", b->isa);
	jw_u64(w, "bounce_pfn", b->bounce_pfn);
	jw_bool(w, "early_return", b->early_return);
	jw_u64(w, "bounce_bytes", b->bounce_bytes);
	jw_close_object(w);
}

void json_legacy(struct json_writer *w, const char *key, const struct legacy_result *lr)
{
	jw_open_object(w, key);
	jw_bool(w, "known", lr->known);
	jw_string(w, "why_not", lr->why_not);
	if (lr->known) {
		jw_string(w, "kernel_reading", json_reading_name(lr->kernel_reading));
		legacy_one_json(w, "as_count", &lr->by_reading[MAX_LOW_PFN_COUNT]);
		legacy_one_json(w, "as_pfn", &lr->by_reading[MAX_LOW_PFN_PFN]);
		jw_u64(w, "needless_bytes", lr->needless_bytes);
		jw_u64(w, "missed_bytes", lr->missed_bytes);
		jw_u64(w, "count_reading_only_bytes", lr->count_reading_only_bytes);
		jw_u64(w, "count_reading_missed_bytes", lr->count_reading_missed_bytes);
	}
	jw_close_object(w);
}

void json_udev(struct json_writer *w, const struct udev_props *u)
{
	if (!u || udev_props_empty(u)) {
		jw_null(w, "udev");
		return;
	}
	jw_open_object(w, "udev");
	jw_string(w, "ID_PATH", u->id_path);
	jw_string(w, "ID_VENDOR_FROM_DATABASE", u->vendor_db);
	jw_string(w, "ID_MODEL_FROM_DATABASE", u->model_db);
	jw_string(w, "ID_SERIAL", u->serial);
	jw_string(w, "by_path", u->by_path);
	jw_close_object(w);
}

static void dma_ranges_json(struct json_writer *w, const struct dma_map *map, const char *dt_error)
{
	static const char *const states[] = {
		[DMA_MAP_IDENTITY] = "identity", [DMA_MAP_RANGES] = "ranges", [DMA_MAP_ERROR] = "error",
	};

	if (map->state == DMA_MAP_IDENTITY && !map->node && !dt_error) {
		jw_null(w, "dma_ranges");
		return;
	}
	jw_open_object(w, "dma_ranges");
	jw_string(w, "state", states[map->state]);
	jw_string(w, "node", map->node);
	jw_string(w, "why", map->why);
	jw_string(w, "error", dt_error);
	jw_open_array(w, "regions");
	for (size_t i = 0; i < map->n_regions; i++) {
		jw_open_object(w, NULL);
		jw_hex(w, "cpu_start", map->regions[i].cpu_start);
		jw_hex(w, "dma_start", map->regions[i].dma_start);
		jw_u64(w, "size", map->regions[i].size);
		jw_close_object(w);
	}
	jw_close_array(w);
	jw_close_object(w);
}

/* The names of the signs found, in enum order: [] when none. */
static void dma_signs_json(struct json_writer *w, unsigned signs)
{
	jw_open_array(w, "dma_signs");
	for (int s = 0; s < _DMA_SIGN_MAX; s++)
		if (signs & (1u << s))
			jw_string(w, NULL, dma_sign_to_string((enum dma_sign)s));
	jw_close_array(w);
}

/* The device's devicetree restricted-dma-pool, and whether the kernel uses it; null: none named. */
static void restricted_pool_json(struct json_writer *w, const struct device_report *r)
{
	const struct dt_info *dt = device_dt(r->dev);

	if (!dt->restricted_pool) {
		jw_null(w, "restricted_dma_pool");
		return;
	}
	jw_open_object(w, "restricted_dma_pool");
	jw_string(w, "node", dt->restricted_node);
	json_opt_hex(w, "base", dt->restricted_base != 0, dt->restricted_base);
	jw_u64(w, "size_bytes", dt->restricted_size);
	jw_bool(w, "used", !r->restricted_ignored);
	jw_string(w, "ignored_why", r->restricted_ignored);
	jw_close_object(w);
}

/* The device's traffic in the --observe window and what it says of the verdict; null: not observed. */
static void observed_json(struct json_writer *w, const struct device_report *r, double window)
{
	const struct observed_device *od = r->observed;

	if (r->observed_result == OBSERVED_NONE) {
		jw_null(w, "observed");
		return;
	}
	jw_open_object(w, "observed");
	jw_string(w, "prediction", observed_result_to_string(r->observed_result));
	jw_string(w, "why", r->observed_why);
	jw_u64(w, "bounces", od ? od->bounces : 0);
	jw_u64(w, "bytes", od ? od->bytes : 0);
	jw_u64(w, "forced_bounces", od ? od->forced_bounces : 0);
	json_opt_hex(w, "lowest_addr", od && od->bounces, od ? od->lowest_addr : 0);
	json_opt_hex(w, "highest_addr", od && od->bounces, od ? od->highest_addr : 0);
	jw_u64(w, "overflow_messages", od ? od->overflow_messages : 0);
	json_opt_u64(w, "io_operations", r->observed_ops.known, r->observed_ops.v);
	json_opt_u64(w, "io_bytes", r->observed_ops.known, r->observed_io_bytes);
	jw_double(w, "window_seconds", window);
	jw_close_object(w);
}

void json_device(struct json_writer *w, const char *key, const struct device_report *r, double window)
{
	const struct device *d = r->dev;

	jw_open_object(w, key);
	jw_string(w, "id", d->id);
	jw_string(w, "bus", dev_bus_to_string(d->bus));
	jw_string(w, "syspath", d->syspath);
	jw_string(w, "driver", d->driver);
	jw_string(w, "module", d->module);
	jw_string(w, "module_source", d->module_source);
	jw_string(w, "name", d->name);
	if (d->have_pci_ids) {
		jw_open_object(w, "pci_ids");
		json_pci_id(w, "vendor", d->vendor, 4);
		json_pci_id(w, "device", d->device_id, 4);
		json_pci_id(w, "subsystem_vendor", d->subsys_vendor, 4);
		json_pci_id(w, "subsystem_device", d->subsys_device, 4);
		json_pci_id(w, "class", d->class_code >> 8, 4);
		json_pci_id(w, "prog_if", d->class_code & 0xff, 2);
		jw_close_object(w);
	} else {
		jw_null(w, "pci_ids");
	}
	json_opt_int(w, "numa_node", d->numa_node.known, d->numa_node.v);
	json_opt_bool(w, "virtio_access_platform", d->virtio_access_platform);
	json_opt_int(w, "dma_mask_bits", r->mask_bits.known, r->mask_bits.v);
	json_opt_int(w, "coherent_dma_mask_bits", r->coherent_bits.known, r->coherent_bits.v);
	json_opt_hex(w, "dma_mask", r->dma_mask.known, r->dma_mask.v);
	json_opt_hex(w, "coherent_dma_mask", r->coherent_mask.known, r->coherent_mask.v);
	jw_string(w, "mask_source", mask_source_to_string(r->mask_source));
	jw_string(w, "mask_rule", r->mask_row ? r->mask_row->source : NULL);
	jw_string(w, "mask_why", r->mask_why);
	json_opt_hex(w, "bus_limit", r->bus_limit != 0, r->bus_limit);
	json_opt_hex(w, "cpu_reach_end", r->cpu_reach_end.known, r->cpu_reach_end.v);
	json_opt_offset(w, "dma_offset", r->dma_offset.known, r->dma_offset.v);
	dma_ranges_json(w, &r->map, device_dt(d)->error);
	jw_string(w, "of_node", device_dt(d)->node);
	json_opt_int(w, "iommu_group", d->iommu_group.known, d->iommu_group.v);
	jw_string(w, "iommu_domain", d->iommu_type);
	json_opt_bool(w, "removable", r->removable);
	restricted_pool_json(w, r);
	dma_signs_json(w, d->dma_signs);
	jw_string(w, "verdict", verdict_to_string(r->verdict));
	jw_string(w, "reason", r->reason);
	jw_string(w, "kernel_model", kernel_model_to_string(r->kernel_model));
	jw_string(w, "limiter", reach_limiter_to_string(r->limiter));
	jw_string(w, "forced_why", r->forced_why);
	json_tristate(w, "swiotlb_pool_reachable", r->pool_reachable);
	json_opt_u64(w, "reachable_ram_bytes", r->direct.known, r->direct.reachable_bytes);
	json_opt_u64(w, "mask_unreachable_ram_bytes", r->direct.known, r->direct.unreachable_bytes);
	json_opt_u64(w, "unreachable_ram_bytes", r->unreachable_ram_bytes.known, r->unreachable_ram_bytes.v);
	jw_open_object(w, "models");
	if (r->direct.known) {
		reach_json(w, "dma_direct", &r->direct);
		reach_json(w, "bitmask", &r->bitmask);
	} else {
		jw_null(w, "dma_direct");
		jw_null(w, "bitmask");
	}
	if (r->has_block)
		json_legacy(w, "legacy_block", device_legacy(r));
	else
		jw_null(w, "legacy_block");
	jw_close_object(w);
	observed_json(w, r, window);
	json_udev(w, d->udev);
	jw_close_object(w);
}

void json_finding(struct json_writer *w, const struct finding *x)
{
	jw_open_object(w, NULL);
	jw_string(w, "id", finding_id_to_string(x->id));
	jw_string(w, "severity", severity_to_string(x->severity));
	jw_string(w, "device", x->device);
	jw_string(w, "message", x->message);
	jw_open_object(w, "evidence");
	for (size_t j = 0; j < x->n_evidence; j++) {
		const struct evidence *e = &x->evidence[j];
		if (e->type == EVIDENCE_U64 || e->type == EVIDENCE_PFN)
			jw_u64(w, e->key, e->u);
		else if (e->type == EVIDENCE_HEX)
			jw_hex(w, e->key, e->u);
		else if (e->type == EVIDENCE_BOOL)
			jw_bool(w, e->key, e->u != 0);
		else if (e->type == EVIDENCE_MICRO)
			jw_micro(w, e->key, e->u);
		else
			jw_string(w, e->key, e->s);
	}
	jw_close_object(w);
	jw_string(w, "remedy", x->remedy);
	jw_close_object(w);
}
