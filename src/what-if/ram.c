/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ram=: the RAM grown, shrunk or given a new range, in every input that
 * describes it (proc/iomem's System RAM, proc/zoneinfo's zones, MemTotal),
 * so that they still agree; the zones a new range falls in follow the
 * architecture's zone limits, and a limit this machine does not show is an
 * assumption, said.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/eras.h"
#include "shared/strbuf.h"
#include "analysis/report.h"
#include "what-if/what-if.h"

#define GiB4 (1ull << 32)
#define DMA_16M (16ull << 20)

static unsigned page_shift(const struct machine *m)
{
	return (unsigned)__builtin_ctz(m->page_size ? m->page_size : 4096);
}

/* The highest RAM byte the machine shows, from iomem, else the zones; false when neither. */
static bool ram_last(const struct machine *m, uint64_t *ret)
{
	uint64_t end = 0;
	bool any = false;

	if (m->iomem_ok && m->n_ram) {
		*ret = m->ram[m->n_ram - 1].end;
		return true;
	}
	for (size_t i = 0; m->zoneinfo_ok && i < m->n_zones; i++)
		if (m->zones[i].populated && m->zones[i].spanned) {
			uint64_t e = ((m->zones[i].start_pfn + m->zones[i].spanned) << page_shift(m)) - 1;
			end = any && end > e ? end : e;
			any = true;
		}
	*ret = end;
	return any;
}

static uint64_t ram_total(const struct machine *m)
{
	uint64_t t = 0;

	if (m->iomem_ok)
		for (size_t i = 0; i < m->n_ram; i++)
			t += m->ram[i].end - m->ram[i].start + 1;
	else
		for (size_t i = 0; i < m->n_zones; i++)
			t += m->zones[i].present << page_shift(m);
	return t;
}

static void meminfo_add(struct machine *m, uint64_t bytes, bool add, bool high)
{
	struct opt_u64 *v[] = { &m->meminfo.mem_total, high ? &m->meminfo.high_total : &m->meminfo.low_total };

	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		if (v[i]->known)
			v[i]->v = add ? v[i]->v + bytes : v[i]->v > bytes ? v[i]->v - bytes : 0;
}

/* RAM pages of [start_pfn, end_pfn) that iomem shows (every page when iomem is not read). */
static uint64_t ram_pages_in(const struct machine *m, uint64_t start_pfn, uint64_t end_pfn)
{
	unsigned sh = page_shift(m);
	uint64_t pages = 0;

	if (!m->iomem_ok)
		return end_pfn - start_pfn;
	for (size_t i = 0; i < m->n_ram; i++) {
		uint64_t s = m->ram[i].start >> sh, e = (m->ram[i].end >> sh) + 1;
		s = s > start_pfn ? s : start_pfn;
		e = e < end_pfn ? e : end_pfn;
		pages += e > s ? e - s : 0;
	}
	return pages;
}

/* Everything at or above address a taken away: ranges, zones, MemTotal. */
static void cut_above(struct machine *m, uint64_t a)
{
	unsigned sh = page_shift(m);
	uint64_t pfn = a >> sh;

	for (size_t i = 0; i < m->n_zones; i++) {
		struct zone *z = &m->zones[i];
		if (!z->populated || z->start_pfn + z->spanned <= pfn)
			continue;
		uint64_t from = z->start_pfn > pfn ? z->start_pfn : pfn;
		uint64_t gone = ram_pages_in(m, from, z->start_pfn + z->spanned);
		gone = gone < z->present ? gone : z->present;
		z->present -= gone;
		z->managed = z->managed > gone ? z->managed - gone : 0;
		meminfo_add(m, gone << sh, false, strcmp(z->name, "HighMem") == 0);
		if (z->start_pfn >= pfn)
			z->populated = false, z->spanned = z->present = z->managed = 0;
		else
			z->spanned = pfn - z->start_pfn;
	}
	if (!m->zoneinfo_ok) /* MemTotal follows the ranges alone */
		for (size_t i = 0; i < m->n_ram; i++)
			if (m->ram[i].end >= a) {
				uint64_t from = m->ram[i].start > a ? m->ram[i].start : a;
				meminfo_add(m, m->ram[i].end - from + 1, false, false);
			}
	size_t out = 0;
	for (size_t i = 0; i < m->n_ram; i++) {
		if (m->ram[i].start >= a)
			continue;
		m->ram[out] = m->ram[i];
		if (m->ram[out].end >= a)
			m->ram[out].end = a - 1;
		out++;
	}
	m->n_ram = out;
}

