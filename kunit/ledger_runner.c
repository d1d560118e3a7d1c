// SPDX-License-Identifier: GPL-2.0
/*
 * The scenario runner: feeds a scenario's events to a ledger and checks each
 * expectation and the conservation invariant; and the test plumbing both test
 * builds share: a generator of messy event streams and a text sink.
 */
#include "ledger_scenarios.h"

static void lb_scn_expect(struct lb_scn_check *c, const char *what, u64 got, u64 want)
{
	c->check(c->ctx, c->s, c->step, what, got, want);
}

static void lb_scn_comm(char *dst, const char *src)
{
	size_t n = strlen(src);

	memset(dst, 0, LB_COMM_LEN);
	memcpy(dst, src, n < LB_COMM_LEN ? n : LB_COMM_LEN - 1);
}

static void lb_scn_identity(const struct lb_scenario *s, s32 pid,
			    struct lb_task_id *id, bool *kthread)
{
	const struct lb_scn_task *t;

	memset(id, 0, sizeof(*id));
	id->pid = pid;
	id->tgid = pid;
	*kthread = false;
	for (t = s->tasks; t && t->pid; t++) {
		if (t->pid != pid)
			continue;
		id->tgid = t->tgid;
		lb_scn_comm(id->comm, t->comm);
		*kthread = t->kthread;
		if (t->pcomm)
			lb_scn_comm(id->pcomm, t->pcomm);
	}
}

static u64 lb_scn_cgroup(const struct lb_scenario *s, s32 pid)
{
	const struct lb_scn_cgroup *cg;

	for (cg = s->cgroups; cg && cg->pid; cg++)
		if (cg->pid == pid)
			return cg->cgroup;
	return 0;
}

static void lb_scn_event(const struct lb_scenario *s, const struct lb_scn_step *st,
			 struct lb_event *ev)
{
	bool kthread;

	memset(ev, 0, sizeof(*ev));
	ev->ts_ns = st->t;
	ev->lock = st->lock;
	ev->cpu_ns = st->cpu;
	ev->owner_cpu_ns = st->owner_cpu;
	ev->run_delay_ns = st->run_delay;
	ev->owner_run_delay_ns = st->owner_run_delay;
	ev->type = st->type;
	ev->lock_class = st->lock_class;
	ev->result = st->result;
	ev->owner_source = st->owner_source;
	/* A run_delay given is a reading; a reading of 0 says so in .flags. */
	ev->flags = st->flags | (st->run_delay ? LB_EF_RUN_DELAY : 0) |
		    (st->owner_run_delay ? LB_EF_OWNER_RUN_DELAY : 0);
	ev->count = st->count;
	ev->word = st->word;
	lb_scn_identity(s, st->pid, &ev->task, &kthread);
	/* An event step's .comm: its task has been renamed since the table's name. */
	if (st->comm)
		lb_scn_comm(ev->task.comm, st->comm);
	ev->task.cgroup = lb_scn_cgroup(s, st->pid);
	if (kthread)
		ev->flags |= LB_EF_KTHREAD;
	if (st->owner) {
		lb_scn_identity(s, st->owner, &ev->owner, &kthread);
		ev->owner.cgroup = lb_scn_cgroup(s, st->owner);
		if (kthread)
			ev->flags |= LB_EF_OWNER_KTHREAD;
	}
}

/* The invariant, on the totals and on the lock the last step touched. */
static void lb_scn_conservation(struct lb_scn_check *c, const struct lb_ledger *l,
				u64 lock)
{
	struct lb_ledger_totals t;
	struct lb_lock_stats ls;

	lb_ledger_totals(l, &t);
	lb_scn_expect(c, "conservation: blame + pending + unattributed == wait",
		      t.blame_ns + t.pending_ns + t.unattributed_ns, t.wait_ns);
	if (lock && lb_ledger_lock(l, lock, &ls))
		lb_scn_expect(c, "lock conservation: blame + pending + unattributed == wait",
			      ls.cnt.blame_ns + ls.cnt.pending_ns + ls.cnt.unattributed_ns,
			      ls.cnt.wait_ns);
}

