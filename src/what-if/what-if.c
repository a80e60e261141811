/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --what-if's words: KEY=VALUE parsed, the notes kept, the changes applied in order. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/eras.h"
#include "shared/string-table.h"
#include "shared/text.h"
#include "what-if/what-if.h"

static const char *const what_if_key_table[_WHAT_IF_KEY_MAX] = {
	[WHAT_IF_KERNEL] = "kernel",
	[WHAT_IF_CMDLINE] = "cmdline",
	[WHAT_IF_RAM] = "ram",
	[WHAT_IF_DEVICE] = "device",
};

DEFINE_STRING_TABLE_LOOKUP(what_if_key, enum what_if_key);

/* lib/cmdline.c memparse(): K, M, G, T, P, E suffixes of powers of 1024, 0x hex. */
int what_if_parse_size(const char *s, size_t len, uint64_t *ret)
{
	static const char units[] = "KMGTPE";
	unsigned shift = 0;
	uint64_t v;

	if (len > 1 && strchr(units, s[len - 1] & ~0x20)) {
		shift = 10 * (unsigned)(strchr(units, s[len - 1] & ~0x20) - units + 1);
		len--;
	}
	if (len == 0)
		return -EINVAL;
	bool hex = len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	if (parse_u64(hex ? s + 2 : s, hex ? len - 2 : len, hex ? 16 : 10, &v) < 0 ||
	    (shift && v > (UINT64_MAX >> shift)))
		return -EINVAL;
	*ret = v << shift;
	return 0;
}

/* RELEASE[,stable=X.Y.Z]: the stable release behind a distribution's ABI name, as proc/version tells it */
static int parse_kernel(struct what_if_change *c, const char **why)
{
	const char *comma = strchr(c->value, ',');
	size_t len = comma ? (size_t)(comma - c->value) : strlen(c->value);
	uint32_t stable;

	if (len >= sizeof(c->kernel.release)) {
		*why = "a kernel release is at most 64 characters";
		return -EINVAL;
	}
	memcpy(c->kernel.release, c->value, len);
	c->kernel.release[len] = '\0';
	if (!kernel_version_parse(c->kernel.release, &c->kernel.version) || c->kernel.version == 0) {
		*why = "want a kernel release such as 6.12.57 or 6.1.0-28-amd64[,stable=6.1.119]";
		return -EINVAL;
	}
	if (!comma)
		return 0;
	const char *s = comma + 1;
	if (strncmp(s, "stable=", 7) != 0 || strlen(s + 7) >= sizeof(c->kernel.stable) ||
	    !kernel_version_parse(s + 7, &stable) || (stable >> 8) != (c->kernel.version >> 8) ||
	    stable < c->kernel.version) {
		*why = "after the release, ,stable=X.Y.Z names the stable release of the same series behind "
		       "it (5.10.0-32-amd64,stable=5.10.223)";
		return -EINVAL;
	}
	snprintf(c->kernel.stable, sizeof(c->kernel.stable), "%s", s + 7);
	return 0;
}

static int parse_cmdline(struct what_if_change *c, const char **why)
{
	const char *p = c->value;

	while (*p && char_is_space(*p))
		p++;
	if (!*p) {
		*why = "want words to add (iommu=pt) or remove (-swiotlb=noforce)";
		return -EINVAL;
	}
	if (strchr(c->value, '\n')) {
		*why = "the kernel command line is one line";
		return -EINVAL;
	}
	return 0;
}

/* SIZE, +SIZE, -SIZE, +SIZE@ADDR */
static int parse_ram(struct what_if_change *c, const char **why)
{
	const char *v = c->value, *at = strchr(v, '@');
	size_t len = at ? (size_t)(at - v) : strlen(v);

	c->ram.op = *v == '+' ? (at ? WHAT_IF_RAM_ADD_AT : WHAT_IF_RAM_GROW) : *v == '-' ? WHAT_IF_RAM_SHRINK
											  : WHAT_IF_RAM_TOTAL;
	if (c->ram.op != WHAT_IF_RAM_TOTAL) {
		v++;
		len--;
	}
	if ((at && c->ram.op != WHAT_IF_RAM_ADD_AT) || what_if_parse_size(v, len, &c->ram.size) < 0 ||
	    (at && what_if_parse_size(at + 1, strlen(at + 1), &c->ram.at) < 0)) {
		*why = "want SIZE (the new total), +SIZE (added above the end), -SIZE (taken from the "
		       "top) or +SIZE@ADDR (a range added there); sizes as 512M, 4G, 0x40000000";
		return -EINVAL;
	}
	if (c->ram.size == 0) {
		*why = "a size of 0 changes nothing";
		return -EINVAL;
	}
	if (c->ram.op == WHAT_IF_RAM_ADD_AT && c->ram.at > UINT64_MAX - c->ram.size) {
		*why = "the range ends beyond 2^64";
		return -EINVAL;
	}
	return 0;
}

