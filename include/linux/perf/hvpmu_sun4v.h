/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sun4v performance-register backend interface for the niagara2_dram and
 * vfalls_dram PMUs.
 *
 * The UltraSPARC T2 (Niagara2) and T2+ (Victoria Falls) DRAM performance
 * registers are reachable only through the sun4v hypervisor calls
 * NIAGARA2_GET/SET_PERFREG (0x104/0x105, API group 0x202) and
 * VFALLS_GET/SET_PERFREG (0x106/0x107, API group 0x205). The arch-neutral
 * driver calls them only through &struct hvpmu_sun4v_ops; the arch glue
 * supplies the real hypercalls, the tests a register-level model.
 */
#ifndef _LINUX_PERF_HVPMU_SUN4V_H
#define _LINUX_PERF_HVPMU_SUN4V_H

#include <linux/export.h>
#include <linux/types.h>

/*
 * Hypervisor status codes used by the perfreg calls (sun4v core API,
 * FWARC 2005/116). Repeated here because the driver is arch-neutral and
 * does not include asm/hypervisor.h; the glue checks them against the
 * HV_E* values at build time.
 */
#define HVPMU_SUN4V_EOK			0
#define HVPMU_SUN4V_EINVAL		6
#define HVPMU_SUN4V_EBADTRAP		7
#define HVPMU_SUN4V_EWOULDBLOCK		9
#define HVPMU_SUN4V_ENOACCESS		10
#define HVPMU_SUN4V_ENOTSUPPORTED	13

/* Fast-trap function and API group numbers (niagara2_perf_api 3.2). */
#define HVPMU_SUN4V_N2_GET_PERFREG	0x104
#define HVPMU_SUN4V_N2_SET_PERFREG	0x105
#define HVPMU_SUN4V_N2_API_GROUP	0x202
/* The same for the T2+ (vf_perf_api 3.2). */
#define HVPMU_SUN4V_VF_GET_PERFREG	0x106
#define HVPMU_SUN4V_VF_SET_PERFREG	0x107
#define HVPMU_SUN4V_VF_API_GROUP	0x205

/**
 * enum hvpmu_sun4v_chip - which perfreg API the platform provides
 * @HVPMU_SUN4V_N2: UltraSPARC T2, group 0x202, 4 DRAM channels
 * @HVPMU_SUN4V_VF: UltraSPARC T2+, group 0x205, 4 nodes x 2 MCUs
 */
enum hvpmu_sun4v_chip {
	HVPMU_SUN4V_N2,
	HVPMU_SUN4V_VF,
};

/* Performance register numbers (PerfReg#) of the seeds' tables. */
#define HVPMU_SUN4V_REG_PCR		0	/* SPARC PCR of the calling strand */
#define HVPMU_SUN4V_VF_REG_L2CTL	1	/* VF: virtualised L2 ctl, local node */
#define HVPMU_SUN4V_N2_NR_REGS		9	/* N2: PerfReg 0..8 */
#define HVPMU_SUN4V_VF_NR_REGS		18	/* VF v1.0: PerfReg 0..17 */

#define HVPMU_SUN4V_N2_CHANNELS		4
#define HVPMU_SUN4V_VF_NODES		4
#define HVPMU_SUN4V_VF_MCUS		2
#define HVPMU_SUN4V_MAX_CHANNELS	(HVPMU_SUN4V_VF_NODES * HVPMU_SUN4V_VF_MCUS)

/**
 * hvpmu_sun4v_ctl_reg() - PerfReg# of a DRAM channel's control register
 * @chip: the chip
 * @chan: channel index: the N2 channel (0-3), or node * 2 + mcu on VF
 *
 * N2 numbers its DRAM registers from 1 (niagara2_perf_api 3.1), VF from 2
 * because PerfReg 1 is the L2 control register (vf_perf_api 3.1).
 *
 * Return: the control register's number; the counter register follows it.
 */
static inline unsigned long hvpmu_sun4v_ctl_reg(enum hvpmu_sun4v_chip chip,
						unsigned int chan)
{
	return (chip == HVPMU_SUN4V_VF ? 2 : 1) + 2 * chan;
}

/**
 * hvpmu_sun4v_pic_reg() - PerfReg# of a DRAM channel's counter register
 * @chip: the chip
 * @chan: channel index as for hvpmu_sun4v_ctl_reg()
 *
 * Return: the counter register's number.
 */
static inline unsigned long hvpmu_sun4v_pic_reg(enum hvpmu_sun4v_chip chip,
						unsigned int chan)
{
	return hvpmu_sun4v_ctl_reg(chip, chan) + 1;
}

/*
 * DRAM control and counter register layout: the control register selects
 * the event of PIC0 in bits 7:4 and of PIC1 in bits 3:0; the counter
 * register holds PIC0 in bits 62:32 and PIC1 in bits 30:0, 31 bits each.
 */
#define HVPMU_SUN4V_CTL_MASK		0xffULL
#define HVPMU_SUN4V_PIC_WIDTH		31
#define HVPMU_SUN4V_PIC0_SHIFT		32
#define HVPMU_SUN4V_PIC1_SHIFT		0
#define HVPMU_SUN4V_SEL0_SHIFT		4
#define HVPMU_SUN4V_SEL1_SHIFT		0
#define HVPMU_SUN4V_SEL_MASK		0xfULL

/*
 * T2+ L2 PERF_CONFIG (PerfReg 1, bits 1:0): which L2 misses the CPU PMU's
 * L2-miss events count, in the order of vf_perf_api 3.0. Only 0 ("all", the
 * default) is confirmed by another source; 1-3 follow the seed's wording.
 */
