/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The device table, one row per device, in the shapes util-linux tables
 * take: aligned, -r raw, -P KEY="value" pairs, and -J with -o (lsblk -J -o).
 */
#pragma once

#include "shared/macro.h"

#include <stdio.h>

#include "analysis/model.h"
#include "render/render.h"

/*
 * The table of r's devices, in o's columns (the defaults when none), sorted
 * by o->sort; as a JSON document {"devices": [...]} when json. 0, or
 * -errno (-ENOMEM, or -EIO when out could not be written).
 */
_must_check_ int device_table_print(FILE *out, const struct report *r, const struct render_options *o,
				    bool json) _nonnull_all_;
