// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the niagara_mmustat driver on the model of the T1
 * hypervisor's MMU statistics API, inside the real perf core. Expected
 * offsets and numbers are typed in from the sun4v MMU statistics API
 * (mmustat.txt, FWARC 2005/467).
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/kthread.h>
#include "sun4v_mmustat_model.h"
#include <linux/perf_event.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "pmu_format_kunit.h"

#define TICK_HZ		1200000000ULL	/* a 1.2 GHz T1 */
#define NR_STATS	32
#define MAX_TEST_CPUS	2
/* A name of its own: the suite also runs beside a T1's niagara_mmustat. */
#define MMUSTAT_KUNIT_NAME	"niagara_mmustat_kunit"

struct mm_env {
	struct sun4v_mmustat_model *m;
	struct sun4v_mmustat_pmu *mmu;
	u32 type;
	/*
	 * what each slot must hold at teardown: another user's buffer, or
	 * one of ours the driver had to give up
	 */
	u64 expect_slot[MAX_TEST_CPUS];
	/* driver buffers given up (leaked) by teardown */
	unsigned long expect_leaked;
};

/* The word index of statistic @i, 0 <= i < 32 (every non-reserved word). */
static unsigned int stat_word(unsigned int i)
{
	static const unsigned int pgsz[] = {
		SUN4V_MMUSTAT_PMU_PGSZ_8K, SUN4V_MMUSTAT_PMU_PGSZ_64K,
		SUN4V_MMUSTAT_PMU_PGSZ_4M, SUN4V_MMUSTAT_PMU_PGSZ_256M,
	};

	return sun4v_mmustat_pmu_word(i & 16, i & 8, pgsz[(i >> 1) & 3], i & 1);
}

static unsigned int test_cpus(void)
{
	return min_t(unsigned int, num_online_cpus(), MAX_TEST_CPUS);
}

static struct mm_env *env_probe(struct kunit *test, bool niagara1, u64 hz)
{
	struct mm_env *env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, env);
	env->m = sun4v_mmustat_model_create(niagara1, hz);
	KUNIT_ASSERT_NOT_NULL(test, env->m);
	test->priv = env;
	return env;
}

static void env_start(struct kunit *test, struct mm_env *env)
{
	env->mmu = sun4v_mmustat_pmu_probe(sun4v_mmustat_model_ops(env->m),
					   MMUSTAT_KUNIT_NAME, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(env->mmu));
	env->type = sun4v_mmustat_pmu_to_pmu(env->mmu)->type;
}

static struct mm_env *env_init(struct kunit *test)
{
	struct mm_env *env = env_probe(test, true, TICK_HZ);

	env_start(test, env);
	return env;
}

/* After every test: the driver let go of everything it installed. */
static void mm_exit(struct kunit *test)
{
	struct mm_env *env = test->priv;
	unsigned int cpu;

	if (!env)
		return;
	if (env->mmu && !IS_ERR(env->mmu))
		sun4v_mmustat_pmu_remove(env->mmu);
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_wrong_cpu(env->m), 0UL);
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_bad_frees(env->m), 0UL);
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_leaked(env->m),
			env->expect_leaked);
	/* Given-up buffers are never freed; every other one is. */
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_live_buffers(env->m),
			(long)env->expect_leaked);
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_slot(env->m, cpu),
				cpu < MAX_TEST_CPUS ? env->expect_slot[cpu] : 0);
	sun4v_mmustat_model_destroy(env->m);
}

static struct perf_event *counter(struct mm_env *env, u64 config, int cpu,
				  struct task_struct *task)
{
	struct perf_event_attr attr = {
		.type = env->type,
		.size = sizeof(attr),
		.config = config,
	};

	return perf_event_create_kernel_counter(&attr, cpu, task, NULL, NULL);
}

static u64 value(struct perf_event *ev)
{
	u64 enabled, running;

	return perf_event_read_value(ev, &enabled, &running);
}

static void traffic(struct mm_env *env, unsigned int cpu, unsigned int word,
		    u64 n)
{
	sun4v_mmustat_model_traffic(env->m, cpu, word, n);
}

static unsigned long calls(struct mm_env *env,
			   enum sun4v_mmustat_model_call c)
{
	return sun4v_mmustat_model_calls(env->m, c);
}

/* --- probe and sysfs ---------------------------------------------------- */

static void mm_test_probe_ebadtrap(struct kunit *test)
{
	struct mm_env *env = env_probe(test, false, TICK_HZ);
	struct sun4v_mmustat_pmu *mmu;

	mmu = sun4v_mmustat_pmu_probe(sun4v_mmustat_model_ops(env->m),
				      MMUSTAT_KUNIT_NAME, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(mmu), -ENODEV);
	KUNIT_EXPECT_EQ(test, calls(env, SUN4V_MMUSTAT_PMU_CALL_INFO), 1UL);
	KUNIT_EXPECT_EQ(test, calls(env, SUN4V_MMUSTAT_PMU_CALL_CONF), 0UL);
	KUNIT_EXPECT_EQ(test, calls(env, SUN4V_MMUSTAT_PMU_CALL_ALLOC), 0UL);

	/* Any other status of the probing info call: -EIO, nothing kept. */
	sun4v_mmustat_model_destroy(env->m);
	env->m = sun4v_mmustat_model_create(true, TICK_HZ);
	KUNIT_ASSERT_NOT_NULL(test, env->m);
	sun4v_mmustat_model_inject(env->m, SUN4V_MMUSTAT_PMU_CALL_INFO, 0, 6);
	mmu = sun4v_mmustat_pmu_probe(sun4v_mmustat_model_ops(env->m),
				      MMUSTAT_KUNIT_NAME, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(mmu), -EIO);
	KUNIT_EXPECT_EQ(test, calls(env, SUN4V_MMUSTAT_PMU_CALL_ALLOC), 0UL);
}

static void mm_test_sysfs(struct kunit *test)
{
	struct mm_env *env = env_init(test);
	struct pmu *pmu = sun4v_mmustat_pmu_to_pmu(env->mmu);
	const struct attribute_group *fmt = pmu->attr_groups[0];
	const struct attribute_group *evs = pmu->attr_groups[1];
	struct device *dev = pmu->dev;

	KUNIT_ASSERT_STREQ(test, fmt->name, "format");
	KUNIT_ASSERT_STREQ(test, evs->name, "events");
	KUNIT_EXPECT_EQ(test, pmu_kunit_count(dev, fmt), 4U);
	KUNIT_EXPECT_STREQ(test, pmu_kunit_group_file(test, dev, fmt, "ticks"), "config:0\n");
	KUNIT_EXPECT_STREQ(test, pmu_kunit_group_file(test, dev, fmt, "pgsz"), "config:1-3\n");
	KUNIT_EXPECT_STREQ(test, pmu_kunit_group_file(test, dev, fmt, "ctxnon0"), "config:4\n");
	KUNIT_EXPECT_STREQ(test, pmu_kunit_group_file(test, dev, fmt, "dmmu"), "config:5\n");

	/* 32 counts + 16 time views, each time view with .unit and .scale */
	KUNIT_EXPECT_EQ(test, pmu_kunit_count(dev, evs), 32U + 16U * 3);
	KUNIT_EXPECT_STREQ(test, pmu_kunit_group_file(test, dev, evs, "dtsb_hits_ctxnon0_8k"),
			   "dmmu=1,ctxnon0=1,pgsz=0,ticks=0\n");
	KUNIT_EXPECT_STREQ(test, pmu_kunit_group_file(test, dev, evs, "itsb_ticks_ctx0_256m"),
			   "dmmu=0,ctxnon0=0,pgsz=5,ticks=1\n");
	KUNIT_EXPECT_STREQ(test, pmu_kunit_group_file(test, dev, evs, "itsb_time_ctxnon0_4m"),
			   "dmmu=0,ctxnon0=1,pgsz=3,ticks=1\n");
	KUNIT_EXPECT_STREQ(test, pmu_kunit_group_file(test, dev, evs, "itsb_time_ctxnon0_4m.unit"),
			   "ns\n");
	KUNIT_EXPECT_STREQ(test, pmu_kunit_group_file(test, dev, evs, "itsb_time_ctxnon0_4m.scale"),
			   "0.833333333333\n");
	KUNIT_EXPECT_NULL(test, pmu_kunit_group_file(test, dev, evs, "itsb_ticks_ctx0_8k.scale"));
	/* Probing allocates buffers but configures nothing yet. */
	KUNIT_EXPECT_EQ(test, calls(env, SUN4V_MMUSTAT_PMU_CALL_CONF), 0UL);
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_live_buffers(env->m),
			(long)num_online_cpus());
	sun4v_mmustat_pmu_remove(env->mmu);

	/* %tick rate unknown: no time views. */
	sun4v_mmustat_model_destroy(env->m);
	env->m = sun4v_mmustat_model_create(true, 0);
	KUNIT_ASSERT_NOT_NULL(test, env->m);
	env_start(test, env);
	pmu = sun4v_mmustat_pmu_to_pmu(env->mmu);
	evs = pmu->attr_groups[1];
	dev = pmu->dev;
	KUNIT_EXPECT_EQ(test, pmu_kunit_count(dev, evs), 32U);
	KUNIT_EXPECT_NULL(test, pmu_kunit_group_file(test, dev, evs, "dtsb_time_ctx0_8k"));
}

