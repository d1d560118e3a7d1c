// SPDX-License-Identifier: GPL-2.0
/*
 * lb-futexres: one raw futex wait for each way the kernel can end it, each in
 * a thread of its own, so that the event stream can be held against what
 * really happened (tools/e2e/80-events.sh):
 *   woken        another thread's FUTEX_WAKE after 30 ms (repeated until it ends)
 *   timeout      a 30 ms relative timeout, and nobody wakes it
 *   interrupted  a signal after 30 ms, its handler installed without SA_RESTART
 *                (repeated until the wait ends)
 *   again        the word no longer holds the expected value: no sleep at all
 * Each thread checks the syscall's own result (0, ETIMEDOUT, EINTR, EAGAIN) and
 * prints "truth futex=<ending> pid=<tid> tgid=<pid> rc=<errno name>"; the exit
 * status is non-zero if any ending was not the one asked for.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define DELAY_NS 30000000L

enum ending { WOKEN, TIMEOUT, INTERRUPTED, AGAIN, ENDINGS };

static const char *const ending_name[ENDINGS] = { "woken", "timeout", "interrupted", "again" };
static const int ending_errno[ENDINGS] = { 0, ETIMEDOUT, EINTR, EAGAIN };

struct waiter {
	enum ending want;
	pthread_t thread;
	unsigned int word;
	volatile pid_t tid;
	int err;		/* the syscall's errno, 0 on success */
	volatile int done;	/* the wait has returned */
};

static long futex(unsigned int *uaddr, int op, unsigned int val, const struct timespec *ts)
{
	return syscall(SYS_futex, uaddr, op, val, ts, NULL, 0);
}

static void sleep_ns(long ns)
{
	struct timespec ts = { ns / 1000000000L, ns % 1000000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void on_signal(int sig)
{
	(void)sig;
}

static void *wait_once(void *arg)
{
	struct waiter *w = arg;
	struct timespec ts = { 0, DELAY_NS };
	unsigned int expect = w->want == AGAIN ? 1 : 0;

	w->tid = (pid_t)syscall(SYS_gettid);
	w->err = futex(&w->word, FUTEX_WAIT_PRIVATE, expect,
		       w->want == TIMEOUT ? &ts : NULL) ? errno : 0;
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static const char *errno_name(int err)
{
	switch (err) {
	case 0: return "0";
	case ETIMEDOUT: return "ETIMEDOUT";
	case EINTR: return "EINTR";
	case EAGAIN: return "EAGAIN";
	default: return strerror(err);
	}
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART */
	struct waiter w[ENDINGS];
	int i, bad = 0;

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL)) {
		perror("lb-futexres: sigaction");
		return 2;
	}
	for (i = 0; i < ENDINGS; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].want = i;
		if (pthread_create(&w[i].thread, NULL, wait_once, &w[i])) {
			fprintf(stderr, "lb-futexres: pthread_create failed\n");
			return 2;
		}
	}
	/*
	 * Wake and signal after the waiters have had time to fall asleep; a wake
	 * or signal that came before the sleep is repeated until the wait ends.
	 */
	while (!__atomic_load_n(&w[WOKEN].done, __ATOMIC_ACQUIRE) ||
	       !__atomic_load_n(&w[INTERRUPTED].done, __ATOMIC_ACQUIRE)) {
		sleep_ns(DELAY_NS);
		if (!__atomic_load_n(&w[WOKEN].done, __ATOMIC_ACQUIRE))
			futex(&w[WOKEN].word, FUTEX_WAKE_PRIVATE, 1, NULL);
		if (!__atomic_load_n(&w[INTERRUPTED].done, __ATOMIC_ACQUIRE))
			pthread_kill(w[INTERRUPTED].thread, SIGUSR1);
	}
	for (i = 0; i < ENDINGS; i++) {
		pthread_join(w[i].thread, NULL);
		printf("truth futex=%s pid=%d tgid=%d rc=%s\n", ending_name[i], (int)w[i].tid,
		       (int)getpid(), errno_name(w[i].err));
		if (w[i].err != ending_errno[i]) {
			fprintf(stderr, "lb-futexres: the %s wait ended with %s\n", ending_name[i],
				errno_name(w[i].err));
			bad = 1;
		}
	}
	return bad;
}
