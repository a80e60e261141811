/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --explain -J: the same steps as data (schema: definitions/explain). */
#include <stdlib.h>

#include "render/explain-parts.h"
#include "render/json-writer.h"
#include "render/render.h"
#include "shared/macro.h"

static void number_json(struct json_writer *w, const struct explain_number *n)
{
	struct strbuf b = { 0 };

	jw_open_object(w, NULL);
	jw_string(w, "name", n->name);
	jw_string(w, "unit", explain_unit_to_string(n->unit));
	/* addresses and masks as hex strings, exact beyond 2^53; the rest integers */
	if (n->unit == EXPLAIN_UNIT_ADDRESS)
		jw_hex(w, "value", n->v);
	else if (n->unit == EXPLAIN_UNIT_DELTA)
		jw_int(w, "value", (int64_t)n->v);
	else
		jw_u64(w, "value", n->v);
	explain_append_source(&b, n);
	_cleanup_free_ char *src = strbuf_steal(&b);
	jw_string(w, "source", src);
	jw_close_object(w);
}

static void step_json(struct json_writer *w, const struct explain_step *s, unsigned page_shift)
{
	struct strbuf b = { 0 };

	jw_open_object(w, NULL);
	jw_string(w, "kind", explain_kind_to_string(explain_case_kind(s->c)));
	jw_string(w, "case", explain_case_to_string(s->c));
	explain_append_sentence(&b, s, page_shift, false);
	_cleanup_free_ char *text = strbuf_steal(&b);
	jw_string(w, "text", text);
	jw_open_array(w, "numbers");
	for (size_t i = 0; i < s->n_numbers; i++)
		number_json(w, &s->n[i]);
	jw_close_array(w);
	jw_open_object(w, "words");
	for (size_t i = 0; i < s->n_words; i++)
		jw_string(w, s->w[i].name, s->w[i].s);
	jw_close_object(w);
	jw_string(w, "kernel", s->kernel);
	jw_string(w, "era_rule", s->era < _ERA_RULE_MAX ? era_rule_name(s->era) : NULL);
	jw_string(w, "era_value", s->era < _ERA_RULE_MAX ? era_value_name(s->era, s->era_value) : NULL);
	jw_close_object(w);
}

int render_explain_json(FILE *out, const struct machine *m, const struct report *rep, const struct explain *e)
{
	struct json_writer w;

	jw_begin(&w, out);
	jw_open_object(&w, NULL);
	jw_string(&w, "device", e->r->dev->id);
	jw_string(&w, "driver", e->r->dev->driver);
	jw_string(&w, "kernel_release", m->release.value);
	jw_string(&w, "arch", m->arch.value);
	jw_int(&w, "page_size", (int64_t)rep->layout.page_size);
	jw_string(&w, "verdict", verdict_to_string(e->r->verdict));
	jw_string(&w, "missing", e->missing);
	jw_open_array(&w, "steps");
	for (size_t i = 0; i < e->n_steps; i++)
		step_json(&w, &e->steps[i], rep->layout.page_shift);
	jw_close_array(&w);
	jw_close_object(&w);
	return jw_end(&w);
}
