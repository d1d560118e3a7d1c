// SPDX-License-Identifier: GPL-2.0
/*
 * The pending state of a lock: waiting whose holder is not known yet, and
 * how it ends, named to a releaser or unattributed (lb_pending_close).
 */
#include "ledger_internal.h"

/*
 * The lock's pending waiting becomes unattributed; its ghosts, kept only
 * for it, are freed.
 */
static void lb_pending_unattribute_waits(struct lb_ledger *l, struct lb_lock *lock)
{
	struct lb_waiter *w, *tmp;

	lock->cnt.unattributed_ns += lock->cnt.pending_ns;
	l->totals.unattributed_ns += lock->cnt.pending_ns;
	l->totals.pending_ns -= lock->cnt.pending_ns;
	lock->cnt.pending_ns = 0;
	list_for_each_entry(w, &lock->waiters, lock_node)
		w->pending_ns = 0;
	list_for_each_entry_safe(w, tmp, &lock->ghosts, lock_node)
		lb_waiter_free(l, w);
}

/*
 * The releaser's own waiting still pending on the lock (a wait of its whose
 * holder was never named, say its waker's release was lost) is not its doing:
 * nobody can be named for it any more.
 */
static void lb_unattribute_own(struct lb_ledger *l, struct lb_lock *lock, s32 pid)
{
	struct lb_waiter *w, *tmp;
	u64 own = 0;

	list_for_each_entry(w, &lock->waiters, lock_node) {
		if (w->pid == pid) {
			own += w->pending_ns;
			w->pending_ns = 0;
		}
	}
	list_for_each_entry_safe(w, tmp, &lock->ghosts, lock_node) {
		if (w->pid == pid) {
			own += w->pending_ns;
			lb_waiter_free(l, w);
		}
	}
	own = min(own, lock->cnt.pending_ns);
	lock->cnt.pending_ns -= own;
	lock->cnt.unattributed_ns += own;
	l->totals.pending_ns -= own;
	l->totals.unattributed_ns += own;
}

/*
 * @ns of @lock's pending waiting is @r's blame: @r is running, releasing or
 * leaving, not waiting, so it is its own root.
 */
void lb_pending_to_blame(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *r, u64 ns)
{
	ns = min(ns, lock->cnt.pending_ns);
	lock->cnt.pending_ns -= ns;
	lock->cnt.blame_ns += ns;
	l->totals.pending_ns -= ns;
	l->totals.blame_ns += ns;
	lb_account_add(r, &(struct lb_account){ .blame_ns = ns, .root_blame_ns = ns });
	if (ns) {
		lb_top_add(l, lock->cause, r, ns);
		lock->cause_pid = r->id.pid;
	}
}

/* The releaser @r was the holder all along: pending blame is its. */
static void lb_pending_name(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *r)
{
	struct lb_waiter *w, *tmp;
	bool followed = false;
	u64 pending;

	lb_unattribute_own(l, lock, r->id.pid);
	pending = lock->cnt.pending_ns;
	lb_pending_to_blame(l, lock, r, pending);
	/* Most releases find no route set in use (a lock's has one): no chain to settle. */
	if (l->nr_route_sets) {
		lb_root_debts_settle(l, lock, r);
		lb_routes_learn_root(l, lock, r);
		followed = lb_routes_settle(l, lock, r);
	}
	if (!followed && pending)
		lb_past_settle(l, lock, r);
	list_for_each_entry(w, &lock->waiters, lock_node) {
		if (w->pending_ns)
			lb_blame_pair(l, r, w, w->pending_ns);
		w->pending_ns = 0;
	}
	list_for_each_entry_safe(w, tmp, &lock->ghosts, lock_node) {
		lb_blame_pair(l, r, w, w->pending_ns);
		lb_past_named(l, w->pid, lock->id, r->id.pid);
		lb_waiter_free(l, w);
	}
}

/* What @w waited while @h held, up to @now: all of it was charged to @h. */
static u64 lb_waited_since(const struct lb_waiter *w, const struct lb_holder *h, u64 now)
{
	return min(w->wait_ns, now - max(w->begin_ns, h->start.ts));
}

/*
 * @h, a woken futex waiter taken for @lock's holder (LB_HOLD_LIKELY), waits
 * on @lock again at @now with no release of its own in between: it never
 * took the lock. Another task took it first, on the fast path, while @h was
 * woken but not yet running (a herd's handoff), and its fast-path unlock
 * woke nobody. What the waiters still waiting were charged to @h since its
 * wake goes back to pending, for the next release to name; what ended waits
 * were charged stays @h's. Only while @h was the lock's one holder, and its
 * own root: blame that went on along a chain is not taken back.
 */
