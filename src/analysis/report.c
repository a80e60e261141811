/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Machine -> layout -> findings -> exit status. Pure: no I/O. */
#include <string.h>

#include "analysis/report.h"
#include "shared/macro.h"

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

int report_build(const struct machine *m, enum severity fail_on, struct report *ret)
{
	struct report r = { .fail_on = fail_on };
	int e = layout_compute(m, &r.layout);

	if (e < 0)
		return e;
	layout_findings(m, &r.layout, &r.findings);
	if (r.findings.err) {
		report_done(&r);
		return r.findings.err;
	}
	enum severity max = findings_max_severity(&r.findings);
	r.exit_status = max != _SEVERITY_INVALID && max >= fail_on ? EXIT_FINDINGS : EXIT_CLEAN;
	*ret = r;
	return 0;
}

void report_done(struct report *r)
{
	layout_done(&r->layout);
	findings_done(&r->findings);
}
