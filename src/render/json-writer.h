/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A streaming JSON writer: values go to the FILE as they are given, nothing
 * is held but the nesting, so a report of any size costs no memory. The
 * layout is json-c's JSON_C_TO_STRING_PRETTY|SPACED|NOSLASHESCAPE (two
 * spaces a level, "key": value, every closing bracket on a line of its own,
 * even an empty container's), which the
 * report kept when it stopped building json-c objects.
 *
 * Every call takes the member's key; inside an array the key is NULL. A
 * NULL string is written as null. Errors are sticky: jw_end()
 * returns the first (-EIO for a failed write, -EINVAL for misuse).
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_WRITER_MAX_DEPTH 16

#define JSON_WRITER_BUFFER 65536

struct json_writer {
	FILE *out;
	char *buf;  /* JSON_WRITER_BUFFER bytes gathered before one fwrite(); NULL: each piece written at once */
	size_t len;
	unsigned depth;
	bool has_members[JSON_WRITER_MAX_DEPTH]; /* the container at each level has had a value */
	bool is_array[JSON_WRITER_MAX_DEPTH];
	bool lines;  /* jw_begin_lines(): compact, a top-level value per line */
	int err;
};

void jw_begin(struct json_writer *w, FILE *out);
/*
 * JSON lines (ndjson): each top-level value in json-c's plain layout
 * (JSON_C_TO_STRING_PLAIN|NOSLASHESCAPE: no space, no newline) and a
 * newline after it; any number of them.
 */
void jw_begin_lines(struct json_writer *w, FILE *out);
/* 0, or the first error; the document must be closed. */
int jw_end(struct json_writer *w);

void jw_open_object(struct json_writer *w, const char *key);
void jw_close_object(struct json_writer *w);
void jw_open_array(struct json_writer *w, const char *key);
void jw_close_array(struct json_writer *w);

/* s made valid UTF-8 (an invalid byte becomes U+FFFD) and escaped; NULL: null. */
void jw_string(struct json_writer *w, const char *key, const char *s);
void jw_null(struct json_writer *w, const char *key);
void jw_bool(struct json_writer *w, const char *key, bool v);
void jw_int(struct json_writer *w, const char *key, int64_t v);
/* As json-c stores int64: a value above INT64_MAX is written as INT64_MAX. */
void jw_u64(struct json_writer *w, const char *key, uint64_t v);
/* "0x..." lower-case, no padding: addresses and masks beyond 2^53 stay exact. */
void jw_hex(struct json_writer *w, const char *key, uint64_t v);
/* v millionths as a JSON number, exact: 200000 -> 0.2 (strbuf_append_micro). */
void jw_micro(struct json_writer *w, const char *key, uint64_t v);
/* %.17g, ".0" added to an integral value, as json-c; NaN and infinities as null. */
void jw_double(struct json_writer *w, const char *key, double v);
