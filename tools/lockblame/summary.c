// SPDX-License-Identifier: GPL-2.0
/*
 * The default view: who caused the waiting and who suffered it, as tables of
 * processes, tasks and locks sorted by blame, then chains and deadlocks; then
 * the futex waits for an event, which are not contention and never blamed.
 */
#include <stdlib.h>
#include <string.h>
#include "lockblame.h"

#define T(buf, ns) lbt_ns(buf, sizeof(buf), ns)

/* "comm/pid" for a pid, or the bare pid when the ledger has no task record. */
static const char *lbt_who(const struct lbt_doc *doc, int32_t pid, char *buf, size_t size)
{
	const struct lbt_task *t = lbt_task_find(doc, pid);
	char comm[LBT_COMM_BUF];

	if (t && t->comm.len)
		snprintf(buf, size, "%s/%d", lbt_comm_text(comm, sizeof(comm), t->comm.b,
							   t->comm.len), pid);
	else
		snprintf(buf, size, "%d", pid);
	return buf;
}

static int lbt_u64_desc(uint64_t a, uint64_t b)
{
	return a > b ? -1 : a < b;
}

static int lbt_task_blame_cmp(const void *a, const void *b)
{
	const struct lbt_task *x = *(const struct lbt_task * const *)a;
	const struct lbt_task *y = *(const struct lbt_task * const *)b;

	if (x->blame_ns != y->blame_ns)
		return lbt_u64_desc(x->blame_ns, y->blame_ns);
	if (x->wait_ns != y->wait_ns)
		return lbt_u64_desc(x->wait_ns, y->wait_ns);
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int lbt_process_blame_cmp(const void *a, const void *b)
{
	const struct lbt_process *x = *(const struct lbt_process * const *)a;
	const struct lbt_process *y = *(const struct lbt_process * const *)b;

	if (x->blame_ns != y->blame_ns)
		return lbt_u64_desc(x->blame_ns, y->blame_ns);
	if (x->wait_ns != y->wait_ns)
		return lbt_u64_desc(x->wait_ns, y->wait_ns);
	return x->tgid < y->tgid ? -1 : x->tgid > y->tgid;
}

static int lbt_lock_wait_cmp(const void *a, const void *b)
{
	const struct lbt_lock *x = *(const struct lbt_lock * const *)a;
	const struct lbt_lock *y = *(const struct lbt_lock * const *)b;

	if (x->wait_ns != y->wait_ns)
		return lbt_u64_desc(x->wait_ns, y->wait_ns);
	return x->id < y->id ? -1 : x->id > y->id;
}

static int lbt_chain_blame_cmp(const void *a, const void *b)
{
	const struct lbt_chain *x = *(const struct lbt_chain * const *)a;
	const struct lbt_chain *y = *(const struct lbt_chain * const *)b;

	return lbt_u64_desc(x->blame_ns, y->blame_ns);
}

static int lbt_signal_wait_cmp(const void *a, const void *b)
{
	const struct lbt_signal *x = *(const struct lbt_signal * const *)a;
	const struct lbt_signal *y = *(const struct lbt_signal * const *)b;

	if (x->wait_ns != y->wait_ns)
		return lbt_u64_desc(x->wait_ns, y->wait_ns);
	return x->h.line < y->h.line ? -1 : x->h.line > y->h.line;
}

/* The kept records of table @t as pointers, sorted with @cmp. */
static const void **lbt_sorted(const struct lbt_doc *doc, int t,
			       int (*cmp)(const void *, const void *), size_t *n)
{
	const void **v = calloc(doc->tab[t].n + 1, sizeof(*v));
	size_t i;

	*n = 0;
	if (!v)
		return NULL;
	for (i = 0; i < doc->tab[t].n; i++) {
		const struct lbt_head *h =
			(const void *)((const char *)doc->tab[t].v + i * lbt_types[t].size);

		if (h->keep)
			v[(*n)++] = h;
	}
	qsort(v, *n, sizeof(*v), cmp);
	return v;
}

static void lbt_section(FILE *out, const char *title, const char *order, size_t shown,
			size_t all)
{
	fprintf(out, "\n%s", title);
	if (order)
		fprintf(out, " by %s, %zu of %zu", order, shown, all);
	fputc('\n', out);
}

/* Events and records the ledger could not account for, when there were any. */
static void lbt_losses(const struct lbt_totals *t, FILE *out)
{
	const struct {
		const char *name;
		uint64_t v;
	} c[] = {
		{ "late events", t->late }, { "unmatched events", t->unmatched },
		{ "evicted locks", t->evicted_locks }, { "evicted tasks", t->evicted_tasks },
		{ "dropped waiters", t->dropped_waiters }, { "dropped pairs", t->dropped_pairs },
		{ "invalid events", t->invalid }, { "dropped holders", t->dropped_holders },
		{ "dropped chains", t->dropped_chains },
	};
	bool any = false;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		if (!c[i].v)
			continue;
		fprintf(out, "%s %llu %s", any ? "," : "ledger losses:", (unsigned long long)c[i].v,
			c[i].name);
		any = true;
	}
	if (any)
		fputc('\n', out);
}

