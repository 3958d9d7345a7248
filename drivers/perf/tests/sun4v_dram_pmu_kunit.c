// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of niagara2_dram and vfalls_dram on the sun4v perfreg model,
 * inside the real perf core. Expected values are typed in from the sun4v
 * Hypervisor API documents (niagara2_perf_api.txt "N2", vf_perf_api.txt
 * "VF"), never taken from the driver's header; cases named model_* check
 * the model itself.
 */

#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/topology.h>
#include <linux/workqueue.h>

#include "pmu_format_kunit.h"
#include "sun4v_dram_model.h"

#include <asm/pcr.h>

#define GET	SUN4V_PMU_MODEL_GET
#define SET	SUN4V_PMU_MODEL_SET
#define N2	SUN4V_PMU_N2
#define VF	SUN4V_PMU_VF

/* Hypervisor status codes of the sun4v core API (FWARC 2005/116). */
#define ST_EOK		0
#define ST_EINVAL	6
#define ST_EBADTRAP	7
#define ST_EWOULDBLOCK	9
#define ST_ENOACCESS	10
#define ST_ENOTSUPPORTED 13

/* VF 3.1: PerfReg 0 is the strand's SPARC PCR, 1 the node's L2 control. */
#define REG_PCR		0
#define REG_L2		1
/* N2 2.1 names PCR.HT; it is bit 3 (illumos niagara2regs.h). */
#define PCR_HT		0x8ULL

struct dram_ctx {
	struct sun4v_dram_model m;
	struct sun4v_dram_pmu *d;
	struct pmu *pmu;
	enum sun4v_pmu_chip chip;
};

static u32 all_present(enum sun4v_pmu_chip chip)
{
	return chip == VF ? 0xff : 0xf;
}

static unsigned int nr_chans(enum sun4v_pmu_chip chip)
{
	return chip == VF ? 8 : 4;
}

/*
 * The suite's PMUs have names of their own, so that it also runs beside
 * the machine's niagara2_dram or vfalls_dram on a real T2 or T2+.
 */
static const char *dram_name(enum sun4v_pmu_chip chip)
{
	return chip == SUN4V_PMU_VF ? "vfalls_dram_kunit" : "niagara2_dram_kunit";
}

/* The model of a freshly booted chip; adjust it, then dram_probe(). */
static void dram_model(struct dram_ctx *c, enum sun4v_pmu_chip chip,
		       u32 present)
{
	c->chip = chip;
	sun4v_dram_model_init(&c->m, chip, present);
}

static void dram_probe(struct kunit *test, struct dram_ctx *c)
{
	struct sun4v_pmu_desc desc = {
		.chip = c->chip, .name = dram_name(c->chip), .hv = &c->m.ops,
	};

	c->d = sun4v_dram_pmu_probe(&desc);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(c->d), "probe: %ld",
			       PTR_ERR(c->d));
	c->pmu = sun4v_dram_pmu_to_pmu(c->d);
}

static void dram_up(struct kunit *test, struct dram_ctx *c,
		    enum sun4v_pmu_chip chip, u32 present)
{
	dram_model(c, chip, present);
	dram_probe(test, c);
}

static struct dram_ctx *dram_alloc(struct kunit *test)
{
	struct dram_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	return c;
}

static struct dram_ctx *dram_new(struct kunit *test, enum sun4v_pmu_chip chip,
				 u32 present)
{
	struct dram_ctx *c = dram_alloc(test);

	dram_up(test, c, chip, present);
	return c;
}

static void dram_down(struct dram_ctx *c)
{
	sun4v_dram_pmu_remove(c->d);
	c->d = NULL;
}

static u64 dram_config(enum sun4v_pmu_chip chip, unsigned int chan,
		       unsigned int event)
{
	if (chip == VF)
		return event | (u64)(chan / 2) << 8 | (u64)(chan % 2) << 10;
	return event | (u64)chan << 8;
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

static struct perf_event *dram_open_on(struct kunit *test, struct dram_ctx *c,
				       u64 config, int cpu)
{
	struct perf_event_attr attr = {
		.type = c->pmu->type,
		.size = sizeof(attr),
		.config = config,
	};
	struct perf_event *ev;

	ev = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(ev), "open config %#llx: %ld",
			       config, PTR_ERR(ev));
	return ev;
}

static struct perf_event *dram_open(struct kunit *test, struct dram_ctx *c,
				    u64 config, struct perf_event *leader)
{
	return dram_open_on(test, c, config, 0);
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

	for (g = c->pmu->attr_groups; *g; g++) {
		char *buf;

		if ((group && (!(*g)->name || strcmp((*g)->name, group))) ||
		    (!group && (*g)->name))
			continue;
		/* As sysfs shows it: hidden by .is_visible is absent. */
		buf = pmu_kunit_group_file(test, c->pmu->dev, *g, name);
		if (!buf)
			continue;
		KUNIT_EXPECT_STREQ(test, buf, want);
		return;
	}
	KUNIT_FAIL(test, "no sysfs file %s/%s", group ?: "", name);
}

/* Write a file of the PMU's unnamed sysfs groups through its store(). */
static ssize_t dram_store_ret(struct kunit *test, struct dram_ctx *c,
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
			return da->store(c->pmu->dev, da, val, strlen(val));
		}
	}
	KUNIT_FAIL(test, "no sysfs file %s", name);
	return -ENOENT;
}

static void dram_store(struct kunit *test, struct dram_ctx *c,
		       const char *name, const char *val)
{
	KUNIT_ASSERT_EQ(test, dram_store_ret(test, c, name, val),
			(ssize_t)strlen(val));
}

static void dram_test_sysfs(struct kunit *test)
{
	struct dram_ctx *c = dram_new(test, SUN4V_PMU_N2, 0xb);

	dram_sysfs(test, c, "format", "event", "config:0-3\n");
	dram_sysfs(test, c, "format", "channel", "config:8-9\n");
	dram_sysfs(test, c, "events", "mem_reads", "event=0x0,channel=?\n");
	dram_sysfs(test, c, "events", "wb_buf_hits", "event=0x7,channel=?\n");
	dram_sysfs(test, c, NULL, "channels", "channel=0\nchannel=1\nchannel=3\n");
	dram_sysfs(test, c, NULL, "poll_period_ms", "100\n");
	KUNIT_EXPECT_STREQ(test, c->pmu->name, "niagara2_dram_kunit");
	dram_down(c);

	dram_up(test, c, SUN4V_PMU_VF, 0x0f);
	dram_sysfs(test, c, "format", "node", "config:8-9\n");
	dram_sysfs(test, c, "format", "mcu", "config:10\n");
	dram_sysfs(test, c, "events", "rw_queue_latency",
		   "event=0x6,node=?,mcu=?\n");
	dram_sysfs(test, c, NULL, "channels",
		   "node=0,mcu=0\nnode=0,mcu=1\nnode=1,mcu=0\nnode=1,mcu=1\n");
	KUNIT_EXPECT_STREQ(test, c->pmu->name, "vfalls_dram_kunit");
	dram_down(c);
}

/* The PMU's attribute group called @name. */
static const struct attribute_group *dram_group(struct kunit *test,
						struct dram_ctx *c,
						const char *name)
{
	const struct attribute_group **g;

	for (g = c->pmu->attr_groups; *g; g++)
		if ((*g)->name && !strcmp((*g)->name, name))
			return *g;
	KUNIT_FAIL(test, "no sysfs group %s", name);
	return NULL;
}

/* A group shows exactly these files with exactly these contents. */
static void dram_sysfs_exact(struct kunit *test, struct dram_ctx *c,
			     const char *group, const char *const (*want)[2],
			     unsigned int n)
{
	const struct attribute_group *g = dram_group(test, c, group);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, g);
	KUNIT_EXPECT_EQ_MSG(test, pmu_kunit_count(c->pmu->dev, g), n,
			    "%s: %s/", c->pmu->name, group);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_STREQ_MSG(test,
				       pmu_kunit_group_file(test, c->pmu->dev, g,
							    want[i][0]),
				       want[i][1], "%s: %s/%s", c->pmu->name,
				       group, want[i][0]);
}

/*
 * The sysfs ABI perf reads, byte for byte: every format/ and events/ file
 * of both PMUs and nothing else. Typed in from what the PMUs showed before
 * their tables became static (and from illumos' niagara_perfctr.c for the
 * codes).
 */
