/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The report: everything the renderers print, computed from struct machine. */
#pragma once

#include "shared/macro.h"

#include "analysis/devices.h"
#include "analysis/findings.h"
#include "analysis/layout.h"
#include "analysis/swiotlb-state.h"
#include "machine.h"

/* The exit status (dmamask-audit(8), EXIT STATUS): 0 clean, 1 findings at --fail-on, 2 usage/fatal. */
enum exit_status {
	EXIT_CLEAN = 0,
	EXIT_FINDINGS = 1,
	EXIT_FATAL = 2,
};

struct report {
	struct layout layout;
	uint32_t release;            /* KV() of the kernel release; 0 unknown, era_value()'s key for it */
	enum provenance release_prov;
	enum arch_family arch_family; /* _ARCH_FAMILY_INVALID: unknown */
	struct opt_u32 bits;         /* BITS_PER_LONG */
	enum max_low_pfn_reading max_low_pfn_reading; /* the kernel's */
	const char *max_low_pfn_source;
	enum block_bounce block_bounce; /* the kernel's */
	const char *block_bounce_source;
	struct swiotlb_state swiotlb;
	struct devices_result devices;
	struct findings findings;
	enum severity fail_on;
	size_t unlisted_action;      /* findings at warning or above about devices the report does not list */
	enum exit_status exit_status;
	struct opt_i64 generated_at; /* set by the caller: when the report was made (epoch seconds) */
};

struct report_options {
	enum severity fail_on;  /* --fail-on */
	bool allow_incomplete;  /* --allow-incomplete: an incomplete snapshot exits by fail_on, not 2 */
	const struct assumed_mask *masks; /* --assume-mask, each naming a device of the machine */
	size_t n_masks;
	const char *const *select;  /* DEVICE...: the devices the report is about; n_select 0: all */
	size_t n_select;
	bool no_idle;               /* --no-idle */
};

/* 0, or -ENOMEM / -EINVAL (bad page size). */
_must_check_ int report_build_with(const struct machine *m, const struct report_options *o, struct report *ret) _nonnull_all_;
/* The same with only --fail-on. */
_must_check_ int report_build(const struct machine *m, enum severity fail_on, struct report *ret) _nonnull_all_;
void report_done(struct report *r);

/*
 * "No device needs action" may be said: no device needs action, and no
 * machine-wide finding at warning or above (devices not visible, a snapshot
 * incomplete, the memory layout unknown) says the audit saw too little.
 */
bool report_all_clear(const struct report *r) _nonnull_all_;
