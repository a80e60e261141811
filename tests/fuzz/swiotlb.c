/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The debugfs swiotlb counters: one "%llu\n" value per file. Then the pool
 * the analysis derives from four of them, which must not wrap (issue 8).
 */
#include <errno.h>

#include "analysis/swiotlb-state.h"
#include "fuzz.h"
#include "readers/readers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size);
	struct machine m;
	struct opt_u64 *const fields[] = { &m.swiotlb.nslabs, &m.swiotlb.used, &m.swiotlb.hiwater,
					   &m.swiotlb.transient };
	uint64_t v;
	int r = swiotlb_parse_counter(buf, size, &v);

	fuzz_assert(r == 0 || r == -EBADMSG);
	machine_init(&m);
	/* the input split at ';' as the four counters, in the order read_swiotlb reads them */
	const char *p = buf, *end = buf + size;
	for (size_t i = 0; i < 4 && p <= end; i++) {
		const char *semi = memchr(p, ';', (size_t)(end - p));
		const char *stop = semi ? semi : end;
		fields[i]->known = swiotlb_parse_counter(p, (size_t)(stop - p), &fields[i]->v) == 0;
		p = stop + 1;
	}
	struct layout l = { 0 };
	struct swiotlb_state st;
	swiotlb_state_compute(&m, &l, 0, &st);
	/* slots to bytes saturates: 2^53 slots is not a 0-byte pool */
	fuzz_assert(!m.swiotlb.nslabs.known || (st.size_bytes.known && st.size_bytes.v >= m.swiotlb.nslabs.v));
	fuzz_assert(!m.swiotlb.used.known || (st.used_bytes.known && st.used_bytes.v >= m.swiotlb.used.v));
	machine_done(&m);
	free(buf);
	return 0;
}
