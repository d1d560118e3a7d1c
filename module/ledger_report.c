// SPDX-License-Identifier: GPL-2.0
/*
 * The ledger's human report: tables that fit 100 columns (the dump is in
 * ledger_dump.c).
 */
#include "ledger_internal.h"

#define LB_ROWS		32	/* rows per table in the report; the dump has all */
#define LB_WHO_LEN	40
#define LB_NUM_LEN	24	/* one formatted number or duration */

/* "comm/pid", "[kthread]/pid", or "pid N" once the task was evicted. */
static const char *lb_fmt_who(const struct lb_ledger *l, char *buf, s32 pid)
{
	const struct lb_task *t = lb_task_find(l, pid);
	char esc[LB_ESC_LEN];

	if (!t || !t->id.comm[0]) {
		snprintf(buf, LB_WHO_LEN, "pid %d", pid);
		return buf;
	}
	lb_escape_comm(esc, t->id.comm);
	if (t->kthread)
		snprintf(buf, LB_WHO_LEN, "[%.16s]/%d", esc, pid);
	else
		snprintf(buf, LB_WHO_LEN, "%.16s/%d", esc, pid);
	return buf;
}

/* Top-N selection without allocation: descending key, ascending tie. */
struct lb_rank {
	const void *item;
	u64 key, tie;
};

static u32 lb_rank_add(struct lb_rank *r, u32 n, const void *item, u64 key, u64 tie)
{
	u32 i = n < LB_ROWS ? n++ : LB_ROWS;

	while (i > 0 && (r[i - 1].key < key || (r[i - 1].key == key && r[i - 1].tie > tie))) {
		if (i < LB_ROWS)
			r[i] = r[i - 1];
		i--;
	}
	if (i < LB_ROWS) {
		r[i].item = item;
		r[i].key = key;
		r[i].tie = tie;
	}
	return n;
}

static void lb_report_event_header(const struct lb_ledger *l, struct lb_out *out)
{
	struct lb_ledger_totals t;
	char a[LB_NUM_LEN];
	struct lb_line ln;

	lb_ledger_totals(l, &t);
	lb_line_start(&ln, out, 0, 2);
	if (!l->opts.futex_kinds) {
		lb_line_item(&ln, "", "futex kinds off: every futex wait counts as a lock wait");
		lb_line_end(&ln);
		return;
	}
	lb_line_item(&ln, "", "event waits (futex sleeps, not contention; never blamed):");
	lb_line_item(&ln, " ", "%s over %llu waits",
		     lb_fmt_ns(a, sizeof(a), lb_sum_sat(t.event_wait_ns, t.event_open_ns)),
		     t.event_waits);
	lb_line_item(&ln, ", ", "%u asleep now", t.asleep);
	lb_line_item(&ln, ", ", "%llu errors", t.event_errors);
	lb_line_item(&ln, "; ", "futex waits: %llu lock, %llu event", t.futex_lock_waits,
		     t.event_waits + t.asleep);
	if (t.futex_counters)
		lb_line_item(&ln, ", ", "%llu futexes their releases showed to be counters",
			     t.futex_counters);
	if (t.event_dropped || t.evicted_sleepers || t.dropped_signals) {
		lb_line_item(&ln, "; ", "not tracked: %llu event waits", t.event_dropped);
		lb_line_item(&ln, ", ", "%llu sleepers evicted", t.evicted_sleepers);
		lb_line_item(&ln, ", ", "%llu signal records", t.dropped_signals);
	}
	lb_line_end(&ln);
}

