// SPDX-License-Identifier: GPL-2.0
/*
 * hv_gpci: counters of PAPR H_GetPerformanceCounterInfo (hcall 0xF080).
 *
 * A drop-in successor of arch/powerpc/perf/hv-gpci.c (Linux 6.1 and 6.12):
 * same PMU name, format fields, named events (per counter_info_version),
 * interface/ files and errnos as seen by perf. Beyond it:
 *
 * - one snapshot per group operation: a group read, the start of a group
 *   (a TXN_ADD transaction) and the stops between pmu_disable() and
 *   pmu_enable() cost one hcall per distinct (request, starting_index,
 *   secondary_index, counter_info_version), also when the group leader is
 *   a software event;
 * - a failed hcall keeps the previous value; the reply's index, element
 *   count and element size are checked before a byte is used;
 * - per-CPU 4 KiB-aligned buffers and hcalls sized to what is read, no
 *   global lock; a read from NMI context reports the previous value;
 * - lab-only and state-changing requests are out of reach of events.
 *
 * The hypervisor is reached only through &struct hv_gpci_pmu_ops: the
 * pseries hcall at the end of this file, or the model of the KUnit suite.
 */

#define pr_fmt(fmt) "hv_gpci: " fmt

#include <kunit/visibility.h>
#include <linux/align.h>
#include <linux/bitfield.h>
#include <linux/capability.h>
#include <linux/hardirq.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/perf/pmu_format.h>
#include <linux/perf/pmu_uncore.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/workqueue.h>

#ifdef CONFIG_PPC_PSERIES
#include <linux/io.h>
#include <asm/firmware.h>
#include <asm/hvcall.h>
#include <asm/reg.h>
#endif

#include "hv_gpci_pmu.h"

/* hw.state bit: no good start value yet; the next good read sets it. */
#define GPCI_HES_UNPRIMED	0x100

/*
 * Linux's layout, bit for bit, so existing event strings keep working. The
 * four aliases are Linux's names for starting_index by request kind.
 */
static struct attribute *gpci_format_attrs[] = {
	PMU_FORMAT_FIELD(request, PMU_FORMAT_CONFIG, HV_GPCI_PMU_CONFIG_REQUEST),
	PMU_FORMAT_FIELD(starting_index, PMU_FORMAT_CONFIG,
			 HV_GPCI_PMU_CONFIG_STARTING_INDEX),
	PMU_FORMAT_FIELD(phys_processor_idx, PMU_FORMAT_CONFIG,
			 HV_GPCI_PMU_CONFIG_STARTING_INDEX),
	PMU_FORMAT_FIELD(sibling_part_id, PMU_FORMAT_CONFIG,
			 HV_GPCI_PMU_CONFIG_STARTING_INDEX),
	PMU_FORMAT_FIELD(hw_chip_id, PMU_FORMAT_CONFIG,
			 HV_GPCI_PMU_CONFIG_STARTING_INDEX),
	PMU_FORMAT_FIELD(partition_id, PMU_FORMAT_CONFIG,
			 HV_GPCI_PMU_CONFIG_STARTING_INDEX),
	PMU_FORMAT_FIELD(secondary_index, PMU_FORMAT_CONFIG1,
			 HV_GPCI_PMU_CONFIG1_SECONDARY_INDEX),
	PMU_FORMAT_FIELD(counter_info_version, PMU_FORMAT_CONFIG1,
			 HV_GPCI_PMU_CONFIG1_COUNTER_INFO_VERSION),
	PMU_FORMAT_FIELD(length, PMU_FORMAT_CONFIG1, HV_GPCI_PMU_CONFIG1_LENGTH),
	PMU_FORMAT_FIELD(offset, PMU_FORMAT_CONFIG1, HV_GPCI_PMU_CONFIG1_OFFSET),
	NULL,
};

static const struct attribute_group gpci_format_group = {
	.name = "format",
	.attrs = gpci_format_attrs,
};

/*
 * Linux's ranges (hv-gpci.c event_init): a value of 1 to 8 bytes, inside
 * the 4064 bytes of counter_value.
 */
#define GPCI_LENGTH_MIN		1
#define GPCI_LENGTH_MAX		8
#define GPCI_OFFSET_MAX		(HV_GPCI_PMU_MAX_DATA - 1)

/* Which firmware versions show an event (see gpci_variant()). */
#define V_LOPAR		BIT(0)	/* version < HV_GPCI_PMU_VERSION_EXTENDED */
#define V_EXT		BIT(1)	/* extended layout, not yet deprecating */
#define V_DEPR		BIT(2)	/* version >= HV_GPCI_PMU_VERSION_DEPRECATES */
#define V_UP_TO_7	(V_LOPAR | V_EXT)

/*
 * Named events: those of Linux's hv-gpci-requests.h, with the same name,
 * request, index term, counter_info_version, length and offset, shown on
 * the same firmware versions (Linux 03f7c1d2a49a: below 8, the "v6" list;
 * from 8, without the deprecated requests). The one exception is firmware
 * below counter_info_version 3, where the 0x50/0x60 elements have the
 * layout of the public LoPAR text (an idle and a time value per link)
 * instead of Linux's: hv-gpci-pmu.rst.
 */
#define GPCI_EV(_pfx, _n, _req, _idx, _off, _var)			\
	PMU_EVENT_ATTR_NAMED(_pfx "_" _n, perf_event_sysfs_show,	\
			     "request=" #_req "," _idx			\
			     ",counter_info_version=0x8,length=8,offset=" #_off, \
			     _var)
#define GPCI_EV_LOPAR(_pfx, _n, _req, _off)				\
	PMU_EVENT_ATTR_NAMED(_pfx "_" _n, perf_event_sysfs_show,	\
			     "request=" #_req ",hw_chip_id=?,length=8,offset=" #_off, \
			     V_LOPAR)

#define P10	"dispatch_timebase_by_processor"
#define P20	"entitled_capped_uncapped_donated_idle_timebase_by_partition"
#define P30	"run_instructions_run_cycles_by_partition"
#define P50	"processor_bus_utilization_abc_links"
#define P60	"processor_bus_utilization_wxyz_links"
#define P70	"processor_bus_utilization_gx_links"
#define P80	"processor_bus_utilization_mc_links"
#define P94	"processor_core_utilization"
#define PE0	"partition_hypervisor_queuing_times"
#define PF0	"system_hypervisor_times"
#define PF4	"system_tlbie_count_and_time"
#define P100	"partition_instruction_count_and_time"

#define EV10(n, o)	GPCI_EV(P10, n, 0x10, "phys_processor_idx=?", o, 0)
#define EV20(n, o)	GPCI_EV(P20, n, 0x20, "sibling_part_id=?", o, 0)
#define EV30(n, o)	GPCI_EV(P30, n, 0x30, "sibling_part_id=?", o, V_UP_TO_7)
#define EV50(n, o)	GPCI_EV(P50, n, 0x50, "hw_chip_id=?", o, V_EXT)
#define EV60(n, o)	GPCI_EV(P60, n, 0x60, "hw_chip_id=?", o, V_EXT)
#define EV70(n, o)	GPCI_EV(P70, n, 0x70, "hw_chip_id=?", o, V_UP_TO_7)
#define EV80(n, o)	GPCI_EV(P80, n, 0x80, "hw_chip_id=?", o, V_UP_TO_7)
#define EV94(n, o)	GPCI_EV(P94, n, 0x94, "phys_processor_idx=?", o, V_UP_TO_7)
#define EVE0(n, o)	GPCI_EV(PE0, n, 0xE0, "partition_id=?", o, 0)
#define EVF0(n, o)	GPCI_EV(PF0, n, 0xF0, "starting_index=0xffffffff", o, 0)
#define EVF4(n, o)	GPCI_EV(PF4, n, 0xF4, "starting_index=0xffffffff", o, 0)
#define EV100(n, o)	GPCI_EV(P100, n, 0x100, "partition_id=?", o, 0)

/*
 * Names repeat across layouts (0x50/0x60 below and from version 3): one
 * of each shows, as the variants of the events group's .is_visible pick.
 */
