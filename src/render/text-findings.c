/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The text report's findings, grouped: one block per id, severity, message
 * and remedy, naming every device it concerns, so 325 devices that bounce
 * alike read as one block (JSON keeps one finding per device).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/text-parts.h"
#include "render/text-util.h"
#include "shared/macro.h"
#include "shared/strmap.h"

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* "key=value ..." of a finding's evidence, malloc'd (NULL: none). */
static char *evidence_text(const struct finding *x)
{
	struct strbuf b = { 0 };

	for (size_t j = 0; j < x->n_evidence; j++) {
		const struct evidence *e = &x->evidence[j];
		strbuf_append(&b, j ? " " : "");
		strbuf_append(&b, e->key);
		strbuf_append(&b, "=");
		if (e->type == EVIDENCE_STR)
			text_append_safe(&b, e->s);
		else if (e->type == EVIDENCE_HEX || e->type == EVIDENCE_PFN)
			strbuf_append_hex(&b, e->u);
		else if (e->type == EVIDENCE_BOOL)
			strbuf_append(&b, e->u ? "true" : "false");
		else if (e->type == EVIDENCE_MICRO)
			strbuf_append_micro(&b, e->u);
		else
			strbuf_append_u64(&b, e->u);
	}
	return strbuf_steal(&b);
}

/* The group whose first finding is f->v[first]: members are i >= first with group[i] == first. */
static void print_group(FILE *out, const struct findings *f, const size_t *group, size_t first,
			unsigned width, bool colour)
{
	const struct finding *x = &f->v[first];
	struct strbuf b = { 0 };
	size_t n = 0;
	bool same_evidence = true;
	_cleanup_free_ char *ev0 = evidence_text(x);

	for (size_t i = first; i < f->n; i++) {
		if (group[i] != first)
			continue;
		if (x->device) {
			strbuf_append(&b, n ? ", " : "");
			text_append_safe(&b, f->v[i].device);
		}
		_cleanup_free_ char *ev = i == first ? NULL : evidence_text(&f->v[i]);
		if (i != first && !same_str(ev, ev0))
			same_evidence = false;
		n++;
	}
	_cleanup_free_ char *devices = strbuf_steal(&b);

	/* one device: "id DEVICE: message"; more: "id (N devices): message", then the list */
	const char *sgr = colour ? text_severity_sgr(x->severity) : "";
	fprintf(out, "  %s%-7s%s ", sgr, severity_to_string(x->severity), *sgr ? "\033[0m" : "");
	strbuf_append(&b, finding_id_to_string(x->id));
	if (n > 1 && x->device) {
		char cnt[48];
		snprintf(cnt, sizeof(cnt), " (%zu devices)", n);
		strbuf_append(&b, cnt);
	} else if (devices && *devices) {
		strbuf_append(&b, " ");
		strbuf_append(&b, devices);
	}
	strbuf_append(&b, ": ");
	text_append_safe(&b, x->message);
	_cleanup_free_ char *msg = strbuf_steal(&b);
	text_print_wrapped(out, msg, 10, 10, width);
	if (n > 1 && x->device) {
		fputs("          devices: ", out);
		text_print_wrapped(out, devices, 19, 19, width);
	}

	for (size_t i = first; i < f->n; i++) {
		if (group[i] != first)
			continue;
		_cleanup_free_ char *ev = evidence_text(&f->v[i]);
		if (!ev || !*ev)
			continue;
		if (same_evidence) {
			fputs("          evidence: ", out);
			text_print_wrapped(out, ev, 20, 20, width);
			break;
		}
		strbuf_append(&b, "evidence for ");
		text_append_safe(&b, f->v[i].device);
		strbuf_append(&b, ": ");
		strbuf_append(&b, ev);
		_cleanup_free_ char *line = strbuf_steal(&b);
		fputs("          ", out);
		text_print_wrapped(out, line, 10, 20, width);
	}
	if (x->remedy && *x->remedy) {
		text_append_safe(&b, x->remedy);
		_cleanup_free_ char *rem = strbuf_steal(&b);
		fputs("          remedy: ", out);
		text_print_wrapped(out, rem, 18, 18, width);
	}
}

int text_print_findings(FILE *out, const struct findings *f, unsigned width, bool colour)
{
	fprintf(out, "\nFindings\n");
	if (f->n == 0) {
		fputs("  none\n", out);
		return 0;
	}
	_cleanup_free_ size_t *group = malloc(f->n * sizeof(*group));
	_cleanup_free_ size_t *firsts = malloc(f->n * sizeof(*firsts));
	size_t n_groups = 0;
	_cleanup_(strmap_done) struct strmap causes = STRMAP_INIT;
	if (!group || !firsts)
		return -ENOMEM;
	for (size_t i = 0; i < f->n; i++) {
		/* hashed, so 10,000 devices with 10,000 distinct messages stay linear */
		const struct finding *x = &f->v[i];
		_cleanup_free_ char *key = NULL;
		if (asprintf(&key, "%d\037%d\037%d\037%s\037%s", (int)x->id, (int)x->severity,
			     !x->device, x->message ? x->message : "", x->remedy ? x->remedy : "") < 0)
			return -ENOMEM;
		int r = strmap_add(&causes, key, (int)n_groups);
		if (r < 0)
			return r;
		if (r == 1)
			firsts[n_groups++] = i;
		group[i] = firsts[strmap_get(&causes, key)->value];
	}
	for (size_t g = 0; g < n_groups; g++)
		print_group(out, f, group, firsts[g], width, colour);
	return 0;
}
