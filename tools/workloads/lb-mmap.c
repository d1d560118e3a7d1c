// SPDX-License-Identifier: GPL-2.0
/*
 * lb-mmap: a mapper thread keeps changing the protection of a big populated
 * region (mmap_lock held for write for the whole page-table walk) while
 * reader threads make calls that take mmap_lock for read. With -M, readers
 * walk the mapper's region with mincore() instead: long read holds, several
 * at once, that the mapper waits out one reader after another.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "truth.h"

#define MAX_READERS	16
#define READER_PAGES	64

static struct {
	struct lb_truth *truth;
	struct lb_start start;
	uint64_t end_ns;
	size_t region_size;
	uint64_t pause_ns;		/* mapper's time between mprotects */
	uint64_t reader_pause_ns;	/* readers' time between calls */
	long page;
	char *region;			/* the mapper's */
	int walk;			/* -M: readers mincore() the mapper's region */
} g = {
	.region_size = 32 << 20,
	.pause_ns = 1000000,
	.reader_pause_ns = 200000,
};

static char *lb_region(size_t size)
{
	char *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		lb_die("mmap");
	/* Small pages: a huge page would make the page-table walk short. */
	madvise(p, size, MADV_NOHUGEPAGE);
	memset(p, 1, size);
	return p;
}

static void *mapper(void *arg)
{
	/*
	 * The cause; but when readers are preempted inside their faults (a
	 * host running two guests), the mapper really waits on them in turn,
	 * and then shares. Never a victim.
	 */
	struct lb_actor *a = lb_actor_start(g.truth, 0, "mapper", "lb-mapper",
					    g.walk ? "cause|shared|victim" : "cause|shared");
	char *region = arg;
	uint64_t start;

	lb_start_wait(&g.start);
	while (lb_now() < g.end_ns) {
		start = lb_now();
		if (mprotect(region, g.region_size, PROT_READ))
			lb_die("mprotect");
		lb_actor_op(a, start, g.region_size);
		lb_sleep_ns(g.pause_ns);
		start = lb_now();
		if (mprotect(region, g.region_size, PROT_READ | PROT_WRITE))
			lb_die("mprotect");
		lb_actor_op(a, start, g.region_size);
		lb_sleep_ns(g.pause_ns);
	}
	return NULL;
}

/* mincore() over @size bytes: mmap_lock held for read per 4096 pages walked. */
static int lb_walk(char *p, size_t size)
{
	static __thread unsigned char vec[4096];
	size_t chunk = sizeof(vec) * g.page, off;

	for (off = 0; off < size; off += chunk)
		if (mincore(p + off, size - off < chunk ? size - off : chunk, vec))
			return -1;
	return 0;
}

/*
 * Each round takes mmap_lock for read three ways: madvise(MADV_DONTNEED),
 * the page fault that follows (kernels without per-VMA locks), and
 * mincore(), which takes it on every kernel.
 */
static void *reader(void *arg)
{
	unsigned int slot = (unsigned int)(uintptr_t)arg, i = 0;
	unsigned char vec[READER_PAGES];
	char comm[LB_NAME_LEN];
	struct lb_actor *a;
	uint64_t start;
	char *region;

	snprintf(comm, sizeof(comm), "lb-reader-%u", slot);
	/*
	 * Mostly a victim; but a reader preempted inside a page fault holds
	 * mmap_lock for read while the mapper, and readers queued behind it,
	 * wait: then it really shares the blame, and only the kernel saw it.
	 */
	/* With -M both wait on each other: any verdict is the kernel's to tell. */
	a = lb_actor_start(g.truth, slot, "reader", comm,
			   g.walk ? "victim|shared|cause" : "victim|shared");
	region = lb_region(READER_PAGES * g.page);
	lb_start_wait(&g.start);
	while (g.walk && lb_now() < g.end_ns) {
		start = lb_now();
		if (lb_walk(g.region, g.region_size))
			lb_die("mincore");
		lb_actor_op(a, start, g.region_size);
		lb_sleep_ns(g.reader_pause_ns);
	}
	while (lb_now() < g.end_ns) {
		char *page = region + (size_t)i * g.page;

		start = lb_now();
		if (madvise(page, g.page, MADV_DONTNEED))
			lb_die("madvise");
		*(volatile char *)page = 1;
		if (mincore(region, READER_PAGES * g.page, vec))
			lb_die("mincore");
		lb_actor_op(a, start, g.page);
		i = (i + 1) % READER_PAGES;
		lb_sleep_ns(g.reader_pause_ns);
	}
	return NULL;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: lb-mmap [-d ms] [-n readers] [-m region_mib] [-P pause_us] [-r reader_pause_us] [-M]\n"
		"  a mapper flips the protection of a populated region_mib region every\n"
		"  pause_us; readers madvise, fault and mincore every reader_pause_us\n"
		"  (-M: mincore the mapper's whole region, long read holds).\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long duration_ms = 1000, readers = 2, i;
	pthread_t th[MAX_READERS + 1];
	char *region;
	int opt;

	while ((opt = getopt(argc, argv, "d:n:m:P:r:M")) != -1) {
		switch (opt) {
		case 'd':
			duration_ms = lb_arg(optarg, "-d");
			break;
		case 'n':
			readers = lb_arg(optarg, "-n");
			break;
		case 'm':
			g.region_size = lb_arg(optarg, "-m") << 20;
			break;
		case 'P':
			g.pause_ns = lb_arg(optarg, "-P") * 1000;
			break;
		case 'r':
			g.reader_pause_ns = lb_arg(optarg, "-r") * 1000;
			break;
		case 'M':
			g.walk = 1;
			break;
		default:
			usage();
		}
	}
	if (optind != argc || !readers || readers > MAX_READERS ||
	    !g.region_size)
		usage();

	g.page = sysconf(_SC_PAGESIZE);
	g.truth = lb_truth_create(readers + 1, 1);
	lb_start_init(&g.start, readers + 2);
	region = lb_region(g.region_size);
	g.region = region;

	lb_thread(&th[0], mapper, region);
	for (i = 1; i <= readers; i++)
		lb_thread(&th[i], reader, (void *)(uintptr_t)i);
	g.end_ns = lb_now() + duration_ms * 1000000;
	lb_start_wait(&g.start);
	lb_join(th, readers + 1);

	printf("truth workload=lb-mmap duration_ms=%lu readers=%lu region_bytes=%zu pause_ns=%llu reader_pause_ns=%llu walk=%d\n",
	       duration_ms, readers, g.region_size,
	       (unsigned long long)g.pause_ns,
	       (unsigned long long)g.reader_pause_ns, g.walk);
	lb_truth_print(g.truth);
	return 0;
}
