// SPDX-License-Identifier: GPL-2.0
/*
 * Blame by pair and by cgroup: every (holder, victim) charge goes to the
 * pair table and is also summed by the holder's cgroup and the victim's, so
 * "a task of container A holds the lock container B waits on" is one
 * record (a fixed table in the ledger). A segment's charges wait in the
 * waiter until its holder changes, its wait ends or a reader comes.
 */
#include "ledger_internal.h"

static u32 lb_cgroup_pair_slot(u64 holder, u64 victim)
{
	return hash_64(holder * 31 + victim, LB_CGROUP_PAIR_BITS);
}

void lb_cgroup_pairs_init(struct lb_ledger *l)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(l->cgroup_pair_hash); i++)
		INIT_HLIST_HEAD(&l->cgroup_pair_hash[i]);
	l->nr_cgroup_pairs = 0;
	l->cgroup_pair_last = 0;
}

/* The pair of @holder's and @victim's cgroups, made if there is room. */
static noinline struct lb_cgroup_pair *lb_cgroup_pair_make(struct lb_ledger *l, u64 holder,
							   u64 victim)
{
	struct hlist_head *head = &l->cgroup_pair_hash[lb_cgroup_pair_slot(holder, victim)];
	struct lb_cgroup_pair *cp;

	hlist_for_each_entry(cp, head, hnode)
		if (cp->holder == holder && cp->victim == victim)
			goto found;
	if (l->nr_cgroup_pairs == LB_CGROUP_PAIRS)
		return NULL;
	cp = &l->cgroup_pair[l->nr_cgroup_pairs++];
	cp->holder = holder;
	cp->victim = victim;
	cp->blame_ns = 0;
	hlist_add_head(&cp->hnode, head);
found:
	l->cgroup_pair_last = cp - l->cgroup_pair;
	return cp;
}

/*
 * Most charges go to the pair the last one went to (a container's tasks
 * waiting on each other, or on another's): inline, looked at first.
 */
static inline struct lb_cgroup_pair *lb_cgroup_pair_get(struct lb_ledger *l, u64 holder,
							u64 victim)
{
	struct lb_cgroup_pair *cp = &l->cgroup_pair[l->cgroup_pair_last];

	if (l->cgroup_pair_last < l->nr_cgroup_pairs && cp->holder == holder &&
	    cp->victim == victim)
		return cp;
	return lb_cgroup_pair_make(l, holder, victim);
}

/*
 * @ns of @w's waiting charged to holder @pid of cgroup @cgroup: by task and by
 * cgroup. The tables are apart, so the pair comes last: nothing is left to
 * do after that call, and its caller's registers need no saving for it.
 */
static void lb_blame_pair_now(struct lb_ledger *l, s32 pid, u64 cgroup, struct lb_waiter *w,
			      u64 ns)
{
	struct lb_cgroup_pair *cp;

	lb_outlier_note_blame(w, pid, ns);
	cp = lb_cgroup_pair_get(l, cgroup, w->cgroup);
	if (cp)
		cp->blame_ns += ns;
	else
		l->totals.dropped_pairs++;
	lb_pair_add(l, pid, w->pid, ns);
}

/*
 * The blame a segment put aside for @w (some), to the tables: its stretch is
 * over. Taken out first, so that the charge is a tail call.
 */
void lb_waiter_pair_charge(struct lb_ledger *l, struct lb_waiter *w)
{
	u64 ns = w->acc_pair_ns;

	w->acc_pair_ns = 0;
	lb_blame_pair_now(l, w->acc_pid, w->acc_cgroup, w, ns);
}

/* @ns of @w's waiting charged to @holder, after what was put aside before. */
void lb_blame_pair(struct lb_ledger *l, const struct lb_task *holder,
		   struct lb_waiter *w, u64 ns)
{
	lb_waiter_flush_pair(l, w);
	if (w->cur_holder != holder->id.pid)
		lb_outlier_stretch_over(l, w);
	lb_blame_pair_now(l, holder->id.pid, holder->id.cgroup, w, ns);
}

