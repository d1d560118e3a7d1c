// SPDX-License-Identifier: GPL-2.0
/*
 * The ledger's event engine: turns wait, acquire and release events into
 * waits, holds and blame, conserved exactly, following chains to root causes.
 *
 * Between two events nothing changes, so before applying an event at time t
 * every lock with waiters is advanced to t (or keeps the time for later, see
 * lb_advance_to): a segment of dt with n waiters
 * adds dt to each waiter's wait and n * dt to the lock's holder(s) as blame
 * (and along the chain if a holder is itself blocked), or to the lock's
 * pending blame while no holder is known. Pending blame goes to whoever
 * releases the lock next: for a futex that is the first time the holder is
 * named. Pending blame still there when a waiter is seen to take the lock
 * accrued while the lock changed hands (or under a holder whose release we
 * never saw): no release can name its holder any more, so it becomes
 * unattributed, as does the pending blame of an evicted lock.
 *
 * Every nanosecond of waiting is counted exactly once, as blame, pending or
 * unattributed: wait = blame + pending + unattributed holds by construction,
 * after every event, in the totals and per lock. A wait the tables cannot
 * track is not counted at all (dropped_waiters).
 *
 * The ledger has no locking of its own: the caller serializes all calls.
 */
#include "ledger_internal.h"

/* @t acquired @lock at @ts (exact): it becomes the holder, or joins the readers. */
void lb_take_hold(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *t,
		  u64 ts, const struct lb_clocks *c, bool read)
{
	struct lb_holder *h;

	read = read && lock->lock_class == LB_LOCK_RWSEM;
	lb_pending_close(l, lock, NULL, LB_PENDING_HANDOFF);
	if (lock->nr_holders)
		lb_holders_drop_others(l, lock, t, read);
	h = lb_holder_find(lock, t);
	if (h) {
		lb_holder_start(h, ts, c, LB_HOLD_EXACT, read);
		return;
	}
	lb_holder_add(l, lock, t, ts, c, LB_HOLD_EXACT, read);
}

/* Blame */

/*
 * Charge @ns of waiting to holder @h of @lock; it flows on along the chain
 * if the holder is itself blocked (ledger_chain.c).
 */
static void lb_charge(struct lb_ledger *l, struct lb_lock *lock, struct lb_holder *h, u64 ns)
{
	struct lb_task *t = h->task;

	h->blame_ns += ns;
	lb_top_add(l, lock->cause, t, ns);
	lock->cause_pid = t->id.pid;
	/* Most holders wait on nothing: their own root (lb_blame_flow), in one add. */
	if (!t->waiting) {
		lb_account_add(t, &(struct lb_account){ .blame_ns = ns, .root_blame_ns = ns });
		return;
	}
	h->passed_on = true;
	lb_account_add(t, &(struct lb_account){ .blame_ns = ns });
	lb_blame_flow(l, lock, t, ns);
}

/*
 * Share @total = n * @dt among the holders, equally, the remainder to the
 * first; then credit (holder, victim) pairs by filling each holder's share
 * from the waiters in turn, so the pairs add up exactly both per holder and
 * per victim. Out of line: most segments have one holder (lb_lock_segment).
 */
static noinline void lb_share_blame(struct lb_ledger *l, struct lb_lock *lock, u64 dt, u64 total)
{
	u32 k = lock->nr_holders, i;
	u64 share = div_u64(total, k);
	u64 first = total - share * k + share;
	u64 left_h = first;
	struct lb_waiter *w;

	for (i = 0; i < k; i++)
		lb_charge(l, lock, &lock->holder[i], i ? share : first);
	if (dt > div_u64(U64_MAX, lock->nr_waiting)) {
		/* n * dt wrapped around: no exact pairs for this segment. */
		l->totals.dropped_pairs++;
		return;
	}
	i = 0;
	list_for_each_entry(w, &lock->waiters, lock_node) {
		u64 left_w = dt, a;

		while (left_w) {
			while (!left_h) {
				if (++i == k)
					return;
				left_h = share;
			}
			a = min(left_w, left_h);
			lb_blame_pair_defer(l, lock->holder[i].task, w, a);
			left_w -= a;
			left_h -= a;
		}
	}
}

