/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdlib.h>
#include <string.h>

#include "readers/pci-ids.h"
#include "shared/text.h"

/* pciutils reads the list in lines of at most this many bytes (lib/names.h MAX_LINE) */
#define LINE_MAX_BYTES 1024

enum block { NONE, VENDOR, DEVICE, SUBSYSTEM, CLASS, SUBCLASS, PROGIF, GENERIC, SKIPPED };

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/* digits hex digits at p (within end) and then a blank; the value, or -1. */
static long hex_then_blank(const char *p, const char *end, int digits)
{
	long v = 0;

	if (end - p <= digits)
		return -1;
	for (int i = 0; i < digits; i++) {
		int d = hex_digit(p[i]);
		if (d < 0)
			return -1;
		v = v << 4 | d;
	}
	return blank(p[digits]) ? v : -1;
}

static int by_ids(const void *a, const void *b)
{
	const struct pci_ids_query *x = *(const struct pci_ids_query *const *)a;
	const struct pci_ids_query *y = *(const struct pci_ids_query *const *)b;
	uint32_t kx = (uint32_t)x->vendor << 16 | x->device, ky = (uint32_t)y->vendor << 16 | y->device;
	return kx < ky ? -1 : kx > ky;
}

/* The first index in sorted[lo, hi) whose key is >= key. */
static size_t lower_bound(struct pci_ids_query *const *sorted, size_t lo, size_t hi, uint32_t key)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t k = (uint32_t)sorted[mid]->vendor << 16 | sorted[mid]->device;
		if (k < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct found {
	const char *s;
	size_t len;
};

int pci_ids_lookup(const char *buf, size_t len, struct pci_ids_query *q, size_t n, unsigned *ret_line,
		   const char **ret_why)
{
	_cleanup_free_ struct pci_ids_query **sorted = calloc(n ? n : 1, sizeof(*sorted));
	_cleanup_free_ struct found *names = calloc(n ? 2 * n : 1, sizeof(*names));
	const char *end = buf + len, *why = NULL;
	enum block block = NONE;
	size_t v_lo = 0, v_hi = 0; /* the queries of the vendor being read */
	unsigned lineno = 0;

	if (!sorted || !names)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		sorted[i] = &q[i];
	qsort(sorted, n, sizeof(*sorted), by_ids);

	for (const char *p = buf; p < end && !why;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end, *next = nl ? nl + 1 : end;
		lineno++;
		const char *cr = memchr(p, '\r', (size_t)(eol - p));
		if (cr)
			eol = cr;
		if (eol - p >= LINE_MAX_BYTES - 1) {
			why = "Line too long";
			break;
		}
		while (eol > p && blank(eol[-1]))
			eol--;
		const char *s = p;
		while (s < eol && blank(*s))
			s++;
		if (s == eol || *s == '#') {
			p = next;
			continue;
		}
		size_t nest = 0;
		while (p + nest < eol && p[nest] == '\t')
			nest++;
		s = p + nest;
		long id = -1, id2 = -1;
		int name_at = 0;
		struct found *hit = NULL;

		if (nest == 0) {
			if (s[0] == 'C' && eol - s > 1 && s[1] == ' ') {
				id = hex_then_blank(s + 2, eol, 2);
				block = CLASS;
				name_at = 5;
			} else if (s[0] == 'S' && eol - s > 1 && s[1] == ' ') {
				/* "S vvvv" and nothing more: its lines name subsystems of any device */
				block = GENERIC;
				for (int k = 2; k < 6; k++)
					if (eol - s != 6 || hex_digit(s[k]) < 0)
						why = "Parse error";
				p = next;
				continue;
			} else if (s[0] >= 'A' && s[0] <= 'Z' && eol - s > 1 && s[1] == ' ') {
				block = SKIPPED;
				p = next;
				continue;
			} else {
				id = hex_then_blank(s, eol, 4);
				block = VENDOR;
				name_at = 5;
				/* the queries of this vendor, if any */
				if (id >= 0) {
					v_lo = lower_bound(sorted, 0, n, (uint32_t)id << 16);
					v_hi = lower_bound(sorted, v_lo, n, ((uint32_t)id + 1) << 16);
					if (v_lo < v_hi)
						hit = &names[2 * (sorted[v_lo] - q)];
				}
			}
		} else if (block == SKIPPED) {
			p = next;
			continue;
		} else if (nest == 1 && (block == VENDOR || block == DEVICE || block == SUBSYSTEM)) {
			id = hex_then_blank(s, eol, 4);
			block = DEVICE;
			name_at = 5;
			if (id >= 0 && v_lo < v_hi) {
				uint32_t key = (uint32_t)sorted[v_lo]->vendor << 16 | (uint32_t)id;
				size_t i = lower_bound(sorted, v_lo, v_hi, key);
				if (i < v_hi && sorted[i]->device == id)
					hit = &names[2 * (sorted[i] - q) + 1];
			}
		} else if (nest == 1 && block == GENERIC) {
			id = hex_then_blank(s, eol, 4);
			name_at = 5;
		} else if (nest == 1 && (block == CLASS || block == SUBCLASS || block == PROGIF)) {
			id = hex_then_blank(s, eol, 2);
			block = SUBCLASS;
			name_at = 3;
		} else if (nest == 2 && (block == DEVICE || block == SUBSYSTEM)) {
			id = hex_then_blank(s, eol, 4);
			id2 = id >= 0 ? hex_then_blank(s + 5, eol, 4) : -1;
			id = id2 >= 0 ? id : -1;
			block = SUBSYSTEM;
			name_at = 10;
		} else if (nest == 2 && (block == CLASS || block == SUBCLASS || block == PROGIF)) {
			id = hex_then_blank(s, eol, 2);
			block = PROGIF;
			name_at = 3;
		}
		if (id < 0) {
			why = "Parse error";
			break;
		}
		const char *name = s + name_at;
		while (name < eol && blank(*name))
			name++;
		if (name == eol) {
			why = "Parse error";
			break;
		}
		if (hit && !hit->s) /* the first entry wins */
			*hit = (struct found){ name, (size_t)(eol - name) };
		p = next;
	}
	if (why) {
		*ret_line = lineno;
		*ret_why = why;
		return -EBADMSG;
	}
	/* a vendor's name was kept on its first query; every query of the pair shares it */
	for (size_t i = 0; i < n; i++) {
		struct pci_ids_query *x = sorted[i];
		size_t first_v = lower_bound(sorted, 0, n, (uint32_t)x->vendor << 16);
		size_t first_d = lower_bound(sorted, 0, n, (uint32_t)x->vendor << 16 | x->device);
		const struct found *v = &names[2 * (sorted[first_v] - q)];
		const struct found *d = &names[2 * (sorted[first_d] - q) + 1];
		x->vendor_name = v->s;
		x->vendor_len = v->len;
		x->device_name = v->s ? d->s : NULL;
		x->device_len = v->s && d->s ? d->len : 0;
	}
	return 0;
}

void pci_ids_reduce(const struct pci_ids_query *q, size_t n, const char *source, struct strbuf *out)
{
	_cleanup_free_ const struct pci_ids_query **sorted = calloc(n ? n : 1, sizeof(*sorted));
	static const char hex[] = "0123456789abcdef";
	char id[8];

	if (!sorted) {
		out->oom = true;
		return;
	}
	for (size_t i = 0; i < n; i++)
		sorted[i] = &q[i];
	qsort(sorted, n, sizeof(*sorted), by_ids);
	strbuf_append(out, "# The names of this machine's PCI devices, from ");
	strbuf_append(out, source);
	strbuf_append(out, ",\n# kept by dmamask-audit --capture in place of the whole list.\n");
	for (size_t i = 0; i < n; i++) {
		const struct pci_ids_query *x = sorted[i];
		if (!x->vendor_name)
			continue;
		bool new_vendor = i == 0 || sorted[i - 1]->vendor != x->vendor;
		bool new_device = new_vendor || sorted[i - 1]->device != x->device;
		if (new_vendor) {
			for (int k = 0; k < 4; k++)
				id[k] = hex[x->vendor >> (12 - 4 * k) & 0xf];
			strbuf_append_n(out, id, 4);
			strbuf_append(out, "  ");
			strbuf_append_n(out, x->vendor_name, x->vendor_len);
			strbuf_append(out, "\n");
		}
		if (new_device && x->device_name) {
			id[0] = '\t';
			for (int k = 0; k < 4; k++)
				id[1 + k] = hex[x->device >> (12 - 4 * k) & 0xf];
			strbuf_append_n(out, id, 5);
			strbuf_append(out, "  ");
			strbuf_append_n(out, x->device_name, x->device_len);
			strbuf_append(out, "\n");
		}
	}
}
