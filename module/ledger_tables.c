// SPDX-License-Identifier: GPL-2.0
/*
 * The ledger's fixed-size tables: creation, hash lookup, free lists and
 * eviction of locks, waits, blame pairs and chains (tasks and processes:
 * ledger_tasks.c).
 */
#include "ledger_internal.h"

#define LB_DEFAULT_LOCKS	1024
#define LB_DEFAULT_TASKS	4096
#define LB_DEFAULT_WAITERS	4096
#define LB_DEFAULT_PAIRS	8192
#define LB_DEFAULT_CHAIN_DEPTH	8
#define LB_DEFAULT_SLEEPERS	4096

static u32 lb_limit(u32 v, u32 def, u32 max)
{
	if (!v)
		return def;
	return min_t(u32, v, max);
}

static u32 lb_hash_bits(u32 capacity)
{
	return max_t(u32, 1, ilog2(roundup_pow_of_two(capacity)));
}

/* The capacities asked for, each bounded, or defaulted if 0; and the hash sizes. */
static void lb_limits_set(struct lb_ledger *l, const struct lb_ledger_limits *limits)
{
	struct lb_ledger_limits *lim = &l->limits;

	lim->max_locks = lb_limit(limits ? limits->max_locks : 0, LB_DEFAULT_LOCKS,
				  LB_LEDGER_TABLE_MAX);
	lim->max_tasks = lb_limit(limits ? limits->max_tasks : 0, LB_DEFAULT_TASKS,
				  LB_LEDGER_TABLE_MAX);
	lim->max_waiters = lb_limit(limits ? limits->max_waiters : 0, LB_DEFAULT_WAITERS,
				    LB_LEDGER_TABLE_MAX);
	lim->max_pairs = lb_limit(limits ? limits->max_pairs : 0, LB_DEFAULT_PAIRS,
				  LB_LEDGER_PAIRS_MAX);
	lim->max_chain_depth = min_t(u32, LB_CHAIN_DEPTH_MAX,
				     limits && limits->max_chain_depth ?
				     limits->max_chain_depth : LB_DEFAULT_CHAIN_DEPTH);
	lim->max_sleepers = lb_limit(limits ? limits->max_sleepers : 0, LB_DEFAULT_SLEEPERS,
				     LB_LEDGER_TABLE_MAX);
	l->opts.futex_kinds = true;
	/* About one chain per lock is typical; pairs bound them anyway. */
	l->max_chains = lim->max_locks;

	l->lock_bits = lb_hash_bits(lim->max_locks);
	l->task_bits = lb_hash_bits(lim->max_tasks);
	l->proc_bits = l->task_bits;
	l->pair_bits = lb_hash_bits(lim->max_pairs);
	l->chain_bits = lb_hash_bits(l->max_chains);
	l->stack_bits = l->pair_bits;
	l->sleeper_bits = lb_hash_bits(lim->max_sleepers);
}

/* Every table, allocated once; false if one could not be. */
static bool lb_tables_alloc(struct lb_ledger *l)
{
	const struct lb_ledger_limits *lim = &l->limits;

	l->locks = kvcalloc(lim->max_locks, sizeof(*l->locks), GFP_KERNEL);
	l->lock_hash = kvcalloc(1U << l->lock_bits, sizeof(*l->lock_hash), GFP_KERNEL);
	l->tasks = kvcalloc(lim->max_tasks, sizeof(*l->tasks), GFP_KERNEL);
	l->task_hash = kvcalloc(1U << l->task_bits, sizeof(*l->task_hash), GFP_KERNEL);
	l->procs = kvcalloc(lim->max_tasks, sizeof(*l->procs), GFP_KERNEL);
	l->proc_hash = kvcalloc(1U << l->proc_bits, sizeof(*l->proc_hash), GFP_KERNEL);
	l->waiters = kvcalloc(lim->max_waiters, sizeof(*l->waiters), GFP_KERNEL);
	l->pairs = kvcalloc(lim->max_pairs, sizeof(*l->pairs), GFP_KERNEL);
	l->pair_hash = kvcalloc(1U << l->pair_bits, sizeof(*l->pair_hash), GFP_KERNEL);
	l->chains = kvcalloc(l->max_chains, sizeof(*l->chains), GFP_KERNEL);
	l->chain_hash = kvcalloc(1U << l->chain_bits, sizeof(*l->chain_hash), GFP_KERNEL);
	/* Stack records come with the first event that names a stack. */
	l->sleepers = kvcalloc(lim->max_sleepers, sizeof(*l->sleepers), GFP_KERNEL);
	l->sleeper_hash = kvcalloc(1U << l->sleeper_bits, sizeof(*l->sleeper_hash), GFP_KERNEL);
	return l->locks && l->lock_hash && l->tasks && l->task_hash && l->procs &&
	       l->proc_hash && l->waiters && l->pairs && l->pair_hash && l->chains &&
	       l->chain_hash && l->sleepers && l->sleeper_hash;
}

