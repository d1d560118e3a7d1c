/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel facilities the ledger uses: the real ones in the kernel, and on
 * the host (unit tests, fuzzing) small libc-backed equivalents of the same name.
 */
#ifndef _LOCKBLAME_LB_SHIM_H
#define _LOCKBLAME_LB_SHIM_H

#ifdef __KERNEL__

#include <linux/bitops.h>
#include <linux/compiler.h>
#include <linux/export.h>
#include <kunit/visibility.h>
#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/slab.h>
/* <linux/stdarg.h> since 5.15 (module/features.mk); before, the compiler's. */
#ifdef LB_HAVE_LINUX_STDARG
#include <linux/stdarg.h>
#else
#include <stdarg.h>
#endif
#include <linux/string.h>
#include <linux/types.h>

#else /* !__KERNEL__: the host build */

#include <linux/types.h>
#include <assert.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;

#define U32_MAX		((u32)~0U)
#define S32_MAX		((s32)(U32_MAX >> 1))
#define U64_MAX		((u64)~0ULL)
#define GFP_KERNEL	0
#define BIT(nr)		(1UL << (nr))

/*
 * The kernel's attribute macros. "__attribute" is GCC's and clang's other
 * spelling of "__attribute__"; it keeps checkpatch, which rightly prefers
 * these very macros in kernel code, from asking for them in their own
 * definition.
 */
#define __printf(a, b)		__attribute((__format__(printf, a, b)))
#define noinline_for_stack	__attribute((__noinline__))

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

/* Exports (to the KUnit module only) matter to the kernel's module loader alone. */
#define EXPORT_SYMBOL_IF_KUNIT(sym)	static_assert(1, #sym)

#define min(a, b) ({ typeof(a) _a = (a); typeof(b) _b = (b); _a < _b ? _a : _b; })
#define max(a, b) ({ typeof(a) _a = (a); typeof(b) _b = (b); _a > _b ? _a : _b; })
#define min_t(type, a, b) ({ type _a = (a); type _b = (b); _a < _b ? _a : _b; })
#define max_t(type, a, b) ({ type _a = (a); type _b = (b); _a > _b ? _a : _b; })

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

static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

static inline int ilog2(u64 x)
{
	return fls64(x) - 1;
}

static inline u64 roundup_pow_of_two(u64 x)
{
	return x <= 1 ? 1 : 1ULL << fls64(x - 1);
}

#define GOLDEN_RATIO_64 0x61C8864680B583EBull

static inline u32 hash_64(u64 val, unsigned int bits)
{
	return (u32)((val * GOLDEN_RATIO_64) >> (64 - bits));
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline u64 mul_u64_u64_div_u64(u64 a, u64 mul, u64 div)
{
	return (u64)((__uint128_t)a * mul / div);
}

/* The subset of <linux/list.h> the ledger uses, same semantics. */
struct list_head {
	struct list_head *next, *prev;
};

struct hlist_head {
	struct hlist_node *first;
};

struct hlist_node {
	struct hlist_node *next, **pprev;
};

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	list->next = list;
	list->prev = list;
}

static inline void __list_add(struct list_head *new, struct list_head *prev,
			      struct list_head *next)
{
	next->prev = new;
	new->next = next;
	new->prev = prev;
	prev->next = new;
}

static inline void list_add(struct list_head *new, struct list_head *head)
{
	__list_add(new, head, head->next);
}

static inline void list_add_tail(struct list_head *new, struct list_head *head)
{
	__list_add(new, head->prev, head);
}

static inline void list_del_init(struct list_head *entry)
{
	entry->next->prev = entry->prev;
	entry->prev->next = entry->next;
	INIT_LIST_HEAD(entry);
}

static inline void list_move(struct list_head *list, struct list_head *head)
{
	list_del_init(list);
	list_add(list, head);
}

static inline void list_move_tail(struct list_head *list, struct list_head *head)
{
	list_del_init(list);
	list_add_tail(list, head);
}

static inline int list_empty(const struct list_head *head)
{
	return head->next == head;
}