/* The lowest CPU-side end of a devicetree dma-ranges window below 4 GiB, else 4 GiB: of_dma_get_max_cpu_address(). */
static uint64_t lowest_window_end(const struct machine *m)
{
	uint64_t low = GiB4;

	for (size_t i = 0; i < m->n_devices; i++) {
		const struct dt_info *dt = device_dt(&m->devices[i]);
		for (size_t k = 0; k < dt->n_chain; k++)
			for (size_t j = 0; j < dt->chain[k].n_ranges; j++) {
				const struct dt_range *w = &dt->chain[k].ranges[j];
				uint64_t e = w->parent + w->size;
				if (w->size && e > w->parent && e < low)
					low = e;
			}
	}
	return low;
}

static struct zone *zone_named(struct machine *m, const char *name)
{
	struct zone *z = NULL;

	for (size_t i = 0; i < m->n_zones; i++)
		if (strcmp(m->zones[i].name, name) == 0 && (!z || (m->zones[i].populated && !z->populated)))
			z = &m->zones[i];
	return z;
}

/*
 * Where the zone called name ends at most on m's architecture: UINT64_MAX
 * none; 0 unknown, with *ret_why. An assumption made is said in n.
 */
static uint64_t zone_limit(struct machine *m, const char *name, struct what_if_notes *n, int *r,
			   const char **ret_why)
{
	enum arch_family f = m->arch_info ? m->arch_info->family : _ARCH_FAMILY_INVALID;
	unsigned sh = page_shift(m);
	uint64_t last = 0;
	struct zone *z = zone_named(m, name);
	struct zone *high = zone_named(m, "HighMem");

	(void)ram_last(m, &last);
	if (strcmp(name, "HighMem") == 0 || (strcmp(name, "Normal") == 0 && !(m->arch_info && m->arch_info->highmem_capable)))
		return UINT64_MAX;
	if (strcmp(name, "Normal") == 0) { /* 32-bit: lowmem ends where today's HighMem starts */
		*ret_why = "no populated HighMem zone with a start_pfn today shows where lowmem ends";
		return high && high->populated ? high->start_pfn << sh : 0;
	}
	if (strcmp(name, "DMA32") == 0) /* arch/x86/mm/init.c, arch/arm64/mm/init.c, arch/riscv/mm/init.c zone_sizes_init */
		return GiB4;
	/* ZONE_DMA: x86 MAX_DMA_PFN (16 MiB); arm64 the firmware's DMA limit (of_dma_get_max_cpu_address, 5.11+) */
	if (f == ARCH_X86)
		return DMA_16M;
	if (z && z->populated && ((z->start_pfn + z->spanned) << sh) <= last)
		return (z->start_pfn + z->spanned) << sh; /* RAM lies past it today: its end is its limit */
	if (f == ARCH_ARM64) {
		const char *src = NULL;
		uint32_t rel = report_release(m);
		int rule = era_value(ERA_ARM64_ZONE_DMA, rel, ARCH_ARM64, &src);
		/* of_dma_get_max_cpu_address() rounded to bits (fls64), 32 at most */
		uint64_t low = lowest_window_end(m), lim = GiB4;
		if (rule == ARM64_ZONE_DMA_30BIT)
			lim = 1ull << 30;
		else if (rule == ARM64_ZONE_DMA_FIRMWARE && low < GiB4)
			lim = 1ull << (64 - __builtin_clzll(low - 1));
		*r = what_if_assume(n, NULL, "ZONE_DMA reaches 0x%llx%s (%s)", (unsigned long long)lim - 1,
				    rel ? "" : " as the newest kernels place it: the release is not known", src);
		return lim;
	}
	/* 32-bit ARM: the board's arm_dma_zone_size (arch/arm/mm/init.c), which Linux shows nowhere */
	*ret_why = "the board's ZONE_DMA size (arm_dma_zone_size) is not shown by the kernel, and RAM ends in it today";
	return 0;
}