static void dram_test_sysfs_abi(struct kunit *test)
{
	static const char *const n2_format[][2] = {
		{ "event", "config:0-3\n" },
		{ "channel", "config:8-9\n" },
	};
	static const char *const vf_format[][2] = {
		{ "event", "config:0-3\n" },
		{ "node", "config:8-9\n" },
		{ "mcu", "config:10\n" },
	};
	static const char *const n2_events[][2] = {
		{ "mem_reads", "event=0x0,channel=?\n" },
		{ "mem_writes", "event=0x1,channel=?\n" },
		{ "mem_read_write", "event=0x2,channel=?\n" },
		{ "rd_queue_latency", "event=0x4,channel=?\n" },
		{ "wr_queue_latency", "event=0x5,channel=?\n" },
		{ "rw_queue_latency", "event=0x6,channel=?\n" },
		{ "wb_buf_hits", "event=0x7,channel=?\n" },
	};
	static const char *const vf_events[][2] = {
		{ "mem_reads", "event=0x0,node=?,mcu=?\n" },
		{ "mem_writes", "event=0x1,node=?,mcu=?\n" },
		{ "mem_read_write", "event=0x2,node=?,mcu=?\n" },
		{ "rd_queue_latency", "event=0x4,node=?,mcu=?\n" },
		{ "wr_queue_latency", "event=0x5,node=?,mcu=?\n" },
		{ "rw_queue_latency", "event=0x6,node=?,mcu=?\n" },
		{ "wb_buf_hits", "event=0x7,node=?,mcu=?\n" },
	};
	struct dram_ctx *c = dram_alloc(test);

	/* Which channels are present changes no file. */
	dram_up(test, c, N2, 0x2);
	dram_sysfs_exact(test, c, "format", n2_format, ARRAY_SIZE(n2_format));
	dram_sysfs_exact(test, c, "events", n2_events, ARRAY_SIZE(n2_events));
	dram_down(c);

	dram_up(test, c, VF, 0xc0);
	dram_sysfs_exact(test, c, "format", vf_format, ARRAY_SIZE(vf_format));
	dram_sysfs_exact(test, c, "events", vf_events, ARRAY_SIZE(vf_events));
	dram_down(c);
}

/*
 * The self-check of both PMUs' format/ and events/ lists that probe did
 * before they were static: names, masks, terms that name fields and fit;
 * and the masks event_init checks are exactly the fields' bits.
 */
static void dram_test_tables(struct kunit *test)
{
	struct dram_ctx *c = dram_alloc(test);
	enum sun4v_pmu_chip chip;

	for (chip = N2; chip <= VF; chip++) {
		const struct attribute_group *format, *events;

		dram_up(test, c, chip, all_present(chip));
		format = dram_group(test, c, "format");
		events = dram_group(test, c, "events");
		KUNIT_ASSERT_NOT_NULL(test, format);
		KUNIT_ASSERT_NOT_NULL(test, events);
		pmu_kunit_check_tables(test, format->attrs, events->attrs);
		pmu_kunit_check_mask(test, format->attrs, chip == VF ?
				     dram_vf_format_mask : dram_n2_format_mask);
		dram_down(c);
	}
}

static const unsigned int dram_events[] = { 0x0, 0x1, 0x2, 0x4, 0x5, 0x6, 0x7 };

