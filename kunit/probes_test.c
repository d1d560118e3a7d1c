// SPDX-License-Identifier: GPL-2.0
/* KUnit suite lockblame_probes: the probe table, candidate resolution, required/optional. */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/hash.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/vmalloc.h>
#include "lockblame.h"
#include "probe_futex.h"

static atomic_t lb_test_hits = ATOMIC_INIT(0);

/* A function of this module that a test probe can be planted on by name. */
static noinline int lockblame_kunit_probe_target(int x)
{
	barrier();
	return x * 2;
}

static int lb_test_pre(struct kprobe *kp, struct pt_regs *regs)
{
	atomic_inc(&lb_test_hits);
	return 0;
}

#define LB_TEST_PROBE(_role, _req, ...) \
	{ .role = _role, .required = _req, .kind = LB_KPROBE, .pre = lb_test_pre, \
	  .candidates = { __VA_ARGS__ } }

/* The roles the product needs are all in the table, each well formed. */
static void lockblame_probes_test_table_complete(struct kunit *test)
{
	static const char * const needed[] = {
		"futex_setup", "futex_unqueue", "futex_wake", "futex_wake_key",
		"mutex_lock",
		"mutex_unlock", "rwsem_down_read", "rwsem_down_write", "rwsem_wake",
	};
	struct lb_probe *p, *q;
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(needed); i++) {
		p = lb_probe_find(needed[i]);
		KUNIT_ASSERT_NOT_NULL_MSG(test, p, "role %s missing", needed[i]);
		KUNIT_EXPECT_TRUE_MSG(test, p->required, "role %s", needed[i]);
	}
	for (i = 0; (p = lb_probe_nth(i)); i++) {
		KUNIT_EXPECT_NOT_NULL(test, p->candidates[0]);
		if (p->kind == LB_KPROBE)
			KUNIT_EXPECT_NOT_NULL(test, p->pre);
		else if (p->kind == LB_TRACEPOINT)
			KUNIT_EXPECT_NOT_NULL(test, p->tp_probe);
		else
			KUNIT_EXPECT_TRUE(test, p->entry && p->ret && p->data_size);
		for (j = i + 1; (q = lb_probe_nth(j)); j++)
			KUNIT_EXPECT_STRNEQ(test, p->role, q->role);
	}
}

/* lockblame.ko is loaded: every required role is planted on a listed candidate. */
static void lockblame_probes_test_required_planted(struct kunit *test)
{
	struct lb_probe *p;
	unsigned int i, j;

	for (i = 0; (p = lb_probe_nth(i)); i++) {
		bool listed = false;

		if (!p->attached) {
			KUNIT_EXPECT_FALSE_MSG(test, p->required && !lb_probe_served(p),
					       "%s not planted", p->role);
			continue;
		}
		for (j = 0; j < LB_MAX_CANDIDATES && p->candidates[j]; j++)
			listed |= p->attached == p->candidates[j];
		KUNIT_EXPECT_TRUE_MSG(test, listed, "%s on %s", p->role, p->attached);
	}
}

/*
 * Argument layouts are data: every planted role reads through the layout of
 * the candidate it is planted on, the handlers' arguments are all placed
 * there, and every position is one of x86-64's six argument registers.
 */
static void lockblame_probes_test_arg_layouts(struct kunit *test)
{
	static const struct {
		const char *role;
		enum lb_arg arg;
	} reads[] = {
		{ "futex_key", LB_ARG_KEY }, { "futex_key", LB_ARG_UADDR },
		{ "futex_setup", LB_ARG_VAL }, { "futex_setup", LB_ARG_UADDR },
		{ "futex_setup", LB_ARG_Q }, { "futex_unqueue", LB_ARG_Q },
		{ "futex_wake", LB_ARG_UADDR }, { "futex_wake", LB_ARG_FLAGS },
		{ "futex_wake", LB_ARG_NR_WAKE }, { "futex_wake_key", LB_ARG_Q },
		{ "futex_lock_pi", LB_ARG_UADDR }, { "futex_lock_pi", LB_ARG_FLAGS },
		{ "futex_unlock_pi", LB_ARG_UADDR }, { "futex_unlock_pi", LB_ARG_FLAGS },
		{ "mutex_lock", LB_ARG_LOCK }, { "mutex_unlock", LB_ARG_LOCK },
		{ "rwsem_down_read", LB_ARG_LOCK }, { "rwsem_down_write", LB_ARG_LOCK },
		{ "rwsem_wake", LB_ARG_LOCK },
	};
	struct lb_probe *p;
	unsigned int i, a;

	for (i = 0; i < ARRAY_SIZE(reads); i++) {
		p = lb_probe_find(reads[i].role);
		KUNIT_ASSERT_NOT_NULL_MSG(test, p, "role %s missing", reads[i].role);
		KUNIT_EXPECT_NE_MSG(test, p->args.at[reads[i].arg], 0,
				    "%s: argument %d has no position", p->role, reads[i].arg);
	}
	for (i = 0; (p = lb_probe_nth(i)); i++) {
		if (p->attached)
			KUNIT_EXPECT_NOT_NULL_MSG(test, p->layout, "%s planted, no layout",
						  p->role);
		for (a = 0; a < LB_NR_ARGS; a++)
			KUNIT_EXPECT_LE_MSG(test, p->args.at[a], 6, "%s: argument %u", p->role, a);
	}
}

