/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the tool knows of each architecture, keyed by utsname machine. */
#pragma once

#include <stdbool.h>

struct arch_info {
	const char *family;   /* "x86", "arm", "arm64", ... */
	unsigned bits;        /* BITS_PER_LONG of the kernel */
	bool highmem_capable; /* CONFIG_HIGHMEM exists only on 32-bit kernels */
};

/* NULL when the name is not one the tool knows. */
const struct arch_info *arch_lookup(const char *machine);
