/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * DMAMASK_DEBUG: a comma-separated list of areas whose debug trace goes to
 * stderr, as util-linux's ULPATH_DEBUG does for its path layer. Unknown
 * words are ignored, so areas can be added without breaking old settings.
 * A trace never changes a result; it is the one output analysis/ makes.
 */
#pragma once

#include <stdbool.h>

#include "shared/macro.h"

enum debug_area {
	DEBUG_SYSROOT = 1u << 0,  /* one line per filesystem access (sysroot.c) */
	DEBUG_READERS = 1u << 1,  /* one line per reader: its result, the inputs it recorded (collect.c) */
	DEBUG_ERAS = 1u << 2,     /* one line per era lookup: the rule, release, arch, value and row (eras.c) */
	DEBUG_VERDICTS = 1u << 3, /* one line per device: the case that decided, the numbers it read (devices.c) */
};

/* Pure: the areas named in a DMAMASK_DEBUG value (NULL: none). */
unsigned debug_parse(const char *value);

/* True when the environment's DMAMASK_DEBUG names area (read once). */
bool debug_enabled(enum debug_area area);

/* "dmamask-audit: AREA: ..." and a newline on stderr, when area is enabled. */
void debug_log(enum debug_area area, const char *fmt, ...) _printf_(2, 3);
