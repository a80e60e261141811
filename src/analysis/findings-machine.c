/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The findings about the machine as a whole: the snapshot, the memory
 * layout, the two readings of max_low_pfn, the swiotlb pool, Xen PV, and
 * logged failures of devices the audit does not know. Pure: no I/O.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/eras.h"
#include "analysis/findings-evidence.h"
#include "analysis/findings-machine.h"
#include "analysis/legacy-block.h"
#include "shared/array.h"
#include "shared/errno-util.h"
#include "shared/macro.h"
#include "shared/strbuf.h"
#include "shared/strmap.h"
#include "shared/sat.h"


/* A snapshot whose capture did not finish (its MANIFEST says so): what it missed reads as absent. */
static void snapshot_findings(const struct machine *m, struct findings *f)
{
	if (!m->snapshot_incomplete)
		return;
	struct finding *x = findings_raise(f, FC_SNAPSHOT_INCOMPLETE, NULL, NULL);
	finding_add_str(f, x, "why", machine_incomplete_why(m));
}

/*
 * Whether the device lists were read: a bus directory that could not be
 * listed hides its devices, and with none at all sysfs is absent or masked
 * (every kernel registers the platform bus: drivers/base/init.c driver_init
 * -> platform_bus_init). A bus that is absent (ENOENT) holds no device.
 */
static void visibility_findings(const struct machine *m, struct findings *f)
{
	bool any_listed = false, any_hidden = false;
	struct finding *x;

	for (int b = 0; b < _DEV_BUS_MAX; b++) {
		const struct bus_listing *bl = &m->buses[b];
		if (!bl->tried)
			continue;
		if (bl->err == 0) {
			any_listed = true;
			if (bl->unreadable) {
				x = findings_raise(f, FC_DEVICES_NOT_VISIBLE_ENTRIES, NULL,
						   &(struct finding_args){ .text = dev_bus_dir(b),
									   .why = errno_describe(bl->unreadable_err) });
				finding_add_str(f, x, "path", bl->first_unreadable ? bl->first_unreadable : "?");
				finding_add_str(f, x, "errno", errno_name(bl->unreadable_err));
				finding_add_u64(f, x, "entries", bl->unreadable);
			}
			continue;
		}
		if (bl->err == ENOENT || bl->err == ENOTDIR)
			continue;
		any_hidden = true;
		x = findings_raise(f, FC_DEVICES_NOT_VISIBLE_BUS, NULL,
				   &(struct finding_args){ .text = dev_bus_dir(b),
							   .why = errno_describe(bl->err) });
		finding_add_str(f, x, "path", dev_bus_dir(b));
		finding_add_str(f, x, "errno", errno_name(bl->err));
	}
	/* resources named after PCI functions, yet no function listed: a masked bus */
	const struct bus_listing *pci = &m->buses[DEV_BUS_PCI];
	if (m->iomem_pci_functions && pci->tried &&
	    (pci->err == ENOENT || pci->err == ENOTDIR || (pci->err == 0 && pci->entries == 0))) {
		x = findings_raise(f, FC_DEVICES_NOT_VISIBLE_IOMEM, NULL,
				   &(struct finding_args){ .text = m->iomem_pci_function });
		finding_add_str(f, x, "path", dev_bus_dir(DEV_BUS_PCI));
		finding_add_u64(f, x, "entries", m->iomem_pci_functions);
		any_hidden = true;
	}
	/* every bus tried was absent (a reader that ran out of memory tried none) */
	if (!any_listed && !any_hidden && m->buses[DEV_BUS_PLATFORM].tried)
		(void)findings_raise(f, FC_DEVICES_NOT_VISIBLE_NONE, NULL, NULL);
}