static struct attribute *gpci_event_attrs[] = {
	EV10("processor_time_in_timebase_cycles", 0x0),
	EV20("entitled_cycles", 0x8),
	EV20("consumed_capped_cycles", 0x10),
	EV20("consumed_uncapped_cycles", 0x18),
	EV20("cycles_donated", 0x20),
	EV20("purr_idle_cycles", 0x28),
	EV30("instructions_completed", 0x8),
	EV30("cycles", 0x10),
	/* LoPAR: an (idle, time) pair per link from 0x10 */
	GPCI_EV_LOPAR(P50, "idle_cycles_for_a_link", 0x50, 0x10),
	GPCI_EV_LOPAR(P50, "time_for_a_link", 0x50, 0x18),
	GPCI_EV_LOPAR(P50, "idle_cycles_for_b_link", 0x50, 0x20),
	GPCI_EV_LOPAR(P50, "time_for_b_link", 0x50, 0x28),
	GPCI_EV_LOPAR(P50, "idle_cycles_for_c_link", 0x50, 0x30),
	GPCI_EV_LOPAR(P50, "time_for_c_link", 0x50, 0x38),
	GPCI_EV_LOPAR(P60, "idle_cycles_for_w_link", 0x60, 0x10),
	GPCI_EV_LOPAR(P60, "time_for_w_link", 0x60, 0x18),
	GPCI_EV_LOPAR(P60, "idle_cycles_for_x_link", 0x60, 0x20),
	GPCI_EV_LOPAR(P60, "time_for_x_link", 0x60, 0x28),
	GPCI_EV_LOPAR(P60, "idle_cycles_for_y_link", 0x60, 0x30),
	GPCI_EV_LOPAR(P60, "time_for_y_link", 0x60, 0x38),
	GPCI_EV_LOPAR(P60, "idle_cycles_for_z_link", 0x60, 0x40),
	GPCI_EV_LOPAR(P60, "time_for_z_link", 0x60, 0x48),
	/* Extended (Linux): one total at 0x10, then idle cycles per link */
	EV50("total_link_cycles", 0x10),
	EV50("idle_cycles_for_a_link", 0x18),
	EV50("idle_cycles_for_b_link", 0x20),
	EV50("idle_cycles_for_c_link", 0x28),
	EV60("total_link_cycles", 0x10),
	EV60("idle_cycles_for_w_link", 0x18),
	EV60("idle_cycles_for_x_link", 0x20),
	EV60("idle_cycles_for_y_link", 0x28),
	EV60("idle_cycles_for_z_link", 0x30),
	EV70("gx0_in_address_cycles", 0x10),
	EV70("gx0_in_data_cycles", 0x18),
	EV70("gx0_in_retries", 0x20),
	EV70("gx0_in_bus_cycles", 0x28),
	EV70("gx0_in_cycles_total", 0x30),
	EV70("gx0_out_address_cycles", 0x38),
	EV70("gx0_out_data_cycles", 0x40),
	EV70("gx0_out_retries", 0x48),
	EV70("gx0_out_bus_cycles", 0x50),
	EV70("gx0_out_cycles_total", 0x58),
	EV70("gx1_in_address_cycles", 0x60),
	EV70("gx1_in_data_cycles", 0x68),
	EV70("gx1_in_retries", 0x70),
	EV70("gx1_in_bus_cycles", 0x78),
	EV70("gx1_in_cycles_total", 0x80),
	EV70("gx1_out_address_cycles", 0x88),
	EV70("gx1_out_data_cycles", 0x90),
	EV70("gx1_out_retries", 0x98),
	EV70("gx1_out_bus_cycles", 0xA0),
	EV70("gx1_out_cycles_total", 0xA8),
	EV80("mc0_frames", 0x10),
	EV80("mc0_reads", 0x18),
	EV80("mc0_write", 0x20),	/* sic: Linux's name */
	EV80("mc0_total_cycles", 0x28),
	EV80("mc1_frames", 0x30),
	EV80("mc1_reads", 0x38),
	EV80("mc1_writes", 0x40),
	EV80("mc1_total_cycles", 0x48),
	EV94("cycles_across_any_thread", 0x8),
	EV94("timebase_at_collection", 0x10),
	EV94("purr_cycles", 0x18),
	EV94("sum_of_cycles_across_all_threads", 0x20),
	EV94("instructions_completed", 0x28),
	EVE0("time_waiting_for_entitlement", 0x8),
	EVE0("times_waited_for_entitlement", 0x10),
	EVE0("time_waiting_for_phys_processor", 0x18),
	EVE0("times_waited_for_phys_processor", 0x20),
	EVE0("dispatches_on_home_core", 0x28),
	EVE0("dispatches_on_home_primary_affinity_domain", 0x30),
	EVE0("dispatches_on_home_secondary_affinity_domain", 0x38),
	EVE0("dispatches_off_home_secondary_affinity_domain", 0x40),
	EVE0("dispatches_on_dedicated_processor_donating_cycles", 0x48),
	EVF0("time_spent_to_dispatch_virtual_processors", 0x0),
	EVF0("time_spent_processing_virtual_processor_timers", 0x8),
	EVF0("time_spent_managing_partitions_over_entitlement", 0x10),
	EVF0("time_spent_on_system_management", 0x18),
	EVF4("tlbie_instructions_issued", 0x0),
	EVF4("time_spent_issuing_tlbies", 0x8),
	EV100("instructions_performed", 0x8),
	EV100("time_collected", 0x10),
	NULL,
};

/* What starting_index names for a request. */
enum gpci_idx_kind {
	GPCI_IDX_OTHER,		/* unknown, or not an entity of ours */
	GPCI_IDX_PROC,		/* physical processor index */
	GPCI_IDX_PART,		/* partition id */
	GPCI_IDX_CHIP,		/* hardware chip id */
};

/**
 * struct gpci_req - a counter request whose layout the driver knows
 * @code: Requested_Information
 * @kind: what its starting_index names (&enum gpci_idx_kind); the reply
 *	must echo the index asked for (LoPAR: "the actual first
 *	processor/partition id that was found")
 * @size_lopar: element size in the LoPAR layout; 0 if LoPAR lacks it
 * @size_ext: element size in the extended layout, where the firmware also
 *	reports it (cv_element_size), which wins
 */
struct gpci_req {
	u32 code;
	u8 kind;
	u16 size_lopar;
	u16 size_ext;
};

static const struct gpci_req gpci_reqs[] = {
	{ HV_GPCI_PMU_REQ_DISPATCH_BY_PROC, GPCI_IDX_PROC, 0x30, 0x30 },
	{ HV_GPCI_PMU_REQ_PURR_BY_PART, GPCI_IDX_PART, 0x30, 0x30 },
	{ HV_GPCI_PMU_REQ_RUN_BY_PART, GPCI_IDX_PART, 0x18, 0x18 },
	{ HV_GPCI_PMU_REQ_CAPABILITIES, GPCI_IDX_OTHER, 0x10, 0x10 },
	{ HV_GPCI_PMU_REQ_BUS_ABC, GPCI_IDX_CHIP, 0x40, 0x50 },
	{ HV_GPCI_PMU_REQ_BUS_WXYZ, GPCI_IDX_CHIP, 0x50, 0x60 },
	{ HV_GPCI_PMU_REQ_BUS_GX, GPCI_IDX_CHIP, 0, 0xB0 },
	{ HV_GPCI_PMU_REQ_BUS_MC, GPCI_IDX_CHIP, 0, 0x50 },
	{ HV_GPCI_PMU_REQ_CORE_UTIL, GPCI_IDX_PROC, 0, 0x30 },
	{ HV_GPCI_PMU_REQ_PART_QUEUING, GPCI_IDX_PART, 0, 0x50 },
	{ HV_GPCI_PMU_REQ_SYS_HV_TIMES, GPCI_IDX_OTHER, 0, 0x20 },
	{ HV_GPCI_PMU_REQ_SYS_TLBIE, GPCI_IDX_OTHER, 0, 0x10 },
	{ HV_GPCI_PMU_REQ_PART_INSTR, GPCI_IDX_PART, 0, 0x18 },
	/* seed: u32 id, u32 reserved, then 8 u64 values */
	{ HV_GPCI_PMU_REQ_HPMCX, GPCI_IDX_PROC, 0x48, 0x48 },
};

/* The request key of an event: what one hcall answers. */
struct gpci_key {
	u32 request;
	u32 index;
	u16 secondary;
	u8 version;
};

/* Operations of a batch (&struct gpci_event.pending) */
#define GPCI_OP_STOP	BIT(0)	/* fold the final value, then stopped */
#define GPCI_OP_START	BIT(1)	/* take the start value */

/**
 * struct gpci_event - per-event state (perf_event.pmu_private)
 * @event: the event
 * @key: request, index, secondary index and version it asks for
 * @req: the request's layout, or NULL if the driver does not know it
 * @offset: byte offset of the value in counter_value
 * @length: bytes of the value
 * @need: bytes of counter_value its hcalls ask for
 * @ext: the reply had the extended layout at event_init
 * @pending: GPCI_OP_* waiting in this CPU's batch
 * @node: in the CPU's batch, or in a snapshot list
 * @cache: value for this event from the current group pass (software
 *	leader), valid while @cache_gen is the CPU's generation
 * @cache_err: error of that pass for this event
 * @cache_gen: generation of @cache; 0 for none
 */
struct gpci_event {
	struct perf_event *event;
	struct gpci_key key;
	const struct gpci_req *req;
	u32 offset;
	u8 length;
	u16 need;
	bool ext;
	u8 pending;
	struct list_head node;
	u64 cache;
	int cache_err;
	u64 cache_gen;
};

/* Why a request failed, for the log (GPCI_BAD_* or an hcall's rc). */
#define GPCI_BAD_ENTITY		1	/* no data for the index asked for */
#define GPCI_BAD_SIZE		2	/* offset + length past the data */
#define GPCI_BAD_LAYOUT		3	/* the reply's layout changed */
#define GPCI_MSG_RC		4	/* the hcall failed */

/**
 * struct gpci_msg - a log message of a read, start or stop
 * @what: GPCI_BAD_* or GPCI_MSG_RC
 * @request: the request
 * @index: its starting_index
 * @rc: GPCI_MSG_RC: the hcall's return code
 * @offset: GPCI_BAD_SIZE: the event's offset
 * @length: GPCI_BAD_SIZE: the event's length
 */
struct gpci_msg {
	u8 what;
	u32 request;
	u32 index;
	long rc;
	u32 offset;
	u8 length;
};

#define GPCI_MSGS	8

/**
 * struct gpci_cpu - per-CPU state
 * @buf: 4 KiB-aligned parameter block of this CPU
 * @busy: @buf is in use; a read arriving then (NMI) keeps its value
 * @disabled: between pmu_disable() and pmu_enable()
 * @txn: flags of the open transaction
 * @txn_read: events read in a read transaction, read at its commit
 * @batch: events with pending operations, done at commit or pmu_enable()
 * @gen: generation of group passes with a software leader
 */
struct gpci_cpu {
	u8 *buf;
	bool busy;
	bool disabled;
	unsigned int txn;
	struct list_head txn_read;
	struct list_head batch;
	u64 gen;
};

