/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The JSON report (schema/dmamask-audit.schema.json). Addresses, PFNs and
 * masks are "0x..." strings (JSON numbers above 2^53 lose precision in jq and
 * JavaScript); counts and sizes are integers. Every string is made valid
 * UTF-8 first: kernel text can hold any byte.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/eras.h"
#include "analysis/prediction-check.h"
#include "render/columns.h"
#include "render/device-table.h"
#include "render/json-parts.h"
#include "render/json-writer.h"
#include "render/render.h"
#include "shared/errno-util.h"
#include "shared/kernel-defs.h"
#include "shared/rfc3339.h"
#include "shared/macro.h"
#include "shared/sat.h"
#include "shared/string-table.h"

#define SCHEMA_VERSION 2







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
	bool low = have && l->lowmem.known;

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
	json_opt_u64(w, "ram_bytes", have, l->ram_bytes);
	json_opt_u64(w, "highmem_bytes", low, l->lowmem.highmem_bytes);
	json_opt_u64(w, "base_pfn", have, l->base_pfn);
	json_opt_u64(w, "end_pfn", have, l->end_pfn);
	json_opt_u64(w, "lowmem_end_pfn", low, l->lowmem.end_pfn);
	jw_string(w, "lowmem_end_source", low ? l->lowmem.source : NULL);
	json_opt_u64(w, "low_page_count", low, l->lowmem.page_count);
	json_opt_u64(w, "max_low_pfn_as_count", low, l->lowmem.max_low_pfn_as_count);
	json_opt_u64(w, "max_low_pfn_as_pfn", low, l->lowmem.max_low_pfn_as_pfn);
	jw_open_array(w, "zones");
	for (size_t i = 0; i < l->n_zones; i++) {
		const struct zone *z = &l->zones[i];
		jw_open_object(w, NULL);
		jw_int(w, "node", z->node);
		jw_string(w, "name", z->name);
		json_opt_u64(w, "start_pfn", z->populated, z->start_pfn);
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
	for (size_t i = 0; i < f->n; i++)
		json_finding(w, &f->v[i]);
	jw_close_array(w);
}

static const char *const block_bounce_table[] = {
	[BLOCK_BOUNCE_PFN] = "pfn-arithmetic",
	[BLOCK_BOUNCE_NEVER_HIGHMEM] = "highmem-only-never-runs",
	[BLOCK_BOUNCE_NONE] = "removed",
};
DEFINE_PRIVATE_STRING_TABLE_LOOKUP_TO_STRING(block_bounce, enum block_bounce);

static void kernel_json(struct json_writer *w, const struct machine *m, const struct report *r)
{
	jw_open_object(w, "kernel");
	jw_string(w, "release", m->release.value);
	jw_bool(w, "version_known", r->release != 0);
	jw_string(w, "stable_release", m->stable_release.value);
	jw_string(w, "stable_release_source", m->stable_release.source);
	jw_string(w, "arch_family", arch_family_to_string(r->arch_family));
	json_opt_int(w, "bits", r->bits.known, r->bits.v);
	jw_string(w, "max_low_pfn_reading", json_reading_name(r->max_low_pfn_reading));
	jw_string(w, "max_low_pfn_source", r->max_low_pfn_source);
	jw_string(w, "block_bounce", block_bounce_to_string(r->block_bounce));
	jw_string(w, "block_bounce_source", r->block_bounce_source);
	if (r->arch_family == ARCH_ARM)
		json_tristate(w, "arm_lpae", r->swiotlb.arm_lpae);
	else
		jw_null(w, "arm_lpae");
	jw_string(w, "arm_lpae_why", r->swiotlb.arm_lpae_why);
	json_opt_hex(w, "arm_cr", m->arm_cr.known && r->arch_family == ARCH_ARM, m->arm_cr.v);
	jw_close_object(w);
}

