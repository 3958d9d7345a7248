// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the uncore PMU helper: counter folding and the designated
 * CPU of uncore PMUs (the event encoding is tested by pmu_format_kunit.c).
 */

#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/perf/pmu_uncore.h>
#include <linux/random.h>
#include <linux/slab.h>

static void pmu_uncore_test_fold(struct kunit *test)
{
	struct perf_event *ev = kunit_kzalloc(test, sizeof(*ev), GFP_KERNEL);
	u64 raw = 0x7fffff00, total = 0;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, ev);
	local64_set(&ev->hw.prev_count, raw);
	/* 31-bit counter: 3000 steps of 0x3000_0001 wrap it over 1000 times */
	for (i = 0; i < 3000; i++) {
		raw = (raw + 0x30000001) & 0x7fffffff;
		total += 0x30000001;
		KUNIT_ASSERT_EQ(test, pmu_counter_fold(ev, raw, 31),
				0x30000001ULL);
	}
	KUNIT_EXPECT_EQ(test, (u64)local64_read(&ev->count), total);
	/* 32 and 64 bits */
	local64_set(&ev->count, 0);
	local64_set(&ev->hw.prev_count, 0xfffffffe);
	KUNIT_EXPECT_EQ(test, pmu_counter_fold(ev, 3, 32), 5ULL);
	local64_set(&ev->hw.prev_count, ~0ULL);
	KUNIT_EXPECT_EQ(test, pmu_counter_fold(ev, 1, 64), 2ULL);
	KUNIT_EXPECT_EQ(test, (u64)local64_read(&ev->count), 7ULL);
}

/*
 * A minimal uncore PMU counting a variable, to drive the uncore helper; with
 * @slots set, it has that many counters and refuses more (perf multiplexes).
 */
static struct {
	struct pmu_uncore uncore;
	u64 value;
	int migrations;
	unsigned int slots, used;
} dummy;

static int dummy_event_init(struct perf_event *event)
{
	return pmu_uncore_event_init(&dummy.uncore, event);
}

static void dummy_read(struct perf_event *event)
{
	pmu_counter_fold(event, READ_ONCE(dummy.value), 64);
}

static void dummy_start(struct perf_event *event, int flags)
{
	local64_set(&event->hw.prev_count, READ_ONCE(dummy.value));
}

static void dummy_stop(struct perf_event *event, int flags)
{
	dummy_read(event);
}

static int dummy_add(struct perf_event *event, int flags)
{
	if (dummy.slots && dummy.used == dummy.slots)
		return -EAGAIN;
	dummy.used++;
	if (flags & PERF_EF_START)
		dummy_start(event, flags);
	return 0;
}

static void dummy_del(struct perf_event *event, int flags)
{
	dummy_stop(event, flags);
	dummy.used--;
}

static void dummy_migrate(struct pmu_uncore *u, unsigned int from,
			  unsigned int to)
{
	dummy.migrations++;
}

/*
 * What the PMU's designated CPU was while perf_pmu_register() ran: sysfs
 * asks is_visible() when perf core adds the PMU's device, before the
 * PMU's per-CPU contexts exist.
 */
static unsigned int cpu_while_registering;

static ssize_t dummy_probe_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", cpu_while_registering);
}
static DEVICE_ATTR_RO(dummy_probe);

static umode_t dummy_probe_visible(struct kobject *kobj, struct attribute *a,
				   int n)
{
	cpu_while_registering = READ_ONCE(dummy.uncore.cpu);
	return a->mode;
}

static struct attribute *dummy_probe_attrs[] = {
	&dev_attr_dummy_probe.attr,
	NULL,
};

static const struct attribute_group dummy_probe_group = {
	.attrs = dummy_probe_attrs,
	.is_visible = dummy_probe_visible,
};

static const struct attribute_group *dummy_groups[] = {
	&pmu_uncore_cpumask_group,
	&dummy_probe_group,
	NULL,
};

