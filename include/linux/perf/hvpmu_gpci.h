/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hv_gpci: the PAPR H_GetPerformanceCounterInfo (hcall 0xF080) PMU.
 *
 * The driver (drivers/perf/hvpmu_gpci.c) is arch-neutral: it reaches the
 * hypervisor only through &struct hvpmu_gpci_ops. The powerpc glue supplies
 * the real hcall; the model (drivers/perf/hvpmu_gpci_model.c) supplies a
 * faithful imitation for the KUnit tests and the simulated platform.
 */
#ifndef _LINUX_PERF_HVPMU_GPCI_H
#define _LINUX_PERF_HVPMU_GPCI_H

#include <linux/export.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct dentry;
struct hvpmu_encoding;
struct module;
struct perf_event_attr;
struct seq_file;

/* The hcall token, for logs and the glue. */
#define HVPMU_GPCI_HCALL		0xF080

/*
 * The parameter block must not cross a 4 KiB boundary (the hypervisor
 * validates that it is accessible, else H_Privilege), so the driver uses one
 * 4 KiB, 4 KiB-aligned buffer per call.
 */
#define HVPMU_GPCI_BUF_SIZE		4096
#define HVPMU_GPCI_HDR_SIZE		32
#define HVPMU_GPCI_MAX_DATA		(HVPMU_GPCI_BUF_SIZE - HVPMU_GPCI_HDR_SIZE)

/*
 * PAPR hcall return codes, with the values of Linux's asm/hvcall.h, so the
 * driver and the model can be built on any architecture. H_NOT_AVAILABLE is
 * positive, like H_BUSY.
 */
#define HVPMU_H_SUCCESS			0
#define HVPMU_H_HARDWARE		(-1)
#define HVPMU_H_FUNCTION		(-2)
#define HVPMU_H_PRIVILEGE		(-3)
#define HVPMU_H_PARAMETER		(-4)
#define HVPMU_H_AUTHORITY		(-10)
#define HVPMU_H_NOT_AVAILABLE		3

/*
 * detail_rc of H_PARAMETER meaning "buffer too small for all the data": the
 * elements that fit were returned (Linux commit ad86d7ee43b2).
 */
#define HVPMU_GPCI_DETAIL_BUF_TOO_SMALL	0x1B

/* Request codes: the seed (LoPAR "Platform Dependent hcall()s"). */
#define HVPMU_GPCI_REQ_DISPATCH_BY_PROC	0x10
#define HVPMU_GPCI_REQ_PURR_BY_PART	0x20
#define HVPMU_GPCI_REQ_RUN_BY_PART	0x30
#define HVPMU_GPCI_REQ_CAPABILITIES	0x40
#define HVPMU_GPCI_REQ_BUS_ABC		0x50
#define HVPMU_GPCI_REQ_BUS_WXYZ		0x60
#define HVPMU_GPCI_REQ_SET_MMCRH	0x80001000	/* lab only, writes */
#define HVPMU_GPCI_REQ_HPMCX		0x80002000	/* lab only */

/*
 * Request codes known only from IBM's getPerfCountInfo documents, through
 * Linux's hv-gpci-requests.h. Accepted as raw events so existing event
 * strings keep working; the element size is bounded at run time.
 */
#define HVPMU_GPCI_REQ_BUS_GX		0x70
#define HVPMU_GPCI_REQ_BUS_MC		0x80
#define HVPMU_GPCI_REQ_CORE_UTIL	0x94
#define HVPMU_GPCI_REQ_PART_QUEUING	0xE0
#define HVPMU_GPCI_REQ_SYS_HV_TIMES	0xF0
#define HVPMU_GPCI_REQ_SYS_TLBIE	0xF4
#define HVPMU_GPCI_REQ_PART_INSTR	0x100

/* starting_index asking for the current processor or partition. */
#define HVPMU_GPCI_INDEX_CURRENT	0xffffffffU

/*
 * Below this counter_info_version the header and the 0x50/0x60 elements have
 * the layout of the public LoPAR text; from it on, the layout Linux follows
 * (IBM getPerfCountInfo v1.07+: secondary_index, a 16-bit returned_values,
 * detail_rc, cv_element_size, the version bytes, and a single total-cycles
 * value in 0x50/0x60). Linux says cv_element_size exists from version 3 on;
 * that the other differences switch at the same version is inferred.
 */
