/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdio.h>

#include "shared/rfc3339.h"

int rfc3339_utc(int64_t t, char *buf, size_t size)
{
	int64_t days = t / 86400, secs = t % 86400;

	if (secs < 0) {
		secs += 86400;
		days--;
	}
	/* civil_from_days (H. Hinnant, "chrono-Compatible Low-Level Date Algorithms") */
	int64_t z = days + 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t y = yoe + era * 400;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;
	int64_t d = doy - (153 * mp + 2) / 5 + 1;
	int64_t m = mp < 10 ? mp + 3 : mp - 9;
	y += m <= 2;
	if (y < 0 || y > 9999 || size < RFC3339_MAX)
		return -ERANGE;
	snprintf(buf, size, "%04d-%02d-%02dT%02d:%02d:%02dZ", (int)y, (int)m, (int)d,
		 (int)(secs / 3600), (int)(secs / 60 % 60), (int)(secs % 60));
	return 0;
}
