/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --diff --fleet's output: the groups as text to read, or JSON (fleet_diff_schema_version 1) to pipe. */
#pragma once

#include "shared/macro.h"

#include <stdbool.h>
#include <stdio.h>

#include "diff/fleet-diff.h"

/* Each returns 0, or -errno when out could not be written. */
_must_check_ int fleet_render_text(FILE *out, const struct fleet_diff *f) _nonnull_all_;
_must_check_ int fleet_render_json(FILE *out, const struct fleet_diff *f) _nonnull_all_;