/*
 * @dt passed on @lock from @since with its current waiters and holders. One
 * holder (the common case) gets every waiter's @dt in the same pass over the
 * waiters; several share it (lb_share_blame).
 */
static void lb_lock_segment(struct lb_ledger *l, struct lb_lock *lock, u64 since, u64 dt)
{
	u64 total = dt * lock->nr_waiting;
	bool pending = !lock->nr_holders;
	const struct lb_task *one = NULL;
	struct lb_waiter *w;
	struct lb_task *p;
	u32 i;

	/* n * dt wrapped around: no exact pairs for this segment. */
	if (lock->nr_holders == 1 && dt <= div_u64(U64_MAX, lock->nr_waiting))
		one = lock->holder[0].task;
	lock->cnt.wait_ns += total;
	lock->cnt.busy_ns += dt;
	l->totals.wait_ns += total;
	list_for_each_entry(w, &lock->waiters, lock_node) {
		w->wait_ns += dt;
		if (pending)
			w->pending_ns += dt;
		lb_account_add(w->task, &(struct lb_account){ .wait_ns = dt });
		w->acc_top_ns += dt;
		if (one)
			lb_blame_pair_defer(l, one, w, dt);
	}
	if (pending) {
		if (!lock->pending.open) {
			lock->pending.open = true;
			lock->pending.since = since;
			lock->pending.busy_ns = 0;
		}
		lock->pending.busy_ns += dt;
		lock->cnt.pending_ns += total;
		l->totals.pending_ns += total;
		/* A probable holder that waits on another lock: where its chain goes. */
		p = lb_probable_elsewhere(l, lock);
		if (p)
			lb_route_note(l, lock, p, total);
		return;
	}
	for (i = 0; i < lock->nr_holders; i++)
		lock->holder[i].contended_ns += dt;
	lock->cnt.blame_ns += total;
	l->totals.blame_ns += total;
	if (one)
		lb_charge(l, lock, &lock->holder[0], total);
	else
		lb_share_blame(l, lock, dt, total);
}

/*
 * Whether @lock's segments may wait: its state can change only by an event
 * that involves it (lb_lock_involved), and its blame goes to no chain. So
 * no known holder (pending) and a probable one, if any, that waits on
 * nothing else (no route to note), or one holder that is running and has
 * a top cause slot (cause_pid: a first charge may take one of the few top
 * pins, first come first served across locks). A holder or probable holder
 * that waits, and several readers (whose split rounds per segment), are
 * applied at every event.
 */
static bool lb_lock_may_defer(const struct lb_ledger *l, const struct lb_lock *lock)
{
	if (lock->nr_holders)
		return lock->nr_holders == 1 && !lock->holder[0].task->waiting &&
		       lock->cause_pid == lock->holder[0].task->id.pid;
	return !lb_probable_elsewhere(l, lock);
}

static const struct lb_lock *lb_waits_on(const struct lb_ledger *l, s32 pid)
{
	const struct lb_task *t = pid > 0 ? lb_task_find(l, pid) : NULL;

	return t && t->waiting ? t->waiting->lock : NULL;
}

/* The locks an event's task and the owner it names wait on, looked up once. */
struct lb_near {
	bool looked_up;
	const struct lb_lock *task_on, *owner_on;
};

/*
 * The lock of @ev, the lock its task or the owner it names waits on, or one
 * they hold or probably hold.
 */
static bool lb_lock_involved(const struct lb_ledger *l, const struct lb_lock *lock,
			     const struct lb_event *ev, struct lb_near *near)
{
	s32 pid;

	if (lock->id == ev->lock)
		return true;
	pid = lock->pending.probable_pid;
	if (pid && (pid == ev->task.pid || pid == ev->owner.pid))
		return true;
	if (lock->nr_holders) {
		pid = lock->holder[0].task->id.pid;
		if (pid == ev->task.pid || pid == ev->owner.pid)
			return true;
	}
	if (!near->looked_up) {
		near->task_on = lb_waits_on(l, ev->task.pid);
		near->owner_on = lb_waits_on(l, ev->owner.pid);
		near->looked_up = true;
	}
	return lock == near->task_on || lock == near->owner_on;
}

