// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "hvpmu_sim": the front-ends of the simulated platform
 * (hvpmu_sim_lib.ko, hvpmu_sim.h), their parsers and files, against the
 * models of the PMUs' own suites. A case exists only when its model's
 * suite, and so its front-end, is enabled. Test-only, never part of the
 * series.
 *
 * It uses hvpmu_sim_lib.ko, not hvpmu_sim.ko: the init of hvpmu_sim
 * registers every PMU, and the cases' own <model>_sim_init() would then
 * fail with -EBUSY.
 */

#include <kunit/test.h>
#include <linux/bitfield.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "tests/hv_gpci_model.h"
#include "tests/pmu_format_kunit.h"
#include "hvpmu_sim.h"

/* ---- sun4v DRAM ---- */

#if IS_ENABLED(CONFIG_SUN4V_DRAM_PMU_KUNIT_TEST)
/* sim: the simulated platform's command parser. */
static void sim_test_sun4v_commands(struct kunit *test)
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

	KUNIT_ASSERT_EQ(test, sun4v_pmu_sim_init(NULL), 0);
	for (i = 0; i < ARRAY_SIZE(good); i++)
		KUNIT_EXPECT_EQ_MSG(test, sun4v_pmu_sim_command(good[i][0], good[i][1]),
				    0, "%s", good[i][1]);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, sun4v_pmu_sim_command(bad[i][0], bad[i][1]),
				    -EINVAL, "%s", bad[i][1]);
	sun4v_pmu_sim_exit();
	/* Both names are free again. */
	KUNIT_ASSERT_EQ(test, sun4v_pmu_sim_init(NULL), 0);
	sun4v_pmu_sim_exit();
}
#endif

/* ---- sun4v MMU statistics ---- */

#if IS_ENABLED(CONFIG_SUN4V_MMUSTAT_PMU_KUNIT_TEST)
/* sim: the simulated platform registers the PMU and its debugfs files. */
static void sim_test_mmustat_files(struct kunit *test)
{
	static const char *const files[] = { "inject", "conf", "error",
					     "calls" };
	struct dentry *dir, *d;
	unsigned int i;
	int ret;

	if (!IS_ENABLED(CONFIG_DEBUG_FS))
		kunit_skip(test, "needs DEBUG_FS");
	dir = debugfs_create_dir("sun4v_mmustat_pmu_kunit", NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(dir));
	ret = sun4v_mmustat_pmu_sim_init(dir);
	KUNIT_EXPECT_EQ(test, ret, 0);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		d = debugfs_lookup(files[i], dir);
		KUNIT_EXPECT_NOT_ERR_OR_NULL_MSG(test, d, "%s", files[i]);
		dput(d);
	}
	debugfs_remove_recursive(dir);
	if (!ret)
		sun4v_mmustat_pmu_sim_exit();
}
#endif

/* ---- hv_gpci ---- */

#if IS_ENABLED(CONFIG_HV_GPCI_PMU_KUNIT_TEST)
/* The fixture of hv_gpci_pmu_kunit.c, as much as the gpci_sim* cases use. */
#define GT_MAX_EV	8

static struct {
	struct hv_gpci_model *m;
	struct hv_gpci_model *sim;	/* gt_sim() works on it, else on m */
	struct perf_event *ev[GT_MAX_EV];
} gt;

