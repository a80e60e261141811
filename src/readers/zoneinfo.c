/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * proc/zoneinfo (mm/vmstat.c zoneinfo_show_print): a "Node %d, zone %8s"
 * header, then indented "key value" lines. "spanned", "present" and
 * "managed" are printed for every zone; "start_pfn:" only for populated
 * ones. World-readable: the fallback when proc/iomem is hidden.
 */
#include <stdlib.h>
#include <string.h>

#include "readers/readers.h"
#include "shared/macro.h"
#include "shared/text.h"

enum {
	SEEN_SPANNED = 1 << 0,
	SEEN_PRESENT = 1 << 1,
	SEEN_MANAGED = 1 << 2,
	/* "managed" exists only since 3.8 ("mm: introduce new field managed_pages") */
	SEEN_ALL = SEEN_SPANNED | SEEN_PRESENT, /* required */
};

/* "Node 0, zone   Normal" */
static int parse_header(const struct line *l, struct zone *z)
{
	const char *p = l->s, *end = l->s + l->len;
	static const char node[] = "Node ", zone[] = ", zone";

	if (l->len < sizeof(node) - 1 || memcmp(p, node, sizeof(node) - 1) != 0)
		return -EINVAL;
	p += sizeof(node) - 1;
	const char *comma = memchr(p, ',', (size_t)(end - p));
	uint64_t n;
	if (!comma || parse_u64(p, (size_t)(comma - p), 10, &n) < 0 || n > 65535)
		return -EINVAL;
	if ((size_t)(end - comma) < sizeof(zone) - 1 || memcmp(comma, zone, sizeof(zone) - 1) != 0)
		return -EINVAL;
	p = skip_blanks(comma + sizeof(zone) - 1, end);
	size_t len = token_len(p, end);
	if (len == 0 || len >= ZONE_NAME_MAX || skip_blanks(p + len, end) != end)
		return -EINVAL;
	memset(z, 0, sizeof(*z));
	z->node = (int)n;
	memcpy(z->name, p, len);
	return 0;
}

int zoneinfo_parse(const char *buf, size_t len, struct zone **ret_zones, size_t *ret_n,
		   struct parse_error *ret_err)
{
	_cleanup_free_ struct zone *zones = NULL;
	size_t n = 0, cap = 0;
	unsigned seen = SEEN_ALL, header_line = 0;
	struct line_iter it;
	struct line l;

	if (text_has_nul(buf, len))
		return parse_fail(ret_err, 0, "binary content (NUL byte)");
	if (len > 0 && buf[len - 1] != '\n')
		return parse_fail(ret_err, 0, "truncated (no final newline)");

	line_iter_init(&it, buf, len);
	while (line_iter_next(&it, &l)) {
		if (l.len == 0)
			continue;
		if (l.s[0] != ' ' && l.s[0] != '\t') {
			if ((seen & SEEN_ALL) != SEEN_ALL)
				return parse_fail(ret_err, header_line, "zone without spanned/present");
			if (n == cap) {
				size_t ncap = cap ? cap * 2 : 8;
				struct zone *nz = realloc(zones, ncap * sizeof(*nz));
				if (!nz)
					return -ENOMEM;
				zones = nz;
				cap = ncap;
			}
			if (parse_header(&l, &zones[n]) < 0)
				return parse_fail(ret_err, l.no, "expected \"Node N, zone NAME\"");
			n++;
			seen = 0;
			header_line = l.no;
			continue;
		}
		if (n == 0)
			return parse_fail(ret_err, l.no, "field before the first zone header");

		struct zone *z = &zones[n - 1];
		const char *end = l.s + l.len;
		const char *key = skip_blanks(l.s, end);
		size_t klen = token_len(key, end);
		const char *val = skip_blanks(key + klen, end);
		size_t vlen = token_len(val, end);
		uint64_t *dst = NULL;
		unsigned bit = 0;

		/* "pages free N" and "protection: (...)" have other shapes: skipped. */
		if (klen == 7 && memcmp(key, "spanned", 7) == 0)
			dst = &z->spanned, bit = SEEN_SPANNED;
		else if (klen == 7 && memcmp(key, "present", 7) == 0)
			dst = &z->present, bit = SEEN_PRESENT;
		else if (klen == 7 && memcmp(key, "managed", 7) == 0)
			dst = &z->managed, bit = SEEN_MANAGED;
		else if (klen == 10 && memcmp(key, "start_pfn:", 10) == 0)
			dst = &z->start_pfn, z->populated = true;
		if (!dst)
			continue;
		if (seen & bit)
			return parse_fail(ret_err, l.no, "field repeated in one zone");
		if (vlen == 0 || skip_blanks(val + vlen, end) != end ||
		    parse_u64(val, vlen, 10, dst) < 0)
			return parse_fail(ret_err, l.no, "bad number");
		seen |= bit;
	}
	if ((seen & SEEN_ALL) != SEEN_ALL)
		return parse_fail(ret_err, header_line, "zone without spanned/present");
	if (n == 0)
		return parse_fail(ret_err, 0, "no zone");
	for (size_t i = 0; i < n; i++) {
		/* 2^52 pages is 16 EiB with 4 KiB pages: beyond any address space. */
		if (zones[i].spanned > (1ull << 52) || zones[i].start_pfn > (1ull << 52) ||
		    zones[i].present > zones[i].spanned)
			return parse_fail(ret_err, 0, "zone sizes out of range");
		/* A zone with pages but no start_pfn line: the file was cut short. */
		if (zones[i].present && !zones[i].populated)
			return parse_fail(ret_err, 0, "populated zone without start_pfn");
	}
	*ret_n = n;
	*ret_zones = TAKE_PTR(zones);
	return 0;
}

int read_zoneinfo(struct sysroot *sr, struct machine *m)
{
	static const char path[] = "proc/zoneinfo";
	_cleanup_free_ char *buf = NULL;
	struct parse_error e = { 0 };
	size_t len;
	int r;

	r = read_input(sr, m, path, SYSROOT_READ_MAX, &buf, &len);
	if (r <= 0)
		return r;
	r = zoneinfo_parse(buf, len, &m->zones, &m->n_zones, &e);
	m->zoneinfo_ok = r >= 0;
	return record_parse_result(m, path, r, &e);
}
