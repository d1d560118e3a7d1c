// SPDX-License-Identifier: GPL-2.0
/*
 * rt-work: the workloads of tools/bench/realtools. Each mode does a fixed
 * amount of work (-n N operations in all) and reports its own time:
 *
 *   rt mode=MODE ops=N secs=S ns_per_op=X
 *
 * Modes:
 *   mutex      4 threads contend one pthread mutex (futex wait/wake)
 *   pshared    4 processes contend one process-shared pthread mutex
 *   pipe       8 writer threads, 512-byte writes to one pipe, one reader
 *              (the pipe's kernel mutex)
 *   append     4 threads append 64 bytes at a time to one file (i_rwsem)
 *   mmap       2 threads mmap/touch/munmap while 2 mprotect a shared
 *              mapping (mmap_lock)
 *   free       one thread: pthread mutex lock/unlock, and a write/read of
 *              a private pipe every 16th operation (no lock is contended)
 *   pingpong   2 threads hand a futex word back and forth: one operation is
 *              one round trip (2 FUTEX_WAIT, 2 FUTEX_WAKE)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long rt_ops = 100000;
static const char *rt_file = "/tmp/rt-append";

static double rt_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void rt_die(const char *what)
{
	perror(what);
	exit(1);
}

static void rt_threads(int n, void *(*fn)(void *))
{
	pthread_t t[16];
	long i;

	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, fn, (void *)i))
			rt_die("pthread_create");
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}

/* A short critical section: enough that holders are seen holding. */
static void rt_spin(volatile unsigned long *c)
{
	int j;

	for (j = 0; j < 100; j++)
		(*c)++;
}

static pthread_mutex_t rt_mutex = PTHREAD_MUTEX_INITIALIZER;
static volatile unsigned long rt_counter;

static void *rt_mutex_worker(void *arg)
{
	long i;

	(void)arg;
	for (i = 0; i < rt_ops / 4; i++) {
		pthread_mutex_lock(&rt_mutex);
		rt_spin(&rt_counter);
		pthread_mutex_unlock(&rt_mutex);
	}
	return NULL;
}

static void rt_pshared(void)
{
	struct shm {
		pthread_mutex_t m;
		volatile unsigned long c;
	} *s;
	pthread_mutexattr_t a;
	int p, st;
	long i;

	s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s == MAP_FAILED)
		rt_die("mmap");
	pthread_mutexattr_init(&a);
	pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(&s->m, &a);
	for (p = 0; p < 4; p++) {
		pid_t pid = fork();

		if (pid < 0)
			rt_die("fork");
		if (pid)
			continue;
		for (i = 0; i < rt_ops / 4; i++) {
			pthread_mutex_lock(&s->m);
			rt_spin(&s->c);
			pthread_mutex_unlock(&s->m);
		}
		_exit(0);
	}
	for (p = 0; p < 4; p++)
		if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			rt_die("pshared child");
}

static int rt_pipe_fd[2];

static void *rt_pipe_writer(void *arg)
{
	static char buf[512];
	long i;

	(void)arg;
	for (i = 0; i < rt_ops / 8; i++)
		if (write(rt_pipe_fd[1], buf, sizeof(buf)) != sizeof(buf))
			rt_die("pipe write");
	return NULL;
}

static void rt_pipe(void)
{
	static char buf[65536];
	long left = rt_ops / 8 * 8 * 512;
	pthread_t t[8];
	int i;

	if (pipe(rt_pipe_fd))
		rt_die("pipe");
	for (i = 0; i < 8; i++)
		if (pthread_create(&t[i], NULL, rt_pipe_writer, NULL))
			rt_die("pthread_create");
	while (left > 0) {
		ssize_t r = read(rt_pipe_fd[0], buf, sizeof(buf));

		if (r <= 0)
			rt_die("pipe read");
		left -= r;
	}
	for (i = 0; i < 8; i++)
		pthread_join(t[i], NULL);
	close(rt_pipe_fd[0]);
	close(rt_pipe_fd[1]);
}

static int rt_append_fd;

