// SPDX-License-Identifier: GPL-2.0
/*
 * Probes on the kernel mutex slowpaths: a waiter entering the lock slowpath
 * (owner read from the lock word), the same task returning from it (it now
 * owns the lock), and the holder running the unlock slowpath (waiters exist).
 */
#include <linux/kprobes.h>
#include <linux/mutex.h>
#include <linux/uaccess.h>
#include "lockblame.h"
#include "probe_table.h"
#include "compat.h"

static int __kprobes lb_mutex_lock_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct lb_wait_data *d = (struct lb_wait_data *)ri->data;
	struct lb_probe *p = lb_kret_enter(ri);
	struct task_struct *owner;
	struct lb_event *ev;
	struct mutex *lock;	/* read once tracing */
	unsigned long word;

	if (!p)
		return 1;
	lock = (struct mutex *)lb_probe_arg(p, regs, LB_ARG_LOCK);
	if (lb_own_lock(lock))
		return 1;
	if (!lb_mutex_owner_nofault(lock, &word)) {
		atomic64_inc(&p->mismatches);
		return 1;
	}
	owner = (struct task_struct *)(word & ~LB_MUTEX_FLAGS);
	/* Unowned: not contended (lockdep kernels route every lock here). */
	if (!owner)
		return 1;
	if (owner == current) {
		atomic64_inc(&p->mismatches);
		return 1;
	}
	ev = lb_event_begin(LB_EV_WAIT_BEGIN, LB_LOCK_MUTEX, lb_lock_id(lock));
	if (!ev)
		return 1;
	lb_owner_fill(ev, owner, LB_OWNER_LOCK_FIELD);
	lb_name_kernel_lock(ev, lock, owner);
	d->lock = ev->lock;
	d->lock_class = LB_LOCK_MUTEX;
	d->flags = 0;
	lb_event_commit(ev, p);
	return 0;
}

static void __kprobes lb_mutex_wait_end(struct lb_wait_data *d, u8 result)
{
	struct lb_event *ev;

	ev = lb_event_begin(LB_EV_WAIT_END, d->lock_class, d->lock);
	if (!ev)
		return;
	ev->result = result;
	lb_event_commit(ev, NULL);
}

/* mutex_lock()'s slowpath returns void: it returns with the lock held. */
static int __kprobes lb_mutex_lock_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct lb_wait_data *d = (struct lb_wait_data *)ri->data;
	struct lb_probe *p = lb_probe_of_ri(ri);
	u8 result = LB_WAIT_ACQUIRED;

	/* A kretprobe being unregistered (p NULL): the wait still ends. */
	if (p && p->returns_int && lb_retval_int(regs))
		result = LB_WAIT_INTERRUPTED;
	lb_mutex_wait_end(d, result);
	return 0;
}

/* Killable and interruptible slowpaths return 0 or -EINTR. */
static int __kprobes lb_mutex_lock_int_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct lb_wait_data *d = (struct lb_wait_data *)ri->data;

	lb_mutex_wait_end(d, lb_retval_int(regs) ? LB_WAIT_INTERRUPTED : LB_WAIT_ACQUIRED);
	return 0;
}

static int __kprobes lb_mutex_unlock_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct lb_probe *p = lb_kprobe_enter(kp);
	struct lb_event *ev;
	struct mutex *lock;	/* read once tracing */
	unsigned long word;

	if (!p)
		return 0;
	lock = (struct mutex *)lb_probe_arg(p, regs, LB_ARG_LOCK);
	if (lb_own_lock(lock))
		return 0;
	if (!lb_mutex_owner_nofault(lock, &word)) {
		atomic64_inc(&p->mismatches);
		return 0;
	}
	/* Without waiters nobody is made to wait: not a contended release. */
	if (!(word & LB_MUTEX_FLAG_WAITERS))
		return 0;
	/* The unlock slowpath runs in the owner: anything else is a bad argument. */
	if ((struct task_struct *)(word & ~LB_MUTEX_FLAGS) != current) {
		atomic64_inc(&p->mismatches);
		return 0;
	}
	ev = lb_event_begin(LB_EV_RELEASE, LB_LOCK_MUTEX, lb_lock_id(lock));
	if (ev)
		lb_event_commit(ev, p);
	return 0;
}

static struct lb_probe lb_mutex_probes[] = {
	/*
	 * Kernels with lockdep (DEBUG_LOCK_ALLOC) have no mutex slowpath
	 * functions and send every mutex_lock through __mutex_lock: the
	 * handlers skip uncontended calls.
	 * The slowpath returns void; lockdep kernels' __mutex_lock returns int.
	 * Every function here takes the lock first.
	 */
	LB_KRETI("mutex_lock", LB_LOCK_MUTEX, true, lb_mutex_lock_entry, lb_mutex_lock_ret,
		 0x0e, (LB_AT(LOCK, 0)), "__mutex_lock_slowpath", "__mutex_lock",
		 "__mutex_lock.constprop.0", "__mutex_lock.isra.0"),
	LB_KRET("mutex_lock_killable", LB_LOCK_MUTEX, false, lb_mutex_lock_entry,
		lb_mutex_lock_int_ret, (LB_AT(LOCK, 0)), "__mutex_lock_killable_slowpath"),
	LB_KRET("mutex_lock_interruptible", LB_LOCK_MUTEX, false, lb_mutex_lock_entry,
		lb_mutex_lock_int_ret, (LB_AT(LOCK, 0)), "__mutex_lock_interruptible_slowpath"),
	LB_KPRB("mutex_unlock", LB_LOCK_MUTEX, true, lb_mutex_unlock_pre, (LB_AT(LOCK, 0)),
		"__mutex_unlock_slowpath", "__mutex_unlock_slowpath.constprop.0",
		"__mutex_unlock_slowpath.isra.0"),
};

const struct lb_probe_family lb_mutex_family = {
	.table = lb_mutex_probes,
	.count = ARRAY_SIZE(lb_mutex_probes),
};
