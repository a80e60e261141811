/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * DMAMASK_DEBUG: a comma-separated list of areas whose debug trace goes to
 * stderr, as util-linux's ULPATH_DEBUG does for its path layer. Unknown
 * words are ignored, so areas can be added without breaking old settings.
 */
#pragma once

#include <stdbool.h>

enum debug_area {
	DEBUG_SYSROOT = 1u << 0, /* one line per filesystem access (sysroot.c) */
};

/* Pure: the areas named in a DMAMASK_DEBUG value (NULL: none). */
unsigned debug_parse(const char *value);

/* True when the environment's DMAMASK_DEBUG names area. */
bool debug_enabled(enum debug_area area);
