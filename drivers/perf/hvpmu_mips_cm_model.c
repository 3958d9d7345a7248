// SPDX-License-Identifier: GPL-2.0
/*
 * Register-level model of the MIPS CM Global Debug Block performance
 * counters, for the mips_cm KUnit tests and the simulated platform.
 *
 * Follows the seed (003, "CM Performance Registers - Offset 0x6000") and the
 * reference (mips-cm.md); where the documents leave a behaviour open the
 * model makes one choice and says so ("model choice").
 */

#define pr_fmt(fmt) "mips_cm model: " fmt

#include <linux/bitfield.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/perf/hvpmu_mips_cm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>

/* CTL bits that store what was written (Perf_Num_Cnt is read-only) */
#define CTL_STORED	(MIPS_CM_PC_CTL_INT_EN | MIPS_CM_PC_CTL_OVF_STOP | \
			 MIPS_CM_PC_CTL_COUNTON(0) |			   \
			 MIPS_CM_PC_CTL_COUNTON(1) |			   \
			 MIPS_CM_PC_CTL_COUNTON(2))

/**
 * struct hvpmu_mips_cm_model - state of one modelled debug block
 * @lock: serialises register accesses and traffic
 * @num_cnt: Perf_Num_Cnt, the read-only CTL bits 3:0
 * @ctl: the stored CTL bits (&CTL_STORED)
 * @ov: GCR_DB_PC_OV
 * @event: GCR_DB_PC_EVENT
 * @qual: GCR_DB_PC_QUAL0/1
 * @cnt: the cycle counter and the event counters, by counter index
 * @line: level of CM_PCInt
 * @faults: which &enum hvpmu_mips_cm_fault are active
 * @stats: access counters
 * @raise: called (without @lock) when CM_PCInt is asserted
 * @raise_arg: argument of @raise
 * @hook: called before every register access, for tests
 * @hook_arg: argument of @hook
 */
struct hvpmu_mips_cm_model {
	spinlock_t lock;	/* registers, traffic, stats */
	unsigned int num_cnt;
	u32 ctl;
	u32 ov;
	u32 event;
	u32 qual[MIPS_CM_PC_MAX_CNT];
	u32 cnt[MIPS_CM_PC_NR_IDX];
	bool line;
	unsigned long faults;
	struct hvpmu_mips_cm_model_stats stats;
	void (*raise)(void *arg);
	void *raise_arg;
	void (*hook)(void *arg, unsigned int off, bool write);
	void *hook_arg;
};

static bool model_has(struct hvpmu_mips_cm_model *m,
		      enum hvpmu_mips_cm_fault f)
{
	return test_bit(f, &m->faults);
}

/* Counters that exist: the cycle counter plus Perf_Num_Cnt (at most 2). */
static unsigned int model_nr_idx(struct hvpmu_mips_cm_model *m)
{
	return 1 + min_t(unsigned int, m->num_cnt, MIPS_CM_PC_MAX_CNT);
}

/*
 * Seed: "an interrupt is generated when any counter ... reaches its maximum
 * value" if Perf_Int_En is set. Model choice: CM_PCInt is a level, high
 * while Perf_Int_En is set and any status bit is set; it is reported on
 * every write that leaves it high too, as a level interrupt is re-taken
 * after the handler returns.
 */
static bool model_update_line(struct hvpmu_mips_cm_model *m, bool retrigger)
{
	bool was = m->line;

	m->line = (m->ctl & MIPS_CM_PC_CTL_INT_EN) && (m->ov & MIPS_CM_PC_OV_ALL);
	if (m->line && (!was || retrigger)) {
		m->stats.irqs++;
		return true;
	}
	return false;
}

static void model_raise(struct hvpmu_mips_cm_model *m, bool raise)
{
	if (raise && m->raise)
		m->raise(m->raise_arg);
}

/*
 * Seed: with Perf_Ovf_Stop set, "all CM Performance counters will stop
 * counting when any counter ... reaches its maximum value". Model choice:
 * the wrap still happens and sets its status bit; then nothing counts while
 * Perf_Ovf_Stop and any status bit are set.
 */
static bool model_stopped(struct hvpmu_mips_cm_model *m)
{
	return (m->ctl & MIPS_CM_PC_CTL_OVF_STOP) && (m->ov & MIPS_CM_PC_OV_ALL);
}

