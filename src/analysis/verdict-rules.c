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
struct verdict_decision decided_by_arm_dma_ops(const struct devices_input *in)
{
	int rule = era_value(ERA_STREAMING_MAP, in->release, in->arch_family, NULL);

	switch (arm_streaming_unchecked(in)) {
	case TRI_NO:
		return UNDECIDED; /* dma-direct: the pool decides */
	case TRI_UNKNOWN:
		/* no pool at an unknown release: arm_dma_ops corrupt, dma-direct fails; fails either way */
		if (in->release == 0 && in->sw->active == TRI_NO)
			return DECIDED(VR_ARM_NO_POOL_RELEASE_UNKNOWN);
		return DECIDED(in->release == 0 ? VR_ARM_RELEASE_UNKNOWN : VR_ARM_LPAE_UNKNOWN);
	default:
		break;
	}
	if (rule != STREAMING_ARM_LPAE_DIRECT)
		return DECIDED(VR_ARM_UNCHECKED);
	return DECIDED(in->sw->arm_lpae_source == ARM_LPAE_SOURCE_LOG ? VR_ARM_NOT_LPAE_LOG : VR_ARM_NOT_LPAE_RELEASE);
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

/* Devices whose DMA the DMA API never sees, or that do none. */
struct verdict_decision decided_outside_dma_api(const struct devices_input *in, const struct device_report *r)
{
	const struct device *d = r->dev;

	if (!d->driver)
		return DECIDED(VR_NO_DRIVER);
	if (r->bridge)
		return DECIDED(VR_BRIDGE);
	/* every platform/AMBA device has a default mask, DMA or not: only evidence
	 * (a disk, a NIC, a DMA-engine channel, a DT property...) makes it a master.
	 * PCI functions with a driver are judged: bus mastering is their norm */
	/* the signs are devicetree properties too: an unreadable node hides them */
	if (d->bus != DEV_BUS_PCI && d->dma_signs == 0)
		return DECIDED(device_dt(d)->err ? VR_SIGNS_DT_UNREADABLE : VR_NO_DMA_SIGN);
	/* an IOMMU's own DMA is its tables and queues, allocated coherent within the
	 * mask its driver took from the hardware (arm-smmu-v3.c: dma_set_mask_and_coherent
	 * to IDR5.OAS in arm_smmu_device_hw_probe, dmam_alloc_coherent queues):
	 * nothing is mapped for streaming, nothing bounces */
	if (d->dma_signs & (1u << DMA_SIGN_IOMMU_UNIT))
		return DECIDED(VR_IOMMU_UNIT);
	/* the refusal is printed only for a host controller that does no DMA or
	 * only from its own local memory: nothing of RAM is mapped for it */
	if (d->usb_storage_refused &&
	    era_value(ERA_USB_STORAGE_NO_DMA_HCD, in->release, in->arch_family, NULL) == USB_STORAGE_REFUSED)
		return DECIDED(VR_USB_STORAGE_REFUSED);
	if (no_dma_api_reason(d->driver))
		return (struct verdict_decision){ VR_NO_DMA_API, no_dma_api_reason(d->driver) };
	/* vring_use_dma_api(): without VIRTIO_F_ACCESS_PLATFORM, and not under Xen,
	 * virtio passes guest-physical addresses: no DMA API, so neither an IOMMU
	 * domain nor forced bouncing applies (swiotlb=force on Debian 6.1: no bounce) */
	if (opt_is(&d->virtio_access_platform, false) && in->m->hyp.type != HYPERVISOR_XEN)
		return DECIDED(VR_VIRTIO_BYPASS);
	return UNDECIDED;
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

struct verdict_decision decided_by_lowmem_only_net(const struct devices_input *in, const struct device_report *r)
{
	const struct device *d = r->dev;
	const struct layout *l = in->l;
	bool listed = false;