static void lb_scn_step_task(struct lb_scn_check *c, const struct lb_ledger *l,
			     const struct lb_scn_step *st)
{
	struct lb_task_stats ts;
	bool found = lb_ledger_task(l, st->pid, &ts);

	if (st->op == LB_SCN_X_NO_TASK) {
		lb_scn_expect(c, "task evicted", found, false);
		return;
	}
	lb_scn_expect(c, "task tracked", found, true);
	if (!found)
		return;
	if (st->op == LB_SCN_X_TASK) {
		lb_scn_expect(c, "task wait_ns", ts.acct.wait_ns, st->want.task.wait);
		lb_scn_expect(c, "task blame_ns", ts.acct.blame_ns, st->want.task.blame);
		lb_scn_expect(c, "task root_blame_ns", ts.acct.root_blame_ns,
			      st->want.task.root_blame);
		lb_scn_expect(c, "task hold_ns", ts.acct.hold_ns, st->want.task.hold);
		lb_scn_expect(c, "task hold_on_cpu_ns", ts.acct.hold_on_cpu_ns,
			      st->want.task.hold_on_cpu);
		lb_scn_expect(c, "task verdict", ts.verdict, st->want.task.verdict);
	} else if (st->op == LB_SCN_X_TASK_SPLIT) {
		lb_scn_expect(c, "task hold_ns", ts.acct.hold_ns, st->want.task_split.hold);
		lb_scn_expect(c, "task hold_on_cpu_ns", ts.acct.hold_on_cpu_ns,
			      st->want.task_split.on_cpu);
		lb_scn_expect(c, "task hold_runnable_ns", ts.acct.hold_runnable_ns,
			      st->want.task_split.runnable);
		lb_scn_expect(c, "task hold_sleeping_ns", ts.hold_sleeping_ns,
			      st->want.task_split.sleeping);
		lb_scn_expect(c, "task hold_cpu_unknown_ns", ts.hold_cpu_unknown_ns,
			      st->want.task_split.cpu_unknown);
		lb_scn_expect(c, "task hold_runnable_unknown_ns", ts.hold_runnable_unknown_ns,
			      st->want.task_split.runnable_unknown);
	} else if (st->op == LB_SCN_X_TASK_COUNTS) {
		lb_scn_expect(c, "task waits", ts.acct.waits, st->want.task_counts.waits);
		lb_scn_expect(c, "task holds", ts.acct.holds, st->want.task_counts.holds);
		lb_scn_expect(c, "task holds_lower_bound", ts.holds_lower_bound,
			      st->want.task_counts.holds_lower_bound);
		lb_scn_expect(c, "task errors", ts.acct.errors, st->want.task_counts.errors);
		lb_scn_expect(c, "task kthread", ts.kthread, st->want.task_counts.kthread);
		lb_scn_expect(c, "task tgid", ts.id.tgid, st->want.task_counts.tgid);
	} else {
		lb_scn_expect(c, "task comm", !strncmp(ts.id.comm, st->comm, LB_COMM_LEN), true);
	}
}

