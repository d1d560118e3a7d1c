// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite lockblame_ledger: feeds the ledger synthetic contention
 * scenarios and checks verdicts, blame, holds, waits and conservation.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "ledger.h"
#include "ledger_scenarios.h"

#define LB_TEST_TEXT	(32 * 1024)

static void lb_kunit_check(void *ctx, const struct lb_scenario *s, u32 step, const char *what,
			   u64 got, u64 want)
{
	struct kunit *test = ctx;

	KUNIT_EXPECT_EQ_MSG(test, got, want, "%s, step %u: %s", s->name, step, what);
}

static struct lb_ledger *lb_kunit_run(struct kunit *test, const struct lb_scenario *s)
{
	struct lb_scn_check c = { .check = lb_kunit_check, .ctx = test };
	struct lb_ledger *l = lb_ledger_create(&s->limits);

	KUNIT_ASSERT_NOT_NULL(test, l);
	lb_scn_run(s, l, &c);
	return l;
}

static void lb_scenario_desc(const struct lb_scenario *s, char *desc)
{
	strscpy(desc, s->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(lb_scenario, lb_scenarios, lb_scenario_desc);

/*
 * Every scenario, each of its expectations checked at its step and
 * conservation after every step: a new scenario is a new row of
 * lb_scenarios, and this case runs it.
 */
static void lockblame_ledger_test_scenario(struct kunit *test)
{
	lb_ledger_destroy(lb_kunit_run(test, test->param_value));
}

/* What the herd lost is counted: newcomers refused, evicted tasks' waiting, pairs' blame. */
static void lockblame_ledger_test_herd_losses_counted(struct kunit *test)
{
	struct lb_ledger *l = lb_kunit_run(test, &lb_scenarios[LB_SCN_CULPRIT_FIRST]);
	struct lb_ledger_totals t;

	lb_ledger_totals(l, &t);
	KUNIT_EXPECT_GT(test, t.refused_tasks, 0);
	KUNIT_EXPECT_EQ(test, t.refused_tasks, t.dropped_waiters);
	KUNIT_EXPECT_GT(test, t.evicted_tasks, 0);
	/* Each evicted herd task waited 10 or was blamed 70: never more. */
	KUNIT_EXPECT_GT(test, t.evicted_wait_ns + t.evicted_blame_ns, 0);
	KUNIT_EXPECT_LE(test, t.evicted_wait_ns + t.evicted_blame_ns, 70 * t.evicted_tasks);
	KUNIT_EXPECT_GT(test, t.dropped_pair_ns, 0);
	KUNIT_EXPECT_LE(test, t.dropped_pair_ns, 10 * t.dropped_pairs);
	lb_ledger_destroy(l);
}

static void lb_verdict_desc(const struct lb_verdict_case *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(lb_verdict, lb_verdict_cases, lb_verdict_desc);

static void lockblame_ledger_test_verdict_rule(struct kunit *test)
{
	const struct lb_verdict_case *v = test->param_value;

	KUNIT_EXPECT_EQ(test, lb_verdict_of(v->blame, v->wait), v->want);
}

static char *lb_kunit_text(struct kunit *test, struct lb_scn_text *t)
{
	char *buf = kunit_kzalloc(test, LB_TEST_TEXT, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	lb_scn_text_init(t, buf, LB_TEST_TEXT);
	return buf;
}

/*
 * The report in @t's buffer: it fits the buffer and 100 columns, has each
 * section once and says that conservation holds.
 */
static void lb_kunit_check_report(struct kunit *test, const struct lb_ledger *l,
				  struct lb_scn_text *t)
{
	static const char * const sections[] = {
		"LOCKS by total wait", "TASKS by blame + wait", "PROCESSES by blame + wait",
		"CHAINS:", "DEADLOCKS:", "verdict, from the blame a task keeps", "EVENT WAITS:",
		"wait ",
	};
	const char *text = t->buf;
	size_t i;

	lb_scn_text_init(t, t->buf, t->size);
	lb_ledger_report(l, &t->out);
	KUNIT_EXPECT_FALSE(test, t->overflow);
	KUNIT_EXPECT_EQ(test, lb_scn_text_bad_line(text, 100), 0);
	for (i = 0; i < ARRAY_SIZE(sections); i++)
		KUNIT_EXPECT_EQ_MSG(test, lb_scn_text_count(text, sections[i]), 1,
				    "section %s", sections[i]);
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "wait = blame + pending + unattributed"));
	KUNIT_EXPECT_NULL(test, strstr(text, "BROKEN"));
}

/* Whether @line, up to its end, has " key=" for each of @keys. */
static bool lb_kunit_has_keys(const char *line, const char * const *keys)
{
	const char *end = strchr(line, '\n');
	char pat[48];
	const char *p;

	for (; *keys; keys++) {
		snprintf(pat, sizeof(pat), " %s=", *keys);
		p = strstr(line, pat);
		if (!p || p > end)
			return false;
	}
	return true;
}

/* The keys of each dump record (ledger_list.h): a reader parses them by name. */
static const char * const lb_dump_totals[] = {
	"events", "wait_ns", "blame_ns", "pending_ns", "unattributed_ns", "late", "unmatched",
	"evicted_locks", "evicted_tasks", "dropped_waiters", "dropped_pairs", "window_ns", NULL
};

static const char * const lb_dump_lock[] = {
	"id", "class", "acq", "wait_ns", "hold_ns", "blame_ns", "pending_ns", "unattributed_ns",
	"wait_p50", "wait_p99", "wait_max", "hold_p50", "hold_p99", "hold_max", "errors",
	"waiters", "holder", "util_ppm", "sat_milli", NULL
};

static const char * const lb_dump_task[] = {
	"pid", "tgid", "comm", "wait_ns", "waits", "hold_ns", "hold_on_cpu_ns", "holds",
	"blame_ns", "root_blame_ns", "errors", "verdict", "cgroup", NULL
};

static const char * const lb_dump_process[] = {
	"tgid", "comm", "wait_ns", "hold_ns", "blame_ns", "root_blame_ns", "verdict", "cgroup",
	NULL
};

static const char * const lb_dump_pair[] = { "holder", "victim", "blame_ns", NULL };

static const char * const lb_dump_chain[] = {
	"victim_lock", "holder", "waits_on", "root", "blame_ns", NULL
};

static const char * const lb_dump_deadlock[] = { "tasks", "locks", NULL };

static const char * const lb_dump_stack[] = { "pid", "role", "id", "ns", NULL };

static const char * const lb_dump_evwait[] = {
	"pid", "tgid", "comm", "wait_ns", "waits", "errors", "waker", "asleep", NULL
};

static const char * const lb_dump_signal[] = {
	"waiter", "waiter_tgid", "waiter_comm", "waker", "waker_tgid", "waker_comm", "wait_ns",
	"waits", "max_ns", NULL
};

static const char * const lb_dump_cgroup_pair[] = {
	"holder_cgroup", "victim_cgroup", "blame_ns", NULL
};

static const char * const lb_dump_outlier[] = {
	"kind", "ns", "ts", "lock", "class", "victim", "victim_tgid", "victim_comm", "holder",
	"holder_tgid", "holder_comm", "victim_stack", "victim_ustack", "holder_stack",
	"holder_ustack", "on_cpu_ns", "runnable_ns", "sleeping_ns", "unknown_ns", "root", "name",
	NULL
};

static const struct {
	const char *type;
	const char * const *keys;
} lb_dump_records[] = {
	{ "totals ", lb_dump_totals }, { "lock ", lb_dump_lock }, { "task ", lb_dump_task },
	{ "process ", lb_dump_process }, { "pair ", lb_dump_pair }, { "chain ", lb_dump_chain },
	{ "deadlock ", lb_dump_deadlock }, { "stack ", lb_dump_stack },
	{ "evwait ", lb_dump_evwait }, { "signal ", lb_dump_signal },
	{ "cgroup_pair ", lb_dump_cgroup_pair }, { "outlier ", lb_dump_outlier },
};

/* One dump line: a record type known, with all its keys; a lock id is 16 hex digits. */
static void lb_kunit_check_record(struct kunit *test, const char *line)
{
	const char * const *keys;
	const char *type;
	bool known = false;
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(lb_dump_records); i++) {
		type = lb_dump_records[i].type;
		keys = lb_dump_records[i].keys;
		n = strlen(type);
		if (strncmp(line, type, n))
			continue;
		known = true;
		KUNIT_EXPECT_TRUE_MSG(test, lb_kunit_has_keys(line - 1 + n, keys),
				      "a '%s' record lacks a key: %.60s", type, line);
	}
	KUNIT_EXPECT_TRUE_MSG(test, known, "unknown record: %.40s", line);
	if (!strncmp(line, "lock id=", 8))
		KUNIT_EXPECT_TRUE_MSG(test, strspn(line + 8, "0123456789abcdef") == 16 &&
				      line[24] == ' ', "lock id is not 16 hex digits: %.40s", line);
}

/*
 * The dump in @t's buffer: it fits, starts with its version line, has one
 * totals line with the ledger's totals, is printable, and every record has
 * its keys.
 */
static void lb_kunit_check_dump(struct kunit *test, const struct lb_ledger *l,
				struct lb_scn_text *t)
{
	struct lb_ledger_totals tot;
	const char *text = t->buf, *line, *nl;
	char want[64];

	lb_scn_text_init(t, t->buf, t->size);
	lb_ledger_dump(l, &t->out);
	lb_ledger_totals(l, &tot);
	KUNIT_EXPECT_FALSE(test, t->overflow);
	KUNIT_EXPECT_EQ(test, strncmp(text, "# lockblame ledger v1\n", 22), 0);
	KUNIT_EXPECT_EQ(test, lb_scn_text_count(text, "totals "), 1);
	KUNIT_EXPECT_EQ(test, lb_scn_text_bad_line(text, 4096), 0);
	snprintf(want, sizeof(want), "totals events=%llu wait_ns=%llu ", tot.events, tot.wait_ns);
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, want));
	nl = strchr(text, '\n');
	for (line = nl ? nl + 1 : ""; (nl = strchr(line, '\n')); line = nl + 1)
		lb_kunit_check_record(test, line);
}

