// SPDX-License-Identifier: GPL-2.0
/*
 * Probes on futexes. A wait is two probe hits: futex_wait_setup() returns
 * with the kernel's key in the waiter's futex_q and either -EAGAIN (the word
 * changed: a wait that never sleeps) or 0, and then the task sleeps: the
 * wait begins there. It ends where the task, awake again, unqueues itself
 * (futex_unqueue, in its own context). A wake is futex_wake() (how many it
 * woke) and, for a process-shared futex, futex_wake_mark() once per woken
 * waiter, whose futex_q holds the key: kept in a small per-task slot until
 * futex_wake returns. A private futex's key is (mm, page, offset), computed
 * here. Two processes on one shared futex get one key, so one lock.
 *
 * No probe holds anything while a task sleeps (but on 5.10, below), so
 * thousands of parked threads cost no kretprobe instances.
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
#include "probe_table.h"
#include "probe_futex.h"
#include "compat.h"

/* glibc's x86-64 pthread_mutex_t: futex word at 0, __owner (a TID) at 8. */
#define LB_GLIBC_OWNER_OFFSET	8
#define LB_GLIBC_LOCK_CONTENDED	2

static struct lb_futex_slot *lb_futex_slots;

int lb_futex_init(void)
{
	lb_futex_slots = vzalloc(array_size(LB_FUTEX_SLOTS, sizeof(*lb_futex_slots)));
	return lb_futex_slots ? 0 : -ENOMEM;
}

u64 lb_futex_bytes(void)
{
	return lb_futex_slots ? LB_FUTEX_SLOTS * sizeof(*lb_futex_slots) : 0;
}

void lb_futex_exit(void)
{
	vfree(lb_futex_slots);
	lb_futex_slots = NULL;
}

/*
 * get_futex_key(uaddr, flags, key, rw), where a kernel has no
 * futex_wake_mark(): remember where the key goes.
 */
static int __kprobes lb_futex_key_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct lb_wait_data *d = (struct lb_wait_data *)ri->data;
	struct lb_probe *p = lb_kret_enter(ri);

	if (!p)
		return 1;
	d->futex_key.key = lb_probe_arg(p, regs, LB_ARG_KEY);
	d->futex_key.uaddr = lb_probe_arg(p, regs, LB_ARG_UADDR);
	d->begin_ns = ktime_get_mono_fast_ns();
	return 0;
}

static int __kprobes lb_futex_key_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct lb_wait_data *d = (struct lb_wait_data *)ri->data;
	u64 now = ktime_get_mono_fast_ns();
	struct lb_futex_ref ref;
	struct lb_futex_key k = {};
	union futex_key key;

	if (lb_retval_int(regs) != 0)
		return 0;
	if (copy_from_kernel_nofault(&key, (void *)d->futex_key.key, sizeof(key))) {
		lb_probe_mismatch(lb_probe_of_ri(ri));
		return 0;
	}
	if (!lb_futex_slot_claim(lb_futex_slots, current->pid, now, &ref)) {
		lb_event_drop(LB_DROP_NOKEY);
		return 0;
	}
	k.lock = lb_lock_id3(key.both.ptr, key.both.word, key.both.offset);
	k.flags = (key.both.offset & LB_FUT_OFF_SHARED_MASK) ? LB_EF_SHARED_KEY : 0;
	k.uaddr = d->futex_key.uaddr;
	k.entered = d->begin_ns;
	k.ts = now;
	lb_futex_slot_write(&ref, &k);
	lb_futex_slot_publish(&ref);
	return 0;
}

/*
 * Probable owner of a glibc mutex: its __owner TID, if the word says
 * "locked, contended" and the TID is a live task. A heuristic: the ledger
 * shows it as "probable holder" and never charges blame to it.
 */
