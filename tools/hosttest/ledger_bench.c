// SPDX-License-Identifier: GPL-2.0
/*
 * The ledger's work per event, for tools/bench/ledger-host to measure under
 * callgrind (collecting inside lb_ledger_feed only): feeds one scenario of
 * ledger_scenarios.c, or a recorded event stream, @rounds times into fresh
 * ledgers and prints how many events it fed.
 *
 * Usage: ledger_bench --list | SCENARIO ROUNDS | --stream FILE ROUNDS
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
	if (argc == 3)
		return bench_scenario(argv[1], strtoul(argv[2], NULL, 10));
	fprintf(stderr, "usage: ledger_bench --list | SCENARIO ROUNDS | --stream FILE ROUNDS\n");
	return 2;
}
