/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the text and the JSON --explain share: a step's sentence and a number's source, in words. */
#pragma once

#include "shared/macro.h"

#include <stdbool.h>

#include "analysis/explain.h"
#include "shared/strbuf.h"

/* A number as the sentence shows it: hex, a size beside bytes and pages (exact: in bytes). */
void explain_append_number(struct strbuf *b, const struct explain_number *n, unsigned page_shift, bool exact)
	_nonnull_all_;
/* The step's template with its numbers and words put in, made safe for a terminal. */
void explain_append_sentence(struct strbuf *b, const struct explain_step *s, unsigned page_shift, bool exact)
	_nonnull_all_;
/* The number's source in words ("devicetree dma-ranges of soc"), made safe. */
void explain_append_source(struct strbuf *b, const struct explain_number *n) _nonnull_all_;
