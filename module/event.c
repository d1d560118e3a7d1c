// SPDX-License-Identifier: GPL-2.0
/*
 * Building one event: the timestamp, the identities of the task and of the
 * lock owner copied at this moment, and keyed lock ids that never expose a
 * kernel address. Runs in probe context: no allocation, no sleeping.
 */
#include <linux/sched.h>
#include <linux/siphash.h>
#include <linux/random.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/timekeeping.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include "lockblame.h"
#include "compat.h"

static siphash_key_t lb_hash_key;
/* The rings the probes write; the drain reads them. */
static struct lb_ringset *lb_rings;
/* Whether probes record at all, and with stacks: "control" switches them. */
static bool lb_recording = true;
static bool lb_stacks_on;

void lb_event_init(struct lb_ringset *rings, bool stacks)
{
	get_random_bytes(&lb_hash_key, sizeof(lb_hash_key));
	lb_rings = rings;
	WRITE_ONCE(lb_stacks_on, stacks);
	WRITE_ONCE(lb_recording, true);
}

bool __kprobes lb_enabled(void)
{
	return READ_ONCE(lb_recording);
}

void lb_set_enabled(bool on)
{
	WRITE_ONCE(lb_recording, on);
}

bool lb_stacks_wanted(void)
{
	return READ_ONCE(lb_stacks_on);
}

void lb_set_stacks(bool on)
{
	WRITE_ONCE(lb_stacks_on, on);
}

/* From a probe: an event that could not be recorded, counted by @cause. */
void __kprobes lb_event_drop(enum lb_drop_cause cause)
{
	lb_ring_drop(lb_rings, cause);
}

/* Lock identity of a kernel lock: a keyed hash of its address. */
u64 __kprobes lb_lock_id(const void *lock)
{
	return siphash_1u64((u64)(unsigned long)lock, &lb_hash_key) | 1;
}
EXPORT_SYMBOL_IF_KUNIT(lb_lock_id);

/* Lock identity of a futex key (ptr, word, offset). */
u64 __kprobes lb_lock_id3(u64 a, u64 b, u64 c)
{
	return siphash_3u64(a, b, c, &lb_hash_key) | 1;
}

void __kprobes lb_task_id_fill(struct lb_task_id *id, struct task_struct *t)
{
	id->pid = t->pid;
	id->tgid = t->tgid;
	/* comm may change under us: a torn name is still NUL-terminated. */
	memcpy(id->comm, t->comm, LB_COMM_LEN);
	id->comm[LB_COMM_LEN - 1] = '\0';
	memcpy(id->pcomm, t->group_leader->comm, LB_COMM_LEN);
	id->pcomm[LB_COMM_LEN - 1] = '\0';
	id->cgroup = lb_cgroup_id(t);
}
EXPORT_SYMBOL_IF_KUNIT(lb_task_id_fill);

/*
 * Copy the identity of a lock owner read from a lock word. Probe handlers
 * run with preemption off, an RCU read-side section, and the owner word only
 * names a task while it holds the lock (the kernel's own optimistic spinning
 * relies on the same). The nofault copies also survive a pointer that a
 * wrong argument register would produce.
 */
