/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Synthetic contention scenarios for the ledger with their exact expected
 * accounts (ledger_scenarios.c), and the runner that feeds and checks them
 * (ledger_runner.c): shared by the KUnit suite (kunit/ledger_test.c) and the
 * host tests (tools/hosttest/).
 *
 * Times are in ns from an arbitrary origin. Every expected number below was
 * worked out by hand from the blame rule (see the comment on each scenario);
 * the runner also checks conservation after every step.
 */
#ifndef _LOCKBLAME_LEDGER_SCENARIOS_H
#define _LOCKBLAME_LEDGER_SCENARIOS_H

#include "ledger.h"

enum lb_scn_op {
	LB_SCN_DONE = 0,
	LB_SCN_EVENT,		/* feed the event described by the step */
	LB_SCN_ADVANCE,		/* lb_ledger_advance(.t) */
	LB_SCN_X_TASK,		/* .pid: wait, blame, root_blame, hold, hold_on_cpu, verdict */
	LB_SCN_X_TASK_COUNTS,	/* .pid: waits, holds, holds_lower_bound, errors, kthread, tgid */
	LB_SCN_X_TASK_COMM,	/* .pid has comm .comm */
	LB_SCN_X_NO_TASK,	/* .pid is not tracked (evicted) */
	LB_SCN_X_NO_LOCK,	/* .lock is not tracked */
	LB_SCN_X_LOCK,		/* .lock: acquisitions, wait, hold, blame, holder, waiters */
	LB_SCN_X_LOCK_MORE,	/* .lock: pending, unattributed, holds, lower, at_release, now */
	LB_SCN_X_LOCK_USE,	/* .lock: errors, util_ppm, sat_milli, probable holder */
	LB_SCN_X_LOCK_PCT,	/* .lock: wait p50, p99, max, hold p50, p99, max */
	LB_SCN_X_TOTALS,	/* wait, blame, pending, unattributed */
	LB_SCN_X_COUNTERS,	/* late, unmatched, dropped waiters, pairs, evicted locks, tasks */
	LB_SCN_X_COUNTERS2,	/* invalid, dropped holders, dropped chains, window_ns */
	LB_SCN_X_PAIR,		/* .pid (holder), .owner (victim): blame */
	LB_SCN_X_PROC,		/* .pid (tgid): wait, blame, root_blame, hold, verdict */
	LB_SCN_X_PROC_COMM,	/* .pid (tgid) is named .comm */
	LB_SCN_X_DEADLOCKS,	/* distinct deadlock cycles */
	LB_SCN_X_CHAIN,		/* .lock (victim), .pid (holder), .cpu (waits on), .owner (root) */
	LB_SCN_X_FOLDED,	/* folded locks, their wait and blame; chain records */
	LB_SCN_NEXT_STACK,	/* the next event carries kernel stack id .count */
	LB_SCN_X_STACK,		/* .pid, .result (1: cause, 0: victim), .count (stack id): ns */
	LB_SCN_X_VERDICT,	/* .pid: verdict, root_blame */
	LB_SCN_X_EVENT_TASK,	/* .pid: event wait_ns, waits, last signaller */
	LB_SCN_X_EVENT_TOTALS,	/* event wait, waits, errors, dropped, asleep, futexes */
	LB_SCN_X_TASK_SPLIT,	/* .pid: hold, on CPU, runnable, sleeping, cpu/runnable unknown */
	LB_SCN_X_PROC_SPLIT,	/* .pid (tgid): hold, on CPU, runnable */
	LB_SCN_X_UNENDED,	/* holds whose release was not seen: .lock's, .pid's */
	LB_SCN_X_CGROUP,	/* .pid's cgroup, and its process's (.owner: tgid) */
	LB_SCN_X_CGROUP_PAIR,	/* .holder_cgroup, .victim_cgroup: blame */
	LB_SCN_RESET,		/* lb_ledger_reset() */
	LB_SCN_X_OUTLIERS,	/* threshold, kept, missed, shortest and longest kept */
	LB_SCN_X_OUTLIER,	/* kind .result, victim .pid, holder .owner: its values */
};

/*
 * What an expectation step wants, by name: one member per kind of step,
 * each field compared with the ledger's value of the same name.
 */
