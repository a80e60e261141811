/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/readers/cmdline.c: the parameters of the command line, split as the kernel splits them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "readers/readers.h"
#include "fake-root.h"
#include "shortcuts.h"

struct expect {
	bool force, noforce, have_slabs;
	uint64_t slabs;
	bool force_areas, noforce_areas; /* the word after <slabs>,<areas> */
	enum swiotlb_word last;          /* NONE: the one plain word given, if any */
	bool have_areas;
	uint64_t areas;                  /* <areas> as written */
};

static void check(const char *cmdline, struct expect e)
{
	struct cmdline_params p;
	enum swiotlb_word last = e.last ? e.last
				 : e.force ? SWIOTLB_WORD_FORCE
				 : e.noforce ? SWIOTLB_WORD_NOFORCE : SWIOTLB_WORD_NONE;

	memset(&p, 0xa5, sizeof(p)); /* whatever was there is replaced */
	cmdline_parse_params(cmdline, &p);
	if (p.swiotlb_force != e.force || p.swiotlb_noforce != e.noforce ||
	    p.swiotlb_force_areas != e.force_areas || p.swiotlb_noforce_areas != e.noforce_areas ||
	    p.swiotlb_last_word != last ||
	    p.swiotlb_slabs.known != e.have_slabs || (e.have_slabs && p.swiotlb_slabs.v != e.slabs))
		fail_msg("\"%s\": force=%d noforce=%d areas %d %d last %d slabs=%d/%llu, expected %d %d "
			 "areas %d %d last %d %d/%llu", cmdline, p.swiotlb_force, p.swiotlb_noforce,
			 p.swiotlb_force_areas, p.swiotlb_noforce_areas, (int)p.swiotlb_last_word,
			 p.swiotlb_slabs.known, (unsigned long long)p.swiotlb_slabs.v, e.force, e.noforce,
			 e.force_areas, e.noforce_areas, (int)last, e.have_slabs, (unsigned long long)e.slabs);
	if (p.swiotlb_areas.known != e.have_areas || (e.have_areas && p.swiotlb_areas.v != e.areas))
		fail_msg("\"%s\": areas %d/%llu, expected %d/%llu", cmdline, p.swiotlb_areas.known,
			 (unsigned long long)p.swiotlb_areas.v, e.have_areas, (unsigned long long)e.areas);
}

static void test_cmdline_forms(void **state)
{
	(void)state;
	check("BOOT_IMAGE=/vmlinuz root=/dev/vda1 ro swiotlb=noforce quiet",
	      (struct expect){ .noforce = true });
	check("swiotlb=65536,force", (struct expect){ .force = true, .have_slabs = true, .slabs = 65536 });
	/* rounded up to IO_TLB_SEGSIZE */
	check("swiotlb=1000", (struct expect){ .have_slabs = true, .slabs = 1024 });
	check("swiotlb=1", (struct expect){ .have_slabs = true, .slabs = 128 });
	check("swiotlb=0", (struct expect){ .have_slabs = true, .slabs = 0 });
	/* simple_strtoul base 0: hex, octal; then <areas> */
	/* after an <areas> field: a word only 6.0+ reads (before, "4,force" is no word) */
	check("swiotlb=0x100,4,force", (struct expect){ .force_areas = true, .have_slabs = true, .slabs = 256,
						       .have_areas = true, .areas = 4 });
	check("swiotlb=32768,8,noforce", (struct expect){ .noforce_areas = true, .have_slabs = true,
							 .slabs = 32768, .have_areas = true, .areas = 8 });
	/* <areas> alone, 0 as written (swiotlb_adjust_nareas makes it one area) */
	check("swiotlb=,0x10", (struct expect){ .have_areas = true, .areas = 16 });
	check("swiotlb=1024,0", (struct expect){ .have_slabs = true, .slabs = 1024, .have_areas = true });
	check("swiotlb=0200", (struct expect){ .have_slabs = true, .slabs = 128 });
	check("swiotlb=,force", (struct expect){ .force = true });
	check("swiotlb=force", (struct expect){ .force = true });
	check("swiotlb=32768,noforce", (struct expect){ .noforce = true, .have_slabs = true, .slabs = 32768 });
}

static void test_cmdline_not_matched(void **state)
{
	(void)state;
	check("", (struct expect){ 0 });
	check("noswiotlb=force xswiotlb=1 swiotlb_x=force", (struct expect){ 0 });
	check("swiotlb= quiet", (struct expect){ 0 });
	check("swiotlb", (struct expect){ 0 });
	/* not a whole word */
	check("swiotlb=forced swiotlb=noforcex", (struct expect){ 0 });
	/* after "--" the parameters are init's */
	check("ro -- swiotlb=force", (struct expect){ 0 });
}

