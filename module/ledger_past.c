// SPDX-License-Identifier: GPL-2.0
/*
 * Past waits: the last few waits of each task, with who ended them, kept for
 * root blame named late. A lock's pending waiting is named to its releaser
 * only at the release, when the releaser runs; if it had been blocked on
 * another lock for part of that waiting, that part's root is whoever held
 * that lock then, not the releaser. Only the waits a task ended recently
 * matter: a small table of buckets by pid, the waits worth least giving
 * their place up to new ones.
 */
#include "ledger_internal.h"

static struct lb_past_bucket *lb_past_bucket(struct lb_ledger *l, s32 pid)
{
	return &l->past[hash_64((u64)(u32)pid, LB_PAST_BITS)];
}

static u64 lb_overlap(u64 a0, u64 a1, u64 b0, u64 b1)
{
	u64 s = max(a0, b0), e = min(a1, b1);

	return e > s ? e - s : 0;
}

/* The lower of ways @i < @j by worth, @i if they are worth the same. */
static u32 lb_past_lower(const struct lb_past_bucket *b, u32 i, u32 j)
{
	return b->worth[j] < b->worth[i] ? j : i;
}

/*
 * The first of @b's ways worth least: pairs, then pairs of them, each the
 * first of its least, in seven compares without a loop's steps (every
 * wait's end comes here). Out of line and first in lb_past_note: a leaf
 * needs no registers saved for its compares, and its caller fewer.
 */
static_assert(LB_PAST_WAYS == 8, "lb_past_least() compares eight ways");
static noinline u32 lb_past_least(const struct lb_past_bucket *b)
{
	u32 q0 = lb_past_lower(b, 0, 1), q1 = lb_past_lower(b, 2, 3);
	u32 q2 = lb_past_lower(b, 4, 5), q3 = lb_past_lower(b, 6, 7);

	return lb_past_lower(b, lb_past_lower(b, q0, q1), lb_past_lower(b, q2, q3));
}

/*
 * @w's wait just ended: who ended it, if the ledger knows (the release that
 * came in it, or the holder it had), is kept with it. It takes the slot of
 * its window worth least: a wait is worth keeping for LB_PAST_KEEP times
 * as long as it lasted, so a long wait outlives the short ones after it
 * (PostgreSQL's LWLock waits between a backend's row-lock wait and its
 * commit).
 */
void lb_past_note(struct lb_ledger *l, const struct lb_waiter *w)
{
	struct lb_past_bucket *b = lb_past_bucket(l, w->pid);
	u32 slot = lb_past_least(b);
	const struct lb_lock *lock = w->lock;
	u64 end = max(l->now_ns, w->begin_ns);
	s32 holder = 0;

	if (lock->release.pid && lock->release.ts >= w->begin_ns)
		holder = lock->release.pid;
	else if (lock->nr_holders)
		holder = lock->holder[0].task->id.pid;
	b->pid[slot] = w->pid;
	b->worth[slot] = end + LB_PAST_KEEP * (end - w->begin_ns);
	b->wait[slot] = (struct lb_past){
		.holder = holder == w->pid ? 0 : holder,
		.lock = lock->id,
		.begin_ns = w->begin_ns,
		.end_ns = end,
	};
}

/*
 * @pid's ended wait on @lock, which nobody was known to end, ended by @r's
 * release after all (its pending waiting was named to @r).
 */
void lb_past_named(struct lb_ledger *l, s32 pid, u64 lock, s32 r)
{
	struct lb_past_bucket *b = lb_past_bucket(l, pid);
	u32 i;

	for (i = 0; i < LB_PAST_WAYS; i++)
		if (b->pid[i] == pid && b->wait[i].lock == lock && !b->wait[i].holder && pid != r)
			b->wait[i].holder = r;
}

/*
 * The root of @pid's time from @a to @b: while it waited on a lock, for
 * more than half of that time, that lock's holder's root, and so on.
 */
