// SPDX-License-Identifier: GPL-2.0
/*
 * Model of the UltraSPARC T1 hypervisor's MMU statistics API
 * (NIAGARA_MMUSTAT_CONF 0x102, NIAGARA_MMUSTAT_INFO 0x103), following the
 * sun4v MMU statistics API (mmustat.txt, FWARC 2005/467), whose sections
 * are cited below. It backs the niagara_mmustat driver in the tests.
 *
 * Guest "real memory" is a list of 512-byte regions, each with an invented
 * real address: the buffers the driver allocates and "foreign" buffers that
 * stand for another user of the slot (Linux's cpuN/mmustat_enable). Traffic
 * is added to whatever buffer the hypervisor slot of a vCPU names, as the
 * hypervisor's TLB-miss handler does.
 */

#define pr_fmt(fmt) "sun4v_mmustat_model: " fmt

#include <kunit/visibility.h>
#include <linux/cpu.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include "sun4v_mmustat_model.h"
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/workqueue.h>

/* Invented real addresses: far from 0, distinct, page-spaced. */
#define MODEL_RADDR_BASE	0x40000000ULL
#define MODEL_RADDR_STEP	0x1000ULL
#define MODEL_NR_FOREIGN	4

struct model_region {
	struct list_head node;
	u64 raddr;
	u64 *mem;
	bool foreign;
};

struct model_inject {
	bool armed;
	unsigned int after;
	unsigned long status;
};

/**
 * struct sun4v_mmustat_model - one simulated hypervisor
 * @ops: the backend ops handed to the driver
 * @lock: protects everything below
 * @niagara1: the API exists (UltraSPARC T1); otherwise every call EBADTRAP
 * @tick_hz: reported %tick frequency
 * @slot: per vCPU, the configured real address (0: none)
 * @regions: guest memory regions
 * @next_raddr: next invented real address
 * @misalign: added to the real address of every driver buffer
 * @calls: calls made through @ops, per entry point
 * @inject: one-shot error injection, per entry point
 * @wrong_cpu: hypercalls made for a vCPU other than the calling one, or with
 *	interrupts enabled
 * @bad_frees: frees of a buffer a vCPU slot still names
 * @leaked: driver buffers given up (kept, never freed)
 * @live: driver buffers allocated and not freed (leaked ones included)
 * @race_cpu: the vCPU of a pending race, see sun4v_mmustat_model_race()
 * @race_raddr: the buffer another user configures before the next conf
 * @dropped: traffic on vCPUs with no buffer
 * @foreign: real addresses of the foreign buffers (0: not created yet)
 */
struct sun4v_mmustat_model {
	struct sun4v_mmustat_hv_ops ops;
	raw_spinlock_t lock;
	bool niagara1;
	u64 tick_hz;
	u64 *slot;
	struct list_head regions;
	u64 next_raddr;
	u64 misalign;
	unsigned long calls[SUN4V_MMUSTAT_PMU_NR_CALLS];
	struct model_inject inject[SUN4V_MMUSTAT_PMU_NR_CALLS];
	unsigned long wrong_cpu;
	unsigned long bad_frees;
	unsigned long leaked;
	long live;
	int race_cpu;
	u64 race_raddr;
	u64 dropped;
	u64 foreign[MODEL_NR_FOREIGN];
};

/* Count a call and return the injected status, if one is due. */
static unsigned long model_enter(struct sun4v_mmustat_model *m,
				 enum sun4v_mmustat_model_call call)
{
	struct model_inject *inj = &m->inject[call];

	m->calls[call]++;
	if (!inj->armed)
		return 0;
	if (inj->after) {
		inj->after--;
		return 0;
	}
	inj->armed = false;
	return inj->status;
}

/*
 * Each region holds exactly one buffer, so a real address is valid memory
 * for the 512-byte buffer only if it is a region's start (else ENORADDR).
 */
static struct model_region *model_find(struct sun4v_mmustat_model *m,
				       u64 raddr)
{
	struct model_region *r;

	list_for_each_entry(r, &m->regions, node)
		if (r->raddr == raddr)
			return r;
	return NULL;
}

static void model_check_cpu(struct sun4v_mmustat_model *m, unsigned int cpu)
{
	/* The calls act on the calling ("current") vCPU, mmustat.txt 2.1. */
	if (cpu != raw_smp_processor_id() || !irqs_disabled())
		m->wrong_cpu++;
}

