/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The Prometheus text exposition format 0.0.4, for node_exporter's textfile
 * collector. Every metric is a gauge named dmamask_*, in base units, with
 * HELP and TYPE, its samples together and all with the same label names.
 * A value the report does not know is left out, never printed as 0. Label
 * values are escaped and made valid UTF-8: device names can hold any byte.
 * dmamask_last_run_timestamp_seconds says when the run was, and
 * dmamask_last_run_success whether it produced a report;
 * dmamask_report_timestamp_seconds when the report the other metrics come
 * from was made. A fatal run (render_prometheus_failure) keeps the last
 * report's metrics with their date, says it failed and why
 * (dmamask_last_run_failure_info, a reason from a fixed set): a failed run
 * never passes for a good one, and alerts on the last report neither resolve
 * nor restart while runs fail.
 *
 * Findings are one sample per id, severity and device, and aggregates are
 * PromQL's (sum without (device) ...). Machine-wide findings have a family
 * of their own, dmamask_machine_finding{id,severity}, rather than device=""
 * or no device label in dmamask_finding: the format and `promtool check
 * metrics` accept a family whose samples differ in label names, but
 * node_exporter's textfile collector gives every sample the union of its
 * family's label names (device="" again) and Prometheus stores an empty label
 * as no label, so leaving it out would change nothing past node_exporter and
 * break the one label set per family that consumers and our lint rely on.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/prediction-check.h"
#include "render/render.h"
#include "shared/utf8.h"
#include "shared/kernel-defs.h"
#include "shared/macro.h"
#include "shared/text.h"

struct prom {
	FILE *out;
	const char *name;    /* the current family */
	const char *help;
	bool header_done;    /* HELP and TYPE printed: only before its first sample */
	int err;             /* -EIO, sticky */
};

struct label {
	const char *name;
	const char *value;   /* NULL prints as "" */
};

static void put(struct prom *p, const char *s, size_t n)
{
	if (p->err == 0 && n && fwrite(s, 1, n, p->out) != n)
		p->err = -EIO;
}

static void put_str(struct prom *p, const char *s)
{
	put(p, s, strlen(s));
}

/*
 * A label value: \ " and newline escaped (the exposition format's three),
 * each invalid byte and each control character but tab (C0, DEL, C1)
 * replaced by U+FFFD. The parser takes controls raw (promtool check
 * metrics does), but an ESC or a CR in a textfile rewrites the terminal
 * of whoever reads it.
 */
static void put_label_value(struct prom *p, const char *s)
{
	const unsigned char *u = (const unsigned char *)(s ? s : "");
	size_t left = strlen((const char *)u), run = 0;

	/* plain bytes are written in runs, not one by one */
	while (left > run) {
		const unsigned char *c = u + run;
		const char *esc = *c == '\\' ? "\\\\" : *c == '"' ? "\\\"" : *c == '\n' ? "\\n" : NULL;
		size_t n = utf8_seq_len(c, left - run);
		bool control = (*c < 0x20 && *c != '\t') || *c == 0x7f || (n == 2 && c[0] == 0xc2 && c[1] < 0xa0);

		if (n && !esc && !control) {
			run += n;
			continue;
		}
		put(p, (const char *)u, run);
		put_str(p, esc ? esc : "\xef\xbf\xbd");
		n = esc || n == 0 ? 1 : n; /* a C1 control is one character of two bytes */
		u = c + n;
		left -= run + n;
		run = 0;
	}
	put(p, (const char *)u, run);
}

/* Start a family; its HELP and TYPE wait for its first sample. */
static void family(struct prom *p, const char *name, const char *help)
{
	p->name = name;
	p->help = help;
	p->header_done = false;
}