/*
 * The sysfs ABI, byte for byte: every file of format/ and events/ as the
 * driver has shown them since it was merged, typed in. A time view (with
 * its .unit and .scale) is shown only when the %tick rate is known; the
 * scales here are for TICK_HZ, 10^9 / 1.2e9 ns per tick.
 */
static const struct { const char *name, *content; } mm_format_files[] = {
	{ "ticks", "config:0\n" },
	{ "pgsz", "config:1-3\n" },
	{ "ctxnon0", "config:4\n" },
	{ "dmmu", "config:5\n" },
};

static const struct mm_event_file {
	const char *name, *content;
	bool time;
} mm_event_files[] = {
	{ "itsb_hits_ctx0_8k", "dmmu=0,ctxnon0=0,pgsz=0,ticks=0\n" },
	{ "itsb_ticks_ctx0_8k", "dmmu=0,ctxnon0=0,pgsz=0,ticks=1\n" },
	{ "itsb_time_ctx0_8k", "dmmu=0,ctxnon0=0,pgsz=0,ticks=1\n", true },
	{ "itsb_time_ctx0_8k.unit", "ns\n", true },
	{ "itsb_time_ctx0_8k.scale", "0.833333333333\n", true },
	{ "itsb_hits_ctx0_64k", "dmmu=0,ctxnon0=0,pgsz=1,ticks=0\n" },
	{ "itsb_ticks_ctx0_64k", "dmmu=0,ctxnon0=0,pgsz=1,ticks=1\n" },
	{ "itsb_time_ctx0_64k", "dmmu=0,ctxnon0=0,pgsz=1,ticks=1\n", true },
	{ "itsb_time_ctx0_64k.unit", "ns\n", true },
	{ "itsb_time_ctx0_64k.scale", "0.833333333333\n", true },
	{ "itsb_hits_ctx0_4m", "dmmu=0,ctxnon0=0,pgsz=3,ticks=0\n" },
	{ "itsb_ticks_ctx0_4m", "dmmu=0,ctxnon0=0,pgsz=3,ticks=1\n" },
	{ "itsb_time_ctx0_4m", "dmmu=0,ctxnon0=0,pgsz=3,ticks=1\n", true },
	{ "itsb_time_ctx0_4m.unit", "ns\n", true },
	{ "itsb_time_ctx0_4m.scale", "0.833333333333\n", true },
	{ "itsb_hits_ctx0_256m", "dmmu=0,ctxnon0=0,pgsz=5,ticks=0\n" },
	{ "itsb_ticks_ctx0_256m", "dmmu=0,ctxnon0=0,pgsz=5,ticks=1\n" },
	{ "itsb_time_ctx0_256m", "dmmu=0,ctxnon0=0,pgsz=5,ticks=1\n", true },
	{ "itsb_time_ctx0_256m.unit", "ns\n", true },
	{ "itsb_time_ctx0_256m.scale", "0.833333333333\n", true },
	{ "itsb_hits_ctxnon0_8k", "dmmu=0,ctxnon0=1,pgsz=0,ticks=0\n" },
	{ "itsb_ticks_ctxnon0_8k", "dmmu=0,ctxnon0=1,pgsz=0,ticks=1\n" },
	{ "itsb_time_ctxnon0_8k", "dmmu=0,ctxnon0=1,pgsz=0,ticks=1\n", true },
	{ "itsb_time_ctxnon0_8k.unit", "ns\n", true },
	{ "itsb_time_ctxnon0_8k.scale", "0.833333333333\n", true },
	{ "itsb_hits_ctxnon0_64k", "dmmu=0,ctxnon0=1,pgsz=1,ticks=0\n" },
	{ "itsb_ticks_ctxnon0_64k", "dmmu=0,ctxnon0=1,pgsz=1,ticks=1\n" },
	{ "itsb_time_ctxnon0_64k", "dmmu=0,ctxnon0=1,pgsz=1,ticks=1\n", true },
	{ "itsb_time_ctxnon0_64k.unit", "ns\n", true },
	{ "itsb_time_ctxnon0_64k.scale", "0.833333333333\n", true },
	{ "itsb_hits_ctxnon0_4m", "dmmu=0,ctxnon0=1,pgsz=3,ticks=0\n" },
	{ "itsb_ticks_ctxnon0_4m", "dmmu=0,ctxnon0=1,pgsz=3,ticks=1\n" },
	{ "itsb_time_ctxnon0_4m", "dmmu=0,ctxnon0=1,pgsz=3,ticks=1\n", true },
	{ "itsb_time_ctxnon0_4m.unit", "ns\n", true },
	{ "itsb_time_ctxnon0_4m.scale", "0.833333333333\n", true },
	{ "itsb_hits_ctxnon0_256m", "dmmu=0,ctxnon0=1,pgsz=5,ticks=0\n" },
	{ "itsb_ticks_ctxnon0_256m", "dmmu=0,ctxnon0=1,pgsz=5,ticks=1\n" },
	{ "itsb_time_ctxnon0_256m", "dmmu=0,ctxnon0=1,pgsz=5,ticks=1\n", true },
	{ "itsb_time_ctxnon0_256m.unit", "ns\n", true },
	{ "itsb_time_ctxnon0_256m.scale", "0.833333333333\n", true },
	{ "dtsb_hits_ctx0_8k", "dmmu=1,ctxnon0=0,pgsz=0,ticks=0\n" },
	{ "dtsb_ticks_ctx0_8k", "dmmu=1,ctxnon0=0,pgsz=0,ticks=1\n" },
	{ "dtsb_time_ctx0_8k", "dmmu=1,ctxnon0=0,pgsz=0,ticks=1\n", true },
	{ "dtsb_time_ctx0_8k.unit", "ns\n", true },
	{ "dtsb_time_ctx0_8k.scale", "0.833333333333\n", true },
	{ "dtsb_hits_ctx0_64k", "dmmu=1,ctxnon0=0,pgsz=1,ticks=0\n" },
	{ "dtsb_ticks_ctx0_64k", "dmmu=1,ctxnon0=0,pgsz=1,ticks=1\n" },
	{ "dtsb_time_ctx0_64k", "dmmu=1,ctxnon0=0,pgsz=1,ticks=1\n", true },
	{ "dtsb_time_ctx0_64k.unit", "ns\n", true },
	{ "dtsb_time_ctx0_64k.scale", "0.833333333333\n", true },
	{ "dtsb_hits_ctx0_4m", "dmmu=1,ctxnon0=0,pgsz=3,ticks=0\n" },
	{ "dtsb_ticks_ctx0_4m", "dmmu=1,ctxnon0=0,pgsz=3,ticks=1\n" },
	{ "dtsb_time_ctx0_4m", "dmmu=1,ctxnon0=0,pgsz=3,ticks=1\n", true },
	{ "dtsb_time_ctx0_4m.unit", "ns\n", true },
	{ "dtsb_time_ctx0_4m.scale", "0.833333333333\n", true },
	{ "dtsb_hits_ctx0_256m", "dmmu=1,ctxnon0=0,pgsz=5,ticks=0\n" },
	{ "dtsb_ticks_ctx0_256m", "dmmu=1,ctxnon0=0,pgsz=5,ticks=1\n" },
	{ "dtsb_time_ctx0_256m", "dmmu=1,ctxnon0=0,pgsz=5,ticks=1\n", true },
	{ "dtsb_time_ctx0_256m.unit", "ns\n", true },
	{ "dtsb_time_ctx0_256m.scale", "0.833333333333\n", true },
	{ "dtsb_hits_ctxnon0_8k", "dmmu=1,ctxnon0=1,pgsz=0,ticks=0\n" },
	{ "dtsb_ticks_ctxnon0_8k", "dmmu=1,ctxnon0=1,pgsz=0,ticks=1\n" },
	{ "dtsb_time_ctxnon0_8k", "dmmu=1,ctxnon0=1,pgsz=0,ticks=1\n", true },
	{ "dtsb_time_ctxnon0_8k.unit", "ns\n", true },
	{ "dtsb_time_ctxnon0_8k.scale", "0.833333333333\n", true },
	{ "dtsb_hits_ctxnon0_64k", "dmmu=1,ctxnon0=1,pgsz=1,ticks=0\n" },
	{ "dtsb_ticks_ctxnon0_64k", "dmmu=1,ctxnon0=1,pgsz=1,ticks=1\n" },
	{ "dtsb_time_ctxnon0_64k", "dmmu=1,ctxnon0=1,pgsz=1,ticks=1\n", true },
	{ "dtsb_time_ctxnon0_64k.unit", "ns\n", true },
	{ "dtsb_time_ctxnon0_64k.scale", "0.833333333333\n", true },
	{ "dtsb_hits_ctxnon0_4m", "dmmu=1,ctxnon0=1,pgsz=3,ticks=0\n" },
	{ "dtsb_ticks_ctxnon0_4m", "dmmu=1,ctxnon0=1,pgsz=3,ticks=1\n" },
	{ "dtsb_time_ctxnon0_4m", "dmmu=1,ctxnon0=1,pgsz=3,ticks=1\n", true },
	{ "dtsb_time_ctxnon0_4m.unit", "ns\n", true },
	{ "dtsb_time_ctxnon0_4m.scale", "0.833333333333\n", true },
	{ "dtsb_hits_ctxnon0_256m", "dmmu=1,ctxnon0=1,pgsz=5,ticks=0\n" },
	{ "dtsb_ticks_ctxnon0_256m", "dmmu=1,ctxnon0=1,pgsz=5,ticks=1\n" },
	{ "dtsb_time_ctxnon0_256m", "dmmu=1,ctxnon0=1,pgsz=5,ticks=1\n", true },
	{ "dtsb_time_ctxnon0_256m.unit", "ns\n", true },
	{ "dtsb_time_ctxnon0_256m.scale", "0.833333333333\n", true },
};

