/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The human report: a summary, libsmartcols tables, findings with remedies. */
#include <libsmartcols.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/eras.h"
#include "analysis/prediction-check.h"
#include "render/device-table.h"
#include "render/render.h"
#include "render/text-parts.h"
#include "render/text-util.h"
#include "shared/kernel-defs.h"
#include "shared/macro.h"
#include "shared/sat.h"
#include "shared/strbuf.h"
#include "shared/text.h"

static void print_swiotlb(FILE *out, const struct swiotlb_state *s, bool exact, unsigned width)
{
	static const char *const tri[] = { [TRI_NO] = "no", [TRI_YES] = "yes", [TRI_UNKNOWN] = "unknown" };
	struct strbuf b = { 0 };

	strbuf_append(&b, "active: ");
	strbuf_append(&b, tri[s->active]);
	strbuf_append(&b, " (");
	strbuf_append(&b, s->active_why ? s->active_why : "?");
	strbuf_append(&b, ")");
	if (s->size_bytes.known) {
		strbuf_append(&b, ", size ");
		text_append_amount(&b, s->size_bytes.v, exact);
		if (s->size_prov == PROV_ASSUMED)
			strbuf_append(&b, " (assumed)");
	}
	if (s->pool.known) {
		strbuf_append(&b, ", pool ");
		strbuf_append_hex(&b, s->pool.start);
		strbuf_append(&b, "-");
		strbuf_append_hex(&b, s->pool.end - 1);
	} else if (s->pool_limit.known) {
		strbuf_append(&b, ", pool at or below ");
		strbuf_append_hex(&b, s->pool_limit.v);
		strbuf_append(&b, ", ");
		strbuf_append(&b, s->pool_limit_why);
	}
	if (s->used_bytes.known) {
		strbuf_append(&b, ", used ");
		text_append_amount(&b, s->used_bytes.v, exact);
	}
	if (s->forced) {
		strbuf_append(&b, "; forced: ");
		strbuf_append(&b, s->forced_why);
	}
	_cleanup_free_ char *t = strbuf_steal(&b);
	fputs("\nswiotlb          ", out);
	text_print_wrapped(out, t, 17, 17, width);
}

/* What the --observe window covered, in one wrapped line. */
static void print_observation(FILE *out, const struct machine *m, const struct report *r,
			      bool exact, unsigned width)
{
	const struct observation *ob = &m->observed;
	struct strbuf b = { 0 };
	uint64_t bounces = 0, bytes = 0, peak, other = 0;
	size_t devices = 0, contradicted = 0;
	char tmp[160];
	bool peak_exact;

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
	snprintf(tmp, sizeof(tmp), "%.1f s of swiotlb_bounced%s: %llu bounce%s (", ob->window_seconds,
		 ob->interrupted ? " (ended early by Ctrl-C)" : "", (unsigned long long)bounces,
		 bounces == 1 ? "" : "s");
	strbuf_append(&b, tmp);
	text_append_amount(&b, bytes, exact);
	snprintf(tmp, sizeof(tmp), ") from %zu device%s, %zu prediction%s contradicted", devices,
		 devices == 1 ? "" : "s", contradicted, contradicted == 1 ? "" : "s");
	strbuf_append(&b, tmp);
	if (other) {
		snprintf(tmp, sizeof(tmp), ", %llu bounce%s from devices not listed",
			 (unsigned long long)other, other == 1 ? "" : "s");
		strbuf_append(&b, tmp);
	}
	if (!ob->lost_events.known) {
		strbuf_append(&b, "; events lost: unknown");
	} else if (ob->lost_events.v) {
		snprintf(tmp, sizeof(tmp), "; %llu events lost (trace buffer full): counts are low",
			 (unsigned long long)ob->lost_events.v);
		strbuf_append(&b, tmp);
	}
	if (observation_pool_peak(ob, &peak, &peak_exact)) {
		strbuf_append(&b, peak_exact ? "; pool peak " : "; pool use at least ");
		text_append_amount(&b, sat_shl(peak, IO_TLB_SHIFT), exact);
	}
	if (ob->full_messages) {
		snprintf(tmp, sizeof(tmp), "; %u \"swiotlb buffer is full\"", ob->full_messages);
		strbuf_append(&b, tmp);
	}
	if (ob->bad_lines) {
		snprintf(tmp, sizeof(tmp), "; %llu trace line%s did not parse", (unsigned long long)ob->bad_lines,
			 ob->bad_lines == 1 ? "" : "s");
		strbuf_append(&b, tmp);
	}
	if (!ob->traffic_known)
		strbuf_append(&b, "; disk and interface traffic not counted");
	if (ob->probe_disk) {
		strbuf_append(&b, "; --observe-probe read ");
		text_append_amount(&b, ob->probe_bytes, exact);
		strbuf_append(&b, " of ");
		text_append_safe(&b, ob->probe_disk);
		if (ob->probe_reach_end.known) {
			strbuf_append(&b, " into pages above ");
			strbuf_append_hex(&b, ob->probe_reach_end.v);
		} else {
			strbuf_append(&b, " (its device reaches all RAM: any page)");
		}
		if (ob->probe_why) {
			strbuf_append(&b, ": ");
			text_append_safe(&b, ob->probe_why);
		}
	}
	if (r->swiotlb.active == TRI_NO)
		strbuf_append(&b, "; no swiotlb pool: nothing could bounce, only failed mappings show");
	_cleanup_free_ char *t = strbuf_steal(&b);
	fputs("observed         ", out);
	text_print_wrapped(out, t ? t : "?", 17, 17, width);
}

