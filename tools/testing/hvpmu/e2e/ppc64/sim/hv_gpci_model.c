// SPDX-License-Identifier: GPL-2.0
/*
 * Model of PAPR H_GetPerformanceCounterInfo (hcall 0xF080), the hypervisor
 * side of the hv_gpci PMU, for the ppc64 e2e guest (test-only, never part of
 * the series: e2e/ppc64/run.sh builds it into the guest kernel).
 *
 * It follows the seed (LoPAR v2.9, "Platform Dependent hcall()s") line by
 * line: the order of the validations (H_Privilege, H_Parameter,
 * H_Not_Available, H_Authority), the parameter block in big-endian, the
 * starting_index semantics ("the first processor/partition at or after";
 * -1 the current one) and the element layouts of 0x10-0x60 and the lab
 * requests. Where Linux's driver (following IBM's non-public
 * getPerfCountInfo documents) differs from the LoPAR text, the model answers
 * with the layout of the counter_info_version of the reply: see
 * HV_GPCI_PMU_VERSION_EXTENDED. The requests the seed does not define come
 * from Linux: the counters of hv-gpci-requests.h (0x70, 0x80, 0x94, 0xE0,
 * 0xF0, 0xF4, 0x100), the element heads its system information files and
 * lparcfg.c rely on (0x90, 0xA0, 0xB0, 0xB1, 0xD0); the rest of those
 * elements, and 0x91, 0x95 and 0xC0, are the model's own (inferred).
 */

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#if __has_include("linux/unaligned.h")
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>	/* Linux 6.1 */
#endif
#include <asm/byteorder.h>

#include "hv_gpci_model.h"

#define NONE		0xffff	/* counter absent from a layout */
#define P		HV_GPCI_PMU_K_PROC
#define T		HV_GPCI_PMU_K_PART
#define C		HV_GPCI_PMU_K_CHIP
#define S		HV_GPCI_PMU_K_SYS

/*
 * Where each counter lives: its request and its offset in the element, in
 * the extended layout and in the LoPAR layout (seed) where that differs.
 */
