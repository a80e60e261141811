/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A --capture run around the snapshot writer: its signals and its MANIFEST (capture-run.c). */
#pragma once

#include "shared/macro.h"

#include "snapshot/capture.h"
#include "machine.h"

/*
 * Hand SIGINT, SIGTERM and SIGHUP to cap (written into dest) until
 * capture_guard(NULL, NULL, false, 0) restores them: the capture is marked
 * incomplete, then the process dies of the signal. A signal ignored on entry
 * stays ignored, but for also_sig (--test-interrupt's). archive: dest is the
 * archive the capture was to be packed into, which is then not written.
 */
void capture_guard(struct capture *cap, const char *dest, bool archive, int also_sig);

/*
 * The capture's last files: the udev properties a snapshot cannot get from
 * libudev, then MANIFEST (the snapshot layout: dmamask-audit(8), Snapshots). 0 or -errno.
 */
_must_check_ int capture_finish_machine(struct capture *cap, const struct machine *m);
