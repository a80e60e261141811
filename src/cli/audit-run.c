/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/device-select.h"
#include "analysis/report.h"
#include "cli/audit-run.h"
#include "cli/report-write.h"
#include "cli/what-if-run.h"
#include "readers/readers.h"
#include "shared/errno-util.h"
#include "shared/macro.h"
#include "snapshot/capture-run.h"

/* A --sysroot with none of proc/, sys/ and MANIFEST is a mistake, not a machine. */
static bool looks_like_snapshot(struct sysroot *sr)
{
	static const char *const marks[] = SYSROOT_SNAPSHOT_MARKS;
	struct stat st;

	for (size_t i = 0; i < ARRAY_SIZE(marks); i++)
		if (sysroot_stat(sr, marks[i], &st) == 0)
			return true;
	return false;
}

/* --assume-mask: every named device must exist, so a typo is not silently ignored. */
static int check_assumed_masks(const struct machine *m, const struct options *o)
{
	for (size_t i = 0; i < o->n_masks; i++)
		if (!machine_find_device(m, o->masks[i].device)) {
			fprintf(stderr, "%s: --assume-mask: no DMA device '%s' (see the DEVICE column)\n",
				program_invocation_short_name, o->masks[i].device);
			return -ENODEV;
		}
	return 0;
}

/* A name that is no device's: what it is instead, said; 1 for a disk or interface with no DMA device, else -ENODEV. */
static int say_not_a_device(const char *opt, const char *sel, enum selector_kind kind)
{
	switch (kind) {
	case SELECTOR_VIRTUAL_DISK:
		fprintf(stderr, "%s: %s%s: a virtual disk with no DMA device (loop, zram, device-mapper): "
			"nothing to judge\n", program_invocation_short_name, opt, sel);
		return 1;
	case SELECTOR_VIRTUAL_INTERFACE:
		fprintf(stderr, "%s: %s%s: a virtual network interface with no DMA device: nothing to "
			"judge\n", program_invocation_short_name, opt, sel);
		return 1;
	default:
		fprintf(stderr, "%s: %s%s: no such device, disk or network interface (see the DEVICE "
			"column)\n", program_invocation_short_name, opt, sel);
		return -ENODEV;
	}
}

/*
 * DEVICE... and --explain: each must name a device, a disk or an interface, so
 * a typo is not an empty report (--explain: exactly one device); a disk or
 * interface with no device of its own is said so and left out. 1 when nothing
 * is left to judge, 0, or -ENODEV (said).
 */
static int check_selection(const struct machine *m, struct options *o)
{
	size_t kept = 0, n = o->n_select;

	if (o->explain) {
		size_t found = 0;
		for (size_t d = 0; d < m->n_devices; d++)
			found += device_matches(m, d, o->explain);
		if (!found)
			return say_not_a_device("--explain ", o->explain, selector_classify(m, o->explain));
		if (found > 1) {
			fprintf(stderr, "%s: --explain %s: names %zu devices; give one of their ids (see the "
				"DEVICE column)\n", program_invocation_short_name, o->explain, found);
			return -ENODEV;
		}
	}
	for (size_t i = 0; i < n; i++) {
		enum selector_kind kind = selector_classify(m, o->select[i]);
		if (kind == SELECTOR_DEVICE) {
			o->select[kept++] = o->select[i];
			continue;
		}
		if (say_not_a_device("", o->select[i], kind) < 0)
			return -ENODEV;
	}
	o->n_select = kept;
	return n && !kept ? 1 : 0;
}

static void capture_freep(struct capture **c)
{
	if (*c)
		capture_guard(NULL, NULL, false, 0); /* no handler may see it freed */
	capture_free(*c);
}

void audit_run_done(struct audit_run *a)
{
	observe_raw_done(&a->raw);
	machine_done(&a->m);
	sysroot_free(a->sr);
	capture_freep(&a->cap);
	snapshot_run_done(&a->snap);
}

/* A run that cannot go on: why, for dmamask_last_run_failure_info; always -1. */
static int run_failed(struct options *o, const char *reason)
{
	o->fail_reason = reason;
	return -1;
}

