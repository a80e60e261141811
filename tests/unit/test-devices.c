/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * src/analysis/devices.c through report_build on hand-made machines: which
 * devices are judged (platform/AMBA only with a sign of DMA, PCI with a
 * driver), and that a device doing no DMA raises no finding.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shortcuts.h"
#include "analysis/report.h"

/* A machine of arch and release whose proc/iomem shows these RAM ranges. */
static void new_machine(struct machine *m, const char *arch, const char *release,
			const struct ram_range *ram, size_t n)
{
	machine_init(m);
	m->page_size = 4096;
	m->arch.value = strdup(arch);
	m->arch_info = arch_lookup(m->arch.value);
	m->release.value = strdup(release);
	m->ram = malloc(n * sizeof(*ram));
	assert_non_null(m->arch.value);
	assert_non_null(m->release.value);
	assert_non_null(m->ram);
	memcpy(m->ram, ram, n * sizeof(*ram));
	m->n_ram = n;
	m->iomem_ok = true;
}

/* QEMU virt with 8 GiB: RAM 0x40000000-0x23fffffff, a Debian 6.1 arm64 kernel. */
static void setup_virt(struct machine *m)
{
	static const struct ram_range ram = { 0x40000000, 0x23fffffff };

	new_machine(m, "aarch64", "6.1.0-27-arm64", &ram, 1);
	/* "software IO TLB: mapped [mem 0x7bfff000-0x7ffff000]" */
	opt_set(&m->swiotlb.pool_start, 0x7bfff000);
	opt_set(&m->swiotlb.pool_end, 0x7ffff000);
}

static struct device *add(struct machine *m, const char *id, enum dev_bus bus, const char *driver,
			  unsigned signs)
{
	struct device *d = machine_add_device(m);

	assert_non_null(d);
	d->id = strdup(id);
	d->bus = bus;
	d->driver = driver ? strdup(driver) : NULL;
	d->dma_signs = signs;
	assert_non_null(d->id);
	return d;
}

/* A PCI function behind a DT host bridge whose dma-ranges reach CPU 0x0-0x7fffffff. */
static struct device *add_pci(struct machine *m, const char *id, const char *driver, int mask_bits)
{
	struct device *d = add(m, id, DEV_BUS_PCI, driver, 0);
	struct dt_info *dt = device_dt_new(d);

	assert_non_null(dt);

	opt_set(&d->dma_mask_bits, mask_bits);
	opt_set(&d->coherent_mask_bits, mask_bits);
	d->have_pci_ids = true;
	d->class_code = 0x020000;
	dt->node = strdup("pcie@10000000");
	dt->chain = calloc(2, sizeof(*dt->chain));
	assert_non_null(dt->node);
	assert_non_null(dt->chain);
	dt->n_chain = 2;
	dt->chain[0].path = strdup("pcie@10000000");
	dt->chain[0].dma_ranges = DT_PROP_PRESENT;
	dt->chain[0].ranges = calloc(1, sizeof(*dt->chain[0].ranges));
	assert_non_null(dt->chain[0].path);
	assert_non_null(dt->chain[0].ranges);
	dt->chain[0].ranges[0] = (struct dt_range){ .child = 0, .parent = 0, .size = 0x80000000 };
	dt->chain[0].n_ranges = 1;
	dt->chain[0].address_cells = 3;
	dt->chain[0].size_cells = 2;
	dt->chain[0].is_pci = true;
	dt->chain[1].path = strdup("");
	assert_non_null(dt->chain[1].path);
	dt->chain[1].address_cells = 2;
	dt->chain[1].size_cells = 2;
	return d;
}

static const struct device_report *report_of(const struct report *r, const char *id)
{
	for (size_t i = 0; i < r->devices.n_devices; i++)
		if (strcmp(r->devices.devices[i].dev->id, id) == 0)
			return &r->devices.devices[i];
	fail_msg("no report for %s", id);
	return NULL;
}

/* Findings of id (NULL: any) about device (NULL: any device). */
static size_t count_findings(const struct report *r, const char *id, const char *device)
{
	size_t n = 0;

	for (size_t i = 0; i < r->findings.n; i++) {
		const struct finding *x = &r->findings.v[i];
		if ((!id || strcmp(finding_id_to_string(x->id), id) == 0) && x->device &&
		    (!device || strcmp(x->device, device) == 0))
			n++;
	}
	return n;
}

static void test_platform_needs_a_sign(void **state)
{
	struct machine m;
	struct report r;

	(void)state;
	setup_virt(&m);
	add(&m, "9000000.pl011", DEV_BUS_AMBA, "uart-pl011", 0);
	add(&m, "pmu", DEV_BUS_PLATFORM, "armv8-pmu", 0);
	add(&m, "psci", DEV_BUS_PLATFORM, NULL, 0);
	add(&m, "9050000.mmci", DEV_BUS_AMBA, "mmci-pl18x", 1u << DMA_SIGN_DISK);
	add(&m, "9080000.smmuv3", DEV_BUS_PLATFORM, "arm-smmu-v3", 1u << DMA_SIGN_DT_COHERENT);
	add(&m, "9060000.dma", DEV_BUS_AMBA, "dma-pl330", 1u << DMA_SIGN_DMA_ENGINE);
	/* a user-given mask that is not 2^n-1 would raise mask-not-contiguous: not when idle */
	add(&m, "9030000.pl061", DEV_BUS_AMBA, "pl061_gpio", 0);
	machine_sort_devices(&m);
	static const struct assumed_mask gpio_mask = { "9030000.pl061", 0xc3ffffff };
	const struct report_options o = { .fail_on = SEVERITY_WARNING, .masks = &gpio_mask, .n_masks = 1 };
	assert_int_equal(report_build_with(&m, &o, &r), 0);

	static const char *const idle[] = { "9000000.pl011", "pmu", "9030000.pl061" };
	for (size_t i = 0; i < sizeof(idle) / sizeof(*idle); i++) {
		const struct device_report *d = report_of(&r, idle[i]);
		assert_int_equal(d->verdict, VERDICT_IDLE);
		assert_string_equal(d->reason, "no sign that it does DMA");
		assert_int_equal(count_findings(&r, NULL, idle[i]), 0);
		/* idle: nothing bounces or fails, but the mask still has a reach */
		assert_false(d->unreachable_ram_bytes.known);
		assert_true(d->direct.known);
	}
	/* unbound: the driver rule comes first, its reason stays */
	assert_int_equal(report_of(&r, "psci")->verdict, VERDICT_IDLE);
	assert_string_equal(report_of(&r, "psci")->reason, "no driver bound: no DMA");

	static const char *const judged[] = { "9050000.mmci", "9080000.smmuv3", "9060000.dma" };
	for (size_t i = 0; i < sizeof(judged) / sizeof(*judged); i++) {
		const struct device_report *d = report_of(&r, judged[i]);
		assert_int_equal(d->verdict, VERDICT_PARTIAL); /* assumed 32-bit mask, 5 GiB above */
		assert_true(d->unreachable_ram_bytes.known);
		assert_int_equal(d->unreachable_ram_bytes.v, 0x240000000ull - 0x100000000ull);
		assert_int_equal(d->direct.unreachable_bytes, 0x240000000ull - 0x100000000ull);
		assert_int_equal(count_findings(&r, "bounce-needed", judged[i]), 1);
	}
	assert_int_equal(r.exit_status, EXIT_FINDINGS);
	report_done(&r);
	machine_done(&m);

	/* the same board with only the devices that do no DMA: clean */
	setup_virt(&m);
	add(&m, "9000000.pl011", DEV_BUS_AMBA, "uart-pl011", 0);
	add(&m, "9010000.pl031", DEV_BUS_AMBA, "rtc-pl031", 0);
	add(&m, "pmu", DEV_BUS_PLATFORM, "armv8-pmu", 0);
	machine_sort_devices(&m);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	assert_int_equal(r.findings.n, 0);
	assert_int_equal(r.exit_status, EXIT_CLEAN);
	report_done(&r);
	machine_done(&m);
}

/* An IOMMU unit (sys/class/iommu) is judged on what it maps: nothing for
 * streaming; its mask is its driver's (arm-smmu-v3: IDR5.OAS), not the bus
 * default. The same node without the class entry keeps the default. */
static void test_iommu_unit(void **state)
{
	struct machine m;
	struct report r;

	(void)state;
	setup_virt(&m);
	add(&m, "9050000.smmuv3", DEV_BUS_PLATFORM, "arm-smmu-v3",
	    1u << DMA_SIGN_IOMMU_UNIT | 1u << DMA_SIGN_DT_COHERENT);
	add(&m, "9080000.smmuv3", DEV_BUS_PLATFORM, "arm-smmu-v3", 1u << DMA_SIGN_DT_COHERENT);
	/* unbound: no driver comes first */
	add(&m, "90a0000.smmuv3", DEV_BUS_PLATFORM, NULL, 1u << DMA_SIGN_IOMMU_UNIT);
	machine_sort_devices(&m);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);

	const struct device_report *unit = report_of(&r, "9050000.smmuv3");
	assert_int_equal(unit->verdict, VERDICT_DIRECT);
	assert_non_null(strstr(unit->reason, "an IOMMU"));
	assert_false(unit->dma_mask.known);
	assert_int_equal(unit->mask_source, MASK_SOURCE_NONE);
	assert_true(unit->unreachable_ram_bytes.known);
	assert_int_equal(unit->unreachable_ram_bytes.v, 0);
	assert_int_equal(count_findings(&r, NULL, "9050000.smmuv3"), 0);

	const struct device_report *plain = report_of(&r, "9080000.smmuv3");
	assert_int_equal(plain->verdict, VERDICT_PARTIAL);
	assert_int_equal(plain->mask_source, MASK_SOURCE_ASSUMED);

	assert_int_equal(report_of(&r, "90a0000.smmuv3")->verdict, VERDICT_IDLE);
	report_done(&r);
	machine_done(&m);
}

/* usb_stor_probe1's refusal (48610ec22f0c, 6.16): the line marks its host controller
 * as mapping no RAM; a kernel before 6.16 prints no such line, so it is not taken there. */
static void test_usb_storage_refused(void **state)
{
	static const struct ram_range ram = { 0x40000000, 0x23fffffff };
	static const struct {
		const char *release;
		enum verdict want;
	} cases[] = {
		{ "6.15.11-arm64", VERDICT_PARTIAL },
		{ "6.16.0-arm64", VERDICT_IDLE },
		{ "7.1.2+deb14-arm64", VERDICT_IDLE },
		{ "unknown", VERDICT_IDLE }, /* the current row: only it prints the line */
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct machine m;
		struct report r;

		new_machine(&m, "aarch64", cases[i].release, &ram, 1);
		opt_set(&m.swiotlb.pool_start, 0x7bfff000);
		opt_set(&m.swiotlb.pool_end, 0x7ffff000);
		add(&m, "13e40000.usb", DEV_BUS_PLATFORM, "sm501-usb", 1u << DMA_SIGN_USB_HOST)->usb_storage_refused = true;
		add(&m, "12110000.usb", DEV_BUS_PLATFORM, "ehci-platform", 1u << DMA_SIGN_USB_HOST);
		machine_sort_devices(&m);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		const struct device_report *refused = report_of(&r, "13e40000.usb");
		if (refused->verdict != cases[i].want)
			fail_msg("%s: verdict %d, want %d", cases[i].release, refused->verdict, cases[i].want);
		assert_true((strstr(refused->reason, "usb-storage refused") != NULL) ==
			    (cases[i].want == VERDICT_IDLE));
		/* the other controller is judged as ever (partial: 4 GiB above its 32-bit default;
		 * unknown at an unknown release, whose platform default is unknown) */
		assert_int_equal(report_of(&r, "12110000.usb")->verdict,
				 i == ARRAY_SIZE(cases) - 1 ? VERDICT_UNKNOWN : VERDICT_PARTIAL);
		report_done(&r);
		machine_done(&m);
	}
}

static void test_idle_pci_raises_nothing(void **state)
{
	struct machine m;
	struct report r;

	(void)state;
	setup_virt(&m);
	add_pci(&m, "0000:00:02.0", NULL, 32);          /* unbound NIC */
	add_pci(&m, "0000:00:03.0", "xhci_hcd", 64);    /* bound: judged without a sign */
	machine_sort_devices(&m);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);

	const struct device_report *nic = report_of(&r, "0000:00:02.0");
	assert_int_equal(nic->verdict, VERDICT_IDLE);
	assert_int_equal(nic->bus_limit, 0x7fffffff);   /* below its 32-bit mask */
	assert_int_equal(count_findings(&r, NULL, "0000:00:02.0"), 0);

	const struct device_report *xhci = report_of(&r, "0000:00:03.0");
	assert_int_equal(xhci->verdict, VERDICT_PARTIAL);
	assert_int_equal(count_findings(&r, "mask-limited-by-bus", "0000:00:03.0"), 1);
	assert_int_equal(count_findings(&r, "bounce-needed", "0000:00:03.0"), 1);
	report_done(&r);
	machine_done(&m);
}

/* A logged DMA failure is a fact: reported even for a device that is idle now. */
static void test_idle_keeps_logged_overflow(void **state)
{
	struct machine m;
	struct report r;

	(void)state;
	setup_virt(&m);
	add_pci(&m, "0000:00:02.0", NULL, 32);
	machine_sort_devices(&m);
	m.overflows = calloc(1, sizeof(*m.overflows));
	assert_non_null(m.overflows);
	m.n_overflows = 1;
	m.overflows[0].device = strdup("0000:00:02.0");
	m.overflows[0].addr = 0x100000000;
	m.overflows[0].mask = 0xffffffff;
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	assert_int_equal(report_of(&r, "0000:00:02.0")->verdict, VERDICT_IDLE);
	assert_int_equal(count_findings(&r, "dma-overflow-logged", "0000:00:02.0"), 1);
	assert_int_equal(count_findings(&r, NULL, "0000:00:02.0"), 1);
	report_done(&r);
	machine_done(&m);
}

static void set_release(struct machine *m, const char *release)
{
	free(m->release.value);
	m->release.value = strdup(release);
	assert_non_null(m->release.value);
}