/* One sample of the current family; value is its number as text. */
static void sample_text(struct prom *p, const struct label *l, size_t n, const char *value)
{
	if (!p->header_done) {
		/* help texts are constants without \ or newline: nothing to escape */
		put_str(p, "# HELP ");
		put_str(p, p->name);
		put_str(p, " ");
		put_str(p, p->help);
		put_str(p, "\n# TYPE ");
		put_str(p, p->name);
		put_str(p, " gauge\n");
		p->header_done = true;
	}
	put_str(p, p->name);
	for (size_t i = 0; i < n; i++) {
		put_str(p, i ? "," : "{");
		put_str(p, l[i].name);
		put_str(p, "=\"");
		put_label_value(p, l[i].value);
		put_str(p, "\"");
	}
	put_str(p, n ? "} " : " ");
	put_str(p, value);
	put_str(p, "\n");
}

static void sample_labels(struct prom *p, const struct label *l, size_t n, uint64_t v)
{
	char num[24];

	snprintf(num, sizeof(num), "%" PRIu64, v);
	sample_text(p, l, n, num);
}

static void sample(struct prom *p, uint64_t v)
{
	sample_labels(p, NULL, 0, v);
}

static void sample_if(struct prom *p, bool known, uint64_t v)
{
	if (known)
		sample(p, v);
}

static void memory_metrics(struct prom *p, const struct layout *l)
{
	bool have = l->source != LAYOUT_SOURCE_NONE;
	bool low = have && l->lowmem.known;

	family(p, "dmamask_ram_bytes", "System RAM in bytes (proc/iomem, else proc/zoneinfo spans).");
	sample_if(p, have, l->ram_bytes);
	family(p, "dmamask_highmem_bytes", "RAM above the end of lowmem (ZONE_HIGHMEM) in bytes.");
	sample_if(p, low, l->lowmem.highmem_bytes);
	family(p, "dmamask_memory_base_pfn", "First page frame number of RAM (min_low_pfn).");
	sample_if(p, have, l->base_pfn);
	family(p, "dmamask_memory_end_pfn", "Page frame number after the end of RAM (max_pfn).");
	sample_if(p, have, l->end_pfn);
	family(p, "dmamask_lowmem_end_pfn", "Page frame number where lowmem ends.");
	sample_if(p, low, l->lowmem.end_pfn);
	family(p, "dmamask_max_low_pfn",
	       "max_low_pfn read as a page count (32-bit ARM before v3.13) and as a page frame number.");
	if (low) {
		sample_labels(p, (const struct label[]){ { "reading", "count" } }, 1, l->lowmem.max_low_pfn_as_count);
		sample_labels(p, (const struct label[]){ { "reading", "pfn" } }, 1, l->lowmem.max_low_pfn_as_pfn);
	}
}

static void swiotlb_metrics(struct prom *p, const struct swiotlb_state *s)
{
	family(p, "dmamask_swiotlb_active", "1 when a swiotlb bounce buffer pool exists, 0 when not.");
	sample_if(p, s->active != TRI_UNKNOWN, s->active == TRI_YES);
	family(p, "dmamask_swiotlb_size_bytes", "Size of the swiotlb pool in bytes.");
	sample_if(p, s->size_bytes.known, s->size_bytes.v);
	family(p, "dmamask_swiotlb_used_bytes", "Bytes of the swiotlb pool in use (debugfs).");
	sample_if(p, s->used_bytes.known, s->used_bytes.v);
	family(p, "dmamask_swiotlb_hiwater_bytes", "Most bytes of the swiotlb pool ever in use (debugfs).");
	sample_if(p, s->hiwater_bytes.known, s->hiwater_bytes.v);
	family(p, "dmamask_swiotlb_forced", "1 when every dma-direct mapping bounces whatever the mask.");
	sample(p, s->forced);
}

/* Numeric gauges carry only what names the device: a verdict label would churn their series. */
static void device_sample(struct prom *p, const struct device_report *r, uint64_t v)
{
	const struct label l[] = {
		{ "device", r->dev->id },
		{ "driver", r->dev->driver },
	};
	sample_labels(p, l, ARRAY_SIZE(l), v);
}

