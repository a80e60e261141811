/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The swiotlb:swiotlb_bounced tracepoint (include/trace/events/swiotlb.h,
 * since 3.13): its text lines in tracefs trace / trace_pipe, and its
 * events/swiotlb/swiotlb_bounced/format file. Pure parsers: no allocation,
 * no read outside [buf, buf+len), any bytes accepted as input.
 *
 * Three generations of the event, all printed by the same TP_printk
 * "dev_name: %s dma_mask=%llx dev_addr=%llx size=%zu %s":
 *   3.13-4.9   int swiotlb_force, last word "swiotlb_force" or "" (empty)
 *   4.10-5.17  enum swiotlb_force, last word NORMAL, FORCE or NO_FORCE
 *   5.18-      bool force, last word FORCE or NORMAL
 * With the "fields" trace option (6.3+) or a persistent ring buffer the
 * kernel prints the record's fields instead (kernel/trace/trace_output.c
 * print_fields): " dev_name=NAME dma_mask=0x1f (31) ... force=(0)".
 */
#pragma once

#include "shared/macro.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "readers/readers.h"

/* A device name is a sysfs directory name: at most NAME_MAX (255) bytes. */
#define BOUNCE_DEV_NAME_MAX 256

/* Why the mapping bounced, as far as the event says (first three: enum swiotlb_force's order). */
enum trace_force {
	TRACE_FORCE_NORMAL,   /* "NORMAL"; 3.13-4.9: "" */
	TRACE_FORCE_FORCE,    /* "FORCE" (swiotlb=force, CoCo guests); 3.13-4.9: "swiotlb_force" */
	TRACE_FORCE_NO_FORCE, /* "NO_FORCE": swiotlb=noforce (4.10-5.17 only) */
	TRACE_FORCE_UNKNOWN,  /* a word or value no mainline kernel prints, or no force field */
	_TRACE_FORCE_MAX,
	_TRACE_FORCE_INVALID = -EINVAL,
};

/* One swiotlb_bounced event (TP_STRUCT__entry of include/trace/events/swiotlb.h). */
struct bounce_event {
	char dev_name[BOUNCE_DEV_NAME_MAX]; /* dev_name(dev); "" for 6.3 print_fields' "<OVERFLOW>" */
	uint64_t dma_mask;      /* *dev->dma_mask; 0 when the device has no mask */
	uint64_t dev_addr;      /* phys_to_dma() of the buffer; all ones when no dma-range covers it */
	uint64_t size;          /* bytes mapped (size_t) */
	enum trace_force force;
	bool fields_form;       /* printed by print_fields, not by TP_printk */
};

/*
 * One line of trace or trace_pipe, with its final '\n' (the kernel ends
 * every event with one; without it the line may be cut short). Returns 1
 * and fills *ret for a swiotlb_bounced event, 0 for any other line (a '#'
 * comment, another event, a blank line, a line cut before the event name),
 * -EBADMSG with *ret_err (line 1) for a swiotlb_bounced line that does not
 * parse. *ret is untouched unless 1 is returned.
 */
_must_check_ int trace_parse_bounced(const char *buf, size_t len, struct bounce_event *ret,
			struct parse_error *ret_err);

/* The kind of the force field in the format file: which generation printed the event. */
enum trace_force_field {
	TRACE_FORCE_FIELD_NONE, /* none: a kernel this parser does not know */
	TRACE_FORCE_FIELD_INT,  /* "int swiotlb_force" (3.13-4.9) */
	TRACE_FORCE_FIELD_ENUM, /* "enum swiotlb_force swiotlb_force" (4.10-5.17) */
	TRACE_FORCE_FIELD_BOOL, /* "bool force" (5.18-) */
	_TRACE_FORCE_FIELD_MAX,
	_TRACE_FORCE_FIELD_INVALID = -EINVAL,
};

/* What events/swiotlb/swiotlb_bounced/format says (kernel/trace/trace_events.c f_show). */
struct trace_format {
	unsigned id;                        /* "ID:": common_type of the event's records */
	enum trace_force_field force_field;
	unsigned dev_addr_size;             /* sizeof(dma_addr_t): 4 or 8 */
	unsigned size_field_size;           /* sizeof(size_t): 4 or 8 */
	bool known_print_fmt;               /* print fmt is the TP_printk format above */
};

/*
 * The whole format file. Returns 0 and fills *ret; -EBADMSG with *ret_err
 * when it is not a format file of swiotlb_bounced, lacks dev_name, dma_mask,
 * dev_addr or size, has a field of a size or type no kernel gives it, or is
 * cut short. An unknown print fmt is not an error: known_print_fmt says so
 * (the fields form still parses). *ret is untouched unless 0 is returned.
 */
_must_check_ int trace_format_parse(const char *buf, size_t len, struct trace_format *ret,
		       struct parse_error *ret_err);
