/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli-parse.h"
#include "shared/text.h"

/* The device as the report names it: PCI addresses in full and lower case. NULL on OOM. */
static char *device_name(const char *s, size_t len)
{
	bool pci = text_is_pci_address(s, len, false) || text_is_pci_address(s, len, true);
	char *out = malloc(len + 6);

	if (!out)
		return NULL;
	size_t o = 0;
	if (pci && len == 7) {
		memcpy(out, "0000:", 5);
		o = 5;
	}
	for (size_t i = 0; i < len; i++)
		out[o++] = pci ? (char)tolower((unsigned char)s[i]) : s[i];
	out[o] = '\0';
	return out;
}

int assume_mask_parse(const char *arg, const struct assumed_mask *have, size_t n_have,
		      struct assumed_mask *ret, const char **ret_why)
{
	const char *eq = strrchr(arg, '=');
	const char *v;
	uint64_t n;

	if (!eq || eq == arg) {
		*ret_why = "want DEVICE=0xHEXMASK or DEVICE=BITS";
		return -EINVAL;
	}
	v = eq + 1;
	if (v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
		if (parse_u64(v + 2, strlen(v + 2), 16, &n) < 0 || !*(v + 2)) {
			*ret_why = "the mask is not a 64-bit hex number";
			return -EINVAL;
		}
		if (n == 0) {
			*ret_why = "a zero mask reaches nothing";
			return -EINVAL;
		}
	} else if (parse_u64(v, strlen(v), 10, &n) == 0 && *v) {
		if (n < 1 || n > 64) {
			*ret_why = "a bit count is 1 to 64 (a hex mask starts with 0x)";
			return -EINVAL;
		}
		n = n == 64 ? UINT64_MAX : (1ull << n) - 1;
	} else {
		*ret_why = "want DEVICE=0xHEXMASK or DEVICE=BITS (1-64)";
		return -EINVAL;
	}
	char *dev = device_name(arg, (size_t)(eq - arg));
	if (!dev)
		return -ENOMEM;
	for (size_t i = 0; have && i < n_have; i++)
		if (strcmp(have[i].device, dev) == 0) {
			free(dev);
			*ret_why = "the device is given twice";
			return -EINVAL;
		}
	*ret = (struct assumed_mask){ dev, n };
	return 0;
}
