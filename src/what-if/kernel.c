/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kernel=RELEASE: every era rule re-read for that release (the analysis
 * reads the release from the machine); what the era table cannot know of
 * the new kernel written down as assumptions.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/driver-masks.h"
#include "analysis/eras.h"
#include "analysis/report.h"
#include "readers/readers.h"
#include "what-if/what-if.h"

static void release_text(uint32_t v, char *buf, size_t size)
{
	snprintf(buf, size, "%u.%u.%u", v >> 16, (v >> 8) & 0xff, v & 0xff);
}

/* A platform device whose mask the driver table gives: the row the new release reads, said. */
static int driver_rows(const struct machine *m, const struct device *d, uint32_t before, uint32_t after,
		       struct what_if_notes *n)
{
	struct driver_mask was, will;
	char rel[32];

	if (!d->driver || (d->bus != DEV_BUS_PLATFORM && d->bus != DEV_BUS_AMBA))
		return 0;
	driver_mask_find(m, d, before, &was);
	driver_mask_find(m, d, after, &will);
	release_text(after, rel, sizeof(rel));
	if (!was.row && !will.row) {
		/* no row either side: the bus default decides, and it changed at 3.13 (ERA_PLATFORM_MASK) */
		enum arch_family f = m->arch_info ? m->arch_info->family : _ARCH_FAMILY_INVALID;
		const char *source = NULL;
		int a = era_value(ERA_PLATFORM_MASK, before, f, NULL), b = era_value(ERA_PLATFORM_MASK, after, f, &source);
		if (a == b || !source)
			return 0;
		return what_if_assume(n, d->id,
				      "%s at %s gets %s (%s): the driver table has no row for it, and its "
				      "driver may set its own",
				      d->driver, rel,
				      b == PLATFORM_MASK_32 ? "the platform bus's 32-bit default mask" : "no mask",
				      source);
	}
	if (was.row == will.row)
		return 0;
	if (!will.row)
		return what_if_assume(n, d->id,
				      "the driver table has no row for %s at %s: the mask its driver sets there "
				      "is not known (today's row: %s)",
				      d->driver, rel, was.row->source);
	return what_if_assume(n, d->id, "%s at %s sets its mask as the driver table's row says: %s", d->driver,
			      rel, will.row->source);
}

int what_if_apply_kernel(struct machine *m, const struct what_if_change *c, struct what_if_notes *n, char *why)
{
	uint32_t before = report_release(m);
	char *value = strdup(c->kernel.release), *stable = *c->kernel.stable ? strdup(c->kernel.stable) : NULL;
	size_t pci = 0;
	int r;

	if (!value || (*c->kernel.stable && !stable)) {
		free(value);
		free(stable);
		return -ENOMEM;
	}
	r = what_if_applied(n, "kernel %s%s%s%s -> %s%s%s%s", m->release.value ?: "(release unknown)",
			    m->stable_release.value ? " (" : "", m->stable_release.value ?: "",
			    m->stable_release.value ? ")" : "", value, stable ? " (" : "", stable ?: "",
			    stable ? ")" : "");
	if (r < 0) {
		free(value);
		free(stable);
		return r;
	}
	free(m->release.value);
	free(m->stable_release.value);
	m->release = (struct sourced_str){ value, PROV_USER, "--what-if kernel=" };
	m->stable_release = (struct sourced_str){ stable, stable ? PROV_USER : PROV_UNKNOWN,
						  stable ? "--what-if kernel=...,stable=" : NULL };
	uint32_t after = report_release(m);
	if (!stable && release_is_abi_name(value))
		r = what_if_assume(n, NULL,
				   "%s is a distribution's ABI name: the rules backported to its stable series are "
				   "read as of %u.%u.0 (kernel=%s,stable=X.Y.Z names the stable release behind it, "
				   "as its proc/version says)",
				   value, after >> 16, (after >> 8) & 0xff, value);
	if (r == 0 && before == 0)
		r = what_if_assume(n, NULL, "today's release is not known: the era rules judged today's side "
					    "as the newest kernel they know");
	for (size_t i = 0; i < m->n_devices && r == 0; i++) {
		const struct device *d = &m->devices[i];
		pci += d->bus == DEV_BUS_PCI && d->driver && d->dma_mask_bits.known;
		if (before)
			r = driver_rows(m, d, before, after, n);
	}
	if (r == 0 && pci)
		r = what_if_assume(n, NULL,
				   "each PCI function keeps the DMA mask today's driver set (sysfs "
				   "dma_mask_bits): a driver of %s may set another",
				   value);
	if (r == 0)
		r = what_if_assume(n, NULL,
				   "%s is built as today's kernel is: its configuration (CONFIG_HIGHMEM, "
				   "CONFIG_ZONE_DMA, CONFIG_SWIOTLB, the IOMMU default domain), its zones and "
				   "lowmem, the drivers bound and the IOMMU groups stay as they are today",
				   value);
	(void)why;
	return r;
}
