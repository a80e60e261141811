/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sys/firmware/devicetree/base (drivers/of/kobj.c): one directory per node,
 * one binary file per property, cells big-endian u32. What a device's DMA
 * reach depends on: each ancestor's dma-ranges, parsed with the cell counts
 * drivers/of/address.c parser_init() uses, and a restricted-dma-pool named
 * by memory-region (drivers/of/device.c of_dma_set_restricted_buffer).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readers/readers.h"
#include "shared/errno-util.h"
#include "shared/kernel-defs.h"
#include "shared/macro.h"
#include "shared/path.h"

/* Properties are small; a cap keeps a hostile snapshot from costing memory. */
#define DT_PROP_MAX (1u << 20)
/* Real trees are under ten levels deep. */
#define DT_MAX_DEPTH 64

static uint32_t be32_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* of_read_number(), refusing values that do not fit 64 bits. */
static int read_cells(const uint8_t *p, unsigned cells, uint64_t *ret)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < cells; i++) {
		uint32_t c = be32_at(p + 4 * i);
		if (i + 2 < cells && c != 0)
			return -EBADMSG;
		v = v << 32 | c;
	}
	*ret = v;
	return 0;
}

int dt_parse_dma_ranges(const uint8_t *prop, size_t len, unsigned child_cells, bool child_is_pci,
			unsigned parent_cells, unsigned size_cells, struct dt_range **ret, size_t *ret_n)
{
	if (child_cells == 0 || child_cells > DT_MAX_CELLS || parent_cells == 0 ||
	    parent_cells > DT_MAX_CELLS || size_cells == 0 || size_cells > DT_MAX_CELLS)
		return -EBADMSG;
	/* PCI: phys.hi (space code, flags) then a 64-bit address (of_bus_pci_map). */
	if (child_is_pci && child_cells != 3)
		return -EBADMSG;

	size_t entry = 4 * (size_t)(child_cells + parent_cells + size_cells);
	if (len % entry)
		return -EBADMSG;
	if (len == 0) {
		*ret = NULL;
		*ret_n = 0;
		return 0;
	}

	size_t n = len / entry;
	_cleanup_free_ struct dt_range *r = calloc(n, sizeof(*r));
	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const uint8_t *p = prop + i * entry;
		int k = child_is_pci ? read_cells(p + 4, 2, &r[i].child)
				     : read_cells(p, child_cells, &r[i].child);
		if (k < 0 || read_cells(p + 4 * child_cells, parent_cells, &r[i].parent) < 0 ||
		    read_cells(p + 4 * (child_cells + parent_cells), size_cells, &r[i].size) < 0)
			return -EBADMSG;
	}
	*ret = TAKE_PTR(r);
	*ret_n = n;
	return 0;
}

/* The node's directory under DT_BASE ("" is the root), resolved when first read. */
static int node_dir(struct sysroot *sr, const char *node, struct sysroot_dir **ret)
{
	return sysroot_dir_new(sr, ret, DT_BASE "/%s", node);
}

/* 0, -ENOMEM, or the sysroot error (-ENOENT: no such property). */
static int read_prop(struct sysroot_dir *dir, const char *name, uint8_t **ret, size_t *ret_len)
{
	char *buf;
	int r = sysroot_dir_read_file(dir, name, DT_PROP_MAX, &buf, ret_len);

	if (r < 0)
		return r;
	*ret = (uint8_t *)buf;
	return 0;
}

/*
 * of_property_read_u32(): found when the property holds at least one cell.
 * Returns 0 (*found set), or the read error: a missing property is absent,
 * an unreadable one (a link loop, EACCES) is not.
 */
static int read_u32_prop(struct sysroot_dir *dir, const char *name, bool *found, uint32_t *ret)
{
	_cleanup_free_ uint8_t *buf = NULL;
	size_t len;
	int r = read_prop(dir, name, &buf, &len);

	*found = false;
	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	if (r < 0)
		return r;
	if (len < 4)
		return 0;
	*found = true;
	*ret = be32_at(buf);
	return 0;
}

