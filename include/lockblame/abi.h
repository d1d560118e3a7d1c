/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * lockblame's record layout and event stream ABI, shared by the module, the
 * ledger's host build and the userspace reader. Bump LB_ABI_VERSION on every
 * incompatible change to anything in this file.
 */
#ifndef _LOCKBLAME_ABI_H
#define _LOCKBLAME_ABI_H

#include <linux/types.h>

#define LB_ABI_VERSION		5
/*
 * The oldest stream a reader of this ABI reads: 4 only added event types
 * and a lock class, 5 an event type and a flag, so a stream of ABI 3 is
 * one of ABI 5 without them.
 */
#define LB_ABI_VERSION_MIN	3
#define LB_STREAM_MAGIC		0x4c424c4bU	/* "KLBL" as little-endian bytes */
#define LB_COMM_LEN		16
/*
 * The control file takes a write of at most LB_CONTROL_MAX - 1 bytes, the
 * newline included (320 until a USDT probe pair's "scope add" line needed
 * more); a longer one is refused whole, -EINVAL.
 */
#define LB_CONTROL_MAX		512

/* What kind of lock an event is about. */
enum lb_lock_class {
	LB_LOCK_FUTEX = 1,	/* futex word, identified by the kernel's futex key */
	LB_LOCK_FUTEX_PI,	/* PI futex: the word holds the owner TID */
	LB_LOCK_MUTEX,		/* kernel struct mutex */
	LB_LOCK_RWSEM,		/* kernel struct rw_semaphore */
	/*
	 * A lock a runtime builds above futexes (a GIL, an LWLock): a scope,
	 * the function that acquires it, named by the user. Since ABI 4.
	 */
	LB_LOCK_SCOPE,
	LB_LOCK_CLASS_MAX
};

enum lb_event_type {
	LB_EV_WAIT_BEGIN = 1,	/* task starts waiting on a contended lock */
	LB_EV_WAIT_END,		/* task stops waiting; ->result says why */
	/*
	 * Task releases (or wakes waiters of) a contended lock. Of class
	 * LB_LOCK_SCOPE: the entry of a scope's release function (no change
	 * to the layout; ledgers before it took every one as a release),
	 * ->lock the scope's lock as its scope_enter names it, ->count the
	 * scope's id.
	 */
	LB_EV_RELEASE,
	/*
	 * Since ABI 4: the task entered (returned from) a scope's acquire
	 * function; ->lock is the scope's lock, ->count the scope's id. The
	 * ledger makes the futex sleeps between them waits on that lock.
	 * Since ABI 5, a scope_exit with ->result LB_WAIT_ERROR is a span
	 * scope's end the module saw without its return (left by a longjmp).
	 */
	LB_EV_SCOPE_ENTER,
	LB_EV_SCOPE_EXIT,
	/*
	 * Since ABI 5: the task (the waker, from task context) woke ->owner,
	 * which is inside a span scope (LB_EF_SPAN); the scheduler's
	 * sched_waking. The ledger takes it as a release of the lock ->owner
	 * waits for.
	 */
	LB_EV_SCOPE_WAKE,
	LB_EV_TYPE_MAX
};

/* Why a wait ended (LB_EV_WAIT_END). */
enum lb_wait_result {
	LB_WAIT_ACQUIRED = 0,	/* mutex/rwsem/PI: the waiter now owns the lock */
	LB_WAIT_WOKEN,		/* futex: woken by futex_wake (usually takes the lock next) */
	LB_WAIT_TIMEOUT,	/* gave up: timeout */
	LB_WAIT_INTERRUPTED,	/* gave up: signal */
	LB_WAIT_AGAIN,		/* futex value changed before sleeping (EAGAIN) */
	LB_WAIT_ERROR,		/* any other error */
	LB_WAIT_RESULT_MAX
};

/* How the owner identity in an event was learnt. */
enum lb_owner_source {
	LB_OWNER_NONE = 0,	/* not known */
	LB_OWNER_LOCK_FIELD,	/* mutex/rwsem ->owner field: exact */
	LB_OWNER_PI_WORD,	/* PI futex word (owner TID): exact */
	LB_OWNER_HEURISTIC,	/* glibc pthread_mutex_t __owner (byte 8): a guess */
	LB_OWNER_READER_HINT,	/* reader-owned rwsem: only the last reader is hinted */
	LB_OWNER_SOURCE_MAX
};

/* lb_event.flags */
#define LB_EF_READ		0x0001	/* rwsem: read side */
#define LB_EF_WRITE		0x0002	/* rwsem: write side */
#define LB_EF_SHARED_KEY	0x0004	/* futex: process-shared key; scope: every process's lock */
#define LB_EF_KTHREAD		0x0008	/* task is a kernel thread */
#define LB_EF_OWNER_KTHREAD	0x0010	/* owner is a kernel thread */
#define LB_EF_NOSLEEP		0x0020	/* wait ended without sleeping */
/*
 * LB_EV_RELEASE of a futex by an exiting thread on its clear_child_tid word:
 * the wake pthread_join() waits for. That futex is not a lock, and the
 * waits it ends are not contention.
 */
