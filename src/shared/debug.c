/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* DMAMASK_DEBUG parsing; see debug.h. */
#include <stdlib.h>
#include <string.h>

#include "shared/debug.h"
#include "shared/macro.h"

static const struct {
	const char *name;
	enum debug_area area;
} areas[] = {
	{ "sysroot", DEBUG_SYSROOT },
};

unsigned debug_parse(const char *value)
{
	unsigned mask = 0;

	for (const char *p = value; p && *p;) {
		size_t len = strcspn(p, ",");
		for (size_t i = 0; i < ARRAY_SIZE(areas); i++)
			if (len == strlen(areas[i].name) && memcmp(p, areas[i].name, len) == 0)
				mask |= areas[i].area;
		p += len;
		if (*p == ',')
			p++;
	}
	return mask;
}

bool debug_enabled(enum debug_area area)
{
	return debug_parse(getenv("DMAMASK_DEBUG")) & area;
}
