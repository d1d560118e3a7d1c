// SPDX-License-Identifier: GPL-2.0
/*
 * Waits: a task's wait on a lock, from the event that begins it to the one
 * that ends it (or to the sign that it ended unseen), and what those events
 * say about who holds the lock. The time a wait accrues is the engine's
 * (ledger.c).
 */
#include "ledger_internal.h"

#define LB_WAIT_LOST	LB_WAIT_RESULT_MAX	/* its end was never seen */

/* @w ends with @result. Inline in lb_on_wait_end, where most waits end: one frame. */
static __always_inline void lb_wait_end(struct lb_ledger *l, struct lb_waiter *w, u8 result,
					u16 flags)
{
	struct lb_lock *lock = w->lock;
	struct lb_task *t = w->task;
	u64 errors = 0;

	lb_waiter_flush(l, w);
	list_del_init(&w->lock_node);
	lock->nr_waiting--;
	t->waiting = NULL;
	switch (result) {
	case LB_WAIT_ACQUIRED:
	case LB_WAIT_WOKEN:
		lock->cnt.acquisitions++;
		break;
	case LB_WAIT_TIMEOUT:
	case LB_WAIT_INTERRUPTED:
	case LB_WAIT_AGAIN:
	case LB_WAIT_ERROR:
		errors = 1;
		lock->cnt.errors++;
		break;
	default:
		break;
	}
	lb_account_add(t, &(struct lb_account){ .waits = 1, .errors = errors });
	lb_past_note(l, w);
	/* A wait that never slept says nothing about how long waits are. */
	if (result != LB_WAIT_AGAIN && !(flags & LB_EF_NOSLEEP))
		lb_hist_add(&lock->wait_hist, w->wait_ns);
	if (w->stack_id && w->wait_ns)
		lb_stack_add(l, w->pid, LB_STACK_VICTIM, w->stack_id, w->wait_ns);
	/* An outlier is kept once its holder is known: now, or at the release. */
	if (l->opts.outlier_ns && w->wait_ns >= l->opts.outlier_ns) {
		w->outlier = true;
		if (!w->pending_ns)
			lb_outlier_wait(l, w);
	}
	if (w->pending_ns) {
		w->task = NULL;
		list_add_tail(&w->lock_node, &lock->ghosts);
		list_add_tail(&w->link, &l->ghost_fifo);
	} else {
		lb_waiter_free(l, w);
	}
	if (!lock->nr_waiting)
		list_move(&lock->lru, &l->lock_lru);
	lb_task_unpin(l, t);
}

/* @t's wait, still open, ended unseen (lb_end_lost_wait). */
void lb_lost_wait_end(struct lb_ledger *l, struct lb_task *t)
{
	l->totals.unmatched_events++;
	lb_wait_end(l, t->waiting, LB_WAIT_LOST, 0);
}

/* @t starts waiting on @lock at @ts: a wait tracked from now on. */
static void lb_wait_start(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *t,
			  const struct lb_event *ev, u64 ts)
{
	struct lb_waiter *w;

	/* This pin becomes the wait's; until then it keeps @t from eviction. */
	lb_task_pin(t);
	lb_end_lost_wait(l, t);
	lb_learn_owner(l, lock, ev, ts, t);
	w = lb_waiter_alloc(l);
	if (!w) {
		/* Untracked waiting is not counted at all: conservation holds. */
		l->totals.dropped_waiters++;
		lb_task_unpin(l, t);
		return;
	}
	w->lock = lock;
	w->task = t;
	w->pid = t->id.pid;
	w->cgroup = t->id.cgroup;
	w->stack_id = ev->stack_id;
	w->ustack_id = ev->ustack_id;
	w->outlier = false;
	w->word_known = ev->flags & LB_EF_WORD;
	w->word = ev->word;
	w->top_holder = 0;
	w->top_rel = 0;
	w->top_rel_wanted = false;
	w->cur_closed = false;
	w->cur_holder = 0;
	w->top_ns = 0;
	w->cur_ns = 0;
	w->acc_pid = 0;
	w->acc_cgroup = 0;
	w->acc_pair_ns = 0;
	w->acc_top_ns = 0;
	w->begin_ns = ts;
	w->wait_ns = 0;
	w->pending_ns = 0;
	list_add_tail(&w->lock_node, &lock->waiters);
	t->waiting = w;
	if (!lock->nr_waiting++)
		list_move(&lock->lru, &l->active_locks);
}

/*
 * A kernel lock's latest name (a mm's lock is named by its process: the
 * same address may be another process's later); a futex's first word seen;
 * a scope's lock is its process's, unless it is shared by every process.
 */
static void lb_lock_note_name(struct lb_lock *lock, const struct lb_event *ev)
{
	if (ev->name_id)
		lock->name_id = ev->name_id;
	if (ev->uaddr && !lock->uaddr) {
		lock->uaddr = ev->uaddr;
		lock->name_tgid = ev->task.tgid;
	}
	if (ev->lock_class == LB_LOCK_SCOPE)
		lock->name_tgid = ev->flags & LB_EF_SHARED_KEY ? 0 : ev->task.tgid;
}

