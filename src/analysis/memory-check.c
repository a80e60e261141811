/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * proc/iomem, proc/zoneinfo and proc/meminfo against one another. What the
 * kernel guarantees, and so what a disagreement beyond it means:
 *
 * - MemTotal is totalram_pages() (fs/proc/meminfo.c meminfo_proc_show,
 *   si_meminfo): the pages handed to the buddy allocator. memblock_free_all()
 *   (mm/memblock.c) frees memblock.memory less memblock.reserved and skips
 *   nomap regions (should_skip_region); hot-added memory is onlined inside its
 *   "System RAM" resource (mm/memory_hotplug.c add_memory_resource), and
 *   balloons only lower the count (adjust_managed_page_count). So MemTotal is
 *   at most the System RAM iomem lists, and at most the zones' present pages
 *   (a zone's managed pages are part of its present ones). It is less by the
 *   kernel image, the memmap, crashkernel, firmware reservations and balloons,
 *   by any amount: no lower bound holds.
 * - Zones span memblock.memory from its first to its last page, holes
 *   included (mm/mm_init.c get_pfn_range_for_nid, calculate_node_totalpages), and
 *   end at the last memory page: x86's max_pfn is PFN_DOWN of the last e820
 *   RAM entry's end (arch/x86/kernel/e820.c e820__end_of_ram_pfn), which iomem
 *   shows as System RAM (e820_type_to_string); arm64, arm and riscv list a
 *   nomap memblock region as "reserved"/"Reserved" instead (arm64's and
 *   arm's kernel/setup.c request_standard_resources, riscv's
 *   kernel/setup.c init_resources), and zones span it. So the zones end at most one page
 *   rounding past iomem's last RAM (or, there, nomap) byte.
 */
#include <string.h>

#include "analysis/memory-check.h"
#include "shared/sat.h"

static const char *const reasons[_MEMORY_DISAGREEMENT_MAX] = {
	[MEMORY_ZONES_PAST_IOMEM] = "proc/zoneinfo's zones reach past proc/iomem's last System RAM "
				    "(memory-inputs-disagree): where RAM ends is unknown",
	[MEMORY_MEMTOTAL_OVER_IOMEM] = "proc/meminfo's MemTotal is more than proc/iomem's System RAM "
				       "(memory-inputs-disagree): where RAM ends is unknown",
	[MEMORY_MEMTOTAL_OVER_PRESENT] = "proc/meminfo's MemTotal is more than proc/zoneinfo's present "
					 "pages (memory-inputs-disagree): where RAM ends is unknown",
};

const char *memory_check_reason(const struct memory_check *c)
{
	for (unsigned i = 0; i < _MEMORY_DISAGREEMENT_MAX; i++)
		if (c->disagree & (1u << i))
			return reasons[i];
	return NULL;
}

/* Architectures whose iomem names nomap memory "reserved": their zones may span past System RAM. */
static bool nomap_listed_reserved(const struct machine *m)
{
	const struct arch_info *ai = m->arch_info;

	/* unknown: the lenient reading, as a wrong error costs more than a missed one here */
	return !ai || ai->family == ARCH_ARM || ai->family == ARCH_ARM64 || ai->family == ARCH_RISCV;
}

void memory_check_compute(const struct machine *m, unsigned page_shift, struct memory_check *ret)
{
	struct memory_check c = { 0 };
	bool iomem = m->iomem_ok && m->n_ram > 0, zones = false;

	if (iomem) {
		c.iomem_last = m->ram[m->n_ram - 1].end;
		for (size_t i = 0; i < m->n_ram; i++)
			c.iomem_ram_bytes = sat_add(c.iomem_ram_bytes, sat_add(m->ram[i].end - m->ram[i].start, 1));
		if (m->iomem_reserved_end.known && m->iomem_reserved_end.v > c.iomem_last &&
		    nomap_listed_reserved(m))
			c.iomem_last = m->iomem_reserved_end.v;
	}
	if (m->zoneinfo_ok) {
		for (size_t i = 0; i < m->n_zones; i++) {
			const struct zone *z = &m->zones[i];
			if (!z->populated || z->spanned == 0)
				continue;
			zones = true;
			if (z->start_pfn + z->spanned > c.zones_end_pfn) /* each at most 2^52 (zoneinfo_parse) */
				c.zones_end_pfn = z->start_pfn + z->spanned;
			c.present_bytes = sat_add(c.present_bytes, z->present > (UINT64_MAX >> page_shift)
									 ? UINT64_MAX
									 : z->present << page_shift);
		}
	}
	/* PFN_UP(last + 1): a last page iomem shows only in part is still the zones' */
	if (iomem && zones && c.zones_end_pfn > (c.iomem_last >> page_shift) + 1)
		c.disagree |= 1u << MEMORY_ZONES_PAST_IOMEM;
	if (m->meminfo.mem_total.known) {
		c.mem_total = m->meminfo.mem_total.v;
		if (iomem && c.mem_total > c.iomem_ram_bytes)
			c.disagree |= 1u << MEMORY_MEMTOTAL_OVER_IOMEM;
		/* an assumed page size may be too small (64 KiB arm64 pages): present would be short */
		if (zones && m->page_size_prov != PROV_ASSUMED && c.mem_total > c.present_bytes)
			c.disagree |= 1u << MEMORY_MEMTOTAL_OVER_PRESENT;
	}
	*ret = c;
}