/*
 * Advance every lock with waiters to @ts, before @ev (NULL: a reader, who
 * needs every lock up to date). A lock that may defer and that @ev does
 * not involve only keeps the time: its segments add up to one, applied
 * when an event involves it or a reader comes, so the cost of an event no
 * longer grows with every waiter on every other lock. Inline: every event
 * comes here first.
 */
static __always_inline void lb_advance_to(struct lb_ledger *l, u64 ts, const struct lb_event *ev)
{
	struct lb_near near = { false, NULL, NULL };
	u64 dt = ts > l->now_ns ? ts - l->now_ns : 0;
	struct lb_lock *lock;

	list_for_each_entry(lock, &l->active_locks, lru) {
		/* The event's own lock first: it is always due, and often the only one. */
		if (ev && lock->id != ev->lock && !l->opts.no_defer &&
		    lb_lock_may_defer(l, lock) && !lb_lock_involved(l, lock, ev, &near)) {
			if (dt && !lock->defer_ns)
				lock->defer_since = l->now_ns;
			lock->defer_ns += dt;
			continue;
		}
		if (lock->defer_ns) {
			lb_lock_segment(l, lock, lock->defer_since, lock->defer_ns);
			lock->defer_ns = 0;
		}
		if (dt)
			lb_lock_segment(l, lock, l->now_ns, dt);
	}
	if (dt)
		l->now_ns = ts;
}

/*
 * The time every lock kept, applied for a decision mid-event that reads it:
 * an advance to now, as for a reader (no time passes).
 */
void lb_locks_catch_up(struct lb_ledger *l)
{
	lb_advance_to(l, l->now_ns, NULL);
}

/* Releases */

/* Take back @ns of pending waiting by @pid on @lock: it was not contention. */
static void lb_unwait(struct lb_ledger *l, struct lb_lock *lock, s32 pid, u64 ns, bool ended)
{
	struct lb_task *t = lb_task_find(l, pid);

	lock->cnt.wait_ns -= ns;
	lock->cnt.pending_ns -= ns;
	l->totals.wait_ns -= ns;
	l->totals.pending_ns -= ns;
	lb_top_less(lock->victim, pid, ns);
	if (!t)
		return;
	/* The process gives back no more than the task had. */
	ns = min(ns, t->acct.wait_ns);
	lb_account_take(t, &(struct lb_account){ .wait_ns = ns, .waits = ended });
}

/*
 * @lock is no lock: a thread exited and woke the waiters on its
 * clear_child_tid word (pthread_join(), whatever the word looked like:
 * musl's is 2), or a release advanced the word past what a waiter expected
 * (a counter: lb_futex_release_counts). Waiting on it is taken back where
 * the holder was never known (all of it, normally). Ended waits whose
 * waiting was still pending become event waits signalled by @signaller, if
 * given. With futex kinds, waits still open become event waits from their
 * start, ended by their coming ends; without, those ends are ignored. The
 * "lock" is forgotten once nothing of it is left.
 */
