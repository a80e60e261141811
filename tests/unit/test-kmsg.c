/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/readers/kmsg.c: kmsg_parse on dev/kmsg records, read_kmsg on a fake root. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shortcuts.h"
#include "analysis/coco.h"
#include "readers/readers.h"
#include "fake-root.h"

/* An x86_64 guest's boot, as `cat /dev/kmsg` shows it (trimmed). */

/* What the analysis makes of the signs read. */
static struct coco_verdict decide(const struct machine *m)
{
	struct coco_verdict v;

	coco_decide(&m->coco, &v);
	return v;
}

static const char boot[] =
	"6,0,0,-;Linux version 6.8.0-45-generic (buildd@lcy02-amd64-075) #45-Ubuntu SMP\n"
	"6,1,0,-;Command line: BOOT_IMAGE=/vmlinuz root=/dev/vda1 ro\n"
	"6,112,0,-;DMA      [mem 0x0000000000001000-0x0000000000ffffff]\n"
	"4,300,412003,-;PCI-DMA: Using software bounce buffering for IO (SWIOTLB)\n"
	"6,301,412010,-;software IO TLB: mapped [mem 0x00000000bbfe8000-0x00000000bffe8000] (64MB)\n"
	"6,302,420011,-,caller=T1;clocksource: tsc: mask: 0xffffffffffffffff\n"
	"6,540,1520000,-;virtio_blk virtio1: [vda] 41943040 512-byte logical blocks\n"
	" SUBSYSTEM=virtio\n"
	" DEVICE=+virtio:virtio1\n";

struct fixture {
	struct machine m;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	machine_init(&f->m);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	machine_done(&f->m);
	free(f);
	return 0;
}

static int parse(struct machine *m, const char *s)
{
	return kmsg_parse(s, strlen(s), m);
}

/* A log whose first record is sequence 0 holds the whole boot; a rotated one does not. */
static void test_from_boot(void **state)
{
	struct machine *m = &((struct fixture *)*state)->m;

	assert_int_equal(parse(m, "6,5,100,-;Linux version 6.1.0\n6,6,200,-;x\n"), 0);
	assert_false(m->kmsg_from_boot);
	assert_int_equal(parse(m, "6,10,100,-;x\n6,0,0,-;y\n"), 0);
	assert_true(m->kmsg_from_boot);
}

static void test_from_boot_not_fooled(void **state)
{
	struct machine *m = &((struct fixture *)*state)->m;

	/* "00", "0x" and a message text of ",0," are not sequence 0 */
	assert_int_equal(parse(m, "6,00,1,-;a\n6,0x1,1,-;b\n6,7,1,-;,0,\n"), 0);
	assert_false(m->kmsg_from_boot);
}

static void test_swiotlb_pool(void **state)
{
	struct machine *m = &((struct fixture *)*state)->m;

	assert_int_equal(parse(m, boot), 0);
	assert_true(m->swiotlb.pool_start.known);
	assert_int_equal(m->swiotlb.pool_start.v, 0xbbfe8000);
	assert_int_equal(m->swiotlb.pool_end.v, 0xbffe8000); /* exclusive, 64 MiB */
	assert_false(m->swiotlb.log_no_low_mem);
	assert_int_equal(m->swiotlb.full_messages, 0);
	assert_int_equal(m->n_overflows, 0);
	assert_int_equal(decide(m).kind, COCO_NONE);
	assert_null(decide(m).evidence);
}

static void test_swiotlb_old_forms(void **state)
{
	struct machine *m = &((struct fixture *)*state)->m;

	/* 3.9+: io_tlb_end printed as is: exclusive */
	assert_int_equal(parse(m, "6,1,2,-;software IO TLB [mem 0xbbfe8000-0xbffe8000] (64MB) "
				  "mapped at [ffff8800bbfe8000-ffff8800bffe7fff]\n"),
			 0);
	assert_int_equal(m->swiotlb.pool_start.v, 0xbbfe8000);
	assert_int_equal(m->swiotlb.pool_end.v, 0xbffe8000);
	/* 3.x with a virtual io_tlb_start printed pend - 1: inclusive */
	assert_int_equal(parse(m, "6,1,2,-;software IO TLB [mem 0x7bfe8000-0x7ffe7fff] (64MB) "
				  "mapped at [ffff88007bfe8000-ffff88007ffe7fff]\n"),
			 0);
	assert_int_equal(m->swiotlb.pool_start.v, 0x7bfe8000);
	assert_int_equal(m->swiotlb.pool_end.v, 0x7ffe8000);
	/* 4.x: "%#010llx" */
	assert_int_equal(parse(m, "6,1,2,-;software IO TLB: mapped [mem 0x3bfe8000-0x3ffe8000] (64MB)\n"),
			 0);
	assert_int_equal(m->swiotlb.pool_start.v, 0x3bfe8000);
	assert_int_equal(m->swiotlb.pool_end.v, 0x3ffe8000);
}

