// SPDX-License-Identifier: GPL-2.0
/*
 * lb-semq: a lock built in the manner of PostgreSQL's LWLocks, for lock
 * scopes (issue 25). The lock is an atomic state word and a FIFO queue of
 * waiters; a thread that finds it held queues itself and sleeps on its OWN
 * POSIX semaphore (sem_wait), never on the lock word, and the releaser
 * dequeues the first waiter and hands the lock over with sem_post. To the
 * kernel every such sleep is a futex wait on a counter that reads 0: an
 * event wait, signalled by whoever released. Only a scope on
 * lb_semq_acquire() (its first argument, the lock's address, names the
 * lock) makes those sleeps waits on a lock and the signaller its holder.
 *
 * A hog takes the lock and holds it -H ms (asleep in nanosleep, or with -b
 * busy), lets it go, pauses -P ms, and again; -t victims each take it for
 * -B us and think 1 ms. Every thread times its own lb_semq_acquire calls
 * that had to queue (CLOCK_MONOTONIC around the call) and its holds; the
 * truth lines are computed from those as for the other workloads. With -x
 * there are two such locks, each with its own hog, the victims alternating.
 *
 * -L: the waiters sleep on a latch instead, in the manner of PostgreSQL's
 * (WaitLatch: a wait on a file descriptor, no futex): each thread's own
 * eventfd, the waiter in poll() on it until the releaser writes it. The
 * slow path, queue and sleep, is lb_semq_sleep(), called only when the lock
 * was found held: the function a span scope is planted on (its first
 * argument the lock), as on PostgreSQL's ProcSleep. Without one, none of
 * these sleeps is a futex wait. The truth is timed as without -L (around
 * the whole acquire, the waits that queued), and its workload line adds
 * wait=latch and sleep_calls=N, the calls made to lb_semq_sleep (all of
 * them queued but any that found the lock let go in the meantime).
 *
 * The queued wait in lb_semq_acquire is marked by two USDT probes with
 * semaphores, as PostgreSQL marks its LWLock waits (lwlock__wait__start and
 * lwlock__wait__done): lb_semq:wait__start and lb_semq:wait__done, the
 * lock's address their argument. They are reached only while a tracer has
 * counted their semaphores up; the workload line's usdt_waits=N counts the
 * waits that passed the start probe so (0 with no probe planted).
 *
 * -C: the lock is built on a condition variable instead, as CPython's GIL
 * and HotSpot's PlatformEvent are: a flag under a pthread mutex, a waiter
 * in pthread_cond_wait until the flag is down, the releaser lowering it and
 * signalling. lb_semq_acquire and lb_semq_release take that path, so the
 * same scope covers it; no queue, no hand-over: a thread that comes while
 * the flag is down takes the lock, even before the one signalled (it then
 * waits again). The workload line adds wait=condvar.
 *
 * -O prints the file offset of lb_semq_acquire in this executable (what
 * "scope add PATH OFFSET" takes) and exits: the guest has no nm. -S does
 * the same for lb_semq_sleep, -R for lb_semq_release, the lock's release
 * function (a scope's "release="). The workload line's release_calls=N
 * counts the calls of lb_semq_release.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <link.h>
#include <poll.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

#include "truth.h"

#define MAX_VICTIMS	32
#define MAX_LOCKS	2
#define MAX_ACTORS	(MAX_VICTIMS + MAX_LOCKS)

#define LB_SEMQ_HELD	0x1U	/* somebody has the lock (or it is handed over) */
#define LB_SEMQ_QLOCKED	0x2U	/* the waiter queue is being changed */

/*
 * A thread's place in a queue: PostgreSQL's PGPROC, with its semaphore and
 * (-L) its latch, an eventfd (non-blocking) whose count is the hand-over.
 */
struct lb_semq_waiter {
	sem_t sem;
	struct lb_semq_waiter *next;
	int latch;
};

struct lb_semq {
	atomic_uint state;
	struct lb_semq_waiter *head, *tail;
	/* -C: the lock is @held, under @mutex; its waiters wait on @cond. */
	pthread_mutex_t mutex;
	pthread_cond_t cond;
	bool held;
};

