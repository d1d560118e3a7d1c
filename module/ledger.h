/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ledger: turns a time-ordered stream of lockblame events into per-lock
 * and per-task accounts of waiting, holding and blame. Plain C: it builds in
 * the kernel and, through lb_shim.h, on the host.
 */
#ifndef _LOCKBLAME_LEDGER_H
#define _LOCKBLAME_LEDGER_H

#include "lb_shim.h"
#include <lockblame/abi.h>
#include <lockblame/ledger_format.h>

/*
 * The largest capacities: tables of locks, tasks, waiters and sleepers, and
 * the blame pairs. Decimal, as modinfo shows them (module/config_list.h).
 */
#define LB_LEDGER_TABLE_MAX	1048576
#define LB_LEDGER_PAIRS_MAX	4194304

/*
 * Table capacities; every table is allocated once, at create time. A zero
 * field takes a default. max_tasks should exceed the waiters and holders
 * outstanding at once (they pin their tasks); max_chain_depth is capped at 16.
 */
struct lb_ledger_limits {
	u32 max_locks;		/* locks tracked at once */
	u32 max_tasks;		/* tasks (threads) tracked at once */
	u32 max_waiters;	/* (lock, waiter) pairs outstanding at once */
	u32 max_pairs;		/* (holder, victim) blame pairs */
	u32 max_chain_depth;	/* how far blame flows along holder-waits-on chains */
	u32 max_sleepers;	/* tasks kept for event waits (futex sleeps not contention) */
};

/*
 * Totals over the whole ledger, for the conservation invariant:
 * blame_ns + unattributed_ns + pending_ns == wait_ns, always.
 */
struct lb_ledger_totals {
	u64 events;		/* events fed */
	u64 wait_ns;		/* all waiting, ended waits plus open waits up to "now" */
	u64 blame_ns;		/* waiting charged to a known holder */
	u64 pending_ns;		/* waiting whose holder is not known yet (resolved at release) */
	u64 unattributed_ns;	/* waiting whose holder could never be known */
	u64 late_events;	/* events older than the ledger's clock, clamped */
	u64 unmatched_events;	/* ends/releases with no matching begin */
	u64 evicted_locks, evicted_tasks, dropped_waiters, dropped_pairs;
	u64 window_ns;		/* ledger clock minus the first event's ts */
	u64 invalid_events;	/* malformed events, ignored */
	u64 dropped_holders;	/* holders past a lock's holder slots (others take the blame) */
	u64 dropped_chains;	/* chain records past the chain table */
	u64 deadlocks;		/* distinct deadlock cycles found */
	u64 chain_cut_ns;	/* root blame stopped short: max_chain_depth, or no room */
	u64 dropped_stacks;	/* stack records past the stack table */
	/* Event waits: futex sleeps classified as not contention (own totals). */
	u64 futex_lock_waits;	/* futex waits classified as lock waits */
	u64 futex_counters;	/* futexes whose release advanced the word: not locks */
	u64 disowned_ns;	/* blame of woken waiters that waited again: pending again */
	u64 past_root_ns;	/* root blame named late, sent on past the releaser */
	/* Settled locks given up for room: only their own records went. */
	u64 folded_locks, folded_wait_ns, folded_blame_ns;
	u64 folded_chains;	/* chain records that gave their locks' identity up */
	u64 event_waits;	/* futex waits classified as event waits (ended) */
	u64 event_wait_ns;	/* their time, ended waits */
	u64 event_open_ns;	/* time of event waits still open, up to now */
	u64 event_errors;	/* of event waits: timeout, signal, value changed */
	u64 event_dropped;	/* event waits no sleeper slot was left for */
	u64 evicted_sleepers;	/* sleepers forgotten to make room */
	u64 dropped_signals;	/* ended event waits past the signal table */
	u32 asleep;		/* tasks in an event wait now */
	u64 outliers_missed;	/* outliers not kept: the table held longer ones */
	/* What full tables let go, least worth first (ledger_tables.c). */
	u64 evicted_wait_ns;	/* waiting the evicted tasks carried (still in wait_ns) */
	u64 evicted_blame_ns;	/* blame the evicted tasks carried (still in blame_ns) */
	u64 refused_tasks;	/* new tasks given no slot: all pinned or worth more */
	u64 dropped_pair_ns;	/* blame of pairs evicted, or never given a slot */
	/* Scopes (ledger_scopes.c): runtime locks above futexes. */
	u64 scope_waits;	/* futex sleeps inside a scope that began a wait on its lock */
	u64 scope_releases;	/* wakes and release calls taken as releases of a scope's lock */
	u64 scope_evicted;	/* tasks inside a scope forgotten to make room */
	u64 scope_words_evicted;	/* words slept on in a scope forgotten to make room */
};

