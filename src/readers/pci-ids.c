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

struct pci_ids_name {
	char *s;
	size_t len;
};

int pci_ids_scan_start(struct pci_ids_scan *s, struct pci_ids_query *q, size_t n)
{
	*s = (struct pci_ids_scan){ .q = q, .n = n, .block = NONE };
	s->sorted = calloc(n ? n : 1, sizeof(*s->sorted));
	s->names = calloc(n ? 2 * n : 1, sizeof(*s->names));
	if (!s->sorted || !s->names) {
		pci_ids_scan_free(s);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		s->sorted[i] = &q[i];
	qsort(s->sorted, n, sizeof(*s->sorted), by_ids);
	return 0;
}

void pci_ids_scan_free(struct pci_ids_scan *s)
{
	if (s->names)
		for (size_t i = 0; i < 2 * s->n; i++)
			free(s->names[i].s);
	free(s->names);
	free(s->sorted);
	s->names = NULL;
	s->sorted = NULL;
}

/* One line, p up to eol (its LF or CR): s->why set when it is bad; -ENOMEM. */
static int scan_line(struct pci_ids_scan *s, const char *p, const char *eol)
{
	struct pci_ids_query *const *sorted = s->sorted;

	s->lineno++;
	if (eol - p >= LINE_MAX_BYTES - 1) {
		s->why = "Line too long";
		return 0;
	}
	while (eol > p && blank(eol[-1]))
		eol--;
	const char *t = p;
	while (t < eol && blank(*t))
		t++;
	if (t == eol || *t == '#')
		return 0;
	size_t nest = 0;
	while (p + nest < eol && p[nest] == '\t')
		nest++;
	t = p + nest;
	long id = -1, id2 = -1;
	int name_at = 0;
	struct pci_ids_name *hit = NULL;

	if (nest == 0) {
		if (t[0] == 'C' && eol - t > 1 && t[1] == ' ') {
			id = hex_then_blank(t + 2, eol, 2);
			s->block = CLASS;
			name_at = 5;
		} else if (t[0] == 'S' && eol - t > 1 && t[1] == ' ') {
			/* "S vvvv" and nothing more: its lines name subsystems of any device */
			s->block = GENERIC;
			for (int k = 2; k < 6; k++)
				if (eol - t != 6 || hex_digit(t[k]) < 0)
					s->why = "Parse error";
			return 0;
		} else if (t[0] >= 'A' && t[0] <= 'Z' && eol - t > 1 && t[1] == ' ') {
			s->block = SKIPPED;
			return 0;
		} else {
			id = hex_then_blank(t, eol, 4);
			s->block = VENDOR;
			name_at = 5;
			/* the queries of this vendor, if any */
			if (id >= 0) {
				s->v_lo = lower_bound(sorted, 0, s->n, (uint32_t)id << 16);
				s->v_hi = lower_bound(sorted, s->v_lo, s->n, ((uint32_t)id + 1) << 16);
				if (s->v_lo < s->v_hi)
					hit = &s->names[2 * (size_t)(sorted[s->v_lo] - s->q)];
			}
		}
	} else if (s->block == SKIPPED) {
		return 0;
	} else if (nest == 1 && (s->block == VENDOR || s->block == DEVICE || s->block == SUBSYSTEM)) {
		id = hex_then_blank(t, eol, 4);
		s->block = DEVICE;
		name_at = 5;
		if (id >= 0 && s->v_lo < s->v_hi) {
			uint32_t key = (uint32_t)sorted[s->v_lo]->vendor << 16 | (uint32_t)id;
			size_t i = lower_bound(sorted, s->v_lo, s->v_hi, key);
			if (i < s->v_hi && sorted[i]->device == id)
				hit = &s->names[2 * (size_t)(sorted[i] - s->q) + 1];
		}
	} else if (nest == 1 && s->block == GENERIC) {
		id = hex_then_blank(t, eol, 4);
		name_at = 5;
	} else if (nest == 1 && (s->block == CLASS || s->block == SUBCLASS || s->block == PROGIF)) {
		id = hex_then_blank(t, eol, 2);
		s->block = SUBCLASS;
		name_at = 3;
	} else if (nest == 2 && (s->block == DEVICE || s->block == SUBSYSTEM)) {
		id = hex_then_blank(t, eol, 4);
		id2 = id >= 0 ? hex_then_blank(t + 5, eol, 4) : -1;
		id = id2 >= 0 ? id : -1;
		s->block = SUBSYSTEM;
		name_at = 10;
	} else if (nest == 2 && (s->block == CLASS || s->block == SUBCLASS || s->block == PROGIF)) {
		id = hex_then_blank(t, eol, 2);
		s->block = PROGIF;
		name_at = 3;
	}
	if (id < 0) {
		s->why = "Parse error";
		return 0;
	}
	const char *name = t + name_at;
	while (name < eol && blank(*name))
		name++;
	if (name == eol) {
		s->why = "Parse error";
		return 0;
	}
	if (hit && !hit->s) { /* the first entry wins */
		hit->len = (size_t)(eol - name);
		hit->s = malloc(hit->len); /* not strndup(): the bytes, NULs and all, as the name was read */
		if (!hit->s)
			return -ENOMEM;
		memcpy(hit->s, name, hit->len);
	}
	return 0;
}

ssize_t pci_ids_scan_feed(struct pci_ids_scan *s, const char *buf, size_t len, bool last)
{
	const char *p = buf, *end = buf + len;
	/* most lists have no CR at all: then no line is searched for one */
	bool any_cr = memchr(buf, '\r', len);

	while (p < end && !s->why) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (s->skip_to_lf) {
			if (!nl)
				return (ssize_t)len;
			s->skip_to_lf = false;
			p = nl + 1;
			continue;
		}
		const char *eol = nl ? nl : end;
		const char *cr = any_cr ? memchr(p, '\r', (size_t)(eol - p)) : NULL;
		if (cr) {
			eol = cr;
		} else if (!nl && !last) {
			/* a line cut short: too long already, or given again with more */
			if (end - p < LINE_MAX_BYTES - 1)
				break;
		}
		int r = scan_line(s, p, eol);
		if (r < 0)
			return r;
		if (s->why)
			break;
		if (!nl && !last) { /* cut at a CR: the rest of it, still to come, is not read */
			s->skip_to_lf = true;
			return (ssize_t)len;
		}
		p = nl ? nl + 1 : end;
	}
	if (s->why)
		return -EBADMSG;
	return p - buf;
}

