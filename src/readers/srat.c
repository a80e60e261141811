/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ACPI SRAT (sys/firmware/acpi/tables/SRAT, root only), x86-64: its enabled
 * memory affinity ranges, hot-pluggable ones included, raise max_possible_pfn
 * (drivers/acpi/numa/srat.c acpi_numa_memory_affinity_init:
 * "max_possible_pfn = max(max_possible_pfn, PFN_UP(end - 1))"), on which
 * pci_swiotlb_detect() decides the pool (arch/x86/kernel/pci-dma.c).
 */
#include <errno.h>
#include <string.h>

#include "readers/readers.h"
#include "shared/macro.h"

#define SRAT_PATH "sys/firmware/acpi/tables/SRAT"
#define SRAT_MAX (1u << 20)
#define SRAT_FIRST_ENTRY 48      /* the header (36) and struct acpi_table_srat's 12 reserved bytes */
#define SRAT_MEM_AFFINITY 1      /* ACPI_SRAT_TYPE_MEMORY_AFFINITY */
#define SRAT_MEM_AFFINITY_LEN 40 /* sizeof(struct acpi_srat_mem_affinity) */
#define SRAT_MEM_ENABLED 1u      /* ACPI_SRAT_MEM_ENABLED */

static uint64_t le64_at(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

int srat_parse(const void *data, size_t len, uint64_t *ret_end)
{
	const unsigned char *b = data;
	uint64_t end = 0;

	if (len < SRAT_FIRST_ENTRY || memcmp(b, "SRAT", 4) != 0)
		return -EBADMSG;
	uint32_t total = (uint32_t)(b[4] | b[5] << 8 | b[6] << 16 | (uint32_t)b[7] << 24);
	if (total < SRAT_FIRST_ENTRY || total > len)
		return -EBADMSG;
	for (size_t o = SRAT_FIRST_ENTRY; o < total;) {
		if (total - o < 2 || b[o + 1] < 2 || b[o + 1] > total - o)
			return -EBADMSG;
		size_t n = b[o + 1];
		if (b[o] == SRAT_MEM_AFFINITY) {
			/* the kernel calls a short one a bad SRAT and drops NUMA: not modelled */
			if (n < SRAT_MEM_AFFINITY_LEN)
				return -EBADMSG;
			uint64_t base = le64_at(b + o + 8), length = le64_at(b + o + 16);
			uint32_t flags = (uint32_t)(b[o + 28] | b[o + 29] << 8 | b[o + 30] << 16 |
						    (uint32_t)b[o + 31] << 24);
			if ((flags & SRAT_MEM_ENABLED) && length && base + length > base &&
			    base + length > end)
				end = base + length;
		}
		o += n;
	}
	*ret_end = end;
	return 0;
}

int read_srat(struct sysroot *sr, struct machine *m)
{
	_cleanup_free_ char *buf = NULL;
	uint64_t end;
	size_t len;
	int r;

	/* x86-64 only: the pool rule it feeds is x86's */
	if (!m->arch_info || m->arch_info->family != ARCH_X86 || m->arch_info->bits != 64)
		return 0;
	r = sysroot_read_file(sr, SRAT_PATH, SRAT_MAX, &buf, &len);
	if (r == -ENOMEM)
		return r;
	if (r == -ENOENT)
		return 0; /* no NUMA table; but absence is not proof, since not every capture looked */
	if (r < 0)
		return machine_add_input_errno(m, SRAT_PATH, r);
	r = srat_parse(buf, len, &end);
	if (r < 0)
		return machine_add_input(m, SRAT_PATH, INPUT_INVALID, -r, "not an ACPI SRAT");
	opt_set(&m->srat_mem_end, end);
	return machine_add_input(m, SRAT_PATH, INPUT_OK, 0, NULL);
}
