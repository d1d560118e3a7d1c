/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The records of the ledger dump and their keys, in the order they are
 * written (see ledger_format.h); included, several times, by the module's
 * writer (module/ledger_dump.c) and the reader's parser
 * (tools/lockblame/parse.c), like the kernel's lock_events_list.h. The
 * includer defines:
 *
 *   LB_LEDGER_RECORD(name, json, index, reader struct)  a record type begins
 *   LB_LEDGER_KEY(record, key, kind)                    one of its keys
 *   LB_LEDGER_END(name)                                 its keys end
 *
 * Records are listed in the order of the reader's JSON document.
 */

/*
 * Conservation: wait_ns = blame_ns + pending_ns + unattributed_ns in totals
 * and in every lock. Task, process and lock records count lock waits only;
 * event waits are in the totals' event_* keys and evwait/signal records.
 */
LB_LEDGER_RECORD(totals, "totals", TOTALS, lbt_totals)
LB_LEDGER_KEY(totals, events, U64)
LB_LEDGER_KEY(totals, wait_ns, U64)
LB_LEDGER_KEY(totals, blame_ns, U64)
LB_LEDGER_KEY(totals, pending_ns, U64)
LB_LEDGER_KEY(totals, unattributed_ns, U64)
LB_LEDGER_KEY(totals, late, U64)			/* events clamped to the clock */
LB_LEDGER_KEY(totals, unmatched, U64)
LB_LEDGER_KEY(totals, evicted_locks, U64)
LB_LEDGER_KEY(totals, evicted_tasks, U64)
LB_LEDGER_KEY(totals, dropped_waiters, U64)
LB_LEDGER_KEY(totals, dropped_pairs, U64)
LB_LEDGER_KEY(totals, evicted_wait_ns, UNREAD_U64)	/* the evicted tasks' waiting */
LB_LEDGER_KEY(totals, evicted_blame_ns, UNREAD_U64)	/* and their blame (both kept in totals) */
LB_LEDGER_KEY(totals, refused_tasks, UNREAD_U64)	/* new tasks given no slot */
LB_LEDGER_KEY(totals, dropped_pair_ns, UNREAD_U64)	/* blame of pairs dropped or evicted */
LB_LEDGER_KEY(totals, window_ns, U64)
LB_LEDGER_KEY(totals, invalid, U64)
LB_LEDGER_KEY(totals, dropped_holders, U64)
LB_LEDGER_KEY(totals, dropped_chains, U64)
LB_LEDGER_KEY(totals, deadlocks, U64)
LB_LEDGER_KEY(totals, chain_cut_ns, UNREAD_U64)	/* root blame stopped short */
LB_LEDGER_KEY(totals, dropped_stacks, UNREAD_U64)
LB_LEDGER_KEY(totals, futex_kinds, WORD)		/* on|off */
LB_LEDGER_KEY(totals, futex_lock_waits, U64)
LB_LEDGER_KEY(totals, futex_counters, U64)	/* releases showed a counter, not a lock */
LB_LEDGER_KEY(totals, disowned_ns, UNREAD_U64)	/* woken waiters' blame, pending again */
LB_LEDGER_KEY(totals, past_root_ns, UNREAD_U64)	/* root blame sent on past a late-named releaser */
LB_LEDGER_KEY(totals, folded_locks, UNREAD_U64)	/* settled locks given up for room, nothing lost */
LB_LEDGER_KEY(totals, folded_wait_ns, UNREAD_U64)	/* their waiting */
LB_LEDGER_KEY(totals, folded_blame_ns, UNREAD_U64)	/* and blame, kept in totals */
LB_LEDGER_KEY(totals, folded_chains, UNREAD_U64)	/* chain records now naming lock 0 */
LB_LEDGER_KEY(totals, scope_waits, UNREAD_U64)	/* scoped futex sleeps: waits on a scope's lock */
LB_LEDGER_KEY(totals, scope_releases, UNREAD_U64)	/* wakes of them: releases of that lock */
LB_LEDGER_KEY(totals, scope_evicted, UNREAD_U64)	/* tasks in a scope forgotten for room */
LB_LEDGER_KEY(totals, scope_words_evicted, UNREAD_U64)	/* words slept on in one, likewise */
LB_LEDGER_KEY(totals, event_wait_ns, U64)	/* open event waits up to now */
LB_LEDGER_KEY(totals, event_waits, U64)
LB_LEDGER_KEY(totals, event_errors, U64)
LB_LEDGER_KEY(totals, event_dropped, U64)
LB_LEDGER_KEY(totals, evicted_sleepers, U64)
LB_LEDGER_KEY(totals, dropped_signals, U64)
LB_LEDGER_KEY(totals, asleep, U64)
LB_LEDGER_KEY(totals, outlier_ns, U64)		/* the threshold; 0: off */
LB_LEDGER_KEY(totals, outliers_missed, U64)	/* outliers past the table */
LB_LEDGER_END(totals)

