/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Whether a swiotlb pool exists, where, how full, and whether bouncing is forced. Pure. */
#pragma once

#include "shared/macro.h"

#include <stdbool.h>
#include <stdint.h>

#include "analysis/coco.h"
#include "analysis/layout.h"
#include "machine.h"
#include "shared/kernel-defs.h"


enum tristate {
	TRI_NO,
	TRI_YES,
	TRI_UNKNOWN,
};

/* What told whether a 32-bit ARM kernel is LPAE. */
enum arm_lpae_source {
	ARM_LPAE_SOURCE_NONE,
	ARM_LPAE_SOURCE_LOG,      /* the boot log's "CPU: ... cr=" (SCTLR.AFE) */
	ARM_LPAE_SOURCE_RELEASE,  /* the release's flavour */
	ARM_LPAE_SOURCE_RAM,      /* RAM above 4 GiB */
};

struct swiotlb_state {
	enum tristate active;
	enum provenance active_prov;
	const char *active_why;   /* static */
	uint64_t assumed_bytes;   /* the size the rule that assumed a pool gives it; 0: the default */
	struct {
		uint64_t start;
		uint64_t end;     /* exclusive, above start */
		bool known;       /* where it is: the boot log line */
	} pool;
	/* the highest address the pool can occupy: pool.end - 1 when read, else the
	 * ARCH_LOW_ADDRESS_LIMIT that memblock_alloc_low() keeps it below (ERA_POOL_PLACEMENT) */
	struct opt_u64 pool_limit; /* inclusive */
	enum provenance pool_limit_prov;
	const char *pool_limit_why; /* static */
	/* 32-bit ARM: an LPAE kernel (3-level page tables), the one that has swiotlb
	 * from 5.3 (arch/arm/mm/init.c mem_init); TRI_UNKNOWN and NULL elsewhere */
	enum tristate arm_lpae;
	const char *arm_lpae_why; /* static: the evidence */
	enum arm_lpae_source arm_lpae_source;
	struct opt_u64 size_bytes;
	enum provenance size_prov;
	const char *size_why;     /* static: how an assumed size was reached; NULL when read */
	struct opt_u32 areas;     /* the areas an assumed 6.0+ pool has (ERA_POOL_AREAS) */
	struct opt_u64 used_bytes;
	struct opt_u64 hiwater_bytes;
	enum coco_kind coco;      /* what the memory-encryption signs make of the machine */
	/* swiotlb=force and swiotlb=noforce as this release reads the command line (ERA_SWIOTLB_PARAM) */
	bool cmdline_force;
	bool cmdline_noforce;
	bool forced;              /* every dma-direct mapping bounces */
	const char *forced_why;   /* static */
	/* static: why forcing depends on what the tool does not know (an unknown
	 * release); NULL when forced says it all */
	const char *forced_unknown_why;
	bool xen_pv;              /* xen-swiotlb on machine addresses: undecidable here */
	bool xen_pv_unknown;      /* xen_pv because the guest's type is unknown, not known PV */
	const char *xen_why;
};

void swiotlb_state_compute(const struct machine *m, const struct layout *l, uint32_t release,
			   struct swiotlb_state *ret) _nonnull_all_;

/* What one "swiotlb buffer is full" line says of the pool. */
enum full_line_kind {
	FULL_NO_ROOM,   /* used near total (or no counts printed): the pool ran out, pressure */
	FULL_WITH_ROOM, /* room left: no free slot suited the device; a larger pool does not help */
	FULL_NO_POOL,   /* total 0: there is no pool, which bounce-impossible reports */
};

enum full_line_kind swiotlb_full_kind(const struct swiotlb_full *l, const struct swiotlb_info *sw) _nonnull_all_;
