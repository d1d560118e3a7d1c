/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ledger's tables (ledger_tables.c, ledger_tasks.c): lookup, allocation
 * and eviction, never allocating memory. The lookups every event makes are
 * inline. Part of ledger_internal.h, which includes it after struct lb_ledger.
 */
#ifndef _LOCKBLAME_LEDGER_TABLES_H
#define _LOCKBLAME_LEDGER_TABLES_H

void lb_tables_init(struct lb_ledger *l);

/* Inline: every event looks up its lock, most of them their task too, some twice. */
static inline struct lb_lock *lb_lock_find(const struct lb_ledger *l, u64 id)
{
	struct lb_lock *lock;

	hlist_for_each_entry(lock, &l->lock_hash[hash_64(id, l->lock_bits)], hnode)
		if (lock->id == id)
			return lock;
	return NULL;
}

struct lb_lock *lb_lock_new(struct lb_ledger *l, u64 id, u8 lock_class);
void lb_lock_forget(struct lb_ledger *l, struct lb_lock *lock);

/* Find or make the lock @id; inline, as its lookup: every wait begun comes here. */
static inline struct lb_lock *lb_lock_get(struct lb_ledger *l, u64 id, u8 lock_class)
{
	struct lb_lock *lock = lb_lock_find(l, id);

	if (unlikely(!lock))
		return lb_lock_new(l, id, lock_class);
	if (!lock->nr_waiting)
		list_move(&lock->lru, &l->lock_lru);
	return lock;
}

static inline struct lb_task *lb_task_find(const struct lb_ledger *l, s32 pid)
{
	struct lb_task *t;

	hlist_for_each_entry(t, &l->task_hash[hash_64((u32)pid, l->task_bits)], hnode)
		if (t->id.pid == pid)
			return t;
	return NULL;
}

/*
 * The probable holder of @lock, a lock waited on, if it waits on another
 * lock: where @lock's chain goes. None while @lock is the only lock waited
 * on (every wait's lock is on active_locks): no lookup.
 */
static inline struct lb_task *lb_probable_elsewhere(const struct lb_ledger *l,
						    const struct lb_lock *lock)
{
	struct lb_task *p;

	if (!lock->pending.probable_pid || list_is_singular(&l->active_locks))
		return NULL;
	p = lb_task_find(l, lock->pending.probable_pid);
	return p && p->waiting && p->waiting->lock != lock ? p : NULL;
}

struct lb_task *lb_task_get(struct lb_ledger *l, const struct lb_task_id *id, bool kthread);
void lb_task_rename(struct lb_ledger *l, const struct lb_task_id *id);
void lb_task_unpinned(struct lb_ledger *l, struct lb_task *t);

/* A pinned task (a live wait, hold or top slot of its) is never evicted. */
static inline void lb_task_pin(struct lb_task *t)
{
	if (!t->pins++)
		list_del_init(&t->lru);
}

/* Its last pin gone, the task can be evicted again (lb_task_unpinned). */
static inline void lb_task_unpin(struct lb_ledger *l, struct lb_task *t)
{
	if (!--t->pins)
		lb_task_unpinned(l, t);
}

/* A lock's top causes and victims (ledger_tasks.c). */
void lb_top_take(struct lb_ledger *l, struct lb_top *slot, struct lb_task *t);
void lb_top_claim(struct lb_ledger *l, struct lb_top *top, u32 empty, struct lb_task *t, u64 ns);
void lb_top_less(struct lb_top *top, s32 pid, u64 ns);

/* ledger.c: the time locks kept applied, for a decision mid-event. */
void lb_locks_catch_up(struct lb_ledger *l);

/* @ns to @t's top slot; inline: every segment's waiters and holders come here. */
static inline void lb_top_add(struct lb_ledger *l, struct lb_top *top, struct lb_task *t, u64 ns)
{
	u32 i;

	for (i = 0; i < LB_LOCK_TOP; i++) {
		if (top[i].pid == t->id.pid) {
			top[i].ns += ns;
			return;
		}
		if (!top[i].pid)
			break;
	}
	lb_top_claim(l, top, i, t, ns);
}

/* Inline: a task's first event attaches it to its process. */
static inline struct lb_proc *lb_proc_find(const struct lb_ledger *l, s32 tgid)
{
	struct lb_proc *p;

	hlist_for_each_entry(p, &l->proc_hash[hash_64((u32)tgid, l->proc_bits)], hnode)
		if (p->tgid == tgid)
			return p;
	return NULL;
}

bool lb_waiter_reclaim(struct lb_ledger *l);
void lb_waiter_free(struct lb_ledger *l, struct lb_waiter *w);

/* A free wait slot, NULL if none; inline: every wait begun takes one. */
static inline struct lb_waiter *lb_waiter_alloc(struct lb_ledger *l)
{
	struct lb_waiter *w;

	if (list_empty(&l->free_waiters) && !lb_waiter_reclaim(l))
		return NULL;
	w = list_first_entry(&l->free_waiters, struct lb_waiter, link);
	list_del_init(&w->link);
	return w;
}

void lb_waiter_pair_charge(struct lb_ledger *l, struct lb_waiter *w);

/* The blame a segment put aside for @w, if any, to the tables. */
static inline void lb_waiter_flush_pair(struct lb_ledger *l, struct lb_waiter *w)
{
	if (w->acc_pair_ns)
		lb_waiter_pair_charge(l, w);
}

/*
 * Everything put aside for @w, to the tables (ledger_cgroups.c): before its
 * wait ends, before anything is taken back from it, and for every live wait
 * before a read (lb_waiters_flush). Inline: every wait's end comes here.
 */
static inline void lb_waiter_flush(struct lb_ledger *l, struct lb_waiter *w)
{
	lb_waiter_flush_pair(l, w);
	if (w->acc_top_ns && w->task)
		lb_top_add(l, w->lock->victim, w->task, w->acc_top_ns);
	w->acc_top_ns = 0;
}

struct lb_pair *lb_pair_find(const struct lb_ledger *l, s32 holder, s32 victim);
void lb_pair_add(struct lb_ledger *l, s32 holder, s32 victim, u64 ns);
void lb_pair_take(struct lb_ledger *l, s32 holder, s32 victim, u64 ns);
void lb_hash_init(struct hlist_head *hash, u32 bits);

#endif /* _LOCKBLAME_LEDGER_TABLES_H */
