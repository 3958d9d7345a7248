/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the hvpmu KUnit suites.
 */
#ifndef _HVPMU_KUNIT_H
#define _HVPMU_KUNIT_H

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/string.h>
#include <linux/sysfs.h>

/**
 * hvpmu_kunit_group_file() - what reading one sysfs file of a group gives
 * @test: the test (the buffer is a test allocation)
 * @dev: the device passed to show(), or NULL
 * @g: the attribute group; its attributes are &struct device_attribute
 * @name: the file name
 *
 * Return: the file's content, or NULL when the group has no such file.
 */
static inline char *hvpmu_kunit_group_file(struct kunit *test,
					   struct device *dev,
					   const struct attribute_group *g,
					   const char *name)
{
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	struct attribute **a;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (a = g->attrs; *a; a++) {
		struct device_attribute *da =
			container_of(*a, struct device_attribute, attr);

		if (strcmp((*a)->name, name))
			continue;
		KUNIT_ASSERT_GE(test, da->show(dev, da, buf), 0);
		return buf;
	}
	return NULL;
}

/**
 * hvpmu_kunit_file() - hvpmu_kunit_group_file() for show()s that need no device
 * @test: the test
 * @g: the attribute group
 * @name: the file name
 *
 * Return: the file's content, or NULL when the group has no such file.
 */
static inline char *hvpmu_kunit_file(struct kunit *test,
				     const struct attribute_group *g,
				     const char *name)
{
	return hvpmu_kunit_group_file(test, NULL, g, name);
}

/**
 * hvpmu_kunit_count() - number of files in an attribute group
 * @g: the group
 *
 * Return: the number of attributes.
 */
static inline unsigned int hvpmu_kunit_count(const struct attribute_group *g)
{
	unsigned int n = 0;

	while (g->attrs[n])
		n++;
	return n;
}

#endif /* _HVPMU_KUNIT_H */
