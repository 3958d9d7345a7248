/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Out-of-tree builds against Linux 6.11 and older only: get_unaligned_*()
 * moved from <asm/unaligned.h> to <linux/unaligned.h> in 6.12, which the
 * sources use. The 6.1 series changes the include instead.
 */
#include <asm/unaligned.h>
