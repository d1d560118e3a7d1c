// SPDX-License-Identifier: GPL-2.0
/* KUnit suite lockblame_ring: per-CPU ring fill, wrap, overflow, nesting, identities, encoding. */
#include <kunit/test.h>
#include <linux/sched.h>
#include <linux/stddef.h>
#include "lockblame.h"
#include "ring_record.h"
#include "compat.h"

#define LB_TEST_CAP 64

/* What happened on one CPU with preemption off; asserted afterwards. */
struct lb_ring_trace {
	int cpu;
	unsigned int written, refused, avail_full, avail_after;
	bool order_ok;
	struct lb_ring_counts counts;
};

static unsigned int lb_test_fill(struct lb_ringset *set, unsigned int n, u64 first_ts)
{
	unsigned int i, written = 0;

	for (i = 0; i < n; i++) {
		struct lb_event *ev = lb_ring_reserve(set);

		if (!ev)
			continue;
		memset(ev, 0, sizeof(*ev));
		ev->type = LB_EV_WAIT_BEGIN;
		ev->ts_ns = first_ts + i;
		lb_ring_commit(set, ev);
		written++;
	}
	return written;
}

/*
 * Fill past capacity, consume part, write again across the wrap: everything
 * on one CPU (the rings are per CPU), checked after preemption is back on.
 */
static void lockblame_ring_test_fill_wrap_overflow(struct kunit *test)
{
	struct lb_ringset *set = lb_ringset_create(LB_TEST_CAP, NULL);
	struct lb_ring_trace t = { .order_ok = true };
	const struct lb_event *ev;
	unsigned int i, n;

	KUNIT_ASSERT_FALSE(test, IS_ERR(set));
	t.cpu = get_cpu();
	t.written = lb_test_fill(set, LB_TEST_CAP + 5, 0);
	t.avail_full = lb_ring_avail(set, t.cpu);
	lb_ring_consume(set, t.cpu, 10);
	t.written += lb_test_fill(set, 10, 1000);
	t.avail_after = lb_ring_avail(set, t.cpu);
	for (i = 0, n = 0; (ev = lb_ring_next(set, t.cpu, &i, t.avail_after)); i++, n++) {
		u64 want = n < LB_TEST_CAP - 10 ? 10 + n : 1000 + n - (LB_TEST_CAP - 10);

		t.order_ok &= ev->ts_ns == want;
	}
	t.order_ok &= n == t.avail_after;
	lb_ring_counts(set, t.cpu, &t.counts);
	put_cpu();

	KUNIT_EXPECT_EQ(test, t.written, LB_TEST_CAP + 10);
	KUNIT_EXPECT_EQ(test, t.avail_full, LB_TEST_CAP);
	KUNIT_EXPECT_EQ(test, t.avail_after, LB_TEST_CAP);
	KUNIT_EXPECT_TRUE(test, t.order_ok);
	KUNIT_EXPECT_EQ(test, t.counts.generated, LB_TEST_CAP + 15);
	KUNIT_EXPECT_EQ(test, t.counts.recorded, LB_TEST_CAP + 10);
	KUNIT_EXPECT_EQ(test, t.counts.dropped[LB_DROP_FULL], 5);
	KUNIT_EXPECT_EQ(test, t.counts.by_type[LB_EV_WAIT_BEGIN], LB_TEST_CAP + 10);
	KUNIT_EXPECT_EQ(test, t.counts.generated,
			t.counts.recorded + lb_ring_dropped(&t.counts));
	KUNIT_EXPECT_EQ(test, t.counts.fill, LB_TEST_CAP);
	lb_ringset_destroy(set);
}

static unsigned int lb_test_kicks, lb_test_urges;

static void lb_test_kick(bool urgent)
{
	if (urgent)
		lb_test_urges++;
	else
		lb_test_kicks++;
}

/*
 * The producer asks for a drain once the ring is a quarter full, and for the
 * rescuer once it is half full, each once until the batch's end
 * (lb_ring_consume); slots handed back within a batch (lb_ring_release) free
 * room without asking again.
 */
