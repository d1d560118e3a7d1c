// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the ledger, as TAP: the KUnit suite lockblame_ledger
 * (kunit/ledger_test.c), built here against the KUnit stand-in in
 * include/kunit/test.h as the kernel's tools/testing/radix-tree builds the
 * maple tree's tests, and lockblame_ledger_host, the cases only the host
 * runs: ledger internals the module does not export (histograms, stack
 * records), lock names, cgroup pairs and outliers in a 1 MiB text.
 */

/* The host runs the random stream of lockblame_ledger four times as long. */
#define LB_TEST_RANDOM_EVENTS	200000

/* Kernel code, built as the kernel builds it: without -Wunused-parameter. */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "../../kunit/ledger_test.c"
#pragma GCC diagnostic warning "-Wunused-parameter"
#include "ledger_internal.h"

static char text[BIT(20)];

static const char *test_name_of(u32 id)
{
	return id == 7 ? "mmap_lock of 300 (a b)" : NULL;
}

/*
 * A kernel lock's name from its id, escaped, "-" when unknown; a futex's
 * word address and process, at the end of its lock record.
 */
static void lockblame_ledger_host_test_lock_names(struct kunit *test)
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
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(text, " tgid=0 uaddr=0 name=mmap_lock\\x20of\\x20300\\x20(a\\x20b) hold_on_cpu_ns="),
				  "a named kernel lock's record does not end with its escaped name");
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(text, " tgid=0 uaddr=0 name=- hold_on_cpu_ns="),
				  "a lock whose name id names nothing is not name=-");
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(text, " tgid=300 uaddr=139638282147448 name=- hold_on_cpu_ns="),
				  "a futex's record does not end with its process and word");
	lb_scn_text_init(&t, text, sizeof(text));
	lb_ledger_report(l, &t.out);
	KUNIT_EXPECT_TRUE_MSG(test, strstr(text, "    name: mmap_lock of 300 (a b)\n") &&
			      strstr(text, "    name: futex word 0x7f0012345678 in process 300\n") &&
			      strstr(text, "    name: unnamed\n"), "report lacks a name line");
	lb_ledger_destroy(l);
}

/*
 * The stack records are allocated with the first stack an event names, and
 * counted in the ledger's memory from then on; reset keeps them.
 */
static void lockblame_ledger_host_test_stack_records_on_first_use(struct kunit *test)
{
	static const struct lb_ledger_limits lim = {
		.max_locks = 8, .max_tasks = 8, .max_waiters = 8, .max_pairs = 64,
		.max_chain_depth = 2,
	};
	struct lb_ledger *l = lb_ledger_create(&lim);
	u64 before = lb_ledger_bytes(l), after;

	KUNIT_EXPECT_NULL_MSG(test, lb_stack_find(l, 10, LB_STACK_CAUSE, 5),
			      "a stack found before any was added");
	lb_stack_add(l, 10, LB_STACK_CAUSE, 5, 100);
	lb_stack_add(l, 10, LB_STACK_CAUSE, 5, 20);
	after = lb_ledger_bytes(l);
	KUNIT_EXPECT_EQ_MSG(test, after,
			    before + 64 * sizeof(struct lb_stack) + 64 * sizeof(struct hlist_head),
			    "memory %llu -> %llu: not the stack records' size", before, after);
	KUNIT_EXPECT_TRUE_MSG(test, lb_stack_find(l, 10, LB_STACK_CAUSE, 5) &&
			      lb_stack_find(l, 10, LB_STACK_CAUSE, 5)->ns == 120,
			      "the stack's time is not 120 ns");
	lb_ledger_reset(l);
	KUNIT_EXPECT_TRUE_MSG(test, lb_ledger_bytes(l) == after &&
			      !lb_stack_find(l, 10, LB_STACK_CAUSE, 5),
			      "reset keeps the records' memory and empties them");
	lb_ledger_destroy(l);
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
static void lockblame_ledger_host_test_cgroup_pairs_bounded(struct kunit *test)
{
	struct lb_ledger *l = lb_ledger_create(NULL);
	struct lb_ledger_totals t;
	struct lb_scn_text tx;
	u32 i;

	for (i = 0; i < 70; i++)
		feed_hold(l, 0x1001 + 2 * i, 1000 + 1000 * i, 100 + i, 5000 + i, 1000 + i, 9000);
	lb_ledger_totals(l, &t);
	KUNIT_EXPECT_EQ_MSG(test, lb_ledger_cgroup_blame(l, 5000, 9000), 100,
			    "first cgroup pair has its blame");
	KUNIT_EXPECT_EQ_MSG(test, lb_ledger_cgroup_blame(l, 5063, 9000), 100,
			    "64th cgroup pair has its blame");
	KUNIT_EXPECT_EQ_MSG(test, lb_ledger_cgroup_blame(l, 5064, 9000), 0,
			    "65th cgroup pair is not kept");
	KUNIT_EXPECT_EQ_MSG(test, t.dropped_pairs, 6, "6 cgroup pairs counted as dropped_pairs");
	KUNIT_EXPECT_TRUE_MSG(test, t.blame_ns == 7000 && t.wait_ns == 7000,
			      "blame conserved whatever the table keeps");
	lb_scn_text_init(&tx, text, sizeof(text));
	lb_ledger_dump(l, &tx.out);
	KUNIT_EXPECT_EQ_MSG(test, lb_scn_text_count(text, "cgroup_pair "), 64,
			    "dump has 64 cgroup_pair records");
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(text, "cgroup_pair holder_cgroup=5000 victim_cgroup=9000 blame_ns=100\n"),
				  "dump's cgroup_pair record");
	KUNIT_EXPECT_TRUE_MSG(test, strstr(text, "task pid=100 ") && strstr(text, " cgroup=5000\n"),
			      "task record ends with its cgroup");
	lb_scn_text_init(&tx, text, sizeof(text));
	lb_ledger_report(l, &tx.out);
	KUNIT_EXPECT_TRUE_MSG(test, strstr(text, "CGROUPS: blame by the holder's cgroup and the victim's (64)") &&
			      strstr(text, "  cgroup:5000                -> cgroup:9000"),
			      "report's CGROUPS section");
	lb_kunit_check_dump(test, l, &tx);
	lb_ledger_destroy(l);
}

