/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-in: the subset of <linux/list.h> the ledger uses, same semantics. */
#ifndef _LB_HOST_LINUX_LIST_H
#define _LB_HOST_LINUX_LIST_H

#include <linux/kernel.h>

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

static inline int list_is_singular(const struct list_head *head)
{
	return !list_empty(head) && head->next == head->prev;
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
#define list_for_each_entry_safe_reverse(pos, n, head, member)			\
	for (struct lb_host_iter __it =						\
	     lb_host_list_iter(head, offsetof(typeof(pos[0]), member), true);	\
	     (pos = lb_host_iter_get(&__it)) && ((n = lb_host_iter_peek(&__it)) || 1);	\
	     lb_host_iter_step(&__it))
#define hlist_for_each_entry(pos, head, member)					\
	for (struct lb_host_iter __it =						\
	     lb_host_hlist_iter(head, offsetof(typeof(pos[0]), member));		\
	     (pos = lb_host_iter_get(&__it)); lb_host_iter_step(&__it))

#endif