static void lb_on_not_a_lock(struct lb_ledger *l, struct lb_lock *lock,
			     const struct lb_task_id *signaller)
{
	struct lb_waiter *w, *tmp;

	/* A task or process gives back no more than it has: up to date. */
	lb_locks_catch_up(l);
	list_for_each_entry_safe(w, tmp, &lock->ghosts, lock_node) {
		const struct lb_task *t = lb_task_find(l, w->pid);
		struct lb_task_id id = { .pid = w->pid };

		lb_unwait(l, lock, w->pid, w->pending_ns, true);
		if (signaller && w->pending_ns)
			lb_event_wait_ended(l, t ? &t->id : &id, w->pending_ns, signaller);
		lb_waiter_free(l, w);
	}
	list_for_each_entry_safe(w, tmp, &lock->waiters, lock_node) {
		struct lb_task *t = w->task;

		lb_waiter_flush(l, w);
		lb_unwait(l, lock, w->pid, w->pending_ns, false);
		lock->nr_waiting--;
		t->waiting = NULL;
		/* With kinds, the wait goes on as an event wait (a join); its end ends it. */
		if (!l->opts.futex_kinds ||
		    !lb_event_wait_adopt(l, &t->id, lock->id, w->begin_ns)) {
			t->swallow_end = true;
			t->swallow_lock = lock->id;
		}
		lb_waiter_free(l, w);
		lb_task_unpin(l, t);
	}
	list_move(&lock->lru, &l->lock_lru);
	lb_pending_close(l, lock, NULL, LB_PENDING_NOT_A_LOCK);
	lb_holders_drop_others(l, lock, NULL, false);
	if (!lock->cnt.wait_ns)
		lb_lock_forget(l, lock);
}

/*
 * @r left an rwsem that other readers still hold (ev->count of them): it
 * woke nobody, and only lock:contended_release shows it. A known holder's
 * hold ends here; an unknown reader was holding since the pending period
 * began, its hold is that period and its blame its share of the pending
 * waiting. The blame goes on to those still holding.
 */
static void lb_on_left(struct lb_ledger *l, const struct lb_event *ev, u64 ts)
{
	struct lb_lock *lock = lb_lock_find(l, ev->lock);
	struct lb_waiter *w;
	struct lb_task *r;
	u64 ns = 0;

	/* Not a lock waited on here, or not an rwsem (a mutex's release, say). */
	if (!lock || lock->lock_class != LB_LOCK_RWSEM || !lock->nr_waiting || !ev->count)
		return;
	r = lb_task_get(l, &ev->task, ev->flags & LB_EF_KTHREAD);
	if (!r)
		return;
	lb_task_pin(r);
	if (lock->nr_holders || !lock->pending.open) {
		lb_holder_leave(l, lock, r, ev, ts, lock->pending.open);
		lb_task_unpin(l, r);
		return;
	}
	lb_record_hold(l, lock, r, ev, ts, true);
	list_for_each_entry(w, &lock->waiters, lock_node)
		ns += lb_reader_share(l, lock, w, r, ev->count + 1);
	list_for_each_entry(w, &lock->ghosts, lock_node)
		ns += lb_reader_share(l, lock, w, r, ev->count + 1);
	lb_pending_to_blame(l, lock, r, ns);
	lb_task_unpin(l, r);
}

/*
 * A task that releases a lock runs: a wait still open for it ended unseen.
 * Not a wait on a scope's lock (ledger_scopes.c), which lasts until the
 * acquire function returns and runs meanwhile: a GIL waiter lets go of the
 * mutex that guards the GIL's state while it waits for the GIL.
 */
static void lb_release_ends_wait(struct lb_ledger *l, const struct lb_lock *lock,
				 struct lb_task *r)
{
	const struct lb_lock *waited = r->waiting ? r->waiting->lock : NULL;

	if (waited && waited->lock_class == LB_LOCK_SCOPE && waited != lock)
		return;
	lb_end_lost_wait(l, r);
}

/*
 * @r was woken before the release that woke it was seen (LB_HOLD_DEBT), took
 * the lock and now lets it go itself. That release is late, not missing:
 * futex_wake stamps when it began and commits when it returns, and the
 * waker can be preempted in between by the very task it woke, which runs
 * on, takes the lock, and releases it on the same CPU first. @r's release
 * cannot be the one that woke @r: @r's own hold ends, the waiting pending
 * before @r woke stays the coming releaser's, and the wakes @r announces
 * are credit beside the debt. So too for a likely holder woken after the
 * debt began: its hold began after the owed release, which it cannot be.
 * Inline: every release by a tracked task asks, most have no debt.
 */