static void swiotlb_json(struct json_writer *w, const struct machine *m, const struct swiotlb_state *s)
{
	jw_open_object(w, "swiotlb");
	json_tristate(w, "active", s->active);
	jw_string(w, "active_provenance", provenance_to_string(s->active_prov));
	jw_string(w, "active_why", s->active_why);
	json_opt_hex(w, "pool_start", s->pool.known, s->pool.start);
	json_opt_hex(w, "pool_end", s->pool.known, s->pool.end - 1);
	json_opt_hex(w, "pool_limit", s->pool_limit.known, s->pool_limit.v);
	jw_string(w, "pool_limit_provenance",
		  s->pool_limit.known ? provenance_to_string(s->pool_limit_prov) : NULL);
	jw_string(w, "pool_limit_why", s->pool_limit.known ? s->pool_limit_why : NULL);
	json_opt_u64(w, "size_bytes", s->size_bytes.known, s->size_bytes.v);
	jw_string(w, "size_provenance", s->size_bytes.known ? provenance_to_string(s->size_prov) : NULL);
	jw_string(w, "size_why", s->size_bytes.known ? s->size_why : NULL);
	json_opt_u64(w, "areas", s->areas.known, s->areas.v);
	json_opt_u64(w, "possible_cpus", m->cpus_possible.known, m->cpus_possible.v);
	json_opt_u64(w, "used_bytes", s->used_bytes.known, s->used_bytes.v);
	json_opt_u64(w, "hiwater_bytes", s->hiwater_bytes.known, s->hiwater_bytes.v);
	jw_bool(w, "forced", s->forced);
	jw_string(w, "forced_why", s->forced_why);
	jw_bool(w, "xen_pv", s->xen_pv);
	/* as this release reads swiotlb= (ERA_SWIOTLB_PARAM), not word for word */
	jw_bool(w, "cmdline_force", s->cmdline_force);
	jw_bool(w, "cmdline_noforce", s->cmdline_noforce);
	json_opt_u64(w, "cmdline_slabs", m->cmd.swiotlb_slabs.known, m->cmd.swiotlb_slabs.v);
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
	json_opt_u64(w, "lost_events", ob->lost_events.known, ob->lost_events.v);
	jw_u64(w, "bad_lines", ob->bad_lines);
	jw_string(w, "tracefs", ob->tracefs);
	jw_bool(w, "event_format_known", ob->format_known);
	jw_u64(w, "buffer_full_messages", ob->full_messages);
	if (ob->traffic_known) {
		jw_open_array(w, "traffic");
		for (size_t i = 0; i < ob->n_traffic; i++) {
			const struct observed_traffic *t = &ob->traffic[i];
			jw_open_object(w, NULL);
			jw_string(w, "name", t->name);
			jw_string(w, "kind", t->kind == TRAFFIC_BLOCK ? "disk" : "interface");
			jw_u64(w, "operations", t->ops);
			jw_u64(w, "bytes", t->bytes);
			jw_close_object(w);
		}
		jw_close_array(w);
	} else {
		jw_null(w, "traffic");
	}
	if (ob->probe_disk) {
		jw_open_object(w, "probe");
		jw_string(w, "disk", ob->probe_disk);
		json_opt_hex(w, "reach_end", ob->probe_reach_end.known, ob->probe_reach_end.v);
		jw_u64(w, "bytes", ob->probe_bytes);
		jw_u64(w, "above_reach_bytes", ob->probe_above_reach_bytes);
		jw_u64(w, "allocated_bytes", ob->probe_allocated_bytes);
		jw_string(w, "why", ob->probe_why);
		jw_close_object(w);
	} else {
		jw_null(w, "probe");
	}
	bool have_peak = observation_pool_peak(ob, &peak, &exact);
	json_opt_u64(w, "pool_peak_used_bytes", have_peak, sat_shl(peak, IO_TLB_SHIFT));
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


static void block_json(struct json_writer *w, const struct block_report *b)
{
	const struct block_queue *q = b->q;

	jw_open_object(w, NULL);
	jw_string(w, "disk", q->disk);
	jw_string(w, "dma_device", q->dma_device);
	jw_open_object(w, "queue");
	json_opt_int(w, "max_sectors_kb", q->max_sectors_kb.known, q->max_sectors_kb.v);
	json_opt_int(w, "max_hw_sectors_kb", q->max_hw_sectors_kb.known, q->max_hw_sectors_kb.v);
	json_opt_int(w, "max_segments", q->max_segments.known, q->max_segments.v);
	json_opt_int(w, "max_segment_size", q->max_segment_size.known, q->max_segment_size.v);
	json_opt_int(w, "logical_block_size", q->logical_block_size.known, q->logical_block_size.v);
	json_opt_int(w, "dma_alignment", q->dma_alignment.known, q->dma_alignment.v);
	jw_close_object(w);
	jw_string(w, "verdict", b->dr ? verdict_to_string(b->dr->verdict) : NULL);
	if (b->dr)
		json_legacy(w, "legacy_block", device_legacy(b->dr));
	else
		jw_null(w, "legacy_block");
	json_udev(w, q->udev);
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
	jw_bool(w, "all_clear", report_all_clear(r));
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
		jw_string(w, "worst_severity",
			  dr->worst_severity.known ? severity_to_string(dr->worst_severity.v) : NULL);
		jw_close_object(w);
	}
	jw_close_array(w);
	jw_close_object(w);
}

int render_json(FILE *out, const struct machine *m, const struct report *r, const struct render_options *o)
{
	struct json_writer w;

	if (o && o->columns) /* -J -o, as lsblk: the device table's columns, not the document */
		return device_table_print(out, r, o, true);
	_cleanup_free_ size_t *order = columns_order(&r->devices, o ? o->sort : NULL);
	if (!order)
		return -ENOMEM;
	jw_begin(&w, out);
	jw_open_object(&w, NULL);
	jw_int(&w, "schema_version", SCHEMA_VERSION);
	jw_open_object(&w, "tool");
	jw_string(&w, "name", PACKAGE_NAME);
	jw_string(&w, "version", PACKAGE_VERSION);
	jw_close_object(&w);
	json_time_utc(&w, "generated_at", r->generated_at);
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
		json_device(&w, NULL, &r->devices.devices[order[i]], m->observed.window_seconds);
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
