/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* proc/iomem: the System RAM ranges come out sorted, each with start <= end. */
#include <errno.h>

#include "fuzz.h"
#include "readers/readers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size);
	struct ram_range *ram = NULL;
	struct parse_error e = { 0 };
	size_t n = 0;
	bool hidden = false;
	struct opt_u64 reserved_end = { 0 };
	int r = iomem_parse(buf, size, &ram, &n, &hidden, &reserved_end, &e);

	fuzz_assert_parse_result(r);
	fuzz_assert(r == 0 || (e.what && !ram));
	fuzz_assert(r != 0 || !hidden || !reserved_end.known); /* zeros place nothing */
	for (size_t i = 0; r == 0 && i < n; i++) {
		fuzz_assert(ram[i].start <= ram[i].end);
		fuzz_assert(i == 0 || ram[i - 1].start <= ram[i].start);
	}
	free(ram);
	free(buf);
	return 0;
}
