// SPDX-License-Identifier: GPL-2.0
/*
 * Platform devices for the sun4v performance counters that only hypervisor
 * calls reach, so that their perf drivers (drivers/perf/sun4v_*_pmu.c)
 * load where the counters are: the MMU statistics of every sun4v strand
 * (sun4v Hypervisor API, NIAGARA_MMUSTAT_CONF/INFO) and the DRAM counters
 * of the UltraSPARC T2 and T2+ (NIAGARA2_GET/SET_PERFREG,
 * VFALLS_GET/SET_PERFREG). Whether the hypervisor offers the calls is
 * known only once a driver negotiates their API group, which its probe
 * does.
 */

#include <linux/err.h>
#include <linux/init.h>
#include <linux/platform_device.h>
#include <asm/pcr.h>
#include <asm/spitfire.h>

static void __init sun4v_pmu_device(const char *name)
{
	struct platform_device *pdev;

	pdev = platform_device_register_simple(name, PLATFORM_DEVID_NONE,
					       NULL, 0);
	if (IS_ERR(pdev))
		pr_warn("sun4v: cannot register the %s device: %ld\n", name,
			PTR_ERR(pdev));
}

static int __init sun4v_pmu_devices_init(void)
{
	if (tlb_type != hypervisor)
		return 0;
	sun4v_pmu_device("niagara_mmustat");
	if (sun4v_chip_type != SUN4V_CHIP_NIAGARA2)
		return 0;
	/* head_64.S reports the T2+ as a T2 too; pcr.c tells them apart. */
	sun4v_pmu_device(sun4v_chip_is_vfalls() ? "vfalls_dram" :
						  "niagara2_dram");
	return 0;
}
device_initcall(sun4v_pmu_devices_init);
