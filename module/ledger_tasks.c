// SPDX-License-Identifier: GPL-2.0
/*
 * The ledger's tasks and their processes: lookup, identity, pinning and
 * eviction, in tables allocated once (ledger_tables.c).
 */
#include "ledger_internal.h"

/*
 * What a task or a process is worth keeping: the blame and the waiting the
 * report ranks it by.
 */
static u64 lb_worth(const struct lb_account *a)
{
	return lb_sum_sat(a->wait_ns, a->blame_ns);
}

/* Processes */

static void lb_proc_set_comm(struct lb_proc *p, const struct lb_task_id *id)
{
	bool leader = id->pid == id->tgid;

	/* The event's process name wins; else the leader's comm, else the first. */
	if (id->pcomm[0]) {
		memcpy(p->comm, id->pcomm, LB_COMM_LEN);
		return;
	}
	if (!id->comm[0] || (!leader && p->comm[0]))
		return;
	memcpy(p->comm, id->comm, LB_COMM_LEN);
}

/* A process no tracked task refers to, to forget: the least worth of the oldest few. */
static struct lb_proc *lb_proc_victim(struct lb_ledger *l)
{
	struct lb_proc *p, *best = NULL;
	u32 n = 0;

	list_for_each_entry_reverse(p, &l->proc_lru, lru) {
		if (!best || lb_worth(&p->acct) < lb_worth(&best->acct))
			best = p;
		if (++n == LB_EVICT_SCAN)
			break;
	}
	return best;
}

/* Find or make the process of @id and take a task reference on it. */
static struct lb_proc *lb_proc_attach(struct lb_ledger *l, const struct lb_task_id *id,
				      bool kthread)
{
	struct lb_proc *p = lb_proc_find(l, id->tgid);

	if (!p) {
		/* A free slot was never used (lb_slots_init zeroed it). */
		if (!list_empty(&l->free_procs)) {
			p = list_first_entry(&l->free_procs, struct lb_proc, lru);
			list_del_init(&p->lru);
		} else if (!list_empty(&l->proc_lru)) {
			p = lb_proc_victim(l);
			hlist_del_init(&p->hnode);
			list_del_init(&p->lru);
			memset(p, 0, sizeof(*p));
			INIT_HLIST_NODE(&p->hnode);
			INIT_LIST_HEAD(&p->lru);
		} else {
			return NULL;
		}
		p->tgid = id->tgid;
		hlist_add_head(&p->hnode, &l->proc_hash[hash_64((u32)id->tgid, l->proc_bits)]);
	}
	if (!p->nr_tasks++)
		list_del_init(&p->lru);
	p->kthread = kthread;
	if (id->cgroup)
		p->cgroup = id->cgroup;
	lb_proc_set_comm(p, id);
	return p;
}

static void lb_proc_detach(struct lb_ledger *l, struct lb_proc *p)
{
	if (!p || --p->nr_tasks)
		return;
	list_add(&p->lru, &l->proc_lru);
}

/* Tasks */

static u32 lb_task_bucket(const struct lb_task *t)
{
	return fls64(lb_worth(&t->acct));
}

/* @t's last pin is gone: it is filed by its worth, for eviction (lb_task_unpin). */
void lb_task_unpinned(struct lb_ledger *l, struct lb_task *t)
{
	list_add(&t->lru, &l->task_lru[lb_task_bucket(t)]);
}

/*
 * Give a lock's top slot to @t (NULL: to nobody). The slot pins its task, so
 * that a lock's heaviest causes and victims stay while the lock does: a herd
 * heavier than them elsewhere cannot evict the story of a quieter lock. At
 * most a quarter of the task slots are pinned so; past that a top slot pins
 * nothing (the first locks seen keep theirs).
 */
static __always_inline void lb_top_give(struct lb_ledger *l, struct lb_top *slot,
					struct lb_task *t)
{
	struct lb_task *old;

	if (slot->pinned) {
		old = lb_task_find(l, slot->pid);
		if (old) {
			old->tops--;
			lb_task_unpin(l, old);
		}
		slot->pinned = false;
		l->nr_top_pins--;
	}
	slot->pid = t ? t->id.pid : 0;
	if (t && l->nr_top_pins < l->limits.max_tasks / 4) {
		lb_task_pin(t);
		t->tops++;
		slot->pinned = true;
		l->nr_top_pins++;
	}
}

