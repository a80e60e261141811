/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * THE table of kernel-era rules. Rows of one rule are ordered oldest first;
 * the first row whose version range and architecture match wins, so an
 * architecture-specific row stands before the generic row of the same span.
 */
#include <stddef.h>

#include "analysis/eras.h"
#include "shared/debug.h"
#include "shared/macro.h"

static const struct era_row table[] = {
	/* max_low_pfn: a count on 32-bit ARM before v3.13 (bootmem_init:
	 * "max_low_pfn = max_low - PHYS_PFN_OFFSET", "the number of _pages_");
	 * absolute PFNs from v3.13, commit 26ba47b18318 "ARM: 7805/1: mm: change
	 * max*pfn to include the physical offset of memory". */
	{ ERA_MAX_LOW_PFN, 0, KV(3, 13, 0), ARCH_ARM, MAX_LOW_PFN_COUNT,
	  "arch/arm/mm/init.c bootmem_init, before v3.13 (26ba47b18318)" },
	{ ERA_MAX_LOW_PFN, 0, 0, ANY_ARCH, MAX_LOW_PFN_PFN,
	  "mm/memblock.c, arch/*/mm/init.c: absolute PFNs (ARM since v3.13, 26ba47b18318)" },

	/* Block-layer bouncing: PFN arithmetic until 5.13; 9bb33f24abbd
	 * ("block: refactor the bounce buffering code") made it PageHighMem()
	 * behind blk_queue_may_bounce(), whose "max_low_pfn >= max_pfn" is only
	 * true without highmem, so it never runs; eeadd68e2a5f removed it in 6.16. */
	{ ERA_BLOCK_BOUNCE, 0, KV(5, 13, 0), ANY_ARCH, BLOCK_BOUNCE_PFN,
	  "block/blk-settings.c blk_queue_bounce_limit, block/bounce.c (mm/bounce.c before 3.16)" },
	{ ERA_BLOCK_BOUNCE, KV(5, 13, 0), KV(6, 16, 0), ANY_ARCH, BLOCK_BOUNCE_NEVER_HIGHMEM,
	  "block/blk.h blk_queue_may_bounce, 9bb33f24abbd (5.13)" },
	{ ERA_BLOCK_BOUNCE, KV(6, 16, 0), 0, ANY_ARCH, BLOCK_BOUNCE_NONE,
	  "eeadd68e2a5f \"block: remove bounce buffering support\" (6.16)" },

	/* What MMC (mmc_init_queue) and SCSI (scsi_calculate_bounce_limit) pass. */
	{ ERA_BLOCK_LIMIT, 0, KV(3, 13, 0), ANY_ARCH, BLOCK_LIMIT_MASK,
	  "drivers/mmc/card/queue.c, drivers/scsi/scsi_lib.c: *dma_mask, before v3.13" },
	/* ARM's override still added PHYS_PFN_OFFSET in 4.1 and 4.2 trees; 4.12's is
	 * "return dma_to_pfn(dev, *dev->dma_mask)": the commit between is not pinned,
	 * 4.10 the second audit's bound. 79a986721de removed both overrides (5.3). */
	{ ERA_BLOCK_LIMIT, KV(3, 13, 0), KV(4, 10, 0), ARCH_ARM, BLOCK_LIMIT_PHYS_OFFSET_PFN,
	  "arch/arm/include/asm/dma-mapping.h dma_max_pfn: PHYS_PFN_OFFSET + dma_to_pfn (ARM: 7795/1, 3.13; still in 4.2, gone by 4.12)" },
	{ ERA_BLOCK_LIMIT, KV(3, 13, 0), KV(5, 3, 0), ANY_ARCH, BLOCK_LIMIT_DMA_MAX_PFN,
	  "include/linux/dma-mapping.h dma_max_pfn (3.13; + dma_pfn_offset from 4.16)" },
	{ ERA_BLOCK_LIMIT, KV(5, 3, 0), 0, ANY_ARCH, BLOCK_LIMIT_ANY_WITH_MASK,
	  "\"mmc: core: let the dma map ops handle bouncing\", \"dma-mapping: remove dma_max_pfn\" (5.3)" },

	/* SCSI (and libata, a SCSI host) stopped deriving a bounce limit from the
	 * mask in 21e07dba9fb1 "scsi: reduce use of block bounce buffers" (4.18):
	 * __scsi_init_queue() sets one only for unchecked_isa_dma hosts, and the
	 * default limit had long been BLK_BOUNCE_ANY (blk_set_default_limits), so
	 * a SCSI queue bounces nothing; only the DMA API below judges reach. */
	{ ERA_SCSI_BLOCK_LIMIT, 0, KV(4, 18, 0), ANY_ARCH, SCSI_LIMIT_AS_BLOCK,
	  "drivers/scsi/scsi_lib.c scsi_calculate_bounce_limit, before 4.18" },
	{ ERA_SCSI_BLOCK_LIMIT, KV(4, 18, 0), 0, ANY_ARCH, SCSI_LIMIT_NONE,
	  "drivers/scsi/scsi_lib.c __scsi_init_queue: no bounce limit (21e07dba9fb1, 4.18)" },

	/* 32-bit ARM streaming DMA: arm_dma_map_page() (arch/arm/mm/dma-mapping.c)
	 * returns pfn_to_dma() + offset, no reach check, no swiotlb; LPAE kernels
	 * use dma-direct and swiotlb from ad3c7b18c5b3 (5.3); every kernel from
	 * ae626eb97376 "ARM/dma-mapping: use dma-direct unconditionally" (6.0). */
	{ ERA_STREAMING_MAP, 0, KV(5, 3, 0), ARCH_ARM, STREAMING_ARM_NO_CHECK,
	  "arch/arm/mm/dma-mapping.c arm_dma_map_page: no reach check, before 5.3" },
	{ ERA_STREAMING_MAP, KV(5, 3, 0), KV(6, 0, 0), ARCH_ARM, STREAMING_ARM_LPAE_DIRECT,
	  "arch/arm/mm/init.c: swiotlb for ARM_LPAE (ad3c7b18c5b3, 5.3); arm_dma_ops otherwise" },
	{ ERA_STREAMING_MAP, 0, 0, ANY_ARCH, STREAMING_DMA_DIRECT,
	  "kernel/dma/direct.h dma_direct_map_page (ARM: ae626eb97376, 6.0)" },

	/* arm64 mem_init(): CONFIG_DMA_BOUNCE_UNALIGNED_KMALLOC (selected by arm64
	 * from the kmalloc-minalign series, 6.5) makes swiotlb = true whatever the
	 * RAM; 65033574ade9 (6.7) shrinks that pool to min(64 MiB, RAM / 1024) when
	 * nothing else asked for one. Kernels that deselect it (Raspberry Pi's)
	 * have none: the default is assumed, and a log or debugfs overrides it. */
	{ ERA_KMALLOC_POOL, 0, KV(6, 5, 0), ARCH_ARM64, KMALLOC_POOL_NONE,
	  "arch/arm64/mm/init.c mem_init: swiotlb only above the DMA zone, before 6.5" },
	{ ERA_KMALLOC_POOL, KV(6, 5, 0), KV(6, 7, 0), ARCH_ARM64, KMALLOC_POOL_DEFAULT,
	  "arch/arm64/mm/init.c mem_init: DMA_BOUNCE_UNALIGNED_KMALLOC (6.5)" },
	{ ERA_KMALLOC_POOL, KV(6, 7, 0), 0, ARCH_ARM64, KMALLOC_POOL_SMALL,
	  "arch/arm64/mm/init.c mem_init: swiotlb_adjust_size(RAM / 1024) (65033574ade9, 6.7)" },
	{ ERA_KMALLOC_POOL, 0, 0, ANY_ARCH, KMALLOC_POOL_NONE,
	  "no kmalloc bouncing pool outside arm64" },

	/* dma_direct_map_page(): dma_kmalloc_needs_bounce() sends a non-coherent
	 * device's FROM_DEVICE or BIDIRECTIONAL kmalloc buffer below 2 *
	 * ARCH_DMA_MINALIGN and not cache-aligned to swiotlb, reach or not. The
	 * small kmalloc caches exist only with a pool (__kmalloc_minalign), so
	 * with none nothing bounces. riscv selects it for RISCV_DMA_NONCOHERENT
	 * (Zicbom, T-Head CMOs) if SWIOTLB. */
	{ ERA_KMALLOC_BOUNCE, 0, KV(6, 5, 0), ARCH_ARM64, 0,
	  "include/linux/dma-map-ops.h dma_kmalloc_needs_bounce: none before 6.5" },
	{ ERA_KMALLOC_BOUNCE, KV(6, 5, 0), 0, ARCH_ARM64, 1,
	  "arch/arm64/Kconfig: select DMA_BOUNCE_UNALIGNED_KMALLOC (6.5)" },
	{ ERA_KMALLOC_BOUNCE, 0, KV(6, 6, 0), ARCH_RISCV, 0,
	  "include/linux/dma-map-ops.h dma_kmalloc_needs_bounce: not selected by riscv before 6.6" },
	{ ERA_KMALLOC_BOUNCE, KV(6, 6, 0), 0, ARCH_RISCV, 1,
	  "arch/riscv/Kconfig RISCV_DMA_NONCOHERENT: select DMA_BOUNCE_UNALIGNED_KMALLOC if SWIOTLB "
	  "(f51f7a0fc2f4, 6.6)" },
	{ ERA_KMALLOC_BOUNCE, 0, 0, ANY_ARCH, 0,
	  "no architecture but arm64 and riscv selects DMA_BOUNCE_UNALIGNED_KMALLOC" },

	/* Hyper-V isolated VMs: ms_hyperv_init_platform() sets swiotlb_force =
	 * SWIOTLB_FORCE for any isolation type from 062a5c4260cd "hyper-v: Enable
	 * swiotlb bounce buffer for Isolation VM" (v7 applied to hyperv-next in
	 * December 2021, after 5.16-rc5: the 5.17 merge window; 5.16 took only the
	 * series' hypercall half), later through cc_platform_has(CC_ATTR_GUEST_MEM_ENCRYPT)
	 * in pci_swiotlb_detect(). */
	{ ERA_HYPERV_FORCE, 0, KV(5, 17, 0), ANY_ARCH, 0,
	  "arch/x86/kernel/cpu/mshyperv.c: no forced bouncing for isolated VMs, before 5.17" },
	{ ERA_HYPERV_FORCE, KV(5, 17, 0), 0, ANY_ARCH, 1,
	  "arch/x86/kernel/cpu/mshyperv.c ms_hyperv_init_platform, arch/x86/kernel/pci-dma.c: SWIOTLB_FORCE (062a5c4260cd, 5.17)" },

	/* s390 PCI: arch/s390/pci/pci_dma.c s390_pci_dma_ops until c76c067e488c
	 * "s390/pci: Use dma-iommu layer" (6.7). */
	{ ERA_S390_PCI_DMA, 0, KV(6, 7, 0), ANY_ARCH, S390_PCI_OWN_OPS,
	  "arch/s390/pci/pci_dma.c s390_pci_dma_ops, before 6.7" },
	{ ERA_S390_PCI_DMA, KV(6, 7, 0), 0, ANY_ARCH, S390_PCI_DMA_IOMMU,
	  "drivers/iommu/s390-iommu.c, dma-iommu (c76c067e488c, 6.7)" },

	/* dma-direct translation: dma_pfn_offset until the dma_range_map of 5.10
	 * ("dma-mapping: introduce DMA range map, supplanting dma_pfn_offset"),
	 * whose translate_phys_to_dma() returns DMA_MAPPING_ERROR when no region
	 * covers the address (include/linux/dma-direct.h). */
	{ ERA_RANGE_MAP, 0, KV(5, 10, 0), ANY_ARCH, RANGE_MAP_PFN_OFFSET,
	  "include/linux/dma-direct.h __phys_to_dma: dev->dma_pfn_offset, before 5.10" },
	{ ERA_RANGE_MAP, KV(5, 10, 0), 0, ANY_ARCH, RANGE_MAP_REGIONS,
	  "include/linux/dma-direct.h translate_phys_to_dma (5.10)" },

	/* dma_capable() compares with min_not_zero(*dma_mask, bus limit): 4.19
	 * already stored bus_dma_mask (a power-of-two mask covering the ranges:
	 * of_dma_configure 6c2fb2ea7636, iort_dma_setup d74ea7100b0d) but
	 * dma_capable() read only *dma_mask; b4ebe6063204 "dma-direct: implement
	 * complete bus_dma_mask handling" (4.20) compared with it; a7ba70f1787f
	 * (5.5) made it an exact limit (bus_dma_limit). */
	{ ERA_BUS_LIMIT, 0, KV(4, 20, 0), ANY_ARCH, BUS_LIMIT_NONE,
	  "include/linux/dma-direct.h dma_capable: *dma_mask only, before 4.20 (bus_dma_mask set but unread in 4.19)" },
	{ ERA_BUS_LIMIT, KV(4, 20, 0), KV(5, 5, 0), ANY_ARCH, BUS_LIMIT_MASK,
	  "include/linux/dma-direct.h dma_capable: min_not_zero(*dma_mask, bus_dma_mask) (b4ebe6063204, 4.20)" },
	{ ERA_BUS_LIMIT, KV(5, 5, 0), 0, ANY_ARCH, BUS_LIMIT_EXACT,
	  "include/linux/dma-direct.h dma_capable: min_not_zero(*dma_mask, bus_dma_limit) (a7ba70f1787f, 5.5)" },

	/* of_dma_get_range(np) before 951d48855d86 "of: Make of_dma_get_range()
	 * work on bus nodes" (5.5) read dma-ranges first from __of_get_dma_parent(np)
	 * and stopped at the first level without the property (-ENODEV): for PCI,
	 * np is the host bridge, whose own dma-ranges it never read. From 5.5 the
	 * walk starts at np; "of: Fix dma-ranges handling for bus controllers"
	 * (6.1) starts it at the DMA parent when np is the device's own node. */
	{ ERA_DT_WALK_START, 0, KV(5, 5, 0), ANY_ARCH, DT_WALK_ABOVE_NODE,
	  "drivers/of/address.c of_dma_get_range: from __of_get_dma_parent(np), before 5.5 (951d48855d86)" },
	{ ERA_DT_WALK_START, KV(5, 5, 0), KV(6, 1, 0), ANY_ARCH, DT_WALK_DEVICE_NODE,
	  "drivers/of/device.c of_dma_configure_id: of_dma_get_range(np), before 6.1" },
	{ ERA_DT_WALK_START, KV(6, 1, 0), 0, ANY_ARCH, DT_WALK_PARENT_BUS,
	  "drivers/of/device.c of_dma_configure_id: bus_np = __of_get_dma_parent(np) (6.1)" },

	/* swiotlb=noforce: unknown before fff5d99225 "swiotlb: Add swiotlb=noforce
	 * debug option" (4.10; setup_io_tlb_npages knew only "force"). From 4.10
	 * SWIOTLB_NO_FORCE kept one slab and never bounced: lib/swiotlb.c map_single
	 * "Cannot do DMA to address", then kernel/dma/direct.h dma_direct_map_page
	 * "if (swiotlb_force != SWIOTLB_NO_FORCE) return swiotlb_map()", else the
	 * overflow (5.10: x86-pc-6g-noforce-bullseye logs it beside a 1-slab pool);
	 * no pool from 2726bf3ff252 "swiotlb: Make SWIOTLB_NO_FORCE perform no
	 * allocation" (5.13: setup_io_tlb_npages drops default_nslabs = 1, every
	 * swiotlb_init* returns early), swiotlb_force_disable in 5.19 after it. */
	{ ERA_SWIOTLB_NOFORCE, 0, KV(4, 10, 0), ANY_ARCH, NOFORCE_IGNORED,
	  "lib/swiotlb.c setup_io_tlb_npages: only \"force\", before 4.10 (fff5d99225)" },
	{ ERA_SWIOTLB_NOFORCE, KV(4, 10, 0), KV(5, 13, 0), ANY_ARCH, NOFORCE_ONE_SLAB,
	  "kernel/dma/direct.h dma_direct_map_page: no swiotlb_map() for SWIOTLB_NO_FORCE, one slab, 4.10-5.12" },
	{ ERA_SWIOTLB_NOFORCE, KV(5, 13, 0), 0, ANY_ARCH, NOFORCE_NO_POOL,
	  "kernel/dma/swiotlb.c setup_io_tlb_npages, swiotlb_init: no allocation for SWIOTLB_NO_FORCE (2726bf3ff252, 5.13)" },

	/* With no pool, 5.0-5.18's dma-direct still calls swiotlb_map() (it asks
	 * swiotlb_force, not the pool: 55897af63091 merged swiotlb_dma_ops into
	 * dma-direct in 5.0), whose trace_swiotlb_bounced() fires before the slot
	 * search fails ("swiotlb buffer is full (sz: N bytes), total 0 (slots)" on
	 * x86-pc-6g-iommu-off-bullseye); "dma-direct: use is_swiotlb_active in
	 * dma_direct_map_page" (5.19) logs the overflow instead, with no event.
	 * Where mem_init() makes no pool, arm64 (else swiotlb_force =
	 * SWIOTLB_NO_FORCE, in 4.x and 5.x alike; a Xen dom0 aside from 5.13's
	 * xen_swiotlb_detect()), 32-bit ARM LPAE (fcf044891c84: 5.13, stable 5.4.149
	 * and 5.10.69) and riscv (ce3aca0465e3, 5.14) set SWIOTLB_NO_FORCE, so
	 * dma_direct_map_page() never reaches swiotlb_map(): the overflow, no event,
	 * as 5.19 does everywhere. Their rows stand first and stay open-ended. */
	{ ERA_POOLLESS_MAP, KV(5, 0, 0), 0, ARCH_ARM64, POOLLESS_OVERFLOW,
	  "arch/arm64/mm/init.c mem_init: swiotlb_force = SWIOTLB_NO_FORCE without a pool (5.0 on)" },
	{ ERA_POOLLESS_MAP, KV(5, 4, 149), KV(5, 5, 0), ARCH_ARM, POOLLESS_OVERFLOW,
	  "arch/arm/mm/init.c mem_init: SWIOTLB_NO_FORCE without a pool (fcf044891c84 in stable 5.4.149)" },
	{ ERA_POOLLESS_MAP, KV(5, 10, 69), KV(5, 11, 0), ARCH_ARM, POOLLESS_OVERFLOW,
	  "arch/arm/mm/init.c mem_init: SWIOTLB_NO_FORCE without a pool (fcf044891c84 in stable 5.10.69)" },
	{ ERA_POOLLESS_MAP, KV(5, 13, 0), 0, ARCH_ARM, POOLLESS_OVERFLOW,
	  "arch/arm/mm/init.c mem_init: SWIOTLB_NO_FORCE without a pool (fcf044891c84, 5.13)" },
	{ ERA_POOLLESS_MAP, KV(5, 14, 0), 0, ARCH_RISCV, POOLLESS_OVERFLOW,
	  "arch/riscv/mm/init.c mem_init: SWIOTLB_NO_FORCE without a pool (ce3aca0465e3, 5.14)" },
	{ ERA_POOLLESS_MAP, KV(5, 0, 0), KV(5, 19, 0), ANY_ARCH, POOLLESS_TRIES_SWIOTLB,
	  "kernel/dma/direct.h dma_direct_map_page: swiotlb_force != SWIOTLB_NO_FORCE, 5.0-5.18" },
	{ ERA_POOLLESS_MAP, KV(5, 19, 0), 0, ANY_ARCH, POOLLESS_OVERFLOW,
	  "kernel/dma/direct.h dma_direct_map_page: is_swiotlb_active() first (5.19)" },

	/* A DT platform device's default mask: none until of_platform_device_create_pdata
	 * pointed dma_mask at a 32-bit coherent_dma_mask ("of: set dma_mask to point to
	 * coherent_dma_mask", 3.13); a separate platform_dma_mask since cdfee5623290 (5.4). */
	{ ERA_PLATFORM_MASK, 0, KV(3, 13, 0), ANY_ARCH, PLATFORM_MASK_NONE,
	  "drivers/of/platform.c of_platform_device_create_pdata: no dma_mask, before 3.13" },
	{ ERA_PLATFORM_MASK, KV(3, 13, 0), 0, ANY_ARCH, PLATFORM_MASK_32,
	  "drivers/of/platform.c, drivers/base/platform.c setup_pdev_dma_masks (cdfee5623290, 5.4): 32 bits" },

	/* swiotlb_print_info() (lib/swiotlb.c, kernel/dma/swiotlb.c from 4.18) logs each
	 * pool: "software IO TLB [mem A-B] ... mapped at" in 4.x, "software IO TLB:
	 * mapped [mem A-B]" later; x86 prints it from pci_swiotlb_late_init. So a log
	 * kept from boot without it has no pool (Debian 6.1 under QEMU with iommu=off
	 * and swiotlb=noforce: no line, no pool). 4.0 is a conservative bound, not a
	 * commit: 2.6 printed "Placing N MB software IO TLB", which kmsg.c does not
	 * read, and the release where 3.x switched to "[mem" was not pinned down. */
	{ ERA_POOL_LOGGED, 0, KV(4, 0, 0), ANY_ARCH, POOL_LOG_UNPARSED,
	  "lib/swiotlb.c swiotlb_print_info: older formats, before 4.0" },
	{ ERA_POOL_LOGGED, KV(4, 0, 0), 0, ANY_ARCH, POOL_LOG_ALWAYS,
	  "lib/swiotlb.c, kernel/dma/swiotlb.c swiotlb_print_info (4.0 on)" },

	/* One swiotlb mapping is at most IO_TLB_SEGSIZE (128) slots of IO_TLB_SIZE (2 KiB)
	 * = 256 KiB in every era. 1f221a0d0dbf "swiotlb: respect min_align_mask" (5.12)
	 * keeps the buffer's offset within min_align_mask (NVMe: 4095) in the bounce
	 * slot, so such a device fits less; 82806744fd7d (5.19) made
	 * swiotlb_max_mapping_size() subtract roundup(min_align_mask, IO_TLB_SIZE). */
	/* The stable rows first (the first matching row wins): 82806744fd7d in
	 * 5.15.72 and 5.10.147 (625899cd06e1). The min_align_mask series itself
	 * (1f221a0d0dbf and the eight before it) went to 5.10.35 and 5.11.19 (both
	 * pushed 2021-05-07, the series just before "Linux 5.10.35" and "Linux
	 * 5.11.19"); its 5.4.y submission of 2021-05-18 was declined ("this isn't a
	 * regression", Greg Kroah-Hartman, 2021-05-20), so 5.4.y has no row. */
	{ ERA_MAPPING_ALIGN, KV(5, 10, 35), KV(5, 10, 147), ANY_ARCH, MAPPING_ALIGN_UNCOUNTED,
	  "kernel/dma/swiotlb.c swiotlb_tbl_map_single: min_align_mask offset (1f221a0d0dbf in stable 5.10.35)" },
	{ ERA_MAPPING_ALIGN, KV(5, 10, 147), KV(5, 11, 0), ANY_ARCH, MAPPING_ALIGN_SUBTRACTED,
	  "kernel/dma/swiotlb.c swiotlb_max_mapping_size (82806744fd7d in stable 5.10.147)" },
	{ ERA_MAPPING_ALIGN, KV(5, 15, 72), KV(5, 16, 0), ANY_ARCH, MAPPING_ALIGN_SUBTRACTED,
	  "kernel/dma/swiotlb.c swiotlb_max_mapping_size (82806744fd7d in stable 5.15.72)" },
	{ ERA_MAPPING_ALIGN, 0, KV(5, 11, 19), ANY_ARCH, MAPPING_ALIGN_NONE,
	  "kernel/dma/swiotlb.c (lib/swiotlb.c before 4.18): IO_TLB_SEGSIZE slots, no min_align_mask before 5.12 (5.11.19)" },
	/* 5.11.19 to 5.11.22 have it as 5.12 does: one row from 5.11.19 */
	{ ERA_MAPPING_ALIGN, KV(5, 11, 19), KV(5, 19, 0), ANY_ARCH, MAPPING_ALIGN_UNCOUNTED,
	  "kernel/dma/swiotlb.c swiotlb_tbl_map_single: min_align_mask offset (1f221a0d0dbf, 5.12; stable 5.11.19), not in swiotlb_max_mapping_size" },
	{ ERA_MAPPING_ALIGN, KV(5, 19, 0), 0, ANY_ARCH, MAPPING_ALIGN_SUBTRACTED,
	  "kernel/dma/swiotlb.c swiotlb_max_mapping_size: - roundup(min_align_mask, IO_TLB_SIZE) (82806744fd7d, 5.19)" },

	/* restricted-dma-pool: 0b84e4f8b793 "swiotlb: Add restricted DMA pool
	 * initialization" and of_dma_set_restricted_buffer (drivers/of/device.c), 5.15;
	 * of_dma_configure_id() sets it up only for a device without an IOMMU. */
	{ ERA_RESTRICTED_POOL, 0, KV(5, 15, 0), ANY_ARCH, 0,
	  "kernel/dma/swiotlb.c: no restricted-dma-pool before 5.15" },
	{ ERA_RESTRICTED_POOL, KV(5, 15, 0), 0, ANY_ARCH, 1,
	  "kernel/dma/swiotlb.c rmem_swiotlb_setup, drivers/of/device.c of_dma_set_restricted_buffer (0b84e4f8b793, 5.15)" },

	/* Untrusted PCI devices (set_pcie_untrusted, 5.0) get a strict DMA domain;
	 * 82612d66d51d "iommu: Allow the dma-iommu api to use bounce buffers" (5.11)
	 * bounces every buffer not aligned to the IOMMU granule (dev_use_swiotlb).
	 * With no pool swiotlb_tbl_map_single() finds no slot ("swiotlb buffer is
	 * full"), but panics ("Can not allocate SWIOTLB buffer earlier ...") where
	 * it tests for the missing pool: "if (!mem)" while io_tlb_default_mem was a
	 * pointer, 2d29960af0be (5.13) until the static one of 463e862ac63e (5.15),
	 * and "if (!mem || !mem->nslabs)" from c51ba246cb17 (6.0, stable 5.15.61
	 * and 5.18.18: the 5.18.18 announcement lists it under Robin Murphy).
	 * f316ba0a8814 "dma-iommu: Check that swiotlb is active before trying to use
	 * it" (IOMMU pull for 5.19; the string is in Debian's 6.1.176 and 6.12, not
	 * its 5.10.223) fails first: "DMA bounce buffers are inactive". */
	/* PCI "removable": pci_set_removable() marks a function below an
	 * external-facing port (drivers/pci/probe.c, c037b6c818c3 "PCI: Add sysfs
	 * \"removable\" attribute", 5.14), and drivers/base/core.c creates the file
	 * only for such a device (dev_removable_is_valid): absent is "fixed" from
	 * 5.14, and says nothing before, when no kernel showed it. */
	{ ERA_REMOVABLE_ATTR, 0, KV(5, 14, 0), ANY_ARCH, 0,
	  "drivers/pci/probe.c: no pci_set_removable() before 5.14 (c037b6c818c3): no removable file" },
	{ ERA_REMOVABLE_ATTR, KV(5, 14, 0), 0, ANY_ARCH, 1,
	  "drivers/pci/probe.c pci_set_removable, drivers/base/core.c dev_removable_is_valid (c037b6c818c3, 5.14)" },

	/* setup_io_tlb_npages() (kernel/dma/swiotlb.c): "[<slabs>][,]force|noforce" set
	 * one enum swiotlb_force, the last word winning, until c6af2aa9ffc9 "swiotlb:
	 * make swiotlb_force a bool" (5.19) set swiotlb_force_bounce and
	 * swiotlb_force_disable, where disable wins (swiotlb_init_remap returns before
	 * the pool whose force_bounce would say force); 20347fca71a3 "swiotlb: split up
	 * the global swiotlb lock" (6.0) reads an <areas> number first, so before it
	 * "N,4,force" compared "4,force" with "force" and forced nothing. */
	{ ERA_SWIOTLB_PARAM, 0, KV(5, 19, 0), ANY_ARCH, SWIOTLB_PARAM_LAST_WORD,
	  "kernel/dma/swiotlb.c setup_io_tlb_npages: enum swiotlb_force, the last word wins, before 5.19" },
	{ ERA_SWIOTLB_PARAM, KV(5, 19, 0), KV(6, 0, 0), ANY_ARCH, SWIOTLB_PARAM_NOFORCE_WINS,
	  "kernel/dma/swiotlb.c swiotlb_force_bounce, swiotlb_force_disable (c6af2aa9ffc9, 5.19)" },
	{ ERA_SWIOTLB_PARAM, KV(6, 0, 0), 0, ANY_ARCH, SWIOTLB_PARAM_AREAS,
	  "kernel/dma/swiotlb.c setup_io_tlb_npages: <slabs>,<areas>,force (20347fca71a3, 6.0)" },

	/* swiotlb_init_remap() (kernel/dma/swiotlb.c) from 6.0: swiotlb_adjust_nareas
	 * (num_possible_cpus()) unless swiotlb=<slabs>,<areas> set the areas, a power
	 * of two (20347fca71a3 "swiotlb: split up the global swiotlb lock"), and
	 * round_up_default_nslabs() raises the slots to IO_TLB_SEGSIZE per area, then
	 * to a power of two (57e6840cf79a "swiotlb: ensure a segment doesn't cross
	 * the area boundary"): both in the 6.0 merge window. 8ac04063354a (6.5)
	 * lowers the areas only when the allocation itself falls short. */
	{ ERA_POOL_AREAS, 0, KV(6, 0, 0), ANY_ARCH, POOL_AREAS_NONE,
	  "kernel/dma/swiotlb.c swiotlb_init_with_tbl: one io_tlb_lock, default_nslabs as set, before 6.0" },
	{ ERA_POOL_AREAS, KV(6, 0, 0), 0, ANY_ARCH, POOL_AREAS_PER_CPU,
	  "kernel/dma/swiotlb.c swiotlb_adjust_nareas, round_up_default_nslabs (20347fca71a3, 57e6840cf79a, 6.0)" },

	{ ERA_UNTRUSTED_BOUNCE, 0, KV(5, 11, 0), ANY_ARCH, UNTRUSTED_NOT_MODELLED,
	  "drivers/iommu/intel-iommu.c bounce page: Intel only, before 5.11" },
	{ ERA_UNTRUSTED_BOUNCE, KV(5, 11, 0), KV(5, 13, 0), ANY_ARCH, UNTRUSTED_NO_POOL_FULL,
	  "drivers/iommu/dma-iommu.c iommu_dma_map_page, dev_use_swiotlb (82612d66d51d, 5.11): no slot without a pool" },
	{ ERA_UNTRUSTED_BOUNCE, KV(5, 13, 0), KV(5, 15, 0), ANY_ARCH, UNTRUSTED_NO_POOL_PANIC,
	  "kernel/dma/swiotlb.c swiotlb_tbl_map_single: panic when io_tlb_default_mem is NULL (2d29960af0be, 5.13)" },
	{ ERA_UNTRUSTED_BOUNCE, KV(5, 15, 61), KV(5, 16, 0), ANY_ARCH, UNTRUSTED_NO_POOL_PANIC,
	  "kernel/dma/swiotlb.c swiotlb_tbl_map_single: panic when !mem->nslabs (c51ba246cb17 in stable 5.15.61)" },
	{ ERA_UNTRUSTED_BOUNCE, KV(5, 18, 18), KV(5, 19, 0), ANY_ARCH, UNTRUSTED_NO_POOL_PANIC,
	  "kernel/dma/swiotlb.c swiotlb_tbl_map_single: panic when !mem->nslabs (c51ba246cb17 in stable 5.18.18)" },
	{ ERA_UNTRUSTED_BOUNCE, KV(5, 15, 0), KV(5, 19, 0), ANY_ARCH, UNTRUSTED_NO_POOL_FULL,
	  "kernel/dma/swiotlb.c: static io_tlb_default_mem (463e862ac63e, 5.15): no slot without a pool" },
	{ ERA_UNTRUSTED_BOUNCE, KV(5, 19, 0), 0, ANY_ARCH, UNTRUSTED_NO_POOL_CHECKED,
	  "drivers/iommu/dma-iommu.c: is_swiotlb_active() first (f316ba0a8814, 5.19)" },

	/* Intel VT-d in passthrough: iommu_no_mapping() (4.x; iommu_need_mapping()
	 * 5.2-5.7) takes a device whose smaller mask is below
	 * dma_get_required_mask() out of the identity map ("32bit %s uses
	 * non-identity mapping"), through a private domain from 5.3 that sysfs
	 * still shows as identity; 327d5b2fee91 "iommu/vt-d: Allow 32bit devices
	 * to uses DMA domain" (5.8) leaves it in dma-direct. AMD never did. */
	{ ERA_INTEL_IDENTITY_FALLBACK, 0, KV(5, 8, 0), ANY_ARCH, 1,
	  "drivers/iommu/intel-iommu.c iommu_no_mapping/iommu_need_mapping: small masks leave identity, before 5.8" },
	{ ERA_INTEL_IDENTITY_FALLBACK, KV(5, 8, 0), 0, ANY_ARCH, 0,
	  "drivers/iommu/intel/iommu.c: identity devices use dma-direct (327d5b2fee91, 5.8)" },

	/* x86 IOMMU drivers clearing swiotlb so pci_iommu_init() frees the pool:
	 * intel_iommu_init() "swiotlb = 0" until the bounce-page series (5.4) kept
	 * it for untrusted devices; amd_iommu_init_dma_ops() unless passthrough
	 * until 121660bba631 "iommu/amd: Enable swiotlb in all cases" (5.19; stable
	 * 5.15.46, 5.17.14 and 5.18.3: the 5.15.46 announcement lists it, and the
	 * linux-5.17.y and linux-rolling-stable pushes of 2022-06-09/12 carry it before
	 * "Linux 5.17.14" and "Linux 5.18.3"). The stable rows stand first. */
	{ ERA_IOMMU_DROPS_POOL, KV(5, 15, 46), KV(5, 16, 0), ANY_ARCH, IOMMU_POOL_KEPT,
	  "drivers/iommu/amd/iommu.c: the pool kept with an IOMMU (121660bba631 in stable 5.15.46)" },
	{ ERA_IOMMU_DROPS_POOL, KV(5, 17, 14), KV(5, 18, 0), ANY_ARCH, IOMMU_POOL_KEPT,
	  "drivers/iommu/amd/iommu.c: the pool kept with an IOMMU (121660bba631 in stable 5.17.14)" },
	{ ERA_IOMMU_DROPS_POOL, 0, KV(5, 4, 0), ANY_ARCH, IOMMU_POOL_DROPPED_BOTH,
	  "drivers/iommu/intel-iommu.c intel_iommu_init, amd_iommu_init.c amd_iommu_init_dma_ops: swiotlb = 0, before 5.4" },
	/* 5.4-5.7: "if (!has_untrusted_dev() || intel_no_bounce) swiotlb = 0"; the
	 * end (5.8, with the 32-bit fallback's removal) is not pinned to a commit */
	{ ERA_IOMMU_DROPS_POOL, KV(5, 4, 0), KV(5, 8, 0), ANY_ARCH, IOMMU_POOL_DROPPED_AMD_INTEL_UNTRUSTED,
	  "drivers/iommu/intel-iommu.c intel_iommu_init: swiotlb = 0 without untrusted devices, 5.4-5.7" },
	{ ERA_IOMMU_DROPS_POOL, KV(5, 8, 0), KV(5, 18, 3), ANY_ARCH, IOMMU_POOL_DROPPED_AMD,
	  "drivers/iommu/amd/iommu.c amd_iommu_init_dma_ops: swiotlb = 0 unless passthrough, before 5.19" },
	/* 5.18.3 to 5.18.19 have it as 5.19 does: one row from 5.18.3 */
	{ ERA_IOMMU_DROPS_POOL, KV(5, 18, 3), 0, ANY_ARCH, IOMMU_POOL_KEPT,
	  "arch/x86/kernel/pci-dma.c: the pool kept with an IOMMU (121660bba631, 5.19; stable 5.18.3)" },

	/* amd_iommu_init_dma_ops(): "swiotlb = (iommu_pass_through || sme_me_mask)"
	 * (x86's iommu=pt flag) until "iommu/amd: Request passthrough mode from
	 * IOMMU core" (5.4) made it iommu_default_passthrough(): an identity default
	 * domain from CONFIG_IOMMU_DEFAULT_PASSTHROUGH or iommu.passthrough=1 too. */
	{ ERA_AMD_PASSTHROUGH, 0, KV(5, 4, 0), ANY_ARCH, 0,
	  "drivers/iommu/amd_iommu.c amd_iommu_init_dma_ops: iommu_pass_through (iommu=pt), before 5.4" },
	{ ERA_AMD_PASSTHROUGH, KV(5, 4, 0), 0, ANY_ARCH, 1,
	  "drivers/iommu/amd_iommu.c amd_iommu_init_dma_ops: iommu_default_passthrough() (5.4)" },

	/* The default pool outside 32-bit ARM and x86. arm64 mem_init():
	 * swiotlb_init(1) always until b67a8b29df7e "arm64: mm: only initialize
	 * swiotlb when necessary" (June 2016: absent from 4.4.y, present in 4.9;
	 * 4.8 taken), then only for max_pfn beyond arm64_dma_phys_limit. riscv:
	 * setup_arch() swiotlb_init(1) always until ce3aca0465e3 "riscv: Only
	 * initialize swiotlb when necessary" (5.14: max_pfn > dma32_phys_limit, an
	 * absolute 4 GiB); fc7a50eed986 (6.10) adds a RAM/1024 pool for kmalloc
	 * bouncing when dma_cache_alignment != 1 (non-coherent DMA: Zicbom, or
	 * T-Head's CMO errata). x86-64: pci_swiotlb_detect_4gb() / pci_swiotlb_detect()
	 * above MAX_DMA32_PFN in every era. */
	{ ERA_ARCH_POOL, 0, KV(4, 8, 0), ARCH_ARM64, ARCH_POOL_ALWAYS,
	  "arch/arm64/mm/init.c mem_init: swiotlb_init(1), before b67a8b29df7e (4.8)" },
	{ ERA_ARCH_POOL, KV(4, 8, 0), 0, ARCH_ARM64, ARCH_POOL_ABOVE_DMA_LIMIT,
	  "arch/arm64/mm/init.c mem_init: max_pfn > arm64_dma_phys_limit (b67a8b29df7e, 4.8)" },
	{ ERA_ARCH_POOL, 0, KV(5, 14, 0), ARCH_RISCV, ARCH_POOL_ALWAYS,
	  "arch/riscv/kernel/setup.c setup_arch: swiotlb_init(1), before 5.14" },
	{ ERA_ARCH_POOL, KV(5, 14, 0), KV(6, 10, 0), ARCH_RISCV, ARCH_POOL_ABOVE_DMA_LIMIT,
	  "arch/riscv/mm/init.c mem_init: max_pfn > PFN_DOWN(dma32_phys_limit) (ce3aca0465e3, 5.14)" },
	{ ERA_ARCH_POOL, KV(6, 10, 0), 0, ARCH_RISCV, ARCH_POOL_ABOVE_OR_NONCOHERENT,
	  "arch/riscv/mm/init.c mem_init: or DMA_BOUNCE_UNALIGNED_KMALLOC with dma_cache_alignment != 1 (fc7a50eed986, 6.10)" },
	{ ERA_ARCH_POOL, 0, 0, ARCH_X86, ARCH_POOL_ABOVE_DMA_LIMIT,
	  "arch/x86/kernel/pci-swiotlb.c pci_swiotlb_detect_4gb (pci-dma.c pci_swiotlb_detect, 5.19): max_pfn > MAX_DMA32_PFN" },
	{ ERA_ARCH_POOL, 0, 0, ANY_ARCH, ARCH_POOL_UNKNOWN,
	  "no default pool modelled for this architecture" },

	/* arm64 ACPI: iort_dma_setup() (drivers/acpi/arm64/iort.c; acpi_arch_dma_setup
	 * in drivers/acpi/arm64/dma.c from db59e1b6e492, 5.14) limits a device to
	 * 1 << memory_address_limit: a named component's from 4.14 (nc_dma_get_range
	 * absent in 4.13.4, present in 4.14.5; the commit cited here before,
	 * 10d8ab2c15b9, is not found: not pinned), a root complex's from 5ac65e8c8941
	 * (4.19: absent in 4.18.0), both as bus_dma_mask (d74ea7100b0d, 4.19) and
	 * later bus_dma_limit. An ACPI _DMA method (acpi_dma_get_range, 4.14 for PCI,
	 * 7fb89e1d44cb 5.8 for named components) comes first; sysfs does not show it.
	 * Until a1df829ead58 "ACPI/IORT: Do not blindly trust DMA masks from
	 * firmware" (5.11, stable 5.10.13) iort_dma_setup() also set *dma_mask and
	 * coherent_dma_mask to the IORT mask instead of the smaller of the two, and
	 * a limit of 0 (size 1, end 0) zeroed them while leaving the bus limit 0,
	 * which min_not_zero() reads as none: dma-map.c's "0 applies no limit" holds
	 * for the bus limit in every era. A driver's dma_set_mask() in probe
	 * replaces the masks after either, and sysfs shows PCI masks as they are;
	 * only a named component whose driver sets none keeps the IORT mask. */
	{ ERA_IORT_LIMIT, 0, KV(4, 14, 0), ARCH_ARM64, IORT_LIMIT_NONE,
	  "drivers/acpi/arm64/iort.c iort_dma_setup: no IORT limits, before 4.14" },
	{ ERA_IORT_LIMIT, KV(4, 14, 0), KV(4, 19, 0), ARCH_ARM64, IORT_LIMIT_NAMED,
	  "drivers/acpi/arm64/iort.c nc_dma_get_range (4.14: absent in 4.13.4, present in 4.14.5)" },
	{ ERA_IORT_LIMIT, KV(4, 19, 0), 0, ARCH_ARM64, IORT_LIMIT_BOTH,
	  "drivers/acpi/arm64/iort.c rc_dma_get_range (5ac65e8c8941, 4.19)" },
	{ ERA_IORT_LIMIT, 0, 0, ANY_ARCH, IORT_LIMIT_NONE,
	  "IORT is arm64's: other architectures read no such table" },

	/* What iort_dma_setup() did to the masks a driver has not set (a driver's own
	 * dma_set_mask() in probe replaces them in every era; sysfs shows PCI masks):
	 * "dev->coherent_dma_mask = mask; *dev->dma_mask = mask;" with mask =
	 * DMA_BIT_MASK(ilog2(end) + 1), wider than the 32-bit default too, until
	 * a1df829ead58 "ACPI/IORT: Do not blindly trust DMA masks from firmware" (5.11,
	 * stable 5.10.13; Greg KH: 5.10 the only active tree) took min() of the two
	 * and refused a limit of 0, which before zeroed both masks. 5.10.13 is the
	 * first release with it: every later one, 5.11 on, has it too. */
	{ ERA_IORT_MASK, 0, KV(5, 10, 13), ARCH_ARM64, IORT_MASK_REPLACES,
	  "drivers/acpi/arm64/iort.c iort_dma_setup: coherent_dma_mask = *dma_mask = mask, before 5.10.13 and 5.11" },
	{ ERA_IORT_MASK, KV(5, 10, 13), 0, ARCH_ARM64, IORT_MASK_CLAMPS,
	  "drivers/acpi/arm64/iort.c iort_dma_setup: min(*dev->dma_mask, mask) (a1df829ead58, 5.11; stable 5.10.13)" },
	{ ERA_IORT_MASK, 0, 0, ANY_ARCH, IORT_MASK_CLAMPS,
	  "IORT is arm64's: other architectures read no such table" },

	/* 32-bit x86: pci_swiotlb_detect_4gb() tested max_pfn inside #ifdef
	 * CONFIG_X86_64 (4.14, 4.17, 4.18): nommu_dma_ops, no pool. 485734f3fc77
	 * "x86: enable swiotlb for > 4GiG ram on 32-bit kernels" (4.19) dropped the
	 * #ifdef, but MAX_DMA32_PFN ((4UL*1024*1024*1024) >> PAGE_SHIFT) is 0 on
	 * 32-bit, so every PAE kernel made a pool until 88743470668e "x86/dma: Fix
	 * max PFN arithmetic overflow on 32 bit systems" (x86-urgent-2020-05-31,
	 * merged as 8fc984aedced at 18:05 UTC on 2020-05-31, before the v5.7 tag at
	 * 16:49 -0700 that day: 5.7), backported to 4.19.126, 5.4.44 and 5.6.16
	 * (their release announcements list it). The 4.20-5.3 and 5.5 series had
	 * ended by then. The stable rows stand first: the first matching row wins. */
	{ ERA_X86_32_POOL, KV(4, 19, 126), KV(4, 20, 0), ARCH_X86, X86_32_POOL_ABOVE_4G,
	  "arch/x86/include/asm/dma.h MAX_DMA32_PFN in 64-bit arithmetic (88743470668e in stable 4.19.126)" },
	{ ERA_X86_32_POOL, KV(5, 4, 44), KV(5, 5, 0), ARCH_X86, X86_32_POOL_ABOVE_4G,
	  "arch/x86/include/asm/dma.h MAX_DMA32_PFN in 64-bit arithmetic (88743470668e in stable 5.4.44)" },
	{ ERA_X86_32_POOL, 0, KV(4, 19, 0), ARCH_X86, X86_32_POOL_NONE,
	  "arch/x86/kernel/pci-swiotlb.c pci_swiotlb_detect_4gb: #ifdef CONFIG_X86_64, before 4.19" },
	/* 5.6.16 to 5.6.19 have it as 5.7 does: one row from 5.6.16 */
	{ ERA_X86_32_POOL, KV(4, 19, 0), KV(5, 6, 16), ARCH_X86, X86_32_POOL_ALWAYS,
	  "arch/x86/kernel/pci-swiotlb.c: MAX_DMA32_PFN is 0 on 32-bit (485734f3fc77, 4.19)" },
	{ ERA_X86_32_POOL, KV(5, 6, 16), 0, ARCH_X86, X86_32_POOL_ABOVE_4G,
	  "arch/x86/include/asm/dma.h MAX_DMA32_PFN in 64-bit arithmetic (88743470668e, 5.7; stable 5.6.16)" },

	/* 32-bit ARM's pool: arch/arm/mm/init.c mem_init() calls swiotlb_init() only
	 * under CONFIG_ARM_LPAE, from ad3c7b18c5b3 (5.3) unconditionally; fcf044891c84
	 * "ARM: Qualify enabling of swiotlb_init()" (5.13, stable 5.4.149 and 5.10.69)
	 * only when max_pfn > arm_dma_pfn_limit or swiotlb=force; 5.19's
	 * swiotlb_init(max_pfn > arm_dma_pfn_limit, SWIOTLB_VERBOSE) keeps that. The
	 * stable rows stand first: the first matching row wins. Debian's "5.10.0-N"
	 * ABI names parse as 5.10.0 whatever their stable release. */
	{ ERA_ARM_LPAE_POOL, 0, KV(5, 3, 0), ARCH_ARM, ARM_POOL_NONE,
	  "arch/arm/mm/init.c: no swiotlb on 32-bit ARM before 5.3 (ad3c7b18c5b3)" },
	{ ERA_ARM_LPAE_POOL, KV(5, 4, 149), KV(5, 5, 0), ARCH_ARM, ARM_POOL_ABOVE_DMA_LIMIT,
	  "arch/arm/mm/init.c mem_init: max_pfn > arm_dma_pfn_limit (fcf044891c84 in stable 5.4.149)" },
	{ ERA_ARM_LPAE_POOL, KV(5, 10, 69), KV(5, 11, 0), ARCH_ARM, ARM_POOL_ABOVE_DMA_LIMIT,
	  "arch/arm/mm/init.c mem_init: max_pfn > arm_dma_pfn_limit (fcf044891c84 in stable 5.10.69)" },
	{ ERA_ARM_LPAE_POOL, KV(5, 3, 0), KV(5, 13, 0), ARCH_ARM, ARM_POOL_ALWAYS,
	  "arch/arm/mm/init.c mem_init: swiotlb_init(1) for ARM_LPAE (ad3c7b18c5b3, 5.3)" },
	{ ERA_ARM_LPAE_POOL, KV(5, 13, 0), 0, ARCH_ARM, ARM_POOL_ABOVE_DMA_LIMIT,
	  "arch/arm/mm/init.c mem_init: only when max_pfn > arm_dma_pfn_limit (fcf044891c84, 5.13)" },

	/* Where the default pool lies: memblock's "low" allocation, below
	 * ARCH_LOW_ADDRESS_LIMIT (include/linux/memblock.h default 0xffffffffUL, which
	 * x86 and 32-bit ARM keep; arm64 arm64_dma_phys_limit - 1, the end of ZONE_DMA,
	 * else ZONE_DMA32): lib/swiotlb.c swiotlb_init memblock_virt_alloc_low_nopanic
	 * (3.14, alloc_bootmem_low_pages before), kernel/dma/swiotlb.c memblock_alloc_low
	 * (4.18). 8ba2ed1be90f "swiotlb: add a SWIOTLB_ANY flag to lift the low memory
	 * restriction" (5.19; swiotlb_memblock_alloc() from 8d58aa484920, 6.2) lets a
	 * caller place it anywhere: x86 pci_xen_swiotlb_init() and powerpc secure
	 * guests; SEV, TDX and CCA guests pass SWIOTLB_FORCE, not SWIOTLB_ANY. */
	{ ERA_POOL_PLACEMENT, 0, KV(5, 19, 0), ANY_ARCH, POOL_PLACE_LOW,
	  "lib/swiotlb.c, kernel/dma/swiotlb.c swiotlb_init: memblock_alloc_low, below ARCH_LOW_ADDRESS_LIMIT" },
	{ ERA_POOL_PLACEMENT, KV(5, 19, 0), 0, ANY_ARCH, POOL_PLACE_LOW_UNLESS_ANY,
	  "kernel/dma/swiotlb.c swiotlb_init_remap (swiotlb_memblock_alloc, 6.2): low unless SWIOTLB_ANY (8ba2ed1be90f, 5.19)" },

	/* drivers/usb/storage/usb.c usb_stor_probe1(): a host controller without DMA
	 * (!hcd_uses_dma) or with a localmem_pool got host->no_highmem, a
	 * BLK_BOUNCE_HIGH queue (which 5.13-6.15 never bounces with highmem: see
	 * ERA_BLOCK_BOUNCE); 48610ec22f0c "usb-storage: reject probe of device one
	 * non-DMA HCDs when using highmem" (6.16) fails the probe instead when
	 * IS_ENABLED(CONFIG_HIGHMEM), whatever the RAM, with a dev_warn. */
	{ ERA_USB_STORAGE_NO_DMA_HCD, 0, KV(6, 16, 0), ANY_ARCH, USB_STORAGE_BOUNCE_HIGH,
	  "drivers/usb/storage/usb.c usb_stor_probe1: host->no_highmem, before 6.16" },
	{ ERA_USB_STORAGE_NO_DMA_HCD, KV(6, 16, 0), 0, ANY_ARCH, USB_STORAGE_REFUSED,
	  "drivers/usb/storage/usb.c usb_stor_probe1: -EINVAL with CONFIG_HIGHMEM (48610ec22f0c, 6.16)" },

	/* arch/arm64/mm/init.c zone_sizes_init(), max_zone_phys(): where the zone RAM added
	 * below 4 GiB falls in (--what-if ram=); the zones of a running kernel are read */
	{ ERA_ARM64_ZONE_DMA, 0, KV(5, 5, 0), ARCH_ARM64, ARM64_ZONE_DMA_32BIT,
	  "arch/arm64/mm/init.c: ZONE_DMA is max_zone_dma_phys(), the 32-bit zone, before 5.5" },
	{ ERA_ARM64_ZONE_DMA, KV(5, 5, 0), KV(5, 11, 0), ARCH_ARM64, ARM64_ZONE_DMA_30BIT,
	  "arch/arm64/mm/init.c: ARM64_ZONE_DMA_BITS 30 (1a8e1cef7603 \"arm64: use both ZONE_DMA and ZONE_DMA32\", 5.5)" },
	{ ERA_ARM64_ZONE_DMA, KV(5, 11, 0), 0, ARCH_ARM64, ARM64_ZONE_DMA_FIRMWARE,
	  "arch/arm64/mm/init.c zone_sizes_init: zone_dma_bits from of_dma_get_max_cpu_address and the IORT (8424ecdde7df, 5.11)" },
};