#define LB_EF_THREAD_EXIT	0x0040
/*
 * futex wait: ->word holds the value the waiter expected; futex release:
 * the value the releaser's futex_wake found (see struct lb_event)
 */
#define LB_EF_WORD		0x0080
/* futex wait: the word's TID bits name a live thread (a join-shaped word) */
#define LB_EF_WORD_TID		0x0100
/* futex wake: the waker asked to wake more than one waiter (a broadcast) */
#define LB_EF_WAKE_MANY		0x0200
/* ->run_delay_ns / ->owner_run_delay_ns were read (0 is a reading: never waited for a CPU) */
#define LB_EF_RUN_DELAY		0x0400
#define LB_EF_OWNER_RUN_DELAY	0x0800
/*
 * LB_EV_RELEASE: the task let go of a lock that others still hold, and woke
 * nobody (an rwsem reader leaving while other readers remain and a writer
 * waits); ->count is how many holders remain. Its last holder's release is
 * an LB_EV_RELEASE of its own.
 */
#define LB_EF_LEFT		0x1000
/*
 * LB_EV_SCOPE_ENTER of a span scope (since ABI 5): the whole call is one
 * wait on the scope's lock, whatever the task sleeps on (a futex, epoll, a
 * pipe); a wake of it by another task (LB_EV_SCOPE_WAKE) releases the lock.
 */
#define LB_EF_SPAN		0x2000

/* Identity of a task, copied when the event happens (the task may exit). */
struct lb_task_id {
	__s32 pid;		/* thread id, as seen from the initial pid namespace */
	__s32 tgid;		/* process id */
	char comm[LB_COMM_LEN];	/* NUL-padded, not necessarily printable */
	char pcomm[LB_COMM_LEN];/* the process's name: its thread group leader's comm */
	/*
	 * The task's cgroup v2 (default hierarchy) id: the inode number of its
	 * directory under the cgroup2 mount. 0: not known (no CONFIG_CGROUPS,
	 * or not readable). Since ABI 3.
	 */
	__u64 cgroup;
};

/*
 * A futex WAIT_END with ->lock == 0 ends whatever futex wait the task has
 * open: the waiter's side of a futex sleep does not know its key at the end.
 *
 * One event: fixed size, written by a probe handler into its CPU's ring.
 * Lock identities are keyed hashes (never raw kernel addresses): the same
 * kernel lock or the same futex key gives the same ->lock for one load of the
 * module, and two processes on one shared futex get one ->lock.
 */
struct lb_event {
	__u64 ts_ns;		/* ktime_get_mono_fast_ns(): one clock for all CPUs */
	__u64 lock;		/* lock identity (keyed hash) */
	__u64 cpu_ns;		/* task's on-CPU time so far (sum_exec_runtime) */
	__u64 owner_cpu_ns;	/* owner's on-CPU time so far, if owner known */
	/*
	 * Time spent runnable but not running so far (sched_info.run_delay),
	 * of the task and of the owner; read only where LB_EF_RUN_DELAY and
	 * LB_EF_OWNER_RUN_DELAY say so (not without CONFIG_SCHED_INFO, nor
	 * without an owner), and then 0 is a reading. Since ABI 2.
	 */
	__u64 run_delay_ns;
	__u64 owner_run_delay_ns;
	__u8 type;		/* enum lb_event_type */
	__u8 lock_class;	/* enum lb_lock_class */
	__u8 result;		/* enum lb_wait_result, for LB_EV_WAIT_END */
	__u8 owner_source;	/* enum lb_owner_source */
	__u16 flags;		/* LB_EF_* */
	__u16 cpu;		/* CPU the event was recorded on */
	__u32 count;		/* LB_EV_RELEASE of a futex: tasks woken */
	__u32 stack_id;		/* kernel stack id in "stacks", 0 if none */
	__u32 ustack_id;	/* user stack id in "stacks", 0 if none */
	__u32 word;		/* futex (LB_EF_WORD): the word, expected or at the wake */
	struct lb_task_id task;	/* the task the event happened to (current) */
	struct lb_task_id owner;/* lock owner at this moment, per owner_source */
	/*
	 * Since ABI 3. ->uaddr: a futex event's word, a user address
	 * in ->task's process (0 if not known); the reader names the futex
	 * from it. ->name_id: a kernel lock's name in debugfs "names" (a
	 * string the module verified: never an address), 0 if unnamed.
	 */
	__u64 uaddr;
	__u32 name_id;
	__u32 reserved;		/* 0 */
};

/* The longest name in "names", with its NUL. */
#define LB_LOCK_NAME_LEN	48

/*
 * The binary stream (debugfs "events") starts with this header, then carries
 * whole struct lb_event records. A reader must check magic, abi_version and
 * record_size before trusting any record.
 */
struct lb_stream_header {
	__u32 magic;		/* LB_STREAM_MAGIC */
	__u16 abi_version;	/* LB_ABI_VERSION */
	__u16 header_size;	/* sizeof(struct lb_stream_header) */
	__u32 record_size;	/* sizeof(struct lb_event) */
	__u32 nr_cpus;		/* possible CPUs when the stream was opened */
	__u64 start_ns;		/* clock of ts_ns when the module was loaded */
};

#endif /* _LOCKBLAME_ABI_H */