/* A string-list property (NUL-separated) holds s. */
static bool strlist_has(const uint8_t *buf, size_t len, const char *s)
{
	size_t slen = strlen(s);

	for (size_t i = 0; i < len;) {
		const uint8_t *nul = memchr(buf + i, '\0', len - i);
		size_t n = nul ? (size_t)(nul - (buf + i)) : len - i;
		if (n == slen && memcmp(buf + i, s, slen) == 0)
			return true;
		i += n + 1;
	}
	return false;
}

/* The node's name without its unit address: "pcie@7d500000" -> "pcie". */
static bool node_name_is(const char *path, const char *name)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strcspn(base, "@");
	return n == strlen(name) && memcmp(base, name, n) == 0;
}

/*
 * drivers/of/address.c of_bus_pci_match(): device_type "pci", "pciex",
 * "vci" or "ht", or (newer kernels, with a warning) a node named "pcie".
 */
static int read_is_pci(struct sysroot_dir *dir, const char *node, bool *ret)
{
	static const char *const types[] = { "pci", "pciex", "vci", "ht" };
	_cleanup_free_ uint8_t *buf = NULL;
	size_t len;
	int r = read_prop(dir, "device_type", &buf, &len);

	/* unreadable is not "not PCI": it decides how dma-ranges cells are read */
	if (r < 0 && r != -ENOENT && r != -ENOTDIR)
		return r;
	*ret = node_name_is(node, "pcie");
	for (size_t i = 0; r == 0 && i < ARRAY_SIZE(types) && !*ret; i++)
		*ret = strlist_has(buf, len, types[i]);
	return 0;
}

static const char *display_path(const char *node)
{
	return *node ? node : "/";
}