/* Idle devices get their verdict series only: 2,000 bridges are 2,000 series, not 8,000. */
static bool has_gauges(const struct device_report *r)
{
	return r->verdict != VERDICT_IDLE;
}


static void device_metrics(struct prom *p, const struct devices_result *d)
{
	size_t count[_VERDICT_MAX] = { 0 };

	for (size_t i = 0; i < d->n_devices; i++)
		if (d->devices[i].verdict >= 0 && d->devices[i].verdict < _VERDICT_MAX)
			count[d->devices[i].verdict]++;
	family(p, "dmamask_devices", "DMA devices by verdict.");
	for (int v = 0; v < _VERDICT_MAX; v++)
		sample_labels(p, (const struct label[]){ { "verdict", verdict_to_string(v) } }, 1, count[v]);

	/* pci_id, a fleet's "count by (pci_id, verdict)": one value a device, so no series more */
	family(p, "dmamask_device_verdict",
	       "A judged DMA device, its PCI vendor:device (empty when not PCI) and its verdict; always 1.");
	for (size_t i = 0; i < d->n_devices; i++) {
		const struct device_report *r = &d->devices[i];
		char pci_id[sizeof("ffff:ffff")] = "";
		if (r->dev->have_pci_ids)
			snprintf(pci_id, sizeof(pci_id), "%04x:%04x", r->dev->vendor, r->dev->device_id);
		const struct label l[] = {
			{ "device", r->dev->id },
			{ "driver", r->dev->driver },
			{ "pci_id", pci_id },
			{ "verdict", verdict_to_string(r->verdict) },
		};
		sample_labels(p, l, ARRAY_SIZE(l), 1);
	}
	/* JSON's dma_mask_bits, but not _bits: promtool's lint takes that for a size to give in bytes */
	family(p, "dmamask_device_dma_mask_bit_width",
	       "Bit width of the device's streaming DMA mask (32: the first 4 GiB of bus addresses).");
	for (size_t i = 0; i < d->n_devices; i++)
		if (has_gauges(&d->devices[i]) && d->devices[i].mask_bits.known)
			device_sample(p, &d->devices[i], (uint64_t)d->devices[i].mask_bits.v);
	family(p, "dmamask_device_unreachable_ram_bytes",
	       "RAM in bytes whose buffers bounce or fail for the device (0 when translated or in reach; "
	       "absent when idle or unknown).");
	for (size_t i = 0; i < d->n_devices; i++)
		if (has_gauges(&d->devices[i]) && d->devices[i].unreachable_ram_bytes.known)
			device_sample(p, &d->devices[i], d->devices[i].unreachable_ram_bytes.v);
	family(p, "dmamask_device_reachable_ram_bytes", "RAM in bytes within the device's DMA mask and bus limit.");
	for (size_t i = 0; i < d->n_devices; i++)
		if (has_gauges(&d->devices[i]) && d->devices[i].direct.known)
			device_sample(p, &d->devices[i], d->devices[i].direct.reachable_bytes);
	/* --observe: gauges over the window, not counters: each run traces a window of its own */
	static const struct {
		const char *name, *help;
		int what; /* 0 bounces, 1 bytes, 2 contradicted, 3 I/O operations */
	} observed[] = {
		{ "dmamask_device_observed_bounces",
		  "swiotlb bounces the kernel traced for the device in the --observe window.", 0 },
		{ "dmamask_device_observed_bytes",
		  "Bytes bounced through swiotlb for the device in the --observe window.", 1 },
		{ "dmamask_device_prediction_contradicted",
		  "1 when the --observe window contradicts the device's verdict.", 2 },
		{ "dmamask_device_observed_io_operations",
		  "Data I/Os of the device's disks and packets of its interfaces in the --observe window "
		  "(absent when not counted).", 3 },
	};
	for (size_t k = 0; k < ARRAY_SIZE(observed); k++) {
		family(p, observed[k].name, observed[k].help);
		for (size_t i = 0; i < d->n_devices; i++) {
			const struct device_report *r = &d->devices[i];
			if (r->observed_result == OBSERVED_NONE || !has_gauges(r))
				continue;
			if (observed[k].what == 3 && !r->observed_ops.known)
				continue;
			uint64_t v = observed[k].what == 2   ? r->observed_result == OBSERVED_CONTRADICTED
				     : observed[k].what == 3 ? r->observed_ops.v
				     : !r->observed	     ? 0
				     : observed[k].what ? r->observed->bytes
							: r->observed->bounces;
			device_sample(p, r, v);
		}
	}
	/* the check's word as a label, one sample a device: what an alert groups by */
	family(p, "dmamask_device_observed_result",
	       "1 for the --observe check of the device: consistent, contradicted, no-bounce, no-traffic, "
	       "cannot-tell or unjudged (the result label).");
	for (size_t i = 0; i < d->n_devices; i++) {
		const struct device_report *r = &d->devices[i];
		if (r->observed_result == OBSERVED_NONE || !has_gauges(r))
			continue;
		const struct label l[] = {
			{ "device", r->dev->id },
			{ "driver", r->dev->driver },
			{ "verdict", verdict_to_string(r->verdict) },
			{ "result", observed_result_to_string(r->observed_result) },
		};
		sample_labels(p, l, ARRAY_SIZE(l), 1);
	}
}

