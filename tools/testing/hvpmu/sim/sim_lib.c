// SPDX-License-Identifier: GPL-2.0
/*
 * hvpmu_sim_lib.ko: the front-ends of the simulated platform
 * (<model>_sim.c, see hvpmu_sim.h), in a module of their own so that both
 * hvpmu_sim.ko and the hvpmu_sim KUnit suite can use them: the suite must
 * start and stop the front-ends itself, which it could not while
 * hvpmu_sim.ko, whose init registers every PMU, is loaded. Test-only,
 * never part of the series.
 *
 * The module is named after its objects' composite (Kbuild), so this file
 * cannot be hvpmu_sim_lib.c.
 */

#include <linux/module.h>

MODULE_DESCRIPTION("hvpmu simulated platform: model front-ends (test/demo only)");
MODULE_LICENSE("GPL");
/* the drivers export their probe functions only to KUnit tests */
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
