// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated platform's niagara_mmustat front-end: the PMU on a model of
 * a 1.2 GHz T1 (drivers/perf/tests/sun4v_mmustat_model.c), with debugfs
 * files to inject traffic, act as another user of the buffer slot, inject
 * errors and read the call counters (line formats:
 * tools/testing/hvpmu/SIMULATOR.md). Test-only, part of hvpmu_sim_lib.ko,
 * never of the series.
 */

#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "tests/sun4v_mmustat_model.h"
#include "hvpmu_sim.h"

static struct sun4v_mmustat_model *sim_model;
static struct sun4v_mmustat_pmu *sim_pmu;

/* "dtsb_hits_ctxnon0_8k" -> word index, or -EINVAL. */
static int sim_word(const char *s)
{
	static const char *const sizes[] = { "8k", "64k", NULL, "4m", NULL,
					     "256m" };
	bool dmmu, ticks, ctxnon0;
	unsigned int p;

	if (*s != 'i' && *s != 'd')
		return -EINVAL;
	dmmu = *s++ == 'd';
	if (!str_has_prefix(s, "tsb_"))
		return -EINVAL;
	s += 4;
	ticks = str_has_prefix(s, "ticks_");
	if (!ticks && !str_has_prefix(s, "hits_"))
		return -EINVAL;
	s += ticks ? 6 : 5;
	ctxnon0 = str_has_prefix(s, "ctxnon0_");
	if (!ctxnon0 && !str_has_prefix(s, "ctx0_"))
		return -EINVAL;
	s += ctxnon0 ? 8 : 5;
	for (p = 0; p < ARRAY_SIZE(sizes); p++)
		if (sizes[p] && !strcmp(s, sizes[p]))
			return sun4v_mmustat_pmu_word(dmmu, ctxnon0, p, ticks);
	return -EINVAL;
}

static ssize_t sim_write(struct file *file, const char __user *ubuf,
			 size_t len, loff_t *ppos,
			 int (*handle)(char *line))
{
	char buf[96];
	int ret;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	ret = handle(strim(buf));
	return ret ? ret : len;
}

/* "cpu 0 dtsb_hits_ctxnon0_8k += 123" */
static int sim_inject_line(char *line)
{
	unsigned int cpu;
	char name[32];
	u64 n;
	int word;

	if (sscanf(line, "cpu %u %31s += %llu", &cpu, name, &n) != 3 ||
	    cpu >= nr_cpu_ids)
		return -EINVAL;
	word = sim_word(name);
	if (word < 0)
		return word;
	sun4v_mmustat_model_traffic(sim_model, cpu, word, n);
	return 0;
}

/* "cpu 0 foreign 1" or "cpu 0 off": another user (mmustat_enable) */
static int sim_conf_line(char *line)
{
	unsigned int cpu, idx;
	u64 raddr, prev;
	char word[8];

	if (sscanf(line, "cpu %u foreign %u", &cpu, &idx) == 2) {
		raddr = sun4v_mmustat_model_foreign_buf(sim_model, idx);
		if (!raddr)
			return -EINVAL;
	} else if (sscanf(line, "cpu %u %7s", &cpu, word) == 2 &&
		   !strcmp(word, "off")) {
		raddr = 0;
	} else {
		return -EINVAL;
	}
	if (cpu >= nr_cpu_ids)
		return -EINVAL;
	return sun4v_mmustat_model_guest_conf(sim_model, cpu, raddr, &prev) ?
	       -EIO : 0;
}

static const char *const sim_call_names[SUN4V_MMUSTAT_PMU_NR_CALLS] = {
	[SUN4V_MMUSTAT_PMU_CALL_INFO] = "info",
	[SUN4V_MMUSTAT_PMU_CALL_CONF] = "conf",
	[SUN4V_MMUSTAT_PMU_CALL_ALLOC] = "alloc",
	[SUN4V_MMUSTAT_PMU_CALL_FREE] = "free",
	[SUN4V_MMUSTAT_PMU_CALL_MAP] = "map",
	[SUN4V_MMUSTAT_PMU_CALL_LEAK] = "leak",
};

