/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * proc/iomem (kernel/resource.c r_show): "%0*llx-%0*llx : %s", two spaces of
 * indent per nesting level. Without CAP_SYS_ADMIN every address reads as 0
 * (since 4.6, commit 51d7b120418e "/proc/iomem: only expose physical
 * resource addresses to privileged users").
 */
#include <stdlib.h>
#include <string.h>

#include "readers/readers.h"
#include "shared/macro.h"
#include "shared/text.h"

/* Deep enough for any real tree; deeper is malformed. */
#define IOMEM_MAX_DEPTH 32

/* "System RAM" and "System RAM (kmem)" (dax kmem hot-added memory) are RAM. */
static bool is_system_ram(const char *name, size_t len)
{
	static const char tag[] = "System RAM";
	return len >= sizeof(tag) - 1 && memcmp(name, tag, sizeof(tag) - 1) == 0 &&
	       (len == sizeof(tag) - 1 || name[sizeof(tag) - 1] == ' ');
}

static int cmp_range(const void *a, const void *b)
{
	const struct ram_range *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * "reserved" (arm64 request_standard_resources) and "Reserved" (arm's
 * request_standard_resources, riscv's init_resources): how those name a nomap
 * memblock region, which the
 * zones span. x86 names e820 reserved ranges "Reserved" too: the analysis
 * decides by architecture what the end means.
 */
static bool is_reserved(const char *name, size_t len)
{
	return len == 8 && (memcmp(name, "reserved", 8) == 0 || memcmp(name, "Reserved", 8) == 0);
}

int iomem_parse(const char *buf, size_t len, struct ram_range **ret_ram, size_t *ret_n,
		bool *ret_hidden, struct opt_u64 *ret_reserved_end, struct parse_error *ret_err)
{
	_cleanup_free_ struct ram_range *ram = NULL;
	struct opt_u64 reserved_end = { 0 };
	size_t n = 0, cap = 0;
	bool ram_at[IOMEM_MAX_DEPTH] = { false }; /* is the open resource at depth d RAM? */
	bool all_zero = true, any = false;
	struct line_iter it;
	struct line l;

	if (text_has_nul(buf, len))
		return parse_fail(ret_err, 0, "binary content (NUL byte)");
	if (len > 0 && buf[len - 1] != '\n')
		return parse_fail(ret_err, 0, "truncated (no final newline)");

	line_iter_init(&it, buf, len);
	while (line_iter_next(&it, &l)) {
		const char *p = l.s, *end = l.s + l.len;
		size_t indent = 0;
		while (p < end && *p == ' ') {
			p++;
			indent++;
		}
		if (indent % 2)
			return parse_fail(ret_err, l.no, "odd indentation");
		size_t depth = indent / 2;
		if (depth >= IOMEM_MAX_DEPTH)
			return parse_fail(ret_err, l.no, "nesting too deep");
		if (depth > 0 && !any)
			return parse_fail(ret_err, l.no, "nested resource without a parent");

		const char *dash = memchr(p, '-', (size_t)(end - p));
		if (!dash)
			return parse_fail(ret_err, l.no, "expected START-END : NAME");
		const char *sep = dash + 1;
		while (sep < end && *sep != ' ')
			sep++;
		if (end - sep < 3 || memcmp(sep, " : ", 3) != 0)
			return parse_fail(ret_err, l.no, "expected START-END : NAME");
		uint64_t start, stop;
		if (parse_u64(p, (size_t)(dash - p), 16, &start) < 0 ||
		    parse_u64(dash + 1, (size_t)(sep - dash - 1), 16, &stop) < 0)
			return parse_fail(ret_err, l.no, "bad hex address");
		const char *name = sep + 3;
		size_t name_len = (size_t)(end - name);
		if (start || stop)
			all_zero = false;
		if (stop < start)
			return parse_fail(ret_err, l.no, "end below start");
		if (stop - start >= (1ull << 62))
			return parse_fail(ret_err, l.no, "range of 4 EiB or more: no machine has it");
		any = true;

		bool parent_ram = false;
		for (size_t d = 0; d < depth; d++)
			parent_ram = parent_ram || ram_at[d];
		if (depth == 0 && is_reserved(name, name_len) && (!reserved_end.known || stop > reserved_end.v))
			opt_set(&reserved_end, stop);
		bool ram_here = is_system_ram(name, name_len);
		ram_at[depth] = ram_here;
		for (size_t d = depth + 1; d < IOMEM_MAX_DEPTH; d++)
			ram_at[d] = false;
		if (!ram_here || parent_ram) /* count RAM once, at its outermost level */
			continue;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			struct ram_range *nr = realloc(ram, ncap * sizeof(*nr));
			if (!nr)
				return -ENOMEM;
			ram = nr;
			cap = ncap;
		}
		ram[n++] = (struct ram_range){ .start = start, .end = stop };
	}

	if (n)
		qsort(ram, n, sizeof(*ram), cmp_range);
	for (size_t i = 1; i < n && !all_zero; i++)
		if (ram[i].start <= ram[i - 1].end)
			return parse_fail(ret_err, 0, "overlapping System RAM ranges");

	*ret_hidden = any && all_zero;
	if (ret_reserved_end)
		*ret_reserved_end = *ret_hidden ? (struct opt_u64){ 0 } : reserved_end;
	*ret_n = n;
	*ret_ram = TAKE_PTR(ram);
	return 0;
}

size_t iomem_pci_functions(const char *buf, size_t len, char ret_first[static 16])
{
	struct line_iter it;
	struct line l;
	size_t n = 0;

	ret_first[0] = '\0';
	line_iter_init(&it, buf, len);
	while (line_iter_next(&it, &l)) {
		const char *sep = memmem(l.s, l.len, " : ", 3);
		/* pci_name(): what a PCI function's resources are named */
		if (!sep || !text_is_pci_address(sep + 3, (size_t)(l.s + l.len - sep - 3), true))
			continue;
		if (n++ == 0) {
			memcpy(ret_first, sep + 3, 12);
			ret_first[12] = '\0';
		}
	}
	return n;
}

int read_iomem(struct sysroot *sr, struct machine *m)
{
	static const char path[] = "proc/iomem";
	_cleanup_free_ char *buf = NULL;
	struct parse_error e = { 0 };
	size_t len;
	bool hidden = false;
	int r;

	r = read_input(sr, m, path, SYSROOT_READ_MAX, &buf, &len);
	if (r <= 0)
		return r;
	r = iomem_parse(buf, len, &m->ram, &m->n_ram, &hidden, &m->iomem_reserved_end, &e);
	if (r < 0)
		return record_parse_result(m, path, r, &e);
	m->iomem_pci_functions = iomem_pci_functions(buf, len, m->iomem_pci_function);
	if (m->n_ram == 0 && !hidden) {
		m->ram = NULL;
		return machine_add_input(m, path, INPUT_INVALID, EBADMSG, "no System RAM resource");
	}
	if (hidden) {
		free(m->ram); /* zeros say nothing about where RAM is */
		m->ram = NULL;
		m->n_ram = 0;
		m->iomem_hidden = true;
		return machine_add_input(m, path, INPUT_DENIED, 0,
					 "addresses read as zero: needs CAP_SYS_ADMIN");
	}
	m->iomem_ok = true;
	return machine_add_input(m, path, INPUT_OK, 0, NULL);
}
