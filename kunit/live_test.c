// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite lockblame_live: kthreads contend a real kernel mutex and rwsem
 * with a known holder while lockblame.ko's probes are planted; the events
 * must name the right waiter and owner, in a consistent order, and the ledger
 * must charge the wait to the holder.
 */
#include <kunit/test.h>
#include <linux/kthread.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include "lockblame.h"
#include "ledger.h"

#define LB_LIVE_MAX_EVENTS 32

enum lb_live_kind { LB_LIVE_MUTEX, LB_LIVE_RWSEM };

struct lb_live {
	enum lb_live_kind kind;
	struct mutex mutex;		/* the contended locks themselves */
	struct rw_semaphore rwsem;
	u64 lock_id;
	struct completion held, waiter_done;
	struct task_struct *holder, *waiter;
	pid_t holder_pid, waiter_pid;
	bool waiter_blocked;
	unsigned int nr;
	struct lb_event ev[LB_LIVE_MAX_EVENTS];
};

static void lb_live_tap(const struct lb_event *ev, void *priv)
{
	struct lb_live *l = priv;

	if (ev->lock == l->lock_id && l->nr < LB_LIVE_MAX_EVENTS)
		l->ev[l->nr++] = *ev;
}

static void lb_live_lock(struct lb_live *l, bool write)
{
	if (l->kind == LB_LIVE_MUTEX)
		mutex_lock(&l->mutex);
	else if (write)
		down_write(&l->rwsem);
	else
		down_read(&l->rwsem);
}

static void lb_live_unlock(struct lb_live *l, bool write)
{
	if (l->kind == LB_LIVE_MUTEX)
		mutex_unlock(&l->mutex);
	else if (write)
		up_write(&l->rwsem);
	else
		up_read(&l->rwsem);
}

/* Holds the lock until the waiter is seen asleep on it (or 5 s pass). */
static int lb_live_holder(void *arg)
{
	struct lb_live *l = arg;
	int i;

	lb_live_lock(l, true);
	complete(&l->held);
	for (i = 0; i < 500; i++) {
		struct list_head *queue = l->kind == LB_LIVE_MUTEX ? &l->mutex.wait_list :
				   &l->rwsem.wait_list;

		usleep_range(10000, 11000);
		if (kthread_should_stop())
			break;
		if (READ_ONCE(l->waiter) && !list_empty_careful(queue) &&
		    READ_ONCE(l->waiter->__state) == TASK_UNINTERRUPTIBLE) {
			l->waiter_blocked = true;
			break;
		}
	}
	msleep(20);
	lb_live_unlock(l, true);
	return 0;
}

static int lb_live_waiter(void *arg)
{
	struct lb_live *l = arg;

	lb_live_lock(l, false);
	lb_live_unlock(l, false);
	complete(&l->waiter_done);
	return 0;
}

/*
 * Deferred actions: they run when the test ends, also when an assertion
 * ends it early, before @l (kunit_kzalloc'd first) is freed. Nothing keeps
 * pointing at it: not the drain's tap, not a holder thread still running.
 */
static void lb_live_untap(void *unused)
{
	lb_drain_set_tap(NULL, NULL);
}

static void lb_live_reap(void *task)
{
	kthread_stop(task);
	put_task_struct(task);
}

static const struct lb_event *lb_live_find(struct lb_live *l, u8 type, pid_t pid)
{
	unsigned int i;

	for (i = 0; i < l->nr; i++)
		if (l->ev[i].type == type && l->ev[i].task.pid == pid)
			return &l->ev[i];
	return NULL;
}

