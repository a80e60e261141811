/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * swiotlb facts from what the machine shows, best evidence first: debugfs
 * counters, the boot log, the command line, and only then the architecture's
 * default (marked assumed).
 */
#include <string.h>

#include "analysis/coco.h"
#include "analysis/eras.h"
#include "analysis/iommu-vendor.h"
#include "analysis/swiotlb-state.h"
#include "shared/macro.h"
#include "shared/sat.h"

/* Whether swiotlb='s words disable bouncing, as one reading of ERA_SWIOTLB_PARAM adds them up. */
static bool reading_disables(const struct cmdline_params *c, int rule)
{
	if (rule == SWIOTLB_PARAM_LAST_WORD)
		return c->swiotlb_last_word == SWIOTLB_WORD_NOFORCE;
	return c->swiotlb_noforce || (rule == SWIOTLB_PARAM_AREAS && c->swiotlb_noforce_areas);
}

/* Whether they force it: from 5.19 noforce, anywhere on the line, wins. */
static bool reading_forces(const struct cmdline_params *c, int rule)
{
	if (rule == SWIOTLB_PARAM_LAST_WORD)
		return c->swiotlb_last_word == SWIOTLB_WORD_FORCE;
	return !reading_disables(c, rule) &&
	       (c->swiotlb_force || (rule == SWIOTLB_PARAM_AREAS && c->swiotlb_force_areas));
}

/*
 * What swiotlb= says on this release; with the release unknown, the current
 * reading, and forced_unknown_why when another era's would force otherwise.
 */
static void cmdline_words(const struct machine *m, uint32_t release, struct swiotlb_state *s)
{
	static const int readings[] = { SWIOTLB_PARAM_LAST_WORD, SWIOTLB_PARAM_NOFORCE_WINS,
					SWIOTLB_PARAM_AREAS };
	int rule = era_value(ERA_SWIOTLB_PARAM, release, ANY_ARCH, NULL);

	s->cmdline_force = reading_forces(&m->cmd, rule);
	s->cmdline_noforce = reading_disables(&m->cmd, rule);
	for (size_t i = 0; release == 0 && i < ARRAY_SIZE(readings); i++)
		if (reading_forces(&m->cmd, readings[i]) != s->cmdline_force)
			s->forced_unknown_why = "kernel release unknown: how swiotlb= adds up its force "
						"and noforce words (and an <areas> field before them) "
						"changed in 5.19 and 6.0";
}

/* The one place that decides whether every dma-direct mapping bounces. */
static void forced(const struct machine *m, enum coco_kind coco, uint32_t release,
		   struct swiotlb_state *s)
{
	if (s->cmdline_force)
		s->forced_why = "swiotlb=force on the command line";
	else if (coco == COCO_SEV_GUEST)
		s->forced_why = "AMD SEV guest: all DMA bounces through swiotlb";
	else if (coco == COCO_TDX_GUEST)
		s->forced_why = "Intel TDX guest: all DMA bounces through swiotlb";
	else if (coco == COCO_CCA_REALM)
		s->forced_why = "Arm CCA realm: all DMA bounces through swiotlb";
	else if (coco == COCO_HYPERV_ISOLATED && release == 0)
		/* the isolation line is older than the forcing (5.12's CPUID leaf, 5.17's SWIOTLB_FORCE) */
		s->forced_unknown_why = "kernel release unknown: a Hyper-V isolated VM bounces all DMA "
					"through swiotlb from 5.17, not before";
	else if (coco == COCO_HYPERV_ISOLATED && era_value(ERA_HYPERV_FORCE, release, ANY_ARCH, NULL))
		s->forced_why = "Hyper-V isolated VM: all DMA bounces through swiotlb";
	else if (coco == COCO_S390_PV)
		/* arch/s390/mm/init.c pv_init(): swiotlb_init(true, SWIOTLB_FORCE) (5.2) */
		s->forced_why = "s390 protected-virtualization guest: all dma-direct DMA bounces through "
				"swiotlb";
	/* a confidential guest bounces whatever swiotlb= says, in every era */
	if (s->forced_why && !s->cmdline_force)
		s->forced_unknown_why = NULL;
	s->forced = s->forced_why != NULL;
}

/*
 * pci_iommu_init() (arch/x86/kernel/pci-dma.c) frees the pool when the IOMMU
 * driver cleared swiotlb ("An IOMMU turned us off"): Intel's
 * intel_iommu_init() always before 5.4, then only without untrusted devices
 * (unknown here: removable is 5.14+) until 5.8; AMD's amd_iommu_init_dma_ops()
 * unless passthrough or SME, until 121660bba631 (5.19). IOMMU groups show the
 * driver came up. True when that decided.
 */
/*
 * Whether the default domain is identity (iommu_default_passthrough()):
 * CONFIG_IOMMU_DEFAULT_PASSTHROUGH shows only in the groups. Every group with a
 * type says identity: AMD gives IOMMUv2 devices (its GPUs) identity whatever the
 * default (amd_iommu_def_domain_type), so one identity group among translated
 * ones is not the default. TRI_UNKNOWN when no group shows a type (before 4.19).
 */
static enum tristate groups_default_identity(const struct machine *m)
{
	size_t identity = 0, translated = 0;

