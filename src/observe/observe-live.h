/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --observe: trace swiotlb:swiotlb_bounced for a few seconds in a tracefs
 * instance of the tool's own, so a user's own tracing is untouched, and
 * collect the evidence around it (observe-live.c). Live only, root only.
 */
#pragma once

#include "shared/macro.h"

#include <stdbool.h>

#include "observe/observe-probe.h"
#include "readers/observed.h"
#include "sysroot/sysroot.h"

/* The instance's name prefix: instances/dmamask-audit-PID. */
#define OBSERVE_INSTANCE_PREFIX "dmamask-audit-"

struct observe_options {
	unsigned seconds;        /* the window; SIGINT ends it early with what was seen */
	bool countdown;          /* print the time left on stderr (a terminal) */
	const char *note;        /* one line for stderr once the window opens (what it cannot show); NULL none */
	const struct probe *probe; /* --observe-probe: read at the window's start; NULL none */
};

/*
 * Observe a live system: 0 and *ret filled (observed.h's files); -errno with
 * *ret_why (static, one line) when it cannot: not root, no tracefs mounted,
 * no swiotlb_bounced event, the instance not made. The instance is removed on
 * every way out; SIGTERM and SIGHUP remove it, then end the process.
 */
_must_check_ int observe_live(struct sysroot *sr, const struct observe_options *opt,
			      struct observe_raw *ret, const char **ret_why) _nonnull_all_;

/*
 * Remove instances/dmamask-audit-PID under the tracefs directory tracefs
 * (an absolute path) whose PID is no longer running: a run killed by SIGKILL
 * leaves one. Returns how many were removed, or -errno.
 */
int observe_cleanup_stale(const char *tracefs);
