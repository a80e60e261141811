/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Private directories a run works in (an archive unpacked for --sysroot, a
 * capture packed for --capture FILE.tar.gz), removed when the run ends
 * however it ends: scratch_supervise() forks, and the parent, which does
 * nothing else, waits for the run, removes them and exits as the run did,
 * dying of the same signal. A SIGKILL of the run, or the OOM killer, leaves
 * nothing behind either; only a SIGKILL of the parent itself does.
 */
#pragma once

#include <stddef.h>

#include "shared/macro.h"

#define SCRATCH_MAX 2

struct scratch {
	char *dirs[SCRATCH_MAX];
	size_t n;
};

/*
 * A new directory PREFIX.XXXXXX in parent (mode 0700), remembered in s;
 * *ret_path points into s. 0 or -errno.
 */
_must_check_ int scratch_make(struct scratch *s, const char *parent, const char *prefix,
			      const char **ret_path);

/*
 * Fork. The child returns 0 and goes on with the run; the parent never
 * returns: it forwards SIGINT, SIGTERM and SIGHUP to the child, waits for
 * it, removes s's directories, and exits with its status. -errno when the
 * fork fails (the directories are removed then).
 */
_must_check_ int scratch_supervise(struct scratch *s);

/* Remove s's directories now (a run that failed before forking). */
void scratch_remove(struct scratch *s);
/* The run's side: forget the names, the parent removes the directories. */
void scratch_forget(struct scratch *s);
