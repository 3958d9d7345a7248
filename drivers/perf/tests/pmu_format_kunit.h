/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit helpers for PMUs whose sysfs ABI is made with <linux/perf/pmu_format.h>:
 * what a sysfs file of a group shows, and the self-checks of a PMU's tables
 * that a build cannot do: every term of every event names a field and fits
 * it, and the masks event_init checks are exactly the fields' bits.
 */
#ifndef __PMU_FORMAT_KUNIT_H
#define __PMU_FORMAT_KUNIT_H

#include <kunit/test.h>
#include <linux/ctype.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/perf/pmu_format.h>
#include <linux/perf_event.h>
#include <linux/string.h>
#include <linux/sysfs.h>

/*
 * The mode a group gives an attribute: through .is_visible when the group
 * has one (it needs @dev's kobject, so @dev must then be the PMU's device).
 */
static inline umode_t pmu_kunit_mode(struct device *dev,
				     const struct attribute_group *g,
				     unsigned int i)
{
	if (!g->is_visible)
		return g->attrs[i]->mode;
	return g->is_visible(&dev->kobj, g->attrs[i], i);
}

/**
 * pmu_kunit_group_file() - what reading one sysfs file of a group gives
 * @test: the test (the buffer is a test allocation)
 * @dev: the device passed to show() and .is_visible, or NULL when neither
 *	needs one
 * @g: the attribute group; its attributes are &struct device_attribute
 * @name: the file name
 *
 * Return: the file's content, or NULL when the group shows no such file.
 */
static inline char *pmu_kunit_group_file(struct kunit *test,
					 struct device *dev,
					 const struct attribute_group *g,
					 const char *name)
{
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; g->attrs[i]; i++) {
		struct device_attribute *da =
			container_of(g->attrs[i], struct device_attribute, attr);

		if (strcmp(g->attrs[i]->name, name) ||
		    !pmu_kunit_mode(dev, g, i))
			continue;
		KUNIT_ASSERT_GE(test, da->show(dev, da, buf), 0);
		return buf;
	}
	return NULL;
}

/**
 * pmu_kunit_count() - number of files a group shows
 * @dev: as for pmu_kunit_group_file()
 * @g: the group
 *
 * Return: the number of visible attributes.
 */
static inline unsigned int pmu_kunit_count(struct device *dev,
					   const struct attribute_group *g)
{
	unsigned int i, n = 0;

	for (i = 0; g->attrs[i]; i++)
		if (pmu_kunit_mode(dev, g, i))
			n++;
	return n;
}

/**
 * pmu_kunit_word() - one config word of an event attribute
 * @attr: the attribute
 * @word: &enum pmu_format_word
 *
 * Return: &attr->config, &attr->config1, ... for @word.
 */
static inline u64 *pmu_kunit_word(struct perf_event_attr *attr,
				  enum pmu_format_word word)
{
	switch (word) {
	case PMU_FORMAT_CONFIG1:
		return &attr->config1;
	case PMU_FORMAT_CONFIG2:
		return &attr->config2;
	case PMU_FORMAT_CONFIG3:
		return &attr->config3;
	default:
		return &attr->config;
	}
}

/**
 * pmu_kunit_format_mask() - every bit of one config word a field declares
 * @format: the PMU's NULL-terminated list of PMU_FORMAT_FIELD() attributes
 * @word: &enum pmu_format_word
 *
 * Return: the OR of the masks of the word's fields.
 */
static inline u64 pmu_kunit_format_mask(struct attribute *const *format,
					enum pmu_format_word word)
{
	u64 mask = 0;

	for (; *format; format++) {
		const struct pmu_format_attr *fmt =
			container_of(*format, struct pmu_format_attr, attr.attr);

		if (fmt->word == word)
			mask |= fmt->mask;
	}
	return mask;
}

