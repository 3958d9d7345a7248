// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the mips_cm PMU against the model of the CM debug block,
 * through the real perf core. The overflow interrupt is a simulated one
 * (IRQ_SIM) raised by the model's CM_PCInt line, and raised again for as
 * long as that level stays high and the interrupt enabled, as a level
 * interrupt is.
 *
 * Expected values come from the MIPS CPS Coherence Manager performance
 * register documentation (GCR_DB_PC_*), typed in below, never from the
 * driver's or the model's definitions. The specification leaves open
 * when a counter "overflows" (on reaching 0xFFFFFFFF, its own wording, or
 * on the wrap to 0); the exact-count cases run under both readings, with
 * and without Perf_Ovf_Stop, with a working, a dead and no interrupt.
 * Cases that check the model itself are named and labelled "model:".
 *
 * Safe on a running board: every case probes a PMU of its own
 * ("mips_cm_test") on its own model, which is linked into this module,
 * through mips_cm_pmu_probe(); the driver then reaches only the model
 * (struct mips_cm_pmu_ops), never the CM or the "mips_cm" PMU of the
 * board, and no case writes to a global of the driver or of the
 * architecture. The overflow interrupt is an IRQ_SIM interrupt of the
 * suite's own. The CPU hotplug case takes the last online CPU offline
 * and brings it back.
 */

#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irq_sim.h>
#include <linux/irqdomain.h>
#include <linux/kstrtox.h>
#include "mips_cm_model.h"
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/workqueue.h>

#include "pmu_format_kunit.h"

/*
 * The CM register specification ("CM Performance Registers - Offset
 * 0x6000"), typed in: offsets within the Global Debug Block, which starts
 * at GCR base + 0x6000.
 */
#define SPEC_CTL		0x100	/* GCR_DB_PC_CTL */
#define SPEC_OV			0x120	/* GCR_DB_PC_OV */
#define SPEC_EVENT		0x130	/* GCR_DB_PC_EVENT */
#define SPEC_CYCLE		0x180	/* GCR_DB_PC_CYCLE */
#define SPEC_QUAL0		0x190	/* GCR_DB_PC_QUAL0 */
#define SPEC_CNT0		0x198	/* GCR_DB_PC_CNT0 */
#define SPEC_QUAL1		0x1a0	/* GCR_DB_PC_QUAL1 */
#define SPEC_CNT1		0x1a8	/* GCR_DB_PC_CNT1 */
/* GCR_DB_PC_CTL */
#define SPEC_INT_EN		BIT(30)	/* Perf_Int_En */
#define SPEC_OVF_STOP		BIT(29)	/* Perf_Ovf_Stop */
#define SPEC_P1_RESET		BIT(9)
#define SPEC_P1_ON		BIT(8)	/* P1_CountOn */
#define SPEC_P0_RESET		BIT(7)
#define SPEC_P0_ON		BIT(6)
#define SPEC_CYC_RESET		BIT(5)
#define SPEC_CYC_ON		BIT(4)	/* Cycl_Cnt_CountOn */
#define SPEC_NUM_CNT		2	/* Perf_Num_Cnt, bits 3:0: "always 2" */
#define SPEC_ALL_ON		(SPEC_P1_ON | SPEC_P0_ON | SPEC_CYC_ON)
/* GCR_DB_PC_OV */
#define SPEC_OV_P1		BIT(2)
#define SPEC_OV_P0		BIT(1)
#define SPEC_OV_CYC		BIT(0)
/* GCR_DB_PC_EVENT: P1_Event 15:8, P0_Event 7:0 */
#define SPEC_EV_P1(ev)		((u32)(ev) << 8)
#define SPEC_EV_P0(ev)		((u32)(ev) << 0)
/* the event numbers the specification lists */
static const u8 spec_events[] = { 0, 1, 2, 3, 4, 5, 6, 8, 9, 16, 17 };

/* Not "mips_cm": the CM's own PMU or another test may own that name. */
#define TEST_PMU	"mips_cm_test"
#define MAX_EVENTS	8
#define MAX_REC		256

/* Our config ABI (sysfs format/): event config:0-7, cycle_counter config:8 */
#define EV_REQ		0x00	/* request_count */
#define EV_IOCU1	0x11	/* iocu1_requests */
#define QUAL_A		0xff47c001
#define QUAL_B		0x000c79ff
#define CYCLES		BIT_ULL(8)

#define PERIOD		BIT_ULL(32)
#define WRAPS		1000

/*
 * The level of CM_PCInt is looked at every LEVEL_NS while it is high; a
 * line taken LEVEL_STORM times in a row without dropping is a storm (the
 * kernel's spurious-interrupt detector would give up the line only after
 * 100000 unhandled ones).
 */
#define LEVEL_NS	(50 * NSEC_PER_USEC)
#define LEVEL_STORM	1000

static struct irq_domain *sim_domain;
static struct fwnode_handle *sim_fwnode;
static int sim_irq;

struct rec {
	unsigned int off;
	bool write;
	u32 val;
	int cpu;
	bool hardirq;
	int irq_config;
};

struct cm_test {
	struct mips_cm_model *m;
	struct mips_cm_pmu *cm;
	struct pmu *pmu;
	/* the CPU of the PMU's cpumask: where perf opens its events */
	unsigned int cpu;
	struct perf_event *ev[MAX_EVENTS];
	unsigned int nr_ev;
	/* one-shot hook: run @hook_fn before access @hook_nth to @hook_off */
	unsigned int hook_off;
	bool hook_write;
	int hook_nth;
	void (*hook_fn)(struct cm_test *t);
	int hook_ran;
	u64 hook_arg;
	/* CM_PCInt as a level: see level_tick() */
	raw_spinlock_t level_lock;
	struct hrtimer level;
	bool level_armed;
	unsigned int level_held;
	bool storm;
	/* access recorder */
	raw_spinlock_t rec_lock;
	bool recording;
	u32 rec_ctl;
	unsigned int nr_rec;
	struct rec rec[MAX_REC];
};

/*
 * IRQ_SIM delivers one interrupt per raise, as for an edge: a line the
 * handler leaves high is never taken again. An interrupt controller takes
 * a level interrupt again for as long as the line is high and the
 * interrupt enabled; this timer does that while the model's CM_PCInt is
 * high: each time the interrupt is enabled and not pending already, it
 * raises it again. LEVEL_STORM raises in a row, with the line never low in
 * between, are recorded as a storm and end the re-raising, so that the
 * case reports it instead of hanging.
 */
static enum hrtimer_restart level_tick(struct hrtimer *timer)
{
	struct cm_test *t = container_of(timer, struct cm_test, level);
	bool pending = true, raise = false;
	unsigned long flags;

	raw_spin_lock_irqsave(&t->level_lock, flags);
	if (!mips_cm_model_line(t->m) || t->storm) {
		t->level_held = 0;
		t->level_armed = false;
		raw_spin_unlock_irqrestore(&t->level_lock, flags);
		return HRTIMER_NORESTART;
	}
	if (!irqd_irq_disabled(irq_get_irq_data(sim_irq)) &&
	    !irq_get_irqchip_state(sim_irq, IRQCHIP_STATE_PENDING, &pending) &&
	    !pending) {
		if (++t->level_held >= LEVEL_STORM) {
			WRITE_ONCE(t->storm, true);
			t->level_armed = false;
			raw_spin_unlock_irqrestore(&t->level_lock, flags);
			return HRTIMER_NORESTART;
		}
		raise = true;
	}
	raw_spin_unlock_irqrestore(&t->level_lock, flags);
	if (raise)
		irq_set_irqchip_state(sim_irq, IRQCHIP_STATE_PENDING, true);
	hrtimer_forward_now(timer, ns_to_ktime(LEVEL_NS));
	return HRTIMER_RESTART;
}

static void sim_raise(void *arg)
{
	struct cm_test *t = arg;
	unsigned long flags;

	irq_set_irqchip_state(sim_irq, IRQCHIP_STATE_PENDING, true);
	raw_spin_lock_irqsave(&t->level_lock, flags);
	if (!t->level_armed && !t->storm) {
		t->level_armed = true;
		hrtimer_start(&t->level, ns_to_ktime(LEVEL_NS),
			      HRTIMER_MODE_REL_HARD);
	}
	raw_spin_unlock_irqrestore(&t->level_lock, flags);
}

/* No case may leave CM_PCInt high and enabled until it storms. */
static void expect_no_storm(struct kunit *test)
{
	struct cm_test *t = test->priv;
	bool storm = READ_ONCE(t->storm);

	KUNIT_EXPECT_FALSE_MSG(test, storm,
			       "CM_PCInt taken %d times in a row while held high",
			       LEVEL_STORM);
}

static void cm_model(struct kunit *test, unsigned int num_cnt)
{
	struct cm_test *t = test->priv;

	t->m = mips_cm_model_create(num_cnt);
	KUNIT_ASSERT_NOT_NULL(test, t->m);
}

static void cm_drop_model(struct cm_test *t)
{
	hrtimer_cancel(&t->level);
	mips_cm_model_destroy(t->m);
	t->m = NULL;
}

/*
 * The PMU's sysfs "cpumask": a file of the driver's own groups or of perf
 * core's (pmu_bus), wherever the kernel puts it.
 */
static unsigned int cm_cpumask(struct kunit *test)
{
	struct cm_test *t = test->priv;
	const struct attribute_group *const *g;
	const char *s = NULL;
	unsigned int cpu;

	for (g = t->pmu->dev->groups; g && *g && !s; g++)
		s = pmu_kunit_group_file(test, t->pmu->dev, *g, "cpumask");
	for (g = t->pmu->dev->bus->dev_groups; g && *g && !s; g++)
		s = pmu_kunit_group_file(test, t->pmu->dev, *g, "cpumask");
	KUNIT_ASSERT_NOT_NULL(test, s);
	/* one CPU, as perf expects of an uncore PMU */
	KUNIT_ASSERT_EQ_MSG(test, kstrtouint(s, 10, &cpu), 0, "cpumask %s", s);
	KUNIT_ASSERT_TRUE(test, cpu_online(cpu));
	return cpu;
}

/*
 * The CPU event_init leaves an event opened on @cpu on. A PMU with a scope
 * keeps @cpu: perf core moves the event to the scope's CPU after
 * event_init. Without one, the driver binds the event to its own CPU.
 */
static int cm_bound_cpu(struct cm_test *t, int cpu)
{
#ifdef PERF_PMU_CAP_SCOPE_BIND
	if (t->pmu->capabilities & PERF_PMU_CAP_SCOPE_BIND)
		return cpu;
#endif
	return t->cpu;
}

/*
 * Probe the PMU on t->m (through @ops, if not NULL) with these platform
 * data; returns the errno of the probe. @connect: the model's CM_PCInt
 * raises @pd->irq (else a described interrupt never comes).
 */
static int cm_probe_ops(struct kunit *test, struct mips_cm_pmu_platdata *pd,
			const struct mips_cm_pmu_ops *ops, bool connect)
{
	struct cm_test *t = test->priv;
	struct mips_cm_pmu *cm;

	if (!ops)
		ops = mips_cm_model_ops(t->m);
	if (pd->irq > 0 && connect)
		mips_cm_model_set_irq(t->m, sim_raise, t);
	cm = mips_cm_pmu_probe(pd, ops, TEST_PMU);
	if (IS_ERR(cm))
		return PTR_ERR(cm);
	t->cm = cm;
	t->pmu = mips_cm_pmu_to_pmu(cm);
	t->cpu = cm_cpumask(test);
	return 0;
}

static int cm_probe_pd(struct kunit *test, struct mips_cm_pmu_platdata *pd,
		       bool connect)
{
	return cm_probe_ops(test, pd, NULL, connect);
}

static int cm_probe(struct kunit *test, int irq, unsigned int poll_ms)
{
	struct mips_cm_pmu_platdata pd = {
		.irq = irq,
		.cm_rev = 0x0600,
		.nr_clusters = 1,
		.nr_iocu = 2,
		.poll_period_ms = poll_ms,
	};

	return cm_probe_pd(test, &pd, true);
}

static void cm_setup(struct kunit *test, bool irq, unsigned int poll_ms)
{
	cm_model(test, SPEC_NUM_CNT);
	KUNIT_ASSERT_EQ(test, cm_probe(test, irq ? sim_irq : 0, poll_ms), 0);
}

static void cm_remove(struct cm_test *t)
{
	mips_cm_pmu_remove(t->cm);
	t->cm = NULL;
}

static struct perf_event *cm_open_attr(struct kunit *test, u64 config,
				       u64 config1, bool pinned)
{
	struct cm_test *t = test->priv;
	struct perf_event_attr attr = {
		.type = t->pmu->type,
		.size = sizeof(attr),
		.config = config,
		.config1 = config1,
		.pinned = pinned,
	};
	struct perf_event *ev;

	ev = perf_event_create_kernel_counter(&attr, t->cpu, NULL, NULL, NULL);
	if (!IS_ERR(ev)) {
		KUNIT_ASSERT_LT(test, t->nr_ev, MAX_EVENTS);
		t->ev[t->nr_ev++] = ev;
	}
	return ev;
}

static struct perf_event *cm_open(struct kunit *test, u64 config, u64 config1)
{
	return cm_open_attr(test, config, config1, false);
}

static void cm_close(struct kunit *test, struct perf_event *ev)
{
	struct cm_test *t = test->priv;
	unsigned int i;

	for (i = 0; i < t->nr_ev; i++) {
		if (t->ev[i] != ev)
			continue;
		t->ev[i] = t->ev[--t->nr_ev];
		perf_event_release_kernel(ev);
		return;
	}
}

static void cm_close_all(struct cm_test *t)
{
	while (t->nr_ev)
		perf_event_release_kernel(t->ev[--t->nr_ev]);
}

static u64 cm_value(struct perf_event *ev)
{
	u64 enabled, running;

	return perf_event_read_value(ev, &enabled, &running);
}

static void cm_stats(struct kunit *test, struct mips_cm_model_stats *st)
{
	struct cm_test *t = test->priv;

	mips_cm_model_stats(t->m, st);
}

/* Rising edges of CM_PCInt since @before was taken. */
static u64 irqs_since(struct kunit *test,
		      const struct mips_cm_model_stats *before)
{
	struct mips_cm_model_stats st;

	cm_stats(test, &st);
	return st.irqs - before->irqs;
}

static noinline_for_stack u64 reads_of(struct kunit *test, unsigned int off)
{
	struct mips_cm_model_stats st;

	cm_stats(test, &st);
	return st.reads[off / 8];
}

static noinline_for_stack u64 writes_of(struct kunit *test, unsigned int off)
{
	struct mips_cm_model_stats st;

	cm_stats(test, &st);
	return st.writes[off / 8];
}