#define HVPMU_GPCI_VERSION_EXTENDED	3
/* From this version on, 0x30/0x50/0x60 are deprecated (Linux 03f7c1d2a49a). */
#define HVPMU_GPCI_VERSION_DEPRECATES	8

/* Capability bits of the 0x40 reply, byte 1 (Linux's hv-gpci.h). */
#define HVPMU_GPCI_CAP_GA		0x80
#define HVPMU_GPCI_CAP_EXPANDED		0x40
#define HVPMU_GPCI_CAP_LAB		0x20

/**
 * struct hvpmu_gpci_hdr - the 32-byte head of the parameter block
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
struct hvpmu_gpci_hdr {
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
 * struct hvpmu_gpci_ops - access to the hypervisor
 * @hcall: issue H_GetPerformanceCounterInfo on @buf, a 4 KiB-aligned
 *	kernel buffer of @size bytes (the parameter block, in and out).
 *	Called with interrupts disabled, also from IPI context, so it must
 *	not sleep. Returns the PAPR return code (HVPMU_H_*).
 * @lpar_present: whether the kernel runs in a PAPR logical partition at
 *	all. Called once at probe; may sleep. NULL means yes.
 * @owner: the module providing the ops and calling hvpmu_gpci_remove();
 *	it stays pinned while events are open
 */
struct hvpmu_gpci_ops {
	long (*hcall)(void *ctx, void *buf, unsigned long size);
	bool (*lpar_present)(void *ctx);
	struct module *owner;
};

struct hvpmu_gpci_pmu;

struct hvpmu_gpci_pmu *hvpmu_gpci_probe(const struct hvpmu_gpci_ops *ops,
					void *ctx, const char *name);
void hvpmu_gpci_remove(struct hvpmu_gpci_pmu *gpci);
int hvpmu_gpci_lab_enable(struct hvpmu_gpci_pmu *gpci, bool enable);
int hvpmu_gpci_attr_check(struct hvpmu_gpci_pmu *gpci,
			  const struct perf_event_attr *attr);
const struct hvpmu_encoding *hvpmu_gpci_encoding(struct hvpmu_gpci_pmu *gpci);
struct pmu *hvpmu_gpci_to_pmu(struct hvpmu_gpci_pmu *gpci);
u64 hvpmu_gpci_hcalls(struct hvpmu_gpci_pmu *gpci);

/* ---- Model of the hcall (hvpmu_models.ko) ---- */

/**
 * enum hvpmu_gpci_model_ctr - the counters a model entity carries
 * @HVPMU_GPCI_M_PROC_TIME: 0x10 processor time (PURR cycles), per processor
 * @HVPMU_GPCI_M_ENTITLED: 0x20 entitled cycles, per partition
 * @HVPMU_GPCI_M_CAPPED: 0x20 capped cycles consumed
 * @HVPMU_GPCI_M_UNCAPPED: 0x20 uncapped cycles consumed
 * @HVPMU_GPCI_M_DONATED: 0x20 cycles donated
 * @HVPMU_GPCI_M_IDLE: 0x20 partition-reported idle cycles
 * @HVPMU_GPCI_M_RUN_INSTR: 0x30 instructions while the run latch is set
 * @HVPMU_GPCI_M_RUN_CYCLES: 0x30 cycles while the run latch is set
 * @HVPMU_GPCI_M_IDLE_A: 0x50 idle cycles of link A, per chip
 * @HVPMU_GPCI_M_IDLE_B: link B
 * @HVPMU_GPCI_M_IDLE_C: link C
 * @HVPMU_GPCI_M_TIME_A: 0x50 cycles over which link A was sampled (LoPAR)
 * @HVPMU_GPCI_M_TIME_B: link B
 * @HVPMU_GPCI_M_TIME_C: link C
 * @HVPMU_GPCI_M_TOTAL_ABC: 0x50 total link cycles (extended layout)
 * @HVPMU_GPCI_M_IDLE_W: 0x60 idle cycles of link W, per chip
 * @HVPMU_GPCI_M_IDLE_X: link X
 * @HVPMU_GPCI_M_IDLE_Y: link Y
 * @HVPMU_GPCI_M_IDLE_Z: link Z
 * @HVPMU_GPCI_M_TIME_W: 0x60 cycles over which link W was sampled (LoPAR)
 * @HVPMU_GPCI_M_TIME_X: link X
 * @HVPMU_GPCI_M_TIME_Y: link Y
 * @HVPMU_GPCI_M_TIME_Z: link Z
 * @HVPMU_GPCI_M_TOTAL_WXYZ: 0x60 total link cycles (extended layout)
 * @HVPMU_GPCI_M_HPMC1: 0x80002000 (lab) HPMC1 since MMCRH was set, per proc
 * @HVPMU_GPCI_M_HPMC2: HPMC2 since MMCRH was set
 * @HVPMU_GPCI_M_NR: number of counters
 */
