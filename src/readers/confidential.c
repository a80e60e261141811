/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Confidential-guest signs outside the log: the x86 CPU flag tdx_guest
 * (arch/x86/kernel/cpu/proc.c show_cpuinfo "flags\t\t: ..."), and the
 * attestation devices /dev/tdx_guest (drivers/virt/coco/tdx-guest) and
 * /dev/sev-guest (drivers/virt/coco/sev-guest, SNP guests only). The log
 * lines are read by kmsg.c; analysis/coco.c decides what they add up to.
 */
#include <string.h>

#include "readers/readers.h"
#include "shared/macro.h"
#include "shared/text.h"

bool cpuinfo_has_flag(const char *buf, size_t len, const char *flag)
{
	size_t flen = strlen(flag);
	struct line_iter it;
	struct line l;

	line_iter_init(&it, buf, len);
	while (line_iter_next(&it, &l)) {
		const char *end = l.s + l.len;
		size_t klen = token_len(l.s, end);
		if (klen != 5 || memcmp(l.s, "flags", 5) != 0)
			continue;
		const char *p = skip_blanks(l.s + klen, end);
		if (p == end || *p != ':')
			continue;
		for (p = skip_blanks(p + 1, end); p < end; p = skip_blanks(p, end)) {
			size_t n = token_len(p, end);
			if (n == flen && memcmp(p, flag, n) == 0)
				return true;
			p += n;
		}
	}
	return false;
}

static int read_cpuinfo(struct sysroot *sr, struct machine *m)
{
	static const char path[] = "proc/cpuinfo";
	_cleanup_free_ char *buf = NULL;
	size_t len;
	int r;

	r = sysroot_read_file(sr, path, SYSROOT_READ_MAX, &buf, &len);
	if (r < 0)
		return r == -ENOMEM ? r : machine_add_input_errno(m, path, r);
	if (text_has_nul(buf, len))
		return machine_add_input(m, path, INPUT_INVALID, EBADMSG, "binary content (NUL byte)");
	m->coco.cpuinfo_tdx_guest = cpuinfo_has_flag(buf, len, "tdx_guest");
	return machine_add_input(m, path, INPUT_OK, 0, NULL);
}

/* A snapshot keeps device nodes as plain files: existence is what counts. */
static int check_device(struct sysroot *sr, struct machine *m, const char *path, bool *ret)
{
	struct stat st;
	int r = sysroot_stat(sr, path, &st);

	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0;
	*ret = true;
	return machine_add_input(m, path, INPUT_OK, 0, NULL);
}

int read_confidential(struct sysroot *sr, struct machine *m)
{
	struct confidential *c = &m->coco;
	int r;

	r = read_cpuinfo(sr, m);
	if (r < 0)
		return r;
	r = check_device(sr, m, "dev/tdx_guest", &c->dev_tdx_guest);
	if (r < 0)
		return r;
	return check_device(sr, m, "dev/sev-guest", &c->dev_sev_guest);
}
