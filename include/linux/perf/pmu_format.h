/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Compile-time event encoding for perf PMU drivers.
 *
 * One GENMASK per field is the single source of truth for a PMU's config
 * ABI: it drives the field's sysfs format file (through show(), so nothing
 * is formatted or allocated at registration) and the extraction of the
 * field with FIELD_GET(), so the two can never disagree. A driver that
 * refuses bits which belong to no field ORs the same masks into one
 * constant per config word for pmu_format_check(). Named events are static
 * attributes; events that only some chips or firmware versions have carry
 * a mask of "variants" that the PMU's .is_visible callback compares with
 * what the PMU found at probe.
 *
 * The idiom is that of drivers/perf/arm-cmn.c (one mask per field for the
 * format attribute and FIELD_GET) and arch/powerpc/perf/hv-common.h.
 */
#ifndef __LINUX_PERF_PMU_FORMAT_H
#define __LINUX_PERF_PMU_FORMAT_H

#include <linux/bitops.h>
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
 * @PMU_FORMAT_CONFIG3: perf_event_attr.config3 ("config3")
 * @PMU_FORMAT_NR_WORDS: number of words
 */
enum pmu_format_word {
	PMU_FORMAT_CONFIG,
	PMU_FORMAT_CONFIG1,
	PMU_FORMAT_CONFIG2,
	PMU_FORMAT_CONFIG3,
	PMU_FORMAT_NR_WORDS,
};

/**
 * struct pmu_format_attr - a format attribute made from a field's mask
 * @attr: the sysfs attribute; its show() is pmu_format_show()
 * @mask: the field's bits, one contiguous run, e.g. GENMASK_ULL(15, 8)
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
		[PMU_FORMAT_CONFIG3] = "config3",
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
 * A format file names one run of bits: a field of two runs is two fields.
 * Two fields may share bits (aliases: other names for one field, as
 * hv_gpci's "phys_processor_idx" for "starting_index").
 */
#define PMU_FORMAT_FIELD(_name, _word, _mask)				\
	(&((struct pmu_format_attr[]) {{				\
		.attr = __ATTR(_name, 0444, pmu_format_show, NULL),	\
		.mask = (_mask),					\
		.word = (_word),					\
	}})[0].attr.attr)

/**
 * pmu_format_check() - refuse bits that belong to no field
 * @mask: per &enum pmu_format_word, the OR of the masks of the PMU's
 *	fields in that word, a constant built from the same GENMASK_ULL()
 *	macros as its PMU_FORMAT_FIELD() attributes
 * @attr: the event attribute from the user
 *
 * Called from event_init before anything is taken from @attr, so that no
 * undeclared bit can reach the hardware or the hypervisor. Ranges narrower
 * than a field are the driver's to check.
 *
 * Return: 0, or -EINVAL if config, config1, config2 or config3 has a bit
 * set outside @mask.
 */
static inline int pmu_format_check(const u64 mask[PMU_FORMAT_NR_WORDS],
				   const struct perf_event_attr *attr)
{
	if ((attr->config & ~mask[PMU_FORMAT_CONFIG]) ||
	    (attr->config1 & ~mask[PMU_FORMAT_CONFIG1]) ||
	    (attr->config2 & ~mask[PMU_FORMAT_CONFIG2]) ||
	    (attr->config3 & ~mask[PMU_FORMAT_CONFIG3]))
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

#endif /* __LINUX_PERF_PMU_FORMAT_H */