static void lb_report_header(const struct lb_ledger *l, struct lb_out *out)
{
	const struct lb_ledger_totals *t = &l->totals;
	u64 accounted = t->blame_ns + t->pending_ns + t->unattributed_ns;
	char a[LB_NUM_LEN], b[LB_NUM_LEN], c[LB_NUM_LEN], d[LB_NUM_LEN];
	struct lb_line ln;

	out->printf(out, "lockblame report: window %s, %llu events, clock %s\n",
		    lb_fmt_ns(a, sizeof(a), lb_window_ns(l)), t->events,
		    lb_fmt_ns(b, sizeof(b), l->now_ns));
	out->printf(out, "wait %s = blame %s + pending %s + unattributed %s\n",
		    lb_fmt_ns(a, sizeof(a), t->wait_ns), lb_fmt_ns(b, sizeof(b), t->blame_ns),
		    lb_fmt_ns(c, sizeof(c), t->pending_ns),
		    lb_fmt_ns(d, sizeof(d), t->unattributed_ns));
	lb_line_start(&ln, out, 2, 4);
	lb_line_item(&ln, "", "conservation (ns): wait = blame + pending + unattributed:");
	lb_line_item(&ln, " ", "%llu = %llu + %llu + %llu %s", t->wait_ns, t->blame_ns,
		     t->pending_ns, t->unattributed_ns,
		     accounted == t->wait_ns ? "(exact)" : "(BROKEN)");
	lb_line_end(&ln);
	lb_line_start(&ln, out, 2, 4);
	lb_line_item(&ln, "", "events: %llu late (clamped to the clock)", t->late_events);
	lb_line_item(&ln, ", ", "%llu unmatched", t->unmatched_events);
	lb_line_item(&ln, ", ", "%llu invalid", t->invalid_events);
	lb_line_end(&ln);
	lb_line_start(&ln, out, 2, 4);
	lb_line_item(&ln, "", "tables: folded %llu settled locks", t->folded_locks);
	lb_line_item(&ln, ", ", "%llu chain records", t->folded_chains);
	lb_line_item(&ln, "; ", "evicted %llu locks", t->evicted_locks);
	lb_line_item(&ln, ", ", "%llu tasks", t->evicted_tasks);
	lb_line_item(&ln, "; ", "dropped %llu waiters", t->dropped_waiters);
	lb_line_item(&ln, ", ", "%llu pairs", t->dropped_pairs);
	lb_line_item(&ln, ", ", "%llu holders", t->dropped_holders);
	lb_line_item(&ln, ", ", "%llu chains", t->dropped_chains);
	lb_line_end(&ln);
	lb_report_event_header(l, out);
	out->printf(out, "verdict, from the blame a task keeps (root blame, not passed on):\n");
	out->printf(out, "  CAUSE if kept >= 2 x wait, VICTIM if wait >= 2 x kept, else SHARED\n");
}

static void lb_report_tops(const struct lb_ledger *l, struct lb_out *out,
			   const char *what, const struct lb_top *top)
{
	const struct lb_top *sorted[LB_LOCK_TOP];
	char who[LB_WHO_LEN], d[LB_NUM_LEN];
	struct lb_line ln;
	u32 i, j, n = 0;

	for (i = 0; i < LB_LOCK_TOP; i++) {
		if (!top[i].pid || !top[i].ns)
			continue;
		for (j = n++; j > 0 && sorted[j - 1]->ns < top[i].ns; j--)
			sorted[j] = sorted[j - 1];
		sorted[j] = &top[i];
	}
	if (!n)
		return;
	lb_line_start(&ln, out, 4, 8);
	lb_line_item(&ln, "", "%s:", what);
	for (i = 0; i < n; i++)
		lb_line_item(&ln, i ? ", " : " ", "%s %s", lb_fmt_who(l, who, sorted[i]->pid),
			     lb_fmt_ns(d, sizeof(d), sorted[i]->ns));
	lb_line_end(&ln);
}

