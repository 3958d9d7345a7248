// SPDX-License-Identifier: GPL-2.0
/*
 * niagara_mmustat: perf PMU for the UltraSPARC T1 hypervisor's MMU/TSB
 * statistics buffer.
 *
 * On a Niagara1 the hypervisor handles TLB misses in software; when it finds
 * the translation in the guest's TSB it adds one to a "hits" word and the
 * %tick cycles it spent to a "ticks" word of a 512-byte buffer the guest
 * configured for that virtual CPU (NIAGARA_MMUSTAT_CONF). The words only
 * grow, so a count is the difference of one word between two reads.
 *
 * Per-CPU events read the CPU's buffer; per-task events read the buffer of
 * the CPU the task runs on when it is scheduled in and out, so they count
 * the TSB hits taken on that CPU while the task ran (in user or kernel
 * context, including interrupts taken meanwhile). It has no counter limit,
 * so it never needs multiplexing, but it is not a software PMU: adding an
 * event fails on a CPU where no buffer can be read, and perf core lets
 * software events into another PMU's groups only because they never fail
 * to schedule. It therefore takes the hardware task context, whose groups
 * hold one hardware PMU's events.
 *
 * The hypervisor keeps one buffer per virtual CPU, and Linux's sysfs files
 * cpuN/mmustat_enable and cpuN/mmu_stats/ use the same slot. The driver
 * therefore asks the hypervisor (NIAGARA_MMUSTAT_INFO) which buffer is
 * configured whenever it reads: if somebody else's buffer is there it only
 * reads it, and it installs its own buffer only into an empty slot. It never
 * disables or replaces a buffer it did not install.
 *
 * Sections cited as "mmustat.txt N" are those of the sun4v MMU statistics
 * API (mmustat.txt, FWARC 2005/467).
 */

#define pr_fmt(fmt) "niagara_mmustat: " fmt

#include <kunit/visibility.h>
#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/device.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/kmemleak.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/perf/pmu_format.h>
#include <linux/perf_event.h>
#include <linux/platform_device.h>
#include <linux/printk.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/stringify.h>
#include <linux/sysfs.h>
#include <linux/topology.h>

#include <asm/hypervisor.h>
#include <asm/timer_64.h>

#include "sun4v_mmustat_pmu.h"

#define MMUSTAT_PMU_NAME	"niagara_mmustat"
/* One message of mmustat_err(), at most. */
#define MMUSTAT_MSG_LEN		160

/* Event variant: the time (ns) view of the ticks words, when %tick Hz is known. */
#define MMUSTAT_VAR_TIME	BIT(0)

/*
 * The fields are laid out so that config is the word index of the statistic
 * in the buffer (see sun4v_mmustat_pmu_word()).
 */
#define MMUSTAT_CONFIG_TICKS	GENMASK_ULL(0, 0)
#define MMUSTAT_CONFIG_PGSZ	GENMASK_ULL(3, 1)
#define MMUSTAT_CONFIG_CTXNON0	GENMASK_ULL(4, 4)
#define MMUSTAT_CONFIG_DMMU	GENMASK_ULL(5, 5)

static struct attribute *mmustat_format_attrs[] = {
	PMU_FORMAT_FIELD(ticks, PMU_FORMAT_CONFIG, MMUSTAT_CONFIG_TICKS),
	PMU_FORMAT_FIELD(pgsz, PMU_FORMAT_CONFIG, MMUSTAT_CONFIG_PGSZ),
	PMU_FORMAT_FIELD(ctxnon0, PMU_FORMAT_CONFIG, MMUSTAT_CONFIG_CTXNON0),
	PMU_FORMAT_FIELD(dmmu, PMU_FORMAT_CONFIG, MMUSTAT_CONFIG_DMMU),
	NULL,
};

/* The bits of those fields, per config word: what event_init accepts. */
VISIBLE_IF_KUNIT const u64 mmustat_format_mask[PMU_FORMAT_NR_WORDS] = {
	[PMU_FORMAT_CONFIG] = MMUSTAT_CONFIG_TICKS | MMUSTAT_CONFIG_PGSZ |
			      MMUSTAT_CONFIG_CTXNON0 | MMUSTAT_CONFIG_DMMU,
};
EXPORT_SYMBOL_IF_KUNIT(mmustat_format_mask);

static ssize_t mmustat_scale_show(struct device *dev,
				  struct device_attribute *attr, char *buf);

/*
 * The time view of a ticks word: the same terms, in nanoseconds; its scale
 * depends on the %tick rate found at probe, so its show() is ours.
 */
#define MMUSTAT_TIME(_name, _terms)					\
	PMU_EVENT_VARIANT(_name, _terms, MMUSTAT_VAR_TIME)
#define MMUSTAT_TIME_UNIT(_name)					\
	PMU_EVENT_ATTR_NAMED(__stringify(_name) ".unit",		\
			     perf_event_sysfs_show, "ns", MMUSTAT_VAR_TIME)
#define MMUSTAT_TIME_SCALE(_name)					\
	PMU_EVENT_ATTR_NAMED(__stringify(_name) ".scale",		\
			     mmustat_scale_show, NULL, MMUSTAT_VAR_TIME)

