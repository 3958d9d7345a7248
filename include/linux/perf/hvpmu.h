/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Common run-time pieces of the hypervisor and uncore PMU drivers (hvpmu):
 * folding a narrow hardware counter into a 64-bit count, a designated CPU
 * with a "cpumask" attribute that follows CPU hotplug, and messages from
 * contexts that must not print. The event encoding is compile-time, in
 * <linux/perf/pmu_format.h>.
 */
#ifndef _LINUX_PERF_HVPMU_H
#define _LINUX_PERF_HVPMU_H

#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/irq_work.h>
#include <linux/perf_event.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>
#include <linux/types.h>
#include <linux/workqueue.h>

u64 hvpmu_counter_fold(struct perf_event *event, u64 now, unsigned int width);

/**
 * struct hvpmu_uncore - a system-wide PMU served by one designated CPU
 * @pmu: the perf PMU; drivers embed the whole struct and use container_of()
 * @cpu: the designated CPU, shown in sysfs "cpumask"; events are moved to
 *	another online CPU when it goes offline
 * @migrate: optional; called after the events moved from @from to @to,
 *	e.g. to move an interrupt's affinity. May be NULL.
 * @node: private: CPU hotplug instance
 */
struct hvpmu_uncore {
	struct pmu pmu;
	unsigned int cpu;
	void (*migrate)(struct hvpmu_uncore *uncore, unsigned int from,
			unsigned int to);
	struct hlist_node node;
};

extern const struct attribute_group hvpmu_uncore_cpumask_group;

int hvpmu_uncore_register(struct hvpmu_uncore *uncore, const char *name);
void hvpmu_uncore_unregister(struct hvpmu_uncore *uncore);
int hvpmu_uncore_event_init(struct hvpmu_uncore *uncore,
			    struct perf_event *event);

/**
 * hvpmu_uncore_from_pmu() - the &struct hvpmu_uncore embedding a PMU
 * @pmu: the PMU
 *
 * Return: the containing &struct hvpmu_uncore.
 */
static inline struct hvpmu_uncore *hvpmu_uncore_from_pmu(struct pmu *pmu)
{
	return container_of(pmu, struct hvpmu_uncore, pmu);
}

/* --- messages from contexts that must not drive the console --------------- */

/**
 * struct hvpmu_defer - a work item that can be queued under any lock
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
struct hvpmu_defer {
	struct irq_work kick;
	struct work_struct work;
};

void hvpmu_defer_init(struct hvpmu_defer *defer, work_func_t fn);
void hvpmu_defer_queue(struct hvpmu_defer *defer);
void hvpmu_defer_flush(struct hvpmu_defer *defer);

#define HVPMU_LOG_LINES	4
#define HVPMU_LOG_LEN	192

/**
 * struct hvpmu_log - messages formatted where printk must not run, printed
 *	later by a work item
 * @lock: protects @line, @nr and @lost
 * @print: prints the queued lines in process context
 * @nr: lines queued
 * @lost: messages that found the queue full since the last print
 * @line: the queued lines
 *
 * Read, start, stop and poll paths run under perf's raw context lock or a
 * driver's raw spinlock, often in hard-irq context. The console drivers
 * take spinlock_t locks (sleeping locks on PREEMPT_RT, an invalid wait
 * context for lockdep), and printk_deferred() is not exported to modules.
 */
struct hvpmu_log {
	raw_spinlock_t lock;
	struct hvpmu_defer print;
	unsigned int nr;
	unsigned long lost;
	char line[HVPMU_LOG_LINES][HVPMU_LOG_LEN];
};

void hvpmu_log_init(struct hvpmu_log *log);
__printf(2, 3) void hvpmu_log(struct hvpmu_log *log, const char *fmt, ...);
void hvpmu_log_flush(struct hvpmu_log *log);

#endif /* _LINUX_PERF_HVPMU_H */