/* @w's stretch under another holder is over: its charges to the tables. */
void lb_blame_pair_switch(struct lb_ledger *l, const struct lb_task *holder,
			  struct lb_waiter *w)
{
	lb_waiter_flush_pair(l, w);
	if (w->cur_holder != holder->id.pid)
		lb_outlier_stretch_over(l, w);
	w->acc_pid = holder->id.pid;
	w->acc_cgroup = holder->id.cgroup;
}

/* Every live wait's, for a reader (lb_ledger_advance). */
void lb_waiters_flush(struct lb_ledger *l)
{
	struct lb_waiter *w;
	struct lb_lock *lock;

	list_for_each_entry(lock, &l->active_locks, lru)
		list_for_each_entry(w, &lock->waiters, lock_node)
			lb_waiter_flush(l, w);
}

/* Take back what lb_blame_pair charged to @holder for @w. */
void lb_blame_pair_take(struct lb_ledger *l, const struct lb_task *holder,
			struct lb_waiter *w, u64 ns)
{
	struct lb_cgroup_pair *cp;

	lb_waiter_flush_pair(l, w);
	lb_pair_take(l, holder->id.pid, w->pid, ns);
	lb_outlier_take_blame(w, holder->id.pid, ns);
	cp = lb_cgroup_pair_get(l, holder->id.cgroup, w->cgroup);
	if (cp)
		cp->blame_ns -= min(ns, cp->blame_ns);
}

u64 lb_ledger_cgroup_blame(const struct lb_ledger *l, u64 holder, u64 victim)
{
	u32 i;

	for (i = 0; i < l->nr_cgroup_pairs; i++)
		if (l->cgroup_pair[i].holder == holder && l->cgroup_pair[i].victim == victim)
			return l->cgroup_pair[i].blame_ns;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(lb_ledger_cgroup_blame);

/* "cgroup:ID", or "-" when not known; the reader turns ids into paths. */
static const char *lb_fmt_cgroup(char *buf, size_t size, u64 id)
{
	if (!id)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "cgroup:%llu", id);
	return buf;
}

/* The next row: the most blame after @last (ties in table order). */
static const struct lb_cgroup_pair *
lb_cgroup_pair_next(const struct lb_ledger *l, const struct lb_cgroup_pair *last)
{
	const struct lb_cgroup_pair *best = NULL, *cp;
	u32 i;

	for (i = 0; i < l->nr_cgroup_pairs; i++) {
		cp = &l->cgroup_pair[i];
		if (last && (cp->blame_ns > last->blame_ns ||
			     (cp->blame_ns == last->blame_ns && cp <= last)))
			continue;
		if (!best || cp->blame_ns > best->blame_ns)
			best = cp;
	}
	return best;
}

/* The report's CGROUPS section: blame by holder's and victim's cgroup, most first. */
void lb_report_cgroups(const struct lb_ledger *l, struct lb_out *out)
{
	char h[LB_CGROUP_LEN], v[LB_CGROUP_LEN], d[24];
	const struct lb_cgroup_pair *cp = NULL;

	out->printf(out, "\nCGROUPS: blame by the holder's cgroup and the victim's (%u)\n",
		    l->nr_cgroup_pairs);
	if (!l->nr_cgroup_pairs) {
		out->printf(out, "  none\n");
		return;
	}
	out->printf(out, "  %-26s    %-26s %8s\n", "holder cgroup", "victim cgroup", "blame");
	while ((cp = lb_cgroup_pair_next(l, cp)))
		out->printf(out, "  %-26s -> %-26s %8s\n",
			    lb_fmt_cgroup(h, sizeof(h), cp->holder),
			    lb_fmt_cgroup(v, sizeof(v), cp->victim),
			    lb_fmt_ns(d, sizeof(d), cp->blame_ns));
	out->printf(out, "  ids are cgroup v2 inode numbers (lockblame --by-cgroup names them);\n"
		    "  -: not known\n");
}
