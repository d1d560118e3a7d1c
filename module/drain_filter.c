// SPDX-License-Identifier: GPL-2.0
/*
 * The drain's filter ("filter comm=|tgid=|cgroup=" in control): which waits the
 * ledger sees. Called with the drain lock held, but for the filter itself,
 * which control sets under its own mutex.
 */
#include <linux/slab.h>
#include <linux/mutex.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/seq_file.h>
#include "lockblame.h"

/*
 * Filters decide per wait, from its begin: the waiter or the owner named
 * then must match. Whatever is decided holds for the whole wait: its end
 * names no owner, so the drain remembers each wait it admitted (keyed by
 * pid: a task waits on one lock at a time) and admits its end whatever the
 * filter says of it.
 *
 * While a matching wait is open on a lock, the lock is watched: every wait
 * that begins on it is admitted whole, so the ledger learns who holds the
 * lock from the waits around the matching one as well as without a filter
 * (dropping them left it a stale holder, and a task blamed for its own
 * waiting). A wait that began unwatched stays out, its end too: an end
 * without its begin would only be unmatched. Between watches the ledger has
 * no open wait on the lock, and its first waiter of the next burst forgets
 * holders it cannot confirm.
 *
 * Both tables have a few ways per bucket; a full bucket evicts its oldest
 * entry, counted in lb_admit_evicted (and so in lb_loss_get()).
 */
#define LB_ADMIT_WAYS	4

struct lb_admitted {
	s32 pid;		/* 0: free */
	bool matched;		/* the filter matched: the wait keeps its lock watched */
	u64 lock;
	u64 begin_ns;
};

struct lb_watched {
	u64 lock;		/* 0: free (lock ids are odd) */
	u32 open;		/* matching waits open on it */
	u64 since_ns;
};

/* The filter "control" sets; each drain takes the one in force as it starts. */
static DEFINE_MUTEX(lb_filter_mutex);
static struct lb_filter lb_filter;

static struct lb_admitted *lb_admit;
static struct lb_watched *lb_watch;
static unsigned int lb_admit_bits;	/* log2 of the number of buckets, both tables */
static u64 lb_admit_open, lb_admit_evicted;

/* The filter's tables of admitted waits and watched locks. */
u64 lb_filter_bytes(void)
{
	return (u64)(LB_ADMIT_WAYS << lb_admit_bits) * (sizeof(*lb_admit) + sizeof(*lb_watch));
}

void lb_drain_set_filter(const struct lb_filter *f)
{
	mutex_lock(&lb_filter_mutex);
	lb_filter = *f;
	mutex_unlock(&lb_filter_mutex);
}

void lb_drain_filter(struct lb_filter *f)
{
	mutex_lock(&lb_filter_mutex);
	*f = lb_filter;
	mutex_unlock(&lb_filter_mutex);
}

static bool lb_filter_none(const struct lb_filter *f)
{
	return !f->tgid && !f->comm[0] && !f->cgroup;
}

static bool lb_filter_eq(const struct lb_filter *a, const struct lb_filter *b)
{
	return a->tgid == b->tgid && a->cgroup == b->cgroup &&
	       !strncmp(a->comm, b->comm, LB_COMM_LEN);
}

/* Every filter given must match; an unknown cgroup (0) matches none. */
static bool lb_id_match(const struct lb_filter *f, const struct lb_task_id *id)
{
	if (f->tgid && id->tgid != f->tgid)
		return false;
	if (f->comm[0] && strncmp(id->comm, f->comm, LB_COMM_LEN))
		return false;
	if (f->cgroup && id->cgroup != f->cgroup)
		return false;
	return true;
}

/*
 * Filters choose whose waits are recorded: a wait is kept when its waiter or
 * the lock's owner at its begin matches. Releases are always kept, since a
 * holder outside the filter still decides how long a matching waiter waits.
 * This judges one event; lb_admit_event() keeps the judgement of a wait's
 * begin for its end (which names no owner), and watches the lock meanwhile.
 */
static bool lb_filter_match(const struct lb_filter *f, const struct lb_event *ev)
{
	if (lb_filter_none(f))
		return true;
	if (ev->type == LB_EV_RELEASE)
		return true;
	return lb_id_match(f, &ev->task) ||
	       (ev->owner_source != LB_OWNER_NONE && lb_id_match(f, &ev->owner));
}

static struct lb_admitted *lb_admit_bucket(s32 pid)
{
	return &lb_admit[hash_32((u32)pid, lb_admit_bits) * LB_ADMIT_WAYS];
}

static struct lb_watched *lb_watch_bucket(u64 lock)
{
	return &lb_watch[hash_64(lock, lb_admit_bits) * LB_ADMIT_WAYS];
}

static struct lb_watched *lb_watch_find(u64 lock)
{
	struct lb_watched *b = lb_watch_bucket(lock);
	unsigned int i;

	for (i = 0; i < LB_ADMIT_WAYS; i++)
		if (b[i].lock == lock)
			return &b[i];
	return NULL;
}

