/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A virtio device's features file: bit 33 (VIRTIO_F_ACCESS_PLATFORM) is 0, 1, or malformed. */
#include "fuzz.h"
#include "readers/readers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size);
	int r = virtio_parse_access_platform(buf, size);

	fuzz_assert(r == -1 || r == 0 || r == 1);
	/* set only when the file reaches bit 33 */
	fuzz_assert(r != 1 || size >= 34);
	free(buf);
	return 0;
}
