/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Machine -> layout -> findings -> exit status. Pure: no I/O. */
#include <errno.h>
#include <string.h>

#include "analysis/confusion-cost.h"
#include "analysis/devices.h"
#include "analysis/device-select.h"
#include "analysis/eras.h"
#include "analysis/legacy-block.h"
#include "analysis/findings-machine.h"
#include "analysis/findings-device.h"
#include "analysis/report.h"
#include "shared/macro.h"
#include "shared/strmap.h"

/* Each device's worst finding, for "needs action": one pass over the findings, by id. */
static int set_worst_severity(struct report *r)
{
	_cleanup_(strmap_done) struct strmap by_id = STRMAP_INIT;

	for (size_t i = 0; i < r->devices.n_devices; i++) {
		opt_clear(&r->devices.devices[i].worst_severity);
		if (strmap_add(&by_id, r->devices.devices[i].dev->id, (int)i) < 0)
			return -ENOMEM;
	}
	r->unlisted_action = 0;
	for (size_t i = 0; i < r->findings.n; i++) {
		const struct finding *x = &r->findings.v[i];
		struct strmap_entry *e = x->device ? strmap_get(&by_id, x->device) : NULL;
		struct opt_severity *w = e ? &r->devices.devices[e->value].worst_severity : NULL;
		if (w && (!w->known || x->severity > w->v))
			opt_set(w, x->severity);
		/* a device the log names and no bus lists (gone, or hidden): no listed device to carry it */
		if (x->device && !e && x->severity >= SEVERITY_WARNING)
			r->unlisted_action++;
	}
	return 0;
}

uint32_t report_release(const struct machine *m)
{
	uint32_t release = 0, stable;

	if (!kernel_version_parse(m->release.value, &release))
		return 0;
	/* the stable release behind a distribution's ABI name decides backported rows */
	if (kernel_version_parse(m->stable_release.value, &stable) && (stable >> 8) == (release >> 8) &&
	    stable > release)
		release = stable;
	return release;
}

int report_build_with(const struct machine *m, const struct report_options *o, struct report *ret)
{
	struct report r = { .fail_on = o->fail_on };
	enum severity fail_on = o->fail_on;
	int e = layout_compute(m, &r.layout);

	if (e < 0)
		return e;
	const struct arch_info *ai = m->arch_info;
	r.arch_family = ai ? ai->family : _ARCH_FAMILY_INVALID;
	if (ai)
		opt_set(&r.bits, ai->bits);
	r.release = report_release(m);
	r.release_prov = r.release ? PROV_READ : PROV_UNKNOWN;
	r.max_low_pfn_reading = (enum max_low_pfn_reading)era_value(ERA_MAX_LOW_PFN, r.release, r.arch_family, &r.max_low_pfn_source);
	r.block_bounce = (enum block_bounce)era_value(ERA_BLOCK_BOUNCE, r.release, r.arch_family, &r.block_bounce_source);
	swiotlb_state_compute(m, &r.layout, r.release, &r.swiotlb);

	machine_findings(m, &r, &r.findings);
	struct devices_input in = {
		.m = m, .l = &r.layout, .sw = &r.swiotlb, .release = r.release,
		.arch_family = r.arch_family, .bits = r.bits,
		.masks = o->masks, .n_masks = o->n_masks,
	};
	e = devices_analyse(&in, &r.devices);
	if (e < 0) {
		report_done(&r);
		return e;
	}
	confusion_cost_compute(&r, &r.confusion);
	/* each device's findings once all are analysed: devices.c knows nothing of findings */
	for (size_t i = 0; i < r.devices.n_devices; i++)
		device_findings(&in, &r.devices.devices[i], &r.findings);
	confusion_cost_finding(&r, &r.findings);
	latent_findings(&r, &r.findings);
	if (r.findings.err) {
		report_done(&r);
		return r.findings.err;
	}
	/* the exit status is the selection's: lsblk sda answers for sda */
	if ((o->n_select || o->no_idle) &&
	    (e = devices_select(m, o->select, o->n_select, o->no_idle, &r.devices, &r.findings)) < 0) {
		report_done(&r);
		return e;
	}
	e = set_worst_severity(&r);
	if (e < 0) {
		report_done(&r);
		return e;
	}
	enum severity max = findings_max_severity(&r.findings);
	r.exit_status = max != _SEVERITY_INVALID && max >= fail_on ? EXIT_FINDINGS : EXIT_CLEAN;
	if (m->snapshot_incomplete && !o->allow_incomplete)
		r.exit_status = EXIT_FATAL; /* not a verdict to act on */
	*ret = r;
	return 0;
}

void report_done(struct report *r)
{
	devices_result_done(&r->devices);
	layout_done(&r->layout);
	findings_done(&r->findings);
}