	for (size_t i = 0; i < m->n_devices; i++) {
		const struct device *d = &m->devices[i];
		if (!d->iommu_group.known)
			continue;
		identity += d->iommu_domain == IOMMU_DOMAIN_IDENTITY;
		translated += d->iommu_domain == IOMMU_DOMAIN_DMA || d->iommu_domain == IOMMU_DOMAIN_DMA_FQ;
	}
	return translated ? TRI_NO : identity ? TRI_YES : TRI_UNKNOWN;
}

/* AMD before 5.19 keeps the pool only in passthrough; true when that decided. */
static bool amd_dropped_pool(const struct machine *m, uint32_t release, struct swiotlb_state *s)
{
	enum tristate identity = groups_default_identity(m);

	if (m->cmd.iommu_pt)
		return false;
	if (era_value(ERA_AMD_PASSTHROUGH, release, ANY_ARCH, NULL) == 1 && identity == TRI_YES) {
		/* iommu_default_passthrough(): the pool stays */
		return false;
	}
	s->active = TRI_NO;
	s->active_why = era_value(ERA_AMD_PASSTHROUGH, release, ANY_ARCH, NULL) != 1
				? "the AMD IOMMU driver before 5.4 frees the pool unless iommu=pt"
			: identity == TRI_NO
				? "the AMD IOMMU driver frees the pool (before 5.19): the default domain is "
				  "translated (IOMMU group types), not passthrough"
				: "assumed: the AMD IOMMU driver frees the pool unless the default domain is "
				  "passthrough (before 5.19), and no group shows its type";
	if (identity != TRI_UNKNOWN || era_value(ERA_AMD_PASSTHROUGH, release, ANY_ARCH, NULL) != 1)
		s->active_prov = PROV_DERIVED;
	return true;
}

static bool iommu_dropped_pool(const struct machine *m, uint32_t release, struct swiotlb_state *s)
{
	int rule = era_value(ERA_IOMMU_DROPS_POOL, release, ANY_ARCH, NULL);
	enum iommu_vendor vendor = iommu_vendor(m);

	if (!m->iommu_groups_present)
		return false;
	/* the current row keeps the pool: the optimistic reading of an unknown release */
	if (release == 0 && !(vendor == IOMMU_VENDOR_AMD && m->cmd.iommu_pt)) {
		s->active = TRI_UNKNOWN;
		s->active_why = "kernel release unknown: an x86 IOMMU driver before 5.19 (5.15.46, "
				"5.17.14, 5.18.3) frees the pool (Intel's before 5.8, AMD's unless passthrough)";
		return true;
	}
	if (rule == IOMMU_POOL_KEPT)
		return false;
	if (vendor == IOMMU_VENDOR_AMD)
		return amd_dropped_pool(m, release, s);
	if (vendor == IOMMU_VENDOR_INTEL && rule == IOMMU_POOL_DROPPED_BOTH) {
		s->active = TRI_NO;
		s->active_why = "assumed: the Intel IOMMU driver frees the pool (before 5.4)";
		return true;
	}
	if (vendor == IOMMU_VENDOR_INTEL && rule == IOMMU_POOL_DROPPED_AMD_INTEL_UNTRUSTED) {
		s->active = TRI_UNKNOWN;
		s->active_why = "the Intel IOMMU driver of 5.4-5.7 frees the pool unless untrusted "
				"devices exist, which this kernel does not show";
		return true;
	}
	if (vendor == IOMMU_VENDOR_UNKNOWN) {
		s->active = TRI_UNKNOWN;
		s->active_why = "an IOMMU driver of this era may free the pool, and which one is unknown";
		return true;
	}
	return false;
}

/* The end PFN of the populated zone called name (the highest over nodes), 0 when none is. */
static uint64_t zone_end_pfn(const struct layout *l, const char *name)
{
	uint64_t end = 0;

	for (size_t i = 0; i < l->n_zones; i++) {
		const struct zone *z = &l->zones[i];
		if (z->populated && strcmp(z->name, name) == 0 && sat_add(z->start_pfn, z->spanned) > end)
			end = sat_add(z->start_pfn, z->spanned);
	}
	return end;
}

/*
 * arm64_dma_phys_limit (arch/arm64/mm/init.c zone_sizes_init): the end of
 * ZONE_DMA (zone_dma_bits from the smallest dma-ranges, 5.5+; the 32-bit
 * ZONE_DMA before), else of ZONE_DMA32. zoneinfo shows where that zone ends:
 * at the limit when RAM goes beyond it, at the end of RAM otherwise (max_zone_phys
 * caps it there). 0 when it shows neither; *ret_name the zone's name.
 */
static uint64_t arm64_dma_zone_end_pfn(const struct layout *l, const char **ret_name)
{
	static const char *const names[] = { "DMA", "DMA32" };

	for (size_t n = 0; n < ARRAY_SIZE(names); n++) {
		uint64_t end = zone_end_pfn(l, names[n]);
		if (end) {
			*ret_name = names[n];
			return end;
		}
	}
	return 0;
}

/* arm64 mem_init(): swiotlb = max_pfn > PFN_DOWN(arm64_dma_phys_limit); 4 GiB when zoneinfo shows no DMA zone. */
static uint64_t arm64_dma_limit_pfn(const struct layout *l, uint64_t pfn_4g)
{
	const char *name;
	uint64_t end = arm64_dma_zone_end_pfn(l, &name);

	return end ? end : pfn_4g;
}

