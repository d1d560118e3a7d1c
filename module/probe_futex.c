// SPDX-License-Identifier: GPL-2.0
/*
 * Probes on futexes. get_futex_key() returns the kernel's key for the futex
 * a task is operating on; it is kept in a small per-task slot until the same
 * task sleeps (futex_wait_queue: wait begins and ends there), finds the value
 * changed (futex_wait returns -EAGAIN) or wakes waiters (futex_wake returns
 * how many). Two processes on one shared futex get one key, so one lock.
 */
#include <linux/kprobes.h>
#include <linux/futex.h>
#include <linux/hash.h>
#include <linux/hrtimer.h>
#include <linux/plist.h>
#include <linux/sched/signal.h>
#include <linux/pid.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/timekeeping.h>
#include "lockblame.h"
#include "compat.h"

#define LB_FUTEX_SLOT_BITS	12
#define LB_FUTEX_SLOTS		BIT(LB_FUTEX_SLOT_BITS)
#define LB_FUTEX_SLOT_PROBES	8
/* A slot untouched this long belongs to nobody in the middle of a futex op. */
#define LB_FUTEX_SLOT_STALE_NS	NSEC_PER_SEC

/* glibc's x86-64 pthread_mutex_t: futex word at 0, __owner (a TID) at 8. */
#define LB_GLIBC_OWNER_OFFSET	8
#define LB_GLIBC_LOCK_CONTENDED	2

struct lb_futex_slot {
	pid_t pid;		/* the task the slot belongs to (cmpxchg) */
	u16 flags;		/* LB_EF_SHARED_KEY */
	u64 ts;			/* when the key was stored */
	u64 lock;		/* lock id of the key */
	unsigned long uaddr;	/* user address of the futex word */
};

static struct lb_futex_slot *lb_futex_slots;

int lb_futex_init(void)
{
	lb_futex_slots = vzalloc(array_size(LB_FUTEX_SLOTS, sizeof(*lb_futex_slots)));
	return lb_futex_slots ? 0 : -ENOMEM;
}

void lb_futex_exit(void)
{
	vfree(lb_futex_slots);
	lb_futex_slots = NULL;
}

/* Find the current task's slot; with @claim, take a free or stale one. */
static struct lb_futex_slot *__kprobes lb_futex_slot(u64 now, bool claim)
{
	pid_t pid = current->pid, owner, victim_owner = 0;
	struct lb_futex_slot *s, *victim = NULL;
	u32 h = hash_32(pid, LB_FUTEX_SLOT_BITS);
	unsigned int i;

	for (i = 0; i < LB_FUTEX_SLOT_PROBES; i++) {
		s = &lb_futex_slots[(h + i) & (LB_FUTEX_SLOTS - 1)];
		owner = READ_ONCE(s->pid);
		if (owner == pid)
			return s;
		if (!victim && (!owner || now - READ_ONCE(s->ts) > LB_FUTEX_SLOT_STALE_NS)) {
			victim = s;
			victim_owner = owner;
		}
	}
	if (!claim || !victim || cmpxchg(&victim->pid, victim_owner, pid) != victim_owner)
		return NULL;
	return victim;
}

/* The key this task computed last, if still fresh and still its own. */
static bool __kprobes lb_futex_key_of_current(u64 now, u64 *lock, u16 *flags, unsigned long *uaddr)
{
	struct lb_futex_slot *s = lb_futex_slot(now, false);

	if (!s)
		return false;
	*lock = READ_ONCE(s->lock);
	*flags = READ_ONCE(s->flags);
	*uaddr = READ_ONCE(s->uaddr);
	smp_rmb();	/* read the key before re-checking that it is still ours */
	if (READ_ONCE(s->pid) != current->pid || now - READ_ONCE(s->ts) > LB_FUTEX_SLOT_STALE_NS)
		return false;
	return true;
}

