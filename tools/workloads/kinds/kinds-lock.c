// SPDX-License-Identifier: GPL-2.0
/*
 * Lock cases: a holder keeps the lock ~10 ms per round while the waiters
 * block on it. A wait is timed only after a try failed, so it is contended.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "kinds.h"
#include "kinds-cases.h"

#define HOLD_MS		10
#define PAUSE_MS	3

/* Who a lock case's thread is: the one holder, or a waiter. */
struct role {
	bool holder;
	bool write;	/* rwlock: takes it for writing */
};

static const struct role mutex_holder = { .holder = true };
static const struct role mutex_waiter = { .holder = false };
static const struct role writer_holder = { .holder = true, .write = true };
static const struct role reader_holder = { .holder = true, .write = false };
static const struct role writer_waiter = { .holder = false, .write = true };
static const struct role reader_waiter = { .holder = false, .write = false };

static pthread_mutex_t mutex;
static pthread_rwlock_t rwlock;
static atomic_bool done;
static unsigned int nrounds;

static void mutex_take(int slot)
{
	uint64_t start;
	int err = pthread_mutex_trylock(&mutex);

	if (err == EBUSY) {
		start = kind_now();
		err = pthread_mutex_lock(&mutex);
		kind_waited(slot, start);
	}
	if (err)
		kind_die("pthread_mutex_lock", err);
}

static void *mutex_actor(void *arg)
{
	const struct role *role = arg;
	int slot = kind_waiter();
	unsigned int r;

	if (role->holder) {
		for (r = 0; r < nrounds; r++) {
			mutex_take(slot);
			kind_sleep_ms(HOLD_MS);
			pthread_mutex_unlock(&mutex);
			kind_sleep_ms(PAUSE_MS);
		}
		atomic_store(&done, true);
		return NULL;
	}
	kind_sleep_ms(1);
	while (!atomic_load(&done)) {
		mutex_take(slot);
		pthread_mutex_unlock(&mutex);
		kind_sleep_ms(1);
	}
	return NULL;
}

static void mutex_case(unsigned int rounds, int type, int protocol,
		       bool robust)
{
	pthread_mutexattr_t attr;
	int err;

	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, type);
	if (protocol != PTHREAD_PRIO_NONE)
		pthread_mutexattr_setprotocol(&attr, protocol);
	if (robust)
		pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST);
	err = pthread_mutex_init(&mutex, &attr);
	if (err)
		kind_die("pthread_mutex_init", err);
	pthread_mutexattr_destroy(&attr);
	nrounds = rounds;
	atomic_store(&done, false);
	kind_threads(1, mutex_actor, (void *)&mutex_holder);
	kind_threads(KIND_WAITERS, mutex_actor, (void *)&mutex_waiter);
	kind_threads(0, NULL, NULL);
	pthread_mutex_destroy(&mutex);
}

static void run_normal(unsigned int r)
{
	mutex_case(r, PTHREAD_MUTEX_NORMAL, PTHREAD_PRIO_NONE, false);
}

static void run_recursive(unsigned int r)
{
	mutex_case(r, PTHREAD_MUTEX_RECURSIVE, PTHREAD_PRIO_NONE, false);
}

static void run_errorcheck(unsigned int r)
{
	mutex_case(r, PTHREAD_MUTEX_ERRORCHECK, PTHREAD_PRIO_NONE, false);
}

#ifdef __GLIBC__
static void run_adaptive(unsigned int r)
{
	mutex_case(r, PTHREAD_MUTEX_ADAPTIVE_NP, PTHREAD_PRIO_NONE, false);
}
#endif

static void run_robust(unsigned int r)
{
	mutex_case(r, PTHREAD_MUTEX_NORMAL, PTHREAD_PRIO_NONE, true);
}

static void run_pi(unsigned int r)
{
	mutex_case(r, PTHREAD_MUTEX_NORMAL, PTHREAD_PRIO_INHERIT, false);
}

static void rw_take(int slot, bool write)
{
	uint64_t start;
	int err = write ? pthread_rwlock_trywrlock(&rwlock) :
			  pthread_rwlock_tryrdlock(&rwlock);

	if (err == EBUSY) {
		start = kind_now();
		err = write ? pthread_rwlock_wrlock(&rwlock) :
			      pthread_rwlock_rdlock(&rwlock);
		kind_waited(slot, start);
	}
	if (err)
		kind_die("pthread_rwlock_*lock", err);
}

static void *rw_actor(void *arg)
{
	const struct role *role = arg;
	int slot = kind_waiter();
	unsigned int r;

	if (role->holder) {
		for (r = 0; r < nrounds; r++) {
			rw_take(slot, role->write);
			kind_sleep_ms(HOLD_MS);
			pthread_rwlock_unlock(&rwlock);
			kind_sleep_ms(PAUSE_MS);
		}
		atomic_store(&done, true);
		return NULL;
	}
	kind_sleep_ms(1);
	while (!atomic_load(&done)) {
		rw_take(slot, role->write);
		pthread_rwlock_unlock(&rwlock);
		kind_sleep_ms(1);
	}
	return NULL;
}

static void rw_case(unsigned int rounds, const struct role *holder,
		    const struct role *waiters)
{
	int err = pthread_rwlock_init(&rwlock, NULL);

	if (err)
		kind_die("pthread_rwlock_init", err);
	nrounds = rounds;
	atomic_store(&done, false);
	kind_threads(1, rw_actor, (void *)holder);
	kind_threads(KIND_WAITERS, rw_actor, (void *)waiters);
	kind_threads(0, NULL, NULL);
	pthread_rwlock_destroy(&rwlock);
}

/* Readers blocked by a writer. */
static void run_rwlock_rd(unsigned int r)
{
	rw_case(r, &writer_holder, &reader_waiter);
}

/* Writers blocked by a reader. */
static void run_rwlock_wr(unsigned int r)
{
	rw_case(r, &reader_holder, &writer_waiter);
}

const struct kind_case_def kind_lock_cases[] = {
	{ "mutex", "lock", run_normal },
	{ "mutex-recursive", "lock", run_recursive },
	{ "mutex-errorcheck", "lock", run_errorcheck },
#ifdef __GLIBC__
	{ "mutex-adaptive", "lock", run_adaptive },
#endif
	{ "mutex-robust", "lock", run_robust },
	{ "mutex-pi", "lock", run_pi },
	{ "rwlock-rd", "lock", run_rwlock_rd },
	{ "rwlock-wr", "lock", run_rwlock_wr },
	{ NULL, NULL, NULL },
};