static const struct model_ctr {
	enum hv_gpci_model_ctr ctr;
	const char *name;
	u32 req;
	u16 off_ext;
	u16 off_lopar;
} model_ctrs[] = {
#define CTR(c, n, r, oe, ol) { HV_GPCI_PMU_M_##c, n, r, oe, ol }
	CTR(PROC_TIME, "processor_time", 0x10, 0x00, 0x00),
	CTR(ENTITLED, "entitled_cycles", 0x20, 0x08, 0x08),
	CTR(CAPPED, "capped_cycles", 0x20, 0x10, 0x10),
	CTR(UNCAPPED, "uncapped_cycles", 0x20, 0x18, 0x18),
	CTR(DONATED, "donated_cycles", 0x20, 0x20, 0x20),
	CTR(IDLE, "idle_cycles", 0x20, 0x28, 0x28),
	CTR(RUN_INSTR, "run_instructions", 0x30, 0x08, 0x08),
	CTR(RUN_CYCLES, "run_cycles", 0x30, 0x10, 0x10),
	CTR(Q_WAIT_ENT_TIME, "time_waiting_for_entitlement", 0xE0, 0x08, NONE),
	CTR(Q_WAIT_ENT_TIMES, "times_waited_for_entitlement", 0xE0, 0x10, NONE),
	CTR(Q_WAIT_PROC_TIME, "time_waiting_for_phys_processor", 0xE0, 0x18, NONE),
	CTR(Q_WAIT_PROC_TIMES, "times_waited_for_phys_processor", 0xE0, 0x20, NONE),
	CTR(Q_HOME_CORE, "dispatches_on_home_core", 0xE0, 0x28, NONE),
	CTR(Q_HOME_PRIMARY, "dispatches_on_home_primary_affinity_domain", 0xE0, 0x30, NONE),
	CTR(Q_HOME_SECONDARY, "dispatches_on_home_secondary_affinity_domain", 0xE0, 0x38, NONE),
	CTR(Q_OFF_SECONDARY, "dispatches_off_home_secondary_affinity_domain", 0xE0, 0x40, NONE),
	CTR(Q_DEDICATED_DONATING, "dispatches_on_dedicated_processor_donating_cycles",
	    0xE0, 0x48, NONE),
	CTR(PI_INSTR, "instructions_performed", 0x100, 0x08, NONE),
	CTR(PI_TIME, "time_collected", 0x100, 0x10, NONE),
	/* LoPAR: an (idle, time) pair per link; extended: one total first */
	CTR(IDLE_A, "idle_a", 0x50, 0x18, 0x10),
	CTR(IDLE_B, "idle_b", 0x50, 0x20, 0x20),
	CTR(IDLE_C, "idle_c", 0x50, 0x28, 0x30),
	CTR(TIME_A, "time_a", 0x50, NONE, 0x18),
	CTR(TIME_B, "time_b", 0x50, NONE, 0x28),
	CTR(TIME_C, "time_c", 0x50, NONE, 0x38),
	CTR(TOTAL_ABC, "total_abc", 0x50, 0x10, NONE),
	CTR(IDLE_W, "idle_w", 0x60, 0x18, 0x10),
	CTR(IDLE_X, "idle_x", 0x60, 0x20, 0x20),
	CTR(IDLE_Y, "idle_y", 0x60, 0x28, 0x30),
	CTR(IDLE_Z, "idle_z", 0x60, 0x30, 0x40),
	CTR(TIME_W, "time_w", 0x60, NONE, 0x18),
	CTR(TIME_X, "time_x", 0x60, NONE, 0x28),
	CTR(TIME_Y, "time_y", 0x60, NONE, 0x38),
	CTR(TIME_Z, "time_z", 0x60, NONE, 0x48),
	CTR(TOTAL_WXYZ, "total_wxyz", 0x60, 0x10, NONE),
	{ HV_GPCI_PMU_M_GX_FIRST + 0, "gx0_in_address_cycles", 0x70, 0x10, NONE },
	{ HV_GPCI_PMU_M_GX_FIRST + 1, "gx0_in_data_cycles", 0x70, 0x18, NONE },
	{ HV_GPCI_PMU_M_GX_FIRST + 2, "gx0_in_retries", 0x70, 0x20, NONE },
	{ HV_GPCI_PMU_M_GX_FIRST + 3, "gx0_in_bus_cycles", 0x70, 0x28, NONE },
	{ HV_GPCI_PMU_M_GX_FIRST + 4, "gx0_in_cycles_total", 0x70, 0x30, NONE },
	{ HV_GPCI_PMU_M_GX_FIRST + 5, "gx0_out_address_cycles", 0x70, 0x38, NONE },
	{ HV_GPCI_PMU_M_GX_FIRST + 6, "gx0_out_data_cycles", 0x70, 0x40, NONE },
	{ HV_GPCI_PMU_M_GX_FIRST + 7, "gx0_out_retries", 0x70, 0x48, NONE },
	{ HV_GPCI_PMU_M_GX_FIRST + 8, "gx0_out_bus_cycles", 0x70, 0x50, NONE },
	{ HV_GPCI_PMU_M_GX_FIRST + 9, "gx0_out_cycles_total", 0x70, 0x58, NONE },
	{ HV_GPCI_PMU_M_GX_FIRST + 10, "gx1_in_address_cycles", 0x70, 0x60, NONE },
	{ HV_GPCI_PMU_M_GX_FIRST + 11, "gx1_in_data_cycles", 0x70, 0x68, NONE },
	{ HV_GPCI_PMU_M_GX_FIRST + 12, "gx1_in_retries", 0x70, 0x70, NONE },
	{ HV_GPCI_PMU_M_GX_FIRST + 13, "gx1_in_bus_cycles", 0x70, 0x78, NONE },
	{ HV_GPCI_PMU_M_GX_FIRST + 14, "gx1_in_cycles_total", 0x70, 0x80, NONE },
	{ HV_GPCI_PMU_M_GX_FIRST + 15, "gx1_out_address_cycles", 0x70, 0x88, NONE },
	{ HV_GPCI_PMU_M_GX_FIRST + 16, "gx1_out_data_cycles", 0x70, 0x90, NONE },
	{ HV_GPCI_PMU_M_GX_FIRST + 17, "gx1_out_retries", 0x70, 0x98, NONE },
	{ HV_GPCI_PMU_M_GX_FIRST + 18, "gx1_out_bus_cycles", 0x70, 0xA0, NONE },
	{ HV_GPCI_PMU_M_GX_FIRST + 19, "gx1_out_cycles_total", 0x70, 0xA8, NONE },
	{ HV_GPCI_PMU_M_MC_FIRST + 0, "mc0_frames", 0x80, 0x10, NONE },
	{ HV_GPCI_PMU_M_MC_FIRST + 1, "mc0_reads", 0x80, 0x18, NONE },
	{ HV_GPCI_PMU_M_MC_FIRST + 2, "mc0_writes", 0x80, 0x20, NONE },
	{ HV_GPCI_PMU_M_MC_FIRST + 3, "mc0_total_cycles", 0x80, 0x28, NONE },
	{ HV_GPCI_PMU_M_MC_FIRST + 4, "mc1_frames", 0x80, 0x30, NONE },
	{ HV_GPCI_PMU_M_MC_FIRST + 5, "mc1_reads", 0x80, 0x38, NONE },
	{ HV_GPCI_PMU_M_MC_FIRST + 6, "mc1_writes", 0x80, 0x40, NONE },
	{ HV_GPCI_PMU_M_MC_FIRST + 7, "mc1_total_cycles", 0x80, 0x48, NONE },
	CTR(CORE_ANY_THREAD, "cycles_across_any_thread", 0x94, 0x08, NONE),
	CTR(CORE_TIMEBASE, "timebase_at_collection", 0x94, 0x10, NONE),
	CTR(CORE_PURR, "purr_cycles", 0x94, 0x18, NONE),
	CTR(CORE_SUM_THREADS, "sum_of_cycles_across_all_threads", 0x94, 0x20, NONE),
	CTR(CORE_INSTR, "core_instructions_completed", 0x94, 0x28, NONE),
	/* seed: u32 id, u32 reserved, u64 MMCRH, then these u64 values */
	CTR(ELAPSED_TB, "elapsed_timebase", HV_GPCI_PMU_REQ_HPMCX, 0x10, 0x10),
	CTR(HPMC1, "hpmc1", HV_GPCI_PMU_REQ_HPMCX, 0x18, 0x18),
	CTR(HPMC2, "hpmc2", HV_GPCI_PMU_REQ_HPMCX, 0x20, 0x20),
	CTR(HPMC3, "hpmc3", HV_GPCI_PMU_REQ_HPMCX, 0x28, 0x28),
	CTR(HPMC3_NOW, "hpmc3_current", HV_GPCI_PMU_REQ_HPMCX, 0x30, 0x30),
	CTR(HPMC4, "hpmc4", HV_GPCI_PMU_REQ_HPMCX, 0x38, 0x38),
	CTR(HPMC4_NOW, "hpmc4_current", HV_GPCI_PMU_REQ_HPMCX, 0x40, 0x40),
	CTR(SYS_DISPATCH, "time_spent_to_dispatch_virtual_processors", 0xF0, 0x00, NONE),
	CTR(SYS_VP_TIMERS, "time_spent_processing_virtual_processor_timers", 0xF0, 0x08, NONE),
	CTR(SYS_OVER_ENT, "time_spent_managing_partitions_over_entitlement", 0xF0, 0x10, NONE),
	CTR(SYS_MANAGEMENT, "time_spent_on_system_management", 0xF0, 0x18, NONE),
	CTR(TLBIE_COUNT, "tlbie_instructions_issued", 0xF4, 0x00, NONE),
	CTR(TLBIE_TIME, "time_spent_issuing_tlbies", 0xF4, 0x08, NONE),
#undef CTR
};

