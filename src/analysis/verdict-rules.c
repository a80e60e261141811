/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The rules that decide a device's verdict before its reach is compared with
 * RAM, in the kernel's order: DMA outside the DMA API, the IOMMU domain, forced
 * bouncing; and 32-bit ARM's unchecked streaming mapping. Pure: no I/O.
 */
#include <string.h>

#include "analysis/eras.h"
#include "analysis/iommu-vendor.h"
#include "analysis/verdict-rules.h"
#include "shared/macro.h"

/*
 * An AMD SME host puts the C-bit in every bus address (phys_to_dma():
 * __sme_set(), include/linux/dma-direct.h; x86's own until 4.17), so
 * dma_capable() fails whenever the limit is below 2^cbit and every streaming
 * mapping bounces. The C-bit's position is not shown to Linux users; it lies
 * at or above the physical address bits cpuinfo shows (those exclude it) and
 * below bit 52. TRI_YES: below it, TRI_NO: above, TRI_UNKNOWN: cannot tell.
 */
static enum tristate below_sme_cbit(struct opt_u32 phys_bits, uint64_t limit)
{
	if (limit >= (1ull << 52) - 1)
		return TRI_NO;
	if (phys_bits.known && phys_bits.v > 0 && phys_bits.v < 52 && limit < (1ull << phys_bits.v))
		return TRI_YES;
	return TRI_UNKNOWN;
}

/*
 * 32-bit ARM before 6.0: whether streaming DMA goes through arm_dma_ops
 * (arm_dma_map_page: no reach check, no swiotlb) rather than dma-direct, which
 * 5.3-5.19 uses for LPAE kernels (ad3c7b18c5b3) and which a pool seen (LPAE or
 * Xen) proves. TRI_UNKNOWN when the era gives the choice and LPAE is unknown.
 */
enum tristate arm_streaming_unchecked(const struct devices_input *in)
{
	int rule = era_value(ERA_STREAMING_MAP, in->release, in->arch_family, NULL);

	if (in->arch_family != ARCH_ARM || in->sw->active == TRI_YES)
		return TRI_NO;
	/* the current row, dma-direct, is the optimistic reading of an unknown release */
	if (in->release == 0)
		return TRI_UNKNOWN;
	if (rule == STREAMING_DMA_DIRECT)
		return TRI_NO;
	if (rule == STREAMING_ARM_LPAE_DIRECT)
		return in->sw->arm_lpae == TRI_YES ? TRI_NO
		       : in->sw->arm_lpae == TRI_NO ? TRI_YES
						    : TRI_UNKNOWN;
	return TRI_YES;
}

/*
 * RAM out of reach on 32-bit ARM before 6.0: arm_dma_ops pass it to the
 * device unchecked (silent corruption) unless a 5.3+ LPAE kernel uses
 * dma-direct. True when that decided the verdict.
 */
bool decided_by_arm_dma_ops(const struct devices_input *in, struct device_report *r)
{
	int rule = era_value(ERA_STREAMING_MAP, in->release, in->arch_family, NULL);

	switch (arm_streaming_unchecked(in)) {
	case TRI_NO:
		return false; /* dma-direct: needs_pool() decides */
	case TRI_UNKNOWN:
		r->out_of_reach_decides = true;
		if (in->release == 0 && in->sw->active == TRI_NO) {
			/* no pool: arm_dma_ops corrupt, dma-direct fails; fails either way */
			r->verdict = VERDICT_FAILS;
			r->reason = "RAM out of reach on 32-bit ARM with no swiotlb pool, kernel release "
				    "unknown: arm_dma_ops (before 6.0) map it unchecked, dma-direct fails "
				    "the mapping";
			return true;
		}
		verdict_unknown(r, in->release == 0 ? UNKNOWN_CAUSE_RELEASE : UNKNOWN_CAUSE_KERNEL,
				in->release == 0
				    ? "RAM out of reach on 32-bit ARM, kernel release unknown: arm_dma_ops "
				      "(before 6.0, LPAE aside from 5.3) would corrupt it, dma-direct would "
				      "bounce or fail it"
				    : "RAM out of reach on a 32-bit ARM kernel of 5.3-5.19 not known to be LPAE: "
				      "arm_dma_ops would corrupt it, LPAE's dma-direct would fail the mapping");
		return true;
	default:
		break;
	}
	r->out_of_reach_decides = true;
	r->verdict = VERDICT_FAILS;
	r->missed_corrupts = true;
	r->reason = rule == STREAMING_ARM_LPAE_DIRECT && in->sw->arm_lpae_source == ARM_LPAE_SOURCE_LOG
			    ? "RAM out of reach, and this kernel is not LPAE (the boot log's SCTLR), so "
			      "arm_dma_map_page() maps it without a reach check (no swiotlb): DMA hits the "
			      "wrong memory"
		    : rule == STREAMING_ARM_LPAE_DIRECT
			    ? "RAM out of reach, and this kernel is not LPAE (its release), so "
			      "arm_dma_map_page() maps it without a reach check (no swiotlb): DMA hits the "
			      "wrong memory"
			    : "RAM out of reach, and arm_dma_map_page() maps it without a reach check "
			      "(no swiotlb): DMA hits the wrong memory";
	return true;
}