LB_LEDGER_RECORD(lock, "locks", LOCK, lbt_lock)
LB_LEDGER_KEY(lock, id, ID)
LB_LEDGER_KEY(lock, class, WORD)			/* LB_LOCK_CLASS_NAMES */
LB_LEDGER_KEY(lock, acq, U64)
LB_LEDGER_KEY(lock, wait_ns, U64)
LB_LEDGER_KEY(lock, hold_ns, U64)
LB_LEDGER_KEY(lock, blame_ns, U64)
LB_LEDGER_KEY(lock, pending_ns, U64)
LB_LEDGER_KEY(lock, unattributed_ns, U64)
LB_LEDGER_KEY(lock, wait_p50, U64)
LB_LEDGER_KEY(lock, wait_p99, U64)
LB_LEDGER_KEY(lock, wait_max, U64)
LB_LEDGER_KEY(lock, hold_p50, U64)
LB_LEDGER_KEY(lock, hold_p99, U64)
LB_LEDGER_KEY(lock, hold_max, U64)
LB_LEDGER_KEY(lock, errors, U64)
LB_LEDGER_KEY(lock, waiters, U64)
LB_LEDGER_KEY(lock, holder, S32)
LB_LEDGER_KEY(lock, util_ppm, U64)
LB_LEDGER_KEY(lock, sat_milli, U64)
LB_LEDGER_KEY(lock, holders, U64)
LB_LEDGER_KEY(lock, probable, S32)		/* glibc __owner: never blamed */
LB_LEDGER_KEY(lock, holds, U64)
LB_LEDGER_KEY(lock, holds_lower_bound, U64)
LB_LEDGER_KEY(lock, holds_at_release, U64)
LB_LEDGER_KEY(lock, top_cause, S32)
LB_LEDGER_KEY(lock, holds_unended, U64)		/* release not seen */
/*
 * How a human names it: a kernel lock's name from the module (escaped, "-"
 * when unnamed); a futex's word, a user address, in process tgid (0 when
 * not known); the reader turns those into a symbol.
 */
LB_LEDGER_KEY(lock, tgid, S32)
LB_LEDGER_KEY(lock, uaddr, U64)
LB_LEDGER_KEY(lock, name, NAME)
/* Why its holders were slow: hold_ns split as a task's (below) */
LB_LEDGER_KEY(lock, hold_on_cpu_ns, U64)
LB_LEDGER_KEY(lock, hold_runnable_ns, U64)
LB_LEDGER_KEY(lock, hold_sleeping_ns, U64)
LB_LEDGER_KEY(lock, hold_cpu_unknown_ns, U64)
LB_LEDGER_KEY(lock, hold_runnable_unknown_ns, U64)
LB_LEDGER_END(lock)

/*
 * Why a task's holds were slow: hold_ns = hold_on_cpu_ns + hold_runnable_ns
 * + hold_sleeping_ns + hold_cpu_unknown_ns + hold_runnable_unknown_ns;
 * runnable is time waiting for a CPU, sleeping the rest, and
 * hold_runnable_unknown_ns is off-CPU time whose run_delay was not read.
 */
