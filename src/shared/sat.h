/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Saturating 64-bit arithmetic for sizes: 2^64 bytes cannot be told from 0
 * once wrapped, so totals stop at UINT64_MAX instead.
 */
#pragma once

#include <stdint.h>

static inline uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* v << shift, or UINT64_MAX when bits would fall off the top (shift < 64). */
static inline uint64_t sat_shl(uint64_t v, unsigned shift)
{
	return v > (UINT64_MAX >> shift) ? UINT64_MAX : v << shift;
}