/* Every format/ and events/ file; @time: the %tick rate is known. */
static void mm_expect_event_files(struct kunit *test, struct mm_env *env,
				  bool time)
{
	struct pmu *pmu = sun4v_mmustat_pmu_to_pmu(env->mmu);
	const struct attribute_group *const *g = pmu->attr_groups;
	unsigned int i, n = 0;
	const char *f;

	for (i = 0; i < ARRAY_SIZE(mm_format_files); i++)
		KUNIT_EXPECT_STREQ_MSG(test, pmu_kunit_group_file(test, pmu->dev, g[0],
								  mm_format_files[i].name),
				       mm_format_files[i].content, "format/%s",
				       mm_format_files[i].name);
	KUNIT_EXPECT_EQ(test, pmu_kunit_count(pmu->dev, g[0]), 4U);
	for (i = 0; i < ARRAY_SIZE(mm_event_files); i++) {
		const struct mm_event_file *e = &mm_event_files[i];

		f = pmu_kunit_group_file(test, pmu->dev, g[1], e->name);
		if (e->time && !time) {
			KUNIT_EXPECT_NULL_MSG(test, f, "events/%s", e->name);
			continue;
		}
		n++;
		KUNIT_EXPECT_NOT_NULL_MSG(test, f, "events/%s", e->name);
		if (f)
			KUNIT_EXPECT_STREQ_MSG(test, f, e->content, "events/%s",
					       e->name);
	}
	/* Nothing else: the table is the whole directory. */
	KUNIT_EXPECT_EQ(test, n, time ? 80U : 32U);
	KUNIT_EXPECT_EQ(test, pmu_kunit_count(pmu->dev, g[1]), n);
}

/*
 * The format and event tables are consistent: every term of every event
 * names a field and fits it, every .unit and .scale file belongs to an
 * event shown by the same variants, and the mask event_init checks is
 * exactly the fields' bits.
 */
static void mm_test_tables(struct kunit *test)
{
	struct mm_env *env = env_init(test);
	const struct attribute_group *const *g =
		sun4v_mmustat_pmu_to_pmu(env->mmu)->attr_groups;

	pmu_kunit_check_tables(test, g[0]->attrs, g[1]->attrs);
	pmu_kunit_check_mask(test, g[0]->attrs, mmustat_format_mask);
}

/* Probe again, on a fresh model whose %tick runs at @hz. */
static void mm_reprobe(struct kunit *test, struct mm_env *env, u64 hz)
{
	sun4v_mmustat_pmu_remove(env->mmu);
	env->mmu = NULL;
	sun4v_mmustat_model_destroy(env->m);
	env->m = sun4v_mmustat_model_create(true, hz);
	KUNIT_ASSERT_NOT_NULL(test, env->m);
	env_start(test, env);
}

static void mm_test_sysfs_abi(struct kunit *test)
{
	static const struct { u64 hz; const char *scale; } scales[] = {
		{ 1000000000ULL, "1.000000000000\n" },
		{ 3000000000ULL, "0.333333333333\n" },
		{ 7, "142857142.857142857142\n" },
		{ 1, "1000000000.000000000000\n" },
	};
	struct mm_env *env = env_init(test);
	const struct attribute_group *evs;
	struct pmu *pmu;
	unsigned int i;

	mm_expect_event_files(test, env, true);

	mm_reprobe(test, env, 0);
	mm_expect_event_files(test, env, false);

	/* The scale is 10^9 / hz with 12 decimals, cut, not rounded. */
	for (i = 0; i < ARRAY_SIZE(scales); i++) {
		mm_reprobe(test, env, scales[i].hz);
		pmu = sun4v_mmustat_pmu_to_pmu(env->mmu);
		evs = pmu->attr_groups[1];
		KUNIT_EXPECT_STREQ(test, pmu_kunit_group_file(test, pmu->dev, evs,
							      "itsb_time_ctx0_8k.scale"),
				   scales[i].scale);
		KUNIT_EXPECT_STREQ(test, pmu_kunit_group_file(test, pmu->dev, evs,
							      "dtsb_time_ctxnon0_256m.scale"),
				   scales[i].scale);
		KUNIT_EXPECT_EQ(test, pmu_kunit_count(pmu->dev, evs), 80U);
	}
}

/* --- counting ----------------------------------------------------------- */

static void mm_test_percpu_all(struct kunit *test)
{
	struct mm_env *env = env_init(test);
	struct perf_event *ev[MAX_TEST_CPUS][NR_STATS];
	unsigned int cpu, i, round;

	for (cpu = 0; cpu < test_cpus(); cpu++) {
		/* Earlier traffic is nobody's: no buffer yet. */
		traffic(env, cpu, stat_word(0), 99);
		for (i = 0; i < NR_STATS; i++) {
			ev[cpu][i] = counter(env, stat_word(i), cpu, NULL);
			KUNIT_ASSERT_FALSE(test, IS_ERR(ev[cpu][i]));
		}
		KUNIT_EXPECT_NE(test, sun4v_mmustat_model_slot(env->m, cpu), 0ULL);
	}
	for (round = 1; round <= 3; round++) {
		for (cpu = 0; cpu < test_cpus(); cpu++)
			for (i = 0; i < NR_STATS; i++)
				traffic(env, cpu, stat_word(i),
					1000000ULL * (cpu + 1) + 1000 * i + 7);
		for (cpu = 0; cpu < test_cpus(); cpu++)
			for (i = 0; i < NR_STATS; i++)
				KUNIT_EXPECT_EQ(test, value(ev[cpu][i]),
						round * (1000000ULL * (cpu + 1) +
							 1000 * i + 7));
	}
	for (cpu = 0; cpu < test_cpus(); cpu++)
		for (i = 0; i < NR_STATS; i++)
			perf_event_release_kernel(ev[cpu][i]);
	/* One buffer per CPU, configured once, taken out after the last event. */
	KUNIT_EXPECT_EQ(test, calls(env, SUN4V_MMUSTAT_PMU_CALL_CONF),
			2UL * test_cpus());
	for (cpu = 0; cpu < test_cpus(); cpu++)
		KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_slot(env->m, cpu), 0ULL);
}

struct mm_task {
	struct mm_env *env;
	struct completion go, done;
	bool stop;
	unsigned int round;
};

