/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* RAM reach per mask reading; see include/linux/dma-direct.h dma_capable(). */
#include <stdlib.h>
#include <string.h>

#include "analysis/eras.h"
#include "analysis/reach.h"
#include "shared/macro.h"

typedef unsigned __int128 u128;

bool mask_is_contiguous(uint64_t mask)
{
	return (mask & (mask + 1)) == 0;
}

/* Addresses a in [0, x] with (a & ~mask) == 0, by walking x's bits from the top. */
static u128 subset_upto(uint64_t x, uint64_t mask)
{
	u128 count = 0;

	for (int i = 63; i >= 0; i--) {
		uint64_t bit = 1ull << i;
		if (!(x & bit))
			continue;
		/* a takes 0 here and is then below x: any choice of the lower mask bits */
		uint64_t lower = mask & (bit - 1);
		count += (u128)1 << __builtin_popcountll(lower);
		if (!(mask & bit))
			return count; /* a cannot take 1 here: nothing more equals x's prefix */
	}
	return count + 1; /* a == x itself */
}

uint64_t bitmask_count(uint64_t lo, uint64_t hi, uint64_t mask)
{
	if (hi < lo)
		return 0;
	u128 n = subset_upto(hi, mask) - (lo ? subset_upto(lo - 1, mask) : 0);
	return n > UINT64_MAX ? UINT64_MAX : (uint64_t)n;
}

/* Reachable bytes of the bus interval [a, b]. */
static uint64_t reachable_bus(uint64_t a, uint64_t b, uint64_t mask, uint64_t bus_limit,
			      enum reach_test test)
{
	if (test == REACH_BITMASK) {
		if (bus_limit && b > bus_limit)
			b = bus_limit;
		return bitmask_count(a, b, mask);
	}
	uint64_t limit = mask == 0 ? bus_limit : bus_limit == 0 ? mask
					   : (mask < bus_limit ? mask : bus_limit);
	if (a > limit)
		return 0;
	return (b < limit ? b : limit) - a + 1;
}

static void account(struct reach *r, uint64_t phys_a, uint64_t phys_b, uint64_t reachable,
		    bool uncovered)
{
	u128 total = (u128)phys_b - phys_a + 1;
	uint64_t unreach = (uint64_t)(total - reachable);

	r->reachable_bytes += reachable;
	r->unreachable_bytes += unreach;
	if (uncovered)
		r->uncovered_bytes += unreach;
	if (unreach && (!r->any_unreachable || phys_a < r->lowest_unreachable)) {
		/* for a limit the unreachable part is the top; a bitmask leaves holes,
		 * so the segment start is the conservative answer */
		r->lowest_unreachable = phys_a;
		r->any_unreachable = true;
	}
}

/* Segment [a, b] at bus offset (bus = phys - cpu_start + dma_start). */
static void segment(struct reach *r, uint64_t a, uint64_t b, uint64_t cpu_start, uint64_t dma_start,
		    uint64_t mask, uint64_t bus_limit, enum reach_test test)
{
	__int128 ba = (__int128)a - cpu_start + dma_start, bb = (__int128)b - cpu_start + dma_start;

	if (bb < 0 || ba > (__int128)UINT64_MAX) {
		account(r, a, b, 0, false); /* no bus address at all: never capable */
		return;
	}
	if (ba < 0) {
		uint64_t zero = (uint64_t)((__int128)a - ba); /* the CPU address at bus 0 */
		account(r, a, zero - 1, 0, false);
		a = zero;
		ba = 0;
	}
	uint64_t hi = bb > (__int128)UINT64_MAX ? UINT64_MAX : (uint64_t)bb;
	uint64_t reach = reachable_bus((uint64_t)ba, hi, mask, bus_limit, test);
	/* Under a limit the reachable bytes are the low ones: say where the rest start. */
	if (reach && test == REACH_LIMIT && reach <= b - a) {
		account(r, a, a + reach - 1, reach, false);
		account(r, a + reach, b, 0, false);
		return;
	}
	account(r, a, b, reach, false);
}

static int cmp_u128(const void *x, const void *y)
{
	u128 a = *(const u128 *)x, b = *(const u128 *)y;
	return a < b ? -1 : a > b;
}

/* Split [a, b] at region edges; the first region covering a piece wins. */
static int regions_range(struct reach *r, const struct dma_map *map, uint64_t a, uint64_t b,
			 uint64_t mask, uint64_t bus_limit, enum reach_test test)
{
	size_t cap = 2 + 2 * map->n_regions, n = 0;
	_cleanup_free_ u128 *cut = malloc(cap * sizeof(*cut));

	if (!cut)
		return -ENOMEM;
	cut[n++] = a;
	cut[n++] = (u128)b + 1;
	for (size_t k = 0; k < map->n_regions; k++) {
		u128 s = map->regions[k].cpu_start, e = s + map->regions[k].size;
		if (s > a && s <= b)
			cut[n++] = s;
		if (e > a && e <= b)
			cut[n++] = e;
	}
	qsort(cut, n, sizeof(*cut), cmp_u128);
	for (size_t i = 0; i + 1 < n; i++) {
		if (cut[i] == cut[i + 1])
			continue;
		uint64_t pa = (uint64_t)cut[i], pb = (uint64_t)(cut[i + 1] - 1);
		const struct dma_region *hit = NULL;
		for (size_t k = 0; k < map->n_regions && !hit; k++) {
			const struct dma_region *g = &map->regions[k];
			if (pa >= g->cpu_start && pa - g->cpu_start < g->size)
				hit = g;
		}
		if (hit)
			segment(r, pa, pb, hit->cpu_start, hit->dma_start, mask, bus_limit, test);
		else
			account(r, pa, pb, 0, true); /* DMA_MAPPING_ERROR: never capable */
	}
	return 0;
}

int reach_compute(const struct layout *l, const struct dma_map *map, int range_map,
		  uint64_t mask, uint64_t bus_limit, enum reach_test test, struct reach *ret)
{
	struct reach r = { 0 };
	bool regions = map && map->state == DMA_MAP_RANGES;

	for (size_t i = 0; i < l->n_ranges; i++) {
		uint64_t a = l->ranges[i].start, b = l->ranges[i].end;
		if (regions && range_map == RANGE_MAP_REGIONS) {
			int e = regions_range(&r, map, a, b, mask, bus_limit, test);
			if (e < 0)
				return e;
		} else if (regions && range_map == RANGE_MAP_PFN_OFFSET) {
			/* one dma_pfn_offset for every address (the first range's) */
			segment(&r, a, b, map->regions[0].cpu_start, map->regions[0].dma_start, mask,
				bus_limit, test);
		} else {
			segment(&r, a, b, 0, 0, mask, bus_limit, test);
		}
	}
	*ret = r;
	return 0;
}
