/* SPDX-License-Identifier: GPL-2.0 */
/*
 * niagara_mmustat: perf PMU for the UltraSPARC T1 (Niagara) hypervisor's
 * per-virtual-CPU MMU/TSB statistics buffer (hypercalls
 * NIAGARA_MMUSTAT_CONF 0x102 and NIAGARA_MMUSTAT_INFO 0x103, API group
 * 0x200).
 *
 * The driver (drivers/perf/hvpmu_mmustat.c) is arch-neutral and reaches the
 * hypervisor only through &struct hvpmu_mmustat_ops. The sun4v glue supplies
 * the real hypercalls; the model (drivers/perf/hvpmu_mmustat_model.c)
 * supplies a faithful software hypervisor for the tests.
 */
#ifndef _LINUX_PERF_HVPMU_MMUSTAT_H
#define _LINUX_PERF_HVPMU_MMUSTAT_H

#include <linux/bits.h>
#include <linux/export.h>
#include <linux/types.h>

struct dentry;
struct module;
struct pmu;

/* Fast-trap functions and their API group (mmustat.txt 2.1, 2.2). */
#define HVPMU_MMUSTAT_FAST_CONF		0x102
#define HVPMU_MMUSTAT_FAST_INFO		0x103
#define HVPMU_MMUSTAT_API_GROUP		0x200

/* Hypervisor status codes used by this API (sun4v core API). */
#define HVPMU_MMUSTAT_EOK		0
#define HVPMU_MMUSTAT_ENORADDR		2
#define HVPMU_MMUSTAT_EBADTRAP		7
#define HVPMU_MMUSTAT_EBADALIGN		8

/* The statistics buffer: 512 bytes, 64 u64 words (seed section 2.3). */
#define HVPMU_MMUSTAT_BUF_SIZE		512
#define HVPMU_MMUSTAT_BUF_WORDS		(HVPMU_MMUSTAT_BUF_SIZE / 8)
/* The seed's alignment rule for the buffer's real address. */
#define HVPMU_MMUSTAT_BUF_ALIGN		64

/*
 * Word index of a statistic in the buffer. The buffer is four 128-byte
 * blocks (IMMU ctx0, IMMU ctxnon0, DMMU ctx0, DMMU ctxnon0); each block has
 * eight 16-byte slots indexed by the TTE size code (0 8K, 1 64K, 3 4M,
 * 5 256M; 2, 4, 6 and 7 are reserved), and each slot holds hits then ticks.
 */
#define HVPMU_MMUSTAT_TICKS		BIT(0)
#define HVPMU_MMUSTAT_PGSZ_SHIFT	1
#define HVPMU_MMUSTAT_CTXNON0		BIT(4)
#define HVPMU_MMUSTAT_DMMU		BIT(5)

/* TTE size codes with a slot in the buffer. */
#define HVPMU_MMUSTAT_PGSZ_8K		0
#define HVPMU_MMUSTAT_PGSZ_64K		1
#define HVPMU_MMUSTAT_PGSZ_4M		3
#define HVPMU_MMUSTAT_PGSZ_256M		5

/**
 * hvpmu_mmustat_word() - word index of one statistic in the buffer
 * @dmmu: true for the DMMU, false for the IMMU
 * @ctxnon0: true for non-zero contexts, false for context 0
 * @pgsz: TTE size code (HVPMU_MMUSTAT_PGSZ_*)
 * @ticks: true for the ticks word, false for the hits word
 *
 * Return: the index, 0 to 63; byte offset is 8 times that.
 */
static inline unsigned int hvpmu_mmustat_word(bool dmmu, bool ctxnon0,
					      unsigned int pgsz, bool ticks)
{
	return (dmmu ? HVPMU_MMUSTAT_DMMU : 0) |
	       (ctxnon0 ? HVPMU_MMUSTAT_CTXNON0 : 0) |
	       (pgsz << HVPMU_MMUSTAT_PGSZ_SHIFT) |
	       (ticks ? HVPMU_MMUSTAT_TICKS : 0);
}

/**
 * hvpmu_mmustat_pgsz_valid() - whether a TTE size code has a buffer slot
 * @pgsz: TTE size code, 0 to 7
 *
 * Return: true for 8K, 64K, 4M and 256M; the other slots are reserved.
 */
static inline bool hvpmu_mmustat_pgsz_valid(unsigned int pgsz)
{
	return pgsz == HVPMU_MMUSTAT_PGSZ_8K || pgsz == HVPMU_MMUSTAT_PGSZ_64K ||
	       pgsz == HVPMU_MMUSTAT_PGSZ_4M || pgsz == HVPMU_MMUSTAT_PGSZ_256M;
}