bool __kprobes lb_owner_fill(struct lb_event *ev, struct task_struct *owner, u8 source)
{
	struct lb_task_id *id = &ev->owner;
	struct task_struct *leader;
	unsigned int flags;
	u64 sum, start;

	if (!owner)
		return false;
	if (copy_from_kernel_nofault(&id->pid, &owner->pid, sizeof(id->pid)) ||
	    copy_from_kernel_nofault(&id->tgid, &owner->tgid, sizeof(id->tgid)) ||
	    copy_from_kernel_nofault(id->comm, owner->comm, LB_COMM_LEN) ||
	    copy_from_kernel_nofault(&leader, &owner->group_leader, sizeof(leader)) ||
	    copy_from_kernel_nofault(id->pcomm, leader->comm, LB_COMM_LEN) ||
	    copy_from_kernel_nofault(&flags, &owner->flags, sizeof(flags)) ||
	    copy_from_kernel_nofault(&sum, &owner->se.sum_exec_runtime, sizeof(sum)) ||
	    copy_from_kernel_nofault(&start, &owner->se.exec_start, sizeof(start)) ||
	    id->pid <= 0) {
		memset(id, 0, sizeof(*id));
		ev->owner_cpu_ns = 0;
		ev->owner_run_delay_ns = 0;
		return false;
	}
	id->comm[LB_COMM_LEN - 1] = '\0';
	id->pcomm[LB_COMM_LEN - 1] = '\0';
	id->cgroup = lb_cgroup_id_nofault(owner);
	ev->owner_cpu_ns = lb_cpu_ns(sum, start, lb_task_running_nofault(owner));
	ev->owner_run_delay_ns = 0;
	if (lb_run_delay_nofault(owner, &ev->owner_run_delay_ns))
		ev->flags |= LB_EF_OWNER_RUN_DELAY;
	if (flags & PF_KTHREAD)
		ev->flags |= LB_EF_OWNER_KTHREAD;
	ev->owner_source = source;
	return true;
}

/*
 * lockblame's own locks (the drain's mutex, which its readers hold while they
 * format a report) are not traced: the observer's contention is not the
 * program's, and a lock the drain holds must not feed the drain.
 */
bool __kprobes lb_own_lock(const void *lock)
{
	return within_module((unsigned long)lock, THIS_MODULE);
}

/*
 * The locks whose events were dropped (a full ring, or a probe inside a
 * probe), LB_DROP_LOCKS per CPU, the most dropped kept: the report's header
 * names them. Probe handlers run with preemption off; a probe interrupting
 * another on this CPU may tear an entry, and a count then errs by one.
 */
#define LB_DROP_LOCKS	4
struct lb_drop_lock {
	u64 lock;
	u64 count;
	u8 lock_class;
};

static DEFINE_PER_CPU(struct lb_drop_lock[LB_DROP_LOCKS], lb_drop_locks);

static void __kprobes lb_drop_note(u64 lock, u8 lock_class)
{
	struct lb_drop_lock *d = get_cpu_ptr(lb_drop_locks), *least = &d[0];
	unsigned int i;

	for (i = 0; i < LB_DROP_LOCKS; i++) {
		if (d[i].lock == lock) {
			d[i].count++;
			goto out;
		}
		if (d[i].count < least->count)
			least = &d[i];
	}
	least->lock = lock;
	least->lock_class = lock_class;
	least->count = 1;
out:
	put_cpu_ptr(lb_drop_locks);
}

/* Merge @d into @acc (@n used of @cap): a full @acc keeps the larger counts. */
static unsigned int lb_drop_merge(struct lb_drop_lock *acc, unsigned int n, unsigned int cap,
				  const struct lb_drop_lock *d)
{
	unsigned int j, least = 0;

	for (j = 0; j < n; j++) {
		if (acc[j].lock == d->lock) {
			acc[j].count += d->count;
			return n;
		}
		if (acc[j].count < acc[least].count)
			least = j;
	}
	if (n < cap)
		acc[n++] = *d;
	else if (acc[least].count < d->count)
		acc[least] = *d;
	return n;
}

/*
 * A new window (the drain's reset) names its own. A drop racing this on
 * another CPU may leave its entry torn, as a nested probe may (above).
 */
void lb_drop_locks_clear(void)
{
	unsigned int i;
	int cpu;

	for_each_possible_cpu(cpu)
		for (i = 0; i < LB_DROP_LOCKS; i++)
			WRITE_ONCE(per_cpu(lb_drop_locks, cpu)[i].count, 0);
}