	for (size_t i = 0; d->driver && i < ARRAY_SIZE(lowmem_only_net); i++)
		listed |= strcmp(d->driver, lowmem_only_net[i].driver) == 0;
	if (!listed || !d->interfaces || r->has_block || !opt_is(&in->bits, 32) || !l->lowmem.known ||
	    l->lowmem.highmem_bytes == 0 || l->lowmem.end_pfn >= (UINT64_MAX >> l->page_shift) ||
	    r->direct.lowest_unreachable < l->lowmem.end_pfn << l->page_shift)
		return UNDECIDED;
	/* i386-pc-6g-bullseye: pcnet32 with 3 GiB above 4 GiB never bounced */
	return DECIDED(VR_LOWMEM_ONLY_NET);
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

/* Passthrough (identity) on Intel before 5.8: a small mask still gets translated. */
static struct verdict_decision decided_by_intel_fallback(const struct devices_input *in,
							 const struct device_report *r)
{
	enum iommu_vendor vendor;

	if (era_value(ERA_INTEL_IDENTITY_FALLBACK, in->release, in->arch_family, NULL) != 1 ||
	    below_required_mask(in, r) != TRI_YES)
		return UNDECIDED;
	vendor = iommu_vendor(in->m);
	if (vendor == IOMMU_VENDOR_AMD)
		return UNDECIDED; /* amd_iommu_add_device: identity is dma-direct, small mask or not */
	return DECIDED(vendor == IOMMU_VENDOR_INTEL ? VR_INTEL_FALLBACK : VR_FALLBACK_VENDOR_UNKNOWN);
}

/*
 * A group whose default domain the kernel does not show: no type file before
 * 4.19 (c52c72d3dee81), "unknown" for Intel before 5.3 (no default domains).
 * Groups exist only while the IOMMU is on; then iommu=pt (or
 * iommu.passthrough=1) decides.
 */
static struct verdict_decision decided_without_domain_type(const struct devices_input *in,
							   const struct device_report *r)
{
	if (!in->m->cmd.iommu_pt)
		return DECIDED(VR_NO_DOMAIN_TYPE);
	return decided_by_intel_fallback(in, r);
}

/* Xen PV and the IOMMU domain. */
struct verdict_decision decided_by_domain(const struct devices_input *in, const struct device_report *r)
{
	const struct device *d = r->dev;
	const struct swiotlb_state *sw = in->sw;

	if (sw->xen_pv)
		return DECIDED(sw->xen_pv_unknown ? VR_XEN_TYPE_UNKNOWN : VR_XEN_PV);
	if (in->arch_family == ARCH_S390 && d->bus == DEV_BUS_PCI &&
	    era_value(ERA_S390_PCI_DMA, in->release, in->arch_family, NULL) == S390_PCI_OWN_OPS)
		return DECIDED(VR_S390_ZPCI);
	if (d->iommu_domain == IOMMU_DOMAIN_DMA || d->iommu_domain == IOMMU_DOMAIN_DMA_FQ) {
		bool bounces = era_value(ERA_UNTRUSTED_BOUNCE, in->release, in->arch_family, NULL) >
			       UNTRUSTED_NOT_MODELLED;
		/* an untrusted device's unaligned buffers need a pool: unknown without one seen */
		if (bounces && !r->removable.known && sw->active != TRI_YES)
			return DECIDED(VR_UNTRUSTED_UNKNOWN);
		return DECIDED(opt_is(&r->removable, true) && bounces ? VR_TRANSLATED_UNTRUSTED : VR_TRANSLATED);
	}
	if (d->iommu_domain == IOMMU_DOMAIN_UNMANAGED || d->iommu_domain == IOMMU_DOMAIN_BLOCKED)
		return DECIDED(VR_DOMAIN_OWNED);
	if (d->iommu_group.known &&
	    (d->iommu_domain == IOMMU_DOMAIN_NONE || d->iommu_domain == IOMMU_DOMAIN_UNKNOWN))
		return decided_without_domain_type(in, r);
	if (d->iommu_domain == IOMMU_DOMAIN_IDENTITY)
		return decided_by_intel_fallback(in, r);
	return UNDECIDED;
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

/*
 * Who forces every mapping of this device to bounce: VR_FORCED with who in its
 * detail (the caller records it: an IORT-zeroed mask still decides first), a
 * case of unknown, or undecided.
 */
struct verdict_decision decided_by_forcing(const struct devices_input *in, const struct device_report *r)
{
	const struct device *d = r->dev;
	const struct swiotlb_state *sw = in->sw;

	/* the current row honours it: every mapping bounces, where before 5.15 reach decided */
	if (device_dt(d)->restricted_pool && !r->restricted_ignored && in->release == 0)
		return DECIDED(VR_RESTRICTED_RELEASE_UNKNOWN);
	if (device_dt(d)->restricted_pool && !r->restricted_ignored)
		return (struct verdict_decision){ VR_FORCED, "devicetree restricted-dma-pool (memory-region)" };
	if (sw->forced_unknown_why)
		return (struct verdict_decision){ VR_FORCING_UNKNOWN, sw->forced_unknown_why };
	if (sw->forced)
		return (struct verdict_decision){ VR_FORCED, sw->forced_why };
	if (sw->coco != COCO_SME_HOST || !r->dma_mask.known)
		return UNDECIDED;
	switch (below_sme_cbit(in->m->coco.cpuinfo_phys_bits, r->limit)) {
	case TRI_YES:
		return (struct verdict_decision){
			VR_FORCED, "AMD SME host: the C-bit in every bus address lies beyond the "
				   "device's limit, so every streaming mapping bounces" };
	case TRI_UNKNOWN:
		return DECIDED(in->m->coco.cpuinfo_phys_bits.known ? VR_SME_CBIT_UNKNOWN : VR_SME_PHYS_BITS_UNKNOWN);
	default:
		return UNDECIDED;
	}
}