/* Count @n events on counter @idx; it wraps at 2^32 and sets its status. */
static void model_count(struct hvpmu_mips_cm_model *m, unsigned int idx, u64 n)
{
	while (n) {
		u64 room = BIT_ULL(32) - m->cnt[idx];

		if (model_stopped(m)) {
			m->stats.dropped += n;
			return;
		}
		if (n < room) {
			m->cnt[idx] += n;
			return;
		}
		n -= room;
		m->cnt[idx] = 0;
		m->ov |= MIPS_CM_PC_OV_BIT(idx);
	}
}

static void model_reset_all(struct hvpmu_mips_cm_model *m)
{
	/* reference 2.1: every PC register resets to 0 but Perf_Num_Cnt */
	m->ctl = 0;
	m->ov = 0;
	m->event = 0;
	memset(m->qual, 0, sizeof(m->qual));
	memset(m->cnt, 0, sizeof(m->cnt));
	m->line = false;
}

static void model_hook(struct hvpmu_mips_cm_model *m, unsigned int off,
		       bool write)
{
	if (m->hook)
		m->hook(m->hook_arg, off, write);
}

static bool model_reg_ok(unsigned int off)
{
	return off >= MIPS_CM_PC_CTL && off <= MIPS_CM_PC_CNT(1) && !(off & 7);
}

/*
 * A register's value, under m->lock. @all: also counters and qualifiers
 * beyond Perf_Num_Cnt (tests peek at the storage); the driver's reads see
 * 0 there, as on a CM with fewer counters.
 */
static u32 model_reg(struct hvpmu_mips_cm_model *m, unsigned int off, bool all)
{
	unsigned int n;

	switch (off) {
	case MIPS_CM_PC_CTL:
		return m->ctl | m->num_cnt;
	case MIPS_CM_PC_OV:
		return m->ov;
	case MIPS_CM_PC_EVENT:
		return m->event;
	case MIPS_CM_PC_CYCLE:
		return m->cnt[MIPS_CM_PC_CYCLE_IDX];
	case MIPS_CM_PC_QUAL(0):
	case MIPS_CM_PC_QUAL(1):
		n = (off - MIPS_CM_PC_QUAL(0)) / 0x10;
		return all || n < m->num_cnt ? m->qual[n] : 0;
	case MIPS_CM_PC_CNT(0):
	case MIPS_CM_PC_CNT(1):
		n = (off - MIPS_CM_PC_CNT(0)) / 0x10;
		return all || n < m->num_cnt ? m->cnt[1 + n] : 0;
	default:
		/* the interleaved trace registers read 0 here */
		return 0;
	}
}

static u32 model_read(void *ctx, unsigned int off)
{
	struct hvpmu_mips_cm_model *m = ctx;
	unsigned long flags;
	u32 val = U32_MAX;

	model_hook(m, off, false);
	spin_lock_irqsave(&m->lock, flags);
	if (model_reg_ok(off))
		m->stats.reads[hvpmu_mips_cm_model_reg_idx(off)]++;
	if (!model_has(m, HVPMU_MIPS_CM_FAULT_DEAD))
		val = model_reg(m, off, false);
	spin_unlock_irqrestore(&m->lock, flags);
	return val;
}

static bool model_write_ctl(struct hvpmu_mips_cm_model *m, u32 val)
{
	unsigned int idx;

	m->ctl = val & CTL_STORED;
	for (idx = model_nr_idx(m); idx < MIPS_CM_PC_NR_IDX; idx++)
		m->ctl &= ~MIPS_CM_PC_CTL_COUNTON(idx);
	/*
	 * Seed: a Reset bit resets the counter "along with its corresponding
	 * overflow bit prior to the start of counting", and may be set in the
	 * same access as CountOn. Model choice: the reset acts on the write
	 * that carries it, whatever CountOn says, and the bit reads back 0.
	 */
	for (idx = 0; idx < model_nr_idx(m); idx++) {
		if (!(val & MIPS_CM_PC_CTL_RESET(idx)))
			continue;
		m->cnt[idx] = 0;
		m->ov &= ~MIPS_CM_PC_OV_BIT(idx);
		m->stats.resets[idx]++;
	}
	return model_update_line(m, false);
}