#define HVPMU_SUN4V_L2_ALL		0
#define HVPMU_SUN4V_L2_LOCAL		1
#define HVPMU_SUN4V_L2_REMOTE		2
#define HVPMU_SUN4V_L2_C2C		3

/*
 * The CPU PMU's event encoding (SL << 8 | mask, the 12 bits the PCR takes
 * at bit 6 or 19). Like illumos, the L2 PERF_CONFIG setting is applied to
 * the events of select group SL 3 (IC_miss, DC_miss, L2_imiss,
 * L2_dmiss_ld).
 */
#define HVPMU_SUN4V_PCR_SL(enc)		(((enc) >> 8) & 0xf)
#define HVPMU_SUN4V_PCR_SL_MISSES	3

/* PCR.HT (bit 3): count hyperprivileged events; set only by the hypervisor. */
#define HVPMU_SUN4V_PCR_HT		0x8ULL

/**
 * struct hvpmu_sun4v_ops - access to the sun4v performance registers
 * @get_perfreg: read PerfReg# @reg into *@val (NIAGARA2_GET_PERFREG or
 *	VFALLS_GET_PERFREG). *@val is written only on success. Returns the
 *	hypervisor status, HVPMU_SUN4V_EOK on success.
 * @set_perfreg: write @val to PerfReg# @reg (NIAGARA2_SET_PERFREG or
 *	VFALLS_SET_PERFREG). Returns the hypervisor status.
 * @cpu_socket: optional; the socket id of the CPU @cpu as the platform
 *	numbers sockets (on sparc64 cpu_data(cpu).sock_id, which the machine
 *	description numbers from 1, possibly with gaps), or a negative errno
 *	if it is not known. Only equality matters: the driver numbers the T2+
 *	nodes itself (hvpmu_sun4v_l2_nodes()). Without it, a T2+ has no
 *	l2ctl. Called in process context.
 *
 * @get_perfreg and @set_perfreg act on the calling strand where the seeds
 * say so: PerfReg 0 is the calling strand's PCR, VF PerfReg 1 the L2
 * control register of the calling strand's node (vf_perf_api 3.1). They
 * are called with interrupts disabled and must not sleep; to reach another
 * node's PerfReg 1 the driver makes the call on a CPU of that node.
 * All receive the &struct hvpmu_sun4v_desc ctx as their first argument.
 */
struct hvpmu_sun4v_ops {
	unsigned long (*get_perfreg)(void *ctx, unsigned long reg, u64 *val);
	unsigned long (*set_perfreg)(void *ctx, unsigned long reg, u64 val);
	int (*cpu_socket)(void *ctx, unsigned int cpu);
};

/**
 * struct hvpmu_sun4v_desc - what a DRAM PMU instance is registered with
 * @chip: N2 (registers "niagara2_dram") or VF (registers "vfalls_dram")
 * @ops: the backend
 * @ctx: passed to every @ops call
 * @owner: module providing @ops (the glue, or the simulated platform); it
 *	owns the PMU, so it cannot be unloaded while an event is open
 */
struct hvpmu_sun4v_desc {
	enum hvpmu_sun4v_chip chip;
	const struct hvpmu_sun4v_ops *ops;
	void *ctx;
	struct module *owner;
};

struct dentry;
struct hvpmu_sun4v_dram;

struct hvpmu_sun4v_dram *hvpmu_sun4v_dram_probe(const struct hvpmu_sun4v_desc *desc);
void hvpmu_sun4v_dram_remove(struct hvpmu_sun4v_dram *dram);
struct pmu *hvpmu_sun4v_dram_pmu(struct hvpmu_sun4v_dram *dram);
bool hvpmu_sun4v_pcr_write(struct hvpmu_sun4v_dram *dram, u64 pcr, bool live,
			   u64 cur);
int hvpmu_sun4v_l2ctl_get(struct hvpmu_sun4v_dram *dram, unsigned int node,
			  unsigned int mode);
void hvpmu_sun4v_l2ctl_put(struct hvpmu_sun4v_dram *dram, unsigned int node);
int hvpmu_sun4v_l2ctl_event_get(struct hvpmu_sun4v_dram *dram, int cpu,
				u32 enc, u64 config1);
void hvpmu_sun4v_l2ctl_event_put(struct hvpmu_sun4v_dram *dram, int cpu,
				 u32 enc, u64 config1);
int hvpmu_sun4v_l2_nodes(const int *sock, unsigned int nr, s8 *node);
int hvpmu_sun4v_chip_detect(const char *compat, int len);
int hvpmu_sun4v_errno(unsigned long hv_status);
const char *hvpmu_sun4v_status_name(unsigned long hv_status);

/* The simulated platform (drivers/perf/hvpmu_sun4v_model.c). */
int hvpmu_sun4v_sim_start(struct dentry *dir, struct module *owner);
void hvpmu_sun4v_sim_exit(void);

/**
 * hvpmu_sun4v_sim_init() - niagara2_dram and vfalls_dram on their models
 * @dir: debugfs directory for the files "inject", "error" and "calls"
 *
 * The caller's module owns the PMUs, so it cannot be unloaded while an
 * event is open. See hvpmu_sun4v_sim_start().
 *
 * Return: 0, or a negative errno (nothing is left registered).
 */
static inline int hvpmu_sun4v_sim_init(struct dentry *dir)
{
	return hvpmu_sun4v_sim_start(dir, THIS_MODULE);
}

int hvpmu_sun4v_sim_command(const char *file, const char *line);

#endif /* _LINUX_PERF_HVPMU_SUN4V_H */
