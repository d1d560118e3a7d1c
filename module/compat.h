/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every kernel-version and kernel-internal difference lockblame depends on,
 * as small lb_* wrappers. The logic elsewhere never tests a kernel version.
 */
#ifndef _LOCKBLAME_COMPAT_H
#define _LOCKBLAME_COMPAT_H

#include <linux/kprobes.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/futex.h>
#include <linux/sched.h>
#include <linux/ptrace.h>
#include <linux/sched/clock.h>
#include <linux/sched/task_stack.h>
#include <linux/jiffies.h>
#include <linux/uaccess.h>
#include <linux/mm.h>
#include <linux/cgroup.h>
#include <linux/uprobes.h>
#include <linux/rcupdate.h>
#include <uapi/linux/sched/types.h>

/*
 * Owner words of struct mutex and struct rw_semaphore: a task_struct pointer
 * with flag bits below it (kernel/locking/mutex.c MUTEX_FLAGS, rwsem.c
 * RWSEM_OWNER_FLAGS_MASK). The rwsem's mask is 0x3 from 5.12 and 0x7 in 5.10
 * (RD_ and WR_NONSPINNABLE); a task_struct is at least 64-byte aligned, so
 * 0x7 is right for both. PREEMPT_RT builds both on rtmutex and have no such
 * word: there lockblame knows no owner.
 */
#define LB_MUTEX_FLAGS			0x07UL
#define LB_MUTEX_FLAG_WAITERS		0x01UL
#define LB_RWSEM_READER_OWNED		0x01UL
#define LB_RWSEM_OWNER_FLAGS_MASK	0x07UL
#define LB_RWSEM_FLAG_WAITERS		0x02UL
#define LB_RWSEM_WRITER_LOCKED		0x01UL
#define LB_RWSEM_READER_SHIFT		8
#define LB_RWSEM_FLAG_READFAIL		BIT(BITS_PER_LONG - 1)

/*
 * The words are read without faulting: a probe's argument is the lock only
 * if the symbol's argument layout is the one expected, and a clone with
 * another layout must not make a handler fault. Each returns false when the
 * word cannot be read.
 */
#ifndef CONFIG_PREEMPT_RT
static inline bool lb_mutex_owner_nofault(struct mutex *lock, unsigned long *word)
{
	return !copy_from_kernel_nofault(word, &lock->owner, sizeof(*word));
}

static inline bool lb_rwsem_owner_nofault(struct rw_semaphore *sem, unsigned long *word)
{
	return !copy_from_kernel_nofault(word, &sem->owner, sizeof(*word));
}

static inline bool lb_rwsem_count_nofault(const void *sem, unsigned long *count)
{
	return !copy_from_kernel_nofault(count, &((struct rw_semaphore *)sem)->count,
					 sizeof(*count));
}

/*
 * Whether @sem has a waiter queued, read without faulting (the caller is not
 * sure @sem is one). The queue's shape changed: up to 6.x a wait_list head,
 * in 7.x a first_waiter pointer; module/features.mk defines
 * LB_RWSEM_FIRST_WAITER when the kernel's rwsem.h has the latter.
 */
static inline bool lb_rwsem_has_waiter(struct rw_semaphore *sem)
{
#ifdef LB_RWSEM_FIRST_WAITER
	void *first;

	return !copy_from_kernel_nofault(&first, &sem->first_waiter, sizeof(first)) && first;
#else
	struct list_head *first;

	return !copy_from_kernel_nofault(&first, &sem->wait_list.next, sizeof(first)) &&
	       first != &sem->wait_list;
#endif
}
#else
/*
 * PREEMPT_RT: no owner word and no count. A mutex reads as unowned (its
 * entry handler then records nothing) and an rwsem as held by nobody: a
 * wait on it has no owner, and no release is reported.
 */
static inline bool lb_mutex_owner_nofault(struct mutex *lock, unsigned long *word)
{
	*word = 0;
	return true;
}

static inline bool lb_rwsem_owner_nofault(struct rw_semaphore *sem, unsigned long *word)
{
	*word = 0;
	return true;
}

static inline bool lb_rwsem_count_nofault(const void *sem, unsigned long *count)
{
	*count = 0;
	return true;
}

static inline bool lb_rwsem_has_waiter(struct rw_semaphore *sem) { return false; }
#endif

/*
 * union futex_key.both.offset carries these bits for process-shared keys
 * (kernel/futex/futex.h FUT_OFF_INODE / FUT_OFF_MMSHARED, stable since 2.6).
 */
