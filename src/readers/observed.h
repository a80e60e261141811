/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * An observation's raw material, as the live session (observe-live.c)
 * collects it and a snapshot stores it, one file each under
 * run/dmamask-audit/observe/; and the pure parser that turns it into
 * struct observation. One format for both, so a replayed snapshot gives
 * the same results as the live run that captured it.
 */
#pragma once

#include "shared/macro.h"

#include <stddef.h>

#include "machine.h"
#include "readers/readers.h"

#define OBSERVE_DIR "run/dmamask-audit/observe"

enum observe_file {
	OBSERVE_WINDOW,          /* key=value: requested_seconds, window_seconds, interrupted, lost_events, tracefs */
	OBSERVE_TRACE,           /* the instance's trace: swiotlb_bounced lines */
	OBSERVE_FORMAT,          /* events/swiotlb/swiotlb_bounced/format */
	OBSERVE_KMSG,            /* dev/kmsg records written during the window */
	OBSERVE_SWIOTLB_BEFORE,  /* key=value: io_tlb_used, io_tlb_used_hiwater, io_tlb_transient_nslabs */
	OBSERVE_SWIOTLB_AFTER,
	OBSERVE_TRAFFIC_BEFORE,  /* block/DISK=sys/block/DISK/stat; net/IF=rx_packets tx_packets rx_bytes tx_bytes */
	OBSERVE_TRAFFIC_AFTER,
	_OBSERVE_FILE_MAX,
};

/* "window", "trace", ...: the file's name in OBSERVE_DIR. */
const char *observe_file_to_string(enum observe_file f);

/* Each buffer NULL when absent; len without a terminating NUL (one is there). */
struct observe_raw {
	char *buf[_OBSERVE_FILE_MAX];
	size_t len[_OBSERVE_FILE_MAX];
};

void observe_raw_done(struct observe_raw *raw);

/* The most a trace may hold: 64 MiB of text, about 600,000 events. */
#define OBSERVE_TRACE_MAX (64u << 20)

/*
 * Pure: raw -> *ret (which must be zeroed). 0, -EBADMSG with *ret_err when the
 * window file is missing or malformed (no window_seconds), -ENOMEM. Lines of
 * the trace that do not parse are counted in bad_lines, not fatal.
 */
_must_check_ int observe_parse(const struct observe_raw *raw, struct observation *ret,
			       struct parse_error *ret_err) _nonnull_(1, 2);

/*
 * The traffic counters of every disk (sys/block/X/stat) and interface
 * (sys/class/net/X/statistics) at one end of the window, in the
 * OBSERVE_TRAFFIC_* format, through sr. 0 and *ret (malloc'd, "" when
 * there are none) or -ENOMEM; a counter that cannot be read is left out.
 */
_must_check_ int observe_read_traffic(struct sysroot *sr, char **ret, size_t *ret_len) _nonnull_all_;

/* A snapshot's observation (OBSERVE_DIR): none is fine, a bad one is an input. */
_must_check_ int read_observed(struct sysroot *sr, struct machine *m);
