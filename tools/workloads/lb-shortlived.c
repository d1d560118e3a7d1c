// SPDX-License-Identifier: GPL-2.0
/*
 * lb-shortlived: a parent forks holder processes one after another; each
 * takes a process-shared mutex, holds it, and exits, while victim threads in
 * another process wait. Every holder is gone before the ledger is read.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "truth.h"

#define MAX_VICTIMS	16
#define MAX_HOLDERS	256
#define BRIEF_NS	50000
#define THINK_NS	1000000

struct hot {
	pthread_mutex_t lock;
	struct lb_start start;
	uint64_t end_ns;
};

static struct hot *hot;
static struct lb_truth *truth;
static uint64_t hold_ns = 20000000;
static uint64_t gap_ns = 5000000;
static bool holder_sleeps;

static void *victim(void *arg)
{
	unsigned int slot = (unsigned int)(uintptr_t)arg;
	char comm[LB_NAME_LEN];
	struct lb_actor *a;

	snprintf(comm, sizeof(comm), "lb-victim-%u", slot + 1);
	a = lb_actor_start(truth, slot, "victim", comm, "victim");
	lb_start_wait(&hot->start);
	while (lb_now() < hot->end_ns && lb_actor_room(a)) {
		lb_lock(a, 0, &hot->lock);
		lb_spin_ns(BRIEF_NS);
		lb_unlock(a, 0, &hot->lock);
		lb_sleep_ns(THINK_NS);
	}
	return NULL;
}

static void victim_process(unsigned int victims)
{
	pthread_t th[MAX_VICTIMS];
	unsigned int i;

	for (i = 0; i < victims; i++)
		lb_thread(&th[i], victim, (void *)(uintptr_t)i);
	lb_join(th, victims);
	_exit(0);
}

static void holder_process(unsigned int slot)
{
	struct lb_actor *a = lb_actor_start(truth, slot, "holder", "lb-holder",
					    "cause");

	lb_lock(a, 0, &hot->lock);
	if (holder_sleeps)
		lb_sleep_ns(hold_ns);
	else
		lb_spin_ns(hold_ns);
	lb_unlock(a, 0, &hot->lock);
	_exit(0);
}

static pid_t spawn(void (*fn)(unsigned int), unsigned int arg)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		lb_die("fork");
	if (!pid)
		fn(arg);
	return pid;
}

static bool reap(pid_t pid)
{
	int status;

	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       !WEXITSTATUS(status);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: lb-shortlived [-d ms] [-n victims] [-H hold_ms] [-g gap_ms] [-s]\n"
		"  holder processes, forked one at a time gap_ms apart, each hold a\n"
		"  process-shared mutex for hold_ms (busy, or asleep with -s) and exit;\n"
		"  victim threads in another process take it briefly.\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long duration_ms = 1000, victims = 2;
	unsigned int holders = 0;
	bool ok = true;
	pid_t pid;
	int opt;

	while ((opt = getopt(argc, argv, "d:n:H:g:s")) != -1) {
		switch (opt) {
		case 'd':
			duration_ms = lb_arg(optarg, "-d");
			break;
		case 'n':
			victims = lb_arg(optarg, "-n");
			break;
		case 'H':
			hold_ns = lb_arg(optarg, "-H") * 1000000;
			break;
		case 'g':
			gap_ns = lb_arg(optarg, "-g") * 1000000;
			break;
		case 's':
			holder_sleeps = true;
			break;
		default:
			usage();
		}
	}
	if (optind != argc || !victims || victims > MAX_VICTIMS)
		usage();

	truth = lb_truth_create(victims + MAX_HOLDERS, 16384);
	lb_truth_lock(truth, 0, "shared-mutex", "futex");
	hot = lb_shared_alloc(sizeof(*hot));
	lb_mutex_init(&hot->lock, true);
	lb_start_init(&hot->start, victims + 1);

	pid = spawn(victim_process, victims);
	hot->end_ns = lb_now() + duration_ms * 1000000;
	lb_start_wait(&hot->start);
	while (holders < MAX_HOLDERS && lb_now() + hold_ns < hot->end_ns) {
		ok &= reap(spawn(holder_process, victims + holders));
		holders++;
		lb_sleep_ns(gap_ns);
	}
	ok &= reap(pid);
	if (!ok) {
		fprintf(stderr, "lb-shortlived: an actor process failed\n");
		return 1;
	}

	printf("truth workload=lb-shortlived duration_ms=%lu victims=%lu holders=%u hold_ns=%llu gap_ns=%llu holder=%s\n",
	       duration_ms, victims, holders, (unsigned long long)hold_ns,
	       (unsigned long long)gap_ns,
	       holder_sleeps ? "sleeping" : "computing");
	lb_truth_print(truth);
	return 0;
}
