// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated platform's mips_cm front-end: the PMU "mips_cm" on the
 * model of the CM Global Debug Block (drivers/perf/tests/mips_cm_model.c,
 * compiled into this module by mips_cm_model.c here), with debugfs files
 * to inject traffic and faults and read the access counters (line
 * formats: tools/testing/hvpmu/SIMULATOR.md). Test-only,
 * part of hvpmu_sim_lib.ko, never of the series.
 */

#include <linux/bits.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "tests/mips_cm_model.h"
#include "hvpmu_sim.h"

/*
 * The simulated platform has no interrupt: the driver polls, every
 * SIM_POLL_MS so that large injections (split into steps that each wait
 * for a fold) stay quick.
 */
#define SIM_POLL_MS	10

static struct mips_cm_model *sim_model;
static struct mips_cm_pmu *sim_pmu;

static const struct {
	const char *name;
	u8 event;
} sim_events[] = {
	{ "request_count", 0x0 }, { "coherent_req_resp", 0x1 },
	{ "write_data_usage", 0x2 }, { "command_bus_usage", 0x3 },
	{ "read_data_usage", 0x4 }, { "sharing_miss", 0x5 },
	{ "response_unit_usage", 0x6 }, { "l2_pipeline_utilization", 0x8 },
	{ "l2_hits_misses", 0x9 }, { "iocu0_requests", 0x10 },
	{ "iocu1_requests", 0x11 },
};

static const char *const sim_fault_names[MIPS_CM_PMU_NR_FAULTS] = {
	[MIPS_CM_PMU_FAULT_DEAD] = "dead",
	[MIPS_CM_PMU_FAULT_STATE_LOSS] = "state_loss",
	[MIPS_CM_PMU_FAULT_OVF_STOP] = "ovf_stop",
	[MIPS_CM_PMU_FAULT_OV_STUCK] = "ov_stuck",
	[MIPS_CM_PMU_FAULT_SPURIOUS_IRQ] = "spurious_irq",
};

/*
 * Count @n in steps of at most 2^31 and wait after each step until the
 * driver has read every counter that counted it (its fold timer runs every
 * SIM_POLL_MS): real traffic never outruns the fold timer either, and a
 * counter that moved by 2^32 or more between two reads could not be told
 * from one that did not move.
 */
static int sim_count(bool cycles, u8 event, u32 qual, u64 n)
{
	u64 before[MIPS_CM_PMU_MODEL_NR_CNT];
	unsigned int mask, c;
	int i;

	while (n) {
		u64 step = min_t(u64, n, BIT_ULL(31));

		mask = mips_cm_model_counting(sim_model, cycles, event, qual);
		for (c = 0; c < MIPS_CM_PMU_MODEL_NR_CNT; c++)
			before[c] = mips_cm_model_cnt_reads(sim_model, c);
		if (cycles)
			mips_cm_model_cycles(sim_model, step);
		else
			mips_cm_model_inject(sim_model, event, qual, step);
		n -= step;
		for (i = 0; mask && i < 100; i++) {
			usleep_range(SIM_POLL_MS * 1000, SIM_POLL_MS * 2000);
			for (c = 0; c < MIPS_CM_PMU_MODEL_NR_CNT; c++)
				if (mips_cm_model_cnt_reads(sim_model, c) >
				    before[c])
					mask &= ~BIT(c);
		}
		if (mask)
			return -EBUSY;
	}
	return 0;
}

/* "<event> <qualifier> <count>" or "cycles <count>" */
static int sim_inject_line(char *line)
{
	char *name = strsep(&line, " ");
	unsigned int i;
	u64 n, ev;
	u32 qual;

	if (!name || !line)
		return -EINVAL;
	if (!strcmp(name, "cycles")) {
		if (kstrtou64(strim(line), 0, &n))
			return -EINVAL;
		return sim_count(true, 0, 0, n);
	}
	for (i = 0; i < ARRAY_SIZE(sim_events); i++)
		if (!strcmp(name, sim_events[i].name))
			break;
	if (i < ARRAY_SIZE(sim_events))
		ev = sim_events[i].event;
	else if (kstrtou64(name, 0, &ev) || ev > 0xff)
		return -EINVAL;
	name = strsep(&line, " ");
	if (!name || !line || kstrtou32(name, 0, &qual) ||
	    kstrtou64(strim(line), 0, &n))
		return -EINVAL;
	return sim_count(false, ev, qual, n);
}

