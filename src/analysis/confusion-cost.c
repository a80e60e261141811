/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Where the kernel keeps max_low_pfn as a page count (32-bit ARM before
 * v3.13, 26ba47b18318 "ARM: 7805/1: mm: change max*pfn to include the
 * physical offset of memory") and its block layer compares it with PFNs
 * (blk_queue_bounce_limit, before 5.13): which queues' decisions the count
 * changes, and by how many bytes. The memory section and pfn-count-confusion
 * say it; a confusion that changes nothing is said too, with why.
 */
#include "analysis/confusion-cost.h"

void confusion_cost_compute(const struct report *r, struct confusion_cost *ret)
{
	const struct layout *l = &r->layout;
	struct confusion_cost c = { 0 };
	struct legacy_block b[2];

	/* release unknown: era_value() gave the newest row, not this kernel's reading */
	c.applies = r->release != 0 && r->max_low_pfn_reading == MAX_LOW_PFN_COUNT &&
		    r->block_bounce == BLOCK_BOUNCE_PFN && l->source != LAYOUT_SOURCE_NONE &&
		    l->lowmem.known && l->lowmem.max_low_pfn_as_count != l->lowmem.max_low_pfn_as_pfn;
	if (!c.applies) {
		*ret = c;
		return;
	}
	c.highmem = l->lowmem.highmem_bytes != 0;
	if (r->bits.known && legacy_block_bounce_high(l, r->bits.v, b) == 0) {
		c.bounce_high_known = true;
		c.bounce_high_differs = legacy_block_differ(&b[MAX_LOW_PFN_COUNT], &b[MAX_LOW_PFN_PFN]);
	}
	for (size_t i = 0; i < r->devices.n_devices; i++) {
		const struct device_report *dr = &r->devices.devices[i];
		const struct legacy_result *lr = device_legacy(dr);
		if (!dr->has_block || !lr->known)
			continue;
		c.devices++;
		if (!legacy_block_differ(&lr->by_reading[MAX_LOW_PFN_COUNT], &lr->by_reading[MAX_LOW_PFN_PFN]))
			continue;
		c.devices_differ++;
		c.count_reading_only_bytes += lr->count_reading_only_bytes;
		c.count_reading_missed_bytes += lr->count_reading_missed_bytes;
	}
	*ret = c;
}
