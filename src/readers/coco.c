/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Confidential-computing (coco) signs outside the log: the x86 CPU flag tdx_guest
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

/*
 * arch/x86/kernel/cpu/proc.c show_cpuinfo(): "address sizes\t: %u bits
 * physical, %u bits virtual". With SME on, early_detect_mem_encrypt()
 * (arch/x86/kernel/cpu/amd.c) takes the encryption bits off x86_phys_bits,
 * so the C-bit lies at or above what this says.
 */
int cpuinfo_phys_bits(const char *buf, size_t len)
{
	static const char key[] = "address sizes";
	struct line_iter it;
	struct line l;

	line_iter_init(&it, buf, len);
	while (line_iter_next(&it, &l)) {
		const char *end = l.s + l.len, *p;
		uint64_t v;
		if (l.len < sizeof(key) - 1 || memcmp(l.s, key, sizeof(key) - 1) != 0)
			continue;
		p = skip_blanks(l.s + sizeof(key) - 1, end);
		if (p == end || *p != ':')
			continue;
		p = skip_blanks(p + 1, end);
		const char *digits = p;
		while (p < end && char_is_digit(*p))
			p++;
		if (parse_u64(digits, (size_t)(p - digits), 10, &v) < 0 || v == 0 || v > 64 ||
		    (size_t)(end - p) < 14 || memcmp(p, " bits physical", 14) != 0)
			return -EBADMSG;
		return (int)v;
	}
	return -ENOENT;
}

/* The first "key : WORD" line's word, at most max bytes; -ENOENT without one, -ENOMEM. */
static int cpuinfo_word(const char *buf, size_t len, const char *key, size_t max, char **ret)
{
	size_t kl = strlen(key);
	struct line_iter it;
	struct line l;

	line_iter_init(&it, buf, len);
	while (line_iter_next(&it, &l)) {
		const char *end = l.s + l.len, *p;
		if (token_len(l.s, end) != kl || memcmp(l.s, key, kl) != 0)
			continue;
		p = skip_blanks(l.s + kl, end);
		if (p == end || *p != ':')
			continue;
		p = skip_blanks(p + 1, end);
		size_t n = token_len(p, end);
		if (n == 0 || n > max)
			return -ENOENT;
		*ret = strndup(p, n);
		return *ret ? 0 : -ENOMEM;
	}
	return -ENOENT;
}

/* x86 show_cpuinfo(): "vendor_id\t: GenuineIntel"; -ENOENT without one, -ENOMEM. */
int cpuinfo_vendor(const char *buf, size_t len, char **ret)
{
	return cpuinfo_word(buf, len, "vendor_id", 16, ret);
}

int cpuinfo_riscv_noncoherent(const char *buf, size_t len)
{
	_cleanup_free_ char *isa = NULL, *vendor = NULL;
	int r = cpuinfo_word(buf, len, "isa", 4096, &isa);

	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return -ENOENT;
	/* arch/riscv/kernel/cpu.c print_isa(): "rv64imafdc_zicbom_zicboz..." */
	for (const char *p = isa; (p = strstr(p, "_zicbom")); p += 7)
		if (p[7] == '\0' || p[7] == '_')
			return 1;
	r = cpuinfo_word(buf, len, "mvendorid", 32, &vendor);
	if (r == -ENOMEM)
		return r;
	/* THEAD_VENDOR_ID: errata_probe_cmo() declares its CMOs, so non-coherent DMA */
	return r == 0 && strcmp(vendor, "0x5b7") == 0 ? 1 : 0;
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
	r = cpuinfo_phys_bits(buf, len);
	if (r > 0)
		opt_set(&m->coco.cpuinfo_phys_bits, (uint32_t)r);
	if (cpuinfo_vendor(buf, len, &m->cpu_vendor) == -ENOMEM)
		return -ENOMEM;
	r = cpuinfo_riscv_noncoherent(buf, len);
	if (r == -ENOMEM)
		return r;
	if (r >= 0)
		opt_set(&m->riscv_noncoherent, r == 1);
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

/* arch/s390/kernel/uv.c: sys/firmware/uv/prot_virt_guest prints "%d\n"; absent off s390. */
static int read_prot_virt(struct sysroot *sr, struct machine *m)
{
	static const char path[] = "sys/firmware/uv/prot_virt_guest";
	_cleanup_free_ char *buf = NULL;
	size_t len;
	int r = sysroot_read_file(sr, path, 64, &buf, &len);

	if (r == -ENOMEM)
		return r;
	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	if (r < 0)
		return machine_add_input_errno(m, path, r);
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		len--;
	if (len != 1 || (buf[0] != '0' && buf[0] != '1'))
		return machine_add_input(m, path, INPUT_INVALID, EBADMSG, "not 0 or 1");
	m->coco.s390_prot_virt = buf[0] == '1';
	return machine_add_input(m, path, INPUT_OK, 0, NULL);
}

int read_coco(struct sysroot *sr, struct machine *m)
{
	struct coco_signs *c = &m->coco;
	int r;

	r = read_cpuinfo(sr, m);
	if (r < 0)
		return r;
	r = read_prot_virt(sr, m);
	if (r < 0)
		return r;
	r = check_device(sr, m, "dev/tdx_guest", &c->dev_tdx_guest);
	if (r < 0)
		return r;
	return check_device(sr, m, "dev/sev-guest", &c->dev_sev_guest);
}
