/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * swiotlb: the swiotlb= parameter (kernel/dma/swiotlb.c setup_io_tlb_npages)
 * and the debugfs counters (swiotlb_create_debugfs_files: io_tlb_nslabs,
 * io_tlb_used, io_tlb_used_hiwater 6.4+, io_tlb_transient_nslabs 6.6+),
 * counted in IO_TLB_SIZE (2 KiB) slots. The pool's place comes from the log
 * (kmsg.c).
 */
#include <stdio.h>
#include <string.h>

#include "readers/readers.h"
#include "shared/errno-util.h"
#include "shared/macro.h"
#include "shared/text.h"

/* IO_TLB_SEGSIZE (include/linux/swiotlb.h): slab counts are rounded up to it. */
#define IO_TLB_SEGSIZE 128u
#define DEBUGFS_VALUE_MAX 4096

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_xdigit(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* One parameter as lib/cmdline.c next_arg() splits it; val NULL without '='. */
struct kparam {
	const char *param;
	size_t param_len;
	const char *val;
	size_t val_len;
};

/*
 * kernel/params.c next_arg(): blanks separate parameters except inside
 * double quotes; a quote opening the parameter or its value is dropped with
 * the closing one. Returns the rest of the line.
 */
static const char *next_arg(const char *args, struct kparam *ret)
{
	size_t i, equals = 0;
	bool in_quote = false, quoted = false;

	if (*args == '"') {
		args++;
		in_quote = quoted = true;
	}
	for (i = 0; args[i]; i++) {
		if (is_space(args[i]) && !in_quote)
			break;
		if (equals == 0 && args[i] == '=')
			equals = i;
		if (args[i] == '"')
			in_quote = !in_quote;
	}

	size_t end = i;
	const char *val = equals ? args + equals + 1 : NULL;
	bool val_quoted = val && *val == '"';
	if (val_quoted)
		val++;
	if ((val_quoted || quoted) && i > 0 && args[i - 1] == '"')
		end = i - 1;

	ret->param = args;
	ret->param_len = equals ? equals : end;
	ret->val = val;
	ret->val_len = val && args + end > val ? (size_t)(args + end - val) : 0;

	args += i;
	while (*args && is_space(*args))
		args++;
	return args;
}

/* lib/vsprintf.c simple_strtoul(s, &s, 0): 0x hex, leading 0 octal, else decimal; wraps. */
static uint64_t simple_strtoul0(const char **s, const char *end)
{
	const char *p = *s;
	unsigned base = 10;
	uint64_t v = 0;

	if (end - p >= 3 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && is_xdigit(p[2])) {
		base = 16;
		p += 2;
	} else if (p < end && p[0] == '0') {
		base = 8;
	}
	for (; p < end; p++) {
		unsigned d;
		if (is_digit(*p))
			d = (unsigned)(*p - '0');
		else if (*p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else if (*p >= 'A' && *p <= 'F')
			d = (unsigned)(*p - 'A' + 10);
		else
			break;
		if (d >= base)
			break;
		v = v * base + d;
	}
	*s = p;
	return v;
}

static bool span_is(const char *s, size_t len, const char *word)
{
	return len == strlen(word) && memcmp(s, word, len) == 0;
}

/*
 * setup_io_tlb_npages(): "[<slabs>][,<areas>][,force|noforce]". Each
 * occurrence applies on top of the previous ones: the numbers are replaced,
 * while force and noforce (5.18+: two booleans, never cleared) add up.
 * Before 5.18 one enum held both, so the last of them won; both flags are
 * kept here and the analysis decides by era. Before 6.0 there was no
 * <areas> field, so "N,4,force" did not force.
 */
static void apply_swiotlb_param(const char *s, size_t len, struct swiotlb_info *ret)
{
	const char *p = s, *end = s + len;

	if (p < end && is_digit(*p)) {
		uint64_t v = simple_strtoul0(&p, end);
		ret->have_cmd_slabs = true;
		ret->cmd_slabs = (v + IO_TLB_SEGSIZE - 1) & ~(uint64_t)(IO_TLB_SEGSIZE - 1);
	}
	if (p < end && *p == ',')
		p++;
	if (p < end && is_digit(*p))
		(void)simple_strtoul0(&p, end); /* number of areas: not modelled */
	if (p < end && *p == ',')
		p++;
	if (span_is(p, (size_t)(end - p), "force"))
		ret->cmd_force = true;
	else if (span_is(p, (size_t)(end - p), "noforce"))
		ret->cmd_noforce = true;
}

/*
 * x86 iommu_setup() (arch/x86/kernel/pci-dma.c, the same since 2.6.24): a
 * comma-separated list whose words are matched by prefix; "off" sets no_iommu.
 */
static bool iommu_param_off(const char *s, size_t len)
{
	const char *p = s, *end = s + len;

	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *stop = comma ? comma : end;
		if (stop - p >= 3 && memcmp(p, "off", 3) == 0)
			return true;
		p = comma ? comma + 1 : end;
	}
	return false;
}

int cmdline_parse_swiotlb(const char *cmdline, struct swiotlb_info *ret)
{
	ret->cmd_force = ret->cmd_noforce = ret->have_cmd_slabs = ret->cmd_iommu_off = false;
	ret->cmd_slabs = 0;

	const char *p = cmdline;
	while (*p && is_space(*p))
		p++;
	while (*p) {
		struct kparam a;
		p = next_arg(p, &a);
		/* kernel/params.c parse_args(): "--" ends the kernel's parameters */
		if (!a.val && span_is(a.param, a.param_len, "--"))
			break;
		if (a.val && span_is(a.param, a.param_len, "swiotlb"))
			apply_swiotlb_param(a.val, a.val_len, ret);
		if (a.val && span_is(a.param, a.param_len, "iommu") && iommu_param_off(a.val, a.val_len))
			ret->cmd_iommu_off = true;
	}
	return 0;
}

/* Why the debugfs directory is not there, in a few words. */
static const char *debugfs_missing_detail(struct sysroot *sr)
{
	char **names = NULL;
	size_t n = 0;
	int r = sysroot_list_dir(sr, "sys/kernel/debug", &names, &n);

	sysroot_free_names(names, n);
	if (r < 0)
		return "no sys/kernel/debug";
	if (n == 0)
		return "debugfs not mounted";
	return "no swiotlb directory in debugfs";
}

int swiotlb_parse_counter(const char *buf, size_t len, uint64_t *ret)
{
	while (len > 0 && is_space(buf[len - 1]))
		len--;
	return parse_u64(buf, len, 10, ret) < 0 ? -EBADMSG : 0;
}

int read_swiotlb(struct sysroot *sr, struct machine *m)
{
	static const char dir[] = "sys/kernel/debug/swiotlb";
	struct swiotlb_info *sw = &m->swiotlb;
	const struct {
		const char *name;
		bool *have;
		uint64_t *value;
	} files[] = {
		{ "io_tlb_nslabs", &sw->have_nslabs, &sw->nslabs },
		{ "io_tlb_used", &sw->have_used, &sw->used },
		{ "io_tlb_used_hiwater", &sw->have_hiwater, &sw->hiwater },
		{ "io_tlb_transient_nslabs", &sw->have_transient, &sw->transient },
	};
	int r;

	if (m->cmdline)
		cmdline_parse_swiotlb(m->cmdline, sw);

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		_cleanup_free_ char *buf = NULL;
		char path[128], detail[128];
		size_t len;
		uint64_t v;

		snprintf(path, sizeof(path), "%s/%s", dir, files[i].name);
		r = sysroot_read_file(sr, path, DEBUGFS_VALUE_MAX, &buf, &len);
		if (r == -ENOMEM)
			return r;
		if (r == -ENOENT && i > 0)
			continue; /* newer counters */
		if (r == -ENOENT || r == -ENOTDIR)
			return machine_add_input(m, dir, INPUT_MISSING, -r, debugfs_missing_detail(sr));
		if (r == -EACCES || r == -EPERM)
			return machine_add_input(m, dir, INPUT_DENIED, -r, "debugfs is readable by root only");
		if (r == 0 && swiotlb_parse_counter(buf, len, &v) < 0)
			r = -EBADMSG;
		if (r < 0) {
			/* one bad counter makes the set unreliable */
			for (size_t k = 0; k < ARRAY_SIZE(files); k++)
				*files[k].have = false;
			snprintf(detail, sizeof(detail), "%s: %s", files[i].name,
				 r == -EBADMSG ? "not a number" : errno_describe(r));
			return machine_add_input(m, dir, input_status_from_errno(r), r, detail);
		}
		*files[i].have = true;
		*files[i].value = v;
	}
	return machine_add_input(m, dir, INPUT_OK, 0, NULL);
}
