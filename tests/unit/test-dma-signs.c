/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * src/readers/dma-signs.c: read_dma_signs on a fake arm64 board (after
 * read_platform, read_pci and read_block, as read_machine runs them), its
 * bad inputs, and the debugfs dma-api/dump parser.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <cmocka.h>

#include "readers/readers.h"
#include "fake-root.h"

#define DT "sys/firmware/devicetree/base"
#define PLAT "sys/devices/platform"
#define BIT(s) (1u << (s))

/* A DT platform (or AMBA) device at PLAT/name with its node, bound to driver when given. */
static void fx_platform(const struct fake_root *f, const char *bus, const char *name,
			const char *node, const char *driver)
{
	char path[256], target[256];

	snprintf(path, sizeof(path), PLAT "/%s", name);
	fx_dir(f, path);
	snprintf(path, sizeof(path), "sys/bus/%s/devices/%s", bus, name);
	snprintf(target, sizeof(target), "../../../devices/platform/%s", name);
	fx_link(f, path, target);
	snprintf(path, sizeof(path), PLAT "/%s/of_node", name);
	snprintf(target, sizeof(target), "../../../firmware/devicetree/base/%s", node);
	fx_link(f, path, target);
	snprintf(path, sizeof(path), DT "/%s/compatible", node);
	fx_file_n(f, path, "x,y", 4);
	if (driver) {
		snprintf(path, sizeof(path), PLAT "/%s/driver", name);
		snprintf(target, sizeof(target), "../../../bus/%s/drivers/%s", bus, driver);
		fx_link(f, path, target);
	}
}

/* A class device at devpath, listed as sys/class/cls/name, whose device link is dev_target. */
static void fx_class(const struct fake_root *f, const char *cls, const char *name,
		     const char *devpath, const char *dev_target)
{
	char path[256], target[256];

	fx_dir(f, devpath);
	snprintf(path, sizeof(path), "sys/class/%s/%s", cls, name);
	snprintf(target, sizeof(target), "../../%s", devpath + strlen("sys/"));
	fx_link(f, path, target);
	if (dev_target) {
		snprintf(path, sizeof(path), "%s/device", devpath);
		fx_link(f, path, dev_target);
	}
}

