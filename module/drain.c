// SPDX-License-Identifier: GPL-2.0
/*
 * The drain: moves events from the per-CPU rings into the ledger, merged in
 * timestamp order, periodically and before every read. Its filter
 * (drain_filter.c) decides which waits the ledger sees; what it feeds the
 * ledger it also tees into the binary stream (stream.c).
 */
#include <linux/slab.h>
#include <linux/rtmutex.h>
#include <linux/spinlock.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/timekeeping.h>
#include <linux/hash.h>
#include <linux/log2.h>
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

static DEFINE_RT_MUTEX(lb_drain_mutex);
static struct lb_ringset *lb_rings;
static struct lb_ledger *lb_ledger;
static unsigned int *lb_avail, *lb_pos;
static u64 lb_start_ns, lb_drained, lb_filtered, lb_drains, lb_feed_ns;
/* Where the drain's time goes: all of it, and its largest batch. */
static u64 lb_drain_ns, lb_drain_max_batch;
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
	const struct lb_event *ev, *best_ev;
	struct lb_filter filter;
	int cpu, best;

	lb_filter_begin(&filter);
	for_each_possible_cpu(cpu) {
		lb_avail[cpu] = lb_ring_avail(lb_rings, cpu);
		lb_pos[cpu] = 0;
	}
	for (;;) {
		best = -1;
		best_ev = NULL;
		for_each_possible_cpu(cpu) {
			ev = lb_ring_next(lb_rings, cpu, &lb_pos[cpu], lb_avail[cpu]);
			if (!ev || ev->ts_ns > cutoff)
				continue;
			if (!best_ev || ev->ts_ns < best_ev->ts_ns) {
				best = cpu;
				best_ev = ev;
			}
		}
		if (!best_ev)
			break;
		if (!discard)
			lb_feed(&filter, best_ev);
		/* Past the event, and past the identities read before it. */
		if (++lb_pos[best] >= LB_DRAIN_CHUNK) {
			lb_ring_release(lb_rings, best, lb_pos[best]);
			lb_avail[best] -= lb_pos[best];
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
	rt_mutex_lock(&lb_drain_mutex);
	lb_drain_locked(ktime_get_mono_fast_ns(), false);
	rt_mutex_unlock(&lb_drain_mutex);
}
EXPORT_SYMBOL_IF_KUNIT(lb_drain_now);

void lb_drain_set_tap(lb_drain_tap_t tap, void *priv)
{
	rt_mutex_lock(&lb_drain_mutex);
	lb_tap = tap;
	lb_tap_priv = priv;
	rt_mutex_unlock(&lb_drain_mutex);
}
EXPORT_SYMBOL_IF_KUNIT(lb_drain_set_tap);

/* A periodic or kicked drain: it leaves the newest LB_DRAIN_SLACK_NS in the rings. */
void lb_drain_periodic(void)
{
	rt_mutex_lock(&lb_drain_mutex);
	lb_drain_locked(ktime_get_mono_fast_ns() - LB_DRAIN_SLACK_NS, false);
	rt_mutex_unlock(&lb_drain_mutex);
}

/* Readers hold the drain lock while they format the ledger. */
void lb_drain_lock(void)
{
	rt_mutex_lock(&lb_drain_mutex);
	lb_drain_locked(ktime_get_mono_fast_ns(), false);
	lb_ledger_advance(lb_ledger, ktime_get_mono_fast_ns());
}
EXPORT_SYMBOL_IF_KUNIT(lb_drain_lock);

void lb_drain_unlock(void)
{
	rt_mutex_unlock(&lb_drain_mutex);
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
 * Forget everything recorded so far: events already in the rings, the
 * stored stacks (no event that names one survives the discard), and what was
 * lost (the report's data line and the rings' counts are the window's).
 */
void lb_drain_reset(void)
{
	lb_stacks_freeze();
	rt_mutex_lock(&lb_drain_mutex);
	lb_drain_locked(ktime_get_mono_fast_ns(), true);
	lb_ledger_reset(lb_ledger);
	lb_filter_clear();
	/* What was lost before is not the new window's: its counts start here. */
	lb_rings_mark(lb_rings);
	lb_probes_mark();
	lb_filter_evicted_clear();
	lb_drop_locks_clear();
	lb_drained = 0;
	lb_filtered = 0;
	lb_feed_ns = 0;
	lb_drain_ns = 0;
	lb_drain_max_batch = 0;
	lb_start_ns = ktime_get_mono_fast_ns();
	lb_stream_discard(lb_start_ns);
	lb_stacks_clear_thaw();
	rt_mutex_unlock(&lb_drain_mutex);
}

/* The ledger's options, from what is drained next (reset keeps them). */
void lb_drain_set_opts(const struct lb_ledger_opts *o)
{
	rt_mutex_lock(&lb_drain_mutex);
	/* What was recorded so far is judged by the options in force then. */
	lb_drain_locked(ktime_get_mono_fast_ns(), false);
	lb_ledger_set_opts(lb_ledger, o);
	rt_mutex_unlock(&lb_drain_mutex);
}

void lb_drain_opts(struct lb_ledger_opts *o)
{
	rt_mutex_lock(&lb_drain_mutex);
	lb_ledger_opts(lb_ledger, o);
	rt_mutex_unlock(&lb_drain_mutex);
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
	u64 kick_wait, rescue_wait, rescue_run;

	rt_mutex_lock(&lb_drain_mutex);
	seq_printf(m, "drained %llu filtered %llu drains %llu interval_ms %u in %s\n",
		   lb_drained, lb_filtered, lb_drains, lb_config()->drain_ms, lb_drain_where());
	seq_printf(m, "ledger_ns_per_event %llu\n",
		   lb_drained ? div64_u64(lb_feed_ns, lb_drained) : 0);
	seq_printf(m, "drain_ns %llu ledger_ns %llu drain_ns_per_event %llu max_batch %llu kicks %llu rescues %llu rescuer %s\n",
		   lb_drain_ns, lb_feed_ns,
		   lb_drained ? div64_u64(lb_drain_ns, lb_drained) : 0,
		   lb_drain_max_batch, lb_drain_kicks(), lb_drain_rescues(), lb_drain_rescuer());
	lb_drain_waits(&kick_wait, &rescue_wait, &rescue_run);
	seq_printf(m, "drain_waits kick_to_drainer_max_us %llu rescue_wait_max_us %llu rescue_run_max_us %llu\n",
		   div_u64(kick_wait, NSEC_PER_USEC), div_u64(rescue_wait, NSEC_PER_USEC),
		   div_u64(rescue_run, NSEC_PER_USEC));
	lb_filter_show(m);
	rt_mutex_unlock(&lb_drain_mutex);
}

int lb_drain_init(struct lb_ringset *rings, const struct lb_config *cfg)
{
	struct lb_ledger_limits limits;
	struct lb_ledger_opts opts;

	lb_rings = rings;
	lb_avail = kcalloc(nr_cpu_ids, sizeof(*lb_avail), GFP_KERNEL);
	lb_pos = kcalloc(nr_cpu_ids, sizeof(*lb_pos), GFP_KERNEL);
	if (!lb_avail || !lb_pos)
		goto nomem;
	if (lb_filter_init(cfg->max_waiters))
		goto nomem;
	if (lb_drain_threads_init(cfg))
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
	return 0;
nomem:
	lb_drain_exit();
	return -ENOMEM;
}

/* Call after the probes are gone: nothing writes the rings any more. */
void lb_drain_exit(void)
{
	lb_drain_threads_exit();
	lb_ledger_destroy(lb_ledger);
	lb_ledger = NULL;
	lb_filter_exit();
	kfree(lb_avail);
	kfree(lb_pos);
	lb_avail = NULL;
	lb_pos = NULL;
}
