/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* RAM reach per mask reading; see include/linux/dma-direct.h dma_capable(). */
#include <stdlib.h>
#include <string.h>

#include "analysis/eras.h"
#include "analysis/reach.h"
#include "shared/sat.h"
#include "shared/macro.h"

/*
 * 64-bit arithmetic only (no __int128: i386 and armhf have none). A count of
 * addresses can be 2^64, one more than uint64_t holds, so counts inside this
 * file travel as "count - 1" beside a flag for "none"; byte totals saturate
 * at UINT64_MAX, as the layout's do.
 */

bool mask_is_contiguous(uint64_t mask)
{
	return (mask & (mask + 1)) == 0;
}

/*
 * Addresses a in [0, x) with (a & ~mask) == 0, by walking x's bits from the
 * top. At most x <= 2^64 - 1 of them: no overflow. *ret_x_in says whether
 * x itself qualifies.
 */
static uint64_t subset_below(uint64_t x, uint64_t mask, bool *ret_x_in)
{
	uint64_t count = 0;

	for (int i = 63; i >= 0; i--) {
		uint64_t bit = 1ull << i;
		if (!(x & bit))
			continue;
		/* a takes 0 here and is then below x: any choice of the lower mask bits */
		uint64_t lower = mask & (bit - 1);
		count += 1ull << __builtin_popcountll(lower);
		if (!(mask & bit)) {
			*ret_x_in = false; /* a cannot take 1 here: nothing more equals x's prefix */
			return count;
		}
	}
	*ret_x_in = true;
	return count;
}

bool bitmask_count_m1(uint64_t lo, uint64_t hi, uint64_t mask, uint64_t *ret_m1)
{
	bool hi_in, lo_in;

	if (hi < lo)
		return false;
	/* below(hi) >= below(lo) since lo <= hi; count = below(hi) - below(lo) + [hi qualifies] */
	uint64_t n = subset_below(hi, mask, &hi_in) - subset_below(lo, mask, &lo_in);
	if (hi_in) {
		*ret_m1 = n;
		return true;
	}
	if (n == 0)
		return false;
	*ret_m1 = n - 1;
	return true;
}

/*
 * CPU range [a, b], of which reach_m1 + 1 bytes are reachable (none when
 * !any). b - a and reach_m1 <= b - a always fit; only the totals saturate.
 */
static void account(struct reach *r, uint64_t a, uint64_t b, bool any, uint64_t reach_m1,
		    bool uncovered)
{
	uint64_t span_m1 = b - a;
	uint64_t reach = !any ? 0 : reach_m1 == UINT64_MAX ? UINT64_MAX : reach_m1 + 1;
	uint64_t unreach = any ? span_m1 - reach_m1
			       : span_m1 == UINT64_MAX ? UINT64_MAX : span_m1 + 1;

	r->reachable_bytes = sat_add(r->reachable_bytes, reach);
	r->unreachable_bytes = sat_add(r->unreachable_bytes, unreach);
	if (uncovered)
		r->uncovered_bytes = sat_add(r->uncovered_bytes, unreach);
	if (unreach && (!r->any_unreachable || a < r->lowest_unreachable)) {
		/* for a limit the unreachable part is the top; a bitmask leaves holes,
		 * so the segment start is the conservative answer */
		r->lowest_unreachable = a;
		r->any_unreachable = true;
	}
}

static void account_none(struct reach *r, uint64_t a, uint64_t b, bool uncovered)
{
	account(r, a, b, false, 0, uncovered);
}

static void account_all(struct reach *r, uint64_t a, uint64_t b)
{
	account(r, a, b, true, b - a, false);
}

