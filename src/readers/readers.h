/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One reader per kernel interface. Each has a pure parser (a buffer in,
 * structured values out; what the unit tests drive) and a read_* function
 * that fetches the file through the sysroot layer, records it in
 * machine->inputs and fills its part of struct machine.
 *
 * Parsers return 0 or -EBADMSG, and on -EBADMSG fill *ret_err with the line
 * and what was wrong. read_* return 0, or -ENOMEM when the tool must stop:
 * a missing or malformed input is recorded, not fatal.
 */
#pragma once

#include <stdint.h>

#include "machine.h"
#include "sysroot/sysroot.h"

struct parse_error {
	unsigned line;    /* 1-based, 0 when not about one line */
	const char *what; /* static text */
};

/* Fill e and return -EBADMSG: the one way a parser reports malformed input. */
int parse_fail(struct parse_error *e, unsigned line, const char *what);

/* proc/iomem: outermost "System RAM" resources, sorted by start; ret_reserved_end (may be
 * NULL): the end of the last outermost "reserved"/"Reserved" resource, unknown when none. */
/* The resources named after a PCI function ("0000:00:02.0"): how many, the first in ret_first. */
size_t iomem_pci_functions(const char *buf, size_t len, char ret_first[static 16]);
int iomem_parse(const char *buf, size_t len, struct ram_range **ret_ram, size_t *ret_n,
		bool *ret_hidden, struct opt_u64 *ret_reserved_end, struct parse_error *ret_err);
int read_iomem(struct sysroot *sr, struct machine *m);

/* proc/zoneinfo: one struct zone per "Node N, zone NAME" block. */
int zoneinfo_parse(const char *buf, size_t len, struct zone **ret_zones, size_t *ret_n,
		   struct parse_error *ret_err);
int read_zoneinfo(struct sysroot *sr, struct machine *m);

/* proc/meminfo: MemTotal, HighTotal, LowTotal, Bounce. */
int meminfo_parse(const char *buf, size_t len, struct meminfo *ret, struct parse_error *ret_err);
int read_meminfo(struct sysroot *sr, struct machine *m);

/* proc/cmdline: the whole line, trailing newline removed. */
int cmdline_parse(const char *buf, size_t len, char **ret, struct parse_error *ret_err);
/* The parameters of that line the analysis uses (pure). */
void cmdline_parse_params(const char *cmdline, struct cmdline_params *ret);
int read_cmdline(struct sysroot *sr, struct machine *m);

/*
 * The stable release ("5.10.223") that a distribution's ABI name
 * ("5.10.0-32-amd64") hides, from proc/version ("... Debian 5.10.223-1 ...")
 * or proc/version_signature ("Ubuntu 5.15.0-91.101-generic 5.15.131"): the
 * first "MAJOR.MINOR.PATCH" after a "Debian "/"Ubuntu " word, or the last
 * word, whose MAJOR.MINOR is release's. 0, -ENOENT when none, -EBADMSG for
 * binary content, -ENOMEM.
 */
int stable_release_parse(const char *buf, size_t len, const char *release, char **ret);
/* "5.10.0-32-amd64": a distribution's ABI name (patch level 0, then "-N"), behind which a stable release hides. */
bool release_is_abi_name(const char *rel);

/* An IORT table: its named components and root complexes. 0, -EBADMSG (e says), -ENOMEM. */
int iort_parse(const void *data, size_t len, struct iort_node **ret, size_t *ret_n,
	       struct parse_error *e);
void iort_nodes_free(struct iort_node *v, size_t n);
/* arm64: sys/firmware/acpi/tables/IORT, and the ACPI paths its named components name. */
int read_iort(struct sysroot *sr, struct machine *m);

/* MANIFEST: key=value lines, '#' comments, blank lines ignored. */
int manifest_parse(const char *buf, size_t len, struct manifest_entry **ret, size_t *ret_n,
		   struct parse_error *ret_err);
/*
 * Whether a MANIFEST says its capture finished: every complete= line says 1;
 * without one, a MANIFEST with manifest_version= was cut short (captures
 * that write the key end every MANIFEST with complete=), and one without
 * (older captures, hand-made trees) is taken as complete. Else *ret_why
 * says why not: incomplete_reason= or a static text.
 */