/* One line on the futex waits for an event, when the ledger tells them apart. */
static void lbt_event_totals(const struct lbt_totals *t, FILE *out)
{
	char a[LBT_NS_BUF];

	if (!lbt_have(LBT_T_TOTALS, t, offsetof(struct lbt_totals, futex_kinds)))
		return;
	if (strcmp(t->futex_kinds, "on")) {
		fputs("futex kinds off: every futex wait counts as a lock wait\n", out);
		return;
	}
	fprintf(out, "event waits (not contention, never blamed): %s over %llu waits, %llu asleep now; futex waits: %llu lock, %llu event\n",
		T(a, t->event_wait_ns), (unsigned long long)t->event_waits,
		(unsigned long long)t->asleep, (unsigned long long)t->futex_lock_waits,
		(unsigned long long)(t->event_waits + t->asleep));
	if (t->futex_counters)
		fprintf(out, "futexes their releases showed to be counters, not locks: %llu\n",
			(unsigned long long)t->futex_counters);
	if (t->event_dropped || t->evicted_sleepers || t->dropped_signals)
		fprintf(out, "event waits not tracked: %llu waits, %llu sleepers evicted, %llu signal records\n",
			(unsigned long long)t->event_dropped,
			(unsigned long long)t->evicted_sleepers,
			(unsigned long long)t->dropped_signals);
}

static void lbt_header(const struct lbt_opts *o, const struct lbt_doc *doc, FILE *out)
{
	const struct lbt_totals *t = lbt_totals(doc);
	char a[LBT_NS_BUF], b[LBT_NS_BUF], c[LBT_NS_BUF], d[LBT_NS_BUF];
	char comm[LBT_COMM_BUF];

	fprintf(out, "lockblame: %s window, %llu events\n", T(a, t->window_ns),
		(unsigned long long)t->events);
	fprintf(out, "waiting %s = blamed on holders %s + unattributed %s + pending %s\n",
		T(a, t->wait_ns), T(b, t->blame_ns), T(c, t->unattributed_ns),
		T(d, t->pending_ns));
	lbt_losses(t, out);
	lbt_event_totals(t, out);
	lbt_probes_note(o->dir, out);
	if (lbt_filter_active(&o->f)) {
		fputs("filter:", out);
		if (o->f.pid_set)
			fprintf(out, " pid %d", o->f.pid);
		if (o->f.tgid_set)
			fprintf(out, " tgid %d", o->f.tgid);
		if (o->f.comm_set)
			fprintf(out, " comm %s", lbt_comm_text(comm, sizeof(comm), o->f.comm.b,
							       o->f.comm.len));
		if (o->f.lock_set)
			fprintf(out, " lock %016llx", (unsigned long long)o->f.lock);
		fputs(" (the totals above are unfiltered)\n", out);
	}
}

