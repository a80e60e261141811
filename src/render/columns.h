/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The device table's columns: one table drives the text output, -o/--output,
 * and --list-columns (as util-linux lsblk does).
 */
#pragma once

#include "shared/macro.h"

#include <stdbool.h>
#include <stddef.h>

#include "analysis/model.h"

struct column {
	const char *name;
	const char *help;
	bool right;     /* numbers align right */
	bool trunc;     /* may be truncated to fit the terminal */
	bool deflt;     /* shown without -o */
	bool deflt_translated; /* shown without -o where a device's reach differs from its mask */
	/* The cell text, malloc'd; NULL for an empty cell. */
	char *(*get)(const struct device_report *r, bool bytes); /* bytes: -b, exact sizes */
	/* A truncatable column gives way to the terminal down to this share of
	 * its width, in turn with the others: REASON before DRIVER */
	double share;
	/* The number -x/--sort orders by (false: none); NULL sorts by the text, naturally. */
	bool (*key)(const struct device_report *r, uint64_t *ret);
	/* -J -o: a JSON number, as lsblk -J: COLUMN_NUMBER always, COLUMN_NUMBER_BYTES with -b */
	enum { COLUMN_TEXT, COLUMN_NUMBER, COLUMN_NUMBER_BYTES } json;
	/* the cell's parts are '\n'-separated: a line each in a table, as lsblk's
	 * MOUNTPOINTS; joined with ", " in -r, -P and -J */
	bool lines;
};

const struct column *columns_all(size_t *ret_n);
/* Some device's reach ends at another CPU address than its mask (a window, an offset): REACH_END's machines. */
bool columns_reach_differs(const struct devices_result *l) _nonnull_all_;
const struct column *column_find(const char *name, size_t len);

/*
 * Parse an -o list ("DEVICE,VERDICT" or "+NAME" to add to the defaults) into
 * indexes of columns_all(). 0, or -EINVAL with *ret_bad pointing at the
 * unknown name (length in *ret_bad_len).
 */
_must_check_ int columns_parse(const char *spec, size_t *ret_idx, size_t max, size_t *ret_n,
		  const char **ret_bad, size_t *ret_bad_len);

/*
 * The order devices are listed in: by column sort (NULL: as analysed),
 * ascending, devices without a value last, ties as analysed. A malloc'd
 * array of r's n_devices indexes; NULL when out of memory.
 */
size_t *columns_order(const struct devices_result *l, const struct column *sort);
