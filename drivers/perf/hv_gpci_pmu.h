/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hv_gpci: the PAPR H_GetPerformanceCounterInfo (hcall 0xF080) PMU.
 *
 * Private to the driver (drivers/perf/hv_gpci_pmu.c) and its KUnit suite:
 * the driver reaches the hypervisor only through &struct hv_gpci_pmu_ops.
 * On pseries the driver itself supplies the real hcall; the model
 * (drivers/perf/tests/hv_gpci_model.c) supplies a faithful imitation for
 * the KUnit suite, which probes the driver through the functions below
 * (exported only with CONFIG_KUNIT).
 */
#ifndef _HV_GPCI_PMU_H
#define _HV_GPCI_PMU_H

#include <linux/bits.h>
#include <linux/export.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/unaligned.h>

struct dentry;
struct module;
struct perf_event_attr;
struct seq_file;

/* The hcall token, for logs and the pseries backend. */
#define HV_GPCI_PMU_HCALL		0xF080

/*
 * The parameter block must not cross a 4 KiB boundary (the hypervisor
 * validates that it is accessible, else H_Privilege), so every buffer is
 * 4 KiB, 4 KiB-aligned; an hcall may pass a smaller size.
 */
#define HV_GPCI_PMU_BUF_SIZE		4096
#define HV_GPCI_PMU_HDR_SIZE		32
#define HV_GPCI_PMU_MAX_DATA		(HV_GPCI_PMU_BUF_SIZE - HV_GPCI_PMU_HDR_SIZE)

/*
 * PAPR hcall return codes, with the values of Linux's asm/hvcall.h, so the
 * driver and the model can be built on any architecture. H_NOT_AVAILABLE is
 * positive, like H_BUSY.
 */
#define HV_GPCI_H_SUCCESS			0
#define HV_GPCI_H_HARDWARE		(-1)
#define HV_GPCI_H_FUNCTION		(-2)
#define HV_GPCI_H_PRIVILEGE		(-3)
#define HV_GPCI_H_PARAMETER		(-4)
#define HV_GPCI_H_AUTHORITY		(-10)
#define HV_GPCI_H_NOT_AVAILABLE		3

/*
 * detail_rc of H_PARAMETER meaning "buffer too small for all the data": the
 * elements that fit were returned (Linux commit ad86d7ee43b2).
 */
#define HV_GPCI_PMU_DETAIL_BUF_TOO_SMALL	0x1B

/* Request codes of the seed (LoPAR "Platform Dependent hcall()s"). */
#define HV_GPCI_PMU_REQ_DISPATCH_BY_PROC	0x10
#define HV_GPCI_PMU_REQ_PURR_BY_PART	0x20
#define HV_GPCI_PMU_REQ_RUN_BY_PART	0x30
#define HV_GPCI_PMU_REQ_CAPABILITIES	0x40
#define HV_GPCI_PMU_REQ_BUS_ABC		0x50
#define HV_GPCI_PMU_REQ_BUS_WXYZ		0x60
#define HV_GPCI_PMU_REQ_SET_MMCRH	0x80001000	/* lab only, writes */
#define HV_GPCI_PMU_REQ_HPMCX		0x80002000	/* lab only */

/*
 * Request codes known only from IBM's getPerfCountInfo documents, through
 * Linux: hv-gpci-requests.h (the counters), hv-gpci.c (the 6.6+ system
 * information files) and lparcfg.c (0xB1).
 */
#define HV_GPCI_PMU_REQ_BUS_GX		0x70
#define HV_GPCI_PMU_REQ_BUS_MC		0x80
#define HV_GPCI_PMU_REQ_PROC_CONFIG	0x90
#define HV_GPCI_PMU_REQ_PROC_FREQ	0x91
#define HV_GPCI_PMU_REQ_CORE_UTIL	0x94
#define HV_GPCI_PMU_REQ_CORE_POWER_MODE	0x95
#define HV_GPCI_PMU_REQ_AFFINITY_VP	0xA0
#define HV_GPCI_PMU_REQ_AFFINITY_DOMAIN	0xB0
#define HV_GPCI_PMU_REQ_AFFINITY_PART	0xB1
#define HV_GPCI_PMU_REQ_PHYS_MEMORY	0xC0
#define HV_GPCI_PMU_REQ_BUS_TOPOLOGY	0xD0
#define HV_GPCI_PMU_REQ_PART_QUEUING	0xE0
#define HV_GPCI_PMU_REQ_SYS_HV_TIMES	0xF0
#define HV_GPCI_PMU_REQ_SYS_TLBIE	0xF4
#define HV_GPCI_PMU_REQ_PART_INSTR	0x100

