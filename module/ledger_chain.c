// SPDX-License-Identifier: GPL-2.0
/*
 * Chains: blame charged to a holder that is itself blocked flows on to the
 * root of its chain of holders, the task that keeps it as root blame. A
 * cycle on the way is a deadlock. Where a lock's holder is not known yet,
 * the root blame waits on it as a debt (decided at its release), and the
 * time a probable holder spends waiting elsewhere is kept as routes.
 */
#include <linux/sort.h>
#include "ledger_internal.h"

/* Root debts and routes */

/*
 * The rest of a chain from @cur, which the blame reached: on through each
 * lock's known holder, and past a lock whose holder is not known yet
 * through its probable holder, the lock noted as a hop of @rt to be
 * decided at its release. @rt->end is where it ends: a task that does not
 * wait, or 0 past a hop with no guess (its releaser will be the root).
 * @steps bounds the walk: true if it cut the chain short.
 */
static bool lb_route_walk(struct lb_ledger *l, struct lb_task *cur, u32 steps,
			  struct lb_route *rt)
{
	struct lb_task *seen[LB_CYCLE_MAX], *next;
	u32 n = 0, i;

	seen[n++] = cur;
	rt->end = cur->id.pid;
	while (cur->waiting) {
		struct lb_lock *on = cur->waiting->lock;

		if (!steps-- || n == LB_CYCLE_MAX ||
		    (!on->nr_holders && rt->nr_hops == LB_ROUTE_HOPS)) {
			return true;
		}
		if (on->nr_holders) {
			next = on->holder[0].task;
		} else {
			s32 probable = on->pending.probable_pid;

			rt->hop[rt->nr_hops++] = (struct lb_hop){
				.lock = on->id,
				.probable = probable,
				.from = cur->id.pid,
			};
			next = probable ? lb_task_find(l, probable) : NULL;
			if (!next) {
				rt->end = probable;
				return false;
			}
		}
		/* Holding what it waits for: a stale guess, the chain ends here. */
		if (next == cur)
			return false;
		rt->end = next->id.pid;
		/* A cycle (a deadlock, or guesses that make one) ends there too. */
		for (i = 0; i < n; i++)
			if (seen[i] == next)
				return false;
		seen[n++] = next;
		cur = next;
	}
	return false;
}

/*
 * The root of @rt's blame once its lock's releaser is @rt->probable: each
 * hop its releaser confirmed passes it on; a hop released by another task
 * ends at that task, one not released yet (or never named) at the task
 * that waited on it.
 */
static s32 lb_route_root(const struct lb_route *rt)
{
	u32 i;

	for (i = 0; i < rt->nr_hops; i++) {
		const struct lb_hop *h = &rt->hop[i];

		if (h->releaser <= 0)
			return h->from;
		if (h->releaser != h->probable)
			return h->releaser;
	}
	return rt->end;
}

/* Whether @o adds up with @n: the same chain, none of @o's hops decided yet. */
static bool lb_route_same(const struct lb_route *o, const struct lb_route *n)
{
	u32 j;

	if (o->victim_lock != n->victim_lock || o->waits_on != n->waits_on ||
	    o->holder != n->holder || o->from != n->from || o->probable != n->probable ||
	    o->end != n->end || o->nr_hops != n->nr_hops)
		return false;
	for (j = 0; j < o->nr_hops; j++)
		if (o->hop[j].lock != n->hop[j].lock || o->hop[j].probable != n->hop[j].probable ||
		    o->hop[j].from != n->hop[j].from || o->hop[j].releaser || n->hop[j].releaser)
			return false;
	return true;
}

/*
 * Make room in @rt[]: a route whose hops decided its root already needs
 * them no more (its root becomes its end), and the same ones add up.
 */
