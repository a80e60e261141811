/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * How much RAM a device reaches under each reading of its mask. Pure
 * interval arithmetic over the layout's RAM ranges; no I/O.
 */
#pragma once

#include "shared/macro.h"

#include <stdbool.h>
#include <stdint.h>

#include "analysis/dma-map.h"
#include "analysis/eras.h"
#include "analysis/layout.h"

enum reach_test {
	REACH_LIMIT,   /* dma-direct: bus end <= min_not_zero(mask, bus limit) */
	REACH_BITMASK, /* DMA-API definition: addr & mask == addr (and <= bus limit) */
};

struct reach {
	uint64_t reachable_bytes;
	uint64_t unreachable_bytes;
	uint64_t uncovered_bytes;     /* unreachable because no dma-range region covers them */
	uint64_t lowest_unreachable;  /* CPU physical address */
	bool any_unreachable;
	bool known;                   /* reach_compute() filled it: a zeroed one is unknown */
};

/*
 * Reach of RAM for a device. range_map (analysis/eras.h) is
 * how the kernel of that era translates (regions, one offset, or none).
 * bus_limit 0 means none. Returns 0 (no failure mode: pure arithmetic).
 */
_must_check_ int reach_compute(const struct layout *l, const struct dma_map *map, enum range_map range_map,
		  uint64_t mask, uint64_t bus_limit, enum reach_test test, struct reach *ret);

/* Addresses a in [lo, hi] with (a & ~mask) == 0: false for none, else *ret_m1 = count - 1
 * (the count minus one, so that all 2^64 addresses fit). */
bool bitmask_count_m1(uint64_t lo, uint64_t hi, uint64_t mask, uint64_t *ret_m1) _nonnull_all_;

/* True for masks of the form 2^n - 1 (where both readings agree). */
bool mask_is_contiguous(uint64_t mask);

/*
 * The highest CPU physical address whose bus address is at most limit (0:
 * none), translated as the era does (range_map): the CPU-side end of the
 * reach. With regions, the highest such address of any region (a region
 * shadowed by an earlier one covering the same CPU addresses is not told
 * apart). false when no CPU address is in reach.
 */
bool reach_cpu_end(const struct dma_map *map, enum range_map range_map, uint64_t limit,
		   uint64_t *ret) _nonnull_all_;