union lb_scn_want {
	struct { u64 wait, blame, root_blame, hold, hold_on_cpu, verdict; } task;
	struct { u64 hold, on_cpu, runnable, sleeping, cpu_unknown, runnable_unknown; } task_split;
	struct { u64 waits, holds, holds_lower_bound, errors, kthread, tgid; } task_counts;
	struct { u64 acquisitions, wait, hold, blame, holder, waiters; } lock;
	struct {
		u64 pending, unattributed, holds, holds_lower_bound, holds_at_release, holders;
	} lock_more;
	struct { u64 errors, util_ppm, sat_milli, probable; } lock_use;
	struct { u64 wait_p50, wait_p99, wait_max, hold_p50, hold_p99, hold_max; } lock_pct;
	struct { u64 lock_holds, task_holds; } unended;
	struct { u64 wait, blame, pending, unattributed; } totals;
	struct {
		u64 late, unmatched, dropped_waiters, dropped_pairs, evicted_locks, evicted_tasks;
	} counters;
	struct { u64 invalid, dropped_holders, dropped_chains, window; } counters2;
	struct { u64 blame; } pair;
	struct { u64 deadlocks; } deadlocks;
	struct { u64 blame; } chain;
	struct { u64 locks, wait, blame, chains; } folded;
	struct { u64 ns; } stack;
	struct { u64 verdict, root_blame; } verdict;
	struct { u64 wait, waits, signaller; } event_task;
	struct {
		u64 wait, waits, errors, dropped, asleep, futex_lock_waits, futex_counters;
	} event_totals;
	struct { u64 wait, blame, root_blame, hold, verdict; } proc;
	struct { u64 hold, on_cpu, runnable; } proc_split;
	struct { u64 task, proc; } cgroup;
	struct { u64 blame; } cgroup_pair;
	struct { u64 threshold, kept, missed, shortest, longest; } outliers;
	struct {
		u64 ns, on_cpu, runnable, sleeping, unknown, victim_stack, holder_stack, root;
	} outlier;
};

struct lb_scn_step {
	u8 op;
	u8 type, lock_class, result, owner_source;
	u16 flags;
	s32 pid, owner;
	u32 count;
	u32 word;
	u64 t, lock, cpu, owner_cpu;
	u64 run_delay, owner_run_delay;	/* run_delay readings (0: not read, unless in .flags) */
	union lb_scn_want want;		/* an expectation's values */
	const char *comm;		/* an expectation's name; an event's renamed task */
	u64 holder_cgroup, victim_cgroup;	/* LB_SCN_X_CGROUP_PAIR's subject */
};

struct lb_scn_task {
	s32 pid, tgid;
	const char *comm;
	bool kthread;
	const char *pcomm;	/* the process name the events carry; NULL: none */
};

/* The cgroup v2 id a task's events carry (0, not known, for any other task). */
struct lb_scn_cgroup {
	s32 pid;
	u64 cgroup;
};

struct lb_scenario {
	const char *name;
	struct lb_ledger_limits limits;		/* zero: defaults */
	const struct lb_scn_task *tasks;	/* ends with pid 0 */
	const struct lb_scn_step *prologue;	/* NULL, or steps run first */
	const struct lb_scn_step *epilogue;	/* NULL, or steps run last */
	const struct lb_scn_step *steps;	/* ends with LB_SCN_DONE */
	bool kinds_off;				/* every futex a lock */
	const struct lb_scn_cgroup *cgroups;	/* NULL, or ends with pid 0 */
	u64 outlier_ns;				/* keep outliers from this long; 0: off */
};

#define LB_LK(n)	(0x10cb000000000000ULL + (n))

