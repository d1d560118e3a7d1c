// SPDX-License-Identifier: GPL-2.0
/*
 * Writes the binary event-stream fixtures for the reader's tests, from the
 * real struct definitions in abi.h: a good stream and broken variants.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lockblame/abi.h>

#define LOCK_A	0x3f9c2a7b10d4e851ULL
#define LOCK_B	0x8e21c07d5a6b3f02ULL
#define LOCK_C	0x1b7f0e9a4c3d2e65ULL
#define LOCK_P	0x00000000c0ffee01ULL
#define LOCK_S	0x5ca1ab1e0000f00dULL

static void id(struct lb_task_id *t, int pid, int tgid, const char *comm, size_t len)
{
	t->pid = pid;
	t->tgid = tgid;
	memset(t->comm, 0, sizeof(t->comm));
	memcpy(t->comm, comm, len);
}

static struct lb_event ev(unsigned long long ts, int cpu, int type, int cls,
			  unsigned long long lock)
{
	struct lb_event e;

	memset(&e, 0, sizeof(e));
	e.ts_ns = ts;
	e.cpu = cpu;
	e.type = type;
	e.lock_class = cls;
	e.lock = lock;
	return e;
}

static unsigned int build(struct lb_event *v)
{
	unsigned int n = 0;

	v[n] = ev(1000000000, 0, LB_EV_WAIT_BEGIN, LB_LOCK_FUTEX, LOCK_A);
	id(&v[n].task, 1202, 1200, "db-worker", 9);
	id(&v[n].owner, 1201, 1200, "db-checkpoint", 13);
	v[n].task.cgroup = 4242;
	v[n].owner.cgroup = 1;
	v[n].owner_source = LB_OWNER_HEURISTIC;
	v[n].stack_id = 1;
	v[n].ustack_id = 5;
	v[n].flags = LB_EF_WORD;
	v[n].word = 0x80000002;
	v[n].cpu_ns = 12000000;
	v[n].run_delay_ns = 1500000;
	v[n].owner_run_delay_ns = 91000000;
	v[n++].owner_cpu_ns = 340000000;

	v[n] = ev(1000250000, 1, LB_EV_RELEASE, LB_LOCK_FUTEX, LOCK_A);
	id(&v[n].task, 1201, 1200, "db-checkpoint", 13);
	v[n].count = 1;
	v[n].stack_id = 3;
	v[n].run_delay_ns = 91040000;
	v[n++].cpu_ns = 340200000;

	v[n] = ev(1000262000, 0, LB_EV_WAIT_END, LB_LOCK_FUTEX, LOCK_A);
	id(&v[n].task, 1202, 1200, "db-worker", 9);
	v[n].result = LB_WAIT_WOKEN;
	v[n].stack_id = 1;
	v[n++].cpu_ns = 12010000;

	v[n] = ev(1000300000, 1, LB_EV_WAIT_BEGIN, LB_LOCK_MUTEX, LOCK_B);
	id(&v[n].task, 1201, 1200, "db-checkpoint", 13);
	id(&v[n].owner, 1400, 1400, "compactor", 9);
	v[n].owner_source = LB_OWNER_LOCK_FIELD;
	v[n].stack_id = 2;
	v[n].cpu_ns = 340250000;
	v[n++].owner_cpu_ns = 51000000;

	v[n] = ev(1000400000, 0, LB_EV_WAIT_BEGIN, LB_LOCK_RWSEM, LOCK_C);
	id(&v[n].task, 1500, 1500, "a b\n", 4);
	id(&v[n].owner, 1501, 1501, "logrotate", 9);
	v[n].owner_source = LB_OWNER_READER_HINT;
	v[n++].flags = LB_EF_READ;

	/* A record type from a newer module: the reader must skip it. */
	v[n] = ev(1000450000, 0, 9, LB_LOCK_RWSEM, LOCK_C);
	id(&v[n++].task, 1500, 1500, "a b\n", 4);

	v[n] = ev(1000500000, 0, LB_EV_WAIT_END, LB_LOCK_RWSEM, LOCK_C);
	id(&v[n].task, 1500, 1500, "a b\n", 4);
	v[n].result = LB_WAIT_TIMEOUT;
	v[n++].flags = LB_EF_READ | LB_EF_NOSLEEP;

	v[n] = ev(1000600000, 1, LB_EV_RELEASE, LB_LOCK_MUTEX, LOCK_B);
	id(&v[n].task, 1400, 1400, "compactor", 9);
	v[n].flags = LB_EF_KTHREAD | 0x4000;
	v[n].count = 1;
	v[n].stack_id = 4;
	v[n++].cpu_ns = 51100000;

	v[n] = ev(1000610000, 1, LB_EV_WAIT_END, LB_LOCK_MUTEX, LOCK_B);
	id(&v[n].task, 1201, 1200, "db-checkpoint", 13);
	id(&v[n].owner, 1201, 1200, "db-checkpoint", 13);
	v[n].owner_source = LB_OWNER_LOCK_FIELD;
	v[n].result = LB_WAIT_ACQUIRED;
	v[n].stack_id = 2;
	v[n++].cpu_ns = 340260000;

	/* A comm that fills all 16 bytes, with no NUL. */
	v[n] = ev(1000700000, 0, LB_EV_WAIT_BEGIN, LB_LOCK_FUTEX_PI, LOCK_P);
	id(&v[n].task, 1600, 1600, "abcdefghijklmnop", 16);
	id(&v[n].owner, 1601, 1600, "pi=owner\\", 9);
	v[n].owner_source = LB_OWNER_PI_WORD;
	v[n++].flags = LB_EF_SHARED_KEY;

	/* A span scope (ABI 5): entered by one backend, whose waker is another. */
	v[n] = ev(1000800000, 1, LB_EV_SCOPE_ENTER, LB_LOCK_SCOPE, LOCK_S);
	id(&v[n].task, 1700, 1700, "postgres", 8);
	v[n].flags = LB_EF_SHARED_KEY | LB_EF_SPAN;
	v[n].count = 2;
	v[n++].uaddr = 0x55d0c0a01000;

	v[n] = ev(1000900000, 0, LB_EV_SCOPE_WAKE, LB_LOCK_SCOPE, 0);
	id(&v[n].task, 1701, 1701, "postgres", 8);
	id(&v[n++].owner, 1700, 1700, "postgres", 8);
	return n;
}