static void lb_watch_get(u64 lock, u64 ts)
{
	struct lb_watched *b = lb_watch_bucket(lock), *slot = lb_watch_find(lock);
	unsigned int i;

	if (!slot) {
		for (i = 0; i < LB_ADMIT_WAYS && !slot; i++)
			if (!b[i].lock)
				slot = &b[i];
		if (!slot) {
			slot = &b[0];
			for (i = 1; i < LB_ADMIT_WAYS; i++)
				if (b[i].since_ns < slot->since_ns)
					slot = &b[i];
			lb_admit_evicted++;
		}
		slot->lock = lock;
		slot->open = 0;
		slot->since_ns = ts;
	}
	slot->open++;
}

static void lb_watch_put(u64 lock)
{
	struct lb_watched *w = lb_watch_find(lock);

	if (w && !--w->open)
		w->lock = 0;
}

static void lb_admit_remember(const struct lb_event *ev, bool matched)
{
	struct lb_admitted *b = lb_admit_bucket(ev->task.pid), *slot = NULL;
	unsigned int i;

	for (i = 0; i < LB_ADMIT_WAYS; i++) {
		if (b[i].pid == ev->task.pid) {
			slot = &b[i];
			break;
		}
		if (!b[i].pid && !slot)
			slot = &b[i];
	}
	if (!slot) {
		slot = &b[0];
		for (i = 1; i < LB_ADMIT_WAYS; i++)
			if (b[i].begin_ns < slot->begin_ns)
				slot = &b[i];
		lb_admit_evicted++;
	} else if (slot->pid != ev->task.pid) {
		lb_admit_open++;
	}
	/* A second begin replaces a wait whose end was lost. */
	if (slot->pid && slot->matched)
		lb_watch_put(slot->lock);
	slot->pid = ev->task.pid;
	slot->matched = matched;
	slot->lock = ev->lock;
	slot->begin_ns = ev->ts_ns;
	if (matched)
		lb_watch_get(ev->lock, ev->ts_ns);
}

/* True if @ev ends a wait that was admitted; that wait is forgotten. */
static bool lb_admit_forget(const struct lb_event *ev)
{
	struct lb_admitted *b = lb_admit_bucket(ev->task.pid);
	unsigned int i;

	for (i = 0; i < LB_ADMIT_WAYS; i++) {
		if (b[i].pid == ev->task.pid) {
			if (b[i].matched)
				lb_watch_put(b[i].lock);
			b[i].pid = 0;
			lb_admit_open--;
			return true;
		}
	}
	return false;
}

bool lb_filter_admit(const struct lb_filter *f, const struct lb_event *ev)
{
	bool matched;

	/* No filter: nothing to decide, nothing to remember. */
	if (lb_filter_none(f))
		return true;
	/* pid 0 marks a free slot; the ledger refuses such events anyway. */
	if (ev->task.pid <= 0)
		return lb_filter_match(f, ev);
	switch (ev->type) {
	case LB_EV_WAIT_BEGIN:
		matched = lb_filter_match(f, ev);
		if (!matched && !lb_watch_find(ev->lock))
			return false;
		lb_admit_remember(ev, matched);
		return true;
	case LB_EV_WAIT_END:
		/* An admitted wait always ends, whatever the filter is now. */
		return lb_admit_forget(ev) || lb_filter_match(f, ev);
	default:
		return lb_filter_match(f, ev);
	}
}

static struct lb_filter lb_admit_filter;	/* the filter the table was filled under */

/* Forget every admitted wait and watched lock. */
void lb_filter_clear(void)
{
	memset(lb_admit, 0, array_size(LB_ADMIT_WAYS << lb_admit_bits, sizeof(*lb_admit)));
	memset(lb_watch, 0, array_size(LB_ADMIT_WAYS << lb_admit_bits, sizeof(*lb_watch)));
	lb_admit_open = 0;
}

/* The filter in force, for one drain: a new one decides afresh. */
void lb_filter_begin(struct lb_filter *f)
{
	lb_drain_filter(f);
	/* Waits admitted by the old filter are forgotten. */
	if (!lb_filter_eq(f, &lb_admit_filter)) {
		lb_filter_clear();
		lb_admit_filter = *f;
	}
}

u64 lb_filter_evicted(void)
{
	return READ_ONCE(lb_admit_evicted);
}

/* A new window (the drain's reset) counts its own evictions. */
void lb_filter_evicted_clear(void)
{
	WRITE_ONCE(lb_admit_evicted, 0);
}

void lb_filter_show(struct seq_file *m)
{
	seq_printf(m, "admitted_waits open %llu evicted %llu capacity %u\n",
		   lb_admit_open, lb_admit_evicted, LB_ADMIT_WAYS << lb_admit_bits);
}

/* About as many open waits as the ledger tracks (@max_waiters), at least two buckets. */
int lb_filter_init(u32 max_waiters)
{
	lb_admit_bits = max_t(unsigned int, 1,
			      ilog2(roundup_pow_of_two(max_waiters) / LB_ADMIT_WAYS));
	lb_admit = kvcalloc(LB_ADMIT_WAYS << lb_admit_bits, sizeof(*lb_admit), GFP_KERNEL);
	lb_watch = kvcalloc(LB_ADMIT_WAYS << lb_admit_bits, sizeof(*lb_watch), GFP_KERNEL);
	lb_admit_open = 0;
	lb_admit_evicted = 0;
	if (lb_admit && lb_watch)
		return 0;
	lb_filter_exit();
	return -ENOMEM;
}

void lb_filter_exit(void)
{
	kvfree(lb_admit);
	kvfree(lb_watch);
	lb_admit = NULL;
	lb_watch = NULL;
}