static void build_board(struct fake_root *f)
{
	static const char cell1[] = { 0, 0, 0, 1 };
	static const char phandles[] = { 0, 0, 0, 5, 0, 0, 0, 0 };

	fx_init(f);
	/* no sign at all */
	fx_platform(f, "amba", "9000000.pl011", "pl011@9000000", "uart-pl011");
	fx_platform(f, "platform", "pmu", "pmu", "armv8-pmu");
	/* the devicetree signs, one each */
	fx_platform(f, "amba", "9060000.dma", "dma@9060000", "dma-pl330");
	fx_file_n(f, DT "/dma@9060000/#dma-cells", cell1, sizeof(cell1));
	fx_platform(f, "amba", "9040000.spi", "spi@9040000", "ssp-pl022");
	fx_file_n(f, DT "/spi@9040000/dmas", phandles, sizeof(phandles));
	fx_platform(f, "platform", "9080000.smmu", "smmu@9080000", "arm-smmu-v3");
	fx_file_n(f, DT "/smmu@9080000/dma-coherent", "", 0);
	fx_platform(f, "platform", "a0000.gpu", "gpu@a0000", "panfrost");
	fx_file_n(f, DT "/gpu@a0000/iommus", phandles, 4);
	fx_platform(f, "platform", "b0000.wifi", "wifi@b0000", "ath10k");
	fx_file_n(f, DT "/wifi@b0000/memory-region", phandles, 4);
	/* the class signs */
	fx_platform(f, "platform", "9070000.ethernet", "ethernet@9070000", "stmmaceth");
	fx_class(f, "net", "eth0", PLAT "/9070000.ethernet/net/eth0", "../../../9070000.ethernet");
	fx_class(f, "net", "lo", "sys/devices/virtual/net/lo", NULL);
	fx_platform(f, "platform", "c0000.usb", "usb@c0000", "dwc3");
	/* dwc3's xhci child has no of_node; the root hub and a USB NIC hang under it */
	fx_dir(f, PLAT "/c0000.usb/xhci-hcd.0.auto/usb1/1-1/1-1:1.0/net/usb0");
	fx_link(f, "sys/bus/usb/devices/usb1", "../../../devices/platform/c0000.usb/xhci-hcd.0.auto/usb1");
	fx_link(f, "sys/bus/usb/devices/1-1", "../../../devices/platform/c0000.usb/xhci-hcd.0.auto/usb1/1-1");
	fx_link(f, "sys/class/net/usb0",
		"../../devices/platform/c0000.usb/xhci-hcd.0.auto/usb1/1-1/1-1:1.0/net/usb0");
	fx_link(f, PLAT "/c0000.usb/xhci-hcd.0.auto/usb1/1-1/1-1:1.0/net/usb0/device", "../../../1-1:1.0");
	fx_platform(f, "platform", "d0000.i2s", "i2s@d0000", "snd-soc-dummy");
	fx_class(f, "sound", "card0", PLAT "/d0000.i2s/sound/card0", "../../../d0000.i2s");
	fx_class(f, "sound", "timer", "sys/devices/virtual/sound/timer", NULL);
	fx_platform(f, "platform", "e0000.display", "display@e0000", "sun4i-drm");
	fx_class(f, "drm", "card0", PLAT "/e0000.display/drm/card0", "../../../e0000.display");
	fx_class(f, "dma", "dma0chan0", PLAT "/9060000.dma/dma/dma0chan0", "../../../9060000.dma");
	/* an IOMMU unit under its SMMU; Intel's DMAR units are virtual: nobody */
	fx_class(f, "iommu", "smmu3.0x0000000009080000",
		 PLAT "/9080000.smmu/iommu/smmu3.0x0000000009080000", "../../../9080000.smmu");
	fx_class(f, "iommu", "dmar0", "sys/devices/virtual/iommu/dmar0", NULL);
	/* a channel of a controller the tool does not know credits nobody above it */
	fx_platform(f, "platform", "soc", "soc", "simple-pm-bus");
	fx_dir(f, PLAT "/soc/edma.0");
	fx_class(f, "dma", "dma1chan0", PLAT "/soc/edma.0/dma/dma1chan0", "../../../edma.0");
	/* a disk under an MMC host */
	fx_platform(f, "platform", "f0000.mmc", "mmc@f0000", "sdhci");
	fx_dir(f, PLAT "/f0000.mmc/mmc_host/mmc0/mmc0:0001/block/mmcblk0");
	fx_link(f, "sys/class/block/mmcblk0",
		"../../devices/platform/f0000.mmc/mmc_host/mmc0/mmc0:0001/block/mmcblk0");
	/* a device the DMA-API debug dump shows mapping */
	fx_platform(f, "platform", "9050000.mmci", "mmci@9050000", "mmci-pl18x");
	fx_file(f, "sys/kernel/debug/dma-api/dump",
		"mmci-pl18x 9050000.mmci single idx 12 P=0x40001000 D=40001000 L=200 "
		"cln=0x0000000001000040 DMA_TO_DEVICE dma map error checked attrs=0x0\n"
		"somedrv nosuch.dev coherent idx 3 P=0x40002000 D=40002000 L=1000 "
		"cln=0x0000000001000080 DMA_BIDIRECTIONAL dma map error not applicable attrs=0x0\n");
}

static void read_all(struct sysroot *sr, struct machine *m)
{
	machine_init(m);
	assert_int_equal(read_pci(sr, m), 0);
	assert_int_equal(read_platform(sr, m), 0);
	assert_int_equal(read_block(sr, m), 0);
	assert_int_equal(read_disk_parents(sr, m), 0);
	assert_int_equal(read_dma_signs(sr, m), 0);
}