static void print_blocks(FILE *out, const struct report *r, const struct render_options *o)
{
	static const char *const cols[] = { "DISK", "DMA_DEVICE", "VERDICT", "MAX_SECTORS_KB", "BLOCK_BOUNCE" };
	/* the block layer bounces by PFN only before 5.13: the column means nothing after */
	bool legacy = r->block_bounce == BLOCK_BOUNCE_PFN;
	size_t shown = 0;
	struct strbuf b = { 0 };

	for (size_t i = 0; i < r->devices.n_blocks; i++)
		shown += r->devices.blocks[i].dr != NULL;
	if (shown == 0)
		return;
	fputs("\nDisks\n", out);
	/* DISK, DMA_DEVICE and VERDICT are words; the limits numbers */
	struct libscols_table *t = text_new_table(out, cols, legacy ? ARRAY_SIZE(cols) : ARRAY_SIZE(cols) - 1, 3, o);
	if (!t)
		return;
	for (size_t i = 0; i < r->devices.n_blocks; i++) {
		const struct block_report *br = &r->devices.blocks[i];
		if (!br->dr)
			continue; /* loop, zram, dm: no DMA device of their own */
		struct libscols_line *ln = scols_table_new_line(t, NULL);
		if (!ln)
			break;
		text_append_safe(&b, br->q->disk);
		text_set_cell(ln, 0, &b);
		text_append_safe(&b, br->q->dma_device);
		text_set_cell(ln, 1, &b);
		scols_line_set_data(ln, 2, verdict_to_string(br->dr->verdict));
		if (o->color == 1 && text_verdict_colour(br->dr->verdict))
			scols_cell_set_color(scols_line_get_cell(ln, 2), text_verdict_colour(br->dr->verdict));
		if (br->q->max_sectors_kb.known) {
			strbuf_append_u64(&b, (uint64_t)br->q->max_sectors_kb.v);
			text_set_cell(ln, 3, &b);
		}
		const struct legacy_result *lr = device_legacy(br->dr);
		if (legacy && lr->known) {
			text_append_amount(&b, lr->by_reading[lr->kernel_reading].bounce_bytes, o->bytes);
			text_set_cell(ln, 4, &b);
		}
	}
	scols_print_table(t);
	scols_unref_table(t);
}

/*
 * Inputs that could not be used. Absent ones (an interface this kernel or
 * snapshot does not have: usual on a healthy machine) are one line unless
 * --verbose; denied and invalid ones are always listed.
 */
static void print_inputs(FILE *out, const struct machine *m, bool verbose, unsigned width)
{
	size_t bad = 0, missing = 0;
	for (size_t i = 0; i < m->n_inputs; i++) {
		bad += m->inputs[i].status != INPUT_OK;
		missing += m->inputs[i].status == INPUT_MISSING;
	}
	/* absent is usual on a healthy machine: it is not counted as a fault */
	fprintf(out, "\nInputs: %zu read", m->n_inputs - bad);
	if (bad > missing)
		fprintf(out, ", %zu not usable", bad - missing);
	if (missing)
		fprintf(out, ", %zu absent", missing);
	fputc('\n', out);
	for (size_t i = 0; i < m->n_inputs; i++) {
		const struct input *in = &m->inputs[i];
		if (in->status == INPUT_OK || (in->status == INPUT_MISSING && !verbose))
			continue;
		struct strbuf b = { 0 };
		text_append_safe(&b, in->path);
		strbuf_append(&b, ": ");
		text_append_safe(&b, in->detail);
		_cleanup_free_ char *t = strbuf_steal(&b);
		fprintf(out, "  %-8s ", input_status_to_string(in->status));
		text_print_wrapped(out, t, 11, 13, width);
	}
	if (missing && !verbose) {
		char t[128];
		snprintf(t, sizeof(t), "%zu interface%s this kernel or snapshot does not have "
			 "(--verbose lists them)", missing, missing == 1 ? "" : "s");
		fputs("  absent   ", out);
		text_print_wrapped(out, t, 11, 13, width);
	}
}