void lb_top_take(struct lb_ledger *l, struct lb_top *slot, struct lb_task *t)
{
	lb_top_give(l, slot, t);
}

/*
 * Remember the heaviest causes or victims of a lock (space-saving: a
 * newcomer takes the lightest slot and its count, so a heavy hitter is never
 * missed; counts are exact while a lock has at most LB_LOCK_TOP of them).
 * The slot keeps its task tracked (lb_top_take). @t has no slot up to the
 * first empty one, @empty (lb_top_add looked; LB_LOCK_TOP: none): that one,
 * else the lightest, the first of those as light.
 */
void lb_top_claim(struct lb_ledger *l, struct lb_top *top, u32 empty, struct lb_task *t, u64 ns)
{
	u32 i, lightest = empty;

	if (empty == LB_LOCK_TOP)
		for (lightest = 0, i = 1; i < LB_LOCK_TOP; i++)
			if (top[i].ns < top[lightest].ns)
				lightest = i;
	lb_top_give(l, &top[lightest], t);
	top[lightest].ns += ns;
}

/* Take @ns back from @pid's slot in @top, if it has one (saturating at 0). */
void lb_top_less(struct lb_top *top, s32 pid, u64 ns)
{
	u32 i;

	for (i = 0; i < LB_LOCK_TOP; i++)
		if (top[i].pid == pid)
			top[i].ns -= min(ns, top[i].ns);
}

static void lb_task_touch(struct lb_ledger *l, struct lb_task *t)
{
	if (!t->pins)
		list_move(&t->lru, &l->task_lru[lb_task_bucket(t)]);
}

/* The names an event carries, those it has: the latest win. */
static void lb_task_take_names(struct lb_task *t, const struct lb_task_id *id)
{
	if (id->comm[0])
		memcpy(t->id.comm, id->comm, LB_COMM_LEN);
	if (id->pcomm[0])
		memcpy(t->id.pcomm, id->pcomm, LB_COMM_LEN);
}

/* Take the identity carried by an event: the latest comm and tgid win. */
static void lb_task_set_id(struct lb_ledger *l, struct lb_task *t,
			   const struct lb_task_id *id, bool kthread)
{
	lb_task_take_names(t, id);
	/* A task may move between cgroups: the latest known one wins. */
	if (id->cgroup)
		t->id.cgroup = id->cgroup;
	if (kthread)
		t->kthread = true;
	if (id->tgid <= 0)
		return;
	if (t->proc && t->id.tgid == id->tgid) {
		lb_proc_set_comm(t->proc, id);
		if (id->cgroup)
			t->proc->cgroup = id->cgroup;
		return;
	}
	lb_proc_detach(l, t->proc);
	t->id.tgid = id->tgid;
	/* Making room for the process evicts a process, never a task: no pin. */
	t->proc = lb_proc_attach(l, &t->id, t->kthread);
}

/*
 * The mean worth of the tracked tasks, when every task slot is in use: the
 * totals' waiting and blame less what evicted tasks took with them. An
 * estimate (waiting taken back after its task was evicted is not
 * subtracted), which is all a bar needs.
 */
static u64 lb_task_bar(const struct lb_ledger *l)
{
	u64 all = lb_sum_sat(l->totals.wait_ns, l->totals.blame_ns);
	u64 gone = lb_sum_sat(l->totals.evicted_wait_ns, l->totals.evicted_blame_ns);

	return div_u64(all - min(all, gone), l->limits.max_tasks);
}

/*
 * The least worth of the unpinned tasks: the first bucket holding any, and in
 * it the least of the least recently used few. A task whose worth grew since
 * it was filed (blame charged without an event of its own) moves up first.
 */
static struct lb_task *lb_task_least(struct lb_ledger *l)
{
	struct lb_task *t, *next, *best = NULL;
	u64 worth, least = U64_MAX;
	u32 b, now, n;