/* NIAGARA_MMUSTAT_CONF as the hypervisor executes it on vCPU @cpu. */
static unsigned long model_conf_locked(struct sun4v_mmustat_model *m,
				       unsigned int cpu, u64 raddr, u64 *prev,
				       unsigned long injected)
{
	unsigned long status = injected;

	if (!m->niagara1)
		return HV_EBADTRAP;	/* mmustat.txt 2.1: non-T1 */
	/*
	 * mmustat.txt 2.1: 64-byte alignment. (The released T1 hypervisor's
	 * hcall_mmu.s checks only 8 bytes; we model the document.) The order
	 * of the two checks is not specified; alignment is checked first.
	 */
	if (!status && (raddr & (SUN4V_MMUSTAT_PMU_BUF_ALIGN - 1)))
		status = HV_EBADALIGN;
	if (!status && raddr && !model_find(m, raddr))
		status = HV_ENORADDR;
	if (status) {
		/*
		 * mmustat.txt 2.1: "If an error is returned no statistics are
		 * collected (equivalent to passing an raddr of zero)": an
		 * error also drops the previously configured buffer.
		 */
		m->slot[cpu] = 0;
		*prev = 0;
		return status;
	}
	/* ret1 is the previous buffer, 0 the first time. */
	*prev = m->slot[cpu];
	m->slot[cpu] = raddr;
	return HV_EOK;
}

static unsigned long model_info(void *ctx, unsigned int cpu, u64 *raddr)
{
	struct sun4v_mmustat_model *m = ctx;
	unsigned long flags, status;

	raw_spin_lock_irqsave(&m->lock, flags);
	model_check_cpu(m, cpu);
	status = model_enter(m, SUN4V_MMUSTAT_PMU_CALL_INFO);
	if (!m->niagara1)
		status = HV_EBADTRAP;
	/* mmustat.txt 2.2: the current buffer or 0; idempotent. */
	*raddr = status ? 0 : m->slot[cpu];
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return status;
}

static unsigned long model_conf(void *ctx, unsigned int cpu, u64 raddr,
				u64 *prev)
{
	struct sun4v_mmustat_model *m = ctx;
	unsigned long flags, status;

	raw_spin_lock_irqsave(&m->lock, flags);
	model_check_cpu(m, cpu);
	if (m->race_cpu == cpu) {
		/* Another user's conf landed just before ours. */
		m->slot[cpu] = m->race_raddr;
		m->race_cpu = -1;
	}
	status = model_enter(m, SUN4V_MMUSTAT_PMU_CALL_CONF);
	status = model_conf_locked(m, cpu, raddr, prev, status);
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return status;
}

static struct model_region *model_new_region(struct sun4v_mmustat_model *m,
					     bool foreign)
{
	struct model_region *r;
	unsigned long flags;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return NULL;
	r->mem = kzalloc(SUN4V_MMUSTAT_PMU_BUF_SIZE, GFP_KERNEL);
	if (!r->mem) {
		kfree(r);
		return NULL;
	}
	r->foreign = foreign;
	raw_spin_lock_irqsave(&m->lock, flags);
	r->raddr = m->next_raddr;
	m->next_raddr += MODEL_RADDR_STEP;
	list_add_tail(&r->node, &m->regions);
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return r;
}

static void *model_buf_alloc(void *ctx, unsigned int cpu, u64 *raddr)
{
	struct sun4v_mmustat_model *m = ctx;
	struct model_region *r;
	unsigned long flags, status;
	u64 misalign;

	raw_spin_lock_irqsave(&m->lock, flags);
	status = model_enter(m, SUN4V_MMUSTAT_PMU_CALL_ALLOC);
	misalign = m->misalign;
	raw_spin_unlock_irqrestore(&m->lock, flags);
	if (status)
		return NULL;
	r = model_new_region(m, false);
	if (!r)
		return NULL;
	raw_spin_lock_irqsave(&m->lock, flags);
	m->live++;
	/* A misaligned buffer: the region starts earlier than the buffer. */
	r->raddr += misalign;
	raw_spin_unlock_irqrestore(&m->lock, flags);
	*raddr = r->raddr;
	return r->mem;
}

