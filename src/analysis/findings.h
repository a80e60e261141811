/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Findings: what the audit concludes, each with a stable id, a severity, the
 * numbers that prove it (evidence) and a one-line remedy. Pure: no I/O.
 */
#pragma once

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

enum severity {
	SEVERITY_INFO,
	SEVERITY_WARNING,
	SEVERITY_ERROR,
	_SEVERITY_MAX,
	_SEVERITY_INVALID = -EINVAL,
};

const char *severity_to_string(enum severity s);
enum severity severity_from_string(const char *s);

enum evidence_type {
	EVIDENCE_U64, /* a count or size: a JSON integer */
	EVIDENCE_HEX, /* an address, PFN or mask: a "0x..." string */
	EVIDENCE_STR,
};

struct evidence {
	const char *key; /* static */
	enum evidence_type type;
	uint64_t u;
	char *s;
};

struct finding {
	const char *id;   /* static, stable: documented in the man page */
	enum severity severity;
	char *device;     /* NULL for machine-wide findings */
	char *message;
	char *remedy;
	struct evidence *evidence;
	size_t n_evidence;
};

struct findings {
	struct finding *v;
	size_t n;
	int err; /* first allocation failure, sticky */
};

/* Append a finding; message and remedy are copied. Returns it, or NULL on OOM. */
struct finding *findings_add(struct findings *f, const char *id, enum severity sev,
			     const char *device, const char *message, const char *remedy);
void finding_add_u64(struct findings *f, struct finding *x, const char *key, uint64_t v);
void finding_add_hex(struct findings *f, struct finding *x, const char *key, uint64_t v);
void finding_add_str(struct findings *f, struct finding *x, const char *key, const char *v);
void findings_done(struct findings *f);
/* Highest severity present, or _SEVERITY_INVALID when there are none. */
enum severity findings_max_severity(const struct findings *f);
