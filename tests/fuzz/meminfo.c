/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* proc/meminfo: kB values become bytes without wrapping. */
#include <errno.h>

#include "fuzz.h"
#include "readers/readers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size);
	struct meminfo mi = { 0 };
	struct parse_error e = { 0 };
	int r = meminfo_parse(buf, size, &mi, &e);

	fuzz_assert_parse_result(r);
	fuzz_assert(r == 0 || e.what);
	/* a byte count is a whole number of KiB */
	fuzz_assert(r < 0 || !mi.mem_total.known || mi.mem_total.v % 1024 == 0);
	free(buf);
	return 0;
}
