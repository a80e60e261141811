/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * JSON lines (--format ndjson) for a log pipeline or a columnar store: a
 * "device" record per device, then one "machine" record with the findings
 * no device owns. Every record has the same keys, and carries the run's
 * time, host and kernel, so each line stands alone in Loki, ClickHouse or
 * BigQuery. The device and finding objects are the document's
 * (schema: definitions/ndjson_record).
 */
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
