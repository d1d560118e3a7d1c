// SPDX-License-Identifier: GPL-2.0
/*
 * The ledger's machine-readable dump. Its records and their keys are the
 * lists of include/lockblame/ledger_format.h: each record is a struct with one
 * member per key, written key by key in the lists' order.
 */
#include "ledger_internal.h"

/*
 * Every record's keys in one table, and one index for them (LB_K_<record>
 * marks where a record's keys begin, LB_K_<record>_<key> is a key):
 * a record's values are an array in the order of its keys.
 */
#define LB_LEDGER_RECORD(name, ...)	LB_K_##name,
#define LB_LEDGER_KEY(rec, key, ...)	LB_K_##rec##_##key,
#define LB_LEDGER_END(name)		LB_K_##name##_end,
enum lb_key_index {
#include <lockblame/ledger_list.h>
};

#undef LB_LEDGER_RECORD
#undef LB_LEDGER_KEY
#undef LB_LEDGER_END

/* Where @key's value is in its record's values; how many values @rec has. */
#define LB_V(rec, key)		(LB_K_##rec##_##key - LB_K_##rec - 1)
#define LB_NKEYS(rec)		(LB_K_##rec##_end - LB_K_##rec - 1)

enum lb_kind {
	LB_KIND_RECORD, LB_KIND_END, LB_KIND_U64, LB_KIND_UNREAD_U64, LB_KIND_U32,
	LB_KIND_S32, LB_KIND_ID, LB_KIND_COMM, LB_KIND_WORD, LB_KIND_S32_LIST,
	LB_KIND_ID_LIST, LB_KIND_NAME,
};

struct lb_key {
	const char *name;	/* the record's or the key's */
	enum lb_kind kind;
	enum lb_key_index rec;	/* the record it belongs to */
};

#define LB_LEDGER_RECORD(name, ...)	{ #name, LB_KIND_RECORD, LB_K_##name },
#define LB_LEDGER_KEY(rec, key, kind)	{ #key, LB_KIND_##kind, LB_K_##rec },
#define LB_LEDGER_END(name)		{ NULL, LB_KIND_END, LB_K_##name },
static const struct lb_key lb_keys[] = {
#include <lockblame/ledger_list.h>
};

/* One value; its key's kind says which member. */
union lb_val {
	u64 u;			/* U64, U32, ID */
	s32 s;			/* S32 */
	const char *str;	/* WORD; COMM: up to LB_COMM_LEN bytes, escaped here */
	struct {
		const void *v;	/* s32s or u64s */
		u32 n;
	} list;
};

static void lb_put_list(struct lb_out *out, const struct lb_key *k, const union lb_val *v)
{
	u32 i;

	for (i = 0; i < v->list.n; i++) {
		if (k->kind == LB_KIND_S32_LIST)
			out->printf(out, "%s%d", i ? "," : "", ((const s32 *)v->list.v)[i]);
		else
			out->printf(out, "%s%016llx", i ? "," : "", ((const u64 *)v->list.v)[i]);
	}
}

static void lb_put_value(struct lb_out *out, const struct lb_key *k, const union lb_val *v)
{
	char esc[LB_NAME_ESC_LEN];

	out->printf(out, " %s=", k->name);
	switch (k->kind) {
	case LB_KIND_S32:
		out->printf(out, "%d", v->s);
		break;
	case LB_KIND_ID:
		out->printf(out, "%016llx", v->u);
		break;
	case LB_KIND_COMM:
		lb_escape_comm(esc, v->str);
		out->printf(out, "%s", esc);
		break;
	case LB_KIND_WORD:
		out->printf(out, "%s", v->str);
		break;
	case LB_KIND_NAME:
		if (v->str && v->str[0])
			lb_escape_str(esc, v->str, LB_LOCK_NAME_LEN);
		out->printf(out, "%s", v->str && v->str[0] ? esc : "-");
		break;
	case LB_KIND_S32_LIST:
	case LB_KIND_ID_LIST:
		lb_put_list(out, k, v);
		break;
	default:
		out->printf(out, "%llu", v->u);
	}
}