/**
 * struct hv_gpci_pmu - one hv_gpci PMU
 * @uncore: the perf PMU with its designated CPU
 * @ops: the backend
 * @ctx: the backend's context
 * @cpu: per-CPU buffers and batches
 * @version: counter_info_version the firmware reports (probe of 0x10)
 * @caps: capability byte of the 0x40 reply at probe (HV_GPCI_PMU_CAP_*)
 * @sysinfo: the system information files are shown
 * @lab_enabled: root allowed the lab-only HPMCx request
 * @hcalls: hcalls issued
 * @read_errors: reads, starts and stops that kept the previous value
 * @msg_lock: protects @msgs, @nr_msgs and @lost_msgs
 * @msgs: messages of the read paths, printed by @msg_print
 * @nr_msgs: entries of @msgs in use
 * @lost_msgs: messages that found @msgs full
 * @msg_print: prints @msgs from process context
 * @variants: which named events events/ shows: gpci_variant() of @version
 */
struct hv_gpci_pmu {
	struct pmu_uncore uncore;
	const struct hv_gpci_pmu_ops *ops;
	void *ctx;
	struct gpci_cpu __percpu *cpu;
	u8 version;
	u8 caps;
	bool sysinfo;
	bool lab_enabled;
	atomic64_t hcalls;
	atomic64_t read_errors;
	raw_spinlock_t msg_lock;
	struct gpci_msg msgs[GPCI_MSGS];
	unsigned int nr_msgs;
	unsigned long lost_msgs;
	struct pmu_defer msg_print;
	u32 variants;
};

static struct hv_gpci_pmu *to_gpci(struct pmu *pmu)
{
	return container_of(pmu_uncore_from_pmu(pmu), struct hv_gpci_pmu,
			    uncore);
}

static struct gpci_event *to_gev(struct perf_event *event)
{
	return event->pmu_private;
}

static const struct gpci_req *gpci_find_req(u32 code)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(gpci_reqs); i++)
		if (gpci_reqs[i].code == code)
			return &gpci_reqs[i];
	return NULL;
}

static bool gpci_ext(u8 version)
{
	return version >= HV_GPCI_PMU_VERSION_EXTENDED;
}

static u32 gpci_variant(u8 version)
{
	if (!gpci_ext(version))
		return V_LOPAR;
	if (version < HV_GPCI_PMU_VERSION_DEPRECATES)
		return V_EXT;
	return V_DEPR;
}

/*
 * How each return code is explained in the log, and the errno of
 * perf_event_open(). The errnos are Linux's where perf treats them alike:
 * EPERM for H_AUTHORITY (Linux ad86d7ee43b2), EOPNOTSUPP where Linux says
 * EINVAL for a request this firmware lacks (perf stat shows both as
 * "<not supported>" and goes on), EINVAL for everything else.
 */
static const struct {
	long rc;
	int err;
	const char *cause;
} gpci_rcs[] = {
	{ HV_GPCI_H_PRIVILEGE, -EINVAL,
	  "H_PRIVILEGE: the hypervisor cannot access the parameter block" },
	{ HV_GPCI_H_PARAMETER, -EINVAL,
	  "H_PARAMETER: the hypervisor rejected the request or its index" },
	{ HV_GPCI_H_NOT_AVAILABLE, -EOPNOTSUPP,
	  "H_NOT_AVAILABLE: not provided by this firmware level or platform" },
	/* the HMC partition property that grants the permission */
	{ HV_GPCI_H_AUTHORITY, -EPERM,
	  "H_AUTHORITY: this LPAR lacks permission: enable \"Allow performance information collection\" for it on the HMC",
	},
	{ HV_GPCI_H_FUNCTION, -EINVAL,
	  "H_FUNCTION: the hypervisor does not implement H_GetPerformanceCounterInfo" },
	{ HV_GPCI_H_HARDWARE, -EINVAL, "H_HARDWARE: hardware error" },
};

static const char *gpci_rc_cause(long rc)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(gpci_rcs); i++)
		if (gpci_rcs[i].rc == rc)
			return gpci_rcs[i].cause;
	return "unexpected return code";
}

static int gpci_rc_errno(long rc)
{
	unsigned int i;

	if (rc == HV_GPCI_H_SUCCESS)
		return 0;
	for (i = 0; i < ARRAY_SIZE(gpci_rcs); i++)
		if (gpci_rcs[i].rc == rc)
			return gpci_rcs[i].err;
	return -EINVAL;
}

/* Process context: print at once (rate-limited per kind). */
static void gpci_print_msg(const struct gpci_msg *m)
{
	switch (m->what) {
	case GPCI_MSG_RC:
		pr_info_ratelimited("request 0x%x index 0x%x: %s (rc %ld)\n",
				    m->request, m->index, gpci_rc_cause(m->rc),
				    m->rc);
		break;
	case GPCI_BAD_ENTITY:
		pr_info_ratelimited("request 0x%x: no entity with index 0x%x\n",
				    m->request, m->index);
		break;
	case GPCI_BAD_SIZE:
		pr_info_ratelimited("request 0x%x index 0x%x: the reply has no byte 0x%x (offset 0x%x, length %u)\n",
				    m->request, m->index,
				    m->offset + m->length - 1, m->offset,
				    m->length);
		break;
	case GPCI_BAD_LAYOUT:
		pr_warn_ratelimited("request 0x%x: reply layout changed (counter_info_version moved across %u); reopen the event\n",
				    m->request, HV_GPCI_PMU_VERSION_EXTENDED);
		break;
	}
}

static void gpci_log_rc(const struct gpci_key *key, long rc)
{
	struct gpci_msg m = {
		.what = GPCI_MSG_RC, .request = key->request,
		.index = key->index, .rc = rc,
	};

	gpci_print_msg(&m);
}

static bool gpci_same_key(const struct gpci_key *x, const struct gpci_key *y)
{
	return x->request == y->request && x->index == y->index &&
	       x->secondary == y->secondary && x->version == y->version;
}

/*
 * One hcall for @key on @buf, a 4 KiB-aligned block of which @size bytes
 * are passed. Below counter_info_version 3 the secondary index and version
 * bytes are LoPAR's reserved words and stay zero.
 */
static long gpci_hcall(struct hv_gpci_pmu *gpci, u8 *buf,
		       const struct gpci_key *key, unsigned int size)
{
	struct hv_gpci_pmu_hdr *h = (struct hv_gpci_pmu_hdr *)buf;
	long rc;

	memset(buf, 0, size);
	h->request = cpu_to_be32(key->request);
	h->starting_index = cpu_to_be32(key->index);
	if (gpci_ext(gpci->version)) {
		h->secondary_index = cpu_to_be16(key->secondary);
		h->version_in = key->version;
	}
	rc = gpci->ops->hcall(gpci->ctx, buf, size);
	atomic64_inc(&gpci->hcalls);
	/* Not all elements fitted; the first ones, which we read, did. */
	if (rc == HV_GPCI_H_PARAMETER && gpci_ext(gpci->version) &&
	    be32_to_cpu(h->detail_rc) == HV_GPCI_PMU_DETAIL_BUF_TOO_SMALL)
		rc = HV_GPCI_H_SUCCESS;
	return rc;
}

/* Elements in a reply, in its layout (LoPAR: a u32 at offset 8). */
static u32 gpci_nvals(const struct hv_gpci_pmu_hdr *h)
{
	if (gpci_ext(h->version_out))
		return be16_to_cpu(h->returned_values);
	return get_unaligned_be32(&h->secondary_index);
}

/*
 * Bytes of counter_value a reply holds: its element size (reported from
 * version 3 on, else the request's known layout) times its elements.
 * Unknown layouts without cv_element_size are bounded by the buffer, as
 * in Linux.
 */
static u32 gpci_data_bound(const struct hv_gpci_pmu_hdr *h,
			   const struct gpci_req *r, u32 nvals)
{
	bool ext = gpci_ext(h->version_out);
	u32 esize = ext ? be16_to_cpu(h->cv_element_size) : 0;

	if (!esize && r)
		esize = ext ? r->size_ext : r->size_lopar;
	if (!esize)
		return HV_GPCI_PMU_MAX_DATA;
	return min_t(u32, nvals * esize, HV_GPCI_PMU_MAX_DATA);
}

/*
 * Take @gev's value out of the reply in @buf, after checking that the
 * reply is about the entity asked for, in the layout the event was set up
 * for, and long enough for offset + length. Returns 0 or GPCI_BAD_*.
 */
static int gpci_extract(const u8 *buf, const struct gpci_event *gev,
			u64 *val)
{
	const struct hv_gpci_pmu_hdr *h = (const void *)buf;
	u32 nvals = gpci_nvals(h), i;
	const u8 *p;

	if (gpci_ext(h->version_out) != gev->ext)
		return GPCI_BAD_LAYOUT;
	if (!nvals)
		return GPCI_BAD_ENTITY;
	if (gev->req && gev->req->kind != GPCI_IDX_OTHER &&
	    gev->key.index != HV_GPCI_PMU_INDEX_CURRENT &&
	    be32_to_cpu(h->starting_index) != gev->key.index)
		return GPCI_BAD_ENTITY;
	if (gev->offset + gev->length > gpci_data_bound(h, gev->req, nvals))
		return GPCI_BAD_SIZE;
	p = buf + HV_GPCI_PMU_HDR_SIZE + gev->offset;
	*val = 0;
	for (i = 0; i < gev->length; i++)
		*val = (*val << 8) | p[i];
	return 0;
}

