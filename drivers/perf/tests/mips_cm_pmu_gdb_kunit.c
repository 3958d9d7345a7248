// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit test of the mips_cm driver's register access, on memory standing
 * in for the GCRs. Every performance register is 32 bits wide (CM register
 * specification, "CM Performance Registers - Offset 0x6000"), and the
 * kernel's CPS accessors access 32-bit GCRs 32 bits wide even where the
 * GCRs are 64-bit (mips_cm_is64): each access must be one 32-bit access at
 * GCR base + 0x6000 + the register's offset that leaves its neighbours
 * alone, on either endianness.
 */

#include <kunit/test.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/string.h>

#include "../mips_cm_pmu.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define GCR_SIZE	0x8000
#define FILL		0xa5

/* The specification's register offsets, as offsets from the GCR base */
static const unsigned int seed_gcr_regs[] = {
	0x6100,	/* GCR_DB_PC_CTL */
	0x6120,	/* GCR_DB_PC_OV */
	0x6130,	/* GCR_DB_PC_EVENT */
	0x6180,	/* GCR_DB_PC_CYCLE */
	0x6190,	/* GCR_DB_PC_QUAL0 */
	0x6198,	/* GCR_DB_PC_CNT0 */
	0x61a0,	/* GCR_DB_PC_QUAL1 */
	0x61a8,	/* GCR_DB_PC_CNT1 */
};

static bool untouched(const u8 *p, size_t len)
{
	while (len--)
		if (*p++ != FILL)
			return false;
	return true;
}

static void mips_cm_gdb_test_access(struct kunit *test)
{
	const struct mips_cm_pmu_ops *ops = &mips_cm_pmu_gdb_ops;
	unsigned int i, gcr_off, off;
	u8 *gcr;
	void *ctx;
	u32 v;

	gcr = kunit_kmalloc(test, GCR_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, gcr);
	ctx = mips_cm_pmu_gdb_ctx((void __force __iomem *)gcr);

	for (i = 0; i < ARRAY_SIZE(seed_gcr_regs); i++) {
		gcr_off = seed_gcr_regs[i];
		off = gcr_off - 0x6000;
		memset(gcr, FILL, GCR_SIZE);

		ops->write(ctx, off, 0x11223344);
		memcpy(&v, gcr + gcr_off, sizeof(v));
		KUNIT_EXPECT_EQ_MSG(test, v, 0x11223344U, "GCR+0x%x", gcr_off);
		KUNIT_EXPECT_TRUE_MSG(test, untouched(gcr, gcr_off),
				      "below GCR+0x%x", gcr_off);
		KUNIT_EXPECT_TRUE_MSG(test, untouched(gcr + gcr_off + 4,
						      GCR_SIZE - gcr_off - 4),
				      "above GCR+0x%x", gcr_off);

		/* the 32 bits at the register, whatever is next to them */
		v = 0x55667788;
		memcpy(gcr + gcr_off, &v, sizeof(v));
		memset(gcr + gcr_off + 4, 0x5a, 4);
		memset(gcr + gcr_off - 4, 0x3c, 4);
		KUNIT_EXPECT_EQ_MSG(test, ops->read(ctx, off), 0x55667788U,
				    "GCR+0x%x", gcr_off);
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