static unsigned signs_of(const struct machine *m, const char *id)
{
	const struct device *d = machine_find_device(m, id);

	if (!d)
		fail_msg("no device %s", id);
	return d ? d->dma_signs : 0;
}

static void test_read_dma_signs(void **state)
{
	struct fake_root f;
	struct machine m;
	struct sysroot *sr;

	(void)state;
	build_board(&f);
	sr = fx_open(&f);
	read_all(sr, &m);

	assert_int_equal(signs_of(&m, "9000000.pl011"), 0);
	assert_int_equal(signs_of(&m, "pmu"), 0);
	assert_int_equal(signs_of(&m, "9060000.dma"), BIT(DMA_SIGN_DMA_ENGINE) | BIT(DMA_SIGN_DT_DMA_CELLS));
	/* a DMA-engine client: its buffers are mapped for the controller */
	assert_int_equal(signs_of(&m, "9040000.spi"), 0);
	assert_int_equal(signs_of(&m, "9080000.smmu"), BIT(DMA_SIGN_IOMMU_UNIT) | BIT(DMA_SIGN_DT_COHERENT));
	assert_int_equal(signs_of(&m, "a0000.gpu"), BIT(DMA_SIGN_DT_IOMMUS));
	assert_int_equal(signs_of(&m, "b0000.wifi"), BIT(DMA_SIGN_DT_MEMORY_REGION));
	assert_int_equal(signs_of(&m, "9070000.ethernet"), BIT(DMA_SIGN_NET));
	/* the USB NIC credits its host controller, as the root hub does */
	assert_int_equal(signs_of(&m, "c0000.usb"), BIT(DMA_SIGN_NET) | BIT(DMA_SIGN_USB_HOST));
	assert_int_equal(signs_of(&m, "d0000.i2s"), BIT(DMA_SIGN_SOUND));
	assert_int_equal(signs_of(&m, "e0000.display"), BIT(DMA_SIGN_DRM));
	assert_int_equal(signs_of(&m, "f0000.mmc"), BIT(DMA_SIGN_DISK));
	assert_int_equal(signs_of(&m, "9050000.mmci"), BIT(DMA_SIGN_DMA_API_DEBUG));
	assert_int_equal(signs_of(&m, "soc"), 0);

	fx_assert_input(&m, "sys/class/net", INPUT_OK);
	fx_assert_input(&m, "sys/class/sound", INPUT_OK);
	fx_assert_input(&m, "sys/class/drm", INPUT_OK);
	fx_assert_input(&m, "sys/class/dma", INPUT_OK);
	fx_assert_input(&m, "sys/class/iommu", INPUT_OK);
	fx_assert_input(&m, "sys/bus/usb/devices", INPUT_OK);
	fx_assert_input(&m, "sys/kernel/debug/dma-api/dump", INPUT_OK);
	for (size_t i = 0; i < m.n_inputs; i++)
		if (m.inputs[i].status != INPUT_OK && m.inputs[i].status != INPUT_MISSING)
			fail_msg("unexpected input %s: %s", m.inputs[i].path,
				 m.inputs[i].detail ? m.inputs[i].detail : "");
	assert_string_equal(dma_sign_to_string(DMA_SIGN_DT_DMA_CELLS), "#dma-cells");
	assert_null(dma_sign_to_string(_DMA_SIGN_MAX));

	machine_done(&m);
	sysroot_free(sr);
	fx_done(&f);
}

