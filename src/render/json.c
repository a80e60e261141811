/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The JSON report (schema/dmamask-audit.schema.json). Addresses, PFNs and
 * masks are "0x..." strings (JSON numbers above 2^53 lose precision in jq and
 * JavaScript); counts and sizes are integers. Every string is made valid
 * UTF-8 first: kernel text can hold any byte.
 */
#include "config.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/eras.h"
#include "analysis/prediction-check.h"
#include "render/render.h"
#include "shared/errno-util.h"
#include "shared/kernel-defs.h"
#include "shared/rfc3339.h"
#include "shared/macro.h"
#include "shared/sat.h"
#include "shared/strbuf.h"
#include "shared/utf8.h"

#define SCHEMA_VERSION 2

/* A json string of s with each invalid byte replaced by U+FFFD. */
static struct json_object *jstr(const char *s)
{
	if (!s)
		return NULL;
	struct strbuf b = { 0 };
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s);

	while (left) {
		size_t n = utf8_seq_len(p, left);
		if (n == 0) {
			strbuf_append(&b, "\xef\xbf\xbd");
			n = 1;
		} else {
			strbuf_append_n(&b, (const char *)p, n);
		}
		p += n;
		left -= n;
	}
	_cleanup_free_ char *clean = strbuf_steal(&b);
	return clean ? json_object_new_string(clean) : NULL;
}

static struct json_object *jhex(uint64_t v)
{
	_cleanup_free_ char *s = hex_string(v);
	return s ? json_object_new_string(s) : NULL;
}

/* "0d57", "0106": PCI ids as lspci -n prints them, digits wide. */
static struct json_object *jpci_id(unsigned v, int digits)
{
	char s[16];
	snprintf(s, sizeof(s), "%0*x", digits, v);
	return json_object_new_string(s);
}

/* RFC 3339 in UTC, "2026-12-04T19:18:32Z"; NULL for a time it cannot show. */
static struct json_object *jtime(int64_t t)
{
	char s[RFC3339_MAX];
	return rfc3339_utc(t, s, sizeof(s)) == 0 ? json_object_new_string(s) : NULL;
}

static struct json_object *ju64(uint64_t v)
{
	/* json-c stores int64; every size here is below 2^63 (checked by the parsers) */
	return json_object_new_int64(v > INT64_MAX ? INT64_MAX : (int64_t)v);
}

static void add(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

static struct json_object *host_json(const struct machine *m)
{
	struct json_object *h = json_object_new_object();

	add(h, "arch", jstr(m->arch.value));
	add(h, "arch_source", jstr(m->arch.source));
	add(h, "kernel_release", jstr(m->release.value));
	add(h, "kernel_release_source", jstr(m->release.source));
	add(h, "page_size", json_object_new_int((int)m->page_size));
	add(h, "page_size_source", jstr(m->page_size_source));
	add(h, "page_size_provenance", jstr(provenance_to_string(m->page_size_prov)));
	add(h, "cmdline", jstr(m->cmdline));
	add(h, "hostname", jstr(m->hostname.value));
	add(h, "hostname_source", jstr(m->hostname.source));
	add(h, "captured_at", jstr(m->captured_at));
	add(h, "sysroot", jstr(m->sysroot));
	add(h, "live", json_object_new_boolean(m->live));
	return h;
}

static struct json_object *inputs_json(const struct machine *m)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < m->n_inputs; i++) {
		const struct input *in = &m->inputs[i];
		struct json_object *o = json_object_new_object();
		add(o, "path", jstr(in->path));
		add(o, "status", jstr(input_status_to_string(in->status)));
		add(o, "errno", in->err ? jstr(errno_name(in->err)) : NULL);
		add(o, "detail", jstr(in->detail));
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *opt_u64(bool known, uint64_t v)
{
	return known ? ju64(v) : NULL;
}

static struct json_object *memory_json(const struct layout *l)
{
	struct json_object *o = json_object_new_object();
	struct json_object *ranges = json_object_new_array();
	struct json_object *zones = json_object_new_array();
	bool have = l->source != LAYOUT_SOURCE_NONE;
	bool low = have && l->lowmem_known;

