/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cmdline="WORDS": today's command line with words added (appended: the
 * kernel reads a later word over an earlier one) or removed ("-WORD": every
 * such word; "-NAME": every NAME=... word), parsed again by the reader's own
 * parser; what the words do beyond the parameters the analysis reads (an
 * IOMMU turned off, passthrough domains, mem=) done to the machine here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/iommu-vendor.h"
#include "readers/readers.h"
#include "shared/strbuf.h"
#include "shared/text.h"
#include "what-if/what-if.h"

/* The next blank-separated word of *p (double quotes keep blanks, as kernel/params.c next_arg()). */
static bool next_word(const char **p, const char **ret, size_t *ret_len)
{
	const char *s = *p;
	bool quoted = false;

	while (*s && char_is_space(*s))
		s++;
	if (!*s)
		return false;
	*ret = s;
	for (; *s && (quoted || !char_is_space(*s)); s++)
		if (*s == '"')
			quoted = !quoted;
	*ret_len = (size_t)(s - *ret);
	*p = s;
	return true;
}

/* "NAME" of "NAME=VALUE" (the whole word without '='). */
static size_t param_len(const char *w, size_t len)
{
	const char *eq = memchr(w, '=', len);
	return eq ? (size_t)(eq - w) : len;
}

/* word matches the removal r: the same word, or r is a bare NAME and word is NAME=... */
static bool removes(const char *r, size_t rlen, const char *w, size_t wlen)
{
	if (rlen == wlen && memcmp(r, w, wlen) == 0)
		return true;
	return !memchr(r, '=', rlen) && param_len(w, wlen) == rlen && memcmp(r, w, rlen) == 0;
}

/*
 * today's line without the removals, then the additions, into *ret; the
 * words removed and added, in words, into *ret_said. -EINVAL when a
 * removal matched nothing.
 */
static int edit_line(const char *today, const char *words, char **ret, char **ret_said, char *why)
{
	struct strbuf b = { 0 }, gone = { 0 }, added = { 0 };
	const char *p, *w, *x;
	size_t len, xlen;

	/* each removal must name a word today's line has: a typo is not a change */
	for (p = words; next_word(&p, &w, &len);) {
		if (*w != '-' || len < 2)
			continue;
		bool found = false;
		for (const char *q = today; !found && next_word(&q, &x, &xlen);)
			found = removes(w + 1, len - 1, x, xlen);
		if (!found) {
			snprintf(why, WHAT_IF_WHY_MAX, "cmdline: %.*s: today's command line has no such word",
				 (int)len, w);
			return -EINVAL;
		}
	}
	for (p = today; next_word(&p, &x, &xlen);) {
		bool removed = false;
		for (const char *q = words; !removed && next_word(&q, &w, &len);)
			removed = *w == '-' && len > 1 && removes(w + 1, len - 1, x, xlen);
		struct strbuf *to = removed ? &gone : &b;
		if (to->len)
			strbuf_append(to, " ");
		strbuf_append_n(to, x, xlen);
	}
	for (p = words; next_word(&p, &w, &len);) {
		if (*w == '-' && len > 1)
			continue;
		if (b.len)
			strbuf_append(&b, " ");
		strbuf_append_n(&b, w, len);
		if (added.len)
			strbuf_append(&added, " ");
		strbuf_append_n(&added, w, len);
	}
	bool oom = b.oom || gone.oom || added.oom;
	_cleanup_free_ char *g = strbuf_steal(&gone), *a = strbuf_steal(&added);
	*ret = strbuf_steal(&b);
	if (!*ret && !oom)
		*ret = strdup("");
	if (!*ret || oom)
		return -ENOMEM;
	bool rm = g && *g, add = a && *a;
	if (asprintf(ret_said, "command line:%s%s%s%s%s%s", rm ? " removed \"" : "", rm ? g : "", rm ? "\"" : "",
		     add ? (rm ? ", added \"" : " added \"") : "", add ? a : "", add ? "\"" : "") < 0)
		return -ENOMEM;
	return 0;
}

/* iommu.passthrough= alone (every architecture): the reader's parser on just those words. */
static bool passthrough_param(const char *line)
{
	struct cmdline_params c;
	struct strbuf b = { 0 };
	const char *p = line, *w;
	size_t len;

	while (next_word(&p, &w, &len))
		if (param_len(w, len) == strlen("iommu.passthrough") &&
		    memcmp(w, "iommu.passthrough", len < 17 ? len : 17) == 0) {
			strbuf_append(&b, " ");
			strbuf_append_n(&b, w, len);
		}
	_cleanup_free_ char *s = strbuf_steal(&b);
	if (!s)
		return false;
	cmdline_parse_params(s, &c);
	return c.iommu_pt;
}

/*
 * Passthrough as the line asks on m's architecture: x86 reads iommu=pt|nopt
 * (arch/x86/kernel/pci-dma.c iommu_setup) with iommu.passthrough= in one
 * order; elsewhere only iommu.passthrough= (drivers/iommu/iommu.c
 * iommu_set_def_domain_type, 4.16).
 */
