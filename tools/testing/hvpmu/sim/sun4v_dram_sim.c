// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated platform's sun4v DRAM front-end: niagara2_dram on a T2 with
 * its four channels and vfalls_dram on a two-way T2+ (nodes 0 and 1), each
 * on its own model (drivers/perf/tests/sun4v_dram_model.c), with debugfs
 * files to inject traffic and errors and read the call counters (line
 * formats: tools/testing/hvpmu/SIMULATOR.md). Test-only, part of
 * hvpmu_sim_lib.ko, never of the series.
 */

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "tests/sun4v_dram_model.h"
#include "hvpmu_sim.h"

struct sim_chip {
	const char *name;
	enum sun4v_pmu_chip chip;
	u32 present;
	struct sun4v_dram_model model;
	struct sun4v_dram_pmu *pmu;
};

static struct sim_chip sim_chips[] = {
	{ .name = "niagara2_dram", .chip = SUN4V_PMU_N2, .present = 0xf },
	{ .name = "vfalls_dram", .chip = SUN4V_PMU_VF, .present = 0xf },
};

static const char *const sim_events[] = {
	"mem_reads", "mem_writes", "mem_read_write", NULL,
	"rd_queue_latency", "wr_queue_latency", "rw_queue_latency",
	"wb_buf_hits",
};

static const struct { const char *name; unsigned long status; } sim_status[] = {
	{ "EINVAL", HV_EINVAL },
	{ "EBADTRAP", HV_EBADTRAP },
	{ "EWOULDBLOCK", HV_EWOULDBLOCK },
	{ "ENOACCESS", HV_ENOACCESS },
	{ "ENOTSUPPORTED", HV_ENOTSUPPORTED },
};

static struct sim_chip *sim_chip(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sim_chips); i++)
		if (!strcmp(sim_chips[i].name, name))
			return &sim_chips[i];
	return NULL;
}

/* "mem_reads" or a number -> event code, or -EINVAL. */
static int sim_event(const char *s)
{
	unsigned int i, v;

	for (i = 0; i < ARRAY_SIZE(sim_events); i++)
		if (sim_events[i] && !strcmp(sim_events[i], s))
			return i;
	if (kstrtouint(s, 0, &v) || v > SUN4V_PMU_SEL_MASK)
		return -EINVAL;
	return v;
}

/*
 * "niagara2_dram channel 2 mem_reads 1000" or
 * "vfalls_dram node 0 mcu 1 mem_reads 123456789"
 */
static int sim_inject(char **argv, int argc)
{
	struct sim_chip *c = argc ? sim_chip(argv[0]) : NULL;
	unsigned int chan, mcu;
	int ev, i;
	u64 n;

	if (!c)
		return -EINVAL;
	if (c->chip == SUN4V_PMU_VF) {
		if (argc != 7 || strcmp(argv[1], "node") || strcmp(argv[3], "mcu") ||
		    kstrtouint(argv[2], 0, &chan) || kstrtouint(argv[4], 0, &mcu) ||
		    chan >= SUN4V_PMU_VF_NODES || mcu >= SUN4V_PMU_VF_MCUS)
			return -EINVAL;
		chan = chan * SUN4V_PMU_VF_MCUS + mcu;
		i = 5;
	} else {
		if (argc != 5 || strcmp(argv[1], "channel") ||
		    kstrtouint(argv[2], 0, &chan) ||
		    chan >= SUN4V_PMU_N2_CHANNELS)
			return -EINVAL;
		i = 3;
	}
	ev = sim_event(argv[i]);
	if (ev < 0 || kstrtou64(argv[i + 1], 0, &n))
		return -EINVAL;
	sun4v_dram_model_traffic(&c->model, chan, ev, n);
	return 0;
}

/*
 * "<pmu> off", "<pmu> access 0|1", "<pmu> htaccess 0|1" or
 * "<pmu> get|set <PerfReg#>|any <status> [<count> [<skip>]]"
 */