/* The line of record @rec: its type, then each key with its value from @v. */
static void lb_put_record(struct lb_out *out, enum lb_key_index rec, const union lb_val *v)
{
	u32 i;

	out->printf(out, "%s", lb_keys[rec].name);
	for (i = rec + 1; lb_keys[i].kind != LB_KIND_END; i++)
		lb_put_value(out, &lb_keys[i], &v[i - rec - 1]);
	out->printf(out, "\n");
}

static void lb_put_lock(struct lb_out *out, const struct lb_lock_stats *st)
{
	const union lb_val v[LB_NKEYS(lock)] = {
		[LB_V(lock, id)].u = st->lock,
		[LB_V(lock, class)].str = lb_class_name(st->lock_class),
		[LB_V(lock, acq)].u = st->cnt.acquisitions,
		[LB_V(lock, wait_ns)].u = st->cnt.wait_ns,
		[LB_V(lock, hold_ns)].u = st->cnt.hold_ns,
		[LB_V(lock, blame_ns)].u = st->cnt.blame_ns,
		[LB_V(lock, pending_ns)].u = st->cnt.pending_ns,
		[LB_V(lock, unattributed_ns)].u = st->cnt.unattributed_ns,
		[LB_V(lock, wait_p50)].u = st->wait_p50_ns,
		[LB_V(lock, wait_p99)].u = st->wait_p99_ns,
		[LB_V(lock, wait_max)].u = st->wait_max_ns,
		[LB_V(lock, hold_p50)].u = st->hold_p50_ns,
		[LB_V(lock, hold_p99)].u = st->hold_p99_ns,
		[LB_V(lock, hold_max)].u = st->hold_max_ns,
		[LB_V(lock, errors)].u = st->cnt.errors,
		[LB_V(lock, waiters)].u = st->waiters_now,
		[LB_V(lock, holder)].s = st->holder_pid,
		[LB_V(lock, util_ppm)].u = st->util_ppm,
		[LB_V(lock, sat_milli)].u = st->sat_milli,
		[LB_V(lock, holders)].u = st->holders_now,
		[LB_V(lock, probable)].s = st->probable_pid,
		[LB_V(lock, holds)].u = st->cnt.holds,
		[LB_V(lock, holds_lower_bound)].u = st->cnt.holds_lower_bound,
		[LB_V(lock, holds_at_release)].u = st->cnt.holds_at_release,
		[LB_V(lock, top_cause)].s = st->top_cause_pid,
		[LB_V(lock, holds_unended)].u = st->cnt.holds_unended,
		[LB_V(lock, tgid)].s = st->name_tgid,
		[LB_V(lock, uaddr)].u = st->uaddr,
		[LB_V(lock, name)].str = st->name,
		[LB_V(lock, hold_on_cpu_ns)].u = st->cnt.hold_on_cpu_ns,
		[LB_V(lock, hold_runnable_ns)].u = st->cnt.hold_runnable_ns,
		[LB_V(lock, hold_sleeping_ns)].u = st->hold_sleeping_ns,
		[LB_V(lock, hold_cpu_unknown_ns)].u = st->cnt.hold_cpu_unknown_ns,
		[LB_V(lock, hold_runnable_unknown_ns)].u = st->cnt.hold_runnable_unknown_ns,
	};

	lb_put_record(out, LB_K_lock, v);
}

