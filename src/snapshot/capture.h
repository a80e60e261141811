/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --capture: the sysroot layer copies into a directory every file, link and
 * directory it touched, at its canonical path, plus MANIFEST. The result is
 * a sysroot that replays the same audit elsewhere: relative links only, no
 * device nodes, no FIFOs.
 *
 * A capture is complete or says so. The directory is locked while it is
 * written, so two captures cannot mix in it. MANIFEST exists from the start
 * with complete=0, and is replaced (a temporary file, renamed over it) only
 * at the end, by one ending in complete=1 when every write succeeded and
 * complete=0 with incomplete_reason otherwise: a capture stopped at any
 * point, even by SIGKILL or a power cut, never looks complete.
 *
 * Every write is confined to the directory: each path is resolved from the
 * directory's fd with openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS) (or,
 * before Linux 5.6, one O_NOFOLLOW component at a time), so a symlink in
 * the capture -- one it wrote itself, or one planted there -- is never
 * written through, whatever the source tree does meanwhile.
 *
 * All functions return 0 or -errno; the first failure is also kept, and
 * makes capture_finish() write complete=0.
 */
#pragma once

#include "shared/macro.h"

#include <stddef.h>

#include "machine.h"

struct capture;

/* proc/iomem addresses and kernel-log records dmesg_restrict hides from other
 * users: a capture (and its archive) is its owner's only */
#define CAPTURE_FILE_MODE 0600
#define CAPTURE_DIR_MODE 0700

enum {
	CAPTURE_NO_OPENAT2 = 1 << 0, /* the component walk even where openat2 exists (tests) */
	CAPTURE_NO_FLOCK = 1 << 1,   /* the lock file even where flock() works (tests) */
	/*
	 * Only the confined writer: no lock, no MANIFEST of its own, no name
	 * reserved (an archive unpacked for --sysroot). capture_finish() is not
	 * called; capture_incomplete_reason() says what failed.
	 */
	CAPTURE_PLAIN = 1 << 2,
	CAPTURE_FULL_LOG = 1 << 3, /* the whole kernel log, not only the records parsed */
};

/*
 * Lock dir (made when missing) and claim it: -EBUSY when another capture
 * holds it, -ENOTEMPTY when it holds anything. Then MANIFEST says complete=0.
 */
_must_check_ int capture_new(const char *dir, unsigned flags, struct capture **ret);
/* Closes the directory, which releases the lock. NULL is fine. */
void capture_free(struct capture *c);

/*
 * canon: root-relative path with every symlink resolved ("sys/devices/...").
 * A copy that fails leaves the capture incomplete, as capture_finish() says:
 * the read it shadows goes on, so these results may be dropped.
 */
int capture_file(struct capture *c, const char *canon, const char *buf, size_t len);
/* A symlink at canon; an absolute target (root-relative) is stored relative. */
int capture_link(struct capture *c, const char *canon, const char *target);
int capture_dir(struct capture *c, const char *canon);
/* An empty regular file standing for something whose existence was checked. */
int capture_placeholder(struct capture *c, const char *canon);
/*
 * A read of path (as asked) that failed with err: MANIFEST error.<path>=ERRNO,
 * once per path (the first error wins). Past MANIFEST_ERRORS_MAX bytes of
 * such lines, or for a path no MANIFEST line can hold, only a count is kept
 * (errors_omitted=N), and the capture is incomplete.
 */
int capture_error(struct capture *c, const char *path, int err);
/* The capture is incomplete for a reason of the caller's (copied): a source snapshot that was. */
void capture_fail(struct capture *c, const char *reason);

/*
 * Write the final MANIFEST: the given entries, the errors, then complete=1,
 * or complete=0 after incomplete_reason. 0 when complete; else the first
 * failure (-errno, or -E2BIG for omitted errors, -ECANCELED for
 * capture_fail()), and capture_incomplete_reason() says what happened.
 */
_must_check_ int capture_finish(struct capture *c, const struct manifest_entry *kv, size_t n);
/* Why the capture is incomplete, in words; NULL while nothing went wrong. */
const char *capture_incomplete_reason(const struct capture *c);

/*
 * From a signal handler (async-signal-safe): the capture stops here. MANIFEST
 * becomes complete=0 with incomplete_reason=interrupted by <signame>, the
 * file being written and the temporaries are removed. True when it did so;
 * false once capture_finish() has put its MANIFEST in place (or c is NULL).
 */
bool capture_interrupt(struct capture *c, const char *signame);

struct sysroot;
/* Copy every access of sr from now on into c: c becomes sr's tap (sysroot_set_tap()). */
int capture_attach(struct capture *c, struct sysroot *sr);

/* CAPTURE_FULL_LOG was given (false for NULL: nothing is captured). */
bool capture_full_log(const struct capture *c);

/* "openat2" or "walk": how paths in the capture are resolved. */
const char *capture_resolver(const struct capture *c);
/* Tests: raise(sig) halfway through the n-th file written (n > 0). */
void capture_set_test_interrupt(struct capture *c, unsigned long n, int sig);
