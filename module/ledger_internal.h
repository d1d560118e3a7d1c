/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ledger's private state, shared by its tables, its event engine and its
 * report; only module/ledger*.c include this.
 */
#ifndef _LOCKBLAME_LEDGER_INTERNAL_H
#define _LOCKBLAME_LEDGER_INTERNAL_H

#include "ledger.h"
#include "ledger_hist.h"

#define LB_LOCK_HOLDERS		4	/* known holders per lock (rwsem readers) */
#define LB_WORTH_BUCKETS	65	/* a task's worth: 0, or fls64() of it */
#define LB_LOCK_TOP		4	/* top causes and victims remembered per lock */
#define LB_CHAIN_DEPTH_MAX	16
#define LB_CYCLE_MAX		(LB_CHAIN_DEPTH_MAX + 1)
#define LB_DEADLOCKS_MAX	16
#define LB_EVICT_SCAN		8	/* eviction looks this far from the LRU end */

/* A task's clocks read by one event: 0 is "not read" for either. */
struct lb_clocks {
	u64 cpu_ns;			/* on CPU so far (sum_exec_runtime) */
	u64 run_delay_ns;		/* runnable, not running, so far (run_delay) */
	bool run_delay_read;		/* run_delay_ns is a reading (0 is one) */
};

/*
 * Where a hold began, as far as it is known: when, and its task's clocks
 * then (c.cpu_ns 0: not read), from which the hold's on-CPU and runnable
 * parts are measured at its release (lb_record_hold).
 */
struct lb_hold_start {
	u64 ts;
	struct lb_clocks c;
};

/* How a holder is known (lb_holder.known). */
enum lb_hold_known {
	LB_HOLD_EXACT,		/* its acquire was seen */
	LB_HOLD_LOWER_BOUND,	/* named by an owner field: start is when we learnt of it */
	LB_HOLD_LIKELY,		/* a woken futex waiter: probably took the lock */
	LB_HOLD_DEBT,		/* likely, woken before the release that woke it was seen */
};

/* One known holder of a lock, and where its current hold started. */
struct lb_holder {
	struct lb_task *task;
	u64 blame_ns;			/* blame charged during this hold */
	u64 contended_ns;		/* time this hold had a waiter, holder known */
	struct lb_hold_start start;
	u8 known;			/* enum lb_hold_known */
	bool reader;			/* rwsem read side */
	bool passed_on;			/* some blame went on along a chain */
};

/* A woken futex waiter, who probably took the lock (LB_HOLD_LIKELY, LB_HOLD_DEBT). */
static inline bool lb_holder_woken(const struct lb_holder *h)
{
	return h->known == LB_HOLD_LIKELY || h->known == LB_HOLD_DEBT;
}

/* A heavy hitter of one lock: a cause (by blame) or a victim (by wait). */
struct lb_top {
	s32 pid;
	bool pinned;	/* it pins its task (lb_top_take) */
	u64 ns;
};

struct lb_proc {
	struct hlist_node hnode;
	struct list_head lru;		/* free list, or proc_lru while no task refers to it */
	s32 tgid;
	char comm[LB_COMM_LEN];
	bool kthread;
	u32 nr_tasks;
	struct lb_account acct;		/* the sum of its tasks' */
	u64 cgroup;			/* its latest task's cgroup v2 id; 0: not known */
};

struct lb_task {
	struct hlist_node hnode;
	struct list_head lru;		/* free list, or task_lru while not pinned */
	struct lb_task_id id;
	bool kthread;
	bool swallow_end;		/* its wait on swallow_lock was found not to be */
	u16 tops;			/* lock top slots pinning it (lb_top_take) */
	u32 pins;			/* its live wait, holder and top slots: not evictable */
	struct lb_waiter *waiting;	/* its live wait while it is blocked */
	u64 swallow_lock;		/* contention: its end is expected, and ignored */
	struct lb_proc *proc;
	struct lb_account acct;
	/* Its holds' details, not summed per process. */
	u64 hold_cpu_unknown_ns, hold_runnable_unknown_ns, holds_lower_bound, holds_unended;
};

