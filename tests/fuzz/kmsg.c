/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dev/kmsg records: what the log reader takes into the machine (pool,
 * confidential-computing evidence, DMA and pool overflows) is well formed,
 * and the records a capture keeps of the log say all of it again.
 */
#include <errno.h>

#include "fuzz.h"
#include "readers/readers.h"

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static bool same_overflows(const struct dma_overflow *a, size_t na, const struct dma_overflow *b,
			   size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (!same_str(a[i].device, b[i].device) || a[i].addr != b[i].addr ||
		    a[i].size != b[i].size || a[i].mask != b[i].mask || a[i].bus_limit != b[i].bus_limit)
			return false;
	return true;
}

/* Parsing what a capture kept gives what parsing the whole log gave. */
static void check_kept(const struct machine *m, const char *kept, size_t len)
{
	struct machine k;

	machine_init(&k);
	fuzz_assert(kmsg_parse(kept, len, &k) == 0);
	fuzz_assert(same_overflows(m->overflows, m->n_overflows, k.overflows, k.n_overflows));
	fuzz_assert(same_overflows(m->pool_overflows, m->n_pool_overflows, k.pool_overflows,
				   k.n_pool_overflows));
	const struct swiotlb_info *a = &m->swiotlb, *b = &k.swiotlb;
	fuzz_assert(a->pool_start.known == b->pool_start.known && a->pool_start.v == b->pool_start.v &&
		    a->pool_end.v == b->pool_end.v && a->log_no_low_mem == b->log_no_low_mem &&
		    a->full_messages == b->full_messages &&
		    a->pool_overflow_messages == b->pool_overflow_messages);
	fuzz_assert(m->coco.log_sev == k.coco.log_sev && m->coco.log_sme == k.coco.log_sme &&
		    m->coco.log_tdx == k.coco.log_tdx && m->coco.log_cca == k.coco.log_cca &&
		    m->coco.log_hyperv_isolation == k.coco.log_hyperv_isolation &&
		    same_str(m->coco.log_line, k.coco.log_line));
	fuzz_assert(m->log_intel_iommu == k.log_intel_iommu && m->log_amd_iommu == k.log_amd_iommu &&
		    m->kmsg_from_boot == k.kmsg_from_boot);
	machine_done(&k);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size);
	struct machine m;
	int r;

	machine_init(&m);
	char *kept = NULL;
	size_t kept_len = 0;
	r = kmsg_parse_kept(buf, size, &m, &kept, &kept_len);
	fuzz_assert_parse_result(r);
	if (r == 0) {
		fuzz_assert(kept_len <= size);
		check_kept(&m, kept, kept_len);
	}
	free(kept);
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
	fuzz_assert(!m.swiotlb.pool_start.known || m.swiotlb.pool_start.v < m.swiotlb.pool_end.v);
	machine_done(&m);
	free(buf);
	return 0;
}