static void lbt_processes(const struct lbt_opts *o, const struct lbt_doc *doc, FILE *out)
{
	char a[LBT_NS_BUF], b[LBT_NS_BUF], c[LBT_NS_BUF], d[LBT_NS_BUF], comm[LBT_COMM_BUF];
	const void **v;
	size_t n, i;

	v = lbt_sorted(doc, LBT_T_PROCESS, lbt_process_blame_cmp, &n);
	if (!v || !n) {
		free(v);
		return;
	}
	lbt_section(out, "PROCESSES", "blame", n < o->top ? n : o->top, n);
	fprintf(out, "%7s %-16s %-8s %10s %10s %10s %10s\n", "TGID", "COMM", "VERDICT",
		"BLAME", "ROOT BLAME", "WAIT", "HOLD");
	for (i = 0; i < n && i < o->top; i++) {
		const struct lbt_process *p = v[i];

		fprintf(out, "%7d %-16s %-8s %10s %10s %10s %10s\n", p->tgid,
			p->comm.len ? lbt_comm_text(comm, sizeof(comm), p->comm.b, p->comm.len) : "-",
			*p->verdict ? p->verdict : "-", T(a, p->blame_ns), T(b, p->root_blame_ns),
			T(c, p->wait_ns), T(d, p->hold_ns));
	}
	free(v);
}

/* @part of @whole in whole percent. */
static double lbt_pct(uint64_t part, uint64_t whole)
{
	return 100.0 * (part < whole ? part : whole) / whole;
}

/*
 * Why a task's holds were slow, as percentages of its hold time: on a CPU,
 * runnable but waiting for one, asleep. "?" for a share not measured: none
 * of the hold, or run and sleep without run_delay (a ledger without the
 * split, or a kernel without CONFIG_SCHED_INFO).
 */
struct lbt_hold_split {
	uint64_t hold, on, run, slp, cpu_unknown, run_unknown;
	bool have_run;		/* the ledger has the runnable part at all */
};

static void lbt_split_text(char *buf, size_t size, const struct lbt_hold_split *h)
{
	uint64_t unknown = h->cpu_unknown < h->hold ? h->cpu_unknown : h->hold;
	uint64_t measured = h->hold - unknown;
	bool rq = h->have_run && (measured != h->on + h->run_unknown || !h->run_unknown);

	if (!h->hold)
		snprintf(buf, size, "-");
	else if (!measured)
		snprintf(buf, size, "?");
	else if (!rq)
		snprintf(buf, size, "%.0f/?/?", lbt_pct(h->on, h->hold));
	else
		snprintf(buf, size, "%.0f/%.0f/%.0f", lbt_pct(h->on, h->hold),
			 lbt_pct(h->run, h->hold), lbt_pct(h->slp, h->hold));
}

static void lbt_split(char *buf, size_t size, const struct lbt_task *t)
{
	struct lbt_hold_split h = {
		t->hold_ns, t->hold_on_cpu_ns, t->hold_runnable_ns, t->hold_sleeping_ns,
		t->hold_cpu_unknown_ns, t->hold_runnable_unknown_ns,
		lbt_have(LBT_T_TASK, t, offsetof(struct lbt_task, hold_runnable_ns)),
	};

	lbt_split_text(buf, size, &h);
}

/* The same for a lock's holders; "-" for a ledger without it. */
static void lbt_lock_split(char *buf, size_t size, const struct lbt_lock *l)
{
	struct lbt_hold_split h = {
		l->hold_ns, l->hold_on_cpu_ns, l->hold_runnable_ns, l->hold_sleeping_ns,
		l->hold_cpu_unknown_ns, l->hold_runnable_unknown_ns, true,
	};

	if (!lbt_have(LBT_T_LOCK, l, offsetof(struct lbt_lock, hold_on_cpu_ns)))
		snprintf(buf, size, "-");
	else
		lbt_split_text(buf, size, &h);
}

