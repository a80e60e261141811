/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Evidence a finding about one device and a machine-wide one both carry:
 * pfn-count-confusion's numbers, a "swiotlb buffer is full" line's. Below
 * findings-device.c and findings-machine.c, so neither includes the other.
 */
#include "analysis/findings-evidence.h"

void confusion_evidence(struct findings *f, struct finding *x, const struct layout *l,
			const struct legacy_block *c, const struct legacy_block *p)
{
	finding_add_pfn(f, x, "base_pfn", l->base_pfn);
	finding_add_pfn(f, x, "max_low_pfn_as_count", l->lowmem.max_low_pfn_as_count);
	finding_add_pfn(f, x, "max_low_pfn_as_pfn", l->lowmem.max_low_pfn_as_pfn);
	finding_add_pfn(f, x, "bounce_pfn_as_count", c->bounce_pfn);
	finding_add_pfn(f, x, "bounce_pfn_as_pfn", p->bounce_pfn);
	finding_add_u64(f, x, "bounce_bytes_as_count", c->bounce_bytes);
	finding_add_u64(f, x, "bounce_bytes_as_pfn", p->bounce_bytes);
	finding_add_u64(f, x, "unnecessary_bounce_bytes",
			c->bounce_bytes > p->bounce_bytes ? c->bounce_bytes - p->bounce_bytes : 0);
}

void add_full_evidence(struct findings *f, struct finding *x, const struct swiotlb_full *l, uint64_t lines)
{
	finding_add_u64(f, x, "log_lines", lines);
	if (l->size.known)
		finding_add_u64(f, x, "size", l->size.v);
	if (l->total.known) {
		finding_add_u64(f, x, "total_slots", l->total.v);
		finding_add_u64(f, x, "used_slots", l->used.v);
	}
}
