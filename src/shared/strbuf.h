/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A growable string for building messages without stdio (the analysis
 * includes no <stdio.h>). An allocation failure is sticky: later appends do
 * nothing and strbuf_steal() returns NULL.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strbuf {
	char *s;
	size_t len;
	size_t cap;
	bool oom;
};

void strbuf_append(struct strbuf *b, const char *s);
void strbuf_append_n(struct strbuf *b, const char *s, size_t n);
void strbuf_append_u64(struct strbuf *b, uint64_t v);
/* "0x" and lower-case hex digits, no padding. */
void strbuf_append_hex(struct strbuf *b, uint64_t v);
/* v millionths as a decimal, without trailing zeros and without the locale: 200000 -> "0.2". */
void strbuf_append_micro(struct strbuf *b, uint64_t v);
/* 1536 -> "1.5 KiB"; rounded to a tenth as lsblk rounds, so 23.96 GiB -> "24 GiB". */
void strbuf_append_size(struct strbuf *b, uint64_t bytes);
/* As strbuf_append_size(), but "N bytes" where the rounded figure would read as other's. */
void strbuf_append_size_beside(struct strbuf *b, uint64_t bytes, uint64_t other);
/* The NUL-terminated string, ownership to the caller; NULL after OOM. */
char *strbuf_steal(struct strbuf *b);
void strbuf_done(struct strbuf *b);

/* Convenience: a freshly allocated "0x..." string, or NULL. */
char *hex_string(uint64_t v);
/* A signed offset kept in a u64 as the kernel keeps it (two's complement): "-0xc0000000", or NULL. */
char *offset_string(uint64_t v);
