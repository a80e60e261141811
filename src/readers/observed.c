/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --observe's evidence parsed: the swiotlb_bounced events of the window per
 * device, the overflow records the kernel logged in it, and the debugfs
 * counters at both ends. readers/trace.c parses each line; this adds them up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>

#include "readers/observed.h"
#include "readers/trace.h"
#include "shared/array.h"
#include "shared/macro.h"
#include "shared/path.h"
#include "shared/strmap.h"
#include "shared/string-table.h"
#include "shared/text.h"

static const char *const observe_file_table[_OBSERVE_FILE_MAX] = {
	[OBSERVE_WINDOW] = "window",
	[OBSERVE_TRACE] = "trace",
	[OBSERVE_FORMAT] = "format",
	[OBSERVE_KMSG] = "kmsg",
	[OBSERVE_SWIOTLB_BEFORE] = "swiotlb-before",
	[OBSERVE_SWIOTLB_AFTER] = "swiotlb-after",
};

DEFINE_STRING_TABLE_LOOKUP_TO_STRING(observe_file, enum observe_file);

void observe_raw_done(struct observe_raw *raw)
{
	for (size_t i = 0; i < _OBSERVE_FILE_MAX; i++)
		free(raw->buf[i]);
	memset(raw, 0, sizeof(*raw));
}

/* "key=value" lines: calls fn for each; the value without its newline. */
static int each_pair(const char *buf, size_t len, void *data,
		     int (*fn)(void *data, const char *key, size_t klen, const char *val, size_t vlen))
{
	struct line_iter it;
	struct line l;

	line_iter_init(&it, buf, len);
	while (line_iter_next(&it, &l)) {
		const char *eq = memchr(l.s, '=', l.len);
		if (!eq)
			continue;
		int r = fn(data, l.s, (size_t)(eq - l.s), eq + 1, l.len - (size_t)(eq - l.s) - 1);
		if (r < 0)
			return r;
	}
	return 0;
}

static bool key_is(const char *k, size_t klen, const char *want)
{
	return klen == strlen(want) && memcmp(k, want, klen) == 0;
}

/* "12" or "12.345": seconds, at most a day, to the millisecond. */
static bool parse_seconds(const char *s, size_t len, double *ret)
{
	const char *dot = memchr(s, '.', len);
	size_t ilen = dot ? (size_t)(dot - s) : len;
	uint64_t whole, frac = 0;
	size_t flen = dot ? len - ilen - 1 : 0;

	if (parse_u64(s, ilen, 10, &whole) < 0 || whole > 86400 || flen > 9)
		return false;
	if (flen && parse_u64(dot + 1, flen, 10, &frac) < 0)
		return false;
	/* one division of two exact integers (below 2^53), so the nearest double to the
	 * text on every FPU: a division per digit rounds each time, and x87's extended
	 * precision (i386) rounds differently from SSE, so a replay read 5.738 as
	 * 5.7379999999999995 where the live run had 5.738 */
	uint64_t scale = 1;
	for (size_t i = 0; i < flen; i++)
		scale *= 10;
	*ret = (double)(whole * scale + frac) / (double)scale;
	return true;
}

struct window_state {
	struct observation *o;
	bool have_seconds;
	bool bad;
};

static int window_pair(void *data, const char *k, size_t klen, const char *v, size_t vlen)
{
	struct window_state *w = data;
	struct observation *o = w->o;
	uint64_t n;

	if (key_is(k, klen, "window_seconds")) {
		w->have_seconds = parse_seconds(v, vlen, &o->window_seconds);
		w->bad |= !w->have_seconds;
	} else if (key_is(k, klen, "requested_seconds")) {
		if (parse_u64(v, vlen, 10, &n) < 0 || n > 86400)
			w->bad = true;
		else
			o->requested_seconds = (unsigned)n;
	} else if (key_is(k, klen, "interrupted")) {
		o->interrupted = vlen == 1 && v[0] == '1';
	} else if (key_is(k, klen, "lost_events")) {
		uint64_t lost;
		if (parse_u64(v, vlen, 10, &lost) == 0)
			opt_set(&o->lost_events, lost);
		else
			opt_clear(&o->lost_events);
		w->bad |= !o->lost_events.known;
	} else if (key_is(k, klen, "tracefs") && vlen && !o->tracefs) {
		if (!(o->tracefs = strndup(v, vlen)))
			return -ENOMEM;
	}
	return 0;
}

