/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <libsmartcols.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <wchar.h>

#include "render/text-util.h"
#include "shared/macro.h"
#include "shared/text.h"
#include "shared/utf8.h"

void text_append_safe(struct strbuf *b, const char *s)
{
	const unsigned char *u = (const unsigned char *)(s ? s : "");
	size_t left = strlen((const char *)u);
	bool multibyte = MB_CUR_MAX > 1; /* a UTF-8 locale shows characters, others bytes */

	while (left) {
		size_t n = u[0] < 0x20 || u[0] == 0x7f ? 0 : utf8_seq_len(u, left);
		if (n == 2 && u[0] == 0xc2 && u[1] < 0xa0)
			n = 0; /* U+0080..U+009F: C1 controls */
		if (n > 1 && !multibyte)
			n = 0;
		if (n == 0) {
			char hex[5] = { '\\', 'x', "0123456789abcdef"[u[0] >> 4], "0123456789abcdef"[u[0] & 15], 0 };
			strbuf_append(b, hex);
			n = 1;
		} else if (u[0] == '\\') {
			strbuf_append(b, "\\\\"); /* else a real "\x0a" and an escaped newline read alike */
		} else {
			strbuf_append_n(b, (const char *)u, n);
		}
		u += n;
		left -= n;
	}
}

void text_put_safe(FILE *out, const char *s)
{
	struct strbuf b = { 0 };
	text_append_safe(&b, s);
	_cleanup_free_ char *t = strbuf_steal(&b);
	fputs(t ? t : "", out);
}

size_t text_display_width(const char *s, size_t n)
{
	mbstate_t st = { 0 };
	size_t w = 0;

	while (n) {
		wchar_t wc;
		size_t k = mbrtowc(&wc, s, n, &st);
		if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
			memset(&st, 0, sizeof(st));
			k = 1;
			w++;
		} else {
			int cw = wcwidth(wc);
			w += cw > 0 ? (size_t)cw : 0;
		}
		s += k;
		n -= k;
	}
	return w;
}

unsigned text_columns(bool terminal)
{
	const char *c = getenv("COLUMNS");
	uint64_t v;
	struct winsize ws;

	if (c && parse_u64(c, strlen(c), 10, &v) == 0 && v >= 40 && v <= 1000)
		return (unsigned)v;
	if (terminal && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
		return ws.ws_col;
	return 0;
}

void text_print_wrapped(FILE *out, const char *text, unsigned col, unsigned indent, unsigned width)
{
	const char *p = text ? text : "";

	while (*p) {
		size_t word = strcspn(p, " ");
		unsigned cols = (unsigned)text_display_width(p, word);
		if (width && col > indent && col + cols > width) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		}
		fwrite(p, 1, word, out);
		col += cols;
		p += word;
		if (*p == ' ') {
			p++;
			size_t next = strcspn(p, " ");
			if (*p && !(width && col + 1 + text_display_width(p, next) > width)) {
				fputc(' ', out);
				col++;
			} else if (*p) {
				fprintf(out, "\n%*s", (int)indent, "");
				col = indent;
			}
		}
	}
	fputc('\n', out);
}

void text_append_size(struct strbuf *b, uint64_t bytes, bool exact)
{
	if (exact)
		strbuf_append_u64(b, bytes);
	else
		strbuf_append_size(b, bytes);
}

void text_append_amount(struct strbuf *b, uint64_t bytes, bool exact)
{
	text_append_size(b, bytes, exact);
	if (exact)
		strbuf_append(b, bytes == 1 ? " byte" : " bytes");
}

void text_append_pages(struct strbuf *b, uint64_t pages, unsigned page_shift, bool exact)
{
	strbuf_append_hex(b, pages);
	/* a count past 2^64 bytes is no zone's: say no size rather than a wrapped one */
	if (!pages || !page_shift || page_shift >= 64 || pages > UINT64_MAX >> page_shift)
		return;
	strbuf_append(b, " = ");
	text_append_size(b, pages << page_shift, exact);
}

void text_table_setup(struct libscols_table *t, const struct render_options *o)
{
	if (o->width) { /* a terminal, or COLUMNS: fit it, truncating the truncatable columns */
		scols_table_set_termforce(t, SCOLS_TERMFORCE_ALWAYS);
		scols_table_set_termwidth(t, o->width);
	}
#ifdef HAVE_SCOLS_TABLE_ENABLE_MINOUT
	scols_table_enable_minout(t, 1); /* no trailing blanks when a row's last cell is empty */
#endif
	scols_table_enable_raw(t, o->raw);
	scols_table_enable_noheadings(t, o->noheadings);
	scols_table_enable_colors(t, o->color == 1);
}

struct libscols_table *text_new_table(FILE *out, const char *const *cols, size_t n, size_t n_left,
				      const struct render_options *o)
{
	struct libscols_table *t = scols_new_table();
	if (!t)
		return NULL;
	scols_table_set_stream(t, out);
	text_table_setup(t, o);
	for (size_t i = 0; i < n; i++)
		if (!scols_table_new_column(t, cols[i], 0, i < n_left ? 0 : SCOLS_FL_RIGHT)) {
			scols_unref_table(t);
			return NULL;
		}
	return t;
}

void text_set_cell(struct libscols_line *ln, size_t col, struct strbuf *b)
{
	_cleanup_free_ char *s = strbuf_steal(b);
	scols_line_set_data(ln, col, s);
}

const char *text_verdict_colour(enum verdict v)
{
	static const char *const colours[] = {
		[VERDICT_GRAVITY_NONE] = NULL,
		[VERDICT_GRAVITY_GOOD] = "green",
		[VERDICT_GRAVITY_WARNING] = "yellow",
		[VERDICT_GRAVITY_ERROR] = "red",
	};
	return colours[verdict_gravity(v)];
}

const char *text_severity_sgr(enum severity s)
{
	return s == SEVERITY_ERROR ? "\033[31m" : s == SEVERITY_WARNING ? "\033[33m" : "";
}