void lb_on_wait_begin(struct lb_ledger *l, const struct lb_event *ev, u64 ts)
{
	struct lb_lock *lock;
	struct lb_task *t;

	/* Not contention: no lock, no task, no blame (ledger_events.c). */
	if (lb_futex_wait_is_event(l, ev)) {
		lb_event_wait_begin(l, ev, ts);
		return;
	}
	lock = lb_lock_get(l, ev->lock, ev->lock_class);
	if (!lock) {
		l->totals.dropped_waiters++;
		return;
	}
	lb_lock_note_name(lock, ev);
	t = lb_task_get(l, &ev->task, ev->flags & LB_EF_KTHREAD);
	if (!t) {
		l->totals.dropped_waiters++;
		return;
	}
	if (lock->lock_class == LB_LOCK_FUTEX)
		l->totals.futex_lock_waits++;
	/*
	 * A futex wait that found the value changed never slept: an error of
	 * the lock, no waiting, and nothing learnt about who holds it (its end
	 * event is ignored).
	 */
	if (ev->flags & LB_EF_NOSLEEP) {
		lock->cnt.errors++;
		lb_account_add(t, &(struct lb_account){ .waits = 1, .errors = 1 });
		return;
	}
	if (t->waiting && t->waiting->lock == lock) {
		/* A second begin for the same wait: keep the first. */
		l->totals.unmatched_events++;
		return;
	}
	lb_wait_start(l, lock, t, ev, ts);
}

/*
 * futex_wake handed @t the flow: it most likely owns the lock now. The wake's
 * RELEASE event may come before or after this (futex_wake reports when it
 * returns, the woken task may run first): wake_credit counts wakes a seen
 * release announced, wake_debt wakes whose release is still to come. Only a
 * wake whose release was already seen ends a handoff; otherwise the pending
 * blame is the coming releaser's.
 */
static void lb_woken(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *t, u64 ts,
		     const struct lb_clocks *c)
{
	struct lb_pending *p = &lock->pending;
	enum lb_hold_known known = LB_HOLD_LIKELY;

	if (p->wake_credit) {
		p->wake_credit--;
		/* Waiting still owed to a release not seen yet stays pending. */
		if (!lock->nr_holders && !p->wake_debt)
			lb_pending_close(l, lock, NULL, LB_PENDING_HANDOFF);
	} else {
		if (!p->wake_debt++)
			p->debt_since = ts;
		known = LB_HOLD_DEBT;
	}
	if (!lock->nr_holders)
		lb_holder_add(l, lock, t, ts, c, known, false);
}

/*
 * A futex wait's end as the waiter sees it, without its key: it ends the
 * task's open futex wait, if any. Other futex sleeps (futex_waitv, say) end
 * the same way without having begun one: nothing to do, nothing to count.
 * Its lock, so that it is not looked up again; NULL if none (or id 0).
 */
static struct lb_lock *lb_open_futex_wait(const struct lb_ledger *l, s32 pid)
{
	const struct lb_task *t = lb_task_find(l, pid);

	if (!t || !t->waiting || t->waiting->lock->lock_class != LB_LOCK_FUTEX ||
	    !t->waiting->lock->id)
		return NULL;
	return t->waiting->lock;
}

/*
 * An end of @t's wait on lock @id (@lock if known) that matches no open wait
 * of @t: the wait open, if any, ended unseen; an acquire still takes the lock.
 */
static void lb_wait_end_unmatched(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *t,
				  const struct lb_event *ev, u64 id, u64 ts)
{
	struct lb_clocks c = lb_ev_clocks(ev);

	l->totals.unmatched_events++;
	lb_task_pin(t);
	lb_end_lost_wait(l, t);
	if (ev->result == LB_WAIT_ACQUIRED) {
		if (!lock && id && ev->lock_class >= LB_LOCK_FUTEX &&
		    ev->lock_class < LB_LOCK_CLASS_MAX)
			lock = lb_lock_get(l, id, ev->lock_class);
		if (lock)
			lb_take_hold(l, lock, t, ts, &c, ev->flags & LB_EF_READ);
	}
	lb_task_unpin(l, t);
}

void lb_on_wait_end(struct lb_ledger *l, const struct lb_event *ev, u64 ts)
{
	struct lb_clocks c = lb_ev_clocks(ev);
	bool read = ev->flags & LB_EF_READ;
	struct lb_lock *lock = NULL;
	struct lb_task *t;
	u64 id = ev->lock;

	/* Counted at its begin: a wait that never slept. */
	if (ev->flags & LB_EF_NOSLEEP)
		return;
	if (ev->lock_class == LB_LOCK_FUTEX) {
		/* An event wait's end: none while no sleeper is asleep. */
		if (l->nr_asleep && lb_event_wait_end(l, ev, ts))
			return;
		if (!id) {
			lock = lb_open_futex_wait(l, ev->task.pid);
			if (!lock)
				return;
			id = lock->id;
		}
	}
	if (!lock)
		lock = lb_lock_find(l, id);
	t = lb_task_get(l, &ev->task, ev->flags & LB_EF_KTHREAD);
	if (!t) {
		l->totals.unmatched_events++;
		return;
	}
	if (t->swallow_end && t->swallow_lock == id && !t->waiting) {
		/* The end of a wait already set aside as not contention. */
		t->swallow_end = false;
		return;
	}
	if (!lock || !t->waiting || t->waiting->lock != lock) {
		lb_wait_end_unmatched(l, lock, t, ev, id, ts);
		return;
	}
	lb_wait_end(l, t->waiting, ev->result, ev->flags);
	if (ev->result == LB_WAIT_ACQUIRED)
		lb_take_hold(l, lock, t, ts, &c, read);
	else if (ev->result == LB_WAIT_WOKEN)
		lb_woken(l, lock, t, ts, &c);
}