static void test_swiotlb_messages(void **state)
{
	struct machine *m = &((struct fixture *)*state)->m;

	assert_int_equal(parse(m, "4,10,100,-;software IO TLB: No low mem\n"
				  "3,11,200,-;nvme 0000:01:00.0: swiotlb buffer is full (sz: 65536 bytes), "
				  "total 32768 (slots), used 32700 (slots)\n"
				  " SUBSYSTEM=pci\n"
				  " DEVICE=+pci:0000:01:00.0\n"
				  "3,12,300,-;nvme 0000:01:00.0: swiotlb buffer is full (sz: 4096 bytes)\n"
				  "4,13,400,-;ahci 0000:00:1f.2: swiotlb addr 0x00000000bbfe8000+512 overflow "
				  "(mask ffffffff, bus limit 0).\n"),
			 0);
	assert_true(m->swiotlb.log_no_low_mem);
	assert_int_equal(m->swiotlb.full_messages, 2);
	/* each line kept: its device (DEVICE= first, else the words before), size and counts */
	assert_int_equal(m->n_swiotlb_full, 2);
	assert_string_equal(m->swiotlb_full[0].device, "0000:01:00.0");
	assert_int_equal(m->swiotlb_full[0].size.v, 65536);
	assert_int_equal(m->swiotlb_full[0].total.v, 32768);
	assert_int_equal(m->swiotlb_full[0].used.v, 32700);
	assert_string_equal(m->swiotlb_full[1].device, "0000:01:00.0");
	assert_int_equal(m->swiotlb_full[1].size.v, 4096);
	assert_false(m->swiotlb_full[1].total.known); /* the short form has no counts */
	assert_false(m->swiotlb_full[1].used.known);
	assert_int_equal(m->swiotlb.pool_overflow_messages, 1);
	assert_int_equal(m->n_overflows, 0); /* a pool overflow is not a "DMA addr" one */
	assert_int_equal(m->n_pool_overflows, 1);
	assert_string_equal(m->pool_overflows[0].device, "0000:00:1f.2");
	assert_int_equal(m->pool_overflows[0].addr, 0xbbfe8000);
	assert_int_equal(m->pool_overflows[0].size, 512);
	assert_int_equal(m->pool_overflows[0].mask, 0xffffffff);
	assert_int_equal(m->pool_overflows[0].bus_limit, 0);
}

/* kernel/dma/swiotlb.c swiotlb_map: "swiotlb addr %pad+%zu overflow (mask %llx, bus limit %llx)." */
static void test_pool_overflow(void **state)
{
	struct machine *m = &((struct fixture *)*state)->m;
	static const char log[] =
		/* dev_WARN_ONCE: "DRIVER DEVNAME: ", no dictionary */
		"4,900,9000000,-;b43-pci-bridge 0000:03:00.0: swiotlb addr 0x00000000bbfe8000+1536 "
		"overflow (mask 3fffffff, bus limit 0).\n"
		/* a dictionary names the device over the text */
		"4,901,9000001,-;b43 0000:09:09.9: swiotlb addr 0x00000000f8000000+4096 overflow "
		"(mask 3fffffff, bus limit 3fffffff).\n"
		" SUBSYSTEM=platform\n"
		" DEVICE=+platform:fe340000.mmc\n"
		/* malformed: counted, attributed to nobody, the record skipped */
		"4,902,9000002,-;swiotlb addr 0x1000+12 overflow (mask ff, bus limit 0).\n"
		"4,903,9000003,-;b43 0000:04:00.0: swiotlb addr 0xzz+12 overflow (mask ff, bus limit 0).\n"
		"4,904,9000004,-;b43 0000:05:00.0: swiotlb addr 0x1000+12 overflow (mask ff\n"
		"4,905,9000005,-;b43 0000:06:00.0: swiotlb addr 0x1000+ overflow (mask ff, bus limit 0).\n"
		/* not this line: no " overflow" after it */
		"6,906,9000006,-;foo: swiotlb addr is fine\n";

	assert_int_equal(parse(m, log), 0);
	assert_int_equal(m->swiotlb.pool_overflow_messages, 6);
	assert_int_equal(m->n_pool_overflows, 2);
	assert_int_equal(m->n_overflows, 0);
	assert_string_equal(m->pool_overflows[0].device, "0000:03:00.0");
	assert_int_equal(m->pool_overflows[0].addr, 0xbbfe8000);
	assert_int_equal(m->pool_overflows[0].size, 1536);
	assert_int_equal(m->pool_overflows[0].mask, 0x3fffffff);
	assert_int_equal(m->pool_overflows[0].bus_limit, 0);
	assert_string_equal(m->pool_overflows[1].device, "fe340000.mmc");
	assert_int_equal(m->pool_overflows[1].addr, 0xf8000000);
	assert_int_equal(m->pool_overflows[1].bus_limit, 0x3fffffff);

	/* read_kmsg says how many records it could not use */
	char *root = tmp_root_new();
	struct sysroot *sr;
	tmp_root_write_str(root, "dev/kmsg", log);
	machine_done(m);
	machine_init(m);
	assert_int_equal(sysroot_open(root, 0, &sr), 0);
	assert_int_equal(read_kmsg(sr, m), 0);
	assert_int_equal(m->n_pool_overflows, 2);
	assert_string_equal(m->inputs[0].detail, "4 malformed records skipped");
	sysroot_free(sr);
	tmp_root_free(root);
}