static int counters_pair(void *data, const char *k, size_t klen, const char *v, size_t vlen)
{
	struct observed_counters *c = data;
	static const char *const keys[] = { "io_tlb_used", "io_tlb_used_hiwater",
					    "io_tlb_transient_nslabs" };
	struct opt_u64 *val[] = { &c->used, &c->hiwater, &c->transient };
	uint64_t n;

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		if (!key_is(k, klen, keys[i]))
			continue;
		if (parse_u64(v, vlen, 10, &n) == 0)
			opt_set(val[i], n);
		else
			opt_clear(val[i]);
	}
	return 0;
}

/* The device's entry, added when new. NULL on OOM. */
static struct observed_device *device_entry(struct observation *o, struct strmap *index,
					    const char *name)
{
	struct strmap_entry *e = strmap_get(index, name);

	if (e)
		return &o->devices[e->value];
	if (array_full(o->n_devices)) {
		struct observed_device *v = reallocarray(o->devices, array_capacity(o->n_devices),
							 sizeof(*v));
		if (!v)
			return NULL;
		o->devices = v;
	}
	struct observed_device *d = &o->devices[o->n_devices];
	memset(d, 0, sizeof(*d));
	d->lowest_addr = UINT64_MAX;
	if (!(d->device = strdup(name)) || strmap_add(index, name, (int)o->n_devices) < 0) {
		free(d->device);
		return NULL;
	}
	o->n_devices++;
	return d;
}

/*
 * include/linux/dma-map-ops.h dma_kmalloc_size_aligned(): a kmalloc buffer
 * under 2 * ARCH_DMA_MINALIGN not aligned to the cache line bounces on arm64
 * 6.5+ and riscv 6.6+ (dma_kmalloc_needs_bounce), whatever its address. An
 * upper bound: arm64's 2 * 128 serves riscv too (2 * L1_CACHE_BYTES, 128),
 * and kmalloc_size_roundup() is not applied, so the judge errs toward
 * excusing a bounce, never toward a false contradiction.
 */
static bool small_unaligned(uint64_t size)
{
	return size < 256 && size % 64 != 0;
}

static void add_event(struct observed_device *d, const struct bounce_event *ev)
{
	uint64_t end = ev->size ? ev->dev_addr + (ev->size - 1) : ev->dev_addr;

	if (end < ev->dev_addr)
		end = UINT64_MAX; /* dev_addr all ones: no dma-range covers it */
	d->bounces++;
	d->bytes += ev->size;
	d->forced_bounces += ev->force == TRACE_FORCE_FORCE;
	if (ev->dev_addr < d->lowest_addr)
		d->lowest_addr = ev->dev_addr;
	if (end > d->highest_addr)
		d->highest_addr = end;
	if (!d->lowest_end.known || end < d->lowest_end.v)
		opt_set(&d->lowest_end, end);
	if (small_unaligned(ev->size))
		d->small_unaligned++;
	else if (!d->lowest_end_large.known || end < d->lowest_end_large.v)
		opt_set(&d->lowest_end_large, end);
}

static int parse_trace(const char *buf, size_t len, struct observation *o, struct strmap *index)
{
	for (const char *p = buf, *end = buf + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
		struct bounce_event ev;
		struct parse_error e = { 0 };
		int r = trace_parse_bounced(p, n, &ev, &e);
		p += n;
		if (r == -EBADMSG) {
			o->bad_lines++;
			continue;
		}
		if (r != 1)
			continue;
		struct observed_device *d = device_entry(o, index, ev.dev_name);
		if (!d)
			return -ENOMEM;
		add_event(d, &ev);
	}
	return 0;
}