static void __kprobes lb_futex_glibc_owner(struct lb_probe *p, struct lb_event *ev,
					   const struct lb_futex_key *op)
{
	struct task_struct *t;
	s32 tid;

	if (!(op->flags & LB_EF_WORD) || op->word != LB_GLIBC_LOCK_CONTENDED ||
	    lb_probe_read_user(p, &tid, (s32 __user *)(op->uaddr + LB_GLIBC_OWNER_OFFSET),
			       sizeof(tid)) ||
	    tid <= 0 || tid == task_pid_vnr(current))
		return;
	rcu_read_lock();
	t = pid_task(find_vpid(tid), PIDTYPE_PID);
	if (t)
		lb_owner_fill(ev, t, LB_OWNER_HEURISTIC);
	rcu_read_unlock();
}

/*
 * A word whose TID bits (without FUTEX_WAITERS) name another live thread of
 * the waiter's process: what pthread_join() sleeps on (the thread's tid word,
 * cleared at its exit).
 */
static bool __kprobes lb_futex_word_names_task(u32 word)
{
	struct task_struct *t;
	bool found;

	if ((word & FUTEX_WAITERS) || !(word & FUTEX_TID_MASK))
		return false;
	rcu_read_lock();
	t = pid_task(find_vpid(word & FUTEX_TID_MASK), PIDTYPE_PID);
	found = t && t != current && same_thread_group(t, current);
	rcu_read_unlock();
	return found;
}

/* The futex word and what it shows, for the ledger to tell locks from events. */
static void __kprobes lb_futex_word_fill(struct lb_event *ev, const struct lb_futex_key *op)
{
	if (!(op->flags & LB_EF_WORD))
		return;
	ev->word = op->word;
	ev->flags |= LB_EF_WORD;
	if (lb_futex_word_names_task(op->word))
		ev->flags |= LB_EF_WORD_TID;
}

/*
 * futex_wait_setup(uaddr, val, flags, q, ...): the value the waiter expects
 * and its futex_q (where the probe table says). It returns -EAGAIN when the
 * word no longer holds the value (a wait that never sleeps), 0 when the task
 * is about to sleep; either way get_futex_key() has filled q's key.
 */
static int __kprobes lb_futex_setup_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct lb_wait_data *d = (struct lb_wait_data *)ri->data;
	struct lb_probe *p = lb_kret_enter(ri);

	if (!p)
		return 1;
	d->futex_setup.uaddr = lb_probe_arg(p, regs, LB_ARG_UADDR);
	d->futex_setup.word = (u32)lb_probe_arg(p, regs, LB_ARG_VAL);
	d->futex_setup.q = lb_probe_arg(p, regs, LB_ARG_Q);
	/* The waiter stops here: its futex_wait() has done nothing else yet. */
	d->begin_ns = ktime_get_mono_fast_ns();
	/* The waiter's path, for the wait that begins at the return. */
	lb_event_stacks(p, true, &d->stack_id, &d->ustack_id);
	return 0;
}

/*
 * The waiter's key, from its futex_q. A private key is checked against what
 * get_futex_key() makes of the address: a mismatch means the futex_q layout
 * is not the one compat.h names, and no key of this kernel is trusted.
 */
static bool __kprobes lb_futex_wait_key(struct lb_probe *p, const struct lb_wait_data *d,
					union futex_key *key, struct lb_futex_key *op)
{
	unsigned long uaddr = d->futex_setup.uaddr;
	unsigned long offset = uaddr % PAGE_SIZE;

	if (!lb_futex_q_key(d->futex_setup.q, key) || !lb_futex_key_fill(key, op) ||
	    (!lb_futex_key_shared(key) &&
	     (key->both.word != uaddr - offset || key->both.offset != offset))) {
		lb_probe_mismatch(p);
		return false;
	}
	op->uaddr = uaddr;
	op->word = d->futex_setup.word;
	op->flags |= LB_EF_WORD;
	op->entered = d->begin_ns;
	return true;
}