/* One NAME=VALUE of device='s list into buf (WHAT_IF_ID_MAX). */
static int copy_word(char *buf, const char *s, size_t len, const char **why)
{
	if (len == 0 || len >= WHAT_IF_ID_MAX) {
		*why = "a device, like= or driver= name is 1 to 63 characters";
		return -EINVAL;
	}
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] <= ' ' || s[i] == '/' || s[i] == 0x7f) {
			*why = "a device name holds no blank, '/' or control character";
			return -EINVAL;
		}
	memcpy(buf, s, len);
	buf[len] = '\0';
	return 0;
}

static int parse_mask(const char *s, size_t len, uint64_t *ret)
{
	uint64_t n;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return parse_u64(s + 2, len - 2, 16, ret) < 0 || *ret == 0 ? -EINVAL : 0;
	if (parse_u64(s, len, 10, &n) < 0 || n < 1 || n > 64)
		return -EINVAL;
	*ret = n == 64 ? UINT64_MAX : (1ull << n) - 1;
	return 0;
}

/* ID,mask=BITS|0xHEX[,like=DEVICE][,driver=NAME] */
static int parse_device(struct what_if_change *c, const char **why)
{
	const char *p = c->value, *comma = strchr(p, ',');
	bool mask = false;

	if (copy_word(c->device.id, p, comma ? (size_t)(comma - p) : strlen(p), why) < 0)
		return -EINVAL;
	while (comma) {
		p = comma + 1;
		comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		const char *eq = memchr(p, '=', len);
		size_t klen = eq ? (size_t)(eq - p) : len, vlen = eq ? len - klen - 1 : 0;
		int r;
		if (eq && klen == 4 && memcmp(p, "mask", 4) == 0) {
			r = parse_mask(eq + 1, vlen, &c->device.mask);
			if (r < 0)
				*why = "mask= is a bit count 1 to 64, or a hex mask 0x...";
			mask = r == 0;
		} else if (eq && klen == 4 && memcmp(p, "like", 4) == 0) {
			r = copy_word(c->device.like, eq + 1, vlen, why);
		} else if (eq && klen == 6 && memcmp(p, "driver", 6) == 0) {
			r = copy_word(c->device.driver, eq + 1, vlen, why);
		} else {
			*why = "device= takes ID,mask=BITS|0xHEX[,like=DEVICE][,driver=NAME]";
			r = -EINVAL;
		}
		if (r < 0)
			return r;
	}
	if (!mask) {
		*why = "device= needs mask=BITS or mask=0xHEX: the mask is the change";
		return -EINVAL;
	}
	return 0;
}

int what_if_parse(const char *arg, struct what_if_change *ret, const char **ret_why)
{
	const char *eq = strchr(arg, '=');
	char key[16];

	*ret = (struct what_if_change){ .arg = arg };
	if (!eq || (size_t)(eq - arg) >= sizeof(key)) {
		*ret_why = "want KEY=VALUE, KEY one of kernel, cmdline, ram, device";
		return -EINVAL;
	}
	memcpy(key, arg, (size_t)(eq - arg));
	key[eq - arg] = '\0';
	ret->key = what_if_key_from_string(key);
	ret->value = eq + 1;
	if (ret->key < 0) {
		*ret_why = "the key is one of kernel, cmdline, ram, device";
		return -EINVAL;
	}
	if (!*ret->value) {
		*ret_why = "the value is empty";
		return -EINVAL;
	}
	switch (ret->key) {
	case WHAT_IF_KERNEL:
		return parse_kernel(ret, ret_why);
	case WHAT_IF_CMDLINE:
		return parse_cmdline(ret, ret_why);
	case WHAT_IF_RAM:
		return parse_ram(ret, ret_why);
	default:
		return parse_device(ret, ret_why);
	}
}

