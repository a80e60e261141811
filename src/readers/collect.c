/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The order the readers run in, and what they share. */
#include <stdio.h>

#include "readers/readers.h"

int parse_fail(struct parse_error *e, unsigned line, const char *what)
{
	e->line = line;
	e->what = what;
	return -EBADMSG;
}

int record_parse_error(struct machine *m, const char *path, const struct parse_error *e)
{
	char detail[128];

	if (e->line)
		snprintf(detail, sizeof(detail), "line %u: %s", e->line, e->what);
	else
		snprintf(detail, sizeof(detail), "%s", e->what ? e->what : "malformed");
	return machine_add_input(m, path, INPUT_INVALID, EBADMSG, detail);
}

int read_input(struct sysroot *sr, struct machine *m, const char *path, size_t max,
	       char **ret_buf, size_t *ret_len)
{
	int r = sysroot_read_file(sr, path, max, ret_buf, ret_len);

	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return machine_add_input_errno(m, path, r) < 0 ? -ENOMEM : 0;
	return 1;
}

int record_parse_result(struct machine *m, const char *path, int r, const struct parse_error *e)
{
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return record_parse_error(m, path, e);
	return machine_add_input(m, path, INPUT_OK, 0, NULL);
}

int read_machine(struct sysroot *sr, struct machine *m, unsigned page_size_option)
{
	/* devices after the machine-wide state; names, modules, udev and disks need devices;
	 * the DMA signs need the disks and the log */
	int (*const readers[])(struct sysroot *, struct machine *) = {
		read_iomem,	   read_zoneinfo, read_meminfo,	 read_cmdline, read_kmsg,
		read_swiotlb,	   read_confidential, read_hypervisor, read_iommu, read_pci,
		read_platform,	   read_virtio, read_pci_names, read_modules, read_udev, read_block,
		read_dma_signs,
	};
	int r = read_identity(sr, m, page_size_option);

	for (size_t i = 0; r >= 0 && i < sizeof(readers) / sizeof(readers[0]); i++)
		r = readers[i](sr, m);
	return r;
}