static struct attribute *mmustat_event_attrs[] = {
	PMU_EVENT(itsb_hits_ctx0_8k, "dmmu=0,ctxnon0=0,pgsz=0,ticks=0"),
	PMU_EVENT(itsb_ticks_ctx0_8k, "dmmu=0,ctxnon0=0,pgsz=0,ticks=1"),
	MMUSTAT_TIME(itsb_time_ctx0_8k, "dmmu=0,ctxnon0=0,pgsz=0,ticks=1"),
	MMUSTAT_TIME_UNIT(itsb_time_ctx0_8k),
	MMUSTAT_TIME_SCALE(itsb_time_ctx0_8k),
	PMU_EVENT(itsb_hits_ctx0_64k, "dmmu=0,ctxnon0=0,pgsz=1,ticks=0"),
	PMU_EVENT(itsb_ticks_ctx0_64k, "dmmu=0,ctxnon0=0,pgsz=1,ticks=1"),
	MMUSTAT_TIME(itsb_time_ctx0_64k, "dmmu=0,ctxnon0=0,pgsz=1,ticks=1"),
	MMUSTAT_TIME_UNIT(itsb_time_ctx0_64k),
	MMUSTAT_TIME_SCALE(itsb_time_ctx0_64k),
	PMU_EVENT(itsb_hits_ctx0_4m, "dmmu=0,ctxnon0=0,pgsz=3,ticks=0"),
	PMU_EVENT(itsb_ticks_ctx0_4m, "dmmu=0,ctxnon0=0,pgsz=3,ticks=1"),
	MMUSTAT_TIME(itsb_time_ctx0_4m, "dmmu=0,ctxnon0=0,pgsz=3,ticks=1"),
	MMUSTAT_TIME_UNIT(itsb_time_ctx0_4m),
	MMUSTAT_TIME_SCALE(itsb_time_ctx0_4m),
	PMU_EVENT(itsb_hits_ctx0_256m, "dmmu=0,ctxnon0=0,pgsz=5,ticks=0"),
	PMU_EVENT(itsb_ticks_ctx0_256m, "dmmu=0,ctxnon0=0,pgsz=5,ticks=1"),
	MMUSTAT_TIME(itsb_time_ctx0_256m, "dmmu=0,ctxnon0=0,pgsz=5,ticks=1"),
	MMUSTAT_TIME_UNIT(itsb_time_ctx0_256m),
	MMUSTAT_TIME_SCALE(itsb_time_ctx0_256m),
	PMU_EVENT(itsb_hits_ctxnon0_8k, "dmmu=0,ctxnon0=1,pgsz=0,ticks=0"),
	PMU_EVENT(itsb_ticks_ctxnon0_8k, "dmmu=0,ctxnon0=1,pgsz=0,ticks=1"),
	MMUSTAT_TIME(itsb_time_ctxnon0_8k, "dmmu=0,ctxnon0=1,pgsz=0,ticks=1"),
	MMUSTAT_TIME_UNIT(itsb_time_ctxnon0_8k),
	MMUSTAT_TIME_SCALE(itsb_time_ctxnon0_8k),
	PMU_EVENT(itsb_hits_ctxnon0_64k, "dmmu=0,ctxnon0=1,pgsz=1,ticks=0"),
	PMU_EVENT(itsb_ticks_ctxnon0_64k, "dmmu=0,ctxnon0=1,pgsz=1,ticks=1"),
	MMUSTAT_TIME(itsb_time_ctxnon0_64k, "dmmu=0,ctxnon0=1,pgsz=1,ticks=1"),
	MMUSTAT_TIME_UNIT(itsb_time_ctxnon0_64k),
	MMUSTAT_TIME_SCALE(itsb_time_ctxnon0_64k),
	PMU_EVENT(itsb_hits_ctxnon0_4m, "dmmu=0,ctxnon0=1,pgsz=3,ticks=0"),
	PMU_EVENT(itsb_ticks_ctxnon0_4m, "dmmu=0,ctxnon0=1,pgsz=3,ticks=1"),
	MMUSTAT_TIME(itsb_time_ctxnon0_4m, "dmmu=0,ctxnon0=1,pgsz=3,ticks=1"),
	MMUSTAT_TIME_UNIT(itsb_time_ctxnon0_4m),
	MMUSTAT_TIME_SCALE(itsb_time_ctxnon0_4m),
	PMU_EVENT(itsb_hits_ctxnon0_256m, "dmmu=0,ctxnon0=1,pgsz=5,ticks=0"),
	PMU_EVENT(itsb_ticks_ctxnon0_256m, "dmmu=0,ctxnon0=1,pgsz=5,ticks=1"),
	MMUSTAT_TIME(itsb_time_ctxnon0_256m, "dmmu=0,ctxnon0=1,pgsz=5,ticks=1"),
	MMUSTAT_TIME_UNIT(itsb_time_ctxnon0_256m),
	MMUSTAT_TIME_SCALE(itsb_time_ctxnon0_256m),
	PMU_EVENT(dtsb_hits_ctx0_8k, "dmmu=1,ctxnon0=0,pgsz=0,ticks=0"),
	PMU_EVENT(dtsb_ticks_ctx0_8k, "dmmu=1,ctxnon0=0,pgsz=0,ticks=1"),
	MMUSTAT_TIME(dtsb_time_ctx0_8k, "dmmu=1,ctxnon0=0,pgsz=0,ticks=1"),
	MMUSTAT_TIME_UNIT(dtsb_time_ctx0_8k),
	MMUSTAT_TIME_SCALE(dtsb_time_ctx0_8k),
	PMU_EVENT(dtsb_hits_ctx0_64k, "dmmu=1,ctxnon0=0,pgsz=1,ticks=0"),
	PMU_EVENT(dtsb_ticks_ctx0_64k, "dmmu=1,ctxnon0=0,pgsz=1,ticks=1"),
	MMUSTAT_TIME(dtsb_time_ctx0_64k, "dmmu=1,ctxnon0=0,pgsz=1,ticks=1"),
	MMUSTAT_TIME_UNIT(dtsb_time_ctx0_64k),
	MMUSTAT_TIME_SCALE(dtsb_time_ctx0_64k),
	PMU_EVENT(dtsb_hits_ctx0_4m, "dmmu=1,ctxnon0=0,pgsz=3,ticks=0"),
	PMU_EVENT(dtsb_ticks_ctx0_4m, "dmmu=1,ctxnon0=0,pgsz=3,ticks=1"),
	MMUSTAT_TIME(dtsb_time_ctx0_4m, "dmmu=1,ctxnon0=0,pgsz=3,ticks=1"),
	MMUSTAT_TIME_UNIT(dtsb_time_ctx0_4m),
	MMUSTAT_TIME_SCALE(dtsb_time_ctx0_4m),
	PMU_EVENT(dtsb_hits_ctx0_256m, "dmmu=1,ctxnon0=0,pgsz=5,ticks=0"),
	PMU_EVENT(dtsb_ticks_ctx0_256m, "dmmu=1,ctxnon0=0,pgsz=5,ticks=1"),
	MMUSTAT_TIME(dtsb_time_ctx0_256m, "dmmu=1,ctxnon0=0,pgsz=5,ticks=1"),
	MMUSTAT_TIME_UNIT(dtsb_time_ctx0_256m),
	MMUSTAT_TIME_SCALE(dtsb_time_ctx0_256m),
	PMU_EVENT(dtsb_hits_ctxnon0_8k, "dmmu=1,ctxnon0=1,pgsz=0,ticks=0"),
	PMU_EVENT(dtsb_ticks_ctxnon0_8k, "dmmu=1,ctxnon0=1,pgsz=0,ticks=1"),
	MMUSTAT_TIME(dtsb_time_ctxnon0_8k, "dmmu=1,ctxnon0=1,pgsz=0,ticks=1"),
	MMUSTAT_TIME_UNIT(dtsb_time_ctxnon0_8k),
	MMUSTAT_TIME_SCALE(dtsb_time_ctxnon0_8k),
	PMU_EVENT(dtsb_hits_ctxnon0_64k, "dmmu=1,ctxnon0=1,pgsz=1,ticks=0"),
	PMU_EVENT(dtsb_ticks_ctxnon0_64k, "dmmu=1,ctxnon0=1,pgsz=1,ticks=1"),
	MMUSTAT_TIME(dtsb_time_ctxnon0_64k, "dmmu=1,ctxnon0=1,pgsz=1,ticks=1"),
	MMUSTAT_TIME_UNIT(dtsb_time_ctxnon0_64k),
	MMUSTAT_TIME_SCALE(dtsb_time_ctxnon0_64k),
	PMU_EVENT(dtsb_hits_ctxnon0_4m, "dmmu=1,ctxnon0=1,pgsz=3,ticks=0"),
	PMU_EVENT(dtsb_ticks_ctxnon0_4m, "dmmu=1,ctxnon0=1,pgsz=3,ticks=1"),
	MMUSTAT_TIME(dtsb_time_ctxnon0_4m, "dmmu=1,ctxnon0=1,pgsz=3,ticks=1"),
	MMUSTAT_TIME_UNIT(dtsb_time_ctxnon0_4m),
	MMUSTAT_TIME_SCALE(dtsb_time_ctxnon0_4m),
	PMU_EVENT(dtsb_hits_ctxnon0_256m, "dmmu=1,ctxnon0=1,pgsz=5,ticks=0"),
	PMU_EVENT(dtsb_ticks_ctxnon0_256m, "dmmu=1,ctxnon0=1,pgsz=5,ticks=1"),
	MMUSTAT_TIME(dtsb_time_ctxnon0_256m, "dmmu=1,ctxnon0=1,pgsz=5,ticks=1"),
	MMUSTAT_TIME_UNIT(dtsb_time_ctxnon0_256m),
	MMUSTAT_TIME_SCALE(dtsb_time_ctxnon0_256m),
	NULL,
};

