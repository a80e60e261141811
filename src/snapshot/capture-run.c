/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a --capture run adds around the snapshot writer (capture.c): the
 * signals that must leave MANIFEST saying complete=0, and the last files, the
 * udev properties and MANIFEST itself, written from the machine read.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "snapshot/capture-run.h"
#include "shared/rfc3339.h"
#include "readers/udev.h"
#include "shared/macro.h"
#include "shared/path.h"

/* The udev properties a snapshot cannot get from libudev, as plain files. */
static void capture_udev(struct capture *cap, const struct machine *m)
{
	for (size_t i = 0; i < m->n_devices + m->n_blocks; i++) {
		bool dev = i < m->n_devices;
		const struct udev_props *u = udev_or_none(dev ? m->devices[i].udev : m->blocks[i - m->n_devices].udev);
		const char *name = dev ? m->devices[i].id : m->blocks[i - m->n_devices].disk;
		_cleanup_free_ char *text = NULL, *path = NULL;
		if (udev_props_format(u, &text) < 0 || !*text)
			continue;
		if (!(path = path_join(dev ? UDEV_SNAPSHOT : UDEV_SNAPSHOT "/block", name)))
			continue;
		capture_file(cap, path, text, strlen(text));
	}
}

/* The capture a signal handler must mark incomplete, and where it goes (for the message). */
static struct capture *volatile capture_running;
static const char *volatile capture_dest;
static volatile bool capture_archive; /* dest is an archive, written only at the end */

static const int capture_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void write_str(const char *s)
{
	(void)!write(STDERR_FILENO, s, strlen(s));
}

/*
 * SIGINT, SIGTERM or SIGHUP during a capture: MANIFEST says complete=0 and
 * why, the half-written file and temporaries go, and the process then dies
 * of the signal as it would have without us (so a shell running it stops
 * its script too). Async-signal-safe: write(2), raise(3), no stdio.
 */
static void on_capture_signal(int sig)
{
	const char *name = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP";

	bool marked = capture_interrupt(capture_running, name);

	write_str(program_invocation_short_name);
	write_str(": --capture ");
	write_str(capture_dest ? capture_dest : "");
	write_str(": interrupted by ");
	write_str(name);
	write_str(capture_archive ? "; nothing written\n"
		  : marked	  ? "; its MANIFEST says complete=0\n"
				  : " once it was complete\n");
	raise(sig); /* SA_RESETHAND: the default action, once this handler returns */
}

/* Which of capture_signals were ignored when we started (nohup, a background job): they stay so. */
static bool capture_signal_ignored[ARRAY_SIZE(capture_signals)];

void capture_guard(struct capture *cap, const char *dest, bool archive, int also_sig)
{
	struct sigaction sa = { .sa_handler = cap ? on_capture_signal : SIG_DFL }, old;

	if (cap) {
		capture_running = cap;
		capture_dest = dest;
		capture_archive = archive;
		sa.sa_flags = SA_RESETHAND;
		sigemptyset(&sa.sa_mask);
		for (size_t i = 0; i < ARRAY_SIZE(capture_signals); i++)
			sigaddset(&sa.sa_mask, capture_signals[i]); /* one handler at a time */
	}
	for (size_t i = 0; i < ARRAY_SIZE(capture_signals); i++) {
		if (cap) {
			sigaction(capture_signals[i], NULL, &old);
			capture_signal_ignored[i] = old.sa_handler == SIG_IGN && capture_signals[i] != also_sig;
		}
		if (!capture_signal_ignored[i])
			sigaction(capture_signals[i], &sa, NULL);
	}
	if (!cap)
		capture_running = NULL;
}

int capture_finish_machine(struct capture *cap, const struct machine *m)
{
	char page[32], uid[32], when[64];
	time_t now = time(NULL);

	snprintf(page, sizeof(page), "%u", m->page_size);
	snprintf(uid, sizeof(uid), "%u", (unsigned)getuid());
	if (rfc3339_utc((int64_t)now, when, sizeof(when)) < 0)
		snprintf(when, sizeof(when), "unknown");
	const struct manifest_entry kv[] = {
		{ (char *)"arch", m->arch.value ? m->arch.value : (char *)"unknown" },
		{ (char *)"page_size", page },
		{ (char *)"kernel_release", m->release.value ? m->release.value : (char *)"unknown" },
		{ (char *)"endianness", __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? (char *)"big" : (char *)"little" },
		{ (char *)"uid", uid },
		{ (char *)"captured_by", (char *)PACKAGE_NAME " " PACKAGE_VERSION },
		{ (char *)"captured_at", when },
		/* what a reader of the snapshot cannot tell from dev/kmsg alone */
		{ (char *)"kernel_log", capture_full_log(cap) ? (char *)"full" : (char *)"parsed-records" },
		{ (char *)"hostname", m->hostname.value }, /* last: left out when unknown */
	};
	capture_udev(cap, m);
	return capture_finish(cap, kv, ARRAY_SIZE(kv) - !m->hostname.value);
}

