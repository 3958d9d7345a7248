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

static const char *const sim_kinds[HV_GPCI_PMU_K_NR] = {
	[HV_GPCI_PMU_K_PROC] = "processor",
	[HV_GPCI_PMU_K_PART] = "partition",
	[HV_GPCI_PMU_K_CHIP] = "chip",
	[HV_GPCI_PMU_K_SYS] = "system",
};

static const struct {
	const char *name;
	long rc;
} sim_rcs[] = {
	{ "H_HARDWARE", HV_GPCI_H_HARDWARE },
	{ "H_FUNCTION", HV_GPCI_H_FUNCTION },
	{ "H_PRIVILEGE", HV_GPCI_H_PRIVILEGE },
	{ "H_PARAMETER", HV_GPCI_H_PARAMETER },
	{ "H_AUTHORITY", HV_GPCI_H_AUTHORITY },
	{ "H_NOT_AVAILABLE", HV_GPCI_H_NOT_AVAILABLE },
};

/* Next blank-separated word of *s, or NULL. */
static char *sim_word(char **s)
{
	char *w;

	do {
		w = strsep(s, " \t");
	} while (w && !*w);
	return w;
}

/* Call @fn on each line of @text; empty lines and "#" comments skipped. */
static int sim_lines(struct hv_gpci_model *m, char *text,
		     int (*fn)(struct hv_gpci_model *m, char *line))
{
	char *line;
	int ret;

	while ((line = strsep(&text, "\n"))) {
		line = strim(line);
		if (!*line || *line == '#')
			continue;
		ret = fn(m, line);
		if (ret)
			return ret;
	}
	return 0;
}

/* "partition 3 entitled_cycles += 1000" or "chip 8 idle_a = 0x10" */
static int sim_inject_line(struct hv_gpci_model *m, char *line)
{
	char *kind, *name, *op, *ids, *vals;
	unsigned int c;
	u64 val;
	u32 id;

	kind = sim_word(&line);
	ids = sim_word(&line);
	name = sim_word(&line);
	op = sim_word(&line);
	vals = sim_word(&line);
	if (!vals || sim_word(&line))
		return -EINVAL;
	for (c = 0; c < HV_GPCI_PMU_M_NR; c++) {
		const char *n = hv_gpci_model_ctr_name(c);

		if (n && !strcmp(name, n))
			break;
	}
	if (c == HV_GPCI_PMU_M_NR)
		return -EINVAL;
	if (strcmp(kind, sim_kinds[hv_gpci_model_ctr_kind(c)]))
		return -EINVAL;
	if (kstrtou32(ids, 0, &id) || kstrtou64(vals, 0, &val))
		return -EINVAL;
	if (strcmp(op, "=") && strcmp(op, "+="))
		return -EINVAL;
	return op[0] == '+' ? hv_gpci_model_add(m, c, id, val) :
			      hv_gpci_model_set(m, c, id, val);
}

/**
 * hv_gpci_pmu_sim_inject() - set or advance model counters from text
 * @m: the model
 * @text: NUL-terminated lines "<processor|partition|chip|system> <id>
 *	<counter> <=|+=> <value>" (modified in place)
 *
 * Lines before a bad one are applied.
 *
 * Return: 0; -EINVAL for a malformed line, an unknown counter or a counter
 * of another kind of entity; -ENOENT for an entity the model has not.
 */
int hv_gpci_pmu_sim_inject(struct hv_gpci_model *m, char *text)
{
	return sim_lines(m, text, sim_inject_line);
}
EXPORT_SYMBOL_GPL(hv_gpci_pmu_sim_inject);

static int sim_rc(const char *s, long *rc)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sim_rcs); i++) {
		if (!strcmp(s, sim_rcs[i].name)) {
			*rc = sim_rcs[i].rc;
			return 0;
		}
	}
	return kstrtol(s, 0, rc);
}

/*
 * "H_AUTHORITY 2 [after 5] [detail 0x1b]", "clear", "collection off|on",
 * "index_skew -1", "element_size 8"
 */