/* The locks: globals, so that the scope's argument is a stable address. */
struct lb_semq lb_semq_locks[MAX_LOCKS];
static struct lb_semq_waiter waiters[MAX_ACTORS];
static __thread struct lb_semq_waiter *lb_semq_self;

static struct lb_truth *truth;
static struct lb_start start;
static uint64_t end_ns;
static uint64_t hold_ns = 20000000;	/* the hog's critical section */
static uint64_t pause_ns = 3000000;	/* the hog's time off the lock */
static uint64_t brief_ns = 100000;	/* the victims' critical section */
static uint64_t think_ns = 1000000;	/* the victims' time off the lock */
static bool hog_busy;
static bool latch;			/* -L */
static bool condvar;			/* -C */
static atomic_ulong sleep_calls;	/* -L: calls of lb_semq_sleep */
static atomic_ulong release_calls;	/* calls of lb_semq_release */
static atomic_ulong usdt_waits;		/* waits that passed lb_semq:wait__start */

/* The probes' semaphores: a tracer counts them up while it watches. */
unsigned short lb_semq_wait__start_semaphore __attribute__((section(".probes")));
unsigned short lb_semq_wait__done_semaphore __attribute__((section(".probes")));
static unsigned int nlocks = 1;

/* A pthread call's result: 0, or the error it returns (not in errno). */
static void lb_pthread(int err, const char *what)
{
	if (err) {
		errno = err;
		lb_die(what);
	}
}

static bool lb_semq_try(struct lb_semq *lock)
{
	unsigned int s = atomic_load(&lock->state);

	while (!(s & LB_SEMQ_HELD))
		if (atomic_compare_exchange_weak(&lock->state, &s, s | LB_SEMQ_HELD))
			return true;
	return false;
}

/*
 * The queue's own spin lock, a bit of the state word (LWLock's
 * LW_FLAG_LOCKED): held for a few instructions, so spin, then yield.
 */
static void lb_semq_qlock(struct lb_semq *lock)
{
	unsigned int spins = 0, s;

	for (;;) {
		s = atomic_load(&lock->state);
		if (!(s & LB_SEMQ_QLOCKED) &&
		    atomic_compare_exchange_weak(&lock->state, &s, s | LB_SEMQ_QLOCKED))
			return;
		if (++spins % 64 == 0)
			sched_yield();
	}
}

static void lb_semq_qunlock(struct lb_semq *lock)
{
	atomic_fetch_and(&lock->state, ~LB_SEMQ_QLOCKED);
}

/*
 * Puts @me at the end of @lock's queue; false, having taken the lock, when
 * it was released while the queue was being taken: no need to wait.
 */
static inline __attribute__((always_inline)) bool
lb_semq_queue(struct lb_semq *lock, struct lb_semq_waiter *me)
{
	lb_semq_qlock(lock);
	if (lb_semq_try(lock)) {
		lb_semq_qunlock(lock);
		return false;
	}
	me->next = NULL;
	if (lock->tail)
		lock->tail->next = me;
	else
		lock->head = me;
	lock->tail = me;
	lb_semq_qunlock(lock);
	return true;
}

/* -C: takes @lock, waiting on its condition variable while it is held. */
static inline __attribute__((always_inline)) bool lb_semq_acquire_cond(struct lb_semq *lock)
{
	bool waited = false;

	lb_pthread(pthread_mutex_lock(&lock->mutex), "pthread_mutex_lock");
	while (lock->held) {
		waited = true;
		lb_pthread(pthread_cond_wait(&lock->cond, &lock->mutex), "pthread_cond_wait");
	}
	lock->held = true;
	lb_pthread(pthread_mutex_unlock(&lock->mutex), "pthread_mutex_unlock");
	return waited;
}

/*
 * Takes @lock; true when the caller had to queue (and so slept, unless the
 * hand-over came first; -C: when it found the lock held and waited). The
 * function a scope is planted on: its first argument names the lock.
 */