static void lockblame_ring_test_kick_once_per_batch(struct kunit *test)
{
	struct lb_ringset *set = lb_ringset_create(LB_TEST_CAP, lb_test_kick);
	unsigned int before, at_quarter, after_release, after_consume, avail;
	unsigned int urges_below_half, urges_at_half, urges_after_release;
	unsigned int urges_after_consume, urges_refill;
	int cpu;

	KUNIT_ASSERT_FALSE(test, IS_ERR(set));
	lb_test_kicks = 0;
	lb_test_urges = 0;
	cpu = get_cpu();
	lb_test_fill(set, LB_TEST_CAP / 4 - 1, 0);
	before = lb_test_kicks;
	lb_test_fill(set, 1, 100);
	at_quarter = lb_test_kicks;
	lb_test_fill(set, LB_TEST_CAP / 4 - 1, 200);
	urges_below_half = lb_test_urges;
	lb_test_fill(set, 1, 250);
	urges_at_half = lb_test_urges;
	lb_ring_release(set, cpu, LB_TEST_CAP / 4);
	lb_test_fill(set, LB_TEST_CAP / 4 + 4, 300);
	after_release = lb_test_kicks;
	urges_after_release = lb_test_urges;
	avail = lb_ring_avail(set, cpu);
	lb_ring_consume(set, cpu, avail);
	lb_test_fill(set, LB_TEST_CAP / 4, 400);
	after_consume = lb_test_kicks;
	urges_after_consume = lb_test_urges;
	lb_test_fill(set, LB_TEST_CAP / 4, 500);
	urges_refill = lb_test_urges;
	put_cpu();

	KUNIT_EXPECT_EQ(test, before, 0U);
	KUNIT_EXPECT_EQ(test, at_quarter, 1U);
	KUNIT_EXPECT_EQ(test, urges_below_half, 0U);
	KUNIT_EXPECT_EQ(test, urges_at_half, 1U);
	KUNIT_EXPECT_EQ(test, after_release, 1U);
	KUNIT_EXPECT_EQ(test, urges_after_release, 1U);
	KUNIT_EXPECT_EQ(test, avail, LB_TEST_CAP / 2 + 4);
	KUNIT_EXPECT_EQ(test, after_consume, 2U);
	KUNIT_EXPECT_EQ(test, urges_after_consume, 1U);
	KUNIT_EXPECT_EQ(test, urges_refill, 2U);
	lb_ringset_destroy(set);
}

/* A probe firing inside a probe on the same CPU is a counted drop. */
static void lockblame_ring_test_nesting_guard(struct kunit *test)
{
	struct lb_ringset *set = lb_ringset_create(LB_TEST_CAP, NULL);
	struct lb_event *outer, *inner;
	struct lb_ring_trace t = {};

	KUNIT_ASSERT_FALSE(test, IS_ERR(set));
	t.cpu = get_cpu();
	outer = lb_ring_reserve(set);
	inner = lb_ring_reserve(set);
	if (outer) {
		memset(outer, 0, sizeof(*outer));
		outer->type = LB_EV_RELEASE;
		lb_ring_commit(set, outer);
	}
	/* After the outer commit the CPU is free for the next event. */
	t.written = lb_test_fill(set, 1, 7);
	lb_ring_counts(set, t.cpu, &t.counts);
	put_cpu();

	KUNIT_EXPECT_NOT_NULL(test, outer);
	KUNIT_EXPECT_NULL(test, inner);
	KUNIT_EXPECT_EQ(test, t.written, 1);
	KUNIT_EXPECT_EQ(test, t.counts.dropped[LB_DROP_NESTED], 1);
	KUNIT_EXPECT_EQ(test, t.counts.recorded, 2);
	KUNIT_EXPECT_EQ(test, t.counts.generated, 3);
	KUNIT_EXPECT_EQ(test, t.counts.by_type[LB_EV_RELEASE], 1);
	lb_ringset_destroy(set);
}

static void lockblame_ring_test_drop_cause(struct kunit *test)
{
	struct lb_ringset *set = lb_ringset_create(LB_TEST_CAP, NULL);
	struct lb_ring_counts sum;

	KUNIT_ASSERT_FALSE(test, IS_ERR(set));
	lb_ring_drop(set, LB_DROP_NOKEY);
	lb_ring_drop(set, LB_DROP_NOKEY);
	lb_rings_sum(set, &sum);
	KUNIT_EXPECT_EQ(test, sum.dropped[LB_DROP_NOKEY], 2);
	KUNIT_EXPECT_EQ(test, sum.generated, 2);
	KUNIT_EXPECT_EQ(test, sum.recorded, 0);
	lb_ringset_destroy(set);
}