/* Every event on every channel of both chips: exact counts. */
static void dram_test_every_event(struct kunit *test)
{
	enum sun4v_pmu_chip chip;
	struct dram_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	for (chip = SUN4V_PMU_N2; chip <= SUN4V_PMU_VF; chip++) {
		unsigned int ch, e, w;

		dram_up(test, c, chip, all_present(chip));
		for (ch = 0; ch < nr_chans(chip); ch++) {
			for (e = 0; e < ARRAY_SIZE(dram_events); e++) {
				unsigned int code = dram_events[e];
				struct perf_event *ev;
				u64 n = 1000003ULL * (ch + 1) + code;

				ev = dram_open(test, c, dram_config(chip, ch, code), NULL);
				sun4v_dram_model_traffic(&c->m, ch, code, n);
				/* Other events and channels do not count. */
				sun4v_dram_model_traffic(&c->m, ch, code ^ 1, 77);
				sun4v_dram_model_traffic(&c->m, (ch + 1) % nr_chans(chip),
							 code, 55);
				KUNIT_EXPECT_EQ_MSG(test, dram_value(ev), n,
						    "chip %d chan %u event %u", chip, ch, code);
				/* ... and three wraps of the 31-bit counter. */
				for (w = 0; w < 3; w++) {
					sun4v_dram_model_traffic(&c->m, ch, code, 0x7fff0000);
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
	struct dram_ctx *c = dram_new(test, SUN4V_PMU_VF, 0xff);
	const unsigned int ch = 3, steps = 1001;
	const u64 step = 0x7fff0000ULL;
	struct perf_event *a, *b;
	unsigned long calls, polls, other;
	unsigned int i, r;
	ktime_t t0;

	/* Start both halves near the top so the first step wraps. */
	c->m.pic[ch] = 0x7ffffff0ULL << 32 | 0x7fffff00ULL;
	a = dram_open(test, c, dram_config(c->chip, ch, 0x0), NULL);
	b = dram_open(test, c, dram_config(c->chip, ch, 0x1), NULL);
	KUNIT_EXPECT_EQ(test, dram_value(a), 0ULL);
	KUNIT_EXPECT_EQ(test, dram_value(b), 0ULL);
	sun4v_dram_model_reset_calls(&c->m);
	t0 = ktime_get();
	for (i = 0; i < steps; i++) {
		sun4v_dram_model_traffic(&c->m, ch, 0x0, step);
		sun4v_dram_model_traffic(&c->m, ch, 0x1, step + 1);
		dram_value(a);
	}
	/* One call per read, plus the polls (100 ms) that ran meanwhile. */
	polls = ktime_ms_delta(ktime_get(), t0) / 100 + 1;
	calls = sun4v_dram_model_calls(&c->m, GET, 9);	/* VF 3.1: NODE1_MCU1_PIC */
	KUNIT_EXPECT_GE(test, calls, (unsigned long)steps);
	KUNIT_EXPECT_LE(test, calls, (unsigned long)steps + polls);
	/* No other register read (a poll may still add to PerfReg 9's). */
	for (r = 0, other = 0; r < ARRAY_SIZE(c->m.calls[GET]); r++)
		if (r != 9)
			other += c->m.calls[GET][r];
	KUNIT_EXPECT_EQ(test, other, 0UL);
	KUNIT_EXPECT_EQ(test, sun4v_dram_model_calls(&c->m, SET, -1), 0UL);
	/* b was folded by a's reads, so it is exact too. */
	KUNIT_EXPECT_EQ(test, dram_value(a), steps * step);
	/* 1001 steps of 0x7fff0000: 1000 wraps of 2^31 and more. */
	KUNIT_EXPECT_EQ(test, dram_value(b), steps * (step + 1));
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
	struct dram_ctx *c = dram_new(test, SUN4V_PMU_VF, 0xff);
	struct dram_txn t = { .pmu = c->pmu };
	int i;

	for (i = 0; i < 4; i++)
		t.ev[i] = dram_open(test, c, dram_config(c->chip, 6 + i / 2, i % 2), NULL);
	for (i = 0; i < 4; i++)
		sun4v_dram_model_traffic(&c->m, 6 + i / 2, i % 2, 1000 + i);
	sun4v_dram_model_reset_calls(&c->m);
	KUNIT_ASSERT_EQ(test, smp_call_function_single(t.ev[0]->cpu, dram_txn_read,
						       &t, 1), 0);
	KUNIT_EXPECT_EQ(test, sun4v_dram_model_calls(&c->m, GET, -1), 2UL);
	i = 15;	/* VF 3.1: NODE3_MCU0_PIC */
	KUNIT_EXPECT_EQ(test, sun4v_dram_model_calls(&c->m, GET, i), 1UL);
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, local64_read(&t.ev[i]->count), 1000ULL + i);
		perf_event_release_kernel(t.ev[i]);
	}
	dram_down(c);
}

/*
 * Wait until a poll has read counter register @pic after this call (a call
 * counted after the traffic was injected reads it), up to 10 s. A fixed
 * sleep instead would count how many timer periods a loaded host grants
 * the guest, which is not what is tested.
 *
 * Return: how long the wait took, in milliseconds.
 */
static unsigned int dram_wait_poll(struct kunit *test, struct dram_ctx *c,
				   unsigned long pic)
{
	unsigned long start = sun4v_dram_model_calls(&c->m, GET, pic);
	unsigned long t0 = jiffies;

	while (sun4v_dram_model_calls(&c->m, GET, pic) == start) {
		if (time_after(jiffies, t0 + 10 * HZ)) {
			KUNIT_FAIL(test, "no poll of PerfReg %lu in 10 s", pic);
			break;
		}
		usleep_range(500, 1000);
	}
	return jiffies_to_msecs(jiffies - t0);
}

/* The hrtimer alone keeps counts across wraps; no calls without events. */
static void dram_test_poll(struct kunit *test)
{
	struct dram_ctx *c = dram_new(test, SUN4V_PMU_N2, 0xf);
	struct perf_event *a, *b;
	unsigned long pic = 6;	/* N2 3.1: DRAM Performance Counter register 2 */
	unsigned int i;

	dram_store(test, c, "poll_period_ms", "5");
	sun4v_dram_model_reset_calls(&c->m);
	msleep(30);
	KUNIT_EXPECT_EQ(test, sun4v_dram_model_calls(&c->m, GET, -1), 0UL);

	a = dram_open(test, c, dram_config(c->chip, 2, 0x4), NULL);
	b = dram_open(test, c, dram_config(c->chip, 2, 0x7), NULL);
	sun4v_dram_model_reset_calls(&c->m);
	for (i = 0; i < 6; i++) {
		sun4v_dram_model_traffic(&c->m, 2, 0x4, 0x7ffffff0);
		sun4v_dram_model_traffic(&c->m, 2, 0x7, 0x40000000);
		dram_wait_poll(test, c, pic);
	}
	/* Only polls ran: each read both halves with one call. */
	KUNIT_EXPECT_GE(test, sun4v_dram_model_calls(&c->m, GET, pic), 6UL);
	KUNIT_EXPECT_EQ(test, sun4v_dram_model_calls(&c->m, GET, -1),
			sun4v_dram_model_calls(&c->m, GET, pic));
	KUNIT_EXPECT_EQ(test, dram_value(a), 6 * 0x7ffffff0ULL);
	KUNIT_EXPECT_EQ(test, dram_value(b), 6 * 0x40000000ULL);
	perf_event_release_kernel(a);
	perf_event_release_kernel(b);

	sun4v_dram_model_reset_calls(&c->m);
	msleep(30);
	KUNIT_EXPECT_EQ(test, sun4v_dram_model_calls(&c->m, GET, -1), 0UL);
	dram_down(c);
}

/*
 * The PMU's "cpumask": its designated CPU, where perf opens the events and
 * the driver counts them. The file is in one of the PMU's groups (perf
 * core's own, for a PMU with a scope, are looked at too).
 */
static int dram_cpumask(struct kunit *test, struct dram_ctx *c)
{
	const struct attribute_group **g[] = { c->pmu->attr_groups,
					       c->pmu->dev->bus->dev_groups };
	unsigned int i, cpu;

	for (i = 0; i < ARRAY_SIZE(g); i++) {
		const struct attribute_group **grp;

		for (grp = g[i]; grp && *grp; grp++) {
			char *buf;

			if ((*grp)->name)
				continue;
			buf = pmu_kunit_group_file(test, c->pmu->dev, *grp,
						   "cpumask");
			if (!buf)
				continue;
			KUNIT_ASSERT_EQ(test, kstrtouint(strim(buf), 10, &cpu),
					0);
			return cpu;
		}
	}
	KUNIT_FAIL(test, "no cpumask file");
	return -1;
}

struct dram_probe_work {
	struct sun4v_pmu_desc desc;
	struct sun4v_dram_pmu *d;
};

static long dram_probe_fn(void *arg)
{
	struct dram_probe_work *w = arg;

	w->d = sun4v_dram_pmu_probe(&w->desc);
	return 0;
}

/* Register the PMU from @cpu: a driver that designates a CPU takes it. */
static void dram_probe_on(struct kunit *test, struct dram_ctx *c,
			  unsigned int cpu)
{
	struct dram_probe_work w = {
		.desc = { .chip = c->chip, .name = dram_name(c->chip),
			  .hv = &c->m.ops },
	};

	work_on_cpu(cpu, dram_probe_fn, &w);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(w.d), "probe: %ld", PTR_ERR(w.d));
	c->d = w.d;
	c->pmu = sun4v_dram_pmu_to_pmu(c->d);
}

/* A CPU other than @cpu, or nr_cpu_ids. */
static unsigned int dram_other_cpu(unsigned int cpu)
{
	return cpumask_any_but(cpu_online_mask, cpu);
}

/*
 * The events' CPU goes offline while counting: they move with the cpumask
 * to another CPU, the poll timer goes with the dying CPU's timers, and
 * counts stay exact across counter wraps after the move. Where that CPU
 * cannot go offline (CPU 0 on x86, perf core's choice for a system-wide
 * scope), the events are moved as the hotplug code would move them.
 */
static void dram_test_hotplug(struct kunit *test)
{
	struct dram_ctx *c;
	struct perf_event *ev;
	unsigned long pic;
	unsigned int first, cpu, moved, i;
	bool offline;

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU) || num_online_cpus() < 2)
		kunit_skip(test, "needs CPU hotplug and 2 CPUs");
	c = dram_alloc(test);
	dram_model(c, SUN4V_PMU_VF, 0xff);
	/* a driver that designates a CPU of its own takes this one */
	first = cpumask_next(0, cpu_online_mask);
	dram_probe_on(test, c, first);
	pic = 9;	/* VF 3.1: NODE1_MCU1_PIC */
	dram_store(test, c, "poll_period_ms", "5");
	cpu = dram_cpumask(test, c);
	/* opened on another CPU, counted on the cpumask's */
	ev = dram_open_on(test, c, dram_config(c->chip, 3, 0x1),
			  dram_other_cpu(cpu));
	KUNIT_EXPECT_EQ(test, ev->cpu, (int)cpu);
	sun4v_dram_model_traffic(&c->m, 3, 0x1, 1000);
	KUNIT_EXPECT_EQ(test, dram_value(ev), 1000ULL);

	offline = !remove_cpu(cpu);
	if (!offline)
		perf_pmu_migrate_context(c->pmu, cpu, dram_other_cpu(cpu));
	moved = ev->cpu;
	KUNIT_EXPECT_NE(test, moved, cpu);
	KUNIT_EXPECT_TRUE(test, cpu_online(moved));
	if (offline)
		KUNIT_EXPECT_EQ(test, dram_cpumask(test, c), (int)moved);

	/* Only the poll timer reads while the 31-bit counter wraps 3 times. */
	sun4v_dram_model_reset_calls(&c->m);
	for (i = 0; i < 6; i++) {
		sun4v_dram_model_traffic(&c->m, 3, 0x1, 0x40000000);
		dram_wait_poll(test, c, pic);
	}
	KUNIT_EXPECT_GE(test, sun4v_dram_model_calls(&c->m, GET, pic), 6UL);
	KUNIT_EXPECT_EQ(test, dram_value(ev), 1000ULL + 6 * 0x40000000ULL);

	if (offline) {
		KUNIT_EXPECT_EQ(test, add_cpu(cpu), 0);
		/* Bringing the CPU back does not move the events again. */
		KUNIT_EXPECT_EQ(test, ev->cpu, (int)moved);
		KUNIT_EXPECT_EQ(test, dram_cpumask(test, c), (int)moved);
	}
	sun4v_dram_model_traffic(&c->m, 3, 0x1, 5);
	KUNIT_EXPECT_EQ(test, dram_value(ev), 1005ULL + 6 * 0x40000000ULL);
	perf_event_release_kernel(ev);

	sun4v_dram_model_reset_calls(&c->m);
	msleep(20);
	KUNIT_EXPECT_EQ(test, sun4v_dram_model_calls(&c->m, GET, -1), 0UL);
	KUNIT_EXPECT_EQ(test, c->m.bad, 0UL);
	if (!offline)
		kunit_info(test, "CPU %u cannot go offline: events moved by hand",
			   cpu);
	dram_down(c);
}

