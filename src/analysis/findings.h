/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Findings: what the audit concludes, each with a stable id, a severity, the
 * numbers that prove it (evidence) and a one-line remedy. Pure: no I/O.
 */
#pragma once

#include "shared/macro.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/finding-catalogue.h"

enum evidence_type {
	EVIDENCE_U64, /* a count or size: a JSON integer */
	EVIDENCE_HEX, /* an address, PFN or mask: a "0x..." string */
	EVIDENCE_STR,
	EVIDENCE_BOOL, /* a JSON true/false */
	EVIDENCE_PFN,  /* a page frame number: a JSON integer, hex in text as the prose writes PFNs */
	EVIDENCE_MICRO, /* a rate in millionths: a JSON number, a decimal in text (0.2, not 0) */
};

struct evidence {
	const char *key; /* static */
	enum evidence_type type;
	uint64_t u;
	char *s;
};

struct finding {
	enum finding_id id;
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

/*
 * Append a finding in case c: its id, severity, message (from a) and remedy
 * are the catalogue's; device (NULL: machine-wide) is copied. Returns it, or
 * NULL on OOM or a case outside the catalogue (f->err says so; every
 * finding_* call then does nothing).
 */
struct finding *findings_raise(struct findings *f, enum finding_case c, const char *device,
			       const struct finding_args *a) _nonnull_(1);
void finding_add_u64(struct findings *f, struct finding *x, const char *key, uint64_t v) _nonnull_(1, 3); /* x NULL: findings_raise() failed, f->err says so */
void finding_add_hex(struct findings *f, struct finding *x, const char *key, uint64_t v) _nonnull_(1, 3); /* x NULL: findings_raise() failed, f->err says so */
void finding_add_str(struct findings *f, struct finding *x, const char *key, const char *v) _nonnull_(1, 3); /* x NULL: findings_raise() failed, f->err says so */
void finding_add_pfn(struct findings *f, struct finding *x, const char *key, uint64_t v) _nonnull_(1, 3); /* x NULL: findings_raise() failed, f->err says so */
/* A signed offset as the kernel keeps it in a u64 (cpu - bus), written "-0xc0000000": a string. */
void finding_add_offset(struct findings *f, struct finding *x, const char *key, uint64_t v) _nonnull_(1, 3);
/* A rate in millionths (bounces_per_second): never rounded to 0 when it is not (findings.c). */
void finding_add_micro(struct findings *f, struct finding *x, const char *key, uint64_t v) _nonnull_(1, 3);
void finding_add_bool(struct findings *f, struct finding *x, const char *key, bool v) _nonnull_(1, 3); /* x NULL: findings_raise() failed, f->err says so */
/* What one finding holds, freed (a selection drops findings one by one). */
void finding_done(struct finding *x);
void findings_done(struct findings *f);
/* Highest severity present, or _SEVERITY_INVALID when there are none. */
enum severity findings_max_severity(const struct findings *f);
