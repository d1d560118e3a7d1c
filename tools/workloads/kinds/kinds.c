// SPDX-License-Identifier: GPL-2.0
/*
 * The truth lines of the futex-kinds cases: each blocked thread's own
 * CLOCK_MONOTONIC time inside the primitive, under the case's label.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "kinds.h"

#define MAX_THREADS	16

struct kind_slot {
	int pid;
	uint64_t wait_ns;	/* written by its own thread only */
};

static pthread_t threads[MAX_THREADS];
static unsigned int nthreads;

/*
 * Joins poll, so that the main thread never futex-waits: only the case's
 * own threads block in the primitive under test.
 */
void kind_threads(unsigned int n, void *(*fn)(void *), void *arg)
{
	unsigned int i;
	int err;

	for (i = 0; i < n; i++) {
		if (nthreads == MAX_THREADS)
			kind_die("too many threads", ENOSPC);
		err = pthread_create(&threads[nthreads++], NULL, fn, arg);
		if (err)
			kind_die("pthread_create", err);
	}
	if (n)
		return;
	for (i = 0; i < nthreads; i++)
		while (pthread_tryjoin_np(threads[i], NULL) == EBUSY)
			kind_sleep_ms(1);
	nthreads = 0;
}

static const char *kind_truth = "";
static struct kind_slot slots[KIND_MAX_WAITERS];
static atomic_int nslots;

uint64_t kind_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void kind_sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int kind_tid(void)
{
	return (int)syscall(SYS_gettid);
}

void kind_die(const char *what, int err)
{
	fprintf(stderr, "lb-kinds: %s: %s\n", what, strerror(err));
	exit(1);
}

void kind_case(const char *runtime, const char *prim, const char *truth)
{
	kind_truth = truth;
	printf("kind-case runtime=%s prim=%s truth=%s\n", runtime, prim, truth);
	fflush(stdout);
}

int kind_waiter(void)
{
	int slot = atomic_fetch_add(&nslots, 1);

	if (slot >= KIND_MAX_WAITERS)
		kind_die("too many waiters", ENOSPC);
	slots[slot].pid = kind_tid();
	return slot;
}

void kind_waited(int slot, uint64_t start_ns)
{
	slots[slot].wait_ns += kind_now() - start_ns;
}

/* Only threads that really blocked are waiters. */
void kind_report(void)
{
	int i, n = atomic_load(&nslots);

	for (i = 0; i < n && i < KIND_MAX_WAITERS; i++)
		if (slots[i].wait_ns)
			printf("kind-waiter pid=%d truth=%s wait_ns=%llu\n",
			       slots[i].pid, kind_truth,
			       (unsigned long long)slots[i].wait_ns);
	fflush(stdout);
}
