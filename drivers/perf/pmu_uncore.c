// SPDX-License-Identifier: GPL-2.0
/*
 * Common run-time helper of the hypervisor and uncore PMU drivers:
 * counter-width extension, the designated-CPU handling of uncore PMUs and
 * deferred messages. The event encoding is compile-time
 * (<linux/perf/pmu_format.h>): nothing is built or parsed at registration.
 */

#define pr_fmt(fmt) "pmu_uncore: " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/perf/pmu_uncore.h>
#include <linux/perf/pmu_format.h>
#include <linux/slab.h>

/**
 * pmu_counter_fold() - add a narrow hardware counter's progress to a count
 * @event: the event; @event->hw.prev_count holds the previous raw value
 * @now: the raw value just read from the hardware
 * @width: the counter's width in bits (1 to 64)
 *
 * The difference is taken modulo 2^@width, so one wrap between two calls is
 * harmless; callers must call it at least once per wrap period (overflow
 * interrupt or polling). Callers serialise calls for one event; the first
 * raw value is stored with local64_set(&event->hw.prev_count, ...) when the
 * counter starts.
 *
 * Return: the number of events added to @event->count.
 */
u64 pmu_counter_fold(struct perf_event *event, u64 now, unsigned int width)
{
	u64 prev = local64_xchg(&event->hw.prev_count, now);
	u64 delta = pmu_counter_delta(prev, now, width);

	local64_add(delta, &event->count);
	return delta;
}
EXPORT_SYMBOL_GPL(pmu_counter_fold);

static enum cpuhp_state pmu_uncore_cpuhp_state;

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct pmu_uncore *uncore = pmu_uncore_from_pmu(dev_get_drvdata(dev));
	unsigned int cpu = READ_ONCE(uncore->cpu);

	return cpumap_print_to_pagebuf(true, buf, cpu < nr_cpu_ids ?
				       cpumask_of(cpu) : cpu_none_mask);
}
static DEVICE_ATTR_RO(cpumask);

static struct attribute *pmu_uncore_cpumask_attrs[] = {
	&dev_attr_cpumask.attr,
	NULL,
};

/*
 * The "cpumask" file of an uncore PMU: the one CPU that perf should open the
 * PMU's events on. Put it in the PMU's attr_groups.
 */
const struct attribute_group pmu_uncore_cpumask_group = {
	.attrs = pmu_uncore_cpumask_attrs,
};
EXPORT_SYMBOL_GPL(pmu_uncore_cpumask_group);

static int pmu_uncore_cpu_offline(unsigned int cpu, struct hlist_node *node)
{
	struct pmu_uncore *uncore =
		hlist_entry_safe(node, struct pmu_uncore, node);
	unsigned int target;

	if (cpu != uncore->cpu)
		return 0;
	/* The dying CPU is still in cpu_online_mask at this state. */
	target = cpumask_any_but(cpu_online_mask, cpu);
	if (target >= nr_cpu_ids)
		return 0;
	perf_pmu_migrate_context(&uncore->pmu, cpu, target);
	WRITE_ONCE(uncore->cpu, target);
	if (uncore->migrate)
		uncore->migrate(uncore, cpu, target);
	return 0;
}

/**
 * pmu_uncore_register() - register a system-wide PMU with a designated CPU
 * @uncore: the PMU; @uncore->pmu must be filled in, @uncore->migrate may be
 * @name: the PMU's name in sysfs and perf
 *
 * Designates the CPU it runs on (as arm-ccn, arm_smmuv3_pmu and
 * fsl_imx8_ddr_perf do: a module loaded with taskset designates that CPU),
 * follows CPU hotplug (events migrate to another online CPU when the
 * designated one goes offline) and registers the PMU. Put
 * &pmu_uncore_cpumask_group in the PMU's attr_groups. Undone with
 * pmu_uncore_unregister().
 *
 * Return: 0, or the error of cpuhp or perf_pmu_register(); on error nothing
 * stays registered.
 */
