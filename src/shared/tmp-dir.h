/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Where the tool's private directories go. */
#pragma once

#include <stdlib.h>

/* $TMPDIR when it is an absolute path, else /tmp (as mktemp(1) does). */
static inline const char *tmp_dir(void)
{
	const char *t = secure_getenv("TMPDIR");
	return t && *t == '/' ? t : "/tmp";
}
