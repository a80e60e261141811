/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* dma-ranges -> dma_range_map and bus limit, as drivers/of does it. */
#include <stdlib.h>
#include <string.h>

#include "analysis/dma-map.h"
#include "analysis/eras.h"

uint64_t mask_covering(uint64_t end)
{
	if (end == 0)
		return 0;
	unsigned bits = 64 - (unsigned)__builtin_clzll(end);
	return bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
}

/*
 * of_translate_dma_address(): carry a parent-side address of chain[from]'s
 * dma-ranges up through each ancestor's dma-ranges, the root excluded (it
 * has no parent to translate into). Absent or empty means 1:1 on this walk
 * (of_translate_one, "empty ranges; 1:1 translation").
 */
static bool translate_up(const struct dt_info *dt, size_t from, uint64_t addr, uint64_t *ret)
{
	for (size_t j = from + 1; j + 1 < dt->n_chain; j++) {
		const struct dt_node *n = &dt->chain[j];
		if (n->dma_ranges == DT_PROP_INVALID)
			return false;
		if (n->dma_ranges != DT_PROP_PRESENT)
			continue;
		bool hit = false;
		for (size_t k = 0; k < n->n_ranges && !hit; k++) {
			const struct dt_range *r = &n->ranges[k];
			if (addr >= r->child && addr - r->child < r->size) {
				addr = r->parent + (addr - r->child);
				hit = true;
			}
		}
		if (!hit)
			return false; /* OF_BAD_ADDR: the kernel skips this range */
	}
	*ret = addr;
	return true;
}

int dma_map_from_dt(const struct dt_info *dt, int walk_start, struct dma_map *ret)
{
	struct dma_map m = { .state = DMA_MAP_IDENTITY };
	bool above = walk_start == DT_WALK_ABOVE_NODE;
	size_t i = above || (walk_start == DT_WALK_PARENT_BUS && dt->node_is_device) ? 1 : 0;
	bool found = false;

	if (dt->err) {
		/* a read on the chain failed: the kernel's range map cannot be known */
		m.state = DMA_MAP_ERROR;
		m.node = dt->node;
		m.why = dt->error ? dt->error : "devicetree unreadable";
		*ret = m;
		return 0;
	}
	if (!dt->node || dt->n_chain == 0) {
		m.why = "no devicetree node";
		*ret = m;
		return 0;
	}
	/* of_dma_get_range(): the first non-empty dma-ranges going up; once
	 * one level has been passed, a missing property means no constraint. */
	for (; i < dt->n_chain; i++) {
		const struct dt_node *n = &dt->chain[i];
		if (n->dma_ranges == DT_PROP_INVALID) {
			m.state = DMA_MAP_ERROR;
			m.node = n->path;
			m.why = "malformed dma-ranges";
			*ret = m;
			return 0;
		}
		if (n->dma_ranges == DT_PROP_PRESENT)
			break;
		if (above && n->dma_ranges == DT_PROP_ABSENT) {
			/* before 5.5 the first level without the property ends the search */
			m.node = n->path;
			m.why = "no dma-ranges on the DMA parent: no range map (-ENODEV, before 5.5)";
			*ret = m;
			return 0;
		}
		if (found && n->dma_ranges == DT_PROP_ABSENT) {
			m.node = n->path;
			m.why = "dma-ranges missing on an ancestor: no range map, no bus limit (-ENODEV)";
			*ret = m;
			return 0;
		}
		found = true;
	}
	if (i >= dt->n_chain) {
		m.why = "no non-empty dma-ranges up to the root: identity";
		*ret = m;
		return 0;
	}

	const struct dt_node *n = &dt->chain[i];
	m.node = n->path;
	m.regions = calloc(n->n_ranges ? n->n_ranges : 1, sizeof(*m.regions));
	if (!m.regions)
		return -ENOMEM;
	for (size_t k = 0; k < n->n_ranges; k++) {
		const struct dt_range *r = &n->ranges[k];
		uint64_t cpu;
		if (r->size == 0 || !translate_up(dt, i, r->parent, &cpu))
			continue; /* "of_dma_get_range: ... translation failed", skipped */
		if (r->child + (r->size - 1) < r->child || cpu + (r->size - 1) < cpu)
			continue; /* wraps around 2^64: no kernel would build it */
		m.regions[m.n_regions++] = (struct dma_region){ cpu, r->child, r->size };
		uint64_t end = r->child + (r->size - 1);
		if (end > m.bus_limit)
			m.bus_limit = end;
	}
	if (m.n_regions == 0) {
		free(m.regions);
		m.regions = NULL;
		m.state = DMA_MAP_ERROR;
		m.why = "no dma-ranges entry translates to a CPU address (-EINVAL)";
		*ret = m;
		return 0;
	}
	m.state = DMA_MAP_RANGES;
	m.why = "dma-ranges";
	*ret = m;
	return 0;
}

