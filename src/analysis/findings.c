/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The list of findings a report collects, each with its evidence. */
#include <stdlib.h>
#include <string.h>

#include "analysis/findings.h"
#include "shared/array.h"
#include "shared/macro.h"
#include "shared/strbuf.h"

static char *dup_or_null(const char *s, int *err)
{
	if (!s)
		return NULL;
	char *d = strdup(s);
	if (!d)
		*err = -ENOMEM;
	return d;
}

struct finding *findings_raise(struct findings *f, enum finding_case c, const char *device,
			       const struct finding_args *a)
{
	const struct finding_case_info *k = finding_case_info(c);

	if (f->err)
		return NULL;
	if (!k) {
		f->err = -EINVAL;
		return NULL;
	}
	if (array_full(f->n)) {
		struct finding *v = reallocarray(f->v, array_capacity(f->n), sizeof(*v));
		if (!v) {
			f->err = -ENOMEM;
			return NULL;
		}
		f->v = v;
	}
	struct finding *x = &f->v[f->n++];
	memset(x, 0, sizeof(*x));
	x->id = k->id;
	x->severity = finding_case_severity(c);
	x->device = dup_or_null(device, &f->err);
	x->message = finding_case_message(c, a);
	if (!x->message)
		f->err = -ENOMEM;
	x->remedy = dup_or_null(finding_case_remedy(c), &f->err);
	return f->err ? NULL : x;
}

static struct evidence *add_evidence(struct findings *f, struct finding *x, const char *key,
				     enum evidence_type t)
{
	if (!x || f->err)
		return NULL;
	if (array_full(x->n_evidence)) {
		struct evidence *v = reallocarray(x->evidence, array_capacity(x->n_evidence), sizeof(*v));
		if (!v) {
			f->err = -ENOMEM;
			return NULL;
		}
		x->evidence = v;
	}
	struct evidence *e = &x->evidence[x->n_evidence++];
	memset(e, 0, sizeof(*e));
	e->key = key;
	e->type = t;
	return e;
}

void finding_add_u64(struct findings *f, struct finding *x, const char *key, uint64_t v)
{
	struct evidence *e = add_evidence(f, x, key, EVIDENCE_U64);
	if (e)
		e->u = v;
}

void finding_add_hex(struct findings *f, struct finding *x, const char *key, uint64_t v)
{
	struct evidence *e = add_evidence(f, x, key, EVIDENCE_HEX);
	if (e)
		e->u = v;
}

void finding_add_pfn(struct findings *f, struct finding *x, const char *key, uint64_t v)
{
	struct evidence *e = add_evidence(f, x, key, EVIDENCE_PFN);
	if (e)
		e->u = v;
}

void finding_add_str(struct findings *f, struct finding *x, const char *key, const char *v)
{
	struct evidence *e = add_evidence(f, x, key, EVIDENCE_STR);
	if (e)
		e->s = dup_or_null(v, &f->err);
}

void finding_add_offset(struct findings *f, struct finding *x, const char *key, uint64_t v)
{
	_cleanup_free_ char *s = offset_string(v);

	if (!s) {
		f->err = -ENOMEM;
		return;
	}
	finding_add_str(f, x, key, s);
}

void finding_add_micro(struct findings *f, struct finding *x, const char *key, uint64_t v)
{
	struct evidence *e = add_evidence(f, x, key, EVIDENCE_MICRO);
	if (e)
		e->u = v;
}

void finding_add_bool(struct findings *f, struct finding *x, const char *key, bool v)
{
	struct evidence *e = add_evidence(f, x, key, EVIDENCE_BOOL);
	if (e)
		e->u = v;
}

void finding_done(struct finding *x)
{
	free(x->device);
	free(x->message);
	free(x->remedy);
	for (size_t j = 0; j < x->n_evidence; j++)
		free(x->evidence[j].s);
	free(x->evidence);
}

void findings_done(struct findings *f)
{
	for (size_t i = 0; i < f->n; i++)
		finding_done(&f->v[i]);
	free(f->v);
	memset(f, 0, sizeof(*f));
}

enum severity findings_max_severity(const struct findings *f)
{
	enum severity max = _SEVERITY_INVALID;
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].severity > max)
			max = f->v[i].severity;
	return max;
}