struct lb_ledger *lb_ledger_create(const struct lb_ledger_limits *limits)
{
	struct lb_ledger *l = kzalloc(sizeof(*l), GFP_KERNEL);

	if (!l)
		return NULL;
	lb_limits_set(l, limits);
	if (!lb_tables_alloc(l)) {
		lb_ledger_destroy(l);
		return NULL;
	}
	lb_tables_init(l);
	return l;
}
EXPORT_SYMBOL_IF_KUNIT(lb_ledger_create);

void lb_ledger_destroy(struct lb_ledger *l)
{
	if (!l)
		return;
	kvfree(l->sleeper_hash);
	kvfree(l->sleepers);
	kvfree(l->stack_hash);
	kvfree(l->stacks);
	kvfree(l->chain_hash);
	kvfree(l->chains);
	kvfree(l->pair_hash);
	kvfree(l->pairs);
	kvfree(l->waiters);
	kvfree(l->proc_hash);
	kvfree(l->procs);
	kvfree(l->task_hash);
	kvfree(l->tasks);
	kvfree(l->lock_hash);
	kvfree(l->locks);
	kfree(l);
}
EXPORT_SYMBOL_IF_KUNIT(lb_ledger_destroy);

u64 lb_ledger_bytes(const struct lb_ledger *l)
{
	const struct lb_ledger_limits *lim = &l->limits;

	return sizeof(*l) +
	       (u64)lim->max_locks * sizeof(*l->locks) +
	       (u64)(1U << l->lock_bits) * sizeof(*l->lock_hash) +
	       (u64)lim->max_tasks * (sizeof(*l->tasks) + sizeof(*l->procs)) +
	       (u64)(1U << l->task_bits) * sizeof(*l->task_hash) +
	       (u64)(1U << l->proc_bits) * sizeof(*l->proc_hash) +
	       (u64)lim->max_waiters * sizeof(*l->waiters) +
	       (u64)lim->max_pairs * sizeof(*l->pairs) +
	       (u64)(1U << l->pair_bits) * sizeof(*l->pair_hash) +
	       (u64)l->max_chains * sizeof(*l->chains) +
	       (u64)(1U << l->chain_bits) * sizeof(*l->chain_hash) +
	       (l->stacks ? (u64)lim->max_pairs * sizeof(*l->stacks) +
			    (u64)(1U << l->stack_bits) * sizeof(*l->stack_hash) : 0) +
	       (u64)lim->max_sleepers * sizeof(*l->sleepers) +
	       (u64)(1U << l->sleeper_bits) * sizeof(*l->sleeper_hash);
}
EXPORT_SYMBOL_IF_KUNIT(lb_ledger_bytes);

void lb_ledger_reset(struct lb_ledger *l)
{
	lb_tables_init(l);
}
EXPORT_SYMBOL_IF_KUNIT(lb_ledger_reset);

void lb_hash_init(struct hlist_head *hash, u32 bits)
{
	u32 i;

	for (i = 0; i < 1U << bits; i++)
		INIT_HLIST_HEAD(&hash[i]);
}