/* What is not exact about @lock's holds and waiting, if anything. */
static void lb_report_lock_holds(struct lb_out *out, const struct lb_lock *lock)
{
	char d[LB_NUM_LEN];
	struct lb_line ln;

	if (!lock->cnt.holds_lower_bound && !lock->cnt.holds_at_release &&
	    !lock->cnt.holds_unended &&
	    !lock->cnt.pending_ns && !lock->cnt.unattributed_ns)
		return;
	lb_line_start(&ln, out, 4, 8);
	lb_line_item(&ln, "", "holds:");
	if (lock->cnt.holds_lower_bound)
		lb_line_item(&ln, " ", "%llu of %llu begun unseen (counted from the first waiter)",
			     lock->cnt.holds_lower_bound, lock->cnt.holds);
	if (lock->cnt.holds_at_release)
		lb_line_item(&ln, "; ", "%llu with holder known only at release",
			     lock->cnt.holds_at_release);
	if (lock->cnt.holds_unended)
		lb_line_item(&ln, "; ", "%llu ended unseen (counted until the holder was dropped)",
			     lock->cnt.holds_unended);
	if (lock->cnt.pending_ns)
		lb_line_item(&ln, "; ", "pending %s",
			     lb_fmt_ns(d, sizeof(d), lock->cnt.pending_ns));
	if (lock->cnt.unattributed_ns)
		lb_line_item(&ln, "; ", "unattributed %s",
			     lb_fmt_ns(d, sizeof(d), lock->cnt.unattributed_ns));
	lb_line_end(&ln);
}

static void lb_report_lock_now(const struct lb_ledger *l, struct lb_out *out,
			       const struct lb_lock *lock)
{
	char who[LB_WHO_LEN], d[LB_NUM_LEN];
	struct lb_line ln;
	u32 i;

	lb_line_start(&ln, out, 4, 8);
	if (lock->nr_waiting)
		lb_line_item(&ln, "", "now: %u waiting", lock->nr_waiting);
	else
		lb_line_item(&ln, "", "now: nobody waiting");
	/*
	 * Without waiters an unlock takes the fast path, unseen: the holder
	 * is only the last one seen taking the lock.
	 */
	for (i = 0; i < lock->nr_holders; i++) {
		const struct lb_holder *h = &lock->holder[i];

		lb_line_item(&ln, i ? ", " : "; ", "%s%s %s%s%s%s",
			     i ? "" : lock->nr_waiting ? "held by " : "last taken by ",
			     lb_fmt_who(l, who, h->task->id.pid),
			     lock->nr_waiting ? "for " : "",
			     lock->nr_waiting && h->known == LB_HOLD_LOWER_BOUND ? ">= " : "",
			     lb_fmt_ns(d, sizeof(d), l->now_ns - h->start.ts),
			     lock->nr_waiting ? (lb_holder_woken(h) ? " (woken: likely)" : "")
					      : " ago");
	}
	if (!lock->nr_holders && lock->nr_waiting)
		lb_line_item(&ln, "; ", "holder unknown until release");
	if (lock->pending.probable_pid)
		lb_line_item(&ln, "; ", "probable holder %s (heuristic, not blamed)",
			     lb_fmt_who(l, who, lock->pending.probable_pid));
	lb_line_end(&ln);
	lb_report_lock_holds(out, lock);
}

/*
 * What the lock is, in words: a kernel lock's verified name; a scope's name
 * and process (and address); a futex's word in its process (the reader
 * turns that into a symbol); else "unnamed".
 */
static void lb_report_lock_name(const struct lb_ledger *l, struct lb_out *out,
				const struct lb_lock *lock)
{
	const char *name = lock->name_id && l->name_of ? l->name_of(lock->name_id) : NULL;

	/* Names are printable ASCII (lock_names.c): shown as they are. */
	if (name && lock->lock_class == LB_LOCK_SCOPE) {
		out->printf(out, "    name: %.*s", LB_LOCK_NAME_LEN, name);
		if (lock->uaddr)
			out->printf(out, " 0x%llx", lock->uaddr);
		if (lock->name_tgid)
			out->printf(out, " in process %d\n", lock->name_tgid);
		else
			out->printf(out, " in every process\n");
	} else if (name) {
		out->printf(out, "    name: %.*s\n", LB_LOCK_NAME_LEN, name);
	} else if (lock->uaddr) {
		out->printf(out, "    name: futex word 0x%llx in process %d\n", lock->uaddr,
			    lock->name_tgid);
	} else {
		out->printf(out, "    name: unnamed\n");
	}
}

