/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Joining a path; see path.h. */
#include <stdlib.h>
#include <string.h>

#include "shared/path.h"

char *path_join(const char *dir, const char *name)
{
	size_t ld = strlen(dir), ln = strlen(name);
	char *s = malloc(ld + 1 + ln + 1);

	if (!s)
		return NULL;
	if (ld == 0) {
		memcpy(s, name, ln + 1);
		return s;
	}
	memcpy(s, dir, ld);
	s[ld] = '/';
	memcpy(s + ld + 1, name, ln + 1);
	return s;
}
