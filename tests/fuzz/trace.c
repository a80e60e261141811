/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --observe's evidence: each line of the input as a line of tracefs trace
 * (swiotlb_bounced events in every format the kernel has printed), and the
 * whole input as the event's format file.
 */
#include <errno.h>

#include "fuzz.h"
#include "readers/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size);
	struct trace_format f;
	struct parse_error e = { 0 };
	int r = trace_format_parse(buf, size, &f, &e);

	fuzz_assert(r == 0 || r == -EBADMSG);
	fuzz_assert(r < 0 || (f.force_field >= 0 && f.force_field < _TRACE_FORCE_FIELD_MAX));
	for (const char *p = buf, *end = buf + size; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
		struct bounce_event ev;
		r = trace_parse_bounced(p, len, &ev, &e);
		fuzz_assert(r == 1 || r == 0 || r == -EBADMSG);
		if (r == 1) {
			fuzz_assert(memchr(ev.dev_name, '\0', sizeof(ev.dev_name)));
			fuzz_assert(strlen(ev.dev_name) < len);
			fuzz_assert(ev.force >= 0 && ev.force < _TRACE_FORCE_MAX);
		}
		p += len;
	}
	free(buf);
	return 0;
}
