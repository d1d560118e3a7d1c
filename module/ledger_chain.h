/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ledger's chains (ledger_chain.c): root blame on its way through locks
 * whose holders are not known yet, and the functions that move it. Part of
 * ledger_internal.h, which includes it.
 */
#ifndef _LOCKBLAME_LEDGER_CHAIN_H
#define _LOCKBLAME_LEDGER_CHAIN_H

struct lb_ledger;
struct lb_lock;
struct lb_task;
struct lb_waiter;

/*
 * A lock a chain passed while its holder was not known: who probably held
 * it (0: no guess) and who waited on it then; who released it next is
 * learnt at that release (0: not yet, -1: no release will say).
 */
struct lb_hop {
	u64 lock;
	s32 probable, from, releaser;
};

/*
 * Root blame on its way along a chain through locks whose holders are not
 * known yet (a futex is learnt at its release). Both kinds sit on such a
 * lock, whose probable holder was @probable (0: none) while @from waited
 * on it:
 *
 * - a root debt: root blame that reached the lock. It goes to the lock's
 *   releaser, or back to @from if no release ever names one;
 * - a route: the lock's pending waiting while @probable waited elsewhere,
 *   applied only if @probable turns out to be the releaser.
 *
 * If the releaser is @probable, the blame goes on along the chain as it
 * was when the blame arrived: through the @hop locks, each decided at its
 * own release, to @end, where the chain ended (see lb_route_root).
 */
#define LB_LOCK_ROOT_DEBTS	8
#define LB_LOCK_ROUTES		8
/* Guessed locks a route remembers past its own; a longer chain is cut (chain_cut_ns). */
#define LB_ROUTE_HOPS		6
struct lb_route {
	u64 victim_lock, waits_on;	/* for the chain record */
	s32 holder;			/* ditto: the holder charged first */
	s32 from, probable;
	s32 end;			/* a task that did not wait; 0: the last hop's releaser */
	u32 nr_hops;
	struct lb_hop hop[LB_ROUTE_HOPS];
	u64 ns;
};

/*
 * The root debts and routes of one lock. Few locks have any at a time (a
 * lock whose holder is not known yet, on a chain), so they come from a
 * small pool in the ledger rather than from every lock: kept in each lock,
 * they made a lock 3,112 bytes and the defaults 1.07 MiB per CPU. A lock
 * that finds the pool empty keeps none, and what it would have kept is
 * counted as cut (chain_cut_ns).
 */
#define LB_ROUTE_SETS		24
struct lb_route_set {
	struct lb_lock *lock;		/* NULL: free */
	u32 nr_root_debts;
	struct lb_route root_debt[LB_LOCK_ROOT_DEBTS];
	u32 nr_routes;			/* all for one probable holder */
	struct lb_route route[LB_LOCK_ROUTES];
};

/* ledger_chain.c: root blame, chains and deadlocks. */
void lb_blame_flow(struct lb_ledger *l, const struct lb_lock *lock, struct lb_task *t, u64 ns);
void lb_root_debts_settle(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *root);
void lb_route_note(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *p, u64 ns);
void lb_routes_learn_root(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *r);
bool lb_routes_settle(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *r);
void lb_route_set_drop(struct lb_ledger *l, struct lb_lock *lock);
void lb_root_debt_pay(struct lb_ledger *l, const struct lb_route *d, struct lb_task *root);
/* A chain record's lock whose identity was given up for room (lb_chains_fold). */
#define LB_LOCK_FOLDED		0

/* ledger_chain_records.c */
struct lb_chain;
void lb_chain_add(struct lb_ledger *l, const struct lb_chain *key, u64 ns);

/*
 * A wait a task ended (ledger_past.c): on which lock, when, and who ended
 * it (0: not known yet). Its holder's root is the root of what the task
 * was charged meanwhile as the holder of a lock whose holder was not known.
 * Kept in buckets by pid: a bucket's pids, each wait's worth (its end plus
 * its length: the least worth goes first), and the waits.
 */
#define LB_PAST_BITS		6	/* buckets */
#define LB_PAST_WAYS		8
/*
 * A wait is worth its end plus this many times its length: a backend's
 * row-lock wait outlives the short waits of the transaction after it.
 * PostgreSQL's skewed pgbench (tools/real/pg.md), slow clients' root
 * share against the sampler's 0.84, 0.70, 0.84: at 1, 0.78, 0.56, 0.68;
 * at 4, 0.81, 0.61, 0.68; at 16, 0.81, 0.64, 0.70.
 */
#define LB_PAST_KEEP		16
struct lb_past {
	u64 lock, begin_ns, end_ns;
	s32 holder;
};

struct lb_past_bucket {
	s32 pid[LB_PAST_WAYS];
	u64 worth[LB_PAST_WAYS];
	struct lb_past wait[LB_PAST_WAYS];
};

void lb_past_note(struct lb_ledger *l, const struct lb_waiter *w);
void lb_past_named(struct lb_ledger *l, s32 pid, u64 lock, s32 r);
void lb_past_settle(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *r);
void lb_past_debt_pay(struct lb_ledger *l, struct lb_lock *lock, struct lb_task *r,
		      const struct lb_route *d);

#endif /* _LOCKBLAME_LEDGER_CHAIN_H */
