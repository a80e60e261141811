/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --observe around the audit: the window first, then its files and results (observe-run.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "observe/observe-run.h"
#include "shared/macro.h"
#include "shared/path.h"

/* --observe's window, before anything is read or captured. 0 or -errno (said). */
int observe_window(unsigned seconds, const char *note, const struct probe *probe, struct sysroot *sr,
		   struct observe_raw *raw)
{
	const struct observe_options opt = { .seconds = seconds, .countdown = isatty(STDERR_FILENO),
					     .note = note, .probe = probe };
	const char *why = NULL;
	int r = observe_live(sr, &opt, raw, &why);

	/* the errno too where the reason is a failed call: EROFS names a read-only sandbox */
	if (r < 0 && why && r != -EPERM && r != -ENOENT)
		fprintf(stderr, "%s: --observe: %s: %s\n", program_invocation_short_name, why, strerror(-r));
	else if (r < 0)
		fprintf(stderr, "%s: --observe: %s\n", program_invocation_short_name, why ? why : strerror(-r));
	return r;
}

/* The window's files into the capture (under OBSERVE_DIR), its results into m. 0 or -errno (said). */
int observe_record(const struct observe_raw *raw, struct capture *cap, struct machine *m)
{
	struct parse_error e = { 0 };
	int r;

	for (size_t i = 0; cap && i < _OBSERVE_FILE_MAX; i++) {
		_cleanup_free_ char *path = NULL;
		if (!raw->buf[i])
			continue;
		if (!(path = path_join(OBSERVE_DIR, observe_file_to_string(i))))
			return -ENOMEM;
		capture_file(cap, path, raw->buf[i], raw->len[i]);
	}
	r = observe_parse(raw, &m->observed, &e);
	if (r < 0)
		fprintf(stderr, "%s: --observe: %s\n", program_invocation_short_name,
			r == -ENOMEM ? strerror(ENOMEM) : e.what);
	return r;
}