/* Requests with bit 31 set are lab-only (the seed's two are). */
#define HV_GPCI_PMU_REQ_LAB_BIT		0x80000000U

/* starting_index asking for the current processor or partition. */
#define HV_GPCI_PMU_INDEX_CURRENT	0xffffffffU

/*
 * Below this counter_info_version the header and the 0x50/0x60 elements have
 * the layout of the public LoPAR text; from it on, the layout Linux follows
 * (IBM getPerfCountInfo v1.07+: secondary_index, a 16-bit returned_values,
 * detail_rc, cv_element_size, the version bytes, and a single total-cycles
 * value in 0x50/0x60). Linux says cv_element_size exists from version 3 on;
 * that the other differences switch at the same version is inferred.
 */
#define HV_GPCI_PMU_VERSION_EXTENDED	3
/*
 * From this version on, 0x30, 0x50, 0x60, 0x70, 0x80 and 0x94 are
 * deprecated (Linux 03f7c1d2a49a, after getPerfCountInfo v1.018).
 */
#define HV_GPCI_PMU_VERSION_DEPRECATES	8
/*
 * The newest counter_info_version whose layouts the driver knows: what the
 * named events ask for (as Linux's do) and interface/kernel_version shows.
 */
#define HV_GPCI_PMU_VERSION_CURRENT	8

/*
 * The event attribute: Linux's hv_gpci layout bit for bit (the format
 * files of its hv-gpci.c), one mask per field for the driver's format
 * files and for FIELD_GET()/FIELD_PREP(). phys_processor_idx,
 * sibling_part_id, hw_chip_id and partition_id are other names of
 * starting_index.
 */
#define HV_GPCI_PMU_CONFIG_REQUEST		GENMASK_ULL(31, 0)
#define HV_GPCI_PMU_CONFIG_STARTING_INDEX	GENMASK_ULL(63, 32)
#define HV_GPCI_PMU_CONFIG1_SECONDARY_INDEX	GENMASK_ULL(15, 0)
#define HV_GPCI_PMU_CONFIG1_COUNTER_INFO_VERSION	GENMASK_ULL(23, 16)
#define HV_GPCI_PMU_CONFIG1_LENGTH		GENMASK_ULL(31, 24)
#define HV_GPCI_PMU_CONFIG1_OFFSET		GENMASK_ULL(63, 32)

/* Capability bits of the 0x40 reply, byte 1 (Linux's hv-gpci.h). */
#define HV_GPCI_PMU_CAP_GA		0x80
#define HV_GPCI_PMU_CAP_EXPANDED		0x40
#define HV_GPCI_PMU_CAP_LAB		0x20

/**
 * struct hv_gpci_pmu_hdr - the 32-byte head of the parameter block
 * @request: Requested_Information (in)
 * @starting_index: first processor/partition/chip wanted (in); the one
 *	actually found (out)
 * @secondary_index: extended layout only (in/out)
 * @returned_values: extended layout: number of elements returned (out).
 *	In the LoPAR layout returned_values is a 32-bit field at offset 8,
 *	i.e. @secondary_index and @returned_values together.
 * @detail_rc: extended layout: detailed return code (out)
 * @cv_element_size: size of one element, version 3 and later (out)
 * @version_in: counter_info_version wanted (in)
 * @version_out: counter_info_version of the reply (out)
 * @reserved: must be zero
 *
 * All multi-byte fields are big-endian, whatever the CPU's byte order.
 */
struct hv_gpci_pmu_hdr {
	__be32 request;
	__be32 starting_index;
	__be16 secondary_index;
	__be16 returned_values;
	__be32 detail_rc;
	__be16 cv_element_size;
	u8 version_in;
	u8 version_out;
	u8 reserved[12];
} __packed;

/**
 * struct hv_gpci_pmu_ops - access to the hypervisor
 * @hcall: issue H_GetPerformanceCounterInfo on @buf, a 4 KiB-aligned
 *	kernel buffer whose first @size bytes are the parameter block (in
 *	and out). Called in process context and with interrupts disabled
 *	(IPIs), never from NMI context; must not sleep. Returns the PAPR
 *	return code (HV_GPCI_H_*).
 * @lpar_present: whether the kernel runs in a PAPR logical partition at
 *	all. Called once at probe; may sleep. NULL means yes.
 * @power10_or_later: whether the processor is POWER10 or later, where
 *	Linux 6.6+ offers the system information files of interface/
 *	(processor_bus_topology, ...). Called once at probe; may sleep.
 *	NULL means no.
 * @owner: the module providing the ops and calling hv_gpci_pmu_remove();
 *	it stays pinned while events are open
 */
