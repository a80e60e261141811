/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Devicetree dma-ranges cells, then the DMA translation the analysis builds
 * from a chain of such nodes. The input describes up to four nodes from the
 * device up to the root: a count byte, three bytes per node (#address-cells,
 * #size-cells, PCI-ness and property state), then each present property as
 * a length byte and that many bytes of cells.
 */
#include <errno.h>

#include "analysis/dma-map.h"
#include "analysis/eras.h"
#include "fuzz.h"
#include "readers/readers.h"

#define CHAIN_MAX 4

/* The next n bytes of the input, or NULL when it has fewer. */
static const uint8_t *take(const uint8_t **p, const uint8_t *end, size_t n)
{
	const uint8_t *s = *p;

	if ((size_t)(end - s) < n)
		return NULL;
	*p = s + n;
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size, *h = take(&p, end, 1);
	struct dt_info dt = { 0 };

	if (!h)
		return 0;
	dt.n_chain = 1 + h[0] % CHAIN_MAX;
	dt.node_is_device = h[0] & 0x80;
	dt.node = strdup("soc/dev");
	dt.chain = calloc(dt.n_chain, sizeof(*dt.chain));
	if (!dt.node || !dt.chain)
		abort();
	for (size_t i = 0; i < dt.n_chain; i++) {
		struct dt_node *n = &dt.chain[i];
		const uint8_t *b = take(&p, end, 3);
		n->path = strdup(i + 1 == dt.n_chain ? "" : "soc");
		if (!n->path)
			abort();
		n->address_cells = b ? b[0] % 6 : 2; /* 0 and 5 are out of the kernel's range */
		n->size_cells = b ? b[1] % 6 : 1;
		n->is_pci = b && (b[2] & 1);
		n->dma_ranges = b ? (enum dt_prop)((b[2] >> 1) % 4) : DT_PROP_ABSENT;
	}
	for (size_t i = 0; i < dt.n_chain; i++) {
		struct dt_node *n = &dt.chain[i];
		if (n->dma_ranges != DT_PROP_PRESENT)
			continue;
		const uint8_t *lb = take(&p, end, 1);
		const uint8_t *prop = lb ? take(&p, end, lb[0]) : NULL;
		unsigned parent = i + 1 < dt.n_chain ? dt.chain[i + 1].address_cells : n->address_cells;
		int r = prop ? dt_parse_dma_ranges(prop, lb[0], n->address_cells, n->is_pci, parent,
						   n->size_cells, &n->ranges, &n->n_ranges)
			     : -EBADMSG;
		fuzz_assert(r == 0 || r == -EBADMSG);
		if (r < 0)
			n->dma_ranges = DT_PROP_INVALID;
		else if (n->n_ranges == 0)
			n->dma_ranges = DT_PROP_EMPTY;
	}

	const int walks[] = { DT_WALK_DEVICE_NODE, DT_WALK_PARENT_BUS };
	for (size_t w = 0; w < sizeof(walks) / sizeof(walks[0]); w++) {
		struct dma_map map;
		fuzz_assert(dma_map_from_dt(&dt, walks[w], &map) == 0);
		for (size_t i = 0; map.state == DMA_MAP_RANGES && i < map.n_regions; i++) {
			const struct dma_region *g = &map.regions[i];
			uint64_t bus;
			fuzz_assert(g->size > 0);
			/* a region's own first byte translates, and into the bus limit */
			if (dma_map_translate(&map, g->cpu_start, &bus))
				fuzz_assert(bus <= map.bus_limit);
		}
		/* the rest of the input as addresses to translate */
		const uint8_t *q = p;
		for (const uint8_t *a; (a = take(&q, end, 8));) {
			uint64_t phys = 0, bus;
			for (int k = 0; k < 8; k++)
				phys = phys << 8 | a[k];
			(void)dma_map_translate(&map, phys, &bus);
		}
		dma_map_done(&map);
	}
	dt_info_done(&dt);
	return 0;
}
