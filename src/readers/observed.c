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
#include "shared/sat.h"
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
	[OBSERVE_TRAFFIC_BEFORE] = "traffic-before",
	[OBSERVE_TRAFFIC_AFTER] = "traffic-after",
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
	} else if (key_is(k, klen, "probe_disk") && vlen && !o->probe_disk) {
		if (!(o->probe_disk = strndup(v, vlen)))
			return -ENOMEM;
	} else if (key_is(k, klen, "probe_why") && vlen && !o->probe_why) {
		if (!(o->probe_why = strndup(v, vlen)))
			return -ENOMEM;
	} else if (key_is(k, klen, "probe_reach_end")) {
		if (vlen == 3 && memcmp(v, "all", 3) == 0)
			opt_clear(&o->probe_reach_end);
		else if (vlen > 2 && v[0] == '0' && v[1] == 'x' && parse_u64(v + 2, vlen - 2, 16, &n) == 0)
			opt_set(&o->probe_reach_end, n);
		else
			w->bad = true;
	} else {
		static const char *const counts[] = { "probe_bytes", "probe_above_reach_bytes",
						      "probe_allocated_bytes" };
		uint64_t *dst[] = { &o->probe_bytes, &o->probe_above_reach_bytes, &o->probe_allocated_bytes };
		for (size_t i = 0; i < ARRAY_SIZE(counts); i++)
			if (key_is(k, klen, counts[i]) && parse_u64(v, vlen, 10, dst[i]) < 0)
				w->bad = true;
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
	o->full = TAKE_PTR(scratch.swiotlb_full);
	o->n_full = scratch.n_swiotlb_full;
	scratch.n_swiotlb_full = 0;
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

/* The first n decimal fields of s, split at any byte of seps, up to the line's end: false when fewer. */
static bool leading_fields(const char *s, size_t len, const char *seps, uint64_t *f, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < len && k < n;) {
		while (i < len && strchr(seps, s[i]) && s[i])
			i++;
		size_t w = 0;
		while (i + w < len && s[i + w] != '\n' && !strchr(seps, s[i + w]))
			w++;
		if (!w || parse_u64(s + i, w, 10, &f[k]) < 0)
			return false;
		k++;
		i += w;
	}
	return k == n;
}

/* "stat" of a disk: the data I/Os (reads and writes; Documentation/block/stat.rst fields 1
 * and 5) and their bytes (fields 3 and 7, in 512-byte sectors): discards and flushes move
 * no buffer of the caller's, so they cannot bounce. False when fewer than 7 fields. */
static bool parse_block_stat(const char *s, size_t len, uint64_t *ret_ops, uint64_t *ret_bytes)
{
	uint64_t f[7];

	if (!leading_fields(s, len, " \t", f, ARRAY_SIZE(f)))
		return false;
	*ret_ops = f[0] + f[4];
	*ret_bytes = sat_shl(f[2] + f[6], 9);
	return true;
}

/* "rx_packets tx_packets rx_bytes tx_bytes" of an interface. */
static bool parse_net_stat(const char *s, size_t len, uint64_t *ret_ops, uint64_t *ret_bytes)
{
	uint64_t f[4];

	if (!leading_fields(s, len, " ", f, ARRAY_SIZE(f)))
		return false;
	*ret_ops = f[0] + f[1];
	*ret_bytes = f[2] + f[3];
	return true;
}

struct traffic_list {
	struct observed_traffic *v;
	size_t n;
};

static void traffic_list_done(struct traffic_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].name);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int traffic_add(struct traffic_list *l, const struct observed_traffic *t, const char *name, size_t nlen)
{
	if (array_full(l->n)) {
		struct observed_traffic *v = reallocarray(l->v, array_capacity(l->n), sizeof(*v));
		if (!v)
			return -ENOMEM;
		l->v = v;
	}
	l->v[l->n] = *t;
	if (!(l->v[l->n].name = strndup(name, nlen)))
		return -ENOMEM;
	l->n++;
	return 0;
}

/* One "block/vda=..." or "net/eth0=..." line; lines that do not parse are left out. */
static int traffic_pair(void *data, const char *k, size_t klen, const char *v, size_t vlen)
{
	struct traffic_list *l = data;
	struct observed_traffic t = { 0 };
	static const char *const prefix[_TRAFFIC_KIND_MAX] = { [TRAFFIC_BLOCK] = "block/",
							       [TRAFFIC_NET] = "net/" };

	for (size_t i = 0; i < _TRAFFIC_KIND_MAX; i++) {
		size_t pl = strlen(prefix[i]);
		if (klen <= pl || memcmp(k, prefix[i], pl) != 0)
			continue;
		t.kind = (enum traffic_kind)i;
		bool ok = t.kind == TRAFFIC_BLOCK ? parse_block_stat(v, vlen, &t.ops, &t.bytes)
						  : parse_net_stat(v, vlen, &t.ops, &t.bytes);
		return ok ? traffic_add(l, &t, k + pl, klen - pl) : 0;
	}
	return 0;
}

