/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --observe: observe_parse (readers/observed.c) on every trace format and on
 * bad windows, prediction_check (analysis/prediction-check.c) for each kind
 * of contradiction, observe_cleanup_stale (observe-live.c) on a fake
 * tracefs, and --observe-probe's refusals and page placement (observe-probe.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "analysis/eras.h"
#include "analysis/prediction-check.h"
#include "observe/observe-live.h"
#include "readers/observed.h"
#include "fake-root.h"

static void raw_set(struct observe_raw *raw, enum observe_file f, const char *text)
{
	free(raw->buf[f]);
	raw->buf[f] = strdup(text);
	assert_non_null(raw->buf[f]);
	raw->len[f] = strlen(text);
}

/* The device's entry; a failed test (and a zeroed entry, never NULL) when there is none. */
static const struct observed_device *find(const struct observation *o, const char *dev)
{
	static const struct observed_device none;

	for (size_t i = 0; i < o->n_devices; i++)
		if (strcmp(o->devices[i].device, dev) == 0)
			return &o->devices[i];
	fail_msg("no observed device %s", dev);
	return &none;
}

/* Every generation of the event's text, the fields form, a bad line, other events. */
static void test_parse_trace(void **state)
{
	struct observe_raw raw = { 0 };
	struct observation o = { 0 };
	struct parse_error e = { 0 };
	(void)state;

	raw_set(&raw, OBSERVE_WINDOW, "requested_seconds=10\nwindow_seconds=9.5\ninterrupted=1\n"
				      "lost_events=3\ntracefs=sys/kernel/tracing\n");
	raw_set(&raw, OBSERVE_TRACE,
		"# tracer: nop\n"
		/* 5.18+: FORCE/NORMAL */
		"  dd-1 [000] ..... 1.000000: swiotlb_bounced: dev_name: 0000:00:01.1 "
		"dma_mask=ffffffff dev_addr=17f9e8000 size=4096 NORMAL\n"
		"  dd-1 [000] ..... 1.100000: swiotlb_bounced: dev_name: 0000:00:01.1 "
		"dma_mask=ffffffff dev_addr=100000000 size=100 FORCE\n"
		/* 4.10-5.17: the enum */
		"  dd-1 [000] .... 1.200000: swiotlb_bounced: dev_name: sda dma_mask=ffffffff "
		"dev_addr=200000000 size=512 NO_FORCE\n"
		/* 6.3+ fields form */
		"  dd-1 [000] ..... 1.300000: swiotlb_bounced: dev_name=0000:00:01.1 dma_mask=0xffffffff "
		"(4294967295) dev_addr=0x180000000 (6442450944) size=0x2000 (8192) force=0x1 (1)\n"
		"  dd-1 [000] ..... 1.400000: swiotlb_bounced: dev_name: x dma_mask=\n"
		"  dd-1 [000] ..... 1.500000: sched_switch: prev_comm=a\n");
	assert_int_equal(observe_parse(&raw, &o, &e), 0);
	assert_true(o.present && o.interrupted && o.lost_events.known);
	assert_int_equal(o.requested_seconds, 10);
	assert_true(o.window_seconds > 9.49 && o.window_seconds < 9.51);
	assert_int_equal(o.lost_events.v, 3);
	assert_string_equal(o.tracefs, "sys/kernel/tracing");
	assert_int_equal(o.bad_lines, 1);
	assert_int_equal(o.n_devices, 2);
	const struct observed_device *d = find(&o, "0000:00:01.1");
	assert_int_equal(d->bounces, 3);
	assert_int_equal(d->bytes, 4096 + 100 + 8192);
	assert_int_equal(d->forced_bounces, 2);
	assert_int_equal(d->small_unaligned, 1);
	assert_int_equal(d->lowest_addr, 0x100000000);
	assert_int_equal(d->highest_addr, 0x180001fff);
	assert_int_equal(d->lowest_end.v, 0x100000063);       /* the 100-byte one */
	assert_int_equal(d->lowest_end_large.v, 0x17f9e8fff); /* without it */
	assert_int_equal(find(&o, "sda")->bounces, 1);
	observation_done(&o);
	observe_raw_done(&raw);
}