/* Write a file of perf core's own group of the PMU device. */
static void dram_store_core(struct kunit *test, struct dram_ctx *c,
			    const char *name, const char *val)
{
	const struct attribute_group **g;

	for (g = c->pmu->dev->bus->dev_groups; g && *g; g++) {
		struct attribute **a;

		for (a = (*g)->attrs; *a; a++) {
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
 * More events than counters: perf core rotates them from an hrtimer of the
 * PMU's per-CPU context, which stops itself only at its next expiry, up to
 * one mux interval after the last event went away. The PMU is unregistered
 * right after its last event (as on a module unload after a multiplexed
 * perf stat) and a new one takes its place: the timer must not stay queued
 * in the freed contexts. When it does, the new PMU's timer init reports
 * "ODEBUG: init active" (the kernel log scan fails the run), or the timer
 * tree is corrupted. The interval is long so that the unregister's RCU
 * grace periods cannot hide the bug. Tests the perf core fix that cancels
 * the multiplexing hrtimers before the contexts are freed.
 */
static void dram_test_unregister_multiplexed(struct kunit *test)
{
	struct dram_ctx *c = dram_alloc(test);
	struct perf_event *ev[3];
	u64 enabled, running;
	unsigned int i, n, waiting;

	for (n = 0; n < 3; n++) {
		dram_up(test, c, SUN4V_PMU_N2, 0xf);
		dram_store_core(test, c, "perf_event_mux_interval_ms", "1000");
		/* three events, two counters on channel 1 */
		for (i = 0; i < ARRAY_SIZE(ev); i++)
			ev[i] = dram_open(test, c, dram_config(c->chip, 1, i),
					  NULL);
		msleep(20);
		waiting = 0;
		for (i = 0; i < ARRAY_SIZE(ev); i++) {
			perf_event_read_value(ev[i], &enabled, &running);
			if (running < enabled)
				waiting++;
			perf_event_release_kernel(ev[i]);
		}
		/* perf core rotates every 1000 ms: one never ran yet */
		KUNIT_EXPECT_GE(test, waiting, 1U);
		dram_down(c);
	}
}

/*
 * read() from a CPU other than the event's: every strand reaches the
 * registers, so perf core reads on the calling CPU, without an IPI, and
 * the count is exact. The reader shares the event's topology package,
 * where a kernel without PMU scopes reads locally too.
 */
static void dram_test_read_any_cpu(struct kunit *test)
{
	struct dram_ctx *c;
	struct perf_event *ev;
	unsigned int reader;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	c = dram_new(test, SUN4V_PMU_N2, 0xf);
	ev = dram_open(test, c, dram_config(c->chip, 2, 0x0), NULL);
	for_each_online_cpu(reader)
		if (reader != ev->cpu &&
		    topology_physical_package_id(reader) ==
		    topology_physical_package_id(ev->cpu))
			break;
	if (reader >= nr_cpu_ids) {
		perf_event_release_kernel(ev);
		dram_down(c);
		kunit_skip(test, "no other CPU in the package of CPU %d", ev->cpu);
	}
	KUNIT_ASSERT_LT(test, reader, BITS_PER_LONG);
	set_cpus_allowed_ptr(current, cpumask_of(reader));
	sun4v_dram_model_traffic(&c->m, 2, 0x0, 77);
	/* The poll timer may read meanwhile, on the event's CPU. */
	WRITE_ONCE(c->m.get_cpus, 0);
	KUNIT_EXPECT_EQ(test, dram_value(ev), 77ULL);
	KUNIT_EXPECT_TRUE_MSG(test, READ_ONCE(c->m.get_cpus) & BIT(reader),
			      "no GET from the reading CPU %u (CPUs %#lx)",
			      reader, READ_ONCE(c->m.get_cpus));
	set_cpus_allowed_ptr(current, cpu_possible_mask);
	perf_event_release_kernel(ev);
	dram_down(c);
}

/*
 * The counters are the PMU's, not a CPU's: perf core schedules pinned
 * groups before flexible ones only among the events of one CPU context,
 * so every event must be counted in the same one, wherever it was opened.
 * Two flexible events opened on one CPU take both counters of a channel;
 * a pinned event of that channel opened on another CPU must still count
 * (perf stat would otherwise print "<not counted>" for it).
 */
static void dram_test_one_context(struct kunit *test)
{
	struct perf_event_attr attr = { .size = sizeof(attr), .pinned = 1 };
	struct perf_event *flex[2], *pinned;
	enum perf_event_state state;
	struct dram_ctx *c;
	unsigned int a, b, i;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	c = dram_new(test, SUN4V_PMU_N2, 0xf);
	a = cpumask_first(cpu_online_mask);
	b = dram_other_cpu(a);
	for (i = 0; i < ARRAY_SIZE(flex); i++) {
		flex[i] = dram_open_on(test, c, dram_config(c->chip, 1, i), b);
		state = READ_ONCE(flex[i]->state);
		KUNIT_EXPECT_EQ(test, state, PERF_EVENT_STATE_ACTIVE);
	}
	attr.type = c->pmu->type;
	attr.config = dram_config(c->chip, 1, 0x2);
	pinned = perf_event_create_kernel_counter(&attr, a, NULL, NULL, NULL);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(pinned), "open: %ld",
			       PTR_ERR(pinned));
	KUNIT_EXPECT_EQ(test, flex[0]->cpu, pinned->cpu);
	KUNIT_EXPECT_EQ(test, flex[1]->cpu, pinned->cpu);
	state = READ_ONCE(pinned->state);
	KUNIT_EXPECT_EQ(test, state, PERF_EVENT_STATE_ACTIVE);
	sun4v_dram_model_traffic(&c->m, 1, 0x2, 123);
	KUNIT_EXPECT_EQ(test, dram_value(pinned), 123ULL);
	perf_event_release_kernel(pinned);
	for (i = 0; i < ARRAY_SIZE(flex); i++)
		perf_event_release_kernel(flex[i]);
	KUNIT_EXPECT_EQ(test, c->m.bad, 0UL);
	dram_down(c);
}

struct dram_txn_call {
	struct pmu *pmu;
	struct perf_event *ev;
};

static void dram_txn_start_fn(void *arg)
{
	struct dram_txn_call *t = arg;

	t->pmu->start_txn(t->pmu, PERF_PMU_TXN_READ);
}

static void dram_txn_read_fn(void *arg)
{
	struct dram_txn_call *t = arg;

	t->pmu->read(t->ev);
}

static void dram_txn_cancel_fn(void *arg)
{
	struct dram_txn_call *t = arg;

	t->pmu->cancel_txn(t->pmu);
}

/*
 * Two CPUs read at once: one inside a group-read transaction, the other a
 * plain read, which must read the hypervisor at once rather than wait for
 * the other CPU's commit; neither loses nor doubles a count.
 */
static void dram_test_read_two_cpus(struct kunit *test)
{
	struct dram_txn_call t;
	struct dram_ctx *c;
	unsigned int a, b;
	u64 before;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	c = dram_new(test, SUN4V_PMU_N2, 0xf);
	t.pmu = c->pmu;
	t.ev = dram_open(test, c, dram_config(c->chip, 1, 0x1), NULL);
	a = t.ev->cpu;
	b = dram_other_cpu(a);
	KUNIT_ASSERT_LT(test, b, nr_cpu_ids);
	before = dram_value(t.ev);

	sun4v_dram_model_traffic(&c->m, 1, 0x1, 40);
	smp_call_function_single(a, dram_txn_start_fn, &t, 1);
	smp_call_function_single(b, dram_txn_read_fn, &t, 1);
	KUNIT_EXPECT_EQ(test, local64_read(&t.ev->count), before + 40);
	/* The other CPU's transaction ends without reading anything twice. */
	smp_call_function_single(a, dram_txn_read_fn, &t, 1);
	smp_call_function_single(a, dram_txn_cancel_fn, &t, 1);
	sun4v_dram_model_traffic(&c->m, 1, 0x1, 2);
	KUNIT_EXPECT_EQ(test, dram_value(t.ev), before + 42);
	KUNIT_EXPECT_EQ(test, c->m.bad, 0UL);
	perf_event_release_kernel(t.ev);
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
	struct dram_ctx *c = dram_new(test, SUN4V_PMU_VF, 0x3);
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
		sun4v_dram_model_traffic(&c->m, 1, 0, 10);
		sun4v_dram_model_traffic(&c->m, 1, 1, 20);
		sun4v_dram_model_traffic(&c->m, 1, 2, 30);
		msleep(20);
	}
	/*
	 * Read on the events' CPU: the native mips guest's CPUs do not share
	 * a clock, and times taken on two of them can make running exceed
	 * enabled (seen there).
	 */
	set_cpus_allowed_ptr(current, cpumask_of(ev[0]->cpu));
	for (i = 0; i < 3; i++) {
		u64 v = perf_event_read_value(ev[i], &enabled, &running);

		KUNIT_EXPECT_GT(test, running, 0ULL);
		KUNIT_EXPECT_LT(test, running, enabled);
		/* Never more than what was injected while it ran. */
		KUNIT_EXPECT_LE(test, v, 10ULL * (i + 1) * 5);
	}
	set_cpus_allowed_ptr(current, cpu_possible_mask);
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

/*
 * N2 disabled channels (EOK/0) and VF absent nodes are not usable. An
 * absent VF node answers EINVAL under API 1.0 and ENOTSUPPORTED in the
 * 1.1 text (VF 3.2, FWARC 2007/529): both readings.
 */
static void dram_test_presence(struct kunit *test)
{
	static const unsigned long absent[] = { ST_EINVAL, ST_ENOTSUPPORTED };
	struct dram_ctx *c = dram_new(test, N2, 0x5);
	struct perf_event_attr attr = { .type = c->pmu->type };
	unsigned int i;

	attr.config = dram_config(c->chip, 1, 0);
	KUNIT_EXPECT_EQ(test, dram_open_err(c, &attr), -ENODEV);
	attr.config = dram_config(c->chip, 2, 0);
	KUNIT_EXPECT_EQ(test, dram_open_err(c, &attr), 0);
	/* Probe restored the control registers it tested. */
	KUNIT_EXPECT_EQ(test, c->m.ctl[0], 0ULL);
	dram_sysfs(test, c, NULL, "channels", "channel=0\nchannel=2\n");
	dram_down(c);

	for (i = 0; i < ARRAY_SIZE(absent); i++) {
		dram_model(c, VF, 0x30);
		c->m.absent_status = absent[i];
		dram_probe(test, c);
		attr.type = c->pmu->type;
		attr.config = dram_config(c->chip, 4, 0);
		KUNIT_EXPECT_EQ(test, dram_open_err(c, &attr), 0);
		attr.config = dram_config(c->chip, 0, 0);
		KUNIT_EXPECT_EQ(test, dram_open_err(c, &attr), -ENODEV);
		dram_sysfs(test, c, NULL, "channels",
			   "node=2,mcu=0\nnode=2,mcu=1\n");
		KUNIT_EXPECT_EQ(test, c->m.bad, 0UL);
		dram_down(c);
	}
}

/*
 * Bits 63:8 of a control register are not the guest's (the hypervisor
 * masks writes with 0xff, hcall_niagara2.s) and nothing says what reads
 * return there: zero, something always, or something once the register
 * was written. Detection must find the same channels under each reading
 * and restore what it tested.
 */
static void dram_test_detect_high_bits(struct kunit *test)
{
	static const enum sun4v_dram_model_high readings[] = {
		SUN4V_PMU_MODEL_HIGH_ZERO, SUN4V_PMU_MODEL_HIGH_ALWAYS,
		SUN4V_PMU_MODEL_HIGH_WRITTEN,
	};
	struct dram_ctx *c = dram_alloc(test);
	struct sun4v_pmu_desc desc = {
		.chip = N2, .name = dram_name(N2), .hv = &c->m.ops,
	};
	unsigned int i, ch;

	for (i = 0; i < ARRAY_SIZE(readings); i++) {
		dram_model(c, N2, 0x5);
		c->m.high = readings[i];
		c->m.ctl_high = 0xabcd00;
		c->d = sun4v_dram_pmu_probe(&desc);
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(c->d), "reading %u: %ld", i,
				       PTR_ERR(c->d));
		c->pmu = sun4v_dram_pmu_to_pmu(c->d);
		dram_sysfs(test, c, NULL, "channels", "channel=0\nchannel=2\n");
		for (ch = 0; ch < 4; ch++)
			KUNIT_EXPECT_EQ_MSG(test, c->m.ctl[ch], 0ULL,
					    "reading %u channel %u", i, ch);
		KUNIT_EXPECT_EQ(test, c->m.bad, 0UL);
		dram_down(c);
	}
}

/* What the driver must answer for each hypervisor status (literals). */
static const struct { unsigned long st; int err; } hv_errors[] = {
	{ ST_EINVAL, -ENODEV }, { ST_EBADTRAP, -EOPNOTSUPP },
	{ ST_EWOULDBLOCK, -EBUSY }, { ST_ENOACCESS, -EACCES },
	{ ST_ENOTSUPPORTED, -ENODEV }, { 99, -EIO },
};

/*
 * The outcome of a probe whose call @e (from a clean probe's call log)
 * fails with @err_of_status: a failed first read of a control register
 * with EINVAL or ENOTSUPPORTED only marks that channel absent (the other
 * present channel remains), a failed L2 control call is not fatal (the
 * node's setting is then unknown), anything else fails the probe with
 * the status' errno.
 */
static int probe_outcome(enum sun4v_pmu_chip chip,
			 const struct sun4v_dram_model_call *log,
			 unsigned int i, unsigned long st, int err)
{
	const struct sun4v_dram_model_call *e = &log[i];
	unsigned int j;
	bool first = true;

	if (chip == VF && e->reg == REG_L2)
		return 0;
	for (j = 0; j < i; j++)
		if (log[j].op == e->op && log[j].reg == e->reg)
			first = false;
	if (e->op == GET && first &&
	    (st == ST_EINVAL || st == ST_ENOTSUPPORTED))
		return 0;
	return err;
}

/*
 * Probe with each call failing in turn, with each status: exactly the
 * errno of that status (or success where the failure only hides a
 * channel), every control register holds what it held before (unless the
 * failed call was the very write restoring it), and nothing is left
 * half-registered: probing again works.
 */
static void dram_test_probe_errors(struct kunit *test)
{
	/* Channel 0 reads 0 and is tested by a write; channel 1 holds 0x21. */
	const u64 ctl1 = 0x21;
	struct dram_ctx *c = dram_alloc(test);
	struct sun4v_dram_model_call *log;
	struct sun4v_pmu_desc desc = { .hv = &c->m.ops };
	unsigned int e, i, nr_log, k[2];
	unsigned long ctl0;

	log = kunit_kcalloc(test, SUN4V_PMU_MODEL_LOG, sizeof(*log),
			    GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, log);
	for (desc.chip = N2; desc.chip <= VF; desc.chip++) {
		struct sun4v_dram_pmu *d;

		desc.name = dram_name(desc.chip);
		/* N2 3.1 / VF 3.1: channel 0's control register. */
		ctl0 = desc.chip == VF ? 2 : 1;
		sun4v_dram_model_init(&c->m, desc.chip, 0x3);
		c->m.access = false;
		d = sun4v_dram_pmu_probe(&desc);
		KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(d), -EACCES);
		if (!IS_ERR(d))
			sun4v_dram_pmu_remove(d);

		/* The calls of a clean probe, in order. */
		sun4v_dram_model_init(&c->m, desc.chip, 0x3);
		c->m.ctl[1] = ctl1;
		c->m.log_on = true;
		d = sun4v_dram_pmu_probe(&desc);
		KUNIT_ASSERT_FALSE(test, IS_ERR(d));
		sun4v_dram_pmu_remove(d);
		nr_log = c->m.nr_log;
		KUNIT_ASSERT_LT(test, nr_log, (unsigned int)SUN4V_PMU_MODEL_LOG);
		memcpy(log, c->m.log, nr_log * sizeof(*log));

		k[GET] = 0;
		k[SET] = 0;
		for (i = 0; i <= nr_log; i++) {
			enum sun4v_dram_model_op op = i < nr_log ? log[i].op : GET;
			unsigned int skip = k[op]++;

			for (e = 0; e < ARRAY_SIZE(hv_errors); e++) {
				int want = i < nr_log ?
					   probe_outcome(desc.chip, log, i,
							 hv_errors[e].st,
							 hv_errors[e].err) : 0;
				/* The write putting channel 0's 0 back. */
				bool restore = i < nr_log && log[i].op == SET &&
					       log[i].reg == ctl0 && !log[i].val;

				sun4v_dram_model_init(&c->m, desc.chip, 0x3);
				c->m.ctl[1] = ctl1;
				sun4v_dram_model_inject(&c->m, op, -1,
							hv_errors[e].st, skip, 1);
				d = sun4v_dram_pmu_probe(&desc);
				KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(d), want,
						    "chip %d call %u (%s PerfReg %lu) status %lu",
						    desc.chip, i, op == GET ? "get" : "set",
						    i < nr_log ? log[i].reg : 0UL,
						    hv_errors[e].st);
				if (!IS_ERR(d))
					sun4v_dram_pmu_remove(d);
				if (!restore)
					KUNIT_EXPECT_EQ_MSG(test, c->m.ctl[0], 0ULL,
							    "chip %d call %u status %lu",
							    desc.chip, i, hv_errors[e].st);
				KUNIT_EXPECT_EQ(test, c->m.ctl[1], ctl1);
				KUNIT_EXPECT_EQ(test, c->m.bad, 0UL);

				/* Nothing half-registered: probing again works. */
				sun4v_dram_model_init(&c->m, desc.chip, 0x3);
				d = sun4v_dram_pmu_probe(&desc);
				KUNIT_ASSERT_FALSE(test, IS_ERR(d));
				sun4v_dram_pmu_remove(d);
			}
		}
	}
}

