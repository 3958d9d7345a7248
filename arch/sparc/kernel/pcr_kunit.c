// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of the PCR.HT handling of the UltraSPARC T2/T2+ (pcr.c) and
 * of telling a T2 from a T2+. The hypervisor's SET_PERFREG of PerfReg 0 is
 * answered by a stand-in that follows the sun4v Hypervisor API (N2 and VF
 * performance counter APIs, section 2.1): HT is written only with the
 * domain's perfctrhtaccess, else ENOACCESS. It takes no lock, so that it
 * can answer in NMI context too.
 *
 * Safe on a real T2/T2+: every case works on a state of its own (a
 * struct pcr_ht the suite allocates) through its own stand-in for the
 * hypervisor; neither the machine's PCR nor its HT state is touched.
 */

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/hardirq.h>
#include <linux/irq_work.h>
#include <linux/irqflags.h>
#include <linux/lockdep.h>
#include <linux/string.h>
#include <asm/hypervisor.h>
#include <asm/pcr.h>
#include <asm/spitfire.h>

#include "pcr_ht.h"

#define PCR		0x8ceULL	/* SL0 2, mask 0x3, HT|UT|ST */

static struct {
	u64 pcr;		/* the strand's PCR */
	bool ht_access;		/* the domain's perfctrhtaccess */
	unsigned long inject;	/* answer the next call with this */
	bool nmi;		/* an overflow interrupt right after the next call */
	u64 nmi_val;		/* what it writes */
	unsigned int calls;
	struct pcr_ht *ht;	/* the case's own HT state */
	struct pcr_ht_strand strand[2];	/* its strands' */
	atomic_t reports;	/* its messages queued and run */
} hv;

static unsigned long hv_set(u64 val)
{
	unsigned long status = hv.inject;

	hv.calls++;
	if (status != HV_EOK) {
		hv.inject = HV_EOK;
		return status;
	}
	if ((val & PCR_N2_HTRACE) && !hv.ht_access)
		return HV_ENOACCESS;
	hv.pcr = val;
	if (hv.nmi) {
		struct pcr_ht_strand *s = &hv.strand[0];
		bool live = READ_ONCE(s->live);

		/* Strand 0's overflow interrupt, as n2_pcr_write() does it. */
		hv.nmi = false;
		if (!((hv.nmi_val & PCR_N2_HTRACE) || live) ||
		    !pcr_ht_write(hv.ht, s, hv.nmi_val, live, hv.pcr, hv_set))
			/* a direct write, which leaves HT as it is */
			hv.pcr = (hv.nmi_val & ~PCR_N2_HTRACE) |
				 (hv.pcr & PCR_N2_HTRACE);
	}
	return HV_EOK;
}

/* A write on strand @i, whose PCR reads @cur. */
static bool ht_write_on(unsigned int i, u64 val, u64 cur)
{
	struct pcr_ht_strand *s = &hv.strand[i];

	return pcr_ht_write(hv.ht, s, val, READ_ONCE(s->live), cur, hv_set);
}

/*
 * A write on strand 0, whose last write set HT through the hypervisor if
 * @live, as n2_pcr_write() knows it.
 */
static bool ht_write(u64 val, bool live, u64 cur)
{
	hv.strand[0].live = live;
	return ht_write_on(0, val, cur);
}

static const char *ht_name(void)
{
	return pcr_ht_name(hv.ht);
}

static void count_report(struct irq_work *work)
{
	atomic_inc(&hv.reports);
}

static int pcr_test_init(struct kunit *test)
{
	hv.pcr = 0;
	hv.ht_access = true;
	hv.inject = HV_EOK;
	hv.nmi = false;
	hv.calls = 0;
	memset(hv.strand, 0, sizeof(hv.strand));
	atomic_set(&hv.reports, 0);
	/* zeroed: "unused"; its reports are counted, not printed */
	hv.ht = kunit_kzalloc(test, sizeof(*hv.ht), GFP_KERNEL);
	if (!hv.ht)
		return -ENOMEM;
	init_irq_work(&hv.ht->work, count_report);
	return 0;
}