__attribute__((noinline, used)) bool lb_semq_acquire(struct lb_semq *lock)
{
	struct lb_semq_waiter *me = lb_semq_self;

	if (condvar)
		return lb_semq_acquire_cond(lock);
	if (lb_semq_try(lock))
		return false;
	if (!lb_semq_queue(lock, me))
		return false;
	if (lb_semq_wait__start_semaphore) {
		atomic_fetch_add(&usdt_waits, 1);
		STAP_PROBE1(lb_semq, wait__start, lock);
	}
	/* Until the releaser hands the lock over: HELD stays set for us. */
	while (sem_wait(&me->sem))
		if (errno != EINTR)
			lb_die("sem_wait");
	if (lb_semq_wait__done_semaphore)
		STAP_PROBE1(lb_semq, wait__done, lock);
	return true;
}

/*
 * -L's slow path: queues the caller on @lock, held when it looked, and
 * sleeps on its latch (poll, then read the eventfd) until the releaser
 * hands the lock over; true when it queued. Called only to wait: the
 * function a span scope is planted on, its first argument the lock.
 */
__attribute__((noinline, used)) bool lb_semq_sleep(struct lb_semq *lock)
{
	struct lb_semq_waiter *me = lb_semq_self;
	struct pollfd pfd = { .fd = me->latch, .events = POLLIN };
	uint64_t n;

	if (!lb_semq_queue(lock, me))
		return false;
	/* Until the releaser writes the latch: HELD stays set for us. */
	for (;;) {
		if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
			lb_die("poll");
		if (read(me->latch, &n, sizeof(n)) == sizeof(n))
			return true;
		if (errno != EAGAIN && errno != EINTR)
			lb_die("read latch");
	}
}

/* -L: takes @lock, by lb_semq_sleep when it is held; true when it queued. */
static bool lb_semq_acquire_latch(struct lb_semq *lock)
{
	if (lb_semq_try(lock))
		return false;
	atomic_fetch_add(&sleep_calls, 1);
	return lb_semq_sleep(lock);
}

/*
 * Lets @lock go: to the first waiter, woken on its own semaphore (-L: its
 * latch), if any. A scope's release function: its first argument names
 * the lock, as lb_semq_acquire's does.
 */
__attribute__((noinline, used)) void lb_semq_release(struct lb_semq *lock)
{
	static const uint64_t one = 1;
	struct lb_semq_waiter *w;

	atomic_fetch_add(&release_calls, 1);
	if (condvar) {
		lb_pthread(pthread_mutex_lock(&lock->mutex), "pthread_mutex_lock");
		lock->held = false;
		lb_pthread(pthread_cond_signal(&lock->cond), "pthread_cond_signal");
		lb_pthread(pthread_mutex_unlock(&lock->mutex), "pthread_mutex_unlock");
		return;
	}
	lb_semq_qlock(lock);
	w = lock->head;
	if (!w) {
		atomic_fetch_and(&lock->state, ~(LB_SEMQ_HELD | LB_SEMQ_QLOCKED));
		return;
	}
	lock->head = w->next;
	if (!lock->head)
		lock->tail = NULL;
	lb_semq_qunlock(lock);
	if (latch) {
		if (write(w->latch, &one, sizeof(one)) != sizeof(one))
			lb_die("write latch");
	} else if (sem_post(&w->sem)) {
		lb_die("sem_post");
	}
}

static struct lb_span *span_add(struct lb_actor *a, enum lb_span_kind kind,
				unsigned int lock, uint64_t start_ns, uint64_t end)
{
	struct lb_span *s;

	if (a->nspans >= a->maxspans) {
		errno = ENOSPC;
		lb_die("span table full");
	}
	s = &a->spans[a->nspans++];
	memset(s, 0, sizeof(*s));
	s->start_ns = start_ns;
	s->end_ns = end;
	s->end_late_ns = end;
	s->run_delay_ns = UINT64_MAX;
	s->run_delay_late_ns = UINT64_MAX;
	s->lock = lock;
	s->kind = kind;
	return s;
}

/* Takes lock @i, timing the call as a wait when it had to queue. */
static void semq_lock(struct lb_actor *a, unsigned int i)
{
	uint64_t t0 = lb_now(), t1;
	bool waited = latch ? lb_semq_acquire_latch(&lb_semq_locks[i]) :
			      lb_semq_acquire(&lb_semq_locks[i]);

	t1 = lb_now();
	if (waited)
		span_add(a, LB_SPAN_WAIT, i, t0, t1);
	a->acquired_ns[i] = t1;
	a->acquired_cpu_ns[i] = lb_thread_cpu();
}