static int mm_task_fn(void *data)
{
	struct mm_task *t = data;
	unsigned int cpu, i;

	complete(&t->done);	/* started */
	for (;;) {
		wait_for_completion(&t->go);
		if (READ_ONCE(t->stop))
			break;
		cpu = get_cpu();
		for (i = 0; i < NR_STATS; i++)
			traffic(t->env, cpu, stat_word(i), 100 * i + t->round);
		put_cpu();
		complete(&t->done);
	}
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/*
 * Wait until @task sleeps in wait_for_completion() and its events are
 * scheduled out: from then on it does not run until the next complete().
 */
static void wait_asleep(struct kunit *test, struct task_struct *task,
			struct perf_event *ev)
{
	int i;

	for (i = 0; i < 20000; i++) {
		if ((READ_ONCE(task->__state) & TASK_UNINTERRUPTIBLE) &&
		    READ_ONCE(ev->state) != PERF_EVENT_STATE_ACTIVE)
			return;
		usleep_range(50, 100);
	}
	KUNIT_FAIL(test, "test thread did not go to sleep");
}

static void mm_test_pertask(struct kunit *test)
{
	struct mm_env *env = env_init(test);
	struct perf_event *ev[NR_STATS], *witness[MAX_TEST_CPUS];
	struct task_struct *task;
	struct mm_task *t;
	u64 expect[NR_STATS] = { }, wexp[MAX_TEST_CPUS] = { };
	unsigned int cpu, i, round;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	t->env = env;
	init_completion(&t->go);
	init_completion(&t->done);

	/* Per-CPU witnesses see everything on their CPU. */
	for (cpu = 0; cpu < test_cpus(); cpu++) {
		witness[cpu] = counter(env, stat_word(0), cpu, NULL);
		KUNIT_ASSERT_FALSE(test, IS_ERR(witness[cpu]));
	}

	task = kthread_create(mm_task_fn, t, "mmustat_test");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	get_task_struct(task);
	for (i = 0; i < NR_STATS; i++) {
		ev[i] = counter(env, stat_word(i), -1, task);
		KUNIT_ASSERT_FALSE(test, IS_ERR(ev[i]));
	}
	wake_up_process(task);
	wait_for_completion(&t->done);
	wait_asleep(test, task, ev[0]);

	for (round = 0; round < 6; round++) {
		cpu = round % test_cpus();
		set_cpus_allowed_ptr(task, cpumask_of(cpu));
		/* Traffic while the task sleeps: the task must not see it. */
		for (i = 0; i < test_cpus(); i++) {
			traffic(env, i, stat_word(0), 5000 + i);
			wexp[i] += 5000 + i;
		}
		t->round = round;
		complete(&t->go);
		wait_for_completion(&t->done);
		wait_asleep(test, task, ev[0]);
		for (i = 0; i < NR_STATS; i++)
			expect[i] += 100 * i + round;
		wexp[cpu] += round;
		for (i = 0; i < NR_STATS; i++)
			KUNIT_EXPECT_EQ(test, value(ev[i]), expect[i]);
	}
	for (cpu = 0; cpu < test_cpus(); cpu++)
		KUNIT_EXPECT_EQ(test, value(witness[cpu]), wexp[cpu]);

	WRITE_ONCE(t->stop, true);
	complete(&t->go);
	kthread_stop(task);
	put_task_struct(task);
	for (i = 0; i < NR_STATS; i++)
		perf_event_release_kernel(ev[i]);
	for (cpu = 0; cpu < test_cpus(); cpu++)
		perf_event_release_kernel(witness[cpu]);
}

/* --- another user of the slot (cpuN/mmustat_enable) ---------------------- */

static void mm_test_foreign_first(struct kunit *test)
{
	struct mm_env *env = env_probe(test, true, TICK_HZ);
	struct perf_event *ev[NR_STATS];
	u64 f, prev;
	unsigned int i;

	/* Somebody enabled statistics on CPU 0 before us, and counted. */
	f = sun4v_mmustat_model_foreign_buf(env->m, 0);
	KUNIT_ASSERT_NE(test, f, 0ULL);
	KUNIT_ASSERT_EQ(test, sun4v_mmustat_model_guest_conf(env->m, 0, f, &prev),
			0UL);
	env->expect_slot[0] = f;
	for (i = 0; i < NR_STATS; i++)
		traffic(env, 0, stat_word(i), 40 + i);

	env_start(test, env);
	for (i = 0; i < NR_STATS; i++) {
		ev[i] = counter(env, stat_word(i), 0, NULL);
		KUNIT_ASSERT_FALSE(test, IS_ERR(ev[i]));
	}
	for (i = 0; i < NR_STATS; i++)
		traffic(env, 0, stat_word(i), 3 * i + 1);
	for (i = 0; i < NR_STATS; i++) {
		KUNIT_EXPECT_EQ(test, value(ev[i]), 3ULL * i + 1);
		perf_event_release_kernel(ev[i]);
	}
	sun4v_mmustat_pmu_remove(env->mmu);
	env->mmu = NULL;
	/* Never configured over it, never disabled it, never wrote it. */
	KUNIT_EXPECT_EQ(test, calls(env, SUN4V_MMUSTAT_PMU_CALL_CONF), 0UL);
	for (i = 0; i < NR_STATS; i++)
		KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_read(env->m, f, stat_word(i)),
				40ULL + i + 3 * i + 1);
	for (i = 0; i < SUN4V_MMUSTAT_PMU_BUF_WORDS; i++)
		if (!sun4v_mmustat_pmu_pgsz_valid((i >> SUN4V_MMUSTAT_PMU_PGSZ_SHIFT) & 7))
			KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_read(env->m, f, i),
					0ULL);
}

static void mm_test_handover(struct kunit *test)
{
	struct mm_env *env = env_init(test);
	unsigned int w = stat_word(21);
	struct perf_event *ev;
	u64 f, prev, own;

	ev = counter(env, w, 0, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	own = sun4v_mmustat_model_slot(env->m, 0);
	KUNIT_ASSERT_NE(test, own, 0ULL);
	traffic(env, 0, w, 5);

	/* The other user enables: its buffer replaces ours. */
	f = sun4v_mmustat_model_foreign_buf(env->m, 1);
	KUNIT_ASSERT_EQ(test, sun4v_mmustat_model_guest_conf(env->m, 0, f, &prev),
			0UL);
	KUNIT_EXPECT_EQ(test, prev, own);
	KUNIT_EXPECT_EQ(test, value(ev), 5ULL);	/* ours, folded exactly */
	traffic(env, 0, w, 7);
	KUNIT_EXPECT_EQ(test, value(ev), 12ULL);	/* now read from theirs */
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_slot(env->m, 0), f);

	/* The other user disables: we configure ours again. */
	KUNIT_ASSERT_EQ(test, sun4v_mmustat_model_guest_conf(env->m, 0, 0, &prev),
			0UL);
	KUNIT_EXPECT_EQ(test, value(ev), 12ULL);
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_slot(env->m, 0), own);
	traffic(env, 0, w, 3);
	KUNIT_EXPECT_EQ(test, value(ev), 15ULL);
	/* Their buffer holds exactly what happened while it was configured. */
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_read(env->m, f, w), 7ULL);

	/* Enabled again, and still enabled when we go: left alone. */
	KUNIT_ASSERT_EQ(test, sun4v_mmustat_model_guest_conf(env->m, 0, f, &prev),
			0UL);
	env->expect_slot[0] = f;
	KUNIT_EXPECT_EQ(test, value(ev), 15ULL);
	traffic(env, 0, w, 4);
	KUNIT_EXPECT_EQ(test, value(ev), 19ULL);
	perf_event_release_kernel(ev);
	sun4v_mmustat_pmu_remove(env->mmu);
	env->mmu = NULL;
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_read(env->m, f, w), 11ULL);
}

/* --- hypervisor and memory errors --------------------------------------- */

static long noop_on_cpu(void *unused)
{
	return 0;
}

/*
 * Make @cpu switch to a kworker and back: the driver caches INFO until
 * the task running on a CPU is switched out.
 */
static void cpu_switch(struct kunit *test, unsigned int cpu)
{
	KUNIT_ASSERT_EQ(test, work_on_cpu(cpu, noop_on_cpu, NULL), 0L);
}

