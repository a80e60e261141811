/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <string.h>

#include "diff/fleet-render.h"
#include "render/json-writer.h"
#include "render/text-util.h"

#define FLEET_DIFF_SCHEMA_VERSION 1
#define TEXT_HOSTS 5   /* host names a group lists in the text; -J lists them all */
#define TEXT_KERNELS 3 /* kernel pairs likewise */

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

/* "ahci [8086:2922]", or "(no driver)" when unbound. */
static void put_card(FILE *out, const char *driver, const char *pci_id)
{
	text_put_safe(out, driver ?: "(no driver)");
	if (pci_id)
		fprintf(out, " [%s]", pci_id);
}

static void put_pair(FILE *out, const char *old, const char *new)
{
	text_put_safe(out, old ?: "-");
	fputs(" -> ", out);
	text_put_safe(out, new ?: "-");
}

static void put_device(FILE *out, const struct fleet_group *g)
{
	fputs("device ", out);
	if (strcmp(g->change, "replaced") == 0) {
		fputs("replaced: ", out);
		put_card(out, g->old_driver, g->old_pci_id);
		fputc(' ', out);
		text_put_safe(out, g->old ?: "-");
		fputs(" -> ", out);
		put_card(out, g->driver, g->pci_id);
		fputc(' ', out);
		text_put_safe(out, g->new ?: "-");
		return;
	}
	put_card(out, g->driver, g->pci_id);
	if (strcmp(g->change, "changed") != 0) {
		fprintf(out, " %s: ", g->change);
		text_put_safe(out, (g->new ?: g->old) ?: "-");
	} else if (g->fields) {
		fputs(": ", out);
		text_put_safe(out, g->new ?: "-");
		fputs(", changed: ", out);
		text_put_safe(out, g->fields);
	} else {
		fputs(": ", out);
		put_pair(out, g->old, g->new);
	}
}

static void put_finding(FILE *out, const struct fleet_group *g)
{
	fputs("finding ", out);
	if (strcmp(g->change, "severity") == 0)
		put_pair(out, g->old, g->new);
	else {
		fprintf(out, "%s ", g->change);
		text_put_safe(out, (g->new ?: g->old) ?: "-");
	}
	fputc(' ', out);
	text_put_safe(out, g->name);
	if (g->machine_wide)
		fputs(" (machine)", out);
	else {
		fputs(" on ", out);
		put_card(out, g->driver, g->pci_id);
	}
}

static void put_machine(FILE *out, const struct fleet_group *g)
{
	text_put_safe(out, g->name);
	fputc(' ', out);
	if (strcmp(g->change, "changed") == 0)
		put_pair(out, g->old, g->new);
	else if (strcmp(g->change, "set") == 0)
		fputs("set (was null)", out);
	else if (strcmp(g->change, "unset") == 0)
		fputs("null (was set)", out);
	else
		fputs(g->change, out);
}

/* "kernel 5.3.18 -> 5.4.203 on all 12" (one host: its pair), or the commonest pairs with their counts. */
static void put_kernels(FILE *out, const struct fleet_group *g)
{
	fputs("    kernel", out);
	if (g->n_kernels == 1) {
		fputc(' ', out);
		put_pair(out, g->kernels[0].old, g->kernels[0].new);
		if (g->hosts > 1)
			fprintf(out, " on all %zu", g->hosts);
		fputc('\n', out);
		return;
	}
	fputs("s ", out);
	for (size_t i = 0; i < g->n_kernels && i < TEXT_KERNELS; i++) {
		if (i)
			fputs(", ", out);
		put_pair(out, g->kernels[i].old, g->kernels[i].new);
		fprintf(out, " on %zu", g->kernels[i].hosts);
	}
	if (g->n_kernels > TEXT_KERNELS)
		fprintf(out, " and %zu pair%s more", g->n_kernels - TEXT_KERNELS, plural(g->n_kernels - TEXT_KERNELS));
	fputc('\n', out);
}

