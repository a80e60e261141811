/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * struct machine: everything the readers learnt about one system, each value
 * with where it came from. Filled by src/readers/, read by src/analysis/.
 */
#pragma once

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where a value came from; the report prints it beside the value. */
enum provenance {
	PROV_UNKNOWN,  /* could not be learnt; the report says why */
	PROV_READ,     /* read from a kernel interface (source names it) */
	PROV_DERIVED,  /* computed from other values */
	PROV_ASSUMED,  /* a documented default, not observed */
	PROV_USER,     /* given on the command line */
	_PROV_MAX,
	_PROV_INVALID = -EINVAL,
};

const char *provenance_to_string(enum provenance p);

enum input_status {
	INPUT_OK,
	INPUT_MISSING, /* ENOENT/ENOTDIR: the interface is absent */
	INPUT_DENIED,  /* EACCES/EPERM, or content hidden from this user */
	INPUT_INVALID, /* present but unusable: malformed, refused, too large */
	_INPUT_STATUS_MAX,
	_INPUT_STATUS_INVALID = -EINVAL,
};

const char *input_status_to_string(enum input_status s);
enum input_status input_status_from_errno(int err);

/* One thing the tool tried to read, as the report's "inputs" lists it. */
struct input {
	char *path;              /* root-relative, e.g. "proc/iomem" */
	enum input_status status;
	int err;                 /* positive errno, 0 when none */
	char *detail;            /* why, in a few words; NULL when ok */
};

/* A "System RAM" resource of proc/iomem; end inclusive, as iomem prints it. */
struct ram_range {
	uint64_t start;
	uint64_t end;
};

#define ZONE_NAME_MAX 16

/* One "Node N, zone NAME" block of proc/zoneinfo (mm/vmstat.c zoneinfo_show_print). */
struct zone {
	int node;
	char name[ZONE_NAME_MAX];
	bool populated;     /* start_pfn is printed only for populated zones */
	uint64_t start_pfn; /* zone->zone_start_pfn */
	uint64_t spanned;   /* pages spanned, holes included */
	uint64_t present;   /* pages that exist */
	uint64_t managed;   /* pages handed to the buddy allocator */
};

/* The lines of proc/meminfo the tool uses, in bytes (the file says kB). */
struct meminfo {
	bool have_mem_total;
	uint64_t mem_total;
	bool have_high_total; /* HighTotal/LowTotal exist only with CONFIG_HIGHMEM */
	uint64_t high_total;
	uint64_t low_total;
	bool have_bounce;     /* "Bounce:" always 0 from 6.16 */
	uint64_t bounce;
};

/* A string value with its provenance and source ("proc/sys/kernel/arch"). */
struct sourced_str {
	char *value;
	enum provenance prov;
	const char *source; /* static string */
};

struct manifest_entry {
	char *key;
	char *value;
};

struct machine {
	bool live;                   /* the sysroot is this system's "/" */
	char *sysroot;               /* as given */

	struct sourced_str arch;     /* MANIFEST arch, else proc/sys/kernel/arch */
	struct sourced_str release;  /* MANIFEST kernel_release, else proc/sys/kernel/osrelease */
	unsigned page_size;          /* --page-size, MANIFEST, getpagesize() live, else 4096 */
	enum provenance page_size_prov;
	const char *page_size_source;

	struct manifest_entry *manifest; /* MANIFEST key=value lines, in file order */
	size_t n_manifest;

	bool iomem_usable;           /* proc/iomem read, well formed and not hidden */
	bool iomem_hidden;           /* all addresses zero: read without CAP_SYS_ADMIN (4.6+) */
	struct ram_range *ram;       /* proc/iomem "System RAM", sorted, outermost only */
	size_t n_ram;

	bool zoneinfo_usable;        /* proc/zoneinfo read and well formed */
	struct zone *zones;
	size_t n_zones;

	bool meminfo_usable;
	struct meminfo meminfo;

	char *cmdline;               /* proc/cmdline, trailing newline removed */

	struct input *inputs;        /* in the order they were tried */
	size_t n_inputs;
};

void machine_init(struct machine *m);
void machine_done(struct machine *m);

/* Record one input. detail may be NULL. Returns 0 or -ENOMEM. */
int machine_add_input(struct machine *m, const char *path, enum input_status status, int err,
		      const char *detail);
/* Record the outcome of a sysroot call that returned r (0 or -errno). */
int machine_add_input_errno(struct machine *m, const char *path, int r);

const char *machine_manifest_get(const struct machine *m, const char *key);
