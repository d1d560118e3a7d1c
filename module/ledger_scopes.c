// SPDX-License-Identifier: GPL-2.0
/*
 * Scopes: locks that runtimes build above futexes. CPython's GIL waits on a
 * condition variable, PostgreSQL's LWLocks on a semaphore per backend: the
 * word a waiter sleeps on is a counter, so by itself the sleep is an event
 * wait. A scope is the function a caller runs to take such a lock
 * (PyEval_RestoreThread, LWLockAcquire), planted by the user (module/scopes.c)
 * and seen as LB_EV_SCOPE_ENTER and LB_EV_SCOPE_EXIT around the sleeps.
 *
 * Here, before the ledger sees them, the events of a task inside a scope are
 * rewritten:
 *
 *  - its first event-shaped futex sleep (a counter, a semaphore, a parker:
 *    lb_futex_word_is_event) begins a wait on the scope's lock, and the word
 *    is remembered as one of that lock's;
 *  - later such sleeps in the same call, and their ends (a timed wait that
 *    timed out and waits again, a wake that found the lock taken), are part
 *    of that one wait;
 *  - the scope's exit ends the wait: the task has the lock;
 *  - a wake of a remembered word while the lock has waiters releases the
 *    lock: the waker held it until then;
 *  - a scope may name a release function too: its entry (LB_EV_RELEASE of
 *    the scope's lock) ends its caller's hold exactly, when the caller is
 *    the lock's known holder, or when no holder is known and the lock has
 *    waiters; any other such call changes nothing. Once one was seen, the
 *    wakes of the lock's words, and of the tasks in its span, are the
 *    release function's own work and release nothing more.
 *
 * A span scope (LB_EF_SPAN: PostgreSQL's ProcSleep, called only to wait,
 * on a latch: epoll and a signal) is the wait itself, whatever the task
 * sleeps on:
 *
 *  - its entry begins the wait on the scope's lock, its return ends it;
 *  - a wake of the task by another task (LB_EV_SCOPE_WAKE, the scheduler's
 *    sched_waking from task context) releases the lock while it has
 *    waiters: the waker held it until then;
 *  - a scope entered inside the span's wait (the LWLock ProcSleep takes
 *    back at its end) is part of that wait, and a wake of a futex sleep
 *    inside such an inner scope is that sleep's own, not a release;
 *  - futex sleeps are part of the wait, and their words are not the lock's.
 *
 * Lock-shaped futex sleeps inside a scope (the mutex that guards a GIL's
 * state) before the wait began stay what they are: waits on that mutex,
 * unless the word is one the scope's waiters slept on before (a counter
 * passing through 2 or 3). Once the wait began, every sleep until the
 * return is part of it: a condvar retaking its mutex would otherwise end
 * it (a task waits on one lock at a time), and the wait would lose the
 * rest (measured with CPython's GIL: 43% of the tickers' waiting seen). The tables are fixed:
 * tasks inside a scope, probed from a hash of the pid (the oldest entry gives
 * way when all probed slots are taken), and the words slept on, likewise
 * (the word slept on longest ago gives way: it releases nothing more,
 * counted in scope_words_evicted). Direct-mapped, two waiters' words that
 * shared a slot took turns forgetting each other, and every release of
 * one of them found no waiter to name (semq-two on 6.1: 2.65 s of 4.94
 * unattributed).
 */
#include "ledger_internal.h"

void lb_scopes_init(struct lb_ledger *l)
{
	memset(l->scope_task, 0, sizeof(l->scope_task));
	memset(l->scope_key, 0, sizeof(l->scope_key));
	l->scopes_entered = false;
}

static struct lb_scope_task *lb_scope_task_find(struct lb_ledger *l, s32 pid)
{
	u32 first = hash_64((u32)pid, LB_SCOPE_TASK_BITS), i;

	for (i = 0; i < LB_SCOPE_TASK_PROBES; i++) {
		struct lb_scope_task *st;

		st = &l->scope_task[lb_probe_slot(first, i, LB_SCOPE_TASK_BITS)];
		if (st->pid == pid)
			return st;
	}
	return NULL;
}

/* A slot for @pid: a free one, else the one entered longest ago. */
static struct lb_scope_task *lb_scope_task_claim(struct lb_ledger *l, s32 pid, u64 ts)
{
	u32 first = hash_64((u32)pid, LB_SCOPE_TASK_BITS), i;
	struct lb_scope_task *old = NULL;