static noinline_for_stack u64 all_accesses(struct kunit *test)
{
	struct mips_cm_model_stats st;
	u64 n = 0;
	int i;

	cm_stats(test, &st);
	for (i = 0; i < ARRAY_SIZE(st.reads); i++)
		n += st.reads[i] + st.writes[i];
	return n;
}

static u32 peek(struct kunit *test, unsigned int off)
{
	struct cm_test *t = test->priv;

	return mips_cm_model_peek(t->m, off);
}

/* Wait until the interrupt handler has taken every pending overflow. */
static void wait_irq_done(struct kunit *test)
{
	struct cm_test *t = test->priv;
	int i;

	for (i = 0; i < 100000; i++) {
		if (!mips_cm_model_line(t->m))
			return;
		if (i > 100)
			usleep_range(10, 20);
		else
			cpu_relax();
	}
	KUNIT_FAIL(test, "overflow interrupt not handled");
}

/* Wait until the fold timer has read counter register @off twice. */
static void wait_poll(struct kunit *test, unsigned int off)
{
	u64 start = reads_of(test, off);
	int i;

	for (i = 0; i < 5000; i++) {
		if (reads_of(test, off) >= start + 2)
			return;
		usleep_range(100, 200);
	}
	KUNIT_FAIL(test, "fold timer did not run");
}

static u32 rnd_state = 0x2545f491;

static u32 rnd(void)
{
	/* xorshift32: reproducible, no entropy needed */
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state;
}

static u64 rnd64(void)
{
	return (u64)rnd() << 32 | rnd();
}

static void cm_hook(void *arg, unsigned int off, bool write, u32 val)
{
	struct cm_test *t = arg;
	unsigned long flags;

	raw_spin_lock_irqsave(&t->rec_lock, flags);
	if (t->recording && t->nr_rec < MAX_REC) {
		struct rec *r = &t->rec[t->nr_rec++];

		r->off = off;
		r->write = write;
		r->val = val;
		r->cpu = raw_smp_processor_id();
		r->hardirq = in_hardirq();
#ifdef CONFIG_TRACE_IRQFLAGS
		r->irq_config = current->irq_config;
#endif
	}
	raw_spin_unlock_irqrestore(&t->rec_lock, flags);

	if (!t->hook_fn || off != t->hook_off || write != t->hook_write)
		return;
	if (--t->hook_nth)
		return;
	t->hook_fn(t);
	t->hook_fn = NULL;
	t->hook_ran++;
}

static void cm_arm_hook(struct cm_test *t, unsigned int off, bool write,
			int nth, void (*fn)(struct cm_test *t))
{
	t->hook_off = off;
	t->hook_write = write;
	t->hook_nth = nth;
	t->hook_ran = 0;
	t->hook_fn = fn;
	mips_cm_model_set_hook(t->m, cm_hook, t);
}

static void rec_start(struct cm_test *t)
{
	u32 ctl = mips_cm_model_peek(t->m, SPEC_CTL);
	unsigned long flags;

	mips_cm_model_set_hook(t->m, cm_hook, t);
	raw_spin_lock_irqsave(&t->rec_lock, flags);
	t->rec_ctl = ctl;
	t->nr_rec = 0;
	t->recording = true;
	raw_spin_unlock_irqrestore(&t->rec_lock, flags);
}

static void rec_stop(struct cm_test *t)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&t->rec_lock, flags);
	t->recording = false;
	raw_spin_unlock_irqrestore(&t->rec_lock, flags);
}

/*
 * Record until the fold timer has read counter register @off more than
 * @n times, or 10 s passed: the test then checks each of those reads. A
 * fixed sleep instead would count how many timer periods a loaded host
 * grants the guest, which is not what is tested.
 */
static void rec_reads(struct cm_test *t, unsigned int off, unsigned int n)
{
	unsigned int i, seen;
	unsigned long flags;
	int tries;

	rec_start(t);
	for (tries = 0; tries < 5000; tries++) {
		raw_spin_lock_irqsave(&t->rec_lock, flags);
		for (i = 0, seen = 0; i < t->nr_rec; i++)
			seen += t->rec[i].off == off && !t->rec[i].write;
		raw_spin_unlock_irqrestore(&t->rec_lock, flags);
		if (seen > n || t->nr_rec == MAX_REC)
			break;
		usleep_range(1000, 2000);
	}
	rec_stop(t);
}

/* A file of one of the PMU's groups as sysfs shows it, or "(absent)". */
static const char *attr_show(struct kunit *test, const struct attribute_group *g,
			     const char *name)
{
	struct cm_test *t = test->priv;
	const char *s = pmu_kunit_group_file(test, t->pmu->dev, g, name);

	return s ?: "(absent)";
}

/* --- the specification's numbers --------------------------------------- */

/*
 * The driver's view of the register map, against the literals: where it
 * puts each counter's qualifier and event, which CountOn bits it sets,
 * which registers it reads a counter from. Counter 0 is the first event
 * opened, counter 1 the second.
 */
static void mips_cm_test_spec_register_map(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct perf_event *cyc, *a, *b;
	u64 cnt0, cnt1, cycle;

	cm_setup(test, false, 1000);
	cyc = cm_open(test, CYCLES, 0);
	a = cm_open(test, 0x5, 0x12345678);
	b = cm_open(test, 0x9, 0x9abcdef0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(cyc));
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));

	KUNIT_EXPECT_EQ(test, peek(test, SPEC_QUAL0), 0x12345678U);
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_QUAL1), 0x9abcdef0U);
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_EVENT),
			SPEC_EV_P1(0x9) | SPEC_EV_P0(0x5));
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_CTL),
			SPEC_ALL_ON | SPEC_NUM_CNT);

	/* a read of each event reads its own counter register */
	mips_cm_model_cycles(t->m, 11);
	mips_cm_model_inject(t->m, 0x5, 0x12345678, 22);
	mips_cm_model_inject(t->m, 0x9, 0x9abcdef0, 33);
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_CYCLE), 11U);
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_CNT0), 22U);
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_CNT1), 33U);
	cnt0 = reads_of(test, SPEC_CNT0);
	cnt1 = reads_of(test, SPEC_CNT1);
	cycle = reads_of(test, SPEC_CYCLE);
	KUNIT_EXPECT_EQ(test, cm_value(b), 33ULL);
	KUNIT_EXPECT_EQ(test, reads_of(test, SPEC_CNT1), cnt1 + 1);
	KUNIT_EXPECT_EQ(test, reads_of(test, SPEC_CNT0), cnt0);
	KUNIT_EXPECT_EQ(test, reads_of(test, SPEC_CYCLE), cycle);
	KUNIT_EXPECT_EQ(test, cm_value(a), 22ULL);
	KUNIT_EXPECT_EQ(test, cm_value(cyc), 11ULL);

	/* closing counter 1 clears P1_CountOn (bit 8) only */
	cm_close(test, b);
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_CTL) & SPEC_ALL_ON,
			SPEC_P0_ON | SPEC_CYC_ON);
}

struct cm_group_read {
	struct kunit *test;
	struct pmu *pmu;
	struct perf_event *ev[3];
	bool txn;
	u64 reads;
};

static noinline_for_stack u64 reads_total(struct kunit *test)
{
	struct mips_cm_model_stats st;
	unsigned int i;
	u64 n = 0;

	cm_stats(test, &st);
	for (i = 0; i < ARRAY_SIZE(st.reads); i++)
		n += st.reads[i];
	return n;
}

/* What __perf_event_read() does for a group (or not), on its CPU. */
static void cm_group_read_ipi(void *data)
{
	struct cm_group_read *g = data;
	u64 before = reads_total(g->test);
	unsigned int i;

	if (g->txn)
		g->pmu->start_txn(g->pmu, PERF_PMU_TXN_READ);
	for (i = 0; i < ARRAY_SIZE(g->ev); i++)
		g->pmu->read(g->ev[i]);
	if (g->txn)
		g->pmu->commit_txn(g->pmu);
	g->reads = reads_total(g->test) - before;
}

/* Register reads of one group read, in a transaction or not. */
static u64 cm_group_read(struct kunit *test, struct cm_group_read *g,
			 bool txn)
{
	g->txn = txn;
	KUNIT_ASSERT_EQ(test, smp_call_function_single(g->ev[0]->cpu,
						       cm_group_read_ipi, g, 1), 0);
	return g->reads;
}

/*
 * A read checks the block (GCR_DB_PC_CTL), reads its counter and, when
 * polling, the overflow status: three accesses. The members of a group
 * are read in one read transaction, which checks the block and the status
 * once: 2 + 3 accesses for three members, not 9.
 */
static void mips_cm_test_group_read(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct cm_group_read g = { .test = test };
	unsigned int i;

	cm_setup(test, false, 1000);
	g.pmu = t->pmu;
	g.ev[0] = cm_open(test, CYCLES, 0);
	g.ev[1] = cm_open(test, 0x5, 0x12345678);
	g.ev[2] = cm_open(test, 0x9, 0x9abcdef0);
	for (i = 0; i < ARRAY_SIZE(g.ev); i++)
		KUNIT_ASSERT_FALSE(test, IS_ERR(g.ev[i]));
	mips_cm_model_cycles(t->m, 11);
	mips_cm_model_inject(t->m, 0x5, 0x12345678, 22);
	mips_cm_model_inject(t->m, 0x9, 0x9abcdef0, 33);

	KUNIT_EXPECT_EQ(test, cm_group_read(test, &g, true), 5ULL);
	KUNIT_EXPECT_EQ(test, local64_read(&g.ev[0]->count), 11ULL);
	KUNIT_EXPECT_EQ(test, local64_read(&g.ev[1]->count), 22ULL);
	KUNIT_EXPECT_EQ(test, local64_read(&g.ev[2]->count), 33ULL);

	/* Read one by one: three accesses each, the same counts. */
	mips_cm_model_inject(t->m, 0x9, 0x9abcdef0, 1);
	KUNIT_EXPECT_EQ(test, cm_group_read(test, &g, false), 9ULL);
	KUNIT_EXPECT_EQ(test, local64_read(&g.ev[2]->count), 34ULL);
	KUNIT_EXPECT_EQ(test, cm_value(g.ev[1]), 22ULL);
}

/* The event numbers the specification lists, and only those, count. */
static void mips_cm_test_spec_events(struct kunit *test)
{
	struct cm_test *t = test->priv;
	unsigned int ev, i;

	cm_setup(test, false, 1000);
	for (ev = 0; ev < 256; ev++) {
		struct perf_event *e = cm_open(test, ev, 0x77);
		bool listed = false;

		for (i = 0; i < ARRAY_SIZE(spec_events); i++)
			listed |= spec_events[i] == ev;
		if (!listed) {
			KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(e), -EINVAL,
					    "event 0x%x", ev);
			if (!IS_ERR(e))
				cm_close(test, e);
			continue;
		}
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(e), "event 0x%x", ev);
		KUNIT_EXPECT_EQ(test, peek(test, SPEC_EVENT), SPEC_EV_P0(ev));
		mips_cm_model_inject(t->m, ev, 0x77, ev + 1);
		KUNIT_EXPECT_EQ_MSG(test, cm_value(e), (u64)ev + 1,
				    "event 0x%x", ev);
		cm_close(test, e);
	}
}

