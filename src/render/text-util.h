/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the text report's parts share: safe text, display widths, wrapping, colours. */
#pragma once

#include "shared/macro.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/model.h"
#include "analysis/findings.h"
#include "render/render.h"
#include "shared/strbuf.h"

struct libscols_table;

/*
 * Snapshot text on a terminal: control bytes, C1 controls and invalid UTF-8
 * (any non-ASCII outside a UTF-8 locale) as \xNN, a backslash as \\.
 */
void text_append_safe(struct strbuf *b, const char *s);
void text_put_safe(FILE *out, const char *s);

/* Columns a terminal shows for s[0..n): wcwidth per character, 1 per undecodable byte. */
size_t text_display_width(const char *s, size_t n);

/* Columns to fit: COLUMNS, else the terminal's, else 0 (a pipe, a file: no wrapping). */
unsigned text_columns(bool terminal);

/*
 * Print text (already made safe) starting at column col, breaking at spaces
 * so no line passes width (0: never), continuation lines indented by indent.
 */
void text_print_wrapped(FILE *out, const char *text, unsigned col, unsigned indent, unsigned width);

/* "21 GiB", or with -b/--bytes the exact count. */
void text_append_size(struct strbuf *b, uint64_t bytes, bool exact);
/* The same in prose: -b gives "8443133952 bytes", not a bare number. */
void text_append_amount(struct strbuf *b, uint64_t bytes, bool exact);
/*
 * A page count in hex as PFNs are written, and its size: "0x40000 = 1 GiB";
 * "0x0" alone, and no size when page_shift is 0 (page size unknown).
 */
void text_append_pages(struct strbuf *b, uint64_t pages, unsigned page_shift, bool exact);

/*
 * A table on out, set up from the options: the first n_left columns are
 * labels, the rest numbers aligned right. NULL when out of memory.
 */
struct libscols_table *text_new_table(FILE *out, const char *const *cols, size_t n, size_t n_left,
				      const struct render_options *o);
struct libscols_line;
/* Cell col of ln takes b's text (b emptied). */
void text_set_cell(struct libscols_line *ln, size_t col, struct strbuf *b);

/* Width, raw, headings and colour of a table, from the options. */
void text_table_setup(struct libscols_table *t, const struct render_options *o);

/* By meaning, as dmesg and systemd colour levels: a libsmartcols colour name or NULL. */
const char *text_verdict_colour(enum verdict v);
/* ANSI SGR of a severity: errors red, warnings yellow; "" for info. */
const char *text_severity_sgr(enum severity s);