/* The zones of m's architecture, lowest first (include/linux/mmzone.h enum zone_type). */
static const char *const *zone_order(const struct machine *m)
{
	static const char *const x86_64[] = { "DMA", "DMA32", "Normal", NULL };
	static const char *const low32[] = { "DMA", "Normal", "HighMem", NULL };
	static const char *const arm64[] = { "DMA", "DMA32", "Normal", NULL };
	static const char *const riscv[] = { "DMA32", "Normal", NULL };
	enum arch_family f = m->arch_info ? m->arch_info->family : _ARCH_FAMILY_INVALID;

	if (m->arch_info && m->arch_info->highmem_capable)
		return low32;
	return f == ARCH_X86 ? x86_64 : f == ARCH_ARM64 ? arm64 : f == ARCH_RISCV ? riscv : NULL;
}

/* pages [s, e) into the zone called name: grown, or made, on the top zone's node. */
static int zone_grow(struct machine *m, const char *name, uint64_t s, uint64_t e)
{
	struct zone *z = zone_named(m, name);
	int node = m->n_zones ? m->zones[m->n_zones - 1].node : 0;

	if (!z) {
		struct zone *v = reallocarray(m->zones, m->n_zones + 1, sizeof(*v));
		if (!v)
			return -ENOMEM;
		m->zones = v;
		z = &v[m->n_zones++];
		*z = (struct zone){ .node = node };
		snprintf(z->name, sizeof(z->name), "%s", name);
	}
	if (!z->populated) {
		z->populated = true;
		z->start_pfn = s;
		z->spanned = e - s;
	} else {
		uint64_t lo = z->start_pfn < s ? z->start_pfn : s;
		uint64_t hi = z->start_pfn + z->spanned > e ? z->start_pfn + z->spanned : e;
		z->start_pfn = lo;
		z->spanned = hi - lo;
	}
	z->present += e - s;
	z->managed += e - s;
	meminfo_add(m, (e - s) << page_shift(m), true, strcmp(name, "HighMem") == 0);
	return 0;
}

static int range_insert(struct machine *m, uint64_t start, uint64_t end)
{
	struct ram_range *v = reallocarray(m->ram, m->n_ram + 1, sizeof(*v));
	size_t at = 0;

	if (!v)
		return -ENOMEM;
	m->ram = v;
	while (at < m->n_ram && v[at].start < start)
		at++;
	memmove(v + at + 1, v + at, (m->n_ram - at) * sizeof(*v));
	v[at] = (struct ram_range){ start, end };
	m->n_ram++;
	return 0;
}