LB_LEDGER_RECORD(task, "tasks", TASK, lbt_task)
LB_LEDGER_KEY(task, pid, S32)
LB_LEDGER_KEY(task, tgid, S32)
LB_LEDGER_KEY(task, comm, COMM)
LB_LEDGER_KEY(task, wait_ns, U64)
LB_LEDGER_KEY(task, waits, U64)
LB_LEDGER_KEY(task, hold_ns, U64)
LB_LEDGER_KEY(task, hold_on_cpu_ns, U64)
LB_LEDGER_KEY(task, holds, U64)
LB_LEDGER_KEY(task, blame_ns, U64)
LB_LEDGER_KEY(task, root_blame_ns, U64)
LB_LEDGER_KEY(task, errors, U64)
LB_LEDGER_KEY(task, verdict, WORD)		/* LB_VERDICT_NAMES */
LB_LEDGER_KEY(task, kthread, U64)
LB_LEDGER_KEY(task, holds_lower_bound, U64)
LB_LEDGER_KEY(task, hold_cpu_unknown_ns, U64)
LB_LEDGER_KEY(task, event_wait_ns, U64)		/* not contention */
LB_LEDGER_KEY(task, event_waits, U64)
LB_LEDGER_KEY(task, hold_runnable_ns, U64)
LB_LEDGER_KEY(task, hold_sleeping_ns, U64)
LB_LEDGER_KEY(task, hold_runnable_unknown_ns, U64)
LB_LEDGER_KEY(task, holds_unended, U64)		/* release not seen */
LB_LEDGER_KEY(task, cgroup, U64)			/* cgroup v2 id; 0: not known */
LB_LEDGER_END(task)

LB_LEDGER_RECORD(process, "processes", PROCESS, lbt_process)
LB_LEDGER_KEY(process, tgid, S32)
LB_LEDGER_KEY(process, comm, COMM)
LB_LEDGER_KEY(process, wait_ns, U64)
LB_LEDGER_KEY(process, hold_ns, U64)
LB_LEDGER_KEY(process, blame_ns, U64)
LB_LEDGER_KEY(process, root_blame_ns, U64)
LB_LEDGER_KEY(process, verdict, WORD)
LB_LEDGER_KEY(process, tasks, U64)
LB_LEDGER_KEY(process, waits, U64)
LB_LEDGER_KEY(process, holds, U64)
LB_LEDGER_KEY(process, hold_on_cpu_ns, U64)
LB_LEDGER_KEY(process, errors, U64)
LB_LEDGER_KEY(process, hold_runnable_ns, U64)
LB_LEDGER_KEY(process, cgroup, U64)		/* its latest task's */
LB_LEDGER_END(process)

LB_LEDGER_RECORD(pair, "pairs", PAIR, lbt_pair)
LB_LEDGER_KEY(pair, holder, S32)
LB_LEDGER_KEY(pair, victim, S32)
LB_LEDGER_KEY(pair, blame_ns, U64)
LB_LEDGER_END(pair)

LB_LEDGER_RECORD(chain, "chains", CHAIN, lbt_chain)
LB_LEDGER_KEY(chain, victim_lock, ID)
LB_LEDGER_KEY(chain, holder, S32)
LB_LEDGER_KEY(chain, waits_on, ID)
LB_LEDGER_KEY(chain, root, S32)
LB_LEDGER_KEY(chain, blame_ns, U64)
LB_LEDGER_END(chain)

LB_LEDGER_RECORD(deadlock, "deadlocks", DEADLOCK, lbt_deadlock)
LB_LEDGER_KEY(deadlock, tasks, S32_LIST)
LB_LEDGER_KEY(deadlock, locks, ID_LIST)
LB_LEDGER_END(deadlock)

/*
 * Only when events carry stack ids: blame resolved at a release with a
 * kernel stack id, or waiting ended whose begin had one; id is in "stacks".
 */
LB_LEDGER_RECORD(stack, "stacks", STACK, lbt_stackref)
LB_LEDGER_KEY(stack, pid, S32)
LB_LEDGER_KEY(stack, role, WORD)			/* LB_STACK_ROLE_NAMES */
LB_LEDGER_KEY(stack, id, U32)
LB_LEDGER_KEY(stack, ns, U64)
LB_LEDGER_END(stack)