enum hvpmu_gpci_model_ctr {
	HVPMU_GPCI_M_PROC_TIME,
	HVPMU_GPCI_M_ENTITLED,
	HVPMU_GPCI_M_CAPPED,
	HVPMU_GPCI_M_UNCAPPED,
	HVPMU_GPCI_M_DONATED,
	HVPMU_GPCI_M_IDLE,
	HVPMU_GPCI_M_RUN_INSTR,
	HVPMU_GPCI_M_RUN_CYCLES,
	HVPMU_GPCI_M_IDLE_A,
	HVPMU_GPCI_M_IDLE_B,
	HVPMU_GPCI_M_IDLE_C,
	HVPMU_GPCI_M_TIME_A,
	HVPMU_GPCI_M_TIME_B,
	HVPMU_GPCI_M_TIME_C,
	HVPMU_GPCI_M_TOTAL_ABC,
	HVPMU_GPCI_M_IDLE_W,
	HVPMU_GPCI_M_IDLE_X,
	HVPMU_GPCI_M_IDLE_Y,
	HVPMU_GPCI_M_IDLE_Z,
	HVPMU_GPCI_M_TIME_W,
	HVPMU_GPCI_M_TIME_X,
	HVPMU_GPCI_M_TIME_Y,
	HVPMU_GPCI_M_TIME_Z,
	HVPMU_GPCI_M_TOTAL_WXYZ,
	HVPMU_GPCI_M_HPMC1,
	HVPMU_GPCI_M_HPMC2,
	HVPMU_GPCI_M_NR,
};

#define HVPMU_GPCI_MODEL_MAX_ENTITIES	128

/**
 * struct hvpmu_gpci_model_entity - one processor, partition or chip
 * @id: its index as used in starting_index (physical processor index,
 *	partition id or hardware chip id); tables are sorted by @id
 * @hw_id: 0x10: hardware processor id
 * @owner: 0x10: owning partition (0xFFFF: shared or unowned)
 * @state: 0x10: processor state (1 Not Installed ... 6 Dedicated)
 * @chip: 0x10: hardware chip id
 * @ctr: the counters of this entity, by &enum hvpmu_gpci_model_ctr
 */
struct hvpmu_gpci_model_entity {
	u32 id;
	u32 hw_id;
	u16 owner;
	u8 state;
	u32 chip;
	u64 ctr[HVPMU_GPCI_M_NR];
};

