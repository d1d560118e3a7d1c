// SPDX-License-Identifier: GPL-2.0
/*
 * lb-pool: a hot mutex (one culprit holding it ~20 ms at a time, victims
 * waiting, as in lb-mutex) beside a pool of idle workers parked in
 * pthread_cond_wait, which a dispatcher signals every ~2 ms (one worker
 * wakes and goes back to waiting) and broadcasts at the end.
 *
 * The workers' and the dispatcher's waits are events, not lock waits: with
 * futex kinds on, they must carry neither lock wait nor blame. One thing
 * they do wait on as a lock: the condvar's mutex, when a woken worker finds
 * it taken (mostly in the herd of -B's final broadcast). That is real and
 * brief, and invisible from outside pthread_cond_wait, so the truth cannot
 * time it: checks bound it instead (lb-check --idle).
 *
 * With -B the pool is stopped by one broadcast: every worker wakes at once
 * and queues on the condvar's mutex, a herd. With thousands of workers the
 * herd holds more tasks than the ledger's tables, which must still keep the
 * hot mutex's culprit and victims (62-herd.sh).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "truth.h"

#define MAX_VICTIMS	16
#define MAX_IDLE	10000
#define IDLE_STACK	(64 * 1024)

struct pool {
	pthread_mutex_t hot;		/* the contended lock */
	pthread_mutex_t lock;		/* the condvar's */
	pthread_cond_t cond;
	unsigned int wakeups;		/* signals not yet taken */
	unsigned int idle;		/* workers parked right now */
	bool stop;
	struct lb_start start;
	uint64_t end_ns;
};

static struct pool pool;
static struct lb_truth *truth;
static uint64_t hold_ns = 20000000, pause_ns = 3000000;
static uint64_t brief_ns = 50000, think_ns = 1000000;
static uint64_t tick_ns = 2000000;
static unsigned int victims = 3, nidle = 64;
static bool herd;

static void *culprit(void *arg)
{
	struct lb_actor *a = lb_actor_start(truth, 0, "culprit", "lb-culprit",
					    "cause");

	(void)arg;
	lb_start_wait(&pool.start);
	while (lb_now() < pool.end_ns && lb_actor_room(a)) {
		lb_lock(a, 0, &pool.hot);
		lb_spin_ns(hold_ns);
		lb_unlock(a, 0, &pool.hot);
		lb_sleep_ns(pause_ns);
	}
	return NULL;
}

static void *victim(void *arg)
{
	unsigned int slot = (unsigned int)(uintptr_t)arg;
	char comm[LB_NAME_LEN];
	struct lb_actor *a;

	snprintf(comm, sizeof(comm), "lb-victim-%u", slot);
	a = lb_actor_start(truth, slot, "victim", comm, "victim");
	lb_start_wait(&pool.start);
	lb_sleep_ns(think_ns);
	while (lb_now() < pool.end_ns && lb_actor_room(a)) {
		lb_lock(a, 0, &pool.hot);
		lb_spin_ns(brief_ns);
		lb_unlock(a, 0, &pool.hot);
		lb_sleep_ns(think_ns);
	}
	return NULL;
}

static void *worker(void *arg)
{
	unsigned int slot = (unsigned int)(uintptr_t)arg;

	lb_actor_start(truth, slot, "idle", "lb-idle", NULL);
	pthread_mutex_lock(&pool.lock);
	pool.idle++;
	while (!pool.stop) {
		while (!pool.wakeups && !pool.stop)
			pthread_cond_wait(&pool.cond, &pool.lock);
		if (pool.wakeups)
			pool.wakeups--;
	}
	pool.idle--;
	pthread_mutex_unlock(&pool.lock);
	return NULL;
}

/*
 * With -r CONTROL, the tracer's ledger is reset once the pool is parked:
 * creating (and later reaping) hundreds of threads really contends glibc's
 * own locks, which is not what this workload measures.
 */
static const char *reset_path;

static void lb_reset_tracer(void)
{
	FILE *f;

	if (!reset_path)
		return;
	f = fopen(reset_path, "w");
	if (!f || fputs("reset\n", f) == EOF || fclose(f))
		lb_die(reset_path);
}