static s32 lb_past_root(struct lb_ledger *l, s32 pid, u64 a, u64 b)
{
	u32 depth, i;

	for (depth = 0; depth < l->limits.max_chain_depth && b > a; depth++) {
		const struct lb_past_bucket *bk = lb_past_bucket(l, pid);
		const struct lb_past *next = NULL;

		for (i = 0; i < LB_PAST_WAYS && !next; i++) {
			const struct lb_past *p = &bk->wait[i];

			if (bk->pid[i] == pid && p->holder > 0 &&
			    2 * lb_overlap(a, b, p->begin_ns, p->end_ns) > b - a)
				next = p;
		}
		if (!next)
			break;
		a = max(a, next->begin_ns);
		b = min(b, next->end_ns);
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
					 p->begin_ns, p->end_ns);
	list_for_each_entry(w, &lock->ghosts, lock_node) {
		u64 end = w->begin_ns + w->wait_ns;

		if (w->pending_ns && w->pid != skip)
			ns += lb_overlap(end - min(w->pending_ns, end), end,
					 p->begin_ns, p->end_ns);
	}
	return ns;
}

/*
 * Up to @ns (no more than @r has) of @r's root blame on @lock goes on to
 * @root, past @r's wait @p.
 */
static void lb_past_pay(struct lb_ledger *l, const struct lb_lock *lock, struct lb_task *r,
			const struct lb_past *p, struct lb_task *root, u64 ns)
{
	struct lb_route d = {
		.victim_lock = lock->id,
		.holder = r->id.pid,
		.waits_on = p->lock,
		.ns = min(ns, r->acct.root_blame_ns),
	};

	if (!d.ns)
		return;
	lb_account_take(r, &(struct lb_account){ .root_blame_ns = d.ns });
	lb_root_debt_pay(l, &d, root);
	l->totals.past_root_ns += d.ns;
}

/*
 * A part of @r's wait on another lock, from @begin_ns to @end_ns: while
 * the wait's holder itself waited, the root of that (NULL: @r, it stays).
 */
struct lb_past_share {
	struct lb_task *root;
	u64 begin_ns, end_ns;
};

/*
 * Where @r's time from @a to @b, waiting on a lock held by @h, leads: each
 * wait of @h's in that time is a share, on to its root (lb_past_root); the
 * rest of the time is @h's own. The shares in @out, their number returned.
 */
static u32 lb_past_shares(struct lb_ledger *l, s32 h, u64 a, u64 b, const struct lb_task *r,
			  struct lb_past_share *out)
{
	const struct lb_past_bucket *bk = lb_past_bucket(l, h);
	u32 i, n = 0;

	for (i = 0; i < LB_PAST_WAYS; i++) {
		const struct lb_past *q = &bk->wait[i];
		u64 qa = max(a, q->begin_ns), qb = min(b, q->end_ns);
		struct lb_task *t;

		if (bk->pid[i] != h || q->holder <= 0 || qb <= qa)
			continue;
		t = lb_task_find(l, lb_past_root(l, q->holder, qa, qb));
		out[n++] = (struct lb_past_share){ t == r ? NULL : t, qa, qb };
	}
	return n;
}

/*
 * @r's waits that matter for @lock's waiting just named to it: those on
 * other locks, with a holder, that ended after @*from, the time from which
 * @r held @lock (the pending period's start, or the end of its own last
 * wait on @lock, later). A mask of @b's ways: one pass finds @r's ways,
 * and only those it kept are held against @*from.
 */
static u32 lb_past_mine(const struct lb_past_bucket *b, const struct lb_lock *lock, s32 pid,
			u64 *from)
{
	u64 since = lock->pending.open ? lock->pending.since : 0;
	u32 i, m, mine = 0;

	for (i = 0; i < LB_PAST_WAYS; i++) {
		if (b->pid[i] != pid)
			continue;
		if (b->wait[i].lock == lock->id)
			since = max(since, b->wait[i].end_ns);
		else if (b->wait[i].holder > 0)
			mine |= BIT(i);
	}
	for (i = 0, m = mine; m; i++, m >>= 1)
		if ((m & 1) && b->wait[i].end_ns <= since)
			mine &= ~BIT(i);
	*from = since;
	return mine;
}