static inline void lb_account_sum(struct lb_account *a, const struct lb_account *d)
{
	a->wait_ns += d->wait_ns;
	a->waits += d->waits;
	a->errors += d->errors;
	a->hold_ns += d->hold_ns;
	a->hold_on_cpu_ns += d->hold_on_cpu_ns;
	a->hold_runnable_ns += d->hold_runnable_ns;
	a->holds += d->holds;
	a->blame_ns += d->blame_ns;
	a->root_blame_ns += d->root_blame_ns;
}

/* Take @d back from @a, each counter at most down to 0. */
static inline void lb_account_less(struct lb_account *a, const struct lb_account *d)
{
	a->wait_ns -= min(d->wait_ns, a->wait_ns);
	a->waits -= min(d->waits, a->waits);
	a->errors -= min(d->errors, a->errors);
	a->hold_ns -= min(d->hold_ns, a->hold_ns);
	a->hold_on_cpu_ns -= min(d->hold_on_cpu_ns, a->hold_on_cpu_ns);
	a->hold_runnable_ns -= min(d->hold_runnable_ns, a->hold_runnable_ns);
	a->holds -= min(d->holds, a->holds);
	a->blame_ns -= min(d->blame_ns, a->blame_ns);
	a->root_blame_ns -= min(d->root_blame_ns, a->root_blame_ns);
}

/* Add @d to @t's account and to its process's. */
static inline void lb_account_add(struct lb_task *t, const struct lb_account *d)
{
	lb_account_sum(&t->acct, d);
	if (t->proc)
		lb_account_sum(&t->proc->acct, d);
}

/* Take @d back from @t's account and its process's (saturating at 0). */
static inline void lb_account_take(struct lb_task *t, const struct lb_account *d)
{
	lb_account_less(&t->acct, d);
	if (t->proc)
		lb_account_less(&t->proc->acct, d);
}

/*
 * A release as an outlier names it: the holder's stacks and its hold's
 * split; seq is the release's (lb_release.seq), 0 in a slot never used.
 */
struct lb_rel_note {
	u32 stack_id, ustack_id;
	u64 on_cpu_ns, runnable_ns, sleeping_ns, unknown_ns;
	u32 seq;
};

/*
 * The releases that ended a wait's longest stretch, kept for its outlier:
 * slot seq % LB_REL_NOTES, while outliers are kept. A slot is taken over by
 * a later such release of the same slot: its waits then name the holder
 * without stacks. 32 fit in the memory goal's room (docs/benchmarks.md).
 */
#define LB_REL_NOTES		32

/*
 * A wait on a lock. Live while the task waits; after the wait ended it stays
 * on the lock as a "ghost" while its pending share is unresolved, so that the
 * (holder, victim) pair can be credited when the holder is learnt.
 */
struct lb_waiter {
	struct list_head lock_node;	/* lock->waiters (live) or lock->ghosts */
	struct list_head link;		/* free list, or ghost_fifo for ghosts */
	struct lb_lock *lock;
	struct lb_task *task;		/* NULL for a ghost */
	s32 pid;
	u32 stack_id;			/* kernel stack where the wait began, 0 if none */
	u32 ustack_id;			/* user stack where the wait began, 0 if none */
	bool outlier;			/* an outlier: kept when its holder is known */
	bool word_known;		/* a futex wait that said what word it expected */
	bool top_rel_wanted;		/* the top stretch ended before its release was seen */
	bool cur_closed;		/* cur's holder released: a later charge starts anew */
	u32 word;			/* that word */
	/*
	 * The holder that made it wait longest in one stretch (top), and the
	 * stretch now (cur): an outlier's holder (ledger_outliers.c). The
	 * release that ended the top stretch, when seen (top_rel: its seq in
	 * the ledger's rel_notes, 0: none): other holds may end on the lock
	 * before this wait does. A stretch is one hold: once its holder's
	 * release is kept (cur_closed), waiting charged to the same holder
	 * later, such as a woken waiter's pending time named at that holder's
	 * next release, is another stretch.
	 */
	s32 top_holder, cur_holder;
	u32 top_rel;
	u64 top_ns, cur_ns;
	u64 cgroup;			/* the waiter's cgroup v2 id when it began */
	/*
	 * What segments charged and the tables have not seen yet (applied by
	 * lb_waiter_flush): blame from one holder (acc_pid, acc_cgroup), and
	 * waiting for the lock's top victims. A segment costs each waiter an
	 * add, not a table lookup: a herd of a thousand waits on one lock
	 * made every event cost a thousand lookups.
	 */
	s32 acc_pid;
	u64 acc_cgroup, acc_pair_ns, acc_top_ns;
	u64 begin_ns;
	u64 wait_ns;			/* integral of this wait so far */
	u64 pending_ns;			/* part of wait_ns whose holder is not known yet */
	/*
	 * Readers leaving one by one (lb_on_left): of pending_ns up to
	 * share_mark_ns, each reader still holding is owed share_ns; valid
	 * for the lock's pending period that began at share_since.
	 */
	u64 share_ns, share_mark_ns, share_since;
};

