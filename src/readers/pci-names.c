/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * PCI vendor and device names from the pci.ids found in the sysroot, named
 * as lspci names them ("Vendor Device", or "Vendor Device 1234" when only
 * the vendor is listed). The list is read through the sysroot layer and
 * scanned in 64 KiB pieces as it is read (pci-ids.c): no library opens a
 * path of its own, the list is never held whole, and only the machine's
 * names are copied. A capture keeps those names, as a pci.ids of their
 * own, instead of the whole 1.4 MiB list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readers/pci-ids.h"
#include "readers/readers.h"
#include "shared/macro.h"
#include "shared/strbuf.h"

/* pci.ids is ~1.4 MiB today; a generous cap against a runaway file. */
#define PCI_IDS_MAX (8u << 20)

/* Where pciutils and hwdata install the list (pciutils Makefile IDSDIR, distributions). */
static const char *const ids_paths[] = {
	"usr/share/misc/pci.ids",
	"usr/share/hwdata/pci.ids",
	"var/lib/pciutils/pci.ids",
};

static int find_ids(struct sysroot *sr, const char **ret)
{
	for (size_t i = 0; i < ARRAY_SIZE(ids_paths); i++) {
		struct stat st;
		if (sysroot_stat(sr, ids_paths[i], &st) == 0 && S_ISREG(st.st_mode)) {
			*ret = ids_paths[i];
			return 1;
		}
	}
	return 0;
}

static bool wants_name(const struct device *d)
{
	return d->bus == DEV_BUS_PCI && d->have_pci_ids && !d->name;
}

/* "Vendor Device", or "Vendor Device 1234" when only the vendor is known (as lspci prints). */
static int name_of(const struct pci_ids_query *q, char **ret)
{
	if (!q->vendor_name)
		return 0; /* unknown vendor: no name rather than a number */
	if (q->device_name)
		return asprintf(ret, "%.*s %.*s", (int)q->vendor_len, q->vendor_name, (int)q->device_len,
				q->device_name) < 0 ? -ENOMEM : 0;
	return asprintf(ret, "%.*s Device %04x", (int)q->vendor_len, q->vendor_name, q->device) < 0
		       ? -ENOMEM
		       : 0;
}

/* The pieces of the list, as they are read: refused at once when it is compressed. */
struct stream {
	struct pci_ids_scan scan;
	bool started;
};

static void stream_done(struct stream *st)
{
	pci_ids_scan_free(&st->scan);
}

static ssize_t eat(const char *buf, size_t len, bool last, void *userdata)
{
	struct stream *st = userdata;

	/* lspci would gunzip it; a list expands without bound, so only the plain text one */
	if (!st->started && (len >= 2 || last)) {
		if (len >= 2 && (unsigned char)buf[0] == 0x1f && (unsigned char)buf[1] == 0x8b)
			return -EMEDIUMTYPE;
		st->started = true;
	}
	if (!st->started)
		return 0;
	return pci_ids_scan_feed(&st->scan, buf, len, last);
}

/*
 * A list that is refused goes into a capture whole, for a replay to meet
 * the same error: read again, whole, which copies it there (it is never
 * held whole otherwise).
 */
static int refused(struct sysroot *sr, struct machine *m, const char *path, bool capturing, int err,
		   const char *detail)
{
	if (capturing) {
		_cleanup_free_ char *buf = NULL;
		if (sysroot_read_file(sr, path, PCI_IDS_MAX, &buf, NULL) == -ENOMEM)
			return -ENOMEM;
	}
	return machine_add_input(m, path, INPUT_INVALID, err, detail);
}

int read_pci_names(struct sysroot *sr, struct machine *m)
{
	_cleanup_free_ struct pci_ids_query *q = NULL;
	_cleanup_(stream_done) struct stream st = { 0 };
	_cleanup_free_ char *canon = NULL;
	const char *path = NULL, *why = NULL;
	size_t len, n = 0;
	unsigned line = 0;
	int r;

	for (size_t i = 0; i < m->n_devices; i++)
		n += wants_name(&m->devices[i]);
	if (n == 0)
		return 0; /* nothing to name: the list is not even looked for */

	if (!find_ids(sr, &path)) /* never the host's list for a snapshot: it may not match */
		return machine_add_input(
			m, ids_paths[0], INPUT_MISSING, ENOENT,
			"no pci.ids in usr/share/misc, usr/share/hwdata or var/lib/pciutils");
	q = calloc(n, sizeof(*q));
	if (!q)
		return -ENOMEM;
	for (size_t i = 0, k = 0; i < m->n_devices; i++)
		if (wants_name(&m->devices[i]))
			q[k++] = (struct pci_ids_query){ .vendor = m->devices[i].vendor,
							 .device = m->devices[i].device_id };
	r = pci_ids_scan_start(&st.scan, q, n);
	if (r < 0)
		return r;
	r = sysroot_read_stream_deferred(sr, path, PCI_IDS_MAX, eat, &st, &len, &canon);
	if (r == -ENOMEM)
		return r;
	if (r == -EMEDIUMTYPE)
		return refused(sr, m, path, canon != NULL, EBADMSG,
			       "compressed pci.ids: refused, it could expand without bound");
	if (r < 0 && !(r == -EBADMSG && st.scan.why)) /* else a bad line, said below */
		return machine_add_input_errno(m, path, r);
	r = pci_ids_scan_end(&st.scan, &line, &why);
	if (r == -EBADMSG) {
		char detail[160];
		snprintf(detail, sizeof(detail), "%s at %s, line %u", why, path, line);
		return refused(sr, m, path, canon != NULL, EBADMSG, detail);
	}
	if (r < 0)
		return r;
	for (size_t i = 0, k = 0; i < m->n_devices; i++) {
		if (!wants_name(&m->devices[i]))
			continue;
		r = name_of(&q[k++], &m->devices[i].name);
		if (r < 0)
			return r;
	}
	if (canon) {
		struct strbuf kept = { 0 };
		pci_ids_reduce(q, n, path, &kept);
		size_t kept_len = kept.len;
		_cleanup_free_ char *s = strbuf_steal(&kept);
		if (!s)
			return -ENOMEM;
		sysroot_tap_record(sr, canon, s, kept_len, NULL, 0);
	}
	m->pci_ids_source = strdup(path);
	if (!m->pci_ids_source)
		return -ENOMEM;
	return machine_add_input(m, path, INPUT_OK, 0, NULL);
}