/* Checks @check makes of the text of the scenario this test is given. */
static void lb_kunit_scenario_text(struct kunit *test,
				   void (*check)(struct kunit *test, const struct lb_ledger *l,
						 struct lb_scn_text *t))
{
	struct lb_ledger *l = lb_kunit_run(test, test->param_value);
	struct lb_scn_text t;

	lb_kunit_text(test, &t);
	check(test, l, &t);
	lb_ledger_destroy(l);
}

/* The report of every scenario fits 100 columns and has all its sections. */
static void lockblame_ledger_test_report_fits_100_columns(struct kunit *test)
{
	lb_kunit_scenario_text(test, lb_kunit_check_report);
}

/* The dump of every scenario: version line, one totals line, printable, all keys. */
static void lockblame_ledger_test_dump_format(struct kunit *test)
{
	lb_kunit_scenario_text(test, lb_kunit_check_dump);
}

/* An empty ledger's report and dump have every section and the totals line. */
static void lockblame_ledger_test_report_and_dump_of_empty_ledger(struct kunit *test)
{
	struct lb_ledger *l = lb_ledger_create(NULL);
	struct lb_scn_text t;

	KUNIT_ASSERT_NOT_NULL(test, l);
	lb_kunit_text(test, &t);
	lb_kunit_check_report(test, l, &t);
	lb_kunit_check_dump(test, l, &t);
	lb_ledger_destroy(l);
}