static void lb_put_task(struct lb_out *out, const struct lb_task_stats *st, u64 event_wait_ns,
			u64 event_waits)
{
	const union lb_val v[LB_NKEYS(task)] = {
		[LB_V(task, pid)].s = st->id.pid,
		[LB_V(task, tgid)].s = st->id.tgid,
		[LB_V(task, comm)].str = st->id.comm,
		[LB_V(task, wait_ns)].u = st->acct.wait_ns,
		[LB_V(task, waits)].u = st->acct.waits,
		[LB_V(task, hold_ns)].u = st->acct.hold_ns,
		[LB_V(task, hold_on_cpu_ns)].u = st->acct.hold_on_cpu_ns,
		[LB_V(task, holds)].u = st->acct.holds,
		[LB_V(task, blame_ns)].u = st->acct.blame_ns,
		[LB_V(task, root_blame_ns)].u = st->acct.root_blame_ns,
		[LB_V(task, errors)].u = st->acct.errors,
		[LB_V(task, verdict)].str = lb_verdict_name(st->verdict),
		[LB_V(task, kthread)].u = st->kthread,
		[LB_V(task, holds_lower_bound)].u = st->holds_lower_bound,
		[LB_V(task, hold_cpu_unknown_ns)].u = st->hold_cpu_unknown_ns,
		[LB_V(task, event_wait_ns)].u = event_wait_ns,
		[LB_V(task, event_waits)].u = event_waits,
		[LB_V(task, hold_runnable_ns)].u = st->acct.hold_runnable_ns,
		[LB_V(task, hold_sleeping_ns)].u = st->hold_sleeping_ns,
		[LB_V(task, hold_runnable_unknown_ns)].u = st->hold_runnable_unknown_ns,
		[LB_V(task, holds_unended)].u = st->holds_unended,
		[LB_V(task, cgroup)].u = st->id.cgroup,
	};

	lb_put_record(out, LB_K_task, v);
}

static void lb_put_process(struct lb_out *out, const struct lb_process_stats *st)
{
	const union lb_val v[LB_NKEYS(process)] = {
		[LB_V(process, tgid)].s = st->tgid,
		[LB_V(process, comm)].str = st->comm,
		[LB_V(process, wait_ns)].u = st->acct.wait_ns,
		[LB_V(process, hold_ns)].u = st->acct.hold_ns,
		[LB_V(process, blame_ns)].u = st->acct.blame_ns,
		[LB_V(process, root_blame_ns)].u = st->acct.root_blame_ns,
		[LB_V(process, verdict)].str = lb_verdict_name(st->verdict),
		[LB_V(process, tasks)].u = st->tasks,
		[LB_V(process, waits)].u = st->acct.waits,
		[LB_V(process, holds)].u = st->acct.holds,
		[LB_V(process, hold_on_cpu_ns)].u = st->acct.hold_on_cpu_ns,
		[LB_V(process, errors)].u = st->acct.errors,
		[LB_V(process, hold_runnable_ns)].u = st->acct.hold_runnable_ns,
		[LB_V(process, cgroup)].u = st->cgroup,
	};

	lb_put_record(out, LB_K_process, v);
}

