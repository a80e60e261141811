/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * JSON lines (--format ndjson) for a log pipeline or a columnar store: a
 * "device" record per device, then one "machine" record with the findings
 * no device owns. Every record has the same keys, and carries the run's
 * time, host and kernel, so each line stands alone in Loki, ClickHouse or
 * BigQuery. The machine's facts a fleet groups by (RAM, base PFN, the
 * swiotlb pool) and the device's PCI id ride on every record too, flat, so a
 * log store can count devices on hosts with no pool without the document.
 * The device and finding objects are the document's (schema:
 * definitions/ndjson_record).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/columns.h"
#include "render/json-parts.h"
#include "render/render.h"
#include "shared/macro.h"

#define NDJSON_SCHEMA_VERSION 2

/* The findings of device id (NULL: the machine's own). */
static void findings_of(struct json_writer *w, const struct findings *f, const char *id)
{
	jw_open_array(w, "findings");
	for (size_t i = 0; i < f->n; i++) {
		const char *d = f->v[i].device;
		if (id ? d && strcmp(d, id) == 0 : !d)
			json_finding(w, &f->v[i]);
	}
	jw_close_array(w);
}

/* "8086:2922", lspci -n's vendor:device, for a store to group by one key; null: not PCI. */
static void pci_id(struct json_writer *w, const struct device_report *dr)
{
	char s[sizeof("ffff:ffff")];

	if (!dr || !dr->dev->have_pci_ids) {
		jw_null(w, "pci_id");
		return;
	}
	snprintf(s, sizeof(s), "%04x:%04x", dr->dev->vendor, dr->dev->device_id);
	jw_string(w, "pci_id", s);
}

/* What the document's memory and swiotlb say of them, null where they say unknown. */
static void machine_facts(struct json_writer *w, const struct report *r)
{
	const struct layout *l = &r->layout;
	const struct swiotlb_state *s = &r->swiotlb;
	bool have = l->source != LAYOUT_SOURCE_NONE;

	json_opt_u64(w, "ram_bytes", have, l->ram_bytes);
	json_opt_u64(w, "base_pfn", have, l->base_pfn);
	json_tristate(w, "swiotlb_active", s->active);
	json_opt_u64(w, "swiotlb_size_bytes", s->size_bytes.known, s->size_bytes.v);
	json_opt_hex(w, "swiotlb_pool_start", s->pool.known, s->pool.start);
	json_opt_hex(w, "swiotlb_pool_end", s->pool.known, s->pool.end - 1);
}

static void record(struct json_writer *w, const struct machine *m, const struct report *r,
		   const struct device_report *dr)
{
	jw_open_object(w, NULL);
	jw_int(w, "schema_version", NDJSON_SCHEMA_VERSION);
	jw_string(w, "record", dr ? "device" : "machine");
	json_time_utc(w, "generated_at", r->generated_at);
	jw_string(w, "hostname", m->hostname.value);
	jw_string(w, "arch", m->arch.value);
	jw_string(w, "kernel_release", m->release.value);
	jw_string(w, "kernel_stable_release", m->stable_release.value);
	jw_bool(w, "live", m->live);
	machine_facts(w, r);
	pci_id(w, dr);
	if (dr)
		json_device(w, "device", dr, m->observed.window_seconds);
	else
		jw_null(w, "device");
	findings_of(w, &r->findings, dr ? dr->dev->id : NULL);
	jw_int(w, "exit_status", r->exit_status);
	jw_close_object(w);
}

int render_ndjson(FILE *out, const struct machine *m, const struct report *r, const struct render_options *o)
{
	_cleanup_free_ size_t *order = columns_order(&r->devices, o ? o->sort : NULL);
	struct json_writer w;

	if (!order)
		return -ENOMEM;
	jw_begin_lines(&w, out);
	for (size_t i = 0; i < r->devices.n_devices && w.err == 0; i++)
		record(&w, m, r, &r->devices.devices[order[i]]);
	record(&w, m, r, NULL);
	return jw_end(&w);
}
