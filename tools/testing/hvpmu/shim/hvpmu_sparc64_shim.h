/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test-only: what the sun4v PMU drivers and their KUnit suites use of
 * sparc64, for building them into the x86_64 test kernel (sparc64-on-x86.sh
 * puts this header in place of their asm/ includes). QEMU's sparc64
 * machines have one CPU, so the suites' cases that need two CPUs or CPU
 * hotplug, and the end-to-end hotplug checks, run there; everything else
 * runs on sparc64 itself. The drivers are told they are not on sun4v
 * (tlb_type), so they register nothing by themselves; the tests reach
 * them through their test hooks only. Numbers as in Linux's
 * arch/sparc/include/asm/hypervisor.h and asm/pcr.h.
 */
#ifndef _HVPMU_SPARC64_SHIM_H
#define _HVPMU_SPARC64_SHIM_H

#include <linux/capability.h>
#include <linux/errno.h>
#include <linux/topology.h>
#include <linux/types.h>

#define HV_EOK			0
#define HV_ENOCPU		1
#define HV_ENORADDR		2
#define HV_ENOINTR		3
#define HV_EBADPGSZ		4
#define HV_EBADTSB		5
#define HV_EINVAL		6
#define HV_EBADTRAP		7
#define HV_EBADALIGN		8
#define HV_EWOULDBLOCK		9
#define HV_ENOACCESS		10
#define HV_EIO			11
#define HV_ECPUERROR		12
#define HV_ENOTSUPPORTED	13
#define HV_ENOMAP		14
#define HV_ETOOMANY		15
#define HV_ECHANNEL		16

#define HV_FAST_MMUSTAT_CONF	0x102
#define HV_FAST_MMUSTAT_INFO	0x103
#define HV_FAST_N2_GET_PERFREG	0x104
#define HV_FAST_N2_SET_PERFREG	0x105
#define HV_FAST_VF_GET_PERFREG	0x106
#define HV_FAST_VF_SET_PERFREG	0x107

#define HV_GRP_NIAG_PERF	0x0200
#define HV_GRP_N2_CPU		0x0202
#define HV_GRP_VF_CPU		0x0205

#define PCR_N2_HTRACE		0x00000008

#define HV_VF_PERF_SPARC_CTL	0x0
#define HV_VF_PERF_L2_CTL	0x1

/* 64 words, as sparc's (only its size is used) */
struct hv_mmu_statistics {
	unsigned long words[64];
};

/* Not sun4v: the drivers' module init returns -ENODEV. */
enum ultra_tlb_layout { spitfire, cheetah, cheetah_plus, hypervisor };
#define tlb_type spitfire
#define SUN4V_CHIP_NIAGARA2	0x02
#define sun4v_chip_type		0

static inline bool sun4v_chip_is_vfalls(void)
{
	return false;
}

/* The hypercalls: never reached (no PMU but the tests' is registered). */
static inline unsigned long sun4v_niagara2_getperf(unsigned long reg,
						   unsigned long *val)
{
	return HV_EBADTRAP;
}

static inline unsigned long sun4v_niagara2_setperf(unsigned long reg,
						   unsigned long val)
{
	return HV_EBADTRAP;
}

static inline unsigned long sun4v_vfalls_getperf(unsigned long reg,
						 unsigned long *val)
{
	return HV_EBADTRAP;
}

static inline unsigned long sun4v_vfalls_setperf(unsigned long reg,
						 unsigned long val)
{
	return HV_EBADTRAP;
}

static inline unsigned long sun4v_mmustat_conf(unsigned long ra,
					       unsigned long *orig_ra)
{
	return HV_EBADTRAP;
}

static inline unsigned long sun4v_mmustat_info(unsigned long *ra)
{
	return HV_EBADTRAP;
}

static inline int sun4v_hvapi_register(unsigned long group,
				       unsigned long major,
				       unsigned long *minor)
{
	return -EINVAL;
}

static inline void sun4v_hvapi_unregister(unsigned long group)
{
}

static inline unsigned long sparc64_get_clock_tick(unsigned int cpu)
{
	return 0;
}

/* cpu_data(cpu).sock_id, which sparc64-on-x86.sh replaces by this */
static inline int hvpmu_shim_sock_id(unsigned int cpu)
{
	return topology_physical_package_id(cpu) + 1;
}

/*
 * perf_allow_cpu(), which sparc64-on-x86.sh replaces by this: the shim
 * builds perf_event_l2ctl.c as a module, which cannot reach
 * sysctl_perf_event_paranoid or the LSM hook. The default paranoia (2)
 * is assumed: only CAP_PERFMON (or CAP_SYS_ADMIN) opens CPU-wide events.
 */
static inline int hvpmu_shim_perf_allow_cpu(void)
{
	return perfmon_capable() ? 0 : -EACCES;
}

#endif /* _HVPMU_SPARC64_SHIM_H */
