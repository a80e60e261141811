/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "diff/fleet-diff.h"
#include "shared/macro.h"
#include "shared/strbuf.h"
#include "shared/string-table.h"

static const char *const fleet_subject_table[_FLEET_SUBJECT_MAX] = {
	[FLEET_MACHINE] = "machine", [FLEET_DEVICE] = "device", [FLEET_FINDING] = "finding",
};
DEFINE_STRING_TABLE_LOOKUP_TO_STRING(fleet_subject, enum fleet_subject);

void fleet_diff_init(struct fleet_diff *f, enum severity fail_on)
{
	*f = (struct fleet_diff){ .fail_on = fail_on, .index = STRMAP_INIT, .note_index = STRMAP_INIT };
}

/* What a group is, before its hosts: the words that make its key. */
struct change {
	enum fleet_subject subject;
	const char *change, *name, *driver, *pci_id, *old_driver, *old_pci_id, *old, *new, *fields;
	bool machine_wide, worse;
};

static int dup_or_null(const char *s, char **ret)
{
	*ret = NULL;
	if (s && !(*ret = strdup(s)))
		return -ENOMEM;
	return 0;
}

/* Each word, then a unit separator: NULL and "" differ ("\x1e" for NULL), so no two keys meet. */
static char *change_key(const struct change *c)
{
	const char *words[] = { fleet_subject_to_string(c->subject), c->change, c->name, c->driver, c->pci_id,
				c->old_driver, c->old_pci_id, c->old, c->new, c->fields,
				c->machine_wide ? "machine" : "" };
	struct strbuf b = { 0 };

	for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
		strbuf_append(&b, words[i] ? words[i] : "\x1e");
		strbuf_append(&b, "\x1f");
	}
	return strbuf_steal(&b);
}

static void group_done(struct fleet_group *g)
{
	free(g->change);
	free(g->name);
	free(g->driver);
	free(g->pci_id);
	free(g->old_driver);
	free(g->old_pci_id);
	free(g->old);
	free(g->new);
	free(g->fields);
	strv_done(&g->host_names);
	for (size_t i = 0; i < g->n_kernels; i++) {
		free(g->kernels[i].old);
		free(g->kernels[i].new);
	}
	free(g->kernels);
}

static int group_new(const struct change *c, struct fleet_group *ret)
{
	struct fleet_group g = { .subject = c->subject, .machine_wide = c->machine_wide };

	if (dup_or_null(c->change, &g.change) < 0 || dup_or_null(c->name, &g.name) < 0 ||
	    dup_or_null(c->driver, &g.driver) < 0 || dup_or_null(c->pci_id, &g.pci_id) < 0 ||
	    dup_or_null(c->old_driver, &g.old_driver) < 0 || dup_or_null(c->old_pci_id, &g.old_pci_id) < 0 ||
	    dup_or_null(c->old, &g.old) < 0 || dup_or_null(c->new, &g.new) < 0 ||
	    dup_or_null(c->fields, &g.fields) < 0) {
		group_done(&g);
		return -ENOMEM;
	}
	*ret = g;
	return 0;
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static int add_kernels(struct fleet_group *g, const char *old, const char *new)
{
	for (size_t i = 0; i < g->n_kernels; i++)
		if (same_str(g->kernels[i].old, old) && same_str(g->kernels[i].new, new)) {
			g->kernels[i].hosts++;
			return 0;
		}
	struct fleet_kernels k = { .hosts = 1 };
	if (dup_or_null(old, &k.old) < 0 || dup_or_null(new, &k.new) < 0) {
		free(k.old);
		return -ENOMEM;
	}
	struct fleet_kernels *v = reallocarray(g->kernels, g->n_kernels + 1, sizeof(*v));
	if (!v) {
		free(k.old);
		free(k.new);
		return -ENOMEM;
	}
	g->kernels = v;
	v[g->n_kernels++] = k;
	return 0;
}

struct host {
	const char *name, *old_kernel, *new_kernel;
	bool worse_counted; /* in the group last added to, for this host */
};

/* c on host h: a group's host once however many of its devices changed alike. */
static int add_change(struct fleet_diff *f, struct host *h, const struct change *c)
{
	_cleanup_free_ char *key = change_key(c);
	struct fleet_group *g;
	int r;

	if (!key)
		return -ENOMEM;
	struct strmap_entry *e = strmap_get(&f->index, key);
	if (e)
		g = &f->groups[e->value];
	else {
		if (f->n_groups >= (size_t)INT32_MAX)
			return -ENOMEM;
		struct fleet_group *v = reallocarray(f->groups, f->n_groups + 1, sizeof(*v));
		if (!v)
			return -ENOMEM;
		f->groups = v;
		r = group_new(c, &v[f->n_groups]);
		if (r < 0)
			return r;
		r = strmap_add(&f->index, key, (int)f->n_groups);
		if (r < 0) {
			group_done(&v[f->n_groups]);
			return r;
		}
		g = &v[f->n_groups++];
	}
	bool again = g->host_names.n && strcmp(g->host_names.v[g->host_names.n - 1], h->name) == 0;
	if (!again) {
		if (strv_push(&g->host_names, h->name) < 0 || add_kernels(g, h->old_kernel, h->new_kernel) < 0)
			return -ENOMEM;
		g->hosts++;
		h->worse_counted = false;
	}
	if (c->worse && !(again && h->worse_counted)) {
		g->worse_hosts++;
		h->worse_counted = true;
	}
	return 0;
}

/* A machine value as text for a key: strings and booleans; numbers go by direction instead. */
static const char *scalar_text(json_object *v)
{
	if (json_object_is_type(v, json_type_string))
		return json_object_get_string(v);
	if (json_object_is_type(v, json_type_boolean))
		return json_object_get_boolean(v) ? "true" : "false";
	return NULL;
}

static bool is_number(json_object *v)
{
	return json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double);
}