/**
 * struct mmustat_cpu - per-CPU state, written only on that CPU with
 *	interrupts disabled (perf callbacks, IPIs); @installed and @evicted
 *	are also read elsewhere, as a hint (mmustat_event_destroy())
 * @active: events added on this CPU (linked by &perf_event.active_entry)
 * @own: the buffer this driver installs on this CPU, or NULL
 * @own_raddr: its real address
 * @src: the buffer the counts are read from (@own or somebody else's), or
 *	NULL if none
 * @src_raddr: the real address of @src
 * @online: between the online and offline hotplug callbacks
 * @installed: a conf installed @own and the hypervisor has not been seen
 *	to let go of it since; while set, @own is never freed
 * @hv_may_write: @own is to be given up, never freed: nobody could prove
 *	that the hypervisor let go of it
 * @evicted: another user took @own out of the slot (an administrator's
 *	"echo 0 > cpuN/mmustat_enable"): nothing is installed here again
 *	until the last event is gone
 * @info_task: the task that was running when INFO was last asked here,
 *	or NULL; with @info_switches, the key of the cached answer
 * @info_switches: that task's context-switch count then
 * @info_raddr: the cached answer
 * @txn_flags: the perf transaction under way on this CPU, if any
 * @txn_synced: a read of the current read transaction found the buffer
 * @txn_src: what it found (may be NULL)
 * @log_work: prints @msg (see mmustat_err())
 * @msg: the last message not yet printed
 * @nr_msg: messages since @log_work last ran
 */
struct mmustat_cpu {
	struct list_head active;
	u64 *own;
	u64 own_raddr;
	const u64 *src;
	u64 src_raddr;
	bool online;
	bool installed;
	bool hv_may_write;
	bool evicted;
	const struct task_struct *info_task;
	unsigned long info_switches;
	u64 info_raddr;
	unsigned int txn_flags;
	bool txn_synced;
	const u64 *txn_src;
	struct irq_work log_work;
	char msg[MMUSTAT_MSG_LEN];
	unsigned int nr_msg;
};

/**
 * struct sun4v_mmustat_pmu - one niagara_mmustat PMU
 * @pmu: the perf PMU
 * @hv: the hypervisor's calls and the buffer memory
 * @tick_hz: %tick frequency found at probe, 0 if unknown; the scale of
 *	the time views
 * @variants: MMUSTAT_VAR_* the PMU has; which events/ files it shows
 * @cpus: per-CPU state
 * @nr_events: events initialised and not yet destroyed
 * @hp_state: dynamic CPU hotplug state
 * @hp_node: hotplug instance
 */
struct sun4v_mmustat_pmu {
	struct pmu pmu;
	const struct sun4v_mmustat_hv_ops *hv;
	u64 tick_hz;
	u32 variants;
	struct mmustat_cpu __percpu *cpus;
	atomic_t nr_events;
	enum cpuhp_state hp_state;
	struct hlist_node hp_node;
};

static struct sun4v_mmustat_pmu *to_mmustat(struct pmu *pmu)
{
	return container_of(pmu, struct sun4v_mmustat_pmu, pmu);
}

static const char *mmustat_hv_err(unsigned long status)
{
	switch (status) {
	case HV_ENORADDR:
		return "ENORADDR";
	case HV_EBADALIGN:
		return "EBADALIGN";
	case HV_EBADTRAP:
		return "EBADTRAP";
	default:
		return "unexpected status";
	}
}

/*
 * A message about @st's CPU, printed by its log_work. The callers run on
 * that CPU with interrupts disabled, often inside perf core's callbacks
 * under the context lock, which nests inside the runqueue lock at a
 * context switch: printk() there could wake a console waiter and deadlock
 * on the runqueue. The irq_work runs on the same CPU with no lock held
 * and takes the message with interrupts disabled, so it never sees one
 * half written. Rate-limited: a hypervisor that refuses does so on every
 * look. If more than one message arrives before the work runs, the last
 * is printed with their number.
 */
static __printf(2, 3) void mmustat_err(struct mmustat_cpu *st,
				       const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vsnprintf(st->msg, sizeof(st->msg), fmt, args);
	va_end(args);
	st->nr_msg++;
	irq_work_queue(&st->log_work);
}

static void mmustat_log_work(struct irq_work *work)
{
	struct mmustat_cpu *st = container_of(work, struct mmustat_cpu,
					      log_work);
	char msg[MMUSTAT_MSG_LEN];
	unsigned long flags;
	unsigned int n;

	local_irq_save(flags);
	n = st->nr_msg;
	st->nr_msg = 0;
	strscpy(msg, st->msg, sizeof(msg));
	local_irq_restore(flags);
	if (n == 1)
		pr_err_ratelimited("%s\n", msg);
	else if (n)
		pr_err_ratelimited("%s (the last of %u messages)\n", msg, n);
}

static unsigned long mmustat_switches(const struct task_struct *t)
{
	return READ_ONCE(t->nvcsw) + READ_ONCE(t->nivcsw);
}

/*
 * The hardware: the NIAGARA_MMUSTAT_CONF/INFO fast traps (0x102/0x103, API
 * group 0x200 version 1.0) through the kernel's hvcalls.S wrappers
 * sun4v_mmustat_conf()/sun4v_mmustat_info(), buffer memory, and the %tick
 * frequency: &struct sun4v_mmustat_hv_ops, of which the KUnit suite gives
 * a model.
 */
static_assert(sizeof(struct hv_mmu_statistics) == SUN4V_MMUSTAT_PMU_BUF_SIZE);

struct sun4v_mmustat_call {
	bool conf;
	unsigned long arg0;
	unsigned long ret1;
	unsigned long status;
};

static void sun4v_mmustat_trap(void *data)
{
	struct sun4v_mmustat_call *c = data;

	if (c->conf)
		c->status = sun4v_mmustat_conf(c->arg0, &c->ret1);
	else
		c->status = sun4v_mmustat_info(&c->ret1);
}

/*
 * The hypercalls act on the calling virtual CPU. The driver calls on @cpu
 * with interrupts disabled; anything else is routed there by an IPI.
 */
static unsigned long sun4v_mmustat_call_on(unsigned int cpu, bool conf,
					   unsigned long arg0, u64 *ret1)
{
	struct sun4v_mmustat_call c = { .conf = conf, .arg0 = arg0 };
	unsigned long flags;

	if (cpu == get_cpu()) {
		local_irq_save(flags);
		sun4v_mmustat_trap(&c);
		local_irq_restore(flags);
	} else if (WARN_ON_ONCE(irqs_disabled()) ||
		   smp_call_function_single(cpu, sun4v_mmustat_trap, &c, 1)) {
		/* Not callable there: report "not supported" to be safe. */
		c.status = HV_EBADTRAP;
		c.ret1 = 0;
	}
	put_cpu();
	*ret1 = c.ret1;
	return c.status;
}