/* A victim whose cgroup is not known (0): "-" in the report, 0 in the dump. */
static void lockblame_ledger_host_test_cgroup_unknown(struct kunit *test)
{
	struct lb_ledger *l = lb_ledger_create(NULL);
	struct lb_scn_text tx;

	feed_hold(l, 0x2001, 1000, 100, 7, 200, 0);
	lb_scn_text_init(&tx, text, sizeof(text));
	lb_ledger_report(l, &tx.out);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(text, "  cgroup:7                   -> -                             100ns\n"),
				  "report: an unknown cgroup is -");
	lb_scn_text_init(&tx, text, sizeof(text));
	lb_ledger_dump(l, &tx.out);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(text, "cgroup_pair holder_cgroup=7 victim_cgroup=0 blame_ns=100\n"),
				  "dump: an unknown cgroup is 0");
	lb_ledger_destroy(l);
}

/* One long hold kept whole: the dump's outlier records and the "outliers" file. */
static void lockblame_ledger_host_test_outliers_text(struct kunit *test)
{
	struct lb_ledger *l = lb_ledger_create(NULL);
	struct lb_event ev = { .lock = LB_LK(0x70), .lock_class = LB_LOCK_MUTEX };
	struct lb_ledger_opts opts;
	struct lb_scn_text t;
	char want[320];
	u32 bad;

	KUNIT_ASSERT_NOT_NULL_MSG(test, l, "create with default limits");
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
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(text, want), "dump lacks: %s", want);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(text, " outlier_ns=50000000 outliers_missed=0\n"),
				  "dump's totals lack the outlier threshold");
	lb_scn_text_init(&t, text, sizeof(text));
	lb_ledger_outliers(l, &t.out);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(text, "# lockblame outliers v1: threshold 50.0ms, kept 1 of 32, not kept 0\n"),
				  "outliers file lacks its header: %s", text);
	KUNIT_EXPECT_TRUE_MSG(test, lb_scn_text_count(text, "hold ") == 1 &&
			      strstr(text, " 80.0ms ") && strstr(text, " culprit "),
			      "outliers file lacks the hold: %s", text);
	bad = lb_scn_text_bad_line(text, 240);
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "outliers file line %u is not printable or too wide", bad);
	lb_ledger_reset(l);
	lb_scn_text_init(&t, text, sizeof(text));
	lb_ledger_outliers(l, &t.out);
	lb_ledger_opts(l, &opts);
	KUNIT_EXPECT_TRUE_MSG(test, !lb_scn_text_count(text, "hold ") &&
			      opts.outlier_ns == 50000000,
			      "reset did not empty the outliers, or lost the threshold");
	lb_ledger_destroy(l);
}

/* One event of @pid on @lock (a mutex) at @ts, naming @owner (0: none). */
static void lb_host_feed(struct lb_ledger *l, u8 type, u64 lock, s32 pid, s32 owner, u64 ts,
			 u32 stack)
{
	struct lb_event ev = { .type = type, .lock = lock, .lock_class = LB_LOCK_MUTEX,
			       .ts_ns = ts, .stack_id = stack, .result = LB_WAIT_ACQUIRED };

	ev.task = (struct lb_task_id){ .pid = pid, .tgid = pid - pid % 100 };
	snprintf(ev.task.comm, sizeof(ev.task.comm), "t%d", pid);
	if (owner) {
		ev.owner = (struct lb_task_id){ .pid = owner, .tgid = owner - owner % 100 };
		snprintf(ev.owner.comm, sizeof(ev.owner.comm), "t%d", owner);
		ev.owner_source = LB_OWNER_LOCK_FIELD;
	}
	lb_ledger_feed(l, &ev);
}