static struct gpci_msg gpci_bad_msg(const struct gpci_event *gev, int bad)
{
	return (struct gpci_msg) {
		.what = bad, .request = gev->key.request,
		.index = gev->key.index, .offset = gev->offset,
		.length = gev->length,
	};
}

static void gpci_log_bad(const struct gpci_event *gev, int bad)
{
	struct gpci_msg m = gpci_bad_msg(gev, bad);

	gpci_print_msg(&m);
}

/*
 * Reads, starts and stops run under perf's raw context lock with
 * interrupts off, where the console must not be called: their messages
 * wait for a work item (one queue per PMU, the oldest kept).
 */
static void gpci_defer_msg(struct hv_gpci_pmu *gpci,
			   const struct gpci_msg *m)
{
	unsigned long flags;

	if (!m->what)
		return;
	raw_spin_lock_irqsave(&gpci->msg_lock, flags);
	if (gpci->nr_msgs < GPCI_MSGS)
		gpci->msgs[gpci->nr_msgs++] = *m;
	else
		gpci->lost_msgs++;
	raw_spin_unlock_irqrestore(&gpci->msg_lock, flags);
	pmu_defer_queue(&gpci->msg_print);
}

static void gpci_defer_rc(struct hv_gpci_pmu *gpci,
			  const struct gpci_key *key, long rc)
{
	struct gpci_msg m = {
		.what = GPCI_MSG_RC, .request = key->request,
		.index = key->index, .rc = rc,
	};

	gpci_defer_msg(gpci, &m);
}

static void gpci_defer_bad(struct hv_gpci_pmu *gpci,
			   const struct gpci_event *gev, int bad)
{
	struct gpci_msg m = gpci_bad_msg(gev, bad);

	gpci_defer_msg(gpci, &m);
}

static void gpci_msg_work(struct work_struct *work)
{
	struct hv_gpci_pmu *gpci = container_of(work, struct hv_gpci_pmu,
						   msg_print.work);
	struct gpci_msg msgs[GPCI_MSGS];
	unsigned long flags, lost;
	unsigned int i, nr;

	raw_spin_lock_irqsave(&gpci->msg_lock, flags);
	nr = gpci->nr_msgs;
	memcpy(msgs, gpci->msgs, nr * sizeof(msgs[0]));
	lost = gpci->lost_msgs;
	gpci->nr_msgs = 0;
	gpci->lost_msgs = 0;
	raw_spin_unlock_irqrestore(&gpci->msg_lock, flags);

	for (i = 0; i < nr; i++)
		gpci_print_msg(&msgs[i]);
	if (lost)
		pr_info_ratelimited("%lu more messages of reads not shown\n",
				    lost);
}

/* Fold a good value into the count; an error keeps the previous one. */
static void gpci_account(struct hv_gpci_pmu *gpci, struct perf_event *event,
			 int err, u64 now)
{
	if (err) {
		atomic64_inc(&gpci->read_errors);
		return;
	}
	if (event->hw.state & GPCI_HES_UNPRIMED) {
		local64_set(&event->hw.prev_count, now);
		event->hw.state &= ~GPCI_HES_UNPRIMED;
		return;
	}
	/* Values shorter than 8 bytes wrap at their width. */
	pmu_counter_fold(event, now, 8 * to_gev(event)->length);
}

/*
 * The CPU's buffer, unless it is in use already: a read from NMI context
 * (perf_event_read_local() in a PMI or a BPF program) never makes an hcall
 * and must not corrupt one in progress. Interrupts are off.
 */
static struct gpci_cpu *gpci_claim(struct hv_gpci_pmu *gpci)
{
	struct gpci_cpu *c = this_cpu_ptr(gpci->cpu);

	if (in_nmi() || c->busy)
		return NULL;
	c->busy = true;
	return c;
}

static void gpci_release(struct gpci_cpu *c)
{
	c->busy = false;
}

/* Read one event on its own: one hcall. */
static void gpci_update(struct hv_gpci_pmu *gpci, struct perf_event *event)
{
	struct gpci_event *gev = to_gev(event);
	struct gpci_cpu *c = gpci_claim(gpci);
	u64 now = 0;
	long rc;
	int err;

	if (!c) {
		gpci_account(gpci, event, -EBUSY, 0);
		return;
	}
	rc = gpci_hcall(gpci, c->buf, &gev->key,
			HV_GPCI_PMU_HDR_SIZE + gev->need);
	if (rc) {
		gpci_defer_rc(gpci, &gev->key, rc);
		err = -EIO;
	} else {
		err = gpci_extract(c->buf, gev, &now);
		if (err)
			gpci_defer_bad(gpci, gev, err);
	}
	gpci_release(c);
	gpci_account(gpci, event, err, now);
}

/*
 * One hcall per distinct key for the events on @list (linked by node),
 * each hcall asking for as many bytes as the neediest of its events; then
 * @apply(event, err, value) for each, which empties the list.
 */
static void gpci_snapshot(struct hv_gpci_pmu *gpci, struct list_head *list,
			  void (*apply)(struct hv_gpci_pmu *gpci,
					struct gpci_event *gev, int err,
					u64 now))
{
	struct gpci_event *first, *gev, *tmp;
	struct gpci_cpu *c;

	if (list_empty(list))
		return;
	c = gpci_claim(gpci);
	while (!list_empty(list)) {
		unsigned int need = 0;
		long rc = -EBUSY;

		first = list_first_entry(list, struct gpci_event, node);
		list_for_each_entry(gev, list, node)
			if (gpci_same_key(&gev->key, &first->key))
				need = max_t(unsigned int, need, gev->need);
		if (c) {
			rc = gpci_hcall(gpci, c->buf, &first->key,
					HV_GPCI_PMU_HDR_SIZE + need);
			if (rc)
				gpci_defer_rc(gpci, &first->key, rc);
		}
		list_for_each_entry_safe(gev, tmp, list, node) {
			u64 now = 0;
			int err = rc ? -EIO : 0;

			if (!gpci_same_key(&gev->key, &first->key))
				continue;
			list_del_init(&gev->node);
			if (!err) {
				err = gpci_extract(c->buf, gev, &now);
				if (err)
					gpci_defer_bad(gpci, gev, err);
			}
			apply(gpci, gev, err, now);
		}
	}
	if (c)
		gpci_release(c);
}

/* Batched stops and starts, in the order they came. */
static void gpci_apply_pending(struct hv_gpci_pmu *gpci,
			       struct gpci_event *gev, int err, u64 now)
{
	struct perf_event *event = gev->event;
	u8 ops = gev->pending;

	gev->pending = 0;
	if (ops & GPCI_OP_STOP)
		gpci_account(gpci, event, err, now);
	if (ops & GPCI_OP_START) {
		event->hw.state |= GPCI_HES_UNPRIMED;
		gpci_account(gpci, event, err, now);
	}
}

static void gpci_flush(struct hv_gpci_pmu *gpci, struct gpci_cpu *c)
{
	gpci_snapshot(gpci, &c->batch, gpci_apply_pending);
}

/*
 * Queue @op for @gev until the batch is done. A stop of an event whose
 * start is still queued cancels the start: it never counted.
 */
static void gpci_queue(struct gpci_cpu *c, struct gpci_event *gev, u8 op)
{
	if (op == GPCI_OP_STOP && (gev->pending & GPCI_OP_START)) {
		gev->pending &= ~GPCI_OP_START;
		if (!gev->pending)
			list_del_init(&gev->node);
		return;
	}
	if (!gev->pending)
		list_add_tail(&gev->node, &c->batch);
	gev->pending |= op;
}

/* In a TXN_ADD or between pmu_disable() and pmu_enable(). */
static bool gpci_batching(struct gpci_cpu *c)
{
	return c->disabled || (c->txn & PERF_PMU_TXN_ADD);
}

static void gpci_start(struct perf_event *event, int flags)
{
	struct hv_gpci_pmu *gpci = to_gpci(event->pmu);
	struct gpci_cpu *c = this_cpu_ptr(gpci->cpu);

	/* a queued stop still folds the old start value: unprimed later */
	if (gpci_batching(c)) {
		event->hw.state = 0;
		gpci_queue(c, to_gev(event), GPCI_OP_START);
	} else {
		event->hw.state = GPCI_HES_UNPRIMED;
		gpci_update(gpci, event);
	}
}

