/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* 3.x-5.12 block bounce arithmetic: blk_queue_bounce_limit() and blk_queue_bounce(), cited in eras.c. */
#include <string.h>

#include "analysis/eras.h"
#include "analysis/legacy-block.h"

uint64_t ram_bytes_above_pfn(const struct layout *l, uint64_t pfn)
{
	if (pfn + 1 == 0 || ((pfn + 1) >> (64 - l->page_shift)) != 0)
		return 0; /* above any 64-bit address */
	return layout_ram_bytes_above(l, (pfn + 1) << l->page_shift);
}

int legacy_block_compute(const struct layout *l, const struct legacy_block_input *in,
			 struct legacy_block *ret)
{
	struct legacy_block b = { .reading = in->reading };
	unsigned shift = l->page_shift;

	if (l->source == LAYOUT_SOURCE_NONE || !l->lowmem.known || l->end_pfn == 0)
		return -ENODATA;

	if (in->reading == MAX_LOW_PFN_COUNT) {
		b.max_low_pfn = l->lowmem.max_low_pfn_as_count;
		b.max_pfn = l->end_pfn - l->base_pfn; /* max_high - PHYS_PFN_OFFSET */
	} else {
		b.max_low_pfn = l->lowmem.max_low_pfn_as_pfn;
		b.max_pfn = l->end_pfn;
	}
	/* blk_settings_init(); a zero would wrap, as it would have in the kernel */
	b.blk_max_low_pfn = b.max_low_pfn - 1;
	b.blk_max_pfn = b.max_pfn - 1;

	/* BLK_BOUNCE_HIGH: blk_max_low_pfn << PAGE_SHIFT on 32-bit, -1ULL on 64-bit */
	uint64_t bounce_high = in->bits == 32 ? b.blk_max_low_pfn << shift : UINT64_MAX;
	b.bounce_high = !in->has_mask && in->limit_rule != BLOCK_LIMIT_NONE;
	if (in->limit_rule == BLOCK_LIMIT_NONE) {
		b.max_addr = UINT64_MAX; /* BLK_BOUNCE_ANY whatever the mask */
	} else if (!in->has_mask) {
		b.max_addr = bounce_high;
	} else {
		switch (in->limit_rule) {
		case BLOCK_LIMIT_MASK:
			b.max_addr = in->mask;
			break;
		case BLOCK_LIMIT_PHYS_OFFSET_PFN: /* PHYS_PFN_OFFSET + dma_to_pfn(dev, mask) */
			b.max_addr = (l->base_pfn + (in->mask >> shift)) << shift;
			break;
		case BLOCK_LIMIT_DMA_MAX_PFN:
			b.max_addr = (uint64_t)((int64_t)(in->mask >> shift) + in->dma_pfn_offset) << shift;
			break;
		default: /* BLOCK_LIMIT_ANY_WITH_MASK: no limit set, BLK_BOUNCE_ANY */
			b.max_addr = UINT64_MAX;
			break;
		}
	}
	b.b_pfn = b.max_addr >> shift;

	if (in->bits == 64) {
		/* "Assume anything <= 4GB can be handled by IOMMU" */
		b.isa = b.b_pfn < (0xffffffffull >> shift);
		b.bounce_pfn = b.max_low_pfn > b.b_pfn ? b.max_low_pfn : b.b_pfn;
	} else {
		b.isa = b.b_pfn < b.blk_max_low_pfn;
		b.bounce_pfn = b.b_pfn;
	}
	if (b.isa)
		b.bounce_pfn = b.b_pfn;

	/* blk_queue_bounce(): the non-ISA early return, then pfn > bounce_pfn bounces */
	b.early_return = !b.isa && b.bounce_pfn >= b.blk_max_pfn;
	b.bounce_bytes = b.early_return ? 0 : ram_bytes_above_pfn(l, b.bounce_pfn);
	*ret = b;
	return 0;
}

bool legacy_block_differ(const struct legacy_block *a, const struct legacy_block *b)
{
	return a->early_return != b->early_return || a->isa != b->isa ||
	       a->bounce_bytes != b->bounce_bytes;
}

int legacy_block_bounce_high(const struct layout *l, unsigned bits, struct legacy_block ret[2])
{
	struct legacy_block b[2];

	for (int reading = 0; reading < 2; reading++) {
		/* without a mask any limit_rule but BLOCK_LIMIT_NONE gives BLK_BOUNCE_HIGH */
		struct legacy_block_input in = { .bits = bits, .reading = reading, .has_mask = false };
		int e = legacy_block_compute(l, &in, &b[reading]);
		if (e < 0)
			return e;
	}
	ret[0] = b[0];
	ret[1] = b[1];
	return 0;
}

void legacy_block_count_cost(const struct legacy_block *as_count, const struct legacy_block *as_pfn,
			     uint64_t *ret_only, uint64_t *ret_missed)
{
	uint64_t c = as_count->bounce_bytes, p = as_pfn->bounce_bytes;

	*ret_only = c > p ? c - p : 0;
	*ret_missed = p > c ? p - c : 0;
}
