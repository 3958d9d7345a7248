// SPDX-License-Identifier: GPL-2.0
/*
 * The hcall shim of the ppc64 e2e guest (test-only, never part of the
 * series). QEMU's pseries machine answers H_GET_PERF_COUNTER_INFO with
 * H_FUNCTION, so Linux's hv_gpci would not register there. shim.patch
 * makes arch/powerpc/perf/hv-gpci.c and hv-common.c call
 * hv_gpci_sim_hcall_norets() instead of plpar_hcall_norets(), and this file
 * has the hv_gpci model (hv_gpci_model.c) answer that
 * hcall; every other hcall goes to QEMU.
 *
 * The model is up before hv_gpci's device_initcall (arch_initcall), with
 * the firmware version of hv_gpci_sim.version= on the command line (8 by
 * default: POWER9/10 PowerVM) on a POWER10. Its debugfs files are those of
 * the x86_64 simulated platform: hvpmu_sim/gpci/{inject,error,calls}, same
 * formats (tools/testing/hvpmu/SIMULATOR.md).
 */

#include <linux/cache.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/init.h>
#include <linux/io.h>
#include <linux/memblock.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <asm/hvcall.h>

#include "hv_gpci_model.h"
#include "hv_gpci_sim_text.h"
#include "hv-gpci-sim.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "hv_gpci_sim."

static unsigned char version = 8;
module_param(version, byte, 0444);
MODULE_PARM_DESC(version, "counter_info_version of the simulated firmware");

static bool cross_4k_ok;
module_param(cross_4k_ok, bool, 0444);
MODULE_PARM_DESC(cross_4k_ok, "answer a buffer that crosses 4 KiB (default: H_PRIVILEGE)");

static struct hv_gpci_model *sim_model __ro_after_init;
static DEFINE_MUTEX(sim_lock);

long hv_gpci_sim_hcall_norets(unsigned long opcode, unsigned long addr,
			      unsigned long size)
{
	if (opcode != H_GET_PERF_COUNTER_INFO || !sim_model)
		return plpar_hcall_norets(opcode, addr, size);
	/*
	 * The hypervisor takes a real address: PAPR's "Validate the
	 * getPerformanceInfoParms is accessible, else H_Privilege". Outside
	 * the partition's memory it is refused, not followed (a per-CPU
	 * buffer given through virt_to_phys() when the first per-CPU chunk is
	 * page-mapped lands there). The model itself refuses a buffer that
	 * crosses 4 KiB, unless hv_gpci_sim.cross_4k_ok=1.
	 */
	if (WARN_ONCE(!memblock_is_region_memory(addr, size),
		      "hv_gpci_sim: buffer at real address %#lx, not the partition's memory\n",
		      addr))
		return H_PRIVILEGE;
	return hv_gpci_model_hcall(sim_model, phys_to_virt(addr), size);
}

static ssize_t sim_write(const char __user *ubuf, size_t len,
			 int (*parse)(struct hv_gpci_model *m, char *text))
{
	char *buf;
	int ret;

	if (len > PAGE_SIZE)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	mutex_lock(&sim_lock);
	ret = parse(sim_model, buf);
	mutex_unlock(&sim_lock);
	kfree(buf);
	return ret ?: len;
}

static ssize_t sim_inject_write(struct file *file, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	return sim_write(ubuf, len, hv_gpci_pmu_sim_inject);
}

static ssize_t sim_error_write(struct file *file, const char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	return sim_write(ubuf, len, hv_gpci_pmu_sim_error);
}

static const struct file_operations sim_inject_fops = {
	.write = sim_inject_write,
	.llseek = noop_llseek,
};

static const struct file_operations sim_error_fops = {
	.write = sim_error_write,
	.llseek = noop_llseek,
};

static int sim_calls_show(struct seq_file *s, void *unused)
{
	hv_gpci_pmu_sim_calls(sim_model, s);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_calls);

static int __init hv_gpci_sim_model_init(void)
{
	struct hv_gpci_model *m = hv_gpci_model_alloc(version);

	if (!m)
		return -ENOMEM;
	/* PVR_POWER10 in QEMU (-cpu power10): the sysinfo files are there */
	m->power10 = true;
	m->cross_4k_ok = cross_4k_ok;
	sim_model = m;
	pr_info("hv_gpci_sim: H_GET_PERF_COUNTER_INFO answered by the model, counter_info_version %u\n",
		version);
	return 0;
}
arch_initcall(hv_gpci_sim_model_init);

static int __init hv_gpci_sim_debugfs_init(void)
{
	struct dentry *dir;

	if (!sim_model)
		return -ENODEV;
	dir = debugfs_create_dir("hvpmu_sim", NULL);
	dir = debugfs_create_dir("gpci", dir);
	debugfs_create_file("inject", 0200, dir, NULL, &sim_inject_fops);
	debugfs_create_file("error", 0200, dir, NULL, &sim_error_fops);
	debugfs_create_file("calls", 0444, dir, NULL, &sim_calls_fops);
	return 0;
}
late_initcall(hv_gpci_sim_debugfs_init);