static int dummy_register_mux(unsigned int slots, int mux_ms)
{
	memset(&dummy, 0, sizeof(dummy));
	dummy.slots = slots;
	dummy.uncore.pmu = (struct pmu) {
		.module = THIS_MODULE,
		.task_ctx_nr = perf_invalid_context,
		.event_init = dummy_event_init,
		.add = dummy_add,
		.del = dummy_del,
		.start = dummy_start,
		.stop = dummy_stop,
		.read = dummy_read,
		.attr_groups = dummy_groups,
		.capabilities = PERF_PMU_CAP_NO_EXCLUDE,
		.hrtimer_interval_ms = mux_ms,
	};
	dummy.uncore.migrate = dummy_migrate;
	return pmu_uncore_register(&dummy.uncore, "pmu_uncore_test_uncore");
}

static int dummy_register(void)
{
	return dummy_register_mux(0, 0);
}

static char *cpumask_file(struct kunit *test)
{
	struct device *dev = dummy.uncore.pmu.dev;
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	struct attribute *a = pmu_uncore_cpumask_group.attrs[0];

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, dev);
	KUNIT_EXPECT_STREQ(test, a->name, "cpumask");
	container_of(a, struct device_attribute, attr)->show(dev, NULL, buf);
	return buf;
}

static struct perf_event *dummy_open(struct kunit *test, int cpu,
				     u64 sample_period)
{
	struct perf_event_attr attr = {
		.type = dummy.uncore.pmu.type,
		.size = sizeof(attr),
		.sample_period = sample_period,
	};

	return perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
}

static void pmu_uncore_test_uncore(struct kunit *test)
{
	unsigned int cpu = cpumask_last(cpu_online_mask);
	struct perf_event *ev;
	u64 enabled, running;
	char want[16];

	/* the designated CPU is the one that registers the PMU */
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cpu)), 0);
	KUNIT_ASSERT_EQ(test, dummy_register(), 0);
	snprintf(want, sizeof(want), "%u\n", cpu);
	KUNIT_EXPECT_STREQ(test, cpumask_file(test), want);

	/* sampling is refused; any CPU is redirected to the designated one */
	ev = dummy_open(test, 0, 1000);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(ev), -EOPNOTSUPP);
	ev = dummy_open(test, num_online_cpus() - 1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	KUNIT_EXPECT_EQ(test, ev->cpu, (int)dummy.uncore.cpu);

	WRITE_ONCE(dummy.value, 12345);
	KUNIT_EXPECT_EQ(test, perf_event_read_value(ev, &enabled, &running),
			12345ULL);
	perf_event_release_kernel(ev);
	pmu_uncore_unregister(&dummy.uncore);
}

static void pmu_uncore_test_uncore_hotplug(struct kunit *test)
{
	unsigned int first, moved;
	struct perf_event *ev;
	u64 enabled, running;
	char want[16];
	int ret;

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU) || num_online_cpus() < 2)
		kunit_skip(test, "needs CPU hotplug and 2 CPUs");
	KUNIT_ASSERT_EQ(test, dummy_register(), 0);
	/* x86 cannot offline CPU 0 by default: designate another CPU first */
	first = cpumask_next(0, cpu_online_mask);
	dummy.uncore.cpu = first;
	ev = dummy_open(test, first, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	WRITE_ONCE(dummy.value, 100);

	ret = remove_cpu(first);
	if (ret) {
		perf_event_release_kernel(ev);
		pmu_uncore_unregister(&dummy.uncore);
		kunit_skip(test, "CPU %u cannot go offline (%d)", first, ret);
	}
	moved = dummy.uncore.cpu;
	KUNIT_EXPECT_NE(test, moved, first);
	KUNIT_EXPECT_EQ(test, dummy.migrations, 1);
	KUNIT_EXPECT_EQ(test, ev->cpu, (int)moved);
	snprintf(want, sizeof(want), "%u\n", moved);
	KUNIT_EXPECT_STREQ(test, cpumask_file(test), want);

	/* counting went on across the move: no count lost or invented */
	WRITE_ONCE(dummy.value, 250);
	KUNIT_EXPECT_EQ(test, perf_event_read_value(ev, &enabled, &running),
			250ULL);
	KUNIT_EXPECT_EQ(test, add_cpu(first), 0);
	/* bringing the old CPU back does not move the events again */
	KUNIT_EXPECT_EQ(test, dummy.uncore.cpu, moved);
	perf_event_release_kernel(ev);
	pmu_uncore_unregister(&dummy.uncore);
}

