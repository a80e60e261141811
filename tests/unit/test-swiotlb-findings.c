/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Findings about what one swiotlb bounce can hold and where the pool is,
 * through report_build on hand-made machines:
 * bounce-mapping-too-large, swiotlb-out-of-reach from the kernel log, and
 * swiotlb-pressure with a dynamic pool.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shortcuts.h"
#include "analysis/report.h"

#define KiB 1024ull

/* An x86_64 PC: RAM to 0x63fffffff (5.25 GiB above 4 GiB), the pool at 0xbbfe8000. */
static void setup_pc(struct machine *m, const char *release)
{
	static const struct ram_range ram[] = { { 0x1000, 0x9fbff },
						{ 0x100000, 0xbfffffff },
						{ 0x100000000, 0x63fffffff } };

	machine_init(m);
	m->page_size = 4096;
	m->arch.value = strdup("x86_64");
	m->arch_info = arch_lookup(m->arch.value);
	m->release.value = strdup(release);
	m->ram = malloc(sizeof(ram));
	assert_non_null(m->arch.value);
	assert_non_null(m->release.value);
	assert_non_null(m->ram);
	memcpy(m->ram, ram, sizeof(ram));
	m->n_ram = 3;
	m->iomem_ok = true;
	opt_set(&m->swiotlb.pool_start, 0xbbfe8000);
	opt_set(&m->swiotlb.pool_end, 0xbffe8000);
}

static void add_pci(struct machine *m, const char *id, const char *driver, int mask_bits)
{
	struct device *d = machine_add_device(m);

	assert_non_null(d);
	d->id = strdup(id);
	d->driver = driver ? strdup(driver) : NULL;
	d->bus = DEV_BUS_PCI;
	opt_set(&d->dma_mask_bits, mask_bits);
	opt_set(&d->coherent_mask_bits, mask_bits);
	d->have_pci_ids = true;
	d->class_code = 0x010800;
	opt_clear(&d->iommu_group);
	opt_clear(&d->virtio_access_platform);
	assert_non_null(d->id);
}

/* A disk of device id (machine_sort_devices() done) with these queue limits; -1 absent. */
static void add_disk(struct machine *m, const char *disk, const char *id, int64_t max_segment_size,
		     int64_t max_hw_sectors_kb)
{
	const struct device *d = machine_find_device(m, id);
	struct block_queue *q = machine_add_block(m);

	assert_non_null(d);
	assert_non_null(q);
	q->disk = strdup(disk);
	q->dma_device = strdup(id);
	assert_non_null(q->disk);
	assert_non_null(q->dma_device);
	opt_set(&q->dev_index, (size_t)(d - m->devices));
	if (max_segment_size >= 0)
		opt_set(&q->max_segment_size, max_segment_size);
	if (max_hw_sectors_kb >= 0)
		opt_set(&q->max_hw_sectors_kb, max_hw_sectors_kb);
}

static const struct device_report *report_of(const struct report *r, const char *id)
{
	for (size_t i = 0; i < r->devices.n_devices; i++)
		if (strcmp(r->devices.devices[i].dev->id, id) == 0)
			return &r->devices.devices[i];
	fail_msg("no report for %s", id);
	return NULL;
}

/* The findings named id about device (NULL: machine-wide); *ret_n how many. */
static const struct finding *find(const struct report *r, const char *id, const char *device,
				  size_t *ret_n)
{
	const struct finding *first = NULL;
	size_t n = 0;

	for (size_t i = 0; i < r->findings.n; i++) {
		const struct finding *x = &r->findings.v[i];
		if (strcmp(finding_id_to_string(x->id), id) != 0)
			continue;
		if (device ? !x->device || strcmp(x->device, device) != 0 : x->device != NULL)
			continue;
		if (!first)
			first = x;
		n++;
	}
	if (ret_n)
		*ret_n = n;
	return first;
}

static const struct evidence *ev(const struct finding *x, const char *key)
{
	for (size_t i = 0; x && i < x->n_evidence; i++)
		if (strcmp(x->evidence[i].key, key) == 0)
			return &x->evidence[i];
	return NULL;
}