/* Drivers whose DMA never goes through the DMA API: no mask applies, nothing bounces. */
static const struct {
	const char *driver;
	const char *reason;
} no_dma_api[] = {
	/* drivers/firmware/qemu_fw_cfg.c fw_cfg_dma_transfer(): virt_to_phys() of a kmalloc'd
	 * descriptor written to the DMA register; QEMU's virt gives its node dma-coherent */
	{ "fw_cfg", "qemu_fw_cfg: DMA by physical address (virt_to_phys), no DMA API" },
};

static const char *no_dma_api_reason(const char *driver)
{
	for (size_t i = 0; driver && i < ARRAY_SIZE(no_dma_api); i++)
		if (strcmp(driver, no_dma_api[i].driver) == 0)
			return no_dma_api[i].reason;
	return NULL;
}

/* Devices whose DMA the DMA API never sees, or that do none: true when decided. */
bool decided_outside_dma_api(const struct devices_input *in, struct device_report *r)
{
	const struct device *d = r->dev;

	if (!d->driver) {
		r->verdict = VERDICT_IDLE;
		r->reason = "no driver bound: no DMA";
		return true;
	}
	if (r->bridge) {
		r->verdict = VERDICT_IDLE;
		r->reason = "bridge or host controller: forwards DMA, does none of its own";
		return true;
	}
	/* every platform/AMBA device has a default mask, DMA or not: only evidence
	 * (a disk, a NIC, a DMA-engine channel, a DT property...) makes it a master.
	 * PCI functions with a driver are judged: bus mastering is their norm */
	/* the signs are devicetree properties too: an unreadable node hides them */
	if (d->bus != DEV_BUS_PCI && d->dma_signs == 0 && device_dt(d)->err) {
		verdict_unknown(r, UNKNOWN_CAUSE_DEVICETREE,
				"devicetree unreadable: whether it does DMA cannot be known");
		return true;
	}
	if (d->bus != DEV_BUS_PCI && d->dma_signs == 0) {
		r->verdict = VERDICT_IDLE;
		r->reason = "no sign that it does DMA";
		return true;
	}
	/* an IOMMU's own DMA is its tables and queues, allocated coherent within the
	 * mask its driver took from the hardware (arm-smmu-v3.c: dma_set_mask_and_coherent
	 * to IDR5.OAS in arm_smmu_device_hw_probe, dmam_alloc_coherent queues):
	 * nothing is mapped for streaming, nothing bounces */
	if (d->dma_signs & (1u << DMA_SIGN_IOMMU_UNIT)) {
		r->verdict = VERDICT_DIRECT;
		r->reason = "an IOMMU: its own DMA (page tables, queues) is coherent memory allocated "
			    "within the mask its driver sets; nothing is mapped for streaming";
		return true;
	}
	/* the refusal is printed only for a host controller that does no DMA or
	 * only from its own local memory: nothing of RAM is mapped for it */
	if (d->usb_storage_refused &&
	    era_value(ERA_USB_STORAGE_NO_DMA_HCD, in->release, in->arch_family, NULL) == USB_STORAGE_REFUSED) {
		r->verdict = VERDICT_IDLE;
		r->reason = "usb-storage refused this host controller (boot log): on a CONFIG_HIGHMEM "
			    "kernel from 6.16 a controller without DMA, or with only its own local "
			    "memory, gets no USB disk; it maps no RAM";
		return true;
	}
	if (no_dma_api_reason(d->driver)) {
		r->verdict = VERDICT_DIRECT;
		r->reason = no_dma_api_reason(d->driver);
		return true;
	}
	/* vring_use_dma_api(): without VIRTIO_F_ACCESS_PLATFORM, and not under Xen,
	 * virtio passes guest-physical addresses: no DMA API, so neither an IOMMU
	 * domain nor forced bouncing applies (swiotlb=force on Debian 6.1: no bounce) */
	if (opt_is(&d->virtio_access_platform, false) && in->m->hyp.type != HYPERVISOR_XEN) {
		r->verdict = VERDICT_DIRECT;
		r->reason = "virtio without VIRTIO_F_ACCESS_PLATFORM: guest-physical addresses, "
			    "no DMA API";
		return true;
	}
	return false;
}