/*
 * Whether the kernel has ZONE_DMA or ZONE_DMA32: zoneinfo prints every zone
 * of every node, populated or not (mm/vmstat.c zoneinfo_show). Without either
 * (CONFIG_ZONE_DMA and CONFIG_ZONE_DMA32 both off) arm64_dma_phys_limit is
 * PHYS_MASK + 1 in every release whose mem_init() compares max_pfn with it
 * (arch/arm64/mm/init.c: arm64_memblock_init's "else" in 4.x-5.10, then
 * zone_sizes_init's fallback, then the variable's initialiser), so no RAM
 * lies beyond it. TRI_UNKNOWN without zoneinfo.
 */
static enum tristate arm64_dma_zones(const struct layout *l)
{
	if (l->n_zones == 0)
		return TRI_UNKNOWN;
	for (size_t i = 0; i < l->n_zones; i++)
		if (strcmp(l->zones[i].name, "DMA") == 0 || strcmp(l->zones[i].name, "DMA32") == 0)
			return TRI_YES;
	return TRI_NO;
}

/* A "-NAME" flavour in release, ending there or at '+' or '-' ("5.10.103-v7l+", "6.1.0-rpi7-rpi-v7"). */
static bool release_flavour(const char *rel, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = rel; (p = strstr(p, name)); p += n)
		if (p > rel && p[-1] == '-' && (p[n] == '\0' || p[n] == '+' || p[n] == '-'))
			return true;
	return false;
}

/*
 * Whether a 32-bit ARM kernel is LPAE. The boot log's control register says
 * it: __v7_setup loads SCTLR from v7_crval, whose 3-level (LPAE) form sets
 * bit 29, AFE ("mmuset=0x30c03c7d", proc-v7-3level.S) and whose 2-level form
 * clears it ("clear=0x2120c302", proc-v7-2level.S; Debian's 6.1 armmp-lpae
 * prints cr=30c5387d, armmp cr=10c5387d). Without the line: the release's
 * flavour, Debian "-armmp-lpae" / "-armmp", Raspberry Pi "-v7l" (bcm2711_defconfig:
 * CONFIG_ARM_LPAE=y) / "-v7" and "-v6" (bcm2709, bcmrpi: none); RAM above 4 GiB,
 * which only an LPAE kernel keeps (arm_add_memory ignores it without
 * PHYS_ADDR_T_64BIT).
 */
static void arm_lpae(const struct machine *m, const struct layout *l, struct swiotlb_state *s)
{
	const char *rel = m->release.value;

	if (m->arm_cr.known) {
		bool afe = m->arm_cr.v & (UINT32_C(1) << 29);
		s->arm_lpae = afe ? TRI_YES : TRI_NO;
		s->arm_lpae_source = ARM_LPAE_SOURCE_LOG;
		s->arm_lpae_why = afe ? "kernel log: CPU cr= has SCTLR.AFE (bit 29), set only by the "
					"LPAE page tables (proc-v7-3level.S)"
				      : "kernel log: CPU cr= has SCTLR.AFE (bit 29) clear: 2-level page "
					"tables (proc-v7-2level.S), not LPAE";
	} else if (rel && (strstr(rel, "lpae") || release_flavour(rel, "v7l"))) {
		s->arm_lpae = TRI_YES;
		s->arm_lpae_source = ARM_LPAE_SOURCE_RELEASE;
		s->arm_lpae_why = "release: an LPAE flavour (Debian -armmp-lpae, Raspberry Pi -v7l)";
	} else if (l->source != LAYOUT_SOURCE_NONE && l->page_shift &&
		   l->end_pfn > ((1ull << 32) >> l->page_shift)) {
		s->arm_lpae = TRI_YES;
		s->arm_lpae_source = ARM_LPAE_SOURCE_RAM;
		s->arm_lpae_why = "RAM above 4 GiB, which only an LPAE kernel keeps";
	} else if (rel && (release_flavour(rel, "armmp") || release_flavour(rel, "v7") ||
			   release_flavour(rel, "v6"))) {
		s->arm_lpae = TRI_NO;
		s->arm_lpae_source = ARM_LPAE_SOURCE_RELEASE;
		s->arm_lpae_why = "release: a flavour without LPAE (Debian -armmp, Raspberry Pi -v7, -v6)";
	} else {
		s->arm_lpae = TRI_UNKNOWN;
		s->arm_lpae_why = "neither the kernel log's CPU line nor the release says whether it is LPAE";
	}
}

/*
 * Whether max_pfn > arm_dma_pfn_limit (arch/arm/mm/init.c mem_init, 5.13+).
 * arm_dma_pfn_limit is (PHYS_OFFSET + mdesc->dma_zone_size - 1) >> PAGE_SHIFT,
 * or 0xffffffff >> PAGE_SHIFT without a dma_zone_size or CONFIG_ZONE_DMA
 * (arch/arm/mm/mm.h: ~0ul >> PAGE_SHIFT); zone_sizes_init() ends ZONE_DMA at
 * min(arm_dma_pfn_limit, max_low), so zoneinfo shows it unless ZONE_DMA
 * takes all of lowmem and highmem lies above.
 */
static enum tristate arm_ram_above_dma_limit(const struct layout *l)
{
	uint64_t pfn_4g = (1ull << 32) >> l->page_shift;
	bool have_dma = false;

