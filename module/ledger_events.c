// SPDX-License-Identifier: GPL-2.0
/*
 * Event waits: futex sleeps that are not lock contention. Condition
 * variables, semaphores, barriers, joins and parked runtime threads sleep on
 * futexes too, and whoever signals them is not holding anything the sleeper
 * wanted. Such waits are kept out of the lock ledger (no blame, verdict,
 * USE or chains) and accounted here: per sleeping task, and per group of
 * waiters and their signaller, "who waited for whom to signal".
 *
 * How a futex wait is classified, from what the kernel sees (the word's
 * value the waiter expected, and the wakes of the key):
 *
 *  - a LOCK wait when the word is lock-shaped: 2 or 3 (the contended states
 *    of the three-state mutex, 0 free, 1 locked, 2 locked with waiters, and
 *    of glibc's rwlock futexes, 1 | 2 for "waiters may sleep"), or with one
 *    of the two top bits set (owner-and-waiters conventions: FUTEX_WAITERS
 *    or a readers-waiting bit with an owner TID or a state in the low bits),
 *    -1 excepted (a count gone negative: musl's semaphore);
 *  - an EVENT wait otherwise: counters and sequence numbers (condvars,
 *    semaphores, barriers, atomic waits, parked threads), and a word whose
 *    value is the TID of another thread of the waiter's process (a join).
 *
 * The releaser's side is the other half. Where futex_wake could read the
 * word, a lock's release has left it free or taken again (0, 1, 2 or 3 for
 * a waiter that expected 2 or 3), while a counter, a sequence or a round
 * number has been advanced past what the waiter expected (a barrier of 3
 * expected 3 and is woken at 6). A release that advanced the word of a
 * waiter who expected 2 or 3 makes the futex a counter: its waiting is taken
 * back from the lock ledger (ledger.c, lb_on_not_a_lock), and later waits on
 * it are event waits, whatever their word. Only such small words are held
 * to it: an owner word (top bits set) changes its owner bits on release,
 * and a new owner's TID may be the larger.
 *
 * PI futexes are locks (their word is the owner's TID, FUTEX_LOCK_PI says
 * so). Where the kernel cannot tell (a lock protocol with another encoding,
 * a counter that happens to be 2 or 3), the wait is counted as the rule
 * says; an unknown protocol leans to "event": shown, never blamed. A key's
 * wakes do not decide: a reader-writer lock wakes all its readers at once.
 *
 * The tables are bounded: a sleeper slot per task (evicting the least
 * recently awake), a fixed signal table, and the last wake of each key in a
 * direct-mapped cache. Nothing here walks the sleepers on an event.
 */
#include "ledger_internal.h"

#define LB_FUTEX_LOCK_BITS	0xc0000000U	/* FUTEX_WAITERS, FUTEX_OWNER_DIED */
#define LB_FUTEX_CONTENDED	2U	/* 0 free, 1 locked, 2 locked with waiters */
#define LB_FUTEX_RW_WAITING	3U	/* glibc rwlock futexes: 1 | FUTEX_USED */

void lb_events_init(struct lb_ledger *l)
{
	u32 i, n = l->limits.max_sleepers;

	INIT_LIST_HEAD(&l->free_sleepers);
	INIT_LIST_HEAD(&l->sleeper_lru);
	for (i = 0; i < 1U << l->sleeper_bits; i++)
		INIT_HLIST_HEAD(&l->sleeper_hash[i]);
	memset(l->sleepers, 0, n * sizeof(*l->sleepers));
	for (i = 0; i < n; i++) {
		INIT_HLIST_NODE(&l->sleepers[i].hnode);
		list_add_tail(&l->sleepers[i].lru, &l->free_sleepers);
	}
	l->nr_asleep = 0;
	memset(l->signal, 0, sizeof(l->signal));
	l->nr_signals = 0;
	memset(l->wake, 0, sizeof(l->wake));
	memset(l->counter_key, 0, sizeof(l->counter_key));
}