/*
 * Network drivers that never set NETIF_F_HIGHDMA. On a CONFIG_HIGHMEM kernel
 * the stack then hands them lowmem only: net/core/dev.c harmonize_features()
 * drops NETIF_F_SG when illegal_highdma() sees a highmem frag, and
 * validate_xmit_skb() linearises the skb into its kmalloc'd head; receive
 * buffers come from netdev_alloc_skb() (no __GFP_HIGHMEM). Drivers not listed
 * may set the flag (stmmac always does: stmmac_dvr_probe), which sysfs does
 * not show, so their reach is judged on all RAM.
 */
static const struct {
	const char *driver;
	const char *source;
} lowmem_only_net[] = {
	/* sets no dev->features at all (no SG either): every skb is linear */
	{ "pcnet32", "drivers/net/ethernet/amd/pcnet32.c pcnet32_probe1" },
};

bool decided_by_lowmem_only_net(const struct devices_input *in, struct device_report *r)
{
	const struct device *d = r->dev;
	const struct layout *l = in->l;
	bool listed = false;

	for (size_t i = 0; d->driver && i < ARRAY_SIZE(lowmem_only_net); i++)
		listed |= strcmp(d->driver, lowmem_only_net[i].driver) == 0;
	if (!listed || !d->interfaces || r->has_block || !opt_is(&in->bits, 32) || !l->lowmem.known ||
	    l->lowmem.highmem_bytes == 0 || l->lowmem.end_pfn >= (UINT64_MAX >> l->page_shift) ||
	    r->direct.lowest_unreachable < l->lowmem.end_pfn << l->page_shift)
		return false;
	/* i386-pc-6g-bullseye: pcnet32 with 3 GiB above 4 GiB never bounced */
	r->verdict = VERDICT_DIRECT;
	r->reason = "a network driver without NETIF_F_HIGHDMA on a highmem kernel: the network "
		    "stack hands it lowmem only, all within reach";
	return true;
}

/*
 * Whether the smaller of the two masks is below dma_get_required_mask():
 * the 2^n-1 covering the last RAM page (kernel/dma/direct.c
 * dma_direct_get_required_mask, from max_pfn - 1).
 */
static enum tristate below_required_mask(const struct devices_input *in, const struct device_report *r)
{
	const struct layout *l = in->l;

	if (!r->dma_mask.known || l->source == LAYOUT_SOURCE_NONE || l->end_pfn == 0)
		return TRI_UNKNOWN;
	uint64_t mask = r->coherent_mask.known && r->coherent_mask.v < r->dma_mask.v ? r->coherent_mask.v
									 : r->dma_mask.v;
	return mask < mask_covering((l->end_pfn - 1) << l->page_shift) ? TRI_YES : TRI_NO;
}

