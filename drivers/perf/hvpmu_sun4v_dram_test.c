// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of niagara2_dram and vfalls_dram on the sun4v perfreg model,
 * inside the real perf core.
 */

#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/mutex.h>
#include <linux/perf/hvpmu.h>
#include <linux/perf/hvpmu_sun4v_model.h>
#include <linux/perf_event.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/smp.h>

#define GET	HVPMU_SUN4V_MODEL_GET
#define SET	HVPMU_SUN4V_MODEL_SET

struct dram_ctx {
	struct hvpmu_sun4v_model m;
	struct hvpmu_sun4v_dram *d;
	struct pmu *pmu;
	enum hvpmu_sun4v_chip chip;
};

static u32 all_present(enum hvpmu_sun4v_chip chip)
{
	return chip == HVPMU_SUN4V_VF ? 0xff : 0xf;
}

static unsigned int nr_chans(enum hvpmu_sun4v_chip chip)
{
	return chip == HVPMU_SUN4V_VF ? 8 : 4;
}

static void dram_up(struct kunit *test, struct dram_ctx *c,
		    enum hvpmu_sun4v_chip chip, u32 present)
{
	struct hvpmu_sun4v_desc desc = {
		.chip = chip, .ops = &hvpmu_sun4v_model_ops, .ctx = &c->m,
	};

	c->chip = chip;
	hvpmu_sun4v_model_init(&c->m, chip, present);
	c->d = hvpmu_sun4v_dram_probe(&desc);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c->d));
	c->pmu = hvpmu_sun4v_dram_pmu(c->d);
}

static struct dram_ctx *dram_new(struct kunit *test, enum hvpmu_sun4v_chip chip,
				 u32 present)
{
	struct dram_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	dram_up(test, c, chip, present);
	return c;
}

static void dram_down(struct dram_ctx *c)
{
	hvpmu_sun4v_dram_remove(c->d);
	c->d = NULL;
}

static u64 dram_config(enum hvpmu_sun4v_chip chip, unsigned int chan,
		       unsigned int event)
{
	if (chip == HVPMU_SUN4V_VF)
		return event | (u64)(chan / 2) << 8 | (u64)(chan % 2) << 10;
	return event | (u64)chan << 8;
}

static struct perf_event *dram_open(struct kunit *test, struct dram_ctx *c,
				    u64 config, struct perf_event *leader)
{
	struct perf_event_attr attr = {
		.type = c->pmu->type,
		.size = sizeof(attr),
		.config = config,
	};
	struct perf_event *ev;

	ev = perf_event_create_kernel_counter(&attr, 0, NULL, NULL, NULL);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(ev), "open config %#llx: %ld",
			       config, PTR_ERR(ev));
	return ev;
}

static int dram_open_err(struct dram_ctx *c, struct perf_event_attr *attr)
{
	struct perf_event *ev;

	attr->size = sizeof(*attr);
	ev = perf_event_create_kernel_counter(attr, 0, NULL, NULL, NULL);
	if (IS_ERR(ev))
		return PTR_ERR(ev);
	perf_event_release_kernel(ev);
	return 0;
}

static u64 dram_value(struct perf_event *ev)
{
	u64 enabled, running;

	return perf_event_read_value(ev, &enabled, &running);
}

/* Read a sysfs attribute of the PMU device from one of its groups. */
static void dram_sysfs(struct kunit *test, struct dram_ctx *c,
		       const char *group, const char *name, const char *want)
{
	const struct attribute_group **g;
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (g = c->pmu->attr_groups; *g; g++) {
		struct attribute **a;

		if ((group && (!(*g)->name || strcmp((*g)->name, group))) ||
		    (!group && (*g)->name))
			continue;
		for (a = (*g)->attrs; *a; a++) {
			struct device_attribute *da;

			if (strcmp((*a)->name, name))
				continue;
			da = container_of(*a, struct device_attribute, attr);
			KUNIT_ASSERT_GT(test, da->show(c->pmu->dev, da, buf), 0);
			KUNIT_EXPECT_STREQ(test, buf, want);
			return;
		}
	}
	KUNIT_FAIL(test, "no sysfs file %s/%s", group ?: "", name);
}

static void dram_test_sysfs(struct kunit *test)
{
	struct dram_ctx *c = dram_new(test, HVPMU_SUN4V_N2, 0xb);

	dram_sysfs(test, c, "format", "event", "config:0-3\n");
	dram_sysfs(test, c, "format", "channel", "config:8-9\n");
	dram_sysfs(test, c, "events", "mem_reads", "event=0x0,channel=?\n");
	dram_sysfs(test, c, "events", "wb_buf_hits", "event=0x7,channel=?\n");
	dram_sysfs(test, c, NULL, "channels", "channel=0\nchannel=1\nchannel=3\n");
	dram_sysfs(test, c, NULL, "poll_period_ms", "100\n");
	KUNIT_EXPECT_STREQ(test, c->pmu->name, "niagara2_dram");
	dram_down(c);

	dram_up(test, c, HVPMU_SUN4V_VF, 0x0f);
	dram_sysfs(test, c, "format", "node", "config:8-9\n");
	dram_sysfs(test, c, "format", "mcu", "config:10\n");
	dram_sysfs(test, c, "events", "rw_queue_latency",
		   "event=0x6,node=?,mcu=?\n");
	dram_sysfs(test, c, NULL, "channels",
		   "node=0,mcu=0\nnode=0,mcu=1\nnode=1,mcu=0\nnode=1,mcu=1\n");
	KUNIT_EXPECT_STREQ(test, c->pmu->name, "vfalls_dram");
	dram_down(c);
}

static const unsigned int dram_events[] = { 0x0, 0x1, 0x2, 0x4, 0x5, 0x6, 0x7 };

