// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit test of the mips_cm driver's register access on MIPS: its own
 * instance of struct mips_cm_pmu_ops (mips_cm_pmu_gdb_ops), which reaches
 * the Global Debug Block through asm/mips-cm.h's read_gcr_db_pc_*() and
 * write_gcr_db_pc_*(). The CM register specification ("CM Performance
 * Registers - Offset 0x6000") gives every performance register as 32-bit,
 * and the accessors assume the same on CM3, where most GCRs are 64-bit
 * (mips_cm_is64): each access must be one 32-bit access at GCR base +
 * 0x6000 + the register's offset.
 *
 * Safe on a running board: nothing here writes to a register or to any
 * global state. The offsets and widths are checked without an access (the
 * accessors' addresses, their types at compile time); the live block is
 * only read, and only where mips_cm_present() says there is a CM, with the
 * reads the driver's own probe makes (GCR_DB_PC_CTL and GCR_DB_PC_OV) and,
 * where GCR_DB_PC_CTL shows the specification's two counters, the other
 * performance registers, none of which a read changes.
 */

#include <kunit/test.h>
#include <linux/build_bug.h>
#include <linux/io.h>
#include <linux/module.h>

#include <asm/mips-cps.h>

#include "../mips_cm_pmu.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * The specification's offsets from the GCR base, typed in, beside the
 * accessors of asm/mips-cm.h that the driver's instance calls for each.
 * Taking a read accessor as u32 (*)(void) and a write accessor as
 * void (*)(u32) fails to build if either is not 32 bits wide.
 */
static const struct gdb_reg {
	enum mips_cm_pmu_reg reg;
	const char *name;
	unsigned int spec_off;
	void *(*addr)(void);
	u32 (*read)(void);
	void (*write)(u32 val);
} gdb_regs[] = {
#define GDB_REG(r, n, off)						\
	{ MIPS_CM_PC_##r, "GCR_DB_PC_" #r, off, addr_gcr_db_pc_##n,	\
	  read_gcr_db_pc_##n, write_gcr_db_pc_##n }
	GDB_REG(CTL, ctl, 0x6100),
	GDB_REG(OV, ov, 0x6120),
	GDB_REG(EVENT, event, 0x6130),
	GDB_REG(CYCLE, cycle, 0x6180),
	GDB_REG(QUAL0, qual0, 0x6190),
	GDB_REG(CNT0, cnt0, 0x6198),
	GDB_REG(QUAL1, qual1, 0x61a0),
	GDB_REG(CNT1, cnt1, 0x61a8),
#undef GDB_REG
};

static_assert(ARRAY_SIZE(gdb_regs) == MIPS_CM_PC_NR_REGS);
static_assert(sizeof(read_gcr_db_pc_ctl()) == sizeof(u32));
static_assert(sizeof(read_gcr_db_pc_ov()) == sizeof(u32));
static_assert(sizeof(read_gcr_db_pc_event()) == sizeof(u32));
static_assert(sizeof(read_gcr_db_pc_cycle()) == sizeof(u32));
static_assert(sizeof(read_gcr_db_pc_qual0()) == sizeof(u32));
static_assert(sizeof(read_gcr_db_pc_cnt0()) == sizeof(u32));
static_assert(sizeof(read_gcr_db_pc_qual1()) == sizeof(u32));
static_assert(sizeof(read_gcr_db_pc_cnt1()) == sizeof(u32));

/* GCR_DB_PC_CTL.Perf_Num_Cnt, bits 3:0: "always set to 2" */
#define SPEC_NUM_CNT_MASK	0xf
#define SPEC_NUM_CNT		2

/*
 * Every register of the driver's enum has its own accessor, at the
 * specification's offset: computed from the GCR base, never dereferenced.
 */
static void mips_cm_gdb_test_offsets(struct kunit *test)
{
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(gdb_regs); i++) {
		const struct gdb_reg *r = &gdb_regs[i];
		unsigned long off = (unsigned long)r->addr() -
				    (unsigned long)mips_gcr_base;

		KUNIT_EXPECT_EQ_MSG(test, off, (unsigned long)r->spec_off,
				    "%s", r->name);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_NE_MSG(test, r->reg, gdb_regs[j].reg,
					    "%s", r->name);
	}
}

/* The widths, as the build checked them: stated once more in the log. */
static void mips_cm_gdb_test_widths(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sizeof(read_gcr_db_pc_ctl()), sizeof(u32));
	KUNIT_EXPECT_EQ(test, sizeof(read_gcr_db_pc_cnt1()), sizeof(u32));
	KUNIT_EXPECT_TRUE(test, __same_type(&write_gcr_db_pc_ov,
					    void (*)(u32)));
	KUNIT_EXPECT_TRUE(test, __same_type(mips_cm_pmu_gdb_ops.read(NULL, 0),
					    u32));
}

/*
 * The driver's instance reads each register where the specification puts
 * it: the same 32 bits as a read at GCR base + the spec's offset, taken
 * before and after (a register that moved in between, a counter that
 * counts for another user, is read again; one that never holds still is
 * only reported).
 */
static void mips_cm_gdb_test_access(struct kunit *test)
{
	const struct mips_cm_pmu_ops *ops = &mips_cm_pmu_gdb_ops;
	unsigned int i, n, tries;
	u32 before, drv, after;

	if (!mips_cm_present())
		kunit_skip(test, "no Coherence Manager");
	n = ARRAY_SIZE(gdb_regs);
	if ((__raw_readl(mips_gcr_base + 0x6100) & SPEC_NUM_CNT_MASK) !=
	    SPEC_NUM_CNT) {
		kunit_info(test, "not the specification's two counters: GCR_DB_PC_CTL and _OV only\n");
		n = 2;
	}
	for (i = 0; i < n; i++) {
		const struct gdb_reg *r = &gdb_regs[i];

		for (tries = 0; tries < 10; tries++) {
			before = __raw_readl(mips_gcr_base + r->spec_off);
			drv = ops->read(ops->ctx, r->reg);
			after = __raw_readl(mips_gcr_base + r->spec_off);
			if (before == after)
				break;
		}
		if (before != after) {
			kunit_info(test, "%s moves on every read: not compared\n",
				   r->name);
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, drv, before, "%s", r->name);
	}
}

static struct kunit_case mips_cm_gdb_cases[] = {
	KUNIT_CASE(mips_cm_gdb_test_offsets),
	KUNIT_CASE(mips_cm_gdb_test_widths),
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
