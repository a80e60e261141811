/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --diff: what changed between two JSON reports (a kernel upgrade, a new
 * card): the machine's facts, each device's verdict and reach, the
 * findings. Pure: two parsed documents in, the changes out; the strings
 * and values point into the documents, which must outlive the diff.
 */
#pragma once

#include "shared/macro.h"

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "analysis/findings.h"

/* One value that differs; old or new NULL when absent or null on that side. */
struct diff_field {
	const char *name;        /* the report's key, e.g. "unreachable_ram_bytes" */
	json_object *old_value, *new_value;
};

enum diff_kind {
	DIFF_ADDED,
	DIFF_REMOVED,
	DIFF_CHANGED,
	DIFF_REPLACED, /* the same address, another card: vendor:device or udev ID_PATH differ */
	_DIFF_KIND_MAX,
};

/* "8086:2922" as lspci -n prints it, "" when the device has no PCI ids (or malformed ones). */
#define PCI_ID_MAX sizeof("ffff:ffff")

struct diff_device {
	const char *id;
	enum diff_kind kind;
	const char *old_verdict, *new_verdict; /* NULL on the side it is absent from */
	const char *driver;                    /* the newer side's (the older's when removed) */
	char pci_id[PCI_ID_MAX];               /* as driver: the newer side's, else the older's */
	const char *old_driver;                /* DIFF_REPLACED: the card that was there */
	char old_pci_id[PCI_ID_MAX];
	const char *old_id_path, *id_path;     /* DIFF_REPLACED: udev ID_PATH of each, NULL none */
	struct diff_field *fields;             /* DIFF_CHANGED: what changed */
	size_t n_fields;
	bool worse;
};

struct diff_finding {
	const char *id;
	const char *device;                    /* NULL: machine-wide */
	const char *old_severity, *new_severity; /* NULL on the side it is absent from */
	bool worse;
};

struct report_diff {
	struct diff_field *machine;
	size_t n_machine;
	struct diff_device *devices;
	size_t n_devices;
	struct diff_finding *findings;
	size_t n_findings;
	bool worse;                             /* something at or above fail_on got worse */
};

/*
 * 0 when doc is a full report this version reads (schema_version 2, our
 * tool), else -EINVAL with *why set to a static phrase.
 */
_must_check_ int report_diff_check(json_object *doc, const char **why) _nonnull_all_;

/* A value of a report that --diff cannot rank: where it is and what it holds. */
struct diff_unranked {
	const char *array;  /* "devices" or "findings" */
	size_t index;
	const char *key;    /* the member, or NULL: the element is not an object */
	bool absent;        /* no such member */
	json_object *value; /* the member's value; NULL: null (json-c's null) */
	const char *owner;  /* the device's id, or the finding's, when it is a string */
	const char *want;   /* what it should be: "a verdict this tool knows" */
};

/*
 * 0 when every device has a string id and a verdict of the schema's, and
 * every finding a string id, a string or null device and a severity of
 * the schema's; else -EINVAL and *ret says the first that does not (its
 * pointers into doc).
 */
_must_check_ int report_diff_check_values(json_object *doc, struct diff_unranked *ret) _nonnull_all_;

/*
 * Compare old with new. A device is the same when its id (the address) is,
 * and its PCI vendor:device and udev ID_PATH are where both sides have
 * them; another card at the address is DIFF_REPLACED, judged as one added.
 * Worse, at or above fail_on: a verdict whose severity rose (fails is an
 * error; partial, forced and unknown warnings), more RAM out of reach on a
 * device that bounces or fails, a finding that appeared or rose. 0, or
 * -ENOMEM.
 */
_must_check_ int report_diff_build(json_object *old, json_object *new, enum severity fail_on,
				   struct report_diff *ret) _nonnull_all_;
void report_diff_done(struct report_diff *d);

const char *diff_kind_to_string(enum diff_kind k);

/* The device's "vvvv:dddd" from its pci_ids into buf (PCI_ID_MAX); "" when it has none. */
void diff_pci_id(json_object *dev, char buf[static PCI_ID_MAX]);

/* doc's member at "a.b" (NULL when absent or null), and the same when it is a string. */
json_object *diff_at(json_object *doc, const char *path);
const char *diff_str_at(json_object *doc, const char *path);

/* The severity a verdict stands for: fails error; partial, forced, unknown warning; else -1. */
int verdict_severity(const char *verdict);
