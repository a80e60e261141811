/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A set of strings, each with an int, kept in insertion order: O(1) look-ups
 * where a path list can grow to tens of thousands (a capture's read errors,
 * a snapshot's recorded errors). Keys are hashed with SipHash-1-3 under a
 * per-process random key, so a hostile snapshot cannot make them collide.
 */
#pragma once

#include "shared/macro.h"

#include <stddef.h>

struct strmap_entry {
	char *key;
	int value;
};

struct strmap {
	struct strmap_entry *v; /* in insertion order */
	size_t n, cap;
	size_t *slots;          /* index + 1 into v, 0 for an empty slot */
	size_t n_slots;         /* a power of two, at least twice n */
};

#define STRMAP_INIT { 0 }

/* Add key (copied) with value. 1 added, 0 already there (its value kept), -ENOMEM. */
_must_check_ int strmap_add(struct strmap *m, const char *key, int value);
/* The entry for key, or NULL. */
struct strmap_entry *strmap_get(const struct strmap *m, const char *key);
void strmap_done(struct strmap *m);
