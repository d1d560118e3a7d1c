// SPDX-License-Identifier: GPL-2.0
/*
 * Chain records: how root blame got past a blocked holder, one record per
 * victim lock, holder, lock it waited on and root. Appended; when the table
 * is full, the records of locks nobody waits on now give their lock's
 * identity up (lb_chains_fold), so that locks that come and go do not fill
 * it with records of their own.
 */
#include "ledger_internal.h"

static u32 lb_chain_hash(const struct lb_ledger *l, const struct lb_chain *c)
{
	u64 k = c->victim_lock ^ (c->waits_on * 31) ^ ((u64)(u32)c->holder << 32) ^ (u32)c->root;

	return hash_64(k, l->chain_bits);
}

static struct lb_chain *lb_chain_find(struct lb_ledger *l, const struct lb_chain *key)
{
	struct lb_chain *c;

	hlist_for_each_entry(c, &l->chain_hash[lb_chain_hash(l, key)], hnode)
		if (c->victim_lock == key->victim_lock && c->waits_on == key->waits_on &&
		    c->holder == key->holder && c->root == key->root)
			return c;
	return NULL;
}

static void lb_chain_append(struct lb_ledger *l, const struct lb_chain *key, u64 ns)
{
	struct lb_chain *c = &l->chains[l->nr_chains++];

	*c = *key;
	c->blame_ns = ns;
	hlist_add_head(&c->hnode, &l->chain_hash[lb_chain_hash(l, c)]);
}

/* Take chain record @i out; the last takes its place. */
static void lb_chain_remove(struct lb_ledger *l, u32 i)
{
	struct lb_chain *c = &l->chains[i], *last = &l->chains[--l->nr_chains];

	hlist_del_init(&c->hnode);
	if (c == last)
		return;
	hlist_del_init(&last->hnode);
	*c = *last;
	hlist_add_head(&c->hnode, &l->chain_hash[lb_chain_hash(l, c)]);
}

/* Whether a chain record keeps lock @id's identity: it is waited on now. */
static bool lb_chain_keeps(struct lb_ledger *l, u64 id)
{
	const struct lb_lock *lock = id == LB_LOCK_FOLDED ? NULL : lb_lock_find(l, id);

	return id == LB_LOCK_FOLDED || (lock && lock->nr_waiting);
}

/*
 * What record @key gives up in a fold at @level: 1, the identity of its
 * locks nobody waits on now; 2, also its holder, once it names no lock.
 * True if it gave anything up.
 */
static bool lb_chain_fold_key(struct lb_ledger *l, struct lb_chain *key, u32 level)
{
	bool gave = false;

	if (!lb_chain_keeps(l, key->victim_lock)) {
		key->victim_lock = LB_LOCK_FOLDED;
		gave = true;
	}
	if (!lb_chain_keeps(l, key->waits_on)) {
		key->waits_on = LB_LOCK_FOLDED;
		gave = true;
	}
	if (level > 1 && key->victim_lock == LB_LOCK_FOLDED && key->waits_on == LB_LOCK_FOLDED &&
	    key->holder) {
		key->holder = 0;
		gave = true;
	}
	return gave;
}

static void lb_chains_fold_at(struct lb_ledger *l, u32 level)
{
	u32 i = 0;

	while (i < l->nr_chains) {
		struct lb_chain key = l->chains[i];
		struct lb_chain *same;

		if (!lb_chain_fold_key(l, &key, level)) {
			i++;
			continue;
		}
		lb_chain_remove(l, i);
		l->totals.folded_chains++;
		same = lb_chain_find(l, &key);
		if (same)
			same->blame_ns += key.blame_ns;
		else
			lb_chain_append(l, &key, key.blame_ns);
	}
}

/*
 * The table is full. The records of locks nobody waits on now name
 * LB_LOCK_FOLDED instead, added up with those that then say the same: a
 * transaction's lock, say, is waited on once, and its chains' holders and
 * roots are what is worth keeping. If that frees less than an eighth of
 * the table, such records give their holder up too (pid 0), keeping one
 * record per root: the root blame through chains stays whole. A fold that
 * frees nothing is not tried again for an eighth of the table's adds.
 */
static void lb_chains_fold(struct lb_ledger *l)
{
	u32 before = l->nr_chains;

	if (l->chain_fold_wait) {
		l->chain_fold_wait--;
		return;
	}
	lb_chains_fold_at(l, 1);
	if (l->nr_chains > l->max_chains - l->max_chains / 8)
		lb_chains_fold_at(l, 2);
	if (l->nr_chains == before)
		l->chain_fold_wait = l->max_chains / 8;
}

void lb_chain_add(struct lb_ledger *l, const struct lb_chain *key, u64 ns)
{
	struct lb_chain *c = lb_chain_find(l, key);

	if (c) {
		c->blame_ns += ns;
		return;
	}
	if (l->nr_chains == l->max_chains)
		lb_chains_fold(l);
	if (l->nr_chains == l->max_chains) {
		l->totals.dropped_chains++;
		return;
	}
	lb_chain_append(l, key, ns);
}

/* The chain through @d ends at @root: root blame and the chain record. */
void lb_root_debt_pay(struct lb_ledger *l, const struct lb_route *d, struct lb_task *root)
{
	struct lb_chain c = {
		.victim_lock = d->victim_lock,
		.holder = d->holder,
		.waits_on = d->waits_on,
		.root = root->id.pid,
	};

	lb_account_add(root, &(struct lb_account){ .root_blame_ns = d->ns });
	if (root->id.pid != d->holder)
		lb_chain_add(l, &c, d->ns);
}