/* The evidence key of x, which must be there. */
static const struct evidence *ev_must(const struct finding *x, const char *key)
{
	static const struct evidence none = { .key = "", .s = (char *)"" };
	const struct evidence *e = ev(x, key);
	if (!e) {
		fail_msg("no evidence %s", key);
		return &none;
	}
	return e;
}

static uint64_t ev_u(const struct finding *x, const char *key)
{
	return ev_must(x, key)->u;
}

static const char *ev_s(const struct finding *x, const char *key)
{
	const char *s = ev_must(x, key)->s;
	return s ? s : "";
}

/* A 32-bit device bounces RAM above 4 GiB: a queue allowing more than 256 KiB fails. */
static void test_partial_segment_too_large(void **state)
{
	struct machine m;
	struct report r;
	size_t n;

	(void)state;
	setup_pc(&m, "6.1.0-27-amd64");
	add_pci(&m, "0000:02:00.0", "sdhci-pci", 32);  /* 512 KiB segments, two disks */
	add_pci(&m, "0000:03:00.0", "sdhci-pci", 32);  /* capped at 256 KiB */
	add_pci(&m, "0000:04:00.0", "nvme", 64);       /* direct: any segment is fine */
	add_pci(&m, "0000:05:00.0", "ahci", 32);       /* limits absent: nothing guessed */
	add_pci(&m, "0000:06:00.0", "ahci", 32);       /* max_hw_sectors_kb decides: 128 KiB */
	machine_sort_devices(&m);
	add_disk(&m, "mmcblk0", "0000:02:00.0", 524288, 512);
	add_disk(&m, "mmcblk1", "0000:02:00.0", 4294967295, 1024);
	add_disk(&m, "mmcblk2", "0000:03:00.0", 262144, 256);
	add_disk(&m, "nvme0n1", "0000:04:00.0", 4294967295, 2048);
	add_disk(&m, "sda", "0000:05:00.0", -1, 32767);
	add_disk(&m, "sdb", "0000:05:00.0", 4294967295, -1);
	add_disk(&m, "sdc", "0000:06:00.0", 4294967295, 128);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);

	assert_int_equal(report_of(&r, "0000:02:00.0")->verdict, VERDICT_PARTIAL);
	const struct finding *x = find(&r, "bounce-mapping-too-large", "0000:02:00.0", &n);
	assert_int_equal(n, 1);
	assert_int_equal(x->severity, SEVERITY_ERROR);
	/* the disk with the largest segment names it; both are counted */
	assert_string_equal(ev_s(x, "disk"), "mmcblk1");
	assert_int_equal(ev_u(x, "segment_bytes"), 1024 * KiB);
	assert_int_equal(ev_u(x, "max_segment_size"), 4294967295ull);
	assert_int_equal(ev_u(x, "max_hw_sectors_kb"), 1024);
	assert_int_equal(ev_u(x, "swiotlb_max_mapping_bytes"), 256 * KiB);
	assert_int_equal(ev_u(x, "disks"), 2);
	/* 6.1: swiotlb_max_mapping_size() subtracts the min_align_mask the tool cannot see */
	assert_non_null(strstr(ev_s(x, "swiotlb_max_mapping"), "upper bound"));
	assert_non_null(strstr(x->message, "mmcblk1"));

	assert_int_equal(report_of(&r, "0000:03:00.0")->verdict, VERDICT_PARTIAL);
	find(&r, "bounce-mapping-too-large", "0000:03:00.0", &n);
	assert_int_equal(n, 0);
	assert_int_equal(report_of(&r, "0000:04:00.0")->verdict, VERDICT_DIRECT);
	find(&r, "bounce-mapping-too-large", "0000:04:00.0", &n);
	assert_int_equal(n, 0);
	find(&r, "bounce-mapping-too-large", "0000:05:00.0", &n);
	assert_int_equal(n, 0);
	find(&r, "bounce-mapping-too-large", "0000:06:00.0", &n);
	assert_int_equal(n, 0);
	report_done(&r);
	machine_done(&m);
}

