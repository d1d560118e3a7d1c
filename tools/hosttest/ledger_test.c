// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the ledger: the shared scenarios, the verdict rule, the
 * report and dump formats and a long random stream, printed as TAP.
 */
#include "ledger.h"
#include "ledger_internal.h"
#include "ledger_scenarios.h"

static unsigned int tests, failures, test_failures;

static void tap_result(const char *name)
{
	tests++;
	if (test_failures)
		failures++;
	printf("%sok %u - %s\n", test_failures ? "not " : "", tests, name);
	test_failures = 0;
}

static __printf(1, 2) void fail(const char *fmt, ...)
{
	va_list ap;

	test_failures++;
	if (test_failures > 20)
		return;
	printf("#   ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static void expect(bool cond, const char *what)
{
	if (!cond)
		fail("%s", what);
}

static void scenario_check(void *ctx, const struct lb_scenario *s, u32 step, const char *what,
			   u64 got, u64 want)
{
	(void)ctx;
	if (got != want)
		fail("%s, step %u: %s: got %llu, want %llu", s->name, step, what, got, want);
}

static struct lb_ledger *run_scenario(const struct lb_scenario *s)
{
	struct lb_scn_check c = { .check = scenario_check };
	struct lb_ledger *l = lb_ledger_create(&s->limits);

	if (!l) {
		fail("%s: lb_ledger_create failed", s->name);
		return NULL;
	}
	lb_scn_run(s, l, &c);
	return l;
}

static void test_scenarios(void)
{
	char name[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lb_scenarios); i++) {
		lb_ledger_destroy(run_scenario(&lb_scenarios[i]));
		snprintf(name, sizeof(name), "scenario %s", lb_scenarios[i].name);
		tap_result(name);
	}
}

static void test_verdicts(void)
{
	char name[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lb_verdict_cases); i++) {
		const struct lb_verdict_case *v = &lb_verdict_cases[i];
		enum lb_verdict got = lb_verdict_of(v->blame, v->wait);

		if (got != v->want)
			fail("blame %llu wait %llu: got %s, want %s", v->blame, v->wait,
			     lb_verdict_name(got), lb_verdict_name(v->want));
		snprintf(name, sizeof(name), "verdict %s", v->name);
		tap_result(name);
	}
}

#define TEXT_SIZE BIT(20)
static char text[TEXT_SIZE];

static void check_report(const struct lb_ledger *l, const char *who)
{
	static const char * const sections[] = {
		"LOCKS by total wait", "TASKS by blame + wait", "PROCESSES by blame + wait",
		"CHAINS:", "DEADLOCKS:", "verdict, from the blame a task keeps", "EVENT WAITS:",
		"wait ",
	};
	struct lb_scn_text t;
	u32 bad;
	size_t i;

	lb_scn_text_init(&t, text, sizeof(text));
	lb_ledger_report(l, &t.out);
	expect(!t.overflow, "report fits the buffer");
	bad = lb_scn_text_bad_line(text, 100);
	if (bad)
		fail("%s: report line %u is wider than 100 columns or not printable", who, bad);
	for (i = 0; i < ARRAY_SIZE(sections); i++)
		if (!lb_scn_text_count(text, sections[i]))
			fail("%s: report has no line starting with '%s'", who, sections[i]);
	if (!strstr(text, "wait = blame + pending + unattributed"))
		fail("%s: report lacks the conservation line", who);
	if (strstr(text, "BROKEN"))
		fail("%s: report says conservation is broken", who);
}

static bool has_keys(const char *line, const char * const *keys)
{
	for (; *keys; keys++) {
		char pat[48];
		const char *p;

		snprintf(pat, sizeof(pat), " %s=", *keys);
		p = strstr(line, pat);
		if (!p || p > strchr(line, '\n'))
			return false;
	}
	return true;
}

