// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the hvpmu common helper.
 */

#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/perf/hvpmu.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "hvpmu_kunit.h"

enum { F_EVENT, F_UMASK, F_FLAG, F_WIDE, F_TOP, F_QUAL, F_IDX, F_ALIAS };

static const struct hvpmu_field test_fields[] = {
	[F_EVENT] = HVPMU_FIELD("event", HVPMU_CONFIG, 0, 4),
	[F_UMASK] = HVPMU_FIELD("node", HVPMU_CONFIG, 4, 2, .max = 3),
	[F_FLAG] = HVPMU_FIELD("edge", HVPMU_CONFIG, 8, 1),
	[F_WIDE] = HVPMU_FIELD("qualifier", HVPMU_CONFIG1, 0, 64),
	[F_TOP] = HVPMU_FIELD("top", HVPMU_CONFIG2, 63, 1),
	[F_QUAL] = HVPMU_FIELD("mcu", HVPMU_CONFIG2, 0, 8, .min = 2, .max = 9),
	[F_IDX] = HVPMU_FIELD("starting_index", HVPMU_CONFIG, 32, 32),
	[F_ALIAS] = HVPMU_FIELD("partition_id", HVPMU_CONFIG, 32, 32,
				.alias_of = "starting_index"),
};

static const struct hvpmu_event test_events[] = {
	{ .name = "mem_reads", .terms = "event=0x0,node=?" },
	{ .name = "latency", .terms = "event=0x4,node=1,edge",
	  .unit = "ns", .scale = "1e-9" },
	{ .name = "part", .terms = "event=0x1,partition_id=?,mcu=9" },
	{ .name = "only_v8", .terms = "event=0x2", .variants = BIT(1) },
	{ .name = "only_v6", .terms = "event=0x3", .variants = BIT(0) },
};

static const struct hvpmu_encoding test_enc =
	HVPMU_ENCODING(test_fields, test_events);

static void hvpmu_test_format_strings(struct kunit *test)
{
	static const char *const want[][2] = {
		{ "event", "config:0-3\n" },
		{ "node", "config:4-5\n" },
		{ "edge", "config:8\n" },
		{ "qualifier", "config1:0-63\n" },
		{ "top", "config2:63\n" },
		{ "mcu", "config2:0-7\n" },
		{ "starting_index", "config:32-63\n" },
		{ "partition_id", "config:32-63\n" },
	};
	struct hvpmu_attrs attrs;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, hvpmu_attrs_build(&attrs, &test_enc, BIT(1)), 0);
	KUNIT_EXPECT_STREQ(test, attrs.format.name, "format");
	KUNIT_EXPECT_EQ(test, hvpmu_kunit_count(&attrs.format), ARRAY_SIZE(want));
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		char *s = hvpmu_kunit_file(test, &attrs.format, want[i][0]);

		KUNIT_ASSERT_NOT_NULL_MSG(test, s, "%s", want[i][0]);
		KUNIT_EXPECT_STREQ(test, s, want[i][1]);
	}
	hvpmu_attrs_free(&attrs);
	hvpmu_attrs_free(&attrs);	/* idempotent */
}