/* A NUL inside the name before ": swiotlb addr" (escaped or raw): no name, not a cut one (fuzz). */
static void test_pool_overflow_nul_in_name(void **state)
{
	struct machine *m = &((struct fixture *)*state)->m;
	static const char rec[] = "4,1,1,-;b43 00\\x00:05.0: swiotlb addr 0x1000+1 overflow (mask ff, bus limit 0).\n"
				  "4,2,2,-;b43 0000\0:05.0: DMA addr 0x1000+1 overflow (mask ff, bus limit 0).\n";

	assert_int_equal(kmsg_parse(rec, sizeof(rec) - 1, m), 0);
	assert_int_equal(m->swiotlb.pool_overflow_messages, 1);
	assert_int_equal(m->n_pool_overflows, 0);
	assert_int_equal(m->n_overflows, 0);
}

/* A DEVICE= value with a raw NUL: the name ends there (ASan caught an over-read past it). */
static void test_device_with_nul(void **state)
{
	struct machine *m = &((struct fixture *)*state)->m;
	static const char rec[] = "3,7,100,-;ahci 0000:00:1f.2: DMA addr 0x0000000100000000+4096 overflow "
				  "(mask ffffffff, bus limit 0).\n"
				  " DEVICE=+pci\0:0000:00:09.9\n";

	/* "+pci" names no device: the message's own "ahci 0000:00:1f.2:" does */
	assert_int_equal(kmsg_parse(rec, sizeof(rec) - 1, m), 0);
	assert_int_equal(m->n_overflows, 1);
	assert_string_equal(m->overflows[0].device, "0000:00:1f.2");
}

static void test_sev(void **state)
{
	struct machine *m = &((struct fixture *)*state)->m;

	assert_int_equal(parse(m, "6,200,0,-;Memory Encryption Features active: AMD SEV SEV-ES SEV-SNP\n"
				  "6,201,0,-;SEV: Status: SEV SEV-ES SEV-SNP\n"),
			 0);
	assert_int_equal(decide(m).kind, COCO_SEV_GUEST);
	assert_int_not_equal(decide(m).kind, COCO_SME_HOST);
	assert_int_not_equal(decide(m).kind, COCO_TDX_GUEST);
	assert_string_equal(decide(m).evidence,
			    "Memory Encryption Features active: AMD SEV SEV-ES SEV-SNP");
}

static void test_sev_older_lines(void **state)
{
	struct machine *m = &((struct fixture *)*state)->m;

	assert_int_equal(parse(m, "6,200,0,-;AMD Memory Encryption Features active: SEV\n"), 0);
	assert_int_equal(decide(m).kind, COCO_SEV_GUEST);
	assert_int_not_equal(decide(m).kind, COCO_SME_HOST);
	assert_string_equal(decide(m).evidence, "AMD Memory Encryption Features active: SEV");

	machine_done(m);
	machine_init(m);
	assert_int_equal(parse(m, "6,200,0,-;AMD Secure Encrypted Virtualization (SEV) active\n"), 0);
	assert_int_equal(decide(m).kind, COCO_SEV_GUEST);
	assert_int_not_equal(decide(m).kind, COCO_SME_HOST);
}

static void test_tdx(void **state)
{
	struct machine *m = &((struct fixture *)*state)->m;

	assert_int_equal(parse(m, "6,2,0,-;tdx: Guest detected\n"
				  "6,300,395218,-;Memory Encryption Features active: Intel TDX\n"),
			 0);
	assert_int_equal(decide(m).kind, COCO_TDX_GUEST);
	assert_int_not_equal(decide(m).kind, COCO_SEV_GUEST);
	/* the first line that decided */
	assert_string_equal(decide(m).evidence, "tdx: Guest detected");
}