/* The window's log records, counters, an address with no dma-range (all ones). */
static void test_parse_kmsg_counters(void **state)
{
	struct observe_raw raw = { 0 };
	struct observation o = { 0 };
	struct parse_error e = { 0 };
	(void)state;

	raw_set(&raw, OBSERVE_WINDOW, "window_seconds=1\n");
	raw_set(&raw, OBSERVE_TRACE, "  a-1 [000] ..... 1.0: swiotlb_bounced: dev_name: m "
				     "dma_mask=ffffffff dev_addr=ffffffffffffffff size=36 NORMAL\n");
	raw_set(&raw, OBSERVE_KMSG,
		"3,10,100,-;nvme 0000:02:00.0: DMA addr 0x0000000140000000+4096 overflow "
		"(mask ffffffff, bus limit 0).\n SUBSYSTEM=pci\n DEVICE=+pci:0000:02:00.0\n"
		"3,11,101,-;swiotlb buffer is full (sz: 524288 bytes), total 32768 (slots), used 0 (slots)\n");
	raw_set(&raw, OBSERVE_SWIOTLB_BEFORE, "io_tlb_used=5\nio_tlb_used_hiwater=7\n");
	raw_set(&raw, OBSERVE_SWIOTLB_AFTER, "io_tlb_used=9\nio_tlb_used_hiwater=7\nio_tlb_transient_nslabs=x\n");
	assert_int_equal(observe_parse(&raw, &o, &e), 0);
	assert_false(o.lost_events.known);
	assert_int_equal(o.full_messages, 1);
	assert_int_equal(o.n_full, 1); /* kept for swiotlb-pressure */
	assert_int_equal(o.full[0].size.v, 524288);
	assert_int_equal(o.full[0].used.v, 0);
	assert_int_equal(find(&o, "0000:02:00.0")->overflow_messages, 1);
	assert_int_equal(find(&o, "0000:02:00.0")->bounces, 0);
	assert_int_equal(find(&o, "m")->highest_addr, UINT64_MAX); /* no wrap */
	assert_true(o.after.used.known && !o.after.transient.known);
	uint64_t peak;
	bool exact;
	assert_true(observation_pool_peak(&o, &peak, &exact));
	assert_int_equal(peak, 9); /* no new high-water mark: io_tlb_used at the end, a lower bound */
	assert_false(exact);
	observation_done(&o);
	observe_raw_done(&raw);
}

/* A window file the tool did not write is refused, not guessed. */
/* window_seconds reads as the nearest double to its text on every FPU: a replay must
 * print what the live run printed (i386's x87 read 5.738 as 5.7379999999999995). */
static void test_window_seconds_exact(void **state)
{
	static const struct {
		const char *text;
		double want;
	} cases[] = {
		{ "5.738", 5.738 }, { "0.1", 0.1 }, { "9.5", 9.5 }, { "1", 1.0 },
		{ "86400.999999999", 86400.999999999 }, { "3.3", 3.3 }, { "0.000000001", 0.000000001 },
	};
	(void)state;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct observe_raw raw = { 0 };
		struct observation o = { 0 };
		struct parse_error e = { 0 };
		char buf[64];

		snprintf(buf, sizeof(buf), "window_seconds=%s\n", cases[i].text);
		raw_set(&raw, OBSERVE_WINDOW, buf);
		assert_int_equal(observe_parse(&raw, &o, &e), 0);
		if (o.window_seconds != cases[i].want)
			fail_msg("%s read as %.17g", cases[i].text, o.window_seconds);
		observation_done(&o);
		observe_raw_done(&raw);
	}
}

static void test_parse_bad_window(void **state)
{
	static const char *const bad[] = {
		"", "requested_seconds=5\n", "window_seconds=\n", "window_seconds=1.2.3\n",
		"window_seconds=99999999\n", "window_seconds=1\nlost_events=-1\n",
		"window_seconds=1\nrequested_seconds=x\n", "window_seconds=1.1234567890\n",
	};
	(void)state;

	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		struct observe_raw raw = { 0 };
		struct observation o = { 0 };
		struct parse_error e = { 0 };
		raw_set(&raw, OBSERVE_WINDOW, bad[i]);
		assert_int_equal(observe_parse(&raw, &o, &e), -EBADMSG);
		assert_non_null(e.what);
		assert_false(o.present);
		observe_raw_done(&raw);
	}
	struct observe_raw none = { 0 };
	struct observation o = { 0 };
	struct parse_error e = { 0 };
	assert_int_equal(observe_parse(&none, &o, &e), -EBADMSG);
}