static void gpci_stop(struct perf_event *event, int flags)
{
	struct hv_gpci_pmu *gpci = to_gpci(event->pmu);
	struct gpci_cpu *c = this_cpu_ptr(gpci->cpu);

	if (event->hw.state & PERF_HES_STOPPED)
		return;
	if (flags & PERF_EF_UPDATE) {
		if (gpci_batching(c))
			gpci_queue(c, to_gev(event), GPCI_OP_STOP);
		else
			gpci_update(gpci, event);
	}
	event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int gpci_add(struct perf_event *event, int flags)
{
	to_gev(event)->cache_gen = 0;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		gpci_start(event, flags);
	return 0;
}

static void gpci_del(struct perf_event *event, int flags)
{
	gpci_stop(event, PERF_EF_UPDATE);
	to_gev(event)->cache_gen = 0;
}

static bool gpci_counting(struct perf_event *event, struct pmu *pmu)
{
	return event->pmu == pmu && event->state == PERF_EVENT_STATE_ACTIVE &&
	       !(event->hw.state & PERF_HES_STOPPED);
}

static void gpci_apply_read(struct hv_gpci_pmu *gpci,
			    struct gpci_event *gev, int err, u64 now)
{
	gpci_account(gpci, gev->event, err, now);
}

static void gpci_apply_cache(struct hv_gpci_pmu *gpci,
			     struct gpci_event *gev, int err, u64 now)
{
	gev->cache = now;
	gev->cache_err = err;
	gev->cache_gen = this_cpu_ptr(gpci->cpu)->gen;
}

/*
 * A read of one of our events in a group led by another PMU's event (a
 * software event: perf core reads the group in the leader's transaction,
 * which is not ours). The first of our counting events starts a pass: one
 * snapshot for all of them, each keeping its value until its own read in
 * this pass (a generation per CPU tells passes apart). Returns false when
 * the event is to be read on its own.
 */
static bool gpci_read_foreign_group(struct hv_gpci_pmu *gpci,
				    struct perf_event *event)
{
	struct pmu *pmu = &gpci->uncore.pmu;
	struct gpci_cpu *c = this_cpu_ptr(gpci->cpu);
	struct perf_event *leader = event->group_leader, *sib, *first = NULL;
	struct gpci_event *gev = to_gev(event);
	LIST_HEAD(list);

	for_each_sibling_event(sib, leader) {
		if (gpci_counting(sib, pmu)) {
			first = sib;
			break;
		}
	}
	if (first != event) {
		if (!gev->cache_gen || gev->cache_gen != c->gen)
			return false;
		gev->cache_gen = 0;
		gpci_account(gpci, event, gev->cache_err, gev->cache);
		return true;
	}

	c->gen++;
	for_each_sibling_event(sib, leader)
		if (gpci_counting(sib, pmu))
			list_add_tail(&to_gev(sib)->node, &list);
	gpci_snapshot(gpci, &list, gpci_apply_cache);
	gev->cache_gen = 0;
	gpci_account(gpci, event, gev->cache_err, gev->cache);
	return true;
}

static void gpci_read(struct perf_event *event)
{
	struct hv_gpci_pmu *gpci = to_gpci(event->pmu);
	struct gpci_cpu *c = this_cpu_ptr(gpci->cpu);
	struct perf_event *leader = event->group_leader;

	if (event->hw.state & PERF_HES_STOPPED)
		return;
	/* In a read transaction, commit_txn() reads the whole group. */
	if (c->txn & PERF_PMU_TXN_READ) {
		struct gpci_event *gev = to_gev(event);

		if (list_empty(&gev->node))
			list_add_tail(&gev->node, &c->txn_read);
		return;
	}
	/* perf_event_read_local() from NMI: keep the previous value */
	if (in_nmi()) {
		atomic64_inc(&gpci->read_errors);
		return;
	}
	if (leader != event && leader->pmu != event->pmu &&
	    gpci_read_foreign_group(gpci, event))
		return;
	gpci_update(gpci, event);
}

static void gpci_start_txn(struct pmu *pmu, unsigned int flags)
{
	struct gpci_cpu *c = this_cpu_ptr(to_gpci(pmu)->cpu);

	c->txn = flags;
}

static void gpci_cancel_txn(struct pmu *pmu)
{
	struct gpci_cpu *c = this_cpu_ptr(to_gpci(pmu)->cpu);
	struct gpci_event *gev, *tmp;

	/* the events added were deleted again, cancelling their starts */
	c->txn = 0;
	list_for_each_entry_safe(gev, tmp, &c->txn_read, node)
		list_del_init(&gev->node);
}

static int gpci_commit_txn(struct pmu *pmu)
{
	struct hv_gpci_pmu *gpci = to_gpci(pmu);
	struct gpci_cpu *c = this_cpu_ptr(gpci->cpu);
	unsigned int flags = c->txn;

	c->txn = 0;
	/* One snapshot per request key for the whole group */
	gpci_snapshot(gpci, &c->txn_read, gpci_apply_read);
	/* Starts of a TXN_ADD: now, or with the stops at pmu_enable(). */
	if ((flags & PERF_PMU_TXN_ADD) && !c->disabled)
		gpci_flush(gpci, c);
	return 0;
}

static void gpci_pmu_disable(struct pmu *pmu)
{
	this_cpu_ptr(to_gpci(pmu)->cpu)->disabled = true;
}

static void gpci_pmu_enable(struct pmu *pmu)
{
	struct hv_gpci_pmu *gpci = to_gpci(pmu);
	struct gpci_cpu *c = this_cpu_ptr(gpci->cpu);

	c->disabled = false;
	gpci_flush(gpci, c);
}

/**
 * hv_gpci_pmu_attr_check() - the checks of event_init that need no hcall
 * @gpci: the PMU
 * @attr: the event attribute
 *
 * Unknown bits and out-of-range fields (length 1-8, offset + length within
 * the 4064 bytes of counter_value, as Linux), requests of the lab range
 * (bit 31) other than Retrieve HPMCx, which needs the firmware's lab
 * capability and root's consent. Every other request, secondary index and
 * version goes to the hypervisor, as in Linux.
 *
 * Return: 0, -EINVAL, -EOPNOTSUPP (not on this firmware) or -EPERM (lab
 * request not enabled).
 */
int hv_gpci_pmu_attr_check(struct hv_gpci_pmu *gpci,
			   const struct perf_event_attr *attr)
{
	u32 req, off, len;
	int ret;

	ret = pmu_format_check(gpci_format_attrs, attr);
	if (ret)
		return ret;
	off = FIELD_GET(HV_GPCI_PMU_CONFIG1_OFFSET, attr->config1);
	len = FIELD_GET(HV_GPCI_PMU_CONFIG1_LENGTH, attr->config1);
	if (len < GPCI_LENGTH_MIN || len > GPCI_LENGTH_MAX ||
	    off > GPCI_OFFSET_MAX)
		return -EINVAL;
	req = FIELD_GET(HV_GPCI_PMU_CONFIG_REQUEST, attr->config);
	if (req & HV_GPCI_PMU_REQ_LAB_BIT) {
		/* Set MMCRH and the unknown ones may change state */
		if (req != HV_GPCI_PMU_REQ_HPMCX)
			return -EINVAL;
		if (!(gpci->caps & HV_GPCI_PMU_CAP_LAB))
			return -EOPNOTSUPP;
		if (!READ_ONCE(gpci->lab_enabled))
			return -EPERM;
	}
	if (off + len > HV_GPCI_PMU_MAX_DATA)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(hv_gpci_pmu_attr_check);

struct gpci_init_probe {
	struct hv_gpci_pmu *gpci;
	struct gpci_event *gev;
	long rc;
	int bad;
	u16 esize;
};

/* On the event's CPU: where starting_index -1 means "this processor". */
static void gpci_init_probe_fn(void *info)
{
	struct gpci_init_probe *p = info;
	struct gpci_cpu *c = gpci_claim(p->gpci);
	const struct hv_gpci_pmu_hdr *h;
	u64 now;

	if (!c) {
		p->rc = HV_GPCI_H_HARDWARE;
		return;
	}
	h = (const void *)c->buf;
	p->rc = gpci_hcall(p->gpci, c->buf, &p->gev->key, HV_GPCI_PMU_BUF_SIZE);
	if (!p->rc) {
		p->gev->ext = gpci_ext(h->version_out);
		p->esize = p->gev->ext ? be16_to_cpu(h->cv_element_size) : 0;
		p->bad = gpci_extract(c->buf, p->gev, &now);
	}
	gpci_release(c);
}

/* Mixed groups: our events and software events only. */
static bool gpci_group_ok(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *sib;

	if (leader == event)
		return true;
	if (leader->pmu != event->pmu && !is_software_event(leader))
		return false;
	/* perf_try_init_event() holds the leader's ctx->mutex */
	for_each_sibling_event(sib, leader)
		if (sib->pmu != event->pmu && !is_software_event(sib))
			return false;
	return true;
}

static void gpci_event_destroy(struct perf_event *event)
{
	/* del() ran, and pmu_enable() after it: nothing can be queued */
	WARN_ON_ONCE(!list_empty(&to_gev(event)->node));
	kfree(event->pmu_private);
	event->pmu_private = NULL;
}

static int gpci_event_init(struct perf_event *event)
{
	struct hv_gpci_pmu *gpci = to_gpci(event->pmu);
	const struct perf_event_attr *a = &event->attr;
	struct gpci_init_probe p = { .gpci = gpci };
	struct gpci_event *gev;
	u16 esize;
	int ret;

	if (a->type != event->pmu->type)
		return -ENOENT;
	if (is_sampling_event(event) || has_branch_stack(event))
		return -EOPNOTSUPP;
	/* per-task events are refused by the core (perf_invalid_context) */
	if (event->cpu < 0 || (event->attach_state & PERF_ATTACH_TASK))
		return -EINVAL;
	/* the core refuses them too (NO_EXCLUDE): spare the hcall */
	if (a->exclude_user || a->exclude_kernel || a->exclude_hv ||
	    a->exclude_idle || a->exclude_host || a->exclude_guest)
		return -EINVAL;
	if (!gpci_group_ok(event))
		return -EINVAL;
	ret = hv_gpci_pmu_attr_check(gpci, a);
	if (ret)
		return ret;

	gev = kzalloc(sizeof(*gev), GFP_KERNEL);
	if (!gev)
		return -ENOMEM;
	gev->event = event;
	INIT_LIST_HEAD(&gev->node);
	gev->key = (struct gpci_key) {
		.request = FIELD_GET(HV_GPCI_PMU_CONFIG_REQUEST, a->config),
		.index = FIELD_GET(HV_GPCI_PMU_CONFIG_STARTING_INDEX, a->config),
		.secondary = FIELD_GET(HV_GPCI_PMU_CONFIG1_SECONDARY_INDEX,
				       a->config1),
		.version = FIELD_GET(HV_GPCI_PMU_CONFIG1_COUNTER_INFO_VERSION,
				     a->config1),
	};
	gev->req = gpci_find_req(gev->key.request);
	gev->offset = FIELD_GET(HV_GPCI_PMU_CONFIG1_OFFSET, a->config1);
	gev->length = FIELD_GET(HV_GPCI_PMU_CONFIG1_LENGTH, a->config1);

	/*
	 * Ask once now, on the event's CPU (which the event keeps: perf asked
	 * for it), so that a missing entity, a refused permission or a
	 * request this firmware lacks is an errno from perf_event_open(), and
	 * learn the reply's layout and element size.
	 */
	p.gev = gev;
	ret = smp_call_function_single(event->cpu, gpci_init_probe_fn, &p, 1);
	if (ret) {
		ret = -ENODEV;
		goto err;
	}
	if (p.rc) {
		gpci_log_rc(&gev->key, p.rc);
		ret = gpci_rc_errno(p.rc);
		goto err;
	}
	if (p.bad) {
		gpci_log_bad(gev, p.bad);
		ret = -EINVAL;
		goto err;
	}
	/*
	 * Later hcalls ask only for the elements up to the value. LoPAR has
	 * no detail_rc to say "buffer too small": there, always 4 KiB.
	 */
	esize = p.esize;
	if (!esize && gev->req && gev->ext)
		esize = gev->req->size_ext;
	if (esize && gev->ext && gpci_ext(gpci->version))
		gev->need = min_t(u32, roundup(gev->offset + gev->length, esize),
				  HV_GPCI_PMU_MAX_DATA);
	else
		gev->need = HV_GPCI_PMU_MAX_DATA;

	event->pmu_private = gev;
	event->destroy = gpci_event_destroy;
	return 0;
err:
	kfree(gev);
	return ret;
}

/* ---- sysfs interface/ ---- */

/* The 0x40 reply: counter_info_version, permission, capabilities. */
struct gpci_caps {
	u8 version;
	bool collect_privileged;
	u8 mask;
};

/*
 * Request 0x40 (starting_index -1, version_in 0, as Linux). Process
 * context: uses its own buffer.
 */
static long gpci_read_caps(struct hv_gpci_pmu *gpci, struct gpci_caps *caps)
{
	static const struct gpci_key key = {
		.request = HV_GPCI_PMU_REQ_CAPABILITIES,
		.index = HV_GPCI_PMU_INDEX_CURRENT,
	};
	u8 *buf = kmalloc(HV_GPCI_PMU_BUF_SIZE, GFP_KERNEL);
	const struct hv_gpci_pmu_hdr *h = (void *)buf;
	const u8 *e = buf + HV_GPCI_PMU_HDR_SIZE;
	long rc;

	if (!buf)
		return -ENOMEM;
	/* before gpci->version is known: a LoPAR header */
	rc = gpci_hcall(gpci, buf, &key, HV_GPCI_PMU_HDR_SIZE + 0x10);
	if (rc == HV_GPCI_H_SUCCESS) {
		caps->version = h->version_out;
		caps->collect_privileged = e[0];
		/* byte 1 is reserved in LoPAR, the capability mask after */
		caps->mask = gpci_ext(h->version_out) ? e[1] : 0;
	}
	kfree(buf);
	return rc;
}

#define GPCI_CAPS_ATTR(_name, _fmt, _expr)				\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	struct hv_gpci_pmu *gpci = to_gpci(dev_get_drvdata(dev));	\
	struct gpci_caps c;						\
									\
	/* fresh, as Linux: an HMC change or a migration shows */	\
	if (gpci_read_caps(gpci, &c))					\
		return -EIO;						\
	return sysfs_emit(buf, _fmt "\n", _expr);			\
}									\
static DEVICE_ATTR_RO(_name)

GPCI_CAPS_ATTR(version, "0x%x", c.version);
GPCI_CAPS_ATTR(ga, "%d", !!(c.mask & HV_GPCI_PMU_CAP_GA));
GPCI_CAPS_ATTR(expanded, "%d", !!(c.mask & HV_GPCI_PMU_CAP_EXPANDED));
GPCI_CAPS_ATTR(lab, "%d", !!(c.mask & HV_GPCI_PMU_CAP_LAB));
GPCI_CAPS_ATTR(collect_privileged, "%d", c.collect_privileged);

/* The highest counter_info_version whose layouts the driver knows. */
static ssize_t kernel_version_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0x%x\n", HV_GPCI_PMU_VERSION_CURRENT);
}
static DEVICE_ATTR_RO(kernel_version);

