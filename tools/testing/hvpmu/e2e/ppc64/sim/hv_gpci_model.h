/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Model of H_GetPerformanceCounterInfo (hv_gpci_model.c): the hypervisor
 * of the ppc64 e2e guest (e2e/ppc64/). Test-only, never part of the series.
 */
#ifndef _HV_GPCI_MODEL_H
#define _HV_GPCI_MODEL_H

#include <linux/spinlock.h>
#include <linux/types.h>

#include "hv_gpci_hv.h"

/*
 * The counters a model entity carries, by request. Which entity kind holds
 * a counter follows from its request (hv_gpci_model_set()).
 */
enum hv_gpci_model_ctr {
	/* 0x10, per processor */
	HV_GPCI_PMU_M_PROC_TIME,
	/* 0x20, per partition */
	HV_GPCI_PMU_M_ENTITLED,
	HV_GPCI_PMU_M_CAPPED,
	HV_GPCI_PMU_M_UNCAPPED,
	HV_GPCI_PMU_M_DONATED,
	HV_GPCI_PMU_M_IDLE,
	/* 0x30, per partition */
	HV_GPCI_PMU_M_RUN_INSTR,
	HV_GPCI_PMU_M_RUN_CYCLES,
	/* 0xE0, per partition */
	HV_GPCI_PMU_M_Q_WAIT_ENT_TIME,
	HV_GPCI_PMU_M_Q_WAIT_ENT_TIMES,
	HV_GPCI_PMU_M_Q_WAIT_PROC_TIME,
	HV_GPCI_PMU_M_Q_WAIT_PROC_TIMES,
	HV_GPCI_PMU_M_Q_HOME_CORE,
	HV_GPCI_PMU_M_Q_HOME_PRIMARY,
	HV_GPCI_PMU_M_Q_HOME_SECONDARY,
	HV_GPCI_PMU_M_Q_OFF_SECONDARY,
	HV_GPCI_PMU_M_Q_DEDICATED_DONATING,
	/* 0x100, per partition */
	HV_GPCI_PMU_M_PI_INSTR,
	HV_GPCI_PMU_M_PI_TIME,
	/* 0x50, per chip: LoPAR (idle, time) per link; extended: total */
	HV_GPCI_PMU_M_IDLE_A,
	HV_GPCI_PMU_M_IDLE_B,
	HV_GPCI_PMU_M_IDLE_C,
	HV_GPCI_PMU_M_TIME_A,
	HV_GPCI_PMU_M_TIME_B,
	HV_GPCI_PMU_M_TIME_C,
	HV_GPCI_PMU_M_TOTAL_ABC,
	/* 0x60, per chip */
	HV_GPCI_PMU_M_IDLE_W,
	HV_GPCI_PMU_M_IDLE_X,
	HV_GPCI_PMU_M_IDLE_Y,
	HV_GPCI_PMU_M_IDLE_Z,
	HV_GPCI_PMU_M_TIME_W,
	HV_GPCI_PMU_M_TIME_X,
	HV_GPCI_PMU_M_TIME_Y,
	HV_GPCI_PMU_M_TIME_Z,
	HV_GPCI_PMU_M_TOTAL_WXYZ,
	/* 0x70, per chip: 10 counters for GX0, then 10 for GX1 */
	HV_GPCI_PMU_M_GX_FIRST,
	HV_GPCI_PMU_M_GX_LAST = HV_GPCI_PMU_M_GX_FIRST + 19,
	/* 0x80, per chip: frames, reads, writes, total cycles of MC0, MC1 */
	HV_GPCI_PMU_M_MC_FIRST,
	HV_GPCI_PMU_M_MC_LAST = HV_GPCI_PMU_M_MC_FIRST + 7,
	/* 0x94, per processor */
	HV_GPCI_PMU_M_CORE_ANY_THREAD,
	HV_GPCI_PMU_M_CORE_TIMEBASE,
	HV_GPCI_PMU_M_CORE_PURR,
	HV_GPCI_PMU_M_CORE_SUM_THREADS,
	HV_GPCI_PMU_M_CORE_INSTR,
	/* 0x80002000 (lab), per processor: after MMCRH was set */
	HV_GPCI_PMU_M_ELAPSED_TB,
	HV_GPCI_PMU_M_HPMC1,
	HV_GPCI_PMU_M_HPMC2,
	HV_GPCI_PMU_M_HPMC3,
	HV_GPCI_PMU_M_HPMC3_NOW,
	HV_GPCI_PMU_M_HPMC4,
	HV_GPCI_PMU_M_HPMC4_NOW,
	/* 0xF0, system-wide */
	HV_GPCI_PMU_M_SYS_DISPATCH,
	HV_GPCI_PMU_M_SYS_VP_TIMERS,
	HV_GPCI_PMU_M_SYS_OVER_ENT,
	HV_GPCI_PMU_M_SYS_MANAGEMENT,
	/* 0xF4, system-wide */
	HV_GPCI_PMU_M_TLBIE_COUNT,
	HV_GPCI_PMU_M_TLBIE_TIME,
	HV_GPCI_PMU_M_NR,
};

