/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The JSON report (schema/dmamask-audit.schema.json). Addresses, PFNs and
 * masks are "0x..." strings (JSON numbers above 2^53 lose precision in jq and
 * JavaScript); counts and sizes are integers. Every string is made valid
 * UTF-8 first: kernel text can hold any byte.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/eras.h"
#include "analysis/prediction-check.h"
#include "render/json-writer.h"
#include "render/render.h"
#include "shared/errno-util.h"
#include "shared/kernel-defs.h"
#include "shared/rfc3339.h"
#include "shared/macro.h"
#include "shared/sat.h"

#define SCHEMA_VERSION 2

/* "0d57", "0106": PCI ids as lspci -n prints them, digits wide. */
static void pci_id(struct json_writer *w, const char *key, unsigned v, int digits)
{
	char s[16];
	snprintf(s, sizeof(s), "%0*x", digits, v);
	jw_string(w, key, s);
}

/* RFC 3339 in UTC, "2026-12-04T19:18:32Z"; null for a time it cannot show. */
static void time_utc(struct json_writer *w, const char *key, int64_t t)
{
	char s[RFC3339_MAX];
	jw_string(w, key, rfc3339_utc(t, s, sizeof(s)) == 0 ? s : NULL);
}

static void opt_u64(struct json_writer *w, const char *key, bool known, uint64_t v)
{
	if (known)
		jw_u64(w, key, v);
	else
		jw_null(w, key);
}

static void opt_hex(struct json_writer *w, const char *key, bool known, uint64_t v)
{
	if (known)
		jw_hex(w, key, v);
	else
		jw_null(w, key);
}

/* -1 (or any negative): not known. */
static void opt_int(struct json_writer *w, const char *key, int64_t v)
{
	if (v >= 0)
		jw_int(w, key, v);
	else
		jw_null(w, key);
}

static void tristate(struct json_writer *w, const char *key, enum tristate t)
{
	if (t == TRI_UNKNOWN)
		jw_null(w, key);
	else
		jw_bool(w, key, t == TRI_YES);
}

static void host_json(struct json_writer *w, const struct machine *m)
{
	jw_open_object(w, "host");
	jw_string(w, "arch", m->arch.value);
	jw_string(w, "arch_source", m->arch.source);
	jw_string(w, "kernel_release", m->release.value);
	jw_string(w, "kernel_release_source", m->release.source);
	jw_int(w, "page_size", (int)m->page_size);
	jw_string(w, "page_size_source", m->page_size_source);
	jw_string(w, "page_size_provenance", provenance_to_string(m->page_size_prov));
	jw_string(w, "cmdline", m->cmdline);
	jw_string(w, "hostname", m->hostname.value);
	jw_string(w, "hostname_source", m->hostname.source);
	jw_string(w, "captured_at", m->captured_at);
	jw_string(w, "sysroot", m->sysroot);
	jw_bool(w, "live", m->live);
	jw_close_object(w);
}

static void inputs_json(struct json_writer *w, const struct machine *m)
{
	jw_open_array(w, "inputs");
	for (size_t i = 0; i < m->n_inputs; i++) {
		const struct input *in = &m->inputs[i];
		jw_open_object(w, NULL);
		jw_string(w, "path", in->path);
		jw_string(w, "status", input_status_to_string(in->status));
		jw_string(w, "errno", in->err ? errno_name(in->err) : NULL);
		jw_string(w, "detail", in->detail);
		jw_close_object(w);
	}
	jw_close_array(w);
}

static void memory_json(struct json_writer *w, const struct layout *l)
{
	bool have = l->source != LAYOUT_SOURCE_NONE;
	bool low = have && l->lowmem_known;

	jw_open_object(w, "memory");
	jw_string(w, "source", layout_source_to_string(l->source));
	jw_int(w, "page_size", (int)l->page_size);
	jw_open_array(w, "ram_ranges");
	for (size_t i = 0; i < l->n_ranges; i++) {
		jw_open_object(w, NULL);
		jw_hex(w, "start", l->ranges[i].start);
		jw_hex(w, "end", l->ranges[i].end);
		jw_u64(w, "bytes", l->ranges[i].end - l->ranges[i].start + 1);
		jw_close_object(w);
	}
	jw_close_array(w);
	opt_u64(w, "ram_bytes", have, l->ram_bytes);
	opt_u64(w, "highmem_bytes", low, l->highmem_bytes);
	opt_u64(w, "base_pfn", have, l->base_pfn);
	opt_u64(w, "end_pfn", have, l->end_pfn);
	opt_u64(w, "lowmem_end_pfn", low, l->lowmem_end_pfn);
	jw_string(w, "lowmem_end_source", low ? l->lowmem_source : NULL);
	opt_u64(w, "low_page_count", low, l->low_page_count);
	opt_u64(w, "max_low_pfn_as_count", low, l->max_low_pfn_as_count);
	opt_u64(w, "max_low_pfn_as_pfn", low, l->max_low_pfn_as_pfn);
	jw_open_array(w, "zones");
	for (size_t i = 0; i < l->n_zones; i++) {
		const struct zone *z = &l->zones[i];
		jw_open_object(w, NULL);
		jw_int(w, "node", z->node);
		jw_string(w, "name", z->name);
		opt_u64(w, "start_pfn", z->populated, z->start_pfn);
		jw_u64(w, "spanned", z->spanned);
		jw_u64(w, "present", z->present);
		jw_close_object(w);
	}
	jw_close_array(w);
	jw_string(w, "unknown_reason", l->unknown_reason);
	jw_close_object(w);
}