static void lbt_tasks(const struct lbt_opts *o, const struct lbt_doc *doc, FILE *out)
{
	char a[LBT_NS_BUF], b[LBT_NS_BUF], c[LBT_NS_BUF], d[LBT_NS_BUF], comm[LBT_COMM_BUF];
	char cpu[48];
	const void **v;
	size_t n, i;

	v = lbt_sorted(doc, LBT_T_TASK, lbt_task_blame_cmp, &n);
	if (!v)
		return;
	lbt_section(out, "TASKS", "blame", n < o->top ? n : o->top, n);
	fprintf(out, "%7s %7s %-16s %-8s %10s %10s %10s %10s %11s\n", "PID", "TGID", "COMM",
		"VERDICT", "BLAME", "ROOT BLAME", "WAIT", "HOLD", "ON/RUN/SLP%");
	for (i = 0; i < n && i < o->top; i++) {
		const struct lbt_task *t = v[i];

		lbt_split(cpu, sizeof(cpu), t);
		fprintf(out, "%7d %7d %-16s %-8s %10s %10s %10s %10s %11s\n", t->pid, t->tgid,
			t->comm.len ? lbt_comm_text(comm, sizeof(comm), t->comm.b, t->comm.len) : "-",
			*t->verdict ? t->verdict : "-", T(a, t->blame_ns), T(b, t->root_blame_ns),
			T(c, t->wait_ns), T(d, t->hold_ns), cpu);
	}
	if (!n)
		fputs("  (no task matches)\n", out);
	free(v);
}

static void lbt_locks(const struct lbt_opts *o, const struct lbt_doc *doc, FILE *out)
{
	char a[LBT_NS_BUF], b[LBT_NS_BUF], who[LBT_COMM_BUF + 24], cause[LBT_COMM_BUF + 40];
	char name[LBT_COMM_BUF], split[48];
	const void **v;
	size_t n, i;

	v = lbt_sorted(doc, LBT_T_LOCK, lbt_lock_wait_cmp, &n);
	if (!v || !n) {
		free(v);
		return;
	}
	lbt_section(out, "LOCKS", "wait", n < o->top ? n : o->top, n);
	fprintf(out, "%-16s  %-8s %8s %10s %10s %11s  %-28s %s\n", "LOCK", "CLASS", "ACQ", "WAIT",
		"WAIT P99", "ON/RUN/SLP", "NAME", "TOP CAUSE");
	for (i = 0; i < n && i < o->top; i++) {
		const struct lbt_lock *l = v[i];

		if (lbt_have(LBT_T_LOCK, l, offsetof(struct lbt_lock, top_cause)) && l->top_cause)
			snprintf(cause, sizeof(cause), "%s",
				 lbt_who(doc, l->top_cause, who, sizeof(who)));
		else if (l->holder)
			snprintf(cause, sizeof(cause), "%s (holding now)",
				 lbt_who(doc, l->holder, who, sizeof(who)));
		else
			snprintf(cause, sizeof(cause), "-");
		lbt_lock_split(split, sizeof(split), l);
		fprintf(out, "%016llx  %-8s %8llu %10s %10s %11s  %-28s %s\n",
			(unsigned long long)l->id, *l->class ? l->class : "-",
			(unsigned long long)l->acq, T(a, l->wait_ns), T(b, l->wait_p99), split,
			lbt_name_text(name, sizeof(name), &l->name), cause);
	}
	free(v);
}

static void lbt_chains(const struct lbt_opts *o, const struct lbt_doc *doc, FILE *out)
{
	char a[LBT_NS_BUF], h[LBT_COMM_BUF + 24], r[LBT_COMM_BUF + 24];
	const void **v;
	bool folded = false;
	size_t n, i;

	v = lbt_sorted(doc, LBT_T_CHAIN, lbt_chain_blame_cmp, &n);
	if (!v || !n) {
		free(v);
		return;
	}
	lbt_section(out, "CHAINS (blame passed through a blocked holder to the root cause)",
		    "blame", n < o->top ? n : o->top, n);
	for (i = 0; i < n && i < o->top; i++) {
		const struct lbt_chain *c = v[i];

		fprintf(out, "%10s  waiters of %016llx held by %s, itself waiting on %016llx: root cause %s\n",
			T(a, c->blame_ns), (unsigned long long)c->victim_lock,
			lbt_who(doc, c->holder, h, sizeof(h)), (unsigned long long)c->waits_on,
			lbt_who(doc, c->root, r, sizeof(r)));
		folded |= !c->victim_lock || !c->waits_on;
	}
	if (folded)
		fprintf(out, "%10s  (lock 0000000000000000, pid 0: folded for room)\n", "");
	free(v);
}

