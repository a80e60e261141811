/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * src/render/json-writer.c against json-c, the library the report was
 * written with before: random documents (nesting, every byte in strings,
 * integers, doubles) print byte for byte as json-c prints them, invalid
 * UTF-8 becomes U+FFFD, and misuse and write errors are reported.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "render/json-writer.h"
#include "shared/utf8.h"

#define JSONC_FLAGS (JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE)

struct doc {
	char *text;
	size_t len;
	FILE *f;
	struct json_writer w;
};

static void doc_begin(struct doc *d)
{
	d->text = NULL;
	d->f = open_memstream(&d->text, &d->len);
	assert_non_null(d->f);
	jw_begin(&d->w, d->f);
}

static int doc_end(struct doc *d)
{
	int r = jw_end(&d->w);
	assert_int_equal(fclose(d->f), 0);
	return r;
}

static void layout(void **state)
{
	struct doc d;

	doc_begin(&d);
	jw_open_object(&d.w, NULL);
	jw_int(&d.w, "n", -3);
	jw_open_array(&d.w, "empty");
	jw_close_array(&d.w);
	jw_open_object(&d.w, "none");
	jw_close_object(&d.w);
	jw_open_array(&d.w, "a");
	jw_string(&d.w, NULL, "x/y");
	jw_null(&d.w, NULL);
	jw_bool(&d.w, NULL, true);
	jw_close_array(&d.w);
	jw_hex(&d.w, "mask", UINT64_MAX);
	jw_hex(&d.w, "zero", 0);
	jw_hex(&d.w, "page", 0xfff);
	jw_u64(&d.w, "big", UINT64_MAX);
	jw_int(&d.w, "min", INT64_MIN);
	jw_int(&d.w, "0", 0);
	jw_int(&d.w, "-1", -1);
	jw_int(&d.w, "10", 10);
	jw_double(&d.w, "d", 2.0);
	jw_double(&d.w, "nan", 0.0 / 0.0);
	jw_micro(&d.w, "rate", 200000);
	jw_micro(&d.w, "whole", 3000000);
	jw_close_object(&d.w);
	assert_int_equal(doc_end(&d), 0);
	assert_string_equal(d.text, "{\n"
				    "  \"n\": -3,\n"
				    "  \"empty\": [\n"
				    "  ],\n"
				    "  \"none\": {\n"
				    "  },\n"
				    "  \"a\": [\n"
				    "    \"x/y\",\n"
				    "    null,\n"
				    "    true\n"
				    "  ],\n"
				    "  \"mask\": \"0xffffffffffffffff\",\n"
				    "  \"zero\": \"0x0\",\n"
				    "  \"page\": \"0xfff\",\n"
				    "  \"big\": 9223372036854775807,\n"
				    "  \"min\": -9223372036854775808,\n"
				    "  \"0\": 0,\n"
				    "  \"-1\": -1,\n"
				    "  \"10\": 10,\n"
				    "  \"d\": 2.0,\n"
				    "  \"nan\": null,\n"
				    "  \"rate\": 0.2,\n"
				    "  \"whole\": 3\n"
				    "}\n");
	free(d.text);
}

