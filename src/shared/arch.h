/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the tool knows of each architecture, keyed by utsname machine. */
#pragma once

#include <errno.h>
#include <stdbool.h>

/* arch/<family>/ in the kernel tree; era rows name one, or none for all. */
enum arch_family {
	ARCH_X86,
	ARCH_ARM,
	ARCH_ARM64,
	ARCH_RISCV,
	ARCH_POWERPC,
	ARCH_S390,
	ARCH_MIPS,
	ARCH_LOONGARCH,
	ARCH_SPARC,
	ARCH_XTENSA,
	ARCH_ARC,
	ARCH_CSKY,
	ARCH_MICROBLAZE,
	ARCH_PARISC,
	ARCH_ALPHA,
	ARCH_M68K,
	ARCH_SH,
	_ARCH_FAMILY_MAX,
	_ARCH_FAMILY_INVALID = -EINVAL, /* unknown machine; in an era row: every architecture */
};

/* "x86", "arm", ...; NULL for _ARCH_FAMILY_INVALID. */
const char *arch_family_to_string(enum arch_family f);

struct arch_info {
	enum arch_family family;
	unsigned bits;        /* BITS_PER_LONG of the kernel */
	bool highmem_capable; /* CONFIG_HIGHMEM exists only on 32-bit kernels */
};

/* NULL when the name is not one the tool knows. */
const struct arch_info *arch_lookup(const char *machine);
