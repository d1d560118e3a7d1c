/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The state of event waits (futex sleeps that are not contention) and of
 * scopes, which the ledger embeds; only module/ledger_internal.h includes it.
 */
#ifndef _LOCKBLAME_LEDGER_EVENTS_H
#define _LOCKBLAME_LEDGER_EVENTS_H

#include "ledger.h"

/*
 * Event waits: futex sleeps that are not contention (ledger_events.c). A
 * sleeper is a task seen in them, while asleep and after; it is never in
 * the task table, so parked threads neither fill it nor cost the engine.
 */
#define LB_SIGNALS		64	/* (waiter, signaller) groups kept */
#define LB_WAKE_BITS		8	/* last wake of a futex key */
#define LB_WAKE_PROBES		4
#define LB_COUNTER_BITS		6	/* futexes shown to be counters */
#define LB_COUNTER_PROBES	4
#define LB_SCOPE_TASK_BITS	8	/* tasks inside a scope at once (ledger_scopes.c) */
#define LB_SCOPE_TASK_PROBES	8
#define LB_SCOPE_KEY_BITS	8	/* futex words slept on inside scopes */
#define LB_SCOPE_KEY_PROBES	8

/* A task inside a scope's acquire function (ledger_scopes.c). */
struct lb_scope_task {
	s32 pid;			/* 0: free */
	bool waiting;			/* its wait on @lock is open in the ledger */
	bool sleeping;			/* in a futex sleep that is part of that wait */
	bool span;			/* the whole call is the wait (LB_EF_SPAN) */
	u8 nested;			/* scopes entered inside the span's open wait */
	u16 shared;			/* LB_EF_SHARED_KEY: the lock is every process's */
	u64 lock, uaddr, since;
	u32 name_id;
};

/* A futex word slept on inside a scope: its wakes release the scope's lock. */
struct lb_scope_key {
	u64 key, lock, uaddr;
	u64 ts;				/* its last sleep: the oldest gives way */
	u32 name_id;
	u16 shared;
};

struct lb_sleeper {
	struct hlist_node hnode;
	struct list_head lru;		/* free list, or sleeper_lru while awake */
	s32 pid, tgid;
	char comm[LB_COMM_LEN];
	u64 key;			/* the futex it sleeps on */
	u64 begin_ns;			/* when it fell asleep, if @asleep */
	bool asleep;
	u64 wait_ns, waits, errors;
	s32 waker;			/* who ended its last wait; 0: not known */
};

/* An identity without the process name, as event waits keep it. */
struct lb_who {
	s32 pid, tgid;
	char comm[LB_COMM_LEN];
};

/* Waiting of one group of tasks (tgid, comm) for another's signal. */
struct lb_signal {
	struct lb_who waiter, waker;	/* the group's latest task; waker.pid 0: none */
	u64 wait_ns, waits, max_ns;
};

/*
 * The last wake of a futex key, for the waiters it ends. A woken waiter may
 * be seen before its waker's wake returns: it is kept as an orphan, and the
 * wake that follows soon claims it.
 */
#define LB_WAKE_ORPHANS		4
struct lb_orphan {
	struct lb_who waiter;
	u64 end_ns, ns;
};

struct lb_wake {
	u64 key, ts;
	struct lb_who waker;
	u32 nr_orphans;
	struct lb_orphan orphan[LB_WAKE_ORPHANS];
};

#endif /* _LOCKBLAME_LEDGER_EVENTS_H */