/*
 * @lock's pending waiting was just named to @r as blame and root blame. The
 * part of it during which @r itself waited on another lock goes on, as root
 * blame, to that lock's holder, or, for the time the holder waited too, to
 * the root of that wait; each with a chain record that says so.
 */
void lb_past_settle(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *r)
{
	const struct lb_past_bucket *b = lb_past_bucket(l, r->id.pid);
	struct lb_past_share sh[LB_PAST_WAYS];
	u64 from;
	u32 i, k, n, mine = lb_past_mine(b, lock, r->id.pid, &from);

	for (i = 0; mine; i++, mine >>= 1) {
		const struct lb_past *p = &b->wait[i];
		struct lb_past span = { .begin_ns = max(p->begin_ns, from), .end_ns = p->end_ns };
		struct lb_task *h = lb_task_find(l, p->holder);
		u64 rest = 0;

		if (!(mine & 1) || span.end_ns <= span.begin_ns)
			continue;
		if (h == r)
			h = NULL;
		if (h)
			rest = lb_past_pending_in(l, lock, &span, h->id.pid);
		n = lb_past_shares(l, p->holder, span.begin_ns, span.end_ns, r, sh);
		for (k = 0; k < n; k++) {
			struct lb_past q = { .begin_ns = sh[k].begin_ns, .end_ns = sh[k].end_ns };

			if (h)
				rest -= min(rest, lb_past_pending_in(l, lock, &q, h->id.pid));
			if (sh[k].root)
				lb_past_pay(l, lock, r, p, sh[k].root,
					    lb_past_pending_in(l, lock, &q, sh[k].root->id.pid));
		}
		if (h)
			lb_past_pay(l, lock, r, p, h, rest);
	}
}

/* @part of debt @d (no more than is left of it, @left) goes to @root. */
static void lb_past_debt_part(struct lb_ledger *l, const struct lb_route *d, struct lb_task *root,
			      u64 part, u64 *left)
{
	struct lb_route e = *d;

	e.ns = min(part, *left);
	if (!e.ns)
		return;
	lb_root_debt_pay(l, &e, root);
	l->totals.past_root_ns += e.ns;
	*left -= e.ns;
}

/*
 * A root debt @d of @lock (root blame that reached it along a chain while
 * its holder was not known) ends at its releaser @r, which was not the
 * probable holder the debt's route followed. As for the lock's own waiting
 * (lb_past_settle), the part owed while @r itself waited on another lock
 * goes on past it. A debt keeps its sum, not when it was owed: it is taken
 * as owed evenly over the time @r held @lock, each of @r's waits in it (and
 * each of their holders' waits) taking its share. The rest is @r's.
 */
void lb_past_debt_pay(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *r,
		      const struct lb_route *d)
{
	const struct lb_past_bucket *b = lb_past_bucket(l, r->id.pid);
	struct lb_past_share sh[LB_PAST_WAYS];
	u64 from, span, left = d->ns;
	u32 i, k, n, mine = lb_past_mine(b, lock, r->id.pid, &from);

	span = lock->pending.open && l->now_ns > from ? l->now_ns - from : 0;
	for (i = 0; span && mine; i++, mine >>= 1) {
		const struct lb_past *p = &b->wait[i];
		u64 a = max(p->begin_ns, from), e = min(p->end_ns, l->now_ns), rest;
		struct lb_task *h = lb_task_find(l, p->holder);

		if (!(mine & 1) || e <= a)
			continue;
		rest = h && h != r ? lb_scale(d->ns, e - a, span) : 0;
		n = lb_past_shares(l, p->holder, a, e, r, sh);
		for (k = 0; k < n; k++) {
			u64 part = lb_scale(d->ns, sh[k].end_ns - sh[k].begin_ns, span);

			rest -= min(rest, part);
			if (sh[k].root)
				lb_past_debt_part(l, d, sh[k].root, part, &left);
		}
		if (rest)
			lb_past_debt_part(l, d, h, rest, &left);
	}
	if (left) {
		struct lb_route e = *d;

		e.ns = left;
		lb_root_debt_pay(l, &e, r);
	}
}
