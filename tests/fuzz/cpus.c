/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sys/devices/system/cpu/possible: a range list ("0-3,5\n"). A count is only
 * ever of a list of digits, '-' and ',' the kernel could print, and never
 * more CPUs than ids; the input is passed without a NUL, so a read past it trips ASan.
 */
#include <errno.h>

#include "fuzz.h"
#include "readers/readers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	unsigned n = 0xdeadbeefu, commas = 0;
	int r = cpu_list_count(s, size, &n);

	fuzz_assert(r == 0 || r == -EINVAL || r == -ERANGE);
	if (r != 0) {
		fuzz_assert(n == 0xdeadbeefu);
		return 0;
	}
	size_t len = size;
	while (len && s[len - 1] == '\n')
		len--;
	fuzz_assert(len > 0 && s[0] >= '0' && s[0] <= '9' && s[len - 1] >= '0' && s[len - 1] <= '9');
	for (size_t i = 0; i < len; i++) {
		fuzz_assert((s[i] >= '0' && s[i] <= '9') || s[i] == '-' || s[i] == ',');
		commas += s[i] == ',';
	}
	/* each comma starts a disjoint range of at least one CPU; ids stop at 65535 */
	fuzz_assert(n >= commas + 1 && n <= 65536);
	return 0;
}