/* model: the register map and bits of the specification. */
static void mips_cm_test_model_spec(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct mips_cm_model_stats st;
	struct mips_cm_model *m;

	cm_model(test, SPEC_NUM_CNT);
	m = t->m;
	/* reset state: only Perf_Num_Cnt = 2 */
	KUNIT_EXPECT_EQ(test, mips_cm_model_read(m, SPEC_CTL), 2U);
	KUNIT_EXPECT_EQ(test, mips_cm_model_read(m, SPEC_OV), 0U);

	mips_cm_model_write(m, SPEC_QUAL1, QUAL_B);
	mips_cm_model_write(m, SPEC_EVENT, SPEC_EV_P1(EV_IOCU1) | SPEC_EV_P0(EV_REQ));
	mips_cm_model_write(m, SPEC_QUAL0, QUAL_A);
	mips_cm_model_write(m, SPEC_CTL, SPEC_P1_ON);
	mips_cm_model_inject(t->m, EV_IOCU1, QUAL_B, 5);
	mips_cm_model_inject(t->m, EV_REQ, QUAL_A, 6);	/* P0 is off */
	mips_cm_model_cycles(t->m, 7);			/* cycles off */
	KUNIT_EXPECT_EQ(test, mips_cm_model_read(m, SPEC_CNT1), 5U);
	KUNIT_EXPECT_EQ(test, mips_cm_model_read(m, SPEC_CNT0), 0U);
	KUNIT_EXPECT_EQ(test, mips_cm_model_read(m, SPEC_CYCLE), 0U);

	mips_cm_model_write(m, SPEC_CTL, SPEC_P1_ON | SPEC_P0_ON | SPEC_CYC_ON);
	mips_cm_model_inject(t->m, EV_REQ, QUAL_A, 6);
	mips_cm_model_cycles(t->m, 7);
	KUNIT_EXPECT_EQ(test, mips_cm_model_read(m, SPEC_CNT0), 6U);
	KUNIT_EXPECT_EQ(test, mips_cm_model_read(m, SPEC_CYCLE), 7U);

	/* counters are R/W; reaching 0xFFFFFFFF sets the overflow bit */
	mips_cm_model_write(m, SPEC_CNT0, 0xfffffffe);
	mips_cm_model_inject(t->m, EV_REQ, QUAL_A, 1);
	KUNIT_EXPECT_EQ(test, mips_cm_model_read(m, SPEC_CNT0), 0xffffffffU);
	KUNIT_EXPECT_EQ(test, mips_cm_model_read(m, SPEC_OV), SPEC_OV_P0);
	/* and it rolls over and continues from 0 */
	mips_cm_model_inject(t->m, EV_REQ, QUAL_A, 3);
	KUNIT_EXPECT_EQ(test, mips_cm_model_read(m, SPEC_CNT0), 2U);
	/* write one to clear */
	mips_cm_model_write(m, SPEC_OV, SPEC_OV_P0);
	KUNIT_EXPECT_EQ(test, mips_cm_model_read(m, SPEC_OV), 0U);

	/* a Reset bit resets its counter and its overflow bit */
	mips_cm_model_poke(t->m, SPEC_OV, SPEC_OV_P1 | SPEC_OV_CYC);
	mips_cm_model_write(m, SPEC_CTL, SPEC_P1_ON | SPEC_P0_ON | SPEC_CYC_ON |
		   SPEC_P1_RESET);
	KUNIT_EXPECT_EQ(test, mips_cm_model_read(m, SPEC_CNT1), 0U);
	KUNIT_EXPECT_EQ(test, mips_cm_model_read(m, SPEC_CNT0), 2U);
	KUNIT_EXPECT_EQ(test, mips_cm_model_read(m, SPEC_OV), SPEC_OV_CYC);
	mips_cm_model_write(m, SPEC_CTL, SPEC_ALL_ON | SPEC_CYC_RESET | SPEC_P0_RESET);
	KUNIT_EXPECT_EQ(test, mips_cm_model_read(m, SPEC_CYCLE), 0U);
	KUNIT_EXPECT_EQ(test, mips_cm_model_read(m, SPEC_CNT0), 0U);
	KUNIT_EXPECT_EQ(test, mips_cm_model_read(m, SPEC_OV), 0U);
	cm_stats(test, &st);
	KUNIT_EXPECT_EQ(test, st.resets[0], 1ULL);
	KUNIT_EXPECT_EQ(test, st.resets[1], 1ULL);
	KUNIT_EXPECT_EQ(test, st.resets[2], 1ULL);

	/* Perf_Int_En raises CM_PCInt with a status bit */
	mips_cm_model_set_irq(t->m, NULL, NULL);
	mips_cm_model_write(m, SPEC_CTL, SPEC_ALL_ON | SPEC_INT_EN);
	mips_cm_model_write(m, SPEC_CYCLE, 0xfffffffe);
	mips_cm_model_cycles(t->m, 1);
	KUNIT_EXPECT_EQ(test, mips_cm_model_read(m, SPEC_OV), SPEC_OV_CYC);
	KUNIT_EXPECT_TRUE(test, mips_cm_model_line(t->m));
	mips_cm_model_write(m, SPEC_OV, SPEC_OV_CYC);
	KUNIT_EXPECT_FALSE(test, mips_cm_model_line(t->m));
	/* gated: clearing Perf_Int_En drops it */
	mips_cm_model_poke(m, SPEC_OV, SPEC_OV_CYC);
	KUNIT_EXPECT_TRUE(test, mips_cm_model_line(m));
	mips_cm_model_write(m, SPEC_CTL, SPEC_ALL_ON);
	KUNIT_EXPECT_FALSE(test, mips_cm_model_line(m));
	/* latched: it rises with Perf_Int_En, only the status drops it */
	mips_cm_model_set_latch(m, MIPS_CM_PMU_LATCH_LATCHED);
	KUNIT_EXPECT_FALSE(test, mips_cm_model_line(m));
	mips_cm_model_write(m, SPEC_CTL, SPEC_ALL_ON | SPEC_INT_EN);
	KUNIT_EXPECT_TRUE(test, mips_cm_model_line(m));
	mips_cm_model_write(m, SPEC_CTL, SPEC_ALL_ON);
	KUNIT_EXPECT_TRUE(test, mips_cm_model_line(m));
	mips_cm_model_write(m, SPEC_OV, SPEC_OV_CYC);
	KUNIT_EXPECT_FALSE(test, mips_cm_model_line(m));
	mips_cm_model_poke(m, SPEC_OV, SPEC_OV_CYC);
	KUNIT_EXPECT_FALSE(test, mips_cm_model_line(m));
	mips_cm_model_write(m, SPEC_OV, SPEC_OV_CYC);
	mips_cm_model_set_latch(m, MIPS_CM_PMU_LATCH_GATED);

	/* Perf_Ovf_Stop: all counters stop when one reaches 0xFFFFFFFF */
	mips_cm_model_write(m, SPEC_CTL, SPEC_ALL_ON | SPEC_OVF_STOP);
	mips_cm_model_write(m, SPEC_CNT1, 0xfffffff0);
	mips_cm_model_inject(t->m, EV_IOCU1, QUAL_B, 0x20);
	mips_cm_model_cycles(t->m, 9);
	KUNIT_EXPECT_EQ(test, mips_cm_model_read(m, SPEC_CNT1), 0xffffffffU);
	KUNIT_EXPECT_EQ(test, mips_cm_model_read(m, SPEC_CYCLE), 0xffffffffU);
	cm_stats(test, &st);
	KUNIT_EXPECT_EQ(test, st.dropped[2], 0x11ULL);
	KUNIT_EXPECT_EQ(test, st.dropped[0], 9ULL);
	mips_cm_model_write(m, SPEC_OV, SPEC_OV_P1);
	mips_cm_model_inject(t->m, EV_IOCU1, QUAL_B, 2);
	KUNIT_EXPECT_EQ(test, mips_cm_model_read(m, SPEC_CNT1), 1U);

	/* the other reading: the overflow bit rises at the wrap to 0 */
	mips_cm_model_set_reading(t->m, MIPS_CM_PMU_OV_AT_WRAP);
	mips_cm_model_write(m, SPEC_CTL, SPEC_ALL_ON);
	mips_cm_model_write(m, SPEC_CNT0, 0xfffffffe);
	mips_cm_model_inject(t->m, EV_REQ, QUAL_A, 1);
	KUNIT_EXPECT_EQ(test, mips_cm_model_read(m, SPEC_OV), 0U);
	mips_cm_model_inject(t->m, EV_REQ, QUAL_A, 1);
	KUNIT_EXPECT_EQ(test, mips_cm_model_read(m, SPEC_CNT0), 0U);
	KUNIT_EXPECT_EQ(test, mips_cm_model_read(m, SPEC_OV), SPEC_OV_P0);
}

/* --- probe -------------------------------------------------------------- */

static void mips_cm_test_probe(struct kunit *test)
{
	static const u32 refused_ctl[] = {
		0,			/* QEMU's CM: Perf_Num_Cnt reads 0 */
		1, 3, 15,		/* the spec: "always set to 2" */
		U32_MAX,		/* a block that does not answer */
	};
	struct cm_test *t = test->priv;
	struct mips_cm_pmu_ops no_write = { .read = NULL };
	struct mips_cm_pmu_platdata pd = {};
	struct mips_cm_model_stats st;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(refused_ctl); i++) {
		cm_model(test, SPEC_NUM_CNT);
		mips_cm_model_poke(t->m, SPEC_CTL, refused_ctl[i]);
		KUNIT_EXPECT_EQ_MSG(test, cm_probe(test, 0, 0), -ENODEV,
				    "control 0x%08x", refused_ctl[i]);
		cm_stats(test, &st);
		KUNIT_EXPECT_EQ(test, st.writes[SPEC_CTL / 8] +
				st.writes[SPEC_OV / 8], 0ULL);
		if (t->cm)
			cm_remove(t);
		cm_drop_model(t);
	}

	/* a block whose reads fail (all ones) */
	cm_model(test, SPEC_NUM_CNT);
	mips_cm_model_fault(t->m, MIPS_CM_PMU_FAULT_DEAD, true);
	KUNIT_EXPECT_EQ(test, cm_probe(test, 0, 0), -ENODEV);
	if (t->cm)
		cm_remove(t);
	cm_drop_model(t);

	/*
	 * bad platform data: none, no name, no register access, a model
	 * without accessors
	 */
	cm_model(test, SPEC_NUM_CNT);
	KUNIT_EXPECT_EQ(test,
			PTR_ERR(mips_cm_pmu_probe(NULL, mips_cm_model_ops(t->m),
						  TEST_PMU)), -EINVAL);
	KUNIT_EXPECT_EQ(test,
			PTR_ERR(mips_cm_pmu_probe(&pd, mips_cm_model_ops(t->m),
						  NULL)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(mips_cm_pmu_probe(&pd, NULL, TEST_PMU)),
			-EINVAL);
	no_write.read = mips_cm_model_ops(t->m)->read;
	no_write.ctx = t->m;
	KUNIT_EXPECT_EQ(test,
			PTR_ERR(mips_cm_pmu_probe(&pd, &no_write, TEST_PMU)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, all_accesses(test), 0ULL);
	cm_drop_model(t);
}

static void mips_cm_test_probe_clusters(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct mips_cm_pmu_platdata pd = {
		.cm_rev = 0x0900,
		.nr_clusters = 2,
		.nr_iocu = 1,
	};

	/* CM3.5 with two clusters: GCR accesses reach the local CM only */
	cm_model(test, SPEC_NUM_CNT);
	KUNIT_EXPECT_EQ(test, cm_probe_pd(test, &pd, false), -ENODEV);
	KUNIT_EXPECT_EQ(test, all_accesses(test), 0ULL);
	if (t->cm)
		cm_remove(t);

	/* one cluster (and an unverified revision): registered */
	pd.nr_clusters = 1;
	KUNIT_EXPECT_EQ(test, cm_probe_pd(test, &pd, false), 0);
}

/*
 * Probing only reads: a debugger may be using the counters. The block is
 * taken when the first event starts and given back when the last ends.
 */
static void mips_cm_test_probe_hands_off(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct mips_cm_model_stats st;
	struct perf_event *ev;
	const u32 theirs = SPEC_CYC_ON | SPEC_P0_ON | SPEC_NUM_CNT;

	cm_model(test, SPEC_NUM_CNT);
	mips_cm_model_poke(t->m, SPEC_CTL, theirs);
	mips_cm_model_poke(t->m, SPEC_OV, SPEC_OV_CYC);
	mips_cm_model_poke(t->m, SPEC_CYCLE, 1234);
	KUNIT_ASSERT_EQ(test, cm_probe(test, sim_irq, 0), 0);
	cm_stats(test, &st);
	KUNIT_EXPECT_EQ(test, st.writes[SPEC_CTL / 8] + st.writes[SPEC_OV / 8],
			0ULL);
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_CTL), theirs);
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_OV), SPEC_OV_CYC);
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_CYCLE), 1234U);

	/* the first event takes the block: stale status gone, counts exact */
	mips_cm_model_poke(t->m, SPEC_CTL, SPEC_NUM_CNT);
	ev = cm_open(test, EV_REQ, QUAL_A);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	wait_irq_done(test);
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_OV), 0U);
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_CTL),
			SPEC_INT_EN | SPEC_P0_ON | SPEC_NUM_CNT);
	mips_cm_model_inject(t->m, EV_REQ, QUAL_A, 99);
	KUNIT_EXPECT_EQ(test, cm_value(ev), 99ULL);

	/* the last event gives it back: nothing counting, no interrupt */
	cm_close(test, ev);
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_CTL), SPEC_NUM_CNT);
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_OV), 0U);

	/* removal does not touch it either */
	mips_cm_model_poke(t->m, SPEC_CTL, theirs);
	cm_stats(test, &st);
	cm_remove(t);
	KUNIT_EXPECT_EQ(test, writes_of(test, SPEC_CTL), st.writes[SPEC_CTL / 8]);
	KUNIT_EXPECT_EQ(test, writes_of(test, SPEC_OV), st.writes[SPEC_OV / 8]);
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_CTL), theirs);
}

/*
 * A previous kernel (kexec, kdump) or the firmware left the block counting
 * with Perf_Int_En and an overflow status set: CM_PCInt is a level that is
 * high from the start, and the handler may not clear a block that is not
 * ours. The line stays off until the first event has taken the block, and
 * is off again once the last one gave it back.
 */
static void mips_cm_test_probe_irq_asserted(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct irq_data *d = irq_get_irq_data(sim_irq);
	const u32 theirs = SPEC_INT_EN | SPEC_CYC_ON | SPEC_NUM_CNT;
	struct mips_cm_model_stats st;
	struct perf_event *ev;

	cm_model(test, SPEC_NUM_CNT);
	mips_cm_model_poke(t->m, SPEC_CTL, theirs);
	mips_cm_model_poke(t->m, SPEC_OV, SPEC_OV_CYC);
	KUNIT_ASSERT_TRUE(test, mips_cm_model_line(t->m));
	KUNIT_ASSERT_EQ(test, cm_probe(test, sim_irq, 0), 0);
	KUNIT_EXPECT_TRUE(test, irqd_irq_disabled(d));
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_CTL), theirs);
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_OV), SPEC_OV_CYC);

	ev = cm_open(test, EV_REQ, QUAL_A);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	KUNIT_EXPECT_FALSE(test, mips_cm_model_line(t->m));
	KUNIT_EXPECT_FALSE(test, irqd_irq_disabled(d));
	/* and it works: an overflow is taken by the interrupt */
	mips_cm_model_inject(t->m, EV_REQ, QUAL_A, 100);
	KUNIT_EXPECT_EQ(test, cm_value(ev), 100ULL);
	cm_stats(test, &st);
	mips_cm_model_inject(t->m, EV_REQ, QUAL_A, PERIOD - 50);
	wait_irq_done(test);
	KUNIT_EXPECT_EQ(test, irqs_since(test, &st), 1ULL);
	KUNIT_EXPECT_FALSE(test, mips_cm_pmu_polling(t->cm));
	KUNIT_EXPECT_EQ(test, cm_value(ev), PERIOD + 50);

	cm_close(test, ev);
	KUNIT_EXPECT_TRUE(test, irqd_irq_disabled(d));
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_CTL), SPEC_NUM_CNT);
}

/*
 * Undefined bits of the control register that read set (a debugger's, or
 * a previous kernel's) are reported, not a reason to have no PMU: the
 * layout is the specification's, and the first event's write clears
 * whatever of them is writable.
 */
static void mips_cm_test_probe_reserved(struct kunit *test)
{
	static const u32 extra[] = { BIT(31), BIT(28), BIT(10) };
	struct cm_test *t = test->priv;
	struct mips_cm_model_stats st;
	struct perf_event *ev;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(extra); i++) {
		cm_model(test, SPEC_NUM_CNT);
		mips_cm_model_poke(t->m, SPEC_CTL, extra[i] | SPEC_NUM_CNT);
		KUNIT_ASSERT_EQ_MSG(test, cm_probe(test, sim_irq, 0), 0,
				    "control 0x%08x", extra[i] | SPEC_NUM_CNT);
		cm_stats(test, &st);
		KUNIT_EXPECT_EQ(test, st.writes[SPEC_CTL / 8] +
				st.writes[SPEC_OV / 8], 0ULL);
		ev = cm_open(test, EV_REQ, QUAL_A);
		KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
		mips_cm_model_inject(t->m, EV_REQ, QUAL_A, 99);
		KUNIT_EXPECT_EQ(test, cm_value(ev), 99ULL);
		cm_close(test, ev);
		cm_remove(t);
		cm_drop_model(t);
	}
}

/*
 * At shutdown (before kexec or a reboot) the block is left stopped: the
 * next kernel writes it only from its first event on, and counters left
 * running with Perf_Int_En would raise CM_PCInt there. What the counters
 * held is folded first; after that the block is not written again, the
 * line stays off, and open events keep their counts.
 */
