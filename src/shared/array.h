/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Arrays grown one element at a time, by doubling: the capacity is the
 * smallest power of two above the count, so no field holds it, and a new
 * allocation is due only when the count is 0 or a power of two. Growing by
 * one (realloc(n + 1)) was quadratic where realloc always copies, as under
 * ASan: 80,000 failed reads of a capture took over 300 s there.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* An array of n elements, grown only by this rule, is full. */
static inline bool array_full(size_t n)
{
	return (n & (n - 1)) == 0;
}

/* The capacity to reallocate a full array of n elements to. */
static inline size_t array_capacity(size_t n)
{
	return n ? 2 * n : 1;
}
