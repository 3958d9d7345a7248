// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the hv_gpci PMU against the model of
 * H_GetPerformanceCounterInfo, through the real perf core.
 */

#include <kunit/test.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/perf/hvpmu.h>
#include <linux/perf/hvpmu_gpci.h>
#include <linux/perf_event.h>
#include <linux/prandom.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <asm/unaligned.h>

#define GT_NAME		"hv_gpci_test"
#define GT_MAX_EV	64

static struct {
	struct hvpmu_gpci_model *m;
	struct hvpmu_gpci_pmu *g;
	struct hvpmu_gpci_model *sim;	/* gt_sim() works on it, else on m */
	struct perf_event *ev[GT_MAX_EV];
} gt;

static int gt_init(struct kunit *test)
{
	gt.m = kzalloc(sizeof(*gt.m), GFP_KERNEL);
	if (!gt.m)
		return -ENOMEM;
	hvpmu_gpci_model_init(gt.m, 6);
	return 0;
}

static void gt_close_all(void)
{
	unsigned int i;

	for (i = 0; i < GT_MAX_EV; i++) {
		if (gt.ev[i])
			perf_event_release_kernel(gt.ev[i]);
		gt.ev[i] = NULL;
	}
}

static void gt_remove(void)
{
	gt_close_all();
	if (gt.g)
		hvpmu_gpci_remove(gt.g);
	gt.g = NULL;
}

static void gt_exit(struct kunit *test)
{
	gt_remove();
	hvpmu_gpci_sim_exit();	/* after gt_remove(): events closed */
	gt.sim = NULL;
	kfree(gt.m);
	gt.m = NULL;
}

static struct hvpmu_gpci_pmu *gt_probe(void)
{
	return hvpmu_gpci_probe(&hvpmu_gpci_model_ops, gt.m, GT_NAME);
}

/* (Re)start the model at @version and probe a PMU on it. */
static void gt_start(struct kunit *test, u8 version, u8 caps)
{
	struct hvpmu_gpci_pmu *g;

	gt_remove();
	hvpmu_gpci_model_init(gt.m, version);
	gt.m->caps = caps;
	g = gt_probe();
	KUNIT_ASSERT_FALSE(test, IS_ERR(g));
	gt.g = g;
}

static const struct hvpmu_field *gt_field(const char *name, size_t len)
{
	const struct hvpmu_encoding *enc = hvpmu_gpci_encoding(gt.g);
	unsigned int i;

	for (i = 0; i < enc->nr_fields; i++)
		if (strlen(enc->fields[i].name) == len &&
		    !strncmp(enc->fields[i].name, name, len))
			return &enc->fields[i];
	return NULL;
}

/* Build an attribute from an event's sysfs terms, "?" becoming @q. */
static void gt_parse(struct kunit *test, const char *terms, u64 q,
		     struct perf_event_attr *attr)
{
	char *buf = kunit_kzalloc(test, 256, GFP_KERNEL), *s, *t;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	strscpy(buf, terms, 256);
	memset(attr, 0, sizeof(*attr));
	attr->type = hvpmu_gpci_to_pmu(gt.g)->type;
	attr->size = sizeof(*attr);
	s = buf;
	while ((t = strsep(&s, ","))) {
		char *eq = strchr(t, '=');
		const struct hvpmu_field *f;
		u64 v = q;

		KUNIT_ASSERT_NOT_NULL(test, eq);
		f = gt_field(t, eq - t);
		KUNIT_ASSERT_NOT_NULL_MSG(test, f, "term %s", t);
		if (strcmp(eq + 1, "?"))
			KUNIT_ASSERT_EQ(test, kstrtou64(eq + 1, 0, &v), 0);
		hvpmu_field_set(f, attr, v);
	}
}

static void gt_raw(struct perf_event_attr *attr, u32 req, u32 idx, u16 sec,
		   u8 ver, u8 len, u32 off)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = hvpmu_gpci_to_pmu(gt.g)->type;
	attr->size = sizeof(*attr);
	attr->config = req | (u64)idx << 32;
	attr->config1 = sec | ver << 16 | (u64)len << 24 | (u64)off << 32;
}

/* Open through the perf core; the slot keeps it for cleanup. */
static struct perf_event *gt_open(struct perf_event_attr *attr)
{
	struct perf_event *ev;
	unsigned int i;

	ev = perf_event_create_kernel_counter(attr, 0, NULL, NULL, NULL);
	if (IS_ERR(ev))
		return ev;
	for (i = 0; i < GT_MAX_EV; i++) {
		if (!gt.ev[i]) {
			gt.ev[i] = ev;
			return ev;
		}
	}
	perf_event_release_kernel(ev);
	return ERR_PTR(-ENOSPC);
}

static void gt_close(struct perf_event *ev)
{
	unsigned int i;

	for (i = 0; i < GT_MAX_EV; i++)
		if (gt.ev[i] == ev)
			gt.ev[i] = NULL;
	perf_event_release_kernel(ev);
}

static u64 gt_read(struct perf_event *ev)
{
	u64 enabled, running;

	return perf_event_read_value(ev, &enabled, &running);
}

static const char *gt_show(struct kunit *test, const char *group,
			   const char *name)
{
	const struct attribute_group **g = hvpmu_gpci_to_pmu(gt.g)->attr_groups;
	struct device *dev = hvpmu_gpci_to_pmu(gt.g)->dev;
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	struct attribute **a;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (; *g; g++) {
		if ((*g)->name ? !group || strcmp((*g)->name, group) : !!group)
			continue;
		for (a = (*g)->attrs; *a; a++) {
			struct device_attribute *da;

			if (strcmp((*a)->name, name))
				continue;
			da = container_of(*a, struct device_attribute, attr);
			da->show(dev, da, buf);
			return buf;
		}
	}
	return "(none)";
}

static const char gt_donated[] =
	"entitled_capped_uncapped_donated_idle_timebase_by_partition_cycles_donated";

static void gpci_test_format(struct kunit *test)
{
	static const char *const want[][2] = {
		{ "request", "config:0-31\n" },
		{ "starting_index", "config:32-63\n" },
		{ "phys_processor_idx", "config:32-63\n" },
		{ "sibling_part_id", "config:32-63\n" },
		{ "hw_chip_id", "config:32-63\n" },
		{ "partition_id", "config:32-63\n" },
		{ "secondary_index", "config1:0-15\n" },
		{ "counter_info_version", "config1:16-23\n" },
		{ "length", "config1:24-31\n" },
		{ "offset", "config1:32-63\n" },
	};
	unsigned int i;

	gt_start(test, 6, HVPMU_GPCI_CAP_GA);
	for (i = 0; i < ARRAY_SIZE(want); i++)
		KUNIT_EXPECT_STREQ(test, gt_show(test, "format", want[i][0]),
				   want[i][1]);
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface", "version"), "0x6\n");
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface", "kernel_version"),
			   "0x8\n");
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface", "ga"), "1\n");
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface", "lab"), "0\n");
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface", "expanded"), "0\n");
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface",
					 "collect_privileged"), "1\n");
	KUNIT_EXPECT_STREQ(test, gt_show(test, "events", gt_donated),
			   "request=0x20,sibling_part_id=?,offset=0x20,length=8\n");
	/* capabilities were read once, not per sysfs read */
	KUNIT_EXPECT_EQ(test, hvpmu_gpci_model_calls(gt.m), 1UL);
}

