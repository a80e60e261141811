/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers for parsing the kernel's text files: lines, numbers, no surprises. */
#pragma once

#include "shared/macro.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A view of one line, without its '\n'. */
struct line {
	const char *s;
	size_t len;
	unsigned no; /* 1-based */
};

struct line_iter {
	const char *p;
	const char *end;
	unsigned no;
};

void line_iter_init(struct line_iter *it, const char *buf, size_t len);
bool line_iter_next(struct line_iter *it, struct line *ret);

/* s is one plain path component: not empty, no '/', neither "." nor "..". */
bool filename_is_plain(const char *s);

/* True when buf holds a NUL byte: a binary file where text was expected. */
bool text_has_nul(const char *buf, size_t len);
/* "dddd:bb:dd.f" (pci_name(): sysfs, proc/iomem), or lspci's "bb:dd.f" without the domain. */
bool text_is_pci_address(const char *s, size_t len, bool with_domain);

/*
 * Parse an unsigned number of [s, s+len) in base (16 accepts an optional
 * "0x"). No sign, no blanks, no overflow: -EINVAL / -ERANGE otherwise.
 */
_must_check_ int parse_u64(const char *s, size_t len, unsigned base, uint64_t *ret);

/*
 * Parse a one-line number (a sysfs attribute), one trailing newline allowed.
 * base 10 accepts a leading '-' when min < 0; base 16 an optional "0x".
 * Returns 0, -EINVAL (not a number), -ERANGE (outside [min, max]).
 */
int parse_int_line(const char *s, size_t len, unsigned base, int64_t min, int64_t max,
		   int64_t *ret);

/* The value of a hex digit, -1 for anything else. */
_must_check_ int hex_digit(char c);

/* The kernel's isspace() and isdigit() (lib/ctype.c), whatever the C locale says. */
static inline bool char_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static inline bool char_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Skip blanks (space, tab) from *s up to end. */
const char *skip_blanks(const char *s, const char *end);
/* Length of the token at s (up to a blank or end). */
size_t token_len(const char *s, const char *end);
