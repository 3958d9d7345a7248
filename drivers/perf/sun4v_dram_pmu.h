/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The niagara2_dram and vfalls_dram PMUs: what the driver shares with its
 * KUnit suite and the suite's model.
 *
 * The UltraSPARC T2 (Niagara2) and T2+ (Victoria Falls) DRAM performance
 * registers are reachable only through the sun4v hypervisor calls
 * N2_GET/SET_PERFREG (0x104/0x105, API group 0x202) and
 * VF_GET/SET_PERFREG (0x106/0x107, API group 0x205), which the driver
 * makes through the kernel's wrappers in asm/hypervisor.h; status codes
 * are the HV_E* there.
 */
#ifndef _SUN4V_DRAM_PMU_H
#define _SUN4V_DRAM_PMU_H

#include <linux/export.h>
#include <linux/types.h>

/**
 * enum sun4v_pmu_chip - which perfreg API the platform provides
 * @SUN4V_PMU_N2: UltraSPARC T2, group 0x202, 4 DRAM channels
 * @SUN4V_PMU_VF: UltraSPARC T2+, group 0x205, 4 nodes x 2 MCUs
 */
enum sun4v_pmu_chip {
	SUN4V_PMU_N2,
	SUN4V_PMU_VF,
};

/* Performance register numbers (PerfReg#) of the seeds' tables. */
#define SUN4V_PMU_REG_PCR		0	/* SPARC PCR of the calling strand */
#define SUN4V_PMU_VF_REG_L2CTL	1	/* VF: virtualised L2 ctl, local node */
#define SUN4V_PMU_N2_NR_REGS		9	/* N2: PerfReg 0..8 */
#define SUN4V_PMU_VF_NR_REGS		18	/* VF v1.0: PerfReg 0..17 */

#define SUN4V_PMU_N2_CHANNELS		4
#define SUN4V_PMU_VF_NODES		4
#define SUN4V_PMU_VF_MCUS		2
#define SUN4V_PMU_MAX_CHANNELS	(SUN4V_PMU_VF_NODES * SUN4V_PMU_VF_MCUS)

/**
 * sun4v_pmu_ctl_reg() - PerfReg# of a DRAM channel's control register
 * @chip: the chip
 * @chan: channel index: the N2 channel (0-3), or node * 2 + mcu on VF
 *
 * N2 numbers its DRAM registers from 1 (niagara2_perf_api 3.1), VF from 2
 * because PerfReg 1 is the L2 control register (vf_perf_api 3.1).
 *
 * Return: the control register's number; the counter register follows it.
 */
static inline unsigned long sun4v_pmu_ctl_reg(enum sun4v_pmu_chip chip,
					      unsigned int chan)
{
	return (chip == SUN4V_PMU_VF ? 2 : 1) + 2 * chan;
}

/**
 * sun4v_pmu_pic_reg() - PerfReg# of a DRAM channel's counter register
 * @chip: the chip
 * @chan: channel index as for sun4v_pmu_ctl_reg()
 *
 * Return: the counter register's number.
 */
static inline unsigned long sun4v_pmu_pic_reg(enum sun4v_pmu_chip chip,
					      unsigned int chan)
{
	return sun4v_pmu_ctl_reg(chip, chan) + 1;
}

/*
 * DRAM control and counter register layout: the control register selects
 * the event of PIC0 in bits 7:4 and of PIC1 in bits 3:0; the counter
 * register holds PIC0 in bits 62:32 and PIC1 in bits 30:0, 31 bits each.
 */
#define SUN4V_PMU_CTL_MASK		0xffULL
#define SUN4V_PMU_PIC_WIDTH		31
#define SUN4V_PMU_PIC0_SHIFT		32
#define SUN4V_PMU_PIC1_SHIFT		0
#define SUN4V_PMU_SEL0_SHIFT		4
#define SUN4V_PMU_SEL1_SHIFT		0
#define SUN4V_PMU_SEL_MASK		0xfULL

/*
 * T2+ L2 PERF_CONFIG (PerfReg 1, bits 1:0): which L2 misses the CPU PMU's
 * L2-miss events count, in the order of vf_perf_api 3.0. Only 0 ("all", the
 * default) is confirmed by another source; 1-3 follow the seed's wording.
 */
