/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Pure parsers of command-line values (cli-parse.c): no I/O, no exit. */
#pragma once

#include "shared/macro.h"

#include <stddef.h>

#include "analysis/model.h"

/*
 * --assume-mask DEV=0xHEX (a mask) or DEV=BITS (1-64, as dma_mask_bits shows
 * it). DEV in lspci's short form ("00:02.0") becomes "0000:00:02.0"; PCI
 * addresses are lower-cased. 0 and *ret (ret->device malloc'd); -EINVAL with
 * *ret_why (static) for a malformed value, or a device already in
 * have[0..n_have); -ENOMEM.
 */
_must_check_ int assume_mask_parse(const char *arg, const struct assumed_mask *have, size_t n_have,
				   struct assumed_mask *ret, const char **ret_why) _nonnull_(1, 4, 5);
