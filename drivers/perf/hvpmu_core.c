// SPDX-License-Identifier: GPL-2.0
/*
 * Common helper for the hypervisor and uncore PMU drivers (hvpmu): the
 * event-encoding tables behind sysfs format/ and events/, config validation,
 * counter-width extension and the designated-CPU handling of uncore PMUs.
 */

#define pr_fmt(fmt) "hvpmu: " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/ctype.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/perf/hvpmu.h>
#include <linux/perf/pmu_format.h>
#include <linux/slab.h>
#include <linux/string.h>

static const char *const hvpmu_word_names[HVPMU_NR_WORDS] = {
	[HVPMU_CONFIG] = "config",
	[HVPMU_CONFIG1] = "config1",
	[HVPMU_CONFIG2] = "config2",
};

/* Longest event "terms" string we accept; sysfs values are far shorter. */
#define HVPMU_TERMS_MAX	256

static bool hvpmu_name_ok(const char *name)
{
	const char *p;

	if (!name || !*name)
		return false;
	/* Names become sysfs file names and perf event-string tokens. */
	for (p = name; *p; p++)
		if (!isalnum(*p) && *p != '_')
			return false;
	return true;
}

static const struct hvpmu_field *
hvpmu_find_field(const struct hvpmu_encoding *enc, const char *name,
		 size_t len)
{
	unsigned int i;

	for (i = 0; i < enc->nr_fields; i++) {
		const struct hvpmu_field *f = &enc->fields[i];

		if (strlen(f->name) == len && !strncmp(f->name, name, len))
			return f;
	}
	return NULL;
}

/* The field whose bits and range an alias stands for. */
static const struct hvpmu_field *
hvpmu_resolve(const struct hvpmu_encoding *enc, const struct hvpmu_field *f)
{
	if (!f->alias_of)
		return f;
	return hvpmu_find_field(enc, f->alias_of, strlen(f->alias_of));
}

static u64 hvpmu_field_max(const struct hvpmu_field *f)
{
	if (f->max)
		return f->max;
	return hvpmu_field_mask(f) >> f->lsb;
}