/* ---- prediction_check ---- */

struct judged {
	struct machine m;
	struct swiotlb_state sw;
	struct devices_input in;
	struct device dev;
	struct device_report r;
	struct observed_device od;
};

static void judged_init(struct judged *j, enum verdict v, uint64_t bounces)
{
	memset(j, 0, sizeof(*j));
	machine_init(&j->m);
	j->m.observed.present = true;
	j->m.observed.window_seconds = 5;
	j->dev.id = (char *)"0000:00:1f.2";
	j->od.device = (char *)"0000:00:1f.2";
	j->od.bounces = bounces;
	j->od.bytes = bounces * 4096;
	j->od.lowest_addr = 0x140000000;
	j->od.highest_addr = 0x140000fff;
	if (bounces > 0) {
		opt_set(&j->od.lowest_end, 0x140000fff);
		opt_set(&j->od.lowest_end_large, 0x140000fff);
	}
	j->m.observed.devices = &j->od;
	j->m.observed.n_devices = 1;
	j->in.m = &j->m;
	j->in.sw = &j->sw;
	j->in.release = KV(6, 1, 0);
	j->in.arch_family = ARCH_X86;
	j->r.dev = &j->dev;
	j->r.verdict = v;
	j->r.limit = 0xffffffff;
	j->r.pool_reachable = TRI_YES; /* where there is a pool, the device reaches it */
}

static int check(struct judged *j)
{
	prediction_check(&j->in, &j->r);
	return j->r.observed_result;
}