static unsigned long sun4v_mmustat_hv_info(void *ctx, unsigned int cpu,
					   u64 *raddr)
{
	return sun4v_mmustat_call_on(cpu, false, 0, raddr);
}

static unsigned long sun4v_mmustat_hv_conf(void *ctx, unsigned int cpu,
					   u64 raddr, u64 *prev)
{
	return sun4v_mmustat_call_on(cpu, true, raddr, prev);
}

static void *sun4v_mmustat_buf_alloc(void *ctx, unsigned int cpu, u64 *raddr)
{
	void *buf;

	/* kmalloc() aligns power-of-two sizes naturally: 512 > 64 bytes. */
	BUILD_BUG_ON(!is_power_of_2(SUN4V_MMUSTAT_PMU_BUF_SIZE) ||
		     SUN4V_MMUSTAT_PMU_BUF_SIZE < SUN4V_MMUSTAT_PMU_BUF_ALIGN);
	buf = kzalloc_node(SUN4V_MMUSTAT_PMU_BUF_SIZE, GFP_KERNEL,
			   cpu_to_node(cpu));
	if (!buf)
		return NULL;
	*raddr = __pa(buf);
	return buf;
}

static void sun4v_mmustat_buf_free(void *ctx, unsigned int cpu, void *buf,
				   u64 raddr)
{
	kfree(buf);
}

static void sun4v_mmustat_buf_leak(void *ctx, unsigned int cpu, void *buf,
				   u64 raddr)
{
	kmemleak_not_leak(buf);
}

/*
 * A buffer configured by someone else, e.g. the per-cpu buffer of
 * cpuN/mmustat_enable (arch/sparc/kernel/sysfs.c, which passes __pa() of a
 * linearly mapped address). Real memory is linearly mapped on sparc64, so
 * __va() is a permanent mapping usable with interrupts disabled.
 */
static const void *sun4v_mmustat_map(void *ctx, u64 raddr)
{
	if (!pfn_valid(PHYS_PFN(raddr)) ||
	    !pfn_valid(PHYS_PFN(raddr + SUN4V_MMUSTAT_PMU_BUF_SIZE - 1)))
		return NULL;
	return __va(raddr);
}

/*
 * "ticks" are %tick deltas (mmustat.txt 2.3). On the T1 %tick counts CPU cycles
 * at the clock-frequency of the machine description, which is what
 * sparc64_get_clock_tick() returns (inferred; no source states the %tick
 * rate of the T1 explicitly). 0: unknown, no time views.
 */
static u64 sun4v_mmustat_tick_hz(void *ctx, unsigned int cpu)
{
	return sparc64_get_clock_tick(cpu);
}

static const struct sun4v_mmustat_hv_ops sun4v_mmustat_hv = {
	.info = sun4v_mmustat_hv_info,
	.conf = sun4v_mmustat_hv_conf,
	.buf_alloc = sun4v_mmustat_buf_alloc,
	.buf_free = sun4v_mmustat_buf_free,
	.buf_leak = sun4v_mmustat_buf_leak,
	.map = sun4v_mmustat_map,
	.tick_hz = sun4v_mmustat_tick_hz,
};

/* MMUSTAT_INFO on @cpu: the buffer configured there, 0 if none */
static unsigned long mmustat_hv_info(const struct sun4v_mmustat_hv_ops *hv,
				     unsigned int cpu, u64 *raddr)
{
	return hv->info(hv->ctx, cpu, raddr);
}

/* MMUSTAT_CONF on @cpu: configure @raddr (0 disables), the old one in @prev */
static unsigned long mmustat_hv_conf(const struct sun4v_mmustat_hv_ops *hv,
				     unsigned int cpu, u64 raddr, u64 *prev)
{
	return hv->conf(hv->ctx, cpu, raddr, prev);
}

static void *mmustat_buf_alloc(const struct sun4v_mmustat_hv_ops *hv,
			       unsigned int cpu, u64 *raddr)
{
	return hv->buf_alloc(hv->ctx, cpu, raddr);
}

/* Only when the hypervisor can no longer write @buf */
static void mmustat_buf_free(const struct sun4v_mmustat_hv_ops *hv,
			     unsigned int cpu, void *buf, u64 raddr)
{
	hv->buf_free(hv->ctx, cpu, buf, raddr);
}

/* The hypervisor may still write it: never freed, and not a leak to report. */
static void mmustat_buf_leak(const struct sun4v_mmustat_hv_ops *hv,
			     unsigned int cpu, void *buf, u64 raddr)
{
	if (hv->buf_leak)
		hv->buf_leak(hv->ctx, cpu, buf, raddr);
}

static const void *mmustat_map(const struct sun4v_mmustat_hv_ops *hv,
			       u64 raddr)
{
	return hv->map(hv->ctx, raddr);
}

static u64 mmustat_tick_hz(const struct sun4v_mmustat_hv_ops *hv,
			   unsigned int cpu)
{
	return hv->tick_hz ? hv->tick_hz(hv->ctx, cpu) : 0;
}

/*
 * NIAGARA_MMUSTAT_INFO, asked once per context switch. Only a conf made on
 * this vCPU changes its buffer: ours, made here with interrupts off, or
 * another user's, made from task context on this CPU (Linux's
 * mmustat_enable uses work_on_cpu()). So as long as the same task runs
 * here without having been switched out, the last answer still holds:
 * the adds of a task's events at sched-in, or the reads of one group,
 * cost one fast trap, not one each. Our own confs update the answer.
 */
static unsigned long mmustat_info(struct sun4v_mmustat_pmu *mmu,
				  struct mmustat_cpu *st, unsigned int cpu,
				  u64 *raddr, bool cached)
{
	unsigned long status;

	if (cached && st->info_task == current &&
	    st->info_switches == mmustat_switches(current)) {
		*raddr = st->info_raddr;
		return HV_EOK;
	}
	status = mmustat_hv_info(mmu->hv, cpu, raddr);
	/*
	 * An answer got while a task is being switched out (its count is
	 * already bumped) must not be cached: it would match again when that
	 * task comes back, whatever ran meanwhile.
	 */
	st->info_task = status || !cached ? NULL : current;
	st->info_switches = mmustat_switches(current);
	st->info_raddr = *raddr;
	return status;
}

/* The buffer now configured here is @raddr (after one of our confs). */
static void mmustat_info_set(struct mmustat_cpu *st, u64 raddr)
{
	if (st->info_task)
		st->info_raddr = raddr;
}

static void mmustat_fold(struct perf_event *event, const u64 *src)
{
	u64 now = READ_ONCE(src[event->hw.config]);

	/* 64-bit words: the difference needs no width mask. */
	local64_add(now - local64_xchg(&event->hw.prev_count, now),
		    &event->count);
}

/*
 * Move every running event of this CPU from the current source buffer to
 * @src. Progress in our own buffer is folded first: it is ours, so it is
 * still there. A foreign buffer that was replaced may already be freed by
 * its owner, so it is not read again; what it counted since the last read
 * is not seen.
 */
static void mmustat_switch(struct mmustat_cpu *st, const u64 *src, u64 raddr)
{
	struct perf_event *event;

	list_for_each_entry(event, &st->active, active_entry) {
		if (event->hw.state & PERF_HES_STOPPED)
			continue;
		if (st->src && st->src == st->own)
			mmustat_fold(event, st->src);
		if (src)
			local64_set(&event->hw.prev_count,
				    READ_ONCE(src[event->hw.config]));
	}
	st->src = src;
	st->src_raddr = src ? raddr : 0;
}