static void lb_scn_step_lock(struct lb_scn_check *c, const struct lb_ledger *l,
			     const struct lb_scn_step *st)
{
	struct lb_lock_stats ls;
	bool found = lb_ledger_lock(l, st->lock, &ls);

	if (st->op == LB_SCN_X_NO_LOCK) {
		lb_scn_expect(c, "lock not tracked", found, false);
		return;
	}
	lb_scn_expect(c, "lock tracked", found, true);
	if (!found)
		return;
	if (st->op == LB_SCN_X_LOCK) {
		lb_scn_expect(c, "lock acquisitions", ls.cnt.acquisitions,
			      st->want.lock.acquisitions);
		lb_scn_expect(c, "lock wait_ns", ls.cnt.wait_ns, st->want.lock.wait);
		lb_scn_expect(c, "lock hold_ns", ls.cnt.hold_ns, st->want.lock.hold);
		lb_scn_expect(c, "lock blame_ns", ls.cnt.blame_ns, st->want.lock.blame);
		lb_scn_expect(c, "lock holder_pid", ls.holder_pid, st->want.lock.holder);
		lb_scn_expect(c, "lock waiters_now", ls.waiters_now, st->want.lock.waiters);
	} else if (st->op == LB_SCN_X_LOCK_MORE) {
		lb_scn_expect(c, "lock pending_ns", ls.cnt.pending_ns, st->want.lock_more.pending);
		lb_scn_expect(c, "lock unattributed_ns", ls.cnt.unattributed_ns,
			      st->want.lock_more.unattributed);
		lb_scn_expect(c, "lock holds", ls.cnt.holds, st->want.lock_more.holds);
		lb_scn_expect(c, "lock holds_lower_bound", ls.cnt.holds_lower_bound,
			      st->want.lock_more.holds_lower_bound);
		lb_scn_expect(c, "lock holds_at_release", ls.cnt.holds_at_release,
			      st->want.lock_more.holds_at_release);
		lb_scn_expect(c, "lock holders_now", ls.holders_now, st->want.lock_more.holders);
	} else if (st->op == LB_SCN_X_UNENDED) {
		struct lb_task_stats ts = {};

		lb_scn_expect(c, "lock holds_unended", ls.cnt.holds_unended,
			      st->want.unended.lock_holds);
		lb_scn_expect(c, "task tracked", lb_ledger_task(l, st->pid, &ts), true);
		lb_scn_expect(c, "task holds_unended", ts.holds_unended,
			      st->want.unended.task_holds);
	} else if (st->op == LB_SCN_X_LOCK_USE) {
		lb_scn_expect(c, "lock errors", ls.cnt.errors, st->want.lock_use.errors);
		lb_scn_expect(c, "lock util_ppm", ls.util_ppm, st->want.lock_use.util_ppm);
		lb_scn_expect(c, "lock sat_milli", ls.sat_milli, st->want.lock_use.sat_milli);
		lb_scn_expect(c, "lock probable_pid", ls.probable_pid, st->want.lock_use.probable);
	} else {
		lb_scn_expect(c, "lock wait_p50_ns", ls.wait_p50_ns, st->want.lock_pct.wait_p50);
		lb_scn_expect(c, "lock wait_p99_ns", ls.wait_p99_ns, st->want.lock_pct.wait_p99);
		lb_scn_expect(c, "lock wait_max_ns", ls.wait_max_ns, st->want.lock_pct.wait_max);
		lb_scn_expect(c, "lock hold_p50_ns", ls.hold_p50_ns, st->want.lock_pct.hold_p50);
		lb_scn_expect(c, "lock hold_p99_ns", ls.hold_p99_ns, st->want.lock_pct.hold_p99);
		lb_scn_expect(c, "lock hold_max_ns", ls.hold_max_ns, st->want.lock_pct.hold_max);
	}
}

