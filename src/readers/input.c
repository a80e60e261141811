/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What every reader shares: fetching a text input, and recording how its parse went. */
#include <stdio.h>

#include "readers/readers.h"

int parse_fail(struct parse_error *e, unsigned line, const char *what)
{
	e->line = line;
	e->what = what;
	return -EBADMSG;
}

int record_parse_error(struct machine *m, const char *path, const struct parse_error *e)
{
	char detail[128];

	if (e->line)
		snprintf(detail, sizeof(detail), "line %u: %s", e->line, e->what);
	else
		snprintf(detail, sizeof(detail), "%s", e->what ? e->what : "malformed");
	return machine_add_input(m, path, INPUT_INVALID, EBADMSG, detail);
}

int read_input(struct sysroot *sr, struct machine *m, const char *path, size_t max,
	       char **ret_buf, size_t *ret_len)
{
	int r = sysroot_read_file(sr, path, max, ret_buf, ret_len);

	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return machine_add_input_errno(m, path, r) < 0 ? -ENOMEM : 0;
	return 1;
}

int record_parse_result(struct machine *m, const char *path, int r, const struct parse_error *e)
{
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return record_parse_error(m, path, e);
	return machine_add_input(m, path, INPUT_OK, 0, NULL);
}
