/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dev/kmsg records: what the log reader takes into the machine (pool,
 * confidential-computing evidence, DMA and pool overflows) is well formed.
 */
#include <errno.h>

#include "fuzz.h"
#include "readers/readers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size);
	struct machine m;
	int r;

	machine_init(&m);
	r = kmsg_parse(buf, size, &m);
	fuzz_assert_parse_result(r);
	for (size_t i = 0; i < m.n_overflows; i++) {
		const char *dev = m.overflows[i].device;
		/* a name holds no more than the record did (the NUL over-read of issue 8) */
		fuzz_assert(!dev || strlen(dev) <= size);
	}
	/* a pool overflow names its device, and every one was counted as a line */
	fuzz_assert(m.n_pool_overflows <= m.swiotlb.pool_overflow_messages);
	for (size_t i = 0; i < m.n_pool_overflows; i++) {
		const char *dev = m.pool_overflows[i].device;
		fuzz_assert(dev && *dev && strlen(dev) <= size);
	}
	fuzz_assert(!m.swiotlb.have_pool || m.swiotlb.pool_start < m.swiotlb.pool_end);
	machine_done(&m);
	free(buf);
	return 0;
}