static void mips_cm_test_shutdown(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct irq_data *d = irq_get_irq_data(sim_irq);
	struct mips_cm_model_stats st;
	struct perf_event *ev, *cyc;
	u64 cycles;

	cm_setup(test, true, 0);
	ev = cm_open(test, EV_REQ, QUAL_A);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	cyc = cm_open(test, CYCLES, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(cyc));
	mips_cm_model_inject(t->m, EV_REQ, QUAL_A, 50);
	KUNIT_EXPECT_EQ(test, cm_value(ev), 50ULL);
	KUNIT_EXPECT_FALSE(test, irqd_irq_disabled(d));
	/* counted, not folded yet */
	mips_cm_model_inject(t->m, EV_REQ, QUAL_A, 25);

	mips_cm_pmu_shutdown(t->cm);
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_CTL), SPEC_NUM_CNT);
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_OV), 0U);
	KUNIT_EXPECT_TRUE(test, irqd_irq_disabled(d));
	KUNIT_EXPECT_EQ(test, cm_value(ev), 75ULL);
	cycles = cm_value(cyc);

	/* nothing counts or is written any more, whatever perf does */
	cm_stats(test, &st);
	mips_cm_model_inject(t->m, EV_REQ, QUAL_A, 1000);
	KUNIT_EXPECT_EQ(test, cm_value(ev), 75ULL);
	KUNIT_EXPECT_EQ(test, cm_value(cyc), cycles);
	cm_close(test, cyc);
	cm_close(test, ev);
	ev = cm_open(test, EV_REQ, QUAL_A);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	mips_cm_model_inject(t->m, EV_REQ, QUAL_A, 10);
	KUNIT_EXPECT_EQ(test, cm_value(ev), 0ULL);
	cm_close(test, ev);
	KUNIT_EXPECT_EQ(test, writes_of(test, SPEC_CTL), st.writes[SPEC_CTL / 8]);
	KUNIT_EXPECT_EQ(test, writes_of(test, SPEC_OV), st.writes[SPEC_OV / 8]);
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_CTL), SPEC_NUM_CNT);
	KUNIT_EXPECT_TRUE(test, irqd_irq_disabled(d));
}

/* --- sysfs -------------------------------------------------------------- */

static const char *const sysfs_events[][2] = {
	{ "cycles", "cycle_counter=1\n" },
	{ "request_count", "event=0x0,qualifier=?\n" },
	{ "coherent_req_resp", "event=0x1,qualifier=?\n" },
	{ "write_data_usage", "event=0x2,qualifier=?\n" },
	{ "command_bus_usage", "event=0x3,qualifier=?\n" },
	{ "read_data_usage", "event=0x4,qualifier=?\n" },
	{ "sharing_miss", "event=0x5,qualifier=?\n" },
	{ "response_unit_usage", "event=0x6,qualifier=?\n" },
	{ "l2_pipeline_utilization", "event=0x8,qualifier=?\n" },
	{ "l2_hits_misses", "event=0x9,qualifier=?\n" },
	{ "iocu0_requests", "event=0x10,qualifier=?\n" },
	{ "iocu1_requests", "event=0x11,qualifier=?\n" },
};

static bool shown(struct kunit *test, const struct attribute_group *g,
		  const char *name)
{
	const char *s = attr_show(test, g, name);

	return strcmp(s, "(absent)");
}

static unsigned int visible_events(struct kunit *test,
				   const struct attribute_group *g)
{
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(sysfs_events); i++)
		n += shown(test, g, sysfs_events[i][0]);
	return n;
}

static void mips_cm_test_sysfs(struct kunit *test)
{
	struct cm_test *t = test->priv;
	const struct attribute_group **g;
	unsigned int i;

	cm_setup(test, false, 0);
	g = t->pmu->attr_groups;
	KUNIT_ASSERT_STREQ(test, g[0]->name, "format");
	KUNIT_EXPECT_STREQ(test, attr_show(test, g[0], "event"), "config:0-7\n");
	KUNIT_EXPECT_STREQ(test, attr_show(test, g[0], "cycle_counter"),
			   "config:8\n");
	KUNIT_EXPECT_STREQ(test, attr_show(test, g[0], "qualifier"),
			   "config1:0-31\n");
	/* and no other format file */
	KUNIT_EXPECT_EQ(test, pmu_kunit_count(t->pmu->dev, g[0]), 3U);
	KUNIT_ASSERT_STREQ(test, g[1]->name, "events");
	for (i = 0; i < ARRAY_SIZE(sysfs_events); i++)
		KUNIT_EXPECT_STREQ(test, attr_show(test, g[1], sysfs_events[i][0]),
				   sysfs_events[i][1]);
	KUNIT_EXPECT_EQ(test, visible_events(test, g[1]),
			(unsigned int)ARRAY_SIZE(sysfs_events));
	/* with both IOCUs: these 12 and no other (no .unit, no .scale) */
	KUNIT_EXPECT_EQ(test, pmu_kunit_count(t->pmu->dev, g[1]), 12U);
	/*
	 * "cpumask": one online CPU, in perf core's group for a PMU with a
	 * scope, otherwise in the one group of the driver's after these
	 */
	for (i = 2; g[i]; i++)
		KUNIT_EXPECT_NOT_NULL(test, pmu_kunit_group_file(test, t->pmu->dev,
								 g[i], "cpumask"));
	KUNIT_EXPECT_LE(test, i, 3U);
	cm_cpumask(test);
}

/*
 * The format and event tables, as the registered PMU shows them: names,
 * masks, every event's terms against the fields (the self-check that the
 * runtime builder did at probe).
 */
static void mips_cm_test_tables(struct kunit *test)
{
	struct cm_test *t = test->priv;
	const struct attribute_group **g;

	cm_setup(test, false, 0);
	g = t->pmu->attr_groups;
	pmu_kunit_check_tables(test, g[0]->attrs, g[1]->attrs);
	pmu_kunit_check_mask(test, g[0]->attrs, mips_cm_format_mask);
}

/* The IOCU events exist only for the IOCUs the CPS has. */
static void mips_cm_test_sysfs_iocu(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct mips_cm_pmu_platdata pd = {
		.cm_rev = 0x0600,
		.nr_clusters = 1,
		.nr_iocu = 1,
	};
	struct perf_event *ev;
	const struct attribute_group *g;

	cm_model(test, SPEC_NUM_CNT);
	KUNIT_ASSERT_EQ(test, cm_probe_pd(test, &pd, false), 0);
	g = t->pmu->attr_groups[1];
	KUNIT_EXPECT_STREQ(test, attr_show(test, g, "iocu0_requests"),
			   "event=0x10,qualifier=?\n");
	KUNIT_EXPECT_FALSE(test, shown(test, g, "iocu1_requests"));
	KUNIT_EXPECT_EQ(test, visible_events(test, g), 11U);
	KUNIT_EXPECT_EQ(test, pmu_kunit_count(t->pmu->dev, g), 11U);
	ev = cm_open(test, 0x11, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(ev), -EINVAL);
	ev = cm_open(test, 0x10, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(ev), 0);
	cm_close_all(t);
	cm_remove(t);

	pd.nr_iocu = 0;
	KUNIT_ASSERT_EQ(test, cm_probe_pd(test, &pd, false), 0);
	g = t->pmu->attr_groups[1];
	KUNIT_EXPECT_FALSE(test, shown(test, g, "iocu0_requests"));
	KUNIT_EXPECT_FALSE(test, shown(test, g, "iocu1_requests"));
	KUNIT_EXPECT_EQ(test, visible_events(test, g), 10U);
	KUNIT_EXPECT_EQ(test, pmu_kunit_count(t->pmu->dev, g), 10U);
	ev = cm_open(test, 0x10, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(ev), -EINVAL);
	cm_close_all(t);
	cm_remove(t);

	/* an unknown number of IOCUs offers both */
	pd.nr_iocu = -1;
	KUNIT_ASSERT_EQ(test, cm_probe_pd(test, &pd, false), 0);
	g = t->pmu->attr_groups[1];
	KUNIT_EXPECT_STREQ(test, attr_show(test, g, "iocu0_requests"),
			   "event=0x10,qualifier=?\n");
	KUNIT_EXPECT_STREQ(test, attr_show(test, g, "iocu1_requests"),
			   "event=0x11,qualifier=?\n");
	KUNIT_EXPECT_EQ(test, pmu_kunit_count(t->pmu->dev, g), 12U);
}

/* --- event_init --------------------------------------------------------- */

static struct perf_event *fake_event(struct kunit *test, struct pmu *pmu,
				     u64 config, u64 config1)
{
	struct perf_event *ev = kunit_kzalloc(test, sizeof(*ev), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ev);
	ev->pmu = pmu;
	ev->attr.type = pmu->type;
	ev->attr.config = config;
	ev->attr.config1 = config1;
	ev->group_leader = ev;
	INIT_LIST_HEAD(&ev->sibling_list);
	return ev;
}

static void fake_add_sibling(struct perf_event *leader, struct perf_event *s)
{
	s->group_leader = leader;
	list_add_tail(&s->sibling_list, &leader->sibling_list);
}

/*
 * event_init as perf_try_init_event() calls it, except that the group is
 * held stable with interrupts disabled instead of by the leader's context
 * mutex, which these stand-alone events do not have (the rule of
 * for_each_sibling_event()).
 */
static int fake_event_init(struct kunit *test, struct perf_event *ev)
{
	struct cm_test *t = test->priv;
	unsigned long flags;
	int ret;

	local_irq_save(flags);
	ret = t->pmu->event_init(ev);
	local_irq_restore(flags);
	return ret;
}

static int fake_init(struct kunit *test, struct perf_event *leader,
		     u64 config, u64 config1)
{
	struct cm_test *t = test->priv;
	struct perf_event *ev = fake_event(test, t->pmu, config, config1);

	if (leader)
		ev->group_leader = leader;
	return fake_event_init(test, ev);
}

