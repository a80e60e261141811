/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The answer first: how many devices were judged, by verdict word, and how
 * many findings of each severity, then one entry per device that needs
 * action (its driver, what uses it, the verdict, the bytes, why).
 */
#include <string.h>

#include "render/text-parts.h"
#include "render/text-util.h"
#include "shared/macro.h"

/* "sda,sdb,eth0": the disks and network interfaces that use the device. */
static void append_users(struct strbuf *b, const struct report *r, const struct device_report *dr)
{
	size_t start = b->len;

	for (size_t i = 0; i < r->devices.n_blocks; i++)
		if (r->devices.blocks[i].dr == dr) {
			strbuf_append(b, b->len > start ? "," : "");
			text_append_safe(b, r->devices.blocks[i].q->disk);
		}
	if (dr->dev->interfaces) {
		strbuf_append(b, b->len > start ? "," : "");
		text_append_safe(b, dr->dev->interfaces);
	}
}

/* " (760 MiB of it only because ...)": what of the amount the kernel's max_low_pfn count decides. */
static void append_confusion_cost(struct strbuf *b, const struct device_report *dr,
				  const struct render_options *o)
{
	const struct legacy_result *lr = device_legacy(dr);

	if (dr->kernel_model != KERNEL_MODEL_LEGACY_BLOCK ||
	    (!lr->count_reading_only_bytes && !lr->count_reading_missed_bytes))
		return;
	uint64_t bytes = lr->count_reading_only_bytes ? lr->count_reading_only_bytes
						      : lr->count_reading_missed_bytes;
	strbuf_append(b, " (");
	if (bytes == dr->unreachable_ram_bytes.v)
		strbuf_append(b, "all");
	else
		text_append_amount(b, bytes, o->bytes);
	strbuf_append(b, lr->count_reading_only_bytes
				 ? " of it bounced only because max_low_pfn is read as a page count)"
				 : " of it left unbounced only because max_low_pfn is read as a page count)");
}

/* "; findings: 1 error, 2 warnings": what the findings say, the gravest first; nothing when none. */
static void append_finding_counts(struct strbuf *b, const struct findings *f)
{
	size_t n[_SEVERITY_MAX] = { 0 };
	bool first = true;

	for (size_t k = 0; k < f->n; k++)
		if (f->v[k].severity >= 0 && f->v[k].severity < _SEVERITY_MAX)
			n[f->v[k].severity]++;
	for (int s = _SEVERITY_MAX - 1; s >= 0; s--) {
		if (!n[s])
			continue;
		strbuf_append(b, first ? "; findings: " : ", ");
		first = false;
		strbuf_append_u64(b, n[s]);
		strbuf_append(b, " ");
		strbuf_append(b, severity_to_string((enum severity)s));
		/* "2 errors", "2 warnings", "2 info" (a mass noun) */
		if (n[s] > 1 && s != SEVERITY_INFO)
			strbuf_append(b, "s");
	}
}