static void add_zone(struct machine *m, const char *name, uint64_t start_pfn, uint64_t spanned)
{
	struct zone *z = realloc(m->zones, (m->n_zones + 1) * sizeof(*z));

	assert_non_null(z);
	m->zones = z;
	z = &m->zones[m->n_zones++];
	memset(z, 0, sizeof(*z));
	strcpy(z->name, name);
	z->populated = spanned > 0;
	z->start_pfn = start_pfn;
	z->spanned = z->present = z->managed = spanned;
}

/* A disk whose queue uses device id (call after machine_sort_devices). */
static void add_disk(struct machine *m, const char *disk, const char *id)
{
	struct block_queue *q = machine_add_block(m);
	const struct device *d = machine_find_device(m, id);

	assert_non_null(q);
	assert_non_null(d);
	q->disk = strdup(disk);
	q->dma_device = strdup(id);
	assert_non_null(q->disk);
	assert_non_null(q->dma_device);
	opt_set(&q->dev_index, (size_t)(d - m->devices));
	opt_set(&q->max_sectors_kb, 240);
	opt_set(&q->max_hw_sectors_kb, 240);
	opt_set(&q->max_segments, 2048);
	opt_set(&q->max_segment_size, 65536);
	opt_set(&q->logical_block_size, 512);
}

/* add_pci() with the host bridge's window moved: bus 0 -> CPU cpu, size bytes. */
static struct device *add_pci_window(struct machine *m, const char *id, int mask_bits, uint64_t cpu,
				     uint64_t size)
{
	struct device *d = add_pci(m, id, "xhci_hcd", mask_bits);

	d->dt->chain[0].ranges[0] = (struct dt_range){ .child = 0, .parent = cpu, .size = size };
	return d;
}

/* The host bridge's window moved up to a "soc" bus above it: every era reads it. */
static void window_on_parent(struct device *d)
{
	struct dt_info *dt = d->dt;
	struct dt_node *c = realloc(dt->chain, 3 * sizeof(*c));

	assert_non_null(c);
	c[2] = c[1];
	c[1] = (struct dt_node){ .path = strdup("soc"), .dma_ranges = DT_PROP_PRESENT,
				 .ranges = c[0].ranges, .n_ranges = 1, .address_cells = 2,
				 .size_cells = 2 };
	assert_non_null(c[1].path);
	c[0].dma_ranges = DT_PROP_ABSENT;
	c[0].ranges = NULL;
	c[0].n_ranges = 0;
	dt->chain = c;
	dt->n_chain = 3;
}

/*
 * Before 4.20 (b4ebe6063204) dma_capable() checks *dma_mask alone: a 64-bit
 * xHCI behind a 2 GiB window with a SCSI disk (the block layer's model decides
 * before 5.13) is handed every buffer, and the pool's place does not matter.
 * From 4.20 the window is a bus limit: what lies past it bounces, or fails
 * with the pool out of reach.
 */
static void test_window_unchecked_disk(void **state)
{
	static const struct {
		const char *release;
		uint64_t pool;          /* the pool's start: 64 MiB */
		bool disk, unchecked;
		enum verdict want;
		size_t missed, impossible, out_of_reach;
	} cases[] = {
		{ "4.19.300", 0x7bfff000, true, true, VERDICT_FAILS, 1, 0, 0 },
		{ "4.19.300", 0x200000000, true, true, VERDICT_FAILS, 1, 0, 0 },  /* the reported case */
		{ "4.19.300", 0x200000000, false, true, VERDICT_FAILS, 1, 0, 0 }, /* dma-direct's own path */
		{ "4.20.0", 0x7bfff000, true, false, VERDICT_PARTIAL, 0, 0, 0 },
		{ "4.20.0", 0x200000000, true, false, VERDICT_FAILS, 0, 1, 1 },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct report r;
		setup_virt(&m);
		set_release(&m, cases[i].release);
		opt_set(&m.swiotlb.pool_start, cases[i].pool);
		opt_set(&m.swiotlb.pool_end, cases[i].pool + (64u << 20));
		/* on a bus above the host bridge: before 5.5 the bridge's own is not read */
		window_on_parent(add_pci(&m, "0000:00:03.0", "xhci_hcd", 64));
		machine_sort_devices(&m);
		if (cases[i].disk)
			add_disk(&m, "sda", "0000:00:03.0");
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		const struct device_report *x = report_of(&r, "0000:00:03.0");
		assert_int_equal(x->kernel_model, cases[i].disk ? KERNEL_MODEL_LEGACY_BLOCK
								: KERNEL_MODEL_DMA_DIRECT);
		assert_int_equal(x->verdict, cases[i].want);
		assert_int_equal(x->window_unchecked, cases[i].unchecked);
		assert_int_equal(count_findings(&r, "bounce-missed", "0000:00:03.0"), cases[i].missed);
		assert_int_equal(count_findings(&r, "bounce-impossible", "0000:00:03.0"), cases[i].impossible);
		assert_int_equal(count_findings(&r, "swiotlb-out-of-reach", "0000:00:03.0"),
				 cases[i].out_of_reach);
		if (cases[i].missed) {
			assert_true(x->missed_corrupts);
			assert_int_equal(x->pool_reachable, TRI_UNKNOWN); /* never consulted */
			assert_non_null(strstr(x->reason, "4.20"));
			assert_true(x->unreachable_ram_bytes.known);
			assert_int_equal(x->unreachable_ram_bytes.v, 0x240000000ull - 0x80000000ull);
		}
		report_done(&r);
		machine_done(&m);
	}

	/* the window on the host bridge itself: read from 5.5 (951d48855d86) only */
	static const struct {
		const char *release;
		bool ignored;
		enum verdict want;
	} bridge[] = {
		{ "4.19.300", true, VERDICT_FAILS },
		{ "5.4.280", true, VERDICT_FAILS },
		{ "5.5.0", false, VERDICT_PARTIAL },
	};
	for (size_t i = 0; i < sizeof(bridge) / sizeof(*bridge); i++) {
		struct machine m;
		struct report r;
		setup_virt(&m);
		set_release(&m, bridge[i].release);
		add_pci(&m, "0000:00:03.0", "xhci_hcd", 64);
		machine_sort_devices(&m);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		const struct device_report *x = report_of(&r, "0000:00:03.0");
		assert_int_equal(x->window_ignored, bridge[i].ignored);
		assert_int_equal(x->verdict, bridge[i].want);
		assert_int_equal(x->bus_limit, bridge[i].ignored ? 0 : 0x7fffffff);
		assert_int_equal(x->map.bus_limit, 0x7fffffff); /* the window still bounds the hardware */
		if (bridge[i].ignored) {
			assert_non_null(strstr(x->reason, "before 5.5"));
			assert_int_equal(count_findings(&r, "bounce-missed", "0000:00:03.0"), 1);
		}
		report_done(&r);
		machine_done(&m);
	}
}

/* Raspberry Pi 4-like arm64 without a log or debugfs: the pool's place from ZONE_DMA's end. */
static void pi4_no_log(struct machine *m, const char *release, bool dma_zone)
{
	static const struct ram_range ram[] = {
		{ 0x0, 0x3b3fffff }, { 0x40000000, 0xfbffffff }, { 0x100000000, 0x1ffffffff },
	};

	setup_virt(m);
	set_release(m, release);
	opt_clear(&m->swiotlb.pool_start);
	opt_clear(&m->swiotlb.pool_end);
	free(m->ram);
	m->ram = malloc(sizeof(ram));
	assert_non_null(m->ram);
	memcpy(m->ram, ram, sizeof(ram));
	m->n_ram = 3;
	m->zoneinfo_ok = true;
	if (dma_zone) {
		add_zone(m, "DMA", 0, 0x40000); /* zone_dma_bits 30 */
		add_zone(m, "DMA32", 0x40000, 0xc0000);
	} else {
		add_zone(m, "DMA", 0, 0); /* unpopulated: ZONE_DMA32 decides */
		add_zone(m, "DMA32", 0, 0x100000);
	}
	add_zone(m, "Normal", 0x100000, 0x100000);
}

static void test_pool_placement_derived(void **state)
{
	static const char *const releases[] = { "5.18.19", "5.19.0", "6.1.0-rpi7-rpi-v8" };
	(void)state;

	for (size_t i = 0; i < sizeof(releases) / sizeof(*releases); i++) {
		struct machine m;
		struct report r;
		pi4_no_log(&m, releases[i], true);
		add_pci_window(&m, "0000:01:00.0", 64, 0x0, 0xc0000000);        /* 3 GiB window */
		add_pci_window(&m, "0000:02:00.0", 64, 0x100000000, 0x100000000); /* high RAM only */
		add_pci_window(&m, "0000:03:00.0", 64, 0x0, 0x20000000);         /* 512 MiB */
		machine_sort_devices(&m);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		assert_int_equal(r.swiotlb.active, TRI_YES);
		assert_false(r.swiotlb.pool.known);
		assert_true(r.swiotlb.pool_limit.known);
		assert_int_equal(r.swiotlb.pool_limit.v, 0x3fffffff);
		assert_int_equal(r.swiotlb.pool_limit_prov, PROV_DERIVED);
		assert_non_null(strstr(r.swiotlb.pool_limit_why, "ZONE_DMA"));

		const struct device_report *a = report_of(&r, "0000:01:00.0");
		assert_int_equal(a->pool_reachable, TRI_YES);
		assert_int_equal(a->verdict, VERDICT_PARTIAL);
		assert_non_null(strstr(a->reason, "derived"));
		const struct device_report *b = report_of(&r, "0000:02:00.0");
		assert_int_equal(b->pool_reachable, TRI_NO);
		assert_int_equal(b->verdict, VERDICT_FAILS);
		assert_int_equal(count_findings(&r, "swiotlb-out-of-reach", "0000:02:00.0"), 1);
		assert_int_equal(count_findings(&r, "bounce-impossible", "0000:02:00.0"), 1);
		const struct device_report *c = report_of(&r, "0000:03:00.0");
		assert_int_equal(c->pool_reachable, TRI_UNKNOWN);
		assert_int_equal(c->verdict, VERDICT_UNKNOWN);
		assert_int_equal(count_findings(&r, "swiotlb-out-of-reach", NULL), 1); /* b's alone */
		report_done(&r);
		machine_done(&m);
	}

	/* without ZONE_DMA the bound is ZONE_DMA32's end: the 3 GiB window reaches part of it */
	struct machine m;
	struct report r;
	pi4_no_log(&m, "6.1.0-rpi7-rpi-v8", false);
	add_pci_window(&m, "0000:01:00.0", 64, 0x0, 0xc0000000);
	machine_sort_devices(&m);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	assert_int_equal(r.swiotlb.pool_limit.v, 0xffffffff);
	assert_non_null(strstr(r.swiotlb.pool_limit_why, "ZONE_DMA32"));
	assert_int_equal(report_of(&r, "0000:01:00.0")->pool_reachable, TRI_UNKNOWN);
	report_done(&r);
	machine_done(&m);

	/* the log's pool wins over the derivation */
	pi4_no_log(&m, "6.1.0-rpi7-rpi-v8", true);
	opt_set(&m.swiotlb.pool_start, 0xf8000000);
	opt_set(&m.swiotlb.pool_end, 0xfc000000);
	add_pci_window(&m, "0000:01:00.0", 64, 0x0, 0xc0000000);
	machine_sort_devices(&m);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	assert_int_equal(r.swiotlb.pool_limit.v, 0xfbffffff);
	assert_int_equal(r.swiotlb.pool_limit_prov, PROV_READ);
	assert_int_equal(report_of(&r, "0000:01:00.0")->pool_reachable, TRI_NO);
	report_done(&r);
	machine_done(&m);
}

/* i386 686-pae with 6 GiB (Debian 5.10, as i386-pc-6g-bullseye): RAM to 3 GiB
 * and from 4 GiB, lowmem to 0x37ffe000, a pool below it; a 32-bit PCI NIC. */
static void i386_pae(struct machine *m, const char *release)
{
	static const struct ram_range ram[] = { { 0x1000, 0xbfffffff }, { 0x100000000, 0x1bfffffff } };

	new_machine(m, "i686", release, ram, 2);
	m->zoneinfo_ok = true;
	add_zone(m, "DMA", 1, 0xfff);
	add_zone(m, "Normal", 0x1000, 0x36ffe);
	add_zone(m, "HighMem", 0x37ffe, 0x1c0000 - 0x37ffe);
	opt_set(&m->swiotlb.pool_start, 0x33ffe000);
	opt_set(&m->swiotlb.pool_end, 0x37ffe000);
}

static struct device *add_nic(struct machine *m, const char *id, const char *driver, const char *ifname)
{
	struct device *d = add(m, id, DEV_BUS_PCI, driver, 1u << DMA_SIGN_NET);

	opt_set(&d->dma_mask_bits, 32);
	opt_set(&d->coherent_mask_bits, 32);
	d->interfaces = ifname ? strdup(ifname) : NULL;
	return d;
}

/* net/core/dev.c illegal_highdma(): a NIC without NETIF_F_HIGHDMA gets lowmem only. */
static void test_highmem_net_lowmem_only(void **state)
{
	struct machine m;
	struct report r;

	(void)state;
	i386_pae(&m, "5.10.0-32-686-pae");
	add_nic(&m, "0000:00:02.0", "pcnet32", "eth0");  /* sets no features: lowmem only */
	add_nic(&m, "0000:00:03.0", "e1000", "eth1");    /* may set NETIF_F_HIGHDMA */
	machine_sort_devices(&m);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	assert_true(r.layout.lowmem.known);
	assert_int_equal(r.layout.lowmem.end_pfn, 0x37ffe);

	const struct device_report *pcnet = report_of(&r, "0000:00:02.0");
	assert_int_equal(pcnet->verdict, VERDICT_DIRECT);
	assert_non_null(strstr(pcnet->reason, "NETIF_F_HIGHDMA"));
	assert_int_equal(pcnet->unreachable_ram_bytes.v, 0);
	assert_int_equal(pcnet->direct.unreachable_bytes, 0xc0000000); /* the mask's own reach stays */
	assert_int_equal(count_findings(&r, "bounce-needed", "0000:00:02.0"), 0);
	const struct device_report *e1000 = report_of(&r, "0000:00:03.0");
	assert_int_equal(e1000->verdict, VERDICT_PARTIAL);
	assert_int_equal(count_findings(&r, "bounce-needed", "0000:00:03.0"), 1);
	report_done(&r);
	machine_done(&m);

	/* a 64-bit kernel has no highmem: pcnet32 is judged on its mask */
	i386_pae(&m, "5.10.0-32-amd64");
	free(m.arch.value);
	m.arch.value = strdup("x86_64");
	assert_non_null(m.arch.value);
	m.arch_info = arch_lookup(m.arch.value);
	m.n_zones = 2;
	add_zone(&m, "Normal", 0x100000, 0xc0000);
	add_nic(&m, "0000:00:02.0", "pcnet32", "eth0");
	machine_sort_devices(&m);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	assert_int_equal(report_of(&r, "0000:00:02.0")->verdict, VERDICT_PARTIAL);
	report_done(&r);
	machine_done(&m);
}