static void test_sme_host(void **state)
{
	struct machine *m = &((struct fixture *)*state)->m;

	assert_int_equal(parse(m, "6,300,0,-;Memory Encryption Features active: AMD SME\n"), 0);
	assert_int_equal(decide(m).kind, COCO_SME_HOST);
	assert_int_not_equal(decide(m).kind, COCO_SEV_GUEST);
	assert_int_not_equal(decide(m).kind, COCO_TDX_GUEST);

	machine_done(m);
	machine_init(m);
	assert_int_equal(parse(m, "6,300,0,-;AMD Secure Memory Encryption (SME) active\n"), 0);
	assert_int_equal(decide(m).kind, COCO_SME_HOST);
	assert_int_not_equal(decide(m).kind, COCO_SEV_GUEST);
}

/* pr_cont() pieces that came out as records of their own */
static void test_coco_split(void **state)
{
	struct machine *m = &((struct fixture *)*state)->m;

	assert_int_equal(parse(m, "6,300,0,-;Memory Encryption Features active: \n"
				  "6,301,0,c;AMD\n"
				  "6,302,0,+; SEV\n"
				  "6,303,0,+; SEV-ES\n"
				  "6,304,5,-;random: crng init done\n"),
			 0);
	assert_int_equal(decide(m).kind, COCO_SEV_GUEST);
	assert_int_not_equal(decide(m).kind, COCO_SME_HOST);
	assert_string_equal(decide(m).evidence, "Memory Encryption Features active: AMD SEV SEV-ES");
}

static void test_hyperv_isolation(void **state)
{
	struct machine *m = &((struct fixture *)*state)->m;

	assert_int_equal(parse(m, "6,0,0,-;Hyper-V: Isolation Config: Group A 0x1, Group B 0xba2\n"), 0);
	assert_int_equal(m->coco.log_hyperv_isolation, 2);
	assert_int_equal(decide(m).kind, COCO_HYPERV_ISOLATED);
	assert_string_equal(decide(m).evidence, "Hyper-V: Isolation Config: Group A 0x1, Group B 0xba2");

	/* type 0 (none), or a line cut short: no isolation */
	static const char *const none[] = {
		"6,0,0,-;Hyper-V: Isolation Config: Group A 0x0, Group B 0x0\n",
		"6,0,0,-;Hyper-V: Isolation Config: Group A 0x1, Group B\n",
		"6,0,0,-;Hyper-V: Isolation Config: Group A 0x1\n",
		"6,0,0,-;Hyper-V: Isolation Config: Group A 0x1, Group B 0xzz\n",
	};
	for (size_t i = 0; i < sizeof(none) / sizeof(*none); i++) {
		machine_done(m);
		machine_init(m);
		assert_int_equal(parse(m, none[i]), 0);
		assert_int_equal(m->coco.log_hyperv_isolation, 0);
		assert_int_equal(decide(m).kind, COCO_NONE);
	}
}

static void test_rme(void **state)
{
	struct machine *m = &((struct fixture *)*state)->m;

	assert_int_equal(parse(m, "6,0,0,-;RME: Using RSI version 1.0\n"), 0);
	assert_int_equal(decide(m).kind, COCO_CCA_REALM);
	assert_string_equal(decide(m).evidence, "RME: Using RSI version 1.0");
}

/*
 * 32-bit ARM's setup_processor() line: SCTLR as "cr=%08lx". Debian 6.1's
 * armmp-lpae prints cr=30c5387d. Other "CPU: " lines (cacheid_init, x86) and a
 * malformed value say nothing; the boot CPU's line, the first, is kept.
 */
