/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "shared/macro.h"

/* A short description of an errno as the sysroot layer uses it (sign ignored). */
const char *errno_describe(int err);
#include <stdbool.h>

/* Errnos are below the kernel's MAX_ERRNO (include/linux/err.h: 4095). */
#define ERRNO_MAX 4096
/* "E" and an int, or a name */
#define ERRNO_NAME_MAX 16

/* The errno's symbolic name ("ENOENT"), never NULL: "E<number>" for one no table names. */
const char *errno_name(int err) __attribute__((returns_nonnull));
/* The errno for a symbolic or "E<number>" name, or 0 when unknown. */
_must_check_ int errno_from_name(const char *name);
/* An errno that tells of the file (absent, denied, refused), as a replay reproduces it. */
bool errno_is_answer(int err);
/* An errno that tells of this run's resources (descriptors, memory), not of the machine. */
bool errno_is_exhaustion(int err);