int render_text(FILE *out, const struct machine *m, const struct report *r,
		const struct render_options *o)
{
	struct render_options oo = *o;
	unsigned width = text_columns(o->terminal);
	int ret = 0;

	oo.width = width;
	if (o->raw || o->pairs) /* for scripts: the device table alone, one device per line */
		return device_table_print(out, r, &oo, false);
	/* the first line wraps like prose: a long release name must not pass the width */
	struct strbuf h = { 0 };
	strbuf_append(&h, PACKAGE_NAME " " PACKAGE_VERSION);
	if (m->hostname.value) {
		strbuf_append(&h, " on ");
		text_append_safe(&h, m->hostname.value);
	}
	strbuf_append(&h, ": ");
	text_append_safe(&h, m->arch.value ? m->arch.value : "unknown arch");
	strbuf_append(&h, ", Linux ");
	text_append_safe(&h, m->release.value ? m->release.value : "(release unknown)");
	if (m->stable_release.value) {
		strbuf_append(&h, " (");
		text_append_safe(&h, m->stable_release.value);
		strbuf_append(&h, ")");
	}
	if (r->arch_family == ARCH_ARM && r->swiotlb.arm_lpae != TRI_UNKNOWN) {
		static const char *const from[] = {
			[ARM_LPAE_SOURCE_NONE] = "?", [ARM_LPAE_SOURCE_LOG] = "boot log cr=",
			[ARM_LPAE_SOURCE_RELEASE] = "release", [ARM_LPAE_SOURCE_RAM] = "RAM above 4 GiB",
		};
		strbuf_append(&h, r->swiotlb.arm_lpae == TRI_YES ? ", LPAE (" : ", not LPAE (");
		strbuf_append(&h, from[r->swiotlb.arm_lpae_source]);
		if (r->swiotlb.arm_lpae_source == ARM_LPAE_SOURCE_LOG)
			strbuf_append_hex(&h, m->arm_cr.v);
		strbuf_append(&h, ")");
	}
	/* where the page size came from, and a live sysroot, only interest -v */
	if (o->verbose || m->page_size != 4096) {
		strbuf_append(&h, ", page size ");
		strbuf_append_u64(&h, m->page_size);
	}
	if (o->verbose) {
		strbuf_append(&h, " (");
		strbuf_append(&h, m->page_size_source ? m->page_size_source : "?");
		strbuf_append(&h, ")");
	}
	if (m->captured_at) {
		strbuf_append(&h, ", captured ");
		text_append_safe(&h, m->captured_at);
	}
	_cleanup_free_ char *head = strbuf_steal(&h);
	text_print_wrapped(out, head, 0, 2, width);
	if (!m->live || o->verbose) {
		fputs("sysroot ", out);
		text_put_safe(out, m->sysroot ? m->sysroot : "/");
		fputs(m->live ? " (live)" : "", out);
		fputc('\n', out);
	}
	fputc('\n', out);
	if (text_print_summary(out, r, o, width) < 0)
		ret = -ENOMEM;
	text_print_memory(out, r, o, width);
	print_swiotlb(out, &r->swiotlb, o->bytes, width);
	print_observation(out, m, r, o->bytes, width);
	if (!r->devices.n_devices)
		fputs("\nDevices\n  none found\n", out);
	else if (fputs("\nDevices\n", out) >= 0 && device_table_print(out, r, &oo, false) == -ENOMEM)
		ret = -ENOMEM;
	print_blocks(out, r, &oo);
	if (ret == 0 && text_print_findings(out, &r->findings, width, o->color == 1) < 0)
		ret = -ENOMEM;
	print_inputs(out, m, o->verbose, width);
	return ret < 0 ? ret : ferror(out) ? -EIO : 0;
}
