// SPDX-License-Identifier: GPL-2.0
/*
 * Where the drain runs, and when. By default (drain_rt=1 or 2) on a
 * real-time kernel thread per CPU ("lockblame/N", smpboot: parked while its
 * CPU is offline), woken by its own CPU's kick: a probe that finds its ring
 * a quarter full queues an irq_work on that CPU. The CPU that fills a ring
 * is running, so its drainer can run; a single drain thread could sit on
 * another CPU that is not (a vCPU its host has descheduled: under TCG, with
 * the host loaded, a ring of 1,024 events filled while the one drain thread
 * waited, max_batch 2,048 of 2,048). A periodic work item wakes the drainer
 * of the CPU it runs on every drain_ms. drain_rt=0 drains in that work item
 * itself, on a high-priority workqueue.
 *
 * A per-CPU drainer is still a SCHED_FIFO task, and real-time tasks above
 * it (stress-ng's mutex stressor runs threads at random SCHED_FIFO
 * priorities) keep it off its CPU: under stress-ng's lock stressors a
 * drainer's kick-to-run latency reached 50 to 60 ms, and every dropped event
 * was dropped while a real-time task was current (476 to 2,209 drops per
 * 20 s run). So with the drainers runs a rescuer, "lockblame/any" (any
 * CPU; before 5.17 a kthread's comm is cut at 15 characters), at
 * SCHED_DEADLINE (3 ms every 10 ms): a ring half full wakes it, and a
 * deadline task runs before any SCHED_FIFO one. SCHED_DEADLINE cannot be
 * bound to one CPU, so there is one rescuer, unbound; its budget caps what
 * the rescue costs, 30% of a CPU. The drain lock is an rt_mutex, so a
 * rescuer that finds a preempted drainer holding it lends it its priority.
 * Four runs of the same load then dropped none. Where SCHED_DEADLINE
 * is refused, the rescuer runs at SCHED_FIFO 50 and stats says so.
 */
#include <linux/cpu.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/smpboot.h>
#include <linux/workqueue.h>
#include "lockblame.h"

/*
 * A workqueue is CFS, and SCHED_FIFO tasks (stress-ng's mutex stressor runs
 * its threads so) leave CFS only what RT throttling keeps back, 5% of each
 * CPU: under stress-ng's lock stressors the workqueue recorded 9,262
 * events/s and dropped 85%, a SCHED_FIFO 1 thread 53,710/s and 3.6% (make
 * bench's capacity table). drain_rt=1: SCHED_FIFO 1, below every other
 * real-time task; 2: SCHED_FIFO 50.
 */
static unsigned int lb_drain_rt, lb_drain_ms;
static bool lb_threads_on;
static struct workqueue_struct *lb_drain_wq;
static struct delayed_work lb_period_work;
static DEFINE_PER_CPU(struct task_struct *, lb_drainer);
static DEFINE_PER_CPU(bool, lb_drainer_kicked);
static DEFINE_PER_CPU(struct irq_work, lb_kick_work);
static atomic64_t lb_kicks = ATOMIC64_INIT(0);
static bool lb_stopping = true;
static struct kthread_worker *lb_rescuer;
static struct kthread_work lb_rescue;
static DEFINE_PER_CPU(struct irq_work, lb_rescue_work);
static atomic64_t lb_rescues = ATOMIC64_INIT(0);
static const char *lb_rescuer_policy = "none";
/*
 * How late the drain came, since load: from a CPU's first kick to its
 * drainer's run (each CPU's longest, written by its drainer alone), and
 * from the first call for the rescuer to its run (written by the rescuer).
 * A ring of 1,024 slots a quarter full has 768 left: at stress-ng's 40,000
 * events a second on a CPU, 19 ms.
 */
static DEFINE_PER_CPU(u64, lb_kick_ns);
static DEFINE_PER_CPU(u64, lb_kick_wait_max);
static atomic64_t lb_rescue_asked_ns = ATOMIC64_INIT(0);
static u64 lb_rescue_wait_max, lb_rescue_run_max;

#define LB_RESCUE_RUNTIME_NS	(3 * NSEC_PER_MSEC)
#define LB_RESCUE_PERIOD_NS	(10 * NSEC_PER_MSEC)

static int lb_drainer_should_run(unsigned int cpu)
{
	return READ_ONCE(per_cpu(lb_drainer_kicked, cpu));
}