struct finding_key {
	const char *id;
	enum severity severity;
	const char *device; /* NULL machine-wide */
};

/* By id, severity, then machine-wide before each device: equal keys are neighbours. */
static int finding_key_cmp(const void *a, const void *b)
{
	const struct finding_key *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	if (c == 0)
		c = (int)x->severity - (int)y->severity;
	if (c == 0)
		c = (x->device != NULL) - (y->device != NULL);
	return c || !x->device ? c : strcmp(x->device, y->device);
}

/* The samples of one finding family from sorted keys: a count, as one id can be raised twice. */
static void finding_samples(struct prom *p, const struct finding_key *v, size_t n, bool machine)
{
	for (size_t i = 0, k; i < n; i += k) {
		for (k = 1; i + k < n && finding_key_cmp(&v[i], &v[i + k]) == 0; k++)
			;
		if ((v[i].device == NULL) != machine)
			continue;
		const struct label l[] = {
			{ "id", v[i].id },
			{ "severity", severity_to_string(v[i].severity) },
			{ "device", v[i].device },
		};
		sample_labels(p, l, machine ? 2 : 3, k);
	}
}

static int findings_metrics(struct prom *p, const struct findings *f)
{
	_cleanup_free_ struct finding_key *v = NULL;

	if (f->n) {
		v = malloc(f->n * sizeof(*v));
		if (!v)
			return -ENOMEM;
	}
	for (size_t i = 0; i < f->n; i++)
		v[i] = (struct finding_key){
			.id = finding_id_to_string(f->v[i].id),
			.severity = f->v[i].severity,
			.device = f->v[i].device,
		};
	if (f->n)
		qsort(v, f->n, sizeof(*v), finding_key_cmp);

	family(p, "dmamask_finding", "Findings about a device by id, severity and device: how many (usually 1).");
	finding_samples(p, v, f->n, false);
	family(p, "dmamask_machine_finding",
	       "Machine-wide findings (about no device) by id and severity: how many (usually 1).");
	finding_samples(p, v, f->n, true);
	return 0;
}