static void hvpmu_test_events(struct kunit *test)
{
	struct hvpmu_attrs attrs;

	KUNIT_ASSERT_EQ(test, hvpmu_attrs_build(&attrs, &test_enc, BIT(1)), 0);
	KUNIT_EXPECT_STREQ(test, attrs.events.name, "events");
	KUNIT_EXPECT_STREQ(test, hvpmu_kunit_file(test, &attrs.events, "mem_reads"),
			   "event=0x0,node=?\n");
	KUNIT_EXPECT_STREQ(test, hvpmu_kunit_file(test, &attrs.events, "latency"),
			   "event=0x4,node=1,edge\n");
	KUNIT_EXPECT_STREQ(test,
			   hvpmu_kunit_file(test, &attrs.events, "latency.unit"),
			   "ns\n");
	KUNIT_EXPECT_STREQ(test,
			   hvpmu_kunit_file(test, &attrs.events, "latency.scale"),
			   "1e-9\n");
	KUNIT_EXPECT_STREQ(test, hvpmu_kunit_file(test, &attrs.events, "part"),
			   "event=0x1,partition_id=?,mcu=9\n");
	KUNIT_EXPECT_NULL(test, hvpmu_kunit_file(test, &attrs.events, "mem_reads.unit"));
	/* variant filter: BIT(1) shows only_v8 and hides only_v6 */
	KUNIT_EXPECT_NOT_NULL(test, hvpmu_kunit_file(test, &attrs.events, "only_v8"));
	KUNIT_EXPECT_NULL(test, hvpmu_kunit_file(test, &attrs.events, "only_v6"));
	KUNIT_EXPECT_EQ(test, hvpmu_kunit_count(&attrs.events), 6U);
	hvpmu_attrs_free(&attrs);

	KUNIT_ASSERT_EQ(test, hvpmu_attrs_build(&attrs, &test_enc, BIT(0)), 0);
	KUNIT_EXPECT_NULL(test, hvpmu_kunit_file(test, &attrs.events, "only_v8"));
	KUNIT_EXPECT_NOT_NULL(test, hvpmu_kunit_file(test, &attrs.events, "only_v6"));
	hvpmu_attrs_free(&attrs);
}

/* Every word, offset and width: set, get back, nothing else touched. */
static void hvpmu_test_extract_all_positions(struct kunit *test)
{
	struct hvpmu_field f = { .name = "f" };
	struct hvpmu_encoding enc = { .fields = &f, .nr_fields = 1 };
	unsigned int word, lsb, width;

	for (word = 0; word < HVPMU_NR_WORDS; word++) {
		for (width = 1; width <= 64; width++) {
			for (lsb = 0; lsb + width <= 64; lsb++) {
				struct perf_event_attr attr = {};
				u64 mask = width == 64 ? ~0ULL :
					   BIT_ULL(width) - 1;
				u64 val = get_random_u64() & mask;
				u64 *w;

				f.word = word;
				f.lsb = lsb;
				f.width = width;
				hvpmu_field_set(&f, &attr, val);
				w = hvpmu_attr_word(&attr, word);
				KUNIT_ASSERT_EQ(test, *w, val << lsb);
				KUNIT_ASSERT_EQ(test, hvpmu_field_get(&f, &attr),
						val);
				KUNIT_ASSERT_EQ(test, hvpmu_config_check(&enc, &attr),
						0);
				/* the two other words stay zero */
				KUNIT_ASSERT_EQ(test, attr.config + attr.config1 +
						attr.config2, *w);
				/* all ones in the field reads back as the mask */
				*w = ~0ULL;
				KUNIT_ASSERT_EQ(test, hvpmu_field_get(&f, &attr),
						mask);
			}
		}
	}
}

static void hvpmu_test_wide_and_top(struct kunit *test)
{
	struct perf_event_attr attr = {};

	attr.config1 = 0xfedcba9876543210ULL;
	attr.config2 = BIT_ULL(63) | 5;
	KUNIT_EXPECT_EQ(test, hvpmu_field_get(&test_fields[F_WIDE], &attr),
			0xfedcba9876543210ULL);
	KUNIT_EXPECT_EQ(test, hvpmu_field_get(&test_fields[F_TOP], &attr), 1ULL);
	KUNIT_EXPECT_EQ(test, hvpmu_field_get(&test_fields[F_QUAL], &attr), 5ULL);
	KUNIT_EXPECT_EQ(test, hvpmu_config_check(&test_enc, &attr), 0);
	KUNIT_EXPECT_EQ(test, hvpmu_field_mask(&test_fields[F_TOP]), BIT_ULL(63));
	KUNIT_EXPECT_EQ(test, hvpmu_field_mask(&test_fields[F_WIDE]), ~0ULL);
}

