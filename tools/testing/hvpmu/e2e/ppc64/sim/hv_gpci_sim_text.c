// SPDX-License-Identifier: GPL-2.0
/*
 * The text interface of the hv_gpci model (hv_gpci_model.c): the lines
 * written to the ppc64 e2e guest's debugfs files hvpmu_sim/gpci/inject and
 * error, and the listing of its file calls (formats:
 * tools/testing/hvpmu/SIMULATOR.md). Test-only, never part of the series.
 */

#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#include "hv_gpci_model.h"
#include "hv_gpci_sim_text.h"

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
