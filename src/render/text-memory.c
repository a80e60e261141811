/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The text report's memory block: what matters in plain words (where RAM
 * starts, what a 32-bit device cannot reach, whether the page count/PFN
 * confusion applies), the kernel's names in parentheses; the ranges and
 * zones behind it with --verbose.
 */
#include <libsmartcols.h>
#include <string.h>

#include "analysis/eras.h"
#include "render/text-parts.h"
#include "render/text-util.h"
#include "shared/macro.h"

static void print_ranges(FILE *out, const struct layout *l, const struct render_options *o)
{
	static const char *const cols[] = { "START", "END", "SIZE" };
	struct libscols_table *t = text_new_table(out, cols, ARRAY_SIZE(cols), 1, o);
	struct strbuf b = { 0 };

	if (!t)
		return;
	for (size_t i = 0; i < l->n_ranges; i++) {
		struct libscols_line *ln = scols_table_new_line(t, NULL);
		if (!ln)
			break;
		strbuf_append_hex(&b, l->ranges[i].start);
		text_set_cell(ln, 0, &b);
		strbuf_append_hex(&b, l->ranges[i].end);
		text_set_cell(ln, 1, &b);
		text_append_size(&b, l->ranges[i].end - l->ranges[i].start + 1, o->bytes);
		text_set_cell(ln, 2, &b);
	}
	fputc('\n', out);
	scols_print_table(t);
	scols_unref_table(t);
}

static void print_zones(FILE *out, const struct layout *l, const struct render_options *o)
{
	static const char *const cols[] = { "ZONE", "NODE", "START_PFN", "SPANNED", "PRESENT" };
	struct libscols_table *t = text_new_table(out, cols, ARRAY_SIZE(cols), 1, o);
	struct strbuf b = { 0 };

	if (!t)
		return;
	for (size_t i = 0; i < l->n_zones; i++) {
		const struct zone *z = &l->zones[i];
		struct libscols_line *ln = scols_table_new_line(t, NULL);
		if (!ln)
			break;
		scols_line_set_data(ln, 0, z->name);
		strbuf_append_u64(&b, (uint64_t)z->node);
		text_set_cell(ln, 1, &b);
		if (z->populated)
			strbuf_append_hex(&b, z->start_pfn);
		else
			strbuf_append(&b, "-");
		text_set_cell(ln, 2, &b);
		text_append_pages(&b, z->spanned, l->page_shift, o->bytes);
		text_set_cell(ln, 3, &b);
		text_append_pages(&b, z->present, l->page_shift, o->bytes);
		text_set_cell(ln, 4, &b);
	}
	fputc('\n', out);
	scols_print_table(t);
	scols_unref_table(t);
}

/* One line of the block: "  " and text, wrapped under itself. b is emptied. */
static void say(FILE *out, struct strbuf *b, unsigned width)
{
	_cleanup_free_ char *s = strbuf_steal(b);
	fputs("  ", out);
	text_print_wrapped(out, s ? s : "?", 2, 4, width);
}