/* 32-bit ARM, 2 GiB at 0x40000000, lowmem to 0x6f800000; a device whose window ends at 0x7fffffff. */
static void arm_board(struct machine *m, const char *release, bool from_boot, int cr)
{
	static const struct ram_range ram = { 0x40000000, 0xbfffffff };

	new_machine(m, "armv7l", release, &ram, 1);
	m->zoneinfo_ok = true;
	add_zone(m, "Normal", 0x40000, 0x2f800);
	add_zone(m, "HighMem", 0x6f800, 0x50800);
	m->kmsg_from_boot = from_boot;
	if (cr >= 0)
		opt_set(&m->arm_cr, (uint32_t)cr);
	add_pci_window(m, "0000:00:01.0", 32, 0x0, 0x80000000);
	machine_sort_devices(m);
}

/* The boot log's SCTLR decides LPAE, and with it arm_dma_ops against dma-direct (5.3-5.19). */
static void test_arm_lpae_from_log(void **state)
{
	static const struct {
		const char *release;
		bool from_boot;
		int cr;
		enum verdict want;
		bool corrupts;
	} cases[] = {
		{ "5.10.0-32-custom", true, 0x10c5387d, VERDICT_FAILS, true },    /* arm_dma_ops */
		{ "5.10.0-32-custom", true, 0x30c5387d, VERDICT_FAILS, false },   /* no pool logged */
		{ "5.10.0-32-custom", false, 0x30c5387d, VERDICT_PARTIAL, false }, /* swiotlb_init(1) */
		{ "5.12.19", false, 0x30c5387d, VERDICT_PARTIAL, false },
		{ "5.13.0", false, 0x30c5387d, VERDICT_FAILS, false }, /* no RAM past arm_dma_pfn_limit */
		{ "5.10.68", false, 0x30c5387d, VERDICT_PARTIAL, false },
		{ "5.10.69", false, 0x30c5387d, VERDICT_FAILS, false }, /* fcf044891c84 in stable */
		{ "5.19.17", true, 0x10c5387d, VERDICT_FAILS, true },
		{ "6.0.0", true, 0x10c5387d, VERDICT_FAILS, false },    /* dma-direct, no pool */
		{ "5.2.21", true, 0x30c5387d, VERDICT_FAILS, true },    /* before 5.3: arm_dma_ops */
		{ "5.10.0-32-custom", false, -1, VERDICT_UNKNOWN, false },
		{ "5.10.0-30-armmp-lpae", false, 0x10c5387d, VERDICT_FAILS, true }, /* the log beats the name */
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct report r;
		arm_board(&m, cases[i].release, cases[i].from_boot, cases[i].cr);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		const struct device_report *d = report_of(&r, "0000:00:01.0");
		assert_int_equal(d->verdict, cases[i].want);
		assert_int_equal(d->missed_corrupts, cases[i].corrupts);
		assert_int_equal(count_findings(&r, "bounce-missed", "0000:00:01.0"), cases[i].corrupts);
		assert_int_equal(count_findings(&r, "bounce-impossible", "0000:00:01.0"),
				 cases[i].want == VERDICT_FAILS && !cases[i].corrupts);
		if (cases[i].cr >= 0)
			assert_int_equal(r.swiotlb.arm_lpae, (cases[i].cr >> 29) & 1 ? TRI_YES : TRI_NO);
		if (cases[i].corrupts && cases[i].cr >= 0 && strcmp(cases[i].release, "5.2.21") != 0)
			assert_non_null(strstr(d->reason, "boot log")); /* 5.3-5.19: LPAE decided it */
		if (cases[i].want == VERDICT_PARTIAL) {
			assert_int_equal(r.swiotlb.pool_limit.v, 0x6f7fffff); /* lowmem: memblock.current_limit */
			assert_int_equal(d->pool_reachable, TRI_YES);
		}
		report_done(&r);
		machine_done(&m);
	}
}

/* ---- the rules' boundaries, each on both sides (issue 28, tools/mutate) ---- */

/* An x86_64 PC with 6 GiB: RAM to 3 GiB and from 4 to 7 GiB, no IOMMU. */
static void x86_pc(struct machine *m, const char *release)
{
	static const struct ram_range ram[] = { { 0x1000, 0x9fbff }, { 0x100000, 0xbfffffff },
						{ 0x100000000, 0x1bfffffff } };

	new_machine(m, "x86_64", release, ram, 3);
}

/* A PCI function without a devicetree node (ACPI), an AHCI controller by class. */
static struct device *add_plain_pci(struct machine *m, const char *id, const char *driver, int mask_bits)
{
	struct device *d = add(m, id, DEV_BUS_PCI, driver, 0);

	opt_set(&d->dma_mask_bits, mask_bits);
	opt_set(&d->coherent_mask_bits, mask_bits);
	d->have_pci_ids = true;
	d->class_code = 0x010601;
	return d;
}

/*
 * swiotlb_map() hands out a slot only when dma_capable(dev, slot, size) holds:
 * slot + size - 1 <= min_not_zero(*dma_mask, bus_dma_limit). A pool whose last
 * byte is the device's limit is within reach; one page higher, it is not.
 */
static void test_pool_end_at_limit(void **state)
{
	static const struct {
		uint64_t pool_end;
		enum tristate reachable;
		enum verdict want;
	} cases[] = {
		{ 0x100000000, TRI_YES, VERDICT_PARTIAL }, /* last byte 0xffffffff: the limit */
		{ 0x100001000, TRI_NO, VERDICT_FAILS },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct report r;
		setup_virt(&m); /* RAM 0x40000000-0x23fffffff: the pool can lie at the top of 4 GiB */
		opt_set(&m.swiotlb.pool_end, cases[i].pool_end);
		opt_set(&m.swiotlb.pool_start, cases[i].pool_end - (64u << 20));
		add_pci_window(&m, "0000:00:03.0", 32, 0x0, 0x100000000); /* window to 4 GiB */
		machine_sort_devices(&m);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		const struct device_report *x = report_of(&r, "0000:00:03.0");
		assert_int_equal(x->limit, 0xffffffff);
		assert_int_equal(x->pool_reachable, cases[i].reachable);
		assert_int_equal(x->verdict, cases[i].want);
		assert_int_equal(count_findings(&r, "swiotlb-out-of-reach", "0000:00:03.0"),
				 cases[i].reachable == TRI_NO);
		/* the window's end is the mask itself: it limits nothing more */
		assert_int_equal(x->bus_limit, 0xffffffff);
		assert_int_equal(count_findings(&r, "mask-limited-by-bus", "0000:00:03.0"), 0);
		report_done(&r);
		machine_done(&m);
	}
}

/*
 * Whether the pool exists decides before where it lies: Intel's
 * intel_iommu_init() cleared swiotlb (pci_iommu_init frees the pool) before
 * 5.4, and 5.4-5.7 unless untrusted devices exist, which sysfs does not show
 * before 5.14: the verdict of a device out of reach is then unknown, not the
 * placement's. From 5.8 Intel keeps the pool.
 */
static void test_pool_existence_unknown(void **state)
{
	static const struct {
		const char *release;
		enum tristate active;
		enum verdict want;
		const char *reason;
	} cases[] = {
		{ "5.3.18", TRI_NO, VERDICT_FAILS, "no swiotlb pool" },
		{ "5.4.0", TRI_UNKNOWN, VERDICT_UNKNOWN, "whether a swiotlb pool exists is unknown" },
		{ "5.7.19", TRI_UNKNOWN, VERDICT_UNKNOWN, "whether a swiotlb pool exists is unknown" },
		{ "5.8.0", TRI_YES, VERDICT_PARTIAL, "bounces through the swiotlb pool" },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct report r;
		x86_pc(&m, cases[i].release);
		m.iommu_groups_present = true; /* the IOMMU came up; this device has no group */
		m.log_intel_iommu = true;
		add_plain_pci(&m, "0000:00:1f.2", "ahci", 32);
		machine_sort_devices(&m);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		assert_int_equal(r.swiotlb.active, cases[i].active);
		const struct device_report *x = report_of(&r, "0000:00:1f.2");
		assert_int_equal(x->verdict, cases[i].want);
		assert_non_null(strstr(x->reason, cases[i].reason));
		report_done(&r);
		machine_done(&m);
	}
}

/*
 * A pool the log does not place lies anywhere in RAM at or below its bound
 * (memblock_alloc_low(): ARCH_LOW_ADDRESS_LIMIT, arm64 arm64_dma_phys_limit - 1):
 * within reach only when the device reaches that bound itself.
 */
static void test_pool_bound_at_reach(void **state)
{
	static const struct {
		uint64_t mask;
		enum tristate reachable;
		enum verdict want;
	} cases[] = {
		{ 0xffffffff, TRI_YES, VERDICT_PARTIAL },     /* reaches 0xffffffff, the bound */
		{ 0xfffffffe, TRI_UNKNOWN, VERDICT_UNKNOWN }, /* its last byte out of reach */
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct report r;
		setup_virt(&m);
		opt_clear(&m.swiotlb.pool_start);
		opt_clear(&m.swiotlb.pool_end);
		m.zoneinfo_ok = true;
		add_zone(&m, "DMA32", 0x40000, 0xc0000); /* ends at 4 GiB */
		add_zone(&m, "Normal", 0x100000, 0x140000);
		struct device *d = add_plain_pci(&m, "0000:00:03.0", "xhci_hcd", 64);
		d->class_code = 0x0c0330;
		machine_sort_devices(&m);
		const struct assumed_mask mask = { "0000:00:03.0", cases[i].mask };
		const struct report_options o = { .fail_on = SEVERITY_WARNING, .masks = &mask, .n_masks = 1 };
		assert_int_equal(report_build_with(&m, &o, &r), 0);
		assert_true(r.swiotlb.pool_limit.known);
		assert_int_equal(r.swiotlb.pool_limit.v, 0xffffffff);
		const struct device_report *x = report_of(&r, "0000:00:03.0");
		assert_int_equal(x->pool_reachable, cases[i].reachable);
		assert_int_equal(x->verdict, cases[i].want);
		report_done(&r);
		machine_done(&m);
	}
}

/*
 * 4.20-5.4 keep the window as bus_dma_mask, DMA_BIT_MASK(ilog2(end) + 1) in
 * of_dma_configure(); a7ba70f1787f (5.5) keeps the exact end (bus_dma_limit).
 * Before 4.20 only a mask wider than the window reaches past it unchecked;
 * 4.20-5.4, a window not ending at a power of two (the Raspberry Pi 4's 3 GiB,
 * a7ba70f1787f's own example) leaves RAM between its end and the rounded mask
 * unchecked: it goes astray. A window that does end at one is checked exactly.
 */
static void test_window_bus_limit(void **state)
{
	static const struct {
		const char *release;
		int mask_bits;
		uint64_t size, bus_limit;
		bool unchecked;
		enum verdict want;
	} cases[] = {
		{ "4.19.300", 32, 0x100000000, 0, false, VERDICT_PARTIAL }, /* the mask is the window */
		{ "4.19.300", 33, 0x100000000, 0, true, VERDICT_FAILS },
		{ "5.4.280", 64, 0xc0000000, 0xffffffff, true, VERDICT_FAILS },
		{ "5.4.280", 64, 0x100000000, 0xffffffff, false, VERDICT_PARTIAL }, /* 4 GiB: exact */
		{ "5.5.0", 64, 0xc0000000, 0xbfffffff, false, VERDICT_PARTIAL },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct report r;
		setup_virt(&m);
		set_release(&m, cases[i].release);
		window_on_parent(add_pci_window(&m, "0000:00:03.0", cases[i].mask_bits, 0x0, cases[i].size));
		machine_sort_devices(&m);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		const struct device_report *x = report_of(&r, "0000:00:03.0");
		assert_int_equal(x->bus_limit, cases[i].bus_limit);
		assert_int_equal(x->window_unchecked, cases[i].unchecked);
		assert_int_equal(x->verdict, cases[i].want);
		report_done(&r);
		machine_done(&m);
	}
}

/*
 * swiotlb=noforce 4.10-5.12 keeps a one-slab pool (x86-pc-6g-noforce-bullseye
 * logs it) that dma_direct_map_page() never uses ("if (swiotlb_force !=
 * SWIOTLB_NO_FORCE) return swiotlb_map()"): RAM out of reach fails, pool or not.
 */
static void test_noforce_slab_unused(void **state)
{
	static const char *const releases[] = { "4.10.0", "5.10.0-32-amd64", "5.12.19", "5.13.0" };
	(void)state;

	for (size_t i = 0; i < sizeof(releases) / sizeof(*releases); i++) {
		struct machine m;
		struct report r;
		x86_pc(&m, releases[i]);
		m.cmd.swiotlb_noforce = true;
		m.cmd.swiotlb_last_word = SWIOTLB_WORD_NOFORCE; /* as readers/cmdline.c keeps it */
		/* "software IO TLB: mapped [mem 0xbbfff000-0xbbfff800]" */
		opt_set(&m.swiotlb.pool_start, 0xbbfff000);
		opt_set(&m.swiotlb.pool_end, 0xbbfff800);
		add_plain_pci(&m, "0000:00:1f.2", "ahci", 32);
		machine_sort_devices(&m);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		const struct device_report *x = report_of(&r, "0000:00:1f.2");
		assert_int_equal(x->verdict, VERDICT_FAILS);
		assert_non_null(strstr(x->reason, "swiotlb=noforce"));
		report_done(&r);
		machine_done(&m);
	}
	/* before fff5d99225 (4.10) the option does not exist: the pool bounces */
	struct machine m;
	struct report r;
	x86_pc(&m, "4.9.337");
	m.cmd.swiotlb_noforce = true;
	m.cmd.swiotlb_last_word = SWIOTLB_WORD_NOFORCE; /* as readers/cmdline.c keeps it */
	opt_set(&m.swiotlb.pool_start, 0xbbfe8000);
	opt_set(&m.swiotlb.pool_end, 0xbffe8000);
	add_plain_pci(&m, "0000:00:1f.2", "ahci", 32);
	machine_sort_devices(&m);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	assert_int_equal(report_of(&r, "0000:00:1f.2")->verdict, VERDICT_PARTIAL);
	report_done(&r);
	machine_done(&m);
}

