// SPDX-License-Identifier: GPL-2.0
/*
 * lb-chain: a chain of holders. C holds the deepest lock for long; each
 * middle task holds its lock while waiting for the next one; A waits for
 * the first: A's waiting is the first middle's blame, and flows on along
 * the chain to C, the root cause. -n LOCKS sets the chain's length: 2 (the
 * default: A, B, C on lock1 and lock2) up to 6 (middles b to b5).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
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

static void *task_c(void *arg)
{
	unsigned int last = g.nlocks - 1;
	struct lb_actor *a = lb_actor_start(g.truth, g.nlocks, "c", "lb-chain-c",
					    "cause");

	(void)arg;
	lb_start_wait(&g.start);
	while (lb_now() < g.end_ns && lb_actor_room(a)) {
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

	lb_start_wait(&g.start);
	lb_sleep_ns(C_PAUSE_NS);
	while (lb_now() < g.end_ns && lb_actor_room(a)) {
		lb_lock(a, k - 1, &g.lock[k - 1]);
		lb_lock(a, k, &g.lock[k]);
		lb_spin_ns(BRIEF_NS);
		lb_unlock(a, k, &g.lock[k]);
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
		"usage: lb-chain [-d ms] [-H hold_ms] [-n locks] [-s]\n"
		"  C holds the last lock for hold_ms (busy, or asleep with -s); each\n"
		"  middle (b, b2, ...) takes its lock, then the next; A takes lock1.\n"
		"  locks: 2 (default) to %d. The root cause of all the waiting is C.\n",
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

	while ((opt = getopt(argc, argv, "d:H:n:s")) != -1) {
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
		default:
			usage();
		}
	}
	if (optind != argc || g.nlocks < 2 || g.nlocks > LB_MAX_LOCKS)
		usage();

	nthreads = g.nlocks + 1;
	g.truth = lb_truth_create(nthreads, 16384);
	for (i = 0; i < g.nlocks; i++) {
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

	printf("truth workload=lb-chain duration_ms=%lu hold_ns=%llu holder=%s locks=%u\n",
	       duration_ms, (unsigned long long)g.hold_ns,
	       g.holder_sleeps ? "sleeping" : "computing", g.nlocks);
	lb_truth_print(g.truth);
	return 0;
}