static void lb_routes_compact(struct lb_route *rt, u32 *nr)
{
	u32 i, j;

	for (i = 0; i < *nr; i++) {
		for (j = 0; j < rt[i].nr_hops; j++)
			if (rt[i].hop[j].releaser <= 0 ||
			    rt[i].hop[j].releaser != rt[i].hop[j].probable)
				break;
		if (j < rt[i].nr_hops && !rt[i].hop[j].releaser)
			continue;
		rt[i].end = lb_route_root(&rt[i]);
		rt[i].nr_hops = 0;
	}
	for (i = 0; i < *nr; i++) {
		for (j = i + 1; j < *nr;) {
			if (lb_route_same(&rt[i], &rt[j])) {
				rt[i].ns += rt[j].ns;
				rt[j] = rt[--(*nr)];
			} else {
				j++;
			}
		}
	}
}

/*
 * Keep @n in @rt[] (@max of them), added to one the same if there is one.
 * False if there is no room; the caller says whether that cut a chain.
 */
static bool lb_route_keep(struct lb_route *rt, u32 *nr, u32 max, const struct lb_route *n)
{
	u32 i;

	for (i = 0; i < *nr; i++) {
		if (lb_route_same(&rt[i], n)) {
			rt[i].ns += n->ns;
			return true;
		}
	}
	if (*nr == max)
		lb_routes_compact(rt, nr);
	if (*nr == max)
		return false;
	rt[(*nr)++] = *n;
	return true;
}

/* @lock's set of root debts and routes, from the pool if it has none; NULL: none left. */
static struct lb_route_set *lb_route_set_get(struct lb_ledger *l, struct lb_lock *lock)
{
	u32 i;

	if (lock->pending.routes)
		return lock->pending.routes;
	for (i = 0; i < LB_ROUTE_SETS; i++) {
		struct lb_route_set *rs = &l->route_set[i];

		if (!rs->lock) {
			rs->lock = lock;
			l->nr_route_sets++;
			rs->nr_root_debts = 0;
			rs->nr_routes = 0;
			lock->pending.routes = rs;
			return rs;
		}
	}
	return NULL;
}

/* @lock's set back to the pool, whatever it still holds (@lock is dropped). */
void lb_route_set_drop(struct lb_ledger *l, struct lb_lock *lock)
{
	if (!lock->pending.routes)
		return;
	lock->pending.routes->lock = NULL;
	lock->pending.routes = NULL;
	l->nr_route_sets--;
}

/* @lock's set back to the pool once it holds nothing. */
static void lb_route_set_put(struct lb_ledger *l, struct lb_lock *lock)
{
	const struct lb_route_set *rs = lock->pending.routes;

	if (rs && !rs->nr_root_debts && !rs->nr_routes)
		lb_route_set_drop(l, lock);
}

/*
 * The hop of @rt whose release decides its root but is late: its lock is
 * not released yet as far as the ledger saw, yet the task that waited on it
 * was woken, before the release that woke it was seen (a LB_HOLD_DEBT
 * holder). futex_wake commits its release when it returns, and the waker
 * can be preempted after the wakeup while the woken task runs on, takes the
 * lock and releases the locks it held. The hop's index, or -1 if the root
 * is decided now (lb_route_root).
 */
static int lb_route_owed(const struct lb_ledger *l, const struct lb_route *rt)
{
	u32 i;

	for (i = 0; i < rt->nr_hops; i++) {
		const struct lb_hop *h = &rt->hop[i];
		struct lb_lock *lock;
		struct lb_task *from;
		struct lb_holder *hd;

		if (h->releaser > 0 && h->releaser == h->probable)
			continue;
		if (h->releaser)
			return -1;
		lock = lb_lock_find(l, h->lock);
		from = lb_task_find(l, h->from);
		if (!lock || !from || !lock->pending.wake_debt)
			return -1;
		hd = lb_holder_find(lock, from);
		return hd && hd->known == LB_HOLD_DEBT ? (int)i : -1;
	}
	return -1;
}

/*
 * @ns of @rt's root blame waits for the late release of hop @k's lock: a
 * root debt of that lock, past its probable holder, decided at the release
 * (lb_root_debts_settle), or back to the hop's waiter if none comes. False
 * if there is no room: the caller ends the chain as before.
 */
