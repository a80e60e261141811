/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* debugfs dma-api/dump: the device names come out sorted, each once. */
#include <errno.h>

#include "fuzz.h"
#include "readers/readers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size);
	struct parse_error e = { 0 };
	char **names = NULL;
	size_t n = 0;
	int r = dma_api_dump_parse(buf, size, &names, &n, &e);

	fuzz_assert_parse_result(r);
	for (size_t i = 0; r == 0 && i < n; i++)
		fuzz_assert(i == 0 || strcmp(names[i - 1], names[i]) < 0);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(buf);
	return 0;
}