/* Why the lock's holders were slow, when it was held while contended. */
static void lb_report_lock_split(struct lb_out *out, const struct lb_lock *lock)
{
	const struct lb_lock_counts *c = &lock->cnt;
	char split[LB_NUM_LEN];

	if (!c->hold_ns)
		return;
	out->printf(out, "    holders on/run/slp: %s\n",
		    lb_fmt_split(split, sizeof(split), &(struct lb_split_ns){
				c->hold_ns, c->hold_on_cpu_ns, c->hold_runnable_ns,
				c->hold_cpu_unknown_ns, c->hold_runnable_unknown_ns }));
}

/* Rows are formatted apart from the ranking, to keep each stack frame small. */
static noinline_for_stack void lb_report_lock_row(const struct lb_ledger *l,
						  struct lb_out *out,
						  const struct lb_lock *lock)
{
	char acq[LB_NUM_LEN], w[LB_NUM_LEN], p50[LB_NUM_LEN], p99[LB_NUM_LEN], max[LB_NUM_LEN];
	char hold[LB_NUM_LEN], util[LB_NUM_LEN], sat[LB_NUM_LEN], err[LB_NUM_LEN];
	struct lb_lock_stats st;

	lb_lock_fill_stats(l, lock, &st);
	snprintf(util, sizeof(util), "%llu.%llu%%", div_u64(st.util_ppm, 10000),
		 div_u64(st.util_ppm, 1000) % 10);
	if (st.sat_milli < 1000000)
		snprintf(sat, sizeof(sat), "%llu.%02llu", div_u64(st.sat_milli, 1000),
			 div_u64(st.sat_milli, 10) % 100);
	else
		lb_fmt_count(sat, sizeof(sat), div_u64(st.sat_milli, 1000));
	/* Percentiles of no ended wait or hold are not 0: they are unknown. */
	if (lock->wait_hist.count) {
		lb_fmt_ns(p50, sizeof(p50), st.wait_p50_ns);
		lb_fmt_ns(p99, sizeof(p99), st.wait_p99_ns);
		lb_fmt_ns(max, sizeof(max), st.wait_max_ns);
	} else {
		snprintf(p50, sizeof(p50), "-");
		snprintf(p99, sizeof(p99), "-");
		snprintf(max, sizeof(max), "-");
	}
	if (lock->hold_hist.count)
		lb_fmt_ns(hold, sizeof(hold), st.hold_p99_ns);
	else
		snprintf(hold, sizeof(hold), "-");
	out->printf(out, "%016llx %-8s %5s %8s %8s %8s %8s %8s %6s %6s %5s\n",
		    st.lock, lb_class_name(st.lock_class),
		    lb_fmt_count(acq, sizeof(acq), st.cnt.acquisitions),
		    lb_fmt_ns(w, sizeof(w), st.cnt.wait_ns), p50, p99, max, hold, util, sat,
		    lb_fmt_count(err, sizeof(err), st.cnt.errors));
}

static void lb_report_locks(const struct lb_ledger *l, struct lb_out *out)
{
	struct lb_rank rank[LB_ROWS];
	u32 i, n = 0, total = 0;

	for (i = 0; i < l->limits.max_locks; i++) {
		const struct lb_lock *lock = &l->locks[i];

		if (hlist_unhashed(&lock->hnode))
			continue;
		total++;
		n = lb_rank_add(rank, n, lock, lock->cnt.wait_ns, lock->id);
	}
	out->printf(out, "\nLOCKS by total wait (%u of %u)\n", n, total);
	out->printf(out, "%-16s %-8s %5s %8s %8s %8s %8s %8s %6s %6s %5s\n", "lock", "class",
		    "acq", "wait", "wait-p50", "wait-p99", "wait-max", "hold-p99", "util",
		    "sat", "err");
	for (i = 0; i < n; i++) {
		const struct lb_lock *lock = rank[i].item;

		lb_report_lock_row(l, out, lock);
		lb_report_lock_name(l, out, lock);
		lb_report_lock_split(out, lock);
		lb_report_tops(l, out, "causes", lock->cause);
		lb_report_tops(l, out, "victims", lock->victim);
		lb_report_lock_now(l, out, lock);
	}
}