static bool passthrough(const struct machine *m, const char *line, const struct cmdline_params *c)
{
	bool x86 = m->arch_info && m->arch_info->family == ARCH_X86;
	return x86 ? c->iommu_pt : passthrough_param(line);
}

static bool has_param(const char *line, const char *name)
{
	const char *p = line, *w;
	size_t len;

	while (next_word(&p, &w, &len))
		if (param_len(w, len) == strlen(name) && memcmp(w, name, strlen(name)) == 0)
			return true;
	return false;
}

/* The last value of NAME=, or NULL; its length in *ret_len. */
static const char *last_value(const char *line, const char *name, size_t *ret_len)
{
	const char *p = line, *w, *v = NULL;
	size_t len;

	while (next_word(&p, &w, &len))
		if (param_len(w, len) == strlen(name) && len > strlen(name) && memcmp(w, name, strlen(name)) == 0) {
			v = w + strlen(name) + 1;
			*ret_len = len - strlen(name) - 1;
		}
	return v;
}

static bool value_starts(const char *v, size_t len, const char *word)
{
	return v && len >= strlen(word) && memcmp(v, word, strlen(word)) == 0;
}

/*
 * The IOMMU driver that does not start: no groups, no translation (dma-direct
 * for every device). x86 iommu=off sets no_iommu, which both drivers check
 * (intel_iommu_init, amd_iommu_detect); intel_iommu=off sets dmar_disabled
 * (drivers/iommu/intel/iommu.c intel_iommu_setup); amd_iommu=off
 * amd_iommu_disabled (drivers/iommu/amd/init.c parse_amd_iommu_options).
 */
static const char *iommu_turned_off(const struct machine *m, const char *line)
{
	enum iommu_vendor v = iommu_vendor(m);
	size_t len = 0;
	const char *s;

	if (!m->arch_info || m->arch_info->family != ARCH_X86)
		return NULL;
	s = last_value(line, "iommu", &len);
	for (const char *p = s, *end = s ? s + len : NULL; p && p < end;) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		if (value_starts(p, (size_t)((comma ?: end) - p), "off"))
			return "iommu=off";
		p = comma ? comma + 1 : NULL;
	}
	s = last_value(line, "intel_iommu", &len);
	if (v == IOMMU_VENDOR_INTEL && value_starts(s, len, "off"))
		return "intel_iommu=off";
	s = last_value(line, "amd_iommu", &len);
	if (v == IOMMU_VENDOR_AMD && value_starts(s, len, "off"))
		return "amd_iommu=off";
	return NULL;
}

static int set_domain(struct device *d, enum iommu_domain dom, const char *type)
{
	char *t = strdup(type);

	if (!t)
		return -ENOMEM;
	free(d->iommu_type);
	d->iommu_type = t;
	d->iommu_domain = dom;
	return 0;
}

/*
 * The default domain the words ask for, on each group: passthrough gives
 * identity but to an untrusted device (drivers/iommu/iommu.c
 * iommu_get_def_domain_type: dev_is_untrusted() -> IOMMU_DOMAIN_DMA, 28b41e2c6aeb, 5.11;
 * the Intel and AMD drivers' own checks before);
 * its removal gives DMA (strict and lazy flushes reach alike).
 */
static int regroup(struct machine *m, bool identity, struct what_if_notes *n)
{
	size_t moved = 0;
	int r = 0;

	for (size_t i = 0; i < m->n_devices && r == 0; i++) {
		struct device *d = &m->devices[i];
		bool translated = d->iommu_domain == IOMMU_DOMAIN_DMA || d->iommu_domain == IOMMU_DOMAIN_DMA_FQ;
		if (!d->iommu_group.known)
			continue;
		if (!d->driver && d->module && (translated || d->iommu_domain == IOMMU_DOMAIN_IDENTITY))
			r = what_if_assume(n, d->id, "no driver today: under the %s domain its driver may bind (one "
						     "whose probe tests its DMA fails under one domain and not the other)",
					   identity ? "passthrough" : "translated");
		else if (identity && translated && opt_is(&d->removable, true))
			r = what_if_assume(n, d->id, "untrusted (removable): the kernel keeps it translated "
						     "whatever the default domain");
		else if ((identity && translated) || (!identity && d->iommu_domain == IOMMU_DOMAIN_IDENTITY)) {
			r = set_domain(d, identity ? IOMMU_DOMAIN_IDENTITY : IOMMU_DOMAIN_DMA, identity ? "identity" : "DMA");
			moved++;
			if (r == 0 && d->driver)
				r = what_if_assume(n, d->id, "its driver binds under the %s domain as it does today "
							     "(a probe that tests its DMA, as sym53c8xx's does, may fail "
							     "under one domain and not the other)",
						   identity ? "passthrough" : "translated");
		}
	}
	if (r == 0 && moved)
		r = what_if_assume(n, NULL,
				   "%zu IOMMU group%s take%s the %s default domain; a group a driver or VFIO "
				   "owns, or that its IOMMU driver pins, would not",
				   moved, moved == 1 ? "" : "s", moved == 1 ? "s" : "",
				   identity ? "passthrough (identity)" : "translated (DMA)");
	return r;
}

