/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The live observation window. tracefs (Documentation/trace/ftrace.rst
 * "Instances"): mkdir instances/NAME makes a ring buffer of its own with
 * its own events/ tree; rmdir removes it. Reads go through the sysroot
 * layer; the few writes (mkdir, buffer_size_kb, enable, rmdir) are to tracefs alone.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "observe/observe-live.h"
#include "shared/macro.h"
#include "shared/path.h"
#include "shared/strv.h"
#include "shared/text.h"

/* Where tracefs is, newest first (the debugfs one before 4.1); never mounted by us. */
static const char *const tracefs_dirs[] = { "sys/kernel/tracing", "sys/kernel/debug/tracing" };

#define EVENT "events/swiotlb/swiotlb_bounced"

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_TRUNC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	int e = n < 0 ? -errno : (size_t)n == strlen(s) ? 0 : -EIO;
	close(fd);
	return e;
}

/* "dmamask-audit-1234" -> 1234; 0 for anything else. */
static pid_t instance_pid(const char *name)
{
	size_t n = strlen(OBSERVE_INSTANCE_PREFIX);
	uint64_t v;

	if (strncmp(name, OBSERVE_INSTANCE_PREFIX, n) != 0 ||
	    parse_u64(name + n, strlen(name + n), 10, &v) < 0 || v == 0 || v > INT32_MAX)
		return 0;
	return (pid_t)v;
}

int observe_cleanup_stale(const char *tracefs)
{
	_cleanup_free_ char *dir = NULL;
	DIR *d;
	struct dirent *de;
	int removed = 0;

	if (!(dir = path_join(tracefs, "instances")))
		return -ENOMEM;
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		pid_t pid = instance_pid(de->d_name);
		/* kill(pid, 0): ESRCH is the only answer that proves the run is gone */
		if (!pid || pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		if (unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR) == 0)
			removed++;
	}
	closedir(d);
	return removed;
}

/* The debugfs counters as key=value lines; "" when debugfs shows none. */
static int read_counters(struct sysroot *sr, char **ret, size_t *ret_len)
{
	static const char *const names[] = { "io_tlb_used", "io_tlb_used_hiwater",
					     "io_tlb_transient_nslabs" };
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return -ENOMEM;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		_cleanup_free_ char *path = NULL, *buf = NULL;
		size_t n;
		if (!(path = path_join("sys/kernel/debug/swiotlb", names[i]))) {
			fclose(f);
			free(out);
			return -ENOMEM;
		}
		if (sysroot_read_file(sr, path, 64, &buf, &n) == 0)
			fprintf(f, "%s=%.*s\n", names[i], (int)strcspn(buf, "\n"), buf);
	}
	if (fclose(f) != 0) {
		free(out);
		return -ENOMEM;
	}
	*ret = out;
	*ret_len = len;
	return 0;
}

/* The sequence number of a dev/kmsg record ("PRI,SEQ,TS,FLAGS;..."); false if none. */
static bool record_seq(const char *s, const char *end, uint64_t *ret)
{
	const char *c1 = memchr(s, ',', (size_t)(end - s));
	const char *c2 = c1 ? memchr(c1 + 1, ',', (size_t)(end - c1 - 1)) : NULL;

	return c2 && parse_u64(c1 + 1, (size_t)(c2 - c1 - 1), 10, ret) == 0;
}

/*
 * Keep the records after sequence number after (all when !have_after), in
 * place: a record is its line and the " KEY=value" lines that follow it.
 */
static size_t keep_records_after(char *buf, size_t len, bool have_after, uint64_t after,
				 uint64_t *ret_last, bool *ret_have_last)
{
	size_t out = 0;
	bool keep = false;

	for (size_t i = 0; i < len;) {
		char *nl = memchr(buf + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (buf + i)) + 1 : len - i;
		uint64_t seq;
		if (buf[i] != ' ' && record_seq(buf + i, buf + i + n, &seq)) {
			keep = !have_after || seq > after;
			*ret_last = seq;
			*ret_have_last = true;
		}
		if (keep) {
			memmove(buf + out, buf + i, n);
			out += n;
		}
		i += n;
	}
	return out;
}

