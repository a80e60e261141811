/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/report.h"
#include "cli/diff-run.h"
#include "diff/diff-render.h"
#include "diff/report-diff.h"
#include "shared/macro.h"
#include "shared/read-fd.h"
#include "shared/utf8.h"
#include "snapshot/file-kind.h"

/* a report of 10^5 devices is about 200 MiB: past this a side is not one of ours */
#define DIFF_REPORT_MAX (1ull << 30) /* below INT_MAX: json_tokener_parse_ex() takes an int */

static int failed(const char *side, const char *what)
{
	fprintf(stderr, "%s: --diff %s: %s\n", program_invocation_short_name, side, what);
	return -EINVAL;
}

/* The report JSON of snapshot side: this program audits it in a child of its own. */
static int audit_snapshot(const char *side, const struct diff_request *q, char **ret, size_t *ret_len)
{
	const char *argv[] = { program_invocation_short_name, "--sysroot", side, "--json", "--fail-on",
			       severity_to_string(q->fail_on), q->allow_incomplete ? "--allow-incomplete" : NULL,
			       NULL };
	posix_spawn_file_actions_t fa;
	int pipefd[2], status = 0, r;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return failed(side, strerror(errno));
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
	r = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (r != 0) {
		close(pipefd[0]);
		return failed(side, "cannot run the audit of the snapshot (/proc/self/exe)");
	}
	r = read_fd_all(pipefd[0], DIFF_REPORT_MAX, 0, ret, ret_len);
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	/* 0 and 1 are reports; 2 was said on stderr by the audit itself */
	if (r == 0 && !(WIFEXITED(status) && WEXITSTATUS(status) <= 1)) {
		free(*ret);
		*ret = NULL;
		return failed(side, "the audit of this snapshot failed (see above)");
	}
	return r < 0 ? failed(side, strerror(-r)) : 0;
}

