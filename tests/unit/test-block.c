/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/readers/block.c: read_block on fake sysfs trees, after read_pci and read_platform. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "readers/readers.h"
#include "fake-root.h"

#define VIRTIO "sys/devices/pci0000:00/0000:00:02.0"
#define VDA VIRTIO "/virtio1/block/vda"
#define NVME_PORT "sys/devices/pci0000:00/0000:00:1d.0"
#define NVME NVME_PORT "/0000:3d:00.0"
#define NVME0N1 NVME "/nvme/nvme0/nvme0n1"
#define EMMC "sys/devices/platform/emmc2bus/fe340000.mmc"
#define MMCBLK0 EMMC "/mmc_host/mmc0/mmc0:0001/block/mmcblk0"

static void pci_function(const struct fake_root *f, const char *syspath)
{
	char path[512], target[512];

	snprintf(path, sizeof(path), "%s/class", syspath);
	fx_file(f, path, "0x010000\n");
	snprintf(path, sizeof(path), "sys/bus/pci/devices/%s", strrchr(syspath, '/') + 1);
	snprintf(target, sizeof(target), "../../../%s", syspath + strlen("sys/"));
	fx_link(f, path, target);
}

static void queue(const struct fake_root *f, const char *disk_dir, const char *max_sectors,
		  const char *max_segments)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/queue/max_sectors_kb", disk_dir);
	fx_file(f, path, max_sectors);
	snprintf(path, sizeof(path), "%s/queue/max_hw_sectors_kb", disk_dir);
	fx_file(f, path, "2147483647\n");
	snprintf(path, sizeof(path), "%s/queue/max_segments", disk_dir);
	fx_file(f, path, max_segments);
	snprintf(path, sizeof(path), "%s/queue/max_segment_size", disk_dir);
	fx_file(f, path, "4294967295\n");
	snprintf(path, sizeof(path), "%s/queue/logical_block_size", disk_dir);
	fx_file(f, path, "512\n");
	snprintf(path, sizeof(path), "%s/queue/dma_alignment", disk_dir);
	fx_file(f, path, "511\n");
}

static void build(struct fake_root *f)
{
	fx_init(f);
	pci_function(f, VIRTIO);
	pci_function(f, NVME_PORT);
	pci_function(f, NVME);
	fx_dir(f, EMMC);
	fx_link(f, "sys/bus/platform/devices/fe340000.mmc",
		"../../../devices/platform/emmc2bus/fe340000.mmc");
	fx_link(f, EMMC "/of_node", "../../../../firmware/devicetree/base/emmc2bus/mmc@7e340000");
	fx_dir(f, "sys/firmware/devicetree/base/emmc2bus/mmc@7e340000");

	/* virtio disk with a partition */
	queue(f, VDA, "1280\n", "254\n");
	fx_link(f, "sys/class/block/vda",
		"../../devices/pci0000:00/0000:00:02.0/virtio1/block/vda");
	fx_file(f, VDA "/vda1/partition", "1\n");
	fx_link(f, "sys/class/block/vda1",
		"../../devices/pci0000:00/0000:00:02.0/virtio1/block/vda/vda1");

	/* NVMe behind a root port: the nearest device is the controller, not the port */
	queue(f, NVME0N1, "128\n", "33\n");
	fx_link(f, "sys/class/block/nvme0n1",
		"../../devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0/nvme0n1");

	/* eMMC on a platform device */
	queue(f, MMCBLK0, "1024\n", "128\n");
	fx_link(f, "sys/class/block/mmcblk0",
		"../../devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc0/mmc0:0001/block/"
		"mmcblk0");

	/* virtual disks: no DMA device; loop0 with a malformed limit */
	queue(f, "sys/devices/virtual/block/loop0", "128\n", "abc\n");
	fx_link(f, "sys/class/block/loop0", "../../devices/virtual/block/loop0");
	queue(f, "sys/devices/virtual/block/zram0", "128\n", "1\n");
	fx_link(f, "sys/class/block/zram0", "../../devices/virtual/block/zram0");

	/* a sibling whose name starts like a device's: not that device */
	fx_dir(f, "sys/devices/pci0000:00/0000:00:02.0x/block/sdz");
	fx_link(f, "sys/class/block/sdz", "../../devices/pci0000:00/0000:00:02.0x/block/sdz");
}

static void assert_block(const struct machine *m, size_t i, const char *disk, const char *dev,
			 int64_t max_sectors, int64_t max_segments)
{
	const struct block_queue *b = &m->blocks[i];

	assert_string_equal(b->disk, disk);
	fx_assert_str(b->dma_device, dev);
	if (dev) {
		assert_true(b->dev_index.known && b->dev_index.v < m->n_devices);
		assert_string_equal(m->devices[b->dev_index.v].id, dev);
	} else {
		assert_false(b->dev_index.known);
	}
	assert_true(max_sectors < 0 ? !b->max_sectors_kb.known : opt_is(&b->max_sectors_kb, max_sectors));
	assert_true(max_segments < 0 ? !b->max_segments.known : opt_is(&b->max_segments, max_segments));
}

static void test_read_block(void **state)
{
	struct fake_root f;
	struct machine m;
	struct sysroot *sr;

	build(&f);
	sr = fx_open(&f);
	machine_init(&m);
	assert_int_equal(read_pci(sr, &m), 0);
	assert_int_equal(read_platform(sr, &m), 0);
	assert_int_equal(m.n_devices, 4);
	assert_int_equal(read_block(sr, &m), 0);
	fx_assert_input(&m, "sys/class/block", INPUT_OK);
	fx_assert_input(&m, "sys/class/block/loop0/queue/max_segments", INPUT_INVALID);

	/* sorted by disk name, partitions left out */
	assert_int_equal(m.n_blocks, 6);
	assert_block(&m, 0, "loop0", NULL, 128, -1);
	assert_block(&m, 1, "mmcblk0", "fe340000.mmc", 1024, 128);
	assert_block(&m, 2, "nvme0n1", "0000:3d:00.0", 128, 33);
	assert_block(&m, 3, "sdz", NULL, -1, -1);
	assert_block(&m, 4, "vda", "0000:00:02.0", 1280, 254);
	assert_block(&m, 5, "zram0", NULL, 128, 1);

	const struct block_queue *b = &m.blocks[4];
	assert_true(opt_is(&b->max_hw_sectors_kb, 2147483647));
	assert_true(opt_is(&b->max_segment_size, 4294967295));
	assert_true(opt_is(&b->logical_block_size, 512));
	assert_true(opt_is(&b->dma_alignment, 511));
	assert_null(udev_or_none(b->udev)->id_path);
	b = &m.blocks[3]; /* no queue directory: every limit unknown, nothing recorded */
	assert_false(b->max_hw_sectors_kb.known);
	assert_false(b->dma_alignment.known);
	assert_null(fx_input(&m, "sys/class/block/sdz/queue/max_sectors_kb"));

	machine_done(&m);
	sysroot_free(sr);
	fx_done(&f);
}

static void test_read_block_missing(void **state)
{
	struct fake_root f;
	struct machine m;
	struct sysroot *sr;

	fx_init(&f);
	sr = fx_open(&f);
	machine_init(&m);
	assert_int_equal(read_block(sr, &m), 0);
	assert_int_equal(m.n_blocks, 0);
	fx_assert_input(&m, "sys/class/block", INPUT_MISSING);
	assert_int_equal(m.n_inputs, 1);
	machine_done(&m);
	sysroot_free(sr);
	fx_done(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_block),
		cmocka_unit_test(test_read_block_missing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
