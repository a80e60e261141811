/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The catalogue of findings against the two other places that list them:
 * the JSON schema's enum and the man page's FINDINGS section (name and
 * severity), read from the source tree ($SRCDIR), so the three cannot drift;
 * and its cases: each id raised, templates filled, severities only lowered.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "source-file.h"
#include "analysis/devices.h"
#include "analysis/findings.h"

static void test_names_round_trip(void **state)
{
	(void)state;
	for (int i = 0; i < _FINDING_ID_MAX; i++) {
		const struct finding_info *info = finding_info((enum finding_id)i);
		const char *name = finding_id_to_string((enum finding_id)i);
		assert_non_null(info);
		assert_non_null(name);
		assert_non_null(info->remedy);
		assert_true(info->severity >= 0 && info->severity < _SEVERITY_MAX);
		assert_int_equal(finding_id_from_string(name), i);
	}
	assert_null(finding_info(_FINDING_ID_MAX));
	assert_null(finding_id_to_string((enum finding_id)-1));
	assert_int_equal(finding_id_from_string("no-such-finding"), _FINDING_ID_INVALID);
}

static void test_schema_enum(void **state)
{
	char *text = slurp("schema/dmamask-audit.schema.json");
	json_object *root = json_tokener_parse(text), *defs, *finding, *props, *id, *en;
	(void)state;

	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "definitions", &defs));
	assert_true(json_object_object_get_ex(defs, "finding", &finding));
	assert_true(json_object_object_get_ex(finding, "properties", &props));
	assert_true(json_object_object_get_ex(props, "id", &id));
	assert_true(json_object_object_get_ex(id, "enum", &en));
	size_t n = json_object_array_length(en);
	bool seen[_FINDING_ID_MAX] = { false };
	/* each name once, each in the catalogue, and every one of the catalogue's there */
	for (size_t i = 0; i < n; i++) {
		const char *name = json_object_get_string(json_object_array_get_idx(en, i));
		int k = finding_id_from_string(name);
		if (k < 0)
			fail_msg("the schema's finding \"%s\" is not in the catalogue", name);
		if (seen[k])
			fail_msg("the schema names the finding \"%s\" twice", name);
		seen[k] = true;
	}
	for (int i = 0; i < _FINDING_ID_MAX; i++)
		if (!seen[i])
			fail_msg("the schema lacks the finding \"%s\"", finding_id_to_string((enum finding_id)i));
	assert_int_equal(n, _FINDING_ID_MAX);
	json_object_put(root);
	free(text);
}

/* The mask's provenance words: the schema's enum and the man page's list hold exactly the code's. */
static void test_mask_sources(void **state)
{
	char *text = slurp("schema/dmamask-audit.schema.json");
	char *man = slurp("man/dmamask-audit.8.scd");
	json_object *root = json_tokener_parse(text), *o;
	static const char *const path[] = { "properties", "devices", "items", "properties", "mask_source", "enum" };
	(void)state;

	assert_non_null(root);
	o = root;
	for (size_t i = 0; i < sizeof(path) / sizeof(*path); i++)
		assert_true(json_object_object_get_ex(o, path[i], &o));
	assert_int_equal(json_object_array_length(o), _MASK_SOURCE_MAX);
	/* the man page's device list names each one as *word*, between "*mask_source*" and "*mask_rule*, *mask_why*" */
	char *from = strstr(man, "*mask_source*\n("), *to = from ? strstr(from, "*mask_rule*, *mask_why*") : NULL;
	if (!from || !to)
		fail_msg("the man page has no \"*mask_source* (...) *mask_rule*\" list");
	else
		*to = '\0';
	for (int k = 0; k < _MASK_SOURCE_MAX; k++) {
		const char *name = mask_source_to_string((enum mask_source)k);
		bool in_schema = false;
		char word[32];
		assert_non_null(name);
		for (size_t i = 0; i < json_object_array_length(o); i++)
			in_schema |= strcmp(json_object_get_string(json_object_array_get_idx(o, i)), name) == 0;
		if (!in_schema)
			fail_msg("the schema's mask_source lacks \"%s\"", name);
		snprintf(word, sizeof(word), "*%s*", name);
		if (!strstr(from, word))
			fail_msg("the man page's mask_source list lacks %s", word);
	}
	json_object_put(root);
	free(text);
	free(man);
}