bool manifest_complete(const struct manifest_entry *v, size_t n, const char **ret_why);

/*
 * Identity: MANIFEST when present (its error.<path> entries are handed to
 * the sysroot layer; one that exists but cannot be read makes the snapshot
 * incomplete), checked against proc/sys/kernel/{arch,osrelease}, which win
 * a contradiction (m->identity_conflicts); page size from
 * page_size_option when non-zero, MANIFEST, the running process when live,
 * else 4096 (assumed).
 */
int read_identity(struct sysroot *sr, struct machine *m, unsigned page_size_option);

/*
 * Devices. read_pci: every function under sys/bus/pci/devices (ids, class,
 * masks, driver, module, iommu_group and its type, numa_node, and for
 * functions behind a DT host bridge the bridge's dt chain). read_platform:
 * sys/bus/platform/devices and sys/bus/amba/devices that have an of_node.
 * Both sort m->devices at the end.
 */
int read_pci(struct sysroot *sr, struct machine *m);
/* A PCI function's uevent (drivers/pci/pci-driver.c pci_uevent). */
struct pci_uevent {
	uint16_t vendor, device_id;         /* PCI_ID=VVVV:DDDD */
	uint16_t subsys_vendor, subsys_device; /* PCI_SUBSYS_ID= */
	uint32_t class_code;                /* PCI_CLASS= (24 bits) */
	const char *modalias;               /* MODALIAS=, borrowed from the buffer */
	size_t modalias_len;
	const char *driver;                 /* DRIVER= (only while bound: drivers/base/core.c dev_uevent), borrowed */
	size_t driver_len;
};
/* 1 and *ret filled when PCI_CLASS, PCI_ID and PCI_SUBSYS_ID are all well formed; 0 when not; -EBADMSG for binary content. */
int pci_uevent_parse(const char *buf, size_t len, struct pci_uevent *ret);
int read_platform(struct sysroot *sr, struct machine *m);

/*
 * Devicetree: fill d->dt for the node at dt_path (relative to
 * sys/firmware/devicetree/base): the chain of nodes up to the root with
 * their dma-ranges parsed, and a restricted-dma-pool memory-region.
 */
int read_dt_chain(struct sysroot *sr, const char *dt_path, bool node_is_device, struct dt_info *ret);
/* List a failed read of the chain in inputs, once per path. 0 or -ENOMEM. */
int dt_record_error(struct machine *m, const struct dt_info *dt);
/* Parse a dma-ranges property (big-endian u32 cells) with the given cell counts. */
int dt_parse_dma_ranges(const uint8_t *prop, size_t len, unsigned child_cells, bool child_is_pci,
			unsigned parent_cells, unsigned size_cells, struct dt_range **ret, size_t *ret_n);

/* VIRTIO_F_ACCESS_PLATFORM of each virtio-pci function's virtio device. After read_pci. */
int read_virtio(struct sysroot *sr, struct machine *m);
/* Bit 33 of a virtio features file: 0 or 1, -1 when malformed. */
int virtio_parse_access_platform(const char *buf, size_t len);

/* sys/kernel/iommu_groups presence; per-device types are read by read_pci/read_platform. */
int read_iommu(struct sysroot *sr, struct machine *m);

/* sys/class/block: whole disks, their queue limits and DMA device. After the device readers. */
int read_block(struct sysroot *sr, struct machine *m);
/* The platform/AMBA devices only disks reveal (no of_node); then each disk's device index. */
int read_disk_parents(struct sysroot *sr, struct machine *m);

/*
 * Signs that devices do DMA (device.dma_signs): disks' DMA devices, the
 * devices under sys/class/{net,sound,drm,dma}/X/device and USB root hubs,
 * devicetree dmas, #dma-cells, iommus, dma-coherent and memory-region of
 * platform/AMBA nodes, debugfs dma-api/dump, logged DMA overflows. After
 * read_block and read_kmsg.
 */