void lb_pending_disown(struct lb_ledger *l, struct lb_lock *lock, struct lb_holder *h, u64 now)
{
	struct lb_pending *p = &lock->pending;
	struct lb_waiter *w;
	u64 sum = 0;

	if (lock->lock_class != LB_LOCK_FUTEX || lock->nr_holders != 1 || h->passed_on)
		return;
	list_for_each_entry(w, &lock->waiters, lock_node)
		sum += lb_waited_since(w, h, now);
	if (!sum || sum > h->blame_ns)
		return;
	list_for_each_entry(w, &lock->waiters, lock_node) {
		u64 ns = lb_waited_since(w, h, now);

		lb_blame_pair_take(l, h->task, w, ns);
		w->pending_ns += ns;
	}
	h->blame_ns -= sum;
	lb_account_take(h->task, &(struct lb_account){ .blame_ns = sum, .root_blame_ns = sum });
	lb_top_less(lock->cause, h->task->id.pid, sum);
	lock->cnt.blame_ns -= sum;
	l->totals.blame_ns -= sum;
	lock->cnt.pending_ns += sum;
	l->totals.pending_ns += sum;
	l->totals.disowned_ns += sum;
	if (!p->open) {
		p->open = true;
		p->since = h->start.ts;
		p->busy_ns = 0;
	}
	p->busy_ns += h->contended_ns;
	/* Not a hold of @h's: lb_holder_drop records none. */
	h->contended_ns = 0;
}

/*
 * Pending blame whose holder can never be named becomes unattributed, and
 * the root blame that waited on its holder goes back to the chains' ends.
 */
static void lb_pending_unattribute(struct lb_ledger *l, struct lb_lock *lock)
{
	if (l->nr_route_sets) {
		lb_root_debts_settle(l, lock, NULL);
		lb_routes_settle(l, lock, NULL);
	}
	lb_pending_unattribute_waits(l, lock);
}

/*
 * @lock's pending state ends, @why (enum lb_pending_end); for a release, @r
 * is the releaser (NULL: not known). The one place that resets it:
 *
 * - a handoff: a waiter took the lock, so waiting since the last release
 *   happened while the lock changed hands (or while a holder we never saw
 *   had it), and no release can name a holder for it any more;
 * - a release: its releaser was the holder all along; the guess ends
 *   (lb_pending_close, whether a period was open or not);
 * - not a lock: as a handoff, and the wakes owed or announced mean nothing;
 * - a dropped lock (evicted, or forgotten), nobody waiting on it: its
 *   waiting is unattributed, its root debts and routes go with it, unsettled;
 * - a new burst (a first waiter): credit for wakes announced before it is
 *   stale, no waiter being left to take it; nothing else ends.
 *
 * lb_pending_close() is the way in, inline: a new burst, most waits' first
 * event, only sets the credit to 0 there; a handoff or a release with no
 * period open and no route set in use (most acquires and releases) has
 * nothing pending, no ghost and no hop of a chain to decide, and does not
 * come here.
 */
void lb_pending_end(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *r,
		    enum lb_pending_end why)
{
	struct lb_pending *p = &lock->pending;

	switch (why) {
	case LB_PENDING_BURST:
		p->wake_credit = 0;
		return;
	case LB_PENDING_DROP:
		lb_pending_unattribute_waits(l, lock);
		lb_route_set_drop(l, lock);
		return;
	case LB_PENDING_RELEASE:
		if (r)
			lb_pending_name(l, lock, r);
		else
			lb_pending_unattribute(l, lock);
		break;
	case LB_PENDING_NOT_A_LOCK:
		lb_pending_unattribute(l, lock);
		p->wake_credit = 0;
		p->wake_debt = 0;
		break;
	case LB_PENDING_HANDOFF:
		lb_pending_unattribute(l, lock);
		break;
	}
	p->open = false;
}

/*
 * Pending waiting on a lock held by @n readers, none of them known, of
 * which @r now leaves: @r's share of @w's pending part. While a writer
 * waits no reader joins, so every reader still holding held it since the
 * pending period began: between two leaves, each of the n then holding
 * owes 1/n of the waiting. Each wait keeps what one reader owes (share_ns);
 * the leaving reader takes it, the others still owe it, and the last
 * reader's release (lb_pending_name) takes the rest.
 */
u64 lb_reader_share(struct lb_ledger *l, struct lb_lock *lock, struct lb_waiter *w,
		    struct lb_task *r, u32 n)
{
	u64 fresh, take;

	if (w->share_since != lock->pending.since) {
		w->share_since = lock->pending.since;
		w->share_ns = 0;
		w->share_mark_ns = 0;
	}
	fresh = w->pending_ns > w->share_mark_ns ? w->pending_ns - w->share_mark_ns : 0;
	w->share_ns += div_u64(fresh, n);
	take = min(w->share_ns, w->pending_ns);
	w->pending_ns -= take;
	w->share_mark_ns = w->pending_ns;
	if (take)
		lb_blame_pair(l, r, w, take);
	return take;
}