static void model_buf_free(void *ctx, unsigned int cpu, void *buf, u64 raddr)
{
	struct sun4v_mmustat_model *m = ctx;
	struct model_region *r, *found = NULL;
	unsigned long flags;
	unsigned int i;

	raw_spin_lock_irqsave(&m->lock, flags);
	model_enter(m, SUN4V_MMUSTAT_PMU_CALL_FREE);
	list_for_each_entry(r, &m->regions, node)
		if (r->mem == buf && r->raddr == raddr && !r->foreign)
			found = r;
	for (i = 0; found && i < nr_cpu_ids; i++) {
		if (m->slot[i] == raddr) {
			/* The hypervisor would write freed memory: keep it. */
			m->bad_frees++;
			found = NULL;
		}
	}
	if (found) {
		list_del(&found->node);
		m->live--;
	}
	raw_spin_unlock_irqrestore(&m->lock, flags);
	if (found) {
		kfree(found->mem);
		kfree(found);
	}
}

static void model_buf_leak(void *ctx, unsigned int cpu, void *buf, u64 raddr)
{
	struct sun4v_mmustat_model *m = ctx;
	unsigned long flags;

	/* The region stays: guest memory the hypervisor may still write. */
	raw_spin_lock_irqsave(&m->lock, flags);
	model_enter(m, SUN4V_MMUSTAT_PMU_CALL_LEAK);
	m->leaked++;
	raw_spin_unlock_irqrestore(&m->lock, flags);
}

static const void *model_map(void *ctx, u64 raddr)
{
	struct sun4v_mmustat_model *m = ctx;
	struct model_region *r;
	unsigned long flags;
	const void *p = NULL;

	raw_spin_lock_irqsave(&m->lock, flags);
	if (!model_enter(m, SUN4V_MMUSTAT_PMU_CALL_MAP)) {
		r = model_find(m, raddr);
		if (r)
			p = r->mem;
	}
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return p;
}

static u64 model_tick_hz(void *ctx, unsigned int cpu)
{
	struct sun4v_mmustat_model *m = ctx;

	return m->tick_hz;
}

/**
 * sun4v_mmustat_model_create() - a simulated hypervisor, every slot empty
 * @niagara1: true for an UltraSPARC T1 (the API exists), false for any other
 *	chip (every call returns EBADTRAP)
 * @tick_hz: the %tick frequency to report (0: unknown)
 *
 * Return: the model, or NULL if out of memory.
 */
struct sun4v_mmustat_model *
sun4v_mmustat_model_create(bool niagara1, u64 tick_hz)
{
	struct sun4v_mmustat_model *m;

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return NULL;
	m->slot = kcalloc(nr_cpu_ids, sizeof(*m->slot), GFP_KERNEL);
	if (!m->slot) {
		kfree(m);
		return NULL;
	}
	raw_spin_lock_init(&m->lock);
	INIT_LIST_HEAD(&m->regions);
	m->niagara1 = niagara1;
	m->tick_hz = tick_hz;
	m->next_raddr = MODEL_RADDR_BASE;
	m->race_cpu = -1;
	m->ops = (struct sun4v_mmustat_hv_ops) {
		.info = model_info,
		.conf = model_conf,
		.buf_alloc = model_buf_alloc,
		.buf_free = model_buf_free,
		.buf_leak = model_buf_leak,
		.map = model_map,
		.tick_hz = model_tick_hz,
		.ctx = m,
	};
	return m;
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_mmustat_model_create);

/**
 * sun4v_mmustat_model_destroy() - free the model and all its memory
 * @m: the model; the driver must have been removed
 */
void sun4v_mmustat_model_destroy(struct sun4v_mmustat_model *m)
{
	struct model_region *r, *tmp;

	list_for_each_entry_safe(r, tmp, &m->regions, node) {
		kfree(r->mem);
		kfree(r);
	}
	kfree(m->slot);
	kfree(m);
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_mmustat_model_destroy);

/**
 * sun4v_mmustat_model_ops() - the hook to hand to the driver
 * @m: the model
 *
 * Return: the model's calls, whose ctx is @m; valid until
 * sun4v_mmustat_model_destroy().
 */
const struct sun4v_mmustat_hv_ops *
sun4v_mmustat_model_ops(struct sun4v_mmustat_model *m)
{
	return &m->ops;
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_mmustat_model_ops);