/*
 * Before 21e07dba9fb1 (4.18) scsi_calculate_bounce_limit() returned
 * BLK_BOUNCE_ANY when !PCI_DMA_BUS_IS_PHYS: on x86 dma_ops->is_phys, 0 for
 * swiotlb's ops (a pool) and 1 for nommu_dma_ops (none). A 31-bit SCSI host's
 * queue then bounces nothing itself (swiotlb does), or everything above
 * dma_max_pfn(). Its CD-ROM (sr) is a SCSI disk like sd; an MMC card is not.
 */
static void test_scsi_bounce_limit(void **state)
{
	static const struct {
		const char *release, *disk;
		bool pool;
		bool block_bounces;
	} cases[] = {
		{ "4.17.19", "sda", true, false },
		{ "4.17.19", "sr0", true, false },
		{ "4.17.19", "sda", false, true },     /* nommu_dma_ops: PCI_DMA_BUS_IS_PHYS */
		{ "4.17.19", "mmcblk0", true, true },  /* not SCSI: dma_max_pfn() */
		{ "4.18.0", "sr0", false, false },     /* __scsi_init_queue: no limit */
		{ "4.18.0", "mmcblk0", false, true },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct report r;
		x86_pc(&m, cases[i].release);
		if (cases[i].pool) {
			opt_set(&m.swiotlb.pool_start, 0x3c000000);
			opt_set(&m.swiotlb.pool_end, 0x40000000);
		} else {
			opt_set(&m.swiotlb.nslabs, 0); /* debugfs io_tlb_nslabs 0 */
		}
		add_plain_pci(&m, "0000:00:1f.2", "ahci", 31);
		machine_sort_devices(&m);
		add_disk(&m, cases[i].disk, "0000:00:1f.2");
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		const struct device_report *x = report_of(&r, "0000:00:1f.2");
		const struct legacy_result *lr = device_legacy(x);
		assert_int_equal(x->kernel_model, KERNEL_MODEL_LEGACY_BLOCK);
		assert_true(lr->known);
		const struct legacy_block *k = &lr->by_reading[lr->kernel_reading];
		if (cases[i].block_bounces) {
			/* RAM from 2 GiB: 0x80000000-0xbfffffff and 0x100000000-0x1bfffffff */
			assert_int_equal(k->bounce_bytes, 0x40000000ull + 0xc0000000ull);
			assert_int_equal(x->verdict, VERDICT_PARTIAL);
			assert_non_null(strstr(x->reason, "block layer bounces"));
		} else {
			assert_int_equal(k->bounce_bytes, 0);
			assert_int_equal(lr->missed_bytes, x->direct.unreachable_bytes);
			assert_int_equal(x->verdict, cases[i].pool ? VERDICT_PARTIAL : VERDICT_FAILS);
		}
		report_done(&r);
		machine_done(&m);
	}
}

/*
 * Before 951d48855d86 (5.5) of_dma_get_range() starts at the node's DMA parent:
 * a platform device's own dma-ranges are never read, so of_dma_configure()
 * leaves its default 32-bit mask whole; what lies past that window goes astray.
 * From 5.5 they are read and clip the mask (DMA_BIT_MASK(ilog2(end) + 1)).
 */
static void test_platform_own_window(void **state)
{
	static const struct {
		const char *release;
		bool ignored;
		uint64_t mask;
		enum verdict want;
	} cases[] = {
		{ "5.4.280", true, 0xffffffff, VERDICT_FAILS },
		{ "5.5.0", false, 0x7fffffff, VERDICT_PARTIAL },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct report r;
		setup_virt(&m);
		set_release(&m, cases[i].release);
		struct device *d = add(&m, "a003000.ethernet", DEV_BUS_PLATFORM, "stmmaceth", 1u << DMA_SIGN_NET);
		struct dt_info *dt = device_dt_new(d);
		assert_non_null(dt);
		dt->node = strdup("soc/ethernet@a003000");
		dt->node_is_device = true;
		dt->chain = calloc(2, sizeof(*dt->chain));
		assert_non_null(dt->node);
		assert_non_null(dt->chain);
		dt->n_chain = 2;
		dt->chain[0] = (struct dt_node){ .path = strdup("soc/ethernet@a003000"),
						 .dma_ranges = DT_PROP_PRESENT, .address_cells = 2,
						 .size_cells = 2, .n_ranges = 1 };
		dt->chain[0].ranges = calloc(1, sizeof(*dt->chain[0].ranges));
		assert_non_null(dt->chain[0].ranges);
		dt->chain[0].ranges[0] = (struct dt_range){ .child = 0x40000000, .parent = 0x40000000,
							    .size = 0x40000000 }; /* to 2 GiB */
		dt->chain[1] = (struct dt_node){ .path = strdup(""), .address_cells = 2, .size_cells = 2 };
		assert_non_null(dt->chain[0].path);
		assert_non_null(dt->chain[1].path);
		machine_sort_devices(&m);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		const struct device_report *x = report_of(&r, "a003000.ethernet");
		assert_int_equal(x->mask_source, MASK_SOURCE_ASSUMED);
		assert_int_equal(x->window_ignored, cases[i].ignored);
		assert_int_equal(x->dma_mask.v, cases[i].mask);
		assert_int_equal(x->verdict, cases[i].want);
		report_done(&r);
		machine_done(&m);
	}
}

/*
 * An SME host sets the C-bit in every bus address (phys_to_dma: __sme_set), so
 * dma_capable() fails for a limit below it and every mapping bounces. The C-bit
 * lies at or above the physical address bits cpuinfo shows (43 here) and below
 * bit 52: a 43-bit mask is below it, a 52-bit one above whatever its place,
 * and between them only the C-bit's position decides.
 */
static void test_sme_cbit(void **state)
{
	static const struct {
		int mask_bits;
		enum verdict want;
	} cases[] = {
		{ 43, VERDICT_FORCED }, { 44, VERDICT_UNKNOWN }, { 51, VERDICT_UNKNOWN },
		{ 52, VERDICT_DIRECT }, { 64, VERDICT_DIRECT },
	};
	struct machine m;
	struct report r;
	char id[16];
	(void)state;

	x86_pc(&m, "6.1.0-27-amd64");
	m.coco.log_sme = true;
	m.coco.log_line = strdup("Memory Encryption Features active: AMD SME");
	assert_non_null(m.coco.log_line);
	opt_set(&m.coco.cpuinfo_phys_bits, 43);
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		snprintf(id, sizeof(id), "0000:%02zx:00.0", i + 1);
		add_plain_pci(&m, id, "nvme", cases[i].mask_bits);
	}
	machine_sort_devices(&m);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	assert_int_equal(r.swiotlb.coco, COCO_SME_HOST);
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		snprintf(id, sizeof(id), "0000:%02zx:00.0", i + 1);
		const struct device_report *x = report_of(&r, id);
		if (x->verdict != cases[i].want)
			fail_msg("a %d-bit mask: verdict %s, want %s", cases[i].mask_bits,
				 verdict_to_string(x->verdict), verdict_to_string(cases[i].want));
		assert_int_equal(count_findings(&r, "forced-bounce", id), cases[i].want == VERDICT_FORCED);
	}
	report_done(&r);
	machine_done(&m);
}

/*
 * vring_use_dma_api(): without VIRTIO_F_ACCESS_PLATFORM virtio passes
 * guest-physical addresses, "unless xen_domain()": under Xen (HVM here, not
 * PV) it maps through the DMA API, and swiotlb=force bounces it.
 */
static void test_virtio_under_xen(void **state)
{
	static const enum hypervisor_type hyp[] = { HYPERVISOR_NONE, HYPERVISOR_OTHER, HYPERVISOR_XEN };
	(void)state;

	for (size_t i = 0; i < sizeof(hyp) / sizeof(*hyp); i++) {
		struct machine m;
		struct report r;
		x86_pc(&m, "6.1.0-27-amd64");
		m.cmd.swiotlb_force = true;
		m.cmd.swiotlb_last_word = SWIOTLB_WORD_FORCE; /* as readers/cmdline.c keeps it */
		m.hyp.type = hyp[i];
		m.hyp.xen_guest_type = hyp[i] == HYPERVISOR_XEN ? XEN_GUEST_HVM : XEN_GUEST_UNKNOWN;
		struct device *d = add_plain_pci(&m, "0000:00:04.0", "virtio-pci", 64);
		opt_set(&d->virtio_access_platform, false);
		machine_sort_devices(&m);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		assert_false(r.swiotlb.xen_pv);
		const struct device_report *x = report_of(&r, "0000:00:04.0");
		if (hyp[i] == HYPERVISOR_XEN) {
			assert_int_equal(x->verdict, VERDICT_FORCED);
		} else {
			assert_int_equal(x->verdict, VERDICT_DIRECT);
			assert_non_null(strstr(x->reason, "VIRTIO_F_ACCESS_PLATFORM"));
		}
		report_done(&r);
		machine_done(&m);
	}
}

/*
 * Intel passthrough before 327d5b2fee91 (5.8): iommu_no_mapping() /
 * iommu_need_mapping() keep a device in the identity map only while the
 * smaller of its masks, the coherent one included, is at least
 * dma_get_required_mask() (here 0x1ffffffff: RAM ends at 0x1bfffffff). AMD's
 * identity domain is dma-direct whatever the mask.
 */
static void test_intel_identity_fallback(void **state)
{
	static const struct {
		const char *release;
		bool amd;
		int mask_bits, coherent_bits;
		enum verdict want;
	} cases[] = {
		{ "5.7.19", false, 32, 32, VERDICT_IOMMU },
		{ "5.7.19", false, 33, 33, VERDICT_DIRECT },   /* the required mask itself */
		{ "5.7.19", false, 64, 32, VERDICT_IOMMU },    /* the coherent mask is smaller */
		{ "5.7.19", false, 64, 64, VERDICT_DIRECT },
		{ "5.8.0", false, 32, 32, VERDICT_PARTIAL },   /* stays in dma-direct */
		{ "5.7.19", true, 32, 32, VERDICT_PARTIAL },   /* AMD: dma-direct */
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct report r;
		x86_pc(&m, cases[i].release);
		m.iommu_groups_present = true;
		m.log_intel_iommu = !cases[i].amd;
		m.log_amd_iommu = cases[i].amd;
		m.cmd.iommu_pt = true;
		opt_set(&m.swiotlb.pool_start, 0xbbfe8000);
		opt_set(&m.swiotlb.pool_end, 0xbffe8000);
		struct device *d = add_plain_pci(&m, "0000:00:1f.2", "ahci", cases[i].mask_bits);
		opt_set(&d->coherent_mask_bits, cases[i].coherent_bits);
		opt_set(&d->iommu_group, 3);
		d->iommu_domain = IOMMU_DOMAIN_IDENTITY;
		machine_sort_devices(&m);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		const struct device_report *x = report_of(&r, "0000:00:1f.2");
		if (x->verdict != cases[i].want)
			fail_msg("case %zu: verdict %s, want %s", i, verdict_to_string(x->verdict),
				 verdict_to_string(cases[i].want));
		report_done(&r);
		machine_done(&m);
	}
}

/*
 * An untrusted device (removable: below an external-facing port) in a DMA
 * domain bounces its unaligned buffers through swiotlb from 82612d66d51d (5.11:
 * dma-iommu's dev_use_swiotlb); before, Intel's own bounce page (not modelled).
 * A kernel that shows "removable" before 5.14 has it backported.
 */
static void test_untrusted_era(void **state)
{
	static const struct {
		const char *release;
		bool untrusted;
	} cases[] = { { "5.10.223", false }, { "5.11.0", true }, { "6.1.0", true } };
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct report r;
		x86_pc(&m, cases[i].release);
		m.iommu_groups_present = true;
		m.log_intel_iommu = true;
		struct device *d = add_plain_pci(&m, "0000:2c:00.0", "nvme", 64);
		opt_set(&d->iommu_group, 4);
		d->iommu_domain = IOMMU_DOMAIN_DMA;
		opt_set(&d->removable, true);
		machine_sort_devices(&m);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		const struct device_report *x = report_of(&r, "0000:2c:00.0");
		assert_int_equal(x->verdict, VERDICT_IOMMU);
		assert_int_equal(x->untrusted, cases[i].untrusted);
		assert_int_equal(count_findings(&r, "untrusted-bounce", "0000:2c:00.0") +
					 count_findings(&r, "untrusted-bounce-impossible", "0000:2c:00.0"),
				 cases[i].untrusted);
		report_done(&r);
		machine_done(&m);
	}
}

/*
 * A NIC without NETIF_F_HIGHDMA gets lowmem only (i386 686-pae, lowmem to
 * 0x37ffe000): judged direct when it reaches all of lowmem, its last byte
 * included, by its mask otherwise (--assume-mask: a limit, as dma-direct reads it).
 */
