/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What each verdict allows the trace to show. A swiotlb_bounced event is a
 * streaming mapping dma-direct (or dma-iommu, for an untrusted device)
 * copied through swiotlb (kernel/dma/swiotlb.c swiotlb_tbl_map_single); its
 * dev_addr is the original buffer's bus address, so it says whether that
 * buffer was within the device's reach.
 */
#include <string.h>

#include "analysis/eras.h"
#include "analysis/prediction-check.h"

static const struct observed_device *observed_for(const struct observation *o, const char *id)
{
	for (size_t i = 0; i < o->n_devices; i++)
		if (strcmp(o->devices[i].device, id) == 0)
			return &o->devices[i];
	return NULL;
}

/* arm64 6.5+ and riscv 6.6+ bounce small unaligned kmalloc buffers of non-coherent devices, reach or not. */
static bool kmalloc_bouncing(const struct devices_input *in)
{
	return era_value(ERA_KMALLOC_BOUNCE, in->release, in->arch_family, NULL) == 1;
}

static void set(struct device_report *r, enum observed_result res, const char *why)
{
	r->observed_result = res;
	r->observed_why = why;
}

/* A device whose verdict says nothing bounces. */
static void judge_no_bounce(struct device_report *r, uint64_t unexplained, const char *bounced,
			    const char *failed)
{
	if (unexplained)
		set(r, OBSERVED_CONTRADICTED, bounced);
	else if (r->observed->overflow_messages)
		set(r, OBSERVED_CONTRADICTED, failed);
	else
		set(r, OBSERVED_CONSISTENT, "only small unaligned kmalloc buffers bounced (arm64 6.5+, riscv 6.6+)");
}

static void judge_partial(struct device_report *r, bool kmalloc)
{
	const struct observed_device *od = r->observed;
	struct opt_u64 end = kmalloc ? od->lowest_end_large : od->lowest_end;

	if (end.known && r->limit && end.v <= r->limit)
		set(r, OBSERVED_CONTRADICTED,
		    "a partial device bounced a buffer that lies within its reach");
	else if (od->overflow_messages)
		set(r, OBSERVED_CONTRADICTED,
		    "a mapping failed (overflow logged) where the verdict says a pool takes it");
	else
		set(r, OBSERVED_CONSISTENT, "the buffers that bounced lie beyond the device's reach");
}

static void judge_forced(const struct devices_input *in, struct device_report *r)
{
	const struct observed_device *od = r->observed;

	/* the event's force is the kernel's global setting (is_swiotlb_force_bounce from
	 * 5.18): only forcing by swiotlb=force or a CoCo guest is seen there */
	if (in->sw->forced && od->bounces > od->forced_bounces)
		set(r, OBSERVED_CONTRADICTED, "a forced device bounced without force");
	else
		set(r, OBSERVED_CONSISTENT, "every mapping bounces, as forced");
}

static void add_traffic(struct device_report *r, const struct observation *o, enum traffic_kind kind,
			const char *name)
{
	for (size_t i = 0; i < o->n_traffic; i++) {
		const struct observed_traffic *t = &o->traffic[i];
		if (t->kind != kind || strcmp(t->name, name) != 0)
			continue;
		opt_set(&r->observed_ops, (r->observed_ops.known ? r->observed_ops.v : 0) + t->ops);
		r->observed_io_bytes += t->bytes;
		r->observed_kinds |= 1u << kind;
		return;
	}
}

/* The data its disks (the queues whose DMA device it is) and its interfaces moved in the window. */
static void count_traffic(const struct devices_input *in, struct device_report *r)
{
	const struct observation *o = &in->m->observed;

	opt_clear(&r->observed_ops);
	r->observed_io_bytes = 0;
	r->observed_kinds = 0;
	if (!o->traffic_known)
		return;
	for (size_t i = 0; i < in->m->n_blocks; i++) {
		const struct block_queue *q = &in->m->blocks[i];
		if (q->dma_device && q->disk && strcmp(q->dma_device, r->dev->id) == 0)
			add_traffic(r, o, TRAFFIC_BLOCK, q->disk);
	}
	for (const char *p = r->dev->interfaces; p && *p;) {
		size_t n = strcspn(p, ",");
		char name[64];
		if (n < sizeof(name)) {
			memcpy(name, p, n);
			name[n] = '\0';
			add_traffic(r, o, TRAFFIC_NET, name);
		}
		p += n + (p[n] == ',');
	}
}

/* Nothing bounced and nothing failed: what the counters say it did meanwhile. */
static void judge_quiet(struct device_report *r)
{
	if (!r->observed_ops.known)
		set(r, OBSERVED_CANNOT_TELL, "no bounce and no overflow record in the window, and no disk "
					     "or interface of it to count its traffic by: whether it did "
					     "any DMA cannot be told");
	else if (r->observed_ops.v == 0)
		set(r, OBSERVED_NO_TRAFFIC, "its disks and interfaces moved no data in the window");
	else if (r->verdict == VERDICT_DIRECT || r->verdict == VERDICT_IOMMU)
		set(r, OBSERVED_NO_BOUNCE, "its disks or interfaces moved data in the window and none of "
					   "it bounced, as its verdict says");
	else if (r->verdict == VERDICT_PARTIAL)
		set(r, OBSERVED_NO_BOUNCE, "its disks or interfaces moved data in the window and none of "
					   "it bounced: its buffers lay within reach, which the verdict "
					   "allows but does not test (--observe-probe does)");
	else
		set(r, OBSERVED_NO_BOUNCE, "its disks or interfaces moved data in the window, with no "
					   "bounce and no overflow record");
}

