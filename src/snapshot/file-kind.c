/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "shared/string-table.h"
#include "shared/text.h"
#include "shared/utf8.h"
#include "snapshot/file-kind.h"

#define SNIFF_BYTES 4096

static const char *const file_kind_table[_FILE_KIND_MAX] = {
	[FILE_KIND_ARCHIVE] = "an archive",
	[FILE_KIND_REPORT] = "a dmamask-audit JSON report",
	[FILE_KIND_DIFF_REPORT] = "a dmamask-audit --diff report",
	[FILE_KIND_NDJSON] = "a dmamask-audit ndjson report",
	[FILE_KIND_JSON] = "JSON",
	[FILE_KIND_TEXT_REPORT] = "a dmamask-audit text report",
	[FILE_KIND_PROMETHEUS] = "a dmamask-audit Prometheus textfile",
	[FILE_KIND_TEXT] = "text",
	[FILE_KIND_UNKNOWN] = "neither text nor an archive",
};

DEFINE_STRING_TABLE_LOOKUP_TO_STRING(file_kind, enum file_kind);

static bool starts_with(const char *buf, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);
	return n >= k && memcmp(buf, prefix, k) == 0;
}

/* The magic numbers of tar (ustar at 257, as GNU and pax write it) and the filters libarchive reads here. */
static bool is_archive(const char *buf, size_t n)
{
	static const char *const magic[] = {
		"\x1f\x8b", "\xfd\x37\x7a\x58\x5a", "BZh", "\x28\xb5\x2f\xfd",
	};

	if (n >= 262 && memcmp(buf + 257, "ustar", 5) == 0)
		return true;
	for (size_t i = 0; i < sizeof(magic) / sizeof(magic[0]); i++)
		if (starts_with(buf, n, magic[i]))
			return true;
	return false;
}

/* UTF-8 with no control but blanks; a sequence cut at the end of the piece read is fine. */
static bool is_text(const char *buf, size_t n, bool whole)
{
	const unsigned char *u = (const unsigned char *)buf;

	for (size_t i = 0; i < n;) {
		size_t k = utf8_seq_len(u + i, n - i);
		if (k == 0)
			return !whole && n - i < 4 && u[i] >= 0xc0;
		if (k == 1 && ((u[i] < 0x20 && !char_is_space((char)u[i])) || u[i] == 0x7f))
			return false;
		i += k;
	}
	return true;
}

/* buf holds needle: the piece read, not NUL-terminated. */
static bool holds(const char *buf, size_t n, const char *needle)
{
	return memmem(buf, n, needle, strlen(needle)) != NULL;
}

static enum file_kind json_kind(const char *buf, size_t n)
{
	const char *nl = memchr(buf, '\n', n);
	size_t first = nl ? (size_t)(nl - buf) : n;

	if (holds(buf, n, "\"diff_schema_version\"") || holds(buf, n, "\"fleet_diff_schema_version\""))
		return FILE_KIND_DIFF_REPORT;
	/* ndjson: compact records, one a line, each with its record kind */
	if (holds(buf, first, "\"record\":") && holds(buf, first, "\"schema_version\":"))
		return FILE_KIND_NDJSON;
	if (holds(buf, n, "\"name\": \"dmamask-audit\"") || holds(buf, n, "\"name\":\"dmamask-audit\""))
		return FILE_KIND_REPORT;
	return FILE_KIND_JSON;
}

int file_kind_sniff(int fd, enum file_kind *ret)
{
	char buf[SNIFF_BYTES];
	ssize_t got;

	do
		got = pread(fd, buf, sizeof(buf), 0);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return -errno;

	size_t n = (size_t)got, skip = 0;
	if (is_archive(buf, n)) {
		*ret = FILE_KIND_ARCHIVE;
		return 0;
	}
	if (n == 0 || !is_text(buf, n, n < sizeof(buf))) { /* empty: libarchive's "not a tar archive" */
		*ret = FILE_KIND_UNKNOWN;
		return 0;
	}
	while (skip < n && char_is_space(buf[skip]))
		skip++;
	if (skip < n && buf[skip] == '{')
		*ret = json_kind(buf + skip, n - skip);
	else if (starts_with(buf, n, "dmamask-audit "))
		*ret = FILE_KIND_TEXT_REPORT;
	else if (starts_with(buf, n, "# HELP dmamask_"))
		*ret = FILE_KIND_PROMETHEUS;
	else
		*ret = FILE_KIND_TEXT;
	return 0;
}
