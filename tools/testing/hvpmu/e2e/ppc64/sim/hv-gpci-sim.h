/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test-only (the ppc64 e2e guest's shim.patch includes it in hv-gpci.c and
 * hv-common.c after <asm/hvcall.h>): every plpar_hcall_norets() of those
 * files goes to hv_gpci_hcall_sim.c, which answers H_GET_PERF_COUNTER_INFO
 * from the model and passes anything else on.
 */
#ifndef _HV_GPCI_SIM_H
#define _HV_GPCI_SIM_H

long hv_gpci_sim_hcall_norets(unsigned long opcode, unsigned long addr,
			      unsigned long size);

#ifndef HV_GPCI_SIM_NO_REDIRECT
#define plpar_hcall_norets(op, addr, size) \
	hv_gpci_sim_hcall_norets(op, addr, size)
#endif

#endif /* _HV_GPCI_SIM_H */
