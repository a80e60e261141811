/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The block layer's bounce decision before 5.13 (block/blk-settings.c
 * blk_queue_bounce_limit, block/bounce.c blk_queue_bounce; mm/bounce.c
 * before 3.16), computed for one reading of max_low_pfn. Pure.
 */
#pragma once

#include "shared/macro.h"

#include <stdbool.h>
#include <stdint.h>

#include "analysis/eras.h"
#include "analysis/layout.h"

struct legacy_block {
	enum max_low_pfn_reading reading;
	bool bounce_high;         /* the queue got BLK_BOUNCE_HIGH (no mask) */
	bool isa;                 /* the GFP_DMA / ISA-pool path */
	bool early_return;        /* bounce_pfn >= blk_max_pfn (non-ISA): nothing bounces */
	uint64_t max_low_pfn;     /* as that kernel stored it */
	uint64_t max_pfn;
	uint64_t blk_max_low_pfn; /* max_low_pfn - 1 (blk_settings_init) */
	uint64_t blk_max_pfn;     /* max_pfn - 1 */
	uint64_t max_addr;        /* what the driver passed to blk_queue_bounce_limit */
	uint64_t b_pfn;           /* max_addr >> PAGE_SHIFT */
	uint64_t bounce_pfn;      /* q->limits.bounce_pfn */
	uint64_t bounce_bytes;    /* RAM with pfn > bounce_pfn, 0 on early return */
};

struct legacy_block_input {
	unsigned bits;            /* BITS_PER_LONG */
	enum max_low_pfn_reading reading;
	enum block_limit limit_rule;
	bool has_mask;            /* false: the driver used BLK_BOUNCE_HIGH */
	uint64_t mask;
	int64_t dma_pfn_offset;   /* (cpu - bus) >> PAGE_SHIFT of the device's translation */
};

/* 0, or -ENODATA when the layout lacks what is needed (lowmem unknown). */
_must_check_ int legacy_block_compute(const struct layout *l, const struct legacy_block_input *in,
			 struct legacy_block *ret);

/* A queue without a mask (BLK_BOUNCE_HIGH) under each reading, ret[MAX_LOW_PFN_*]:
 * 0, or -ENODATA as legacy_block_compute(). */
_must_check_ int legacy_block_bounce_high(const struct layout *l, unsigned bits, struct legacy_block ret[2]);

/*
 * The RAM the count reading bounces and the PFN reading does not (*ret_only),
 * and the reverse (*ret_missed). Each reading bounces RAM above its
 * bounce_pfn or nothing: nested sets, so one of the two is 0.
 */
void legacy_block_count_cost(const struct legacy_block *as_count, const struct legacy_block *as_pfn,
			     uint64_t *ret_only, uint64_t *ret_missed) _nonnull_all_;

/* Whether two readings lead to different bounce decisions. */
bool legacy_block_differ(const struct legacy_block *a, const struct legacy_block *b);

/* RAM bytes with PFN strictly above pfn. */
uint64_t ram_bytes_above_pfn(const struct layout *l, uint64_t pfn);
