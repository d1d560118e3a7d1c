// SPDX-License-Identifier: GPL-2.0
/*
 * Holders and holds: who holds a lock, as events name them, and each
 * contended hold once it ends: how long somebody waited during it, and why
 * the holder was slow (on a CPU, runnable waiting for one, or asleep).
 */
#include "ledger_internal.h"

/* Holders */

static noinline void lb_hold_unended(struct lb_lock *lock, struct lb_task *t, u64 hold, bool lower);

/*
 * @lock's holder @i is forgotten: it let go unseen (a fast-path unlock, or a
 * release lost to a full ring), or a newer event names another owner. The
 * waiting it was charged with stays its blame, so its contended part so far
 * is a hold too, whose end was not seen.
 */
static void lb_holder_drop(struct lb_ledger *l, struct lb_lock *lock, u32 i)
{
	struct lb_task *t = lock->holder[i].task;

	if (lock->holder[i].contended_ns)
		lb_hold_unended(lock, t, lock->holder[i].contended_ns,
				lock->holder[i].known == LB_HOLD_LOWER_BOUND);
	lock->nr_holders--;
	/* Most locks have one holder: nothing follows it to move up. */
	if (i < lock->nr_holders)
		memmove(&lock->holder[i], &lock->holder[i + 1],
			(lock->nr_holders - i) * sizeof(lock->holder[0]));
	lb_task_unpin(l, t);
}

/* Drop every holder but @keep (NULL: drop all); readers too unless @readers. */
void lb_holders_drop_others(struct lb_ledger *l, struct lb_lock *lock,
			    const struct lb_task *keep, bool readers)
{
	u32 i = 0;

	while (i < lock->nr_holders) {
		const struct lb_holder *h = &lock->holder[i];

		if (h->task == keep || (readers && h->reader))
			i++;
		else
			lb_holder_drop(l, lock, i);
	}
}

/* After a release: none holds it, but those it woke before we saw it. */
void lb_holders_drop_likely_others(struct lb_ledger *l, struct lb_lock *lock,
				   const struct lb_task *releaser, bool keep_woken)
{
	u32 i = 0;

	while (i < lock->nr_holders) {
		const struct lb_holder *h = &lock->holder[i];

		if (keep_woken && lb_holder_woken(h) && h->task != releaser)
			i++;
		else
			lb_holder_drop(l, lock, i);
	}
}

/* The clocks an event read for the owner it names (lb_ev_clocks: for its task). */
static struct lb_clocks lb_ev_owner_clocks(const struct lb_event *ev)
{
	return (struct lb_clocks){ ev->owner_cpu_ns, ev->owner_run_delay_ns,
				   ev->flags & LB_EF_OWNER_RUN_DELAY };
}

/*
 * A hold starts at @ts with clocks @c: a task's on-CPU clock is never 0 once
 * it ran, so 0 means "not read"; run_delay is 0 until the task first waits
 * for a CPU, so whether it was read is said beside it. run_delay is only
 * used with an on-CPU reading, over the same span.
 */
void lb_holder_start(struct lb_holder *h, u64 ts, const struct lb_clocks *c,
		     enum lb_hold_known known, bool reader)
{
	h->blame_ns = 0;
	h->contended_ns = 0;
	h->start = (struct lb_hold_start){ .ts = ts, .c = *c };
	h->known = known;
	h->reader = reader;
	h->passed_on = false;
}

struct lb_holder *lb_holder_add(struct lb_ledger *l, struct lb_lock *lock,
				struct lb_task *t, u64 start_ns, const struct lb_clocks *c,
				enum lb_hold_known known, bool reader)
{
	struct lb_holder *h;

	if (lock->nr_holders == LB_LOCK_HOLDERS) {
		l->totals.dropped_holders++;
		return NULL;
	}
	h = &lock->holder[lock->nr_holders++];
	h->task = t;
	lb_holder_start(h, start_ns, c, known, reader);
	lb_task_pin(t);
	return h;
}

/* Owners named by a waiter's event */

static bool lb_owner_exact(u8 source)
{
	return source == LB_OWNER_LOCK_FIELD || source == LB_OWNER_PI_WORD ||
	       source == LB_OWNER_READER_HINT;
}

/*
 * A guess of @lock's owner, @opid (glibc's __owner): shown as the probable
 * holder, never blamed. Its CPU clock is kept: if it turns out to be the
 * releaser, the hold's on-CPU part is measured from here.
 */
static void lb_learn_probable(struct lb_ledger *l, struct lb_lock *lock,
			      const struct lb_event *ev, u64 ts, s32 opid)
{
	struct lb_pending *p = &lock->pending;

	if (p->probable_pid != opid || !p->probable.c.cpu_ns) {
		p->probable = (struct lb_hold_start){ .ts = ts };
		/* A guess at time 0 keeps no clocks: there, 0 is "no reading" too. */
		if (ts)
			p->probable.c = lb_ev_owner_clocks(ev);
	}
	p->probable_pid = opid;
	lb_task_get(l, &ev->owner, ev->flags & LB_EF_OWNER_KTHREAD);
}

