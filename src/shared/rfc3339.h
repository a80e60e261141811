/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>
#include <stdint.h>

#define RFC3339_MAX 32

/*
 * t (seconds since the epoch) as "2026-12-04T19:18:32Z" into buf (at least
 * RFC3339_MAX bytes). Computed by hand: gmtime() makes glibc read the host's
 * zoneinfo, a file outside any sysroot. 0, or -ERANGE for a year past 9999
 * or before 0.
 */
int rfc3339_utc(int64_t t, char *buf, size_t size);