/* The task sleeps on the key next: the wait begins. */
static void __kprobes lb_futex_wait_begin(struct lb_probe *p, const struct lb_wait_data *d,
					  const struct lb_futex_key *op)
{
	struct lb_event *ev;

	ev = lb_event_begin(LB_EV_WAIT_BEGIN, LB_LOCK_FUTEX, op->lock);
	if (!ev)
		return;
	/*
	 * The waiter stopped when it entered futex_wait_setup(), which looks
	 * up the key first: from there to here (the word read, the queue
	 * lock, on a slow guest our own probes) it is already waiting, and a
	 * waker may release in between. A begin committed behind a later
	 * event of this CPU's ring is clamped and counted late.
	 */
	if (op->entered && op->entered < ev->ts_ns)
		ev->ts_ns = op->entered;
	ev->flags |= op->flags & ~LB_EF_WORD;
	ev->uaddr = op->uaddr;
	lb_futex_word_fill(ev, op);
	lb_futex_glibc_owner(p, ev, op);
	/* The stacks were taken at entry, where the waiter's path still shows. */
	ev->stack_id = d->stack_id;
	ev->ustack_id = d->ustack_id;
	lb_event_commit(ev, NULL);
}

static int __kprobes lb_futex_setup_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct lb_wait_data *d = (struct lb_wait_data *)ri->data;
	struct lb_probe *p = lb_probe_of_ri(ri);
	int ret = lb_retval_int(regs);
	struct lb_futex_key op = {};
	union futex_key key;
	struct lb_event *ev;
	int type;

	if (!p || (ret && ret != -EAGAIN))
		return 0;
	if (!lb_futex_wait_key(p, d, &key, &op)) {
		lb_event_drop(LB_DROP_NOKEY);
		return 0;
	}
	if (!ret) {
		if (lb_futex_sleeps_next(d->futex_setup.q, &key))
			lb_futex_wait_begin(p, d, &op);
		return 0;
	}
	/* A zero-length wait: counted as an error (value changed), not time. */
	for (type = LB_EV_WAIT_BEGIN; type <= LB_EV_WAIT_END; type++) {
		ev = lb_event_begin(type, LB_LOCK_FUTEX, op.lock);
		if (!ev)
			return 0;
		ev->flags |= op.flags | LB_EF_NOSLEEP;
		ev->uaddr = op.uaddr;
		lb_futex_word_fill(ev, &op);
		ev->result = type == LB_EV_WAIT_END ? LB_WAIT_AGAIN : 0;
		lb_event_commit(ev, NULL);
	}
	return 0;
}

/*
 * The waiter, awake, before it takes itself off the queue: a waker that
 * woke it has unlinked the futex_q (its first member is the plist_node)
 * already. Not woken: a signal, or else the timeout (or a spurious wakeup).
 * The key is not at hand here: the ledger ends the task's open futex wait.
 */
static void __kprobes lb_futex_wait_end(unsigned long q)
{
	struct plist_node *node = (struct plist_node *)q;
	struct list_head *next;
	struct lb_event *ev;

	ev = lb_event_begin(LB_EV_WAIT_END, LB_LOCK_FUTEX, 0);
	if (!ev)
		return;
	if (!copy_from_kernel_nofault(&next, &node->node_list.next, sizeof(next)) &&
	    next == &node->node_list)
		ev->result = LB_WAIT_WOKEN;
	else if (signal_pending(current))
		ev->result = LB_WAIT_INTERRUPTED;
	else
		ev->result = LB_WAIT_TIMEOUT;
	lb_event_commit(ev, NULL);
}

/* futex_unqueue(q): the awake waiter unqueues itself, in its own context. */
static int __kprobes lb_futex_unqueue_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct lb_probe *p = lb_kprobe_enter(kp);

	if (p)
		lb_futex_wait_end(lb_probe_arg(p, regs, LB_ARG_Q));
	return 0;
}

