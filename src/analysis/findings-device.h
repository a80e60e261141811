/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Per-device findings (findings-device.c). Pure. */
#pragma once

#include "analysis/model.h"

/*
 * Append r's findings to f: the predictions of its verdict (none for an
 * idle device: a mask it does not use costs nothing) and the DMA overflows
 * the log records for it.
 */
void device_findings(const struct devices_input *in, const struct device_report *r,
		     struct findings *f);
