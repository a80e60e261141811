/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --what-if KEY=VALUE... --diff --fleet SNAPSHOT...: every snapshot (a
 * directory or an archive, or a directory of them) read and judged today
 * and after the changes, one at a time, and the changes grouped across
 * hosts as --diff --fleet groups two reports' changes. A JSON report holds
 * verdicts, not the machine: it cannot be judged again and is skipped,
 * said so.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/audit-run.h"
#include "cli/diff-run.h"
#include "cli/what-if-run.h"
#include "diff/fleet-diff.h"
#include "diff/fleet-render.h"
#include "diff/report-diff.h"
#include "shared/macro.h"
#include "shared/strv.h"
#include "snapshot/file-kind.h"

static int usage_error(const char *path, const char *what)
{
	fprintf(stderr, "%s: --what-if --diff --fleet %s: %s\n", program_invocation_short_name, path, what);
	return -EINVAL;
}

static bool snapshot_dir(const char *path)
{
	static const char *const marks[] = SYSROOT_SNAPSHOT_MARKS;
	char p[4096];
	struct stat st;

	for (size_t i = 0; i < ARRAY_SIZE(marks); i++)
		if (snprintf(p, sizeof(p), "%s/%s", path, marks[i]) < (int)sizeof(p) && lstat(p, &st) == 0)
			return true;
	return false;
}

/* A regular file: an archive is a snapshot; anything else is skipped with what it is. 0 or -ENOMEM. */
static int add_file(const char *path, struct strv *snaps, struct fleet_diff *f)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	enum file_kind k = FILE_KIND_UNKNOWN;
	char why[160];

	if (fd < 0 || file_kind_sniff(fd, &k) < 0)
		return fleet_diff_skip(f, path, strerror(errno ? errno : EIO));
	if (k == FILE_KIND_ARCHIVE || k == FILE_KIND_UNKNOWN) /* libarchive says what it makes of it */
		return strv_push(snaps, path);
	snprintf(why, sizeof(why), "%s: --what-if judges a machine again from its snapshot (--capture); a %s holds "
				   "no machine to judge", file_kind_to_string(k),
		 k == FILE_KIND_REPORT ? "report's verdicts" : "file of this kind");
	return fleet_diff_skip(f, path, why);
}

/* dir's entries, sorted: snapshot directories and archives; hidden entries left out. */
static int add_dir_entries(const char *dir, struct strv *snaps, struct fleet_diff *f)
{
	_cleanup_strv_ struct strv names = { 0 };
	DIR *d = opendir(dir);
	int r = 0;

	if (!d)
		return usage_error(dir, strerror(errno));
	errno = 0;
	for (struct dirent *de; (de = readdir(d)) && r == 0;)
		if (de->d_name[0] != '.')
			r = strv_push(&names, de->d_name);
	int e = errno;
	closedir(d);
	if (r < 0 || e)
		return usage_error(dir, strerror(r < 0 ? -r : e));
	if (names.n == 0)
		return usage_error(dir, "an empty directory: no snapshot in it");
	strv_sort(&names);
	for (size_t i = 0; i < names.n && r == 0; i++) {
		_cleanup_free_ char *p = NULL;
		struct stat st;
		if (asprintf(&p, "%s/%s", dir, names.v[i]) < 0)
			return -ENOMEM;
		if (stat(p, &st) < 0)
			r = fleet_diff_skip(f, p, strerror(errno));
		else if (S_ISDIR(st.st_mode))
			r = snapshot_dir(p) ? strv_push(snaps, p)
					    : fleet_diff_skip(f, p, "a directory that is not a snapshot (no proc/, sys/ or "
								    "MANIFEST)");
		else if (S_ISREG(st.st_mode))
			r = add_file(p, snaps, f);
		else
			r = fleet_diff_skip(f, p, "neither a snapshot directory nor an archive");
	}
	return r;
}

/* Every snapshot the command line names. 0, -EINVAL (said), -ENOMEM. */
static int collect(const struct options *o, struct strv *snaps, struct fleet_diff *f)
{
	int r = 0;

	for (size_t i = 0; i < o->n_select && r == 0; i++) {
		const char *p = o->select[i];
		struct stat st;
		if (!*p)
			return usage_error("''", "empty name");
		if (stat(p, &st) < 0)
			return usage_error(p, strerror(errno));
		if (S_ISDIR(st.st_mode))
			r = snapshot_dir(p) ? strv_push(snaps, p) : add_dir_entries(p, snaps, f);
		else if (S_ISREG(st.st_mode))
			r = add_file(p, snaps, f);
		else
			return usage_error(p, "neither a snapshot, an archive nor a directory of them");
	}
	return r;
}