#define ALL	(BIT(0) | BIT(6) | BIT(8))
#define LOPAR	BIT(0)
#define EXT	BIT(6)

/* Every named event there is, the counter it must read, where it shows. */
static const struct {
	const char *name;
	enum hvpmu_gpci_model_ctr ctr;
	u32 versions;	/* BIT(firmware version) among 0, 6, 8 */
} gt_want[] = {
	{ "dispatch_timebase_by_processor_processor_time_in_timebase_cycles",
	  HVPMU_GPCI_M_PROC_TIME, ALL },
#define P20(n, c) { "entitled_capped_uncapped_donated_idle_timebase_by_partition_" n, c, ALL }
	P20("entitled_cycles", HVPMU_GPCI_M_ENTITLED),
	P20("consumed_capped_cycles", HVPMU_GPCI_M_CAPPED),
	P20("consumed_uncapped_cycles", HVPMU_GPCI_M_UNCAPPED),
	P20("cycles_donated", HVPMU_GPCI_M_DONATED),
	P20("purr_idle_cycles", HVPMU_GPCI_M_IDLE),
#define P30(n, c) { "run_instructions_run_cycles_by_partition_" n, c, LOPAR | EXT }
	P30("instructions_completed", HVPMU_GPCI_M_RUN_INSTR),
	P30("cycles", HVPMU_GPCI_M_RUN_CYCLES),
#define P50(n, c, v) { "processor_bus_utilization_abc_links_" n, c, v }
	P50("idle_cycles_for_a_link", HVPMU_GPCI_M_IDLE_A, LOPAR | EXT),
	P50("idle_cycles_for_b_link", HVPMU_GPCI_M_IDLE_B, LOPAR | EXT),
	P50("idle_cycles_for_c_link", HVPMU_GPCI_M_IDLE_C, LOPAR | EXT),
	P50("time_for_a_link", HVPMU_GPCI_M_TIME_A, LOPAR),
	P50("time_for_b_link", HVPMU_GPCI_M_TIME_B, LOPAR),
	P50("time_for_c_link", HVPMU_GPCI_M_TIME_C, LOPAR),
	P50("total_link_cycles", HVPMU_GPCI_M_TOTAL_ABC, EXT),
#define P60(n, c, v) { "processor_bus_utilization_wxyz_links_" n, c, v }
	P60("idle_cycles_for_w_link", HVPMU_GPCI_M_IDLE_W, LOPAR | EXT),
	P60("idle_cycles_for_x_link", HVPMU_GPCI_M_IDLE_X, LOPAR | EXT),
	P60("idle_cycles_for_y_link", HVPMU_GPCI_M_IDLE_Y, LOPAR | EXT),
	P60("idle_cycles_for_z_link", HVPMU_GPCI_M_IDLE_Z, LOPAR | EXT),
	P60("time_for_w_link", HVPMU_GPCI_M_TIME_W, LOPAR),
	P60("time_for_x_link", HVPMU_GPCI_M_TIME_X, LOPAR),
	P60("time_for_y_link", HVPMU_GPCI_M_TIME_Y, LOPAR),
	P60("time_for_z_link", HVPMU_GPCI_M_TIME_Z, LOPAR),
	P60("total_link_cycles", HVPMU_GPCI_M_TOTAL_WXYZ, EXT),
};

/* The entity an event of counter @c is opened on: one past a gap. */
static u32 gt_entity(enum hvpmu_gpci_model_ctr c)
{
	if (c == HVPMU_GPCI_M_PROC_TIME)
		return 5;
	if (c <= HVPMU_GPCI_M_RUN_CYCLES)
		return 7;
	return 8;
}

/* Give every counter of every entity a distinct value, moved by @step. */
static void gt_fill(u64 base, u64 step)
{
	unsigned int c;

	for (c = 0; c < HVPMU_GPCI_M_NR; c++)
		hvpmu_gpci_model_set(gt.m, c, gt_entity(c),
				     base + c * 1000003ULL + (c + 1) * step);
}

static void gt_named_events(struct kunit *test, u8 version)
{
	const struct hvpmu_encoding *enc;
	unsigned int i, j, shown = 0;

	gt_start(test, version, HVPMU_GPCI_CAP_GA);
	enc = hvpmu_gpci_encoding(gt.g);
	for (j = 0; j < ARRAY_SIZE(gt_want); j++)
		shown += !!(gt_want[j].versions & BIT(version));
	KUNIT_EXPECT_EQ(test, enc->nr_events, shown);

	for (i = 0; i < enc->nr_events; i++) {
		const struct hvpmu_event *e = &enc->events[i];
		struct perf_event_attr attr;
		struct perf_event *ev;
		unsigned long calls;
		u64 step = 7919 * (i + 1);

		for (j = 0; j < ARRAY_SIZE(gt_want); j++)
			if (!strcmp(gt_want[j].name, e->name))
				break;
		KUNIT_ASSERT_LT_MSG(test, j, ARRAY_SIZE(gt_want),
				    "unexpected event %s", e->name);
		KUNIT_EXPECT_TRUE_MSG(test, gt_want[j].versions & BIT(version),
				      "%s shown on version %u", e->name, version);

		gt_parse(test, e->terms, gt_entity(gt_want[j].ctr), &attr);
		gt_fill(1ULL << 40, 0);
		ev = gt_open(&attr);
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(ev), "%s: %ld", e->name,
				       PTR_ERR_OR_ZERO(ev));
		/* every counter moves differently: a wrong offset shows */
		gt_fill(1ULL << 40, step);
		calls = hvpmu_gpci_model_calls(gt.m);
		KUNIT_EXPECT_EQ_MSG(test, gt_read(ev),
				    (gt_want[j].ctr + 1) * step, "%s", e->name);
		KUNIT_EXPECT_EQ(test, hvpmu_gpci_model_calls(gt.m), calls + 1);
		gt_close(ev);
	}
	KUNIT_EXPECT_EQ(test, gt.m->misaligned, 0UL);
	KUNIT_EXPECT_EQ(test, gt.m->unknown_req, 0UL);
}

static void gpci_test_named_v0(struct kunit *test)
{
	gt_named_events(test, 0);
}

static void gpci_test_named_v6(struct kunit *test)
{
	gt_named_events(test, 6);
}

static void gpci_test_named_v8(struct kunit *test)
{
	gt_named_events(test, 8);
}

struct gt_txn {
	struct pmu *pmu;
	struct perf_event **ev;
	unsigned int n;
};

