/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-in: exports to the KUnit module matter to the kernel's loader alone. */
#ifndef _LB_HOST_KUNIT_VISIBILITY_H
#define _LB_HOST_KUNIT_VISIBILITY_H

#define EXPORT_SYMBOL_IF_KUNIT(sym)	_Static_assert(1, #sym)

#endif