/* Hypervisor errors during read, stop, start and add. */
static void dram_test_runtime_errors(struct kunit *test)
{
	struct dram_ctx *c = dram_new(test, SUN4V_PMU_VF, 0xff);
	/* VF 3.1: NODE2_MCU1_PCR and NODE2_MCU1_PIC (channel 5) */
	const unsigned long ctl = 12, pic = 13;
	/* mem_writes: its poll ceiling is the longest, 671 ms */
	u64 cfg = dram_config(c->chip, 5, 0x1);
	struct perf_event *ev;
	u64 enabled, running;

	/*
	 * The poll reads the same register as the calls under test, and under
	 * a loaded TCG host it can come anywhere: each error below lasts until
	 * it is cleared, so a poll meanwhile fails as well and the outcome
	 * does not depend on when it runs.
	 */
	dram_store(test, c, "poll_period_ms", "671");
	ev = dram_open(test, c, cfg, NULL);
	sun4v_dram_model_traffic(&c->m, 5, 0x1, 200);
	KUNIT_EXPECT_EQ(test, dram_value(ev), 200ULL);

	/*
	 * read: failed reads change nothing, however long they go on (several
	 * multiplexing intervals here); the next good one catches up.
	 */
	sun4v_dram_model_inject(&c->m, GET, pic, ST_EWOULDBLOCK, 0, UINT_MAX);
	sun4v_dram_model_traffic(&c->m, 5, 0x1, 300);
	KUNIT_EXPECT_EQ(test, dram_value(ev), 200ULL);
	msleep(4 * ev->pmu->hrtimer_interval_ms);
	sun4v_dram_model_inject(&c->m, GET, pic, ST_EOK, 0, 0);
	KUNIT_EXPECT_EQ(test, dram_value(ev), 500ULL);

	/* stop: the final read fails; nothing is invented. */
	sun4v_dram_model_inject(&c->m, GET, pic, ST_ENOACCESS, 0, UINT_MAX);
	sun4v_dram_model_traffic(&c->m, 5, 0x1, 400);
	perf_event_disable(ev);
	sun4v_dram_model_inject(&c->m, GET, pic, ST_EOK, 0, 0);
	KUNIT_EXPECT_EQ(test, dram_value(ev), 500ULL);

	/*
	 * start: the baseline read fails, and so does every read until the
	 * error clears; the first good read sets the baseline, so what came
	 * before it is not counted.
	 */
	sun4v_dram_model_inject(&c->m, GET, pic, ST_EINVAL, 0, UINT_MAX);
	perf_event_enable(ev);
	sun4v_dram_model_traffic(&c->m, 5, 0x1, 600);
	KUNIT_EXPECT_EQ(test, dram_value(ev), 500ULL);
	sun4v_dram_model_inject(&c->m, GET, pic, ST_EOK, 0, 0);
	KUNIT_EXPECT_EQ(test, dram_value(ev), 500ULL);
	sun4v_dram_model_traffic(&c->m, 5, 0x1, 700);
	KUNIT_EXPECT_EQ(test, dram_value(ev), 1200ULL);
	perf_event_release_kernel(ev);
	KUNIT_EXPECT_EQ(test, c->m.bad, 0UL);
	dram_down(c);

	/*
	 * add, on a PMU of its own, last: a failed add leaves perf's "rotate"
	 * flag set, on 6.1 even across the disable and enable below (its
	 * ctx_sched_out() returns early while no event is active), and the
	 * next multiplexing tick then stops and starts the event once. Inside
	 * a read error above, that start could not take its baseline and the
	 * window's counts would rightly be dropped.
	 *
	 * The control write fails; the event does not count. (perf retries a
	 * failed add at its next rotation, so the error lasts.)
	 */
	dram_up(test, c, SUN4V_PMU_VF, 0xff);
	sun4v_dram_model_inject(&c->m, SET, ctl, ST_ENOACCESS, 0, UINT_MAX);
	ev = dram_open(test, c, cfg, NULL);
	sun4v_dram_model_traffic(&c->m, 5, 0x1, 100);
	KUNIT_EXPECT_EQ(test, perf_event_read_value(ev, &enabled, &running), 0ULL);
	KUNIT_EXPECT_EQ(test, running, 0ULL);
	sun4v_dram_model_inject(&c->m, SET, ctl, ST_EOK, 0, 0);
	perf_event_disable(ev);
	perf_event_enable(ev);
	sun4v_dram_model_traffic(&c->m, 5, 0x1, 200);
	KUNIT_EXPECT_EQ(test, dram_value(ev), 200ULL);
	perf_event_release_kernel(ev);
	KUNIT_EXPECT_EQ(test, c->m.bad, 0UL);
	dram_down(c);
}

