/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The human report: a summary, libsmartcols tables, findings with remedies. */
#include "config.h"

#include <libsmartcols.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "analysis/eras.h"
#include "analysis/prediction-check.h"
#include "render/columns.h"
#include "render/render.h"
#include "shared/kernel-defs.h"
#include "shared/macro.h"
#include "shared/sat.h"
#include "shared/strbuf.h"
#include "shared/text.h"
#include "shared/utf8.h"

/*
 * Snapshot text on a terminal: control bytes (escape sequences, newlines),
 * C1 controls and invalid UTF-8 are shown as \xNN, never sent raw.
 */
static void append_safe(struct strbuf *b, const char *s)
{
	const unsigned char *u = (const unsigned char *)(s ? s : "");
	size_t left = strlen((const char *)u);

	while (left) {
		size_t n = u[0] < 0x20 || u[0] == 0x7f ? 0 : utf8_seq_len(u, left);
		if (n == 2 && u[0] == 0xc2 && u[1] < 0xa0)
			n = 0; /* U+0080..U+009F: C1 controls */
		if (n == 0) {
			char hex[5] = { '\\', 'x', "0123456789abcdef"[u[0] >> 4], "0123456789abcdef"[u[0] & 15], 0 };
			strbuf_append(b, hex);
			n = 1;
		} else if (u[0] == '\\') {
			strbuf_append(b, "\\\\"); /* else a real "\x0a" and an escaped newline read alike */
		} else {
			strbuf_append_n(b, (const char *)u, n);
		}
		u += n;
		left -= n;
	}
}

static void put_safe(FILE *out, const char *s)
{
	struct strbuf b = { 0 };
	append_safe(&b, s);
	_cleanup_free_ char *t = strbuf_steal(&b);
	fputs(t ? t : "", out);
}

/* Columns to wrap prose at: COLUMNS, else the terminal's, else none (a pipe, a file). */
static unsigned text_width(bool terminal)
{
	const char *c = getenv("COLUMNS");
	uint64_t v;
	struct winsize ws;

	if (c && parse_u64(c, strlen(c), 10, &v) == 0 && v >= 40 && v <= 1000)
		return (unsigned)v;
	if (terminal && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
		return ws.ws_col;
	return 0;
}

/*
 * Print text (already made safe) starting at column col, breaking at spaces so
 * no line passes width (0: never), continuation lines indented by indent.
 */
static void print_wrapped(FILE *out, const char *text, unsigned col, unsigned indent, unsigned width)
{
	const char *p = text ? text : "";

	while (*p) {
		size_t word = strcspn(p, " ");
		if (width && col > indent && col + word > width) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		}
		fwrite(p, 1, word, out);
		col += (unsigned)word;
		p += word;
		if (*p == ' ') {
			p++;
			if (*p && !(width && col + 1 + strcspn(p, " ") > width)) {
				fputc(' ', out);
				col++;
			} else if (*p) {
				fprintf(out, "\n%*s", (int)indent, "");
				col = indent;
			}
		}
	}
	fputc('\n', out);
}

static void print_size(FILE *out, uint64_t bytes)
{
	struct strbuf b = { 0 };
	strbuf_append_size(&b, bytes);
	_cleanup_free_ char *s = strbuf_steal(&b);
	fputs(s ? s : "?", out);
}

static void set_hex(struct libscols_line *ln, size_t col, uint64_t v)
{
	_cleanup_free_ char *s = hex_string(v);
	scols_line_set_data(ln, col, s);
}

static void set_u64(struct libscols_line *ln, size_t col, uint64_t v)
{
	struct strbuf b = { 0 };
	strbuf_append_u64(&b, v);
	_cleanup_free_ char *s = strbuf_steal(&b);
	scols_line_set_data(ln, col, s);
}

static void set_size(struct libscols_line *ln, size_t col, uint64_t v)
{
	struct strbuf b = { 0 };
	strbuf_append_size(&b, v);
	_cleanup_free_ char *s = strbuf_steal(&b);
	scols_line_set_data(ln, col, s);
}

static struct libscols_table *new_table(FILE *out, const char *const *cols, size_t n)
{
	struct libscols_table *t = scols_new_table();
	if (!t)
		return NULL;
	scols_table_set_stream(t, out);
	for (size_t i = 0; i < n; i++) {
		/* right-align numbers; the first column of each table is a label */
		int flags = i == 0 ? 0 : SCOLS_FL_RIGHT;
		if (!scols_table_new_column(t, cols[i], 0, flags)) {
			scols_unref_table(t);
			return NULL;
		}
	}
	return t;
}

