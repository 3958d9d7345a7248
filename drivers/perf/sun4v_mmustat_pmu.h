/* SPDX-License-Identifier: GPL-2.0 */
/*
 * niagara_mmustat: perf PMU for the UltraSPARC T1 (Niagara) hypervisor's
 * per-virtual-CPU MMU/TSB statistics buffer (hypercalls
 * NIAGARA_MMUSTAT_CONF 0x102 and NIAGARA_MMUSTAT_INFO 0x103, API group
 * 0x200), as the sun4v MMU statistics API (mmustat.txt, FWARC 2005/467)
 * specifies them.
 *
 * Private to the driver (drivers/perf/sun4v_mmustat_pmu.c), its KUnit
 * suite and the suite's model (drivers/perf/tests/sun4v_mmustat_model.c), a
 * software hypervisor the suite puts in the driver's place through
 * &struct sun4v_mmustat_hv_ops. Function, group and status numbers
 * are asm/hypervisor.h's.
 */
#ifndef _SUN4V_MMUSTAT_PMU_H
#define _SUN4V_MMUSTAT_PMU_H

#include <linux/bits.h>
#include <linux/export.h>
#include <linux/types.h>

struct module;
struct pmu;

/* The statistics buffer: 512 bytes, 64 u64 words (mmustat.txt 2.3). */
#define SUN4V_MMUSTAT_PMU_BUF_SIZE		512
#define SUN4V_MMUSTAT_PMU_BUF_WORDS		(SUN4V_MMUSTAT_PMU_BUF_SIZE / 8)
/* mmustat.txt's alignment rule for the buffer's real address (2.1). */
#define SUN4V_MMUSTAT_PMU_BUF_ALIGN		64

/*
 * Word index of a statistic in the buffer. The buffer is four 128-byte
 * blocks (IMMU ctx0, IMMU ctxnon0, DMMU ctx0, DMMU ctxnon0); each block has
 * eight 16-byte slots indexed by the TTE size code (0 8K, 1 64K, 3 4M,
 * 5 256M; 2, 4, 6 and 7 are reserved), and each slot holds hits then ticks.
 */
#define SUN4V_MMUSTAT_PMU_TICKS		BIT(0)
#define SUN4V_MMUSTAT_PMU_PGSZ_SHIFT	1
#define SUN4V_MMUSTAT_PMU_CTXNON0		BIT(4)
#define SUN4V_MMUSTAT_PMU_DMMU		BIT(5)

/* TTE size codes with a slot in the buffer. */
#define SUN4V_MMUSTAT_PMU_PGSZ_8K		0
#define SUN4V_MMUSTAT_PMU_PGSZ_64K		1
#define SUN4V_MMUSTAT_PMU_PGSZ_4M		3
#define SUN4V_MMUSTAT_PMU_PGSZ_256M		5

/**
 * sun4v_mmustat_pmu_word() - word index of one statistic in the buffer
 * @dmmu: true for the DMMU, false for the IMMU
 * @ctxnon0: true for non-zero contexts, false for context 0
 * @pgsz: TTE size code (SUN4V_MMUSTAT_PMU_PGSZ_*)
 * @ticks: true for the ticks word, false for the hits word
 *
 * Return: the index, 0 to 63; byte offset is 8 times that.
 */
static inline unsigned int sun4v_mmustat_pmu_word(bool dmmu, bool ctxnon0,
						  unsigned int pgsz, bool ticks)
{
	return (dmmu ? SUN4V_MMUSTAT_PMU_DMMU : 0) |
	       (ctxnon0 ? SUN4V_MMUSTAT_PMU_CTXNON0 : 0) |
	       (pgsz << SUN4V_MMUSTAT_PMU_PGSZ_SHIFT) |
	       (ticks ? SUN4V_MMUSTAT_PMU_TICKS : 0);
}