/* Every event on every channel of both chips: exact counts. */
static void dram_test_every_event(struct kunit *test)
{
	enum hvpmu_sun4v_chip chip;
	struct dram_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	for (chip = HVPMU_SUN4V_N2; chip <= HVPMU_SUN4V_VF; chip++) {
		unsigned int ch, e, w;

		dram_up(test, c, chip, all_present(chip));
		for (ch = 0; ch < nr_chans(chip); ch++) {
			for (e = 0; e < ARRAY_SIZE(dram_events); e++) {
				unsigned int code = dram_events[e];
				struct perf_event *ev;
				u64 n = 1000003ULL * (ch + 1) + code;

				ev = dram_open(test, c, dram_config(chip, ch, code), NULL);
				hvpmu_sun4v_model_traffic(&c->m, ch, code, n);
				/* Other events and channels do not count. */
				hvpmu_sun4v_model_traffic(&c->m, ch, code ^ 1, 77);
				hvpmu_sun4v_model_traffic(&c->m, (ch + 1) % nr_chans(chip),
							  code, 55);
				KUNIT_EXPECT_EQ_MSG(test, dram_value(ev), n,
						    "chip %d chan %u event %u", chip, ch, code);
				/* ... and three wraps of the 31-bit counter. */
				for (w = 0; w < 3; w++) {
					hvpmu_sun4v_model_traffic(&c->m, ch, code, 0x7fff0000);
					dram_value(ev);
				}
				KUNIT_EXPECT_EQ_MSG(test, dram_value(ev), n + 3 * 0x7fff0000ULL,
						    "chip %d chan %u event %u", chip, ch, code);
				perf_event_release_kernel(ev);
			}
		}
		KUNIT_EXPECT_EQ(test, c->m.bad, 0UL);
		dram_down(c);
	}
}

/*
 * Both halves of one channel across more than 1000 wraps of the 31-bit
 * counters, read after each step: exact totals and one counter-register
 * read per read.
 */
static void dram_test_wraps(struct kunit *test)
{
	struct dram_ctx *c = dram_new(test, HVPMU_SUN4V_VF, 0xff);
	const unsigned int ch = 3, steps = 1001;
	const u64 step = 0x7fff0000ULL;
	struct perf_event *a, *b;
	unsigned long calls, polls;
	unsigned int i;
	ktime_t t0;

	/* Start both halves near the top so the first step wraps. */
	c->m.pic[ch] = 0x7ffffff0ULL << 32 | 0x7fffff00ULL;
	a = dram_open(test, c, dram_config(c->chip, ch, 0x0), NULL);
	b = dram_open(test, c, dram_config(c->chip, ch, 0x1), NULL);
	KUNIT_EXPECT_EQ(test, dram_value(a), 0ULL);
	KUNIT_EXPECT_EQ(test, dram_value(b), 0ULL);
	hvpmu_sun4v_model_reset_calls(&c->m);
	t0 = ktime_get();
	for (i = 0; i < steps; i++) {
		hvpmu_sun4v_model_traffic(&c->m, ch, 0x0, step);
		hvpmu_sun4v_model_traffic(&c->m, ch, 0x1, step + 1);
		dram_value(a);
	}
	/* One call per read, plus the polls (100 ms) that ran meanwhile. */
	polls = ktime_ms_delta(ktime_get(), t0) / 100 + 1;
	calls = hvpmu_sun4v_model_calls(&c->m, GET, hvpmu_sun4v_pic_reg(c->chip, ch));
	KUNIT_EXPECT_GE(test, calls, (unsigned long)steps);
	KUNIT_EXPECT_LE(test, calls, (unsigned long)steps + polls);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_model_calls(&c->m, GET, -1), calls);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_model_calls(&c->m, SET, -1), 0UL);
	/* b was folded by a's reads, so it is exact too. */
	KUNIT_EXPECT_EQ(test, dram_value(a), steps * step);
	KUNIT_EXPECT_EQ(test, dram_value(b), steps * (step + 1));
	KUNIT_EXPECT_GE(test, steps * step >> 31, 1000ULL);
	perf_event_release_kernel(a);
	perf_event_release_kernel(b);
	dram_down(c);
}

struct dram_txn {
	struct pmu *pmu;
	struct perf_event *ev[4];
};

/* perf's group read, as __perf_event_read() does it, on the event's CPU. */
static void dram_txn_read(void *info)
{
	struct dram_txn *t = info;
	int i;

	t->pmu->start_txn(t->pmu, PERF_PMU_TXN_READ);
	for (i = 0; i < ARRAY_SIZE(t->ev); i++)
		t->pmu->read(t->ev[i]);
	t->pmu->commit_txn(t->pmu);
}

/* A group read of four events on two channels costs two calls. */
static void dram_test_group_read(struct kunit *test)
{
	struct dram_ctx *c = dram_new(test, HVPMU_SUN4V_VF, 0xff);
	struct dram_txn t = { .pmu = c->pmu };
	int i;

	for (i = 0; i < 4; i++)
		t.ev[i] = dram_open(test, c, dram_config(c->chip, 6 + i / 2, i % 2), NULL);
	for (i = 0; i < 4; i++)
		hvpmu_sun4v_model_traffic(&c->m, 6 + i / 2, i % 2, 1000 + i);
	hvpmu_sun4v_model_reset_calls(&c->m);
	KUNIT_ASSERT_EQ(test, smp_call_function_single(t.ev[0]->cpu, dram_txn_read,
						       &t, 1), 0);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_model_calls(&c->m, GET, -1), 2UL);
	i = hvpmu_sun4v_pic_reg(c->chip, 6);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_model_calls(&c->m, GET, i), 1UL);
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, local64_read(&t.ev[i]->count), 1000ULL + i);
		perf_event_release_kernel(t.ev[i]);
	}
	dram_down(c);
}