static void test_lowmem_net_edge(void **state)
{
	static const struct {
		uint64_t mask;
		enum verdict want;
	} cases[] = {
		{ 0x37ffdfff, VERDICT_DIRECT },
		{ 0x37ffdffe, VERDICT_FAILS }, /* and the pool's last byte, 0x37ffdfff, is out of reach */
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct report r;
		i386_pae(&m, "5.10.0-32-686-pae");
		add_nic(&m, "0000:00:02.0", "pcnet32", "eth0");
		machine_sort_devices(&m);
		const struct assumed_mask mask = { "0000:00:02.0", cases[i].mask };
		const struct report_options o = { .fail_on = SEVERITY_WARNING, .masks = &mask, .n_masks = 1 };
		assert_int_equal(report_build_with(&m, &o, &r), 0);
		assert_int_equal(report_of(&r, "0000:00:02.0")->verdict, cases[i].want);
		report_done(&r);
		machine_done(&m);
	}
}

/*
 * 32-bit ARM 5.3-5.19 uses dma-direct only on LPAE kernels (ad3c7b18c5b3):
 * a pool the log shows proves it (LPAE, or Xen's swiotlb-xen), whatever the
 * release says.
 */
static void test_arm_pool_proves_dma_direct(void **state)
{
	struct machine m;
	struct report r;
	(void)state;

	arm_board(&m, "5.10.0-32-custom", false, -1);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	assert_int_equal(r.swiotlb.arm_lpae, TRI_UNKNOWN);
	assert_int_equal(report_of(&r, "0000:00:01.0")->verdict, VERDICT_UNKNOWN);
	report_done(&r);
	machine_done(&m);

	arm_board(&m, "5.10.0-32-custom", false, -1);
	/* "software IO TLB: mapped [mem 0x6b800000-0x6f800000]" */
	opt_set(&m.swiotlb.pool_start, 0x6b800000);
	opt_set(&m.swiotlb.pool_end, 0x6f800000);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	assert_int_equal(r.swiotlb.arm_lpae, TRI_UNKNOWN);
	const struct device_report *x = report_of(&r, "0000:00:01.0");
	assert_int_equal(x->verdict, VERDICT_PARTIAL);
	assert_false(x->missed_corrupts);
	report_done(&r);
	machine_done(&m);
}

/* s390_pci_dma_ops (zPCI's own translation, before c76c067e488c, 6.7) are s390's alone. */
static void test_s390_pci_ops_only_s390(void **state)
{
	static const struct {
		const char *arch, *release;
		enum verdict want;
	} cases[] = {
		{ "s390x", "6.6.0", VERDICT_IOMMU },
		{ "x86_64", "6.6.0", VERDICT_PARTIAL },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct report r;
		x86_pc(&m, cases[i].release);
		free(m.arch.value);
		m.arch.value = strdup(cases[i].arch);
		assert_non_null(m.arch.value);
		m.arch_info = arch_lookup(m.arch.value);
		opt_set(&m.swiotlb.pool_start, 0xbbfe8000);
		opt_set(&m.swiotlb.pool_end, 0xbffe8000);
		add_plain_pci(&m, "0001:00:00.0", "mlx5_core", 32);
		machine_sort_devices(&m);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		assert_int_equal(report_of(&r, "0001:00:00.0")->verdict, cases[i].want);
		report_done(&r);
		machine_done(&m);
	}
}

/* ---- an unknown release: never the current row where it is the optimistic one ---- */

static void unset_release(struct machine *m)
{
	free(m->release.value);
	m->release.value = NULL;
}

/*
 * 32-bit ARM before 6.0 maps streaming DMA unchecked (arm_dma_ops), LPAE
 * aside from 5.3: at an unknown release RAM out of reach is unknown where a
 * pool may exist, fails where none does, and a pool seen proves dma-direct.
 */
static void test_unknown_release_arm(void **state)
{
	static const struct {
		int cr;
		bool from_boot;
		enum verdict want;      /* was: the current row's dma-direct */
		const char *reason;
	} cases[] = {
		{ 0x30c5387d, false, VERDICT_FAILS, "kernel release unknown" },   /* LPAE, no RAM past the limit */
		{ 0x10c5387d, false, VERDICT_FAILS, "kernel release unknown" },   /* was: fails, "no swiotlb pool" */
		{ -1, false, VERDICT_UNKNOWN, "kernel release unknown" },          /* was: unknown, 5.3-5.19 LPAE */
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct report r;
		arm_board(&m, "6.1.0", cases[i].from_boot, cases[i].cr);
		unset_release(&m);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		const struct device_report *d = report_of(&r, "0000:00:01.0");
		assert_int_equal(d->verdict, cases[i].want);
		assert_non_null(strstr(d->reason, cases[i].reason));
		assert_false(d->missed_corrupts);
		report_done(&r);
		machine_done(&m);
	}

	/* LPAE with RAM past arm_dma_pfn_limit: 5.13+ has a pool, 5.3-5.12 too, before 5.3 none */
	struct machine m;
	struct report r;
	arm_board(&m, "6.1.0", false, 0x30c5387d);
	unset_release(&m);
	m.ram[0].end = 0x13fffffff; /* RAM to 5 GiB */
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	assert_int_equal(r.swiotlb.active, TRI_UNKNOWN);
	const struct device_report *d = report_of(&r, "0000:00:01.0");
	assert_int_equal(d->verdict, VERDICT_UNKNOWN); /* was: partial (a pool, dma-direct) */
	assert_non_null(strstr(d->reason, "kernel release unknown"));
	report_done(&r);
	machine_done(&m);

	/* a pool the log shows proves dma-direct whatever the release (a mask
	 * within the window: test_unknown_release_window has the other) */
	arm_board(&m, "6.1.0", false, -1);
	unset_release(&m);
	opt_set(&m.devices[0].dma_mask_bits, 31);
	opt_set(&m.swiotlb.pool_start, 0x6b800000);
	opt_set(&m.swiotlb.pool_end, 0x6f800000);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	assert_int_equal(report_of(&r, "0000:00:01.0")->verdict, VERDICT_PARTIAL);
	report_done(&r);
	machine_done(&m);
}

/*
 * A mask past a devicetree dma-ranges window: checked against the window from
 * 5.5, against the mask alone before 4.20 (a host bridge's window unread
 * before 5.5). At an unknown release: unknown, not the current bounce.
 */
static void test_unknown_release_window(void **state)
{
	static const struct {
		int mask_bits;
		enum verdict want;
	} cases[] = {
		{ 32, VERDICT_UNKNOWN }, /* was: partial, the pool within the 2 GiB window */
		{ 31, VERDICT_PARTIAL }, /* the mask ends at the window: every era bounces */
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct report r;
		setup_virt(&m);
		unset_release(&m);
		add_pci(&m, "0000:00:02.0", "xhci_hcd", cases[i].mask_bits);
		machine_sort_devices(&m);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		const struct device_report *d = report_of(&r, "0000:00:02.0");
		assert_int_equal(d->verdict, cases[i].want);
		if (cases[i].want == VERDICT_UNKNOWN) {
			assert_non_null(strstr(d->reason, "kernel release unknown"));
			assert_true(d->unreachable_ram_bytes.known); /* the RAM past the window */
		}
		report_done(&r);
		machine_done(&m);
	}
}

/* A platform device's mask from its driver's row: variant by compatible, the boot log, or assumed. */
static void test_driver_masks(void **state)
{
	static const struct {
		const char *name;
		const char *driver;    /* NULL: a dangling or missing driver link */
		const char *compat;    /* NUL-separated, ends with NUL; NULL: none, or malformed */
		size_t compat_len;
		const char *release;
		const char *line;      /* a mask line's device is the device itself */
		enum mask_line_kind kind;
		unsigned line_bits;
		enum mask_source want;
		uint64_t mask, coherent;
		bool row;
	} cases[] = {
#define C(s) s, sizeof(s)
		{ "emmc2 ADMA 64-bit", "sdhci-iproc", C("brcm,bcm2711-emmc2"), "6.1.0-27-arm64", "fe340000.mmc",
		  MASK_LINE_SDHCI, 64, MASK_SOURCE_DRIVER, UINT64_MAX, UINT64_MAX, true },
		{ "emmc2 ADMA", "sdhci-iproc", C("brcm,bcm2711-emmc2"), "6.1.0-27-arm64", "fe340000.mmc",
		  MASK_LINE_SDHCI, 32, MASK_SOURCE_DRIVER, 0xffffffff, 0xffffffff, true },
		/* the capabilities register decides, and nothing says how: not a guess */
		{ "emmc2 no line", "sdhci-iproc", C("brcm,bcm2711-emmc2"), "6.1.0-27-arm64", NULL,
		  MASK_LINE_SDHCI, 0, MASK_SOURCE_ASSUMED, 0xffffffff, 0xffffffff, true },
		{ "emmc2 PIO", "sdhci-iproc", C("brcm,bcm2711-emmc2"), "6.1.0-27-arm64", "fe340000.mmc",
		  MASK_LINE_SDHCI, 0, MASK_SOURCE_ASSUMED, 0xffffffff, 0xffffffff, true },
		/* another device's line says nothing of this one */
		{ "line of another", "sdhci-iproc", C("brcm,bcm2711-emmc2"), "6.1.0-27-arm64", "fe300000.mmc",
		  MASK_LINE_SDHCI, 64, MASK_SOURCE_ASSUMED, 0xffffffff, 0xffffffff, true },
		{ "bcm2835 PIO variant", "sdhci-iproc", C("brcm,bcm2835-sdhci"), "6.1.0-27-arm64", NULL,
		  MASK_LINE_SDHCI, 0, MASK_SOURCE_DRIVER, 0xffffffff, 0xffffffff, true },
		/* mt8195 lists mt8183 second: of_match_device() takes that entry, 36 bits streaming */
		{ "mtk by second compatible", "mtk-msdc", C("mediatek,mt8195-mmc\0mediatek,mt8183-mmc"),
		  "6.12.9-arm64", NULL, MASK_LINE_SDHCI, 0, MASK_SOURCE_DRIVER, 0xfffffffff, 0xffffffff, true },
		{ "mtk 32-bit variant", "mtk-msdc", C("mediatek,mt8173-mmc"), "6.12.9-arm64", NULL,
		  MASK_LINE_SDHCI, 0, MASK_SOURCE_DRIVER, 0xffffffff, 0xffffffff, true },
		{ "mtk variant unknown", "mtk-msdc", C("mediatek,mt9999-mmc"), "6.12.9-arm64", NULL,
		  MASK_LINE_SDHCI, 0, MASK_SOURCE_ASSUMED, 0xffffffff, 0xffffffff, false },
		/* a malformed compatible list (the reader keeps none): no variant is matched */
		{ "mtk compatible malformed", "mtk-msdc", NULL, 0, "6.12.9-arm64", NULL,
		  MASK_LINE_SDHCI, 0, MASK_SOURCE_ASSUMED, 0xffffffff, 0xffffffff, false },
		{ "no driver link", NULL, C("mediatek,mt8183-mmc"), "6.12.9-arm64", NULL,
		  MASK_LINE_SDHCI, 0, MASK_SOURCE_ASSUMED, 0xffffffff, 0xffffffff, false },
		{ "before the rows", "mtk-msdc", C("mediatek,mt8183-mmc"), "5.4.0-1-arm64", NULL,
		  MASK_LINE_SDHCI, 0, MASK_SOURCE_ASSUMED, 0xffffffff, 0xffffffff, false },
		{ "dw_mmc 32-bit sets none", "dwmmc_rockchip", C("rockchip,rk3399-dw-mshc\0rockchip,rk3288-dw-mshc"),
		  "6.1.0-27-arm64", "fe340000.mmc", MASK_LINE_DW_MMC, 32, MASK_SOURCE_DRIVER, 0xffffffff,
		  0xffffffff, true },
		{ "dw_mmc 64-bit", "dwmmc_rockchip", C("rockchip,rk3399-dw-mshc"), "6.1.0-27-arm64",
		  "fe340000.mmc", MASK_LINE_DW_MMC, 64, MASK_SOURCE_DRIVER, UINT64_MAX, UINT64_MAX, true },
		{ "stmmac 34 bits", "imx-dwmac", C("nxp,imx8mp-dwmac-eqos"), "6.12.9-arm64", "fe340000.mmc",
		  MASK_LINE_STMMAC, 34, MASK_SOURCE_DRIVER, 0x3ffffffff, 0x3ffffffff, true },
		/* a line of the wrong kind for the driver decides nothing */
		{ "stmmac line for sdhci", "sdhci-arasan", C("arasan,sdhci-5.1"), "6.12.9-arm64", "fe340000.mmc",
		  MASK_LINE_STMMAC, 40, MASK_SOURCE_ASSUMED, 0xffffffff, 0xffffffff, true },
		{ "macb: hardware decides", "macb", C("cdns,macb"), "6.12.9-arm64", NULL, MASK_LINE_SDHCI, 0,
		  MASK_SOURCE_ASSUMED, 0xffffffff, 0xffffffff, true },
		/* fec_enet_init(): 32 bits for every variant, set whatever the log says */
		{ "fec sets 32 bits", "fec", C("fsl,imx8mp-fec\0fsl,imx8mq-fec"), "6.12.9-arm64", NULL,
		  MASK_LINE_SDHCI, 0, MASK_SOURCE_DRIVER, 0xffffffff, 0xffffffff, true },
		{ "fec before the rows", "fec", C("fsl,imx8mq-fec"), "5.4.0-1-arm64", NULL, MASK_LINE_SDHCI, 0,
		  MASK_SOURCE_ASSUMED, 0xffffffff, 0xffffffff, false },
		{ "esdhc ADMA", "sdhci-esdhc-imx", C("fsl,imx8mp-usdhc\0fsl,imx8mm-usdhc"), "6.12.9-arm64",
		  "fe340000.mmc", MASK_LINE_SDHCI, 32, MASK_SOURCE_DRIVER, 0xffffffff, 0xffffffff, true },
		{ "esdhc no line", "sdhci-esdhc-imx", C("fsl,imx8mp-usdhc"), "6.12.9-arm64", NULL,
		  MASK_LINE_SDHCI, 0, MASK_SOURCE_ASSUMED, 0xffffffff, 0xffffffff, true },
		{ "dwcmshc ADMA 64-bit", "sdhci-dwcmshc", C("rockchip,rk3588-dwcmshc"), "6.12.9-arm64",
		  "fe340000.mmc", MASK_LINE_SDHCI, 64, MASK_SOURCE_DRIVER, UINT64_MAX, UINT64_MAX, true },
		/* the H6's MMC and EMAC glue set none: the default is the driver's knowledge, not a guess */
		{ "sunxi-mmc keeps the default", "sunxi-mmc", C("allwinner,sun50i-h6-mmc\0allwinner,sun50i-a64-mmc"),
		  "6.12.9-arm64", NULL, MASK_LINE_SDHCI, 0, MASK_SOURCE_DRIVER, 0xffffffff, 0xffffffff, true },
		{ "dwmac-sun8i keeps the default", "dwmac-sun8i", C("allwinner,sun50i-h6-emac"), "6.1.0-27-arm64",
		  NULL, MASK_LINE_STMMAC, 0, MASK_SOURCE_DRIVER, 0xffffffff, 0xffffffff, true },
		/* its glue never reads a width: a stray width line does not widen it */
		{ "dwmac-sun8i ignores a width line", "dwmac-sun8i", C("allwinner,sun50i-h6-emac"), "6.1.0-27-arm64",
		  "fe340000.mmc", MASK_LINE_STMMAC, 40, MASK_SOURCE_DRIVER, 0xffffffff, 0xffffffff, true },
		{ "mtu3 36 bits", "mtu3", C("mediatek,mt8183-mtu3\0mediatek,mtu3"), "6.12.9-arm64", "fe340000.mmc",
		  MASK_LINE_MTU3, 36, MASK_SOURCE_DRIVER, 0xfffffffff, 0xfffffffff, true },
		{ "mtu3 32 bits sets none", "mtu3", C("mediatek,mt8183-mtu3"), "6.12.9-arm64", "fe340000.mmc",
		  MASK_LINE_MTU3, 32, MASK_SOURCE_DRIVER, 0xffffffff, 0xffffffff, true },
		{ "mtu3 host only: no line", "mtu3", C("mediatek,mt8183-mtu3"), "6.12.9-arm64", NULL,
		  MASK_LINE_MTU3, 0, MASK_SOURCE_ASSUMED, 0xffffffff, 0xffffffff, true },
		{ "xhci-mtk: hardware decides", "xhci-mtk", C("mediatek,mt8183-xhci\0mediatek,mtk-xhci"),
		  "6.12.9-arm64", NULL, MASK_LINE_SDHCI, 0, MASK_SOURCE_ASSUMED, 0xffffffff, 0xffffffff, true },
		/* the sdhost maps through the DMA engine's device: its own mask decides nothing */
		{ "sdhost maps through the engine", "sdhost-bcm2835", C("brcm,bcm2835-sdhost"), "6.1.0-27-arm64",
		  NULL, MASK_LINE_SDHCI, 0, MASK_SOURCE_ASSUMED, 0xffffffff, 0xffffffff, true },
		{ "bcm2835-dma", "bcm2835-dma", C("brcm,bcm2835-dma"), "6.1.0-27-arm64", NULL, MASK_LINE_SDHCI, 0,
		  MASK_SOURCE_DRIVER, 0xffffffff, 0xffffffff, true },
		/* the 40-bit engine of the BCM2711 is another compatible: not this row */
		{ "bcm2711-dma not in the table", "bcm2835-dma", C("brcm,bcm2711-dma"), "6.1.0-27-arm64", NULL,
		  MASK_LINE_SDHCI, 0, MASK_SOURCE_ASSUMED, 0xffffffff, 0xffffffff, false },
#undef C
	};
	(void)state;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct machine m;
		struct report r;
		setup_virt(&m);
		set_release(&m, cases[i].release);
		struct device *d = add(&m, "fe340000.mmc", DEV_BUS_PLATFORM, cases[i].driver, 1u << DMA_SIGN_DISK);
		if (cases[i].compat) {
			d->compatible = malloc(cases[i].compat_len);
			assert_non_null(d->compatible);
			memcpy(d->compatible, cases[i].compat, cases[i].compat_len);
			d->compatible_len = cases[i].compat_len;
		}
		if (cases[i].line) {
			m.mask_lines = calloc(1, sizeof(*m.mask_lines));
			assert_non_null(m.mask_lines);
			m.mask_lines[0] = (struct mask_line){ strdup(cases[i].line), cases[i].kind, cases[i].line_bits,
							      "boot log" };
			m.n_mask_lines = 1;
		}
		machine_sort_devices(&m);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		const struct device_report *x = report_of(&r, "fe340000.mmc");
		if (x->mask_source != cases[i].want || x->dma_mask.v != cases[i].mask ||
		    x->coherent_mask.v != cases[i].coherent || (x->mask_row != NULL) != cases[i].row)
			fail_msg("%s: mask_source %s mask %#" PRIx64 " coherent %#" PRIx64 " row %s", cases[i].name,
				 mask_source_to_string(x->mask_source), x->dma_mask.v, x->coherent_mask.v,
				 x->mask_row ? x->mask_row->source : "none");
		/* an assumed mask under a row says why the row did not decide */
		if (x->mask_row && x->mask_source == MASK_SOURCE_ASSUMED)
			assert_non_null(x->mask_why);
		report_done(&r);
		machine_done(&m);
	}
}