/* What the count costs where it applies: the queues it changes, or why it changes none. */
static void say_confusion_cost(const struct confusion_cost *c, struct strbuf *b, bool exact)
{
	char tmp[160];

	if (c->devices_differ && !c->count_reading_only_bytes && !c->count_reading_missed_bytes) {
		snprintf(tmp, sizeof(tmp), ": it changes how the block layer bounces for the disks of %zu "
			 "device%s, though not how much (see pfn-count-confusion)",
			 c->devices_differ, c->devices_differ == 1 ? "" : "s");
		strbuf_append(b, tmp);
		return;
	}
	if (c->devices_differ) {
		strbuf_append(b, ": it makes the block layer ");
		if (c->count_reading_only_bytes) {
			strbuf_append(b, "bounce ");
			text_append_amount(b, c->count_reading_only_bytes, exact);
			strbuf_append(b, " more");
		}
		if (c->count_reading_only_bytes && c->count_reading_missed_bytes)
			strbuf_append(b, " and ");
		if (c->count_reading_missed_bytes) {
			strbuf_append(b, "leave ");
			text_append_amount(b, c->count_reading_missed_bytes, exact);
			strbuf_append(b, " unbounced");
		}
		snprintf(tmp, sizeof(tmp), " for the disks of %zu device%s (see pfn-count-confusion)",
			 c->devices_differ, c->devices_differ == 1 ? "" : "s");
		strbuf_append(b, tmp);
		return;
	}
	if (c->bounce_high_differs) {
		strbuf_append(b, " to a disk without a DMA mask (see pfn-count-confusion), but no listed "
				 "disk's queue decides differently");
		return;
	}
	strbuf_append(b, ", but changes no bounce decision here: ");
	strbuf_append(b, c->highmem ? "a queue without a DMA mask bounces the same pages under either reading"
				    : "with no high memory, a queue without a DMA mask bounces nothing under "
				      "either reading");
	if (!c->devices) {
		strbuf_append(b, ", and no disk's queue is listed");
	} else if (c->devices == 1) {
		strbuf_append(b, ", and the listed device's disks bounce the same pages under either reading");
	} else {
		snprintf(tmp, sizeof(tmp), ", and the %zu listed devices' disks", c->devices);
		strbuf_append(b, tmp);
		strbuf_append(b, " bounce the same pages under either reading");
	}
}

/*
 * Where max_low_pfn is the PFN the block layer compares it with, the count is
 * only what it would be: say why it differs. On x86 RAM is listed from 0x1000
 * because page 0 is the firmware's (arch/x86/kernel/setup.c trim_bios_range),
 * while PFNs count from address 0 as everywhere.
 */
static void say_pfn_kept(const struct report *r, struct strbuf *b)
{
	const struct layout *l = &r->layout;
	char tmp[320];
	char fewer[48];

	if (l->base_pfn == 1)
		snprintf(fewer, sizeof(fewer), "1 page fewer");
	else
		snprintf(fewer, sizeof(fewer), "0x%llx pages fewer", (unsigned long long)l->base_pfn);
	snprintf(tmp, sizeof(tmp),
		 "max_low_pfn is a page frame number on this kernel (0x%llx), the unit the block layer "
		 "compares it in: the confusion does not apply. ",
		 (unsigned long long)l->lowmem.max_low_pfn_as_pfn);
	strbuf_append(b, tmp);
	if (r->arch_family == ARCH_X86 && l->base_pfn == 1)
		snprintf(tmp, sizeof(tmp),
			 "Counted from where RAM starts it would be 0x%llx, 1 page fewer, only because "
			 "the firmware keeps page 0; no x86 kernel kept that count",
			 (unsigned long long)l->lowmem.max_low_pfn_as_count);
	else if (r->arch_family == ARCH_X86)
		snprintf(tmp, sizeof(tmp),
			 "Counted from where RAM starts it would be 0x%llx, %s, only because the "
			 "firmware keeps the memory below 0x%llx; no x86 kernel kept that count",
			 (unsigned long long)l->lowmem.max_low_pfn_as_count, fewer,
			 (unsigned long long)(l->base_pfn << l->page_shift));
	else
		snprintf(tmp, sizeof(tmp),
			 "Kept as a count of pages from where RAM starts (0x%llx), as 32-bit ARM did "
			 "before v3.13, it would be 0x%llx, %s: one for each page frame below RAM",
			 (unsigned long long)(l->base_pfn << l->page_shift),
			 (unsigned long long)l->lowmem.max_low_pfn_as_count, fewer);
	strbuf_append(b, tmp);
}