/* One finding at a time: 10^4 of them are written without holding any. */
static void findings_json(struct json_writer *w, const struct findings *f)
{
	jw_open_array(w, "findings");
	for (size_t i = 0; i < f->n; i++) {
		const struct finding *x = &f->v[i];
		jw_open_object(w, NULL);
		jw_string(w, "id", finding_id_to_string(x->id));
		jw_string(w, "severity", severity_to_string(x->severity));
		jw_string(w, "device", x->device);
		jw_string(w, "message", x->message);
		jw_open_object(w, "evidence");
		for (size_t j = 0; j < x->n_evidence; j++) {
			const struct evidence *e = &x->evidence[j];
			if (e->type == EVIDENCE_U64)
				jw_u64(w, e->key, e->u);
			else if (e->type == EVIDENCE_HEX)
				jw_hex(w, e->key, e->u);
			else if (e->type == EVIDENCE_BOOL)
				jw_bool(w, e->key, e->u != 0);
			else
				jw_string(w, e->key, e->s);
		}
		jw_close_object(w);
		jw_string(w, "remedy", x->remedy);
		jw_close_object(w);
	}
	jw_close_array(w);
}

static const char *const reading_names[] = { [MAX_LOW_PFN_PFN] = "pfn", [MAX_LOW_PFN_COUNT] = "count" };
static const char *const block_bounce_names[] = {
	[BLOCK_BOUNCE_PFN] = "pfn-arithmetic",
	[BLOCK_BOUNCE_NEVER_HIGHMEM] = "highmem-only-never-runs",
	[BLOCK_BOUNCE_NONE] = "removed",
};

static void kernel_json(struct json_writer *w, const struct machine *m, const struct report *r)
{
	jw_open_object(w, "kernel");
	jw_string(w, "release", m->release.value);
	jw_bool(w, "version_known", r->release != 0);
	jw_string(w, "stable_release", m->stable_release.value);
	jw_string(w, "stable_release_source", m->stable_release.source);
	jw_string(w, "arch_family", arch_family_to_string(r->arch_family));
	opt_int(w, "bits", r->bits ? (int64_t)r->bits : -1);
	jw_string(w, "max_low_pfn_reading",
		    r->max_low_pfn_reading >= 0 ? reading_names[r->max_low_pfn_reading] : NULL);
	jw_string(w, "max_low_pfn_source", r->max_low_pfn_source);
	jw_string(w, "block_bounce", r->block_bounce >= 0 ? block_bounce_names[r->block_bounce] : NULL);
	jw_string(w, "block_bounce_source", r->block_bounce_source);
	if (r->arch_family == ARCH_ARM)
		tristate(w, "arm_lpae", r->swiotlb.arm_lpae);
	else
		jw_null(w, "arm_lpae");
	jw_string(w, "arm_lpae_why", r->swiotlb.arm_lpae_why);
	opt_hex(w, "arm_cr", m->log_arm_cr && r->arch_family == ARCH_ARM, m->arm_cr);
	jw_close_object(w);
}

