/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>

/* Length of the valid UTF-8 sequence at s (RFC 3629) within left bytes; 0 when invalid. */
size_t utf8_seq_len(const unsigned char *s, size_t left);
