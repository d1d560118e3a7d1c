// SPDX-License-Identifier: GPL-2.0
/* KUnit suite lockblame_probes: the probe table, candidate resolution, required/optional. */
#include <kunit/test.h>
#include <linux/kprobes.h>
#include "lockblame.h"

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
		"futex_key", "futex_setup", "futex_sleep", "futex_unqueue", "futex_wake",
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
		{ "futex_setup", LB_ARG_VAL }, { "futex_unqueue", LB_ARG_Q },
		{ "futex_wake", LB_ARG_UADDR }, { "futex_wake", LB_ARG_NR_WAKE },
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

kunit_test_suite(lockblame_probes_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for lockblame");
/* lockblame.ko exports its internals to KUnit tests only. */
MODULE_IMPORT_NS(LB_KUNIT_NS);
