// SPDX-License-Identifier: GPL-2.0
/*
 * Past waits: the last few waits of each task, with who ended them, kept for
 * root blame named late. A lock's pending waiting is named to its releaser
 * only at the release, when the releaser runs; if it had been blocked on
 * another lock for part of that waiting, that part's root is whoever held
 * that lock then, not the releaser. Only the waits a task ended recently
 * matter: a small table keyed by pid, each pid's waits in one probe window.
 */
#include "ledger_internal.h"

static u32 lb_past_first(s32 pid)
{
	return hash_64((u64)(u32)pid, LB_PAST_BITS);
}

static u64 lb_past_end(const struct lb_past *p)
{
	return p->begin_ns + p->len_ns;
}

static u64 lb_overlap(u64 a0, u64 a1, u64 b0, u64 b1)
{
	u64 s = max(a0, b0), e = min(a1, b1);

	return e > s ? e - s : 0;
}

/*
 * @w's wait, its task's @nth, just ended: who ended it, if the ledger knows (the
 * release that came in it, or the holder it had), is kept with it. A
 * task's waits take the slots of its window in turn, so the newest is at
 * @nth's and the older ones before it.
 */
void lb_past_note(struct lb_ledger *l, const struct lb_waiter *w, u64 nth)
{
	const struct lb_lock *lock = w->lock;
	s32 holder = 0;

	if (lock->release.pid && lock->release.ts >= w->begin_ns)
		holder = lock->release.pid;
	else if (lock->nr_holders)
		holder = lock->holder[0].task->id.pid;
	l->past[lb_probe_slot(lb_past_first(w->pid), nth % LB_PAST_PROBES, LB_PAST_BITS)] =
		(struct lb_past){
			.pid = w->pid,
			.holder = holder == w->pid ? 0 : holder,
			.lock = lock->id,
			.begin_ns = w->begin_ns,
			.len_ns = l->now_ns > w->begin_ns ? l->now_ns - w->begin_ns : 0,
		};
}

/*
 * @pid's ended wait on @lock, which nobody was known to end, ended by @r's
 * release after all (its pending waiting was named to @r).
 */
void lb_past_named(struct lb_ledger *l, s32 pid, u64 lock, s32 r)
{
	u32 first = lb_past_first(pid), i;

	for (i = 0; i < LB_PAST_PROBES; i++) {
		struct lb_past *p = &l->past[lb_probe_slot(first, i, LB_PAST_BITS)];

		if (p->pid == pid && p->lock == lock && !p->holder && pid != r)
			p->holder = r;
	}
}

/*
 * The root of @pid's time from @a to @b: while it waited on a lock, for
 * more than half of that time, that lock's holder's root, and so on.
 */
static s32 lb_past_root(const struct lb_ledger *l, s32 pid, u64 a, u64 b)
{
	u32 depth, i;

	for (depth = 0; depth < l->limits.max_chain_depth && b > a; depth++) {
		u32 first = lb_past_first(pid);
		const struct lb_past *next = NULL;

		for (i = 0; i < LB_PAST_PROBES && !next; i++) {
			const struct lb_past *p = &l->past[lb_probe_slot(first, i, LB_PAST_BITS)];

			if (p->pid == pid && p->holder > 0 &&
			    2 * lb_overlap(a, b, p->begin_ns, lb_past_end(p)) > b - a)
				next = p;
		}
		if (!next)
			break;
		a = max(a, next->begin_ns);
		b = min(b, lb_past_end(next));
		pid = next->holder;
	}
	return pid;
}

/* What of @lock's pending waiting went on while @p, a wait, lasted (not @skip's). */
static u64 lb_past_pending_in(const struct lb_ledger *l, const struct lb_lock *lock,
			      const struct lb_past *p, s32 skip)
{
	const struct lb_waiter *w;
	u64 ns = 0;

	list_for_each_entry(w, &lock->waiters, lock_node)
		if (w->pending_ns && w->pid != skip)
			ns += lb_overlap(l->now_ns - min(w->pending_ns, l->now_ns), l->now_ns,
					 p->begin_ns, lb_past_end(p));
	list_for_each_entry(w, &lock->ghosts, lock_node) {
		u64 end = w->begin_ns + w->wait_ns;

		if (w->pending_ns && w->pid != skip)
			ns += lb_overlap(end - min(w->pending_ns, end), end,
					 p->begin_ns, lb_past_end(p));
	}
	return ns;
}

/* @ns of @r's root blame on @lock goes on to @root, past @r's wait @p. */
static void lb_past_pay(struct lb_ledger *l, const struct lb_lock *lock, struct lb_task *r,
			const struct lb_past *p, struct lb_task *root, u64 ns)
{
	struct lb_route d = {
		.victim_lock = lock->id,
		.holder = r->id.pid,
		.waits_on = p->lock,
		.ns = ns,
	};

	lb_account_take(r, &(struct lb_account){ .root_blame_ns = ns });
	lb_root_debt_pay(l, &d, root);
	l->totals.past_root_ns += ns;
}

/*
 * @lock's pending waiting was just named to @r as blame and root blame. The
 * part of it during which @r itself waited on another lock goes on, as root
 * blame, to the root of that wait, with a chain record that says so.
 */
void lb_past_settle(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *r)
{
	u64 since = lock->pending.open ? lock->pending.since : 0;
	u32 first = lb_past_first(r->id.pid), i;
	u64 nth = r->acct.waits + LB_PAST_PROBES + 1;

	/* The newest first: most releasers last waited for this lock. */
	for (i = 0; i < LB_PAST_PROBES; i++) {
		const struct lb_past *p = &l->past[lb_probe_slot(first, --nth % LB_PAST_PROBES,
								 LB_PAST_BITS)];
		struct lb_task *root;
		s32 root_pid;
		u64 ns;

		if (p->pid != r->id.pid)
			continue;
		/* Before the waiting began, or before @r waited for this lock and took it. */
		if (lb_past_end(p) <= since || p->lock == lock->id)
			break;
		if (p->holder <= 0)
			continue;
		root_pid = lb_past_root(l, p->holder, max(p->begin_ns, since), lb_past_end(p));
		root = lb_task_find(l, root_pid);
		if (!root || root == r)
			continue;
		ns = min(lb_past_pending_in(l, lock, p, root_pid), r->acct.root_blame_ns);
		if (ns)
			lb_past_pay(l, lock, r, p, root, ns);
	}
}
