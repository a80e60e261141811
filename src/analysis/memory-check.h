/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The three memory inputs checked against one another: proc/iomem's System
 * RAM, proc/zoneinfo's zones and proc/meminfo's MemTotal describe the same
 * RAM, within the slack the kernel's own bookkeeping leaves. Pure: no I/O.
 */
#pragma once

#include "shared/macro.h"

#include <stdint.h>

#include "machine.h"

enum memory_disagreement {
	MEMORY_ZONES_PAST_IOMEM,      /* populated zones end past iomem's last RAM page */
	MEMORY_MEMTOTAL_OVER_IOMEM,   /* MemTotal above iomem's System RAM */
	MEMORY_MEMTOTAL_OVER_PRESENT, /* MemTotal above zoneinfo's present pages */
	_MEMORY_DISAGREEMENT_MAX,
};

struct memory_check {
	unsigned disagree;       /* 1u << enum memory_disagreement, each one found */
	uint64_t iomem_last;     /* last byte of System RAM, or of a nomap region past it */
	uint64_t iomem_ram_bytes;
	uint64_t zones_end_pfn;  /* max(start_pfn + spanned) of the populated zones */
	uint64_t present_bytes;  /* sum of present pages, in bytes (saturated) */
	uint64_t mem_total;      /* MemTotal, bytes */
};

/* Why the layout is unknown when c found a disagreement (static), NULL when none. */
const char *memory_check_reason(const struct memory_check *c);

/* The checks of m's inputs, with pages of 1 << page_shift bytes. */
void memory_check_compute(const struct machine *m, unsigned page_shift, struct memory_check *ret) _nonnull_all_;