static int gt_init(struct kunit *test)
{
	int ret;

	/* PMUs of this suite designate the first CPU: they register there */
	ret = set_cpus_allowed_ptr(current,
				   cpumask_of(cpumask_first(cpu_online_mask)));
	if (ret)
		return ret;
	gt.m = hv_gpci_model_alloc(6);
	return gt.m ? 0 : -ENOMEM;
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

static void gt_exit(struct kunit *test)
{
	gt_close_all();
	hv_gpci_pmu_sim_exit();	/* after gt_close_all(): events closed */
	gt.sim = NULL;
	hv_gpci_model_free(gt.m);
	gt.m = NULL;
}

/* Open through the perf core on CPU 0; the slot keeps it for cleanup. */
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

/* The attribute group called @name of @pmu, as perf_pmu_register() got it. */
static const struct attribute_group *gt_group(struct pmu *pmu,
					      const char *name)
{
	const struct attribute_group **g = pmu->attr_groups;

	for (; *g; g++)
		if ((*g)->name && !strcmp((*g)->name, name))
			return *g;
	return NULL;
}

/* Number of files in events/. */
static unsigned int gt_nr_events(struct kunit *test, struct pmu *pmu)
{
	const struct attribute_group *g = gt_group(pmu, "events");

	KUNIT_ASSERT_NOT_NULL(test, g);
	return pmu_kunit_count(pmu->dev, g);
}

/* The entity an event of counter @c is opened on: one past a gap. */
static u32 gt_entity(enum hv_gpci_model_ctr c)
{
	switch (hv_gpci_model_ctr_kind(c)) {
	case HV_GPCI_PMU_K_PROC:
		return 5;
	case HV_GPCI_PMU_K_PART:
		return 7;
	case HV_GPCI_PMU_K_CHIP:
		return 8;
	default:
		return 0;
	}
}

/* Text for the sim parsers: they modify their input. */
static int gt_sim(struct kunit *test, int (*fn)(struct hv_gpci_model *m,
						char *text),
		  const char *text)
{
	size_t size = strlen(text) + 1;
	char *buf = kunit_kzalloc(test, size, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	strscpy(buf, text, size);
	return fn(gt.sim ?: gt.m, buf);
}

/* sim: the inject file, every counter by its documented name */
static void gpci_sim_inject(struct kunit *test)
{
	static const char *const kinds[] = {
		"processor", "partition", "chip", "system",
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
	/* some names of SIMULATOR.md, typed in */
	static const struct { const char *line; int ctr; u32 id; } doc[] = {
		{ "processor 5 processor_time = 7", HV_GPCI_PMU_M_PROC_TIME, 5 },
		{ "chip 8 gx1_out_cycles_total = 7", HV_GPCI_PMU_M_GX_LAST, 8 },
		{ "chip 8 mc1_total_cycles = 7", HV_GPCI_PMU_M_MC_LAST, 8 },
		{ "system 0 time_spent_issuing_tlbies = 7", HV_GPCI_PMU_M_TLBIE_TIME, 0 },
		{ "partition 7 time_collected = 7", HV_GPCI_PMU_M_PI_TIME, 7 },
		{ "processor 5 hpmc4_current = 7", HV_GPCI_PMU_M_HPMC4_NOW, 5 },
	};
	unsigned int i;
	char line[96];
	u32 id;

	for (i = 0; i < HV_GPCI_PMU_M_NR; i++) {
		const char *kind = kinds[hv_gpci_model_ctr_kind(i)];
		const char *name = hv_gpci_model_ctr_name(i);

		KUNIT_ASSERT_NOT_NULL(test, name);
		/* one past a gap of each table */
		id = gt_entity(i);
		snprintf(line, sizeof(line), "%s %u %s = %u", kind, id, name,
			 1000 + i);
		KUNIT_EXPECT_EQ_MSG(test, gt_sim(test, hv_gpci_pmu_sim_inject,
						 line), 0, "%s", line);
		snprintf(line, sizeof(line), "  %s\t%u %s += 0x%x\n", kind, id,
			 name, 0x10 * i);
		KUNIT_EXPECT_EQ_MSG(test, gt_sim(test, hv_gpci_pmu_sim_inject,
						 line), 0, "%s", line);
		KUNIT_EXPECT_EQ_MSG(test, hv_gpci_model_get(gt.m, i, id),
				    1000ULL + 17 * i, "%s", name);
	}
	for (i = 0; i < ARRAY_SIZE(doc); i++) {
		KUNIT_EXPECT_EQ_MSG(test, gt_sim(test, hv_gpci_pmu_sim_inject,
						 doc[i].line), 0, "%s",
				    doc[i].line);
		KUNIT_EXPECT_EQ(test, hv_gpci_model_get(gt.m, doc[i].ctr,
							doc[i].id), 7ULL);
	}
	/* only that entity moved */
	KUNIT_EXPECT_EQ(test, hv_gpci_model_get(gt.m, HV_GPCI_PMU_M_ENTITLED,
						1), 0ULL);

	/* several lines, comments, blank lines; += wraps like the counter */
	KUNIT_EXPECT_EQ(test, gt_sim(test, hv_gpci_pmu_sim_inject, multi), 0);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_get(gt.m, HV_GPCI_PMU_M_ENTITLED,
						3), 1ULL);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_get(gt.m, HV_GPCI_PMU_M_IDLE, 3),
			11ULL);

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, gt_sim(test, hv_gpci_pmu_sim_inject,
						 bad[i]), -EINVAL, "%s", bad[i]);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_get(gt.m, HV_GPCI_PMU_M_ENTITLED,
						3), 1ULL);
	/* entities the model has not: gaps in the tables */
	KUNIT_EXPECT_EQ(test, gt_sim(test, hv_gpci_pmu_sim_inject,
				     "processor 4 processor_time = 1"), -ENOENT);
	KUNIT_EXPECT_EQ(test, gt_sim(test, hv_gpci_pmu_sim_inject,
				     "partition 4 entitled_cycles = 1"), -ENOENT);
	KUNIT_EXPECT_EQ(test, gt_sim(test, hv_gpci_pmu_sim_inject,
				     "chip 2 idle_a = 1"), -ENOENT);
	KUNIT_EXPECT_EQ(test, gt_sim(test, hv_gpci_pmu_sim_inject,
				     "system 1 tlbie_instructions_issued = 1"),
			-ENOENT);
	/* the lines before a bad one are applied, the ones after are not */
	KUNIT_EXPECT_EQ(test, gt_sim(test, hv_gpci_pmu_sim_inject, partial),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_get(gt.m, HV_GPCI_PMU_M_ENTITLED,
						3), 2ULL);
	KUNIT_EXPECT_EQ(test, gt.m->calls, 0UL);
}