/* A logged "DMA addr ... overflow" is a sign too. */
static void test_log_sign(void **state)
{
	struct fake_root f;
	struct machine m;
	struct sysroot *sr;

	(void)state;
	fx_init(&f);
	fx_platform(&f, "platform", "f0000.mmc", "mmc@f0000", "sdhci");
	sr = fx_open(&f);
	machine_init(&m);
	assert_int_equal(read_platform(sr, &m), 0);
	m.overflows = calloc(2, sizeof(*m.overflows));
	assert_non_null(m.overflows);
	m.n_overflows = 2;
	m.overflows[0].device = strdup("f0000.mmc");
	m.overflows[1].device = strdup("gone.dev");
	assert_int_equal(read_dma_signs(sr, &m), 0);
	assert_int_equal(signs_of(&m, "f0000.mmc"), BIT(DMA_SIGN_KERNEL_LOG));
	fx_assert_input(&m, "sys/class/net", INPUT_MISSING);
	fx_assert_input(&m, "sys/kernel/debug/dma-api/dump", INPUT_MISSING);
	machine_done(&m);
	sysroot_free(sr);
	fx_done(&f);
}

/* usb-storage's refusal names an interface "BUS-PORT:C.I": it marks the host controller of
 * root hub usbBUS only (usb1 is not usb12's), and a line on no root hub marks nobody. */
static void test_usb_storage_refusal(void **state)
{
	static const char *const refused[] = { "12-1:1.0", "7-1.2:1.0", "usb3" };
	struct fake_root f;
	struct machine m;
	struct sysroot *sr;

	(void)state;
	fx_init(&f);
	fx_platform(&f, "platform", "a0000.usb", "usb@a0000", "ehci-platform");
	fx_platform(&f, "platform", "c0000.usb", "usb@c0000", "sm501-usb");
	fx_platform(&f, "platform", "d0000.usb", "usb@d0000", "ohci-platform");
	fx_dir(&f, PLAT "/a0000.usb/usb1");
	fx_dir(&f, PLAT "/c0000.usb/usb12");
	fx_dir(&f, PLAT "/d0000.usb/usb3");
	fx_link(&f, "sys/bus/usb/devices/usb1", "../../../devices/platform/a0000.usb/usb1");
	fx_link(&f, "sys/bus/usb/devices/usb12", "../../../devices/platform/c0000.usb/usb12");
	fx_link(&f, "sys/bus/usb/devices/usb3", "../../../devices/platform/d0000.usb/usb3");
	sr = fx_open(&f);
	machine_init(&m);
	assert_int_equal(read_platform(sr, &m), 0);
	m.mask_lines = calloc(ARRAY_SIZE(refused), sizeof(*m.mask_lines));
	assert_non_null(m.mask_lines);
	for (size_t i = 0; i < ARRAY_SIZE(refused); i++) {
		m.mask_lines[i] = (struct mask_line){ strdup(refused[i]), MASK_LINE_USB_STORAGE, 0, "" };
		assert_non_null(m.mask_lines[i].device);
	}
	m.n_mask_lines = ARRAY_SIZE(refused);
	assert_int_equal(read_dma_signs(sr, &m), 0);
	assert_false(machine_find_device(&m, "a0000.usb")->usb_storage_refused);
	assert_true(machine_find_device(&m, "c0000.usb")->usb_storage_refused);
	assert_false(machine_find_device(&m, "d0000.usb")->usb_storage_refused);
	assert_int_equal(signs_of(&m, "c0000.usb"), BIT(DMA_SIGN_USB_HOST));
	machine_done(&m);
	sysroot_free(sr);
	fx_done(&f);
}

/* sys/class/iommu's unit names say whose driver made them (dmarN Intel, ivhdN AMD):
 * read as anyone, where the log may be closed; other names say nothing. */