/* -ENOENT moves on to the next candidate: a clone name is found this way. */
static void lockblame_probes_test_candidate_fallback(struct kunit *test)
{
	struct lb_probe p = LB_TEST_PROBE("test", true, "lockblame_no_such_function",
					  "lockblame_no_such_function.isra.0",
					  "lockblame_kunit_probe_target");

	/* The return type comes with the candidate that was planted. */
	p.int_candidates = BIT(2);
	atomic_set(&lb_test_hits, 0);
	KUNIT_ASSERT_EQ(test, lb_probe_plant(&p), 0);
	KUNIT_EXPECT_STREQ(test, p.attached, "lockblame_kunit_probe_target");
	KUNIT_EXPECT_TRUE(test, p.returns_int);
	KUNIT_EXPECT_EQ(test, lockblame_kunit_probe_target(21), 42);
	lb_probe_unplant(&p);
	KUNIT_EXPECT_EQ(test, atomic_read(&lb_test_hits), 1);
	KUNIT_EXPECT_NULL(test, p.attached);
}

static void lockblame_probes_test_no_candidate(struct kunit *test)
{
	struct lb_probe p = LB_TEST_PROBE("test", true, "lockblame_no_such_function",
					  "lockblame_no_such_function.constprop.0");

	KUNIT_EXPECT_EQ(test, lb_probe_plant(&p), -ENOENT);
	KUNIT_EXPECT_NULL(test, p.attached);
	KUNIT_EXPECT_EQ(test, p.error, -ENOENT);
}

/* A missing optional probe never fails the load; the others stay planted. */
static void lockblame_probes_test_optional_missing(struct kunit *test)
{
	struct lb_probe table[] = {
		LB_TEST_PROBE("present", true, "lockblame_kunit_probe_target"),
		LB_TEST_PROBE("absent", false, "lockblame_no_such_function"),
	};

	KUNIT_ASSERT_EQ(test, lb_probes_install_table(table, ARRAY_SIZE(table)), 0);
	KUNIT_EXPECT_NOT_NULL(test, table[0].attached);
	KUNIT_EXPECT_NULL(test, table[1].attached);
	KUNIT_EXPECT_EQ(test, table[1].error, -ENOENT);
	lb_probes_remove_table(table, ARRAY_SIZE(table));
	KUNIT_EXPECT_NULL(test, table[0].attached);
}

/* A missing required probe fails with -ENOENT and leaves nothing planted. */
static void lockblame_probes_test_required_missing(struct kunit *test)
{
	struct lb_probe table[] = {
		LB_TEST_PROBE("present", true, "lockblame_kunit_probe_target"),
		LB_TEST_PROBE("absent", true, "lockblame_no_such_function"),
	};

	atomic_set(&lb_test_hits, 0);
	KUNIT_EXPECT_EQ(test, lb_probes_install_table(table, ARRAY_SIZE(table)), -ENOENT);
	KUNIT_EXPECT_NULL(test, table[0].attached);
	KUNIT_EXPECT_NULL(test, table[1].attached);
	lockblame_kunit_probe_target(1);
	KUNIT_EXPECT_EQ(test, atomic_read(&lb_test_hits), 0);
}

#define LB_TEST_STANDIN(_for, _role, ...) \
	{ .role = _role, .stands_in_for = _for, .kind = LB_KPROBE, .pre = lb_test_pre, \
	  .candidates = { __VA_ARGS__ } }

/*
 * A required role without a symbol is served by its stand-in, which is
 * planted only then; with every stand-in skipped it is blind, not fatal.
 */