static void swiotlb_json(struct json_writer *w, const struct machine *m, const struct swiotlb_state *s)
{
	jw_open_object(w, "swiotlb");
	tristate(w, "active", s->active);
	jw_string(w, "active_provenance", provenance_to_string(s->active_prov));
	jw_string(w, "active_why", s->active_why);
	opt_hex(w, "pool_start", s->pool_known, s->pool_start);
	opt_hex(w, "pool_end", s->pool_known && s->pool_end, s->pool_end - 1);
	opt_hex(w, "pool_limit", s->pool_limit_known, s->pool_limit);
	jw_string(w, "pool_limit_provenance",
		  s->pool_limit_known ? provenance_to_string(s->pool_limit_prov) : NULL);
	jw_string(w, "pool_limit_why", s->pool_limit_known ? s->pool_limit_why : NULL);
	opt_u64(w, "size_bytes", s->size_known, s->size_bytes);
	jw_string(w, "size_provenance", s->size_known ? provenance_to_string(s->size_prov) : NULL);
	opt_u64(w, "used_bytes", s->used_known, s->used_bytes);
	opt_u64(w, "hiwater_bytes", s->hiwater_known, s->hiwater_bytes);
	jw_bool(w, "forced", s->forced);
	jw_string(w, "forced_why", s->forced_why);
	jw_bool(w, "xen_pv", s->xen_pv);
	jw_bool(w, "cmdline_force", m->cmd.swiotlb_force);
	jw_bool(w, "cmdline_noforce", m->cmd.swiotlb_noforce);
	opt_u64(w, "cmdline_slabs", m->cmd.have_swiotlb_slabs, m->cmd.swiotlb_slabs);
	jw_close_object(w);
}

static void reach_json(struct json_writer *w, const char *key, const struct reach *x)
{
	jw_open_object(w, key);
	jw_u64(w, "reachable_ram_bytes", x->reachable_bytes);
	jw_u64(w, "unreachable_ram_bytes", x->unreachable_bytes);
	jw_u64(w, "uncovered_ram_bytes", x->uncovered_bytes);
	opt_hex(w, "lowest_unreachable", x->any_unreachable, x->lowest_unreachable);
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

static void legacy_json(struct json_writer *w, const char *key, const struct legacy_result *lr)
{
	jw_open_object(w, key);
	jw_bool(w, "known", lr->known);
	jw_string(w, "why_not", lr->why_not);
	if (lr->known) {
		jw_string(w, "kernel_reading", reading_names[lr->kernel_reading]);
		legacy_one_json(w, "as_count", &lr->by_reading[MAX_LOW_PFN_COUNT]);
		legacy_one_json(w, "as_pfn", &lr->by_reading[MAX_LOW_PFN_PFN]);
		jw_u64(w, "needless_bytes", lr->needless_bytes);
		jw_u64(w, "missed_bytes", lr->missed_bytes);
	}
	jw_close_object(w);
}

static void udev_json(struct json_writer *w, const struct udev_props *u)
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
	opt_hex(w, "base", dt->restricted_base != 0, dt->restricted_base);
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
	opt_hex(w, "lowest_addr", od && od->bounces, od ? od->lowest_addr : 0);
	opt_hex(w, "highest_addr", od && od->bounces, od ? od->highest_addr : 0);
	jw_u64(w, "overflow_messages", od ? od->overflow_messages : 0);
	jw_double(w, "window_seconds", window);
	jw_close_object(w);
}

/* Machine-wide: the window, lost events, the pool's peak, traffic of devices not in the list. */
static void observation_json(struct json_writer *w, const struct machine *m, const struct report *r)
{
	const struct observation *ob = &m->observed;
	uint64_t peak;
	bool exact;

	if (!ob->present) {
		jw_null(w, "observation");
		return;
	}
	jw_open_object(w, "observation");
	jw_u64(w, "requested_seconds", ob->requested_seconds);
	jw_double(w, "window_seconds", ob->window_seconds);
	jw_bool(w, "interrupted", ob->interrupted);
	opt_u64(w, "lost_events", ob->lost_known, ob->lost_events);
	jw_u64(w, "bad_lines", ob->bad_lines);
	jw_string(w, "tracefs", ob->tracefs);
	jw_bool(w, "event_format_known", ob->format_known);
	jw_u64(w, "buffer_full_messages", ob->full_messages);
	bool have_peak = observation_pool_peak(ob, &peak, &exact);
	opt_u64(w, "pool_peak_used_bytes", have_peak, sat_shl(peak, IO_TLB_SHIFT));
	if (have_peak)
		jw_bool(w, "pool_peak_exact", exact);
	else
		jw_null(w, "pool_peak_exact");
	jw_open_array(w, "unattributed");
	for (size_t i = 0; i < ob->n_devices; i++) {
		const struct observed_device *od = &ob->devices[i];
		bool known = false;
		for (size_t k = 0; k < r->devices.n_devices && !known; k++)
			known = r->devices.devices[k].observed == od;
		if (known)
			continue;
		jw_open_object(w, NULL);
		jw_string(w, "device", od->device);
		jw_u64(w, "bounces", od->bounces);
		jw_u64(w, "bytes", od->bytes);
		jw_u64(w, "overflow_messages", od->overflow_messages);
		jw_close_object(w);
	}
	jw_close_array(w);
	jw_close_object(w);
}