/* The header's line: the locks dropped events were about, most first. */
void lb_drop_locks_show(struct seq_file *m)
{
	struct lb_drop_lock acc[4 * LB_DROP_LOCKS];
	unsigned int i, n = 0, best, shown;
	int cpu;

	for_each_possible_cpu(cpu)
		for (i = 0; i < LB_DROP_LOCKS; i++)
			if (per_cpu(lb_drop_locks, cpu)[i].count)
				n = lb_drop_merge(acc, n, ARRAY_SIZE(acc),
						  &per_cpu(lb_drop_locks, cpu)[i]);
	for (shown = 0; shown < LB_DROP_LOCKS && n; shown++) {
		for (best = 0, i = 1; i < n; i++)
			if (acc[i].count > acc[best].count)
				best = i;
		if (!acc[best].count)
			break;
		seq_printf(m, "%s %016llx (%s) %llu", shown ? "," : "data: events lost on locks",
			   acc[best].lock, lb_lock_class_name(acc[best].lock_class),
			   acc[best].count);
		acc[best].count = 0;
	}
	if (shown)
		seq_puts(m, ": their figures are partial\n");
}

/*
 * Start an event for the current task. NULL means the event was dropped
 * (and counted). A non-NULL event (the CPU's draft, until it is committed)
 * must be passed to lb_event_commit().
 */
struct lb_event *__kprobes lb_event_begin(u8 type, u8 lock_class, u64 lock)
{
	struct lb_event *ev = lb_ring_reserve(lb_rings);

	if (!ev) {
		/* A futex wait's end names no lock (0): only the totals count it. */
		if (lock)
			lb_drop_note(lock, lock_class);
		return NULL;
	}
	/* Taken inside the ring's guard: each CPU's ring is in time order. */
	ev->ts_ns = ktime_get_mono_fast_ns();
	ev->lock = lock;
	ev->cpu_ns = lb_task_cpu_ns(current);
	ev->owner_cpu_ns = 0;
	ev->run_delay_ns = 0;
	ev->owner_run_delay_ns = 0;
	ev->type = type;
	ev->lock_class = lock_class;
	ev->result = 0;
	ev->owner_source = LB_OWNER_NONE;
	ev->flags = (current->flags & PF_KTHREAD) ? LB_EF_KTHREAD : 0;
	if (lb_run_delay_current(&ev->run_delay_ns))
		ev->flags |= LB_EF_RUN_DELAY;
	ev->cpu = smp_processor_id();
	ev->count = 0;
	ev->stack_id = 0;
	ev->ustack_id = 0;
	ev->word = 0;
	ev->uaddr = 0;
	ev->name_id = 0;
	ev->reserved = 0;
	lb_task_id_fill(&ev->task, current);
	memset(&ev->owner, 0, sizeof(ev->owner));
	return ev;
}

/* The probed function's address: kernel stacks are cut to start there. */
static unsigned long __kprobes lb_probe_addr(const struct lb_probe *p)
{
	return (unsigned long)(p->kind == LB_KPROBE ? p->kp.addr : p->krp.kp.addr);
}

/* Stacks at probe @p, if stacks are on: kernel, and user for @user. */
void __kprobes lb_event_stacks(struct lb_probe *p, bool user, u32 *kstack, u32 *ustack)
{
	*kstack = 0;
	*ustack = 0;
	if (!READ_ONCE(lb_stacks_on))
		return;
	*kstack = lb_stack_kernel(lb_probe_addr(p));
	if (user)
		*ustack = lb_stack_user(p);
}

/*
 * Publish an event. @p is the probe whose entry is running, for the stacks
 * at this point; NULL when the stacks were taken before (or are not wanted).
 */
void __kprobes lb_event_commit(struct lb_event *ev, struct lb_probe *p)
{
	/* @ev is the CPU's draft: once committed, the next probe's. */
	u64 lock = ev->lock;
	u8 lock_class = ev->lock_class;

	if (p)
		lb_event_stacks(p, lock_class == LB_LOCK_FUTEX || lock_class == LB_LOCK_FUTEX_PI,
				&ev->stack_id, &ev->ustack_id);
	if (!lb_ring_commit(lb_rings, ev) && lock)
		lb_drop_note(lock, lock_class);
}