/* Forced bouncing: every mapping is a bounce, whatever the mask; 4.19 knew no min_align_mask. */
static void test_forced_segment_too_large(void **state)
{
	struct machine m;
	struct report r;
	size_t n;

	(void)state;
	setup_pc(&m, "4.19.0-27-amd64");
	m.cmd.swiotlb_force = true;
	m.cmd.swiotlb_last_word = SWIOTLB_WORD_FORCE; /* as readers/cmdline.c keeps it */
	add_pci(&m, "0000:00:04.0", "nvme", 64);
	add_pci(&m, "0000:00:05.0", "nvme", 64);
	machine_sort_devices(&m);
	add_disk(&m, "nvme0n1", "0000:00:04.0", 4294967295, 512);
	add_disk(&m, "nvme1n1", "0000:00:05.0", 4294967295, 128);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);

	assert_int_equal(report_of(&r, "0000:00:04.0")->verdict, VERDICT_FORCED);
	const struct finding *x = find(&r, "bounce-mapping-too-large", "0000:00:04.0", &n);
	assert_int_equal(n, 1);
	assert_int_equal(ev_u(x, "segment_bytes"), 512 * KiB);
	assert_null(ev(x, "disks"));
	assert_non_null(strstr(ev_s(x, "swiotlb_max_mapping"), "exact"));
	assert_int_equal(report_of(&r, "0000:00:05.0")->verdict, VERDICT_FORCED);
	find(&r, "bounce-mapping-too-large", "0000:00:05.0", &n);
	assert_int_equal(n, 0);
	report_done(&r);
	machine_done(&m);

	/* without swiotlb=force the same nvme is direct: no finding */
	setup_pc(&m, "4.19.0-27-amd64");
	add_pci(&m, "0000:00:04.0", "nvme", 64);
	machine_sort_devices(&m);
	add_disk(&m, "nvme0n1", "0000:00:04.0", 4294967295, 512);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	assert_int_equal(report_of(&r, "0000:00:04.0")->verdict, VERDICT_DIRECT);
	find(&r, "bounce-mapping-too-large", "0000:00:04.0", &n);
	assert_int_equal(n, 0);
	report_done(&r);
	machine_done(&m);
}

static void add_pool_overflow(struct machine *m, const char *device, uint64_t addr, uint64_t mask)
{
	struct dma_overflow *v = reallocarray(m->pool_overflows, m->n_pool_overflows + 1, sizeof(*v));

	assert_non_null(v);
	m->pool_overflows = v;
	v[m->n_pool_overflows++] = (struct dma_overflow){
		.device = device ? strdup(device) : NULL, .addr = addr, .size = 4096, .mask = mask,
	};
}

/* "swiotlb addr ... overflow" in the log: swiotlb-out-of-reach on that device, once. */
static void test_pool_overflow_logged(void **state)
{
	struct machine m;
	struct report r;
	size_t n;

	(void)state;
	setup_pc(&m, "6.12.38+deb13-amd64");
	add_pci(&m, "0000:03:00.0", "b43-pci-bridge", 30); /* the pool at 0xbbfe8000 is beyond 1 GiB */
	add_pci(&m, "0000:04:00.0", "ahci", 32);           /* reaches the pool, says the prediction */
	add_pci(&m, "0000:05:00.0", NULL, 30);             /* idle now */
	machine_sort_devices(&m);
	add_pool_overflow(&m, "0000:03:00.0", 0xbbfe8000, 0x3fffffff);
	add_pool_overflow(&m, "0000:03:00.0", 0xbbfe9000, 0x3fffffff);
	add_pool_overflow(&m, "0000:04:00.0", 0xbbfe8000, 0xffffffff);
	add_pool_overflow(&m, "0000:05:00.0", 0xbbfe8000, 0x3fffffff);
	add_pool_overflow(&m, "0000:99:00.0", 0xbbfe8000, 0xffffff);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);

	/* predicted and logged: one finding with both sets of numbers */
	assert_int_equal(report_of(&r, "0000:03:00.0")->verdict, VERDICT_FAILS);
	const struct finding *x = find(&r, "swiotlb-out-of-reach", "0000:03:00.0", &n);
	assert_int_equal(n, 1);
	assert_int_equal(x->severity, SEVERITY_ERROR);
	assert_int_equal(ev_u(x, "pool_start"), 0xbbfe8000);
	assert_int_equal(ev_u(x, "limit"), 0x3fffffff);
	assert_int_equal(ev_u(x, "addr"), 0xbbfe8000); /* the first line */
	assert_int_equal(ev_u(x, "size"), 4096);
	assert_int_equal(ev_u(x, "mask"), 0x3fffffff);
	assert_int_equal(ev_u(x, "bus_limit"), 0);
	assert_int_equal(ev_u(x, "log_lines"), 2);

	/* logged only: the log is proof the prediction missed */
	x = find(&r, "swiotlb-out-of-reach", "0000:04:00.0", &n);
	assert_int_equal(n, 1);
	assert_null(ev(x, "pool_start"));
	assert_int_equal(ev_u(x, "mask"), 0xffffffff);
	assert_int_equal(ev_u(x, "log_lines"), 1);
	assert_non_null(strstr(x->message, "kernel log"));

	/* a fact about the past: kept for an idle device */
	assert_int_equal(report_of(&r, "0000:05:00.0")->verdict, VERDICT_IDLE);
	find(&r, "swiotlb-out-of-reach", "0000:05:00.0", &n);
	assert_int_equal(n, 1);

	/* a device the audit does not know: machine-wide, under the logged name */
	x = find(&r, "swiotlb-out-of-reach", "0000:99:00.0", &n);
	assert_int_equal(n, 1);
	assert_int_equal(ev_u(x, "mask"), 0xffffff);
	report_done(&r);
	machine_done(&m);
}