/* A platform device under "soc", whose dma-ranges map CPU 0x0-0x7fffffff 1:1 (a 2 GiB window). */
static struct device *add_platform_window(struct machine *m, const char *id, const char *driver)
{
	struct device *d = add(m, id, DEV_BUS_PLATFORM, driver, 1u << DMA_SIGN_NET);
	struct dt_info *dt = device_dt_new(d);

	assert_non_null(dt);
	dt->node = strdup("soc/usb@11201000");
	dt->node_is_device = true;
	dt->chain = calloc(3, sizeof(*dt->chain));
	assert_non_null(dt->node);
	assert_non_null(dt->chain);
	dt->n_chain = 3;
	dt->chain[0] = (struct dt_node){ .path = strdup("soc/usb@11201000"), .dma_ranges = DT_PROP_ABSENT,
					 .address_cells = 2, .size_cells = 2 };
	dt->chain[1] = (struct dt_node){ .path = strdup("soc"), .dma_ranges = DT_PROP_PRESENT,
					 .ranges = calloc(1, sizeof(struct dt_range)), .n_ranges = 1,
					 .address_cells = 2, .size_cells = 2 };
	dt->chain[2] = (struct dt_node){ .path = strdup(""), .address_cells = 2, .size_cells = 2 };
	assert_non_null(dt->chain[0].path);
	assert_non_null(dt->chain[1].path);
	assert_non_null(dt->chain[1].ranges);
	assert_non_null(dt->chain[2].path);
	dt->chain[1].ranges[0] = (struct dt_range){ .child = 0, .parent = 0, .size = 0x80000000 };
	return d;
}

/*
 * Behind a 2 GiB window, of_dma_configure_id() clips the bus default to 31 bits;
 * a mask the driver sets afterwards (dma_set_mask*) is not clipped, and a driver
 * that sets none (mtu3's "32 bits") keeps the clipped default.
 */
static void test_driver_mask_window(void **state)
{
	static const struct {
		const char *name;
		const char *driver;
		enum mask_line_kind kind;
		unsigned line_bits; /* 0: no line */
		uint64_t mask;
	} cases[] = {
		{ "mtu3 32 bits: none set, the clipped default", "mtu3", MASK_LINE_MTU3, 32, 0x7fffffff },
		{ "mtu3 36 bits: set after the clip", "mtu3", MASK_LINE_MTU3, 36, 0xfffffffff },
		{ "fec: 32 bits set after the clip", "fec", MASK_LINE_MTU3, 0, 0xffffffff },
		{ "sunxi-mmc: none set, the clipped default", "sunxi-mmc", MASK_LINE_MTU3, 0, 0x7fffffff },
		/* stmmac_dvr_probe() prints "Using 32/32" after dma_set_mask_and_coherent(32) */
		{ "stmmac 32 bits: set after the clip", "rk_gmac-dwmac", MASK_LINE_STMMAC, 32, 0xffffffff },
		/* dw_mmc's "32-bit address mode" follows no dma_set_mask */
		{ "dw_mmc 32 bits: none set, the clipped default", "dwmmc_rockchip", MASK_LINE_DW_MMC, 32, 0x7fffffff },
	};
	(void)state;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct machine m;
		struct report r;
		setup_virt(&m);
		set_release(&m, "6.12.9-arm64");
		add_platform_window(&m, "11201000.usb", cases[i].driver);
		if (cases[i].line_bits) {
			m.mask_lines = calloc(1, sizeof(*m.mask_lines));
			assert_non_null(m.mask_lines);
			m.mask_lines[0] = (struct mask_line){ strdup("11201000.usb"), cases[i].kind,
							      cases[i].line_bits, "boot log" };
			m.n_mask_lines = 1;
		}
		machine_sort_devices(&m);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		const struct device_report *x = report_of(&r, "11201000.usb");
		if (x->map.state != DMA_MAP_RANGES || x->mask_source != MASK_SOURCE_DRIVER ||
		    x->dma_mask.v != cases[i].mask)
			fail_msg("%s: map %d mask_source %s mask %#" PRIx64, cases[i].name, (int)x->map.state,
				 mask_source_to_string(x->mask_source), x->dma_mask.v);
		report_done(&r);
		machine_done(&m);
	}
}

static bool same_entry(const struct driver_mask_row *a, const struct driver_mask_row *b)
{
	return strcmp(a->driver, b->driver) == 0 &&
	       (a->compatible == b->compatible ||
		(a->compatible && b->compatible && strcmp(a->compatible, b->compatible) == 0));
}

static bool spans(const struct driver_mask_row *r, uint32_t release)
{
	return release >= r->since && (r->until == 0 || release < r->until);
}

/*
 * Every row cites a kernel file and says what decides. The rows of one
 * (driver, compatible): each decides at its own first release (no earlier row
 * spans it), and one that ends is followed by one spanning its end: no gap.
 */
static void test_driver_mask_rows(void **state)
{
	size_t n;
	const struct driver_mask_row *rows = driver_mask_rows(&n);
	(void)state;

	assert_true(n > 0);
	for (size_t i = 0; i < n; i++) {
		assert_non_null(strstr(rows[i].source, "drivers/"));
		assert_non_null(rows[i].why);
		assert_true(rows[i].since >= KV(5, 10, 0));
		assert_true(rows[i].until == 0 || rows[i].until > rows[i].since);
		if (rows[i].rule == DRIVER_MASK_FIXED)
			assert_true(rows[i].bits == 0 || (rows[i].bits >= 24 && rows[i].bits <= 64));
		bool continued = rows[i].until == 0;
		for (size_t j = 0; j < n; j++) {
			if (j == i || !same_entry(&rows[i], &rows[j]))
				continue;
			if (j < i && spans(&rows[j], rows[i].since))
				fail_msg("%s row %zu is shadowed at %#x by row %zu", rows[i].driver, i, rows[i].since, j);
			continued |= spans(&rows[j], rows[i].until);
		}
		if (!continued)
			fail_msg("%s row %zu ends at %#x and no row follows", rows[i].driver, i, rows[i].until);
	}
}

/* A row split by release: each side of each boundary finds its own row (its commit in the source). */
static void test_driver_mask_releases(void **state)
{
	static const struct {
		const char *release;
		const char *source; /* a substring of the row's source */
		const char *why;    /* a substring of what it says decides */
	} cases[] = {
		/* dwc3_probe(): no mask before 45d39448b4d0 (5.14) */
		{ "5.10.0-30-arm64", "no dma_set_mask* before 45d39448b4d0", "sets no mask before 5.14" },
		{ "5.13.19-arm64", "no dma_set_mask* before 45d39448b4d0", "sets no mask before 5.14" },
		{ "5.14.0-1-arm64", "(45d39448b4d0, 5.14; until 91062e663b26)", "sets 64 bits whatever" },
		/* 91062e663b26 (6.0) in stable 5.15.71 and 5.19.12: the stable rows decide there */
		{ "5.15.70-arm64", "(45d39448b4d0, 5.14; until 91062e663b26)", "sets 64 bits whatever" },
		{ "5.15.71-arm64", "91062e663b26 in stable 5.15.71", "only when GHWPARAMS0's AWIDTH is 64" },
		{ "5.15.180-arm64", "91062e663b26 in stable 5.15.71", "only when GHWPARAMS0's AWIDTH is 64" },
		{ "5.16.0-arm64", "(45d39448b4d0, 5.14; until 91062e663b26)", "sets 64 bits whatever" },
		{ "5.19.11-arm64", "(45d39448b4d0, 5.14; until 91062e663b26)", "sets 64 bits whatever" },
		{ "5.19.12-arm64", "91062e663b26 in stable 5.19.12", "only when GHWPARAMS0's AWIDTH is 64" },
		{ "6.0.0-arm64", "(91062e663b26, 6.0)", "only when GHWPARAMS0's AWIDTH is 64" },
		{ "6.1.0-27-arm64", "(91062e663b26, 6.0)", "only when GHWPARAMS0's AWIDTH is 64" },
		{ "7.0.4-arm64", "(91062e663b26, 6.0)", "only when GHWPARAMS0's AWIDTH is 64" },
	};
	(void)state;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct machine m;
		struct report r;
		setup_virt(&m);
		set_release(&m, cases[i].release);
		add(&m, "5200000.usb", DEV_BUS_PLATFORM, "dwc3", 1u << DMA_SIGN_USB_HOST);
		machine_sort_devices(&m);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		const struct device_report *x = report_of(&r, "5200000.usb");
		/* every side: the xHCI's HCCPARAMS1 still decides, the default assumed */
		if (!x->mask_row || !strstr(x->mask_row->source, cases[i].source) || !x->mask_why ||
		    !strstr(x->mask_why, cases[i].why) || x->mask_source != MASK_SOURCE_ASSUMED ||
		    x->dma_mask.v != 0xffffffff)
			fail_msg("dwc3 at %s: row %s, why %s, mask_source %s", cases[i].release,
				 x->mask_row ? x->mask_row->source : "none", x->mask_why ? x->mask_why : "none",
				 mask_source_to_string(x->mask_source));
		report_done(&r);
		machine_done(&m);
	}
}