/*
 * The CPU hotplug callback migrates the designated CPU's perf contexts, so
 * no CPU may be designated while they do not exist: during registration
 * (before perf_pmu_register() has built them) and from unregistration on
 * (perf_pmu_unregister() frees them). A stress test, loading and
 * unloading a module with uncore PMUs while the designated CPU went offline,
 * saw KASAN report a use-after-free in perf_pmu_migrate_context() from the callback.
 */
static void pmu_uncore_test_uncore_designated_only_while_registered(struct kunit *test)
{
	unsigned int cpu = cpumask_first(cpu_online_mask);

	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cpu)), 0);
	cpu_while_registering = 0;
	KUNIT_ASSERT_EQ(test, dummy_register(), 0);
	KUNIT_EXPECT_GE(test, cpu_while_registering, nr_cpu_ids);
	KUNIT_EXPECT_EQ(test, dummy.uncore.cpu, cpu);
	pmu_uncore_unregister(&dummy.uncore);
	KUNIT_EXPECT_GE(test, dummy.uncore.cpu, nr_cpu_ids);
}

/*
 * More events than counters: perf core rotates them from an hrtimer of the
 * PMU's per-CPU context, which stops itself only at its next expiry, up to
 * one mux interval (sysfs perf_event_mux_interval_ms) after the last event
 * went away. The PMU is unregistered right after its last event (as on a
 * module unload after a multiplexed perf stat) and a new one takes its
 * place: the timer must not stay queued in the freed contexts. When it does,
 * the new PMU's timer init reports "ODEBUG: init active" (the kernel log
 * scan fails the run), or the timer tree is corrupted. The interval is long
 * so that the unregister's RCU grace periods cannot hide the bug. Tests
 * patch 0002 of each kernel series.
 */
static void pmu_uncore_test_unregister_multiplexed(struct kunit *test)
{
	struct perf_event *ev[3];
	u64 enabled, running;
	unsigned int i, n, waiting;

	for (n = 0; n < 3; n++) {
		KUNIT_ASSERT_EQ(test, dummy_register_mux(1, 1000), 0);
		for (i = 0; i < ARRAY_SIZE(ev); i++) {
			ev[i] = dummy_open(test, dummy.uncore.cpu, 0);
			KUNIT_ASSERT_FALSE(test, IS_ERR(ev[i]));
		}
		msleep(20);
		waiting = 0;
		for (i = 0; i < ARRAY_SIZE(ev); i++) {
			perf_event_read_value(ev[i], &enabled, &running);
			if (running < enabled)
				waiting++;
			perf_event_release_kernel(ev[i]);
		}
		/* one counter for three events: perf multiplexes them */
		KUNIT_EXPECT_GE(test, waiting, 2U);
		pmu_uncore_unregister(&dummy.uncore);
	}
}

static struct kunit_case pmu_uncore_cases[] = {
	KUNIT_CASE(pmu_uncore_test_fold),
	KUNIT_CASE(pmu_uncore_test_uncore),
	KUNIT_CASE(pmu_uncore_test_uncore_hotplug),
	KUNIT_CASE(pmu_uncore_test_uncore_designated_only_while_registered),
	KUNIT_CASE(pmu_uncore_test_unregister_multiplexed),
	{}
};

static struct kunit_suite pmu_uncore_suite = {
	.name = "pmu_uncore",
	.test_cases = pmu_uncore_cases,
};

kunit_test_suite(pmu_uncore_suite);

MODULE_DESCRIPTION("KUnit tests of the uncore PMU helper");
MODULE_LICENSE("GPL");