#define LB_FUT_OFF_SHARED_MASK		0x03U

static inline bool lb_futex_key_shared(const union futex_key *key)
{
	return key->both.offset & LB_FUT_OFF_SHARED_MASK;
}

/*
 * Internal futex flags as passed to futex_lock_pi(): the 6.7 futex2 flag
 * rework ("futex: Add sys_futex_wake()") moved FLAGS_SHARED from 0x01 to
 * 0x10, in the same series that added FUTEX2_PRIVATE to the uapi header.
 */
#ifdef FUTEX2_PRIVATE
#define LB_FUTEX_FLAGS_SHARED		0x0010U
#else
#define LB_FUTEX_FLAGS_SHARED		0x0001U
#endif

/*
 * Where struct futex_q (kernel/futex/futex.h, private) keeps the key of the
 * futex its task waits on, and the requeue-PI target key's pointer. 6.7
 * ("futex: add wake_data to struct futex_q", with the futex2 series that
 * added FUTEX2_PRIVATE) put wake and wake_data before the key. Read from the
 * BTF of Debian's 5.10.0-46, 6.1.0-57 (56, 96), 6.12.95 and 7.2.13 (72, 112)
 * images; the futex probes check the offset against every private key.
 */
#ifdef FUTEX2_PRIVATE
#define LB_FUTEX_Q_KEY_OFFSET		72
#else
#define LB_FUTEX_Q_KEY_OFFSET		56
#endif
/* After the key: pi_state, rt_waiter, then requeue_pi_key (all versions). */
#define LB_FUTEX_Q_REQUEUE_PI_KEY_OFFSET	(LB_FUTEX_Q_KEY_OFFSET + sizeof(union futex_key) + \
						 2 * sizeof(void *))

/*
 * The kretprobe an instance belongs to: get_kretprobe() since 5.11
 * (module/features.mk defines LB_HAVE_GET_KRETPROBE when kprobes.h has it),
 * ->rp before. NULL on 5.11 to 5.18 once unregister_kretprobes() has begun:
 * callers must check.
 */
static inline struct kretprobe *lb_kretprobe_of(struct kretprobe_instance *ri)
{
#ifdef LB_HAVE_GET_KRETPROBE
	return get_kretprobe(ri);
#else
	return ri->rp;
#endif
}

/* Function arguments and return value at a probe (x86-64 calling convention). */
static inline unsigned long lb_arg(struct pt_regs *regs, unsigned int n)
{
	return regs_get_kernel_argument(regs, n);
}

/* A pointer or long return value. */
static inline long lb_retval(struct pt_regs *regs)
{
	return (long)regs_return_value(regs);
}

/* An int return value: only the low 32 bits of the register are defined. */
static inline int lb_retval_int(struct pt_regs *regs)
{
	return (int)regs_return_value(regs);
}

/*
 * On-CPU time of a task so far. sum_exec_runtime is brought up to date only
 * at ticks and context switches; a task running now has also run since
 * se.exec_start (same clock as local_clock(), on its own CPU). Any other
 * delta is not trusted: more than two ticks means the clocks disagree.
 */
static inline u64 lb_cpu_ns(u64 sum_exec_runtime, u64 exec_start, bool running)
{
	u64 now = local_clock();

	if (running && now > exec_start && now - exec_start < 2 * TICK_NSEC)
		sum_exec_runtime += now - exec_start;
	return sum_exec_runtime;
}

/* Is @t on a CPU right now? Read without faulting: @t may be a bad pointer. */
static inline bool lb_task_running_nofault(struct task_struct *t)
{
#ifdef CONFIG_SMP
	int on_cpu;

	return !copy_from_kernel_nofault(&on_cpu, &t->on_cpu, sizeof(on_cpu)) && on_cpu;
#else
	return t == current;
#endif
}

static inline u64 lb_task_cpu_ns(struct task_struct *t)
{
	return lb_cpu_ns(READ_ONCE(t->se.sum_exec_runtime), READ_ONCE(t->se.exec_start),
			 t == current);
}

/*
 * The namespace EXPORT_SYMBOL_IF_KUNIT() exports lockblame's internals to,
 * as the KUnit module's MODULE_IMPORT_NS() takes it: a bare identifier
 * until 6.13, a string literal since ("module: Convert symbol namespace to
 * string literal"); module/features.mk tells which.
 */