/**
 * enum hv_gpci_model_kind - the tables of entities of the model
 * @HV_GPCI_PMU_K_PROC: physical processors (phys_processor_idx)
 * @HV_GPCI_PMU_K_PART: partitions (sibling_part_id, partition_id)
 * @HV_GPCI_PMU_K_CHIP: chips (hw_chip_id); also the affinity domains of 0xB0
 * @HV_GPCI_PMU_K_SYS: the one system (requests whose index is irrelevant)
 * @HV_GPCI_PMU_K_NR: number of kinds
 */
enum hv_gpci_model_kind {
	HV_GPCI_PMU_K_PROC,
	HV_GPCI_PMU_K_PART,
	HV_GPCI_PMU_K_CHIP,
	HV_GPCI_PMU_K_SYS,
	HV_GPCI_PMU_K_NR,
};

/**
 * enum hv_gpci_model_version_in - how the firmware treats version_in
 * @HV_GPCI_PMU_M_HONOUR_VERSION_IN: a version_in from 1 up to the firmware's
 *	version gets the reply in that version's layout (0 or a higher one:
 *	the firmware's own), and a request newer than that version is not
 *	available
 * @HV_GPCI_PMU_M_IGNORE_VERSION_IN: every reply has the firmware's version
 *
 * Neither LoPAR nor Linux says which; the tests run under both.
 */
enum hv_gpci_model_version_in {
	HV_GPCI_PMU_M_HONOUR_VERSION_IN,
	HV_GPCI_PMU_M_IGNORE_VERSION_IN,
};

#define HV_GPCI_PMU_MODEL_MAX_ENTITIES	128
#define HV_GPCI_PMU_MODEL_MAX_CPUS	8
/* Slots of &struct hv_gpci_model.calls_by_req, see hv_gpci_model_req_code() */
#define HV_GPCI_PMU_MODEL_REQ_SLOTS	26

/**
 * struct hv_gpci_model_entity - one processor, partition, chip or system
 * @id: its index as used in starting_index (physical processor index,
 *	partition id or hardware chip id); tables are sorted by @id
 * @hw_id: processor: hardware processor id
 * @owner: processor: owning partition (0xFFFF: shared or unowned)
 * @state: processor: state (1 Not Installed ... 6 Dedicated)
 * @chip: processor: hardware chip id
 * @score: partition: affinity score (0xB1 byte 0xB, lparcfg.c)
 * @nr_vps: partition: virtual processors (0xA0)
 * @ctr: the counters of this entity, by &enum hv_gpci_model_ctr
 */
struct hv_gpci_model_entity {
	u32 id;
	u32 hw_id;
	u16 owner;
	u8 state;
	u32 chip;
	u8 score;
	u16 nr_vps;
	u64 ctr[HV_GPCI_PMU_M_NR];
};