/* Every record has the keys ledger_list.h lists; lock ids are 16 hex digits. */
static void check_dump(const struct lb_ledger *l, const char *who)
{
	static const char * const totals[] = {
		"events", "wait_ns", "blame_ns", "pending_ns", "unattributed_ns", "late",
		"unmatched", "evicted_locks", "evicted_tasks", "dropped_waiters",
		"dropped_pairs", "window_ns", NULL };
	static const char * const lock[] = {
		"id", "class", "acq", "wait_ns", "hold_ns", "blame_ns", "pending_ns",
		"unattributed_ns", "wait_p50", "wait_p99", "wait_max", "hold_p50", "hold_p99",
		"hold_max", "errors", "waiters", "holder", "util_ppm", "sat_milli", NULL };
	static const char * const task[] = {
		"pid", "tgid", "comm", "wait_ns", "waits", "hold_ns", "hold_on_cpu_ns", "holds",
		"blame_ns", "root_blame_ns", "errors", "verdict", "cgroup", NULL };
	static const char * const process[] = {
		"tgid", "comm", "wait_ns", "hold_ns", "blame_ns", "root_blame_ns", "verdict",
		"cgroup", NULL };
	static const char * const pair[] = { "holder", "victim", "blame_ns", NULL };
	static const char * const chain[] = {
		"victim_lock", "holder", "waits_on", "root", "blame_ns", NULL };
	static const char * const deadlock[] = { "tasks", "locks", NULL };
	static const char * const stack[] = { "pid", "role", "id", "ns", NULL };
	static const char * const evwait[] = {
		"pid", "tgid", "comm", "wait_ns", "waits", "errors", "waker", "asleep", NULL };
	static const char * const signal[] = {
		"waiter", "waiter_tgid", "waiter_comm", "waker", "waker_tgid", "waker_comm",
		"wait_ns", "waits", "max_ns", NULL };
	static const char * const cgroup_pair[] = {
		"holder_cgroup", "victim_cgroup", "blame_ns", NULL };
	static const char * const outlier[] = {
		"kind", "ns", "ts", "lock", "class", "victim", "victim_tgid", "victim_comm",
		"holder", "holder_tgid", "holder_comm", "victim_stack", "victim_ustack",
		"holder_stack", "holder_ustack", "on_cpu_ns", "runnable_ns", "sleeping_ns",
		"unknown_ns", "root", "name", NULL };
	static const struct {
		const char *type;
		const char * const *keys;
	} records[] = {
		{ "totals ", totals }, { "lock ", lock }, { "task ", task },
		{ "process ", process }, { "pair ", pair }, { "chain ", chain },
		{ "deadlock ", deadlock }, { "stack ", stack }, { "evwait ", evwait },
		{ "signal ", signal }, { "cgroup_pair ", cgroup_pair },
		{ "outlier ", outlier },
	};
	struct lb_scn_text t;
	const char *line;
	size_t i;

	lb_scn_text_init(&t, text, sizeof(text));
	lb_ledger_dump(l, &t.out);
	expect(!t.overflow, "dump fits the buffer");
	if (strncmp(text, "# lockblame ledger v1\n", 22))
		fail("%s: dump does not start with its version line", who);
	if (lb_scn_text_count(text, "totals ") != 1)
		fail("%s: dump has not exactly one totals line", who);
	if (lb_scn_text_bad_line(text, 4096))
		fail("%s: dump has a non-printable byte", who);
	for (line = strchr(text, '\n') + 1; *line; line = strchr(line, '\n') + 1) {
		bool known = false;

		for (i = 0; i < ARRAY_SIZE(records); i++) {
			size_t n = strlen(records[i].type);

			if (strncmp(line, records[i].type, n))
				continue;
			known = true;
			if (!has_keys(line - 1 + n, records[i].keys))
				fail("%s: a '%s' record lacks a key: %.60s", who, records[i].type,
				     line);
		}
		if (!known)
			fail("%s: unknown record: %.40s", who, line);
		if (!strncmp(line, "lock id=", 8) &&
		    (strspn(line + 8, "0123456789abcdef") != 16 || line[24] != ' '))
			fail("%s: lock id is not 16 hex digits: %.40s", who, line);
	}
}

