/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --observe-probe DISK: during the --observe window, read a few MiB of a
 * disk with O_DIRECT into buffers whose pages lie above its DMA device's
 * reach, so that a partial device is seen bouncing and a direct one seen not
 * to (observe-probe.c). Read-only; live only; root only (page frame numbers).
 */
#pragma once

#include "shared/macro.h"

#include <stdbool.h>
#include <stdint.h>

/* What the probe reads by default: 8 MiB, 2048 bounces of 4 KiB for a partial device. */
#define PROBE_BYTES (8u << 20)
/* The most anonymous memory it allocates looking for pages above the reach. */
#define PROBE_ALLOC_MAX (512u << 20)

struct probe {
	int fd;                  /* the disk, O_RDONLY|O_DIRECT; -1 none */
	char *path;              /* "/dev/vda" */
	char *disk;              /* "vda" */
	uint64_t bytes;          /* to read */
	/* the highest CPU physical address its DMA device reaches (inclusive);
	 * UINT64_MAX: all of it (a direct or translated device): any page will do */
	uint64_t reach_end;
	uint64_t alloc_max;      /* the most anonymous memory to look through: PROBE_ALLOC_MAX */
};

struct probe_result {
	uint64_t bytes_read;
	uint64_t above_reach_bytes; /* of them, read into pages above reach_end */
	uint64_t allocated_bytes;   /* anonymous memory it allocated to find those pages */
	const char *why;            /* static: why it read less than asked, or nothing; NULL: all of it */
};

/*
 * Open the disk ("vda" or "/dev/vda") for the probe: only a block device,
 * only O_RDONLY|O_DIRECT. 0 and *ret filled (reach_end and bytes to be set
 * by the caller), or -errno and *ret_why (static, one line): a regular file,
 * a character device, no such device, or the open refused.
 */
_must_check_ int probe_open(const char *disk, struct probe *ret, const char **ret_why) _nonnull_all_;

void probe_close(struct probe *p);

/*
 * Place the buffers and read p->bytes from the disk's start into them.
 * Always fills *ret; a read or placement that fails is said in ret->why, the
 * window goes on. -ENOMEM only.
 */
_must_check_ int probe_run(const struct probe *p, struct probe_result *ret) _nonnull_all_;
