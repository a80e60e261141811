/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "shared/text.h"

void line_iter_init(struct line_iter *it, const char *buf, size_t len)
{
	it->p = buf;
	it->end = buf + len;
	it->no = 0;
}

bool line_iter_next(struct line_iter *it, struct line *ret)
{
	if (it->p >= it->end)
		return false;
	const char *nl = memchr(it->p, '\n', (size_t)(it->end - it->p));
	const char *stop = nl ? nl : it->end;
	ret->s = it->p;
	ret->len = (size_t)(stop - it->p);
	ret->no = ++it->no;
	it->p = nl ? nl + 1 : it->end;
	return true;
}

bool filename_is_plain(const char *s)
{
	return *s && !strchr(s, '/') && strcmp(s, ".") != 0 && strcmp(s, "..") != 0;
}

bool text_has_nul(const char *buf, size_t len)
{
	return memchr(buf, '\0', len) != NULL;
}

int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int parse_u64(const char *s, size_t len, unsigned base, uint64_t *ret)
{
	uint64_t v = 0;

	if (base == 16 && len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		len -= 2;
	}
	if (len == 0)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		int d = hex_digit(s[i]);
		if (d < 0 || d >= (int)base)
			return -EINVAL;
		if (v > (UINT64_MAX - (uint64_t)d) / base)
			return -ERANGE;
		v = v * base + (uint64_t)d;
	}
	*ret = v;
	return 0;
}

int parse_int_line(const char *s, size_t len, unsigned base, int64_t min, int64_t max,
		   int64_t *ret)
{
	bool neg = false;
	uint64_t u;
	int64_t v;
	int r;

	if (len > 0 && s[len - 1] == '\n')
		len--;
	if (base == 10 && min < 0 && len > 0 && s[0] == '-') {
		neg = true;
		s++;
		len--;
	}
	r = parse_u64(s, len, base, &u);
	if (r < 0)
		return r == -ERANGE ? -ERANGE : -EINVAL;
	if (neg) {
		if (u > (uint64_t)INT64_MAX + 1)
			return -ERANGE;
		v = u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u;
	} else {
		if (u > (uint64_t)INT64_MAX)
			return -ERANGE;
		v = (int64_t)u;
	}
	if (v < min || v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

const char *skip_blanks(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

size_t token_len(const char *s, const char *end)
{
	const char *p = s;
	while (p < end && *p != ' ' && *p != '\t')
		p++;
	return (size_t)(p - s);
}

bool text_is_pci_address(const char *s, size_t len, bool with_domain)
{
	if (with_domain) {
		if (len != 12 || s[4] != ':')
			return false;
		for (size_t i = 0; i < 4; i++)
			if (!isxdigit((unsigned char)s[i]))
				return false;
		s += 5;
		len -= 5;
	}
	return len == 7 && isxdigit((unsigned char)s[0]) && isxdigit((unsigned char)s[1]) &&
	       s[2] == ':' && isxdigit((unsigned char)s[3]) && isxdigit((unsigned char)s[4]) &&
	       s[5] == '.' && s[6] >= '0' && s[6] <= '7';
}