static void test_report_and_dump(void)
{
	char name[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lb_scenarios); i++) {
		struct lb_ledger *l = run_scenario(&lb_scenarios[i]);

		if (l) {
			check_report(l, lb_scenarios[i].name);
			check_dump(l, lb_scenarios[i].name);
		}
		lb_ledger_destroy(l);
		snprintf(name, sizeof(name), "report and dump of %s", lb_scenarios[i].name);
		tap_result(name);
	}
}

static void test_report_empty(void)
{
	struct lb_ledger *l = lb_ledger_create(NULL);

	expect(l, "create with default limits");
	if (l) {
		check_report(l, "empty");
		check_dump(l, "empty");
	}
	lb_ledger_destroy(l);
	tap_result("report and dump of an empty ledger");
}

/* The dump's content matches the scenario: chain and deadlock records. */
static void test_dump_records(void)
{
	struct lb_ledger *l = run_scenario(&lb_scenarios[LB_SCN_CHAIN]);
	struct lb_scn_text t;
	char want[160];

	lb_scn_text_init(&t, text, sizeof(text));
	lb_ledger_dump(l, &t.out);
	snprintf(want, sizeof(want),
		 "chain victim_lock=%016llx holder=702 waits_on=%016llx root=703 blame_ns=900\n",
		 LB_LK(1), LB_LK(2));
	if (!strstr(text, want))
		fail("dump lacks: %s", want);
	if (!strstr(text, "pair holder=702 victim=701 blame_ns=1400\n"))
		fail("dump lacks the (702, 701) pair");
	if (!strstr(text, "task pid=703 tgid=700 comm=root wait_ns=0 waits=0 hold_ns=1000") ||
	    !strstr(text, " hold_on_cpu_ns=900 holds=1 blame_ns=1000 root_blame_ns=1900") ||
	    !strstr(text, " root_blame_ns=1900 errors=0 verdict=cause"))
		fail("dump lacks the root cause's task record");
	lb_ledger_destroy(l);

	l = run_scenario(&lb_scenarios[LB_SCN_DEADLOCK]);
	lb_scn_text_init(&t, text, sizeof(text));
	lb_ledger_dump(l, &t.out);
	snprintf(want, sizeof(want), "deadlock tasks=1101,1102 locks=%016llx,%016llx\n",
		 LB_LK(0xa), LB_LK(0xb));
	if (!strstr(text, want))
		fail("dump lacks: %s", want);
	if (lb_scn_text_count(text, "deadlock ") != 1)
		fail("the deadlock is not reported exactly once");
	lb_scn_text_init(&t, text, sizeof(text));
	lb_ledger_report(l, &t.out);
	if (!strstr(text, "tasks: left/1101, right/1102"))
		fail("report does not name the deadlocked tasks");
	lb_ledger_destroy(l);
	tap_result("dump records chains, pairs and deadlocks");
}

/* A comm with odd bytes cannot break a line or a key=value field. */
static void test_comm_escaped(void)
{
	struct lb_ledger *l = lb_scn_odd_comm_ledger();
	struct lb_scn_text t;

	lb_scn_text_init(&t, text, sizeof(text));
	lb_ledger_dump(l, &t.out);
	if (!strstr(text, LB_SCN_ODD_COMM_ESCAPED))
		fail("comm not escaped in the dump");
	if (lb_scn_text_bad_line(text, 4096))
		fail("dump has a raw odd byte");
	check_report(l, "odd comm");
	lb_ledger_destroy(l);
	tap_result("comm is escaped in report and dump");
}

static const char *test_name_of(u32 id)
{
	return id == 7 ? "mmap_lock of 300 (a b)" : NULL;
}

/*
 * A kernel lock's name from its id, escaped, "-" when unknown; a futex's
 * word address and process, at the end of its lock record.
 */