void lb_ledger_set_opts(struct lb_ledger *l, const struct lb_ledger_opts *o)
{
	l->opts = *o;
}
EXPORT_SYMBOL_IF_KUNIT(lb_ledger_set_opts);

void lb_ledger_opts(const struct lb_ledger *l, struct lb_ledger_opts *o)
{
	*o = l->opts;
}
EXPORT_SYMBOL_IF_KUNIT(lb_ledger_opts);

/*
 * The wakes' table: a key is in one of LB_WAKE_PROBES slots from its hash
 * on (lb_probe_slot). Direct-mapped, two keys woken close together that
 * shared a slot forgot each other's waker, and a sleeper woken by one was
 * told no signaller.
 */
static struct lb_wake *lb_wake_find(struct lb_ledger *l, u64 key)
{
	u32 first = hash_64(key, LB_WAKE_BITS), i;

	for (i = 0; i < LB_WAKE_PROBES; i++) {
		struct lb_wake *wk = &l->wake[lb_probe_slot(first, i, LB_WAKE_BITS)];

		if (wk->key == key)
			return wk;
	}
	return NULL;
}

/*
 * @key's slot: its own, else a free one, else the one woken longest ago,
 * emptied. Inline: every futex release claims one (lb_event_wake).
 */
static __always_inline struct lb_wake *lb_wake_claim(struct lb_ledger *l, u64 key)
{
	u32 first = hash_64(key, LB_WAKE_BITS), i;
	struct lb_wake *wk = lb_wake_find(l, key), *old = NULL;

	if (wk)
		return wk;
	for (i = 0; i < LB_WAKE_PROBES; i++) {
		wk = &l->wake[lb_probe_slot(first, i, LB_WAKE_BITS)];
		if (!wk->key) {
			old = wk;
			break;
		}
		if (!old || wk->ts < old->ts)
			old = wk;
	}
	memset(old, 0, sizeof(*old));
	old->key = key;
	return old;
}

static bool lb_word_lock_shaped(u32 word)
{
	return word == LB_FUTEX_CONTENDED || word == LB_FUTEX_RW_WAITING ||
	       ((word & LB_FUTEX_LOCK_BITS) && word != U32_MAX);
}

/*
 * The counters' table: a key is in one of LB_COUNTER_PROBES slots from its
 * hash on (lb_probe_slot). Direct-mapped, two counters that shared a slot
 * forgot each other, and a forgotten one whose word passed 2 or 3 was a
 * lock again.
 */
static u32 lb_counter_slot(u64 key, u32 i)
{
	return lb_probe_slot(hash_64(key, LB_COUNTER_BITS), i, LB_COUNTER_BITS);
}

/*
 * Whether futex @key was shown to be a counter by a release
 * (lb_futex_counter_note). Most runs note none: then no probe is needed.
 */
static bool lb_futex_counter_known(const struct lb_ledger *l, u64 key)
{
	u32 i;

	if (!l->totals.futex_counters)
		return false;
	for (i = 0; key && i < LB_COUNTER_PROBES; i++)
		if (l->counter_key[lb_counter_slot(key, i)] == key)
			return true;
	return false;
}

/* Kept where it is, else in a free slot, else in place of one, in turn. */
void lb_futex_counter_note(struct lb_ledger *l, u64 key)
{
	u64 *slot;
	u32 i;

	for (i = 0; i < LB_COUNTER_PROBES; i++) {
		slot = &l->counter_key[lb_counter_slot(key, i)];
		if (*slot == key || !*slot)
			break;
	}
	if (i == LB_COUNTER_PROBES)
		slot = &l->counter_key[lb_counter_slot(key, (u32)l->totals.futex_counters %
							    LB_COUNTER_PROBES)];
	*slot = key;
	l->totals.futex_counters++;
}

/* Whether the word futex wait @ev said it expected is event-shaped (lb_futex_word_is_event). */
bool lb_futex_word_event_shaped(const struct lb_ledger *l, const struct lb_event *ev)
{
	return (ev->flags & LB_EF_WORD_TID) || !lb_word_lock_shaped(ev->word) ||
	       lb_futex_counter_known(l, ev->lock);
}

