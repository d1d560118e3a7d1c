/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-in: the kernel's allocators the ledger uses, on calloc and free. */
#ifndef _LB_HOST_LINUX_SLAB_H
#define _LB_HOST_LINUX_SLAB_H

#include <stdlib.h>

#define GFP_KERNEL	0

static inline void *kvcalloc(size_t n, size_t size, int flags)
{
	(void)flags;
	return calloc(n, size);
}

static inline void *kzalloc(size_t size, int flags)
{
	(void)flags;
	return calloc(1, size);
}

static inline void kvfree(const void *p)
{
	free((void *)p);
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

#endif
