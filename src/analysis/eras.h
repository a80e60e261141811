/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kernel-era semantics: every rule whose answer depends on the kernel
 * release (and sometimes the architecture) lives in one table in eras.c,
 * each row citing the kernel file and version it comes from. Nothing else
 * in the tool compares kernel versions.
 */
#pragma once

#include "shared/macro.h"

#include <stdbool.h>
#include <stdint.h>

#include "shared/arch.h"

/* An era row for every architecture. */
#define ANY_ARCH _ARCH_FAMILY_INVALID

/* KERNEL_VERSION(a, b, c) as include/generated/uapi/linux/version.h packs it. */
#define KV(a, b, c) (((uint32_t)(a) << 16) | ((uint32_t)(b) << 8) | (uint32_t)((c) > 255 ? 255 : (c)))

/* "6.18.44-fc-v1147" -> KV(6, 18, 44). 0 and false when it does not parse. */
bool kernel_version_parse(const char *release, uint32_t *ret);

/*
 * Every rule, once: its constant and the table of its values' names (eras.c,
 * for the kernel suite's era table). The enum, era_rule_name() and
 * era_value_name() are generated from it, as the kernel's trace headers
 * expand one EM() list into enums and names (include/trace/events/migrate.h
 * MIGRATE_REASON). A rule also needs its values' enum below, their names in
 * eras.c (a yes-or-no rule shares yes_no_names) and its rows.
 */
#define ERA_RULES(X) \
	X(ERA_MAX_LOW_PFN, max_low_pfn_names)            /* what max_low_pfn/max_pfn hold */ \
	X(ERA_BLOCK_BOUNCE, block_bounce_names)          /* how the block layer bounces */ \
	X(ERA_BLOCK_LIMIT, block_limit_names)            /* what MMC/SCSI pass to blk_queue_bounce_limit */ \
	X(ERA_RANGE_MAP, range_map_names)                /* how dma-direct translates */ \
	X(ERA_BUS_LIMIT, bus_limit_names)                /* how the firmware bus limit is kept */ \
	X(ERA_DT_WALK_START, dt_walk_names)              /* where of_dma_get_range starts */ \
	X(ERA_SWIOTLB_NOFORCE, noforce_names)            /* what swiotlb=noforce leaves */ \
	X(ERA_PLATFORM_MASK, platform_mask_names)        /* default mask of a DT platform device */ \
	X(ERA_POOL_LOGGED, pool_log_names)               /* whether the boot log names every pool */ \
	X(ERA_SCSI_BLOCK_LIMIT, scsi_limit_names)        /* what a SCSI/ATA queue's bounce limit follows */ \
	X(ERA_STREAMING_MAP, streaming_names)            /* what checks a streaming mapping's reach */ \
	X(ERA_KMALLOC_POOL, kmalloc_pool_names)          /* arm64's pool for unaligned kmalloc bouncing */ \
	X(ERA_HYPERV_FORCE, yes_no_names)                /* whether a Hyper-V isolated VM forces bouncing */ \
	X(ERA_S390_PCI_DMA, s390_pci_names)              /* how s390 PCI functions map DMA */ \
	X(ERA_MAPPING_ALIGN, mapping_align_names)        /* what a device's min_align_mask takes from one swiotlb mapping */ \
	X(ERA_RESTRICTED_POOL, yes_no_names)             /* whether a DT restricted-dma-pool is honoured */ \
	X(ERA_UNTRUSTED_BOUNCE, untrusted_names)         /* how an untrusted device's unaligned buffers are mapped */ \
	X(ERA_INTEL_IDENTITY_FALLBACK, yes_no_names)     /* Intel passthrough moves a device with a small mask to a DMA domain */ \
	X(ERA_IOMMU_DROPS_POOL, iommu_pool_names)        /* whether an x86 IOMMU driver frees the swiotlb pool */ \
	X(ERA_ARM_LPAE_POOL, arm_pool_names)             /* when a 32-bit ARM LPAE kernel allocates the pool */ \
	X(ERA_POOL_PLACEMENT, pool_place_names)          /* where the default pool may lie */ \
	X(ERA_POOLLESS_MAP, poolless_names)              /* what mapping out of reach with no pool does */ \
	X(ERA_ARCH_POOL, arch_pool_names)                /* when arm64, riscv and x86-64 allocate the default pool */ \
	X(ERA_X86_32_POOL, x86_32_pool_names)            /* when 32-bit x86 allocates it */ \
	X(ERA_AMD_PASSTHROUGH, yes_no_names)             /* AMD keeps the pool for an identity default domain, not only iommu=pt */ \
	X(ERA_IORT_LIMIT, iort_limit_names)              /* which ACPI IORT memory address limits arm64 applies */ \
	X(ERA_KMALLOC_BOUNCE, yes_no_names)              /* small unaligned kmalloc buffers of non-coherent devices bounce */ \
	X(ERA_REMOVABLE_ATTR, yes_no_names)              /* PCI sysfs shows "removable", so its absence means fixed */ \
	X(ERA_SWIOTLB_PARAM, swiotlb_param_names)        /* how swiotlb='s force and noforce words add up */ \
	X(ERA_IORT_MASK, iort_mask_names)                /* what an IORT limit does to a device's masks */ \
	X(ERA_POOL_AREAS, pool_areas_names)              /* how the pool's size follows the possible CPUs */ \
	X(ERA_USB_STORAGE_NO_DMA_HCD, usb_storage_names) /* usb-storage on a host controller without DMA, CONFIG_HIGHMEM */ \
	X(ERA_ARM64_ZONE_DMA, arm64_zone_dma_names)      /* where arm64's ZONE_DMA ends */