/* A platform device's default mask: 32 bits from 3.13, none before; at an unknown release none assumed. */
static void test_unknown_release_platform_mask(void **state)
{
	struct machine m;
	struct report r;
	(void)state;

	setup_virt(&m);
	add(&m, "fe340000.mmc", DEV_BUS_PLATFORM, "sdhci-iproc", 1u << DMA_SIGN_DISK);
	machine_sort_devices(&m);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	assert_int_equal(report_of(&r, "fe340000.mmc")->mask_source, MASK_SOURCE_ASSUMED);
	report_done(&r);
	unset_release(&m);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	const struct device_report *d = report_of(&r, "fe340000.mmc");
	assert_int_equal(d->mask_source, MASK_SOURCE_NONE); /* was: assumed, 32 bits */
	assert_int_equal(d->verdict, VERDICT_UNKNOWN);      /* was: partial */
	assert_non_null(strstr(d->reason, "kernel release unknown"));
	report_done(&r);
	machine_done(&m);
}

/* A restricted-dma-pool is honoured from 5.15: at an unknown release the verdict is unknown. */
static void test_unknown_release_restricted_pool(void **state)
{
	struct machine m;
	struct report r;
	(void)state;

	setup_virt(&m);
	struct device *x = add(&m, "18000000.wifi", DEV_BUS_PLATFORM, "brcmfmac",
			       1u << DMA_SIGN_DT_MEMORY_REGION);
	struct dt_info *dt = device_dt_new(x);
	assert_non_null(dt);
	dt->restricted_pool = true;
	machine_sort_devices(&m);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	assert_int_equal(report_of(&r, "18000000.wifi")->verdict, VERDICT_FORCED);
	report_done(&r);
	unset_release(&m);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	const struct device_report *d = report_of(&r, "18000000.wifi");
	assert_int_equal(d->verdict, VERDICT_UNKNOWN); /* was: forced */
	assert_non_null(strstr(d->reason, "kernel release unknown"));
	report_done(&r);
	machine_done(&m);
}

/*
 * Forced through a pool out of reach fails (kernel/dma/swiotlb.c swiotlb_map():
 * dma_capable() of the slot taken), but a restricted-dma-pool is the device's
 * own io_tlb_mem (rmem_swiotlb_device_init), not the default pool: with the
 * default pool above 4 GiB and swiotlb=force, a 32-bit platform device fails and
 * the restricted-pool one stays forced.
 */
static void test_forced_pool_restricted_own(void **state)
{
	struct machine m;
	struct report r;
	(void)state;

	setup_virt(&m);
	opt_set(&m.swiotlb.pool_start, 0x200000000);
	opt_set(&m.swiotlb.pool_end, 0x204000000);
	m.cmd.swiotlb_force = true;
	m.cmd.swiotlb_last_word = SWIOTLB_WORD_FORCE; /* as readers/cmdline.c keeps it */
	struct device *x = add(&m, "18000000.wifi", DEV_BUS_PLATFORM, "brcmfmac",
			       1u << DMA_SIGN_DT_MEMORY_REGION);
	struct dt_info *dt = device_dt_new(x);
	assert_non_null(dt);
	dt->restricted_pool = true;
	add(&m, "fe340000.mmc", DEV_BUS_PLATFORM, "sdhci-iproc", 1u << DMA_SIGN_DISK);
	machine_sort_devices(&m);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	const struct device_report *w = report_of(&r, "18000000.wifi");
	const struct device_report *mmc = report_of(&r, "fe340000.mmc");
	assert_int_equal(mmc->dma_mask.v, 0xffffffff);
	assert_int_equal(mmc->verdict, VERDICT_FAILS);
	assert_int_equal(mmc->pool_reachable, TRI_NO);
	assert_int_equal(w->verdict, VERDICT_FORCED);
	assert_non_null(strstr(w->reason, "restricted-dma-pool"));
	assert_int_equal(w->pool_reachable, TRI_UNKNOWN);
	report_done(&r);
	machine_done(&m);
}

/* A Hyper-V isolated VM forces bouncing from 5.16: at an unknown release, unknown. */
static void test_unknown_release_hyperv(void **state)
{
	struct machine m;
	struct report r;
	(void)state;

	x86_pc(&m, "6.1.0");
	m.coco.log_hyperv_isolation = 3;
	add_plain_pci(&m, "0000:00:1f.2", "ahci", 64);
	machine_sort_devices(&m);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	assert_int_equal(report_of(&r, "0000:00:1f.2")->verdict, VERDICT_FORCED);
	report_done(&r);
	unset_release(&m);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	const struct device_report *d = report_of(&r, "0000:00:1f.2");
	assert_int_equal(d->verdict, VERDICT_UNKNOWN); /* was: forced */
	assert_non_null(strstr(d->reason, "kernel release unknown"));
	report_done(&r);
	machine_done(&m);
}

/*
 * removable unknown (unreadable, or "unknown") in a translated domain that
 * bounces an untrusted device's unaligned buffers (5.11+): unknown unless a
 * pool is known to take them.
 */
static void test_removable_unknown(void **state)
{
	static const struct {
		int removable;          /* -1: unknown (unreadable); -2: the file absent */
		bool pool;              /* a pool logged; else a log from boot without one */
		const char *release;
		enum verdict want;
	} cases[] = {
		{ -1, false, "6.1.0", VERDICT_UNKNOWN },  /* was: iommu, trusted */
		{ -1, true, "6.1.0", VERDICT_IOMMU },
		{ 0, false, "6.1.0", VERDICT_IOMMU },
		{ 1, false, "6.1.0", VERDICT_IOMMU },     /* untrusted: its finding says it fails */
		{ -1, false, "5.10.223", VERDICT_IOMMU }, /* Intel's own bounce page: not modelled */
		/* no removable file: fixed from 5.14 (c037b6c818c3), nothing said before */
		{ -2, false, "5.14.0", VERDICT_IOMMU },
		{ -2, false, "5.13.19", VERDICT_UNKNOWN }, /* was: iommu, absent read as fixed */
		{ -2, false, "5.11.22", VERDICT_UNKNOWN },
		{ -2, false, "", VERDICT_UNKNOWN },        /* release unknown: the older row */
		{ -2, true, "5.13.19", VERDICT_IOMMU },   /* a pool takes its bounces either way */
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct report r;
		x86_pc(&m, cases[i].release);
		m.iommu_groups_present = true;
		m.log_intel_iommu = true;
		m.kmsg_from_boot = true;
		if (cases[i].pool) {
			opt_set(&m.swiotlb.pool_start, 0xbbfe8000);
			opt_set(&m.swiotlb.pool_end, 0xbffe8000);
		}
		struct device *d = add_plain_pci(&m, "0000:2c:00.0", "nvme", 64);
		opt_set(&d->iommu_group, 4);
		d->iommu_domain = IOMMU_DOMAIN_DMA;
		if (cases[i].removable >= 0)
			opt_set(&d->removable, cases[i].removable == 1);
		d->removable_absent = cases[i].removable == -2;
		machine_sort_devices(&m);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		const struct device_report *x = report_of(&r, "0000:2c:00.0");
		if (x->verdict != cases[i].want)
			fail_msg("case %zu: %s (%s)", i, verdict_to_string(x->verdict), x->reason);
		if (cases[i].want == VERDICT_UNKNOWN)
			assert_non_null(strstr(x->reason, "removable"));
		report_done(&r);
		machine_done(&m);
	}
}

/* The finding of id about device (NULL: machine-wide), or NULL. */
static const struct finding *finding_of(const struct report *r, const char *id, const char *device)
{
	for (size_t i = 0; i < r->findings.n; i++) {
		const struct finding *x = &r->findings.v[i];
		if (strcmp(finding_id_to_string(x->id), id) == 0 &&
		    (device ? x->device && strcmp(x->device, device) == 0 : !x->device))
			return x;
	}
	return NULL;
}

/*
 * An unknown verdict is a warning that needs action, its remedy the cause's;
 * a device VFIO owns is info (this kernel maps none of its DMA); the
 * all-clear is withheld for a warning, not for the info.
 */
static void test_verdict_unknown_finding(void **state)
{
	static const struct {
		enum iommu_domain domain;
		bool mask;
		const char *release;
		enum severity sev;
		const char *remedy_has;
	} cases[] = {
		{ IOMMU_DOMAIN_NONE, false, "6.1.0", SEVERITY_WARNING, "--assume-mask" },
		{ IOMMU_DOMAIN_UNMANAGED, true, "6.1.0", SEVERITY_INFO, "owns the device" },
		{ IOMMU_DOMAIN_BLOCKED, true, "6.1.0", SEVERITY_INFO, "owns the device" },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct report r;
		x86_pc(&m, cases[i].release);
		struct device *d = add_plain_pci(&m, "0000:41:00.0", "vfio-pci", 32);
		if (!cases[i].mask)
			opt_clear(&d->dma_mask_bits);
		if (cases[i].domain != IOMMU_DOMAIN_NONE) {
			m.iommu_groups_present = true;
			opt_set(&d->iommu_group, 7);
			d->iommu_domain = cases[i].domain;
		}
		machine_sort_devices(&m);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		const struct device_report *x = report_of(&r, "0000:41:00.0");
		assert_int_equal(x->verdict, VERDICT_UNKNOWN);
		const struct finding *f = finding_of(&r, "verdict-unknown", "0000:41:00.0");
		if (!f)
			fail_msg("case %zu: no verdict-unknown", i);
		assert_int_equal(f->severity, cases[i].sev);
		if (!strstr(f->remedy, cases[i].remedy_has))
			fail_msg("case %zu: remedy \"%s\"", i, f->remedy);
		assert_int_equal(device_needs_action(x), cases[i].sev >= SEVERITY_WARNING);
		assert_int_equal(report_all_clear(&r), cases[i].sev < SEVERITY_WARNING);
		assert_int_equal(r.exit_status, cases[i].sev >= SEVERITY_WARNING ? EXIT_FINDINGS : EXIT_CLEAN);
		report_done(&r);
		machine_done(&m);
	}
}

/*
 * The device lists: a bus directory not listed (EACCES) hides its devices;
 * none at all is a masked /sys; an absent bus beside a listed one is fine.
 */
static void test_devices_not_visible(void **state)
{
	static const struct {
		int pci, platform;  /* errno of the listing, -1: not tried */
		size_t want;        /* devices-not-visible findings */
		bool clear;
	} cases[] = {
		{ 0, ENOENT, 0, true },        /* x86: PCI listed, no platform dir in the tree */
		{ ENOENT, 0, 0, true },        /* a board: no PCI bus, the platform bus listed */
		{ ENOENT, ENOENT, 1, false },  /* a masked /sys */
		{ EACCES, 0, 1, false },       /* PCI hidden, platform listed */
		{ EMFILE, ENOENT, 1, false },  /* PCI unlistable, not also "no bus at all" */
		{ -1, -1, 0, true },           /* no reader ran (a unit-test machine) */
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct report r;
		x86_pc(&m, "6.1.0");
		if (cases[i].pci >= 0)
			m.buses[DEV_BUS_PCI] = (struct bus_listing){ .tried = true, .err = cases[i].pci };
		if (cases[i].platform >= 0) {
			m.buses[DEV_BUS_PLATFORM] = (struct bus_listing){ .tried = true, .err = cases[i].platform };
			m.buses[DEV_BUS_AMBA] = (struct bus_listing){ .tried = true, .err = ENOENT };
		}
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		size_t n = 0;
		for (size_t k = 0; k < r.findings.n; k++)
			n += r.findings.v[k].id == FINDING_DEVICES_NOT_VISIBLE;
		if (n != cases[i].want || report_all_clear(&r) != cases[i].clear)
			fail_msg("case %zu: %zu findings, all_clear %d", i, n, report_all_clear(&r));
		if (cases[i].pci > 0 && cases[i].pci != ENOENT) {
			const struct finding *f = finding_of(&r, "devices-not-visible", NULL);
			assert_non_null(strstr(f->message, "sys/bus/pci/devices"));
		}
		report_done(&r);
		machine_done(&m);
	}
}

/*
 * no-bounce-pool: no pool and RAM above 4 GiB (3 GiB here) warns of the
 * next 32-bit device, unless an IOMMU translates every device; a pool, or
 * no RAM above 4 GiB, says nothing.
 */
static void test_no_bounce_pool(void **state)
{
	static const struct {
		const char *cmdline;
		bool translated;
		size_t want;
	} cases[] = {
		{ "root=/dev/sda1 swiotlb=noforce", false, 1 },
		{ "root=/dev/sda1 swiotlb=noforce", true, 0 },
		{ "root=/dev/sda1", false, 0 },  /* the pool the log shows */
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct report r;
		x86_pc(&m, "6.1.0");
		m.cmdline = strdup(cases[i].cmdline);
		m.cmd.swiotlb_noforce = strstr(cases[i].cmdline, "noforce") != NULL;
		m.kmsg_from_boot = true;
		if (!m.cmd.swiotlb_noforce) {
			opt_set(&m.swiotlb.pool_start, 0xbbfe8000);
			opt_set(&m.swiotlb.pool_end, 0xbffe8000);
		}
		struct device *d = add_plain_pci(&m, "0000:01:00.0", "nvme", 64);
		if (cases[i].translated) {
			m.iommu_groups_present = true;
			opt_set(&d->iommu_group, 1);
			d->iommu_domain = IOMMU_DOMAIN_DMA;
		}
		machine_sort_devices(&m);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		const struct finding *f = finding_of(&r, "no-bounce-pool", NULL);
		if ((f != NULL) != (cases[i].want == 1))
			fail_msg("case %zu: no-bounce-pool %s", i, f ? "raised" : "not raised");
		if (f) {
			assert_int_equal(f->severity, SEVERITY_INFO);
			assert_non_null(strstr(f->message, "3 GiB of RAM lies above 4 GiB"));
			assert_true(report_all_clear(&r)); /* info: nothing fails today */
		}
		report_done(&r);
		machine_done(&m);
	}
}

/* The u64 evidence key of x; fails the test when x lacks it. */
static uint64_t evidence_u64(const struct finding *x, const char *key)
{
	for (size_t i = 0; i < x->n_evidence; i++)
		if (strcmp(x->evidence[i].key, key) == 0)
			return x->evidence[i].u;
	fail_msg("%s: no evidence %s", finding_id_to_string(x->id), key);
	return 0;
}

