/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli-parse.h"
#include "shared/text.h"

/* "bb:dd.f" (lspci's short form, domain 0): the hex digits and separators in place. */
static bool is_short_pci(const char *s, size_t len)
{
	return len == 7 && isxdigit((unsigned char)s[0]) && isxdigit((unsigned char)s[1]) &&
	       s[2] == ':' && isxdigit((unsigned char)s[3]) && isxdigit((unsigned char)s[4]) &&
	       s[5] == '.' && s[6] >= '0' && s[6] <= '7';
}

/* "dddd:bb:dd.f" */
static bool is_full_pci(const char *s, size_t len)
{
	return len == 12 && isxdigit((unsigned char)s[0]) && isxdigit((unsigned char)s[1]) &&
	       isxdigit((unsigned char)s[2]) && isxdigit((unsigned char)s[3]) && s[4] == ':' &&
	       is_short_pci(s + 5, 7);
}

/* The device as the report names it: PCI addresses in full and lower case. NULL on OOM. */
static char *device_name(const char *s, size_t len)
{
	bool pci = is_short_pci(s, len) || is_full_pci(s, len);
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
