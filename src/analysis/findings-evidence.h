/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The evidence both a device's and the machine's findings carry (findings-evidence.c). Pure. */
#pragma once

#include "shared/macro.h"

#include "analysis/legacy-block.h"
#include "analysis/model.h"

/* The numbers of a pfn-count-confusion finding: the layout and both readings of max_low_pfn. */
void confusion_evidence(struct findings *f, struct finding *x, const struct layout *l,
			const struct legacy_block *as_count, const struct legacy_block *as_pfn);

/* A "swiotlb buffer is full" line's numbers on x: the first line's, and how many lines. */
void add_full_evidence(struct findings *f, struct finding *x, const struct swiotlb_full *l, uint64_t lines)
	_nonnull_(1, 3);