static void put_hosts(FILE *out, const struct fleet_group *g)
{
	fputs("    host", out);
	fputs(g->host_names.n == 1 ? " " : "s ", out);
	for (size_t i = 0; i < g->host_names.n && i < TEXT_HOSTS; i++) {
		if (i)
			fputs(", ", out);
		text_put_safe(out, g->host_names.v[i]);
	}
	if (g->host_names.n > TEXT_HOSTS)
		fprintf(out, " and %zu more", g->host_names.n - TEXT_HOSTS);
	fputc('\n', out);
}

/* --what-if: the changes every snapshot was judged after. */
static void put_what_if_head(FILE *out, const struct fleet_diff *f)
{
	fprintf(out, "what-if over a fleet: %zu snapshot%s of %zu host%s, each judged today and after", f->reports,
		plural(f->reports), f->hosts, plural(f->hosts));
	for (size_t i = 0; i < f->n_what_if; i++) {
		fputc(' ', out);
		text_put_safe(out, f->what_if[i]);
	}
	fprintf(out, "; %zu skipped\n", f->n_skipped);
}

static void put_notes(FILE *out, const struct fleet_diff *f)
{
	if (f->n_notes)
		fputs("\nAssumptions, by hosts\n", out);
	for (size_t i = 0; i < f->n_notes; i++) {
		fprintf(out, "  %zu host%s: ", f->notes[i].hosts, plural(f->notes[i].hosts));
		text_put_safe(out, f->notes[i].text);
		fputc('\n', out);
	}
}

int fleet_render_text(FILE *out, const struct fleet_diff *f)
{
	if (f->what_if)
		put_what_if_head(out, f);
	else
		fprintf(out, "fleet: %zu report%s of %zu host%s; %zu compared (each host's first report with its "
			     "last, by captured_at, else generated_at), %zu with one report, %zu skipped\n",
			f->reports, plural(f->reports), f->hosts, plural(f->hosts), f->compared, f->single,
			f->n_skipped);
	fprintf(out, "%zu host%s changed, %zu unchanged; %zu worse at or above %s\n", f->compared - f->unchanged,
		plural(f->compared - f->unchanged), f->unchanged, f->worse_hosts, severity_to_string(f->fail_on));
	if (f->n_groups)
		fputs("\nChanges, worse first, then by hosts\n", out);
	for (size_t i = 0; i < f->n_groups; i++) {
		const struct fleet_group *g = &f->groups[i];
		fprintf(out, "  %zu host%s", g->hosts, plural(g->hosts));
		if (g->worse_hosts)
			fprintf(out, " (%zu worse)", g->worse_hosts);
		fputs(": ", out);
		if (g->subject == FLEET_DEVICE)
			put_device(out, g);
		else if (g->subject == FLEET_FINDING)
			put_finding(out, g);
		else
			put_machine(out, g);
		fputc('\n', out);
		put_kernels(out, g);
		put_hosts(out, g);
	}
	put_notes(out, f);
	if (f->n_skipped)
		fputs("\nSkipped\n", out);
	for (size_t i = 0; i < f->n_skipped; i++) {
		fputs("  ", out);
		text_put_safe(out, f->skipped[i].source);
		fputs(": ", out);
		text_put_safe(out, f->skipped[i].why);
		fputc('\n', out);
	}
	return ferror(out) ? -EIO : 0;
}

/* "a,b" as ["a", "b"]; null when there is no list. */
static void fields_json(struct json_writer *w, const char *fields)
{
	if (!fields) {
		jw_null(w, "fields");
		return;
	}
	jw_open_array(w, "fields");
	for (const char *p = fields; *p;) {
		size_t n = strcspn(p, ",");
		char name[128];
		if (n < sizeof(name)) { /* the report's own key names: short */
			memcpy(name, p, n);
			name[n] = '\0';
			jw_string(w, NULL, name);
		}
		p += n + (p[n] == ',');
	}
	jw_close_array(w);
}

