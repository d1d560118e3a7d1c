/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Futex waits that are not contention (ledger_events.c), and the wakes a
 * release announces: the tests and counts every release or futex wait
 * makes are inline, the rest out of line. Part of ledger_internal.h, which
 * includes it after struct lb_ledger.
 */
#ifndef _LOCKBLAME_LEDGER_FUTEX_H
#define _LOCKBLAME_LEDGER_FUTEX_H

void lb_events_init(struct lb_ledger *l);
bool lb_futex_word_event_shaped(const struct lb_ledger *l, const struct lb_event *ev);

/*
 * Whether futex wait @ev sleeps on an event-shaped word, whatever the
 * options. Inline, as lb_futex_wait_is_event: most waits are on no futex,
 * or say no word.
 */
static inline bool lb_futex_word_is_event(const struct lb_ledger *l, const struct lb_event *ev)
{
	if (ev->lock_class != LB_LOCK_FUTEX || !(ev->flags & LB_EF_WORD))
		return false;
	return lb_futex_word_event_shaped(l, ev);
}

static inline bool lb_futex_wait_is_event(const struct lb_ledger *l, const struct lb_event *ev)
{
	/* Without the word (or with kinds off) every futex is a lock. */
	return l->opts.futex_kinds && lb_futex_word_is_event(l, ev);
}

void lb_event_wait_begin(struct lb_ledger *l, const struct lb_event *ev, u64 ts);
bool lb_event_wait_end(struct lb_ledger *l, const struct lb_event *ev, u64 ts);
bool lb_event_wait_adopt(struct lb_ledger *l, const struct lb_task_id *id, u64 key,
			 u64 begin_ns);
void lb_event_wait_ended(struct lb_ledger *l, const struct lb_task_id *id, u64 ns,
			 const struct lb_task_id *waker);
bool lb_futex_word_advanced(const struct lb_lock *lock, const struct lb_event *ev);

/* Inline: most releases are of no futex, or say no word (ledger_events.c). */
static inline bool lb_futex_release_counts(const struct lb_lock *lock, const struct lb_event *ev)
{
	if (lock->lock_class != LB_LOCK_FUTEX || !(ev->flags & LB_EF_WORD))
		return false;
	return lb_futex_word_advanced(lock, ev);
}

/*
 * @n wakes of a seen release, added to what earlier releases' wakes left: a
 * woken task waits until it runs, so no more are outstanding than waits.
 * Inline: every release comes here, most with one wake or none.
 */
static inline void lb_wake_credit_add(struct lb_lock *lock, u32 n)
{
	lock->pending.wake_credit = min(lock->pending.wake_credit + n, lock->nr_waiting);
}

void lb_futex_counter_note(struct lb_ledger *l, u64 key);
void lb_event_wake(struct lb_ledger *l, const struct lb_event *ev, u64 ts);
struct lb_sleeper *lb_sleeper_find(const struct lb_ledger *l, s32 pid);
u64 lb_sleeper_wait_ns(const struct lb_ledger *l, const struct lb_sleeper *s);

#endif /* _LOCKBLAME_LEDGER_FUTEX_H */