static void set_debugfs(struct machine *m, uint64_t nslabs, uint64_t hiwater, bool transient)
{
	opt_set(&m->swiotlb.nslabs, nslabs);
	opt_set(&m->swiotlb.used, 0);
	opt_set(&m->swiotlb.hiwater, hiwater);
	if (transient)
		opt_set(&m->swiotlb.transient, 256);
}

/* n "swiotlb buffer is full" lines, as readers/kmsg.c keeps them; a total of -1: the short form. */
static void add_full(struct machine *m, unsigned n, const char *device, uint64_t size, int64_t total,
		     uint64_t used)
{
	for (unsigned i = 0; i < n; i++) {
		struct swiotlb_full *v = realloc(m->swiotlb_full, (m->n_swiotlb_full + 1) * sizeof(*v));
		assert_non_null(v);
		m->swiotlb_full = v;
		struct swiotlb_full *l = &v[m->n_swiotlb_full++];
		*l = (struct swiotlb_full){ .device = device ? strdup(device) : NULL };
		opt_set(&l->size, size);
		if (total >= 0) {
			opt_set(&l->total, (uint64_t)total);
			opt_set(&l->used, used);
		}
		m->swiotlb.full_messages++;
	}
}

/* 6.6+ CONFIG_SWIOTLB_DYNAMIC: a full pool grows, so a high-water mark is info. */
static void test_pressure_dynamic(void **state)
{
	struct machine m;
	struct report r;
	size_t n;

	(void)state;
	setup_pc(&m, "6.12.38+deb13-amd64");
	set_debugfs(&m, 32768, 32700, true);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	const struct finding *x = find(&r, "swiotlb-pressure", NULL, &n);
	assert_int_equal(n, 1);
	assert_int_equal(x->severity, SEVERITY_INFO);
	assert_int_equal(ev_must(x, "dynamic")->type, EVIDENCE_BOOL);
	assert_int_equal(ev_u(x, "dynamic"), 1);
	assert_int_equal(ev_u(x, "transient_bytes"), 256 * 2048);
	assert_non_null(strstr(x->message, "grows"));
	assert_int_equal(r.exit_status, EXIT_CLEAN);
	report_done(&r);
	machine_done(&m);

	/* the same counters without io_tlb_transient_nslabs: a warning, dynamic false */
	setup_pc(&m, "6.1.0-27-amd64");
	set_debugfs(&m, 32768, 32700, false);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	x = find(&r, "swiotlb-pressure", NULL, &n);
	assert_int_equal(n, 1);
	assert_int_equal(x->severity, SEVERITY_WARNING);
	assert_int_equal(ev_u(x, "dynamic"), 0);
	assert_null(ev(x, "transient_bytes"));
	report_done(&r);
	machine_done(&m);

	/* "swiotlb buffer is full" with a dynamic pool: still failures, said so */
	setup_pc(&m, "6.12.38+deb13-amd64");
	set_debugfs(&m, 32768, 100, true);
	add_full(&m, 3, NULL, 4096, -1, 0);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	x = find(&r, "swiotlb-pressure", NULL, &n);
	assert_int_equal(n, 1);
	assert_int_equal(x->severity, SEVERITY_WARNING);
	assert_int_equal(ev_u(x, "log_lines"), 3);
	assert_int_equal(ev_u(x, "dynamic"), 1);
	assert_non_null(strstr(x->message, "grows"));
	report_done(&r);
	machine_done(&m);

	/* no debugfs: whether the pool grows is not known, nothing said about it */
	setup_pc(&m, "6.12.38+deb13-amd64");
	add_full(&m, 1, NULL, 4096, 32768, 32760);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	x = find(&r, "swiotlb-pressure", NULL, &n);
	assert_int_equal(n, 1);
	assert_null(ev(x, "dynamic"));
	report_done(&r);
	machine_done(&m);

	/* Xen PV's remapped pool never grows, whatever debugfs shows */
	setup_pc(&m, "6.12.38+deb13-amd64");
	set_debugfs(&m, 32768, 32700, true);
	m.hyp.type = HYPERVISOR_XEN;
	m.hyp.xen_guest_type = XEN_GUEST_PV;
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	x = find(&r, "swiotlb-pressure", NULL, &n);
	assert_int_equal(n, 1);
	assert_int_equal(x->severity, SEVERITY_WARNING);
	assert_int_equal(ev_u(x, "dynamic"), 0);
	report_done(&r);
	machine_done(&m);
}

