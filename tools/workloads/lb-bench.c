// SPDX-License-Identifier: GPL-2.0
/*
 * lb-bench: the cost lockblame adds, measured by the workload itself: ns per
 * lock/unlock pair of a pthread mutex, free (one thread) or contended (-t
 * threads), and ns per write of a pipe nobody else writes (its kernel mutex
 * is free). Prints "bench mode=... ns_per_op=..." lines. With -a N it only
 * makes N futex waits that find the value changed (EAGAIN), for the tests.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>

static pthread_mutex_t lb_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile unsigned long lb_shared_counter;
static long lb_iters = 200000;

static double lb_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void *lb_worker(void *arg)
{
	long i;
	int j;

	(void)arg;
	for (i = 0; i < lb_iters; i++) {
		pthread_mutex_lock(&lb_lock);
		for (j = 0; j < 200; j++)
			lb_shared_counter++;
		pthread_mutex_unlock(&lb_lock);
	}
	return NULL;
}

static double lb_mutex_run(int threads)
{
	pthread_t t[64];
	double start = lb_now();
	int i;

	for (i = 0; i < threads; i++)
		if (pthread_create(&t[i], NULL, lb_worker, NULL)) {
			perror("pthread_create");
			exit(1);
		}
	for (i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	return (lb_now() - start) / ((double)lb_iters * threads);
}

static double lb_pipe_run(void)
{
	static char buf[512];
	int fd[2];
	long i;
	double start;

	if (pipe(fd)) {
		perror("pipe");
		exit(1);
	}
	start = lb_now();
	for (i = 0; i < lb_iters / 10; i++) {
		if (write(fd[1], buf, sizeof(buf)) != sizeof(buf) ||
		    read(fd[0], buf, sizeof(buf)) != sizeof(buf)) {
			perror("pipe io");
			exit(1);
		}
	}
	close(fd[0]);
	close(fd[1]);
	return (lb_now() - start) / (lb_iters / 10);
}

/* Futex waits on a word that does not hold the expected value: EAGAIN. */
static int lb_again(long n)
{
	static unsigned int word = 1;
	long i, again = 0;

	for (i = 0; i < n; i++)
		if (syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0) == -1 &&
		    errno == EAGAIN)
			again++;
	printf("truth workload=lb-bench mode=again pid=%ld tgid=%ld again=%ld\n",
	       (long)syscall(SYS_gettid), (long)getpid(), again);
	return again == n ? 0 : 1;
}

int main(int argc, char **argv)
{
	int opt, threads = 4;

	while ((opt = getopt(argc, argv, "a:n:t:")) != -1) {
		switch (opt) {
		case 'a':
			return lb_again(atol(optarg));
		case 'n':
			lb_iters = atol(optarg);
			break;
		case 't':
			threads = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: lb-bench [-n iterations] [-t threads] | -a N\n");
			return 2;
		}
	}
	if (lb_iters < 10 || threads < 2 || threads > 64) {
		fprintf(stderr, "lb-bench: -n >= 10, 2 <= -t <= 64\n");
		return 2;
	}
	printf("bench mode=mutex-free ns_per_op=%.1f\n", lb_mutex_run(1));
	printf("bench mode=pipe-free ns_per_op=%.1f\n", lb_pipe_run());
	printf("bench mode=mutex-contended threads=%d ns_per_op=%.1f\n", threads,
	       lb_mutex_run(threads));
	return 0;
}
