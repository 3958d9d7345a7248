/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the KUnit test of the ARM DMC-620 PMU driver sees of it.
 */
#ifndef __ARM_DMC620_PMU_H
#define __ARM_DMC620_PMU_H

#include <linux/kconfig.h>
#include <linux/sysfs.h>

#if IS_ENABLED(CONFIG_KUNIT)
/* The sysfs "format" group, static without KUnit (VISIBLE_IF_KUNIT). */
extern const struct attribute_group dmc620_pmu_format_attr_group;
#endif

#endif /* __ARM_DMC620_PMU_H */