/* swiotlb-pressure from debugfs: "at least 90% full", 90% itself included. */
static void test_pressure_at_90(void **state)
{
	static const struct {
		uint64_t hiwater;
		size_t want;
	} cases[] = { { 9216, 1 }, { 9215, 0 } }; /* of 10240 slabs: 90% and just below */
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct report r;
		size_t n;
		setup_pc(&m, "6.1.0-27-amd64");
		set_debugfs(&m, 10240, cases[i].hiwater, false);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		const struct finding *x = find(&r, "swiotlb-pressure", NULL, &n);
		assert_int_equal(n, cases[i].want);
		if (n)
			assert_int_equal(ev_u(x, "peak_used_bytes"), cases[i].hiwater * 2048);
		report_done(&r);
		machine_done(&m);
	}
}

/*
 * With no pool, 5.0-5.18 log "swiotlb buffer is full ... total 0 (slots)" for
 * every mapping out of reach (dma_direct_map_page still calls swiotlb_map()):
 * the devices' bounce-impossible says so, no pressure. Whether a pool exists
 * unknown, the line may be a full pool: swiotlb-pressure.
 */
static void test_full_without_pool(void **state)
{
	static const struct {
		const char *release;
		enum tristate active;
		size_t pressure;
	} cases[] = {
		{ "5.3.18", TRI_NO, 0 },      /* Intel frees the pool */
		{ "5.6.0", TRI_UNKNOWN, 1 },  /* unless untrusted devices: unknown */
		{ "5.8.0", TRI_YES, 1 },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct report r;
		size_t n;
		setup_pc(&m, cases[i].release);
		opt_clear(&m.swiotlb.pool_start);
		opt_clear(&m.swiotlb.pool_end);
		m.iommu_groups_present = true;
		m.log_intel_iommu = true;
		add_full(&m, 2, "0000:00:1f.2", 512, -1, 0);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		assert_int_equal(r.swiotlb.active, cases[i].active);
		find(&r, "swiotlb-pressure", NULL, &n);
		assert_int_equal(n, cases[i].pressure);
		report_done(&r);
		machine_done(&m);
	}
}

/*
 * "swiotlb buffer is full" is printed whenever the slot search fails: with
 * the pool at least 90% used or too few slots free, pressure; with room left
 * (or a mapping over 128 slots, or a debugfs high-water mark of 0) no free
 * slot suited the device: swiotlb-no-slot, on the device the line names.
 */
