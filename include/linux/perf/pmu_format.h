/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Compile-time event encoding for perf PMU drivers.
 *
 * One GENMASK per field is the single source of truth for a PMU's config
 * ABI: it drives the field's sysfs format file (through show(), so nothing
 * is formatted or allocated at registration), the extraction of the field
 * with FIELD_GET() and the rejection of bits that belong to no field, so the
 * three can never disagree. Named events are static attributes; events that
 * only some chips or firmware versions have carry a mask of "variants" that
 * the PMU's .is_visible callback compares with what the PMU found at probe.
 *
 * The idiom is that of drivers/perf/arm-cmn.c (one mask per field for the
 * format attribute and FIELD_GET) and arch/powerpc/perf/hv-common.h.
 */
#ifndef __LINUX_PERF_PMU_FORMAT_H
#define __LINUX_PERF_PMU_FORMAT_H

#include <linux/bitops.h>
#include <linux/bits.h>
#include <linux/device.h>
#include <linux/perf_event.h>
#include <linux/stringify.h>
#include <linux/sysfs.h>
#include <linux/types.h>

/**
 * enum pmu_format_word - the perf_event_attr word a field lives in
 * @PMU_FORMAT_CONFIG: perf_event_attr.config ("config" in sysfs)
 * @PMU_FORMAT_CONFIG1: perf_event_attr.config1 ("config1")
 * @PMU_FORMAT_CONFIG2: perf_event_attr.config2 ("config2")
 * @PMU_FORMAT_NR_WORDS: number of words
 */
enum pmu_format_word {
	PMU_FORMAT_CONFIG,
	PMU_FORMAT_CONFIG1,
	PMU_FORMAT_CONFIG2,
	PMU_FORMAT_NR_WORDS,
};

/**
 * struct pmu_format_attr - a format attribute made from a field's mask
 * @attr: the sysfs attribute; its show() is pmu_format_show()
 * @mask: the field's bits, contiguous, e.g. GENMASK_ULL(15, 8)
 * @word: the &enum pmu_format_word the bits are in
 */
struct pmu_format_attr {
	struct device_attribute attr;
	u64 mask;
	u8 word;
};

/**
 * pmu_format_show() - show() of a &struct pmu_format_attr
 * @dev: the PMU's device
 * @attr: the attribute
 * @buf: the page to fill
 *
 * Prints perf's format syntax: "config:5" for a single bit, "config1:0-31"
 * for a range.
 *
 * Return: the number of bytes written.
 */
static inline ssize_t pmu_format_show(struct device *dev,
				      struct device_attribute *attr, char *buf)
{
	static const char *const words[PMU_FORMAT_NR_WORDS] = {
		[PMU_FORMAT_CONFIG] = "config",
		[PMU_FORMAT_CONFIG1] = "config1",
		[PMU_FORMAT_CONFIG2] = "config2",
	};
	struct pmu_format_attr *fmt = container_of(attr, typeof(*fmt), attr);
	unsigned int lo = __ffs64(fmt->mask), hi = fls64(fmt->mask) - 1;

	if (lo == hi)
		return sysfs_emit(buf, "%s:%u\n", words[fmt->word], lo);
	return sysfs_emit(buf, "%s:%u-%u\n", words[fmt->word], lo, hi);
}

/**
 * PMU_FORMAT_FIELD() - a format attribute, as an element of an attribute list
 * @_name: field name, the file name in format/ and the term in event strings
 * @_word: &enum pmu_format_word
 * @_mask: the field's bits, contiguous and non-zero (GENMASK_ULL(), BIT_ULL())
 *
 * Every element of a list given to pmu_format_check() must be made with
 * this macro. Two fields may share bits (aliases: other names for one
 * field, as hv_gpci's "phys_processor_idx" for "starting_index").
 */
#define PMU_FORMAT_FIELD(_name, _word, _mask)				\
	(&((struct pmu_format_attr[]) {{				\
		.attr = __ATTR(_name, 0444, pmu_format_show, NULL),	\
		.mask = (_mask),					\
		.word = (_word),					\
	}})[0].attr.attr)

/**
 * pmu_format_word_value() - one config word of an event attribute
 * @attr: the attribute
 * @word: &enum pmu_format_word
 *
 * Return: attr->config, attr->config1 or attr->config2.
 */
static inline u64 pmu_format_word_value(const struct perf_event_attr *attr,
					enum pmu_format_word word)
{
	switch (word) {
	case PMU_FORMAT_CONFIG1:
		return attr->config1;
	case PMU_FORMAT_CONFIG2:
		return attr->config2;
	default:
		return attr->config;
	}
}