/*
 * The worst cases, kept whole (ledger_outliers.c): a wait or a contended
 * hold of at least the threshold. A holder or victim with pid 0 is not
 * known; stack ids are 0 when stacks were off.
 */
#define LB_OUTLIERS		32
struct lb_outlier {
	u8 kind;		/* enum lb_outlier_kind */
	u8 lock_class;
	u64 ns;			/* how long the wait or the hold was */
	u64 ts_ns;		/* when it ended */
	u64 lock;
	u32 name_id;
	struct lb_task_id victim, holder;
	u32 victim_stack, victim_ustack;	/* where the wait began */
	u32 holder_stack, holder_ustack;	/* the holder's release */
	/* The holder's hold: on_cpu + runnable + sleeping + unknown. */
	u64 on_cpu_ns, runnable_ns, sleeping_ns, unknown_ns;
	s32 root;		/* the chain's root cause when the holder waited; 0: none */
	bool release_owed;	/* a wait's holder still holds: the rest at its release */
};

/*
 * What a task waited, held and caused: kept per task and, summed, per
 * process (which outlives its evicted tasks). lb_account_add() adds to both.
 */
struct lb_account {
	u64 wait_ns;		/* time spent waiting on contended locks */
	u64 waits;		/* contended waits ended (or never slept) */
	u64 errors;		/* of them: timeout, signal or value changed */
	u64 hold_ns;		/* time holding a lock while others waited */
	u64 hold_on_cpu_ns;	/* part of hold_ns on a CPU */
	u64 hold_runnable_ns;	/* part of hold_ns runnable, waiting for a CPU */
	u64 holds;		/* contended holds ended */
	u64 blame_ns;		/* waiter-ns inflicted while holding */
	u64 root_blame_ns;	/* blame kept: inflicted while running, or reached through chains */
};

/* What the ledger knows of one task (for tests and the report). */
struct lb_task_stats {
	struct lb_task_id id;
	struct lb_account acct;	/* what it waited, held and caused */
	enum lb_verdict verdict;	/* from acct: root_blame_ns (the blame it keeps), wait_ns */
	u64 hold_cpu_unknown_ns;/* part of hold_ns whose on-CPU share was not measured */
	u64 holds_lower_bound;	/* holds whose start was not seen: hold_ns is a lower bound */
	u64 holds_unended;	/* holds whose release was not seen: counted until dropped */
	bool kthread;
	u64 event_wait_ns;	/* time in event waits (not contention), open ones included */
	u64 event_waits;
	/*
	 * Why the holder was slow: hold_ns = hold_on_cpu_ns + hold_runnable_ns
	 * + hold_sleeping_ns + hold_cpu_unknown_ns + hold_runnable_unknown_ns.
	 */
	u64 hold_sleeping_ns;	/* part of hold_ns blocked: asleep, on I/O or a lock */
	/* part of hold_ns off CPU whose runnable share was not read (no run_delay) */
	u64 hold_runnable_unknown_ns;
};

/* A process (tgid): the sum of its tasks, kept when its tasks are evicted. */
struct lb_process_stats {
	s32 tgid;
	char comm[LB_COMM_LEN];	/* the leader's comm if seen, else the first thread's */
	u32 tasks;		/* its tasks tracked now */
	struct lb_account acct;	/* the sum of its tasks', evicted ones included */
	enum lb_verdict verdict;
	u64 cgroup;		/* its latest task's cgroup v2 id; 0: not known */
};

/* A lock's counters: kept by the ledger, copied whole to its stats. */
struct lb_lock_counts {
	u64 acquisitions;	/* contended acquisitions (waits ended) */
	u64 wait_ns, hold_ns, blame_ns, pending_ns, unattributed_ns;
	u64 busy_ns;		/* time held while somebody waited */
	u64 errors;		/* waits ended by timeout, signal or value change */
	u64 holds;		/* contended holds ended */
	u64 holds_lower_bound;	/* of which the start was not seen */
	u64 holds_at_release;	/* of which the holder was learnt only at release (futex) */
	u64 holds_unended;	/* of which the release was not seen (ended unseen or lost) */
	/* Why its holders were slow: the parts of hold_ns, as a task's are. */
	u64 hold_on_cpu_ns, hold_runnable_ns, hold_cpu_unknown_ns, hold_runnable_unknown_ns;
};

struct lb_lock_stats {
	u64 lock;
	u8 lock_class;
	struct lb_lock_counts cnt;
	u64 wait_p50_ns, wait_p99_ns, wait_max_ns;
	u64 hold_p50_ns, hold_p99_ns, hold_max_ns;
	u32 waiters_now;
	s32 holder_pid;		/* 0 if not known */
	u32 holders_now;	/* known holders (rwsem readers may be several) */
	s32 probable_pid;	/* heuristic owner (glibc __owner), never blamed; 0 if none */
	/* the rest of hold_ns: hold_ns - on_cpu - runnable - both unknowns */
	u64 hold_sleeping_ns;
	u64 util_ppm;		/* busy_ns / window, parts per million */
	u64 sat_milli;		/* wait_ns / window: mean queue length x 1000 */
	s32 top_cause_pid;	/* the holder that inflicted the most waiting here; 0 if none */
	u64 top_cause_ns;	/* its blame on this lock (exact unless it had many causes) */
	/* Its name: a kernel lock's (NULL if unnamed), a futex's process and word. */
	const char *name;
	s32 name_tgid;
	u64 uaddr;
};