static void lockblame_probes_test_standin(struct kunit *test)
{
	struct lb_probe table[] = {
		LB_TEST_PROBE("inlined", true, "lockblame_no_such_function"),
		LB_TEST_STANDIN("inlined", "inlined_caller", "lockblame_kunit_probe_target"),
		LB_TEST_PROBE("present", true, "lockblame_kunit_probe_target"),
		LB_TEST_STANDIN("present", "present_caller", "lockblame_kunit_probe_target"),
	};

	atomic_set(&lb_test_hits, 0);
	KUNIT_ASSERT_EQ(test, lb_probes_install_table(table, ARRAY_SIZE(table)), 0);
	KUNIT_EXPECT_NULL(test, table[0].attached);
	KUNIT_EXPECT_STREQ(test, table[1].attached, "lockblame_kunit_probe_target");
	KUNIT_EXPECT_NOT_NULL(test, table[2].attached);
	KUNIT_EXPECT_NULL(test, table[3].attached);	/* not needed */
	lockblame_kunit_probe_target(1);
	KUNIT_EXPECT_EQ(test, atomic_read(&lb_test_hits), 2);
	lb_probes_remove_table(table, ARRAY_SIZE(table));

	table[1].skipped = true;
	KUNIT_ASSERT_EQ(test, lb_probes_install_table(table, ARRAY_SIZE(table)), 0);
	KUNIT_EXPECT_NULL(test, table[0].attached);
	KUNIT_EXPECT_NULL(test, table[1].attached);
	KUNIT_EXPECT_EQ(test, table[0].error, -ENOENT);
	lb_probes_remove_table(table, ARRAY_SIZE(table));
}

static struct kunit_case lockblame_probes_test_cases[] = {
	KUNIT_CASE(lockblame_probes_test_table_complete),
	KUNIT_CASE(lockblame_probes_test_required_planted),
	KUNIT_CASE(lockblame_probes_test_arg_layouts),
	KUNIT_CASE(lockblame_probes_test_candidate_fallback),
	KUNIT_CASE(lockblame_probes_test_no_candidate),
	KUNIT_CASE(lockblame_probes_test_optional_missing),
	KUNIT_CASE(lockblame_probes_test_required_missing),
	KUNIT_CASE(lockblame_probes_test_standin),
	{}
};

static struct kunit_suite lockblame_probes_test_suite = {
	.name = "lockblame_probes",
	.test_cases = lockblame_probes_test_cases,
};

/*
 * Suite lockblame_futex_slots: the futex probes' slot table, driven step by
 * step as tasks A and B whose pids hash to the same slot. A handler's steps
 * are a claim, the key's writes and the publish; another CPU's handler can
 * run between any two of them.
 */
#define LB_SLOT_PID_A	4242

/* The @n-th pid (from 0) other than @pid that starts its search at @pid's slot. */
static pid_t lb_slot_colliding_pid(pid_t pid, unsigned int n)
{
	u32 h = hash_32(pid, LB_FUTEX_SLOT_BITS);
	pid_t q;

	for (q = 1; q < PID_MAX_LIMIT; q++)
		if (q != pid && hash_32(q, LB_FUTEX_SLOT_BITS) == h && !n--)
			return q;
	return 0;
}

static struct lb_futex_slot *lb_slot_table(struct kunit *test)
{
	struct lb_futex_slot *t = vzalloc(array_size(LB_FUTEX_SLOTS, sizeof(*t)));

	KUNIT_ASSERT_NOT_NULL(test, t);
	return t;
}

/* Task @pid's key of operation @op: every field tells whose and which. */
static void lb_slot_key(struct lb_futex_key *k, pid_t pid, u32 op, u64 now)
{
	k->lock = (u64)pid << 32 | op;
	k->uaddr = 0x7f0000000000UL | (unsigned long)pid << 20 | op;
	k->flags = pid & 0xffff;
	k->word = op;
	k->entered = now - 1;
	k->ts = now;
}

static void lb_slot_expect_key(struct kunit *test, const struct lb_futex_key *got,
			       pid_t pid, u32 op, const char *who)
{
	KUNIT_EXPECT_EQ_MSG(test, got->lock, (u64)pid << 32 | op, "%s: lock", who);
	KUNIT_EXPECT_EQ_MSG(test, got->uaddr, 0x7f0000000000UL | (unsigned long)pid << 20 | op,
			    "%s: uaddr", who);
	KUNIT_EXPECT_EQ_MSG(test, got->flags, pid & 0xffff, "%s: flags", who);
	KUNIT_EXPECT_EQ_MSG(test, got->word, op, "%s: word", who);
}