static void lbt_deadlocks(const struct lbt_doc *doc, FILE *out)
{
	char who[LBT_COMM_BUF + 24];
	bool title = false;
	size_t i;
	unsigned int j;

	for (i = 0; i < LBT_ROWS(doc, LBT_T_DEADLOCK); i++) {
		const struct lbt_deadlock *d = LBT_REC(doc, LBT_T_DEADLOCK, struct lbt_deadlock, i);

		if (!d->h.keep)
			continue;
		if (!title)
			lbt_section(out, "DEADLOCKS (each task waits on a lock another one holds)",
				    NULL, 0, 0);
		title = true;
		fputs("  tasks", out);
		for (j = 0; j < d->tasks.n; j++) {
			lbt_who(doc, d->tasks.v[j], who, sizeof(who));
			fprintf(out, "%s %s", j ? "," : "", who);
		}
		fputs("; locks", out);
		for (j = 0; j < d->locks.n; j++)
			fprintf(out, "%s %016llx", j ? "," : "", (unsigned long long)d->locks.v[j]);
		fputc('\n', out);
	}
}

/* "comm/pid" of a signal's party, or @none for pid 0. */
static const char *lbt_party(char *buf, size_t size, int32_t pid, const struct lbt_comm *c,
			     const char *none)
{
	char comm[LBT_COMM_BUF];

	if (!pid)
		return none;
	snprintf(buf, size, "%s/%d", c->len ? lbt_comm_text(comm, sizeof(comm), c->b, c->len) :
		 "-", pid);
	return buf;
}

static void lbt_event_waits(const struct lbt_opts *o, const struct lbt_doc *doc, FILE *out)
{
	char a[LBT_NS_BUF], m[LBT_NS_BUF], w[LBT_COMM_BUF + 24], s[LBT_COMM_BUF + 24];
	const void **v;
	size_t n, i;

	v = lbt_sorted(doc, LBT_T_SIGNAL, lbt_signal_wait_cmp, &n);
	if (!v || !n) {
		free(v);
		return;
	}
	lbt_section(out, "EVENT WAITS (who waited for whom to signal: not contention)", "wait",
		    n < o->top ? n : o->top, n);
	fprintf(out, "%-24s %7s  %-24s %7s %10s %7s %10s\n", "WAITER", "TGID", "SIGNALLER",
		"TGID", "WAIT", "WAITS", "MAX");
	for (i = 0; i < n && i < o->top; i++) {
		const struct lbt_signal *g = v[i];

		fprintf(out, "%-24s %7d  %-24s %7d %10s %7llu %10s\n",
			lbt_party(w, sizeof(w), g->waiter, &g->waiter_comm, "-"), g->waiter_tgid,
			lbt_party(s, sizeof(s), g->waker, &g->waker_comm, "nobody seen"),
			g->waker_tgid, T(a, g->wait_ns), (unsigned long long)g->waits,
			T(m, g->max_ns));
	}
	fputs("  rows group tasks by process and name (the pids are the last seen); \"nobody seen\": a timeout, a signal, or a wake older than the wait\n",
	      out);
	free(v);
}

int lbt_summary(const struct lbt_opts *o, const struct lbt_doc *doc, FILE *out)
{
	lbt_header(o, doc, out);
	if (!LBT_ROWS(doc, LBT_T_TASK) && !LBT_ROWS(doc, LBT_T_LOCK)) {
		fputs("\nno contended lock acquisition recorded yet\n", out);
	} else {
		lbt_processes(o, doc, out);
		lbt_tasks(o, doc, out);
		lbt_locks(o, doc, out);
		lbt_chains(o, doc, out);
		lbt_deadlocks(doc, out);
		if (lbt_cgroup_known(doc))
			lbt_cgroup_pairs(o, doc, out);
	}
	lbt_event_waits(o, doc, out);
	return 0;
}