static_assert(ARRAY_SIZE(model_ctrs) == HV_GPCI_PMU_M_NR);

/*
 * The requests the model answers. @since: the first counter_info_version
 * of a reply that has the request (the seed's requests: 0; the others 3,
 * inferred; 0xF4 6, after Linux's hv-gpci.h "6 => TLBIE"; 0xB1 5, after
 * lparcfg.c "v5+ for score"). @deprecated: not on firmware of version 8 or
 * later (Linux 03f7c1d2a49a). @size: element size in the LoPAR (seed) and
 * extended layout; 0xB1 elements are that size plus their domain list.
 */
static const struct model_req {
	u32 code;
	u8 kind;
	u8 since;
	bool deprecated;
	bool lab;
	u16 size_lopar;
	u16 size_ext;
} model_reqs[] = {
	{ 0x10, P, 0, false, false, 0x30, 0x30 },
	{ 0x20, T, 0, false, false, 0x30, 0x30 },
	{ 0x30, T, 0, true, false, 0x18, 0x18 },
	{ 0x40, T, 0, false, false, 0x10, 0x10 },
	{ 0x50, C, 0, true, false, 0x40, 0x50 },
	{ 0x60, C, 0, true, false, 0x50, 0x60 },
	{ 0x70, C, 3, true, false, 0, 0xB0 },
	{ 0x80, C, 3, true, false, 0, 0x50 },
	{ 0x90, P, 3, false, false, 0, 0x20 },
	{ 0x91, P, 3, false, false, 0, 0x10 },
	{ 0x94, P, 3, true, false, 0, 0x30 },
	{ 0x95, P, 3, false, false, 0, 0x10 },
	{ 0xA0, T, 3, false, false, 0, 0x0C },
	{ 0xB0, C, 3, false, false, 0, 0x10 },
	{ 0xB1, T, 5, false, false, 0, 0x10 },
	{ 0xC0, S, 3, false, false, 0, 0x20 },
	{ 0xD0, C, 3, false, false, 0, 0x10 },
	{ 0xE0, T, 3, false, false, 0, 0x50 },
	{ 0xF0, S, 3, false, false, 0, 0x20 },
	{ 0xF4, S, 6, false, false, 0, 0x10 },
	{ 0x100, T, 3, false, false, 0, 0x18 },
	/* seed: u32 + u32 + 8 x u64 */
	{ HV_GPCI_PMU_REQ_HPMCX, P, 0, false, true, 0x48, 0x48 },
	{ HV_GPCI_PMU_REQ_SET_MMCRH, S, 0, false, true, 0, 0 },
};

static_assert(ARRAY_SIZE(model_reqs) <= HV_GPCI_PMU_MODEL_REQ_SLOTS);

/* 0xB1: one affinity domain of a partition (inferred) */
#define B1_DOMAIN_SIZE	8

static const struct model_req *model_find_req(u32 code)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(model_reqs); i++)
		if (model_reqs[i].code == code)
			return &model_reqs[i];
	return NULL;
}

static const struct model_ctr *model_find_ctr(enum hv_gpci_model_ctr ctr)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(model_ctrs); i++)
		if (model_ctrs[i].ctr == ctr)
			return &model_ctrs[i];
	return NULL;
}

