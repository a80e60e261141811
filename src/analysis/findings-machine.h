/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Machine-wide findings (findings-machine.c). Pure. */
#pragma once

#include "analysis/model.h"

/* Append the machine-wide findings of m, with r's layout, swiotlb state and era values, to f. */
void machine_findings(const struct machine *m, const struct report *r, struct findings *f);

/* pfn-count-confusion where it applies but changes no queue's decision: needs r->confusion. */
void confusion_cost_finding(const struct report *r, struct findings *f);

/* The risk a device bound later meets (no-bounce-pool): needs r's devices analysed. */
void latent_findings(const struct report *r, struct findings *f);