bool kernel_version_parse(const char *release, uint32_t *ret)
{
	unsigned v[3] = { 0, 0, 0 };
	const char *p = release;

	if (!p)
		return false;
	for (int i = 0; i < 3; i++) {
		if (*p < '0' || *p > '9') {
			if (i < 2)
				return false; /* need at least "MAJOR.MINOR" */
			break;
		}
		unsigned n = 0;
		while (*p >= '0' && *p <= '9' && n < 100000)
			n = n * 10 + (unsigned)(*p++ - '0');
		v[i] = n;
		if (*p != '.') {
			if (i == 0)
				return false; /* need at least "MAJOR.MINOR" */
			break;
		}
		p++;
	}
	if (v[0] == 0 || v[0] > 255 || v[1] > 255)
		return false;
	*ret = KV(v[0], v[1], v[2]);
	return true;
}

int era_value(enum era_rule rule, uint32_t release, enum arch_family arch,
	      const char **ret_source)
{
	const struct era_row *hit = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(table); i++) {
		const struct era_row *r = &table[i];
		if (r->rule != rule)
			continue;
		if (r->arch != ANY_ARCH && r->arch != arch)
			continue;
		/* unknown release: the current rule, the first row still true (the
		 * architecture's own before the generic row, as for a known release) */
		if (release == 0 ? r->until == 0
				 : release >= r->since && (r->until == 0 || release < r->until)) {
			hit = r;
			break;
		}
	}
	if (ret_source)
		*ret_source = hit ? hit->source : NULL;
	if (debug_enabled(DEBUG_ERAS)) {
		const char *a = arch == ANY_ARCH ? "any arch" : arch_family_to_string(arch);
		if (release == 0)
			debug_log(DEBUG_ERAS, "%s at an unknown release (the current row), %s: %s (%s)",
				  era_rule_name(rule), a ? a : "unknown arch",
				  hit ? era_value_name(rule, hit->value) : "no row", hit ? hit->source : "-");
		else
			debug_log(DEBUG_ERAS, "%s at %u.%u.%u, %s: %s (%s)", era_rule_name(rule), release >> 16,
				  (release >> 8) & 0xff, release & 0xff, a ? a : "unknown arch",
				  hit ? era_value_name(rule, hit->value) : "no row", hit ? hit->source : "-");
	}
	return hit ? hit->value : -1;
}