static void say_confusion(FILE *out, const struct report *r, struct strbuf *b, unsigned width, bool exact)
{
	const struct layout *l = &r->layout;
	char tmp[256];

	if (l->lowmem.max_low_pfn_as_count == l->lowmem.max_low_pfn_as_pfn) {
		strbuf_append(b, "a page count and a page frame number agree here (RAM starts at "
				 "address 0): the max_low_pfn confusion cannot arise");
	} else if (r->release == 0 || r->max_low_pfn_reading == MAX_LOW_PFN_COUNT) {
		/* release unknown: era_value() gave the newest row, not this kernel's word */
		snprintf(tmp, sizeof(tmp),
			 r->release == 0 ? "whether this kernel keeps max_low_pfn as a page count (0x%llx) "
					   "or a page frame number (0x%llx) is unknown (kernel release unknown)"
					 : "this kernel keeps max_low_pfn as a page count (0x%llx) where the "
					   "block layer compares page frame numbers (0x%llx): the confusion applies",
			 (unsigned long long)l->lowmem.max_low_pfn_as_count,
			 (unsigned long long)l->lowmem.max_low_pfn_as_pfn);
		strbuf_append(b, tmp);
		if (r->confusion.applies)
			say_confusion_cost(&r->confusion, b, exact);
	} else {
		say_pfn_kept(r, b);
	}
	say(out, b, width);
}

void text_print_memory(FILE *out, const struct report *r, const struct render_options *o,
		       unsigned width)
{
	const struct layout *l = &r->layout;
	struct strbuf b = { 0 };
	char tmp[160];
	bool exact = o->bytes;

	fprintf(out, "Memory (from %s)\n", l->source == LAYOUT_SOURCE_IOMEM ? "proc/iomem"
					    : l->source == LAYOUT_SOURCE_ZONEINFO ? "proc/zoneinfo"
										: "nothing usable");
	if (l->source == LAYOUT_SOURCE_NONE) {
		strbuf_append(&b, "unknown: ");
		strbuf_append(&b, l->unknown_reason ? l->unknown_reason : "?");
		say(out, &b, width);
		return;
	}
	text_append_amount(&b, l->ram_bytes, exact);
	snprintf(tmp, sizeof(tmp), " of RAM in %zu range%s", l->n_ranges, l->n_ranges == 1 ? "" : "s");
	strbuf_append(&b, tmp);
	if (l->n_ranges) {
		strbuf_append(&b, ", ");
		strbuf_append_hex(&b, l->ranges[0].start);
		strbuf_append(&b, " to ");
		strbuf_append_hex(&b, l->ranges[l->n_ranges - 1].end);
	}
	if (l->source == LAYOUT_SOURCE_ZONEINFO)
		strbuf_append(&b, " (zone spans: holes not known)");
	say(out, &b, width);

	if (l->base_pfn == 0 || !l->n_ranges) {
		strbuf_append(&b, "RAM starts at address 0 (min_low_pfn 0)");
	} else {
		strbuf_append(&b, "RAM starts at ");
		strbuf_append_hex(&b, l->ranges[0].start);
		snprintf(tmp, sizeof(tmp), ", not at address 0 (min_low_pfn 0x%llx)",
			 (unsigned long long)l->base_pfn);
		strbuf_append(&b, tmp);
	}
	say(out, &b, width);

	uint64_t above = layout_ram_bytes_above(l, 1ULL << 32);
	if (above) {
		text_append_amount(&b, above, exact);
		strbuf_append(&b, " of it lies above 4 GiB, out of reach of a 32-bit DMA mask");
	} else {
		strbuf_append(&b, "all of it lies below 4 GiB, within reach of a 32-bit DMA mask");
	}
	say(out, &b, width);

	if (!l->lowmem.known) {
		strbuf_append(&b, "where low memory ends is unknown: ");
		strbuf_append(&b, l->unknown_reason ? l->unknown_reason : "?");
		say(out, &b, width);
	} else {
		if (l->lowmem.highmem_bytes) {
			text_append_amount(&b, l->lowmem.highmem_bytes, exact);
			strbuf_append(&b, " is high memory, which the kernel maps only on demand");
		} else {
			strbuf_append(&b, "all of it is low memory, mapped by the kernel");
		}
		snprintf(tmp, sizeof(tmp), ", up to page frame 0x%llx (%s)",
			 (unsigned long long)l->lowmem.end_pfn, l->lowmem.source);
		strbuf_append(&b, tmp);
		say(out, &b, width);
		say_confusion(out, r, &b, width, exact);
	}
	if (o->verbose) {
		print_ranges(out, l, o);
		if (l->n_zones)
			print_zones(out, l, o);
	}
}