static void print_ranges(FILE *out, const struct layout *l)
{
	static const char *const cols[] = { "START", "END", "SIZE" };
	struct libscols_table *t = new_table(out, cols, ARRAY_SIZE(cols));
	if (!t)
		return;
	scols_table_enable_noheadings(t, 0);
	for (size_t i = 0; i < l->n_ranges; i++) {
		struct libscols_line *ln = scols_table_new_line(t, NULL);
		if (!ln)
			break;
		set_hex(ln, 0, l->ranges[i].start);
		set_hex(ln, 1, l->ranges[i].end);
		set_size(ln, 2, l->ranges[i].end - l->ranges[i].start + 1);
	}
	scols_print_table(t);
	scols_unref_table(t);
}

static void print_zones(FILE *out, const struct layout *l)
{
	static const char *const cols[] = { "ZONE", "NODE", "START_PFN", "SPANNED", "PRESENT" };
	struct libscols_table *t = new_table(out, cols, ARRAY_SIZE(cols));
	if (!t)
		return;
	for (size_t i = 0; i < l->n_zones; i++) {
		const struct zone *z = &l->zones[i];
		struct libscols_line *ln = scols_table_new_line(t, NULL);
		if (!ln)
			break;
		scols_line_set_data(ln, 0, z->name);
		set_u64(ln, 1, (uint64_t)z->node);
		if (z->populated)
			set_hex(ln, 2, z->start_pfn);
		else
			scols_line_set_data(ln, 2, "-");
		set_u64(ln, 3, z->spanned);
		set_u64(ln, 4, z->present);
	}
	scols_print_table(t);
	scols_unref_table(t);
}

static void print_memory(FILE *out, const struct layout *l)
{
	fprintf(out, "Memory (from %s)\n", layout_source_to_string(l->source));
	if (l->source == LAYOUT_SOURCE_NONE) {
		fprintf(out, "  unknown: %s\n", l->unknown_reason ? l->unknown_reason : "?");
		return;
	}
	fputs("  RAM              ", out);
	print_size(out, l->ram_bytes);
	fprintf(out, " in %zu range%s%s\n", l->n_ranges, l->n_ranges == 1 ? "" : "s",
		l->source == LAYOUT_SOURCE_ZONEINFO ? " (zone spans: holes not known)" : "");
	fprintf(out, "  base PFN         0x%llx  (min_low_pfn: first RAM page)\n",
		(unsigned long long)l->base_pfn);
	fprintf(out, "  end PFN          0x%llx  (max_pfn)\n", (unsigned long long)l->end_pfn);
	if (!l->lowmem_known) {
		fprintf(out, "  lowmem end       unknown: %s\n", l->unknown_reason);
	} else {
		fprintf(out, "  lowmem end PFN   0x%llx  (%s)\n", (unsigned long long)l->lowmem_end_pfn,
			l->lowmem_source);
		fprintf(out, "  low page count   0x%llx\n", (unsigned long long)l->low_page_count);
		fprintf(out, "  max_low_pfn      0x%llx as a count, 0x%llx as a PFN\n",
			(unsigned long long)l->max_low_pfn_as_count,
			(unsigned long long)l->max_low_pfn_as_pfn);
		fputs("  highmem          ", out);
		print_size(out, l->highmem_bytes);
		fputc('\n', out);
	}
	fputc('\n', out);
	print_ranges(out, l);
	if (l->n_zones) {
		fputc('\n', out);
		print_zones(out, l);
	}
}

static void print_swiotlb(FILE *out, const struct swiotlb_state *s, unsigned width)
{
	static const char *const tri[] = { [TRI_NO] = "no", [TRI_YES] = "yes", [TRI_UNKNOWN] = "unknown" };
	struct strbuf b = { 0 };

	strbuf_append(&b, "active: ");
	strbuf_append(&b, tri[s->active]);
	strbuf_append(&b, " (");
	strbuf_append(&b, s->active_why ? s->active_why : "?");
	strbuf_append(&b, ")");
	if (s->size_known) {
		strbuf_append(&b, ", size ");
		strbuf_append_size(&b, s->size_bytes);
		if (s->size_prov == PROV_ASSUMED)
			strbuf_append(&b, " (assumed)");
	}
	if (s->pool_known) {
		strbuf_append(&b, ", pool ");
		strbuf_append_hex(&b, s->pool_start);
		strbuf_append(&b, "-");
		strbuf_append_hex(&b, s->pool_end - 1);
	}
	if (s->used_known) {
		strbuf_append(&b, ", used ");
		strbuf_append_size(&b, s->used_bytes);
	}
	if (s->forced) {
		strbuf_append(&b, "; forced: ");
		strbuf_append(&b, s->forced_why);
	}
	_cleanup_free_ char *t = strbuf_steal(&b);
	fputs("\nswiotlb          ", out);
	print_wrapped(out, t, 17, 17, width);
}

