/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-in: ilog2 and roundup_pow_of_two, as functions. */
#ifndef _LB_HOST_LINUX_LOG2_H
#define _LB_HOST_LINUX_LOG2_H

#include <linux/bitops.h>

static inline int ilog2(u64 x)
{
	return fls64(x) - 1;
}

static inline u64 roundup_pow_of_two(u64 x)
{
	return x <= 1 ? 1 : 1ULL << fls64(x - 1);
}

#endif
