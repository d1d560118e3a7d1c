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

/* Chain records: append-only until reset. */

static u32 lb_chain_hash(const struct lb_ledger *l, const struct lb_chain *c)
{
	u64 k = c->victim_lock ^ (c->waits_on * 31) ^ ((u64)(u32)c->holder << 32) ^ (u32)c->root;

	return hash_64(k, l->chain_bits);
}

static void lb_chain_add(struct lb_ledger *l, const struct lb_chain *key, u64 ns)
{
	struct hlist_head *head = &l->chain_hash[lb_chain_hash(l, key)];
	struct lb_chain *c;

	hlist_for_each_entry(c, head, hnode) {
		if (c->victim_lock == key->victim_lock && c->waits_on == key->waits_on &&
		    c->holder == key->holder && c->root == key->root) {
			c->blame_ns += ns;
			return;
		}
	}
	if (l->nr_chains == l->max_chains) {
		l->totals.dropped_chains++;
		return;
	}
	c = &l->chains[l->nr_chains++];
	*c = *key;
	c->blame_ns = ns;
	hlist_add_head(&c->hnode, head);
}

/* Root debts and routes */

/* The chain through @d ends at @root: root blame and the chain record. */
static void lb_root_debt_pay(struct lb_ledger *l, const struct lb_root_debt *d,
			     struct lb_task *root)
{
	struct lb_chain c = {
		.victim_lock = d->victim_lock,
		.holder = d->holder,
		.waits_on = d->waits_on,
		.root = root->id.pid,
	};

	lb_account_add(root, &(struct lb_account){ .root_blame_ns = d->ns });
	if (root->id.pid != d->holder)
		lb_chain_add(l, &c, d->ns);
}

/* Pay every root debt of @lock to @root, or (NULL) back to its fallback. */
void lb_root_debts_settle(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *root)
{
	u32 i;

	for (i = 0; i < lock->nr_root_debts; i++) {
		const struct lb_root_debt *d = &lock->root_debt[i];
		struct lb_task *t = root ? root : lb_task_find(l, d->fallback);

		if (t)
			lb_root_debt_pay(l, d, t);
	}
	lock->nr_root_debts = 0;
}

/*
 * The walk of a chain met @lock, whose holder is not known yet: keep the
 * root blame on it. False if there is no room: the caller's task is root.
 */
static bool lb_root_debt_add(struct lb_lock *lock, const struct lb_root_debt *nd)
{
	struct lb_root_debt *d;
	u32 i;

	for (i = 0; i < lock->nr_root_debts; i++) {
		d = &lock->root_debt[i];
		if (d->victim_lock == nd->victim_lock && d->holder == nd->holder &&
		    d->waits_on == nd->waits_on && d->fallback == nd->fallback) {
			d->ns += nd->ns;
			return true;
		}
	}
	if (lock->nr_root_debts == LB_LOCK_ROOT_DEBTS)
		return false;
	lock->root_debt[lock->nr_root_debts++] = *nd;
	return true;
}

/*
 * Pending time on @lock while its probable holder P waits on another lock:
 * note where the root blame would go if P is confirmed as the holder.
 */
void lb_route_note(struct lb_ledger *l, struct lb_lock *lock, u64 ns)
{
	struct lb_task *p = lb_task_find(l, lock->probable_pid);
	const struct lb_lock *on;
	struct lb_route *r;
	s32 root;
	u32 i;

	if (!p || !p->waiting || p->waiting->lock == lock)
		return;
	on = p->waiting->lock;
	root = on->nr_holders ? on->holder[0].task->id.pid : 0;
	if (lock->route_pid != p->id.pid) {
		lock->route_pid = p->id.pid;
		lock->nr_routes = 0;
	}
	for (i = 0; i < lock->nr_routes; i++) {
		r = &lock->route[i];
		if (r->waits_on == on->id && r->root == root) {
			r->ns += ns;
			return;
		}
	}
	if (lock->nr_routes < LB_LOCK_ROUTES)
		lock->route[lock->nr_routes++] = (struct lb_route){ on->id, root, ns };
}

/* @lock was released by @r: routes through it still open now have a root. */
void lb_routes_learn_root(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *r)
{
	struct lb_lock *other;
	u32 i;

	list_for_each_entry(other, &l->active_locks, lru)
		for (i = 0; i < other->nr_routes; i++)
			if (other->route[i].waits_on == lock->id && !other->route[i].root)
				other->route[i].root = r->id.pid;
}

/* @lock's pending blame went to @r: if @r is the probable holder, route it. */
void lb_routes_settle(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *r)
{
	u32 i;

	for (i = 0; r && lock->route_pid == r->id.pid && i < lock->nr_routes; i++) {
		const struct lb_route *rt = &lock->route[i];
		struct lb_task *root = rt->root ? lb_task_find(l, rt->root) : NULL;
		struct lb_root_debt d = {
			.victim_lock = lock->id,
			.holder = r->id.pid,
			.waits_on = rt->waits_on,
			.ns = min(rt->ns, r->acct.root_blame_ns),
		};

		if (!root || root == r)
			continue;
		lb_account_take(r, &(struct lb_account){ .root_blame_ns = d.ns });
		lb_root_debt_pay(l, &d, root);
	}
	lock->nr_routes = 0;
	lock->route_pid = 0;
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
			struct lb_root_debt d = {
				.victim_lock = lock->id,
				.holder = t->id.pid,
				.waits_on = t->waiting->lock->id,
				.fallback = cur->id.pid,
				.ns = ns,
			};

			/* Its holder is learnt at release: the root is decided then. */
			return lb_root_debt_add(w->lock, &d) ? NULL : cur;
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
	return cur;
}

/*
 * @ns of blame charged to holder @t of @lock: its root keeps it as root
 * blame, and a chain record says how it got there.
 */
void lb_blame_flow(struct lb_ledger *l, const struct lb_lock *lock, struct lb_task *t, u64 ns)
{
	struct lb_task *root = lb_chain_root(l, lock, t, ns);
	struct lb_root_debt d = { .victim_lock = lock->id, .holder = t->id.pid, .ns = ns };

	if (!root)
		return;
	/* Past its holder, the blame went through the lock it waits on. */
	if (root != t)
		d.waits_on = t->waiting->lock->id;
	lb_root_debt_pay(l, &d, root);
}