/* One task's row; true if some of its holds began unseen. */
static noinline_for_stack bool lb_report_task_row(struct lb_out *out, const struct lb_task *t)
{
	char bl[LB_NUM_LEN], rb[LB_NUM_LEN], w[LB_NUM_LEN], h[LB_NUM_LEN], split[LB_NUM_LEN];
	char holds[LB_NUM_LEN], waits[LB_NUM_LEN], err[LB_NUM_LEN];
	char esc[LB_ESC_LEN], comm[LB_ESC_LEN + 2], hold[LB_NUM_LEN + 2];
	struct lb_task_stats st;

	lb_task_fill_stats(t, &st);
	lb_escape_comm(esc, st.id.comm);
	snprintf(comm, sizeof(comm), t->kthread ? "[%s]" : "%s", esc);
	snprintf(hold, sizeof(hold), "%s%s", lb_fmt_ns(h, sizeof(h), st.acct.hold_ns),
		 st.holds_lower_bound ? "*" : "");
	out->printf(out, "%7d %7d %-16.16s %-6s %7s %7s %7s %8s %10s %5s %5s %4s\n",
		    st.id.pid, st.id.tgid, comm, lb_verdict_name(st.verdict),
		    lb_fmt_ns(bl, sizeof(bl), st.acct.blame_ns),
		    lb_fmt_ns(rb, sizeof(rb), st.acct.root_blame_ns),
		    lb_fmt_ns(w, sizeof(w), st.acct.wait_ns), hold,
		    lb_fmt_split(split, sizeof(split), &(struct lb_split_ns){
				st.acct.hold_ns, st.acct.hold_on_cpu_ns, st.acct.hold_runnable_ns,
				st.hold_cpu_unknown_ns, st.hold_runnable_unknown_ns }),
		    lb_fmt_count(holds, sizeof(holds), st.acct.holds),
		    lb_fmt_count(waits, sizeof(waits), st.acct.waits),
		    lb_fmt_count(err, sizeof(err), st.acct.errors));
	return st.holds_lower_bound;
}

/* Tasks and processes that neither waited, held nor caused waiting are not shown. */
static bool lb_account_idle(const struct lb_account *a)
{
	return !a->wait_ns && !a->blame_ns && !a->hold_ns;
}

/* Tasks and processes are ranked by blame + wait. */
static u64 lb_account_rank(const struct lb_account *a)
{
	return lb_sum_sat(a->blame_ns, a->wait_ns);
}

static void lb_report_tasks(const struct lb_ledger *l, struct lb_out *out)
{
	struct lb_rank rank[LB_ROWS];
	u32 i, n = 0, total = 0;
	bool lower = false;

	for (i = 0; i < l->limits.max_tasks; i++) {
		const struct lb_task *t = &l->tasks[i];

		if (hlist_unhashed(&t->hnode) || lb_account_idle(&t->acct))
			continue;
		total++;
		n = lb_rank_add(rank, n, t, lb_account_rank(&t->acct), (u32)t->id.pid);
	}
	out->printf(out, "\nTASKS by blame + wait (%u of %u)\n", n, total);
	out->printf(out, "%7s %7s %-16s %-6s %7s %7s %7s %8s %10s %5s %5s %4s\n", "pid", "tgid",
		    "comm", "verdct", "blame", "rootblm", "wait", "hold", "on/run/slp", "holds",
		    "waits", "err");
	for (i = 0; i < n; i++)
		lower |= lb_report_task_row(out, rank[i].item);
	if (lower)
		out->printf(out,
			    "  * some holds began unseen (fast path): counted from their first waiter\n");
	out->printf(out, "  on/run/slp: %% of hold time on a CPU / runnable, waiting for a CPU /\n"
		    "    asleep (I/O, another lock); ?: not measured (run/slp: no run_delay)\n");
}

