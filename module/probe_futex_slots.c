// SPDX-License-Identifier: GPL-2.0
/*
 * The futex probes' slot table protocol (probe_futex.h): claim a slot for a
 * task's key, write and publish it, look it up, reopen and release it,
 * lock-free. The KUnit suite lockblame_futex_slots drives it step by step.
 */
#include <linux/kprobes.h>
#include <linux/hash.h>
#include "lockblame.h"
#include "probe_futex.h"
#include "compat.h"

#define LB_SLOT_WRITING		1LL
#define LB_SLOT_GEN_MASK	0xfffffffeLL

static inline pid_t lb_slot_owner(s64 state)
{
	return (pid_t)((u64)state >> 32);
}

/* The next generation of @state, owned by @pid (0: free). */
static inline s64 lb_slot_next(s64 state, pid_t pid, s64 writing)
{
	return (s64)((u64)(u32)pid << 32) | ((state + 2) & LB_SLOT_GEN_MASK) | writing;
}

/*
 * Older than the stale limit. A signed difference: a key stored on another
 * CPU after @now was sampled is fresh, not 2^64 ns old.
 */
static inline bool lb_slot_stale(u64 now, u64 ts)
{
	return (s64)(now - ts) > (s64)LB_FUTEX_SLOT_STALE_NS;
}

/*
 * Take a slot for @pid's new key: its own, else a free one, else one whose
 * key is stale; never one being written. The cmpxchg that sets "writing"
 * makes @pid the only task that may write the key until it publishes; a
 * task that loses the race looks once more.
 */
bool __kprobes lb_futex_slot_claim(struct lb_futex_slot *table, pid_t pid, u64 now,
				   struct lb_futex_ref *ref)
{
	u32 h = hash_32(pid, LB_FUTEX_SLOT_BITS);
	unsigned int i, round;

	for (round = 0; round < 2; round++) {
		struct lb_futex_slot *s, *victim = NULL;
		s64 state, victim_state = 0;

		for (i = 0; i < LB_FUTEX_SLOT_PROBES; i++) {
			s = &table[(h + i) & (LB_FUTEX_SLOTS - 1)];
			state = atomic64_read_acquire(&s->state);
			if (lb_slot_owner(state) == pid) {
				victim = s;
				victim_state = state;
				break;
			}
			if (victim || (state & LB_SLOT_WRITING))
				continue;
			if (!lb_slot_owner(state) || lb_slot_stale(now, READ_ONCE(s->key.ts))) {
				victim = s;
				victim_state = state;
			}
		}
		if (!victim)
			return false;
		ref->state = lb_slot_next(victim_state, pid, LB_SLOT_WRITING);
		if (atomic64_try_cmpxchg(&victim->state, &victim_state, ref->state)) {
			ref->slot = victim;
			return true;
		}
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(lb_futex_slot_claim);

/* Only between a claim (or reopen) and its publish. */
void __kprobes lb_futex_slot_write(const struct lb_futex_ref *ref, const struct lb_futex_key *key)
{
	struct lb_futex_key *k = &ref->slot->key;

	WRITE_ONCE(k->lock, key->lock);
	WRITE_ONCE(k->ts, key->ts);
	WRITE_ONCE(k->entered, key->entered);
	WRITE_ONCE(k->uaddr, key->uaddr);
	WRITE_ONCE(k->word, key->word);
	WRITE_ONCE(k->flags, key->flags);
}
EXPORT_SYMBOL_IF_KUNIT(lb_futex_slot_write);

/* The key is written: readers may have it (release: the key before the state). */
void __kprobes lb_futex_slot_publish(struct lb_futex_ref *ref)
{
	ref->state &= ~LB_SLOT_WRITING;
	atomic64_set_release(&ref->slot->state, ref->state);
}
EXPORT_SYMBOL_IF_KUNIT(lb_futex_slot_publish);

/*
 * @pid's key, if fresh and written by @pid alone: the state is read before
 * and after the copy, and a claim by any other task in between changed it.
 */
bool __kprobes lb_futex_slot_lookup(struct lb_futex_slot *table, pid_t pid, u64 now,
				    struct lb_futex_key *key, struct lb_futex_ref *ref)
{
	u32 h = hash_32(pid, LB_FUTEX_SLOT_BITS);
	struct lb_futex_slot *s;
	unsigned int i;
	s64 state;

	for (i = 0; i < LB_FUTEX_SLOT_PROBES; i++) {
		s = &table[(h + i) & (LB_FUTEX_SLOTS - 1)];
		state = atomic64_read_acquire(&s->state);
		if (lb_slot_owner(state) == pid)
			break;
	}
	if (i == LB_FUTEX_SLOT_PROBES || (state & LB_SLOT_WRITING))
		return false;
	key->lock = READ_ONCE(s->key.lock);
	key->ts = READ_ONCE(s->key.ts);
	key->entered = READ_ONCE(s->key.entered);
	key->uaddr = READ_ONCE(s->key.uaddr);
	key->word = READ_ONCE(s->key.word);
	key->flags = READ_ONCE(s->key.flags);
	smp_rmb();	/* the key before the state that vouches for it */
	if (atomic64_read(&s->state) != state || lb_slot_stale(now, key->ts))
		return false;
	ref->slot = s;
	ref->state = state;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(lb_futex_slot_lookup);

/* Write more of a looked-up key: false if another task took the slot since. */
bool __kprobes lb_futex_slot_reopen(struct lb_futex_ref *ref)
{
	s64 old = ref->state;

	ref->state = lb_slot_next(old, lb_slot_owner(old), LB_SLOT_WRITING);
	return atomic64_try_cmpxchg(&ref->slot->state, &old, ref->state);
}
EXPORT_SYMBOL_IF_KUNIT(lb_futex_slot_reopen);

/*
 * A key serves the one operation that computed it. Used up, it cannot stand
 * in for the key of a later operation whose get_futex_key() probe missed:
 * that one finds none (nokey, counted) instead of naming the wrong futex.
 * The slot is free for any task from now on (unless taken already).
 */
void __kprobes lb_futex_slot_release(const struct lb_futex_ref *ref)
{
	s64 old = ref->state;

	atomic64_try_cmpxchg(&ref->slot->state, &old, lb_slot_next(old, 0, 0));
}
EXPORT_SYMBOL_IF_KUNIT(lb_futex_slot_release);
