/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lockblame's numeric module parameters, each written once: its name (also
 * its field in struct lb_config), its default, its bounds (inclusive) and
 * what it means. config.c includes it once per use, each time with its own
 * LB_PARAM(name, default, min, max, what), as the kernel's lock_events.c
 * includes lock_events_list.h; no include guard.
 */
LB_PARAM(ring_events, 1024, LB_RING_EVENTS_MIN, LB_RING_EVENTS_MAX,
	 "Events per CPU ring, a power of 2");
LB_PARAM(max_blocked, 4096, 16, 65536,
	 "Tasks blocked at once in one kernel lock slowpath or PI futex");
LB_PARAM(drain_ms, 100, 10, 10000,
	 "Interval of the periodic drain in ms");
LB_PARAM(drain_rt, 1, 0, 2,
	 "Drain in: 0 a high-priority workqueue, 1 a SCHED_FIFO 1 thread per CPU, 2 the same at SCHED_FIFO 50");
LB_PARAM(stack_entries, 1024, 16, LB_STACK_ENTRIES_MAX,
	 "Distinct stacks stored");
LB_PARAM(stream_events, 4096, 0, 4194304,
	 "Events buffered for debugfs \"events\", 0 disables");
LB_PARAM(max_locks, 256, 8, LB_LEDGER_TABLE_MAX,
	 "Locks the ledger tracks at once");
LB_PARAM(max_tasks, 1024, 8, LB_LEDGER_TABLE_MAX,
	 "Tasks the ledger tracks at once");
LB_PARAM(max_waiters, 1024, 8, LB_LEDGER_TABLE_MAX,
	 "Outstanding waits the ledger tracks at once");
LB_PARAM(max_pairs, 2048, 8, LB_LEDGER_PAIRS_MAX,
	 "Holder/victim pairs the ledger keeps");
LB_PARAM(max_chain_depth, 8, 1, LB_CHAIN_DEPTH_MAX,
	 "How far blame follows a holder that waits itself");
LB_PARAM(max_sleepers, 2048, 8, LB_LEDGER_TABLE_MAX,
	 "Tasks kept for event waits, futex sleeps not contention");
LB_PARAM(ledger_defer, 1, 0, 1,
	 "1: a lock no event involves keeps its time until one does; 0: every lock at every event");
