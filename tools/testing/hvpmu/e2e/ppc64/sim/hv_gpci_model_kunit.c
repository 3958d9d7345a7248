// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "hv_gpci_model": the hv_gpci model (hv_gpci_model.c) against
 * the seed, and its text interface (hv_gpci_sim_text.c), in the ppc64 e2e
 * guest's kernel, where it runs at boot before the guest's checks
 * (e2e/ppc64/run.sh reads its results off the console). Test-only, never
 * part of the series. The cases come from the suites of the former
 * drivers/perf/hv_gpci_pmu.c (the model's) and of the x86_64 simulated
 * platform (the text interface's).
 */

#include <kunit/test.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#if __has_include("linux/unaligned.h")
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>	/* Linux 6.1 */
#endif

#include "hv_gpci_model.h"
#include "hv_gpci_sim_text.h"

static struct {
	struct hv_gpci_model *m;
} gt;

static int gt_init(struct kunit *test)
{
	gt.m = hv_gpci_model_alloc(6);
	return gt.m ? 0 : -ENOMEM;
}

static void gt_exit(struct kunit *test)
{
	hv_gpci_model_free(gt.m);
	gt.m = NULL;
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
	return fn(gt.m, buf);
}

/* ---- the model against the seed ---- */

/*
 * Performance_Counter_Info_Parms (seed): Requested_Information uint_32 at
 * 0, starting_index int_32 at 4, returned_values uint_32 at 8, reserved
 * uint_32 at 12, reserved uint_64[2] at 16, counter_value at 32.
 */
static const struct {
	const char *what;
	size_t model;
	size_t seed;
} gt_seed_header[] = {
	{ "Requested_Information", offsetof(struct hv_gpci_pmu_hdr, request), 0 },
	{ "starting_index", offsetof(struct hv_gpci_pmu_hdr, starting_index), 4 },
	{ "returned_values (LoPAR)", offsetof(struct hv_gpci_pmu_hdr, secondary_index), 8 },
	{ "reserved uint_32", offsetof(struct hv_gpci_pmu_hdr, detail_rc), 12 },
	{ "reserved uint_64[2]", offsetof(struct hv_gpci_pmu_hdr, cv_element_size), 16 },
	{ "counter_value", sizeof(struct hv_gpci_pmu_hdr), 32 },
	{ "counter_value (HDR_SIZE)", HV_GPCI_PMU_HDR_SIZE, 32 },
};

/* Request codes and the hcall token (seed). */
static const struct {
	u32 model;
	u32 seed;
} gt_seed_codes[] = {
	{ HV_GPCI_PMU_REQ_DISPATCH_BY_PROC, 0x00000010 },
	{ HV_GPCI_PMU_REQ_PURR_BY_PART, 0x00000020 },
	{ HV_GPCI_PMU_REQ_RUN_BY_PART, 0x00000030 },
	{ HV_GPCI_PMU_REQ_CAPABILITIES, 0x00000040 },
	{ HV_GPCI_PMU_REQ_BUS_ABC, 0x00000050 },
	{ HV_GPCI_PMU_REQ_BUS_WXYZ, 0x00000060 },
	{ HV_GPCI_PMU_REQ_SET_MMCRH, 0x80001000 },
	{ HV_GPCI_PMU_REQ_HPMCX, 0x80002000 },
};

/*
 * Return codes: the seed names H_Success, H_Privilege, H_Parameter,
 * H_Not_Available, H_Authority (and LoPAR's syntax H_Hardware); their
 * values are PAPR's, typed in from Linux's asm/hvcall.h.
 */
static const struct {
	long model;
	long papr;
} gt_seed_rcs[] = {
	{ HV_GPCI_H_SUCCESS, 0 }, { HV_GPCI_H_HARDWARE, -1 },
	{ HV_GPCI_H_FUNCTION, -2 }, { HV_GPCI_H_PRIVILEGE, -3 },
	{ HV_GPCI_H_PARAMETER, -4 }, { HV_GPCI_H_AUTHORITY, -10 },
	{ HV_GPCI_H_NOT_AVAILABLE, 3 },
};

/* Every literal of the seed against the model's view. */
static void gpci_model_seed_literals(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, HV_GPCI_PMU_BUF_SIZE, GFP_KERNEL);
	unsigned int i;
	u8 *e;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < ARRAY_SIZE(gt_seed_header); i++)
		KUNIT_EXPECT_EQ_MSG(test, gt_seed_header[i].model,
				    gt_seed_header[i].seed, "%s",
				    gt_seed_header[i].what);
	for (i = 0; i < ARRAY_SIZE(gt_seed_codes); i++)
		KUNIT_EXPECT_EQ(test, gt_seed_codes[i].model,
				gt_seed_codes[i].seed);
	for (i = 0; i < ARRAY_SIZE(gt_seed_rcs); i++)
		KUNIT_EXPECT_EQ(test, gt_seed_rcs[i].model, gt_seed_rcs[i].papr);

	/* model: the LoPAR block at the seed's offsets, big-endian */
	hv_gpci_model_init(gt.m, 0);
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_PROC_TIME, 5, 0x1122334455667788);
	put_unaligned_be32(0x10, buf + 0);
	put_unaligned_be32(5, buf + 4);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096), 0L);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(buf + 4), 5U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(buf + 8), 3U); /* 5, 6, 7 */
	e = buf + 32;
	/* uint64 time; uint32 hw id; uint16 owner; uint8 state; ... */
	KUNIT_EXPECT_EQ(test, get_unaligned_be64(e + 0x00), 0x1122334455667788ULL);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(e + 0x08), 0x105U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(e + 0x0C), 0xFFFFU);
	KUNIT_EXPECT_EQ(test, e[0x0E], 0x04);	/* Shared */
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(e + 0x10), 1U);	/* chip */
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(e + 0x24), 5U);
	/* the second element starts at the seed's size, 0x30 */
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(e + 0x30 + 0x08), 0x106U);
}