enum era_rule {
#define ERA_RULE_ENUM(rule, value_names) rule,
	ERA_RULES(ERA_RULE_ENUM)
#undef ERA_RULE_ENUM
	_ERA_RULE_MAX,
};

enum max_low_pfn_reading {
	MAX_LOW_PFN_PFN,         /* an absolute page frame number */
	MAX_LOW_PFN_COUNT,       /* a count of pages from the start of RAM */
};

enum block_bounce {
	BLOCK_BOUNCE_PFN,        /* bounce_pfn arithmetic (block/blk-settings.c, mm/bounce.c) */
	BLOCK_BOUNCE_NEVER_HIGHMEM, /* 5.13-6.15: blk_queue_may_bounce() is false with highmem */
	BLOCK_BOUNCE_NONE,       /* 6.16: removed */
};

enum block_limit {
	BLOCK_LIMIT_MASK,            /* *dma_mask itself */
	BLOCK_LIMIT_PHYS_OFFSET_PFN, /* ARM dma_max_pfn(): PHYS_PFN_OFFSET + dma_to_pfn(mask) */
	BLOCK_LIMIT_DMA_MAX_PFN,     /* dma_max_pfn(): (mask >> PAGE_SHIFT) + dma_pfn_offset */
	BLOCK_LIMIT_ANY_WITH_MASK,   /* a device with a mask sets no bounce limit */
	BLOCK_LIMIT_NONE,            /* the driver sets none at all: BLK_BOUNCE_ANY, mask or not */
};

enum range_map {
	RANGE_MAP_NONE,          /* no translation: bus address = CPU address */
	RANGE_MAP_PFN_OFFSET,    /* one dma_pfn_offset for the whole device */
	RANGE_MAP_REGIONS,       /* dma_range_map: an address no region covers is not capable */
};

enum {
	BUS_LIMIT_NONE,          /* not kept: only the (clamped) mask counts */
	BUS_LIMIT_MASK,          /* bus_dma_mask: rounded up to a power-of-two mask */
	BUS_LIMIT_EXACT,         /* bus_dma_limit: the inclusive end of the ranges */
};

enum {
	DT_WALK_DEVICE_NODE,     /* of_dma_get_range(dev->of_node) */
	DT_WALK_PARENT_BUS,      /* of_dma_get_range(dma parent of dev->of_node) */
	DT_WALK_ABOVE_NODE,      /* before 5.5: from np's DMA parent, a missing property ends it */
};

enum {
	IORT_MASK_CLAMPS,        /* min(mask, the IORT mask); a limit of 0 is refused (FW_BUG) */
	IORT_MASK_REPLACES,      /* the IORT mask replaces both; a limit of 0 zeroes them */
};

