/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --diff --fleet PATH...: the reports read twice, so that no more than two
 * documents are held at once however large the fleet: first each report's
 * host and time, then each host's first and last, compared.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/model.h"
#include "cli/diff-run.h"
#include "diff/fleet-diff.h"
#include "diff/fleet-render.h"
#include "diff/report-diff.h"
#include "shared/macro.h"
#include "shared/strv.h"

/* A report read and checked: whose it is and when its facts were true. */
struct entry {
	char *path, *host, *when;
};

struct entries {
	struct entry *v;
	size_t n;
};

static void entries_done(struct entries *e)
{
	for (size_t i = 0; i < e->n; i++) {
		free(e->v[i].path);
		free(e->v[i].host);
		free(e->v[i].when);
	}
	free(e->v);
}

static int usage_error(const char *path, const char *what)
{
	fprintf(stderr, "%s: --diff --fleet %s: %s\n", program_invocation_short_name, path, what);
	return -EINVAL;
}

static bool ends_with_json(const char *name)
{
	size_t n = strlen(name);
	return n > 5 && strcmp(name + n - 5, ".json") == 0;
}

/* dir's *.json, sorted, as paths; none is a mistake worth a line. */
static int list_dir(const char *dir, struct strv *paths)
{
	_cleanup_strv_ struct strv names = { 0 };
	DIR *d = opendir(dir);

	if (!d)
		return usage_error(dir, strerror(errno));
	errno = 0;
	for (struct dirent *de; (de = readdir(d));)
		if (ends_with_json(de->d_name) && strv_push(&names, de->d_name) < 0) {
			closedir(d);
			return usage_error(dir, strerror(ENOMEM));
		}
	int e = errno;
	closedir(d);
	if (e)
		return usage_error(dir, strerror(e));
	if (names.n == 0)
		return usage_error(dir, "a directory with no report in it (no *.json)");
	strv_sort(&names);
	for (size_t i = 0; i < names.n; i++) {
		_cleanup_free_ char *p = NULL;
		if (asprintf(&p, "%s/%s", dir, names.v[i]) < 0 || strv_push(paths, p) < 0)
			return usage_error(dir, strerror(ENOMEM));
	}
	return 0;
}

/* Every report the command line names: files as given, directories' *.json. */
static int collect(const struct diff_request *q, struct strv *paths)
{
	for (size_t i = 0; i < q->n_paths; i++) {
		const char *p = q->paths[i];
		struct stat st;
		int r;

		if (!*p)
			return usage_error("''", "empty name");
		if (stat(p, &st) < 0)
			return usage_error(p, strerror(errno));
		if (S_ISDIR(st.st_mode))
			r = list_dir(p, paths);
		else if (S_ISREG(st.st_mode))
			r = strv_push(paths, p) < 0 ? usage_error(p, strerror(ENOMEM)) : 0;
		else
			r = usage_error(p, "neither a report nor a directory of reports");
		if (r < 0)
			return r;
	}
	return 0;
}

/* "2026-12-03T08:00:00Z", as generated_at and captured_at are written: such strings sort by time. */
static bool is_rfc3339_utc(const char *s)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";

	if (strlen(s) != sizeof(shape) - 1)
		return false;
	for (size_t i = 0; shape[i]; i++)
		if (shape[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != shape[i])
			return false;
	return true;
}

/*
 * Not a name of its own: the kernel's "(none)" when nothing set one
 * (CONFIG_DEFAULT_HOSTNAME, init/Kconfig) and an unconfigured localhost would
 * pair the reports of unrelated machines.
 */
static bool names_one_host(const char *host)
{
	static const char *const defaults[] = { "(none)", "localhost", "localhost.localdomain" };

	for (size_t i = 0; i < ARRAY_SIZE(defaults); i++)
		if (strcmp(host, defaults[i]) == 0)
			return false;
	return true;
}