static void *dispatcher(void *arg)
{
	unsigned int slot = (unsigned int)(uintptr_t)arg;

	lb_actor_start(truth, slot, "dispatcher", "lb-dispatch", NULL);

	/* Every worker parked before the hot mutex's actors start. */
	for (;;) {
		pthread_mutex_lock(&pool.lock);
		if (pool.idle == nidle)
			break;
		pthread_mutex_unlock(&pool.lock);
		lb_sleep_ns(1000000);
	}
	pthread_mutex_unlock(&pool.lock);
	lb_reset_tracer();
	lb_start_wait(&pool.start);
	/*
	 * Signal after unlocking, as pools commonly do, so a woken worker
	 * does not queue on the pool's mutex behind its dispatcher.
	 */
	while (lb_now() < pool.end_ns) {
		lb_sleep_ns(tick_ns);
		pthread_mutex_lock(&pool.lock);
		pool.wakeups++;
		pthread_mutex_unlock(&pool.lock);
		pthread_cond_signal(&pool.cond);
	}
	/*
	 * Shut down one worker at a time: a broadcast would make them all
	 * take the pool's mutex at once, real contention, but the harness's
	 * own and not what this workload is about, unless -B asks for it.
	 */
	pthread_mutex_lock(&pool.lock);
	pool.stop = true;
	if (herd) {
		pthread_mutex_unlock(&pool.lock);
		pthread_cond_broadcast(&pool.cond);
		return NULL;
	}
	while (pool.idle) {
		pthread_mutex_unlock(&pool.lock);
		pthread_cond_signal(&pool.cond);
		lb_sleep_ns(200000);
		pthread_mutex_lock(&pool.lock);
	}
	pthread_mutex_unlock(&pool.lock);
	return NULL;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: lb-pool [-B] [-d ms] [-i idle] [-n victims] [-H hold_ms] [-T tick_us] [-r control]\n"
		"  a culprit holds a hot mutex hold_ms at a time while victims wait; beside\n"
		"  them idle workers (default 64, up to %d) sleep in pthread_cond_wait and\n"
		"  a dispatcher wakes one every tick_us, and stops them one by one at the end.\n"
		"  -B: stop them with one broadcast instead, a herd on the condvar's mutex.\n"
		"  -r: write \"reset\" to the tracer's control file once the pool is parked.\n",
		MAX_IDLE);
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long duration_ms = 1000, i, nactors;
	pthread_t hot[MAX_VICTIMS + 2], *idle;
	pthread_attr_t attr;
	int opt;

	while ((opt = getopt(argc, argv, "Bd:i:n:H:T:r:")) != -1) {
		switch (opt) {
		case 'B':
			herd = true;
			break;
		case 'd':
			duration_ms = lb_arg(optarg, "-d");
			break;
		case 'i':
			nidle = lb_arg(optarg, "-i");
			break;
		case 'n':
			victims = lb_arg(optarg, "-n");
			break;
		case 'H':
			hold_ns = lb_arg(optarg, "-H") * 1000000;
			break;
		case 'T':
			tick_ns = lb_arg(optarg, "-T") * 1000;
			break;
		case 'r':
			reset_path = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind != argc || !victims || victims > MAX_VICTIMS ||
	    nidle > MAX_IDLE || !tick_ns)
		usage();

	/* Actors: culprit, victims, dispatcher, then the idle workers. */
	nactors = 1 + victims + 1 + nidle;
	truth = lb_truth_create_idle(nactors, 16384, nidle + 1);
	lb_truth_lock(truth, 0, "mutex", "futex");
	lb_mutex_init(&pool.hot, false);
	lb_mutex_init(&pool.lock, false);
	pthread_cond_init(&pool.cond, NULL);
	lb_start_init(&pool.start, victims + 3);

	idle = calloc(nidle ? nidle : 1, sizeof(*idle));
	if (!idle)
		lb_die("calloc");
	pthread_attr_init(&attr);
	errno = pthread_attr_setstacksize(&attr, IDLE_STACK);
	if (errno)
		lb_die("pthread_attr_setstacksize");
	for (i = 0; i < nidle; i++) {
		errno = pthread_create(&idle[i], &attr, worker,
				       (void *)(uintptr_t)(victims + 2 + i));
		if (errno)
			lb_die("pthread_create (idle worker)");
	}
	pthread_attr_destroy(&attr);

	lb_thread(&hot[victims + 1], dispatcher, (void *)(uintptr_t)(victims + 1));
	lb_thread(&hot[0], culprit, NULL);
	for (i = 1; i <= victims; i++)
		lb_thread(&hot[i], victim, (void *)(uintptr_t)i);
	/* The clock starts once the pool is parked: see the dispatcher. */
	while (atomic_load(&pool.start.arrived) < victims + 2)
		lb_sleep_ns(1000000);
	pool.end_ns = lb_now() + duration_ms * 1000000;
	lb_start_wait(&pool.start);
	lb_join(hot, victims + 2);
	lb_join(idle, nidle);
	free(idle);

	printf("truth workload=lb-pool duration_ms=%lu victims=%u idle=%u hold_ns=%llu tick_ns=%llu herd=%d\n",
	       duration_ms, victims, nidle, (unsigned long long)hold_ns,
	       (unsigned long long)tick_ns, herd);
	lb_truth_print(truth);
	return 0;
}