static void hvpmu_test_unknown_bits(struct kunit *test)
{
	/* declared: config 0-5, 8, 32-63; config1 all; config2 0-7, 63 */
	static const struct { int word; unsigned int bit; } bad[] = {
		{ HVPMU_CONFIG, 6 }, { HVPMU_CONFIG, 7 }, { HVPMU_CONFIG, 9 },
		{ HVPMU_CONFIG, 31 }, { HVPMU_CONFIG2, 8 },
		{ HVPMU_CONFIG2, 62 },
	};
	unsigned int i;

	KUNIT_EXPECT_EQ(test, hvpmu_word_mask(&test_enc, HVPMU_CONFIG),
			GENMASK_ULL(63, 32) | BIT_ULL(8) | GENMASK_ULL(5, 0));
	KUNIT_EXPECT_EQ(test, hvpmu_word_mask(&test_enc, HVPMU_CONFIG1), ~0ULL);
	KUNIT_EXPECT_EQ(test, hvpmu_word_mask(&test_enc, HVPMU_CONFIG2),
			BIT_ULL(63) | GENMASK_ULL(7, 0));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct perf_event_attr attr = { .config2 = 2 };

		*hvpmu_attr_word(&attr, bad[i].word) |= BIT_ULL(bad[i].bit);
		KUNIT_EXPECT_EQ_MSG(test, hvpmu_config_check(&test_enc, &attr),
				    -EINVAL, "word %d bit %u", bad[i].word,
				    bad[i].bit);
	}
}

static void hvpmu_test_ranges(struct kunit *test)
{
	struct perf_event_attr attr = {};
	u64 v;

	/* mcu: min 2, max 9 */
	for (v = 0; v < 256; v++) {
		attr.config2 = v;
		KUNIT_EXPECT_EQ_MSG(test, hvpmu_config_check(&test_enc, &attr),
				    (v >= 2 && v <= 9) ? 0 : -EINVAL,
				    "mcu=%llu", v);
	}
	/* node: max 3 fills its 2 bits, so every encodable value is fine */
	attr.config2 = 2;
	for (v = 0; v < 4; v++) {
		hvpmu_field_set(&test_fields[F_UMASK], &attr, v);
		KUNIT_EXPECT_EQ(test, hvpmu_config_check(&test_enc, &attr), 0);
	}
}

static void hvpmu_test_alias(struct kunit *test)
{
	struct perf_event_attr attr = { .config2 = 2 };

	hvpmu_field_set(&test_fields[F_ALIAS], &attr, 0xffffffff);
	KUNIT_EXPECT_EQ(test, hvpmu_field_get(&test_fields[F_IDX], &attr),
			0xffffffffULL);
	KUNIT_EXPECT_EQ(test, hvpmu_config_check(&test_enc, &attr), 0);
}