/* The root to audit: this system, a snapshot directory, or an archive unpacked. 0 or -1 (said). */
static int open_root(struct options *o, struct audit_run *a)
{
	const struct snapshot_limits lim = {
		SNAPSHOT_ENTRIES_MAX, SNAPSHOT_BYTES_MAX, SNAPSHOT_ENTRY_BYTES_MAX,
		o->test_unpack_ms ? o->test_unpack_ms : SNAPSHOT_UNPACK_MS_MAX,
	};
	int r = snapshot_run_begin(&a->snap, o->sysroot, o->capture, &lim);

	if (r < 0) /* a --capture archive's scratch space, else unpacking a --sysroot archive */
		return run_failed(o, a->snap.capture_kind != SNAPSHOT_DIR ? "capture" : "sysroot");
	r = sysroot_open(a->snap.sysroot_dir, o->sysroot_flags, &a->sr);
	if (r < 0) {
		fprintf(stderr, "%s: --sysroot %s: %s\n", program_invocation_short_name, o->sysroot,
			strerror(-r));
		return run_failed(o, "sysroot");
	}
	if (!sysroot_is_live(a->sr) && !looks_like_snapshot(a->sr)) {
		fprintf(stderr, "%s: --sysroot %s: not a snapshot (no proc/, sys/ or MANIFEST)\n",
			program_invocation_short_name, o->sysroot);
		return run_failed(o, "not-a-snapshot");
	}
	return 0;
}

/* --capture: the directory claimed and guarded against signals. 0 or -1 (said). */
static int start_capture(struct options *o, struct audit_run *a)
{
	unsigned flags = o->capture_flags | (o->sysroot_flags & SYSROOT_NO_OPENAT2 ? CAPTURE_NO_OPENAT2 : 0);
	int r = capture_new(a->snap.capture_dir, flags, &a->cap);

	if (r < 0) {
		fprintf(stderr, "%s: --capture %s: %s\n", program_invocation_short_name, o->capture,
			r == -ENOTEMPTY ? "exists and is not empty"
			: r == -EBUSY	? "another capture is writing into it"
			: r == -ELOOP	? "is a symbolic link: give the directory itself"
					: strerror(-r));
		return run_failed(o, "capture");
	}
	capture_guard(a->cap, o->capture, a->snap.capture_kind != SNAPSHOT_DIR,
		      o->test_interrupt ? o->test_signal : 0);
	if (o->test_interrupt)
		capture_set_test_interrupt(a->cap, o->test_interrupt, o->test_signal);
	return 0;
}

/* The capture's MANIFEST, then its archive: an incomplete capture is packed too. 0 or -1 (said unless quiet). */
static int finish_capture(struct options *o, struct audit_run *a, bool quiet)
{
	_cleanup_free_ char *why = NULL;

	/* a copy of an incomplete snapshot is no more complete */
	if (machine_incomplete_why(&a->m) &&
	    asprintf(&why, "the snapshot captured is incomplete: %s", machine_incomplete_why(&a->m)) >= 0)
		capture_fail(a->cap, why);
	int r = capture_finish_machine(a->cap, &a->m);
	capture_guard(NULL, NULL, false, 0);
	if (snapshot_run_pack(&a->snap) < 0)
		return run_failed(o, "capture");
	if (r < 0 && !quiet) {
		fprintf(stderr, "%s: --capture %s: incomplete (%s); its MANIFEST says complete=0\n",
			program_invocation_short_name, o->capture, capture_incomplete_reason(a->cap));
		return run_failed(o, "capture");
	}
	return 0;
}

/*
 * A read that ran out of descriptors or memory hid what it read: a report
 * would judge fewer devices, or none, and call that healthy. One line, the
 * capture marked incomplete, and exit 2. 0 or -1 (said).
 */
static int exhausted(struct options *o, struct audit_run *a)
{
	const char *path;
	int err = sysroot_exhausted(a->sr, &path);
	struct rlimit rl;

	if (!err)
		return 0;
	char limit[48] = "";
	if (err == -EMFILE && getrlimit(RLIMIT_NOFILE, &rl) == 0)
		snprintf(limit, sizeof(limit), " (ulimit -n is %llu)", (unsigned long long)rl.rlim_cur);
	fprintf(stderr, "%s: reading %s: %s: %s%s; no report%s\n", program_invocation_short_name, path,
		errno_name(err), errno_describe(err), limit, a->cap ? ", and the capture is incomplete" : "");
	if (a->cap) {
		_cleanup_free_ char *why = NULL;
		if (asprintf(&why, "reading %s failed: %s", path, errno_name(err)) >= 0)
			capture_fail(a->cap, why);
		(void)finish_capture(o, a, true); /* complete=0, with the reason above */
	}
	return run_failed(o, err == -EMFILE || err == -ENFILE ? "out-of-file-descriptors" : "out-of-memory");
}