/**
 * sun4v_mmustat_model_traffic() - TSB hits found by the hypervisor
 * @m: the model
 * @cpu: the vCPU that took them
 * @word: word index of the statistic (sun4v_mmustat_pmu_word()); a reserved
 *	slot is refused with a warning
 * @n: amount to add (hits, or %tick cycles for a ticks word)
 *
 * Added to the buffer configured on @cpu; lost if there is none, as on the
 * hardware.
 */
void sun4v_mmustat_model_traffic(struct sun4v_mmustat_model *m,
				 unsigned int cpu, unsigned int word, u64 n)
{
	struct model_region *r;
	unsigned long flags;

	if (WARN_ON(word >= SUN4V_MMUSTAT_PMU_BUF_WORDS ||
		    !sun4v_mmustat_pmu_pgsz_valid((word >> SUN4V_MMUSTAT_PMU_PGSZ_SHIFT) & 7)))
		return;
	raw_spin_lock_irqsave(&m->lock, flags);
	r = m->slot[cpu] ? model_find(m, m->slot[cpu]) : NULL;
	if (r)
		WRITE_ONCE(r->mem[word], r->mem[word] + n);
	else
		m->dropped += n;
	raw_spin_unlock_irqrestore(&m->lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_mmustat_model_traffic);

/**
 * sun4v_mmustat_model_inject() - make one future call fail
 * @m: the model
 * @call: the entry point
 * @after: number of calls of that kind to let through first
 * @status: hypervisor status to return (for ALLOC, MAP and FREE any nonzero
 *	value means failure; FREE failures are only counted)
 */
void sun4v_mmustat_model_inject(struct sun4v_mmustat_model *m,
				enum sun4v_mmustat_model_call call,
				unsigned int after, unsigned long status)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&m->lock, flags);
	m->inject[call] = (struct model_inject) {
		.armed = status != 0, .after = after, .status = status,
	};
	raw_spin_unlock_irqrestore(&m->lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_mmustat_model_inject);

/**
 * sun4v_mmustat_model_misalign() - hand out misaligned buffers from now on
 * @m: the model
 * @offset: added to the real address of every buffer allocated later
 *	(0 restores aligned buffers)
 */
void sun4v_mmustat_model_misalign(struct sun4v_mmustat_model *m, u64 offset)
{
	WRITE_ONCE(m->misalign, offset);
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_mmustat_model_misalign);

/**
 * sun4v_mmustat_model_calls() - number of calls made through the ops
 * @m: the model
 * @call: the entry point
 *
 * Return: the count since the model was created.
 */
unsigned long sun4v_mmustat_model_calls(struct sun4v_mmustat_model *m,
					enum sun4v_mmustat_model_call call)
{
	return READ_ONCE(m->calls[call]);
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_mmustat_model_calls);

/**
 * sun4v_mmustat_model_wrong_cpu() - hypercalls not made on the target vCPU
 * @m: the model
 *
 * Return: the number of info/conf calls whose @cpu was not the calling CPU
 * or that ran with interrupts enabled; a correct driver makes none.
 */
unsigned long sun4v_mmustat_model_wrong_cpu(struct sun4v_mmustat_model *m)
{
	return READ_ONCE(m->wrong_cpu);
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_mmustat_model_wrong_cpu);

/**
 * sun4v_mmustat_model_bad_frees() - frees of buffers still configured
 * @m: the model
 *
 * Return: how often the driver freed a buffer that a vCPU slot still named
 * (memory the hypervisor could still write); such buffers are kept.
 */
unsigned long sun4v_mmustat_model_bad_frees(struct sun4v_mmustat_model *m)
{
	return READ_ONCE(m->bad_frees);
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_mmustat_model_bad_frees);

/**
 * sun4v_mmustat_model_leaked() - driver buffers given up
 * @m: the model
 *
 * Return: how many buffers the driver declared it will never free because
 * the hypervisor may still write them.
 */
unsigned long sun4v_mmustat_model_leaked(struct sun4v_mmustat_model *m)
{
	return READ_ONCE(m->leaked);
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_mmustat_model_leaked);

/**
 * sun4v_mmustat_model_live_buffers() - driver buffers not freed
 * @m: the model
 *
 * Return: allocations minus frees.
 */
long sun4v_mmustat_model_live_buffers(struct sun4v_mmustat_model *m)
{
	return READ_ONCE(m->live);
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_mmustat_model_live_buffers);