	for (size_t i = 0; i < l->n_zones; i++)
		have_dma = have_dma || strcmp(l->zones[i].name, "DMA") == 0;
	if (l->n_zones == 0 || !l->lowmem.known)
		return TRI_UNKNOWN;
	if (!have_dma) /* no CONFIG_ZONE_DMA */
		return l->end_pfn > pfn_4g - 1 ? TRI_YES : TRI_NO;
	uint64_t dma_end = zone_end_pfn(l, "DMA");
	if (dma_end == 0)
		return TRI_UNKNOWN;
	if (dma_end < l->lowmem.end_pfn) /* the limit itself: ZONE_NORMAL lies above it */
		return l->end_pfn > dma_end ? TRI_YES : TRI_NO;
	if (l->end_pfn <= dma_end) /* all RAM in ZONE_DMA: the limit is at or past max_pfn */
		return TRI_NO;
	return TRI_UNKNOWN;
}

/* 32-bit ARM: no swiotlb but an LPAE kernel's from 5.3 (Xen's aside). */
static void arm_default(const struct layout *l, uint32_t release, struct swiotlb_state *s)
{
	int rule = era_value(ERA_ARM_LPAE_POOL, release, ARCH_ARM, NULL);

	s->active_prov = PROV_ASSUMED;
	if (rule == ARM_POOL_NONE || rule < 0) {
		s->active = TRI_NO;
		s->active_why = "assumed: 32-bit ARM streaming DMA uses no swiotlb (no LPAE/Xen seen)";
	} else if (s->arm_lpae == TRI_NO) {
		s->active = TRI_NO;
		s->active_prov = PROV_DERIVED;
		s->active_why = "32-bit ARM without LPAE: mem_init() allocates no pool (ARM_LPAE only)";
	} else if (s->arm_lpae == TRI_UNKNOWN) {
		s->active = TRI_UNKNOWN;
		s->active_why = "32-bit ARM from 5.3: only an LPAE kernel allocates a pool, and whether "
				"this one is LPAE is unknown";
	} else if (rule == ARM_POOL_ALWAYS) {
		s->active = TRI_YES;
		s->active_why = "assumed: an LPAE kernel of 5.3-5.12 always allocates the pool "
				"(mem_init: swiotlb_init(1))";
	} else if (release == 0 && (l->source == LAYOUT_SOURCE_NONE || !l->page_shift ||
				    arm_ram_above_dma_limit(l) != TRI_NO)) {
		/* 5.13+ allocates one for RAM beyond the limit, a kernel before 5.3 none */
		s->active = TRI_UNKNOWN;
		s->active_why = "kernel release unknown: an LPAE kernel of 5.3+ allocates a pool (5.13+ "
				"only for RAM beyond arm_dma_pfn_limit), a kernel before 5.3 none";
	} else {
		s->active = l->source == LAYOUT_SOURCE_NONE || !l->page_shift ? TRI_UNKNOWN
										 : arm_ram_above_dma_limit(l);
		s->active_why = s->active == TRI_YES
					? "assumed: RAM beyond arm_dma_pfn_limit makes an LPAE kernel allocate the "
					  "pool (mem_init, 5.13+)"
				: s->active == TRI_NO
					? "assumed: no RAM beyond arm_dma_pfn_limit, an LPAE kernel of 5.13+ "
					  "allocates no pool"
					: "an LPAE kernel of 5.13+ allocates a pool only for RAM beyond "
					  "arm_dma_pfn_limit, which zoneinfo does not show here";
	}
}

/*
 * The kmalloc-bouncing pool arm64 (6.7+) and riscv (6.10+) size for
 * themselves: min(default, DIV_ROUND_UP(memblock_phys_mem_size(), 1024)),
 * in whole 128-slot segments.
 */
static uint64_t kmalloc_pool_bytes(const struct layout *l)
{
	uint64_t seg = (uint64_t)IO_TLB_SEGSIZE << IO_TLB_SHIFT;
	uint64_t want = (l->ram_bytes + 1023) / 1024;

	want = (want + seg - 1) / seg * seg;
	return want < IO_TLB_DEFAULT_BYTES ? want : IO_TLB_DEFAULT_BYTES;
}

/*
 * riscv mem_init(): above dma32_phys_limit (min(4 GiB, max_low_pfn), an
 * absolute address), or from 6.10 a RAM/1024 pool when DMA is non-coherent.
 */
static void riscv_default(const struct machine *m, const struct layout *l, uint32_t release, int rule,
			  uint64_t pfn_4g, struct swiotlb_state *s)
{
	if (l->end_pfn > pfn_4g) {
		s->active = TRI_YES;
		s->active_why = "assumed: RAM above 4 GiB makes riscv allocate the default pool";
		return;
	}
	if (rule != ARCH_POOL_ABOVE_OR_NONCOHERENT || opt_is(&m->riscv_noncoherent, false)) {
		s->active = TRI_NO;
		s->active_why = rule == ARCH_POOL_ABOVE_OR_NONCOHERENT
					? "assumed: no RAM above 4 GiB and coherent DMA (no Zicbom in "
					  "proc/cpuinfo), riscv allocates no pool"
					: "assumed: no RAM above 4 GiB, riscv allocates no pool";
		return;
	}
	if (!m->riscv_noncoherent.known) {
		s->active = TRI_UNKNOWN;
		s->active_why = "riscv 6.10+ allocates a pool for non-coherent DMA, and proc/cpuinfo "
				"does not say whether this machine's is";
		return;
	}
	if (release == 0) {
		/* the current row's pool is the optimistic reading: 5.14-6.9 have none here */
		s->active = TRI_UNKNOWN;
		s->active_why = "kernel release unknown: riscv 6.10+ allocates a pool for non-coherent "
				"DMA, 5.14-6.9 none without RAM above 4 GiB";
		return;
	}
	s->active = TRI_YES;
	s->active_prov = PROV_DERIVED;
	s->active_why = "riscv 6.10+ with non-coherent DMA (Zicbom or T-Head CMOs in proc/cpuinfo) "
			"allocates a pool for unaligned kmalloc buffers";
	s->assumed_bytes = kmalloc_pool_bytes(l);
}

