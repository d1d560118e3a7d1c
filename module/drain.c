// SPDX-License-Identifier: GPL-2.0
/*
 * The drain: moves events from the per-CPU rings into the ledger, merged in
 * timestamp order, periodically and before every read. It also tees them
 * into the binary stream read through debugfs "events".
 */
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/irq_work.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <linux/timekeeping.h>
#include "lockblame.h"
#include "ledger.h"

/*
 * Periodic drains leave the newest few milliseconds in the rings: a probe on
 * another CPU may have taken its timestamp and not yet committed. Reads
 * drain everything; an event that still arrives late is clamped and counted.
 */
#define LB_DRAIN_SLACK_NS	(2 * NSEC_PER_MSEC)

static DEFINE_MUTEX(lb_drain_mutex);
static struct lb_ledger *lb_ledger;
static struct delayed_work lb_drain_work;
static unsigned int *lb_avail, *lb_pos;
static u64 lb_start_ns, lb_drained, lb_filtered, lb_drains, lb_feed_ns;
static bool lb_stopping;
static struct irq_work lb_kick_work;
static lb_drain_tap_t lb_tap;
static void *lb_tap_priv;

/* Stream FIFO: the drain writes, the reader of "events" consumes. */
static DEFINE_SPINLOCK(lb_stream_lock);
static struct lb_event *lb_stream_buf;
static unsigned int lb_stream_cap;
static u64 lb_stream_head, lb_stream_tail, lb_stream_dropped;
static atomic_t lb_stream_readers = ATOMIC_INIT(0);
static size_t lb_stream_hdr_off;	/* header bytes already read by this open */

static void lb_stream_push(const struct lb_event *ev)
{
	if (!lb_stream_cap)
		return;
	spin_lock(&lb_stream_lock);
	if (lb_stream_head - lb_stream_tail >= lb_stream_cap) {
		lb_stream_dropped++;
	} else {
		lb_stream_buf[lb_stream_head % lb_stream_cap] = *ev;
		lb_stream_head++;
	}
	spin_unlock(&lb_stream_lock);
}

u64 lb_stream_bytes(void)
{
	return (u64)lb_stream_cap * sizeof(*lb_stream_buf);
}

int lb_stream_open(void)
{
	if (!lb_stream_cap)
		return -ENODEV;
	if (atomic_cmpxchg(&lb_stream_readers, 0, 1))
		return -EBUSY;
	lb_stream_hdr_off = 0;
	return 0;
}

void lb_stream_close(void)
{
	atomic_set(&lb_stream_readers, 0);
}

/* Header first, then whole records, consumed as they are read. */
ssize_t lb_stream_read(char __user *buf, size_t len)
{
	struct lb_stream_header hdr = {
		.magic = LB_STREAM_MAGIC,
		.abi_version = LB_ABI_VERSION,
		.header_size = sizeof(hdr),
		.record_size = sizeof(struct lb_event),
		.nr_cpus = num_possible_cpus(),
		.start_ns = lb_start_ns,
	};
	struct lb_event ev;
	size_t done = 0;

	lb_drain_now();
	if (lb_stream_hdr_off < sizeof(hdr)) {
		size_t n = min(len, sizeof(hdr) - lb_stream_hdr_off);

		if (copy_to_user(buf, (char *)&hdr + lb_stream_hdr_off, n))
			return -EFAULT;
		lb_stream_hdr_off += n;
		done += n;
	}
	while (len - done >= sizeof(ev)) {
		spin_lock(&lb_stream_lock);
		if (lb_stream_tail == lb_stream_head) {
			spin_unlock(&lb_stream_lock);
			break;
		}
		ev = lb_stream_buf[lb_stream_tail % lb_stream_cap];
		lb_stream_tail++;
		spin_unlock(&lb_stream_lock);
		if (copy_to_user(buf + done, &ev, sizeof(ev)))
			return done ? done : -EFAULT;
		done += sizeof(ev);
	}
	return done;
}

static void lb_feed(const struct lb_filter *f, const struct lb_event *ev)
{
	u64 t0;

	if (!lb_filter_match(f, ev)) {
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
	struct lb_filter filter;
	int cpu, best;
	u64 best_ts;

	lb_filter_get(&filter);
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
	}
	for_each_possible_cpu(cpu)
		lb_ring_consume(lb_rings, cpu, lb_pos[cpu]);
	lb_drains++;
}

void lb_drain_now(void)
{
	mutex_lock(&lb_drain_mutex);
	lb_drain_locked(ktime_get_mono_fast_ns(), false);
	mutex_unlock(&lb_drain_mutex);
}
EXPORT_SYMBOL_GPL(lb_drain_now);

