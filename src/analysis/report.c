/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Machine -> layout -> findings -> exit status. Pure: no I/O. */
#include <string.h>

#include "analysis/arch.h"
#include "analysis/eras.h"
#include "analysis/legacy-block.h"
#include "analysis/report.h"
#include "shared/macro.h"

/* A snapshot whose capture did not finish (its MANIFEST says so): what it missed reads as absent. */
static void snapshot_findings(const struct machine *m, struct findings *f)
{
	if (!m->snapshot_incomplete)
		return;
	struct finding *x = findings_add(
		f, "snapshot-incomplete", SEVERITY_ERROR, NULL,
		"the capture that made this snapshot did not finish: what it did not copy reads "
		"as absent, so inputs, devices and verdicts may be missing or wrong",
		"capture again into an empty directory with room to spare, and let it finish; "
		"--allow-incomplete audits this one anyway");
	finding_add_str(f, x, "why", m->snapshot_incomplete_why ? m->snapshot_incomplete_why
							       : "MANIFEST says so");
}

static void layout_findings(const struct machine *m, const struct layout *l, struct findings *f)
{
	struct finding *x;

	if (m->iomem_hidden && l->source == LAYOUT_SOURCE_ZONEINFO) {
		x = findings_add(f, "iomem-hidden", SEVERITY_INFO, NULL,
				 "proc/iomem shows every address as 0 to this user; the memory "
				 "layout comes from proc/zoneinfo zone spans, which count holes "
				 "inside a zone as RAM ranges and give sizes from present pages",
				 "run as root (CAP_SYS_ADMIN) for the exact System RAM ranges");
		finding_add_str(f, x, "source", "zoneinfo");
		finding_add_u64(f, x, "base_pfn", l->base_pfn);
		finding_add_u64(f, x, "end_pfn", l->end_pfn);
		finding_add_u64(f, x, "ram_bytes", l->ram_bytes);
	}
	if (l->source == LAYOUT_SOURCE_NONE) {
		x = findings_add(f, "memory-layout-unknown", SEVERITY_ERROR, NULL,
				 l->unknown_reason ? l->unknown_reason : "no memory layout",
				 "check the inputs list: proc/iomem (as root) or proc/zoneinfo "
				 "must be readable");
		finding_add_str(f, x, "iomem", m->iomem_hidden ? "hidden"
					       : m->iomem_usable ? "ok" : "unusable");
		finding_add_str(f, x, "zoneinfo", m->zoneinfo_usable ? "ok" : "unusable");
	} else if (!l->lowmem_known) {
		x = findings_add(f, "lowmem-unknown", SEVERITY_WARNING, NULL,
				 l->unknown_reason ? l->unknown_reason : "lowmem end unknown",
				 "make proc/zoneinfo readable, or capture it with the snapshot");
		finding_add_u64(f, x, "base_pfn", l->base_pfn);
		finding_add_u64(f, x, "end_pfn", l->end_pfn);
	}
}

/*
 * pfn-count-confusion, machine-wide: a BLK_BOUNCE_HIGH queue (a driver that
 * set no mask) under both readings of max_low_pfn. On RAM based at 0 they
 * agree; elsewhere the count reading bounces lowmem pages needlessly.
 */
static void confusion_finding(const struct report *r, struct findings *f)
{
	const struct layout *l = &r->layout;
	struct legacy_block b[2];

	if (!r->bits || l->source == LAYOUT_SOURCE_NONE || !l->lowmem_known)
		return;
	for (int reading = 0; reading < 2; reading++) {
		struct legacy_block_input in = { .bits = r->bits, .reading = reading, .has_mask = false };
		if (legacy_block_compute(l, &in, &b[reading]) < 0)
			return;
	}
	const struct legacy_block *c = &b[MAX_LOW_PFN_COUNT], *p = &b[MAX_LOW_PFN_PFN];
	if (!legacy_block_differ(c, p))
		return;
	bool used_count = r->max_low_pfn_reading == MAX_LOW_PFN_COUNT;
	struct finding *x = findings_add(
		f, "pfn-count-confusion", used_count ? SEVERITY_WARNING : SEVERITY_INFO, NULL,
		used_count ? "this kernel stores max_low_pfn as a page count while the block layer "
			     "compares it with PFNs: a queue without a DMA mask (BLK_BOUNCE_HIGH) "
			     "bounces every page above the count, lowmem included"
			   : "RAM does not start at address 0: read as a page count (32-bit ARM "
			     "before v3.13), max_low_pfn would make a BLK_BOUNCE_HIGH queue bounce "
			     "lowmem pages too",
		used_count ? "use a v3.13+ kernel (26ba47b18318, ARM: 7805/1 makes max*pfn absolute)"
			   : "none on this kernel; shown because code written on x86 mixes the readings");
	confusion_evidence(f, x, l, c, p);
}