/* The index of each scenario, for tests that pick one. */
enum lb_scn_index {
	LB_SCN_ON_CPU, LB_SCN_OFF_CPU, LB_SCN_EQUAL_WAITS, LB_SCN_SHORT_LIVED,
	LB_SCN_SHARED_FUTEX, LB_SCN_CHAIN, LB_SCN_ALTERNATING, LB_SCN_KTHREAD,
	LB_SCN_DEADLOCK, LB_SCN_DEADLOCK3, LB_SCN_KNOWN_AT_RELEASE, LB_SCN_RWSEM,
	LB_SCN_OVERFLOW, LB_SCN_LATE, LB_SCN_ERRORS, LB_SCN_WAKE_FIRST, LB_SCN_THREAD_EXIT,
	LB_SCN_FUTEX_COUNTER,
	LB_SCN_MANY_READERS, LB_SCN_STACKS, LB_SCN_CHAIN_FUTEX, LB_SCN_CHAIN_USERSPACE,
	LB_SCN_CHAIN3, LB_SCN_MIDDLE_WORKS, LB_SCN_MIDDLE_SOME_WORK, LB_SCN_POOL,
	LB_SCN_POOL_KINDS_OFF, LB_SCN_PARKED, LB_SCN_SELF_PENDING, LB_SCN_CONTENDED_PART,
	LB_SCN_HOLD_SPLIT, LB_SCN_RELEASE_LOST, LB_SCN_READERS_LEAVE, LB_SCN_CGROUPS,
	LB_SCN_OUTLIERS, LB_SCN_RELEASE_BEHIND, LB_SCN_WAKES_STOLEN,
	LB_SCN_RELEASE_LATE_TWO,
	LB_SCN_CHAIN_FUTEX3, LB_SCN_CHAIN_FUTEX5, LB_SCN_CHAIN_MUTEX_MIDDLE,
	LB_SCN_CHAIN_WRONG_GUESS,
	LB_SCN_CULPRIT_FIRST, LB_SCN_CULPRIT_LAST, LB_SCN_CULPRIT_AMID,
	LB_SCN_CULPRIT_AFTER_HEAVY, LB_SCN_HERD_AFTER_CULPRIT,
	LB_SCN_SCOPE_GIL, LB_SCN_SCOPE_SEMQ, LB_SCN_RENAMED, LB_SCN_STOLEN,
	LB_SCN_PAIRS_LIVE, LB_SCN_SCOPE_WORDS, LB_SCN_COUNTERS_COLLIDE, LB_SCN_SCOPE_SPAN,
	LB_SCN_WAKES_COLLIDE, LB_SCN_SPAN_CHAIN, LB_SCN_FOLD_SETTLED,
	LB_SCN_FOLD_HOLDERS, LB_SCN_CHAIN_LATE_RELEASE, LB_SCN_SPAN_DEBT,
	LB_SCN_SPAN_SPLIT, LB_SCN_SCOPE_RELEASE, LB_SCN_SCOPE_GIL_SWITCH,
	LB_SCN_COUNT
};

extern const struct lb_scenario lb_scenarios[LB_SCN_COUNT];

/* The verdict rule at its edges. */
struct lb_verdict_case {
	const char *name;
	u64 blame, wait;
	enum lb_verdict want;
};

#define LB_VERDICT_CASES	11
extern const struct lb_verdict_case lb_verdict_cases[LB_VERDICT_CASES];

/* ledger_runner.c: feeds a scenario and reports every check through @check. */
struct lb_scn_check {
	void (*check)(void *ctx, const struct lb_scenario *s, u32 step, const char *what,
		      u64 got, u64 want);
	void *ctx;
	const struct lb_scenario *s;
	u32 step;
};

void lb_scn_run(const struct lb_scenario *s, struct lb_ledger *l, struct lb_scn_check *c);

/* A tiny deterministic generator of messy event streams (both builds). */
u64 lb_scn_rand(u64 *state);
void lb_scn_random_event(u64 *state, u64 *ts, struct lb_event *ev);

/* The comm with odd bytes both test builds feed, and its escaped form in the dump. */
#define LB_SCN_ODD_COMM_ESCAPED " comm=a\\x20b\\x0a\\x3d\\x5c\\x01\\xff wait_ns=90 "

/* A ledger holding one 90 ns wait by task 42, whose comm has odd bytes. */
struct lb_ledger *lb_scn_odd_comm_ledger(void);

/* A text sink for the report and dump, in a caller-provided buffer. */
struct lb_scn_text {
	struct lb_out out;
	char *buf;
	size_t len, size;
	bool overflow;
};

void lb_scn_text_init(struct lb_scn_text *t, char *buf, size_t size);
/* 0 if every line fits @cols and holds only printable ASCII; else the bad line (1-based). */
u32 lb_scn_text_bad_line(const char *text, u32 cols);
/* How many lines of @text start with @prefix. */
u32 lb_scn_text_count(const char *text, const char *prefix);

#endif /* _LOCKBLAME_LEDGER_SCENARIOS_H */
