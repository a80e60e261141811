/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shortcuts the tests take over the public API, kept here rather than in
 * src/ where nothing would call them: a report with only --fail-on, and
 * whether an input was read and used.
 */
#pragma once

#include <stdbool.h>
#include <string.h>

#include "analysis/report.h"
#include "machine.h"

/* report_build_with() with only --fail-on set. */
static inline int report_build(const struct machine *m, enum severity fail_on, struct report *ret)
{
	const struct report_options o = { .fail_on = fail_on };
	return report_build_with(m, &o, ret);
}

/* Whether the last input recorded for path was read and used (the analysis asks the
 * field its reader sets, such as iomem_ok). */
static inline bool machine_input_ok(const struct machine *m, const char *path)
{
	for (size_t i = m->n_inputs; i > 0; i--)
		if (strcmp(m->inputs[i - 1].path, path) == 0)
			return m->inputs[i - 1].status == INPUT_OK;
	return false;
}
