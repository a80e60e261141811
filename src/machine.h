/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * struct machine: everything the readers learnt about one system, each value
 * with where it came from. Filled by src/readers/, read by src/analysis/.
 *
 * Unknown has one encoding per kind of value:
 *  - a number that may be unknown is an opt_* (shared/opt.h): .known says
 *    whether it was learnt; no -1, 0, SIZE_MAX or -errno stands for unknown;
 *  - a string is NULL when unknown or absent (C's optional string);
 *  - an enum names its "none" state only where that is what the kernel
 *    reports (IOMMU_DOMAIN_NONE: no group or no type file; XEN_GUEST_UNKNOWN
 *    and HYPERVISOR_NONE: the file is absent; DT_PROP_ABSENT);
 *  - whether an input was read and usable is a bool field the reader sets
 *    (iomem_ok, zoneinfo_ok, iort_read): the analysis never looks a path up
 *    in inputs[], which is the report's list of what was tried.
 * A zeroed struct holds every value unknown. Three flags remain on
 * purpose: have_pci_ids (five IDs read all or none), zone.populated (the
 * kernel prints start_pfn only for a populated zone: a state, not a gap in
 * what was read) and observation.format_known (whether the trace event's
 * format parsed: what the trace lines can be read with, not a value).
 */
#pragma once

#include "shared/macro.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shared/arch.h"
#include "shared/opt.h"

/* Where a value came from; the report prints it beside the value. */
enum provenance {
	PROV_UNKNOWN,  /* could not be learnt; the report says why */
	PROV_READ,     /* read from a kernel interface (source names it) */
	PROV_DERIVED,  /* computed from other values */
	PROV_ASSUMED,  /* a documented default, not observed */
	PROV_USER,     /* given on the command line */
	_PROV_MAX,
	_PROV_INVALID = -EINVAL,
};

const char *provenance_to_string(enum provenance p);

enum input_status {
	INPUT_OK,
	INPUT_MISSING, /* ENOENT/ENOTDIR: the interface is absent */
	INPUT_DENIED,  /* EACCES/EPERM, or content hidden from this user */
	INPUT_INVALID, /* present but unusable: malformed, refused, too large */
	_INPUT_STATUS_MAX,
	_INPUT_STATUS_INVALID = -EINVAL,
};

const char *input_status_to_string(enum input_status s);
enum input_status input_status_from_errno(int err);

/* One thing the tool tried to read, as the report's "inputs" lists it. */
struct input {
	char *path;              /* root-relative, e.g. "proc/iomem" */
	enum input_status status;
	int err;                 /* positive errno, 0 when none */
	char *detail;            /* why, in a few words; NULL when ok */
};

/* A "System RAM" resource of proc/iomem; end inclusive, as iomem prints it. */
struct ram_range {
	uint64_t start;
	uint64_t end;
};

#define ZONE_NAME_MAX 16

/* One "Node N, zone NAME" block of proc/zoneinfo (mm/vmstat.c zoneinfo_show_print). */
struct zone {
	int node;
	char name[ZONE_NAME_MAX];
	bool populated;     /* start_pfn is printed only for populated zones */
	uint64_t start_pfn; /* zone->zone_start_pfn */
	uint64_t spanned;   /* pages spanned, holes included */
	uint64_t present;   /* pages that exist */
	uint64_t managed;   /* pages handed to the buddy allocator */
};

/* The lines of proc/meminfo the tool uses, in bytes (the file says kB); all unknown unless it parsed. */
struct meminfo {
	struct opt_u64 mem_total;
	struct opt_u64 high_total; /* HighTotal/LowTotal exist only with CONFIG_HIGHMEM */
	struct opt_u64 low_total;
	struct opt_u64 bounce;     /* "Bounce:" always 0 from 6.16 */
};

/* A string value with its provenance and source ("proc/sys/kernel/arch"). */
struct sourced_str {
	char *value;
	enum provenance prov;
	const char *source; /* static string */
};

struct manifest_entry {
	char *key;
	char *value;
};

/*
 * A snapshot's MANIFEST: the reader refuses a bigger one, and a capture
 * writes at most MANIFEST_ERRORS_MAX bytes of error.<path>=ERRNO lines
 * (past that it counts them), so what a capture writes is always read back.
 * The other lines are a few KiB: arch and release are one-line files of at
 * most 4 KiB, incomplete_reason holds at most one path.
 */
#define MANIFEST_MAX (16u << 20)
#define MANIFEST_ERRORS_MAX (12u << 20)
/*
 * A MANIFEST fact (arch, kernel_release) that the same tree's kernel file
 * (proc/sys/kernel/arch, osrelease) contradicts. The file is the kernel's own
 * word and is what the audit uses; the MANIFEST's is kept for the finding.
 */
struct identity_conflict {
	const char *key;  /* static: the MANIFEST key */
	const char *path; /* static: the file */
	char *manifest;   /* what MANIFEST says */
	char *file;       /* what the file says: the value used */
};

#define IDENTITY_CONFLICTS_MAX 2

/* MANIFEST manifest_version= of captures that end MANIFEST with complete=0|1 */
#define MANIFEST_VERSION 2

/* ---- devices ---- */

enum dev_bus {
	DEV_BUS_PCI,      /* sys/bus/pci/devices */
	DEV_BUS_PLATFORM, /* sys/bus/platform/devices with an of_node */
	DEV_BUS_AMBA,     /* sys/bus/amba/devices with an of_node */
	_DEV_BUS_MAX,
	_DEV_BUS_INVALID = -EINVAL,
};

const char *dev_bus_to_string(enum dev_bus b);
/* "sys/bus/pci/devices": the directory that lists a bus's devices. */
const char *dev_bus_dir(enum dev_bus b);

/*
 * How a bus's device list was read (readers/pci.c, readers/platform.c). A
 * list not read hides every device on it: the report must not call that
 * healthy. Zeroed: not tried.
 */
struct bus_listing {
	bool tried;
	int err;        /* positive errno of the listing; 0 when it was listed */
	size_t entries; /* names it listed */
	/* listed names that could not be read as a device (a link that loops, EACCES, EIO,
	 * a PCI directory without its vendor file): hidden devices, not absent ones */
	size_t unreadable;
	char *first_unreadable; /* the first such entry's path */
	int unreadable_err;     /* and its positive errno */
};


/* A devicetree property's state (drivers/of/address.c treats each differently). */
enum dt_prop {
	DT_PROP_ABSENT,
	DT_PROP_EMPTY,   /* present, zero length: 1:1 at this level */
	DT_PROP_PRESENT, /* present with cells */
	DT_PROP_INVALID, /* length not a whole number of entries, or unreadable */
};

/* One dma-ranges entry: child bus address, parent bus address, size. */
struct dt_range {
	uint64_t child;
	uint64_t parent;
	uint64_t size;
};

/*
 * One node on the path from a device's DT node up to the root. dma-ranges
 * cells are parsed with this node's #address-cells (child), its parent's
 * #address-cells (parent) and this node's #size-cells (of_bus_n_addr_cells,
 * of_n_addr_cells, of_bus_n_size_cells in drivers/of/address.c).
 */
struct dt_node {
	char *path;              /* relative to sys/firmware/devicetree/base; "" for the root */
	enum dt_prop dma_ranges;
	struct dt_range *ranges; /* DT_PROP_PRESENT only */
	size_t n_ranges;
	unsigned address_cells;  /* #address-cells for this node's children (default 2) */
	unsigned size_cells;     /* #size-cells for this node's children (default 1) */
	bool is_pci;             /* device_type = "pci": 3-cell child addresses, phys.hi dropped */
};

struct dt_info {
	char *node;              /* of_node, relative to sys/firmware/devicetree/base; NULL: none */
	bool node_is_device;     /* chain[0] is the device's own node (platform/AMBA), not a host bridge */
	bool restricted_pool;    /* memory-region -> compatible "restricted-dma-pool" */
	struct dt_node *chain;   /* chain[0] the first node, then each parent up to the root */
	size_t n_chain;
	char *restricted_node;   /* that reserved-memory node, relative to DT_BASE */
	/* the property for which rmem_swiotlb_setup() refuses the node (static); NULL: none */
	const char *restricted_rejected;
	uint64_t restricted_base; /* that reserved-memory node's reg */
	uint64_t restricted_size;
	char *error;             /* why the chain could not be read, NULL when fine */
	char *err_path;          /* the sysroot path of that read */
	int err;                 /* -errno of a failed read on the chain (a link loop, EACCES): reach unknown */
};

/*
 * Signs that a device does DMA (read_dma_signs). Every platform/AMBA device
 * gets a default mask whether it does DMA or not (a UART, an RTC, psci,
 * pmu): only one with a sign is judged. One bit per kind of evidence.
 */
enum dma_sign {
	DMA_SIGN_DISK,          /* a disk's DMA device (sys/class/block, read_block) */
	DMA_SIGN_NET,           /* sys/class/net/X/device lies under it */
	DMA_SIGN_USB_HOST,      /* a USB root hub (sys/bus/usb/devices/usbN) hangs under it */
	DMA_SIGN_SOUND,         /* sys/class/sound/X/device lies under it */
	DMA_SIGN_DRM,           /* sys/class/drm/X/device lies under it */
	DMA_SIGN_DMA_ENGINE,    /* sys/class/dma/dmaNchanM/device: a DMA-engine controller */
	DMA_SIGN_IOMMU_UNIT,    /* sys/class/iommu/X/device: an IOMMU itself (table walks, queues) */
	DMA_SIGN_DT_DMA_CELLS,  /* DT "#dma-cells": a DMA provider */
	DMA_SIGN_DT_IOMMUS,     /* DT "iommus": masters DMA through an IOMMU */
	DMA_SIGN_DT_COHERENT,   /* DT "dma-coherent" */
	DMA_SIGN_DT_MEMORY_REGION, /* DT "memory-region" */
	DMA_SIGN_DMA_API_DEBUG, /* live mappings in sys/kernel/debug/dma-api/dump */
	DMA_SIGN_KERNEL_LOG,    /* dev/kmsg "DMA addr"/"swiotlb addr ... overflow" for it: a mapping failed */
	_DMA_SIGN_MAX,
	_DMA_SIGN_INVALID = -EINVAL,
};

/* "disk", "net", ..., "#dma-cells", ...; NULL out of range. */
const char *dma_sign_to_string(enum dma_sign s);

/* udev properties users recognise; NULL when absent (never changes a verdict). */
struct udev_props {
	char *id_path;           /* ID_PATH */
	char *vendor_db;         /* ID_VENDOR_FROM_DATABASE */
	char *model_db;          /* ID_MODEL_FROM_DATABASE */
	char *serial;            /* ID_SERIAL */
	char *by_path;           /* a /dev/disk/by-path name, for disks */
};

/*
 * The default domain of a device's IOMMU group (drivers/iommu/iommu.c
 * iommu_group_show_type, c52c72d3dee81, 4.19: "DMA" lacked its newline until 24f307d8abf7, 5.2;
 * DMA-FQ 5.15+).
 */
enum iommu_domain {
	IOMMU_DOMAIN_NONE,       /* no group, or no type file */
	IOMMU_DOMAIN_DMA,        /* translated */
	IOMMU_DOMAIN_DMA_FQ,     /* translated, lazy flush */
	IOMMU_DOMAIN_IDENTITY,   /* passthrough: dma-direct */
	IOMMU_DOMAIN_UNMANAGED,  /* owned by VFIO or a driver */
	IOMMU_DOMAIN_BLOCKED,
	IOMMU_DOMAIN_UNKNOWN,    /* "unknown": no default domain (Intel before 5.3) */
	IOMMU_DOMAIN_OTHER,      /* a word this tool does not know */
};

/* "DMA" -> IOMMU_DOMAIN_DMA, ...; NULL -> IOMMU_DOMAIN_NONE. */
enum iommu_domain iommu_domain_from_string(const char *s);

struct device {
	char *id;                /* PCI address "0000:02:00.0" or platform name "fe340000.mmc" */
	char *syspath;           /* root-relative resolved path, e.g. "sys/devices/pci0000:00/0000:00:02.0" */
	char *driver;            /* basename of the driver link; NULL: unbound */
	char *module;            /* driver/module link, else libkmod from modalias; NULL unknown */
	const char *module_source; /* "sysfs", "modalias" (libkmod), NULL */
	char *modalias;
	char *name;              /* pci.ids "Vendor Device" (as lspci), or the DT compatible; NULL unknown */
	/* the of_node's compatible strings, each NUL-terminated, most specific first (as the
	 * property holds them); NULL: none, or one string empty or not printable (an input says) */
	char *compatible;
	size_t compatible_len;   /* bytes of compatible, the NULs included */
	bool have_pci_ids;
	uint16_t vendor, device_id, subsys_vendor, subsys_device;
	uint32_t class_code;     /* 24-bit class: base, sub, prog-if */
	struct opt_int dma_mask_bits;      /* sysfs dma_mask_bits (PCI only: fls64 of the mask) */
	struct opt_int coherent_mask_bits; /* sysfs consistent_dma_mask_bits */
	struct opt_int iommu_group;        /* the iommu_group link's number; unknown: no link */
	enum iommu_domain iommu_domain;    /* what it says */
	struct opt_int numa_node;          /* sysfs numa_node; unknown when absent or -1 (NUMA_NO_NODE) */
	struct opt_bool virtio_access_platform; /* VIRTIO_F_ACCESS_PLATFORM of its virtio device */
	/* PCI "removable" (5.14+): true "removable" (below an external-facing port, so
	 * untrusted), false "fixed"; unknown: not read (no IOMMU group), unreadable, or
	 * absent (removable_absent), which ERA_REMOVABLE_ATTR reads as fixed from 5.14 */
	struct opt_bool removable;
	bool removable_absent;
	unsigned dma_signs;      /* 1u << DMA_SIGN_*: evidence that it does DMA (read_dma_signs) */
	/* a root hub under it has a MASK_LINE_USB_STORAGE line on its bus (read_dma_signs) */
	bool usb_storage_refused;
	enum dev_bus bus;
	char *iommu_type;        /* sys/kernel/iommu_groups/N/type as read, for the report */
	char *interfaces;        /* network interfaces under it, "eth0,wlan0" (sys/class/net); NULL none */
	struct dt_info *dt;      /* NULL: no devicetree node (every x86 device); read it with device_dt() */
	char *acpi_path;         /* firmware_node/path ("\\_SB_.ETH0"), read only for IORT's named components */
	struct udev_props *udev; /* NULL: udev knows nothing of it; read it with udev_or_none() */
};

struct block_queue {
	char *disk;              /* "vda", "mmcblk0" (whole disks, not partitions) */
	char *syspath;           /* root-relative resolved path of the disk; NULL unknown */
	char *dma_device;        /* id of the nearest PCI/platform/AMBA ancestor; NULL none */
	struct opt_size dev_index; /* index in machine.devices; unknown: no DMA device */
	/* queue/ limits (block/blk-sysfs.c); unknown when absent or unreadable */
	struct opt_i64 max_sectors_kb, max_hw_sectors_kb, max_segments, max_segment_size;
	struct opt_i64 logical_block_size, dma_alignment;
	struct udev_props *udev; /* NULL: udev knows nothing of it */
};

/* Which probe-time log line told a platform device's mask (readers/kmsg.c). */
enum mask_line_kind {
	MASK_LINE_SDHCI,  /* "mmcN: SDHCI controller on HW [DEV] using MODE" (sdhci.c __sdhci_add_host) */
	MASK_LINE_DW_MMC, /* "DRV DEV: IDMAC supports N-bit address mode." (dw_mmc.c dw_mci_init_dma) */
	MASK_LINE_STMMAC, /* "DRV DEV: Using N/M bits DMA host/device width" (stmmac_main.c stmmac_dvr_probe) */
	MASK_LINE_MTU3,   /* "mtu3 DEV: dma mask: N bits" (usb/mtu3/mtu3_core.c mtu3_set_dma_mask) */
	/* "usb-storage INTF: USB Mass Storage not supported on this host controller" (6.16+):
	 * device is the USB interface, bits 0 (its host controller does no DMA to RAM) */
	MASK_LINE_USB_STORAGE,
	_MASK_LINE_KIND_MAX,
};

/* A log line that says which DMA mask a driver set for a device. */
struct mask_line {
	char *device;             /* the dev_name it names */
	enum mask_line_kind kind;
	/* the mask's bits the line implies: 64 widened, 32 the 32-bit mask (or none set, the
	 * bus default); 0: the line says the device does no DMA of its own (PIO, External DMA) */
	unsigned bits;
	const char *said;         /* static: the words that decided ("using ADMA 64-bit") */
};

/* ---- ACPI IORT (arm64 servers) ---- */

enum {
	IORT_NODE_NAMED_COMPONENT = 1,
	IORT_NODE_ROOT_COMPLEX = 2,
};

/* A named component or root complex of the IORT, with its memory address size limit. */
struct iort_node {
	uint8_t type;            /* IORT_NODE_* */
	uint8_t revision;
	/* memory_address_limit as the table gives it: 0 the kernel calls missing
	 * (FW_BUG); a root complex before revision 1 has none and reads 0 */
	uint8_t limit_bits;
	uint32_t segment;        /* root complex: its PCI segment (the PCI domain) */
	char *name;              /* named component: its device object, "\\_SB_.ETH0" */
};

/* ---- swiotlb, forced bouncing, hypervisor ---- */

/* A "DMA addr ... overflow (mask ..., bus limit ...)" log line (kernel/dma/direct.h). */
struct dma_overflow {
	char *device;            /* the dev_printk device name */
	uint64_t addr;
	uint64_t size;
	uint64_t mask;
	uint64_t bus_limit;
};

/* "swiotlb buffer is full (sz: N bytes), total T (slots), used U (slots)" (kernel/dma/swiotlb.c swiotlb_tbl_map_single) */
struct swiotlb_full {
	char *device;            /* the dev_printk device name; NULL when the line names none */
	struct opt_u64 size;     /* sz, bytes */
	struct opt_u64 total;    /* slots; absent from the older "(sz: N bytes)" form */
	struct opt_u64 used;
};

/* The kernel command line's parameters that the analysis uses (readers/cmdline.c). */
struct cmdline_params {
	/* swiotlb=<slabs>[,<areas>][,force|noforce] (kernel/dma/swiotlb.c setup_io_tlb_npages),
	 * each word as written: which era reads which is analysis/swiotlb-state.c's (ERA_SWIOTLB_PARAM) */
	bool swiotlb_force;          /* "force" alone or after <slabs> */
	bool swiotlb_noforce;
	bool swiotlb_force_areas;    /* "force" after <slabs>,<areas>: read from 6.0 only */
	bool swiotlb_noforce_areas;
	enum swiotlb_word { SWIOTLB_WORD_NONE, SWIOTLB_WORD_FORCE, SWIOTLB_WORD_NOFORCE }
		swiotlb_last_word;   /* the last of force/noforce without <areas> */
	struct opt_u64 swiotlb_slabs; /* rounded up to IO_TLB_SEGSIZE (128) as the kernel does */
	struct opt_u64 swiotlb_areas; /* <areas> as written (6.0+), which then skips num_possible_cpus() */
	bool iommu_off;          /* x86 iommu=off (arch/x86/kernel/pci-dma.c iommu_setup: no_iommu) */
	bool iommu_soft;         /* x86 iommu=soft: a swiotlb pool whatever the RAM */
	bool iommu_pt;           /* iommu=pt (the last of pt/nopt): passthrough default domain */
};

struct swiotlb_info {
	/* dev/kmsg "software IO TLB: mapped [mem A-B] (N MB)" (swiotlb_print_info), B exclusive */
	struct opt_u64 pool_start; /* known together with pool_end */
	struct opt_u64 pool_end;   /* exclusive */
	bool log_no_low_mem;     /* "software IO TLB: No low mem" */
	/* debugfs sys/kernel/debug/swiotlb (root only); all unknown if one is unreadable */
	struct opt_u64 nslabs, used, hiwater, transient;
	unsigned full_messages;  /* "swiotlb buffer is full" lines */
	unsigned pool_overflow_messages; /* "swiotlb addr ... overflow": the pool itself out of reach */
};

/* Signs of memory encryption as seen; analysis/coco.c decides what they make the machine. */
struct coco_signs {
	bool log_sev;            /* log "Memory Encryption Features active: AMD SEV...", "... (SEV) active" */
	bool log_sme;            /* log "... AMD SME", "... (SME) active" */
	bool log_tdx;            /* log "... Intel TDX", "tdx: Guest detected" */
	bool log_cca;            /* log "RME: Using RSI version" */
	unsigned log_hyperv_isolation; /* log "Hyper-V: Isolation Config: ... Group B 0x%x": B & 0xf (0 none) */
	bool s390_prot_virt;     /* sys/firmware/uv/prot_virt_guest reads 1 */
	char *log_line;          /* the first of those lines */
	bool dev_sev_guest;      /* dev/sev-guest exists (SNP) */
	bool dev_tdx_guest;      /* dev/tdx_guest exists */
	bool cpuinfo_tdx_guest;  /* proc/cpuinfo flags has tdx_guest */
	struct opt_u32 cpuinfo_phys_bits; /* x86 "address sizes": N bits physical */
};

/* sys/hypervisor/type; only Xen's driver (drivers/xen/sys-hypervisor.c) fills it in. */
enum hypervisor_type {
	HYPERVISOR_NONE,         /* no sys/hypervisor/type */
	HYPERVISOR_XEN,          /* "xen" */
	HYPERVISOR_OTHER,        /* anything else */
};

/* sys/hypervisor/guest_type (4.12+) */
enum xen_guest_type {
	XEN_GUEST_UNKNOWN,       /* absent: before 4.12, or not Xen */
	XEN_GUEST_PV,
	XEN_GUEST_HVM,
	XEN_GUEST_PVH,
	XEN_GUEST_OTHER,         /* a value this tool does not know */
};

struct hypervisor {
	enum hypervisor_type type;
	enum xen_guest_type xen_guest_type;
	bool xen_dom0;           /* proc/xen/capabilities holds "control_d" */
};

/* ---- --observe ---- */

/* What one device bounced in the observation window (swiotlb:swiotlb_bounced events). */
struct observed_device {
	char *device;            /* dev_name of the event */
	uint64_t bounces, bytes;
	uint64_t forced_bounces; /* force FORCE (swiotlb=force, CoCo guests; restricted pools 5.18+) */
	uint64_t small_unaligned; /* < 256 B, not a multiple of 64: arm64 6.5+, riscv 6.6+ kmalloc bouncing */
	uint64_t lowest_addr;    /* smallest dev_addr bounced */
	uint64_t highest_addr;   /* largest dev_addr + size - 1 */
	struct opt_u64 lowest_end;       /* smallest dev_addr + size - 1 of any bounce */
	struct opt_u64 lowest_end_large; /* the same over the bounces that are not small_unaligned */
	uint64_t overflow_messages; /* "DMA addr"/"swiotlb addr ... overflow" records in the window */
};

/* What a disk or an interface moved in the window: the difference of its counters at either end. */
enum traffic_kind {
	TRAFFIC_BLOCK,           /* sys/block/X/stat (block/genhd.c part_stat_show) */
	TRAFFIC_NET,             /* sys/class/net/X/statistics (net/core/net-sysfs.c) */
	_TRAFFIC_KIND_MAX,
};

struct observed_traffic {
	char *name;              /* "vda", "eth0" */
	enum traffic_kind kind;
	uint64_t ops;            /* block: reads, writes, discards and flushes completed; net: packets */
	uint64_t bytes;          /* block: sectors read, written and discarded * 512; net: rx + tx bytes */
};

/* The debugfs swiotlb counters at one end of the window. */
struct observed_counters {
	struct opt_u64 used, hiwater, transient; /* slabs */
};

struct observation {
	bool present;            /* a window was observed (live), or a snapshot holds one */
	unsigned requested_seconds;
	double window_seconds;   /* how long events were traced */
	bool interrupted;        /* ended early by SIGINT */
	struct opt_u64 lost_events; /* the instance's per-CPU overrun, summed */
	uint64_t bad_lines;      /* swiotlb_bounced lines that did not parse */
	bool format_known;       /* events/swiotlb/swiotlb_bounced/format parsed */
	struct observed_device *devices;
	size_t n_devices;
	struct observed_counters before, after;
	unsigned full_messages;  /* "swiotlb buffer is full" records in the window */
	struct swiotlb_full *full; /* those records, for swiotlb-pressure (kmsg.c match_swiotlb_full) */
	size_t n_full;
	/* each disk's and interface's traffic in the window (traffic-before, traffic-after);
	 * traffic_known false: the snapshot has no traffic files (before they were captured) */
	bool traffic_known;
	struct observed_traffic *traffic;
	size_t n_traffic;
	char *tracefs;           /* where the instance lived, e.g. "sys/kernel/tracing" */
	/* --observe-probe (window's probe_* keys, observe-probe.c): the disk read at the
	 * window's start; probe_disk NULL: no probe */
	char *probe_disk;
	struct opt_u64 probe_reach_end; /* inclusive; unknown: "all", the device reaches all RAM */
	uint64_t probe_bytes;           /* read */
	uint64_t probe_above_reach_bytes; /* of them, into pages above probe_reach_end */
	uint64_t probe_allocated_bytes; /* anonymous memory allocated to find those pages */
	char *probe_why;                /* why it read less than asked; NULL: all of it */
};

struct machine {
	bool live;                   /* the sysroot is this system's "/" */
	char *sysroot;               /* as given */

	struct sourced_str arch;     /* MANIFEST arch, else proc/sys/kernel/arch */
	const struct arch_info *arch_info; /* what arch names; NULL unknown */
	struct sourced_str release;  /* MANIFEST kernel_release, else proc/sys/kernel/osrelease */
	/* "5.10.223" behind an ABI name such as "5.10.0-32-amd64": proc/version
	 * (Debian) or proc/version_signature (Ubuntu); NULL when not read */
	struct sourced_str stable_release;
	struct sourced_str hostname; /* MANIFEST hostname, else proc/sys/kernel/hostname */
	char *captured_at;           /* a snapshot's MANIFEST captured_at; NULL live or unknown */
	unsigned page_size;          /* --page-size, MANIFEST, getpagesize() live, else 4096 */
	enum provenance page_size_prov;
	const char *page_size_source;

	struct manifest_entry *manifest; /* MANIFEST key=value lines, in file order */
	size_t n_manifest;
	bool snapshot_incomplete;    /* MANIFEST: its capture did not finish (manifest_complete), or unreadable */
	char *snapshot_incomplete_why; /* MANIFEST incomplete_reason=, or what showed it */
	/* MANIFEST facts the tree's own proc/sys files contradict (the files' values are used) */
	struct identity_conflict identity_conflicts[IDENTITY_CONFLICTS_MAX];
	size_t n_identity_conflicts;

	bool iomem_ok;               /* proc/iomem was read and usable: ram[] holds its System RAM (n_ram > 0) */
	bool iomem_hidden;           /* all addresses zero: read without CAP_SYS_ADMIN (4.6+) */
	/* end of the last outermost "reserved"/"Reserved" resource: arm64, arm and riscv list
	 * nomap memblock memory so (request_standard_resources, init_resources) */
	struct opt_u64 iomem_reserved_end;
	/* resources proc/iomem names after a PCI function ("0000:00:02.0": pci_claim_resource()
	 * names BARs pci_name(dev)), even with its addresses hidden: the first, and how many */
	char iomem_pci_function[16];
	size_t iomem_pci_functions;
	struct ram_range *ram;       /* proc/iomem "System RAM", sorted, outermost only */
	size_t n_ram;

	bool zoneinfo_ok;            /* proc/zoneinfo was read and usable: zones[] holds it */
	struct zone *zones;
	size_t n_zones;

	struct meminfo meminfo;

	char *cmdline;               /* proc/cmdline, trailing newline removed */
	struct cmdline_params cmd;   /* its parameters; all false or unknown when unread */

	struct device *devices;      /* sorted by id (machine_sort_devices) */
	size_t n_devices;
	struct bus_listing buses[_DEV_BUS_MAX]; /* how each bus's device list was read */
	struct block_queue *blocks;  /* sorted by disk name */
	size_t n_blocks;
	char *virtual_interfaces;    /* "lo,sit0": sys/class/net entries under no device (virtual/); NULL none */

	bool kmsg_from_boot;         /* its first record has sequence 0: nothing rotated out */
	/* 32-bit ARM log "CPU: NAME [MIDR] revision N (ARMvX), cr=%08lx" (arch/arm/kernel/setup.c
	 * setup_processor, get_cr()): SCTLR as __v7_setup left it; bit 29 (AFE) says LPAE */
	struct opt_u32 arm_cr;
	struct swiotlb_info swiotlb;
	struct dma_overflow *overflows;
	size_t n_overflows;
	/* "swiotlb addr ... overflow (mask ..., bus limit ...)" (kernel/dma/swiotlb.c swiotlb_map): the pool out of reach */
	struct dma_overflow *pool_overflows;
	size_t n_pool_overflows;
	struct swiotlb_full *swiotlb_full; /* every "swiotlb buffer is full" line, in order */
	size_t n_swiotlb_full;
	struct mask_line *mask_lines; /* drivers' probe lines that tell a mask, in log order */
	size_t n_mask_lines;
	struct coco_signs coco;
	struct hypervisor hyp;
	bool iommu_groups_present;   /* sys/kernel/iommu_groups has entries */
	bool iort_read;              /* sys/firmware/acpi/tables/IORT was read and parsed */
	struct iort_node *iort;      /* its named components and root complexes */
	size_t n_iort;
	/* log "DMAR: Intel(R) Virtualization Technology for Directed I/O" (intel_iommu_init, after init_dmars succeeded) */
	bool log_intel_iommu;
	/* log "AMD-Vi: Found IOMMU" (amd_iommu_init.c; "pci ...: AMD-Vi: Found IOMMU cap" from 5.2) */
	bool log_amd_iommu;
	/* sys/class/iommu unit names, readable by anyone: "dmarN" (drivers/iommu/intel/dmar.c
	 * alloc_iommu), "ivhdN" (drivers/iommu/amd/init.c iommu_init_pci) (read_dma_signs) */
	bool class_intel_iommu;
	bool class_amd_iommu;
	char *cpu_vendor;            /* x86 proc/cpuinfo vendor_id: "GenuineIntel", "AuthenticAMD"; NULL unknown */
	/* sys/firmware/acpi/tables/SRAT (x86-64, root only): the highest end of an enabled memory
	 * range, hot-pluggable ones included, which max_possible_pfn follows; unknown: not read */
	struct opt_u64 srat_mem_end;
	struct opt_u32 cpus_possible;  /* sys/devices/system/cpu/possible: num_possible_cpus() */
	struct opt_bool riscv_noncoherent; /* riscv proc/cpuinfo: Zicbom or T-Head CMOs; unknown: no isa line */
	char *pci_ids_source;        /* which pci.ids gave names; NULL none */

	struct observation observed; /* --observe, or a snapshot's run/dmamask-audit/observe */

	struct input *inputs;        /* in the order they were tried */
	size_t n_inputs;
};

/* Why the snapshot is incomplete (its MANIFEST's reason, else that it says complete=0); NULL when it is not. */
const char *machine_incomplete_why(const struct machine *m);
/* Count an entry of bus b that could not be read as a device (err: -errno). 0 or -ENOMEM. */
int machine_bus_unreadable(struct machine *m, enum dev_bus b, const char *path, int err);
void machine_init(struct machine *m) _nonnull_all_;
/* Free what a dt_info holds and zero it (a zeroed one is fine). */
void dt_info_done(struct dt_info *d);

/* What a device without devicetree information has: all empty. */
extern const struct dt_info dt_info_none;

static inline const struct dt_info *device_dt(const struct device *d)
{
	return d->dt ? d->dt : &dt_info_none;
}

/* The device's own dt_info to fill, allocated on first use; NULL on OOM. */
struct dt_info *device_dt_new(struct device *d) _nonnull_all_;
void udev_props_done(struct udev_props *u);
/* Free *u and everything in it; *u becomes NULL. */
void udev_props_free(struct udev_props **u);
/*
 * *dst becomes a heap copy of src when it holds any property (src's strings
 * move into it, src is emptied), else stays NULL: most devices have none,
 * and 50,000 of them would hold 40 bytes each for nothing. 0 or -ENOMEM.
 */
int udev_props_keep(struct udev_props **dst, struct udev_props *src);

extern const struct udev_props udev_props_none;

/* No property at all. */
bool udev_props_empty(const struct udev_props *u) _nonnull_all_;

static inline const struct udev_props *udev_or_none(const struct udev_props *u)
{
	return u ? u : &udev_props_none;
}
void machine_done(struct machine *m);
void observation_done(struct observation *o);

/* Record one input. detail may be NULL. Returns 0 or -ENOMEM. */
_must_check_ int machine_add_input(struct machine *m, const char *path, enum input_status status, int err,
		      const char *detail) _nonnull_(1, 2);
/* Record the outcome of a sysroot call that returned r (0 or -errno). */
_must_check_ int machine_add_input_errno(struct machine *m, const char *path, int r) _nonnull_(1, 2);

const char *machine_manifest_get(const struct machine *m, const char *key) _nonnull_all_;

/* Append a zeroed device / block queue; returns it, or NULL on OOM. */
struct device *machine_add_device(struct machine *m) _nonnull_all_;
struct block_queue *machine_add_block(struct machine *m) _nonnull_all_;
/* Sort devices by id; machine_find_device() needs it. */
void machine_sort_devices(struct machine *m) _nonnull_all_;
/* The device with that id (binary search: call machine_sort_devices() first), or NULL. */
struct device *machine_find_device(const struct machine *m, const char *id) _nonnull_all_;
void device_done(struct device *d);
void block_queue_done(struct block_queue *b);