static void test_prediction_check(void **state)
{
	struct judged j;
	(void)state;

	judged_init(&j, VERDICT_PARTIAL, 4);
	assert_int_equal(check(&j), OBSERVED_CONSISTENT);
	opt_set(&j.od.lowest_end, 0xfffff000);
	opt_set(&j.od.lowest_end_large, 0xfffff000); /* a buffer within the mask bounced */
	assert_int_equal(check(&j), OBSERVED_CONTRADICTED);
	assert_non_null(strstr(j.r.observed_why, "within its reach"));

	judged_init(&j, VERDICT_DIRECT, 1);
	assert_int_equal(check(&j), OBSERVED_CONTRADICTED);
	judged_init(&j, VERDICT_DIRECT, 0);
	assert_int_equal(check(&j), OBSERVED_CANNOT_TELL); /* no traffic files: not counted */
	j.od.overflow_messages = 1; /* a mapping failed */
	assert_int_equal(check(&j), OBSERVED_CONTRADICTED);

	/* arm64 6.5+: small unaligned kmalloc buffers bounce whatever the reach */
	judged_init(&j, VERDICT_DIRECT, 2);
	j.od.small_unaligned = 2;
	assert_int_equal(check(&j), OBSERVED_CONTRADICTED); /* x86: no such bouncing */
	j.in.arch_family = ARCH_ARM64;
	j.in.release = KV(6, 6, 0);
	assert_int_equal(check(&j), OBSERVED_CONSISTENT);
	j.in.release = KV(6, 4, 0); /* before DMA_BOUNCE_UNALIGNED_KMALLOC */
	assert_int_equal(check(&j), OBSERVED_CONTRADICTED);
	j.in.arch_family = ARCH_RISCV; /* selected for RISCV_DMA_NONCOHERENT from 6.6 */
	j.in.release = KV(6, 6, 0);
	assert_int_equal(check(&j), OBSERVED_CONSISTENT);
	j.in.release = KV(6, 5, 0);
	assert_int_equal(check(&j), OBSERVED_CONTRADICTED);
	j.od.small_unaligned = 1; /* one bounce the kmalloc rule does not explain */
	j.in.release = KV(6, 12, 0);
	assert_int_equal(check(&j), OBSERVED_CONTRADICTED);

	judged_init(&j, VERDICT_IOMMU, 3);
	assert_int_equal(check(&j), OBSERVED_CONTRADICTED);
	j.r.untrusted = true;
	assert_int_equal(check(&j), OBSERVED_CONSISTENT);

	judged_init(&j, VERDICT_IDLE, 1);
	assert_int_equal(check(&j), OBSERVED_CONTRADICTED);
	assert_non_null(strstr(j.r.observed_why, "idle"));

	judged_init(&j, VERDICT_FAILS, 1);
	assert_int_equal(check(&j), OBSERVED_CONTRADICTED);
	judged_init(&j, VERDICT_FAILS, 0);
	j.od.overflow_messages = 2;
	assert_int_equal(check(&j), OBSERVED_CONSISTENT);

	/* forced by swiotlb=force or a CoCo guest: every event says FORCE */
	judged_init(&j, VERDICT_FORCED, 3);
	j.sw.forced = true;
	assert_int_equal(check(&j), OBSERVED_CONTRADICTED);
	j.od.forced_bounces = 3;
	assert_int_equal(check(&j), OBSERVED_CONSISTENT);
	j.sw.forced = false; /* forced for this device alone (SME, restricted pool): NORMAL is fine */
	j.od.forced_bounces = 0;
	assert_int_equal(check(&j), OBSERVED_CONSISTENT);

	judged_init(&j, VERDICT_UNKNOWN, 1);
	assert_int_equal(check(&j), OBSERVED_UNJUDGED);

	/* the limit is inclusive (dma_capable: addr + size - 1 <= limit): a bounced
	 * buffer ending on it was within reach, one byte further was not */
	judged_init(&j, VERDICT_PARTIAL, 1);
	opt_set(&j.od.lowest_end, 0xffffffff);
	opt_set(&j.od.lowest_end_large, 0xffffffff);
	assert_int_equal(check(&j), OBSERVED_CONTRADICTED);
	opt_set(&j.od.lowest_end, 0x100000000);
	opt_set(&j.od.lowest_end_large, 0x100000000);
	assert_int_equal(check(&j), OBSERVED_CONSISTENT);

	/* with no pool, 5.0-5.18 call swiotlb_map() anyway (an event, then "buffer is
	 * full"); with a pool, a device predicted to fail that bounced reached it */
	judged_init(&j, VERDICT_FAILS, 2);
	j.in.release = KV(5, 10, 0);
	j.sw.active = TRI_NO;
	assert_int_equal(check(&j), OBSERVED_CONSISTENT);
	j.sw.active = TRI_YES;
	assert_int_equal(check(&j), OBSERVED_CONTRADICTED);
	j.sw.active = TRI_NO;
	j.in.release = KV(5, 19, 0); /* is_swiotlb_active() first: no event without a pool */
	assert_int_equal(check(&j), OBSERVED_CONTRADICTED);
	/* a pool out of its reach: swiotlb_map() fires the event, then the slot's
	 * dma_capable() fails, in every era (was: contradicted, "bounced successfully") */
	j.sw.active = TRI_YES;
	j.r.pool_reachable = TRI_NO;
	assert_int_equal(check(&j), OBSERVED_CONSISTENT);
	assert_non_null(strstr(j.r.observed_why, "out of its reach"));
	j.in.release = KV(5, 13, 0);
	assert_int_equal(check(&j), OBSERVED_CONSISTENT);
	j.r.pool_reachable = TRI_UNKNOWN; /* where the pool lies is unknown: a bounce may have worked */
	assert_int_equal(check(&j), OBSERVED_CONTRADICTED);

	/* a device the trace never names, and no observation at all */
	judged_init(&j, VERDICT_PARTIAL, 1);
	j.dev.id = (char *)"0000:00:02.0";
	assert_int_equal(check(&j), OBSERVED_CANNOT_TELL);
	assert_null(j.r.observed);
	j.m.observed.present = false;
	assert_int_equal(check(&j), OBSERVED_NONE);
	assert_null(observed_result_to_string(OBSERVED_NONE));
	assert_string_equal(observed_result_to_string(OBSERVED_NO_TRAFFIC), "no-traffic");
	assert_string_equal(observed_result_to_string(OBSERVED_NO_BOUNCE), "no-bounce");
	assert_string_equal(observed_result_to_string(OBSERVED_CANNOT_TELL), "cannot-tell");
}