/* The per-CPU overrun of the instance, summed (per_cpu/cpuN/stats "overrun: N"). */
static int read_overrun(struct sysroot *sr, const char *inst, bool *ret_known, uint64_t *ret)
{
	_cleanup_free_ char *dir = NULL;
	struct strv cpus = { 0 };
	uint64_t sum = 0;
	int r;

	*ret_known = false;
	if (!(dir = path_join(inst, "per_cpu")))
		return -ENOMEM;
	r = sysroot_list_dir(sr, dir, &cpus);
	if (r < 0)
		return r == -ENOMEM ? r : 0;
	for (size_t i = 0; i < cpus.n; i++) {
		_cleanup_free_ char *path = NULL, *buf = NULL;
		size_t len;
		if (asprintf(&path, "%s/%s/stats", dir, cpus.v[i]) < 0) {
			strv_done(&cpus);
			return -ENOMEM;
		}
		if (sysroot_read_file(sr, path, 4096, &buf, &len) < 0)
			continue;
		const char *p = strstr(buf, "overrun: ");
		uint64_t v;
		if (p && parse_u64(p + 9, strcspn(p + 9, "\n"), 10, &v) == 0)
			sum += v;
	}
	strv_done(&cpus);
	*ret_known = true;
	*ret = sum;
	return 0;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Sleep through the window from start, a tenth of a second at a time, until it ends or a signal stops it. */
static double wait_window(const struct observe_options *opt, double start)
{
	double elapsed = now_seconds() - start;
	unsigned shown = UINT32_MAX;

	while (!stop_signal && elapsed < opt->seconds) {
		unsigned left = opt->seconds - (unsigned)elapsed;
		if (opt->countdown && left != shown) {
			fprintf(stderr, "\r%s: observing DMA bounces, %u s left (Ctrl-C ends it now) ",
				program_invocation_short_name, left);
			shown = left;
		}
		struct timespec tenth = { 0, 100 * 1000 * 1000 };
		nanosleep(&tenth, NULL);
		elapsed = now_seconds() - start;
	}
	if (opt->countdown)
		fprintf(stderr, "\r%*s\r", 72, "");
	return elapsed < opt->seconds ? elapsed : (double)opt->seconds;
}

struct session {
	struct sysroot *sr;
	const char *tracefs;     /* root-relative, e.g. "sys/kernel/tracing" */
	char *inst_abs;          /* "/sys/kernel/tracing/instances/dmamask-audit-PID" */
	char *inst_rel;
	struct sigaction old[3];
};

static const int stop_signals[3] = { SIGINT, SIGTERM, SIGHUP };

static void session_signals(struct session *s, bool install)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++) {
		if (install)
			sigaction(stop_signals[i], &sa, &s->old[i]);
		else
			sigaction(stop_signals[i], &s->old[i], NULL);
	}
}

/* The instance's per-CPU ring buffer grown to hold a busy window (the trace
 * is read once, at its end): 4 MiB a CPU, 32 MiB in all at most, never
 * below what the kernel gave (buffer_size_kb, "N (expanded: M)" before use).
 * A buffer that stays small only loses events, which lost_events reports. */
static void size_buffer(struct sysroot *sr, const struct session *s)
{
	_cleanup_free_ char *dir = NULL, *rel = NULL, *abs = NULL, *buf = NULL;
	struct strv cpus = { 0 };
	size_t len;
	uint64_t kb = 0, now = 0;

	if (!(dir = path_join(s->inst_rel, "per_cpu")) ||
	    !(rel = path_join(s->inst_rel, "buffer_size_kb")) ||
	    !(abs = path_join(s->inst_abs, "buffer_size_kb")))
		return;
	if (sysroot_list_dir(sr, dir, &cpus) < 0 || cpus.n == 0) {
		strv_done(&cpus);
		return;
	}
	kb = 32768 / cpus.n < 4096 ? 32768 / cpus.n : 4096;
	strv_done(&cpus);
	if (sysroot_read_file(sr, rel, 4096, &buf, &len) == 0) {
		const char *p = strstr(buf, "expanded: ");
		p = p ? p + 10 : buf;
		if (parse_u64(p, strspn(p, "0123456789"), 10, &now) == 0 && now >= kb)
			return;
	}
	char v[24];
	snprintf(v, sizeof(v), "%llu", (unsigned long long)kb);
	(void)write_file(abs, v);
}

