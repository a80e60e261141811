/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The parts of the text report, in the order render_text prints them. */
#pragma once

#include "shared/macro.h"

#include <stdio.h>

#include "analysis/model.h"
#include "render/render.h"

/* Devices judged, how many bounce, fail or are forced; one entry per device needing action. 0 or -ENOMEM. */
_must_check_ int text_print_summary(FILE *out, const struct report *r, const struct render_options *o,
				    unsigned width);
/* The memory layout in plain words; the ranges and zones with --verbose. */
void text_print_memory(FILE *out, const struct report *r, const struct render_options *o, unsigned width);
/* Findings grouped by id and cause. 0 or -ENOMEM. */
_must_check_ int text_print_findings(FILE *out, const struct findings *f, unsigned width, bool colour);
