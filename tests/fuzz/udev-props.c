/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A snapshot's udev property file: what the reader takes, written back by
 * the capture side and read again, gives the same properties.
 */
#include <errno.h>

#include "fuzz.h"
#include "readers/udev.h"

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size), *text = NULL;
	struct udev_props u = { 0 }, again = { 0 };
	int r = udev_props_parse(buf, size, &u);

	fuzz_assert(r == 0 || r == -EBADMSG || r == -ENOMEM);
	if (r == 0 && udev_props_format(&u, &text) == 0) {
		fuzz_assert(udev_props_parse(text, strlen(text), &again) == 0);
		fuzz_assert(same(u.id_path, again.id_path) && same(u.vendor_db, again.vendor_db) &&
			    same(u.model_db, again.model_db) && same(u.serial, again.serial) &&
			    same(u.by_path, again.by_path));
	}
	udev_props_done(&u);
	udev_props_done(&again);
	free(text);
	free(buf);
	return 0;
}
