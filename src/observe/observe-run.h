/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A --observe run: its window and what becomes of it (observe-run.c), as capture-run.h for --capture. */
#pragma once

#include "shared/macro.h"

#include "snapshot/capture.h"
#include "machine.h"
#include "observe/observe-live.h"
#include "readers/observed.h"
#include "sysroot/sysroot.h"

/* The window of seconds, before anything is read or captured; note (NULL: none) is said on
 * stderr once it opens, probe (NULL: none) read at its start. 0 or -errno (said on stderr). */
_must_check_ int observe_window(unsigned seconds, const char *note, const struct probe *probe,
				struct sysroot *sr, struct observe_raw *raw);

/* The window's files into cap (under OBSERVE_DIR; cap may be NULL), its results into m. 0 or -errno (said). */
_must_check_ int observe_record(const struct observe_raw *raw, struct capture *cap, struct machine *m);