#ifdef LB_NS_IDENTIFIER
#define LB_KUNIT_NS	EXPORTED_FOR_KUNIT_TESTING
#else
#define LB_KUNIT_NS	"EXPORTED_FOR_KUNIT_TESTING"
#endif

/*
 * Time a task spent runnable but not running so far: sched_info.run_delay,
 * kept only with CONFIG_SCHED_INFO (0 without: "not read"). run_delay grows
 * when the task gets a CPU or leaves the runqueue; a task waiting on a
 * runqueue now (last_queued set, same clock as local_clock() on its CPU) has
 * also waited since last_queued. Read without faulting: @t may be a task
 * named by a lock word. A value that reads 0 is reported as not read: it
 * only happens before the task ever waited for a CPU.
 */
#ifdef CONFIG_SCHED_INFO
static inline bool lb_run_delay_nofault(struct task_struct *t, u64 *out)
{
	unsigned long long delay, queued;
	u64 now = local_clock();

	if (copy_from_kernel_nofault(&queued, &t->sched_info.last_queued, sizeof(queued)) ||
	    copy_from_kernel_nofault(&delay, &t->sched_info.run_delay, sizeof(delay)))
		return false;
	if (queued && now > queued)
		delay += now - queued;
	*out = delay;
	return true;
}

/* The current task runs: its run_delay is up to date. */
static inline bool lb_run_delay_current(u64 *out)
{
	*out = READ_ONCE(current->sched_info.run_delay);
	return true;
}
#else
static inline bool lb_run_delay_nofault(struct task_struct *t, u64 *out) { return false; }
static inline bool lb_run_delay_current(u64 *out) { return false; }
#endif

/*
 * The rwsem of an address space: mm->mmap_sem until v5.8 renamed it
 * mmap_lock ("mmap locking API: rename mmap_sem to mmap_lock"), which came
 * with mmap_lock.h and its MMAP_LOCK_INITIALIZER.
 */
#ifdef MMAP_LOCK_INITIALIZER
static inline const void *lb_mm_lock(struct mm_struct *mm)
{
	return &mm->mmap_lock;
}
#else
static inline const void *lb_mm_lock(struct mm_struct *mm)
{
	return &mm->mmap_sem;
}
#endif

/*
 * A task's cgroup v2 (default hierarchy) id, the inode number of its
 * directory in the cgroup2 mount. task_dfl_cgroup() and cgroup_id() are the
 * same inlines from 5.5 through 7.2 (css_set->dfl_cgrp, cgroup->kn->id);
 * without CONFIG_CGROUPS there is no hierarchy, and 0 means "not known".
 * The css_set is freed by RCU, hence the read-side section.
 */
#ifdef CONFIG_CGROUPS
static inline u64 lb_cgroup_id(struct task_struct *t)
{
	u64 id;

	rcu_read_lock();
	id = cgroup_id(task_dfl_cgroup(t));
	rcu_read_unlock();
	return id;
}

/* The same for a task named by a lock word: every step read without faulting. */
static inline u64 lb_cgroup_id_nofault(struct task_struct *t)
{
	struct kernfs_node *kn;
	struct css_set *cset;
	struct cgroup *cgrp;
	u64 id;

	rcu_read_lock();
	if (copy_from_kernel_nofault(&cset, &t->cgroups, sizeof(cset)) || !cset ||
	    copy_from_kernel_nofault(&cgrp, &cset->dfl_cgrp, sizeof(cgrp)) || !cgrp ||
	    copy_from_kernel_nofault(&kn, &cgrp->kn, sizeof(kn)) || !kn ||
	    copy_from_kernel_nofault(&id, &kn->id, sizeof(id)))
		id = 0;
	rcu_read_unlock();
	return id;
}
#else
static inline u64 lb_cgroup_id(struct task_struct *t) { return 0; }
static inline u64 lb_cgroup_id_nofault(struct task_struct *t) { return 0; }
#endif

/*
 * Run kernel thread @t at SCHED_DEADLINE, @runtime_ns of CPU every
 * @period_ns. sched_setattr_nocheck() is exported from 6.1 (5.10 declares it
 * only; module/features.mk reads the build's Module.symvers): without it,
 * -EOPNOTSUPP, and the caller picks another policy.
 */