static void lockblame_ledger_test_dump_chain_and_deadlock(struct kunit *test)
{
	static const char * const root[] = {
		"task pid=703 tgid=700 comm=root wait_ns=0 waits=0 hold_ns=1000",
		" hold_on_cpu_ns=900 holds=1 blame_ns=1000 root_blame_ns=1900",
		" root_blame_ns=1900 errors=0 verdict=cause",
	};
	struct lb_ledger *l = lb_kunit_run(test, &lb_scenarios[LB_SCN_CHAIN]);
	struct lb_scn_text t;
	char *text = lb_kunit_text(test, &t);
	char want[160];
	size_t i;

	lb_ledger_dump(l, &t.out);
	snprintf(want, sizeof(want),
		 "chain victim_lock=%016llx holder=702 waits_on=%016llx root=703 blame_ns=900\n",
		 LB_LK(1), LB_LK(2));
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, want));
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "pair holder=702 victim=701 blame_ns=1400\n"));
	for (i = 0; i < ARRAY_SIZE(root); i++)
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(text, root[i]), "root: %s", root[i]);
	lb_ledger_destroy(l);

	l = lb_kunit_run(test, &lb_scenarios[LB_SCN_DEADLOCK]);
	lb_scn_text_init(&t, text, LB_TEST_TEXT);
	lb_ledger_dump(l, &t.out);
	snprintf(want, sizeof(want), "deadlock tasks=1101,1102 locks=%016llx,%016llx\n",
		 LB_LK(0xa), LB_LK(0xb));
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, want));
	KUNIT_EXPECT_EQ(test, lb_scn_text_count(text, "deadlock "), 1);
	lb_scn_text_init(&t, text, LB_TEST_TEXT);
	lb_ledger_report(l, &t.out);
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "tasks: left/1101, right/1102"));
	lb_ledger_destroy(l);
}

