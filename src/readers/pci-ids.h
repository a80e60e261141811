/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The PCI ID list (pci.ids, as pciutils and hwdata install it): pure
 * parsing, no I/O. The format, from the list's own header: a vendor line
 * "vvvv  Name", its devices "\tdddd  Name", their subsystems "\t\tssss ssss
 * Name"; then "C cc  Name" class blocks (subclasses "\tss", programming
 * interfaces "\t\tpp"), "S vvvv" generic subsystem blocks, and blocks of
 * other capital letters whose lines are skipped. '#' starts a comment.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "shared/macro.h"
#include "shared/strbuf.h"

struct pci_ids_query {
	uint16_t vendor, device;
	/* found: the scan's copies, not NUL-terminated, valid until it is freed; NULL when not there */
	const char *vendor_name, *device_name;
	size_t vendor_len, device_len;
};

/*
 * One pass over the list, given in pieces as it is read (a 1.4 MiB list is
 * never held whole: fresh pages cost more than the parse). Only the
 * queries' names are copied. Whatever the pieces, the result is the one
 * the whole list in one piece gives.
 */
struct pci_ids_scan {
	struct pci_ids_query *q, **sorted;
	struct pci_ids_name *names; /* two a query, vendor then device: the first entry wins */
	size_t n, v_lo, v_hi;       /* v_lo..v_hi: the sorted queries of the vendor being read */
	unsigned lineno;
	int block;
	bool skip_to_lf; /* a line ended at a CR: what follows up to the LF is not read */
	const char *why;
};

_must_check_ int pci_ids_scan_start(struct pci_ids_scan *s, struct pci_ids_query *q, size_t n);

/*
 * Scan the whole lines at the front of buf, all of it when last (the list
 * ends there): how many bytes were used (what is left, a line cut short,
 * must be given again, with what follows it, and is under 1 KiB), or
 * -EBADMSG at the first bad line, or -ENOMEM.
 */
_must_check_ ssize_t pci_ids_scan_feed(struct pci_ids_scan *s, const char *buf, size_t len, bool last);

/*
 * After the last piece: name every query (0), or -EBADMSG with the first
 * bad line's number and what is wrong with it ("Parse error", "Line too
 * long", as lspci says it), the queries then untouched.
 */
_must_check_ int pci_ids_scan_end(struct pci_ids_scan *s, unsigned *ret_line, const char **ret_why);

/* Frees the copies: the queries' names go with them. */
void pci_ids_scan_free(struct pci_ids_scan *s);

/* The whole list in memory, in one piece: start, feed, end. */
_must_check_ int pci_ids_lookup(struct pci_ids_scan *s, const char *buf, size_t len, struct pci_ids_query *q,
				size_t n, unsigned *ret_line, const char **ret_why);

/*
 * The queries' names as a list of their own: each vendor found once, then
 * its devices found, in id order, under a comment saying where they came
 * from. Looking the same queries up in it gives the same names.
 */
void pci_ids_reduce(const struct pci_ids_query *q, size_t n, const char *source, struct strbuf *out);