static void lb_live_run(struct kunit *test, enum lb_live_kind kind, const char *const *roles)
{
	struct lb_live *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	const struct lb_event *begin, *end, *release;
	struct lb_task_stats holder_st, waiter_st;
	struct task_struct *h, *w;
	u64 pair;
	bool found;

	KUNIT_ASSERT_NOT_NULL(test, l);
	for (; *roles; roles++) {
		struct lb_probe *p = lb_probe_find(*roles);

		if (!p || !p->attached)
			kunit_skip(test, "probe %s not planted on this kernel", *roles);
	}
	l->kind = kind;
	mutex_init(&l->mutex);
	init_rwsem(&l->rwsem);
	init_completion(&l->held);
	init_completion(&l->waiter_done);
	l->lock_id = lb_lock_id(kind == LB_LIVE_MUTEX ? (void *)&l->mutex : (void *)&l->rwsem);
	lb_drain_now();
	lb_drain_set_tap(lb_live_tap, l);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, lb_live_untap, NULL), 0);

	h = kthread_run(lb_live_holder, l, "lb-live-holder");
	KUNIT_ASSERT_FALSE(test, IS_ERR(h));
	get_task_struct(h);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, lb_live_reap, h), 0);
	l->holder_pid = h->pid;
	wait_for_completion(&l->held);
	w = kthread_create(lb_live_waiter, l, "lb-live-waiter");
	KUNIT_ASSERT_FALSE(test, IS_ERR(w));
	l->waiter_pid = w->pid;
	get_task_struct(w);
	wake_up_process(w);
	WRITE_ONCE(l->waiter, w);
	wait_for_completion(&l->waiter_done);
	WRITE_ONCE(l->waiter, NULL);
	put_task_struct(w);
	msleep(20);
	lb_drain_now();
	lb_drain_set_tap(NULL, NULL);

	KUNIT_EXPECT_TRUE(test, l->waiter_blocked);
	begin = lb_live_find(l, LB_EV_WAIT_BEGIN, l->waiter_pid);
	end = lb_live_find(l, LB_EV_WAIT_END, l->waiter_pid);
	release = lb_live_find(l, LB_EV_RELEASE, l->holder_pid);
	KUNIT_ASSERT_NOT_NULL(test, begin);
	KUNIT_ASSERT_NOT_NULL(test, end);
	KUNIT_ASSERT_NOT_NULL(test, release);

	KUNIT_EXPECT_EQ(test, begin->lock_class,
			kind == LB_LIVE_MUTEX ? LB_LOCK_MUTEX : LB_LOCK_RWSEM);
	KUNIT_EXPECT_EQ(test, begin->owner_source, LB_OWNER_LOCK_FIELD);
	KUNIT_EXPECT_EQ(test, begin->owner.pid, l->holder_pid);
	KUNIT_EXPECT_STREQ(test, begin->owner.comm, "lb-live-holder");
	KUNIT_EXPECT_STREQ(test, begin->task.comm, "lb-live-waiter");
	KUNIT_EXPECT_TRUE(test, begin->flags & LB_EF_KTHREAD);
	KUNIT_EXPECT_TRUE(test, begin->flags & LB_EF_OWNER_KTHREAD);
	if (kind == LB_LIVE_RWSEM) {
		KUNIT_EXPECT_TRUE(test, begin->flags & LB_EF_READ);
		KUNIT_EXPECT_TRUE(test, end->flags & LB_EF_READ);
	}
	KUNIT_EXPECT_EQ(test, end->result, LB_WAIT_ACQUIRED);
	/* Consistent order: wait begins, the holder releases, the wait ends. */
	KUNIT_EXPECT_LE(test, begin->ts_ns, release->ts_ns);
	KUNIT_EXPECT_LE(test, release->ts_ns, end->ts_ns);

	/* The ledger charges the waiter's wait to the holder. */
	lb_drain_lock();
	pair = lb_ledger_pair_blame(lb_drain_ledger(), l->holder_pid, l->waiter_pid);
	found = lb_ledger_task(lb_drain_ledger(), l->holder_pid, &holder_st) &&
		lb_ledger_task(lb_drain_ledger(), l->waiter_pid, &waiter_st);
	lb_drain_unlock();
	KUNIT_ASSERT_TRUE(test, found);
	KUNIT_EXPECT_GT(test, pair, 0ULL);
	KUNIT_EXPECT_GE(test, waiter_st.acct.wait_ns, end->ts_ns - begin->ts_ns);
	KUNIT_EXPECT_GE(test, holder_st.acct.blame_ns, pair);
	KUNIT_EXPECT_EQ(test, holder_st.verdict, LB_VERDICT_CAUSE);
	KUNIT_EXPECT_EQ(test, waiter_st.verdict, LB_VERDICT_VICTIM);
}

static void lockblame_live_test_mutex(struct kunit *test)
{
	static const char *const roles[] = { "mutex_lock", "mutex_unlock", NULL };

	lb_live_run(test, LB_LIVE_MUTEX, roles);
}

static void lockblame_live_test_rwsem(struct kunit *test)
{
	static const char *const roles[] = { "rwsem_down_read", "rwsem_wake", NULL };

	lb_live_run(test, LB_LIVE_RWSEM, roles);
}

static struct kunit_case lockblame_live_test_cases[] = {
	KUNIT_CASE(lockblame_live_test_mutex),
	KUNIT_CASE(lockblame_live_test_rwsem),
	{}
};

static struct kunit_suite lockblame_live_test_suite = {
	.name = "lockblame_live",
	.test_cases = lockblame_live_test_cases,
};

kunit_test_suite(lockblame_live_test_suite);
