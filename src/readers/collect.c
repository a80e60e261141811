/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The order the readers run in. */
#include "readers/observed.h"
#include "readers/readers.h"
#include "readers/udev.h"
#include "shared/debug.h"
#include "shared/errno-util.h"
#include "shared/macro.h"

int read_machine(struct sysroot *sr, struct machine *m, unsigned page_size_option)
{
	/* devices after the machine-wide state; names, modules, udev and disks need devices;
	 * disks reveal the devices without an of_node, then get their udev names;
	 * the DMA signs need the disks and the log */
	static const struct {
		const char *name;
		int (*read)(struct sysroot *, struct machine *);
	} readers[] = {
		{ "iomem", read_iomem },
		{ "zoneinfo", read_zoneinfo },
		{ "meminfo", read_meminfo },
		{ "cmdline", read_cmdline },
		{ "kmsg", read_kmsg },
		{ "swiotlb", read_swiotlb },
		{ "cpus", read_cpus },
		{ "coco", read_coco },
		{ "hypervisor", read_hypervisor },
		{ "iommu", read_iommu },
		{ "pci", read_pci },
		{ "platform", read_platform },
		{ "virtio", read_virtio },
		{ "pci-names", read_pci_names },
		{ "modules", read_modules },
		{ "udev", read_udev },
		{ "block", read_block },
		{ "disk-parents", read_disk_parents },
		{ "iort", read_iort },
		{ "srat", read_srat },
		{ "udev-blocks", read_udev_blocks },
		{ "dma-signs", read_dma_signs },
		{ "observed", read_observed },
	};
	int r = read_identity(sr, m, page_size_option);

	debug_log(DEBUG_READERS, "identity: %s (release %s)", r < 0 ? errno_name(r) : "0",
		  m->release.value ? m->release.value : "unknown");
	for (size_t i = 0; r >= 0 && i < ARRAY_SIZE(readers); i++) {
		size_t inputs = m->n_inputs, devices = m->n_devices;
		r = readers[i].read(sr, m);
		/* what it recorded as missing or refused, and the devices it added */
		debug_log(DEBUG_READERS, "%s: %s (inputs: %zu, devices added: %zu)", readers[i].name,
			  r < 0 ? errno_name(r) : "0", m->n_inputs - inputs, m->n_devices - devices);
	}
	return r;
}