struct lb_ledger;

/* Output sink for the report: the kernel wraps seq_printf, the host stdio. */
struct lb_out {
	void (*printf)(struct lb_out *out, const char *fmt, ...) __printf(2, 3);
	void *priv;
};

struct lb_ledger *lb_ledger_create(const struct lb_ledger_limits *limits);
void lb_ledger_destroy(struct lb_ledger *l);
/* Where the names of name ids come from (the module's names table). */
void lb_ledger_set_namer(struct lb_ledger *l, const char *(*name_of)(u32 id));
void lb_ledger_reset(struct lb_ledger *l);
/* Bytes the ledger allocated at create time (shown in "stats"). */
u64 lb_ledger_bytes(const struct lb_ledger *l);

/*
 * Feed one event. Events should come in ts_ns order; small inversions are
 * clamped to the ledger's clock and counted in late_events.
 */
void lb_ledger_feed(struct lb_ledger *l, const struct lb_event *ev);

/*
 * Bring open waits and holds up to @now_ns (same clock as ts_ns), and apply
 * the time locks kept back and the charges waits put aside: call it before
 * reading the ledger.
 */
void lb_ledger_advance(struct lb_ledger *l, u64 now_ns);

void lb_ledger_totals(const struct lb_ledger *l, struct lb_ledger_totals *t);
/* Records the ledger's tables dropped or evicted; 0 when it kept everything. */
u64 lb_ledger_dropped(const struct lb_ledger *l);
bool lb_ledger_task(const struct lb_ledger *l, s32 pid, struct lb_task_stats *st);
bool lb_ledger_lock(const struct lb_ledger *l, u64 lock, struct lb_lock_stats *st);
u64 lb_ledger_pair_blame(const struct lb_ledger *l, s32 holder_pid, s32 victim_pid);
/* A chain record's blame (0 if there is none); all 0: how many records there are. */
u64 lb_ledger_chain_blame(const struct lb_ledger *l, u64 victim_lock, s32 holder, u64 waits_on,
			  s32 root);
u64 lb_ledger_cgroup_blame(const struct lb_ledger *l, u64 holder_cgroup, u64 victim_cgroup);
/* Blame (@cause) or waiting of @pid recorded under kernel stack @stack_id. */
u64 lb_ledger_stack_ns(const struct lb_ledger *l, s32 pid, bool cause, u32 stack_id);
bool lb_ledger_process(const struct lb_ledger *l, s32 tgid, struct lb_process_stats *st);
/* A task's event waits (not contention): time (open ones to now), count, last signaller. */
bool lb_ledger_event_task(const struct lb_ledger *l, s32 pid, u64 *wait_ns, u64 *waits,
			  s32 *waker);

/* The verdict rule, for tasks and processes alike (see ledger_query.c). */
enum lb_verdict lb_verdict_of(u64 kept_blame_ns, u64 wait_ns);

/* What a reader may change while the ledger runs (ledger_events.c). */
struct lb_ledger_opts {
	bool futex_kinds;	/* tell futex locks from event waits (off: every futex a lock) */
	u64 outlier_ns;		/* keep waits and holds this long whole (0: off) */
	bool no_defer;		/* apply every lock's time at every event (tests compare) */
};

void lb_ledger_set_opts(struct lb_ledger *l, const struct lb_ledger_opts *o);
void lb_ledger_opts(const struct lb_ledger *l, struct lb_ledger_opts *o);

const char *lb_verdict_name(enum lb_verdict v);

/* Outliers kept, and the @i-th of them (in no order). */
u32 lb_ledger_nr_outliers(const struct lb_ledger *l);
bool lb_ledger_outlier(const struct lb_ledger *l, u32 i, struct lb_outlier *o);
/* The outliers, longest first ("outliers" in debugfs). */
void lb_ledger_outliers(const struct lb_ledger *l, struct lb_out *out);

/* The human report ("report" in debugfs). */
void lb_ledger_report(const struct lb_ledger *l, struct lb_out *out);

/*
 * The machine-readable dump ("ledger" in debugfs, read by tools/lockblame
 * and the end-to-end tests), whose records include/lockblame/ledger_format.h
 * defines.
 */
void lb_ledger_dump(const struct lb_ledger *l, struct lb_out *out);

#endif /* _LOCKBLAME_LEDGER_H */