/* The hrtimer alone keeps counts across wraps; no calls without events. */
static void dram_test_poll(struct kunit *test)
{
	struct dram_ctx *c = dram_new(test, HVPMU_SUN4V_N2, 0xf);
	struct perf_event *a, *b;
	unsigned long pic = hvpmu_sun4v_pic_reg(c->chip, 2);
	unsigned int i;
	const struct attribute_group **g;

	/* Set poll_period_ms to 5 through its sysfs store. */
	for (g = c->pmu->attr_groups; *g; g++) {
		struct attribute **at;

		for (at = (*g)->attrs; !(*g)->name && *at; at++) {
			struct device_attribute *da;

			if (strcmp((*at)->name, "poll_period_ms"))
				continue;
			da = container_of(*at, struct device_attribute, attr);
			KUNIT_EXPECT_EQ(test, da->store(c->pmu->dev, da, "0", 1),
					(ssize_t)-EINVAL);
			KUNIT_EXPECT_EQ(test, da->store(c->pmu->dev, da, "1001", 4),
					(ssize_t)-EINVAL);
			KUNIT_EXPECT_EQ(test, da->store(c->pmu->dev, da, "5", 1),
					(ssize_t)1);
		}
	}
	hvpmu_sun4v_model_reset_calls(&c->m);
	msleep(30);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_model_calls(&c->m, GET, -1), 0UL);

	a = dram_open(test, c, dram_config(c->chip, 2, 0x4), NULL);
	b = dram_open(test, c, dram_config(c->chip, 2, 0x7), NULL);
	hvpmu_sun4v_model_reset_calls(&c->m);
	for (i = 0; i < 6; i++) {
		hvpmu_sun4v_model_traffic(&c->m, 2, 0x4, 0x7ffffff0);
		hvpmu_sun4v_model_traffic(&c->m, 2, 0x7, 0x40000000);
		msleep(40);
	}
	/* Only polls ran: each read both halves with one call. */
	KUNIT_EXPECT_GE(test, hvpmu_sun4v_model_calls(&c->m, GET, pic), 6UL);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_model_calls(&c->m, GET, -1),
			hvpmu_sun4v_model_calls(&c->m, GET, pic));
	KUNIT_EXPECT_EQ(test, dram_value(a), 6 * 0x7ffffff0ULL);
	KUNIT_EXPECT_EQ(test, dram_value(b), 6 * 0x40000000ULL);
	perf_event_release_kernel(a);
	perf_event_release_kernel(b);

	hvpmu_sun4v_model_reset_calls(&c->m);
	msleep(30);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_model_calls(&c->m, GET, -1), 0UL);
	dram_down(c);
}

/* Write a file of the PMU's unnamed sysfs groups through its store(). */
static void dram_store(struct kunit *test, struct dram_ctx *c,
		       const char *name, const char *val)
{
	const struct attribute_group **g;

	for (g = c->pmu->attr_groups; *g; g++) {
		struct attribute **a;

		for (a = (*g)->attrs; !(*g)->name && *a; a++) {
			struct device_attribute *da;

			if (strcmp((*a)->name, name))
				continue;
			da = container_of(*a, struct device_attribute, attr);
			KUNIT_ASSERT_EQ(test, da->store(c->pmu->dev, da, val,
							strlen(val)),
					(ssize_t)strlen(val));
			return;
		}
	}
	KUNIT_FAIL(test, "no sysfs file %s", name);
}

/*
 * The designated CPU goes offline while counting: the events and the poll
 * timer move, counts stay exact across counter wraps after the move.
 */
static void dram_test_hotplug(struct kunit *test)
{
	struct dram_ctx *c;
	struct hvpmu_uncore *u;
	struct perf_event *ev;
	unsigned long pic;
	unsigned int first, moved, i;
	char want[16];
	int ret;

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU) || num_online_cpus() < 2)
		kunit_skip(test, "needs CPU hotplug and 2 CPUs");
	c = dram_new(test, HVPMU_SUN4V_VF, 0xff);
	pic = hvpmu_sun4v_pic_reg(c->chip, 3);
	dram_store(test, c, "poll_period_ms", "5");
	/* x86 cannot offline CPU 0: designate another CPU first. */
	u = hvpmu_uncore_from_pmu(c->pmu);
	first = cpumask_next(0, cpu_online_mask);
	u->cpu = first;
	ev = dram_open(test, c, dram_config(c->chip, 3, 0x1), NULL);
	KUNIT_EXPECT_EQ(test, ev->cpu, (int)first);
	hvpmu_sun4v_model_traffic(&c->m, 3, 0x1, 1000);
	KUNIT_EXPECT_EQ(test, dram_value(ev), 1000ULL);

	ret = remove_cpu(first);
	if (ret) {
		perf_event_release_kernel(ev);
		dram_down(c);
		kunit_skip(test, "CPU %u cannot go offline (%d)", first, ret);
	}
	moved = u->cpu;
	KUNIT_EXPECT_NE(test, moved, first);
	KUNIT_EXPECT_EQ(test, ev->cpu, (int)moved);
	snprintf(want, sizeof(want), "%u\n", moved);
	dram_sysfs(test, c, NULL, "cpumask", want);

	/* Only the poll timer reads while the 31-bit counter wraps 3 times. */
	hvpmu_sun4v_model_reset_calls(&c->m);
	for (i = 0; i < 6; i++) {
		hvpmu_sun4v_model_traffic(&c->m, 3, 0x1, 0x40000000);
		msleep(30);
	}
	KUNIT_EXPECT_GE(test, hvpmu_sun4v_model_calls(&c->m, GET, pic), 6UL);
	KUNIT_EXPECT_EQ(test, dram_value(ev), 1000ULL + 6 * 0x40000000ULL);

	KUNIT_EXPECT_EQ(test, add_cpu(first), 0);
	/* Bringing the CPU back does not move the events again. */
	KUNIT_EXPECT_EQ(test, u->cpu, moved);
	hvpmu_sun4v_model_traffic(&c->m, 3, 0x1, 5);
	KUNIT_EXPECT_EQ(test, dram_value(ev), 1005ULL + 6 * 0x40000000ULL);
	perf_event_release_kernel(ev);

	hvpmu_sun4v_model_reset_calls(&c->m);
	msleep(20);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_model_calls(&c->m, GET, -1), 0UL);
	KUNIT_EXPECT_EQ(test, c->m.bad, 0UL);
	dram_down(c);
}

/*
 * A group built by hand for event_init, as perf core hands one over: the
 * leader sits in a context, and perf_try_init_event() holds that context's
 * mutex while a sibling is initialised (the caller takes it, see
 * fake_init()). The kernel API makes no groups, hence the hand-built one.
 */
static struct perf_event *fake_event(struct kunit *test, struct pmu *pmu,
				     u64 config, struct perf_event *leader)
{
	struct perf_event *ev = kunit_kzalloc(test, sizeof(*ev), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ev);
	ev->pmu = pmu;
	ev->attr.type = pmu->type;
	ev->attr.config = config;
	ev->group_leader = leader ?: ev;
	INIT_LIST_HEAD(&ev->sibling_list);
	if (leader) {
		ev->ctx = leader->ctx;
	} else {
		ev->ctx = kunit_kzalloc(test, sizeof(*ev->ctx), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, ev->ctx);
		mutex_init(&ev->ctx->mutex);
	}
	return ev;
}

