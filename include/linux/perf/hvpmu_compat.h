/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel interfaces that differ between the series hvpmu builds on
 * (Linux 6.1 and 6.12), in one place: no driver, model or test tests a
 * kernel version itself. Each entry tests the interface, not the version.
 */
#ifndef _LINUX_PERF_HVPMU_COMPAT_H
#define _LINUX_PERF_HVPMU_COMPAT_H

/* get_unaligned_be64() and friends: <asm/unaligned.h> until 6.12-rc2 */
#ifdef HVPMU_HAVE_LINUX_UNALIGNED_H	/* set by our Kbuild */
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#endif /* _LINUX_PERF_HVPMU_COMPAT_H */
