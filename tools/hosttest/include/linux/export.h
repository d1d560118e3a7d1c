/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-in: nothing is exported on the host (see kunit/visibility.h). */
#ifndef _LB_HOST_LINUX_EXPORT_H
#define _LB_HOST_LINUX_EXPORT_H
#endif