/**
 * struct hvpmu_gpci_model - the hypervisor side of H_GetPerformanceCounterInfo
 * @lock: serialises calls and updates
 * @implemented: false makes every call return H_FUNCTION (QEMU pseries)
 * @authorised: the LPAR has "performance information collection" enabled;
 *	false makes requests for other partitions or physical resources
 *	return H_AUTHORITY
 * @version: counter_info_version the firmware reports
 * @caps: capability byte of the 0x40 reply (HVPMU_GPCI_CAP_*)
 * @own_partition: id of the calling partition
 * @current_proc: physical index of the processor the call runs on
 * @procs: processors; @nr_procs in use
 * @parts: partitions; @nr_parts in use
 * @chips: chips; @nr_chips in use
 * @nr_procs: number of @procs
 * @nr_parts: number of @parts
 * @nr_chips: number of @chips
 * @mmcrh: last value set by the lab-only Set MMCRH request
 * @inj_at: error injection: fail call number @inj_at (counting from 0 in
 *	@calls) and the @inj_count - 1 calls after it with @inj_rc
 * @inj_count: number of calls to fail; 0 disables injection
 * @inj_rc: the return code to inject
 * @inj_detail: detail_rc written with @inj_rc
 * @bad_elem_size: if nonzero, reported as cv_element_size (corruption)
 * @bad_index: if nonzero, added to the returned starting_index (corruption)
 * @calls: number of calls made
 * @calls_by_req: calls per request: 0x10..0x60 by code >> 4, lab at 7
 * @unknown_req: calls with a request code the firmware does not know
 * @set_mmcrh: calls of the lab-only Set MMCRH request
 * @misaligned: calls whose buffer crossed a 4 KiB boundary
 * @last_rc: return code of the last call
 */
struct hvpmu_gpci_model {
	raw_spinlock_t lock;
	bool implemented;
	bool authorised;
	u8 version;
	u8 caps;
	u32 own_partition;
	u32 current_proc;
	struct hvpmu_gpci_model_entity procs[HVPMU_GPCI_MODEL_MAX_ENTITIES];
	struct hvpmu_gpci_model_entity parts[16];
	struct hvpmu_gpci_model_entity chips[16];
	unsigned int nr_procs;
	unsigned int nr_parts;
	unsigned int nr_chips;
	u64 mmcrh;
	unsigned long inj_at;
	unsigned int inj_count;
	long inj_rc;
	u32 inj_detail;
	u16 bad_elem_size;
	s32 bad_index;
	unsigned long calls;
	unsigned long calls_by_req[8];
	unsigned long unknown_req;
	unsigned long set_mmcrh;
	unsigned long misaligned;
	long last_rc;
};

extern const struct hvpmu_gpci_ops hvpmu_gpci_model_ops;

void hvpmu_gpci_model_init(struct hvpmu_gpci_model *m, u8 version);
long hvpmu_gpci_model_hcall(struct hvpmu_gpci_model *m, void *buf,
			    unsigned long size);
int hvpmu_gpci_model_set(struct hvpmu_gpci_model *m,
			 enum hvpmu_gpci_model_ctr ctr, u32 id, u64 value);
void hvpmu_gpci_model_inject(struct hvpmu_gpci_model *m, unsigned long after,
			     unsigned int count, long rc, u32 detail);
unsigned long hvpmu_gpci_model_calls(struct hvpmu_gpci_model *m);

/* ---- Simulated platform (hvpmu_models.ko; format: hvpmu-gpci.rst) ---- */

int hvpmu_gpci_sim_start(struct dentry *dir, struct module *owner);
void hvpmu_gpci_sim_exit(void);
int hvpmu_gpci_sim_inject(struct hvpmu_gpci_model *m, char *text);
int hvpmu_gpci_sim_error(struct hvpmu_gpci_model *m, char *text);
void hvpmu_gpci_sim_calls(struct hvpmu_gpci_model *m, struct seq_file *s);
struct hvpmu_gpci_pmu *hvpmu_gpci_sim_pmu(void);
struct hvpmu_gpci_model *hvpmu_gpci_sim_model(void);

/**
 * hvpmu_gpci_sim_init() - hv_gpci on the model, for the simulated platform
 * @dir: debugfs directory for the model's files (inject, error, calls)
 *
 * Registers the PMU ``hv_gpci`` on a model of counter_info_version 8
 * firmware (module parameter hvpmu_models.gpci_sim_version) with the
 * caller's module as the PMU's owner, so that the caller cannot be unloaded
 * while an event is open. See hvpmu_gpci_sim_start().
 *
 * Return: 0, or a negative errno (nothing is left registered).
 */
static inline int hvpmu_gpci_sim_init(struct dentry *dir)
{
	return hvpmu_gpci_sim_start(dir, THIS_MODULE);
}

#endif /* _LINUX_PERF_HVPMU_GPCI_H */