static void model_write(void *ctx, unsigned int off, u32 val)
{
	struct hvpmu_mips_cm_model *m = ctx;
	bool raise = false;
	unsigned long flags;
	unsigned int n;

	model_hook(m, off, true);
	spin_lock_irqsave(&m->lock, flags);
	if (model_reg_ok(off))
		m->stats.writes[hvpmu_mips_cm_model_reg_idx(off)]++;
	if (model_has(m, HVPMU_MIPS_CM_FAULT_DEAD))
		goto out;
	switch (off) {
	case MIPS_CM_PC_CTL:
		raise = model_write_ctl(m, val);
		break;
	case MIPS_CM_PC_OV:
		/* seed: "A status bit is cleared by writing a 1 to it" */
		if (!model_has(m, HVPMU_MIPS_CM_FAULT_OV_STUCK))
			m->ov &= ~val;
		raise = model_update_line(m, true);
		break;
	case MIPS_CM_PC_EVENT:
		m->event = val & (MIPS_CM_PC_EVENT_SEL(0) | MIPS_CM_PC_EVENT_SEL(1));
		break;
	case MIPS_CM_PC_CYCLE:
		m->cnt[MIPS_CM_PC_CYCLE_IDX] = val;
		break;
	case MIPS_CM_PC_QUAL(0):
	case MIPS_CM_PC_QUAL(1):
		n = (off - MIPS_CM_PC_QUAL(0)) / 0x10;
		if (n < m->num_cnt)
			m->qual[n] = val;
		break;
	case MIPS_CM_PC_CNT(0):
	case MIPS_CM_PC_CNT(1):
		/* seed: the counters are R/W */
		n = (off - MIPS_CM_PC_CNT(0)) / 0x10;
		if (n < m->num_cnt)
			m->cnt[1 + n] = val;
		break;
	default:
		break;
	}
out:
	spin_unlock_irqrestore(&m->lock, flags);
	model_raise(m, raise);
}

/* Register access to a model; the ops' ctx is the model. */
const struct hvpmu_mips_cm_ops hvpmu_mips_cm_model_ops = {
	.read = model_read,
	.write = model_write,
};
EXPORT_SYMBOL_GPL(hvpmu_mips_cm_model_ops);

/**
 * hvpmu_mips_cm_model_create() - a debug block in its reset state
 * @num_cnt: the value of Perf_Num_Cnt (2 on real CMs, 0 on QEMU's), 0-15
 *
 * Return: the model, or NULL if out of memory or @num_cnt is too big.
 */
struct hvpmu_mips_cm_model *hvpmu_mips_cm_model_create(unsigned int num_cnt)
{
	struct hvpmu_mips_cm_model *m;

	if (num_cnt > FIELD_MAX(MIPS_CM_PC_CTL_NUM_CNT))
		return NULL;
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return NULL;
	spin_lock_init(&m->lock);
	m->num_cnt = num_cnt;
	return m;
}
EXPORT_SYMBOL_GPL(hvpmu_mips_cm_model_create);

/**
 * hvpmu_mips_cm_model_destroy() - free a model
 * @m: the model; no PMU may still use it
 */
void hvpmu_mips_cm_model_destroy(struct hvpmu_mips_cm_model *m)
{
	kfree(m);
}
EXPORT_SYMBOL_GPL(hvpmu_mips_cm_model_destroy);

/**
 * hvpmu_mips_cm_model_set_irq() - connect CM_PCInt
 * @m: the model
 * @raise: called, without model locks held, each time the line is
 *	asserted (and again on a status write that leaves it asserted);
 *	NULL to disconnect
 * @arg: argument of @raise
 */
void hvpmu_mips_cm_model_set_irq(struct hvpmu_mips_cm_model *m,
				 void (*raise)(void *arg), void *arg)
{
	unsigned long flags;

	spin_lock_irqsave(&m->lock, flags);
	m->raise = raise;
	m->raise_arg = arg;
	spin_unlock_irqrestore(&m->lock, flags);
}
EXPORT_SYMBOL_GPL(hvpmu_mips_cm_model_set_irq);

/**
 * hvpmu_mips_cm_model_set_hook() - observe every register access
 * @m: the model
 * @hook: called before each read or write, without model locks held, so it
 *	may inject traffic or faults at an exact point; NULL to remove
 * @arg: argument of @hook
 */
