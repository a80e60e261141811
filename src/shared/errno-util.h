/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "shared/macro.h"

/* A short description of an errno as the sysroot layer uses it (sign ignored). */
const char *errno_describe(int err);
/* The errno's symbolic name ("ENOENT"), or NULL when not one the tool uses. */
const char *errno_name(int err);
/* The errno for a symbolic name, or 0 when unknown. */
_must_check_ int errno_from_name(const char *name);