/* Pass 1: path's host and time into e, or why it cannot be paired into f's skipped. 0 or -ENOMEM. */
static int scan(const char *path, struct entries *e, struct fleet_diff *f)
{
	char why[DIFF_WHY_MAX];
	json_object *doc = NULL;

	if (diff_read_report(path, &doc, why) < 0)
		return fleet_diff_skip(f, path, why);
	const char *host = diff_str_at(doc, "host.hostname");
	/* a snapshot's report: the capture's time is the machine's, the report's is the replay's */
	const char *when = diff_str_at(doc, "host.captured_at") ?: diff_str_at(doc, "generated_at");
	int r = 0;

	if (!host || !*host)
		r = fleet_diff_skip(f, path, "no host.hostname: it cannot be paired with its host's other reports");
	else if (!names_one_host(host))
		r = fleet_diff_skip(f, path, "host.hostname names no one host (a default): it cannot be paired");
	else if (!when || !is_rfc3339_utc(when))
		r = fleet_diff_skip(f, path, "no generated_at or captured_at in RFC 3339 UTC: it cannot be ordered");
	else {
		struct entry x = { strdup(path), strdup(host), strdup(when) };
		struct entry *v = x.path && x.host && x.when ? reallocarray(e->v, e->n + 1, sizeof(*v)) : NULL;
		if (!v) {
			free(x.path);
			free(x.host);
			free(x.when);
			r = -ENOMEM;
		} else {
			e->v = v;
			v[e->n++] = x;
			f->reports++;
		}
	}
	json_object_put(doc);
	return r;
}

static int entry_cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->host, y->host);

	if (c == 0)
		c = strcmp(x->when, y->when);
	return c ? c : strcmp(x->path, y->path);
}

/* Pass 2: host's reports v[0..n), by time; its first and last compared. 0 or -ENOMEM. */
static int compare_host(const struct diff_request *q, const struct entry *v, size_t n, struct fleet_diff *f)
{
	char why[DIFF_WHY_MAX], line[2 * DIFF_WHY_MAX];
	json_object *old = NULL, *new = NULL;
	struct report_diff d = { 0 };
	int r;

	if (n == 1) {
		f->single++;
		return 0;
	}
	/* two at the first or the last time: which one is the host's first, or last, is not known */
	const struct entry *tie = strcmp(v[0].when, v[1].when) == 0 ? &v[1]
				  : strcmp(v[n - 1].when, v[n - 2].when) == 0 ? &v[n - 2] : NULL;
	if (tie) {
		snprintf(line, sizeof(line), "host %s: another report at the same time, %s: which comes first "
					     "cannot be told", v[0].host, tie->when);
		return fleet_diff_skip(f, tie->path, line);
	}
	const struct entry *bad = &v[0];
	r = diff_read_report(v[0].path, &old, why);
	if (r == 0) {
		bad = &v[n - 1];
		r = diff_read_report(v[n - 1].path, &new, why);
	}
	if (r < 0) { /* it changed since it was read */
		json_object_put(old);
		return fleet_diff_skip(f, bad->path, why);
	}
	r = report_diff_build(old, new, q->fail_on, &d);
	if (r == 0)
		r = fleet_diff_add(f, v[0].host, old, new, &d);
	report_diff_done(&d);
	json_object_put(old);
	json_object_put(new);
	return r;
}

int fleet_run(const struct diff_request *q, struct output *out)
{
	_cleanup_strv_ struct strv paths = { 0 };
	struct entries e = { 0 };
	struct fleet_diff f;
	const char *kind = NULL;
	FILE *stream = NULL;
	int r, status = EXIT_FATAL;

	fleet_diff_init(&f, q->fail_on);
	if (collect(q, &paths) < 0)
		goto done;
	r = 0;
	for (size_t i = 0; i < paths.n && r == 0; i++)
		r = scan(paths.v[i], &e, &f);
	if (e.n)
		qsort(e.v, e.n, sizeof(*e.v), entry_cmp);
	for (size_t i = 0, k; i < e.n && r == 0; i += k) {
		for (k = 1; i + k < e.n && strcmp(e.v[i].host, e.v[i + k].host) == 0; k++)
			;
		f.hosts++;
		r = compare_host(q, e.v + i, k, &f);
	}
	if (r < 0) {
		fprintf(stderr, "%s: --diff --fleet: %s\n", program_invocation_short_name, strerror(-r));
		goto done;
	}
	if (f.reports == 0) {
		fprintf(stderr, "%s: --diff --fleet: no report could be read (%zu skipped; %s: %s)\n",
			program_invocation_short_name, f.n_skipped, f.skipped[0].source, f.skipped[0].why);
		goto done;
	}
	fleet_diff_sort(&f);
	r = output_start(out, &stream, &kind);
	if (r == 0) {
		r = output_finish(out, q->json ? fleet_render_json(stream, &f) : fleet_render_text(stream, &f));
		out = NULL; /* output_finish() frees it */
	}
	if (r < 0)
		fprintf(stderr, "%s: writing the fleet's diff: %s\n", program_invocation_short_name, strerror(-r));
	else
		status = f.worse_hosts ? EXIT_FINDINGS : EXIT_CLEAN;
done:
	output_free(out);
	entries_done(&e);
	fleet_diff_done(&f);
	return status;
}
