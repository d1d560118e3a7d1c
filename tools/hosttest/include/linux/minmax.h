/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-in: min and max, each argument evaluated once. */
#ifndef _LB_HOST_LINUX_MINMAX_H
#define _LB_HOST_LINUX_MINMAX_H

#define min(a, b) ({ typeof(a) _a = (a); typeof(b) _b = (b); _a < _b ? _a : _b; })
#define max(a, b) ({ typeof(a) _a = (a); typeof(b) _b = (b); _a > _b ? _a : _b; })
#define min_t(type, a, b) ({ type _a = (a); type _b = (b); _a < _b ? _a : _b; })
#define max_t(type, a, b) ({ type _a = (a); type _b = (b); _a > _b ? _a : _b; })

#endif