const struct era_row *era_table(unsigned *ret_n)
{
	*ret_n = ARRAY_SIZE(table);
	return table;
}

/* The names the kernel-suite's era table (tests/kernels/README) prints:
 * each rule's from ERA_RULES, its values' from the table ERA_RULES names. */
#define ERA_RULE_NAME(rule, value_names) [rule] = #rule,
static const char *const rule_names[_ERA_RULE_MAX] = { ERA_RULES(ERA_RULE_NAME) };
#undef ERA_RULE_NAME

#define N(x) [x] = #x
static const char *const max_low_pfn_names[] = { N(MAX_LOW_PFN_PFN), N(MAX_LOW_PFN_COUNT) };
static const char *const block_bounce_names[] = {
	N(BLOCK_BOUNCE_PFN), N(BLOCK_BOUNCE_NEVER_HIGHMEM), N(BLOCK_BOUNCE_NONE) };
static const char *const block_limit_names[] = {
	N(BLOCK_LIMIT_MASK), N(BLOCK_LIMIT_PHYS_OFFSET_PFN), N(BLOCK_LIMIT_DMA_MAX_PFN),
	N(BLOCK_LIMIT_ANY_WITH_MASK), N(BLOCK_LIMIT_NONE) };
static const char *const range_map_names[] = {
	N(RANGE_MAP_NONE), N(RANGE_MAP_PFN_OFFSET), N(RANGE_MAP_REGIONS) };