/**
 * pmu_kunit_check_mask() - the mask event_init checks is the format list's
 * @test: the test
 * @format: the NULL-terminated PMU_FORMAT_FIELD() list the PMU shows
 * @mask: the per-word constant the driver gives pmu_format_check()
 *
 * Both are built from the same GENMASK_ULL() macros; this sees that no
 * field was left out of @mask, and no bit added to it, in any word.
 */
static inline void pmu_kunit_check_mask(struct kunit *test,
					struct attribute *const *format,
					const u64 mask[PMU_FORMAT_NR_WORDS])
{
	unsigned int w;

	/* Expectations only: a test may run this on a fake struct kunit. */
	for (w = 0; w < PMU_FORMAT_NR_WORDS; w++)
		KUNIT_EXPECT_EQ_MSG(test, mask[w], pmu_kunit_format_mask(format, w),
				    "config word %u: the mask is not the fields' bits",
				    w);
}

static inline bool pmu_kunit_name_ok(const char *name, size_t len)
{
	size_t i;

	if (!len)
		return false;
	/* Names become sysfs file names and perf event-string tokens. */
	for (i = 0; i < len; i++)
		if (!isalnum(name[i]) && name[i] != '_')
			return false;
	return true;
}

static inline const struct pmu_format_attr *
pmu_kunit_field(struct attribute *const *format, const char *name, size_t len)
{
	for (; *format; format++)
		if (strlen((*format)->name) == len &&
		    !strncmp((*format)->name, name, len))
			return container_of(*format, struct pmu_format_attr,
					    attr.attr);
	return NULL;
}

/* Check one event's "a=0x1,b=?,flag" terms against the format list. */
static inline void pmu_kunit_check_terms(struct kunit *test,
					 struct attribute *const *format,
					 const char *event, const char *terms)
{
	const struct pmu_format_attr *seen[16];
	unsigned int nseen = 0, i;
	char *buf, *s, *term;

	/*
	 * Expectations only, no assertion: a test may run this on a fake
	 * struct kunit to see that a bad table is found.
	 */
	KUNIT_EXPECT_NOT_NULL_MSG(test, terms, "event %s: no terms", event);
	if (!terms)
		return;
	buf = kstrdup(terms, GFP_KERNEL);
	KUNIT_EXPECT_NOT_NULL(test, buf);
	s = buf;
	while ((term = strsep(&s, ","))) {
		const struct pmu_format_attr *f;
		char *eq = strchr(term, '=');
		size_t len = eq ? eq - term : strlen(term);
		u64 val = 1;	/* a bare flag term means "=1", as in perf */
		unsigned int width;

		f = pmu_kunit_field(format, term, len);
		KUNIT_EXPECT_NOT_NULL_MSG(test, f, "event %s: term \"%s\" names no field",
					  event, term);
		if (!f)
			continue;
		/* An alias has the bits of its field: it is the same field. */
		for (i = 0; i < nseen; i++)
			KUNIT_EXPECT_FALSE_MSG(test, seen[i]->word == f->word &&
					       seen[i]->mask == f->mask,
					       "event %s: field of \"%s\" given twice",
					       event, term);
		if (nseen < ARRAY_SIZE(seen))
			seen[nseen++] = f;
		if (eq && !strcmp(eq + 1, "?"))
			continue;
		if (eq && kstrtou64(eq + 1, 0, &val)) {
			KUNIT_FAIL(test, "event %s: bad value in \"%s\"",
				   event, term);
			continue;
		}
		width = hweight64(f->mask);
		KUNIT_EXPECT_TRUE_MSG(test, width == 64 || val < BIT_ULL(width),
				      "event %s: \"%s\" does not fit the field",
				      event, term);
	}
	kfree(buf);
}

/**
 * pmu_kunit_check_tables() - self-check of a PMU's format and event lists
 * @test: the test
 * @format: the NULL-terminated PMU_FORMAT_FIELD() list
 * @events: the NULL-terminated PMU_EVENT_VARIANT() list, or NULL
 *
 * Field and event names are valid file names and event-string tokens and
 * unique (an event name may repeat for variants that exclude each other);
 * a field's mask is one run of bits in one config word;
 * fields of one word do not overlap unless they are aliases (the
 * same bits); every "<event>.unit" and "<event>.scale" file belongs to an
 * event of the list with the same variants; the terms of every event name
 * fields, each at most once, with values that fit them ("?" asks perf's
 * user).
 */
