/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A --capture run around the snapshot writer: its signals and its MANIFEST (capture-run.c). */
#pragma once

#include "shared/macro.h"

#include "capture.h"
#include "machine.h"

/*
 * Hand SIGINT, SIGTERM and SIGHUP to cap (written into dir) until
 * capture_guard(NULL, NULL, 0) restores them: the capture is marked
 * incomplete, then the process dies of the signal. A signal ignored on entry
 * stays ignored, but for also_sig (--test-interrupt's).
 */
void capture_guard(struct capture *cap, const char *dir, int also_sig);

/*
 * The capture's last files: the udev properties a snapshot cannot get from
 * libudev, then MANIFEST (DESIGN.md: the snapshot layout). 0 or -errno.
 */
_must_check_ int capture_finish_machine(struct capture *cap, const struct machine *m);
