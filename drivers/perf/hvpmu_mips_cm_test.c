// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the mips_cm PMU against the model of the CM debug block,
 * through the real perf core. The overflow interrupt is a simulated one
 * (IRQ_SIM) raised by the model's CM_PCInt line.
 */

#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irq_sim.h>
#include <linux/irqdomain.h>
#include <linux/perf/hvpmu.h>
#include <linux/perf/hvpmu_mips_cm.h>
#include <linux/perf_event.h>
#include <linux/slab.h>

/* Not "mips_cm": the simulated platform may own that name. */
#define TEST_PMU	"mips_cm_test"
#define MAX_EVENTS	8

#define EV_REQ		0x00	/* request_count */
#define EV_IOCU1	0x11	/* iocu1_requests */
#define QUAL_A		0xff47c001
#define QUAL_B		0x000c79ff
#define CYCLES		BIT_ULL(8)	/* config of the cycle counter */

#define PERIOD		BIT_ULL(32)
#define WRAPS		1000

static struct irq_domain *sim_domain;
static struct fwnode_handle *sim_fwnode;
static int sim_irq;

struct cm_test {
	struct hvpmu_mips_cm_model *m;
	struct hvpmu_mips_cm *cm;
	struct pmu *pmu;
	struct perf_event *ev[MAX_EVENTS];
	unsigned int nr_ev;
	/* access hook: run @hook_fn once, before access @hook_nth to @hook_off */
	unsigned int hook_off;
	bool hook_write;
	int hook_nth;
	void (*hook_fn)(struct cm_test *t);
	int hook_ran;
};

static void sim_raise(void *arg)
{
	irq_set_irqchip_state(sim_irq, IRQCHIP_STATE_PENDING, true);
}

static void cm_model(struct kunit *test, unsigned int num_cnt)
{
	struct cm_test *t = test->priv;

	t->m = hvpmu_mips_cm_model_create(num_cnt);
	KUNIT_ASSERT_NOT_NULL(test, t->m);
}

/* Probe the PMU on t->m; returns the errno of the probe. */
static int cm_probe(struct kunit *test, int irq, unsigned int poll_ms)
{
	struct cm_test *t = test->priv;
	struct hvpmu_mips_cm_platdata pd = {
		.ops = &hvpmu_mips_cm_model_ops,
		.ctx = t->m,
		.irq = irq,
		.cm_rev = 0x0600,
		.poll_period_ms = poll_ms,
	};
	struct hvpmu_mips_cm *cm;

	if (irq)
		hvpmu_mips_cm_model_set_irq(t->m, sim_raise, NULL);
	cm = hvpmu_mips_cm_probe(&pd, TEST_PMU);
	if (IS_ERR(cm))
		return PTR_ERR(cm);
	t->cm = cm;
	t->pmu = hvpmu_mips_cm_pmu(cm);
	return 0;
}

static void cm_setup(struct kunit *test, bool irq, unsigned int poll_ms)
{
	cm_model(test, 2);
	KUNIT_ASSERT_EQ(test, cm_probe(test, irq ? sim_irq : 0, poll_ms), 0);
}

/*
 * Linux 6.1 frees a PMU's per-CPU contexts when it is unregistered without
 * cancelling their multiplexing hrtimer (free_pmu_context()). After
 * multiplexed events are closed that timer fires once more (within one mux
 * interval) and stops; wait for that before the PMU goes away.
 */
static void cm_remove(struct cm_test *t)
{
	unsigned int cpu;
	int i;

	for_each_possible_cpu(cpu) {
		struct perf_cpu_context *cpuctx =
			per_cpu_ptr(t->pmu->pmu_cpu_context, cpu);

		for (i = 0; i < 1000 && hrtimer_active(&cpuctx->hrtimer); i++)
			usleep_range(1000, 2000);
	}
	hvpmu_mips_cm_remove(t->cm);
	t->cm = NULL;
}

static struct perf_event *cm_open(struct kunit *test, u64 config, u64 config1)
{
	struct cm_test *t = test->priv;
	struct perf_event_attr attr = {
		.type = t->pmu->type,
		.size = sizeof(attr),
		.config = config,
		.config1 = config1,
	};
	struct perf_event *ev;