/**
 * hv_gpci_model_ctr_kind() - which table holds a counter
 * @ctr: the counter
 *
 * Return: the kind of entity its request is indexed by, or
 * HV_GPCI_PMU_K_NR for no counter.
 */
enum hv_gpci_model_kind hv_gpci_model_ctr_kind(enum hv_gpci_model_ctr ctr)
{
	const struct model_ctr *c = model_find_ctr(ctr);

	return c ? model_find_req(c->req)->kind : HV_GPCI_PMU_K_NR;
}

/**
 * hv_gpci_model_ctr_name() - name of a counter
 * @ctr: the counter
 *
 * Return: the name, or NULL for no counter.
 */
const char *hv_gpci_model_ctr_name(enum hv_gpci_model_ctr ctr)
{
	const struct model_ctr *c = model_find_ctr(ctr);

	return c ? c->name : NULL;
}

/**
 * hv_gpci_model_init() - a small POWER system with gaps in its tables
 * @m: the model
 * @version: counter_info_version the firmware reports
 *
 * Processors 0-3 (chip 0, dedicated to partition 3) and 5-7 (chip 1,
 * shared; 4 is missing, so "first at or after" is visible); logical CPU 0
 * runs on processor 1, CPU 1 on processor 5 (then 2, 6, 3, 7, 0, 1);
 * partitions 1, 2, 3 (ours) and 7; chips 0, 1 and 8; one system. Collection
 * is authorised, GA capability only, version_in honoured, not a POWER10,
 * all counters zero.
 */
void hv_gpci_model_init(struct hv_gpci_model *m, u8 version)
{
	static const u32 proc_ids[] = { 0, 1, 2, 3, 5, 6, 7 };
	static const u32 part_ids[] = { 1, 2, 3, 7 };
	static const u32 chip_ids[] = { 0, 1, 8 };
	static const u32 cpu_proc[HV_GPCI_PMU_MODEL_MAX_CPUS] = {
		1, 5, 2, 6, 3, 7, 0, 1
	};
	struct hv_gpci_model_entity *e;
	unsigned int i;

	memset(m, 0, sizeof(*m));
	raw_spin_lock_init(&m->lock);
	m->implemented = true;
	m->authorised = true;
	m->version_in = HV_GPCI_PMU_M_HONOUR_VERSION_IN;
	m->version = version;
	m->caps = HV_GPCI_PMU_CAP_GA;
	m->own_partition = 3;
	memcpy(m->cpu_proc, cpu_proc, sizeof(cpu_proc));
	for (i = 0; i < ARRAY_SIZE(proc_ids); i++) {
		e = &m->ent[P][i];
		e->id = proc_ids[i];
		e->hw_id = 0x100 + proc_ids[i];
		e->owner = proc_ids[i] < 4 ? 3 : 0xFFFF;
		e->state = proc_ids[i] < 4 ? 6 : 4;	/* dedicated / shared */
		e->chip = proc_ids[i] < 4 ? 0 : 1;
	}
	m->nr[P] = ARRAY_SIZE(proc_ids);
	for (i = 0; i < ARRAY_SIZE(part_ids); i++) {
		e = &m->ent[T][i];
		e->id = part_ids[i];
		e->score = 90 + i;
		e->nr_vps = part_ids[i] == 3 ? 4 : 2;
	}
	m->nr[T] = ARRAY_SIZE(part_ids);
	for (i = 0; i < ARRAY_SIZE(chip_ids); i++)
		m->ent[C][i].id = chip_ids[i];
	m->nr[C] = ARRAY_SIZE(chip_ids);
	m->nr[S] = 1;
}

/**
 * hv_gpci_model_alloc() - allocate and initialise a model
 * @version: counter_info_version the firmware reports
 *
 * The model holds a few hundred KiB of tables: use this, not kzalloc().
 *
 * Return: hv_gpci_model_init()'s system, or NULL.
 */
struct hv_gpci_model *hv_gpci_model_alloc(u8 version)
{
	struct hv_gpci_model *m = kvzalloc(sizeof(*m), GFP_KERNEL);

	if (m)
		hv_gpci_model_init(m, version);
	return m;
}

/**
 * hv_gpci_model_free() - free a model from hv_gpci_model_alloc()
 * @m: the model, or NULL
 */
void hv_gpci_model_free(struct hv_gpci_model *m)
{
	kvfree(m);
}

static struct hv_gpci_model_entity *
model_entity(struct hv_gpci_model *m, unsigned int kind, u32 id)
{
	unsigned int i;

	for (i = 0; i < m->nr[kind]; i++)
		if (m->ent[kind][i].id == id)
			return &m->ent[kind][i];
	return NULL;
}