static ssize_t read_errors_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct hv_gpci_pmu *gpci = to_gpci(dev_get_drvdata(dev));

	return sysfs_emit(buf, "%lld\n", atomic64_read(&gpci->read_errors));
}
static DEVICE_ATTR_RO(read_errors);

static ssize_t lab_events_enabled_show(struct device *dev,
				       struct device_attribute *attr,
				       char *buf)
{
	struct hv_gpci_pmu *gpci = to_gpci(dev_get_drvdata(dev));

	return sysfs_emit(buf, "%d\n", READ_ONCE(gpci->lab_enabled));
}

static ssize_t lab_events_enabled_store(struct device *dev,
					struct device_attribute *attr,
					const char *buf, size_t count)
{
	struct hv_gpci_pmu *gpci = to_gpci(dev_get_drvdata(dev));
	bool on;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	ret = kstrtobool(buf, &on);
	if (!ret)
		ret = hv_gpci_pmu_lab_enable(gpci, on);
	return ret ?: count;
}
static DEVICE_ATTR_ADMIN_RW(lab_events_enabled);

/*
 * The system information files of Linux 6.6+ (POWER10 and later): a hex
 * dump of every element of one request, one line each, fetched in as many
 * hcalls as H_PARAMETER/"buffer too small" asks for, each next call
 * starting after the last element received.
 */
enum gpci_sysinfo {
	SI_BUS_TOPOLOGY,
	SI_PROC_CONFIG,
	SI_AFFINITY_VP,
	SI_AFFINITY_DOMAIN,
	SI_AFFINITY_PART,
	SI_NR,
};

static const u32 gpci_sysinfo_req[SI_NR] = {
	[SI_BUS_TOPOLOGY] = HV_GPCI_PMU_REQ_BUS_TOPOLOGY,
	[SI_PROC_CONFIG] = HV_GPCI_PMU_REQ_PROC_CONFIG,
	[SI_AFFINITY_VP] = HV_GPCI_PMU_REQ_AFFINITY_VP,
	[SI_AFFINITY_DOMAIN] = HV_GPCI_PMU_REQ_AFFINITY_DOMAIN,
	[SI_AFFINITY_PART] = HV_GPCI_PMU_REQ_AFFINITY_PART,
};

/* Append @len bytes as hex and a newline; false when the page is full. */
static bool gpci_emit_hex(char *out, int *n, const u8 *p, unsigned int len)
{
	unsigned int i;

	/* sysfs_emit_at() needs room for the NUL as well */
	if (*n + 2 * len + 1 >= PAGE_SIZE)
		return false;
	for (i = 0; i < len; i++)
		*n += sysfs_emit_at(out, *n, "%02x", p[i]);
	*n += sysfs_emit_at(out, *n, "\n");
	return true;
}

/*
 * 0xB1 elements have variable size: cv_element_size bytes ending with the
 * number (be16) and size (be16) of the affinity domain entries that follow
 * (inferred; Linux reads them one byte later, which agrees whenever the
 * first entry starts with a zero byte). Emits the complete elements among
 * the first @nr, each followed by its entries and a blank line as Linux
 * does, and sets *@pos to the offset of the first one not emitted.
 * Returns how many it emitted, or -EFBIG.
 */
static int gpci_emit_part(char *out, int *n, const u8 *data, u32 nr,
			  u16 esize, u32 *pos)
{
	u32 i;

	*pos = 0;
	for (i = 0; i < nr; i++) {
		const u8 *e = data + *pos;
		u32 cnt, dsize, j;

		if (esize < 4 || *pos + esize > HV_GPCI_PMU_MAX_DATA)
			break;
		cnt = get_unaligned_be16(e + esize - 4);
		dsize = get_unaligned_be16(e + esize - 2);
		if (*pos + esize + cnt * dsize > HV_GPCI_PMU_MAX_DATA)
			break;
		if (!gpci_emit_hex(out, n, e, esize))
			return -EFBIG;
		for (j = 0; j < cnt; j++)
			if (!gpci_emit_hex(out, n, e + esize + j * dsize, dsize))
				return -EFBIG;
		if (!gpci_emit_hex(out, n, e, 0))
			return -EFBIG;
		*pos += esize + cnt * dsize;
	}
	return i;
}

/* Where the next call starts: after the last element (see Linux). */
static void gpci_sysinfo_next(enum gpci_sysinfo si, const u8 *last,
			      struct gpci_key *key)
{
	switch (si) {
	case SI_BUS_TOPOLOGY:
	case SI_PROC_CONFIG:
		key->index = get_unaligned_be32(last) + 1;
		break;
	case SI_AFFINITY_VP:
		/* partition, then its next virtual processor */
		key->index = get_unaligned_be16(last);
		key->secondary = get_unaligned_be16(last + 2) + 1;
		break;
	case SI_AFFINITY_DOMAIN:
		key->index = get_unaligned_be16(last) + 1;
		break;
	case SI_AFFINITY_PART:
		/* the last (maybe truncated) partition again */
		key->index = get_unaligned_be16(last);
		break;
	default:
		break;
	}
}

