/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The catalogue of verdict reasons: every sentence a device's "reason" can
 * say, with its verdict and what it sets. The rules (verdict-rules.c,
 * devices.c) name a case; a new reason is a row here and a phrase in the
 * man page's VERDICTS (test-verdict-catalogue fails without it).
 */
#include "analysis/verdict-catalogue.h"

#define R(w, v, flags, man, text) { #w, VERDICT_##v, UNKNOWN_CAUSE_OTHER, flags, man, text }
#define U(w, cause, flags, man, text) { #w, VERDICT_UNKNOWN, UNKNOWN_CAUSE_##cause, flags, man, text }

static const struct verdict_reason_info catalogue[_VR_MAX] = {
	[VR_NO_DRIVER] = R(VR_NO_DRIVER, IDLE, 0, "no driver is bound", "no driver bound: no DMA"),
	[VR_BRIDGE] = R(VR_BRIDGE, IDLE, 0, "PCI bridge or host controller",
		"bridge or host controller: forwards DMA, does none of its own"),
	[VR_SIGNS_DT_UNREADABLE] = U(VR_SIGNS_DT_UNREADABLE, DEVICETREE, 0, "devicetree unreadable",
		"devicetree unreadable: whether it does DMA cannot be known"),
	[VR_NO_DMA_SIGN] = R(VR_NO_DMA_SIGN, IDLE, 0, "no sign that it does DMA", "no sign that it does DMA"),
	[VR_IOMMU_UNIT] = R(VR_IOMMU_UNIT, DIRECT, 0, "An IOMMU itself",
		"an IOMMU: its own DMA (page tables, queues) is coherent memory allocated "
		"within the mask its driver sets; nothing is mapped for streaming"),
	[VR_USB_STORAGE_REFUSED] = R(VR_USB_STORAGE_REFUSED, IDLE, 0, "usb-storage",
		"usb-storage refused this host controller (boot log): on a CONFIG_HIGHMEM "
		"kernel from 6.16 a controller without DMA, or with only its own local "
		"memory, gets no USB disk; it maps no RAM"),
	[VR_NO_DMA_API] = R(VR_NO_DMA_API, DIRECT, 0, "qemu_fw_cfg", NULL),
	[VR_VIRTIO_BYPASS] = R(VR_VIRTIO_BYPASS, DIRECT, 0, "VIRTIO_F_ACCESS_PLATFORM",
		"virtio without VIRTIO_F_ACCESS_PLATFORM: guest-physical addresses, no DMA API"),

	[VR_XEN_TYPE_UNKNOWN] = U(VR_XEN_TYPE_UNKNOWN, XEN, 0, "Xen PV",
		"Xen guest whose type is unknown (no guest_type before 4.12): if PV, "
		"xen-swiotlb bounces by machine addresses the guest cannot see"),
	[VR_XEN_PV] = U(VR_XEN_PV, XEN, 0, "Xen PV",
		"Xen PV: xen-swiotlb bounces by machine addresses the guest cannot see"),
	[VR_S390_ZPCI] = R(VR_S390_ZPCI, IOMMU, 0, "zPCI", "s390 PCI before 6.7: zPCI translates DMA itself (s390_pci_dma_ops)"),
	[VR_UNTRUSTED_UNKNOWN] = U(VR_UNTRUSTED_UNKNOWN, PORT, 0, "removable",
		"translated IOMMU domain, but whether the device is untrusted "
		"(sysfs removable) is unknown: an untrusted device's unaligned "
		"buffers bounce, and no swiotlb pool is known to take them"),
	[VR_TRANSLATED_UNTRUSTED] = R(VR_TRANSLATED_UNTRUSTED, IOMMU, VR_UNTRUSTED, "untrusted-bounce",
		"translated IOMMU domain, untrusted (external-facing): "
		"buffers not aligned to the IOMMU page bounce through swiotlb"),
	[VR_TRANSLATED] = R(VR_TRANSLATED, IOMMU, 0, "translated IOMMU domain",
		"translated IOMMU domain: I/O virtual addresses inside the mask"),
	[VR_DOMAIN_OWNED] = U(VR_DOMAIN_OWNED, OWNER, 0, "VFIO", "IOMMU domain unmanaged or blocked: its owner (VFIO) maps the DMA"),
	[VR_NO_DOMAIN_TYPE] = R(VR_NO_DOMAIN_TYPE, IOMMU, 0, "_type_ file before 4.19",
		"IOMMU group with no domain type shown (before 4.19, or Intel before 5.3), "
		"and no passthrough on the command line: translated"),
	[VR_INTEL_FALLBACK] = R(VR_INTEL_FALLBACK, IOMMU, 0, "Intel's driver before 5.8 still translates",
		"Intel IOMMU passthrough before 5.8: a mask below the end of RAM takes the "
		"device out of the identity map into a translated domain"),
	[VR_FALLBACK_VENDOR_UNKNOWN] = U(VR_FALLBACK_VENDOR_UNKNOWN, KERNEL, 0, "IOMMU's maker",
		"IOMMU passthrough before 5.8 with a mask below the end of RAM: Intel's driver "
		"translates such a device, AMD's does not, and which IOMMU this is is unknown"),

	[VR_RESTRICTED_RELEASE_UNKNOWN] = U(VR_RESTRICTED_RELEASE_UNKNOWN, RELEASE, 0, "restricted-dma-pool",
		"devicetree restricted-dma-pool, kernel release unknown: honoured from 5.15 "
		"(every mapping bounces through it), ignored before"),
	[VR_FORCING_UNKNOWN] = U(VR_FORCING_UNKNOWN, RELEASE, 0, "swiotlb=force", NULL),
	[VR_FORCED] = R(VR_FORCED, FORCED, 0, "Every mapping bounces whatever the mask", NULL),
	[VR_SME_CBIT_UNKNOWN] = U(VR_SME_CBIT_UNKNOWN, HARDWARE, 0, "C-bit",
		"AMD SME host: the device's limit lies between the physical "
		"address bits and bit 52; the C-bit's position, not visible "
		"from Linux, decides whether every mapping bounces"),
	[VR_SME_PHYS_BITS_UNKNOWN] = U(VR_SME_PHYS_BITS_UNKNOWN, HARDWARE, 0, "C-bit",
		"AMD SME host: the physical address bits (proc/cpuinfo) are "
		"unknown, so whether the C-bit lies beyond the limit is unknown"),
	/* swiotlb_map() checks the slot it took with dma_capable(): every mapping fails */
	[VR_FORCED_POOL_OUT_OF_REACH] = R(VR_FORCED_POOL_OUT_OF_REACH, FAILS, 0, "forced through a pool it cannot reach",
		"every mapping is forced to bounce, through a swiotlb pool the device "
		"cannot reach: every mapping fails, RAM within reach too"),
	[VR_FORCED_POOL_DERIVED_OUT_OF_REACH] = R(VR_FORCED_POOL_DERIVED_OUT_OF_REACH, FAILS, 0,
		"forced through a pool it cannot reach",
		"every mapping is forced to bounce, through a swiotlb pool placed below "
		"its derived bound, where the device reaches no RAM: every mapping fails, "
		"RAM within reach too"),

	[VR_IORT_ZEROED] = U(VR_IORT_ZEROED, MASK, 0, "IORT", NULL),
	[VR_DT_MAP_UNREADABLE] = U(VR_DT_MAP_UNREADABLE, DEVICETREE, 0, "devicetree unreadable",
		"devicetree unreadable: the kernel's translation and bus limit cannot be known"),
	[VR_DT_RANGES_UNUSABLE] = U(VR_DT_RANGES_UNUSABLE, DEVICETREE, 0, "*dma-ranges* unusable",
		"devicetree dma-ranges unusable: the kernel's translation and bus limit "
		"cannot be known"),
	[VR_MASK_ZERO] = U(VR_MASK_ZERO, MASK, 0, "dma_mask_bits", "dma_mask_bits is 0: no DMA mask set"),
	[VR_NO_MASK_BITS] = U(VR_NO_MASK_BITS, MASK, 0, "dma_mask_bits", "no dma_mask_bits in sysfs"),
	[VR_PLATFORM_MASK_RELEASE_UNKNOWN] = U(VR_PLATFORM_MASK_RELEASE_UNKNOWN, RELEASE, 0, "platform device without a known mask",
		"kernel release unknown: a platform device's default DMA mask is 32 "
		"bits from 3.13, none before; give --assume-mask"),
	[VR_NO_DEFAULT_MASK] = U(VR_NO_DEFAULT_MASK, MASK, 0, "platform device without a known mask",
		"no default DMA mask for this bus and era: give --assume-mask"),
	[VR_LAYOUT_CONTRADICTS] = U(VR_LAYOUT_CONTRADICTS, CONTRADICTION, 0, "memory-inputs-disagree",
		"proc/iomem, proc/zoneinfo and proc/meminfo disagree on the RAM "
		"(memory-inputs-disagree): which RAM the mask reaches cannot be known"),
	[VR_LAYOUT_UNKNOWN] = U(VR_LAYOUT_UNKNOWN, LAYOUT, 0, "memory layout",
		"memory layout unknown: which RAM the mask reaches cannot be known"),
	[VR_ALL_IN_REACH] = R(VR_ALL_IN_REACH, DIRECT, 0, "All RAM is within the device's reach", "all RAM within reach"),

	[VR_BLOCK_BOUNCES] = R(VR_BLOCK_BOUNCES, PARTIAL, 0, "the block layer before 5.13",
		"the block layer bounces pages above bounce_pfn"),
	[VR_BLOCK_NOTHING] = R(VR_BLOCK_NOTHING, DIRECT, 0, "bounce_pfn", "nothing to bounce"),
	[VR_BLOCK_NO_MASK] = U(VR_BLOCK_NO_MASK, MASK, 0, "highmem not bounced",
		"highmem not bounced by the block layer; no DMA mask to judge it"),
	[VR_BLOCK_MISSED_UNCHECKED] = R(VR_BLOCK_MISSED_UNCHECKED, FAILS, VR_MISSED_CORRUPTS, "32-bit ARM before 6.0",
		"RAM out of reach that the block layer does not bounce, and no mask "
		"check below it: DMA hits the wrong memory"),
	[VR_BLOCK_MISSED_LPAE_UNKNOWN] = U(VR_BLOCK_MISSED_LPAE_UNKNOWN, KERNEL, VR_OUT_OF_REACH, "not known to be LPAE",
		"RAM out of reach that the block layer does not bounce, on a 32-bit ARM "
		"kernel of 5.3-5.19 not known to be LPAE: arm_dma_ops would corrupt it, "
		"LPAE's dma-direct would bounce or fail it"),
	[VR_BLOCK_WINDOW_IGNORED] = R(VR_BLOCK_WINDOW_IGNORED, FAILS, VR_OUT_OF_REACH | VR_MISSED_CORRUPTS, "never reads",
		"RAM past the host bridge's dma-ranges window, which a kernel "
		"before 5.5 never reads (of_dma_get_range starts above it): "
		"nothing bounces it, DMA there goes astray"),
	[VR_BLOCK_WINDOW_ROUNDED] = R(VR_BLOCK_WINDOW_ROUNDED, FAILS, VR_OUT_OF_REACH | VR_MISSED_CORRUPTS, "rounded up to one",
		"RAM past the devicetree dma-ranges window that the block layer does "
		"not bounce, and from 4.20 to 5.4 dma_capable() checks the window "
		"rounded up to a power of two: DMA there goes astray"),
	[VR_BLOCK_WINDOW_MASK_ONLY] = R(VR_BLOCK_WINDOW_MASK_ONLY, FAILS, VR_OUT_OF_REACH | VR_MISSED_CORRUPTS, "compares with the mask alone",
		"RAM past the devicetree dma-ranges window that the block layer does "
		"not bounce, and before 4.20 dma_capable() checks only the mask: DMA "
		"there goes astray"),

	[VR_LOWMEM_ONLY_NET] = R(VR_LOWMEM_ONLY_NET, DIRECT, 0, "NETIF_F_HIGHDMA",
		"a network driver without NETIF_F_HIGHDMA on a highmem kernel: the network "
		"stack hands it lowmem only, all within reach"),
	[VR_ARM_NO_POOL_RELEASE_UNKNOWN] = R(VR_ARM_NO_POOL_RELEASE_UNKNOWN, FAILS, VR_OUT_OF_REACH, "release unknown",
		"RAM out of reach on 32-bit ARM with no swiotlb pool, kernel release "
		"unknown: arm_dma_ops (before 6.0) map it unchecked, dma-direct fails "
		"the mapping"),
	[VR_ARM_RELEASE_UNKNOWN] = U(VR_ARM_RELEASE_UNKNOWN, RELEASE, VR_OUT_OF_REACH, "32-bit ARM",
		"RAM out of reach on 32-bit ARM, kernel release unknown: arm_dma_ops "
		"(before 6.0, LPAE aside from 5.3) would corrupt it, dma-direct would "
		"bounce or fail it"),
	[VR_ARM_LPAE_UNKNOWN] = U(VR_ARM_LPAE_UNKNOWN, KERNEL, VR_OUT_OF_REACH, "32-bit ARM",
		"RAM out of reach on a 32-bit ARM kernel of 5.3-5.19 not known to be LPAE: "
		"arm_dma_ops would corrupt it, LPAE's dma-direct would fail the mapping"),
	[VR_ARM_NOT_LPAE_LOG] = R(VR_ARM_NOT_LPAE_LOG, FAILS, VR_OUT_OF_REACH | VR_MISSED_CORRUPTS, "arm_dma_map_page",
		"RAM out of reach, and this kernel is not LPAE (the boot log's SCTLR), so "
		"arm_dma_map_page() maps it without a reach check (no swiotlb): DMA hits the "
		"wrong memory"),
	[VR_ARM_NOT_LPAE_RELEASE] = R(VR_ARM_NOT_LPAE_RELEASE, FAILS, VR_OUT_OF_REACH | VR_MISSED_CORRUPTS, "arm_dma_map_page",
		"RAM out of reach, and this kernel is not LPAE (its release), so "
		"arm_dma_map_page() maps it without a reach check (no swiotlb): DMA hits the "
		"wrong memory"),
	[VR_ARM_UNCHECKED] = R(VR_ARM_UNCHECKED, FAILS, VR_OUT_OF_REACH | VR_MISSED_CORRUPTS, "arm_dma_map_page",
		"RAM out of reach, and arm_dma_map_page() maps it without a reach check "
		"(no swiotlb): DMA hits the wrong memory"),
	[VR_WINDOW_RELEASE_UNKNOWN] = U(VR_WINDOW_RELEASE_UNKNOWN, RELEASE, VR_OUT_OF_REACH, "*dma-ranges* window",
		"RAM past the devicetree dma-ranges window, kernel release unknown: from "
		"5.5 it bounces or fails, before 4.20 (or 5.5 for a host bridge's window) the "
		"mask alone is checked and DMA there goes astray"),
	[VR_WINDOW_IGNORED] = R(VR_WINDOW_IGNORED, FAILS, VR_OUT_OF_REACH | VR_MISSED_CORRUPTS, "never reads",
		"the mask reaches past the host bridge's dma-ranges window, which a "
		"kernel before 5.5 never reads (of_dma_get_range starts above it): "
		"DMA there goes astray"),
	[VR_WINDOW_ROUNDED] = R(VR_WINDOW_ROUNDED, FAILS, VR_OUT_OF_REACH | VR_MISSED_CORRUPTS, "rounded up to one",
		"the devicetree dma-ranges window does not end at a power of two, and "
		"from 4.20 to 5.4 the kernel's bus limit is the window rounded up to one: "
		"DMA past the window and below that goes astray"),
	[VR_WINDOW_MASK_ONLY] = R(VR_WINDOW_MASK_ONLY, FAILS, VR_OUT_OF_REACH | VR_MISSED_CORRUPTS, "compares with the mask alone",
		"the mask reaches past the devicetree dma-ranges window and, before 4.20, "
		"the kernel kept no bus limit to check: DMA there goes astray"),

	[VR_POOL_NOFORCE] = R(VR_POOL_NOFORCE, FAILS, VR_OUT_OF_REACH, "*swiotlb=noforce*",
		"RAM out of reach and swiotlb=noforce: the kernel never bounces, "
		"mappings there fail"),
	[VR_NO_POOL] = R(VR_NO_POOL, FAILS, VR_OUT_OF_REACH, "there is no pool the device can use",
		"RAM out of reach and no swiotlb pool: mappings there fail"),
	[VR_POOL_UNKNOWN] = U(VR_POOL_UNKNOWN, POOL, VR_OUT_OF_REACH, "swiotlb pool",
		"RAM out of reach; whether a swiotlb pool exists is unknown"),
	[VR_POOL_OUT_OF_REACH] = R(VR_POOL_OUT_OF_REACH, FAILS, VR_OUT_OF_REACH, "one itself out of reach",
		"RAM out of reach and the swiotlb pool is out of reach too"),
	[VR_POOL_DERIVED_OUT_OF_REACH] = R(VR_POOL_DERIVED_OUT_OF_REACH, FAILS, VR_OUT_OF_REACH, "one itself out of reach",
		"RAM out of reach, and the swiotlb pool, placed below its derived "
		"bound, is out of reach too"),
	[VR_POOL_REACH_PARTLY] = U(VR_POOL_REACH_PARTLY, POOL, VR_OUT_OF_REACH, "swiotlb pool",
		"RAM out of reach; the swiotlb pool lies below its derived bound, where "
		"only part of the RAM is within reach: whether it is is unknown"),
	[VR_POOL_REACH_UNKNOWN] = U(VR_POOL_REACH_UNKNOWN, POOL, VR_OUT_OF_REACH, "swiotlb pool",
		"RAM out of reach; whether the swiotlb pool is within reach is unknown"),
	[VR_BOUNCES] = R(VR_BOUNCES, PARTIAL, VR_OUT_OF_REACH, "a bounce buffer the device reaches",
		"RAM out of reach bounces through the swiotlb pool"),
	[VR_BOUNCES_DERIVED] = R(VR_BOUNCES_DERIVED, PARTIAL, VR_OUT_OF_REACH, "a bounce buffer the device reaches",
		"RAM out of reach bounces through the swiotlb pool (placed below "
		"its derived bound, all within reach)"),
};

const struct verdict_reason_info *verdict_reason_info(enum verdict_reason w)
{
	return w > _VR_NONE && w < _VR_MAX ? &catalogue[w] : NULL;
}
