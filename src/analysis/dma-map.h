/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A device's DMA translation as the kernel builds it from devicetree
 * dma-ranges (drivers/of/address.c of_dma_get_range, drivers/of/device.c
 * of_dma_configure_id): the regions of dev->dma_range_map and the bus limit.
 * Pure: it reads struct dt_info, filled by readers/devicetree.c.
 */
#pragma once

#include "shared/macro.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "machine.h"

/* struct bus_dma_region (include/linux/dma-direct.h, 5.10+). */
struct dma_region {
	uint64_t cpu_start;
	uint64_t dma_start;
	uint64_t size;
};

enum dma_map_state {
	DMA_MAP_IDENTITY, /* no usable dma-ranges: bus = CPU address, no bus limit */
	DMA_MAP_RANGES,   /* regions and a bus limit */
	DMA_MAP_ERROR,    /* dma-ranges present but unusable: the kernel's -EINVAL */
};

struct dma_map {
	struct dma_region *regions;
	size_t n_regions;
	uint64_t bus_limit;   /* inclusive end of the regions' bus addresses (dma_range_map_max) */
	const char *node;     /* borrowed: the dt path whose dma-ranges made the map */
	bool from_iort;       /* the map is an ACPI IORT memory address limit, not dma-ranges */
	bool iort_zero_limit; /* the device's IORT node says memory_address_limit 0: no map */
	const char *why;      /* static: how the state was reached */
	enum dma_map_state state;
};

/*
 * Build the map. walk_start is DT_WALK_* (analysis/eras.h). Returns 0 or
 * -ENOMEM; an unusable tree gives state DMA_MAP_ERROR, not an error.
 */
_must_check_ int dma_map_from_dt(const struct dt_info *dt, int walk_start, struct dma_map *ret);
void dma_map_done(struct dma_map *m);

/*
 * The ACPI IORT limit iort_dma_setup() gives d: a PCI device its root
 * complex's (by PCI segment), another device the named component naming its
 * ACPI path; one identity region of 1 << memory_address_limit. rule is
 * IORT_LIMIT_* (analysis/eras.h). ret untouched when none applies; 0 or -ENOMEM.
 */
_must_check_ int dma_map_from_iort(const struct machine *m, const struct device *d, int rule,
				   struct dma_map *ret);

/*
 * phys -> bus as translate_phys_to_dma() does: the first region covering
 * phys wins. false when none covers it (DMA_MAPPING_ERROR).
 */
bool dma_map_translate(const struct dma_map *m, uint64_t phys, uint64_t *ret_bus);

/* DMA_BIT_MASK(ilog2(end) + 1): the smallest all-ones mask covering end. */
uint64_t mask_covering(uint64_t end);