static void table_setup(struct libscols_table *t, const struct render_options *o)
{
	if (o->width) { /* a terminal, or COLUMNS: fit it, truncating the truncatable columns */
		scols_table_set_termforce(t, SCOLS_TERMFORCE_ALWAYS);
		scols_table_set_termwidth(t, o->width);
	}
	scols_table_enable_raw(t, o->raw);
	scols_table_enable_noheadings(t, o->noheadings);
	scols_table_enable_colors(t, o->color == 1);
}

/* What the --observe window covered, in one wrapped line. */
static void print_observation(FILE *out, const struct machine *m, const struct report *r,
			      unsigned width)
{
	const struct observation *ob = &m->observed;
	struct strbuf b = { 0 };
	uint64_t bounces = 0, bytes = 0, peak, other = 0;
	size_t devices = 0, contradicted = 0;
	char tmp[160];
	bool exact;

	if (!ob->present)
		return;
	for (size_t i = 0; i < ob->n_devices; i++) {
		bool listed = false;
		for (size_t k = 0; k < r->devices.n_devices && !listed; k++)
			listed = r->devices.devices[k].observed == &ob->devices[i];
		bounces += ob->devices[i].bounces;
		bytes += ob->devices[i].bytes;
		devices += ob->devices[i].bounces > 0;
		other += listed ? 0 : ob->devices[i].bounces;
	}
	for (size_t i = 0; i < r->devices.n_devices; i++)
		contradicted += r->devices.devices[i].observed_result == OBSERVED_CONTRADICTED;
	snprintf(tmp, sizeof(tmp), "%.1f s of swiotlb_bounced%s: %llu bounces (", ob->window_seconds,
		 ob->interrupted ? " (ended early by Ctrl-C)" : "", (unsigned long long)bounces);
	strbuf_append(&b, tmp);
	strbuf_append_size(&b, bytes);
	snprintf(tmp, sizeof(tmp), ") from %zu devices, %zu predictions contradicted", devices,
		 contradicted);
	strbuf_append(&b, tmp);
	if (other) {
		snprintf(tmp, sizeof(tmp), ", %llu bounces from devices not listed",
			 (unsigned long long)other);
		strbuf_append(&b, tmp);
	}
	if (!ob->lost_known) {
		strbuf_append(&b, "; events lost: unknown");
	} else if (ob->lost_events) {
		snprintf(tmp, sizeof(tmp), "; %llu events lost (trace buffer full): counts are low",
			 (unsigned long long)ob->lost_events);
		strbuf_append(&b, tmp);
	}
	if (observation_pool_peak(ob, &peak, &exact)) {
		strbuf_append(&b, exact ? "; pool peak " : "; pool use at least ");
		strbuf_append_size(&b, sat_shl(peak, IO_TLB_SHIFT));
	}
	if (ob->full_messages) {
		snprintf(tmp, sizeof(tmp), "; %u \"swiotlb buffer is full\"", ob->full_messages);
		strbuf_append(&b, tmp);
	}
	_cleanup_free_ char *t = strbuf_steal(&b);
	fputs("observed         ", out);
	print_wrapped(out, t ? t : "?", 17, 17, width);
}

/* A verdict's colour, by meaning (as dmesg and systemd colour levels); NULL: none. */
static const char *verdict_colour(enum verdict v)
{
	switch (v) {
	case VERDICT_FAILS:
		return "red";
	case VERDICT_PARTIAL:
	case VERDICT_FORCED:
	case VERDICT_UNKNOWN:
		return "yellow";
	case VERDICT_DIRECT:
	case VERDICT_IOMMU:
		return "green";
	default:
		return NULL;
	}
}

/* The colour of a device-table cell: VERDICT by verdict, CHECK by result. */
static const char *cell_colour(const struct column *c, const struct device_report *r)
{
	if (strcmp(c->name, "VERDICT") == 0)
		return verdict_colour(r->verdict);
	if (strcmp(c->name, "CHECK") == 0)
		return r->observed_result == OBSERVED_CONTRADICTED ? "red"
		       : r->observed_result == OBSERVED_CONSISTENT ? "green"
								   : NULL;
	return NULL;
}