/* get_futex_key(uaddr, flags, key, rw): remember where the key goes. */
int __kprobes lb_futex_key_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct lb_wait_data *d = (struct lb_wait_data *)ri->data;

	atomic64_inc(&lb_probe_of_ri(ri)->hits);
	if (!READ_ONCE(lb_enabled))
		return 1;
	d->arg = lb_arg(regs, 2);
	d->arg2 = lb_arg(regs, 0);
	return 0;
}

int __kprobes lb_futex_key_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct lb_wait_data *d = (struct lb_wait_data *)ri->data;
	u64 now = ktime_get_mono_fast_ns();
	struct lb_futex_slot *s;
	union futex_key key;

	if (lb_retval_int(regs) != 0)
		return 0;
	if (copy_from_kernel_nofault(&key, (void *)d->arg, sizeof(key))) {
		atomic64_inc(&lb_probe_of_ri(ri)->mismatches);
		return 0;
	}
	s = lb_futex_slot(now, true);
	if (!s) {
		lb_ring_drop(lb_rings, LB_DROP_NOKEY);
		return 0;
	}
	WRITE_ONCE(s->lock, lb_lock_id3(key.both.ptr, key.both.word, key.both.offset));
	WRITE_ONCE(s->flags, (key.both.offset & LB_FUT_OFF_SHARED_MASK) ? LB_EF_SHARED_KEY : 0);
	WRITE_ONCE(s->uaddr, d->arg2);
	smp_wmb();	/* the key before the time that makes it fresh */
	WRITE_ONCE(s->ts, now);
	return 0;
}

/*
 * Probable owner of a glibc mutex: its __owner TID, if the word says
 * "locked, contended" and the TID is a live task. A heuristic: the ledger
 * shows it as "probable holder" and never charges blame to it.
 */
static void __kprobes lb_futex_glibc_owner(struct lb_event *ev, unsigned long uaddr)
{
	u32 word;
	s32 tid;
	struct task_struct *t;

	if (copy_from_user_nofault(&word, (u32 __user *)uaddr, sizeof(word)) ||
	    word != LB_GLIBC_LOCK_CONTENDED ||
	    copy_from_user_nofault(&tid, (s32 __user *)(uaddr + LB_GLIBC_OWNER_OFFSET),
				   sizeof(tid)) ||
	    tid <= 0 || tid == task_pid_vnr(current))
		return;
	rcu_read_lock();
	t = pid_task(find_vpid(tid), PIDTYPE_PID);
	if (t)
		lb_owner_fill(ev, t, LB_OWNER_HEURISTIC);
	rcu_read_unlock();
}

/* futex_wait_queue(hb, q, timeout): the task is about to sleep on the key. */
int __kprobes lb_futex_sleep_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct lb_wait_data *d = (struct lb_wait_data *)ri->data;
	u64 now = ktime_get_mono_fast_ns();
	unsigned long uaddr;
	struct lb_event *ev;
	u64 lock;
	u16 flags;

	atomic64_inc(&lb_probe_of_ri(ri)->hits);
	if (!READ_ONCE(lb_enabled))
		return 1;
	if (!lb_futex_key_of_current(now, &lock, &flags, &uaddr)) {
		lb_ring_drop(lb_rings, LB_DROP_NOKEY);
		return 1;
	}
	ev = lb_event_begin(LB_EV_WAIT_BEGIN, LB_LOCK_FUTEX, lock);
	if (!ev)
		return 1;
	ev->flags |= flags;
	lb_futex_glibc_owner(ev, uaddr);
	d->lock = lock;
	d->lock_class = LB_LOCK_FUTEX;
	d->flags = flags;
	d->arg = lb_arg(regs, 1);
	d->arg2 = lb_arg(regs, 2);
	lb_event_commit(ev, lb_probe_of_ri(ri));
	return 0;
}

/*
 * Why the sleep ended. A waker unlinks the futex_q (its first member is the
 * plist_node) before waking it; a timeout clears the sleeper's task.
 */