#define SUN4V_PMU_L2_ALL		0
#define SUN4V_PMU_L2_LOCAL		1
#define SUN4V_PMU_L2_REMOTE		2
#define SUN4V_PMU_L2_C2C		3

/*
 * The CPU PMU's event encoding (SL << 8 | mask, the 12 bits the PCR takes
 * at bit 6 or 19). Like illumos, the L2 PERF_CONFIG setting is applied to
 * the events of select group SL 3 (IC_miss, DC_miss, L2_imiss,
 * L2_dmiss_ld).
 */
#define SUN4V_PMU_PCR_SL(enc)		(((enc) >> 8) & 0xf)
#define SUN4V_PMU_PCR_SL_MISSES	3

/**
 * struct sun4v_dram_pmu_test_ops - a model in place of the hypervisor
 * @get_perfreg: as the chip's GET_PERFREG: read PerfReg# @reg into *@val,
 *	written only on success; return the HV_E* status
 * @set_perfreg: as the chip's SET_PERFREG: write @val to PerfReg# @reg;
 *	return the HV_E* status
 * @cpu_socket: optional; as cpu_data(@cpu).sock_id, or a negative errno if
 *	the CPU's socket is not known. Without it, a T2+ has no l2ctl.
 * @ctx: passed to each of them
 *
 * For the KUnit suite and the test platform built on it: followed only
 * where CONFIG_SUN4V_DRAM_PMU_KUNIT_TEST is enabled. The calls act on the
 * calling strand where the hypercalls do: PerfReg 0 is the calling
 * strand's PCR, VF PerfReg 1 the L2 control register of the calling
 * strand's node (vf_perf_api 3.1); they are made with interrupts disabled
 * (also from hard-irq and NMI context) and must not sleep.
 */
struct sun4v_dram_pmu_test_ops {
	unsigned long (*get_perfreg)(void *ctx, unsigned long reg, u64 *val);
	unsigned long (*set_perfreg)(void *ctx, unsigned long reg, u64 val);
	int (*cpu_socket)(void *ctx, unsigned int cpu);
	void *ctx;
};

/**
 * struct sun4v_pmu_desc - what a DRAM PMU instance is registered with
 * @chip: N2 (registers "niagara2_dram") or VF (registers "vfalls_dram")
 * @test_ops: a model instead of the hypervisor (KUnit only; NULL on sun4v)
 * @owner: the module that owns the PMU (this driver, or a test), so that
 *	it cannot be unloaded while an event is open
 */
struct sun4v_pmu_desc {
	enum sun4v_pmu_chip chip;
	const struct sun4v_dram_pmu_test_ops *test_ops;
	struct module *owner;
};

struct sun4v_dram_pmu;

struct sun4v_dram_pmu *sun4v_dram_pmu_probe(const struct sun4v_pmu_desc *desc);
void sun4v_dram_pmu_remove(struct sun4v_dram_pmu *dram);
struct pmu *sun4v_dram_pmu_to_pmu(struct sun4v_dram_pmu *dram);
bool sun4v_pmu_pcr_write(struct sun4v_dram_pmu *dram, u64 pcr, bool live,
			 u64 cur);
int sun4v_pmu_l2ctl_get(struct sun4v_dram_pmu *dram, unsigned int node,
			unsigned int mode);
void sun4v_pmu_l2ctl_put(struct sun4v_dram_pmu *dram, unsigned int node);
int sun4v_pmu_l2ctl_event_get(struct sun4v_dram_pmu *dram, int cpu,
			      u32 enc, u64 config1);
void sun4v_pmu_l2ctl_event_put(struct sun4v_dram_pmu *dram, int cpu,
			       u32 enc, u64 config1);
int sun4v_pmu_l2_nodes(const int *sock, unsigned int nr, s8 *node);
int sun4v_pmu_chip_detect(const char *compat, int len);
int sun4v_pmu_errno(unsigned long hv_status);
const char *sun4v_pmu_status_name(unsigned long hv_status);

#endif /* _SUN4V_DRAM_PMU_H */
