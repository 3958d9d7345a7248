// SPDX-License-Identifier: GPL-2.0
/*
 * pseries glue of the hv_gpci PMU: the real H_GetPerformanceCounterInfo
 * hcall and LPAR detection. The perf logic is in drivers/perf/hv_gpci_pmu.c.
 */

#define pr_fmt(fmt) "hv_gpci: " fmt

#include <linux/io.h>
#include <linux/module.h>
#include <asm/firmware.h>
#include <asm/hvcall.h>
#include <asm/reg.h>

#include "../../../drivers/perf/hv_gpci_pmu.h"

static_assert(HV_GPCI_PMU_HCALL == H_GET_PERF_COUNTER_INFO);
static_assert(HV_GPCI_H_NOT_AVAILABLE == H_NOT_AVAILABLE);
static_assert(HV_GPCI_H_AUTHORITY == H_AUTHORITY);
static_assert(HV_GPCI_H_FUNCTION == H_FUNCTION);
static_assert(HV_GPCI_H_PRIVILEGE == H_PRIVILEGE);
static_assert(HV_GPCI_H_PARAMETER == H_PARAMETER);
static_assert(HV_GPCI_H_HARDWARE == H_HARDWARE);

static long gpci_glue_hcall(void *ctx, void *buf, unsigned long size)
{
	return plpar_hcall_norets(H_GET_PERF_COUNTER_INFO, virt_to_phys(buf),
				  size);
}

/* Set from the device tree's ibm,hypertas-functions: a PAPR LPAR. */
static bool gpci_glue_lpar(void *ctx)
{
	return firmware_has_feature(FW_FEATURE_LPAR);
}

/* Linux 6.6+ offers the system information files from POWER10 on. */
static bool gpci_glue_power10(void *ctx)
{
	return PVR_VER(mfspr(SPRN_PVR)) >= PVR_POWER10;
}

static const struct hv_gpci_pmu_ops gpci_glue_ops = {
	.hcall = gpci_glue_hcall,
	.lpar_present = gpci_glue_lpar,
	.power10_or_later = gpci_glue_power10,
	.owner = THIS_MODULE,
};

static struct hv_gpci_pmu *gpci_glue_pmu;

static int __init gpci_glue_init(void)
{
	struct hv_gpci_pmu *pmu;

	/*
	 * Unless this driver is built in, the kernel's own hv-gpci.o is
	 * (patch 0401), and owns the name "hv_gpci": say so, rather than
	 * fail in perf_pmu_register() with a duplicate sysfs name. This
	 * also covers an external-module build against a stock kernel.
	 */
	if (IS_BUILTIN(CONFIG_HV_PERF_CTRS) && !IS_BUILTIN(CONFIG_HV_GPCI_PMU)) {
		pr_err("not loaded: this kernel's own hv_gpci (arch/powerpc/perf/hv-gpci.c, CONFIG_HV_PERF_CTRS=y) is built in; build this driver into the kernel with CONFIG_HV_GPCI_PMU=y to replace it\n");
		return -EEXIST;
	}
	if (!firmware_has_feature(FW_FEATURE_LPAR)) {
		pr_debug("not a PAPR LPAR\n");
		return -ENODEV;
	}
	pmu = hv_gpci_pmu_probe(&gpci_glue_ops, NULL, "hv_gpci");
	if (IS_ERR(pmu))
		return PTR_ERR(pmu);
	gpci_glue_pmu = pmu;
	return 0;
}

static void __exit gpci_glue_exit(void)
{
	hv_gpci_pmu_remove(gpci_glue_pmu);
}

module_init(gpci_glue_init);
module_exit(gpci_glue_exit);

MODULE_DESCRIPTION("pseries glue of the hv_gpci PMU");
MODULE_LICENSE("GPL");