static const char *const bus_limit_names[] = { N(BUS_LIMIT_NONE), N(BUS_LIMIT_MASK), N(BUS_LIMIT_EXACT) };
static const char *const dt_walk_names[] = {
	N(DT_WALK_DEVICE_NODE), N(DT_WALK_PARENT_BUS), N(DT_WALK_ABOVE_NODE) };
static const char *const iort_mask_names[] = { N(IORT_MASK_CLAMPS), N(IORT_MASK_REPLACES) };
static const char *const swiotlb_param_names[] = {
	N(SWIOTLB_PARAM_LAST_WORD), N(SWIOTLB_PARAM_NOFORCE_WINS), N(SWIOTLB_PARAM_AREAS) };
static const char *const pool_areas_names[] = { N(POOL_AREAS_NONE), N(POOL_AREAS_PER_CPU) };
static const char *const noforce_names[] = { N(NOFORCE_NO_POOL), N(NOFORCE_ONE_SLAB), N(NOFORCE_IGNORED) };
static const char *const platform_mask_names[] = { N(PLATFORM_MASK_NONE), N(PLATFORM_MASK_32) };
static const char *const pool_log_names[] = { N(POOL_LOG_UNPARSED), N(POOL_LOG_ALWAYS) };
static const char *const scsi_limit_names[] = { N(SCSI_LIMIT_AS_BLOCK), N(SCSI_LIMIT_NONE) };
static const char *const streaming_names[] = {
	N(STREAMING_DMA_DIRECT), N(STREAMING_ARM_NO_CHECK), N(STREAMING_ARM_LPAE_DIRECT) };