/* No device has a value in this column. */
static bool column_empty(const struct column *c, const struct report *r)
{
	for (size_t i = 0; i < r->devices.n_devices; i++) {
		char *v = c->get(&r->devices.devices[i]);
		free(v);
		if (v)
			return false;
	}
	return true;
}

static void print_devices(FILE *out, const struct report *r, const struct render_options *o)
{
	size_t n_all, defaults[32], n = 0;
	const struct column *all = columns_all(&n_all);
	const size_t *idx = o->columns;

	if (!idx) {
		/* with an observation, its two columns join the defaults, and make
		 * room in 80 columns by leaving out default columns with no value */
		bool observed = r->devices.n_devices &&
				r->devices.devices[0].observed_result != OBSERVED_NONE;
		for (size_t i = 0; i < n_all && n < ARRAY_SIZE(defaults); i++) {
			bool obs_col = strcmp(all[i].name, "OBSERVED") == 0 || strcmp(all[i].name, "CHECK") == 0;
			if (observed && all[i].deflt && column_empty(&all[i], r))
				continue;
			if (all[i].deflt || (observed && obs_col))
				defaults[n++] = i;
		}
		idx = defaults;
	} else {
		n = o->n_columns;
	}
	fputs("\nDevices\n", out);
	if (r->devices.n_devices == 0) {
		fputs("  none found\n", out);
		return;
	}
	struct libscols_table *t = scols_new_table();
	if (!t)
		return;
	scols_table_set_stream(t, out);
	table_setup(t, o);
	for (size_t c = 0; c < n; c++) {
		const struct column *col = &all[idx[c]];
		int fl = (col->right ? SCOLS_FL_RIGHT : 0) | (col->trunc ? SCOLS_FL_TRUNC : 0);
		scols_table_new_column(t, col->name, 0, fl);
	}
	for (size_t i = 0; i < r->devices.n_devices; i++) {
		const struct device_report *dr = &r->devices.devices[i];
		struct libscols_line *ln = scols_table_new_line(t, NULL);
		if (!ln)
			break;
		for (size_t c = 0; c < n; c++) {
			char *v = all[idx[c]].get(dr);
			if (v && scols_line_refer_data(ln, c, v) < 0)
				free(v);
			const char *colour = cell_colour(&all[idx[c]], dr);
			if (v && colour && o->color == 1)
				scols_cell_set_color(scols_line_get_cell(ln, c), colour);
		}
	}
	scols_print_table(t);
	scols_unref_table(t);
}

static void print_blocks(FILE *out, const struct report *r, const struct render_options *o)
{
	static const char *const cols[] = { "DISK", "DMA_DEVICE", "VERDICT", "MAX_SECTORS_KB", "BLOCK_BOUNCE" };
	/* the block layer bounces by PFN only before 5.13: the column means nothing after */
	bool legacy = r->block_bounce == BLOCK_BOUNCE_PFN;
	size_t shown = 0;

	for (size_t i = 0; i < r->devices.n_blocks; i++)
		shown += r->devices.blocks[i].dr != NULL;
	if (shown == 0)
		return;
	fputs("\nDisks\n", out);
	struct libscols_table *t = new_table(out, cols, legacy ? ARRAY_SIZE(cols) : ARRAY_SIZE(cols) - 1);
	if (!t)
		return;
	table_setup(t, o);
	for (size_t i = 0; i < r->devices.n_blocks; i++) {
		const struct block_report *b = &r->devices.blocks[i];
		if (!b->dr)
			continue; /* loop, zram, dm: no DMA device of their own */
		struct libscols_line *ln = scols_table_new_line(t, NULL);
		if (!ln)
			break;
		scols_line_set_data(ln, 0, b->q->disk);
		scols_line_set_data(ln, 1, b->q->dma_device);
		scols_line_set_data(ln, 2, verdict_to_string(b->dr->verdict));
		if (o->color == 1 && verdict_colour(b->dr->verdict))
			scols_cell_set_color(scols_line_get_cell(ln, 2), verdict_colour(b->dr->verdict));
		if (b->q->max_sectors_kb >= 0)
			set_u64(ln, 3, (uint64_t)b->q->max_sectors_kb);
		if (legacy && b->legacy.known)
			set_size(ln, 4, b->legacy.by_reading[b->legacy.kernel_reading].bounce_bytes);
	}
	scols_print_table(t);
	scols_unref_table(t);
}

/* ANSI SGR of a severity: errors red, warnings yellow (as dmesg --color); "" for info. */
static const char *severity_sgr(enum severity s)
{
	return s == SEVERITY_ERROR ? "\033[31m" : s == SEVERITY_WARNING ? "\033[33m" : "";
}

