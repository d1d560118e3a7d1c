/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-in: libc's string functions are the kernel's. */
#ifndef _LB_HOST_LINUX_STRING_H
#define _LB_HOST_LINUX_STRING_H

#include <string.h>

#endif
