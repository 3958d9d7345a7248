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

struct module;
struct perf_event_attr;

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

#endif /* _HV_GPCI_PMU_H */
