/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Renderers print a report; they never compute. One file per format. */
#pragma once

#include <stdio.h>

#include "analysis/report.h"
#include "machine.h"

/* Each returns 0, or -errno when the output could not be written. */
int render_text(FILE *out, const struct machine *m, const struct report *r);
int render_json(FILE *out, const struct machine *m, const struct report *r);
