// SPDX-License-Identifier: GPL-2.0
/*
 * lb-alternate: two threads take turns holding one mutex for equal times,
 * each waiting while the other holds it: shared control, neither is the
 * cause.
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "truth.h"

/*
 * How long the releaser waits for the other peer to take the lock before
 * trying again anyway (the other may have stopped), and how often it looks.
 */
#define HANDOFF_WAIT_NS	5000000
#define HANDOFF_POLL_NS	50000

static struct {
	struct lb_truth *truth;
	pthread_mutex_t lock;
	struct lb_start start;
	uint64_t end_ns;
	uint64_t hold_ns;
	atomic_uint turns;	/* acquisitions so far, by either peer */
} g = {
	.hold_ns = 10000000,
};

static void *peer(void *arg)
{
	unsigned int slot = (unsigned int)(uintptr_t)arg;
	char comm[LB_NAME_LEN];
	struct lb_actor *a;
	unsigned int mine;
	uint64_t give_up;

	snprintf(comm, sizeof(comm), "lb-peer-%u", slot + 1);
	a = lb_actor_start(g.truth, slot, "peer", comm, "shared");
	lb_start_wait(&g.start);
	while (lb_now() < g.end_ns && lb_actor_room(a)) {
		lb_lock(a, 0, &g.lock);
		mine = atomic_fetch_add(&g.turns, 1) + 1;
		lb_spin_ns(g.hold_ns);
		lb_unlock(a, 0, &g.lock);
		/*
		 * Hand the lock over: glibc's mutex is not fair, and without
		 * this the releaser would often take it straight back. Sleep
		 * rather than yield, or the new holder may share our CPU and
		 * keep us from queueing behind it until its slice ends.
		 */
		give_up = lb_now() + HANDOFF_WAIT_NS;
		while (atomic_load(&g.turns) == mine && lb_now() < give_up)
			lb_sleep_ns(HANDOFF_POLL_NS);
	}
	return NULL;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: lb-alternate [-d ms] [-H hold_ms]\n"
		"  two threads alternately hold one mutex for hold_ms each (busy).\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long duration_ms = 1000, i;
	pthread_t th[2];
	int opt;

	while ((opt = getopt(argc, argv, "d:H:")) != -1) {
		switch (opt) {
		case 'd':
			duration_ms = lb_arg(optarg, "-d");
			break;
		case 'H':
			g.hold_ns = lb_arg(optarg, "-H") * 1000000;
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	g.truth = lb_truth_create(2, 16384);
	lb_truth_lock(g.truth, 0, "mutex", "futex");
	lb_mutex_init(&g.lock, false);
	lb_start_init(&g.start, 3);

	for (i = 0; i < 2; i++)
		lb_thread(&th[i], peer, (void *)(uintptr_t)i);
	g.end_ns = lb_now() + duration_ms * 1000000;
	lb_start_wait(&g.start);
	lb_join(th, 2);

	printf("truth workload=lb-alternate duration_ms=%lu hold_ns=%llu turns=%u\n",
	       duration_ms, (unsigned long long)g.hold_ns,
	       atomic_load(&g.turns));
	lb_truth_print(g.truth);
	return 0;
}