/* "*name* (severity...)" lines between "# FINDINGS" and the next "# " section. */
static void test_man_page(void **state)
{
	char *text = slurp("man/dmamask-audit.8.scd");
	bool seen[_FINDING_ID_MAX] = { false };
	char *sec = strstr(text, "\n# FINDINGS\n");
	(void)state;

	assert_non_null(sec);
	char *end = strstr(sec + 1, "\n# ");
	if (end)
		*end = '\0';
	for (char *l = sec; (l = strstr(l, "\n*"));) {
		char name[64], sev[16];
		l++;
		if (sscanf(l, "*%63[a-z0-9-]* (%15[a-z]", name, sev) != 2)
			continue;
		enum finding_id id = finding_id_from_string(name);
		if (id < 0)
			fail_msg("the man page's finding \"%s\" is not in the catalogue", name);
		assert_false(seen[id]);
		seen[id] = true;
		/* the man page gives the catalogue's severity first ("warning; info when ...") */
		if (strcmp(sev, severity_to_string(finding_info(id)->severity)) != 0)
			fail_msg("%s: the man page says %s, the catalogue %s", name, sev,
				 severity_to_string(finding_info(id)->severity));
	}
	for (int i = 0; i < _FINDING_ID_MAX; i++)
		if (!seen[i])
			fail_msg("the man page's FINDINGS lacks %s", finding_id_to_string((enum finding_id)i));
	free(text);
}

/* Every case names an id, and every id is raised in at least one case. */
static void test_cases_cover_ids(void **state)
{
	bool raised[_FINDING_ID_MAX] = { false };
	(void)state;

	for (int c = 0; c < _FINDING_CASE_MAX; c++) {
		const struct finding_case_info *k = finding_case_info((enum finding_case)c);
		if (!k)
			fail_msg("case %d has no entry in the catalogue", c);
		assert_non_null(finding_info(k->id));
		raised[k->id] = true;
	}
	for (int i = 0; i < _FINDING_ID_MAX; i++)
		if (!raised[i])
			fail_msg("no case raises %s", finding_id_to_string((enum finding_id)i));
	assert_null(finding_case_info(_FINDING_CASE_MAX));
	assert_null(finding_case_info((enum finding_case)-1));
}

/* A case is never above its id's severity (the man page's first), and a remedy of its own differs from the usual one. */
static void test_case_severity_and_remedy(void **state)
{
	(void)state;
	for (int c = 0; c < _FINDING_CASE_MAX; c++) {
		const struct finding_case_info *k = finding_case_info((enum finding_case)c);
		const struct finding_info *id = finding_info(k->id);
		enum severity sev = finding_case_severity((enum finding_case)c);
		assert_true(sev >= 0 && sev <= id->severity);
		assert_int_equal(sev, k->harmless ? SEVERITY_INFO : id->severity);
		if (k->harmless && id->severity == SEVERITY_INFO)
			fail_msg("case %d: harmless says nothing for an info finding (%s)", c,
				 finding_id_to_string(k->id));
		if (k->remedy && strcmp(k->remedy, id->remedy) == 0)
			fail_msg("case %d repeats %s's usual remedy", c, finding_id_to_string(k->id));
		assert_non_null(finding_case_remedy((enum finding_case)c));
	}
}