static int add_machine(struct fleet_diff *f, struct host *h, const struct diff_field *x)
{
	struct change c = { .subject = FLEET_MACHINE, .name = x->name, .change = "changed" };

	/* a host's own numbers (its RAM, its pool) would make a group a host: the direction groups them */
	if (is_number(x->old_value) && is_number(x->new_value))
		c.change = json_object_get_double(x->new_value) > json_object_get_double(x->old_value) ? "rose"
													 : "fell";
	else if (is_number(x->old_value) && !x->new_value)
		c.change = "unset";
	else if (!x->old_value && is_number(x->new_value))
		c.change = "set";
	else {
		c.old = x->old_value ? scalar_text(x->old_value) ?: "(a value)" : NULL;
		c.new = x->new_value ? scalar_text(x->new_value) ?: "(a value)" : NULL;
	}
	return add_change(f, h, &c);
}

static int add_device(struct fleet_diff *f, struct host *h, const struct diff_device *x)
{
	struct change c = {
		.subject = FLEET_DEVICE, .change = diff_kind_to_string(x->kind), .driver = x->driver,
		.pci_id = *x->pci_id ? x->pci_id : NULL, .old = x->old_verdict, .new = x->new_verdict,
		.worse = x->worse,
	};
	_cleanup_free_ char *fields = NULL;

	if (x->kind == DIFF_REPLACED) {
		c.old_driver = x->old_driver;
		c.old_pci_id = *x->old_pci_id ? x->old_pci_id : NULL;
	}
	/* the same verdict: what changed instead names the group (not its values: the host's own) */
	if (x->kind == DIFF_CHANGED && same_str(x->old_verdict, x->new_verdict)) {
		struct strbuf b = { 0 };
		for (size_t i = 0; i < x->n_fields; i++) {
			if (b.len)
				strbuf_append(&b, ",");
			strbuf_append(&b, x->fields[i].name);
		}
		fields = strbuf_steal(&b);
		if (!fields)
			return -ENOMEM;
		c.fields = fields;
	}
	return add_change(f, h, &c);
}

/* The device of doc with id, or NULL. */
static json_object *device_in(json_object *doc, const char *id)
{
	json_object *devs = diff_at(doc, "devices");
	size_t n = json_object_array_length(devs);

	for (size_t i = 0; id && i < n; i++) {
		json_object *e = json_object_array_get_idx(devs, i);
		const char *s = diff_str_at(e, "id");
		if (s && strcmp(s, id) == 0)
			return e;
	}
	return NULL;
}

static int add_finding(struct fleet_diff *f, struct host *h, json_object *old, json_object *new,
		       const struct diff_finding *x)
{
	/* the device as its side has it: by card, as the device groups are */
	json_object *dev = device_in(x->new_severity ? new : old, x->device);
	char pci_id[PCI_ID_MAX] = "";
	struct change c = {
		.subject = FLEET_FINDING, .name = x->id, .old = x->old_severity, .new = x->new_severity,
		.change = !x->old_severity ? "added" : !x->new_severity ? "removed" : "severity",
		.machine_wide = !x->device, .driver = diff_str_at(dev, "driver"), .worse = x->worse,
	};

	if (dev)
		diff_pci_id(dev, pci_id);
	c.pci_id = *pci_id ? pci_id : NULL;
	return add_change(f, h, &c);
}

int fleet_diff_add(struct fleet_diff *f, const char *host, json_object *old, json_object *new,
		   const struct report_diff *d)
{
	struct host h = {
		.name = host, .old_kernel = diff_str_at(old, "kernel.release"),
		.new_kernel = diff_str_at(new, "kernel.release"),
	};
	int r = 0;

	f->compared++;
	if (!d->n_machine && !d->n_devices && !d->n_findings)
		f->unchanged++;
	f->worse_hosts += d->worse;
	for (size_t i = 0; i < d->n_machine && r == 0; i++)
		r = add_machine(f, &h, &d->machine[i]);
	for (size_t i = 0; i < d->n_devices && r == 0; i++)
		r = add_device(f, &h, &d->devices[i]);
	for (size_t i = 0; i < d->n_findings && r == 0; i++)
		r = add_finding(f, &h, old, new, &d->findings[i]);
	return r;
}

