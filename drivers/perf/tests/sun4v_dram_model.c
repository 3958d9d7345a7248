// SPDX-License-Identifier: GPL-2.0
/*
 * Register-level model of the sun4v performance-register hypercalls:
 * NIAGARA2_GET/SET_PERFREG (0x104/0x105) and VFALLS_GET/SET_PERFREG
 * (0x106/0x107), following the sun4v Hypervisor API documents and not the
 * driver. Section numbers refer to niagara2_perf_api.txt (N2) and
 * vf_perf_api.txt (VF); what those leave open follows illumos
 * (niagara2regs.h) and the released sun4v hypervisor (hcall_niagara2.s).
 */

#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "sun4v_dram_model.h"

/* PCR.HT (bit 3) is writable only with the perfctrhtaccess property. */
#define MODEL_PCR_HT		BIT_ULL(3)
/* VF PerfReg 1 exposes only PERF_CONFIG, L2 control bits 37:36 (VF 2.3). */
#define MODEL_L2CTL_MASK	0x3ULL
/* The hypervisor masks control writes with 0xff (hcall_niagara2.s). */
#define MODEL_CTL_MASK		0xffULL
/* Counters: PIC0 in bits 62:32, PIC1 in 30:0, 31 bits each (niagara2regs.h) */
#define MODEL_PIC_MASK		0x7fffffffULL

/*
 * The PerfReg tables of N2 3.1 and VF 3.1, typed in: channel of each DRAM
 * register (N2 channel; VF node * 2 + MCU) and whether it is the counter
 * ("PIC") register; -1 for PerfReg 0 (SPARC PCR) and VF PerfReg 1 (L2
 * control).
 */
static const struct { s8 chan; bool pic; } model_n2_regs[] = {
	/* niagara2_perf_api 3.1 */
	{ -1 },			/* 0 SPARC Performance Control register */
	{ 0, false },		/* 1 DRAM Performance Control register 0 */
	{ 0, true },		/* 2 DRAM Performance Counter register 0 */
	{ 1, false },		/* 3 DRAM Performance Control register 1 */
	{ 1, true },		/* 4 DRAM Performance Counter register 1 */
	{ 2, false },		/* 5 DRAM Performance Control register 2 */
	{ 2, true },		/* 6 DRAM Performance Counter register 2 */
	{ 3, false },		/* 7 DRAM Performance Control register 3 */
	{ 3, true },		/* 8 DRAM Performance Counter register 3 */
};

static const struct { s8 chan; bool pic; } model_vf_regs[] = {
	/* vf_perf_api 3.1 */
	{ -1 },			/* 0 local SPARC PCR */
	{ -1 },			/* 1 local, all L2 Bank CRs */
	{ 0, false },		/* 2 NODE0_MCU0_PCR */
	{ 0, true },		/* 3 NODE0_MCU0_PIC */
	{ 1, false },		/* 4 NODE0_MCU1_PCR */
	{ 1, true },		/* 5 NODE0_MCU1_PIC */
	{ 2, false },		/* 6 NODE1_MCU0_PCR */
	{ 2, true },		/* 7 NODE1_MCU0_PIC */
	{ 3, false },		/* 8 NODE1_MCU1_PCR */
	{ 3, true },		/* 9 NODE1_MCU1_PIC */
	{ 4, false },		/* 10 NODE2_MCU0_PCR */
	{ 4, true },		/* 11 NODE2_MCU0_PIC */
	{ 5, false },		/* 12 NODE2_MCU1_PCR */
	{ 5, true },		/* 13 NODE2_MCU1_PIC */
	{ 6, false },		/* 14 NODE3_MCU0_PCR */
	{ 6, true },		/* 15 NODE3_MCU0_PIC */
	{ 7, false },		/* 16 NODE3_MCU1_PCR */
	{ 7, true },		/* 17 NODE3_MCU1_PIC */
};

/**
 * sun4v_dram_model_decode() - what a PerfReg# names, per the 3.1 tables
 * @chip: N2 or VF
 * @reg: the PerfReg#
 * @counter: set to true for a counter register, false for a control one
 *
 * Return: the DRAM channel (N2 channel, VF node * 2 + MCU), -1 for the
 * SPARC PCR and the VF L2 control register, -EINVAL for a number outside
 * the table.
 */
