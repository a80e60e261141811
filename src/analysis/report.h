/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The report: everything the renderers print, computed from struct machine. */
#pragma once

#include "shared/macro.h"

#include "analysis/model.h"

/* The release whose era rules judge m: KV() of its release, or of the stable release behind a
 * distribution's ABI name; 0 unknown. */
uint32_t report_release(const struct machine *m) _nonnull_all_;
/* 0, or -ENOMEM / -EINVAL (bad page size). */
_must_check_ int report_build_with(const struct machine *m, const struct report_options *o, struct report *ret) _nonnull_all_;
void report_done(struct report *r);
