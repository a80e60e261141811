/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* proc/zoneinfo: every zone's name is a terminated string that fits its array. */
#include <errno.h>

#include "fuzz.h"
#include "readers/readers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size);
	struct zone *zones = NULL;
	struct parse_error e = { 0 };
	size_t n = 0;
	int r = zoneinfo_parse(buf, size, &zones, &n, &e);

	fuzz_assert_parse_result(r);
	fuzz_assert(r == 0 || e.what);
	for (size_t i = 0; r == 0 && i < n; i++)
		fuzz_assert(memchr(zones[i].name, '\0', sizeof(zones[i].name)));
	free(zones);
	free(buf);
	return 0;
}
