/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-in: a module's description and license matter to the kernel alone. */
#ifndef _LB_HOST_LINUX_MODULE_H
#define _LB_HOST_LINUX_MODULE_H

#define MODULE_DESCRIPTION(text)	_Static_assert(1, text)
#define MODULE_LICENSE(text)		_Static_assert(1, text)
#define MODULE_IMPORT_NS(ns)		_Static_assert(1, #ns)

#endif
