// SPDX-License-Identifier: GPL-2.0
/*
 * What the ledger's readers ask: the verdict rule, and the accounts of the
 * ledger, a task, a process, a lock, a pair or a stack as of now.
 */
#include "ledger_internal.h"

/*
 * The verdict rule, for a task or a process with kept blame B and wait W
 * (ns it spent waiting on locks):
 *
 *	NONE	if B = 0 and W = 0
 *	CAUSE	if B >= 2 * W
 *	VICTIM	if W >= 2 * B
 *	SHARED	otherwise: within a factor of two, control passes back and forth
 *
 * B is the blame the task keeps: its root blame, the waiting it inflicted
 * while it was itself running, plus what reached it through chains of blocked
 * holders. Blame it only passed on (inflicted while it was blocked on another
 * lock, so flowing to that lock's holder) does not make it a cause: a chain's
 * middle task that does little under its own lock is a victim. Its direct
 * blame is still reported, and the chain records say to whom it went.
 */
enum lb_verdict lb_verdict_of(u64 blame_ns, u64 wait_ns)
{
	if (!blame_ns && !wait_ns)
		return LB_VERDICT_NONE;
	if (wait_ns <= blame_ns / 2)
		return LB_VERDICT_CAUSE;
	if (blame_ns <= wait_ns / 2)
		return LB_VERDICT_VICTIM;
	return LB_VERDICT_SHARED;
}
EXPORT_SYMBOL_IF_KUNIT(lb_verdict_of);

static const char *const lb_verdict_names[LB_VERDICT_MAX] = LB_VERDICT_NAMES;

const char *lb_verdict_name(enum lb_verdict v)
{
	return (unsigned int)v < LB_VERDICT_MAX ? lb_verdict_names[v] : "none";
}
EXPORT_SYMBOL_IF_KUNIT(lb_verdict_name);

/*
 * Records the tables had no room for, or forgot to make room: waits not
 * counted, blame pairs, holders and chains not kept, tasks and locks evicted,
 * event waits not tracked. Zero when the ledger kept everything it was fed.
 */
u64 lb_ledger_dropped(const struct lb_ledger *l)
{
	const struct lb_ledger_totals *t = &l->totals;

	return t->dropped_waiters + t->dropped_pairs + t->dropped_holders + t->dropped_chains +
	       t->dropped_stacks + t->evicted_locks + t->evicted_tasks + t->event_dropped +
	       t->evicted_sleepers + t->dropped_signals;
}
EXPORT_SYMBOL_IF_KUNIT(lb_ledger_dropped);

u64 lb_window_ns(const struct lb_ledger *l)
{
	return l->started ? l->now_ns - l->first_ns : 0;
}

void lb_ledger_totals(const struct lb_ledger *l, struct lb_ledger_totals *t)
{
	u32 i;

	*t = l->totals;
	t->window_ns = lb_window_ns(l);
	t->asleep = l->nr_asleep;
	/* Open event waits, up to now: a walk, on a query only. */
	for (i = 0; l->nr_asleep && i < l->limits.max_sleepers; i++) {
		const struct lb_sleeper *s = &l->sleepers[i];

		if (!hlist_unhashed(&s->hnode) && s->asleep)
			t->event_open_ns += lb_sleeper_wait_ns(l, s) - s->wait_ns;
	}
}
EXPORT_SYMBOL_IF_KUNIT(lb_ledger_totals);

void lb_task_fill_stats(const struct lb_task *t, struct lb_task_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->id = t->id;
	st->acct = t->acct;
	st->verdict = lb_verdict_of(t->acct.root_blame_ns, t->acct.wait_ns);
	st->hold_cpu_unknown_ns = t->hold_cpu_unknown_ns;
	st->hold_runnable_unknown_ns = t->hold_runnable_unknown_ns;
	st->hold_sleeping_ns = lb_split_sleeping(&(struct lb_split_ns){
		t->acct.hold_ns, t->acct.hold_on_cpu_ns, t->acct.hold_runnable_ns,
		t->hold_cpu_unknown_ns, t->hold_runnable_unknown_ns });
	st->holds_lower_bound = t->holds_lower_bound;
	st->holds_unended = t->holds_unended;
	st->kthread = t->kthread;
}