/* What perf core's __perf_event_read() does for a group, on its CPU. */
static void gt_txn_fn(void *info)
{
	struct gt_txn *t = info;
	unsigned int i;

	t->pmu->start_txn(t->pmu, PERF_PMU_TXN_READ);
	for (i = 0; i < t->n; i++)
		t->pmu->read(t->ev[i]);
	t->pmu->commit_txn(t->pmu);
}

static void gt_group_read(struct perf_event **ev, unsigned int n)
{
	struct gt_txn t = { .pmu = ev[0]->pmu, .ev = ev, .n = n };

	smp_call_function_single(ev[0]->oncpu, gt_txn_fn, &t, 1);
}

static void gpci_test_group(struct kunit *test)
{
	/* five counters of partition 2, one of processor 0, one of part 7 */
	static const struct { u32 req, idx, off; } spec[] = {
		{ 0x20, 2, 0x08 }, { 0x20, 2, 0x10 }, { 0x20, 2, 0x18 },
		{ 0x20, 2, 0x20 }, { 0x20, 2, 0x28 }, { 0x10, 0, 0x00 },
		{ 0x20, 7, 0x08 },
	};
	struct perf_event *ev[ARRAY_SIZE(spec)];
	struct perf_event_attr attr;
	unsigned long calls;
	unsigned int i, c;

	gt_start(test, 6, HVPMU_GPCI_CAP_GA);
	for (i = 0; i < ARRAY_SIZE(spec); i++) {
		gt_raw(&attr, spec[i].req, spec[i].idx, 0, 0, 8, spec[i].off);
		ev[i] = gt_open(&attr);
		KUNIT_ASSERT_FALSE(test, IS_ERR(ev[i]));
	}
	for (c = HVPMU_GPCI_M_ENTITLED; c <= HVPMU_GPCI_M_IDLE; c++) {
		hvpmu_gpci_model_set(gt.m, c, 2, 100 * c);
		hvpmu_gpci_model_set(gt.m, c, 7, 1000 * c);
	}
	hvpmu_gpci_model_set(gt.m, HVPMU_GPCI_M_PROC_TIME, 0, 5555);

	/* one hcall per distinct key: (0x20, 2), (0x10, 0), (0x20, 7) */
	calls = hvpmu_gpci_model_calls(gt.m);
	gt_group_read(ev, ARRAY_SIZE(ev));
	KUNIT_EXPECT_EQ(test, hvpmu_gpci_model_calls(gt.m), calls + 3);
	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_EQ(test, local64_read(&ev[i]->count),
				100LL * (HVPMU_GPCI_M_ENTITLED + i));
	KUNIT_EXPECT_EQ(test, local64_read(&ev[5]->count), 5555LL);
	KUNIT_EXPECT_EQ(test, local64_read(&ev[6]->count),
			1000LL * HVPMU_GPCI_M_ENTITLED);

	/* without a transaction: one hcall per event, like Linux's driver */
	calls = hvpmu_gpci_model_calls(gt.m);
	for (i = 0; i < ARRAY_SIZE(ev); i++)
		gt_read(ev[i]);
	KUNIT_EXPECT_EQ(test, hvpmu_gpci_model_calls(gt.m),
			calls + ARRAY_SIZE(ev));

	/* a failed hcall in the commit keeps the values of its key only */
	hvpmu_gpci_model_set(gt.m, HVPMU_GPCI_M_ENTITLED, 2, 10000);
	hvpmu_gpci_model_set(gt.m, HVPMU_GPCI_M_PROC_TIME, 0, 6000);
	hvpmu_gpci_model_inject(gt.m, 0, 1, HVPMU_H_HARDWARE, 0);
	gt_group_read(ev, ARRAY_SIZE(ev));
	KUNIT_EXPECT_EQ(test, local64_read(&ev[0]->count),
			100LL * HVPMU_GPCI_M_ENTITLED);
	KUNIT_EXPECT_EQ(test, local64_read(&ev[5]->count), 6000LL);
	/* and the next good group read catches up: counts are continuous */
	gt_group_read(ev, ARRAY_SIZE(ev));
	KUNIT_EXPECT_EQ(test, local64_read(&ev[0]->count), 10000LL);
	gt_close_all();
}

static const struct {
	long rc;
	int err;
} gt_rcs[] = {
	{ HVPMU_H_PRIVILEGE, -EIO },
	{ HVPMU_H_PARAMETER, -EINVAL },
	{ HVPMU_H_NOT_AVAILABLE, -EOPNOTSUPP },
	{ HVPMU_H_AUTHORITY, -EPERM },
	{ HVPMU_H_FUNCTION, -ENODEV },
	{ HVPMU_H_HARDWARE, -EIO },
	{ -9999, -EIO },
};

static void gpci_test_errors_probe(struct kunit *test)
{
	struct hvpmu_gpci_pmu *g;
	unsigned int i;

	gt_remove();
	for (i = 0; i < ARRAY_SIZE(gt_rcs); i++) {
		hvpmu_gpci_model_inject(gt.m, 0, 1, gt_rcs[i].rc, 0);
		g = gt_probe();
		KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(g), gt_rcs[i].err);
		if (!IS_ERR(g))
			hvpmu_gpci_remove(g);
	}
	/* QEMU pseries: no GPCI at all */
	gt.m->implemented = false;
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_probe()), -ENODEV);
	/* nothing was left registered under the name */
	gt.m->implemented = true;
	g = gt_probe();
	KUNIT_ASSERT_FALSE(test, IS_ERR(g));
	gt.g = g;
}

static void gpci_test_errors_init(struct kunit *test)
{
	struct perf_event_attr attr;
	struct perf_event *ev;
	unsigned int i;

	gt_start(test, 6, HVPMU_GPCI_CAP_GA);
	for (i = 0; i < ARRAY_SIZE(gt_rcs); i++) {
		gt_raw(&attr, 0x20, 7, 0, 0, 8, 0x8);
		hvpmu_gpci_model_inject(gt.m, 0, 1, gt_rcs[i].rc, 0);
		ev = gt_open(&attr);
		KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(ev), gt_rcs[i].err);
		if (!IS_ERR(ev))
			gt_close(ev);
	}
}