/* The value as JSON, cut to a line's worth; DEL, C1 and invalid UTF-8 as '?' (json-c escapes the rest). */
static void quote_value(json_object *v, char *buf, size_t size)
{
	const unsigned char *s = (const unsigned char *)json_object_to_json_string_ext(
		v, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	size_t len = strlen((const char *)s), o = 0;

	for (size_t i = 0; i < len;) {
		size_t n = utf8_seq_len(s + i, len - i);
		bool c1 = n == 2 && s[i] == 0xc2 && s[i + 1] < 0xa0;
		if (o + 4 + sizeof("...") > size) { /* room for a sequence, "..." and the NUL */
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		if (n == 0 || c1 || s[i] == 0x7f) {
			buf[o++] = '?';
			i += n ? n : 1;
		} else {
			memcpy(buf + o, s + i, n);
			o += n;
			i += n;
		}
	}
	buf[o] = '\0';
}

/* A value --diff cannot rank: where it is, what it holds, what it should be, in buf. */
static void unranked_text(const struct diff_unranked *u, char *buf, size_t size)
{
	char value[80], owner[96] = "";

	if (u->owner)
		snprintf(owner, sizeof(owner), " (%s %s)", strcmp(u->array, "devices") == 0 ? "device" : "finding",
			 u->owner);
	if (!u->key)
		snprintf(buf, size, "%s[%zu] is not %s", u->array, u->index, u->want);
	else if (u->absent)
		snprintf(buf, size, "%s[%zu] has no %s%s", u->array, u->index, u->key, owner);
	else {
		quote_value(u->value, value, sizeof(value));
		snprintf(buf, size, "%s[%zu].%s %s is not %s%s", u->array, u->index, u->key, value, u->want, owner);
	}
}

int diff_parse_report(const char *buf, size_t len, json_object **ret, char *why, bool *ret_unranked)
{
	enum json_tokener_error jerr = json_tokener_success;
	json_tokener *tok = json_tokener_new();

	*ret_unranked = false;
	if (!tok) {
		snprintf(why, DIFF_WHY_MAX, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	json_object *doc = json_tokener_parse_ex(tok, buf, (int)len);
	jerr = json_tokener_get_error(tok);
	size_t end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	while (doc && end < len && strchr(" \t\r\n", buf[end]))
		end++;
	if (!doc || jerr != json_tokener_success || end != len) {
		json_object_put(doc);
		snprintf(why, DIFF_WHY_MAX, "%s",
			 doc ? "trailing data after the JSON report"
			 : jerr == json_tokener_continue ? "truncated JSON" : json_tokener_error_desc(jerr));
		return -EINVAL;
	}
	const char *w = NULL;
	if (report_diff_check(doc, &w) < 0) {
		json_object_put(doc);
		snprintf(why, DIFF_WHY_MAX, "%s", w);
		return -EINVAL;
	}
	struct diff_unranked u;
	if (report_diff_check_values(doc, &u) < 0) {
		unranked_text(&u, why, DIFF_WHY_MAX);
		*ret_unranked = true;
		json_object_put(doc);
		return -EINVAL;
	}
	*ret = doc;
	return 0;
}

/* What a file of kind k is, when it is neither a JSON report nor a snapshot. */
static void wrong_kind(enum file_kind k, char *why, size_t size)
{
	snprintf(why, size, "%s%s: --diff takes two JSON reports (--json) or snapshots", file_kind_to_string(k),
		 k == FILE_KIND_DIFF_REPORT ? " (two reports compared), not a report of one machine"
					    : ", not a JSON report or a snapshot");
}

int diff_read_report(const char *path, json_object **ret, char *why)
{
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;
	struct stat st;
	enum file_kind k;
	bool unranked;
	int r;

	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st) < 0) {
		r = -errno;
		snprintf(why, DIFF_WHY_MAX, "%s", strerror(-r));
		return r;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, DIFF_WHY_MAX, "not a regular file");
		return -EINVAL;
	}
	if (st.st_size == 0) {
		snprintf(why, DIFF_WHY_MAX, "an empty file");
		return -EINVAL;
	}
	if ((uint64_t)st.st_size > DIFF_REPORT_MAX) {
		snprintf(why, DIFF_WHY_MAX, "larger than any report (1 GiB)");
		return -EFBIG;
	}
	r = file_kind_sniff(fd, &k);
	if (r < 0) {
		snprintf(why, DIFF_WHY_MAX, "%s", strerror(-r));
		return r;
	}
	if (k != FILE_KIND_REPORT && k != FILE_KIND_JSON) {
		snprintf(why, DIFF_WHY_MAX, "%s, not a JSON report (--json)", file_kind_to_string(k));
		return -EINVAL;
	}
	r = read_fd_all(fd, DIFF_REPORT_MAX, st.st_size, &buf, &len);
	if (r < 0) {
		snprintf(why, DIFF_WHY_MAX, "%s", strerror(-r));
		return r;
	}
	return diff_parse_report(buf, len, ret, why, &unranked);
}

/* A side: a JSON report file as it is, or a snapshot (directory or archive) audited. */
static int load_side(const char *side, const struct diff_request *q, json_object **ret, bool *ret_snapshot)
{
	bool snapshot = false;
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;
	struct stat st;
	int r;

	if (!*side)
		return failed("", "empty name");
	_cleanup_close_ int fd = open(side, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st) < 0)
		return failed(side, strerror(errno));
	if (S_ISREG(st.st_mode) && st.st_size == 0)
		return failed(side, "an empty file");
	if (S_ISREG(st.st_mode)) {
		enum file_kind k;
		r = file_kind_sniff(fd, &k);
		if (r < 0)
			return failed(side, strerror(-r));
		if ((uint64_t)st.st_size > DIFF_REPORT_MAX)
			return failed(side, "larger than any report (1 GiB)");
		bool json = k == FILE_KIND_REPORT || k == FILE_KIND_JSON;
		if (!json && k != FILE_KIND_ARCHIVE && k != FILE_KIND_UNKNOWN) {
			char why[DIFF_WHY_MAX];
			wrong_kind(k, why, sizeof(why));
			return failed(side, why);
		}
		snapshot = !json;
		r = json ? read_fd_all(fd, DIFF_REPORT_MAX, st.st_size, &buf, &len)
			 : audit_snapshot(side, q, &buf, &len);
		if (r < 0)
			return json ? failed(side, strerror(-r)) : r;
	} else if (S_ISDIR(st.st_mode)) {
		snapshot = true;
		r = audit_snapshot(side, q, &buf, &len);
		if (r < 0)
			return r;
	} else {
		return failed(side, "not a report, a snapshot directory or a snapshot archive");
	}
	char why[DIFF_WHY_MAX];
	bool unranked;
	json_object *doc = NULL;
	if (diff_parse_report(buf, len, &doc, why, &unranked) < 0) {
		if (!unranked)
			return failed(side, why);
		fprintf(stderr, "%s: --diff: %s: %s\n", program_invocation_short_name, side, why);
		return -EINVAL;
	}
	*ret = doc;
	*ret_snapshot = snapshot;
	return 0;
}

int diff_run(const struct diff_request *q, struct output *out)
{
	json_object *old = NULL, *new = NULL;
	struct report_diff d = { 0 };
	const char *kind = NULL;
	FILE *f = NULL;
	int r, status = EXIT_FATAL;

	bool old_snap = false, new_snap = false;

	if (load_side(q->old, q, &old, &old_snap) < 0 || load_side(q->new, q, &new, &new_snap) < 0)
		goto done;
	if (report_diff_build(old, new, q->fail_on, &d) < 0) {
		fprintf(stderr, "%s: --diff: out of memory\n", program_invocation_short_name);
		goto done;
	}
	r = output_start(out, &f, &kind);
	if (r == 0) {
		const struct diff_side o = { q->old, old, old_snap }, n = { q->new, new, new_snap };
		r = output_finish(out, q->json ? diff_render_json(f, &d, &o, &n, q->fail_on, NULL)
					       : diff_render_text(f, &d, &o, &n, q->fail_on, q->bytes, NULL));
		out = NULL; /* output_finish() frees it */
	}
	if (r < 0)
		fprintf(stderr, "%s: writing the diff: %s\n", program_invocation_short_name, strerror(-r));
	else
		status = d.worse ? EXIT_FINDINGS : EXIT_CLEAN;
done:
	output_free(out);
	report_diff_done(&d);
	json_object_put(old);
	json_object_put(new);
	return status;
}