/* --observe: how long the device gauges' bounces were traced; absent when not observing. */
static void observe_metrics(struct prom *p, const struct observation *o)
{
	double w = o->window_seconds;
	char num[32];

	if (!o->present || !(w >= 0 && w < 1e12)) /* NaN fails both */
		return;
	/* milliseconds, as the window file has them, without printf's locale-dependent decimal point */
	uint64_t ms = (uint64_t)(w * 1000 + 0.5);
	int n = snprintf(num, sizeof(num), "%" PRIu64 ".%03u", ms / 1000, (unsigned)(ms % 1000));
	while (num[n - 1] == '0')
		n--;
	num[num[n - 1] == '.' ? n - 1 : n] = '\0';
	family(p, "dmamask_observe_window_seconds", "Length of the --observe window, in seconds.");
	sample_text(p, NULL, 0, num);
}

static void inputs_metrics(struct prom *p, const struct machine *m)
{
	size_t count[_INPUT_STATUS_MAX] = { 0 };

	for (size_t i = 0; i < m->n_inputs; i++)
		if (m->inputs[i].status >= 0 && m->inputs[i].status < _INPUT_STATUS_MAX)
			count[m->inputs[i].status]++;
	family(p, "dmamask_inputs", "Kernel interfaces the audit tried to read, by outcome.");
	for (int s = 0; s < _INPUT_STATUS_MAX; s++)
		sample_labels(p, (const struct label[]){ { "status", input_status_to_string(s) } }, 1,
			      count[s]);
}

/* When the report the metrics come from was made: a failed run keeps the last one. */
static void report_time(struct prom *p, bool known, uint64_t when)
{
	family(p, "dmamask_report_timestamp_seconds",
	       "When the report these metrics come from was made (a failed run keeps the last), in "
	       "seconds since the epoch.");
	sample_if(p, known, when);
}

/* Why a run failed: a fixed set of words, so the label never carries free text or grows without bound. */
static const char *const failure_reasons[] = {
	"sysroot", "not-a-snapshot", "observe", "capture", "assume-mask", "selection", "analysis",
	"out-of-memory", "out-of-file-descriptors",
};

static const char *failure_reason(const char *reason)
{
	for (size_t i = 0; reason && i < ARRAY_SIZE(failure_reasons); i++)
		if (strcmp(reason, failure_reasons[i]) == 0)
			return failure_reasons[i];
	return "unknown";
}

/*
 * Whether this run produced a report, why not (failed NULL when it did), and
 * when: a stale or failed textfile is never read as current.
 */
static void last_run(struct prom *p, const char *failed, struct opt_i64 when)
{
	family(p, "dmamask_last_run_success", "1 when the last run produced a report, 0 when it failed.");
	sample(p, !failed);
	/* an info series, not a label on _success: a new reason must not make a new success series */
	family(p, "dmamask_last_run_failure_info", "Why the last run failed (absent when it did not); always 1.");
	if (failed)
		sample_labels(p, (const struct label[]){ { "reason", failed } }, 1, 1);
	family(p, "dmamask_last_run_timestamp_seconds", "When the last run ended, in seconds since the epoch.");
	sample_if(p, when.known && when.v >= 0, (uint64_t)when.v);
}

int render_prometheus(FILE *out, const struct machine *m, const struct report *r)
{
	struct prom p = { .out = out };
	const struct label info[] = {
		{ "version", PACKAGE_VERSION },
		{ "kernel_release", m->release.value },
		{ "arch", m->arch.value },
	};
	int e;

	family(&p, "dmamask_info", "dmamask-audit version and the audited kernel; always 1.");
	sample_labels(&p, info, ARRAY_SIZE(info), 1);
	memory_metrics(&p, &r->layout);
	swiotlb_metrics(&p, &r->swiotlb);
	device_metrics(&p, &r->devices);
	observe_metrics(&p, &m->observed);
	e = findings_metrics(&p, &r->findings);
	if (e < 0)
		return e;
	inputs_metrics(&p, m);
	family(&p, "dmamask_exit_status", "Exit status of the run: 0 clean, 1 findings at --fail-on, 2 fatal.");
	sample(&p, (uint64_t)r->exit_status);
	report_time(&p, r->generated_at.known && r->generated_at.v >= 0, (uint64_t)r->generated_at.v);
	last_run(&p, NULL, r->generated_at);
	return p.err;
}