int sun4v_dram_model_decode(enum sun4v_pmu_chip chip, unsigned long reg,
			    bool *counter)
{
	if (chip == SUN4V_PMU_VF) {
		if (reg >= ARRAY_SIZE(model_vf_regs))
			return -EINVAL;
		*counter = model_vf_regs[reg].pic;
		return model_vf_regs[reg].chan;
	}
	if (reg >= ARRAY_SIZE(model_n2_regs))
		return -EINVAL;
	*counter = model_n2_regs[reg].pic;
	return model_n2_regs[reg].chan;
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_dram_model_decode);

static void model_count(struct sun4v_dram_model *m,
			enum sun4v_dram_model_op op, unsigned long reg)
{
	m->calls[op][min_t(unsigned long, reg, SUN4V_PMU_VF_NR_REGS)]++;
}

static void model_log(struct sun4v_dram_model *m, enum sun4v_dram_model_op op,
		      unsigned long reg, u64 val, unsigned long status)
{
	if (m->log_on && m->nr_log < ARRAY_SIZE(m->log))
		m->log[m->nr_log++] = (struct sun4v_dram_model_call) {
			.op = op, .reg = reg, .val = val, .status = status,
		};
}

/* Count @n events of select value @event on channel @chan, locked. */
static void model_traffic(struct sun4v_dram_model *m, unsigned int chan,
			  unsigned int event, u64 n)
{
	/* niagara2regs.h: PIC0 selected by bits 7:4, counts in 62:32 */
	static const unsigned int sel[2] = { 4, 0 };
	static const unsigned int pic[2] = { 32, 0 };
	const u64 mask = MODEL_PIC_MASK;
	int i;

	if (chan >= SUN4V_PMU_MAX_CHANNELS)
		return;
	for (i = 0; i < 2 && (m->present & BIT(chan)); i++) {
		u64 v;

		if (((m->ctl[chan] >> sel[i]) & 0xf) != event)
			continue;
		v = (((m->pic[chan] >> pic[i]) & mask) + n) & mask;
		m->pic[chan] = (m->pic[chan] & ~(mask << pic[i])) | v << pic[i];
	}
}

static bool model_injected(struct sun4v_dram_model *m,
			   enum sun4v_dram_model_op op, unsigned long reg,
			   unsigned long *status)
{
	if (!m->inj_count || m->inj_op != op ||
	    (m->inj_reg >= 0 && m->inj_reg != reg))
		return false;
	if (m->inj_skip) {
		m->inj_skip--;
		return false;
	}
	m->inj_count--;
	*status = m->inj_status;
	model_traffic(m, m->inj_traffic_chan, m->inj_traffic_event,
		      m->inj_traffic);
	return true;
}

/*
 * Common checks. Returns a status and, for a DRAM register, its channel
 * in *chan (-1 for PerfReg 0 and VF PerfReg 1) and kind in *pic.
 */
static unsigned long model_check(struct sun4v_dram_model *m,
				 unsigned long reg, int *chan, bool *pic)
{
	/* hcall_niagara2.s: ENOACCESS for any register without perfctraccess */
	if (!m->access)
		return HV_ENOACCESS;
	/* N2 and VF 3.2: EINVAL, invalid performance register number. */
	*chan = sun4v_dram_model_decode(m->chip, reg, pic);
	if (*chan == -EINVAL) {
		m->bad++;
		return HV_EINVAL;
	}
	/*
	 * VF 3.2: EINVAL (v1.0) or ENOTSUPPORTED (the v1.1 text, FWARC
	 * 2007/529) for a node that is not there. N2 instead succeeds for a
	 * disabled channel (hcall_niagara2.s); that is handled by the callers.
	 */
	if (m->chip == SUN4V_PMU_VF && *chan >= 0 &&
	    !(m->present & BIT(*chan)))
		return m->absent_status;
	return HV_EOK;
}