/* A task seen in event waits (futex sleeps, not contention). */
LB_LEDGER_RECORD(evwait, "event_waits", EVWAIT, lbt_evwait)
LB_LEDGER_KEY(evwait, pid, S32)
LB_LEDGER_KEY(evwait, tgid, S32)
LB_LEDGER_KEY(evwait, comm, COMM)
LB_LEDGER_KEY(evwait, wait_ns, U64)		/* open waits up to now */
LB_LEDGER_KEY(evwait, waits, U64)
LB_LEDGER_KEY(evwait, errors, U64)
LB_LEDGER_KEY(evwait, waker, S32)		/* who ended its last wait */
LB_LEDGER_KEY(evwait, asleep, U64)
LB_LEDGER_END(evwait)

/*
 * The event waiting of a group of tasks, by process and name, for another's
 * signal; waker=0 waker_comm=- when none was seen.
 */
LB_LEDGER_RECORD(signal, "signals", SIGNAL, lbt_signal)
LB_LEDGER_KEY(signal, waiter, S32)
LB_LEDGER_KEY(signal, waiter_tgid, S32)
LB_LEDGER_KEY(signal, waiter_comm, COMM)
LB_LEDGER_KEY(signal, waker, S32)
LB_LEDGER_KEY(signal, waker_tgid, S32)
LB_LEDGER_KEY(signal, waker_comm, COMM)
LB_LEDGER_KEY(signal, wait_ns, U64)
LB_LEDGER_KEY(signal, waits, U64)
LB_LEDGER_KEY(signal, max_ns, U64)
LB_LEDGER_END(signal)

/*
 * Blame by cgroup: the pairs' blame summed by the holder's cgroup v2 id (at
 * the charge) and the victim's (when its wait began); 0 is "not known".
 */
LB_LEDGER_RECORD(cgroup_pair, "cgroup_pairs", CGROUP_PAIR, lbt_cgroup_pair)
LB_LEDGER_KEY(cgroup_pair, holder_cgroup, U64)
LB_LEDGER_KEY(cgroup_pair, victim_cgroup, U64)
LB_LEDGER_KEY(cgroup_pair, blame_ns, U64)
LB_LEDGER_END(cgroup_pair)

/*
 * The worst cases, kept whole: a wait or a hold of ns >= outlier_ns (the
 * LB_OUTLIERS longest; outliers_missed in totals counts the rest). ts is
 * when it ended (the events' clock). A wait's holder is the task whose
 * release ended it, a hold's victim its longest waiter; pid 0 and comm "-"
 * when not known. Stack ids are in "stacks" (0: none): the victim's where
 * its wait began, the holder's at its release. on_cpu_ns + runnable_ns +
 * sleeping_ns + unknown_ns is the holder's contended hold (for a wait, the
 * hold that ended it); root is the root cause its blame flowed to when the
 * holder itself waited (0: none).
 */
LB_LEDGER_RECORD(outlier, "outliers", OUTLIER, lbt_outlier)
LB_LEDGER_KEY(outlier, kind, WORD)		/* LB_OUTLIER_KIND_NAMES */
LB_LEDGER_KEY(outlier, ns, U64)
LB_LEDGER_KEY(outlier, ts, U64)
LB_LEDGER_KEY(outlier, lock, ID)
LB_LEDGER_KEY(outlier, class, WORD)
LB_LEDGER_KEY(outlier, victim, S32)
LB_LEDGER_KEY(outlier, victim_tgid, S32)
LB_LEDGER_KEY(outlier, victim_comm, COMM)
LB_LEDGER_KEY(outlier, holder, S32)
LB_LEDGER_KEY(outlier, holder_tgid, S32)
LB_LEDGER_KEY(outlier, holder_comm, COMM)
LB_LEDGER_KEY(outlier, victim_stack, U32)
LB_LEDGER_KEY(outlier, victim_ustack, U32)
LB_LEDGER_KEY(outlier, holder_stack, U32)
LB_LEDGER_KEY(outlier, holder_ustack, U32)
LB_LEDGER_KEY(outlier, on_cpu_ns, U64)
LB_LEDGER_KEY(outlier, runnable_ns, U64)
LB_LEDGER_KEY(outlier, sleeping_ns, U64)
LB_LEDGER_KEY(outlier, unknown_ns, U64)
LB_LEDGER_KEY(outlier, root, S32)
LB_LEDGER_KEY(outlier, name, NAME)
LB_LEDGER_END(outlier)
