/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* DEVICE... and --no-idle: compact the report to the devices asked for. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/device-select.h"
#include "analysis/dma-map.h"
#include "shared/macro.h"

/* "eth0" is one of the comma-separated names in list. */
static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t k = comma ? (size_t)(comma - p) : strlen(p);
		if (k == n && memcmp(p, name, n) == 0)
			return true;
		p = comma ? comma + 1 : NULL;
	}
	return false;
}

bool device_matches(const struct machine *m, size_t index, const char *sel)
{
	const struct device *d = &m->devices[index];
	const char *disk = strncmp(sel, "/dev/", 5) == 0 ? sel + 5 : sel;

	if (strcmp(d->id, sel) == 0)
		return true;
	/* lspci -s 00:1f.2: the domain 0000 left out */
	if (d->bus == DEV_BUS_PCI && strncmp(d->id, "0000:", 5) == 0 && strcmp(d->id + 5, sel) == 0)
		return true;
	for (size_t i = 0; i < m->n_blocks; i++)
		if (opt_is(&m->blocks[i].dev_index, index) && m->blocks[i].disk && strcmp(m->blocks[i].disk, disk) == 0)
			return true;
	return in_list(d->interfaces, sel);
}

enum selector_kind selector_classify(const struct machine *m, const char *sel)
{
	const char *disk = strncmp(sel, "/dev/", 5) == 0 ? sel + 5 : sel;

	for (size_t d = 0; d < m->n_devices; d++)
		if (device_matches(m, d, sel))
			return SELECTOR_DEVICE;
	for (size_t i = 0; i < m->n_blocks; i++)
		if (!m->blocks[i].dev_index.known && m->blocks[i].disk && strcmp(m->blocks[i].disk, disk) == 0)
			return SELECTOR_VIRTUAL_DISK;
	return in_list(m->virtual_interfaces, sel) ? SELECTOR_VIRTUAL_INTERFACE : SELECTOR_NONE;
}

static bool selected(const struct machine *m, const struct device_report *dr, const char *const *sel,
		     size_t n, bool no_idle)
{
	size_t index = (size_t)(dr->dev - m->devices);

	if (no_idle && dr->verdict == VERDICT_IDLE)
		return false;
	if (n == 0)
		return true;
	for (size_t i = 0; i < n; i++)
		if (device_matches(m, index, sel[i]))
			return true;
	return false;
}

int devices_select(const struct machine *m, const char *const *sel, size_t n, bool no_idle,
		   struct devices_result *r, struct findings *f)
{
	_cleanup_free_ size_t *to = calloc(r->n_devices ? r->n_devices : 1, sizeof(*to));
	size_t kept = 0, kb = 0, kf = 0;

	if (!to)
		return -ENOMEM;
	for (size_t i = 0; i < r->n_devices; i++)
		to[i] = selected(m, &r->devices[i], sel, n, no_idle) ? kept++ : SIZE_MAX;
	/* the disks first: their pointers name the devices' old places */
	for (size_t i = 0; i < r->n_blocks; i++) {
		struct block_report b = r->blocks[i];
		size_t at = b.dr ? (size_t)(b.dr - r->devices) : SIZE_MAX;
		if (b.dr ? to[at] == SIZE_MAX : n > 0)
			continue;
		b.dr = b.dr ? &r->devices[to[at]] : NULL;
		r->blocks[kb++] = b;
	}
	r->n_blocks = kb;
	for (size_t i = 0; i < r->n_devices; i++) {
		if (to[i] == SIZE_MAX) {
			dma_map_done(&r->devices[i].map);
			free(r->devices[i].legacy);
		} else {
			r->devices[to[i]] = r->devices[i];
		}
	}
	r->n_devices = kept;
	for (size_t i = 0; i < f->n; i++) {
		struct finding *x = &f->v[i];
		bool keep = !x->device;
		for (size_t j = 0; !keep && j < kept; j++)
			keep = strcmp(r->devices[j].dev->id, x->device) == 0;
		if (keep)
			f->v[kf++] = *x;
		else
			finding_done(x);
	}
	f->n = kf;
	return 0;
}