static const char *const kmalloc_pool_names[] = {
	N(KMALLOC_POOL_NONE), N(KMALLOC_POOL_DEFAULT), N(KMALLOC_POOL_SMALL) };
static const char *const s390_pci_names[] = { N(S390_PCI_OWN_OPS), N(S390_PCI_DMA_IOMMU) };
static const char *const mapping_align_names[] = {
	N(MAPPING_ALIGN_NONE), N(MAPPING_ALIGN_UNCOUNTED), N(MAPPING_ALIGN_SUBTRACTED) };
static const char *const untrusted_names[] = {
	N(UNTRUSTED_NOT_MODELLED), N(UNTRUSTED_NO_POOL_FULL), N(UNTRUSTED_NO_POOL_PANIC),
	N(UNTRUSTED_NO_POOL_CHECKED) };
static const char *const arch_pool_names[] = {
	N(ARCH_POOL_UNKNOWN), N(ARCH_POOL_ALWAYS), N(ARCH_POOL_ABOVE_DMA_LIMIT),
	N(ARCH_POOL_ABOVE_OR_NONCOHERENT) };
static const char *const iort_limit_names[] = {
	N(IORT_LIMIT_NONE), N(IORT_LIMIT_NAMED), N(IORT_LIMIT_BOTH) };
