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

#include "render/render.h"
#include "shared/errno-util.h"
#include "shared/macro.h"
#include "shared/strbuf.h"

#define SCHEMA_VERSION 1

/* Length of the valid UTF-8 sequence at s (RFC 3629), 0 when invalid. */
static size_t utf8_seq_len(const unsigned char *s, size_t left)
{
	size_t n;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n > left)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

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
		add(o, "id", jstr(x->id));
		add(o, "severity", jstr(severity_to_string(x->severity)));
		add(o, "device", jstr(x->device));
		add(o, "message", jstr(x->message));
		for (size_t j = 0; j < x->n_evidence; j++) {
			const struct evidence *e = &x->evidence[j];
			add(ev, e->key, e->type == EVIDENCE_U64   ? ju64(e->u)
					: e->type == EVIDENCE_HEX ? jhex(e->u)
								  : jstr(e->s));
		}
		add(o, "evidence", ev);
		add(o, "remedy", jstr(x->remedy));
		json_object_array_add(a, o);
	}
	return a;
}

int render_json(FILE *out, const struct machine *m, const struct report *r)
{
	struct json_object *root = json_object_new_object();
	struct json_object *tool = json_object_new_object();

	if (!root || !tool) {
		json_object_put(root);
		json_object_put(tool);
		return -ENOMEM;
	}
	add(tool, "name", jstr(PACKAGE_NAME));
	add(tool, "version", jstr(PACKAGE_VERSION));
	add(root, "schema_version", json_object_new_int(SCHEMA_VERSION));
	add(root, "tool", tool);
	add(root, "host", host_json(m));
	add(root, "inputs", inputs_json(m));
	add(root, "memory", memory_json(&r->layout));
	add(root, "findings", findings_json(&r->findings));
	add(root, "exit_status", json_object_new_int(r->exit_status));

	const char *s = json_object_to_json_string_ext(
		root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);
	int e = 0;
	if (!s)
		e = -ENOMEM;
	else if (fputs(s, out) < 0 || fputc('\n', out) < 0)
		e = -EIO;
	json_object_put(root);
	return e;
}