int pmu_uncore_register(struct pmu_uncore *uncore, const char *name)
{
	int ret;

	if (!pmu_uncore_cpuhp_state)
		return -ENODEV;

	/*
	 * Follow hotplug first, with no CPU designated, and designate one
	 * with hotplug held off only once the PMU is registered: the offline
	 * callback migrates the contexts of the designated CPU, which do not
	 * exist before. Events opened in between are refused (-ENODEV).
	 * (The _cpuslocked variant of the instance call is not exported.)
	 */
	uncore->cpu = nr_cpu_ids;
	ret = cpuhp_state_add_instance_nocalls(pmu_uncore_cpuhp_state,
					       &uncore->node);
	if (ret)
		return ret;
	ret = perf_pmu_register(&uncore->pmu, name, -1);
	if (ret) {
		cpuhp_state_remove_instance_nocalls(pmu_uncore_cpuhp_state,
						    &uncore->node);
		return ret;
	}
	/* online, and stays so while hotplug is held off */
	cpus_read_lock();
	WRITE_ONCE(uncore->cpu, raw_smp_processor_id());
	cpus_read_unlock();
	return 0;
}
EXPORT_SYMBOL_GPL(pmu_uncore_register);

/**
 * pmu_uncore_unregister() - undo pmu_uncore_register()
 * @uncore: the PMU
 */
void pmu_uncore_unregister(struct pmu_uncore *uncore)
{
	/*
	 * No CPU designated from here on, so that a CPU going offline while
	 * perf_pmu_unregister() frees the contexts leaves them alone; the
	 * lock waits for an offline callback already running.
	 */
	cpus_read_lock();
	WRITE_ONCE(uncore->cpu, nr_cpu_ids);
	cpus_read_unlock();
	perf_pmu_unregister(&uncore->pmu);
	cpuhp_state_remove_instance_nocalls(pmu_uncore_cpuhp_state, &uncore->node);
}
EXPORT_SYMBOL_GPL(pmu_uncore_unregister);

static bool pmu_same_pmu_or_sw(struct perf_event *a, struct perf_event *b)
{
	return a->pmu == b->pmu || is_software_event(a);
}

/**
 * pmu_uncore_event_init() - the checks every uncore PMU's event_init makes
 * @uncore: the PMU
 * @event: the new event
 *
 * Refuses events of another PMU, sampling, per-task events and groups that
 * mix in another hardware PMU (software leaders, e.g. a cpu-clock leader
 * that reads the group periodically, are allowed), then binds the event to
 * the designated CPU. Driver-specific checks (config, counters) come after.
 *
 * Return: 0, -ENOENT (not this PMU), -EOPNOTSUPP (sampling), -ENODEV (the
 * PMU is being registered or unregistered: no CPU designated) or -EINVAL.
 */
int pmu_uncore_event_init(struct pmu_uncore *uncore,
			  struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	unsigned int cpu = READ_ONCE(uncore->cpu);
	struct perf_event *sibling;

	if (event->attr.type != uncore->pmu.type)
		return -ENOENT;
	if (is_sampling_event(event))
		return -EOPNOTSUPP;
	if (event->cpu < 0 || (event->attach_state & PERF_ATTACH_TASK))
		return -EINVAL;
	/*
	 * A new leader has no siblings to check; perf core holds the
	 * leader's ctx->mutex, which for_each_sibling_event() asserts, only
	 * while a sibling is initialised.
	 */
	if (leader != event) {
		if (!pmu_same_pmu_or_sw(leader, event))
			return -EINVAL;
		for_each_sibling_event(sibling, leader)
			if (!pmu_same_pmu_or_sw(sibling, event))
				return -EINVAL;
	}

	/* registering or unregistering: no CPU to count on */
	if (cpu >= nr_cpu_ids)
		return -ENODEV;
	event->cpu = cpu;
	return 0;
}
EXPORT_SYMBOL_GPL(pmu_uncore_event_init);

static void pmu_defer_kick(struct irq_work *kick)
{
	schedule_work(&container_of(kick, struct pmu_defer, kick)->work);
}

/**
 * pmu_defer_init() - prepare a struct pmu_defer
 * @defer: the deferred work
 * @fn: what it runs; container_of(work, ..., defer.work) finds its owner
 */
void pmu_defer_init(struct pmu_defer *defer, work_func_t fn)
{
	init_irq_work(&defer->kick, pmu_defer_kick);
	INIT_WORK(&defer->work, fn);
}
EXPORT_SYMBOL_GPL(pmu_defer_init);