static int sim_error(char **argv, int argc)
{
	struct sim_chip *c = argc ? sim_chip(argv[0]) : NULL;
	unsigned int count = 1, skip = 0, i;
	enum sun4v_dram_model_op op;
	long reg = -1;
	bool on;

	if (!c || argc < 2)
		return -EINVAL;
	if (argc == 2 && !strcmp(argv[1], "off")) {
		sun4v_dram_model_inject(&c->model, 0, -1, 0, 0, 0);
		return 0;
	}
	if (argc == 3 && (!strcmp(argv[1], "access") ||
			  !strcmp(argv[1], "htaccess"))) {
		if (kstrtobool(argv[2], &on))
			return -EINVAL;
		raw_spin_lock_irq(&c->model.lock);
		if (argv[1][0] == 'a')
			c->model.access = on;
		else
			c->model.ht_access = on;
		raw_spin_unlock_irq(&c->model.lock);
		return 0;
	}
	if (argc < 4 || argc > 6)
		return -EINVAL;
	if (!strcmp(argv[1], "get"))
		op = SUN4V_PMU_MODEL_GET;
	else if (!strcmp(argv[1], "set"))
		op = SUN4V_PMU_MODEL_SET;
	else
		return -EINVAL;
	if (strcmp(argv[2], "any") && kstrtol(argv[2], 0, &reg))
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(sim_status); i++)
		if (!strcmp(argv[3], sim_status[i].name))
			break;
	if (i == ARRAY_SIZE(sim_status) ||
	    (argc > 4 && kstrtouint(argv[4], 0, &count)) ||
	    (argc > 5 && kstrtouint(argv[5], 0, &skip)))
		return -EINVAL;
	sun4v_dram_model_inject(&c->model, op, reg, sim_status[i].status,
				skip, count);
	return 0;
}

/**
 * sun4v_pmu_sim_command() - one line written to a debugfs file
 * @file: "inject" or "error"
 * @line: the line
 *
 * Return: 0, or -EINVAL for a line that does not parse.
 */
int sun4v_pmu_sim_command(const char *file, const char *line)
{
	char **argv;
	int argc, ret = -EINVAL;

	argv = argv_split(GFP_KERNEL, line, &argc);
	if (!argv)
		return -ENOMEM;
	if (!strcmp(file, "inject"))
		ret = sim_inject(argv, argc);
	else if (!strcmp(file, "error"))
		ret = sim_error(argv, argc);
	argv_free(argv);
	return ret;
}
EXPORT_SYMBOL_GPL(sun4v_pmu_sim_command);

static ssize_t sim_write(struct file *file, const char __user *ubuf,
			 size_t len, loff_t *ppos)
{
	char *buf;
	int ret;

	if (len > 256)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	ret = sun4v_pmu_sim_command(file->private_data, buf);
	kfree(buf);
	return ret ? ret : len;
}

static const struct file_operations sim_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = sim_write,
	.llseek = noop_llseek,
};

static int sim_calls_show(struct seq_file *s, void *unused)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sim_chips); i++) {
		struct sun4v_dram_model *m = &sim_chips[i].model;

		if (IS_ERR_OR_NULL(sim_chips[i].pmu))
			continue;
		seq_printf(s, "%s get %lu set %lu\n", sim_chips[i].name,
			   sun4v_dram_model_calls(m, SUN4V_PMU_MODEL_GET, -1),
			   sun4v_dram_model_calls(m, SUN4V_PMU_MODEL_SET, -1));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_calls);

/**
 * sun4v_pmu_sim_start() - niagara2_dram and vfalls_dram on their models
 * @dir: debugfs directory for the files "inject", "error" and "calls"
 * @owner: module that owns the PMUs (pinned while events are open)
 *
 * Return: 0, or a negative errno (nothing is left registered).
 */
int sun4v_pmu_sim_start(struct dentry *dir, struct module *owner)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sim_chips); i++) {
		struct sim_chip *c = &sim_chips[i];
		struct sun4v_pmu_desc desc = {
			.chip = c->chip, .hv = &c->model.ops,
			.owner = owner,
		};

		sun4v_dram_model_init(&c->model, c->chip, c->present);
		c->pmu = sun4v_dram_pmu_probe(&desc);
		if (IS_ERR(c->pmu)) {
			int ret = PTR_ERR(c->pmu);

			sun4v_pmu_sim_exit();
			return ret;
		}
	}
	debugfs_create_file("inject", 0200, dir, "inject", &sim_fops);
	debugfs_create_file("error", 0200, dir, "error", &sim_fops);
	debugfs_create_file("calls", 0444, dir, NULL, &sim_calls_fops);
	return 0;
}
EXPORT_SYMBOL_GPL(sun4v_pmu_sim_start);

/**
 * sun4v_pmu_sim_exit() - undo sun4v_pmu_sim_start()
 *
 * The caller has removed the debugfs files already.
 */
void sun4v_pmu_sim_exit(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sim_chips); i++) {
		if (!IS_ERR_OR_NULL(sim_chips[i].pmu))
			sun4v_dram_pmu_remove(sim_chips[i].pmu);
		sim_chips[i].pmu = NULL;
	}
}
EXPORT_SYMBOL_GPL(sun4v_pmu_sim_exit);