/* --page-size on this system: the running kernel's own is known, and another one is a mistake. */
static int check_live_page_size(const struct options *o, const struct audit_run *a)
{
	long live = sysconf(_SC_PAGESIZE);

	if (!o->page_size || !sysroot_is_live(a->sr) || live <= 0 || (unsigned long)live == o->page_size)
		return 0;
	fprintf(stderr, "%s: --page-size %u: this kernel's page size is %ld; the option is for "
		"snapshots\n", program_invocation_short_name, o->page_size, live);
	return -EINVAL;
}

/*
 * --observe-probe's disk in the first reading's report: its DMA device's reach, or
 * why it is not probed. 0, or -1 (said).
 */
static int plan_probe(const struct report *rep, struct probe *p)
{
	const struct device_report *dr = NULL;
	const char *why = NULL;

	for (size_t i = 0; i < rep->devices.n_blocks && !dr; i++)
		if (rep->devices.blocks[i].q->disk && strcmp(rep->devices.blocks[i].q->disk, p->disk) == 0)
			dr = rep->devices.blocks[i].dr;
	if (!dr)
		why = "not a disk with a DMA device the audit lists (a partition, or a virtual disk: "
		      "give the whole disk)";
	else if (dr->verdict == VERDICT_FAILS)
		/* kernel/dma/direct.h dma_direct_map_phys: dev_WARN_ONCE, then the I/O fails */
		why = "its device's verdict is fails: a read above its reach would fail and make the "
		      "kernel warn (a tainted kernel); the window shows its failures without the probe";
	else if (dr->verdict == VERDICT_UNKNOWN || dr->verdict == VERDICT_IDLE)
		why = "its device's reach is not known: nothing to place buffers above";
	else if (dr->verdict == VERDICT_PARTIAL && !dr->cpu_reach_end.known)
		why = "its device's reach end is not known";
	if (why) {
		fprintf(stderr, "%s: --observe-probe %s: %s\n", program_invocation_short_name, p->disk, why);
		return -1;
	}
	/* partial: pages beyond the reach bounce; direct, iommu, forced: any page tests the verdict */
	p->reach_end = dr->verdict == VERDICT_PARTIAL ? dr->cpu_reach_end.v : UINT64_MAX;
	return 0;
}

/*
 * The first reading of the machine, before the window (40 ms on a VM): what the window
 * cannot show here (with no swiotlb pool nothing bounces, a buffer out of reach fails
 * instead: kernel/dma/direct.h dma_direct_map_phys) in *ret_note (static, NULL: nothing to
 * say), and --observe-probe's disk opened and placed. 0, or -1 (said).
 */
static int observe_plan(const struct options *o, struct audit_run *a, const char **ret_note, struct probe *probe)
{
	struct machine m;
	struct report rep;
	const char *why = NULL;
	int r;

	*ret_note = NULL;
	if (o->observe_probe) {
		r = probe_open(o->observe_probe, probe, &why);
		if (r < 0) {
			/* a refusal (EINVAL) says it all; a failed call adds its errno */
			bool refused = r == -EINVAL || r == -ESTALE;
			fprintf(stderr, "%s: --observe-probe %s: %s%s%s\n", program_invocation_short_name,
				o->observe_probe, why ? why : "", why && !refused ? ": " : "",
				refused && why ? "" : strerror(-r));
			return -1;
		}
	}
	machine_init(&m);
	r = read_machine(a->sr, &m, o->page_size);
	if (r == 0)
		r = report_build_with(&m, &(const struct report_options){ .fail_on = o->fail_on }, &rep);
	if (r < 0) {
		machine_done(&m);
		if (!o->observe_probe)
			return 0; /* the audit after the window says it */
		fprintf(stderr, "%s: --observe-probe: %s\n", program_invocation_short_name, strerror(-r));
		return -1;
	}
	if (rep.swiotlb.active == TRI_NO)
		*ret_note = "no swiotlb pool on this system: nothing can bounce in the window, so it "
			    "cannot show a bounce; it can show each device's disk and network traffic, "
			    "failed mappings (\"DMA addr ... overflow\", \"swiotlb buffer is full\") and "
			    "lost events";
	r = o->observe_probe ? plan_probe(&rep, probe) : 0;
	report_done(&rep);
	machine_done(&m);
	return r;
}