static long gt_hcall(u8 *buf, u32 req, u32 idx)
{
	struct hv_gpci_pmu_hdr *h = (void *)buf;

	memset(buf, 0, HV_GPCI_PMU_BUF_SIZE);
	h->request = cpu_to_be32(req);
	h->starting_index = cpu_to_be32(idx);
	return hv_gpci_model_hcall(gt.m, buf, HV_GPCI_PMU_BUF_SIZE);
}

/* sim: the error file and the calls file */
static void gpci_sim_error(struct kunit *test)
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
	u8 *buf = kunit_kzalloc(test, 2 * HV_GPCI_PMU_BUF_SIZE, GFP_KERNEL);
	struct hv_gpci_pmu_hdr *h = (void *)buf;
	struct seq_file s = { .size = PAGE_SIZE };
	unsigned int i;
	char line[48];

	KUNIT_ASSERT_NOT_NULL(test, buf);
	s.buf = kunit_kzalloc(test, PAGE_SIZE + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s.buf);

	for (i = 0; i < ARRAY_SIZE(rcs); i++) {
		snprintf(line, sizeof(line), "%s 1", rcs[i].name);
		KUNIT_EXPECT_EQ(test, gt_sim(test, hv_gpci_pmu_sim_error, line),
				0);
		KUNIT_EXPECT_EQ_MSG(test, gt_hcall(buf, 0x20, 3), rcs[i].rc,
				    "%s", rcs[i].name);
		KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x20, 3), 0L);
	}

	/* two good calls, then two failures with detail_rc, then good */
	KUNIT_EXPECT_EQ(test, gt_sim(test, hv_gpci_pmu_sim_error,
				     "H_PARAMETER 2 after 2 detail 0x1b"), 0);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x20, 3), 0L);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x20, 3), 0L);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x20, 3), (long)HV_GPCI_H_PARAMETER);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h->detail_rc), 0x1bU);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x20, 3), (long)HV_GPCI_H_PARAMETER);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x20, 3), 0L);

	/* revoked collection: other partitions and processors refused */
	KUNIT_EXPECT_EQ(test, gt_sim(test, hv_gpci_pmu_sim_error,
				     "collection off"), 0);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x20, 7), (long)HV_GPCI_H_AUTHORITY);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x10, 0), (long)HV_GPCI_H_AUTHORITY);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0xF0, 0xffffffff),
			(long)HV_GPCI_H_AUTHORITY);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x20, 3), 0L);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h->returned_values), 1U);
	KUNIT_EXPECT_EQ(test, gt_sim(test, hv_gpci_pmu_sim_error,
				     "collection on"), 0);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x20, 7), 0L);

	/* corrupted replies */
	KUNIT_EXPECT_EQ(test, gt_sim(test, hv_gpci_pmu_sim_error,
				     "index_skew -1\nelement_size 8"), 0);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x20, 7), 0L);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h->starting_index), 6U);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h->cv_element_size), 8U);

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, gt_sim(test, hv_gpci_pmu_sim_error,
						 bad[i]), -EINVAL, "%s", bad[i]);

	/* clear undoes everything */
	KUNIT_EXPECT_EQ(test, gt_sim(test, hv_gpci_pmu_sim_error,
				     "H_HARDWARE 5\ncollection off\nclear"), 0);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x20, 7), 0L);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h->starting_index), 7U);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h->cv_element_size), 0x30U);

	/* the calls file, from a fresh model */
	hv_gpci_model_init(gt.m, 6);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x20, 2), 0L);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x40, 0),
			(long)HV_GPCI_H_NOT_AVAILABLE);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0x12345, 0),
			(long)HV_GPCI_H_PARAMETER);
	KUNIT_EXPECT_EQ(test, gt_hcall(buf, 0xF4, 0xffffffff), 0L);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf + 8, 4096),
			(long)HV_GPCI_H_PRIVILEGE);
	KUNIT_EXPECT_EQ(test, gt_sim(test, hv_gpci_pmu_sim_error,
				     "H_HARDWARE 2 after 5\ncollection off"), 0);
	hv_gpci_pmu_sim_calls(gt.m, &s);
	s.buf[s.count] = '\0';
	KUNIT_EXPECT_STREQ(test, s.buf,
			   "hcalls 5\nrequest_0x10 0\nrequest_0x20 1\n"
			   "request_0x30 0\nrequest_0x40 1\nrequest_0x50 0\n"
			   "request_0x60 0\nrequest_0x70 0\nrequest_0x80 0\n"
			   "request_0x90 0\nrequest_0x91 0\nrequest_0x94 0\n"
			   "request_0x95 0\nrequest_0xa0 0\nrequest_0xb0 0\n"
			   "request_0xb1 0\nrequest_0xc0 0\nrequest_0xd0 0\n"
			   "request_0xe0 0\nrequest_0xf0 0\nrequest_0xf4 1\n"
			   "request_0x100 0\nrequest_0x80002000 0\n"
			   "request_0x80001000 0\n"
			   "unknown_request 1\n"
			   "set_mmcrh 0\nmisaligned 1\nlast_rc -3\n"
			   "pending_errors 2\ncollection off\n"
			   "counter_info_version 6\n");
}