/* Each table is wrong in exactly one way. */
static void hvpmu_test_bad_tables(struct kunit *test)
{
	static const struct hvpmu_field overlap[] = {
		HVPMU_FIELD("a", HVPMU_CONFIG, 0, 8),
		HVPMU_FIELD("b", HVPMU_CONFIG, 7, 2),
	};
	static const struct hvpmu_field other_word[] = {
		HVPMU_FIELD("a", HVPMU_CONFIG, 0, 8),
		HVPMU_FIELD("b", HVPMU_CONFIG1, 0, 8),
	};
	static const struct hvpmu_field twice[] = {
		HVPMU_FIELD("a", HVPMU_CONFIG, 0, 8),
		HVPMU_FIELD("a", HVPMU_CONFIG, 8, 8),
	};
	static const struct hvpmu_field beyond[] = {
		HVPMU_FIELD("a", HVPMU_CONFIG, 60, 5),
	};
	static const struct hvpmu_field zero_width[] = {
		HVPMU_FIELD("a", HVPMU_CONFIG, 0, 0),
	};
	static const struct hvpmu_field bad_word[] = {
		HVPMU_FIELD("a", HVPMU_NR_WORDS, 0, 1),
	};
	static const struct hvpmu_field bad_range[] = {
		HVPMU_FIELD("a", HVPMU_CONFIG, 0, 2, .max = 4),
	};
	static const struct hvpmu_field min_over_max[] = {
		HVPMU_FIELD("a", HVPMU_CONFIG, 0, 4, .min = 5, .max = 4),
	};
	static const struct hvpmu_field bad_alias[] = {
		HVPMU_FIELD("a", HVPMU_CONFIG, 0, 8),
		HVPMU_FIELD("b", HVPMU_CONFIG, 0, 4, .alias_of = "a"),
	};
	static const struct hvpmu_field dangling_alias[] = {
		HVPMU_FIELD("a", HVPMU_CONFIG, 0, 8),
		HVPMU_FIELD("b", HVPMU_CONFIG, 0, 8, .alias_of = "c"),
	};
	static const struct hvpmu_field bad_name[] = {
		HVPMU_FIELD("a/b", HVPMU_CONFIG, 0, 8),
	};
	static const struct hvpmu_field one[] = {
		HVPMU_FIELD("event", HVPMU_CONFIG, 0, 4, .max = 7),
	};
	static const struct hvpmu_event unknown_term[] = {
		{ .name = "x", .terms = "event=1,umask=2" },
	};
	static const struct hvpmu_event big_value[] = {
		{ .name = "x", .terms = "event=8" },
	};
	static const struct hvpmu_event dup_term[] = {
		{ .name = "x", .terms = "event=1,event=2" },
	};
	static const struct hvpmu_event dup_event[] = {
		{ .name = "x", .terms = "event=1" },
		{ .name = "x", .terms = "event=2" },
	};
	static const struct hvpmu_event not_number[] = {
		{ .name = "x", .terms = "event=one" },
	};
	static const struct hvpmu_event no_terms[] = {
		{ .name = "x", .terms = "" },
	};
	static const struct hvpmu_event bad_event_name[] = {
		{ .name = "x.y", .terms = "event=1" },
	};
	static const struct hvpmu_event good[] = {
		{ .name = "x", .terms = "event=7" },
	};
	static const struct {
		struct hvpmu_encoding enc;
		int want;
	} cases[] = {
		{ HVPMU_ENCODING(overlap, good), -EINVAL },
		{ HVPMU_ENCODING(other_word, good), -EINVAL },	/* no "event" */
		{ HVPMU_ENCODING(twice, good), -EINVAL },
		{ HVPMU_ENCODING(beyond, good), -EINVAL },
		{ HVPMU_ENCODING(zero_width, good), -EINVAL },
		{ HVPMU_ENCODING(bad_word, good), -EINVAL },
		{ HVPMU_ENCODING(bad_range, good), -EINVAL },
		{ HVPMU_ENCODING(min_over_max, good), -EINVAL },
		{ HVPMU_ENCODING(bad_alias, good), -EINVAL },
		{ HVPMU_ENCODING(dangling_alias, good), -EINVAL },
		{ HVPMU_ENCODING(bad_name, good), -EINVAL },
		{ HVPMU_ENCODING(one, unknown_term), -EINVAL },
		{ HVPMU_ENCODING(one, big_value), -EINVAL },
		{ HVPMU_ENCODING(one, dup_term), -EINVAL },
		{ HVPMU_ENCODING(one, dup_event), -EINVAL },
		{ HVPMU_ENCODING(one, not_number), -EINVAL },
		{ HVPMU_ENCODING(one, no_terms), -EINVAL },
		{ HVPMU_ENCODING(one, bad_event_name), -EINVAL },
		{ HVPMU_ENCODING(one, good), 0 },
	};
	struct hvpmu_attrs attrs;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		KUNIT_EXPECT_EQ_MSG(test, hvpmu_encoding_validate(&cases[i].enc),
				    cases[i].want, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test,
				    hvpmu_attrs_build(&attrs, &cases[i].enc, 0),
				    cases[i].want, "case %u", i);
		/* a failed build leaves nothing allocated */
		if (cases[i].want)
			KUNIT_EXPECT_TRUE(test, list_empty(&attrs.mem));
		hvpmu_attrs_free(&attrs);
	}
	/* and the fine case for other_word */
	KUNIT_EXPECT_EQ(test, hvpmu_encoding_validate(&(struct hvpmu_encoding)
		{ .fields = other_word, .nr_fields = 2 }), 0);
}

static void hvpmu_test_fold(struct kunit *test)
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
		KUNIT_ASSERT_EQ(test, hvpmu_counter_fold(ev, raw, 31),
				0x30000001ULL);
	}
	KUNIT_EXPECT_EQ(test, (u64)local64_read(&ev->count), total);
	/* 32 and 64 bits */
	local64_set(&ev->count, 0);
	local64_set(&ev->hw.prev_count, 0xfffffffe);
	KUNIT_EXPECT_EQ(test, hvpmu_counter_fold(ev, 3, 32), 5ULL);
	local64_set(&ev->hw.prev_count, ~0ULL);
	KUNIT_EXPECT_EQ(test, hvpmu_counter_fold(ev, 1, 64), 2ULL);
	KUNIT_EXPECT_EQ(test, (u64)local64_read(&ev->count), 7ULL);
}