/* model: version_in under both readings, per-CPU -1, every request */
static void gpci_model_requests(struct kunit *test)
{
	static const struct { u32 req; u16 size; } reqs[] = {
		{ 0x10, 0x30 }, { 0x20, 0x30 }, { 0x30, 0x18 }, { 0x50, 0x50 },
		{ 0x60, 0x60 }, { 0x70, 0xB0 }, { 0x80, 0x50 }, { 0x90, 0x20 },
		{ 0x91, 0x10 }, { 0x94, 0x30 }, { 0x95, 0x10 }, { 0xA0, 0x0C },
		{ 0xB0, 0x10 }, { 0xB1, 0x10 }, { 0xC0, 0x20 }, { 0xD0, 0x10 },
		{ 0xE0, 0x50 }, { 0xF0, 0x20 }, { 0xF4, 0x10 }, { 0x100, 0x18 },
	};
	u8 *buf = kunit_kzalloc(test, HV_GPCI_PMU_BUF_SIZE, GFP_KERNEL);
	struct hv_gpci_pmu_hdr *h = (void *)buf;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	hv_gpci_model_init(gt.m, 6);
	for (i = 0; i < ARRAY_SIZE(reqs); i++) {
		memset(buf, 0, HV_GPCI_PMU_BUF_SIZE);
		h->request = cpu_to_be32(reqs[i].req);
		h->starting_index = cpu_to_be32(0xffffffff);
		KUNIT_EXPECT_EQ_MSG(test, hv_gpci_model_hcall(gt.m, buf, 4096),
				    0L, "0x%x", reqs[i].req);
		KUNIT_EXPECT_EQ_MSG(test, be16_to_cpu(h->cv_element_size),
				    reqs[i].size, "0x%x", reqs[i].req);
		/* the current partition's 4 virtual processors, else one */
		KUNIT_EXPECT_EQ_MSG(test, be16_to_cpu(h->returned_values),
				    reqs[i].req == 0xA0 ? 4U : 1U, "0x%x",
				    reqs[i].req);
	}
	/* 0x30..0x94 deprecated from 8 (Linux 03f7c1d2a49a) */
	hv_gpci_model_init(gt.m, 8);
	memset(buf, 0, HV_GPCI_PMU_BUF_SIZE);
	h->request = cpu_to_be32(0x94);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096),
			(long)HV_GPCI_H_NOT_AVAILABLE);

	/* version_in honoured: 5 asked, 5 answered, 0xF4 (from 6) missing */
	memset(buf, 0, HV_GPCI_PMU_BUF_SIZE);
	h->request = cpu_to_be32(0x20);
	h->starting_index = cpu_to_be32(3);
	h->version_in = 5;
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096), 0L);
	KUNIT_EXPECT_EQ(test, h->version_out, 5);
	h->request = cpu_to_be32(0xF4);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096),
			(long)HV_GPCI_H_NOT_AVAILABLE);
	/* a newer version than the firmware's, or 0: the firmware's */
	h->request = cpu_to_be32(0x20);
	h->version_in = 9;
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096), 0L);
	KUNIT_EXPECT_EQ(test, h->version_out, 8);
	h->version_in = 0;
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096), 0L);
	KUNIT_EXPECT_EQ(test, h->version_out, 8);
	/* the other reading: version_in ignored */
	gt.m->version_in = HV_GPCI_PMU_M_IGNORE_VERSION_IN;
	h->request = cpu_to_be32(0xF4);
	h->starting_index = cpu_to_be32(0xffffffff);
	h->version_in = 5;
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096), 0L);
	KUNIT_EXPECT_EQ(test, h->version_out, 8);

	/* -1: the processor (and chip) of the calling CPU (any CPU here) */
	for (i = 0; i < HV_GPCI_PMU_MODEL_MAX_CPUS; i++)
		gt.m->cpu_proc[i] = 6;
	memset(buf, 0, HV_GPCI_PMU_BUF_SIZE);
	h->request = cpu_to_be32(0x10);
	h->starting_index = cpu_to_be32(0xffffffff);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096), 0L);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h->starting_index), 6U);
	hv_gpci_model_init(gt.m, 6);
	for (i = 0; i < HV_GPCI_PMU_MODEL_MAX_CPUS; i++)
		gt.m->cpu_proc[i] = 2;
	h->request = cpu_to_be32(0x70);
	h->starting_index = cpu_to_be32(0xffffffff);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096), 0L);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h->starting_index), 0U);

	/* HPMCx (lab): the seed's u32 + u32 + 8 x u64 */
	gt.m->caps |= HV_GPCI_PMU_CAP_LAB;
	memset(buf, 0, HV_GPCI_PMU_BUF_SIZE);
	h->request = cpu_to_be32(0x80002000);
	h->starting_index = cpu_to_be32(0);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096), 0L);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h->cv_element_size), 0x48U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(buf + 32 + 0x48), 0x101U);
}

