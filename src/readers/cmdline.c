/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* proc/cmdline: the kernel command line, one line (fs/proc/cmdline.c). */
#include <stdlib.h>
#include <string.h>

#include "readers/readers.h"
#include "shared/macro.h"
#include "shared/text.h"

/* The kernel caps it at COMMAND_LINE_SIZE (at most 4096 on most arches). */
#define CMDLINE_MAX 65536

int cmdline_parse(const char *buf, size_t len, char **ret, struct parse_error *ret_err)
{
	if (text_has_nul(buf, len))
		return parse_fail(ret_err, 0, "binary content (NUL byte)");
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		len--;
	if (memchr(buf, '\n', len))
		return parse_fail(ret_err, 2, "more than one line");
	char *s = strndup(buf, len);
	if (!s)
		return -ENOMEM;
	*ret = s;
	return 0;
}

int read_cmdline(struct sysroot *sr, struct machine *m)
{
	static const char path[] = "proc/cmdline";
	_cleanup_free_ char *buf = NULL;
	struct parse_error e = { 0 };
	size_t len;
	int r;

	r = read_input(sr, m, path, CMDLINE_MAX, &buf, &len);
	if (r <= 0)
		return r;
	r = cmdline_parse(buf, len, &m->cmdline, &e);
	return record_parse_result(m, path, r, &e);
}
