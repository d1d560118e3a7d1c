// SPDX-License-Identifier: GPL-2.0
/*
 * lb-pipe: writer processes push large write()s into one pipe while a reader
 * drains it in bursts, so the writers (and the reader) contend on the
 * kernel's pipe->mutex.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "truth.h"

#define MAX_WRITERS	16

struct hot {
	struct lb_start start;
	uint64_t end_ns;
	atomic_int stop;
};

static struct hot *hot;
static struct lb_truth *truth;
/*
 * The reader empties the pipe in one read every few milliseconds; the
 * writers then refill it in several writes each, and those writes overlap:
 * one writer copies under pipe->mutex while the next one waits for it.
 * (Smaller reads leave room for one write at a time, and only one writer
 * is woken per read: little contention.)
 */
static size_t write_size = 128 << 10;
static size_t read_size = 1024 << 10;
static uint64_t read_interval_ns = 5000000;

static void *lb_buffer(size_t size)
{
	void *p = malloc(size);

	if (!p)
		lb_die("malloc");
	memset(p, 'x', size);
	return p;
}

static void writer(unsigned int slot, int fd)
{
	char comm[LB_NAME_LEN];
	struct lb_actor *a;
	char *buf = lb_buffer(write_size);
	uint64_t start;
	ssize_t n;

	snprintf(comm, sizeof(comm), "lb-writer-%u", slot);
	a = lb_actor_start(truth, slot, "writer", comm, NULL);
	lb_start_wait(&hot->start);
	while (!atomic_load(&hot->stop)) {
		start = lb_now();
		n = write(fd, buf, write_size);
		if (n < 0)
			lb_die("write");
		lb_actor_op(a, start, n);
	}
	_exit(0);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: lb-pipe [-d ms] [-n writers] [-w write_kib] [-r read_kib] [-i read_interval_us] [-p pipe_kib]\n"
		"  writer processes write write_kib at a time into one pipe of pipe_kib;\n"
		"  the reader reads read_kib every read_interval_us.\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long duration_ms = 1000, writers = 3, pipe_kib = 1024, i;
	struct lb_actor *reader;
	int fds[2], opt, status;
	bool ok = true;
	uint64_t start;
	ssize_t n;
	char *buf;

	while ((opt = getopt(argc, argv, "d:n:w:r:i:p:")) != -1) {
		switch (opt) {
		case 'd':
			duration_ms = lb_arg(optarg, "-d");
			break;
		case 'n':
			writers = lb_arg(optarg, "-n");
			break;
		case 'w':
			write_size = lb_arg(optarg, "-w") << 10;
			break;
		case 'r':
			read_size = lb_arg(optarg, "-r") << 10;
			break;
		case 'i':
			read_interval_ns = lb_arg(optarg, "-i") * 1000;
			break;
		case 'p':
			pipe_kib = lb_arg(optarg, "-p");
			break;
		default:
			usage();
		}
	}
	if (optind != argc || !writers || writers > MAX_WRITERS ||
	    !write_size || !read_size)
		usage();

	truth = lb_truth_create(writers + 1, 1);
	hot = lb_shared_alloc(sizeof(*hot));
	lb_start_init(&hot->start, writers + 1);
	if (pipe(fds))
		lb_die("pipe");
	/*
	 * A big pipe lets one write() copy a lot under pipe->mutex; if the
	 * size is refused, the default pipe still contends.
	 */
	fcntl(fds[1], F_SETPIPE_SZ, (int)(pipe_kib << 10));
	pipe_kib = fcntl(fds[1], F_GETPIPE_SZ) >> 10;

	for (i = 1; i <= writers; i++) {
		fflush(stdout);
		switch (fork()) {
		case -1:
			lb_die("fork");
		case 0:
			close(fds[0]);
			writer(i, fds[1]);
		}
	}
	close(fds[1]);

	reader = lb_actor_start(truth, 0, "reader", "lb-reader", NULL);
	buf = lb_buffer(read_size);
	hot->end_ns = lb_now() + duration_ms * 1000000;
	lb_start_wait(&hot->start);
	while (lb_now() < hot->end_ns) {
		start = lb_now();
		n = read(fds[0], buf, read_size);
		if (n <= 0)
			lb_die("read");
		lb_actor_op(reader, start, n);
		lb_sleep_ns(read_interval_ns);
	}
	/* Drain until every writer has seen stop and closed its end. */
	atomic_store(&hot->stop, 1);
	while ((n = read(fds[0], buf, read_size)) > 0)
		;
	for (i = 0; i < writers; i++)
		ok &= wait(&status) > 0 && WIFEXITED(status) &&
		      !WEXITSTATUS(status);
	if (n < 0 || !ok) {
		fprintf(stderr, "lb-pipe: a writer or the drain failed\n");
		return 1;
	}

	printf("truth workload=lb-pipe duration_ms=%lu writers=%lu write_bytes=%zu read_bytes=%zu read_interval_ns=%llu pipe_bytes=%lu\n",
	       duration_ms, writers, write_size, read_size,
	       (unsigned long long)read_interval_ns, pipe_kib << 10);
	lb_truth_print(truth);
	return 0;
}