	ev = perf_event_create_kernel_counter(&attr,
					      cpumask_first(cpu_online_mask),
					      NULL, NULL, NULL);
	if (!IS_ERR(ev)) {
		KUNIT_ASSERT_LT(test, t->nr_ev, MAX_EVENTS);
		t->ev[t->nr_ev++] = ev;
	}
	return ev;
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

static u64 cm_value(struct perf_event *ev)
{
	u64 enabled, running;

	return perf_event_read_value(ev, &enabled, &running);
}

static void cm_stats(struct kunit *test, struct hvpmu_mips_cm_model_stats *st)
{
	struct cm_test *t = test->priv;

	hvpmu_mips_cm_model_stats(t->m, st);
}

static u64 reads_of(struct kunit *test, unsigned int off)
{
	struct hvpmu_mips_cm_model_stats st;

	cm_stats(test, &st);
	return st.reads[hvpmu_mips_cm_model_reg_idx(off)];
}

static u64 writes_of(struct kunit *test, unsigned int off)
{
	struct hvpmu_mips_cm_model_stats st;

	cm_stats(test, &st);
	return st.writes[hvpmu_mips_cm_model_reg_idx(off)];
}

/* Wait until the interrupt handler has taken every pending overflow. */
static void wait_irq_done(struct kunit *test)
{
	struct cm_test *t = test->priv;
	int i;

	for (i = 0; i < 100000; i++) {
		if (!hvpmu_mips_cm_model_line(t->m))
			return;
		if (i > 100)
			usleep_range(10, 20);
		else
			cpu_relax();
	}
	KUNIT_FAIL(test, "overflow interrupt not handled");
}

/* Wait until the polling timer has read counter register @off twice. */
static void wait_poll(struct kunit *test, unsigned int off)
{
	u64 start = reads_of(test, off);
	int i;

	for (i = 0; i < 5000; i++) {
		if (reads_of(test, off) >= start + 2)
			return;
		usleep_range(100, 200);
	}
	KUNIT_FAIL(test, "polling timer did not run");
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

static void cm_hook(void *arg, unsigned int off, bool write)
{
	struct cm_test *t = arg;

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
	hvpmu_mips_cm_model_set_hook(t->m, cm_hook, t);
}

static const char *attr_show(struct kunit *test, const struct attribute_group *g,
			     const char *name)
{
	struct cm_test *t = test->priv;
	struct attribute **a;
	char *buf;

	buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (a = g->attrs; *a; a++) {
		struct device_attribute *da;

		if (strcmp((*a)->name, name))
			continue;
		da = container_of(*a, struct device_attribute, attr);
		da->show(t->pmu->dev, da, buf);
		return buf;
	}
	return "(missing)";
}

/* --- probe -------------------------------------------------------------- */

static void mips_cm_test_probe(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct hvpmu_mips_cm_platdata pd = { .ops = NULL };
	struct hvpmu_mips_cm_model_stats st;

	/* QEMU's CM: Perf_Num_Cnt reads 0, so no PMU and nothing written */
	cm_model(test, 0);
	KUNIT_EXPECT_EQ(test, cm_probe(test, 0, 0), -ENODEV);
	cm_stats(test, &st);
	KUNIT_EXPECT_EQ(test, st.reads[0], 1ULL);
	KUNIT_EXPECT_EQ(test, st.writes[0], 0ULL);
	hvpmu_mips_cm_model_destroy(t->m);
	t->m = NULL;

	/* a block that does not answer reads all ones */
	cm_model(test, 2);
	hvpmu_mips_cm_model_fault(t->m, HVPMU_MIPS_CM_FAULT_DEAD, true);
	KUNIT_EXPECT_EQ(test, cm_probe(test, 0, 0), -ENODEV);
	hvpmu_mips_cm_model_destroy(t->m);
	t->m = NULL;

	/* bad platform data */
	KUNIT_EXPECT_EQ(test, PTR_ERR(hvpmu_mips_cm_probe(&pd, TEST_PMU)),
			-EINVAL);

	/* stale status, counting and Perf_Ovf_Stop are cleared at probe */
	cm_model(test, 2);
	hvpmu_mips_cm_model_fault(t->m, HVPMU_MIPS_CM_FAULT_OVF_STOP, true);
	hvpmu_mips_cm_model_poke(t->m, MIPS_CM_PC_OV, 0x7);
	KUNIT_ASSERT_EQ(test, cm_probe(test, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, hvpmu_mips_cm_model_peek(t->m, MIPS_CM_PC_CTL), 2U);
	KUNIT_EXPECT_EQ(test, hvpmu_mips_cm_model_peek(t->m, MIPS_CM_PC_OV), 0U);
	KUNIT_EXPECT_TRUE(test, hvpmu_mips_cm_polling(t->cm));
}

/* Perf_Num_Cnt other than 2: one counter is used alone, more are capped. */
static void mips_cm_test_num_cnt(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct perf_event *a, *b;

	cm_model(test, 1);
	KUNIT_ASSERT_EQ(test, cm_probe(test, 0, 0), 0);
	a = cm_open(test, EV_REQ, QUAL_A);
	b = cm_open(test, EV_REQ, QUAL_A);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	/* one counter: the two events take turns, never two at once */
	hvpmu_mips_cm_model_inject(t->m, EV_REQ, QUAL_A, 10);
	KUNIT_EXPECT_EQ(test, cm_value(a) + cm_value(b), 10ULL);
	KUNIT_EXPECT_EQ(test, hvpmu_mips_cm_model_peek(t->m, MIPS_CM_PC_CTL) &
			MIPS_CM_PC_CTL_COUNTON(2), 0U);
	cm_close(test, a);
	cm_close(test, b);
	cm_remove(t);
	hvpmu_mips_cm_model_destroy(t->m);
	t->m = NULL;

	cm_model(test, 15);
	KUNIT_ASSERT_EQ(test, cm_probe(test, 0, 0), 0);
	a = cm_open(test, EV_REQ, QUAL_A);
	b = cm_open(test, EV_IOCU1, QUAL_B);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	hvpmu_mips_cm_model_inject(t->m, EV_REQ, QUAL_A, 7);
	hvpmu_mips_cm_model_inject(t->m, EV_IOCU1, QUAL_B, 9);
	KUNIT_EXPECT_EQ(test, cm_value(a), 7ULL);
	KUNIT_EXPECT_EQ(test, cm_value(b), 9ULL);
}

/* --- sysfs -------------------------------------------------------------- */

static void mips_cm_test_sysfs(struct kunit *test)
{
	static const char *const events[][2] = {
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
	struct cm_test *t = test->priv;
	const struct attribute_group **g;
	unsigned int i, n = 0;
	char want[16];

	cm_setup(test, false, 0);
	g = t->pmu->attr_groups;
	KUNIT_ASSERT_STREQ(test, g[0]->name, "format");
	KUNIT_EXPECT_STREQ(test, attr_show(test, g[0], "event"), "config:0-7\n");
	KUNIT_EXPECT_STREQ(test, attr_show(test, g[0], "cycle_counter"),
			   "config:8\n");
	KUNIT_EXPECT_STREQ(test, attr_show(test, g[0], "qualifier"),
			   "config1:0-31\n");
	KUNIT_ASSERT_STREQ(test, g[1]->name, "events");
	for (i = 0; i < ARRAY_SIZE(events); i++)
		KUNIT_EXPECT_STREQ(test, attr_show(test, g[1], events[i][0]),
				   events[i][1]);
	while (g[1]->attrs[n])
		n++;
	KUNIT_EXPECT_EQ(test, n, (unsigned int)ARRAY_SIZE(events));
	snprintf(want, sizeof(want), "%u\n", cpumask_first(cpu_online_mask));
	KUNIT_EXPECT_STREQ(test, attr_show(test, g[2], "cpumask"), want);
	KUNIT_EXPECT_NULL(test, g[3]);
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

static int fake_init(struct kunit *test, struct perf_event *leader,
		     u64 config, u64 config1)
{
	struct cm_test *t = test->priv;
	struct perf_event *ev = fake_event(test, t->pmu, config, config1);

	if (leader)
		ev->group_leader = leader;
	return t->pmu->event_init(ev);
}

static void mips_cm_test_event_init(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct perf_event *ev, *leader, *sw;
	static struct pmu other_pmu;

	cm_setup(test, false, 0);

	/* plain events, raw events and the cycle counter */
	KUNIT_EXPECT_EQ(test, fake_init(test, NULL, EV_REQ, QUAL_A), 0);
	KUNIT_EXPECT_EQ(test, fake_init(test, NULL, 0xff, U32_MAX), 0);
	KUNIT_EXPECT_EQ(test, fake_init(test, NULL, CYCLES, 0), 0);
	/* the cycle counter has no event select and no qualifier */
	KUNIT_EXPECT_EQ(test, fake_init(test, NULL, CYCLES | 1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, fake_init(test, NULL, CYCLES, 1), -EINVAL);
	/* undeclared bits */
	KUNIT_EXPECT_EQ(test, fake_init(test, NULL, BIT_ULL(9), 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, fake_init(test, NULL, 0, BIT_ULL(32)), -EINVAL);
	ev = fake_event(test, t->pmu, 0, 0);
	ev->attr.config2 = 1;
	KUNIT_EXPECT_EQ(test, t->pmu->event_init(ev), -EINVAL);
	/* not ours, sampling, per-task */
	ev = fake_event(test, t->pmu, 0, 0);
	ev->attr.type = PERF_TYPE_RAW;
	KUNIT_EXPECT_EQ(test, t->pmu->event_init(ev), -ENOENT);
	ev = fake_event(test, t->pmu, 0, 0);
	ev->attr.sample_period = 1000;
	KUNIT_EXPECT_EQ(test, t->pmu->event_init(ev), -EOPNOTSUPP);
	ev = fake_event(test, t->pmu, 0, 0);
	ev->cpu = -1;
	KUNIT_EXPECT_EQ(test, t->pmu->event_init(ev), -EINVAL);

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

/* 100k random attributes at event_init level, against the rules. */
static void mips_cm_test_random_attrs(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct perf_event *ev;
	unsigned int i, bad = 0, accepted = 0;

	cm_setup(test, false, 0);
	ev = kunit_kzalloc(test, sizeof(*ev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	for (i = 0; i < 100000; i++) {
		u32 r = rnd();
		u64 config = r & 1 ? rnd64() : rnd64() & (r & 2 ? 0x100 : 0x1ff);
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
		else
			want = 0;

		memset(ev, 0, sizeof(*ev));
		ev->pmu = t->pmu;
		ev->attr.type = t->pmu->type;
		ev->attr.config = config;
		ev->attr.config1 = config1;
		ev->attr.config2 = config2;
		ev->attr.sample_period = period;
		ev->group_leader = ev;
		INIT_LIST_HEAD(&ev->sibling_list);
		got = t->pmu->event_init(ev);
		if (got != want && !bad++)
			KUNIT_FAIL(test,
				   "config %llx/%llx/%llx period %llu: got %d want %d",
				   config, config1, config2, period, got, want);
		if (!got) {
			accepted++;
			if (ev->cpu != (int)cpumask_first(cpu_online_mask))
				bad++;
		}
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
		u64 config = r & 1 ? rnd64() & 0x3ff : rnd() & 0xff;
		u64 config1 = r & 2 ? rnd64() : rnd();
		bool ok = !(config & ~0x1ffULL) && !(config1 >> 32) &&
			  !((config & CYCLES) && ((config & 0xff) || config1));
		struct perf_event *ev = cm_open(test, config, config1);

		if (IS_ERR(ev) == ok || (!ok && PTR_ERR(ev) != -EINVAL))
			bad++;
		if (!IS_ERR(ev)) {
			if (!(config & CYCLES))
				hvpmu_mips_cm_model_inject(t->m, config & 0xff,
							   config1, i);
			else
				hvpmu_mips_cm_model_cycles(t->m, i);
			if (cm_value(ev) != i)
				bad++;
			cm_close(test, ev);
		}
	}
	KUNIT_EXPECT_EQ(test, bad, 0U);
	/* every counter is stopped again */
	KUNIT_EXPECT_EQ(test, hvpmu_mips_cm_model_peek(t->m, MIPS_CM_PC_CTL),
			2U);
}

/* --- counting ----------------------------------------------------------- */

struct three {
	struct perf_event *cyc, *a, *b;
	u64 want_cyc, want_a, want_b;
};

static void open_three(struct kunit *test, struct three *e)
{
	memset(e, 0, sizeof(*e));
	e->cyc = cm_open(test, CYCLES, 0);
	e->a = cm_open(test, EV_REQ, QUAL_A);
	e->b = cm_open(test, EV_IOCU1, QUAL_B);
	KUNIT_ASSERT_FALSE(test, IS_ERR(e->cyc));
	KUNIT_ASSERT_FALSE(test, IS_ERR(e->a));
	KUNIT_ASSERT_FALSE(test, IS_ERR(e->b));
}

static void inject_three(struct kunit *test, struct three *e, u64 c, u64 a,
			 u64 b)
{
	struct cm_test *t = test->priv;

	hvpmu_mips_cm_model_cycles(t->m, c);
	hvpmu_mips_cm_model_inject(t->m, EV_REQ, QUAL_A, a);
	hvpmu_mips_cm_model_inject(t->m, EV_IOCU1, QUAL_B, b);
	/* traffic that no counter selects */
	hvpmu_mips_cm_model_inject(t->m, EV_REQ, QUAL_B, 12345);
	e->want_cyc += c;
	e->want_a += a;
	e->want_b += b;
}

static void check_three(struct kunit *test, struct three *e)
{
	KUNIT_EXPECT_EQ(test, cm_value(e->cyc), e->want_cyc);
	KUNIT_EXPECT_EQ(test, cm_value(e->a), e->want_a);
	KUNIT_EXPECT_EQ(test, cm_value(e->b), e->want_b);
}

/* Chunks just under a period: about one wrap of each counter per chunk. */
static u64 chunk(void)
{
	return PERIOD - 1 - (rnd() & 0x0fffffff);
}

static void mips_cm_test_wraps_irq(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct hvpmu_mips_cm_model_stats st0, st;
	struct three e;
	unsigned int i;

	cm_setup(test, true, 0);
	KUNIT_ASSERT_FALSE(test, hvpmu_mips_cm_polling(t->cm));
	open_three(test, &e);
	KUNIT_EXPECT_EQ(test, hvpmu_mips_cm_model_peek(t->m, MIPS_CM_PC_QUAL(0)),
			QUAL_A);
	KUNIT_EXPECT_EQ(test, hvpmu_mips_cm_model_peek(t->m, MIPS_CM_PC_QUAL(1)),
			QUAL_B);
	KUNIT_EXPECT_EQ(test, hvpmu_mips_cm_model_peek(t->m, MIPS_CM_PC_EVENT),
			(u32)EV_IOCU1 << 8 | EV_REQ);
	KUNIT_EXPECT_EQ(test, hvpmu_mips_cm_model_peek(t->m, MIPS_CM_PC_CTL),
			MIPS_CM_PC_CTL_INT_EN | MIPS_CM_PC_CTL_COUNTON(0) |
			MIPS_CM_PC_CTL_COUNTON(1) | MIPS_CM_PC_CTL_COUNTON(2) | 2);

	/* (opening an event restarts the ones already running) */
	cm_stats(test, &st0);
	for (i = 0; i < WRAPS + 100; i++) {
		inject_three(test, &e, chunk(), chunk(), chunk());
		wait_irq_done(test);
		if (i % 97 == 0)
			check_three(test, &e);
	}
	check_three(test, &e);
	KUNIT_EXPECT_GE(test, e.want_cyc, WRAPS * PERIOD);
	KUNIT_EXPECT_GE(test, e.want_a, WRAPS * PERIOD);
	KUNIT_EXPECT_GE(test, e.want_b, WRAPS * PERIOD);

	cm_stats(test, &st);
	/* every wrap raised the line; no counter was reset after its start */
	KUNIT_EXPECT_GE(test, st.irqs - st0.irqs, 3ULL * WRAPS);
	KUNIT_EXPECT_EQ(test, st.resets[0], st0.resets[0]);
	KUNIT_EXPECT_EQ(test, st.resets[1], st0.resets[1]);
	KUNIT_EXPECT_EQ(test, st.resets[2], st0.resets[2]);
	kunit_info(test, "%llu interrupts, %llu status reads, %llu status writes\n",
		   st.irqs, st.reads[hvpmu_mips_cm_model_reg_idx(MIPS_CM_PC_OV)],
		   st.writes[hvpmu_mips_cm_model_reg_idx(MIPS_CM_PC_OV)]);
}

static void mips_cm_test_wraps_poll(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct hvpmu_mips_cm_model_stats st;
	struct three e;
	unsigned int i;

	cm_setup(test, false, 1);
	KUNIT_ASSERT_TRUE(test, hvpmu_mips_cm_polling(t->cm));
	open_three(test, &e);
	KUNIT_EXPECT_EQ(test, hvpmu_mips_cm_model_peek(t->m, MIPS_CM_PC_CTL) &
			MIPS_CM_PC_CTL_INT_EN, 0U);

	/* reads between polls would fold too: leave it to the timer */
	for (i = 0; i < WRAPS + 100; i++) {
		inject_three(test, &e, chunk(), chunk(), chunk());
		wait_poll(test, MIPS_CM_PC_CNT(1));
	}
	check_three(test, &e);
	KUNIT_EXPECT_GE(test, e.want_a, WRAPS * PERIOD);
	cm_stats(test, &st);
	KUNIT_EXPECT_EQ(test, st.irqs, 0ULL);

	/* the timer runs only while events are active */
	cm_close(test, e.cyc);
	cm_close(test, e.a);
	cm_close(test, e.b);
	usleep_range(5000, 6000);
	i = reads_of(test, MIPS_CM_PC_CTL);
	msleep(20);
	KUNIT_EXPECT_EQ(test, reads_of(test, MIPS_CM_PC_CTL), (u64)i);
}

/* Counter 0 overflows (twice, with the interrupt) while counter 1 runs. */
static void mips_cm_test_overflow_other_runs(struct kunit *test)
{
	struct hvpmu_mips_cm_model_stats st0, st;
	struct three e;

	cm_setup(test, true, 0);
	open_three(test, &e);
	cm_stats(test, &st0);
	inject_three(test, &e, 100, PERIOD - 5, 1000);
	wait_irq_done(test);
	check_three(test, &e);
	inject_three(test, &e, 100, 10, 1000);	/* wraps 0 */
	wait_irq_done(test);
	inject_three(test, &e, 100, PERIOD, 1000);	/* and again */
	wait_irq_done(test);
	check_three(test, &e);
	inject_three(test, &e, 0, 0, PERIOD + 3);	/* now counter 1 */
	wait_irq_done(test);
	check_three(test, &e);
	cm_stats(test, &st);
	KUNIT_EXPECT_EQ(test, st.resets[1], st0.resets[1]);
	KUNIT_EXPECT_EQ(test, st.resets[2], st0.resets[2]);
}

static void hook_wrap_b(struct cm_test *t)
{
	/* counter 1 wraps while the handler works on counter 0 */
	hvpmu_mips_cm_model_inject(t->m, EV_IOCU1, QUAL_B, 20);
}

static void hook_wrap_a(struct cm_test *t)
{
	hvpmu_mips_cm_model_inject(t->m, EV_REQ, QUAL_A, 30);
}

/*
 * An overflow that arrives between the status read and its clear is not
 * lost, nor counted twice.
 */
static void mips_cm_test_overflow_race(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct three e;

	cm_setup(test, true, 0);
	open_three(test, &e);
	inject_three(test, &e, 0, PERIOD - 10, PERIOD - 10);
	wait_irq_done(test);
	check_three(test, &e);

	/* counter 1 wraps just before the handler clears counter 0 */
	cm_arm_hook(t, MIPS_CM_PC_OV, true, 1, hook_wrap_b);
	inject_three(test, &e, 0, 20, 0);
	e.want_b += 20;
	wait_irq_done(test);
	KUNIT_EXPECT_EQ(test, t->hook_ran, 1);
	check_three(test, &e);

	/*
	 * Counter 0 wraps after a read has sampled the status (clear) and
	 * before it reads the value: counted once, from the value.
	 */
	inject_three(test, &e, 0, PERIOD - 10 - 10, 0);
	wait_irq_done(test);
	check_three(test, &e);
	cm_arm_hook(t, MIPS_CM_PC_CNT(0), false, 1, hook_wrap_a);
	KUNIT_EXPECT_EQ(test, cm_value(e.a), e.want_a + 30);
	e.want_a += 30;
	KUNIT_EXPECT_EQ(test, t->hook_ran, 1);
	wait_irq_done(test);
	check_three(test, &e);
	hvpmu_mips_cm_model_set_hook(t->m, NULL, NULL);
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
		hvpmu_mips_cm_model_inject(t->m, EV_REQ, QUAL_A, 1000);
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

static void cm_move_designated(struct kunit *test, bool irq)
{
	struct cm_test *t = test->priv;
	const struct attribute_group **g;
	unsigned int first, moved, i;
	struct three e;
	char want[16];
	int ret;

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU) || num_online_cpus() < 2)
		kunit_skip(test, "needs CPU hotplug and 2 CPUs");
	cm_setup(test, irq, 1);
	g = t->pmu->attr_groups;
	/*
	 * x86 QEMU CPUs (vendor AMD) cannot take CPU 0 offline: start from
	 * the last CPU instead, before any event exists.
	 */
	hvpmu_uncore_from_pmu(t->pmu)->cpu = cpumask_last(cpu_online_mask);
	open_three(test, &e);
	first = e.a->cpu;
	for (i = 0; i < 20; i++) {
		inject_three(test, &e, chunk(), chunk(), chunk());
		if (irq)
			wait_irq_done(test);
		else
			wait_poll(test, MIPS_CM_PC_CNT(0));
	}
	inject_three(test, &e, 1, 2, 3);

	ret = remove_cpu(first);
	if (ret)
		kunit_skip(test, "CPU %u cannot go offline (%d)", first, ret);
	moved = e.a->cpu;
	KUNIT_EXPECT_NE(test, moved, first);
	KUNIT_EXPECT_EQ(test, e.cyc->cpu, (int)moved);
	snprintf(want, sizeof(want), "%u\n", moved);
	KUNIT_EXPECT_STREQ(test, attr_show(test, g[2], "cpumask"), want);
	check_three(test, &e);

	/* counting, wrapping and extending go on from the new CPU */
	for (i = 0; i < 20; i++) {
		inject_three(test, &e, chunk(), chunk(), chunk());
		if (irq)
			wait_irq_done(test);
		else
			wait_poll(test, MIPS_CM_PC_CNT(0));
	}
	KUNIT_EXPECT_EQ(test, add_cpu(first), 0);
	check_three(test, &e);
}

static void mips_cm_test_hotplug_poll(struct kunit *test)
{
	cm_move_designated(test, false);
}

static void mips_cm_test_hotplug_irq(struct kunit *test)
{
	cm_move_designated(test, true);
}

/* --- faults ------------------------------------------------------------- */

/* No interrupt described by the platform: the driver polls. */
static void mips_cm_test_no_irq(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct three e;

	cm_model(test, 2);
	KUNIT_ASSERT_EQ(test, cm_probe(test, -ENXIO, 1), 0);
	KUNIT_EXPECT_TRUE(test, hvpmu_mips_cm_polling(t->cm));
	open_three(test, &e);
	inject_three(test, &e, chunk(), chunk(), chunk());
	wait_poll(test, MIPS_CM_PC_CNT(0));
	inject_three(test, &e, chunk(), chunk(), chunk());
	check_three(test, &e);
}

static irqreturn_t squat_handler(int irq, void *data)
{
	return IRQ_NONE;
}

static void mips_cm_test_fault_request_irq(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct three e;

	KUNIT_ASSERT_EQ(test, request_irq(sim_irq, squat_handler, 0,
					  "squatter", test), 0);
	cm_model(test, 2);
	KUNIT_EXPECT_EQ(test, cm_probe(test, sim_irq, 1), 0);
	free_irq(sim_irq, test);
	KUNIT_ASSERT_NOT_NULL(test, t->cm);
	KUNIT_EXPECT_TRUE(test, hvpmu_mips_cm_polling(t->cm));
	open_three(test, &e);
	inject_three(test, &e, chunk(), chunk(), chunk());
	wait_poll(test, MIPS_CM_PC_CNT(0));
	inject_three(test, &e, chunk(), chunk(), chunk());
	check_three(test, &e);
}

static void mips_cm_test_fault_spurious_irq(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct three e;
	u64 ov_reads, ov_writes;

	cm_setup(test, true, 0);
	open_three(test, &e);
	inject_three(test, &e, 5, 6, 7);
	ov_reads = reads_of(test, MIPS_CM_PC_OV);
	ov_writes = writes_of(test, MIPS_CM_PC_OV);
	hvpmu_mips_cm_model_fault(t->m, HVPMU_MIPS_CM_FAULT_SPURIOUS_IRQ, true);
	usleep_range(2000, 3000);
	/* the handler looked at the status, found nothing and left */
	KUNIT_EXPECT_EQ(test, reads_of(test, MIPS_CM_PC_OV), ov_reads + 1);
	KUNIT_EXPECT_EQ(test, writes_of(test, MIPS_CM_PC_OV), ov_writes);
	check_three(test, &e);
}

static void mips_cm_test_fault_ov_stuck(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct three e;
	unsigned int i;

	cm_setup(test, true, 1);
	open_three(test, &e);
	inject_three(test, &e, 10, PERIOD - 10, 10);
	wait_irq_done(test);
	check_three(test, &e);

	/* the next wrap's status cannot be cleared: storm, then polling */
	hvpmu_mips_cm_model_fault(t->m, HVPMU_MIPS_CM_FAULT_OV_STUCK, true);
	inject_three(test, &e, 0, 20, 0);
	wait_irq_done(test);
	KUNIT_EXPECT_TRUE(test, hvpmu_mips_cm_polling(t->cm));
	KUNIT_EXPECT_EQ(test, hvpmu_mips_cm_model_peek(t->m, MIPS_CM_PC_CTL) &
			MIPS_CM_PC_CTL_INT_EN, 0U);
	check_three(test, &e);
	/* the stuck status is ignored from now on: no invented wraps */
	for (i = 0; i < 20; i++) {
		inject_three(test, &e, chunk(), chunk(), chunk());
		wait_poll(test, MIPS_CM_PC_CNT(1));
	}
	check_three(test, &e);
	hvpmu_mips_cm_model_fault(t->m, HVPMU_MIPS_CM_FAULT_OV_STUCK, false);
}

static void mips_cm_test_fault_state_loss(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct hvpmu_mips_cm_model_stats st0, st;
	struct three e;

	cm_setup(test, true, 0);
	open_three(test, &e);
	inject_three(test, &e, 1000, PERIOD - 1000, 3000);
	wait_irq_done(test);
	check_three(test, &e);
	/* traffic before the loss but after the last read is gone */
	cm_stats(test, &st0);
	hvpmu_mips_cm_model_cycles(t->m, 77);
	hvpmu_mips_cm_model_fault(t->m, HVPMU_MIPS_CM_FAULT_STATE_LOSS, true);
	check_three(test, &e);		/* nothing invented from the reset */
	KUNIT_EXPECT_EQ(test, hvpmu_mips_cm_model_peek(t->m, MIPS_CM_PC_QUAL(0)),
			QUAL_A);
	KUNIT_EXPECT_EQ(test, hvpmu_mips_cm_model_peek(t->m, MIPS_CM_PC_EVENT),
			(u32)EV_IOCU1 << 8 | EV_REQ);
	cm_stats(test, &st);
	KUNIT_EXPECT_EQ(test, st.resets[1], st0.resets[1] + 1);
	inject_three(test, &e, 1, PERIOD + 2, 3);
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
	hvpmu_mips_cm_model_fault(t->m, HVPMU_MIPS_CM_FAULT_DEAD, true);
	inject_three(test, &e, 10, 20, 30);
	e.want_cyc -= 10;
	e.want_a -= 20;
	e.want_b -= 30;
	wait_poll(test, MIPS_CM_PC_CTL);
	check_three(test, &e);
	/* back: counting resumes from where the block is */
	hvpmu_mips_cm_model_fault(t->m, HVPMU_MIPS_CM_FAULT_DEAD, false);
	wait_poll(test, MIPS_CM_PC_CNT(0));
	inject_three(test, &e, 1, 2, 3);
	check_three(test, &e);
}

static void mips_cm_test_fault_ovf_stop(struct kunit *test)
{
	struct cm_test *t = test->priv;
	struct hvpmu_mips_cm_model_stats st;
	struct three e;

	cm_setup(test, false, 2000);
	open_three(test, &e);
	inject_three(test, &e, 10, 20, 30);
	/* someone sets Perf_Ovf_Stop: the driver clears it at its next look */
	hvpmu_mips_cm_model_fault(t->m, HVPMU_MIPS_CM_FAULT_OVF_STOP, true);
	check_three(test, &e);
	KUNIT_EXPECT_EQ(test, hvpmu_mips_cm_model_peek(t->m, MIPS_CM_PC_CTL) &
			MIPS_CM_PC_CTL_OVF_STOP, 0U);

	/* if a wrap stops everything first, lost counts are not invented */
	hvpmu_mips_cm_model_fault(t->m, HVPMU_MIPS_CM_FAULT_OVF_STOP, true);
	inject_three(test, &e, 0, PERIOD, 0);	/* stops at the wrap */
	inject_three(test, &e, 0, 0, 5);
	e.want_a -= 20;				/* 20 short of the wrap */
	e.want_b -= 5;
	check_three(test, &e);
	cm_stats(test, &st);
	KUNIT_EXPECT_EQ(test, st.dropped, 20ULL + 5);
	KUNIT_EXPECT_EQ(test, hvpmu_mips_cm_model_peek(t->m, MIPS_CM_PC_CTL) &
			MIPS_CM_PC_CTL_OVF_STOP, 0U);
	inject_three(test, &e, 1, 2, 3);
	check_three(test, &e);
}

static int mips_cm_test_init(struct kunit *test)
{
	test->priv = kunit_kzalloc(test, sizeof(struct cm_test), GFP_KERNEL);
	return test->priv ? 0 : -ENOMEM;
}

static void mips_cm_test_exit(struct kunit *test)
{
	struct cm_test *t = test->priv;

	while (t->nr_ev)
		perf_event_release_kernel(t->ev[--t->nr_ev]);
	if (t->cm)
		cm_remove(t);
	if (t->m)
		hvpmu_mips_cm_model_destroy(t->m);
}

static int mips_cm_suite_init(struct kunit_suite *suite)
{
	sim_fwnode = irq_domain_alloc_named_fwnode("hvpmu_mips_cm_test");
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
	KUNIT_CASE(mips_cm_test_probe),
	KUNIT_CASE(mips_cm_test_num_cnt),
	KUNIT_CASE(mips_cm_test_sysfs),
	KUNIT_CASE(mips_cm_test_event_init),
	KUNIT_CASE(mips_cm_test_random_attrs),
	KUNIT_CASE(mips_cm_test_random_open),
	KUNIT_CASE(mips_cm_test_wraps_irq),
	KUNIT_CASE(mips_cm_test_wraps_poll),
	KUNIT_CASE(mips_cm_test_overflow_other_runs),
	KUNIT_CASE(mips_cm_test_overflow_race),
	KUNIT_CASE(mips_cm_test_multiplex),
	KUNIT_CASE(mips_cm_test_hotplug_poll),
	KUNIT_CASE(mips_cm_test_hotplug_irq),
	KUNIT_CASE(mips_cm_test_no_irq),
	KUNIT_CASE(mips_cm_test_fault_request_irq),
	KUNIT_CASE(mips_cm_test_fault_spurious_irq),
	KUNIT_CASE(mips_cm_test_fault_ov_stuck),
	KUNIT_CASE(mips_cm_test_fault_state_loss),
	KUNIT_CASE(mips_cm_test_fault_dead),
	KUNIT_CASE(mips_cm_test_fault_ovf_stop),
	{}
};

static struct kunit_suite mips_cm_suite = {
	.name = "hvpmu_mips_cm",
	.init = mips_cm_test_init,
	.exit = mips_cm_test_exit,
	.suite_init = mips_cm_suite_init,
	.suite_exit = mips_cm_suite_exit,
	.test_cases = mips_cm_cases,
};

kunit_test_suite(mips_cm_suite);

MODULE_DESCRIPTION("KUnit tests of the mips_cm PMU");
MODULE_LICENSE("GPL");