/* "<fault> on|off" */
static int sim_fault_line(char *line)
{
	char *name = strsep(&line, " ");
	unsigned int i;
	bool on;

	if (!name || !line || kstrtobool(strim(line), &on))
		return -EINVAL;
	for (i = 0; i < MIPS_CM_PMU_NR_FAULTS; i++) {
		if (strcmp(name, sim_fault_names[i]))
			continue;
		mips_cm_model_fault(sim_model, i, on);
		return 0;
	}
	return -EINVAL;
}

static ssize_t sim_write(const char __user *u, size_t len,
			 int (*fn)(char *line))
{
	char *buf;
	int ret;

	if (len > 128)
		return -EINVAL;
	buf = memdup_user_nul(u, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	ret = fn(strim(buf));
	kfree(buf);
	return ret ?: len;
}

static ssize_t sim_inject_write(struct file *f, const char __user *u,
				size_t len, loff_t *ppos)
{
	return sim_write(u, len, sim_inject_line);
}

static ssize_t sim_fault_write(struct file *f, const char __user *u,
			       size_t len, loff_t *ppos)
{
	return sim_write(u, len, sim_fault_line);
}

static const struct file_operations sim_inject_fops = {
	.owner = THIS_MODULE,
	.write = sim_inject_write,
};

static const struct file_operations sim_fault_fops = {
	.owner = THIS_MODULE,
	.write = sim_fault_write,
};

/* The registers, by offset within the Global Debug Block (CM spec) */
static const struct {
	const char *name;
	unsigned int off;
} sim_regs[] = {
	{ "ctl", 0x100 }, { "ov", 0x120 }, { "event", 0x130 },
	{ "cycle", 0x180 }, { "qual0", 0x190 }, { "cnt0", 0x198 },
	{ "qual1", 0x1a0 }, { "cnt1", 0x1a8 },
};

static int sim_calls_show(struct seq_file *s, void *unused)
{
	struct mips_cm_model_stats st;
	unsigned int i, r;

	mips_cm_model_stats(sim_model, &st);
	for (i = 0; i < ARRAY_SIZE(sim_regs); i++) {
		r = sim_regs[i].off / 8;
		seq_printf(s, "%s reads %u writes %u value %#x\n",
			   sim_regs[i].name, st.reads[r], st.writes[r],
			   mips_cm_model_peek(sim_model, sim_regs[i].off));
	}
	for (i = 0; i < MIPS_CM_PMU_MODEL_NR_CNT; i++)
		seq_printf(s, "resets%u %llu\n", i, st.resets[i]);
	seq_printf(s, "irqs %llu\ndropped %llu\n", st.irqs,
		   st.dropped[0] + st.dropped[1] + st.dropped[2]);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_calls);

/**
 * mips_cm_pmu_sim_start() - "mips_cm" on the model, for the simulated
 *	platform
 * @dir: debugfs directory for the model's files ("inject", "fault",
 *	"calls")
 * @owner: module that owns the PMU (pinned while events are open)
 *
 * A CM2 debug block with two counters and no interrupt (the driver polls),
 * in a CPS with two IOCUs.
 *
 * Return: 0, or a negative errno (nothing is left registered).
 */
int mips_cm_pmu_sim_start(struct dentry *dir, struct module *owner)
{
	struct mips_cm_pmu_platdata pd = {
		.cm_rev = 0x0600,
		.nr_clusters = 1,
		.nr_iocu = 2,
		.poll_period_ms = SIM_POLL_MS,
		.owner = owner,
	};

	sim_model = mips_cm_model_create(2);
	if (!sim_model)
		return -ENOMEM;
	sim_pmu = mips_cm_pmu_probe(&pd, mips_cm_model_ops(sim_model),
				    "mips_cm");
	if (IS_ERR(sim_pmu)) {
		mips_cm_model_destroy(sim_model);
		return PTR_ERR(sim_pmu);
	}
	debugfs_create_file("inject", 0200, dir, NULL, &sim_inject_fops);
	debugfs_create_file("fault", 0200, dir, NULL, &sim_fault_fops);
	debugfs_create_file("calls", 0444, dir, NULL, &sim_calls_fops);
	return 0;
}
EXPORT_SYMBOL_GPL(mips_cm_pmu_sim_start);

/**
 * mips_cm_pmu_sim_exit() - undo mips_cm_pmu_sim_start()
 *
 * The caller has removed the debugfs files already.
 */
void mips_cm_pmu_sim_exit(void)
{
	mips_cm_pmu_remove(sim_pmu);
	mips_cm_model_destroy(sim_model);
}
EXPORT_SYMBOL_GPL(mips_cm_pmu_sim_exit);
