/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A PCI function's uevent: ids in range, MODALIAS borrowed from inside the buffer. */
#include <errno.h>

#include "fuzz.h"
#include "readers/readers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size);
	struct pci_uevent u;
	int r = pci_uevent_parse(buf, size, &u);

	fuzz_assert(r == 0 || r == 1 || r == -EBADMSG);
	if (r == 1) {
		fuzz_assert(u.class_code <= 0xffffff);
		fuzz_assert(!u.modalias || (u.modalias >= buf && u.modalias + u.modalias_len <= buf + size));
	}
	free(buf);
	return 0;
}