/* A quiet device's traffic: its disks (by the queue's DMA device) and interfaces, counted. */
static void test_prediction_traffic(void **state)
{
	struct judged j;
	struct block_queue q[2] = {
		{ .disk = (char *)"sda", .dma_device = (char *)"0000:00:1f.2" },
		{ .disk = (char *)"sdb", .dma_device = (char *)"0000:00:1f.2" },
	};
	struct observed_traffic t[3] = {
		{ .name = (char *)"sda", .kind = TRAFFIC_BLOCK, .ops = 650, .bytes = 1 << 20 },
		{ .name = (char *)"eth0", .kind = TRAFFIC_NET, .ops = 10, .bytes = 1500 },
		{ .name = (char *)"sdb", .kind = TRAFFIC_NET, .ops = 99, .bytes = 99 }, /* a netdev sdb: not the disk */
	};
	(void)state;

	judged_init(&j, VERDICT_DIRECT, 0);
	j.m.observed.traffic_known = true;
	assert_int_equal(check(&j), OBSERVED_CANNOT_TELL); /* no disk, no interface */
	assert_false(j.r.observed_ops.known);
	j.m.blocks = q;
	j.m.n_blocks = 2;
	assert_int_equal(check(&j), OBSERVED_CANNOT_TELL); /* disks, but neither counted */
	j.m.observed.traffic = t;
	j.m.observed.n_traffic = 3;
	assert_int_equal(check(&j), OBSERVED_NO_BOUNCE);
	assert_int_equal(j.r.observed_ops.v, 650);
	assert_int_equal(j.r.observed_io_bytes, 1 << 20);
	assert_int_equal(j.r.observed_kinds, 1u << TRAFFIC_BLOCK);
	assert_non_null(strstr(j.r.observed_why, "as its verdict says"));
	j.dev.interfaces = (char *)"wlan0,eth0";
	assert_int_equal(check(&j), OBSERVED_NO_BOUNCE);
	assert_int_equal(j.r.observed_ops.v, 660); /* counted afresh each time, not summed twice */
	assert_int_equal(j.r.observed_kinds, 1u << TRAFFIC_BLOCK | 1u << TRAFFIC_NET);
	j.r.verdict = VERDICT_PARTIAL;
	assert_int_equal(check(&j), OBSERVED_NO_BOUNCE);
	assert_non_null(strstr(j.r.observed_why, "does not test"));
	t[0].ops = 0;
	t[1].ops = 0;
	assert_int_equal(check(&j), OBSERVED_NO_TRAFFIC);
	/* traffic does not hide a bounce: the verdict still judges it */
	t[0].ops = 650;
	judged_init(&j, VERDICT_DIRECT, 1);
	j.m.observed.traffic_known = true;
	j.m.blocks = q;
	j.m.n_blocks = 2;
	j.m.observed.traffic = t;
	j.m.observed.n_traffic = 3;
	assert_int_equal(check(&j), OBSERVED_CONTRADICTED);
	assert_int_equal(j.r.observed_ops.v, 650);
}

/* traffic-before and -after: the difference of each disk's and interface's counters. */
static void test_parse_traffic(void **state)
{
	struct observe_raw raw = { 0 };
	struct observation o = { 0 };
	struct parse_error e = { 0 };
	(void)state;

	raw_set(&raw, OBSERVE_WINDOW, "window_seconds=1\n");
	raw_set(&raw, OBSERVE_TRAFFIC_BEFORE,
		"block/vda= 10    0  80   0    5   0  40   0 0 0 0 0 0 0 0 0 0\n"
		"block/old=1 0 8 0 1 0 8 0 0 0 0\n"
		"block/short=1 2 3 4 5 6\n"
		"block/gone=9 0 9 0 9 0 9 0 0 0 0\n"
		"block/bad=x 0 8 0 1 0 8 0 0 0 0\n"
		"net/eth0=100 200 3000 4000\n"
		"net/lo=1 1 1\n"
		"other/x=1\n");
	/* one end alone counts nothing */
	assert_int_equal(observe_parse(&raw, &o, &e), 0);
	assert_false(o.traffic_known);
	observation_done(&o);
	raw_set(&raw, OBSERVE_TRAFFIC_AFTER,
		"block/vda=660 0 5280 0 345 0 2760 0 0 0 0 0 0 0 0 0 0\n"
		"block/old=0 0 0 0 0 0 0 0 0 0 0\n"
		"block/short=1 2 3 4 5 6\n"
		"block/new=1 0 8 0 1 0 8 0 0 0 0\n"
		"net/eth0=110 205 4500 4400\n");
	assert_int_equal(observe_parse(&raw, &o, &e), 0);
	assert_true(o.traffic_known);
	assert_int_equal(o.n_traffic, 2);
	assert_string_equal(o.traffic[0].name, "vda");
	assert_int_equal(o.traffic[0].kind, TRAFFIC_BLOCK);
	assert_int_equal(o.traffic[0].ops, 650 + 340);
	assert_int_equal(o.traffic[0].bytes, (5200 + 2720) * 512);
	assert_string_equal(o.traffic[1].name, "eth0");
	assert_int_equal(o.traffic[1].kind, TRAFFIC_NET);
	assert_int_equal(o.traffic[1].ops, 15);
	assert_int_equal(o.traffic[1].bytes, 1900);
	observation_done(&o);
	observe_raw_done(&raw);
}