/* The hold ends when release is called; _late when it returned. */
static void semq_unlock(struct lb_actor *a, unsigned int i)
{
	uint64_t cpu = lb_thread_cpu() - a->acquired_cpu_ns[i];
	struct lb_span *s = span_add(a, LB_SPAN_HOLD, i, a->acquired_ns[i], lb_now());

	s->cpu_ns = cpu;
	lb_semq_release(&lb_semq_locks[i]);
	s->end_late_ns = lb_now();
	s->cpu_late_ns = lb_thread_cpu() - a->acquired_cpu_ns[i];
}

static void self_init(unsigned int slot)
{
	lb_semq_self = &waiters[slot];
}

static void *hog(void *arg)
{
	unsigned int i = (unsigned int)(uintptr_t)arg;
	char comm[LB_NAME_LEN];
	struct lb_actor *a;

	snprintf(comm, sizeof(comm), i ? "lb-semq-hog%u" : "lb-semq-hog", i);
	a = lb_actor_start(truth, i, "hog", comm, "cause");
	self_init(i);
	lb_start_wait(&start);
	while (lb_now() < end_ns && lb_actor_room(a)) {
		semq_lock(a, i);
		if (hog_busy)
			lb_spin_ns(hold_ns);
		else
			lb_sleep_ns(hold_ns);
		semq_unlock(a, i);
		lb_sleep_ns(pause_ns);
	}
	return NULL;
}

static void *victim(void *arg)
{
	unsigned int slot = (unsigned int)(uintptr_t)arg;
	unsigned int i = (slot - nlocks) % nlocks;
	char comm[LB_NAME_LEN];
	struct lb_actor *a;

	snprintf(comm, sizeof(comm), "lb-semq-vic-%u", slot - nlocks + 1);
	a = lb_actor_start(truth, slot, "victim", comm, "victim");
	self_init(slot);
	lb_start_wait(&start);
	/* Let the hog take the lock first. */
	lb_sleep_ns(think_ns);
	while (lb_now() < end_ns && lb_actor_room(a)) {
		semq_lock(a, i);
		lb_spin_ns(brief_ns);
		semq_unlock(a, i);
		lb_sleep_ns(think_ns);
	}
	return NULL;
}

struct offset_query {
	uintptr_t addr;		/* the function's run-time address */
	unsigned long offset;
	bool found;
};

/* The main program (the first object): the PT_LOAD segment holding addr. */
static int offset_of(struct dl_phdr_info *info, size_t size, void *data)
{
	struct offset_query *q = data;
	uintptr_t vaddr = q->addr - info->dlpi_addr;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD || vaddr < ph->p_vaddr ||
		    vaddr >= ph->p_vaddr + ph->p_memsz)
			continue;
		q->offset = vaddr - ph->p_vaddr + ph->p_offset;
		q->found = true;
	}
	return 1;
}

/*
 * -O: "lb_semq_acquire offset=0xOFF lock0=0xADDR lock1=0xADDR path=PATH": the
 * offset as "scope add" wants it, and the locks' addresses, the values of
 * the function's first argument. -S: the same for lb_semq_sleep, -R for
 * lb_semq_release.
 */
