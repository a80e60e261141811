/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --diff's pure parts: which device is the same card (report-diff.c), and --fleet's groups (fleet-diff.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "diff/fleet-diff.h"
#include "diff/report-diff.h"

/* A report of one host: its kernel, RAM, and devices given as JSON objects. */
static json_object *report(const char *kernel, long long ram, const char *devices, const char *findings)
{
	char buf[4096];

	snprintf(buf, sizeof(buf),
		 "{\"schema_version\": 2, \"tool\": {\"name\": \"dmamask-audit\"}, \"kernel\": {\"release\": \"%s\"},"
		 " \"memory\": {\"ram_bytes\": %lld}, \"devices\": [%s], \"findings\": [%s]}",
		 kernel, ram, devices, findings);
	json_object *doc = json_tokener_parse(buf);
	assert_non_null(doc);
	const char *why = NULL;
	assert_int_equal(report_diff_check(doc, &why), 0);
	return doc;
}

#define EHCI "{\"id\": \"0000:00:02.0\", \"driver\": \"ehci-pci\", \"verdict\": \"partial\", " \
	     "\"pci_ids\": {\"vendor\": \"8086\", \"device\": \"24cd\"}, \"udev\": {\"ID_PATH\": \"pci-0000:00:02.0\"}}"
#define PCNET "{\"id\": \"0000:00:02.0\", \"driver\": \"pcnet32\", \"verdict\": \"partial\", " \
	      "\"pci_ids\": {\"vendor\": \"1022\", \"device\": \"2000\"}, \"udev\": {\"ID_PATH\": \"pci-0000:00:02.0\"}}"

static const struct diff_device *only_device(const struct report_diff *d)
{
	assert_int_equal(d->n_devices, 1);
	return &d->devices[0];
}

static void test_replaced(void **state)
{
	static const struct {
		const char *old, *new;
		enum diff_kind want;
	} cases[] = {
		/* another vendor:device in the slot */
		{ EHCI, PCNET, DIFF_REPLACED },
		/* the same ids, another udev path */
		{ EHCI,
		  "{\"id\": \"0000:00:02.0\", \"driver\": \"ehci-pci\", \"verdict\": \"fails\", "
		  "\"pci_ids\": {\"vendor\": \"8086\", \"device\": \"24cd\"}, \"udev\": {\"ID_PATH\": \"pci-x\"}}",
		  DIFF_REPLACED },
		/* ids on one side only, no udev on the other: nothing says it is another card */
		{ EHCI, "{\"id\": \"0000:00:02.0\", \"driver\": \"ehci-pci\", \"verdict\": \"fails\"}", DIFF_CHANGED },
		/* malformed ids (capitals, the report never writes them) are no ids */
		{ EHCI,
		  "{\"id\": \"0000:00:02.0\", \"driver\": \"ehci-pci\", \"verdict\": \"fails\", "
		  "\"pci_ids\": {\"vendor\": \"1022\", \"device\": \"20000\"}}",
		  DIFF_CHANGED },
		/* the same card whose verdict changed */
		{ EHCI,
		  "{\"id\": \"0000:00:02.0\", \"driver\": \"ehci-pci\", \"verdict\": \"fails\", "
		  "\"pci_ids\": {\"vendor\": \"8086\", \"device\": \"24cd\"}}",
		  DIFF_CHANGED },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_object *o = report("6.1", 1, cases[i].old, ""), *w = report("6.1", 1, cases[i].new, "");
		struct report_diff d;
		assert_int_equal(report_diff_build(o, w, SEVERITY_ERROR, &d), 0);
		const struct diff_device *x = only_device(&d);
		if (x->kind != cases[i].want)
			fail_msg("case %zu: %s, want %s", i, diff_kind_to_string(x->kind),
				 diff_kind_to_string(cases[i].want));
		if (x->kind == DIFF_REPLACED)
			assert_int_equal(x->n_fields, 0); /* another card's values are no change */
		report_diff_done(&d);
		json_object_put(o);
		json_object_put(w);
	}
}

/* The replaced card's findings are not the old card's: one removed, one added. */
static void test_replaced_findings(void **state)
{
	const char *f = "{\"id\": \"bounce-needed\", \"severity\": \"warning\", \"device\": \"0000:00:02.0\"}";
	json_object *o = report("6.1", 1, EHCI, f), *w = report("6.1", 1, PCNET, f);
	struct report_diff d;
	(void)state;

	assert_int_equal(report_diff_build(o, w, SEVERITY_WARNING, &d), 0);
	assert_int_equal(d.n_findings, 2);
	assert_non_null(d.findings[0].new_severity);
	assert_null(d.findings[0].old_severity);
	assert_true(d.findings[0].worse); /* at warning: a new card's warning, as one added */
	assert_null(d.findings[1].new_severity);
	assert_true(only_device(&d)->worse);
	assert_string_equal(only_device(&d)->old_pci_id, "8086:24cd");
	assert_string_equal(only_device(&d)->pci_id, "1022:2000");
	report_diff_done(&d);
	json_object_put(o);
	json_object_put(w);
}

/* One host's diff into f. */
static void add_host(struct fleet_diff *f, const char *host, json_object *o, json_object *w)
{
	struct report_diff d;

	assert_int_equal(report_diff_build(o, w, f->fail_on, &d), 0);
	assert_int_equal(fleet_diff_add(f, host, o, w, &d), 0);
	report_diff_done(&d);
}

static const struct fleet_group *group_of(const struct fleet_diff *f, enum fleet_subject s, const char *change)
{
	const struct fleet_group *found = NULL;

	for (size_t i = 0; i < f->n_groups; i++)
		if (f->groups[i].subject == s && strcmp(f->groups[i].change, change) == 0) {
			assert_null(found); /* one such group */
			found = &f->groups[i];
		}
	assert_non_null(found);
	return found;
}

#define AHCI(addr, verdict) "{\"id\": \"" addr "\", \"driver\": \"ahci\", \"verdict\": \"" verdict "\", " \
			    "\"pci_ids\": {\"vendor\": \"8086\", \"device\": \"2922\"}}"

static void test_fleet_groups(void **state)
{
	struct fleet_diff f;
	(void)state;

	fleet_diff_init(&f, SEVERITY_ERROR);
	/* a: the AHCI at 1f.2; b: at 17.0 and a second one at 17.1, both failing on one host */
	json_object *a0 = report("5.4", 100, AHCI("0000:00:1f.2", "partial"), "");
	json_object *a1 = report("5.3", 200, AHCI("0000:00:1f.2", "fails"), "");
	json_object *b0 = report("5.4", 100, AHCI("0000:00:17.0", "partial") "," AHCI("0000:00:17.1", "partial"), "");
	json_object *b1 = report("5.3.1", 50, AHCI("0000:00:17.0", "fails") "," AHCI("0000:00:17.1", "fails"), "");
	json_object *c0 = report("5.4", 100, AHCI("0000:00:1f.2", "partial"), "");
	add_host(&f, "a", a0, a1);
	add_host(&f, "b", b0, b1);
	add_host(&f, "c", c0, c0);
	fleet_diff_sort(&f);

	assert_int_equal(f.compared, 3);
	assert_int_equal(f.unchanged, 1);
	assert_int_equal(f.worse_hosts, 2);
	/* by card, whatever the address; b counted once for its two AHCIs */
	const struct fleet_group *g = group_of(&f, FLEET_DEVICE, "changed");
	assert_ptr_equal(g, &f.groups[0]); /* worse first */
	assert_int_equal(g->hosts, 2);
	assert_int_equal(g->worse_hosts, 2);
	assert_string_equal(g->pci_id, "8086:2922");
	assert_string_equal(g->old, "partial");
	assert_string_equal(g->new, "fails");
	assert_int_equal(g->host_names.n, 2);
	assert_string_equal(g->host_names.v[0], "a");
	assert_string_equal(g->host_names.v[1], "b");
	/* the kernels they went to, each pair once */
	assert_int_equal(g->n_kernels, 2);
	assert_int_equal(g->kernels[0].hosts + g->kernels[1].hosts, 2);
	/* RAM: the hosts' own values, grouped by direction */
	assert_int_equal(group_of(&f, FLEET_MACHINE, "rose")->hosts, 1);
	assert_int_equal(group_of(&f, FLEET_MACHINE, "fell")->hosts, 1);
	fleet_diff_done(&f);
	json_object_put(a0);
	json_object_put(a1);
	json_object_put(b0);
	json_object_put(b1);
	json_object_put(c0);
}

/* A driver that is null and one that is "" are two groups, not one. */
static void test_fleet_key_null(void **state)
{
	struct fleet_diff f;
	(void)state;

	fleet_diff_init(&f, SEVERITY_ERROR);
	json_object *o = report("6.1", 1, "{\"id\": \"x\", \"verdict\": \"direct\"}", "");
	json_object *w = report("6.1", 1, "{\"id\": \"x\", \"verdict\": \"fails\"}", "");
	json_object *o2 = report("6.1", 1, "{\"id\": \"x\", \"driver\": \"\", \"verdict\": \"direct\"}", "");
	json_object *w2 = report("6.1", 1, "{\"id\": \"x\", \"driver\": \"\", \"verdict\": \"fails\"}", "");
	add_host(&f, "a", o, w);
	add_host(&f, "b", o2, w2);
	assert_int_equal(f.n_groups, 2);
	assert_int_equal(fleet_diff_skip(&f, "p", "why"), 0);
	assert_int_equal(f.n_skipped, 1);
	fleet_diff_done(&f);
	json_object_put(o);
	json_object_put(w);
	json_object_put(o2);
	json_object_put(w2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replaced),
		cmocka_unit_test(test_replaced_findings),
		cmocka_unit_test(test_fleet_groups),
		cmocka_unit_test(test_fleet_key_null),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