/* Also after a case that stopped half-way: no report left to run. */
static void pcr_test_exit(struct kunit *test)
{
	if (hv.ht)
		irq_work_sync(&hv.ht->work);
}

static void pcr_test_compat(struct kunit *test)
{
	static const char t2p_list[] = "SUNW,UltraSPARC-T2+\0SUNW,sun4v";

	KUNIT_EXPECT_TRUE(test, sun4v_compat_is_vfalls("SUNW,UltraSPARC-T2+"));
	KUNIT_EXPECT_TRUE(test, sun4v_compat_is_vfalls(t2p_list));
	KUNIT_EXPECT_FALSE(test, sun4v_compat_is_vfalls("SUNW,UltraSPARC-T2"));
	KUNIT_EXPECT_FALSE(test, sun4v_compat_is_vfalls("SUNW,UltraSPARC-T2+x"));
	KUNIT_EXPECT_FALSE(test, sun4v_compat_is_vfalls("SUNW,UltraSPARC-T1"));
	KUNIT_EXPECT_FALSE(test, sun4v_compat_is_vfalls("SUNW,UltraSPARC-T3"));
	KUNIT_EXPECT_FALSE(test, sun4v_compat_is_vfalls(""));
	/* This kernel's own CPU: a T2+ only on a sun4v T2+. */
	if (tlb_type != hypervisor)
		KUNIT_EXPECT_FALSE(test, sun4v_chip_is_vfalls());
}

/* Refused: false, "refused"; allowed: true, "allowed". */
static void pcr_test_ht(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, ht_name(), "unused");
	hv.ht_access = false;
	KUNIT_EXPECT_FALSE(test, ht_write(PCR, false, 0));
	KUNIT_EXPECT_FALSE(test, ht_write(PCR, false, 0));
	KUNIT_EXPECT_EQ(test, hv.pcr, 0ULL);
	KUNIT_EXPECT_EQ(test, hv.calls, 2U);
	KUNIT_EXPECT_STREQ(test, ht_name(), "refused");

	/* A later grant is seen at the next write. */
	hv.ht_access = true;
	KUNIT_EXPECT_TRUE(test, ht_write(PCR, false, 0));
	KUNIT_EXPECT_EQ(test, hv.pcr, PCR);
	KUNIT_EXPECT_STREQ(test, ht_name(), "allowed");

	/* Any status but EOK is a refusal, not only ENOACCESS. */
	hv.inject = HV_EWOULDBLOCK;
	KUNIT_EXPECT_FALSE(test, ht_write(PCR | 1, true, PCR));
	KUNIT_EXPECT_EQ(test, hv.pcr, PCR);
	KUNIT_EXPECT_STREQ(test, ht_name(), "refused");
}

/*
 * The write that ends counting with HT goes through the hypervisor like
 * the one that began it (a privileged write cannot change HT), and a PCR
 * read back with HT clear while counting with HT means the hypervisor
 * revoked it (illumos ni2_pcbe_sample): "revoked", no further HT writes.
 */
static void pcr_test_ht_revoked(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, ht_write(PCR, false, 0));
	KUNIT_EXPECT_EQ(test, hv.pcr, PCR);
	/* Still HT on read back: nothing changed. */
	KUNIT_EXPECT_TRUE(test, ht_write(PCR | 1, true, hv.pcr));
	KUNIT_EXPECT_STREQ(test, ht_name(), "allowed");
	/* Disable clears HT through the hypervisor, which does it. */
	hv.calls = 0;
	KUNIT_EXPECT_TRUE(test, ht_write(PCR & ~PCR_N2_HTRACE, true, hv.pcr));
	KUNIT_EXPECT_EQ(test, hv.pcr, PCR & ~PCR_N2_HTRACE);
	KUNIT_EXPECT_EQ(test, hv.calls, 1U);

	/* Counting with HT again; then the hypervisor clears HT. */
	KUNIT_EXPECT_TRUE(test, ht_write(PCR, false, 0));
	hv.pcr &= ~PCR_N2_HTRACE;
	hv.calls = 0;
	KUNIT_EXPECT_FALSE(test, ht_write(PCR, true, hv.pcr));
	KUNIT_EXPECT_STREQ(test, ht_name(), "revoked");
	KUNIT_EXPECT_EQ(test, hv.calls, 0U);
	/* From then on no HT write, but a clearing write still goes through. */
	KUNIT_EXPECT_FALSE(test, ht_write(PCR, false, 0));
	KUNIT_EXPECT_EQ(test, hv.calls, 0U);
	KUNIT_EXPECT_TRUE(test, ht_write(0x6, true, PCR));
	KUNIT_EXPECT_EQ(test, hv.pcr, 0x6ULL);
	KUNIT_EXPECT_STREQ(test, ht_name(), "revoked");
}

