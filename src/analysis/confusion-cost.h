/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What max_low_pfn read as a page count costs the machine's queues (confusion-cost.c). Pure. */
#pragma once

#include "analysis/model.h"

/* r's confusion cost from its layout, era values and analysed devices (all of them). */
void confusion_cost_compute(const struct report *r, struct confusion_cost *ret) _nonnull_all_;