/**
 * sun4v_mmustat_pmu_pgsz_valid() - whether a TTE size code has a buffer slot
 * @pgsz: TTE size code, 0 to 7
 *
 * Return: true for 8K, 64K, 4M and 256M; the other slots are reserved.
 */
static inline bool sun4v_mmustat_pmu_pgsz_valid(unsigned int pgsz)
{
	return pgsz == SUN4V_MMUSTAT_PMU_PGSZ_8K || pgsz == SUN4V_MMUSTAT_PMU_PGSZ_64K ||
	       pgsz == SUN4V_MMUSTAT_PMU_PGSZ_4M || pgsz == SUN4V_MMUSTAT_PMU_PGSZ_256M;
}

/**
 * struct sun4v_mmustat_hv_ops - the hypervisor's calls and the buffer memory
 *
 * On sun4v the driver's own instance makes the hypercalls and owns the
 * buffer memory; the KUnit suite gives a model. The statistics slot the
 * hypervisor keeps is per virtual CPU and the hypercalls act on the
 * calling virtual CPU, so @conf and @info are only ever called on @cpu
 * itself, with interrupts disabled; a model may rely on that.
 *
 * @info: NIAGARA_MMUSTAT_INFO on @cpu: store the real address of the
 *	buffer currently configured (0 if none) in @raddr. Return the
 *	hypervisor status (HV_EOK, HV_EBADTRAP, ...).
 * @conf: NIAGARA_MMUSTAT_CONF on @cpu: configure @raddr (0 disables) and
 *	store the previously configured real address in @prev. Return the
 *	hypervisor status. After an error nothing is collected on @cpu; after
 *	a successful call with 0 the hypervisor no longer accesses the old
 *	buffer.
 * @buf_alloc: allocate a zeroed, suitably aligned buffer of
 *	SUN4V_MMUSTAT_PMU_BUF_SIZE bytes for @cpu; may sleep. Store its real
 *	address in @raddr. Return the kernel pointer or NULL.
 * @buf_free: free a buffer from @buf_alloc. Only called when the
 *	hypervisor can no longer write it.
 * @buf_leak: optional; the driver gives up a buffer from @buf_alloc that
 *	the hypervisor may still write: it must never be freed (e.g. tell
 *	kmemleak so).
 * @map: kernel pointer to SUN4V_MMUSTAT_PMU_BUF_SIZE readable bytes at real
 *	address @raddr, a buffer somebody else configured, or NULL if it is
 *	not ordinary memory. Called with interrupts disabled; must not sleep.
 *	The mapping is never released, so it must be a permanent one.
 * @tick_hz: frequency of the %tick register of @cpu in Hz (the unit of the
 *	"ticks" statistics), or 0 if unknown.
 * @ctx: passed to each of them
 */
struct sun4v_mmustat_hv_ops {
	unsigned long (*info)(void *ctx, unsigned int cpu, u64 *raddr);
	unsigned long (*conf)(void *ctx, unsigned int cpu, u64 raddr,
			      u64 *prev);
	void *(*buf_alloc)(void *ctx, unsigned int cpu, u64 *raddr);
	void (*buf_free)(void *ctx, unsigned int cpu, void *buf, u64 raddr);
	void (*buf_leak)(void *ctx, unsigned int cpu, void *buf, u64 raddr);
	const void *(*map)(void *ctx, u64 raddr);
	u64 (*tick_hz)(void *ctx, unsigned int cpu);
	void *ctx;
};

struct sun4v_mmustat_pmu;

#if IS_ENABLED(CONFIG_KUNIT)
struct sun4v_mmustat_pmu *
sun4v_mmustat_pmu_probe(const struct sun4v_mmustat_hv_ops *hv,
			const char *name, struct module *owner);
void sun4v_mmustat_pmu_remove(struct sun4v_mmustat_pmu *mmu);
struct pmu *sun4v_mmustat_pmu_to_pmu(struct sun4v_mmustat_pmu *mmu);
extern const u64 mmustat_format_mask[];
#endif

#endif /* _SUN4V_MMUSTAT_PMU_H */
