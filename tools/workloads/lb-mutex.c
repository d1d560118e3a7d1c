// SPDX-License-Identifier: GPL-2.0
/*
 * lb-mutex and lb-shared: one culprit holds a pthread mutex for long
 * (computing, with -s sleeping, or with -c computing beside a CPU hog that
 * preempts it) while victims take it briefly; the actors are threads sharing
 * a private mutex, or with -p (lb-shared's default) processes sharing a
 * PTHREAD_PROCESS_SHARED mutex in MAP_SHARED memory.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "truth.h"

#ifdef LB_SHARED
#define LB_NAME		"lb-shared"
#else
#define LB_NAME		"lb-mutex"
#endif
#define MAX_VICTIMS	64

/* What all actors touch: in MAP_SHARED memory, so it works across fork. */
struct hot {
	pthread_mutex_t lock;
	struct lb_start start;
	uint64_t end_ns;
};

static struct hot *hot;
/* The threads' hot data: a global, so that its lock has a name (45-names.sh). */
static struct hot mtx;
static unsigned long linger_ms;	/* -L: stay this long after the truth */
static struct lb_truth *truth;
static uint64_t hold_ns = 20000000;	/* culprit's critical section */
static uint64_t pause_ns = 3000000;	/* culprit's time off the lock */
static uint64_t brief_ns = 50000;	/* victims' critical section */
static uint64_t think_ns = 1000000;	/* victims' time off the lock */
static bool holder_sleeps;
static bool holder_preempted;	/* -c: a CPU hog shares the culprit's CPU */

/* Runs the calling thread on CPU @cpu only. */
static void pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		lb_die("sched_setaffinity");
}

/*
 * -c: busy on the culprit's CPU for the whole run, at the same priority
 * (both SCHED_OTHER, nice 0): the scheduler shares the CPU between them, so
 * the computing culprit spends part of each hold runnable but not running.
 * It never locks: it is no actor.
 */
static void *hog(void *arg)
{
	(void)arg;
	pin_to_cpu(0);
	prctl(PR_SET_NAME, "lb-hog");
	lb_start_wait(&hot->start);
	while (lb_now() < hot->end_ns)
		;
	return NULL;
}

static void *culprit(void *arg)
{
	struct lb_actor *a = lb_actor_start(truth, 0, "culprit",
					    "lb-culprit", "cause");

	(void)arg;
	lb_actor_track_run_delay(a);
	if (holder_preempted)
		pin_to_cpu(0);
	lb_start_wait(&hot->start);
	while (lb_now() < hot->end_ns && lb_actor_room(a)) {
		lb_lock(a, 0, &hot->lock);
		if (holder_sleeps)
			lb_sleep_ns(hold_ns);
		else
			lb_spin_ns(hold_ns);
		lb_unlock(a, 0, &hot->lock);
		lb_sleep_ns(pause_ns);
	}
	return NULL;
}

static void *victim(void *arg)
{
	unsigned int slot = (unsigned int)(uintptr_t)arg;
	struct lb_actor *a;
	char comm[LB_NAME_LEN];

	snprintf(comm, sizeof(comm), "lb-victim-%u", slot);
	a = lb_actor_start(truth, slot, "victim", comm, "victim");
	lb_start_wait(&hot->start);
	/* Let the culprit take the lock first. */
	lb_sleep_ns(think_ns);
	while (lb_now() < hot->end_ns && lb_actor_room(a)) {
		lb_lock(a, 0, &hot->lock);
		lb_spin_ns(brief_ns);
		lb_unlock(a, 0, &hot->lock);
		lb_sleep_ns(think_ns);
	}
	return NULL;
}

/* The actor's process id with -p (0 for a thread). */
static pid_t spawn(bool process, pthread_t *th, void *(*fn)(void *), void *arg)
{
	pid_t pid;

	if (!process) {
		lb_thread(th, fn, arg);
		return 0;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		lb_die("fork");
	if (!pid) {
		fn(arg);
		_exit(0);
	}
	return pid;
}

/*
 * -f ROLE:CONTROL: before the actors start, write "filter tgid=<pid>" for the
 * culprit's or the first victim's process to lockblame's control file, so
 * that a test can filter on a process it could not know in advance.
 */
static void set_filter(const char *spec, pid_t culprit_pid, pid_t victim_pid)
{
	const char *colon = strchr(spec, ':');
	char cmd[64];
	pid_t pid;
	int fd, n;

	if (!colon)
		lb_die("-f ROLE:CONTROL");
	pid = !strncmp(spec, "culprit:", 8) ? culprit_pid : victim_pid;
	n = snprintf(cmd, sizeof(cmd), "filter tgid=%d\n", (int)pid);
	fd = open(colon + 1, O_WRONLY);
	if (fd < 0 || write(fd, cmd, n) != n)
		lb_die("-f: writing the filter");
	close(fd);
}

/* Write @pid into the cgroup v2 directory @dir (its cgroup.procs). */
static void move_to_cgroup(const char *dir, pid_t pid)
{
	char path[512], cmd[32];
	int fd, n;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	n = snprintf(cmd, sizeof(cmd), "%d\n", (int)pid);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, cmd, n) != n)
		lb_die("-g: writing cgroup.procs");
	close(fd);
}

