/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The front-ends of the simulated platform (hvpmu_sim_lib.ko): each
 * registers its model's PMU(s) with the real names and sysfs and creates
 * the model's debugfs files. Used by hvpmu_sim.ko and the hvpmu_sim KUnit
 * suite. Test-only, never part of the series.
 *
 * A front-end exists only when its model's KUnit suite is enabled (see
 * Kbuild). Each <model>_sim_start() takes the module that owns the PMUs;
 * the inline <model>_sim_init() passes the caller's own, so that the
 * module whose exit unregisters the PMUs cannot be unloaded while an event
 * is open.
 */
#ifndef _HVPMU_SIM_H
#define _HVPMU_SIM_H

#include <linux/module.h>

struct dentry;
struct seq_file;

/* sun4v_dram_sim.c */
int sun4v_pmu_sim_start(struct dentry *dir, struct module *owner);
void sun4v_pmu_sim_exit(void);
int sun4v_pmu_sim_command(const char *file, const char *line);

/**
 * sun4v_pmu_sim_init() - niagara2_dram and vfalls_dram on their models
 * @dir: debugfs directory for the files "inject", "error" and "calls"
 *
 * The caller's module owns the PMUs, so it cannot be unloaded while an
 * event is open. See sun4v_pmu_sim_start().
 *
 * Return: 0, or a negative errno (nothing is left registered).
 */
static inline int sun4v_pmu_sim_init(struct dentry *dir)
{
	return sun4v_pmu_sim_start(dir, THIS_MODULE);
}

/* sun4v_mmustat_sim.c */
int sun4v_mmustat_pmu_sim_start(struct dentry *dir, struct module *owner);
void sun4v_mmustat_pmu_sim_exit(void);

/**
 * sun4v_mmustat_pmu_sim_init() - niagara_mmustat on the model, for the
 *	simulated platform
 * @dir: debugfs directory for the model's files
 *
 * The caller's module owns the PMU, so that it cannot be unloaded (and the
 * PMU unregistered) while an event is open. See sun4v_mmustat_pmu_sim_start().
 *
 * Return: 0, or a negative errno (nothing is left registered).
 */
static inline int sun4v_mmustat_pmu_sim_init(struct dentry *dir)
{
	return sun4v_mmustat_pmu_sim_start(dir, THIS_MODULE);
}

/* mips_cm_sim.c */
int mips_cm_pmu_sim_start(struct dentry *dir, struct module *owner);
void mips_cm_pmu_sim_exit(void);

/**
 * mips_cm_pmu_sim_init() - "mips_cm" on the model, for the simulated
 *	platform
 * @dir: debugfs directory for the model's files
 *
 * The caller's module owns the PMU, so it cannot be unloaded while an event
 * is open. See mips_cm_pmu_sim_start().
 *
 * Return: 0, or a negative errno (nothing is left registered).
 */
static inline int mips_cm_pmu_sim_init(struct dentry *dir)
{
	return mips_cm_pmu_sim_start(dir, THIS_MODULE);
}

#endif /* _HVPMU_SIM_H */
