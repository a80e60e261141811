/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The catalogue of findings, and the list a report collects. */
#include <stdlib.h>
#include <string.h>

#include "analysis/findings.h"
#include "shared/array.h"
#include "shared/macro.h"

static const char *const severity_names[_SEVERITY_MAX] = {
	[SEVERITY_INFO] = "info",
	[SEVERITY_WARNING] = "warning",
	[SEVERITY_ERROR] = "error",
};

const char *severity_to_string(enum severity s)
{
	return s >= 0 && s < _SEVERITY_MAX ? severity_names[s] : NULL;
}

enum severity severity_from_string(const char *s)
{
	for (int i = 0; i < _SEVERITY_MAX; i++)
		if (s && strcmp(s, severity_names[i]) == 0)
			return (enum severity)i;
	return _SEVERITY_INVALID;
}

/* In the man page's order (FINDINGS); lsblk's infos[] is the model. */
static const struct finding_info catalogue[_FINDING_ID_MAX] = {
	[FINDING_IOMEM_HIDDEN] = { "iomem-hidden", SEVERITY_INFO,
		"run as root (CAP_SYS_ADMIN) for the exact System RAM ranges" },
	[FINDING_MEMORY_LAYOUT_UNKNOWN] = { "memory-layout-unknown", SEVERITY_ERROR,
		"check the inputs list: proc/iomem (as root) or proc/zoneinfo must be readable" },
	[FINDING_LOWMEM_UNKNOWN] = { "lowmem-unknown", SEVERITY_WARNING,
		"make proc/zoneinfo readable, or capture it with the snapshot" },
	[FINDING_BOUNCE_NEEDED] = { "bounce-needed", SEVERITY_WARNING,
		"widen the driver's DMA mask if the hardware allows, enable an IOMMU, or keep its "
		"buffers in low memory" },
	[FINDING_BOUNCE_IMPOSSIBLE] = { "bounce-impossible", SEVERITY_ERROR,
		"place the swiotlb pool within the device's reach (swiotlb= and memory layout), or "
		"enable an IOMMU" },
	[FINDING_BOUNCE_MISSED] = { "bounce-missed", SEVERITY_ERROR,
		"give the queue a bounce limit that matches the reach (a contiguous mask, "
		"dma-ranges), or use a kernel that checks dma_capable()" },
	[FINDING_SWIOTLB_OUT_OF_REACH] = { "swiotlb-out-of-reach", SEVERITY_ERROR,
		"move the pool low (swiotlb placement, mem= or a restricted-dma-pool the device "
		"reaches)" },
	[FINDING_SWIOTLB_PRESSURE] = { "swiotlb-pressure", SEVERITY_WARNING,
		"enlarge it with swiotlb=<slabs> or remove the need to bounce" },
	[FINDING_FORCED_BOUNCE] = { "forced-bounce", SEVERITY_INFO,
		"expected for confidential guests; otherwise drop swiotlb=force" },
	[FINDING_MASK_NOT_CONTIGUOUS] = { "mask-not-contiguous", SEVERITY_WARNING,
		"express the reach as dma-ranges (a bus limit and offset) and keep the mask 2^n-1" },
	[FINDING_MASK_LIMITED_BY_BUS] = { "mask-limited-by-bus", SEVERITY_INFO,
		"none needed if the dma-ranges are right; otherwise fix the devicetree" },
	[FINDING_PFN_COUNT_CONFUSION] = { "pfn-count-confusion", SEVERITY_WARNING,
		"use a v3.13+ kernel (26ba47b18318, ARM: 7805/1 makes max*pfn absolute)" },
	[FINDING_DMA_OVERFLOW_LOGGED] = { "dma-overflow-logged", SEVERITY_ERROR,
		"see bounce-impossible; the log line is proof the failure happens" },
	[FINDING_XEN_PV_UNDECIDABLE] = { "xen-pv-undecidable", SEVERITY_INFO,
		"audit from the hypervisor side, or use a PVH/HVM guest" },
	[FINDING_SNAPSHOT_INCOMPLETE] = { "snapshot-incomplete", SEVERITY_ERROR,
		"capture again into an empty directory with room to spare, and let it finish; "
		"--allow-incomplete audits this one anyway" },
	[FINDING_BOUNCE_MAPPING_TOO_LARGE] = { "bounce-mapping-too-large", SEVERITY_ERROR,
		"cap the queue below the swiotlb maximum (echo N > queue/max_sectors_kb), use a "
		"kernel whose driver caps it with dma_max_mapping_size(), or remove the need to "
		"bounce" },
	[FINDING_UNTRUSTED_BOUNCE] = { "untrusted-bounce", SEVERITY_INFO,
		"none needed: the bounce protects memory around the buffer from the device" },
	[FINDING_UNTRUSTED_BOUNCE_IMPOSSIBLE] = { "untrusted-bounce-impossible", SEVERITY_ERROR,
		"give the kernel a swiotlb pool (swiotlb=<slabs>, or iommu=soft on x86), or align "
		"the driver's buffers to the IOMMU page" },
	[FINDING_PREDICTION_CONTRADICTED] = { "prediction-contradicted", SEVERITY_ERROR,
		"report it with a --capture --observe snapshot: the tool's model of this kernel is "
		"wrong here" },
	[FINDING_BOUNCE_OBSERVED] = { "bounce-observed", SEVERITY_INFO,
		"none needed if the rate is low; otherwise remove the need to bounce (a wider mask, "
		"an IOMMU)" },
};

