/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/json-writer.h"
#include "shared/strbuf.h"
#include "shared/utf8.h"

static void flush(struct json_writer *w)
{
	if (w->err == 0 && w->len && fwrite_unlocked(w->buf, 1, w->len, w->out) != w->len)
		w->err = -EIO;
	w->len = 0;
}

/* Pieces are a few bytes: gathered in the writer's buffer, stdio sees 64 KiB at a time. */
static void put(struct json_writer *w, const char *s, size_t n)
{
	if (w->err || n == 0)
		return;
	if (w->buf && n <= JSON_WRITER_BUFFER - w->len) {
		memcpy(w->buf + w->len, s, n);
		w->len += n;
		return;
	}
	flush(w);
	if (w->buf && n < JSON_WRITER_BUFFER) {
		memcpy(w->buf, s, n);
		w->len = n;
	} else if (w->err == 0 && fwrite_unlocked(s, 1, n, w->out) != n) {
		w->err = -EIO;
	}
}

static void puts_w(struct json_writer *w, const char *s)
{
	put(w, s, strlen(s));
}

static void indent(struct json_writer *w, unsigned level)
{
	static const char spaces[] = "                                ";
	size_t n = 2 * (size_t)level;

	while (n > 0) {
		size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;
		put(w, spaces, k);
		n -= k;
	}
}

/* json-c's json_escape_str() with NOSLASHESCAPE, after the UTF-8 repair. */
static void escaped(struct json_writer *w, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s, *run = p;
	size_t left = strlen(s);

	put(w, "\"", 1);
	while (left) {
		unsigned char c = *p;
		const char *esc = NULL;
		char u[7];
		size_t n = 1;

		if (c >= 0x80) {
			n = utf8_seq_len(p, left);
			if (n == 0) {
				esc = "\xef\xbf\xbd";
				n = 1;
			}
		} else if (c == '"') {
			esc = "\\\"";
		} else if (c == '\\') {
			esc = "\\\\";
		} else if (c < 0x20) {
			switch (c) {
			case '\b': esc = "\\b"; break;
			case '\f': esc = "\\f"; break;
			case '\n': esc = "\\n"; break;
			case '\r': esc = "\\r"; break;
			case '\t': esc = "\\t"; break;
			default:
				memcpy(u, "\\u00", 4);
				u[4] = hex[c >> 4];
				u[5] = hex[c & 15];
				u[6] = '\0';
				esc = u;
			}
		}
		if (esc) {
			put(w, (const char *)run, (size_t)(p - run));
			puts_w(w, esc);
			run = p + n;
		}
		p += n;
		left -= n;
	}
	put(w, (const char *)run, (size_t)(p - run));
	put(w, "\"", 1);
}

/* The separator, the indent and the key before a value; false once in error. */
static bool member(struct json_writer *w, const char *key)
{
	if (w->err)
		return false;
	if (w->depth == 0) {
		if (key)
			w->err = -EINVAL;
		return w->err == 0;
	}
	unsigned d = w->depth;
	bool in_array = w->is_array[d - 1];
	if (in_array != (key == NULL)) {
		w->err = -EINVAL; /* a key in an array, or none in an object */
		return false;
	}
	if (w->lines) {
		if (w->has_members[d - 1])
			put(w, ",", 1);
	} else {
		put(w, w->has_members[d - 1] ? ",\n" : "\n", w->has_members[d - 1] ? 2 : 1);
		indent(w, d);
	}
	w->has_members[d - 1] = true;
	if (key) {
		escaped(w, key);
		put(w, w->lines ? ":" : ": ", w->lines ? 1 : 2);
	}
	return w->err == 0;
}

void jw_begin(struct json_writer *w, FILE *out)
{
	/* without the buffer (no memory for it) every piece goes to stdio as it comes */
	*w = (struct json_writer){ .out = out, .buf = malloc(JSON_WRITER_BUFFER) };
}

void jw_begin_lines(struct json_writer *w, FILE *out)
{
	jw_begin(w, out);
	w->lines = true;
}