/* Passthrough (identity) on Intel before 5.8: a small mask still gets translated. True when decided. */
static bool decided_by_intel_fallback(const struct devices_input *in, struct device_report *r)
{
	enum iommu_vendor vendor;

	if (era_value(ERA_INTEL_IDENTITY_FALLBACK, in->release, in->arch_family, NULL) != 1 ||
	    below_required_mask(in, r) != TRI_YES)
		return false;
	vendor = iommu_vendor(in->m);
	if (vendor == IOMMU_VENDOR_AMD)
		return false; /* amd_iommu_add_device: identity is dma-direct, small mask or not */
	if (vendor == IOMMU_VENDOR_INTEL) {
		r->verdict = VERDICT_IOMMU;
		r->reason = "Intel IOMMU passthrough before 5.8: a mask below the end of RAM takes the "
			    "device out of the identity map into a translated domain";
		return true;
	}
	verdict_unknown(r, UNKNOWN_CAUSE_KERNEL,
			"IOMMU passthrough before 5.8 with a mask below the end of RAM: Intel's driver "
			"translates such a device, AMD's does not, and which IOMMU this is is unknown");
	return true;
}

/*
 * A group whose default domain the kernel does not show: no type file before
 * 4.19 (c52c72d3dee81), "unknown" for Intel before 5.3 (no default domains).
 * Groups exist only while the IOMMU is on; then iommu=pt (or
 * iommu.passthrough=1) decides.
 */
static bool decided_without_domain_type(const struct devices_input *in, struct device_report *r)
{
	if (!in->m->cmd.iommu_pt) {
		r->verdict = VERDICT_IOMMU;
		r->reason = "IOMMU group with no domain type shown (before 4.19, or Intel before 5.3), "
			    "and no passthrough on the command line: translated";
		return true;
	}
	return decided_by_intel_fallback(in, r);
}

/* Xen PV and the IOMMU domain: true when decided. */
bool decided_by_domain(const struct devices_input *in, struct device_report *r)
{
	const struct device *d = r->dev;
	const struct swiotlb_state *sw = in->sw;

	if (sw->xen_pv) {
		verdict_unknown(r, UNKNOWN_CAUSE_XEN,
				sw->xen_pv_unknown
				    ? "Xen guest whose type is unknown (no guest_type before 4.12): if PV, "
				      "xen-swiotlb bounces by machine addresses the guest cannot see"
				    : "Xen PV: xen-swiotlb bounces by machine addresses the guest cannot see");
		return true;
	}
	if (in->arch_family == ARCH_S390 && d->bus == DEV_BUS_PCI &&
	    era_value(ERA_S390_PCI_DMA, in->release, in->arch_family, NULL) == S390_PCI_OWN_OPS) {
		r->verdict = VERDICT_IOMMU;
		r->reason = "s390 PCI before 6.7: zPCI translates DMA itself (s390_pci_dma_ops)";
		return true;
	}
	if (d->iommu_domain == IOMMU_DOMAIN_DMA || d->iommu_domain == IOMMU_DOMAIN_DMA_FQ) {
		bool bounces = era_value(ERA_UNTRUSTED_BOUNCE, in->release, in->arch_family, NULL) >
			       UNTRUSTED_NOT_MODELLED;
		/* an untrusted device's unaligned buffers need a pool: unknown without one seen */
		if (bounces && !r->removable.known && sw->active != TRI_YES) {
			verdict_unknown(r, UNKNOWN_CAUSE_PORT,
					"translated IOMMU domain, but whether the device is untrusted "
					"(sysfs removable) is unknown: an untrusted device's unaligned "
					"buffers bounce, and no swiotlb pool is known to take them");
			return true;
		}
		r->verdict = VERDICT_IOMMU;
		r->untrusted = opt_is(&r->removable, true) && bounces;
		r->reason = r->untrusted ? "translated IOMMU domain, untrusted (external-facing): "
					   "buffers not aligned to the IOMMU page bounce through swiotlb"
					 : "translated IOMMU domain: I/O virtual addresses inside the mask";
		return true;
	}
	if (d->iommu_domain == IOMMU_DOMAIN_UNMANAGED || d->iommu_domain == IOMMU_DOMAIN_BLOCKED) {
		verdict_unknown(r, UNKNOWN_CAUSE_OWNER,
				"IOMMU domain unmanaged or blocked: its owner (VFIO) maps the DMA");
		return true;
	}
	if (d->iommu_group.known &&
	    (d->iommu_domain == IOMMU_DOMAIN_NONE || d->iommu_domain == IOMMU_DOMAIN_UNKNOWN))
		return decided_without_domain_type(in, r);
	if (d->iommu_domain == IOMMU_DOMAIN_IDENTITY)
		return decided_by_intel_fallback(in, r);
	return false;
}