static void test_lock_names(void)
{
	static const struct lb_ledger_limits lim = {
		.max_locks = 8, .max_tasks = 8, .max_waiters = 8, .max_pairs = 8,
		.max_chain_depth = 2,
	};
	struct lb_ledger *l = lb_ledger_create(&lim);
	struct lb_scn_text t;
	struct lb_event ev = {
		.ts_ns = 1000, .lock = 0x1111, .type = LB_EV_WAIT_BEGIN,
		.lock_class = LB_LOCK_RWSEM, .name_id = 7,
		.task = { .pid = 301, .tgid = 300, .comm = "a" },
	};

	lb_ledger_set_namer(l, test_name_of);
	lb_ledger_feed(l, &ev);
	ev = (struct lb_event){
		.ts_ns = 1100, .lock = 0x2223, .type = LB_EV_WAIT_BEGIN,
		.lock_class = LB_LOCK_MUTEX, .name_id = 9,
		.task = { .pid = 302, .tgid = 300, .comm = "b" },
	};
	lb_ledger_feed(l, &ev);
	ev = (struct lb_event){
		.ts_ns = 1200, .lock = 0x3335, .type = LB_EV_WAIT_BEGIN,
		.lock_class = LB_LOCK_FUTEX, .uaddr = 0x7f0012345678ULL,
		.task = { .pid = 303, .tgid = 300, .comm = "c" },
	};
	lb_ledger_feed(l, &ev);
	lb_scn_text_init(&t, text, sizeof(text));
	lb_ledger_dump(l, &t.out);
	if (!strstr(text, " tgid=0 uaddr=0 name=mmap_lock\\x20of\\x20300\\x20(a\\x20b) hold_on_cpu_ns="))
		fail("a named kernel lock's record does not end with its escaped name");
	if (!strstr(text, " tgid=0 uaddr=0 name=- hold_on_cpu_ns="))
		fail("a lock whose name id names nothing is not name=-");
	if (!strstr(text, " tgid=300 uaddr=139638282147448 name=- hold_on_cpu_ns="))
		fail("a futex's record does not end with its process and word");
	lb_scn_text_init(&t, text, sizeof(text));
	lb_ledger_report(l, &t.out);
	if (!strstr(text, "    name: mmap_lock of 300 (a b)\n") ||
	    !strstr(text, "    name: futex word 0x7f0012345678 in process 300\n") ||
	    !strstr(text, "    name: unnamed\n"))
		fail("report lacks a name line");
	lb_ledger_destroy(l);
	tap_result("lock names in dump and report");
}

static void test_reset(void)
{
	struct lb_ledger *l = run_scenario(&lb_scenarios[LB_SCN_ON_CPU]);
	struct lb_ledger_totals t;
	struct lb_task_stats ts;

	lb_ledger_reset(l);
	lb_ledger_totals(l, &t);
	expect(lb_ledger_bytes(l) > sizeof(struct lb_event), "ledger reports its memory");
	expect(!t.events && !t.wait_ns && !t.blame_ns && !t.window_ns, "totals cleared");
	expect(!lb_ledger_task(l, 101, &ts), "tasks cleared");
	lb_ledger_destroy(l);
	/* The same ledger runs the scenario again, exactly. */
	l = run_scenario(&lb_scenarios[LB_SCN_ON_CPU]);
	lb_ledger_destroy(l);
	tap_result("reset empties the ledger");
}

/*
 * The stack records are allocated with the first stack an event names, and
 * counted in the ledger's memory from then on; reset keeps them.
 */
static void test_stack_records_on_first_use(void)
{
	static const struct lb_ledger_limits lim = {
		.max_locks = 8, .max_tasks = 8, .max_waiters = 8, .max_pairs = 64,
		.max_chain_depth = 2,
	};
	struct lb_ledger *l = lb_ledger_create(&lim);
	u64 before = lb_ledger_bytes(l), after;

	expect(!lb_stack_find(l, 10, LB_STACK_CAUSE, 5), "a stack found before any was added");
	lb_stack_add(l, 10, LB_STACK_CAUSE, 5, 100);
	lb_stack_add(l, 10, LB_STACK_CAUSE, 5, 20);
	after = lb_ledger_bytes(l);
	if (after != before + 64 * sizeof(struct lb_stack) + 64 * sizeof(struct hlist_head))
		fail("memory %llu -> %llu: not the stack records' size",
		     (unsigned long long)before, (unsigned long long)after);
	if (!lb_stack_find(l, 10, LB_STACK_CAUSE, 5) ||
	    lb_stack_find(l, 10, LB_STACK_CAUSE, 5)->ns != 120)
		fail("the stack's time is not 120 ns");
	lb_ledger_reset(l);
	expect(lb_ledger_bytes(l) == after && !lb_stack_find(l, 10, LB_STACK_CAUSE, 5),
	       "reset keeps the records' memory and empties them");
	lb_ledger_destroy(l);
	tap_result("stack records allocated with the first stack named");
}

