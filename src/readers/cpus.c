/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sys/devices/system/cpu/possible (drivers/base/cpu.c print_cpus_kobj, a
 * cpumap_print_to_pagebuf() range list "0-63" or "0,2-5"): the count of
 * possible CPUs, which sizes the swiotlb pool's areas from 6.0.
 */
#include <errno.h>

#include "readers/readers.h"
#include "shared/macro.h"
#include "shared/text.h"

/* NR_CPUS tops out at 8192 (arch/x86/Kconfig MAXSMP): larger lists are not a kernel's */
#define CPU_ID_MAX 65535u

static int parse_cpu_id(const char **p, const char *end, unsigned *ret)
{
	unsigned v = 0;

	if (*p == end || !char_is_digit(**p))
		return -EINVAL;
	for (; *p < end && char_is_digit(**p); (*p)++) {
		v = v * 10 + (unsigned)(**p - '0');
		if (v > CPU_ID_MAX)
			return -ERANGE;
	}
	*ret = v;
	return 0;
}

int cpu_list_count(const char *buf, size_t len, unsigned *ret)
{
	const char *p = buf, *end = buf + len;
	unsigned n = 0, prev_end = 0;
	bool first = true;

	while (end > p && (end[-1] == '\n'))
		end--;
	if (p == end)
		return -EINVAL;
	for (;;) {
		unsigned lo, hi;
		int r = parse_cpu_id(&p, end, &lo);
		if (r < 0)
			return r;
		hi = lo;
		if (p < end && *p == '-') {
			p++;
			r = parse_cpu_id(&p, end, &hi);
			if (r < 0)
				return r;
		}
		/* the kernel prints ascending, disjoint ranges */
		if (hi < lo || (!first && lo <= prev_end))
			return -EINVAL;
		n += hi - lo + 1;
		prev_end = hi;
		first = false;
		if (p == end)
			break;
		if (*p != ',')
			return -EINVAL;
		p++;
	}
	*ret = n;
	return 0;
}

int read_cpus(struct sysroot *sr, struct machine *m)
{
	static const char path[] = "sys/devices/system/cpu/possible";
	_cleanup_free_ char *buf = NULL;
	unsigned n;
	size_t len;
	int r;

	r = sysroot_read_file(sr, path, SYSROOT_READ_MAX, &buf, &len);
	if (r < 0)
		return r == -ENOMEM ? r : machine_add_input_errno(m, path, r);
	r = cpu_list_count(buf, len, &n);
	if (r < 0)
		return machine_add_input(m, path, INPUT_INVALID, -r, "not a CPU range list");
	opt_set(&m->cpus_possible, n);
	return machine_add_input(m, path, INPUT_OK, 0, NULL);
}