/* A comm with odd bytes cannot break a line or a key=value field. */
static void lockblame_ledger_test_comm_escaped(struct kunit *test)
{
	struct lb_ledger *l = lb_scn_odd_comm_ledger();
	struct lb_scn_text t;
	char *text = lb_kunit_text(test, &t);

	KUNIT_ASSERT_NOT_NULL(test, l);
	lb_ledger_dump(l, &t.out);
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, LB_SCN_ODD_COMM_ESCAPED));
	KUNIT_EXPECT_EQ(test, lb_scn_text_bad_line(text, 4096), 0);
	lb_kunit_check_report(test, l, &t);
	lb_ledger_destroy(l);
}

/* Events of the random stream; the host, where they cost less, feeds more. */
#ifndef LB_TEST_RANDOM_EVENTS
#define LB_TEST_RANDOM_EVENTS	50000
#endif

/*
 * A messy stream into small tables keeps the invariant after every event,
 * and the report and dump their form along the way.
 */
static void lockblame_ledger_test_random_stream_conserves(struct kunit *test)
{
	static const struct lb_ledger_limits lim = {
		.max_locks = 4, .max_tasks = 8, .max_waiters = 5, .max_pairs = 16,
		.max_chain_depth = 3,
	};
	struct lb_ledger *l = lb_ledger_create(&lim);
	u64 state = 0x9e3779b97f4a7c15ULL, ts = 1000;
	struct lb_ledger_totals t;
	struct lb_event ev;
	struct lb_scn_text text;
	u32 i, broken = 0;

	KUNIT_ASSERT_NOT_NULL(test, l);
	lb_kunit_text(test, &text);
	for (i = 0; i < LB_TEST_RANDOM_EVENTS; i++) {
		lb_scn_random_event(&state, &ts, &ev);
		lb_ledger_feed(l, &ev);
		if (i % 97 == 0)
			lb_ledger_advance(l, ts + 10);
		lb_ledger_totals(l, &t);
		broken += t.blame_ns + t.pending_ns + t.unattributed_ns != t.wait_ns;
		if (i % 20000 == 0)
			lb_kunit_check_report(test, l, &text);
	}
	KUNIT_EXPECT_EQ(test, broken, 0);
	KUNIT_EXPECT_GT(test, t.evicted_locks, 0);
	KUNIT_EXPECT_GT(test, t.evicted_tasks, 0);
	KUNIT_EXPECT_GT(test, t.dropped_waiters, 0);
	KUNIT_EXPECT_GT(test, t.late_events, 0);
	lb_kunit_check_dump(test, l, &text);
	lb_ledger_destroy(l);
}