int fleet_diff_skip(struct fleet_diff *f, const char *source, const char *why)
{
	struct fleet_skipped s;

	if (dup_or_null(source, &s.source) < 0)
		return -ENOMEM;
	if (dup_or_null(why, &s.why) < 0) {
		free(s.source);
		return -ENOMEM;
	}
	struct fleet_skipped *v = reallocarray(f->skipped, f->n_skipped + 1, sizeof(*v));
	if (!v) {
		free(s.source);
		free(s.why);
		return -ENOMEM;
	}
	f->skipped = v;
	v[f->n_skipped++] = s;
	return 0;
}

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ?: "", b ?: "");
}

static int group_cmp(const void *a, const void *b)
{
	const struct fleet_group *x = a, *y = b;
	int c;

	if ((x->worse_hosts > 0) != (y->worse_hosts > 0))
		return x->worse_hosts > 0 ? -1 : 1;
	if (x->hosts != y->hosts)
		return x->hosts > y->hosts ? -1 : 1;
	if (x->subject != y->subject)
		return x->subject < y->subject ? -1 : 1;
	const char *const xs[] = { x->name, x->driver, x->pci_id, x->change, x->old, x->new, x->fields };
	const char *const ys[] = { y->name, y->driver, y->pci_id, y->change, y->old, y->new, y->fields };
	for (size_t i = 0; i < ARRAY_SIZE(xs); i++)
		if ((c = cmp_str(xs[i], ys[i])) != 0)
			return c;
	return cmp_str(x->old_pci_id, y->old_pci_id);
}

static int kernels_cmp(const void *a, const void *b)
{
	const struct fleet_kernels *x = a, *y = b;
	int c;

	if (x->hosts != y->hosts)
		return x->hosts > y->hosts ? -1 : 1;
	c = cmp_str(x->old, y->old);
	return c ? c : cmp_str(x->new, y->new);
}

/* Most hosts first, then by text. */
static int note_cmp(const void *a, const void *b)
{
	const struct fleet_note *x = a, *y = b;

	if (x->hosts != y->hosts)
		return x->hosts > y->hosts ? -1 : 1;
	return strcmp(x->text, y->text);
}

void fleet_diff_sort(struct fleet_diff *f)
{
	for (size_t i = 0; i < f->n_groups; i++)
		if (f->groups[i].n_kernels > 1)
			qsort(f->groups[i].kernels, f->groups[i].n_kernels, sizeof(struct fleet_kernels),
			      kernels_cmp);
	if (f->n_groups > 1)
		qsort(f->groups, f->n_groups, sizeof(*f->groups), group_cmp);
	if (f->n_notes > 1)
		qsort(f->notes, f->n_notes, sizeof(*f->notes), note_cmp);
	/* the indexes point at the order groups and notes were made in */
	strmap_done(&f->index);
	strmap_done(&f->note_index);
}

int fleet_diff_notes(struct fleet_diff *f, const char *const *texts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		bool seen = false;
		for (size_t k = 0; k < i && !seen; k++)
			seen = strcmp(texts[k], texts[i]) == 0;
		if (seen)
			continue;
		const struct strmap_entry *e = strmap_get(&f->note_index, texts[i]);
		size_t j = e ? (size_t)e->value : f->n_notes;
		if (!e) {
			char *t = strdup(texts[i]);
			struct fleet_note *v = t ? reallocarray(f->notes, f->n_notes + 1, sizeof(*v)) : NULL;
			if (!v || f->n_notes >= INT_MAX || strmap_add(&f->note_index, t, (int)j) < 0) {
				free(t);
				if (v)
					f->notes = v;
				return -ENOMEM;
			}
			f->notes = v;
			v[f->n_notes++] = (struct fleet_note){ t, 0 };
		}
		f->notes[j].hosts++;
	}
	return 0;
}

void fleet_diff_done(struct fleet_diff *f)
{
	for (size_t i = 0; i < f->n_notes; i++)
		free(f->notes[i].text);
	free(f->notes);
	strmap_done(&f->note_index);
	for (size_t i = 0; i < f->n_groups; i++)
		group_done(&f->groups[i]);
	free(f->groups);
	strmap_done(&f->index);
	for (size_t i = 0; i < f->n_skipped; i++) {
		free(f->skipped[i].source);
		free(f->skipped[i].why);
	}
	free(f->skipped);
	*f = (struct fleet_diff){ 0 };
}