/* Whether x has the evidence key. */
static bool has_evidence(const struct finding *x, const char *key)
{
	for (size_t i = 0; i < x->n_evidence; i++)
		if (strcmp(x->evidence[i].key, key) == 0)
			return true;
	return false;
}

/*
 * A 32-bit ARM board with an MMC host and its disk: RAM at ram, lowmem to
 * low_end_pfn (highmem above it when below RAM's end), mask (0: none, the
 * driver leaves BLK_BOUNCE_HIGH; no_device: no device at all).
 */
static int arm_mmc_board(struct machine *m, struct report *r, const char *release,
			 const struct ram_range *ram, uint64_t low_end_pfn, uint64_t mask, bool no_device)
{
	uint64_t base = ram->start >> 12, end = (ram->end + 1) >> 12;

	new_machine(m, "armv7l", release, ram, 1);
	m->zoneinfo_ok = true;
	add_zone(m, "Normal", base, low_end_pfn - base);
	if (low_end_pfn < end)
		add_zone(m, "HighMem", low_end_pfn, end - low_end_pfn);
	if (!no_device) {
		add(m, "c8000000.mmc", DEV_BUS_PLATFORM, "mmc-test", 1u << DMA_SIGN_DISK);
		machine_sort_devices(m);
		add_disk(m, "mmcblk0", "c8000000.mmc");
	}
	const struct assumed_mask am = { "c8000000.mmc", mask };
	const struct report_options o = { .fail_on = SEVERITY_WARNING, .masks = &am, .n_masks = mask ? 1 : 0 };
	return report_build_with(m, &o, r);
}

/*
 * What the count reading of max_low_pfn costs a queue (issue 38): figures by
 * hand from the 2013 report's boards, each condition on both sides.
 */
static void test_confusion_cost(void **state)
{
	static const struct ram_range ram_2g = { 0x40000000, 0xbfffffff };   /* PFN 0x40000-0xbffff */
	static const struct ram_range ram_256m = { 0xc0000000, 0xcfffffff }; /* PFN 0xc0000-0xcffff */
	struct machine m;
	struct report r;
	const struct finding *x;
	(void)state;

	/* 3.3, no mask (BLK_BOUNCE_HIGH), lowmem to 0x6f800: the count 0x2f800 bounces every
	 * page (0x80000), the PFN only 0x6f800-0xbffff (0x50800): 0x2f800 pages only for the count */
	assert_int_equal(arm_mmc_board(&m, &r, "3.3.0", &ram_2g, 0x6f800, 0, false), 0);
	const struct device_report *d = report_of(&r, "c8000000.mmc");
	assert_false(d->dma_mask.known);
	assert_int_equal(d->verdict, VERDICT_PARTIAL);
	assert_int_equal(device_legacy(d)->count_reading_only_bytes, 0x2f800ull * 4096);
	assert_int_equal(device_legacy(d)->count_reading_missed_bytes, 0);
	assert_true(r.confusion.applies && r.confusion.highmem && r.confusion.bounce_high_differs);
	assert_int_equal(r.confusion.devices, 1);
	assert_int_equal(r.confusion.devices_differ, 1);
	assert_int_equal(r.confusion.count_reading_only_bytes, 0x2f800ull * 4096);
	x = finding_of(&r, "pfn-count-confusion", "c8000000.mmc");
	assert_non_null(x);
	assert_int_equal(x->severity, SEVERITY_WARNING);
	assert_int_equal(evidence_u64(x, "count_reading_only_bytes"), 0x2f800ull * 4096);
	assert_int_equal(evidence_u64(x, "bounce_bytes_as_count"), 0x80000ull * 4096);
	assert_int_equal(evidence_u64(x, "bounce_bytes_as_pfn"), 0x50800ull * 4096);
	assert_non_null(strstr(x->message, "760 MiB of the 2 GiB this device's queue bounces"));
	assert_non_null(finding_of(&r, "pfn-count-confusion", NULL)); /* the machine-wide STORED */
	assert_int_equal(finding_of(&r, "pfn-count-confusion", NULL)->severity, SEVERITY_WARNING);
	report_done(&r);
	machine_done(&m);

	/* 3.10, 256 MiB, no highmem, mask 0xc3ffffff: the count's b_pfn 0xc3fff >= blk_max_pfn
	 * 0xffff returns early; the PFN's ISA path bounces 0xc4000-0xcffff (0xc000 pages) */
	assert_int_equal(arm_mmc_board(&m, &r, "3.10.0", &ram_256m, 0xd0000, 0xc3ffffff, false), 0);
	d = report_of(&r, "c8000000.mmc");
	assert_int_equal(device_legacy(d)->count_reading_only_bytes, 0);
	assert_int_equal(device_legacy(d)->count_reading_missed_bytes, 0xc000ull * 4096);
	assert_false(r.confusion.highmem || r.confusion.bounce_high_differs);
	assert_int_equal(r.confusion.devices_differ, 1);
	x = finding_of(&r, "pfn-count-confusion", "c8000000.mmc");
	assert_non_null(x);
	assert_int_equal(evidence_u64(x, "count_reading_missed_bytes"), 0xc000ull * 4096);
	assert_non_null(strstr(x->message, "192 MiB of RAM goes unbounced on this device's queue"));
	assert_null(finding_of(&r, "pfn-count-confusion", NULL)); /* a queue differs: not "no queue" */
	report_done(&r);
	machine_done(&m);

	/* the other side: 3.13 keeps the PFN (26ba47b18318). Mask 0x3ffffff, dma_max_pfn() =
	 * 0xc0000 + 0x3fff = 0xc3fff: the readings still differ (count: early return, 0;
	 * PFN: ISA path, 0xc000 pages), but none of it is this kernel's cost */
	assert_int_equal(arm_mmc_board(&m, &r, "3.13.0", &ram_256m, 0xd0000, 0x3ffffff, false), 0);
	d = report_of(&r, "c8000000.mmc");
	assert_int_equal(device_legacy(d)->by_reading[MAX_LOW_PFN_COUNT].bounce_bytes, 0);
	assert_int_equal(device_legacy(d)->by_reading[MAX_LOW_PFN_PFN].bounce_bytes, 0xc000ull * 4096);
	assert_int_equal(device_legacy(d)->count_reading_only_bytes, 0);
	assert_int_equal(device_legacy(d)->count_reading_missed_bytes, 0);
	assert_false(r.confusion.applies);
	x = finding_of(&r, "pfn-count-confusion", "c8000000.mmc");
	assert_non_null(x);
	assert_int_equal(x->severity, SEVERITY_INFO); /* harmless: the PFN is kept */
	assert_false(has_evidence(x, "count_reading_missed_bytes"));
	assert_null(finding_of(&r, "pfn-count-confusion", NULL));
	report_done(&r);
	machine_done(&m);

	/* mask 0x3ffffff on 3.10 (the mask itself): b_pfn 0x3fff below both blk_max_low_pfn
	 * (0xffff, 0xcffff), the ISA path under both, all 0x10000 pages bounce either way:
	 * it applies and changes nothing */
	assert_int_equal(arm_mmc_board(&m, &r, "3.10.0", &ram_256m, 0xd0000, 0x3ffffff, false), 0);
	d = report_of(&r, "c8000000.mmc");
	assert_int_equal(device_legacy(d)->by_reading[MAX_LOW_PFN_COUNT].bounce_bytes, 0x10000ull * 4096);
	assert_int_equal(device_legacy(d)->count_reading_only_bytes + device_legacy(d)->count_reading_missed_bytes, 0);
	assert_true(r.confusion.applies);
	assert_int_equal(r.confusion.devices, 1);
	assert_int_equal(r.confusion.devices_differ, 0);
	assert_null(finding_of(&r, "pfn-count-confusion", "c8000000.mmc"));
	x = finding_of(&r, "pfn-count-confusion", NULL);
	assert_non_null(x);
	assert_int_equal(x->severity, SEVERITY_INFO);
	assert_non_null(strstr(x->message, "with no high memory"));
	/* no highmem: max_low_pfn == max_pfn, so bounce_pfn 0xffff (count), 0xcffff (PFN) */
	assert_int_equal(evidence_u64(x, "bounce_pfn_as_count"), 0xffff);
	assert_int_equal(evidence_u64(x, "bounce_pfn_as_pfn"), 0xcffff);
	assert_int_equal(evidence_u64(x, "disk_devices"), 1);
	report_done(&r);
	machine_done(&m);

	/* no device at all: still said, with no disk */
	assert_int_equal(arm_mmc_board(&m, &r, "3.10.0", &ram_256m, 0xd0000, 0, true), 0);
	x = finding_of(&r, "pfn-count-confusion", NULL);
	assert_non_null(x);
	assert_int_equal(evidence_u64(x, "disk_devices"), 0);
	report_done(&r);
	machine_done(&m);

	/* the same mask with highmem (2 GiB board): BLK_BOUNCE_HIGH differs, the machine-wide
	 * warning says so, and no "changes nothing" info; the queue itself agrees */
	assert_int_equal(arm_mmc_board(&m, &r, "3.10.0", &ram_2g, 0x6f800, 0x3ffffff, false), 0);
	assert_true(r.confusion.bounce_high_differs);
	assert_int_equal(r.confusion.devices_differ, 0);
	x = finding_of(&r, "pfn-count-confusion", NULL);
	assert_non_null(x);
	assert_int_equal(x->severity, SEVERITY_WARNING);
	assert_null(strstr(x->message, "changes no queue's"));
	report_done(&r);
	machine_done(&m);
}

/*
 * An ACPI IORT is arm64's alone (drivers/acpi/arm64/iort.c): with the
 * architecture unknown its root complex's limit still applies, not none.
 */
static void test_iort_arch_unknown(void **state)
{
	static struct iort_node rc = { .type = IORT_NODE_ROOT_COMPLEX, .revision = 1, .limit_bits = 32 };
	static const char *const arches[] = { "aarch64", "" };
	(void)state;

	for (size_t i = 0; i < sizeof(arches) / sizeof(*arches); i++) {
		struct machine m;
		struct report r;
		x86_pc(&m, "6.1.0");
		free(m.arch.value);
		m.arch.value = strdup(arches[i]);
		assert_non_null(m.arch.value);
		m.arch_info = arch_lookup(m.arch.value);
		m.iort_read = true;
		m.iort = &rc;
		m.n_iort = 1;
		add_plain_pci(&m, "0000:00:01.0", "ahci", 64);
		machine_sort_devices(&m);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		const struct device_report *d = report_of(&r, "0000:00:01.0");
		assert_true(d->map.from_iort); /* was, arch unknown: no map, direct */
		assert_int_equal(d->limit, 0xffffffff);
		assert_int_not_equal(d->verdict, VERDICT_DIRECT);
		report_done(&r);
		m.iort = NULL;
		m.n_iort = 0;
		machine_done(&m);
	}
}

/* Xen without guest_type (before 4.12): a PV domU is not ruled out. */
static void test_xen_guest_type_unknown(void **state)
{
	static const struct {
		enum xen_guest_type type;
		enum verdict want;
	} cases[] = {
		{ XEN_GUEST_HVM, VERDICT_PARTIAL },
		{ XEN_GUEST_UNKNOWN, VERDICT_UNKNOWN }, /* was: partial, as HVM */
		{ XEN_GUEST_OTHER, VERDICT_UNKNOWN },   /* was: partial */
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct report r;
		x86_pc(&m, "6.1.0");
		m.hyp.type = HYPERVISOR_XEN;
		m.hyp.xen_guest_type = cases[i].type;
		add_plain_pci(&m, "0000:00:1f.2", "ahci", 32);
		machine_sort_devices(&m);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		const struct device_report *d = report_of(&r, "0000:00:1f.2");
		assert_int_equal(d->verdict, cases[i].want);
		if (cases[i].want == VERDICT_UNKNOWN)
			assert_non_null(strstr(d->reason, "type is unknown"));
		report_done(&r);
		machine_done(&m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_platform_needs_a_sign),
		cmocka_unit_test(test_iommu_unit),
		cmocka_unit_test(test_usb_storage_refused),
		cmocka_unit_test(test_idle_pci_raises_nothing),
		cmocka_unit_test(test_idle_keeps_logged_overflow),
		cmocka_unit_test(test_window_unchecked_disk),
		cmocka_unit_test(test_pool_placement_derived),
		cmocka_unit_test(test_arm_lpae_from_log),
		cmocka_unit_test(test_highmem_net_lowmem_only),
		cmocka_unit_test(test_pool_end_at_limit),
		cmocka_unit_test(test_pool_existence_unknown),
		cmocka_unit_test(test_pool_bound_at_reach),
		cmocka_unit_test(test_window_bus_limit),
		cmocka_unit_test(test_noforce_slab_unused),
		cmocka_unit_test(test_scsi_bounce_limit),
		cmocka_unit_test(test_platform_own_window),
		cmocka_unit_test(test_sme_cbit),
		cmocka_unit_test(test_virtio_under_xen),
		cmocka_unit_test(test_intel_identity_fallback),
		cmocka_unit_test(test_untrusted_era),
		cmocka_unit_test(test_lowmem_net_edge),
		cmocka_unit_test(test_arm_pool_proves_dma_direct),
		cmocka_unit_test(test_s390_pci_ops_only_s390),
		cmocka_unit_test(test_unknown_release_arm),
		cmocka_unit_test(test_unknown_release_window),
		cmocka_unit_test(test_unknown_release_platform_mask),
		cmocka_unit_test(test_driver_masks),
		cmocka_unit_test(test_driver_mask_rows),
		cmocka_unit_test(test_driver_mask_releases),
		cmocka_unit_test(test_driver_mask_window),
		cmocka_unit_test(test_unknown_release_restricted_pool),
		cmocka_unit_test(test_unknown_release_hyperv),
		cmocka_unit_test(test_forced_pool_restricted_own),
		cmocka_unit_test(test_removable_unknown),
		cmocka_unit_test(test_verdict_unknown_finding),
		cmocka_unit_test(test_devices_not_visible),
		cmocka_unit_test(test_no_bounce_pool),
		cmocka_unit_test(test_confusion_cost),
		cmocka_unit_test(test_xen_guest_type_unknown),
		cmocka_unit_test(test_iort_arch_unknown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
