/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/model.h"
#include "diff/report-diff.h"
#include "shared/macro.h"
#include "shared/string-table.h"

#define REPORT_SCHEMA_VERSION 2

static const char *const diff_kind_table[_DIFF_KIND_MAX] = {
	[DIFF_ADDED] = "added", [DIFF_REMOVED] = "removed", [DIFF_CHANGED] = "changed",
	[DIFF_REPLACED] = "replaced",
};
DEFINE_STRING_TABLE_LOOKUP_TO_STRING(diff_kind, enum diff_kind);

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
json_object *diff_at(json_object *doc, const char *path)
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

const char *diff_str_at(json_object *doc, const char *path)
{
	json_object *v = diff_at(doc, path);
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
	json_object *v = diff_at(doc, "schema_version");
	const char *tool = diff_str_at(doc, "tool.name");

	if (!json_object_is_type(doc, json_type_object) || !tool || strcmp(tool, "dmamask-audit") != 0)
		*why = "not a dmamask-audit JSON report (--json, without --output)";
	else if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) != REPORT_SCHEMA_VERSION)
		*why = "a report of another schema_version than 2";
	else if (!json_object_is_type(diff_at(doc, "devices"), json_type_array) ||
		 !json_object_is_type(diff_at(doc, "findings"), json_type_array))
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
		.owner = diff_str_at(e, "id"), .want = want,
	};
	return false;
}

int report_diff_check_values(json_object *doc, struct diff_unranked *ret)
{
	json_object *devs = diff_at(doc, "devices"), *fs = diff_at(doc, "findings");
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
		const char *s = diff_str_at(e, key);
		if (s && strcmp(s, id) == 0)
			return e;
	}
	return NULL;
}

static int64_t bytes_at(json_object *dev)
{
	json_object *v = diff_at(dev, "unreachable_ram_bytes");
	return json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : 0;
}

/* 4 lower-case hex digits, as the report writes a PCI id. */
static bool is_pci_hex(const char *s)
{
	if (!s || strlen(s) != 4)
		return false;
	for (size_t i = 0; i < 4; i++)
		if (!strchr("0123456789abcdef", s[i]))
			return false;
	return true;
}

void diff_pci_id(json_object *dev, char buf[static PCI_ID_MAX])
{
	const char *v = diff_str_at(dev, "pci_ids.vendor"), *d = diff_str_at(dev, "pci_ids.device");

	buf[0] = '\0';
	if (is_pci_hex(v) && is_pci_hex(d)) {
		memcpy(buf, v, 4);
		buf[4] = ':';
		memcpy(buf + 5, d, 5);
	}
}

/* Two strings that both sides have and that differ: NULL on either side says nothing. */
static bool both_differ(const char *a, const char *b)
{
	return a && b && strcmp(a, b) != 0;
}

/*
 * The same card in the slot: a QEMU guest given a pcnet32 where its EHCI was
 * keeps the address 0000:00:02.0, and its "partial" is no regression of the
 * EHCI's "direct". udev's ID_PATH names the slot's path (path_id's
 * "pci-0000:00:02.0"), where the address alone can be reused by another bus.
 */
static bool same_card(json_object *o, json_object *w)
{
	char a[PCI_ID_MAX], b[PCI_ID_MAX];

	diff_pci_id(o, a);
	diff_pci_id(w, b);
	return !(*a && *b && strcmp(a, b) != 0) &&
	       !both_differ(diff_str_at(o, "udev.ID_PATH"), diff_str_at(w, "udev.ID_PATH"));
}

