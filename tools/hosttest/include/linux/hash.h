/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-in: hash_64, the kernel's multiplicative hash. */
#ifndef _LB_HOST_LINUX_HASH_H
#define _LB_HOST_LINUX_HASH_H

#include <linux/types.h>

#define GOLDEN_RATIO_64 0x61C8864680B583EBull

static inline u32 hash_64(u64 val, unsigned int bits)
{
	return (u32)((val * GOLDEN_RATIO_64) >> (64 - bits));
}

#endif
