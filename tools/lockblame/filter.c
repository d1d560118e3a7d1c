// SPDX-License-Identifier: GPL-2.0
/*
 * The --pid, --tgid, --comm and --lock filters: mark which ledger records
 * every output shows. Task records carry no lock, so under --lock a task is
 * one the dump links to that lock: its holder, its top cause, a chain or a
 * deadlock through it. Event waits (evwait and signal records) are on no
 * lock: --lock leaves them out, and the task filters keep a signal when its
 * waiter or its waker passes.
 */
#include <stdlib.h>
#include <string.h>
#include "lockblame.h"

bool lbt_filter_tasks(const struct lbt_filter *f)
{
	return f->pid_set || f->tgid_set || f->comm_set;
}

bool lbt_filter_active(const struct lbt_filter *f)
{
	return lbt_filter_tasks(f) || f->lock_set;
}

/* Whether an identity passes --pid, --tgid and --comm. */
bool lbt_filter_event_id(const struct lbt_filter *f, int32_t pid, int32_t tgid,
			 const struct lbt_comm *comm)
{
	if (f->pid_set && pid != f->pid)
		return false;
	if (f->tgid_set && tgid != f->tgid)
		return false;
	if (f->comm_set && !lbt_comm_eq(comm, &f->comm))
		return false;
	return true;
}

static bool lbt_chain_on_lock(const struct lbt_chain *c, uint64_t lock)
{
	return c->victim_lock == lock || c->waits_on == lock;
}

static bool lbt_deadlock_has_lock(const struct lbt_deadlock *d, uint64_t lock)
{
	unsigned int i;

	for (i = 0; i < d->locks.n; i++)
		if (d->locks.v[i] == lock)
			return true;
	return false;
}

static bool lbt_deadlock_has_task(const struct lbt_deadlock *d, int32_t pid)
{
	unsigned int i;

	for (i = 0; i < d->tasks.n; i++)
		if (d->tasks.v[i] == pid)
			return true;
	return false;
}

/* Is @pid linked to the --lock lock by the dump? */
static bool lbt_linked_to_lock(const struct lbt_doc *doc, uint64_t lock, int32_t pid)
{
	size_t i;

	for (i = 0; i < LBT_ROWS(doc, LBT_T_LOCK); i++) {
		const struct lbt_lock *l = LBT_REC(doc, LBT_T_LOCK, struct lbt_lock, i);

		if (l->id == lock && pid && (l->holder == pid || l->top_cause == pid))
			return true;
	}
	for (i = 0; i < LBT_ROWS(doc, LBT_T_CHAIN); i++) {
		const struct lbt_chain *c = LBT_REC(doc, LBT_T_CHAIN, struct lbt_chain, i);

		if (lbt_chain_on_lock(c, lock) && (c->holder == pid || c->root == pid))
			return true;
	}
	for (i = 0; i < LBT_ROWS(doc, LBT_T_DEADLOCK); i++) {
		const struct lbt_deadlock *d = LBT_REC(doc, LBT_T_DEADLOCK, struct lbt_deadlock, i);

		if (lbt_deadlock_has_lock(d, lock) && lbt_deadlock_has_task(d, pid))
			return true;
	}
	return false;
}

/*
 * Is the task @pid selected? A pid the ledger has no task record for (an
 * evicted task named by a pair) matches --pid alone.
 */
static bool lbt_pid_selected(const struct lbt_doc *doc, const struct lbt_filter *f, int32_t pid)
{
	const struct lbt_task *t;

	if (!lbt_filter_active(f))
		return true;
	if (f->lock_set && !lbt_linked_to_lock(doc, f->lock, pid))
		return false;
	t = lbt_task_find(doc, pid);
	if (t)
		return lbt_filter_event_id(f, t->pid, t->tgid, &t->comm);
	if (f->tgid_set || f->comm_set)
		return false;
	return !f->pid_set || pid == f->pid;
}

bool lbt_pid_kept(const struct lbt_doc *doc, const struct lbt_filter *f, int32_t pid)
{
	return lbt_pid_selected(doc, f, pid);
}

static void lbt_keep_all(struct lbt_doc *doc)
{
	int t;
	size_t i;

	for (t = 0; t < LBT_NTYPES; t++) {
		char *rec = doc->tab[t].v;

		for (i = 0; i < doc->tab[t].n; i++, rec += lbt_types[t].size)
			((struct lbt_head *)rec)->keep = true;
	}
}