static void test_iommu_unit_names(void **state)
{
	static const struct {
		const char *names[3];
		bool intel, amd;
	} cases[] = {
		{ { "dmar0", "dmar1" }, true, false },
		{ { "ivhd0" }, false, true },
		{ { "dmar0", "ivhd0" }, true, true },   /* both: the analysis calls it unknown */
		{ { "smmu3.0x9050000", "dmarx", "ivhd" }, false, false },
		{ { "dmar0x", "xdmar0" }, false, false },
	};
	(void)state;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct fake_root f;
		struct machine m;
		char path[128];

		fx_init(&f);
		for (size_t j = 0; j < 3 && cases[i].names[j]; j++) {
			/* Intel's units are virtual devices (no parent): drivers/iommu/intel/dmar.c */
			snprintf(path, sizeof(path), "sys/devices/virtual/iommu/%s", cases[i].names[j]);
			fx_dir(&f, path);
			snprintf(path, sizeof(path), "sys/class/iommu/%s", cases[i].names[j]);
			char target[160];
			snprintf(target, sizeof(target), "../../devices/virtual/iommu/%s", cases[i].names[j]);
			fx_link(&f, path, target);
		}
		struct sysroot *sr = fx_open(&f);
		machine_init(&m);
		assert_int_equal(read_dma_signs(sr, &m), 0);
		if (m.class_intel_iommu != cases[i].intel || m.class_amd_iommu != cases[i].amd)
			fail_msg("case %zu: intel %d amd %d", i, m.class_intel_iommu, m.class_amd_iommu);
		machine_done(&m);
		sysroot_free(sr);
		fx_done(&f);
	}
}

/* Spoilt inputs: recorded or ignored, never a crash, never a sign they do not show. */
static void test_bad_inputs(void **state)
{
	static const char three[] = { 0, 0, 1 };
	struct fake_root f;
	struct machine m;
	struct sysroot *sr;
	char full[PATH_MAX];

	(void)state;
	for (unsigned flags = 0; flags <= SYSROOT_NO_OPENAT2; flags += SYSROOT_NO_OPENAT2) {
		fx_init(&f);
		fx_platform(&f, "platform", "9070000.ethernet", "ethernet@9070000", "stmmaceth");
		fx_platform(&f, "platform", "9071000.ethernet", "ethernet@9071000", "stmmaceth");
		fx_platform(&f, "platform", "9072000.ethernet", "ethernet@9072000", "stmmaceth");
		/* device link out of the root, absolute and by ../ */
		fx_class(&f, "net", "eth0", PLAT "/9070000.ethernet/net/eth0", "/etc");
		fx_class(&f, "net", "eth1", PLAT "/9071000.ethernet/net/eth1",
			 "../../../../../../../../../../../../tmp");
		/* device link to nothing, under a known device */
		fx_class(&f, "net", "eth2", PLAT "/9072000.ethernet/net/eth2", "../../gone");
		/* a class/dma entry that is a regular file, not a link */
		fx_platform(&f, "amba", "9060000.dma", "dma@9060000", "dma-pl330");
		fx_file(&f, "sys/class/dma/dma0chan0", "not a link\n");
		/* a device link that is a directory */
		fx_dir(&f, "sys/class/drm/card0/device");
		/* devicetree properties: a FIFO, and cells of the wrong length */
		fx_platform(&f, "platform", "9080000.smmu", "smmu@9080000", "arm-smmu-v3");
		snprintf(full, sizeof(full), "%s/" DT "/smmu@9080000/dma-coherent", f.root);
		assert_int_equal(mkfifo(full, 0644), 0);
		fx_file_n(&f, DT "/smmu@9080000/iommus", three, sizeof(three));
		/* a dump that is not one */
		fx_file(&f, "sys/kernel/debug/dma-api/dump", "garbage\n");

		assert_int_equal(sysroot_open(f.root, flags, &sr), 0);
		read_all(sr, &m);
		assert_int_equal(signs_of(&m, "9070000.ethernet"), 0);
		assert_int_equal(signs_of(&m, "9071000.ethernet"), 0);
		assert_int_equal(signs_of(&m, "9072000.ethernet"), 0);
		assert_int_equal(signs_of(&m, "9060000.dma"), 0);
		assert_int_equal(signs_of(&m, "9080000.smmu"), 0);
		fx_assert_input(&m, PLAT "/9070000.ethernet/net/eth0/device", INPUT_INVALID);
		fx_assert_input(&m, PLAT "/9071000.ethernet/net/eth1/device", INPUT_INVALID);
		fx_assert_input(&m, PLAT "/9072000.ethernet/net/eth2/device", INPUT_INVALID);
		fx_assert_str(fx_detail(&m, PLAT "/9072000.ethernet/net/eth2/device"),
			      "device link points to nothing");
		fx_assert_input(&m, "sys/class/dma/dma0chan0", INPUT_INVALID);
		fx_assert_input(&m, "sys/class/drm/card0/device", INPUT_INVALID);
		fx_assert_input(&m, DT "/smmu@9080000/dma-coherent", INPUT_INVALID);
		fx_assert_input(&m, DT "/smmu@9080000/iommus", INPUT_INVALID);
		fx_assert_input(&m, "sys/kernel/debug/dma-api/dump", INPUT_INVALID);
		fx_assert_str(fx_detail(&m, "sys/kernel/debug/dma-api/dump"),
			      "line 1: not \"DRIVER DEVICE TYPE idx N ...\"");
		machine_done(&m);
		sysroot_free(sr);
		fx_done(&f);
	}
}

