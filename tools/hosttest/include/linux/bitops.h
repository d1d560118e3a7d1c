/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-in: BIT and fls64. */
#ifndef _LB_HOST_LINUX_BITOPS_H
#define _LB_HOST_LINUX_BITOPS_H

#include <linux/types.h>

#define BIT(nr)		(1UL << (nr))

static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

#endif