static noinline_for_stack void lb_report_proc_row(struct lb_out *out, const struct lb_proc *p)
{
	char bl[LB_NUM_LEN], rb[LB_NUM_LEN], w[LB_NUM_LEN], h[LB_NUM_LEN], tasks[LB_NUM_LEN];
	char holds[LB_NUM_LEN], waits[LB_NUM_LEN], err[LB_NUM_LEN];
	char esc[LB_ESC_LEN], comm[LB_ESC_LEN + 2];
	struct lb_process_stats st;

	lb_proc_fill_stats(p, &st);
	lb_escape_comm(esc, st.comm);
	snprintf(comm, sizeof(comm), p->kthread ? "[%s]" : "%s", esc);
	out->printf(out, "%7d %-16.16s %5s %-6s %8s %8s %8s %8s %5s %5s %4s\n",
		    st.tgid, comm, lb_fmt_count(tasks, sizeof(tasks), st.tasks),
		    lb_verdict_name(st.verdict), lb_fmt_ns(bl, sizeof(bl), st.acct.blame_ns),
		    lb_fmt_ns(rb, sizeof(rb), st.acct.root_blame_ns),
		    lb_fmt_ns(w, sizeof(w), st.acct.wait_ns),
		    lb_fmt_ns(h, sizeof(h), st.acct.hold_ns),
		    lb_fmt_count(holds, sizeof(holds), st.acct.holds),
		    lb_fmt_count(waits, sizeof(waits), st.acct.waits),
		    lb_fmt_count(err, sizeof(err), st.acct.errors));
}

static void lb_report_procs(const struct lb_ledger *l, struct lb_out *out)
{
	struct lb_rank rank[LB_ROWS];
	u32 i, n = 0, total = 0;

	for (i = 0; i < l->limits.max_tasks; i++) {
		const struct lb_proc *p = &l->procs[i];

		if (hlist_unhashed(&p->hnode) || lb_account_idle(&p->acct))
			continue;
		total++;
		n = lb_rank_add(rank, n, p, lb_account_rank(&p->acct), (u32)p->tgid);
	}
	out->printf(out, "\nPROCESSES by blame + wait (%u of %u)\n", n, total);
	out->printf(out, "%7s %-16s %5s %-6s %8s %8s %8s %8s %5s %5s %4s\n", "tgid", "comm",
		    "tasks", "verdct", "blame", "rootblm", "wait", "hold", "holds", "waits",
		    "err");
	for (i = 0; i < n; i++)
		lb_report_proc_row(out, rank[i].item);
}

static void lb_report_chains(const struct lb_ledger *l, struct lb_out *out)
{
	char who[LB_WHO_LEN], root[LB_WHO_LEN], d[LB_NUM_LEN];
	struct lb_rank rank[LB_ROWS];
	u32 i, n = 0;

	for (i = 0; i < l->nr_chains; i++)
		n = lb_rank_add(rank, n, &l->chains[i], l->chains[i].blame_ns, i);
	out->printf(out, "\nCHAINS: blame passed on by blocked holders (%u of %u)\n", n,
		    l->nr_chains);
	if (!n)
		out->printf(out, "  none\n");
	for (i = 0; i < n; i++) {
		const struct lb_chain *c = rank[i].item;

		out->printf(out, "  %8s waiting on %016llx held by %s\n",
			    lb_fmt_ns(d, sizeof(d), c->blame_ns), c->victim_lock,
			    lb_fmt_who(l, who, c->holder));
		out->printf(out, "           which waits on %016llx; root cause %s\n",
			    c->waits_on, lb_fmt_who(l, root, c->root));
		if (c->victim_lock == LB_LOCK_FOLDED || c->waits_on == LB_LOCK_FOLDED)
			out->printf(out, "           (lock %016llx, pid 0: folded for room)\n",
				    (u64)LB_LOCK_FOLDED);
	}
}