#include "ledger_chain.h"

/* How a contended hold of @hold ns divides, from clocks read over @span ns. */
struct lb_hold_split {
	u64 on, runnable, cpu_unknown, runnable_unknown;
};

/* A lock's last release: its task, stacks and hold, for the waits it ended. */
struct lb_release {
	s32 pid;			/* 0: none seen */
	u32 stack_id, ustack_id;
	u32 seq;			/* the ledger's count of releases at it, never 0 */
	u64 ts, hold_ns;
	struct lb_hold_split split;
};

/*
 * What a lock keeps while no holder is known ("pending"; see the state
 * diagram in docs/ledger.md): the period since its first such waiting, a
 * guess at its holder, the root blame that reached it along chains, and the
 * futex wakes seen out of order with their releases. One function ends it
 * (lb_pending_close), for each way it ends.
 */
struct lb_pending {
	bool open;			/* since and busy_ns are valid */
	s32 probable_pid;		/* heuristic owner: reported, never blamed; 0: none */
	u64 since;			/* first unattributed waiting since the last release */
	u64 busy_ns;			/* time since then with a waiter, holder unknown */
	struct lb_hold_start probable;	/* its clocks when first named */
	struct lb_route_set *routes;	/* its root debts and routes; NULL: none */
	u32 wake_credit;		/* futex: wakes a seen release announced, not yet seen */
	u32 wake_debt;			/* futex: wakes seen whose release is not seen yet */
	u64 debt_since;			/* when wake_debt last became non-zero */
};

/* Why a lock's pending state ends (lb_pending_close), and what of it ends. */
enum lb_pending_end {
	LB_PENDING_HANDOFF,	/* a waiter took the lock: pending waiting is unattributed */
	LB_PENDING_RELEASE,	/* a release named its holder (or nobody); the guess ends */
	LB_PENDING_NOT_A_LOCK,	/* no lock: unattributed, and its wakes mean nothing */
	LB_PENDING_DROP,	/* the lock is dropped: unattributed, chains unsettled */
	LB_PENDING_BURST,	/* a first waiter: wakes announced before it are stale */
};

struct lb_lock {
	struct hlist_node hnode;
	struct list_head lru;		/* free list, active_locks while waited on, else lock_lru */
	struct list_head waiters;	/* live waits, in arrival order */
	struct list_head ghosts;	/* ended waits with pending blame */
	u64 id;
	u8 lock_class;
	bool release_fn;		/* scope: its release function alone releases it */
	u32 nr_waiting, nr_holders;
	s32 cause_pid;			/* the task last given a top cause slot: it has one */
	struct lb_holder holder[LB_LOCK_HOLDERS];
	struct lb_pending pending;
	struct lb_lock_counts cnt;
	/*
	 * Time not yet applied to its waiters and holder, from defer_since: a
	 * segment no other lock's event can change (lb_advance_to).
	 */
	u64 defer_ns, defer_since;
	struct lb_hist wait_hist, hold_hist;
	struct lb_top cause[LB_LOCK_TOP], victim[LB_LOCK_TOP];
	/*
	 * What names it: a kernel lock's name id (the module's "names"), a
	 * futex's word address in the process of the first waiter seen.
	 */
	u32 name_id;
	s32 name_tgid;
	u64 uaddr;
	struct lb_release release;
};

/* Blame received by one holder for one victim's waiting. */
struct lb_pair {
	struct hlist_node hnode;
	s32 holder, victim;
	u64 blame_ns;
};

#define LB_CGROUP_PAIR_BITS	6
#define LB_CGROUP_PAIRS		64	/* (holder cgroup, victim cgroup) pairs kept */
struct lb_cgroup_pair {
	struct hlist_node hnode;
	u64 holder, victim;		/* cgroup v2 ids; 0: not known */
	u64 blame_ns;
};

