/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * analysis/verdict-catalogue.c: every reason a verdict can give is a case
 * with the verdict's own rules (an unknown says what it lacks, only a
 * failure corrupts), its words are unique, and the man page's VERDICTS entry
 * for its verdict covers it (the case's phrase is there).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include <string.h>

#include "source-file.h"
#include "analysis/verdict-catalogue.h"

/* The cases whose words come from their source (the decision's detail). */
static const enum verdict_reason detailed[] = { VR_NO_DMA_API, VR_FORCING_UNKNOWN, VR_FORCED, VR_IORT_ZEROED };

/* s with each run of blanks, tabs and newlines as one space, in place. */
static char *squeeze(char *s)
{
	char *o = s;
	for (const char *p = s; *p; p++) {
		bool blank = *p == ' ' || *p == '\t' || *p == '\n';
		if (blank && (o == s || o[-1] == ' '))
			continue;
		*o++ = blank ? ' ' : *p;
	}
	*o = '\0';
	return s;
}

static bool is_detailed(enum verdict_reason w)
{
	for (size_t i = 0; i < ARRAY_SIZE(detailed); i++)
		if (detailed[i] == w)
			return true;
	return false;
}

static void test_cases(void **state)
{
	(void)state;
	assert_null(verdict_reason_info(_VR_NONE));
	assert_null(verdict_reason_info(_VR_MAX));
	for (int w = _VR_NONE + 1; w < _VR_MAX; w++) {
		const struct verdict_reason_info *c = verdict_reason_info((enum verdict_reason)w);
		assert_non_null(c);
		if (!c->man || !*c->man)
			fail_msg("case %d has no man page phrase", w);
		if (!c->text != is_detailed((enum verdict_reason)w))
			fail_msg("case %d: words %s, but it is %s the detailed cases", w, c->text ? "given" : "absent",
				 is_detailed((enum verdict_reason)w) ? "one of" : "not one of");
		/* an unknown says what it lacks (verdict-unknown's case and remedy); no other verdict has a cause */
		if ((c->verdict == VERDICT_UNKNOWN) != (c->cause != UNKNOWN_CAUSE_OTHER))
			fail_msg("case %d: verdict %s with cause %d", w, verdict_to_string(c->verdict), c->cause);
		/* only a failure corrupts; only a translated domain is untrusted; nothing idle, direct
		 * or translated is about RAM out of reach */
		if ((c->flags & VR_MISSED_CORRUPTS) && c->verdict != VERDICT_FAILS)
			fail_msg("case %d corrupts but is %s", w, verdict_to_string(c->verdict));
		if ((c->flags & VR_UNTRUSTED) && c->verdict != VERDICT_IOMMU)
			fail_msg("case %d untrusted but is %s", w, verdict_to_string(c->verdict));
		if ((c->flags & VR_OUT_OF_REACH) &&
		    (c->verdict == VERDICT_IDLE || c->verdict == VERDICT_DIRECT || c->verdict == VERDICT_IOMMU))
			fail_msg("case %d about RAM out of reach but is %s", w, verdict_to_string(c->verdict));
		for (int o = _VR_NONE + 1; c->text && o < w; o++) {
			const char *t = verdict_reason_info((enum verdict_reason)o)->text;
			if (t && strcmp(t, c->text) == 0)
				fail_msg("cases %d and %d say the same words: \"%s\"", o, w, t);
		}
	}
}

/* Each verdict's entry, "*word*\n\t..." up to the next entry or section, holds each of its cases' phrases. */
static void test_man_page(void **state)
{
	char *text = slurp("man/dmamask-audit.8.scd");
	char *sec = strstr(text, "\n# VERDICTS\n");
	bool covered[_VERDICT_MAX] = { false };
	unsigned missing = 0;
	(void)state;

	assert_non_null(sec);
	char *end = strstr(sec + 1, "\n# ");
	assert_non_null(end);
	*end = '\0';
	for (int v = 0; v < _VERDICT_MAX; v++) {
		char head[32];
		snprintf(head, sizeof(head), "\n*%s*\n", verdict_to_string((enum verdict)v));
		char *from = strstr(sec, head);
		if (!from)
			fail_msg("the man page's VERDICTS has no *%s* entry", verdict_to_string((enum verdict)v));
		from += strlen(head);
		char *to = strstr(from, "\n\n*");
		char *entry = to ? strndup(from, (size_t)(to - from)) : strdup(from);
		assert_non_null(entry);
		squeeze(entry);
		for (int w = _VR_NONE + 1; w < _VR_MAX; w++) {
			const struct verdict_reason_info *c = verdict_reason_info((enum verdict_reason)w);
			if (c->verdict != (enum verdict)v)
				continue;
			covered[v] = true;
			char *phrase = strdup(c->man);
			assert_non_null(phrase);
			if (!strstr(entry, squeeze(phrase))) {
				print_error("the man page's *%s* entry lacks \"%s\" (case %d: %s)\n",
					    verdict_to_string((enum verdict)v), phrase, w, c->text ? c->text : "detailed");
				missing++;
			}
			free(phrase);
		}
		free(entry);
	}
	if (missing)
		fail_msg("%u cases the man page does not cover", missing);
	/* every verdict is some case's: none is left to code outside the catalogue */
	for (int v = 0; v < _VERDICT_MAX; v++)
		if (!covered[v])
			fail_msg("no case gives verdict %s", verdict_to_string((enum verdict)v));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_man_page),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