static int sim_error_line(struct hv_gpci_model *m, char *line)
{
	char *w = sim_word(&line), *arg = sim_word(&line), *key;
	unsigned long flags, after = 0;
	unsigned int count;
	u32 detail = 0;
	long rc;
	int ret;

	if (!strcmp(w, "clear") && !arg) {
		raw_spin_lock_irqsave(&m->lock, flags);
		m->inj_count = 0;
		m->bad_index = 0;
		m->bad_elem_size = 0;
		m->authorised = true;
		raw_spin_unlock_irqrestore(&m->lock, flags);
		return 0;
	}
	if (!arg)
		return -EINVAL;
	if (!strcmp(w, "collection")) {
		if (sim_word(&line) ||
		    (strcmp(arg, "on") && strcmp(arg, "off")))
			return -EINVAL;
		WRITE_ONCE(m->authorised, !strcmp(arg, "on"));
		return 0;
	}
	if (!strcmp(w, "index_skew")) {
		s32 skew;

		if (sim_word(&line) || kstrtos32(arg, 0, &skew))
			return -EINVAL;
		WRITE_ONCE(m->bad_index, skew);
		return 0;
	}
	if (!strcmp(w, "element_size")) {
		u16 size;

		if (sim_word(&line) || kstrtou16(arg, 0, &size))
			return -EINVAL;
		WRITE_ONCE(m->bad_elem_size, size);
		return 0;
	}
	if (sim_rc(w, &rc) || rc == HV_GPCI_H_SUCCESS ||
	    kstrtouint(arg, 0, &count) || !count)
		return -EINVAL;
	while ((key = sim_word(&line))) {
		arg = sim_word(&line);
		if (!arg)
			return -EINVAL;
		if (!strcmp(key, "after"))
			ret = kstrtoul(arg, 0, &after);
		else if (!strcmp(key, "detail"))
			ret = kstrtou32(arg, 0, &detail);
		else
			ret = -EINVAL;
		if (ret)
			return -EINVAL;
	}
	hv_gpci_model_inject(m, after, count, rc, detail);
	return 0;
}

/**
 * hv_gpci_pmu_sim_error() - set error conditions of the model from text
 * @m: the model
 * @text: NUL-terminated lines (modified in place): "<rc> <count> [after <n>]
 *	[detail <d>]" fails <count> calls after <n> good ones with <rc>
 *	(H_HARDWARE, H_FUNCTION, H_PRIVILEGE, H_PARAMETER, H_AUTHORITY,
 *	H_NOT_AVAILABLE or a number); "collection off|on" revokes or grants
 *	performance information collection; "index_skew <n>" and
 *	"element_size <n>" corrupt replies (0: off); "clear" undoes all.
 *
 * Lines before a bad one are applied.
 *
 * Return: 0, or -EINVAL for a malformed line.
 */
int hv_gpci_pmu_sim_error(struct hv_gpci_model *m, char *text)
{
	return sim_lines(m, text, sim_error_line);
}
EXPORT_SYMBOL_GPL(hv_gpci_pmu_sim_error);

/**
 * hv_gpci_pmu_sim_calls() - print the model's call counters
 * @m: the model
 * @s: where to print, one "name value" per line: hcalls, then
 *	request_0x<code> for every request the model knows (lab ones
 *	included), unknown_request, set_mmcrh, misaligned, last_rc,
 *	pending_errors, collection, counter_info_version
 */
void hv_gpci_pmu_sim_calls(struct hv_gpci_model *m, struct seq_file *s)
{
	unsigned long by_req[ARRAY_SIZE(m->calls_by_req)];
	u32 code;
	unsigned long calls, unknown, mmcrh, misaligned, flags;
	unsigned int i, pending;
	bool authorised;
	long last_rc;

	raw_spin_lock_irqsave(&m->lock, flags);
	calls = m->calls;
	memcpy(by_req, m->calls_by_req, sizeof(by_req));
	unknown = m->unknown_req;
	mmcrh = m->set_mmcrh;
	misaligned = m->misaligned;
	last_rc = m->last_rc;
	pending = m->inj_count;
	authorised = m->authorised;
	raw_spin_unlock_irqrestore(&m->lock, flags);

	seq_printf(s, "hcalls %lu\n", calls);
	for (i = 0; (code = hv_gpci_model_req_code(i)); i++)
		seq_printf(s, "request_0x%x %lu\n", code, by_req[i]);
	seq_printf(s, "unknown_request %lu\nset_mmcrh %lu\nmisaligned %lu\n",
		   unknown, mmcrh, misaligned);
	seq_printf(s, "last_rc %ld\npending_errors %u\ncollection %s\n",
		   last_rc, pending, authorised ? "on" : "off");
	seq_printf(s, "counter_info_version %u\n", m->version);
}
EXPORT_SYMBOL_GPL(hv_gpci_pmu_sim_calls);

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