static void lb_scn_step_ledger(struct lb_scn_check *c, const struct lb_ledger *l,
			       const struct lb_scn_step *st)
{
	struct lb_process_stats ps;
	struct lb_ledger_totals t;
	struct lb_task_stats ts;
	u64 ns = 0, n = 0;
	s32 waker = 0;
	bool found;

	lb_ledger_totals(l, &t);
	switch (st->op) {
	case LB_SCN_X_TOTALS:
		lb_scn_expect(c, "totals wait_ns", t.wait_ns, st->want.totals.wait);
		lb_scn_expect(c, "totals blame_ns", t.blame_ns, st->want.totals.blame);
		lb_scn_expect(c, "totals pending_ns", t.pending_ns, st->want.totals.pending);
		lb_scn_expect(c, "totals unattributed_ns", t.unattributed_ns,
			      st->want.totals.unattributed);
		break;
	case LB_SCN_X_COUNTERS:
		lb_scn_expect(c, "totals late_events", t.late_events, st->want.counters.late);
		lb_scn_expect(c, "totals unmatched_events", t.unmatched_events,
			      st->want.counters.unmatched);
		lb_scn_expect(c, "totals dropped_waiters", t.dropped_waiters,
			      st->want.counters.dropped_waiters);
		lb_scn_expect(c, "totals dropped_pairs", t.dropped_pairs,
			      st->want.counters.dropped_pairs);
		lb_scn_expect(c, "totals evicted_locks", t.evicted_locks,
			      st->want.counters.evicted_locks);
		lb_scn_expect(c, "totals evicted_tasks", t.evicted_tasks,
			      st->want.counters.evicted_tasks);
		break;
	case LB_SCN_X_COUNTERS2:
		lb_scn_expect(c, "totals invalid_events", t.invalid_events,
			      st->want.counters2.invalid);
		lb_scn_expect(c, "totals dropped_holders", t.dropped_holders,
			      st->want.counters2.dropped_holders);
		lb_scn_expect(c, "totals dropped_chains", t.dropped_chains,
			      st->want.counters2.dropped_chains);
		lb_scn_expect(c, "totals window_ns", t.window_ns, st->want.counters2.window);
		break;
	case LB_SCN_X_PAIR:
		lb_scn_expect(c, "pair blame_ns", lb_ledger_pair_blame(l, st->pid, st->owner),
			      st->want.pair.blame);
		break;
	case LB_SCN_X_CHAIN:
		lb_scn_expect(c, "chain blame_ns",
			      lb_ledger_chain_blame(l, st->lock, st->pid, st->cpu, st->owner),
			      st->want.chain.blame);
		break;
	case LB_SCN_X_FOLDED:
		lb_scn_expect(c, "totals folded_locks", t.folded_locks, st->want.folded.locks);
		lb_scn_expect(c, "totals folded_wait_ns", t.folded_wait_ns, st->want.folded.wait);
		lb_scn_expect(c, "totals folded_blame_ns", t.folded_blame_ns,
			      st->want.folded.blame);
		lb_scn_expect(c, "chain records", lb_ledger_chain_blame(l, 0, 0, 0, 0),
			      st->want.folded.chains);
		break;
	case LB_SCN_X_DEADLOCKS:
		lb_scn_expect(c, "deadlocks", t.deadlocks, st->want.deadlocks.deadlocks);
		break;
	case LB_SCN_X_STACK:
		lb_scn_expect(c, "stack ns", lb_ledger_stack_ns(l, st->pid, st->result, st->count),
			      st->want.stack.ns);
		break;
	case LB_SCN_X_PROC_COMM:
		found = lb_ledger_process(l, st->pid, &ps);
		lb_scn_expect(c, "process tracked", found, true);
		if (found)
			lb_scn_expect(c, "process comm",
				      !strncmp(ps.comm, st->comm, LB_COMM_LEN), true);
		break;
	case LB_SCN_X_VERDICT:
		found = lb_ledger_task(l, st->pid, &ts);
		lb_scn_expect(c, "task tracked", found, true);
		if (!found)
			break;
		lb_scn_expect(c, "task verdict", ts.verdict, st->want.verdict.verdict);
		lb_scn_expect(c, "task root_blame_ns", ts.acct.root_blame_ns,
			      st->want.verdict.root_blame);
		break;
	case LB_SCN_X_EVENT_TASK:
		found = lb_ledger_event_task(l, st->pid, &ns, &n, &waker);
		lb_scn_expect(c, "event task tracked", found, true);
		if (!found)
			break;
		lb_scn_expect(c, "event task wait_ns", ns, st->want.event_task.wait);
		lb_scn_expect(c, "event task waits", n, st->want.event_task.waits);
		lb_scn_expect(c, "event task signaller", waker, st->want.event_task.signaller);
		break;
	case LB_SCN_X_EVENT_TOTALS:
		lb_scn_expect(c, "event wait_ns (ended + open)", t.event_wait_ns + t.event_open_ns,
			      st->want.event_totals.wait);
		lb_scn_expect(c, "event waits", t.event_waits, st->want.event_totals.waits);
		lb_scn_expect(c, "event errors", t.event_errors, st->want.event_totals.errors);
		lb_scn_expect(c, "event dropped", t.event_dropped, st->want.event_totals.dropped);
		lb_scn_expect(c, "tasks asleep in event waits", t.asleep,
			      st->want.event_totals.asleep);
		lb_scn_expect(c, "futex lock waits", t.futex_lock_waits,
			      st->want.event_totals.futex_lock_waits);
		lb_scn_expect(c, "futex counters", t.futex_counters,
			      st->want.event_totals.futex_counters);
		break;
	case LB_SCN_X_PROC:
		found = lb_ledger_process(l, st->pid, &ps);
		lb_scn_expect(c, "process tracked", found, true);
		if (!found)
			break;
		lb_scn_expect(c, "process wait_ns", ps.acct.wait_ns, st->want.proc.wait);
		lb_scn_expect(c, "process blame_ns", ps.acct.blame_ns, st->want.proc.blame);
		lb_scn_expect(c, "process root_blame_ns", ps.acct.root_blame_ns,
			      st->want.proc.root_blame);
		lb_scn_expect(c, "process hold_ns", ps.acct.hold_ns, st->want.proc.hold);
		lb_scn_expect(c, "process verdict", ps.verdict, st->want.proc.verdict);
		break;
	case LB_SCN_X_PROC_SPLIT:
		found = lb_ledger_process(l, st->pid, &ps);
		lb_scn_expect(c, "process tracked", found, true);
		if (!found)
			break;
		lb_scn_expect(c, "process hold_ns", ps.acct.hold_ns, st->want.proc_split.hold);
		lb_scn_expect(c, "process hold_on_cpu_ns", ps.acct.hold_on_cpu_ns,
			      st->want.proc_split.on_cpu);
		lb_scn_expect(c, "process hold_runnable_ns", ps.acct.hold_runnable_ns,
			      st->want.proc_split.runnable);
		break;
	}
}