/*
 * -g A:B: before the actors start, move the culprit's process into the
 * cgroup v2 directory A and every victim's into B: "container A holds the
 * lock container B waits on".
 */
static void set_cgroups(const char *spec, const pid_t *pids, unsigned long victims)
{
	const char *colon = strchr(spec, ':');
	char a[256];
	unsigned long i;

	if (!colon || colon == spec || !colon[1] || (size_t)(colon - spec) >= sizeof(a))
		lb_die("-g CGROUP_A:CGROUP_B");
	memcpy(a, spec, colon - spec);
	a[colon - spec] = '\0';
	move_to_cgroup(a, pids[0]);
	for (i = 1; i <= victims; i++)
		move_to_cgroup(colon + 1, pids[i]);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: " LB_NAME " [-d ms] [-n victims] [-H hold_ms] [-P pause_ms] [-b brief_us] [-t think_us] [-s|-c] [-p|-T] [-f culprit|victim:CONTROL] [-L linger_ms] [-g A:B]\n"
		"  a culprit holds a mutex for hold_ms (busy, or asleep with -s), then\n"
		"  pauses pause_ms; victims hold it for brief_us and think think_us.\n"
		"  -c: the culprit is busy, pinned to CPU 0 with a CPU hog: preempted.\n"
		"  -p: actors are processes on a process-shared mutex; -T: threads.\n"
		"  -f: with -p, filter lockblame on the culprit's (or victim 1's) process.\n"
		"  -L: after the truth, stay linger_ms (its maps stay readable).\n"
		"  -g: with -p, the culprit's process in cgroup (v2 directory) A, victims' in B.\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long duration_ms = 1000, victims, i;
	pthread_t th[MAX_VICTIMS + 1], hog_th;
	pid_t pids[MAX_VICTIMS + 1];
	const char *filter = NULL, *cgroups = NULL;
	bool process = false;
	int opt, status;

#ifdef LB_SHARED
	process = true;
	victims = 2;
#else
	victims = 3;
#endif
	while ((opt = getopt(argc, argv, "d:n:H:P:b:t:scpTf:L:g:")) != -1) {
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
		case 'P':
			pause_ns = lb_arg(optarg, "-P") * 1000000;
			break;
		case 'b':
			brief_ns = lb_arg(optarg, "-b") * 1000;
			break;
		case 't':
			think_ns = lb_arg(optarg, "-t") * 1000;
			break;
		case 's':
			holder_sleeps = true;
			break;
		case 'c':
			holder_preempted = true;
			break;
		case 'p':
			process = true;
			break;
		case 'T':
			process = false;
			break;
		case 'f':
			filter = optarg;
			break;
		case 'L':
			linger_ms = lb_arg(optarg, "-L");
			break;
		case 'g':
			cgroups = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind != argc || !victims || victims > MAX_VICTIMS ||
	    (holder_sleeps && holder_preempted) || (cgroups && !process))
		usage();

	truth = lb_truth_create(victims + 1, 16384);
	lb_truth_lock(truth, 0, process ? "shared-mutex" : "mutex", "futex");
	hot = process ? lb_shared_alloc(sizeof(*hot)) : &mtx;
	lb_mutex_init(&hot->lock, process);
	lb_start_init(&hot->start, victims + 2 + holder_preempted);
	if (holder_preempted)
		lb_thread(&hog_th, hog, NULL);

	pids[0] = spawn(process, &th[0], culprit, NULL);
	for (i = 1; i <= victims; i++)
		pids[i] = spawn(process, &th[i], victim, (void *)(uintptr_t)i);
	if (cgroups)
		set_cgroups(cgroups, pids, victims);
	if (filter)
		set_filter(filter, process ? pids[0] : getpid(), process ? pids[1] : getpid());
	hot->end_ns = lb_now() + duration_ms * 1000000;
	lb_start_wait(&hot->start);
	if (!process)
		lb_join(th, victims + 1);
	if (holder_preempted)
		lb_join(&hog_th, 1);
	for (i = 0; process && i <= victims; i++) {
		if (wait(&status) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			fprintf(stderr, LB_NAME ": an actor process failed\n");
			return 1;
		}
	}

	printf("truth workload=" LB_NAME " duration_ms=%lu victims=%lu actors=%s hold_ns=%llu pause_ns=%llu brief_ns=%llu think_ns=%llu holder=%s\n",
	       duration_ms, victims, process ? "processes" : "threads",
	       (unsigned long long)hold_ns, (unsigned long long)pause_ns,
	       (unsigned long long)brief_ns, (unsigned long long)think_ns,
	       holder_sleeps ? "sleeping" : holder_preempted ? "preempted" : "computing");
	lb_truth_print(truth);
	fflush(stdout);
	if (linger_ms)
		usleep(linger_ms * 1000);
	return 0;
}
