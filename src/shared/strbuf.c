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

void strbuf_append_size(struct strbuf *b, uint64_t bytes)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	unsigned u = 0;
	uint64_t whole = bytes, rem = 0, div = 1;

	while (whole >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		whole /= 1024;
		div *= 1024;
		u++;
	}
	rem = bytes - whole * div;
	strbuf_append_u64(b, whole);
	if (rem) {
		/* one decimal, rounded down so "4.0 GiB" never stands for less than 4 GiB */
		uint64_t tenth = (uint64_t)((rem / (div / 1024 ? div / 1024 : 1)) * 10 / 1024);
		if (u > 0 && tenth > 0) {
			strbuf_append(b, ".");
			strbuf_append_u64(b, tenth);
		}
	}
	strbuf_append(b, " ");
	strbuf_append(b, units[u]);
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