void dma_map_done(struct dma_map *m)
{
	free(m->regions);
	memset(m, 0, sizeof(*m));
}

bool dma_map_translate(const struct dma_map *m, uint64_t phys, uint64_t *ret_bus)
{
	if (m->state != DMA_MAP_RANGES) {
		*ret_bus = phys;
		return true;
	}
	for (size_t k = 0; k < m->n_regions; k++) {
		const struct dma_region *r = &m->regions[k];
		if (phys >= r->cpu_start && phys - r->cpu_start < r->size) {
			*ret_bus = r->dma_start + (phys - r->cpu_start);
			return true;
		}
	}
	return false;
}

/* The PCI domain of "0000:00:1f.2": the segment IORT root complexes name. */
static bool pci_segment(const char *id, uint32_t *ret)
{
	uint32_t v = 0;
	size_t n = 0;

	for (; id[n] && id[n] != ':'; n++) {
		char c = id[n];
		unsigned x = c >= '0' && c <= '9' ? (unsigned)(c - '0')
			     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10) : 16;
		if (x > 15 || n >= 8)
			return false;
		v = v << 4 | x;
	}
	if (n == 0 || id[n] != ':')
		return false;
	*ret = v;
	return true;
}

int dma_map_from_iort(const struct machine *m, const struct device *d, int rule, struct dma_map *ret)
{
	const struct iort_node *hit = NULL;
	uint32_t seg;

	if (rule == IORT_LIMIT_NONE || rule < 0)
		return 0;
	for (size_t i = 0; !hit && i < m->n_iort; i++) {
		const struct iort_node *x = &m->iort[i];
		if (d->bus == DEV_BUS_PCI && x->type == IORT_NODE_ROOT_COMPLEX && rule == IORT_LIMIT_BOTH &&
		    pci_segment(d->id, &seg) && seg == x->segment)
			hit = x;
		else if (d->bus != DEV_BUS_PCI && x->type == IORT_NODE_NAMED_COMPONENT && d->acpi_path &&
			 x->name && strcmp(x->name, d->acpi_path) == 0)
			hit = x;
	}
	/* a limit of 0 applies no bus limit in any era: FW_BUG "missing memory address
	 * limit", -EINVAL, from a1df829ead58 (5.11, 5.10.13); before, end 0, which
	 * min_not_zero() in dma_capable() ignores (it zeroed the masks, see eras.c) */
	if (hit && hit->limit_bits == 0)
		ret->iort_zero_limit = true; /* what ERA_IORT_MASK makes of it is the caller's */
	if (!hit || hit->limit_bits == 0 || hit->limit_bits >= 64)
		return 0;
	struct dma_region *g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->size = 1ull << hit->limit_bits;
	dma_map_done(ret);
	*ret = (struct dma_map){
		.regions = g,
		.n_regions = 1,
		.bus_limit = g->size - 1,
		.node = hit->type == IORT_NODE_ROOT_COMPLEX ? "IORT root complex" : hit->name,
		.why = hit->type == IORT_NODE_ROOT_COMPLEX
			       ? "ACPI IORT root complex memory_address_limit (an ACPI _DMA method, "
				 "which sysfs does not show, would come first)"
			       : "ACPI IORT named component memory_address_limit (an ACPI _DMA method, "
				 "which sysfs does not show, would come first from 5.8)",
		.state = DMA_MAP_RANGES,
		.from_iort = true,
	};
	return 0;
}
