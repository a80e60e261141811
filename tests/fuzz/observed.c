/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --observe's window files as a snapshot holds them (readers/observed.c):
 * the input split at '\f' into the window, trace, format, kmsg, the two
 * counter files and the two traffic files, in enum observe_file's order;
 * observe_parse must accept or refuse it, and a traffic delta never wraps.
 */
#include <errno.h>

#include "fuzz.h"
#include "readers/observed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size);
	struct observe_raw raw = { 0 };
	struct observation o = { 0 };
	struct parse_error e = { 0 };
	const char *p = buf, *end = buf + size;

	for (size_t i = 0; i < _OBSERVE_FILE_MAX && p <= end; i++) {
		const char *ff = memchr(p, '\f', (size_t)(end - p));
		const char *stop = ff ? ff : end;
		raw.buf[i] = strndup(p, (size_t)(stop - p));
		fuzz_assert(raw.buf[i]);
		raw.len[i] = strlen(raw.buf[i]);
		p = stop + 1;
	}
	int r = observe_parse(&raw, &o, &e);
	fuzz_assert_parse_result(r);
	if (r == 0) {
		fuzz_assert(o.present);
		/* a delta is after minus a before no larger: one that wrapped would be near 2^64 */
		for (size_t i = 0; i < o.n_traffic; i++) {
			fuzz_assert(o.traffic[i].name && o.traffic[i].name[0]);
			fuzz_assert(o.traffic[i].kind >= 0 && o.traffic[i].kind < _TRAFFIC_KIND_MAX);
		}
		fuzz_assert(o.traffic_known || o.n_traffic == 0);
	}
	observation_done(&o);
	observe_raw_done(&raw);
	free(buf);
	return 0;
}