static void lb_drainer_fn(unsigned int cpu)
{
	u64 kicked = this_cpu_xchg(lb_kick_ns, 0);

	if (kicked)
		this_cpu_write(lb_kick_wait_max, max(this_cpu_read(lb_kick_wait_max),
						     ktime_get_mono_fast_ns() - kicked));
	WRITE_ONCE(per_cpu(lb_drainer_kicked, cpu), false);
	lb_drain_periodic();
}

static void lb_drainer_setup(unsigned int cpu)
{
	if (lb_drain_rt == 1)
		sched_set_fifo_low(current);
	else
		sched_set_fifo(current);
}

static struct smp_hotplug_thread lb_drainers = {
	.store = &lb_drainer,
	.thread_should_run = lb_drainer_should_run,
	.thread_fn = lb_drainer_fn,
	.setup = lb_drainer_setup,
	.thread_comm = "lockblame/%u",
};

/* This CPU's drainer, from irq_work or with preemption off. */
static void lb_drainer_wake(void)
{
	struct task_struct *t = __this_cpu_read(lb_drainer);

	__this_cpu_write(lb_drainer_kicked, true);
	if (t)
		wake_up_process(t);
}

static void lb_kick_workfn(struct irq_work *work)
{
	if (READ_ONCE(lb_stopping))
		return;
	if (READ_ONCE(lb_threads_on)) {
		lb_drainer_wake();
		return;
	}
	mod_delayed_work(lb_drain_wq, &lb_period_work, 0);
}

static void lb_rescue_workfn(struct irq_work *work)
{
	struct kthread_worker *w = READ_ONCE(lb_rescuer);

	if (!READ_ONCE(lb_stopping) && w)
		kthread_queue_work(w, &lb_rescue);
}

/*
 * From a probe (any context): this CPU's ring is a quarter full, drain soon;
 * @urgent, half full: its drainer has not come, wake the rescuer.
 */
void __kprobes lb_drain_kick(bool urgent)
{
	if (urgent) {
		atomic64_cmpxchg(&lb_rescue_asked_ns, 0, ktime_get_mono_fast_ns());
		if (READ_ONCE(lb_rescuer) && irq_work_queue(this_cpu_ptr(&lb_rescue_work)))
			atomic64_inc(&lb_rescues);
		return;
	}
	if (!__this_cpu_read(lb_kick_ns))
		__this_cpu_write(lb_kick_ns, ktime_get_mono_fast_ns());
	if (irq_work_queue(this_cpu_ptr(&lb_kick_work)))
		atomic64_inc(&lb_kicks);
}

/* A kthread worker: queueing work already queued is a no-op, as for irq_work. */
static void lb_rescue_fn(struct kthread_work *work)
{
	u64 asked = atomic64_xchg(&lb_rescue_asked_ns, 0);
	u64 t0 = ktime_get_mono_fast_ns();

	if (asked)
		WRITE_ONCE(lb_rescue_wait_max, max(lb_rescue_wait_max, t0 - asked));
	lb_drain_periodic();
	WRITE_ONCE(lb_rescue_run_max, max(lb_rescue_run_max, ktime_get_mono_fast_ns() - t0));
}

static void lb_rescuer_start(void)
{
	struct kthread_worker *w;
	int err;

	w = kthread_create_worker(0, "lockblame/any");
	if (IS_ERR(w)) {
		pr_warn("no rescue drainer (%ld)\n", PTR_ERR(w));
		return;
	}
	err = lb_sched_deadline(w->task, LB_RESCUE_RUNTIME_NS, LB_RESCUE_PERIOD_NS);
	if (err) {
		pr_warn("rescue drainer: no SCHED_DEADLINE (%d): SCHED_FIFO 50\n", err);
		sched_set_fifo(w->task);
		lb_rescuer_policy = "fifo50";
	} else {
		lb_rescuer_policy = "deadline";
	}
	WRITE_ONCE(lb_rescuer, w);
}

static void lb_period_workfn(struct work_struct *work)
{
	if (READ_ONCE(lb_threads_on)) {
		preempt_disable();
		lb_drainer_wake();
		preempt_enable();
	} else {
		lb_drain_periodic();
	}
	if (!READ_ONCE(lb_stopping))
		queue_delayed_work(lb_drain_wq, &lb_period_work, msecs_to_jiffies(lb_drain_ms));
}

