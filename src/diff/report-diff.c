/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/model.h"
#include "diff/report-diff.h"
#include "shared/macro.h"

#define REPORT_SCHEMA_VERSION 2

/* The machine's facts a kernel upgrade or a hardware change moves. */
static const char *const machine_paths[] = {
	"host.hostname", "host.arch", "kernel.release", "kernel.stable_release",
	"memory.ram_bytes", "memory.base_pfn", "memory.highmem_bytes",
	"swiotlb.active", "swiotlb.size_bytes", "swiotlb.forced", "iommu.groups_present",
};

/* A device's verdict and what decides its reach. */
static const char *const device_keys[] = {
	"verdict", "unreachable_ram_bytes", "reachable_ram_bytes", "dma_mask", "bus_limit",
	"iommu_domain", "driver", "mask_source", "swiotlb_pool_reachable",
};

/* "a.b": doc's member b of member a; NULL when absent or null. */
static json_object *at(json_object *doc, const char *path)
{
	char key[64];

	while (doc && *path) {
		size_t n = strcspn(path, ".");
		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		if (!json_object_is_type(doc, json_type_object) ||
		    !json_object_object_get_ex(doc, key, &doc))
			return NULL;
		path += n + (path[n] == '.');
	}
	return json_object_is_type(doc, json_type_null) ? NULL : doc;
}

static const char *str_at(json_object *doc, const char *path)
{
	json_object *v = at(doc, path);
	return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

int verdict_severity(const char *verdict)
{
	switch (verdict_gravity(verdict_from_string(verdict))) {
	case VERDICT_GRAVITY_ERROR:
		return SEVERITY_ERROR;
	case VERDICT_GRAVITY_WARNING:
		return SEVERITY_WARNING;
	default:
		return -1;
	}
}

int report_diff_check(json_object *doc, const char **why)
{
	json_object *v = at(doc, "schema_version");
	const char *tool = str_at(doc, "tool.name");

	if (!json_object_is_type(doc, json_type_object) || !tool || strcmp(tool, "dmamask-audit") != 0)
		*why = "not a dmamask-audit JSON report (--json, without --output)";
	else if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) != REPORT_SCHEMA_VERSION)
		*why = "a report of another schema_version than 2";
	else if (!json_object_is_type(at(doc, "devices"), json_type_array) ||
		 !json_object_is_type(at(doc, "findings"), json_type_array))
		*why = "a report without its devices and findings arrays";
	else
		return 0;
	return -EINVAL;
}

static bool is_verdict(const char *s)
{
	return verdict_from_string(s) != _VERDICT_INVALID;
}

static bool is_severity(const char *s)
{
	return severity_from_string(s) != _SEVERITY_INVALID;
}

/*
 * Element e (index i of array) has key as a string that ok accepts (any
 * string when ok is NULL), or null when may_be_null; else *ret says why not.
 */
static bool member_ok(json_object *e, const char *array, size_t i, const char *key,
		      bool (*ok)(const char *), bool may_be_null, const char *want,
		      struct diff_unranked *ret)
{
	json_object *v = NULL;
	bool present = json_object_object_get_ex(e, key, &v);

	/* a NUL inside the string ("partial\u0000x") would read as its prefix */
	if (present && (v ? json_object_is_type(v, json_type_string) &&
				    strlen(json_object_get_string(v)) == (size_t)json_object_get_string_len(v) &&
				    (!ok || ok(json_object_get_string(v)))
			  : may_be_null))
		return true;
	*ret = (struct diff_unranked){
		.array = array, .index = i, .key = key, .absent = !present, .value = v,
		.owner = str_at(e, "id"), .want = want,
	};
	return false;
}

