/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * proc/cmdline: the kernel command line, one line (fs/proc/cmdline.c), and
 * the parameters the analysis uses, split as the kernel splits them:
 * swiotlb= (kernel/dma/swiotlb.c setup_io_tlb_npages) and x86 iommu=.
 */
#include <stdlib.h>
#include <string.h>

#include "readers/readers.h"
#include "shared/kernel-defs.h"
#include "shared/macro.h"
#include "shared/text.h"

/* The kernel caps it at COMMAND_LINE_SIZE (at most 4096 on most arches). */
#define CMDLINE_MAX 65536

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
		if (char_is_space(args[i]) && !in_quote)
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
	while (*args && char_is_space(*args))
		args++;
	return args;
}

/* lib/vsprintf.c simple_strtoul(s, &s, 0): 0x hex, leading 0 octal, else decimal; wraps. */
static uint64_t simple_strtoul0(const char **s, const char *end)
{
	const char *p = *s;
	unsigned base = 10;
	uint64_t v = 0;

	if (end - p >= 3 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && hex_digit(p[2]) >= 0) {
		base = 16;
		p += 2;
	} else if (p < end && p[0] == '0') {
		base = 8;
	}
	for (; p < end; p++) {
		unsigned d;
		if (char_is_digit(*p))
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
 * while force and noforce (5.19+: two booleans, never cleared) add up.
 * Before 5.19 one enum held both, so the last of them won; before 6.0 there
 * was no <areas> field, so "N,4,force" did not force. Each word is kept as
 * written, with whether an <areas> number came before it; the analysis
 * reads them by era (ERA_SWIOTLB_PARAM).
 */
static void apply_swiotlb_param(const char *s, size_t len, struct cmdline_params *ret)
{
	const char *p = s, *end = s + len;

	if (p < end && char_is_digit(*p)) {
		uint64_t v = simple_strtoul0(&p, end);
		opt_set(&ret->swiotlb_slabs, (v + IO_TLB_SEGSIZE - 1) & ~(uint64_t)(IO_TLB_SEGSIZE - 1));
	}
	if (p < end && *p == ',')
		p++;
	bool areas = p < end && char_is_digit(*p);
	if (areas)
		opt_set(&ret->swiotlb_areas, simple_strtoul0(&p, end));
	if (p < end && *p == ',')
		p++;
	if (span_is(p, (size_t)(end - p), "force")) {
		*(areas ? &ret->swiotlb_force_areas : &ret->swiotlb_force) = true;
		if (!areas)
			ret->swiotlb_last_word = SWIOTLB_WORD_FORCE;
	} else if (span_is(p, (size_t)(end - p), "noforce")) {
		*(areas ? &ret->swiotlb_noforce_areas : &ret->swiotlb_noforce) = true;
		if (!areas)
			ret->swiotlb_last_word = SWIOTLB_WORD_NOFORCE;
	}
}

static bool word_starts(const char *p, const char *stop, const char *word)
{
	size_t n = strlen(word);
	return (size_t)(stop - p) >= n && memcmp(p, word, n) == 0;
}

/*
 * x86 iommu_setup() (arch/x86/kernel/pci-dma.c, the same since 2.6.24): a
 * comma-separated list whose words are matched by prefix (strncmp): "off"
 * sets no_iommu, "soft" x86_swiotlb_enable, "pt" and "nopt" the default
 * domain (iommu_set_default_passthrough/translated, 5.4+; iommu_pass_through before).
 */
static void apply_iommu_param(const char *s, size_t len, struct cmdline_params *ret)
{
	const char *p = s, *end = s + len;

	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *stop = comma ? comma : end;
		if (word_starts(p, stop, "off"))
			ret->iommu_off = true;
		if (word_starts(p, stop, "soft"))
			ret->iommu_soft = true;
		if (word_starts(p, stop, "pt"))
			ret->iommu_pt = true;
		if (word_starts(p, stop, "nopt"))
			ret->iommu_pt = false;
		p = comma ? comma + 1 : end;
	}
}

void cmdline_parse_params(const char *cmdline, struct cmdline_params *ret)
{
	*ret = (struct cmdline_params){ 0 };

	const char *p = cmdline;
	while (*p && char_is_space(*p))
		p++;
	while (*p) {
		struct kparam a;
		p = next_arg(p, &a);
		/* kernel/params.c parse_args(): "--" ends the kernel's parameters */
		if (!a.val && span_is(a.param, a.param_len, "--"))
			break;
		if (a.val && span_is(a.param, a.param_len, "swiotlb"))
			apply_swiotlb_param(a.val, a.val_len, ret);
		if (a.val && span_is(a.param, a.param_len, "iommu"))
			apply_iommu_param(a.val, a.val_len, ret);
		/* drivers/iommu/iommu.c iommu_set_def_domain_type (fccb4e3b8ab0, 4.16): kstrtobool */
		if (a.val && a.val_len && span_is(a.param, a.param_len, "iommu.passthrough")) {
			char c = a.val[0];
			if (c == '1' || c == 'y' || c == 'Y' || (a.val_len > 1 && c == 'o' && a.val[1] == 'n'))
				ret->iommu_pt = true;
			else if (c == '0' || c == 'n' || c == 'N' || (a.val_len > 1 && c == 'o' && a.val[1] == 'f'))
				ret->iommu_pt = false;
		}
	}
}

int cmdline_parse(const char *buf, size_t len, char **ret, struct parse_error *ret_err)
{
	if (text_has_nul(buf, len))
		return parse_fail(ret_err, 0, "binary content (NUL byte)");
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		len--;
	if (memchr(buf, '\n', len))
		return parse_fail(ret_err, 2, "more than one line");
	char *s = strndup(buf, len);
	if (!s)
		return -ENOMEM;
	*ret = s;
	return 0;
}

int read_cmdline(struct sysroot *sr, struct machine *m)
{
	static const char path[] = "proc/cmdline";
	_cleanup_free_ char *buf = NULL;
	struct parse_error e = { 0 };
	size_t len;
	int r;

	r = read_input(sr, m, path, CMDLINE_MAX, &buf, &len);
	if (r <= 0)
		return r;
	r = cmdline_parse(buf, len, &m->cmdline, &e);
	if (r == 0)
		cmdline_parse_params(m->cmdline, &m->cmd);
	return record_parse_result(m, path, r, &e);
}