/* Set (or add to) one counter of one entity: 0, -EINVAL or -ENOENT. */
static int model_update(struct hv_gpci_model *m,
			enum hv_gpci_model_ctr ctr, u32 id, u64 value,
			bool add)
{
	struct hv_gpci_model_entity *e;
	unsigned long flags;
	int ret = -ENOENT;

	if (hv_gpci_model_ctr_kind(ctr) >= HV_GPCI_PMU_K_NR)
		return -EINVAL;
	raw_spin_lock_irqsave(&m->lock, flags);
	e = model_entity(m, hv_gpci_model_ctr_kind(ctr), id);
	if (e) {
		e->ctr[ctr] = add ? e->ctr[ctr] + value : value;
		ret = 0;
	}
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return ret;
}

/**
 * hv_gpci_model_set() - set one counter of one entity
 * @m: the model
 * @ctr: the counter; its request decides the table (processor, partition,
 *	chip, system)
 * @id: the entity's id (0 for the system)
 * @value: the new value
 *
 * Return: 0, or -ENOENT if the table has no entity @id.
 */
int hv_gpci_model_set(struct hv_gpci_model *m,
		      enum hv_gpci_model_ctr ctr, u32 id, u64 value)
{
	return model_update(m, ctr, id, value, false);
}

/**
 * hv_gpci_model_add() - add to one counter of one entity
 * @m: the model
 * @ctr: the counter, as for hv_gpci_model_set()
 * @id: the entity's id (0 for the system)
 * @value: what to add; the counter wraps at 2^64 like the hardware's
 *
 * Return: 0, or -ENOENT if the table has no entity @id.
 */
int hv_gpci_model_add(struct hv_gpci_model *m,
		      enum hv_gpci_model_ctr ctr, u32 id, u64 value)
{
	return model_update(m, ctr, id, value, true);
}

/**
 * hv_gpci_model_get() - one counter of one entity
 * @m: the model
 * @ctr: the counter
 * @id: the entity's id
 *
 * Return: its value, or U64_MAX if there is no such entity.
 */
u64 hv_gpci_model_get(struct hv_gpci_model *m,
		      enum hv_gpci_model_ctr ctr, u32 id)
{
	struct hv_gpci_model_entity *e;
	unsigned long flags;
	u64 v = U64_MAX;

	if (hv_gpci_model_ctr_kind(ctr) >= HV_GPCI_PMU_K_NR)
		return v;
	raw_spin_lock_irqsave(&m->lock, flags);
	e = model_entity(m, hv_gpci_model_ctr_kind(ctr), id);
	if (e)
		v = e->ctr[ctr];
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return v;
}

/**
 * hv_gpci_model_inject() - make calls fail
 * @m: the model
 * @after: how many calls succeed normally first (0: the next call fails)
 * @count: how many calls fail; 0 cancels an injection
 * @rc: the return code they get
 * @detail: the detail_rc written with it (extended layout)
 */
void hv_gpci_model_inject(struct hv_gpci_model *m, unsigned long after,
			  unsigned int count, long rc, u32 detail)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&m->lock, flags);
	m->inj_at = m->calls + after;
	m->inj_count = count;
	m->inj_rc = rc;
	m->inj_detail = detail;
	raw_spin_unlock_irqrestore(&m->lock, flags);
}

/**
 * hv_gpci_model_calls() - number of hcalls the model has answered
 * @m: the model
 *
 * Return: the count, including failed calls.
 */
unsigned long hv_gpci_model_calls(struct hv_gpci_model *m)
{
	return READ_ONCE(m->calls);
}

/* One call being answered: the reply's version and where it goes. */
struct model_call {
	struct hv_gpci_model *m;
	const struct model_req *r;
	u8 *data;		/* counter_value */
	unsigned int room;	/* bytes of counter_value the caller gave */
	unsigned int used;	/* bytes filled */
	unsigned int nr;	/* elements filled */
	u16 first_vp;		/* 0xA0: virtual processor of the first */
	bool ext;		/* extended layout */
	bool full;		/* an element did not fit */
};

static void put64(u8 *e, unsigned int off, u64 v)
{
	put_unaligned_be64(v, e + off);
}

/* The counters of @r in @x, at their offsets in this layout. */
static void fill_ctrs(const struct model_call *c,
		      const struct hv_gpci_model_entity *x, u8 *e)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(model_ctrs); i++) {
		const struct model_ctr *mc = &model_ctrs[i];
		u16 off = c->ext ? mc->off_ext : mc->off_lopar;

		if (mc->req == c->r->code && off != NONE)
			put64(e, off, x->ctr[mc->ctr]);
	}
}

/*
 * 0xB1: the chips of a partition's dedicated processors, or of the shared
 * processors if it has none, as its affinity domains.
 */
static unsigned int part_domains(const struct hv_gpci_model *m,
				 const struct hv_gpci_model_entity *x,
				 u32 *dom, unsigned int max)
{
	unsigned int i, j, n = 0;
	u16 owner = x->id;

	for (i = 0; i < m->nr[P] && m->ent[P][i].owner != owner; i++)
		;
	if (i == m->nr[P])
		owner = 0xFFFF;
	for (i = 0; i < m->nr[P]; i++) {
		const struct hv_gpci_model_entity *p = &m->ent[P][i];

		if (p->owner != owner)
			continue;
		for (j = 0; j < n && dom[j] != p->chip; j++)
			;
		if (j == n && n < max)
			dom[n++] = p->chip;
	}
	return n;
}

