// SPDX-License-Identifier: GPL-2.0
/*
 * lb-fdchurn: a file's i_rwsem contended by writers while sibling threads
 * of the same process close and open files as fast as they can, so that
 * the fd slots and struct file objects lockblame's lock naming reads under
 * RCU (module/lock_names.c) are closed, freed and reused beside it. Since
 * 6.7 a struct file is SLAB_TYPESAFE_BY_RCU: a lookup that read a file's
 * fields twice could see another file, or one being set up, between them.
 *
 *   lb-fdchurn [-d MS] [-w WRITERS] [-c CHURNERS] DIR
 *
 * Writers append 64 KiB at a time to DIR/lb-fdchurn-target (O_APPEND: each
 * write takes the inode's i_rwsem). Churners open DIR/lb-fdchurn-N (their
 * own files, never contended), write a byte, and close, looping. At the end:
 *   truth fdchurn target_ino=N writes=N opens=N
 *   truth fdchurn-file name=lb-fdchurn-N ino=N   (one per churned file)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS	16
#define CHUNK		65536

static char dir[PATH_MAX / 2];
static atomic_bool stop;
static atomic_ulong writes, opens;
static char chunk[CHUNK];

static void die(const char *what)
{
	fprintf(stderr, "lb-fdchurn: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void *writer(void *arg)
{
	char path[PATH_MAX];
	int fd;

	(void)arg;
	snprintf(path, sizeof(path), "%s/lb-fdchurn-target", dir);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
	if (fd < 0)
		die(path);
	while (!atomic_load(&stop)) {
		if (write(fd, chunk, CHUNK) != CHUNK)
			die("write");
		atomic_fetch_add(&writes, 1);
		/* Keep the file small: truncating takes the same i_rwsem. */
		if (atomic_load(&writes) % 64 == 0 && ftruncate(fd, 0))
			die("ftruncate");
	}
	close(fd);
	return NULL;
}

static void *churner(void *arg)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/lb-fdchurn-%lu", dir, (unsigned long)(uintptr_t)arg);
	while (!atomic_load(&stop)) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			die(path);
		if (write(fd, "x", 1) != 1)
			die("write");
		close(fd);
		atomic_fetch_add(&opens, 1);
	}
	return NULL;
}

static unsigned long ino_of(const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (stat(path, &st))
		die(path);
	return (unsigned long)st.st_ino;
}

int main(int argc, char **argv)
{
	unsigned int ms = 3000, nw = 3, nc = 3, i;
	pthread_t t[MAX_THREADS];
	struct timespec ts;
	int opt;

	while ((opt = getopt(argc, argv, "d:w:c:")) != -1) {
		switch (opt) {
		case 'd':
			ms = (unsigned int)strtoul(optarg, NULL, 10);
			break;
		case 'w':
			nw = (unsigned int)strtoul(optarg, NULL, 10);
			break;
		case 'c':
			nc = (unsigned int)strtoul(optarg, NULL, 10);
			break;
		default:
			goto usage;
		}
	}
	if (optind + 1 != argc || !nw || nw + nc > MAX_THREADS || !ms)
		goto usage;
	snprintf(dir, sizeof(dir), "%s", argv[optind]);
	for (i = 0; i < nw; i++)
		if (pthread_create(&t[i], NULL, writer, NULL))
			die("pthread_create");
	for (i = 0; i < nc; i++)
		if (pthread_create(&t[nw + i], NULL, churner, (void *)(uintptr_t)i))
			die("pthread_create");
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (long)(ms % 1000) * 1000000L;
	nanosleep(&ts, NULL);
	atomic_store(&stop, true);
	for (i = 0; i < nw + nc; i++)
		pthread_join(t[i], NULL);
	printf("truth fdchurn target_ino=%lu writes=%lu opens=%lu\n", ino_of("lb-fdchurn-target"),
	       atomic_load(&writes), atomic_load(&opens));
	for (i = 0; i < nc; i++) {
		char name[32];

		snprintf(name, sizeof(name), "lb-fdchurn-%u", i);
		printf("truth fdchurn-file name=%s ino=%lu\n", name, ino_of(name));
	}
	return 0;
usage:
	fprintf(stderr, "usage: lb-fdchurn [-d MS] [-w WRITERS] [-c CHURNERS] DIR\n");
	return 2;
}