static void mips_cm_test_event_init(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct perf_event *ev, *leader, *sw;
	static struct pmu other_pmu;

	cm_setup(test, false, 0);

	/* plain events and the cycle counter */
	KUNIT_EXPECT_EQ(test, fake_init(test, NULL, EV_REQ, QUAL_A), 0);
	KUNIT_EXPECT_EQ(test, fake_init(test, NULL, 0x11, U32_MAX), 0);
	KUNIT_EXPECT_EQ(test, fake_init(test, NULL, CYCLES, 0), 0);
	/* event numbers the specification does not list */
	KUNIT_EXPECT_EQ(test, fake_init(test, NULL, 0x7, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, fake_init(test, NULL, 0x12, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, fake_init(test, NULL, 0xff, 0), -EINVAL);
	/* the cycle counter has no event select and no qualifier */
	KUNIT_EXPECT_EQ(test, fake_init(test, NULL, CYCLES | 1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, fake_init(test, NULL, CYCLES, 1), -EINVAL);
	/* undeclared bits */
	KUNIT_EXPECT_EQ(test, fake_init(test, NULL, BIT_ULL(9), 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, fake_init(test, NULL, 0, BIT_ULL(32)), -EINVAL);
	ev = fake_event(test, t->pmu, 0, 0);
	ev->attr.config2 = 1;
	KUNIT_EXPECT_EQ(test, fake_event_init(test, ev), -EINVAL);
	/* not ours, sampling, per-task */
	ev = fake_event(test, t->pmu, 0, 0);
	ev->attr.type = PERF_TYPE_RAW;
	KUNIT_EXPECT_EQ(test, fake_event_init(test, ev), -ENOENT);
	ev = fake_event(test, t->pmu, 0, 0);
	ev->attr.sample_period = 1000;
	KUNIT_EXPECT_EQ(test, fake_event_init(test, ev), -EOPNOTSUPP);
	ev = fake_event(test, t->pmu, 0, 0);
	ev->cpu = -1;
	KUNIT_EXPECT_EQ(test, fake_event_init(test, ev), -EINVAL);

	/* groups: cycles + two counters fit; one more of either does not */
	leader = fake_event(test, t->pmu, CYCLES, 0);
	KUNIT_EXPECT_EQ(test, fake_init(test, leader, EV_REQ, 1), 0);
	fake_add_sibling(leader, fake_event(test, t->pmu, EV_REQ, 1));
	KUNIT_EXPECT_EQ(test, fake_init(test, leader, EV_REQ, 2), 0);
	KUNIT_EXPECT_EQ(test, fake_init(test, leader, CYCLES, 0), -EINVAL);
	fake_add_sibling(leader, fake_event(test, t->pmu, EV_REQ, 2));
	KUNIT_EXPECT_EQ(test, fake_init(test, leader, EV_REQ, 3), -EINVAL);
	/* a software leader is fine (it may read the group periodically) */
	sw = fake_event(test, &other_pmu, 0, 0);
	sw->event_caps = PERF_EV_CAP_SOFTWARE;
	KUNIT_EXPECT_EQ(test, fake_init(test, sw, EV_REQ, 1), 0);
	fake_add_sibling(sw, fake_event(test, t->pmu, EV_REQ, 1));
	fake_add_sibling(sw, fake_event(test, t->pmu, EV_REQ, 2));
	KUNIT_EXPECT_EQ(test, fake_init(test, sw, EV_REQ, 3), -EINVAL);
	/* another hardware PMU in the group is not */
	ev = fake_event(test, &other_pmu, 0, 0);
	KUNIT_EXPECT_EQ(test, fake_init(test, ev, EV_REQ, 1), -EINVAL);
}

static bool spec_listed(u64 ev)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(spec_events); i++)
		if (spec_events[i] == ev)
			return true;
	return false;
}

/* 100k random attributes at event_init level, against the rules. */
static void mips_cm_test_random_attrs(struct kunit *test)
{
	struct cm_test *t = test->priv;
	int cpu = cpumask_last(cpu_online_mask);
	struct perf_event *ev;
	unsigned int i, bad = 0, accepted = 0;

	cm_setup(test, false, 0);
	ev = kunit_kzalloc(test, sizeof(*ev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	for (i = 0; i < 100000; i++) {
		u32 r = rnd();
		u64 config = r & 1 ? rnd64() :
			     (r & 2 ? rnd64() & 0x100 : rnd64() & 0x1f);
		u64 config1 = r & 4 ? rnd64() : (r & 8 ? rnd() : 0);
		u64 config2 = (r & 0x70) == 0x70 ? rnd64() : 0;
		u64 period = (r & 0x380) == 0x380 ? rnd() | 1 : 0;
		bool cyc = config & CYCLES;
		int want, got;

		if (period)
			want = -EOPNOTSUPP;
		else if ((config & ~0x1ffULL) || (config1 >> 32) || config2)
			want = -EINVAL;
		else if (cyc && ((config & 0xff) || config1))
			want = -EINVAL;
		else if (!cyc && !spec_listed(config & 0xff))
			want = -EINVAL;
		else
			want = 0;

		memset(ev, 0, sizeof(*ev));
		ev->pmu = t->pmu;
		ev->attr.type = t->pmu->type;
		ev->attr.config = config;
		ev->attr.config1 = config1;
		ev->attr.config2 = config2;
		ev->attr.sample_period = period;
		ev->cpu = cpu;
		ev->group_leader = ev;
		INIT_LIST_HEAD(&ev->sibling_list);
		got = fake_event_init(test, ev);
		if (got != want && !bad++)
			KUNIT_FAIL(test,
				   "config %llx/%llx/%llx period %llu: got %d want %d",
				   config, config1, config2, period, got, want);
		if (!got) {
			accepted++;
			if (ev->cpu != cm_bound_cpu(t, cpu))
				bad++;
		}
		cond_resched();
	}
	KUNIT_EXPECT_EQ(test, bad, 0U);
	/* the generator exercises both outcomes */
	KUNIT_EXPECT_GT(test, accepted, 10000U);
	KUNIT_EXPECT_LT(test, accepted, 90000U);
}

/* A few thousand random opens through the real perf core. */
static void mips_cm_test_random_open(struct kunit *test)
{
	struct cm_test *t = test->priv;
	unsigned int i, bad = 0;

	cm_setup(test, false, 0);
	for (i = 0; i < 2000; i++) {
		u32 r = rnd();
		u64 config = r & 1 ? rnd64() & 0x3ff :
			     (r & 2 ? rnd() & 0xff : rnd() & 0x1f);
		u64 config1 = r & 4 ? rnd64() : rnd();
		bool cyc = config & CYCLES;
		bool ok = !(config & ~0x1ffULL) && !(config1 >> 32) &&
			  (cyc ? !(config & 0xff) && !config1 :
				 spec_listed(config));
		struct perf_event *ev = cm_open(test, config, config1);

		if (IS_ERR(ev) == ok || (!ok && PTR_ERR(ev) != -EINVAL))
			bad++;
		if (!IS_ERR(ev)) {
			if (!cyc)
				mips_cm_model_inject(t->m, config & 0xff,
						     config1, i);
			else
				mips_cm_model_cycles(t->m, i);
			if (cm_value(ev) != i)
				bad++;
			cm_close(test, ev);
		}
	}
	KUNIT_EXPECT_EQ(test, bad, 0U);
	/* every counter is stopped again */
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_CTL), (u32)SPEC_NUM_CNT);
}

/* --- counting ----------------------------------------------------------- */

struct three {
	struct perf_event *cyc, *a, *b;
	u64 want_cyc, want_a, want_b;
	/* model counters of a and b, and what the model dropped before */
	unsigned int ca, cb;
	u64 dropped0[MIPS_CM_PMU_MODEL_NR_CNT];
};

static noinline_for_stack void open_three(struct kunit *test, struct three *e)
{
	struct mips_cm_model_stats st;

	memset(e, 0, sizeof(*e));
	e->cyc = cm_open(test, CYCLES, 0);
	e->a = cm_open(test, EV_REQ, QUAL_A);
	e->b = cm_open(test, EV_IOCU1, QUAL_B);
	KUNIT_ASSERT_FALSE(test, IS_ERR(e->cyc));
	KUNIT_ASSERT_FALSE(test, IS_ERR(e->a));
	KUNIT_ASSERT_FALSE(test, IS_ERR(e->b));
	e->ca = peek(test, SPEC_QUAL0) == QUAL_A ? 1 : 2;
	e->cb = 3 - e->ca;
	cm_stats(test, &st);
	memcpy(e->dropped0, st.dropped, sizeof(e->dropped0));
}

static void inject_three(struct kunit *test, struct three *e, u64 c, u64 a,
			 u64 b)
{
	struct cm_test *t = test->priv;

	mips_cm_model_cycles(t->m, c);
	mips_cm_model_inject(t->m, EV_REQ, QUAL_A, a);
	mips_cm_model_inject(t->m, EV_IOCU1, QUAL_B, b);
	/* traffic that no counter selects */
	mips_cm_model_inject(t->m, EV_REQ, QUAL_B, 12345);
	e->want_cyc += c;
	e->want_a += a;
	e->want_b += b;
}

/*
 * Exact counts: what was injected, less what the hardware did not count
 * because Perf_Ovf_Stop had stopped it.
 */
static noinline_for_stack void check_three(struct kunit *test, struct three *e)
{
	struct mips_cm_model_stats st;

	cm_stats(test, &st);
	KUNIT_EXPECT_EQ(test, cm_value(e->cyc),
			e->want_cyc - (st.dropped[0] - e->dropped0[0]));
	KUNIT_EXPECT_EQ(test, cm_value(e->a),
			e->want_a - (st.dropped[e->ca] - e->dropped0[e->ca]));
	KUNIT_EXPECT_EQ(test, cm_value(e->b),
			e->want_b - (st.dropped[e->cb] - e->dropped0[e->cb]));
}

/* Chunks just under a period: about one wrap of each counter per chunk. */
static u64 chunk(void)
{
	return PERIOD - 1 - (rnd() & 0x0fffffff);
}

/*
 * How much to inject on a counter now at @cur: land exactly on 0xFFFFFFFF
 * or on 0 (where the two readings of "overflow" differ), or wrap and land
 * anywhere below @cur; never 2^32 or more between two folds.
 */
static u64 amount(u32 cur, unsigned int k)
{
	switch (k % 4) {
	case 0:
		return cur == U32_MAX ? U32_MAX : U32_MAX - cur;
	case 1:
		return cur ? PERIOD - cur : U32_MAX;
	default:
		return cur ? PERIOD - cur + rnd() % cur : U32_MAX;
	}
}

enum cm_mode { MODE_POLL, MODE_IRQ, MODE_IRQ_DEAD };

struct cm_variant {
	enum mips_cm_pmu_reading reading;
	bool ovf_stop;
	enum cm_mode mode;
	const char *name;
	enum mips_cm_pmu_resume resume;
};

static const struct cm_variant wrap_variants[] = {
	{ MIPS_CM_PMU_OV_AT_MAX, false, MODE_POLL, "at-max, polled" },
	{ MIPS_CM_PMU_OV_AT_MAX, false, MODE_IRQ, "at-max, interrupt" },
	{ MIPS_CM_PMU_OV_AT_MAX, false, MODE_IRQ_DEAD, "at-max, dead interrupt" },
	{ MIPS_CM_PMU_OV_AT_MAX, true, MODE_POLL, "at-max, Ovf_Stop, polled" },
	{ MIPS_CM_PMU_OV_AT_MAX, true, MODE_IRQ, "at-max, Ovf_Stop, interrupt" },
	{ MIPS_CM_PMU_OV_AT_MAX, true, MODE_IRQ_DEAD,
	  "at-max, Ovf_Stop, dead interrupt" },
	{ MIPS_CM_PMU_OV_AT_WRAP, false, MODE_POLL, "at-wrap, polled" },
	{ MIPS_CM_PMU_OV_AT_WRAP, false, MODE_IRQ, "at-wrap, interrupt" },
	{ MIPS_CM_PMU_OV_AT_WRAP, false, MODE_IRQ_DEAD, "at-wrap, dead interrupt" },
	{ MIPS_CM_PMU_OV_AT_WRAP, true, MODE_POLL, "at-wrap, Ovf_Stop, polled" },
	{ MIPS_CM_PMU_OV_AT_WRAP, true, MODE_IRQ, "at-wrap, Ovf_Stop, interrupt" },
	{ MIPS_CM_PMU_OV_AT_WRAP, true, MODE_IRQ_DEAD,
	  "at-wrap, Ovf_Stop, dead interrupt" },
	/* the other reading of how a Perf_Ovf_Stop stop ends */
	{ MIPS_CM_PMU_OV_AT_MAX, true, MODE_POLL,
	  "at-max, Ovf_Stop latched, polled", MIPS_CM_PMU_RESUME_ON_CTL },
	{ MIPS_CM_PMU_OV_AT_MAX, true, MODE_IRQ,
	  "at-max, Ovf_Stop latched, interrupt", MIPS_CM_PMU_RESUME_ON_CTL },
	{ MIPS_CM_PMU_OV_AT_MAX, true, MODE_IRQ_DEAD,
	  "at-max, Ovf_Stop latched, dead interrupt",
	  MIPS_CM_PMU_RESUME_ON_CTL },
	{ MIPS_CM_PMU_OV_AT_WRAP, true, MODE_POLL,
	  "at-wrap, Ovf_Stop latched, polled", MIPS_CM_PMU_RESUME_ON_CTL },
	{ MIPS_CM_PMU_OV_AT_WRAP, true, MODE_IRQ,
	  "at-wrap, Ovf_Stop latched, interrupt", MIPS_CM_PMU_RESUME_ON_CTL },
	{ MIPS_CM_PMU_OV_AT_WRAP, true, MODE_IRQ_DEAD,
	  "at-wrap, Ovf_Stop latched, dead interrupt",
	  MIPS_CM_PMU_RESUME_ON_CTL },
};

static void variant_desc(const struct cm_variant *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(wrap, wrap_variants, variant_desc);

static void variant_setup(struct kunit *test, const struct cm_variant *v)
{
	struct cm_test *t = test->priv;
	struct mips_cm_pmu_platdata pd = {
		.irq = v->mode == MODE_POLL ? 0 : sim_irq,
		.cm_rev = 0x0600,
		.nr_clusters = 1,
		.nr_iocu = 2,
		.poll_period_ms = 1,
	};

	cm_model(test, SPEC_NUM_CNT);
	mips_cm_model_set_reading(t->m, v->reading);
	mips_cm_model_set_resume(t->m, v->resume);
	if (v->ovf_stop)
		mips_cm_model_fault(t->m, MIPS_CM_PMU_FAULT_OVF_STOP,
				    true);
	KUNIT_ASSERT_EQ(test, cm_probe_pd(test, &pd, v->mode == MODE_IRQ), 0);
}

/* Fold after a chunk: by the interrupt, then a read or the timer. */
static void variant_fold(struct kunit *test, const struct cm_variant *v,
			 struct three *e, unsigned int i)
{
	if (v->mode == MODE_IRQ)
		wait_irq_done(test);
	if (i % 8 == 7) {
		wait_poll(test, SPEC_CNT1);
		wait_poll(test, SPEC_CNT0);
	} else {
		check_three(test, e);
	}
}

/*
 * Exact 64-bit counts across 1000+ wraps of each counter, under each
 * reading of "overflow", with and without Perf_Ovf_Stop held by another
 * agent, with a working, a dead and no interrupt. Chunks land on
 * 0xFFFFFFFF and on 0 on purpose; folds come from the interrupt, reads and
 * the fold timer.
 */
static void mips_cm_test_wraps(struct kunit *test)
{
	const struct cm_variant *v = test->param_value;
	struct cm_test *t = test->priv;
	struct mips_cm_model_stats st;
	unsigned int i, c;
	struct three e;
	u64 min_wraps = 0;

	variant_setup(test, v);
	/* perf reads on the events' CPU need no IPI: much faster under TCG */
	set_cpus_allowed_ptr(current, cpumask_of(t->cpu));
	open_three(test, &e);
	for (i = 0; i < 6000 && min_wraps < WRAPS; i++) {
		u64 amt[3];

		amt[0] = amount(peek(test, SPEC_CYCLE), i);
		amt[e.ca] = amount(peek(test, e.ca == 1 ? SPEC_CNT0 : SPEC_CNT1),
				   i + 1);
		amt[e.cb] = amount(peek(test, e.cb == 1 ? SPEC_CNT0 : SPEC_CNT1),
				   i + 2);
		/* with Perf_Ovf_Stop the first to overflow stops the rest */
		switch (i % 3) {
		case 0:
			inject_three(test, &e, amt[0], amt[e.ca], amt[e.cb]);
			break;
		case 1:
			inject_three(test, &e, 0, amt[e.ca], amt[e.cb]);
			inject_three(test, &e, amt[0], 0, 0);
			break;
		default:
			inject_three(test, &e, 0, 0, amt[e.cb]);
			inject_three(test, &e, amt[0], amt[e.ca], 0);
			break;
		}
		variant_fold(test, v, &e, i);
		if (i % 64 == 0) {
			cm_stats(test, &st);
			min_wraps = U64_MAX;
			for (c = 0; c < MIPS_CM_PMU_MODEL_NR_CNT; c++)
				min_wraps = min(min_wraps, st.wraps[c]);
		}
	}
	check_three(test, &e);
	cm_stats(test, &st);
	for (c = 0; c < MIPS_CM_PMU_MODEL_NR_CNT; c++)
		KUNIT_EXPECT_GE(test, st.wraps[c], (u64)WRAPS);
	if (v->ovf_stop)
		KUNIT_EXPECT_GT(test, st.dropped[0] + st.dropped[1] +
				st.dropped[2], 0ULL);

	switch (v->mode) {
	case MODE_POLL:
		KUNIT_EXPECT_EQ(test, st.irqs, 0ULL);
		KUNIT_EXPECT_TRUE(test, mips_cm_pmu_polling(t->cm));
		break;
	case MODE_IRQ:
		KUNIT_EXPECT_GE(test, st.irqs, (u64)WRAPS);
		KUNIT_EXPECT_FALSE(test, mips_cm_pmu_polling(t->cm));
		KUNIT_EXPECT_NE(test, peek(test, SPEC_CTL) & SPEC_INT_EN, 0U);
		break;
	case MODE_IRQ_DEAD:
		/* noticed, and the interrupt source switched off */
		KUNIT_EXPECT_TRUE(test, mips_cm_pmu_polling(t->cm));
		KUNIT_EXPECT_EQ(test, peek(test, SPEC_CTL) & SPEC_INT_EN, 0U);
		break;
	}
	kunit_info(test, "%u chunks, wraps %llu/%llu/%llu, dropped %llu, %llu interrupts\n",
		   i, st.wraps[0], st.wraps[1], st.wraps[2],
		   st.dropped[0] + st.dropped[1] + st.dropped[2], st.irqs);
	set_cpus_allowed_ptr(current, cpu_possible_mask);
}

/*
 * Defect 1 in its plainest form: Perf_Ovf_Stop holds a counter at
 * 0xFFFFFFFF with its overflow bit set; reading it there is not a wrap.
 */
static void mips_cm_test_ovf_stop_at_max(struct kunit *test)
{
	static const struct cm_variant v = {
		MIPS_CM_PMU_OV_AT_MAX, true, MODE_POLL, "",
	};
	struct three e;

	variant_setup(test, &v);
	open_three(test, &e);
	inject_three(test, &e, 0, U32_MAX - 5, 0);
	check_three(test, &e);
	inject_three(test, &e, 0, 5, 0);	/* reaches 0xFFFFFFFF, stops */
	check_three(test, &e);
	KUNIT_EXPECT_EQ(test, cm_value(e.a), (u64)U32_MAX);
	wait_poll(test, SPEC_CNT0);
	check_three(test, &e);
	inject_three(test, &e, 1, 2, 3);
	check_three(test, &e);
	KUNIT_EXPECT_EQ(test, cm_value(e.a), (u64)U32_MAX + 2);
}

/*
 * With an interrupt, the fold timer runs too (the interrupt may never
 * come); with no event open, nothing runs and nothing touches the block.
 */
static void mips_cm_test_irq_mode_timer(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct three e;
	u64 n;

	cm_setup(test, true, 1);
	KUNIT_ASSERT_FALSE(test, mips_cm_pmu_polling(t->cm));
	open_three(test, &e);
	inject_three(test, &e, 10, 20, 30);
	wait_poll(test, SPEC_CNT0);
	wait_poll(test, SPEC_CYCLE);
	check_three(test, &e);

	cm_close(test, e.cyc);
	cm_close(test, e.a);
	cm_close(test, e.b);
	usleep_range(5000, 6000);
	n = all_accesses(test);
	msleep(20);
	KUNIT_EXPECT_EQ(test, all_accesses(test), n);
}

static long inject_from_cpu1(void *arg)
{
	struct cm_test *t = arg;

	mips_cm_model_inject(t->m, EV_REQ, QUAL_A, 100);
	return 0;
}

/*
 * The fold timer runs on the CPU of the events that started it, as a
 * hard-irq hrtimer (it takes raw spinlocks only, and must not be moved to
 * a softirq thread on PREEMPT_RT), also after an interrupt taken on
 * another CPU switched the driver to polling.
 */
static void mips_cm_test_fold_timer_context(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct perf_event *ev;
	unsigned int i, cpu, other, n = 0;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	cm_setup(test, true, 1);
	ev = cm_open(test, EV_REQ, QUAL_A);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	cpu = ev->cpu;
	other = cpumask_any_but(cpu_online_mask, cpu);

	mips_cm_model_inject(t->m, EV_REQ, QUAL_A, U32_MAX - 50);
	KUNIT_EXPECT_EQ(test, cm_value(ev), (u64)U32_MAX - 50);
	/* a status bit that does not clear, taken on the other CPU */
	mips_cm_model_fault(t->m, MIPS_CM_PMU_FAULT_OV_STUCK, true);
	KUNIT_ASSERT_EQ(test, work_on_cpu(other, inject_from_cpu1, t), 0L);
	for (i = 0; i < 200 && !mips_cm_pmu_polling(t->cm); i++)
		usleep_range(1000, 2000);
	KUNIT_EXPECT_TRUE(test, mips_cm_pmu_polling(t->cm));
	usleep_range(5000, 6000);

	rec_reads(t, SPEC_CNT0, 3);
	for (i = 0; i < t->nr_rec; i++) {
		struct rec *r = &t->rec[i];

		if (r->off != SPEC_CNT0 || r->write)
			continue;
		n++;
		KUNIT_EXPECT_EQ(test, r->cpu, (int)cpu);
		KUNIT_EXPECT_TRUE(test, r->hardirq);
		/* lockdep marks callbacks of soft (RT: threaded) timers */
		KUNIT_EXPECT_EQ(test, r->irq_config, 0);
	}
	KUNIT_EXPECT_GT(test, n, 3U);
	mips_cm_model_set_hook(t->m, NULL, NULL);
	mips_cm_model_fault(t->m, MIPS_CM_PMU_FAULT_OV_STUCK, false);
	KUNIT_EXPECT_EQ(test, cm_value(ev), (u64)U32_MAX - 50 + 100);
}

/*
 * Counters that start together start in one control write: no write turns
 * on only part of the counters that are off before it and run at the end.
 * Counters in @keep run through every write. Opening the third event
 * reschedules the two already running.
 */
static void check_ctl_atomic(struct kunit *test, u32 final, u32 keep)
{
	struct cm_test *t = test->priv;
	unsigned int i, writes = 0;
	u32 on = t->rec_ctl & SPEC_ALL_ON;

	rec_stop(t);
	for (i = 0; i < t->nr_rec; i++) {
		u32 prev = on, rising;

		if (t->rec[i].off != SPEC_CTL || !t->rec[i].write)
			continue;
		writes++;
		on = t->rec[i].val & SPEC_ALL_ON;
		rising = on & ~prev;
		KUNIT_EXPECT_TRUE_MSG(test, !rising || rising == (final & ~prev),
				      "control write %u: 0x%08x after 0x%x, final 0x%x",
				      writes, t->rec[i].val, prev, final);
		KUNIT_EXPECT_EQ_MSG(test, on & keep, keep,
				    "control write %u: 0x%08x stops 0x%x",
				    writes, t->rec[i].val, keep & ~on);
	}
	KUNIT_EXPECT_GE(test, writes, 1U);
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_CTL) & SPEC_ALL_ON, final);
}

static void mips_cm_test_group_atomic(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct perf_event *cyc, *a, *b;

	cm_setup(test, false, 1000);
	cyc = cm_open(test, CYCLES, 0);
	a = cm_open(test, EV_REQ, QUAL_A);
	KUNIT_ASSERT_FALSE(test, IS_ERR(cyc));
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));

	rec_start(t);
	b = cm_open(test, EV_IOCU1, QUAL_B);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	check_ctl_atomic(test, SPEC_ALL_ON, 0);

	rec_start(t);
	cm_close(test, a);
	check_ctl_atomic(test, SPEC_CYC_ON | SPEC_P1_ON, 0);
	mips_cm_model_set_hook(t->m, NULL, NULL);

	/* and the counts are exact */
	mips_cm_model_cycles(t->m, 5);
	mips_cm_model_inject(t->m, EV_IOCU1, QUAL_B, 6);
	KUNIT_EXPECT_EQ(test, cm_value(b), 6ULL);
}

