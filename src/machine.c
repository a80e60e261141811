/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Lifetime and bookkeeping of struct machine; no reading, no analysis. */
#include <stdlib.h>
#include <string.h>

#include "machine.h"
#include "shared/errno-util.h"
#include "shared/macro.h"

static const char *const provenance_names[_PROV_MAX] = {
	[PROV_UNKNOWN] = "unknown", [PROV_READ] = "read",	[PROV_DERIVED] = "derived",
	[PROV_ASSUMED] = "assumed", [PROV_USER] = "user",
};

const char *provenance_to_string(enum provenance p)
{
	return p >= 0 && p < _PROV_MAX ? provenance_names[p] : NULL;
}

static const char *const input_status_names[_INPUT_STATUS_MAX] = {
	[INPUT_OK] = "ok",
	[INPUT_MISSING] = "missing",
	[INPUT_DENIED] = "denied",
	[INPUT_INVALID] = "invalid",
};

const char *input_status_to_string(enum input_status s)
{
	return s >= 0 && s < _INPUT_STATUS_MAX ? input_status_names[s] : NULL;
}

enum input_status input_status_from_errno(int err)
{
	switch (err < 0 ? -err : err) {
	case 0:
		return INPUT_OK;
	case ENOENT:
	case ENOTDIR:
		return INPUT_MISSING;
	case EACCES:
	case EPERM:
		return INPUT_DENIED;
	default:
		return INPUT_INVALID;
	}
}

void machine_init(struct machine *m)
{
	memset(m, 0, sizeof(*m));
}

static void sourced_str_done(struct sourced_str *s)
{
	free(s->value);
	s->value = NULL;
}

void machine_done(struct machine *m)
{
	if (!m)
		return;
	free(m->sysroot);
	sourced_str_done(&m->arch);
	sourced_str_done(&m->release);
	for (size_t i = 0; i < m->n_manifest; i++) {
		free(m->manifest[i].key);
		free(m->manifest[i].value);
	}
	free(m->manifest);
	free(m->ram);
	free(m->zones);
	free(m->cmdline);
	for (size_t i = 0; i < m->n_inputs; i++) {
		free(m->inputs[i].path);
		free(m->inputs[i].detail);
	}
	free(m->inputs);
	memset(m, 0, sizeof(*m));
}

int machine_add_input(struct machine *m, const char *path, enum input_status status, int err,
		      const char *detail)
{
	struct input *n = realloc(m->inputs, (m->n_inputs + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	m->inputs = n;
	struct input *in = &n[m->n_inputs];
	in->path = strdup(path);
	in->detail = detail ? strdup(detail) : NULL;
	if (!in->path || (detail && !in->detail)) {
		free(in->path);
		free(in->detail);
		return -ENOMEM;
	}
	in->status = status;
	in->err = err < 0 ? -err : err;
	m->n_inputs++;
	return 0;
}

int machine_add_input_errno(struct machine *m, const char *path, int r)
{
	return machine_add_input(m, path, input_status_from_errno(r), r,
				 r < 0 ? errno_describe(r) : NULL);
}

const char *machine_manifest_get(const struct machine *m, const char *key)
{
	for (size_t i = 0; i < m->n_manifest; i++)
		if (strcmp(m->manifest[i].key, key) == 0)
			return m->manifest[i].value;
	return NULL;
}