/*
 * A mark starts a window: the counts before it are not the window's, those
 * after are, exactly, and the ring's fill is what it holds now.
 */
static void lockblame_ring_test_mark_window(struct kunit *test)
{
	struct lb_ringset *set = lb_ringset_create(LB_TEST_CAP, NULL);
	struct lb_ring_trace t = { };
	struct lb_ring_counts at_mark;

	KUNIT_ASSERT_FALSE(test, IS_ERR(set));
	t.cpu = get_cpu();
	lb_test_fill(set, LB_TEST_CAP + 5, 0);
	lb_ring_drop(set, LB_DROP_NOKEY);
	lb_rings_mark(set);
	lb_ring_counts(set, t.cpu, &at_mark);
	lb_ring_consume(set, t.cpu, 10);
	t.written = lb_test_fill(set, 12, 100);
	lb_ring_drop(set, LB_DROP_NOKEY);
	lb_ring_counts(set, t.cpu, &t.counts);
	put_cpu();

	KUNIT_EXPECT_EQ(test, at_mark.generated, 0);
	KUNIT_EXPECT_EQ(test, at_mark.recorded, 0);
	KUNIT_EXPECT_EQ(test, lb_ring_dropped(&at_mark), 0);
	KUNIT_EXPECT_EQ(test, at_mark.by_type[LB_EV_WAIT_BEGIN], 0);
	KUNIT_EXPECT_EQ(test, at_mark.fill, LB_TEST_CAP);
	/* 10 slots freed: 10 of the 12 recorded, 2 dropped full, and a nokey. */
	KUNIT_EXPECT_EQ(test, t.written, 10);
	KUNIT_EXPECT_EQ(test, t.counts.generated, 13);
	KUNIT_EXPECT_EQ(test, t.counts.recorded, 10);
	KUNIT_EXPECT_EQ(test, t.counts.dropped[LB_DROP_FULL], 2);
	KUNIT_EXPECT_EQ(test, t.counts.dropped[LB_DROP_NOKEY], 1);
	KUNIT_EXPECT_EQ(test, t.counts.by_type[LB_EV_WAIT_BEGIN], 10);
	KUNIT_EXPECT_EQ(test, t.counts.generated,
			t.counts.recorded + lb_ring_dropped(&t.counts));
	KUNIT_EXPECT_EQ(test, t.counts.fill, LB_TEST_CAP);
	lb_ringset_destroy(set);
}

/* Identities of the events below: pids 100 and 356 share a slot, 101 is beside it. */
static const struct lb_task_id lb_test_ids[] = {
	{ .pid = 100, .tgid = 100, .comm = "a", .pcomm = "a", .cgroup = 7 },
	{ .pid = 356, .tgid = 356, .comm = "b", .pcomm = "b", .cgroup = 7 },
	{ .pid = 101, .tgid = 100, .comm = "c", .pcomm = "a", .cgroup = 7 },
	{ .pid = 100, .tgid = 100, .comm = "a2", .pcomm = "a2", .cgroup = 7 },
	{ .pid = 100, .tgid = 100, .comm = "a2", .pcomm = "a2", .cgroup = 8 },
};

#define LB_TEST_NONE	-1

/* Each event's task and owner (LB_TEST_NONE: none), and the slots it takes. */
static const struct {
	int task, owner;
	unsigned int slots;
} lb_test_seq[] = {
	{ 0, LB_TEST_NONE, 2 },	/* a sent */
	{ 0, 1, 2 },		/* b sent, beside a: a's own slot is a's */
	{ 1, 0, 1 },		/* both known */
	{ 2, LB_TEST_NONE, 2 },	/* c in its own slot, b gone */
	{ 1, LB_TEST_NONE, 2 },	/* b back in its own slot, a gone */
	{ 3, 3, 3 },		/* renamed a, as task and as its own owner: two slots */
	{ 3, 3, 1 },
	{ 4, 2, 3 },		/* another cgroup is another identity; c is gone too */
	{ 2, 4, 1 },
};