static void hook_bystander(struct cm_test *t)
{
	mips_cm_model_inject(t->m, EV_REQ, QUAL_A, t->hook_arg);
}

/* Wait until an armed hook ran, for at most @ms. */
static void wait_hook(struct kunit *test, unsigned int ms)
{
	struct cm_test *t = test->priv;
	unsigned int i;

	for (i = 0; i < ms && !READ_ONCE(t->hook_ran); i++)
		usleep_range(1000, 2000);
	KUNIT_EXPECT_EQ(test, READ_ONCE(t->hook_ran), 1);
}

/*
 * The counters are the CM's, not a CPU's: perf core schedules pinned groups
 * before flexible ones only among the events of one CPU context, so every
 * event must count on the designated CPU, wherever it was opened. Two
 * flexible events opened on another CPU take both event counters; a pinned
 * event opened on the designated CPU must still count (perf stat would
 * otherwise print "<not counted>" for it).
 */
static void mips_cm_test_one_context(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct perf_event_attr attr = { .size = sizeof(attr) };
	enum perf_event_state state;
	struct perf_event *p;
	unsigned int other, i;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	cm_setup(test, false, 0);
	other = cpumask_any_but(cpu_online_mask, t->cpu);
	attr.type = t->pmu->type;
	attr.config = EV_IOCU1;
	attr.config1 = QUAL_B;
	for (i = 0; i < SPEC_NUM_CNT; i++) {
		p = perf_event_create_kernel_counter(&attr, other, NULL, NULL,
						     NULL);
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(p), "open: %ld", PTR_ERR(p));
		t->ev[t->nr_ev++] = p;
		KUNIT_EXPECT_EQ(test, p->cpu, (int)t->cpu);
	}
	p = cm_open_attr(test, EV_REQ, QUAL_A, true);
	KUNIT_ASSERT_FALSE(test, IS_ERR(p));
	state = READ_ONCE(p->state);
	KUNIT_EXPECT_EQ(test, state, PERF_EVENT_STATE_ACTIVE);
	mips_cm_model_inject(t->m, EV_REQ, QUAL_A, 123);
	KUNIT_EXPECT_EQ(test, cm_value(p), 123ULL);
}

/*
 * A counter that perf core leaves alone counts on while it schedules other
 * events on the PMU (every add, del and multiplexing rotation is bracketed
 * by pmu_disable/pmu_enable): traffic the pinned event meets there happens
 * while perf counts it as running, and must not be lost. Found by
 * a stress test, whose readers lost whole injections that way.
 */
static void mips_cm_test_bystander(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct perf_event *p, *b, *mux[3];
	u64 want = 0;
	unsigned int i;

	cm_setup(test, false, 1000);
	p = cm_open_attr(test, EV_REQ, QUAL_A, true);
	KUNIT_ASSERT_FALSE(test, IS_ERR(p));
	KUNIT_ASSERT_EQ(test, peek(test, SPEC_CTL) & SPEC_ALL_ON, SPEC_P0_ON);

	/* traffic while another event is programmed, in its add bracket */
	t->hook_arg = 7;
	want += 7;
	rec_start(t);
	cm_arm_hook(t, SPEC_EVENT, true, 1, hook_bystander);
	b = cm_open(test, EV_IOCU1, QUAL_B);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	KUNIT_EXPECT_EQ(test, t->hook_ran, 1);
	check_ctl_atomic(test, SPEC_P0_ON | SPEC_P1_ON, SPEC_P0_ON);
	KUNIT_EXPECT_EQ(test, cm_value(p), want);

	/* while the other one is read for the last time, in its del bracket */
	t->hook_arg = 11;
	want += 11;
	rec_start(t);
	cm_arm_hook(t, SPEC_CNT1, false, 1, hook_bystander);
	cm_close(test, b);
	KUNIT_EXPECT_EQ(test, t->hook_ran, 1);
	check_ctl_atomic(test, SPEC_P0_ON, SPEC_P0_ON);
	KUNIT_EXPECT_EQ(test, cm_value(p), want);

	/*
	 * Three events for the one counter left: perf core rotates them at
	 * every tick. Traffic between the control writes of a rotation.
	 */
	for (i = 0; i < ARRAY_SIZE(mux); i++) {
		mux[i] = cm_open(test, EV_IOCU1, QUAL_B);
		KUNIT_ASSERT_FALSE(test, IS_ERR(mux[i]));
	}
	for (i = 0; i < 3; i++) {
		t->hook_arg = 1000 + i;
		want += 1000 + i;
		cm_arm_hook(t, SPEC_CTL, true, 2, hook_bystander);
		wait_hook(test, 2000);
		KUNIT_EXPECT_EQ(test, cm_value(p), want);
	}
	mips_cm_model_set_hook(t->m, NULL, NULL);
}

static void cm_txn_add(void *pmu)
{
	((struct pmu *)pmu)->start_txn(pmu, PERF_PMU_TXN_ADD);
}

static void cm_txn_commit(void *pmu)
{
	((struct pmu *)pmu)->commit_txn(pmu);
}

/*
 * perf core calls the PMU on two CPUs at once: events may be opened on any
 * CPU, or are installed on a CPU whose events just moved away on hotplug.
 * Each CPU's add transaction is its own bracket: when both ended, a new
 * event starts and counts.
 */
static void mips_cm_test_txn_two_cpus(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct perf_event *ev;
	unsigned int a, b;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	cm_setup(test, false, 1000);
	a = t->cpu;
	b = cpumask_any_but(cpu_online_mask, a);
	KUNIT_ASSERT_LT(test, b, nr_cpu_ids);
	/* both CPUs open a bracket, A ends its bracket, then B */
	KUNIT_ASSERT_EQ(test, smp_call_function_single(a, cm_txn_add, t->pmu, 1), 0);
	KUNIT_ASSERT_EQ(test, smp_call_function_single(b, cm_txn_add, t->pmu, 1), 0);
	KUNIT_ASSERT_EQ(test, smp_call_function_single(a, cm_txn_commit, t->pmu, 1), 0);
	KUNIT_ASSERT_EQ(test, smp_call_function_single(b, cm_txn_commit, t->pmu, 1), 0);

	ev = cm_open_attr(test, EV_REQ, QUAL_A, true);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_CTL) & SPEC_ALL_ON, SPEC_P0_ON);
	mips_cm_model_inject(t->m, EV_REQ, QUAL_A, 1234);
	KUNIT_EXPECT_EQ(test, cm_value(ev), 1234ULL);
}

static void mips_cm_test_overflow_other_runs(struct kunit *test)
{
	struct three e;

	cm_setup(test, true, 1000);
	open_three(test, &e);
	inject_three(test, &e, 100, PERIOD - 5, 1000);
	wait_irq_done(test);
	check_three(test, &e);
	inject_three(test, &e, 100, 10, 1000);
	wait_irq_done(test);
	check_three(test, &e);
	inject_three(test, &e, 0, 0, PERIOD - 3);
	wait_irq_done(test);
	check_three(test, &e);
}

static void hook_wrap_b(struct cm_test *t)
{
	/* counter 1 overflows while the handler works on counter 0 */
	mips_cm_model_inject(t->m, EV_IOCU1, QUAL_B, 20);
}

static void hook_wrap_a(struct cm_test *t)
{
	mips_cm_model_inject(t->m, EV_REQ, QUAL_A, 30);
}

/*
 * An overflow that arrives between the status read and its clear, or
 * between a status read and the counter read, is counted once.
 */
static void mips_cm_test_overflow_race(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct three e;

	cm_setup(test, true, 1000);
	open_three(test, &e);
	inject_three(test, &e, 0, PERIOD - 10, PERIOD - 10);
	wait_irq_done(test);
	check_three(test, &e);

	cm_arm_hook(t, SPEC_OV, true, 1, hook_wrap_b);
	inject_three(test, &e, 0, 20, 0);
	e.want_b += 20;
	wait_irq_done(test);
	KUNIT_EXPECT_EQ(test, t->hook_ran, 1);
	check_three(test, &e);

	inject_three(test, &e, 0, PERIOD - 10 - 20, 0);
	wait_irq_done(test);
	check_three(test, &e);
	cm_arm_hook(t, e.ca == 1 ? SPEC_CNT0 : SPEC_CNT1, false, 1, hook_wrap_a);
	KUNIT_EXPECT_EQ(test, cm_value(e.a), e.want_a + 30);
	e.want_a += 30;
	KUNIT_EXPECT_EQ(test, t->hook_ran, 1);
	wait_irq_done(test);
	check_three(test, &e);
	mips_cm_model_set_hook(t->m, NULL, NULL);
}