/* sim: hv_gpci on the model, driven through the parsers */
static void gpci_sim(struct kunit *test)
{
	struct dentry *dir = debugfs_create_dir("hv_gpci_pmu_kunit", NULL);
	struct perf_event_attr attr = { .size = sizeof(attr) };
	struct perf_event *own, *other;
	struct hv_gpci_model *m;
	struct hv_gpci_pmu *p;
	struct pmu *pmu;
	unsigned long calls;

	KUNIT_EXPECT_NULL(test, hv_gpci_pmu_sim_pmu());
	KUNIT_ASSERT_EQ(test, hv_gpci_pmu_sim_init(dir), 0);
	KUNIT_EXPECT_EQ(test, hv_gpci_pmu_sim_init(dir), -EBUSY);
	p = hv_gpci_pmu_sim_pmu();
	m = hv_gpci_pmu_sim_model();
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_NOT_NULL(test, m);
	pmu = hv_gpci_pmu_to_pmu(p);
	KUNIT_EXPECT_STREQ(test, pmu->name, "hv_gpci");
	KUNIT_EXPECT_PTR_EQ(test, pmu->module, THIS_MODULE);
	KUNIT_EXPECT_EQ(test, m->version, 8);
	/* version 8: Linux's 23 named events */
	KUNIT_EXPECT_EQ(test, gt_nr_events(test, pmu), 23U);
	/* 0x40, 0x10 and the five system information requests (POWER10) */
	KUNIT_EXPECT_EQ(test, hv_gpci_model_calls(m), 7UL);

	/* entitled cycles of our partition 3 and of partition 7 */
	attr.type = pmu->type;
	attr.config = FIELD_PREP(HV_GPCI_PMU_CONFIG_REQUEST, 0x20) |
		      FIELD_PREP(HV_GPCI_PMU_CONFIG_STARTING_INDEX, 3);
	attr.config1 = FIELD_PREP(HV_GPCI_PMU_CONFIG1_LENGTH, 8) |
		       FIELD_PREP(HV_GPCI_PMU_CONFIG1_OFFSET, 0x08);
	own = gt_open(&attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(own));
	attr.config = FIELD_PREP(HV_GPCI_PMU_CONFIG_REQUEST, 0x20) |
		      FIELD_PREP(HV_GPCI_PMU_CONFIG_STARTING_INDEX, 7);
	other = gt_open(&attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(other));

	gt.sim = m;
	KUNIT_EXPECT_EQ(test, gt_sim(test, hv_gpci_pmu_sim_inject,
				     "partition 3 entitled_cycles += 1000\n"
				     "partition 3 entitled_cycles += 234\n"
				     "partition 7 entitled_cycles += 5\n"), 0);
	calls = hv_gpci_model_calls(m);
	KUNIT_EXPECT_EQ(test, gt_read(own), 1234ULL);
	KUNIT_EXPECT_EQ(test, gt_read(other), 5ULL);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_calls(m), calls + 2);

	/* a failed hcall keeps the count; the next read catches up */
	KUNIT_EXPECT_EQ(test, gt_sim(test, hv_gpci_pmu_sim_error,
				     "H_AUTHORITY 1"), 0);
	KUNIT_EXPECT_EQ(test, gt_sim(test, hv_gpci_pmu_sim_inject,
				     "partition 3 entitled_cycles += 66"), 0);
	KUNIT_EXPECT_EQ(test, gt_read(own), 1234ULL);
	KUNIT_EXPECT_EQ(test, gt_read(own), 1300ULL);

	/* revoked collection: partition 7 stalls, our own still counts */
	KUNIT_EXPECT_EQ(test, gt_sim(test, hv_gpci_pmu_sim_error,
				     "collection off"), 0);
	KUNIT_EXPECT_EQ(test, gt_sim(test, hv_gpci_pmu_sim_inject,
				     "partition 7 entitled_cycles += 10\n"
				     "partition 3 entitled_cycles += 1"), 0);
	KUNIT_EXPECT_EQ(test, gt_read(other), 5ULL);
	KUNIT_EXPECT_EQ(test, gt_read(own), 1301ULL);
	KUNIT_EXPECT_EQ(test, m->last_rc, 0L);
	KUNIT_EXPECT_EQ(test, gt_sim(test, hv_gpci_pmu_sim_error,
				     "collection on"), 0);
	KUNIT_EXPECT_EQ(test, gt_read(other), 15ULL);
	gt.sim = NULL;

	gt_close(own);
	gt_close(other);
	hv_gpci_pmu_sim_exit();
	KUNIT_EXPECT_NULL(test, hv_gpci_pmu_sim_pmu());
	KUNIT_EXPECT_NULL(test, hv_gpci_pmu_sim_model());
	/* the name is free again: nothing stayed registered */
	KUNIT_EXPECT_EQ(test, hv_gpci_pmu_sim_init(dir), 0);
	hv_gpci_pmu_sim_exit();
	hv_gpci_pmu_sim_exit();
	debugfs_remove_recursive(dir);
}
#endif

static struct kunit_case hvpmu_sim_cases[] = {
#if IS_ENABLED(CONFIG_SUN4V_DRAM_PMU_KUNIT_TEST)
	KUNIT_CASE(sim_test_sun4v_commands),
#endif
#if IS_ENABLED(CONFIG_SUN4V_MMUSTAT_PMU_KUNIT_TEST)
	KUNIT_CASE(sim_test_mmustat_files),
#endif
#if IS_ENABLED(CONFIG_HV_GPCI_PMU_KUNIT_TEST)
	KUNIT_CASE(gpci_sim_inject),
	KUNIT_CASE(gpci_sim_error),
	KUNIT_CASE(gpci_sim),
#endif
	{}
};

static struct kunit_suite hvpmu_sim_suite = {
	.name = "hvpmu_sim",
#if IS_ENABLED(CONFIG_HV_GPCI_PMU_KUNIT_TEST)
	/* the gpci cases' fixture; the others need none and ignore it */
	.init = gt_init,
	.exit = gt_exit,
#endif
	.test_cases = hvpmu_sim_cases,
};

kunit_test_suite(hvpmu_sim_suite);

MODULE_DESCRIPTION("KUnit tests of the hvpmu simulated platform's front-ends (test only)");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