int report_diff_check_values(json_object *doc, struct diff_unranked *ret)
{
	json_object *devs = at(doc, "devices"), *fs = at(doc, "findings");
	size_t n_devs = json_object_array_length(devs), n_fs = json_object_array_length(fs);

	/* a word the schema does not have would rank as "not worse" and pass unseen */
	for (size_t i = 0; i < n_devs; i++) {
		json_object *e = json_object_array_get_idx(devs, i);
		if (!json_object_is_type(e, json_type_object)) {
			*ret = (struct diff_unranked){ .array = "devices", .index = i, .want = "an object" };
			return -EINVAL;
		}
		if (!member_ok(e, "devices", i, "id", NULL, false, "a device id (a string)", ret) ||
		    !member_ok(e, "devices", i, "verdict", is_verdict, false, "a verdict this tool knows", ret))
			return -EINVAL;
	}
	for (size_t i = 0; i < n_fs; i++) {
		json_object *e = json_object_array_get_idx(fs, i);
		if (!json_object_is_type(e, json_type_object)) {
			*ret = (struct diff_unranked){ .array = "findings", .index = i, .want = "an object" };
			return -EINVAL;
		}
		if (!member_ok(e, "findings", i, "id", NULL, false, "a finding id (a string)", ret) ||
		    !member_ok(e, "findings", i, "device", NULL, true, "a device id or null", ret) ||
		    !member_ok(e, "findings", i, "severity", is_severity, false, "a severity this tool knows", ret))
			return -EINVAL;
	}
	return 0;
}

static bool same(json_object *a, json_object *b)
{
	return (!a && !b) || (a && b && json_object_equal(a, b));
}

/* Append name's change to (*v, *n) when old and new differ. 0 or -ENOMEM. */
static int add_field(struct diff_field **v, size_t *n, const char *name, json_object *o, json_object *w)
{
	if (same(o, w))
		return 0;
	struct diff_field *g = reallocarray(*v, *n + 1, sizeof(**v));
	if (!g)
		return -ENOMEM;
	*v = g;
	g[(*n)++] = (struct diff_field){ name, o, w };
	return 0;
}

/* The element of array arr whose key is id (NULL: none). */
static json_object *find_by(json_object *arr, const char *key, const char *id)
{
	size_t n = json_object_array_length(arr);

	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(arr, i);
		const char *s = str_at(e, key);
		if (s && strcmp(s, id) == 0)
			return e;
	}
	return NULL;
}

static int64_t bytes_at(json_object *dev)
{
	json_object *v = at(dev, "unreachable_ram_bytes");
	return json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : 0;
}

static int add_device(struct report_diff *d, json_object *o, json_object *w, enum severity fail_on)
{
	struct diff_device x = {
		.id = str_at(o ? o : w, "id"),
		.kind = !o ? DIFF_ADDED : !w ? DIFF_REMOVED : DIFF_CHANGED,
		.old_verdict = str_at(o, "verdict"), .new_verdict = str_at(w, "verdict"),
		.driver = str_at(w ? w : o, "driver"),
	};
	int so = verdict_severity(x.old_verdict), sn = verdict_severity(x.new_verdict);

	if (o && w)
		for (size_t k = 0; k < ARRAY_SIZE(device_keys); k++)
			if (add_field(&x.fields, &x.n_fields, device_keys[k], at(o, device_keys[k]),
				      at(w, device_keys[k])) < 0) {
				free(x.fields);
				return -ENOMEM;
			}
	if (x.kind == DIFF_CHANGED && x.n_fields == 0)
		return 0;
	/* a verdict that rose to fail_on, or more RAM out of reach where it already bounces or fails */
	x.worse = w && sn >= (int)fail_on && (sn > so || (o && bytes_at(w) > bytes_at(o)));
	struct diff_device *g = reallocarray(d->devices, d->n_devices + 1, sizeof(*g));
	if (!g) {
		free(x.fields);
		return -ENOMEM;
	}
	d->devices = g;
	g[d->n_devices++] = x;
	d->worse |= x.worse;
	return 0;
}