/*
 * A reuses its used-up slot for a new operation; B, colliding, claims
 * between A's claim and A's writes. Each must find its own key, unmixed:
 * a slot A writes without owning it is a futex blamed wrongly.
 */
static void lockblame_futex_slots_test_reuse_collision(struct kunit *test)
{
	struct lb_futex_slot *t = lb_slot_table(test);
	pid_t a = LB_SLOT_PID_A, b = lb_slot_colliding_pid(a, 0);
	struct lb_futex_ref ra, rb, r;
	struct lb_futex_key ka, kb, got;
	u64 now = 10 * NSEC_PER_SEC;

	KUNIT_ASSERT_NE(test, b, 0);
	/* A's first operation: key stored, then used up at its sleep. */
	lb_slot_key(&ka, a, 1, now);
	KUNIT_ASSERT_TRUE(test, lb_futex_slot_claim(t, a, now, &ra));
	lb_futex_slot_write(&ra, &ka);
	lb_futex_slot_publish(&ra);
	KUNIT_ASSERT_TRUE(test, lb_futex_slot_lookup(t, a, now, &got, &r));
	lb_futex_slot_release(&r);

	/* A's second operation claims; B's claim runs before A writes. */
	now += 1000;
	KUNIT_ASSERT_TRUE(test, lb_futex_slot_claim(t, a, now, &ra));
	KUNIT_ASSERT_TRUE(test, lb_futex_slot_claim(t, b, now, &rb));
	KUNIT_EXPECT_PTR_NE(test, ra.slot, rb.slot);
	lb_slot_key(&kb, b, 7, now);
	lb_futex_slot_write(&rb, &kb);
	lb_futex_slot_publish(&rb);
	lb_slot_key(&ka, a, 2, now);
	lb_futex_slot_write(&ra, &ka);
	lb_futex_slot_publish(&ra);

	KUNIT_EXPECT_TRUE(test, lb_futex_slot_lookup(t, b, now, &got, &r));
	lb_slot_expect_key(test, &got, b, 7, "B");
	KUNIT_EXPECT_TRUE(test, lb_futex_slot_lookup(t, a, now, &got, &r));
	lb_slot_expect_key(test, &got, a, 2, "A");
	vfree(t);
}

/*
 * B sampled its clock before A, on another CPU, stored a key: A's key is
 * younger than B's "now", not 2^64 ns old. B must leave it alone.
 */
static void lockblame_futex_slots_test_fresh_not_stale(struct kunit *test)
{
	struct lb_futex_slot *t = lb_slot_table(test);
	pid_t a = LB_SLOT_PID_A, b = lb_slot_colliding_pid(a, 0);
	u64 now = 10 * NSEC_PER_SEC;
	struct lb_futex_ref ra, rb, r;
	struct lb_futex_key ka, kb, got;

	KUNIT_ASSERT_NE(test, b, 0);
	lb_slot_key(&ka, a, 1, now + 5);
	KUNIT_ASSERT_TRUE(test, lb_futex_slot_claim(t, a, now + 5, &ra));
	lb_futex_slot_write(&ra, &ka);
	lb_futex_slot_publish(&ra);

	KUNIT_ASSERT_TRUE(test, lb_futex_slot_claim(t, b, now, &rb));
	KUNIT_EXPECT_PTR_NE(test, ra.slot, rb.slot);
	lb_slot_key(&kb, b, 9, now);
	lb_futex_slot_write(&rb, &kb);
	lb_futex_slot_publish(&rb);

	KUNIT_EXPECT_TRUE(test, lb_futex_slot_lookup(t, a, now + 10, &got, &r));
	lb_slot_expect_key(test, &got, a, 1, "A");
	KUNIT_EXPECT_TRUE(test, lb_futex_slot_lookup(t, b, now + 10, &got, &r));
	lb_slot_expect_key(test, &got, b, 9, "B");
	vfree(t);
}

/*
 * A stale key may be taken, but its old owner then finds none (nokey),
 * never the new owner's key, even when it read the key before the theft;
 * and it cannot write into the slot it lost.
 */