/* event_init of a hand-built event under its group's ctx->mutex. */
static int fake_init(struct perf_event *ev)
{
	int ret;

	mutex_lock(&ev->ctx->mutex);
	ret = ev->pmu->event_init(ev);
	mutex_unlock(&ev->ctx->mutex);
	return ret;
}

/* Two counters per channel: a third is multiplexed, a group of 3 refused. */
static void dram_test_scheduling(struct kunit *test)
{
	struct dram_ctx *c = dram_new(test, HVPMU_SUN4V_VF, 0x3);
	struct perf_event *ev[3], *lead, *s1, *e;
	struct perf_event_attr attr = {
		.type = c->pmu->type,
		.config = dram_config(c->chip, 1, 0x2),
	};
	u64 enabled, running;
	int i;

	for (i = 0; i < 3; i++)
		ev[i] = dram_open(test, c, dram_config(c->chip, 1, i), NULL);
	/* perf rotates every 4 ms: each event runs part of the time. */
	for (i = 0; i < 5; i++) {
		hvpmu_sun4v_model_traffic(&c->m, 1, 0, 10);
		hvpmu_sun4v_model_traffic(&c->m, 1, 1, 20);
		hvpmu_sun4v_model_traffic(&c->m, 1, 2, 30);
		msleep(20);
	}
	for (i = 0; i < 3; i++) {
		u64 v = perf_event_read_value(ev[i], &enabled, &running);

		KUNIT_EXPECT_GT(test, running, 0ULL);
		KUNIT_EXPECT_LT(test, running, enabled);
		/* Never more than what was injected while it ran. */
		KUNIT_EXPECT_LE(test, v, 10ULL * (i + 1) * 5);
	}
	KUNIT_EXPECT_EQ(test, c->m.bad, 0UL);
	for (i = 0; i < 3; i++)
		perf_event_release_kernel(ev[i]);

	/* Groups: the kernel API makes none, so build one for event_init. */
	lead = fake_event(test, c->pmu, dram_config(c->chip, 1, 0x0), NULL);
	s1 = fake_event(test, c->pmu, dram_config(c->chip, 1, 0x1), lead);
	KUNIT_EXPECT_EQ(test, fake_init(lead), 0);
	KUNIT_EXPECT_EQ(test, fake_init(s1), 0);
	list_add_tail(&s1->sibling_list, &lead->sibling_list);
	e = fake_event(test, c->pmu, attr.config, lead);
	KUNIT_EXPECT_EQ(test, fake_init(e), -EINVAL);
	e = fake_event(test, c->pmu, dram_config(c->chip, 0, 0x2), lead);
	KUNIT_EXPECT_EQ(test, fake_init(e), 0);
	KUNIT_EXPECT_EQ(test, c->m.bad, 0UL);
	dram_down(c);
}

/* N2 disabled channels (EOK/0) and VF absent nodes are not usable. */
static void dram_test_presence(struct kunit *test)
{
	struct dram_ctx *c = dram_new(test, HVPMU_SUN4V_N2, 0x5);
	struct perf_event_attr attr = { .type = c->pmu->type };

	attr.config = dram_config(c->chip, 1, 0);
	KUNIT_EXPECT_EQ(test, dram_open_err(c, &attr), -ENODEV);
	attr.config = dram_config(c->chip, 2, 0);
	KUNIT_EXPECT_EQ(test, dram_open_err(c, &attr), 0);
	/* Probe restored the control registers it tested. */
	KUNIT_EXPECT_EQ(test, c->m.ctl[0], 0ULL);
	dram_down(c);

	dram_down(c);
	dram_up(test, c, HVPMU_SUN4V_VF, 0x30);
	attr.type = c->pmu->type;
	attr.config = dram_config(c->chip, 4, 0);
	KUNIT_EXPECT_EQ(test, dram_open_err(c, &attr), 0);
	attr.config = dram_config(c->chip, 0, 0);
	KUNIT_EXPECT_EQ(test, dram_open_err(c, &attr), -ENODEV);
	dram_down(c);
}

static const unsigned long hv_errors[] = {
	HVPMU_SUN4V_EINVAL, HVPMU_SUN4V_EBADTRAP, HVPMU_SUN4V_EWOULDBLOCK,
	HVPMU_SUN4V_ENOACCESS, HVPMU_SUN4V_ENOTSUPPORTED, 99,
};

/*
 * Probe with each call failing in turn: either a clean error and nothing
 * registered (the next probe succeeds under the same name), or success.
 */
static void dram_test_probe_errors(struct kunit *test)
{
	struct dram_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct hvpmu_sun4v_desc desc = { .ops = &hvpmu_sun4v_model_ops };
	unsigned int e, skip, op;

	KUNIT_ASSERT_NOT_NULL(test, c);
	desc.ctx = &c->m;
	for (desc.chip = HVPMU_SUN4V_N2; desc.chip <= HVPMU_SUN4V_VF; desc.chip++) {
		hvpmu_sun4v_model_init(&c->m, desc.chip, 0x1);
		c->m.access = false;
		c->d = hvpmu_sun4v_dram_probe(&desc);
		KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(c->d), -EACCES);

		for (op = GET; op <= SET; op++) {
			for (e = 0; e < ARRAY_SIZE(hv_errors); e++) {
				for (skip = 0; skip < 12; skip++) {
					struct hvpmu_sun4v_dram *d;

					hvpmu_sun4v_model_init(&c->m, desc.chip, 0x1);
					hvpmu_sun4v_model_inject(&c->m, op, -1,
								 hv_errors[e], skip, 1);
					d = hvpmu_sun4v_dram_probe(&desc);
					if (IS_ERR(d))
						KUNIT_EXPECT_NE(test, PTR_ERR(d), 0L);
					else
						hvpmu_sun4v_dram_remove(d);
					/* Nothing half-registered: probing again works. */
					hvpmu_sun4v_model_init(&c->m, desc.chip, 0x1);
					d = hvpmu_sun4v_dram_probe(&desc);
					KUNIT_ASSERT_FALSE(test, IS_ERR(d));
					hvpmu_sun4v_dram_remove(d);
				}
			}
		}
	}
}