/* RAM [start, end] (page-aligned) added: a range, and its pages in the zones they fall in. */
static int add_range(struct machine *m, uint64_t start, uint64_t end, struct what_if_notes *n, char *why)
{
	unsigned sh = page_shift(m);
	uint64_t s = start >> sh, e = (end >> sh) + 1;
	const char *const *order = zone_order(m);
	struct strbuf zones = { 0 };
	int r = 0;

	for (size_t i = 0; i < m->n_ram; i++)
		if (m->ram[i].start <= end && start <= m->ram[i].end) {
			snprintf(why, WHAT_IF_WHY_MAX, "ram: 0x%llx-0x%llx overlaps RAM today's machine has "
						       "(0x%llx-0x%llx)",
				 (unsigned long long)start, (unsigned long long)end,
				 (unsigned long long)m->ram[i].start, (unsigned long long)m->ram[i].end);
			return -EINVAL;
		}
	if (m->zoneinfo_ok && !order) {
		snprintf(why, WHAT_IF_WHY_MAX, "ram: the zones of this architecture are not known to this tool");
		return -EINVAL;
	}
	for (size_t k = 0; m->zoneinfo_ok && order[k] && s < e && r == 0; k++) {
		const char *zwhy = "";
		/* mm/vmstat.c zoneinfo_show prints every zone the kernel has, populated or not (4.15): one it lacks is not built in */
		if (!zone_named(m, order[k]))
			continue;
		uint64_t lim = zone_limit(m, order[k], n, &r, &zwhy);
		if (r < 0)
			return r;
		if (lim == 0) {
			snprintf(why, WHAT_IF_WHY_MAX, "ram: where ZONE_%s ends on this kernel is not known: %s",
				 order[k], zwhy);
			return -EINVAL;
		}
		uint64_t lim_pfn = lim == UINT64_MAX ? UINT64_MAX : lim >> sh;
		if (lim_pfn <= s)
			continue;
		uint64_t piece_end = e < lim_pfn ? e : lim_pfn;
		r = zone_grow(m, order[k], s, piece_end);
		strbuf_append(&zones, zones.len ? ", ZONE_" : "ZONE_");
		strbuf_append(&zones, order[k]);
		strbuf_append(&zones, " ");
		strbuf_append_hex(&zones, s << sh);
		strbuf_append(&zones, "-");
		strbuf_append_hex(&zones, (piece_end << sh) - 1);
		s = piece_end;
	}
	_cleanup_free_ char *z = strbuf_steal(&zones);
	if (r == 0 && m->zoneinfo_ok && s < e) {
		snprintf(why, WHAT_IF_WHY_MAX, "ram: pages from 0x%llx fall in no zone proc/zoneinfo lists (a "
					       "kernel before 4.15 lists only the populated ones)",
			 (unsigned long long)(s << sh));
		return -EINVAL;
	}
	if (r == 0 && m->iomem_ok)
		r = range_insert(m, start, end);
	if (r == 0 && !m->zoneinfo_ok)
		meminfo_add(m, end - start + 1, true, false);
	if (r == 0)
		r = what_if_applied(n, "RAM 0x%llx-0x%llx added", (unsigned long long)start, (unsigned long long)end);
	if (r == 0 && z)
		r = what_if_applied(n, "its pages in %s", z);
	return r;
}

/* The address RAM added above today's end starts at: past the 32-bit PCI hole on a PC. */
static uint64_t grow_start(const struct machine *m, uint64_t last, struct what_if_notes *n, int *r)
{
	uint64_t next = last + 1;

	if (m->arch_info && m->arch_info->family == ARCH_X86 && next < GiB4 && m->arch_info->bits == 64) {
		*r = what_if_assume(n, NULL, "RAM added above 0x%llx starts at 4 GiB: a PC's firmware puts the "
					     "32-bit PCI hole between (give +SIZE@ADDR to place it)",
				    (unsigned long long)last);
		return GiB4;
	}
	return next;
}

/* The address below which bytes of RAM lie, counting from the bottom; UINT64_MAX when there is less. */
static uint64_t amount_end(const struct machine *m, uint64_t bytes)
{
	for (size_t i = 0; i < m->n_ram; i++) {
		uint64_t len = m->ram[i].end - m->ram[i].start + 1;
		if (bytes < len)
			return m->ram[i].start + bytes;
		bytes -= len;
	}
	return UINT64_MAX;
}

