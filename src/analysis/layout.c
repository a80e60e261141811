/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Memory layout arithmetic: PFNs, lowmem, the two readings of max_low_pfn. */
#include <stdlib.h>
#include <string.h>

#include "analysis/layout.h"
#include "shared/string-table.h"
#include "shared/sat.h"

static const char *const layout_source_table[_LAYOUT_SOURCE_MAX] = {
	[LAYOUT_SOURCE_NONE] = "none",
	[LAYOUT_SOURCE_IOMEM] = "iomem",
	[LAYOUT_SOURCE_ZONEINFO] = "zoneinfo",
};

DEFINE_STRING_TABLE_LOOKUP_TO_STRING(layout_source, enum layout_source);

static unsigned log2u(unsigned v)
{
	unsigned s = 0;
	while (v > 1) {
		v >>= 1;
		s++;
	}
	return s;
}

/* PFN_DOWN(end + 1) without overflowing when end is 2^64-1. */
static uint64_t pfn_after(uint64_t end_inclusive, unsigned shift)
{
	uint64_t mask = (1ull << shift) - 1;
	return (end_inclusive >> shift) + ((end_inclusive & mask) == mask);
}

static bool is_highmem_zone(const struct zone *z)
{
	return strcmp(z->name, "HighMem") == 0;
}


uint64_t layout_ram_bytes_from_pfn(const struct layout *l, uint64_t pfn)
{
	/* a PFN at or past 2^64 >> page_shift (the end_pfn of RAM ending at 2^64-1) has none */
	if (pfn > (UINT64_MAX >> l->page_shift))
		return 0;
	return layout_ram_bytes_above(l, pfn << l->page_shift);
}

uint64_t layout_ram_bytes_above(const struct layout *l, uint64_t addr)
{
	uint64_t sum = 0;
	for (size_t i = 0; i < l->n_ranges; i++) {
		const struct ram_range *r = &l->ranges[i];
		if (r->end < addr)
			continue;
		uint64_t from = r->start > addr ? r->start : addr;
		sum = sat_add(sum, r->end - from == UINT64_MAX ? UINT64_MAX : r->end - from + 1);
	}
	return sum;
}

static int ranges_from_iomem(const struct machine *m, struct layout *l)
{
	l->ranges = malloc(m->n_ram * sizeof(*l->ranges));
	if (!l->ranges)
		return -ENOMEM;
	memcpy(l->ranges, m->ram, m->n_ram * sizeof(*l->ranges));
	l->n_ranges = m->n_ram;
	for (size_t i = 0; i < m->n_ram; i++)
		l->ram_bytes = sat_add(l->ram_bytes, m->ram[i].end - m->ram[i].start + 1);
	uint64_t low = m->ram[0].start, high = m->ram[m->n_ram - 1].end;
	l->base_pfn = (low >> l->page_shift) + ((low & (l->page_size - 1)) != 0);
	l->end_pfn = pfn_after(high, l->page_shift);
	return 0;
}