enum {
	SWIOTLB_PARAM_LAST_WORD,    /* one enum: the last force or noforce wins; no <areas> field */
	SWIOTLB_PARAM_NOFORCE_WINS, /* two booleans: noforce, if any, wins; no <areas> field */
	SWIOTLB_PARAM_AREAS,        /* the same, and a word after <slabs>,<areas> counts too */
};

enum {
	NOFORCE_NO_POOL,         /* swiotlb_force_disable: no pool at all */
	NOFORCE_ONE_SLAB,        /* SWIOTLB_NO_FORCE kept a minimal pool and never bounced */
	NOFORCE_IGNORED,         /* the option did not exist: bouncing as without it */
};

enum {
	POOLLESS_TRIES_SWIOTLB,  /* swiotlb_map(): a swiotlb_bounced event, then "swiotlb buffer is full" */
	POOLLESS_OVERFLOW,       /* no swiotlb_map(): "DMA addr ... overflow", no event */
};

enum {
	SCSI_LIMIT_AS_BLOCK,     /* scsi_calculate_bounce_limit(): as ERA_BLOCK_LIMIT says */
	SCSI_LIMIT_NONE,         /* __scsi_init_queue() sets none: BLOCK_LIMIT_NONE */
};

enum {
	STREAMING_DMA_DIRECT,    /* dma_capable(), then swiotlb or a mapping error */
	STREAMING_ARM_NO_CHECK,  /* arm_dma_map_page(): no reach check, no swiotlb */
	STREAMING_ARM_LPAE_DIRECT, /* arm_dma_ops unless LPAE, whose dma-direct has swiotlb */
};

enum {
	POOL_AREAS_NONE,         /* one lock: the pool has the slots asked for */
	POOL_AREAS_PER_CPU,      /* one area per possible CPU (a power of two) of 128 slots at least,
				  * the slots rounded up to a power of two */
};

enum {
	KMALLOC_POOL_NONE,       /* a pool only for RAM beyond the DMA zone */
	KMALLOC_POOL_DEFAULT,    /* always one, of the default size */
	KMALLOC_POOL_SMALL,      /* always one: min(default, RAM / 1024) unless swiotlb= sizes it */
};

enum {
	S390_PCI_OWN_OPS,        /* s390_pci_dma_ops: zPCI's own translation */
	S390_PCI_DMA_IOMMU,      /* dma-iommu: the IOMMU group's domain decides */
};

enum {
	PLATFORM_MASK_NONE,      /* dma_mask NULL until a driver or board file sets one */
	PLATFORM_MASK_32,        /* DMA_BIT_MASK(32) */
};

enum {
	POOL_LOG_UNPARSED,       /* "Placing N MB software IO TLB between ...": not read */
	POOL_LOG_ALWAYS,         /* swiotlb_print_info() in a form kmsg.c reads, for every pool */
};

enum {
	MAPPING_ALIGN_NONE,      /* no min_align_mask: IO_TLB_SEGSIZE slots is exact */
	MAPPING_ALIGN_UNCOUNTED, /* kept, but swiotlb_max_mapping_size() ignores it: drivers cap too high */
	MAPPING_ALIGN_SUBTRACTED, /* swiotlb_max_mapping_size() subtracts roundup(min_align_mask, IO_TLB_SIZE) */
};

/* iommu_dma_map_page bounces an untrusted device's unaligned buffers (5.11);
 * the rest is what that does with no pool */
enum {
	UNTRUSTED_NOT_MODELLED,  /* before dma-iommu bounced: Intel's own bounce page, not modelled */
	UNTRUSTED_NO_POOL_FULL,  /* no pool: "swiotlb buffer is full", the mapping fails */
	UNTRUSTED_NO_POOL_PANIC, /* no pool: swiotlb_tbl_map_single() panics (io_tlb_default_mem NULL) */
	UNTRUSTED_NO_POOL_CHECKED, /* no pool: "DMA bounce buffers are inactive", the mapping fails */
};

enum {
	ARCH_POOL_UNKNOWN,       /* no default modelled for the architecture */
	ARCH_POOL_ALWAYS,        /* swiotlb_init(1) whatever the RAM */
	ARCH_POOL_ABOVE_DMA_LIMIT, /* only for RAM beyond the DMA zone (ZONE_DMA32: 4 GiB) */
	ARCH_POOL_ABOVE_OR_NONCOHERENT, /* that, or a small one for kmalloc bouncing when DMA is non-coherent */
};