static void mm_test_errors(struct kunit *test)
{
	struct mm_env *env = env_init(test);
	unsigned int w = stat_word(2);
	struct perf_event *ev;
	unsigned long info;
	u64 f, prev;

	/* ENORADDR from conf: clear errno, nothing configured. */
	sun4v_mmustat_model_inject(env->m, SUN4V_MMUSTAT_PMU_CALL_CONF, 0,
				   HV_ENORADDR);
	ev = counter(env, w, 0, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ev), -EIO);
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_slot(env->m, 0), 0ULL);
	/* The next attempt works and counts from its start. */
	traffic(env, 0, w, 8);
	ev = counter(env, w, 0, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	traffic(env, 0, w, 9);
	KUNIT_EXPECT_EQ(test, value(ev), 9ULL);

	/*
	 * An info failure at run time: keep reading the same buffer. (A
	 * context switch on CPU 0 first, so that the read asks INFO.)
	 */
	cpu_switch(test, 0);
	info = calls(env, SUN4V_MMUSTAT_PMU_CALL_INFO);
	sun4v_mmustat_model_inject(env->m, SUN4V_MMUSTAT_PMU_CALL_INFO, 0, 6);
	traffic(env, 0, w, 1);
	KUNIT_EXPECT_EQ(test, value(ev), 10ULL);
	KUNIT_EXPECT_EQ(test, calls(env, SUN4V_MMUSTAT_PMU_CALL_INFO), info + 1);
	perf_event_release_kernel(ev);

	/* A foreign buffer that cannot be mapped: -EBUSY, left alone. */
	f = sun4v_mmustat_model_foreign_buf(env->m, 0);
	if (test_cpus() > 1) {
		KUNIT_ASSERT_EQ(test,
				sun4v_mmustat_model_guest_conf(env->m, 1, f, &prev),
				0UL);
		sun4v_mmustat_model_inject(env->m, SUN4V_MMUSTAT_PMU_CALL_MAP, 0, 1);
		ev = counter(env, w, 1, NULL);
		KUNIT_EXPECT_EQ(test, PTR_ERR(ev), -EBUSY);
		KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_slot(env->m, 1), f);
		KUNIT_ASSERT_EQ(test,
				sun4v_mmustat_model_guest_conf(env->m, 1, 0, &prev),
				0UL);
	}
	sun4v_mmustat_pmu_remove(env->mmu);
	env->mmu = NULL;
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_live_buffers(env->m), 0L);

	/* EBADALIGN: the allocator handed out misaligned buffers. */
	sun4v_mmustat_model_misalign(env->m, 8);
	env_start(test, env);
	ev = counter(env, w, 0, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ev), -EIO);
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_slot(env->m, 0), 0ULL);
	sun4v_mmustat_pmu_remove(env->mmu);
	env->mmu = NULL;
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_live_buffers(env->m), 0L);
	sun4v_mmustat_model_misalign(env->m, 0);

	/* No memory for CPU 0's buffer: -ENOMEM, other CPUs unaffected. */
	sun4v_mmustat_model_inject(env->m, SUN4V_MMUSTAT_PMU_CALL_ALLOC, 0, 1);
	env_start(test, env);
	ev = counter(env, w, 0, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ev), -ENOMEM);
	if (test_cpus() > 1) {
		ev = counter(env, w, 1, NULL);
		KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
		traffic(env, 1, w, 6);
		KUNIT_EXPECT_EQ(test, value(ev), 6ULL);
		perf_event_release_kernel(ev);
	}
}

static void mm_test_remove_conf_error(struct kunit *test)
{
	struct mm_env *env = env_init(test);
	struct perf_event *ev;

	ev = counter(env, stat_word(0), 0, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	/*
	 * conf(0) fails when the last event goes: per mmustat.txt 2.1 nothing
	 * is collected after an error, which info confirms, so the buffer may
	 * be freed.
	 */
	sun4v_mmustat_model_inject(env->m, SUN4V_MMUSTAT_PMU_CALL_CONF, 0,
				   HV_ENORADDR);
	perf_event_release_kernel(ev);
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_slot(env->m, 0), 0ULL);
	sun4v_mmustat_pmu_remove(env->mmu);
	env->mmu = NULL;
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_slot(env->m, 0), 0ULL);
}

/*
 * A buffer the hypervisor may still write is never freed. INFO fails when
 * the last event goes, so ours stays configured; it fails again at
 * removal, so nobody can tell whether ours is still configured: it is kept
 * (given up once), never freed.
 */
static void mm_test_remove_info_error(struct kunit *test)
{
	struct mm_env *env = env_init(test);
	struct perf_event *ev;
	u64 own;

	ev = counter(env, stat_word(0), 0, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	own = sun4v_mmustat_model_slot(env->m, 0);
	KUNIT_ASSERT_NE(test, own, 0ULL);
	sun4v_mmustat_model_inject(env->m, SUN4V_MMUSTAT_PMU_CALL_INFO, 0, 6);
	perf_event_release_kernel(ev);
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_slot(env->m, 0), own);
	sun4v_mmustat_model_inject(env->m, SUN4V_MMUSTAT_PMU_CALL_INFO, 0, 6);
	sun4v_mmustat_pmu_remove(env->mmu);
	env->mmu = NULL;
	/* Still configured in the model, and still allocated. */
	env->expect_slot[0] = own;
	env->expect_leaked = 1;
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_calls(env->m, SUN4V_MMUSTAT_PMU_CALL_CONF),
			1UL);
}

/* The CPU-offline path: INFO fails there, the buffer is kept. */
static void mm_test_offline_info_error(struct kunit *test)
{
	struct mm_env *env;
	struct perf_event *ev;
	unsigned int w = stat_word(3);
	u64 old;
	int ret;

	if (num_online_cpus() < 2 || !cpu_online(1))
		kunit_skip(test, "needs CPU 1 online (-smp 2)");
	env = env_init(test);
	ev = counter(env, w, 1, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	old = sun4v_mmustat_model_slot(env->m, 1);
	KUNIT_ASSERT_NE(test, old, 0ULL);
	/* INFO fails when the last event goes: ours stays configured. */
	sun4v_mmustat_model_inject(env->m, SUN4V_MMUSTAT_PMU_CALL_INFO, 0, 6);
	perf_event_release_kernel(ev);
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_slot(env->m, 1), old);
	sun4v_mmustat_model_inject(env->m, SUN4V_MMUSTAT_PMU_CALL_INFO, 0, 6);
	ret = remove_cpu(1);
	if (ret) {
		sun4v_mmustat_model_inject(env->m, SUN4V_MMUSTAT_PMU_CALL_INFO, 0, 0);
		kunit_skip(test, "remove_cpu(1) failed: %d", ret);
	}
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_leaked(env->m), 1UL);
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_bad_frees(env->m), 0UL);
	KUNIT_ASSERT_EQ(test, add_cpu(1), 0);
	/* Back online: the kept buffer is still configured; read it. */
	ev = counter(env, w, 1, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	traffic(env, 1, w, 9);
	KUNIT_EXPECT_EQ(test, value(ev), 9ULL);
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_read(env->m, old, w), 9ULL);
	perf_event_release_kernel(ev);
	env->expect_slot[1] = old;
	env->expect_leaked = 1;
}

/*
 * conf(0) fails at removal and the INFO that would show whether the
 * hypervisor let go fails too: kept. (mm_test_remove_conf_error has the
 * INFO succeed: freed.)
 */
static void mm_test_remove_unprovable(struct kunit *test)
{
	struct mm_env *env = env_init(test);
	struct perf_event *ev;

	ev = counter(env, stat_word(0), 0, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	sun4v_mmustat_model_inject(env->m, SUN4V_MMUSTAT_PMU_CALL_CONF, 0,
				   HV_ENORADDR);
	/*
	 * The first INFO when the last event goes works, the one after conf
	 * not.
	 */
	sun4v_mmustat_model_inject(env->m, SUN4V_MMUSTAT_PMU_CALL_INFO, 1, 6);
	perf_event_release_kernel(ev);
	sun4v_mmustat_pmu_remove(env->mmu);
	env->mmu = NULL;
	env->expect_leaked = 1;
}

/*
 * The previous address conf returns (mmustat.txt 2.1) is checked:
 * on install it must be 0 (or ours), on removal ours. Another user's
 * buffer found there is put back, not clobbered, and read instead.
 */
static void mm_test_conf_prev(struct kunit *test)
{
	struct mm_env *env = env_init(test);
	unsigned int w = stat_word(5);
	struct perf_event *ev;
	u64 f, own, prev;

	/* Install: another user's buffer lands just before our conf. */
	f = sun4v_mmustat_model_foreign_buf(env->m, 0);
	KUNIT_ASSERT_NE(test, f, 0ULL);
	sun4v_mmustat_model_race(env->m, 0, f);
	ev = counter(env, w, 0, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_slot(env->m, 0), f);
	traffic(env, 0, w, 11);
	KUNIT_EXPECT_EQ(test, value(ev), 11ULL);
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_read(env->m, f, w), 11ULL);
	perf_event_release_kernel(ev);
	sun4v_mmustat_pmu_remove(env->mmu);
	env->mmu = NULL;
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_slot(env->m, 0), f);
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_live_buffers(env->m), 0L);

	/* Removal: the other user's buffer lands just before our conf(0). */
	KUNIT_ASSERT_EQ(test, sun4v_mmustat_model_guest_conf(env->m, 0, 0, &prev),
			0UL);
	env_start(test, env);
	ev = counter(env, w, 0, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	own = sun4v_mmustat_model_slot(env->m, 0);
	KUNIT_EXPECT_NE(test, own, f);
	sun4v_mmustat_model_race(env->m, 0, f);
	perf_event_release_kernel(ev);
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_slot(env->m, 0), f);
	sun4v_mmustat_pmu_remove(env->mmu);
	env->mmu = NULL;
	env->expect_slot[0] = f;
}