static void swiotlb_findings(const struct report *r, struct findings *f)
{
	const struct swiotlb_state *s = &r->swiotlb;
	struct finding *x;

	if (s->forced) {
		x = findings_add(f, "forced-bounce", SEVERITY_INFO, NULL, s->forced_why,
				 "expected for confidential guests; otherwise drop swiotlb=force");
		if (s->size_known)
			finding_add_u64(f, x, "swiotlb_bytes", s->size_bytes);
	}
	if (s->size_known && s->size_bytes && (s->used_known || s->hiwater_known)) {
		uint64_t peak = s->hiwater_known ? s->hiwater_bytes : s->used_bytes;
		if (peak >= s->size_bytes / 10 * 9) {
			x = findings_add(f, "swiotlb-pressure", SEVERITY_WARNING, NULL,
					 "the swiotlb pool has been at least 90% full: mappings may "
					 "fail with \"swiotlb buffer is full\"",
					 "enlarge it with swiotlb=<slabs> or remove the need to bounce");
			finding_add_u64(f, x, "swiotlb_bytes", s->size_bytes);
			finding_add_u64(f, x, "peak_used_bytes", peak);
		}
	}
}

static void machine_findings(const struct machine *m, const struct report *r, struct findings *f)
{
	struct finding *x;

	if (m->swiotlb.full_messages) {
		x = findings_add(f, "swiotlb-pressure", SEVERITY_WARNING, NULL,
				 "the kernel log says \"swiotlb buffer is full\": mappings failed",
				 "enlarge the pool with swiotlb=<slabs> or remove the need to bounce");
		finding_add_u64(f, x, "log_lines", m->swiotlb.full_messages);
	}
	if (r->swiotlb.xen_pv) {
		x = findings_add(f, "xen-pv-undecidable", SEVERITY_INFO, NULL,
				 "Xen PV domain: xen-swiotlb bounces by machine addresses, which the "
				 "guest's RAM map does not show; device verdicts are unknown",
				 "audit from the hypervisor side, or use a PVH/HVM guest");
		finding_add_str(f, x, "why", r->swiotlb.xen_why);
	}
	for (size_t i = 0; i < m->n_overflows; i++) {
		if (m->overflows[i].device && machine_find_device(m, m->overflows[i].device))
			continue; /* reported with its device */
		x = findings_add(f, "dma-overflow-logged", SEVERITY_ERROR, m->overflows[i].device,
				 "the kernel log shows a failed DMA mapping (\"DMA addr ... overflow\")",
				 "find the device and see bounce-impossible");
		finding_add_hex(f, x, "addr", m->overflows[i].addr);
		finding_add_hex(f, x, "mask", m->overflows[i].mask);
		finding_add_hex(f, x, "bus_limit", m->overflows[i].bus_limit);
	}
}

int report_build_with(const struct machine *m, const struct report_options *o, struct report *ret)
{
	struct report r = { .fail_on = o->fail_on };
	enum severity fail_on = o->fail_on;
	int e = layout_compute(m, &r.layout);

	if (e < 0)
		return e;
	const struct arch_info *ai = arch_lookup(m->arch.value);
	r.arch_family = ai ? ai->family : NULL;
	r.bits = ai ? ai->bits : 0;
	r.release_prov = kernel_version_parse(m->release.value, &r.release) ? PROV_READ : PROV_UNKNOWN;
	r.max_low_pfn_reading = era_value(ERA_MAX_LOW_PFN, r.release, r.arch_family, &r.max_low_pfn_source);
	r.block_bounce = era_value(ERA_BLOCK_BOUNCE, r.release, r.arch_family, &r.block_bounce_source);
	swiotlb_state_compute(m, &r.layout, r.release, &r.swiotlb);

	snapshot_findings(m, &r.findings);
	layout_findings(m, &r.layout, &r.findings);
	confusion_finding(&r, &r.findings);
	swiotlb_findings(&r, &r.findings);
	machine_findings(m, &r, &r.findings);
	struct devices_input in = {
		.m = m, .l = &r.layout, .sw = &r.swiotlb, .release = r.release,
		.arch_family = r.arch_family, .bits = r.bits,
	};
	e = devices_analyse(&in, &r.devices, &r.findings);
	if (e < 0) {
		report_done(&r);
		return e;
	}
	if (r.findings.err) {
		report_done(&r);
		return r.findings.err;
	}
	enum severity max = findings_max_severity(&r.findings);
	r.exit_status = max != _SEVERITY_INVALID && max >= fail_on ? EXIT_FINDINGS : EXIT_CLEAN;
	if (m->snapshot_incomplete && !o->allow_incomplete)
		r.exit_status = EXIT_FATAL; /* not a verdict to act on */
	*ret = r;
	return 0;
}

int report_build(const struct machine *m, enum severity fail_on, struct report *ret)
{
	const struct report_options o = { .fail_on = fail_on };

	return report_build_with(m, &o, ret);
}

void report_done(struct report *r)
{
	devices_result_done(&r->devices);
	layout_done(&r->layout);
	findings_done(&r->findings);
}