void what_if_notes_done(struct what_if_notes *n)
{
	for (size_t i = 0; i < n->n_applied; i++)
		free(n->applied[i]);
	free(n->applied);
	for (size_t i = 0; i < n->n_assumptions; i++) {
		free(n->assumptions[i].device);
		free(n->assumptions[i].text);
	}
	free(n->assumptions);
	for (size_t i = 0; i < n->n_masks; i++)
		free((char *)n->masks[i].device);
	free(n->masks);
	*n = (struct what_if_notes){ 0 };
}

int what_if_assume(struct what_if_notes *n, const char *device, const char *fmt, ...)
{
	struct what_if_assumption a = { 0 };
	va_list ap;

	va_start(ap, fmt);
	int r = vasprintf(&a.text, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	/* the same words about the same device once: two changes may both lead to it */
	for (size_t i = 0; i < n->n_assumptions; i++)
		if (strcmp(n->assumptions[i].text, a.text) == 0 &&
		    (device ? n->assumptions[i].device && strcmp(n->assumptions[i].device, device) == 0
			    : !n->assumptions[i].device)) {
			free(a.text);
			return 0;
		}
	struct what_if_assumption *v = reallocarray(n->assumptions, n->n_assumptions + 1, sizeof(*v));
	if (!v || (device && !(a.device = strdup(device)))) {
		free(a.text);
		if (v)
			n->assumptions = v;
		return -ENOMEM;
	}
	n->assumptions = v;
	v[n->n_assumptions++] = a;
	return 0;
}

int what_if_applied(struct what_if_notes *n, const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;

	va_start(ap, fmt);
	int r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	char **v = reallocarray(n->applied, n->n_applied + 1, sizeof(*v));
	if (!v) {
		free(s);
		return -ENOMEM;
	}
	n->applied = v;
	v[n->n_applied++] = s;
	return 0;
}

int what_if_set_aside_events(struct machine *m, struct what_if_notes *n)
{
	size_t lines = m->n_overflows + m->n_pool_overflows + m->n_swiotlb_full;
	bool window = m->observed.present;
	bool usage = m->swiotlb.used.known || m->swiotlb.hiwater.known;

	for (size_t i = 0; i < m->n_overflows; i++)
		free(m->overflows[i].device);
	for (size_t i = 0; i < m->n_pool_overflows; i++)
		free(m->pool_overflows[i].device);
	for (size_t i = 0; i < m->n_swiotlb_full; i++)
		free(m->swiotlb_full[i].device);
	free(m->overflows);
	free(m->pool_overflows);
	free(m->swiotlb_full);
	m->overflows = m->pool_overflows = NULL;
	m->swiotlb_full = NULL;
	m->n_overflows = m->n_pool_overflows = m->n_swiotlb_full = 0;
	m->swiotlb.full_messages = m->swiotlb.pool_overflow_messages = 0;
	opt_clear(&m->swiotlb.used);
	opt_clear(&m->swiotlb.hiwater);
	opt_clear(&m->swiotlb.transient);
	opt_clear(&m->meminfo.bounce);
	observation_done(&m->observed);
	if (!lines && !window && !usage)
		return 0;
	char what[160];
	snprintf(what, sizeof(what), "%s%s%s%s%s", lines ? "its kernel-log lines of failed mappings or a full pool" : "",
		 lines && (window || usage) ? ", " : "", window ? "the --observe window" : "",
		 window && usage ? ", " : "", usage ? "the pool's use in debugfs" : "");
	return what_if_assume(n, NULL,
			      "both sides leave out what today's kernel did (%s): events tell of this kernel and "
			      "this boot, not of the change",
			      what);
}

int what_if_apply(struct machine *m, const struct what_if_change *c, size_t n, struct what_if_notes *notes,
		  char *why)
{
	static int (*const apply[_WHAT_IF_KEY_MAX])(struct machine *, const struct what_if_change *,
						   struct what_if_notes *, char *) = {
		[WHAT_IF_KERNEL] = what_if_apply_kernel,
		[WHAT_IF_CMDLINE] = what_if_apply_cmdline,
		[WHAT_IF_RAM] = what_if_apply_ram,
		[WHAT_IF_DEVICE] = what_if_apply_device,
	};
	struct what_if_pool pool;
	bool touches_pool = false;
	int r = what_if_pool_before(m, &pool);

	for (size_t i = 0; i < n && r == 0; i++) {
		*why = '\0';
		r = apply[c[i].key](m, &c[i], notes, why);
		touches_pool |= c[i].key != WHAT_IF_DEVICE;
	}
	if (r == 0 && touches_pool)
		r = what_if_pool_after(m, &pool, notes);
	return r;
}