/* A failed read, enable or disable keeps the count continuous. */
static void gpci_test_errors_read(struct kunit *test)
{
	struct perf_event_attr attr;
	struct perf_event *ev;
	unsigned int i;

	gt_start(test, 6, HVPMU_GPCI_CAP_GA);
	for (i = 0; i < ARRAY_SIZE(gt_rcs); i++) {
		u64 v = 1000;

		hvpmu_gpci_model_set(gt.m, HVPMU_GPCI_M_PROC_TIME, 5, v);
		gt_raw(&attr, 0x10, 5, 0, 0, 8, 0);
		ev = gt_open(&attr);
		KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
		hvpmu_gpci_model_set(gt.m, HVPMU_GPCI_M_PROC_TIME, 5, v + 500);
		KUNIT_EXPECT_EQ(test, gt_read(ev), 500ULL);

		/* read fails: the previous value, no zero-then-jump */
		hvpmu_gpci_model_set(gt.m, HVPMU_GPCI_M_PROC_TIME, 5, v + 800);
		hvpmu_gpci_model_inject(gt.m, 0, 1, gt_rcs[i].rc, 0);
		KUNIT_EXPECT_EQ(test, gt_read(ev), 500ULL);
		hvpmu_gpci_model_set(gt.m, HVPMU_GPCI_M_PROC_TIME, 5, v + 900);
		KUNIT_EXPECT_EQ(test, gt_read(ev), 900ULL);

		/* disable fails to read: the count stays, later reads agree */
		hvpmu_gpci_model_set(gt.m, HVPMU_GPCI_M_PROC_TIME, 5, v + 950);
		hvpmu_gpci_model_inject(gt.m, 0, 1, gt_rcs[i].rc, 0);
		perf_event_disable(ev);
		KUNIT_EXPECT_EQ(test, gt_read(ev), 900ULL);

		/* enable fails to read: counting starts at the next good read */
		hvpmu_gpci_model_set(gt.m, HVPMU_GPCI_M_PROC_TIME, 5, v + 2000);
		hvpmu_gpci_model_inject(gt.m, 0, 1, gt_rcs[i].rc, 0);
		perf_event_enable(ev);
		KUNIT_EXPECT_EQ(test, gt_read(ev), 900ULL);
		hvpmu_gpci_model_set(gt.m, HVPMU_GPCI_M_PROC_TIME, 5, v + 2100);
		KUNIT_EXPECT_EQ(test, gt_read(ev), 1000ULL);

		/* a good disable/enable cycle excludes the disabled time */
		perf_event_disable(ev);
		hvpmu_gpci_model_set(gt.m, HVPMU_GPCI_M_PROC_TIME, 5, v + 5000);
		perf_event_enable(ev);
		hvpmu_gpci_model_set(gt.m, HVPMU_GPCI_M_PROC_TIME, 5, v + 5001);
		KUNIT_EXPECT_EQ(test, gt_read(ev), 1001ULL);
		gt_close(ev);
	}
}

/* The reply is checked before any byte of it is used. */
static void gpci_test_robust(struct kunit *test)
{
	struct perf_event_attr attr;
	struct perf_event *ev;

	gt_start(test, 6, HVPMU_GPCI_CAP_GA);
	/* processor 4 does not exist: the model answers with processor 5 */
	gt_raw(&attr, 0x10, 4, 0, 0, 8, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -ENODEV);
	/* nothing at or after 100: zero elements */
	gt_raw(&attr, 0x10, 100, 0, 0, 8, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -ENODEV);
	/* -1 is the current processor (1) */
	hvpmu_gpci_model_set(gt.m, HVPMU_GPCI_M_PROC_TIME, 1, 10);
	gt_raw(&attr, 0x10, HVPMU_GPCI_INDEX_CURRENT, 0, 0, 8, 0);
	ev = gt_open(&attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	hvpmu_gpci_model_set(gt.m, HVPMU_GPCI_M_PROC_TIME, 1, 35);
	KUNIT_EXPECT_EQ(test, gt_read(ev), 25ULL);
	gt_close(ev);

	/* a 4-byte value, offset 0x4 of the low half: wraps at 32 bits */
	hvpmu_gpci_model_set(gt.m, HVPMU_GPCI_M_ENTITLED, 7, 0xfffffff0);
	gt_raw(&attr, 0x20, 7, 0, 0, 4, 0xc);
	ev = gt_open(&attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	hvpmu_gpci_model_set(gt.m, HVPMU_GPCI_M_ENTITLED, 7, 0x100000010ULL);
	KUNIT_EXPECT_EQ(test, gt_read(ev), 0x20ULL);

	/* wrong index echoed, short element, changed layout: value kept */
	gt.m->bad_index = 1;
	hvpmu_gpci_model_set(gt.m, HVPMU_GPCI_M_ENTITLED, 7, 0x100000030ULL);
	KUNIT_EXPECT_EQ(test, gt_read(ev), 0x20ULL);
	gt.m->bad_index = 0;
	gt.m->bad_elem_size = 0xc;
	KUNIT_EXPECT_EQ(test, gt_read(ev), 0x20ULL);
	gt.m->bad_elem_size = 0;
	gt.m->version = 0;
	KUNIT_EXPECT_EQ(test, gt_read(ev), 0x20ULL);
	gt.m->version = 6;
	KUNIT_EXPECT_EQ(test, gt_read(ev), 0x40ULL);
	gt_close(ev);

	/* offset + length past the element (0x30) never reaches the model */
	gt_raw(&attr, 0x20, 7, 0, 0, 8, 0x29);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EINVAL);
	/* no secondary index on the seed's requests */
	gt_raw(&attr, 0x20, 7, 1, 0, 8, 0x8);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EINVAL);
	/* 0x30 is deprecated from version 8: the firmware says so */
	gt_start(test, 8, HVPMU_GPCI_CAP_GA);
	gt_raw(&attr, 0x30, 7, 0, 0, 8, 0x8);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EOPNOTSUPP);
}

/* More processors than fit in 4 KiB: H_Parameter/0x1B still has ours. */
static void gpci_test_big_table(struct kunit *test)
{
	struct perf_event_attr attr;
	struct perf_event *ev;
	unsigned int i;

	gt_start(test, 6, HVPMU_GPCI_CAP_GA);
	for (i = 0; i < HVPMU_GPCI_MODEL_MAX_ENTITIES; i++)
		gt.m->procs[i].id = i;
	gt.m->nr_procs = HVPMU_GPCI_MODEL_MAX_ENTITIES;
	hvpmu_gpci_model_set(gt.m, HVPMU_GPCI_M_PROC_TIME, 0, 1);
	gt_raw(&attr, 0x10, 0, 0, 0, 8, 0);
	ev = gt_open(&attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	KUNIT_EXPECT_EQ(test, gt.m->last_rc, (long)HVPMU_H_PARAMETER);
	hvpmu_gpci_model_set(gt.m, HVPMU_GPCI_M_PROC_TIME, 0, 4);
	KUNIT_EXPECT_EQ(test, gt_read(ev), 3ULL);
	gt_close(ev);
}

static void gpci_test_authority(struct kunit *test)
{
	struct perf_event_attr attr;
	struct perf_event *ev;

	gt_start(test, 6, HVPMU_GPCI_CAP_GA);
	gt.m->authorised = false;
	gt_raw(&attr, 0x10, 5, 0, 0, 8, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EPERM);
	gt_raw(&attr, 0x20, 2, 0, 0, 8, 0x8);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EPERM);
	/* our own partition needs no permission */
	gt_raw(&attr, 0x20, 3, 0, 0, 8, 0x8);
	ev = gt_open(&attr);
	KUNIT_EXPECT_FALSE(test, IS_ERR(ev));
	gt_close_all();
}

