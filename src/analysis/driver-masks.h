/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The DMA mask a platform device's driver sets in its probe (dma_set_mask*,
 * dma_coerce_mask*), per driver and, where the driver's variant data decides,
 * per compatible; sysfs shows none for platform devices. Pure: no I/O.
 */
#pragma once

#include "shared/macro.h"

#include <stdint.h>

#include "machine.h"

enum driver_mask_rule {
	DRIVER_MASK_FIXED,    /* the driver (or its variant data) sets these bits */
	DRIVER_MASK_LOGGED,   /* a hardware register decides; the driver's probe line tells which */
	DRIVER_MASK_HARDWARE, /* a hardware register decides; Linux shows it nowhere */
	DRIVER_MASK_ENGINE,   /* the host maps through its DMA-engine channel's device: its own mask is unused */
};

struct driver_mask_row {
	const char *driver;       /* the driver link's name (platform_driver.driver.name) */
	const char *compatible;   /* the of_match_table entry; NULL: every device the driver binds */
	uint32_t since;           /* KV(): the first release the row was checked for */
	uint32_t until;           /* KV(): the first release it no longer holds (0: none); first span wins */
	enum driver_mask_rule rule;
	unsigned bits;            /* FIXED: the streaming mask */
	unsigned coherent_bits;   /* FIXED: the coherent mask; 0 the bus default is kept */
	enum mask_line_kind line; /* LOGGED: the line that tells */
	const char *why;          /* what decides, in the report's words */
	const char *source;       /* kernel file, function, release */
};

/* What the table and the log say of one device's mask. */
struct driver_mask {
	const struct driver_mask_row *row; /* NULL: the driver is not in the table */
	unsigned bits;            /* 0: not decided (keep the bus default's provenance) */
	unsigned coherent_bits;   /* 0: the bus default */
	bool default_kept;        /* decided: the driver sets no mask, the bus default stands */
	const char *why;          /* static: what decided it, or why it stays undecided */
};

/*
 * The row for device d (its driver, then its compatible strings in the
 * node's order, as of_match_device() picks the best match) at release, and
 * what it decides with the machine's log lines. A driver not in the table,
 * an unknown release or one no row of its entry spans: ret->row NULL.
 */
void driver_mask_find(const struct machine *m, const struct device *d, uint32_t release,
		      struct driver_mask *ret) _nonnull_all_;

/* The table, for the unit tests. */
const struct driver_mask_row *driver_mask_rows(size_t *ret_n) _nonnull_all_;
