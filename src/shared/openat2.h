/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * openat2(2) (Linux 5.6) without relying on libc or kernel headers knowing
 * it: the struct and flags as include/uapi/linux/openat2.h defines them.
 * Callers fall back to a component-by-component walk when it is missing.
 */
#pragma once

#include <stdint.h>
#include <sys/syscall.h>
#ifdef HAVE_LINUX_OPENAT2_H
#include <linux/openat2.h>
#endif

#ifndef RESOLVE_IN_ROOT
#define RESOLVE_NO_XDEV 0x01
#define RESOLVE_NO_MAGICLINKS 0x02
#define RESOLVE_NO_SYMLINKS 0x04
#define RESOLVE_BENEATH 0x08
#define RESOLVE_IN_ROOT 0x10
struct open_how {
	uint64_t flags;
	uint64_t mode;
	uint64_t resolve;
};
#endif
#ifndef SYS_openat2
#define SYS_openat2 437 /* same number on every architecture */
#endif