/*
 * An event names its identities by slots, each sent to the ring once while
 * the CPU's table keeps it; the drain rebuilds every event exactly, through
 * slots shared by two pids, a task renamed or moved, and a task that is its
 * own owner.
 */
static void lockblame_ring_test_identities(struct kunit *test)
{
	struct lb_ringset *set = lb_ringset_create(LB_TEST_CAP, NULL);
	unsigned int i, pos, slots[ARRAY_SIZE(lb_test_seq)], same = 0;
	struct lb_event want, got[ARRAY_SIZE(lb_test_seq)];
	const struct lb_event *ev;
	int cpu;

	KUNIT_ASSERT_FALSE(test, IS_ERR(set));
	cpu = get_cpu();
	for (i = 0; i < ARRAY_SIZE(lb_test_seq); i++) {
		struct lb_event *draft = lb_ring_reserve(set);
		unsigned int before = lb_ring_avail(set, cpu);

		slots[i] = 0;
		if (!draft)
			continue;
		memset(draft, 0, sizeof(*draft));
		draft->type = LB_EV_RELEASE;
		draft->ts_ns = i;
		draft->lock = 1000 + i;
		draft->cpu = cpu;
		draft->task = lb_test_ids[lb_test_seq[i].task];
		if (lb_test_seq[i].owner != LB_TEST_NONE)
			draft->owner = lb_test_ids[lb_test_seq[i].owner];
		lb_ring_commit(set, draft);
		slots[i] = lb_ring_avail(set, cpu) - before;
		pos = 0;
		ev = lb_ring_next(set, cpu, &pos, lb_ring_avail(set, cpu));
		if (ev)
			got[i] = *ev;
		else
			memset(&got[i], 0, sizeof(got[i]));
		lb_ring_consume(set, cpu, lb_ring_avail(set, cpu));
	}
	put_cpu();

	for (i = 0; i < ARRAY_SIZE(lb_test_seq); i++) {
		memset(&want, 0, sizeof(want));
		want.type = LB_EV_RELEASE;
		want.ts_ns = i;
		want.lock = 1000 + i;
		want.cpu = cpu;
		want.task = lb_test_ids[lb_test_seq[i].task];
		if (lb_test_seq[i].owner != LB_TEST_NONE)
			want.owner = lb_test_ids[lb_test_seq[i].owner];
		KUNIT_EXPECT_EQ_MSG(test, slots[i], lb_test_seq[i].slots, "event %u", i);
		same += !memcmp(&want, &got[i], sizeof(want));
	}
	KUNIT_EXPECT_EQ(test, same, (unsigned int)ARRAY_SIZE(lb_test_seq));
	lb_ringset_destroy(set);
}

/*
 * Near full, an event goes in only if the identities it must send fit with
 * it; one that does not is a counted drop, and the counts stay exact.
 */
static void lockblame_ring_test_identities_full(struct kunit *test)
{
	struct lb_ringset *set = lb_ringset_create(LB_TEST_CAP, NULL);
	struct lb_ring_trace t = { };
	unsigned int i, fits = 0, avail;
	struct lb_event *draft;

	KUNIT_ASSERT_FALSE(test, IS_ERR(set));
	t.cpu = get_cpu();
	t.written = lb_test_fill(set, LB_TEST_CAP - 2, 0);
	for (i = 0; i < 2; i++) {
		draft = lb_ring_reserve(set);
		if (!draft)
			continue;
		memset(draft, 0, sizeof(*draft));
		draft->type = LB_EV_RELEASE;
		draft->task = lb_test_ids[0];
		/* The first needs 3 slots (2 free), the second 2. */
		if (!i)
			draft->owner = lb_test_ids[1];
		fits += lb_ring_commit(set, draft);
	}
	avail = lb_ring_avail(set, t.cpu);
	lb_ring_counts(set, t.cpu, &t.counts);
	put_cpu();

	KUNIT_EXPECT_EQ(test, fits, 1);
	KUNIT_EXPECT_EQ(test, avail, LB_TEST_CAP);
	KUNIT_EXPECT_EQ(test, t.counts.dropped[LB_DROP_FULL], 1);
	KUNIT_EXPECT_EQ(test, t.counts.recorded, LB_TEST_CAP - 1);
	KUNIT_EXPECT_EQ(test, t.counts.generated, LB_TEST_CAP);
	KUNIT_EXPECT_EQ(test, t.counts.by_type[LB_EV_RELEASE], 1);
	lb_ringset_destroy(set);
}