	for (size_t i = 0; i < l->n_ranges; i++) {
		struct json_object *r = json_object_new_object();
		add(r, "start", jhex(l->ranges[i].start));
		add(r, "end", jhex(l->ranges[i].end));
		add(r, "bytes", ju64(l->ranges[i].end - l->ranges[i].start + 1));
		json_object_array_add(ranges, r);
	}
	for (size_t i = 0; i < l->n_zones; i++) {
		const struct zone *z = &l->zones[i];
		struct json_object *r = json_object_new_object();
		add(r, "node", json_object_new_int(z->node));
		add(r, "name", jstr(z->name));
		add(r, "start_pfn", z->populated ? ju64(z->start_pfn) : NULL);
		add(r, "spanned", ju64(z->spanned));
		add(r, "present", ju64(z->present));
		json_object_array_add(zones, r);
	}
	add(o, "source", jstr(layout_source_to_string(l->source)));
	add(o, "page_size", json_object_new_int((int)l->page_size));
	add(o, "ram_ranges", ranges);
	add(o, "ram_bytes", opt_u64(have, l->ram_bytes));
	add(o, "highmem_bytes", opt_u64(low, l->highmem_bytes));
	add(o, "base_pfn", opt_u64(have, l->base_pfn));
	add(o, "end_pfn", opt_u64(have, l->end_pfn));
	add(o, "lowmem_end_pfn", opt_u64(low, l->lowmem_end_pfn));
	add(o, "lowmem_end_source", low ? jstr(l->lowmem_source) : NULL);
	add(o, "low_page_count", opt_u64(low, l->low_page_count));
	add(o, "max_low_pfn_as_count", opt_u64(low, l->max_low_pfn_as_count));
	add(o, "max_low_pfn_as_pfn", opt_u64(low, l->max_low_pfn_as_pfn));
	add(o, "zones", zones);
	add(o, "unknown_reason", jstr(l->unknown_reason));
	return o;
}

static struct json_object *findings_json(const struct findings *f)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < f->n; i++) {
		const struct finding *x = &f->v[i];
		struct json_object *o = json_object_new_object();
		struct json_object *ev = json_object_new_object();
		add(o, "id", jstr(finding_id_to_string(x->id)));
		add(o, "severity", jstr(severity_to_string(x->severity)));
		add(o, "device", jstr(x->device));
		add(o, "message", jstr(x->message));
		for (size_t j = 0; j < x->n_evidence; j++) {
			const struct evidence *e = &x->evidence[j];
			add(ev, e->key, e->type == EVIDENCE_U64   ? ju64(e->u)
					: e->type == EVIDENCE_HEX ? jhex(e->u)
					: e->type == EVIDENCE_BOOL ? json_object_new_boolean(e->u != 0)
								  : jstr(e->s));
		}
		add(o, "evidence", ev);
		add(o, "remedy", jstr(x->remedy));
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *tri_json(enum tristate t)
{
	return t == TRI_UNKNOWN ? NULL : json_object_new_boolean(t == TRI_YES);
}

static const char *const reading_names[] = { [MAX_LOW_PFN_PFN] = "pfn", [MAX_LOW_PFN_COUNT] = "count" };
static const char *const block_bounce_names[] = {
	[BLOCK_BOUNCE_PFN] = "pfn-arithmetic",
	[BLOCK_BOUNCE_NEVER_HIGHMEM] = "highmem-only-never-runs",
	[BLOCK_BOUNCE_NONE] = "removed",
};

static struct json_object *kernel_json(const struct machine *m, const struct report *r)
{
	struct json_object *o = json_object_new_object();

