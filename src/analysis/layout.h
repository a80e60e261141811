/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The memory layout every verdict is computed against: where RAM starts
 * (min_low_pfn), where it ends (max_pfn), where lowmem ends, and the two
 * readings of max_low_pfn (a page count before ARM v3.13, a PFN after).
 * Pure: no I/O.
 */
#pragma once

#include "shared/macro.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "analysis/memory-check.h"
#include "machine.h"

enum layout_source {
	LAYOUT_SOURCE_NONE,     /* neither proc/iomem nor proc/zoneinfo usable */
	LAYOUT_SOURCE_IOMEM,    /* exact: System RAM ranges */
	LAYOUT_SOURCE_ZONEINFO, /* zone spans: holes unknown, sizes from present pages */
	_LAYOUT_SOURCE_MAX,
	_LAYOUT_SOURCE_INVALID = -EINVAL,
};

const char *layout_source_to_string(enum layout_source s);

/* Where lowmem ends, and what follows from it: all known or none. */
struct lowmem {
	uint64_t end_pfn;              /* first populated HighMem zone's start_pfn, else the layout's end_pfn */
	uint64_t page_count;           /* end_pfn - base_pfn */
	uint64_t max_low_pfn_as_count; /* arch/arm/mm/init.c before v3.13: a count */
	uint64_t max_low_pfn_as_pfn;   /* v3.13+ (26ba47b18318) and x86: a PFN */
	uint64_t highmem_bytes;
	const char *source;            /* static: how end_pfn was found (derived, always) */
	bool known;                    /* a zeroed one is unknown: 32-bit kernel without zoneinfo */
};

struct layout {
	enum layout_source source;
	unsigned page_size;
	unsigned page_shift;

	struct ram_range *ranges;  /* iomem System RAM, or merged zone spans */
	size_t n_ranges;
	uint64_t ram_bytes;

	uint64_t base_pfn;         /* PFN_UP(lowest RAM address): min_low_pfn */
	uint64_t end_pfn;          /* PFN_DOWN(highest RAM end + 1): max_pfn */

	struct lowmem lowmem;

	const struct zone *zones;  /* borrowed from the machine */
	size_t n_zones;

	const char *unknown_reason; /* static: why source is NONE or lowmem unknown */
	struct memory_check check;  /* the inputs against one another: a disagreement makes source NONE */
};

/* 0, -EINVAL for a page size that is not a power of two, or -ENOMEM. */
_must_check_ int layout_compute(const struct machine *m, struct layout *ret) _nonnull_all_;
void layout_done(struct layout *l);

/* A copy of l whose ranges keep only RAM at or above addr (ranges owned). 0 or -ENOMEM. */
_must_check_ int layout_clip_above(const struct layout *l, uint64_t addr, struct layout *ret) _nonnull_all_;

/* Bytes of the RAM ranges at or above physical address addr. */
uint64_t layout_ram_bytes_above(const struct layout *l, uint64_t addr);

/* Bytes of RAM in pages at or above PFN pfn (0 for PFNs past the address space). */
uint64_t layout_ram_bytes_from_pfn(const struct layout *l, uint64_t pfn);