/* "conf 8" or "conf 2 after 3": the next (4th) conf returns status 2 */
static int sim_error_line(char *line)
{
	unsigned int after = 0, i;
	unsigned long status;
	char call[8];
	int n;

	n = sscanf(line, "%7s %lu after %u", call, &status, &after);
	if (n < 2)
		return -EINVAL;
	for (i = 0; i < SUN4V_MMUSTAT_PMU_NR_CALLS; i++) {
		if (!strcmp(call, sim_call_names[i])) {
			sun4v_mmustat_model_inject(sim_model, i, after, status);
			return 0;
		}
	}
	return -EINVAL;
}

static ssize_t sim_inject_write(struct file *f, const char __user *u,
				size_t len, loff_t *ppos)
{
	return sim_write(f, u, len, ppos, sim_inject_line);
}

static ssize_t sim_conf_write(struct file *f, const char __user *u,
			      size_t len, loff_t *ppos)
{
	return sim_write(f, u, len, ppos, sim_conf_line);
}

static ssize_t sim_error_write(struct file *f, const char __user *u,
			       size_t len, loff_t *ppos)
{
	return sim_write(f, u, len, ppos, sim_error_line);
}

static const struct file_operations sim_inject_fops = {
	.owner = THIS_MODULE,
	.write = sim_inject_write,
};

static const struct file_operations sim_conf_fops = {
	.owner = THIS_MODULE,
	.write = sim_conf_write,
};

static const struct file_operations sim_error_fops = {
	.owner = THIS_MODULE,
	.write = sim_error_write,
};

static int sim_calls_show(struct seq_file *s, void *unused)
{
	unsigned int i, cpu;

	for (i = 0; i < SUN4V_MMUSTAT_PMU_NR_CALLS; i++)
		seq_printf(s, "%s %lu\n", sim_call_names[i],
			   sun4v_mmustat_model_calls(sim_model, i));
	seq_printf(s, "wrong_cpu %lu\nbad_frees %lu\nlive_buffers %ld\n",
		   sun4v_mmustat_model_wrong_cpu(sim_model),
		   sun4v_mmustat_model_bad_frees(sim_model),
		   sun4v_mmustat_model_live_buffers(sim_model));
	for_each_possible_cpu(cpu)
		seq_printf(s, "slot cpu%u %#llx\n", cpu,
			   sun4v_mmustat_model_slot(sim_model, cpu));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_calls);

/**
 * sun4v_mmustat_pmu_sim_start() - niagara_mmustat on the model, for the
 *	simulated platform
 * @dir: debugfs directory for the model's files
 * @owner: module that owns the PMU (pinned while events are open)
 *
 * Return: 0, or a negative errno (nothing is left registered).
 */
int sun4v_mmustat_pmu_sim_start(struct dentry *dir, struct module *owner)
{
	sim_model = sun4v_mmustat_model_create(true, 1200000000ULL);
	if (!sim_model)
		return -ENOMEM;
	sim_pmu = sun4v_mmustat_pmu_probe(sun4v_mmustat_model_ops(sim_model),
					  NULL, owner);
	if (IS_ERR(sim_pmu)) {
		sun4v_mmustat_model_destroy(sim_model);
		sim_model = NULL;
		return PTR_ERR(sim_pmu);
	}
	debugfs_create_file("inject", 0200, dir, NULL, &sim_inject_fops);
	debugfs_create_file("conf", 0200, dir, NULL, &sim_conf_fops);
	debugfs_create_file("error", 0200, dir, NULL, &sim_error_fops);
	debugfs_create_file("calls", 0444, dir, NULL, &sim_calls_fops);
	return 0;
}
EXPORT_SYMBOL_GPL(sun4v_mmustat_pmu_sim_start);

/**
 * sun4v_mmustat_pmu_sim_exit() - undo sun4v_mmustat_pmu_sim_start()
 *
 * The caller has removed the debugfs files already.
 */
void sun4v_mmustat_pmu_sim_exit(void)
{
	sun4v_mmustat_pmu_remove(sim_pmu);
	sun4v_mmustat_model_destroy(sim_model);
	sim_model = NULL;
}
EXPORT_SYMBOL_GPL(sun4v_mmustat_pmu_sim_exit);