/*
 * Another user's buffer @prev was configured where conf found it: put it
 * back (conf returns the previous address, mmustat.txt 2.1), and say so.
 * Returns true if it is configured again.
 */
static bool mmustat_restore(struct sun4v_mmustat_pmu *mmu, struct mmustat_cpu *st,
			    unsigned int cpu, u64 prev)
{
	unsigned long status;
	u64 ours;

	status = mmustat_hv_conf(mmu->hv, cpu, prev, &ours);
	mmustat_err(st, "cpu%u: found another user's statistics buffer at %#llx where ours was to go; %s",
		    cpu, prev, status ? "could not put it back" : "put it back");
	if (status)
		st->info_task = NULL;
	else
		mmustat_info_set(st, prev);
	return !status;
}

/*
 * After a failed conf mmustat.txt says nothing is collected; believe only an
 * INFO that shows our buffer gone. Returns true if it is gone.
 */
static bool mmustat_let_go(struct sun4v_mmustat_pmu *mmu, struct mmustat_cpu *st,
			   unsigned int cpu)
{
	u64 raddr;

	st->info_task = NULL;
	return !mmustat_hv_info(mmu->hv, cpu, &raddr) &&
	       raddr != st->own_raddr;
}

/* Configure our (zeroed) buffer in an empty slot. Returns it, or NULL. */
static const u64 *mmustat_install(struct sun4v_mmustat_pmu *mmu,
				  struct mmustat_cpu *st, unsigned int cpu,
				  u64 *raddrp)
{
	unsigned long status;
	u64 prev;

	/* mmustat.txt 2.1 wants a zeroed buffer. */
	memset(st->own, 0, SUN4V_MMUSTAT_PMU_BUF_SIZE);
	status = mmustat_hv_conf(mmu->hv, cpu, st->own_raddr, &prev);
	if (status) {
		mmustat_err(st, "cpu%u: hypervisor rejected the statistics buffer at %#llx: %s (%lu)",
			    cpu, st->own_raddr, mmustat_hv_err(status), status);
		if (!mmustat_let_go(mmu, st, cpu))
			WRITE_ONCE(st->installed, true);	/* not proven otherwise */
		return NULL;
	}
	WRITE_ONCE(st->installed, true);
	mmustat_info_set(st, st->own_raddr);
	if (prev && prev != st->own_raddr && mmustat_restore(mmu, st, cpu, prev)) {
		/* The hypervisor swapped ours out again: read theirs. */
		WRITE_ONCE(st->installed, false);
		*raddrp = prev;
		return mmustat_map(mmu->hv, prev);
	}
	*raddrp = st->own_raddr;
	return st->own;
}

/*
 * Find the buffer the hypervisor fills on this CPU, installing ours if there
 * is none. Runs on the CPU with interrupts disabled. @cached: the INFO
 * answer may come from, and go to, the per-context-switch cache (not when
 * called from a path that runs at sched-out). Returns 0 and sets *srcp
 * (NULL while the CPU is not online for us), or a negative errno if no
 * buffer can be read.
 */
static int mmustat_sync(struct sun4v_mmustat_pmu *mmu, const u64 **srcp,
			bool cached)
{
	struct mmustat_cpu *st = this_cpu_ptr(mmu->cpus);
	unsigned int cpu = smp_processor_id();
	const u64 *src = NULL;
	unsigned long status;
	u64 raddr;

	lockdep_assert_irqs_disabled();
	*srcp = NULL;
	if (!st->online)
		return 0;
	status = mmustat_info(mmu, st, cpu, &raddr, cached);
	if (status) {
		/* Nothing known changed: keep reading what we read. */
		mmustat_err(st, "cpu%u: info hypercall failed: %s (%lu)",
			    cpu, mmustat_hv_err(status), status);
		*srcp = st->src;
		return st->src ? 0 : -EIO;
	}
	/*
	 * An empty slot where ours was: another user turned the statistics
	 * off (cpuN/mmustat_enable confs 0 whoever installed the buffer).
	 * Respect that while our events live. (Where that user's own buffer
	 * had replaced ours, emptying the slot ends its use: ours goes back.)
	 */
	if (!raddr && st->installed && st->src == st->own && !st->evicted) {
		WRITE_ONCE(st->evicted, true);
		mmustat_err(st, "cpu%u: another user removed the statistics buffer; not counting on this CPU until the last event is closed",
			    cpu);
	}
	/* Ours is not configured: the hypervisor no longer writes it. */
	if (raddr != st->own_raddr)
		WRITE_ONCE(st->installed, false);
	if (st->src && raddr == st->src_raddr) {
		*srcp = st->src;
		return 0;
	}

	if (raddr && raddr == st->own_raddr) {
		src = st->own;
	} else if (raddr) {
		/* Somebody else's buffer (e.g. cpuN/mmustat_enable): read only. */
		src = mmustat_map(mmu->hv, raddr);
		if (!src)
			mmustat_err(st, "cpu%u: cannot read the buffer at real address %#llx configured by another user",
				    cpu, raddr);
	} else if (st->own && !st->hv_may_write && !st->evicted) {
		src = mmustat_install(mmu, st, cpu, &raddr);
	}
	mmustat_switch(st, src, raddr);
	*srcp = src;
	if (src)
		return 0;
	/* occupied by a buffer we cannot read, or emptied by its user */
	if (raddr || st->evicted)
		return -EBUSY;
	return st->own ? -EIO : -ENOMEM;
}

static void mmustat_start_from(struct perf_event *event, const u64 *src)
{
	local64_set(&event->hw.prev_count,
		    src ? READ_ONCE(src[event->hw.config]) : 0);
	event->hw.state = 0;
}

/*
 * The words are ordinary memory that the hypervisor writes, so reading a
 * count needs no hypercall, but knowing which buffer to read does: another
 * user (cpuN/mmustat_enable) may have configured its own buffer, or
 * removed ours, since the last look, and only INFO tells. One look serves
 * every event of a group read (PERF_PMU_TXN_READ), and the INFO answer is
 * cached per context switch (mmustat_info()).
 */
static void mmustat_update(struct perf_event *event)
{
	struct sun4v_mmustat_pmu *mmu = to_mmustat(event->pmu);
	struct mmustat_cpu *st = this_cpu_ptr(mmu->cpus);
	const u64 *src;

	/* A source change rebases the event, so the fold adds only new hits. */
	if (!(st->txn_flags & PERF_PMU_TXN_READ)) {
		mmustat_sync(mmu, &src, true);
	} else if (!st->txn_synced) {
		mmustat_sync(mmu, &src, true);
		st->txn_src = src;
		st->txn_synced = true;
	} else {
		src = st->txn_src;
	}
	if (src)
		mmustat_fold(event, src);
}

static void mmustat_start(struct perf_event *event, int flags)
{
	const u64 *src;

	mmustat_sync(to_mmustat(event->pmu), &src, true);
	mmustat_start_from(event, src);
}

