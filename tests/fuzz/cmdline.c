/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* proc/cmdline, then its swiotlb= and iommu= parameters as the kernel splits them. */
#include <errno.h>

#include "fuzz.h"
#include "readers/readers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size), *line = NULL;
	struct parse_error e = { 0 };
	struct cmdline_params p;
	int r = cmdline_parse(buf, size, &line, &e);

	fuzz_assert_parse_result(r);
	fuzz_assert(r == 0 || !line);
	/* the whole buffer too: a NUL ends the line the kernel sees */
	cmdline_parse_params(buf, &p);
	fuzz_assert(!p.swiotlb_slabs.known || p.swiotlb_slabs.v % 128 == 0); /* rounded as the kernel does */
	if (line) {
		fuzz_assert(strlen(line) <= size);
		cmdline_parse_params(line, &p);
		fuzz_assert(!p.swiotlb_slabs.known || p.swiotlb_slabs.v % 128 == 0);
	}
	free(line);
	free(buf);
	return 0;
}