/*
 * First waiter of a new burst: holders learnt earlier may have let go
 * through the unlock fast path, unseen. Keep one only if this event names
 * it (@opid, exactly if @exact, from @src); otherwise blame is pending until
 * the next release.
 */
static void lb_holders_new_burst(struct lb_ledger *l, struct lb_lock *lock, u8 src, s32 opid,
				 bool exact)
{
	u32 i;

	lb_pending_close(l, lock, NULL, LB_PENDING_BURST);
	for (i = 0; i < lock->nr_holders;) {
		const struct lb_holder *h = &lock->holder[i];

		/* A reader hint names one reader; others may still hold too. */
		if (h->task->id.pid == opid ||
		    (exact && src == LB_OWNER_READER_HINT && h->reader))
			i++;
		else
			lb_holder_drop(l, lock, i);
	}
}

/* What a new waiter's event says about who holds @lock. */
void lb_learn_owner(struct lb_ledger *l, struct lb_lock *lock,
		    const struct lb_event *ev, u64 ts, struct lb_task *waiter)
{
	u8 src = ev->owner_source;
	s32 opid = src != LB_OWNER_NONE && ev->owner.pid > 0 ? ev->owner.pid : 0;
	bool exact = opid && lb_owner_exact(src);
	struct lb_clocks oc;
	struct lb_holder *h;
	struct lb_task *o;

	if (src == LB_OWNER_HEURISTIC && opid)
		lb_learn_probable(l, lock, ev, ts, opid);
	if (!lock->nr_waiting)
		lb_holders_new_burst(l, lock, src, opid, exact);
	/*
	 * A waiter does not hold the lock, unless its owner field says so. A
	 * woken waiter that waits again with no release of its own in between
	 * never took it: what it was charged since its wake is pending again.
	 */
	h = lb_holder_find(lock, waiter);
	if (h && !(exact && opid == waiter->id.pid)) {
		if (h->known == LB_HOLD_LIKELY)
			lb_pending_disown(l, lock, h, ts);
		lb_holder_drop(l, lock, h - lock->holder);
	}
	if (!exact)
		return;
	o = lb_task_get(l, &ev->owner, ev->flags & LB_EF_OWNER_KTHREAD);
	if (!o || lb_holder_find(lock, o))
		return;
	/*
	 * A task blocked on this lock does not hold it: the owner word was
	 * read stale (a racing release cleared it after the count was read).
	 */
	if (o != waiter && o->waiting && o->waiting->lock == lock)
		return;
	/* The owner field is the truth: other holders are stale, but readers share. */
	lb_holders_drop_others(l, lock, NULL, src == LB_OWNER_READER_HINT);
	/* It took the lock on the fast path, some time before: a lower bound. */
	oc = lb_ev_owner_clocks(ev);
	lb_holder_add(l, lock, o, ts, &oc, LB_HOLD_LOWER_BOUND, src == LB_OWNER_READER_HINT);
}

/*
 * @r let go of @lock, which others still hold: its hold, if it was known,
 * ends here; with the lock's pending busy time only if @pending (not when
 * that time is owed to another's release still to come).
 */
void lb_holder_leave(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *r,
		     const struct lb_event *ev, u64 ts, bool pending)
{
	struct lb_holder *h = lb_holder_find(lock, r);

	if (!h)
		return;
	lb_record_hold(l, lock, r, ev, ts, pending);
	lb_holder_drop(l, lock, h - lock->holder);
}

/* Holds */

/* @a * @mul / @div, saturated instead of overflowing; 0 if any is 0. */
u64 lb_scale(u64 a, u64 mul, u64 div)
{
	if (!a || !mul || !div)
		return 0;
	if (div64_u64(a, div) >= div64_u64(U64_MAX, mul))
		return U64_MAX;
	return mul_u64_u64_div_u64(a, mul, div);
}

/*
 * Where @r's hold on @lock began, if its clocks were read then: its holder
 * slot, or the probable holder's reading when it is known only at release.
 * NULL when the on-CPU clock was not read, or was read after @ts.
 */
static const struct lb_hold_start *lb_hold_started(const struct lb_lock *lock,
						   const struct lb_holder *h,
						   const struct lb_task *r, u64 ts)
{
	const struct lb_hold_start *st = &lock->pending.probable;

	if (h)
		st = &h->start;
	else if (lock->pending.probable_pid != r->id.pid)
		return NULL;
	return st->c.cpu_ns && st->ts <= ts ? st : NULL;
}

/* A clock's advance from @from to @to, 0 if either was not read. */
static u64 lb_clock_delta(u64 from, u64 to)
{
	return from && to && to > from ? to - from : 0;
}