	add(o, "release", jstr(m->release.value));
	add(o, "version_known", json_object_new_boolean(r->release != 0));
	add(o, "arch_family", jstr(arch_family_to_string(r->arch_family)));
	add(o, "bits", r->bits ? json_object_new_int((int)r->bits) : NULL);
	add(o, "max_low_pfn_reading", r->max_low_pfn_reading >= 0
					      ? jstr(reading_names[r->max_low_pfn_reading]) : NULL);
	add(o, "max_low_pfn_source", jstr(r->max_low_pfn_source));
	add(o, "block_bounce", r->block_bounce >= 0 ? jstr(block_bounce_names[r->block_bounce]) : NULL);
	add(o, "block_bounce_source", jstr(r->block_bounce_source));
	return o;
}

static struct json_object *swiotlb_json(const struct machine *m, const struct swiotlb_state *s)
{
	struct json_object *o = json_object_new_object();

	add(o, "active", tri_json(s->active));
	add(o, "active_provenance", jstr(provenance_to_string(s->active_prov)));
	add(o, "active_why", jstr(s->active_why));
	add(o, "pool_start", s->pool_known ? jhex(s->pool_start) : NULL);
	add(o, "pool_end", s->pool_known && s->pool_end ? jhex(s->pool_end - 1) : NULL);
	add(o, "size_bytes", opt_u64(s->size_known, s->size_bytes));
	add(o, "size_provenance", s->size_known ? jstr(provenance_to_string(s->size_prov)) : NULL);
	add(o, "used_bytes", opt_u64(s->used_known, s->used_bytes));
	add(o, "hiwater_bytes", opt_u64(s->hiwater_known, s->hiwater_bytes));
	add(o, "forced", json_object_new_boolean(s->forced));
	add(o, "forced_why", jstr(s->forced_why));
	add(o, "xen_pv", json_object_new_boolean(s->xen_pv));
	add(o, "cmdline_force", json_object_new_boolean(m->cmd.swiotlb_force));
	add(o, "cmdline_noforce", json_object_new_boolean(m->cmd.swiotlb_noforce));
	add(o, "cmdline_slabs", opt_u64(m->cmd.have_swiotlb_slabs, m->cmd.swiotlb_slabs));
	return o;
}

static struct json_object *reach_json(const struct reach *x)
{
	struct json_object *o = json_object_new_object();
	add(o, "reachable_ram_bytes", ju64(x->reachable_bytes));
	add(o, "unreachable_ram_bytes", ju64(x->unreachable_bytes));
	add(o, "uncovered_ram_bytes", ju64(x->uncovered_bytes));
	add(o, "lowest_unreachable", x->any_unreachable ? jhex(x->lowest_unreachable) : NULL);
	return o;
}

static struct json_object *legacy_one_json(const struct legacy_block *b)
{
	struct json_object *o = json_object_new_object();
	add(o, "max_low_pfn", ju64(b->max_low_pfn));
	add(o, "max_pfn", ju64(b->max_pfn));
	add(o, "blk_max_low_pfn", ju64(b->blk_max_low_pfn));
	add(o, "blk_max_pfn", ju64(b->blk_max_pfn));
	add(o, "bounce_high", json_object_new_boolean(b->bounce_high));
	add(o, "max_addr", jhex(b->max_addr));
	add(o, "b_pfn", ju64(b->b_pfn));
	add(o, "isa", json_object_new_boolean(b->isa));
	add(o, "bounce_pfn", ju64(b->bounce_pfn));
	add(o, "early_return", json_object_new_boolean(b->early_return));
	add(o, "bounce_bytes", ju64(b->bounce_bytes));
	return o;
}

static struct json_object *legacy_json(const struct legacy_result *lr)
{
	struct json_object *o = json_object_new_object();
	add(o, "known", json_object_new_boolean(lr->known));
	add(o, "why_not", jstr(lr->why_not));
	if (lr->known) {
		add(o, "kernel_reading", jstr(reading_names[lr->kernel_reading]));
		add(o, "as_count", legacy_one_json(&lr->by_reading[MAX_LOW_PFN_COUNT]));
		add(o, "as_pfn", legacy_one_json(&lr->by_reading[MAX_LOW_PFN_PFN]));
		add(o, "needless_bytes", ju64(lr->needless_bytes));
		add(o, "missed_bytes", ju64(lr->missed_bytes));
	}
	return o;
}

static struct json_object *udev_json(const struct udev_props *u)
{
	if (!u->id_path && !u->vendor_db && !u->model_db && !u->serial && !u->by_path)
		return NULL;
	struct json_object *o = json_object_new_object();
	add(o, "ID_PATH", jstr(u->id_path));
	add(o, "ID_VENDOR_FROM_DATABASE", jstr(u->vendor_db));
	add(o, "ID_MODEL_FROM_DATABASE", jstr(u->model_db));
	add(o, "ID_SERIAL", jstr(u->serial));
	add(o, "by_path", jstr(u->by_path));
	return o;
}

static struct json_object *dma_ranges_json(const struct dma_map *map, const char *dt_error)
{
	if (map->state == DMA_MAP_IDENTITY && !map->node && !dt_error)
		return NULL;
	static const char *const states[] = {
		[DMA_MAP_IDENTITY] = "identity", [DMA_MAP_RANGES] = "ranges", [DMA_MAP_ERROR] = "error",
	};
	struct json_object *o = json_object_new_object();
	struct json_object *a = json_object_new_array();
	add(o, "state", jstr(states[map->state]));
	add(o, "node", jstr(map->node));
	add(o, "why", jstr(map->why));
	add(o, "error", jstr(dt_error));
	for (size_t i = 0; i < map->n_regions; i++) {
		struct json_object *g = json_object_new_object();
		add(g, "cpu_start", jhex(map->regions[i].cpu_start));
		add(g, "dma_start", jhex(map->regions[i].dma_start));
		add(g, "size", ju64(map->regions[i].size));
		json_object_array_add(a, g);
	}
	add(o, "regions", a);
	return o;
}

/* The names of the signs found, in enum order: [] when none. */
static struct json_object *dma_signs_json(unsigned signs)
{
	struct json_object *a = json_object_new_array();