static ssize_t gpci_sysinfo_show(struct hv_gpci_pmu *gpci,
				 enum gpci_sysinfo si, char *out)
{
	struct gpci_key key = { .request = gpci_sysinfo_req[si] };
	u8 *buf = kmalloc(HV_GPCI_PMU_BUF_SIZE, GFP_KERNEL);
	const struct hv_gpci_pmu_hdr *h = (void *)buf;
	const u8 *data = buf + HV_GPCI_PMU_HDR_SIZE;
	int n = 0, ret;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		struct gpci_key prev = key;
		u32 nr, i, emit;
		u16 esize;
		long rc;

		rc = gpci_hcall(gpci, buf, &key, HV_GPCI_PMU_BUF_SIZE);
		/* gpci_hcall() made "buffer too small" a success: undo */
		if (rc == HV_GPCI_H_SUCCESS &&
		    be32_to_cpu(h->detail_rc) == HV_GPCI_PMU_DETAIL_BUF_TOO_SMALL)
			rc = HV_GPCI_H_PARAMETER;
		if (rc != HV_GPCI_H_SUCCESS && rc != HV_GPCI_H_PARAMETER) {
			gpci_log_rc(&key, rc);
			ret = rc == HV_GPCI_H_AUTHORITY ? -EPERM : -EIO;
			goto out;
		}
		nr = be16_to_cpu(h->returned_values);
		esize = be16_to_cpu(h->cv_element_size);
		if (!esize || (rc != HV_GPCI_H_SUCCESS && !nr)) {
			gpci_log_rc(&key, rc);
			ret = -EIO;
			goto out;
		}
		if (si == SI_AFFINITY_PART) {
			u32 pos;

			/* all but the last when more is to come, as Linux */
			emit = rc == HV_GPCI_H_SUCCESS ? nr : nr - 1;
			ret = gpci_emit_part(out, &n, data, emit, esize, &pos);
			if (ret < 0)
				goto out;
			if (rc == HV_GPCI_H_SUCCESS)
				break;
			if (pos + 2 > HV_GPCI_PMU_MAX_DATA) {
				ret = -EIO;
				goto out;
			}
			gpci_sysinfo_next(si, data + pos, &key);
		} else {
			nr = min_t(u32, nr, HV_GPCI_PMU_MAX_DATA / esize);
			for (i = 0; i < nr; i++) {
				if (!gpci_emit_hex(out, &n, data + i * esize,
						   esize)) {
					ret = -EFBIG;
					goto out;
				}
			}
			if (rc == HV_GPCI_H_SUCCESS)
				break;
			gpci_sysinfo_next(si, data + (nr - 1) * esize, &key);
		}
		/* a firmware that does not move on would loop forever */
		if (gpci_same_key(&key, &prev)) {
			ret = -EFBIG;
			goto out;
		}
	}
	ret = n;
out:
	kfree(buf);
	return ret;
}

#define GPCI_SYSINFO_ATTR(_name, _si)					\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	return gpci_sysinfo_show(to_gpci(dev_get_drvdata(dev)), _si, buf); \
}									\
static DEVICE_ATTR_RO(_name)

GPCI_SYSINFO_ATTR(processor_bus_topology, SI_BUS_TOPOLOGY);
GPCI_SYSINFO_ATTR(processor_config, SI_PROC_CONFIG);
GPCI_SYSINFO_ATTR(affinity_domain_via_virtual_processor, SI_AFFINITY_VP);
GPCI_SYSINFO_ATTR(affinity_domain_via_domain, SI_AFFINITY_DOMAIN);
GPCI_SYSINFO_ATTR(affinity_domain_via_partition, SI_AFFINITY_PART);

static struct attribute *gpci_iface_attrs[] = {
	&dev_attr_kernel_version.attr,
	&dev_attr_version.attr,
	&dev_attr_ga.attr,
	&dev_attr_expanded.attr,
	&dev_attr_lab.attr,
	&dev_attr_collect_privileged.attr,
	&dev_attr_lab_events_enabled.attr,
	&dev_attr_read_errors.attr,
	/* the system information files: last, see gpci_iface_visible() */
	&dev_attr_processor_bus_topology.attr,
	&dev_attr_processor_config.attr,
	&dev_attr_affinity_domain_via_virtual_processor.attr,
	&dev_attr_affinity_domain_via_domain.attr,
	&dev_attr_affinity_domain_via_partition.attr,
	NULL,
};

#define GPCI_FIRST_SYSINFO_ATTR	8

static umode_t gpci_iface_visible(struct kobject *kobj, struct attribute *a,
				  int i)
{
	struct hv_gpci_pmu *gpci = to_gpci(dev_get_drvdata(kobj_to_dev(kobj)));

	if (i >= GPCI_FIRST_SYSINFO_ATTR && !gpci->sysinfo)
		return 0;
	return a->mode;
}

static const struct attribute_group gpci_iface_group = {
	.name = "interface",
	.attrs = gpci_iface_attrs,
	.is_visible = gpci_iface_visible,
};

/*
 * As Linux 6.6+: on POWER10 and later, all five files or none, when each
 * request is answered with success, H_AUTHORITY (the permission may come
 * later) or H_PARAMETER (more than a buffer's worth).
 */
static bool gpci_sysinfo_present(struct hv_gpci_pmu *gpci, u8 *buf)
{
	unsigned int i;

	if (!gpci->ops->power10_or_later ||
	    !gpci->ops->power10_or_later(gpci->ctx))
		return false;
	for (i = 0; i < SI_NR; i++) {
		struct gpci_key key = { .request = gpci_sysinfo_req[i] };
		long rc = gpci_hcall(gpci, buf, &key, HV_GPCI_PMU_BUF_SIZE);

		if (rc != HV_GPCI_H_SUCCESS && rc != HV_GPCI_H_AUTHORITY &&
		    rc != HV_GPCI_H_PARAMETER) {
			pr_info("request 0x%x: %s (rc %ld): no system information files\n",
				key.request, gpci_rc_cause(rc), rc);
			return false;
		}
	}
	return true;
}

/**
 * hv_gpci_pmu_lab_enable() - allow or forbid the lab-only HPMCx request
 * @gpci: the PMU
 * @enable: allow it
 *
 * Events already open are not affected; new events with request 0x80002000
 * are accepted only while enabled. Set MMCRH (0x80001000) writes
 * hypervisor state and is never reachable from an event.
 *
 * Return: 0, or -EOPNOTSUPP if the firmware lacks the lab capability.
 */
int hv_gpci_pmu_lab_enable(struct hv_gpci_pmu *gpci, bool enable)
{
	if (enable && !(gpci->caps & HV_GPCI_PMU_CAP_LAB))
		return -EOPNOTSUPP;
	WRITE_ONCE(gpci->lab_enabled, enable);
	if (enable)
		pr_notice("lab-only request 0x%x enabled by root\n",
			  HV_GPCI_PMU_REQ_HPMCX);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(hv_gpci_pmu_lab_enable);

/*
 * The firmware's version and capabilities, as Linux: request 0x40 for the
 * capabilities (refused: no PMU), then 0x10 for the counter_info_version
 * that picks the named events, asking for the newest we know. Where Linux
 * assumes 8 when 0x10 fails (e.g. H_AUTHORITY), 0x40's version is used.
 */
static int gpci_probe_firmware(struct hv_gpci_pmu *gpci, u8 *buf)
{
	static const struct gpci_key probe = {
		.request = HV_GPCI_PMU_REQ_DISPATCH_BY_PROC,
		.index = HV_GPCI_PMU_INDEX_CURRENT,
		.version = HV_GPCI_PMU_VERSION_CURRENT,
	};
	const struct hv_gpci_pmu_hdr *h = (void *)buf;
	struct gpci_caps caps;
	long rc;

	rc = gpci_read_caps(gpci, &caps);
	if (rc == -ENOMEM)
		return rc;
	if (rc == HV_GPCI_H_FUNCTION) {
		pr_info("%s; no hv_gpci PMU\n", gpci_rc_cause(rc));
		return -ENODEV;
	}
	if (rc != HV_GPCI_H_SUCCESS) {
		pr_warn("capabilities (request 0x40): %s (rc %ld); no hv_gpci PMU\n",
			gpci_rc_cause(rc), rc);
		switch (rc) {
		case HV_GPCI_H_AUTHORITY:
			return -EPERM;
		case HV_GPCI_H_NOT_AVAILABLE:
			return -EOPNOTSUPP;
		case HV_GPCI_H_PARAMETER:
			return -EINVAL;
		default:
			return -EIO;
		}
	}
	gpci->version = caps.version;
	gpci->caps = caps.mask;

	rc = gpci_hcall(gpci, buf, &probe, HV_GPCI_PMU_BUF_SIZE);
	if (rc == HV_GPCI_H_SUCCESS)
		gpci->version = h->version_out;
	else
		pr_info("counter_info_version (request 0x10): %s (rc %ld); using 0x%x from request 0x40\n",
			gpci_rc_cause(rc), rc, gpci->version);
	return 0;
}

static umode_t gpci_event_visible(struct kobject *kobj, struct attribute *a,
				  int i)
{
	struct hv_gpci_pmu *gpci = to_gpci(dev_get_drvdata(kobj_to_dev(kobj)));

	return pmu_event_visible(a, gpci->variants);
}

static const struct attribute_group gpci_events_group = {
	.name = "events",
	.attrs = gpci_event_attrs,
	.is_visible = gpci_event_visible,
};

static const struct attribute_group *gpci_attr_groups[] = {
	&gpci_format_group,
	&gpci_events_group,
	&gpci_iface_group,
	&pmu_uncore_cpumask_group,
	NULL,
};

/* For the log: how many named events this firmware's PMU shows. */
static unsigned int gpci_nr_events(struct hv_gpci_pmu *gpci)
{
	unsigned int i, n = 0;

	for (i = 0; gpci_event_attrs[i]; i++)
		if (pmu_event_visible(gpci_event_attrs[i], gpci->variants))
			n++;
	return n;
}

static void gpci_free(struct hv_gpci_pmu *gpci)
{
	unsigned int cpu;

	if (gpci->cpu)
		for_each_possible_cpu(cpu)
			kfree(per_cpu_ptr(gpci->cpu, cpu)->buf);
	free_percpu(gpci->cpu);
	kfree(gpci);
}

static int gpci_alloc_cpus(struct hv_gpci_pmu *gpci)
{
	unsigned int cpu;

	gpci->cpu = alloc_percpu(struct gpci_cpu);
	if (!gpci->cpu)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct gpci_cpu *c = per_cpu_ptr(gpci->cpu, cpu);

		INIT_LIST_HEAD(&c->batch);
		INIT_LIST_HEAD(&c->txn_read);
		/* kmalloc() aligns power-of-two sizes: never crosses 4K */
		c->buf = kmalloc_node(HV_GPCI_PMU_BUF_SIZE, GFP_KERNEL,
				      cpu_to_node(cpu));
		if (!c->buf)
			return -ENOMEM;
		if (WARN_ON(!IS_ALIGNED((unsigned long)c->buf,
					HV_GPCI_PMU_BUF_SIZE)))
			return -ENOMEM;
	}
	return 0;
}