static int print_offset(const char *fn, uintptr_t addr)
{
	struct offset_query q = { .addr = addr };
	char path[512];
	ssize_t n;

	dl_iterate_phdr(offset_of, &q);
	n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	if (!q.found || n <= 0) {
		fprintf(stderr, "lb-semq: cannot find %s's file offset\n", fn);
		return 1;
	}
	path[n] = '\0';
	printf("%s offset=0x%lx lock0=%p lock1=%p path=%s\n", fn, q.offset,
	       (void *)&lb_semq_locks[0], (void *)&lb_semq_locks[1], path);
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: lb-semq [-d ms] [-t victims] [-H hold_ms] [-P pause_ms] [-B brief_us] [-T think_us] [-b] [-x] [-L | -C] | -O | -S | -R\n"
		"  a lock in the manner of PostgreSQL's LWLocks (atomic word, FIFO queue,\n"
		"  one semaphore per waiting thread): a hog holds it hold_ms (asleep; -b\n"
		"  busy) and pauses pause_ms; victims hold it brief_us and think think_us.\n"
		"  -x: two locks, two hogs, the victims alternating between them.\n"
		"  -L: each waiter sleeps on a latch, in poll() on its own eventfd, in\n"
		"      lb_semq_sleep(), which the releaser writes: no futex.\n"
		"  -C: the lock is a flag under a mutex, its waiters in pthread_cond_wait.\n"
		"  -O: print lb_semq_acquire's file offset in this executable and exit.\n"
		"  -S: print lb_semq_sleep's file offset in this executable and exit.\n"
		"  -R: print lb_semq_release's file offset in this executable and exit.\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long duration_ms = 1000, victims = 3, i, nactors;
	pthread_t th[MAX_ACTORS];
	int opt;

	while ((opt = getopt(argc, argv, "d:t:H:P:B:T:bxLCOSR")) != -1) {
		switch (opt) {
		case 'd':
			duration_ms = lb_arg(optarg, "-d");
			break;
		case 't':
			victims = lb_arg(optarg, "-t");
			break;
		case 'H':
			hold_ns = lb_arg(optarg, "-H") * 1000000;
			break;
		case 'P':
			pause_ns = lb_arg(optarg, "-P") * 1000000;
			break;
		case 'B':
			brief_ns = lb_arg(optarg, "-B") * 1000;
			break;
		case 'T':
			think_ns = lb_arg(optarg, "-T") * 1000;
			break;
		case 'b':
			hog_busy = true;
			break;
		case 'x':
			nlocks = 2;
			break;
		case 'L':
			latch = true;
			break;
		case 'C':
			condvar = true;
			break;
		case 'O':
			return print_offset("lb_semq_acquire", (uintptr_t)lb_semq_acquire);
		case 'S':
			return print_offset("lb_semq_sleep", (uintptr_t)lb_semq_sleep);
		case 'R':
			return print_offset("lb_semq_release", (uintptr_t)lb_semq_release);
		default:
			usage();
		}
	}
	if (optind != argc || !victims || victims > MAX_VICTIMS || (latch && condvar))
		usage();
	for (i = 0; i < MAX_LOCKS; i++) {
		lb_mutex_init(&lb_semq_locks[i].mutex, false);
		lb_pthread(pthread_cond_init(&lb_semq_locks[i].cond, NULL), "pthread_cond_init");
	}

	nactors = nlocks + victims;
	for (i = 0; i < nactors; i++) {
		if (sem_init(&waiters[i].sem, 0, 0))
			lb_die("sem_init");
		waiters[i].latch = -1;
		if (latch && (waiters[i].latch = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) < 0)
			lb_die("eventfd");
	}
	truth = lb_truth_create(nactors, 16384);
	if (nlocks == 1) {
		lb_truth_lock(truth, 0, "semq", "scope");
	} else {
		lb_truth_lock(truth, 0, "semq0", "scope");
		lb_truth_lock(truth, 1, "semq1", "scope");
	}
	lb_start_init(&start, nactors + 1);
	end_ns = lb_now() + duration_ms * 1000000;
	for (i = 0; i < nlocks; i++)
		lb_thread(&th[i], hog, (void *)(uintptr_t)i);
	for (i = nlocks; i < nactors; i++)
		lb_thread(&th[i], victim, (void *)(uintptr_t)i);
	lb_start_wait(&start);
	lb_join(th, nactors);

	printf("truth workload=lb-semq duration_ms=%lu victims=%lu locks=%u hold_ns=%llu pause_ns=%llu brief_ns=%llu think_ns=%llu holder=%s",
	       duration_ms, victims, nlocks, (unsigned long long)hold_ns,
	       (unsigned long long)pause_ns, (unsigned long long)brief_ns,
	       (unsigned long long)think_ns, hog_busy ? "computing" : "sleeping");
	if (latch)
		printf(" wait=latch sleep_calls=%lu", atomic_load(&sleep_calls));
	if (condvar)
		printf(" wait=condvar");
	printf(" release_calls=%lu usdt_waits=%lu\n", atomic_load(&release_calls),
	       atomic_load(&usdt_waits));
	lb_truth_print(truth);
	return 0;
}
