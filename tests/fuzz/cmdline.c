/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* proc/cmdline, then its swiotlb= and iommu= parameters as the kernel splits them. */
#include <errno.h>

#include "fuzz.h"
#include "readers/readers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size), *line = NULL;
	struct parse_error e = { 0 };
	struct swiotlb_info sw = { 0 };
	int r = cmdline_parse(buf, size, &line, &e);

	fuzz_assert_parse_result(r);
	fuzz_assert(r == 0 || !line);
	/* the whole buffer too: a NUL ends the line the kernel sees */
	fuzz_assert(cmdline_parse_swiotlb(buf, &sw) == 0);
	if (line) {
		fuzz_assert(strlen(line) <= size);
		memset(&sw, 0, sizeof(sw));
		fuzz_assert(cmdline_parse_swiotlb(line, &sw) == 0);
	}
	free(line);
	free(buf);
	return 0;
}