/**
 * hv_gpci_pmu_probe() - find GPCI and register an hv_gpci PMU on it
 * @ops: the backend; @ops->hcall is required
 * @ctx: the backend's context, passed to every op
 * @name: the PMU's name, normally "hv_gpci"
 *
 * Reads the capabilities (request 0x40) and the counter_info_version (0x10)
 * once, picks the named events for that version, looks for the system
 * information requests on POWER10 and later, and registers the PMU. When
 * the hypervisor lacks the hcall (H_FUNCTION, e.g. QEMU), logs one info
 * line and registers nothing.
 *
 * Return: the PMU, or an ERR_PTR: -ENODEV (no LPAR, no GPCI), -EPERM,
 * -EOPNOTSUPP, -EINVAL, -EIO (the capabilities request failed as logged),
 * -ENOMEM, or the error of the registration. Nothing stays registered or
 * allocated on error.
 */
struct hv_gpci_pmu *hv_gpci_pmu_probe(const struct hv_gpci_pmu_ops *ops,
				      void *ctx, const char *name)
{
	struct hv_gpci_pmu *gpci;
	u8 *buf = NULL;
	int ret = -ENOMEM;

	if (!ops || !ops->hcall || !name)
		return ERR_PTR(-EINVAL);
	if (ops->lpar_present && !ops->lpar_present(ctx))
		return ERR_PTR(-ENODEV);

	gpci = kzalloc(sizeof(*gpci), GFP_KERNEL);
	if (!gpci)
		return ERR_PTR(-ENOMEM);
	gpci->ops = ops;
	gpci->ctx = ctx;
	raw_spin_lock_init(&gpci->msg_lock);
	pmu_defer_init(&gpci->msg_print, gpci_msg_work);
	buf = kmalloc(HV_GPCI_PMU_BUF_SIZE, GFP_KERNEL);
	if (!buf)
		goto err;
	ret = gpci_alloc_cpus(gpci);
	if (ret)
		goto err;
	ret = gpci_probe_firmware(gpci, buf);
	if (ret)
		goto err;
	gpci->sysinfo = gpci_sysinfo_present(gpci, buf);
	gpci->variants = gpci_variant(gpci->version);

	gpci->uncore.pmu = (struct pmu) {
		.module = ops->owner,
		.task_ctx_nr = perf_invalid_context,
		.event_init = gpci_event_init,
		.add = gpci_add,
		.del = gpci_del,
		.start = gpci_start,
		.stop = gpci_stop,
		.read = gpci_read,
		.start_txn = gpci_start_txn,
		.commit_txn = gpci_commit_txn,
		.cancel_txn = gpci_cancel_txn,
		.pmu_enable = gpci_pmu_enable,
		.pmu_disable = gpci_pmu_disable,
		.attr_groups = gpci_attr_groups,
		.capabilities = PERF_PMU_CAP_NO_EXCLUDE |
				PERF_PMU_CAP_NO_INTERRUPT,
	};
	ret = pmu_uncore_register(&gpci->uncore, name);
	if (ret) {
		pr_err("%s: registration failed (%d)\n", name, ret);
		goto err;
	}
	kfree(buf);
	pr_info("%s: counter_info_version 0x%x, %u named events, system information files: %s\n",
		name, gpci->version, gpci_nr_events(gpci),
		gpci->sysinfo ? "yes" : "no");
	return gpci;
err:
	kfree(buf);
	gpci_free(gpci);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_IF_KUNIT(hv_gpci_pmu_probe);

/**
 * hv_gpci_pmu_remove() - unregister and free a PMU from hv_gpci_pmu_probe()
 * @gpci: the PMU; no event may be open on it any more
 */
void hv_gpci_pmu_remove(struct hv_gpci_pmu *gpci)
{
	pmu_uncore_unregister(&gpci->uncore);
	/* no event is left to queue a message: print the last ones */
	pmu_defer_flush(&gpci->msg_print);
	gpci_free(gpci);
}
EXPORT_SYMBOL_IF_KUNIT(hv_gpci_pmu_remove);

/**
 * hv_gpci_pmu_to_pmu() - the perf PMU of an hv_gpci instance
 * @gpci: the PMU
 *
 * Return: the &struct pmu, e.g. for its type.
 */
struct pmu *hv_gpci_pmu_to_pmu(struct hv_gpci_pmu *gpci)
{
	return &gpci->uncore.pmu;
}
EXPORT_SYMBOL_IF_KUNIT(hv_gpci_pmu_to_pmu);

/**
 * hv_gpci_pmu_hcalls() - number of hcalls the PMU has issued
 * @gpci: the PMU
 *
 * Return: the count since probe, including the probe's own.
 */
u64 hv_gpci_pmu_hcalls(struct hv_gpci_pmu *gpci)
{
	return atomic64_read(&gpci->hcalls);
}
EXPORT_SYMBOL_IF_KUNIT(hv_gpci_pmu_hcalls);

#ifdef CONFIG_PPC_PSERIES
/*
 * The pseries platform: the real hcall and LPAR detection. Elsewhere the
 * driver is built only for its KUnit suite, which probes it on a model of
 * the hcall.
 */
static_assert(HV_GPCI_PMU_HCALL == H_GET_PERF_COUNTER_INFO);
static_assert(HV_GPCI_H_NOT_AVAILABLE == H_NOT_AVAILABLE);
static_assert(HV_GPCI_H_AUTHORITY == H_AUTHORITY);
static_assert(HV_GPCI_H_FUNCTION == H_FUNCTION);
static_assert(HV_GPCI_H_PRIVILEGE == H_PRIVILEGE);
static_assert(HV_GPCI_H_PARAMETER == H_PARAMETER);
static_assert(HV_GPCI_H_HARDWARE == H_HARDWARE);

static long gpci_pseries_hcall(void *ctx, void *buf, unsigned long size)
{
	return plpar_hcall_norets(H_GET_PERF_COUNTER_INFO, virt_to_phys(buf),
				  size);
}

/* Set from the device tree's ibm,hypertas-functions: a PAPR LPAR. */
static bool gpci_pseries_lpar(void *ctx)
{
	return firmware_has_feature(FW_FEATURE_LPAR);
}

/* Linux 6.6+ offers the system information files from POWER10 on. */
static bool gpci_pseries_power10(void *ctx)
{
	return PVR_VER(mfspr(SPRN_PVR)) >= PVR_POWER10;
}

static const struct hv_gpci_pmu_ops gpci_pseries_ops = {
	.hcall = gpci_pseries_hcall,
	.lpar_present = gpci_pseries_lpar,
	.power10_or_later = gpci_pseries_power10,
	.owner = THIS_MODULE,
};

static struct hv_gpci_pmu *gpci_pseries_pmu;

static int __init gpci_pseries_init(void)
{
	struct hv_gpci_pmu *pmu;

	/*
	 * Unless this driver is built in, arch/powerpc/perf/hv-gpci.c
	 * registers and owns the name "hv_gpci": say so, rather than fail in
	 * perf_pmu_register() with a duplicate sysfs name. This also covers
	 * an external-module build against a stock kernel.
	 */
	if (IS_BUILTIN(CONFIG_HV_PERF_CTRS) && !IS_BUILTIN(CONFIG_HV_GPCI_PMU)) {
		pr_err("not loaded: this kernel's own hv_gpci (arch/powerpc/perf/hv-gpci.c, CONFIG_HV_PERF_CTRS=y) is built in; build this driver into the kernel with CONFIG_HV_GPCI_PMU=y to replace it\n");
		return -EEXIST;
	}
	if (!firmware_has_feature(FW_FEATURE_LPAR)) {
		pr_debug("not a PAPR LPAR\n");
		return -ENODEV;
	}
	pmu = hv_gpci_pmu_probe(&gpci_pseries_ops, NULL, "hv_gpci");
	if (IS_ERR(pmu))
		return PTR_ERR(pmu);
	gpci_pseries_pmu = pmu;
	return 0;
}

static void __exit gpci_pseries_exit(void)
{
	hv_gpci_pmu_remove(gpci_pseries_pmu);
}

module_init(gpci_pseries_init);
module_exit(gpci_pseries_exit);
#endif /* CONFIG_PPC_PSERIES */

MODULE_DESCRIPTION("PAPR H_GetPerformanceCounterInfo (hv_gpci) PMU");
MODULE_LICENSE("GPL");