/*
 * 601 waits 90 ms on a mutex: 80 under 501, then 10 under 602, which took
 * it first. Its outlier names 501 with the stacks of 501's release, kept in
 * the ledger's ring of release notes; unless @fill: 32 releases kept for
 * other waits meanwhile take every slot, and the outlier names 501 without
 * stacks (0), not another release's.
 */
static void lb_host_outlier_ring(struct kunit *test, bool fill)
{
	struct lb_ledger *l = lb_ledger_create(NULL);
	const u64 a = LB_LK(0x7a), b = LB_LK(0x7b), t = 1000000000;
	struct lb_outlier o;
	u32 i, n;

	KUNIT_ASSERT_NOT_NULL_MSG(test, l, "create with default limits");
	lb_ledger_set_opts(l, &(struct lb_ledger_opts){ .futex_kinds = true,
						.outlier_ns = 50000000 });
	lb_host_feed(l, LB_EV_WAIT_BEGIN, a, 601, 501, t, 21);
	lb_host_feed(l, LB_EV_WAIT_BEGIN, a, 602, 501, t, 22);
	lb_host_feed(l, LB_EV_RELEASE, a, 501, 0, t + 80000000, 9);
	lb_host_feed(l, LB_EV_WAIT_END, a, 602, 0, t + 80000000, 0);
	for (i = 0; fill && i < LB_REL_NOTES; i++) {
		u64 ts = t + 80100000 + i * 200000;

		lb_host_feed(l, LB_EV_WAIT_BEGIN, b, 603, 502, ts, 23);
		lb_host_feed(l, LB_EV_RELEASE, b, 502, 0, ts + 100000, 30 + i);
		lb_host_feed(l, LB_EV_WAIT_END, b, 603, 0, ts + 100000, 0);
	}
	lb_host_feed(l, LB_EV_RELEASE, a, 602, 0, t + 90000000, 11);
	lb_host_feed(l, LB_EV_WAIT_END, a, 601, 0, t + 90000000, 0);
	for (i = 0, n = 0; lb_ledger_outlier(l, i, &o); i++) {
		if (o.kind != LB_OUTLIER_WAIT || o.victim.pid != 601)
			continue;
		n++;
		KUNIT_EXPECT_EQ_MSG(test, o.holder.pid, 501, "the holder of 601's longest stretch");
		KUNIT_EXPECT_EQ_MSG(test, o.holder_stack, fill ? 0 : 9,
				    "the stack of 501's release (fill %d)", fill);
		KUNIT_EXPECT_EQ_MSG(test, o.unknown_ns, fill ? 0 : 80000000,
				    "the split of 501's hold (fill %d)", fill);
	}
	KUNIT_EXPECT_EQ_MSG(test, n, 1, "601's wait is one outlier");
	lb_ledger_destroy(l);
}

static void lockblame_ledger_host_test_outlier_release_ring(struct kunit *test)
{
	lb_host_outlier_ring(test, false);
	lb_host_outlier_ring(test, true);
}

/*
 * A histogram's u32 bucket about to overflow halves every bucket: the count
 * stays exact, a seen range stays seen, and the percentiles keep their place.
 */
static void lockblame_ledger_host_test_hist_halves(struct kunit *test)
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
	KUNIT_EXPECT_EQ_MSG(test, h.count, (u64)U32_MAX + U32_MAX / 9 + 3,
			    "not exact after halving");
	KUNIT_EXPECT_TRUE_MSG(test, h.bucket[10] <= U32_MAX / 2 + 3 && h.bucket[10] >= U32_MAX / 2,
			      "bucket 10 holds %u: not halved once", h.bucket[10]);
	KUNIT_EXPECT_EQ_MSG(test, h.bucket[3], 1, "a seen range was lost");
	KUNIT_EXPECT_EQ(test, lb_hist_percentile(&h, 50), 1023);
	KUNIT_EXPECT_EQ_MSG(test, lb_hist_percentile(&h, 95), 1000000, "want the max");
}

static struct kunit_case lockblame_ledger_host_test_cases[] = {
	KUNIT_CASE(lockblame_ledger_host_test_hist_halves),
	KUNIT_CASE(lockblame_ledger_host_test_lock_names),
	KUNIT_CASE(lockblame_ledger_host_test_stack_records_on_first_use),
	KUNIT_CASE(lockblame_ledger_host_test_cgroup_pairs_bounded),
	KUNIT_CASE(lockblame_ledger_host_test_cgroup_unknown),
	KUNIT_CASE(lockblame_ledger_host_test_outliers_text),
	KUNIT_CASE(lockblame_ledger_host_test_outlier_release_ring),
	{}
};

static struct kunit_suite lockblame_ledger_host_test_suite = {
	.name = "lockblame_ledger_host",
	.test_cases = lockblame_ledger_host_test_cases,
};

kunit_test_suite(lockblame_ledger_host_test_suite);