static int put(const char *dir, const char *name, const void *a, size_t alen,
	       const void *b, size_t blen)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(a, 1, alen, f) != alen || (blen && fwrite(b, 1, blen, f) != blen) ||
	    fclose(f)) {
		perror(path);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct lb_stream_header h = {
		.magic = LB_STREAM_MAGIC,
		.abi_version = LB_ABI_VERSION,
		.header_size = sizeof(h),
		.record_size = sizeof(struct lb_event),
		.nr_cpus = 2,
		.start_ns = 999000000,
	};
	struct lb_stream_header bad;
	struct lb_event v[16];
	unsigned int n;
	int err = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: gen-events OUTDIR\n");
		return 2;
	}
	n = build(v);
	err |= put(argv[1], "events.bin", &h, sizeof(h), v, n * sizeof(v[0]));
	err |= put(argv[1], "events-header-only.bin", &h, sizeof(h), NULL, 0);
	err |= put(argv[1], "events-truncated.bin", &h, sizeof(h), v, n * sizeof(v[0]) - 40);
	err |= put(argv[1], "events-short-header.bin", &h, 10, NULL, 0);
	bad = h;
	bad.abi_version = LB_ABI_VERSION + 1;
	err |= put(argv[1], "events-badabi.bin", &bad, sizeof(bad), v, sizeof(v[0]));
	bad = h;
	bad.magic = 0x12345678;
	err |= put(argv[1], "events-badmagic.bin", &bad, sizeof(bad), v, sizeof(v[0]));
	bad = h;
	bad.record_size = sizeof(struct lb_event) - 8;
	err |= put(argv[1], "events-recsize.bin", &bad, sizeof(bad), v, sizeof(v[0]));
	return err;
}
