// SPDX-License-Identifier: GPL-2.0
/*
 * The ledger's work per event, for tools/bench/ledger-host to measure under
 * callgrind (collecting inside lb_ledger_feed only): feeds one scenario of
 * ledger_scenarios.c, or a recorded event stream, @rounds times into fresh
 * ledgers and prints how many events it fed. Or K mutexes at once, each
 * with a running holder and 4 waiters taking turns (--locks K ROUNDS
 * [every]: "every" applies every lock's time at every event, no_defer).
 *
 * Usage: ledger_bench --list | SCENARIO ROUNDS | --stream FILE ROUNDS |
 *        --locks K ROUNDS [every]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger.h"
#include "ledger_scenarios.h"
#include "stream_load.h"

/* The bench measures cost, not correctness: ledger_test checks these. */
static void no_check(void *ctx, const struct lb_scenario *s, u32 step, const char *what,
		     u64 got, u64 want)
{
	(void)ctx;
	(void)s;
	(void)step;
	(void)what;
	(void)got;
	(void)want;
}

static unsigned long count_events(const struct lb_scn_step *st)
{
	unsigned long n = 0;

	for (; st && st->op != LB_SCN_DONE; st++)
		n += st->op == LB_SCN_EVENT;
	return n;
}

static int bench_scenario(const char *name, unsigned long rounds)
{
	struct lb_scn_check c = { .check = no_check };
	const struct lb_scenario *s = NULL;
	unsigned long r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lb_scenarios); i++)
		if (!strcmp(lb_scenarios[i].name, name))
			s = &lb_scenarios[i];
	if (!s) {
		fprintf(stderr, "ledger_bench: no scenario %s (--list)\n", name);
		return 2;
	}
	for (r = 0; r < rounds; r++) {
		struct lb_ledger *l = lb_ledger_create(&s->limits);

		if (!l)
			return 2;
		lb_scn_run(s, l, &c);
		lb_ledger_destroy(l);
	}
	printf("events %lu\n", rounds * (count_events(s->prologue) + count_events(s->steps)));
	return 0;
}

static int bench_stream(const char *path, unsigned long rounds)
{
	struct lb_ledger_limits limits = { 0 };
	struct lb_event *ev;
	unsigned long n = 0, r;
	long k = lb_stream_load("ledger_bench", path, &ev), i;

	if (k < 0)
		return 2;
	for (r = 0; r < rounds; r++) {
		struct lb_ledger *l = lb_ledger_create(&limits);

		if (!l)
			break;
		for (i = 0; i < k; i++)
			lb_ledger_feed(l, &ev[i]);
		n += k;
		lb_ledger_destroy(l);
	}
	free(ev);
	printf("events %lu\n", n);
	return 0;
}

#define LB_BENCH_WAITERS	4

static void lock_event(struct lb_event *e, u64 ts, u8 type, u32 lock, s32 pid, s32 owner)
{
	memset(e, 0, sizeof(*e));
	e->ts_ns = ts;
	e->type = type;
	e->lock = 0x100 + lock;
	e->lock_class = LB_LOCK_MUTEX;
	e->task = (struct lb_task_id){ .pid = pid, .tgid = 100 };
	snprintf(e->task.comm, sizeof(e->task.comm), "t%d", pid);
	if (owner) {
		e->owner = (struct lb_task_id){ .pid = owner, .tgid = 100 };
		e->owner_source = LB_OWNER_LOCK_FIELD;
	}
}

/* @k mutexes, each with its holder and queue: its release, handoff, and requeue. */
static int bench_locks(u32 k, unsigned long rounds, bool every)
{
	s32 holder[64], queue[64][LB_BENCH_WAITERS], old;
	struct lb_ledger_opts opts;
	struct lb_ledger *l;
	unsigned long r, n = 0;
	struct lb_event e;
	u64 ts = 1000;
	u32 i, j;

	if (!k || k > ARRAY_SIZE(holder) || !(l = lb_ledger_create(NULL)))
		return 2;
	lb_ledger_opts(l, &opts);
	opts.no_defer = every;
	lb_ledger_set_opts(l, &opts);
	for (i = 0; i < k; i++) {
		holder[i] = 1000 + i * 32;
		for (j = 0; j < LB_BENCH_WAITERS; j++) {
			queue[i][j] = holder[i] + 1 + j;
			lock_event(&e, ts += 100, LB_EV_WAIT_BEGIN, i, queue[i][j], holder[i]);
			lb_ledger_feed(l, &e);
			n++;
		}
	}
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < k; i++) {
			old = holder[i];
			holder[i] = queue[i][0];
			lock_event(&e, ts += 100, LB_EV_RELEASE, i, old, 0);
			e.count = 1;
			lb_ledger_feed(l, &e);
			lock_event(&e, ts += 100, LB_EV_WAIT_END, i, holder[i], holder[i]);
			e.result = LB_WAIT_ACQUIRED;
			lb_ledger_feed(l, &e);
			memmove(queue[i], queue[i] + 1, sizeof(queue[i]) - sizeof(queue[i][0]));
			queue[i][LB_BENCH_WAITERS - 1] = old;
			lock_event(&e, ts += 100, LB_EV_WAIT_BEGIN, i, old, holder[i]);
			lb_ledger_feed(l, &e);
			n += 3;
		}
	}
	lb_ledger_destroy(l);
	printf("events %lu\n", n);
	return 0;
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < ARRAY_SIZE(lb_scenarios); i++)
			printf("%s\n", lb_scenarios[i].name);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "--stream"))
		return bench_stream(argv[2], strtoul(argv[3], NULL, 10));
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "--locks"))
		return bench_locks(strtoul(argv[2], NULL, 10), strtoul(argv[3], NULL, 10),
				   argc == 5 && !strcmp(argv[4], "every"));
	if (argc == 3)
		return bench_scenario(argv[1], strtoul(argv[2], NULL, 10));
	fprintf(stderr, "usage: ledger_bench --list | SCENARIO ROUNDS | --stream FILE ROUNDS | --locks K ROUNDS [every]\n");
	return 2;
}
