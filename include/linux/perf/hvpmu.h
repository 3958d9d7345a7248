/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Common helper for the hypervisor and uncore PMU drivers (hvpmu).
 *
 * One table of fields per PMU is the single source of truth for its config
 * ABI: the sysfs format/ directory, the events/ directory, field extraction
 * and the rejection of unknown bits and out-of-range values all come from it,
 * so a driver never writes a format string or a mask by hand.
 *
 * The file also carries the small pieces every uncore-style driver needs:
 * folding a narrow hardware counter into a 64-bit count, and a designated
 * CPU with a "cpumask" attribute that follows CPU hotplug.
 */
#ifndef _LINUX_PERF_HVPMU_H
#define _LINUX_PERF_HVPMU_H

#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/irq_work.h>
#include <linux/list.h>
#include <linux/perf_event.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>
#include <linux/types.h>
#include <linux/workqueue.h>

/**
 * enum hvpmu_word - the perf_event_attr words a field can live in
 * @HVPMU_CONFIG: perf_event_attr.config ("config" in sysfs)
 * @HVPMU_CONFIG1: perf_event_attr.config1 ("config1")
 * @HVPMU_CONFIG2: perf_event_attr.config2 ("config2")
 * @HVPMU_NR_WORDS: number of words
 */
enum hvpmu_word {
	HVPMU_CONFIG,
	HVPMU_CONFIG1,
	HVPMU_CONFIG2,
	HVPMU_NR_WORDS,
};

/**
 * struct hvpmu_field - one field of a PMU's event encoding
 * @name: name in sysfs format/ and in event strings
 * @alias_of: for an alias, the name of the field (in the same table) whose
 *	bits it shares exactly; an alias gets its own format/ file but is
 *	never extracted or range-checked on its own. NULL otherwise.
 * @min: smallest accepted value
 * @max: largest accepted value; 0 means every value that fits in @width
 * @word: the perf_event_attr word, an &enum hvpmu_word
 * @lsb: lowest bit of the field within @word
 * @width: number of bits, 1 to 64
 */
struct hvpmu_field {
	const char *name;
	const char *alias_of;
	u64 min;
	u64 max;
	u8 word;
	u8 lsb;
	u8 width;
};

/**
 * HVPMU_FIELD() - initialiser for a &struct hvpmu_field
 * @_name: field name
 * @_word: &enum hvpmu_word
 * @_lsb: lowest bit
 * @_width: number of bits
 * @...: optional designated initialisers (.min, .max, .alias_of)
 */
#define HVPMU_FIELD(_name, _word, _lsb, _width, ...)			\
	{ .name = (_name), .word = (_word), .lsb = (_lsb),		\
	  .width = (_width), __VA_ARGS__ }

/**
 * struct hvpmu_event - a named event in sysfs events/
 * @name: event name (perf's "pmu/name/")
 * @terms: comma-separated "field=value" terms, e.g. "event=0x1,node=?".
 *	Every term must name a field of the table and its value must be in the
 *	field's range; "?" makes perf ask the user for the value. Checked when
 *	the attributes are built.
 * @unit: content of events/<name>.unit, or NULL
 * @scale: content of events/<name>.scale, or NULL
 * @variants: 0 to show the event always; otherwise the event is shown only
 *	when this mask intersects the variant mask given to hvpmu_attrs_build()
 *	(e.g. one bit per chip or firmware version)
 */
struct hvpmu_event {
	const char *name;
	const char *terms;
	const char *unit;
	const char *scale;
	u32 variants;
};

/**
 * struct hvpmu_encoding - the complete config ABI of one PMU
 * @fields: the field table; drivers index it with their own enum
 * @nr_fields: number of entries in @fields
 * @events: the named events (may be NULL)
 * @nr_events: number of entries in @events
 */
struct hvpmu_encoding {
	const struct hvpmu_field *fields;
	unsigned int nr_fields;
	const struct hvpmu_event *events;
	unsigned int nr_events;
};

/**
 * HVPMU_ENCODING() - initialiser for a &struct hvpmu_encoding from two arrays
 * @_fields: array of &struct hvpmu_field
 * @_events: array of &struct hvpmu_event
 *
 * The counts are ARRAY_SIZE() spelt out, so that each argument is evaluated
 * only once outside sizeof.
 */
#define HVPMU_ENCODING(_fields, _events)				\
	{ .fields = (_fields),						\
	  .nr_fields = sizeof(_fields) / sizeof((_fields)[0]) +	\
		       __must_be_array(_fields),			\
	  .events = (_events),						\
	  .nr_events = sizeof(_events) / sizeof((_events)[0]) +	\
		       __must_be_array(_events) }

/**
 * struct hvpmu_attrs - sysfs groups built from a &struct hvpmu_encoding
 * @format: the "format" group; put &format in the PMU's attr_groups
 * @events: the "events" group; put &events in the PMU's attr_groups
 * @mem: private: every allocation, freed by hvpmu_attrs_free()
 */
struct hvpmu_attrs {
	struct attribute_group format;
	struct attribute_group events;
	struct list_head mem;
};

int hvpmu_encoding_validate(const struct hvpmu_encoding *enc);
int hvpmu_attrs_build(struct hvpmu_attrs *attrs,
		      const struct hvpmu_encoding *enc, u32 variants);
void hvpmu_attrs_free(struct hvpmu_attrs *attrs);
int hvpmu_config_check(const struct hvpmu_encoding *enc,
		       const struct perf_event_attr *attr);
u64 hvpmu_word_mask(const struct hvpmu_encoding *enc, enum hvpmu_word word);

/**
 * hvpmu_field_mask() - bits of a field within its word
 * @f: the field
 *
 * Return: the mask, e.g. GENMASK_ULL(7, 4) for lsb 4, width 4.
 */
static inline u64 hvpmu_field_mask(const struct hvpmu_field *f)
{
	return GENMASK_ULL(f->lsb + f->width - 1, f->lsb);
}

/**
 * hvpmu_attr_word() - pointer to one config word of an attribute
 * @attr: the attribute
 * @word: &enum hvpmu_word
 *
 * Return: &attr->config, &attr->config1 or &attr->config2.
 */
static inline u64 *hvpmu_attr_word(struct perf_event_attr *attr,
				   enum hvpmu_word word)
{
	switch (word) {
	case HVPMU_CONFIG1:
		return &attr->config1;
	case HVPMU_CONFIG2:
		return &attr->config2;
	default:
		return &attr->config;
	}
}

/**
 * hvpmu_field_get() - extract a field's value from an event attribute
 * @f: the field
 * @attr: the attribute
 *
 * Return: the field's value, shifted down to bit 0.
 */
static inline u64 hvpmu_field_get(const struct hvpmu_field *f,
				  const struct perf_event_attr *attr)
{
	u64 w = *hvpmu_attr_word((struct perf_event_attr *)attr, f->word);

	return (w & hvpmu_field_mask(f)) >> f->lsb;
}

/**
 * hvpmu_field_set() - store a value into a field of an event attribute
 * @f: the field
 * @attr: the attribute
 * @val: the value; bits beyond the field's width are dropped
 *
 * Used by tests and by in-kernel users that build attributes.
 */
static inline void hvpmu_field_set(const struct hvpmu_field *f,
				   struct perf_event_attr *attr, u64 val)
{
	u64 *w = hvpmu_attr_word(attr, f->word);

	*w = (*w & ~hvpmu_field_mask(f)) |
	     ((val << f->lsb) & hvpmu_field_mask(f));
}

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