/* Every lock, task and process slot free. */
static void lb_slots_init(struct lb_ledger *l)
{
	const struct lb_ledger_limits *lim = &l->limits;
	u32 i;

	INIT_LIST_HEAD(&l->free_locks);
	INIT_LIST_HEAD(&l->lock_lru);
	INIT_LIST_HEAD(&l->active_locks);
	lb_hash_init(l->lock_hash, l->lock_bits);
	memset(l->locks, 0, lim->max_locks * sizeof(*l->locks));
	for (i = 0; i < lim->max_locks; i++) {
		INIT_HLIST_NODE(&l->locks[i].hnode);
		list_add_tail(&l->locks[i].lru, &l->free_locks);
	}

	INIT_LIST_HEAD(&l->free_tasks);
	l->nr_top_pins = 0;
	for (i = 0; i < LB_WORTH_BUCKETS; i++)
		INIT_LIST_HEAD(&l->task_lru[i]);
	lb_hash_init(l->task_hash, l->task_bits);
	memset(l->tasks, 0, lim->max_tasks * sizeof(*l->tasks));
	for (i = 0; i < lim->max_tasks; i++) {
		INIT_HLIST_NODE(&l->tasks[i].hnode);
		list_add_tail(&l->tasks[i].lru, &l->free_tasks);
	}

	INIT_LIST_HEAD(&l->free_procs);
	INIT_LIST_HEAD(&l->proc_lru);
	lb_hash_init(l->proc_hash, l->proc_bits);
	memset(l->procs, 0, lim->max_tasks * sizeof(*l->procs));
	for (i = 0; i < lim->max_tasks; i++) {
		INIT_HLIST_NODE(&l->procs[i].hnode);
		list_add_tail(&l->procs[i].lru, &l->free_procs);
	}
}

/* Empty every table; memory stays allocated. */
void lb_tables_init(struct lb_ledger *l)
{
	const struct lb_ledger_limits *lim = &l->limits;
	u32 i;

	memset(&l->totals, 0, sizeof(l->totals));
	l->started = false;
	l->first_ns = 0;
	l->now_ns = 0;
	l->nr_outliers = 0;
	memset(l->route_set, 0, sizeof(l->route_set));
	memset(l->past, 0, sizeof(l->past));
	l->nr_route_sets = 0;
	l->outliers_owed = 0;
	lb_slots_init(l);

	INIT_LIST_HEAD(&l->free_waiters);
	INIT_LIST_HEAD(&l->ghost_fifo);
	memset(l->waiters, 0, lim->max_waiters * sizeof(*l->waiters));
	for (i = 0; i < lim->max_waiters; i++) {
		INIT_LIST_HEAD(&l->waiters[i].lock_node);
		list_add_tail(&l->waiters[i].link, &l->free_waiters);
	}

	lb_hash_init(l->pair_hash, l->pair_bits);
	l->nr_pairs = 0;
	l->pair_hand = 0;
	l->pairs_blame_ns = 0;
	lb_hash_init(l->chain_hash, l->chain_bits);
	l->nr_chains = 0;
	l->chain_fold_wait = 0;
	if (l->stack_hash)
		lb_hash_init(l->stack_hash, l->stack_bits);
	l->nr_stacks = 0;
	l->nr_deadlocks = 0;
	lb_events_init(l);
	lb_cgroup_pairs_init(l);
	lb_scopes_init(l);
}

/* Locks */

/*
 * Which idle lock to forget: among the least recently used few, one without
 * pending blame if possible (so nothing becomes unattributed), then the one
 * with the least waiting.
 */
/*
 * Settled: nobody waits (it is on lock_lru), nothing is pending, no root
 * blame is on its way through it, and whoever holds it has not been
 * waited for since it took it, so that its hold has nothing to record.
 * Giving it up loses only its own record: the tasks' accounts, the totals
 * and the chain records (re-keyed) keep everything it saw.
 */
static bool lb_lock_settled(const struct lb_lock *lock)
{
	u32 i;

	if (lock->cnt.pending_ns || lock->pending.routes || !list_empty(&lock->ghosts))
		return false;
	for (i = 0; i < lock->nr_holders; i++)
		if (lock->holder[i].contended_ns)
			return false;
	return true;
}

/* How much giving @lock up would lose: 0 settled, 1 a hold or routes, 2 pending blame. */
static u32 lb_lock_loss(const struct lb_lock *lock)
{
	return lb_lock_settled(lock) ? 0 : lock->cnt.pending_ns ? 2 : 1;
}

static struct lb_lock *lb_lock_victim(struct lb_ledger *l)
{
	struct lb_lock *lock, *best = NULL;
	u32 n = 0, best_loss = 0;

	list_for_each_entry_reverse(lock, &l->lock_lru, lru) {
		u32 loss = lb_lock_loss(lock);

		if (!best || loss < best_loss ||
		    (loss == best_loss && lock->cnt.wait_ns < best->cnt.wait_ns)) {
			best = lock;
			best_loss = loss;
		}
		if (++n == LB_EVICT_SCAN)
			break;
	}
	return best;
}