/*
 * Why the kernel does not use the device's restricted-dma-pool, or NULL when
 * it does: the era, rmem_swiotlb_setup()'s refusals, and of_dma_configure_id()
 * setting it up only for a device without an IOMMU (no iommu_group link).
 */
const char *restricted_pool_ignored(const struct devices_input *in, const struct device *d)
{
	static const struct {
		const char *prop;
		const char *why;
	} refused[] = {
		{ "reusable", "restricted-dma-pool ignored: rmem_swiotlb_setup() refuses a reusable node" },
		{ "linux,cma-default", "restricted-dma-pool ignored: rmem_swiotlb_setup() refuses a "
				       "linux,cma-default node" },
		{ "linux,dma-default", "restricted-dma-pool ignored: rmem_swiotlb_setup() refuses a "
				       "linux,dma-default node" },
		{ "no-map", "restricted-dma-pool ignored: rmem_swiotlb_setup() refuses a no-map node" },
	};

	if (era_value(ERA_RESTRICTED_POOL, in->release, in->arch_family, NULL) != 1)
		return "restricted-dma-pool ignored: kernels before 5.15 have none";
	for (size_t i = 0; device_dt(d)->restricted_rejected && i < ARRAY_SIZE(refused); i++)
		if (strcmp(device_dt(d)->restricted_rejected, refused[i].prop) == 0)
			return refused[i].why;
	if (d->iommu_group.known)
		return "restricted-dma-pool ignored: the device is behind an IOMMU (of_dma_configure_id)";
	return NULL;
}

/* Who forces every mapping of this device to bounce (r->forced); true when decided otherwise. */
bool decided_by_forcing(const struct devices_input *in, struct device_report *r)
{
	const struct device *d = r->dev;
	const struct swiotlb_state *sw = in->sw;

	if (device_dt(d)->restricted_pool && !r->restricted_ignored && in->release == 0) {
		/* the current row honours it: every mapping bounces, where before 5.15 reach decided */
		verdict_unknown(r, UNKNOWN_CAUSE_RELEASE,
				"devicetree restricted-dma-pool, kernel release unknown: honoured from 5.15 "
				"(every mapping bounces through it), ignored before");
		return true;
	}
	if (device_dt(d)->restricted_pool && !r->restricted_ignored) {
		r->forced = true;
		r->forced_why = "devicetree restricted-dma-pool (memory-region)";
	} else if (sw->forced_unknown_why) {
		verdict_unknown(r, UNKNOWN_CAUSE_RELEASE, sw->forced_unknown_why);
		return true;
	} else if (sw->forced) {
		r->forced = true;
		r->forced_why = sw->forced_why;
	} else if (sw->coco == COCO_SME_HOST && r->dma_mask.known) {
		switch (below_sme_cbit(in->m->coco.cpuinfo_phys_bits, r->limit)) {
		case TRI_YES:
			r->forced = true;
			r->forced_why = "AMD SME host: the C-bit in every bus address lies beyond the "
					"device's limit, so every streaming mapping bounces";
			break;
		case TRI_UNKNOWN:
			verdict_unknown(r, UNKNOWN_CAUSE_HARDWARE,
					in->m->coco.cpuinfo_phys_bits.known
					    ? "AMD SME host: the device's limit lies between the physical "
					      "address bits and bit 52; the C-bit's position, not visible "
					      "from Linux, decides whether every mapping bounces"
					    : "AMD SME host: the physical address bits (proc/cpuinfo) are "
					      "unknown, so whether the C-bit lies beyond the limit is unknown");
			return true;
		default:
			break;
		}
	}
	return false;
}
