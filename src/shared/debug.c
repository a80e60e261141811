/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* DMAMASK_DEBUG parsing and its trace lines; see debug.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared/debug.h"
#include "shared/macro.h"

static const struct {
	const char *name;
	enum debug_area area;
} areas[] = {
	{ "sysroot", DEBUG_SYSROOT },
	{ "readers", DEBUG_READERS },
	{ "eras", DEBUG_ERAS },
	{ "verdicts", DEBUG_VERDICTS },
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
	/* read once: era lookups ask for every device */
	static int mask = -1;

	if (mask < 0)
		mask = (int)debug_parse(getenv("DMAMASK_DEBUG"));
	return (unsigned)mask & area;
}

void debug_log(enum debug_area area, const char *fmt, ...)
{
	va_list ap;

	if (!debug_enabled(area))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(areas); i++)
		if (areas[i].area == area)
			fprintf(stderr, "%s: %s: ", PACKAGE, areas[i].name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
