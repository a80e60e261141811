/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * swiotlb: the debugfs counters (swiotlb_create_debugfs_files: io_tlb_nslabs,
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

#define DEBUGFS_VALUE_MAX 4096

/* Why the debugfs directory is not there, in a few words. */
static const char *debugfs_missing_detail(struct sysroot *sr)
{
	_cleanup_strv_ struct strv names = { 0 };
	int r = sysroot_list_dir(sr, "sys/kernel/debug", &names);

	if (r < 0)
		return "no sys/kernel/debug";
	if (names.n == 0)
		return "debugfs not mounted";
	return "no swiotlb directory in debugfs";
}

int swiotlb_parse_counter(const char *buf, size_t len, uint64_t *ret)
{
	while (len > 0 && char_is_space(buf[len - 1]))
		len--;
	return parse_u64(buf, len, 10, ret) < 0 ? -EBADMSG : 0;
}

int read_swiotlb(struct sysroot *sr, struct machine *m)
{
	static const char dir[] = "sys/kernel/debug/swiotlb";
	struct swiotlb_info *sw = &m->swiotlb;
	const struct {
		const char *name;
		struct opt_u64 *value;
	} files[] = {
		{ "io_tlb_nslabs", &sw->nslabs },
		{ "io_tlb_used", &sw->used },
		{ "io_tlb_used_hiwater", &sw->hiwater },
		{ "io_tlb_transient_nslabs", &sw->transient },
	};
	int r;

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		_cleanup_free_ char *buf = NULL;
		char path[128], detail[128];
		size_t len;
		uint64_t v;

		/* not path_join: constants that fit, so nothing to allocate, nothing to fail */
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
				opt_clear(files[k].value);
			snprintf(detail, sizeof(detail), "%s: %s", files[i].name,
				 r == -EBADMSG ? "not a number" : errno_describe(r));
			return machine_add_input(m, dir, input_status_from_errno(r), r, detail);
		}
		opt_set(files[i].value, v);
	}
	return machine_add_input(m, dir, INPUT_OK, 0, NULL);
}