/*
 * A privileged PCR write cannot change HT, so when the hypervisor refuses
 * the write that ends counting with HT, HT stays set and hyperprivileged
 * events go on being counted: "stuck", and logged, not dropped. The next
 * HT write that goes through ends it; a revoked HT is not stuck.
 */
static void pcr_test_ht_clear_refused(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, ht_write(PCR, false, 0));
	hv.inject = HV_EWOULDBLOCK;
	KUNIT_EXPECT_FALSE(test, ht_write(PCR & ~PCR_N2_HTRACE, true, hv.pcr));
	KUNIT_EXPECT_EQ(test, hv.pcr, PCR);
	KUNIT_EXPECT_STREQ(test, ht_name(), "stuck");
	/* Cleared at the next try. */
	KUNIT_EXPECT_TRUE(test, ht_write(PCR & ~PCR_N2_HTRACE, true, hv.pcr));
	KUNIT_EXPECT_EQ(test, hv.pcr, PCR & ~PCR_N2_HTRACE);
	KUNIT_EXPECT_STREQ(test, ht_name(), "allowed");

	/* Revoked: HT is not set, so a refused clear leaves it revoked. */
	KUNIT_EXPECT_TRUE(test, ht_write(PCR, false, 0));
	hv.pcr &= ~PCR_N2_HTRACE;
	KUNIT_EXPECT_FALSE(test, ht_write(PCR, true, hv.pcr));
	hv.inject = HV_EWOULDBLOCK;
	KUNIT_EXPECT_FALSE(test, ht_write(0x6, true, hv.pcr));
	KUNIT_EXPECT_STREQ(test, ht_name(), "revoked");
}

/*
 * Two strands count with HT. The hypervisor takes HT away from the first
 * ("revoked": no strand asks for it again), then refuses the write that
 * clears it on the second, whose PCR still has HT: that strand goes on
 * counting hyperprivileged events, so it is "stuck", whatever happened
 * on the first. A write that goes through there ends it, and the file
 * shows the machine's "revoked" again.
 */
static void pcr_test_ht_stuck_strand(struct kunit *test)
{
	u64 pcr_a = PCR, pcr_b = PCR;

	KUNIT_EXPECT_TRUE(test, ht_write_on(0, PCR, 0));
	KUNIT_EXPECT_TRUE(test, ht_write_on(1, PCR, 0));
	/* Strand A reads its PCR back without HT. */
	pcr_a &= ~PCR_N2_HTRACE;
	KUNIT_EXPECT_FALSE(test, ht_write_on(0, PCR | 1, pcr_a));
	KUNIT_EXPECT_STREQ(test, ht_name(), "revoked");
	/* Strand B's clear is refused: its HT stays set. */
	hv.inject = HV_EWOULDBLOCK;
	hv.calls = 0;
	KUNIT_EXPECT_FALSE(test, ht_write_on(1, PCR & ~PCR_N2_HTRACE, pcr_b));
	KUNIT_EXPECT_EQ(test, hv.calls, 1U);
	KUNIT_EXPECT_STREQ(test, ht_name(), "stuck");
	/* Strand A asks for HT no more, and does not end B's stuck HT. */
	KUNIT_EXPECT_FALSE(test, ht_write_on(0, PCR, pcr_a));
	KUNIT_EXPECT_EQ(test, hv.calls, 1U);
	KUNIT_EXPECT_TRUE(test, ht_write_on(0, 0x6, pcr_a));
	KUNIT_EXPECT_STREQ(test, ht_name(), "stuck");
	/* B's next clear goes through. */
	KUNIT_EXPECT_TRUE(test, ht_write_on(1, PCR & ~PCR_N2_HTRACE, pcr_b));
	KUNIT_EXPECT_STREQ(test, ht_name(), "revoked");
	KUNIT_EXPECT_EQ(test, hv.calls, 3U);
	/* One report each: revoked, B stuck. */
	irq_work_sync(&hv.ht->work);
	KUNIT_EXPECT_EQ(test, atomic_read(&hv.reports), 2);
}