	for (b = 0; b < LB_WORTH_BUCKETS && !best; b++) {
		n = 0;
		list_for_each_entry_safe_reverse(t, next, &l->task_lru[b], lru) {
			now = lb_task_bucket(t);
			if (now > b) {
				list_move_tail(&t->lru, &l->task_lru[now]);
				continue;
			}
			worth = lb_worth(&t->acct);
			if (!best || worth < least) {
				best = t;
				least = worth;
			}
			if (!least || ++n == LB_EVICT_SCAN)
				break;
		}
	}
	return best;
}

/*
 * Which unpinned task to forget for a newcomer: the least worth of all, if it
 * is worth no more than the mean. Else none: the newcomer, worth nothing yet,
 * is the least significant, and a herd of them cannot push out the culprit
 * and the victims seen before it.
 */
static struct lb_task *lb_task_victim(struct lb_ledger *l)
{
	struct lb_task *best = lb_task_least(l);

	if (best && lb_worth(&best->acct) > lb_task_bar(l))
		return NULL;
	return best;
}

/* Forget @t; the waiting and blame it carried stay in the totals, and are counted. */
static void lb_task_evict(struct lb_ledger *l, struct lb_task *t)
{
	hlist_del_init(&t->hnode);
	lb_proc_detach(l, t->proc);
	t->proc = NULL;
	l->totals.evicted_tasks++;
	l->totals.evicted_wait_ns += t->acct.wait_ns;
	l->totals.evicted_blame_ns += t->acct.blame_ns;
}

/*
 * The identity carried by an event that files nothing under its task (an
 * event wait), for a task already tracked: a thread named after it first
 * waited (a pool's worker renames itself once it runs, and on kernels
 * without per-VMA locks its first stack fault may wait for mmap_lock
 * before that) is reported by its latest name, as it would be had it
 * waited for a lock again.
 */
void lb_task_rename(struct lb_ledger *l, const struct lb_task_id *id)
{
	struct lb_task *t;

	if (!id->comm[0])
		return;
	t = lb_task_find(l, id->pid);
	/* A tgid that changed (an exec by a thread) is lb_task_get's to follow. */
	if (!t || t->id.tgid != id->tgid)
		return;
	lb_task_take_names(t, id);
	if (t->proc)
		lb_proc_set_comm(t->proc, id);
}

/*
 * An evicted task's slot, cleared; NULL when every task is pinned. The bar
 * reads the totals: the time locks kept goes in first, or whether a task is
 * evicted would depend on which locks kept theirs. Out of line: a free
 * slot, the common case, need not save the registers eviction uses.
 */
static noinline struct lb_task *lb_task_evict_one(struct lb_ledger *l)
{
	struct lb_task *t;

	lb_locks_catch_up(l);
	t = lb_task_victim(l);
	if (!t) {
		l->totals.refused_tasks++;
		return NULL;
	}
	lb_task_evict(l, t);
	list_del_init(&t->lru);
	memset(t, 0, sizeof(*t));
	INIT_HLIST_NODE(&t->hnode);
	return t;
}

/*
 * A task slot for @pid, new to the table: a free one, else an evicted one;
 * NULL when every task is pinned. Out of line: most events' tasks are known.
 * A free slot was never used (lb_slots_init zeroed it): only an evicted one
 * is cleared.
 */
static noinline struct lb_task *lb_task_new(struct lb_ledger *l, s32 pid)
{
	struct lb_task *t;

	if (!list_empty(&l->free_tasks)) {
		t = list_first_entry(&l->free_tasks, struct lb_task, lru);
		list_del_init(&t->lru);
	} else {
		t = lb_task_evict_one(l);
		if (!t)
			return NULL;
	}
	t->id.pid = pid;
	hlist_add_head(&t->hnode, &l->task_hash[hash_64((u32)pid, l->task_bits)]);
	list_add(&t->lru, &l->task_lru[0]);
	return t;
}

/* Find or make the task of @id (pid > 0); NULL when every task is pinned. */
struct lb_task *lb_task_get(struct lb_ledger *l, const struct lb_task_id *id, bool kthread)
{
	struct lb_task *t = lb_task_find(l, id->pid);

	/* A new task is worth nothing yet: lb_task_new filed it first in its bucket. */
	if (unlikely(!t)) {
		t = lb_task_new(l, id->pid);
		if (!t)
			return NULL;
	} else {
		lb_task_touch(l, t);
	}
	lb_task_set_id(l, t, id, kthread);
	return t;
}
