/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Open addressing with linear probing over an insertion-ordered array. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "shared/strmap.h"

static uint64_t hash_key[2];
static int hash_key_set;

static void hash_key_init(void)
{
	if (hash_key_set)
		return;
	if (getrandom(hash_key, sizeof(hash_key), GRND_NONBLOCK) != (ssize_t)sizeof(hash_key)) {
		/* early boot without entropy: still unpredictable enough from outside */
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		hash_key[0] = (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32) ^ (uintptr_t)&ts;
		hash_key[1] = (uint64_t)ts.tv_sec * 0x9e3779b97f4a7c15ull ^ (uintptr_t)hash_key;
	}
	hash_key_set = 1;
}

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND                                                        \
	do {                                                            \
		v0 += v1; v1 = ROTL(v1, 13); v1 ^= v0; v0 = ROTL(v0, 32); \
		v2 += v3; v3 = ROTL(v3, 16); v3 ^= v2;                   \
		v0 += v3; v3 = ROTL(v3, 21); v3 ^= v0;                   \
		v2 += v1; v1 = ROTL(v1, 17); v1 ^= v2; v2 = ROTL(v2, 32); \
	} while (0)

/* SipHash-1-3 (as in Rust's and CPython's hash tables) of s. */
static uint64_t hash(const char *s)
{
	size_t len = strlen(s);
	uint64_t k0 = hash_key[0], k1 = hash_key[1];
	uint64_t v0 = k0 ^ 0x736f6d6570736575ull, v1 = k1 ^ 0x646f72616e646f6dull;
	uint64_t v2 = k0 ^ 0x6c7967656e657261ull, v3 = k1 ^ 0x7465646279746573ull;
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t m = 0;
		for (int b = 0; b < 8; b++)
			m |= (uint64_t)p[i + (size_t)b] << (8 * b);
		v3 ^= m;
		SIPROUND;
		v0 ^= m;
	}
	uint64_t last = (uint64_t)len << 56;
	for (int b = 0; i + (size_t)b < len; b++)
		last |= (uint64_t)p[i + (size_t)b] << (8 * b);
	v3 ^= last;
	SIPROUND;
	v0 ^= last;
	v2 ^= 0xff;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	return v0 ^ v1 ^ v2 ^ v3;
}

/* The slot holding key, or the empty slot where it would go. */
static size_t find_slot(const struct strmap *m, const char *key)
{
	size_t mask = m->n_slots - 1, i = (size_t)hash(key) & mask;

	while (m->slots[i] && strcmp(m->v[m->slots[i] - 1].key, key) != 0)
		i = (i + 1) & mask;
	return i;
}

static int grow_slots(struct strmap *m)
{
	size_t n = m->n_slots ? m->n_slots * 2 : 64;
	size_t *s = calloc(n, sizeof(*s));

	if (!s)
		return -ENOMEM;
	free(m->slots);
	m->slots = s;
	m->n_slots = n;
	for (size_t i = 0; i < m->n; i++)
		m->slots[find_slot(m, m->v[i].key)] = i + 1;
	return 0;
}

int strmap_add(struct strmap *m, const char *key, int value)
{
	hash_key_init();
	if ((m->n + 1) * 2 > m->n_slots && grow_slots(m) < 0)
		return -ENOMEM;
	size_t slot = find_slot(m, key);
	if (m->slots[slot])
		return 0;
	if (m->n == m->cap) {
		size_t ncap = m->cap ? m->cap * 2 : 32;
		struct strmap_entry *nv = realloc(m->v, ncap * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		m->v = nv;
		m->cap = ncap;
	}
	char *k = strdup(key);
	if (!k)
		return -ENOMEM;
	m->v[m->n] = (struct strmap_entry){ k, value };
	m->slots[slot] = ++m->n;
	return 1;
}

struct strmap_entry *strmap_get(const struct strmap *m, const char *key)
{
	if (!m->n)
		return NULL;
	size_t slot = find_slot(m, key);
	return m->slots[slot] ? &m->v[m->slots[slot] - 1] : NULL;
}

void strmap_done(struct strmap *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i].key);
	free(m->v);
	free(m->slots);
	*m = (struct strmap)STRMAP_INIT;
}