/* model: big-endian block, starting_index, LoPAR header, accessibility */
static void gpci_model_block(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, 2 * HV_GPCI_PMU_BUF_SIZE, GFP_KERNEL);
	struct hv_gpci_pmu_hdr *h = (void *)buf;
	u8 *e = buf + HV_GPCI_PMU_HDR_SIZE;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_TRUE(test, IS_ALIGNED((unsigned long)buf, 4096));
	hv_gpci_model_init(gt.m, 6);
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_CAPPED, 7, 0x0102030405060708);
	h->request = cpu_to_be32(0x20);
	h->starting_index = cpu_to_be32(4);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096), 0L);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h->starting_index), 7U);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h->returned_values), 1U);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h->cv_element_size), 0x30U);
	KUNIT_EXPECT_EQ(test, h->version_out, 6);
	KUNIT_EXPECT_EQ(test, e[0x07], 7);
	KUNIT_EXPECT_EQ(test, e[0x10], 0x01);
	KUNIT_EXPECT_EQ(test, e[0x17], 0x08);

	/* a smaller block: the elements that fit, H_PARAMETER/0x1B */
	h->starting_index = cpu_to_be32(1);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 32 + 0x60),
			(long)HV_GPCI_H_PARAMETER);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h->detail_rc), 0x1BU);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h->returned_values), 2U);

	/* LoPAR layout: returned_values is a 32-bit field at offset 8 */
	hv_gpci_model_init(gt.m, 0);
	memset(buf, 0, 4096);
	h->request = cpu_to_be32(0x10);
	h->starting_index = cpu_to_be32(2);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096), 0L);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(buf + 8), 5U);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h->cv_element_size), 0U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(e + 0x30 + 8), 0x103U);

	/* a block crossing a 4 KiB boundary is not accessible */
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf + 8, 4096),
			(long)HV_GPCI_H_PRIVILEGE);
	/* capabilities only for the caller itself */
	memset(buf, 0, 4096);
	h->request = cpu_to_be32(0x40);
	h->starting_index = cpu_to_be32(0);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096),
			(long)HV_GPCI_H_NOT_AVAILABLE);
	h->request = cpu_to_be32(0x12345);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096),
			(long)HV_GPCI_H_PARAMETER);
	KUNIT_EXPECT_EQ(test, gt.m->unknown_req, 1UL);
	KUNIT_EXPECT_EQ(test, gt.m->calls, 4UL);
}

/* ---- the text interface ---- */

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

/*
 * A buffer across 4 KiB: refused with H_PRIVILEGE by default, answered with
 * cross_4k_ok (the two readings of "accessible"), and counted either way.
 */
static void gpci_model_cross_4k(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, 2 * HV_GPCI_PMU_BUF_SIZE, GFP_KERNEL);
	struct hv_gpci_pmu_hdr *h;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	/* kmalloc() aligns a power-of-two size to itself */
	h = (void *)(buf + 8);
	h->request = cpu_to_be32(0x20);
	h->starting_index = cpu_to_be32(3);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, h, HV_GPCI_PMU_BUF_SIZE),
			(long)HV_GPCI_H_PRIVILEGE);
	gt.m->cross_4k_ok = true;
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, h, HV_GPCI_PMU_BUF_SIZE),
			0L);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h->starting_index), 3U);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h->cv_element_size), 0x30U);
	KUNIT_EXPECT_EQ(test, gt.m->misaligned, 2UL);
}

static struct kunit_case hv_gpci_model_cases[] = {
	KUNIT_CASE(gpci_model_cross_4k),
	KUNIT_CASE(gpci_model_seed_literals),
	KUNIT_CASE(gpci_model_requests),
	KUNIT_CASE(gpci_model_block),
	KUNIT_CASE(gpci_sim_inject),
	KUNIT_CASE(gpci_sim_error),
	{}
};

static struct kunit_suite hv_gpci_model_suite = {
	.name = "hv_gpci_model",
	.init = gt_init,
	.exit = gt_exit,
	.test_cases = hv_gpci_model_cases,
};

kunit_test_suite(hv_gpci_model_suite);
