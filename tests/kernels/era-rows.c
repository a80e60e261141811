/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The era table of src/analysis/eras.c as text, for tests/kernels/era-table.py:
 * one line per row, tab-separated: rule, since, until, arch, value, source.
 * A version is "5.10" or "5.10.69"; "0" is an open end; arch "any" is every
 * architecture.
 *
 *   era-rows                      every row, in table order
 *   era-rows --at RELEASE MACHINE the rows era_value() answers with for a uname
 *                                 release and machine ("5.10.0-32-amd64" x86_64):
 *                                 one per rule that has one
 */
#include <stdio.h>
#include <string.h>

#include "analysis/eras.h"
#include "shared/arch.h"

static void print_version(uint32_t v, char sep)
{
	if (v == 0)
		printf("0");
	else if ((v & 0xff) == 0)
		printf("%u.%u", v >> 16, (v >> 8) & 0xff);
	else
		printf("%u.%u.%u", v >> 16, (v >> 8) & 0xff, v & 0xff);
	putchar(sep);
}

static int print_row(const struct era_row *r)
{
	const char *rule = era_rule_name(r->rule), *value = era_value_name(r->rule, r->value);
	const char *arch = r->arch == ANY_ARCH ? "any" : arch_family_to_string(r->arch);

	if (!rule || !value || !arch) {
		fprintf(stderr, "era-rows: a row of rule %d has no name for its rule, value %d or arch %d\n",
			(int)r->rule, r->value, (int)r->arch);
		return -1;
	}
	printf("%s\t", rule);
	print_version(r->since, '\t');
	print_version(r->until, '\t');
	printf("%s\t%s\t%s\n", arch, value, r->source);
	return 0;
}

/* The row era_value() took its answer from: the first of the rule whose
 * source it returned and whose range and arch hold the release. */
static const struct era_row *row_of(const struct era_row *t, unsigned n, enum era_rule rule,
				    uint32_t release, enum arch_family arch)
{
	const char *source;

	if (era_value(rule, release, arch, &source) < 0)
		return NULL;
	for (unsigned i = 0; i < n; i++)
		if (t[i].rule == rule && t[i].source == source &&
		    (t[i].arch == ANY_ARCH || t[i].arch == arch) &&
		    release >= t[i].since && (t[i].until == 0 || release < t[i].until))
			return &t[i];
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned n;
	const struct era_row *t = era_table(&n);
	int rc = 0;

	if (argc == 1) {
		for (unsigned i = 0; i < n; i++)
			if (print_row(&t[i]) < 0)
				rc = 1;
		return rc;
	}
	if (argc != 4 || strcmp(argv[1], "--at") != 0) {
		fprintf(stderr, "usage: era-rows [--at RELEASE MACHINE]\n");
		return 2;
	}
	uint32_t release;
	const struct arch_info *a = arch_lookup(argv[3]);
	if (!kernel_version_parse(argv[2], &release) || !a) {
		fprintf(stderr, "era-rows: not a release and a uname machine: %s %s\n", argv[2], argv[3]);
		return 2;
	}
	for (int rule = 0; rule < _ERA_RULE_MAX; rule++) {
		const struct era_row *r = row_of(t, n, (enum era_rule)rule, release, a->family);
		if (r && print_row(r) < 0)
			rc = 1;
	}
	return rc;
}