/*
 * The most a counter is taken to have advanced between a wait and its wake;
 * a lock's release, from 2 or 3 to 0 or 1, is 2^32 - 3 or less "ahead".
 */
#define LB_FUTEX_STEP_MAX	BIT(16)

/* Whether @word, read by the releaser, has advanced past @expected. */
static bool lb_word_advanced(u32 expected, u32 word)
{
	return (expected == LB_FUTEX_CONTENDED || expected == LB_FUTEX_RW_WAITING) &&
	       word != expected && word - expected < LB_FUTEX_STEP_MAX;
}

/* How many waits, live and ended, a release holds its word against. */
#define LB_COUNTER_LOOK		4

/* Whether @ev's word advanced past what one of the first waits on @list expected. */
static bool lb_waits_advanced(const struct list_head *list, const struct lb_event *ev)
{
	const struct lb_waiter *w;
	u32 n = 0;

	list_for_each_entry(w, list, lock_node) {
		if (w->word_known && lb_word_advanced(w->word, ev->word))
			return true;
		if (++n == LB_COUNTER_LOOK)
			break;
	}
	return false;
}

/*
 * Whether release @ev of futex @lock shows a counter: the word it read has
 * advanced past what a waiter still on the lock (or whose waiting is still
 * pending on it) expected. The waiters of one futex wait on one protocol,
 * so the oldest few decide: a herd of thousands costs no more per release.
 */
bool lb_futex_word_advanced(const struct lb_lock *lock, const struct lb_event *ev)
{
	return lb_waits_advanced(&lock->waiters, ev) || lb_waits_advanced(&lock->ghosts, ev);
}

static void lb_who_set(struct lb_who *w, const struct lb_task_id *id)
{
	w->pid = id->pid;
	w->tgid = id->tgid;
	memcpy(w->comm, id->comm, LB_COMM_LEN);
}

static struct hlist_head *lb_sleeper_head(const struct lb_ledger *l, s32 pid)
{
	return &l->sleeper_hash[hash_64((u32)pid, l->sleeper_bits)];
}

struct lb_sleeper *lb_sleeper_find(const struct lb_ledger *l, s32 pid)
{
	struct lb_sleeper *s;

	hlist_for_each_entry(s, lb_sleeper_head(l, pid), hnode)
		if (s->pid == pid)
			return s;
	return NULL;
}

/*
 * The sleeper of @id; NULL when every slot holds a task asleep. @renamed
 * (if given): whether @id's name is new to it (a new sleeper, or a rename).
 */
static struct lb_sleeper *lb_sleeper_get(struct lb_ledger *l, const struct lb_task_id *id,
					 bool *renamed)
{
	struct lb_sleeper *s = lb_sleeper_find(l, id->pid);

	if (!s) {
		if (!list_empty(&l->free_sleepers)) {
			s = list_first_entry(&l->free_sleepers, struct lb_sleeper, lru);
		} else if (!list_empty(&l->sleeper_lru)) {
			s = list_last_entry(&l->sleeper_lru, struct lb_sleeper, lru);
			hlist_del_init(&s->hnode);
			l->totals.evicted_sleepers++;
		} else {
			return NULL;
		}
		list_del_init(&s->lru);
		memset(s, 0, sizeof(*s));
		INIT_HLIST_NODE(&s->hnode);
		s->pid = id->pid;
		hlist_add_head(&s->hnode, lb_sleeper_head(l, id->pid));
		list_add(&s->lru, &l->sleeper_lru);
	}
	s->tgid = id->tgid;
	if (renamed)
		*renamed = id->comm[0] && memcmp(s->comm, id->comm, LB_COMM_LEN);
	if (id->comm[0])
		memcpy(s->comm, id->comm, LB_COMM_LEN);
	return s;
}