static void test_full_with_room(void **state)
{
	static const struct {
		uint64_t size;
		int64_t total; /* -1: the short "(sz: N bytes)" form */
		uint64_t used;
		int64_t hiwater; /* debugfs; -1 unread */
		size_t pressure, no_slot;
	} cases[] = {
		{ 4096, 32768, 0, -1, 0, 1 },          /* 7.2, pool outside the window */
		{ 4096, 32768, 29484, -1, 1, 0 },      /* 90% of 32768 (32768 / 10 * 9) */
		{ 4096, 32768, 29483, -1, 0, 1 },      /* just below */
		{ 4096, 32768, 32767, -1, 1, 0 },      /* one slot free, two needed */
		{ 131072, 128, 64, -1, 0, 1 },         /* a 128-slot pool: 64 free, exactly 64 needed */
		{ 131072, 128, 65, -1, 1, 0 },         /* 63 free: it ran out, though half used */
		{ 262144, 32768, 32700, -1, 1, 0 },    /* 128 slots: as full as the pool is */
		{ 262145, 32768, 32700, -1, 0, 1 },    /* 129: no pool holds it, full or not */
		{ 4096, -1, 0, -1, 1, 0 },             /* no counts: the pool may have run out */
		{ 4096, -1, 0, 0, 0, 1 },              /* no counts, no slot ever taken */
		{ 4096, -1, 0, 1, 1, 0 },
		{ 4096, 0, 0, -1, 0, 0 },              /* no pool: bounce-impossible's */
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct report r;
		size_t n;
		setup_pc(&m, "7.2.13+deb14-amd64");
		add_pci(&m, "0000:00:04.0", "sym53c8xx", 32);
		machine_sort_devices(&m);
		if (cases[i].hiwater >= 0)
			set_debugfs(&m, 32768, (uint64_t)cases[i].hiwater, false);
		add_full(&m, 2, "0000:00:04.0", cases[i].size, cases[i].total, cases[i].used);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		const struct finding *x = find(&r, "swiotlb-pressure", NULL, &n);
		assert_int_equal(n, cases[i].pressure);
		if (n)
			assert_int_equal(ev_u(x, "log_lines"), 2);
		x = find(&r, "swiotlb-no-slot", "0000:00:04.0", &n);
		assert_int_equal(n, cases[i].no_slot);
		if (n) {
			assert_int_equal(x->severity, SEVERITY_ERROR);
			assert_int_equal(ev_u(x, "log_lines"), 2);
			assert_int_equal(ev_u(x, "size"), cases[i].size);
			if (cases[i].total >= 0)
				assert_int_equal(ev_u(x, "used_slots"), cases[i].used);
			else
				assert_null(ev(x, "used_slots"));
		}
		report_done(&r);
		machine_done(&m);
	}
}

/* Lines naming a device not listed (or none) are reported machine-wide, under the first name. */
static void test_full_with_room_unlisted(void **state)
{
	struct machine m;
	struct report r;
	size_t n;
	(void)state;

	setup_pc(&m, "7.2.13+deb14-amd64");
	add_full(&m, 1, "0000:09:00.0", 4096, 32768, 0);
	add_full(&m, 2, NULL, 4096, 32768, 0);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	const struct finding *x = find(&r, "swiotlb-no-slot", "0000:09:00.0", &n);
	assert_int_equal(n, 1);
	assert_int_equal(ev_u(x, "log_lines"), 3);
	find(&r, "swiotlb-pressure", NULL, &n);
	assert_int_equal(n, 0);
	report_done(&r);
	machine_done(&m);
}

/*
 * Before 5.13 the block layer copies what lies above bounce_pfn itself
 * (blk_queue_bounce, page by page): a 31-bit SD host's 1 MiB segments never
 * reach swiotlb. With dma_max_pfn() gone (5.3) its queue bounces nothing, and
 * dma-direct bounces them through swiotlb: 128 slots at most.
 */