int jw_end(struct json_writer *w)
{
	if (w->err == 0 && w->depth != 0)
		w->err = -EINVAL;
	if (!w->lines)
		put(w, "\n", 1);
	flush(w);
	free(w->buf);
	w->buf = NULL;
	if (w->err == 0 && ferror(w->out))
		w->err = -EIO;
	return w->err;
}

static void open_container(struct json_writer *w, const char *key, bool array)
{
	if (!member(w, key))
		return;
	if (w->depth >= JSON_WRITER_MAX_DEPTH) {
		w->err = -EINVAL;
		return;
	}
	put(w, array ? "[" : "{", 1);
	w->is_array[w->depth] = array;
	w->has_members[w->depth] = false;
	w->depth++;
}

static void close_container(struct json_writer *w, bool array)
{
	if (w->err)
		return;
	if (w->depth == 0 || w->is_array[w->depth - 1] != array) {
		w->err = -EINVAL;
		return;
	}
	w->depth--;
	if (w->lines) {
		put(w, array ? "]" : "}", 1);
		if (w->depth == 0)
			put(w, "\n", 1);
		return;
	}
	/* json-c puts the closing bracket on a line of its own, even after an empty container */
	put(w, "\n", 1);
	indent(w, w->depth);
	put(w, array ? "]" : "}", 1);
}

void jw_open_object(struct json_writer *w, const char *key)
{
	open_container(w, key, false);
}

void jw_close_object(struct json_writer *w)
{
	close_container(w, false);
}

void jw_open_array(struct json_writer *w, const char *key)
{
	open_container(w, key, true);
}

void jw_close_array(struct json_writer *w)
{
	close_container(w, true);
}

void jw_string(struct json_writer *w, const char *key, const char *s)
{
	if (member(w, key)) {
		if (s)
			escaped(w, s);
		else
			put(w, "null", 4);
	}
}

void jw_null(struct json_writer *w, const char *key)
{
	if (member(w, key))
		put(w, "null", 4);
}

void jw_bool(struct json_writer *w, const char *key, bool v)
{
	if (member(w, key))
		puts_w(w, v ? "true" : "false");
}

/* The digits of v in base 10 or 16, written backwards from end: where they start. */
static char *digits(char *end, uint64_t v, unsigned base)
{
	static const char hex[] = "0123456789abcdef";

	do {
		*--end = hex[v % base];
		v /= base;
	} while (v);
	return end;
}

/* Not snprintf(): a 10,000-device report writes some 400,000 numbers. */
void jw_int(struct json_writer *w, const char *key, int64_t v)
{
	char s[24], *end = s + sizeof(s);
	/* the magnitude as uint64_t: -INT64_MIN does not fit an int64_t */
	char *p = digits(end, v < 0 ? -(uint64_t)v : (uint64_t)v, 10);

	if (v < 0)
		*--p = '-';
	if (member(w, key))
		put(w, p, (size_t)(end - p));
}

void jw_u64(struct json_writer *w, const char *key, uint64_t v)
{
	jw_int(w, key, v > INT64_MAX ? INT64_MAX : (int64_t)v);
}

void jw_hex(struct json_writer *w, const char *key, uint64_t v)
{
	char s[24], *end = s + sizeof(s) - 1;
	char *p = digits(end, v, 16);

	*end = '"';
	*--p = 'x';
	*--p = '0';
	*--p = '"';
	if (member(w, key))
		put(w, p, (size_t)(end + 1 - p));
}

void jw_micro(struct json_writer *w, const char *key, uint64_t v)
{
	struct strbuf b = { 0 };

	strbuf_append_micro(&b, v);
	if (!b.s) { /* out of memory: the writer's own error path */
		jw_null(w, key);
		return;
	}
	if (member(w, key))
		put(w, b.s, b.len);
	strbuf_done(&b);
}

void jw_double(struct json_writer *w, const char *key, double v)
{
	char s[40];
	int n;

	if (!isfinite(v)) {
		jw_null(w, key);
		return;
	}
	if (!member(w, key))
		return;
	n = snprintf(s, sizeof(s) - 2, "%.17g", v);
	if (n > 0 && !strpbrk(s, ".e")) {
		memcpy(s + n, ".0", 3);
		n += 2;
	}
	put(w, s, (size_t)n);
}