/* "node: what"; the first problem is kept, it explains the rest. */
static int set_error(struct dt_info *d, const char *node, const char *what)
{
	if (d->error)
		return 0;
	if (asprintf(&d->error, "%s: %s", display_path(node), what) < 0) {
		d->error = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* A read on the chain failed: the kernel saw something we cannot, so reach is unknown. */
static int set_read_error(struct dt_info *d, const char *node, const char *prop, int err)
{
	char what[128];

	if (d->err)
		return 0;
	d->err = err;
	if (asprintf(&d->err_path, DT_BASE "%s%s%s%s", *node ? "/" : "", node, prop ? "/" : "",
		     prop ? prop : "") < 0) {
		d->err_path = NULL;
		return -ENOMEM;
	}
	snprintf(what, sizeof(what), "%s%sunreadable: %s", prop ? prop : "", prop ? " " : "",
		 errno_describe(err));
	free(d->error); /* a read error outranks what was concluded before it */
	d->error = NULL;
	return set_error(d, node, what);
}

/* A read that failed for another reason than absence (a link loop, EACCES): the kernel saw more. */
static bool unreadable(int r)
{
	return r < 0 && r != -ENOENT && r != -ENOTDIR && r != -ENOMEM;
}

/* "soc/mmc@7e340000": no empty, "." or ".." component (none may leave the tree). */
static bool valid_dt_path(const char *p)
{
	if (!*p)
		return true;
	for (const char *c = p;;) {
		size_t n = strcspn(c, "/");
		if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		if (!c[n])
			return true;
		c += n + 1;
	}
}

/* Per node: what the node says itself, before inheritance. */
struct raw_node {
	bool has_addr, has_size;
	uint32_t addr, size;
};

/* Read one node's own #address-cells, #size-cells, and PCI-ness. */
static int read_node_cells(struct sysroot_dir *dir, struct dt_info *d, struct dt_node *n,
			   struct raw_node *raw)
{
	int r = read_u32_prop(dir, "#address-cells", &raw->has_addr, &raw->addr);
	if (r < 0 && r != -ENOMEM)
		return set_read_error(d, n->path, "#address-cells", r);
	if (r < 0)
		return r;
	r = read_u32_prop(dir, "#size-cells", &raw->has_size, &raw->size);
	if (r < 0 && r != -ENOMEM)
		return set_read_error(d, n->path, "#size-cells", r);
	if (r < 0)
		return r;
	r = read_is_pci(dir, n->path, &n->is_pci);
	if (r < 0 && r != -ENOMEM)
		return set_read_error(d, n->path, "device_type", r);
	return r;
}

/*
 * dma-ranges of chain[i]: child cells are the node's own #address-cells
 * (of_bus_n_addr_cells), parent cells its parent's (of_n_addr_cells, which
 * stays on the root for the root), size cells the node's #size-cells.
 */
static int read_node_dma_ranges(struct sysroot_dir *dir, struct dt_info *d, size_t i,
				const struct raw_node *raw)
{
	struct dt_node *n = &d->chain[i];
	unsigned parent_cells = i + 1 < d->n_chain ? d->chain[i + 1].address_cells : n->address_cells;
	_cleanup_free_ uint8_t *buf = NULL;
	size_t len;
	int r = read_prop(dir, "dma-ranges", &buf, &len);

	if (r == -ENOMEM)
		return r;
	if (r == -ENOENT) {
		n->dma_ranges = DT_PROP_ABSENT;
		return 0;
	}
	if (r < 0) {
		n->dma_ranges = DT_PROP_INVALID;
		return set_read_error(d, n->path, "dma-ranges", r);
	}
	if (len == 0) {
		n->dma_ranges = DT_PROP_EMPTY;
		return 0;
	}
	/*
	 * A 3-cell child address carries a flags cell first: PCI's phys.hi, or
	 * (6.7+) the "default-flags" bus of any node with #address-cells = <3>.
	 * Older kernels' of_read_number() kept the low 64 bits: the same value.
	 */
	bool flag_cell = n->is_pci || (raw->has_addr && n->address_cells == 3);
	r = dt_parse_dma_ranges(buf, len, n->address_cells, flag_cell, parent_cells, n->size_cells,
				&n->ranges, &n->n_ranges);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		n->dma_ranges = DT_PROP_INVALID;
		char what[96];
		snprintf(what, sizeof(what),
			 "malformed dma-ranges: %zu bytes are not entries of <%u %u %u> cells", len,
			 n->address_cells, parent_cells, n->size_cells);
		return set_error(d, n->path, what);
	}
	n->dma_ranges = DT_PROP_PRESENT;
	return 0;
}

/* drivers/of/base.c __of_device_is_available(): no status, "okay" or "ok". */
static int node_available(struct sysroot_dir *dir, struct dt_info *d, const char *node, bool *ret)
{
	_cleanup_free_ uint8_t *buf = NULL;
	size_t len;
	int r = read_prop(dir, "status", &buf, &len);

	if (r == -ENOMEM)
		return r;
	if (unreadable(r))
		return set_read_error(d, node, "status", r);
	*ret = r < 0 || strlist_has(buf, len, "okay") || strlist_has(buf, len, "ok");
	return 0;
}

/*
 * The cell counts for reg of a reserved-memory child: of_bus_n_addr_cells
 * and of_bus_n_size_cells on /reserved-memory (own, else the root's, else
 * the defaults).
 */
static int reserved_memory_cells(struct sysroot *sr, struct dt_info *d, unsigned *ret_na,
				 unsigned *ret_ns)
{
	bool found;
	uint32_t v;
	int r;

	*ret_na = DT_DEFAULT_ADDR_CELLS;
	*ret_ns = DT_DEFAULT_SIZE_CELLS;
	static const char *const nodes[] = { "reserved-memory", "" };
	bool have_na = false, have_ns = false;
	for (size_t i = 0; i < ARRAY_SIZE(nodes); i++) {
		_cleanup_sysroot_dir_ struct sysroot_dir *dir = NULL;
		if (node_dir(sr, nodes[i], &dir) < 0)
			return -ENOMEM;
		if (!have_na) {
			r = read_u32_prop(dir, "#address-cells", &found, &v);
			if (r < 0)
				return r == -ENOMEM ? r : set_read_error(d, nodes[i], "#address-cells", r);
			if (found) {
				*ret_na = v;
				have_na = true;
			}
		}
		if (!have_ns) {
			r = read_u32_prop(dir, "#size-cells", &found, &v);
			if (r < 0)
				return r == -ENOMEM ? r : set_read_error(d, nodes[i], "#size-cells", r);
			if (found) {
				*ret_ns = v;
				have_ns = true;
			}
		}
	}
	return 0;
}

/* Fill base/size of a restricted-dma-pool node from reg, or "size" when placed dynamically. */
static int read_pool_extent(struct sysroot *sr, struct sysroot_dir *dir, const char *node,
			    struct dt_info *d)
{
	_cleanup_free_ uint8_t *buf = NULL;
	unsigned na, ns;
	size_t len;
	int r = reserved_memory_cells(sr, d, &na, &ns);

	if (r < 0 || d->err)
		return r;
	if (na == 0 || na > DT_MAX_CELLS || ns == 0 || ns > DT_MAX_CELLS)
		return set_error(d, node, "bad #address-cells/#size-cells for reg");
	r = read_prop(dir, "reg", &buf, &len);
	if (r == -ENOMEM)
		return r;
	if (unreadable(r))
		return set_read_error(d, node, "reg", r);
	if (r == 0 && len >= 4 * (size_t)(na + ns)) {
		if (read_cells(buf, na, &d->restricted_base) < 0 ||
		    read_cells(buf + 4 * na, ns, &d->restricted_size) < 0)
			return set_error(d, node, "reg does not fit 64 bits");
		return 0;
	}
	/* No reg: allocated at boot within alloc-ranges; base unknown (left 0). */
	free(buf);
	buf = NULL;
	r = read_prop(dir, "size", &buf, &len);
	if (r == -ENOMEM)
		return r;
	if (unreadable(r))
		return set_read_error(d, node, "size", r);
	if (r == 0 && len >= 4 * (size_t)ns && read_cells(buf, ns, &d->restricted_size) == 0)
		return 0;
	return set_error(d, node, "restricted-dma-pool without reg or size");
}

/* The reserved-memory child whose phandle (or legacy linux,phandle) is ph; *ret NULL if none. */
static int find_reserved_node(struct sysroot *sr, struct dt_info *d, uint32_t ph, char **ret)
{
	_cleanup_sysroot_dir_ struct sysroot_dir *parent = NULL;
	struct strv names = { 0 };
	int r = node_dir(sr, "reserved-memory", &parent);

	*ret = NULL;
	if (r < 0)
		return r;
	r = sysroot_dir_list(parent, &names);
	if (r == -ENOMEM)
		return r;
	if (unreadable(r))
		return set_read_error(d, "reserved-memory", NULL, r);
	if (r < 0)
		return 0;
	for (size_t i = 0; i < names.n && !*ret && r >= 0; i++) {
		_cleanup_sysroot_dir_ struct sysroot_dir *dir = NULL;
		_cleanup_free_ char *node = NULL;
		if (!(node = path_join("reserved-memory", names.v[i])) ||
		    sysroot_dir_new_at(parent, &dir, "%s", names.v[i]) < 0) {
			r = -ENOMEM;
			break;
		}
		static const char *const props[] = { "phandle", "linux,phandle" };
		for (size_t k = 0; k < ARRAY_SIZE(props) && !*ret; k++) {
			bool found;
			uint32_t v;
			r = read_u32_prop(dir, props[k], &found, &v);
			if (r < 0) {
				if (r != -ENOMEM)
					r = set_read_error(d, node, props[k], r);
				break;
			}
			if (found && v == ph)
				*ret = TAKE_PTR(node);
		}
	}
	strv_done(&names);
	if (d->err)
		*ret = NULL; /* the search stopped at an unreadable node: no answer */
	return r < 0 ? r : 0;
}

/*
 * rmem_swiotlb_setup() (kernel/dma/swiotlb.c, 0b84e4f8b793, 5.15, unchanged
 * since) returns -EINVAL for a node with any of these: no pool is made and
 * the device keeps the normal rules. The first one found is kept.
 */
static int pool_rejected(struct sysroot_dir *pool, struct dt_info *d, const char *node)
{
	static const char *const props[] = {
		"reusable", "linux,cma-default", "linux,dma-default", "no-map",
	};

	for (size_t i = 0; i < ARRAY_SIZE(props); i++) {
		_cleanup_free_ uint8_t *buf = NULL;
		size_t len;
		int r = read_prop(pool, props[i], &buf, &len);
		if (r == -ENOMEM)
			return r;
		if (unreadable(r))
			return set_read_error(d, node, props[i], r);
		if (r == 0) {
			d->restricted_rejected = props[i];
			return 0;
		}
	}
	return 0;
}

/* memory-region of chain[0] (its directory dir): the first available restricted-dma-pool wins. */
static int read_restricted_pool(struct sysroot *sr, struct sysroot_dir *dir, struct dt_info *d)
{
	_cleanup_free_ uint8_t *buf = NULL;
	size_t len;
	int r = read_prop(dir, "memory-region", &buf, &len);

	if (r == -ENOMEM)
		return r;
	if (unreadable(r))
		return set_read_error(d, d->chain[0].path, "memory-region", r);
	if (r < 0 || len % 4)
		return 0;
	for (size_t i = 0; i < len; i += 4) {
		_cleanup_sysroot_dir_ struct sysroot_dir *pool = NULL;
		_cleanup_free_ char *node = NULL;
		_cleanup_free_ uint8_t *compat = NULL;
		size_t clen;
		bool available = false;

		r = find_reserved_node(sr, d, be32_at(buf + i), &node);
		if (r < 0 || d->err)
			return r;
		if (!node)
			continue;
		if (node_dir(sr, node, &pool) < 0)
			return -ENOMEM;
		r = read_prop(pool, "compatible", &compat, &clen);
		if (r == -ENOMEM)
			return r;
		if (unreadable(r))
			return set_read_error(d, node, "compatible", r);
		if (r < 0 || !strlist_has(compat, clen, "restricted-dma-pool"))
			continue;
		r = node_available(pool, d, node, &available);
		if (r < 0 || d->err)
			return r;
		if (!available)
			continue;
		d->restricted_pool = true;
		r = pool_rejected(pool, d, node);
		if (r < 0 || d->err)
			return r;
		r = read_pool_extent(sr, pool, node, d);
		d->restricted_node = TAKE_PTR(node);
		return r;
	}
	return 0;
}

/* Each node of the chain: its directory, opened once for all its properties. */
struct chain_dirs {
	struct sysroot_dir *v[DT_MAX_DEPTH];
	size_t n;
};

static void chain_dirs_done(struct chain_dirs *c)
{
	for (size_t i = 0; i < c->n; i++)
		sysroot_dir_free(c->v[i]);
}

static int build_chain(struct sysroot *sr, const char *path, struct dt_info *d,
		       struct chain_dirs *dirs)
{
	struct raw_node raw[DT_MAX_DEPTH];
	size_t depth = 0;

	/* chain[0] = path, then each parent; the root is "" */
	for (const char *c = path; *c; c++)
		depth += *c == '/';
	size_t n = *path ? depth + 2 : 1;
	if (n > DT_MAX_DEPTH)
		return set_error(d, path, "devicetree path too deep");

	d->chain = calloc(n, sizeof(*d->chain));
	if (!d->chain)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(path);
		if (i > 0) {
			const char *prev = d->chain[i - 1].path;
			const char *slash = strrchr(prev, '/');
			len = slash ? (size_t)(slash - prev) : 0;
		}
		d->chain[i].path = strndup(i ? d->chain[i - 1].path : path, len);
		if (!d->chain[i].path)
			return -ENOMEM;
		d->n_chain++;
		if (node_dir(sr, d->chain[i].path, &dirs->v[i]) < 0)
			return -ENOMEM;
		dirs->n++;
	}

	for (size_t i = 0; i < n; i++) {
		int r = read_node_cells(dirs->v[i], d, &d->chain[i], &raw[i]);
		if (r < 0)
			return r;
		if (d->err)
			return 0; /* the cells above are unknown: nothing below can be concluded */
	}
	/* of_bus_n_{addr,size}_cells: the node's own, else its parents', else the defaults. */
	for (size_t i = n; i-- > 0;) {
		struct dt_node *nd = &d->chain[i];
		bool root = i + 1 == n;
		nd->address_cells = raw[i].has_addr ? raw[i].addr
				    : root	     ? DT_DEFAULT_ADDR_CELLS
						     : d->chain[i + 1].address_cells;
		nd->size_cells = raw[i].has_size ? raw[i].size
				 : root		  ? DT_DEFAULT_SIZE_CELLS
						  : d->chain[i + 1].size_cells;
	}
	for (size_t i = 0; i < n; i++) {
		int r = read_node_dma_ranges(dirs->v[i], d, i, &raw[i]);
		if (r < 0)
			return r;
	}
	return read_restricted_pool(sr, dirs->v[0], d);
}