/*
 * A minimal uncore PMU counting a variable, to drive the uncore helper; with
 * @slots set, it has that many counters and refuses more (perf multiplexes).
 */
static struct {
	struct hvpmu_uncore uncore;
	u64 value;
	int migrations;
	unsigned int slots, used;
} dummy;

static int dummy_event_init(struct perf_event *event)
{
	return hvpmu_uncore_event_init(&dummy.uncore, event);
}

static void dummy_read(struct perf_event *event)
{
	hvpmu_counter_fold(event, READ_ONCE(dummy.value), 64);
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

static void dummy_migrate(struct hvpmu_uncore *u, unsigned int from,
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
	&hvpmu_uncore_cpumask_group,
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
	return hvpmu_uncore_register(&dummy.uncore, "hvpmu_test_uncore");
}

static int dummy_register(void)
{
	return dummy_register_mux(0, 0);
}

static char *cpumask_file(struct kunit *test)
{
	struct device *dev = dummy.uncore.pmu.dev;
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	struct attribute *a = hvpmu_uncore_cpumask_group.attrs[0];

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

static void hvpmu_test_uncore(struct kunit *test)
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
	hvpmu_uncore_unregister(&dummy.uncore);
}

static void hvpmu_test_uncore_hotplug(struct kunit *test)
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
		hvpmu_uncore_unregister(&dummy.uncore);
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
	hvpmu_uncore_unregister(&dummy.uncore);
}

/*
 * The CPU hotplug callback migrates the designated CPU's perf contexts, so
 * no CPU may be designated while they do not exist: during registration
 * (before perf_pmu_register() has built them) and from unregistration on
 * (perf_pmu_unregister() frees them). hvpmu-stress, loading and unloading
 * the simulated platform while the designated CPU went offline, saw KASAN
 * report a use-after-free in perf_pmu_migrate_context() from the callback.
 */
static void hvpmu_test_uncore_designated_only_while_registered(struct kunit *test)
{
	unsigned int cpu = cpumask_first(cpu_online_mask);

	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cpu)), 0);
	cpu_while_registering = 0;
	KUNIT_ASSERT_EQ(test, dummy_register(), 0);
	KUNIT_EXPECT_GE(test, cpu_while_registering, nr_cpu_ids);
	KUNIT_EXPECT_EQ(test, dummy.uncore.cpu, cpu);
	hvpmu_uncore_unregister(&dummy.uncore);
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
static void hvpmu_test_unregister_multiplexed(struct kunit *test)
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
		hvpmu_uncore_unregister(&dummy.uncore);
	}
}

static struct kunit_case hvpmu_core_cases[] = {
	KUNIT_CASE(hvpmu_test_format_strings),
	KUNIT_CASE(hvpmu_test_events),
	KUNIT_CASE(hvpmu_test_extract_all_positions),
	KUNIT_CASE(hvpmu_test_wide_and_top),
	KUNIT_CASE(hvpmu_test_unknown_bits),
	KUNIT_CASE(hvpmu_test_ranges),
	KUNIT_CASE(hvpmu_test_alias),
	KUNIT_CASE(hvpmu_test_bad_tables),
	KUNIT_CASE(hvpmu_test_fold),
	KUNIT_CASE(hvpmu_test_uncore),
	KUNIT_CASE(hvpmu_test_uncore_hotplug),
	KUNIT_CASE(hvpmu_test_uncore_designated_only_while_registered),
	KUNIT_CASE(hvpmu_test_unregister_multiplexed),
	{}
};

static struct kunit_suite hvpmu_core_suite = {
	.name = "hvpmu_core",
	.test_cases = hvpmu_core_cases,
};

kunit_test_suite(hvpmu_core_suite);

MODULE_DESCRIPTION("KUnit tests of the hvpmu common helper");
MODULE_LICENSE("GPL");
