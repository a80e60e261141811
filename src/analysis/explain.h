/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --explain DEVICE: the kernel's decision for one device as the kernel
 * computes it, step by step, each number with the input it came from and
 * each step with the kernel function of the running era that does it
 * (the era table's citation). Built from the device report the audit
 * already computed (devices.c); the words of every step live in one table
 * in explain.c. Pure: no I/O.
 */
#pragma once

#include "shared/macro.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/eras.h"
#include "analysis/model.h"

/* What a step is about, in the kernel's order. */
enum explain_kind {
	EXPLAIN_KIND_DOMAIN,      /* the IOMMU domain: translated, or passthrough to dma-direct */
	EXPLAIN_KIND_MASK,        /* the DMA mask and where it came from */
	EXPLAIN_KIND_BUS_LIMIT,   /* mask and bus limit: min_not_zero() */
	EXPLAIN_KIND_BUS_RANGE,   /* the bus addresses dma_capable() accepts */
	EXPLAIN_KIND_TRANSLATION, /* dma-ranges: CPU to bus */
	EXPLAIN_KIND_CPU_REACH,   /* the highest CPU address the device reaches */
	EXPLAIN_KIND_RAM,         /* a RAM range against the reach */
	EXPLAIN_KIND_POOL,        /* the swiotlb pool: within reach or not */
	EXPLAIN_KIND_BLOCK,       /* the block layer's bounce_pfn, each max_low_pfn reading */
	EXPLAIN_KIND_VERDICT,
	EXPLAIN_KIND_LIMITER,     /* what limits it: what a remedy must change */
	EXPLAIN_KIND_MISSING,     /* the input whose absence ends the explanation */
	_EXPLAIN_KIND_MAX,
	_EXPLAIN_KIND_INVALID = -EINVAL,
};

/* Each case is one sentence template of explain.c's table; its kind is the table's too. */
enum explain_case {
	EXPLAIN_DOMAIN_IDENTITY,
	EXPLAIN_DOMAIN_TRANSLATED,
	EXPLAIN_DOMAIN_UNTRUSTED,
	EXPLAIN_DOMAIN_OTHER,
	EXPLAIN_MASK_SYSFS,
	EXPLAIN_MASK_DRIVER,
	EXPLAIN_MASK_DEFAULT,
	EXPLAIN_MASK_DEFAULT_CLIPPED,
	EXPLAIN_MASK_USER,
	EXPLAIN_MASK_NONE,
	EXPLAIN_MASK_NOT_CONTIGUOUS,
	EXPLAIN_BUS_LIMIT_NONE,
	EXPLAIN_BUS_LIMIT_NOT_KEPT,
	EXPLAIN_BUS_LIMIT_DT,
	EXPLAIN_BUS_LIMIT_IORT,
	EXPLAIN_BUS_RANGE,
	EXPLAIN_BUS_RANGE_UNCHECKED,
	EXPLAIN_BUS_RANGE_ARM_UNCHECKED,
	EXPLAIN_BUS_RANGE_ARM_MAYBE,
	EXPLAIN_TRANSLATION_IDENTITY,
	EXPLAIN_TRANSLATION_REGION,
	EXPLAIN_TRANSLATION_IORT,
	EXPLAIN_TRANSLATION_IGNORED,
	EXPLAIN_CPU_REACH_MASK,
	EXPLAIN_CPU_REACH_WINDOW,
	EXPLAIN_CPU_REACH_NONE,
	EXPLAIN_RAM_IN_REACH,
	EXPLAIN_RAM_BEYOND,
	EXPLAIN_RAM_UNCOVERED,
	EXPLAIN_RAM_PARTLY,
	EXPLAIN_RAM_TOTAL,
	EXPLAIN_POOL_NONE,
	EXPLAIN_POOL_UNKNOWN,
	EXPLAIN_POOL_IN_REACH,
	EXPLAIN_POOL_OUT_OF_REACH,
	EXPLAIN_POOL_UNCOVERED,
	EXPLAIN_POOL_DERIVED_IN_REACH,
	EXPLAIN_POOL_DERIVED_ALL_IN_REACH,
	EXPLAIN_POOL_DERIVED_OUT_OF_REACH,
	EXPLAIN_POOL_DERIVED_PARTLY,
	EXPLAIN_POOL_TRANSLATED,
	EXPLAIN_BLOCK_LIMIT,
	EXPLAIN_BLOCK_LIMIT_HIGH,
	EXPLAIN_BLOCK_READING,
	EXPLAIN_BLOCK_READING_NOTHING,
	EXPLAIN_VERDICT,
	EXPLAIN_LIMITER_NONE,
	EXPLAIN_LIMITER_MASK,
	EXPLAIN_LIMITER_BUS_WINDOW,
	EXPLAIN_LIMITER_POOL,
	EXPLAIN_LIMITER_POOL_FORCED,
	EXPLAIN_LIMITER_IOMMU,
	EXPLAIN_LIMITER_KERNEL_ERA,
	EXPLAIN_LIMITER_UNKNOWN,
	EXPLAIN_MISSING,
	_EXPLAIN_CASE_MAX,
};

/* How a number is printed: addresses, masks and PFNs in hex, sizes with their unit. */
enum explain_unit {
	EXPLAIN_UNIT_ADDRESS,     /* an address or a mask: hex */
	EXPLAIN_UNIT_PFN,         /* a page frame number: hex */
	EXPLAIN_UNIT_BYTES,       /* a size: hex, and its size in words */
	EXPLAIN_UNIT_PAGES,       /* a count of pages: hex, and their size */
	EXPLAIN_UNIT_COUNT,       /* a plain count (bits): decimal */
	EXPLAIN_UNIT_DELTA,       /* a signed difference (int64_t in v): hex with its sign */
	_EXPLAIN_UNIT_MAX,
};

/* Where a number was read or how it was derived; the words, with {arg}, are explain.c's. */
enum explain_source {
	EXPLAIN_SRC_SYSFS_MASK_BITS,  /* {arg}: the device's sysfs path */
	EXPLAIN_SRC_SYSFS_IOMMU_GROUP, /* {arg}: the device's sysfs path */
	EXPLAIN_SRC_DRIVER_ROW,       /* {arg}: the row's source */
	EXPLAIN_SRC_BUS_DEFAULT,      /* {arg}: the era row */
	EXPLAIN_SRC_ASSUME_MASK,
	EXPLAIN_SRC_DT_DMA_RANGES,    /* {arg}: the node */
	EXPLAIN_SRC_IORT,
	EXPLAIN_SRC_IOMEM,
	EXPLAIN_SRC_ZONEINFO,
	EXPLAIN_SRC_SWIOTLB,          /* {arg}: swiotlb-state's why */
	EXPLAIN_SRC_LOWMEM,           /* {arg}: how lowmem's end was found */
	EXPLAIN_SRC_COMPUTED,         /* {arg}: the arithmetic */
	_EXPLAIN_SRC_MAX,
};

struct explain_number {
	const char *name;             /* "mask", "bus_limit": the template's {name} */
	uint64_t v;                   /* EXPLAIN_UNIT_DELTA: an int64_t */
	enum explain_unit unit;
	enum explain_source source;
	const char *arg;              /* borrowed (report, machine or static): the source's {arg} */
};

struct explain_word {
	const char *name;             /* the template's {name} */
	const char *s;                /* borrowed */
};

#define EXPLAIN_MAX_NUMBERS 8
#define EXPLAIN_MAX_WORDS 3

struct explain_step {
	enum explain_case c;
	struct explain_number n[EXPLAIN_MAX_NUMBERS];
	size_t n_numbers;
	struct explain_word w[EXPLAIN_MAX_WORDS];
	size_t n_words;
	const char *kernel;           /* static: the kernel file and function that does it (the era row's) */
	enum era_rule era;            /* the rule whose row kernel is; _ERA_RULE_MAX: none */
	int era_value;                /* that row's value (era_value_name()); -1 none */
};

struct explain {
	const struct device_report *r;
	struct explain_step *steps;
	size_t n_steps;
	const char *missing;          /* static: the unknown cause's words when the input runs out; NULL none */
};

/* The step's kind and template ("the DMA mask is {mask}, ..."); NULL out of range. */
enum explain_kind explain_case_kind(enum explain_case c);
const char *explain_case_template(enum explain_case c);
/* "mask-sysfs", "bus-limit-dt": the case as JSON names it; NULL out of range. */
const char *explain_case_to_string(enum explain_case c);
/* "mask", "bus-limit"; NULL out of range. */
const char *explain_kind_to_string(enum explain_kind k);
/* "address", "pfn", "bytes", "pages", "count", "delta"; NULL out of range. */
const char *explain_unit_to_string(enum explain_unit u);
/* The source's words, "{arg}" standing for the number's arg; NULL out of range. */
const char *explain_source_template(enum explain_source s);

/*
 * The steps for r, a device of rep, from what the audit computed (rep's
 * layout, swiotlb state and release; r's mask, map, reach, legacy model and
 * verdict). A device whose verdict is unknown is explained up to the input
 * that is missing, and ret->missing says which. 0 or -ENOMEM.
 */
_must_check_ int explain_build(const struct report *rep, const struct device_report *r, struct explain *ret)
	_nonnull_all_;
void explain_done(struct explain *e);