/* Templates name only struct finding_args' fields, and no two cases say the same. */
static void test_case_templates(void **state)
{
	const struct finding_args a = { .bytes = 3ull << 30, .max_bytes = 256 << 10, .text = "T",
					.why = "W" };
	(void)state;

	for (int c = 0; c < _FINDING_CASE_MAX; c++) {
		const struct finding_case_info *k = finding_case_info((enum finding_case)c);
		char *m = finding_case_message((enum finding_case)c, &a);
		assert_non_null(m);
		if (strchr(m, '{') || strchr(m, '}'))
			fail_msg("case %d: a placeholder the catalogue does not fill: %s", c, k->message);
		/* each placeholder the template names shows its value */
		if (strstr(k->message, "{bytes}"))
			assert_non_null(strstr(m, "3 GiB"));
		if (strstr(k->message, "{max_bytes}"))
			assert_non_null(strstr(m, "256 KiB"));
		free(m);
		for (int d = 0; d < c; d++) {
			const struct finding_case_info *o = finding_case_info((enum finding_case)d);
			if (o->id == k->id && strcmp(o->message, k->message) == 0 &&
			    o->harmless == k->harmless &&
			    strcmp(finding_case_remedy((enum finding_case)c),
				   finding_case_remedy((enum finding_case)d)) == 0)
				fail_msg("cases %d and %d are the same", d, c);
		}
	}
	/* no arguments: zeros and empty strings, never a crash */
	char *m = finding_case_message(FC_PREDICTION_CONTRADICTED, NULL);
	assert_string_equal(m, "the kernel contradicts the verdict : ");
	free(m);
	assert_null(finding_case_message(_FINDING_CASE_MAX, NULL));
}

/* A comparison whose two sizes round alike prints them exact, never "24 GiB ... 24 GiB". */
static void test_case_templates_compare_exact(void **state)
{
	const struct finding_args alike = { .bytes = (24ull << 30) - (41ull << 20), .max_bytes = 24ull << 30 };
	const struct finding_args apart = { .bytes = 23ull << 30, .max_bytes = 24ull << 30 };
	size_t compared = 0;
	(void)state;

	for (int c = 0; c < _FINDING_CASE_MAX; c++) {
		const struct finding_case_info *k = finding_case_info((enum finding_case)c);
		if (!strstr(k->message, "{bytes}") || !strstr(k->message, "{max_bytes}"))
			continue;
		compared++;
		char *m = finding_case_message((enum finding_case)c, &alike);
		assert_non_null(m);
		assert_non_null(strstr(m, "25726812160 bytes"));
		assert_non_null(strstr(m, "25769803776 bytes"));
		assert_null(strstr(m, "GiB"));
		free(m);
		m = finding_case_message((enum finding_case)c, &apart);
		assert_non_null(m);
		assert_non_null(strstr(m, "23 GiB"));
		assert_non_null(strstr(m, "24 GiB"));
		assert_null(strstr(m, "bytes"));
		free(m);
	}
	/* zones vs iomem, MemTotal vs iomem and vs zoneinfo, segment vs bounce (x2) */
	assert_true(compared >= 4);
}

static void test_raise(void **state)
{
	struct findings f = { 0 };
	(void)state;

	struct finding *x = findings_raise(&f, FC_MASK_NOT_CONTIGUOUS, "dev",
					   &(struct finding_args){ .bytes = 1536 });
	assert_non_null(x);
	assert_int_equal(x->id, FINDING_MASK_NOT_CONTIGUOUS);
	assert_int_equal(x->severity, SEVERITY_WARNING);
	assert_string_equal(x->device, "dev");
	assert_non_null(strstr(x->message, "they differ by 1.5 KiB"));
	assert_string_equal(x->remedy, finding_info(FINDING_MASK_NOT_CONTIGUOUS)->remedy);
	x = findings_raise(&f, FC_MASK_NOT_CONTIGUOUS_AGREES, NULL, NULL);
	assert_int_equal(x->severity, SEVERITY_INFO);
	assert_null(x->device);
	x = findings_raise(&f, FC_BOUNCE_MISSED_ROUNDED_WINDOW, "d", NULL);
	assert_non_null(strstr(x->remedy, "4.20+"));
	assert_int_equal(f.n, 3);
	/* a case outside the catalogue is refused, and the list says so */
	assert_null(findings_raise(&f, _FINDING_CASE_MAX, NULL, NULL));
	assert_int_equal(f.err, -EINVAL);
	assert_null(findings_raise(&f, FC_BOUNCE_NEEDED, NULL, NULL)); /* sticky */
	findings_done(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_round_trip),
		cmocka_unit_test(test_schema_enum),
		cmocka_unit_test(test_mask_sources),
		cmocka_unit_test(test_man_page),
		cmocka_unit_test(test_cases_cover_ids),
		cmocka_unit_test(test_case_severity_and_remedy),
		cmocka_unit_test(test_case_templates),
		cmocka_unit_test(test_case_templates_compare_exact),
		cmocka_unit_test(test_raise),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
