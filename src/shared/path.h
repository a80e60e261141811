/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Joining a path: the one "dir/name" of every layer. */
#pragma once

#include "shared/macro.h"

/*
 * Pure: "dir/name", malloc'd; "name" when dir is "" (the root of a
 * root-relative path). Nothing is normalised: a name may hold '/' itself
 * ("driver/module"). NULL on OOM.
 */
_must_check_ char *path_join(const char *dir, const char *name) _nonnull_all_;