static bool lb_route_defer(struct lb_ledger *l, const struct lb_route *rt, u32 k, u64 ns)
{
	struct lb_lock *lock = lb_lock_find(l, rt->hop[k].lock);
	struct lb_route_set *rs = lock ? lb_route_set_get(l, lock) : NULL;
	struct lb_route d = *rt;
	u32 j;

	if (!rs)
		return false;
	d.from = rt->hop[k].from;
	d.probable = rt->hop[k].probable;
	d.nr_hops = rt->nr_hops - k - 1;
	for (j = 0; j < d.nr_hops; j++)
		d.hop[j] = rt->hop[k + 1 + j];
	d.ns = ns;
	if (lb_route_keep(rs->root_debt, &rs->nr_root_debts, LB_LOCK_ROOT_DEBTS, &d))
		return true;
	/* No room: not cut, the chain ends where it did before (the caller). */
	lb_route_set_put(l, lock);
	return false;
}

/* lb_root_debts_settle for a lock with a route set @rs. */
static noinline void lb_root_debts_settle_set(struct lb_ledger *l, struct lb_lock *lock,
					      struct lb_route_set *rs, struct lb_task *root)
{
	u32 i;

	for (i = 0; i < rs->nr_root_debts; i++) {
		const struct lb_route *d = &rs->root_debt[i];
		struct lb_task *t = root;
		int k;

		if (!root) {
			t = lb_task_find(l, d->from);
		} else if (d->probable == root->id.pid) {
			k = lb_route_owed(l, d);
			if (k >= 0 && d->hop[k].lock != lock->id && lb_route_defer(l, d, k, d->ns))
				continue;
			t = lb_task_find(l, lb_route_root(d)) ?: root;
		} else {
			/* No route of the releaser's: past its own waits. */
			lb_past_debt_pay(l, lock, root, d);
			continue;
		}
		if (t)
			lb_root_debt_pay(l, d, t);
	}
	rs->nr_root_debts = 0;
	lb_route_set_put(l, lock);
}

/*
 * Pay every root debt of @lock to its root past @root, or (NULL) back to its
 * fallback. Most locks have no route set: nothing is owed through them.
 */
void lb_root_debts_settle(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *root)
{
	if (lock->pending.routes)
		lb_root_debts_settle_set(l, lock, lock->pending.routes, root);
}

/*
 * The walk of a chain from @t met @cur waiting on @lock, whose holder is
 * not known yet: keep the root blame on it, and where the chain goes on
 * past its probable holder, @steps more at most. False if there is no
 * room: @cur is root.
 */
static bool lb_root_debt_add(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *t,
			     struct lb_task *cur, const struct lb_lock *victim, u64 ns,
			     u32 steps)
{
	s32 probable = lock->pending.probable_pid;
	struct lb_task *p = probable ? lb_task_find(l, probable) : NULL;
	struct lb_route_set *rs;
	struct lb_route d = {
		.victim_lock = victim->id,
		.holder = t->id.pid,
		.waits_on = t->waiting->lock->id,
		.from = cur->id.pid,
		.probable = probable,
		.end = probable,
		.ns = ns,
	};

	if (p && p != cur && steps && lb_route_walk(l, p, steps - 1, &d))
		l->totals.chain_cut_ns += ns;
	rs = lb_route_set_get(l, lock);
	if (!rs) {
		l->totals.chain_cut_ns += ns;
		return false;
	}
	if (lb_route_keep(rs->root_debt, &rs->nr_root_debts, LB_LOCK_ROOT_DEBTS, &d))
		return true;
	l->totals.chain_cut_ns += ns;
	return false;
}

/*
 * Pending time on @lock while its probable holder @p waits on another lock
 * (the caller found it so): note where the chain from @p goes, for its root
 * blame if @p is confirmed as the holder.
 */
void lb_route_note(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *p, u64 ns)
{
	struct lb_route_set *rs;
	struct lb_route rt;

	rs = lb_route_set_get(l, lock);
	if (!rs) {
		l->totals.chain_cut_ns += ns;
		return;
	}
	/* The routes are all for one probable holder: a new one starts afresh. */
	if (rs->nr_routes && rs->route[0].probable != p->id.pid)
		rs->nr_routes = 0;
	memset(&rt, 0, sizeof(rt));
	rt.victim_lock = lock->id;
	rt.waits_on = p->waiting->lock->id;
	rt.holder = p->id.pid;
	rt.from = p->id.pid;
	rt.probable = p->id.pid;
	rt.ns = ns;
	if (lb_route_walk(l, p, l->limits.max_chain_depth, &rt))
		l->totals.chain_cut_ns += ns;
	if (!lb_route_keep(rs->route, &rs->nr_routes, LB_LOCK_ROUTES, &rt))
		l->totals.chain_cut_ns += ns;
	lb_route_set_put(l, lock);
}

