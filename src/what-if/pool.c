/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The swiotlb pool around a change. Today's pool is read from the boot log
 * (or debugfs): the kernel's own word, which the era rules cannot beat. So
 * the rules are asked twice, as if there were no log, for today's machine
 * and for the changed one: when they agree, the change does not touch the
 * pool and today's stays; when they differ, their answer after the change
 * replaces today's, and today's place is kept for a pool of the same size.
 */
#include <errno.h>
#include <stdio.h>

#include "analysis/layout.h"
#include "analysis/report.h"
#include "analysis/swiotlb-state.h"
#include "what-if/what-if.h"

/* What only a log or debugfs tells of the pool. */
static void forget_log(struct machine *m)
{
	opt_clear(&m->swiotlb.pool_start);
	opt_clear(&m->swiotlb.pool_end);
	opt_clear(&m->swiotlb.nslabs);
	m->swiotlb.log_no_low_mem = false;
	m->kmsg_from_boot = false;
}

/* The era rules' pool for m, without its log: whether there is one and its size (0 unknown). */
static int predict(const struct machine *m, int *ret_active, uint64_t *ret_bytes)
{
	struct machine copy = *m; /* read-only: only the scalars forget_log() clears differ */
	struct swiotlb_state s;
	struct layout l;
	int r;

	forget_log(&copy);
	r = layout_compute(&copy, &l);
	if (r < 0)
		return r;
	swiotlb_state_compute(&copy, &l, report_release(&copy), &s);
	layout_done(&l);
	*ret_active = (int)s.active;
	*ret_bytes = s.size_bytes.known ? s.size_bytes.v : 0;
	return 0;
}

int what_if_pool_before(const struct machine *m, struct what_if_pool *ret)
{
	*ret = (struct what_if_pool){ .sw = m->swiotlb, .kmsg_from_boot = m->kmsg_from_boot };
	return predict(m, &ret->active, &ret->bytes);
}

static const char *active_text(int a)
{
	return a == TRI_YES ? "a pool" : a == TRI_NO ? "no pool" : "an unknown pool";
}

int what_if_pool_after(struct machine *m, const struct what_if_pool *before, struct what_if_notes *n)
{
	const struct swiotlb_info *t = &before->sw;
	bool logged = t->pool_start.known && t->pool_end.known && t->pool_end.v > t->pool_start.v;
	uint64_t today_bytes = logged ? t->pool_end.v - t->pool_start.v : 0;
	uint64_t bytes;
	int active, r = predict(m, &active, &bytes);

	if (r < 0)
		return r;
	if (active == before->active && bytes == before->bytes)
		return 0; /* the change does not touch the pool: today's, as read, stays */
	forget_log(m);
	/* the same size placed as today's kernel placed it (memblock_alloc_low: top-down, below the limit) */
	bool keep_place = active == TRI_YES && logged && (bytes == today_bytes || bytes == 0);
	if (keep_place) {
		m->swiotlb.pool_start = t->pool_start;
		m->swiotlb.pool_end = t->pool_end;
	}
	char place[96] = "";
	if (keep_place)
		snprintf(place, sizeof(place), "; it lies where today's kernel placed its pool, 0x%llx",
			 (unsigned long long)t->pool_start.v);
	else if (active == TRI_YES)
		snprintf(place, sizeof(place), "; where it lies is not known");
	return what_if_assume(n, NULL,
			      "the swiotlb pool: the era rules give %s for today's configuration and %s after "
			      "the change%s",
			      active_text(before->active), active_text(active), place);
}
