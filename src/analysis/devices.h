/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Per device: its mask and bus limit, RAM reach under each model, and the
 * kernel model's verdict (the rules: verdict-rules.h); the structs it fills
 * are model.h's. Pure: no I/O.
 */
#pragma once

#include "shared/macro.h"

#include "analysis/model.h"

/* Every device's verdict and models (their findings: findings-device.h). 0 or -ENOMEM. */
_must_check_ int devices_analyse(const struct devices_input *in, struct devices_result *ret) _nonnull_all_;
void devices_result_done(struct devices_result *r);
