/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Removing a private directory tree the run made (scratch.c), following no link. */
#pragma once

#include "shared/macro.h"

/*
 * Remove name (in dfd) and everything beneath it, as rm -rf: symlinks are
 * removed, never followed; a mount point is not crossed. One directory fd
 * open at a time and fixed buffers, so any depth costs the same memory.
 * 0, or the first -errno that stopped it (what it could remove is gone).
 */
_must_check_ int rm_rf_at(int dfd, const char *name);
