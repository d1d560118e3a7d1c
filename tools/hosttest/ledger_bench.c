// SPDX-License-Identifier: GPL-2.0
/*
 * The ledger's work per event, for tools/bench/ledger-host to measure under
 * callgrind (collecting inside lb_ledger_feed only): feeds one scenario of
 * ledger_scenarios.c, or a recorded event stream, @rounds times into fresh
 * ledgers and prints how many events it fed. Or K mutexes at once, each
 * with a running holder and 4 waiters taking turns (--locks K ROUNDS
 * [every]: "every" applies every lock's time at every event, no_defer).
 * Or one mutex with W waiters taking turns (--herd W ROUNDS), a herd: each
 * event applies the segment to every waiter, and W distinct pairs outgrow
 * the pair table, as the 5,000 threads of 62-herd.sh do.
 *
 * Usage: ledger_bench --list | SCENARIO ROUNDS | --stream FILE ROUNDS |
 *        --locks K ROUNDS [every] | --herd W ROUNDS
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
#define LB_BENCH_HERD_MAX	65536

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

/*
 * @k mutexes, each with its holder and a queue of @w: its release, handoff,
 * and requeue.
 */
static int bench_locks(u32 k, u32 w, unsigned long rounds, bool every)
{
	s32 holder[64], *queue, *q, old;
	struct lb_ledger_opts opts;
	struct lb_ledger *l;
	unsigned long r, n = 0;
	struct lb_event e;
	u64 ts = 1000;
	u32 i, j;

	if (!k || k > ARRAY_SIZE(holder) || !w || w > LB_BENCH_HERD_MAX)
		return 2;
	queue = calloc((size_t)k * w, sizeof(*queue));
	l = queue ? lb_ledger_create(NULL) : NULL;
	if (!l) {
		free(queue);
		return 2;
	}
	lb_ledger_opts(l, &opts);
	opts.no_defer = every;
	lb_ledger_set_opts(l, &opts);
	for (i = 0; i < k; i++) {
		holder[i] = 1000 + i * (w + 1);
		q = queue + (size_t)i * w;
		for (j = 0; j < w; j++) {
			q[j] = holder[i] + 1 + j;
			lock_event(&e, ts += 100, LB_EV_WAIT_BEGIN, i, q[j], holder[i]);
			lb_ledger_feed(l, &e);
			n++;
		}
	}
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < k; i++) {
			q = queue + (size_t)i * w;
			old = holder[i];
			holder[i] = q[0];
			lock_event(&e, ts += 100, LB_EV_RELEASE, i, old, 0);
			e.count = 1;
			lb_ledger_feed(l, &e);
			lock_event(&e, ts += 100, LB_EV_WAIT_END, i, holder[i], holder[i]);
			e.result = LB_WAIT_ACQUIRED;
			lb_ledger_feed(l, &e);
			memmove(q, q + 1, (size_t)(w - 1) * sizeof(*q));
			q[w - 1] = old;
			lock_event(&e, ts += 100, LB_EV_WAIT_BEGIN, i, old, holder[i]);
			lb_ledger_feed(l, &e);
			n += 3;
		}
	}
	lb_ledger_destroy(l);
	free(queue);
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
		return bench_locks(strtoul(argv[2], NULL, 10), LB_BENCH_WAITERS,
				   strtoul(argv[3], NULL, 10),
				   argc == 5 && !strcmp(argv[4], "every"));
	if (argc == 4 && !strcmp(argv[1], "--herd"))
		return bench_locks(1, strtoul(argv[2], NULL, 10), strtoul(argv[3], NULL, 10),
				   false);
	if (argc == 3)
		return bench_scenario(argv[1], strtoul(argv[2], NULL, 10));
	fprintf(stderr, "usage: ledger_bench --list | SCENARIO ROUNDS | --stream FILE ROUNDS |\n"
		"       --locks K ROUNDS [every] | --herd W ROUNDS\n");
	return 2;
}