void hvpmu_mips_cm_model_set_hook(struct hvpmu_mips_cm_model *m,
				  void (*hook)(void *arg, unsigned int off,
					       bool write),
				  void *arg)
{
	unsigned long flags;

	spin_lock_irqsave(&m->lock, flags);
	m->hook = hook;
	m->hook_arg = arg;
	spin_unlock_irqrestore(&m->lock, flags);
}
EXPORT_SYMBOL_GPL(hvpmu_mips_cm_model_set_hook);

/**
 * hvpmu_mips_cm_model_inject() - traffic of one event type
 * @m: the model
 * @event: the event number (GCR_DB_PC_EVENT)
 * @qualifier: the traffic's qualifier
 * @n: number of events
 *
 * Every enabled event counter whose event select is @event and whose
 * qualifier register equals @qualifier counts @n (model choice: the real
 * qualifier matching is in the CPS manuals, reference section 8).
 */
void hvpmu_mips_cm_model_inject(struct hvpmu_mips_cm_model *m, u8 event,
				u32 qualifier, u64 n)
{
	unsigned long flags;
	unsigned int c;
	bool raise;

	spin_lock_irqsave(&m->lock, flags);
	if (model_has(m, HVPMU_MIPS_CM_FAULT_DEAD))
		goto out_unlock;
	for (c = 0; c < model_nr_idx(m) - 1; c++) {
		if (!(m->ctl & MIPS_CM_PC_CTL_COUNTON(1 + c)) ||
		    ((m->event & MIPS_CM_PC_EVENT_SEL(c)) >> (8 * c)) != event ||
		    m->qual[c] != qualifier)
			continue;
		model_count(m, 1 + c, n);
	}
	raise = model_update_line(m, false);
	spin_unlock_irqrestore(&m->lock, flags);
	model_raise(m, raise);
	return;
out_unlock:
	spin_unlock_irqrestore(&m->lock, flags);
}
EXPORT_SYMBOL_GPL(hvpmu_mips_cm_model_inject);

/**
 * hvpmu_mips_cm_model_cycles() - let CM clock cycles pass
 * @m: the model
 * @n: cycles; the cycle counter counts them when enabled
 */
void hvpmu_mips_cm_model_cycles(struct hvpmu_mips_cm_model *m, u64 n)
{
	unsigned long flags;
	bool raise = false;

	spin_lock_irqsave(&m->lock, flags);
	if (!model_has(m, HVPMU_MIPS_CM_FAULT_DEAD) &&
	    (m->ctl & MIPS_CM_PC_CTL_COUNTON(MIPS_CM_PC_CYCLE_IDX))) {
		model_count(m, MIPS_CM_PC_CYCLE_IDX, n);
		raise = model_update_line(m, false);
	}
	spin_unlock_irqrestore(&m->lock, flags);
	model_raise(m, raise);
}
EXPORT_SYMBOL_GPL(hvpmu_mips_cm_model_cycles);

/**
 * hvpmu_mips_cm_model_fault() - raise or clear a fault
 * @m: the model
 * @fault: the &enum hvpmu_mips_cm_fault
 * @on: raise (true) or clear (false); one-shot faults act at once and
 *	ignore @on == false
 */
void hvpmu_mips_cm_model_fault(struct hvpmu_mips_cm_model *m,
			       enum hvpmu_mips_cm_fault fault, bool on)
{
	unsigned long flags;
	bool raise = false;

	spin_lock_irqsave(&m->lock, flags);
	switch (fault) {
	case HVPMU_MIPS_CM_FAULT_STATE_LOSS:
		if (on)
			model_reset_all(m);
		break;
	case HVPMU_MIPS_CM_FAULT_OVF_STOP:
		if (on)
			m->ctl |= MIPS_CM_PC_CTL_OVF_STOP;
		break;
	case HVPMU_MIPS_CM_FAULT_SPURIOUS_IRQ:
		if (on) {
			m->stats.irqs++;
			raise = true;
		}
		break;
	case HVPMU_MIPS_CM_FAULT_DEAD:
	case HVPMU_MIPS_CM_FAULT_OV_STUCK:
		if (on)
			set_bit(fault, &m->faults);
		else
			clear_bit(fault, &m->faults);
		break;
	default:
		break;
	}
	spin_unlock_irqrestore(&m->lock, flags);
	model_raise(m, raise);
}
EXPORT_SYMBOL_GPL(hvpmu_mips_cm_model_fault);

