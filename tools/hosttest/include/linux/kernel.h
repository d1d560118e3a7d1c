/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-in: limits, ARRAY_SIZE, container_of, snprintf and static_assert. */
#ifndef _LB_HOST_LINUX_KERNEL_H
#define _LB_HOST_LINUX_KERNEL_H

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/types.h>
#include <linux/compiler.h>

#define U8_MAX		((u8)~0U)
#define U32_MAX		((u32)~0U)
#define S32_MAX		((s32)(U32_MAX >> 1))
#define U64_MAX		((u64)~0ULL)

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#endif