/* A MANIFEST fact the tree's own proc/sys file contradicts: the file's value was used. */
static void identity_findings(const struct machine *m, struct findings *f)
{
	for (size_t i = 0; i < m->n_identity_conflicts; i++) {
		const struct identity_conflict *c = &m->identity_conflicts[i];
		_cleanup_(strbuf_done) struct strbuf why = { 0 };
		strbuf_append(&why, "MANIFEST says ");
		strbuf_append(&why, c->key);
		strbuf_append(&why, "=");
		strbuf_append(&why, c->manifest);
		strbuf_append(&why, ", ");
		strbuf_append(&why, c->path);
		strbuf_append(&why, " says ");
		strbuf_append(&why, c->file);
		if (why.oom) {
			f->err = -ENOMEM;
			return;
		}
		struct finding *x = findings_raise(f, FC_SNAPSHOT_INCONSISTENT, NULL,
						   &(struct finding_args){ .why = why.s });
		finding_add_str(f, x, "key", c->key);
		finding_add_str(f, x, "manifest_value", c->manifest);
		finding_add_str(f, x, "file", c->path);
		finding_add_str(f, x, "file_value", c->file);
		finding_add_str(f, x, "used", "file");
	}
}

/* PFN to the first byte past it, saturated (a PFN near 2^52 with 256 KiB pages). */
static uint64_t pfn_bytes(uint64_t pfn, unsigned shift)
{
	return pfn > (UINT64_MAX >> shift) ? UINT64_MAX : pfn << shift;
}

/* proc/iomem, proc/zoneinfo and proc/meminfo contradict one another: one finding per contradiction. */
static void disagree_findings(const struct layout *l, struct findings *f)
{
	const struct memory_check *c = &l->check;
	struct finding *x;

	if (c->disagree & (1u << MEMORY_ZONES_PAST_IOMEM)) {
		uint64_t zones_end = pfn_bytes(c->zones_end_pfn, l->page_shift);
		uint64_t iomem_end = sat_add(c->iomem_last, 1);
		x = findings_raise(f, FC_MEMORY_INPUTS_DISAGREE_ZONES, NULL,
				   &(struct finding_args){ .bytes = zones_end, .max_bytes = iomem_end });
		finding_add_hex(f, x, "zones_end_pfn", c->zones_end_pfn);
		finding_add_hex(f, x, "iomem_last_byte", c->iomem_last);
		finding_add_hex(f, x, "iomem_end_pfn", (c->iomem_last >> l->page_shift) + 1);
		finding_add_u64(f, x, "page_size", l->page_size);
	}
	if (c->disagree & (1u << MEMORY_MEMTOTAL_OVER_IOMEM)) {
		x = findings_raise(f, FC_MEMORY_INPUTS_DISAGREE_IOMEM, NULL,
				   &(struct finding_args){ .bytes = c->mem_total, .max_bytes = c->iomem_ram_bytes });
		finding_add_u64(f, x, "mem_total_bytes", c->mem_total);
		finding_add_u64(f, x, "iomem_ram_bytes", c->iomem_ram_bytes);
	}
	if (c->disagree & (1u << MEMORY_MEMTOTAL_OVER_PRESENT)) {
		x = findings_raise(f, FC_MEMORY_INPUTS_DISAGREE_PRESENT, NULL,
				   &(struct finding_args){ .bytes = c->mem_total, .max_bytes = c->present_bytes });
		finding_add_u64(f, x, "mem_total_bytes", c->mem_total);
		finding_add_u64(f, x, "zones_present_bytes", c->present_bytes);
		finding_add_u64(f, x, "page_size", l->page_size);
	}
}