static u8 __kprobes lb_futex_sleep_result(struct lb_wait_data *d)
{
	struct plist_node *node = (struct plist_node *)d->arg;
	struct hrtimer_sleeper *to = (struct hrtimer_sleeper *)d->arg2;
	struct list_head *next;
	struct task_struct *t;

	if (!copy_from_kernel_nofault(&next, &node->node_list.next, sizeof(next)) &&
	    next == &node->node_list)
		return LB_WAIT_WOKEN;
	if (to && !copy_from_kernel_nofault(&t, &to->task, sizeof(t)) && !t)
		return LB_WAIT_TIMEOUT;
	if (signal_pending(current))
		return LB_WAIT_INTERRUPTED;
	return LB_WAIT_ERROR;
}

int __kprobes lb_futex_sleep_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct lb_wait_data *d = (struct lb_wait_data *)ri->data;
	struct lb_event *ev;

	ev = lb_event_begin(LB_EV_WAIT_END, d->lock_class, d->lock);
	if (!ev)
		return 0;
	ev->flags |= d->flags;
	ev->result = lb_futex_sleep_result(d);
	lb_event_commit(ev, NULL);
	return 0;
}

int __kprobes lb_futex_wait_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	atomic64_inc(&lb_probe_of_ri(ri)->hits);
	return READ_ONCE(lb_enabled) ? 0 : 1;
}

/* futex_wait() == -EAGAIN: the value changed before the task could sleep. */
int __kprobes lb_futex_wait_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	u64 now = ktime_get_mono_fast_ns();
	struct lb_event *ev;
	unsigned long uaddr;
	u64 lock;
	u16 flags;
	int type;

	if (lb_retval_int(regs) != -EAGAIN)
		return 0;
	if (!lb_futex_key_of_current(now, &lock, &flags, &uaddr)) {
		lb_ring_drop(lb_rings, LB_DROP_NOKEY);
		return 0;
	}
	/* A zero-length wait: counted as an error (value changed), not time. */
	for (type = LB_EV_WAIT_BEGIN; type <= LB_EV_WAIT_END; type++) {
		ev = lb_event_begin(type, LB_LOCK_FUTEX, lock);
		if (!ev)
			return 0;
		ev->flags |= flags | LB_EF_NOSLEEP;
		ev->result = type == LB_EV_WAIT_END ? LB_WAIT_AGAIN : 0;
		lb_event_commit(ev, NULL);
	}
	return 0;
}

int __kprobes lb_futex_wake_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct lb_wait_data *d = (struct lb_wait_data *)ri->data;

	atomic64_inc(&lb_probe_of_ri(ri)->hits);
	if (!READ_ONCE(lb_enabled))
		return 1;
	d->arg = lb_arg(regs, 0);
	lb_event_stacks(lb_probe_of_ri(ri), true, &d->stack_id, &d->ustack_id);
	return 0;
}

/*
 * An exiting thread wakes whoever waits on its clear_child_tid word
 * (mm_release): that is thread-exit notification, not a lock release.
 */
static bool __kprobes lb_futex_is_exit_wake(unsigned long uaddr)
{
	return (current->flags & PF_EXITING) &&
	       uaddr == (unsigned long)current->clear_child_tid;
}

/* futex_wake() returns how many it woke: the caller controls the flow. */
int __kprobes lb_futex_wake_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct lb_wait_data *d = (struct lb_wait_data *)ri->data;
	int woken = lb_retval_int(regs);
	u64 now = ktime_get_mono_fast_ns();
	struct lb_event *ev;
	unsigned long uaddr;
	u64 lock;
	u16 flags;

	if (woken <= 0)
		return 0;
	if (!lb_futex_key_of_current(now, &lock, &flags, &uaddr)) {
		lb_ring_drop(lb_rings, LB_DROP_NOKEY);
		return 0;
	}
	ev = lb_event_begin(LB_EV_RELEASE, LB_LOCK_FUTEX, lock);
	if (!ev)
		return 0;
	ev->flags |= flags;
	if (lb_futex_is_exit_wake(d->arg))
		ev->flags |= LB_EF_THREAD_EXIT;
	ev->count = woken;
	/* The stacks were taken at entry, where the waker's path still shows. */
	ev->stack_id = d->stack_id;
	ev->ustack_id = d->ustack_id;
	lb_event_commit(ev, NULL);
	return 0;
}