/* Hypervisor errors during add, start, read and stop. */
static void dram_test_runtime_errors(struct kunit *test)
{
	struct dram_ctx *c = dram_new(test, HVPMU_SUN4V_VF, 0xff);
	unsigned long ctl = hvpmu_sun4v_ctl_reg(c->chip, 5);
	unsigned long pic = hvpmu_sun4v_pic_reg(c->chip, 5);
	u64 cfg = dram_config(c->chip, 5, 0x2);
	struct perf_event *ev;
	u64 enabled, running;

	/*
	 * Each injected error hits the next call, which must be the one named
	 * below and not a poll: slow the poll to its maximum so that it cannot
	 * run in the few TCG milliseconds between an injection and its call.
	 */
	dram_store(test, c, "poll_period_ms", "1000");

	/* add: the control write fails; the event does not count. */
	hvpmu_sun4v_model_inject(&c->m, SET, ctl, HVPMU_SUN4V_ENOACCESS, 0, 1);
	ev = dram_open(test, c, cfg, NULL);
	hvpmu_sun4v_model_traffic(&c->m, 5, 0x2, 100);
	KUNIT_EXPECT_EQ(test, perf_event_read_value(ev, &enabled, &running), 0ULL);
	KUNIT_EXPECT_EQ(test, running, 0ULL);
	perf_event_disable(ev);
	perf_event_enable(ev);
	hvpmu_sun4v_model_traffic(&c->m, 5, 0x2, 200);
	KUNIT_EXPECT_EQ(test, dram_value(ev), 200ULL);

	/* read: a failed read changes nothing; the next one catches up. */
	hvpmu_sun4v_model_inject(&c->m, GET, pic, HVPMU_SUN4V_EWOULDBLOCK, 0, 1);
	hvpmu_sun4v_model_traffic(&c->m, 5, 0x2, 300);
	KUNIT_EXPECT_EQ(test, dram_value(ev), 200ULL);
	KUNIT_EXPECT_EQ(test, dram_value(ev), 500ULL);

	/* stop: the final read fails; nothing is invented. */
	hvpmu_sun4v_model_inject(&c->m, GET, pic, HVPMU_SUN4V_ENOACCESS, 0, 1);
	hvpmu_sun4v_model_traffic(&c->m, 5, 0x2, 400);
	perf_event_disable(ev);
	KUNIT_EXPECT_EQ(test, dram_value(ev), 500ULL);

	/* start: the baseline read fails; the next read sets it. */
	hvpmu_sun4v_model_inject(&c->m, GET, pic, HVPMU_SUN4V_EINVAL, 0, 1);
	perf_event_enable(ev);
	hvpmu_sun4v_model_traffic(&c->m, 5, 0x2, 600);
	KUNIT_EXPECT_EQ(test, dram_value(ev), 500ULL);
	hvpmu_sun4v_model_traffic(&c->m, 5, 0x2, 700);
	KUNIT_EXPECT_EQ(test, dram_value(ev), 1200ULL);
	perf_event_release_kernel(ev);
	KUNIT_EXPECT_EQ(test, c->m.bad, 0UL);
	dram_down(c);
}

/* PCR.HT through PerfReg 0: refused -> false, "refused"; allowed -> true. */
static void dram_test_ht(struct kunit *test)
{
	enum hvpmu_sun4v_chip chip;
	struct dram_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	const u64 pcr = 0x8ce;	/* SL0 2, mask 0x3, HT|UT|ST */

	KUNIT_ASSERT_NOT_NULL(test, c);
	for (chip = HVPMU_SUN4V_N2; chip <= HVPMU_SUN4V_VF; chip++) {
		dram_up(test, c, chip, all_present(chip));
		dram_sysfs(test, c, NULL, "hyperprivileged", "unused\n");
		c->m.ht_access = false;
		hvpmu_sun4v_model_reset_calls(&c->m);
		KUNIT_EXPECT_FALSE(test, hvpmu_sun4v_pcr_write(c->d, pcr));
		KUNIT_EXPECT_FALSE(test, hvpmu_sun4v_pcr_write(c->d, pcr));
		KUNIT_EXPECT_EQ(test, c->m.pcr, 0ULL);
		KUNIT_EXPECT_EQ(test, hvpmu_sun4v_model_calls(&c->m, SET, 0), 2UL);
		dram_sysfs(test, c, NULL, "hyperprivileged", "refused\n");
		/* Counting goes on: DRAM events are unaffected. */
		hvpmu_sun4v_model_traffic(&c->m, 0, 0, 1);

		c->m.ht_access = true;
		KUNIT_EXPECT_TRUE(test, hvpmu_sun4v_pcr_write(c->d, pcr));
		KUNIT_EXPECT_EQ(test, c->m.pcr, pcr);
		dram_sysfs(test, c, NULL, "hyperprivileged", "allowed\n");

		hvpmu_sun4v_model_inject(&c->m, SET, 0, HVPMU_SUN4V_ENOACCESS, 0, 1);
		KUNIT_EXPECT_FALSE(test, hvpmu_sun4v_pcr_write(c->d, pcr | 1));
		KUNIT_EXPECT_EQ(test, c->m.pcr, pcr);
		KUNIT_EXPECT_EQ(test, c->m.bad, 0UL);
		dram_down(c);
	}
}