static void lb_report_deadlocks(const struct lb_ledger *l, struct lb_out *out)
{
	char who[LB_WHO_LEN];
	struct lb_line ln;
	u32 i, j;

	out->printf(out, "\nDEADLOCKS: tasks each waiting on a lock another holds (%llu)\n",
		    l->totals.deadlocks);
	if (!l->nr_deadlocks)
		out->printf(out, "  none\n");
	for (i = 0; i < l->nr_deadlocks; i++) {
		const struct lb_deadlock *dl = &l->deadlock[i];

		lb_line_start(&ln, out, 2, 4);
		lb_line_item(&ln, "", "tasks:");
		for (j = 0; j < dl->nr_tasks; j++)
			lb_line_item(&ln, j ? ", " : " ", "%s", lb_fmt_who(l, who, dl->pid[j]));
		lb_line_end(&ln);
		lb_line_start(&ln, out, 2, 4);
		lb_line_item(&ln, "", "locks:");
		for (j = 0; j < dl->nr_locks; j++)
			lb_line_item(&ln, j ? ", " : " ", "%016llx", dl->lock[j]);
		lb_line_end(&ln);
	}
}

/* "comm/pid (tgid N)" of an event wait's party; "nobody seen" without one. */
static const char *lb_fmt_party(char *buf, const struct lb_who *w)
{
	char esc[LB_ESC_LEN];

	if (!w->pid) {
		snprintf(buf, LB_WHO_LEN, "nobody seen");
		return buf;
	}
	lb_escape_comm(esc, w->comm);
	snprintf(buf, LB_WHO_LEN, "%.16s/%d", esc, w->pid);
	return buf;
}

static void lb_report_events(const struct lb_ledger *l, struct lb_out *out)
{
	char waiter[LB_WHO_LEN], waker[LB_WHO_LEN], d[LB_NUM_LEN], m[LB_NUM_LEN];
	char n[LB_NUM_LEN];
	struct lb_rank rank[LB_ROWS];
	u32 i, k = 0;

	if (!l->opts.futex_kinds) {
		out->printf(out, "\nEVENT WAITS: none told apart (futex kinds off)\n");
		return;
	}
	for (i = 0; i < l->nr_signals; i++)
		k = lb_rank_add(rank, k, &l->signal[i], l->signal[i].wait_ns, i);
	out->printf(out, "\nEVENT WAITS: who waited for whom to signal, no contention (%u of %u)\n",
		    k, l->nr_signals);
	if (!k) {
		out->printf(out, "  none ended\n");
		return;
	}
	out->printf(out, "%-22s %7s  %-22s %7s %8s %5s %8s\n", "waiter (last)", "tgid",
		    "signaller (last)", "tgid", "wait", "waits", "max");
	for (i = 0; i < k; i++) {
		const struct lb_signal *sg = rank[i].item;

		out->printf(out, "%-22s %7d  %-22s %7d %8s %5s %8s\n",
			    lb_fmt_party(waiter, &sg->waiter), sg->waiter.tgid,
			    lb_fmt_party(waker, &sg->waker), sg->waker.tgid,
			    lb_fmt_ns(d, sizeof(d), sg->wait_ns),
			    lb_fmt_count(n, sizeof(n), sg->waits),
			    lb_fmt_ns(m, sizeof(m), sg->max_ns));
	}
	out->printf(out, "  rows group tasks by process and name; \"nobody seen\": a timeout,\n"
		    "  a signal, or a wake older than the wait\n");
}

void lb_ledger_report(const struct lb_ledger *l, struct lb_out *out)
{
	lb_report_header(l, out);
	lb_report_locks(l, out);
	lb_report_tasks(l, out);
	lb_report_procs(l, out);
	lb_report_chains(l, out);
	lb_report_deadlocks(l, out);
	lb_report_events(l, out);
	lb_report_cgroups(l, out);
}
EXPORT_SYMBOL_IF_KUNIT(lb_ledger_report);