#ifdef LB_HAVE_SETATTR_NOCHECK
static inline int lb_sched_deadline(struct task_struct *t, u64 runtime_ns, u64 period_ns)
{
	struct sched_attr dl = {
		.size = sizeof(dl),
		.sched_policy = SCHED_DEADLINE,
		.sched_runtime = runtime_ns,
		.sched_deadline = period_ns,
		.sched_period = period_ns,
	};

	return sched_setattr_nocheck(t, &dl);
}
#else
static inline int lb_sched_deadline(struct task_struct *t, u64 runtime_ns, u64 period_ns)
{
	return -EOPNOTSUPP;
}
#endif

/*
 * Uprobes for scopes (scopes.c). Until 6.12 a consumer is registered and
 * unregistered by inode and offset, synchronously; since, registration
 * returns the uprobe, and unregistration is "nosync" plus one
 * uprobe_unregister_sync() after (module/features.mk: LB_UPROBE_HANDLE);
 * a USDT semaphore (a reference counter) is registered with the probe, by
 * uprobe_register_refctr() until 6.12, by uprobe_register() since.
 * Since 6.13 the handlers take a session cookie (LB_UPROBE_DATA).
 */
#ifdef LB_UPROBE_DATA
#define LB_UPROBE_HANDLER_ARGS	struct uprobe_consumer *uc, struct pt_regs *regs, __u64 *data
#define LB_URETPROBE_HANDLER_ARGS \
	struct uprobe_consumer *uc, unsigned long func, struct pt_regs *regs, __u64 *data
#else
#define LB_UPROBE_HANDLER_ARGS	struct uprobe_consumer *uc, struct pt_regs *regs
#define LB_URETPROBE_HANDLER_ARGS \
	struct uprobe_consumer *uc, unsigned long func, struct pt_regs *regs
#endif

#ifdef LB_UPROBE_HANDLE
struct lb_uprobe {
	struct uprobe *up;
};

/* @refctr: a USDT semaphore's file offset, counted up while planted; 0: none. */
static inline int lb_uprobe_register(struct lb_uprobe *u, struct inode *inode, loff_t off,
				     loff_t refctr, struct uprobe_consumer *uc)
{
	u->up = uprobe_register(inode, off, refctr, uc);
	return IS_ERR(u->up) ? PTR_ERR(u->up) : 0;
}

/* Returns once no handler of @uc runs any more. */
static inline void lb_uprobe_unregister(struct lb_uprobe *u, struct inode *inode, loff_t off,
					struct uprobe_consumer *uc)
{
	uprobe_unregister_nosync(u->up, uc);
	uprobe_unregister_sync();
}
#else
struct lb_uprobe {
	int unused;
};

static inline int lb_uprobe_register(struct lb_uprobe *u, struct inode *inode, loff_t off,
				     loff_t refctr, struct uprobe_consumer *uc)
{
	return refctr ? uprobe_register_refctr(inode, off, refctr, uc) :
		uprobe_register(inode, off, uc);
}

static inline void lb_uprobe_unregister(struct lb_uprobe *u, struct inode *inode, loff_t off,
					struct uprobe_consumer *uc)
{
	uprobe_unregister(inode, off, uc);
}
#endif

/* The @n-th (1..6) integer argument of a user function at its entry. */
#ifdef CONFIG_X86_64
#define LB_USER_ARGS		6
static inline u64 lb_user_arg(const struct pt_regs *regs, unsigned int n)
{
	switch (n) {
	case 1: return regs->di;
	case 2: return regs->si;
	case 3: return regs->dx;
	case 4: return regs->cx;
	case 5: return regs->r8;
	case 6: return regs->r9;
	}
	return 0;
}

/*
 * A user register by its place in struct pt_regs (scopes_parse.c's table of
 * names: a USDT probe's argument, "8@%rax"), @size bytes of it.
 */
static inline u64 lb_user_reg(struct pt_regs *regs, unsigned int off, unsigned int size)
{
	u64 v = regs_get_register(regs, off);

	return size < 8 ? v & ((1ULL << (8 * size)) - 1) : v;
}
#else
#define LB_USER_ARGS		0
static inline u64 lb_user_arg(const struct pt_regs *regs, unsigned int n) { return 0; }
static inline u64 lb_user_reg(struct pt_regs *regs, unsigned int off, unsigned int size)
{
	return 0;
}
#endif

/*
 * The user stack pointer of a task asleep in the kernel (its registers at
 * kernel entry); 0 for a kernel thread, which has none.
 */
static inline unsigned long lb_user_sp_asleep(struct task_struct *p)
{
	return (p->flags & PF_KTHREAD) ? 0 : user_stack_pointer(task_pt_regs(p));
}

#endif /* _LOCKBLAME_COMPAT_H */