/* L2 PERF_CONFIG: shared per node, -EBUSY on conflict, back to "all". */
static void dram_test_l2ctl(struct kunit *test)
{
	struct dram_ctx *c = dram_new(test, HVPMU_SUN4V_VF, 0xff);
	unsigned long l2 = HVPMU_SUN4V_VF_REG_L2CTL;

	c->m.local_node = 1;
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_l2ctl_get(c->d, 1, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_l2ctl_get(c->d, 4, 0), -EINVAL);
	/* "all" is the default: no write. */
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_l2ctl_get(c->d, 1, HVPMU_SUN4V_L2_ALL), 0);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_l2ctl_get(c->d, 1, HVPMU_SUN4V_L2_REMOTE),
			-EBUSY);
	hvpmu_sun4v_l2ctl_put(c->d, 1);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_model_calls(&c->m, SET, l2), 0UL);

	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_l2ctl_get(c->d, 1, HVPMU_SUN4V_L2_REMOTE), 0);
	KUNIT_EXPECT_EQ(test, c->m.l2ctl[1], (u64)HVPMU_SUN4V_L2_REMOTE);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_l2ctl_get(c->d, 1, HVPMU_SUN4V_L2_REMOTE), 0);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_l2ctl_get(c->d, 1, HVPMU_SUN4V_L2_LOCAL),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_model_calls(&c->m, SET, l2), 1UL);
	hvpmu_sun4v_l2ctl_put(c->d, 1);
	KUNIT_EXPECT_EQ(test, c->m.l2ctl[1], (u64)HVPMU_SUN4V_L2_REMOTE);
	hvpmu_sun4v_l2ctl_put(c->d, 1);
	KUNIT_EXPECT_EQ(test, c->m.l2ctl[1], (u64)HVPMU_SUN4V_L2_ALL);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_model_calls(&c->m, SET, l2), 2UL);

	/* A failed write takes nothing. */
	hvpmu_sun4v_model_inject(&c->m, SET, l2, HVPMU_SUN4V_ENOACCESS, 0, 1);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_l2ctl_get(c->d, 1, HVPMU_SUN4V_L2_C2C),
			-EACCES);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_l2ctl_get(c->d, 1, HVPMU_SUN4V_L2_LOCAL), 0);
	KUNIT_EXPECT_EQ(test, c->m.l2ctl[1], (u64)HVPMU_SUN4V_L2_LOCAL);
	hvpmu_sun4v_l2ctl_put(c->d, 1);
	KUNIT_EXPECT_EQ(test, c->m.l2ctl[1], (u64)HVPMU_SUN4V_L2_ALL);
	KUNIT_EXPECT_EQ(test, c->m.l2ctl[0], 0ULL);
	dram_down(c);

	dram_up(test, c, HVPMU_SUN4V_N2, 0xf);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_l2ctl_get(c->d, 0, 1), -EOPNOTSUPP);
	dram_down(c);
}

/* CPU PMU encodings (SL << 8 | mask): SL 3 misses and one SL 2 event. */
#define ENC_L2_IMISS	0x310
#define ENC_L2_DMISS_LD	0x320
#define ENC_DC_MISS	0x302
#define ENC_INSTR_CNT	0x2fd

/*
 * What the CPU PMU's l2ctl provider does for events: per-CPU events take
 * their CPU's node, per-task events every node, a plain SL 3 event takes
 * "all", other events take nothing; last put restores "all" in the node's
 * own PerfReg 1.
 */
