/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdlib.h>
#include <string.h>

#include "analysis/findings.h"
#include "shared/macro.h"

static const char *const severity_names[_SEVERITY_MAX] = {
	[SEVERITY_INFO] = "info",
	[SEVERITY_WARNING] = "warning",
	[SEVERITY_ERROR] = "error",
};

const char *severity_to_string(enum severity s)
{
	return s >= 0 && s < _SEVERITY_MAX ? severity_names[s] : NULL;
}

enum severity severity_from_string(const char *s)
{
	for (int i = 0; i < _SEVERITY_MAX; i++)
		if (s && strcmp(s, severity_names[i]) == 0)
			return (enum severity)i;
	return _SEVERITY_INVALID;
}

static char *dup_or_null(const char *s, int *err)
{
	if (!s)
		return NULL;
	char *d = strdup(s);
	if (!d)
		*err = -ENOMEM;
	return d;
}

struct finding *findings_add(struct findings *f, const char *id, enum severity sev,
			     const char *device, const char *message, const char *remedy)
{
	if (f->err)
		return NULL;
	struct finding *v = realloc(f->v, (f->n + 1) * sizeof(*v));
	if (!v) {
		f->err = -ENOMEM;
		return NULL;
	}
	f->v = v;
	struct finding *x = &v[f->n++];
	memset(x, 0, sizeof(*x));
	x->id = id;
	x->severity = sev;
	x->device = dup_or_null(device, &f->err);
	x->message = dup_or_null(message ? message : "", &f->err);
	x->remedy = dup_or_null(remedy ? remedy : "", &f->err);
	return f->err ? NULL : x;
}

static struct evidence *add_evidence(struct findings *f, struct finding *x, const char *key,
				     enum evidence_type t)
{
	if (!x || f->err)
		return NULL;
	struct evidence *v = realloc(x->evidence, (x->n_evidence + 1) * sizeof(*v));
	if (!v) {
		f->err = -ENOMEM;
		return NULL;
	}
	x->evidence = v;
	struct evidence *e = &v[x->n_evidence++];
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

void finding_add_str(struct findings *f, struct finding *x, const char *key, const char *v)
{
	struct evidence *e = add_evidence(f, x, key, EVIDENCE_STR);
	if (e)
		e->s = dup_or_null(v, &f->err);
}

void findings_done(struct findings *f)
{
	for (size_t i = 0; i < f->n; i++) {
		struct finding *x = &f->v[i];
		free(x->device);
		free(x->message);
		free(x->remedy);
		for (size_t j = 0; j < x->n_evidence; j++)
			free(x->evidence[j].s);
		free(x->evidence);
	}
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
