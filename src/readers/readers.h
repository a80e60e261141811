/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One reader per kernel interface. Each has a pure parser (a buffer in,
 * structured values out; what the unit tests drive) and a read_* function
 * that fetches the file through the sysroot layer, records it in
 * machine->inputs and fills its part of struct machine.
 *
 * Parsers return 0 or -EBADMSG, and on -EBADMSG fill *ret_err with the line
 * and what was wrong. read_* return 0, or -ENOMEM when the tool must stop:
 * a missing or malformed input is recorded, not fatal.
 */
#pragma once

#include "machine.h"
#include "sysroot.h"

struct parse_error {
	unsigned line;    /* 1-based, 0 when not about one line */
	const char *what; /* static text */
};

/* proc/iomem: outermost "System RAM" resources, sorted by start. */
int iomem_parse(const char *buf, size_t len, struct ram_range **ret_ram, size_t *ret_n,
		bool *ret_hidden, struct parse_error *ret_err);
int read_iomem(struct sysroot *sr, struct machine *m);

/* proc/zoneinfo: one struct zone per "Node N, zone NAME" block. */
int zoneinfo_parse(const char *buf, size_t len, struct zone **ret_zones, size_t *ret_n,
		   struct parse_error *ret_err);
int read_zoneinfo(struct sysroot *sr, struct machine *m);

/* proc/meminfo: MemTotal, HighTotal, LowTotal, Bounce. */
int meminfo_parse(const char *buf, size_t len, struct meminfo *ret, struct parse_error *ret_err);
int read_meminfo(struct sysroot *sr, struct machine *m);

/* proc/cmdline: the whole line, trailing newline removed. */
int cmdline_parse(const char *buf, size_t len, char **ret, struct parse_error *ret_err);
int read_cmdline(struct sysroot *sr, struct machine *m);

/* MANIFEST: key=value lines, '#' comments, blank lines ignored. */
int manifest_parse(const char *buf, size_t len, struct manifest_entry **ret, size_t *ret_n,
		   struct parse_error *ret_err);

/*
 * Identity: MANIFEST when present (its error.<path> entries are handed to
 * the sysroot layer), else proc/sys/kernel/{arch,osrelease}; page size from
 * page_size_option when non-zero, MANIFEST, the running process when live,
 * else 4096 (assumed).
 */
int read_identity(struct sysroot *sr, struct machine *m, unsigned page_size_option);

/* Everything issue-2 level: identity, iomem, zoneinfo, meminfo, cmdline. */
int read_machine(struct sysroot *sr, struct machine *m, unsigned page_size_option);

/* Shared by the read_* functions: record a parse failure as an input. */
int record_parse_error(struct machine *m, const char *path, const struct parse_error *e);
