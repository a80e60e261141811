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
/* { "kmod_new", &sym_kmod_new } for a static __typeof__(kmod_new) *sym_kmod_new */
#define DLOPEN_SYM(f) { #f, (void **)&sym_##f }

/*
 * dlopen soname once (*handle keeps it; RTLD_NODELETE) and resolve every
 * symbol into its pointer. 0; -ELIBACC with *ret_err (newly allocated,
 * NULL allowed) saying which library or symbol is missing.
 */
_must_check_ int dlopen_lib(const char *soname, void **handle, const struct dlopen_sym *syms, size_t n,
			    char **ret_err);