/*
 * Before 5.16 (5.10) unqueue_me() is inlined, and the wait ends where
 * futex_wait_queue_me(hb, q, timeout) returns, just before it: a kretprobe,
 * whose instance the sleeping waiter holds (as a mutex waiter does).
 */
static int __kprobes lb_futex_queue_me_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct lb_wait_data *d = (struct lb_wait_data *)ri->data;
	struct lb_probe *p = lb_kret_enter(ri);

	if (!p)
		return 1;
	d->futex_q = lb_probe_arg(p, regs, LB_ARG_Q);
	return 0;
}

static int __kprobes lb_futex_queue_me_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	lb_futex_wait_end(((struct lb_wait_data *)ri->data)->futex_q);
	return 0;
}

static int __kprobes lb_futex_wake_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct lb_wait_data *d = (struct lb_wait_data *)ri->data;
	struct lb_probe *p = lb_kret_enter(ri);

	if (!p)
		return 1;
	d->futex_wake.uaddr = lb_probe_arg(p, regs, LB_ARG_UADDR);
	d->futex_wake.shared = lb_probe_arg(p, regs, LB_ARG_FLAGS) & LB_FUTEX_FLAGS_SHARED;
	d->futex_wake.many = (int)lb_probe_arg(p, regs, LB_ARG_NR_WAKE) > 1;
	/*
	 * The releaser's side of the futex: a lock's release has left the word
	 * free or taken again, a counter's advanced it (ledger_events.c). Read
	 * here, in the waker's own context, before anyone it wakes can run.
	 */
	d->futex_wake.word_read =
		!lb_probe_read_user(p, &d->futex_wake.word,
				    (const u32 __user *)d->futex_wake.uaddr, sizeof(u32));
	d->begin_ns = ktime_get_mono_fast_ns();
	lb_event_stacks(p, true, &d->stack_id, &d->ustack_id);
	return 0;
}

/*
 * futex_wake_mark(wake_q, q) (mark_wake_futex() on 5.10): a waker takes a
 * waiter's futex_q off its queue, under the queue's lock and before it wakes
 * anyone. A process-shared futex's key (an inode or a page, not an address)
 * is in it: kept for the waker's futex_wake() return. A private one's is
 * computed there. Also called by wakes not followed (futex_wake_op(),
 * futex_requeue()): their keys are older than the next futex_wake() and go
 * unused.
 */
static int __kprobes lb_futex_wake_key_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct lb_probe *p = lb_kprobe_enter(kp);
	struct lb_futex_key k = {};
	struct lb_futex_ref ref;
	union futex_key key;

	if (!p)
		return 0;
	if (!lb_futex_q_key(lb_probe_arg(p, regs, LB_ARG_Q), &key)) {
		lb_probe_mismatch(p);
		return 0;
	}
	/* A private futex_wake() computes its own key: no hash made here. */
	if (!lb_futex_key_shared(&key)) {
		if (!lb_futex_key_mine(&key))
			lb_probe_mismatch(p);
		return 0;
	}
	lb_futex_key_fill(&key, &k);
	k.ts = ktime_get_mono_fast_ns();
	if (!lb_futex_slot_claim(lb_futex_slots, current->pid, k.ts, &ref)) {
		lb_event_drop(LB_DROP_NOKEY);
		return 0;
	}
	lb_futex_slot_write(&ref, &k);
	lb_futex_slot_publish(&ref);
	return 0;
}

/*
 * The key of the futex @d's futex_wake() woke waiters on: a private one
 * computed, a shared one as the first futex_wake_mark() (or, where a kernel
 * has none, get_futex_key()) of this call left it in the slot. A key stored
 * before this call began, or by get_futex_key() for another address, is
 * another operation's (one not followed, docs/risks.md).
 */
