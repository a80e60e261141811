/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What json.c and ndjson.c both write: a device, a finding, values that may be unknown. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "analysis/model.h"
#include "analysis/eras.h"
#include "analysis/findings.h"
#include "render/json-writer.h"

/* "0d57", "0106": PCI ids as lspci -n prints them, digits wide. */
void json_pci_id(struct json_writer *w, const char *key, unsigned v, int digits);
/* RFC 3339 in UTC; null for a time it cannot show. */
void json_time_utc(struct json_writer *w, const char *key, struct opt_i64 t);
/* The value, or null when it is not known (an int below 0 is not). */
void json_opt_u64(struct json_writer *w, const char *key, bool known, uint64_t v);
void json_opt_hex(struct json_writer *w, const char *key, bool known, uint64_t v);
/* A signed offset kept in a u64 ("-0xc0000000"), or null. */
void json_opt_offset(struct json_writer *w, const char *key, bool known, uint64_t v);
/* The value, or null when it is unknown. */
void json_opt_int(struct json_writer *w, const char *key, bool known, int64_t v);
void json_opt_bool(struct json_writer *w, const char *key, struct opt_bool v);
void json_tristate(struct json_writer *w, const char *key, enum tristate t);

void json_legacy(struct json_writer *w, const char *key, const struct legacy_result *lr);
void json_udev(struct json_writer *w, const struct udev_props *u);
/* A device (key NULL: an element of devices[]); window: the --observe window in seconds. */
void json_device(struct json_writer *w, const char *key, const struct device_report *r, double window);
/* One element of findings[]. */
void json_finding(struct json_writer *w, const struct finding *x);

/* How max_low_pfn is read: "pfn" or "count". */
static inline const char *json_reading_name(enum max_low_pfn_reading reading)
{
	return reading == MAX_LOW_PFN_PFN ? "pfn" : reading == MAX_LOW_PFN_COUNT ? "count" : NULL;
}