	for (i = 0; i < LB_SCOPE_TASK_PROBES; i++) {
		struct lb_scope_task *st;

		st = &l->scope_task[lb_probe_slot(first, i, LB_SCOPE_TASK_BITS)];
		if (!st->pid) {
			old = st;
			break;
		}
		if (!old || st->since < old->since)
			old = st;
	}
	if (old->pid)
		l->totals.scope_evicted++;
	l->scopes_entered = true;
	memset(old, 0, sizeof(*old));
	old->pid = pid;
	old->since = ts;
	return old;
}

/* The word @key if it was slept on inside a scope, else NULL. */
static struct lb_scope_key *lb_scope_key_find(struct lb_ledger *l, u64 key)
{
	u32 first = hash_64(key, LB_SCOPE_KEY_BITS), i;

	for (i = 0; key && i < LB_SCOPE_KEY_PROBES; i++) {
		struct lb_scope_key *k;

		k = &l->scope_key[lb_probe_slot(first, i, LB_SCOPE_KEY_BITS)];
		if (k->key == key)
			return k;
	}
	return NULL;
}

/* A slot for word @key: a free one, else the one slept on longest ago. */
static struct lb_scope_key *lb_scope_key_claim(struct lb_ledger *l, u64 key)
{
	u32 first = hash_64(key, LB_SCOPE_KEY_BITS), i;
	struct lb_scope_key *old = NULL;

	for (i = 0; i < LB_SCOPE_KEY_PROBES; i++) {
		struct lb_scope_key *k;

		k = &l->scope_key[lb_probe_slot(first, i, LB_SCOPE_KEY_BITS)];
		if (!k->key) {
			old = k;
			break;
		}
		if (!old || k->ts < old->ts)
			old = k;
	}
	if (old->key)
		l->totals.scope_words_evicted++;
	memset(old, 0, sizeof(*old));
	old->key = key;
	return old;
}

/* @ev, made an event of @st's lock: the ledger sees a plain lock event. */
static const struct lb_event *lb_scope_event(struct lb_event *out, const struct lb_event *ev,
					     u8 type, u64 lock, u32 name_id, u64 uaddr, u16 shared)
{
	*out = *ev;
	out->type = type;
	out->lock_class = LB_LOCK_SCOPE;
	out->lock = lock;
	out->name_id = name_id;
	out->uaddr = uaddr;
	out->word = 0;
	out->flags &= ~(LB_EF_WORD | LB_EF_WORD_TID | LB_EF_SHARED_KEY | LB_EF_NOSLEEP |
			LB_EF_OWNER_KTHREAD | LB_EF_OWNER_RUN_DELAY);
	out->flags |= shared;
	out->owner_source = LB_OWNER_NONE;
	memset(&out->owner, 0, sizeof(out->owner));
	out->owner_cpu_ns = 0;
	out->owner_run_delay_ns = 0;
	return out;
}

/* The end, as @result, of @was's wait on its lock, if one was open. */
static const struct lb_event *lb_scope_end(struct lb_event *out, const struct lb_event *ev,
					   const struct lb_scope_task *was, u8 result)
{
	if (!was->waiting)
		return NULL;
	lb_scope_event(out, ev, LB_EV_WAIT_END, was->lock, was->name_id, was->uaddr, was->shared);
	out->result = result;
	return out;
}

/*
 * A task enters the function: a fresh scope, whatever it was in before. A
 * scope inside a scope (PyGILState_Ensure calling PyEval_RestoreThread, both
 * planted) is the inner one's until it returns, and the outer return then
 * finds nothing open. A wait still open here lost its return (events
 * dropped, or recording was off): it ends now, as an error, not later.
 */
