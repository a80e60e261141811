/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the memory-encryption signs the readers saw make of the machine. Pure. */
#pragma once

#include "shared/macro.h"

#include "machine.h"

enum coco_kind {
	COCO_NONE,
	COCO_SEV_GUEST,  /* every dma-direct mapping bounces (force_dma_unencrypted) */
	COCO_TDX_GUEST,
	COCO_CCA_REALM,
	COCO_SME_HOST,   /* encrypted host memory: not forced, but a pool whatever the RAM */
	COCO_HYPERV_ISOLATED, /* a Hyper-V isolated VM (VBS, SNP or TDX isolation) */
	COCO_S390_PV,    /* an s390 protected-virtualization guest */
};

struct coco_verdict {
	enum coco_kind kind;
	const char *evidence; /* the log line, or the file or flag that showed it; NULL for none */
};

void coco_decide(const struct coco_signs *c, struct coco_verdict *ret) _nonnull_all_;