/**
 * hvpmu_mips_cm_model_peek() - read a register without counting the access
 * @m: the model
 * @off: register offset
 *
 * Return: the register's value (CTL includes Perf_Num_Cnt).
 */
u32 hvpmu_mips_cm_model_peek(struct hvpmu_mips_cm_model *m, unsigned int off)
{
	unsigned long flags;
	u32 val;

	spin_lock_irqsave(&m->lock, flags);
	val = model_reg(m, off, true);
	spin_unlock_irqrestore(&m->lock, flags);
	return val;
}
EXPORT_SYMBOL_GPL(hvpmu_mips_cm_model_peek);

/**
 * hvpmu_mips_cm_model_poke() - set a counter or status behind the driver
 * @m: the model
 * @off: MIPS_CM_PC_CYCLE, MIPS_CM_PC_CNT(n) or MIPS_CM_PC_OV
 * @val: the value
 *
 * For tests that start a counter close to its wrap. Does not count as an
 * access and does not raise the interrupt.
 */
void hvpmu_mips_cm_model_poke(struct hvpmu_mips_cm_model *m, unsigned int off,
			      u32 val)
{
	unsigned long flags;

	spin_lock_irqsave(&m->lock, flags);
	switch (off) {
	case MIPS_CM_PC_OV:
		m->ov = val & MIPS_CM_PC_OV_ALL;
		break;
	case MIPS_CM_PC_CYCLE:
		m->cnt[MIPS_CM_PC_CYCLE_IDX] = val;
		break;
	case MIPS_CM_PC_CNT(0):
	case MIPS_CM_PC_CNT(1):
		m->cnt[1 + (off - MIPS_CM_PC_CNT(0)) / 0x10] = val;
		break;
	}
	spin_unlock_irqrestore(&m->lock, flags);
}
EXPORT_SYMBOL_GPL(hvpmu_mips_cm_model_poke);

/**
 * hvpmu_mips_cm_model_stats() - copy the access counters
 * @m: the model
 * @st: where to copy them
 */
void hvpmu_mips_cm_model_stats(struct hvpmu_mips_cm_model *m,
			       struct hvpmu_mips_cm_model_stats *st)
{
	unsigned long flags;

	spin_lock_irqsave(&m->lock, flags);
	*st = m->stats;
	spin_unlock_irqrestore(&m->lock, flags);
}
EXPORT_SYMBOL_GPL(hvpmu_mips_cm_model_stats);

/**
 * hvpmu_mips_cm_model_line() - level of CM_PCInt
 * @m: the model
 *
 * Return: true while the interrupt line is asserted.
 */
bool hvpmu_mips_cm_model_line(struct hvpmu_mips_cm_model *m)
{
	unsigned long flags;
	bool line;

	spin_lock_irqsave(&m->lock, flags);
	line = m->line;
	spin_unlock_irqrestore(&m->lock, flags);
	return line;
}
EXPORT_SYMBOL_GPL(hvpmu_mips_cm_model_line);

/* --- simulated platform ------------------------------------------------- */

/*
 * The simulated platform has no interrupt: the driver polls, every
 * SIM_POLL_MS so that large injections (split at each wrap) stay quick.
 */
#define SIM_POLL_MS	10

static struct hvpmu_mips_cm_model *sim_model;
static struct hvpmu_mips_cm *sim_pmu;

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

static const char *const sim_fault_names[HVPMU_MIPS_CM_NR_FAULTS] = {
	[HVPMU_MIPS_CM_FAULT_DEAD] = "dead",
	[HVPMU_MIPS_CM_FAULT_STATE_LOSS] = "state_loss",
	[HVPMU_MIPS_CM_FAULT_OVF_STOP] = "ovf_stop",
	[HVPMU_MIPS_CM_FAULT_OV_STUCK] = "ov_stuck",
	[HVPMU_MIPS_CM_FAULT_SPURIOUS_IRQ] = "spurious_irq",
};

/*
 * Count @n in steps that wrap a counter at most once, waiting after each
 * wrap until the driver has folded it (its status bit is clear), as real
 * traffic never outruns the poll.
 */