struct mm_group_read {
	struct pmu *pmu;
	struct perf_event **ev;
	unsigned int n;
};

/* What __perf_event_read() does for a group, on the group's CPU. */
static void mm_group_read_ipi(void *data)
{
	struct mm_group_read *g = data;
	unsigned int i;

	g->pmu->start_txn(g->pmu, PERF_PMU_TXN_READ);
	for (i = 0; i < g->n; i++)
		g->pmu->read(g->ev[i]);
	g->pmu->commit_txn(g->pmu);
}

/* INFO calls of a group read on CPU 0 right after a context switch there. */
static unsigned long mm_group_read(struct kunit *test, struct mm_env *env,
				   struct mm_group_read *g)
{
	unsigned long info;

	cpu_switch(test, 0);
	info = calls(env, SUN4V_MMUSTAT_PMU_CALL_INFO);
	KUNIT_ASSERT_EQ(test, smp_call_function_single(0, mm_group_read_ipi,
						       g, 1), 0);
	return calls(env, SUN4V_MMUSTAT_PMU_CALL_INFO) - info;
}

/*
 * A group read costs at most one INFO. Perf reads the members of a group
 * in one read transaction on their CPU; the first read asks which buffer
 * is configured (here after a context switch, so the per-switch answer
 * cannot serve), the others use that answer. A buffer configured by
 * another user between two group reads is found by the next one, for
 * every member.
 */
static void mm_test_group_read(struct kunit *test)
{
	struct mm_env *env = env_init(test);
	struct perf_event *ev[4];
	struct mm_group_read g = {
		.pmu = sun4v_mmustat_pmu_to_pmu(env->mmu), .ev = ev,
		.n = ARRAY_SIZE(ev),
	};
	unsigned int i;
	u64 f, prev;

	for (i = 0; i < ARRAY_SIZE(ev); i++) {
		ev[i] = counter(env, stat_word(i), 0, NULL);
		KUNIT_ASSERT_FALSE(test, IS_ERR(ev[i]));
		traffic(env, 0, stat_word(i), 10 + i);
	}
	KUNIT_EXPECT_EQ(test, mm_group_read(test, env, &g), 1UL);
	for (i = 0; i < ARRAY_SIZE(ev); i++)
		KUNIT_EXPECT_EQ(test, local64_read(&ev[i]->count), 10ULL + i);

	/* Another user's buffer: read from the next group read on. */
	f = sun4v_mmustat_model_foreign_buf(env->m, 0);
	KUNIT_ASSERT_EQ(test, sun4v_mmustat_model_guest_conf(env->m, 0, f, &prev),
			0UL);
	env->expect_slot[0] = f;
	for (i = 0; i < ARRAY_SIZE(ev); i++)
		traffic(env, 0, stat_word(i), 100);
	KUNIT_EXPECT_EQ(test, mm_group_read(test, env, &g), 1UL);
	for (i = 0; i < ARRAY_SIZE(ev); i++) {
		KUNIT_EXPECT_EQ(test, local64_read(&ev[i]->count), 10ULL + i);
		perf_event_release_kernel(ev[i]);
	}
}

/*
 * INFO is asked once per context switch, not once per event at every add,
 * stop and read: a task with 32 events costs at most one INFO each time it
 * is scheduled in.
 */
static void mm_test_info_per_switch(struct kunit *test)
{
	struct mm_env *env = env_init(test);
	struct perf_event *ev[NR_STATS];
	struct task_struct *task;
	struct mm_task *t;
	unsigned long info, switches;
	unsigned int i, round;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	t->env = env;
	init_completion(&t->go);
	init_completion(&t->done);
	task = kthread_create(mm_task_fn, t, "mmustat_info");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	get_task_struct(task);
	for (i = 0; i < NR_STATS; i++) {
		ev[i] = counter(env, stat_word(i), -1, task);
		KUNIT_ASSERT_FALSE(test, IS_ERR(ev[i]));
	}
	wake_up_process(task);
	wait_for_completion(&t->done);
	wait_asleep(test, task, ev[0]);

	for (round = 0; round < 4; round++) {
		info = calls(env, SUN4V_MMUSTAT_PMU_CALL_INFO);
		switches = READ_ONCE(task->nvcsw) + READ_ONCE(task->nivcsw);
		t->round = round;
		complete(&t->go);
		wait_for_completion(&t->done);
		wait_asleep(test, task, ev[0]);
		info = calls(env, SUN4V_MMUSTAT_PMU_CALL_INFO) - info;
		switches = READ_ONCE(task->nvcsw) + READ_ONCE(task->nivcsw) -
			   switches;
		/* Each switch out is followed by at most one switch in. */
		KUNIT_EXPECT_LE_MSG(test, info, switches + 1,
				    "round %u: %lu INFO for %lu switches",
				    round, info, switches);
		KUNIT_EXPECT_GE(test, info, 1UL);
	}
	for (i = 0; i < NR_STATS; i++)
		KUNIT_EXPECT_EQ(test, value(ev[i]), 4ULL * 100 * i + 0 + 1 + 2 + 3);

	WRITE_ONCE(t->stop, true);
	complete(&t->go);
	kthread_stop(task);
	put_task_struct(task);
	for (i = 0; i < NR_STATS; i++)
		perf_event_release_kernel(ev[i]);
}

/*
 * The buffer format of mmustat.txt 2.3, typed in: every statistic's
 * byte offset, checked against the driver's view (the events' sysfs terms,
 * turned into config through the format files as perf does) and against
 * the model's buffer in guest memory.
 */
static const struct { const char *name; unsigned int off; } spec_stats[] = {
	{ "itsb_hits_ctx0_8k", 0x0 },		{ "itsb_ticks_ctx0_8k", 0x8 },
	{ "itsb_hits_ctx0_64k", 0x10 },		{ "itsb_ticks_ctx0_64k", 0x18 },
	{ "itsb_hits_ctx0_4m", 0x30 },		{ "itsb_ticks_ctx0_4m", 0x38 },
	{ "itsb_hits_ctx0_256m", 0x50 },	{ "itsb_ticks_ctx0_256m", 0x58 },
	{ "itsb_hits_ctxnon0_8k", 0x80 },	{ "itsb_ticks_ctxnon0_8k", 0x88 },
	{ "itsb_hits_ctxnon0_64k", 0x90 },	{ "itsb_ticks_ctxnon0_64k", 0x98 },
	{ "itsb_hits_ctxnon0_4m", 0xb0 },	{ "itsb_ticks_ctxnon0_4m", 0xb8 },
	{ "itsb_hits_ctxnon0_256m", 0xd0 },	{ "itsb_ticks_ctxnon0_256m", 0xd8 },
	{ "dtsb_hits_ctx0_8k", 0x100 },		{ "dtsb_ticks_ctx0_8k", 0x108 },
	{ "dtsb_hits_ctx0_64k", 0x110 },	{ "dtsb_ticks_ctx0_64k", 0x118 },
	{ "dtsb_hits_ctx0_4m", 0x130 },		{ "dtsb_ticks_ctx0_4m", 0x138 },
	{ "dtsb_hits_ctx0_256m", 0x150 },	{ "dtsb_ticks_ctx0_256m", 0x158 },
	{ "dtsb_hits_ctxnon0_8k", 0x180 },	{ "dtsb_ticks_ctxnon0_8k", 0x188 },
	{ "dtsb_hits_ctxnon0_64k", 0x190 },	{ "dtsb_ticks_ctxnon0_64k", 0x198 },
	{ "dtsb_hits_ctxnon0_4m", 0x1b0 },	{ "dtsb_ticks_ctxnon0_4m", 0x1b8 },
	{ "dtsb_hits_ctxnon0_256m", 0x1d0 },	{ "dtsb_ticks_ctxnon0_256m", 0x1d8 },
};