/* A random string: ASCII with control characters, valid UTF-8, stray bytes. */
static char *random_string(unsigned *seed, bool valid_only)
{
	static const char *const pieces[] = { "\"", "\\", "/", "\n", "\t", "\x01", "\x1f", "\x7f",
					      "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "a", "Z" };
	static const char *const bad[] = { "\xff", "\xc3", "\xed\xa0\x80", "\xf8\x88\x80\x80\x80" };
	size_t n = (size_t)(rand_r(seed) % 12);
	char *s = calloc(1, n * 6 + 1);

	assert_non_null(s);
	for (size_t i = 0; i < n; i++) {
		int k = rand_r(seed) % 16;
		if (k < 13)
			strcat(s, pieces[k]);
		else if (!valid_only)
			strcat(s, bad[rand_r(seed) % 4]);
	}
	return s;
}

static struct json_object *random_value(unsigned *seed, struct json_writer *w, const char *key,
					int depth);

static struct json_object *random_container(unsigned *seed, struct json_writer *w,
					    const char *key, int depth, bool array)
{
	struct json_object *o = array ? json_object_new_array() : json_object_new_object();
	int n = rand_r(seed) % 5;

	if (array)
		jw_open_array(w, key);
	else
		jw_open_object(w, key);
	for (int i = 0; i < n; i++) {
		char k[16];
		snprintf(k, sizeof(k), "k%d", i); /* json-c keeps one member per key */
		struct json_object *v = random_value(seed, w, array ? NULL : k, depth + 1);
		if (array)
			json_object_array_add(o, v);
		else
			json_object_object_add(o, k, v);
	}
	if (array)
		jw_close_array(w);
	else
		jw_close_object(w);
	return o;
}

static struct json_object *random_value(unsigned *seed, struct json_writer *w, const char *key,
					int depth)
{
	int kind = rand_r(seed) % (depth < 6 ? 8 : 6);
	int64_t i = (int64_t)(((uint64_t)rand_r(seed) << 33) ^ ((uint64_t)rand_r(seed) << 2));
	double x = (double)rand_r(seed) / (1 + rand_r(seed) % 1000);
	char *s;
	struct json_object *o;

	switch (kind) {
	case 0:
		jw_null(w, key);
		return NULL;
	case 1:
		jw_bool(w, key, i & 1);
		return json_object_new_boolean(i & 1);
	case 2:
		i = i % 1000 == 0 ? INT64_MIN : i % 3 == 0 ? i % 100 : i; /* small ones too */
		jw_int(w, key, i);
		return json_object_new_int64(i);
	case 3:
		jw_double(w, key, x);
		return json_object_new_double(x);
	case 4:
	case 5:
		s = random_string(seed, true);
		jw_string(w, key, s);
		o = json_object_new_string(s);
		free(s);
		return o;
	default:
		return random_container(seed, w, key, depth, kind == 6);
	}
}

/* Property: 2,000 random documents print as json-c prints them. */
static void same_as_json_c(void **state)
{
	for (unsigned seed0 = 1; seed0 <= 2000; seed0++) {
		unsigned seed = seed0;
		struct doc d;

		doc_begin(&d);
		struct json_object *o = random_container(&seed, &d.w, NULL, 0, seed0 % 2);
		assert_int_equal(doc_end(&d), 0);
		const char *ref = json_object_to_json_string_ext(o, JSONC_FLAGS);
		size_t rl = strlen(ref);
		if (d.len != rl + 1 || memcmp(d.text, ref, rl) != 0 || d.text[rl] != '\n')
			fail_msg("seed %u:\nwriter: %s\njson-c: %s", seed0, d.text, ref);
		json_object_put(o);
		free(d.text);
	}
}

/* Property: JSON lines are json-c's plain layout, a newline after each of several documents. */
static void lines_as_json_c(void **state)
{
	for (unsigned seed0 = 1; seed0 <= 500; seed0++) {
		unsigned seed = seed0;
		struct doc d = { 0 };
		char *want = NULL;
		size_t want_len = 0;
		FILE *ref = open_memstream(&want, &want_len);

		assert_non_null(ref);
		d.f = open_memstream(&d.text, &d.len);
		assert_non_null(d.f);
		jw_begin_lines(&d.w, d.f);
		for (unsigned i = 0; i < 1 + seed0 % 3; i++) {
			struct json_object *o = random_container(&seed, &d.w, NULL, 0, false);
			fprintf(ref, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
									  JSON_C_TO_STRING_NOSLASHESCAPE));
			json_object_put(o);
		}
		assert_int_equal(doc_end(&d), 0);
		assert_int_equal(fclose(ref), 0);
		if (d.len != want_len || memcmp(d.text, want, want_len) != 0)
			fail_msg("seed %u:\nwriter: %s\njson-c: %s", seed0, d.text, want);
		free(want);
		free(d.text);
	}
}