static void print_findings(FILE *out, const struct findings *f, unsigned width, bool colour)
{
	fprintf(out, "\nFindings\n");
	if (f->n == 0) {
		fputs("  none\n", out);
		return;
	}
	for (size_t i = 0; i < f->n; i++) {
		const struct finding *x = &f->v[i];
		struct strbuf b = { 0 };
		char head[64];

		const char *sgr = colour ? severity_sgr(x->severity) : "";
		snprintf(head, sizeof(head), "  %s%-7s%s ", sgr, severity_to_string(x->severity),
			 *sgr ? "\033[0m" : "");
		strbuf_append(&b, finding_id_to_string(x->id));
		if (x->device) {
			strbuf_append(&b, " ");
			append_safe(&b, x->device);
		}
		strbuf_append(&b, ": ");
		append_safe(&b, x->message);
		_cleanup_free_ char *msg = strbuf_steal(&b);
		fputs(head, out);
		print_wrapped(out, msg, 10, 10, width);

		if (x->n_evidence) {
			for (size_t j = 0; j < x->n_evidence; j++) {
				const struct evidence *e = &x->evidence[j];
				strbuf_append(&b, j ? " " : "");
				strbuf_append(&b, e->key);
				strbuf_append(&b, "=");
				if (e->type == EVIDENCE_STR)
					append_safe(&b, e->s);
				else if (e->type == EVIDENCE_HEX)
					strbuf_append_hex(&b, e->u);
				else if (e->type == EVIDENCE_BOOL)
					strbuf_append(&b, e->u ? "true" : "false");
				else
					strbuf_append_u64(&b, e->u);
			}
			_cleanup_free_ char *ev = strbuf_steal(&b);
			fputs("          evidence: ", out);
			print_wrapped(out, ev, 20, 20, width);
		}
		if (x->remedy && *x->remedy) {
			append_safe(&b, x->remedy);
			_cleanup_free_ char *rem = strbuf_steal(&b);
			fputs("          remedy: ", out);
			print_wrapped(out, rem, 18, 18, width);
		}
	}
}

static void print_inputs(FILE *out, const struct machine *m, unsigned width)
{
	size_t bad = 0;
	for (size_t i = 0; i < m->n_inputs; i++)
		bad += m->inputs[i].status != INPUT_OK;
	fprintf(out, "\nInputs: %zu read, %zu not usable\n", m->n_inputs - bad, bad);
	for (size_t i = 0; i < m->n_inputs; i++) {
		const struct input *in = &m->inputs[i];
		if (in->status == INPUT_OK)
			continue;
		struct strbuf b = { 0 };
		append_safe(&b, in->path);
		strbuf_append(&b, ": ");
		append_safe(&b, in->detail);
		_cleanup_free_ char *t = strbuf_steal(&b);
		fprintf(out, "  %-8s ", input_status_to_string(in->status));
		print_wrapped(out, t, 11, 13, width);
	}
}

int render_text(FILE *out, const struct machine *m, const struct report *r,
		const struct render_options *o)
{
	unsigned width = text_width(o->terminal);
	/* the first line wraps like prose: a long release name must not pass the width */
	struct strbuf h = { 0 };
	strbuf_append(&h, PACKAGE_NAME " " PACKAGE_VERSION ": ");
	append_safe(&h, m->arch.value ? m->arch.value : "unknown arch");
	strbuf_append(&h, ", Linux ");
	append_safe(&h, m->release.value ? m->release.value : "(release unknown)");
	strbuf_append(&h, ", page size ");
	strbuf_append_u64(&h, m->page_size);
	strbuf_append(&h, " (");
	strbuf_append(&h, m->page_size_source ? m->page_size_source : "?");
	strbuf_append(&h, ")");
	_cleanup_free_ char *head = strbuf_steal(&h);
	print_wrapped(out, head, 0, 2, width);
	fputs("sysroot ", out);
	put_safe(out, m->sysroot ? m->sysroot : "/");
	fprintf(out, "%s\n\n", m->live ? " (live)" : "");
	struct render_options oo = *o;
	oo.width = width;
	print_memory(out, &r->layout);
	print_swiotlb(out, &r->swiotlb, width);
	print_observation(out, m, r, width);
	print_devices(out, r, &oo);
	print_blocks(out, r, &oo);
	print_findings(out, &r->findings, width, o->color == 1);
	print_inputs(out, m, width);
	return ferror(out) ? -EIO : 0;
}