void prediction_check(const struct devices_input *in, struct device_report *r)
{
	const struct observation *o = &in->m->observed;

	r->observed = NULL;
	set(r, OBSERVED_NONE, NULL);
	if (!o->present)
		return;
	r->observed = observed_for(o, r->dev->id);
	count_traffic(in, r);
	const struct observed_device *od = r->observed;
	if (!od || (!od->bounces && !od->overflow_messages)) {
		judge_quiet(r);
		return;
	}
	bool kmalloc = kmalloc_bouncing(in);
	uint64_t unexplained = od->bounces - (kmalloc ? od->small_unaligned : 0);
	/* the current row excuses small unaligned bounces; before arm64 6.5 (riscv 6.6) none
	 * are excused: which holds, an unknown release does not say */
	if (in->release == 0 && kmalloc && od->small_unaligned &&
	    (r->verdict == VERDICT_DIRECT || r->verdict == VERDICT_PARTIAL || r->verdict == VERDICT_FAILS ||
	     (r->verdict == VERDICT_IOMMU && !r->untrusted))) {
		set(r, OBSERVED_UNJUDGED, "kernel release unknown: whether small unaligned kmalloc "
					  "buffers bounce (arm64 6.5+, riscv 6.6+) is unknown");
		return;
	}
	switch (r->verdict) {
	case VERDICT_IDLE:
		if (od->bounces)
			set(r, OBSERVED_CONTRADICTED, "a device judged idle bounced: it does DMA");
		else
			set(r, OBSERVED_CONTRADICTED, "a device judged idle logged a failed mapping");
		return;
	case VERDICT_DIRECT:
		judge_no_bounce(r, unexplained, "a direct device bounced",
				"a direct device's mapping failed (overflow logged)");
		return;
	case VERDICT_IOMMU:
		if (r->untrusted)
			set(r, OBSERVED_CONSISTENT, "an untrusted device's unaligned buffers bounce");
		else
			judge_no_bounce(r, unexplained, "a translated (iommu) device bounced",
					"a translated (iommu) device's mapping failed (overflow logged)");
		return;
	case VERDICT_PARTIAL:
		judge_partial(r, kmalloc);
		return;
	case VERDICT_FORCED:
		judge_forced(in, r);
		return;
	case VERDICT_FAILS:
		if (unexplained && in->sw->active == TRI_NO && in->release == 0)
			/* 5.0-5.18 fire the event for each failing attempt, 5.19+ do not */
			set(r, OBSERVED_UNJUDGED,
			    "kernel release unknown: with no pool, swiotlb_bounced events are failed "
			    "attempts before 5.19, successful bounces after");
		else if (unexplained && in->sw->active == TRI_NO &&
		    era_value(ERA_POOLLESS_MAP, in->release, in->arch_family, NULL) ==
			    POOLLESS_TRIES_SWIOTLB)
			/* the event fires before the slot search that fails with no pool */
			set(r, OBSERVED_CONSISTENT,
			    "its mappings failed, as predicted: with no pool each swiotlb_bounced "
			    "event is an attempt, \"swiotlb buffer is full\" (before 5.19)");
		else if (unexplained && in->sw->active == TRI_YES && r->pool_reachable == TRI_NO)
			/* kernel/dma/swiotlb.c swiotlb_map() (5.0 on) fires the event before it
			 * takes a slot and checks the slot's reach: each one is a failed attempt */
			set(r, OBSERVED_CONSISTENT,
			    "its mappings failed, as predicted: the pool lies out of its reach, so each "
			    "swiotlb_bounced event is an attempt (\"swiotlb addr ... overflow\")");
		else if (unexplained)
			set(r, OBSERVED_CONTRADICTED,
			    "a device predicted to fail bounced successfully: a pool it reaches exists");
		else
			set(r, OBSERVED_CONSISTENT, "its mappings failed, as predicted");
		return;
	default:
		set(r, OBSERVED_UNJUDGED, "traffic was seen, but the verdict was unknown");
		return;
	}
}

bool observation_pool_peak(const struct observation *o, uint64_t *ret_slabs, bool *ret_exact)
{
	const struct observed_counters *b = &o->before, *a = &o->after;

	if (b->hiwater.known && a->hiwater.known && a->hiwater.v > b->hiwater.v) {
		*ret_slabs = a->hiwater.v;
		*ret_exact = true;
		return true;
	}
	if (!b->used.known && !a->used.known)
		return false;
	*ret_slabs = b->used.v > a->used.v ? b->used.v : a->used.v;
	*ret_exact = false;
	return true;
}
