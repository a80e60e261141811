/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The catalogue of findings against the two other places that list them:
 * the JSON schema's enum and the man page's FINDINGS section (name and
 * severity), read from the source tree ($SRCDIR), so the three cannot drift.
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

#include "analysis/findings.h"

static char *slurp(const char *rel)
{
	const char *top = getenv("SRCDIR");
	char path[4096];
	char *buf = NULL;
	size_t len = 0;

	snprintf(path, sizeof(path), "%s/%s", top ? top : ".", rel);
	FILE *f = fopen(path, "re");
	assert_non_null(f);
	assert_int_equal(getdelim(&buf, &len, '\0', f) > 0, true);
	fclose(f);
	return buf;
}

static void test_names_round_trip(void **state)
{
	(void)state;
	for (int i = 0; i < _FINDING_ID_MAX; i++) {
		const struct finding_info *info = finding_info((enum finding_id)i);
		assert_non_null(info);
		assert_non_null(info->name);
		assert_non_null(info->remedy);
		assert_true(info->severity >= 0 && info->severity < _SEVERITY_MAX);
		assert_int_equal(finding_id_from_string(info->name), i);
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

static void test_severity_only_lowered(void **state)
{
	struct findings f = { 0 };
	(void)state;

	struct finding *x = findings_add(&f, FINDING_MASK_NOT_CONTIGUOUS, "dev", "m");
	assert_non_null(x);
	assert_int_equal(x->severity, SEVERITY_WARNING);
	assert_string_equal(x->remedy, finding_info(FINDING_MASK_NOT_CONTIGUOUS)->remedy);
	finding_lower_severity(x, SEVERITY_ERROR); /* never raised above the catalogue's */
	assert_int_equal(x->severity, SEVERITY_WARNING);
	finding_lower_severity(x, SEVERITY_INFO);
	assert_int_equal(x->severity, SEVERITY_INFO);
	finding_set_remedy(&f, x, "this case's own");
	assert_string_equal(x->remedy, "this case's own");
	/* an id outside the catalogue is refused, and the list says so */
	assert_null(findings_add(&f, _FINDING_ID_MAX, NULL, "m"));
	assert_int_equal(f.err, -EINVAL);
	findings_done(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_round_trip),
		cmocka_unit_test(test_schema_enum),
		cmocka_unit_test(test_man_page),
		cmocka_unit_test(test_severity_only_lowered),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
