/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A number that may be unknown: the value and whether it was learnt. An
 * unknown one is all zero, so a zeroed struct starts every value unknown.
 * Read .v only when .known; no sentinel (-1, 0, SIZE_MAX, -ENOENT) stands
 * for "unknown" beside these.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct opt_u64 { uint64_t v; bool known; };
struct opt_i64 { int64_t v; bool known; };
struct opt_u32 { uint32_t v; bool known; };
struct opt_int { int v; bool known; };
struct opt_size { size_t v; bool known; };
struct opt_bool { bool v; bool known; }; /* a yes/no the kernel may not tell */

/* A known value, for initialisers: `.numa_node = OPT(0)`. */
#define OPT(x) { .v = (x), .known = true }

/* Make *o known with value x (any opt_*). */
#define opt_set(o, x) ((o)->v = (x), (o)->known = true)

/* Make *o unknown. */
#define opt_clear(o) ((o)->v = 0, (o)->known = false)

/* *o is known and equals x. */
#define opt_is(o, x) ((o)->known && (o)->v == (x))