static void dram_test_l2ctl_event(struct kunit *test)
{
	struct dram_ctx *c = dram_new(test, HVPMU_SUN4V_VF, 0xff);
	unsigned long l2 = HVPMU_SUN4V_VF_REG_L2CTL;
	struct hvpmu_sun4v_ops no_node = hvpmu_sun4v_model_ops;
	struct hvpmu_sun4v_desc desc = {
		.chip = HVPMU_SUN4V_VF, .ops = &no_node, .ctx = &c->m,
	};
	unsigned int n;

	/* CPUs 0 and 1 on node 0 (64 strands per node). */
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_l2ctl_event_get(c->d, 0, ENC_L2_IMISS,
							  HVPMU_SUN4V_L2_LOCAL), 1);
	KUNIT_EXPECT_EQ(test, c->m.l2ctl[0], (u64)HVPMU_SUN4V_L2_LOCAL);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_l2ctl_event_get(c->d, 1, ENC_L2_IMISS,
							  HVPMU_SUN4V_L2_REMOTE),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_l2ctl_event_get(c->d, 1, ENC_DC_MISS,
							  HVPMU_SUN4V_L2_ALL),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_l2ctl_event_get(c->d, 1, ENC_L2_DMISS_LD,
							  HVPMU_SUN4V_L2_LOCAL), 1);
	/* Not an SL 3 event: needs nothing, may not ask for a subset. */
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_l2ctl_event_get(c->d, 0, ENC_INSTR_CNT,
							  0), 0);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_l2ctl_event_get(c->d, 0, ENC_INSTR_CNT,
							  1), -EINVAL);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_l2ctl_event_get(c->d, 0, ENC_L2_IMISS,
							  4), -EINVAL);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_model_calls(&c->m, SET, l2), 1UL);
	hvpmu_sun4v_l2ctl_event_put(c->d, 0, ENC_L2_IMISS, HVPMU_SUN4V_L2_LOCAL);
	KUNIT_EXPECT_EQ(test, c->m.l2ctl[0], (u64)HVPMU_SUN4V_L2_LOCAL);
	hvpmu_sun4v_l2ctl_event_put(c->d, 1, ENC_L2_DMISS_LD,
				    HVPMU_SUN4V_L2_LOCAL);
	KUNIT_EXPECT_EQ(test, c->m.l2ctl[0], (u64)HVPMU_SUN4V_L2_ALL);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_model_calls(&c->m, SET, l2), 2UL);

	/* One CPU per node: each node's register is written on that node. */
	c->m.cpus_per_node = 1;
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_l2ctl_event_get(c->d, 0, ENC_L2_IMISS,
							  HVPMU_SUN4V_L2_LOCAL), 1);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_l2ctl_event_get(c->d, 1, ENC_L2_IMISS,
							  HVPMU_SUN4V_L2_C2C), 1);
	KUNIT_EXPECT_EQ(test, c->m.l2ctl[0], (u64)HVPMU_SUN4V_L2_LOCAL);
	KUNIT_EXPECT_EQ(test, c->m.l2ctl[1], (u64)HVPMU_SUN4V_L2_C2C);
	/* A per-task event needs every node: node 0 refuses, nothing kept. */
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_l2ctl_event_get(c->d, -1, ENC_L2_IMISS,
							  HVPMU_SUN4V_L2_C2C),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, c->m.l2ctl[2], 0ULL);
	hvpmu_sun4v_l2ctl_event_put(c->d, 0, ENC_L2_IMISS, HVPMU_SUN4V_L2_LOCAL);
	KUNIT_EXPECT_EQ(test, c->m.l2ctl[0], (u64)HVPMU_SUN4V_L2_ALL);
	KUNIT_EXPECT_EQ(test, c->m.l2ctl[1], (u64)HVPMU_SUN4V_L2_C2C);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_l2ctl_event_get(c->d, -1, ENC_L2_IMISS,
							  HVPMU_SUN4V_L2_C2C), 1);
	for (n = 0; n < HVPMU_SUN4V_VF_NODES; n++)
		KUNIT_EXPECT_EQ(test, c->m.l2ctl[n], (u64)HVPMU_SUN4V_L2_C2C);
	hvpmu_sun4v_l2ctl_event_put(c->d, -1, ENC_L2_IMISS, HVPMU_SUN4V_L2_C2C);
	KUNIT_EXPECT_EQ(test, c->m.l2ctl[1], (u64)HVPMU_SUN4V_L2_C2C);
	hvpmu_sun4v_l2ctl_event_put(c->d, 1, ENC_L2_IMISS, HVPMU_SUN4V_L2_C2C);
	for (n = 0; n < HVPMU_SUN4V_VF_NODES; n++)
		KUNIT_EXPECT_EQ(test, c->m.l2ctl[n], 0ULL);

	/* A failed write on the third node undoes the first two. */
	hvpmu_sun4v_model_reset_calls(&c->m);
	hvpmu_sun4v_model_inject(&c->m, SET, l2, HVPMU_SUN4V_ENOACCESS, 2, 1);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_l2ctl_event_get(c->d, -1, ENC_L2_IMISS,
							  HVPMU_SUN4V_L2_REMOTE),
			-EACCES);
	for (n = 0; n < HVPMU_SUN4V_VF_NODES; n++)
		KUNIT_EXPECT_EQ(test, c->m.l2ctl[n], 0ULL);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_model_calls(&c->m, SET, l2), 5UL);
	KUNIT_EXPECT_EQ(test, c->m.bad, 0UL);
	dram_down(c);

	/* Per-task events take only nodes that exist (here 0 and 1). */
	dram_up(test, c, HVPMU_SUN4V_VF, 0x0f);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_l2ctl_event_get(c->d, -1, ENC_L2_IMISS,
							  HVPMU_SUN4V_L2_REMOTE), 1);
	KUNIT_EXPECT_EQ(test, c->m.l2ctl[0], (u64)HVPMU_SUN4V_L2_REMOTE);
	KUNIT_EXPECT_EQ(test, c->m.l2ctl[1], (u64)HVPMU_SUN4V_L2_REMOTE);
	KUNIT_EXPECT_EQ(test, c->m.l2ctl[2], 0ULL);
	hvpmu_sun4v_l2ctl_event_put(c->d, -1, ENC_L2_IMISS,
				    HVPMU_SUN4V_L2_REMOTE);
	KUNIT_EXPECT_EQ(test, c->m.l2ctl[0], 0ULL);
	KUNIT_EXPECT_EQ(test, c->m.l2ctl[1], 0ULL);
	KUNIT_EXPECT_EQ(test, c->m.bad, 0UL);
	dram_down(c);

	/* A backend that cannot tell a CPU's node refuses per-CPU events. */
	no_node.cpu_node = NULL;
	hvpmu_sun4v_model_init(&c->m, HVPMU_SUN4V_VF, 0xff);
	c->d = hvpmu_sun4v_dram_probe(&desc);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c->d));
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_l2ctl_event_get(c->d, 0, ENC_L2_IMISS,
							  0), -EOPNOTSUPP);
	dram_down(c);

	/* T2: no PERF_CONFIG; only "all", and nothing is taken. */
	dram_up(test, c, HVPMU_SUN4V_N2, 0xf);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_l2ctl_event_get(c->d, 0, ENC_L2_IMISS,
							  0), 0);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_l2ctl_event_get(c->d, 0, ENC_L2_IMISS,
							  1), -EOPNOTSUPP);
	dram_down(c);
}

static void dram_test_errno(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_errno(HVPMU_SUN4V_EOK), 0);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_errno(HVPMU_SUN4V_ENOACCESS), -EACCES);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_errno(HVPMU_SUN4V_EINVAL), -ENODEV);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_errno(HVPMU_SUN4V_ENOTSUPPORTED), -ENODEV);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_errno(HVPMU_SUN4V_EWOULDBLOCK), -EBUSY);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_errno(HVPMU_SUN4V_EBADTRAP), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, hvpmu_sun4v_errno(42), -EIO);
	KUNIT_EXPECT_STREQ(test, hvpmu_sun4v_status_name(HVPMU_SUN4V_ENOACCESS),
			   "ENOACCESS");
}

/* What event_init must accept for @attr on a VF with nodes 0-1. */
static int dram_expect(const struct perf_event_attr *attr, bool task)
{
	u64 cfg = attr->config;

	if (attr->sample_period)
		return -EOPNOTSUPP;
	if (task)
		return -EINVAL;
	/* event 3:0, node 9:8, mcu 10; bits 7:4 are no field */
	if ((cfg & ~0x70fULL) || attr->config1 || attr->config2 ||
	    (cfg & 0xf) > 0xe)
		return -EINVAL;
	if (((cfg >> 8) & 3) > 1)
		return -ENODEV;
	return 0;
}

static u64 dram_rand_config(void)
{
	u32 r = get_random_u32();

	switch (r & 3) {
	case 0:
		return get_random_u64();
	case 1:
		return BIT_ULL(get_random_u32() & 63) | (r >> 8 & 0x7ff);
	case 2:
		return r >> 8 & 0x7ff;
	default:
		return r >> 8 & 0x70f;
	}
}