static bool __kprobes lb_futex_wake_key(const struct lb_wait_data *d, struct lb_futex_key *op)
{
	u64 now = ktime_get_mono_fast_ns();
	struct lb_futex_ref ref;

	if (!d->futex_wake.shared) {
		op->flags = 0;
		return lb_futex_private_lock(d->futex_wake.uaddr, &op->lock);
	}
	if (!lb_futex_slot_lookup(lb_futex_slots, current->pid, now, op, &ref))
		return false;
	lb_futex_slot_release(&ref);
	return (s64)(op->ts - d->begin_ns) >= 0 &&
	       (!op->uaddr || op->uaddr == d->futex_wake.uaddr);
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

/*
 * futex_wake(uaddr, flags, nr_wake, bitset) returns how many it woke: the
 * caller controls the flow.
 */
static int __kprobes lb_futex_wake_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct lb_wait_data *d = (struct lb_wait_data *)ri->data;
	int woken = lb_retval_int(regs);
	struct lb_futex_key op = {};
	struct lb_event *ev;

	if (woken <= 0)
		return 0;
	if (!lb_futex_wake_key(d, &op)) {
		lb_event_drop(LB_DROP_NOKEY);
		return 0;
	}
	ev = lb_event_begin(LB_EV_RELEASE, LB_LOCK_FUTEX, op.lock);
	if (!ev)
		return 0;
	/*
	 * The lock was released in user space before the syscall: the release
	 * is when futex_wake began, not now. By now the woken waiter may have
	 * run, even on this CPU (the waker preempted at the wakeup), and on a
	 * slow guest the wake itself takes milliseconds; stamping the return
	 * put all of that into the waker's hold. A release committed behind
	 * a later event of this CPU's ring is clamped and counted late.
	 */
	ev->ts_ns = d->begin_ns;
	ev->flags |= op.flags & LB_EF_SHARED_KEY;
	if (lb_futex_is_exit_wake(d->futex_wake.uaddr))
		ev->flags |= LB_EF_THREAD_EXIT;
	if (d->futex_wake.many)
		ev->flags |= LB_EF_WAKE_MANY;
	if (d->futex_wake.word_read) {
		ev->flags |= LB_EF_WORD;
		ev->word = d->futex_wake.word;
	}
	ev->count = woken;
	ev->uaddr = d->futex_wake.uaddr;
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
	return !(flags & LB_FUTEX_FLAGS_SHARED) && lb_futex_private_lock(uaddr, lock);
}

static int __kprobes lb_futex_lock_pi_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct lb_wait_data *d = (struct lb_wait_data *)ri->data;
	struct lb_probe *p = lb_kret_enter(ri);
	struct task_struct *t;
	unsigned long uaddr;
	struct lb_event *ev;
	u64 lock;
	u32 word;

	if (!p)
		return 1;
	uaddr = lb_probe_arg(p, regs, LB_ARG_UADDR);
	if (!lb_futex_pi_lock(uaddr, lb_probe_arg(p, regs, LB_ARG_FLAGS), &lock) ||
	    lb_probe_read_user(p, &word, (u32 __user *)uaddr, sizeof(word)) ||
	    !(word & FUTEX_TID_MASK))
		return 1;
	ev = lb_event_begin(LB_EV_WAIT_BEGIN, LB_LOCK_FUTEX_PI, lock);
	if (!ev)
		return 1;
	ev->uaddr = uaddr;
	rcu_read_lock();
	t = pid_task(find_vpid(word & FUTEX_TID_MASK), PIDTYPE_PID);
	if (t)
		lb_owner_fill(ev, t, LB_OWNER_PI_WORD);
	rcu_read_unlock();
	d->lock = lock;
	d->lock_class = LB_LOCK_FUTEX_PI;
	d->flags = 0;
	lb_event_commit(ev, p);
	return 0;
}

