/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Verdict rules that come before reach (verdict-rules.c). Each reads the
 * device's report as far as devices.c has built it and returns a decision:
 * a case of verdict-catalogue.h, or UNDECIDED; devices.c applies it.
 */
#pragma once

#include "shared/macro.h"

#include <stdbool.h>

#include "analysis/model.h"
#include "analysis/verdict-catalogue.h"

/* No driver, a bridge, no sign of DMA, a driver outside the DMA API, virtio's bypass. */
struct verdict_decision decided_outside_dma_api(const struct devices_input *in, const struct device_report *r)
	_nonnull_all_;
/* Xen PV, s390 PCI before 6.7, and the IOMMU domain (with the eras' groups without a type). */
struct verdict_decision decided_by_domain(const struct devices_input *in, const struct device_report *r)
	_nonnull_all_;
/* Forced bouncing for this device (VR_FORCED, who in detail), or an SME host's undecidable C-bit. */
struct verdict_decision decided_by_forcing(const struct devices_input *in, const struct device_report *r)
	_nonnull_all_;
/* A NIC whose driver takes lowmem only, on a highmem kernel, with all lowmem in reach. */
struct verdict_decision decided_by_lowmem_only_net(const struct devices_input *in, const struct device_report *r)
	_nonnull_all_;
/* 32-bit ARM before 6.0: TRI_YES arm_dma_ops (no reach check), TRI_NO dma-direct, TRI_UNKNOWN LPAE unknown. */
enum tristate arm_streaming_unchecked(const struct devices_input *in) _nonnull_all_;
/* RAM out of reach on 32-bit ARM before 6.0: arm_dma_ops map it unchecked. */
struct verdict_decision decided_by_arm_dma_ops(const struct devices_input *in) _nonnull_all_;
/* Why the kernel ignores the device's restricted-dma-pool (static), or NULL when it uses it. */
const char *restricted_pool_ignored(const struct devices_input *in, const struct device *d) _nonnull_all_;
