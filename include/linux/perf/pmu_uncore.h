/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Common run-time pieces of the hypervisor and uncore PMU drivers:
 * folding a narrow hardware counter into a 64-bit count, a designated CPU
 * with a "cpumask" attribute that follows CPU hotplug, and messages from
 * contexts that must not print. The event encoding is compile-time, in
 * <linux/perf/pmu_format.h>.
 */
#ifndef _LINUX_PERF_PMU_UNCORE_H
#define _LINUX_PERF_PMU_UNCORE_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/irq_work.h>
#include <linux/perf_event.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>
#include <linux/types.h>
#include <linux/workqueue.h>

u64 pmu_counter_fold(struct perf_event *event, u64 now, unsigned int width);

/**
 * struct pmu_uncore - a system-wide PMU served by one designated CPU
 * @pmu: the perf PMU; drivers embed the whole struct and use container_of()
 * @cpu: the designated CPU, shown in sysfs "cpumask"; events are moved to
 *	another online CPU when it goes offline
 * @migrate: optional; called after the events moved from @from to @to,
 *	e.g. to move an interrupt's affinity. May be NULL.
 * @node: private: CPU hotplug instance
 */
struct pmu_uncore {
	struct pmu pmu;
	unsigned int cpu;
	void (*migrate)(struct pmu_uncore *uncore, unsigned int from,
			unsigned int to);
	struct hlist_node node;
};

extern const struct attribute_group pmu_uncore_cpumask_group;

int pmu_uncore_register(struct pmu_uncore *uncore, const char *name);
void pmu_uncore_unregister(struct pmu_uncore *uncore);
int pmu_uncore_event_init(struct pmu_uncore *uncore,
			  struct perf_event *event);

/**
 * pmu_uncore_from_pmu() - the &struct pmu_uncore embedding a PMU
 * @pmu: the PMU
 *
 * Return: the containing &struct pmu_uncore.
 */
static inline struct pmu_uncore *pmu_uncore_from_pmu(struct pmu *pmu)
{
	return container_of(pmu, struct pmu_uncore, pmu);
}

/* --- messages from contexts that must not drive the console --------------- */

/**
 * struct pmu_defer - a work item that can be queued under any lock
 * @kick: queues @work from an irq_work
 * @work: runs in process context
 *
 * queue_work() takes the worker pool's lock and may wake a worker, which
 * takes the scheduler's locks. Perf calls pmu::add, del, start, stop and
 * read under its context lock, which the context switch takes under the
 * runqueue lock (per-task events; since Linux 6.2 the CPU context shares
 * one lock class with the task contexts), so queueing work there closes a
 * cycle lockdep reports (ctx->lock -> pool->lock -> pi_lock -> rq->lock ->
 * ctx->lock) and that can deadlock. irq_work_queue() takes no lock.
 */
struct pmu_defer {
	struct irq_work kick;
	struct work_struct work;
};

void pmu_defer_init(struct pmu_defer *defer, work_func_t fn);
void pmu_defer_queue(struct pmu_defer *defer);
void pmu_defer_flush(struct pmu_defer *defer);

#define PMU_LOG_LINES	4
#define PMU_LOG_LEN	192

/**
 * struct pmu_log - messages formatted where printk must not run, printed
 *	later by a work item
 * @print: prints the queued lines in process context
 * @state: per line: free, being written, or ready to print
 * @lost: messages that found no free line since the last print
 * @line: the queued lines
 *
 * Read, start, stop and poll paths run under perf's raw context lock or a
 * driver's raw spinlock, often in hard-irq context, and some in NMI
 * context (sparc64's perf interrupt comes at PIL 15, which
 * local_irq_save() does not mask). The console drivers take spinlock_t
 * locks (sleeping locks on PREEMPT_RT, an invalid wait context for
 * lockdep), and printk_deferred() is not exported to modules. Lines are
 * claimed with cmpxchg(), so queueing takes no lock: an NMI that
 * interrupts a CPU in the middle of pmu_log() queues its own line.
 */
struct pmu_log {
	struct pmu_defer print;
	atomic_t state[PMU_LOG_LINES];
	atomic_long_t lost;
	char line[PMU_LOG_LINES][PMU_LOG_LEN];
};

void pmu_log_init(struct pmu_log *log);
__printf(2, 3) void pmu_log(struct pmu_log *log, const char *fmt, ...);
void pmu_log_flush(struct pmu_log *log);

#endif /* _LINUX_PERF_PMU_UNCORE_H */
