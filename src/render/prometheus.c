/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* placeholder: being written */
#include "render/render.h"

int render_prometheus(FILE *out, const struct machine *m, const struct report *r)
{
	(void)out;
	(void)m;
	(void)r;
	return -EOPNOTSUPP;
}
