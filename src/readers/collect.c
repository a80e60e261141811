/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The order the readers run in. */
#include "readers/observed.h"
#include "readers/readers.h"
#include "readers/udev.h"

int read_machine(struct sysroot *sr, struct machine *m, unsigned page_size_option)
{
	/* devices after the machine-wide state; names, modules, udev and disks need devices;
	 * disks reveal the devices without an of_node, then get their udev names;
	 * the DMA signs need the disks and the log */
	int (*const readers[])(struct sysroot *, struct machine *) = {
		read_iomem,	   read_zoneinfo, read_meminfo,	 read_cmdline, read_kmsg,
		read_swiotlb,	   read_cpus, read_coco, read_hypervisor, read_iommu, read_pci,
		read_platform,	   read_virtio, read_pci_names, read_modules, read_udev, read_block,
		read_disk_parents, read_iort, read_srat, read_udev_blocks, read_dma_signs, read_observed,
	};
	int r = read_identity(sr, m, page_size_option);

	for (size_t i = 0; r >= 0 && i < sizeof(readers) / sizeof(readers[0]); i++)
		r = readers[i](sr, m);
	return r;
}
