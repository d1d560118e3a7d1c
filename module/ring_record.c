// SPDX-License-Identifier: GPL-2.0
/*
 * Ring slots: an event packed without its identities, and identities sent
 * once per CPU (ring_record.h). An event carried its task's and its owner's
 * pid, tgid, comm, process name and cgroup (96 of its 184 bytes); the same
 * few tasks make most events, so each CPU keeps a table of the identities
 * it sent, and an event names a slot of it. A new or changed identity (a
 * task renamed, moved to another cgroup) is written to the ring first, and
 * the drain, reading the ring in order, keeps the same table: at each event
 * its copy holds what the producer's held. A ring drops only new records,
 * never ones written, so the copy cannot miss an identity an event names.
 */
#include <linux/string.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include "lockblame.h"
#include "ring_record.h"

static const struct lb_task_id lb_no_task;

/*
 * The slot of @id in @ids, other than @avoid (the event's other identity):
 * the one that holds it (*@hit), or the one it is to go to. A pid's slots
 * are its own and the one beside it. All zeroes (no owner) is no slot.
 */
static u16 __kprobes lb_ring_find(const struct lb_ring_ids *ids, const struct lb_task_id *id,
				  u16 avoid, bool *hit)
{
	u16 slot = (u32)id->pid % LB_RING_IDS, alt = slot ^ 1;

	*hit = true;
	if (!memcmp(id, &lb_no_task, sizeof(*id)))
		return LB_RING_ID_NONE;
	if (slot != avoid && !memcmp(&ids->id[slot], id, sizeof(*id)))
		return slot;
	if (alt != avoid && !memcmp(&ids->id[alt], id, sizeof(*id)))
		return alt;
	*hit = false;
	return slot == avoid ? alt : slot;
}

/* The slot of @id (lb_ring_find()), written to the ring at *@head first if new. */
static u16 __kprobes lb_ring_intern(union lb_ring_slot *buf, unsigned long mask,
				    unsigned long *head, struct lb_ring_ids *ids,
				    const struct lb_task_id *id, u16 avoid)
{
	struct lb_ring_ident *rec;
	bool hit;
	u16 slot = lb_ring_find(ids, id, avoid, &hit);

	if (hit)
		return slot;
	ids->id[slot] = *id;
	rec = &buf[*head & mask].id;
	rec->id = *id;
	rec->type = LB_RING_IDENT;
	rec->pad = 0;
	rec->slot = slot;
	(*head)++;
	return slot;
}

/* How many slots lb_ring_pack() would write for @ev: 1 to LB_RING_SLOTS_MAX. */
unsigned int __kprobes lb_ring_pack_slots(const struct lb_ring_ids *ids, const struct lb_event *ev)
{
	unsigned int n = 1;
	bool hit;
	u16 task = lb_ring_find(ids, &ev->task, LB_RING_ID_NONE, &hit);

	n += !hit;
	lb_ring_find(ids, &ev->owner, task, &hit);
	return n + !hit;
}
EXPORT_SYMBOL_IF_KUNIT(lb_ring_pack_slots);

/*
 * Write @ev at @head of the ring @buf (@mask its capacity - 1), after any
 * identity it names that @ids lacked: the head after it. The caller has
 * made sure of the room (lb_ring_pack_slots()).
 */
unsigned long __kprobes lb_ring_pack(union lb_ring_slot *buf, unsigned long mask,
				     unsigned long head, struct lb_ring_ids *ids,
				     const struct lb_event *ev)
{
	struct lb_ring_event *r;
	u16 task, owner;

	task = lb_ring_intern(buf, mask, &head, ids, &ev->task, LB_RING_ID_NONE);
	owner = lb_ring_intern(buf, mask, &head, ids, &ev->owner, task);
	r = &buf[head & mask].ev;
	memcpy(r, ev, LB_RING_EVENT_HEAD);
	r->task_slot = task;
	r->owner_slot = owner;
	r->pad = 0;
	r->name_id = ev->name_id;
	r->uaddr = ev->uaddr;
	return head + 1;
}
EXPORT_SYMBOL_IF_KUNIT(lb_ring_pack);

static void lb_ring_ident_get(const struct lb_ring_ids *ids, u16 slot, struct lb_task_id *id)
{
	if (slot < LB_RING_IDS)
		*id = ids->id[slot];
	else
		memset(id, 0, sizeof(*id));
}

/*
 * The drain's side, slot by slot in ring order: an identity goes into @ids
 * (false: no event here); an event is rebuilt into @ev, recorded on @cpu.
 */
bool lb_ring_unpack(const union lb_ring_slot *s, struct lb_ring_ids *ids, int cpu,
		    struct lb_event *ev)
{
	const struct lb_ring_event *r = &s->ev;

	if (s->id.type == LB_RING_IDENT) {
		if (s->id.slot < LB_RING_IDS)
			ids->id[s->id.slot] = s->id.id;
		return false;
	}
	memcpy(ev, r, LB_RING_EVENT_HEAD);
	ev->cpu = cpu;
	lb_ring_ident_get(ids, r->task_slot, &ev->task);
	lb_ring_ident_get(ids, r->owner_slot, &ev->owner);
	ev->uaddr = r->uaddr;
	ev->name_id = r->name_id;
	ev->reserved = 0;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(lb_ring_unpack);
