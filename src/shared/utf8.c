/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* UTF-8 checks for the renderers: kernel and snapshot text can hold any byte. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shared/utf8.h"

/* Length of the valid UTF-8 sequence at s (RFC 3629), 0 when invalid. */
size_t utf8_seq_len(const unsigned char *s, size_t left)
{
	size_t n;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n > left)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

char *utf8_make_valid(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t left = strlen(s), o = 0;
	char *d = malloc(3 * left + 1); /* every byte U+FFFD at worst */

	if (!d)
		return NULL;
	while (left) {
		size_t n = utf8_seq_len(u, left);
		if (n == 0) {
			memcpy(d + o, "\xef\xbf\xbd", 3);
			o += 3;
			n = 1;
		} else {
			memcpy(d + o, u, n);
			o += n;
		}
		u += n;
		left -= n;
	}
	d[o] = '\0';
	return d;
}
