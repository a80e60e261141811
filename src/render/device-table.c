/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <libsmartcols.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/prediction-check.h"
#include "render/columns.h"
#include "render/device-table.h"
#include "render/text-util.h"
#include "shared/macro.h"
#include "shared/strbuf.h"
#include "shared/utf8.h"

#define MAX_TABLE_COLUMNS 32

static void scols_unref_tablep(struct libscols_table **t)
{
	scols_unref_table(*t);
}

/* The colour of a device-table cell: VERDICT by verdict, CHECK by result. */
static const char *cell_colour(const struct column *c, const struct device_report *r)
{
	if (strcmp(c->name, "VERDICT") == 0)
		return text_verdict_colour(r->verdict);
	if (strcmp(c->name, "CHECK") == 0)
		return r->observed_result == OBSERVED_CONTRADICTED ? "red"
		       : r->observed_result == OBSERVED_CONSISTENT ? "green"
								   : NULL;
	return NULL;
}

/* No device has a value in this column. */
static bool column_empty(const struct column *c, const struct report *r, bool exact)
{
	for (size_t i = 0; i < r->devices.n_devices; i++) {
		char *v = c->get(&r->devices.devices[i], exact);
		free(v);
		if (v)
			return false;
	}
	return true;
}

/*
 * The default columns into idx: with an observation its two columns join
 * them. On a terminal (or for COLUMNS) a default column no device has a
 * value in (LIMIT on x86) leaves room; anywhere else the columns are fixed,
 * so a script that reads fields by position reads the same fields on every
 * host of a kind: REACH_END joins them where a window or offset moves a
 * device's reach off its mask (DT and ACPI boards), on every output.
 */
static size_t default_columns(const struct report *r, const struct render_options *o, bool fixed,
			      size_t idx[static MAX_TABLE_COLUMNS])
{
	size_t n_all, n = 0;
	const struct column *all = columns_all(&n_all);
	bool observed = r->devices.n_devices &&
			r->devices.devices[0].observed_result != OBSERVED_NONE;
	bool translated = columns_reach_differs(&r->devices);

	for (size_t i = 0; i < n_all && n < MAX_TABLE_COLUMNS; i++) {
		bool obs_col = strcmp(all[i].name, "OBSERVED") == 0 || strcmp(all[i].name, "CHECK") == 0;
		if (all[i].deflt && !fixed && column_empty(&all[i], r, o->bytes))
			continue;
		if (all[i].deflt || (observed && obs_col) || (translated && all[i].deflt_translated))
			idx[n++] = i;
	}
	return n;
}

/* A multi-line cell for -r, -P or -J: its parts joined with ", " (frees v). */
static char *join_lines(char *v)
{
	struct strbuf b = { 0 };

	for (const char *p = v, *nl; p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (b.len)
			strbuf_append(&b, ", ");
		strbuf_append_n(&b, p, nl ? (size_t)(nl - p) : strlen(p));
	}
	free(v);
	return strbuf_steal(&b);
}

static int fill_rows(struct libscols_table *t, const struct report *r, const struct render_options *o,
		     const size_t *idx, size_t n, bool json, bool table)
{
	const struct column *all = columns_all(&(size_t){ 0 });
	_cleanup_free_ size_t *order = columns_order(&r->devices, o->sort);

	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < r->devices.n_devices; i++) {
		const struct device_report *dr = &r->devices.devices[order[i]];
		struct libscols_line *ln = scols_table_new_line(t, NULL);
		if (!ln)
			return -ENOMEM;
		for (size_t c = 0; c < n; c++) {
			char *v = all[idx[c]].get(dr, o->bytes);
			if (v && all[idx[c]].lines && !table)
				v = join_lines(v);
			if (v && json) { /* libsmartcols escapes controls but passes any byte: JSON is UTF-8 */
				char *valid = utf8_make_valid(v);
				free(v);
				if (!valid)
					return -ENOMEM;
				v = valid;
			}
			if (v && scols_line_refer_data(ln, c, v) < 0) {
				free(v);
				return -ENOMEM;
			}
			const char *colour = cell_colour(&all[idx[c]], dr);
			if (v && colour && o->color == 1)
				scols_cell_set_color(scols_line_get_cell(ln, c), colour);
		}
	}
	return 0;
}

int device_table_print(FILE *out, const struct report *r, const struct render_options *o, bool json)
{
	const struct column *all = columns_all(&(size_t){ 0 });
	size_t defaults[MAX_TABLE_COLUMNS], n = o->n_columns;
	const size_t *idx = o->columns;
	struct render_options to = *o;
	/* a table a person reads: -r, -P and -J keep one line a device */
	bool table = !json && !o->pairs && !o->raw;
	int ret;

	if (json || o->pairs)
		to.color = 0;
	if (!idx) {
		/* a width to fit (a terminal, or COLUMNS) is a reader; -r, -P, -J and a pipe a script */
		n = default_columns(r, o, json || o->pairs || o->raw || !o->width, defaults);
		idx = defaults;
	}
	_cleanup_(scols_unref_tablep) struct libscols_table *t = scols_new_table();
	if (!t)
		return -ENOMEM;
	scols_table_set_stream(t, out);
	if (json) {
		scols_table_enable_json(t, 1);
		if (scols_table_set_name(t, "devices") < 0)
			return -ENOMEM;
	} else {
		text_table_setup(t, &to);
		scols_table_enable_export(t, o->pairs);
	}
	for (size_t c = 0; c < n; c++) {
		const struct column *col = &all[idx[c]];
		int fl = (col->right ? SCOLS_FL_RIGHT : 0) | (col->trunc ? SCOLS_FL_TRUNC : 0) |
			 (col->lines && table ? SCOLS_FL_WRAP : 0);
		/* an absolute hint (> 1) is never cut: numbers and verdicts stay whole */
		struct libscols_column *cl = scols_table_new_column(t, col->name, col->trunc ? col->share : 2, fl);
		if (!cl)
			return -ENOMEM;
		/* as lsblk's MOUNTPOINTS: a line a part, the '\n' not escaped */
		if (col->lines && table &&
		    (scols_column_set_wrapfunc(cl, scols_wrapnl_chunksize, scols_wrapnl_nextchunk, NULL) < 0 ||
		     scols_column_set_safechars(cl, "\n") < 0))
			return -ENOMEM;
		/* as lsblk -J -b: sizes and counts are numbers when the cell holds one */
		if (json && (col->json == COLUMN_NUMBER || (col->json == COLUMN_NUMBER_BYTES && o->bytes)))
			scols_column_set_json_type(cl, SCOLS_JSON_NUMBER);
	}
	ret = fill_rows(t, r, &to, idx, n, json, table);
	if (ret < 0)
		return ret;
	if (scols_print_table(t) < 0)
		return -EIO;
	return ferror(out) ? -EIO : 0;
}
