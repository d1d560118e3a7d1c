// SPDX-License-Identifier: GPL-2.0
/*
 * lb-pingpong: two peers hand a futex word back and forth N times, as
 * tools/bench/rt-work.c's pingpong does: one round trip is 2 waits and 2
 * wakes. Private: two threads, FUTEX_PRIVATE_FLAG. Shared (-s): two
 * processes on a word in MAP_SHARED memory, without the flag, so the kernel
 * keys it by the page, not by the address.
 *
 * It prints what it asked of the kernel, for 63-pingpong-hits.sh to hold the
 * probes' hits against: wait calls, those that found the word changed
 * (EAGAIN), wake calls and the waiters they woke.
 *
 *   lb-pingpong [-s] N
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

struct pp_counts {
	long waits, again, wakes, woken;
};

struct pp_shared {
	_Atomic int word;
	struct pp_counts peer[2];
};

static struct pp_shared *pp;
static long pp_rounds;
static int pp_private = FUTEX_PRIVATE_FLAG;

static long pp_futex(int op, int val)
{
	return syscall(SYS_futex, &pp->word, op | pp_private, val, NULL, NULL, 0);
}

/* Peer id waits for the word to be id, then hands it to the other. */
static void *pp_peer(void *arg)
{
	int id = (int)(long)arg;
	struct pp_counts *c = &pp->peer[id];
	long i, r;

	for (i = 0; i < pp_rounds; i++) {
		int w;

		while ((w = atomic_load(&pp->word)) != id) {
			c->waits++;
			r = pp_futex(FUTEX_WAIT, w);
			if (r < 0 && errno == EAGAIN)
				c->again++;
			else if (r < 0 && errno != EINTR)
				perror("lb-pingpong: FUTEX_WAIT"), exit(1);
		}
		atomic_store(&pp->word, !id);
		c->wakes++;
		r = pp_futex(FUTEX_WAKE, 1);
		if (r < 0)
			perror("lb-pingpong: FUTEX_WAKE"), exit(1);
		c->woken += r;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int shared = argc == 3 && !strcmp(argv[1], "-s");
	struct pp_counts t = { 0 };
	pthread_t peer;
	int i;

	if (argc != 2 + shared || (pp_rounds = atol(argv[argc - 1])) <= 0) {
		fprintf(stderr, "usage: lb-pingpong [-s] ROUNDS\n");
		return 2;
	}
	pp = mmap(NULL, sizeof(*pp), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (pp == MAP_FAILED)
		return perror("lb-pingpong: mmap"), 1;
	if (shared) {
		pid_t child;
		int status;

		pp_private = 0;
		child = fork();
		if (child < 0)
			return perror("lb-pingpong: fork"), 1;
		if (!child) {
			pp_peer((void *)1L);
			_exit(0);
		}
		pp_peer((void *)0L);
		if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			return fprintf(stderr, "lb-pingpong: peer failed\n"), 1;
	} else {
		if (pthread_create(&peer, NULL, pp_peer, (void *)1L))
			return fprintf(stderr, "lb-pingpong: pthread_create failed\n"), 1;
		pp_peer((void *)0L);
		pthread_join(peer, NULL);
	}
	for (i = 0; i < 2; i++) {
		t.waits += pp->peer[i].waits;
		t.again += pp->peer[i].again;
		t.wakes += pp->peer[i].wakes;
		t.woken += pp->peer[i].woken;
	}
	printf("rounds=%ld waits=%ld again=%ld wakes=%ld woken=%ld\n", pp_rounds, t.waits,
	       t.again, t.wakes, t.woken);
	return 0;
}
