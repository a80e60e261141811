/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared/strbuf.h"

static bool reserve(struct strbuf *b, size_t more)
{
	if (b->oom)
		return false;
	if (b->len + more + 1 <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < b->len + more + 1)
		cap *= 2;
	char *s = realloc(b->s, cap);
	if (!s) {
		b->oom = true;
		return false;
	}
	b->s = s;
	b->cap = cap;
	return true;
}

void strbuf_append_n(struct strbuf *b, const char *s, size_t n)
{
	if (!reserve(b, n))
		return;
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void strbuf_append(struct strbuf *b, const char *s)
{
	strbuf_append_n(b, s, strlen(s));
}

static void append_base(struct strbuf *b, uint64_t v, unsigned base)
{
	char tmp[24];
	size_t i = sizeof(tmp);

	do {
		tmp[--i] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	strbuf_append_n(b, tmp + i, sizeof(tmp) - i);
}

void strbuf_append_u64(struct strbuf *b, uint64_t v)
{
	append_base(b, v, 10);
}

void strbuf_append_hex(struct strbuf *b, uint64_t v)
{
	strbuf_append(b, "0x");
	append_base(b, v, 16);
}

void strbuf_append_micro(struct strbuf *b, uint64_t v)
{
	char frac[8];
	int n = 6;

	append_base(b, v / 1000000, 10);
	snprintf(frac, sizeof(frac), ".%06u", (unsigned)(v % 1000000));
	while (n > 0 && frac[n] == '0')
		n--;
	if (n > 0)
		strbuf_append_n(b, frac, (size_t)n + 1);
}

/*
 * Rounded to the nearest tenth (half up), a ".0" dropped, as util-linux's
 * size_to_human_string() (lib/strutils.c, used by lsblk) rounds: 23.96 GiB
 * reads "24 GiB" where lsblk says 24G. It may read above the true size; JSON
 * and -b keep the exact bytes.
 */
void strbuf_append_size(struct strbuf *b, uint64_t bytes)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	unsigned u = 0, shift = 0;

	/* the unit is chosen before rounding, as util-linux's get_exp() does */
	while (u + 1 < sizeof(units) / sizeof(units[0]) && bytes >> (shift + 10)) {
		u++;
		shift += 10;
	}
	uint64_t whole = bytes >> shift, tenths = 0;
	if (shift) {
		/* rem < 2^shift <= 2^60: 10 * rem + 2^(shift-1) stays below 2^64 */
		uint64_t rem = bytes & ((1ULL << shift) - 1);
		tenths = (10 * rem + (1ULL << (shift - 1))) >> shift;
		if (tenths == 10) { /* 1023.95 KiB: "1024 KiB", as lsblk prints 1024K */
			whole++;
			tenths = 0;
		}
	}
	strbuf_append_u64(b, whole);
	if (tenths) {
		strbuf_append(b, ".");
		strbuf_append_u64(b, tenths);
	}
	strbuf_append(b, " ");
	strbuf_append(b, units[u]);
}

/* Two sizes set side by side (a threshold, a diff) must not read alike when they differ. */
void strbuf_append_size_beside(struct strbuf *b, uint64_t bytes, uint64_t other)
{
	struct strbuf x = { 0 }, y = { 0 };

	strbuf_append_size(&x, bytes);
	strbuf_append_size(&y, other);
	if (bytes != other && !x.oom && !y.oom && strcmp(x.s, y.s) == 0) {
		strbuf_append_u64(b, bytes);
		strbuf_append(b, bytes == 1 ? " byte" : " bytes");
	} else {
		strbuf_append_size(b, bytes);
	}
	strbuf_done(&x);
	strbuf_done(&y);
}

char *strbuf_steal(struct strbuf *b)
{
	if (b->oom) {
		strbuf_done(b);
		return NULL;
	}
	if (!b->s)
		reserve(b, 0);
	if (b->oom)
		return NULL;
	if (b->len == 0)
		b->s[0] = '\0';
	char *s = b->s;
	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

void strbuf_done(struct strbuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
	b->oom = false;
}

char *hex_string(uint64_t v)
{
	struct strbuf b = { 0 };
	strbuf_append_hex(&b, v);
	return strbuf_steal(&b);
}

char *offset_string(uint64_t v)
{
	struct strbuf b = { 0 };
	if (v >> 63)
		strbuf_append(&b, "-");
	strbuf_append_hex(&b, v >> 63 ? -v : v);
	return strbuf_steal(&b);
}