/* More events than counters: perf core rotates them. */
static void mips_cm_test_multiplex(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct perf_event *ev[3];
	u64 enabled, running, total = 0, sum = 0;
	unsigned int i;

	cm_setup(test, false, 0);
	for (i = 0; i < 3; i++) {
		ev[i] = cm_open(test, EV_REQ, QUAL_A);
		KUNIT_ASSERT_FALSE(test, IS_ERR(ev[i]));
	}
	for (i = 0; i < 200; i++) {
		mips_cm_model_inject(t->m, EV_REQ, QUAL_A, 1000);
		total += 1000;
		usleep_range(500, 1000);
	}
	for (i = 0; i < 3; i++) {
		u64 v = perf_event_read_value(ev[i], &enabled, &running);

		KUNIT_EXPECT_GT(test, running, 0ULL);
		KUNIT_EXPECT_LT(test, running, enabled);
		KUNIT_EXPECT_LE(test, v, total);
		sum += v;
	}
	/* two counters, each saw part of the traffic: no invented counts */
	KUNIT_EXPECT_LE(test, sum, 2 * total);
	KUNIT_EXPECT_GT(test, sum, 0ULL);
}

struct cm_reader {
	struct work_struct work;
	struct perf_event *ev;
	bool direct;		/* pmu->read() as on the event's CPU */
	int cpu;
	bool stop;
	atomic64_t *injected;
	unsigned int reads, bad, misplaced;
	u64 last;
};

static atomic_t reads_on[2], other_reads, stalls;
static int slow_cpu;
static atomic64_t injected;
static struct mips_cm_model *slow_model;
static const struct mips_cm_pmu_ops *model_ops;
/* as long as the PMU: the suite's exit still reads through it */
static struct mips_cm_pmu_ops slow_ops;

/*
 * The model's counter read, which on the events' CPU now and then counts
 * on after taking the value and waits (up to 300 ms, a few of QEMU's
 * round-robin slices of the other vCPU) until the other CPU completed a
 * read: a fold that reads and exchanges without the driver's lock would
 * then exchange an older value after a newer one, a wrap's worth of
 * invented counts.
 */
static u32 slow_read(void *ctx, enum mips_cm_pmu_reg reg)
{
	u32 val = model_ops->read(model_ops->ctx, reg);
	bool here = raw_smp_processor_id() == READ_ONCE(slow_cpu);
	int seen, i;

	if (reg != MIPS_CM_PC_CNT0)
		return val;
	atomic_inc(&reads_on[!here]);
	if (!here || atomic_read(&reads_on[0]) % 32 ||
	    atomic_inc_return(&stalls) > 4)
		return val;
	seen = atomic_read(&other_reads);
	/* the bound is raised before the traffic exists */
	atomic64_add(1000, &injected);
	mips_cm_model_inject(slow_model, EV_REQ, QUAL_A, 1000);
	/* interrupts are off here: no sleeping */
	for (i = 0; i < 300 && atomic_read(&other_reads) == seen; i++)
		mdelay(1);
	return val;
}

static void cm_reader_fn(struct work_struct *work)
{
	struct cm_reader *r = container_of(work, struct cm_reader, work);
	u64 v, enabled, running;
	unsigned long flags;

	while (!READ_ONCE(r->stop)) {
		if (raw_smp_processor_id() != r->cpu)
			r->misplaced++;
		if (r->direct) {
			local_irq_save(flags);
			r->ev->pmu->read(r->ev);
			local_irq_restore(flags);
			v = local64_read(&r->ev->count);
		} else {
			v = perf_event_read_value(r->ev, &enabled, &running);
			atomic_inc(&other_reads);
		}
		/* never less than before, never more than injected */
		if (v < r->last || v > atomic64_read(r->injected))
			r->bad++;
		r->last = v;
		r->reads++;
		cond_resched();
	}
}

/* Not yet as many reads as mips_cm_test_read_two_cpus() wants. */
static bool cm_readers_short(const struct cm_reader *r)
{
	return READ_ONCE(r[0].reads) <= 100 || READ_ONCE(r[1].reads) <= 100 ||
	       atomic_read(&reads_on[0]) <= 100 ||
	       atomic_read(&reads_on[1]) <= 100 || atomic_read(&stalls) <= 4;
}

/*
 * A read on another CPU than the event's (perf reads a system-wide PMU's
 * event on the calling CPU, without a cross-call) folds while the event's
 * CPU folds too, from its fold timer and its own reads: no count is lost
 * or taken twice, across wraps.
 */
static void mips_cm_test_read_two_cpus(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct mips_cm_pmu_platdata pd = {
		.cm_rev = 0x0600,
		.nr_clusters = 1,
		.nr_iocu = 2,
		.poll_period_ms = 1,
	};
	struct cm_reader r[2] = {};
	unsigned long deadline;
	struct perf_event *ev;
	unsigned int i;
	u64 chunk;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	cm_model(test, SPEC_NUM_CNT);
	model_ops = mips_cm_model_ops(t->m);
	slow_model = t->m;
	atomic64_set(&injected, 0);
	slow_ops = *model_ops;
	slow_ops.read = slow_read;
	WRITE_ONCE(slow_cpu, -1);
	KUNIT_ASSERT_EQ(test, cm_probe_ops(test, &pd, &slow_ops, false), 0);
	ev = cm_open(test, EV_REQ, QUAL_A);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	for (i = 0; i < 2; i++) {
		INIT_WORK(&r[i].work, cm_reader_fn);
		r[i].ev = ev;
		r[i].injected = &injected;
	}
	r[0].direct = true;
	r[0].cpu = ev->cpu;
	r[1].cpu = cpumask_any_but(cpu_online_mask, ev->cpu);
	KUNIT_ASSERT_LT(test, r[1].cpu, (int)nr_cpu_ids);
	atomic_set(&reads_on[0], 0);
	atomic_set(&reads_on[1], 0);
	atomic_set(&other_reads, 0);
	atomic_set(&stalls, 0);
	WRITE_ONCE(slow_cpu, ev->cpu);
	queue_work_on(r[0].cpu, system_wq, &r[0].work);
	queue_work_on(r[1].cpu, system_wq, &r[1].work);

	/*
	 * About 3 wraps of the 32-bit counter in chunks below 2^24, and on
	 * until each reader has read 100 times while traffic came (how fast
	 * they go is the host's doing: under QEMU's TCG on a busy host they
	 * once read 94 times in 1500 chunks), for 30 s at most.
	 */
	deadline = jiffies + 30 * HZ;
	for (i = 0; i < 1500 || (cm_readers_short(r) &&
				 time_before(jiffies, deadline)); i++) {
		chunk = rnd() & (BIT(24) - 1);
		/* the bound is raised before the traffic exists */
		atomic64_add(chunk, &injected);
		mips_cm_model_inject(t->m, EV_REQ, QUAL_A, chunk);
		if (i % 16 == 0)
			usleep_range(50, 100);
	}
	for (i = 0; i < 2; i++) {
		WRITE_ONCE(r[i].stop, true);
		flush_work(&r[i].work);
	}
	WRITE_ONCE(slow_cpu, -1);

	KUNIT_EXPECT_GT(test, (u64)atomic64_read(&injected), (u64)2 * U32_MAX);
	KUNIT_EXPECT_EQ(test, cm_value(ev), (u64)atomic64_read(&injected));
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_GT(test, r[i].reads, 100U);
		KUNIT_EXPECT_EQ(test, r[i].bad, 0U);
		KUNIT_EXPECT_EQ(test, r[i].misplaced, 0U);
	}
	/* each CPU read the counter itself, and the stalls happened */
	KUNIT_EXPECT_GT(test, atomic_read(&reads_on[0]), 100);
	KUNIT_EXPECT_GT(test, atomic_read(&reads_on[1]), 100);
	KUNIT_EXPECT_GT(test, atomic_read(&stalls), 4);
}

static const struct cm_variant hotplug_variants[] = {
	{ MIPS_CM_PMU_OV_AT_MAX, false, MODE_POLL, "at-max, polled" },
	{ MIPS_CM_PMU_OV_AT_MAX, false, MODE_IRQ, "at-max, interrupt" },
	{ MIPS_CM_PMU_OV_AT_WRAP, false, MODE_POLL, "at-wrap, polled" },
	{ MIPS_CM_PMU_OV_AT_WRAP, false, MODE_IRQ, "at-wrap, interrupt" },
};

KUNIT_ARRAY_PARAM(hotplug, hotplug_variants, variant_desc);

static void hotplug_chunks(struct kunit *test, const struct cm_variant *v,
			   struct three *e, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		inject_three(test, e, chunk(), chunk(), chunk());
		variant_fold(test, v, e, i);
	}
}

/*
 * A CPU goes offline while counting: the overflow interrupt routed to it
 * moves where perf core moves system-wide PMUs, events counting on it move
 * with the PMU's cpumask, events elsewhere stay, the fold timer goes on,
 * and counts stay exact across wraps before and after.
 */
static void mips_cm_test_hotplug(struct kunit *test)
{
	const struct cm_variant *v = test->param_value;
	struct cm_test *t = test->priv;
	unsigned int last, moved, i, n;
	struct three e;
	int ev_cpu, ret;

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU) || num_online_cpus() < 2)
		kunit_skip(test, "needs CPU hotplug and 2 CPUs");
	variant_setup(test, v);
	/*
	 * CPU 0 cannot go offline on MIPS, nor on x86 QEMU CPUs of vendor
	 * AMD: start from the last CPU, before any event exists.
	 */
	last = cpumask_last(cpu_online_mask);
	KUNIT_ASSERT_EQ(test, mips_cm_pmu_set_cpu(t->cm, last), 0);
	KUNIT_ASSERT_EQ(test, mips_cm_pmu_cpu(t->cm), last);
	t->cpu = cm_cpumask(test);
	open_three(test, &e);
	ev_cpu = e.a->cpu;
	hotplug_chunks(test, v, &e, 40);
	inject_three(test, &e, 1, 2, 3);

	ret = remove_cpu(last);
	if (ret)
		kunit_skip(test, "CPU %u cannot go offline (%d)", last, ret);
	/* perf_event_clear_cpumask()'s choice: any online CPU but @last */
	moved = mips_cm_pmu_cpu(t->cm);
	KUNIT_EXPECT_NE(test, moved, last);
	KUNIT_EXPECT_TRUE(test, cpu_online(moved));
	t->cpu = cm_cpumask(test);
	if (ev_cpu == last) {
		KUNIT_EXPECT_EQ(test, t->cpu, moved);
		KUNIT_EXPECT_EQ(test, e.a->cpu, (int)moved);
		KUNIT_EXPECT_EQ(test, e.cyc->cpu, (int)moved);
	} else {
		KUNIT_EXPECT_EQ(test, t->cpu, (unsigned int)ev_cpu);
		KUNIT_EXPECT_EQ(test, e.a->cpu, ev_cpu);
		KUNIT_EXPECT_EQ(test, e.cyc->cpu, ev_cpu);
	}
	check_three(test, &e);

	/* counting, wrapping and folding go on, none of it on @last */
	hotplug_chunks(test, v, &e, 40);
	rec_reads(t, SPEC_CYCLE, 3);
	for (i = 0, n = 0; i < t->nr_rec; i++) {
		if (t->rec[i].off != SPEC_CYCLE || t->rec[i].write)
			continue;
		n++;
		KUNIT_EXPECT_NE(test, t->rec[i].cpu, (int)last);
	}
	KUNIT_EXPECT_GT(test, n, 3U);
	mips_cm_model_set_hook(t->m, NULL, NULL);
	KUNIT_EXPECT_EQ(test, add_cpu(last), 0);
	check_three(test, &e);
	/* the interrupt stays where it went */
	KUNIT_EXPECT_EQ(test, mips_cm_pmu_cpu(t->cm), moved);
}

/* --- faults ------------------------------------------------------------- */

/* No interrupt described by the platform: the driver polls. */
static void mips_cm_test_no_irq(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct three e;

	cm_model(test, SPEC_NUM_CNT);
	KUNIT_ASSERT_EQ(test, cm_probe(test, -ENXIO, 1), 0);
	KUNIT_EXPECT_TRUE(test, mips_cm_pmu_polling(t->cm));
	open_three(test, &e);
	inject_three(test, &e, chunk(), chunk(), chunk());
	wait_poll(test, SPEC_CNT0);
	inject_three(test, &e, chunk(), chunk(), chunk());
	check_three(test, &e);
}

/*
 * A described interrupt that cannot be requested (here: no such IRQ; a
 * request that collides with another handler would make genirq print under
 * its raw descriptor lock, which lockdep reports on a 6.1 debug kernel).
 */
static void mips_cm_test_fault_request_irq(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct three e;

	cm_model(test, SPEC_NUM_CNT);
	KUNIT_EXPECT_EQ(test, cm_probe(test, INT_MAX, 1), 0);
	KUNIT_ASSERT_NOT_NULL(test, t->cm);
	KUNIT_EXPECT_TRUE(test, mips_cm_pmu_polling(t->cm));
	open_three(test, &e);
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_CTL) & SPEC_INT_EN, 0U);
	inject_three(test, &e, chunk(), chunk(), chunk());
	wait_poll(test, SPEC_CNT0);
	inject_three(test, &e, chunk(), chunk(), chunk());
	check_three(test, &e);
}

static void mips_cm_test_fault_spurious_irq(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct three e;
	u64 ov_writes;

	cm_setup(test, true, 1000);
	open_three(test, &e);
	inject_three(test, &e, 5, 6, 7);
	ov_writes = writes_of(test, SPEC_OV);
	mips_cm_model_fault(t->m, MIPS_CM_PMU_FAULT_SPURIOUS_IRQ, true);
	usleep_range(2000, 3000);
	/* the handler found no status and cleared nothing */
	KUNIT_EXPECT_EQ(test, writes_of(test, SPEC_OV), ov_writes);
	KUNIT_EXPECT_FALSE(test, mips_cm_pmu_polling(t->cm));
	check_three(test, &e);
}

/* The two readings of how CM_PCInt follows Perf_Int_En */
static const enum mips_cm_pmu_latch latch_modes[] = {
	MIPS_CM_PMU_LATCH_GATED,
	MIPS_CM_PMU_LATCH_LATCHED,
};