static void lb_put_totals(struct lb_out *out, const struct lb_ledger_totals *t, u64 window_ns,
			  bool futex_kinds, u64 outlier_ns)
{
	const union lb_val v[LB_NKEYS(totals)] = {
		[LB_V(totals, events)].u = t->events,
		[LB_V(totals, wait_ns)].u = t->wait_ns,
		[LB_V(totals, blame_ns)].u = t->blame_ns,
		[LB_V(totals, pending_ns)].u = t->pending_ns,
		[LB_V(totals, unattributed_ns)].u = t->unattributed_ns,
		[LB_V(totals, late)].u = t->late_events,
		[LB_V(totals, unmatched)].u = t->unmatched_events,
		[LB_V(totals, evicted_locks)].u = t->evicted_locks,
		[LB_V(totals, evicted_tasks)].u = t->evicted_tasks,
		[LB_V(totals, dropped_waiters)].u = t->dropped_waiters,
		[LB_V(totals, dropped_pairs)].u = t->dropped_pairs,
		[LB_V(totals, evicted_wait_ns)].u = t->evicted_wait_ns,
		[LB_V(totals, evicted_blame_ns)].u = t->evicted_blame_ns,
		[LB_V(totals, refused_tasks)].u = t->refused_tasks,
		[LB_V(totals, dropped_pair_ns)].u = t->dropped_pair_ns,
		[LB_V(totals, window_ns)].u = window_ns,
		[LB_V(totals, invalid)].u = t->invalid_events,
		[LB_V(totals, dropped_holders)].u = t->dropped_holders,
		[LB_V(totals, dropped_chains)].u = t->dropped_chains,
		[LB_V(totals, deadlocks)].u = t->deadlocks,
		[LB_V(totals, chain_cut_ns)].u = t->chain_cut_ns,
		[LB_V(totals, dropped_stacks)].u = t->dropped_stacks,
		[LB_V(totals, futex_kinds)].str = futex_kinds ? "on" : "off",
		[LB_V(totals, futex_lock_waits)].u = t->futex_lock_waits,
		[LB_V(totals, futex_counters)].u = t->futex_counters,
		[LB_V(totals, disowned_ns)].u = t->disowned_ns,
		[LB_V(totals, past_root_ns)].u = t->past_root_ns,
		[LB_V(totals, folded_locks)].u = t->folded_locks,
		[LB_V(totals, folded_wait_ns)].u = t->folded_wait_ns,
		[LB_V(totals, folded_blame_ns)].u = t->folded_blame_ns,
		[LB_V(totals, folded_chains)].u = t->folded_chains,
		[LB_V(totals, scope_waits)].u = t->scope_waits,
		[LB_V(totals, scope_releases)].u = t->scope_releases,
		[LB_V(totals, scope_evicted)].u = t->scope_evicted,
		[LB_V(totals, scope_words_evicted)].u = t->scope_words_evicted,
		[LB_V(totals, event_wait_ns)].u = lb_sum_sat(t->event_wait_ns, t->event_open_ns),
		[LB_V(totals, event_waits)].u = t->event_waits,
		[LB_V(totals, event_errors)].u = t->event_errors,
		[LB_V(totals, event_dropped)].u = t->event_dropped,
		[LB_V(totals, evicted_sleepers)].u = t->evicted_sleepers,
		[LB_V(totals, dropped_signals)].u = t->dropped_signals,
		[LB_V(totals, asleep)].u = t->asleep,
		[LB_V(totals, outlier_ns)].u = outlier_ns,
		[LB_V(totals, outliers_missed)].u = t->outliers_missed,
	};

	lb_put_record(out, LB_K_totals, v);
}

static void lb_dump_lock(const struct lb_ledger *l, struct lb_out *out, const struct lb_lock *lock)
{
	struct lb_lock_stats st;

	lb_lock_fill_stats(l, lock, &st);
	lb_put_lock(out, &st);
}

static void lb_dump_task(const struct lb_ledger *l, struct lb_out *out, const struct lb_task *t)
{
	const struct lb_sleeper *s = lb_sleeper_find(l, t->id.pid);
	struct lb_task_stats st;

	lb_task_fill_stats(t, &st);
	lb_put_task(out, &st, s ? lb_sleeper_wait_ns(l, s) : 0, s ? s->waits : 0);
}

static void lb_dump_proc(struct lb_out *out, const struct lb_proc *p)
{
	struct lb_process_stats st;

	lb_proc_fill_stats(p, &st);
	lb_put_process(out, &st);
}

static void lb_dump_totals(const struct lb_ledger *l, struct lb_out *out)
{
	struct lb_ledger_totals t;

	lb_ledger_totals(l, &t);
	lb_put_totals(out, &t, lb_window_ns(l), l->opts.futex_kinds, l->opts.outlier_ns);
}