static int __kprobes lb_futex_lock_pi_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
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
static int __kprobes lb_futex_unlock_pi_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct lb_probe *p = lb_kprobe_enter(kp);
	unsigned long uaddr;
	struct lb_event *ev;
	u64 lock;
	u32 word;

	if (!p)
		return 0;
	uaddr = lb_probe_arg(p, regs, LB_ARG_UADDR);
	if (!lb_futex_pi_lock(uaddr, lb_probe_arg(p, regs, LB_ARG_FLAGS), &lock) ||
	    lb_probe_read_user(p, &word, (u32 __user *)uaddr, sizeof(word)) ||
	    !(word & FUTEX_WAITERS))
		return 0;
	ev = lb_event_begin(LB_EV_RELEASE, LB_LOCK_FUTEX_PI, lock);
	if (ev)
		lb_event_commit(ev, p);
	return 0;
}

static struct lb_probe lb_futex_probes[] = {
	/*
	 * Short calls: none of these kretprobes is held while a task sleeps
	 * (but for futex_wait_return on <= 5.15, below).
	 * futex_wait_setup(uaddr, val, flags, q, ...)
	 */
	LB_KRET("futex_setup", LB_LOCK_FUTEX, true, lb_futex_setup_entry, lb_futex_setup_ret,
		(LB_AT(UADDR, 0), LB_AT(VAL, 1), LB_AT(Q, 3)), "futex_wait_setup"),
	/* futex_unqueue(q) */
	LB_KPRB("futex_unqueue", LB_LOCK_FUTEX, true, lb_futex_unqueue_pre, (LB_AT(Q, 0)),
		"futex_unqueue"),
	/*
	 * <= 5.15 inlined unqueue_me(): the wait ends where
	 * futex_wait_queue_me(hb, q, timeout) returns. A sleeping waiter holds
	 * this kretprobe's instance.
	 */
	LB_KRET_FOR("futex_unqueue", "futex_wait_return", LB_LOCK_FUTEX,
		    lb_futex_queue_me_entry, lb_futex_queue_me_ret, (LB_AT(Q, 1)),
		    "futex_wait_queue_me"),
	/* futex_wake(uaddr, flags, nr_wake, bitset) */
	LB_KRET("futex_wake", LB_LOCK_FUTEX, true, lb_futex_wake_entry, lb_futex_wake_ret,
		(LB_AT(UADDR, 0), LB_AT(FLAGS, 1), LB_AT(NR_WAKE, 2)), "futex_wake"),
	/* futex_wake_mark(wake_q, q); 5.10: mark_wake_futex(wake_q, q) */
	LB_KPRB("futex_wake_key", LB_LOCK_FUTEX, true, lb_futex_wake_key_pre, (LB_AT(Q, 1)),
		"futex_wake_mark", "mark_wake_futex"),
	/*
	 * A kernel with neither: get_futex_key(uaddr, flags, key, rw), which
	 * every futex operation calls, waits too.
	 */
	LB_KRET_FOR("futex_wake_key", "futex_key", LB_LOCK_FUTEX, lb_futex_key_entry,
		    lb_futex_key_ret, (LB_AT(UADDR, 0), LB_AT(KEY, 2)), "get_futex_key"),
	/* futex_lock_pi(uaddr, flags, time, trylock), futex_unlock_pi(uaddr, flags) */
	LB_KRET("futex_lock_pi", LB_LOCK_FUTEX_PI, false, lb_futex_lock_pi_entry,
		lb_futex_lock_pi_ret, (LB_AT(UADDR, 0), LB_AT(FLAGS, 1)), "futex_lock_pi"),
	LB_KPRB("futex_unlock_pi", LB_LOCK_FUTEX_PI, false, lb_futex_unlock_pi_pre,
		(LB_AT(UADDR, 0), LB_AT(FLAGS, 1)), "futex_unlock_pi"),
};

const struct lb_probe_family lb_futex_family = {
	.table = lb_futex_probes,
	.count = ARRAY_SIZE(lb_futex_probes),
};