u64 lb_sleeper_wait_ns(const struct lb_ledger *l, const struct lb_sleeper *s)
{
	u64 open = s->asleep && l->now_ns > s->begin_ns ? l->now_ns - s->begin_ns : 0;

	return s->wait_ns + open;
}

/* Credit @ns of waiting by @waiter for @waker's signal (pid 0: none seen). */
static void lb_signal_add(struct lb_ledger *l, const struct lb_who *waiter,
			  const struct lb_who *waker, u64 ns)
{
	struct lb_signal *sg;
	u32 i;

	for (i = 0; i < l->nr_signals; i++) {
		sg = &l->signal[i];
		if (sg->waiter.tgid == waiter->tgid && sg->waker.tgid == waker->tgid &&
		    !memcmp(sg->waiter.comm, waiter->comm, LB_COMM_LEN) &&
		    !memcmp(sg->waker.comm, waker->comm, LB_COMM_LEN))
			goto add;
	}
	if (l->nr_signals == LB_SIGNALS) {
		l->totals.dropped_signals++;
		return;
	}
	sg = &l->signal[l->nr_signals++];
	memset(sg, 0, sizeof(*sg));
add:
	sg->waiter = *waiter;
	sg->waker = *waker;
	sg->wait_ns += ns;
	sg->waits++;
	sg->max_ns = max(sg->max_ns, ns);
}

/* Move @ns of one wait by @waiter from "nobody seen" to @waker. */
static void lb_signal_claim(struct lb_ledger *l, const struct lb_orphan *o,
			    const struct lb_who *waker)
{
	struct lb_sleeper *s;
	u32 i;

	for (i = 0; i < l->nr_signals; i++) {
		struct lb_signal *sg = &l->signal[i];

		if (sg->waker.pid || sg->waiter.tgid != o->waiter.tgid ||
		    memcmp(sg->waiter.comm, o->waiter.comm, LB_COMM_LEN) ||
		    sg->wait_ns < o->ns || !sg->waits)
			continue;
		sg->wait_ns -= o->ns;
		sg->waits--;
		lb_signal_add(l, &o->waiter, waker, o->ns);
		s = lb_sleeper_find(l, o->waiter.pid);
		if (s && !s->waker)
			s->waker = waker->pid;
		return;
	}
}

/* @s wakes up at @ts: its wait ends, signalled by @waker (pid 0: unknown). */
static void lb_sleeper_wake(struct lb_ledger *l, struct lb_sleeper *s, u64 ts,
			    const struct lb_who *waker, bool error)
{
	u64 ns = ts > s->begin_ns ? ts - s->begin_ns : 0;
	struct lb_who waiter = { .pid = s->pid, .tgid = s->tgid };

	memcpy(waiter.comm, s->comm, LB_COMM_LEN);
	s->wait_ns += ns;
	s->waits++;
	s->waker = waker->pid;
	s->asleep = false;
	l->totals.event_wait_ns += ns;
	l->totals.event_waits++;
	if (error) {
		s->errors++;
		l->totals.event_errors++;
	}
	l->nr_asleep--;
	list_add(&s->lru, &l->sleeper_lru);
	lb_signal_add(l, &waiter, waker, ns);
}

void lb_event_wait_begin(struct lb_ledger *l, const struct lb_event *ev, u64 ts)
{
	static const struct lb_who nobody;
	bool renamed = false;
	struct lb_sleeper *s = lb_sleeper_get(l, &ev->task, &renamed);

	/* Its name, if new here, is the tracked task's latest too. */
	if (!s || renamed)
		lb_task_rename(l, &ev->task);
	if (!s) {
		l->totals.event_dropped++;
		return;
	}
	if (s->asleep) {
		/* Its last wait ended unseen: it is running again. */
		l->totals.unmatched_events++;
		lb_sleeper_wake(l, s, ts, &nobody, false);
	}
	if (ev->flags & LB_EF_NOSLEEP) {
		/* The value changed before it could sleep: an error, no time. */
		s->waits++;
		s->errors++;
		l->totals.event_waits++;
		l->totals.event_errors++;
		return;
	}
	s->key = ev->lock;
	s->begin_ns = ts;
	s->asleep = true;
	list_del_init(&s->lru);
	l->nr_asleep++;
}

