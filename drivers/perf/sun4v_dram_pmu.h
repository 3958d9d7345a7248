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
 * are the HV_E* there. Sections cited as "niagara2_perf_api N" and
 * "vf_perf_api N" are those of the sun4v Hypervisor API's N2 and VF
 * performance counter documents (niagara2_perf_api.txt, vf_perf_api.txt).
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

/* PerfReg numbers: niagara2_perf_api 3.1, vf_perf_api 3.1 */
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

/**
 * struct sun4v_dram_hv_ops - the chip's perfreg hypercalls
 * @get_perfreg: GET_PERFREG: read PerfReg# @reg into *@val, written only on
 *	success; return the HV_E* status
 * @set_perfreg: SET_PERFREG: write @val to PerfReg# @reg; return the HV_E*
 *	status
 * @ctx: passed to each of them
 *
 * The T2 and the T2+ each have their own calls (0x104/0x105 and
 * 0x106/0x107); the KUnit suite gives a model of either. The driver calls
 * them for the DRAM registers only, with interrupts disabled (also from
 * hard-irq context); they must not sleep.
 */
struct sun4v_dram_hv_ops {
	unsigned long (*get_perfreg)(void *ctx, unsigned long reg, u64 *val);
	unsigned long (*set_perfreg)(void *ctx, unsigned long reg, u64 val);
	void *ctx;
};

/**
 * struct sun4v_pmu_desc - what a DRAM PMU instance is registered with
 * @chip: N2 (registers "niagara2_dram") or VF (registers "vfalls_dram")
 * @name: the PMU's name, or NULL for the chip's name above; another name
 *	lets a second instance (a test's, on its own hypercall model) be
 *	registered beside the machine's
 * @hv: the chip's hypercalls
 * @owner: the module that owns the PMU (this driver, or a test), so that
 *	it cannot be unloaded while an event is open
 */
struct sun4v_pmu_desc {
	enum sun4v_pmu_chip chip;
	const char *name;
	const struct sun4v_dram_hv_ops *hv;
	struct module *owner;
};

struct sun4v_dram_pmu;

#if IS_ENABLED(CONFIG_KUNIT)
struct sun4v_dram_pmu *sun4v_dram_pmu_probe(const struct sun4v_pmu_desc *desc);
void sun4v_dram_pmu_remove(struct sun4v_dram_pmu *dram);
struct pmu *sun4v_dram_pmu_to_pmu(struct sun4v_dram_pmu *dram);
int sun4v_pmu_errno(unsigned long hv_status);
const char *sun4v_pmu_status_name(unsigned long hv_status);
extern const u64 dram_n2_format_mask[];
extern const u64 dram_vf_format_mask[];
#endif

#endif /* _SUN4V_DRAM_PMU_H */
