/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --diff --fleet: many hosts' two-report diffs (report-diff.h) grouped by
 * change, "312 hosts: ahci [8086:2922] partial -> fails", with the kernels
 * each group's hosts went from and to. A change is keyed by what it is,
 * not where: a device by its driver and PCI vendor:device (the address
 * differs from host to host), never by the host's own values (RAM, an
 * address). Pure: the CLI reads the reports and says which pairs to add.
 */
#pragma once

#include "shared/macro.h"

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "diff/report-diff.h"
#include "shared/strmap.h"
#include "shared/strv.h"

enum fleet_subject {
	FLEET_MACHINE,
	FLEET_DEVICE,
	FLEET_FINDING,
	_FLEET_SUBJECT_MAX,
};

/* How many of a group's hosts went from one kernel release to another. */
struct fleet_kernels {
	char *old, *new;   /* NULL: the report did not say */
	size_t hosts;
};

struct fleet_group {
	enum fleet_subject subject;
	/* device: diff_kind; finding: added, removed, severity; machine: changed, or for a number
	 * rose, fell, set (was null), unset (now null) */
	char *change;
	char *name;        /* machine: the field ("kernel.release"); finding: its id; device: NULL */
	bool machine_wide; /* a finding about no device */
	char *driver;      /* device, and the device a finding is about (NULL: unbound or unknown) */
	char *pci_id;      /* "8086:2922", NULL when not PCI */
	char *old_driver, *old_pci_id; /* device replaced: the card before */
	char *old, *new;   /* verdicts, severities, or a machine value as text; NULL absent or by-number */
	char *fields;      /* device changed with the same verdict: the fields that changed, "a,b" */
	size_t hosts, worse_hosts;
	struct strv host_names;          /* in the order added */
	struct fleet_kernels *kernels;   /* most hosts first once sorted */
	size_t n_kernels;
};

struct fleet_skipped {
	char *source, *why;
};

/* --what-if over snapshots: an assumption, and on how many hosts it was made. */
struct fleet_note {
	char *text;
	size_t hosts;
};

struct fleet_diff {
	enum severity fail_on;
	/* --what-if --diff --fleet: each host is one snapshot judged today and after these changes */
	const char *const *what_if;      /* the changes as given, borrowed; NULL for --diff --fleet */
	size_t n_what_if;
	struct fleet_note *notes;        /* what the changes assumed, most hosts first once sorted */
	size_t n_notes;
	struct strmap note_index;        /* a note's text -> its index in notes, until sorted */
	struct fleet_group *groups;
	size_t n_groups;
	struct strmap index;             /* a group's key -> its index in groups */
	struct fleet_skipped *skipped;
	size_t n_skipped;
	size_t reports;                  /* read and valid */
	size_t hosts;                    /* with at least one valid report */
	size_t compared, single, unchanged, worse_hosts;
};

void fleet_diff_init(struct fleet_diff *f, enum severity fail_on) _nonnull_all_;

/*
 * Host's change from old to new (d, their report_diff_build()) into the
 * groups. 0 or -ENOMEM.
 */
_must_check_ int fleet_diff_add(struct fleet_diff *f, const char *host, json_object *old, json_object *new,
				const struct report_diff *d) _nonnull_all_;

/* One host's --what-if assumptions (texts; a text twice counts once). 0 or -ENOMEM. */
_must_check_ int fleet_diff_notes(struct fleet_diff *f, const char *const *texts, size_t n) _nonnull_(1);

/* A report or a host left out, and why, for the output to list. 0 or -ENOMEM. */
_must_check_ int fleet_diff_skip(struct fleet_diff *f, const char *source, const char *why) _nonnull_all_;

/* Worse groups first, then most hosts, then by their words; each group's kernels most hosts first. */
void fleet_diff_sort(struct fleet_diff *f) _nonnull_all_;

void fleet_diff_done(struct fleet_diff *f);

const char *fleet_subject_to_string(enum fleet_subject s);
