/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* proc/meminfo (fs/proc/meminfo.c): "Key:   N kB" lines. */
#include <string.h>

#include "readers/readers.h"
#include "shared/macro.h"
#include "shared/text.h"

int meminfo_parse(const char *buf, size_t len, struct meminfo *ret, struct parse_error *ret_err)
{
	struct meminfo mi = { 0 };
	struct line_iter it;
	struct line l;

	if (text_has_nul(buf, len))
		return parse_fail(ret_err, 0, "binary content (NUL byte)");
	if (len > 0 && buf[len - 1] != '\n')
		return parse_fail(ret_err, 0, "truncated (no final newline)");

	line_iter_init(&it, buf, len);
	while (line_iter_next(&it, &l)) {
		const char *end = l.s + l.len;
		const char *colon = memchr(l.s, ':', l.len);
		if (!colon)
			return parse_fail(ret_err, l.no, "expected \"Key: value\"");
		size_t klen = (size_t)(colon - l.s);
		const char *val = skip_blanks(colon + 1, end);
		size_t vlen = token_len(val, end);
		const char *unit = skip_blanks(val + vlen, end);
		uint64_t v;

		struct opt_u64 *dst = NULL;
		if (klen == 8 && memcmp(l.s, "MemTotal", 8) == 0)
			dst = &mi.mem_total;
		else if (klen == 9 && memcmp(l.s, "HighTotal", 9) == 0)
			dst = &mi.high_total;
		else if (klen == 8 && memcmp(l.s, "LowTotal", 8) == 0)
			dst = &mi.low_total;
		else if (klen == 6 && memcmp(l.s, "Bounce", 6) == 0)
			dst = &mi.bounce;
		if (!dst)
			continue;
		if (parse_u64(val, vlen, 10, &v) < 0)
			return parse_fail(ret_err, l.no, "bad number");
		if ((size_t)(end - unit) != 2 || memcmp(unit, "kB", 2) != 0)
			return parse_fail(ret_err, l.no, "expected a value in kB");
		if (v > UINT64_MAX / 1024)
			return parse_fail(ret_err, l.no, "value out of range");
		opt_set(dst, v * 1024);
	}
	if (!mi.mem_total.known)
		return parse_fail(ret_err, 0, "no MemTotal line");
	*ret = mi;
	return 0;
}

int read_meminfo(struct sysroot *sr, struct machine *m)
{
	static const char path[] = "proc/meminfo";
	_cleanup_free_ char *buf = NULL;
	struct parse_error e = { 0 };
	size_t len;
	int r;

	r = read_input(sr, m, path, SYSROOT_READ_MAX, &buf, &len);
	if (r <= 0)
		return r;
	r = meminfo_parse(buf, len, &m->meminfo, &e);
	return record_parse_result(m, path, r, &e);
}