/* 32-bit x86 by era: none before 4.19, any RAM 4.19-5.6, above 4 GiB from 5.7 (and
 * stable 4.19.126, 5.4.44, 5.6.16). True when decided. */
static bool x86_32_default(const struct layout *l, uint32_t release, uint64_t pfn_4g,
			   struct swiotlb_state *s)
{
	switch (era_value(ERA_X86_32_POOL, release, ARCH_X86, NULL)) {
	case X86_32_POOL_NONE:
		s->active = TRI_NO;
		s->active_prov = PROV_DERIVED;
		s->active_why = "32-bit x86 before 4.19 allocates no pool (pci_swiotlb_detect_4gb is "
				"64-bit only): nommu_dma_ops";
		return true;
	case X86_32_POOL_ALWAYS:
		if (l->end_pfn > pfn_4g)
			return false;
		/* the stable releases that took 88743470668e have their own rows */
		s->active = TRI_YES;
		s->active_why = "assumed: 32-bit x86 of 4.19-5.6 without 88743470668e allocates the "
				"pool whatever the RAM (MAX_DMA32_PFN overflows to 0)";
		return true;
	case X86_32_POOL_ABOVE_4G:
		if (release != 0 || l->end_pfn <= pfn_4g)
			return false;
		/* the current row's pool above 4 GiB is the optimistic reading */
		s->active = TRI_UNKNOWN;
		s->active_why = "kernel release unknown: 32-bit x86 allocates a pool for RAM above 4 GiB "
				"from 4.19, none before (pci_swiotlb_detect_4gb was 64-bit only)";
		return true;
	default:
		return false;
	}
}

/*
 * x86-64 with no RAM above 4 GiB: pci_swiotlb_detect() (arch/x86/kernel/pci-dma.c;
 * pci_swiotlb_detect_4gb in pci-swiotlb.c before 5.19) tests "max_possible_pfn >
 * MAX_DMA32_PFN", and every enabled SRAT memory range, hot-pluggable ones
 * included, raises max_possible_pfn to PFN_UP(end - 1)
 * (drivers/acpi/numa/srat.c acpi_numa_memory_affinity_init): a VM with 2 GiB
 * present and a hotplug range above 4 GiB has a pool. Unknown without the SRAT.
 */
static void x86_possible_pfn(const struct machine *m, uint64_t pfn_4g, struct swiotlb_state *s)
{
	if (!m->srat_mem_end.known) {
		s->active = TRI_UNKNOWN;
		s->active_why = "no RAM above 4 GiB, but x86 decides on max_possible_pfn, which the ACPI "
				"SRAT's hot-pluggable ranges raise, and sys/firmware/acpi/tables/SRAT was not "
				"read (root only; absent without NUMA)";
		return;
	}
	uint64_t end = m->srat_mem_end.v;
	/* PFN_UP(end - 1) with 4 KiB pages */
	bool above = end && ((end - 1) >> 12) + (((end - 1) & 0xfff) != 0) > pfn_4g;
	s->active = above ? TRI_YES : TRI_NO;
	s->active_prov = PROV_DERIVED;
	s->active_why = above ? "ACPI SRAT: a memory range (hot-pluggable) ends above 4 GiB, so "
				"max_possible_pfn does and x86 allocates the default pool"
			      : "no RAM and no ACPI SRAT memory range above 4 GiB: x86 allocates no pool";
}

/* x86 pci_swiotlb_detect() / arm64 mem_init(): a pool when RAM is above the DMA32 limit. */
static void arch_default(const struct machine *m, const struct layout *l, uint32_t release,
			 enum coco_kind coco, struct swiotlb_state *s)
{
	const struct arch_info *ai = m->arch_info;
	uint64_t pfn_4g = l->page_shift ? (1ull << 32) >> l->page_shift : 0;