	for (int s = 0; a && s < _DMA_SIGN_MAX; s++)
		if (signs & (1u << s))
			json_object_array_add(a, jstr(dma_sign_to_string((enum dma_sign)s)));
	return a;
}

/* The device's devicetree restricted-dma-pool, and whether the kernel uses it; null: none named. */
static struct json_object *restricted_pool_json(const struct device_report *r)
{
	const struct dt_info *dt = &r->dev->dt;
	struct json_object *o;

	if (!dt->restricted_pool)
		return NULL;
	o = json_object_new_object();
	add(o, "node", jstr(dt->restricted_node));
	add(o, "base", dt->restricted_base ? jhex(dt->restricted_base) : NULL);
	add(o, "size_bytes", ju64(dt->restricted_size));
	add(o, "used", json_object_new_boolean(!r->restricted_ignored));
	add(o, "ignored_why", jstr(r->restricted_ignored));
	return o;
}

/* The device's traffic in the --observe window and what it says of the verdict; null: not observed. */
static struct json_object *observed_json(const struct device_report *r, double window)
{
	const struct observed_device *od = r->observed;
	struct json_object *o;

	if (r->observed_result == OBSERVED_NONE)
		return NULL;
	o = json_object_new_object();
	add(o, "prediction", jstr(observed_result_to_string(r->observed_result)));
	add(o, "why", jstr(r->observed_why));
	add(o, "bounces", ju64(od ? od->bounces : 0));
	add(o, "bytes", ju64(od ? od->bytes : 0));
	add(o, "forced_bounces", ju64(od ? od->forced_bounces : 0));
	add(o, "lowest_addr", od && od->bounces ? jhex(od->lowest_addr) : NULL);
	add(o, "highest_addr", od && od->bounces ? jhex(od->highest_addr) : NULL);
	add(o, "overflow_messages", ju64(od ? od->overflow_messages : 0));
	add(o, "window_seconds", json_object_new_double(window));
	return o;
}

/* Machine-wide: the window, lost events, the pool's peak, traffic of devices not in the list. */
static struct json_object *observation_json(const struct machine *m, const struct report *r)
{
	const struct observation *ob = &m->observed;
	struct json_object *o, *un;
	uint64_t peak;
	bool exact;

