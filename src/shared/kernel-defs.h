/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel's own constants the tool mirrors, once, each with where it
 * comes from. Era-dependent rules are not here: they live in analysis/eras.c.
 */
#pragma once

#include <stdint.h>

/* Where sysfs shows the flattened devicetree (drivers/of/kobj.c, of_core_init). */
#define DT_BASE "sys/firmware/devicetree/base"
/* OF_MAX_ADDR_CELLS in drivers/of/address.c. */
#define DT_MAX_CELLS 4
/* OF_ROOT_NODE_{ADDR,SIZE}_CELLS_DEFAULT (include/linux/of.h). */
#define DT_DEFAULT_ADDR_CELLS 2
#define DT_DEFAULT_SIZE_CELLS 1

/* include/linux/swiotlb.h: 2 KiB slots, mapped at most IO_TLB_SEGSIZE at a time. */
#define IO_TLB_SHIFT 11
#define IO_TLB_SIZE (1u << IO_TLB_SHIFT)
#define IO_TLB_SEGSIZE 128u
/* IO_TLB_DEFAULT_SIZE: 64 MiB. */
#define IO_TLB_DEFAULT_BYTES (64ull << 20)

/* include/linux/namei.h MAXSYMLINKS: symlinks followed in one lookup. */
#define MAXSYMLINKS 40

/* include/linux/bitops.h fls64(): the 1-based index of the highest set bit, 0 for 0. */
static inline int fls64(uint64_t v)
{
	return v ? 64 - __builtin_clzll(v) : 0;
}