static void mmustat_stop(struct perf_event *event, int flags)
{
	struct mmustat_cpu *st = this_cpu_ptr(to_mmustat(event->pmu)->cpus);
	const u64 *src;

	if (event->hw.state & PERF_HES_STOPPED)
		return;
	/*
	 * Our own buffer can be read without asking which one is configured:
	 * if another user replaced it since the last look, it stopped growing
	 * then, as documented. Somebody else's may be gone: ask.
	 */
	if (st->src && st->src == st->own) {
		mmustat_fold(event, st->src);
	} else {
		mmustat_sync(to_mmustat(event->pmu), &src, false);
		if (src)
			mmustat_fold(event, src);
	}
	event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int mmustat_add(struct perf_event *event, int flags)
{
	struct sun4v_mmustat_pmu *mmu = to_mmustat(event->pmu);
	struct mmustat_cpu *st = this_cpu_ptr(mmu->cpus);
	const u64 *src;
	int ret;

	ret = mmustat_sync(mmu, &src, true);
	if (ret)
		return ret;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	list_add_tail(&event->active_entry, &st->active);
	if (flags & PERF_EF_START)
		mmustat_start_from(event, src);
	return 0;
}

static void mmustat_del(struct perf_event *event, int flags)
{
	mmustat_stop(event, PERF_EF_UPDATE);
	list_del(&event->active_entry);
}

static void mmustat_read(struct perf_event *event)
{
	mmustat_update(event);
}

/*
 * Perf brackets the reads of a group (and the adds of one) on the CPU,
 * with interrupts off; only a read transaction changes anything.
 */
static void mmustat_start_txn(struct pmu *pmu, unsigned int flags)
{
	struct mmustat_cpu *st = this_cpu_ptr(to_mmustat(pmu)->cpus);

	st->txn_flags = flags;
	st->txn_synced = false;
}

static int mmustat_commit_txn(struct pmu *pmu)
{
	this_cpu_ptr(to_mmustat(pmu)->cpus)->txn_flags = 0;
	return 0;
}

static void mmustat_cancel_txn(struct pmu *pmu)
{
	this_cpu_ptr(to_mmustat(pmu)->cpus)->txn_flags = 0;
}

struct mmustat_call {
	struct sun4v_mmustat_pmu *mmu;
	int ret;
};

static void mmustat_release_ipi(void *data);

/*
 * The hypervisor spends time on every TSB hit while a buffer is
 * configured: when the last event is gone, take ours out of the slots.
 * Events are freed in process context. A CPU that comes online meanwhile
 * has nothing installed yet; one that goes offline removes its own.
 */
static void mmustat_event_destroy(struct perf_event *event)
{
	struct sun4v_mmustat_pmu *mmu = to_mmustat(event->pmu);
	unsigned int cpu;

	if (!atomic_dec_and_test(&mmu->nr_events))
		return;
	for_each_online_cpu(cpu) {
		/* an event opened meanwhile: leave the rest to its release */
		if (atomic_read(&mmu->nr_events))
			break;
		/* a hint, checked again there: no IPI where nothing is ours */
		if (!READ_ONCE(per_cpu_ptr(mmu->cpus, cpu)->installed) &&
		    !READ_ONCE(per_cpu_ptr(mmu->cpus, cpu)->evicted))
			continue;
		smp_call_function_single(cpu, mmustat_release_ipi, mmu, 1);
	}
}

static void mmustat_prepare_ipi(void *data)
{
	struct mmustat_call *c = data;
	const u64 *src;

	c->ret = mmustat_sync(c->mmu, &src, true);
	if (!c->ret && !src)
		c->ret = -ENODEV;
}

static int mmustat_event_init(struct perf_event *event)
{
	struct sun4v_mmustat_pmu *mmu = to_mmustat(event->pmu);
	struct perf_event_attr *attr = &event->attr;
	struct mmustat_call c = { .mmu = mmu };
	unsigned int pgsz;
	int ret;

	if (attr->type != event->pmu->type)
		return -ENOENT;
	if (is_sampling_event(event))
		return -EOPNOTSUPP;	/* no interrupt: counting only */
	/* The hypervisor counts in every mode; nothing can be excluded. */
	if (event_has_any_exclude_flag(event))
		return -EINVAL;
	ret = pmu_format_check(mmustat_format_mask, attr);
	if (ret)
		return ret;
	pgsz = FIELD_GET(MMUSTAT_CONFIG_PGSZ, attr->config);
	if (!sun4v_mmustat_pmu_pgsz_valid(pgsz))
		return -EINVAL;		/* a reserved slot: never written */

	event->hw.config =
		sun4v_mmustat_pmu_word(FIELD_GET(MMUSTAT_CONFIG_DMMU, attr->config),
				       FIELD_GET(MMUSTAT_CONFIG_CTXNON0, attr->config),
				   pgsz,
				   FIELD_GET(MMUSTAT_CONFIG_TICKS, attr->config));

	/*
	 * A CPU-bound event gets its buffer now, so that a hypervisor error
	 * is reported to the opener. Task events and inherited copies find
	 * theirs when first scheduled in (an error then leaves them unscheduled).
	 */
	/* Counted first: a last release meanwhile must not undo this. */
	atomic_inc(&mmu->nr_events);
	if (event->cpu >= 0 && !event->parent) {
		ret = smp_call_function_single(event->cpu, mmustat_prepare_ipi,
					       &c, 1);
		if (!ret)
			ret = c.ret;
		if (ret) {
			mmustat_event_destroy(event);
			return ret;
		}
	}
	event->destroy = mmustat_event_destroy;
	return 0;
}

/* Hotplug: mark the CPU usable; its buffer is installed on first use. */
static void mmustat_online_ipi(void *data)
{
	struct sun4v_mmustat_pmu *mmu = data;

	this_cpu_ptr(mmu->cpus)->online = true;
}

/*
 * Take our buffer out of the slot if it is the configured one (@raddr, from
 * INFO). Where the hypervisor cannot be shown to have let go of it, it is
 * marked never to be freed.
 */
static void mmustat_remove_own(struct sun4v_mmustat_pmu *mmu,
			       struct mmustat_cpu *st, unsigned int cpu,
			       u64 raddr)
{
	unsigned long status;
	u64 prev;

	if (raddr != st->own_raddr) {
		WRITE_ONCE(st->installed, false);	/* not ours: nothing to remove */
		return;
	}

	status = mmustat_hv_conf(mmu->hv, cpu, 0, &prev);
	if (status) {
		mmustat_err(st, "cpu%u: removing the statistics buffer failed: %s (%lu)",
			    cpu, mmustat_hv_err(status), status);
		WRITE_ONCE(st->installed, !mmustat_let_go(mmu, st, cpu));
	} else {
		/* conf returns what it replaced (2.1): ours, or somebody's. */
		WRITE_ONCE(st->installed, false);
		if (prev && prev != st->own_raddr)
			mmustat_restore(mmu, st, cpu, prev);
	}
	st->hv_may_write |= st->installed;
}

/*
 * Offline (and driver removal): take the final counts, stop reading, and
 * remove our buffer from the hypervisor if it is still the configured one.
 * A buffer somebody else installed is left alone. Our buffer is freed
 * afterwards only if the hypervisor is known to have let go of it: any
 * path that cannot show that gives it up instead (mmustat_free_own()).
 */
static void mmustat_offline_ipi(void *data)
{
	struct sun4v_mmustat_pmu *mmu = data;
	struct mmustat_cpu *st = this_cpu_ptr(mmu->cpus);
	unsigned int cpu = smp_processor_id();
	struct perf_event *event;
	unsigned long status;
	u64 raddr;

	/* No cached answer: the CPU is going, ask the hypervisor. */
	st->info_task = NULL;
	status = mmustat_hv_info(mmu->hv, cpu, &raddr);
	/* Still configured, so still readable: take the final counts. */
	if (!status && st->src && raddr == st->src_raddr) {
		list_for_each_entry(event, &st->active, active_entry)
			if (!(event->hw.state & PERF_HES_STOPPED))
				mmustat_fold(event, st->src);
	}
	st->src = NULL;
	st->src_raddr = 0;
	st->online = false;
	WRITE_ONCE(st->evicted, false);
	if (status) {
		mmustat_err(st, "cpu%u: info hypercall failed: %s (%lu)",
			    cpu, mmustat_hv_err(status), status);
		st->hv_may_write |= st->installed;
		return;
	}
	mmustat_remove_own(mmu, st, cpu, raddr);
}

/* No event is left: stop being a user of this CPU's slot. */
static void mmustat_release_ipi(void *data)
{
	struct sun4v_mmustat_pmu *mmu = data;
	struct mmustat_cpu *st = this_cpu_ptr(mmu->cpus);
	unsigned int cpu = smp_processor_id();
	unsigned long status;
	u64 raddr;

	/* A new event was added here meanwhile: it keeps what it found. */
	if (!st->online || !list_empty(&st->active))
		return;
	WRITE_ONCE(st->evicted, false);
	st->src = NULL;
	st->src_raddr = 0;
	if (!st->installed)
		return;
	st->info_task = NULL;
	status = mmustat_hv_info(mmu->hv, cpu, &raddr);
	if (status) {
		mmustat_err(st, "cpu%u: info hypercall failed: %s (%lu)",
			    cpu, mmustat_hv_err(status), status);
		return;
	}
	mmustat_remove_own(mmu, st, cpu, raddr);
}

/*
 * Free our buffer of @cpu, or give it up for good if the hypervisor may
 * still write it: leaked, once, with a message.
 */
static void mmustat_free_own(struct sun4v_mmustat_pmu *mmu, unsigned int cpu)
{
	struct mmustat_cpu *st = per_cpu_ptr(mmu->cpus, cpu);

	if (!st->own)
		return;
	if (st->hv_may_write || st->installed) {
		pr_err("cpu%u: cannot tell whether the hypervisor still writes the statistics buffer at %#llx: keeping its %u bytes for good\n",
		       cpu, st->own_raddr, SUN4V_MMUSTAT_PMU_BUF_SIZE);
		mmustat_buf_leak(mmu->hv, cpu, st->own, st->own_raddr);
	} else {
		mmustat_buf_free(mmu->hv, cpu, st->own, st->own_raddr);
	}
	st->own = NULL;
	st->own_raddr = 0;
	WRITE_ONCE(st->installed, false);
	st->hv_may_write = false;
}

static int mmustat_cpu_online(unsigned int cpu, struct hlist_node *node)
{
	struct sun4v_mmustat_pmu *mmu =
		hlist_entry_safe(node, struct sun4v_mmustat_pmu, hp_node);
	struct mmustat_cpu *st = per_cpu_ptr(mmu->cpus, cpu);
	u64 raddr;

	if (!st->own) {
		st->own = mmustat_buf_alloc(mmu->hv, cpu, &raddr);
		if (st->own)
			st->own_raddr = raddr;
		else
			pr_warn("cpu%u: no memory for the statistics buffer; only a buffer configured by another user can be read\n",
				cpu);
	}
	/* Never fail a CPU's bring-up for a statistic. */
	smp_call_function_single(cpu, mmustat_online_ipi, mmu, 1);
	return 0;
}

static int mmustat_cpu_offline(unsigned int cpu, struct hlist_node *node)
{
	struct sun4v_mmustat_pmu *mmu =
		hlist_entry_safe(node, struct sun4v_mmustat_pmu, hp_node);

	smp_call_function_single(cpu, mmustat_offline_ipi, mmu, 1);
	/* The IPI returned: freed if the hypervisor let go, else given up. */
	mmustat_free_own(mmu, cpu);
	return 0;
}

/* 10^9 / hz as a decimal string with 12 fractional digits. */
static void mmustat_scale(char *buf, size_t len, u64 hz)
{
	u64 ip = div64_u64(NSEC_PER_SEC, hz), rem = NSEC_PER_SEC - ip * hz;
	char frac[13];
	u64 digit;
	int i;

	/* long division; rem < hz, so rem * 10 cannot overflow */
	for (i = 0; i < 12; i++) {
		digit = div64_u64(rem * 10, hz);
		rem = rem * 10 - digit * hz;
		frac[i] = '0' + digit;
	}
	frac[12] = '\0';
	snprintf(buf, len, "%llu.%s", ip, frac);
}

/* events/<time view>.scale: nanoseconds per %tick, of this PMU's %tick. */
static ssize_t mmustat_scale_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct sun4v_mmustat_pmu *mmu = to_mmustat(dev_get_drvdata(dev));
	char scale[32];

	/* Shown only with MMUSTAT_VAR_TIME, i.e. when the rate is known. */
	if (!mmu->tick_hz)
		return -ENODATA;
	mmustat_scale(scale, sizeof(scale), mmu->tick_hz);
	return sysfs_emit(buf, "%s\n", scale);
}