static void lb_scn_step_cgroup(struct lb_scn_check *c, const struct lb_ledger *l,
			       const struct lb_scn_step *st)
{
	struct lb_process_stats ps = {};
	struct lb_task_stats ts = {};

	if (st->op == LB_SCN_X_CGROUP_PAIR) {
		lb_scn_expect(c, "cgroup pair blame_ns",
			      lb_ledger_cgroup_blame(l, st->holder_cgroup, st->victim_cgroup),
			      st->want.cgroup_pair.blame);
		return;
	}
	lb_scn_expect(c, "task tracked", lb_ledger_task(l, st->pid, &ts), true);
	lb_scn_expect(c, "task cgroup", ts.id.cgroup, st->want.cgroup.task);
	lb_scn_expect(c, "process tracked", lb_ledger_process(l, st->owner, &ps), true);
	lb_scn_expect(c, "process cgroup", ps.cgroup, st->want.cgroup.proc);
}

/* Reset; or the kept outliers' count, shortest and longest; or the one a step names. */
static void lb_scn_step_outliers(struct lb_scn_check *c, struct lb_ledger *l,
				 const struct lb_scn_step *st)
{
	struct lb_outlier o, want = { .ns = 0 };
	u64 shortest = ~0ULL, longest = 0;
	struct lb_ledger_opts opts;
	struct lb_ledger_totals t;
	u32 i, n = lb_ledger_nr_outliers(l);

	if (st->op == LB_SCN_RESET) {
		lb_ledger_reset(l);
		return;
	}

	for (i = 0; lb_ledger_outlier(l, i, &o); i++) {
		shortest = min(shortest, o.ns);
		longest = max(longest, o.ns);
		if (o.kind == st->result && o.victim.pid == st->pid &&
		    o.holder.pid == st->owner && o.ns > want.ns)
			want = o;
	}
	if (st->op == LB_SCN_X_OUTLIERS) {
		lb_ledger_totals(l, &t);
		lb_ledger_opts(l, &opts);
		lb_scn_expect(c, "outlier threshold", opts.outlier_ns, st->want.outliers.threshold);
		lb_scn_expect(c, "outliers kept", n, st->want.outliers.kept);
		lb_scn_expect(c, "outliers missed", t.outliers_missed, st->want.outliers.missed);
		lb_scn_expect(c, "outliers shortest", n ? shortest : 0,
			      st->want.outliers.shortest);
		lb_scn_expect(c, "outliers longest", longest, st->want.outliers.longest);
		return;
	}
	lb_scn_expect(c, "outlier ns", want.ns, st->want.outlier.ns);
	lb_scn_expect(c, "outlier on_cpu", want.on_cpu_ns, st->want.outlier.on_cpu);
	lb_scn_expect(c, "outlier runnable", want.runnable_ns, st->want.outlier.runnable);
	lb_scn_expect(c, "outlier sleeping", want.sleeping_ns, st->want.outlier.sleeping);
	lb_scn_expect(c, "outlier unknown", want.unknown_ns, st->want.outlier.unknown);
	lb_scn_expect(c, "outlier victim stack", want.victim_stack,
		      st->want.outlier.victim_stack);
	lb_scn_expect(c, "outlier holder stack", want.holder_stack,
		      st->want.outlier.holder_stack);
	lb_scn_expect(c, "outlier root", want.root, st->want.outlier.root);
}

