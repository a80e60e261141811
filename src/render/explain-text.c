/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --explain as text: each step a numbered sentence, its numbers with their sources, its kernel function. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/explain-parts.h"
#include "render/render.h"
#include "render/text-util.h"
#include "shared/macro.h"

void explain_append_number(struct strbuf *b, const struct explain_number *n, unsigned page_shift, bool exact)
{
	switch (n->unit) {
	case EXPLAIN_UNIT_COUNT:
		strbuf_append_u64(b, n->v);
		return;
	case EXPLAIN_UNIT_DELTA: {
		int64_t d = (int64_t)n->v;
		strbuf_append(b, d < 0 ? "-" : "+");
		strbuf_append_hex(b, d < 0 ? -(uint64_t)d : (uint64_t)d);
		return;
	}
	case EXPLAIN_UNIT_BYTES:
		text_append_amount(b, n->v, exact);
		strbuf_append(b, " (");
		strbuf_append_hex(b, n->v);
		strbuf_append(b, ")");
		return;
	case EXPLAIN_UNIT_PAGES:
		strbuf_append_hex(b, n->v);
		strbuf_append(b, n->v == 1 ? " page" : " pages");
		/* a page count past 2^64 bytes is not RAM any kernel has */
		if (page_shift < 64 && (n->v >> (64 - page_shift)) == 0) {
			strbuf_append(b, " = ");
			text_append_amount(b, n->v << page_shift, exact);
		}
		return;
	default:
		strbuf_append_hex(b, n->v);
		return;
	}
}

static const struct explain_number *find_number(const struct explain_step *s, const char *name, size_t len)
{
	for (size_t i = 0; i < s->n_numbers; i++)
		if (strlen(s->n[i].name) == len && strncmp(s->n[i].name, name, len) == 0)
			return &s->n[i];
	return NULL;
}

static const char *find_word(const struct explain_step *s, const char *name, size_t len)
{
	for (size_t i = 0; i < s->n_words; i++)
		if (strlen(s->w[i].name) == len && strncmp(s->w[i].name, name, len) == 0)
			return s->w[i].s ? s->w[i].s : "?";
	return NULL;
}

/* template with each {name} replaced by fill(name); an unknown name is kept, braces and all */
void explain_append_sentence(struct strbuf *b, const struct explain_step *s, unsigned page_shift, bool exact)
{
	const char *p = explain_case_template(s->c);

	while (p && *p) {
		const char *open = strchr(p, '{'), *close = open ? strchr(open, '}') : NULL;
		if (!close) {
			strbuf_append(b, p);
			break;
		}
		strbuf_append_n(b, p, (size_t)(open - p));
		const struct explain_number *n = find_number(s, open + 1, (size_t)(close - open - 1));
		const char *w = n ? NULL : find_word(s, open + 1, (size_t)(close - open - 1));
		if (n)
			explain_append_number(b, n, page_shift, exact);
		else if (w)
			text_append_safe(b, w);
		else
			strbuf_append_n(b, open, (size_t)(close - open + 1));
		p = close + 1;
	}
}

void explain_append_source(struct strbuf *b, const struct explain_number *n)
{
	const char *t = explain_source_template(n->source), *arg = strstr(t ? t : "", "{arg}");

	if (!t)
		return;
	if (!arg) {
		strbuf_append(b, t);
		return;
	}
	strbuf_append_n(b, t, (size_t)(arg - t));
	text_append_safe(b, n->arg ? n->arg : "?");
	strbuf_append(b, arg + 5);
}

static void print_line(FILE *out, struct strbuf *b, unsigned col, unsigned indent, unsigned width)
{
	_cleanup_free_ char *t = strbuf_steal(b);

	text_print_wrapped(out, t, col, indent, width);
	*b = (struct strbuf){ 0 };
}

int render_explain_text(FILE *out, const struct machine *m, const struct report *rep, const struct explain *e,
			const struct render_options *o)
{
	const struct device_report *r = e->r;
	unsigned width = text_columns(o->terminal);
	struct strbuf b = { 0 };

	text_append_safe(&b, r->dev->id);
	if (r->dev->driver) {
		strbuf_append(&b, " (");
		text_append_safe(&b, r->dev->driver);
		strbuf_append(&b, ")");
	}
	strbuf_append(&b, ", Linux ");
	text_append_safe(&b, m->release.value ? m->release.value : "(release unknown)");
	strbuf_append(&b, ", ");
	text_append_safe(&b, m->arch.value ? m->arch.value : "(architecture unknown)");
	strbuf_append(&b, ": the kernel's DMA decision, step by step");
	print_line(out, &b, 0, 2, width);
	for (size_t i = 0; i < e->n_steps; i++) {
		const struct explain_step *s = &e->steps[i];
		char head[48];
		int col = snprintf(head, sizeof(head), "\n%2zu. %s: ", i + 1,
				   explain_kind_to_string(explain_case_kind(s->c)));
		fputs(head, out);
		explain_append_sentence(&b, s, rep->layout.page_shift, o->bytes);
		print_line(out, &b, (unsigned)col - 1, 6, width);
		for (size_t k = 0; k < s->n_numbers; k++) {
			strbuf_append(&b, s->n[k].name);
			strbuf_append(&b, " = ");
			explain_append_number(&b, &s->n[k], rep->layout.page_shift, o->bytes);
			strbuf_append(&b, ": ");
			explain_append_source(&b, &s->n[k]);
			fputs("      ", out);
			print_line(out, &b, 6, 10, width);
		}
		if (s->kernel) {
			strbuf_append(&b, "kernel: ");
			strbuf_append(&b, s->kernel);
			if (s->era < _ERA_RULE_MAX) {
				strbuf_append(&b, " [");
				strbuf_append(&b, era_rule_name(s->era));
				strbuf_append(&b, "]");
			}
			fputs("      ", out);
			print_line(out, &b, 6, 10, width);
		}
	}
	if (e->missing) {
		fputc('\n', out);
		strbuf_append(&b, "not known: ");
		strbuf_append(&b, e->missing);
		print_line(out, &b, 0, 2, width);
	}
	errno = 0;
	if (fflush(out) != 0 || ferror(out))
		return errno ? -errno : -EIO;
	return 0;
}