static int cmp_range(const void *a, const void *b)
{
	const struct ram_range *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Populated zone spans, merged where they touch: RAM with holes unknown. */
static int ranges_from_zoneinfo(const struct machine *m, struct layout *l)
{
	size_t n = 0;

	l->ranges = malloc((m->n_zones ? m->n_zones : 1) * sizeof(*l->ranges));
	if (!l->ranges)
		return -ENOMEM;
	for (size_t i = 0; i < m->n_zones; i++) {
		const struct zone *z = &m->zones[i];
		if (!z->populated || z->spanned == 0)
			continue;
		if (z->start_pfn + z->spanned > (UINT64_MAX >> l->page_shift) + 1) {
			free(l->ranges);
			l->ranges = NULL;
			return -ERANGE; /* beyond a 64-bit physical address space */
		}
		l->ranges[n].start = z->start_pfn << l->page_shift;
		l->ranges[n].end = ((z->start_pfn + z->spanned) << l->page_shift) - 1;
		if (z->present > (UINT64_MAX >> l->page_shift)) {
			free(l->ranges);
			l->ranges = NULL;
			return -ERANGE;
		}
		l->ram_bytes = sat_add(l->ram_bytes, z->present << l->page_shift);
		n++;
	}
	if (n == 0) {
		free(l->ranges);
		l->ranges = NULL;
		return -ENODATA;
	}
	qsort(l->ranges, n, sizeof(*l->ranges), cmp_range);
	size_t out = 0;
	for (size_t i = 1; i < n; i++) {
		if (l->ranges[i].start <= l->ranges[out].end + 1) {
			if (l->ranges[i].end > l->ranges[out].end)
				l->ranges[out].end = l->ranges[i].end;
		} else {
			l->ranges[++out] = l->ranges[i];
		}
	}
	l->n_ranges = out + 1;
	l->base_pfn = l->ranges[0].start >> l->page_shift;
	l->end_pfn = pfn_after(l->ranges[l->n_ranges - 1].end, l->page_shift);
	return 0;
}

static void compute_lowmem(const struct machine *m, struct layout *l)
{
	const struct arch_info *ai = m->arch_info;
	bool found = false;
	uint64_t high_start = 0, high_present = 0;

	if (m->zoneinfo_ok) {
		for (size_t i = 0; i < m->n_zones; i++) {
			const struct zone *z = &m->zones[i];
			if (!is_highmem_zone(z) || !z->populated)
				continue;
			if (!found || z->start_pfn < high_start)
				high_start = z->start_pfn;
			high_present += z->present;
			found = true;
		}
		l->lowmem.known = true;
		if (found) {
			l->lowmem.end_pfn = high_start;
			l->lowmem.source = "start_pfn of the first populated HighMem zone";
		} else {
			l->lowmem.end_pfn = l->end_pfn;
			l->lowmem.source = "no populated HighMem zone: end_pfn";
		}
	} else if (ai && !ai->highmem_capable) {
		l->lowmem.known = true;
		l->lowmem.end_pfn = l->end_pfn;
		l->lowmem.source = "architecture has no highmem: end_pfn";
	} else if (opt_is(&m->meminfo.high_total, 0)) {
		l->lowmem.known = true;
		l->lowmem.end_pfn = l->end_pfn;
		l->lowmem.source = "meminfo HighTotal is 0: end_pfn";
	} else {
		l->unknown_reason = ai ? "32-bit kernel and no usable proc/zoneinfo: where lowmem "
					 "ends is unknown"
				       : "unknown architecture and no usable proc/zoneinfo: where "
					 "lowmem ends is unknown";
		return;
	}

	if (l->lowmem.end_pfn < l->base_pfn || l->lowmem.end_pfn > l->end_pfn) {
		l->lowmem = (struct lowmem){ 0 };
		l->unknown_reason = "HighMem zone starts outside the RAM ranges";
		return;
	}
	l->lowmem.page_count = l->lowmem.end_pfn - l->base_pfn;
	l->lowmem.max_low_pfn_as_count = l->lowmem.page_count;
	l->lowmem.max_low_pfn_as_pfn = l->lowmem.end_pfn;
	if (l->source == LAYOUT_SOURCE_ZONEINFO)
		l->lowmem.highmem_bytes = high_present << l->page_shift;
	else
		/* highmem is the pages [max_low_pfn, max_pfn): the part page above max_pfn
		 * (RAM ending off a page boundary, PFN_DOWN) is not the kernel's (found by fuzzing) */
		l->lowmem.highmem_bytes = layout_ram_bytes_from_pfn(l, l->lowmem.end_pfn) -
				   (l->lowmem.end_pfn <= l->end_pfn ? layout_ram_bytes_from_pfn(l, l->end_pfn)
								    : 0);
}

int layout_compute(const struct machine *m, struct layout *ret)
{
	struct layout l = { 0 };
	int r;

	if (m->page_size == 0 || (m->page_size & (m->page_size - 1)))
		return -EINVAL;
	l.page_size = m->page_size;
	l.page_shift = log2u(m->page_size);
	l.zones = m->zones;
	l.n_zones = m->n_zones;

	if (m->iomem_ok && m->n_ram > 0) { /* read_iomem never leaves it 0; a hand-built machine may */
		l.source = LAYOUT_SOURCE_IOMEM;
		r = ranges_from_iomem(m, &l);
	} else if (m->zoneinfo_ok) {
		l.source = LAYOUT_SOURCE_ZONEINFO;
		r = ranges_from_zoneinfo(m, &l);
		if (r == -ENODATA || r == -ERANGE) {
			l.unknown_reason = r == -ENODATA ? "proc/zoneinfo has no populated zone"
							 : "proc/zoneinfo zones end beyond 2^64";
			l.source = LAYOUT_SOURCE_NONE;
			r = 0;
		}
	} else {
		l.source = LAYOUT_SOURCE_NONE;
		l.unknown_reason = "neither proc/iomem nor proc/zoneinfo could be used";
		r = 0;
	}
	if (r < 0) {
		layout_done(&l);
		return r;
	}
	memory_check_compute(m, l.page_shift, &l.check);
	if (l.check.disagree && l.source != LAYOUT_SOURCE_NONE) {
		/* which input is wrong is not known: no RAM end is taken from any of them */
		layout_done(&l);
		l.source = LAYOUT_SOURCE_NONE;
		l.ram_bytes = l.base_pfn = l.end_pfn = 0;
		l.unknown_reason = memory_check_reason(&l.check);
	}
	if (l.source != LAYOUT_SOURCE_NONE)
		compute_lowmem(m, &l);
	*ret = l;
	return 0;
}

void layout_done(struct layout *l)
{
	free(l->ranges);
	l->ranges = NULL;
	l->n_ranges = 0;
}

int layout_clip_above(const struct layout *l, uint64_t addr, struct layout *ret)
{
	struct layout c = *l;
	size_t n = 0;

	c.ranges = malloc((l->n_ranges ? l->n_ranges : 1) * sizeof(*c.ranges));
	if (!c.ranges)
		return -ENOMEM;
	for (size_t i = 0; i < l->n_ranges; i++) {
		if (l->ranges[i].end < addr)
			continue;
		c.ranges[n] = l->ranges[i];
		if (c.ranges[n].start < addr)
			c.ranges[n].start = addr;
		n++;
	}
	c.n_ranges = n;
	*ret = c;
	return 0;
}