int read_dma_signs(struct sysroot *sr, struct machine *m);
/* debugfs dma-api/dump: the names of the devices with live mappings, sorted, each once. */
int dma_api_dump_parse(const char *buf, size_t len, struct strv *ret, struct parse_error *ret_err);

/* dev/kmsg (record format, live or captured): swiotlb pool, CoCo lines, DMA overflows. */
int kmsg_parse(const char *buf, size_t len, struct machine *m);
/*
 * The same, and the records a capture keeps (newly allocated): those that
 * said something, the malformed ones and the first, so that parsing them
 * gives the machine parsing buf gave. 0, -EBADMSG, -ENOMEM.
 */
int kmsg_parse_kept(const char *buf, size_t len, struct machine *m, char **ret_kept, size_t *ret_len);
int read_kmsg(struct sysroot *sr, struct machine *m);

/* A debugfs swiotlb counter ("%llu\n", kernel/dma/swiotlb.c): 0, or -EBADMSG. */
int swiotlb_parse_counter(const char *buf, size_t len, uint64_t *ret);
/* sys/kernel/debug/swiotlb counters, and swiotlb= from the command line. */
int read_swiotlb(struct sysroot *sr, struct machine *m);

/* A "flags : ..." line of proc/cpuinfo holds the word flag. */
bool cpuinfo_has_flag(const char *buf, size_t len, const char *flag);
/* x86 "address sizes\t: N bits physical, ...": N (1-64), or -ENOENT / -EBADMSG. */
int cpuinfo_phys_bits(const char *buf, size_t len);
/* Pure: x86 "vendor_id" into *ret (freed by the caller); -ENOENT none, -ENOMEM. */
int cpuinfo_vendor(const char *buf, size_t len, char **ret);
/*
 * riscv: whether the kernel treats DMA as non-coherent (riscv_noncoherent_supported():
 * Zicbom in the "isa" line, or T-Head's CMO errata, mvendorid 0x5b7): 1 or 0;
 * -ENOENT without an "isa" line, -ENOMEM.
 */
int cpuinfo_riscv_noncoherent(const char *buf, size_t len);
/* An ACPI SRAT: the highest end (exclusive) of its enabled memory ranges, 0 for none; -EBADMSG. */
int srat_parse(const void *data, size_t len, uint64_t *ret_end);
/* sys/firmware/acpi/tables/SRAT on x86-64: the ranges that make max_possible_pfn. */
int read_srat(struct sysroot *sr, struct machine *m);
/* A cpumap range list ("0-63", "0,2-5") -> how many CPUs; -EINVAL or -ERANGE. */
int cpu_list_count(const char *buf, size_t len, unsigned *ret);
/* sys/devices/system/cpu/possible: the possible CPUs, which size the swiotlb areas (6.0+). */
int read_cpus(struct sysroot *sr, struct machine *m);
/* Confidential-guest signs: proc/cpuinfo flags, dev/sev-guest, dev/tdx_guest. */
int read_coco(struct sysroot *sr, struct machine *m);
/* sys/hypervisor/type, sys/hypervisor/guest_type, proc/xen/capabilities. */
int read_hypervisor(struct sysroot *sr, struct machine *m);

/* Names: the pci.ids found through the sysroot (pci-ids.c); libkmod for modalias -> module. */
int read_pci_names(struct sysroot *sr, struct machine *m);
int read_modules(struct sysroot *sr, struct machine *m);
/* Live only: libudev properties of devices and disks. */
int read_udev(struct sysroot *sr, struct machine *m);

/* Everything, in order. */
int read_machine(struct sysroot *sr, struct machine *m, unsigned page_size_option);

/* Shared by the read_* functions: record a parse failure as an input. */
int record_parse_error(struct machine *m, const char *path, const struct parse_error *e);

/*
 * Fetch a text input for a parser: 1 with the buffer, 0 when it could not be
 * read (recorded as missing/denied/invalid), -ENOMEM.
 */
int read_input(struct sysroot *sr, struct machine *m, const char *path, size_t max,
	       char **ret_buf, size_t *ret_len);
/* Record a parser's outcome r: ok, or invalid with e's line and reason. 0 or -ENOMEM. */
int record_parse_result(struct machine *m, const char *path, int r, const struct parse_error *e);