static int sim_count(bool cycles, u8 event, u32 qual, u64 n)
{
	while (n) {
		u64 step = min_t(u64, n, BIT_ULL(31));
		int i;

		if (cycles)
			hvpmu_mips_cm_model_cycles(sim_model, step);
		else
			hvpmu_mips_cm_model_inject(sim_model, event, qual, step);
		n -= step;
		for (i = 0; i < 100 * SIM_POLL_MS &&
		     (hvpmu_mips_cm_model_peek(sim_model, MIPS_CM_PC_OV) &
		      MIPS_CM_PC_OV_ALL); i++)
			usleep_range(1000, 2000);
		if (hvpmu_mips_cm_model_peek(sim_model, MIPS_CM_PC_OV) &
		    MIPS_CM_PC_OV_ALL)
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
	for (i = 0; i < HVPMU_MIPS_CM_NR_FAULTS; i++) {
		if (strcmp(name, sim_fault_names[i]))
			continue;
		hvpmu_mips_cm_model_fault(sim_model, i, on);
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

static const struct {
	const char *name;
	unsigned int off;
} sim_regs[] = {
	{ "ctl", MIPS_CM_PC_CTL }, { "ov", MIPS_CM_PC_OV },
	{ "event", MIPS_CM_PC_EVENT }, { "cycle", MIPS_CM_PC_CYCLE },
	{ "qual0", MIPS_CM_PC_QUAL(0) }, { "cnt0", MIPS_CM_PC_CNT(0) },
	{ "qual1", MIPS_CM_PC_QUAL(1) }, { "cnt1", MIPS_CM_PC_CNT(1) },
};

static int sim_calls_show(struct seq_file *s, void *unused)
{
	struct hvpmu_mips_cm_model_stats st;
	unsigned int i, r;

	hvpmu_mips_cm_model_stats(sim_model, &st);
	for (i = 0; i < ARRAY_SIZE(sim_regs); i++) {
		r = hvpmu_mips_cm_model_reg_idx(sim_regs[i].off);
		seq_printf(s, "%s reads %llu writes %llu value %#x\n",
			   sim_regs[i].name, st.reads[r], st.writes[r],
			   hvpmu_mips_cm_model_peek(sim_model, sim_regs[i].off));
	}
	for (i = 0; i < MIPS_CM_PC_NR_IDX; i++)
		seq_printf(s, "resets%u %llu\n", i, st.resets[i]);
	seq_printf(s, "irqs %llu\ndropped %llu\n", st.irqs, st.dropped);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_calls);

/**
 * hvpmu_mips_cm_sim_start() - "mips_cm" on the model, for the simulated
 *	platform
 * @dir: debugfs directory for the model's files ("inject", "fault",
 *	"calls"; see Documentation/admin-guide/perf/hvpmu-mips-cm.rst)
 * @owner: module that owns the PMU (pinned while events are open)
 *
 * A CM2 debug block with two counters and no interrupt (the driver polls).
 *
 * Return: 0, or a negative errno (nothing is left registered).
 */
int hvpmu_mips_cm_sim_start(struct dentry *dir, struct module *owner)
{
	struct hvpmu_mips_cm_platdata pd = {
		.ops = &hvpmu_mips_cm_model_ops,
		.cm_rev = 0x0600,
		.poll_period_ms = SIM_POLL_MS,
		.owner = owner,
	};

	sim_model = hvpmu_mips_cm_model_create(2);
	if (!sim_model)
		return -ENOMEM;
	pd.ctx = sim_model;
	sim_pmu = hvpmu_mips_cm_probe(&pd, "mips_cm");
	if (IS_ERR(sim_pmu)) {
		hvpmu_mips_cm_model_destroy(sim_model);
		return PTR_ERR(sim_pmu);
	}
	debugfs_create_file("inject", 0200, dir, NULL, &sim_inject_fops);
	debugfs_create_file("fault", 0200, dir, NULL, &sim_fault_fops);
	debugfs_create_file("calls", 0444, dir, NULL, &sim_calls_fops);
	return 0;
}
EXPORT_SYMBOL_GPL(hvpmu_mips_cm_sim_start);

/**
 * hvpmu_mips_cm_sim_exit() - undo hvpmu_mips_cm_sim_start()
 *
 * The caller has removed the debugfs files already.
 */
void hvpmu_mips_cm_sim_exit(void)
{
	hvpmu_mips_cm_remove(sim_pmu);
	hvpmu_mips_cm_model_destroy(sim_model);
}
EXPORT_SYMBOL_GPL(hvpmu_mips_cm_sim_exit);

MODULE_DESCRIPTION("Model of the MIPS CM debug block performance counters");
MODULE_LICENSE("GPL");
