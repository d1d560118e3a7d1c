/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel facilities the ledger uses: the real headers in the kernel; on
 * the host (unit tests, fuzzing, replay) tools/hosttest/include/ stands in
 * for them, as the kernel's tools/testing/vma does for mm/vma.c.
 */
#ifndef _LOCKBLAME_LB_SHIM_H
#define _LOCKBLAME_LB_SHIM_H

#include <linux/bitops.h>
#include <linux/compiler.h>
#include <linux/export.h>
/*
 * <kunit/visibility.h> since 6.2 (module/features.mk); before, the same
 * export into the KUnit namespace, which only the test module imports.
 */
#ifdef LB_NO_KUNIT_VISIBILITY
#define EXPORT_SYMBOL_IF_KUNIT(symbol) EXPORT_SYMBOL_NS_GPL(symbol, EXPORTED_FOR_KUNIT_TESTING)
#else
#include <kunit/visibility.h>
#endif
#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/slab.h>
/* <linux/stdarg.h> since 5.15 (module/features.mk); before, and on the host, the compiler's. */
#ifdef LB_HAVE_LINUX_STDARG
#include <linux/stdarg.h>
#else
#include <stdarg.h>
#endif
#include <linux/string.h>
#include <linux/types.h>

#endif /* _LOCKBLAME_LB_SHIM_H */