struct hv_gpci_pmu_ops {
	long (*hcall)(void *ctx, void *buf, unsigned long size);
	bool (*lpar_present)(void *ctx);
	bool (*power10_or_later)(void *ctx);
	struct module *owner;
};

struct hv_gpci_pmu;

struct hv_gpci_pmu *hv_gpci_pmu_probe(const struct hv_gpci_pmu_ops *ops,
				      void *ctx, const char *name);
void hv_gpci_pmu_remove(struct hv_gpci_pmu *gpci);
int hv_gpci_pmu_lab_enable(struct hv_gpci_pmu *gpci, bool enable);
int hv_gpci_pmu_attr_check(struct hv_gpci_pmu *gpci,
			   const struct perf_event_attr *attr);
struct pmu *hv_gpci_pmu_to_pmu(struct hv_gpci_pmu *gpci);
u64 hv_gpci_pmu_hcalls(struct hv_gpci_pmu *gpci);

/* ---- Model of the hcall (pmu_kunit_models.ko) ---- */

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
/* Slots of &struct hv_gpci_model.calls_by_req, see hv_gpci_pmu_sim_calls() */
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
 * @power10: the processor is POWER10 or later (hv_gpci_pmu_ops)
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
 * @calls_by_req: calls per known request (slots: hv_gpci_pmu_sim_calls())
 * @unknown_req: calls with a request code the firmware does not know
 * @set_mmcrh: calls of the lab-only Set MMCRH request
 * @misaligned: calls whose buffer crossed a 4 KiB boundary
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
	long last_rc;
	unsigned long last_size;
	unsigned int last_cpu;
	u8 last_version_in;
};

extern const struct hv_gpci_pmu_ops hv_gpci_model_ops;

struct hv_gpci_model *hv_gpci_model_alloc(u8 version);
void hv_gpci_model_free(struct hv_gpci_model *m);
void hv_gpci_model_init(struct hv_gpci_model *m, u8 version);
long hv_gpci_model_hcall(struct hv_gpci_model *m, void *buf,
			 unsigned long size);
int hv_gpci_model_set(struct hv_gpci_model *m,
		      enum hv_gpci_model_ctr ctr, u32 id, u64 value);
u64 hv_gpci_model_get(struct hv_gpci_model *m,
		      enum hv_gpci_model_ctr ctr, u32 id);
enum hv_gpci_model_kind hv_gpci_model_ctr_kind(enum hv_gpci_model_ctr ctr);
const char *hv_gpci_model_ctr_name(enum hv_gpci_model_ctr ctr);
void hv_gpci_model_inject(struct hv_gpci_model *m, unsigned long after,
			  unsigned int count, long rc, u32 detail);
unsigned long hv_gpci_model_calls(struct hv_gpci_model *m);

/* ---- Simulated platform (pmu_kunit_models.ko; format: hv-gpci-pmu.rst) ---- */

int hv_gpci_pmu_sim_start(struct dentry *dir, struct module *owner);
void hv_gpci_pmu_sim_exit(void);
int hv_gpci_pmu_sim_inject(struct hv_gpci_model *m, char *text);
int hv_gpci_pmu_sim_error(struct hv_gpci_model *m, char *text);
void hv_gpci_pmu_sim_calls(struct hv_gpci_model *m, struct seq_file *s);
struct hv_gpci_pmu *hv_gpci_pmu_sim_pmu(void);
struct hv_gpci_model *hv_gpci_pmu_sim_model(void);

/**
 * hv_gpci_pmu_sim_init() - hv_gpci on the model, for the simulated platform
 * @dir: debugfs directory for the model's files (inject, error, calls)
 *
 * Registers the PMU ``hv_gpci`` on a model of counter_info_version 8
 * firmware (module parameter pmu_kunit_models.gpci_sim_version) with the
 * caller's module as the PMU's owner, so that the caller cannot be unloaded
 * while an event is open. See hv_gpci_pmu_sim_start().
 *
 * Return: 0, or a negative errno (nothing is left registered).
 */
static inline int hv_gpci_pmu_sim_init(struct dentry *dir)
{
	return hv_gpci_pmu_sim_start(dir, THIS_MODULE);
}

#endif /* _HV_GPCI_PMU_H */
