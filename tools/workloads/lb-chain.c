// SPDX-License-Identifier: GPL-2.0
/*
 * lb-chain: C holds lock2 for long, B holds lock1 while waiting for lock2,
 * A waits for lock1: A's waiting is B's blame, and flows on to C, the root
 * cause.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "truth.h"

enum { LOCK1, LOCK2 };

static struct {
	struct lb_truth *truth;
	pthread_mutex_t lock[2];
	struct lb_start start;
	uint64_t end_ns;
	uint64_t hold_ns;	/* C's critical section */
	bool holder_sleeps;
} g = {
	.hold_ns = 20000000,
};

/*
 * Off-lock pauses: C comes back first, then B, so that A finds lock1 held
 * by a B that is blocked on C.
 */
#define C_PAUSE_NS	1000000
#define B_PAUSE_NS	2000000
#define A_PAUSE_NS	500000
#define BRIEF_NS	200000

static void *task_c(void *arg)
{
	struct lb_actor *a = lb_actor_start(g.truth, 2, "c", "lb-chain-c",
					    "cause");

	(void)arg;
	lb_start_wait(&g.start);
	while (lb_now() < g.end_ns && lb_actor_room(a)) {
		lb_lock(a, LOCK2, &g.lock[LOCK2]);
		if (g.holder_sleeps)
			lb_sleep_ns(g.hold_ns);
		else
			lb_spin_ns(g.hold_ns);
		lb_unlock(a, LOCK2, &g.lock[LOCK2]);
		lb_sleep_ns(C_PAUSE_NS);
	}
	return NULL;
}

static void *task_b(void *arg)
{
	/* B passes on the blame of its hold: it keeps little, a victim. */
	struct lb_actor *a = lb_actor_start(g.truth, 1, "b", "lb-chain-b",
					    "victim");

	(void)arg;
	lb_start_wait(&g.start);
	lb_sleep_ns(C_PAUSE_NS);
	while (lb_now() < g.end_ns && lb_actor_room(a)) {
		lb_lock(a, LOCK1, &g.lock[LOCK1]);
		lb_lock(a, LOCK2, &g.lock[LOCK2]);
		lb_spin_ns(BRIEF_NS);
		lb_unlock(a, LOCK2, &g.lock[LOCK2]);
		lb_unlock(a, LOCK1, &g.lock[LOCK1]);
		lb_sleep_ns(B_PAUSE_NS);
	}
	return NULL;
}

static void *task_a(void *arg)
{
	struct lb_actor *a = lb_actor_start(g.truth, 0, "a", "lb-chain-a",
					    "victim");

	(void)arg;
	lb_start_wait(&g.start);
	lb_sleep_ns(B_PAUSE_NS);
	while (lb_now() < g.end_ns && lb_actor_room(a)) {
		lb_lock(a, LOCK1, &g.lock[LOCK1]);
		lb_spin_ns(BRIEF_NS);
		lb_unlock(a, LOCK1, &g.lock[LOCK1]);
		lb_sleep_ns(A_PAUSE_NS);
	}
	return NULL;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: lb-chain [-d ms] [-H hold_ms] [-s]\n"
		"  C holds lock2 for hold_ms (busy, or asleep with -s); B takes lock1\n"
		"  then lock2; A takes lock1. The root cause of A's waiting is C.\n");
	exit(2);
}

int main(int argc, char **argv)
{
	void *(*fn[3])(void *) = { task_a, task_b, task_c };
	unsigned long duration_ms = 1000, i;
	pthread_t th[3];
	int opt;

	while ((opt = getopt(argc, argv, "d:H:s")) != -1) {
		switch (opt) {
		case 'd':
			duration_ms = lb_arg(optarg, "-d");
			break;
		case 'H':
			g.hold_ns = lb_arg(optarg, "-H") * 1000000;
			break;
		case 's':
			g.holder_sleeps = true;
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	g.truth = lb_truth_create(3, 16384);
	lb_truth_lock(g.truth, LOCK1, "lock1", "futex");
	lb_truth_lock(g.truth, LOCK2, "lock2", "futex");
	lb_mutex_init(&g.lock[LOCK1], false);
	lb_mutex_init(&g.lock[LOCK2], false);
	lb_start_init(&g.start, 4);

	for (i = 0; i < 3; i++)
		lb_thread(&th[i], fn[i], NULL);
	g.end_ns = lb_now() + duration_ms * 1000000;
	lb_start_wait(&g.start);
	lb_join(th, 3);

	printf("truth workload=lb-chain duration_ms=%lu hold_ns=%llu holder=%s\n",
	       duration_ms, (unsigned long long)g.hold_ns,
	       g.holder_sleeps ? "sleeping" : "computing");
	lb_truth_print(g.truth);
	return 0;
}