static const struct lb_event *lb_scope_enter(struct lb_ledger *l, const struct lb_event *ev,
					     struct lb_event out[2], const struct lb_event **then,
					     u64 ts)
{
	struct lb_scope_task *st = lb_scope_task_find(l, ev->task.pid);
	struct lb_scope_task was = {};
	const struct lb_event *end;

	/* Inside a span's wait, an inner scope is part of that wait. */
	if (st && st->span && st->waiting && !(ev->flags & LB_EF_SPAN)) {
		if (st->nested < U8_MAX)
			st->nested++;
		return NULL;
	}
	if (st)
		was = *st;
	else
		st = lb_scope_task_claim(l, ev->task.pid, ts);
	memset(st, 0, sizeof(*st));
	st->pid = ev->task.pid;
	st->since = ts;
	st->lock = ev->lock;
	st->name_id = ev->name_id;
	st->uaddr = ev->uaddr;
	st->shared = ev->flags & LB_EF_SHARED_KEY;
	end = lb_scope_end(&out[0], ev, &was, LB_WAIT_ERROR);
	if (!(ev->flags & LB_EF_SPAN))
		return end;
	/* A span: its wait begins now, after any wait its lost return left open. */
	st->span = true;
	st->waiting = true;
	l->totals.scope_waits++;
	lb_scope_event(&out[1], ev, LB_EV_WAIT_BEGIN, st->lock, st->name_id, st->uaddr, st->shared);
	if (!end)
		return &out[1];
	*then = &out[1];
	return end;
}

/* The function returns: the task has the lock, if it waited for it. */
static const struct lb_event *lb_scope_exit(struct lb_ledger *l, const struct lb_event *ev,
					    struct lb_event *out)
{
	struct lb_scope_task *st = lb_scope_task_find(l, ev->task.pid);
	struct lb_scope_task was;

	/* Entered before a reset, or forgotten for room: nothing is open. */
	if (!st)
		return NULL;
	/*
	 * An inner scope of a span's wait returns: the span waits on. An
	 * error is the span's own end: the module saw it left by a longjmp.
	 */
	if (st->nested && ev->result != LB_WAIT_ERROR) {
		st->nested--;
		return NULL;
	}
	was = *st;
	memset(st, 0, sizeof(*st));
	return lb_scope_end(out, ev, &was,
			    ev->result == LB_WAIT_ERROR ? LB_WAIT_ERROR : LB_WAIT_ACQUIRED);
}

static const struct lb_event *lb_scope_sleep(struct lb_ledger *l, const struct lb_event *ev,
					     struct lb_event *out, u64 ts)
{
	struct lb_scope_task *st = lb_scope_task_find(l, ev->task.pid);
	struct lb_scope_key *k;
	bool ours;

	if (!st)
		return ev;
	/* A span's wait takes in every sleep; its words are not the lock's. */
	if (st->span && st->waiting) {
		st->sleeping = !(ev->flags & LB_EF_NOSLEEP);
		return NULL;
	}
	/*
	 * A word this lock's waiters slept on before is one of its words,
	 * whatever its value now (a counter passing through 2 or 3).
	 */
	k = lb_scope_key_find(l, ev->lock);
	ours = (k && k->lock == st->lock) || lb_futex_word_is_event(l, ev);
	/*
	 * A mutex-shaped sleep before the wait began is a wait on that mutex;
	 * once the task waits for the scope's lock, every sleep until the
	 * function returns is part of that wait (a condvar retaking its mutex):
	 * a task waits for one thing at a time.
	 */
	if (!ours && !st->waiting)
		return ev;
	/* The word changed before it slept: no sleep, nothing learnt. */
	if (ev->flags & LB_EF_NOSLEEP)
		return NULL;
	st->sleeping = true;
	if (!ours)
		return NULL;
	if (!k)
		k = lb_scope_key_claim(l, ev->lock);
	k->ts = ts;
	k->lock = st->lock;
	k->name_id = st->name_id;
	k->uaddr = st->uaddr;
	k->shared = st->shared;
	if (st->waiting)
		return NULL;
	st->waiting = true;
	l->totals.scope_waits++;
	return lb_scope_event(out, ev, LB_EV_WAIT_BEGIN, st->lock, st->name_id, st->uaddr,
			      st->shared);
}

/*
 * Whether a wake by @waker releases scope lock @id, counted when it does.
 * A task that waits for the lock itself does not release it: a condvar
 * waiter whose timed wait expired wakes the word too (glibc hands the wake
 * it may have consumed on). Nor does a wake while nobody waits on the lock:
 * the word, or the task, was woken for another reason; nor one of a lock
 * its release function releases (lb_scope_release_call).
 */
static bool lb_scope_releases(struct lb_ledger *l, s32 waker, u64 id)
{
	const struct lb_scope_task *me = lb_scope_task_find(l, waker);
	const struct lb_lock *lock;

	if (me && me->waiting && me->lock == id)
		return false;
	lock = lb_lock_find(l, id);
	if (!lock || !lock->nr_waiting || lock->release_fn)
		return false;
	l->totals.scope_releases++;
	return true;
}