/* The machine: observed, read (and captured), and the devices the command line names checked.
 * 0, 1 when the names leave nothing to judge, -1 (said). */
static int read_root(struct options *o, struct audit_run *a)
{
	if (check_live_page_size(o, a) < 0)
		return run_failed(o, "page-size");
	/* the window comes first: a refusal leaves no capture behind, and its reads are not captured */
	if (o->observe) {
		struct probe probe = { .fd = -1 };
		const char *note;
		int r = observe_plan(o, a, &note, &probe);
		if (r == 0)
			r = observe_window(o->observe, note, o->observe_probe ? &probe : NULL, a->sr, &a->raw);
		probe_close(&probe);
		if (r < 0)
			return run_failed(o, "observe");
	}
	if (o->capture && start_capture(o, a) < 0)
		return -1;
	if (o->observe && observe_record(&a->raw, a->cap, &a->m) < 0)
		return run_failed(o, "observe");
	if (a->cap)
		(void)capture_attach(a->cap, a->sr);
	a->m.sysroot = strdup(o->sysroot);
	if (!a->m.sysroot || read_machine(a->sr, &a->m, o->page_size) < 0) {
		fprintf(stderr, "%s: out of memory\n", program_invocation_short_name);
		return run_failed(o, "out-of-memory");
	}
	if (exhausted(o, a) < 0)
		return -1;
	if (a->cap && finish_capture(o, a, false) < 0)
		return -1;
	if (check_assumed_masks(&a->m, o) < 0)
		return run_failed(o, "assume-mask");
	int sel = check_selection(&a->m, o);
	if (sel < 0)
		return run_failed(o, "selection");
	if (sel > 0)
		return 1;
	if (machine_incomplete_why(&a->m) && !o->allow_incomplete)
		fprintf(stderr, "%s: --sysroot %s: incomplete snapshot (%s); exit status 2, "
			"--allow-incomplete audits it anyway\n", program_invocation_short_name, o->sysroot,
			machine_incomplete_why(&a->m));
	return 0;
}

/* The report, written: its exit status, or EXIT_FATAL. */
static int audit(struct options *o, struct audit_run *a, struct output **out)
{
	const struct report_options ro = {
		.fail_on = o->fail_on, .allow_incomplete = o->allow_incomplete,
		.masks = o->masks, .n_masks = o->n_masks,
		.select = o->explain ? &o->explain : o->select, .n_select = o->explain ? 1 : o->n_select,
		.no_idle = o->no_idle,
	};
	struct report rep;

	if (o->n_what_if)
		return what_if_run(o, &a->m, TAKE_PTR(*out));
	int r = report_build_with(&a->m, &ro, &rep);

	if (r < 0) {
		fprintf(stderr, "%s: analysis failed: %s\n", program_invocation_short_name, strerror(-r));
		return run_failed(o, "analysis");
	}
	rep.generated_at = clock_now();
	int status = rep.exit_status;
	r = report_write(TAKE_PTR(*out), o, &a->m, &rep);
	report_done(&rep);
	return r < 0 ? EXIT_FATAL : status;
}

void audit_run_init(struct audit_run *a)
{
	*a = (struct audit_run){ 0 };
	machine_init(&a->m);
}

int audit_run_read(struct options *o, struct audit_run *a)
{
	return open_root(o, a) == 0 ? read_root(o, a) : -1;
}

int audit_run(struct options *o, struct audit_run *a, struct output **out)
{
	int r = audit_run_read(o, a);

	if (r > 0)
		return EXIT_CLEAN; /* only disks or interfaces with no DMA device: said, nothing judged */
	if (r == 0) {
		r = audit(o, a, out);
		if (r != -1)
			return r;
	}
	/* a textfile collector must not keep serving the last good run as if it were this one */
	if (o->format == FORMAT_PROMETHEUS && *out)
		(void)report_write(TAKE_PTR(*out), o, &a->m, NULL);
	return EXIT_FATAL;
}
