// SPDX-License-Identifier: GPL-2.0
/*
 * lb-chain: a chain of holders. C holds the deepest lock for long; each
 * middle task holds its lock while waiting for the next one; A waits for
 * the first: A's waiting is the first middle's blame, and flows on along
 * the chain to C, the root cause. -n LOCKS sets the chain's length: 2 (the
 * default: A, B, C on lock1 and lock2) up to 6 (middles b to b5).
 *
 * With -p the last lock is a pipe's kernel mutex (pipe->mutex), not a
 * futex. C holds it for hold_ms inside a write() to the pipe: the page it
 * writes from is missing, and a userfaultfd handler thread fills it only
 * after hold_ms (or after computing for hold_ms with -P), so pipe_write's
 * copy waits in the fault with the mutex held. C then reads the pipe empty.
 * The last middle waits for the mutex in a one-byte write. The truth times
 * the calls: C's hold is its write and read, the middle's wait its write
 * (the copy of one byte, outside the wait, is the error).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "truth.h"

static struct {
	struct lb_truth *truth;
	pthread_mutex_t lock[LB_MAX_LOCKS];
	unsigned int nlocks;
	struct lb_start start;
	uint64_t end_ns;
	uint64_t hold_ns;	/* C's critical section */
	bool holder_sleeps;
	bool pipe_last;		/* -p: the last lock is a pipe's mutex */
	bool fault_spins;	/* -P: the fault handler computes, not sleeps */
	int pipe[2];
	int uffd;
	char *page;		/* what C writes from: missing until the handler fills it */
} g = {
	.hold_ns = 20000000,
	.nlocks = 2,
};

/*
 * Off-lock pauses: C comes back first, then the middles from the deepest
 * up, then A, so that A finds the first lock held by a middle that is
 * blocked on the next, and so on to C.
 */
#define C_PAUSE_NS	1000000
#define MIDDLE_PAUSE_NS	1000000	/* each middle, one more than the one below */
#define A_PAUSE_NS	500000
#define BRIEF_NS	200000

#define PAGE	4096

/*
 * -p: fills C's page once hold_ms has passed since C's write faulted on it
 * under the pipe's mutex. Not an actor: it waits in read(), no lock.
 */
static void *fault_handler(void *arg)
{
	static char fill[PAGE];
	struct uffdio_copy copy;
	struct uffd_msg msg;

	(void)arg;
	memset(fill, 'c', sizeof(fill));
	for (;;) {
		if (read(g.uffd, &msg, sizeof(msg)) != sizeof(msg))
			lb_die("read userfaultfd");
		if (msg.event != UFFD_EVENT_PAGEFAULT)
			continue;
		if (g.fault_spins)
			lb_spin_ns(g.hold_ns);
		else
			lb_sleep_ns(g.hold_ns);
		copy = (struct uffdio_copy){
			.dst = (unsigned long)g.page, .src = (unsigned long)fill, .len = PAGE,
		};
		if (ioctl(g.uffd, UFFDIO_COPY, &copy) && errno != EEXIST)
			lb_die("UFFDIO_COPY");
	}
	return NULL;
}

static void pipe_setup(void)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	pthread_t th;

	if (pipe(g.pipe))
		lb_die("pipe");
	g.uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	if (g.uffd < 0 || ioctl(g.uffd, UFFDIO_API, &api))
		lb_die("userfaultfd (root, or vm.unprivileged_userfaultfd=1)");
	g.page = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (g.page == MAP_FAILED)
		lb_die("mmap");
	reg.range.start = (unsigned long)g.page;
	reg.range.len = PAGE;
	if (ioctl(g.uffd, UFFDIO_REGISTER, &reg))
		lb_die("UFFDIO_REGISTER");
	lb_thread(&th, fault_handler, NULL);
}

/* -p: C holds the pipe's mutex through its write's fault, then drains the pipe. */
static void pipe_hold(struct lb_actor *a, unsigned int lock)
{
	static char buf[PAGE * 4];

	/* Missing again: the write below faults under the mutex. */
	if (madvise(g.page, PAGE, MADV_DONTNEED))
		lb_die("madvise");
	lb_hold_begin(a, lock, lb_now());
	if (write(g.pipe[1], g.page, PAGE) != PAGE)
		lb_die("write to the pipe");
	/* C's page and the middle's bytes: far less than the pipe holds. */
	if (read(g.pipe[0], buf, sizeof(buf)) < PAGE)
		lb_die("read from the pipe");
	lb_hold_end(a, lock);
}

/* -p: the last middle waits for the pipe's mutex in a one-byte write. */
static void pipe_wait(struct lb_actor *a, unsigned int lock)
{
	uint64_t start = lb_now();

	if (write(g.pipe[1], "b", 1) != 1)
		lb_die("write to the pipe");
	lb_wait_span(a, lock, start);
}

static void *task_c(void *arg)
{
	unsigned int last = g.nlocks - 1;
	struct lb_actor *a = lb_actor_start(g.truth, g.nlocks, "c", "lb-chain-c",
					    "cause");

	(void)arg;
	lb_start_wait(&g.start);
	while (lb_now() < g.end_ns && lb_actor_room(a)) {
		if (g.pipe_last) {
			pipe_hold(a, last);
			lb_sleep_ns(C_PAUSE_NS);
			continue;
		}
		lb_lock(a, last, &g.lock[last]);
		if (g.holder_sleeps)
			lb_sleep_ns(g.hold_ns);
		else
			lb_spin_ns(g.hold_ns);
		lb_unlock(a, last, &g.lock[last]);
		lb_sleep_ns(C_PAUSE_NS);
	}
	return NULL;
}