static const struct lb_event *lb_scope_wake(struct lb_ledger *l, const struct lb_event *ev,
					    struct lb_event *out)
{
	const struct lb_scope_key *k;

	if (ev->flags & LB_EF_THREAD_EXIT || !ev->lock)
		return ev;
	k = lb_scope_key_find(l, ev->lock);
	/* Not a word of a scope's lock, or no release of it: a plain futex wake. */
	if (!k || !lb_scope_releases(l, ev->task.pid, k->lock))
		return ev;
	return lb_scope_event(out, ev, LB_EV_RELEASE, k->lock, k->name_id, k->uaddr, k->shared);
}

/*
 * The entry of a scope's release function: the caller lets go of the lock.
 * Its hold ends here, exactly, when it is the lock's known holder, or when
 * no holder is known and the lock has waiters (it took the lock unseen, as
 * a hog that never waited does). Otherwise the call changes nothing: a
 * release nobody waits for (no lock known, or no waiters and no holder), or
 * one by a task other than the holder the ledger knows.
 */
static const struct lb_event *lb_scope_release_call(struct lb_ledger *l,
						    const struct lb_event *ev,
						    struct lb_event *out)
{
	struct lb_lock *lock = lb_lock_find(l, ev->lock);
	u32 i;

	if (!lock)
		return NULL;
	lock->release_fn = true;
	for (i = 0; i < lock->nr_holders; i++)
		if (lock->holder[i].task->id.pid == ev->task.pid)
			break;
	if (i == lock->nr_holders && (lock->nr_holders || !lock->nr_waiting))
		return NULL;
	l->totals.scope_releases++;
	/* ->count is the scope's id: the call itself wakes nobody. */
	*out = *ev;
	out->count = 0;
	return out;
}

/*
 * Another task woke @ev->owner inside a span scope: while its wait is open,
 * a release of the lock (lb_scope_releases). Not so when the woken task
 * sleeps on a futex inside an inner scope: that sleep's lock was released.
 */
static const struct lb_event *lb_scope_span_wake(struct lb_ledger *l, const struct lb_event *ev,
						 struct lb_event *out)
{
	const struct lb_scope_task *st = lb_scope_task_find(l, ev->owner.pid);

	if (!st || !st->span || !st->waiting || (st->nested && st->sleeping) ||
	    !lb_scope_releases(l, ev->task.pid, st->lock))
		return NULL;
	return lb_scope_event(out, ev, LB_EV_RELEASE, st->lock, st->name_id, st->uaddr, st->shared);
}

/*
 * @ev as the ledger should see it: itself, a rewrite into @out[0], or NULL
 * when the scopes have consumed it; and, in @then, one more to follow it
 * (in @out[1]), or NULL.
 */
const struct lb_event *lb_scope_rewrite(struct lb_ledger *l, const struct lb_event *ev,
					struct lb_event out[2], const struct lb_event **then,
					u64 ts)
{
	struct lb_scope_task *st;

	*then = NULL;
	switch (ev->type) {
	case LB_EV_SCOPE_ENTER:
		return lb_scope_enter(l, ev, out, then, ts);
	case LB_EV_SCOPE_WAKE:
		return lb_scope_span_wake(l, ev, out);
	case LB_EV_SCOPE_EXIT:
		return lb_scope_exit(l, ev, out);
	case LB_EV_WAIT_BEGIN:
		return ev->lock_class == LB_LOCK_FUTEX ? lb_scope_sleep(l, ev, out, ts) : ev;
	case LB_EV_WAIT_END:
		if (ev->lock_class != LB_LOCK_FUTEX)
			return ev;
		st = lb_scope_task_find(l, ev->task.pid);
		/* A task sleeps on one futex at a time: this ends the scope's sleep. */
		if (!st || !st->sleeping)
			return ev;
		/* One sleep of the scope's wait ended; the wait goes on. */
		st->sleeping = false;
		return NULL;
	case LB_EV_RELEASE:
		if (ev->lock_class == LB_LOCK_SCOPE)
			return lb_scope_release_call(l, ev, out);
		return ev->lock_class == LB_LOCK_FUTEX ? lb_scope_wake(l, ev, out) : ev;
	}
	return ev;
}