/*
 * Append one element for entity @x (and, for 0xA0, virtual processor
 * @vp). Returns false when it does not fit: the caller stops there.
 */
static bool put_elem(struct model_call *c,
		     const struct hv_gpci_model_entity *x, u16 vp)
{
	const struct hv_gpci_model *m = c->m;
	unsigned int size = c->ext ? c->r->size_ext : c->r->size_lopar;
	u32 dom[4];
	unsigned int nd = 0, i;
	u8 *e;

	if (c->r->code == HV_GPCI_PMU_REQ_AFFINITY_PART) {
		nd = part_domains(m, x, dom, ARRAY_SIZE(dom));
		size += nd * B1_DOMAIN_SIZE;
	}
	if (c->used + size > c->room ||
	    (m->max_elems && c->nr == m->max_elems)) {
		c->full = true;
		return false;
	}
	e = c->data + c->used;
	memset(e, 0, size);
	fill_ctrs(c, x, e);

	switch (c->r->code) {
	case HV_GPCI_PMU_REQ_DISPATCH_BY_PROC:
		/* seed: time, hw id, owner, state, rsvd, chip, module, ... */
		put_unaligned_be32(x->hw_id, e + 0x08);
		put_unaligned_be16(x->owner, e + 0x0C);
		e[0x0E] = x->state;
		put_unaligned_be32(x->chip, e + 0x10);
		put_unaligned_be32(0, e + 0x14);		/* module */
		put_unaligned_be32(x->chip, e + 0x18);	/* primary domain */
		put_unaligned_be32(0, e + 0x1C);
		put_unaligned_be32(0x00800200, e + 0x20);	/* proc version */
		put_unaligned_be16(x->id, e + 0x24);	/* logical index */
		/* Linux's layout puts the physical index in LoPAR's reserved. */
		if (c->ext)
			put_unaligned_be32(x->id, e + 0x2C);
		break;
	case HV_GPCI_PMU_REQ_PURR_BY_PART:
	case HV_GPCI_PMU_REQ_RUN_BY_PART:
		put64(e, 0x00, x->id);			/* seed: u64 id */
		break;
	case HV_GPCI_PMU_REQ_PART_QUEUING:
	case HV_GPCI_PMU_REQ_PART_INSTR:
		put_unaligned_be16(x->id, e);
		break;
	case HV_GPCI_PMU_REQ_BUS_ABC:
	case HV_GPCI_PMU_REQ_BUS_WXYZ:
	case HV_GPCI_PMU_REQ_BUS_GX:
	case HV_GPCI_PMU_REQ_BUS_MC:
		put_unaligned_be32(x->id, e);
		break;
	case HV_GPCI_PMU_REQ_CORE_UTIL:
		put_unaligned_be32(x->id, e);
		put_unaligned_be32(x->hw_id, e + 4);
		break;
	case HV_GPCI_PMU_REQ_HPMCX:
		put_unaligned_be32(x->hw_id, e);
		put64(e, 0x08, m->mmcrh);
		break;
	case HV_GPCI_PMU_REQ_PROC_CONFIG:
		/* Linux pages on the be32 processor index at 0 */
		put_unaligned_be32(x->id, e);
		put_unaligned_be32(x->hw_id, e + 0x04);
		put_unaligned_be32(x->chip, e + 0x08);
		put_unaligned_be32(0x00800200, e + 0x0C);
		put_unaligned_be16(x->owner, e + 0x10);
		e[0x12] = x->state;
		break;
	case HV_GPCI_PMU_REQ_PROC_FREQ:
		put_unaligned_be32(x->id, e);
		put_unaligned_be32(3000 + 100 * x->chip, e + 4);	/* MHz */
		break;
	case HV_GPCI_PMU_REQ_CORE_POWER_MODE:
		put_unaligned_be32(x->id, e);
		e[4] = 1;
		break;
	case HV_GPCI_PMU_REQ_AFFINITY_VP:
		/* Linux pages on partition (be16 at 0) and VP (be16 at 2) */
		put_unaligned_be16(x->id, e);
		put_unaligned_be16(vp, e + 2);
		put_unaligned_be32(vp & 1, e + 4);	/* primary domain */
		put_unaligned_be32(0x10 + vp, e + 8);	/* secondary */
		break;
	case HV_GPCI_PMU_REQ_AFFINITY_DOMAIN:
		/* Linux pages on the be16 domain index at 0 */
		put_unaligned_be16(x->id, e);
		for (i = 0; i < m->nr[P]; i++)
			e[7] += m->ent[P][i].chip == x->id;
		break;
	case HV_GPCI_PMU_REQ_AFFINITY_PART:
		/*
		 * Partition (be16 at 0, Linux pages on it), the affinity
		 * score at 0xB (lparcfg.c), then the number and size of the
		 * domain entries ending the fixed part, then the entries.
		 */
		put_unaligned_be16(x->id, e);
		e[0xB] = x->score;
		put_unaligned_be16(nd, e + 0xC);
		put_unaligned_be16(B1_DOMAIN_SIZE, e + 0xE);
		for (i = 0; i < nd; i++) {
			put_unaligned_be32(dom[i], e + 0x10 + 8 * i);
			put_unaligned_be32(100 / nd, e + 0x14 + 8 * i);
		}
		break;
	case HV_GPCI_PMU_REQ_PHYS_MEMORY:
		put64(e, 0x00, 1ULL << 20);		/* MiB installed */
		put64(e, 0x08, 1ULL << 19);		/* MiB assigned */
		break;
	case HV_GPCI_PMU_REQ_BUS_TOPOLOGY:
		/* Linux pages on the be32 chip id at 0 */
		put_unaligned_be32(x->id, e);
		put_unaligned_be32(3, e + 4);		/* links */
		break;
	}
	if (!c->nr)
		c->first_vp = vp;
	c->used += size;
	c->nr++;
	return true;
}