/*
 * Middle @k (1 is next to A) holds lock k-1 while it waits for lock k. It
 * passes on the blame of its hold: it keeps little, a victim.
 */
static void *task_middle(void *arg)
{
	static const char *const names[LB_MAX_LOCKS] = { "", "b", "b2", "b3", "b4", "b5" };
	static const char *const comms[LB_MAX_LOCKS] = {
		"", "lb-chain-b", "lb-chain-b2", "lb-chain-b3", "lb-chain-b4", "lb-chain-b5",
	};
	unsigned int k = (unsigned int)(uintptr_t)arg;
	struct lb_actor *a = lb_actor_start(g.truth, k, names[k], comms[k], "victim");
	uint64_t pause = C_PAUSE_NS + MIDDLE_PAUSE_NS * (g.nlocks - k);

	bool to_pipe = g.pipe_last && k == g.nlocks - 1;

	lb_start_wait(&g.start);
	lb_sleep_ns(C_PAUSE_NS);
	while (lb_now() < g.end_ns && lb_actor_room(a)) {
		lb_lock(a, k - 1, &g.lock[k - 1]);
		if (to_pipe) {
			pipe_wait(a, k);
			lb_spin_ns(BRIEF_NS);
		} else {
			lb_lock(a, k, &g.lock[k]);
			lb_spin_ns(BRIEF_NS);
			lb_unlock(a, k, &g.lock[k]);
		}
		lb_unlock(a, k - 1, &g.lock[k - 1]);
		lb_sleep_ns(pause);
	}
	return NULL;
}

static void *task_a(void *arg)
{
	struct lb_actor *a = lb_actor_start(g.truth, 0, "a", "lb-chain-a",
					    "victim");

	(void)arg;
	lb_start_wait(&g.start);
	lb_sleep_ns(C_PAUSE_NS + MIDDLE_PAUSE_NS * g.nlocks);
	while (lb_now() < g.end_ns && lb_actor_room(a)) {
		lb_lock(a, 0, &g.lock[0]);
		lb_spin_ns(BRIEF_NS);
		lb_unlock(a, 0, &g.lock[0]);
		lb_sleep_ns(A_PAUSE_NS);
	}
	return NULL;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: lb-chain [-d ms] [-H hold_ms] [-n locks] [-s] [-p [-P]]\n"
		"  C holds the last lock for hold_ms (busy, or asleep with -s); each\n"
		"  middle (b, b2, ...) takes its lock, then the next; A takes lock1.\n"
		"  locks: 2 (default) to %d. The root cause of all the waiting is C.\n"
		"  -p: the last lock is a pipe's mutex, held by C for hold_ms in a\n"
		"  write() whose page fault a userfaultfd handler answers late\n"
		"  (-P: after computing, not sleeping).\n",
		LB_MAX_LOCKS);
	exit(2);
}

int main(int argc, char **argv)
{
	static const char *const lock_names[LB_MAX_LOCKS] = {
		"lock1", "lock2", "lock3", "lock4", "lock5", "lock6",
	};
	unsigned long duration_ms = 1000, i, nthreads;
	pthread_t th[LB_MAX_LOCKS + 1];
	int opt;

	while ((opt = getopt(argc, argv, "d:H:n:spP")) != -1) {
		switch (opt) {
		case 'd':
			duration_ms = lb_arg(optarg, "-d");
			break;
		case 'H':
			g.hold_ns = lb_arg(optarg, "-H") * 1000000;
			break;
		case 'n':
			g.nlocks = lb_arg(optarg, "-n");
			break;
		case 's':
			g.holder_sleeps = true;
			break;
		case 'p':
			g.pipe_last = true;
			break;
		case 'P':
			g.fault_spins = true;
			break;
		default:
			usage();
		}
	}
	if (optind != argc || g.nlocks < 2 || g.nlocks > LB_MAX_LOCKS ||
	    (g.fault_spins && !g.pipe_last))
		usage();
	if (g.pipe_last)
		pipe_setup();

	nthreads = g.nlocks + 1;
	g.truth = lb_truth_create(nthreads, 16384);
	for (i = 0; i < g.nlocks; i++) {
		if (g.pipe_last && i == g.nlocks - 1)
			lb_truth_lock(g.truth, i, "pipe", "mutex");
		else
			lb_truth_lock(g.truth, i, lock_names[i], "futex");
		lb_mutex_init(&g.lock[i], false);
	}
	lb_start_init(&g.start, nthreads + 1);

	lb_thread(&th[0], task_a, NULL);
	for (i = 1; i < g.nlocks; i++)
		lb_thread(&th[i], task_middle, (void *)(uintptr_t)i);
	lb_thread(&th[g.nlocks], task_c, NULL);
	g.end_ns = lb_now() + duration_ms * 1000000;
	lb_start_wait(&g.start);
	lb_join(th, nthreads);

	printf("truth workload=lb-chain duration_ms=%lu hold_ns=%llu holder=%s locks=%u last=%s\n",
	       duration_ms, (unsigned long long)g.hold_ns,
	       g.holder_sleeps || (g.pipe_last && !g.fault_spins) ? "sleeping" : "computing",
	       g.nlocks, g.pipe_last ? "pipe" : "futex");
	lb_truth_print(g.truth);
	return 0;
}