/*
 * A strand whose clear was refused (stuck) and whose PCR then reads HT
 * clear (a reset of the PCR ended it) had no HT taken away: it is no
 * longer stuck, and HT is not revoked for the other strands.
 */
static void pcr_test_ht_stuck_found_clear(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, ht_write_on(0, PCR, 0));
	hv.inject = HV_EWOULDBLOCK;
	KUNIT_EXPECT_FALSE(test, ht_write_on(0, PCR & ~PCR_N2_HTRACE, PCR));
	KUNIT_EXPECT_STREQ(test, ht_name(), "stuck");
	KUNIT_EXPECT_TRUE(test, ht_write_on(0, PCR & ~PCR_N2_HTRACE,
					    PCR & ~PCR_N2_HTRACE));
	KUNIT_EXPECT_STREQ(test, ht_name(), "allowed");
	hv.calls = 0;
	KUNIT_EXPECT_TRUE(test, ht_write_on(1, PCR, 0));
	KUNIT_EXPECT_EQ(test, hv.calls, 1U);
	KUNIT_EXPECT_STREQ(test, ht_name(), "allowed");
}

/*
 * The overflow interrupt (PIL 15) comes between two instructions of the
 * write that clears HT, once the hypervisor has cleared it: its own PCR
 * write must not read that as HT taken away. Nor may a write take the
 * strand's state from after its own read of the PCR: what the caller read
 * first is what its PCR value means.
 */
static void pcr_test_ht_nmi_window(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, ht_write(PCR, false, 0));
	hv.nmi = true;
	hv.nmi_val = 0x6;
	KUNIT_EXPECT_TRUE(test, ht_write(PCR & ~PCR_N2_HTRACE, true, hv.pcr));
	KUNIT_EXPECT_FALSE(test, hv.nmi);
	KUNIT_EXPECT_STREQ(test, ht_name(), "allowed");
	KUNIT_EXPECT_FALSE(test, hv.strand[0].live);
	/* HT is still asked for, and set. */
	KUNIT_EXPECT_TRUE(test, ht_write(PCR, false, 0));
	KUNIT_EXPECT_EQ(test, hv.pcr, PCR);

	/* Read not live, PCR 0; an interrupt set HT before the call. */
	hv.strand[0].live = true;
	KUNIT_EXPECT_TRUE(test, pcr_ht_write(hv.ht, &hv.strand[0], PCR, false,
					     0, hv_set));
	KUNIT_EXPECT_STREQ(test, ht_name(), "allowed");
	irq_work_sync(&hv.ht->work);
	KUNIT_EXPECT_EQ(test, atomic_read(&hv.reports), 0);
}

/*
 * sparc64's CPU PMU writes the PCR from its overflow interrupt, which
 * comes at PIL 15, an NMI that local_irq_save() does not mask. A refused
 * HT write there changes the state and queues a message; nothing on that
 * path may take a lock, since the interrupted code on the same CPU may
 * hold it. In NMI context (as perfctr_irq() enters it) lockdep reports
 * any lock but a trylock taken there, and then turns itself off. The
 * message of each change to "refused", "revoked" or "stuck" is printed
 * later, from an irq_work: here one that counts them.
 */