static __always_inline bool lb_on_debtor_release(struct lb_ledger *l, struct lb_lock *lock,
						 struct lb_task *r, const struct lb_event *ev,
						 u64 ts)
{
	const struct lb_holder *h = lb_holder_find(lock, r);
	struct lb_pending *p = &lock->pending;

	if (!h || !p->wake_debt)
		return false;
	if (h->known != LB_HOLD_DEBT &&
	    (h->known != LB_HOLD_LIKELY || h->start.ts <= p->debt_since))
		return false;
	if (ev->stack_id && h->blame_ns)
		lb_stack_add(l, r->id.pid, LB_STACK_CAUSE, ev->stack_id, h->blame_ns);
	lb_task_pin(r);
	lb_release_ends_wait(l, lock, r);
	lb_holder_leave(l, lock, r, ev, ts, false);
	lb_task_unpin(l, r);
	lb_wake_credit_add(lock, ev->count);
	return true;
}

/* The releases owed are all seen: those woken first are plain likely holders. */
static void lb_debt_paid(struct lb_lock *lock)
{
	u32 i;

	for (i = 0; i < lock->nr_holders; i++)
		if (lock->holder[i].known == LB_HOLD_DEBT)
			lock->holder[i].known = LB_HOLD_LIKELY;
}

/*
 * A release on no lock waited on, by an exiting thread, or one that shows
 * the futex to be a counter: no lock's release. True if it was one of those.
 */
static bool lb_release_not_a_lock(struct lb_ledger *l, struct lb_lock *lock,
				  const struct lb_event *ev)
{
	if (!lock) {
		/* A futex woken with no lock wait on it: it woke event waits. */
		if (!(ev->flags & LB_EF_THREAD_EXIT) &&
		    !(ev->lock_class == LB_LOCK_FUTEX && l->opts.futex_kinds))
			l->totals.unmatched_events++;
		return true;
	}
	if (ev->flags & LB_EF_THREAD_EXIT) {
		lb_on_not_a_lock(l, lock, NULL);
		return true;
	}
	if (l->opts.futex_kinds && lb_futex_release_counts(lock, ev)) {
		lb_futex_counter_note(l, lock->id);
		lb_on_not_a_lock(l, lock, &ev->task);
		return true;
	}
	return false;
}

/*
 * The lock is free now; for a rwsem the wake means all readers left. But
 * tasks this release woke before we saw it (@count wakes) hold it already;
 * its other wakes are credit (lb_wake_credit_add): with the lock taken
 * between (a woken task finds it stolen and waits again), two releases can
 * each wake a task before either runs. Inline at both of a release's ends.
 */
static __always_inline void lb_release_wakes(struct lb_ledger *l, struct lb_lock *lock,
					     const struct lb_task *r, u32 count)
{
	struct lb_pending *p = &lock->pending;
	bool woke_first = p->wake_debt;
	u32 explained = min_t(u32, p->wake_debt, max_t(u32, count, 1));

	p->wake_debt -= explained;
	lb_wake_credit_add(lock, count > explained ? count - explained : 0);
	if (!p->wake_debt)
		lb_debt_paid(lock);
	lb_holders_drop_likely_others(l, lock, r, woke_first);
}

static void lb_on_release(struct lb_ledger *l, const struct lb_event *ev, u64 ts)
{
	struct lb_lock *lock = lb_lock_find(l, ev->lock);
	const struct lb_holder *h;
	struct lb_task *r;
	bool pending;
	u64 blame;

	if (ev->lock_class == LB_LOCK_FUTEX)
		lb_event_wake(l, ev, ts);
	if (lb_release_not_a_lock(l, lock, ev))
		return;
	r = lb_task_get(l, &ev->task, ev->flags & LB_EF_KTHREAD);
	if (r && lb_on_debtor_release(l, lock, r, ev, ts))
		return;
	if (!r) {
		lb_pending_close(l, lock, NULL, LB_PENDING_RELEASE);
		lb_release_wakes(l, lock, r, ev->count);
		return;
	}
	/* The blame of the hold this release ends, for its stack. */
	h = lb_holder_find(lock, r);
	blame = (h ? h->blame_ns : 0) + lock->cnt.pending_ns;
	lb_task_pin(r);
	lb_release_ends_wait(l, lock, r);
	pending = lock->pending.open;
	lb_record_hold(l, lock, r, ev, ts, pending);
	lb_pending_close(l, lock, r, LB_PENDING_RELEASE);
	if (pending)
		lb_outliers_note_releases(l, lock);
	if (ev->stack_id && blame)
		lb_stack_add(l, r->id.pid, LB_STACK_CAUSE, ev->stack_id, blame);
	lb_task_unpin(l, r);
	lb_release_wakes(l, lock, r, ev->count);
}