/**
 * pmu_format_mask() - every bit of one config word that a field declares
 * @format: the PMU's NULL-terminated list of PMU_FORMAT_FIELD() attributes
 * @word: &enum pmu_format_word
 *
 * Return: the OR of the masks of the word's fields.
 */
static inline u64 pmu_format_mask(struct attribute *const *format,
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
 * pmu_format_check() - refuse bits that belong to no field
 * @format: the PMU's NULL-terminated list of PMU_FORMAT_FIELD() attributes,
 *	the same list its "format" attribute group shows
 * @attr: the event attribute from the user
 *
 * Called from event_init before anything is taken from @attr, so that no
 * undeclared bit can reach the hardware or the hypervisor. Ranges narrower
 * than a field are the driver's to check.
 *
 * Return: 0, or -EINVAL if config, config1 or config2 has a bit set that no
 * field of @format declares.
 */
static inline int pmu_format_check(struct attribute *const *format,
				   const struct perf_event_attr *attr)
{
	int w;

	for (w = 0; w < PMU_FORMAT_NR_WORDS; w++)
		if (pmu_format_word_value(attr, w) & ~pmu_format_mask(format, w))
			return -EINVAL;
	return 0;
}

/**
 * struct pmu_variant_event_attr - a named event that some PMUs lack
 * @attr: the event attribute; its show() is perf_event_sysfs_show()
 * @variants: 0 to show the event on every PMU; otherwise it is shown where
 *	this mask intersects the variants the PMU has (one bit per chip,
 *	version or optional unit, as the driver defines them)
 */
struct pmu_variant_event_attr {
	struct perf_pmu_events_attr attr;
	u32 variants;
};

/**
 * PMU_EVENT_ATTR_NAMED() - an event attribute, as an element of a list
 * @_name: file name in events/, a string (which may be built by string
 *	concatenation, or contain a dot, e.g. "reads.unit")
 * @_show: show(): perf_event_sysfs_show() to show @_str, or a function of
 *	the driver's for contents known only at probe (a scale that depends
 *	on a clock, say)
 * @_str: the contents for perf_event_sysfs_show(), shown with a newline,
 *	e.g. "event=0x4,channel=?"; or NULL
 * @_variants: see &struct pmu_variant_event_attr
 *
 * Every element of a list whose .is_visible calls pmu_event_visible()
 * must be made with this macro or one of the shorter ones below.
 */
#define PMU_EVENT_ATTR_NAMED(_name, _show, _str, _variants)		\
	(&((struct pmu_variant_event_attr[]) {{				\
		.attr = {						\
			.attr = {					\
				.attr = { .name = (_name), .mode = 0444 },\
				.show = (_show),			\
			},						\
			.event_str = (_str),				\
		},							\
		.variants = (_variants),				\
	}})[0].attr.attr.attr)

/**
 * PMU_EVENT_VARIANT() - an event attribute that some PMUs lack
 * @_name: file name in events/ (may contain a dot, e.g. foo.unit)
 * @_str: its contents
 * @_variants: see &struct pmu_variant_event_attr
 */
#define PMU_EVENT_VARIANT(_name, _str, _variants)			\
	PMU_EVENT_ATTR_NAMED(__stringify(_name), perf_event_sysfs_show,	\
			     _str, _variants)

/**
 * PMU_EVENT() - an event attribute every PMU of the list shows
 * @_name: file name in events/
 * @_str: its contents
 */
#define PMU_EVENT(_name, _str)	PMU_EVENT_VARIANT(_name, _str, 0)

/**
 * pmu_event_visible() - the mode of a PMU_EVENT_VARIANT() attribute
 * @attr: the attribute
 * @variants: the variants the PMU has
 *
 * For a PMU's events group .is_visible callback.
 *
 * Return: @attr's mode if the event is shown on this PMU, 0 otherwise.
 */
static inline umode_t pmu_event_visible(const struct attribute *attr,
					u32 variants)
{
	const struct pmu_variant_event_attr *ev =
		container_of(attr, struct pmu_variant_event_attr,
			     attr.attr.attr);

	if (ev->variants && !(ev->variants & variants))
		return 0;
	return attr->mode;
}

/**
 * pmu_counter_delta() - progress of a narrow counter between two readings
 * @prev: the earlier raw value
 * @now: the later raw value
 * @width: the counter's width in bits, 1 to 64
 *
 * The difference is taken modulo 2^@width, so one wrap between the two
 * readings is harmless; the driver reads at least once per wrap period
 * (overflow interrupt or polling).
 *
 * Return: the number of events counted in between.
 */
static inline u64 pmu_counter_delta(u64 prev, u64 now, unsigned int width)
{
	return (now - prev) & GENMASK_ULL(width - 1, 0);
}

#endif /* __LINUX_PERF_PMU_FORMAT_H */