/* Any byte sequence comes out as valid JSON whose string is the input, each bad byte U+FFFD (and utf8_make_valid() alike). */
static void invalid_utf8(void **state)
{
	for (unsigned seed = 1; seed <= 2000; seed++) {
		unsigned sd = seed;
		char *s = random_string(&sd, false);
		struct doc d;

		doc_begin(&d);
		jw_open_array(&d.w, NULL);
		jw_string(&d.w, NULL, s);
		jw_close_array(&d.w);
		assert_int_equal(doc_end(&d), 0);
		struct json_object *o = json_tokener_parse(d.text);
		assert_non_null(o);
		const char *back = json_object_get_string(json_object_array_get_idx(o, 0));
		/* the expected repair, byte by byte */
		char want[256] = "";
		const unsigned char *p = (const unsigned char *)s;
		size_t left = strlen(s);
		while (left) {
			size_t n = utf8_seq_len(p, left);
			if (n == 0)
				strcat(want, "\xef\xbf\xbd"), n = 1;
			else
				strncat(want, (const char *)p, n);
			p += n;
			left -= n;
		}
		assert_string_equal(back, want);
		/* the device table's -J -o repairs its cells with it: the same strings */
		char *valid = utf8_make_valid(s);
		assert_non_null(valid);
		assert_string_equal(valid, want);
		free(valid);
		json_object_put(o);
		free(d.text);
		free(s);
	}
}

/* Pieces larger than the writer's buffer, and many small ones past it, arrive whole and in order. */
static void beyond_buffer(void **state)
{
	size_t big = 3 * JSON_WRITER_BUFFER / 2;
	char *s = malloc(big + 1);
	struct doc d;

	assert_non_null(s);
	for (size_t i = 0; i < big; i++)
		s[i] = (char)('a' + i % 26);
	s[big] = '\0';
	doc_begin(&d);
	jw_open_array(&d.w, NULL);
	for (int i = 0; i < 10000; i++)
		jw_int(&d.w, NULL, i);
	jw_string(&d.w, NULL, s);
	jw_int(&d.w, NULL, -1);
	jw_close_array(&d.w);
	assert_int_equal(doc_end(&d), 0);
	struct json_object *o = json_tokener_parse(d.text);
	assert_non_null(o);
	assert_int_equal(json_object_array_length(o), 10002);
	assert_int_equal(json_object_get_int(json_object_array_get_idx(o, 9999)), 9999);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(o, 10000)), s);
	assert_int_equal(json_object_get_int(json_object_array_get_idx(o, 10001)), -1);
	json_object_put(o);
	free(d.text);
	free(s);
}

static void misuse(void **state)
{
	struct doc d;

	doc_begin(&d); /* a key inside an array */
	jw_open_array(&d.w, NULL);
	jw_int(&d.w, "k", 1);
	jw_close_array(&d.w);
	assert_int_equal(doc_end(&d), -EINVAL);
	free(d.text);

	doc_begin(&d); /* no key inside an object */
	jw_open_object(&d.w, NULL);
	jw_int(&d.w, NULL, 1);
	jw_close_object(&d.w);
	assert_int_equal(doc_end(&d), -EINVAL);
	free(d.text);

	doc_begin(&d); /* left open */
	jw_open_object(&d.w, NULL);
	assert_int_equal(doc_end(&d), -EINVAL);
	free(d.text);

	doc_begin(&d); /* closed as the other kind */
	jw_open_object(&d.w, NULL);
	jw_close_array(&d.w);
	assert_int_equal(doc_end(&d), -EINVAL);
	free(d.text);

	doc_begin(&d); /* deeper than the writer keeps */
	for (int i = 0; i <= JSON_WRITER_MAX_DEPTH; i++)
		jw_open_array(&d.w, NULL);
	assert_int_equal(d.w.err, -EINVAL);
	assert_int_equal(doc_end(&d), -EINVAL);
	free(d.text);
}

/* A full disk: the first failed write is the answer, however much follows. */
static void write_error(void **state)
{
	FILE *f = fopen("/dev/full", "w");
	struct json_writer w;

	if (!f)
		skip();
	setvbuf(f, NULL, _IONBF, 0);
	jw_begin(&w, f);
	jw_open_array(&w, NULL);
	for (int i = 0; i < 100; i++)
		jw_string(&w, NULL, "spill");
	jw_close_array(&w);
	assert_int_equal(jw_end(&w), -EIO);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(layout),
		cmocka_unit_test(same_as_json_c),
		cmocka_unit_test(lines_as_json_c),
		cmocka_unit_test(invalid_utf8),
		cmocka_unit_test(beyond_buffer),
		cmocka_unit_test(misuse),
		cmocka_unit_test(write_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