/* Feed @steps into @l, checking each expectation and the invariant. */
static void lb_scn_run_steps(const struct lb_scenario *s, const struct lb_scn_step *steps,
			     struct lb_ledger *l, struct lb_scn_check *c)
{
	const struct lb_scn_step *st;
	struct lb_event ev;
	u32 stack = 0;

	for (st = steps; st->op != LB_SCN_DONE; st++, c->step++) {
		/* A check reads the ledger as a reader would: time kept back applied. */
		if (st->op != LB_SCN_EVENT && st->op != LB_SCN_NEXT_STACK)
			lb_ledger_advance(l, 0);
		switch (st->op) {
		case LB_SCN_EVENT:
			lb_scn_event(s, st, &ev);
			ev.stack_id = stack;
			stack = 0;
			lb_ledger_feed(l, &ev);
			break;
		case LB_SCN_NEXT_STACK:
			stack = st->count;
			break;
		case LB_SCN_ADVANCE:
			lb_ledger_advance(l, st->t);
			break;
		case LB_SCN_X_TASK:
		case LB_SCN_X_TASK_COUNTS:
		case LB_SCN_X_TASK_SPLIT:
		case LB_SCN_X_TASK_COMM:
		case LB_SCN_X_NO_TASK:
			lb_scn_step_task(c, l, st);
			break;
		case LB_SCN_X_NO_LOCK:
		case LB_SCN_X_LOCK:
		case LB_SCN_X_LOCK_MORE:
		case LB_SCN_X_LOCK_USE:
		case LB_SCN_X_LOCK_PCT:
		case LB_SCN_X_UNENDED:
			lb_scn_step_lock(c, l, st);
			break;
		case LB_SCN_X_CGROUP:
		case LB_SCN_X_CGROUP_PAIR:
			lb_scn_step_cgroup(c, l, st);
			break;
		case LB_SCN_RESET:
		case LB_SCN_X_OUTLIERS:
		case LB_SCN_X_OUTLIER:
			lb_scn_step_outliers(c, l, st);
			break;
		default:
			lb_scn_step_ledger(c, l, st);
			break;
		}
		lb_scn_conservation(c, l, st->lock);
	}
}

/* Feed @s into @l (fresh): its prologue, steps and epilogue; steps count on. */
void lb_scn_run(const struct lb_scenario *s, struct lb_ledger *l,
		struct lb_scn_check *c)
{
	struct lb_ledger_opts opts = {};

	c->s = s;
	c->step = 0;
	opts.futex_kinds = !s->kinds_off;
	opts.outlier_ns = s->outlier_ns;
	lb_ledger_set_opts(l, &opts);
	if (s->prologue)
		lb_scn_run_steps(s, s->prologue, l, c);
	lb_scn_run_steps(s, s->steps, l, c);
	if (s->epilogue)
		lb_scn_run_steps(s, s->epilogue, l, c);
}

/* The generator */