	if (!ob->present)
		return NULL;
	o = json_object_new_object();
	add(o, "requested_seconds", ju64(ob->requested_seconds));
	add(o, "window_seconds", json_object_new_double(ob->window_seconds));
	add(o, "interrupted", json_object_new_boolean(ob->interrupted));
	add(o, "lost_events", ob->lost_known ? ju64(ob->lost_events) : NULL);
	add(o, "bad_lines", ju64(ob->bad_lines));
	add(o, "tracefs", jstr(ob->tracefs));
	add(o, "event_format_known", json_object_new_boolean(ob->format_known));
	add(o, "buffer_full_messages", ju64(ob->full_messages));
	bool have_peak = observation_pool_peak(ob, &peak, &exact);
	add(o, "pool_peak_used_bytes", have_peak ? ju64(sat_shl(peak, IO_TLB_SHIFT)) : NULL);
	add(o, "pool_peak_exact", have_peak ? json_object_new_boolean(exact) : NULL);
	un = json_object_new_array();
	for (size_t i = 0; i < ob->n_devices; i++) {
		const struct observed_device *od = &ob->devices[i];
		bool known = false;
		for (size_t k = 0; k < r->devices.n_devices && !known; k++)
			known = r->devices.devices[k].observed == od;
		if (known)
			continue;
		struct json_object *u = json_object_new_object();
		add(u, "device", jstr(od->device));
		add(u, "bounces", ju64(od->bounces));
		add(u, "bytes", ju64(od->bytes));
		add(u, "overflow_messages", ju64(od->overflow_messages));
		json_object_array_add(un, u);
	}
	add(o, "unattributed", un);
	return o;
}

static struct json_object *device_json(const struct device_report *r, double window)
{
	const struct device *d = r->dev;
	struct json_object *o = json_object_new_object();
	struct json_object *models = json_object_new_object();
	int bits = d->dma_mask_bits >= 0 ? d->dma_mask_bits : r->mask_known ? fls64(r->dma_mask) : -1;
	int cbits = d->coherent_mask_bits >= 0 ? d->coherent_mask_bits
			: r->coherent_known ? fls64(r->coherent_mask) : -1;

