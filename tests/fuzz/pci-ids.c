/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pci.ids: names point into the list and hold no newline, and the reduced
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size);
	struct pci_ids_query q[QUERIES], again[QUERIES];
	size_t n = queries(buf, size, q);
	const char *why = NULL;
	unsigned line = 0;

	int r = pci_ids_lookup(buf, size, q, n, &line, &why);
	fuzz_assert_parse_result(r);
	if (r == -EBADMSG)
		fuzz_assert(why && line >= 1);
	if (r == 0) {
		for (size_t i = 0; i < n; i++) {
			fuzz_assert(!q[i].device_name || q[i].vendor_name);
			if (q[i].vendor_name)
				fuzz_assert(q[i].vendor_name >= buf && q[i].vendor_name + q[i].vendor_len <= buf + size &&
					    q[i].vendor_len > 0 && !memchr(q[i].vendor_name, '\n', q[i].vendor_len));
			if (q[i].device_name)
				fuzz_assert(q[i].device_name >= buf && q[i].device_name + q[i].device_len <= buf + size &&
					    q[i].device_len > 0 && !memchr(q[i].device_name, '\n', q[i].device_len));
		}
		struct strbuf reduced = { 0 };
		pci_ids_reduce(q, n, "fuzz", &reduced);
		size_t len = reduced.len;
		char *list = strbuf_steal(&reduced);
		fuzz_assert(list);
		memcpy(again, q, sizeof(q));
		for (size_t i = 0; i < n; i++)
			again[i].vendor_name = again[i].device_name = NULL;
		fuzz_assert(pci_ids_lookup(list, len, again, n, &line, &why) == 0);
		for (size_t i = 0; i < n; i++) {
			fuzz_assert(!q[i].vendor_name == !again[i].vendor_name &&
				    !q[i].device_name == !again[i].device_name);
			fuzz_assert(!q[i].vendor_name || (q[i].vendor_len == again[i].vendor_len &&
				    memcmp(q[i].vendor_name, again[i].vendor_name, q[i].vendor_len) == 0));
			fuzz_assert(!q[i].device_name || (q[i].device_len == again[i].device_len &&
				    memcmp(q[i].device_name, again[i].device_name, q[i].device_len) == 0));
		}
		free(list);
	}
	free(buf);
	return 0;
}