/* Blame that flowed past a blocked holder to the root of its chain. */
struct lb_chain {
	struct hlist_node hnode;
	u64 victim_lock, waits_on;
	s32 holder, root;
	u64 blame_ns;
};

/*
 * Waiting (victim) or blame (cause) of one task, by the kernel stack it had;
 * ->role is an enum lb_stack_role.
 */
struct lb_stack {
	struct hlist_node hnode;
	s32 pid;
	u32 id;
	u8 role;
	u64 ns;
};

/* A cycle of tasks each waiting on a lock the next holds; sorted, for dedup. */
struct lb_deadlock {
	u32 nr_tasks, nr_locks;
	s32 pid[LB_CYCLE_MAX];
	u64 lock[LB_CYCLE_MAX];
};

#include "ledger_events.h"

struct lb_ledger {
	struct lb_ledger_limits limits;
	struct lb_ledger_totals totals;
	bool started;
	u64 first_ns, now_ns;

	struct lb_lock *locks;
	struct hlist_head *lock_hash;
	u32 lock_bits;
	struct list_head free_locks, lock_lru, active_locks;

	struct lb_task *tasks;
	struct hlist_head *task_hash;
	u32 task_bits;
	/*
	 * Tasks not pinned, by the power of two of their worth (0, then
	 * fls64 1..64), the most recently used first in each: eviction takes
	 * the least worth in O(1) however full the table, not the least of a
	 * few that happen to be old (a herd's heavy waiters were).
	 */
	struct list_head free_tasks, task_lru[LB_WORTH_BUCKETS];
	u32 nr_top_pins;	/* tasks pinned as a lock's top cause or victim */

	struct lb_proc *procs;
	struct hlist_head *proc_hash;
	u32 proc_bits;
	struct list_head free_procs, proc_lru;

	struct lb_waiter *waiters;
	struct list_head free_waiters, ghost_fifo;

	struct lb_pair *pairs;
	struct hlist_head *pair_hash;
	u32 pair_bits, nr_pairs;
	u32 pair_hand;			/* where the next pair eviction looks */
	u64 pairs_blame_ns;		/* the blame the kept pairs hold */

	struct lb_chain *chains;
	struct hlist_head *chain_hash;
	u32 chain_bits, nr_chains, max_chains;
	u32 chain_fold_wait;		/* full adds before lb_chains_fold tries again */

	struct lb_stack *stacks;
	struct hlist_head *stack_hash;
	u32 stack_bits, nr_stacks;

	struct lb_deadlock deadlock[LB_DEADLOCKS_MAX];
	u32 nr_deadlocks;

	struct lb_ledger_opts opts;
	struct lb_sleeper *sleepers;
	struct hlist_head *sleeper_hash;
	u32 sleeper_bits, nr_asleep;
	struct list_head free_sleepers, sleeper_lru;
	struct lb_signal signal[LB_SIGNALS];
	u32 nr_signals;
	struct lb_wake wake[1U << LB_WAKE_BITS];
	u64 counter_key[1U << LB_COUNTER_BITS];
	struct lb_route_set route_set[LB_ROUTE_SETS];
	u32 nr_route_sets;		/* of them, given to a lock */
	struct lb_past_bucket past[1U << LB_PAST_BITS];
	/* The string of a lock's name id (lb_ledger_set_namer()), or NULL. */
	const char *(*name_of)(u32 id);

	struct lb_cgroup_pair cgroup_pair[LB_CGROUP_PAIRS];
	struct hlist_head cgroup_pair_hash[1U << LB_CGROUP_PAIR_BITS];
	u32 nr_cgroup_pairs;
	u32 cgroup_pair_last;		/* the pair charged last (lb_cgroup_pair_get) */

	struct lb_outlier outlier[LB_OUTLIERS];
	u32 nr_outliers;
	u32 outliers_owed;		/* of them, release_owed */
	struct lb_rel_note rel_notes[LB_REL_NOTES];
	u32 releases;			/* releases recorded: lb_release.seq */

	struct lb_scope_task scope_task[1U << LB_SCOPE_TASK_BITS];
	struct lb_scope_key scope_key[1U << LB_SCOPE_KEY_BITS];
	bool scopes_entered;		/* a scope_task was claimed since the reset */
};

#include "ledger_tables.h"