static void assert_names(const char *dump, const char *const *want, size_t n_want)
{
	struct parse_error e = { 0 };
	struct strv names = { 0 };

	assert_int_equal(dma_api_dump_parse(dump, strlen(dump), &names, &e), 0);
	assert_int_equal(names.n, n_want);
	for (size_t i = 0; i < names.n; i++)
		assert_string_equal(names.v[i], want[i]);
	strv_done(&names);
}

static void assert_bad_dump(const char *dump, size_t len, unsigned line)
{
	struct parse_error e = { 0 };
	struct strv names = { 0 };

	assert_int_equal(dma_api_dump_parse(dump, len, &names, &e), -EBADMSG);
	assert_int_equal(e.line, line);
	assert_non_null(e.what);
}

static void test_dump_parse(void **state)
{
	(void)state;
	/* 5.1-6.3: N= after P= */
	static const char *const old_names[] = { "0000:00:03.0", "9050000.mmci" };
	assert_names("mmci-pl18x 9050000.mmci scather-gather idx 217 P=11a2b3000 N=11a2b3 "
		     "D=11a2b3000 L=1000 cln=0x0000000000468ac0 DMA_FROM_DEVICE dma map error checked\n"
		     "xhci_hcd 0000:00:03.0 coherent idx 9 P=4a040000 N=4a040 D=4a040000 L=1000 "
		     "cln=0x0000000001281000 DMA_BIDIRECTIONAL dma map error not applicable\n"
		     "mmci-pl18x 9050000.mmci single idx 3 P=11a2b4000 N=11a2b4 D=11a2b4000 L=200 "
		     "cln=0x0000000000468ad0 DMA_TO_DEVICE dma map error checked\n",
		     old_names, 2);
	/* 6.4+: %pa addresses, attrs=; an empty driver string; a blank line; no final newline */
	static const char *const new_names[] = { "a.dev", "b.dev" };
	assert_names("drv a.dev single idx 1 P=0x0000000040000000 D=40000000 L=1000 "
		     "cln=0x0000000001000000 DMA_TO_DEVICE dma map error checked attrs=0x0\n"
		     "\n"
		     " b.dev page idx 2 P=0x0000000040001000 D=40001000 L=1000 "
		     "cln=0x0000000001000040 DMA_FROM_DEVICE dma map error checked attrs=0x0",
		     new_names, 2);
	assert_names("", NULL, 0);
	static const char second_bad[] = "drv a.dev single idx 1 P=0\nnot a mapping\n";
	assert_bad_dump(second_bad, strlen(second_bad), 2);
	assert_bad_dump("drv a.dev single\n", strlen("drv a.dev single\n"), 1);
	assert_bad_dump("drv a.dev\0single idx 1\n", 23, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_dma_signs),
		cmocka_unit_test(test_log_sign),
		cmocka_unit_test(test_usb_storage_refusal),
		cmocka_unit_test(test_iommu_unit_names),
		cmocka_unit_test(test_bad_inputs),
		cmocka_unit_test(test_dump_parse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