/* Note @pid (-1: nobody) as the releaser of @lock in the hops still open on it. */
static void lb_hops_decide_in(struct lb_route *rt, u32 nr, u64 lock, s32 pid)
{
	u32 i, j;

	for (i = 0; i < nr; i++)
		for (j = 0; j < rt[i].nr_hops; j++)
			if (rt[i].hop[j].lock == lock && !rt[i].hop[j].releaser)
				rt[i].hop[j].releaser = pid;
}

static noinline void lb_hops_decide_sets(struct lb_ledger *l, u64 lock, s32 pid)
{
	u32 i, seen = 0;

	/* Stop at the last set given out. */
	for (i = 0; i < LB_ROUTE_SETS && seen < l->nr_route_sets; i++) {
		struct lb_route_set *rs = &l->route_set[i];

		if (!rs->lock)
			continue;
		seen++;
		lb_hops_decide_in(rs->route, rs->nr_routes, lock, pid);
		lb_hops_decide_in(rs->root_debt, rs->nr_root_debts, lock, pid);
	}
}

static void lb_hops_decide(struct lb_ledger *l, u64 lock, s32 pid)
{
	/* Most releases find no set in use. */
	if (l->nr_route_sets)
		lb_hops_decide_sets(l, lock, pid);
}

/* @lock was released by @r: chains through it now know who held it. */
void lb_routes_learn_root(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *r)
{
	lb_hops_decide(l, lock->id, r->id.pid);
}

/* lb_routes_settle for a lock with a route set @rs. */
static noinline bool lb_routes_settle_set(struct lb_ledger *l, struct lb_lock *lock,
					  struct lb_route_set *rs, struct lb_task *r)
{
	bool followed = false;
	u32 i;
	int k;

	for (i = 0; r && i < rs->nr_routes; i++) {
		const struct lb_route *rt = &rs->route[i];
		struct lb_task *root;
		struct lb_route d;

		if (rt->probable != r->id.pid)
			continue;
		followed = true;
		k = lb_route_owed(l, rt);
		if (k >= 0 && rt->hop[k].lock != lock->id) {
			u64 ns = min(rt->ns, r->acct.root_blame_ns);

			if (!ns)
				continue;
			if (lb_route_defer(l, rt, k, ns)) {
				lb_account_take(r, &(struct lb_account){ .root_blame_ns = ns });
				continue;
			}
		}
		root = lb_task_find(l, lb_route_root(rt));
		if (!root || root == r)
			continue;
		d = *rt;
		d.ns = min(rt->ns, r->acct.root_blame_ns);
		lb_account_take(r, &(struct lb_account){ .root_blame_ns = d.ns });
		lb_root_debt_pay(l, &d, root);
	}
	rs->nr_routes = 0;
	lb_route_set_put(l, lock);
	return followed;
}

/*
 * @lock's pending blame went to @r: if @r is the probable holder, the
 * root blame goes on along the routes. NULL: nobody will be named, the
 * routes go, and chains through @lock end at the tasks that waited on it.
 * True if a route was @r's: its waits elsewhere were followed already.
 */
bool lb_routes_settle(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *r)
{
	bool followed = false;

	if (lock->pending.routes)
		followed = lb_routes_settle_set(l, lock, lock->pending.routes, r);
	if (!r)
		lb_hops_decide(l, lock->id, -1);
	return followed;
}

/* Deadlocks: cycles are kept as sorted sets, so each is recorded once. */

static int lb_cmp_s32(const void *a, const void *b)
{
	s32 x = *(const s32 *)a, y = *(const s32 *)b;

	return (x > y) - (x < y);
}

static int lb_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return (x > y) - (x < y);
}