/* Unhash a lock that nobody waits on; its unresolved blame is unattributable. */
static void lb_lock_drop(struct lb_ledger *l, struct lb_lock *lock)
{
	u32 i;

	lb_pending_close(l, lock, NULL, LB_PENDING_DROP);
	for (i = 0; i < lock->nr_holders; i++)
		lb_task_unpin(l, lock->holder[i].task);
	lock->nr_holders = 0;
	/* A top slot that pins no task is only emptied. */
	for (i = 0; i < LB_LOCK_TOP; i++) {
		if (lock->cause[i].pinned)
			lb_top_take(l, &lock->cause[i], NULL);
		if (lock->victim[i].pinned)
			lb_top_take(l, &lock->victim[i], NULL);
		lock->cause[i].pid = 0;
		lock->victim[i].pid = 0;
	}
	lock->cause_pid = 0;
	hlist_del_init(&lock->hnode);
}

/*
 * Make room: a settled lock is folded (its counts stay in the totals), and
 * nothing is lost; any other is evicted, its pending blame unattributed
 * and its holders forgotten.
 */
static void lb_lock_evict(struct lb_ledger *l, struct lb_lock *lock)
{
	if (lb_lock_settled(lock)) {
		l->totals.folded_locks++;
		l->totals.folded_wait_ns += lock->cnt.wait_ns;
		l->totals.folded_blame_ns += lock->cnt.blame_ns;
	} else {
		l->totals.evicted_locks++;
	}
	lb_lock_drop(l, lock);
}

/*
 * Drop a lock nobody waits on, as if never seen (not an eviction); its slot
 * is cleared for the next, as lb_slots_init left every free one.
 */
void lb_lock_forget(struct lb_ledger *l, struct lb_lock *lock)
{
	lb_lock_drop(l, lock);
	list_del_init(&lock->lru);
	memset(lock, 0, sizeof(*lock));
	list_add(&lock->lru, &l->free_locks);
}

/*
 * An evicted lock's slot, cleared; NULL when every lock is waited on (locks
 * being waited on are on active_locks, never evicted). Out of line: a free
 * slot, the common case, need not save the registers eviction uses.
 */
static noinline struct lb_lock *lb_lock_evict_one(struct lb_ledger *l)
{
	struct lb_lock *lock;

	if (list_empty(&l->lock_lru))
		return NULL;
	lock = lb_lock_victim(l);
	lb_lock_evict(l, lock);
	list_del_init(&lock->lru);
	memset(lock, 0, sizeof(*lock));
	INIT_HLIST_NODE(&lock->hnode);
	return lock;
}

/*
 * A lock slot for @id, new to the table: a free one, else an evicted one;
 * NULL when every lock is waited on. Out of line: most waits' locks are
 * known, and their lookup need not save the registers making one uses.
 */
noinline struct lb_lock *lb_lock_new(struct lb_ledger *l, u64 id, u8 lock_class)
{
	struct lb_lock *lock;

	/* A free slot is zero (lb_lock_forget): only an evicted one is cleared. */
	if (!list_empty(&l->free_locks)) {
		lock = list_first_entry(&l->free_locks, struct lb_lock, lru);
		list_del_init(&lock->lru);
	} else {
		lock = lb_lock_evict_one(l);
		if (!lock)
			return NULL;
	}
	INIT_LIST_HEAD(&lock->waiters);
	INIT_LIST_HEAD(&lock->ghosts);
	lock->id = id;
	lock->lock_class = lock_class;
	hlist_add_head(&lock->hnode, &l->lock_hash[hash_64(id, l->lock_bits)]);
	list_add(&lock->lru, &l->lock_lru);
	return lock;
}

/* Waits */

/*
 * No wait slot is free (lb_waiter_alloc): the oldest ghost gives its slot
 * up. Its pending share stays on the lock (the holder still gets the blame)
 * but the (holder, victim) pair can no longer be credited. False if there
 * is no ghost either.
 */
bool lb_waiter_reclaim(struct lb_ledger *l)
{
	struct lb_waiter *w;

	if (list_empty(&l->ghost_fifo))
		return false;
	w = list_first_entry(&l->ghost_fifo, struct lb_waiter, link);
	l->totals.dropped_pairs++;
	l->totals.dropped_pair_ns += w->pending_ns;
	lb_waiter_free(l, w);
	return true;
}

void lb_waiter_free(struct lb_ledger *l, struct lb_waiter *w)
{
	/* A long wait whose holder was never learnt is kept as it is. */
	if (w->outlier)
		lb_outlier_wait(l, w);
	list_del_init(&w->lock_node);
	list_move(&w->link, &l->free_waiters);
	w->lock = NULL;
	w->task = NULL;
	w->pending_ns = 0;
	w->acc_pair_ns = 0;
	w->acc_top_ns = 0;
	w->share_ns = 0;
	w->share_mark_ns = 0;
	w->share_since = 0;
}