/* Segment [a, b] at bus offset (bus = phys - cpu_start + dma_start). */
static void segment(struct reach *r, uint64_t a, uint64_t b, uint64_t cpu_start, uint64_t dma_start,
		    uint64_t mask, uint64_t bus_limit, enum reach_test test)
{
	uint64_t ba, hi; /* bus addresses of a and of b, the latter clipped at 2^64 - 1 */

	if (dma_start >= cpu_start) {
		uint64_t d = dma_start - cpu_start;
		if (__builtin_add_overflow(a, d, &ba)) {
			account_none(r, a, b, false); /* every bus address above 2^64 - 1: never capable */
			return;
		}
		if (__builtin_add_overflow(b, d, &hi))
			hi = UINT64_MAX; /* the part above counts as unreachable below */
	} else {
		uint64_t d = cpu_start - dma_start; /* the CPU address at bus 0 */
		if (b < d) {
			account_none(r, a, b, false); /* every bus address below 0 */
			return;
		}
		if (a < d) {
			account_none(r, a, d - 1, false);
			a = d;
		}
		ba = a - d;
		hi = b - d;
	}

	if (test == REACH_BITMASK) {
		uint64_t m1;
		uint64_t top = bus_limit && hi > bus_limit ? bus_limit : hi;
		bool any = bitmask_count_m1(ba, top, mask, &m1);
		account(r, a, b, any, m1, false);
		return;
	}
	uint64_t limit = mask == 0 ? bus_limit : bus_limit == 0 ? mask
					   : (mask < bus_limit ? mask : bus_limit);
	if (ba > limit) {
		account_none(r, a, b, false);
		return;
	}
	/* Under a limit the reachable bytes are the low ones: say where the rest start. */
	uint64_t last = a + ((hi < limit ? hi : limit) - ba); /* <= b: hi - ba <= b - a */
	account_all(r, a, last);
	if (last < b)
		account_none(r, last + 1, b, false);
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

/* Split [a, b] at region edges; the first region covering a piece wins. */
static int regions_range(struct reach *r, const struct dma_map *map, uint64_t a, uint64_t b,
			 uint64_t mask, uint64_t bus_limit, enum reach_test test)
{
	/* piece starts: a, and each region start or end inside (a, b] */
	size_t cap = 1 + 2 * map->n_regions, n = 0;
	_cleanup_free_ uint64_t *cut = calloc(cap, sizeof(*cut));

	if (!cut)
		return -ENOMEM;
	cut[n++] = a;
	for (size_t k = 0; k < map->n_regions; k++) {
		uint64_t s = map->regions[k].cpu_start, e;
		if (s > a && s <= b)
			cut[n++] = s;
		/* an end past 2^64 - 1 is past b */
		if (!__builtin_add_overflow(s, map->regions[k].size, &e) && e > a && e <= b)
			cut[n++] = e;
	}
	qsort(cut, n, sizeof(*cut), cmp_u64);
	for (size_t i = 0; i < n; i++) {
		if (i + 1 < n && cut[i] == cut[i + 1])
			continue;
		uint64_t pa = cut[i], pb = i + 1 < n ? cut[i + 1] - 1 : b;
		const struct dma_region *hit = NULL;
		for (size_t k = 0; k < map->n_regions && !hit; k++) {
			const struct dma_region *g = &map->regions[k];
			if (pa >= g->cpu_start && pa - g->cpu_start < g->size)
				hit = g;
		}
		if (hit)
			segment(r, pa, pb, hit->cpu_start, hit->dma_start, mask, bus_limit, test);
		else
			account_none(r, pa, pb, true); /* DMA_MAPPING_ERROR: never capable */
	}
	return 0;
}

int reach_compute(const struct layout *l, const struct dma_map *map, enum range_map range_map,
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
	r.known = true;
	*ret = r;
	return 0;
}

/* The top CPU address of one region (size > 0) whose bus address is <= limit: false for none. */
static bool region_cpu_end(uint64_t cpu_start, uint64_t dma_start, uint64_t size, uint64_t limit,
			   uint64_t *ret)
{
	if (dma_start > limit)
		return false;
	uint64_t span_m1 = limit - dma_start; /* bus addresses dma_start..limit, minus one */
	if (span_m1 > size - 1)
		span_m1 = size - 1;
	*ret = UINT64_MAX - cpu_start < span_m1 ? UINT64_MAX : cpu_start + span_m1;
	return true;
}

bool reach_cpu_end(const struct dma_map *map, enum range_map range_map, uint64_t limit, uint64_t *ret)
{
	bool regions = map->state == DMA_MAP_RANGES && map->n_regions > 0;
	bool any = false;
	uint64_t best = 0, e;

	if (limit == 0)
		limit = UINT64_MAX;
	if (!regions || range_map == RANGE_MAP_NONE) {
		*ret = limit;
		return true;
	}
	if (range_map == RANGE_MAP_PFN_OFFSET) {
		/* one dma_pfn_offset for every address (the first range's), no window of its own */
		const struct dma_region *g = &map->regions[0];
		if (g->dma_start >= g->cpu_start) {
			uint64_t d = g->dma_start - g->cpu_start; /* bus = cpu + d */
			if (limit < d)
				return false;
			*ret = limit - d;
		} else {
			uint64_t d = g->cpu_start - g->dma_start; /* cpu = bus + d */
			*ret = UINT64_MAX - d < limit ? UINT64_MAX : limit + d;
		}
		return true;
	}
	for (size_t k = 0; k < map->n_regions; k++) {
		const struct dma_region *g = &map->regions[k];
		if (g->size && region_cpu_end(g->cpu_start, g->dma_start, g->size, limit, &e) &&
		    (!any || e > best)) {
			best = e;
			any = true;
		}
	}
	if (any)
		*ret = best;
	return any;
}