/*
 * An ended wait of @id, counted as a lock wait, turns out to have been an
 * event wait of @ns, signalled by @waker.
 */
void lb_event_wait_ended(struct lb_ledger *l, const struct lb_task_id *id, u64 ns,
			 const struct lb_task_id *waker)
{
	struct lb_sleeper *s = lb_sleeper_get(l, id, NULL);
	struct lb_who waiter, by;

	if (!s) {
		l->totals.event_dropped++;
		return;
	}
	s->wait_ns += ns;
	s->waits++;
	s->waker = waker->pid;
	l->totals.event_wait_ns += ns;
	l->totals.event_waits++;
	lb_who_set(&waiter, id);
	lb_who_set(&by, waker);
	lb_signal_add(l, &waiter, &by, ns);
}

/* A wait begun as a lock wait on @key at @begin_ns turns out to be an event wait. */
bool lb_event_wait_adopt(struct lb_ledger *l, const struct lb_task_id *id, u64 key,
			 u64 begin_ns)
{
	struct lb_sleeper *s = lb_sleeper_get(l, id, NULL);

	if (!s || s->asleep) {
		l->totals.event_dropped++;
		return false;
	}
	s->key = key;
	s->begin_ns = begin_ns;
	s->asleep = true;
	list_del_init(&s->lru);
	l->nr_asleep++;
	return true;
}

bool lb_event_wait_end(struct lb_ledger *l, const struct lb_event *ev, u64 ts)
{
	struct lb_sleeper *s = lb_sleeper_find(l, ev->task.pid);
	struct lb_who waker = {};
	struct lb_wake *wk;

	if (!s || !s->asleep || (ev->lock && ev->lock != s->key))
		return false;
	wk = lb_wake_find(l, s->key);
	/* Woken: by the last waker of the key, if it woke it during this sleep. */
	if (ev->result == LB_WAIT_WOKEN && wk && wk->ts >= s->begin_ns) {
		waker = wk->waker;
	} else if (ev->result == LB_WAIT_WOKEN) {
		/* Its waker's wake has not returned yet: it will claim it. */
		wk = lb_wake_claim(l, s->key);
		if (wk->nr_orphans < LB_WAKE_ORPHANS) {
			struct lb_orphan *o = &wk->orphan[wk->nr_orphans++];

			o->waiter = (struct lb_who){ .pid = s->pid, .tgid = s->tgid };
			memcpy(o->waiter.comm, s->comm, LB_COMM_LEN);
			o->end_ns = ts;
			o->ns = ts > s->begin_ns ? ts - s->begin_ns : 0;
		}
	}
	lb_sleeper_wake(l, s, ts, &waker, ev->result != LB_WAIT_WOKEN &&
			ev->result != LB_WAIT_ACQUIRED);
	return true;
}

/* How long before a wake's return a waiter it woke may have been seen running. */
#define LB_ORPHAN_NS	(50 * 1000 * 1000ULL)

/* The orphans @wk kept, woken by its waker at @ts. Out of line: most wakes have none. */
static noinline void lb_wake_orphans(struct lb_ledger *l, struct lb_wake *wk, u64 ts)
{
	u32 i;

	for (i = 0; i < wk->nr_orphans; i++)
		if (ts - wk->orphan[i].end_ns <= LB_ORPHAN_NS)
			lb_signal_claim(l, &wk->orphan[i], &wk->waker);
	wk->nr_orphans = 0;
}

void lb_event_wake(struct lb_ledger *l, const struct lb_event *ev, u64 ts)
{
	struct lb_wake *wk = lb_wake_claim(l, ev->lock);

	wk->ts = ts;
	lb_who_set(&wk->waker, &ev->task);
	if (wk->nr_orphans)
		lb_wake_orphans(l, wk, ts);
}