/* Everything between mkdir and rmdir of the instance. */
static int observe_in_instance(struct session *s, const struct observe_options *opt,
			       struct observe_raw *raw, const char **ret_why)
{
	_cleanup_free_ char *enable = NULL, *trace = NULL, *kmsg_before = NULL;
	size_t kmsg_before_len = 0;
	uint64_t last_seq = 0, lost = 0;
	bool have_last = false, lost_known = false;
	int r;

	if (!(enable = path_join(s->inst_abs, EVENT "/enable")) ||
	    !(trace = path_join(s->inst_rel, "trace")))
		return -ENOMEM;
	r = read_counters(s->sr, &raw->buf[OBSERVE_SWIOTLB_BEFORE], &raw->len[OBSERVE_SWIOTLB_BEFORE]);
	if (r < 0)
		return r;
	if (sysroot_read_records(s->sr, "dev/kmsg", OBSERVE_TRACE_MAX, &kmsg_before, &kmsg_before_len) == 0)
		keep_records_after(kmsg_before, kmsg_before_len, false, 0, &last_seq, &have_last);
	size_buffer(s->sr, s);
	/* each disk's and interface's counters at both ends: the traffic the bounces are out of */
	r = observe_read_traffic(s->sr, &raw->buf[OBSERVE_TRAFFIC_BEFORE], &raw->len[OBSERVE_TRAFFIC_BEFORE]);
	if (r < 0)
		return r;
	if (opt->note)
		fprintf(stderr, "%s: --observe: %s\n", program_invocation_short_name, opt->note);
	r = write_file(enable, "1");
	if (r < 0) {
		*ret_why = "cannot enable swiotlb:swiotlb_bounced in the tool's tracefs instance";
		return r;
	}
	/* the probe's reads are the window's first traffic: their bounces are traced */
	double start = now_seconds();
	struct probe_result probe = { 0 };
	if (opt->probe) {
		r = probe_run(opt->probe, &probe);
		if (r < 0) {
			(void)write_file(enable, "0");
			return r;
		}
	}
	double seconds = wait_window(opt, start);
	(void)write_file(enable, "0");
	r = observe_read_traffic(s->sr, &raw->buf[OBSERVE_TRAFFIC_AFTER], &raw->len[OBSERVE_TRAFFIC_AFTER]);
	if (r < 0)
		return r;

	r = sysroot_read_file(s->sr, trace, OBSERVE_TRACE_MAX, &raw->buf[OBSERVE_TRACE],
			      &raw->len[OBSERVE_TRACE]);
	if (r < 0) {
		*ret_why = r == -EFBIG ? "the window's trace is larger than 64 MiB: observe a shorter window"
				       : "cannot read the tool's tracefs instance";
		return r;
	}
	r = read_overrun(s->sr, s->inst_rel, &lost_known, &lost);
	if (r < 0)
		return r;
	r = read_counters(s->sr, &raw->buf[OBSERVE_SWIOTLB_AFTER], &raw->len[OBSERVE_SWIOTLB_AFTER]);
	if (r < 0)
		return r;
	if (sysroot_read_records(s->sr, "dev/kmsg", OBSERVE_TRACE_MAX, &raw->buf[OBSERVE_KMSG],
				 &raw->len[OBSERVE_KMSG]) == 0) {
		uint64_t end_seq = 0;
		bool have_end = false;
		raw->len[OBSERVE_KMSG] = keep_records_after(raw->buf[OBSERVE_KMSG], raw->len[OBSERVE_KMSG],
							    have_last, last_seq, &end_seq, &have_end);
		raw->buf[OBSERVE_KMSG][raw->len[OBSERVE_KMSG]] = '\0';
	}
	char lost_line[48] = "";
	if (lost_known)
		snprintf(lost_line, sizeof(lost_line), "lost_events=%llu\n", (unsigned long long)lost);
	_cleanup_free_ char *probe_lines = NULL;
	if (opt->probe) {
		char reach[32] = "all";
		if (opt->probe->reach_end != UINT64_MAX)
			snprintf(reach, sizeof(reach), "0x%llx", (unsigned long long)opt->probe->reach_end);
		if (asprintf(&probe_lines,
			     "probe_disk=%s\nprobe_reach_end=%s\nprobe_bytes=%llu\n"
			     "probe_above_reach_bytes=%llu\nprobe_allocated_bytes=%llu\n%s%s%s",
			     opt->probe->disk, reach, (unsigned long long)probe.bytes_read,
			     (unsigned long long)probe.above_reach_bytes,
			     (unsigned long long)probe.allocated_bytes, probe.why ? "probe_why=" : "",
			     probe.why ? probe.why : "", probe.why ? "\n" : "") < 0) {
			probe_lines = NULL;
			return -ENOMEM;
		}
	}
	if (asprintf(&raw->buf[OBSERVE_WINDOW],
		     "requested_seconds=%u\nwindow_seconds=%.3f\ninterrupted=%d\n%stracefs=%s\n%s",
		     opt->seconds, seconds, stop_signal == SIGINT, lost_line, s->tracefs,
		     probe_lines ? probe_lines : "") < 0) {
		raw->buf[OBSERVE_WINDOW] = NULL;
		return -ENOMEM;
	}
	raw->len[OBSERVE_WINDOW] = strlen(raw->buf[OBSERVE_WINDOW]);
	return 0;
}