static void test_cmdline_repeated(void **state)
{
	(void)state;
	/* the numbers: the last wins */
	check("swiotlb=1024 swiotlb=2048", (struct expect){ .have_slabs = true, .slabs = 2048 });
	/* each occurrence applies on top of the earlier ones */
	check("swiotlb=force swiotlb=4096", (struct expect){ .force = true, .have_slabs = true, .slabs = 4096 });
	check("swiotlb=force swiotlb=noforce",
	      (struct expect){ .force = true, .noforce = true, .last = SWIOTLB_WORD_NOFORCE });
	check("swiotlb=noforce swiotlb=force",
	      (struct expect){ .force = true, .noforce = true, .last = SWIOTLB_WORD_FORCE });
	/* a word after <areas> is not the last plain one */
	check("swiotlb=force swiotlb=1,2,noforce",
	      (struct expect){ .force = true, .noforce_areas = true, .have_slabs = true, .slabs = 128,
			       .have_areas = true, .areas = 2 });
	/* a later <areas> replaces an earlier one; one without it keeps it */
	check("swiotlb=1,2 swiotlb=1,8 swiotlb=4096",
	      (struct expect){ .have_slabs = true, .slabs = 4096, .have_areas = true, .areas = 8 });
}

static void test_cmdline_quotes(void **state)
{
	(void)state;
	check("swiotlb=\"65536,force\" ro", (struct expect){ .force = true, .have_slabs = true, .slabs = 65536 });
	check("\"swiotlb=force\"", (struct expect){ .force = true });
	/* blanks inside quotes do not split parameters */
	check("dyndbg=\"file x.c +p swiotlb=force\" ro", (struct expect){ 0 });
	check("  \tswiotlb=noforce\n", (struct expect){ .noforce = true });
}

static bool iommu_off(const char *cmdline)
{
	struct cmdline_params p;

	cmdline_parse_params(cmdline, &p);
	return p.iommu_off;
}

/* x86 iommu_setup(): comma-separated words, each matched by prefix. */
static void test_cmdline_iommu_off(void **state)
{
	(void)state;
	assert_true(iommu_off("ro iommu=off quiet"));
	assert_true(iommu_off("iommu=soft,off"));
	assert_true(iommu_off("iommu=offx"));
	assert_true(iommu_off("iommu=pt iommu=off"));
	assert_false(iommu_off("iommu=pt"));
	assert_false(iommu_off("iommu=nooff intel_iommu=off"));
	assert_false(iommu_off("iommu.passthrough=1 iommu= iommu"));
	assert_false(iommu_off("iommu=of"));
	assert_false(iommu_off("ro -- iommu=off"));
}

/* soft, pt and nopt: prefixes too; the later of pt and nopt wins. */
static void test_cmdline_iommu_words(void **state)
{
	struct cmdline_params p;
	(void)state;

	cmdline_parse_params("iommu=soft", &p);
	assert_true(p.iommu_soft && !p.iommu_pt && !p.iommu_off);
	cmdline_parse_params("iommu=pt", &p);
	assert_true(p.iommu_pt && !p.iommu_soft);
	cmdline_parse_params("iommu=pt,nopt", &p);
	assert_false(p.iommu_pt);
	cmdline_parse_params("iommu=nopt iommu=pt", &p);
	assert_true(p.iommu_pt);
	/* intel_iommu= is another parameter; iommu.passthrough= (4.16) sets the default domain too */
	cmdline_parse_params("intel_iommu=pt", &p);
	assert_false(p.iommu_pt || p.iommu_soft);
	cmdline_parse_params("intel_iommu=pt iommu.passthrough=1", &p);
	assert_true(p.iommu_pt && !p.iommu_soft);
	cmdline_parse_params("iommu=pt iommu.passthrough=off", &p);
	assert_false(p.iommu_pt);
	cmdline_parse_params("iommu.passthrough=on", &p);
	assert_true(p.iommu_pt);
	cmdline_parse_params("iommu.passthrough= iommu.passthrough=x", &p);
	assert_false(p.iommu_pt);
}

/* read_cmdline() keeps the line and its parameters. */
static void test_read_cmdline(void **state)
{
	char *root = tmp_root_new();
	struct sysroot *sr;
	struct machine m;
	(void)state;

	tmp_root_write_str(root, "proc/cmdline", "ro swiotlb=262144,force\n");
	assert_int_equal(sysroot_open(root, 0, &sr), 0);
	machine_init(&m);
	assert_int_equal(read_cmdline(sr, &m), 0);
	assert_string_equal(m.cmdline, "ro swiotlb=262144,force");
	assert_true(m.cmd.swiotlb_force);
	assert_true(opt_is(&m.cmd.swiotlb_slabs, 262144));
	assert_true(machine_input_ok(&m, "proc/cmdline"));
	machine_done(&m);
	sysroot_free(sr);
	tmp_root_free(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmdline_forms),
		cmocka_unit_test(test_cmdline_not_matched),
		cmocka_unit_test(test_cmdline_repeated),
		cmocka_unit_test(test_cmdline_quotes),
		cmocka_unit_test(test_cmdline_iommu_off),
		cmocka_unit_test(test_cmdline_iommu_words),
		cmocka_unit_test(test_read_cmdline),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