static void gpci_test_lab(struct kunit *test)
{
	struct perf_event_attr attr;
	struct perf_event *ev;

	gt_start(test, 6, HVPMU_GPCI_CAP_GA);
	gt_raw(&attr, HVPMU_GPCI_REQ_HPMCX, 5, 0, 0, 8, 0x18);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, hvpmu_gpci_lab_enable(gt.g, true), -EOPNOTSUPP);

	gt_start(test, 6, HVPMU_GPCI_CAP_GA | HVPMU_GPCI_CAP_LAB);
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface", "lab"), "1\n");
	gt_raw(&attr, HVPMU_GPCI_REQ_HPMCX, 5, 0, 0, 8, 0x18);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EPERM);
	KUNIT_EXPECT_EQ(test, hvpmu_gpci_lab_enable(gt.g, true), 0);
	hvpmu_gpci_model_set(gt.m, HVPMU_GPCI_M_HPMC1, 5, 70);
	ev = gt_open(&attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	hvpmu_gpci_model_set(gt.m, HVPMU_GPCI_M_HPMC1, 5, 95);
	KUNIT_EXPECT_EQ(test, gt_read(ev), 25ULL);
	gt_close(ev);
	/* Set MMCRH writes hypervisor state: never, even with lab enabled */
	gt_raw(&attr, HVPMU_GPCI_REQ_SET_MMCRH, 0, 0, 0, 8, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EINVAL);
	KUNIT_EXPECT_EQ(test, gt.m->set_mmcrh, 0UL);
	KUNIT_EXPECT_EQ(test, hvpmu_gpci_lab_enable(gt.g, false), 0);
	gt_raw(&attr, HVPMU_GPCI_REQ_HPMCX, 5, 0, 0, 8, 0x18);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EPERM);
}

/* Element sizes from the seed (extended layout): the test's own table. */
static unsigned int gt_elem(u32 req)
{
	switch (req) {
	case 0x10: case 0x20: return 0x30;
	case 0x30: return 0x18;
	case 0x50: return 0x50;
	case 0x60: return 0x60;
	case 0x70: return 0xB0;
	case 0x80: case 0xE0: return 0x50;
	case 0x94: return 0x30;
	case 0xF0: return 0x20;
	case 0xF4: return 0x10;
	case 0x100: return 0x18;
	}
	return 0;
}

static void gt_random_attr(struct rnd_state *rs, struct perf_event_attr *attr)
{
	static const u32 reqs[] = {
		0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80, 0x94, 0xE0,
		0xF0, 0xF4, 0x100, 0x80001000, 0x80002000, 0x90, 0x0, 0x11,
	};
	static const u32 ids[] = { 0, 1, 2, 3, 5, 7, 8, 0xffffffff };
	u32 r = prandom_u32_state(rs);
	/* mostly plausible values, so that many pass and reach the model */
	u32 req = r & 3 ? reqs[prandom_u32_state(rs) % ARRAY_SIZE(reqs)] :
		  prandom_u32_state(rs);
	u32 idx = (r >> 2) & 3 ? ids[(r >> 20) % ARRAY_SIZE(ids)] :
		  prandom_u32_state(rs);
	u16 sec = (r >> 4) & 7 ? 0 : prandom_u32_state(rs);
	u8 ver = (r >> 7) & 3 ? 0 : prandom_u32_state(rs) % 12;
	u8 len = (r >> 9) & 7 ? 1 + (r >> 12) % 8 : prandom_u32_state(rs);
	u32 off = (r >> 15) & 7 ? 8 * ((r >> 24) % 12) : prandom_u32_state(rs);

	gt_raw(attr, req, idx, sec, ver, len, off);
	if (!(prandom_u32_state(rs) % 32))
		attr->config2 = BIT_ULL(prandom_u32_state(rs) % 64);
}

static void gt_check_accepted(struct kunit *test, struct perf_event_attr *a)
{
	u32 req = a->config, off = a->config1 >> 32;
	u8 len = a->config1 >> 24;

	KUNIT_EXPECT_NE_MSG(test, gt_elem(req), 0U, "request 0x%x", req);
	KUNIT_EXPECT_TRUE(test, len >= 1 && len <= 8);
	KUNIT_EXPECT_LE(test, off + len, gt_elem(req));
	KUNIT_EXPECT_EQ(test, a->config2, 0ULL);
}

static void gpci_test_random(struct kunit *test)
{
	unsigned int i, accepted = 0, opened = 0;
	struct perf_event_attr attr;
	struct rnd_state rs;
	struct perf_event *ev;

	gt_start(test, 6, HVPMU_GPCI_CAP_GA | HVPMU_GPCI_CAP_LAB);
	prandom_seed_state(&rs, 0x6b636970ULL);
	for (i = 0; i < 100000; i++) {
		int ret;

		gt_random_attr(&rs, &attr);
		ret = hvpmu_gpci_attr_check(gt.g, &attr);
		if (ret) {
			KUNIT_EXPECT_TRUE_MSG(test, ret == -EINVAL ||
					      ret == -EOPNOTSUPP ||
					      ret == -EPERM, "%d", ret);
			continue;
		}
		accepted++;
		gt_check_accepted(test, &attr);
	}
	kunit_info(test, "attr_check: %u of 100000 accepted\n", accepted);
	KUNIT_EXPECT_GT(test, accepted, 10000U);

	for (i = 0; i < 3000; i++) {
		gt_random_attr(&rs, &attr);
		ev = gt_open(&attr);
		if (IS_ERR(ev)) {
			long err = PTR_ERR(ev);

			KUNIT_EXPECT_TRUE_MSG(test, err == -EINVAL ||
					      err == -EOPNOTSUPP ||
					      err == -EPERM || err == -ENODEV,
					      "%ld", err);
			continue;
		}
		opened++;
		gt_check_accepted(test, &attr);
		gt_read(ev);
		gt_close(ev);
	}
	kunit_info(test, "perf core: %u of 3000 opened\n", opened);
	KUNIT_EXPECT_GT(test, opened, 100U);
	/* nothing unvalidated reached the hypervisor */
	KUNIT_EXPECT_EQ(test, gt.m->unknown_req, 0UL);
	KUNIT_EXPECT_EQ(test, gt.m->set_mmcrh, 0UL);
	KUNIT_EXPECT_EQ(test, gt.m->calls_by_req[7], 0UL);
	KUNIT_EXPECT_EQ(test, gt.m->calls_by_req[4], 1UL);	/* probe's 0x40 */
	KUNIT_EXPECT_EQ(test, gt.m->misaligned, 0UL);
}