static void lb_dump_links(const struct lb_ledger *l, struct lb_out *out)
{
	u32 i;

	for (i = 0; i < l->nr_pairs; i++) {
		const struct lb_pair *pr = &l->pairs[i];
		const union lb_val v[LB_NKEYS(pair)] = {
			[LB_V(pair, holder)].s = pr->holder,
			[LB_V(pair, victim)].s = pr->victim,
			[LB_V(pair, blame_ns)].u = pr->blame_ns,
		};

		lb_put_record(out, LB_K_pair, v);
	}
	for (i = 0; i < l->nr_chains; i++) {
		const struct lb_chain *c = &l->chains[i];
		const union lb_val v[LB_NKEYS(chain)] = {
			[LB_V(chain, victim_lock)].u = c->victim_lock,
			[LB_V(chain, holder)].s = c->holder,
			[LB_V(chain, waits_on)].u = c->waits_on,
			[LB_V(chain, root)].s = c->root,
			[LB_V(chain, blame_ns)].u = c->blame_ns,
		};

		lb_put_record(out, LB_K_chain, v);
	}
	for (i = 0; i < l->nr_deadlocks; i++) {
		const struct lb_deadlock *dl = &l->deadlock[i];
		const union lb_val v[LB_NKEYS(deadlock)] = {
			[LB_V(deadlock, tasks)].list = { dl->pid, dl->nr_tasks },
			[LB_V(deadlock, locks)].list = { dl->lock, dl->nr_locks },
		};

		lb_put_record(out, LB_K_deadlock, v);
	}
	for (i = 0; i < l->nr_cgroup_pairs; i++) {
		const struct lb_cgroup_pair *cp = &l->cgroup_pair[i];
		const union lb_val v[LB_NKEYS(cgroup_pair)] = {
			[LB_V(cgroup_pair, holder_cgroup)].u = cp->holder,
			[LB_V(cgroup_pair, victim_cgroup)].u = cp->victim,
			[LB_V(cgroup_pair, blame_ns)].u = cp->blame_ns,
		};

		lb_put_record(out, LB_K_cgroup_pair, v);
	}
}

static void lb_dump_sleeper(const struct lb_ledger *l, struct lb_out *out,
			    const struct lb_sleeper *s)
{
	const union lb_val v[LB_NKEYS(evwait)] = {
		[LB_V(evwait, pid)].s = s->pid,
		[LB_V(evwait, tgid)].s = s->tgid,
		[LB_V(evwait, comm)].str = s->comm,
		[LB_V(evwait, wait_ns)].u = lb_sleeper_wait_ns(l, s),
		[LB_V(evwait, waits)].u = s->waits,
		[LB_V(evwait, errors)].u = s->errors,
		[LB_V(evwait, waker)].s = s->waker,
		[LB_V(evwait, asleep)].u = s->asleep,
	};

	lb_put_record(out, LB_K_evwait, v);
}

static void lb_dump_events(const struct lb_ledger *l, struct lb_out *out)
{
	u32 i;

	for (i = 0; i < l->limits.max_sleepers; i++)
		if (!hlist_unhashed(&l->sleepers[i].hnode))
			lb_dump_sleeper(l, out, &l->sleepers[i]);
	for (i = 0; i < l->nr_signals; i++) {
		const struct lb_signal *sg = &l->signal[i];
		const union lb_val v[LB_NKEYS(signal)] = {
			[LB_V(signal, waiter)].s = sg->waiter.pid,
			[LB_V(signal, waiter_tgid)].s = sg->waiter.tgid,
			[LB_V(signal, waiter_comm)].str = sg->waiter.comm,
			[LB_V(signal, waker)].s = sg->waker.pid,
			[LB_V(signal, waker_tgid)].s = sg->waker.tgid,
			[LB_V(signal, waker_comm)].str = sg->waker.pid ? sg->waker.comm : "-",
			[LB_V(signal, wait_ns)].u = sg->wait_ns,
			[LB_V(signal, waits)].u = sg->waits,
			[LB_V(signal, max_ns)].u = sg->max_ns,
		};

		lb_put_record(out, LB_K_signal, v);
	}
}