static void lb_deadlock_add(struct lb_ledger *l, const s32 *pid, const u64 *lock, u32 n)
{
	struct lb_deadlock d;
	u32 i;

	memset(&d, 0, sizeof(d));
	n = min_t(u32, n, LB_CYCLE_MAX);
	d.nr_tasks = n;
	d.nr_locks = n;
	memcpy(d.pid, pid, n * sizeof(*pid));
	memcpy(d.lock, lock, n * sizeof(*lock));
	sort(d.pid, n, sizeof(*d.pid), lb_cmp_s32, NULL);
	sort(d.lock, n, sizeof(*d.lock), lb_cmp_u64, NULL);
	for (i = 0; i < l->nr_deadlocks; i++) {
		const struct lb_deadlock *o = &l->deadlock[i];

		if (o->nr_tasks == n && !memcmp(o->pid, d.pid, n * sizeof(*d.pid)) &&
		    !memcmp(o->lock, d.lock, n * sizeof(*d.lock)))
			return;
	}
	l->totals.deadlocks++;
	if (l->nr_deadlocks < LB_DEADLOCKS_MAX)
		l->deadlock[l->nr_deadlocks++] = d;
}

/* The walk */

static void lb_note_cycle(struct lb_ledger *l, struct lb_task **task, const u64 *lock, u32 n)
{
	s32 pid[LB_CYCLE_MAX];
	u32 i;

	for (i = 0; i < n; i++)
		pid[i] = task[i]->id.pid;
	lb_deadlock_add(l, pid, lock, n);
}

/*
 * The root of the chain of blocked holders from @t, which was charged @ns on
 * @lock: the first task that is not waiting, or whose lock has no known
 * holder. A task met twice on the walk closes a cycle: a deadlock. NULL if
 * the root is decided later: the walk met a lock whose holder is learnt at
 * release, which keeps the root blame as a debt.
 */
static struct lb_task *lb_chain_root(struct lb_ledger *l, const struct lb_lock *lock,
				     struct lb_task *t, u64 ns)
{
	struct lb_task *path[LB_CYCLE_MAX], *cur = t, *next;
	u64 via[LB_CYCLE_MAX];
	u32 depth = 0, i;

	path[0] = cur;
	while (depth < l->limits.max_chain_depth) {
		const struct lb_waiter *w = cur->waiting;

		if (!w)
			break;
		if (!w->lock->nr_holders) {
			/* Its holder is learnt at release: the root is decided then. */
			return lb_root_debt_add(l, w->lock, t, cur, lock, ns,
						l->limits.max_chain_depth - depth) ? NULL : cur;
		}
		next = w->lock->holder[0].task;
		/* Holding what it waits for: a stale guess of ours, not a cycle. */
		if (next == cur)
			break;
		via[depth] = w->lock->id;
		for (i = 0; i <= depth; i++) {
			if (path[i] == next) {
				lb_note_cycle(l, &path[i], &via[i], depth - i + 1);
				return path[i];
			}
		}
		path[++depth] = next;
		cur = next;
	}
	if (cur->waiting && depth == l->limits.max_chain_depth)
		l->totals.chain_cut_ns += ns;
	return cur;
}

/*
 * @ns of blame charged to holder @t of @lock: its root keeps it as root
 * blame, and a chain record says how it got there.
 */
static void lb_blame_chain(struct lb_ledger *l, const struct lb_lock *lock, struct lb_task *t,
			   u64 ns)
{
	struct lb_task *root = lb_chain_root(l, lock, t, ns);
	struct lb_route d = { .victim_lock = lock->id, .holder = t->id.pid, .ns = ns };

	if (!root)
		return;
	/* Past its holder, the blame went through the lock it waits on. */
	if (root != t)
		d.waits_on = t->waiting->lock->id;
	lb_root_debt_pay(l, &d, root);
}

void lb_blame_flow(struct lb_ledger *l, const struct lb_lock *lock, struct lb_task *t, u64 ns)
{
	/* Most holders wait on nothing: their own root, with no chain to record. */
	if (!t->waiting) {
		lb_account_add(t, &(struct lb_account){ .root_blame_ns = ns });
		return;
	}
	lb_blame_chain(l, lock, t, ns);
}
