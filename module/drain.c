// SPDX-License-Identifier: GPL-2.0
/*
 * The drain: moves events from the per-CPU rings into the ledger, merged in
 * timestamp order, periodically and before every read. Its filter decides
 * which waits the ledger sees; what it feeds the ledger it also tees into
 * the binary stream (stream.c).
 */
#include <linux/slab.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/irq_work.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/timekeeping.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/wait.h>
#include "lockblame.h"
#include "ledger.h"

/*
 * Periodic drains leave the newest few milliseconds in the rings: a probe on
 * another CPU may have taken its timestamp and not yet committed. Reads
 * drain everything; an event that still arrives late is clamped and counted.
 */
#define LB_DRAIN_SLACK_NS	(2 * NSEC_PER_MSEC)

static DEFINE_MUTEX(lb_drain_mutex);
static struct lb_ringset *lb_rings;
static unsigned int lb_drain_ms;
static struct lb_ledger *lb_ledger;
static struct delayed_work lb_drain_work;
/*
 * The drain runs on a high-priority workqueue: under load its kworker
 * competes with the very tasks it records, and a drain at normal priority
 * got a fair share of a CPU among dozens of them, too little to keep up.
 */
static struct workqueue_struct *lb_drain_wq;
/*
 * Or, by default, in a real-time thread (drain_rt=1: SCHED_FIFO 1, below
 * every other real-time task; 2: SCHED_FIFO 50). A workqueue is CFS, and
 * SCHED_FIFO tasks (stress-ng's mutex stressor runs its threads so) leave
 * CFS only what RT throttling keeps back, 5% of each CPU: under stress-ng's
 * lock stressors the workqueue recorded 9,262 events/s and dropped 85%, the
 * FIFO 1 thread 53,710/s and 3.6% (make bench's capacity table).
 */
static unsigned int lb_drain_rt;
static struct task_struct *lb_drain_task;
static DECLARE_WAIT_QUEUE_HEAD(lb_drain_waitq);
static bool lb_drain_kicked;
static unsigned int *lb_avail, *lb_pos;
static u64 lb_start_ns, lb_drained, lb_filtered, lb_drains, lb_feed_ns;
/* Where the drain's time goes: all of it, and its largest batch. */
static u64 lb_drain_ns, lb_drain_max_batch;
static atomic64_t lb_kicks = ATOMIC64_INIT(0);
static bool lb_stopping;
static struct irq_work lb_kick_work;
static lb_drain_tap_t lb_tap;
static void *lb_tap_priv;

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

