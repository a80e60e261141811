/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdlib.h>
#include <string.h>

#include "shared/array.h"
#include "shared/strv.h"

void strv_done(struct strv *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

int strv_push(struct strv *s, const char *str)
{
	if (array_full(s->n)) {
		char **v = reallocarray(s->v, array_capacity(s->n), sizeof(*v));
		if (!v)
			return -ENOMEM;
		s->v = v;
	}
	char *c = strdup(str);
	if (!c)
		return -ENOMEM;
	s->v[s->n++] = c;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void strv_sort(struct strv *s)
{
	if (s->n > 1)
		qsort(s->v, s->n, sizeof(*s->v), cmp_str);
}
