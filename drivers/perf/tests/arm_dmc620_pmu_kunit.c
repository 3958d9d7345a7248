// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit test of the ARM DMC-620 PMU driver's sysfs format files. What they
 * say is ABI: perf's event parser reads them to encode every event string
 * that names a field, so they must stay byte for byte what the driver has
 * shown since it was merged.
 *
 * Only the driver's static "format" attribute group is used: the test
 * needs neither a DMC-620 nor an ACPI table, and touches no state of a
 * PMU the driver may have registered.
 */

#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/sysfs.h>

#include "../arm_dmc620_pmu.h"
#include "pmu_format_kunit.h"

/*
 * The files as the driver showed them with its own ATTR_CFG_FLD_* bounds
 * and PMU_FORMAT_ATTR() strings, typed in (a range "lo-hi", a single bit
 * "lo", one newline).
 */
static const char *const dmc620_format_files[][2] = {
	{ "mask",	"config:0-44\n" },
	{ "match",	"config1:0-44\n" },
	{ "invert",	"config2:0\n" },
	{ "incr",	"config2:1-2\n" },
	{ "event",	"config2:3-8\n" },
	{ "clkdiv2",	"config2:9\n" },
};

static void dmc620_test_format_files(struct kunit *test)
{
	const struct attribute_group *g = &dmc620_pmu_format_attr_group;
	unsigned int i;

	KUNIT_EXPECT_STREQ(test, g->name, "format");
	/* these files and no other */
	KUNIT_EXPECT_EQ(test, pmu_kunit_count(NULL, g),
			ARRAY_SIZE(dmc620_format_files));
	for (i = 0; i < ARRAY_SIZE(dmc620_format_files); i++) {
		const char *name = dmc620_format_files[i][0];
		const char *got = pmu_kunit_group_file(test, NULL, g, name);

		KUNIT_ASSERT_NOT_NULL_MSG(test, got, "no file format/%s", name);
		KUNIT_EXPECT_STREQ_MSG(test, got, dmc620_format_files[i][1],
				       "format/%s", name);
	}
}

static struct kunit_case dmc620_test_cases[] = {
	KUNIT_CASE(dmc620_test_format_files),
	{}
};

static struct kunit_suite dmc620_test_suite = {
	.name = "arm_dmc620_pmu",
	.test_cases = dmc620_test_cases,
};

kunit_test_suite(dmc620_test_suite);

MODULE_DESCRIPTION("KUnit test of the ARM DMC-620 PMU's format files");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