static void test_arm_cpu_cr(void **state)
{
	struct machine *m = &((struct fixture *)*state)->m;
	char *kept = NULL;
	size_t kept_len = 0;

	assert_int_equal(parse(m, "6,0,0,-;CPU: PIPT / VIPT nonaliasing data cache, PIPT instruction cache\n"
				  "6,1,0,-;CPU: Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz (family: 0x6)\n"
				  "6,2,0,-;CPU: ARMv7 Processor [413fc0f1] revision 1 (ARMv7), cr=30c5387\n"
				  "6,3,0,-;xCPU: ARMv7 Processor [413fc0f1] revision 1 (ARMv7), cr=10c5387d\n"),
			 0);
	assert_false(m->arm_cr.known);
	assert_int_equal(parse(m, "6,4,0,-;CPU: ARMv7 Processor [413fc0f1] revision 1 (ARMv7), cr=30c5387d\n"
				  "6,5,0,-;CPU: ARMv7 Processor [413fc0f1] revision 1 (ARMv7), cr=10c5387d\n"),
			 0);
	assert_true(m->arm_cr.known);
	assert_int_equal(m->arm_cr.v, 0x30c5387d);

	/* a capture keeps it: a replay decides LPAE as the live run did */
	static const char log[] = "6,9,0,-;Linux version 5.10.0-32-custom\n"
				  "6,10,0,-;CPU: ARMv7 Processor [410fc075] revision 5 (ARMv7), cr=10c5387d\n"
				  "6,11,0,-;CPU: div instructions available: patching division code\n";
	struct machine m2;
	machine_init(&m2);
	assert_int_equal(kmsg_parse_kept(log, sizeof(log) - 1, &m2, &kept, &kept_len), 0);
	assert_true(m2.arm_cr.known);
	assert_int_equal(m2.arm_cr.v, 0x10c5387d);
	assert_non_null(strstr(kept, "cr=10c5387d"));
	assert_null(strstr(kept, "div instructions"));
	free(kept);
	machine_done(&m2);
}

/* Which IOMMU driver came up: Intel's line only after init_dmars(), AMD's in both forms. */
static void test_iommu_lines(void **state)
{
	struct machine *m = &((struct fixture *)*state)->m;

	/* "DMAR: IOMMU enabled" only echoes intel_iommu=on: not proof */
	assert_int_equal(parse(m, "6,0,0,-;DMAR: IOMMU enabled\n6,1,0,-;DMAR: Host address width 39\n"), 0);
	assert_false(m->log_intel_iommu || m->log_amd_iommu);
	assert_int_equal(parse(m, "6,2,0,-;DMAR: Intel(R) Virtualization Technology for Directed I/O\n"), 0);
	assert_true(m->log_intel_iommu);
	assert_false(m->log_amd_iommu);
	assert_int_equal(parse(m, "6,3,0,-;pci 0000:00:00.2: AMD-Vi: Found IOMMU cap 0x40\n"), 0);
	assert_true(m->log_amd_iommu);
	m->log_amd_iommu = false;
	assert_int_equal(parse(m, "6,4,0,-;AMD-Vi: Found IOMMU at 0000:00:00.2 cap 0x40\n"), 0);
	assert_true(m->log_amd_iommu);
}

static void test_overflow(void **state)
{
	struct machine *m = &((struct fixture *)*state)->m;

	assert_int_equal(
		parse(m,
		      /* dev_WARN_ONCE: no dictionary, the name comes from the text */
		      "4,900,9000000,-;nvme 0000:01:00.0: DMA addr 0x00000001ffff0000+4096 overflow "
		      "(mask ffffffff, bus limit 0).\n"
		      /* a dev_err_once with DEVICE=: preferred */
		      "3,901,9000001,-;i915 card0: DMA addr 0x0000000123456000+8192 overflow "
		      "(mask ffffffffff, bus limit 7fffffff).\n"
		      " SUBSYSTEM=pci\n"
		      " DEVICE=+pci:0000:00:02.0\n"
		      /* 5.5-5.6: "overflow ... of DMA mask ... bus limit ..." */
		      "3,902,9000002,-;sdhci-iproc fe340000.mmc: overflow 0x00000000c4000000+512 of DMA "
		      "mask 3fffffff bus limit 3fffffff\n"
		      /* before 5.5: "bus mask" */
		      "3,903,9000003,-;ahci 0000:00:1f.2: overflow 0x0000000100000000+512 of DMA mask "
		      "ffffffff bus mask 0\n"),
		0);
	assert_int_equal(m->n_overflows, 4);
	assert_string_equal(m->overflows[0].device, "0000:01:00.0");
	assert_int_equal(m->overflows[0].addr, 0x1ffff0000);
	assert_int_equal(m->overflows[0].size, 4096);
	assert_int_equal(m->overflows[0].mask, 0xffffffff);
	assert_int_equal(m->overflows[0].bus_limit, 0);
	assert_string_equal(m->overflows[1].device, "0000:00:02.0");
	assert_int_equal(m->overflows[1].addr, 0x123456000);
	assert_int_equal(m->overflows[1].size, 8192);
	assert_int_equal(m->overflows[1].mask, 0xffffffffff);
	assert_int_equal(m->overflows[1].bus_limit, 0x7fffffff);
	assert_string_equal(m->overflows[2].device, "fe340000.mmc");
	assert_int_equal(m->overflows[2].addr, 0xc4000000);
	assert_int_equal(m->overflows[2].mask, 0x3fffffff);
	assert_int_equal(m->overflows[2].bus_limit, 0x3fffffff);
	assert_string_equal(m->overflows[3].device, "0000:00:1f.2");
	assert_int_equal(m->overflows[3].addr, 0x100000000);
}