void lbt_filter_apply(const struct lbt_filter *f, struct lbt_doc *doc)
{
	bool tf = lbt_filter_tasks(f);
	size_t i, j;

	lbt_keep_all(doc);
	for (i = 0; i < LBT_ROWS(doc, LBT_T_STACK) && f->role; i++) {
		struct lbt_stackref *s = LBT_REC(doc, LBT_T_STACK, struct lbt_stackref, i);

		s->h.keep = !strcmp(s->role, f->role);
	}
	if (!lbt_filter_active(f))
		return;
	for (i = 0; i < LBT_ROWS(doc, LBT_T_TASK); i++) {
		struct lbt_task *t = LBT_REC(doc, LBT_T_TASK, struct lbt_task, i);

		t->h.keep = lbt_pid_selected(doc, f, t->pid);
	}
	for (i = 0; i < LBT_ROWS(doc, LBT_T_PAIR); i++) {
		struct lbt_pair *p = LBT_REC(doc, LBT_T_PAIR, struct lbt_pair, i);

		p->h.keep = lbt_pid_selected(doc, f, p->holder) ||
			    lbt_pid_selected(doc, f, p->victim);
	}
	for (i = 0; i < LBT_ROWS(doc, LBT_T_CHAIN); i++) {
		struct lbt_chain *c = LBT_REC(doc, LBT_T_CHAIN, struct lbt_chain, i);

		c->h.keep = (!f->lock_set || lbt_chain_on_lock(c, f->lock)) &&
			    (!tf || lbt_pid_selected(doc, f, c->holder) ||
			     lbt_pid_selected(doc, f, c->root));
	}
	for (i = 0; i < LBT_ROWS(doc, LBT_T_DEADLOCK); i++) {
		struct lbt_deadlock *d = LBT_REC(doc, LBT_T_DEADLOCK, struct lbt_deadlock, i);
		bool any = !tf;

		for (j = 0; j < d->tasks.n && !any; j++)
			any = lbt_pid_selected(doc, f, d->tasks.v[j]);
		d->h.keep = any && (!f->lock_set || lbt_deadlock_has_lock(d, f->lock));
	}
	for (i = 0; i < LBT_ROWS(doc, LBT_T_LOCK); i++) {
		struct lbt_lock *l = LBT_REC(doc, LBT_T_LOCK, struct lbt_lock, i);
		bool linked = !tf;

		if (f->lock_set && l->id != f->lock) {
			l->h.keep = false;
			continue;
		}
		if (!linked)
			linked = (l->holder && lbt_pid_selected(doc, f, l->holder)) ||
				 (l->top_cause && lbt_pid_selected(doc, f, l->top_cause));
		for (j = 0; j < LBT_ROWS(doc, LBT_T_CHAIN) && !linked; j++) {
			const struct lbt_chain *c = LBT_REC(doc, LBT_T_CHAIN, struct lbt_chain, j);

			linked = c->h.keep && lbt_chain_on_lock(c, l->id);
		}
		for (j = 0; j < LBT_ROWS(doc, LBT_T_DEADLOCK) && !linked; j++) {
			const struct lbt_deadlock *d =
				LBT_REC(doc, LBT_T_DEADLOCK, struct lbt_deadlock, j);

			linked = d->h.keep && lbt_deadlock_has_lock(d, l->id);
		}
		l->h.keep = linked;
	}
	for (i = 0; i < LBT_ROWS(doc, LBT_T_PROCESS); i++) {
		struct lbt_process *p = LBT_REC(doc, LBT_T_PROCESS, struct lbt_process, i);
		bool any = false, known = false;

		for (j = 0; j < LBT_ROWS(doc, LBT_T_TASK); j++) {
			const struct lbt_task *t = LBT_REC(doc, LBT_T_TASK, struct lbt_task, j);

			if (t->tgid != p->tgid)
				continue;
			known = true;
			any |= t->h.keep;
		}
		/* A process whose tasks were all evicted is judged by itself. */
		if (!known && !f->pid_set && !f->lock_set)
			any = lbt_filter_event_id(f, 0, p->tgid, &p->comm);
		p->h.keep = any;
	}
	for (i = 0; i < LBT_ROWS(doc, LBT_T_STACK); i++) {
		struct lbt_stackref *s = LBT_REC(doc, LBT_T_STACK, struct lbt_stackref, i);

		s->h.keep = s->h.keep && lbt_pid_selected(doc, f, s->pid);
	}
	for (i = 0; i < LBT_ROWS(doc, LBT_T_OUTLIER); i++) {
		struct lbt_outlier *x = LBT_REC(doc, LBT_T_OUTLIER, struct lbt_outlier, i);

		x->h.keep = (!f->lock_set || x->lock == f->lock) &&
			    (lbt_filter_event_id(f, x->victim, x->victim_tgid, &x->victim_comm) ||
			     (x->holder &&
			      lbt_filter_event_id(f, x->holder, x->holder_tgid, &x->holder_comm)));
	}
	for (i = 0; i < LBT_ROWS(doc, LBT_T_EVWAIT); i++) {
		struct lbt_evwait *e = LBT_REC(doc, LBT_T_EVWAIT, struct lbt_evwait, i);

		e->h.keep = !f->lock_set && lbt_filter_event_id(f, e->pid, e->tgid, &e->comm);
	}
	for (i = 0; i < LBT_ROWS(doc, LBT_T_SIGNAL); i++) {
		struct lbt_signal *g = LBT_REC(doc, LBT_T_SIGNAL, struct lbt_signal, i);

		g->h.keep = !f->lock_set &&
			    (lbt_filter_event_id(f, g->waiter, g->waiter_tgid, &g->waiter_comm) ||
			     (g->waker &&
			      lbt_filter_event_id(f, g->waker, g->waker_tgid, &g->waker_comm)));
	}
}
