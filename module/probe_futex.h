/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The futex probes' slot table: the key a task's futex operation computed,
 * kept from get_futex_key()'s return until the same operation sleeps, finds
 * the word changed or wakes. Lock-free, shared by every task; the claim
 * protocol lives in probe_futex_slots.c, the KUnit suite lockblame_futex_slots
 * drives it step by step.
 */
#ifndef _LOCKBLAME_PROBE_FUTEX_H
#define _LOCKBLAME_PROBE_FUTEX_H

#include <linux/atomic.h>
#include <linux/sched.h>
#include <linux/types.h>

#define LB_FUTEX_SLOT_BITS	12
#define LB_FUTEX_SLOTS		BIT(LB_FUTEX_SLOT_BITS)
/* A task's slot is one of this many from hash(pid) on. */
#define LB_FUTEX_SLOT_PROBES	8
/* A key untouched this long belongs to nobody in the middle of a futex op. */
#define LB_FUTEX_SLOT_STALE_NS	NSEC_PER_SEC

/* The key of one futex operation. */
struct lb_futex_key {
	u64 lock;		/* lock id of the key */
	u64 ts;			/* when the key was stored */
	u64 entered;		/* when get_futex_key() was entered: the op began */
	unsigned long uaddr;	/* user address of the futex word */
	u32 word;		/* the value futex_wait_setup() found (LB_EF_WORD) */
	u16 flags;		/* LB_EF_SHARED_KEY, LB_EF_WORD */
};

/*
 * state: owner pid << 32 | generation << 1 | writing. Only the task whose
 * cmpxchg of state set "writing" writes the key; every claim bumps the
 * generation, so a reader that finds state unchanged after copying the key
 * has a key no other task wrote in between. pid 0: free.
 */
struct lb_futex_slot {
	atomic64_t state;
	struct lb_futex_key key;
};

/* A slot and the state it was claimed or looked up in. */
struct lb_futex_ref {
	struct lb_futex_slot *slot;
	s64 state;
};

union futex_key;

/* probe_futex_key.c: a futex's key, from a futex_q or computed. */
bool lb_futex_private_lock(unsigned long uaddr, u64 *lock);
bool lb_futex_q_key(unsigned long q, union futex_key *key);
bool lb_futex_key_fill(const union futex_key *key, struct lb_futex_key *k);

/* A private key names the current task's mm: else it was not read from a futex_q's key. */
static inline bool lb_futex_key_mine(const union futex_key *key)
{
	return key->both.ptr == (u64)(unsigned long)current->mm;
}

bool lb_futex_sleeps_next(unsigned long q, const union futex_key *key);

/* probe_futex_slots.c */
bool lb_futex_slot_claim(struct lb_futex_slot *table, pid_t pid, u64 now,
			 struct lb_futex_ref *ref);
void lb_futex_slot_write(const struct lb_futex_ref *ref, const struct lb_futex_key *key);
void lb_futex_slot_publish(struct lb_futex_ref *ref);
bool lb_futex_slot_lookup(struct lb_futex_slot *table, pid_t pid, u64 now,
			  struct lb_futex_key *key, struct lb_futex_ref *ref);
bool lb_futex_slot_reopen(struct lb_futex_ref *ref);
void lb_futex_slot_release(const struct lb_futex_ref *ref);

#endif /* _LOCKBLAME_PROBE_FUTEX_H */