/* sdhci, dw_mmc, stmmac and mtu3 probe lines: which mask the hardware let the driver set. */
static void test_mask_lines(void **state)
{
	struct machine *m = &((struct fixture *)*state)->m;

	assert_int_equal(
		parse(m,
		      "6,1,1,-;mmc0: SDHCI controller on fe340000.mmc [fe340000.mmc] using ADMA\n"
		      "6,2,2,-;mmc1: SDHCI controller on fe330000.mmc [fe330000.mmc] using ADMA 64-bit\n"
		      "6,3,3,-;mmc2: SDHCI controller on PCI [0000:00:05.0] using DMA\n"
		      "6,4,4,-;mmc3: SDHCI controller on 3f300000.mmc [3f300000.mmc] using PIO\n"
		      "6,5,5,-;dwmmc_rockchip fe320000.mmc: IDMAC supports 32-bit address mode.\n"
		      "6,6,6,-;dwmmc_k3 ff37f000.dwmmc1: IDMAC supports 64-bit address mode.\n"
		      "6,7,7,-;imx-dwmac 30bf0000.ethernet: Using 34/40 bits DMA host/device width\n"
		      /* before host_dma_width (6.3): one number; the DEVICE= name is preferred */
		      "6,8,8,-;rk_gmac-dwmac fe300000.ethernet: Using 40 bits DMA width\n"
		      " SUBSYSTEM=platform\n"
		      " DEVICE=+platform:fe300000.eth\n"
		      /* malformed: skipped, attributed to nobody */
		      "6,9,9,-;mmc4: SDHCI controller on x using ADMA\n"
		      "6,10,10,-;mmc5: SDHCI controller on a [] using ADMA\n"
		      "6,11,11,-;mmc6: SDHCI controller on a [b] using ADMA 128-bit\n"
		      "6,12,12,-;dwmmc_rockchip fe310000.mmc: IDMAC supports 48-bit address mode.\n"
		      "6,13,13,-;: IDMAC supports 64-bit address mode.\n"
		      "6,14,14,-;imx-dwmac 1.ethernet: Using 0/40 bits DMA host/device width\n"
		      "6,15,15,-;imx-dwmac 2.ethernet: Using 65 bits DMA width\n"
		      "6,16,16,-;imx-dwmac 3.ethernet: Using x bits DMA width\n"
		      /* mtu3: 36 bits, or 32 (none set); only those two are ever printed */
		      "6,17,17,-;mtu3 11201000.usb: dma mask: 36 bits\n"
		      "6,18,18,-;mtu3 11211000.usb: dma mask: 32 bits\n"
		      " SUBSYSTEM=platform\n"
		      " DEVICE=+platform:11211000.usb\n"
		      "6,19,19,-;mtu3 1.usb: dma mask: 40 bits\n"
		      "6,20,20,-;mtu3 : dma mask: 36 bits\n"
		      "6,21,21,-;mtu3 2.usb: dma mask: 36\n"
		      /* another driver's "dma mask:" line is not mtu3's */
		      "6,22,22,-;foo 3.usb: dma mask: 36 bits\n"
		      /* usb-storage's refusal (6.16+): the interface, by prefix or DEVICE= */
		      "4,23,23,-;usb-storage 1-1:1.0: USB Mass Storage not supported on this host controller\n"
		      "4,24,24,-;usb-storage 2-1.3:1.0: USB Mass Storage not supported on this host controller\n"
		      " SUBSYSTEM=usb\n"
		      " DEVICE=+usb:2-1.3:1.0\n"
		      /* another driver's words, and a line with more after them: not it */
		      "4,25,25,-;uas 3-1:1.0: USB Mass Storage not supported on this host controller\n"
		      "4,26,26,-;usb-storage 4-1:1.0: USB Mass Storage not supported on this host controller yet\n"
		      "4,27,27,-;usb-storage : USB Mass Storage not supported on this host controller\n"),
		0);
	assert_int_equal(m->n_mask_lines, 12);
	static const struct {
		const char *dev;
		enum mask_line_kind kind;
		unsigned bits;
	} want[] = {
		{ "fe340000.mmc", MASK_LINE_SDHCI, 32 },	  { "fe330000.mmc", MASK_LINE_SDHCI, 64 },
		{ "0000:00:05.0", MASK_LINE_SDHCI, 32 },	  { "3f300000.mmc", MASK_LINE_SDHCI, 0 },
		{ "fe320000.mmc", MASK_LINE_DW_MMC, 32 },	  { "ff37f000.dwmmc1", MASK_LINE_DW_MMC, 64 },
		{ "30bf0000.ethernet", MASK_LINE_STMMAC, 34 }, { "fe300000.eth", MASK_LINE_STMMAC, 40 },
		{ "11201000.usb", MASK_LINE_MTU3, 36 },	  { "11211000.usb", MASK_LINE_MTU3, 32 },
		{ "1-1:1.0", MASK_LINE_USB_STORAGE, 0 },	  { "2-1.3:1.0", MASK_LINE_USB_STORAGE, 0 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		assert_string_equal(m->mask_lines[i].device, want[i].dev);
		assert_int_equal(m->mask_lines[i].kind, want[i].kind);
		assert_int_equal(m->mask_lines[i].bits, want[i].bits);
		assert_non_null(m->mask_lines[i].said);
	}
}

static void test_escapes(void **state)
{
	struct machine *m = &((struct fixture *)*state)->m;

	/* a message with an embedded newline and a backslash */
	assert_int_equal(parse(m, "4,5,1,-;first line\\x0asoftware IO TLB: No low mem\n"
				  "6,6,2,-;path C:\\x5cx0a is not a newline\n"
				  "6,7,3,-;software IO TLB: mapped [mem\\x200x1000000-0x5000000] (64MB)\n"),
			 0);
	assert_true(m->swiotlb.log_no_low_mem);
	/* "\x20" is a blank: the pool line is whole after unescaping */
	assert_true(m->swiotlb.pool_start.known);
	assert_int_equal(m->swiotlb.pool_start.v, 0x1000000);
	assert_int_equal(m->swiotlb.pool_end.v, 0x5000000);
}

static void test_garbage(void **state)
{
	struct machine *m = &((struct fixture *)*state)->m;

	/* nothing looks like a record */
	assert_int_equal(parse(m, "[    0.000000] software IO TLB: mapped [mem 0x0-0x4000000] (64MB)\n"),
			 -EBADMSG);
	assert_int_equal(kmsg_parse("\x01\x02\xff\0garbage", 11, m), -EBADMSG);
	assert_false(m->swiotlb.pool_start.known);

	/* records around garbage still count; malformed overflow lines are skipped */
	assert_int_equal(parse(m, "garbage line\n"
				  " ORPHAN=continuation\n"
				  "6,1,1,-;software IO TLB: mapped [mem 0x0-0x4000000] (64MB)\n"
				  "1,2,x,-;not a record\n"
				  "4,3,3,-;nvme 0000:01:00.0: DMA addr 0xzz+1 overflow (mask 1, bus limit 0).\n"
				  "4,4,4,-;: DMA addr 0x1000+1 overflow (mask 1, bus limit 0).\n"
				  "6,5,5,-;software IO TLB: mapped [mem 0x5000-0x1000] (0MB)\n"),
			 0);
	assert_true(m->swiotlb.pool_start.known);
	assert_int_equal(m->swiotlb.pool_end.v, 0x4000000);
	assert_int_equal(m->n_overflows, 0);
}

static void test_truncated_and_empty(void **state)
{
	struct machine *m = &((struct fixture *)*state)->m;

	assert_int_equal(kmsg_parse("", 0, m), 0);
	assert_int_equal(parse(m, "\n\n"), 0);
	/* the last record was cut short: skipped, the rest used */
	assert_int_equal(parse(m, "6,1,1,-;software IO TLB: mapped [mem 0x0-0x4000000] (64MB)\n"
				  "3,2,2,-;nvme 0000:01:00.0: swiotlb buffer is fu"),
			 0);
	assert_true(m->swiotlb.pool_start.known);
	assert_int_equal(m->swiotlb.full_messages, 0);
	/* a lone truncated record is still a record */
	assert_int_equal(parse(m, "3,2,2,-;nvme 0000:01:00.0: swiotlb buffer is fu"), 0);
	assert_int_equal(m->swiotlb.full_messages, 0);
}

/* "buffer is full" lines whose numbers or device do not parse: counted, kept, with what did parse. */
static void test_full_malformed(void **state)
{
	struct machine *m = &((struct fixture *)*state)->m;

	assert_int_equal(parse(m, "3,1,1,-;swiotlb buffer is full (sz: 4096 bytes), total 32768 (slots), used 0 (slots)\n"
				  "3,2,2,-;nvme 0000:01:00.0: swiotlb buffer is full (sz: many bytes)\n"
				  "3,3,3,-;nvme 0000:01:00.0: swiotlb buffer is full (sz: 4096 bytes), total 32768 (slots), used\n"
				  "3,4,4,-;: swiotlb buffer is full (sz: 4096 bytes), total x (slots), used 0 (slots)\n"),
			 0);
	assert_int_equal(m->swiotlb.full_messages, 4);
	assert_int_equal(m->n_swiotlb_full, 4);
	assert_null(m->swiotlb_full[0].device); /* no "DEVICE: " before it */
	assert_int_equal(m->swiotlb_full[0].used.v, 0);
	assert_true(m->swiotlb_full[0].total.known);
	assert_false(m->swiotlb_full[1].size.known);
	assert_int_equal(m->swiotlb_full[2].size.v, 4096);
	assert_false(m->swiotlb_full[2].total.known); /* cut short: neither count */
	assert_false(m->swiotlb_full[2].used.known);
	assert_null(m->swiotlb_full[3].device); /* an empty name is none */
	assert_false(m->swiotlb_full[3].total.known);
}

static void test_huge_line(void **state)
{
	struct machine *m = &((struct fixture *)*state)->m;
	size_t n = 4u << 20;
	char *buf = malloc(n + 64);
	assert_non_null(buf);

	strcpy(buf, "4,1,1,-;");
	memset(buf + 8, 'A', n);
	strcpy(buf + 8 + n, " swiotlb buffer is full\n");
	assert_int_equal(kmsg_parse(buf, strlen(buf), m), 0);
	assert_int_equal(m->swiotlb.full_messages, 1);
	free(buf);
}

static void test_read_kmsg(void **state)
{
	struct machine *m = &((struct fixture *)*state)->m;
	char *root = tmp_root_new();
	struct sysroot *sr;

	tmp_root_write_str(root, "dev/kmsg",
			   "not a record\n"
			   "6,301,412010,-;software IO TLB: mapped [mem 0x00000000bbfe8000-0x00000000bffe8000] (64MB)\n");
	assert_int_equal(sysroot_open(root, 0, &sr), 0);
	assert_int_equal(read_kmsg(sr, m), 0);
	assert_true(machine_input_ok(m, "dev/kmsg"));
	assert_true(m->swiotlb.pool_start.known);
	assert_int_equal(m->n_inputs, 1);
	assert_string_equal(m->inputs[0].path, "dev/kmsg");
	assert_int_equal(m->inputs[0].status, INPUT_OK);
	assert_string_equal(m->inputs[0].detail, "1 malformed record skipped");
	sysroot_free(sr);

	/* not in the record format at all */
	tmp_root_write_str(root, "dev/kmsg", "[    0.000000] Linux version 6.8.0\n");
	machine_done(m);
	machine_init(m);
	assert_int_equal(sysroot_open(root, 0, &sr), 0);
	assert_int_equal(read_kmsg(sr, m), 0);
	assert_false(machine_input_ok(m, "dev/kmsg"));
	assert_int_equal(m->inputs[0].status, INPUT_INVALID);
	sysroot_free(sr);
	tmp_root_free(root);

	/* absent */
	root = tmp_root_new();
	machine_done(m);
	machine_init(m);
	assert_int_equal(sysroot_open(root, 0, &sr), 0);
	assert_int_equal(read_kmsg(sr, m), 0);
	assert_false(machine_input_ok(m, "dev/kmsg"));
	assert_int_equal(m->n_inputs, 1);
	assert_int_equal(m->inputs[0].status, INPUT_MISSING);
	sysroot_free(sr);
	tmp_root_free(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_from_boot, setup, teardown),
		cmocka_unit_test_setup_teardown(test_device_with_nul, setup, teardown),
		cmocka_unit_test_setup_teardown(test_from_boot_not_fooled, setup, teardown),
		cmocka_unit_test_setup_teardown(test_swiotlb_pool, setup, teardown),
		cmocka_unit_test_setup_teardown(test_swiotlb_old_forms, setup, teardown),
		cmocka_unit_test_setup_teardown(test_swiotlb_messages, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pool_overflow, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pool_overflow_nul_in_name, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sev, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sev_older_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tdx, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sme_host, setup, teardown),
		cmocka_unit_test_setup_teardown(test_coco_split, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rme, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hyperv_isolation, setup, teardown),
		cmocka_unit_test_setup_teardown(test_overflow, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mask_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_iommu_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_arm_cpu_cr, setup, teardown),
		cmocka_unit_test_setup_teardown(test_escapes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_garbage, setup, teardown),
		cmocka_unit_test_setup_teardown(test_truncated_and_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_full_malformed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_huge_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_kmsg, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