static void pcr_test_ht_nmi(struct kunit *test)
{
	unsigned long flags;
	bool ret, locks;

	if (!IS_ENABLED(CONFIG_PROVE_LOCKING) || !debug_locks)
		kunit_skip(test, "needs lockdep, and lockdep on");
	/* Refused once with interrupts off, as the CPU PMU does. */
	hv.ht_access = false;
	local_irq_save(flags);
	KUNIT_EXPECT_FALSE(test, ht_write(PCR, false, 0));
	local_irq_restore(flags);
	irq_work_sync(&hv.ht->work);
	KUNIT_EXPECT_EQ(test, atomic_read(&hv.reports), 1);
	hv.ht_access = true;
	KUNIT_EXPECT_TRUE(test, ht_write(PCR, false, 0));
	KUNIT_EXPECT_STREQ(test, ht_name(), "allowed");

	hv.ht_access = false;
	local_irq_save(flags);
	__nmi_enter();
	ret = ht_write(PCR, false, 0);
	/* no change: no report */
	ret |= ht_write(PCR, false, 0);
	__nmi_exit();
	local_irq_restore(flags);
	locks = debug_locks;
	irq_work_sync(&hv.ht->work);
	KUNIT_EXPECT_FALSE(test, ret);
	KUNIT_EXPECT_TRUE_MSG(test, locks,
			      "lockdep saw a lock taken in NMI context");
	KUNIT_EXPECT_STREQ(test, ht_name(), "refused");
	/* "allowed" is not reported: two refusals, two reports */
	KUNIT_EXPECT_EQ(test, atomic_read(&hv.reports), 2);
}

/*
 * The API groups a firmware offers, as sun4v_hvapi_register() reaches
 * them (sun4v Hypervisor API 3.0, 11.1.1, API_SET_VERSION): a group it
 * does not offer is refused, and nothing is registered then.
 */
static struct {
	unsigned long offered[2];	/* groups at major 1 */
	unsigned long minor[2];		/* the minor each answers */
	unsigned long asked[4];		/* groups asked for, in order */
	unsigned int nr_asked;
	unsigned int registered;	/* successful registrations */
} fw;

static int fw_register(unsigned long group, unsigned long major,
		       unsigned long *minor)
{
	unsigned int i;

	if (fw.nr_asked < ARRAY_SIZE(fw.asked))
		fw.asked[fw.nr_asked] = group;
	fw.nr_asked++;
	for (i = 0; i < ARRAY_SIZE(fw.offered); i++) {
		if (!fw.offered[i] || fw.offered[i] != group || major != 1)
			continue;
		*minor = fw.minor[i];
		fw.registered++;
		return 0;
	}
	return -EINVAL;
}

static void fw_offer(unsigned long group0, unsigned long group1)
{
	memset(&fw, 0, sizeof(fw));
	fw.offered[0] = group0;
	fw.offered[1] = group1;
	fw.minor[0] = 1;	/* above the 0 asked for: 11.1.1 allows it */
}

/* Group numbers (sun4v Hypervisor API 3.0, App. A), typed in. */
#define GRP_N2_CPU	0x202
#define GRP_VF_CPU	0x205

/* A T2+ whose firmware has its API: 0x205, and no other group asked. */
static void pcr_test_hsvc_t2plus(struct kunit *test)
{
	unsigned long group = 0, minor = 0;

	fw_offer(GRP_VF_CPU, GRP_N2_CPU);
	KUNIT_EXPECT_EQ(test, pcr_n2_hsvc_register(true, fw_register, &group,
						   &minor), 0);
	KUNIT_EXPECT_EQ(test, group, (unsigned long)GRP_VF_CPU);
	KUNIT_EXPECT_EQ(test, minor, 1UL);
	KUNIT_EXPECT_EQ(test, fw.nr_asked, 1U);
	KUNIT_EXPECT_EQ(test, fw.asked[0], (unsigned long)GRP_VF_CPU);
	KUNIT_EXPECT_EQ(test, fw.registered, 1U);
}