static const char *const lb_stack_role_names[LB_STACK_ROLE_MAX] = LB_STACK_ROLE_NAMES;
static const char *const lb_outlier_kind_names[LB_OUTLIER_KIND_MAX] = LB_OUTLIER_KIND_NAMES;

static void lb_dump_outlier(const struct lb_ledger *l, struct lb_out *out,
			    const struct lb_outlier *o)
{
	const union lb_val v[LB_NKEYS(outlier)] = {
		[LB_V(outlier, kind)].str = lb_outlier_kind_names[o->kind],
		[LB_V(outlier, ns)].u = o->ns,
		[LB_V(outlier, ts)].u = o->ts_ns,
		[LB_V(outlier, lock)].u = o->lock,
		[LB_V(outlier, class)].str = lb_class_name(o->lock_class),
		[LB_V(outlier, victim)].s = o->victim.pid,
		[LB_V(outlier, victim_tgid)].s = o->victim.tgid,
		[LB_V(outlier, victim_comm)].str = o->victim.pid ? o->victim.comm : "-",
		[LB_V(outlier, holder)].s = o->holder.pid,
		[LB_V(outlier, holder_tgid)].s = o->holder.tgid,
		[LB_V(outlier, holder_comm)].str = o->holder.pid ? o->holder.comm : "-",
		[LB_V(outlier, victim_stack)].u = o->victim_stack,
		[LB_V(outlier, victim_ustack)].u = o->victim_ustack,
		[LB_V(outlier, holder_stack)].u = o->holder_stack,
		[LB_V(outlier, holder_ustack)].u = o->holder_ustack,
		[LB_V(outlier, on_cpu_ns)].u = o->on_cpu_ns,
		[LB_V(outlier, runnable_ns)].u = o->runnable_ns,
		[LB_V(outlier, sleeping_ns)].u = o->sleeping_ns,
		[LB_V(outlier, unknown_ns)].u = o->unknown_ns,
		[LB_V(outlier, root)].s = o->root,
		[LB_V(outlier, name)].str = o->name_id && l->name_of ?
					    l->name_of(o->name_id) : NULL,
	};

	lb_put_record(out, LB_K_outlier, v);
}

void lb_ledger_dump(const struct lb_ledger *l, struct lb_out *out)
{
	u32 i;

	out->printf(out, "%s%d\n", LB_LEDGER_HEADER, LB_LEDGER_VERSION);
	lb_dump_totals(l, out);
	for (i = 0; i < l->limits.max_locks; i++)
		if (!hlist_unhashed(&l->locks[i].hnode))
			lb_dump_lock(l, out, &l->locks[i]);
	for (i = 0; i < l->limits.max_tasks; i++)
		if (!hlist_unhashed(&l->tasks[i].hnode))
			lb_dump_task(l, out, &l->tasks[i]);
	for (i = 0; i < l->limits.max_tasks; i++)
		if (!hlist_unhashed(&l->procs[i].hnode))
			lb_dump_proc(out, &l->procs[i]);
	lb_dump_links(l, out);
	lb_dump_events(l, out);
	for (i = 0; i < l->nr_stacks; i++) {
		const struct lb_stack *st = &l->stacks[i];
		const union lb_val v[LB_NKEYS(stack)] = {
			[LB_V(stack, pid)].s = st->pid,
			[LB_V(stack, role)].str = lb_stack_role_names[st->role],
			[LB_V(stack, id)].u = st->id,
			[LB_V(stack, ns)].u = st->ns,
		};

		lb_put_record(out, LB_K_stack, v);
	}
	for (i = 0; i < l->nr_outliers; i++)
		lb_dump_outlier(l, out, &l->outlier[i]);
}
EXPORT_SYMBOL_IF_KUNIT(lb_ledger_dump);
