/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The report rendered in the format asked for and written where --output-file says. */
#pragma once

#include "analysis/report.h"
#include "cli/options.h"
#include "cli/output.h"
#include "machine.h"
#include "shared/opt.h"

/* The time now, unknown when time() fails: the report's generated_at. */
struct opt_i64 clock_now(void);

/* out could not be opened or written: one line naming the file and why. */
void report_write_failed(const struct options *o, int r, const char *what);

/*
 * rep rendered into out, which is freed; colour "auto" decided here, once
 * the stream is known. rep NULL: the run failed before a report (Prometheus
 * only: the metrics that say so, dmamask_last_run_success 0). 0, or the
 * -errno of the write that failed (said).
 */
int report_write(struct output *out, struct options *o, const struct machine *m, const struct report *rep);