static void *rt_append_worker(void *arg)
{
	char buf[64];
	long i;

	memset(buf, 'a' + (int)(long)arg, sizeof(buf));
	for (i = 0; i < rt_ops / 4; i++)
		if (write(rt_append_fd, buf, sizeof(buf)) != sizeof(buf))
			rt_die("append");
	return NULL;
}

static void rt_append(void)
{
	rt_append_fd = open(rt_file, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0600);
	if (rt_append_fd < 0)
		rt_die(rt_file);
	rt_threads(4, rt_append_worker);
	close(rt_append_fd);
	unlink(rt_file);
}

static char *rt_region;
#define RT_REGION (64 * 4096)

static void *rt_mmap_worker(void *arg)
{
	long i, id = (long)arg;

	for (i = 0; i < rt_ops / 4; i++) {
		if (id < 2) {
			char *p = mmap(NULL, 4 * 4096, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (p == MAP_FAILED)
				rt_die("mmap");
			p[0] = 1;
			if (munmap(p, 4 * 4096))
				rt_die("munmap");
		} else {
			int prot = (i & 1) ? PROT_READ : PROT_READ | PROT_WRITE;

			if (mprotect(rt_region + (id - 2) * RT_REGION / 2, 4096, prot))
				rt_die("mprotect");
		}
	}
	return NULL;
}

static void rt_mmap(void)
{
	rt_region = mmap(NULL, RT_REGION, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (rt_region == MAP_FAILED)
		rt_die("mmap");
	rt_threads(4, rt_mmap_worker);
	munmap(rt_region, RT_REGION);
}

static void rt_free(void)
{
	static char buf[64];
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	int fd[2];
	long i;

	if (pipe(fd))
		rt_die("pipe");
	for (i = 0; i < rt_ops; i++) {
		pthread_mutex_lock(&m);
		rt_spin(&rt_counter);
		pthread_mutex_unlock(&m);
		if (!(i & 15) && (write(fd[1], buf, sizeof(buf)) != sizeof(buf) ||
				  read(fd[0], buf, sizeof(buf)) != sizeof(buf)))
			rt_die("pipe io");
	}
	close(fd[0]);
	close(fd[1]);
}

static _Atomic int rt_word;

static void rt_futex(int op, int val)
{
	if (syscall(SYS_futex, &rt_word, op | FUTEX_PRIVATE_FLAG, val, NULL, NULL, 0) < 0 &&
	    errno != EAGAIN && errno != EINTR)
		rt_die("futex");
}

/* Thread id waits for the word to be id, then hands it to the other. */
static void *rt_pingpong_worker(void *arg)
{
	int id = (int)(long)arg;
	long i;

	for (i = 0; i < rt_ops; i++) {
		int w;

		while ((w = atomic_load(&rt_word)) != id)
			rt_futex(FUTEX_WAIT, w);
		atomic_store(&rt_word, !id);
		rt_futex(FUTEX_WAKE, 1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode;
	double t0, secs;
	int o;

	while ((o = getopt(argc, argv, "n:f:")) != -1) {
		if (o == 'n')
			rt_ops = atol(optarg);
		else if (o == 'f')
			rt_file = optarg;
		else
			return 2;
	}
	if (optind != argc - 1 || rt_ops < 8) {
		fprintf(stderr, "usage: rt-work [-n OPS] [-f FILE] mutex|pshared|pipe|append|mmap|free|pingpong\n");
		return 2;
	}
	mode = argv[optind];
	t0 = rt_now();
	if (!strcmp(mode, "mutex"))
		rt_threads(4, rt_mutex_worker);
	else if (!strcmp(mode, "pshared"))
		rt_pshared();
	else if (!strcmp(mode, "pipe"))
		rt_pipe();
	else if (!strcmp(mode, "append"))
		rt_append();
	else if (!strcmp(mode, "mmap"))
		rt_mmap();
	else if (!strcmp(mode, "free"))
		rt_free();
	else if (!strcmp(mode, "pingpong"))
		rt_threads(2, rt_pingpong_worker);
	else
		return 2;
	secs = rt_now() - t0;
	printf("rt mode=%s ops=%ld secs=%.6f ns_per_op=%.1f\n", mode, rt_ops, secs,
	       secs * 1e9 / rt_ops);
	return 0;
}