static void dram_test_errno(struct kunit *test)
{
	unsigned int i;

	KUNIT_EXPECT_EQ(test, sun4v_pmu_errno(ST_EOK), 0);
	for (i = 0; i < ARRAY_SIZE(hv_errors); i++)
		KUNIT_EXPECT_EQ(test, sun4v_pmu_errno(hv_errors[i].st),
				hv_errors[i].err);
	KUNIT_EXPECT_STREQ(test, sun4v_pmu_status_name(ST_ENOACCESS),
			   "ENOACCESS");
	KUNIT_EXPECT_STREQ(test, sun4v_pmu_status_name(ST_ENOTSUPPORTED),
			   "ENOTSUPPORTED");
}

/*
 * The API documents' numbers, typed in: every DRAM register's PerfReg#
 * (N2 3.1, VF 3.1), function and API group numbers (N2 3.2, VF 3.2) and
 * the status codes (sun4v core API), against the driver's header.
 */
static const struct {
	enum sun4v_pmu_chip chip;
	unsigned int chan;	/* N2 channel; VF node * 2 + MCU */
	unsigned long ctl, pic;
} spec_regs[] = {
	{ N2, 0, 1, 2 }, { N2, 1, 3, 4 }, { N2, 2, 5, 6 }, { N2, 3, 7, 8 },
	{ VF, 0, 2, 3 }, { VF, 1, 4, 5 },	/* NODE0_MCU0, NODE0_MCU1 */
	{ VF, 2, 6, 7 }, { VF, 3, 8, 9 },	/* NODE1_MCU0, NODE1_MCU1 */
	{ VF, 4, 10, 11 }, { VF, 5, 12, 13 },	/* NODE2_MCU0, NODE2_MCU1 */
	{ VF, 6, 14, 15 }, { VF, 7, 16, 17 },	/* NODE3_MCU0, NODE3_MCU1 */
};

static void dram_test_spec_numbers(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(spec_regs); i++) {
		KUNIT_EXPECT_EQ_MSG(test, sun4v_pmu_ctl_reg(spec_regs[i].chip,
							    spec_regs[i].chan),
				    spec_regs[i].ctl, "row %u", i);
		KUNIT_EXPECT_EQ_MSG(test, sun4v_pmu_pic_reg(spec_regs[i].chip,
							    spec_regs[i].chan),
				    spec_regs[i].pic, "row %u", i);
	}
	KUNIT_EXPECT_EQ(test, HV_FAST_N2_GET_PERFREG, 0x104);
	KUNIT_EXPECT_EQ(test, HV_FAST_N2_SET_PERFREG, 0x105);
	KUNIT_EXPECT_EQ(test, HV_GRP_N2_CPU, 0x202);
	KUNIT_EXPECT_EQ(test, HV_FAST_VF_GET_PERFREG, 0x106);
	KUNIT_EXPECT_EQ(test, HV_FAST_VF_SET_PERFREG, 0x107);
	KUNIT_EXPECT_EQ(test, HV_GRP_VF_CPU, 0x205);
	KUNIT_EXPECT_EQ(test, SUN4V_PMU_REG_PCR, REG_PCR);
	KUNIT_EXPECT_EQ(test, SUN4V_PMU_VF_REG_L2CTL, REG_L2);
	KUNIT_EXPECT_EQ(test, SUN4V_PMU_N2_NR_REGS, 9);
	KUNIT_EXPECT_EQ(test, SUN4V_PMU_VF_NR_REGS, 18);
	KUNIT_EXPECT_EQ(test, HV_EOK, ST_EOK);
	KUNIT_EXPECT_EQ(test, HV_EINVAL, ST_EINVAL);
	KUNIT_EXPECT_EQ(test, HV_EBADTRAP, ST_EBADTRAP);
	KUNIT_EXPECT_EQ(test, HV_EWOULDBLOCK, ST_EWOULDBLOCK);
	KUNIT_EXPECT_EQ(test, HV_ENOACCESS, ST_ENOACCESS);
	KUNIT_EXPECT_EQ(test, HV_ENOTSUPPORTED, ST_ENOTSUPPORTED);
	KUNIT_EXPECT_EQ(test, PCR_N2_HTRACE, PCR_HT);
}

/*
 * The driver's view of each register, seen through what it does: the
 * control register it writes for an event on each channel, the counter
 * register it reads, and where in them the two counters are
 * (illumos niagara2regs.h: PIC0 selects in bits 7:4 and counts in bits
 * 62:32, PIC1 in 3:0 and 30:0; bits 63 and 31 are neither).
 */