/**
 * struct hvpmu_mmustat_ops - backend: the hypervisor and buffer memory
 *
 * The statistics slot the hypervisor keeps is per virtual CPU and the
 * hypercalls act on the calling virtual CPU, so @conf and @info are only
 * ever called on @cpu itself, with interrupts disabled; a backend may rely
 * on that (the sun4v glue warns if it is not so).
 *
 * @info: NIAGARA_MMUSTAT_INFO on @cpu: store the real address of the
 *	buffer currently configured (0 if none) in @raddr. Return the
 *	hypervisor status (HVPMU_MMUSTAT_EOK, HVPMU_MMUSTAT_EBADTRAP, ...).
 * @conf: NIAGARA_MMUSTAT_CONF on @cpu: configure @raddr (0 disables) and
 *	store the previously configured real address in @prev. Return the
 *	hypervisor status. After an error nothing is collected on @cpu; after
 *	a successful call with 0 the hypervisor no longer accesses the old
 *	buffer.
 * @buf_alloc: allocate a zeroed, suitably aligned buffer of
 *	HVPMU_MMUSTAT_BUF_SIZE bytes for @cpu; may sleep. Store its real
 *	address in @raddr. Return the kernel pointer or NULL.
 * @buf_free: free a buffer from @buf_alloc. Only called when the
 *	hypervisor can no longer write it.
 * @buf_leak: optional; the driver gives up a buffer from @buf_alloc that
 *	the hypervisor may still write: it must never be freed (e.g. tell
 *	kmemleak so).
 * @map: kernel pointer to HVPMU_MMUSTAT_BUF_SIZE readable bytes at real
 *	address @raddr, a buffer somebody else configured, or NULL if it is
 *	not ordinary memory. Called with interrupts disabled; must not sleep.
 *	The mapping is never released, so it must be a permanent one.
 * @tick_hz: frequency of the %tick register of @cpu in Hz (the unit of the
 *	"ticks" statistics), or 0 if unknown.
 * @ctx: backend context, passed to every op
 */
struct hvpmu_mmustat_ops {
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

struct hvpmu_mmustat;

struct hvpmu_mmustat *hvpmu_mmustat_probe(const struct hvpmu_mmustat_ops *ops,
					  struct module *owner);
void hvpmu_mmustat_remove(struct hvpmu_mmustat *mmu);
struct pmu *hvpmu_mmustat_pmu(struct hvpmu_mmustat *mmu);

/* The model (hvpmu_models.ko), for tests and the simulated platform. */
struct hvpmu_mmustat_model;

/**
 * enum hvpmu_mmustat_model_call - model entry points, for counters and
 *	error injection
 * @HVPMU_MMUSTAT_CALL_INFO: the info hypercall
 * @HVPMU_MMUSTAT_CALL_CONF: the conf hypercall
 * @HVPMU_MMUSTAT_CALL_ALLOC: buffer allocation
 * @HVPMU_MMUSTAT_CALL_FREE: buffer free
 * @HVPMU_MMUSTAT_CALL_MAP: mapping of a foreign buffer
 * @HVPMU_MMUSTAT_CALL_LEAK: a buffer given up
 * @HVPMU_MMUSTAT_NR_CALLS: number of entry points
 */
enum hvpmu_mmustat_model_call {
	HVPMU_MMUSTAT_CALL_INFO,
	HVPMU_MMUSTAT_CALL_CONF,
	HVPMU_MMUSTAT_CALL_ALLOC,
	HVPMU_MMUSTAT_CALL_FREE,
	HVPMU_MMUSTAT_CALL_MAP,
	HVPMU_MMUSTAT_CALL_LEAK,
	HVPMU_MMUSTAT_NR_CALLS,
};

struct hvpmu_mmustat_model *
hvpmu_mmustat_model_create(bool niagara1, u64 tick_hz);
void hvpmu_mmustat_model_destroy(struct hvpmu_mmustat_model *m);
const struct hvpmu_mmustat_ops *
hvpmu_mmustat_model_ops(struct hvpmu_mmustat_model *m);
void hvpmu_mmustat_model_traffic(struct hvpmu_mmustat_model *m,
				 unsigned int cpu, unsigned int word, u64 n);
void hvpmu_mmustat_model_inject(struct hvpmu_mmustat_model *m,
				enum hvpmu_mmustat_model_call call,
				unsigned int after, unsigned long status);
void hvpmu_mmustat_model_misalign(struct hvpmu_mmustat_model *m, u64 offset);
unsigned long hvpmu_mmustat_model_calls(struct hvpmu_mmustat_model *m,
					enum hvpmu_mmustat_model_call call);
unsigned long hvpmu_mmustat_model_wrong_cpu(struct hvpmu_mmustat_model *m);
unsigned long hvpmu_mmustat_model_bad_frees(struct hvpmu_mmustat_model *m);
unsigned long hvpmu_mmustat_model_leaked(struct hvpmu_mmustat_model *m);
void hvpmu_mmustat_model_race(struct hvpmu_mmustat_model *m, unsigned int cpu,
			      u64 raddr);
long hvpmu_mmustat_model_live_buffers(struct hvpmu_mmustat_model *m);
u64 hvpmu_mmustat_model_slot(struct hvpmu_mmustat_model *m, unsigned int cpu);
unsigned long hvpmu_mmustat_model_guest_conf(struct hvpmu_mmustat_model *m,
					     unsigned int cpu, u64 raddr,
					     u64 *prev);
u64 hvpmu_mmustat_model_foreign_buf(struct hvpmu_mmustat_model *m,
				    unsigned int idx);
u64 hvpmu_mmustat_model_read(struct hvpmu_mmustat_model *m, u64 raddr,
			     unsigned int word);
int hvpmu_mmustat_sim_start(struct dentry *dir, struct module *owner);
void hvpmu_mmustat_sim_exit(void);

/**
 * hvpmu_mmustat_sim_init() - niagara_mmustat on the model, for the
 *	simulated platform
 * @dir: debugfs directory for the model's files
 *
 * The caller's module owns the PMU, so that it cannot be unloaded (and the
 * PMU unregistered) while an event is open. See hvpmu_mmustat_sim_start().
 *
 * Return: 0, or a negative errno (nothing is left registered).
 */
static inline int hvpmu_mmustat_sim_init(struct dentry *dir)
{
	return hvpmu_mmustat_sim_start(dir, THIS_MODULE);
}

#endif /* _LINUX_PERF_HVPMU_MMUSTAT_H */
