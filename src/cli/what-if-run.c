/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --what-if: the machine judged as it is and as it would be after the
 * changes, both reports rendered to JSON in memory and compared as --diff
 * compares two reports, so the answer reads, and parses, as --diff's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "cli/diff-run.h"
#include "cli/report-write.h"
#include "cli/what-if-run.h"
#include "diff/diff-render.h"
#include "diff/report-diff.h"
#include "render/render.h"
#include "shared/macro.h"
#include "shared/strbuf.h"

/* m judged with masks, as the JSON report --json writes, parsed. 0 or -errno (said). */
static int judge(struct machine *m, const struct options *o, const struct assumed_mask *masks, size_t n_masks,
		 json_object **ret, int *ret_status)
{
	const struct report_options ro = {
		.fail_on = o->fail_on, .allow_incomplete = o->allow_incomplete, .masks = masks, .n_masks = n_masks,
	};
	_cleanup_free_ char *buf = NULL;
	struct report rep;
	size_t len = 0;
	int r = report_build_with(m, &ro, &rep);

	if (r < 0) {
		fprintf(stderr, "%s: --what-if: analysis failed: %s\n", program_invocation_short_name, strerror(-r));
		return r;
	}
	rep.generated_at = clock_now();
	*ret_status = rep.exit_status;
	FILE *f = open_memstream(&buf, &len);
	r = f ? render_json(f, m, &rep, &o->render) : -ENOMEM;
	if (f && fclose(f) != 0 && r == 0)
		r = -ENOMEM;
	report_done(&rep);
	if (r == 0) {
		char why[DIFF_WHY_MAX];
		bool unranked;
		r = diff_parse_report(buf, len, ret, why, &unranked);
		if (r < 0) /* our own report: a bug, said as one */
			fprintf(stderr, "%s: --what-if: the report does not read back: %s\n",
				program_invocation_short_name, why);
	} else {
		fprintf(stderr, "%s: --what-if: %s\n", program_invocation_short_name, strerror(-r));
	}
	return r;
}

/* --assume-mask's masks, then device='s over them. NULL and -ENOMEM, or the array (owned, strings borrowed). */
static struct assumed_mask *after_masks(const struct options *o, const struct what_if_notes *n, size_t *ret_n)
{
	struct assumed_mask *v = calloc(o->n_masks + n->n_masks + 1, sizeof(*v));
	size_t k = 0;

	if (!v)
		return NULL;
	for (size_t i = 0; i < o->n_masks; i++)
		v[k++] = o->masks[i];
	for (size_t i = 0; i < n->n_masks; i++) {
		size_t j = 0;
		while (j < k && strcmp(v[j].device, n->masks[i].device) != 0)
			j++;
		v[j] = n->masks[i];
		k += j == k;
	}
	*ret_n = k;
	return v;
}

int what_if_judge(struct options *o, struct machine *m, struct what_if_judged *ret)
{
	char why[WHAT_IF_WHY_MAX] = "";
	size_t n_masks = 0;
	int r;

	*ret = (struct what_if_judged){ 0 };
	r = what_if_set_aside_events(m, &ret->notes);
	if (r == 0)
		r = judge(m, o, o->masks, o->n_masks, &ret->today, &ret->today_status);
	if (r == 0) {
		r = what_if_apply(m, o->what_if, o->n_what_if, &ret->notes, why);
		if (r == -EINVAL)
			fprintf(stderr, "%s: --what-if: %s\n", program_invocation_short_name, why);
	}
	if (r == 0) {
		_cleanup_free_ struct assumed_mask *masks = after_masks(o, &ret->notes, &n_masks);
		r = masks ? judge(m, o, masks, n_masks, &ret->after, &ret->after_status) : -ENOMEM;
	}
	if (r == -ENOMEM)
		fprintf(stderr, "%s: --what-if: out of memory\n", program_invocation_short_name);
	return r;
}

void what_if_judged_done(struct what_if_judged *j)
{
	json_object_put(j->today);
	json_object_put(j->after);
	what_if_notes_done(&j->notes);
	free(j->note_view);
	free(j->changes);
	*j = (struct what_if_judged){ 0 };
}

int what_if_view(const struct options *o, struct what_if_judged *j, struct diff_what_if *ret)
{
	j->note_view = calloc(j->notes.n_assumptions + 1, sizeof(*j->note_view));
	j->changes = calloc(o->n_what_if + 1, sizeof(*j->changes));
	if (!j->note_view || !j->changes)
		return -ENOMEM;
	for (size_t i = 0; i < j->notes.n_assumptions; i++)
		j->note_view[i] = (struct diff_note){ j->notes.assumptions[i].device, j->notes.assumptions[i].text };
	for (size_t i = 0; i < o->n_what_if; i++)
		j->changes[i] = o->what_if[i].arg;
	*ret = (struct diff_what_if){
		.changes = j->changes, .n_changes = o->n_what_if,
		.applied = (const char *const *)j->notes.applied, .n_applied = j->notes.n_applied,
		.assumptions = j->note_view, .n_assumptions = j->notes.n_assumptions,
	};
	return 0;
}

/* "kernel=6.12.57 cmdline=iommu=pt": the after side's name. NULL on OOM. */
static char *changes_text(const struct options *o)
{
	struct strbuf b = { 0 };

	for (size_t i = 0; i < o->n_what_if; i++) {
		strbuf_append(&b, i ? " " : "");
		strbuf_append(&b, o->what_if[i].arg);
	}
	return strbuf_steal(&b);
}

int what_if_run(struct options *o, struct machine *m, struct output *out)
{
	_cleanup_(what_if_judged_done) struct what_if_judged j = { 0 };
	_cleanup_free_ char *after_name = NULL;
	struct report_diff d = { 0 };
	struct diff_what_if wi;
	const char *kind = NULL;
	FILE *f = NULL;
	int status = EXIT_FATAL;

	if (what_if_judge(o, m, &j) < 0)
		goto done;
	if (report_diff_build(j.today, j.after, o->fail_on, &d) < 0 || what_if_view(o, &j, &wi) < 0) {
		fprintf(stderr, "%s: --what-if: out of memory\n", program_invocation_short_name);
		goto done;
	}
	after_name = changes_text(o);
	int r = after_name ? output_start(out, &f, &kind) : -ENOMEM;
	if (r == 0) {
		const struct diff_side today = { o->sysroot, j.today, !m->live },
				       after = { after_name, j.after, !m->live };
		r = output_finish(out, o->format == FORMAT_JSON
					       ? diff_render_json(f, &d, &today, &after, o->fail_on, &wi)
					       : diff_render_text(f, &d, &today, &after, o->fail_on, o->render.bytes, &wi));
		out = NULL; /* output_finish() frees it */
	}
	if (r < 0)
		fprintf(stderr, "%s: writing the comparison: %s\n", program_invocation_short_name, strerror(-r));
	else if (j.today_status == EXIT_FATAL || j.after_status == EXIT_FATAL)
		status = EXIT_FATAL; /* an incomplete snapshot: said by the audit's reading, as for a report */
	else
		status = d.worse ? EXIT_FINDINGS : EXIT_CLEAN;
done:
	output_free(out);
	report_diff_done(&d);
	return status;
}