/*
 * ledger_stacks.c: time per task, side and stack; the records are allocated
 * with the first stack an event names (the one allocation after create).
 */
void lb_stack_add(struct lb_ledger *l, s32 pid, u8 role, u32 id, u64 ns);
struct lb_stack *lb_stack_find(const struct lb_ledger *l, s32 pid, u8 role, u32 id);

#include "ledger_futex.h"

/* ledger_cgroups.c: blame by the holder's and the victim's cgroups. */
void lb_cgroup_pairs_init(struct lb_ledger *l);
void lb_blame_pair(struct lb_ledger *l, const struct lb_task *holder,
		   struct lb_waiter *w, u64 ns);
void lb_blame_pair_take(struct lb_ledger *l, const struct lb_task *holder,
			struct lb_waiter *w, u64 ns);
void lb_blame_pair_switch(struct lb_ledger *l, const struct lb_task *holder,
			  struct lb_waiter *w);
void lb_waiters_flush(struct lb_ledger *l);
#define LB_CGROUP_LEN	28	/* "cgroup:" and a u64 */
void lb_report_cgroups(const struct lb_ledger *l, struct lb_out *out);

#include "ledger_outliers.h"

/*
 * Slot @i of the @probes a key probes in a table of 2^@bits slots: linear
 * from its hash @first (hash_64(key, bits)). The scopes' task and word
 * tables and the counters' table probe this way.
 */
static inline u32 lb_probe_slot(u32 first, u32 i, u32 bits)
{
	return (first + i) & ((1U << bits) - 1);
}

/* ledger_pending.c: waiting whose holder is not known yet, and how it ends. */
void lb_pending_end(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *r,
		    enum lb_pending_end why);

/*
 * The way in to lb_pending_end(); inline: a new burst only drops stale credit, and a
 * handoff or a release with no period open nor route set in use has nothing to settle.
 */
static inline void lb_pending_close(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *r,
				    enum lb_pending_end why)
{
	struct lb_pending *p = &lock->pending;
	bool settle = p->open || l->nr_route_sets;

	if (why == LB_PENDING_BURST)
		p->wake_credit = 0;
	else if (settle || (why != LB_PENDING_HANDOFF && why != LB_PENDING_RELEASE))
		lb_pending_end(l, lock, r, why);
	/* A release ends the guess at the holder, period or not. */
	if (why == LB_PENDING_RELEASE) {
		p->probable_pid = 0;
		p->probable = (struct lb_hold_start){ 0 };
	}
}

void lb_pending_to_blame(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *r, u64 ns);
void lb_pending_disown(struct lb_ledger *l, struct lb_lock *lock, struct lb_holder *h, u64 now);
u64 lb_reader_share(struct lb_ledger *l, struct lb_lock *lock, struct lb_waiter *w,
		    struct lb_task *r, u32 n);

/*
 * @ns of @w's waiting charged to @holder, put aside while @holder stays the
 * one (every segment comes here for every waiter): one table charge per
 * stretch under one holder, not per event (ledger_cgroups.c).
 */
static inline void lb_blame_pair_defer(struct lb_ledger *l, const struct lb_task *holder,
				       struct lb_waiter *w, u64 ns)
{
	if (unlikely(w->acc_pid != holder->id.pid || w->acc_cgroup != holder->id.cgroup))
		lb_blame_pair_switch(l, holder, w);
	w->acc_pair_ns += ns;
}

/* ledger.c: the event engine. */
void lb_take_hold(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *t,
		  u64 ts, const struct lb_clocks *c, bool read);

/* ledger_waits.c: waits begun and ended. */
void lb_on_wait_begin(struct lb_ledger *l, const struct lb_event *ev, u64 ts);
/* ledger_scopes.c: futex sleeps inside a scope become waits on its lock. */
void lb_scopes_init(struct lb_ledger *l);
const struct lb_event *lb_scope_rewrite(struct lb_ledger *l, const struct lb_event *ev,
					struct lb_event out[2], const struct lb_event **then,
					u64 ts);
void lb_on_wait_end(struct lb_ledger *l, const struct lb_event *ev, u64 ts);
void lb_lost_wait_end(struct lb_ledger *l, struct lb_task *t);

