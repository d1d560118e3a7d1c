/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-in: kvcalloc and kvfree are in this directory's slab.h. */
#ifndef _LB_HOST_LINUX_MM_H
#define _LB_HOST_LINUX_MM_H

#include <linux/slab.h>

#endif