/* The model itself: big-endian block, starting_index, LoPAR header. */
static void gpci_test_model(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, 2 * HVPMU_GPCI_BUF_SIZE, GFP_KERNEL);
	struct hvpmu_gpci_hdr *h = (void *)buf;
	u8 *e = buf + HVPMU_GPCI_HDR_SIZE;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_TRUE(test, IS_ALIGNED((unsigned long)buf, 4096));
	hvpmu_gpci_model_init(gt.m, 6);
	hvpmu_gpci_model_set(gt.m, HVPMU_GPCI_M_CAPPED, 7, 0x0102030405060708);
	h->request = cpu_to_be32(0x20);
	h->starting_index = cpu_to_be32(4);
	KUNIT_EXPECT_EQ(test, hvpmu_gpci_model_hcall(gt.m, buf, 4096), 0L);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h->starting_index), 7U);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h->returned_values), 1U);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h->cv_element_size), 0x30U);
	KUNIT_EXPECT_EQ(test, h->version_out, 6);
	KUNIT_EXPECT_EQ(test, e[0x07], 7);
	KUNIT_EXPECT_EQ(test, e[0x10], 0x01);
	KUNIT_EXPECT_EQ(test, e[0x17], 0x08);

	/* LoPAR layout: returned_values is a 32-bit field at offset 8 */
	hvpmu_gpci_model_init(gt.m, 0);
	memset(buf, 0, 4096);
	h->request = cpu_to_be32(0x10);
	h->starting_index = cpu_to_be32(2);
	KUNIT_EXPECT_EQ(test, hvpmu_gpci_model_hcall(gt.m, buf, 4096), 0L);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(buf + 8), 5U);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h->cv_element_size), 0U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(e + 0x30 + 8), 0x103U);

	/* a block crossing a 4 KiB boundary is not accessible */
	KUNIT_EXPECT_EQ(test, hvpmu_gpci_model_hcall(gt.m, buf + 8, 4096),
			(long)HVPMU_H_PRIVILEGE);
	/* capabilities only for the caller itself */
	memset(buf, 0, 4096);
	h->request = cpu_to_be32(0x40);
	h->starting_index = cpu_to_be32(0);
	KUNIT_EXPECT_EQ(test, hvpmu_gpci_model_hcall(gt.m, buf, 4096),
			(long)HVPMU_H_NOT_AVAILABLE);
	h->request = cpu_to_be32(0x12345);
	KUNIT_EXPECT_EQ(test, hvpmu_gpci_model_hcall(gt.m, buf, 4096),
			(long)HVPMU_H_PARAMETER);
	KUNIT_EXPECT_EQ(test, gt.m->unknown_req, 1UL);
	KUNIT_EXPECT_EQ(test, gt.m->calls, 4UL);
}

/* Text for the sim parsers: they modify their input. */
static int gt_sim(struct kunit *test, int (*fn)(struct hvpmu_gpci_model *m,
						char *text),
		  const char *text)
{
	char *buf = kunit_kzalloc(test, strlen(text) + 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	strcpy(buf, text);
	return fn(gt.sim ?: gt.m, buf);
}

static u64 gt_ctr(enum hvpmu_gpci_model_ctr c, u32 id)
{
	struct hvpmu_gpci_model_entity *t = gt.m->chips;
	unsigned int i, nr = gt.m->nr_chips;

	if (c == HVPMU_GPCI_M_PROC_TIME || c >= HVPMU_GPCI_M_HPMC1) {
		t = gt.m->procs;
		nr = gt.m->nr_procs;
	} else if (c <= HVPMU_GPCI_M_RUN_CYCLES) {
		t = gt.m->parts;
		nr = gt.m->nr_parts;
	}
	for (i = 0; i < nr; i++)
		if (t[i].id == id)
			return t[i].ctr[c];
	return U64_MAX;
}

/* The inject file: every counter of every request, by its documented name. */
static void gpci_test_sim_inject(struct kunit *test)
{
	static const struct {
		const char *kind, *name;
		enum hvpmu_gpci_model_ctr ctr;
	} names[] = {
		{ "processor", "processor_time", HVPMU_GPCI_M_PROC_TIME },
		{ "partition", "entitled_cycles", HVPMU_GPCI_M_ENTITLED },
		{ "partition", "capped_cycles", HVPMU_GPCI_M_CAPPED },
		{ "partition", "uncapped_cycles", HVPMU_GPCI_M_UNCAPPED },
		{ "partition", "donated_cycles", HVPMU_GPCI_M_DONATED },
		{ "partition", "idle_cycles", HVPMU_GPCI_M_IDLE },
		{ "partition", "run_instructions", HVPMU_GPCI_M_RUN_INSTR },
		{ "partition", "run_cycles", HVPMU_GPCI_M_RUN_CYCLES },
		{ "chip", "idle_a", HVPMU_GPCI_M_IDLE_A },
		{ "chip", "idle_b", HVPMU_GPCI_M_IDLE_B },
		{ "chip", "idle_c", HVPMU_GPCI_M_IDLE_C },
		{ "chip", "time_a", HVPMU_GPCI_M_TIME_A },
		{ "chip", "time_b", HVPMU_GPCI_M_TIME_B },
		{ "chip", "time_c", HVPMU_GPCI_M_TIME_C },
		{ "chip", "total_abc", HVPMU_GPCI_M_TOTAL_ABC },
		{ "chip", "idle_w", HVPMU_GPCI_M_IDLE_W },
		{ "chip", "idle_x", HVPMU_GPCI_M_IDLE_X },
		{ "chip", "idle_y", HVPMU_GPCI_M_IDLE_Y },
		{ "chip", "idle_z", HVPMU_GPCI_M_IDLE_Z },
		{ "chip", "time_w", HVPMU_GPCI_M_TIME_W },
		{ "chip", "time_x", HVPMU_GPCI_M_TIME_X },
		{ "chip", "time_y", HVPMU_GPCI_M_TIME_Y },
		{ "chip", "time_z", HVPMU_GPCI_M_TIME_Z },
		{ "chip", "total_wxyz", HVPMU_GPCI_M_TOTAL_WXYZ },
		{ "processor", "hpmc1", HVPMU_GPCI_M_HPMC1 },
		{ "processor", "hpmc2", HVPMU_GPCI_M_HPMC2 },
	};
	static const char *const bad[] = {
		"partition 3 entitled_cycles +=",
		"partition 3 entitled_cycles ++ 5",
		"partition 3 entitled_cycles 5",
		"processor 3 entitled_cycles = 5",	/* wrong kind */
		"chip 0 processor_time = 5",
		"partition x entitled_cycles = 5",
		"partition 3 entitled = 5",
		"partition 3 entitled_cycles = 5 6",
		"partition 3 entitled_cycles = -5",
		"partition 3 entitled_cycles = 18446744073709551616",
		"partition 4294967296 entitled_cycles = 1",
		"node 3 entitled_cycles = 1",
		"partition",
	};
	static const char multi[] =
		"# setup\n\npartition 3 entitled_cycles = 0xffffffffffffffff\n"
		"partition 3 entitled_cycles += 2\n"
		"partition 3 idle_cycles += 5\npartition 3 idle_cycles += 6\n";
	static const char partial[] =
		"partition 3 entitled_cycles += 1\nbad\n"
		"partition 3 entitled_cycles += 1\n";
	unsigned int i;
	char line[64];
	u32 id;

	KUNIT_ASSERT_EQ(test, ARRAY_SIZE(names), (size_t)HVPMU_GPCI_M_NR);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		KUNIT_ASSERT_EQ(test, names[i].ctr, i);
		/* one past a gap of each table */
		id = names[i].kind[0] == 'p' ? names[i].kind[1] == 'r' ? 5 : 7 : 8;
		snprintf(line, sizeof(line), "%s %u %s = %u", names[i].kind, id,
			 names[i].name, 1000 + i);
		KUNIT_EXPECT_EQ_MSG(test, gt_sim(test, hvpmu_gpci_sim_inject,
						 line), 0, "%s", line);
		snprintf(line, sizeof(line), "  %s\t%u %s += 0x%x\n",
			 names[i].kind, id, names[i].name, 0x10 * i);
		KUNIT_EXPECT_EQ_MSG(test, gt_sim(test, hvpmu_gpci_sim_inject,
						 line), 0, "%s", line);
		KUNIT_EXPECT_EQ_MSG(test, gt_ctr(i, id), 1000ULL + 17 * i,
				    "%s", names[i].name);
		/* only that entity moved */
		KUNIT_EXPECT_EQ(test, gt_ctr(i, i == 0 || i >= 24 ? 0 : 1), 0ULL);
	}

	/* several lines, comments, blank lines; += wraps like the counter */
	KUNIT_EXPECT_EQ(test, gt_sim(test, hvpmu_gpci_sim_inject, multi), 0);
	KUNIT_EXPECT_EQ(test, gt_ctr(HVPMU_GPCI_M_ENTITLED, 3), 1ULL);
	KUNIT_EXPECT_EQ(test, gt_ctr(HVPMU_GPCI_M_IDLE, 3), 11ULL);

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, gt_sim(test, hvpmu_gpci_sim_inject,
						 bad[i]), -EINVAL, "%s", bad[i]);
	KUNIT_EXPECT_EQ(test, gt_ctr(HVPMU_GPCI_M_ENTITLED, 3), 1ULL);
	/* entities the model has not: gaps in the tables */
	KUNIT_EXPECT_EQ(test, gt_sim(test, hvpmu_gpci_sim_inject,
				     "processor 4 processor_time = 1"), -ENOENT);
	KUNIT_EXPECT_EQ(test, gt_sim(test, hvpmu_gpci_sim_inject,
				     "partition 4 entitled_cycles = 1"), -ENOENT);
	KUNIT_EXPECT_EQ(test, gt_sim(test, hvpmu_gpci_sim_inject,
				     "chip 2 idle_a = 1"), -ENOENT);
	/* the lines before a bad one are applied, the ones after are not */
	KUNIT_EXPECT_EQ(test, gt_sim(test, hvpmu_gpci_sim_inject, partial),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, gt_ctr(HVPMU_GPCI_M_ENTITLED, 3), 2ULL);
	KUNIT_EXPECT_EQ(test, gt.m->calls, 0UL);
}

