/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/report-write.h"
#include "render/render.h"
#include "shared/macro.h"

/* 10^6 devices' metrics are about 600 MiB; a textfile past this is not one of ours */
#define PREVIOUS_TEXTFILE_MAX (1024u << 20)

struct opt_i64 clock_now(void)
{
	time_t t = time(NULL);
	struct opt_i64 ret = { 0 };

	if (t != (time_t)-1)
		opt_set(&ret, (int64_t)t);
	return ret;
}

/* --explain: the one device the report holds (check_selection saw to it), step by step. */
static int render_explain(FILE *out, const struct options *o, const struct machine *m,
			  const struct report *rep)
{
	_cleanup_(explain_done) struct explain e = { 0 };
	int r;

	if (rep->devices.n_devices != 1)
		return -ENODEV;
	r = explain_build(rep, &rep->devices.devices[0], &e);
	if (r < 0)
		return r;
	return o->format == FORMAT_JSON ? render_explain_json(out, m, rep, &e)
					: render_explain_text(out, m, rep, &e, &o->render);
}

static int render(FILE *out, const struct options *o, const struct machine *m,
		  const struct report *rep)
{
	if (o->explain)
		return render_explain(out, o, m, rep);
	switch (o->format) {
	case FORMAT_JSON:
		return render_json(out, m, rep, &o->render);
	case FORMAT_PROMETHEUS:
		return render_prometheus(out, m, rep);
	case FORMAT_NDJSON:
		return render_ndjson(out, m, rep, &o->render);
	default:
		return render_text(out, m, rep, &o->render);
	}
}

void report_write_failed(const struct options *o, int r, const char *what)
{
	const char *me = program_invocation_short_name;

	if (!o->output_file || strcmp(o->output_file, "-") == 0)
		fprintf(stderr, "%s: writing the report: %s\n", me, strerror(-r));
	else if (r == -EEXIST && what)
		fprintf(stderr, "%s: --output-file %s: %s; only a regular file is replaced\n", me,
			o->output_file, what);
	else
		fprintf(stderr, "%s: --output-file %s: %s\n", me, o->output_file, strerror(-r));
}

/*
 * --color=auto: a terminal, unless NO_COLOR is set and not empty (no-color.org)
 * or TERM is dumb, as util-linux's colors.c decides. 0 or 1.
 */
static int colour_wanted(int when, bool terminal)
{
	const char *no = getenv("NO_COLOR"), *term = getenv("TERM");

	if (when >= 0)
		return when;
	return terminal && !(no && *no) && !(term && strcmp(term, "dumb") == 0);
}

int report_write(struct output *out, struct options *o, const struct machine *m, const struct report *rep)
{
	const char *what = NULL;
	FILE *f;
	int r = output_start(out, &f, &what);

	if (r < 0) {
		output_free(out);
	} else {
		o->render.terminal = output_is_terminal(out);
		o->render.color = colour_wanted(o->render.color, o->render.terminal);
		_cleanup_free_ char *previous = NULL;
		size_t len = 0;
		/* the textfile being replaced: its last report stands through a failed run */
		if (!rep && output_previous(out, PREVIOUS_TEXTFILE_MAX, &previous, &len) < 0)
			previous = NULL;
		r = output_finish(out, rep ? render(f, o, m, rep)
					   : render_prometheus_failure(f, clock_now(),
								       o->fail_reason, previous, len));
	}
	if (r < 0)
		report_write_failed(o, r, what);
	return r;
}
