// SPDX-License-Identifier: GPL-2.0
/*
 * The ledger's stack records: how long each cause held and each victim
 * waited at each stack (ids into the module's "stacks"), per task and side.
 */
#include "ledger_internal.h"

static struct hlist_head *lb_stack_head(const struct lb_ledger *l, s32 pid, u8 role, u32 id)
{
	u64 key = ((u64)(u32)pid << 32 | id) ^ ((u64)role << 63);

	return &l->stack_hash[hash_64(key, l->stack_bits)];
}

struct lb_stack *lb_stack_find(const struct lb_ledger *l, s32 pid, u8 role, u32 id)
{
	struct lb_stack *st;

	if (!l->stacks)
		return NULL;
	hlist_for_each_entry(st, lb_stack_head(l, pid, role, id), hnode)
		if (st->pid == pid && st->id == id && st->role == role)
			return st;
	return NULL;
}

/*
 * The stack records, about as many as pairs (one per task and side), are
 * allocated with the first stack an event names: stacks are off by default,
 * and the table takes 98,304 bytes at the default max_pairs. Reset keeps it.
 */
static bool lb_stacks_ready(struct lb_ledger *l)
{
	if (l->stacks)
		return true;
	l->stacks = kvcalloc(l->limits.max_pairs, sizeof(*l->stacks), GFP_KERNEL);
	l->stack_hash = kvcalloc(1U << l->stack_bits, sizeof(*l->stack_hash), GFP_KERNEL);
	if (!l->stacks || !l->stack_hash) {
		kvfree(l->stacks);
		kvfree(l->stack_hash);
		l->stacks = NULL;
		l->stack_hash = NULL;
		return false;
	}
	lb_hash_init(l->stack_hash, l->stack_bits);
	l->nr_stacks = 0;
	return true;
}

void lb_stack_add(struct lb_ledger *l, s32 pid, u8 role, u32 id, u64 ns)
{
	struct lb_stack *st = lb_stack_find(l, pid, role, id);

	if (st) {
		st->ns += ns;
		return;
	}
	if (!lb_stacks_ready(l) || l->nr_stacks == l->limits.max_pairs) {
		l->totals.dropped_stacks++;
		return;
	}
	st = &l->stacks[l->nr_stacks++];
	st->pid = pid;
	st->id = id;
	st->role = role;
	st->ns = ns;
	hlist_add_head(&st->hnode, lb_stack_head(l, pid, role, id));
}
