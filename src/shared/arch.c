/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * utsname machine strings (arch/<family>/Makefile UTS_MACHINE, and what
 * `uname -m` prints) mapped to the facts the analysis needs. CONFIG_HIGHMEM
 * is offered by arm, x86 (32), powerpc (32), mips (32), sparc (32), xtensa,
 * arc, csky and microblaze (mm/Kconfig, arch/<family>/Kconfig).
 */
#include <stddef.h>
#include <string.h>

#include "shared/arch.h"
#include "shared/macro.h"
#include "shared/string-table.h"

static const char *const arch_family_table[_ARCH_FAMILY_MAX] = {
	[ARCH_X86] = "x86",
	[ARCH_ARM] = "arm",
	[ARCH_ARM64] = "arm64",
	[ARCH_RISCV] = "riscv",
	[ARCH_POWERPC] = "powerpc",
	[ARCH_S390] = "s390",
	[ARCH_MIPS] = "mips",
	[ARCH_LOONGARCH] = "loongarch",
	[ARCH_SPARC] = "sparc",
	[ARCH_XTENSA] = "xtensa",
	[ARCH_ARC] = "arc",
	[ARCH_CSKY] = "csky",
	[ARCH_MICROBLAZE] = "microblaze",
	[ARCH_PARISC] = "parisc",
	[ARCH_ALPHA] = "alpha",
	[ARCH_M68K] = "m68k",
	[ARCH_SH] = "sh",
};

DEFINE_STRING_TABLE_LOOKUP_TO_STRING(arch_family, enum arch_family);

static const struct {
	const char *name;
	bool prefix; /* name matches any machine string starting with it */
	struct arch_info info;
} table[] = {
	{ "x86_64", false, { ARCH_X86, 64, false } },
	{ "i386", false, { ARCH_X86, 32, true } },
	{ "i486", false, { ARCH_X86, 32, true } },
	{ "i586", false, { ARCH_X86, 32, true } },
	{ "i686", false, { ARCH_X86, 32, true } },
	{ "aarch64", true, { ARCH_ARM64, 64, false } }, /* aarch64, aarch64_be */
	{ "arm64", false, { ARCH_ARM64, 64, false } },
	{ "arm", true, { ARCH_ARM, 32, true } },        /* armv5tel, armv7l, armv8l... */
	{ "riscv64", false, { ARCH_RISCV, 64, false } },
	{ "riscv32", false, { ARCH_RISCV, 32, false } },
	{ "ppc64", true, { ARCH_POWERPC, 64, false } }, /* ppc64, ppc64le */
	{ "ppc", false, { ARCH_POWERPC, 32, true } },
	{ "s390x", false, { ARCH_S390, 64, false } },
	{ "mips64", true, { ARCH_MIPS, 64, false } },
	{ "mips", true, { ARCH_MIPS, 32, true } },
	{ "loongarch64", false, { ARCH_LOONGARCH, 64, false } },
	{ "sparc64", false, { ARCH_SPARC, 64, false } },
	{ "sparc", false, { ARCH_SPARC, 32, true } },
	{ "xtensa", false, { ARCH_XTENSA, 32, true } },
	{ "arc", false, { ARCH_ARC, 32, true } },
	{ "csky", false, { ARCH_CSKY, 32, true } },
	{ "microblaze", false, { ARCH_MICROBLAZE, 32, true } },
	{ "parisc64", false, { ARCH_PARISC, 64, false } },
	{ "parisc", false, { ARCH_PARISC, 32, false } },
	{ "alpha", false, { ARCH_ALPHA, 64, false } },
	{ "m68k", false, { ARCH_M68K, 32, false } },
	{ "sh", true, { ARCH_SH, 32, false } },
};

const struct arch_info *arch_lookup(const char *machine)
{
	if (!machine)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(table); i++) {
		size_t len = strlen(table[i].name);
		if (table[i].prefix ? strncmp(machine, table[i].name, len) == 0
				    : strcmp(machine, table[i].name) == 0)
			return &table[i].info;
	}
	return NULL;
}
