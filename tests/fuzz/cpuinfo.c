/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* proc/cpuinfo flags (a flag is found only as a whole word of a "flags" line) and address sizes. */
#include <errno.h>

#include "fuzz.h"
#include "readers/readers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size);
	bool tdx = cpuinfo_has_flag(buf, size, "tdx_guest");

	/* a word cannot be found in fewer bytes than it has */
	fuzz_assert(!tdx || size >= strlen("flags:tdx_guest"));
	(void)cpuinfo_has_flag(buf, size, "");
	int bits = cpuinfo_phys_bits(buf, size);
	fuzz_assert(bits == -ENOENT || bits == -EBADMSG || (bits >= 1 && bits <= 64));
	free(buf);
	return 0;
}
