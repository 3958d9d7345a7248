// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "hvpmu_sim": the front-ends of the simulated platform
 * (hvpmu_sim_lib.ko, hvpmu_sim.h), their parsers and files, against the
 * models of the PMUs' own suites. A case exists only when its model's
 * suite, and so its front-end, is enabled. Test-only, never part of the
 * series.
 *
 * It uses hvpmu_sim_lib.ko, not hvpmu_sim.ko: the init of hvpmu_sim
 * registers every PMU, and the cases' own <model>_sim_init() would then
 * fail with -EBUSY.
 */

#include <kunit/test.h>
#include <linux/bitfield.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "tests/pmu_format_kunit.h"
#include "hvpmu_sim.h"

/* ---- sun4v DRAM ---- */

#if IS_ENABLED(CONFIG_SUN4V_DRAM_PMU_KUNIT_TEST)
/* sim: the simulated platform's command parser. */
static void sim_test_sun4v_commands(struct kunit *test)
{
	static const char *const good[][2] = {
		{ "inject", "vfalls_dram node 1 mcu 1 mem_reads 123456789" },
		{ "inject", "niagara2_dram channel 3 0x7 5" },
		{ "error", "vfalls_dram get any ENOACCESS 2 1" },
		{ "error", "niagara2_dram set 3 EWOULDBLOCK" },
		{ "error", "niagara2_dram access 0" },
		{ "error", "vfalls_dram off" },
	};
	static const char *const bad[][2] = {
		{ "inject", "vfalls_dram node 4 mcu 0 mem_reads 1" },
		{ "inject", "vfalls_dram node 0 mcu 2 mem_reads 1" },
		{ "inject", "niagara2_dram channel 4 mem_reads 1" },
		{ "inject", "niagara2_dram channel 0 bank_busy_stalls 1" },
		{ "inject", "niagara2_dram channel 0 mem_reads" },
		{ "inject", "mips_cm channel 0 mem_reads 1" },
		{ "error", "vfalls_dram get any EFOO" },
		{ "error", "vfalls_dram peek 3 EINVAL" },
		{ "calls", "vfalls_dram" },
	};
	unsigned int i;

	KUNIT_ASSERT_EQ(test, sun4v_pmu_sim_init(NULL), 0);
	for (i = 0; i < ARRAY_SIZE(good); i++)
		KUNIT_EXPECT_EQ_MSG(test, sun4v_pmu_sim_command(good[i][0], good[i][1]),
				    0, "%s", good[i][1]);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, sun4v_pmu_sim_command(bad[i][0], bad[i][1]),
				    -EINVAL, "%s", bad[i][1]);
	sun4v_pmu_sim_exit();
	/* Both names are free again. */
	KUNIT_ASSERT_EQ(test, sun4v_pmu_sim_init(NULL), 0);
	sun4v_pmu_sim_exit();
}
#endif

/* ---- sun4v MMU statistics ---- */

#if IS_ENABLED(CONFIG_SUN4V_MMUSTAT_PMU_KUNIT_TEST)
/* sim: the simulated platform registers the PMU and its debugfs files. */
static void sim_test_mmustat_files(struct kunit *test)
{
	static const char *const files[] = { "inject", "conf", "error",
					     "calls" };
	struct dentry *dir, *d;
	unsigned int i;
	int ret;

	if (!IS_ENABLED(CONFIG_DEBUG_FS))
		kunit_skip(test, "needs DEBUG_FS");
	dir = debugfs_create_dir("sun4v_mmustat_pmu_kunit", NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(dir));
	ret = sun4v_mmustat_pmu_sim_init(dir);
	KUNIT_EXPECT_EQ(test, ret, 0);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		d = debugfs_lookup(files[i], dir);
		KUNIT_EXPECT_NOT_ERR_OR_NULL_MSG(test, d, "%s", files[i]);
		dput(d);
	}
	debugfs_remove_recursive(dir);
	if (!ret)
		sun4v_mmustat_pmu_sim_exit();
}
#endif

static struct kunit_case hvpmu_sim_cases[] = {
#if IS_ENABLED(CONFIG_SUN4V_DRAM_PMU_KUNIT_TEST)
	KUNIT_CASE(sim_test_sun4v_commands),
#endif
#if IS_ENABLED(CONFIG_SUN4V_MMUSTAT_PMU_KUNIT_TEST)
	KUNIT_CASE(sim_test_mmustat_files),
#endif
	{}
};

static struct kunit_suite hvpmu_sim_suite = {
	.name = "hvpmu_sim",
	.test_cases = hvpmu_sim_cases,
};

kunit_test_suite(hvpmu_sim_suite);

MODULE_DESCRIPTION("KUnit tests of the hvpmu simulated platform's front-ends (test only)");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