void lb_drain_set_tap(lb_drain_tap_t tap, void *priv)
{
	mutex_lock(&lb_drain_mutex);
	lb_tap = tap;
	lb_tap_priv = priv;
	mutex_unlock(&lb_drain_mutex);
}
EXPORT_SYMBOL_GPL(lb_drain_set_tap);

static void lb_drain_workfn(struct work_struct *work)
{
	mutex_lock(&lb_drain_mutex);
	lb_drain_locked(ktime_get_mono_fast_ns() - LB_DRAIN_SLACK_NS, false);
	mutex_unlock(&lb_drain_mutex);
	if (!READ_ONCE(lb_stopping))
		schedule_delayed_work(&lb_drain_work, msecs_to_jiffies(lb_drain_ms));
}

static void lb_kick_workfn(struct irq_work *work)
{
	if (!READ_ONCE(lb_stopping))
		mod_delayed_work(system_wq, &lb_drain_work, 0);
}

/* From a probe (any context): a ring is half full, drain soon. */
void __kprobes lb_drain_kick(void)
{
	irq_work_queue(&lb_kick_work);
}

/* Readers hold the drain lock while they format the ledger. */
void lb_drain_lock(void)
{
	mutex_lock(&lb_drain_mutex);
	lb_drain_locked(ktime_get_mono_fast_ns(), false);
	lb_ledger_advance(lb_ledger, ktime_get_mono_fast_ns());
}
EXPORT_SYMBOL_GPL(lb_drain_lock);

void lb_drain_unlock(void)
{
	mutex_unlock(&lb_drain_mutex);
}
EXPORT_SYMBOL_GPL(lb_drain_unlock);

struct lb_ledger *lb_drain_ledger(void)
{
	return lb_ledger;
}
EXPORT_SYMBOL_GPL(lb_drain_ledger);

u64 lb_drain_start_ns(void)
{
	return lb_start_ns;
}

/* Forget everything recorded so far; events already in the rings included. */
void lb_drain_reset(void)
{
	mutex_lock(&lb_drain_mutex);
	lb_drain_locked(ktime_get_mono_fast_ns(), true);
	lb_ledger_reset(lb_ledger);
	spin_lock(&lb_stream_lock);
	lb_stream_tail = lb_stream_head;
	spin_unlock(&lb_stream_lock);
	lb_drained = 0;
	lb_filtered = 0;
	lb_feed_ns = 0;
	lb_start_ns = ktime_get_mono_fast_ns();
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

void lb_drain_show(struct seq_file *m)
{
	mutex_lock(&lb_drain_mutex);
	seq_printf(m, "drained %llu filtered %llu drains %llu interval_ms %u\n",
		   lb_drained, lb_filtered, lb_drains, lb_drain_ms);
	seq_printf(m, "ledger_ns_per_event %llu\n",
		   lb_drained ? div64_u64(lb_feed_ns, lb_drained) : 0);
	spin_lock(&lb_stream_lock);
	seq_printf(m, "stream capacity %u buffered %llu dropped %llu\n", lb_stream_cap,
		   lb_stream_head - lb_stream_tail, lb_stream_dropped);
	spin_unlock(&lb_stream_lock);
	mutex_unlock(&lb_drain_mutex);
}

int lb_drain_init(const struct lb_ledger_limits *limits, unsigned int stream_events)
{
	lb_avail = kcalloc(nr_cpu_ids, sizeof(*lb_avail), GFP_KERNEL);
	lb_pos = kcalloc(nr_cpu_ids, sizeof(*lb_pos), GFP_KERNEL);
	if (!lb_avail || !lb_pos)
		goto nomem;
	if (stream_events) {
		lb_stream_buf = vmalloc(array_size(stream_events, sizeof(*lb_stream_buf)));
		if (!lb_stream_buf)
			goto nomem;
		lb_stream_cap = stream_events;
	}
	lb_ledger = lb_ledger_create(limits);
	if (!lb_ledger)
		goto nomem;
	lb_start_ns = ktime_get_mono_fast_ns();
	lb_stopping = false;
	INIT_DELAYED_WORK(&lb_drain_work, lb_drain_workfn);
	init_irq_work(&lb_kick_work, lb_kick_workfn);
	schedule_delayed_work(&lb_drain_work, msecs_to_jiffies(lb_drain_ms));
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
		cancel_delayed_work_sync(&lb_drain_work);
		lb_ledger_destroy(lb_ledger);
		lb_ledger = NULL;
	}
	vfree(lb_stream_buf);
	lb_stream_buf = NULL;
	lb_stream_cap = 0;
	kfree(lb_avail);
	kfree(lb_pos);
	lb_avail = NULL;
	lb_pos = NULL;
}
