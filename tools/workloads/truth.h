/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ground truth for lockblame's workloads: every actor (thread or process)
 * times its own lock waits and holds, and the figures the ledger should
 * report are computed from those intervals after the run.
 */
#ifndef LB_TRUTH_H
#define LB_TRUTH_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define LB_MAX_LOCKS	6
#define LB_NAME_LEN	16

enum lb_span_kind {
	LB_SPAN_WAIT,		/* blocked in pthread_mutex_lock after trylock failed */
	LB_SPAN_HOLD,		/* from acquiring the lock to calling unlock */
};

struct lb_span {
	uint64_t start_ns;	/* CLOCK_MONOTONIC */
	uint64_t end_ns;	/* holds: just before unlock was called */
	uint64_t end_late_ns;	/* holds: when unlock returned; waits: end_ns */
	uint64_t cpu_ns;	/* holds: thread CPU time used during the hold */
	uint64_t run_delay_ns;	/* holds: time runnable, waiting for a CPU, in it */
	uint64_t cpu_late_ns;	/* holds: the same two up to end_late_ns */
	uint64_t run_delay_late_ns;
	uint16_t lock;		/* index into lb_truth.locks */
	uint8_t kind;		/* enum lb_span_kind */
	uint8_t fast;		/* holds: taken by a trylock, with no wait */
};

/*
 * One thread's record. It lives in MAP_SHARED memory so that forked
 * processes write theirs where the parent can read them.
 */
struct lb_actor {
	int32_t pid;		/* gettid(); 0 until the actor has started */
	int32_t tgid;		/* getpid() */
	char role[LB_NAME_LEN];
	char comm[LB_NAME_LEN];
	char expect[LB_NAME_LEN];	/* verdict the design implies, or "" */
	uint64_t ops;		/* kernel-lock workloads: syscalls timed */
	uint64_t op_ns;		/* time spent inside them */
	uint64_t bytes;		/* bytes they moved */
	uint32_t nspans;
	uint32_t maxspans;
	struct lb_span *spans;
	uint64_t acquired_ns[LB_MAX_LOCKS];	/* open hold, per lock */
	uint64_t acquired_cpu_ns[LB_MAX_LOCKS];
	uint64_t acquired_run_delay_ns[LB_MAX_LOCKS];
	uint8_t acquired_fast[LB_MAX_LOCKS];
	int schedstat_fd;	/* /proc/thread-self/schedstat, -1 if none */
};

struct lb_lock_info {
	char name[LB_NAME_LEN];
	char class[LB_NAME_LEN];	/* class the ledger should give it */
};

struct lb_truth {
	uint32_t nactors;
	uint32_t nlocks;
	size_t size;		/* of the whole shared mapping */
	struct lb_lock_info locks[LB_MAX_LOCKS];
	struct lb_actor *actors;
};

uint64_t lb_now(void);
uint64_t lb_thread_cpu(void);
/* The actor's run_delay so far (time runnable, not running); false if unknown. */
bool lb_run_delay(const struct lb_actor *a, uint64_t *ns);
void lb_sleep_ns(uint64_t ns);
void lb_spin_ns(uint64_t ns);
void lb_die(const char *what) __attribute__((noreturn));
unsigned long lb_arg(const char *s, const char *opt);
void *lb_shared_alloc(size_t size);

/* Shared-memory truth table for @nactors actors of up to @maxspans spans. */
struct lb_truth *lb_truth_create(unsigned int nactors, unsigned int maxspans);
/* The same, where the last @nidle actors never lock (they get no spans). */
struct lb_truth *lb_truth_create_idle(unsigned int nactors,
				      unsigned int maxspans,
				      unsigned int nidle);
void lb_truth_lock(struct lb_truth *t, unsigned int lock, const char *name,
		   const char *class);
/* Called by the actor's own thread: records its ids and sets its comm. */
struct lb_actor *lb_actor_start(struct lb_truth *t, unsigned int slot,
				const char *role, const char *comm,
				const char *expect);
/*
 * Called by the actor's own thread: time its holds' run_delay too (a read of
 * /proc/thread-self/schedstat at each end, about 0.2 ms under TCG), so that
 * its truth splits them into on-CPU, runnable and asleep.
 */
void lb_actor_track_run_delay(struct lb_actor *a);
/* True while the actor can record another lock/unlock round. */
bool lb_actor_room(const struct lb_actor *a);

void lb_lock(struct lb_actor *a, unsigned int lock, pthread_mutex_t *m);
void lb_unlock(struct lb_actor *a, unsigned int lock, pthread_mutex_t *m);
/*
 * A kernel lock taken inside a system call (a pipe's mutex): the caller
 * times the call. A hold runs from lb_hold_begin to lb_hold_end; a wait is
 * the call, from its start to now (lb_wait_span).
 */
void lb_hold_begin(struct lb_actor *a, unsigned int lock, uint64_t now);
struct lb_span *lb_hold_end(struct lb_actor *a, unsigned int lock);
void lb_wait_span(struct lb_actor *a, unsigned int lock, uint64_t start_ns);
void lb_actor_op(struct lb_actor *a, uint64_t start_ns, uint64_t bytes);

/*
 * A workload must not futex-wait on anything but its designed locks: the
 * kernel cannot tell a pthread barrier or a pthread_join from a contended
 * lock, and would rightly report them. So the start line and the joins
 * poll with nanosleep instead.
 */
struct lb_start {
	atomic_uint arrived;
	unsigned int count;
};

void lb_start_init(struct lb_start *s, unsigned int count);
void lb_start_wait(struct lb_start *s);
void lb_thread(pthread_t *th, void *(*fn)(void *), void *arg);
void lb_join(pthread_t *th, unsigned int n);

/* A mutex for threads, or with @pshared for processes (in shared memory). */
void lb_mutex_init(pthread_mutex_t *m, bool pshared);

/* Computes every actor's figures and prints the truth lines to stdout. */
void lb_truth_print(const struct lb_truth *t);

#endif /* LB_TRUTH_H */