static int diff_devices(struct report_diff *d, json_object *old, json_object *new, enum severity fail_on)
{
	json_object *od = at(old, "devices"), *nd = at(new, "devices");
	size_t n_old = json_object_array_length(od), n_new = json_object_array_length(nd);

	/* the newer report's order, then what it no longer has */
	for (size_t i = 0; i < n_new; i++) {
		json_object *w = json_object_array_get_idx(nd, i);
		const char *id = str_at(w, "id");
		if (id && add_device(d, find_by(od, "id", id), w, fail_on) < 0)
			return -ENOMEM;
	}
	for (size_t i = 0; i < n_old; i++) {
		json_object *o = json_object_array_get_idx(od, i);
		const char *id = str_at(o, "id");
		if (id && !find_by(nd, "id", id) && add_device(d, o, NULL, fail_on) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* The finding of arr with id on device (NULL: machine-wide). */
static json_object *find_finding(json_object *arr, const char *id, const char *device)
{
	size_t n = json_object_array_length(arr);

	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(arr, i);
		const char *fid = str_at(e, "id"), *dev = str_at(e, "device");
		if (fid && strcmp(fid, id) == 0 && (device ? dev && strcmp(dev, device) == 0 : !dev))
			return e;
	}
	return NULL;
}

static int add_finding(struct report_diff *d, json_object *o, json_object *w, enum severity fail_on)
{
	json_object *any = o ? o : w;
	struct diff_finding x = {
		.id = str_at(any, "id"), .device = str_at(any, "device"),
		.old_severity = str_at(o, "severity"), .new_severity = str_at(w, "severity"),
	};
	int so = o ? (int)severity_from_string(x.old_severity) : -1;
	int sn = w ? (int)severity_from_string(x.new_severity) : -1;

	if (o && w && so == sn)
		return 0;
	x.worse = sn >= (int)fail_on && sn > so;
	struct diff_finding *g = reallocarray(d->findings, d->n_findings + 1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	d->findings = g;
	g[d->n_findings++] = x;
	d->worse |= x.worse;
	return 0;
}

static int diff_findings(struct report_diff *d, json_object *old, json_object *new, enum severity fail_on)
{
	json_object *of = at(old, "findings"), *nf = at(new, "findings");
	size_t n_old = json_object_array_length(of), n_new = json_object_array_length(nf);

	for (size_t i = 0; i < n_new; i++) {
		json_object *w = json_object_array_get_idx(nf, i);
		const char *id = str_at(w, "id");
		if (id && add_finding(d, find_finding(of, id, str_at(w, "device")), w, fail_on) < 0)
			return -ENOMEM;
	}
	for (size_t i = 0; i < n_old; i++) {
		json_object *o = json_object_array_get_idx(of, i);
		const char *id = str_at(o, "id");
		if (id && !find_finding(nf, id, str_at(o, "device")) && add_finding(d, o, NULL, fail_on) < 0)
			return -ENOMEM;
	}
	return 0;
}

int report_diff_build(json_object *old, json_object *new, enum severity fail_on, struct report_diff *ret)
{
	struct report_diff d = { 0 };
	int r = 0;

	for (size_t i = 0; i < ARRAY_SIZE(machine_paths) && r == 0; i++)
		r = add_field(&d.machine, &d.n_machine, machine_paths[i], at(old, machine_paths[i]),
			      at(new, machine_paths[i]));
	if (r == 0)
		r = diff_devices(&d, old, new, fail_on);
	if (r == 0)
		r = diff_findings(&d, old, new, fail_on);
	if (r < 0) {
		report_diff_done(&d);
		return r;
	}
	*ret = d;
	return 0;
}

void report_diff_done(struct report_diff *d)
{
	for (size_t i = 0; i < d->n_devices; i++)
		free(d->devices[i].fields);
	free(d->devices);
	free(d->machine);
	free(d->findings);
	*d = (struct report_diff){ 0 };
}
