// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated platform's hv_gpci front-end: the PMU on the model of
 * H_GetPerformanceCounterInfo (drivers/perf/tests/hv_gpci_model.c), with
 * debugfs files to set counters, inject errors and read the call counters
 * (line formats: tools/testing/hvpmu/SIMULATOR.md). Test-only, part of
 * hvpmu_sim_lib.ko, never of the series.
 */

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "tests/hv_gpci_model.h"
#include "hvpmu_sim.h"

/* counter_info_version of the simulated firmware: 8 is POWER9/10 PowerVM. */
static unsigned char gpci_sim_version = 8;
module_param(gpci_sim_version, byte, 0444);
MODULE_PARM_DESC(gpci_sim_version,
		 "counter_info_version of the simulated hv_gpci firmware (default 8; below 8 has requests 0x30/0x50/0x60/0x70/0x80/0x94)");

/* The simulated instance; sim_lock orders the files against sim_exit. */
static DEFINE_MUTEX(sim_lock);
static struct hv_gpci_model *sim_model;
static struct hv_gpci_pmu *sim_pmu;
static struct hv_gpci_pmu_ops sim_ops;

static ssize_t sim_write(const char __user *ubuf, size_t len,
			 int (*parse)(struct hv_gpci_model *m, char *text))
{
	char *buf;
	int ret;

	if (len > PAGE_SIZE)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	mutex_lock(&sim_lock);
	ret = sim_model ? parse(sim_model, buf) : -ENODEV;
	mutex_unlock(&sim_lock);
	kfree(buf);
	return ret ?: len;
}

static ssize_t sim_inject_write(struct file *file, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	return sim_write(ubuf, len, hv_gpci_pmu_sim_inject);
}

static ssize_t sim_error_write(struct file *file, const char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	return sim_write(ubuf, len, hv_gpci_pmu_sim_error);
}

static const struct file_operations sim_inject_fops = {
	.owner = THIS_MODULE,
	.write = sim_inject_write,
	.llseek = noop_llseek,
};

static const struct file_operations sim_error_fops = {
	.owner = THIS_MODULE,
	.write = sim_error_write,
	.llseek = noop_llseek,
};

static int sim_calls_show(struct seq_file *s, void *unused)
{
	int ret = 0;

	mutex_lock(&sim_lock);
	if (sim_model)
		hv_gpci_pmu_sim_calls(sim_model, s);
	else
		ret = -ENODEV;
	mutex_unlock(&sim_lock);
	return ret;
}
DEFINE_SHOW_ATTRIBUTE(sim_calls);

/**
 * hv_gpci_pmu_sim_start() - hv_gpci on the model, for the simulated platform
 * @dir: debugfs directory for the files inject, error and calls
 * @owner: module owning the PMU: perf pins it while an event is open, so
 *	it must be the module that calls hv_gpci_pmu_sim_exit()
 *
 * Use hv_gpci_pmu_sim_init(), which passes the caller's module. The model
 * is hv_gpci_model_init()'s system at counter_info_version
 * gpci_sim_version, a POWER10, collection allowed, GA capability.
 *
 * Return: 0; -EBUSY if already started; -ENOMEM; or hv_gpci_pmu_probe()'s
 * error.
 * Nothing is left registered on error.
 */
int hv_gpci_pmu_sim_start(struct dentry *dir, struct module *owner)
{
	struct hv_gpci_model *m;
	struct hv_gpci_pmu *pmu;
	int ret = 0;

	mutex_lock(&sim_lock);
	if (sim_model) {
		ret = -EBUSY;
		goto out;
	}
	m = hv_gpci_model_alloc(gpci_sim_version);
	if (!m) {
		ret = -ENOMEM;
		goto out;
	}
	/* a POWER10: the system information files are there */
	m->power10 = true;
	sim_ops = hv_gpci_model_ops;
	sim_ops.owner = owner;
	pmu = hv_gpci_pmu_probe(&sim_ops, m, "hv_gpci");
	if (IS_ERR(pmu)) {
		hv_gpci_model_free(m);
		ret = PTR_ERR(pmu);
		goto out;
	}
	sim_model = m;
	sim_pmu = pmu;
	debugfs_create_file("inject", 0200, dir, NULL, &sim_inject_fops);
	debugfs_create_file("error", 0200, dir, NULL, &sim_error_fops);
	debugfs_create_file("calls", 0444, dir, NULL, &sim_calls_fops);
out:
	mutex_unlock(&sim_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(hv_gpci_pmu_sim_start);

/**
 * hv_gpci_pmu_sim_exit() - undo hv_gpci_pmu_sim_init()
 *
 * Unregisters the PMU (no event may be open: its owner module is pinned
 * while one is), then frees the model. The files stay in the caller's
 * directory, which the caller removes (before or after this call); until
 * then they fail with ENODEV. Safe to call when not started.
 */
void hv_gpci_pmu_sim_exit(void)
{
	mutex_lock(&sim_lock);
	if (sim_pmu)
		hv_gpci_pmu_remove(sim_pmu);
	sim_pmu = NULL;
	hv_gpci_model_free(sim_model);
	sim_model = NULL;
	mutex_unlock(&sim_lock);
}
EXPORT_SYMBOL_GPL(hv_gpci_pmu_sim_exit);

/**
 * hv_gpci_pmu_sim_pmu() - the simulated hv_gpci PMU
 *
 * Return: the PMU hv_gpci_pmu_sim_init() registered, or NULL.
 */
struct hv_gpci_pmu *hv_gpci_pmu_sim_pmu(void)
{
	return READ_ONCE(sim_pmu);
}
EXPORT_SYMBOL_GPL(hv_gpci_pmu_sim_pmu);

/**
 * hv_gpci_pmu_sim_model() - the model behind the simulated hv_gpci PMU
 *
 * Return: the model, or NULL when the simulated platform is not up.
 */
struct hv_gpci_model *hv_gpci_pmu_sim_model(void)
{
	return READ_ONCE(sim_model);
}
EXPORT_SYMBOL_GPL(hv_gpci_pmu_sim_model);