static void lockblame_futex_slots_test_stale_taken(struct kunit *test)
{
	struct lb_futex_slot *t = lb_slot_table(test);
	pid_t a = LB_SLOT_PID_A, b = lb_slot_colliding_pid(a, 0);
	u64 now = 10 * NSEC_PER_SEC, later = now + 2 * LB_FUTEX_SLOT_STALE_NS;
	struct lb_futex_ref ra, rb, r;
	struct lb_futex_key ka, kb, got;
	unsigned int i;

	KUNIT_ASSERT_NE(test, b, 0);
	lb_slot_key(&ka, a, 1, now);
	KUNIT_ASSERT_TRUE(test, lb_futex_slot_claim(t, a, now, &ra));
	lb_futex_slot_write(&ra, &ka);
	lb_futex_slot_publish(&ra);
	/* Every other slot of the window is busy and fresh: A's is the one. */
	for (i = 1; i < LB_FUTEX_SLOT_PROBES; i++) {
		struct lb_futex_slot *s = &t[(hash_32(a, LB_FUTEX_SLOT_BITS) + i) &
					    (LB_FUTEX_SLOTS - 1)];

		atomic64_set(&s->state, (s64)(100000 + i) << 32);
		s->key.ts = later;
	}
	/* A looked its key up (still fresh then) and is about to reopen it. */
	KUNIT_ASSERT_TRUE(test, lb_futex_slot_lookup(t, a, now, &got, &r));
	KUNIT_ASSERT_TRUE(test, lb_futex_slot_claim(t, b, later, &rb));
	KUNIT_EXPECT_PTR_EQ(test, rb.slot, ra.slot);
	lb_slot_key(&kb, b, 3, later);
	lb_futex_slot_write(&rb, &kb);
	KUNIT_EXPECT_FALSE(test, lb_futex_slot_reopen(&r));
	lb_futex_slot_publish(&rb);

	KUNIT_EXPECT_FALSE(test, lb_futex_slot_lookup(t, a, later, &got, &r));
	KUNIT_EXPECT_TRUE(test, lb_futex_slot_lookup(t, b, later, &got, &r));
	lb_slot_expect_key(test, &got, b, 3, "B");
	vfree(t);
}

/* A slot being written is never taken, however old the key it still shows. */
static void lockblame_futex_slots_test_writer_kept(struct kunit *test)
{
	struct lb_futex_slot *t = lb_slot_table(test);
	pid_t a = LB_SLOT_PID_A, b = lb_slot_colliding_pid(a, 0);
	u64 now = 10 * NSEC_PER_SEC, later = now + 2 * LB_FUTEX_SLOT_STALE_NS;
	struct lb_futex_ref ra, rb, r;
	struct lb_futex_key ka, kb, got;

	KUNIT_ASSERT_NE(test, b, 0);
	lb_slot_key(&ka, a, 1, now);
	KUNIT_ASSERT_TRUE(test, lb_futex_slot_claim(t, a, now, &ra));
	lb_futex_slot_write(&ra, &ka);
	lb_futex_slot_publish(&ra);
	/* Much later A's next operation claims its slot again... */
	KUNIT_ASSERT_TRUE(test, lb_futex_slot_claim(t, a, later, &ra));
	/* ...and B, before A has written the new time, must not take it. */
	KUNIT_ASSERT_TRUE(test, lb_futex_slot_claim(t, b, later, &rb));
	KUNIT_EXPECT_PTR_NE(test, ra.slot, rb.slot);
	lb_slot_key(&ka, a, 2, later);
	lb_futex_slot_write(&ra, &ka);
	lb_futex_slot_publish(&ra);
	lb_slot_key(&kb, b, 5, later);
	lb_futex_slot_write(&rb, &kb);
	lb_futex_slot_publish(&rb);
	KUNIT_EXPECT_TRUE(test, lb_futex_slot_lookup(t, a, later, &got, &r));
	lb_slot_expect_key(test, &got, a, 2, "A");
	KUNIT_EXPECT_TRUE(test, lb_futex_slot_lookup(t, b, later, &got, &r));
	lb_slot_expect_key(test, &got, b, 5, "B");
	vfree(t);
}

/*
 * Stress: kthreads on every CPU, each playing tasks whose pids all collide,
 * with a shared fake clock fast enough that keys go stale and are taken. A
 * key looked up must be the one its task wrote last, every field of it.
 */
#define LB_SLOT_STRESS_THREADS	4
#define LB_SLOT_STRESS_TASKS	4

struct lb_slot_stress {
	struct lb_futex_slot *table;
	atomic64_t *clock;
	pid_t pids[LB_SLOT_STRESS_TASKS];
	unsigned long deadline;
	unsigned long found, lost, mixed;
	struct completion done;
};