static void device_json(struct json_writer *w, const struct device_report *r, double window)
{
	const struct device *d = r->dev;
	int bits = d->dma_mask_bits >= 0 ? d->dma_mask_bits : r->mask_known ? fls64(r->dma_mask) : -1;
	int cbits = d->coherent_mask_bits >= 0 ? d->coherent_mask_bits
			: r->coherent_known ? fls64(r->coherent_mask) : -1;

	jw_open_object(w, NULL);
	jw_string(w, "id", d->id);
	jw_string(w, "bus", dev_bus_to_string(d->bus));
	jw_string(w, "syspath", d->syspath);
	jw_string(w, "driver", d->driver);
	jw_string(w, "module", d->module);
	jw_string(w, "module_source", d->module_source);
	jw_string(w, "name", d->name);
	if (d->have_pci_ids) {
		jw_open_object(w, "pci_ids");
		pci_id(w, "vendor", d->vendor, 4);
		pci_id(w, "device", d->device_id, 4);
		pci_id(w, "subsystem_vendor", d->subsys_vendor, 4);
		pci_id(w, "subsystem_device", d->subsys_device, 4);
		pci_id(w, "class", d->class_code >> 8, 4);
		pci_id(w, "prog_if", d->class_code & 0xff, 2);
		jw_close_object(w);
	} else {
		jw_null(w, "pci_ids");
	}
	opt_int(w, "numa_node", d->numa_node);
	if (d->virtio_access_platform >= 0)
		jw_bool(w, "virtio_access_platform", d->virtio_access_platform);
	else
		jw_null(w, "virtio_access_platform");
	opt_int(w, "dma_mask_bits", bits);
	opt_int(w, "coherent_dma_mask_bits", cbits);
	opt_hex(w, "dma_mask", r->mask_known, r->dma_mask);
	opt_hex(w, "coherent_dma_mask", r->coherent_known, r->coherent_mask);
	jw_string(w, "mask_source", mask_source_to_string(r->mask_source));
	opt_hex(w, "bus_limit", r->bus_limit != 0, r->bus_limit);
	dma_ranges_json(w, &r->map, device_dt(d)->error);
	jw_string(w, "of_node", device_dt(d)->node);
	opt_int(w, "iommu_group", d->iommu_group);
	jw_string(w, "iommu_domain", d->iommu_type);
	if (d->removable >= 0)
		jw_bool(w, "removable", d->removable);
	else
		jw_null(w, "removable");
	restricted_pool_json(w, r);
	dma_signs_json(w, d->dma_signs);
	jw_string(w, "verdict", verdict_to_string(r->verdict));
	jw_string(w, "reason", r->reason);
	jw_string(w, "kernel_model", kernel_model_to_string(r->kernel_model));
	jw_string(w, "forced_why", r->forced_why);
	tristate(w, "swiotlb_pool_reachable", r->pool_reachable);
	opt_u64(w, "reachable_ram_bytes", r->reach_known, r->direct.reachable_bytes);
	opt_u64(w, "mask_unreachable_ram_bytes", r->reach_known, r->direct.unreachable_bytes);
	opt_u64(w, "unreachable_ram_bytes", r->affected_known, r->affected_bytes);
	jw_open_object(w, "models");
	if (r->mask_known) {
		reach_json(w, "dma_direct", &r->direct);
		reach_json(w, "bitmask", &r->bitmask);
	} else {
		jw_null(w, "dma_direct");
		jw_null(w, "bitmask");
	}
	if (r->has_block)
		legacy_json(w, "legacy_block", device_legacy(r));
	else
		jw_null(w, "legacy_block");
	jw_close_object(w);
	observed_json(w, r, window);
	udev_json(w, d->udev);
	jw_close_object(w);
}