static long gt_hcall(u8 *buf, u32 req, u32 idx)
{
	struct hvpmu_gpci_hdr *h = (void *)buf;

	memset(buf, 0, HVPMU_GPCI_BUF_SIZE);
	h->request = cpu_to_be32(req);
	h->starting_index = cpu_to_be32(idx);
	return hvpmu_gpci_model_hcall(gt.m, buf, HVPMU_GPCI_BUF_SIZE);
}

/* The error file and the calls file. */
static void gpci_test_sim_error(struct kunit *test)
{
	static const struct { const char *name; long rc; } rcs[] = {
		{ "H_HARDWARE", -1 }, { "H_FUNCTION", -2 },
		{ "H_PRIVILEGE", -3 }, { "H_PARAMETER", -4 },
		{ "H_AUTHORITY", -10 }, { "H_NOT_AVAILABLE", 3 },
		{ "-9999", -9999 },
	};
	static const char *const bad[] = {
		"H_AUTHORITY", "H_AUTHORITY 0", "H_AUTHORITY x", "H_FOO 1",
		"0 1", "H_AUTHORITY 1 after", "H_AUTHORITY 1 later 3",
		"H_AUTHORITY 1 after -1", "H_PARAMETER 1 detail 0x100000000",
		"collection", "collection maybe", "collection on x",
		"index_skew", "index_skew x", "element_size 70000", "clear now",
	};
	u8 *buf = kunit_kzalloc(test, 2 * HVPMU_GPCI_BUF_SIZE, GFP_KERNEL);
	struct hvpmu_gpci_hdr *h = (void *)buf;
	struct seq_file s = { .size = PAGE_SIZE };
	unsigned int i;
	char line[48];

	KUNIT_ASSERT_NOT_NULL(test, buf);
	s.buf = kunit_kzalloc(test, PAGE_SIZE + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s.buf);

	for (i = 0; i < ARRAY_SIZE(rcs); i++) {
		snprintf(line, sizeof(line), "%s 1", rcs[i].name);
		KUNIT_EXPECT_EQ(test, gt_sim(test, hvpmu_gpci_sim_error, line),
				0);
		KUNIT_EXPECT_EQ_MSG(test, gt_hcall(buf, 0x20, 3), rcs[i].rc,
				    "%s", rcs[i].name);
		KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x20, 3), 0L);
	}

	/* two good calls, then two failures with detail_rc, then good */
	KUNIT_EXPECT_EQ(test, gt_sim(test, hvpmu_gpci_sim_error,
				     "H_PARAMETER 2 after 2 detail 0x1b"), 0);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x20, 3), 0L);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x20, 3), 0L);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x20, 3), (long)HVPMU_H_PARAMETER);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h->detail_rc), 0x1bU);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x20, 3), (long)HVPMU_H_PARAMETER);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x20, 3), 0L);

	/* revoked collection: other partitions and processors refused */
	KUNIT_EXPECT_EQ(test, gt_sim(test, hvpmu_gpci_sim_error,
				     "collection off"), 0);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x20, 7), (long)HVPMU_H_AUTHORITY);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x10, 0), (long)HVPMU_H_AUTHORITY);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x20, 3), 0L);
	KUNIT_EXPECT_EQ(test, gt_sim(test, hvpmu_gpci_sim_error,
				     "collection on"), 0);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x20, 7), 0L);

	/* corrupted replies */
	KUNIT_EXPECT_EQ(test, gt_sim(test, hvpmu_gpci_sim_error,
				     "index_skew -1\nelement_size 8"), 0);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x20, 7), 0L);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h->starting_index), 6U);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h->cv_element_size), 8U);

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, gt_sim(test, hvpmu_gpci_sim_error,
						 bad[i]), -EINVAL, "%s", bad[i]);

	/* clear undoes everything */
	KUNIT_EXPECT_EQ(test, gt_sim(test, hvpmu_gpci_sim_error,
				     "H_HARDWARE 5\ncollection off\nclear"), 0);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x20, 7), 0L);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h->starting_index), 7U);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h->cv_element_size), 0x30U);

	/* the calls file, from a fresh model */
	hvpmu_gpci_model_init(gt.m, 6);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x20, 2), 0L);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x40, 0),
			(long)HVPMU_H_NOT_AVAILABLE);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x12345, 0),
			(long)HVPMU_H_PARAMETER);
	KUNIT_EXPECT_EQ(test, hvpmu_gpci_model_hcall(gt.m, buf + 8, 4096),
			(long)HVPMU_H_PRIVILEGE);
	KUNIT_EXPECT_EQ(test, gt_sim(test, hvpmu_gpci_sim_error,
				     "H_HARDWARE 2 after 5\ncollection off"), 0);
	hvpmu_gpci_sim_calls(gt.m, &s);
	s.buf[s.count] = '\0';
	KUNIT_EXPECT_STREQ(test, s.buf,
			   "hcalls 4\nrequest_0x10 0\nrequest_0x20 1\n"
			   "request_0x30 0\nrequest_0x40 1\nrequest_0x50 0\n"
			   "request_0x60 0\nrequest_lab 0\nunknown_request 1\n"
			   "set_mmcrh 0\nmisaligned 1\nlast_rc -3\n"
			   "pending_errors 2\ncollection off\n"
			   "counter_info_version 6\n");
}