enum {
	IORT_LIMIT_NONE,         /* iort_dma_setup() applies no limit */
	IORT_LIMIT_NAMED,        /* named components' only (nc_dma_get_range) */
	IORT_LIMIT_BOTH,         /* and root complexes' (rc_dma_get_range), from node revision 1 */
};

enum {
	X86_32_POOL_NONE,        /* pci_swiotlb_detect_4gb() under CONFIG_X86_64: nommu_dma_ops */
	X86_32_POOL_ALWAYS,      /* MAX_DMA32_PFN overflows to 0: a pool whatever the RAM */
	X86_32_POOL_ABOVE_4G,    /* only for RAM above 4 GiB */
};

enum {
	IOMMU_POOL_DROPPED_BOTH, /* Intel always, AMD unless passthrough */
	IOMMU_POOL_DROPPED_AMD_INTEL_UNTRUSTED, /* AMD unless passthrough; Intel unless untrusted devices */
	IOMMU_POOL_DROPPED_AMD,  /* AMD unless passthrough; Intel keeps it */
	IOMMU_POOL_KEPT,         /* neither frees it */
};

enum {
	ARM_POOL_NONE,           /* no swiotlb_init() on 32-bit ARM (Xen aside) */
	ARM_POOL_ALWAYS,         /* LPAE: swiotlb_init(1) whatever the RAM */
	ARM_POOL_ABOVE_DMA_LIMIT, /* LPAE: only when max_pfn > arm_dma_pfn_limit (or swiotlb=force) */
};

enum {
	POOL_PLACE_LOW,          /* memblock "low": below ARCH_LOW_ADDRESS_LIMIT */
	POOL_PLACE_LOW_UNLESS_ANY, /* low, unless the caller passes SWIOTLB_ANY (Xen, powerpc secure guests) */
};

/* usb_stor_probe1() for a host controller that does no DMA (!hcd_uses_dma) or
 * only from its own local memory (localmem_pool), on a CONFIG_HIGHMEM kernel. */
enum {
	USB_STORAGE_BOUNCE_HIGH, /* probed: host->no_highmem, a BLK_BOUNCE_HIGH queue */
	USB_STORAGE_REFUSED,     /* -EINVAL: "USB Mass Storage not supported on this host controller" */
};
enum {
	ARM64_ZONE_DMA_32BIT,    /* ZONE_DMA is the 32-bit zone (no ZONE_DMA32) */
	ARM64_ZONE_DMA_30BIT,    /* ZONE_DMA 30 bits, ZONE_DMA32 to 4 GiB */
	ARM64_ZONE_DMA_FIRMWARE, /* ZONE_DMA to the firmware's lowest DMA limit (dma-ranges, IORT), 32 bits at most */
};


struct era_row {
	enum era_rule rule;
	uint32_t since;          /* first release it holds for, inclusive */
	uint32_t until;          /* first release it no longer holds for; 0: still true */
	enum arch_family arch;   /* ANY_ARCH: every architecture */
	int value;
	const char *source;      /* kernel file, commit and version */
};

/*
 * The value of rule for a release and architecture family. release 0 means
 * unknown: the current row answers, the architecture's own before the
 * generic one; where that row is the optimistic reading the caller treats
 * the release as unknown instead ("kernel release unknown").
 * ret_source, when not NULL, receives the citing row's source. -1 when no
 * row holds: every rule but ERA_ARM_LPAE_POOL, ERA_X86_32_POOL and
 * ERA_POOLLESS_MAP holds for every release and architecture (test-analysis
 * test_era_total), so their callers keep the answer in its enum.
 */
_must_check_ int era_value(enum era_rule rule, uint32_t release, enum arch_family arch,
	      const char **ret_source);

/* For the man page and tests: the whole table. */
const struct era_row *era_table(unsigned *ret_n);

/* "ERA_BLOCK_BOUNCE"; NULL for a rule out of range. */
const char *era_rule_name(enum era_rule rule);

/* The value's constant, "BLOCK_BOUNCE_PFN" ("0"/"1" for a yes-or-no rule);
 * NULL for a value the rule does not have. */
const char *era_value_name(enum era_rule rule, int value);
