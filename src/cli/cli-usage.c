/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli-usage.h"

/* One line at a time; argp's lines are short, a longer one passes in pieces. */
struct usage_filter {
	char line[1024];
	size_t len;
};

static void write_all(const char *s, size_t n)
{
	while (n) {
		ssize_t k = write(STDERR_FILENO, s, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return;
		s += k;
		n -= (size_t)k;
	}
}

static void flush_line(struct usage_filter *f)
{
	static const char argp_try[] = "Try `";
	const char *me = program_invocation_short_name;

	if (f->len >= sizeof(argp_try) - 1 && memcmp(f->line, argp_try, sizeof(argp_try) - 1) == 0 &&
	    memmem(f->line, f->len, "--help'", 7)) {
		char t[512];
		int n = snprintf(t, sizeof(t), "Try '%s --help' for more information.\n", me);
		if (n > 0 && (size_t)n < sizeof(t))
			write_all(t, (size_t)n);
	} else {
		write_all(f->line, f->len);
	}
	f->len = 0;
}

static ssize_t filter_write(void *cookie, const char *buf, size_t size)
{
	struct usage_filter *f = cookie;

	for (size_t i = 0; i < size; i++) {
		f->line[f->len++] = buf[i];
		if (buf[i] == '\n' || f->len == sizeof(f->line))
			flush_line(f);
	}
	return (ssize_t)size;
}

static int filter_close(void *cookie)
{
	flush_line(cookie);
	return 0;
}

FILE *usage_errors_stream(void)
{
	static struct usage_filter filter;
	cookie_io_functions_t io = { .write = filter_write, .close = filter_close };

	return fopencookie(&filter, "w", io);
}