bool lb_ledger_task(const struct lb_ledger *l, s32 pid, struct lb_task_stats *st)
{
	const struct lb_task *t = lb_task_find(l, pid);

	const struct lb_sleeper *s = lb_sleeper_find(l, pid);

	if (!t)
		return false;
	lb_task_fill_stats(t, st);
	if (s) {
		st->event_wait_ns = lb_sleeper_wait_ns(l, s);
		st->event_waits = s->waits;
	}
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(lb_ledger_task);

bool lb_ledger_event_task(const struct lb_ledger *l, s32 pid, u64 *wait_ns, u64 *waits,
			  s32 *waker)
{
	const struct lb_sleeper *s = lb_sleeper_find(l, pid);

	if (!s)
		return false;
	*wait_ns = lb_sleeper_wait_ns(l, s);
	*waits = s->waits;
	*waker = s->waker;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(lb_ledger_event_task);

void lb_proc_fill_stats(const struct lb_proc *p, struct lb_process_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->tgid = p->tgid;
	memcpy(st->comm, p->comm, LB_COMM_LEN);
	st->tasks = p->nr_tasks;
	st->acct = p->acct;
	st->verdict = lb_verdict_of(p->acct.root_blame_ns, p->acct.wait_ns);
	st->cgroup = p->cgroup;
}

bool lb_ledger_process(const struct lb_ledger *l, s32 tgid, struct lb_process_stats *st)
{
	const struct lb_proc *p = lb_proc_find(l, tgid);

	if (!p)
		return false;
	lb_proc_fill_stats(p, st);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(lb_ledger_process);

void lb_lock_fill_stats(const struct lb_ledger *l, const struct lb_lock *lock,
			struct lb_lock_stats *st)
{
	u64 window = lb_window_ns(l);
	u32 i;

	memset(st, 0, sizeof(*st));
	st->lock = lock->id;
	st->lock_class = lock->lock_class;
	st->cnt = lock->cnt;
	st->wait_p50_ns = lb_hist_percentile(&lock->wait_hist, 50);
	st->wait_p99_ns = lb_hist_percentile(&lock->wait_hist, 99);
	st->wait_max_ns = lock->wait_hist.max;
	st->hold_p50_ns = lb_hist_percentile(&lock->hold_hist, 50);
	st->hold_p99_ns = lb_hist_percentile(&lock->hold_hist, 99);
	st->hold_max_ns = lock->hold_hist.max;
	st->waiters_now = lock->nr_waiting;
	st->holder_pid = lock->nr_holders ? lock->holder[0].task->id.pid : 0;
	st->holders_now = lock->nr_holders;
	st->probable_pid = lock->pending.probable_pid;
	st->hold_sleeping_ns = lb_split_sleeping(&(struct lb_split_ns){
		lock->cnt.hold_ns, lock->cnt.hold_on_cpu_ns, lock->cnt.hold_runnable_ns,
		lock->cnt.hold_cpu_unknown_ns, lock->cnt.hold_runnable_unknown_ns });
	st->name = lock->name_id && l->name_of ? l->name_of(lock->name_id) : NULL;
	st->name_tgid = lock->name_tgid;
	st->uaddr = lock->uaddr;
	st->util_ppm = min_t(u64, lb_scale(lock->cnt.busy_ns, 1000000, window), 1000000);
	st->sat_milli = lb_scale(lock->cnt.wait_ns, 1000, window);
	for (i = 0; i < LB_LOCK_TOP; i++) {
		if (lock->cause[i].pid && lock->cause[i].ns > st->top_cause_ns) {
			st->top_cause_pid = lock->cause[i].pid;
			st->top_cause_ns = lock->cause[i].ns;
		}
	}
}

bool lb_ledger_lock(const struct lb_ledger *l, u64 lock, struct lb_lock_stats *st)
{
	const struct lb_lock *lk = lb_lock_find(l, lock);

	if (!lk)
		return false;
	lb_lock_fill_stats(l, lk, st);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(lb_ledger_lock);

u64 lb_ledger_pair_blame(const struct lb_ledger *l, s32 holder_pid, s32 victim_pid)
{
	const struct lb_pair *p = lb_pair_find(l, holder_pid, victim_pid);

	return p ? p->blame_ns : 0;
}
EXPORT_SYMBOL_IF_KUNIT(lb_ledger_pair_blame);

u64 lb_ledger_chain_blame(const struct lb_ledger *l, u64 victim_lock, s32 holder, u64 waits_on,
			  s32 root)
{
	u32 i;

	if (!victim_lock && !holder && !waits_on && !root)
		return l->nr_chains;
	for (i = 0; i < l->nr_chains; i++) {
		const struct lb_chain *c = &l->chains[i];

		if (c->victim_lock == victim_lock && c->holder == holder &&
		    c->waits_on == waits_on && c->root == root)
			return c->blame_ns;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(lb_ledger_chain_blame);

u64 lb_ledger_stack_ns(const struct lb_ledger *l, s32 pid, bool cause, u32 stack_id)
{
	const struct lb_stack *st = lb_stack_find(l, pid, cause ? LB_STACK_CAUSE : LB_STACK_VICTIM,
						  stack_id);

	return st ? st->ns : 0;
}
EXPORT_SYMBOL_IF_KUNIT(lb_ledger_stack_ns);

void lb_ledger_set_namer(struct lb_ledger *l, const char *(*name_of)(u32 id))
{
	l->name_of = name_of;
}
EXPORT_SYMBOL_IF_KUNIT(lb_ledger_set_namer);