static void test_block_layer_bounce_not_swiotlb(void **state)
{
	static const struct {
		const char *release;
		size_t too_large;
	} cases[] = { { "5.2.21", 0 }, { "5.3.0", 1 } };
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct report r;
		size_t n;
		setup_pc(&m, cases[i].release);
		opt_set(&m.swiotlb.pool_start, 0x3c000000); /* within 31 bits */
		opt_set(&m.swiotlb.pool_end, 0x40000000);
		add_pci(&m, "0000:02:00.0", "sdhci-pci", 31);
		machine_sort_devices(&m);
		add_disk(&m, "mmcblk0", "0000:02:00.0", 4294967295, 1024);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		const struct device_report *x = report_of(&r, "0000:02:00.0");
		assert_int_equal(x->kernel_model, KERNEL_MODEL_LEGACY_BLOCK);
		assert_int_equal(x->verdict, VERDICT_PARTIAL);
		find(&r, "bounce-mapping-too-large", "0000:02:00.0", &n);
		assert_int_equal(n, cases[i].too_large);
		report_done(&r);
		machine_done(&m);
	}
}

/*
 * swiotlb=noforce: dma_direct_map_page() skips swiotlb_map() ("if
 * (swiotlb_force != SWIOTLB_NO_FORCE)"), so a mapping out of reach logs "DMA
 * addr ... overflow", never "swiotlb buffer is full", in 5.0-5.18 too.
 */
static void test_noforce_overflow_message(void **state)
{
	static const struct {
		bool noforce;
		const char *says;
	} cases[] = { { true, "DMA addr ... overflow" }, { false, "total 0 (slots)" } };
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct machine m;
		struct report r;
		size_t n;
		setup_pc(&m, "5.13.0");
		opt_clear(&m.swiotlb.pool_start);
		opt_clear(&m.swiotlb.pool_end);
		opt_set(&m.swiotlb.nslabs, 0); /* debugfs: io_tlb_nslabs 0 */
		m.cmd.swiotlb_noforce = cases[i].noforce;
		m.cmd.swiotlb_last_word = cases[i].noforce ? SWIOTLB_WORD_NOFORCE : SWIOTLB_WORD_NONE;
		add_pci(&m, "0000:00:1f.2", "ahci", 32);
		machine_sort_devices(&m);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		assert_int_equal(report_of(&r, "0000:00:1f.2")->verdict, VERDICT_FAILS);
		const struct finding *x = find(&r, "bounce-impossible", "0000:00:1f.2", &n);
		assert_int_equal(n, 1);
		assert_non_null(strstr(x->message, cases[i].says));
		report_done(&r);
		machine_done(&m);
	}
}

/* Forcing of the whole machine (swiotlb=force) bounces all RAM of every device, and is one
 * machine-wide finding, not one per device. */
static void test_forced_once(void **state)
{
	struct machine m;
	struct report r;
	size_t n;

	(void)state;
	setup_pc(&m, "6.1.0-27-amd64");
	m.cmd.swiotlb_force = true;
	m.cmd.swiotlb_last_word = SWIOTLB_WORD_FORCE; /* as readers/cmdline.c keeps it */
	add_pci(&m, "0000:00:04.0", "nvme", 64);
	add_pci(&m, "0000:00:1f.2", "ahci", 32);
	machine_sort_devices(&m);
	assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
	assert_int_equal(report_of(&r, "0000:00:04.0")->verdict, VERDICT_FORCED);
	assert_int_equal(report_of(&r, "0000:00:1f.2")->verdict, VERDICT_FORCED);
	/* dma_direct_map_page(): swiotlb_map() for every mapping, RAM in reach too */
	for (size_t i = 0; i < r.devices.n_devices; i++) {
		assert_true(r.devices.devices[i].unreachable_ram_bytes.known);
		assert_int_equal(r.devices.devices[i].unreachable_ram_bytes.v, r.layout.ram_bytes);
	}
	assert_int_equal(report_of(&r, "0000:00:04.0")->direct.unreachable_bytes, 0);
	find(&r, "forced-bounce", NULL, &n);
	assert_int_equal(n, 1);
	find(&r, "forced-bounce", "0000:00:04.0", &n);
	assert_int_equal(n, 0);
	find(&r, "forced-bounce", "0000:00:1f.2", &n);
	assert_int_equal(n, 0);
	report_done(&r);
	machine_done(&m);
}

/*
 * Forced bouncing through a pool out of reach: kernel/dma/swiotlb.c swiotlb_map()
 * checks the slot it took with dma_capable() and returns DMA_MAPPING_ERROR, so
 * every mapping fails, RAM in reach too. The pool (0xbbfe8000-0xbffe7fff) is in a
 * 32-bit device's reach, not a 30-bit one's; placed only below 4 GiB (derived), a
 * 12-bit device (no RAM below 0x1000) reaches none of it.
 */