	add(o, "id", jstr(d->id));
	add(o, "bus", jstr(dev_bus_to_string(d->bus)));
	add(o, "syspath", jstr(d->syspath));
	add(o, "driver", jstr(d->driver));
	add(o, "module", jstr(d->module));
	add(o, "module_source", jstr(d->module_source));
	add(o, "name", jstr(d->name));
	add(o, "pci_ids", d->have_pci_ids ? json_object_new_object() : NULL);
	if (d->have_pci_ids) {
		struct json_object *ids = json_object_object_get(o, "pci_ids");
		add(ids, "vendor", jpci_id(d->vendor, 4));
		add(ids, "device", jpci_id(d->device_id, 4));
		add(ids, "subsystem_vendor", jpci_id(d->subsys_vendor, 4));
		add(ids, "subsystem_device", jpci_id(d->subsys_device, 4));
		add(ids, "class", jpci_id(d->class_code >> 8, 4));
		add(ids, "prog_if", jpci_id(d->class_code & 0xff, 2));
	}
	add(o, "numa_node", d->numa_node >= 0 ? json_object_new_int(d->numa_node) : NULL);
	add(o, "virtio_access_platform", d->virtio_access_platform >= 0
						 ? json_object_new_boolean(d->virtio_access_platform)
						 : NULL);
	add(o, "dma_mask_bits", bits >= 0 ? json_object_new_int(bits) : NULL);
	add(o, "coherent_dma_mask_bits", cbits >= 0 ? json_object_new_int(cbits) : NULL);
	add(o, "dma_mask", r->mask_known ? jhex(r->dma_mask) : NULL);
	add(o, "coherent_dma_mask", r->coherent_known ? jhex(r->coherent_mask) : NULL);
	add(o, "mask_source", jstr(mask_source_to_string(r->mask_source)));
	add(o, "bus_limit", r->bus_limit ? jhex(r->bus_limit) : NULL);
	add(o, "dma_ranges", dma_ranges_json(&r->map, d->dt.error));
	add(o, "of_node", jstr(d->dt.node));
	add(o, "iommu_group", d->iommu_group >= 0 ? json_object_new_int(d->iommu_group) : NULL);
	add(o, "iommu_domain", jstr(d->iommu_type));
	add(o, "removable", d->removable >= 0 ? json_object_new_boolean(d->removable) : NULL);
	add(o, "restricted_dma_pool", restricted_pool_json(r));
	add(o, "dma_signs", dma_signs_json(d->dma_signs));
	add(o, "verdict", jstr(verdict_to_string(r->verdict)));
	add(o, "reason", jstr(r->reason));
	add(o, "kernel_model", jstr(kernel_model_to_string(r->kernel_model)));
	add(o, "forced_why", jstr(r->forced_why));
	add(o, "swiotlb_pool_reachable", tri_json(r->pool_reachable));
	add(o, "reachable_ram_bytes", r->reach_known ? ju64(r->direct.reachable_bytes) : NULL);
	add(o, "mask_unreachable_ram_bytes", r->reach_known ? ju64(r->direct.unreachable_bytes) : NULL);
	add(o, "unreachable_ram_bytes", r->affected_known ? ju64(r->affected_bytes) : NULL);
	add(models, "dma_direct", r->mask_known ? reach_json(&r->direct) : NULL);
	add(models, "bitmask", r->mask_known ? reach_json(&r->bitmask) : NULL);
	add(models, "legacy_block", r->has_block ? legacy_json(device_legacy(r)) : NULL);
	add(o, "models", models);
	add(o, "observed", observed_json(r, window));
	add(o, "udev", udev_json(&d->udev));
	return o;
}

static struct json_object *i64_or_null(int64_t v)
{
	return v >= 0 ? json_object_new_int64(v) : NULL;
}

static struct json_object *block_json(const struct block_report *b)
{
	const struct block_queue *q = b->q;
	struct json_object *o = json_object_new_object();
	struct json_object *lim = json_object_new_object();

	add(o, "disk", jstr(q->disk));
	add(o, "dma_device", jstr(q->dma_device));
	add(lim, "max_sectors_kb", i64_or_null(q->max_sectors_kb));
	add(lim, "max_hw_sectors_kb", i64_or_null(q->max_hw_sectors_kb));
	add(lim, "max_segments", i64_or_null(q->max_segments));
	add(lim, "max_segment_size", i64_or_null(q->max_segment_size));
	add(lim, "logical_block_size", i64_or_null(q->logical_block_size));
	add(lim, "dma_alignment", i64_or_null(q->dma_alignment));
	add(o, "queue", lim);
	add(o, "verdict", b->dr ? jstr(verdict_to_string(b->dr->verdict)) : NULL);
	add(o, "legacy_block", b->dr ? legacy_json(&b->legacy) : NULL);
	add(o, "udev", udev_json(&q->udev));
	return o;
}

#define JSON_FLAGS (JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE)

/* Print v pretty, every line after the first indented by indent spaces; v is put. */
static int emit(FILE *out, struct json_object *v, unsigned indent)
{
	static const char spaces[] = "        ";
	const char *s = v ? json_object_to_json_string_ext(v, JSON_FLAGS) : "null";
	int e = 0;

	if (!s) {
		json_object_put(v);
		return -ENOMEM;
	}
	if (indent > sizeof(spaces) - 1)
		indent = sizeof(spaces) - 1;
	/* whole lines at a time: the output of 10,000 devices is ~40 MB */
	while (*s && e == 0) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) + 1 : strlen(s);
		if (fwrite(s, 1, n, out) != n || (nl && fwrite(spaces, 1, indent, out) != indent))
			e = -EIO;
		s += n;
	}
	json_object_put(v);
	return e;
}