static int add_device(struct report_diff *d, json_object *o, json_object *w, enum severity fail_on)
{
	bool replaced = o && w && !same_card(o, w);
	struct diff_device x = {
		.id = diff_str_at(o ? o : w, "id"),
		.kind = replaced ? DIFF_REPLACED : !o ? DIFF_ADDED : !w ? DIFF_REMOVED : DIFF_CHANGED,
		.old_verdict = diff_str_at(o, "verdict"), .new_verdict = diff_str_at(w, "verdict"),
		.driver = diff_str_at(w ? w : o, "driver"),
		.old_driver = replaced ? diff_str_at(o, "driver") : NULL,
		.old_id_path = replaced ? diff_str_at(o, "udev.ID_PATH") : NULL,
		.id_path = replaced ? diff_str_at(w, "udev.ID_PATH") : NULL,
	};
	int so = verdict_severity(x.old_verdict), sn = verdict_severity(x.new_verdict);

	diff_pci_id(w ? w : o, x.pci_id);
	if (replaced)
		diff_pci_id(o, x.old_pci_id);
	/* another card's values are not a change of this one's: it is judged as one added */
	/* RAM that a device reaching all of it (or doing no DMA) reaches: more or less RAM, not a change of it */
	bool reach_moot = x.kind == DIFF_CHANGED && x.old_verdict && x.new_verdict &&
			  strcmp(x.old_verdict, x.new_verdict) == 0 &&
			  (strcmp(x.old_verdict, "idle") == 0 || strcmp(x.old_verdict, "direct") == 0 ||
			   strcmp(x.old_verdict, "iommu") == 0);
	if (x.kind == DIFF_CHANGED)
		for (size_t k = 0; k < ARRAY_SIZE(device_keys); k++)
			if (!(reach_moot && strcmp(device_keys[k], "reachable_ram_bytes") == 0) &&
			    add_field(&x.fields, &x.n_fields, device_keys[k], diff_at(o, device_keys[k]),
				      diff_at(w, device_keys[k])) < 0) {
				free(x.fields);
				return -ENOMEM;
			}
	if (x.kind == DIFF_CHANGED && x.n_fields == 0)
		return 0;
	if (replaced)
		so = -1;
	/* a verdict that rose to fail_on, or more RAM out of reach where it already bounces or fails */
	x.worse = w && sn >= (int)fail_on && (sn > so || (x.kind == DIFF_CHANGED && bytes_at(w) > bytes_at(o)));
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
	json_object *od = diff_at(old, "devices"), *nd = diff_at(new, "devices");
	size_t n_old = json_object_array_length(od), n_new = json_object_array_length(nd);

	/* the newer report's order, then what it no longer has */
	for (size_t i = 0; i < n_new; i++) {
		json_object *w = json_object_array_get_idx(nd, i);
		const char *id = diff_str_at(w, "id");
		if (id && add_device(d, find_by(od, "id", id), w, fail_on) < 0)
			return -ENOMEM;
	}
	for (size_t i = 0; i < n_old; i++) {
		json_object *o = json_object_array_get_idx(od, i);
		const char *id = diff_str_at(o, "id");
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
		const char *fid = diff_str_at(e, "id"), *dev = diff_str_at(e, "device");
		if (fid && strcmp(fid, id) == 0 && (device ? dev && strcmp(dev, device) == 0 : !dev))
			return e;
	}
	return NULL;
}

static int add_finding(struct report_diff *d, json_object *o, json_object *w, enum severity fail_on)
{
	json_object *any = o ? o : w;
	struct diff_finding x = {
		.id = diff_str_at(any, "id"), .device = diff_str_at(any, "device"),
		.old_severity = diff_str_at(o, "severity"), .new_severity = diff_str_at(w, "severity"),
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

/* The device at id is another card than before: its findings are the new card's, not changes. */
static bool is_replaced(const struct report_diff *d, const char *device)
{
	for (size_t i = 0; device && i < d->n_devices; i++)
		if (d->devices[i].kind == DIFF_REPLACED && strcmp(d->devices[i].id, device) == 0)
			return true;
	return false;
}

static int diff_findings(struct report_diff *d, json_object *old, json_object *new, enum severity fail_on)
{
	json_object *of = diff_at(old, "findings"), *nf = diff_at(new, "findings");
	size_t n_old = json_object_array_length(of), n_new = json_object_array_length(nf);

	for (size_t i = 0; i < n_new; i++) {
		json_object *w = json_object_array_get_idx(nf, i);
		const char *id = diff_str_at(w, "id"), *dev = diff_str_at(w, "device");
		if (id && add_finding(d, is_replaced(d, dev) ? NULL : find_finding(of, id, dev), w, fail_on) < 0)
			return -ENOMEM;
	}
	for (size_t i = 0; i < n_old; i++) {
		json_object *o = json_object_array_get_idx(of, i);
		const char *id = diff_str_at(o, "id"), *dev = diff_str_at(o, "device");
		if (id && (is_replaced(d, dev) || !find_finding(nf, id, dev)) && add_finding(d, o, NULL, fail_on) < 0)
			return -ENOMEM;
	}
	return 0;
}

int report_diff_build(json_object *old, json_object *new, enum severity fail_on, struct report_diff *ret)
{
	struct report_diff d = { 0 };
	int r = 0;

	for (size_t i = 0; i < ARRAY_SIZE(machine_paths) && r == 0; i++)
		r = add_field(&d.machine, &d.n_machine, machine_paths[i], diff_at(old, machine_paths[i]),
			      diff_at(new, machine_paths[i]));
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