/* A long messy stream into small tables: the invariant holds after every event. */
static void test_random_stream(void)
{
	static const struct lb_ledger_limits lim = {
		.max_locks = 4, .max_tasks = 8, .max_waiters = 5, .max_pairs = 16,
		.max_chain_depth = 3,
	};
	struct lb_ledger *l = lb_ledger_create(&lim);
	struct lb_ledger_totals t;
	struct lb_event ev;
	u64 state = 0x9e3779b97f4a7c15ULL, ts = 1000;
	u32 i;

	for (i = 0; i < 200000 && test_failures < 5; i++) {
		lb_scn_random_event(&state, &ts, &ev);
		lb_ledger_feed(l, &ev);
		if (i % 97 == 0)
			lb_ledger_advance(l, ts + 10);
		lb_ledger_totals(l, &t);
		if (t.blame_ns + t.pending_ns + t.unattributed_ns != t.wait_ns)
			fail("event %u: %llu + %llu + %llu != %llu", i, t.blame_ns, t.pending_ns,
			     t.unattributed_ns, t.wait_ns);
		if (i % 20000 == 0)
			check_report(l, "random");
	}
	lb_ledger_totals(l, &t);
	expect(t.evicted_locks && t.evicted_tasks && t.dropped_waiters && t.late_events,
	       "the stream exercised eviction, drops and late events");
	check_dump(l, "random");
	lb_ledger_destroy(l);
	tap_result("random stream keeps wait = blame + pending + unattributed");
}

/* One contended mutex hold: @victim waits 100 ns on @holder (each with a cgroup). */
static void feed_hold(struct lb_ledger *l, u64 lock, u64 ts, s32 holder, u64 hcg, s32 victim,
		      u64 vcg)
{
	struct lb_event ev = { .lock = lock, .lock_class = LB_LOCK_MUTEX };

	ev.ts_ns = ts;
	ev.type = LB_EV_WAIT_BEGIN;
	ev.task = (struct lb_task_id){ .pid = victim, .tgid = victim, .cgroup = vcg };
	ev.owner = (struct lb_task_id){ .pid = holder, .tgid = holder, .cgroup = hcg };
	ev.owner_source = LB_OWNER_LOCK_FIELD;
	lb_ledger_feed(l, &ev);
	memset(&ev.owner, 0, sizeof(ev.owner));
	ev.owner_source = LB_OWNER_NONE;
	ev.ts_ns = ts + 100;
	ev.type = LB_EV_RELEASE;
	ev.task = (struct lb_task_id){ .pid = holder, .tgid = holder, .cgroup = hcg };
	lb_ledger_feed(l, &ev);
	ev.type = LB_EV_WAIT_END;
	ev.result = LB_WAIT_ACQUIRED;
	ev.task = (struct lb_task_id){ .pid = victim, .tgid = victim, .cgroup = vcg };
	lb_ledger_feed(l, &ev);
}