/* The window's traffic: after minus before, for each disk and interface at both ends whose
 * counters did not go back (a disk removed and added again in the window). */
static int parse_traffic(const struct observe_raw *raw, struct observation *o)
{
	struct traffic_list before = { 0 }, after = { 0 }, out = { 0 };
	int r;

	r = each_pair(raw->buf[OBSERVE_TRAFFIC_BEFORE], raw->len[OBSERVE_TRAFFIC_BEFORE], &before, traffic_pair);
	if (r == 0)
		r = each_pair(raw->buf[OBSERVE_TRAFFIC_AFTER], raw->len[OBSERVE_TRAFFIC_AFTER], &after,
			      traffic_pair);
	for (size_t i = 0; r == 0 && i < after.n; i++) {
		const struct observed_traffic *a = &after.v[i];
		for (size_t j = 0; j < before.n; j++) {
			const struct observed_traffic *b = &before.v[j];
			if (b->kind != a->kind || strcmp(b->name, a->name) != 0)
				continue;
			if (a->ops >= b->ops && a->bytes >= b->bytes) {
				struct observed_traffic d = { .kind = a->kind, .ops = a->ops - b->ops,
							      .bytes = a->bytes - b->bytes };
				r = traffic_add(&out, &d, a->name, strlen(a->name));
			}
			break;
		}
	}
	traffic_list_done(&before);
	traffic_list_done(&after);
	if (r < 0) {
		traffic_list_done(&out);
		return r;
	}
	o->traffic = out.v;
	o->n_traffic = out.n;
	o->traffic_known = true;
	return 0;
}

/* The counters of one class directory's entries, as "PREFIX/NAME=VALUE" lines. */
static int read_class_traffic(struct sysroot *sr, FILE *f, const char *dir, const char *prefix,
			      const char *const *files, size_t n_files)
{
	_cleanup_strv_ struct strv names = { 0 };
	int r = sysroot_list_dir(sr, dir, &names);

	if (r < 0)
		return r == -ENOMEM ? r : 0;
	for (size_t i = 0; i < names.n; i++) {
		char vals[4][32];
		size_t n = 0;
		for (; n < n_files; n++) {
			_cleanup_free_ char *path = NULL, *buf = NULL;
			size_t len;
			if (asprintf(&path, "%s/%s/%s", dir, names.v[i], files[n]) < 0)
				return -ENOMEM;
			r = sysroot_read_file(sr, path, 4096, &buf, &len);
			if (r == -ENOMEM)
				return r;
			if (r < 0)
				break;
			if (n_files == 1) {
				/* the whole stat line, its runs of blanks kept: the parser splits it */
				fprintf(f, "%s/%s=%.*s\n", prefix, names.v[i], (int)strcspn(buf, "\n"), buf);
				break;
			}
			snprintf(vals[n], sizeof(vals[n]), "%.*s", (int)strcspn(buf, "\n"), buf);
		}
		if (n_files > 1 && n == n_files)
			fprintf(f, "%s/%s=%s %s %s %s\n", prefix, names.v[i], vals[0], vals[1], vals[2], vals[3]);
	}
	return 0;
}

int observe_read_traffic(struct sysroot *sr, char **ret, size_t *ret_len)
{
	static const char *const block_files[] = { "stat" };
	static const char *const net_files[] = { "statistics/rx_packets", "statistics/tx_packets",
						 "statistics/rx_bytes", "statistics/tx_bytes" };
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int r;

	if (!f)
		return -ENOMEM;
	r = read_class_traffic(sr, f, "sys/block", "block", block_files, ARRAY_SIZE(block_files));
	if (r == 0)
		r = read_class_traffic(sr, f, "sys/class/net", "net", net_files, ARRAY_SIZE(net_files));
	if (fclose(f) != 0 && r == 0)
		r = -ENOMEM;
	if (r < 0) {
		free(out);
		return r;
	}
	*ret = out;
	*ret_len = len;
	return 0;
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
	/* both ends or neither: one end alone counts nothing */
	if (r == 0 && raw->buf[OBSERVE_TRAFFIC_BEFORE] && raw->buf[OBSERVE_TRAFFIC_AFTER])
		r = parse_traffic(raw, &o);
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
