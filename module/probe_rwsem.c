// SPDX-License-Identifier: GPL-2.0
/*
 * Probes on the rwsem slowpaths: readers and writers entering the down
 * slowpaths (owner read from the semaphore), returning from them (acquired or
 * interrupted), and the releasing task waking waiters (rwsem_wake).
 */
#include <linux/kprobes.h>
#include <linux/rwsem.h>
#include <linux/err.h>
#include <linux/uaccess.h>
#include "lockblame.h"
#include "probe_table.h"
#include "compat.h"

static int __kprobes lb_rwsem_entry(struct kretprobe_instance *ri, struct pt_regs *regs, u16 side)
{
	struct lb_wait_data *d = (struct lb_wait_data *)ri->data;
	struct lb_probe *p = lb_kret_enter(ri);
	struct task_struct *owner = NULL;
	unsigned long word, count, readers;
	struct rw_semaphore *sem;
	struct lb_event *ev;

	if (!p)
		return 1;
	sem = (struct rw_semaphore *)lb_probe_arg(p, regs, LB_ARG_LOCK);
	if (!lb_rwsem_owner_nofault(sem, &word) || !lb_rwsem_count_nofault(sem, &count)) {
		atomic64_inc(&p->mismatches);
		return 1;
	}
	ev = lb_event_begin(LB_EV_WAIT_BEGIN, LB_LOCK_RWSEM, lb_lock_id(sem));
	if (!ev)
		return 1;
	ev->flags |= side;
	/*
	 * A writer's owner word names it while it holds the semaphore. A
	 * reader-owned word only hints at some past reader, which may have
	 * exited: it is never dereferenced. Readers publish that hint after
	 * taking the count, so the count also says "held by readers" (a reader
	 * entering the slowpath still counts itself).
	 */
	readers = (count & ~LB_RWSEM_FLAG_READFAIL) >> LB_RWSEM_READER_SHIFT;
	if (side == LB_EF_READ && readers)
		readers--;
	if (word & LB_RWSEM_READER_OWNED || (!(count & LB_RWSEM_WRITER_LOCKED) && readers)) {
		ev->owner_source = LB_OWNER_READER_HINT;
	} else {
		owner = (struct task_struct *)(word & ~LB_RWSEM_OWNER_FLAGS_MASK);
		if (!lb_owner_fill(ev, owner, LB_OWNER_LOCK_FIELD))
			owner = NULL;
	}
	lb_name_kernel_lock(ev, sem, owner);
	d->lock = ev->lock;
	d->lock_class = LB_LOCK_RWSEM;
	d->flags = side;
	lb_event_commit(ev, p);
	return 0;
}

static int __kprobes lb_rwsem_read_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return lb_rwsem_entry(ri, regs, LB_EF_READ);
}

static int __kprobes lb_rwsem_write_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return lb_rwsem_entry(ri, regs, LB_EF_WRITE);
}

/* Both slowpaths return the semaphore, or ERR_PTR(-EINTR) when interrupted. */
static int __kprobes lb_rwsem_down_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct lb_wait_data *d = (struct lb_wait_data *)ri->data;
	struct lb_event *ev;

	ev = lb_event_begin(LB_EV_WAIT_END, d->lock_class, d->lock);
	if (!ev)
		return 0;
	ev->flags |= d->flags;
	ev->result = IS_ERR_VALUE(lb_retval(regs)) ? LB_WAIT_INTERRUPTED : LB_WAIT_ACQUIRED;
	lb_event_commit(ev, NULL);
	return 0;
}

/* A release of @sem that others wait for, with the releaser's stacks. */
static void __kprobes lb_rwsem_release(struct lb_probe *p, struct rw_semaphore *sem)
{
	struct lb_event *ev = lb_event_begin(LB_EV_RELEASE, LB_LOCK_RWSEM, lb_lock_id(sem));

	if (ev)
		lb_event_commit(ev, p);
}

/* A reader leaving @lock while @remaining others still hold it. */
static void __kprobes lb_rwsem_left(void *lock, unsigned long remaining)
{
	struct lb_event *ev = lb_event_begin(LB_EV_RELEASE, LB_LOCK_RWSEM, lb_lock_id(lock));

	if (!ev)
		return;
	ev->flags |= LB_EF_LEFT | LB_EF_READ;
	ev->count = remaining;
	lb_event_commit(ev, NULL);
}

/*
 * up_read()/up_write() call rwsem_wake() only when waiters are queued, in
 * the releasing task. rwsem_wake is an .isra clone on Debian kernels: check
 * that the argument is a semaphore with waiters before trusting it.
 */
static int __kprobes lb_rwsem_wake_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct lb_probe *p = lb_kprobe_enter(kp);
	struct rw_semaphore *sem;
	unsigned long count;

	if (!p)
		return 0;
	sem = (struct rw_semaphore *)lb_probe_arg(p, regs, LB_ARG_LOCK);
	if (!lb_rwsem_count_nofault(sem, &count) || !(count & LB_RWSEM_FLAG_WAITERS) ||
	    !lb_rwsem_has_waiter(sem)) {
		atomic64_inc(&p->mismatches);
		return 0;
	}
	lb_rwsem_release(p, sem);
	return 0;
}