/* The host's name as its report says it, unless a default names no host: then the snapshot's path. */
static const char *host_of(json_object *doc, const char *path)
{
	static const char *const defaults[] = { "(none)", "localhost", "localhost.localdomain" };
	const char *h = diff_str_at(doc, "host.hostname");

	for (size_t i = 0; h && i < ARRAY_SIZE(defaults); i++)
		if (strcmp(h, defaults[i]) == 0)
			h = NULL;
	return h && *h ? h : path;
}

/* One snapshot judged twice into f, or skipped (its reading said why on stderr). 0 or -ENOMEM. */
static int judge_one(const struct options *o, const char *path, struct fleet_diff *f)
{
	struct options so = *o;
	struct audit_run a;
	_cleanup_(what_if_judged_done) struct what_if_judged j = { 0 };
	struct report_diff d = { 0 };
	int r;

	so.sysroot = path;
	so.sysroot_given = true;
	so.select = NULL;
	so.n_select = 0;
	so.diff = so.fleet = false;
	audit_run_init(&a);
	r = audit_run_read(&so, &a);
	if (r != 0) {
		audit_run_done(&a);
		return r > 0 ? 0 : fleet_diff_skip(f, path, "it could not be read (said above)");
	}
	r = what_if_judge(&so, &a.m, &j);
	if (r == -ENOMEM) {
		audit_run_done(&a);
		return r;
	}
	if (r < 0)
		r = fleet_diff_skip(f, path, "the change cannot apply to it (said above)");
	else if (j.today_status == EXIT_FATAL && !o->allow_incomplete)
		r = fleet_diff_skip(f, path, "an incomplete snapshot (--allow-incomplete judges it anyway)");
	else if ((r = report_diff_build(j.today, j.after, o->fail_on, &d)) == 0) {
		f->reports++;
		f->hosts++;
		r = fleet_diff_add(f, host_of(j.today, path), j.today, j.after, &d);
		const char **texts = calloc(j.notes.n_assumptions + 1, sizeof(*texts));
		for (size_t i = 0; texts && i < j.notes.n_assumptions; i++)
			texts[i] = j.notes.assumptions[i].text;
		if (r == 0)
			r = texts ? fleet_diff_notes(f, texts, j.notes.n_assumptions) : -ENOMEM;
		free(texts);
	}
	report_diff_done(&d);
	audit_run_done(&a);
	return r;
}

int what_if_fleet_run(struct options *o, struct output *out)
{
	_cleanup_strv_ struct strv snaps = { 0 };
	const char **changes = calloc(o->n_what_if + 1, sizeof(*changes));
	struct fleet_diff f;
	const char *kind = NULL;
	FILE *stream = NULL;
	int r, status = EXIT_FATAL;

	fleet_diff_init(&f, o->fail_on);
	if (!changes)
		goto done;
	for (size_t i = 0; i < o->n_what_if; i++)
		changes[i] = o->what_if[i].arg;
	f.what_if = changes;
	f.n_what_if = o->n_what_if;
	r = collect(o, &snaps, &f);
	for (size_t i = 0; i < snaps.n && r == 0; i++)
		r = judge_one(o, snaps.v[i], &f);
	if (r == -ENOMEM)
		fprintf(stderr, "%s: --what-if --diff --fleet: %s\n", program_invocation_short_name, strerror(-r));
	if (r < 0)
		goto done;
	if (f.reports == 0) {
		fprintf(stderr, "%s: --what-if --diff --fleet: no snapshot could be judged (%zu skipped%s%s%s%s)\n",
			program_invocation_short_name, f.n_skipped, f.n_skipped ? "; " : "",
			f.n_skipped ? f.skipped[0].source : "", f.n_skipped ? ": " : "",
			f.n_skipped ? f.skipped[0].why : "");
		goto done;
	}
	fleet_diff_sort(&f);
	r = output_start(out, &stream, &kind);
	if (r == 0) {
		r = output_finish(out, o->format == FORMAT_JSON ? fleet_render_json(stream, &f)
								: fleet_render_text(stream, &f));
		out = NULL; /* output_finish() frees it */
	}
	if (r < 0)
		fprintf(stderr, "%s: writing the fleet's comparison: %s\n", program_invocation_short_name,
			strerror(-r));
	else
		status = f.worse_hosts ? EXIT_FINDINGS : EXIT_CLEAN;
done:
	output_free(out);
	fleet_diff_done(&f);
	free(changes);
	return status;
}
