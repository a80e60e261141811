/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * DEVICE... and --no-idle: the devices a report is about, as lspci -s and
 * lsblk DEVICE select theirs. Pure.
 */
#pragma once

#include "shared/macro.h"

#include <stdbool.h>
#include <stddef.h>

#include "analysis/model.h"
#include "analysis/findings.h"
#include "machine.h"

/*
 * Whether device index of m answers to sel: its id ("0000:00:1f.2",
 * "fe340000.mmc"), a PCI address in domain 0000 without it ("00:1f.2"), a
 * disk whose DMA device it is ("sda", "/dev/nvme0n1"), or a network
 * interface under it ("eth0").
 */
bool device_matches(const struct machine *m, size_t index, const char *sel) _nonnull_all_;

/* What a DEVICE argument names: a device (or its disk, interface), or what has none. */
enum selector_kind {
	SELECTOR_DEVICE,            /* device_matches() some device */
	SELECTOR_VIRTUAL_DISK,      /* a disk with no DMA device (loop, zram, dm): nothing to judge */
	SELECTOR_VIRTUAL_INTERFACE, /* an interface under sys/devices/virtual (lo): nothing to judge */
	SELECTOR_NONE,              /* nothing of that name */
};
enum selector_kind selector_classify(const struct machine *m, const char *sel) _nonnull_all_;

/*
 * Keep the devices any of sel names (all when n is 0), less the idle ones
 * when no_idle; the disks of the devices kept (with a selection, no disk
 * without a DMA device); the machine-wide findings and those of the devices
 * kept. 0 or -ENOMEM.
 */
_must_check_ int devices_select(const struct machine *m, const char *const *sel, size_t n, bool no_idle,
				struct devices_result *r, struct findings *f) _nonnull_(1, 5, 6);