static bool lb_id_match(const struct lb_filter *f, const struct lb_task_id *id)
{
	if (f->tgid && id->tgid != f->tgid)
		return false;
	if (f->comm[0] && strncmp(id->comm, f->comm, LB_COMM_LEN))
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
	if (!f->tgid && !f->comm[0])
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

static bool lb_admit_event(const struct lb_filter *f, const struct lb_event *ev)
{
	bool matched;

	/* No filter: nothing to decide, nothing to remember. */
	if (!f->tgid && !f->comm[0])
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

static void lb_admit_clear(void)
{
	memset(lb_admit, 0, array_size(LB_ADMIT_WAYS << lb_admit_bits, sizeof(*lb_admit)));
	memset(lb_watch, 0, array_size(LB_ADMIT_WAYS << lb_admit_bits, sizeof(*lb_watch)));
	lb_admit_open = 0;
}

static void lb_feed(const struct lb_filter *f, const struct lb_event *ev)
{
	u64 t0;

	if (!lb_admit_event(f, ev)) {
		lb_filtered++;
		return;
	}
	/* The engine's cost per event, shown in stats (make bench scales it). */
	t0 = ktime_get_ns();
	lb_ledger_feed(lb_ledger, ev);
	lb_feed_ns += ktime_get_ns() - t0;
	lb_stream_push(ev);
	if (lb_tap)
		lb_tap(ev, lb_tap_priv);
	lb_drained++;
}

/* k-way merge of the rings' heads by timestamp, up to @cutoff. */
static void lb_drain_locked(u64 cutoff, bool discard)
{
	u64 t0 = ktime_get_ns(), batch = 0;
	struct lb_filter filter;
	int cpu, best;
	u64 best_ts;

	lb_drain_filter(&filter);
	/* A new filter decides afresh: waits admitted by the old one are forgotten. */
	if (memcmp(&filter, &lb_admit_filter, sizeof(filter))) {
		lb_admit_clear();
		lb_admit_filter = filter;
	}
	for_each_possible_cpu(cpu) {
		lb_avail[cpu] = lb_ring_avail(lb_rings, cpu);
		lb_pos[cpu] = 0;
	}
	for (;;) {
		best = -1;
		best_ts = 0;
		for_each_possible_cpu(cpu) {
			const struct lb_event *ev;

			if (lb_pos[cpu] >= lb_avail[cpu])
				continue;
			ev = lb_ring_at(lb_rings, cpu, lb_pos[cpu]);
			if (ev->ts_ns > cutoff)
				continue;
			if (best < 0 || ev->ts_ns < best_ts) {
				best = cpu;
				best_ts = ev->ts_ns;
			}
		}
		if (best < 0)
			break;
		if (!discard)
			lb_feed(&filter, lb_ring_at(lb_rings, best, lb_pos[best]));
		lb_pos[best]++;
		batch++;
	}
	for_each_possible_cpu(cpu)
		lb_ring_consume(lb_rings, cpu, lb_pos[cpu]);
	lb_drains++;
	lb_drain_max_batch = max(lb_drain_max_batch, batch);
	lb_drain_ns += ktime_get_ns() - t0;
}

void lb_drain_now(void)
{
	mutex_lock(&lb_drain_mutex);
	lb_drain_locked(ktime_get_mono_fast_ns(), false);
	mutex_unlock(&lb_drain_mutex);
}
EXPORT_SYMBOL_IF_KUNIT(lb_drain_now);

void lb_drain_set_tap(lb_drain_tap_t tap, void *priv)
{
	mutex_lock(&lb_drain_mutex);
	lb_tap = tap;
	lb_tap_priv = priv;
	mutex_unlock(&lb_drain_mutex);
}
EXPORT_SYMBOL_IF_KUNIT(lb_drain_set_tap);

static void lb_drain_workfn(struct work_struct *work)
{
	mutex_lock(&lb_drain_mutex);
	lb_drain_locked(ktime_get_mono_fast_ns() - LB_DRAIN_SLACK_NS, false);
	mutex_unlock(&lb_drain_mutex);
	if (!READ_ONCE(lb_stopping))
		queue_delayed_work(lb_drain_wq, &lb_drain_work, msecs_to_jiffies(lb_drain_ms));
}

static bool lb_drain_wanted(void)
{
	return READ_ONCE(lb_drain_kicked) || kthread_should_stop();
}

static int lb_drain_thread(void *unused)
{
	while (!kthread_should_stop()) {
		wait_event_interruptible_timeout(lb_drain_waitq, lb_drain_wanted(),
						 msecs_to_jiffies(lb_drain_ms));
		WRITE_ONCE(lb_drain_kicked, false);
		mutex_lock(&lb_drain_mutex);
		lb_drain_locked(ktime_get_mono_fast_ns() - LB_DRAIN_SLACK_NS, false);
		mutex_unlock(&lb_drain_mutex);
	}
	return 0;
}

static void lb_kick_workfn(struct irq_work *work)
{
	if (READ_ONCE(lb_stopping))
		return;
	if (lb_drain_rt) {
		WRITE_ONCE(lb_drain_kicked, true);
		wake_up(&lb_drain_waitq);
		return;
	}
	mod_delayed_work(lb_drain_wq, &lb_drain_work, 0);
}

/* From a probe (any context): a ring is half full, drain soon. */
void __kprobes lb_drain_kick(void)
{
	if (irq_work_queue(&lb_kick_work))
		atomic64_inc(&lb_kicks);
}

/* Readers hold the drain lock while they format the ledger. */
void lb_drain_lock(void)
{
	mutex_lock(&lb_drain_mutex);
	lb_drain_locked(ktime_get_mono_fast_ns(), false);
	lb_ledger_advance(lb_ledger, ktime_get_mono_fast_ns());
}
EXPORT_SYMBOL_IF_KUNIT(lb_drain_lock);

void lb_drain_unlock(void)
{
	mutex_unlock(&lb_drain_mutex);
}
EXPORT_SYMBOL_IF_KUNIT(lb_drain_unlock);

struct lb_ledger *lb_drain_ledger(void)
{
	return lb_ledger;
}
EXPORT_SYMBOL_IF_KUNIT(lb_drain_ledger);

u64 lb_drain_start_ns(void)
{
	return lb_start_ns;
}

/*
 * Forget everything recorded so far: events already in the rings, and the
 * stored stacks (no event that names one survives the discard).
 */
void lb_drain_reset(void)
{
	lb_stacks_freeze();
	mutex_lock(&lb_drain_mutex);
	lb_drain_locked(ktime_get_mono_fast_ns(), true);
	lb_ledger_reset(lb_ledger);
	lb_admit_clear();
	lb_drained = 0;
	lb_filtered = 0;
	lb_feed_ns = 0;
	lb_drain_ns = 0;
	lb_drain_max_batch = 0;
	lb_start_ns = ktime_get_mono_fast_ns();
	lb_stream_discard(lb_start_ns);
	lb_stacks_clear_thaw();
	mutex_unlock(&lb_drain_mutex);
}

/* Tell futex locks from event waits (on) or not, for what is drained next. */
void lb_drain_set_futex_kinds(bool on)
{
	mutex_lock(&lb_drain_mutex);
	/* What was recorded so far is judged by the rule in force then. */
	lb_drain_locked(ktime_get_mono_fast_ns(), false);
	lb_ledger_set_futex_kinds(lb_ledger, on);
	mutex_unlock(&lb_drain_mutex);
}

bool lb_drain_futex_kinds(void)
{
	bool on;

	mutex_lock(&lb_drain_mutex);
	on = lb_ledger_futex_kinds(lb_ledger);
	mutex_unlock(&lb_drain_mutex);
	return on;
}

/*
 * What was lost on the way to the ledger: ring drops by cause (full, nested,
 * nokey), kretprobe misses (waits whose return was never seen) and admitted
 * waits the filter table evicted, and what the ledger's tables had no room
 * for. The total is zero exactly when the ledger saw and kept every event
 * the probes generated. Lockless: callable with or without the drain lock
 * held (the ledger's counters only grow, but at a reset).
 */
u64 lb_loss_get(struct lb_loss *loss)
{
	struct lb_ring_counts c;
	unsigned int i;

	memset(loss, 0, sizeof(*loss));
	lb_rings_sum(lb_rings, &c);
	for (i = 0; i < LB_DROP_CAUSE_MAX; i++)
		loss->ring[i] = c.dropped[i];
	loss->kretprobe_missed = lb_probes_missed();
	loss->filter_evicted = READ_ONCE(lb_admit_evicted);
	loss->ledger_dropped = lb_ledger ? lb_ledger_dropped(lb_ledger) : 0;
	loss->total = lb_ring_dropped(&c) + loss->kretprobe_missed + loss->filter_evicted +
		      loss->ledger_dropped;
	return loss->total;
}
EXPORT_SYMBOL_IF_KUNIT(lb_loss_get);

/* True when nothing was lost anywhere: the report may call its data exact. */
bool lb_data_exact(void)
{
	struct lb_loss loss;

	return !lb_loss_get(&loss);
}
EXPORT_SYMBOL_IF_KUNIT(lb_data_exact);

void lb_drain_show(struct seq_file *m)
{
	mutex_lock(&lb_drain_mutex);
	seq_printf(m, "drained %llu filtered %llu drains %llu interval_ms %u in %s\n",
		   lb_drained, lb_filtered, lb_drains, lb_drain_ms,
		   !lb_drain_task ? "workqueue" : lb_drain_rt == 1 ? "fifo1" : "fifo50");
	seq_printf(m, "ledger_ns_per_event %llu\n",
		   lb_drained ? div64_u64(lb_feed_ns, lb_drained) : 0);
	seq_printf(m, "drain_ns %llu ledger_ns %llu drain_ns_per_event %llu max_batch %llu kicks %llu\n",
		   lb_drain_ns, lb_feed_ns,
		   lb_drained ? div64_u64(lb_drain_ns, lb_drained) : 0,
		   lb_drain_max_batch, (u64)atomic64_read(&lb_kicks));
	seq_printf(m, "admitted_waits open %llu evicted %llu capacity %u\n",
		   lb_admit_open, lb_admit_evicted, LB_ADMIT_WAYS << lb_admit_bits);
	mutex_unlock(&lb_drain_mutex);
}

/*
 * The periodic drain starts after the probes are planted: while they are
 * being registered, the drain's own mutex_lock would call a function whose
 * entry is being patched (a debug-lane guest died so on multi-threaded TCG:
 * tools/qemu/int3-evidence.md, "Loaded cycles").
 */
void lb_drain_start(void)
{
	struct task_struct *t;

	WRITE_ONCE(lb_stopping, false);
	if (lb_drain_rt) {
		t = kthread_run(lb_drain_thread, NULL, "lockblame_drain");
		if (!IS_ERR(t)) {
			if (lb_drain_rt == 1)
				sched_set_fifo_low(t);
			else
				sched_set_fifo(t);
			lb_drain_task = t;
			return;
		}
		pr_warn("no drain thread (%ld): draining in the workqueue\n", PTR_ERR(t));
		lb_drain_rt = 0;
	}
	queue_delayed_work(lb_drain_wq, &lb_drain_work, msecs_to_jiffies(lb_drain_ms));
}
EXPORT_SYMBOL_IF_KUNIT(lb_drain_start);

int lb_drain_init(struct lb_ringset *rings, const struct lb_config *cfg)
{
	struct lb_ledger_limits limits;

	lb_rings = rings;
	lb_drain_ms = cfg->drain_ms;
	lb_drain_rt = cfg->drain_rt;
	lb_avail = kcalloc(nr_cpu_ids, sizeof(*lb_avail), GFP_KERNEL);
	lb_pos = kcalloc(nr_cpu_ids, sizeof(*lb_pos), GFP_KERNEL);
	if (!lb_avail || !lb_pos)
		goto nomem;
	/* About as many open waits as the ledger tracks, at least two buckets. */
	lb_admit_bits = max_t(unsigned int, 1,
			      ilog2(roundup_pow_of_two(cfg->max_waiters) / LB_ADMIT_WAYS));
	lb_admit = kvcalloc(LB_ADMIT_WAYS << lb_admit_bits, sizeof(*lb_admit), GFP_KERNEL);
	lb_watch = kvcalloc(LB_ADMIT_WAYS << lb_admit_bits, sizeof(*lb_watch), GFP_KERNEL);
	if (!lb_admit || !lb_watch)
		goto nomem;
	lb_admit_open = 0;
	lb_admit_evicted = 0;
	/*
	 * Unbound: the drain empties every CPU's ring and needs no CPU of its
	 * own; 7.x also warns about a workqueue that names neither WQ_UNBOUND
	 * nor WQ_PERCPU (a panic under panic_on_warn).
	 */
	lb_drain_wq = alloc_workqueue("lockblame_drain", WQ_UNBOUND | WQ_HIGHPRI, 0);
	if (!lb_drain_wq)
		goto nomem;
	lb_config_limits(cfg, &limits);
	lb_ledger = lb_ledger_create(&limits);
	if (!lb_ledger)
		goto nomem;
	lb_start_ns = ktime_get_mono_fast_ns();
	lb_stream_discard(lb_start_ns);
	/* Not yet: lb_drain_start() runs it once the probes are planted. */
	lb_stopping = true;
	INIT_DELAYED_WORK(&lb_drain_work, lb_drain_workfn);
	init_irq_work(&lb_kick_work, lb_kick_workfn);
	return 0;
nomem:
	lb_drain_exit();
	return -ENOMEM;
}

/* Call after the probes are gone: nothing writes the rings any more. */
void lb_drain_exit(void)
{
	WRITE_ONCE(lb_stopping, true);
	if (lb_ledger) {
		irq_work_sync(&lb_kick_work);
		if (lb_drain_task)
			kthread_stop(lb_drain_task);
		lb_drain_task = NULL;
		cancel_delayed_work_sync(&lb_drain_work);
		lb_ledger_destroy(lb_ledger);
		lb_ledger = NULL;
	}
	if (lb_drain_wq)
		destroy_workqueue(lb_drain_wq);
	lb_drain_wq = NULL;
	kvfree(lb_admit);
	kvfree(lb_watch);
	lb_admit = NULL;
	lb_watch = NULL;
	kfree(lb_avail);
	kfree(lb_pos);
	lb_avail = NULL;
	lb_pos = NULL;
}