/* 100k random attributes through event_init; 2000 through the perf core. */
static void dram_test_random(struct kunit *test)
{
	struct dram_ctx *c = dram_new(test, HVPMU_SUN4V_VF, 0x0f);
	struct perf_event *ev = kunit_kzalloc(test, sizeof(*ev), GFP_KERNEL);
	unsigned int i, accepted = 0;

	KUNIT_ASSERT_NOT_NULL(test, ev);
	for (i = 0; i < 100000; i++) {
		bool task = !(get_random_u32() & 7);
		int want, got;

		memset(ev, 0, sizeof(*ev));
		ev->pmu = c->pmu;
		ev->group_leader = ev;
		INIT_LIST_HEAD(&ev->sibling_list);
		ev->attr.type = c->pmu->type;
		ev->attr.config = dram_rand_config();
		ev->attr.config1 = (get_random_u32() & 3) ? 0 : get_random_u64();
		ev->attr.config2 = (get_random_u32() & 3) ? 0 : get_random_u64();
		ev->attr.sample_period = (get_random_u32() & 7) ? 0 : get_random_u32();
		ev->cpu = task ? -1 : 0;
		if (task)
			ev->attach_state = PERF_ATTACH_TASK;
		want = dram_expect(&ev->attr, task);
		got = c->pmu->event_init(ev);
		if (got != want) {
			KUNIT_FAIL(test,
				   "config %#llx/%#llx/%#llx period %llu task %d: %d, want %d",
				   ev->attr.config, ev->attr.config1, ev->attr.config2,
				   ev->attr.sample_period, task, got, want);
			break;
		}
		accepted += !got;
	}
	KUNIT_EXPECT_GT(test, accepted, 1000U);

	for (i = 0; i < 2000; i++) {
		struct perf_event_attr attr = {
			.type = c->pmu->type,
			.size = sizeof(attr),
			.config = dram_rand_config(),
			.exclude_user = !(get_random_u32() & 7),
			.exclude_kernel = !(get_random_u32() & 7),
			.exclude_hv = !(get_random_u32() & 7),
		};
		bool excl = attr.exclude_user || attr.exclude_kernel || attr.exclude_hv;
		int want = dram_expect(&attr, false);
		struct perf_event *e;

		/* The core rejects exclusions before the driver sees them. */
		e = perf_event_create_kernel_counter(&attr, 0, NULL, NULL, NULL);
		if (excl && !want)
			want = -EINVAL;
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(e), want,
				    "config %#llx", attr.config);
		if (!IS_ERR(e))
			perf_event_release_kernel(e);
	}
	KUNIT_EXPECT_EQ(test, c->m.bad, 0UL);
	dram_down(c);
}

/* A group mixing the two DRAM PMUs is refused. */
static void dram_test_mixed_group(struct kunit *test)
{
	struct dram_ctx *n2 = dram_new(test, HVPMU_SUN4V_N2, 0xf);
	struct dram_ctx *vf = dram_new(test, HVPMU_SUN4V_VF, 0xff);
	struct perf_event *lead = fake_event(test, n2->pmu, 0, NULL);
	struct perf_event *e;

	e = fake_event(test, vf->pmu, 0, lead);
	KUNIT_EXPECT_EQ(test, fake_init(e), -EINVAL);
	e = fake_event(test, n2->pmu, 0, lead);
	KUNIT_EXPECT_EQ(test, fake_init(e), 0);
	dram_down(vf);
	dram_down(n2);
}

/* The simulated platform's command parser. */
static void dram_test_sim(struct kunit *test)
{
	static const char *const good[][2] = {
		{ "inject", "vfalls_dram node 1 mcu 1 mem_reads 123456789" },
		{ "inject", "niagara2_dram channel 3 0x7 5" },
		{ "error", "vfalls_dram get any ENOACCESS 2 1" },
		{ "error", "niagara2_dram set 3 EWOULDBLOCK" },
		{ "error", "niagara2_dram access 0" },
		{ "error", "vfalls_dram off" },
	};
	static const char *const bad[][2] = {
		{ "inject", "vfalls_dram node 4 mcu 0 mem_reads 1" },
		{ "inject", "vfalls_dram node 0 mcu 2 mem_reads 1" },
		{ "inject", "niagara2_dram channel 4 mem_reads 1" },
		{ "inject", "niagara2_dram channel 0 bank_busy_stalls 1" },
		{ "inject", "niagara2_dram channel 0 mem_reads" },
		{ "inject", "mips_cm channel 0 mem_reads 1" },
		{ "error", "vfalls_dram get any EFOO" },
		{ "error", "vfalls_dram peek 3 EINVAL" },
		{ "calls", "vfalls_dram" },
	};
	unsigned int i;

	KUNIT_ASSERT_EQ(test, hvpmu_sun4v_sim_init(NULL), 0);
	for (i = 0; i < ARRAY_SIZE(good); i++)
		KUNIT_EXPECT_EQ_MSG(test, hvpmu_sun4v_sim_command(good[i][0], good[i][1]),
				    0, "%s", good[i][1]);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, hvpmu_sun4v_sim_command(bad[i][0], bad[i][1]),
				    -EINVAL, "%s", bad[i][1]);
	hvpmu_sun4v_sim_exit();
	/* Both names are free again. */
	KUNIT_ASSERT_EQ(test, hvpmu_sun4v_sim_init(NULL), 0);
	hvpmu_sun4v_sim_exit();
}

static struct kunit_case dram_cases[] = {
	KUNIT_CASE(dram_test_sysfs),
	KUNIT_CASE(dram_test_every_event),
	KUNIT_CASE(dram_test_wraps),
	KUNIT_CASE(dram_test_poll),
	KUNIT_CASE(dram_test_hotplug),
	KUNIT_CASE(dram_test_group_read),
	KUNIT_CASE(dram_test_scheduling),
	KUNIT_CASE(dram_test_presence),
	KUNIT_CASE(dram_test_probe_errors),
	KUNIT_CASE(dram_test_runtime_errors),
	KUNIT_CASE(dram_test_ht),
	KUNIT_CASE(dram_test_l2ctl),
	KUNIT_CASE(dram_test_l2ctl_event),
	KUNIT_CASE(dram_test_errno),
	KUNIT_CASE(dram_test_random),
	KUNIT_CASE(dram_test_mixed_group),
	KUNIT_CASE(dram_test_sim),
	{}
};

static struct kunit_suite dram_suite = {
	.name = "hvpmu_sun4v_dram",
	.test_cases = dram_cases,
};

kunit_test_suite(dram_suite);

MODULE_DESCRIPTION("KUnit tests of the sun4v DRAM PMUs");
MODULE_LICENSE("GPL");
