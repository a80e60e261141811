/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A snapshot's MANIFEST: key=value entries, and whether they say the capture finished. */
#include <errno.h>

#include "fuzz.h"
#include "readers/readers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size);
	struct manifest_entry *v = NULL;
	struct parse_error e = { 0 };
	size_t n = 0;
	int r = manifest_parse(buf, size, &v, &n, &e);

	fuzz_assert_parse_result(r);
	if (r == 0) {
		const char *why = NULL;
		for (size_t i = 0; i < n; i++)
			fuzz_assert(v[i].key && v[i].value && *v[i].key);
		if (!manifest_complete(v, n, &why))
			fuzz_assert(why && *why);
	}
	for (size_t i = 0; i < n; i++) {
		free(v[i].key);
		free(v[i].value);
	}
	free(v);
	free(buf);
	return 0;
}
