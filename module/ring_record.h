/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a ring slot holds (ring_record.c): an event without its two task
 * identities, which name slots of the CPU's identity table instead, or one
 * identity, written to the ring before the first event that names it. The
 * drain rebuilds the whole struct lb_event, so the stream, the ledger and
 * the ABI do not see slots.
 */
#ifndef _LOCKBLAME_RING_RECORD_H
#define _LOCKBLAME_RING_RECORD_H

#include <linux/types.h>
#include <linux/build_bug.h>
#include <lockblame/abi.h>

/* Identity slots per CPU; a task's are its pid's slot and the one beside it. */
#define LB_RING_IDS		256
/* An event whose owner identity is all zeroes (no owner) names no slot. */
#define LB_RING_ID_NONE		0xffff
/* A slot's type that is an identity, never an event's (enum lb_event_type). */
#define LB_RING_IDENT		0xff
/* The most slots one event takes: its two identities and itself. */
#define LB_RING_SLOTS_MAX	3

/*
 * struct lb_event less ->task and ->owner, which name identity slots, and
 * ->reserved. Its first LB_RING_EVENT_HEAD bytes are struct lb_event's but
 * for ->task_slot, in the place of ->cpu (the ring's own).
 */
struct lb_ring_event {
	u64 ts_ns;
	u64 lock;
	u64 cpu_ns;
	u64 owner_cpu_ns;
	u64 run_delay_ns;
	u64 owner_run_delay_ns;
	u8 type;		/* at the offset of struct lb_ring_ident's */
	u8 lock_class;
	u8 result;
	u8 owner_source;
	u16 flags;
	u16 task_slot;		/* identity slot of ->task */
	u32 count;
	u32 stack_id;
	u32 ustack_id;
	u32 word;
	u16 owner_slot;		/* identity slot of ->owner, or LB_RING_ID_NONE */
	u16 pad;
	u32 name_id;
	u64 uaddr;
};

#define LB_RING_EVENT_HEAD	offsetof(struct lb_ring_event, owner_slot)

static_assert(offsetof(struct lb_ring_event, task_slot) == offsetof(struct lb_event, cpu));
static_assert(offsetof(struct lb_ring_event, word) == offsetof(struct lb_event, word));
static_assert(offsetof(struct lb_event, task) == LB_RING_EVENT_HEAD);

/* Slot @slot of the CPU's identity table is @id from here on. */
struct lb_ring_ident {
	struct lb_task_id id;
	u8 type;		/* LB_RING_IDENT */
	u8 pad;
	u16 slot;
};

union lb_ring_slot {
	struct lb_ring_event ev;
	struct lb_ring_ident id;
};

static_assert(offsetof(struct lb_ring_event, type) == offsetof(struct lb_ring_ident, type));
static_assert(sizeof(union lb_ring_slot) == 88);

/* One side's identity table: the producer's, and the drain's copy of it. */
struct lb_ring_ids {
	struct lb_task_id id[LB_RING_IDS];
};

unsigned int lb_ring_pack_slots(const struct lb_ring_ids *ids, const struct lb_event *ev);
unsigned long lb_ring_pack(union lb_ring_slot *buf, unsigned long mask, unsigned long head,
			   struct lb_ring_ids *ids, const struct lb_event *ev);
bool lb_ring_unpack(const union lb_ring_slot *s, struct lb_ring_ids *ids, int cpu,
		    struct lb_event *ev);

#endif /* _LOCKBLAME_RING_RECORD_H */