/* --observe-probe opens block devices alone, read-only; anything else is refused before it is opened. */
static void test_probe_refusals(void **state)
{
	struct probe p;
	const char *why = NULL;
	char path[] = "/tmp/dmamask-probe-XXXXXX";
	int fd = mkstemp(path);
	(void)state;

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(probe_open(path, &p, &why), -EINVAL); /* a regular file */
	assert_non_null(strstr(why, "not a block device"));
	assert_int_equal(p.fd, -1);
	assert_int_equal(probe_open("/dev/null", &p, &why), -EINVAL); /* a character device */
	assert_non_null(strstr(why, "character device"));
	assert_int_equal(probe_open("/tmp", &p, &why), -EINVAL); /* a directory */
	assert_int_equal(probe_open("dmamask-no-such-disk", &p, &why), -ENOENT); /* /dev/NAME */
	assert_non_null(strstr(why, "no such disk"));
	probe_close(&p); /* a probe never opened closes */
	unlink(path);
}

/*
 * probe_run on a regular file (O_DIRECT as a disk takes it): as root, every page it
 * reads into lies above the reach asked; without CAP_SYS_ADMIN pagemap's PFNs read 0
 * and it says so, reading nothing.
 */
static void test_probe_placement(void **state)
{
	char path[] = "/var/tmp/dmamask-probe-XXXXXX";
	int fd = mkstemp(path);
	static char block[1 << 16];
	struct probe_result res;
	(void)state;

	assert_true(fd >= 0);
	for (int i = 0; i < 16; i++) /* 1 MiB */
		assert_int_equal(write(fd, block, sizeof(block)), (ssize_t)sizeof(block));
	close(fd);
	struct probe p = { .fd = open(path, O_RDONLY | O_DIRECT), .bytes = 1 << 20, .reach_end = 0,
			   .alloc_max = 32 << 20 };
	unlink(path);
	if (p.fd < 0) {
		skip(); /* a /var/tmp without O_DIRECT (tmpfs) */
		return;
	}
	/* reach_end 0: every page but the first lies above it */
	assert_int_equal(probe_run(&p, &res), 0);
	if (geteuid() != 0) {
		assert_int_equal(res.bytes_read, 0);
		assert_non_null(strstr(res.why, "CAP_SYS_ADMIN"));
	} else {
		assert_int_equal(res.bytes_read, 1 << 20);
		assert_int_equal(res.above_reach_bytes, 1 << 20);
		assert_null(res.why);
		assert_true(res.allocated_bytes >= 1 << 20);
	}
	/* a reach above every address: no page lies beyond it, nothing is read, and it gives up
	 * at alloc_max */
	p.reach_end = UINT64_MAX - 1;
	assert_int_equal(probe_run(&p, &res), 0);
	assert_int_equal(res.bytes_read, 0);
	assert_non_null(res.why);
	assert_true(res.allocated_bytes <= 32 << 20);
	/* UINT64_MAX: the device reaches all RAM, any page will do, no PFN needed (as nobody too) */
	p.reach_end = UINT64_MAX;
	assert_int_equal(probe_run(&p, &res), 0);
	assert_int_equal(res.bytes_read, 1 << 20);
	assert_int_equal(res.above_reach_bytes, 0);
	assert_null(res.why);
	close(p.fd);
}

