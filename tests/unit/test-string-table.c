/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/shared/string-table.h, and the contracts of the lookups built on it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/findings.h"
#include "analysis/layout.h"
#include "machine.h"
#include "shared/arch.h"
#include "shared/string-table.h"
#include "snapshot/file-kind.h"

enum colour {
	COLOUR_RED,
	COLOUR_GREEN,
	COLOUR_NAMELESS, /* a hole in the table */
	COLOUR_BLUE,
	_COLOUR_MAX,
	_COLOUR_INVALID = -EINVAL,
};

static const char *const colour_table[_COLOUR_MAX] = {
	[COLOUR_RED] = "red",
	[COLOUR_GREEN] = "green",
	[COLOUR_BLUE] = "blue",
};
DEFINE_PRIVATE_STRING_TABLE_LOOKUP(colour, enum colour);

/* A table shorter than its enum, read with sentinels: shade_from_string only. */
enum shade {
	SHADE_NONE,
	SHADE_LIGHT,
	SHADE_DARK,
	SHADE_OTHER,
};

static const char *const shade_table[] = {
	[SHADE_LIGHT] = "light",
	[SHADE_DARK] = "dark",
};
DEFINE_PRIVATE_STRING_TABLE_LOOKUP_FROM_STRING_OR(shade, enum shade, SHADE_NONE, SHADE_OTHER);

static void test_to_string(void **state)
{
	(void)state;
	assert_string_equal(colour_to_string(COLOUR_RED), "red");
	assert_string_equal(colour_to_string(COLOUR_BLUE), "blue");
	assert_null(colour_to_string(COLOUR_NAMELESS));
	assert_null(colour_to_string(_COLOUR_MAX));
	assert_null(colour_to_string((enum colour)-1));
	assert_null(colour_to_string(_COLOUR_INVALID));
	assert_null(colour_to_string((enum colour)INT32_MAX));
}

static void test_from_string(void **state)
{
	(void)state;
	assert_int_equal(colour_from_string("red"), COLOUR_RED);
	assert_int_equal(colour_from_string("blue"), COLOUR_BLUE);
	assert_int_equal(colour_from_string("purple"), _COLOUR_INVALID);
	assert_int_equal(colour_from_string(""), _COLOUR_INVALID);
	assert_int_equal(colour_from_string("Red"), _COLOUR_INVALID);
	assert_int_equal(colour_from_string("red "), _COLOUR_INVALID);
	assert_int_equal(colour_from_string(NULL), _COLOUR_INVALID);
	for (int i = 0; i < _COLOUR_MAX; i++) {
		const char *s = colour_to_string((enum colour)i);
		if (s)
			assert_int_equal(colour_from_string(s), i);
	}
	assert_int_equal(string_table_lookup(colour_table, 0, "red"), -EINVAL);
}

static void test_from_string_or(void **state)
{
	(void)state;
	assert_int_equal(shade_from_string("light"), SHADE_LIGHT);
	assert_int_equal(shade_from_string("dark"), SHADE_DARK);
	assert_int_equal(shade_from_string(NULL), SHADE_NONE);
	assert_int_equal(shade_from_string("mauve"), SHADE_OTHER);
	assert_int_equal(shade_from_string(""), SHADE_OTHER);
}

/* What each converted lookup answered before string-table.h, still. */
static void test_converted_contracts(void **state)
{
	(void)state;
	assert_string_equal(arch_family_to_string(ARCH_ARM64), "arm64");
	assert_null(arch_family_to_string(_ARCH_FAMILY_MAX));
	assert_null(arch_family_to_string(_ARCH_FAMILY_INVALID));

	assert_string_equal(file_kind_to_string(FILE_KIND_TEXT), "text");
	assert_null(file_kind_to_string(_FILE_KIND_MAX));
	assert_null(file_kind_to_string((enum file_kind)-1));

	assert_string_equal(provenance_to_string(PROV_DERIVED), "derived");
	assert_null(provenance_to_string(_PROV_INVALID));
	assert_string_equal(input_status_to_string(INPUT_DENIED), "denied");
	assert_null(input_status_to_string(_INPUT_STATUS_MAX));
	assert_string_equal(dma_sign_to_string(DMA_SIGN_DT_DMA_CELLS), "#dma-cells");
	assert_null(dma_sign_to_string(_DMA_SIGN_INVALID));
	assert_string_equal(dev_bus_to_string(DEV_BUS_AMBA), "amba");
	assert_null(dev_bus_to_string(_DEV_BUS_MAX));
	assert_string_equal(layout_source_to_string(LAYOUT_SOURCE_ZONEINFO), "zoneinfo");
	assert_null(layout_source_to_string(_LAYOUT_SOURCE_INVALID));

	assert_int_equal(iommu_domain_from_string("DMA-FQ"), IOMMU_DOMAIN_DMA_FQ);
	assert_int_equal(iommu_domain_from_string("unknown"), IOMMU_DOMAIN_UNKNOWN);
	assert_int_equal(iommu_domain_from_string(NULL), IOMMU_DOMAIN_NONE);
	assert_int_equal(iommu_domain_from_string("dma"), IOMMU_DOMAIN_OTHER);

	assert_string_equal(severity_to_string(SEVERITY_WARNING), "warning");
	assert_null(severity_to_string(_SEVERITY_MAX));
	assert_null(severity_to_string(_SEVERITY_INVALID));
	assert_int_equal(severity_from_string("error"), SEVERITY_ERROR);
	assert_int_equal(severity_from_string("fatal"), _SEVERITY_INVALID);
	assert_int_equal(severity_from_string(NULL), _SEVERITY_INVALID);

	assert_string_equal(finding_id_to_string(FINDING_NO_BOUNCE_POOL), "no-bounce-pool");
	assert_null(finding_id_to_string(_FINDING_ID_MAX));
	assert_int_equal(finding_id_from_string("bounce-needed"), FINDING_BOUNCE_NEEDED);
	assert_int_equal(finding_id_from_string("bounce"), _FINDING_ID_INVALID);
	assert_int_equal(finding_id_from_string(NULL), _FINDING_ID_INVALID);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_to_string),
		cmocka_unit_test(test_from_string),
		cmocka_unit_test(test_from_string_or),
		cmocka_unit_test(test_converted_contracts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
