// SPDX-License-Identifier: GPL-2.0
/*
 * Register-level model of the sun4v performance-register hypercalls:
 * NIAGARA2_GET/SET_PERFREG (0x104/0x105) and VFALLS_GET/SET_PERFREG
 * (0x106/0x107). Section numbers refer to niagara2_perf_api.txt (N2),
 * vf_perf_api.txt (VF) and the project's reference/sun4v.md (ref).
 */

#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/perf/hvpmu_sun4v_model.h>
#include <linux/string.h>

/* PCR.HT (bit 3) is writable only with the perfctrhtaccess property. */
#define MODEL_PCR_HT		BIT_ULL(3)
/* VF PerfReg 1 exposes only PERF_CONFIG, L2 control bits 37:36 (VF 2.3). */
#define MODEL_L2CTL_MASK	0x3ULL

static unsigned int model_nr_regs(const struct hvpmu_sun4v_model *m)
{
	return m->chip == HVPMU_SUN4V_VF ? HVPMU_SUN4V_VF_NR_REGS :
					   HVPMU_SUN4V_N2_NR_REGS;
}

static void model_count(struct hvpmu_sun4v_model *m,
			enum hvpmu_sun4v_model_op op, unsigned long reg)
{
	m->calls[op][min_t(unsigned long, reg, HVPMU_SUN4V_VF_NR_REGS)]++;
}

static bool model_injected(struct hvpmu_sun4v_model *m,
			   enum hvpmu_sun4v_model_op op, unsigned long reg,
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
	return true;
}

/*
 * Common checks. Returns a status and, for a DRAM register, its channel
 * in *chan (-1 for PerfReg 0 and VF PerfReg 1).
 */
static unsigned long model_check(struct hvpmu_sun4v_model *m,
				 unsigned long reg, int *chan)
{
	unsigned int first = m->chip == HVPMU_SUN4V_VF ? 2 : 1;

	/* ref 1.5: ENOACCESS for every register without perfctraccess. */
	if (!m->access)
		return HVPMU_SUN4V_ENOACCESS;
	if (reg >= model_nr_regs(m)) {
		m->bad++;
		return HVPMU_SUN4V_EINVAL;
	}
	*chan = reg < first ? -1 : (reg - first) / 2;
	/*
	 * ref 1.6: VF answers EINVAL (v1.0) or ENOTSUPPORTED (v1.1) for a
	 * node that is not there. N2 instead succeeds for a disabled channel
	 * (ref 1.5); that is handled by the callers.
	 */
	if (m->chip == HVPMU_SUN4V_VF && *chan >= 0 &&
	    !(m->present & BIT(*chan)))
		return m->absent_status;
	return HVPMU_SUN4V_EOK;
}

static unsigned long model_get(void *ctx, unsigned long reg, u64 *val)
{
	struct hvpmu_sun4v_model *m = ctx;
	unsigned long status, flags;
	int chan;

	spin_lock_irqsave(&m->lock, flags);
	model_count(m, HVPMU_SUN4V_MODEL_GET, reg);
	if (model_injected(m, HVPMU_SUN4V_MODEL_GET, reg, &status))
		goto out;
	status = model_check(m, reg, &chan);
	if (status != HVPMU_SUN4V_EOK)
		goto out;
	if (reg == HVPMU_SUN4V_REG_PCR)
		*val = m->pcr;
	else if (chan < 0)
		*val = m->l2ctl[m->local_node];
	else if (!(m->present & BIT(chan)))
		*val = 0;	/* ref 1.5: disabled N2 bank reads EOK, 0 */
	else if ((reg & 1) == (hvpmu_sun4v_ctl_reg(m->chip, 0) & 1))
		*val = m->ctl[chan];
	else
		*val = m->pic[chan];
out:
	spin_unlock_irqrestore(&m->lock, flags);
	return status;
}

static unsigned long model_set(void *ctx, unsigned long reg, u64 val)
{
	struct hvpmu_sun4v_model *m = ctx;
	unsigned long status, flags;
	int chan;

	spin_lock_irqsave(&m->lock, flags);
	model_count(m, HVPMU_SUN4V_MODEL_SET, reg);
	if (model_injected(m, HVPMU_SUN4V_MODEL_SET, reg, &status))
		goto out;
	status = model_check(m, reg, &chan);
	if (status != HVPMU_SUN4V_EOK)
		goto out;
	if (reg == HVPMU_SUN4V_REG_PCR) {
		/* N2 2.1, ref 1.5: HT needs perfctrhtaccess. */
		if ((val & MODEL_PCR_HT) && !m->ht_access)
			status = HVPMU_SUN4V_ENOACCESS;
		else
			m->pcr = val;
	} else if (chan < 0) {
		m->l2ctl[m->local_node] = val & MODEL_L2CTL_MASK;
	} else if (!(m->present & BIT(chan))) {
		/* ref 1.5: a write to a disabled N2 bank is dropped, EOK. */
	} else if ((reg & 1) == (hvpmu_sun4v_ctl_reg(m->chip, 0) & 1)) {
		/* ref 1.2: the HV masks control writes with 0xff. */
		if (val & ~HVPMU_SUN4V_CTL_MASK)
			m->bad++;
		m->ctl[chan] = val & HVPMU_SUN4V_CTL_MASK;
	} else {
		m->pic[chan] = val;	/* ref 1.5: counter mask all-ones */
	}
out:
	spin_unlock_irqrestore(&m->lock, flags);
	return status;
}