/* An instance whose PID is gone is removed; a live one and anything else are not. */
/*
 * An unknown release: where the judgement of the trace turns on an era (small
 * unaligned kmalloc bounces excused on arm64 6.5+ and riscv 6.6+; a pool-less
 * mapping's event before 5.19), the trace is not judged.
 */
static void test_prediction_unknown_release(void **state)
{
	static const enum verdict verdicts[] = { VERDICT_DIRECT, VERDICT_PARTIAL, VERDICT_FAILS, VERDICT_IOMMU };
	struct judged j;
	(void)state;

	for (size_t i = 0; i < sizeof(verdicts) / sizeof(*verdicts); i++) {
		judged_init(&j, verdicts[i], 2);
		j.sw.active = TRI_YES;
		j.od.small_unaligned = 2;
		j.in.arch_family = ARCH_ARM64;
		j.in.release = 0; /* was: consistent, as 6.5+ */
		assert_int_equal(check(&j), OBSERVED_UNJUDGED);
		assert_non_null(strstr(j.r.observed_why, "kernel release unknown"));
		j.in.arch_family = ARCH_X86; /* no era excuses them: judged */
		assert_int_equal(check(&j), verdicts[i] == VERDICT_PARTIAL ? OBSERVED_CONSISTENT
									    : OBSERVED_CONTRADICTED);
	}
	judged_init(&j, VERDICT_IOMMU, 2); /* untrusted: its bounces are explained in any era */
	j.r.untrusted = true;
	j.od.small_unaligned = 2;
	j.in.arch_family = ARCH_ARM64;
	j.in.release = 0;
	assert_int_equal(check(&j), OBSERVED_CONSISTENT);

	/* no pool: events are failed attempts before 5.19, bounces that worked after */
	judged_init(&j, VERDICT_FAILS, 1);
	j.sw.active = TRI_NO;
	j.in.release = KV(5, 10, 0);
	assert_int_equal(check(&j), OBSERVED_CONSISTENT);
	j.in.release = KV(5, 19, 0);
	assert_int_equal(check(&j), OBSERVED_CONTRADICTED);
	j.in.release = 0; /* was: contradicted, as 5.19+ */
	assert_int_equal(check(&j), OBSERVED_UNJUDGED);
	assert_non_null(strstr(j.r.observed_why, "kernel release unknown"));
	j.sw.active = TRI_YES; /* a pool it reaches: a successful bounce in any era */
	assert_int_equal(check(&j), OBSERVED_CONTRADICTED);
}

static void test_cleanup_stale(void **state)
{
	char *root = tmp_root_new();
	char path[4096], own[64];
	struct stat st;
	(void)state;

	/* PID 2^22+1 is above the default pid_max (4194304): nothing runs there */
	tmp_root_mkdir(root, "instances/dmamask-audit-4194305");
	snprintf(own, sizeof(own), "instances/dmamask-audit-%d", (int)getppid());
	tmp_root_mkdir(root, own);
	tmp_root_mkdir(root, "instances/dmamask-audit-abc");
	tmp_root_mkdir(root, "instances/mytrace");
	assert_int_equal(observe_cleanup_stale(root), 1);
	snprintf(path, sizeof(path), "%s/instances/dmamask-audit-4194305", root);
	assert_int_equal(stat(path, &st), -1);
	snprintf(path, sizeof(path), "%s/%s", root, own);
	assert_int_equal(stat(path, &st), 0);
	snprintf(path, sizeof(path), "%s/instances/mytrace", root);
	assert_int_equal(stat(path, &st), 0);
	snprintf(path, sizeof(path), "%s/nothing-here", root);
	assert_int_equal(observe_cleanup_stale(path), -ENOENT);
	tmp_root_free(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_trace),
		cmocka_unit_test(test_parse_kmsg_counters),
		cmocka_unit_test(test_window_seconds_exact),
		cmocka_unit_test(test_parse_bad_window),
		cmocka_unit_test(test_prediction_check),
		cmocka_unit_test(test_prediction_traffic),
		cmocka_unit_test(test_parse_traffic),
		cmocka_unit_test(test_probe_refusals),
		cmocka_unit_test(test_probe_placement),
		cmocka_unit_test(test_prediction_unknown_release),
		cmocka_unit_test(test_cleanup_stale),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