static unsigned long model_get(void *ctx, unsigned long reg, u64 *val)
{
	struct sun4v_dram_model *m = ctx;
	unsigned long status, flags;
	bool pic;
	int chan;

	raw_spin_lock_irqsave(&m->lock, flags);
	model_count(m, SUN4V_PMU_MODEL_GET, reg);
	if (raw_smp_processor_id() < BITS_PER_LONG)
		m->get_cpus |= BIT(raw_smp_processor_id());
	if (model_injected(m, SUN4V_PMU_MODEL_GET, reg, &status))
		goto out;
	status = model_check(m, reg, &chan, &pic);
	if (status != HV_EOK)
		goto out;
	if (reg == SUN4V_PMU_REG_PCR) {
		*val = m->pcr;
	} else if (chan < 0) {
		/* VF 3.1: PerfReg 1 is the calling strand's node's. */
		*val = m->l2ctl;
	} else if (!(m->present & BIT(chan))) {
		/* hcall_niagara2.s: a disabled N2 bank reads EOK, 0. */
		*val = 0;
	} else if (pic) {
		*val = m->pic[chan];
	} else {
		*val = m->ctl[chan];
		if (m->high == SUN4V_PMU_MODEL_HIGH_ALWAYS ||
		    (m->high == SUN4V_PMU_MODEL_HIGH_WRITTEN &&
		     (m->written & BIT(chan))))
			*val |= m->ctl_high & ~MODEL_CTL_MASK;
	}
out:
	model_log(m, SUN4V_PMU_MODEL_GET, reg, 0, status);
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return status;
}

static unsigned long model_set(void *ctx, unsigned long reg, u64 val)
{
	struct sun4v_dram_model *m = ctx;
	unsigned long status, flags;
	bool pic;
	int chan;

	raw_spin_lock_irqsave(&m->lock, flags);
	model_count(m, SUN4V_PMU_MODEL_SET, reg);
	if (model_injected(m, SUN4V_PMU_MODEL_SET, reg, &status))
		goto out;
	status = model_check(m, reg, &chan, &pic);
	if (status != HV_EOK)
		goto out;
	if (reg == SUN4V_PMU_REG_PCR) {
		/* N2 2.1, hcall_niagara2.s: HT needs perfctrhtaccess. */
		if ((val & MODEL_PCR_HT) && !m->ht_access)
			status = HV_ENOACCESS;
		else
			m->pcr = val;
	} else if (chan < 0) {
		m->l2ctl = val & MODEL_L2CTL_MASK;
	} else if (!(m->present & BIT(chan))) {
		/* hcall_niagara2.s drops a write to a disabled N2 bank, EOK */
	} else if (pic) {
		m->pic[chan] = val;	/* hcall_niagara2.s: mask all-ones */
	} else {
		/* hcall_niagara2.s: the HV masks control writes with 0xff. */
		if (val & ~MODEL_CTL_MASK)
			m->bad++;
		m->ctl[chan] = val & MODEL_CTL_MASK;
		m->written |= BIT(chan);
		if (m->ctl_effect == SUN4V_PMU_MODEL_CTL_CLEAR) {
			m->pic[chan] = 0;
		} else if (m->ctl_effect == SUN4V_PMU_MODEL_CTL_PERTURB) {
			u64 p0 = (m->pic[chan] >> 32) & MODEL_PIC_MASK;
			u64 p1 = m->pic[chan] & MODEL_PIC_MASK;

			p0 = (p0 + SUN4V_PMU_MODEL_PERTURB) & MODEL_PIC_MASK;
			p1 = (p1 + SUN4V_PMU_MODEL_PERTURB) & MODEL_PIC_MASK;
			m->pic[chan] = p0 << 32 | p1;
		}
	}
out:
	model_log(m, SUN4V_PMU_MODEL_SET, reg, val, status);
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return status;
}

/**
 * sun4v_dram_model_init() - reset a model to a freshly booted chip
 * @m: the model
 * @chip: N2 or VF
 * @present: bit per existing channel (N2 channel, VF node * 2 + mcu)
 *
 * Access is granted (perfctraccess and perfctrhtaccess set), absent VF
 * nodes answer EINVAL (API 1.0), every register is zero, control writes
 * leave the counters alone.
 */
