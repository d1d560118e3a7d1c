/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-in: the kernel's sort(), on the C library's qsort(). */
#ifndef _LB_HOST_LINUX_SORT_H
#define _LB_HOST_LINUX_SORT_H

#include <stdlib.h>

typedef int (*cmp_func_t)(const void *a, const void *b);
typedef void (*swap_func_t)(void *a, void *b, int size);

static inline void sort(void *base, size_t num, size_t size, cmp_func_t cmp,
			swap_func_t swap)
{
	(void)swap;
	qsort(base, num, size, cmp);
}

#endif