static inline void pmu_kunit_check_tables(struct kunit *test,
					  struct attribute *const *format,
					  struct attribute *const *events)
{
	unsigned int i, j;

	for (i = 0; format[i]; i++) {
		const struct pmu_format_attr *f =
			container_of(format[i], struct pmu_format_attr, attr.attr);

		KUNIT_EXPECT_TRUE_MSG(test, pmu_kunit_name_ok(format[i]->name,
							      strlen(format[i]->name)),
				      "field \"%s\": bad name", format[i]->name);
		KUNIT_EXPECT_EQ_MSG(test, format[i]->mode, (umode_t)0444,
				    "field %s", format[i]->name);
		KUNIT_EXPECT_LT_MSG(test, (unsigned int)f->word, PMU_FORMAT_NR_WORDS,
				    "field %s: no such config word", format[i]->name);
		/* non-zero, one run of bits: adding the lowest bit clears them */
		KUNIT_EXPECT_TRUE_MSG(test, f->mask &&
				      !(f->mask & (f->mask + (f->mask & -f->mask))),
				      "field %s: mask %#llx is not one run of bits",
				      format[i]->name, f->mask);
		for (j = 0; j < i; j++) {
			const struct pmu_format_attr *t =
				container_of(format[j], struct pmu_format_attr,
					     attr.attr);

			KUNIT_EXPECT_STRNEQ(test, format[j]->name, format[i]->name);
			if (t->word != f->word || t->mask == f->mask)
				continue;
			KUNIT_EXPECT_EQ_MSG(test, t->mask & f->mask, 0ULL,
					    "fields %s and %s overlap",
					    format[j]->name, format[i]->name);
		}
	}
	for (i = 0; events && events[i]; i++) {
		const struct pmu_variant_event_attr *ev =
			container_of(events[i], struct pmu_variant_event_attr,
				     attr.attr.attr);
		const char *name = events[i]->name, *dot = strchr(name, '.');
		size_t len = dot ? dot - name : strlen(name);

		KUNIT_EXPECT_TRUE_MSG(test, pmu_kunit_name_ok(name, len),
				      "event \"%s\": bad name", name);
		/*
		 * One name twice only for variants no PMU has both of (an
		 * event whose terms differ per firmware version, say).
		 */
		for (j = 0; j < i; j++) {
			const struct pmu_variant_event_attr *other =
				container_of(events[j],
					     struct pmu_variant_event_attr,
					     attr.attr.attr);

			KUNIT_EXPECT_FALSE_MSG(test, !strcmp(events[j]->name, name) &&
					       (!other->variants || !ev->variants ||
						(other->variants & ev->variants)),
					       "event %s declared twice", name);
		}
		if (!dot) {
			pmu_kunit_check_terms(test, format, name,
					      ev->attr.event_str);
			continue;
		}
		KUNIT_EXPECT_TRUE_MSG(test, !strcmp(dot, ".unit") ||
				      !strcmp(dot, ".scale"),
				      "event file \"%s\"", name);
		/* The event the unit or scale belongs to, same variants. */
		for (j = 0; events[j]; j++) {
			const struct pmu_variant_event_attr *base =
				container_of(events[j],
					     struct pmu_variant_event_attr,
					     attr.attr.attr);

			if (strlen(events[j]->name) == len &&
			    !strncmp(events[j]->name, name, len) &&
			    base->variants == ev->variants)
				break;
		}
		KUNIT_EXPECT_NOT_NULL_MSG(test, events[j],
					  "%s: no event of that name and variants", name);
	}
}

#endif /* __PMU_FORMAT_KUNIT_H */