static bool lb_event_valid(const struct lb_event *ev)
{
	if (ev->type < LB_EV_WAIT_BEGIN || ev->type >= LB_EV_TYPE_MAX)
		return false;
	if (ev->task.pid <= 0 || ev->owner_source >= LB_OWNER_SOURCE_MAX)
		return false;
	if (ev->type == LB_EV_WAIT_BEGIN &&
	    (ev->lock_class < LB_LOCK_FUTEX || ev->lock_class >= LB_LOCK_CLASS_MAX))
		return false;
	if (ev->type == LB_EV_WAIT_END && ev->result >= LB_WAIT_RESULT_MAX)
		return false;
	/* A scope's events name its lock; a wake inside one names the woken. */
	if ((ev->type == LB_EV_SCOPE_ENTER || ev->type == LB_EV_SCOPE_EXIT) &&
	    (ev->lock_class != LB_LOCK_SCOPE || !ev->lock))
		return false;
	if (ev->type == LB_EV_SCOPE_WAKE && (ev->lock_class != LB_LOCK_SCOPE || ev->owner.pid <= 0))
		return false;
	return true;
}

/* One event, as the engine sees it (after the scopes' rewrite), at @ts. */
static void lb_feed_one(struct lb_ledger *l, const struct lb_event *ev, u64 ts)
{
	lb_advance_to(l, ts, ev);
	switch (ev->type) {
	case LB_EV_WAIT_BEGIN:
		lb_on_wait_begin(l, ev, ts);
		break;
	case LB_EV_WAIT_END:
		lb_on_wait_end(l, ev, ts);
		break;
	case LB_EV_RELEASE:
		if (ev->flags & LB_EF_LEFT)
			lb_on_left(l, ev, ts);
		else
			lb_on_release(l, ev, ts);
		break;
	}
}

/* A scope's event, or any while a task is in a scope: rewritten, then fed. */
static noinline void lb_feed_scoped(struct lb_ledger *l, const struct lb_event *ev, u64 ts)
{
	const struct lb_event *then = NULL;
	struct lb_event scoped[2];

	ev = lb_scope_rewrite(l, ev, scoped, &then, ts);
	for (; ev; ev = then, then = NULL)
		lb_feed_one(l, ev, ts);
}

void lb_ledger_feed(struct lb_ledger *l, const struct lb_event *ev)
{
	u64 ts = ev->ts_ns;

	l->totals.events++;
	if (!lb_event_valid(ev)) {
		l->totals.invalid_events++;
		return;
	}
	if (!l->started) {
		l->started = true;
		l->first_ns = ts;
		l->now_ns = ts;
	}
	if (ts < l->now_ns) {
		l->totals.late_events++;
		ts = l->now_ns;
	}
	/*
	 * Until a task enters a scope, none has one to rewrite its events
	 * into and no word is a scope's (ledger_scopes.c): an event is itself.
	 * A scope's own events (its entry, return, release call) always go there.
	 */
	if (l->scopes_entered || ev->lock_class == LB_LOCK_SCOPE)
		lb_feed_scoped(l, ev, ts);
	else
		lb_feed_one(l, ev, ts);
}
EXPORT_SYMBOL_IF_KUNIT(lb_ledger_feed);

void lb_ledger_advance(struct lb_ledger *l, u64 now_ns)
{
	if (!l->started)
		return;
	lb_advance_to(l, now_ns, NULL);
	lb_waiters_flush(l);
}
EXPORT_SYMBOL_IF_KUNIT(lb_ledger_advance);