/* Reserved ranges of the buffer (mmustat.txt 2.3): [start, end). */
static const struct { unsigned int start, end; } spec_reserved[] = {
	{ 0x20, 0x30 }, { 0x40, 0x50 }, { 0x60, 0x80 }, { 0xa0, 0xb0 },
	{ 0xc0, 0xd0 }, { 0xe0, 0x100 }, { 0x120, 0x130 }, { 0x140, 0x150 },
	{ 0x160, 0x180 }, { 0x1a0, 0x1b0 }, { 0x1c0, 0x1d0 }, { 0x1e0, 0x200 },
};

/* perf's way: "a=1,b=0" through format files "config:N" / "config:N-M". */
static u64 terms_to_config(struct kunit *test, struct device *dev,
			   const struct attribute_group *fmt, const char *terms)
{
	char *buf = kunit_kzalloc(test, strlen(terms) + 1, GFP_KERNEL), *t, *s;
	u64 config = 0;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	strscpy(buf, terms, strlen(terms) + 1);
	s = strim(buf);
	while ((t = strsep(&s, ","))) {
		char *eq = strchr(t, '='), *f;
		unsigned int lo, hi;
		u64 val;
		int n;

		KUNIT_ASSERT_NOT_NULL(test, eq);
		*eq = '\0';
		KUNIT_ASSERT_EQ(test, kstrtou64(eq + 1, 0, &val), 0);
		f = pmu_kunit_group_file(test, dev, fmt, t);
		KUNIT_ASSERT_NOT_NULL_MSG(test, f, "format/%s", t);
		n = sscanf(f, "config:%u-%u", &lo, &hi);
		KUNIT_ASSERT_GE_MSG(test, n, 1, "format/%s: %s", t, f);
		if (n == 1)
			hi = lo;
		KUNIT_ASSERT_LE(test, val, (1ULL << (hi - lo + 1)) - 1);
		config |= val << lo;
	}
	return config;
}

static void mm_test_spec_offsets(struct kunit *test)
{
	struct mm_env *env = env_init(test);
	struct pmu *pmu = sun4v_mmustat_pmu_to_pmu(env->mmu);
	const struct attribute_group *const *g = pmu->attr_groups;
	unsigned int i, off;
	u64 slot;

	/* mmustat.txt 2.1/2.2 and the sun4v core API's status codes. */
	KUNIT_EXPECT_EQ(test, HV_FAST_MMUSTAT_CONF, 0x102);
	KUNIT_EXPECT_EQ(test, HV_FAST_MMUSTAT_INFO, 0x103);
	KUNIT_EXPECT_EQ(test, HV_GRP_NIAG_PERF, 0x200);
	KUNIT_EXPECT_EQ(test, HV_EOK, 0);
	KUNIT_EXPECT_EQ(test, HV_ENORADDR, 2);
	KUNIT_EXPECT_EQ(test, HV_EBADTRAP, 7);
	KUNIT_EXPECT_EQ(test, HV_EBADALIGN, 8);
	/* 2.3: the last field ends at 0x1e0 + 0x20; 2.1: 64-byte aligned. */
	KUNIT_EXPECT_EQ(test, SUN4V_MMUSTAT_PMU_BUF_SIZE, 0x200);
	KUNIT_EXPECT_EQ(test, SUN4V_MMUSTAT_PMU_BUF_ALIGN, 64);

	for (i = 0; i < ARRAY_SIZE(spec_stats); i++) {
		const char *terms = pmu_kunit_group_file(test, pmu->dev, g[1],
							 spec_stats[i].name);
		struct perf_event *ev;
		u64 config;

		KUNIT_ASSERT_NOT_NULL_MSG(test, terms, "events/%s", spec_stats[i].name);
		config = terms_to_config(test, pmu->dev, g[0], terms);
		KUNIT_EXPECT_EQ_MSG(test, config * 8, (u64)spec_stats[i].off, "%s",
				    spec_stats[i].name);
		/* Hits at the documented offset are what the event counts. */
		ev = counter(env, config, 0, NULL);
		KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
		traffic(env, 0, spec_stats[i].off / 8, 100 + i);
		KUNIT_EXPECT_EQ_MSG(test, value(ev), 100ULL + i, "%s",
				    spec_stats[i].name);
		/* model: and the model put them at that byte of the buffer. */
		slot = sun4v_mmustat_model_slot(env->m, 0);
		KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_read(env->m, slot,
							       spec_stats[i].off / 8),
				100ULL + i);
		perf_event_release_kernel(ev);
	}
	/* Reserved words: no event reads them. */
	for (i = 0; i < ARRAY_SIZE(spec_reserved); i++) {
		for (off = spec_reserved[i].start; off < spec_reserved[i].end; off += 8) {
			struct perf_event *ev = counter(env, off / 8, 0, NULL);

			KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(ev), -EINVAL,
					    "offset %#x", off);
			if (!IS_ERR(ev))
				perf_event_release_kernel(ev);
		}
	}
}

/* --- CPU hotplug -------------------------------------------------------- */

static void mm_test_hotplug(struct kunit *test)
{
	struct mm_env *env;
	struct perf_event *ev0, *ev1, *ev1b;
	unsigned int w = stat_word(13);
	unsigned long conf_before;
	long live;
	int ret;

	if (num_online_cpus() < 2 || !cpu_online(1))
		kunit_skip(test, "needs CPU 1 online (-smp 2)");
	env = env_init(test);
	ev0 = counter(env, w, 0, NULL);
	ev1 = counter(env, w, 1, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev0));
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev1));
	traffic(env, 0, w, 10);
	traffic(env, 1, w, 20);

	live = sun4v_mmustat_model_live_buffers(env->m);
	conf_before = calls(env, SUN4V_MMUSTAT_PMU_CALL_CONF);
	ret = remove_cpu(1);
	if (ret) {
		perf_event_release_kernel(ev0);
		perf_event_release_kernel(ev1);
		kunit_skip(test, "remove_cpu(1) failed: %d", ret);
	}
	/* conf(0) on CPU 1 itself (the model checks), then the free. */
	KUNIT_EXPECT_EQ(test, calls(env, SUN4V_MMUSTAT_PMU_CALL_CONF), conf_before + 1);
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_slot(env->m, 1), 0ULL);
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_live_buffers(env->m), live - 1);
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_bad_frees(env->m), 0UL);
	traffic(env, 1, w, 1000);	/* offline: nobody counts */
	traffic(env, 0, w, 30);
	KUNIT_EXPECT_EQ(test, value(ev0), 40ULL);
	KUNIT_EXPECT_EQ(test, value(ev1), 20ULL);

	KUNIT_ASSERT_EQ(test, add_cpu(1), 0);
	KUNIT_EXPECT_EQ(test, sun4v_mmustat_model_live_buffers(env->m), live);
	traffic(env, 0, w, 5);
	KUNIT_EXPECT_EQ(test, value(ev0), 45ULL);
	ev1b = counter(env, w, 1, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev1b));
	traffic(env, 1, w, 77);
	KUNIT_EXPECT_EQ(test, value(ev1b), 77ULL);
	KUNIT_EXPECT_EQ(test, value(ev1), 20ULL);
	perf_event_release_kernel(ev0);
	perf_event_release_kernel(ev1);
	perf_event_release_kernel(ev1b);
}

/* --- randomised attributes ---------------------------------------------- */

/* What event_init must answer, derived from the ABI independently. */
static int oracle(const struct perf_event_attr *a, u32 type)
{
	unsigned int pgsz = (a->config >> 1) & 7;

	if (a->type != type)
		return -ENOENT;
	if (a->sample_period)
		return -EOPNOTSUPP;
	if (a->exclude_user || a->exclude_kernel || a->exclude_hv ||
	    a->exclude_idle || a->exclude_host || a->exclude_guest)
		return -EINVAL;
	if (a->config > 63 || a->config1 || a->config2)
		return -EINVAL;
	if (pgsz != 0 && pgsz != 1 && pgsz != 3 && pgsz != 5)
		return -EINVAL;
	return 0;
}

static u64 rnd_word(struct rnd_state *rs)
{
	u64 v = ((u64)prandom_u32_state(rs) << 32) | prandom_u32_state(rs);

	switch (prandom_u32_state(rs) % 4) {
	case 0:
		return 0;
	case 1:
		return v & 63;
	case 2:
		return BIT_ULL(v & 63);
	default:
		return v;
	}
}

