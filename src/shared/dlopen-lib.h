/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Optional libraries loaded when a run needs them, as systemd loads its
 * own (dlopen_many_sym_or_warn): libkmod for a module lookup, libudev on a
 * live run, libarchive for an archive. A run that needs none (--version, a
 * snapshot whose devices are all bound) maps none of them, nor what they
 * pull in (libcrypto, libzstd, liblzma; libxml2, ICU, libstdc++...).
 */
#pragma once

#include <stddef.h>

#include "shared/macro.h"

struct dlopen_sym {
	const char *name;
	void **fn;
};

/*
 * For LIST(X), a list of X(function) (KMOD_SYMBOLS below): one
 * "static __typeof__(f) *sym_f" per function, and "static int
 * loader(char **ret_err)" that loads soname into them.
 */
#define DLOPEN_SYM_DECLARE(f) static __typeof__(f) *sym_##f;
#define DLOPEN_SYM_ENTRY(f) { #f, (void **)&sym_##f },
#define DLOPEN_LIBRARY(loader, soname, LIST)                                                    \
	LIST(DLOPEN_SYM_DECLARE)                                                                 \
	static int loader(char **ret_err)                                                        \
	{                                                                                        \
		static void *handle;                                                             \
		static const struct dlopen_sym syms[] = { LIST(DLOPEN_SYM_ENTRY) };              \
		return dlopen_lib(soname, &handle, syms, sizeof(syms) / sizeof(syms[0]), ret_err); \
	}

/*
 * dlopen soname once (*handle keeps it; RTLD_NODELETE) and resolve every
 * symbol into its pointer. 0; -ELIBACC with *ret_err (newly allocated,
 * NULL allowed) saying which library or symbol is missing.
 */
_must_check_ int dlopen_lib(const char *soname, void **handle, const struct dlopen_sym *syms, size_t n,
			    char **ret_err);