	s->active_prov = PROV_ASSUMED;
	if (ai && ai->family == ARCH_ARM) {
		arm_default(l, release, s);
		return;
	}
	int arch_pool = ai ? era_value(ERA_ARCH_POOL, release, ai->family, NULL) : ARCH_POOL_UNKNOWN;
	if (!ai || l->source == LAYOUT_SOURCE_NONE || arch_pool <= ARCH_POOL_UNKNOWN) {
		s->active = TRI_UNKNOWN;
		s->active_why = "no kernel log or debugfs, and no default known for this architecture";
		return;
	}
	if (arch_pool == ARCH_POOL_ALWAYS) {
		s->active = TRI_YES;
		s->active_why = ai->family == ARCH_ARM64
					? "assumed: arm64 before 4.8 always allocates the pool (mem_init: "
					  "swiotlb_init(1))"
					: "assumed: riscv before 5.14 always allocates the pool (setup_arch: "
					  "swiotlb_init(1))";
		return;
	}
	if (ai->family == ARCH_RISCV) {
		riscv_default(m, l, release, arch_pool, pfn_4g, s);
		return;
	}
	/* pci_swiotlb_detect() (pci-swiotlb.c pci_swiotlb_detect_4gb before 5.19):
	 * "if (cc_platform_has(CC_ATTR_HOST_MEM_ENCRYPT)) x86_swiotlb_enable = true"
	 * (sme_active() 4.14-5.15) stands outside the !no_iommu test: an SME host
	 * has a pool whatever its RAM and iommu= */
	if (ai->family == ARCH_X86 && coco == COCO_SME_HOST) {
		s->active = TRI_YES;
		s->active_prov = PROV_DERIVED;
		s->active_why = "AMD SME host: x86 allocates the pool whatever the RAM size";
		return;
	}
	if (ai->family == ARCH_X86 && m->cmd.iommu_soft) {
		s->active = TRI_YES;
		s->active_prov = PROV_DERIVED;
		s->active_why = "iommu=soft on the command line: x86 allocates the pool";
		return;
	}
	/* iommu=off sets no_iommu and no pool is allocated (seen on Debian 6.1) */
	if (ai->family == ARCH_X86 && m->cmd.iommu_off) {
		s->active = TRI_NO;
		s->active_prov = PROV_DERIVED;
		s->active_why = "iommu=off on the command line: x86 allocates no pool";
		return;
	}
	if (ai->family == ARCH_X86 && ai->bits == 32 && x86_32_default(l, release, pfn_4g, s))
		return;
	uint64_t limit_pfn = ai->family == ARCH_ARM64 ? arm64_dma_limit_pfn(l, pfn_4g) : pfn_4g;
	int kmalloc = era_value(ERA_KMALLOC_POOL, release, ai->family, NULL);
	enum tristate dma_zones = ai->family == ARCH_ARM64 ? arm64_dma_zones(l) : TRI_YES;
	if (dma_zones == TRI_NO)
		limit_pfn = UINT64_MAX;
	if (dma_zones == TRI_UNKNOWN && l->end_pfn > pfn_4g && kmalloc == KMALLOC_POOL_NONE) {
		/* 4 GiB is the limit only with a DMA zone; without one there is no pool */
		s->active = TRI_UNKNOWN;
		s->active_why = "RAM above 4 GiB makes arm64 allocate a pool only if the kernel has "
				"ZONE_DMA or ZONE_DMA32, and proc/zoneinfo is unreadable";
		return;
	}
	if (l->end_pfn <= limit_pfn && kmalloc != KMALLOC_POOL_NONE && release == 0) {
		/* the current row's pool is the optimistic reading: before 6.5 there is none */
		s->active = TRI_UNKNOWN;
		s->active_why = "kernel release unknown: arm64 6.5+ keeps a pool for bouncing unaligned "
				"kmalloc buffers, earlier kernels none with all RAM in the DMA zone";
		return;
	}
	if (l->end_pfn <= limit_pfn && kmalloc != KMALLOC_POOL_NONE) {
		s->active = TRI_YES;
		s->active_why = "assumed: arm64 6.5+ keeps a pool for bouncing unaligned kmalloc buffers";
		if (kmalloc == KMALLOC_POOL_SMALL)
			s->assumed_bytes = kmalloc_pool_bytes(l);
		return;
	}
	if (ai->family == ARCH_X86 && l->end_pfn > pfn_4g && iommu_dropped_pool(m, release, s))
		return;
	if (ai->family == ARCH_X86 && ai->bits == 64 && l->end_pfn <= pfn_4g) {
		x86_possible_pfn(m, pfn_4g, s);
		return;
	}
	s->active = l->end_pfn > limit_pfn ? TRI_YES : TRI_NO;
	if (dma_zones == TRI_NO)
		s->active_why = "assumed: no ZONE_DMA or ZONE_DMA32 in proc/zoneinfo, so arm64_dma_phys_limit "
				"is the top of memory and arm64 allocates no pool";
	else if (ai->family == ARCH_ARM64)
		s->active_why = s->active == TRI_YES
					? "assumed: RAM beyond the DMA zone makes arm64 allocate the default pool"
					: "assumed: all RAM within the DMA zone, arm64 allocates no pool";
	else
		s->active_why = s->active == TRI_YES
					? "assumed: RAM above 4 GiB makes x86 allocate the default pool"
					: "assumed: no RAM above 4 GiB, x86 allocates no pool";
}

/* roundup_pow_of_two(), saturating at 2^63 */
static uint64_t round_up_pow2(uint64_t v)
{
	uint64_t p = 1;

	while (p < v && p < (UINT64_C(1) << 63))
		p <<= 1;
	return p;
}

/*
 * The slots swiotlb_init_remap() allocates when nslabs were asked for
 * (ERA_POOL_AREAS): from 6.0 swiotlb_adjust_nareas() takes swiotlb='s
 * <areas> or num_possible_cpus() (its int truncation, 0 as 1), rounded up to
 * a power of two, and round_up_default_nslabs() raises the slots to
 * IO_TLB_SEGSIZE an area, then to a power of two.
 */
static uint64_t pool_slots(const struct machine *m, uint32_t release, uint64_t nslabs,
			   struct swiotlb_state *s)
{
	uint64_t nareas;

