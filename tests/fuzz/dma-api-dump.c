/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* debugfs dma-api/dump: the device names come out sorted, each once. */
#include <errno.h>

#include "fuzz.h"
#include "readers/readers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size);
	struct parse_error e = { 0 };
	struct strv names = { 0 };
	int r = dma_api_dump_parse(buf, size, &names, &e);

	fuzz_assert_parse_result(r);
	fuzz_assert(r == 0 || names.n == 0);
	for (size_t i = 0; r == 0 && i < names.n; i++)
		fuzz_assert(i == 0 || strcmp(names.v[i - 1], names.v[i]) < 0);
	strv_done(&names);
	free(buf);
	return 0;
}
