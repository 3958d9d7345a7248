/* SPDX-License-Identifier: GPL-2.0 */
/*
 * H_GetPerformanceCounterInfo (PAPR hcall 0xF080) as the hv_gpci model
 * (hv_gpci_model.c) answers it: the parameter block, request codes and
 * return codes, from the seed (LoPAR "Platform Dependent hcall()s") and,
 * where only IBM's getPerfCountInfo documents have them, from Linux's
 * hv-gpci.h and hv-gpci-requests.h. Test-only, never part of the series:
 * the model stands in for PowerVM in the ppc64 e2e guest (e2e/ppc64/).
 */
#ifndef _HV_GPCI_HV_H
#define _HV_GPCI_HV_H

#include <linux/types.h>

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

#endif /* _HV_GPCI_HV_H */
