/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A list of strings it owns: directory listings, what a reader collects. */
#pragma once

#include <stddef.h>

#include "shared/macro.h"

struct strv {
	char **v;
	size_t n;
};

/* Free every string and the array; a zeroed strv is fine. Leaves it zeroed. */
void strv_done(struct strv *s);
#define _cleanup_strv_ _cleanup_(strv_done)

/* Append a copy of str. 0 or -ENOMEM. */
_must_check_ int strv_push(struct strv *s, const char *str) _nonnull_all_;
/* Sort by strcmp(). */
void strv_sort(struct strv *s) _nonnull_all_;