int dt_record_error(struct machine *m, const struct dt_info *dt)
{
	if (!dt->err || !dt->err_path)
		return 0;
	/* devices behind one host bridge share its chain: one entry is enough */
	for (size_t i = m->n_inputs; i-- > 0;)
		if (strcmp(m->inputs[i].path, dt->err_path) == 0)
			return 0;
	return machine_add_input(m, dt->err_path, input_status_from_errno(dt->err), dt->err,
				 dt->error);
}

int read_dt_chain(struct sysroot *sr, const char *dt_path, bool node_is_device, struct dt_info *ret)
{
	struct dt_info d = { .node_is_device = node_is_device };
	_cleanup_free_ char *node_full = NULL;
	struct stat st;
	int r;

	while (*dt_path == '/')
		dt_path++;
	size_t len = strlen(dt_path);
	while (len > 0 && dt_path[len - 1] == '/')
		len--;
	d.node = strndup(dt_path, len);
	if (!d.node)
		return -ENOMEM;

	r = sysroot_stat(sr, DT_BASE, &st);
	if (r == -ENOMEM)
		goto fail;
	if (r < 0 || !S_ISDIR(st.st_mode)) {
		d.error = strdup(r == -ENOENT || r == 0 ? "no devicetree" : errno_describe(r));
		if (!d.error) {
			r = -ENOMEM;
			goto fail;
		}
		*ret = d;
		return 0;
	}
	if (!valid_dt_path(d.node)) {
		r = set_error(&d, d.node, "not a devicetree node path");
		if (r < 0)
			goto fail;
		*ret = d;
		return 0;
	}
	if (*d.node) {
		if (!(node_full = path_join(DT_BASE, d.node))) {
			r = -ENOMEM;
			goto fail;
		}
		r = sysroot_stat(sr, node_full, &st);
		if (r == -ENOMEM)
			goto fail;
		if (r < 0 && r != -ENOENT) {
			/* a link loop or a denied directory on the way: not "no such node" */
			r = set_read_error(&d, d.node, NULL, r);
			if (r < 0)
				goto fail;
			*ret = d;
			return 0;
		}
		if (r < 0 || !S_ISDIR(st.st_mode)) {
			d.err = r < 0 ? r : -ENOTDIR;
			d.err_path = strdup(node_full);
			if (!d.err_path) {
				r = -ENOMEM;
				goto fail;
			}
			r = set_error(&d, d.node, "no such devicetree node");
			if (r < 0)
				goto fail;
			*ret = d;
			return 0;
		}
	}
	struct chain_dirs dirs = { .n = 0 };
	r = build_chain(sr, d.node, &d, &dirs);
	chain_dirs_done(&dirs);
	if (r < 0)
		goto fail;
	*ret = d;
	return 0;
fail:
	dt_info_done(&d);
	return r;
}