/* The metric name a line of the exposition is about ("# HELP x ...", "# TYPE x ...", "x{...} v"). */
static size_t line_name(const char *l, size_t n, const char **ret)
{
	const char *p = l, *end = l + n;

	if (n > 7 && (memcmp(l, "# HELP ", 7) == 0 || memcmp(l, "# TYPE ", 7) == 0))
		p += 7;
	const char *q = p;
	while (q < end && *q != ' ' && *q != '{')
		q++;
	*ret = p;
	return (size_t)(q - p);
}

static bool name_is(const char *name, size_t n, const char *want)
{
	return n == strlen(want) && memcmp(name, want, n) == 0;
}

/* "name V": V when the line is that metric's sample without labels. */
static bool sample_value(const char *l, size_t n, const char *want, uint64_t *ret)
{
	const char *name;
	size_t k = line_name(l, n, &name);

	if (name != l || !name_is(name, k, want) || k + 1 >= n || l[k] != ' ')
		return false;
	return parse_u64(l + k + 1, n - k - 1, 10, ret) == 0;
}

/*
 * The lines of previous to keep (all but the run's own families), and when
 * its report was made; false when previous is not a textfile of ours.
 */
static bool previous_report(const char *buf, size_t len, uint64_t *ret_when, bool *ret_known)
{
	static const char head[] = "# HELP dmamask_";
	uint64_t success = 0, last = 0, report = 0;
	bool have_report = false, have_last = false;

	if (!buf || len < sizeof(head) || memcmp(buf, head, sizeof(head) - 1) != 0)
		return false;
	for (size_t i = 0; i < len;) {
		const char *l = buf + i, *nl = memchr(l, '\n', len - i);
		size_t n = nl ? (size_t)(nl - l) : len - i;
		const char *name;
		line_name(l, n, &name);
		if (n == 0 || memchr(l, '\0', n) || strncmp(name, "dmamask_", 8) != 0)
			return false; /* not only our families: keep nothing */
		have_report |= sample_value(l, n, "dmamask_report_timestamp_seconds", &report);
		have_last |= sample_value(l, n, "dmamask_last_run_timestamp_seconds", &last);
		(void)sample_value(l, n, "dmamask_last_run_success", &success);
		i += n + 1;
	}
	/* a file from before dmamask_report_timestamp_seconds: its run's time, if it succeeded */
	*ret_known = have_report || (have_last && success == 1);
	*ret_when = have_report ? report : last;
	return true;
}

int render_prometheus_failure(FILE *out, struct opt_i64 now, const char *reason, const char *previous, size_t len)
{
	static const char *const own[] = {
		"dmamask_exit_status", "dmamask_report_timestamp_seconds", "dmamask_last_run_success",
		"dmamask_last_run_failure_info", "dmamask_last_run_timestamp_seconds",
	};
	struct prom p = { .out = out };
	uint64_t when = 0;
	bool known = false;

	if (previous_report(previous, len, &when, &known)) {
		for (size_t i = 0; i < len;) {
			const char *l = previous + i, *nl = memchr(l, '\n', len - i);
			size_t n = nl ? (size_t)(nl - l) : len - i, k;
			const char *name;
			bool keep = true;
			k = line_name(l, n, &name);
			for (size_t j = 0; keep && j < ARRAY_SIZE(own); j++)
				keep = !name_is(name, k, own[j]);
			if (keep && (fwrite(l, 1, n, out) != n || fputc('\n', out) == EOF))
				p.err = -EIO;
			i += n + 1;
		}
	}
	family(&p, "dmamask_exit_status", "Exit status of the run: 0 clean, 1 findings at --fail-on, 2 fatal.");
	sample(&p, 2);
	report_time(&p, known, when);
	last_run(&p, failure_reason(reason), now);
	return p.err;
}