/* 70 holder cgroups on one victim cgroup: 64 pairs kept, the rest counted as dropped. */
static void test_cgroup_pairs_bounded(void)
{
	struct lb_ledger *l = lb_ledger_create(NULL);
	struct lb_ledger_totals t;
	struct lb_scn_text tx;
	u32 i;

	for (i = 0; i < 70; i++)
		feed_hold(l, 0x1001 + 2 * i, 1000 + 1000 * i, 100 + i, 5000 + i, 1000 + i, 9000);
	lb_ledger_totals(l, &t);
	expect(lb_ledger_cgroup_blame(l, 5000, 9000) == 100, "first cgroup pair has its blame");
	expect(lb_ledger_cgroup_blame(l, 5063, 9000) == 100, "64th cgroup pair has its blame");
	expect(lb_ledger_cgroup_blame(l, 5064, 9000) == 0, "65th cgroup pair is not kept");
	expect(t.dropped_pairs == 6, "6 cgroup pairs counted as dropped_pairs");
	expect(t.blame_ns == 7000 && t.wait_ns == 7000, "blame conserved whatever the table keeps");
	lb_scn_text_init(&tx, text, sizeof(text));
	lb_ledger_dump(l, &tx.out);
	expect(lb_scn_text_count(text, "cgroup_pair ") == 64, "dump has 64 cgroup_pair records");
	expect(strstr(text, "cgroup_pair holder_cgroup=5000 victim_cgroup=9000 blame_ns=100\n"),
	       "dump's cgroup_pair record");
	expect(strstr(text, "task pid=100 ") && strstr(text, " cgroup=5000\n"),
	       "task record ends with its cgroup");
	lb_scn_text_init(&tx, text, sizeof(text));
	lb_ledger_report(l, &tx.out);
	expect(strstr(text, "CGROUPS: blame by the holder's cgroup and the victim's (64)") &&
	       strstr(text, "  cgroup:5000                -> cgroup:9000"),
	       "report's CGROUPS section");
	check_dump(l, "cgroup pairs");
	lb_ledger_destroy(l);
	tap_result("cgroup pairs: 64 kept, more counted as dropped_pairs, blame conserved");
}

/* A victim whose cgroup is not known (0): "-" in the report, 0 in the dump. */
static void test_cgroup_unknown(void)
{
	struct lb_ledger *l = lb_ledger_create(NULL);
	struct lb_scn_text tx;

	feed_hold(l, 0x2001, 1000, 100, 7, 200, 0);
	lb_scn_text_init(&tx, text, sizeof(text));
	lb_ledger_report(l, &tx.out);
	expect(strstr(text, "  cgroup:7                   -> -                             100ns\n"),
	       "report: an unknown cgroup is -");
	lb_scn_text_init(&tx, text, sizeof(text));
	lb_ledger_dump(l, &tx.out);
	expect(strstr(text, "cgroup_pair holder_cgroup=7 victim_cgroup=0 blame_ns=100\n"),
	       "dump: an unknown cgroup is 0");
	lb_ledger_destroy(l);
	tap_result("cgroup not known: - in the report, 0 in the dump");
}

