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

#include "shared/macro.h"
#include "shared/strbuf.h"

struct pci_ids_query {
	uint16_t vendor, device;
	/* found: pointers into the list, not NUL-terminated; NULL when not there */
	const char *vendor_name, *device_name;
	size_t vendor_len, device_len;
};

/*
 * Name every query from the list in buf (the first entry wins where one is
 * listed twice). The whole list is checked: 0, or -EBADMSG with the first
 * bad line's number and what is wrong with it ("Parse error", "Line too
 * long", as lspci says it), the queries then untouched; -ENOMEM.
 */
_must_check_ int pci_ids_lookup(const char *buf, size_t len, struct pci_ids_query *q, size_t n,
				unsigned *ret_line, const char **ret_why);

/*
 * The queries' names as a list of their own: each vendor found once, then
 * its devices found, in id order, under a comment saying where they came
 * from. Looking the same queries up in it gives the same names.
 */
void pci_ids_reduce(const struct pci_ids_query *q, size_t n, const char *source, struct strbuf *out);