/* The tracefs directory with instances/ and the event; NULL and *ret_why when none. */
static const char *find_tracefs(struct sysroot *sr, struct observe_raw *raw, const char **ret_why)
{
	struct stat st;

	*ret_why = "tracefs is not mounted (/sys/kernel/tracing, or /sys/kernel/debug/tracing): "
		   "mount it with 'mount -t tracefs nodev /sys/kernel/tracing'";
	for (size_t i = 0; i < ARRAY_SIZE(tracefs_dirs); i++) {
		_cleanup_free_ char *inst = NULL, *format = NULL;
		if (!(inst = path_join(tracefs_dirs[i], "instances")) ||
		    !(format = path_join(tracefs_dirs[i], EVENT "/format")))
			return NULL;
		if (sysroot_stat(sr, inst, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		if (sysroot_read_file(sr, format, 65536, &raw->buf[OBSERVE_FORMAT],
				      &raw->len[OBSERVE_FORMAT]) < 0) {
			*ret_why = "this kernel has no swiotlb:swiotlb_bounced trace event "
				   "(no CONFIG_SWIOTLB, or before 3.13)";
			return NULL;
		}
		return tracefs_dirs[i];
	}
	return NULL;
}

int observe_live(struct sysroot *sr, const struct observe_options *opt, struct observe_raw *ret,
		 const char **ret_why)
{
	struct observe_raw raw = { 0 };
	struct session s = { .sr = sr };
	int r;

	*ret_why = NULL;
	if (geteuid() != 0) {
		*ret_why = "needs root: it traces the kernel through a tracefs instance";
		return -EPERM;
	}
	s.tracefs = find_tracefs(sr, &raw, ret_why);
	if (!s.tracefs) {
		observe_raw_done(&raw);
		return *ret_why ? -ENOENT : -ENOMEM;
	}
	*ret_why = NULL;
	if (asprintf(&s.inst_rel, "%s/instances/" OBSERVE_INSTANCE_PREFIX "%d", s.tracefs, (int)getpid()) < 0 ||
	    asprintf(&s.inst_abs, "/%s", s.inst_rel) < 0) {
		observe_raw_done(&raw);
		free(s.inst_rel);
		return -ENOMEM;
	}
	/* a run killed by SIGKILL left its instance: the next one removes it */
	char tracefs_abs[64];
	snprintf(tracefs_abs, sizeof(tracefs_abs), "/%s", s.tracefs);
	(void)observe_cleanup_stale(tracefs_abs);
	stop_signal = 0;
	session_signals(&s, true);
	if (mkdir(s.inst_abs, 0700) < 0) {
		r = -errno;
		*ret_why = "cannot make the tool's tracefs instance";
	} else {
		r = observe_in_instance(&s, opt, &raw, ret_why);
		if (rmdir(s.inst_abs) < 0 && r == 0) {
			r = -errno;
			*ret_why = "cannot remove the tool's tracefs instance";
		}
	}
	session_signals(&s, false);
	free(s.inst_rel);
	free(s.inst_abs);
	if (stop_signal == SIGTERM || stop_signal == SIGHUP) {
		observe_raw_done(&raw);
		raise(stop_signal); /* the instance is gone: die of the signal as asked */
	}
	if (r < 0) {
		observe_raw_done(&raw);
		return r;
	}
	*ret = raw;
	return 0;
}
