/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --observe: each device's verdict checked against the bounces the kernel
 * traced in the window (prediction-check.c). Pure: no I/O.
 */
#pragma once

#include "shared/macro.h"

#include <errno.h>

#include "analysis/model.h"

/* Set r->observed, r->observed_result and r->observed_why (static) from in->m->observed. */
void prediction_check(const struct devices_input *in, struct device_report *r) _nonnull_all_;

/*
 * The pool's peak use in the window, in slabs: a new io_tlb_used_hiwater
 * (6.4+) set in it is exact; else the larger of io_tlb_used at either end, a
 * lower bound. False when debugfs showed neither.
 */
bool observation_pool_peak(const struct observation *o, uint64_t *ret_slabs, bool *ret_exact) _nonnull_all_;