static void test_forced_pool_out_of_reach(void **state)
{
	static const struct {
		bool logged;            /* the pool's place read, or only its derived bound */
		const char *id;
		int mask_bits;
		enum verdict want;
		const char *reason;     /* words of the case, NULL: forced's own */
	} cases[] = {
		{ true, "0000:00:04.0", 64, VERDICT_FORCED, NULL },
		{ true, "0000:00:1f.2", 32, VERDICT_FORCED, NULL },
		{ true, "0000:00:05.0", 30, VERDICT_FAILS, "through a swiotlb pool the device cannot reach" },
		{ false, "0000:00:05.0", 30, VERDICT_FORCED, NULL }, /* below 4 GiB: in reach or not */
		{ false, "0000:00:06.0", 12, VERDICT_FAILS, "placed below its derived bound" },
	};
	(void)state;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct machine m;
		struct report r;
		size_t n;
		setup_pc(&m, "6.1.0-27-amd64");
		if (!cases[i].logged) {
			opt_clear(&m.swiotlb.pool_start);
			opt_clear(&m.swiotlb.pool_end);
		}
		m.cmd.swiotlb_force = true;
		m.cmd.swiotlb_last_word = SWIOTLB_WORD_FORCE; /* as readers/cmdline.c keeps it */
		add_pci(&m, cases[i].id, "ahci", cases[i].mask_bits);
		machine_sort_devices(&m);
		assert_int_equal(report_build(&m, SEVERITY_WARNING, &r), 0);
		assert_int_equal(r.swiotlb.active, TRI_YES);
		const struct device_report *x = report_of(&r, cases[i].id);
		if (x->verdict != cases[i].want)
			fail_msg("case %zu: %s, want %s (%s)", i, verdict_to_string(x->verdict),
				 verdict_to_string(cases[i].want), x->reason);
		assert_true(x->forced);
		/* every mapping bounces, so every one fails: all RAM, not the RAM beyond reach */
		assert_true(x->unreachable_ram_bytes.known);
		assert_int_equal(x->unreachable_ram_bytes.v, r.layout.ram_bytes);
		const struct finding *f = find(&r, "bounce-impossible", cases[i].id, &n);
		if (cases[i].want == VERDICT_FORCED) {
			assert_string_equal(x->reason, "swiotlb=force on the command line");
			assert_int_equal(n, 0);
			assert_int_not_equal(x->pool_reachable, TRI_NO);
			find(&r, "swiotlb-out-of-reach", cases[i].id, &n);
			assert_int_equal(n, 0);
			report_done(&r);
			machine_done(&m);
			continue;
		}
		assert_non_null(strstr(x->reason, cases[i].reason));
		assert_int_equal(x->pool_reachable, TRI_NO);
		assert_int_equal(x->limiter, LIMITER_POOL);
		assert_int_equal(n, 1);
		assert_int_equal(f->severity, SEVERITY_ERROR);
		assert_non_null(strstr(f->message, "forced to bounce (swiotlb=force on the command line)"));
		assert_non_null(strstr(f->message, "swiotlb addr ... overflow"));
		f = find(&r, "swiotlb-out-of-reach", cases[i].id, &n);
		assert_int_equal(n, 1);
		/* a device forced and failing is not also an info: the machine-wide forced-bounce stays */
		find(&r, "forced-bounce", NULL, &n);
		assert_int_equal(n, 1);
		report_done(&r);
		machine_done(&m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_partial_segment_too_large),
		cmocka_unit_test(test_forced_segment_too_large),
		cmocka_unit_test(test_pool_overflow_logged),
		cmocka_unit_test(test_pressure_dynamic),
		cmocka_unit_test(test_pressure_at_90),
		cmocka_unit_test(test_full_without_pool),
		cmocka_unit_test(test_full_with_room),
		cmocka_unit_test(test_full_with_room_unlisted),
		cmocka_unit_test(test_block_layer_bounce_not_swiotlb),
		cmocka_unit_test(test_noforce_overflow_message),
		cmocka_unit_test(test_forced_once),
		cmocka_unit_test(test_forced_pool_out_of_reach),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
