/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * An ACPI SRAT table: its enabled memory affinity ranges' highest end. The
 * input is passed as it is (no copy, no NUL), so a read past it trips ASan;
 * an end comes only from a table whose length lies inside the input.
 */
#include <errno.h>

#include "fuzz.h"
#include "readers/readers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t end = 0xdeadbeefu;
	int r = srat_parse(data, size, &end);

	fuzz_assert(r == 0 || r == -EBADMSG);
	if (r != 0) {
		fuzz_assert(end == 0xdeadbeefu);
		return 0;
	}
	uint32_t total = (uint32_t)data[4] | (uint32_t)data[5] << 8 | (uint32_t)data[6] << 16 |
			 (uint32_t)data[7] << 24;
	fuzz_assert(size >= 48 && memcmp(data, "SRAT", 4) == 0 && total >= 48 && total <= size);
	/* a range of non-zero length ending at end starts 40 bytes in, after the header */
	fuzz_assert(end == 0 || total >= 48 + 40);
	return 0;
}