int lb_drain_threads_init(const struct lb_config *cfg)
{
	int cpu;

	lb_drain_rt = cfg->drain_rt;
	lb_drain_ms = cfg->drain_ms;
	for_each_possible_cpu(cpu) {
		init_irq_work(per_cpu_ptr(&lb_kick_work, cpu), lb_kick_workfn);
		init_irq_work(per_cpu_ptr(&lb_rescue_work, cpu), lb_rescue_workfn);
	}
	kthread_init_work(&lb_rescue, lb_rescue_fn);
	INIT_DELAYED_WORK(&lb_period_work, lb_period_workfn);
	/*
	 * Unbound: the periodic work needs no CPU of its own; 7.x also warns
	 * about a workqueue that names neither WQ_UNBOUND nor WQ_PERCPU (a
	 * panic under panic_on_warn).
	 */
	lb_drain_wq = alloc_workqueue("lockblame_drain", WQ_UNBOUND | WQ_HIGHPRI, 0);
	return lb_drain_wq ? 0 : -ENOMEM;
}

/*
 * After the probes are planted: while they are being registered, the
 * drain's own mutex_lock would call a function whose entry is being patched
 * (a debug-lane guest died so on multi-threaded TCG:
 * tools/qemu/int3-evidence.md, "Loaded cycles").
 */
void lb_drain_start(void)
{
	int err;

	WRITE_ONCE(lb_stopping, false);
	if (lb_drain_rt) {
		err = smpboot_register_percpu_thread(&lb_drainers);
		if (!err) {
			WRITE_ONCE(lb_threads_on, true);
			lb_rescuer_start();
		} else {
			pr_warn("no drain threads (%d): draining in the workqueue\n", err);
		}
	}
	queue_delayed_work(lb_drain_wq, &lb_period_work, msecs_to_jiffies(lb_drain_ms));
}
EXPORT_SYMBOL_IF_KUNIT(lb_drain_start);

/*
 * Park the online CPUs' drainers (an offline CPU's is parked already) before
 * they are stopped: 5.10's kthread_stop() binds a per-CPU thread as a parked
 * one without parking it first, and warns (a panic under panic_on_warn) when
 * it is not; later kernels skip that for a thread that is not parked. A CPU
 * coming online between this and the unregister is not covered on 5.10.
 */
static void lb_drainers_park(void)
{
	struct task_struct *t;
	int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		t = per_cpu(lb_drainer, cpu);
		if (t)
			kthread_park(t);
	}
	cpus_read_unlock();
}

/* After the probes are gone: nothing kicks any more. */
void lb_drain_threads_exit(void)
{
	int cpu;

	WRITE_ONCE(lb_stopping, true);
	for_each_possible_cpu(cpu) {
		irq_work_sync(per_cpu_ptr(&lb_kick_work, cpu));
		irq_work_sync(per_cpu_ptr(&lb_rescue_work, cpu));
	}
	if (lb_rescuer) {
		kthread_destroy_worker(lb_rescuer);
		WRITE_ONCE(lb_rescuer, NULL);
		lb_rescuer_policy = "none";
	}
	if (lb_drain_wq)
		cancel_delayed_work_sync(&lb_period_work);
	if (lb_threads_on) {
		lb_drainers_park();
		smpboot_unregister_percpu_thread(&lb_drainers);
	}
	lb_threads_on = false;
	if (lb_drain_wq)
		destroy_workqueue(lb_drain_wq);
	lb_drain_wq = NULL;
}

/* For stats: where the drain runs ("fifo1": a drainer per CPU), and its kicks. */
const char *lb_drain_where(void)
{
	static const char *const where[] = { "workqueue", "fifo1", "fifo50" };

	return where[lb_threads_on ? lb_drain_rt : 0];
}

/* For stats: how the rescuer runs ("none" without drainers), and its wakeups. */
const char *lb_drain_rescuer(void)
{
	return lb_rescuer_policy;
}

u64 lb_drain_rescues(void)
{
	return atomic64_read(&lb_rescues);
}

u64 lb_drain_kicks(void)
{
	return atomic64_read(&lb_kicks);
}

/* For stats: the longest waits for a drainer and for the rescuer, and a rescue's run. */
void lb_drain_waits(u64 *kick_wait, u64 *rescue_wait, u64 *rescue_run)
{
	u64 longest = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		longest = max(longest, READ_ONCE(per_cpu(lb_kick_wait_max, cpu)));
	*kick_wait = longest;
	*rescue_wait = READ_ONCE(lb_rescue_wait_max);
	*rescue_run = READ_ONCE(lb_rescue_run_max);
}
