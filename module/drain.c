// SPDX-License-Identifier: GPL-2.0
/*
 * The drain: moves events from the per-CPU rings into the ledger, merged in
 * timestamp order, periodically and before every read. Its filter
 * (drain_filter.c) decides which waits the ledger sees; what it feeds the
 * ledger it also tees into the binary stream (stream.c).
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
#include <uapi/linux/sched/types.h>
#include <linux/wait.h>
#include "lockblame.h"
#include "ledger.h"

/*
 * Periodic drains leave the newest few milliseconds in the rings: a probe on
 * another CPU may have taken its timestamp and not yet committed. Reads
 * drain everything; an event that still arrives late is clamped and counted.
 */
#define LB_DRAIN_SLACK_NS	(2 * NSEC_PER_MSEC)

/*
 * A batch hands the slots it read back to the producers every so many
 * events, not at its end: a batch of thousands would otherwise keep the
 * ring as full as it found it for as long as the ledger takes.
 */
#define LB_DRAIN_CHUNK		64

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
static const char *const lb_drain_where[] = { "workqueue", "fifo1", "fifo50", "deadline" };
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

static void lb_feed(const struct lb_filter *f, const struct lb_event *ev)
{
	u64 t0;

	if (!lb_filter_admit(f, ev)) {
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

	lb_filter_begin(&filter);
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
		if (++lb_pos[best] == LB_DRAIN_CHUNK) {
			lb_ring_release(lb_rings, best, LB_DRAIN_CHUNK);
			lb_avail[best] -= LB_DRAIN_CHUNK;
			lb_pos[best] = 0;
		}
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

/* A periodic or kicked drain: it leaves the newest LB_DRAIN_SLACK_NS in the rings. */
static void lb_drain_periodic(void)
{
	mutex_lock(&lb_drain_mutex);
	lb_drain_locked(ktime_get_mono_fast_ns() - LB_DRAIN_SLACK_NS, false);
	mutex_unlock(&lb_drain_mutex);
}

static void lb_drain_workfn(struct work_struct *work)
{
	lb_drain_periodic();
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
		lb_drain_periodic();
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

/* From a probe (any context): a ring is a quarter full, drain soon. */
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
	lb_filter_clear();
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

/* The ledger's options, from what is drained next (reset keeps them). */
void lb_drain_set_opts(const struct lb_ledger_opts *o)
{
	mutex_lock(&lb_drain_mutex);
	/* What was recorded so far is judged by the options in force then. */
	lb_drain_locked(ktime_get_mono_fast_ns(), false);
	lb_ledger_set_opts(lb_ledger, o);
	mutex_unlock(&lb_drain_mutex);
}

void lb_drain_opts(struct lb_ledger_opts *o)
{
	mutex_lock(&lb_drain_mutex);
	lb_ledger_opts(lb_ledger, o);
	mutex_unlock(&lb_drain_mutex);
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
	loss->filter_evicted = lb_filter_evicted();
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
		   lb_drain_where[lb_drain_task ? lb_drain_rt : 0]);
	seq_printf(m, "ledger_ns_per_event %llu\n",
		   lb_drained ? div64_u64(lb_feed_ns, lb_drained) : 0);
	seq_printf(m, "drain_ns %llu ledger_ns %llu drain_ns_per_event %llu max_batch %llu kicks %llu\n",
		   lb_drain_ns, lb_feed_ns,
		   lb_drained ? div64_u64(lb_drain_ns, lb_drained) : 0,
		   lb_drain_max_batch, (u64)atomic64_read(&lb_kicks));
	lb_filter_show(m);
	mutex_unlock(&lb_drain_mutex);
}

/*
 * The periodic drain starts after the probes are planted: while they are
 * being registered, the drain's own mutex_lock would call a function whose
 * entry is being patched (a debug-lane guest died so on multi-threaded TCG:
 * tools/qemu/int3-evidence.md, "Loaded cycles").
 */
/*
 * drain_rt=3: SCHED_DEADLINE, LB_DRAIN_DL_RUNTIME_NS of each
 * LB_DRAIN_DL_PERIOD_NS. A deadline task runs before every real-time task
 * and is not held back by RT throttling, which stops a SCHED_FIFO drain along
 * with the SCHED_FIFO tasks it records once they used 95% of a CPU; its
 * budget bounds what it takes from them. 4 ms of 10 drain about 1,100
 * events under TCG, more than twice stress-ng's lock stressors' peak rate.
 */
#define LB_DRAIN_DL_RUNTIME_NS	(4 * NSEC_PER_MSEC)
#define LB_DRAIN_DL_PERIOD_NS	(10 * NSEC_PER_MSEC)

static void lb_drain_policy(struct task_struct *t)
{
	struct sched_attr dl = {
		.size = sizeof(dl),
		.sched_policy = SCHED_DEADLINE,
		.sched_runtime = LB_DRAIN_DL_RUNTIME_NS,
		.sched_deadline = LB_DRAIN_DL_PERIOD_NS,
		.sched_period = LB_DRAIN_DL_PERIOD_NS,
	};
	int err;

	if (lb_drain_rt == 3) {
		err = sched_setattr_nocheck(t, &dl);
		if (!err)
			return;
		pr_warn("no SCHED_DEADLINE for the drain (%d): SCHED_FIFO 1\n", err);
		lb_drain_rt = 1;
	}
	if (lb_drain_rt == 1)
		sched_set_fifo_low(t);
	else
		sched_set_fifo(t);
}

void lb_drain_start(void)
{
	struct task_struct *t;

	WRITE_ONCE(lb_stopping, false);
	if (lb_drain_rt) {
		t = kthread_run(lb_drain_thread, NULL, "lockblame_drain");
		if (!IS_ERR(t)) {
			lb_drain_policy(t);
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
	struct lb_ledger_opts opts;

	lb_rings = rings;
	lb_drain_ms = cfg->drain_ms;
	lb_drain_rt = cfg->drain_rt;
	lb_avail = kcalloc(nr_cpu_ids, sizeof(*lb_avail), GFP_KERNEL);
	lb_pos = kcalloc(nr_cpu_ids, sizeof(*lb_pos), GFP_KERNEL);
	if (!lb_avail || !lb_pos)
		goto nomem;
	if (lb_filter_init(cfg->max_waiters))
		goto nomem;
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
	lb_ledger_set_namer(lb_ledger, lb_name_of);
	lb_ledger_opts(lb_ledger, &opts);
	opts.no_defer = !cfg->ledger_defer;
	lb_ledger_set_opts(lb_ledger, &opts);
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
	lb_filter_exit();
	kfree(lb_avail);
	kfree(lb_pos);
	lb_avail = NULL;
	lb_pos = NULL;
}