/* The address above which bytes of RAM lie, counting from the top; 0 when there is less. */
static uint64_t top_start(const struct machine *m, uint64_t bytes)
{
	for (size_t i = m->n_ram; i-- > 0;) {
		uint64_t len = m->ram[i].end - m->ram[i].start + 1;
		if (bytes < len)
			return m->ram[i].end + 1 - bytes;
		bytes -= len;
	}
	return 0;
}

static int need_ranges(const struct machine *m, char *why)
{
	if (m->iomem_ok && m->n_ram)
		return 0;
	snprintf(why, WHAT_IF_WHY_MAX, "ram: proc/iomem's System RAM is not known (%s): RAM cannot be cut "
				       "where it is not known", m->iomem_hidden ? "its addresses are hidden" : "not read");
	return -EINVAL;
}

int what_if_ram_limit(struct machine *m, uint64_t bytes, bool address_ceiling, struct what_if_notes *n, char *why)
{
	uint64_t page = m->page_size ? m->page_size : 4096;
	int r = need_ranges(m, why);

	if (r < 0)
		return r;
	uint64_t a = address_ceiling ? bytes : amount_end(m, bytes);
	a &= ~(page - 1);
	if (a == UINT64_MAX || a > m->ram[m->n_ram - 1].end)
		return what_if_assume(n, NULL, "mem=%llu bytes cuts nothing: the machine has no RAM past it",
				      (unsigned long long)bytes);
	cut_above(m, a);
	return what_if_applied(n, "RAM cut at 0x%llx (%s)", (unsigned long long)a,
			       address_ceiling ? "mem= on x86: an address ceiling, arch/x86/kernel/e820.c parse_memopt"
					       : "mem=: an amount of RAM counted from the bottom, memblock_mem_limit_remove_map");
}

int what_if_apply_ram(struct machine *m, const struct what_if_change *c, struct what_if_notes *n, char *why)
{
	uint64_t page = m->page_size ? m->page_size : 4096, last = 0, size = c->ram.size;
	uint64_t total = ram_total(m);
	int r = 0;

	if (!ram_last(m, &last) || (!m->iomem_ok && c->ram.op != WHAT_IF_RAM_GROW)) {
		r = need_ranges(m, why);
		if (r < 0)
			return r;
	}
	if (size & (page - 1)) {
		snprintf(why, WHAT_IF_WHY_MAX, "ram: %s is not a whole number of %llu-byte pages", c->value,
			 (unsigned long long)page);
		return -EINVAL;
	}
	enum what_if_ram_op op = c->ram.op;
	if (op == WHAT_IF_RAM_TOTAL) {
		if (size == total)
			return what_if_applied(n, "RAM %s: as today", c->value);
		op = size > total ? WHAT_IF_RAM_GROW : WHAT_IF_RAM_SHRINK;
		size = size > total ? size - total : total - size;
	}
	switch (op) {
	case WHAT_IF_RAM_GROW: {
		uint64_t start = grow_start(m, last, n, &r);
		if (r < 0)
			return r;
		if (start > UINT64_MAX - size) {
			snprintf(why, WHAT_IF_WHY_MAX, "ram: %s would end beyond 2^64", c->value);
			return -EINVAL;
		}
		r = add_range(m, start, start + size - 1, n, why);
		break;
	}
	case WHAT_IF_RAM_ADD_AT:
		if (c->ram.at & (page - 1)) {
			snprintf(why, WHAT_IF_WHY_MAX, "ram: @0x%llx is not page-aligned", (unsigned long long)c->ram.at);
			return -EINVAL;
		}
		r = add_range(m, c->ram.at, c->ram.at + size - 1, n, why);
		break;
	default: {
		if (size >= total) {
			snprintf(why, WHAT_IF_WHY_MAX, "ram: %s leaves no RAM", c->value);
			return -EINVAL;
		}
		uint64_t a = top_start(m, size);
		cut_above(m, a);
		r = what_if_applied(n, "RAM from 0x%llx taken away", (unsigned long long)a);
	}
	}
	return r;
}