/* One long hold kept whole: the dump's outlier records and the "outliers" file. */
static void test_outliers_text(void)
{
	struct lb_ledger *l = lb_ledger_create(NULL);
	struct lb_event ev = { .lock = LB_LK(0x70), .lock_class = LB_LOCK_MUTEX };
	struct lb_ledger_opts opts;
	struct lb_scn_text t;
	char want[320];
	u32 bad;

	expect(l, "create with default limits");
	if (!l) {
		tap_result("outliers in the dump and the outliers file");
		return;
	}
	lb_ledger_set_opts(l, &(struct lb_ledger_opts){ .futex_kinds = true,
						.outlier_ns = 50000000 });
	ev.task = (struct lb_task_id){ .pid = 601, .tgid = 600, .comm = "victim" };
	ev.owner = (struct lb_task_id){ .pid = 501, .tgid = 500, .comm = "culprit" };
	ev.owner_source = LB_OWNER_LOCK_FIELD;
	ev.type = LB_EV_WAIT_BEGIN;
	ev.ts_ns = 1000000000;
	ev.stack_id = 7;
	ev.ustack_id = 8;
	lb_ledger_feed(l, &ev);
	ev.task = ev.owner;
	ev.owner_source = LB_OWNER_NONE;
	ev.type = LB_EV_RELEASE;
	ev.ts_ns += 80000000;
	ev.stack_id = 9;
	ev.ustack_id = 10;
	lb_ledger_feed(l, &ev);
	lb_scn_text_init(&t, text, sizeof(text));
	lb_ledger_dump(l, &t.out);
	snprintf(want, sizeof(want),
		 "outlier kind=hold ns=80000000 ts=1080000000 lock=%016llx class=mutex victim=601 victim_tgid=600 victim_comm=victim holder=501 holder_tgid=500 holder_comm=culprit victim_stack=7 victim_ustack=8 holder_stack=9 holder_ustack=10 ",
		 LB_LK(0x70));
	if (!strstr(text, want))
		fail("dump lacks: %s", want);
	if (!strstr(text, " outlier_ns=50000000 outliers_missed=0\n"))
		fail("dump's totals lack the outlier threshold");
	lb_scn_text_init(&t, text, sizeof(text));
	lb_ledger_outliers(l, &t.out);
	if (!strstr(text, "# lockblame outliers v1: threshold 50.0ms, kept 1 of 32, not kept 0\n"))
		fail("outliers file lacks its header: %s", text);
	if (lb_scn_text_count(text, "hold ") != 1 || !strstr(text, " 80.0ms ") ||
	    !strstr(text, " culprit "))
		fail("outliers file lacks the hold: %s", text);
	bad = lb_scn_text_bad_line(text, 240);
	if (bad)
		fail("outliers file line %u is not printable or too wide", bad);
	lb_ledger_reset(l);
	lb_scn_text_init(&t, text, sizeof(text));
	lb_ledger_outliers(l, &t.out);
	lb_ledger_opts(l, &opts);
	if (lb_scn_text_count(text, "hold ") || opts.outlier_ns != 50000000)
		fail("reset did not empty the outliers, or lost the threshold");
	lb_ledger_destroy(l);
	tap_result("outliers in the dump and the outliers file");
}

/*
 * A histogram's u32 bucket about to overflow halves every bucket: the count
 * stays exact, a seen range stays seen, and the percentiles keep their place.
 */
static void test_hist_halves(void)
{
	struct lb_hist h = {};
	u32 i;

	/* 90% of the values near 1 us (bucket 10), 10% near 1 ms (bucket 20). */
	h.bucket[10] = U32_MAX - 1;
	h.bucket[20] = U32_MAX / 9;
	h.bucket[3] = 1;
	h.count = (u64)h.bucket[10] + h.bucket[20] + 1;
	h.max = 1000000;
	for (i = 0; i < 3; i++)
		lb_hist_add(&h, 1000);
	if (h.count != (u64)U32_MAX + U32_MAX / 9 + 3)
		fail("count %llu: not exact after halving", (unsigned long long)h.count);
	if (h.bucket[10] > U32_MAX / 2 + 3 || h.bucket[10] < U32_MAX / 2)
		fail("bucket 10 holds %u: not halved once", h.bucket[10]);
	if (h.bucket[3] != 1)
		fail("a bucket holding 1 became %u: a seen range was lost", h.bucket[3]);
	if (lb_hist_percentile(&h, 50) != 1023)
		fail("p50 %llu, want 1023", (unsigned long long)lb_hist_percentile(&h, 50));
	if (lb_hist_percentile(&h, 95) != 1000000)
		fail("p95 %llu, want the max 1000000",
		     (unsigned long long)lb_hist_percentile(&h, 95));
	tap_result("histogram buckets halve instead of overflowing");
}

int main(void)
{
	test_hist_halves();
	test_scenarios();
	test_verdicts();
	test_report_and_dump();
	test_report_empty();
	test_dump_records();
	test_comm_escaped();
	test_lock_names();
	test_reset();
	test_stack_records_on_first_use();
	test_random_stream();
	test_cgroup_pairs_bounded();
	test_cgroup_unknown();
	test_outliers_text();
	printf("1..%u\n", tests);
	printf("# passed %u failed %u\n", tests - failures, failures);
	return failures ? 1 : 0;
}