/*
 * The on-CPU and runnable shares are measured over the span the clocks
 * cover and applied to the contended part pro rata; a contended part longer
 * than the span is unknown beyond it. Without run_delay at both ends, the
 * off-CPU part is not split: it is runnable_unknown, never guessed.
 */
static void lb_hold_split(u64 hold, u64 span, u64 cpu, u64 runnable, bool rq_read,
			  struct lb_hold_split *s)
{
	cpu = min(cpu, span);
	runnable = min(runnable, span - cpu);
	if (span > hold) {
		s->on = lb_scale(cpu, hold, span);
		s->runnable = lb_scale(runnable, hold, span);
		s->cpu_unknown = 0;
	} else {
		s->on = cpu;
		s->runnable = runnable;
		s->cpu_unknown = hold - span;
	}
	s->runnable_unknown = rq_read ? 0 : hold - s->cpu_unknown - s->on;
}

/*
 * Add a contended hold of @hold ns, divided as @s, to @r and @lock. Inline
 * in its two callers: every contended release comes here.
 */
static __always_inline void lb_hold_account(struct lb_lock *lock, struct lb_task *r,
					    u64 hold, const struct lb_hold_split *s)
{
	lb_account_add(r, &(struct lb_account){
		.hold_ns = hold,
		.hold_on_cpu_ns = s->on,
		.hold_runnable_ns = s->runnable,
		.holds = 1,
	});
	r->hold_cpu_unknown_ns += s->cpu_unknown;
	r->hold_runnable_unknown_ns += s->runnable_unknown;
	lock->cnt.hold_ns += hold;
	lock->cnt.hold_on_cpu_ns += s->on;
	lock->cnt.hold_runnable_ns += s->runnable;
	lock->cnt.hold_cpu_unknown_ns += s->cpu_unknown;
	lock->cnt.hold_runnable_unknown_ns += s->runnable_unknown;
	lock->cnt.holds++;
	lb_hist_add(&lock->hold_hist, hold);
}

/*
 * A hold whose release was not seen: @hold is its contended part so far, not
 * split; @lower if its start was not seen either. Out of line: most holders
 * dropped have none (their release recorded it), and lb_holder_drop stays small.
 */
static noinline void lb_hold_unended(struct lb_lock *lock, struct lb_task *t, u64 hold, bool lower)
{
	struct lb_hold_split s;

	lb_hold_split(hold, 0, 0, 0, false, &s);
	lb_hold_account(lock, t, hold, &s);
	t->holds_unended++;
	lock->cnt.holds_unended++;
	if (lower) {
		t->holds_lower_bound++;
		lock->cnt.holds_lower_bound++;
	}
}

/*
 * The hold of @r on @lock ends at @ts: record its contended part, the time
 * somebody waited during it, if there was any. That is the time waited while
 * @r was the known holder plus, if its release names it, the unattributed
 * waiting since the last release. Why it was slow: on a CPU, runnable
 * waiting for one, or asleep (the rest), from @r's clocks (lb_hold_split).
 * The holder's contended part is then spent: dropping it records nothing.
 */
void lb_record_hold(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *r,
		    const struct lb_event *ev, u64 ts, bool pending)
{
	struct lb_holder *h = lb_holder_find(lock, r);
	u64 hold = h ? h->contended_ns : 0, span = 0, cpu = 0, runnable = 0;
	bool lower = !h || h->known == LB_HOLD_LOWER_BOUND, rq_read = false;
	struct lb_hold_split *s = &lock->release.split;
	const struct lb_hold_start *st;

	/* The release, for the waits it ends and the outliers. */
	if (!++l->releases)
		l->releases = 1;
	lock->release = (struct lb_release){ .pid = r->id.pid, .stack_id = ev->stack_id,
					     .ustack_id = ev->ustack_id, .seq = l->releases,
					     .ts = ts };
	if (h)
		h->contended_ns = 0;
	if (pending)
		hold += lock->pending.busy_ns;
	if (!hold) {
		lb_outliers_settle(l, lock);
		return;
	}
	st = ev->cpu_ns ? lb_hold_started(lock, h, r, ts) : NULL;
	if (st) {
		span = ts - st->ts;
		cpu = lb_clock_delta(st->c.cpu_ns, ev->cpu_ns);
		rq_read = st->c.run_delay_read && (ev->flags & LB_EF_RUN_DELAY);
		runnable = rq_read && ev->run_delay_ns > st->c.run_delay_ns ?
			   ev->run_delay_ns - st->c.run_delay_ns : 0;
	}
	lb_hold_split(hold, span, cpu, runnable, rq_read, s);
	lb_hold_account(lock, r, hold, s);
	lock->release.hold_ns = hold;
	lb_outliers_settle(l, lock);
	if (l->opts.outlier_ns && hold >= l->opts.outlier_ns)
		lb_outlier_hold(l, lock, r);
	if (lower) {
		r->holds_lower_bound++;
		lock->cnt.holds_lower_bound++;
	}
	if (!h)
		lock->cnt.holds_at_release++;
}