static void group_json(struct json_writer *w, const struct fleet_group *g)
{
	jw_open_object(w, NULL);
	jw_string(w, "subject", fleet_subject_to_string(g->subject));
	jw_string(w, "change", g->change);
	jw_string(w, "name", g->name);
	if (g->subject == FLEET_FINDING)
		jw_bool(w, "machine_wide", g->machine_wide);
	else
		jw_null(w, "machine_wide");
	jw_string(w, "driver", g->driver);
	jw_string(w, "pci_id", g->pci_id);
	if (g->subject == FLEET_DEVICE && strcmp(g->change, "replaced") == 0) {
		jw_open_object(w, "replaced");
		jw_string(w, "driver", g->old_driver);
		jw_string(w, "pci_id", g->old_pci_id);
		jw_close_object(w);
	} else {
		jw_null(w, "replaced");
	}
	jw_string(w, "old", g->old);
	jw_string(w, "new", g->new);
	fields_json(w, g->fields);
	jw_u64(w, "hosts", g->hosts);
	jw_u64(w, "worse_hosts", g->worse_hosts);
	jw_open_array(w, "host_names");
	for (size_t i = 0; i < g->host_names.n; i++)
		jw_string(w, NULL, g->host_names.v[i]);
	jw_close_array(w);
	jw_open_array(w, "kernels");
	for (size_t i = 0; i < g->n_kernels; i++) {
		jw_open_object(w, NULL);
		jw_string(w, "old", g->kernels[i].old);
		jw_string(w, "new", g->kernels[i].new);
		jw_u64(w, "hosts", g->kernels[i].hosts);
		jw_close_object(w);
	}
	jw_close_array(w);
	jw_close_object(w);
}

int fleet_render_json(FILE *out, const struct fleet_diff *f)
{
	struct json_writer w;

	jw_begin(&w, out);
	jw_open_object(&w, NULL);
	jw_int(&w, "fleet_diff_schema_version", FLEET_DIFF_SCHEMA_VERSION);
	jw_string(&w, "fail_on", severity_to_string(f->fail_on));
	jw_u64(&w, "reports", f->reports);
	jw_u64(&w, "hosts", f->hosts);
	jw_u64(&w, "compared", f->compared);
	jw_u64(&w, "single_report_hosts", f->single);
	jw_u64(&w, "unchanged", f->unchanged);
	jw_u64(&w, "worse_hosts", f->worse_hosts);
	jw_bool(&w, "worse", f->worse_hosts > 0);
	if (f->what_if) {
		jw_open_object(&w, "what_if");
		jw_open_array(&w, "changes");
		for (size_t i = 0; i < f->n_what_if; i++)
			jw_string(&w, NULL, f->what_if[i]);
		jw_close_array(&w);
		jw_open_array(&w, "assumptions");
		for (size_t i = 0; i < f->n_notes; i++) {
			jw_open_object(&w, NULL);
			jw_string(&w, "text", f->notes[i].text);
			jw_u64(&w, "hosts", f->notes[i].hosts);
			jw_close_object(&w);
		}
		jw_close_array(&w);
		jw_close_object(&w);
	} else {
		jw_null(&w, "what_if");
	}
	jw_open_array(&w, "groups");
	for (size_t i = 0; i < f->n_groups; i++)
		group_json(&w, &f->groups[i]);
	jw_close_array(&w);
	jw_open_array(&w, "skipped");
	for (size_t i = 0; i < f->n_skipped; i++) {
		jw_open_object(&w, NULL);
		jw_string(&w, "source", f->skipped[i].source);
		jw_string(&w, "why", f->skipped[i].why);
		jw_close_object(&w);
	}
	jw_close_array(&w);
	jw_int(&w, "exit_status", f->worse_hosts > 0 ? 1 : 0);
	jw_close_object(&w);
	return jw_end(&w);
}