#define list_entry(ptr, type, member)	container_of(ptr, type, member)
#define list_first_entry(ptr, type, member) list_entry((ptr)->next, type, member)
#define list_last_entry(ptr, type, member) list_entry((ptr)->prev, type, member)

#define INIT_HLIST_HEAD(ptr)	((ptr)->first = NULL)

static inline void INIT_HLIST_NODE(struct hlist_node *h)
{
	h->next = NULL;
	h->pprev = NULL;
}

static inline int hlist_unhashed(const struct hlist_node *h)
{
	return !h->pprev;
}

static inline void hlist_add_head(struct hlist_node *n, struct hlist_head *h)
{
	struct hlist_node *first = h->first;

	n->next = first;
	if (first)
		first->pprev = &n->next;
	h->first = n;
	n->pprev = &h->first;
}

static inline void hlist_del_init(struct hlist_node *n)
{
	if (hlist_unhashed(n))
		return;
	*n->pprev = n->next;
	if (n->next)
		n->next->pprev = n->pprev;
	INIT_HLIST_NODE(n);
}

/*
 * The iterators note the next entry before the loop body runs, so they are
 * all safe against removing the current entry (the kernel's plain ones are
 * not; the ledger never relies on the difference). Each macro argument is
 * evaluated once.
 */
struct lb_host_iter {
	const void *end;
	void *cur, *succ;
	size_t offset;
	bool reverse, hlist;
};

static inline struct lb_host_iter lb_host_list_iter(const struct list_head *head, size_t offset,
						    bool reverse)
{
	struct lb_host_iter it = {
		.end = head, .cur = reverse ? head->prev : head->next, .offset = offset,
		.reverse = reverse,
	};

	return it;
}

static inline struct lb_host_iter lb_host_hlist_iter(const struct hlist_head *head,
						     size_t offset)
{
	struct lb_host_iter it = { .cur = head->first, .offset = offset, .hlist = true };

	return it;
}

/* The entry under the cursor, or NULL at the end; notes its successor. */
static inline void *lb_host_iter_get(struct lb_host_iter *it)
{
	void *cur = it->cur;

	if (cur == it->end)
		return NULL;
	if (it->hlist)
		it->succ = ((struct hlist_node *)cur)->next;
	else if (it->reverse)
		it->succ = ((struct list_head *)cur)->prev;
	else
		it->succ = ((struct list_head *)cur)->next;
	return (char *)cur - it->offset;
}

/* The successor's entry (NULL at the end), for the _safe iterator. */
static inline void *lb_host_iter_peek(const struct lb_host_iter *it)
{
	return it->succ == it->end ? NULL : (char *)it->succ - it->offset;
}

static inline void lb_host_iter_step(struct lb_host_iter *it)
{
	it->cur = it->succ;
}

#define list_for_each_entry(pos, head, member)					\
	for (struct lb_host_iter __it =						\
	     lb_host_list_iter(head, offsetof(typeof(pos[0]), member), false);	\
	     (pos = lb_host_iter_get(&__it)); lb_host_iter_step(&__it))
#define list_for_each_entry_reverse(pos, head, member)				\
	for (struct lb_host_iter __it =						\
	     lb_host_list_iter(head, offsetof(typeof(pos[0]), member), true);	\
	     (pos = lb_host_iter_get(&__it)); lb_host_iter_step(&__it))
#define list_for_each_entry_safe(pos, n, head, member)				\
	for (struct lb_host_iter __it =						\
	     lb_host_list_iter(head, offsetof(typeof(pos[0]), member), false);	\
	     (pos = lb_host_iter_get(&__it)) && ((n = lb_host_iter_peek(&__it)) || 1);	\
	     lb_host_iter_step(&__it))
#define hlist_for_each_entry(pos, head, member)					\
	for (struct lb_host_iter __it =						\
	     lb_host_hlist_iter(head, offsetof(typeof(pos[0]), member));		\
	     (pos = lb_host_iter_get(&__it)); lb_host_iter_step(&__it))

#endif /* __KERNEL__ */

#endif /* _LOCKBLAME_LB_SHIM_H */