static void dram_test_spec_registers(struct kunit *test)
{
	struct dram_ctx *c = dram_alloc(test);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(spec_regs); i++) {
		unsigned long ctl = spec_regs[i].ctl, pic = spec_regs[i].pic;
		unsigned int ch = spec_regs[i].chan;
		struct perf_event *a, *b;
		u64 v;

		dram_up(test, c, spec_regs[i].chip,
			all_present(spec_regs[i].chip));
		sun4v_dram_model_reset_calls(&c->m);
		a = dram_open(test, c, dram_config(c->chip, ch, 0x1), NULL);
		b = dram_open(test, c, dram_config(c->chip, ch, 0x2), NULL);
		KUNIT_EXPECT_EQ_MSG(test, sun4v_dram_model_calls(&c->m, SET, ctl),
				    2UL, "row %u", i);
		KUNIT_EXPECT_EQ_MSG(test, sun4v_dram_model_calls(&c->m, SET, -1),
				    2UL, "row %u", i);
		KUNIT_EXPECT_GE_MSG(test, sun4v_dram_model_calls(&c->m, GET, pic),
				    2UL, "row %u", i);
		KUNIT_EXPECT_EQ_MSG(test, sun4v_dram_model_calls(&c->m, GET, -1),
				    sun4v_dram_model_calls(&c->m, GET, pic),
				    "row %u", i);
		/* The control register holds PIC0 = 1, PIC1 = 2. */
		KUNIT_EXPECT_EQ(test, c->m.ops.get_perfreg(&c->m, ctl, &v),
				(unsigned long)ST_EOK);
		KUNIT_EXPECT_EQ_MSG(test, v, 0x12ULL, "row %u", i);
		/* Counter register: PIC0 3, PIC1 4, bits 63 and 31 set. */
		v = 0x8000000380000004ULL;
		KUNIT_EXPECT_EQ(test, c->m.ops.set_perfreg(&c->m, pic, v),
				(unsigned long)ST_EOK);
		KUNIT_EXPECT_EQ_MSG(test, dram_value(a), 3ULL, "row %u", i);
		KUNIT_EXPECT_EQ_MSG(test, dram_value(b), 4ULL, "row %u", i);
		perf_event_release_kernel(a);
		perf_event_release_kernel(b);
		KUNIT_EXPECT_EQ(test, c->m.bad, 0UL);
		dram_down(c);
	}
}

/*
 * model: the model's view against the same literals: what each PerfReg#
 * names, and that traffic selected in bits 7:4 and 3:0 of a control
 * register shows in bits 62:32 and 30:0 of the counter register.
 */
static void model_test_spec_registers(struct kunit *test)
{
	struct sun4v_dram_model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	unsigned int i;
	bool counter;
	int ch;
	u64 v;

	KUNIT_ASSERT_NOT_NULL(test, m);
	for (i = 0; i < ARRAY_SIZE(spec_regs); i++) {
		enum sun4v_pmu_chip chip = spec_regs[i].chip;

		ch = sun4v_dram_model_decode(chip, spec_regs[i].ctl, &counter);
		KUNIT_EXPECT_EQ(test, ch, (int)spec_regs[i].chan);
		KUNIT_EXPECT_FALSE(test, counter);
		ch = sun4v_dram_model_decode(chip, spec_regs[i].pic, &counter);
		KUNIT_EXPECT_EQ(test, ch, (int)spec_regs[i].chan);
		KUNIT_EXPECT_TRUE(test, counter);

		sun4v_dram_model_init(m, chip, all_present(chip));
		KUNIT_EXPECT_EQ(test, m->ops.set_perfreg(m, spec_regs[i].ctl, 0x47),
				(unsigned long)ST_EOK);
		sun4v_dram_model_traffic(m, spec_regs[i].chan, 0x4, 5);
		sun4v_dram_model_traffic(m, spec_regs[i].chan, 0x7, 6);
		KUNIT_EXPECT_EQ(test, m->ops.get_perfreg(m, spec_regs[i].pic, &v),
				(unsigned long)ST_EOK);
		KUNIT_EXPECT_EQ_MSG(test, v, 0x0000000500000006ULL, "row %u", i);
		/* 31-bit counters wrap into neither bit 63 nor bit 31. */
		sun4v_dram_model_traffic(m, spec_regs[i].chan, 0x4, 0x7ffffffb);
		sun4v_dram_model_traffic(m, spec_regs[i].chan, 0x7, 0x7ffffffa);
		KUNIT_EXPECT_EQ(test, m->ops.get_perfreg(m, spec_regs[i].pic, &v),
				(unsigned long)ST_EOK);
		KUNIT_EXPECT_EQ_MSG(test, v, 0ULL, "row %u", i);
		KUNIT_EXPECT_EQ(test, m->bad, 0UL);
	}
	/* Beyond the tables: EINVAL (N2 3.2.1, VF 3.2.1). */
	KUNIT_EXPECT_EQ(test, sun4v_dram_model_decode(N2, 9, &counter), -EINVAL);
	KUNIT_EXPECT_EQ(test, sun4v_dram_model_decode(VF, 18, &counter), -EINVAL);
	sun4v_dram_model_init(m, VF, 0xff);
	KUNIT_EXPECT_EQ(test, m->ops.get_perfreg(m, 18, &v), (unsigned long)ST_EINVAL);
	/* Absent node: EINVAL under API 1.0, ENOTSUPPORTED as the option. */
	sun4v_dram_model_init(m, VF, 0x03);
	KUNIT_EXPECT_EQ(test, m->ops.get_perfreg(m, 6, &v), (unsigned long)ST_EINVAL);
	m->absent_status = ST_ENOTSUPPORTED;
	KUNIT_EXPECT_EQ(test, m->ops.get_perfreg(m, 6, &v),
			(unsigned long)ST_ENOTSUPPORTED);
	/* No perfctraccess: ENOACCESS for every register. */
	m->access = false;
	KUNIT_EXPECT_EQ(test, m->ops.get_perfreg(m, 2, &v), (unsigned long)ST_ENOACCESS);
	KUNIT_EXPECT_EQ(test, m->ops.set_perfreg(m, REG_PCR, 0), (unsigned long)ST_ENOACCESS);
	/* No perfctrhtaccess: ENOACCESS for a PCR write with HT only. */
	m->access = true;
	m->ht_access = false;
	KUNIT_EXPECT_EQ(test, m->ops.set_perfreg(m, REG_PCR, PCR_HT),
			(unsigned long)ST_ENOACCESS);
	KUNIT_EXPECT_EQ(test, m->ops.set_perfreg(m, REG_PCR, 0x6), (unsigned long)ST_EOK);
}

static void dram_test_add_keeps_other_half(struct kunit *test)
{
	static const enum sun4v_dram_model_ctl_effect effects[] = {
		SUN4V_PMU_MODEL_CTL_KEEP, SUN4V_PMU_MODEL_CTL_CLEAR,
		SUN4V_PMU_MODEL_CTL_PERTURB,
	};
	struct dram_ctx *c = dram_alloc(test);
	struct perf_event *a, *b;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(effects); i++) {
		dram_model(c, VF, 0xff);
		c->m.ctl_effect = effects[i];
		dram_probe(test, c);
		dram_store(test, c, "poll_period_ms", "5");
		/* Both halves select event 0 at reset: no write for a. */
		a = dram_open(test, c, dram_config(VF, 3, 0x0), NULL);
		sun4v_dram_model_traffic(&c->m, 3, 0x0, 1000);
		msleep(20);	/* a poll may or may not have folded it */
		sun4v_dram_model_traffic(&c->m, 3, 0x0, 30);
		b = dram_open(test, c, dram_config(VF, 3, 0x1), NULL);
		sun4v_dram_model_traffic(&c->m, 3, 0x0, 500);
		sun4v_dram_model_traffic(&c->m, 3, 0x1, 70);
		KUNIT_EXPECT_EQ_MSG(test, dram_value(a), 1530ULL, "effect %u", i);
		KUNIT_EXPECT_EQ_MSG(test, dram_value(b), 70ULL, "effect %u", i);
		perf_event_release_kernel(b);
		perf_event_release_kernel(a);
		KUNIT_EXPECT_EQ(test, c->m.bad, 0UL);
		dram_down(c);
	}
}

/*
 * Adding an event that needs a new event select while the other half's
 * counter cannot be read: the control write would have to take a new
 * baseline for the other half and drop its count since its last read, so
 * the add is refused instead and perf tries it again.
 *
 * Installing b reschedules a first (perf core): a's stop reads the counter
 * register, its start reads it again, then b's add reads it to fold a.
 * That third read fails, with 300 of a's events arriving just before it.
 */
/*
 * From the model's log: how many writes of control register @ctl follow
 * the failed read of counter register @pic before the next good read of
 * @pic (the add that saw the failure must not write; a retry reads
 * first). -1 if the log has no failed read of @pic.
 */
static int dram_add_wrote_after_failure(struct sun4v_dram_model *m,
					unsigned long ctl, unsigned long pic)
{
	unsigned int i, f;
	int writes = 0;

	for (f = 0; f < m->nr_log; f++)
		if (m->log[f].op == GET && m->log[f].reg == pic &&
		    m->log[f].status)
			break;
	if (f == m->nr_log)
		return -1;
	for (i = f + 1; i < m->nr_log; i++) {
		if (m->log[i].op == GET && m->log[i].reg == pic &&
		    !m->log[i].status)
			break;
		if (m->log[i].op == SET && m->log[i].reg == ctl)
			writes++;
	}
	return writes;
}

