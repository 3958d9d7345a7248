// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit test of the mips_cm driver's register access on MIPS: the driver's
 * own accessors (asm/mips-cm.h's read_gcr_db_pc_*()), run on memory that
 * stands in for the GCRs while every CPU is stopped. Every performance
 * register is 32 bits wide (CM register specification, "CM Performance
 * Registers - Offset 0x6000"), on CM3 too, where most GCRs are 64-bit
 * (mips_cm_is64): each access must be one 32-bit access at GCR base +
 * 0x6000 + the register's offset that leaves its neighbours alone.
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/stop_machine.h>
#include <linux/string.h>

#include <asm/mips-cps.h>

#include "../mips_cm_pmu.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define GCR_SIZE	0x8000
#define FILL		0xa5

/* The specification's offsets from the GCR base, spelled out here */
static const unsigned int spec_gcr_off[MIPS_CM_PC_NR_REGS] = {
	[MIPS_CM_PC_CTL] = 0x6100,	/* GCR_DB_PC_CTL */
	[MIPS_CM_PC_OV] = 0x6120,	/* GCR_DB_PC_OV */
	[MIPS_CM_PC_EVENT] = 0x6130,	/* GCR_DB_PC_EVENT */
	[MIPS_CM_PC_CYCLE] = 0x6180,	/* GCR_DB_PC_CYCLE */
	[MIPS_CM_PC_QUAL0] = 0x6190,	/* GCR_DB_PC_QUAL0 */
	[MIPS_CM_PC_CNT0] = 0x6198,	/* GCR_DB_PC_CNT0 */
	[MIPS_CM_PC_QUAL1] = 0x61a0,	/* GCR_DB_PC_QUAL1 */
	[MIPS_CM_PC_CNT1] = 0x61a8,	/* GCR_DB_PC_CNT1 */
};

struct gdb_result {
	u32 written;		/* the 32 bits at the offset after a write */
	bool below, above;	/* the rest of the GCRs untouched */
	u32 read;		/* what a read returned */
};

struct gdb_run {
	u8 *gcr;
	struct gdb_result res[MIPS_CM_PC_NR_REGS];
};

static bool untouched(const u8 *p, size_t len)
{
	while (len--)
		if (*p++ != FILL)
			return false;
	return true;
}

/*
 * With every other CPU stopped and interrupts off, nothing else uses the
 * GCRs: point mips_gcr_base at the memory for as long as this runs.
 */
static int gdb_accesses(void *arg)
{
	void __iomem *real = mips_gcr_base;
	struct gdb_run *run = arg;
	u8 *gcr = run->gcr;
	unsigned int reg, off;
	u32 v;

	mips_gcr_base = (void __iomem __force *)gcr;
	for (reg = 0; reg < MIPS_CM_PC_NR_REGS; reg++) {
		struct gdb_result *r = &run->res[reg];

		off = spec_gcr_off[reg];
		memset(gcr, FILL, GCR_SIZE);
		mips_cm_pmu_gdb_write(reg, 0x11223344);
		memcpy(&r->written, gcr + off, sizeof(r->written));
		r->below = untouched(gcr, off);
		r->above = untouched(gcr + off + 4, GCR_SIZE - off - 4);

		/* the 32 bits at the register, whatever is next to them */
		v = 0x55667788;
		memcpy(gcr + off, &v, sizeof(v));
		memset(gcr + off + 4, 0x5a, 4);
		memset(gcr + off - 4, 0x3c, 4);
		r->read = mips_cm_pmu_gdb_read(reg);
	}
	mips_gcr_base = real;
	return 0;
}

static void mips_cm_gdb_test_access(struct kunit *test)
{
	struct gdb_run *run;
	unsigned int reg;

	run = kunit_kzalloc(test, sizeof(*run), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, run);
	run->gcr = kunit_kmalloc(test, GCR_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, run->gcr);
	KUNIT_ASSERT_EQ(test, stop_machine(gdb_accesses, run, NULL), 0);

	for (reg = 0; reg < MIPS_CM_PC_NR_REGS; reg++) {
		struct gdb_result *r = &run->res[reg];
		unsigned int off = spec_gcr_off[reg];

		KUNIT_EXPECT_EQ_MSG(test, r->written, 0x11223344U,
				    "GCR+0x%x", off);
		KUNIT_EXPECT_TRUE_MSG(test, r->below, "below GCR+0x%x", off);
		KUNIT_EXPECT_TRUE_MSG(test, r->above, "above GCR+0x%x", off);
		KUNIT_EXPECT_EQ_MSG(test, r->read, 0x55667788U,
				    "GCR+0x%x", off);
	}
}

static struct kunit_case mips_cm_gdb_cases[] = {
	KUNIT_CASE(mips_cm_gdb_test_access),
	{}
};

static struct kunit_suite mips_cm_gdb_suite = {
	.name = "mips_cm_pmu_gdb",
	.test_cases = mips_cm_gdb_cases,
};

kunit_test_suite(mips_cm_gdb_suite);

MODULE_DESCRIPTION("KUnit test of the mips_cm register access");
MODULE_LICENSE("GPL");