	if (era_value(ERA_POOL_AREAS, release, ANY_ARCH, NULL) != POOL_AREAS_PER_CPU) {
		s->size_why = "assumed: before 6.0 the pool has the slots asked for";
		return nslabs;
	}
	if (m->cmd.swiotlb_areas.known) {
		nareas = (uint32_t)m->cmd.swiotlb_areas.v;
		s->size_why = "assumed: swiotlb=<slabs>,<areas> areas of 128 slots at least, rounded up "
			      "to a power of two (swiotlb_adjust_nareas, 6.0+)";
	} else if (m->cpus_possible.known) {
		nareas = m->cpus_possible.v;
		s->size_why = "assumed: one area per possible CPU (sys/devices/system/cpu/possible) of "
			      "128 slots at least, rounded up to a power of two (swiotlb_adjust_nareas, 6.0+)";
	} else {
		/* one area is the least: the size is a lower bound */
		nareas = 1;
		s->size_why = "assumed, at least: 6.0+ gives the pool 128 slots per possible CPU, and "
			      "sys/devices/system/cpu/possible is unreadable";
	}
	nareas = round_up_pow2(nareas ? nareas : 1);
	if (m->cmd.swiotlb_areas.known || m->cpus_possible.known)
		opt_set(&s->areas, (uint32_t)(nareas > UINT32_MAX ? UINT32_MAX : nareas));
	if (nareas <= UINT64_MAX / IO_TLB_SEGSIZE && nslabs < nareas * IO_TLB_SEGSIZE)
		nslabs = nareas * IO_TLB_SEGSIZE;
	return round_up_pow2(nslabs);
}

/*
 * Where the pool can lie when neither the log nor debugfs says: memblock's
 * "low" allocation keeps it at or below ARCH_LOW_ADDRESS_LIMIT (and below
 * memblock.current_limit, lowmem on 32-bit ARM); so do 6.6's dynamic pools
 * (io_tlb_default_mem.phys_limit). Xen PV's swiotlb-xen is another allocator
 * (SWIOTLB_ANY from 5.19), and other architectures define their own limits.
 */
static void pool_placement(const struct machine *m, const struct layout *l, uint32_t release,
			   struct swiotlb_state *s)
{
	const struct arch_info *ai = m->arch_info;
	int rule = era_value(ERA_POOL_PLACEMENT, release, ANY_ARCH, NULL);
	uint64_t limit;

	if (s->pool.known) {
		opt_set(&s->pool_limit, s->pool.end - 1);
		s->pool_limit_prov = PROV_READ;
		s->pool_limit_why = "kernel log: software IO TLB: mapped [mem ...]";
		return;
	}
	if (s->active == TRI_NO || s->xen_pv || !ai || l->source == LAYOUT_SOURCE_NONE ||
	    !l->page_shift || (rule != POOL_PLACE_LOW && rule != POOL_PLACE_LOW_UNLESS_ANY))
		return;
	if (ai->family == ARCH_X86) {
		limit = 0xffffffffull;
		s->pool_limit_why = "derived: memblock_alloc_low() keeps the pool below 4 GiB, x86's "
				    "ARCH_LOW_ADDRESS_LIMIT";
	} else if (ai->family == ARCH_ARM) {
		limit = 0xffffffffull;
		s->pool_limit_why = "derived: memblock_alloc_low() keeps the pool below 4 GiB, the "
				    "generic ARCH_LOW_ADDRESS_LIMIT";
		if (l->lowmem.known && l->lowmem.end_pfn &&
		    (l->lowmem.end_pfn << l->page_shift) - 1 < limit) {
			limit = (l->lowmem.end_pfn << l->page_shift) - 1;
			s->pool_limit_why = "derived from the end of lowmem: memblock_alloc_low() keeps "
					    "the pool below memblock.current_limit";
		}
	} else if (ai->family == ARCH_ARM64) {
		const char *zone = NULL;
		uint64_t end = arm64_dma_zone_end_pfn(l, &zone);
		if (!end || end > (UINT64_MAX >> l->page_shift))
			return;
		limit = (end << l->page_shift) - 1;
		s->pool_limit_why = strcmp(zone, "DMA") == 0
					    ? "derived from the end of ZONE_DMA in proc/zoneinfo: "
					      "memblock_alloc_low() keeps the pool below arm64_dma_phys_limit"
					    : "derived from the end of ZONE_DMA32 in proc/zoneinfo: "
					      "memblock_alloc_low() keeps the pool below arm64_dma_phys_limit";
	} else {
		return;
	}
	opt_set(&s->pool_limit, limit);
	s->pool_limit_prov = PROV_DERIVED;
}

void swiotlb_state_compute(const struct machine *m, const struct layout *l, uint32_t release,
			   struct swiotlb_state *ret)
{
	const struct swiotlb_info *t = &m->swiotlb;
	struct swiotlb_state s = { .active = TRI_UNKNOWN };
	struct coco_verdict coco;