int pci_ids_scan_end(struct pci_ids_scan *s, unsigned *ret_line, const char **ret_why)
{
	struct pci_ids_query *const *sorted = s->sorted;

	if (s->why) {
		*ret_line = s->lineno;
		*ret_why = s->why;
		return -EBADMSG;
	}
	/* a vendor's name was kept on its first query; every query of the pair shares it */
	for (size_t i = 0; i < s->n; i++) {
		struct pci_ids_query *x = sorted[i];
		size_t first_v = lower_bound(sorted, 0, s->n, (uint32_t)x->vendor << 16);
		size_t first_d = lower_bound(sorted, 0, s->n, (uint32_t)x->vendor << 16 | x->device);
		const struct pci_ids_name *v = &s->names[2 * (size_t)(sorted[first_v] - s->q)];
		const struct pci_ids_name *d = &s->names[2 * (size_t)(sorted[first_d] - s->q) + 1];
		x->vendor_name = v->s;
		x->vendor_len = v->len;
		x->device_name = v->s ? d->s : NULL;
		x->device_len = v->s && d->s ? d->len : 0;
	}
	return 0;
}

int pci_ids_lookup(struct pci_ids_scan *s, const char *buf, size_t len, struct pci_ids_query *q, size_t n,
		   unsigned *ret_line, const char **ret_why)
{
	int r = pci_ids_scan_start(s, q, n);
	if (r < 0)
		return r;
	ssize_t used = pci_ids_scan_feed(s, buf, len, true);
	if (used == -ENOMEM)
		return -ENOMEM;
	return pci_ids_scan_end(s, ret_line, ret_why);
}

/* "id  name": two blanks as pci.ids writes, one where two would make a line longer than pciutils reads. */
static void append_entry(struct strbuf *out, const char *id, size_t id_len, const char *name, size_t len)
{
	strbuf_append_n(out, id, id_len);
	strbuf_append(out, id_len + 2 + len >= LINE_MAX_BYTES - 1 ? " " : "  ");
	strbuf_append_n(out, name, len);
	strbuf_append(out, "\n");
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
			append_entry(out, id, 4, x->vendor_name, x->vendor_len);
		}
		if (new_device && x->device_name) {
			id[0] = '\t';
			for (int k = 0; k < 4; k++)
				id[1 + k] = hex[x->device >> (12 - 4 * k) & 0xf];
			append_entry(out, id, 5, x->device_name, x->device_len);
		}
	}
}
