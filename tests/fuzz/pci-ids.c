/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pci.ids: names hold no newline; the list given in pieces (of a size the
 * input picks) names every query as the whole list does; and the reduced
 * list a capture keeps names every query as the whole list did.
 */
#include <errno.h>

#include "fuzz.h"
#include "readers/pci-ids.h"
#include "shared/text.h"

#define QUERIES 64

/* Queries: the ids the list itself names (vendors and their devices), and a few from nowhere. */
static size_t queries(const char *s, size_t size, struct pci_ids_query *q)
{
	size_t n = 0;
	long vendor = -1;

	for (size_t i = 0; i + 4 <= size && n < QUERIES - 2; i++) {
		if (i > 0 && s[i - 1] != '\n')
			continue;
		bool tab = s[i] == '\t';
		const char *p = s + i + tab;
		long v = 0;
		if ((size_t)(p - s) + 4 > size)
			break;
		for (int k = 0; k < 4 && v >= 0; k++)
			v = hex_digit(p[k]) < 0 ? -1 : v << 4 | hex_digit(p[k]);
		if (v < 0)
			continue;
		if (!tab)
			vendor = v;
		if (vendor >= 0)
			q[n++] = (struct pci_ids_query){ .vendor = (uint16_t)vendor,
							 .device = (uint16_t)(tab ? v : 0x0001) };
	}
	q[n++] = (struct pci_ids_query){ .vendor = 0x8086, .device = 0x1237 };
	q[n++] = (struct pci_ids_query){ .vendor = (uint16_t)size, .device = 0xffff };
	return n;
}

static bool same(const char *a, size_t alen, const char *b, size_t blen)
{
	return !a == !b && (!a || (alen == blen && memcmp(a, b, alen) == 0));
}

static bool same_names(const struct pci_ids_query *a, const struct pci_ids_query *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!same(a[i].vendor_name, a[i].vendor_len, b[i].vendor_name, b[i].vendor_len) ||
		    !same(a[i].device_name, a[i].device_len, b[i].device_name, b[i].device_len))
			return false;
	return true;
}

/* As sysroot_read_stream_deferred() gives it: pieces of at most piece bytes, what is left given again. */
static int in_pieces(struct pci_ids_scan *s, const char *buf, size_t size, size_t piece, struct pci_ids_query *q,
		     size_t n, unsigned *line, const char **why)
{
	size_t used_to = 0, read_to = 0;

	fuzz_assert(pci_ids_scan_start(s, q, n) == 0);
	for (;;) {
		size_t more = size - read_to < piece ? size - read_to : piece;
		read_to += more;
		ssize_t used = pci_ids_scan_feed(s, buf + used_to, read_to - used_to, more == 0);
		if (used == -EBADMSG)
			break;
		fuzz_assert(used >= 0 && (size_t)used <= read_to - used_to);
		used_to += (size_t)used;
		fuzz_assert(read_to - used_to < 1024);
		if (more == 0) {
			fuzz_assert(used_to == size);
			break;
		}
	}
	return pci_ids_scan_end(s, line, why);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size);
	struct pci_ids_query q[QUERIES], again[QUERIES], pieces[QUERIES];
	struct pci_ids_scan scan, scan2, scan3;
	size_t n = queries(buf, size, q);
	const char *why = NULL, *why2 = NULL;
	unsigned line = 0, line2 = 0;

	memcpy(pieces, q, sizeof(q));
	int r = pci_ids_lookup(&scan, buf, size, q, n, &line, &why);
	fuzz_assert_parse_result(r);
	if (r == -EBADMSG)
		fuzz_assert(why && line >= 1);
	size_t piece = size ? 1 + (size_t)data[0] * 7 % size : 1;
	fuzz_assert(in_pieces(&scan3, buf, size, piece, pieces, n, &line2, &why2) == r);
	fuzz_assert(r == 0 ? same_names(q, pieces, n) : line == line2 && strcmp(why, why2) == 0);
	pci_ids_scan_free(&scan3);
	if (r == 0) {
		for (size_t i = 0; i < n; i++) {
			fuzz_assert(!q[i].device_name || q[i].vendor_name);
			if (q[i].vendor_name)
				fuzz_assert(q[i].vendor_len > 0 && !memchr(q[i].vendor_name, '\n', q[i].vendor_len));
			if (q[i].device_name)
				fuzz_assert(q[i].device_len > 0 && !memchr(q[i].device_name, '\n', q[i].device_len));
		}
		struct strbuf reduced = { 0 };
		pci_ids_reduce(q, n, "fuzz", &reduced);
		size_t len = reduced.len;
		char *list = strbuf_steal(&reduced);
		fuzz_assert(list);
		memcpy(again, q, sizeof(q));
		for (size_t i = 0; i < n; i++)
			again[i].vendor_name = again[i].device_name = NULL;
		fuzz_assert(pci_ids_lookup(&scan2, list, len, again, n, &line, &why) == 0);
		fuzz_assert(same_names(q, again, n));
		pci_ids_scan_free(&scan2);
		free(list);
	}
	pci_ids_scan_free(&scan);
	free(buf);
	return 0;
}