	coco_decide(&m->coco, &coco);
	s.coco = coco.kind;
	s.arm_lpae = TRI_UNKNOWN;
	if (m->arch_info && m->arch_info->family == ARCH_ARM)
		arm_lpae(m, l, &s);
	cmdline_words(m, release, &s);
	forced(m, coco.kind, release, &s);
	if (t->nslabs.known) {
		s.active = t->nslabs.v ? TRI_YES : TRI_NO;
		s.active_prov = PROV_READ;
		s.active_why = "debugfs swiotlb/io_tlb_nslabs";
	} else if (t->pool_start.known) {
		s.active = TRI_YES;
		s.active_prov = PROV_READ;
		s.active_why = "kernel log: software IO TLB: mapped [mem ...]";
	} else if (s.cmdline_noforce &&
		   era_value(ERA_SWIOTLB_NOFORCE, release, ANY_ARCH, NULL) != NOFORCE_IGNORED) {
		/* 4.10-5.12 keep one slab (debugfs io_tlb_nslabs 1, the log's "mapped" line): a pool
		 * that exists, never used (devices.c pool_decision: VR_POOL_NOFORCE either way) */
		bool token = era_value(ERA_SWIOTLB_NOFORCE, release, ANY_ARCH, NULL) == NOFORCE_ONE_SLAB;
		s.active = token ? TRI_YES : TRI_NO;
		s.active_prov = PROV_READ;
		s.active_why = token ? "swiotlb=noforce: a token pool of one slab, bouncing disabled"
				     : "swiotlb=noforce: no pool is allocated";
		if (token)
			s.assumed_bytes = 1ull << IO_TLB_SHIFT;
	} else if (t->log_no_low_mem) {
		s.active = TRI_NO;
		s.active_prov = PROV_READ;
		s.active_why = "kernel log: software IO TLB: No low mem";
	} else if (m->kmsg_from_boot &&
		   era_value(ERA_POOL_LOGGED, release, ANY_ARCH, NULL) == POOL_LOG_ALWAYS) {
		/* swiotlb_print_info() logs every pool it allocates at boot */
		s.active = TRI_NO;
		s.active_prov = PROV_READ;
		s.active_why = "kernel log from boot has no 'software IO TLB: mapped'";
	} else if (s.forced) {
		s.active = TRI_YES;
		s.active_prov = PROV_DERIVED;
		s.active_why = "forced bouncing allocates a pool";
	} else {
		arch_default(m, l, release, coco.kind, &s);
	}

	if (t->pool_start.known && t->pool_end.known && t->pool_end.v > t->pool_start.v) {
		s.pool.start = t->pool_start.v;
		s.pool.end = t->pool_end.v;
		s.pool.known = true;
	}
	if (t->nslabs.known) {
		s.size_prov = PROV_READ;
		opt_set(&s.size_bytes, sat_shl(t->nslabs.v, IO_TLB_SHIFT));
	} else if (s.pool.known) {
		s.size_prov = PROV_READ;
		opt_set(&s.size_bytes, s.pool.end - s.pool.start);
	} else if (s.active == TRI_YES) {
		uint64_t asked = m->cmd.swiotlb_slabs.known ? m->cmd.swiotlb_slabs.v
				 : s.assumed_bytes	    ? s.assumed_bytes >> IO_TLB_SHIFT
							    : IO_TLB_DEFAULT_BYTES >> IO_TLB_SHIFT;
		s.size_prov = PROV_ASSUMED;
		opt_set(&s.size_bytes, sat_shl(pool_slots(m, release, asked, &s), IO_TLB_SHIFT));
	}
	if (t->used.known)
		opt_set(&s.used_bytes, sat_shl(t->used.v, IO_TLB_SHIFT));
	if (t->hiwater.known)
		opt_set(&s.hiwater_bytes, sat_shl(t->hiwater.v, IO_TLB_SHIFT));

	/* Xen PV: /sys/hypervisor/type says xen for HVM and PVH too; guest_type tells (4.12+). */
	const struct hypervisor *h = &m->hyp;
	if (h->type == HYPERVISOR_XEN) {
		if (h->xen_guest_type == XEN_GUEST_PV) {
			s.xen_pv = true;
			s.xen_why = "Xen PV domain (sys/hypervisor/guest_type PV)";
		} else if (h->xen_guest_type == XEN_GUEST_UNKNOWN && h->xen_dom0) {
			s.xen_pv = true;
			s.xen_why = "Xen dom0 (proc/xen/capabilities control_d) without guest_type";
		} else if (h->xen_guest_type == XEN_GUEST_UNKNOWN || h->xen_guest_type == XEN_GUEST_OTHER) {
			/* a PV domU before 4.12 shows no guest_type: not known to be HVM */
			s.xen_pv = true;
			s.xen_pv_unknown = true;
			s.xen_why = h->xen_guest_type == XEN_GUEST_OTHER
					    ? "Xen guest of a type this tool does not know (sys/hypervisor/guest_type)"
					    : "Xen guest without sys/hypervisor/guest_type (before 4.12): PV or HVM unknown";
		}
	}
	pool_placement(m, l, release, &s);
	*ret = s;
}

enum full_line_kind swiotlb_full_kind(const struct swiotlb_full *l, const struct swiotlb_info *sw)
{
	uint64_t need = l->size.known ? (l->size.v + IO_TLB_SIZE - 1) / IO_TLB_SIZE : 1;

	if (l->total.known && l->total.v == 0)
		return FULL_NO_POOL;
	/* one mapping takes at most IO_TLB_SEGSIZE slots (swiotlb_max_mapping_size): no pool holds more */
	if (need > IO_TLB_SEGSIZE)
		return FULL_WITH_ROOM;
	/* debugfs io_tlb_used_hiwater 0: no slot was ever taken, so none ran out */
	if (sw->hiwater.known && sw->hiwater.v == 0 && sw->nslabs.known && sw->nslabs.v > 0)
		return FULL_WITH_ROOM;
	if (!l->total.known || !l->used.known)
		return FULL_NO_ROOM;
	uint64_t free = l->used.v < l->total.v ? l->total.v - l->used.v : 0;
	/* the 90% that swiotlb-pressure's peak case uses: below it the search failed for fit, not room */
	if (free < need || l->used.v >= l->total.v / 10 * 9)
		return FULL_NO_ROOM;
	return FULL_WITH_ROOM;
}