static void layout_findings(const struct machine *m, const struct layout *l, struct findings *f)
{
	struct finding *x;

	if (l->check.disagree) { /* the layout is unknown for this, and the finding says why */
		disagree_findings(l, f);
		return;
	}

	if (m->iomem_hidden && l->source == LAYOUT_SOURCE_ZONEINFO) {
		x = findings_raise(f, FC_IOMEM_HIDDEN, NULL, NULL);
		finding_add_str(f, x, "source", "zoneinfo");
		finding_add_pfn(f, x, "base_pfn", l->base_pfn);
		finding_add_pfn(f, x, "end_pfn", l->end_pfn);
		finding_add_u64(f, x, "ram_bytes", l->ram_bytes);
	}
	if (l->source == LAYOUT_SOURCE_NONE) {
		x = findings_raise(f, FC_MEMORY_LAYOUT_UNKNOWN, NULL,
				   &(struct finding_args){ .why = l->unknown_reason ? l->unknown_reason
										: "no memory layout" });
		finding_add_str(f, x, "iomem", m->iomem_hidden ? "hidden"
					       : m->iomem_ok ? "ok" : "unusable");
		finding_add_str(f, x, "zoneinfo", m->zoneinfo_ok ? "ok" : "unusable");
	} else if (!l->lowmem.known) {
		x = findings_raise(f, FC_LOWMEM_UNKNOWN, NULL,
				   &(struct finding_args){ .why = l->unknown_reason ? l->unknown_reason
										: "lowmem end unknown" });
		finding_add_pfn(f, x, "base_pfn", l->base_pfn);
		finding_add_pfn(f, x, "end_pfn", l->end_pfn);
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

	if (!r->bits.known || l->source == LAYOUT_SOURCE_NONE || !l->lowmem.known)
		return;
	/* from 5.13 (9bb33f24abbd) blk_queue_may_bounce() wants max_low_pfn >= max_pfn,
	 * false with highmem under either reading: no queue bounces, nothing to confuse */
	if (r->block_bounce != BLOCK_BOUNCE_PFN)
		return;
	if (legacy_block_bounce_high(l, r->bits.v, b) < 0)
		return;
	const struct legacy_block *c = &b[MAX_LOW_PFN_COUNT], *p = &b[MAX_LOW_PFN_PFN];
	if (!legacy_block_differ(c, p))
		return;
	bool used_count = r->max_low_pfn_reading == MAX_LOW_PFN_COUNT;
	/* only 32-bit ARM ever stored the count (ERA_MAX_LOW_PFN); x86 RAM at 0x1000
	 * is one page off, and no x86 kernel read it so */
	if (!used_count && r->arch_family != ARCH_ARM)
		return;
	struct finding *x = findings_raise(
		f, used_count ? FC_PFN_COUNT_CONFUSION_STORED : FC_PFN_COUNT_CONFUSION_NOT_AT_ZERO,
		NULL, NULL);
	confusion_evidence(f, x, l, c, p);
}

/*
 * pfn-count-confusion where it applies and costs nothing: silence would read as
 * "not checked". Without high memory max_low_pfn equals max_pfn under either
 * reading, so blk_queue_bounce() (mm/bounce.c, later block/bounce.c) returns
 * early for BLK_BOUNCE_HIGH: queue_bounce_pfn(q) >= blk_max_pfn.
 */
void confusion_cost_finding(const struct report *r, struct findings *f)
{
	const struct confusion_cost *c = &r->confusion;
	struct legacy_block b[2];

	if (!c->applies || !c->bounce_high_known || c->bounce_high_differs || c->devices_differ ||
	    legacy_block_bounce_high(&r->layout, r->bits.v, b) < 0)
		return;
	struct finding *x = findings_raise(f, c->highmem ? FC_PFN_COUNT_CONFUSION_UNUSED
							 : FC_PFN_COUNT_CONFUSION_UNUSED_NO_HIGHMEM,
					   NULL, NULL);
	confusion_evidence(f, x, &r->layout, &b[MAX_LOW_PFN_COUNT], &b[MAX_LOW_PFN_PFN]);
	finding_add_u64(f, x, "highmem_bytes", r->layout.lowmem.highmem_bytes);
	finding_add_u64(f, x, "disk_devices", c->devices);
}

/*
 * "DMA addr ... overflow" records of devices the report does not list (gone,
 * or a name no bus shows): one finding per name with the count, the first
 * record's numbers and the last's address, however long the log.
 */
static int logged_unlisted(const struct machine *m, struct findings *f)
{
	struct strmap names = STRMAP_INIT;
	_cleanup_free_ struct overflow_tally *t = NULL;
	size_t n = 0;
	int r = 0;

	for (size_t i = 0; i < m->n_overflows && r >= 0; i++) {
		const struct dma_overflow *o = &m->overflows[i];
		if (o->device && machine_find_device(m, o->device))
			continue; /* reported with its device */
		r = strmap_add(&names, o->device ? o->device : "", (int)n);
		if (r < 0)
			break;
		if (r == 1) {
			if (array_full(n)) {
				struct overflow_tally *v = reallocarray(t, array_capacity(n), sizeof(*v));
				if (!v) {
					r = -ENOMEM;
					break;
				}
				t = v;
			}
			t[n++] = (struct overflow_tally){ 0, o, o };
		}
		struct overflow_tally *x = &t[strmap_get(&names, o->device ? o->device : "")->value];
		x->n++;
		x->last = o;
	}
	for (size_t i = 0; r >= 0 && i < n; i++) {
		struct finding *x = findings_raise(f, FC_DMA_OVERFLOW_LOGGED_UNLISTED,
						   t[i].first->device, NULL);
		finding_add_hex(f, x, "addr", t[i].first->addr);
		finding_add_hex(f, x, "mask", t[i].first->mask);
		finding_add_hex(f, x, "bus_limit", t[i].first->bus_limit);
		finding_add_u64(f, x, "log_lines", t[i].n);
		if (t[i].n > 1)
			finding_add_hex(f, x, "last_addr", t[i].last->addr);
	}
	strmap_done(&names);
	return r < 0 ? r : 0;
}

/*
 * Whether a full pool grows: CONFIG_SWIOTLB_DYNAMIC (6.6+, default n), seen as
 * debugfs swiotlb/io_tlb_transient_nslabs (swiotlb_create_debugfs_files). Then
 * swiotlb_find_slots() gives a mapping that finds no room a transient pool of
 * its own size below the device's limit (GFP_NOWAIT) and schedules a new
 * regular pool (swiotlb_dyn_alloc): exhaustion fails only when those
 * allocations do. Xen's remapped pool never grows (swiotlb_init_remap:
 * can_grow only without remap). TRI_UNKNOWN without debugfs.
 */
static enum tristate swiotlb_dynamic(const struct machine *m, const struct report *r)
{
	if (r->swiotlb.xen_pv)
		return TRI_NO;
	if (m->swiotlb.transient.known)
		return TRI_YES;
	return m->swiotlb.nslabs.known ? TRI_NO : TRI_UNKNOWN;
}

static void add_dynamic_evidence(const struct machine *m, struct findings *f, struct finding *x,
				 enum tristate dynamic)
{
	if (dynamic == TRI_UNKNOWN)
		return;
	finding_add_bool(f, x, "dynamic", dynamic == TRI_YES);
	if (dynamic == TRI_YES)
		finding_add_u64(f, x, "transient_bytes", sat_shl(m->swiotlb.transient.v, IO_TLB_SHIFT));
}

static void swiotlb_findings(const struct machine *m, const struct report *r, struct findings *f)
{
	const struct swiotlb_state *s = &r->swiotlb;
	enum tristate dynamic = swiotlb_dynamic(m, r);
	struct finding *x;

	if (s->forced) {
		x = findings_raise(f, FC_FORCED_BOUNCE, NULL, &(struct finding_args){ .why = s->forced_why });
		if (s->size_bytes.known)
			finding_add_u64(f, x, "swiotlb_bytes", s->size_bytes.v);
	}
	if (s->size_bytes.known && s->size_bytes.v && (s->used_bytes.known || s->hiwater_bytes.known)) {
		uint64_t peak = s->hiwater_bytes.known ? s->hiwater_bytes.v : s->used_bytes.v;
		if (peak >= s->size_bytes.v / 10 * 9) {
			x = findings_raise(f, dynamic == TRI_YES ? FC_SWIOTLB_PRESSURE_PEAK_GROWS
								 : FC_SWIOTLB_PRESSURE_PEAK,
					   NULL, NULL);
			finding_add_u64(f, x, "swiotlb_bytes", s->size_bytes.v);
			finding_add_u64(f, x, "peak_used_bytes", peak);
			add_dynamic_evidence(m, f, x, dynamic);
		}
	}
}

/* The "swiotlb buffer is full" records of v: those with no room (pressure), those of devices
 * not listed with room left (no slot suited them), and the first of those. */
static void full_counts(const struct machine *m, const struct swiotlb_full *v, size_t n, bool poolless,
			uint64_t *ret_no_room, uint64_t *ret_unlisted, const struct swiotlb_full **ret_first)
{
	for (size_t i = 0; !poolless && i < n; i++) {
		const struct swiotlb_full *l = &v[i];
		enum full_line_kind k = swiotlb_full_kind(l, &m->swiotlb);
		if (k == FULL_NO_ROOM)
			(*ret_no_room)++;
		else if (k == FULL_WITH_ROOM && !(l->device && machine_find_device(m, l->device)) &&
			 !(*ret_unlisted)++)
			*ret_first = l; /* a listed device's are reported with it */
	}
}

static void log_findings(const struct machine *m, const struct report *r, struct findings *f)
{
	struct finding *x;

	/* with no pool, 5.0-5.18 log "buffer is full, total 0 (slots)" for every mapping
	 * out of reach: the devices' bounce-impossible says so, no pool was under pressure */
	bool poolless = r->swiotlb.active == TRI_NO &&
			era_value(ERA_POOLLESS_MAP, r->release, r->arch_family, NULL) ==
				POOLLESS_TRIES_SWIOTLB;
	/* the boot log and the --observe window's records, each counted: a live window's records
	 * are in the log read after it too, a snapshot's log may have lost them, so the larger
	 * count of each kind is the one no record is counted twice in */
	uint64_t no_room = 0, unlisted = 0, window_no_room = 0, window_unlisted = 0;
	const struct swiotlb_full *first_unlisted = NULL, *first_window_unlisted = NULL;
	full_counts(m, m->swiotlb_full, m->n_swiotlb_full, poolless, &no_room, &unlisted, &first_unlisted);
	full_counts(m, m->observed.full, m->observed.n_full, poolless, &window_no_room, &window_unlisted,
		    &first_window_unlisted);
	if (window_no_room > no_room)
		no_room = window_no_room;
	if (window_unlisted > unlisted) {
		unlisted = window_unlisted;
		first_unlisted = first_window_unlisted;
	}
	if (no_room) {
		enum tristate dynamic = swiotlb_dynamic(m, r);
		x = findings_raise(f, dynamic == TRI_YES ? FC_SWIOTLB_PRESSURE_LOGGED_GROWS
							 : FC_SWIOTLB_PRESSURE_LOGGED,
				   NULL, NULL);
		finding_add_u64(f, x, "log_lines", no_room);
		if (m->observed.present)
			finding_add_u64(f, x, "window_lines", window_no_room);
		add_dynamic_evidence(m, f, x, dynamic);
	}
	if (unlisted) {
		x = findings_raise(f, FC_SWIOTLB_NO_SLOT_UNLISTED, first_unlisted->device, NULL);
		add_full_evidence(f, x, first_unlisted, unlisted);
	}
	if (r->swiotlb.xen_pv) {
		x = findings_raise(f, FC_XEN_PV_UNDECIDABLE, NULL, NULL);
		finding_add_str(f, x, "why", r->swiotlb.xen_why);
	}
	if (logged_unlisted(m, f) < 0)
		f->err = -ENOMEM;
	for (size_t i = 0; i < m->n_pool_overflows; i++) {
		const struct dma_overflow *o = &m->pool_overflows[i];
		if (o->device && machine_find_device(m, o->device))
			continue; /* reported with its device */
		x = findings_raise(f, FC_SWIOTLB_OUT_OF_REACH_UNLISTED, o->device, NULL);
		finding_add_hex(f, x, "addr", o->addr);
		finding_add_u64(f, x, "size", o->size);
		finding_add_hex(f, x, "mask", o->mask);
		finding_add_hex(f, x, "bus_limit", o->bus_limit);
	}
}

/* The lowest CPU address a device bound later may fail to reach, and what it is. */
static uint64_t latent_boundary(const struct report *r, const char **ret_what, const char **ret_node)
{
	uint64_t boundary = UINT64_C(1) << 32;

	*ret_what = "4 GiB, the reach of a 32-bit DMA mask";
	*ret_node = NULL;
	/* a window narrower than 4 GiB stops every device below it, whatever its mask */
	for (size_t i = 0; i < r->devices.n_devices; i++) {
		const struct dma_map *map = &r->devices.devices[i].map;
		uint64_t end = 0;
		if (map->state != DMA_MAP_RANGES || map->from_iort)
			continue;
		for (size_t k = 0; k < map->n_regions; k++) {
			uint64_t e = sat_add(map->regions[k].cpu_start, map->regions[k].size);
			end = e > end ? e : end;
		}
		if (end && end < boundary) {
			boundary = end;
			*ret_what = "the end of the narrowest dma-ranges window";
			*ret_node = map->node;
		}
	}
	return boundary;
}

/* Every device an IOMMU translates (bridges aside, and at least one): the next one will be too. */
static bool all_translated(const struct report *r)
{
	size_t translated = 0;

	for (size_t i = 0; i < r->devices.n_devices; i++) {
		const struct device_report *dr = &r->devices.devices[i];
		enum iommu_domain d = dr->dev->iommu_domain;
		if (dr->bridge)
			continue;
		if (dr->verdict != VERDICT_IOMMU && d != IOMMU_DOMAIN_DMA && d != IOMMU_DOMAIN_DMA_FQ)
			return false;
		translated++;
	}
	return translated > 0;
}

void latent_findings(const struct report *r, struct findings *f)
{
	const struct swiotlb_state *s = &r->swiotlb;
	const char *what, *node;

	/* no pool, or one the boot log places where such a device cannot reach it */
	bool pool_above = s->active == TRI_YES && s->pool.known;
	if ((s->active != TRI_NO && !pool_above) || s->xen_pv || s->forced ||
	    r->layout.source == LAYOUT_SOURCE_NONE || all_translated(r))
		return;
	uint64_t boundary = latent_boundary(r, &what, &node);
	if (pool_above && s->pool.end <= boundary)
		return; /* within reach: the pool takes the next device's bounces */
	uint64_t above = layout_ram_bytes_above(&r->layout, boundary);
	if (!above)
		return;
	/* 32-bit ARM before 6.0 without LPAE: arm_dma_ops maps without a reach check */
	int rule = era_value(ERA_STREAMING_MAP, r->release, r->arch_family, NULL);
	bool unchecked = r->arch_family == ARCH_ARM &&
			 (rule == STREAMING_ARM_NO_CHECK ||
			  (rule == STREAMING_ARM_LPAE_DIRECT && s->arm_lpae != TRI_YES));
	struct finding *x = findings_raise(
		f, pool_above ? FC_NO_BOUNCE_POOL_OUT_OF_REACH : unchecked ? FC_NO_BOUNCE_POOL_UNCHECKED
									 : FC_NO_BOUNCE_POOL, NULL,
		&(struct finding_args){ .bytes = above, .text = what,
					.why = s->active_why ? s->active_why : "none was made" });
	finding_add_u64(f, x, "ram_above_bytes", above);
	finding_add_hex(f, x, "boundary", boundary);
	if (node)
		finding_add_str(f, x, "dma_ranges_node", node);
	finding_add_str(f, x, "why", s->active_why ? s->active_why : "none was made");
	if (pool_above) {
		finding_add_hex(f, x, "pool_start", s->pool.start);
		finding_add_hex(f, x, "pool_end", s->pool.end - 1);
	}
}

void machine_findings(const struct machine *m, const struct report *r, struct findings *f)
{
	snapshot_findings(m, f);
	visibility_findings(m, f);
	identity_findings(m, f);
	layout_findings(m, &r->layout, f);
	confusion_finding(r, f);
	swiotlb_findings(m, r, f);
	log_findings(m, r, f);
}
