/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* An ACPI IORT table: every node kept lies inside the table, names end inside their node. */
#include <errno.h>

#include "fuzz.h"
#include "readers/readers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct iort_node *v = NULL;
	struct parse_error e = { 0 };
	size_t n = 0;
	int r = iort_parse(data, size, &v, &n, &e);

	fuzz_assert_parse_result(r);
	fuzz_assert(r == 0 || (v == NULL && e.what));
	/* a kept node takes at least 16 bytes after the 48-byte header */
	fuzz_assert(r != 0 || n == 0 || size >= 48 + 16 * n);
	for (size_t i = 0; i < n; i++) {
		fuzz_assert(v[i].type == IORT_NODE_NAMED_COMPONENT || v[i].type == IORT_NODE_ROOT_COMPLEX);
		fuzz_assert((v[i].type == IORT_NODE_NAMED_COMPONENT) == (v[i].name != NULL));
		fuzz_assert(!v[i].name || strlen(v[i].name) < size);
	}
	iort_nodes_free(v, n);
	return 0;
}
