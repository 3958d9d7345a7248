/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The text interface of the hv_gpci model (hv_gpci_sim_text.c), for the
 * ppc64 e2e guest's debugfs files. Test-only, never part of the series.
 */
#ifndef _HV_GPCI_SIM_TEXT_H
#define _HV_GPCI_SIM_TEXT_H

struct hv_gpci_model;
struct seq_file;

int hv_gpci_pmu_sim_inject(struct hv_gpci_model *m, char *text);
int hv_gpci_pmu_sim_error(struct hv_gpci_model *m, char *text);
void hv_gpci_pmu_sim_calls(struct hv_gpci_model *m, struct seq_file *s);

#endif /* _HV_GPCI_SIM_TEXT_H */