void sun4v_dram_model_init(struct sun4v_dram_model *m,
			   enum sun4v_pmu_chip chip, u32 present)
{
	memset(m, 0, sizeof(*m));
	m->ops = (struct sun4v_dram_hv_ops) {
		.get_perfreg = model_get,
		.set_perfreg = model_set,
		.ctx = m,
	};
	raw_spin_lock_init(&m->lock);
	m->chip = chip;
	m->present = present;
	m->access = true;
	m->ht_access = true;
	m->absent_status = HV_EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_dram_model_init);

/**
 * sun4v_dram_model_traffic() - make a channel see @n occurrences of an event
 * @m: the model
 * @chan: channel (N2 channel, VF node * 2 + mcu)
 * @event: the 4-bit event code
 * @n: how many
 *
 * Each half of the counter register whose select field holds @event
 * advances by @n modulo 2^31 (niagara2regs.h); bits 63 and 31, whose
 * meaning is unknown, are left alone. An absent channel counts nothing.
 */
void sun4v_dram_model_traffic(struct sun4v_dram_model *m, unsigned int chan,
			      unsigned int event, u64 n)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&m->lock, flags);
	model_traffic(m, chan, event, n);
	raw_spin_unlock_irqrestore(&m->lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_dram_model_traffic);

/**
 * sun4v_dram_model_inject() - make calls fail
 * @m: the model
 * @op: which call
 * @reg: which PerfReg#, or -1 for any
 * @status: the hypervisor status to return
 * @skip: matching calls that still succeed first
 * @count: matching calls that then fail; 0 turns injection off
 */
void sun4v_dram_model_inject(struct sun4v_dram_model *m,
			     enum sun4v_dram_model_op op, long reg,
			      unsigned long status, unsigned int skip,
			      unsigned int count)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&m->lock, flags);
	m->inj_op = op;
	m->inj_reg = reg;
	m->inj_status = status;
	m->inj_skip = skip;
	m->inj_count = count;
	raw_spin_unlock_irqrestore(&m->lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_dram_model_inject);

/**
 * sun4v_dram_model_inject_traffic() - traffic just before each failing call
 * @m: the model
 * @chan: the channel
 * @event: the event select value that counts it
 * @n: events counted right before each injected failure; 0 for none
 *
 * Models traffic that arrives in the short window before a failing call,
 * inside a sequence of calls the driver makes under its lock.
 */
void sun4v_dram_model_inject_traffic(struct sun4v_dram_model *m,
				     unsigned int chan, unsigned int event,
				     u64 n)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&m->lock, flags);
	m->inj_traffic_chan = chan;
	m->inj_traffic_event = event;
	m->inj_traffic = n;
	raw_spin_unlock_irqrestore(&m->lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_dram_model_inject_traffic);

/**
 * sun4v_dram_model_calls() - how many calls were made
 * @m: the model
 * @op: which call
 * @reg: which PerfReg#, or -1 for the sum over all numbers
 *
 * Return: the number of calls since init or the last reset.
 */
unsigned long sun4v_dram_model_calls(struct sun4v_dram_model *m,
				     enum sun4v_dram_model_op op, long reg)
{
	unsigned long flags, n = 0;
	int i;

	raw_spin_lock_irqsave(&m->lock, flags);
	if (reg >= 0)
		n = m->calls[op][min_t(long, reg, SUN4V_PMU_VF_NR_REGS)];
	else
		for (i = 0; i <= SUN4V_PMU_VF_NR_REGS; i++)
			n += m->calls[op][i];
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_dram_model_calls);

/**
 * sun4v_dram_model_reset_calls() - zero the call counters
 * @m: the model
 */
void sun4v_dram_model_reset_calls(struct sun4v_dram_model *m)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&m->lock, flags);
	memset(m->calls, 0, sizeof(m->calls));
	raw_spin_unlock_irqrestore(&m->lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_dram_model_reset_calls);

MODULE_DESCRIPTION("Model of the sun4v perfreg hypercalls, for KUnit tests");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
