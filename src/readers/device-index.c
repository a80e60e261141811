/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The devices by syspath; see device-index.h. */
#include <stdlib.h>
#include <string.h>

#include "readers/device-index.h"

struct prefix {
	const char *s;
	size_t len;
};

static int cmp_index(const void *a, const void *b)
{
	return strcmp(((const struct dev_index *)a)->syspath,
		      ((const struct dev_index *)b)->syspath);
}

/* The same order as cmp_index, for the first len bytes of s as a string. */
static int cmp_prefix(const void *key, const void *elem)
{
	const struct prefix *k = key;
	const char *e = ((const struct dev_index *)elem)->syspath;
	int c = strncmp(k->s, e, k->len);

	if (c)
		return c;
	return e[k->len] ? -1 : 0;
}

int dev_index_build(const struct machine *m, struct dev_index **ret, size_t *ret_n)
{
	struct dev_index *idx = NULL;
	size_t n = 0;

	if (m->n_devices) {
		idx = malloc(m->n_devices * sizeof(*idx));
		if (!idx)
			return -ENOMEM;
	}
	for (size_t i = 0; i < m->n_devices; i++)
		if (m->devices[i].syspath)
			idx[n++] = (struct dev_index){ m->devices[i].syspath, i };
	if (n)
		qsort(idx, n, sizeof(*idx), cmp_index);
	*ret = idx;
	*ret_n = n;
	return 0;
}

const struct dev_index *dev_index_find(const struct dev_index *idx, size_t n, const char *path,
				       bool self)
{
	struct prefix k = { path, strlen(path) };

	if (n == 0)
		return NULL;
	if (self && k.len) {
		const struct dev_index *hit = bsearch(&k, idx, n, sizeof(*idx), cmp_prefix);
		if (hit)
			return hit;
	}
	for (;;) {
		while (k.len > 0 && path[k.len - 1] != '/')
			k.len--;
		if (k.len == 0)
			return NULL;
		k.len--; /* drop the '/' */
		const struct dev_index *hit = bsearch(&k, idx, n, sizeof(*idx), cmp_prefix);
		if (hit)
			return hit;
	}
}