static void latch_desc(const enum mips_cm_pmu_latch *l, char *desc)
{
	strscpy(desc, *l == MIPS_CM_PMU_LATCH_LATCHED ?
		"CM_PCInt latched" : "CM_PCInt gated by Perf_Int_En",
		KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(latch, latch_modes, latch_desc);

/*
 * Wait until the interrupt has been given up (disabled) or has stormed,
 * and, with @stuck, until the driver has seen @stuck episodes of an
 * overflow status that does not clear; 10 s at most.
 */
static void wait_line_off(struct kunit *test, unsigned long stuck)
{
	struct cm_test *t = test->priv;
	struct irq_data *d = irq_get_irq_data(sim_irq);
	int i;

	for (i = 0; i < 5000; i++) {
		if ((!stuck || mips_cm_pmu_ov_stuck(t->cm) >= stuck) &&
		    (irqd_irq_disabled(d) || READ_ONCE(t->storm)))
			return;
		usleep_range(1000, 2000);
	}
}

/*
 * An overflow status that does not clear parks the interrupt: the line is
 * disabled, whether or not clearing Perf_Int_En drops it, the fold timer
 * alone counts and tries the status at every fold; once the status reads
 * clean, Perf_Int_En and the line are on again and overflows are taken by
 * the interrupt.
 */
static void mips_cm_test_fault_ov_stuck(struct kunit *test)
{
	const enum mips_cm_pmu_latch *latch = test->param_value;
	struct cm_test *t = test->priv;
	struct irq_data *d = irq_get_irq_data(sim_irq);
	struct mips_cm_model_stats st;
	struct three e;
	unsigned long n;
	unsigned int i;

	cm_setup(test, true, 1);
	mips_cm_model_set_latch(t->m, *latch);
	open_three(test, &e);
	inject_three(test, &e, 10, PERIOD - 10, 10);
	wait_irq_done(test);
	check_three(test, &e);

	/*
	 * Twice: the next overflow's status cannot be cleared, so the fold
	 * timer alone counts, and tries the status at every fold; once it
	 * clears, the interrupt takes overflows again.
	 */
	for (n = 1; n <= 2; n++) {
		mips_cm_model_fault(t->m, MIPS_CM_PMU_FAULT_OV_STUCK, true);
		inject_three(test, &e, 0, PERIOD - 20, 0);
		wait_line_off(test, n);
		KUNIT_EXPECT_TRUE(test, mips_cm_pmu_polling(t->cm));
		KUNIT_EXPECT_EQ(test, peek(test, SPEC_CTL) & SPEC_INT_EN, 0U);
		KUNIT_EXPECT_EQ(test, mips_cm_pmu_ov_stuck(t->cm), n);
		/* parked: the line is released, held high or not */
		KUNIT_EXPECT_TRUE(test, irqd_irq_disabled(d));
		/* model: only a latched CM_PCInt stays high without Perf_Int_En */
		KUNIT_EXPECT_EQ(test, mips_cm_model_line(t->m),
				*latch == MIPS_CM_PMU_LATCH_LATCHED);
		expect_no_storm(test);
		check_three(test, &e);
		for (i = 0; i < 20; i++) {
			inject_three(test, &e, chunk(), chunk(), chunk());
			wait_poll(test, SPEC_CNT1);
		}
		check_three(test, &e);

		mips_cm_model_fault(t->m, MIPS_CM_PMU_FAULT_OV_STUCK, false);
		for (i = 0; i < 2000 && mips_cm_pmu_polling(t->cm); i++)
			usleep_range(1000, 2000);
		KUNIT_EXPECT_FALSE(test, mips_cm_pmu_polling(t->cm));
		KUNIT_EXPECT_EQ(test, peek(test, SPEC_CTL) & SPEC_INT_EN,
				SPEC_INT_EN);
		KUNIT_EXPECT_EQ(test, peek(test, SPEC_OV), 0U);
		/* re-armed on a clean status: the line is enabled again */
		KUNIT_EXPECT_FALSE(test, mips_cm_model_line(t->m));
		KUNIT_EXPECT_FALSE(test, irqd_irq_disabled(d));
		cm_stats(test, &st);
		inject_three(test, &e, chunk(), chunk(), chunk());
		wait_irq_done(test);
		KUNIT_EXPECT_GE(test, irqs_since(test, &st), 1ULL);
		check_three(test, &e);
	}
	KUNIT_EXPECT_EQ(test, mips_cm_pmu_ov_stuck(t->cm), 2UL);
	expect_no_storm(test);
}

static void mips_cm_test_fault_state_loss(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct three e;

	cm_setup(test, true, 1000);
	open_three(test, &e);
	inject_three(test, &e, 1000, PERIOD - 1000, 3000);
	wait_irq_done(test);
	check_three(test, &e);
	/* traffic before the loss but after the last read is gone */
	mips_cm_model_cycles(t->m, 77);
	mips_cm_model_fault(t->m, MIPS_CM_PMU_FAULT_STATE_LOSS, true);
	check_three(test, &e);		/* nothing invented from the reset */
	KUNIT_EXPECT_EQ(test, peek(test, e.ca == 1 ? SPEC_QUAL0 : SPEC_QUAL1),
			QUAL_A);
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_CTL),
			SPEC_INT_EN | SPEC_ALL_ON | SPEC_NUM_CNT);
	inject_three(test, &e, 1, PERIOD - 2, 3);
	wait_irq_done(test);
	check_three(test, &e);
}

static void mips_cm_test_fault_dead(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct three e;

	cm_setup(test, false, 1);
	open_three(test, &e);
	inject_three(test, &e, 10, 20, 30);
	check_three(test, &e);
	/* reads of all ones are not counts */
	mips_cm_model_fault(t->m, MIPS_CM_PMU_FAULT_DEAD, true);
	inject_three(test, &e, 10, 20, 30);
	e.want_cyc -= 10;
	e.want_a -= 20;
	e.want_b -= 30;
	wait_poll(test, SPEC_CTL);
	check_three(test, &e);
	/* back: counting resumes from where the block is */
	mips_cm_model_fault(t->m, MIPS_CM_PMU_FAULT_DEAD, false);
	wait_poll(test, SPEC_CNT0);
	inject_three(test, &e, 1, 2, 3);
	check_three(test, &e);
}

static void hook_revive(struct cm_test *t)
{
	mips_cm_model_fault(t->m, MIPS_CM_PMU_FAULT_DEAD, false);
}

/*
 * The interrupt arrives while the block reads all ones: the handler must
 * switch the interrupt source off and give up the line (else a level
 * interrupt storms).
 */
static void mips_cm_test_irq_dead_block(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct irq_data *d = irq_get_irq_data(sim_irq);
	struct three e;

	cm_setup(test, true, 1000);
	open_three(test, &e);
	inject_three(test, &e, 1, 2, 3);
	check_three(test, &e);
	mips_cm_model_fault(t->m, MIPS_CM_PMU_FAULT_DEAD, true);
	/* the write that switches the source off is the one that lands */
	cm_arm_hook(t, SPEC_CTL, true, 1, hook_revive);
	mips_cm_model_fault(t->m, MIPS_CM_PMU_FAULT_SPURIOUS_IRQ, true);
	usleep_range(2000, 3000);
	KUNIT_EXPECT_EQ(test, t->hook_ran, 1);
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_CTL) & SPEC_INT_EN, 0U);
	KUNIT_EXPECT_TRUE(test, mips_cm_pmu_polling(t->cm));
	KUNIT_EXPECT_TRUE(test, irqd_irq_disabled(d));
	mips_cm_model_set_hook(t->m, NULL, NULL);
	mips_cm_model_fault(t->m, MIPS_CM_PMU_FAULT_DEAD, false);
	inject_three(test, &e, 1, 2, 3);
	check_three(test, &e);
}

/*
 * An overflow is pending when the block stops answering, and it does not
 * come back: the handler can neither read, clear nor switch off the
 * source, and the line stays high. It gives the line up (disabled, no
 * storm) and the fold timer goes on alone; once the block answers again
 * the counts continue from there. Under both readings of CM_PCInt: a dead
 * block drops the write that clears Perf_Int_En either way.
 */
static void mips_cm_test_irq_dead_block_stays(struct kunit *test)
{
	const enum mips_cm_pmu_latch *latch = test->param_value;
	struct cm_test *t = test->priv;
	struct irq_data *d = irq_get_irq_data(sim_irq);
	struct three e;

	cm_setup(test, true, 1000);
	mips_cm_model_set_latch(t->m, *latch);
	open_three(test, &e);
	inject_three(test, &e, 1, 2, 3);
	check_three(test, &e);
	KUNIT_EXPECT_FALSE(test, irqd_irq_disabled(d));
	/* a status the handler has not taken yet; then the block dies */
	mips_cm_model_poke(t->m, SPEC_OV, SPEC_OV_P0);
	KUNIT_ASSERT_TRUE(test, mips_cm_model_line(t->m));
	mips_cm_model_fault(t->m, MIPS_CM_PMU_FAULT_DEAD, true);
	/* the interrupt controller takes the line (the poke raised nothing) */
	mips_cm_model_fault(t->m, MIPS_CM_PMU_FAULT_SPURIOUS_IRQ, true);
	wait_line_off(test, 0);
	KUNIT_EXPECT_TRUE(test, irqd_irq_disabled(d));
	KUNIT_EXPECT_TRUE(test, mips_cm_pmu_polling(t->cm));
	/* model: still held high, nothing reached the block */
	KUNIT_EXPECT_TRUE(test, mips_cm_model_line(t->m));
	expect_no_storm(test);
	/* the line stays given up while the block stays dead */
	msleep(20);
	KUNIT_EXPECT_TRUE(test, irqd_irq_disabled(d));
	expect_no_storm(test);

	mips_cm_model_fault(t->m, MIPS_CM_PMU_FAULT_DEAD, false);
	inject_three(test, &e, 1, 2, 3);
	check_three(test, &e);
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_CTL) & SPEC_INT_EN, 0U);
	KUNIT_EXPECT_EQ(test, peek(test, SPEC_OV), 0U);
	KUNIT_EXPECT_FALSE(test, mips_cm_model_line(t->m));
	KUNIT_EXPECT_TRUE(test, irqd_irq_disabled(d));
}

static int mips_cm_test_init(struct kunit *test)
{
	struct cm_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	if (!t)
		return -ENOMEM;
	raw_spin_lock_init(&t->rec_lock);
	raw_spin_lock_init(&t->level_lock);
	hrtimer_init(&t->level, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	t->level.function = level_tick;
	test->priv = t;
	/*
	 * The events of the suite's PMUs count on the CPU of their cpumask,
	 * the first one where nothing moved it: no cross-call to read them.
	 */
	return set_cpus_allowed_ptr(current,
				    cpumask_of(cpumask_first(cpu_online_mask)));
}

static void mips_cm_test_exit(struct kunit *test)
{
	struct cm_test *t = test->priv;

	cm_close_all(t);
	if (t->cm)
		cm_remove(t);
	hrtimer_cancel(&t->level);
	expect_no_storm(test);
	if (t->m)
		mips_cm_model_destroy(t->m);
}

static int mips_cm_suite_init(struct kunit_suite *suite)
{
	sim_fwnode = irq_domain_alloc_named_fwnode("mips_cm_pmu_kunit");
	if (!sim_fwnode)
		return -ENOMEM;
	sim_domain = irq_domain_create_sim(sim_fwnode, 1);
	if (IS_ERR(sim_domain)) {
		irq_domain_free_fwnode(sim_fwnode);
		return PTR_ERR(sim_domain);
	}
	sim_irq = irq_create_mapping(sim_domain, 0);
	return sim_irq > 0 ? 0 : -ENXIO;
}

static void mips_cm_suite_exit(struct kunit_suite *suite)
{
	irq_dispose_mapping(sim_irq);
	irq_domain_remove_sim(sim_domain);
	irq_domain_free_fwnode(sim_fwnode);
}

static struct kunit_case mips_cm_cases[] = {
	KUNIT_CASE(mips_cm_test_model_spec),
	KUNIT_CASE(mips_cm_test_spec_register_map),
	KUNIT_CASE(mips_cm_test_group_read),
	KUNIT_CASE(mips_cm_test_spec_events),
	KUNIT_CASE(mips_cm_test_probe),
	KUNIT_CASE(mips_cm_test_probe_clusters),
	KUNIT_CASE(mips_cm_test_probe_hands_off),
	KUNIT_CASE(mips_cm_test_probe_irq_asserted),
	KUNIT_CASE(mips_cm_test_probe_reserved),
	KUNIT_CASE(mips_cm_test_shutdown),
	KUNIT_CASE(mips_cm_test_sysfs),
	KUNIT_CASE(mips_cm_test_sysfs_iocu),
	KUNIT_CASE(mips_cm_test_tables),
	KUNIT_CASE(mips_cm_test_event_init),
	KUNIT_CASE(mips_cm_test_random_attrs),
	KUNIT_CASE(mips_cm_test_random_open),
	KUNIT_CASE_PARAM(mips_cm_test_wraps, wrap_gen_params),
	KUNIT_CASE(mips_cm_test_ovf_stop_at_max),
	KUNIT_CASE(mips_cm_test_irq_mode_timer),
	KUNIT_CASE(mips_cm_test_fold_timer_context),
	KUNIT_CASE(mips_cm_test_group_atomic),
	KUNIT_CASE(mips_cm_test_bystander),
	KUNIT_CASE(mips_cm_test_one_context),
	KUNIT_CASE(mips_cm_test_txn_two_cpus),
	KUNIT_CASE(mips_cm_test_read_two_cpus),
	KUNIT_CASE(mips_cm_test_overflow_other_runs),
	KUNIT_CASE(mips_cm_test_overflow_race),
	KUNIT_CASE(mips_cm_test_multiplex),
	KUNIT_CASE_PARAM(mips_cm_test_hotplug, hotplug_gen_params),
	KUNIT_CASE(mips_cm_test_no_irq),
	KUNIT_CASE(mips_cm_test_fault_request_irq),
	KUNIT_CASE(mips_cm_test_fault_spurious_irq),
	KUNIT_CASE_PARAM(mips_cm_test_fault_ov_stuck, latch_gen_params),
	KUNIT_CASE(mips_cm_test_fault_state_loss),
	KUNIT_CASE(mips_cm_test_fault_dead),
	KUNIT_CASE(mips_cm_test_irq_dead_block),
	KUNIT_CASE_PARAM(mips_cm_test_irq_dead_block_stays, latch_gen_params),
	{}
};

static struct kunit_suite mips_cm_suite = {
	.name = "mips_cm_pmu",
	.init = mips_cm_test_init,
	.exit = mips_cm_test_exit,
	.suite_init = mips_cm_suite_init,
	.suite_exit = mips_cm_suite_exit,
	.test_cases = mips_cm_cases,
};

kunit_test_suite(mips_cm_suite);

MODULE_DESCRIPTION("KUnit tests of the mips_cm PMU");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