struct lb_ring_size_case {
	unsigned int events;
	int err;
};

static const struct lb_ring_size_case lb_ring_size_cases[] = {
	{ 64, 0 }, { 4096, 0 }, { 0, -EINVAL }, { 63, -EINVAL }, { 100, -EINVAL },
	{ 1U << 21, -EINVAL },
};

static void lb_ring_size_desc(const struct lb_ring_size_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u events", c->events);
}

KUNIT_ARRAY_PARAM(lb_ring_size, lb_ring_size_cases, lb_ring_size_desc);

/* Ring sizes are a power of 2 within bounds; others fail with -EINVAL. */
static void lockblame_ring_test_size(struct kunit *test)
{
	const struct lb_ring_size_case *c = test->param_value;
	struct lb_ringset *set = lb_ringset_create(c->events, NULL);

	KUNIT_EXPECT_EQ(test, IS_ERR(set) ? PTR_ERR(set) : 0, (long)c->err);
	lb_ringset_destroy(set);
}

/* The record layout is ABI: size and offsets the reader relies on. */
static void lockblame_ring_test_encoding(struct kunit *test)
{
	struct lb_task_id id;
	static int a, b;

	KUNIT_EXPECT_EQ(test, sizeof(struct lb_event), 184);
	KUNIT_EXPECT_EQ(test, offsetof(struct lb_event, uaddr), 168);
	KUNIT_EXPECT_EQ(test, offsetof(struct lb_event, lock), 8);
	KUNIT_EXPECT_EQ(test, offsetof(struct lb_event, run_delay_ns), 32);
	KUNIT_EXPECT_EQ(test, offsetof(struct lb_event, owner_run_delay_ns), 40);
	KUNIT_EXPECT_EQ(test, offsetof(struct lb_event, type), 48);
	KUNIT_EXPECT_EQ(test, offsetof(struct lb_event, task), 72);
	KUNIT_EXPECT_EQ(test, offsetof(struct lb_event, owner), 120);
	KUNIT_EXPECT_EQ(test, offsetof(struct lb_task_id, cgroup), 40);
	KUNIT_EXPECT_EQ(test, sizeof(struct lb_stream_header), 24);
	/* In the rings an event is smaller: its identities go once (ring_record.h). */
	KUNIT_EXPECT_EQ(test, sizeof(union lb_ring_slot), 88);

	/* Lock ids: stable, distinct, and never the raw address. */
	KUNIT_EXPECT_EQ(test, lb_lock_id(&a), lb_lock_id(&a));
	KUNIT_EXPECT_NE(test, lb_lock_id(&a), lb_lock_id(&b));
	KUNIT_EXPECT_NE(test, lb_lock_id(&a), (u64)(unsigned long)&a);

	lb_task_id_fill(&id, current);
	KUNIT_EXPECT_EQ(test, id.pid, current->pid);
	KUNIT_EXPECT_EQ(test, id.tgid, current->tgid);
	KUNIT_EXPECT_STREQ(test, id.comm, current->comm);
	KUNIT_EXPECT_STREQ(test, id.pcomm, current->group_leader->comm);
	KUNIT_EXPECT_EQ(test, id.cgroup, lb_cgroup_id_nofault(current));
}

static struct kunit_case lockblame_ring_test_cases[] = {
	KUNIT_CASE(lockblame_ring_test_fill_wrap_overflow),
	KUNIT_CASE(lockblame_ring_test_kick_once_per_batch),
	KUNIT_CASE(lockblame_ring_test_nesting_guard),
	KUNIT_CASE(lockblame_ring_test_drop_cause),
	KUNIT_CASE(lockblame_ring_test_mark_window),
	KUNIT_CASE(lockblame_ring_test_identities),
	KUNIT_CASE(lockblame_ring_test_identities_full),
	KUNIT_CASE_PARAM(lockblame_ring_test_size, lb_ring_size_gen_params),
	KUNIT_CASE(lockblame_ring_test_encoding),
	{}
};

static struct kunit_suite lockblame_ring_test_suite = {
	.name = "lockblame_ring",
	.test_cases = lockblame_ring_test_cases,
};

kunit_test_suite(lockblame_ring_test_suite);