/*
 * PI futexes: the word holds the owner's TID, so the owner is exact. Only
 * private PI futexes are followed: their key is (mm, page, offset), which is
 * computed here exactly as get_futex_key() does, before the kernel does.
 */
static bool __kprobes lb_futex_pi_lock(unsigned long uaddr, unsigned int flags, u64 *lock)
{
	unsigned long offset = uaddr % PAGE_SIZE;

	if (flags & LB_FUTEX_FLAGS_SHARED || !current->mm)
		return false;
	*lock = lb_lock_id3((u64)(unsigned long)current->mm, uaddr - offset, offset);
	return true;
}

int __kprobes lb_futex_lock_pi_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct lb_wait_data *d = (struct lb_wait_data *)ri->data;
	unsigned long uaddr = lb_arg(regs, 0);
	struct task_struct *t;
	struct lb_event *ev;
	u64 lock;
	u32 word;

	atomic64_inc(&lb_probe_of_ri(ri)->hits);
	if (!READ_ONCE(lb_enabled) || !lb_futex_pi_lock(uaddr, lb_arg(regs, 1), &lock) ||
	    copy_from_user_nofault(&word, (u32 __user *)uaddr, sizeof(word)) ||
	    !(word & FUTEX_TID_MASK))
		return 1;
	ev = lb_event_begin(LB_EV_WAIT_BEGIN, LB_LOCK_FUTEX_PI, lock);
	if (!ev)
		return 1;
	rcu_read_lock();
	t = pid_task(find_vpid(word & FUTEX_TID_MASK), PIDTYPE_PID);
	if (t)
		lb_owner_fill(ev, t, LB_OWNER_PI_WORD);
	rcu_read_unlock();
	d->lock = lock;
	d->lock_class = LB_LOCK_FUTEX_PI;
	d->flags = 0;
	lb_event_commit(ev, lb_probe_of_ri(ri));
	return 0;
}

int __kprobes lb_futex_lock_pi_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct lb_wait_data *d = (struct lb_wait_data *)ri->data;
	int ret = lb_retval_int(regs);
	struct lb_event *ev;

	ev = lb_event_begin(LB_EV_WAIT_END, d->lock_class, d->lock);
	if (!ev)
		return 0;
	if (!ret)
		ev->result = LB_WAIT_ACQUIRED;
	else if (ret == -ETIMEDOUT)
		ev->result = LB_WAIT_TIMEOUT;
	else if (ret == -EINTR || ret == -ERESTARTNOINTR || ret == -ERESTARTSYS)
		ev->result = LB_WAIT_INTERRUPTED;
	else
		ev->result = LB_WAIT_ERROR;
	lb_event_commit(ev, NULL);
	return 0;
}

/* futex_unlock_pi(uaddr, flags): the owner releases a PI futex with waiters. */
int __kprobes lb_futex_unlock_pi_pre(struct kprobe *kp, struct pt_regs *regs)
{
	unsigned long uaddr = lb_arg(regs, 0);
	struct lb_event *ev;
	u64 lock;
	u32 word;

	atomic64_inc(&lb_probe_of_kp(kp)->hits);
	if (!READ_ONCE(lb_enabled) || !lb_futex_pi_lock(uaddr, lb_arg(regs, 1), &lock) ||
	    copy_from_user_nofault(&word, (u32 __user *)uaddr, sizeof(word)) ||
	    !(word & FUTEX_WAITERS))
		return 0;
	ev = lb_event_begin(LB_EV_RELEASE, LB_LOCK_FUTEX_PI, lock);
	if (ev)
		lb_event_commit(ev, lb_probe_of_kp(kp));
	return 0;
}