static int lb_slot_stress_fn(void *arg)
{
	struct lb_slot_stress *st = arg;
	u32 op[LB_SLOT_STRESS_TASKS] = {};
	struct lb_futex_key k, got;
	struct lb_futex_ref ref;
	unsigned int i = 0;

	while (time_before(jiffies, st->deadline)) {
		unsigned int n = i++ % LB_SLOT_STRESS_TASKS;
		pid_t pid = st->pids[n];
		/* Each step is 50 ms: a key is stale after 20 steps of anyone's. */
		u64 now = atomic64_add_return(50 * NSEC_PER_MSEC, st->clock);

		preempt_disable();	/* as in a probe handler */
		if (lb_futex_slot_claim(st->table, pid, now, &ref)) {
			lb_slot_key(&k, pid, ++op[n], now);
			lb_futex_slot_write(&ref, &k);
			lb_futex_slot_publish(&ref);
		}
		if (lb_futex_slot_lookup(st->table, pid, now, &got, &ref)) {
			st->found++;
			if (got.lock != ((u64)pid << 32 | op[n]) || got.word != op[n] ||
			    got.flags != (pid & 0xffff) ||
			    got.uaddr != (0x7f0000000000UL | (unsigned long)pid << 20 | op[n]))
				st->mixed++;
			if (i & 1)
				lb_futex_slot_release(&ref);
		} else {
			st->lost++;
		}
		preempt_enable();
		if (!(i & 255))
			cond_resched();
	}
	complete(&st->done);
	return 0;
}

static void lockblame_futex_slots_test_stress(struct kunit *test)
{
	struct lb_futex_slot *t = lb_slot_table(test);
	struct lb_slot_stress *st;
	unsigned long found = 0, lost = 0, mixed = 0;
	atomic64_t clock = ATOMIC64_INIT(0);
	struct task_struct *k[LB_SLOT_STRESS_THREADS];
	pid_t pid = LB_SLOT_PID_A;
	unsigned int i, j;

	st = kunit_kcalloc(test, LB_SLOT_STRESS_THREADS, sizeof(*st), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, st);
	/* 16 tasks on one 8-slot window: they collide and take each other's. */
	for (i = 0; i < LB_SLOT_STRESS_THREADS; i++) {
		for (j = 0; j < LB_SLOT_STRESS_TASKS; j++) {
			st[i].pids[j] = pid;
			pid = lb_slot_colliding_pid(LB_SLOT_PID_A, i * LB_SLOT_STRESS_TASKS + j);
			KUNIT_ASSERT_NE(test, pid, 0);
		}
	}
	for (i = 0; i < LB_SLOT_STRESS_THREADS; i++) {
		st[i].table = t;
		st[i].clock = &clock;
		st[i].deadline = jiffies + msecs_to_jiffies(500);
		init_completion(&st[i].done);
		k[i] = kthread_run(lb_slot_stress_fn, &st[i], "lb_slot_%u", i);
	}
	for (i = 0; i < LB_SLOT_STRESS_THREADS; i++) {
		if (IS_ERR(k[i])) {
			KUNIT_FAIL(test, "kthread %u: %ld", i, PTR_ERR(k[i]));
			continue;
		}
		wait_for_completion(&st[i].done);
		found += st[i].found;
		lost += st[i].lost;
		mixed += st[i].mixed;
	}
	kunit_info(test, "lookups: %lu found, %lu lost (taken or not claimed), %lu mixed\n",
		   found, lost, mixed);
	KUNIT_EXPECT_GT(test, found, 0UL);
	KUNIT_EXPECT_EQ(test, mixed, 0UL);
	vfree(t);
}

static struct kunit_case lockblame_futex_slots_test_cases[] = {
	KUNIT_CASE(lockblame_futex_slots_test_reuse_collision),
	KUNIT_CASE(lockblame_futex_slots_test_fresh_not_stale),
	KUNIT_CASE(lockblame_futex_slots_test_stale_taken),
	KUNIT_CASE(lockblame_futex_slots_test_writer_kept),
	KUNIT_CASE(lockblame_futex_slots_test_stress),
	{}
};

static struct kunit_suite lockblame_futex_slots_test_suite = {
	.name = "lockblame_futex_slots",
	.test_cases = lockblame_futex_slots_test_cases,
};

kunit_test_suites(&lockblame_probes_test_suite, &lockblame_futex_slots_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for lockblame");
/* lockblame.ko exports its internals to KUnit tests only. */
MODULE_IMPORT_NS(LB_KUNIT_NS);
