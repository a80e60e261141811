/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "shared/dlopen-lib.h"

int dlopen_lib(const char *soname, void **handle, const struct dlopen_sym *syms, size_t n,
	       char **ret_err)
{
	if (*handle)
		return 0;
	void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
	const char *missing = NULL;

	for (size_t i = 0; h && i < n && !missing; i++)
		if (!(*syms[i].fn = dlsym(h, syms[i].name)))
			missing = syms[i].name;
	if (h && !missing) {
		*handle = h;
		return 0;
	}
	if (ret_err && asprintf(ret_err, "cannot load %s%s%s: %s", soname, missing ? ": no " : "",
				missing ? missing : "", missing ? "too old" : dlerror()) < 0)
		*ret_err = NULL;
	if (h)
		dlclose(h);
	return -ELIBACC;
}
