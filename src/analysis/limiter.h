/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What limits a device (enum reach_limiter, model.h): decided once from its
 * verdict and reach, after devices.c applied the verdict, so that every
 * finding's remedy and --explain name the same thing. Pure: no I/O.
 */
#pragma once

#include "shared/macro.h"

#include "analysis/model.h"

enum reach_limiter limiter_decide(const struct devices_input *in, const struct device_report *r)
	_nonnull_all_;
