/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-in: libc's string functions are the kernel's; strscpy besides. */
#ifndef _LB_HOST_LINUX_STRING_H
#define _LB_HOST_LINUX_STRING_H

#include <string.h>
#include <sys/types.h>
#include <errno.h>

/* Copies what fits of @src, always terminated; -E2BIG when it was cut. */
static inline ssize_t strscpy(char *dst, const char *src, size_t size)
{
	size_t n = strnlen(src, size);

	if (!size)
		return -E2BIG;
	if (n == size) {
		memcpy(dst, src, size - 1);
		dst[size - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dst, src, n + 1);
	return n;
}

#endif
