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

enum severity {
	SEVERITY_INFO,
	SEVERITY_WARNING,
	SEVERITY_ERROR,
	_SEVERITY_MAX,
	_SEVERITY_INVALID = -EINVAL,
};

const char *severity_to_string(enum severity s);
enum severity severity_from_string(const char *s);

/*
 * Every finding the tool raises. The catalogue (findings.c) names each and
 * gives its severity and usual remedy; the schema's enum and the man page's
 * FINDINGS list the same names (tests/unit/test-findings.c holds them to it).
 */
enum finding_id {
	FINDING_IOMEM_HIDDEN,
	FINDING_MEMORY_LAYOUT_UNKNOWN,
	FINDING_LOWMEM_UNKNOWN,
	FINDING_BOUNCE_NEEDED,
	FINDING_BOUNCE_IMPOSSIBLE,
	FINDING_BOUNCE_MISSED,
	FINDING_SWIOTLB_OUT_OF_REACH,
	FINDING_SWIOTLB_PRESSURE,
	FINDING_FORCED_BOUNCE,
	FINDING_MASK_NOT_CONTIGUOUS,
	FINDING_MASK_LIMITED_BY_BUS,
	FINDING_PFN_COUNT_CONFUSION,
	FINDING_DMA_OVERFLOW_LOGGED,
	FINDING_XEN_PV_UNDECIDABLE,
	FINDING_SNAPSHOT_INCOMPLETE,
	FINDING_BOUNCE_MAPPING_TOO_LARGE,
	FINDING_UNTRUSTED_BOUNCE,
	FINDING_UNTRUSTED_BOUNCE_IMPOSSIBLE,
	FINDING_PREDICTION_CONTRADICTED,
	FINDING_BOUNCE_OBSERVED,
	_FINDING_ID_MAX,
	_FINDING_ID_INVALID = -EINVAL,
};

struct finding_info {
	const char *name;       /* stable: JSON "id", Prometheus label, man page */
	enum severity severity; /* the highest it is raised at; some are lowered where harmless */
	const char *remedy;     /* the usual one; some cases give their own */
};

/* The catalogue's entry, NULL for an id outside it. */
const struct finding_info *finding_info(enum finding_id id);
const char *finding_id_to_string(enum finding_id id);
enum finding_id finding_id_from_string(const char *s);

enum evidence_type {
	EVIDENCE_U64, /* a count or size: a JSON integer */
	EVIDENCE_HEX, /* an address, PFN or mask: a "0x..." string */
	EVIDENCE_STR,
	EVIDENCE_BOOL, /* a JSON true/false */
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
 * Append a finding at its catalogue severity, with its catalogue remedy;
 * device (NULL: machine-wide) and message are copied. Returns it, or NULL
 * on OOM (f->err says so; every finding_* call then does nothing).
 */
struct finding *findings_add(struct findings *f, enum finding_id id, const char *device,
			     const char *message) _nonnull_(1);
/* This case is harmless here: a severity below the catalogue's. */
void finding_lower_severity(struct finding *x, enum severity sev);
/* This case's own remedy instead of the catalogue's (copied). */
void finding_set_remedy(struct findings *f, struct finding *x, const char *remedy) _nonnull_(1);
void finding_add_u64(struct findings *f, struct finding *x, const char *key, uint64_t v) _nonnull_(1, 3); /* x NULL: findings_add() failed, f->err says so */
void finding_add_hex(struct findings *f, struct finding *x, const char *key, uint64_t v) _nonnull_(1, 3); /* x NULL: findings_add() failed, f->err says so */
void finding_add_str(struct findings *f, struct finding *x, const char *key, const char *v) _nonnull_(1, 3); /* x NULL: findings_add() failed, f->err says so */
void finding_add_bool(struct findings *f, struct finding *x, const char *key, bool v) _nonnull_(1, 3); /* x NULL: findings_add() failed, f->err says so */
/* What one finding holds, freed (a selection drops findings one by one). */
void finding_done(struct finding *x);
void findings_done(struct findings *f);
/* Highest severity present, or _SEVERITY_INVALID when there are none. */
enum severity findings_max_severity(const struct findings *f);
