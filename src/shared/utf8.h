/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>

/* Length of the valid UTF-8 sequence at s (RFC 3629) within left bytes; 0 when invalid. */
size_t utf8_seq_len(const unsigned char *s, size_t left);

/*
 * A malloc'd copy of s with each byte that starts no valid sequence
 * replaced by U+FFFD, as the JSON writer writes it; NULL when out of memory.
 */
char *utf8_make_valid(const char *s);