/**
 * sun4v_mmustat_model_slot() - the real address configured on a vCPU
 * @m: the model
 * @cpu: the vCPU
 *
 * Return: the address, or 0 if collection is disabled there.
 */
u64 sun4v_mmustat_model_slot(struct sun4v_mmustat_model *m, unsigned int cpu)
{
	return READ_ONCE(m->slot[cpu]);
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_mmustat_model_slot);

struct model_guest_conf {
	struct sun4v_mmustat_model *m;
	unsigned int cpu;
	u64 raddr;
	u64 prev;
};

static long model_guest_conf_here(void *data)
{
	struct model_guest_conf *g = data;
	unsigned long flags, status;

	raw_spin_lock_irqsave(&g->m->lock, flags);
	status = model_conf_locked(g->m, g->cpu, g->raddr, &g->prev, 0);
	raw_spin_unlock_irqrestore(&g->m->lock, flags);
	return status;
}

/**
 * sun4v_mmustat_model_guest_conf() - another user of the slot calls conf
 * @m: the model
 * @cpu: the vCPU it runs on
 * @raddr: the buffer it configures (0 disables)
 * @prev: the previous buffer, as the hypervisor returns it
 *
 * Stands for Linux's cpuN/mmustat_enable, which calls conf on the CPU
 * through work_on_cpu(): so does this, from a kworker bound to @cpu. Not
 * counted in sun4v_mmustat_model_calls(). May sleep.
 *
 * Return: the hypervisor status, or EBADTRAP if @cpu is offline.
 */
unsigned long sun4v_mmustat_model_guest_conf(struct sun4v_mmustat_model *m,
					     unsigned int cpu, u64 raddr,
					     u64 *prev)
{
	struct model_guest_conf g = { .m = m, .cpu = cpu, .raddr = raddr };
	long status;

	cpus_read_lock();
	status = cpu_online(cpu) ? work_on_cpu(cpu, model_guest_conf_here, &g) :
				   HV_EBADTRAP;
	cpus_read_unlock();
	*prev = g.prev;
	return status;
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_mmustat_model_guest_conf);

/**
 * sun4v_mmustat_model_race() - another user's conf lands just before the
 *	driver's next one on a vCPU
 * @m: the model
 * @cpu: the vCPU
 * @raddr: the buffer the other user configures (0 disables)
 *
 * Cannot happen with Linux's users, which call conf from task context on
 * the vCPU while the driver calls it with interrupts off there; it tests
 * that the driver checks the previous address conf returns (mmustat.txt
 * 2.1) rather than trusting its last info.
 */
void sun4v_mmustat_model_race(struct sun4v_mmustat_model *m, unsigned int cpu,
			      u64 raddr)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&m->lock, flags);
	m->race_cpu = cpu;
	m->race_raddr = raddr;
	raw_spin_unlock_irqrestore(&m->lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_mmustat_model_race);

/**
 * sun4v_mmustat_model_foreign_buf() - a buffer belonging to another user
 * @m: the model
 * @idx: which one, 0 to 3; created zeroed on first use
 *
 * Return: its real address, or 0 if out of memory or @idx is too large.
 */
u64 sun4v_mmustat_model_foreign_buf(struct sun4v_mmustat_model *m,
				    unsigned int idx)
{
	struct model_region *r;

	if (idx >= MODEL_NR_FOREIGN)
		return 0;
	if (!m->foreign[idx]) {
		r = model_new_region(m, true);
		if (r)
			m->foreign[idx] = r->raddr;
	}
	return m->foreign[idx];
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_mmustat_model_foreign_buf);

/**
 * sun4v_mmustat_model_read() - one word of a buffer in guest memory
 * @m: the model
 * @raddr: the buffer's real address
 * @word: word index, 0 to 63 (reserved words included)
 *
 * Return: the word, or U64_MAX if there is no buffer at @raddr.
 */
u64 sun4v_mmustat_model_read(struct sun4v_mmustat_model *m, u64 raddr,
			     unsigned int word)
{
	struct model_region *r;
	unsigned long flags;
	u64 v = U64_MAX;

	raw_spin_lock_irqsave(&m->lock, flags);
	r = model_find(m, raddr);
	if (r && word < SUN4V_MMUSTAT_PMU_BUF_WORDS)
		v = r->mem[word];
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return v;
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_mmustat_model_read);

MODULE_DESCRIPTION("Model of the sun4v MMU statistics hypercalls, for KUnit tests");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