/* sim_init/exit: hv_gpci on the model, driven through the parsers. */
static void gpci_test_sim(struct kunit *test)
{
	struct dentry *dir = debugfs_create_dir("hvpmu_gpci_test", NULL);
	struct perf_event_attr attr = { .size = sizeof(attr) };
	struct perf_event *own, *other;
	struct hvpmu_gpci_model *m;
	struct hvpmu_gpci_pmu *p;
	struct pmu *pmu;
	unsigned long calls;

	KUNIT_EXPECT_NULL(test, hvpmu_gpci_sim_pmu());
	KUNIT_ASSERT_EQ(test, hvpmu_gpci_sim_init(dir), 0);
	KUNIT_EXPECT_EQ(test, hvpmu_gpci_sim_init(dir), -EBUSY);
	p = hvpmu_gpci_sim_pmu();
	m = hvpmu_gpci_sim_model();
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_NOT_NULL(test, m);
	pmu = hvpmu_gpci_to_pmu(p);
	KUNIT_EXPECT_STREQ(test, pmu->name, "hv_gpci");
	KUNIT_EXPECT_PTR_EQ(test, pmu->module, THIS_MODULE);
	KUNIT_EXPECT_EQ(test, m->version, 8);
	/* version 8: 0x10 and the five 0x20 events; 0x30/0x50/0x60 gone */
	KUNIT_EXPECT_EQ(test, hvpmu_gpci_encoding(p)->nr_events, 6U);
	KUNIT_EXPECT_EQ(test, hvpmu_gpci_model_calls(m), 1UL);

	/* entitled cycles of our partition 3 and of partition 7 */
	attr.type = pmu->type;
	attr.config = 0x20 | 3ULL << 32;
	attr.config1 = 8ULL << 24 | 0x08ULL << 32;
	own = gt_open(&attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(own));
	attr.config = 0x20 | 7ULL << 32;
	other = gt_open(&attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(other));

	gt.sim = m;
	KUNIT_EXPECT_EQ(test, gt_sim(test, hvpmu_gpci_sim_inject,
				     "partition 3 entitled_cycles += 1000\n"
				     "partition 3 entitled_cycles += 234\n"
				     "partition 7 entitled_cycles += 5\n"), 0);
	calls = hvpmu_gpci_model_calls(m);
	KUNIT_EXPECT_EQ(test, gt_read(own), 1234ULL);
	KUNIT_EXPECT_EQ(test, gt_read(other), 5ULL);
	KUNIT_EXPECT_EQ(test, hvpmu_gpci_model_calls(m), calls + 2);

	/* a failed hcall keeps the count; the next read catches up */
	KUNIT_EXPECT_EQ(test, gt_sim(test, hvpmu_gpci_sim_error,
				     "H_AUTHORITY 1"), 0);
	KUNIT_EXPECT_EQ(test, gt_sim(test, hvpmu_gpci_sim_inject,
				     "partition 3 entitled_cycles += 66"), 0);
	KUNIT_EXPECT_EQ(test, gt_read(own), 1234ULL);
	KUNIT_EXPECT_EQ(test, gt_read(own), 1300ULL);

	/* revoked collection: partition 7 stalls, our own still counts */
	KUNIT_EXPECT_EQ(test, gt_sim(test, hvpmu_gpci_sim_error,
				     "collection off"), 0);
	KUNIT_EXPECT_EQ(test, gt_sim(test, hvpmu_gpci_sim_inject,
				     "partition 7 entitled_cycles += 10\n"
				     "partition 3 entitled_cycles += 1"), 0);
	KUNIT_EXPECT_EQ(test, gt_read(other), 5ULL);
	KUNIT_EXPECT_EQ(test, gt_read(own), 1301ULL);
	KUNIT_EXPECT_EQ(test, m->last_rc, 0L);
	KUNIT_EXPECT_EQ(test, gt_sim(test, hvpmu_gpci_sim_error,
				     "collection on"), 0);
	KUNIT_EXPECT_EQ(test, gt_read(other), 15ULL);
	gt.sim = NULL;

	gt_close(own);
	gt_close(other);
	hvpmu_gpci_sim_exit();
	KUNIT_EXPECT_NULL(test, hvpmu_gpci_sim_pmu());
	KUNIT_EXPECT_NULL(test, hvpmu_gpci_sim_model());
	/* the name is free again: nothing stayed registered */
	KUNIT_EXPECT_EQ(test, hvpmu_gpci_sim_init(dir), 0);
	hvpmu_gpci_sim_exit();
	hvpmu_gpci_sim_exit();
	debugfs_remove_recursive(dir);
}

static struct kunit_case gpci_cases[] = {
	KUNIT_CASE(gpci_test_model),
	KUNIT_CASE(gpci_test_format),
	KUNIT_CASE(gpci_test_named_v0),
	KUNIT_CASE(gpci_test_named_v6),
	KUNIT_CASE(gpci_test_named_v8),
	KUNIT_CASE(gpci_test_group),
	KUNIT_CASE(gpci_test_errors_probe),
	KUNIT_CASE(gpci_test_errors_init),
	KUNIT_CASE(gpci_test_errors_read),
	KUNIT_CASE(gpci_test_robust),
	KUNIT_CASE(gpci_test_big_table),
	KUNIT_CASE(gpci_test_authority),
	KUNIT_CASE(gpci_test_lab),
	KUNIT_CASE(gpci_test_random),
	KUNIT_CASE(gpci_test_sim_inject),
	KUNIT_CASE(gpci_test_sim_error),
	KUNIT_CASE(gpci_test_sim),
	{}
};

static struct kunit_suite gpci_suite = {
	.name = "hvpmu_gpci",
	.init = gt_init,
	.exit = gt_exit,
	.test_cases = gpci_cases,
};

kunit_test_suite(gpci_suite);

MODULE_DESCRIPTION("KUnit tests of the hv_gpci PMU");
MODULE_LICENSE("GPL");
