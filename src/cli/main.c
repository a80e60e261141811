/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Options -> (audit: read, analyse, render | --diff: compare) -> exit status. */
#include <locale.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "analysis/report.h"
#include "cli/audit-run.h"
#include "cli/diff-run.h"
#include "cli/options.h"
#include "cli/output.h"
#include "cli/report-write.h"
#include "cli/what-if-run.h"
#include "shared/macro.h"

/*
 * The soft descriptor limit raised to the hard one (at most 1024), as
 * systemd does for its services: a parent's low soft limit is not ours.
 */
static void raise_nofile_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= 1024 || rl.rlim_cur >= rl.rlim_max)
		return;
	rl.rlim_cur = rl.rlim_max < 1024 ? rl.rlim_max : 1024;
	(void)setrlimit(RLIMIT_NOFILE, &rl);
}

static void output_freep(struct output **o)
{
	output_free(*o);
}

int main(int argc, char **argv)
{
	_cleanup_(options_done) struct options o = OPTIONS_INIT;
	_cleanup_(audit_run_done) struct audit_run a;
	_cleanup_(output_freep) struct output *out = NULL;
	const char *what = NULL;

	audit_run_init(&a);
	raise_nofile_limit();
	setlocale(LC_ALL, ""); /* display widths and characters of names follow the terminal */
	setlocale(LC_NUMERIC, "C"); /* but JSON, Prometheus and the window file write 0.5, never 0,5 */
	int r = options_parse(&o, argc, argv);
	if (r >= 0)
		return r;
	/* a target that will be refused is refused before the audit reads or captures anything */
	r = output_open(o.output_file, o.output_flags, &out, &what);
	if (r < 0) {
		report_write_failed(&o, r, what);
		return EXIT_FATAL;
	}
	if (o.n_what_if && o.fleet)
		return what_if_fleet_run(&o, TAKE_PTR(out));
	if (o.diff) {
		const struct diff_request q = {
			.old = o.select[0], .new = o.n_select > 1 ? o.select[1] : NULL, .fail_on = o.fail_on,
			.json = o.format == FORMAT_JSON, .bytes = o.render.bytes,
			.allow_incomplete = o.allow_incomplete,
			.paths = o.select, .n_paths = o.n_select,
		};
		return o.fleet ? fleet_run(&q, TAKE_PTR(out)) : diff_run(&q, TAKE_PTR(out));
	}
	return audit_run(&o, &a, &out);
}