int text_print_summary(FILE *out, const struct report *r, const struct render_options *o,
		       unsigned width)
{
	/* verdict words only, the costly three always (a 0 is an answer), the rest when met */
	static const enum verdict order[] = {
		VERDICT_PARTIAL, VERDICT_FAILS, VERDICT_FORCED, VERDICT_DIRECT, VERDICT_IOMMU,
		VERDICT_IDLE, VERDICT_UNKNOWN,
	};
	size_t count[_VERDICT_MAX] = { 0 }, action = 0;
	struct strbuf b = { 0 };

	for (size_t i = 0; i < r->devices.n_devices; i++) {
		const struct device_report *dr = &r->devices.devices[i];
		count[dr->verdict]++;
		action += device_needs_action(dr);
	}
	strbuf_append_u64(&b, r->devices.n_devices);
	strbuf_append(&b, r->devices.n_devices == 1 ? " device judged: " : " devices judged: ");
	for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
		enum verdict v = order[i];
		if (!count[v] && v != VERDICT_PARTIAL && v != VERDICT_FAILS && v != VERDICT_FORCED)
			continue;
		strbuf_append(&b, i ? ", " : "");
		strbuf_append_u64(&b, count[v]);
		strbuf_append(&b, " ");
		strbuf_append(&b, verdict_to_string(v));
	}
	append_finding_counts(&b, &r->findings);
	_cleanup_free_ char *line = strbuf_steal(&b);
	text_print_wrapped(out, line, 0, 2, width);
	if (report_all_clear(r)) {
		fputs("No device needs action.\n\n", out);
		return 0;
	}
	if (!action) {
		/* the all-clear is a claim: a finding that says the audit saw too little withholds it */
		bool said[_FINDING_ID_MAX] = { false }, first = true;
		strbuf_append(&b, "No listed device needs action, but the audit is not all-clear:");
		for (size_t k = 0; k < r->findings.n; k++) {
			const struct finding *x = &r->findings.v[k];
			/* machine-wide, or about a device no bus lists (a listed one's would have
			 * put it under Needs action): each id once */
			if (x->severity < SEVERITY_WARNING || said[x->id])
				continue;
			bool unlisted = x->device != NULL;
			said[x->id] = true;
			strbuf_append(&b, first ? " " : ", ");
			first = false;
			strbuf_append(&b, finding_id_to_string(x->id));
			strbuf_append(&b, " (");
			strbuf_append(&b, severity_to_string(x->severity));
			strbuf_append(&b, unlisted ? ", a device no bus lists)" : ")");
		}
		strbuf_append(&b, "; see Findings.");
		_cleanup_free_ char *s = strbuf_steal(&b);
		text_print_wrapped(out, s, 0, 2, width);
		fputc('\n', out);
		return 0;
	}
	fputs("Needs action:\n", out);
	for (size_t i = 0; i < r->devices.n_devices; i++) {
		const struct device_report *dr = &r->devices.devices[i];
		if (!device_needs_action(dr))
			continue;
		text_append_safe(&b, dr->dev->id);
		strbuf_append(&b, " ");
		text_append_safe(&b, dr->dev->driver ? dr->dev->driver : "(no driver)");
		size_t mark = b.len;
		strbuf_append(&b, " (");
		append_users(&b, r, dr);
		if (b.len == mark + 2)
			b.len = mark, b.s[mark] = 0;
		else
			strbuf_append(&b, ")");
		strbuf_append(&b, ": ");
		strbuf_append(&b, verdict_to_string(dr->verdict));
		if (dr->unreachable_ram_bytes.known && dr->unreachable_ram_bytes.v) {
			strbuf_append(&b, ", ");
			text_append_amount(&b, dr->unreachable_ram_bytes.v, o->bytes);
			append_confusion_cost(&b, dr, o);
		}
		strbuf_append(&b, ": ");
		strbuf_append(&b, dr->reason ? dr->reason : "?");
		/* listed for a finding, not the verdict: say which, or the line contradicts itself */
		if (dr->verdict != VERDICT_PARTIAL && dr->verdict != VERDICT_FAILS)
			for (size_t k = 0; k < r->findings.n; k++) {
				const struct finding *x = &r->findings.v[k];
				if (x->severity < SEVERITY_WARNING || !x->device || strcmp(x->device, dr->dev->id) != 0)
					continue;
				if (x->id == FINDING_VERDICT_UNKNOWN) { /* its message is the reason: say how to supply it */
					strbuf_append(&b, " (to know: ");
					text_append_safe(&b, x->remedy ? x->remedy : "?");
					strbuf_append(&b, ")");
					continue;
				}
				strbuf_append(&b, "; but ");
				strbuf_append(&b, finding_id_to_string(x->id));
				strbuf_append(&b, ": ");
				text_append_safe(&b, x->message ? x->message : "?");
			}
		_cleanup_free_ char *s = strbuf_steal(&b);
		fputs("  ", out);
		text_print_wrapped(out, s, 2, 6, width);
	}
	fputc('\n', out);
	return 0;
}