static int emit_member(FILE *out, const char *key, struct json_object *v, bool *first)
{
	if (fprintf(out, "%s\n  \"%s\": ", *first ? "{" : ",", key) < 0) {
		json_object_put(v);
		return -EIO;
	}
	*first = false;
	return emit(out, v, 2);
}

/*
 * The document is streamed member by member, and devices[] and block[] one
 * element at a time, so memory stays flat however many devices there are.
 */
int render_json(FILE *out, const struct machine *m, const struct report *r)
{
	struct json_object *tool = json_object_new_object();
	struct json_object *iommu = json_object_new_object();
	bool first = true;
	int e;

	if (!tool || !iommu) {
		json_object_put(tool);
		json_object_put(iommu);
		return -ENOMEM;
	}
	add(tool, "name", jstr(PACKAGE_NAME));
	add(tool, "version", jstr(PACKAGE_VERSION));
	add(iommu, "groups_present", json_object_new_boolean(m->iommu_groups_present));

	e = emit_member(out, "schema_version", json_object_new_int(SCHEMA_VERSION), &first);
	if (e == 0)
		e = emit_member(out, "tool", tool, &first);
	else
		json_object_put(tool);
	if (e == 0)
		e = emit_member(out, "generated_at", jtime(r->generated_at), &first);
	if (e == 0)
		e = emit_member(out, "host", host_json(m), &first);
	if (e == 0)
		e = emit_member(out, "inputs", inputs_json(m), &first);
	if (e == 0)
		e = emit_member(out, "kernel", kernel_json(m, r), &first);
	if (e == 0)
		e = emit_member(out, "memory", memory_json(&r->layout), &first);
	if (e == 0)
		e = emit_member(out, "swiotlb", swiotlb_json(m, &r->swiotlb), &first);
	if (e == 0)
		e = emit_member(out, "iommu", iommu, &first);
	else
		json_object_put(iommu);
	if (e == 0)
		e = emit_member(out, "observation", observation_json(m, r), &first);

	if (e == 0 && fputs(",\n  \"devices\": [", out) < 0)
		e = -EIO;
	for (size_t i = 0; e == 0 && i < r->devices.n_devices; i++) {
		if (fputs(i ? ",\n    " : "\n    ", out) < 0)
			e = -EIO;
		else
			e = emit(out, device_json(&r->devices.devices[i], m->observed.window_seconds), 4);
	}
	if (e == 0 && fputs(r->devices.n_devices ? "\n  ],\n  \"block\": [" : "],\n  \"block\": [", out) < 0)
		e = -EIO;
	for (size_t i = 0; e == 0 && i < r->devices.n_blocks; i++) {
		if (fputs(i ? ",\n    " : "\n    ", out) < 0)
			e = -EIO;
		else
			e = emit(out, block_json(&r->devices.blocks[i]), 4);
	}
	if (e == 0 && fputs(r->devices.n_blocks ? "\n  ]" : "]", out) < 0)
		e = -EIO;
	if (e == 0)
		e = emit_member(out, "findings", findings_json(&r->findings), &first);
	if (e == 0)
		e = emit_member(out, "exit_status", json_object_new_int(r->exit_status), &first);
	if (e == 0 && fputs("\n}\n", out) < 0)
		e = -EIO;
	return e;
}
