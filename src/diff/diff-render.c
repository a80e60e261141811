/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diff/diff-render.h"
#include "render/json-writer.h"
#include "render/text-util.h"
#include "shared/strbuf.h"

#define DIFF_SCHEMA_VERSION 1

static const char *side_str(json_object *doc, const char *a, const char *b)
{
	json_object *o = NULL, *v = NULL;

	if (!json_object_object_get_ex(doc, a, &o) || !json_object_object_get_ex(o, b, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static bool is_bytes(const char *name)
{
	size_t n = strlen(name);
	return n > 6 && strcmp(name + n - 6, "_bytes") == 0;
}

/* A page frame number (JSON keeps it an integer): hex, as the text report writes PFNs. */
static bool is_pfn(const char *name, json_object *v)
{
	size_t n = strlen(name);
	return v && json_object_is_type(v, json_type_int) && n > 4 && strcmp(name + n - 4, "_pfn") == 0;
}

/* A value as the text report shows it: sizes in units (bytes with -b), PFNs in hex, absent as "-". */
static void append_value(struct strbuf *b, const char *name, json_object *v, bool bytes)
{
	if (!v)
		strbuf_append(b, "-");
	else if (json_object_is_type(v, json_type_int) && is_bytes(name))
		text_append_size(b, (uint64_t)json_object_get_int64(v), bytes);
	else if (is_pfn(name, v))
		strbuf_append_hex(b, (uint64_t)json_object_get_int64(v));
	else if (json_object_is_type(v, json_type_string))
		text_append_safe(b, json_object_get_string(v));
	else
		strbuf_append(b, json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
}

static char *value_text(const char *name, json_object *v, bool bytes)
{
	struct strbuf b = { 0 };

	append_value(&b, name, v, bytes);
	return strbuf_steal(&b);
}

/*
 * "5.9 GiB -> 5.9 GiB" hides 8 KiB: a size on both sides shows its delta,
 * and exact bytes when its rounded values read the same.
 */
static void print_field(FILE *out, const struct diff_field *f, unsigned indent, bool bytes)
{
	bool sizes = is_bytes(f->name) && json_object_is_type(f->old_value, json_type_int) &&
		     json_object_is_type(f->new_value, json_type_int);
	_cleanup_free_ char *o = value_text(f->name, f->old_value, bytes);
	_cleanup_free_ char *w = value_text(f->name, f->new_value, bytes);
	struct strbuf b = { 0 };

	if (sizes && !bytes && o && w && strcmp(o, w) == 0) {
		free(o);
		free(w);
		o = value_text(f->name, f->old_value, true);
		w = value_text(f->name, f->new_value, true);
	}
	strbuf_append(&b, o ?: "?");
	strbuf_append(&b, " -> ");
	strbuf_append(&b, w ?: "?");
	if (sizes) {
		/* the report's sizes are u64 written as JSON integers: json-c reads them as int64 */
		uint64_t a = (uint64_t)json_object_get_int64(f->old_value);
		uint64_t z = (uint64_t)json_object_get_int64(f->new_value);
		strbuf_append(&b, z >= a ? " (+" : " (-");
		text_append_size(&b, z >= a ? z - a : a - z, bytes);
		strbuf_append(&b, ")");
	}
	_cleanup_free_ char *t = strbuf_steal(&b);
	fprintf(out, "%*s%-22s %s\n", (int)indent, "", f->name, t ? t : "?");
}

/*
 * When the side's facts were true: a snapshot's captured_at (this run audited
 * it just now, so its generated_at says nothing), a report's generated_at and,
 * when that report was of a snapshot, the capture's time too.
 */
static void print_when(FILE *out, const struct diff_side *s)
{
	const char *captured = side_str(s->doc, "host", "captured_at");
	json_object *t = NULL;

	if (s->snapshot) {
		fputs(", captured_at ", out);
		text_put_safe(out, captured ?: "unknown (no captured_at in its MANIFEST)");
		return;
	}
	fputs(", generated_at ", out);
	if (json_object_object_get_ex(s->doc, "generated_at", &t) && json_object_is_type(t, json_type_string))
		text_put_safe(out, json_object_get_string(t));
	else
		fputs("unknown", out);
	if (captured) {
		fputs(" of a snapshot captured_at ", out);
		text_put_safe(out, captured);
	}
}

static void print_side(FILE *out, const char *label, const struct diff_side *s)
{
	const char *stable = side_str(s->doc, "kernel", "stable_release");

	fprintf(out, "%s ", label);
	text_put_safe(out, s->name);
	fputs(": ", out);
	text_put_safe(out, side_str(s->doc, "host", "hostname") ?: "(hostname unknown)");
	fputs(", Linux ", out);
	text_put_safe(out, side_str(s->doc, "kernel", "release") ?: "(release unknown)");
	if (stable) {
		fputs(" (", out);
		text_put_safe(out, stable);
		fputc(')', out);
	}
	print_when(out, s);
	fputc('\n', out);
}

/* "ehci-pci [8086:24cd]": the driver ("no driver" when unbound) and its PCI ids when it has them. */
static void put_card(FILE *out, const char *driver, const char *pci_id)
{
	text_put_safe(out, driver ?: "(no driver)");
	if (*pci_id)
		fprintf(out, " [%s]", pci_id);
}

static void print_device(FILE *out, const struct diff_device *x, bool bytes)
{
	fprintf(out, "  %-8s ", diff_kind_to_string(x->kind) ?: "?");
	text_put_safe(out, x->id);
	if (x->kind == DIFF_REPLACED) {
		fputs(": ", out);
		put_card(out, x->old_driver, x->old_pci_id);
		fputc(' ', out);
		text_put_safe(out, x->old_verdict ?: "-");
		fputs(" -> ", out);
		put_card(out, x->driver, x->pci_id);
		fputc(' ', out);
		text_put_safe(out, x->new_verdict ?: "-");
		fputs(x->worse ? " (worse)\n" : "\n", out);
		if (x->old_id_path && x->id_path && strcmp(x->old_id_path, x->id_path) != 0) {
			fprintf(out, "%11s%-22s ", "", "udev.ID_PATH");
			text_put_safe(out, x->old_id_path);
			fputs(" -> ", out);
			text_put_safe(out, x->id_path);
			fputc('\n', out);
		}
		return;
	}
	if (x->driver) {
		fputc(' ', out);
		text_put_safe(out, x->driver);
	}
	fputs(": ", out);
	if (x->kind == DIFF_CHANGED && strcmp(x->old_verdict ?: "", x->new_verdict ?: "") != 0) {
		text_put_safe(out, x->old_verdict ?: "-");
		fputs(" -> ", out);
	}
	text_put_safe(out, (x->kind == DIFF_REMOVED ? x->old_verdict : x->new_verdict) ?: "-");
	fputs(x->worse ? " (worse)\n" : "\n", out);
	for (size_t i = 0; i < x->n_fields; i++)
		if (strcmp(x->fields[i].name, "verdict") != 0)
			print_field(out, &x->fields[i], 11, bytes);
}

static void print_finding(FILE *out, const struct diff_finding *x)
{
	const char *kind = !x->old_severity ? "added" : !x->new_severity ? "removed" : "changed";

	fprintf(out, "  %-8s ", kind);
	if (x->old_severity && x->new_severity)
		fprintf(out, "%s -> %s ", x->old_severity, x->new_severity);
	else
		fprintf(out, "%-7s ", x->new_severity ?: x->old_severity);
	text_put_safe(out, x->id);
	fputc(' ', out);
	text_put_safe(out, x->device ?: "(machine)");
	fputs(x->worse ? " (worse)\n" : "\n", out);
}


/* "  DEVICE, DEVICE: TEXT", wrapped to the terminal with a hanging indent. */
static void print_note(FILE *out, const char *devices, const char *text, unsigned width)
{
	struct strbuf b = { 0 };

	if (devices) {
		strbuf_append(&b, devices);
		strbuf_append(&b, ": ");
	}
	text_append_safe(&b, text);
	_cleanup_free_ char *t = strbuf_steal(&b);
	fputs("  ", out);
	if (t)
		text_print_wrapped(out, t, 2, 4, width); /* its newline too */
	else
		fputc('\n', out);
}

/* --what-if: the changes as given and applied, before the comparison. */
static void print_changes(FILE *out, const struct diff_what_if *wi, unsigned width)
{
	fputs("\nChanges\n", out);
	for (size_t i = 0; i < wi->n_applied; i++)
		print_note(out, NULL, wi->applied[i], width);
}

/* --what-if: what the comparison stands on that no input showed; one line per text, its devices together. */
static void print_assumptions(FILE *out, const struct diff_what_if *wi, unsigned width)
{
	if (!wi->n_assumptions)
		return;
	fputs("\nAssumptions\n", out);
	for (size_t i = 0; i < wi->n_assumptions; i++) {
		const struct diff_note *a = &wi->assumptions[i];
		bool said = false;
		for (size_t k = 0; k < i && !said; k++)
			said = strcmp(wi->assumptions[k].text, a->text) == 0 && !wi->assumptions[k].device == !a->device;
		if (said)
			continue;
		struct strbuf devs = { 0 };
		for (size_t k = i; a->device && k < wi->n_assumptions; k++)
			if (wi->assumptions[k].device && strcmp(wi->assumptions[k].text, a->text) == 0) {
				if (devs.len)
					strbuf_append(&devs, ", ");
				text_append_safe(&devs, wi->assumptions[k].device);
			}
		_cleanup_free_ char *d = strbuf_steal(&devs);
		print_note(out, d && *d ? d : NULL, a->text, width);
	}
}

int diff_render_text(FILE *out, const struct report_diff *d, const struct diff_side *old,
		     const struct diff_side *new, enum severity fail_on, bool bytes, const struct diff_what_if *wi)
{
	unsigned width = text_columns(isatty(fileno(out)));
	size_t worse = 0;

	print_side(out, wi ? "today" : "old", old);
	print_side(out, wi ? "after" : "new", new);
	if (wi)
		print_changes(out, wi, width);
	if (d->n_machine) {
		fputs("\nMachine\n", out);
		for (size_t i = 0; i < d->n_machine; i++)
			print_field(out, &d->machine[i], 2, bytes);
	}
	if (d->n_devices) {
		fputs("\nDevices\n", out);
		for (size_t i = 0; i < d->n_devices; i++) {
			print_device(out, &d->devices[i], bytes);
			worse += d->devices[i].worse;
		}
	}
	if (d->n_findings) {
		fputs("\nFindings\n", out);
		for (size_t i = 0; i < d->n_findings; i++) {
			print_finding(out, &d->findings[i]);
			worse += d->findings[i].worse;
		}
	}
	if (wi)
		print_assumptions(out, wi, width);
	if (!d->n_machine && !d->n_devices && !d->n_findings)
		fputs(wi ? "\nThe change leaves the machine's verdicts, devices and findings as they are.\n"
			 : "\nNo change in the machine, its devices or its findings.\n", out);
	else
		fprintf(out, "\n%zu device%s and %zu finding%s changed; %zu worse at or above %s\n",
			d->n_devices, d->n_devices == 1 ? "" : "s", d->n_findings,
			d->n_findings == 1 ? "" : "s", worse, severity_to_string(fail_on));
	return ferror(out) ? -EIO : 0;
}

/* A value of the report as it was there: string, number, boolean or null. */
static void jw_value(struct json_writer *w, const char *key, json_object *v)
{
	switch (v ? json_object_get_type(v) : json_type_null) {
	case json_type_string:
		jw_string(w, key, json_object_get_string(v));
		break;
	case json_type_int:
		jw_int(w, key, json_object_get_int64(v));
		break;
	case json_type_boolean:
		jw_bool(w, key, json_object_get_boolean(v));
		break;
	case json_type_double:
		jw_double(w, key, json_object_get_double(v));
		break;
	default: /* the fields compared are scalars; anything else is not one we know */
		jw_null(w, key);
	}
}

static void fields_json(struct json_writer *w, const char *key, const struct diff_field *f, size_t n)
{
	jw_open_array(w, key);
	for (size_t i = 0; i < n; i++) {
		jw_open_object(w, NULL);
		jw_string(w, "field", f[i].name);
		jw_value(w, "old", f[i].old_value);
		jw_value(w, "new", f[i].new_value);
		jw_close_object(w);
	}
	jw_close_array(w);
}

static void side_json(struct json_writer *w, const char *key, const struct diff_side *s)
{
	jw_open_object(w, key);
	jw_string(w, "source", s->name);
	jw_string(w, "hostname", side_str(s->doc, "host", "hostname"));
	jw_string(w, "kernel_release", side_str(s->doc, "kernel", "release"));
	jw_string(w, "kernel_stable_release", side_str(s->doc, "kernel", "stable_release"));
	jw_string(w, "kind", s->snapshot ? "snapshot" : "report");
	jw_string(w, "captured_at", side_str(s->doc, "host", "captured_at"));
	/* a snapshot's report is this run's: its time would be now, not the side's */
	json_object *t = NULL;
	jw_value(w, "generated_at",
		 !s->snapshot && json_object_object_get_ex(s->doc, "generated_at", &t) ? t : NULL);
	jw_close_object(w);
}

/* --what-if's block; null for --diff. */
static void what_if_json(struct json_writer *w, const struct diff_what_if *wi)
{
	if (!wi) {
		jw_null(w, "what_if");
		return;
	}
	jw_open_object(w, "what_if");
	jw_open_array(w, "changes");
	for (size_t i = 0; i < wi->n_changes; i++)
		jw_string(w, NULL, wi->changes[i]);
	jw_close_array(w);
	jw_open_array(w, "applied");
	for (size_t i = 0; i < wi->n_applied; i++)
		jw_string(w, NULL, wi->applied[i]);
	jw_close_array(w);
	jw_open_array(w, "assumptions");
	for (size_t i = 0; i < wi->n_assumptions; i++) {
		jw_open_object(w, NULL);
		jw_string(w, "device", wi->assumptions[i].device);
		jw_string(w, "text", wi->assumptions[i].text);
		jw_close_object(w);
	}
	jw_close_array(w);
	jw_close_object(w);
}

int diff_render_json(FILE *out, const struct report_diff *d, const struct diff_side *old,
		     const struct diff_side *new, enum severity fail_on, const struct diff_what_if *wi)
{
	struct json_writer w;

	jw_begin(&w, out);
	jw_open_object(&w, NULL);
	jw_int(&w, "diff_schema_version", DIFF_SCHEMA_VERSION);
	side_json(&w, "old", old);
	side_json(&w, "new", new);
	jw_string(&w, "fail_on", severity_to_string(fail_on));
	jw_bool(&w, "worse", d->worse);
	what_if_json(&w, wi);
	fields_json(&w, "machine", d->machine, d->n_machine);
	jw_open_array(&w, "devices");
	for (size_t i = 0; i < d->n_devices; i++) {
		const struct diff_device *x = &d->devices[i];
		jw_open_object(&w, NULL);
		jw_string(&w, "id", x->id);
		jw_string(&w, "change", diff_kind_to_string(x->kind));
		jw_string(&w, "driver", x->driver);
		jw_string(&w, "pci_id", *x->pci_id ? x->pci_id : NULL);
		if (x->kind == DIFF_REPLACED) {
			jw_open_object(&w, "replaced");
			jw_string(&w, "driver", x->old_driver);
			jw_string(&w, "pci_id", *x->old_pci_id ? x->old_pci_id : NULL);
			jw_string(&w, "id_path", x->old_id_path);
			jw_close_object(&w);
		} else {
			jw_null(&w, "replaced");
		}
		jw_string(&w, "old_verdict", x->old_verdict);
		jw_string(&w, "new_verdict", x->new_verdict);
		jw_bool(&w, "worse", x->worse);
		fields_json(&w, "fields", x->fields, x->n_fields);
		jw_close_object(&w);
	}
	jw_close_array(&w);
	jw_open_array(&w, "findings");
	for (size_t i = 0; i < d->n_findings; i++) {
		const struct diff_finding *x = &d->findings[i];
		jw_open_object(&w, NULL);
		jw_string(&w, "id", x->id);
		jw_string(&w, "device", x->device);
		jw_string(&w, "change", !x->old_severity ? "added" : !x->new_severity ? "removed" : "severity");
		jw_string(&w, "old_severity", x->old_severity);
		jw_string(&w, "new_severity", x->new_severity);
		jw_bool(&w, "worse", x->worse);
		jw_close_object(&w);
	}
	jw_close_array(&w);
	jw_int(&w, "exit_status", d->worse ? 1 : 0);
	jw_close_object(&w);
	return jw_end(&w);
}
