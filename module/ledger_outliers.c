// SPDX-License-Identifier: GPL-2.0
/*
 * The worst cases, kept whole: every wait or contended hold of at least
 * outlier_ns, with its victim, its holder, their stacks, why the holder was
 * slow and the chain's root, in a table of LB_OUTLIERS: half of it for
 * waits and half for holds, each half keeping its longest and counting the
 * others (totals.outliers_missed). One table for both would hold waits only
 * under steady contention: a wait outlasts the contended part of the hold
 * it waited for, and there are as many waits as waiters.
 */
#include "ledger_internal.h"

u32 lb_ledger_nr_outliers(const struct lb_ledger *l)
{
	return l->nr_outliers;
}
EXPORT_SYMBOL_IF_KUNIT(lb_ledger_nr_outliers);

bool lb_ledger_outlier(const struct lb_ledger *l, u32 i, struct lb_outlier *o)
{
	if (i >= l->nr_outliers)
		return false;
	*o = l->outlier[i];
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(lb_ledger_outlier);

/*
 * The slot for an outlier of @kind and @ns: a free one while its kind has
 * fewer than half the table, or the shortest of its kind if that is shorter;
 * NULL if every one of its kind is at least as long. Either way, when its
 * half is full one outlier is not kept, and counted.
 */
static struct lb_outlier *lb_outlier_slot(struct lb_ledger *l, u8 kind, u64 ns)
{
	struct lb_outlier *min = NULL;
	u32 i, n = 0;

	for (i = 0; i < l->nr_outliers; i++) {
		if (l->outlier[i].kind != kind)
			continue;
		n++;
		if (!min || l->outlier[i].ns < min->ns)
			min = &l->outlier[i];
	}
	if (n < LB_OUTLIERS / 2)
		return &l->outlier[l->nr_outliers++];
	l->totals.outliers_missed++;
	if (min->ns >= ns)
		return NULL;
	if (min->release_owed)
		l->outliers_owed--;
	return min;
}

/*
 * The root cause blame on @lock flowed to past @holder (ledger_chain.c's
 * records): the root that received the most; 0 when @holder kept it all.
 */
static s32 lb_outlier_root(const struct lb_ledger *l, u64 lock, s32 holder)
{
	u64 most = 0;
	s32 root = 0;
	u32 i;

	for (i = 0; i < l->nr_chains; i++) {
		const struct lb_chain *c = &l->chains[i];

		if (c->victim_lock == lock && c->holder == holder && c->root != holder &&
		    c->blame_ns > most) {
			most = c->blame_ns;
			root = c->root;
		}
	}
	return root;
}

/* Who @pid is, if the task table still knows; else only its pid. */
static void lb_outlier_who(const struct lb_ledger *l, s32 pid, struct lb_task_id *id)
{
	const struct lb_task *t = pid ? lb_task_find(l, pid) : NULL;

	if (t) {
		*id = t->id;
		return;
	}
	memset(id, 0, sizeof(*id));
	id->pid = pid;
}

/* @r as an outlier names it. */
static void lb_rel_note_of(const struct lb_release *r, struct lb_rel_note *n)
{
	const struct lb_hold_split *s = &r->split;
	u64 known = s->on + s->runnable + s->cpu_unknown + s->runnable_unknown;

	n->stack_id = r->stack_id;
	n->ustack_id = r->ustack_id;
	n->on_cpu_ns = s->on;
	n->runnable_ns = s->runnable;
	n->unknown_ns = s->cpu_unknown + s->runnable_unknown;
	n->sleeping_ns = r->hold_ns > known ? r->hold_ns - known : 0;
	n->seq = r->seq;
}

/* @w's top stretch ended with release @r: keep it for its outlier. */
static void lb_rel_note_keep(struct lb_ledger *l, struct lb_waiter *w,
			     const struct lb_release *r)
{
	struct lb_rel_note *n = &l->rel_notes[r->seq % LB_REL_NOTES];

	if (n->seq != r->seq)
		lb_rel_note_of(r, n);
	w->top_rel = r->seq;
	w->top_rel_wanted = false;
	if (w->cur_holder == r->pid)
		w->cur_closed = true;
}

/* The release @seq kept by lb_rel_note_keep, or NULL if its slot was taken since. */
static const struct lb_rel_note *lb_rel_note_find(const struct lb_ledger *l, u32 seq)
{
	const struct lb_rel_note *n = &l->rel_notes[seq % LB_REL_NOTES];

	return seq && n->seq == seq ? n : NULL;
}

/*
 * @holder's release @n (NULL: not known) on @lock as @o's: its task,
 * stacks, hold and root.
 */
static void lb_outlier_holder(const struct lb_ledger *l, u64 lock, s32 holder,
			      const struct lb_rel_note *n, struct lb_outlier *o)
{
	lb_outlier_who(l, holder, &o->holder);
	o->root = lb_outlier_root(l, lock, holder);
	if (!n)
		return;
	o->holder_stack = n->stack_id;
	o->holder_ustack = n->ustack_id;
	o->on_cpu_ns = n->on_cpu_ns;
	o->runnable_ns = n->runnable_ns;
	o->unknown_ns = n->unknown_ns;
	o->sleeping_ns = n->sleeping_ns;
}

/* @lock's last release as @o's holder. */
static void lb_outlier_release(const struct lb_ledger *l, const struct lb_lock *lock,
			       struct lb_outlier *o)
{
	struct lb_rel_note n;

	lb_rel_note_of(&lock->release, &n);
	lb_outlier_holder(l, lock->id, lock->release.pid, &n, o);
}

/*
 * @w's top stretch ends as another holder's begins. Its holder's release
 * ended it, and is the one an outlier names, whatever holds end on the lock
 * before the wait does (the lock passing through other waiters' hands
 * first): kept when it was recorded (lb_outliers_note_release), or the
 * lock's last release if that is it. Else that release is still to be seen
 * (committed when futex_wake returns, behind the task it woke), and wanted.
 * Only while outliers are kept (lb_outlier_stretch_over looks).
 */
void lb_outlier_stretch_end(struct lb_ledger *l, struct lb_waiter *w)
{
	const struct lb_release *r = &w->lock->release;

	if (w->top_rel)
		return;
	if (r->pid == w->cur_holder && r->ts >= w->begin_ns)
		lb_rel_note_keep(l, w, r);
	else
		w->top_rel_wanted = true;
}

/*
 * @lock's release was just recorded: each wait on it whose top stretch is
 * its releaser's, going on until now or ended before (wanted), keeps it.
 * A live wait's deferred charges go to its stretches first (@live).
 */
static void lb_outliers_note_release(struct lb_ledger *l, struct lb_lock *lock,
				     struct list_head *waits, bool live)
{
	const struct lb_release *r = &lock->release;
	struct lb_waiter *w;

	list_for_each_entry(w, waits, lock_node) {
		if (live)
			lb_waiter_flush(l, w);
		if (w->top_holder != r->pid || r->ts < w->begin_ns)
			continue;
		if (w->top_rel_wanted ||
		    (w->cur_holder == r->pid && w->cur_ns == w->top_ns && !w->cur_closed))
			lb_rel_note_keep(l, w, r);
	}
}

/*
 * @lock's release: each wait on it, going on or ended with its blame
 * pending, keeps it if its top stretch is the releaser's (while outliers
 * are kept). Run when the release is recorded, and again once it has named
 * its releaser for the waiting that was pending (lb_pending_close): before
 * the naming it was kept for no wait whose time was still pending on a
 * woken waiter that then waited again (the disown path).
 */
void lb_outliers_note_releases(struct lb_ledger *l, struct lb_lock *lock)
{
	if (!l->opts.outlier_ns)
		return;
	lb_outliers_note_release(l, lock, &lock->waiters, true);
	lb_outliers_note_release(l, lock, &lock->ghosts, false);
}

static void lb_outlier_lock(struct lb_outlier *o, const struct lb_lock *lock, u8 kind, u64 ns,
			    u64 ts)
{
	memset(o, 0, sizeof(*o));
	o->kind = kind;
	o->ns = ns;
	o->ts_ns = ts;
	o->lock = lock->id;
	o->lock_class = lock->lock_class;
	o->name_id = lock->name_id;
}

/*
 * @ns of @w's current stretch under @holder was not @holder's doing after
 * all (lb_pending_disown): the stretch, and the longest if it was this one,
 * shrink by it.
 */
void lb_outlier_take_blame(struct lb_waiter *w, s32 holder, u64 ns)
{
	bool top = w->top_holder == holder && w->top_ns == w->cur_ns;

	if (w->cur_holder != holder)
		return;
	w->cur_ns -= min(ns, w->cur_ns);
	if (top)
		w->top_ns = w->cur_ns;
}

/*
 * Wait @w ended, and was long: its holder is the task that made it wait
 * longest in one stretch, with the stacks and split of the release that
 * ended that stretch: kept when the stretch ended (lb_outlier_stretch_end),
 * or the lock's last release if it was that one; if that task still holds
 * the lock, they come with its release (a release is committed when
 * futex_wake returns, and the task it woke can end its wait first:
 * lb_outliers_settle). Else the task whose release ended it, else the
 * lock's known holder, else not known.
 */
void lb_outlier_wait(struct lb_ledger *l, struct lb_waiter *w)
{
	const struct lb_lock *lock = w->lock;
	s32 rel = lock ? lock->release.pid : 0;
	const struct lb_task *top;
	struct lb_outlier *o;

	w->outlier = false;
	if (!lock)
		return;
	o = lb_outlier_slot(l, LB_OUTLIER_WAIT, w->wait_ns);
	if (!o)
		return;
	lb_outlier_lock(o, lock, LB_OUTLIER_WAIT, w->wait_ns, w->begin_ns + w->wait_ns);
	lb_outlier_who(l, w->pid, &o->victim);
	o->victim_stack = w->stack_id;
	o->victim_ustack = w->ustack_id;
	if (w->top_holder && w->top_rel) {
		lb_outlier_holder(l, lock->id, w->top_holder, lb_rel_note_find(l, w->top_rel), o);
	} else if (rel && rel != w->pid && lock->release.ts >= w->begin_ns &&
		   (!w->top_holder || w->top_holder == rel)) {
		lb_outlier_release(l, lock, o);
	} else if (w->top_holder) {
		lb_outlier_who(l, w->top_holder, &o->holder);
		o->root = lb_outlier_root(l, lock->id, w->top_holder);
		top = lb_task_find(l, w->top_holder);
		o->release_owed = w->top_rel_wanted || (top && lb_holder_find(w->lock, top));
		l->outliers_owed += o->release_owed;
	} else if (lock->nr_holders && lock->holder[0].task->id.pid != w->pid) {
		o->holder = lock->holder[0].task->id;
	}
}

/*
 * @lock's release was just recorded: the wait outliers that named its
 * releaser as their holder before its release was seen get its stacks,
 * split and root now, and the waits on it still going (or ended with
 * blame pending) keep it if they wanted it.
 */
void lb_outliers_settle_kept(struct lb_ledger *l, struct lb_lock *lock)
{
	u32 i;

	lb_outliers_note_releases(l, lock);
	for (i = 0; l->outliers_owed && i < l->nr_outliers; i++) {
		struct lb_outlier *o = &l->outlier[i];

		if (!o->release_owed || o->lock != lock->id ||
		    o->holder.pid != lock->release.pid)
			continue;
		lb_outlier_release(l, lock, o);
		o->release_owed = false;
		l->outliers_owed--;
	}
}

/*
 * @r's hold on @lock, just released, was long: its victim is the longest
 * waiter still on the lock, live or ended with its blame pending.
 */
void lb_outlier_hold(struct lb_ledger *l, struct lb_lock *lock, const struct lb_task *r)
{
	const struct lb_waiter *w;
	struct lb_outlier *o;

	o = lb_outlier_slot(l, LB_OUTLIER_HOLD, lock->release.hold_ns);
	if (!o)
		return;
	lb_outlier_lock(o, lock, LB_OUTLIER_HOLD, lock->release.hold_ns, lock->release.ts);
	lb_outlier_release(l, lock, o);
	o->holder = r->id;
	if (!list_empty(&lock->waiters))
		w = list_first_entry(&lock->waiters, struct lb_waiter, lock_node);
	else if (!list_empty(&lock->ghosts))
		w = list_first_entry(&lock->ghosts, struct lb_waiter, lock_node);
	else
		return;
	lb_outlier_who(l, w->pid, &o->victim);
	o->victim_stack = w->stack_id;
	o->victim_ustack = w->ustack_id;
}

static const char *const lb_outlier_kind_names[LB_OUTLIER_KIND_MAX] = LB_OUTLIER_KIND_NAMES;

static const char *lb_outlier_kind_name(u8 kind)
{
	return kind < LB_OUTLIER_KIND_MAX ? lb_outlier_kind_names[kind] : "?";
}

/* @l's outliers' indices, longest first. */
static void lb_outliers_sort(const struct lb_ledger *l, u8 *idx)
{
	u32 i, j;

	for (i = 0; i < l->nr_outliers; i++) {
		for (j = i; j && l->outlier[idx[j - 1]].ns < l->outlier[i].ns; j--)
			idx[j] = idx[j - 1];
		idx[j] = i;
	}
}

static void lb_outlier_show(const struct lb_ledger *l, struct lb_out *out,
			    const struct lb_outlier *o)
{
	const char *name = o->name_id && l->name_of ? l->name_of(o->name_id) : NULL;
	char dur[16], on[16], rq[16], sl[16], unk[16];
	char vc[LB_ESC_LEN], hc[LB_ESC_LEN];
	u64 end = o->ts_ns > l->first_ns ? o->ts_ns - l->first_ns : 0;

	lb_escape_comm(vc, o->victim.pid ? o->victim.comm : "-");
	lb_escape_comm(hc, o->holder.pid ? o->holder.comm : "unknown");
	out->printf(out, "%-4s %9s %6llu.%03llu %016llx %-8s %7d %7d %-16s %7d %7d %-16s",
		    lb_outlier_kind_name(o->kind), lb_fmt_ns(dur, sizeof(dur), o->ns),
		    div_u64(end, 1000000000), div_u64(end, 1000000) % 1000, o->lock,
		    lb_class_name(o->lock_class), o->victim.pid, o->victim.tgid, vc,
		    o->holder.pid, o->holder.tgid, hc);
	out->printf(out, " %8s %8s %8s %8s %7d %8u %8u %8u %8u %s\n",
		    lb_fmt_ns(on, sizeof(on), o->on_cpu_ns),
		    lb_fmt_ns(rq, sizeof(rq), o->runnable_ns),
		    lb_fmt_ns(sl, sizeof(sl), o->sleeping_ns),
		    lb_fmt_ns(unk, sizeof(unk), o->unknown_ns), o->root,
		    o->victim_stack, o->victim_ustack, o->holder_stack, o->holder_ustack,
		    name && name[0] ? name : "-");
}

void lb_ledger_outliers(const struct lb_ledger *l, struct lb_out *out)
{
	char thr[16];
	u8 idx[LB_OUTLIERS];
	u32 i;

	out->printf(out, "# lockblame outliers v1: threshold %s, kept %u of %u, not kept %llu\n",
		    l->opts.outlier_ns ? lb_fmt_ns(thr, sizeof(thr), l->opts.outlier_ns) : "off",
		    l->nr_outliers, LB_OUTLIERS, l->totals.outliers_missed);
	out->printf(out, "%-4s %9s %10s %-16s %-8s %7s %7s %-16s %7s %7s %-16s",
		    "kind", "duration", "end_s", "lock", "class", "victim", "tgid", "comm",
		    "holder", "tgid", "comm");
	out->printf(out, " %8s %8s %8s %8s %7s %8s %8s %8s %8s %s\n",
		    "on_cpu", "runnable", "asleep", "unknown", "root",
		    "vkstack", "vustack", "hkstack", "hustack", "name");
	lb_outliers_sort(l, idx);
	for (i = 0; i < l->nr_outliers; i++)
		lb_outlier_show(l, out, &l->outlier[idx[i]]);
}
EXPORT_SYMBOL_IF_KUNIT(lb_ledger_outliers);