static int hvpmu_validate_field(const struct hvpmu_encoding *enc,
				unsigned int idx)
{
	const struct hvpmu_field *f = &enc->fields[idx];
	const struct hvpmu_field *t;
	unsigned int i;

	if (!hvpmu_name_ok(f->name)) {
		pr_err("field %u: bad name \"%s\"\n", idx,
		       f->name ? f->name : "(null)");
		return -EINVAL;
	}
	if (f->word >= HVPMU_NR_WORDS || !f->width || f->width > 64 ||
	    f->lsb + f->width > 64) {
		pr_err("field %s: bits outside the config words\n", f->name);
		return -EINVAL;
	}
	if (f->min > hvpmu_field_max(f) ||
	    hvpmu_field_max(f) > hvpmu_field_mask(f) >> f->lsb) {
		pr_err("field %s: range does not fit the field\n", f->name);
		return -EINVAL;
	}
	for (i = 0; i < idx; i++) {
		if (!strcmp(enc->fields[i].name, f->name)) {
			pr_err("field %s: declared twice\n", f->name);
			return -EINVAL;
		}
	}
	if (f->alias_of) {
		t = hvpmu_find_field(enc, f->alias_of, strlen(f->alias_of));
		if (!t || t->alias_of || t->word != f->word ||
		    t->lsb != f->lsb || t->width != f->width) {
			pr_err("field %s: alias of \"%s\" must name a field with the same bits\n",
			       f->name, f->alias_of);
			return -EINVAL;
		}
		return 0;
	}
	for (i = 0; i < enc->nr_fields; i++) {
		t = &enc->fields[i];
		if (i == idx || t->alias_of || t->word != f->word)
			continue;
		if (hvpmu_field_mask(t) & hvpmu_field_mask(f)) {
			pr_err("fields %s and %s overlap\n", f->name, t->name);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Check one event's "a=1,b=?" terms against the field table: every term names
 * a field, no field is given twice, every number is within the field's range.
 */
static int hvpmu_validate_terms(const struct hvpmu_encoding *enc,
				const struct hvpmu_event *ev)
{
	const struct hvpmu_field *seen[16];
	unsigned int nseen = 0, i;
	char buf[HVPMU_TERMS_MAX];
	char *s = buf, *term;

	if (!ev->terms || !*ev->terms ||
	    strscpy(buf, ev->terms, sizeof(buf)) < 0)
		goto bad;

	while ((term = strsep(&s, ","))) {
		const struct hvpmu_field *f, *t;
		char *eq = strchr(term, '=');
		size_t len = eq ? eq - term : strlen(term);
		u64 val = 1;	/* a bare flag term means "=1", as in perf */

		f = hvpmu_find_field(enc, term, len);
		if (!f)
			goto bad;
		t = hvpmu_resolve(enc, f);
		for (i = 0; i < nseen; i++)
			if (seen[i] == t)
				goto bad;
		if (nseen == ARRAY_SIZE(seen))
			goto bad;
		seen[nseen++] = t;
		if (eq && !strcmp(eq + 1, "?"))
			continue;
		if (eq && kstrtou64(eq + 1, 0, &val))
			goto bad;
		if (val < t->min || val > hvpmu_field_max(t))
			goto bad;
	}
	return 0;
bad:
	pr_err("event %s: bad terms \"%s\"\n", ev->name,
	       ev->terms ? ev->terms : "(null)");
	return -EINVAL;
}

/**
 * hvpmu_encoding_validate() - check a PMU's field and event tables
 * @enc: the encoding
 *
 * Fields must have valid names and bits, must not be declared twice, must
 * not overlap another (non-alias) field of the same word, and aliases must
 * have exactly the bits of the field they name. Events must have valid,
 * unique names and terms that name declared fields with in-range values.
 * The reason for a rejection is logged.
 *
 * Return: 0 if the tables are consistent, -EINVAL otherwise.
 */
int hvpmu_encoding_validate(const struct hvpmu_encoding *enc)
{
	unsigned int i, j;
	int ret;

	if (!enc || !enc->fields || !enc->nr_fields ||
	    (enc->nr_events && !enc->events))
		return -EINVAL;

	for (i = 0; i < enc->nr_fields; i++) {
		ret = hvpmu_validate_field(enc, i);
		if (ret)
			return ret;
	}
	for (i = 0; i < enc->nr_events; i++) {
		const struct hvpmu_event *ev = &enc->events[i];

		if (!hvpmu_name_ok(ev->name)) {
			pr_err("event %u: bad name\n", i);
			return -EINVAL;
		}
		for (j = 0; j < i; j++) {
			if (!strcmp(enc->events[j].name, ev->name)) {
				pr_err("event %s: declared twice\n", ev->name);
				return -EINVAL;
			}
		}
		ret = hvpmu_validate_terms(enc, ev);
		if (ret)
			return ret;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(hvpmu_encoding_validate);

/* Every allocation of a struct hvpmu_attrs hangs off its @mem list. */
struct hvpmu_blob {
	struct list_head node;
	u64 data[];
};

static void *hvpmu_alloc(struct hvpmu_attrs *attrs, size_t size)
{
	struct hvpmu_blob *b = kzalloc(sizeof(*b) + size, GFP_KERNEL);

	if (!b)
		return NULL;
	list_add(&b->node, &attrs->mem);
	return b->data;
}

static ssize_t hvpmu_string_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct dev_ext_attribute *ea =
		container_of(attr, struct dev_ext_attribute, attr);

	return sysfs_emit(buf, "%s\n", (const char *)ea->var);
}

/* A read-only attribute whose file name and content are built by format. */
static struct attribute *hvpmu_string_attr(struct hvpmu_attrs *attrs,
					   const char *name, const char *suffix,
					   const char *value)
{
	size_t nlen = strlen(name) + strlen(suffix) + 1;
	size_t vlen = strlen(value) + 1;
	struct dev_ext_attribute *ea;
	char *s;

	ea = hvpmu_alloc(attrs, sizeof(*ea) + nlen + vlen);
	if (!ea)
		return NULL;
	s = (char *)(ea + 1);
	snprintf(s, nlen, "%s%s", name, suffix);
	memcpy(s + nlen, value, vlen);

	sysfs_attr_init(&ea->attr.attr);
	ea->attr.attr.name = s;
	ea->attr.attr.mode = 0444;
	ea->attr.show = hvpmu_string_show;
	ea->var = s + nlen;
	return &ea->attr.attr;
}

static int hvpmu_build_format(struct hvpmu_attrs *attrs,
			      const struct hvpmu_encoding *enc)
{
	struct attribute **list;
	unsigned int i;
	char spec[24];

	list = hvpmu_alloc(attrs, (enc->nr_fields + 1) * sizeof(*list));
	if (!list)
		return -ENOMEM;
	for (i = 0; i < enc->nr_fields; i++) {
		const struct hvpmu_field *f = &enc->fields[i];
		const char *w = hvpmu_word_names[f->word];

		/* perf's format syntax: "config:5" or "config1:0-31" */
		if (f->width == 1)
			snprintf(spec, sizeof(spec), "%s:%u", w, f->lsb);
		else
			snprintf(spec, sizeof(spec), "%s:%u-%u", w, f->lsb,
				 f->lsb + f->width - 1);
		list[i] = hvpmu_string_attr(attrs, f->name, "", spec);
		if (!list[i])
			return -ENOMEM;
	}
	attrs->format.name = "format";
	attrs->format.attrs = list;
	return 0;
}

static int hvpmu_build_events(struct hvpmu_attrs *attrs,
			      const struct hvpmu_encoding *enc, u32 variants)
{
	struct attribute **list;
	unsigned int i, n = 0;

	/* Each event can bring a .unit and a .scale file. */
	list = hvpmu_alloc(attrs, (3 * enc->nr_events + 1) * sizeof(*list));
	if (!list)
		return -ENOMEM;
	for (i = 0; i < enc->nr_events; i++) {
		const struct hvpmu_event *ev = &enc->events[i];

		if (ev->variants && !(ev->variants & variants))
			continue;
		list[n] = hvpmu_string_attr(attrs, ev->name, "", ev->terms);
		if (!list[n++])
			return -ENOMEM;
		if (ev->unit) {
			list[n] = hvpmu_string_attr(attrs, ev->name, ".unit",
						    ev->unit);
			if (!list[n++])
				return -ENOMEM;
		}
		if (ev->scale) {
			list[n] = hvpmu_string_attr(attrs, ev->name, ".scale",
						    ev->scale);
			if (!list[n++])
				return -ENOMEM;
		}
	}
	attrs->events.name = "events";
	attrs->events.attrs = list;
	return 0;
}

/**
 * hvpmu_attrs_build() - build the format/ and events/ groups of a PMU
 * @attrs: the groups to fill; freed with hvpmu_attrs_free()
 * @enc: the PMU's encoding, validated here first
 * @variants: which variant-specific events to include (see
 *	&struct hvpmu_event.variants)
 *
 * Format files read "config:0-3", "config1:5" and so on; event files read
 * their terms, and events with a unit or scale get "<name>.unit" and
 * "<name>.scale" files. On failure nothing stays allocated.
 *
 * Return: 0, -EINVAL for an inconsistent encoding, or -ENOMEM.
 */
int hvpmu_attrs_build(struct hvpmu_attrs *attrs,
		      const struct hvpmu_encoding *enc, u32 variants)
{
	int ret;

	memset(attrs, 0, sizeof(*attrs));
	INIT_LIST_HEAD(&attrs->mem);

	ret = hvpmu_encoding_validate(enc);
	if (ret)
		return ret;
	ret = hvpmu_build_format(attrs, enc);
	if (!ret)
		ret = hvpmu_build_events(attrs, enc, variants);
	if (ret)
		hvpmu_attrs_free(attrs);
	return ret;
}
EXPORT_SYMBOL_GPL(hvpmu_attrs_build);

/**
 * hvpmu_attrs_free() - free what hvpmu_attrs_build() allocated
 * @attrs: the groups; must no longer be visible in sysfs
 *
 * Safe to call twice, and after a failed hvpmu_attrs_build().
 */
void hvpmu_attrs_free(struct hvpmu_attrs *attrs)
{
	struct hvpmu_blob *b, *tmp;

	list_for_each_entry_safe(b, tmp, &attrs->mem, node) {
		list_del(&b->node);
		kfree(b);
	}
	attrs->format.attrs = NULL;
	attrs->events.attrs = NULL;
}
EXPORT_SYMBOL_GPL(hvpmu_attrs_free);

/**
 * hvpmu_word_mask() - every bit of one config word that some field declares
 * @enc: the encoding
 * @word: &enum hvpmu_word
 *
 * Return: the OR of the masks of the word's fields (aliases add nothing).
 */
u64 hvpmu_word_mask(const struct hvpmu_encoding *enc, enum hvpmu_word word)
{
	u64 mask = 0;
	unsigned int i;

	for (i = 0; i < enc->nr_fields; i++) {
		const struct hvpmu_field *f = &enc->fields[i];

		if (!f->alias_of && f->word == word)
			mask |= hvpmu_field_mask(f);
	}
	return mask;
}
EXPORT_SYMBOL_GPL(hvpmu_word_mask);

/**
 * hvpmu_config_check() - reject unknown bits and out-of-range field values
 * @enc: the PMU's (validated) encoding
 * @attr: the event attribute from the user
 *
 * Called from a driver's event_init before anything is taken from the
 * attribute, so that no undeclared bit and no out-of-range value can ever
 * reach the hardware or the hypervisor.
 *
 * Return: 0 if config, config1 and config2 are acceptable, -EINVAL if a set
 * bit belongs to no field or a field is outside its [min, max] range.
 */
int hvpmu_config_check(const struct hvpmu_encoding *enc,
		       const struct perf_event_attr *attr)
{
	unsigned int i;
	int w;

	for (w = 0; w < HVPMU_NR_WORDS; w++) {
		u64 v = *hvpmu_attr_word((struct perf_event_attr *)attr, w);

		if (v & ~hvpmu_word_mask(enc, w))
			return -EINVAL;
	}
	for (i = 0; i < enc->nr_fields; i++) {
		const struct hvpmu_field *f = &enc->fields[i];
		u64 v;

		if (f->alias_of)
			continue;
		v = hvpmu_field_get(f, attr);
		if (v < f->min || v > hvpmu_field_max(f))
			return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(hvpmu_config_check);

/**
 * hvpmu_counter_fold() - add a narrow hardware counter's progress to a count
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
u64 hvpmu_counter_fold(struct perf_event *event, u64 now, unsigned int width)
{
	u64 prev = local64_xchg(&event->hw.prev_count, now);
	u64 delta = pmu_counter_delta(prev, now, width);

	local64_add(delta, &event->count);
	return delta;
}
EXPORT_SYMBOL_GPL(hvpmu_counter_fold);

static enum cpuhp_state hvpmu_cpuhp_state;

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct hvpmu_uncore *uncore = hvpmu_uncore_from_pmu(dev_get_drvdata(dev));
	unsigned int cpu = READ_ONCE(uncore->cpu);

	return cpumap_print_to_pagebuf(true, buf, cpu < nr_cpu_ids ?
				       cpumask_of(cpu) : cpu_none_mask);
}
static DEVICE_ATTR_RO(cpumask);

static struct attribute *hvpmu_uncore_cpumask_attrs[] = {
	&dev_attr_cpumask.attr,
	NULL,
};

/*
 * The "cpumask" file of an uncore PMU: the one CPU that perf should open the
 * PMU's events on. Put it in the PMU's attr_groups.
 */
const struct attribute_group hvpmu_uncore_cpumask_group = {
	.attrs = hvpmu_uncore_cpumask_attrs,
};
EXPORT_SYMBOL_GPL(hvpmu_uncore_cpumask_group);

static int hvpmu_cpu_offline(unsigned int cpu, struct hlist_node *node)
{
	struct hvpmu_uncore *uncore =
		hlist_entry_safe(node, struct hvpmu_uncore, node);
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
 * hvpmu_uncore_register() - register a system-wide PMU with a designated CPU
 * @uncore: the PMU; @uncore->pmu must be filled in, @uncore->migrate may be
 * @name: the PMU's name in sysfs and perf
 *
 * Designates the CPU it runs on (as arm-ccn, arm_smmuv3_pmu and
 * fsl_imx8_ddr_perf do: a module loaded with taskset designates that CPU),
 * follows CPU hotplug (events migrate to another online CPU when the
 * designated one goes offline) and registers the PMU. Put
 * &hvpmu_uncore_cpumask_group in the PMU's attr_groups. Undone with
 * hvpmu_uncore_unregister().
 *
 * Return: 0, or the error of cpuhp or perf_pmu_register(); on error nothing
 * stays registered.
 */
int hvpmu_uncore_register(struct hvpmu_uncore *uncore, const char *name)
{
	int ret;

	if (!hvpmu_cpuhp_state)
		return -ENODEV;

	/*
	 * Follow hotplug first, with no CPU designated, and designate one
	 * with hotplug held off only once the PMU is registered: the offline
	 * callback migrates the contexts of the designated CPU, which do not
	 * exist before. Events opened in between are refused (-ENODEV).
	 * (The _cpuslocked variant of the instance call is not exported.)
	 */
	uncore->cpu = nr_cpu_ids;
	ret = cpuhp_state_add_instance_nocalls(hvpmu_cpuhp_state,
					       &uncore->node);
	if (ret)
		return ret;
	ret = perf_pmu_register(&uncore->pmu, name, -1);
	if (ret) {
		cpuhp_state_remove_instance_nocalls(hvpmu_cpuhp_state,
						    &uncore->node);
		return ret;
	}
	/* online, and stays so while hotplug is held off */
	cpus_read_lock();
	WRITE_ONCE(uncore->cpu, raw_smp_processor_id());
	cpus_read_unlock();
	return 0;
}
EXPORT_SYMBOL_GPL(hvpmu_uncore_register);

/**
 * hvpmu_uncore_unregister() - undo hvpmu_uncore_register()
 * @uncore: the PMU
 */
void hvpmu_uncore_unregister(struct hvpmu_uncore *uncore)
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
	cpuhp_state_remove_instance_nocalls(hvpmu_cpuhp_state, &uncore->node);
}
EXPORT_SYMBOL_GPL(hvpmu_uncore_unregister);

static bool hvpmu_same_pmu_or_sw(struct perf_event *a, struct perf_event *b)
{
	return a->pmu == b->pmu || is_software_event(a);
}

/**
 * hvpmu_uncore_event_init() - the checks every uncore PMU's event_init makes
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
int hvpmu_uncore_event_init(struct hvpmu_uncore *uncore,
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
		if (!hvpmu_same_pmu_or_sw(leader, event))
			return -EINVAL;
		for_each_sibling_event(sibling, leader)
			if (!hvpmu_same_pmu_or_sw(sibling, event))
				return -EINVAL;
	}

	/* registering or unregistering: no CPU to count on */
	if (cpu >= nr_cpu_ids)
		return -ENODEV;
	event->cpu = cpu;
	return 0;
}
EXPORT_SYMBOL_GPL(hvpmu_uncore_event_init);

static void hvpmu_defer_kick(struct irq_work *kick)
{
	schedule_work(&container_of(kick, struct hvpmu_defer, kick)->work);
}

/**
 * hvpmu_defer_init() - prepare a struct hvpmu_defer
 * @defer: the deferred work
 * @fn: what it runs; container_of(work, ..., defer.work) finds its owner
 */
void hvpmu_defer_init(struct hvpmu_defer *defer, work_func_t fn)
{
	init_irq_work(&defer->kick, hvpmu_defer_kick);
	INIT_WORK(&defer->work, fn);
}
EXPORT_SYMBOL_GPL(hvpmu_defer_init);

/**
 * hvpmu_defer_queue() - run the work soon, from any context, any lock held
 * @defer: the deferred work
 */
void hvpmu_defer_queue(struct hvpmu_defer *defer)
{
	irq_work_queue(&defer->kick);
}
EXPORT_SYMBOL_GPL(hvpmu_defer_queue);

/**
 * hvpmu_defer_flush() - wait until queued work has run
 * @defer: the deferred work
 *
 * Call before @defer is freed, with nothing left that can queue it.
 */
void hvpmu_defer_flush(struct hvpmu_defer *defer)
{
	if (!defer->work.func)	/* never initialised */
		return;
	irq_work_sync(&defer->kick);
	flush_work(&defer->work);
}
EXPORT_SYMBOL_GPL(hvpmu_defer_flush);

static void hvpmu_log_work(struct work_struct *work);

/**
 * hvpmu_log_init() - prepare a struct hvpmu_log
 * @log: the log
 */
void hvpmu_log_init(struct hvpmu_log *log)
{
	memset(log, 0, sizeof(*log));
	raw_spin_lock_init(&log->lock);
	hvpmu_defer_init(&log->print, hvpmu_log_work);
}
EXPORT_SYMBOL_GPL(hvpmu_log_init);

/**
 * hvpmu_log() - queue a warning for printing from process context
 * @log: the log
 * @fmt: printk format, with the caller's pr_fmt() prefix
 *
 * Any context, any lock held. A message that finds the queue full is only
 * counted; rate-limit at the caller.
 */
void hvpmu_log(struct hvpmu_log *log, const char *fmt, ...)
{
	unsigned long flags;
	va_list args;

	raw_spin_lock_irqsave(&log->lock, flags);
	if (log->nr < HVPMU_LOG_LINES) {
		va_start(args, fmt);
		vscnprintf(log->line[log->nr++], HVPMU_LOG_LEN, fmt, args);
		va_end(args);
	} else {
		log->lost++;
	}
	raw_spin_unlock_irqrestore(&log->lock, flags);
	hvpmu_defer_queue(&log->print);
}
EXPORT_SYMBOL_GPL(hvpmu_log);

/* The queued lines carry their driver's own prefix: none from this file. */
#undef pr_fmt
#define pr_fmt(fmt) fmt

/* Print what hvpmu_log() queued. */
static void hvpmu_log_work(struct work_struct *work)
{
	struct hvpmu_log *log = container_of(work, struct hvpmu_log, print.work);
	char (*line)[HVPMU_LOG_LEN];
	unsigned int i, nr;
	unsigned long flags, lost;

	line = kmalloc_array(HVPMU_LOG_LINES, HVPMU_LOG_LEN, GFP_KERNEL);
	raw_spin_lock_irqsave(&log->lock, flags);
	nr = line ? log->nr : 0;
	if (nr)
		memcpy(line, log->line, nr * HVPMU_LOG_LEN);
	lost = log->lost;
	log->nr -= nr;
	log->lost = 0;
	raw_spin_unlock_irqrestore(&log->lock, flags);

	for (i = 0; i < nr; i++)
		pr_warn("%s", line[i]);
	kfree(line);
	if (lost)
		pr_warn("hvpmu: %lu more messages not shown\n", lost);
}

#undef pr_fmt
#define pr_fmt(fmt) "hvpmu: " fmt

/**
 * hvpmu_log_flush() - print what is queued and wait for it
 * @log: the log
 *
 * Call before @log is freed, with nothing left that can queue to it.
 */
void hvpmu_log_flush(struct hvpmu_log *log)
{
	hvpmu_defer_flush(&log->print);
}
EXPORT_SYMBOL_GPL(hvpmu_log_flush);

static int __init hvpmu_core_init(void)
{
	int ret;

	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "perf/hvpmu:online",
				      NULL, hvpmu_cpu_offline);
	if (ret < 0)
		return ret;
	hvpmu_cpuhp_state = ret;
	return 0;
}

static void __exit hvpmu_core_exit(void)
{
	cpuhp_remove_multi_state(hvpmu_cpuhp_state);
}

/* Before the drivers' device_initcalls when built in. */
subsys_initcall(hvpmu_core_init);
module_exit(hvpmu_core_exit);

MODULE_DESCRIPTION("Common helper for hypervisor and uncore PMU drivers");
MODULE_LICENSE("GPL");