static const char *const x86_32_pool_names[] = {
	N(X86_32_POOL_NONE), N(X86_32_POOL_ALWAYS), N(X86_32_POOL_ABOVE_4G) };
static const char *const iommu_pool_names[] = {
	N(IOMMU_POOL_DROPPED_BOTH), N(IOMMU_POOL_DROPPED_AMD_INTEL_UNTRUSTED),
	N(IOMMU_POOL_DROPPED_AMD), N(IOMMU_POOL_KEPT) };
static const char *const arm_pool_names[] = {
	N(ARM_POOL_NONE), N(ARM_POOL_ALWAYS), N(ARM_POOL_ABOVE_DMA_LIMIT) };
static const char *const pool_place_names[] = { N(POOL_PLACE_LOW), N(POOL_PLACE_LOW_UNLESS_ANY) };
static const char *const poolless_names[] = { N(POOLLESS_TRIES_SWIOTLB), N(POOLLESS_OVERFLOW) };
static const char *const usb_storage_names[] = { N(USB_STORAGE_BOUNCE_HIGH), N(USB_STORAGE_REFUSED) };
static const char *const arm64_zone_dma_names[] = {
	N(ARM64_ZONE_DMA_32BIT), N(ARM64_ZONE_DMA_30BIT), N(ARM64_ZONE_DMA_FIRMWARE) };
static const char *const yes_no_names[] = { "0", "1" };
#undef N

/* Every rule has two values at least (a yes-or-no rule "0" and "1"): a shorter
 * table is a rule whose names were not written. */
#define ERA_RULE_CHECK(rule, names) \
	_Static_assert(ARRAY_SIZE(names) >= 2, #rule ": its values' names, " #names ", too few");
ERA_RULES(ERA_RULE_CHECK)
#undef ERA_RULE_CHECK

#define ERA_RULE_VALUES(rule, names) [rule] = { names, ARRAY_SIZE(names) },
static const struct {
	const char *const *names;
	size_t n;
} value_names[_ERA_RULE_MAX] = { ERA_RULES(ERA_RULE_VALUES) };
#undef ERA_RULE_VALUES

const char *era_rule_name(enum era_rule rule)
{
	return (unsigned)rule < _ERA_RULE_MAX ? rule_names[rule] : NULL;
}

const char *era_value_name(enum era_rule rule, int value)
{
	if ((unsigned)rule >= _ERA_RULE_MAX || value < 0 || (size_t)value >= value_names[rule].n)
		return NULL;
	return value_names[rule].names[value];
}