static void dram_test_add_read_error(struct kunit *test)
{
	struct dram_ctx *c = dram_new(test, VF, 0xff);
	/* VF 3.1: NODE1_MCU1_PCR and NODE1_MCU1_PIC (channel 3) */
	const unsigned long ctl = 8, pic = 9;
	struct perf_event *a, *b;
	unsigned long writes;
	unsigned int i;

	/* The poll reads that register too: as seldom as allowed. */
	dram_store(test, c, "poll_period_ms", "671");
	/* Both halves select event 0 at reset: no write for a. */
	a = dram_open(test, c, dram_config(VF, 3, 0x0), NULL);
	sun4v_dram_model_traffic(&c->m, 3, 0x0, 1000);
	KUNIT_EXPECT_EQ(test, dram_value(a), 1000ULL);

	/*
	 * a's start arms the poll 671 ms ahead: none can come between here
	 * and b's install, which runs with interrupts off on the CPU of the
	 * pinned poll timer.
	 */
	perf_event_disable(a);
	perf_event_enable(a);
	sun4v_dram_model_inject_traffic(&c->m, 3, 0x0, 300);
	sun4v_dram_model_inject(&c->m, GET, pic, ST_EWOULDBLOCK, 2, 1);
	writes = c->m.calls[SET][ctl];
	c->m.nr_log = 0;
	c->m.log_on = true;
	b = dram_open(test, c, dram_config(VF, 3, 0x1), NULL);
	KUNIT_EXPECT_EQ(test, c->m.inj_count, 0U);
	KUNIT_EXPECT_EQ(test, dram_value(a), 1300ULL);

	/*
	 * perf retries b at a multiplexing tick, which can come at any time
	 * from here (4 ms): whether the failed add wrote the control
	 * register is read from the model's log of the calls, not from a
	 * count taken later. Then both count exactly.
	 */
	for (i = 0; i < 2000 && READ_ONCE(b->state) != PERF_EVENT_STATE_ACTIVE;
	     i++)
		usleep_range(1000, 2000);
	KUNIT_ASSERT_EQ(test, READ_ONCE(b->state), PERF_EVENT_STATE_ACTIVE);
	c->m.log_on = false;
	KUNIT_EXPECT_EQ(test, dram_add_wrote_after_failure(&c->m, ctl, pic), 0);
	KUNIT_EXPECT_EQ(test, c->m.calls[SET][ctl], writes + 1);
	sun4v_dram_model_traffic(&c->m, 3, 0x0, 30);
	sun4v_dram_model_traffic(&c->m, 3, 0x1, 70);
	KUNIT_EXPECT_EQ(test, dram_value(a), 1330ULL);
	KUNIT_EXPECT_EQ(test, dram_value(b), 70ULL);
	perf_event_release_kernel(b);
	perf_event_release_kernel(a);
	KUNIT_EXPECT_EQ(test, c->m.bad, 0UL);
	dram_down(c);
}

/*
 * The poll period has a ceiling derived from each event's worst-case
 * rate: 671 ms for the transaction events, 20 ms while a queue-latency
 * event counts (it may add its queue's occupancy at every clock). A
 * setting above 671 ms is refused.
 */
static void dram_test_poll_ceiling(struct kunit *test)
{
	struct dram_ctx *c = dram_new(test, N2, 0xf);
	struct perf_event *ev;
	unsigned int i;

	KUNIT_EXPECT_EQ(test, dram_store_ret(test, c, "poll_period_ms", "1000"),
			(ssize_t)-EINVAL);
	KUNIT_EXPECT_EQ(test, dram_store_ret(test, c, "poll_period_ms", "672"),
			(ssize_t)-EINVAL);
	dram_store(test, c, "poll_period_ms", "671");
	dram_sysfs(test, c, NULL, "poll_period_ms", "671\n");

	/*
	 * rd_queue_latency: nearly 2^31 every 100 ms. Only a poll at least
	 * that often sees every wrap; no read is made in between.
	 */
	ev = dram_open(test, c, dram_config(N2, 2, 0x4), NULL);
	for (i = 0; i < 5; i++) {
		sun4v_dram_model_traffic(&c->m, 2, 0x4, 0x7fff0000);
		/*
		 * The poll after each injection comes within the 20 ms
		 * ceiling, not the 671 ms set: 300 ms leaves a loaded host
		 * 15 periods of slack and still tells the two apart.
		 * PerfReg 6: N2 3.1, DRAM Performance Counter register 2.
		 */
		KUNIT_EXPECT_LT(test, dram_wait_poll(test, c, 6), 300U);
	}
	KUNIT_EXPECT_EQ(test, dram_value(ev), 5 * 0x7fff0000ULL);
	perf_event_release_kernel(ev);

	/* Nothing counts: no timer, no call. */
	sun4v_dram_model_reset_calls(&c->m);
	msleep(50);
	KUNIT_EXPECT_EQ(test, sun4v_dram_model_calls(&c->m, GET, -1), 0UL);
	dram_down(c);
}

/*
 * Only the listed events (N2 and VF: 0x0-0x2, 0x4-0x7); 0x3
 * (bank_busy_stalls, T1 only) and 0x8-0xf are refused.
 */
static void dram_test_unlisted_events(struct kunit *test)
{
	struct dram_ctx *c = dram_alloc(test);
	enum sun4v_pmu_chip chip;
	unsigned int code;

	for (chip = N2; chip <= VF; chip++) {
		dram_up(test, c, chip, all_present(chip));
		for (code = 0; code < 16; code++) {
			struct perf_event_attr attr = {
				.type = c->pmu->type,
				.config = dram_config(chip, 1, code),
			};
			bool listed = code <= 2 || (code >= 4 && code <= 7);

			KUNIT_EXPECT_EQ_MSG(test, dram_open_err(c, &attr),
					    listed ? 0 : -EINVAL,
					    "chip %d event %#x", chip, code);
		}
		dram_down(c);
	}
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
	if ((cfg & ~0x70fULL) || attr->config1 || attr->config2)
		return -EINVAL;
	/* N2/VF events: 0x0-0x2 and 0x4-0x7 (illumos niagara_perfctr.c) */
	if ((cfg & 0xf) == 0x3 || (cfg & 0xf) > 0x7)
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
	struct dram_ctx *c = dram_new(test, SUN4V_PMU_VF, 0x0f);
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
		cond_resched();
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
	struct dram_ctx *n2 = dram_new(test, SUN4V_PMU_N2, 0xf);
	struct dram_ctx *vf = dram_new(test, SUN4V_PMU_VF, 0xff);
	struct perf_event *lead = fake_event(test, n2->pmu, 0, NULL);
	struct perf_event *e;

	e = fake_event(test, vf->pmu, 0, lead);
	KUNIT_EXPECT_EQ(test, fake_init(e), -EINVAL);
	e = fake_event(test, n2->pmu, 0, lead);
	KUNIT_EXPECT_EQ(test, fake_init(e), 0);
	dram_down(vf);
	dram_down(n2);
}

static struct kunit_case dram_cases[] = {
	KUNIT_CASE(dram_test_spec_numbers),
	KUNIT_CASE(dram_test_spec_registers),
	KUNIT_CASE(model_test_spec_registers),
	KUNIT_CASE(dram_test_sysfs),
	KUNIT_CASE(dram_test_sysfs_abi),
	KUNIT_CASE(dram_test_tables),
	KUNIT_CASE(dram_test_every_event),
	KUNIT_CASE(dram_test_unlisted_events),
	KUNIT_CASE(dram_test_wraps),
	KUNIT_CASE(dram_test_poll),
	KUNIT_CASE(dram_test_poll_ceiling),
	KUNIT_CASE(dram_test_hotplug),
	KUNIT_CASE(dram_test_read_any_cpu),
	KUNIT_CASE(dram_test_read_two_cpus),
	KUNIT_CASE(dram_test_one_context),
	KUNIT_CASE(dram_test_unregister_multiplexed),
	KUNIT_CASE(dram_test_group_read),
	KUNIT_CASE(dram_test_scheduling),
	KUNIT_CASE(dram_test_add_keeps_other_half),
	KUNIT_CASE(dram_test_add_read_error),
	KUNIT_CASE(dram_test_presence),
	KUNIT_CASE(dram_test_detect_high_bits),
	KUNIT_CASE(dram_test_probe_errors),
	KUNIT_CASE(dram_test_runtime_errors),
	KUNIT_CASE(dram_test_errno),
	KUNIT_CASE(dram_test_random),
	KUNIT_CASE(dram_test_mixed_group),
	{}
};

static struct kunit_suite dram_suite = {
	.name = "sun4v_dram_pmu",
	.test_cases = dram_cases,
};

kunit_test_suite(dram_suite);

MODULE_DESCRIPTION("KUnit tests of the sun4v DRAM PMUs");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_LICENSE("GPL");