static void mm_test_random_attrs(struct kunit *test)
{
	struct mm_env *env = env_init(test);
	struct pmu *pmu = sun4v_mmustat_pmu_to_pmu(env->mmu);
	struct perf_event *ev;
	struct rnd_state rs;
	unsigned long info, conf;
	unsigned int i, ok = 0;
	int ret, want;

	ev = kunit_kzalloc(test, sizeof(*ev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	prandom_seed_state(&rs, 0x6d6d7573746174ULL);
	info = calls(env, SUN4V_MMUSTAT_PMU_CALL_INFO);
	conf = calls(env, SUN4V_MMUSTAT_PMU_CALL_CONF);

	for (i = 0; i < 100000; i++) {
		struct perf_event_attr *a = &ev->attr;
		u32 r = prandom_u32_state(&rs);

		memset(ev, 0, sizeof(*ev));
		ev->pmu = pmu;
		ev->group_leader = ev;
		ev->cpu = -1;	/* task event: init touches no hypervisor */
		a->size = sizeof(*a);
		a->type = (r & 0xf) ? env->type : (r >> 4) % (env->type + 2);
		a->config = rnd_word(&rs);
		a->config1 = (r & 0x30) ? 0 : rnd_word(&rs);
		a->config2 = (r & 0xc0) ? 0 : rnd_word(&rs);
		a->sample_period = (r & 0x700) ? 0 : rnd_word(&rs);
		if (!(r & 0x7000)) {
			a->exclude_user = !!(r & BIT(16));
			a->exclude_kernel = !!(r & BIT(17));
			a->exclude_hv = !!(r & BIT(18));
			a->exclude_idle = !!(r & BIT(19));
			a->exclude_host = !!(r & BIT(20));
			a->exclude_guest = !!(r & BIT(21));
		}
		want = oracle(a, env->type);
		ret = pmu->event_init(ev);
		if (ret != want) {
			KUNIT_FAIL(test, "type %u config %#llx/%#llx/%#llx period %llu: %d != %d",
				   a->type, a->config, a->config1, a->config2,
				   a->sample_period, ret, want);
			break;
		}
		if (!ret) {
			ok++;
			KUNIT_ASSERT_EQ(test, ev->hw.config, a->config);
			if (ev->destroy)
				ev->destroy(ev);
		}
		cond_resched();
	}
	KUNIT_EXPECT_GT(test, ok, 1000U);
	KUNIT_EXPECT_EQ(test, calls(env, SUN4V_MMUSTAT_PMU_CALL_INFO), info);
	KUNIT_EXPECT_EQ(test, calls(env, SUN4V_MMUSTAT_PMU_CALL_CONF), conf);

	/* A few thousand through the perf core, CPU-bound, with counting. */
	for (i = 0; i < 2000; i++) {
		u64 config = prandom_u32_state(&rs) % 80;
		struct perf_event_attr a = { .type = env->type,
					     .size = sizeof(a),
					     .config = config };
		struct perf_event *pe;
		unsigned int cpu = i % test_cpus();

		want = oracle(&a, env->type);
		pe = perf_event_create_kernel_counter(&a, cpu, NULL, NULL, NULL);
		if (want) {
			KUNIT_EXPECT_EQ(test, PTR_ERR(pe), (long)want);
			continue;
		}
		KUNIT_ASSERT_FALSE(test, IS_ERR(pe));
		traffic(env, cpu, config, i);
		KUNIT_EXPECT_EQ(test, value(pe), (u64)i);
		perf_event_release_kernel(pe);
	}
}

static u64 slot(struct mm_env *env, unsigned int cpu)
{
	return sun4v_mmustat_model_slot(env->m, cpu);
}

/*
 * The hypervisor spends time on every TSB hit while a buffer is
 * configured: the last event's release takes ours out of the slot, and
 * the next event configures it again, counting from its own start.
 */
static void mm_test_release_last(struct kunit *test)
{
	struct mm_env *env = env_init(test);
	unsigned int w = stat_word(5);
	struct perf_event *a, *b;

	a = counter(env, w, 0, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	b = counter(env, w, 0, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	KUNIT_EXPECT_NE(test, slot(env, 0), 0ULL);
	perf_event_release_kernel(a);
	KUNIT_EXPECT_NE(test, slot(env, 0), 0ULL);	/* b still counts */
	traffic(env, 0, w, 5);
	KUNIT_EXPECT_EQ(test, value(b), 5ULL);
	perf_event_release_kernel(b);
	KUNIT_EXPECT_EQ(test, slot(env, 0), 0ULL);

	traffic(env, 0, w, 50);		/* nobody's: dropped */
	a = counter(env, w, 0, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	KUNIT_EXPECT_NE(test, slot(env, 0), 0ULL);
	traffic(env, 0, w, 3);
	KUNIT_EXPECT_EQ(test, value(a), 3ULL);
	perf_event_release_kernel(a);
	KUNIT_EXPECT_EQ(test, slot(env, 0), 0ULL);
}

/*
 * "echo 0 > cpuN/mmustat_enable" confs 0 whoever installed the buffer: an
 * administrator turned the statistics off. While the events that counted
 * live, the driver configures nothing there again: they stop counting
 * (what they had is kept), a new open on that CPU gets EBUSY. Once the
 * last event is gone, the next open configures our buffer again.
 */
static void mm_test_admin_off(struct kunit *test)
{
	struct mm_env *env = env_init(test);
	unsigned int w = stat_word(7);
	struct perf_event *ev;
	u64 own, prev;

	ev = counter(env, w, 0, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	own = slot(env, 0);
	KUNIT_ASSERT_NE(test, own, 0ULL);
	traffic(env, 0, w, 4);
	KUNIT_EXPECT_EQ(test, value(ev), 4ULL);

	KUNIT_ASSERT_EQ(test, sun4v_mmustat_model_guest_conf(env->m, 0, 0, &prev),
			0UL);
	KUNIT_EXPECT_EQ(test, prev, own);
	traffic(env, 0, w, 100);	/* nobody's: dropped */
	KUNIT_EXPECT_EQ(test, value(ev), 4ULL);
	KUNIT_EXPECT_EQ(test, slot(env, 0), 0ULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(counter(env, w, 0, NULL)), -EBUSY);
	KUNIT_EXPECT_EQ(test, slot(env, 0), 0ULL);
	perf_event_release_kernel(ev);

	ev = counter(env, w, 0, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	KUNIT_EXPECT_EQ(test, slot(env, 0), own);
	traffic(env, 0, w, 2);
	KUNIT_EXPECT_EQ(test, value(ev), 2ULL);
	perf_event_release_kernel(ev);
}

/*
 * Adding an event fails on a CPU whose buffer the hypervisor refused, so
 * its events must not be software events: perf core lets those into
 * another PMU's hardware group on the promise that they always schedule,
 * and the whole group would then not count. Per-task events stay possible.
 */
static void mm_test_not_software(struct kunit *test)
{
	struct mm_env *env = env_init(test);
	struct perf_event *ev = counter(env, stat_word(0), -1, current);

	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	KUNIT_EXPECT_FALSE(test, is_software_event(ev));
	perf_event_release_kernel(ev);
}

static struct kunit_case mm_cases[] = {
	KUNIT_CASE(mm_test_probe_ebadtrap),
	KUNIT_CASE(mm_test_sysfs),
	KUNIT_CASE(mm_test_sysfs_abi),
	KUNIT_CASE(mm_test_tables),
	KUNIT_CASE(mm_test_percpu_all),
	KUNIT_CASE(mm_test_pertask),
	KUNIT_CASE(mm_test_foreign_first),
	KUNIT_CASE(mm_test_handover),
	KUNIT_CASE(mm_test_errors),
	KUNIT_CASE(mm_test_remove_conf_error),
	KUNIT_CASE(mm_test_remove_info_error),
	KUNIT_CASE(mm_test_offline_info_error),
	KUNIT_CASE(mm_test_remove_unprovable),
	KUNIT_CASE(mm_test_conf_prev),
	KUNIT_CASE(mm_test_info_per_switch),
	KUNIT_CASE(mm_test_group_read),
	KUNIT_CASE(mm_test_spec_offsets),
	KUNIT_CASE(mm_test_hotplug),
	KUNIT_CASE(mm_test_random_attrs),
	KUNIT_CASE(mm_test_not_software),
	KUNIT_CASE(mm_test_release_last),
	KUNIT_CASE(mm_test_admin_off),
	{}
};

static struct kunit_suite mm_suite = {
	.name = "sun4v_mmustat_pmu",
	.exit = mm_exit,
	.test_cases = mm_cases,
};

kunit_test_suite(mm_suite);

MODULE_DESCRIPTION("KUnit tests of the niagara_mmustat PMU driver");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