/**
 * pmu_defer_queue() - run the work soon, from any context, any lock held
 * @defer: the deferred work
 */
void pmu_defer_queue(struct pmu_defer *defer)
{
	irq_work_queue(&defer->kick);
}
EXPORT_SYMBOL_GPL(pmu_defer_queue);

/**
 * pmu_defer_flush() - wait until queued work has run
 * @defer: the deferred work
 *
 * Call before @defer is freed, with nothing left that can queue it.
 */
void pmu_defer_flush(struct pmu_defer *defer)
{
	if (!defer->work.func)	/* never initialised */
		return;
	irq_work_sync(&defer->kick);
	flush_work(&defer->work);
}
EXPORT_SYMBOL_GPL(pmu_defer_flush);

static void pmu_log_work(struct work_struct *work);

/* The states of a line of a struct pmu_log. */
enum { PMU_LOG_FREE, PMU_LOG_WRITING, PMU_LOG_READY };

/**
 * pmu_log_init() - prepare a struct pmu_log
 * @log: the log
 */
void pmu_log_init(struct pmu_log *log)
{
	memset(log, 0, sizeof(*log));
	pmu_defer_init(&log->print, pmu_log_work);
}
EXPORT_SYMBOL_GPL(pmu_log_init);

/**
 * pmu_log() - queue a warning for printing from process context
 * @log: the log
 * @fmt: printk format, with the caller's pr_fmt() prefix
 *
 * Any context, NMI included, any lock held: takes no lock. A message that
 * finds every line taken is only counted; rate-limit at the caller. Lines
 * queued at the same time may print in another order.
 */
void pmu_log(struct pmu_log *log, const char *fmt, ...)
{
	va_list args;
	unsigned int i;

	for (i = 0; i < PMU_LOG_LINES; i++)
		if (atomic_cmpxchg(&log->state[i], PMU_LOG_FREE,
				   PMU_LOG_WRITING) == PMU_LOG_FREE)
			break;
	if (i < PMU_LOG_LINES) {
		va_start(args, fmt);
		vscnprintf(log->line[i], PMU_LOG_LEN, fmt, args);
		va_end(args);
		atomic_set_release(&log->state[i], PMU_LOG_READY);
	} else {
		atomic_long_inc(&log->lost);
	}
	pmu_defer_queue(&log->print);
}
EXPORT_SYMBOL_GPL(pmu_log);

/* The queued lines carry their driver's own prefix: none from this file. */
#undef pr_fmt
#define pr_fmt(fmt) fmt

/* Print what pmu_log() queued. */
static void pmu_log_work(struct work_struct *work)
{
	struct pmu_log *log = container_of(work, struct pmu_log, print.work);
	unsigned long lost;
	unsigned int i;

	for (i = 0; i < PMU_LOG_LINES; i++) {
		if (atomic_read_acquire(&log->state[i]) != PMU_LOG_READY)
			continue;
		pr_warn("%s", log->line[i]);
		atomic_set_release(&log->state[i], PMU_LOG_FREE);
	}
	lost = atomic_long_xchg(&log->lost, 0);
	if (lost)
		pr_warn("pmu_uncore: %lu more messages not shown\n", lost);
}

#undef pr_fmt
#define pr_fmt(fmt) "pmu_uncore: " fmt

/**
 * pmu_log_flush() - print what is queued and wait for it
 * @log: the log
 *
 * Call before @log is freed, with nothing left that can queue to it.
 */
void pmu_log_flush(struct pmu_log *log)
{
	pmu_defer_flush(&log->print);
}
EXPORT_SYMBOL_GPL(pmu_log_flush);

static int __init pmu_uncore_init(void)
{
	int ret;

	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "perf/pmu_uncore:online",
				      NULL, pmu_uncore_cpu_offline);
	if (ret < 0)
		return ret;
	pmu_uncore_cpuhp_state = ret;
	return 0;
}

static void __exit pmu_uncore_exit(void)
{
	cpuhp_remove_multi_state(pmu_uncore_cpuhp_state);
}

/* Before the drivers' device_initcalls when built in. */
subsys_initcall(pmu_uncore_init);
module_exit(pmu_uncore_exit);

MODULE_DESCRIPTION("Common helper for hypervisor and uncore PMU drivers");
MODULE_LICENSE("GPL");
