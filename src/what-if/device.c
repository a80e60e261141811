/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * device=ID,mask=...: an existing device audited with another mask (as
 * --assume-mask does), or a new one, placed where like= sits (its bus, its
 * devicetree chain and dma-ranges, its IOMMU group's domain) or, without
 * like=, a PCI function on no IOMMU group.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "what-if/what-if.h"

static int add_mask(struct what_if_notes *n, const char *id, uint64_t mask)
{
	for (size_t i = 0; i < n->n_masks; i++)
		if (strcmp(n->masks[i].device, id) == 0) {
			n->masks[i].mask = mask;
			return 0;
		}
	char *d = strdup(id);
	struct assumed_mask *v = d ? reallocarray(n->masks, n->n_masks + 1, sizeof(*v)) : NULL;
	if (!v) {
		free(d);
		return -ENOMEM;
	}
	n->masks = v;
	v[n->n_masks++] = (struct assumed_mask){ d, mask };
	return 0;
}

static int dup_str(char **dst, const char *src)
{
	*dst = NULL;
	if (!src)
		return 0;
	*dst = strdup(src);
	return *dst ? 0 : -ENOMEM;
}

/* A deep copy of like's devicetree chain: the new device hangs on the same nodes. */
static int dt_copy(struct device *d, const struct dt_info *src)
{
	struct dt_info *dt;

	if (!src->n_chain && !src->node)
		return 0;
	dt = device_dt_new(d);
	if (!dt)
		return -ENOMEM;
	dt->node_is_device = src->node_is_device; /* judged on like's chain, as like is */
	if (dup_str(&dt->node, src->node) < 0)
		return -ENOMEM;
	dt->chain = calloc(src->n_chain ? src->n_chain : 1, sizeof(*dt->chain));
	if (!dt->chain)
		return -ENOMEM;
	for (size_t i = 0; i < src->n_chain; i++) {
		const struct dt_node *s = &src->chain[i];
		struct dt_node *x = &dt->chain[dt->n_chain++];
		*x = *s;
		x->path = NULL;
		x->ranges = NULL;
		if (dup_str(&x->path, s->path) < 0)
			return -ENOMEM;
		if (s->n_ranges) {
			x->ranges = calloc(s->n_ranges, sizeof(*x->ranges));
			if (!x->ranges)
				return -ENOMEM;
			memcpy(x->ranges, s->ranges, s->n_ranges * sizeof(*x->ranges));
		}
	}
	return 0;
}

/* Insert at id's place in the sorted array; the block queues' indexes follow. */
static struct device *insert_sorted(struct machine *m, const char *id)
{
	struct device *v = reallocarray(m->devices, m->n_devices + 1, sizeof(*v));
	size_t at = 0;

	if (!v)
		return NULL;
	m->devices = v;
	while (at < m->n_devices && strcmp(v[at].id, id) < 0)
		at++;
	memmove(v + at + 1, v + at, (m->n_devices - at) * sizeof(*v));
	v[at] = (struct device){ 0 };
	m->n_devices++;
	for (size_t i = 0; i < m->n_blocks; i++)
		if (m->blocks[i].dev_index.known && m->blocks[i].dev_index.v >= at)
			m->blocks[i].dev_index.v++;
	return &v[at];
}

static int new_device(struct machine *m, const struct what_if_change *c, struct what_if_notes *n, char *why)
{
	const struct device *like = NULL;
	struct device tmp = { 0 };
	int r;

	if (*c->device.like && !(like = machine_find_device(m, c->device.like))) {
		snprintf(why, WHAT_IF_WHY_MAX, "device: like=%s: no such device (see the DEVICE column)",
			 c->device.like);
		return -EINVAL;
	}
	const char *driver = *c->device.driver ? c->device.driver : like && like->driver ? like->driver : "what-if";
	r = dup_str(&tmp.id, c->device.id);
	if (r == 0)
		r = dup_str(&tmp.driver, driver);
	if (r == 0)
		r = dup_str(&tmp.syspath, like ? like->syspath : "(what-if)");
	if (r == 0 && like) {
		tmp.bus = like->bus;
		tmp.dma_signs = like->dma_signs & ~(1u << DMA_SIGN_IOMMU_UNIT);
		tmp.iommu_group = like->iommu_group;
		tmp.iommu_domain = like->iommu_domain;
		tmp.numa_node = like->numa_node;
		tmp.removable = like->removable;
		tmp.removable_absent = like->removable_absent;
		r = dup_str(&tmp.iommu_type, like->iommu_type);
		if (r == 0)
			r = dt_copy(&tmp, device_dt(like));
	}
	if (r == 0) {
		tmp.dma_signs |= tmp.bus == DEV_BUS_PCI ? 0 : 1u << DMA_SIGN_DT_DMA_CELLS;
		int bits = 64 - __builtin_clzll(c->device.mask);
		opt_set(&tmp.dma_mask_bits, bits);
		opt_set(&tmp.coherent_mask_bits, bits);
	}
	/* like and driver point into the array insert_sorted() moves */
	struct device *d = r == 0 ? insert_sorted(m, c->device.id) : NULL;
	like = NULL;
	if (!d) {
		device_done(&tmp);
		return -ENOMEM;
	}
	*d = tmp;
	r = add_mask(n, c->device.id, c->device.mask);
	if (r == 0)
		r = what_if_applied(n, "device %s added (driver %s, mask 0x%llx)%s%s", c->device.id, d->driver,
				    (unsigned long long)c->device.mask, *c->device.like ? " where " : "",
				    c->device.like);
	if (r == 0)
		r = what_if_assume(n, c->device.id,
				   *c->device.like
					   ? "a new device placed as %s is: its bus, devicetree chain and IOMMU "
					     "group's domain; it does DMA through the DMA API with the mask given"
					   : "a new PCI function%s on no IOMMU group and no devicetree window, doing "
					     "DMA through the DMA API with the mask given",
				   c->device.like);
	return r;
}

int what_if_apply_device(struct machine *m, const struct what_if_change *c, struct what_if_notes *n, char *why)
{
	const struct device *d = machine_find_device(m, c->device.id);

	if (!d)
		return new_device(m, c, n, why);
	if (*c->device.like || *c->device.driver) {
		snprintf(why, WHAT_IF_WHY_MAX, "device: %s exists: like= and driver= are for a new device; "
					       "give only its mask", c->device.id);
		return -EINVAL;
	}
	int r = add_mask(n, d->id, c->device.mask);
	if (r == 0)
		r = what_if_applied(n, "device %s audited with mask 0x%llx", d->id, (unsigned long long)c->device.mask);
	return r;
}