u64 lb_scn_rand(u64 *state)
{
	u64 x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

void lb_scn_random_event(u64 *state, u64 *ts, struct lb_event *ev)
{
	u64 r = lb_scn_rand(state);

	memset(ev, 0, sizeof(*ev));
	*ts += r % 7 == 0 ? 0 : (r >> 8) % 1000;
	ev->ts_ns = r % 23 == 0 ? *ts - ((r >> 20) % 50) : *ts;
	ev->type = LB_EV_WAIT_BEGIN + (r >> 3) % 3;
	ev->lock = LB_LK((r >> 5) % 6);
	ev->lock_class = LB_LOCK_FUTEX + (r >> 9) % 4;
	ev->result = (r >> 12) % LB_WAIT_RESULT_MAX;
	ev->owner_source = (r >> 15) % LB_OWNER_SOURCE_MAX;
	ev->flags = (r >> 18) & 0xfff;
	ev->word = (r >> 44) % 5 == 4 ? 0x80000000U | ((r >> 47) % 3) : (r >> 44) % 5;
	/* A futex wait's end as the waiter sees it: no key. */
	if (ev->type == LB_EV_WAIT_END && ev->lock_class == LB_LOCK_FUTEX && r % 5 == 0)
		ev->lock = 0;
	ev->count = (r >> 24) % 3;
	ev->cpu_ns = (r >> 26) % 100000;
	ev->owner_cpu_ns = (r >> 30) % 100000;
	ev->run_delay_ns = (r >> 27) % 50000;
	ev->owner_run_delay_ns = (r >> 31) % 50000;
	ev->task.pid = 1 + (r >> 34) % 12;
	ev->task.tgid = 1 + ev->task.pid / 4;
	ev->task.comm[0] = 'a' + ev->task.pid;
	ev->owner.pid = (r >> 40) % 13;
	ev->owner.tgid = 1 + ev->owner.pid / 4;
	ev->owner.comm[0] = (r >> 50) & 0xff;
	ev->stack_id = (r >> 58) % 4;
}

/* A ledger holding one 90 ns wait by task 42, whose comm has odd bytes. */
struct lb_ledger *lb_scn_odd_comm_ledger(void)
{
	static const char comm[LB_COMM_LEN] = "a b\n=\\\x01\xff";
	struct lb_ledger *l = lb_ledger_create(NULL);
	struct lb_event ev = {
		.ts_ns = 10, .lock = 1, .type = LB_EV_WAIT_BEGIN, .lock_class = LB_LOCK_MUTEX,
		.task = { .pid = 42, .tgid = 42 },
	};

	if (!l)
		return NULL;
	memcpy(ev.task.comm, comm, LB_COMM_LEN);
	lb_ledger_feed(l, &ev);
	lb_ledger_advance(l, 100);
	return l;
}

static __printf(2, 3) void lb_scn_text_printf(struct lb_out *out, const char *fmt, ...)
{
	struct lb_scn_text *t = container_of(out, struct lb_scn_text, out);
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->len, t->size - t->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= t->size - t->len) {
		t->overflow = true;
		t->buf[t->len] = '\0';
		return;
	}
	t->len += n;
}

void lb_scn_text_init(struct lb_scn_text *t, char *buf, size_t size)
{
	t->out.printf = lb_scn_text_printf;
	t->out.priv = NULL;
	t->buf = buf;
	t->size = size;
	t->len = 0;
	t->overflow = false;
	buf[0] = '\0';
}

/* 0 if every line fits @cols and holds only printable ASCII; else the bad line (1-based). */
u32 lb_scn_text_bad_line(const char *text, u32 cols)
{
	u32 line = 1, col = 0;

	for (; *text; text++) {
		if (*text == '\n') {
			line++;
			col = 0;
			continue;
		}
		if (*text < 0x20 || *text > 0x7e || ++col > cols)
			return line;
	}
	return 0;
}

/* How many lines of @text start with @prefix. */
u32 lb_scn_text_count(const char *text, const char *prefix)
{
	size_t n = strlen(prefix);
	u32 count = 0;
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, prefix, n))
			count++;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return count;
}