static umode_t mmustat_event_is_visible(struct kobject *kobj,
					struct attribute *attr, int i)
{
	struct pmu *pmu = dev_get_drvdata(kobj_to_dev(kobj));

	return pmu_event_visible(attr, to_mmustat(pmu)->variants);
}

static const struct attribute_group mmustat_format_group = {
	.name = "format",
	.attrs = mmustat_format_attrs,
};

static const struct attribute_group mmustat_events_group = {
	.name = "events",
	.attrs = mmustat_event_attrs,
	.is_visible = mmustat_event_is_visible,
};

static const struct attribute_group *mmustat_attr_groups[] = {
	&mmustat_format_group,
	&mmustat_events_group,
	NULL,
};

struct mmustat_probe_info {
	const struct sun4v_mmustat_hv_ops *hv;
	unsigned long status;
	u64 raddr;
	u64 hz;
};

static void mmustat_probe_ipi(void *data)
{
	struct mmustat_probe_info *pi = data;
	unsigned int cpu = smp_processor_id();

	pi->status = mmustat_hv_info(pi->hv, cpu, &pi->raddr);
}

/**
 * sun4v_mmustat_pmu_probe() - detect the MMU statistics API and register the PMU
 * @hv: the hypervisor's calls and the buffer memory (a model in KUnit);
 *	must stay valid until sun4v_mmustat_pmu_remove()
 * @name: the PMU's name, or NULL for "niagara_mmustat"; another name lets
 *	a second instance (a test's, on its own model) be registered beside
 *	the machine's
 * @owner: module that owns the PMU; pinned while events exist
 *
 * Asks the hypervisor (info on one CPU) whether the API exists; EBADTRAP
 * means it does not (every CPU but the UltraSPARC T1), which is logged once
 * at info level. Otherwise registers the PMU and a CPU
 * hotplug instance that allocates a buffer for each online CPU. Buffers are
 * configured in the hypervisor only when an event first needs one.
 *
 * Return: the PMU, or ERR_PTR(-ENODEV) if the API is absent, -EIO for
 * another hypervisor error, -ENOMEM, or an error from perf_pmu_register().
 */
