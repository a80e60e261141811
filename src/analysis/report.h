/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The report: everything the renderers print, computed from struct machine. */
#pragma once

#include "analysis/findings.h"
#include "analysis/layout.h"
#include "machine.h"

/* Exit status contract (DESIGN.md): 0 clean, 1 findings at --fail-on, 2 usage/fatal. */
enum {
	EXIT_CLEAN = 0,
	EXIT_FINDINGS = 1,
	EXIT_FATAL = 2,
};

struct report {
	struct layout layout;
	struct findings findings;
	enum severity fail_on;
	int exit_status;
};

/* 0, or -ENOMEM / -EINVAL (bad page size). */
int report_build(const struct machine *m, enum severity fail_on, struct report *ret);
void report_done(struct report *r);
