/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ACPI IORT (sys/firmware/acpi/tables/IORT, root only): the memory address
 * size limits arm64 firmware gives named components and PCI root complexes
 * (drivers/acpi/arm64/iort.c nc_dma_get_range, rc_dma_get_range). Layout from
 * include/acpi/actbl2.h: table header 36 bytes, node_count at 36, node_offset
 * at 40; a node: type u8, length u16, revision u8, identifier u32,
 * mapping_count u32, mapping_offset u32, then its data at 16.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "readers/readers.h"
#include "readers/sysfs-attr.h"
#include "shared/macro.h"

#define IORT_PATH "sys/firmware/acpi/tables/IORT"
#define IORT_MAX (1u << 20)
#define IORT_NODES_MAX 4096

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void iort_nodes_free(struct iort_node *v, size_t n) /* as machine_done() frees m->iort */
{
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

int iort_parse(const void *data, size_t len, struct iort_node **ret, size_t *ret_n,
	       struct parse_error *e)
{
	const unsigned char *b = data;
	struct iort_node *v = NULL;
	size_t n = 0;

	if (len < 48 || memcmp(b, "IORT", 4) != 0)
		return parse_fail(e, 0, "not an IORT table (signature or size)");
	uint32_t table_len = le32(b + 4), count = le32(b + 36), off = le32(b + 40);
	if (table_len < 48 || table_len > len)
		return parse_fail(e, 0, "table length beyond the file");
	if (count > IORT_NODES_MAX)
		return parse_fail(e, 0, "more nodes than a table can hold");
	/* nodes follow the header: one that overlaps it reads the header as a node */
	if (count && off < 48)
		return parse_fail(e, 0, "a node inside the table's header");
	for (uint32_t i = 0; i < count; i++) {
		if (off > table_len || table_len - off < 16) {
			iort_nodes_free(v, n);
			return parse_fail(e, 0, "a node beyond the table");
		}
		const unsigned char *node = b + off;
		uint32_t nlen = (uint32_t)node[1] | (uint32_t)node[2] << 8;
		if (nlen < 16 || nlen > table_len - off) {
			iort_nodes_free(v, n);
			return parse_fail(e, 0, "a node length outside the table");
		}
		struct iort_node x = { .type = node[0], .revision = node[3] };
		bool keep = false;
		if (x.type == IORT_NODE_NAMED_COMPONENT && nlen >= 30) {
			/* node_flags u32 @16, memory_properties u64 @20, limit u8 @28, name @29 */
			x.limit_bits = node[28];
			const char *name = (const char *)node + 29;
			const char *nul = memchr(name, '\0', nlen - 29);
			if (!nul) {
				iort_nodes_free(v, n);
				return parse_fail(e, 0, "a named component's name runs past its node");
			}
			x.name = strndup(name, (size_t)(nul - name));
			if (!x.name) {
				iort_nodes_free(v, n);
				return -ENOMEM;
			}
			keep = true;
		} else if (x.type == IORT_NODE_ROOT_COMPLEX && nlen >= 32) {
			/* memory_properties u64 @16, ats u32 @24, segment u32 @28, limit u8 @32
			 * from revision 1 (rc_dma_get_range: "node->revision < 1" -ENODEV) */
			x.segment = le32(node + 28);
			x.limit_bits = x.revision >= 1 && nlen >= 33 ? node[32] : 0;
			keep = true;
		}
		if (keep) {
			struct iort_node *t = reallocarray(v, n + 1, sizeof(*v));
			if (!t) {
				free(x.name);
				iort_nodes_free(v, n);
				return -ENOMEM;
			}
			v = t;
			v[n++] = x;
		}
		off += nlen;
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

/* An ACPI device's path ("\_SB_.ETH0") for the non-PCI devices a named component may name. */
static int read_acpi_paths(struct sysroot *sr, struct machine *m)
{
	for (size_t i = 0; i < m->n_devices; i++) {
		struct device *d = &m->devices[i];
		_cleanup_sysroot_dir_ struct sysroot_dir *dir = NULL;
		if (d->bus == DEV_BUS_PCI || !d->syspath)
			continue;
		int r = sysroot_dir_new(sr, &dir, "%s/firmware_node", d->syspath);
		if (r == -ENOMEM)
			return r;
		if (r < 0)
			continue; /* no ACPI companion: a devicetree device */
		r = sysfs_read_string(dir, m, "path", &d->acpi_path);
		if (r < 0)
			return r;
	}
	return 0;
}

int read_iort(struct sysroot *sr, struct machine *m)
{
	_cleanup_free_ char *buf = NULL;
	struct parse_error e = { 0 };
	size_t len;
	int r;

	/* arm64 ACPI only: anywhere else the table does not exist */
	if (!m->arch_info || m->arch_info->family != ARCH_ARM64)
		return 0;
	r = sysroot_read_file(sr, IORT_PATH, IORT_MAX, &buf, &len);
	if (r == -ENOMEM)
		return r;
	if (r == -ENOENT)
		return 0; /* a devicetree machine */
	if (r < 0)
		return machine_add_input_errno(m, IORT_PATH, r);
	r = iort_parse(buf, len, &m->iort, &m->n_iort, &e);
	if (r < 0)
		return record_parse_result(m, IORT_PATH, r, &e);
	m->iort_read = true;
	r = machine_add_input(m, IORT_PATH, INPUT_OK, 0, NULL);
	if (r < 0)
		return r;
	for (size_t i = 0; i < m->n_iort; i++)
		if (m->iort[i].type == IORT_NODE_NAMED_COMPONENT)
			return read_acpi_paths(sr, m);
	return 0;
}