const struct finding_info *finding_info(enum finding_id id)
{
	return id >= 0 && id < _FINDING_ID_MAX ? &catalogue[id] : NULL;
}

const char *finding_id_to_string(enum finding_id id)
{
	const struct finding_info *i = finding_info(id);
	return i ? i->name : NULL;
}

enum finding_id finding_id_from_string(const char *s)
{
	for (int i = 0; s && i < _FINDING_ID_MAX; i++)
		if (strcmp(s, catalogue[i].name) == 0)
			return (enum finding_id)i;
	return _FINDING_ID_INVALID;
}

static char *dup_or_null(const char *s, int *err)
{
	if (!s)
		return NULL;
	char *d = strdup(s);
	if (!d)
		*err = -ENOMEM;
	return d;
}

struct finding *findings_add(struct findings *f, enum finding_id id, const char *device,
			     const char *message)
{
	const struct finding_info *info = finding_info(id);

	if (f->err)
		return NULL;
	if (!info) {
		f->err = -EINVAL;
		return NULL;
	}
	if (array_full(f->n)) {
		struct finding *v = reallocarray(f->v, array_capacity(f->n), sizeof(*v));
		if (!v) {
			f->err = -ENOMEM;
			return NULL;
		}
		f->v = v;
	}
	struct finding *x = &f->v[f->n++];
	memset(x, 0, sizeof(*x));
	x->id = id;
	x->severity = info->severity;
	x->device = dup_or_null(device, &f->err);
	x->message = dup_or_null(message ? message : "", &f->err);
	x->remedy = dup_or_null(info->remedy, &f->err);
	return f->err ? NULL : x;
}

void finding_lower_severity(struct finding *x, enum severity sev)
{
	if (x && sev >= 0 && sev < x->severity)
		x->severity = sev;
}

void finding_set_remedy(struct findings *f, struct finding *x, const char *remedy)
{
	if (!x || f->err)
		return;
	char *s = dup_or_null(remedy ? remedy : "", &f->err);
	if (!s)
		return;
	free(x->remedy);
	x->remedy = s;
}

static struct evidence *add_evidence(struct findings *f, struct finding *x, const char *key,
				     enum evidence_type t)
{
	if (!x || f->err)
		return NULL;
	if (array_full(x->n_evidence)) {
		struct evidence *v = reallocarray(x->evidence, array_capacity(x->n_evidence), sizeof(*v));
		if (!v) {
			f->err = -ENOMEM;
			return NULL;
		}
		x->evidence = v;
	}
	struct evidence *e = &x->evidence[x->n_evidence++];
	memset(e, 0, sizeof(*e));
	e->key = key;
	e->type = t;
	return e;
}

void finding_add_u64(struct findings *f, struct finding *x, const char *key, uint64_t v)
{
	struct evidence *e = add_evidence(f, x, key, EVIDENCE_U64);
	if (e)
		e->u = v;
}

void finding_add_hex(struct findings *f, struct finding *x, const char *key, uint64_t v)
{
	struct evidence *e = add_evidence(f, x, key, EVIDENCE_HEX);
	if (e)
		e->u = v;
}

void finding_add_str(struct findings *f, struct finding *x, const char *key, const char *v)
{
	struct evidence *e = add_evidence(f, x, key, EVIDENCE_STR);
	if (e)
		e->s = dup_or_null(v, &f->err);
}

void finding_add_bool(struct findings *f, struct finding *x, const char *key, bool v)
{
	struct evidence *e = add_evidence(f, x, key, EVIDENCE_BOOL);
	if (e)
		e->u = v;
}

void finding_done(struct finding *x)
{
	free(x->device);
	free(x->message);
	free(x->remedy);
	for (size_t j = 0; j < x->n_evidence; j++)
		free(x->evidence[j].s);
	free(x->evidence);
}

void findings_done(struct findings *f)
{
	for (size_t i = 0; i < f->n; i++)
		finding_done(&f->v[i]);
	free(f->v);
	memset(f, 0, sizeof(*f));
}

enum severity findings_max_severity(const struct findings *f)
{
	enum severity max = _SEVERITY_INVALID;
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].severity > max)
			max = f->v[i].severity;
	return max;
}