static void lockblame_ledger_test_reset_empties(struct kunit *test)
{
	struct lb_ledger *l = lb_kunit_run(test, &lb_scenarios[LB_SCN_ON_CPU]);
	struct lb_ledger_totals t;
	struct lb_task_stats ts;
	struct lb_scn_check c = { .check = lb_kunit_check, .ctx = test };

	lb_ledger_reset(l);
	lb_ledger_totals(l, &t);
	KUNIT_EXPECT_GT(test, lb_ledger_bytes(l), sizeof(struct lb_event));
	KUNIT_EXPECT_EQ(test, t.events, 0);
	KUNIT_EXPECT_EQ(test, t.wait_ns, 0);
	KUNIT_EXPECT_EQ(test, t.blame_ns, 0);
	KUNIT_EXPECT_EQ(test, t.window_ns, 0);
	KUNIT_EXPECT_FALSE(test, lb_ledger_task(l, 101, &ts));
	/* The same ledger runs the scenario again, with the same numbers. */
	lb_scn_run(&lb_scenarios[LB_SCN_ON_CPU], l, &c);
	lb_ledger_destroy(l);
}

static void lb_kunit_no_check(void *ctx, const struct lb_scenario *s, u32 step,
			      const char *what, u64 got, u64 want)
{
}

/*
 * The five-deep chain with max_chain_depth 2: the walks stop two steps
 * past a blocked holder, and what they cut is counted. L1's notes from B
 * stop at D, still waiting on L4, over [0,1100): 1100; L2's from C stop at
 * E, waiting on L5, over [0,1000): 1000. L3's reach R: nothing cut.
 */
static void lockblame_ledger_test_chain_cut_counted(struct kunit *test)
{
	struct lb_scenario s = lb_scenarios[LB_SCN_CHAIN_FUTEX5];
	struct lb_scn_check c = { .check = lb_kunit_no_check };
	struct lb_ledger_totals t;
	struct lb_ledger *l;

	s.limits.max_chain_depth = 2;
	l = lb_ledger_create(&s.limits);
	KUNIT_ASSERT_NOT_NULL(test, l);
	lb_scn_run(&s, l, &c);
	lb_ledger_totals(l, &t);
	KUNIT_EXPECT_EQ(test, t.chain_cut_ns, 2100);
	KUNIT_EXPECT_EQ(test, t.blame_ns + t.pending_ns + t.unattributed_ns, t.wait_ns);
	lb_ledger_destroy(l);
	l = lb_kunit_run(test, &lb_scenarios[LB_SCN_CHAIN_FUTEX5]);
	lb_ledger_totals(l, &t);
	KUNIT_EXPECT_EQ(test, t.chain_cut_ns, 0);
	lb_ledger_destroy(l);
}

static struct kunit_case lockblame_ledger_test_cases[] = {
	KUNIT_CASE_PARAM(lockblame_ledger_test_scenario, lb_scenario_gen_params),
	KUNIT_CASE(lockblame_ledger_test_chain_cut_counted),
	KUNIT_CASE(lockblame_ledger_test_herd_losses_counted),
	KUNIT_CASE_PARAM(lockblame_ledger_test_verdict_rule, lb_verdict_gen_params),
	KUNIT_CASE_PARAM(lockblame_ledger_test_report_fits_100_columns, lb_scenario_gen_params),
	KUNIT_CASE_PARAM(lockblame_ledger_test_dump_format, lb_scenario_gen_params),
	KUNIT_CASE(lockblame_ledger_test_report_and_dump_of_empty_ledger),
	KUNIT_CASE(lockblame_ledger_test_dump_chain_and_deadlock),
	KUNIT_CASE(lockblame_ledger_test_comm_escaped),
	KUNIT_CASE(lockblame_ledger_test_random_stream_conserves),
	KUNIT_CASE(lockblame_ledger_test_reset_empties),
	{}
};

static struct kunit_suite lockblame_ledger_test_suite = {
	.name = "lockblame_ledger",
	.test_cases = lockblame_ledger_test_cases,
};

kunit_test_suite(lockblame_ledger_test_suite);

MODULE_DESCRIPTION("KUnit tests for the lockblame ledger");
MODULE_LICENSE("GPL");