static int iommu_off(struct machine *m, const char *word, struct what_if_notes *n)
{
	size_t grouped = 0;

	for (size_t i = 0; i < m->n_devices; i++) {
		struct device *d = &m->devices[i];
		int r = d->iommu_group.known && !d->driver && d->module
				? what_if_assume(n, d->id, "no driver today: without the IOMMU its driver may bind")
				: 0;
		if (r < 0)
			return r;
		grouped += d->iommu_group.known;
		opt_clear(&d->iommu_group);
		d->iommu_domain = IOMMU_DOMAIN_NONE;
		free(d->iommu_type);
		d->iommu_type = NULL;
	}
	m->iommu_groups_present = false;
	m->log_intel_iommu = m->log_amd_iommu = false;
	m->class_intel_iommu = m->class_amd_iommu = false;
	if (!grouped)
		return 0;
	return what_if_assume(n, NULL, "%s: the IOMMU driver does not start; the %zu device%s in IOMMU groups "
				       "today map through dma-direct",
			      word, grouped, grouped == 1 ? "" : "s");
}

/* mem=: an address ceiling on x86 (e820.c parse_memopt), an amount of RAM elsewhere (memblock limit). */
static int mem_limit(struct machine *m, const char *line, struct what_if_notes *n, char *why)
{
	size_t len = 0;
	const char *v = last_value(line, "mem", &len);
	uint64_t bytes;

	if (!v)
		return 0;
	if (what_if_parse_size(v, len, &bytes) < 0 || bytes == 0) {
		snprintf(why, WHAT_IF_WHY_MAX, "cmdline: mem=%.*s: want a size such as 4G", (int)len, v);
		return -EINVAL;
	}
	return what_if_ram_limit(m, bytes, m->arch_info && m->arch_info->family == ARCH_X86, n, why);
}

/* The words this tool reads; any other is the kernel's, judged as today. */
static int unread_words(const char *words, struct what_if_notes *n)
{
	static const char *const read[] = { "swiotlb", "iommu", "iommu.passthrough", "intel_iommu",
					    "amd_iommu", "mem" };
	const char *p = words, *w;
	size_t len;
	int r = 0;

	while (r == 0 && next_word(&p, &w, &len)) {
		const char *x = *w == '-' ? w + 1 : w;
		size_t xlen = *w == '-' ? len - 1 : len, plen = param_len(x, xlen);
		bool known = false;
		for (size_t i = 0; i < ARRAY_SIZE(read) && !known; i++)
			known = plen == strlen(read[i]) && memcmp(x, read[i], plen) == 0;
		if (!known)
			r = what_if_assume(n, NULL, "%.*s: no rule of this tool reads it; judged as today", (int)len,
					   w);
		else if (plen == strlen("intel_iommu") && memcmp(x, "intel_iommu", plen) == 0 &&
			 value_starts(x + plen + 1, xlen > plen ? xlen - plen - 1 : 0, "on"))
			r = what_if_assume(n, NULL, "%.*s: the IOMMU groups a kernel would make cannot be known "
						    "from this machine; devices judged as today",
					   (int)len, w);
	}
	return r;
}

int what_if_apply_cmdline(struct machine *m, const struct what_if_change *c, struct what_if_notes *n, char *why)
{
	_cleanup_free_ char *line = NULL, *said = NULL;
	struct cmdline_params was = m->cmd;
	bool today_known = m->cmdline != NULL;
	int r = edit_line(m->cmdline ?: "", c->value, &line, &said, why);

	if (r < 0)
		return r;
	r = what_if_applied(n, "%s", said);
	if (r == 0 && !today_known)
		r = what_if_assume(n, NULL, "today's command line is not known (proc/cmdline unread): the "
					    "words are judged alone");
	if (r == 0)
		r = unread_words(c->value, n);
	if (r < 0)
		return r;
	const char *off = iommu_turned_off(m, line);
	bool pt_was = passthrough(m, m->cmdline ?: "", &was);
	cmdline_parse_params(line, &m->cmd);
	bool pt = passthrough(m, line, &m->cmd);
	free(m->cmdline);
	m->cmdline = TAKE_PTR(line);
	if (off)
		r = iommu_off(m, off, n);
	else if (pt != pt_was)
		r = regroup(m, pt, n);
	if (r == 0 && has_param(c->value, "mem"))
		r = mem_limit(m, m->cmdline, n, why);
	else if (r == 0 && today_known && !has_param(m->cmdline, "mem") && has_param(c->value, "-mem"))
		r = what_if_assume(n, NULL, "without mem= the kernel would use RAM this machine does not show "
					    "today: give it with ram=");
	return r;
}
