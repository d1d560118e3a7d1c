// SPDX-License-Identifier: GPL-2.0
/*
 * Event cases: the waiters block until another thread does something (a
 * signal, a post, the last arrival, an exit), not until a lock is freed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "kinds.h"
#include "kinds-cases.h"

#define TICK_MS		8

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static unsigned int tokens, generation, nrounds, nparties;
static bool stop;
static sem_t sem;
static pthread_barrier_t barrier;

/* cond: one token per tick, handed out by pthread_cond_signal. */
static void *cond_taker(void *arg)
{
	int slot = kind_waiter();
	uint64_t start;

	(void)arg;
	pthread_mutex_lock(&lock);
	for (;;) {
		while (!tokens && !stop) {
			start = kind_now();
			pthread_cond_wait(&cond, &lock);
			kind_waited(slot, start);
		}
		if (!tokens)
			break;
		tokens--;
	}
	pthread_mutex_unlock(&lock);
	return NULL;
}

static void run_cond(unsigned int rounds)
{
	unsigned int i;

	kind_threads(KIND_WAITERS, cond_taker, NULL);
	for (i = 0; i < rounds * KIND_WAITERS; i++) {
		kind_sleep_ms(TICK_MS);
		pthread_mutex_lock(&lock);
		tokens++;
		pthread_cond_signal(&cond);
		pthread_mutex_unlock(&lock);
	}
	kind_sleep_ms(TICK_MS);
	pthread_mutex_lock(&lock);
	stop = true;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	kind_threads(0, NULL, NULL);
}

/* cond-broadcast: every tick wakes all waiters. */
static void *cond_watcher(void *arg)
{
	int slot = kind_waiter();
	unsigned int seen = 0;
	uint64_t start;

	(void)arg;
	pthread_mutex_lock(&lock);
	while (!stop) {
		while (generation == seen && !stop) {
			start = kind_now();
			pthread_cond_wait(&cond, &lock);
			kind_waited(slot, start);
		}
		seen = generation;
	}
	pthread_mutex_unlock(&lock);
	return NULL;
}

static void run_cond_broadcast(unsigned int rounds)
{
	unsigned int i;

	kind_threads(KIND_WAITERS, cond_watcher, NULL);
	for (i = 0; i < rounds; i++) {
		kind_sleep_ms(TICK_MS);
		pthread_mutex_lock(&lock);
		generation++;
		stop = i + 1 == rounds;
		pthread_cond_broadcast(&cond);
		pthread_mutex_unlock(&lock);
	}
	kind_threads(0, NULL, NULL);
}

/* sem: one post per tick. */
static void *sem_taker(void *arg)
{
	int slot = kind_waiter();
	uint64_t start;
	unsigned int r;

	(void)arg;
	for (r = 0; r < nrounds; r++) {
		if (!sem_trywait(&sem))
			continue;
		start = kind_now();
		while (sem_wait(&sem) && errno == EINTR)
			;
		kind_waited(slot, start);
	}
	return NULL;
}

static void run_sem(unsigned int rounds)
{
	unsigned int i;

	nrounds = rounds;
	if (sem_init(&sem, 0, 0))
		kind_die("sem_init", errno);
	kind_threads(KIND_WAITERS, sem_taker, NULL);
	for (i = 0; i < rounds * KIND_WAITERS; i++) {
		kind_sleep_ms(TICK_MS);
		sem_post(&sem);
	}
	kind_threads(0, NULL, NULL);
	sem_destroy(&sem);
}

/*
 * barrier: each round one party arrives a tick late; the others wait.
 * glibc's waiters sleep on the round counter, expecting the round's first
 * arrival count (0, N, 2N, ... for N parties) and woken when the last
 * arrival adds N: with 2 or 3 parties the second round's word is 2 or 3,
 * as a contended lock's would be.
 */
static void *barrier_party(void *arg)
{
	unsigned int me = (unsigned int)(uintptr_t)arg, r;
	int slot = kind_waiter();
	uint64_t start;

	for (r = 0; r < nrounds; r++) {
		if (r % nparties == me)
			kind_sleep_ms(TICK_MS);
		start = kind_now();
		pthread_barrier_wait(&barrier);
		if (r % nparties != me)
			kind_waited(slot, start);
	}
	return NULL;
}

static void barrier_case(unsigned int rounds, unsigned int parties)
{
	unsigned int i;
	int err;

	nrounds = rounds;
	nparties = parties;
	err = pthread_barrier_init(&barrier, NULL, parties);
	if (err)
		kind_die("pthread_barrier_init", err);
	for (i = 0; i < parties; i++)
		kind_threads(1, barrier_party, (void *)(uintptr_t)i);
	kind_threads(0, NULL, NULL);
	pthread_barrier_destroy(&barrier);
}

static void run_barrier(unsigned int rounds)
{
	barrier_case(rounds, KIND_WAITERS + 1);
}

static void run_barrier2(unsigned int rounds)
{
	barrier_case(rounds, 2);
}

static void run_barrier3(unsigned int rounds)
{
	barrier_case(rounds, 3);
}

/* join: each joiner waits for a child that sleeps a tick and exits. */
static void *join_child(void *arg)
{
	(void)arg;
	kind_sleep_ms(TICK_MS);
	return NULL;
}

static void *joiner(void *arg)
{
	int slot = kind_waiter();
	uint64_t start;
	pthread_t child;
	unsigned int r;
	int err;

	(void)arg;
	for (r = 0; r < nrounds; r++) {
		err = pthread_create(&child, NULL, join_child, NULL);
		if (err)
			kind_die("pthread_create", err);
		start = kind_now();
		err = pthread_join(child, NULL);
		if (err)
			kind_die("pthread_join", err);
		kind_waited(slot, start);
	}
	return NULL;
}

static void run_join(unsigned int rounds)
{
	nrounds = rounds;
	kind_threads(KIND_WAITERS, joiner, NULL);
	kind_threads(0, NULL, NULL);
}

const struct kind_case_def kind_event_cases[] = {
	{ "cond", "event", run_cond },
	{ "cond-broadcast", "event", run_cond_broadcast },
	{ "sem", "event", run_sem },
	{ "barrier", "event", run_barrier },
	{ "barrier2", "event", run_barrier2 },
	{ "barrier3", "event", run_barrier3 },
	{ "join", "event", run_join },
	{ NULL, NULL, NULL },
};