/*
 * Stand-ins where rwsem_wake() is inlined (5.10): up_write(sem) and
 * up_read(sem) on entry, before the count drops, for every release. Only a
 * release with waiters queued is kept. A reader that is not the last one
 * leaves (LB_EF_LEFT, the readers that remain), as with contended_release.
 */
static long __kprobes lb_rwsem_up_count(struct lb_probe *p, struct pt_regs *regs,
					struct rw_semaphore **sem)
{
	unsigned long count;

	if (!lb_probe_enter(p))
		return 0;
	*sem = (struct rw_semaphore *)lb_probe_arg(p, regs, LB_ARG_LOCK);
	if (!lb_rwsem_count_nofault(*sem, &count))
		return 0;
	return count & LB_RWSEM_FLAG_WAITERS ? count : 0;
}

static int __kprobes lb_rwsem_up_write_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct lb_probe *p = lb_probe_of_kp(kp);
	struct rw_semaphore *sem;
	long count = lb_rwsem_up_count(p, regs, &sem);

	if (count & LB_RWSEM_WRITER_LOCKED)
		lb_rwsem_release(p, sem);
	return 0;
}

static int __kprobes lb_rwsem_up_read_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct lb_probe *p = lb_probe_of_kp(kp);
	struct rw_semaphore *sem;
	long count = lb_rwsem_up_count(p, regs, &sem);
	unsigned long readers;

	if (!count || (count & LB_RWSEM_WRITER_LOCKED))
		return 0;
	readers = (count & ~LB_RWSEM_FLAG_READFAIL) >> LB_RWSEM_READER_SHIFT;
	if (!readers)
		atomic64_inc(&p->mismatches);
	else if (readers > 1)
		lb_rwsem_left(sem, readers - 1);
	else
		lb_rwsem_release(p, sem);
	return 0;
}

/*
 * lock:contended_release, in the releasing task. It fires for mutexes,
 * semaphores and percpu rwsems too, and gives only the lock's address: an
 * rwsem is told by its count, which __up_read() has just lowered. A count
 * with waiters, no writer and some readers left is a reader leaving while
 * others hold on. Any other count is not reported: a writer's release, or
 * the last reader's, reaches rwsem_wake (above), and a mutex's first word
 * is its owner pointer, far above any reader count. The ledger, which knows
 * each lock's class from its waits, ignores what is not an rwsem it knows.
 */
#define LB_RWSEM_MAX_READERS	BIT(20)

static void __kprobes lb_rwsem_left_tp(void *data, void *lock)
{
	struct lb_probe *p = lb_probe_enter(data);
	unsigned long count, readers;

	if (!p)
		return;
	if (!lb_rwsem_count_nofault(lock, &count))
		return;
	readers = (count & ~LB_RWSEM_FLAG_READFAIL) >> LB_RWSEM_READER_SHIFT;
	if ((count & LB_RWSEM_WRITER_LOCKED) || !(count & LB_RWSEM_FLAG_WAITERS) ||
	    !readers || readers >= LB_RWSEM_MAX_READERS)
		return;
	lb_rwsem_left(lock, readers);
}

static struct lb_probe lb_rwsem_probes[] = {
	/* Both slowpaths take the semaphore first. */
	LB_KRET("rwsem_down_read", LB_LOCK_RWSEM, true, lb_rwsem_read_entry,
		lb_rwsem_down_ret, (LB_AT(LOCK, 0)), "rwsem_down_read_slowpath",
		"rwsem_down_read_slowpath.constprop.0", "rwsem_down_read_slowpath.isra.0"),
	LB_KRET("rwsem_down_write", LB_LOCK_RWSEM, true, lb_rwsem_write_entry,
		lb_rwsem_down_ret, (LB_AT(LOCK, 0)), "rwsem_down_write_slowpath",
		"rwsem_down_write_slowpath.constprop.0", "rwsem_down_write_slowpath.isra.0"),
	LB_KPRB("rwsem_wake", LB_LOCK_RWSEM, true, lb_rwsem_wake_pre, (LB_AT(LOCK, 0)),
		"rwsem_wake", "rwsem_wake.isra.0", "rwsem_wake.constprop.0"),
	/*
	 * Where rwsem_wake() is inlined (5.10), every up_read(sem) and
	 * up_write(sem) is probed, before the count drops: the handlers keep
	 * only releases with waiters queued, and see every reader leave.
	 */
	LB_KPRB_FOR("rwsem_wake", "rwsem_up_read", LB_LOCK_RWSEM, lb_rwsem_up_read_pre,
		    (LB_AT(LOCK, 0)), "up_read"),
	LB_KPRB_FOR("rwsem_wake", "rwsem_up_write", LB_LOCK_RWSEM, lb_rwsem_up_write_pre,
		    (LB_AT(LOCK, 0)), "up_write"),
	/*
	 * lock:contended_release(lock), from 7.1: fires in every task that
	 * releases a contended sleeping lock, rwsem readers included. It is
	 * the only sight of a reader that leaves while other readers remain
	 * (their fast-path up_read wakes nobody); the other releases are
	 * seen by the kprobes above.
	 */
	LB_TRACE("rwsem_reader_release", LB_LOCK_RWSEM, lb_rwsem_left_tp, "contended_release"),
};

const struct lb_probe_family lb_rwsem_family = {
	.table = lb_rwsem_probes,
	.count = ARRAY_SIZE(lb_rwsem_probes),
};