/*
 * A T2+ whose firmware refuses 0x205 but has 0x202, the group Linux has
 * always negotiated there: the CPU PMU and the NMI watchdog stay, with
 * the T2's calls.
 */
static void pcr_test_hsvc_t2plus_old_fw(struct kunit *test)
{
	unsigned long group = 0, minor = 7;

	fw_offer(GRP_N2_CPU, 0);
	fw.minor[0] = 0;
	KUNIT_EXPECT_EQ(test, pcr_n2_hsvc_register(true, fw_register, &group,
						   &minor), 0);
	KUNIT_EXPECT_EQ(test, group, (unsigned long)GRP_N2_CPU);
	KUNIT_EXPECT_EQ(test, minor, 0UL);
	KUNIT_EXPECT_EQ(test, fw.nr_asked, 2U);
	KUNIT_EXPECT_EQ(test, fw.asked[0], (unsigned long)GRP_VF_CPU);
	KUNIT_EXPECT_EQ(test, fw.asked[1], (unsigned long)GRP_N2_CPU);
	KUNIT_EXPECT_EQ(test, fw.registered, 1U);
}

/* Neither group: an error, after asking for both; nothing registered. */
static void pcr_test_hsvc_t2plus_none(struct kunit *test)
{
	unsigned long group = 0, minor = 0;

	fw_offer(0, 0);
	KUNIT_EXPECT_NE(test, pcr_n2_hsvc_register(true, fw_register, &group,
						   &minor), 0);
	KUNIT_EXPECT_EQ(test, fw.nr_asked, 2U);
	KUNIT_EXPECT_EQ(test, fw.asked[0], (unsigned long)GRP_VF_CPU);
	KUNIT_EXPECT_EQ(test, fw.asked[1], (unsigned long)GRP_N2_CPU);
	KUNIT_EXPECT_EQ(test, fw.registered, 0U);
}

/* A T2 asks for 0x202 only, whatever else the firmware offers. */
static void pcr_test_hsvc_t2(struct kunit *test)
{
	unsigned long group = 0, minor = 0;

	fw_offer(GRP_VF_CPU, GRP_N2_CPU);
	KUNIT_EXPECT_EQ(test, pcr_n2_hsvc_register(false, fw_register, &group,
						   &minor), 0);
	KUNIT_EXPECT_EQ(test, group, (unsigned long)GRP_N2_CPU);
	KUNIT_EXPECT_EQ(test, fw.nr_asked, 1U);
	KUNIT_EXPECT_EQ(test, fw.asked[0], (unsigned long)GRP_N2_CPU);

	fw_offer(0, 0);
	KUNIT_EXPECT_NE(test, pcr_n2_hsvc_register(false, fw_register, &group,
						   &minor), 0);
	KUNIT_EXPECT_EQ(test, fw.nr_asked, 1U);
	KUNIT_EXPECT_EQ(test, fw.registered, 0U);
}

static struct kunit_case pcr_test_cases[] = {
	KUNIT_CASE(pcr_test_compat),
	KUNIT_CASE(pcr_test_ht),
	KUNIT_CASE(pcr_test_ht_revoked),
	KUNIT_CASE(pcr_test_ht_clear_refused),
	KUNIT_CASE(pcr_test_ht_stuck_strand),
	KUNIT_CASE(pcr_test_ht_stuck_found_clear),
	KUNIT_CASE(pcr_test_ht_nmi),
	KUNIT_CASE(pcr_test_ht_nmi_window),
	KUNIT_CASE(pcr_test_hsvc_t2plus),
	KUNIT_CASE(pcr_test_hsvc_t2plus_old_fw),
	KUNIT_CASE(pcr_test_hsvc_t2plus_none),
	KUNIT_CASE(pcr_test_hsvc_t2),
	{}
};

static struct kunit_suite pcr_test_suite = {
	.name		= "sparc64_pcr",
	.init		= pcr_test_init,
	.exit		= pcr_test_exit,
	.test_cases	= pcr_test_cases,
};

kunit_test_suite(pcr_test_suite);

MODULE_DESCRIPTION("KUnit tests of sparc64's PCR.HT handling");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