/* The window's log records: overflows per device, "buffer is full" for the pool. */
static int parse_kmsg(const char *buf, size_t len, struct observation *o, struct strmap *index)
{
	struct machine scratch;
	int r;

	machine_init(&scratch);
	r = kmsg_parse(buf, len, &scratch);
	if (r != -ENOMEM)
		r = 0; /* records that do not parse are skipped, as read_kmsg does */
	o->full_messages = scratch.swiotlb.full_messages;
	const struct dma_overflow *lists[2] = { scratch.overflows, scratch.pool_overflows };
	size_t counts[2] = { scratch.n_overflows, scratch.n_pool_overflows };
	for (size_t l = 0; r >= 0 && l < 2; l++)
		for (size_t i = 0; i < counts[l]; i++) {
			if (!lists[l][i].device)
				continue;
			struct observed_device *d = device_entry(o, index, lists[l][i].device);
			if (!d) {
				r = -ENOMEM;
				break;
			}
			d->overflow_messages++;
		}
	machine_done(&scratch);
	return r < 0 ? r : 0;
}

int observe_parse(const struct observe_raw *raw, struct observation *ret, struct parse_error *ret_err)
{
	struct observation o = { 0 };
	struct window_state w = { .o = &o };
	struct strmap index = STRMAP_INIT;
	int r;

	if (!raw->buf[OBSERVE_WINDOW])
		return parse_fail(ret_err, 0, "no window file");
	r = each_pair(raw->buf[OBSERVE_WINDOW], raw->len[OBSERVE_WINDOW], &w, window_pair);
	if (r == 0 && (!w.have_seconds || w.bad))
		r = parse_fail(ret_err, 0, "window: window_seconds missing, or a value malformed");
	if (r == 0 && raw->buf[OBSERVE_FORMAT]) {
		struct trace_format f;
		struct parse_error e = { 0 };
		o.format_known = trace_format_parse(raw->buf[OBSERVE_FORMAT], raw->len[OBSERVE_FORMAT],
						    &f, &e) == 0;
	}
	if (r == 0 && raw->buf[OBSERVE_TRACE])
		r = parse_trace(raw->buf[OBSERVE_TRACE], raw->len[OBSERVE_TRACE], &o, &index);
	if (r == 0 && raw->buf[OBSERVE_KMSG])
		r = parse_kmsg(raw->buf[OBSERVE_KMSG], raw->len[OBSERVE_KMSG], &o, &index);
	if (r == 0 && raw->buf[OBSERVE_SWIOTLB_BEFORE])
		r = each_pair(raw->buf[OBSERVE_SWIOTLB_BEFORE], raw->len[OBSERVE_SWIOTLB_BEFORE],
			      &o.before, counters_pair);
	if (r == 0 && raw->buf[OBSERVE_SWIOTLB_AFTER])
		r = each_pair(raw->buf[OBSERVE_SWIOTLB_AFTER], raw->len[OBSERVE_SWIOTLB_AFTER],
			      &o.after, counters_pair);
	strmap_done(&index);
	if (r < 0) {
		observation_done(&o);
		return r;
	}
	o.present = true;
	*ret = o;
	return 0;
}

int read_observed(struct sysroot *sr, struct machine *m)
{
	_cleanup_(observe_raw_done) struct observe_raw raw = { 0 };
	struct parse_error e = { 0 };
	struct stat st;
	int r;

	/* most snapshots have none: only --capture --observe writes it; a live
	 * root never has one (--observe fills m->observed itself) */
	if (sysroot_is_live(sr) || m->observed.present)
		return 0;
	r = sysroot_stat(sr, OBSERVE_DIR, &st);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0;
	for (size_t i = 0; i < _OBSERVE_FILE_MAX; i++) {
		_cleanup_free_ char *path = NULL;
		if (!(path = path_join(OBSERVE_DIR, observe_file_to_string(i))))
			return -ENOMEM;
		r = sysroot_read_file(sr, path, i == OBSERVE_TRACE || i == OBSERVE_KMSG ? OBSERVE_TRACE_MAX
										 : SYSROOT_READ_MAX,
				      &raw.buf[i], &raw.len[i]);
		if (r == -ENOMEM)
			return r;
		if (r < 0 && r != -ENOENT)
			return machine_add_input_errno(m, path, r);
	}
	r = observe_parse(&raw, &m->observed, &e);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return machine_add_input(m, OBSERVE_DIR, INPUT_INVALID, EBADMSG, e.what);
	return machine_add_input(m, OBSERVE_DIR, INPUT_OK, 0, NULL);
}