/*
 * Pairs: when the table is full, a new pair takes the slot of the least
 * blamed of the few under the clock hand, if that one holds no more than the
 * mean; else the new pair's blame is what is dropped.
 */

static u32 lb_pair_hash(const struct lb_ledger *l, s32 holder, s32 victim)
{
	return hash_64(((u64)(u32)holder << 32) | (u32)victim, l->pair_bits);
}

static struct hlist_head *lb_pair_head(const struct lb_ledger *l, s32 holder, s32 victim)
{
	return &l->pair_hash[lb_pair_hash(l, holder, victim)];
}

static inline struct lb_pair *lb_pair_in(const struct hlist_head *head, s32 holder, s32 victim)
{
	struct lb_pair *p;

	hlist_for_each_entry(p, head, hnode)
		if (p->holder == holder && p->victim == victim)
			return p;
	return NULL;
}

struct lb_pair *lb_pair_find(const struct lb_ledger *l, s32 holder, s32 victim)
{
	return lb_pair_in(lb_pair_head(l, holder, victim), holder, victim);
}

/* A pair between two tasks that lock top slots pin: a lock's own story. */
static bool lb_pair_kept(const struct lb_ledger *l, const struct lb_pair *p)
{
	const struct lb_task *t = lb_task_find(l, p->holder);

	if (!t || !t->tops)
		return false;
	t = lb_task_find(l, p->victim);
	return t && t->tops;
}

/*
 * The pair to forget for a newcomer: the least blame of the next few, if it is
 * no more than the mean and not kept (lb_pair_kept). Else none.
 */
static struct lb_pair *lb_pair_victim(struct lb_ledger *l)
{
	u32 n = min_t(u32, LB_EVICT_SCAN, l->nr_pairs);
	struct lb_pair *p, *best = NULL;

	while (n--) {
		p = &l->pairs[l->pair_hand];
		if (++l->pair_hand == l->nr_pairs)
			l->pair_hand = 0;
		if (!best || p->blame_ns < best->blame_ns)
			best = p;
	}
	if (!best || best->blame_ns > div_u64(l->pairs_blame_ns, l->nr_pairs) ||
	    lb_pair_kept(l, best))
		return NULL;
	hlist_del_init(&best->hnode);
	l->pairs_blame_ns -= best->blame_ns;
	l->totals.dropped_pairs++;
	l->totals.dropped_pair_ns += best->blame_ns;
	return best;
}

/*
 * A new pair in bucket @head, or NULL (lb_pair_victim). Out of line: most
 * charges go to a pair that exists (lb_pair_add).
 */
static noinline struct lb_pair *lb_pair_new(struct lb_ledger *l, struct hlist_head *head,
					    s32 holder, s32 victim)
{
	struct lb_pair *p;

	if (l->nr_pairs < l->limits.max_pairs)
		p = &l->pairs[l->nr_pairs++];
	else
		p = lb_pair_victim(l);
	if (!p)
		return NULL;
	p->holder = holder;
	p->victim = victim;
	p->blame_ns = 0;
	hlist_add_head(&p->hnode, head);
	return p;
}

void lb_pair_add(struct lb_ledger *l, s32 holder, s32 victim, u64 ns)
{
	struct hlist_head *head = lb_pair_head(l, holder, victim);
	struct lb_pair *p = lb_pair_in(head, holder, victim);

	if (unlikely(!p)) {
		p = lb_pair_new(l, head, holder, victim);
		if (!p) {
			l->totals.dropped_pairs++;
			l->totals.dropped_pair_ns += ns;
			return;
		}
	}
	p->blame_ns += ns;
	l->pairs_blame_ns += ns;
}

/* Take back @ns that lb_pair_add gave; what a forgotten pair had was dropped. */
void lb_pair_take(struct lb_ledger *l, s32 holder, s32 victim, u64 ns)
{
	struct lb_pair *p = lb_pair_find(l, holder, victim);
	u64 take = p ? min(ns, p->blame_ns) : 0;

	if (p) {
		p->blame_ns -= take;
		l->pairs_blame_ns -= take;
	}
	l->totals.dropped_pair_ns -= min(ns - take, l->totals.dropped_pair_ns);
}
