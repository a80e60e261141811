/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --capture: the sysroot layer copies into a directory every file, link and
 * directory it touched, at its canonical path, plus MANIFEST. The result is
 * a sysroot that replays the same audit elsewhere: relative links only, no
 * device nodes, no FIFOs.
 *
 * All functions return 0 or -errno; the first failure is also kept and
 * reported by capture_finish().
 */
#pragma once

#include <stddef.h>

#include "machine.h"

struct capture;

/* dir must not exist, or be an empty directory. */
int capture_new(const char *dir, struct capture **ret);
void capture_free(struct capture *c);

/* canon: root-relative path with every symlink resolved ("sys/devices/..."). */
int capture_file(struct capture *c, const char *canon, const char *buf, size_t len);
/* A symlink at canon; an absolute target (root-relative) is stored relative. */
int capture_link(struct capture *c, const char *canon, const char *target);
int capture_dir(struct capture *c, const char *canon);
/* An empty regular file standing for something whose existence was checked. */
int capture_placeholder(struct capture *c, const char *canon);
/* A read of path (as asked) that failed with err: MANIFEST error.<path>=ERRNO. */
int capture_error(struct capture *c, const char *path, int err);

/* Write MANIFEST (the given entries, then the errors); the first error seen, or 0. */
int capture_finish(struct capture *c, const struct manifest_entry *kv, size_t n);