static unsigned int model_slot(const struct model_req *r)
{
	return r - model_reqs;
}

/**
 * hv_gpci_model_req_code() - the request a slot of calls_by_req counts
 * @slot: index into &struct hv_gpci_model.calls_by_req
 *
 * Return: the request code (lab requests included), or 0 past the last
 * request the model knows.
 */
u32 hv_gpci_model_req_code(unsigned int slot)
{
	return slot < ARRAY_SIZE(model_reqs) ? model_reqs[slot].code : 0;
}

/* Returned_values and the header's outputs, in the reply's layout. */
static void put_header(const struct model_call *c, struct hv_gpci_pmu_hdr *h,
		       u32 first, u32 detail, u8 version)
{
	const struct hv_gpci_model *m = c->m;

	h->starting_index = cpu_to_be32(first + m->bad_index);
	if (c->ext) {
		h->returned_values = cpu_to_be16(c->nr);
		h->detail_rc = cpu_to_be32(detail);
		h->cv_element_size = cpu_to_be16(m->bad_elem_size ?:
						  c->r->size_ext);
		h->version_out = version;
	} else {
		/* LoPAR: returned_values is a uint_32 at offset 8. */
		put_unaligned_be32(c->nr, &h->secondary_index);
		/* "0 (zero) if version < 0x3" (Linux's hvcall.h) */
		h->version_out = 0;
	}
}

/* The counter_info_version of the reply (enum hv_gpci_model_version_in). */
static u8 reply_version(const struct hv_gpci_model *m, u8 vin)
{
	/* below 3 the byte is reserved: the firmware does not look at it */
	if (m->version < HV_GPCI_PMU_VERSION_EXTENDED ||
	    m->version_in == HV_GPCI_PMU_M_IGNORE_VERSION_IN)
		return m->version;
	return vin && vin < m->version ? vin : m->version;
}

/* Time passes between two calls: every counter moves. */
static void model_tick(struct hv_gpci_model *m)
{
	unsigned int k, i, c;

	for (k = 0; k < HV_GPCI_PMU_K_NR; k++)
		for (i = 0; i < m->nr[k]; i++)
			for (c = 0; c < HV_GPCI_PMU_M_NR; c++)
				m->ent[k][i].ctr[c] += m->tick;
}