/**
 * struct hv_gpci_model - the hypervisor side of H_GetPerformanceCounterInfo
 * @lock: serialises calls and updates
 * @implemented: false makes every call return H_FUNCTION (QEMU pseries)
 * @authorised: the LPAR has "performance information collection" enabled;
 *	false makes requests for other partitions or physical resources
 *	return H_AUTHORITY
 * @power10: the processor is POWER10 or later
 * @version_in: an &enum hv_gpci_model_version_in
 * @version: counter_info_version the firmware reports
 * @caps: capability byte of the 0x40 reply (HV_GPCI_PMU_CAP_*)
 * @own_partition: id of the calling partition
 * @cpu_proc: physical processor index each logical CPU runs on: what
 *	starting_index -1 means for processors and (through its chip) chips
 * @ent: the entities by &enum hv_gpci_model_kind, @nr of each in use
 * @nr: number of entities of each kind
 * @mmcrh: last value set by the lab-only Set MMCRH request
 * @inj_at: error injection: fail call number @inj_at (counting from 0 in
 *	@calls) and the @inj_count - 1 calls after it with @inj_rc
 * @inj_count: number of calls to fail; 0 disables injection
 * @inj_rc: the return code to inject
 * @inj_detail: detail_rc written with @inj_rc
 * @bad_elem_size: if nonzero, reported as cv_element_size (corruption)
 * @bad_index: if nonzero, added to the returned starting_index (corruption)
 * @max_elems: if nonzero, a reply holds at most this many elements (more:
 *	H_PARAMETER, detail_rc 0x1B), as a firmware limiting its work per call
 * @tick: added to every counter of every entity before each call is
 *	answered, so that two calls never see the same values
 * @hook: if set, called at the start of every call before the lock is
 *	taken, with @hook_arg (tests: a read arriving while the caller's
 *	buffer is in use)
 * @hook_arg: argument of @hook
 * @calls: number of calls made
 * @calls_by_req: calls per known request (slots: hv_gpci_model_req_code())
 * @unknown_req: calls with a request code the firmware does not know
 * @set_mmcrh: calls of the lab-only Set MMCRH request
 * @misaligned: calls whose buffer crossed a 4 KiB boundary
 * @cross_4k_ok: answer a buffer that crosses a 4 KiB boundary instead of
 *	refusing it with H_PRIVILEGE: PAPR says only that the parameter
 *	block must be accessible, and hv-24x7's calls are the ones documented
 *	as needing alignment, so a real hypervisor may do either
 * @last_rc: return code of the last call
 * @last_size: size argument of the last call
 * @last_cpu: CPU the last call ran on
 * @last_version_in: version_in of the last call
 */
struct hv_gpci_model {
	raw_spinlock_t lock;
	bool implemented;
	bool authorised;
	bool power10;
	u8 version_in;
	u8 version;
	u8 caps;
	u32 own_partition;
	u32 cpu_proc[HV_GPCI_PMU_MODEL_MAX_CPUS];
	struct hv_gpci_model_entity ent[HV_GPCI_PMU_K_NR]
					  [HV_GPCI_PMU_MODEL_MAX_ENTITIES];
	unsigned int nr[HV_GPCI_PMU_K_NR];
	u64 mmcrh;
	unsigned long inj_at;
	unsigned int inj_count;
	long inj_rc;
	u32 inj_detail;
	u16 bad_elem_size;
	s32 bad_index;
	unsigned int max_elems;
	u64 tick;
	void (*hook)(void *arg);
	void *hook_arg;
	unsigned long calls;
	unsigned long calls_by_req[HV_GPCI_PMU_MODEL_REQ_SLOTS];
	unsigned long unknown_req;
	unsigned long set_mmcrh;
	unsigned long misaligned;
	bool cross_4k_ok;
	long last_rc;
	unsigned long last_size;
	unsigned int last_cpu;
	u8 last_version_in;
};

struct hv_gpci_model *hv_gpci_model_alloc(u8 version);
void hv_gpci_model_free(struct hv_gpci_model *m);
void hv_gpci_model_init(struct hv_gpci_model *m, u8 version);
long hv_gpci_model_hcall(struct hv_gpci_model *m, void *buf,
			 unsigned long size);
int hv_gpci_model_set(struct hv_gpci_model *m,
		      enum hv_gpci_model_ctr ctr, u32 id, u64 value);
int hv_gpci_model_add(struct hv_gpci_model *m,
		      enum hv_gpci_model_ctr ctr, u32 id, u64 value);
u64 hv_gpci_model_get(struct hv_gpci_model *m,
		      enum hv_gpci_model_ctr ctr, u32 id);
enum hv_gpci_model_kind hv_gpci_model_ctr_kind(enum hv_gpci_model_ctr ctr);
const char *hv_gpci_model_ctr_name(enum hv_gpci_model_ctr ctr);
void hv_gpci_model_inject(struct hv_gpci_model *m, unsigned long after,
			  unsigned int count, long rc, u32 detail);
unsigned long hv_gpci_model_calls(struct hv_gpci_model *m);
u32 hv_gpci_model_req_code(unsigned int slot);

#endif /* _HV_GPCI_MODEL_H */