/* @t is running, so a wait still open for it ended unseen. Inline: most have none. */
static inline void lb_end_lost_wait(struct lb_ledger *l, struct lb_task *t)
{
	if (t->waiting)
		lb_lost_wait_end(l, t);
}

/* ledger_holds.c: holders, owners and holds. */
static inline struct lb_holder *lb_holder_find(struct lb_lock *lock, const struct lb_task *t)
{
	u32 i;

	for (i = 0; i < lock->nr_holders; i++)
		if (lock->holder[i].task == t)
			return &lock->holder[i];
	return NULL;
}

void lb_holders_drop_others(struct lb_ledger *l, struct lb_lock *lock,
			    const struct lb_task *keep, bool readers);
void lb_holders_drop_likely_others(struct lb_ledger *l, struct lb_lock *lock,
				   const struct lb_task *releaser, bool keep_woken);

/* The clocks an event read for its task. */
static inline struct lb_clocks lb_ev_clocks(const struct lb_event *ev)
{
	return (struct lb_clocks){ ev->cpu_ns, ev->run_delay_ns, ev->flags & LB_EF_RUN_DELAY };
}

void lb_holder_start(struct lb_holder *h, u64 ts, const struct lb_clocks *c,
		     enum lb_hold_known known, bool reader);
struct lb_holder *lb_holder_add(struct lb_ledger *l, struct lb_lock *lock,
				struct lb_task *t, u64 start_ns, const struct lb_clocks *c,
				enum lb_hold_known known, bool reader);
void lb_learn_owner(struct lb_ledger *l, struct lb_lock *lock,
		    const struct lb_event *ev, u64 ts, struct lb_task *waiter);
void lb_record_hold(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *r,
		    const struct lb_event *ev, u64 ts, bool pending);
void lb_holder_leave(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *r,
		     const struct lb_event *ev, u64 ts, bool pending);
u64 lb_scale(u64 a, u64 mul, u64 div);

/* ledger_query.c: shared with the report and the dump. */
void lb_lock_fill_stats(const struct lb_ledger *l, const struct lb_lock *lock,
			struct lb_lock_stats *st);
void lb_task_fill_stats(const struct lb_task *t, struct lb_task_stats *st);
void lb_proc_fill_stats(const struct lb_proc *p, struct lb_process_stats *st);
u64 lb_window_ns(const struct lb_ledger *l);

/* ledger_text.c: values as text, for the report and the dump. */
#define LB_ESC_LEN	(4 * LB_COMM_LEN + 1)
#define LB_NAME_ESC_LEN	(4 * LB_LOCK_NAME_LEN + 1)
void lb_escape_str(char *dst, const char *src, u32 max);
void lb_escape_comm(char *dst, const char *comm);
const char *lb_fmt_ns(char *buf, size_t size, u64 ns);
/* A hold time and its parts (lb_task_stats, lb_lock_stats), for lb_fmt_split. */
struct lb_split_ns {
	u64 hold, on, runnable, cpu_unknown, runnable_unknown;
};

/* The part of a hold asleep: what is neither on a CPU, runnable nor unknown. */
static inline u64 lb_split_sleeping(const struct lb_split_ns *h)
{
	return h->hold - h->on - h->runnable - h->cpu_unknown - h->runnable_unknown;
}

const char *lb_fmt_split(char *buf, size_t size, const struct lb_split_ns *h);

#define LB_COLS		100	/* no report line is wider */

/* A line built from items, wrapped before LB_COLS onto indented lines. */
struct lb_line {
	struct lb_out *out;
	u32 len, cont;
	bool empty;
	char buf[LB_COLS + 1];
};

/* Start a line indented by @first; its continuations are indented by @cont. */
void lb_line_start(struct lb_line *ln, struct lb_out *out, u32 first, u32 cont);
void lb_line_end(struct lb_line *ln);
/* Append @sep and an item; if it does not fit, end the line at @sep's punctuation. */
__printf(3, 4) void lb_line_item(struct lb_line *ln, const char *sep, const char *fmt, ...);
const char *lb_fmt_count(char *buf, size_t size, u64 n);
const char *lb_class_name(u8 lock_class);

/* a + b, or U64_MAX if that does not fit; inline: a task's worth is one. */
static inline u64 lb_sum_sat(u64 a, u64 b)
{
	return a + b < a ? U64_MAX : a + b;
}

#endif /* _LOCKBLAME_LEDGER_INTERNAL_H */