static long model_call(struct hv_gpci_model *m, u8 *buf,
		       unsigned long size)
{
	struct hv_gpci_pmu_hdr *h = (struct hv_gpci_pmu_hdr *)buf;
	struct model_call c = { .m = m };
	struct hv_gpci_model_entity *t;
	u32 req, idx, first, want;
	unsigned int nr, i, kind;
	u16 sec;
	u8 ver;

	if (m->inj_count && m->calls - 1 >= m->inj_at) {
		m->inj_count--;
		if (m->version >= HV_GPCI_PMU_VERSION_EXTENDED &&
		    size >= HV_GPCI_PMU_HDR_SIZE)
			h->detail_rc = cpu_to_be32(m->inj_detail);
		return m->inj_rc;
	}
	if (!m->implemented)
		return HV_GPCI_H_FUNCTION;

	/* "Validate the getPerformanceInfoParms is accessible" */
	if (((unsigned long)buf & (HV_GPCI_PMU_BUF_SIZE - 1)) + size >
	    HV_GPCI_PMU_BUF_SIZE) {
		m->misaligned++;
		if (!m->cross_4k_ok)
			return HV_GPCI_H_PRIVILEGE;
	}
	/* "Validate the size and contents", else H_Parameter */
	if (size < HV_GPCI_PMU_HDR_SIZE)
		return HV_GPCI_H_PARAMETER;
	req = be32_to_cpu(h->request);
	idx = be32_to_cpu(h->starting_index);
	sec = be16_to_cpu(h->secondary_index);
	m->last_version_in = h->version_in;
	m->last_cpu = raw_smp_processor_id();
	if (m->tick)
		model_tick(m);
	c.r = model_find_req(req);
	if (!c.r) {
		m->unknown_req++;
		return HV_GPCI_H_PARAMETER;
	}
	m->calls_by_req[model_slot(c.r)]++;
	ver = reply_version(m, h->version_in);
	c.ext = ver >= HV_GPCI_PMU_VERSION_EXTENDED;
	c.data = buf + HV_GPCI_PMU_HDR_SIZE;
	c.room = size - HV_GPCI_PMU_HDR_SIZE;

	/* "Validate information is available for the firmware level" */
	if (c.r->lab && (!(m->caps & HV_GPCI_PMU_CAP_LAB) ||
			 m->version < HV_GPCI_PMU_VERSION_EXTENDED))
		return HV_GPCI_H_NOT_AVAILABLE;
	if (req == HV_GPCI_PMU_REQ_SET_MMCRH) {
		m->set_mmcrh++;
		if (c.room < 8)
			return HV_GPCI_H_PARAMETER;
		m->mmcrh = get_unaligned_be64(c.data);
		return HV_GPCI_H_SUCCESS;
	}
	if (ver < c.r->since ||
	    (c.r->deprecated && m->version >= HV_GPCI_PMU_VERSION_DEPRECATES))
		return HV_GPCI_H_NOT_AVAILABLE;
	/* seed: 0x40 "can only be issued ... about itself" */
	if (req == HV_GPCI_PMU_REQ_CAPABILITIES) {
		if (idx != HV_GPCI_PMU_INDEX_CURRENT)
			return HV_GPCI_H_NOT_AVAILABLE;
		if (c.room < c.r->size_ext)
			return HV_GPCI_H_PARAMETER;
		memset(c.data, 0, c.r->size_ext);
		c.data[0] = m->authorised;
		/* Byte 1 is reserved in LoPAR, the capability mask in Linux. */
		if (c.ext)
			c.data[1] = m->caps;
		c.nr = 1;
		put_header(&c, h, m->own_partition, 0, ver);
		return HV_GPCI_H_SUCCESS;
	}

	kind = c.r->kind;
	t = m->ent[kind];
	nr = m->nr[kind];
	if (idx == HV_GPCI_PMU_INDEX_CURRENT || kind == S) {
		/* "only information for the current processor/partition" */
		struct hv_gpci_model_entity *p;

		want = m->cpu_proc[m->last_cpu % HV_GPCI_PMU_MODEL_MAX_CPUS];
		p = model_entity(m, P, want);
		if (kind == C)
			want = p ? p->chip : U32_MAX;
		else if (kind == T)
			want = m->own_partition;
		else if (kind == S)
			want = 0;
		for (i = 0; i < nr && t[i].id != want; i++)
			;
		if (i == nr)
			return HV_GPCI_H_PARAMETER;
		t += i;
		nr = 1;
		i = 0;
	} else {
		/* "the actual first processor/partition id that was found" */
		for (i = 0; i < nr && t[i].id < idx; i++)
			;
	}

	/* "Validate partition is permitted", else H_Authority */
	if (!m->authorised) {
		if (kind != T)
			return HV_GPCI_H_AUTHORITY;
		if (i < nr && t[i].id != m->own_partition)
			return HV_GPCI_H_AUTHORITY;
		nr = min(nr, i + 1);	/* its own partition only */
	}

	first = i < nr ? t[i].id : idx;	/* none found: zero elements */
	memset(c.data, 0, c.room);
	for (; i < nr; i++) {
		u16 vp = 0, nvp = 1;

		if (req == HV_GPCI_PMU_REQ_AFFINITY_VP) {
			nvp = t[i].nr_vps;
			vp = t[i].id == first ? sec : 0;
		}
		for (; vp < nvp; vp++)
			if (!put_elem(&c, &t[i], vp))
				break;
		if (c.full)
			break;
	}
	/*
	 * More data than room: the elements that fit are returned with
	 * H_Parameter and detail_rc 0x1B (Linux ad86d7ee43b2; the extended
	 * layout only, LoPAR has no detail_rc).
	 */
	if (c.full && c.ext) {
		put_header(&c, h, first, HV_GPCI_PMU_DETAIL_BUF_TOO_SMALL, ver);
		return HV_GPCI_H_PARAMETER;
	}
	put_header(&c, h, first, 0, ver);
	if (req == HV_GPCI_PMU_REQ_AFFINITY_VP && c.ext)
		h->secondary_index = cpu_to_be16(c.first_vp);
	return HV_GPCI_H_SUCCESS;
}

/**
 * hv_gpci_model_hcall() - answer one H_GetPerformanceCounterInfo call
 * @m: the model
 * @buf: the parameter block (header and counter_value area)
 * @size: its size in bytes
 *
 * Calls the test hook if one is set, counts the call, applies an injected
 * error if one is due, then validates and answers as the seed describes.
 *
 * Return: the PAPR return code.
 */
long hv_gpci_model_hcall(struct hv_gpci_model *m, void *buf,
			 unsigned long size)
{
	void (*hook)(void *arg) = READ_ONCE(m->hook);
	unsigned long flags;
	long rc;

	if (hook)
		hook(m->hook_arg);
	raw_spin_lock_irqsave(&m->lock, flags);
	m->calls++;
	m->last_size = size;
	rc = model_call(m, buf, size);
	m->last_rc = rc;
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return rc;
}