const struct hvpmu_sun4v_ops hvpmu_sun4v_model_ops = {
	.get_perfreg = model_get,
	.set_perfreg = model_set,
};
EXPORT_SYMBOL_GPL(hvpmu_sun4v_model_ops);

/**
 * hvpmu_sun4v_model_init() - reset a model to a freshly booted chip
 * @m: the model
 * @chip: N2 or VF
 * @present: bit per existing channel (N2 channel, VF node * 2 + mcu)
 *
 * Access is granted (perfctraccess and perfctrhtaccess set), absent VF
 * nodes answer ENOTSUPPORTED, and every register is zero.
 */
void hvpmu_sun4v_model_init(struct hvpmu_sun4v_model *m,
			    enum hvpmu_sun4v_chip chip, u32 present)
{
	memset(m, 0, sizeof(*m));
	spin_lock_init(&m->lock);
	m->chip = chip;
	m->present = present;
	m->access = true;
	m->ht_access = true;
	m->absent_status = HVPMU_SUN4V_ENOTSUPPORTED;
}
EXPORT_SYMBOL_GPL(hvpmu_sun4v_model_init);

/**
 * hvpmu_sun4v_model_traffic() - make a channel see @n occurrences of an event
 * @m: the model
 * @chan: channel (N2 channel, VF node * 2 + mcu)
 * @event: the 4-bit event code
 * @n: how many
 *
 * Each half of the counter register whose select field holds @event
 * advances by @n modulo 2^31 (ref 1.4); bits 63 and 31, whose meaning is
 * unknown, are left alone. An absent channel counts nothing.
 */
void hvpmu_sun4v_model_traffic(struct hvpmu_sun4v_model *m, unsigned int chan,
			       unsigned int event, u64 n)
{
	const u64 mask = GENMASK_ULL(HVPMU_SUN4V_PIC_WIDTH - 1, 0);
	static const unsigned int sel[2] = { HVPMU_SUN4V_SEL0_SHIFT,
					     HVPMU_SUN4V_SEL1_SHIFT };
	static const unsigned int pic[2] = { HVPMU_SUN4V_PIC0_SHIFT,
					     HVPMU_SUN4V_PIC1_SHIFT };
	unsigned long flags;
	int i;

	if (chan >= HVPMU_SUN4V_MAX_CHANNELS)
		return;
	spin_lock_irqsave(&m->lock, flags);
	for (i = 0; i < 2 && (m->present & BIT(chan)); i++) {
		u64 v;

		if (((m->ctl[chan] >> sel[i]) & HVPMU_SUN4V_SEL_MASK) != event)
			continue;
		v = (((m->pic[chan] >> pic[i]) & mask) + n) & mask;
		m->pic[chan] = (m->pic[chan] & ~(mask << pic[i])) | v << pic[i];
	}
	spin_unlock_irqrestore(&m->lock, flags);
}
EXPORT_SYMBOL_GPL(hvpmu_sun4v_model_traffic);

/**
 * hvpmu_sun4v_model_inject() - make calls fail
 * @m: the model
 * @op: which call
 * @reg: which PerfReg#, or -1 for any
 * @status: the hypervisor status to return
 * @skip: matching calls that still succeed first
 * @count: matching calls that then fail; 0 turns injection off
 */
void hvpmu_sun4v_model_inject(struct hvpmu_sun4v_model *m,
			      enum hvpmu_sun4v_model_op op, long reg,
			      unsigned long status, unsigned int skip,
			      unsigned int count)
{
	unsigned long flags;

	spin_lock_irqsave(&m->lock, flags);
	m->inj_op = op;
	m->inj_reg = reg;
	m->inj_status = status;
	m->inj_skip = skip;
	m->inj_count = count;
	spin_unlock_irqrestore(&m->lock, flags);
}
EXPORT_SYMBOL_GPL(hvpmu_sun4v_model_inject);

/**
 * hvpmu_sun4v_model_calls() - how many calls were made
 * @m: the model
 * @op: which call
 * @reg: which PerfReg#, or -1 for the sum over all numbers
 *
 * Return: the number of calls since init or the last reset.
 */
unsigned long hvpmu_sun4v_model_calls(struct hvpmu_sun4v_model *m,
				      enum hvpmu_sun4v_model_op op, long reg)
{
	unsigned long flags, n = 0;
	int i;

	spin_lock_irqsave(&m->lock, flags);
	if (reg >= 0)
		n = m->calls[op][min_t(long, reg, HVPMU_SUN4V_VF_NR_REGS)];
	else
		for (i = 0; i <= HVPMU_SUN4V_VF_NR_REGS; i++)
			n += m->calls[op][i];
	spin_unlock_irqrestore(&m->lock, flags);
	return n;
}
EXPORT_SYMBOL_GPL(hvpmu_sun4v_model_calls);

/**
 * hvpmu_sun4v_model_reset_calls() - zero the call counters
 * @m: the model
 */
void hvpmu_sun4v_model_reset_calls(struct hvpmu_sun4v_model *m)
{
	unsigned long flags;

	spin_lock_irqsave(&m->lock, flags);
	memset(m->calls, 0, sizeof(m->calls));
	spin_unlock_irqrestore(&m->lock, flags);
}
EXPORT_SYMBOL_GPL(hvpmu_sun4v_model_reset_calls);