static void block_json(struct json_writer *w, const struct block_report *b)
{
	const struct block_queue *q = b->q;

	jw_open_object(w, NULL);
	jw_string(w, "disk", q->disk);
	jw_string(w, "dma_device", q->dma_device);
	jw_open_object(w, "queue");
	opt_int(w, "max_sectors_kb", q->max_sectors_kb);
	opt_int(w, "max_hw_sectors_kb", q->max_hw_sectors_kb);
	opt_int(w, "max_segments", q->max_segments);
	opt_int(w, "max_segment_size", q->max_segment_size);
	opt_int(w, "logical_block_size", q->logical_block_size);
	opt_int(w, "dma_alignment", q->dma_alignment);
	jw_close_object(w);
	jw_string(w, "verdict", b->dr ? verdict_to_string(b->dr->verdict) : NULL);
	if (b->dr)
		legacy_json(w, "legacy_block", device_legacy(b->dr));
	else
		jw_null(w, "legacy_block");
	udev_json(w, q->udev);
	jw_close_object(w);
}

/*
 * The document is written as it is walked, devices[] and block[] one element
 * at a time, so memory stays flat however many devices there are.
 */
/* What was asked, as smartctl's JSON carries its own argv: a fleet's reports compare so. */
static void invocation_json(struct json_writer *w, const struct report *r, const struct render_options *o)
{
	jw_open_object(w, "invocation");
	if (o && o->argv) {
		jw_open_array(w, "argv");
		for (int i = 0; i < o->argc; i++)
			jw_string(w, NULL, o->argv[i]);
		jw_close_array(w);
	} else {
		jw_null(w, "argv");
	}
	jw_string(w, "fail_on", severity_to_string(r->fail_on));
	jw_close_object(w);
}

/* The answer first: devices by verdict, findings by severity, the devices that need action. */
static void summary_json(struct json_writer *w, const struct report *r)
{
	size_t by_verdict[_VERDICT_MAX] = { 0 }, by_severity[_SEVERITY_MAX] = { 0 };

	for (size_t i = 0; i < r->devices.n_devices; i++)
		by_verdict[r->devices.devices[i].verdict]++;
	for (size_t i = 0; i < r->findings.n; i++)
		by_severity[r->findings.v[i].severity]++;
	jw_open_object(w, "summary");
	jw_u64(w, "devices", r->devices.n_devices);
	jw_open_object(w, "by_verdict");
	for (int v = 0; v < _VERDICT_MAX; v++)
		jw_u64(w, verdict_to_string((enum verdict)v), by_verdict[v]);
	jw_close_object(w);
	jw_open_object(w, "findings_by_severity");
	for (int s = 0; s < _SEVERITY_MAX; s++)
		jw_u64(w, severity_to_string((enum severity)s), by_severity[s]);
	jw_close_object(w);
	jw_open_array(w, "needs_action");
	for (size_t i = 0; i < r->devices.n_devices && w->err == 0; i++) {
		const struct device_report *dr = &r->devices.devices[i];
		if (!device_needs_action(dr))
			continue;
		jw_open_object(w, NULL);
		jw_string(w, "device", dr->dev->id);
		jw_string(w, "verdict", verdict_to_string(dr->verdict));
		jw_string(w, "worst_severity", dr->worst_severity >= 0
							? severity_to_string((enum severity)dr->worst_severity)
							: NULL);
		jw_close_object(w);
	}
	jw_close_array(w);
	jw_close_object(w);
}

int render_json(FILE *out, const struct machine *m, const struct report *r, const struct render_options *o)
{
	struct json_writer w;

	jw_begin(&w, out);
	jw_open_object(&w, NULL);
	jw_int(&w, "schema_version", SCHEMA_VERSION);
	jw_open_object(&w, "tool");
	jw_string(&w, "name", PACKAGE_NAME);
	jw_string(&w, "version", PACKAGE_VERSION);
	jw_close_object(&w);
	time_utc(&w, "generated_at", r->generated_at);
	invocation_json(&w, r, o);
	summary_json(&w, r);
	host_json(&w, m);
	inputs_json(&w, m);
	kernel_json(&w, m, r);
	memory_json(&w, &r->layout);
	swiotlb_json(&w, m, &r->swiotlb);
	jw_open_object(&w, "iommu");
	jw_bool(&w, "groups_present", m->iommu_groups_present);
	jw_close_object(&w);
	observation_json(&w, m, r);
	jw_open_array(&w, "devices");
	for (size_t i = 0; i < r->devices.n_devices && w.err == 0; i++)
		device_json(&w, &r->devices.devices[i], m->observed.window_seconds);
	jw_close_array(&w);
	jw_open_array(&w, "block");
	for (size_t i = 0; i < r->devices.n_blocks && w.err == 0; i++)
		block_json(&w, &r->devices.blocks[i]);
	jw_close_array(&w);
	findings_json(&w, &r->findings);
	jw_int(&w, "exit_status", r->exit_status);
	jw_close_object(&w);
	return jw_end(&w);
}
