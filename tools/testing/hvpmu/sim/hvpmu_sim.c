// SPDX-License-Identifier: GPL-2.0
/*
 * Simulated platform of the e2e guest: every PMU whose KUnit suite (and so
 * model) is enabled, instantiated on its hardware model, on any
 * architecture, for tests and demos. Test-only: built as an external module
 * against a tree with the series applied, never part of the series.
 *
 * Each model's front-end in hvpmu_sim_lib.ko (hvpmu_sim.h) has
 * <model>_sim_init(dir) / <model>_sim_exit(), which register its PMU(s)
 * with the real names and sysfs and create the model's traffic/error
 * injection and call-counter files under dir. This file only creates
 * /sys/kernel/debug/hvpmu_sim/<model>/, calls them, and reports in
 * hvpmu_sim/models which model came up.
 *
 * A model that fails to come up is logged and skipped, the others stay: a
 * test then sees exactly which PMU is missing in the "models" file.
 */

#define pr_fmt(fmt) "hvpmu_sim: " fmt

#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/seq_file.h>

#include "hvpmu_sim.h"

/**
 * struct hvpmu_sim_model - one model of the simulated platform
 * @name: name of its debugfs directory and in the "models" file
 * @init: the model's sim_init: registers the PMU(s) on the model and creates
 *	its debugfs files under the directory it is given
 * @exit: the model's sim_exit: undoes @init (debugfs files excepted, which
 *	this file removes)
 */
struct hvpmu_sim_model {
	const char *name;
	int (*init)(struct dentry *dir);
	void (*exit)(void);
};

static const struct hvpmu_sim_model hvpmu_sim_models[] = {
#if IS_ENABLED(CONFIG_SUN4V_DRAM_PMU_KUNIT_TEST)
	{ "sun4v", sun4v_pmu_sim_init, sun4v_pmu_sim_exit },
#endif
#if IS_ENABLED(CONFIG_SUN4V_MMUSTAT_PMU_KUNIT_TEST)
	{ "mmustat", sun4v_mmustat_pmu_sim_init, sun4v_mmustat_pmu_sim_exit },
#endif
#if IS_ENABLED(CONFIG_MIPS_CM_PMU_KUNIT_TEST)
	{ "mips_cm", mips_cm_pmu_sim_init, mips_cm_pmu_sim_exit },
#endif
};

static struct dentry *hvpmu_sim_root;
/* init's result per model: 0 (up) or its negative errno */
static int hvpmu_sim_status[ARRAY_SIZE(hvpmu_sim_models) ?: 1];

static int hvpmu_sim_models_show(struct seq_file *s, void *unused)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hvpmu_sim_models); i++) {
		if (hvpmu_sim_status[i])
			seq_printf(s, "%s error %d\n", hvpmu_sim_models[i].name,
				   hvpmu_sim_status[i]);
		else
			seq_printf(s, "%s up\n", hvpmu_sim_models[i].name);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(hvpmu_sim_models);

static int __init hvpmu_sim_init(void)
{
	unsigned int i, up = 0;
	struct dentry *dir;

	hvpmu_sim_root = debugfs_create_dir("hvpmu_sim", NULL);
	if (IS_ERR(hvpmu_sim_root))
		return PTR_ERR(hvpmu_sim_root);

	for (i = 0; i < ARRAY_SIZE(hvpmu_sim_models); i++) {
		const struct hvpmu_sim_model *m = &hvpmu_sim_models[i];

		dir = debugfs_create_dir(m->name, hvpmu_sim_root);
		hvpmu_sim_status[i] = IS_ERR(dir) ? PTR_ERR(dir) : m->init(dir);
		if (hvpmu_sim_status[i]) {
			pr_err("%s: model not started: error %d\n", m->name,
			       hvpmu_sim_status[i]);
			debugfs_remove_recursive(dir);
			continue;
		}
		up++;
	}
	debugfs_create_file("models", 0444, hvpmu_sim_root, NULL,
			    &hvpmu_sim_models_fops);

	pr_info("%u of %zu models up: simulated PMUs, for tests and demos only\n",
		up, ARRAY_SIZE(hvpmu_sim_models));
	return 0;
}

static void __exit hvpmu_sim_exit(void)
{
	unsigned int i = ARRAY_SIZE(hvpmu_sim_models);

	/*
	 * Files first, so no injection races with a model going away; then
	 * the models in reverse order of their start.
	 */
	debugfs_remove_recursive(hvpmu_sim_root);
	while (i--) {
		if (!hvpmu_sim_status[i])
			hvpmu_sim_models[i].exit();
	}
}

module_init(hvpmu_sim_init);
module_exit(hvpmu_sim_exit);

MODULE_DESCRIPTION("hvpmu simulated platform: PMUs on hardware models (test/demo only)");
MODULE_LICENSE("GPL");