VISIBLE_IF_KUNIT struct sun4v_mmustat_pmu *
sun4v_mmustat_pmu_probe(const struct sun4v_mmustat_hv_ops *hv,
			const char *name, struct module *owner)
{
	struct mmustat_probe_info pi = { .hv = hv };
	struct sun4v_mmustat_pmu *mmu;
	unsigned int cpu;
	int ret;

	cpu = get_cpu();
	smp_call_function_single(cpu, mmustat_probe_ipi, &pi, 1);
	put_cpu();
	if (pi.status == HV_EBADTRAP) {
		pr_info("not supported by this hypervisor (EBADTRAP): MMU statistics exist on UltraSPARC T1 only\n");
		return ERR_PTR(-ENODEV);
	}
	if (pi.status) {
		pr_err("info hypercall failed: %s (%lu)\n",
		       mmustat_hv_err(pi.status), pi.status);
		return ERR_PTR(-EIO);
	}
	pi.hz = mmustat_tick_hz(hv, cpu);

	mmu = kzalloc(sizeof(*mmu), GFP_KERNEL);
	if (!mmu)
		return ERR_PTR(-ENOMEM);
	mmu->hv = hv;
	mmu->cpus = alloc_percpu(struct mmustat_cpu);
	if (!mmu->cpus) {
		ret = -ENOMEM;
		goto err_free;
	}
	for_each_possible_cpu(cpu) {
		struct mmustat_cpu *st = per_cpu_ptr(mmu->cpus, cpu);

		INIT_LIST_HEAD(&st->active);
		init_irq_work(&st->log_work, mmustat_log_work);
	}
	mmu->tick_hz = pi.hz;
	mmu->variants = pi.hz ? MMUSTAT_VAR_TIME : 0;

	mmu->pmu = (struct pmu) {
		.module		= owner,
		.task_ctx_nr	= perf_hw_context,
		.capabilities	= PERF_PMU_CAP_NO_INTERRUPT,
		.attr_groups	= mmustat_attr_groups,
		.event_init	= mmustat_event_init,
		.add		= mmustat_add,
		.del		= mmustat_del,
		.start		= mmustat_start,
		.stop		= mmustat_stop,
		.read		= mmustat_read,
		.start_txn	= mmustat_start_txn,
		.commit_txn	= mmustat_commit_txn,
		.cancel_txn	= mmustat_cancel_txn,
	};

	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN,
				      "perf/niagara_mmustat:online",
				      mmustat_cpu_online, mmustat_cpu_offline);
	if (ret < 0)
		goto err_percpu;
	mmu->hp_state = ret;
	ret = cpuhp_state_add_instance(mmu->hp_state, &mmu->hp_node);
	if (ret)
		goto err_state;

	ret = perf_pmu_register(&mmu->pmu, name ?: MMUSTAT_PMU_NAME, -1);
	if (ret)
		goto err_instance;
	pr_info("registered, %%tick at %llu Hz%s\n", pi.hz,
		pi.hz ? "" : " (unknown: no time events)");
	return mmu;

err_instance:
	cpuhp_state_remove_instance(mmu->hp_state, &mmu->hp_node);
err_state:
	cpuhp_remove_multi_state(mmu->hp_state);
err_percpu:
	for_each_possible_cpu(cpu) {
		irq_work_sync(&per_cpu_ptr(mmu->cpus, cpu)->log_work);
		mmustat_free_own(mmu, cpu);
	}
	free_percpu(mmu->cpus);
err_free:
	kfree(mmu);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_mmustat_pmu_probe);

/**
 * sun4v_mmustat_pmu_remove() - unregister the PMU and give the buffers back
 * @mmu: from sun4v_mmustat_pmu_probe()
 *
 * Every CPU's own buffer is removed from the hypervisor (only where it is
 * still the configured one) and freed once that call returned. A buffer the
 * hypervisor may still write is deliberately leaked.
 */
VISIBLE_IF_KUNIT void sun4v_mmustat_pmu_remove(struct sun4v_mmustat_pmu *mmu)
{
	unsigned int cpu;

	perf_pmu_unregister(&mmu->pmu);
	cpuhp_state_remove_instance(mmu->hp_state, &mmu->hp_node);
	cpuhp_remove_multi_state(mmu->hp_state);
	for_each_possible_cpu(cpu) {
		irq_work_sync(&per_cpu_ptr(mmu->cpus, cpu)->log_work);
		mmustat_free_own(mmu, cpu);
	}
	free_percpu(mmu->cpus);
	kfree(mmu);
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_mmustat_pmu_remove);

/**
 * sun4v_mmustat_pmu_to_pmu() - the perf PMU of a probed instance
 * @mmu: from sun4v_mmustat_pmu_probe()
 *
 * Return: the &struct pmu (its type is what perf_event_attr.type needs).
 */
#if IS_ENABLED(CONFIG_KUNIT)
struct pmu *sun4v_mmustat_pmu_to_pmu(struct sun4v_mmustat_pmu *mmu)
{
	return &mmu->pmu;
}
EXPORT_SYMBOL_IF_KUNIT(sun4v_mmustat_pmu_to_pmu);
#endif

/*
 * The device: registered by the sparc64 arch code on every sun4v machine.
 * 0x102/0x103 belong to API group 0x200 v1.0; the hypervisor resolves them
 * to EBADTRAP until the group's version is set. pcr.c already holds it on
 * a T1; this takes our own reference, for the lifetime of the PMU.
 */
static int sun4v_mmustat_platform_probe(struct platform_device *pdev)
{
	struct sun4v_mmustat_pmu *mmu;
	unsigned long minor = 0;
	int ret;

	ret = sun4v_hvapi_register(HV_GRP_NIAG_PERF, 1, &minor);
	if (ret) {
		dev_info(&pdev->dev, "hypervisor API group 0x200 v1 not available (%d): no MMU statistics\n",
			 ret);
		return -ENODEV;
	}
	mmu = sun4v_mmustat_pmu_probe(&sun4v_mmustat_hv, NULL, THIS_MODULE);
	if (IS_ERR(mmu)) {
		sun4v_hvapi_unregister(HV_GRP_NIAG_PERF);
		return PTR_ERR(mmu);
	}
	platform_set_drvdata(pdev, mmu);
	return 0;
}

static void sun4v_mmustat_platform_remove(struct platform_device *pdev)
{
	sun4v_mmustat_pmu_remove(platform_get_drvdata(pdev));
	sun4v_hvapi_unregister(HV_GRP_NIAG_PERF);
}

static const struct platform_device_id sun4v_mmustat_pmu_ids[] = {
	{ "niagara_mmustat" },
	{ }
};
MODULE_DEVICE_TABLE(platform, sun4v_mmustat_pmu_ids);

static struct platform_driver sun4v_mmustat_pmu_driver = {
	.driver = {
		.name = "sun4v_mmustat_pmu",
		.suppress_bind_attrs = true,
	},
	.probe = sun4v_mmustat_platform_probe,
	.remove = sun4v_mmustat_platform_remove,
	.id_table = sun4v_mmustat_pmu_ids,
};
module_platform_driver(sun4v_mmustat_pmu_driver);

MODULE_DESCRIPTION("perf PMU for the UltraSPARC T1 hypervisor MMU statistics");
MODULE_LICENSE("GPL");
