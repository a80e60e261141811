/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One audit, as main() runs it: the root opened (this system, a snapshot
 * directory or an archive unpacked), observed, read and captured, the
 * devices the command line names checked, the report built and written.
 */
#pragma once

#include "cli/options.h"
#include "cli/output.h"
#include "machine.h"
#include "observe/observe-run.h"
#include "snapshot/capture.h"
#include "snapshot/snapshot-run.h"
#include "sysroot/sysroot.h"

/* Everything a run holds, freed whichever way main() leaves. */
struct audit_run {
	struct snapshot_run snap;
	struct capture *cap;
	struct sysroot *sr;
	struct observe_raw raw;
	struct machine m;
};

void audit_run_init(struct audit_run *a);
void audit_run_done(struct audit_run *a);

/*
 * The root opened and read into a->m (the devices the command line names
 * checked): 0, 1 when they leave nothing to judge, -1 (said; o->fail_reason).
 */
int audit_run_read(struct options *o, struct audit_run *a);

/*
 * The audit, its report written into *out (taken). The report's exit status,
 * or EXIT_FATAL (said; o->fail_reason says why, and a Prometheus textfile
 * says the run failed).
 */
int audit_run(struct options *o, struct audit_run *a, struct output **out);
