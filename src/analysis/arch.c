/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * utsname machine strings (arch/<family>/Makefile UTS_MACHINE, and what
 * `uname -m` prints) mapped to the facts the analysis needs. CONFIG_HIGHMEM
 * is offered by arm, x86 (32), powerpc (32), mips (32), sparc (32), xtensa,
 * arc, csky and microblaze (mm/Kconfig, arch/<family>/Kconfig).
 */
#include <stddef.h>
#include <string.h>

#include "analysis/arch.h"
#include "shared/macro.h"

static const struct {
	const char *name;
	bool prefix; /* name matches any machine string starting with it */
	struct arch_info info;
} table[] = {
	{ "x86_64", false, { "x86", 64, false } },
	{ "i386", false, { "x86", 32, true } },
	{ "i486", false, { "x86", 32, true } },
	{ "i586", false, { "x86", 32, true } },
	{ "i686", false, { "x86", 32, true } },
	{ "aarch64", true, { "arm64", 64, false } }, /* aarch64, aarch64_be */
	{ "arm64", false, { "arm64", 64, false } },
	{ "arm", true, { "arm", 32, true } },        /* armv5tel, armv7l, armv8l... */
	{ "riscv64", false, { "riscv", 64, false } },
	{ "riscv32", false, { "riscv", 32, false } },
	{ "ppc64", true, { "powerpc", 64, false } }, /* ppc64, ppc64le */
	{ "ppc", false, { "powerpc", 32, true } },
	{ "s390x", false, { "s390", 64, false } },
	{ "mips64", true, { "mips", 64, false } },
	{ "mips", true, { "mips", 32, true } },
	{ "loongarch64", false, { "loongarch", 64, false } },
	{ "sparc64", false, { "sparc", 64, false } },
	{ "sparc", false, { "sparc", 32, true } },
	{ "xtensa", false, { "xtensa", 32, true } },
	{ "arc", false, { "arc", 32, true } },
	{ "csky", false, { "csky", 32, true } },
	{ "microblaze", false, { "microblaze", 32, true } },
	{ "parisc64", false, { "parisc", 64, false } },
	{ "parisc", false, { "parisc", 32, false } },
	{ "alpha", false, { "alpha", 64, false } },
	{ "m68k", false, { "m68k", 32, false } },
	{ "sh", true, { "sh", 32, false } },
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
