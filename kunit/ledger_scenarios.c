// SPDX-License-Identifier: GPL-2.0
/*
 * The ledger's synthetic scenarios: each a few tasks, a stream of events and
 * the accounts expected after them, by name. Times are in ns from an
 * arbitrary origin. Every expected number below was worked out by hand from
 * the blame rule (see the comment on each scenario); the runner
 * (ledger_runner.c) also checks conservation after every step.
 */
#include "ledger_scenarios.h"

#define LB_EV(_type, _t, _lock, _cls, _pid) \
	.op = LB_SCN_EVENT, .type = (_type), .t = (_t), .lock = (_lock), \
	.lock_class = (_cls), .pid = (_pid)

/* A task starts waiting; no owner known. */
#define LB_BEGIN(_t, _lk, _cls, _pid, _fl) \
	{ LB_EV(LB_EV_WAIT_BEGIN, _t, _lk, _cls, _pid), .flags = (_fl) }
/* A task starts waiting; the event names the owner, read at @_ocpu on-CPU ns. */
#define LB_BEGIN_OWNED(_t, _lk, _cls, _pid, _fl, _src, _own, _ocpu) \
	{ LB_EV(LB_EV_WAIT_BEGIN, _t, _lk, _cls, _pid), .flags = (_fl), \
	  .owner_source = (_src), .owner = (_own), .owner_cpu = (_ocpu) }
#define LB_END(_t, _lk, _cls, _pid, _fl, _res, _cpu) \
	{ LB_EV(LB_EV_WAIT_END, _t, _lk, _cls, _pid), .flags = (_fl), .result = (_res), \
	  .cpu = (_cpu) }
#define LB_RELEASE(_t, _lk, _cls, _pid, _fl, _cpu, _woken) \
	{ LB_EV(LB_EV_RELEASE, _t, _lk, _cls, _pid), .flags = (_fl), .cpu = (_cpu), \
	  .count = (_woken) }
/* A futex wait that expected word @_w; its end as futex_unqueue sees it (no key). */
#define LB_FBEGIN(_t, _lk, _pid, _w) \
	{ LB_EV(LB_EV_WAIT_BEGIN, _t, _lk, LB_LOCK_FUTEX, _pid), .flags = LB_EF_WORD, \
	  .word = (_w) }
#define LB_FBEGIN_FL(_t, _lk, _pid, _w, _fl) \
	{ LB_EV(LB_EV_WAIT_BEGIN, _t, _lk, LB_LOCK_FUTEX, _pid), \
	  .flags = LB_EF_WORD | (_fl), .word = (_w) }
#define LB_FEND0(_t, _pid, _res, _cpu) \
	{ LB_EV(LB_EV_WAIT_END, _t, 0, LB_LOCK_FUTEX, _pid), .result = (_res), .cpu = (_cpu) }
/* The same three, with the run_delay readings (@_rd, @_ord) beside the on-CPU ones. */
#define LB_BEGIN_OWNED_RD(_t, _lk, _cls, _pid, _src, _own, _ocpu, _ord) \
	{ LB_EV(LB_EV_WAIT_BEGIN, _t, _lk, _cls, _pid), .owner_source = (_src), \
	  .owner = (_own), .owner_cpu = (_ocpu), .owner_run_delay = (_ord) }
#define LB_END_RD(_t, _lk, _cls, _pid, _res, _cpu, _rd) \
	{ LB_EV(LB_EV_WAIT_END, _t, _lk, _cls, _pid), .result = (_res), .cpu = (_cpu), \
	  .run_delay = (_rd) }
#define LB_RELEASE_RD(_t, _lk, _cls, _pid, _cpu, _rd, _woken) \
	{ LB_EV(LB_EV_RELEASE, _t, _lk, _cls, _pid), .cpu = (_cpu), .run_delay = (_rd), \
	  .count = (_woken) }
#define LB_ADVANCE(time)		{ .op = LB_SCN_ADVANCE, .t = (time) }
/* Expectations: the step's subject (task, lock), then the values wanted, by name. */
#define LB_X_VERDICT(p, ...)		{ .op = LB_SCN_X_VERDICT, .pid = (p), \
					  .want.verdict = { __VA_ARGS__ } }
#define LB_X_EVENT_TASK(p, ...)		{ .op = LB_SCN_X_EVENT_TASK, .pid = (p), \
					  .want.event_task = { __VA_ARGS__ } }
#define LB_X_EVENT_TOTALS(...)		{ .op = LB_SCN_X_EVENT_TOTALS, \
					  .want.event_totals = { __VA_ARGS__ } }
#define LB_X_TASK(p, ...)		{ .op = LB_SCN_X_TASK, .pid = (p), \
					  .want.task = { __VA_ARGS__ } }
#define LB_X_TASK_COUNTS(p, ...)	{ .op = LB_SCN_X_TASK_COUNTS, .pid = (p), \
					  .want.task_counts = { __VA_ARGS__ } }
#define LB_X_TASK_SPLIT(p, ...)		{ .op = LB_SCN_X_TASK_SPLIT, .pid = (p), \
					  .want.task_split = { __VA_ARGS__ } }
#define LB_X_PROC_SPLIT(tgid, ...)	{ .op = LB_SCN_X_PROC_SPLIT, .pid = (tgid), \
					  .want.proc_split = { __VA_ARGS__ } }
#define LB_X_TASK_COMM(p, c)		{ .op = LB_SCN_X_TASK_COMM, .pid = (p), .comm = (c) }
#define LB_X_NO_TASK(p)			{ .op = LB_SCN_X_NO_TASK, .pid = (p) }
#define LB_X_NO_LOCK(lk)		{ .op = LB_SCN_X_NO_LOCK, .lock = (lk) }
#define LB_X_LOCK(lk, ...)		{ .op = LB_SCN_X_LOCK, .lock = (lk), \
					  .want.lock = { __VA_ARGS__ } }
#define LB_X_LOCK_MORE(lk, ...)		{ .op = LB_SCN_X_LOCK_MORE, .lock = (lk), \
					  .want.lock_more = { __VA_ARGS__ } }
#define LB_X_LOCK_USE(lk, ...)		{ .op = LB_SCN_X_LOCK_USE, .lock = (lk), \
					  .want.lock_use = { __VA_ARGS__ } }
#define LB_X_UNENDED(lk, p, ...)	{ .op = LB_SCN_X_UNENDED, .lock = (lk), .pid = (p), \
					  .want.unended = { __VA_ARGS__ } }
#define LB_X_LOCK_PCT(lk, ...)		{ .op = LB_SCN_X_LOCK_PCT, .lock = (lk), \
					  .want.lock_pct = { __VA_ARGS__ } }
#define LB_X_TOTALS(...)		{ .op = LB_SCN_X_TOTALS, .want.totals = { __VA_ARGS__ } }
#define LB_X_COUNTERS(...)		{ .op = LB_SCN_X_COUNTERS, \
					  .want.counters = { __VA_ARGS__ } }
#define LB_X_COUNTERS2(...)		{ .op = LB_SCN_X_COUNTERS2, \
					  .want.counters2 = { __VA_ARGS__ } }
#define LB_X_PAIR(h, vic, ...)		{ .op = LB_SCN_X_PAIR, .pid = (h), .owner = (vic), \
					  .want.pair = { __VA_ARGS__ } }
#define LB_X_PROC(tgid, ...)		{ .op = LB_SCN_X_PROC, .pid = (tgid), \
					  .want.proc = { __VA_ARGS__ } }
#define LB_X_PROC_COMM(tgid, c)		{ .op = LB_SCN_X_PROC_COMM, .pid = (tgid), .comm = (c) }
#define LB_X_DEADLOCKS(...)		{ .op = LB_SCN_X_DEADLOCKS, \
					  .want.deadlocks = { __VA_ARGS__ } }
#define LB_X_CHAIN(vl, h, on, r, ...)	{ .op = LB_SCN_X_CHAIN, .lock = (vl), .pid = (h), \
					  .cpu = (on), .owner = (r), .want.chain = { __VA_ARGS__ } }
#define LB_X_FOLDED(...)		{ .op = LB_SCN_X_FOLDED, .want.folded = { __VA_ARGS__ } }
#define LB_NEXT_STACK(id)		{ .op = LB_SCN_NEXT_STACK, .count = (id) }
#define LB_X_STACK(p, cause, id, ...)	{ .op = LB_SCN_X_STACK, .pid = (p), .result = (cause), \
					  .count = (id), .want.stack = { __VA_ARGS__ } }
#define LB_X_CGROUP(p, tgid, ...)	{ .op = LB_SCN_X_CGROUP, .pid = (p), .owner = (tgid), \
					  .want.cgroup = { __VA_ARGS__ } }
#define LB_X_CGROUP_PAIR(h, vic, ...)	{ .op = LB_SCN_X_CGROUP_PAIR, .holder_cgroup = (h), \
					  .victim_cgroup = (vic), \
					  .want.cgroup_pair = { __VA_ARGS__ } }
#define LB_X_OUTLIERS(...)		{ .op = LB_SCN_X_OUTLIERS, \
					  .want.outliers = { __VA_ARGS__ } }
#define LB_X_OUTLIER(kind, vic, h, ...)	{ .op = LB_SCN_X_OUTLIER, .result = (kind), \
					  .pid = (vic), .owner = (h), \
					  .want.outlier = { __VA_ARGS__ } }
#define LB_RESET			{ .op = LB_SCN_RESET }
#define LB_SCN_END			{ .op = LB_SCN_DONE }

#define FUTEX		LB_LOCK_FUTEX
#define MUTEX		LB_LOCK_MUTEX
#define RWSEM		LB_LOCK_RWSEM
#define ACQ		LB_WAIT_ACQUIRED
#define WOKEN		LB_WAIT_WOKEN
#define FIELD		LB_OWNER_LOCK_FIELD
#define CAUSE		LB_VERDICT_CAUSE
#define VICTIM		LB_VERDICT_VICTIM
#define SHARED		LB_VERDICT_SHARED
#define NONE		LB_VERDICT_NONE

/*
 * Holder computing under the lock: A took L1 on the fast path; B and C queue
 * behind it; the owner field names A with its on-CPU clock at 50000. A runs
 * 950 of its 1000 ns hold. Then B holds while C still waits.
 *   [1000,1200) B waits, A holds: A 200    [1200,2000) B, C wait: A 1600
 *   [2000,2500) C waits, B holds: B 500
 * A: blame 1800, hold 1000 (lower bound: seen from 1000), on CPU 950: CAUSE.
 * B: wait 1000, blame 500: VICTIM (1000 >= 2 * 500). C: wait 1300: VICTIM.
 * Window 1000..3000: busy 1500 (util 75%), mean queue 2300/2000 (1.150).
 * Waits 1000, 1300: p50 is the upper bound of [512,1024); p99 clamps to max.
 */
static const struct lb_scn_task lb_scn_tasks_on_cpu[] = {
	{ 101, 100, "compute", false, NULL },
	{ 201, 200, "worker", false, NULL },
	{ 202, 200, "worker", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_on_cpu[] = {
	LB_BEGIN_OWNED(1000, LB_LK(1), MUTEX, 201, 0, FIELD, 101, 50000),
	LB_BEGIN_OWNED(1200, LB_LK(1), MUTEX, 202, 0, FIELD, 101, 50190),
	LB_RELEASE(2000, LB_LK(1), MUTEX, 101, 0, 50950, 0),
	LB_END(2000, LB_LK(1), MUTEX, 201, 0, ACQ, 7000),
	LB_RELEASE(2500, LB_LK(1), MUTEX, 201, 0, 7450, 0),
	LB_END(2500, LB_LK(1), MUTEX, 202, 0, ACQ, 9000),
	LB_ADVANCE(3000),
	LB_X_TASK(101, .wait = 0, .blame = 1800, .root_blame = 1800, .hold = 1000,
		  .hold_on_cpu = 950, .verdict = CAUSE),
	LB_X_TASK_COUNTS(101, .waits = 0, .holds = 1, .holds_lower_bound = 1, .errors = 0,
			 .kthread = 0, .tgid = 100),
	LB_X_TASK(201, .wait = 1000, .blame = 500, .root_blame = 500, .hold = 500,
		  .hold_on_cpu = 450, .verdict = VICTIM),
	LB_X_TASK_COUNTS(201, .waits = 1, .holds = 1, .holds_lower_bound = 0, .errors = 0,
			 .kthread = 0, .tgid = 200),
	LB_X_TASK(202, .wait = 1300, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_TOTALS(.wait = 2300, .blame = 2300, .pending = 0, .unattributed = 0),
	LB_X_LOCK(LB_LK(1), .acquisitions = 2, .wait = 2300, .hold = 1500, .blame = 2300,
		  .holder = 202, .waiters = 0),
	LB_X_LOCK_MORE(LB_LK(1), .pending = 0, .unattributed = 0, .holds = 2,
		       .holds_lower_bound = 1, .holds_at_release = 0, .holders = 1),
	LB_X_LOCK_USE(LB_LK(1), .errors = 0, .util_ppm = 750000, .sat_milli = 1150, .probable = 0),
	LB_X_LOCK_PCT(LB_LK(1), .wait_p50 = 1023, .wait_p99 = 1300, .wait_max = 1300,
		      .hold_p50 = 511, .hold_p99 = 1000, .hold_max = 1000),
	LB_X_PAIR(101, 201, .blame = 1000),
	LB_X_PAIR(101, 202, .blame = 800),
	LB_X_PAIR(201, 202, .blame = 500),
	LB_X_PROC(100, .wait = 0, .blame = 1800, .root_blame = 1800, .hold = 1000,
		  .verdict = CAUSE),
	LB_X_PROC(200, .wait = 2300, .blame = 500, .root_blame = 500, .hold = 500,
		  .verdict = VICTIM),
	LB_SCN_END
};

/*
 * Holder sleeping under the lock: same shape, one waiter, but A's on-CPU
 * clock moves 100 ns in a 10000 ns hold: it slept (I/O) while holding.
 */
static const struct lb_scn_step lb_scn_steps_off_cpu[] = {
	LB_BEGIN_OWNED(1000, LB_LK(1), MUTEX, 201, 0, FIELD, 101, 80000),
	LB_RELEASE(11000, LB_LK(1), MUTEX, 101, 0, 80100, 0),
	LB_END(11000, LB_LK(1), MUTEX, 201, 0, ACQ, 300),
	LB_X_TASK(101, .wait = 0, .blame = 10000, .root_blame = 10000, .hold = 10000,
		  .hold_on_cpu = 100, .verdict = CAUSE),
	LB_X_TASK(201, .wait = 10000, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_TOTALS(.wait = 10000, .blame = 10000, .pending = 0, .unattributed = 0),
	LB_SCN_END
};

/*
 * Equal waits, unequal holds: X and Y both wait 1000 ns, but X held the lock
 * 1000 ns with two waiters queued and Y only 100 ns with one. A wait-only
 * view cannot tell them apart; blame can.
 *   [0,1000) Y, V wait, X holds: X 2000   [1000,1100) V waits, Y holds: Y 100
 *   [1100,2100) X waits, V holds: V 1000
 * X: CAUSE (2000 vs 1000). Y: VICTIM (100 vs 1000). V: SHARED (1000 vs 1100).
 */
static const struct lb_scn_task lb_scn_tasks_equal_waits[] = {
	{ 301, 300, "xfast", false, NULL },
	{ 302, 300, "yslow", false, NULL },
	{ 303, 300, "vbg", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_equal_waits[] = {
	LB_BEGIN_OWNED(0, LB_LK(1), MUTEX, 302, 0, FIELD, 301, 10000),
	LB_BEGIN_OWNED(0, LB_LK(1), MUTEX, 303, 0, FIELD, 301, 10000),
	LB_RELEASE(1000, LB_LK(1), MUTEX, 301, 0, 10600, 0),
	LB_END(1000, LB_LK(1), MUTEX, 302, 0, ACQ, 20000),
	LB_RELEASE(1100, LB_LK(1), MUTEX, 302, 0, 20100, 0),
	LB_END(1100, LB_LK(1), MUTEX, 303, 0, ACQ, 30000),
	LB_BEGIN_OWNED(1100, LB_LK(1), MUTEX, 301, 0, FIELD, 303, 30000),
	LB_RELEASE(2100, LB_LK(1), MUTEX, 303, 0, 30200, 0),
	LB_END(2100, LB_LK(1), MUTEX, 301, 0, ACQ, 10700),
	LB_X_TASK(301, .wait = 1000, .blame = 2000, .root_blame = 2000, .hold = 1000,
		  .hold_on_cpu = 600, .verdict = CAUSE),
	LB_X_TASK(302, .wait = 1000, .blame = 100, .root_blame = 100, .hold = 100,
		  .hold_on_cpu = 100, .verdict = VICTIM),
	LB_X_TASK(303, .wait = 1100, .blame = 1000, .root_blame = 1000, .hold = 1000,
		  .hold_on_cpu = 200, .verdict = SHARED),
	LB_X_TASK_COUNTS(301, .waits = 1, .holds = 1, .holds_lower_bound = 1, .errors = 0,
			 .kthread = 0, .tgid = 300),
	LB_X_TASK_COUNTS(302, .waits = 1, .holds = 1, .holds_lower_bound = 0, .errors = 0,
			 .kthread = 0, .tgid = 300),
	LB_X_TOTALS(.wait = 3100, .blame = 3100, .pending = 0, .unattributed = 0),
	LB_X_PAIR(301, 302, .blame = 1000),
	LB_X_PAIR(301, 303, .blame = 1000),
	LB_X_PAIR(302, 303, .blame = 100),
	LB_X_PAIR(303, 301, .blame = 1000),
	LB_X_PROC(300, .wait = 3100, .blame = 3100, .root_blame = 3100, .hold = 2100,
		  .verdict = SHARED),
	LB_X_PROC_COMM(300, "yslow"),
	LB_SCN_END
};

/*
 * Short-lived holder processes: helper processes 401 and 402 each hold a
 * shared futex once, then exit. The futex owner is only guessed (glibc
 * __owner, a heuristic: never blamed) until the helper's futex_wake names
 * it, so blame is pending until then; the hold is a lower bound from the
 * first waiter. After the helpers exit, new tasks 404 and 405 fill the small
 * task table: the task evicted is the least interesting one (404, which only
 * failed a futex_wait with EAGAIN), and the helpers keep their names.
 */
static const struct lb_scn_task lb_scn_tasks_short_lived[] = {
	{ 401, 401, "helper", false, NULL },
	{ 402, 402, "helper", false, NULL },
	{ 403, 403, "server", false, NULL },
	{ 404, 404, "probe1", false, NULL },
	{ 405, 405, "probe2", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_short_lived[] = {
	LB_BEGIN_OWNED(100, LB_LK(1), FUTEX, 403, LB_EF_SHARED_KEY, LB_OWNER_HEURISTIC, 401, 0),
	LB_X_LOCK(LB_LK(1), .acquisitions = 0, .wait = 0, .hold = 0, .blame = 0, .holder = 0,
		  .waiters = 1),
	LB_ADVANCE(300),
	LB_X_TOTALS(.wait = 200, .blame = 0, .pending = 200, .unattributed = 0),
	LB_X_LOCK_USE(LB_LK(1), .errors = 0, .util_ppm = 1000000, .sat_milli = 1000,
		      .probable = 401),
	LB_RELEASE(600, LB_LK(1), FUTEX, 401, LB_EF_SHARED_KEY, 7000, 1),
	LB_END(600, LB_LK(1), FUTEX, 403, LB_EF_SHARED_KEY, WOKEN, 100),
	LB_RELEASE(650, LB_LK(1), FUTEX, 403, LB_EF_SHARED_KEY, 130, 0),
	LB_BEGIN_OWNED(1000, LB_LK(1), FUTEX, 403, LB_EF_SHARED_KEY, LB_OWNER_HEURISTIC, 402, 0),
	LB_RELEASE(1300, LB_LK(1), FUTEX, 402, LB_EF_SHARED_KEY, 9000, 1),
	LB_END(1300, LB_LK(1), FUTEX, 403, LB_EF_SHARED_KEY, WOKEN, 200),
	LB_BEGIN(2000, LB_LK(2), FUTEX, 404, LB_EF_NOSLEEP),
	LB_END(2000, LB_LK(2), FUTEX, 404, LB_EF_NOSLEEP, LB_WAIT_AGAIN, 0),
	LB_BEGIN(2100, LB_LK(2), FUTEX, 405, LB_EF_NOSLEEP),
	LB_END(2100, LB_LK(2), FUTEX, 405, LB_EF_NOSLEEP, LB_WAIT_AGAIN, 0),
	LB_X_TASK(401, .wait = 0, .blame = 500, .root_blame = 500, .hold = 500, .hold_on_cpu = 0,
		  .verdict = CAUSE),
	LB_X_TASK_COUNTS(401, .waits = 0, .holds = 1, .holds_lower_bound = 1, .errors = 0,
			 .kthread = 0, .tgid = 401),
	LB_X_TASK_COMM(401, "helper"),
	LB_X_TASK(402, .wait = 0, .blame = 300, .root_blame = 300, .hold = 300, .hold_on_cpu = 0,
		  .verdict = CAUSE),
	LB_X_TASK_COMM(402, "helper"),
	LB_X_TASK(403, .wait = 800, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_NO_TASK(404),
	LB_X_TASK_COUNTS(405, .waits = 1, .holds = 0, .holds_lower_bound = 0, .errors = 1,
			 .kthread = 0, .tgid = 405),
	LB_X_TOTALS(.wait = 800, .blame = 800, .pending = 0, .unattributed = 0),
	LB_X_COUNTERS(.late = 0, .unmatched = 0, .dropped_waiters = 0, .dropped_pairs = 0,
		      .evicted_locks = 0, .evicted_tasks = 1),
	LB_X_LOCK(LB_LK(1), .acquisitions = 2, .wait = 800, .hold = 800, .blame = 800,
		  .holder = 403, .waiters = 0),
	LB_X_LOCK_MORE(LB_LK(1), .pending = 0, .unattributed = 0, .holds = 2,
		       .holds_lower_bound = 2, .holds_at_release = 2, .holders = 1),
	LB_X_LOCK_USE(LB_LK(2), .errors = 2, .util_ppm = 0, .sat_milli = 0, .probable = 0),
	LB_X_PROC(401, .wait = 0, .blame = 500, .root_blame = 500, .hold = 500, .verdict = CAUSE),
	LB_X_PROC(402, .wait = 0, .blame = 300, .root_blame = 300, .hold = 300, .verdict = CAUSE),
	LB_X_PROC(403, .wait = 800, .blame = 0, .root_blame = 0, .hold = 0, .verdict = VICTIM),
	LB_SCN_END
};

/*
 * Two processes on one shared futex: both see the same lock id. Process 500
 * (threads 500, 501) waits; process 600 holds 4000 ns with both queued.
 *   [0,4000) 500, 501 wait, holder unknown: pending 8000, named at 600's wake
 *   [4000,4500) 501 waits, 500 (woken) holds: 500 500
 *   [5000,5200) 600 waits, holder unknown: pending 200, named at 501's wake
 * 600: blame 8000, wait 200: CAUSE. Process 500: wait 8500, blame 700: VICTIM.
 */
static const struct lb_scn_task lb_scn_tasks_shared_futex[] = {
	{ 500, 500, "dbw-main", false, "postgres" },
	{ 501, 500, "dbwriter", false, "postgres" },
	{ 600, 600, "logflush", false, "rsyslogd" },
	{ 0 }
};

#define SK LB_EF_SHARED_KEY
static const struct lb_scn_step lb_scn_steps_shared_futex[] = {
	LB_BEGIN(0, LB_LK(7), FUTEX, 500, SK),
	LB_BEGIN(0, LB_LK(7), FUTEX, 501, SK),
	LB_RELEASE(4000, LB_LK(7), FUTEX, 600, SK, 12345, 1),
	LB_END(4000, LB_LK(7), FUTEX, 500, SK, WOKEN, 1000),
	LB_RELEASE(4500, LB_LK(7), FUTEX, 500, SK, 1400, 1),
	LB_END(4500, LB_LK(7), FUTEX, 501, SK, WOKEN, 2000),
	LB_BEGIN(5000, LB_LK(7), FUTEX, 600, SK),
	LB_RELEASE(5200, LB_LK(7), FUTEX, 501, SK, 2100, 1),
	LB_END(5200, LB_LK(7), FUTEX, 600, SK, WOKEN, 12400),
	LB_X_TASK(600, .wait = 200, .blame = 8000, .root_blame = 8000, .hold = 4000,
		  .hold_on_cpu = 0, .verdict = CAUSE),
	LB_X_TASK(500, .wait = 4000, .blame = 500, .root_blame = 500, .hold = 500,
		  .hold_on_cpu = 400, .verdict = VICTIM),
	LB_X_TASK(501, .wait = 4500, .blame = 200, .root_blame = 200, .hold = 200, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_TOTALS(.wait = 8700, .blame = 8700, .pending = 0, .unattributed = 0),
	LB_X_LOCK(LB_LK(7), .acquisitions = 3, .wait = 8700, .hold = 4700, .blame = 8700,
		  .holder = 600, .waiters = 0),
	LB_X_LOCK_MORE(LB_LK(7), .pending = 0, .unattributed = 0, .holds = 3,
		       .holds_lower_bound = 2, .holds_at_release = 2, .holders = 1),
	LB_X_PAIR(600, 500, .blame = 4000),
	LB_X_PAIR(600, 501, .blame = 4000),
	LB_X_PAIR(500, 501, .blame = 500),
	LB_X_PAIR(501, 600, .blame = 200),
	LB_X_PROC(500, .wait = 8500, .blame = 700, .root_blame = 700, .hold = 700,
		  .verdict = VICTIM),
	LB_X_PROC(600, .wait = 200, .blame = 8000, .root_blame = 8000, .hold = 4000,
		  .verdict = CAUSE),
	LB_X_PROC_COMM(500, "postgres"),
	LB_X_PROC_COMM(600, "rsyslogd"),
	LB_X_TASK_COMM(501, "dbwriter"),
	LB_SCN_END
};

#undef SK

/*
 * Chain A -> B -> C: A waits on L1 held by B; B waits on L2 held by C.
 *   [0,100) B waits on L2: C 100                [100,1000) L2: C 900; L1: B 900,
 *   which also flows past blocked B to C (root)  [1000,1500) L1: B 500, B runs
 * C: blame 1000, root blame 1900: CAUSE. B: blame 1400, wait 1000; it keeps
 * root blame only 500: most of its blame was C's doing, so it is a VICTIM.
 */
static const struct lb_scn_task lb_scn_tasks_chain[] = {
	{ 701, 700, "front", false, NULL },
	{ 702, 700, "middle", false, NULL },
	{ 703, 700, "root", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_chain[] = {
	LB_BEGIN_OWNED(0, LB_LK(2), MUTEX, 702, 0, FIELD, 703, 100),
	LB_BEGIN_OWNED(100, LB_LK(1), MUTEX, 701, 0, FIELD, 702, 500),
	LB_ADVANCE(600),
	LB_X_TASK(703, .wait = 0, .blame = 600, .root_blame = 1100, .hold = 0, .hold_on_cpu = 0,
		  .verdict = CAUSE),
	LB_X_TASK(702, .wait = 600, .blame = 500, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_RELEASE(1000, LB_LK(2), MUTEX, 703, 0, 1000, 0),
	LB_END(1000, LB_LK(2), MUTEX, 702, 0, ACQ, 600),
	LB_RELEASE(1500, LB_LK(1), MUTEX, 702, 0, 900, 0),
	LB_END(1500, LB_LK(1), MUTEX, 701, 0, ACQ, 50),
	LB_X_TASK(701, .wait = 1400, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_TASK(702, .wait = 1000, .blame = 1400, .root_blame = 500, .hold = 1400,
		  .hold_on_cpu = 400, .verdict = VICTIM),
	LB_X_TASK(703, .wait = 0, .blame = 1000, .root_blame = 1900, .hold = 1000,
		  .hold_on_cpu = 900, .verdict = CAUSE),
	LB_X_TOTALS(.wait = 2400, .blame = 2400, .pending = 0, .unattributed = 0),
	LB_X_LOCK(LB_LK(2), .acquisitions = 1, .wait = 1000, .hold = 1000, .blame = 1000,
		  .holder = 702, .waiters = 0),
	LB_X_PAIR(703, 702, .blame = 1000),
	LB_X_PAIR(702, 701, .blame = 1400),
	LB_X_DEADLOCKS(.deadlocks = 0),
	LB_SCN_END
};

/*
 * The same chain when L2 is a futex, whose holder C is learnt only when it
 * wakes B: the root blame that reached B's futex while its holder was
 * unknown is kept on it and paid to C at the release, as above.
 *   [0,1000) B waits on L2 (holder unknown: pending, C at release)
 *   [100,1000) L1: B 900, past blocked B to L2's future releaser C
 *   [1000,1500) L1: B 500, B runs
 */
static const struct lb_scn_step lb_scn_steps_chain_futex[] = {
	LB_BEGIN(0, LB_LK(2), FUTEX, 702, 0),
	LB_BEGIN_OWNED(100, LB_LK(1), MUTEX, 701, 0, FIELD, 702, 500),
	LB_ADVANCE(600),
	LB_X_TASK(702, .wait = 600, .blame = 500, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_RELEASE(1000, LB_LK(2), FUTEX, 703, 0, 1000, 1),
	LB_END(1000, LB_LK(2), FUTEX, 702, 0, WOKEN, 600),
	LB_RELEASE(1500, LB_LK(1), MUTEX, 702, 0, 900, 0),
	LB_END(1500, LB_LK(1), MUTEX, 701, 0, ACQ, 50),
	LB_X_TASK(701, .wait = 1400, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_TASK(702, .wait = 1000, .blame = 1400, .root_blame = 500, .hold = 1400,
		  .hold_on_cpu = 400, .verdict = VICTIM),
	LB_X_TASK(703, .wait = 0, .blame = 1000, .root_blame = 1900, .hold = 1000, .hold_on_cpu = 0,
		  .verdict = CAUSE),
	LB_X_TOTALS(.wait = 2400, .blame = 2400, .pending = 0, .unattributed = 0),
	LB_X_PAIR(703, 702, .blame = 1000),
	LB_X_PAIR(702, 701, .blame = 1400),
	LB_SCN_END
};

/*
 * The chain in userspace: both locks are futexes. A waits on L1, whose
 * glibc owner field names B (a heuristic: never blamed); B waits on L2. C
 * releases L2, then B releases L1: B is confirmed as L1's holder, so the
 * root blame of the time B was blocked goes on to L2's releaser C.
 *   [0,1000) B waits on L2: pending, C at release
 *   [100,1500) A waits on L1: pending, B at release; [100,1000) routed to C
 */
static const struct lb_scn_step lb_scn_steps_chain_userspace[] = {
	LB_BEGIN(0, LB_LK(2), FUTEX, 702, 0),
	LB_BEGIN_OWNED(100, LB_LK(1), FUTEX, 701, 0, LB_OWNER_HEURISTIC, 702, 500),
	LB_RELEASE(1000, LB_LK(2), FUTEX, 703, 0, 1000, 1),
	LB_END(1000, LB_LK(2), FUTEX, 702, 0, WOKEN, 600),
	LB_RELEASE(1500, LB_LK(1), FUTEX, 702, 0, 900, 1),
	LB_END(1500, LB_LK(1), FUTEX, 701, 0, WOKEN, 50),
	LB_X_TASK(701, .wait = 1400, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_TASK(702, .wait = 1000, .blame = 1400, .root_blame = 500, .hold = 1400,
		  .hold_on_cpu = 400, .verdict = VICTIM),
	LB_X_TASK(703, .wait = 0, .blame = 1000, .root_blame = 1900, .hold = 1000, .hold_on_cpu = 0,
		  .verdict = CAUSE),
	LB_X_TOTALS(.wait = 2400, .blame = 2400, .pending = 0, .unattributed = 0),
	LB_X_PAIR(703, 702, .blame = 1000),
	LB_X_PAIR(702, 701, .blame = 1400),
	LB_SCN_END
};

/*
 * Two tasks alternating as holders of one mutex: each makes the other wait
 * about as long as it waits itself: SHARED control, the "hot coal".
 *   [0,1000) Y waits, X holds    [1000,2000) X waits, Y holds
 *   [2000,2800) Y waits, X holds
 * X: blame 1800, wait 1000. Y: blame 1000, wait 1800. Both SHARED.
 */
static const struct lb_scn_task lb_scn_tasks_alternating[] = {
	{ 801, 800, "ping", false, NULL },
	{ 901, 900, "pong", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_alternating[] = {
	LB_BEGIN_OWNED(0, LB_LK(1), MUTEX, 901, 0, FIELD, 801, 1000),
	LB_RELEASE(1000, LB_LK(1), MUTEX, 801, 0, 1500, 0),
	LB_END(1000, LB_LK(1), MUTEX, 901, 0, ACQ, 3000),
	LB_BEGIN_OWNED(1000, LB_LK(1), MUTEX, 801, 0, FIELD, 901, 3000),
	LB_RELEASE(2000, LB_LK(1), MUTEX, 901, 0, 3700, 0),
	LB_END(2000, LB_LK(1), MUTEX, 801, 0, ACQ, 1600),
	LB_BEGIN_OWNED(2000, LB_LK(1), MUTEX, 901, 0, FIELD, 801, 1600),
	LB_RELEASE(2800, LB_LK(1), MUTEX, 801, 0, 2000, 0),
	LB_END(2800, LB_LK(1), MUTEX, 901, 0, ACQ, 3800),
	LB_X_TASK(801, .wait = 1000, .blame = 1800, .root_blame = 1800, .hold = 1800,
		  .hold_on_cpu = 900, .verdict = SHARED),
	LB_X_TASK_COUNTS(801, .waits = 1, .holds = 2, .holds_lower_bound = 1, .errors = 0,
			 .kthread = 0, .tgid = 800),
	LB_X_TASK(901, .wait = 1800, .blame = 1000, .root_blame = 1000, .hold = 1000,
		  .hold_on_cpu = 700, .verdict = SHARED),
	LB_X_TOTALS(.wait = 2800, .blame = 2800, .pending = 0, .unattributed = 0),
	LB_X_PROC(800, .wait = 1000, .blame = 1800, .root_blame = 1800, .hold = 1800,
		  .verdict = SHARED),
	LB_X_PROC(900, .wait = 1800, .blame = 1000, .root_blame = 1000, .hold = 1000,
		  .verdict = SHARED),
	LB_X_PROC_COMM(800, "ping"),
	LB_SCN_END
};

/*
 * A kernel thread holds a mutex a user task needs: the cause is a kthread,
 * named as such, with its on-CPU share (2000 of 3000 ns).
 */
static const struct lb_scn_task lb_scn_tasks_kthread[] = {
	{ 50, 50, "kworker/0:1", true, NULL },
	{ 1000, 1000, "app", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_kthread[] = {
	LB_BEGIN_OWNED(0, LB_LK(3), MUTEX, 1000, 0, FIELD, 50, 2000),
	LB_RELEASE(3000, LB_LK(3), MUTEX, 50, 0, 4000, 0),
	LB_END(3000, LB_LK(3), MUTEX, 1000, 0, ACQ, 10),
	LB_X_TASK(50, .wait = 0, .blame = 3000, .root_blame = 3000, .hold = 3000,
		  .hold_on_cpu = 2000, .verdict = CAUSE),
	LB_X_TASK_COUNTS(50, .waits = 0, .holds = 1, .holds_lower_bound = 1, .errors = 0,
			 .kthread = 1, .tgid = 50),
	LB_X_TASK_COMM(50, "kworker/0:1"),
	LB_X_TASK(1000, .wait = 3000, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_TASK_COUNTS(1000, .waits = 1, .holds = 0, .holds_lower_bound = 0, .errors = 0,
			 .kthread = 0, .tgid = 1000),
	LB_X_PROC(50, .wait = 0, .blame = 3000, .root_blame = 3000, .hold = 3000, .verdict = CAUSE),
	LB_X_TOTALS(.wait = 3000, .blame = 3000, .pending = 0, .unattributed = 0),
	LB_SCN_END
};

/*
 * Deadlock (ABBA): 1101 holds LA and waits on LB, 1102 holds LB and waits on
 * LA. Each blames the other; the cycle is reported once however often it is
 * walked; blame stays conserved.
 */
static const struct lb_scn_task lb_scn_tasks_deadlock[] = {
	{ 1101, 1100, "left", false, NULL },
	{ 1102, 1100, "right", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_deadlock[] = {
	LB_BEGIN_OWNED(0, LB_LK(0xb), MUTEX, 1101, 0, FIELD, 1102, 0),
	LB_BEGIN_OWNED(0, LB_LK(0xa), MUTEX, 1102, 0, FIELD, 1101, 0),
	LB_ADVANCE(1000),
	LB_X_DEADLOCKS(.deadlocks = 1),
	LB_ADVANCE(2000),
	LB_X_DEADLOCKS(.deadlocks = 1),
	LB_X_TASK(1101, .wait = 2000, .blame = 2000, .root_blame = 2000, .hold = 0,
		  .hold_on_cpu = 0, .verdict = SHARED),
	LB_X_TASK(1102, .wait = 2000, .blame = 2000, .root_blame = 2000, .hold = 0,
		  .hold_on_cpu = 0, .verdict = SHARED),
	LB_X_LOCK(LB_LK(0xa), .acquisitions = 0, .wait = 2000, .hold = 0, .blame = 2000,
		  .holder = 1101, .waiters = 1),
	LB_X_TOTALS(.wait = 4000, .blame = 4000, .pending = 0, .unattributed = 0),
	/* Two hours later it is still there, still counted. */
	LB_ADVANCE(7200000000000ULL),
	LB_X_TOTALS(.wait = 14400000000000ULL, .blame = 14400000000000ULL, .pending = 0,
		    .unattributed = 0),
	LB_X_DEADLOCKS(.deadlocks = 1),
	LB_SCN_END
};

/*
 * A three-way cycle (T1 -> LB -> T2 -> LC -> T3 -> LA -> T1) with outsiders
 * queued into it: V waits on LA; X waits on LA and holds LD, where W waits.
 * Over 500 ns: LA has T3, V, X waiting: T1 1500. LB: T2 500. LC: T3 500.
 * LD: X 500, which flows on into the cycle, to T1 where the walk enters it.
 * One deadlock, however many walks meet it.
 */
static const struct lb_scn_task lb_scn_tasks_deadlock3[] = {
	{ 1201, 1200, "t1", false, NULL },
	{ 1202, 1200, "t2", false, NULL },
	{ 1203, 1200, "t3", false, NULL },
	{ 1204, 1200, "v", false, NULL },
	{ 1205, 1200, "x", false, NULL },
	{ 1206, 1200, "w", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_deadlock3[] = {
	LB_BEGIN_OWNED(0, LB_LK(0xb), MUTEX, 1201, 0, FIELD, 1202, 0),
	LB_BEGIN_OWNED(0, LB_LK(0xc), MUTEX, 1202, 0, FIELD, 1203, 0),
	LB_BEGIN_OWNED(0, LB_LK(0xa), MUTEX, 1203, 0, FIELD, 1201, 0),
	LB_BEGIN_OWNED(0, LB_LK(0xa), MUTEX, 1204, 0, FIELD, 1201, 0),
	LB_BEGIN_OWNED(0, LB_LK(0xa), MUTEX, 1205, 0, FIELD, 1201, 0),
	LB_BEGIN_OWNED(0, LB_LK(0xd), MUTEX, 1206, 0, FIELD, 1205, 0),
	LB_ADVANCE(500),
	LB_X_DEADLOCKS(.deadlocks = 1),
	LB_X_TASK(1201, .wait = 500, .blame = 1500, .root_blame = 2000, .hold = 0, .hold_on_cpu = 0,
		  .verdict = CAUSE),
	LB_X_TASK(1202, .wait = 500, .blame = 500, .root_blame = 500, .hold = 0, .hold_on_cpu = 0,
		  .verdict = SHARED),
	LB_X_TASK(1203, .wait = 500, .blame = 500, .root_blame = 500, .hold = 0, .hold_on_cpu = 0,
		  .verdict = SHARED),
	LB_X_TASK(1204, .wait = 500, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_TASK(1205, .wait = 500, .blame = 500, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_TASK(1206, .wait = 500, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_TOTALS(.wait = 3000, .blame = 3000, .pending = 0, .unattributed = 0),
	LB_SCN_END
};

/*
 * Futex holder known only at release: A took the futex on the fast path and
 * nothing names it until its futex_wake. Until then the waiting is pending;
 * the wake resolves it, pairs included. B's wake-up takes 50 ns during which
 * the lock is changing hands: that 100 waiter-ns is nobody's hold and becomes
 * unattributed once B is seen to take the lock.
 */
static const struct lb_scn_task lb_scn_tasks_known_at_release[] = {
	{ 1301, 1300, "holder", false, NULL },
	{ 1302, 1300, "waiter", false, NULL },
	{ 1303, 1300, "waiter", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_known_at_release[] = {
	LB_BEGIN(100, LB_LK(5), FUTEX, 1302, 0),
	LB_BEGIN(300, LB_LK(5), FUTEX, 1303, 0),
	LB_ADVANCE(500),
	LB_X_TOTALS(.wait = 600, .blame = 0, .pending = 600, .unattributed = 0),
	LB_X_LOCK(LB_LK(5), .acquisitions = 0, .wait = 600, .hold = 0, .blame = 0, .holder = 0,
		  .waiters = 2),
	LB_X_NO_TASK(1301),
	LB_RELEASE(700, LB_LK(5), FUTEX, 1301, 0, 9999, 1),
	LB_X_TOTALS(.wait = 1000, .blame = 1000, .pending = 0, .unattributed = 0),
	LB_X_PAIR(1301, 1302, .blame = 600),
	LB_X_PAIR(1301, 1303, .blame = 400),
	LB_END(750, LB_LK(5), FUTEX, 1302, 0, WOKEN, 5000),
	LB_X_TOTALS(.wait = 1100, .blame = 1000, .pending = 0, .unattributed = 100),
	LB_X_LOCK(LB_LK(5), .acquisitions = 1, .wait = 1100, .hold = 600, .blame = 1000,
		  .holder = 1302, .waiters = 1),
	LB_RELEASE(900, LB_LK(5), FUTEX, 1302, 0, 5100, 1),
	LB_END(900, LB_LK(5), FUTEX, 1303, 0, WOKEN, 7000),
	LB_X_TASK(1301, .wait = 0, .blame = 1000, .root_blame = 1000, .hold = 600, .hold_on_cpu = 0,
		  .verdict = CAUSE),
	LB_X_TASK_COUNTS(1301, .waits = 0, .holds = 1, .holds_lower_bound = 1, .errors = 0,
			 .kthread = 0, .tgid = 1300),
	LB_X_TASK(1302, .wait = 650, .blame = 150, .root_blame = 150, .hold = 150,
		  .hold_on_cpu = 100, .verdict = VICTIM),
	LB_X_TASK(1303, .wait = 600, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_PAIR(1302, 1303, .blame = 150),
	LB_X_TOTALS(.wait = 1250, .blame = 1150, .pending = 0, .unattributed = 100),
	LB_X_LOCK(LB_LK(5), .acquisitions = 2, .wait = 1250, .hold = 750, .blame = 1150,
		  .holder = 1303, .waiters = 0),
	LB_X_LOCK_MORE(LB_LK(5), .pending = 0, .unattributed = 100, .holds = 2,
		       .holds_lower_bound = 1, .holds_at_release = 1, .holders = 1),
	LB_SCN_END
};

/*
 * rwsem readers: writer Wt holds; readers R1, R2 queue and both take the
 * lock when Wt releases. Writer W2 then waits on the two readers (hinted by
 * R2): its 801 ns are split between them, the odd ns to the first.
 *   [0,1000) R1, R2 wait, Wt holds: Wt 2000
 *   [1200,2001) W2 waits, R1 + R2 hold: R1 401, R2 400
 * R2's up_read wakes W2: the lock is free, both readers are gone. R2's hold
 * under contention is 801 of its 1001 ns; its CPU clock moved 200 over the
 * 1001, so 160 of the 801 count as on CPU (pro rata). R1's release was not
 * seen (a reader's up_read that wakes nobody): it is dropped as a holder
 * then, with the 801 ns it held under contention as a hold whose end was
 * unseen and whose CPU share is unknown.
 */
static const struct lb_scn_task lb_scn_tasks_rwsem[] = {
	{ 1401, 1400, "writer", false, NULL },
	{ 1402, 1400, "reader", false, NULL },
	{ 1403, 1400, "reader", false, NULL },
	{ 1404, 1400, "writer2", false, NULL },
	{ 0 }
};

#define RD LB_EF_READ
#define WR LB_EF_WRITE
static const struct lb_scn_step lb_scn_steps_rwsem[] = {
	LB_BEGIN_OWNED(0, LB_LK(9), RWSEM, 1402, RD, FIELD, 1401, 100),
	LB_BEGIN_OWNED(0, LB_LK(9), RWSEM, 1403, RD, FIELD, 1401, 100),
	LB_RELEASE(1000, LB_LK(9), RWSEM, 1401, WR, 600, 2),
	LB_END(1000, LB_LK(9), RWSEM, 1402, RD, ACQ, 10),
	LB_END(1000, LB_LK(9), RWSEM, 1403, RD, ACQ, 20),
	LB_BEGIN_OWNED(1200, LB_LK(9), RWSEM, 1404, WR, LB_OWNER_READER_HINT, 1403, 25),
	LB_ADVANCE(1500),
	LB_X_LOCK(LB_LK(9), .acquisitions = 2, .wait = 2300, .hold = 1000, .blame = 2300,
		  .holder = 1402, .waiters = 1),
	LB_X_LOCK_MORE(LB_LK(9), .pending = 0, .unattributed = 0, .holds = 1,
		       .holds_lower_bound = 1, .holds_at_release = 0, .holders = 2),
	LB_RELEASE(2001, LB_LK(9), RWSEM, 1403, RD, 220, 1),
	LB_END(2001, LB_LK(9), RWSEM, 1404, WR, ACQ, 50),
	LB_X_TASK(1401, .wait = 0, .blame = 2000, .root_blame = 2000, .hold = 1000,
		  .hold_on_cpu = 500, .verdict = CAUSE),
	LB_X_TASK(1402, .wait = 1000, .blame = 401, .root_blame = 401, .hold = 801,
		  .hold_on_cpu = 0, .verdict = VICTIM),
	LB_X_TASK_SPLIT(1402, .hold = 801, .on_cpu = 0, .runnable = 0, .sleeping = 0,
			.cpu_unknown = 801, .runnable_unknown = 0),
	LB_X_TASK(1403, .wait = 1000, .blame = 400, .root_blame = 400, .hold = 801,
		  .hold_on_cpu = 160, .verdict = VICTIM),
	LB_X_TASK(1404, .wait = 801, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_PAIR(1402, 1404, .blame = 401),
	LB_X_PAIR(1403, 1404, .blame = 400),
	LB_X_PAIR(1401, 1402, .blame = 1000),
	LB_X_TOTALS(.wait = 2801, .blame = 2801, .pending = 0, .unattributed = 0),
	LB_X_LOCK(LB_LK(9), .acquisitions = 3, .wait = 2801, .hold = 2602, .blame = 2801,
		  .holder = 1404, .waiters = 0),
	LB_X_LOCK_MORE(LB_LK(9), .pending = 0, .unattributed = 0, .holds = 3,
		       .holds_lower_bound = 1, .holds_at_release = 0, .holders = 1),
	LB_X_UNENDED(LB_LK(9), 1402, .lock_holds = 1, .task_holds = 1),
	LB_SCN_END
};

#undef RD
#undef WR

/*
 * Table overflow: 2 locks, 6 tasks, 2 waits, 2 pairs. A third waiter is not
 * tracked (its waiting is not counted at all), a third pair (200) takes the
 * slot of the first of two worth 100 (the mean: dropped_pair_ns 100), two
 * idle locks make room: the futex, settled (its holder 1502 was never
 * waited for), is folded with its 400 of waiting and blame, and the mutex,
 * with 200 ns pending, is evicted (unattributed); one task is evicted (the
 * least interesting: 1203, whose wait was never tracked).
 * The invariant holds at every step.
 */
static const struct lb_scn_task lb_scn_tasks_overflow[] = {
	{ 1500, 1500, "h", false, NULL },
	{ 1501, 1501, "t1", false, NULL },
	{ 1502, 1502, "t2", false, NULL },
	{ 1503, 1503, "t3", false, NULL },
	{ 1504, 1504, "t4", false, NULL },
	{ 1505, 1505, "t5", false, NULL },
	{ 1506, 1506, "t6", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_overflow[] = {
	LB_BEGIN(0, LB_LK(1), FUTEX, 1501, 0),
	LB_BEGIN(0, LB_LK(1), FUTEX, 1502, 0),
	LB_BEGIN(0, LB_LK(1), FUTEX, 1503, 0),
	LB_RELEASE(100, LB_LK(1), FUTEX, 1500, 0, 500, 2),
	LB_END(100, LB_LK(1), FUTEX, 1501, 0, WOKEN, 1000),
	LB_END(100, LB_LK(1), FUTEX, 1503, 0, WOKEN, 1000),
	LB_RELEASE(300, LB_LK(1), FUTEX, 1501, 0, 1150, 1),
	LB_END(300, LB_LK(1), FUTEX, 1502, 0, WOKEN, 1000),
	LB_BEGIN(400, LB_LK(2), MUTEX, 1504, 0),
	LB_BEGIN(500, LB_LK(3), MUTEX, 1505, 0),
	LB_END(600, LB_LK(2), MUTEX, 1504, 0, LB_WAIT_TIMEOUT, 0),
	LB_BEGIN(700, LB_LK(4), MUTEX, 1506, 0),
	LB_ADVANCE(1000),
	LB_X_TOTALS(.wait = 1400, .blame = 400, .pending = 800, .unattributed = 200),
	LB_X_COUNTERS(.late = 0, .unmatched = 1, .dropped_waiters = 1, .dropped_pairs = 1,
		      .evicted_locks = 1, .evicted_tasks = 1),
	LB_X_FOLDED(.locks = 1, .wait = 400, .blame = 400, .chains = 0),
	LB_X_NO_TASK(1503),
	LB_X_TASK(1501, .wait = 100, .blame = 200, .root_blame = 200, .hold = 200,
		  .hold_on_cpu = 150, .verdict = CAUSE),
	LB_X_TASK(1500, .wait = 0, .blame = 200, .root_blame = 200, .hold = 100, .hold_on_cpu = 0,
		  .verdict = CAUSE),
	LB_X_TASK_COUNTS(1504, .waits = 1, .holds = 0, .holds_lower_bound = 0, .errors = 1,
			 .kthread = 0, .tgid = 1504),
	LB_X_PAIR(1500, 1501, .blame = 0),
	LB_X_PAIR(1500, 1502, .blame = 100),
	LB_X_PAIR(1501, 1502, .blame = 200),
	LB_X_LOCK(LB_LK(3), .acquisitions = 0, .wait = 500, .hold = 0, .blame = 0, .holder = 0,
		  .waiters = 1),
	LB_X_LOCK_MORE(LB_LK(3), .pending = 500, .unattributed = 0, .holds = 0,
		       .holds_lower_bound = 0, .holds_at_release = 0, .holders = 0),
	LB_SCN_END
};

/*
 * Late and unmatched events: two events arrive behind the ledger clock and
 * are applied at the clock (counted); an acquire whose wait began before
 * tracing still names the holder, with an exact start: of its 3300 ns hold,
 * the 300 with a waiter count, and 300 * 300 / 3300 of them on CPU.
 */
static const struct lb_scn_task lb_scn_tasks_late[] = {
	{ 1601, 1600, "a", false, NULL },
	{ 1602, 1600, "b", false, NULL },
	{ 1603, 1600, "c", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_late[] = {
	LB_END(0, LB_LK(2), MUTEX, 1603, 0, ACQ, 100),
	LB_X_LOCK(LB_LK(2), .acquisitions = 0, .wait = 0, .hold = 0, .blame = 0, .holder = 1603,
		  .waiters = 0),
	LB_BEGIN_OWNED(1000, LB_LK(1), MUTEX, 1602, 0, FIELD, 1601, 0),
	LB_BEGIN_OWNED(900, LB_LK(1), MUTEX, 1603, 0, FIELD, 1601, 0),
	LB_RELEASE(2000, LB_LK(1), MUTEX, 1601, 0, 0, 0),
	LB_END(1990, LB_LK(1), MUTEX, 1602, 0, ACQ, 0),
	LB_RELEASE(2500, LB_LK(1), MUTEX, 1602, 0, 0, 0),
	LB_END(2500, LB_LK(1), MUTEX, 1603, 0, ACQ, 0),
	LB_BEGIN_OWNED(3000, LB_LK(2), MUTEX, 1602, 0, FIELD, 1603, 0),
	LB_RELEASE(3300, LB_LK(2), MUTEX, 1603, 0, 400, 0),
	LB_END(3300, LB_LK(2), MUTEX, 1602, 0, ACQ, 0),
	/* Malformed: no task; an unknown type. Counted, otherwise ignored. */
	LB_BEGIN(9000, LB_LK(2), MUTEX, 0, 0),
	{ LB_EV(9, 9000, LB_LK(2), MUTEX, 1602) },
	LB_X_COUNTERS(.late = 2, .unmatched = 1, .dropped_waiters = 0, .dropped_pairs = 0,
		      .evicted_locks = 0, .evicted_tasks = 0),
	LB_X_COUNTERS2(.invalid = 2, .dropped_holders = 0, .dropped_chains = 0, .window = 3300),
	LB_X_TASK(1601, .wait = 0, .blame = 2000, .root_blame = 2000, .hold = 1000,
		  .hold_on_cpu = 0, .verdict = CAUSE),
	LB_X_TASK(1602, .wait = 1300, .blame = 500, .root_blame = 500, .hold = 500,
		  .hold_on_cpu = 0, .verdict = VICTIM),
	LB_X_TASK(1603, .wait = 1500, .blame = 300, .root_blame = 300, .hold = 300,
		  .hold_on_cpu = 27, .verdict = VICTIM),
	LB_X_TASK_COUNTS(1603, .waits = 1, .holds = 1, .holds_lower_bound = 0, .errors = 0,
			 .kthread = 0, .tgid = 1600),
	LB_X_TOTALS(.wait = 2800, .blame = 2800, .pending = 0, .unattributed = 0),
	LB_SCN_END
};

/*
 * Errors and guesses: a heuristic owner (glibc __owner) is shown as the
 * probable holder but never blamed before its release names it. A timed-out
 * waiter's pending share still reaches the holder at release; an EAGAIN
 * wait (never slept) counts as an error but not in the wait percentiles.
 */
static const struct lb_scn_task lb_scn_tasks_errors[] = {
	{ 1701, 1700, "owner", false, NULL },
	{ 1702, 1700, "impatient", false, NULL },
	{ 1703, 1700, "patient", false, NULL },
	{ 1704, 1700, "raced", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_errors[] = {
	LB_BEGIN_OWNED(0, LB_LK(4), FUTEX, 1702, 0, LB_OWNER_HEURISTIC, 1701, 100),
	LB_ADVANCE(50),
	LB_X_LOCK(LB_LK(4), .acquisitions = 0, .wait = 50, .hold = 0, .blame = 0, .holder = 0,
		  .waiters = 1),
	LB_X_LOCK_USE(LB_LK(4), .errors = 0, .util_ppm = 1000000, .sat_milli = 1000,
		      .probable = 1701),
	LB_BEGIN(100, LB_LK(4), FUTEX, 1703, 0),
	LB_BEGIN(100, LB_LK(4), FUTEX, 1704, LB_EF_NOSLEEP),
	LB_END(100, LB_LK(4), FUTEX, 1704, LB_EF_NOSLEEP, LB_WAIT_AGAIN, 0),
	LB_END(400, LB_LK(4), FUTEX, 1702, 0, LB_WAIT_TIMEOUT, 0),
	LB_X_TOTALS(.wait = 700, .blame = 0, .pending = 700, .unattributed = 0),
	LB_RELEASE(600, LB_LK(4), FUTEX, 1701, 0, 700, 1),
	LB_END(600, LB_LK(4), FUTEX, 1703, 0, WOKEN, 0),
	LB_X_TOTALS(.wait = 900, .blame = 900, .pending = 0, .unattributed = 0),
	LB_X_PAIR(1701, 1702, .blame = 400),
	LB_X_PAIR(1701, 1703, .blame = 500),
	LB_X_TASK(1701, .wait = 0, .blame = 900, .root_blame = 900, .hold = 600, .hold_on_cpu = 0,
		  .verdict = CAUSE),
	LB_X_TASK_COUNTS(1702, .waits = 1, .holds = 0, .holds_lower_bound = 0, .errors = 1,
			 .kthread = 0, .tgid = 1700),
	LB_X_TASK_COUNTS(1704, .waits = 1, .holds = 0, .holds_lower_bound = 0, .errors = 1,
			 .kthread = 0, .tgid = 1700),
	LB_X_TASK(1704, .wait = 0, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = NONE),
	LB_X_LOCK(LB_LK(4), .acquisitions = 1, .wait = 900, .hold = 600, .blame = 900,
		  .holder = 1703, .waiters = 0),
	LB_X_LOCK_USE(LB_LK(4), .errors = 2, .util_ppm = 1000000, .sat_milli = 1500, .probable = 0),
	LB_X_LOCK_PCT(LB_LK(4), .wait_p50 = 500, .wait_p99 = 500, .wait_max = 500, .hold_p50 = 600,
		      .hold_p99 = 600, .hold_max = 600),
	LB_SCN_END
};

/*
 * futex_wake reports when it returns, so the task it woke may be seen first.
 * B's wake (700) comes before A's release (710): the waiting until then is
 * still A's, named by the release; B holds from its wake, and A's release
 * does not take that away. B's own release (900) is seen before C wakes
 * (905): those 5 ns of C's waiting are the handoff, nobody's hold.
 *   [100,700) pending, then A's: 1000   [700,900) C waits, B holds: B 200
 * A's hold under contention is the pending time, from B's arrival (100) to
 * B's wake (700): from there on the waiting is B's, and so is that hold.
 */
static const struct lb_scn_task lb_scn_tasks_wake_first[] = {
	{ 1801, 1800, "holder", false, NULL },
	{ 1802, 1800, "next", false, NULL },
	{ 1803, 1800, "last", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_wake_first[] = {
	LB_BEGIN(100, LB_LK(6), FUTEX, 1802, 0),
	LB_BEGIN(300, LB_LK(6), FUTEX, 1803, 0),
	LB_END(700, LB_LK(6), FUTEX, 1802, 0, WOKEN, 2000),
	LB_X_TOTALS(.wait = 1000, .blame = 0, .pending = 1000, .unattributed = 0),
	LB_X_LOCK(LB_LK(6), .acquisitions = 1, .wait = 1000, .hold = 0, .blame = 0, .holder = 1802,
		  .waiters = 1),
	LB_RELEASE(710, LB_LK(6), FUTEX, 1801, 0, 0, 1),
	LB_X_TOTALS(.wait = 1010, .blame = 1010, .pending = 0, .unattributed = 0),
	LB_X_LOCK(LB_LK(6), .acquisitions = 1, .wait = 1010, .hold = 600, .blame = 1010,
		  .holder = 1802, .waiters = 1),
	LB_RELEASE(900, LB_LK(6), FUTEX, 1802, 0, 2150, 1),
	LB_END(905, LB_LK(6), FUTEX, 1803, 0, WOKEN, 3000),
	LB_X_TASK(1801, .wait = 0, .blame = 1000, .root_blame = 1000, .hold = 600, .hold_on_cpu = 0,
		  .verdict = CAUSE),
	LB_X_TASK(1802, .wait = 600, .blame = 200, .root_blame = 200, .hold = 200,
		  .hold_on_cpu = 150, .verdict = VICTIM),
	LB_X_TASK(1803, .wait = 605, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_PAIR(1801, 1802, .blame = 600),
	LB_X_PAIR(1801, 1803, .blame = 400),
	LB_X_PAIR(1802, 1803, .blame = 200),
	LB_X_TOTALS(.wait = 1205, .blame = 1200, .pending = 0, .unattributed = 5),
	LB_X_LOCK(LB_LK(6), .acquisitions = 2, .wait = 1205, .hold = 800, .blame = 1200,
		  .holder = 1803, .waiters = 0),
	LB_X_LOCK_MORE(LB_LK(6), .pending = 0, .unattributed = 5, .holds = 2,
		       .holds_lower_bound = 1, .holds_at_release = 1, .holders = 1),
	LB_SCN_END
};

/*
 * The same contention, with A's release committed later still: futex_wake
 * stamps when it began (710) but commits when it returns, and A was
 * preempted at the wakeup by B, which ran on, took the lock and released it
 * on A's CPU (900) before A's event was written. B's release cannot be the
 * one that woke B: it ends B's hold only, and the pending waiting stays A's
 * until A's release comes, late (clamped to 900). Its wake for C is credit
 * beside the debt, so C's wake (905) still ends a handoff.
 * Accounts as in wake_first, but for the late event.
 */
static const struct lb_scn_task lb_scn_tasks_release_behind[] = {
	{ 1811, 1810, "holder", false, NULL },
	{ 1812, 1810, "next", false, NULL },
	{ 1813, 1810, "last", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_release_behind[] = {
	LB_BEGIN(100, LB_LK(7), FUTEX, 1812, 0),
	LB_BEGIN(300, LB_LK(7), FUTEX, 1813, 0),
	LB_END(700, LB_LK(7), FUTEX, 1812, 0, WOKEN, 2000),
	LB_RELEASE(900, LB_LK(7), FUTEX, 1812, 0, 2150, 1),
	LB_X_TOTALS(.wait = 1200, .blame = 200, .pending = 1000, .unattributed = 0),
	LB_X_TASK(1812, .wait = 600, .blame = 200, .root_blame = 200, .hold = 200,
		  .hold_on_cpu = 150, .verdict = VICTIM),
	LB_RELEASE(710, LB_LK(7), FUTEX, 1811, 0, 0, 1),
	LB_X_TOTALS(.wait = 1200, .blame = 1200, .pending = 0, .unattributed = 0),
	LB_END(905, LB_LK(7), FUTEX, 1813, 0, WOKEN, 3000),
	LB_X_TASK(1811, .wait = 0, .blame = 1000, .root_blame = 1000, .hold = 600, .hold_on_cpu = 0,
		  .verdict = CAUSE),
	LB_X_TASK(1812, .wait = 600, .blame = 200, .root_blame = 200, .hold = 200,
		  .hold_on_cpu = 150, .verdict = VICTIM),
	LB_X_TASK(1813, .wait = 605, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_PAIR(1811, 1812, .blame = 600),
	LB_X_PAIR(1811, 1813, .blame = 400),
	LB_X_PAIR(1812, 1813, .blame = 200),
	LB_X_TOTALS(.wait = 1205, .blame = 1200, .pending = 0, .unattributed = 5),
	LB_X_COUNTERS(.late = 1, .unmatched = 0, .dropped_waiters = 0, .dropped_pairs = 0,
		      .evicted_locks = 0, .evicted_tasks = 0),
	LB_X_LOCK(LB_LK(7), .acquisitions = 2, .wait = 1205, .hold = 800, .blame = 1200,
		  .holder = 1813, .waiters = 0),
	LB_X_LOCK_MORE(LB_LK(7), .pending = 0, .unattributed = 5, .holds = 2,
		       .holds_lower_bound = 1, .holds_at_release = 1, .holders = 1),
	LB_SCN_END
};

/*
 * Two releases, each waking a task, before either woken task runs: the lock
 * was taken between them (2006 took it on its fast path and let it go).
 * 2002, 2003 and 2004 wait from 1000 with no holder known; 2001's release
 * (2000) and 2006's (2100) each wake one. 2002 runs first (2200) and takes
 * the lock; 2003 (2250) finds it taken and waits again (2260). Both wakes
 * came from seen releases: neither is owed a release. 2002's release (2400)
 * wakes 2004, which is not scheduled until 100000: the lock is free all
 * that time, nobody's blame (a handoff, unattributed), and 2004's own hold
 * (100 ns) is all 2003 waits on it. Seen in the herd of 62-herd.sh: a woken
 * victim runnable 3.4 s behind 5,000 workers was blamed as holder for the
 * other victims' waiting, because the second release's wake was lost.
 */
static const struct lb_scn_task lb_scn_tasks_wakes_stolen[] = {
	{ 2001, 2000, "culprit", false, NULL },
	{ 2002, 2000, "v1", false, NULL },
	{ 2003, 2000, "v2", false, NULL },
	{ 2004, 2000, "v3", false, NULL },
	{ 2006, 2000, "thief", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_wakes_stolen[] = {
	LB_BEGIN(1000, LB_LK(0x20), FUTEX, 2002, 0),
	LB_BEGIN(1000, LB_LK(0x20), FUTEX, 2003, 0),
	LB_BEGIN(1000, LB_LK(0x20), FUTEX, 2004, 0),
	LB_RELEASE(2000, LB_LK(0x20), FUTEX, 2001, 0, 0, 1),
	LB_RELEASE(2100, LB_LK(0x20), FUTEX, 2006, 0, 0, 1),
	LB_END(2200, LB_LK(0x20), FUTEX, 2002, 0, WOKEN, 0),
	LB_END(2250, LB_LK(0x20), FUTEX, 2003, 0, WOKEN, 0),
	LB_BEGIN(2260, LB_LK(0x20), FUTEX, 2003, 0),
	LB_RELEASE(2400, LB_LK(0x20), FUTEX, 2002, 0, 0, 1),
	LB_END(100000, LB_LK(0x20), FUTEX, 2004, 0, WOKEN, 0),
	LB_RELEASE(100100, LB_LK(0x20), FUTEX, 2004, 0, 0, 1),
	LB_X_TASK(2004, .wait = 99000, .blame = 100, .root_blame = 100, .hold = 100,
		  .hold_on_cpu = 0, .verdict = VICTIM),
	LB_X_PAIR(2004, 2003, .blame = 100),
	LB_X_PAIR(2002, 2003, .blame = 190),
	LB_X_PAIR(2006, 2003, .blame = 100),
	LB_X_TOTALS(.wait = 199290, .blame = 3790, .pending = 0, .unattributed = 195500),
	LB_X_PAIR(2001, 2003, .blame = 1000),
	LB_SCN_END
};

/*
 * The culprit's release committed behind the three tasks its wake let run
 * in turn, as 46-outliers saw on 7.2 (855 us late): 2102, 2103 and 2104
 * wait from 1000 with no holder known. 2103 is woken at 2000 before any
 * release is seen (a debt), holds to 2100 and wakes 2102 (2200), which
 * holds to 2300 and wakes 2104 (2400); then 2101's release comes, stamped
 * 1990. 2102's hold began after the owed release, so its release is not
 * it: its hold is its own 100 ns, and the pending waiting (1000 to 2000,
 * and the gaps between the victims' holds) stays the coming releaser's,
 * 2101's, as a debtor's release leaves it.
 */
static const struct lb_scn_task lb_scn_tasks_release_late_two[] = {
	{ 2101, 2100, "culprit", false, NULL },
	{ 2102, 2100, "v1", false, NULL },
	{ 2103, 2100, "v2", false, NULL },
	{ 2104, 2100, "v3", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_release_late_two[] = {
	LB_BEGIN(1000, LB_LK(0x21), FUTEX, 2102, 0),
	LB_BEGIN(1000, LB_LK(0x21), FUTEX, 2103, 0),
	LB_BEGIN(1000, LB_LK(0x21), FUTEX, 2104, 0),
	LB_END(2000, LB_LK(0x21), FUTEX, 2103, 0, WOKEN, 0),
	LB_RELEASE(2100, LB_LK(0x21), FUTEX, 2103, 0, 0, 1),
	LB_END(2200, LB_LK(0x21), FUTEX, 2102, 0, WOKEN, 0),
	LB_RELEASE(2300, LB_LK(0x21), FUTEX, 2102, 0, 0, 1),
	LB_END(2400, LB_LK(0x21), FUTEX, 2104, 0, WOKEN, 0),
	LB_RELEASE(1990, LB_LK(0x21), FUTEX, 2101, 0, 0, 1),
	LB_X_TASK(2101, .wait = 0, .blame = 3300, .root_blame = 3300, .hold = 1200,
		  .hold_on_cpu = 0, .verdict = CAUSE),
	LB_X_TASK(2102, .wait = 1200, .blame = 100, .root_blame = 100, .hold = 100,
		  .hold_on_cpu = 0, .verdict = VICTIM),
	LB_X_TASK(2103, .wait = 1000, .blame = 200, .root_blame = 200, .hold = 100,
		  .hold_on_cpu = 0, .verdict = VICTIM),
	LB_X_PAIR(2101, 2104, .blame = 1200),
	LB_X_PAIR(2102, 2104, .blame = 100),
	LB_X_TOTALS(.wait = 3600, .blame = 3600, .pending = 0, .unattributed = 0),
	LB_SCN_END
};

/*
 * pthread_join() is not a lock: 1901 and 1903 each wait on a worker's
 * clear_child_tid futex, and the exiting worker's wake says so (THREAD_EXIT).
 * That waiting is taken back, whichever of the wake and the release is seen
 * first; the "locks" are forgotten. Real contention on a mutex meanwhile
 * (1905 holds, 1906 waits 500 ns) is untouched.
 */
static const struct lb_scn_task lb_scn_tasks_thread_exit[] = {
	{ 1901, 1900, "main", false, NULL },
	{ 1902, 1900, "worker", false, NULL },
	{ 1903, 1900, "main2", false, NULL },
	{ 1904, 1900, "worker2", false, NULL },
	{ 1905, 1900, "owner", false, NULL },
	{ 1906, 1900, "waiter", false, NULL },
	{ 0 }
};

#define TX LB_EF_THREAD_EXIT
static const struct lb_scn_step lb_scn_steps_thread_exit[] = {
	LB_BEGIN(0, LB_LK(0x10), FUTEX, 1901, 0),
	LB_BEGIN(0, LB_LK(0x11), FUTEX, 1903, 0),
	LB_BEGIN_OWNED(100, LB_LK(0x12), MUTEX, 1906, 0, FIELD, 1905, 0),
	LB_ADVANCE(3000),
	LB_X_TOTALS(.wait = 8900, .blame = 2900, .pending = 6000, .unattributed = 0),
	LB_RELEASE(5000, LB_LK(0x10), FUTEX, 1902, TX, 0, 1),
	LB_END(5010, LB_LK(0x10), FUTEX, 1901, 0, WOKEN, 0),
	LB_END(6000, LB_LK(0x11), FUTEX, 1903, 0, WOKEN, 0),
	LB_RELEASE(6005, LB_LK(0x11), FUTEX, 1904, TX, 0, 1),
	LB_RELEASE(7000, LB_LK(0x12), MUTEX, 1905, 0, 0, 0),
	LB_END(7000, LB_LK(0x12), MUTEX, 1906, 0, ACQ, 0),
	LB_X_NO_LOCK(LB_LK(0x10)),
	LB_X_NO_LOCK(LB_LK(0x11)),
	LB_X_TASK(1901, .wait = 0, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = NONE),
	LB_X_TASK_COUNTS(1901, .waits = 0, .holds = 0, .holds_lower_bound = 0, .errors = 0,
			 .kthread = 0, .tgid = 1900),
	LB_X_TASK(1903, .wait = 0, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = NONE),
	LB_X_TASK_COUNTS(1903, .waits = 0, .holds = 0, .holds_lower_bound = 0, .errors = 0,
			 .kthread = 0, .tgid = 1900),
	LB_X_NO_TASK(1902),
	LB_X_TASK(1905, .wait = 0, .blame = 6900, .root_blame = 6900, .hold = 6900,
		  .hold_on_cpu = 0, .verdict = CAUSE),
	LB_X_TOTALS(.wait = 6900, .blame = 6900, .pending = 0, .unattributed = 0),
	LB_X_COUNTERS(.late = 0, .unmatched = 0, .dropped_waiters = 0, .dropped_pairs = 0,
		      .evicted_locks = 0, .evicted_tasks = 0),
	LB_X_PROC(1900, .wait = 6900, .blame = 6900, .root_blame = 6900, .hold = 6900,
		  .verdict = SHARED),
	/* 1901's wait, open at the exit, goes on as a join (an event wait). */
	LB_X_EVENT_TASK(1901, .wait = 5010, .waits = 1, .signaller = 1902),
	LB_X_EVENT_TOTALS(.wait = 5010, .waits = 1, .errors = 0, .dropped = 0, .asleep = 0,
			  .futex_lock_waits = 2),
	LB_SCN_END
};

#undef TX

/*
 * A task renamed after its first wait: a pool's new worker (clone gave it
 * its creator's name, "lb-pool") waits [100,300) for a kernel lock its
 * creator holds, before it names itself "lb-idle"; then it sleeps on a
 * condvar's counter (an event wait). The event wait files nothing under the
 * task but carries its name, and the latest name wins, as a lock wait's
 * would. A task not tracked (2202) is not made tracked by an event wait.
 */
static const struct lb_scn_task lb_scn_tasks_renamed[] = {
	{ 2200, 2200, "lb-pool", false, NULL },
	{ 2201, 2200, "lb-pool", false, NULL },
	{ 2202, 2200, "lb-pool", false, NULL },
	{ 0 }
};

#define LB_FBEGIN_AS(_t, _lk, _pid, _w, _comm) \
	{ LB_EV(LB_EV_WAIT_BEGIN, _t, _lk, LB_LOCK_FUTEX, _pid), .flags = LB_EF_WORD, \
	  .word = (_w), .comm = (_comm) }
static const struct lb_scn_step lb_scn_steps_renamed[] = {
	LB_BEGIN_OWNED(100, LB_LK(0x90), MUTEX, 2201, 0, FIELD, 2200, 0),
	LB_RELEASE(300, LB_LK(0x90), MUTEX, 2200, 0, 0, 0),
	LB_END(300, LB_LK(0x90), MUTEX, 2201, 0, ACQ, 0),
	LB_X_TASK_COMM(2201, "lb-pool"),
	LB_FBEGIN_AS(400, LB_LK(0x91), 2201, 0, "lb-idle"),
	LB_FBEGIN_AS(450, LB_LK(0x91), 2202, 0, "lb-idle"),
	LB_X_TASK_COMM(2201, "lb-idle"),
	LB_X_TASK(2201, .wait = 200, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_TASK_COUNTS(2201, .waits = 1, .holds = 0, .holds_lower_bound = 0, .errors = 0,
			 .kthread = 0, .tgid = 2200),
	LB_X_NO_TASK(2202),
	LB_X_TASK_COMM(2200, "lb-pool"),
	LB_X_PROC_COMM(2200, "lb-pool"),
	LB_X_TOTALS(.wait = 200, .blame = 200, .pending = 0, .unattributed = 0),
	LB_SCN_END
};

#undef LB_FBEGIN_AS

/*
 * A woken waiter that never took the lock (a herd's handoff): C releases L
 * at 1000 and wakes V1, but V1 is not run for a while; C takes L again on
 * the fast path and its unlock later wakes nobody (the word says no waiter).
 * V1 runs at 5010, finds L taken and waits again, with no release of its
 * own in between: it never held L.
 *   [0,1000) pending, named C at its release: C 1000 + 900
 *   [1000,1010) handing over: 20 unattributed
 *   [1010,5010) V1 likely holds: 4000 of V2's waiting, taken back when V1
 *     waits again: pending again (V1 keeps no blame, no hold)
 *   [5010,6000) V1, V2 wait: 1980 more pending; C's release names it all:
 *     C 1900 + 5980 = 7880, its holds 1000 + 4990
 *   [6000,6010) handing over: 20; [6010,6500) V2 holds: V2 490;
 *   [6500,6510) handing over: 10
 * Without the take-back, V1 had 4000 of blame for a lock it never had.
 */
static const struct lb_scn_task lb_scn_tasks_stolen[] = {
	{ 2301, 2300, "culprit", false, NULL },
	{ 2302, 2300, "victim", false, NULL },
	{ 2303, 2300, "victim", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_stolen[] = {
	LB_BEGIN(0, LB_LK(0xa0), FUTEX, 2302, 0),
	LB_BEGIN(100, LB_LK(0xa0), FUTEX, 2303, 0),
	LB_RELEASE(1000, LB_LK(0xa0), FUTEX, 2301, 0, 0, 1),
	LB_END(1010, LB_LK(0xa0), FUTEX, 2302, 0, WOKEN, 0),
	LB_X_TOTALS(.wait = 1920, .blame = 1900, .pending = 0, .unattributed = 20),
	LB_BEGIN(5010, LB_LK(0xa0), FUTEX, 2302, 0),
	LB_X_TOTALS(.wait = 5920, .blame = 1900, .pending = 4000, .unattributed = 20),
	LB_X_TASK(2302, .wait = 1010, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_PAIR(2302, 2303, .blame = 0),
	LB_RELEASE(6000, LB_LK(0xa0), FUTEX, 2301, 0, 0, 1),
	LB_END(6010, LB_LK(0xa0), FUTEX, 2303, 0, WOKEN, 0),
	LB_RELEASE(6500, LB_LK(0xa0), FUTEX, 2303, 0, 0, 1),
	LB_END(6510, LB_LK(0xa0), FUTEX, 2302, 0, WOKEN, 0),
	LB_X_TASK(2301, .wait = 0, .blame = 7880, .root_blame = 7880, .hold = 5990,
		  .hold_on_cpu = 0, .verdict = CAUSE),
	LB_X_TASK(2302, .wait = 2510, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_TASK(2303, .wait = 5910, .blame = 490, .root_blame = 490, .hold = 490,
		  .hold_on_cpu = 0, .verdict = VICTIM),
	LB_X_PAIR(2301, 2302, .blame = 1990),
	LB_X_PAIR(2301, 2303, .blame = 5890),
	LB_X_PAIR(2303, 2302, .blame = 490),
	LB_X_PAIR(2302, 2303, .blame = 0),
	LB_X_TOTALS(.wait = 8420, .blame = 8370, .pending = 0, .unattributed = 50),
	LB_SCN_END
};

/*
 * Pairs read while their waits go on: a waiter keeps its charges while its
 * holder stays the same (lb_blame_pair_defer), and a reader must see them
 * all the same. A kernel mutex held by H (2401) from before 1000:
 *   [1000,2500) V1 (2402) waits on H; [1200,2500) V2 (2403) waits on H
 *   read at 2000: H-V1 1000, H-V2 800, both waits live
 *   2500: H hands over to V1; [2500,3500) V2 waits on V1
 *   read at 3000: H-V1 1500, H-V2 1300 (ended stretches), V1-V2 500 (live)
 *   3500: V1 hands over to V2: V1-V2 1000
 */
static const struct lb_scn_task lb_scn_tasks_pairs_live[] = {
	{ 2401, 2400, "holder", false, NULL },
	{ 2402, 2400, "victim", false, NULL },
	{ 2403, 2400, "victim", false, NULL },
	{ 0 }
};

#define LIVE_LK		LB_LK(0xb0)

static const struct lb_scn_step lb_scn_steps_pairs_live[] = {
	LB_BEGIN_OWNED(1000, LIVE_LK, MUTEX, 2402, 0, FIELD, 2401, 0),
	LB_BEGIN_OWNED(1200, LIVE_LK, MUTEX, 2403, 0, FIELD, 2401, 0),
	LB_ADVANCE(2000),
	LB_X_PAIR(2401, 2402, .blame = 1000),
	LB_X_PAIR(2401, 2403, .blame = 800),
	LB_RELEASE(2500, LIVE_LK, MUTEX, 2401, 0, 0, 0),
	LB_END(2500, LIVE_LK, MUTEX, 2402, 0, ACQ, 0),
	LB_ADVANCE(3000),
	LB_X_PAIR(2401, 2402, .blame = 1500),
	LB_X_PAIR(2401, 2403, .blame = 1300),
	LB_X_PAIR(2402, 2403, .blame = 500),
	LB_RELEASE(3500, LIVE_LK, MUTEX, 2402, 0, 0, 0),
	LB_END(3500, LIVE_LK, MUTEX, 2403, 0, ACQ, 0),
	LB_RELEASE(3600, LIVE_LK, MUTEX, 2403, 0, 0, 0),
	LB_X_PAIR(2401, 2403, .blame = 1300),
	LB_X_PAIR(2402, 2403, .blame = 1000),
	LB_X_TOTALS(.wait = 3800, .blame = 3800, .pending = 0, .unattributed = 0),
	LB_SCN_END
};

/*
 * A futex wait is a lock wait only when its releaser agrees (issue 26): a
 * counter that passes through 2 or 3 looks like a contended lock to its
 * waiters, but its release advances the word past what they expected.
 *   L80, a notify counter: 2002 and 2003 wait expecting 2 (lock-shaped);
 *     2001's release at 1000 reads 3: a counter. Their 1000 + 900 ns of
 *     pending waiting is taken back, the waits go on as event waits from
 *     their starts, and the key is remembered: 2002's later wait on it,
 *     expecting 2 again, is an event wait at once.
 *   L81, a barrier of 3 woken at 6: 2002's wait [5000,5400) ended before
 *     2001's release was seen (stamped 5390, clamped to 5400): its pending
 *     400 ns becomes an ended event wait signalled by 2001.
 *   L82, a mutex: 2004's releases read 0, 2 and 1 (free, taken again
 *     contended, taken again): a lock each time; 2003 waits [10000,10500)
 *     and [11000,11400), pending until each release: 900 ns of blame for
 *     2004. Each wake hands the lock to 2003 until it next waits, and the
 *     third release (word 1) ends nothing: nobody waits.
 * futex_counters counts L80 and L81.
 */
static const struct lb_scn_task lb_scn_tasks_futex_counter[] = {
	{ 2001, 2000, "notifier", false, NULL },
	{ 2002, 2000, "waiter", false, NULL },
	{ 2003, 2000, "waiter2", false, NULL },
	{ 2004, 2000, "owner", false, NULL },
	{ 0 }
};

#define LB_FRELEASE_W(_t, _lk, _pid, _woken, _w) \
	{ LB_EV(LB_EV_RELEASE, _t, _lk, LB_LOCK_FUTEX, _pid), .flags = LB_EF_WORD, \
	  .count = (_woken), .word = (_w) }
static const struct lb_scn_step lb_scn_steps_futex_counter[] = {
	LB_FBEGIN(0, LB_LK(0x80), 2002, 2),
	LB_FBEGIN(100, LB_LK(0x80), 2003, 2),
	LB_X_TOTALS(.wait = 100, .blame = 0, .pending = 100, .unattributed = 0),
	LB_FRELEASE_W(1000, LB_LK(0x80), 2001, 1, 3),
	LB_X_NO_LOCK(LB_LK(0x80)),
	LB_X_TOTALS(.wait = 0, .blame = 0, .pending = 0, .unattributed = 0),
	LB_FEND0(1010, 2002, WOKEN, 0),
	LB_FRELEASE_W(1900, LB_LK(0x80), 2001, 1, 4),
	LB_FEND0(2000, 2003, WOKEN, 0),
	LB_X_EVENT_TASK(2002, .wait = 1010, .waits = 1, .signaller = 2001),
	LB_X_EVENT_TASK(2003, .wait = 1900, .waits = 1, .signaller = 2001),
	LB_FBEGIN(3000, LB_LK(0x80), 2002, 2),
	LB_X_NO_LOCK(LB_LK(0x80)),
	LB_FRELEASE_W(3500, LB_LK(0x80), 2001, 1, 3),
	LB_FEND0(3500, 2002, WOKEN, 0),
	LB_X_EVENT_TASK(2002, .wait = 1510, .waits = 2, .signaller = 2001),
	LB_FBEGIN(5000, LB_LK(0x81), 2002, 3),
	LB_FEND0(5400, 2002, WOKEN, 0),
	LB_X_TOTALS(.wait = 400, .blame = 0, .pending = 400, .unattributed = 0),
	LB_FRELEASE_W(5390, LB_LK(0x81), 2001, 1, 6),
	LB_X_NO_LOCK(LB_LK(0x81)),
	LB_X_TOTALS(.wait = 0, .blame = 0, .pending = 0, .unattributed = 0),
	LB_X_EVENT_TASK(2002, .wait = 1910, .waits = 3, .signaller = 2001),
	LB_X_NO_TASK(2001),
	LB_X_TASK(2002, .wait = 0, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = NONE),
	LB_FBEGIN(10000, LB_LK(0x82), 2003, 2),
	LB_FRELEASE_W(10500, LB_LK(0x82), 2004, 1, 0),
	LB_FEND0(10500, 2003, WOKEN, 0),
	LB_FBEGIN(11000, LB_LK(0x82), 2003, 2),
	LB_FRELEASE_W(11400, LB_LK(0x82), 2004, 1, 2),
	LB_FEND0(11400, 2003, WOKEN, 0),
	LB_FRELEASE_W(11500, LB_LK(0x82), 2004, 0, 1),
	LB_X_TASK(2004, .wait = 0, .blame = 900, .root_blame = 900, .hold = 900, .hold_on_cpu = 0,
		  .verdict = CAUSE),
	LB_X_TASK(2003, .wait = 900, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_TOTALS(.wait = 900, .blame = 900, .pending = 0, .unattributed = 0),
	LB_X_EVENT_TOTALS(.wait = 3810, .waits = 4, .errors = 0, .dropped = 0, .asleep = 0,
			  .futex_lock_waits = 5, .futex_counters = 2),
	LB_SCN_END
};

/*
 * Two counters whose keys hash to one slot of the counters' table
 * (LB_LK(0x3c7) and LB_LK(0x3e9): slot 41 of 64). Each is shown a counter
 * by a release that advanced its word (3 for a waiter of 2); then C1's
 * next wait, expecting 2 again, is an event wait at once. With one slot
 * per hash, C2 took C1's and C1's wait was a lock wait again.
 */
static const struct lb_scn_task lb_scn_tasks_counters_collide[] = {
	{ 2101, 2100, "notifier", false, NULL },
	{ 2102, 2100, "waiter", false, NULL },
	{ 2103, 2100, "waiter2", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_counters_collide[] = {
	LB_FBEGIN(0, LB_LK(0x3c7), 2102, 2),
	LB_FRELEASE_W(1000, LB_LK(0x3c7), 2101, 1, 3),
	LB_FEND0(1010, 2102, WOKEN, 0),
	LB_FBEGIN(2000, LB_LK(0x3e9), 2103, 2),
	LB_FRELEASE_W(3000, LB_LK(0x3e9), 2101, 1, 3),
	LB_FEND0(3010, 2103, WOKEN, 0),
	LB_FBEGIN(4000, LB_LK(0x3c7), 2102, 2),
	LB_X_NO_LOCK(LB_LK(0x3c7)),
	LB_X_TOTALS(.wait = 0, .blame = 0, .pending = 0, .unattributed = 0),
	LB_FRELEASE_W(4500, LB_LK(0x3c7), 2101, 1, 4),
	LB_FEND0(4500, 2102, WOKEN, 0),
	LB_X_EVENT_TASK(2102, .wait = 1510, .waits = 2, .signaller = 2101),
	LB_SCN_END
};

/*
 * Two semaphores whose keys hash to one slot of the wakes' table
 * (LB_LK(0xc1) and LB_LK(0x1aa): one slot of 256). 2202 sleeps on S1,
 * 2203 on S2; 2201 posts S1 at 1000 and 2204 posts S2 at 1001, before
 * either sleeper is seen running again. Each sleep's signaller is its own
 * poster. With one slot per hash, S2's wake took S1's, and 2202's
 * signaller was not known.
 */
static const struct lb_scn_task lb_scn_tasks_wakes_collide[] = {
	{ 2201, 2200, "poster1", false, NULL },
	{ 2202, 2200, "sleeper1", false, NULL },
	{ 2203, 2200, "sleeper2", false, NULL },
	{ 2204, 2200, "poster2", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_wakes_collide[] = {
	LB_FBEGIN(0, LB_LK(0xc1), 2202, 0),
	LB_FBEGIN(10, LB_LK(0x1aa), 2203, 0),
	LB_FRELEASE_W(1000, LB_LK(0xc1), 2201, 1, 1),
	LB_FRELEASE_W(1001, LB_LK(0x1aa), 2204, 1, 1),
	LB_FEND0(1010, 2202, WOKEN, 0),
	LB_FEND0(1020, 2203, WOKEN, 0),
	LB_X_EVENT_TASK(2202, .wait = 1010, .waits = 1, .signaller = 2201),
	LB_X_EVENT_TASK(2203, .wait = 1010, .waits = 1, .signaller = 2204),
	LB_SCN_END
};

#undef LB_FRELEASE_W

/*
 * More readers than a lock's holder slots: readers 2002..2006 all take the
 * rwsem when writer 2001 releases it; the fifth is not tracked as a holder
 * (dropped_holders), so writer 2007's 400 ns are shared by the four known.
 * Their holds count from 2007's arrival: 400 ns each. Only 2005's release is
 * seen; the other three are holds whose end was not.
 */
static const struct lb_scn_task lb_scn_tasks_many_readers[] = {
	{ 2001, 2000, "writer", false, NULL },
	{ 2002, 2000, "r1", false, NULL },
	{ 2003, 2000, "r2", false, NULL },
	{ 2004, 2000, "r3", false, NULL },
	{ 2005, 2000, "r4", false, NULL },
	{ 2006, 2000, "r5", false, NULL },
	{ 2007, 2000, "writer2", false, NULL },
	{ 0 }
};

#define RD LB_EF_READ
#define WR LB_EF_WRITE
static const struct lb_scn_step lb_scn_steps_many_readers[] = {
	LB_BEGIN_OWNED(0, LB_LK(0x20), RWSEM, 2002, RD, FIELD, 2001, 0),
	LB_BEGIN_OWNED(0, LB_LK(0x20), RWSEM, 2003, RD, FIELD, 2001, 0),
	LB_BEGIN_OWNED(0, LB_LK(0x20), RWSEM, 2004, RD, FIELD, 2001, 0),
	LB_BEGIN_OWNED(0, LB_LK(0x20), RWSEM, 2005, RD, FIELD, 2001, 0),
	LB_BEGIN_OWNED(0, LB_LK(0x20), RWSEM, 2006, RD, FIELD, 2001, 0),
	LB_RELEASE(100, LB_LK(0x20), RWSEM, 2001, WR, 0, 0),
	LB_END(100, LB_LK(0x20), RWSEM, 2002, RD, ACQ, 0),
	LB_END(100, LB_LK(0x20), RWSEM, 2003, RD, ACQ, 0),
	LB_END(100, LB_LK(0x20), RWSEM, 2004, RD, ACQ, 0),
	LB_END(100, LB_LK(0x20), RWSEM, 2005, RD, ACQ, 0),
	LB_END(100, LB_LK(0x20), RWSEM, 2006, RD, ACQ, 0),
	LB_BEGIN_OWNED(200, LB_LK(0x20), RWSEM, 2007, WR, LB_OWNER_READER_HINT, 2002, 0),
	LB_X_LOCK_MORE(LB_LK(0x20), .pending = 0, .unattributed = 0, .holds = 1,
		       .holds_lower_bound = 1, .holds_at_release = 0, .holders = 4),
	LB_RELEASE(600, LB_LK(0x20), RWSEM, 2005, RD, 0, 1),
	LB_END(600, LB_LK(0x20), RWSEM, 2007, WR, ACQ, 0),
	LB_X_TASK(2001, .wait = 0, .blame = 500, .root_blame = 500, .hold = 100, .hold_on_cpu = 0,
		  .verdict = CAUSE),
	LB_X_TASK(2002, .wait = 100, .blame = 100, .root_blame = 100, .hold = 400, .hold_on_cpu = 0,
		  .verdict = SHARED),
	LB_X_TASK(2005, .wait = 100, .blame = 100, .root_blame = 100, .hold = 400, .hold_on_cpu = 0,
		  .verdict = SHARED),
	LB_X_UNENDED(LB_LK(0x20), 2002, .lock_holds = 3, .task_holds = 1),
	LB_X_TASK(2006, .wait = 100, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_TASK(2007, .wait = 400, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_TOTALS(.wait = 900, .blame = 900, .pending = 0, .unattributed = 0),
	LB_X_COUNTERS2(.invalid = 0, .dropped_holders = 1, .dropped_chains = 0, .window = 600),
	LB_SCN_END
};

#undef RD
#undef WR

/*
 * Stacks: waiting is recorded under the kernel stack where each wait began,
 * blame under the stack of the release that ended the hold (for a futex,
 * the release that named the holder). A release without a stack records
 * nothing for the cause.
 */
static const struct lb_scn_step lb_scn_steps_stacks[] = {
	LB_NEXT_STACK(11),
	LB_BEGIN_OWNED(1000, LB_LK(1), MUTEX, 201, 0, FIELD, 101, 0),
	LB_NEXT_STACK(12),
	LB_BEGIN_OWNED(1200, LB_LK(1), MUTEX, 202, 0, FIELD, 101, 0),
	LB_NEXT_STACK(21),
	LB_RELEASE(2000, LB_LK(1), MUTEX, 101, 0, 0, 0),
	LB_END(2000, LB_LK(1), MUTEX, 201, 0, ACQ, 0),
	LB_NEXT_STACK(22),
	LB_RELEASE(2500, LB_LK(1), MUTEX, 201, 0, 0, 0),
	LB_END(2500, LB_LK(1), MUTEX, 202, 0, ACQ, 0),
	LB_NEXT_STACK(11),
	LB_BEGIN_OWNED(3000, LB_LK(1), MUTEX, 201, 0, FIELD, 202, 0),
	LB_RELEASE(3400, LB_LK(1), MUTEX, 202, 0, 0, 0),
	LB_END(3400, LB_LK(1), MUTEX, 201, 0, ACQ, 0),
	LB_NEXT_STACK(31),
	LB_BEGIN(4000, LB_LK(2), FUTEX, 202, 0),
	LB_NEXT_STACK(41),
	LB_RELEASE(4600, LB_LK(2), FUTEX, 101, 0, 0, 1),
	LB_END(4600, LB_LK(2), FUTEX, 202, 0, WOKEN, 0),
	LB_X_STACK(101, 1, 21, .ns = 1800),
	LB_X_STACK(101, 1, 41, .ns = 600),
	LB_X_STACK(201, 0, 11, .ns = 1400),
	LB_X_STACK(201, 1, 22, .ns = 500),
	LB_X_STACK(202, 0, 12, .ns = 1300),
	LB_X_STACK(202, 0, 31, .ns = 600),
	LB_X_STACK(202, 1, 0, .ns = 0),
	LB_X_TOTALS(.wait = 3300, .blame = 3300, .pending = 0, .unattributed = 0),
	LB_SCN_END
};

/*
 * A chain three deep, through kernel mutexes and a futex at its end:
 * A waits on L1 (mutex) held by B; B waits on L2 (mutex) held by C; C waits
 * on L3, a futex whose holder D is learnt when D wakes C at 1000.
 *   [0,1000)    A, B, C wait: L3 1000 and the root blame of L2 (1000) and
 *               L1 (1000), kept on L3 until its release, go to D: 3000
 *   [1000,1200) C runs holding L2: L2 200 and L1 200 stay with C: 400
 *   [1200,1500) B runs holding L1: 300 stays with B
 * Both middle tasks pass most of their blame on: VICTIMs; D is the CAUSE.
 */
static const struct lb_scn_task lb_scn_tasks_chain3[] = {
	{ 1301, 1300, "front", false, NULL },
	{ 1302, 1300, "middle1", false, NULL },
	{ 1303, 1300, "middle2", false, NULL },
	{ 1304, 1300, "root", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_chain3[] = {
	LB_FBEGIN(0, LB_LK(3), 1303, 2),
	LB_BEGIN_OWNED(0, LB_LK(2), MUTEX, 1302, 0, FIELD, 1303, 0),
	LB_BEGIN_OWNED(0, LB_LK(1), MUTEX, 1301, 0, FIELD, 1302, 0),
	LB_RELEASE(1000, LB_LK(3), FUTEX, 1304, 0, 1000, 1),
	LB_FEND0(1000, 1303, WOKEN, 100),
	LB_RELEASE(1200, LB_LK(2), MUTEX, 1303, 0, 300, 0),
	LB_END(1200, LB_LK(2), MUTEX, 1302, 0, ACQ, 100),
	LB_RELEASE(1500, LB_LK(1), MUTEX, 1302, 0, 400, 0),
	LB_END(1500, LB_LK(1), MUTEX, 1301, 0, ACQ, 100),
	LB_X_VERDICT(1301, .verdict = VICTIM, .root_blame = 0),
	LB_X_VERDICT(1302, .verdict = VICTIM, .root_blame = 300),
	LB_X_VERDICT(1303, .verdict = VICTIM, .root_blame = 400),
	LB_X_VERDICT(1304, .verdict = CAUSE, .root_blame = 3000),
	LB_X_TASK(1302, .wait = 1200, .blame = 1500, .root_blame = 300, .hold = 1500,
		  .hold_on_cpu = 0, .verdict = VICTIM),
	LB_X_TASK(1303, .wait = 1000, .blame = 1200, .root_blame = 400, .hold = 1200,
		  .hold_on_cpu = 0, .verdict = VICTIM),
	LB_X_TOTALS(.wait = 3700, .blame = 3700, .pending = 0, .unattributed = 0),
	LB_X_EVENT_TOTALS(.wait = 0, .waits = 0, .errors = 0, .dropped = 0, .asleep = 0,
			  .futex_lock_waits = 1),
	LB_X_DEADLOCKS(.deadlocks = 0),
	LB_SCN_END
};

/*
 * A middle task that works under its own lock too: B holds L1 (A waits
 * all along), computes 1000, waits 500 on L2 held by C, computes 500 more.
 * B keeps 1500 of its 2000 blame and waited 500: a CAUSE, beside C (1000:
 * 500 on L2 and the 500 of L1 that flowed past B).
 */
static const struct lb_scn_task lb_scn_tasks_middle_works[] = {
	{ 1401, 1400, "front", false, NULL },
	{ 1402, 1400, "middle", false, NULL },
	{ 1403, 1400, "root", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_middle_works[] = {
	LB_BEGIN_OWNED(0, LB_LK(1), MUTEX, 1401, 0, FIELD, 1402, 0),
	LB_BEGIN_OWNED(1000, LB_LK(2), MUTEX, 1402, 0, FIELD, 1403, 0),
	LB_RELEASE(1500, LB_LK(2), MUTEX, 1403, 0, 500, 0),
	LB_END(1500, LB_LK(2), MUTEX, 1402, 0, ACQ, 1000),
	LB_RELEASE(2000, LB_LK(1), MUTEX, 1402, 0, 1500, 0),
	LB_END(2000, LB_LK(1), MUTEX, 1401, 0, ACQ, 10),
	LB_X_TASK(1402, .wait = 500, .blame = 2000, .root_blame = 1500, .hold = 2000,
		  .hold_on_cpu = 0, .verdict = CAUSE),
	LB_X_VERDICT(1403, .verdict = CAUSE, .root_blame = 1000),
	LB_X_VERDICT(1401, .verdict = VICTIM, .root_blame = 0),
	LB_X_TOTALS(.wait = 2500, .blame = 2500, .pending = 0, .unattributed = 0),
	LB_SCN_END
};

/* The same with less work: 400 before, 600 after a 1000 wait: SHARED. */
static const struct lb_scn_step lb_scn_steps_middle_some_work[] = {
	LB_BEGIN_OWNED(0, LB_LK(1), MUTEX, 1401, 0, FIELD, 1402, 0),
	LB_BEGIN_OWNED(400, LB_LK(2), MUTEX, 1402, 0, FIELD, 1403, 0),
	LB_RELEASE(1400, LB_LK(2), MUTEX, 1403, 0, 500, 0),
	LB_END(1400, LB_LK(2), MUTEX, 1402, 0, ACQ, 1000),
	LB_RELEASE(2000, LB_LK(1), MUTEX, 1402, 0, 1500, 0),
	LB_END(2000, LB_LK(1), MUTEX, 1401, 0, ACQ, 10),
	LB_X_TASK(1402, .wait = 1000, .blame = 2000, .root_blame = 1000, .hold = 2000,
		  .hold_on_cpu = 0, .verdict = SHARED),
	LB_X_VERDICT(1403, .verdict = CAUSE, .root_blame = 2000),
	LB_X_TOTALS(.wait = 3000, .blame = 3000, .pending = 0, .unattributed = 0),
	LB_SCN_END
};

/*
 * A thread pool beside a hot mutex. Workers W1-W3 park on a condvar's futex
 * K (word 0: an event); the dispatcher D wakes one at 100 and all of them
 * at 2000. V1 and V2 wait on the mutex's futex M (word 2: a lock), held by
 * H until 1000, then by V1 until 1500. The pool's waiting is event waiting:
 * nobody is blamed for it, D and the workers are not in the lock ledger, and
 * H stays the cause. A word naming a thread of the waiter's own process is
 * a join: an event too.
 */
static const struct lb_scn_task lb_scn_tasks_pool[] = {
	{ 1501, 1500, "holder", false, NULL },
	{ 1502, 1500, "victim1", false, NULL },
	{ 1503, 1500, "victim2", false, NULL },
	{ 1504, 1500, "dispatch", false, NULL },
	{ 1505, 1500, "worker", false, NULL },
	{ 1506, 1500, "worker", false, NULL },
	{ 1507, 1500, "worker", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_pool_events[] = {
	LB_FBEGIN(0, LB_LK(0x20), 1505, 0),
	LB_FBEGIN(0, LB_LK(0x20), 1506, 0),
	LB_FBEGIN(0, LB_LK(0x20), 1507, 0),
	LB_FBEGIN(0, LB_LK(0x21), 1502, 2),
	LB_FBEGIN(0, LB_LK(0x21), 1503, 2),
	LB_RELEASE(100, LB_LK(0x20), FUTEX, 1504, 0, 10, 1),
	LB_FEND0(150, 1505, WOKEN, 10),
	LB_FBEGIN(200, LB_LK(0x20), 1505, 0),
	LB_RELEASE(1000, LB_LK(0x21), FUTEX, 1501, 0, 900, 1),
	LB_FEND0(1000, 1502, WOKEN, 10),
	LB_RELEASE(1500, LB_LK(0x21), FUTEX, 1502, 0, 400, 1),
	LB_FEND0(1500, 1503, WOKEN, 10),
	LB_RELEASE(2000, LB_LK(0x20), FUTEX, 1504, LB_EF_WAKE_MANY, 20, 3),
	LB_FEND0(2000, 1505, WOKEN, 20),
	LB_FEND0(2000, 1506, WOKEN, 20),
	LB_FEND0(2000, 1507, WOKEN, 20),
	LB_SCN_END
};

static const struct lb_scn_step lb_scn_steps_pool[] = {
	LB_X_VERDICT(1501, .verdict = CAUSE, .root_blame = 2000),
	LB_X_VERDICT(1502, .verdict = VICTIM, .root_blame = 500),
	LB_X_VERDICT(1503, .verdict = VICTIM, .root_blame = 0),
	LB_X_NO_TASK(1504),
	LB_X_NO_TASK(1505),
	LB_X_NO_TASK(1506),
	LB_X_NO_TASK(1507),
	LB_X_NO_LOCK(LB_LK(0x20)),
	LB_X_EVENT_TASK(1505, .wait = 1950, .waits = 2, .signaller = 1504),
	LB_X_EVENT_TASK(1506, .wait = 2000, .waits = 1, .signaller = 1504),
	LB_X_EVENT_TOTALS(.wait = 5950, .waits = 4, .errors = 0, .dropped = 0, .asleep = 0,
			  .futex_lock_waits = 2),
	LB_X_TOTALS(.wait = 2500, .blame = 2500, .pending = 0, .unattributed = 0),
	LB_X_COUNTERS(.late = 0, .unmatched = 0, .dropped_waiters = 0, .dropped_pairs = 0,
		      .evicted_locks = 0, .evicted_tasks = 0),
	/* A counter's value (a sequence number): an event. */
	LB_FBEGIN(2100, LB_LK(0x20), 1505, 6),
	/* A join: the word is the TID of a thread of the same process. */
	LB_FBEGIN_FL(2100, LB_LK(0x22), 1506, 1505, LB_EF_WORD_TID),
	LB_ADVANCE(2200),
	LB_X_EVENT_TOTALS(.wait = 6150, .waits = 4, .errors = 0, .dropped = 0, .asleep = 2,
			  .futex_lock_waits = 2),
	LB_X_NO_LOCK(LB_LK(0x20)),
	LB_X_NO_TASK(1505),
	/* A value changed before sleeping: an error of the event wait. */
	{ LB_EV(LB_EV_WAIT_BEGIN, 2300, LB_LK(0x23), LB_LOCK_FUTEX, 1507),
	  .flags = LB_EF_WORD | LB_EF_NOSLEEP, .word = 0 },
	{ LB_EV(LB_EV_WAIT_END, 2300, LB_LK(0x23), LB_LOCK_FUTEX, 1507),
	  .flags = LB_EF_WORD | LB_EF_NOSLEEP, .result = LB_WAIT_AGAIN },
	LB_X_EVENT_TOTALS(.wait = 6350, .waits = 5, .errors = 1, .dropped = 0, .asleep = 2,
			  .futex_lock_waits = 2),
	LB_X_NO_TASK(1507),
	LB_X_TOTALS(.wait = 2500, .blame = 2500, .pending = 0, .unattributed = 0),
	/* Woken, and seen running before its waker's wake returned. */
	LB_FBEGIN(2400, LB_LK(0x20), 1507, 0),
	LB_FEND0(2500, 1507, WOKEN, 30),
	LB_RELEASE(2510, LB_LK(0x20), FUTEX, 1504, 0, 30, 1),
	LB_X_EVENT_TASK(1507, .wait = 2100, .waits = 3, .signaller = 1504),
	LB_X_EVENT_TOTALS(.wait = 6870, .waits = 6, .errors = 1, .dropped = 0, .asleep = 2,
			  .futex_lock_waits = 2),
	LB_SCN_END
};

/*
 * The pool with futex kinds off (every futex a lock, as before kinds): the
 * dispatcher takes the blame of the workers' waiting and is a cause.
 *   K: [0,100) 3 waiting: D 300; [100,150) handing over: 150 unattributed;
 *   [150,200) W1 likely holds: 100, but W1 waits again at 200 with no
 *   release of its own, so it never held K: the 100 is pending again;
 *   [200,2000) 3 waiting: 5400, all named D at its release: D 5800
 */
static const struct lb_scn_step lb_scn_steps_pool_kinds_off[] = {
	LB_X_VERDICT(1504, .verdict = CAUSE, .root_blame = 5800),
	LB_X_VERDICT(1501, .verdict = CAUSE, .root_blame = 2000),
	LB_X_VERDICT(1505, .verdict = VICTIM, .root_blame = 0),
	LB_X_TOTALS(.wait = 8450, .blame = 8300, .pending = 0, .unattributed = 150),
	LB_X_EVENT_TOTALS(.wait = 0, .waits = 0, .errors = 0, .dropped = 0, .asleep = 0,
			  .futex_lock_waits = 6),
	LB_SCN_END
};

/*
 * Parked threads beyond the sleeper table: ten workers park, eight slots.
 * The two left over are counted, not tracked; the lock ledger never sees
 * any of them, and their wake-ups are no unmatched events.
 */
static const struct lb_scn_task lb_scn_tasks_parked[] = {
	{ 1601, 1600, "holder", false, NULL },
	{ 1602, 1600, "victim", false, NULL },
	{ 0 }
};

#define LB_PARK(t, p)	LB_FBEGIN(t, LB_LK(0x30), 1610 + (p), 0)
#define LB_UNPARK(t, p)	LB_FEND0(t, 1610 + (p), LB_WAIT_TIMEOUT, 0)

static const struct lb_scn_step lb_scn_steps_parked[] = {
	LB_PARK(0, 0), LB_PARK(0, 1), LB_PARK(0, 2), LB_PARK(0, 3), LB_PARK(0, 4),
	LB_PARK(0, 5), LB_PARK(0, 6), LB_PARK(0, 7), LB_PARK(0, 8), LB_PARK(0, 9),
	LB_FBEGIN(100, LB_LK(0x21), 1602, 2),
	LB_RELEASE(600, LB_LK(0x21), FUTEX, 1601, 0, 500, 1),
	LB_FEND0(600, 1602, WOKEN, 10),
	LB_X_EVENT_TOTALS(.wait = 8 * 600, .waits = 0, .errors = 0, .dropped = 2, .asleep = 8,
			  .futex_lock_waits = 1),
	LB_UNPARK(1000, 0), LB_UNPARK(1000, 1), LB_UNPARK(1000, 2), LB_UNPARK(1000, 3),
	LB_UNPARK(1000, 4), LB_UNPARK(1000, 5), LB_UNPARK(1000, 6), LB_UNPARK(1000, 7),
	LB_UNPARK(1000, 8), LB_UNPARK(1000, 9),
	LB_X_EVENT_TOTALS(.wait = 8 * 1000, .waits = 8, .errors = 8, .dropped = 2, .asleep = 0,
			  .futex_lock_waits = 1),
	LB_X_VERDICT(1601, .verdict = CAUSE, .root_blame = 500),
	LB_X_VERDICT(1602, .verdict = VICTIM, .root_blame = 0),
	LB_X_NO_TASK(1610),
	LB_X_COUNTERS(.late = 0, .unmatched = 0, .dropped_waiters = 0, .dropped_pairs = 0,
		      .evicted_locks = 0, .evicted_tasks = 0),
	LB_X_TOTALS(.wait = 500, .blame = 500, .pending = 0, .unattributed = 0),
	LB_SCN_END
};

/*
 * A task's own waiting is never its blame: X's wait on F ends with no
 * release seen (its waker's was lost), so its 100 ns stay pending; Y waits;
 * X releases F. Y's 200 ns are X's blame; X's own 100 ns nobody's.
 */
static const struct lb_scn_task lb_scn_tasks_self_pending[] = {
	{ 2101, 2100, "x", false, NULL },
	{ 2102, 2100, "y", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_self_pending[] = {
	LB_FBEGIN(0, LB_LK(0x40), 2101, 2),
	LB_FEND0(100, 2101, WOKEN, 10),
	LB_FBEGIN(100, LB_LK(0x40), 2102, 2),
	LB_RELEASE(300, LB_LK(0x40), FUTEX, 2101, 0, 200, 1),
	LB_FEND0(300, 2102, WOKEN, 10),
	LB_X_PAIR(2101, 2101, .blame = 0),
	LB_X_PAIR(2101, 2102, .blame = 200),
	LB_X_TOTALS(.wait = 300, .blame = 200, .pending = 0, .unattributed = 100),
	LB_SCN_END
};

/*
 * A hold counts only while somebody waits: the contended part. C (2201) is
 * woken at 110 and holds from then (glibc's __owner, read when V2 arrives,
 * agrees), but V2 (2203) arrives only at 400:
 *   [0,100) C waits, V1's hold unseen: V1's at its release, hold 100
 *   [400,1000) V2 waits, C holds: C 600, of its 890 ns hold
 * C's CPU clock moved all 890 ns, so its 600 contended ns are on CPU. Then C
 * holds mutex M, named by two bursts of waiters with an idle gap between:
 *   [2000,2200) V1 waits (interrupted)   [2500,2800) V2 waits: C 500 of 800
 * The handoffs [100,110) and [1000,1010) are nobody's.
 */
static const struct lb_scn_task lb_scn_tasks_contended_part[] = {
	{ 2201, 2200, "culprit", false, NULL },
	{ 2202, 2200, "victim1", false, NULL },
	{ 2203, 2200, "victim2", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_contended_part[] = {
	LB_BEGIN(0, LB_LK(0x50), FUTEX, 2201, 0),
	LB_RELEASE(100, LB_LK(0x50), FUTEX, 2202, 0, 0, 1),
	LB_END(110, LB_LK(0x50), FUTEX, 2201, 0, WOKEN, 1000),
	LB_BEGIN_OWNED(400, LB_LK(0x50), FUTEX, 2203, 0, LB_OWNER_HEURISTIC, 2201, 1290),
	LB_RELEASE(1000, LB_LK(0x50), FUTEX, 2201, 0, 1890, 1),
	LB_END(1010, LB_LK(0x50), FUTEX, 2203, 0, WOKEN, 0),
	LB_X_TASK(2201, .wait = 110, .blame = 600, .root_blame = 600, .hold = 600,
		  .hold_on_cpu = 600, .verdict = CAUSE),
	LB_X_LOCK(LB_LK(0x50), .acquisitions = 2, .wait = 720, .hold = 700, .blame = 700,
		  .holder = 2203, .waiters = 0),
	LB_BEGIN_OWNED(2000, LB_LK(0x51), MUTEX, 2202, 0, FIELD, 2201, 0),
	LB_END(2200, LB_LK(0x51), MUTEX, 2202, 0, LB_WAIT_INTERRUPTED, 0),
	LB_BEGIN_OWNED(2500, LB_LK(0x51), MUTEX, 2203, 0, FIELD, 2201, 0),
	LB_RELEASE(2800, LB_LK(0x51), MUTEX, 2201, 0, 0, 0),
	LB_END(2800, LB_LK(0x51), MUTEX, 2203, 0, ACQ, 0),
	LB_X_TASK(2201, .wait = 110, .blame = 1100, .root_blame = 1100, .hold = 1100,
		  .hold_on_cpu = 600, .verdict = CAUSE),
	LB_X_TASK_COUNTS(2201, .waits = 1, .holds = 2, .holds_lower_bound = 1, .errors = 0,
			 .kthread = 0, .tgid = 2200),
	LB_X_TASK(2202, .wait = 200, .blame = 100, .root_blame = 100, .hold = 100, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_TASK_COUNTS(2202, .waits = 1, .holds = 1, .holds_lower_bound = 1, .errors = 1,
			 .kthread = 0, .tgid = 2200),
	LB_X_TASK(2203, .wait = 910, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_LOCK(LB_LK(0x51), .acquisitions = 1, .wait = 500, .hold = 500, .blame = 500,
		  .holder = 2203, .waiters = 0),
	LB_X_TOTALS(.wait = 1220, .blame = 1200, .pending = 0, .unattributed = 20),
	LB_SCN_END
};

/*
 * Why the holder was slow, three ways: on a CPU, runnable but not running
 * (preempted: run_delay grows), asleep (neither clock moves). W (401) waits
 * behind each holder in turn; the owner field names the holder.
 *   L60 [1000,11000) C computes: on-CPU +9000, run_delay +400 over 10000:
 *     on 9000, runnable 400, sleeping 600.
 *   L61 P acquired it at 20100 after 100 ns of unattributed waiting, W waits
 *     [22100,24100): its clocks span [20100,24100) = 4000, on-CPU +400,
 *     run_delay +3000; the 2000 contended get their share: on 200, runnable
 *     1500, sleeping 300.
 *   L62 [30000,40000) S sleeps: on-CPU +100, run_delay +200: sleeping 9700.
 *     [50000,52000) S's run_delay was not read at the start: on-CPU +500,
 *     the other 1500 runnable_unknown. [60000,61000) no clock read at the
 *     start: 1000 cpu_unknown. S: hold 13000, on 600, runnable 200,
 *     sleeping 9700, unknown 1000 + 1500.
 *   L63 [70000,72000) F never waited for a CPU: its run_delay reads 0 at
 *     both ends, a reading all the same (the event's flags say so): on-CPU
 *     +1000, runnable 0, sleeping 1000, nothing unknown.
 * W waits 27000, all blamed; P's 100 ns wait had no holder: unattributed.
 * Process 300: hold 27000, on 10800, runnable 2100.
 */
static const struct lb_scn_task lb_scn_tasks_hold_split[] = {
	{ 301, 300, "compute", false, NULL },
	{ 302, 300, "preempted", false, NULL },
	{ 303, 300, "sleeper", false, NULL },
	{ 304, 300, "fresh", false, NULL },
	{ 401, 400, "waiter", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_hold_split[] = {
	LB_BEGIN_OWNED_RD(1000, LB_LK(0x60), MUTEX, 401, FIELD, 301, 50000, 7000),
	LB_RELEASE_RD(11000, LB_LK(0x60), MUTEX, 301, 59000, 7400, 0),
	LB_END_RD(11000, LB_LK(0x60), MUTEX, 401, ACQ, 100, 10),
	LB_X_TASK_SPLIT(301, .hold = 10000, .on_cpu = 9000, .runnable = 400, .sleeping = 600,
			.cpu_unknown = 0, .runnable_unknown = 0),
	LB_BEGIN(20000, LB_LK(0x61), MUTEX, 302, 0),
	LB_END_RD(20100, LB_LK(0x61), MUTEX, 302, ACQ, 30000, 5000),
	LB_BEGIN_OWNED_RD(22100, LB_LK(0x61), MUTEX, 401, FIELD, 302, 30200, 5800),
	LB_RELEASE_RD(24100, LB_LK(0x61), MUTEX, 302, 30400, 8000, 0),
	LB_END_RD(24100, LB_LK(0x61), MUTEX, 401, ACQ, 200, 20),
	LB_X_TASK_SPLIT(302, .hold = 2000, .on_cpu = 200, .runnable = 1500, .sleeping = 300,
			.cpu_unknown = 0, .runnable_unknown = 0),
	LB_BEGIN_OWNED_RD(30000, LB_LK(0x62), MUTEX, 401, FIELD, 303, 90000, 3000),
	LB_RELEASE_RD(40000, LB_LK(0x62), MUTEX, 303, 90100, 3200, 0),
	LB_END_RD(40000, LB_LK(0x62), MUTEX, 401, ACQ, 300, 30),
	LB_X_TASK_SPLIT(303, .hold = 10000, .on_cpu = 100, .runnable = 200, .sleeping = 9700,
			.cpu_unknown = 0, .runnable_unknown = 0),
	LB_BEGIN_OWNED_RD(50000, LB_LK(0x62), MUTEX, 401, FIELD, 303, 90200, 0),
	LB_RELEASE_RD(52000, LB_LK(0x62), MUTEX, 303, 90700, 3300, 0),
	LB_END_RD(52000, LB_LK(0x62), MUTEX, 401, ACQ, 400, 40),
	LB_X_TASK_SPLIT(303, .hold = 12000, .on_cpu = 600, .runnable = 200, .sleeping = 9700,
			.cpu_unknown = 0, .runnable_unknown = 1500),
	LB_BEGIN_OWNED_RD(60000, LB_LK(0x62), MUTEX, 401, FIELD, 303, 0, 0),
	LB_RELEASE_RD(61000, LB_LK(0x62), MUTEX, 303, 91000, 3400, 0),
	LB_END_RD(61000, LB_LK(0x62), MUTEX, 401, ACQ, 500, 50),
	LB_X_TASK_SPLIT(303, .hold = 13000, .on_cpu = 600, .runnable = 200, .sleeping = 9700,
			.cpu_unknown = 1000, .runnable_unknown = 1500),
	{ LB_EV(LB_EV_WAIT_BEGIN, 70000, LB_LK(0x63), MUTEX, 401), .owner_source = FIELD,
	  .owner = 304, .owner_cpu = 5000, .flags = LB_EF_OWNER_RUN_DELAY },
	{ LB_EV(LB_EV_RELEASE, 72000, LB_LK(0x63), MUTEX, 304), .cpu = 6000,
	  .flags = LB_EF_RUN_DELAY },
	LB_END_RD(72000, LB_LK(0x63), MUTEX, 401, ACQ, 600, 60),
	LB_X_TASK_SPLIT(304, .hold = 2000, .on_cpu = 1000, .runnable = 0, .sleeping = 1000,
			.cpu_unknown = 0, .runnable_unknown = 0),
	LB_X_TASK(301, .wait = 0, .blame = 10000, .root_blame = 10000, .hold = 10000,
		  .hold_on_cpu = 9000, .verdict = CAUSE),
	LB_X_TASK(302, .wait = 100, .blame = 2000, .root_blame = 2000, .hold = 2000,
		  .hold_on_cpu = 200, .verdict = CAUSE),
	LB_X_TASK(303, .wait = 0, .blame = 13000, .root_blame = 13000, .hold = 13000,
		  .hold_on_cpu = 600, .verdict = CAUSE),
	LB_X_TASK(304, .wait = 0, .blame = 2000, .root_blame = 2000, .hold = 2000,
		  .hold_on_cpu = 1000, .verdict = CAUSE),
	LB_X_TASK(401, .wait = 27000, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_PROC_SPLIT(300, .hold = 27000, .on_cpu = 10800, .runnable = 2100),
	LB_X_TOTALS(.wait = 27100, .blame = 27000, .pending = 0, .unattributed = 100),
	LB_SCN_END
};

/*
 * A release lost (a full ring): holder H took mutex M on the fast path and W
 * waits on it from 1000, named by the owner field. H's release is never seen;
 * W's acquisition at 2000 is the first sign it ended. H is then dropped as a
 * holder: its 1000 ns of blame are a hold too, begun and ended unseen, whose
 * on-CPU share is unknown. W then holds M while V waits [2500,3000) and
 * releases it in sight: a hold like any other. On N, W waits from 4000 on
 * H; H itself waits from 4100 (so it let go, unseen: 100 ns unended); V's
 * wait at 4200 reads a stale owner word naming H, which is blocked on N and
 * so cannot hold it: the waiting from 4100 is pending, nobody's blame.
 */
static const struct lb_scn_task lb_scn_tasks_release_lost[] = {
	{ 3101, 3100, "holder", false, NULL },
	{ 3102, 3100, "waiter", false, NULL },
	{ 3103, 3100, "victim", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_release_lost[] = {
	LB_BEGIN_OWNED(1000, LB_LK(0x70), MUTEX, 3102, 0, FIELD, 3101, 0),
	LB_END(2000, LB_LK(0x70), MUTEX, 3102, 0, ACQ, 0),
	LB_X_TASK(3101, .wait = 0, .blame = 1000, .root_blame = 1000, .hold = 1000,
		  .hold_on_cpu = 0, .verdict = CAUSE),
	LB_X_TASK_SPLIT(3101, .hold = 1000, .on_cpu = 0, .runnable = 0, .sleeping = 0,
			.cpu_unknown = 1000, .runnable_unknown = 0),
	LB_X_TASK_COUNTS(3101, .waits = 0, .holds = 1, .holds_lower_bound = 1, .errors = 0,
			 .kthread = 0, .tgid = 3100),
	LB_X_UNENDED(LB_LK(0x70), 3101, .lock_holds = 1, .task_holds = 1),
	LB_X_LOCK_MORE(LB_LK(0x70), .pending = 0, .unattributed = 0, .holds = 1,
		       .holds_lower_bound = 1, .holds_at_release = 0, .holders = 1),
	LB_BEGIN_OWNED(2500, LB_LK(0x70), MUTEX, 3103, 0, FIELD, 3102, 0),
	LB_RELEASE(3000, LB_LK(0x70), MUTEX, 3102, 0, 0, 0),
	LB_END(3000, LB_LK(0x70), MUTEX, 3103, 0, ACQ, 0),
	LB_X_TASK(3102, .wait = 1000, .blame = 500, .root_blame = 500, .hold = 500,
		  .hold_on_cpu = 0, .verdict = VICTIM),
	LB_X_UNENDED(LB_LK(0x70), 3102, .lock_holds = 1, .task_holds = 0),
	LB_X_LOCK(LB_LK(0x70), .acquisitions = 2, .wait = 1500, .hold = 1500, .blame = 1500,
		  .holder = 3103, .waiters = 0),
	LB_X_LOCK_MORE(LB_LK(0x70), .pending = 0, .unattributed = 0, .holds = 2,
		       .holds_lower_bound = 1, .holds_at_release = 0, .holders = 1),
	LB_X_PAIR(3101, 3102, .blame = 1000),
	LB_X_PAIR(3102, 3103, .blame = 500),
	LB_BEGIN_OWNED(4000, LB_LK(0x71), MUTEX, 3102, 0, FIELD, 3101, 0),
	LB_BEGIN(4100, LB_LK(0x71), MUTEX, 3101, 0),
	LB_BEGIN_OWNED(4200, LB_LK(0x71), MUTEX, 3103, 0, FIELD, 3101, 0),
	LB_ADVANCE(4500),
	LB_X_LOCK(LB_LK(0x71), .acquisitions = 0, .wait = 1200, .hold = 100, .blame = 100,
		  .holder = 0, .waiters = 3),
	LB_X_LOCK_MORE(LB_LK(0x71), .pending = 1100, .unattributed = 0, .holds = 1,
		       .holds_lower_bound = 1, .holds_at_release = 0, .holders = 0),
	LB_X_UNENDED(LB_LK(0x71), 3101, .lock_holds = 1, .task_holds = 2),
	LB_SCN_END
};

/*
 * Readers leaving one by one (lock:contended_release, 7.1 on): R1, R2, R3
 * took rwsem L on the fast path, unknown. Writer W waits from 1000; the
 * owner word only hints at readers. R1 leaves at 1600 with 2 readers left,
 * R2 at 2200 with 1 left; R3's up_read wakes W at 3100.
 *   [1000,1600) 3 readers hold: 200 each   [1600,2200) 2 hold: 300 each
 *   [2200,3100) R3 alone: 900
 * R1 200, R2 500, R3 1400 (its release takes the rest). Their holds are the
 * pending period each saw: 600, 1200, 2100, begun unseen. Then readers K1
 * and K2 take L' from writer V (known holders); writer X waits [4000,5000):
 * K1 leaves at 4400 (1 left) after 200 of blame, K2 holds on alone: 200 +
 * 600. V's blame is K1's and K2's [3200,3400). A mutex's release with the
 * same flag on M is not an rwsem's: ignored.
 */
static const struct lb_scn_task lb_scn_tasks_readers_leave[] = {
	{ 4101, 4100, "r1", false, NULL },
	{ 4102, 4100, "r2", false, NULL },
	{ 4103, 4100, "r3", false, NULL },
	{ 4104, 4100, "writer", false, NULL },
	{ 4105, 4100, "k1", false, NULL },
	{ 4106, 4100, "k2", false, NULL },
	{ 4107, 4100, "v", false, NULL },
	{ 4108, 4100, "x", false, NULL },
	{ 0 }
};

#define LEFT(_t, _lk, _cls, _pid, _left) \
	{ LB_EV(LB_EV_RELEASE, _t, _lk, _cls, _pid), .flags = LB_EF_LEFT | LB_EF_READ, \
	  .count = (_left) }
static const struct lb_scn_step lb_scn_steps_readers_leave[] = {
	LB_BEGIN_OWNED(1000, LB_LK(0x80), RWSEM, 4104, LB_EF_WRITE, LB_OWNER_READER_HINT, 0, 0),
	LEFT(1600, LB_LK(0x80), RWSEM, 4101, 2),
	LB_X_TASK(4101, .wait = 0, .blame = 200, .root_blame = 200, .hold = 600,
		  .hold_on_cpu = 0, .verdict = CAUSE),
	LB_X_LOCK_MORE(LB_LK(0x80), .pending = 400, .unattributed = 0, .holds = 1,
		       .holds_lower_bound = 1, .holds_at_release = 1, .holders = 0),
	LEFT(2200, LB_LK(0x80), RWSEM, 4102, 1),
	LB_X_TASK(4102, .wait = 0, .blame = 500, .root_blame = 500, .hold = 1200,
		  .hold_on_cpu = 0, .verdict = CAUSE),
	LB_RELEASE(3100, LB_LK(0x80), RWSEM, 4103, LB_EF_READ, 0, 1),
	LB_END(3100, LB_LK(0x80), RWSEM, 4104, LB_EF_WRITE, ACQ, 0),
	LB_X_TASK(4103, .wait = 0, .blame = 1400, .root_blame = 1400, .hold = 2100,
		  .hold_on_cpu = 0, .verdict = CAUSE),
	LB_X_TASK(4104, .wait = 2100, .blame = 0, .root_blame = 0, .hold = 0,
		  .hold_on_cpu = 0, .verdict = VICTIM),
	LB_X_PAIR(4101, 4104, .blame = 200),
	LB_X_PAIR(4102, 4104, .blame = 500),
	LB_X_PAIR(4103, 4104, .blame = 1400),
	LB_X_LOCK(LB_LK(0x80), .acquisitions = 1, .wait = 2100, .hold = 3900, .blame = 2100,
		  .holder = 4104, .waiters = 0),
	LB_X_LOCK_MORE(LB_LK(0x80), .pending = 0, .unattributed = 0, .holds = 3,
		       .holds_lower_bound = 3, .holds_at_release = 3, .holders = 1),
	LB_BEGIN_OWNED(3200, LB_LK(0x81), RWSEM, 4105, LB_EF_READ, FIELD, 4107, 0),
	LB_BEGIN_OWNED(3200, LB_LK(0x81), RWSEM, 4106, LB_EF_READ, FIELD, 4107, 0),
	LB_RELEASE(3400, LB_LK(0x81), RWSEM, 4107, LB_EF_WRITE, 0, 2),
	LB_END(3400, LB_LK(0x81), RWSEM, 4105, LB_EF_READ, ACQ, 0),
	LB_END(3400, LB_LK(0x81), RWSEM, 4106, LB_EF_READ, ACQ, 0),
	LB_BEGIN_OWNED(4000, LB_LK(0x81), RWSEM, 4108, LB_EF_WRITE, LB_OWNER_READER_HINT, 0, 0),
	LEFT(4400, LB_LK(0x81), RWSEM, 4105, 1),
	LB_X_TASK(4105, .wait = 200, .blame = 200, .root_blame = 200, .hold = 400,
		  .hold_on_cpu = 0, .verdict = SHARED),
	LB_RELEASE(5000, LB_LK(0x81), RWSEM, 4106, LB_EF_READ, 0, 1),
	LB_END(5000, LB_LK(0x81), RWSEM, 4108, LB_EF_WRITE, ACQ, 0),
	LB_X_TASK(4106, .wait = 200, .blame = 800, .root_blame = 800, .hold = 1000,
		  .hold_on_cpu = 0, .verdict = CAUSE),
	LB_X_PAIR(4105, 4108, .blame = 200),
	LB_X_PAIR(4106, 4108, .blame = 800),
	LB_X_UNENDED(LB_LK(0x81), 4105, .lock_holds = 0, .task_holds = 0),
	LEFT(5100, LB_LK(0x82), MUTEX, 4101, 3),
	LB_X_NO_LOCK(LB_LK(0x82)),
	LB_X_COUNTERS(.late = 0, .unmatched = 0, .dropped_waiters = 0, .dropped_pairs = 0,
		      .evicted_locks = 0, .evicted_tasks = 0),
	LB_X_TOTALS(.wait = 3500, .blame = 3500, .pending = 0, .unattributed = 0),
	LB_SCN_END
};

#undef LEFT

#undef LB_PARK
#undef LB_UNPARK
/*
 * Two containers on one kernel mutex: cgroup A (1001) runs process 800
 * (holder 800, and 801), cgroup B (2002) process 900 (900, 901). 800 holds
 * from the first wait; 900, 901 and then 801 queue, and take it in turn.
 *   [0,100) 900 waits: 800 100         [100,200) 900, 901: 800 200
 *   [200,1000) 900, 901, 801: 800 2400 (to 900 800, to 901 800, to 801 800)
 *   [1000,1500) 901, 801 wait, 900 holds: 900 1000 (500 each)
 *   [1500,1600) 801 waits, 901 holds: 901 100
 * By cgroup: A->B 1000 + 900 = 1900, A->A 800, B->B 500, B->A 600; the four
 * add up to the blame, 3800.
 */
static const struct lb_scn_task lb_scn_tasks_cgroups[] = {
	{ 800, 800, "holder", false, "app-a" },
	{ 801, 800, "helper", false, "app-a" },
	{ 900, 900, "client", false, "app-b" },
	{ 901, 900, "client", false, "app-b" },
	{ 0 }
};

static const struct lb_scn_cgroup lb_scn_cgroups_cgroups[] = {
	{ 800, 1001 }, { 801, 1001 }, { 900, 2002 }, { 901, 2002 }, { 0 }
};

static const struct lb_scn_step lb_scn_steps_cgroups[] = {
	LB_BEGIN_OWNED(0, LB_LK(50), MUTEX, 900, 0, FIELD, 800, 1000),
	LB_BEGIN_OWNED(100, LB_LK(50), MUTEX, 901, 0, FIELD, 800, 1100),
	LB_BEGIN_OWNED(200, LB_LK(50), MUTEX, 801, 0, FIELD, 800, 1200),
	LB_RELEASE(1000, LB_LK(50), MUTEX, 800, 0, 2000, 0),
	LB_END(1000, LB_LK(50), MUTEX, 900, 0, ACQ, 3000),
	LB_RELEASE(1500, LB_LK(50), MUTEX, 900, 0, 3500, 0),
	LB_END(1500, LB_LK(50), MUTEX, 901, 0, ACQ, 4000),
	LB_RELEASE(1600, LB_LK(50), MUTEX, 901, 0, 4100, 0),
	LB_END(1600, LB_LK(50), MUTEX, 801, 0, ACQ, 5000),
	LB_X_TOTALS(.wait = 3800, .blame = 3800, .pending = 0, .unattributed = 0),
	LB_X_PAIR(800, 900, .blame = 1000),
	LB_X_PAIR(800, 901, .blame = 900),
	LB_X_PAIR(800, 801, .blame = 800),
	LB_X_CGROUP_PAIR(1001, 2002, .blame = 1900),
	LB_X_CGROUP_PAIR(1001, 1001, .blame = 800),
	LB_X_CGROUP_PAIR(2002, 2002, .blame = 500),
	LB_X_CGROUP_PAIR(2002, 1001, .blame = 600),
	LB_X_CGROUP_PAIR(1001, 0, .blame = 0),
	LB_X_CGROUP(800, 800, .task = 1001, .proc = 1001),
	LB_X_CGROUP(901, 900, .task = 2002, .proc = 2002),
	LB_X_TASK(800, .wait = 0, .blame = 2700, .root_blame = 2700, .hold = 1000,
		  .hold_on_cpu = 1000, .verdict = CAUSE),
	LB_X_PROC(900, .wait = 2400, .blame = 1100, .root_blame = 1100, .hold = 600,
		  .verdict = VICTIM),
	LB_SCN_END
};

/*
 * Outliers: waits and holds of 5000 ns or more are kept whole.
 *   L70 [1000,2000) 502 holds, 601 waits: 1000 ns each, not kept.
 *   L70 [10000,20000) 501 holds while 601 waits (kernel stack 21): the
 *     release (stack 31) ends a 10000 ns hold, on a CPU 9000, runnable 400,
 *     asleep 600 (its clocks, as in hold_split); 601's 10000 ns wait ends
 *     with it: two outliers, both naming 601 and 501, their stacks, the split.
 *   A chain: 601 waits on L72 held by 503 from 30000; 503 waits on L73 held
 *     by 504 over [31000,39000): 504's 8000 ns hold and 503's wait are
 *     kept; 503 lets L72 go at 40000: its 10000 ns hold and 601's wait are
 *     kept, with 504 as the root (its blame flowed there while 503 waited).
 *   Then 34 holds of 502, 6010 ns up to 6340 ns, each with 602's wait:
 *     74 outliers in all, 37 of each kind; each half of the table keeps the
 *     16 longest of its kind (the three above and 6340 down to 6220) and
 *     counts the 21 others.
 *   Reset empties the table and keeps the threshold.
 *   L74: 601 and 602 wait on 501's 7000 ns hold; 601 takes the lock for
 *     100 ns, then 602: 602's 7100 ns wait is 501's (the longest stretch),
 *     not that of 601, whose release ended it; with the stacks and split
 *     of 501's release, which ended that stretch (kept as it ended).
 *   L75, a futex: 501 and then 601 wait; 602's release wakes 501, the
 *     likely holder from 6000100. 601 waits on to 6008000 and is woken
 *     before 501's release is seen (committed behind the wake: stamped
 *     6007990, clamped to 6008000). 601's 7950 ns wait names 501 at once,
 *     without its stacks (victim stack 43); 501's release (stack 44) then
 *     completes it: its stacks and split, as for 501's 7900 ns contended
 *     hold, kept too, whose waiter had gone by then (victim 0).
 *   L76, a futex whose holder is learnt at its release, as a glibc mutex's:
 *     601, 602 and 603 wait from 7000000; 501's release (stack 45) at
 *     7009000 wakes 601, which holds 300 ns and wakes 602 (stack 46),
 *     which holds 200 ns and wakes 603. 602's and 603's waits are 501's
 *     (9000 ns of theirs), though the last release before each wait
 *     ended was another victim's: each names 501's release, stacks and
 *     split (9000 ns not known), as 601's does.
 *   L77, the same with 501's release committed behind the wake: 502's
 *     release wakes 501, the likely holder from 8000100, while 601 and
 *     602 wait; 601 is woken at 8009000, before 501's release (stack 48,
 *     stamped 8008990) is seen. 601 holds 300 ns and wakes 602 (stack
 *     49). 602's stretch under 501 ended before that release came, and
 *     kept it when it did: 602's 9240 ns wait names its stacks, and 601's
 *     8950 ns wait gets them at that release (as in L75).
 *   L78, L77 with the ledger read (advanced) between 601's wake and 501's
 *     release: 602's waiting since the wake is still owed to the coming
 *     release (601 woke before it, a debtor), so the read ends no stretch
 *     and the outliers are L77's, with 501's stacks (50); only the release
 *     is clamped to the read's time, 501's hold 9000 ns.
 *   L79, glibc mutexes in the order 46-outliers saw on 6.1: 601, 602 and
 *     603 wait naming 501 (its __owner), which releases; they hand over in
 *     turn and wait again naming 501; 602 is woken with no release before
 *     it and waits again; 501's release (stack 52) ends all three waits
 *     and its 8290 ns hold. The victims hand over again, 501 holds once
 *     more and releases: 601's last 100 ns of waiting, pending until
 *     then, is named to that later hold. It is another stretch, so 601's
 *     8300 ns wait keeps the release that ended its longest one (stack 52,
 *     the 8290 ns split), as the other two waits do.
 */
static const struct lb_scn_task lb_scn_tasks_outliers[] = {
	{ 501, 500, "culprit", false, NULL },
	{ 502, 500, "quick", false, NULL },
	{ 503, 500, "middle", false, NULL },
	{ 504, 500, "root", false, NULL },
	{ 601, 600, "victim", false, NULL },
	{ 602, 600, "victim2", false, NULL },
	{ 603, 600, "victim3", false, NULL },
	{ 0 }
};

#define WAIT_OL	LB_OUTLIER_WAIT
#define HOLD_OL	LB_OUTLIER_HOLD
/* A glibc mutex's futex wait naming the owner its __owner field holds, and its unlock. */
#define LB_GBEGIN(_t, _pid, _own) \
	{ LB_EV(LB_EV_WAIT_BEGIN, _t, LB_LK(0x79), LB_LOCK_FUTEX, _pid), .flags = LB_EF_WORD, \
	  .word = 2, .owner_source = LB_OWNER_HEURISTIC, .owner = (_own) }
#define LB_GRELEASE(_t, _pid)	LB_RELEASE(_t, LB_LK(0x79), FUTEX, _pid, 0, 0, 1)
static const struct lb_scn_step lb_scn_steps_outliers[] = {
	LB_BEGIN_OWNED(1000, LB_LK(0x70), MUTEX, 601, 0, FIELD, 502, 0),
	LB_RELEASE(2000, LB_LK(0x70), MUTEX, 502, 0, 0, 0),
	LB_END(2000, LB_LK(0x70), MUTEX, 601, 0, ACQ, 0),
	LB_X_OUTLIERS(.threshold = 5000, .kept = 0, .missed = 0, .shortest = 0, .longest = 0),
	LB_NEXT_STACK(21),
	LB_BEGIN_OWNED_RD(10000, LB_LK(0x70), MUTEX, 601, FIELD, 501, 50000, 7000),
	LB_NEXT_STACK(31),
	LB_RELEASE_RD(20000, LB_LK(0x70), MUTEX, 501, 59000, 7400, 0),
	LB_END_RD(20000, LB_LK(0x70), MUTEX, 601, ACQ, 100, 10),
	LB_X_OUTLIERS(.threshold = 5000, .kept = 2, .missed = 0, .shortest = 10000,
		      .longest = 10000),
	LB_X_OUTLIER(HOLD_OL, 601, 501, .ns = 10000, .on_cpu = 9000, .runnable = 400,
		     .sleeping = 600, .unknown = 0, .victim_stack = 21, .holder_stack = 31,
		     .root = 0),
	LB_X_OUTLIER(WAIT_OL, 601, 501, .ns = 10000, .on_cpu = 9000, .runnable = 400,
		     .sleeping = 600, .unknown = 0, .victim_stack = 21, .holder_stack = 31,
		     .root = 0),
	LB_X_OUTLIER(WAIT_OL, 601, 502, .ns = 0),
	LB_BEGIN_OWNED(30000, LB_LK(0x72), MUTEX, 601, 0, FIELD, 503, 0),
	LB_BEGIN_OWNED(31000, LB_LK(0x73), MUTEX, 503, 0, FIELD, 504, 0),
	LB_RELEASE(39000, LB_LK(0x73), MUTEX, 504, 0, 0, 0),
	LB_END(39000, LB_LK(0x73), MUTEX, 503, 0, ACQ, 0),
	LB_RELEASE(40000, LB_LK(0x72), MUTEX, 503, 0, 0, 0),
	LB_END(40000, LB_LK(0x72), MUTEX, 601, 0, ACQ, 0),
	LB_X_OUTLIERS(.threshold = 5000, .kept = 6, .missed = 0, .shortest = 8000,
		      .longest = 10000),
	LB_X_OUTLIER(WAIT_OL, 503, 504, .ns = 8000, .unknown = 8000, .root = 0),
	LB_X_OUTLIER(HOLD_OL, 503, 504, .ns = 8000, .unknown = 8000, .root = 0),
	LB_X_OUTLIER(HOLD_OL, 601, 503, .ns = 10000, .unknown = 10000, .root = 504),
	LB_X_OUTLIER(WAIT_OL, 601, 503, .ns = 10000, .unknown = 10000, .root = 504),
	/* The fill: hold i of 502 on L71 from 100000 i, 6000 + 10 i ns. */
	LB_BEGIN_OWNED(100000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(106010, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(106010, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(200000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(206020, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(206020, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(300000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(306030, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(306030, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(400000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(406040, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(406040, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(500000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(506050, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(506050, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(600000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(606060, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(606060, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(700000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(706070, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(706070, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(800000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(806080, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(806080, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(900000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(906090, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(906090, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(1000000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(1006100, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(1006100, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(1100000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(1106110, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(1106110, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(1200000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(1206120, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(1206120, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(1300000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(1306130, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(1306130, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(1400000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(1406140, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(1406140, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(1500000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(1506150, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(1506150, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(1600000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(1606160, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(1606160, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(1700000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(1706170, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(1706170, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(1800000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(1806180, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(1806180, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(1900000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(1906190, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(1906190, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(2000000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(2006200, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(2006200, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(2100000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(2106210, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(2106210, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(2200000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(2206220, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(2206220, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(2300000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(2306230, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(2306230, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(2400000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(2406240, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(2406240, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(2500000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(2506250, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(2506250, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(2600000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(2606260, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(2606260, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(2700000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(2706270, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(2706270, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(2800000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(2806280, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(2806280, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(2900000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(2906290, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(2906290, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(3000000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(3006300, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(3006300, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(3100000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(3106310, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(3106310, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(3200000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(3206320, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(3206320, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(3300000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(3306330, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(3306330, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_BEGIN_OWNED(3400000, LB_LK(0x71), MUTEX, 602, 0, FIELD, 502, 0),
	LB_RELEASE(3406340, LB_LK(0x71), MUTEX, 502, 0, 0, 0),
	LB_END(3406340, LB_LK(0x71), MUTEX, 602, 0, ACQ, 0),
	LB_X_OUTLIERS(.threshold = 5000, .kept = 32, .missed = 42, .shortest = 6220,
		      .longest = 10000),
	LB_X_OUTLIER(HOLD_OL, 601, 501, .ns = 10000, .on_cpu = 9000, .runnable = 400,
		     .sleeping = 600, .unknown = 0, .victim_stack = 21, .holder_stack = 31,
		     .root = 0),
	LB_X_OUTLIER(WAIT_OL, 503, 504, .ns = 8000, .unknown = 8000, .root = 0),
	LB_X_OUTLIER(HOLD_OL, 602, 502, .ns = 6340, .unknown = 6340),
	LB_RESET,
	LB_X_OUTLIERS(.threshold = 5000, .kept = 0, .missed = 0, .shortest = 0, .longest = 0),
	LB_BEGIN_OWNED(5000000, LB_LK(0x74), MUTEX, 601, 0, FIELD, 501, 0),
	LB_BEGIN_OWNED(5000000, LB_LK(0x74), MUTEX, 602, 0, FIELD, 501, 0),
	LB_NEXT_STACK(41),
	LB_RELEASE(5007000, LB_LK(0x74), MUTEX, 501, 0, 0, 0),
	LB_END(5007000, LB_LK(0x74), MUTEX, 601, 0, ACQ, 0),
	LB_NEXT_STACK(42),
	LB_RELEASE(5007100, LB_LK(0x74), MUTEX, 601, 0, 0, 0),
	LB_END(5007100, LB_LK(0x74), MUTEX, 602, 0, ACQ, 0),
	LB_X_OUTLIERS(.threshold = 5000, .kept = 3, .missed = 0, .shortest = 7000,
		      .longest = 7100),
	LB_X_OUTLIER(HOLD_OL, 601, 501, .ns = 7000, .unknown = 7000, .holder_stack = 41),
	LB_X_OUTLIER(WAIT_OL, 601, 501, .ns = 7000, .unknown = 7000, .holder_stack = 41),
	LB_X_OUTLIER(WAIT_OL, 602, 501, .ns = 7100, .unknown = 7000, .holder_stack = 41),
	LB_X_OUTLIER(WAIT_OL, 602, 601, .ns = 0),
	LB_BEGIN(6000000, LB_LK(0x75), FUTEX, 501, 0),
	LB_NEXT_STACK(43),
	LB_BEGIN(6000050, LB_LK(0x75), FUTEX, 601, 0),
	LB_RELEASE(6000100, LB_LK(0x75), FUTEX, 602, 0, 0, 1),
	LB_END(6000100, LB_LK(0x75), FUTEX, 501, 0, WOKEN, 0),
	LB_END(6008000, LB_LK(0x75), FUTEX, 601, 0, WOKEN, 0),
	LB_X_OUTLIER(WAIT_OL, 601, 501, .ns = 7950, .victim_stack = 43),
	LB_NEXT_STACK(44),
	LB_RELEASE(6007990, LB_LK(0x75), FUTEX, 501, 0, 0, 1),
	LB_X_OUTLIERS(.threshold = 5000, .kept = 5, .missed = 0, .shortest = 7000,
		      .longest = 7950),
	LB_X_OUTLIER(WAIT_OL, 601, 501, .ns = 7950, .unknown = 7900, .victim_stack = 43,
		     .holder_stack = 44),
	LB_X_OUTLIER(HOLD_OL, 0, 501, .ns = 7900, .unknown = 7900, .holder_stack = 44),
	LB_RESET,
	LB_BEGIN(7000000, LB_LK(0x76), FUTEX, 601, 0),
	LB_BEGIN(7000000, LB_LK(0x76), FUTEX, 602, 0),
	LB_BEGIN(7000000, LB_LK(0x76), FUTEX, 603, 0),
	LB_NEXT_STACK(45),
	LB_RELEASE(7009000, LB_LK(0x76), FUTEX, 501, 0, 0, 1),
	LB_END(7009000, LB_LK(0x76), FUTEX, 601, 0, WOKEN, 0),
	LB_NEXT_STACK(46),
	LB_RELEASE(7009300, LB_LK(0x76), FUTEX, 601, 0, 0, 1),
	LB_END(7009300, LB_LK(0x76), FUTEX, 602, 0, WOKEN, 0),
	LB_NEXT_STACK(47),
	LB_RELEASE(7009500, LB_LK(0x76), FUTEX, 602, 0, 0, 1),
	LB_END(7009500, LB_LK(0x76), FUTEX, 603, 0, WOKEN, 0),
	LB_X_OUTLIERS(.threshold = 5000, .kept = 4, .missed = 0, .shortest = 9000,
		      .longest = 9500),
	LB_X_OUTLIER(HOLD_OL, 601, 501, .ns = 9000, .unknown = 9000, .holder_stack = 45),
	LB_X_OUTLIER(WAIT_OL, 601, 501, .ns = 9000, .unknown = 9000, .holder_stack = 45),
	LB_X_OUTLIER(WAIT_OL, 602, 501, .ns = 9300, .unknown = 9000, .holder_stack = 45),
	LB_X_OUTLIER(WAIT_OL, 603, 501, .ns = 9500, .unknown = 9000, .holder_stack = 45),
	LB_RESET,
	LB_BEGIN(8000000, LB_LK(0x77), FUTEX, 501, 0),
	LB_BEGIN(8000050, LB_LK(0x77), FUTEX, 601, 0),
	LB_BEGIN(8000060, LB_LK(0x77), FUTEX, 602, 0),
	LB_RELEASE(8000100, LB_LK(0x77), FUTEX, 502, 0, 0, 1),
	LB_END(8000100, LB_LK(0x77), FUTEX, 501, 0, WOKEN, 0),
	LB_END(8009000, LB_LK(0x77), FUTEX, 601, 0, WOKEN, 0),
	LB_NEXT_STACK(48),
	LB_RELEASE(8008990, LB_LK(0x77), FUTEX, 501, 0, 0, 1),
	LB_NEXT_STACK(49),
	LB_RELEASE(8009300, LB_LK(0x77), FUTEX, 601, 0, 0, 1),
	LB_END(8009300, LB_LK(0x77), FUTEX, 602, 0, WOKEN, 0),
	LB_X_OUTLIER(WAIT_OL, 601, 501, .ns = 8950, .unknown = 8900, .holder_stack = 48),
	LB_X_OUTLIER(WAIT_OL, 602, 501, .ns = 9240, .unknown = 8900, .holder_stack = 48),
	LB_RESET,
	LB_BEGIN(9000000, LB_LK(0x78), FUTEX, 501, 0),
	LB_BEGIN(9000050, LB_LK(0x78), FUTEX, 601, 0),
	LB_BEGIN(9000060, LB_LK(0x78), FUTEX, 602, 0),
	LB_RELEASE(9000100, LB_LK(0x78), FUTEX, 502, 0, 0, 1),
	LB_END(9000100, LB_LK(0x78), FUTEX, 501, 0, WOKEN, 0),
	LB_END(9009000, LB_LK(0x78), FUTEX, 601, 0, WOKEN, 0),
	LB_ADVANCE(9009100),
	LB_NEXT_STACK(50),
	LB_RELEASE(9008990, LB_LK(0x78), FUTEX, 501, 0, 0, 1),
	LB_NEXT_STACK(51),
	LB_RELEASE(9009300, LB_LK(0x78), FUTEX, 601, 0, 0, 1),
	LB_END(9009300, LB_LK(0x78), FUTEX, 602, 0, WOKEN, 0),
	LB_X_OUTLIER(WAIT_OL, 601, 501, .ns = 8950, .unknown = 9000, .holder_stack = 50),
	LB_X_OUTLIER(WAIT_OL, 602, 501, .ns = 9240, .unknown = 9000, .holder_stack = 50),
	LB_RESET,
	LB_GBEGIN(9996000, 602, 501), LB_GBEGIN(9996100, 601, 501), LB_GBEGIN(9996200, 603, 501),
	LB_GRELEASE(10000000, 501),
	LB_FEND0(10000100, 601, WOKEN, 0),
	LB_GRELEASE(10000200, 601),
	LB_FEND0(10000300, 602, WOKEN, 0),
	LB_GRELEASE(10000400, 602),
	LB_FEND0(10000500, 603, WOKEN, 0),
	LB_GRELEASE(10000600, 603),
	LB_GBEGIN(10000700, 602, 501),
	LB_NEXT_STACK(53),
	LB_GBEGIN(10000800, 601, 501),
	LB_FEND0(10000900, 602, WOKEN, 0),
	LB_GBEGIN(10000910, 602, 501),
	LB_GBEGIN(10001000, 603, 501),
	LB_NEXT_STACK(52),
	LB_GRELEASE(10009000, 501),
	LB_FEND0(10009100, 601, WOKEN, 0),
	LB_GRELEASE(10009200, 601),
	LB_FEND0(10009300, 602, WOKEN, 0),
	LB_GRELEASE(10009400, 602),
	LB_FEND0(10009500, 603, WOKEN, 0),
	LB_GRELEASE(10009600, 603),
	LB_GBEGIN(10009700, 602, 501), LB_GBEGIN(10009800, 601, 501), LB_GBEGIN(10009900, 603, 501),
	LB_GRELEASE(10012000, 501),
	LB_FEND0(10012100, 601, WOKEN, 0), LB_GRELEASE(10012200, 601),
	LB_FEND0(10012300, 602, WOKEN, 0), LB_GRELEASE(10012400, 602),
	LB_FEND0(10012500, 603, WOKEN, 0), LB_GRELEASE(10012600, 603),
	LB_ADVANCE(10100000),
	LB_X_OUTLIERS(.threshold = 5000, .kept = 4, .missed = 0, .shortest = 8290,
		      .longest = 8500),
	LB_X_OUTLIER(WAIT_OL, 601, 501, .ns = 8300, .unknown = 8290, .victim_stack = 53,
		     .holder_stack = 52),
	LB_X_OUTLIER(WAIT_OL, 602, 501, .ns = 8390, .unknown = 8290, .holder_stack = 52),
	LB_X_OUTLIER(WAIT_OL, 603, 501, .ns = 8500, .unknown = 8290, .holder_stack = 52),
	LB_X_OUTLIER(HOLD_OL, 601, 501, .ns = 8290, .unknown = 8290, .victim_stack = 53,
		     .holder_stack = 52),
	LB_SCN_END
};

/*
 * A herd several times larger than the tables (8 tasks, 4 pairs) beside a
 * hot futex: its holder 2600 (blame 3000, CAUSE) and its victims 2601..2603
 * (1000 of waiting each, a pair of 1000 with 2600 each) are kept exact, and
 * the herd is what is dropped, whether the culprit's events arrive before
 * the herd, after it or in the middle of it (the herd then waits beside the
 * victims, and 2600 is first seen at its release). Each wave of the herd is
 * 8 tasks on one kernel mutex at once, as many as the task table holds: its
 * holder (2610 + 8 * wave) is blamed 10 for each of its 7 waiters, which
 * wait 10 each and pass it on. While the culprit's four are worth more than
 * the mean, a wave's newcomers past the free slots are refused, not them.
 */
static const struct lb_scn_task lb_scn_tasks_herd[] = {
	{ 2600, 2600, "culprit", false, NULL },
	{ 2601, 2600, "victim", false, NULL },
	{ 2602, 2600, "victim", false, NULL },
	{ 2603, 2600, "victim", false, NULL },
	{ 0 }
};

#define HERD_LK			LB_LK(0x2c1)
#define HOT_LK			LB_LK(0x2c0)
#define HERD_WAIT(t, p, h)	LB_BEGIN_OWNED(t, HERD_LK, MUTEX, p, 0, FIELD, h, 0)
#define HERD_TAKE(t, p)		LB_END(t, HERD_LK, MUTEX, p, 0, ACQ, 0)
#define HERD_LEAVE(t, p)	LB_RELEASE(t, HERD_LK, MUTEX, p, 0, 0, 0)

/* Whatever the order of arrival: the culprit and its victims, exact. */
static const struct lb_scn_step lb_scn_steps_culprit_exact[] = {
	LB_X_VERDICT(2600, .verdict = CAUSE, .root_blame = 3000),
	LB_X_TASK(2601, .wait = 1000, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_TASK(2602, .wait = 1000, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_TASK(2603, .wait = 1000, .blame = 0, .root_blame = 0, .hold = 0, .hold_on_cpu = 0,
		  .verdict = VICTIM),
	LB_X_PAIR(2600, 2601, .blame = 1000),
	LB_X_PAIR(2600, 2602, .blame = 1000),
	LB_X_PAIR(2600, 2603, .blame = 1000),
	LB_X_LOCK(HOT_LK, .acquisitions = 3, .wait = 3000, .hold = 1000, .blame = 3000, .holder = 0,
		  .waiters = 0),
	LB_SCN_END
};

/* The culprit's round first (the prologue of culprit_first and herd_after_culprit). */
static const struct lb_scn_step lb_scn_steps_culprit_round[] = {
	LB_BEGIN(1000, HOT_LK, FUTEX, 2601, 0), LB_BEGIN(1000, HOT_LK, FUTEX, 2602, 0),
	LB_BEGIN(1000, HOT_LK, FUTEX, 2603, 0),
	LB_RELEASE(2000, HOT_LK, FUTEX, 2600, 0, 0, 1),
	LB_END(2000, HOT_LK, FUTEX, 2601, 0, WOKEN, 0),
	LB_RELEASE(2000, HOT_LK, FUTEX, 2601, 0, 0, 1),
	LB_END(2000, HOT_LK, FUTEX, 2602, 0, WOKEN, 0),
	LB_RELEASE(2000, HOT_LK, FUTEX, 2602, 0, 0, 1),
	LB_END(2000, HOT_LK, FUTEX, 2603, 0, WOKEN, 0),
	LB_RELEASE(2000, HOT_LK, FUTEX, 2603, 0, 0, 0),
	LB_SCN_END
};

static const struct lb_scn_step lb_scn_steps_culprit_first[] = {
	HERD_WAIT(10000, 2611, 2610), HERD_WAIT(10000, 2612, 2610),
	HERD_WAIT(10000, 2613, 2610), HERD_WAIT(10000, 2614, 2610),
	HERD_WAIT(10000, 2615, 2610), HERD_WAIT(10000, 2616, 2610),
	HERD_WAIT(10000, 2617, 2610),
	HERD_LEAVE(10010, 2610),
	HERD_TAKE(10010, 2611), HERD_LEAVE(10010, 2611),
	HERD_TAKE(10010, 2612), HERD_LEAVE(10010, 2612),
	HERD_TAKE(10010, 2613), HERD_LEAVE(10010, 2613),
	HERD_TAKE(10010, 2614), HERD_LEAVE(10010, 2614),
	HERD_TAKE(10010, 2615), HERD_LEAVE(10010, 2615),
	HERD_TAKE(10010, 2616), HERD_LEAVE(10010, 2616),
	HERD_TAKE(10010, 2617), HERD_LEAVE(10010, 2617),
	HERD_WAIT(11000, 2619, 2618), HERD_WAIT(11000, 2620, 2618),
	HERD_WAIT(11000, 2621, 2618), HERD_WAIT(11000, 2622, 2618),
	HERD_WAIT(11000, 2623, 2618), HERD_WAIT(11000, 2624, 2618),
	HERD_WAIT(11000, 2625, 2618),
	HERD_LEAVE(11010, 2618),
	HERD_TAKE(11010, 2619), HERD_LEAVE(11010, 2619),
	HERD_TAKE(11010, 2620), HERD_LEAVE(11010, 2620),
	HERD_TAKE(11010, 2621), HERD_LEAVE(11010, 2621),
	HERD_TAKE(11010, 2622), HERD_LEAVE(11010, 2622),
	HERD_TAKE(11010, 2623), HERD_LEAVE(11010, 2623),
	HERD_TAKE(11010, 2624), HERD_LEAVE(11010, 2624),
	HERD_TAKE(11010, 2625), HERD_LEAVE(11010, 2625),
	HERD_WAIT(12000, 2627, 2626), HERD_WAIT(12000, 2628, 2626),
	HERD_WAIT(12000, 2629, 2626), HERD_WAIT(12000, 2630, 2626),
	HERD_WAIT(12000, 2631, 2626), HERD_WAIT(12000, 2632, 2626),
	HERD_WAIT(12000, 2633, 2626),
	HERD_LEAVE(12010, 2626),
	HERD_TAKE(12010, 2627), HERD_LEAVE(12010, 2627),
	HERD_TAKE(12010, 2628), HERD_LEAVE(12010, 2628),
	HERD_TAKE(12010, 2629), HERD_LEAVE(12010, 2629),
	HERD_TAKE(12010, 2630), HERD_LEAVE(12010, 2630),
	HERD_TAKE(12010, 2631), HERD_LEAVE(12010, 2631),
	HERD_TAKE(12010, 2632), HERD_LEAVE(12010, 2632),
	HERD_TAKE(12010, 2633), HERD_LEAVE(12010, 2633),
	HERD_WAIT(13000, 2635, 2634), HERD_WAIT(13000, 2636, 2634),
	HERD_WAIT(13000, 2637, 2634), HERD_WAIT(13000, 2638, 2634),
	HERD_WAIT(13000, 2639, 2634), HERD_WAIT(13000, 2640, 2634),
	HERD_WAIT(13000, 2641, 2634),
	HERD_LEAVE(13010, 2634),
	HERD_TAKE(13010, 2635), HERD_LEAVE(13010, 2635),
	HERD_TAKE(13010, 2636), HERD_LEAVE(13010, 2636),
	HERD_TAKE(13010, 2637), HERD_LEAVE(13010, 2637),
	HERD_TAKE(13010, 2638), HERD_LEAVE(13010, 2638),
	HERD_TAKE(13010, 2639), HERD_LEAVE(13010, 2639),
	HERD_TAKE(13010, 2640), HERD_LEAVE(13010, 2640),
	HERD_TAKE(13010, 2641), HERD_LEAVE(13010, 2641),
	HERD_WAIT(14000, 2643, 2642), HERD_WAIT(14000, 2644, 2642),
	HERD_WAIT(14000, 2645, 2642), HERD_WAIT(14000, 2646, 2642),
	HERD_WAIT(14000, 2647, 2642), HERD_WAIT(14000, 2648, 2642),
	HERD_WAIT(14000, 2649, 2642),
	HERD_LEAVE(14010, 2642),
	HERD_TAKE(14010, 2643), HERD_LEAVE(14010, 2643),
	HERD_TAKE(14010, 2644), HERD_LEAVE(14010, 2644),
	HERD_TAKE(14010, 2645), HERD_LEAVE(14010, 2645),
	HERD_TAKE(14010, 2646), HERD_LEAVE(14010, 2646),
	HERD_TAKE(14010, 2647), HERD_LEAVE(14010, 2647),
	HERD_TAKE(14010, 2648), HERD_LEAVE(14010, 2648),
	HERD_TAKE(14010, 2649), HERD_LEAVE(14010, 2649),
	LB_SCN_END
};

static const struct lb_scn_step lb_scn_steps_culprit_last[] = {
	HERD_WAIT(1000, 2611, 2610), HERD_WAIT(1000, 2612, 2610),
	HERD_WAIT(1000, 2613, 2610), HERD_WAIT(1000, 2614, 2610),
	HERD_WAIT(1000, 2615, 2610), HERD_WAIT(1000, 2616, 2610),
	HERD_WAIT(1000, 2617, 2610),
	HERD_LEAVE(1010, 2610),
	HERD_TAKE(1010, 2611), HERD_LEAVE(1010, 2611),
	HERD_TAKE(1010, 2612), HERD_LEAVE(1010, 2612),
	HERD_TAKE(1010, 2613), HERD_LEAVE(1010, 2613),
	HERD_TAKE(1010, 2614), HERD_LEAVE(1010, 2614),
	HERD_TAKE(1010, 2615), HERD_LEAVE(1010, 2615),
	HERD_TAKE(1010, 2616), HERD_LEAVE(1010, 2616),
	HERD_TAKE(1010, 2617), HERD_LEAVE(1010, 2617),
	HERD_WAIT(2000, 2619, 2618), HERD_WAIT(2000, 2620, 2618),
	HERD_WAIT(2000, 2621, 2618), HERD_WAIT(2000, 2622, 2618),
	HERD_WAIT(2000, 2623, 2618), HERD_WAIT(2000, 2624, 2618),
	HERD_WAIT(2000, 2625, 2618),
	HERD_LEAVE(2010, 2618),
	HERD_TAKE(2010, 2619), HERD_LEAVE(2010, 2619),
	HERD_TAKE(2010, 2620), HERD_LEAVE(2010, 2620),
	HERD_TAKE(2010, 2621), HERD_LEAVE(2010, 2621),
	HERD_TAKE(2010, 2622), HERD_LEAVE(2010, 2622),
	HERD_TAKE(2010, 2623), HERD_LEAVE(2010, 2623),
	HERD_TAKE(2010, 2624), HERD_LEAVE(2010, 2624),
	HERD_TAKE(2010, 2625), HERD_LEAVE(2010, 2625),
	HERD_WAIT(3000, 2627, 2626), HERD_WAIT(3000, 2628, 2626),
	HERD_WAIT(3000, 2629, 2626), HERD_WAIT(3000, 2630, 2626),
	HERD_WAIT(3000, 2631, 2626), HERD_WAIT(3000, 2632, 2626),
	HERD_WAIT(3000, 2633, 2626),
	HERD_LEAVE(3010, 2626),
	HERD_TAKE(3010, 2627), HERD_LEAVE(3010, 2627),
	HERD_TAKE(3010, 2628), HERD_LEAVE(3010, 2628),
	HERD_TAKE(3010, 2629), HERD_LEAVE(3010, 2629),
	HERD_TAKE(3010, 2630), HERD_LEAVE(3010, 2630),
	HERD_TAKE(3010, 2631), HERD_LEAVE(3010, 2631),
	HERD_TAKE(3010, 2632), HERD_LEAVE(3010, 2632),
	HERD_TAKE(3010, 2633), HERD_LEAVE(3010, 2633),
	HERD_WAIT(4000, 2635, 2634), HERD_WAIT(4000, 2636, 2634),
	HERD_WAIT(4000, 2637, 2634), HERD_WAIT(4000, 2638, 2634),
	HERD_WAIT(4000, 2639, 2634), HERD_WAIT(4000, 2640, 2634),
	HERD_WAIT(4000, 2641, 2634),
	HERD_LEAVE(4010, 2634),
	HERD_TAKE(4010, 2635), HERD_LEAVE(4010, 2635),
	HERD_TAKE(4010, 2636), HERD_LEAVE(4010, 2636),
	HERD_TAKE(4010, 2637), HERD_LEAVE(4010, 2637),
	HERD_TAKE(4010, 2638), HERD_LEAVE(4010, 2638),
	HERD_TAKE(4010, 2639), HERD_LEAVE(4010, 2639),
	HERD_TAKE(4010, 2640), HERD_LEAVE(4010, 2640),
	HERD_TAKE(4010, 2641), HERD_LEAVE(4010, 2641),
	HERD_WAIT(5000, 2643, 2642), HERD_WAIT(5000, 2644, 2642),
	HERD_WAIT(5000, 2645, 2642), HERD_WAIT(5000, 2646, 2642),
	HERD_WAIT(5000, 2647, 2642), HERD_WAIT(5000, 2648, 2642),
	HERD_WAIT(5000, 2649, 2642),
	HERD_LEAVE(5010, 2642),
	HERD_TAKE(5010, 2643), HERD_LEAVE(5010, 2643),
	HERD_TAKE(5010, 2644), HERD_LEAVE(5010, 2644),
	HERD_TAKE(5010, 2645), HERD_LEAVE(5010, 2645),
	HERD_TAKE(5010, 2646), HERD_LEAVE(5010, 2646),
	HERD_TAKE(5010, 2647), HERD_LEAVE(5010, 2647),
	HERD_TAKE(5010, 2648), HERD_LEAVE(5010, 2648),
	HERD_TAKE(5010, 2649), HERD_LEAVE(5010, 2649),
	LB_BEGIN(10000, HOT_LK, FUTEX, 2601, 0), LB_BEGIN(10000, HOT_LK, FUTEX, 2602, 0),
	LB_BEGIN(10000, HOT_LK, FUTEX, 2603, 0),
	LB_RELEASE(11000, HOT_LK, FUTEX, 2600, 0, 0, 1),
	LB_END(11000, HOT_LK, FUTEX, 2601, 0, WOKEN, 0),
	LB_RELEASE(11000, HOT_LK, FUTEX, 2601, 0, 0, 1),
	LB_END(11000, HOT_LK, FUTEX, 2602, 0, WOKEN, 0),
	LB_RELEASE(11000, HOT_LK, FUTEX, 2602, 0, 0, 1),
	LB_END(11000, HOT_LK, FUTEX, 2603, 0, WOKEN, 0),
	LB_RELEASE(11000, HOT_LK, FUTEX, 2603, 0, 0, 0),
	LB_SCN_END
};

/*
 * The same table with 16 slots, full when the culprit arrives, its least
 * recently used tasks all heavy: six pairs on kernel mutexes, each waiter
 * 4000 and each holder blamed 4000, above the mean; the lightest tasks (two
 * pairs, 1 each) are the most recent. The victims and the culprit take the
 * light ones' slots. Eviction used to look at the 8 least recently used only
 * and refuse every newcomer when those were above the mean (issue 26: the
 * culprit of lb-pool -B -i 5000 absent from a 6.12 lane's ledger).
 */
#define PAIR_LK(n)		LB_LK(0x2d0 + (n))

static const struct lb_scn_step lb_scn_steps_culprit_after_heavy[] = {
	LB_BEGIN_OWNED(1000, PAIR_LK(0), MUTEX, 2700, 0, FIELD, 2720, 0),
	LB_RELEASE(5000, PAIR_LK(0), MUTEX, 2720, 0, 0, 0),
	LB_END(5000, PAIR_LK(0), MUTEX, 2700, 0, ACQ, 0),
	LB_RELEASE(5000, PAIR_LK(0), MUTEX, 2700, 0, 0, 0),
	LB_BEGIN_OWNED(6000, PAIR_LK(1), MUTEX, 2701, 0, FIELD, 2721, 0),
	LB_RELEASE(10000, PAIR_LK(1), MUTEX, 2721, 0, 0, 0),
	LB_END(10000, PAIR_LK(1), MUTEX, 2701, 0, ACQ, 0),
	LB_RELEASE(10000, PAIR_LK(1), MUTEX, 2701, 0, 0, 0),
	LB_BEGIN_OWNED(11000, PAIR_LK(2), MUTEX, 2702, 0, FIELD, 2722, 0),
	LB_RELEASE(15000, PAIR_LK(2), MUTEX, 2722, 0, 0, 0),
	LB_END(15000, PAIR_LK(2), MUTEX, 2702, 0, ACQ, 0),
	LB_RELEASE(15000, PAIR_LK(2), MUTEX, 2702, 0, 0, 0),
	LB_BEGIN_OWNED(16000, PAIR_LK(3), MUTEX, 2703, 0, FIELD, 2723, 0),
	LB_RELEASE(20000, PAIR_LK(3), MUTEX, 2723, 0, 0, 0),
	LB_END(20000, PAIR_LK(3), MUTEX, 2703, 0, ACQ, 0),
	LB_RELEASE(20000, PAIR_LK(3), MUTEX, 2703, 0, 0, 0),
	LB_BEGIN_OWNED(21000, PAIR_LK(4), MUTEX, 2704, 0, FIELD, 2724, 0),
	LB_RELEASE(25000, PAIR_LK(4), MUTEX, 2724, 0, 0, 0),
	LB_END(25000, PAIR_LK(4), MUTEX, 2704, 0, ACQ, 0),
	LB_RELEASE(25000, PAIR_LK(4), MUTEX, 2704, 0, 0, 0),
	LB_BEGIN_OWNED(26000, PAIR_LK(5), MUTEX, 2705, 0, FIELD, 2725, 0),
	LB_RELEASE(30000, PAIR_LK(5), MUTEX, 2725, 0, 0, 0),
	LB_END(30000, PAIR_LK(5), MUTEX, 2705, 0, ACQ, 0),
	LB_RELEASE(30000, PAIR_LK(5), MUTEX, 2705, 0, 0, 0),
	LB_BEGIN_OWNED(31000, PAIR_LK(6), MUTEX, 2706, 0, FIELD, 2726, 0),
	LB_RELEASE(31001, PAIR_LK(6), MUTEX, 2726, 0, 0, 0),
	LB_END(31001, PAIR_LK(6), MUTEX, 2706, 0, ACQ, 0),
	LB_RELEASE(31001, PAIR_LK(6), MUTEX, 2706, 0, 0, 0),
	LB_BEGIN_OWNED(31010, PAIR_LK(7), MUTEX, 2707, 0, FIELD, 2727, 0),
	LB_RELEASE(31011, PAIR_LK(7), MUTEX, 2727, 0, 0, 0),
	LB_END(31011, PAIR_LK(7), MUTEX, 2707, 0, ACQ, 0),
	LB_RELEASE(31011, PAIR_LK(7), MUTEX, 2707, 0, 0, 0),
	LB_BEGIN(40000, HOT_LK, FUTEX, 2601, 0), LB_BEGIN(40000, HOT_LK, FUTEX, 2602, 0),
	LB_BEGIN(40000, HOT_LK, FUTEX, 2603, 0),
	LB_RELEASE(41000, HOT_LK, FUTEX, 2600, 0, 0, 1),
	LB_END(41000, HOT_LK, FUTEX, 2601, 0, WOKEN, 0),
	LB_RELEASE(41000, HOT_LK, FUTEX, 2601, 0, 0, 1),
	LB_END(41000, HOT_LK, FUTEX, 2602, 0, WOKEN, 0),
	LB_RELEASE(41000, HOT_LK, FUTEX, 2602, 0, 0, 1),
	LB_END(41000, HOT_LK, FUTEX, 2603, 0, WOKEN, 0),
	LB_RELEASE(41000, HOT_LK, FUTEX, 2603, 0, 0, 0),
	LB_SCN_END
};

/*
 * A herd heavier than the culprit, after it: 16 slots, the culprit's round
 * first, then a holder and 11 waiters on one mutex, 5000 each, filling the
 * table; then two more waiters. The mean is then above the culprit's and
 * the victims' worth, and each newcomer used to evict the least of them. A
 * lock's top causes and victims pin their tasks: the newcomers are refused.
 * Likewise the four pair slots: the herd's pairs, heavier, do not push out
 * the culprit's with its victims, which are between pinned tasks. The ten
 * herd pairs without a slot are dropped once each: a waiter's charges wait
 * in it while its holder stays the same, and go to the table at once.
 */
#define HEAVY_LK		LB_LK(0x2c2)
#define HEAVY_WAIT(t, p)	LB_BEGIN_OWNED(t, HEAVY_LK, MUTEX, p, 0, FIELD, 2800, 0)

static const struct lb_scn_step lb_scn_steps_herd_after_culprit[] = {
	HEAVY_WAIT(3000, 2801), HEAVY_WAIT(3000, 2802), HEAVY_WAIT(3000, 2803),
	HEAVY_WAIT(3000, 2804), HEAVY_WAIT(3000, 2805), HEAVY_WAIT(3000, 2806),
	HEAVY_WAIT(3000, 2807), HEAVY_WAIT(3000, 2808), HEAVY_WAIT(3000, 2809),
	HEAVY_WAIT(3000, 2810), HEAVY_WAIT(3000, 2811),
	HEAVY_WAIT(8000, 2812), HEAVY_WAIT(8000, 2813),
	LB_RELEASE(9000, HEAVY_LK, MUTEX, 2800, 0, 0, 0),
	LB_X_COUNTERS(.dropped_waiters = 2, .dropped_pairs = 10),
	LB_SCN_END
};

static const struct lb_scn_step lb_scn_steps_culprit_amid[] = {
	HERD_WAIT(1000, 2611, 2610), HERD_WAIT(1000, 2612, 2610),
	HERD_WAIT(1000, 2613, 2610), HERD_WAIT(1000, 2614, 2610),
	HERD_WAIT(1000, 2615, 2610), HERD_WAIT(1000, 2616, 2610),
	HERD_WAIT(1000, 2617, 2610),
	HERD_LEAVE(1010, 2610),
	HERD_TAKE(1010, 2611), HERD_LEAVE(1010, 2611),
	HERD_TAKE(1010, 2612), HERD_LEAVE(1010, 2612),
	HERD_TAKE(1010, 2613), HERD_LEAVE(1010, 2613),
	HERD_TAKE(1010, 2614), HERD_LEAVE(1010, 2614),
	HERD_TAKE(1010, 2615), HERD_LEAVE(1010, 2615),
	HERD_TAKE(1010, 2616), HERD_LEAVE(1010, 2616),
	HERD_TAKE(1010, 2617), HERD_LEAVE(1010, 2617),
	LB_BEGIN(10000, HOT_LK, FUTEX, 2601, 0), LB_BEGIN(10000, HOT_LK, FUTEX, 2602, 0),
	LB_BEGIN(10000, HOT_LK, FUTEX, 2603, 0),
	HERD_WAIT(10100, 2619, 2618), HERD_WAIT(10100, 2620, 2618),
	HERD_WAIT(10100, 2621, 2618), HERD_WAIT(10100, 2622, 2618),
	HERD_WAIT(10100, 2623, 2618), HERD_WAIT(10100, 2624, 2618),
	HERD_WAIT(10100, 2625, 2618),
	HERD_LEAVE(10110, 2618),
	HERD_TAKE(10110, 2619), HERD_LEAVE(10110, 2619),
	HERD_TAKE(10110, 2620), HERD_LEAVE(10110, 2620),
	HERD_TAKE(10110, 2621), HERD_LEAVE(10110, 2621),
	HERD_TAKE(10110, 2622), HERD_LEAVE(10110, 2622),
	HERD_TAKE(10110, 2623), HERD_LEAVE(10110, 2623),
	HERD_TAKE(10110, 2624), HERD_LEAVE(10110, 2624),
	HERD_TAKE(10110, 2625), HERD_LEAVE(10110, 2625),
	HERD_WAIT(10200, 2627, 2626), HERD_WAIT(10200, 2628, 2626),
	HERD_WAIT(10200, 2629, 2626), HERD_WAIT(10200, 2630, 2626),
	HERD_WAIT(10200, 2631, 2626), HERD_WAIT(10200, 2632, 2626),
	HERD_WAIT(10200, 2633, 2626),
	HERD_LEAVE(10210, 2626),
	HERD_TAKE(10210, 2627), HERD_LEAVE(10210, 2627),
	HERD_TAKE(10210, 2628), HERD_LEAVE(10210, 2628),
	HERD_TAKE(10210, 2629), HERD_LEAVE(10210, 2629),
	HERD_TAKE(10210, 2630), HERD_LEAVE(10210, 2630),
	HERD_TAKE(10210, 2631), HERD_LEAVE(10210, 2631),
	HERD_TAKE(10210, 2632), HERD_LEAVE(10210, 2632),
	HERD_TAKE(10210, 2633), HERD_LEAVE(10210, 2633),
	LB_RELEASE(11000, HOT_LK, FUTEX, 2600, 0, 0, 1),
	LB_END(11000, HOT_LK, FUTEX, 2601, 0, WOKEN, 0),
	LB_RELEASE(11000, HOT_LK, FUTEX, 2601, 0, 0, 1),
	LB_END(11000, HOT_LK, FUTEX, 2602, 0, WOKEN, 0),
	LB_RELEASE(11000, HOT_LK, FUTEX, 2602, 0, 0, 1),
	LB_END(11000, HOT_LK, FUTEX, 2603, 0, WOKEN, 0),
	LB_RELEASE(11000, HOT_LK, FUTEX, 2603, 0, 0, 0),
	HERD_WAIT(12000, 2635, 2634), HERD_WAIT(12000, 2636, 2634),
	HERD_WAIT(12000, 2637, 2634), HERD_WAIT(12000, 2638, 2634),
	HERD_WAIT(12000, 2639, 2634), HERD_WAIT(12000, 2640, 2634),
	HERD_WAIT(12000, 2641, 2634),
	HERD_LEAVE(12010, 2634),
	HERD_TAKE(12010, 2635), HERD_LEAVE(12010, 2635),
	HERD_TAKE(12010, 2636), HERD_LEAVE(12010, 2636),
	HERD_TAKE(12010, 2637), HERD_LEAVE(12010, 2637),
	HERD_TAKE(12010, 2638), HERD_LEAVE(12010, 2638),
	HERD_TAKE(12010, 2639), HERD_LEAVE(12010, 2639),
	HERD_TAKE(12010, 2640), HERD_LEAVE(12010, 2640),
	HERD_TAKE(12010, 2641), HERD_LEAVE(12010, 2641),
	HERD_WAIT(13000, 2643, 2642), HERD_WAIT(13000, 2644, 2642),
	HERD_WAIT(13000, 2645, 2642), HERD_WAIT(13000, 2646, 2642),
	HERD_WAIT(13000, 2647, 2642), HERD_WAIT(13000, 2648, 2642),
	HERD_WAIT(13000, 2649, 2642),
	HERD_LEAVE(13010, 2642),
	HERD_TAKE(13010, 2643), HERD_LEAVE(13010, 2643),
	HERD_TAKE(13010, 2644), HERD_LEAVE(13010, 2644),
	HERD_TAKE(13010, 2645), HERD_LEAVE(13010, 2645),
	HERD_TAKE(13010, 2646), HERD_LEAVE(13010, 2646),
	HERD_TAKE(13010, 2647), HERD_LEAVE(13010, 2647),
	HERD_TAKE(13010, 2648), HERD_LEAVE(13010, 2648),
	HERD_TAKE(13010, 2649), HERD_LEAVE(13010, 2649),
	LB_SCN_END
};

#undef HERD_LEAVE
#undef HERD_TAKE
#undef HERD_WAIT
#undef HOT_LK
#undef HERD_LK

#undef WAIT_OL
#undef HOLD_OL

/*
 * Chains followed to their ends (issue 26). A chain three deep through
 * futexes, each holder known only by its probable (glibc __owner) holder
 * until it releases: A waits on L1 (probably B's), B on L2 (probably C's),
 * C on L3 (probably D's); D releases L3 at 1000, C L2 at 1200, B L1 at 1500.
 * Each release confirms the guess, so the blame goes down the chain as it
 * was while it accrued:
 *   [0,1000)    L3 1000, and L2's 1000 and L1's 1000 past C and past B, C:
 *               all D's (3000)
 *   [1000,1200) C runs holding L2: L2's 200 and L1's 200 stay with C (400)
 *   [1200,1500) B runs holding L1: 300 stays with B
 * One hop only (before), L1's [0,1200) stopped at C (1400 in all): SHARED.
 */
static const struct lb_scn_task lb_scn_tasks_chain_futex3[] = {
	{ 4201, 4200, "front", false, NULL },
	{ 4202, 4200, "middle1", false, NULL },
	{ 4203, 4200, "middle2", false, NULL },
	{ 4204, 4200, "root", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_chain_futex3[] = {
	LB_BEGIN_OWNED(0, LB_LK(3), FUTEX, 4203, 0, LB_OWNER_HEURISTIC, 4204, 0),
	LB_BEGIN_OWNED(0, LB_LK(2), FUTEX, 4202, 0, LB_OWNER_HEURISTIC, 4203, 0),
	LB_BEGIN_OWNED(0, LB_LK(1), FUTEX, 4201, 0, LB_OWNER_HEURISTIC, 4202, 0),
	LB_RELEASE(1000, LB_LK(3), FUTEX, 4204, 0, 1000, 1),
	LB_END(1000, LB_LK(3), FUTEX, 4203, 0, WOKEN, 100),
	LB_RELEASE(1200, LB_LK(2), FUTEX, 4203, 0, 300, 1),
	LB_END(1200, LB_LK(2), FUTEX, 4202, 0, WOKEN, 100),
	LB_RELEASE(1500, LB_LK(1), FUTEX, 4202, 0, 400, 1),
	LB_END(1500, LB_LK(1), FUTEX, 4201, 0, WOKEN, 100),
	LB_X_VERDICT(4201, .verdict = VICTIM, .root_blame = 0),
	LB_X_TASK(4202, .wait = 1200, .blame = 1500, .root_blame = 300, .hold = 1500,
		  .hold_on_cpu = 0, .verdict = VICTIM),
	LB_X_TASK(4203, .wait = 1000, .blame = 1200, .root_blame = 400, .hold = 1200,
		  .hold_on_cpu = 0, .verdict = VICTIM),
	LB_X_TASK(4204, .wait = 0, .blame = 1000, .root_blame = 3000, .hold = 1000,
		  .hold_on_cpu = 0, .verdict = CAUSE),
	LB_X_TOTALS(.wait = 3700, .blame = 3700, .pending = 0, .unattributed = 0),
	LB_X_PAIR(4202, 4201, .blame = 1500),
	LB_X_DEADLOCKS(.deadlocks = 0),
	LB_SCN_END
};

/*
 * Five deep, the same way: A on L1 (B's), B on L2 (C's), C on L3 (D's),
 * D on L4 (E's), E on L5 (the root R's). R releases L5 at 1000, E L4 at
 * 1100, D L3 at 1200, C L2 at 1300, B L1 at 1400; each confirms its guess.
 *   [0,1000)    five locks' 1000 each reach R: 5000
 *   [1000,1100) E runs: L4..L1, 100 each: 400; then D 300, C 200, B 100
 * Waits: E 1000, D 1100, C 1200, B 1300, A 1400 (6000); blame as waited on
 * their locks: R 1000, E 1100, D 1200, C 1300, B 1400. Every middle task
 * waited over twice its root blame: VICTIMs; R is the CAUSE.
 */
static const struct lb_scn_task lb_scn_tasks_chain_futex5[] = {
	{ 4301, 4300, "front", false, NULL },
	{ 4302, 4300, "middle1", false, NULL },
	{ 4303, 4300, "middle2", false, NULL },
	{ 4304, 4300, "middle3", false, NULL },
	{ 4305, 4300, "middle4", false, NULL },
	{ 4306, 4300, "root", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_chain_futex5[] = {
	LB_BEGIN_OWNED(0, LB_LK(5), FUTEX, 4305, 0, LB_OWNER_HEURISTIC, 4306, 0),
	LB_BEGIN_OWNED(0, LB_LK(4), FUTEX, 4304, 0, LB_OWNER_HEURISTIC, 4305, 0),
	LB_BEGIN_OWNED(0, LB_LK(3), FUTEX, 4303, 0, LB_OWNER_HEURISTIC, 4304, 0),
	LB_BEGIN_OWNED(0, LB_LK(2), FUTEX, 4302, 0, LB_OWNER_HEURISTIC, 4303, 0),
	LB_BEGIN_OWNED(0, LB_LK(1), FUTEX, 4301, 0, LB_OWNER_HEURISTIC, 4302, 0),
	LB_RELEASE(1000, LB_LK(5), FUTEX, 4306, 0, 1000, 1),
	LB_END(1000, LB_LK(5), FUTEX, 4305, 0, WOKEN, 100),
	LB_RELEASE(1100, LB_LK(4), FUTEX, 4305, 0, 200, 1),
	LB_END(1100, LB_LK(4), FUTEX, 4304, 0, WOKEN, 100),
	LB_RELEASE(1200, LB_LK(3), FUTEX, 4304, 0, 200, 1),
	LB_END(1200, LB_LK(3), FUTEX, 4303, 0, WOKEN, 100),
	LB_RELEASE(1300, LB_LK(2), FUTEX, 4303, 0, 200, 1),
	LB_END(1300, LB_LK(2), FUTEX, 4302, 0, WOKEN, 100),
	LB_RELEASE(1400, LB_LK(1), FUTEX, 4302, 0, 200, 1),
	LB_END(1400, LB_LK(1), FUTEX, 4301, 0, WOKEN, 100),
	LB_X_VERDICT(4301, .verdict = VICTIM, .root_blame = 0),
	LB_X_TASK(4302, .wait = 1300, .blame = 1400, .root_blame = 100, .hold = 1400,
		  .hold_on_cpu = 0, .verdict = VICTIM),
	LB_X_TASK(4303, .wait = 1200, .blame = 1300, .root_blame = 200, .hold = 1300,
		  .hold_on_cpu = 0, .verdict = VICTIM),
	LB_X_TASK(4304, .wait = 1100, .blame = 1200, .root_blame = 300, .hold = 1200,
		  .hold_on_cpu = 0, .verdict = VICTIM),
	LB_X_TASK(4305, .wait = 1000, .blame = 1100, .root_blame = 400, .hold = 1100,
		  .hold_on_cpu = 0, .verdict = VICTIM),
	LB_X_TASK(4306, .wait = 0, .blame = 1000, .root_blame = 5000, .hold = 1000,
		  .hold_on_cpu = 0, .verdict = CAUSE),
	LB_X_TOTALS(.wait = 6000, .blame = 6000, .pending = 0, .unattributed = 0),
	LB_X_DEADLOCKS(.deadlocks = 0),
	LB_SCN_END
};

/*
 * A chain whose middle link is a kernel mutex: A waits on futex L1
 * (probably B's), B on mutex L2, whose owner field names C, C on futex L3
 * (probably D's). D releases L3 at 1000, C L2 at 1200, B L1 at 1500.
 *   L2's blame is C's as it accrues; [0,1000) goes on past blocked C, as
 *   a root debt on L3, to L3's releaser D (1000); [1000,1200) is C's (200)
 *   L1's, B's at its release: [0,1000) went on through L2's holder C and
 *   L3 to D (1000), [1000,1200) stops at C, running (200), B keeps 300
 * D: 1000 + 1000 + 1000 = 3000, C 400, B 300: as if all were one kind.
 * One hop only (before), L1's [0,1200) stopped at L2's holder C (1400).
 */
static const struct lb_scn_task lb_scn_tasks_chain_mutex_middle[] = {
	{ 4401, 4400, "front", false, NULL },
	{ 4402, 4400, "middle1", false, NULL },
	{ 4403, 4400, "middle2", false, NULL },
	{ 4404, 4400, "root", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_chain_mutex_middle[] = {
	LB_BEGIN_OWNED(0, LB_LK(3), FUTEX, 4403, 0, LB_OWNER_HEURISTIC, 4404, 0),
	LB_BEGIN_OWNED(0, LB_LK(2), MUTEX, 4402, 0, FIELD, 4403, 0),
	LB_BEGIN_OWNED(0, LB_LK(1), FUTEX, 4401, 0, LB_OWNER_HEURISTIC, 4402, 0),
	LB_RELEASE(1000, LB_LK(3), FUTEX, 4404, 0, 1000, 1),
	LB_END(1000, LB_LK(3), FUTEX, 4403, 0, WOKEN, 100),
	LB_RELEASE(1200, LB_LK(2), MUTEX, 4403, 0, 300, 0),
	LB_END(1200, LB_LK(2), MUTEX, 4402, 0, ACQ, 100),
	LB_RELEASE(1500, LB_LK(1), FUTEX, 4402, 0, 400, 1),
	LB_END(1500, LB_LK(1), FUTEX, 4401, 0, WOKEN, 100),
	LB_X_VERDICT(4401, .verdict = VICTIM, .root_blame = 0),
	LB_X_VERDICT(4402, .verdict = VICTIM, .root_blame = 300),
	LB_X_TASK(4403, .wait = 1000, .blame = 1200, .root_blame = 400, .hold = 1200,
		  .hold_on_cpu = 0, .verdict = VICTIM),
	LB_X_VERDICT(4404, .verdict = CAUSE, .root_blame = 3000),
	LB_X_TOTALS(.wait = 3700, .blame = 3700, .pending = 0, .unattributed = 0),
	LB_X_DEADLOCKS(.deadlocks = 0),
	LB_SCN_END
};

/*
 * A probable holder proved wrong at release, in the middle of a chain: A
 * waits on L1 (probably B's), B on L2 (probably C's), C on L3, whose owner
 * field names W; W waits on L4 (probably R's). But L3 is X's: X releases it
 * at 1000 (C goes on, releases L2 at 1100; B L1 at 1200); R releases L4 at
 * 2000. The chain through L3 ends at X, its releaser: W's guessed chain to
 * R takes nothing.
 *   L3's 1000: X's (its route past W does not apply: X is not W)
 *   L2's [0,1000): past C to L3's releaser X (1000); [1000,1100) C's 100
 *   L1's [0,1000): past B, past C, to X (1000); [1000,1100) C's 100;
 *   [1100,1200) B's 100
 * X 3000, R 2000 (L4), C 200, B 100: 5300, all the waiting.
 * One hop only (before), L1's [0,1100) stopped at C (C 1200, X 2000).
 */
static const struct lb_scn_task lb_scn_tasks_chain_wrong_guess[] = {
	{ 4501, 4500, "front", false, NULL },
	{ 4502, 4500, "middle1", false, NULL },
	{ 4503, 4500, "middle2", false, NULL },
	{ 4504, 4500, "holder", false, NULL },
	{ 4505, 4500, "guessed", false, NULL },
	{ 4506, 4500, "root", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_chain_wrong_guess[] = {
	LB_BEGIN_OWNED(0, LB_LK(4), FUTEX, 4505, 0, LB_OWNER_HEURISTIC, 4506, 0),
	LB_BEGIN_OWNED(0, LB_LK(3), FUTEX, 4503, 0, LB_OWNER_HEURISTIC, 4505, 0),
	LB_BEGIN_OWNED(0, LB_LK(2), FUTEX, 4502, 0, LB_OWNER_HEURISTIC, 4503, 0),
	LB_BEGIN_OWNED(0, LB_LK(1), FUTEX, 4501, 0, LB_OWNER_HEURISTIC, 4502, 0),
	LB_RELEASE(1000, LB_LK(3), FUTEX, 4504, 0, 1000, 1),
	LB_END(1000, LB_LK(3), FUTEX, 4503, 0, WOKEN, 100),
	LB_RELEASE(1100, LB_LK(2), FUTEX, 4503, 0, 200, 1),
	LB_END(1100, LB_LK(2), FUTEX, 4502, 0, WOKEN, 100),
	LB_RELEASE(1200, LB_LK(1), FUTEX, 4502, 0, 200, 1),
	LB_END(1200, LB_LK(1), FUTEX, 4501, 0, WOKEN, 100),
	LB_X_VERDICT(4504, .verdict = CAUSE, .root_blame = 3000),
	LB_X_VERDICT(4505, .verdict = VICTIM, .root_blame = 0),
	LB_RELEASE(2000, LB_LK(4), FUTEX, 4506, 0, 2000, 1),
	LB_END(2000, LB_LK(4), FUTEX, 4505, 0, WOKEN, 100),
	LB_X_VERDICT(4501, .verdict = VICTIM, .root_blame = 0),
	LB_X_TASK(4502, .wait = 1100, .blame = 1200, .root_blame = 100, .hold = 1200,
		  .hold_on_cpu = 0, .verdict = VICTIM),
	LB_X_TASK(4503, .wait = 1000, .blame = 1100, .root_blame = 200, .hold = 1100,
		  .hold_on_cpu = 0, .verdict = VICTIM),
	LB_X_TASK(4504, .wait = 0, .blame = 1000, .root_blame = 3000, .hold = 1000,
		  .hold_on_cpu = 0, .verdict = CAUSE),
	LB_X_TASK(4505, .wait = 2000, .blame = 0, .root_blame = 0, .hold = 0,
		  .hold_on_cpu = 0, .verdict = VICTIM),
	LB_X_VERDICT(4506, .verdict = CAUSE, .root_blame = 2000),
	LB_X_TOTALS(.wait = 5300, .blame = 5300, .pending = 0, .unattributed = 0),
	LB_SCN_END
};

/*
 * A chain whose root's release is committed late (issue 26): A waits on L1
 * (probably B's), B on L2 (probably C's). C lets L2 go at 900 and wakes B,
 * but is preempted inside futex_wake: B runs, returns from its wait (1000),
 * and releases L1 at 1100 before C's release is written. B's release names
 * A's 1100 to B; [0,1000) of it went on past B, blocked on L2, and L2's
 * release (whose waiter B was woken before it: a debt) is still to come.
 * That part waits on L2 as a root debt, and C's late release takes it: C
 * 1000 through the chain and 1000 of its own (B's wait), B keeps 100.
 * Before, B's release ended the chain at B, as if L2 were never released:
 * B kept all 1100, C had only its own 1000.
 */
static const struct lb_scn_task lb_scn_tasks_chain_late_release[] = {
	{ 4601, 4600, "front", false, NULL },
	{ 4602, 4600, "middle", false, NULL },
	{ 4603, 4600, "root", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_chain_late_release[] = {
	LB_BEGIN_OWNED(0, LB_LK(0xd2), FUTEX, 4602, 0, LB_OWNER_HEURISTIC, 4603, 0),
	LB_BEGIN_OWNED(0, LB_LK(0xd1), FUTEX, 4601, 0, LB_OWNER_HEURISTIC, 4602, 0),
	LB_END(1000, LB_LK(0xd2), FUTEX, 4602, 0, WOKEN, 100),
	LB_RELEASE(1100, LB_LK(0xd1), FUTEX, 4602, 0, 200, 1),
	LB_END(1100, LB_LK(0xd1), FUTEX, 4601, 0, WOKEN, 100),
	LB_X_VERDICT(4602, .verdict = VICTIM, .root_blame = 100),
	LB_RELEASE(900, LB_LK(0xd2), FUTEX, 4603, 0, 900, 1),
	LB_X_VERDICT(4601, .verdict = VICTIM, .root_blame = 0),
	LB_X_VERDICT(4602, .verdict = VICTIM, .root_blame = 100),
	LB_X_VERDICT(4603, .verdict = CAUSE, .root_blame = 2000),
	LB_X_CHAIN(LB_LK(0xd1), 4602, LB_LK(0xd2), 4603, .blame = 1000),
	LB_X_TOTALS(.wait = 2100, .blame = 2100, .pending = 0, .unattributed = 0),
	LB_X_COUNTERS(.late = 1, .unmatched = 0, .dropped_waiters = 0, .dropped_pairs = 0,
		      .evicted_locks = 0, .evicted_tasks = 0),
	LB_X_DEADLOCKS(.deadlocks = 0),
	LB_SCN_END
};

/*
 * Scopes (ledger_scopes.c): a GIL. Ticker 3002 enters the acquire function
 * (PyEval_RestoreThread) at 0. Its sleep on the GIL's inner mutex M (word 2)
 * stays a mutex wait, blamed on M's releaser 3003 (50). Its sleep on the
 * condvar C (word 0, an event word) begins the wait on the scope's lock L at
 * 200; the 5 ms timeout and the next sleep are the same wait; meanwhile
 * 3002 lets go of M and wakes C itself (glibc passes on a wake its expired
 * wait may have consumed): neither ends its wait nor releases L. Sorter 3001,
 * which took the GIL unseen, drops it at 8000 and wakes C: it held L, and
 * the 7,800 pending are its. 3002, woken, sleeps again on M while its
 * condvar takes the mutex back (8020..8060): part of its wait on L, not a
 * wait of its own (which would end the wait on L unseen). 3002's function
 * returns at 8100: it has L; its
 * last 100, after the release, had no holder (unattributed). Ticker 3003
 * waits from 9100 on C, whose counter reads 2 now: a word of L's, so still
 * L's (a new burst: 3002 is not assumed to hold still), 3002
 * wakes C at 9600: 500 are 3002's; 3003 returns at 9700 (100 unattributed).
 */
static const struct lb_scn_task lb_scn_tasks_scope_gil[] = {
	{ 3001, 3000, "sorter", false, NULL },
	{ 3002, 3000, "tickerA", false, NULL },
	{ 3003, 3000, "tickerB", false, NULL },
	{ 0 }
};

#define LB_SENTER(_t, _lk, _pid) { LB_EV(LB_EV_SCOPE_ENTER, _t, _lk, LB_LOCK_SCOPE, _pid) }
#define LB_SEXIT(_t, _lk, _pid) { LB_EV(LB_EV_SCOPE_EXIT, _t, _lk, LB_LOCK_SCOPE, _pid) }
#define LB_FRELEASE_W(_t, _lk, _pid, _woken, _w) \
	{ LB_EV(LB_EV_RELEASE, _t, _lk, LB_LOCK_FUTEX, _pid), .flags = LB_EF_WORD, \
	  .count = (_woken), .word = (_w) }
static const struct lb_scn_step lb_scn_steps_scope_gil[] = {
	LB_SENTER(0, LB_LK(0x90), 3002),
	LB_FBEGIN(100, LB_LK(0x92), 3002, 2),
	LB_FRELEASE_W(150, LB_LK(0x92), 3003, 1, 0),
	LB_FEND0(150, 3002, WOKEN, 0),
	LB_FBEGIN(200, LB_LK(0x91), 3002, 0),
	LB_FEND0(5200, 3002, LB_WAIT_TIMEOUT, 0),
	LB_FRELEASE_W(5202, LB_LK(0x92), 3002, 1, 0),
	LB_FRELEASE_W(5204, LB_LK(0x91), 3002, 1, 4),
	LB_FBEGIN(5210, LB_LK(0x91), 3002, 4),
	LB_ADVANCE(5210),
	LB_X_TOTALS(.wait = 5060, .blame = 50, .pending = 5010, .unattributed = 0),
	LB_FRELEASE_W(8000, LB_LK(0x91), 3001, 1, 5),
	LB_FEND0(8010, 3002, WOKEN, 0),
	LB_FBEGIN(8020, LB_LK(0x92), 3002, 2),
	LB_FRELEASE_W(8050, LB_LK(0x92), 3003, 1, 0),
	LB_FEND0(8060, 3002, WOKEN, 0),
	LB_SEXIT(8100, LB_LK(0x90), 3002),
	LB_SENTER(9000, LB_LK(0x90), 3003),
	LB_FBEGIN(9100, LB_LK(0x91), 3003, 2),
	LB_FRELEASE_W(9600, LB_LK(0x91), 3002, 1, 7),
	LB_FEND0(9650, 3003, WOKEN, 0),
	LB_SEXIT(9700, LB_LK(0x90), 3003),
	LB_ADVANCE(9700),
	LB_X_TOTALS(.wait = 8550, .blame = 8350, .pending = 0, .unattributed = 200),
	LB_X_COUNTERS(.late = 0, .unmatched = 0, .dropped_waiters = 0, .dropped_pairs = 0,
		      .evicted_locks = 0, .evicted_tasks = 0),
	LB_X_PAIR(3001, 3002, .blame = 7800),
	LB_X_PAIR(3002, 3003, .blame = 500),
	LB_X_PAIR(3003, 3002, .blame = 50),
	LB_X_VERDICT(3001, .verdict = CAUSE, .root_blame = 7800),
	LB_X_VERDICT(3002, .verdict = VICTIM, .root_blame = 500),
	LB_X_VERDICT(3003, .verdict = VICTIM, .root_blame = 50),
	LB_X_EVENT_TOTALS(.wait = 0, .waits = 0, .errors = 0, .dropped = 0, .asleep = 0,
			  .futex_lock_waits = 1, .futex_counters = 0),
	LB_SCN_END
};

/*
 * Scopes: a lock in the manner of PostgreSQL's LWLocks, a queue where each
 * waiter sleeps on its own semaphore (S2 for 3102, S3 for 3103) and the
 * releaser posts the next one's. 3102 and 3103 enter the acquire function
 * and sleep at 10 and 30; hog 3101 posts S2 at 1000: 990 + 970 are its.
 * 3102 returns at 1020 holding L and posts S3 at 2000: 3103's 980 while
 * 3102 held it are 3102's. Between a post and the return, nobody held L:
 * those 20 + 20 (1000..1020) and 20 (2000..2020) are unattributed, as a
 * mutex's hand-off gap is. Outside the scope the
 * same semaphores are event waits again, and a post nobody waits on the
 * lock for releases nothing. Last, 3103's return from a scope is lost (its
 * wait from 4010 stays open): its next entry, at 5000, ends that wait as
 * an error (990 ns, pending still), and its sleep after the next return is
 * an event wait again.
 */
static const struct lb_scn_task lb_scn_tasks_scope_semq[] = {
	{ 3101, 3100, "hog", false, NULL },
	{ 3102, 3100, "w1", false, NULL },
	{ 3103, 3100, "w2", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_scope_semq[] = {
	LB_SENTER(0, LB_LK(0xa0), 3102),
	LB_FBEGIN(10, LB_LK(0xa2), 3102, 0),
	LB_SENTER(20, LB_LK(0xa0), 3103),
	LB_FBEGIN(30, LB_LK(0xa3), 3103, 0),
	LB_FRELEASE_W(1000, LB_LK(0xa2), 3101, 1, 1),
	LB_FEND0(1010, 3102, WOKEN, 0),
	LB_SEXIT(1020, LB_LK(0xa0), 3102),
	LB_FRELEASE_W(2000, LB_LK(0xa3), 3102, 1, 1),
	LB_FEND0(2010, 3103, WOKEN, 0),
	LB_SEXIT(2020, LB_LK(0xa0), 3103),
	LB_FRELEASE_W(3000, LB_LK(0xa2), 3103, 1, 2),
	LB_FBEGIN(3200, LB_LK(0xa2), 3102, 0),
	LB_FRELEASE_W(3300, LB_LK(0xa2), 3101, 1, 1),
	LB_FEND0(3300, 3102, WOKEN, 0),
	LB_ADVANCE(3300),
	LB_X_TOTALS(.wait = 3000, .blame = 2940, .pending = 0, .unattributed = 60),
	LB_X_PAIR(3101, 3102, .blame = 990),
	LB_X_PAIR(3101, 3103, .blame = 970),
	LB_X_PAIR(3102, 3103, .blame = 980),
	LB_X_VERDICT(3101, .verdict = CAUSE, .root_blame = 1960),
	LB_X_VERDICT(3103, .verdict = VICTIM, .root_blame = 0),
	LB_X_EVENT_TASK(3102, .wait = 100, .waits = 1, .signaller = 3101),
	LB_X_EVENT_TOTALS(.wait = 100, .waits = 1, .errors = 0, .dropped = 0, .asleep = 0,
			  .futex_lock_waits = 0, .futex_counters = 0),
	LB_SENTER(4000, LB_LK(0xa0), 3103),
	LB_FBEGIN(4010, LB_LK(0xa3), 3103, 0),
	LB_SENTER(5000, LB_LK(0xa0), 3103),
	LB_SEXIT(5100, LB_LK(0xa0), 3103),
	LB_FBEGIN(5200, LB_LK(0xa3), 3103, 0),
	LB_FEND0(5300, 3103, WOKEN, 0),
	LB_ADVANCE(5300),
	LB_X_TASK_COUNTS(3103, .waits = 2, .holds = 0, .holds_lower_bound = 0, .errors = 1,
			 .kthread = 0, .tgid = 3100),
	LB_X_TOTALS(.wait = 3990, .blame = 2940, .pending = 990, .unattributed = 60),
	LB_X_EVENT_TASK(3103, .wait = 100, .waits = 1, .signaller = 0),
	LB_SCN_END
};

/*
 * Scopes with a release function (LWLockRelease): its entry ends its
 * caller's hold exactly. The queue of scope_semq: 3602 and 3603 wait for L
 * from 10 and 30. A call by 3604 at 5, before anyone waits, changes
 * nothing. Hog 3601, which took L unseen, calls the release function at
 * 1000: no holder is known and L has waiters, so 990 + 970 are its; its
 * post of S2 at 1005, inside the release function, releases nothing more
 * (it would have made the 5 + 5 after the release its too). 3602 returns
 * at 1020 holding L; a call by 3601 at 1500, while 3602 is the known
 * holder, changes nothing. 3602's call at 2000 ends its hold: 3603's 980
 * are its, and its post at 2002 releases nothing. 3603 holds L from 2020
 * and lets it go at 3000 with nobody waiting: its hold ends (L has no
 * holder, and an uncontended hold is no hold in the counts); its second
 * call at 3100 finds no holder and no waiter, and changes nothing. The
 * hand-off gaps (20 + 20 and 20) are unattributed, as in scope_semq.
 */
static const struct lb_scn_task lb_scn_tasks_scope_release[] = {
	{ 3601, 3600, "hog", false, NULL },
	{ 3602, 3600, "w1", false, NULL },
	{ 3603, 3600, "w2", false, NULL },
	{ 3604, 3600, "other", false, NULL },
	{ 0 }
};

#define LB_SRELEASE(_t, _lk, _pid) { LB_EV(LB_EV_RELEASE, _t, _lk, LB_LOCK_SCOPE, _pid) }
static const struct lb_scn_step lb_scn_steps_scope_release[] = {
	LB_SRELEASE(5, LB_LK(0xe0), 3604),
	LB_SENTER(8, LB_LK(0xe0), 3602),
	LB_FBEGIN(10, LB_LK(0xe2), 3602, 0),
	LB_SENTER(20, LB_LK(0xe0), 3603),
	LB_FBEGIN(30, LB_LK(0xe3), 3603, 0),
	LB_SRELEASE(1000, LB_LK(0xe0), 3601),
	LB_FRELEASE_W(1005, LB_LK(0xe2), 3601, 1, 1),
	LB_FEND0(1010, 3602, WOKEN, 0),
	LB_SEXIT(1020, LB_LK(0xe0), 3602),
	LB_SRELEASE(1500, LB_LK(0xe0), 3601),
	LB_ADVANCE(1500),
	LB_X_LOCK_MORE(LB_LK(0xe0), .pending = 0, .unattributed = 40, .holds = 1,
		       .holds_lower_bound = 1, .holds_at_release = 1, .holders = 1),
	LB_SRELEASE(2000, LB_LK(0xe0), 3602),
	LB_FRELEASE_W(2002, LB_LK(0xe3), 3602, 1, 1),
	LB_FEND0(2010, 3603, WOKEN, 0),
	LB_SEXIT(2020, LB_LK(0xe0), 3603),
	LB_SRELEASE(3000, LB_LK(0xe0), 3603),
	LB_SRELEASE(3100, LB_LK(0xe0), 3603),
	LB_ADVANCE(3100),
	LB_X_TOTALS(.wait = 3000, .blame = 2940, .pending = 0, .unattributed = 60),
	LB_X_COUNTERS(.late = 0, .unmatched = 0, .dropped_waiters = 0, .dropped_pairs = 0,
		      .evicted_locks = 0, .evicted_tasks = 0),
	LB_X_PAIR(3601, 3602, .blame = 990),
	LB_X_PAIR(3601, 3603, .blame = 970),
	LB_X_PAIR(3602, 3603, .blame = 980),
	LB_X_VERDICT(3601, .verdict = CAUSE, .root_blame = 1960),
	LB_X_VERDICT(3602, .verdict = SHARED, .root_blame = 980),
	LB_X_VERDICT(3603, .verdict = VICTIM, .root_blame = 0),
	LB_X_LOCK_MORE(LB_LK(0xe0), .pending = 0, .unattributed = 60, .holds = 2,
		       .holds_lower_bound = 1, .holds_at_release = 1, .holders = 0),
	LB_X_NO_TASK(3604),
	LB_SCN_END
};

/*
 * CPython's GIL switched between two CPU-bound threads (the eval loop's
 * drop request), with drop_gil as the scope's release function. L is the
 * GIL, C the condvar's word, M the mutex that guards it. 3702 holds L
 * unseen. 3701 enters take_gil at 0 and sleeps on C at 10: its wait on L
 * begins. Its 5 ms timed wait expires at 5010 and it takes M back (a sleep
 * at 5020, part of its wait). 3702's drop_gil at 5030 releases L (no
 * holder known, L has waiters): 5020 are 3702's. 3702 lets M go (a wake
 * of a word that is not L's), 3701 returns at 5050 holding L: the 20
 * after the release are unattributed. 3702 waits in turn from 5070; 3701's
 * drop_gil at 10070, the known holder's, makes 5000 its; its signal of C
 * at 10072 releases nothing more. No wake of C ended 3701's wait: without
 * the release function, all 5040 of it would be unattributed.
 */
static const struct lb_scn_task lb_scn_tasks_scope_gil_switch[] = {
	{ 3701, 3700, "spinA", false, NULL },
	{ 3702, 3700, "spinB", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_scope_gil_switch[] = {
	LB_SENTER(0, LB_LK(0xf0), 3701),
	LB_FBEGIN(10, LB_LK(0xf1), 3701, 0),
	LB_FEND0(5010, 3701, LB_WAIT_TIMEOUT, 0),
	LB_FBEGIN(5020, LB_LK(0xf2), 3701, 2),
	LB_SRELEASE(5030, LB_LK(0xf0), 3702),
	LB_FRELEASE_W(5035, LB_LK(0xf2), 3702, 1, 0),
	LB_FEND0(5040, 3701, WOKEN, 0),
	LB_SEXIT(5050, LB_LK(0xf0), 3701),
	LB_ADVANCE(5050),
	LB_X_LOCK_MORE(LB_LK(0xf0), .pending = 0, .unattributed = 20, .holds = 1,
		       .holds_lower_bound = 1, .holds_at_release = 1, .holders = 1),
	LB_SENTER(5060, LB_LK(0xf0), 3702),
	LB_FBEGIN(5070, LB_LK(0xf1), 3702, 0),
	LB_SRELEASE(10070, LB_LK(0xf0), 3701),
	LB_FRELEASE_W(10072, LB_LK(0xf1), 3701, 1, 2),
	LB_FEND0(10080, 3702, WOKEN, 0),
	LB_SEXIT(10090, LB_LK(0xf0), 3702),
	LB_ADVANCE(10090),
	LB_X_TOTALS(.wait = 10060, .blame = 10020, .pending = 0, .unattributed = 40),
	LB_X_COUNTERS(.late = 0, .unmatched = 0, .dropped_waiters = 0, .dropped_pairs = 0,
		      .evicted_locks = 0, .evicted_tasks = 0),
	LB_X_PAIR(3702, 3701, .blame = 5020),
	LB_X_PAIR(3701, 3702, .blame = 5000),
	LB_X_VERDICT(3701, .verdict = SHARED, .root_blame = 5000),
	LB_X_VERDICT(3702, .verdict = SHARED, .root_blame = 5020),
	LB_X_EVENT_TOTALS(.wait = 0, .waits = 0, .errors = 0, .dropped = 0, .asleep = 0,
			  .futex_lock_waits = 0, .futex_counters = 0),
	LB_SCN_END
};

/*
 * Two LWLock-like scope locks, S1 held by 3201 and S2 by 3202, whose
 * waiters' semaphore words hash to one slot of the ledger's word table
 * (LB_LK(0x304) and LB_LK(0x394): slot 44 of 256). 3203 sleeps on its word
 * for S1 at 10, 3204 on its own for S2 at 30; 3201 posts 3203's at 1000,
 * 3202 posts 3204's at 2000. Each post releases its lock and names its
 * holder: 990 and 1970, the hand-off gaps (20 each) unattributed. With
 * one slot per hash, 3204's word took 3203's slot, 3201's post released
 * nothing, and 3203's 990 went unattributed (semq-two, a 6.1 lane).
 */
static const struct lb_scn_task lb_scn_tasks_scope_words[] = {
	{ 3201, 3200, "hog1", false, NULL },
	{ 3202, 3200, "hog2", false, NULL },
	{ 3203, 3200, "w1", false, NULL },
	{ 3204, 3200, "w2", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_scope_words[] = {
	LB_SENTER(0, LB_LK(0x3a0), 3203),
	LB_FBEGIN(10, LB_LK(0x304), 3203, 0),
	LB_SENTER(20, LB_LK(0x3a1), 3204),
	LB_FBEGIN(30, LB_LK(0x394), 3204, 0),
	LB_FRELEASE_W(1000, LB_LK(0x304), 3201, 1, 1),
	LB_FEND0(1010, 3203, WOKEN, 0),
	LB_SEXIT(1020, LB_LK(0x3a0), 3203),
	LB_FRELEASE_W(2000, LB_LK(0x394), 3202, 1, 1),
	LB_FEND0(2010, 3204, WOKEN, 0),
	LB_SEXIT(2020, LB_LK(0x3a1), 3204),
	LB_ADVANCE(2020),
	LB_X_TOTALS(.wait = 3000, .blame = 2960, .pending = 0, .unattributed = 40),
	LB_X_PAIR(3201, 3203, .blame = 990),
	LB_X_PAIR(3202, 3204, .blame = 1970),
	LB_X_VERDICT(3201, .verdict = CAUSE, .root_blame = 990),
	LB_X_VERDICT(3202, .verdict = CAUSE, .root_blame = 1970),
	LB_SCN_END
};

/*
 * A span scope (LB_EF_SPAN): PostgreSQL's ProcSleep, whose backends wait
 * for a row's updater on a latch (epoll and a signal: no futex), one lock
 * L in every backend (shared). Backends 3302 and 3303 enter at 100 and
 * 200: each call is a wait on L. 3302's deadlock check takes an LWLock
 * (an inner scope, 1000..1120) and sleeps on its semaphore; 3305's post
 * wakes it at 1100 (the futex's release, then the scheduler's wake): that
 * wake is the inner sleep's, not a release of L. Updater 3301 commits at
 * 2000 and wakes both (2000, 2001): each wake is a release, so it held L
 * until 2001, and their 1901 + 1801 are its. 3302 takes its partition
 * LWLock back (2010..2015, inside the wait) and returns at 2020: it has
 * L, and 3303's last 10 are its (a scope's lock is exclusive; a row's
 * updater's lock that both waiters share is not, which the kernel cannot
 * tell). The 19 + 19 between the release and 3302's return had no holder.
 * A wake of 3302 outside ProcSleep, at 3000, is nothing. Last, 3303
 * leaves a span by a longjmp (an error out of ProcSleep, 4000..5000, from
 * inside an inner scope entered at 4500, whose return is lost too): the
 * module sees it at its next scope entry and records the span's end as an
 * error first. The LWLock it then takes is a wait of its own, on M (100,
 * 3301's), not part of the span's; nor is the wake at 5100 a release.
 */
static const struct lb_scn_task lb_scn_tasks_scope_span[] = {
	{ 3301, 3301, "updater", false, NULL },
	{ 3302, 3302, "backendA", false, NULL },
	{ 3303, 3303, "backendB", false, NULL },
	{ 3305, 3305, "lwreleaser", false, NULL },
	{ 0 }
};

#define LB_SPAN(_t, _lk, _pid) { LB_EV(LB_EV_SCOPE_ENTER, _t, _lk, LB_LOCK_SCOPE, _pid), \
				 .flags = LB_EF_SPAN | LB_EF_SHARED_KEY }
#define LB_SWAKE(_t, _pid, _woken) { LB_EV(LB_EV_SCOPE_WAKE, _t, 0, LB_LOCK_SCOPE, _pid), \
				     .owner = (_woken) }
static const struct lb_scn_step lb_scn_steps_scope_span[] = {
	LB_SPAN(100, LB_LK(0xb0), 3302),
	LB_SPAN(200, LB_LK(0xb0), 3303),
	LB_SENTER(1000, LB_LK(0xb8), 3302),
	LB_FBEGIN(1010, LB_LK(0xb9), 3302, 0),
	LB_FRELEASE_W(1100, LB_LK(0xb9), 3305, 1, 1),
	LB_SWAKE(1101, 3305, 3302),
	LB_FEND0(1110, 3302, WOKEN, 0),
	LB_SEXIT(1120, LB_LK(0xb8), 3302),
	LB_ADVANCE(1500),
	LB_X_TOTALS(.wait = 2700, .blame = 0, .pending = 2700, .unattributed = 0),
	LB_SWAKE(2000, 3301, 3302),
	LB_SWAKE(2001, 3301, 3303),
	LB_SENTER(2010, LB_LK(0xb8), 3302),
	LB_SEXIT(2015, LB_LK(0xb8), 3302),
	LB_SEXIT(2020, LB_LK(0xb0), 3302),
	LB_SEXIT(2030, LB_LK(0xb0), 3303),
	LB_SWAKE(3000, 3301, 3302),
	LB_ADVANCE(3000),
	LB_X_TOTALS(.wait = 3750, .blame = 3712, .pending = 0, .unattributed = 38),
	LB_X_COUNTERS(.late = 0, .unmatched = 0, .dropped_waiters = 0, .dropped_pairs = 0,
		      .evicted_locks = 0, .evicted_tasks = 0),
	LB_X_PAIR(3301, 3302, .blame = 1901),
	LB_X_PAIR(3301, 3303, .blame = 1801),
	LB_X_PAIR(3302, 3303, .blame = 10),
	LB_X_PAIR(3305, 3302, .blame = 0),
	LB_X_VERDICT(3301, .verdict = CAUSE, .root_blame = 3702),
	LB_X_VERDICT(3302, .verdict = VICTIM, .root_blame = 10),
	LB_X_VERDICT(3303, .verdict = VICTIM, .root_blame = 0),
	LB_X_TASK_COUNTS(3302, .waits = 1, .holds = 1, .holds_lower_bound = 0, .errors = 0,
			 .kthread = 0, .tgid = 3302),
	LB_X_EVENT_TOTALS(.wait = 0, .waits = 0, .errors = 0, .dropped = 0, .asleep = 0,
			  .futex_lock_waits = 0, .futex_counters = 0),
	LB_SPAN(4000, LB_LK(0xb1), 3303),
	LB_SENTER(4500, LB_LK(0xb8), 3303),
	{ LB_EV(LB_EV_SCOPE_EXIT, 5000, LB_LK(0xb0), LB_LOCK_SCOPE, 3303),
	  .result = LB_WAIT_ERROR },
	LB_SENTER(5000, LB_LK(0xb8), 3303),
	LB_SWAKE(5100, 3301, 3303),
	LB_FBEGIN(5200, LB_LK(0xba), 3303, 2),
	LB_FRELEASE_W(5300, LB_LK(0xba), 3301, 1, 0),
	LB_FEND0(5300, 3303, WOKEN, 0),
	LB_SEXIT(5400, LB_LK(0xb8), 3303),
	LB_ADVANCE(5400),
	LB_X_TASK_COUNTS(3303, .waits = 3, .holds = 0, .holds_lower_bound = 0, .errors = 1,
			 .kthread = 0, .tgid = 3303),
	LB_X_TOTALS(.wait = 4850, .blame = 3812, .pending = 1000, .unattributed = 38),
	LB_SCN_END
};

/*
 * span_chain: root blame named late goes on past a releaser that waited.
 * Row locks in the manner of PostgreSQL's: each transaction's lock (X,
 * 3402's; Y, 3401's) is held unseen, and a backend waits for one in a span
 * scope. 3402 waits for Y from 100; 3403 waits for X from 150. 3401 commits
 * at 1100 (its wake releases Y) and 3402 returns at 1110; 3402 commits at
 * 1500 and 3403 returns at 1510. 3403's 1350 of waiting is named to 3402 at
 * 1500, its holder, as blame; but for 960 of it (150..1110) 3402 was itself
 * waiting for 3401, so that root blame is 3401's: 3402 keeps 390 and is a
 * victim (1010 waited), not shared. The 10 + 10 after each wake, before
 * the waiter returns, have no holder.
 */
static const struct lb_scn_task lb_scn_tasks_span_chain[] = {
	{ 3401, 3401, "slowtx", false, NULL },
	{ 3402, 3402, "middle", false, NULL },
	{ 3403, 3403, "waiter", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_span_chain[] = {
	LB_SPAN(100, LB_LK(0xc1), 3402),
	LB_SPAN(150, LB_LK(0xc0), 3403),
	LB_SWAKE(1100, 3401, 3402),
	LB_SEXIT(1110, LB_LK(0xc1), 3402),
	LB_SWAKE(1500, 3402, 3403),
	LB_SEXIT(1510, LB_LK(0xc0), 3403),
	LB_ADVANCE(2000),
	LB_X_TOTALS(.wait = 2370, .blame = 2350, .pending = 0, .unattributed = 20),
	LB_X_PAIR(3401, 3402, .blame = 1000),
	LB_X_PAIR(3402, 3403, .blame = 1350),
	LB_X_VERDICT(3401, .verdict = CAUSE, .root_blame = 1960),
	LB_X_VERDICT(3402, .verdict = VICTIM, .root_blame = 390),
	LB_X_VERDICT(3403, .verdict = VICTIM, .root_blame = 0),
	LB_SCN_END
};

/*
 * span_debt: span_chain with a chain into its row lock: root blame that
 * reached the row lock as a debt (its holder unknown) goes on past its
 * releaser's own wait too. 3404 waits from 200 on a kernel mutex Z, whose
 * owner 3403 waits in a span for X (3402's) from 150; 3403 returns at
 * 1510 and lets Z go at 1600, 3404 returning at 1610. The 1300 of 3404's
 * waiting from 200 to 1500 flows past 3403 to X, whose holder is not
 * known: a debt, settled at 1500 when 3402's release names it. 3402 held
 * X from 150 (the pending waiting's start) to 1500, and waited for Y
 * (3401's) from 100 to 1110: 960 of those 1350, so 924 of the debt (1300
 * x 960 / 1350) goes on to 3401, 376 stays 3402's, each with a chain
 * record. The 10 from 1500 to 1510 (X changing hands) goes back to 3403,
 * with its own 90 from 1510 to 1600. Before this, all 1300 were 3402's:
 * 1690 of root blame against its 1010 waited.
 */
static const struct lb_scn_task lb_scn_tasks_span_debt[] = {
	{ 3401, 3401, "slowtx", false, NULL },
	{ 3402, 3402, "middle", false, NULL },
	{ 3403, 3403, "waiter", false, NULL },
	{ 3404, 3404, "mutexwaiter", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_span_debt[] = {
	LB_SPAN(100, LB_LK(0xc1), 3402),
	LB_SPAN(150, LB_LK(0xc0), 3403),
	LB_BEGIN_OWNED(200, LB_LK(0xc6), MUTEX, 3404, 0, FIELD, 3403, 0),
	LB_SWAKE(1100, 3401, 3402),
	LB_SEXIT(1110, LB_LK(0xc1), 3402),
	LB_SWAKE(1500, 3402, 3403),
	LB_SEXIT(1510, LB_LK(0xc0), 3403),
	LB_RELEASE(1600, LB_LK(0xc6), MUTEX, 3403, 0, 0, 1),
	LB_END(1610, LB_LK(0xc6), MUTEX, 3404, 0, ACQ, 0),
	LB_ADVANCE(2000),
	LB_X_TOTALS(.wait = 3780, .blame = 3750, .pending = 0, .unattributed = 30),
	LB_X_PAIR(3401, 3402, .blame = 1000),
	LB_X_PAIR(3402, 3403, .blame = 1350),
	LB_X_PAIR(3403, 3404, .blame = 1400),
	LB_X_CHAIN(LB_LK(0xc6), 3403, LB_LK(0xc0), 3401, .blame = 924),
	LB_X_CHAIN(LB_LK(0xc6), 3403, LB_LK(0xc0), 3402, .blame = 376),
	LB_X_VERDICT(3401, .verdict = CAUSE, .root_blame = 2884),
	LB_X_VERDICT(3402, .verdict = SHARED, .root_blame = 766),
	LB_X_VERDICT(3403, .verdict = VICTIM, .root_blame = 100),
	LB_X_VERDICT(3404, .verdict = VICTIM, .root_blame = 0),
	LB_SCN_END
};

/*
 * span_split: root blame named late is shared among where the time went.
 * 3504 waits from 50 for H (3503's) and 3505 from 80 for R (3504's), in
 * span scopes. 3503 meanwhile waits for A (3501's) from 100, woken at 500,
 * and for B (3502's) from 600, woken at 1000; each waiter returns 10 after
 * its wake (no holder). At 1100 3503's wake names H's 1050 pending to it:
 * 410 of that while it waited for A goes to 3501, 410 to 3502, it keeps
 * 230. At 1200 3504's wake names R's 1120 to 3504, which waited for H from
 * 80 to 1110 (1030): of that, while 3503 itself waited, 410 goes on to
 * 3501 and 410 to 3502, and 210 is 3503's; 3504 keeps 90. Before, that
 * 1030 went to 3503 whole: neither of its waits was more than half of it.
 */
static const struct lb_scn_task lb_scn_tasks_span_split[] = {
	{ 3501, 3501, "slowA", false, NULL },
	{ 3502, 3502, "slowB", false, NULL },
	{ 3503, 3503, "middle", false, NULL },
	{ 3504, 3504, "releaser", false, NULL },
	{ 3505, 3505, "waiter", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_span_split[] = {
	LB_SPAN(50, LB_LK(0xd3), 3504),
	LB_SPAN(80, LB_LK(0xd4), 3505),
	LB_SPAN(100, LB_LK(0xd1), 3503),
	LB_SWAKE(500, 3501, 3503),
	LB_SEXIT(510, LB_LK(0xd1), 3503),
	LB_SPAN(600, LB_LK(0xd2), 3503),
	LB_SWAKE(1000, 3502, 3503),
	LB_SEXIT(1010, LB_LK(0xd2), 3503),
	LB_SWAKE(1100, 3503, 3504),
	LB_SEXIT(1110, LB_LK(0xd3), 3504),
	LB_SWAKE(1200, 3504, 3505),
	LB_SEXIT(1210, LB_LK(0xd4), 3505),
	LB_ADVANCE(2000),
	LB_X_TOTALS(.wait = 3010, .blame = 2970, .pending = 0, .unattributed = 40),
	LB_X_PAIR(3501, 3503, .blame = 400),
	LB_X_PAIR(3502, 3503, .blame = 400),
	LB_X_PAIR(3503, 3504, .blame = 1050),
	LB_X_PAIR(3504, 3505, .blame = 1120),
	LB_X_CHAIN(LB_LK(0xd4), 3504, LB_LK(0xd3), 3501, .blame = 410),
	LB_X_CHAIN(LB_LK(0xd4), 3504, LB_LK(0xd3), 3502, .blame = 410),
	LB_X_CHAIN(LB_LK(0xd4), 3504, LB_LK(0xd3), 3503, .blame = 210),
	LB_X_CHAIN(LB_LK(0xd3), 3503, LB_LK(0xd1), 3501, .blame = 410),
	LB_X_CHAIN(LB_LK(0xd3), 3503, LB_LK(0xd2), 3502, .blame = 410),
	LB_X_VERDICT(3501, .verdict = CAUSE, .root_blame = 1220),
	LB_X_VERDICT(3502, .verdict = CAUSE, .root_blame = 1220),
	LB_X_VERDICT(3503, .verdict = SHARED, .root_blame = 440),
	LB_X_VERDICT(3504, .verdict = VICTIM, .root_blame = 90),
	LB_X_VERDICT(3505, .verdict = VICTIM, .root_blame = 0),
	LB_SCN_END
};

/*
 * fold_settled: span_chain (its steps, run first) and twice more on new
 * locks each time, with room for 2 locks and so 2 chain records. Each new lock takes the place
 * of the least recently used, which is settled (no holder, nothing
 * pending): it is folded, and its chain records name lock 0 instead, added
 * up. Four locks are folded, none evicted, no chain record is dropped, and
 * the blame is the same as with room: 3 x span_chain's. Without folding,
 * the third pair's chain record finds no room.
 */
static const struct lb_scn_step lb_scn_steps_fold_settled[] = {
	LB_SPAN(3100, LB_LK(0xc3), 3402),
	LB_SPAN(3150, LB_LK(0xc2), 3403),
	LB_SWAKE(4100, 3401, 3402),
	LB_SEXIT(4110, LB_LK(0xc3), 3402),
	LB_SWAKE(4500, 3402, 3403),
	LB_SEXIT(4510, LB_LK(0xc2), 3403),
	LB_SPAN(6100, LB_LK(0xc5), 3402),
	LB_SPAN(6150, LB_LK(0xc4), 3403),
	LB_SWAKE(7100, 3401, 3402),
	LB_SEXIT(7110, LB_LK(0xc5), 3402),
	LB_SWAKE(7500, 3402, 3403),
	LB_SEXIT(7510, LB_LK(0xc4), 3403),
	LB_ADVANCE(8000),
	LB_X_TOTALS(.wait = 7110, .blame = 7050, .pending = 0, .unattributed = 60),
	LB_X_COUNTERS(.late = 0, .unmatched = 0, .dropped_waiters = 0, .dropped_pairs = 0,
		      .evicted_locks = 0, .evicted_tasks = 0),
	LB_X_COUNTERS2(.invalid = 0, .dropped_holders = 0, .dropped_chains = 0, .window = 7900),
	LB_X_FOLDED(.locks = 4, .wait = 4740, .blame = 4700, .chains = 2),
	LB_X_NO_LOCK(LB_LK(0xc0)),
	LB_X_CHAIN(0, 3402, 0, 3401, .blame = 1920),
	LB_X_CHAIN(LB_LK(0xc4), 3402, LB_LK(0xc5), 3401, .blame = 960),
	LB_X_PAIR(3402, 3403, .blame = 4050),
	LB_X_VERDICT(3401, .verdict = CAUSE, .root_blame = 5880),
	LB_X_VERDICT(3402, .verdict = VICTIM, .root_blame = 1170),
	LB_SCN_END
};

/*
 * fold_holders: span_chain nine times, each with its own middle and
 * waiter, all on transaction 3501's locks, with room for 8 locks and 8
 * chain records. The ninth record finds the table full of records whose
 * locks nobody waits on, each with its own holder: giving the locks up
 * frees nothing, so they give their holders up too and add up to one
 * record per root, (0, pid 0, 0, 3501) with 8 x 960. Nothing is dropped,
 * and the root blame through chains stays whole (9 x 960). Ten locks are
 * folded, the least waited on of the oldest each time: eight locks the
 * middles waited on (1010 each, 1000 blamed) and two the waiters did
 * (1360, 1350 blamed).
 */
static const struct lb_scn_task lb_scn_tasks_fold_holders[] = {
	{ 3501, 3501, "slowtx", false, NULL },
	{ 3511, 3511, "middle1", false, NULL },
	{ 3512, 3512, "middle2", false, NULL },
	{ 3513, 3513, "middle3", false, NULL },
	{ 3514, 3514, "middle4", false, NULL },
	{ 3515, 3515, "middle5", false, NULL },
	{ 3516, 3516, "middle6", false, NULL },
	{ 3517, 3517, "middle7", false, NULL },
	{ 3518, 3518, "middle8", false, NULL },
	{ 3519, 3519, "middle9", false, NULL },
	{ 3521, 3521, "waiter1", false, NULL },
	{ 3522, 3522, "waiter2", false, NULL },
	{ 3523, 3523, "waiter3", false, NULL },
	{ 3524, 3524, "waiter4", false, NULL },
	{ 3525, 3525, "waiter5", false, NULL },
	{ 3526, 3526, "waiter6", false, NULL },
	{ 3527, 3527, "waiter7", false, NULL },
	{ 3528, 3528, "waiter8", false, NULL },
	{ 3529, 3529, "waiter9", false, NULL },
	{ 0 }
};

static const struct lb_scn_step lb_scn_steps_fold_holders[] = {
	LB_SPAN(100, LB_LK(0xd1), 3511),
	LB_SPAN(150, LB_LK(0xd0), 3521),
	LB_SWAKE(1100, 3501, 3511),
	LB_SEXIT(1110, LB_LK(0xd1), 3511),
	LB_SWAKE(1500, 3511, 3521),
	LB_SEXIT(1510, LB_LK(0xd0), 3521),
	LB_SPAN(3100, LB_LK(0xd3), 3512),
	LB_SPAN(3150, LB_LK(0xd2), 3522),
	LB_SWAKE(4100, 3501, 3512),
	LB_SEXIT(4110, LB_LK(0xd3), 3512),
	LB_SWAKE(4500, 3512, 3522),
	LB_SEXIT(4510, LB_LK(0xd2), 3522),
	LB_SPAN(6100, LB_LK(0xd5), 3513),
	LB_SPAN(6150, LB_LK(0xd4), 3523),
	LB_SWAKE(7100, 3501, 3513),
	LB_SEXIT(7110, LB_LK(0xd5), 3513),
	LB_SWAKE(7500, 3513, 3523),
	LB_SEXIT(7510, LB_LK(0xd4), 3523),
	LB_SPAN(9100, LB_LK(0xd7), 3514),
	LB_SPAN(9150, LB_LK(0xd6), 3524),
	LB_SWAKE(10100, 3501, 3514),
	LB_SEXIT(10110, LB_LK(0xd7), 3514),
	LB_SWAKE(10500, 3514, 3524),
	LB_SEXIT(10510, LB_LK(0xd6), 3524),
	LB_SPAN(12100, LB_LK(0xd9), 3515),
	LB_SPAN(12150, LB_LK(0xd8), 3525),
	LB_SWAKE(13100, 3501, 3515),
	LB_SEXIT(13110, LB_LK(0xd9), 3515),
	LB_SWAKE(13500, 3515, 3525),
	LB_SEXIT(13510, LB_LK(0xd8), 3525),
	LB_SPAN(15100, LB_LK(0xdb), 3516),
	LB_SPAN(15150, LB_LK(0xda), 3526),
	LB_SWAKE(16100, 3501, 3516),
	LB_SEXIT(16110, LB_LK(0xdb), 3516),
	LB_SWAKE(16500, 3516, 3526),
	LB_SEXIT(16510, LB_LK(0xda), 3526),
	LB_SPAN(18100, LB_LK(0xdd), 3517),
	LB_SPAN(18150, LB_LK(0xdc), 3527),
	LB_SWAKE(19100, 3501, 3517),
	LB_SEXIT(19110, LB_LK(0xdd), 3517),
	LB_SWAKE(19500, 3517, 3527),
	LB_SEXIT(19510, LB_LK(0xdc), 3527),
	LB_SPAN(21100, LB_LK(0xdf), 3518),
	LB_SPAN(21150, LB_LK(0xde), 3528),
	LB_SWAKE(22100, 3501, 3518),
	LB_SEXIT(22110, LB_LK(0xdf), 3518),
	LB_SWAKE(22500, 3518, 3528),
	LB_SEXIT(22510, LB_LK(0xde), 3528),
	LB_SPAN(24100, LB_LK(0xe1), 3519),
	LB_SPAN(24150, LB_LK(0xe0), 3529),
	LB_SWAKE(25100, 3501, 3519),
	LB_SEXIT(25110, LB_LK(0xe1), 3519),
	LB_SWAKE(25500, 3519, 3529),
	LB_SEXIT(25510, LB_LK(0xe0), 3529),
	LB_ADVANCE(27000),
	LB_X_TOTALS(.wait = 21330, .blame = 21150, .pending = 0, .unattributed = 180),
	LB_X_COUNTERS2(.invalid = 0, .dropped_holders = 0, .dropped_chains = 0, .window = 26900),
	LB_X_FOLDED(.locks = 10, .wait = 10800, .blame = 10700, .chains = 2),
	LB_X_CHAIN(0, 0, 0, 3501, .blame = 7680),
	LB_X_CHAIN(LB_LK(0xe0), 3519, LB_LK(0xe1), 3501, .blame = 960),
	LB_X_VERDICT(3501, .verdict = CAUSE, .root_blame = 17640),
	LB_X_VERDICT(3511, .verdict = VICTIM, .root_blame = 390),
	LB_SCN_END
};

#undef LB_SRELEASE
#undef LB_SWAKE
#undef LB_SPAN
#undef LB_FRELEASE_W
#undef LB_SEXIT
#undef LB_SENTER

#undef FUTEX
#undef MUTEX

#undef RWSEM
#undef ACQ
#undef WOKEN
#undef FIELD
#undef CAUSE
#undef VICTIM

#undef SHARED
#undef NONE

/* A scenario named @n, its tasks and steps, and ledger limits (none: defaults). */
#define LB_SCENARIO(n, ...) { .name = #n, .limits = { __VA_ARGS__ }, \
			      .tasks = lb_scn_tasks_##n, .steps = lb_scn_steps_##n }

const struct lb_scenario lb_scenarios[LB_SCN_COUNT] = {
	[LB_SCN_ON_CPU] = LB_SCENARIO(on_cpu),
	[LB_SCN_OFF_CPU] = { .name = "off_cpu", .tasks = lb_scn_tasks_on_cpu,
			     .steps = lb_scn_steps_off_cpu },
	[LB_SCN_EQUAL_WAITS] = LB_SCENARIO(equal_waits),
	[LB_SCN_SHORT_LIVED] = LB_SCENARIO(short_lived, .max_tasks = 4),
	[LB_SCN_SHARED_FUTEX] = LB_SCENARIO(shared_futex),
	[LB_SCN_CHAIN] = LB_SCENARIO(chain),
	[LB_SCN_ALTERNATING] = LB_SCENARIO(alternating),
	[LB_SCN_KTHREAD] = LB_SCENARIO(kthread),
	[LB_SCN_DEADLOCK] = LB_SCENARIO(deadlock),
	[LB_SCN_DEADLOCK3] = LB_SCENARIO(deadlock3),
	[LB_SCN_KNOWN_AT_RELEASE] = LB_SCENARIO(known_at_release),
	[LB_SCN_RWSEM] = LB_SCENARIO(rwsem),
	[LB_SCN_OVERFLOW] = LB_SCENARIO(overflow, .max_locks = 2, .max_tasks = 6,
					 .max_waiters = 2, .max_pairs = 2, .max_chain_depth = 4),
	[LB_SCN_LATE] = LB_SCENARIO(late),
	[LB_SCN_ERRORS] = LB_SCENARIO(errors),
	[LB_SCN_WAKE_FIRST] = LB_SCENARIO(wake_first),
	[LB_SCN_RELEASE_BEHIND] = LB_SCENARIO(release_behind),
	[LB_SCN_WAKES_STOLEN] = LB_SCENARIO(wakes_stolen),
	[LB_SCN_RELEASE_LATE_TWO] = LB_SCENARIO(release_late_two),
	[LB_SCN_THREAD_EXIT] = LB_SCENARIO(thread_exit),
	[LB_SCN_FUTEX_COUNTER] = LB_SCENARIO(futex_counter),
	[LB_SCN_MANY_READERS] = LB_SCENARIO(many_readers),
	[LB_SCN_STACKS] = { .name = "stacks", .tasks = lb_scn_tasks_on_cpu,
			    .steps = lb_scn_steps_stacks },
	[LB_SCN_CHAIN_FUTEX] = { .name = "chain_futex", .tasks = lb_scn_tasks_chain,
				 .steps = lb_scn_steps_chain_futex },
	[LB_SCN_CHAIN_USERSPACE] = { .name = "chain_userspace", .tasks = lb_scn_tasks_chain,
				     .steps = lb_scn_steps_chain_userspace },
	[LB_SCN_CHAIN3] = LB_SCENARIO(chain3),
	[LB_SCN_MIDDLE_WORKS] = LB_SCENARIO(middle_works),
	[LB_SCN_MIDDLE_SOME_WORK] = { .name = "middle_some_work",
				      .tasks = lb_scn_tasks_middle_works,
				      .steps = lb_scn_steps_middle_some_work },
	[LB_SCN_POOL] = { .name = "pool", .tasks = lb_scn_tasks_pool,
			   .prologue = lb_scn_steps_pool_events, .steps = lb_scn_steps_pool },
	[LB_SCN_POOL_KINDS_OFF] = { .name = "pool_kinds_off", .tasks = lb_scn_tasks_pool,
				    .prologue = lb_scn_steps_pool_events,
				    .steps = lb_scn_steps_pool_kinds_off, .kinds_off = true },
	[LB_SCN_PARKED] = LB_SCENARIO(parked, .max_sleepers = 8),
	[LB_SCN_SELF_PENDING] = LB_SCENARIO(self_pending),
	[LB_SCN_CONTENDED_PART] = LB_SCENARIO(contended_part),
	[LB_SCN_HOLD_SPLIT] = LB_SCENARIO(hold_split),
	[LB_SCN_RELEASE_LOST] = LB_SCENARIO(release_lost),
	[LB_SCN_READERS_LEAVE] = LB_SCENARIO(readers_leave),
	[LB_SCN_CGROUPS] = { .name = "cgroups", .tasks = lb_scn_tasks_cgroups,
			     .steps = lb_scn_steps_cgroups, .cgroups = lb_scn_cgroups_cgroups },
	[LB_SCN_OUTLIERS] = { .name = "outliers", .tasks = lb_scn_tasks_outliers,
			      .steps = lb_scn_steps_outliers, .outlier_ns = 5000 },
	[LB_SCN_CHAIN_FUTEX3] = LB_SCENARIO(chain_futex3),
	[LB_SCN_CHAIN_FUTEX5] = LB_SCENARIO(chain_futex5),
	[LB_SCN_CHAIN_MUTEX_MIDDLE] = LB_SCENARIO(chain_mutex_middle),
	[LB_SCN_CHAIN_WRONG_GUESS] = LB_SCENARIO(chain_wrong_guess),
	[LB_SCN_CULPRIT_FIRST] = { .name = "culprit_first", .tasks = lb_scn_tasks_herd,
				   .prologue = lb_scn_steps_culprit_round,
				   .steps = lb_scn_steps_culprit_first,
				   .epilogue = lb_scn_steps_culprit_exact,
				   .limits = { .max_tasks = 8, .max_pairs = 4 } },
	[LB_SCN_CULPRIT_LAST] = { .name = "culprit_last", .tasks = lb_scn_tasks_herd,
				  .steps = lb_scn_steps_culprit_last,
				  .epilogue = lb_scn_steps_culprit_exact,
				  .limits = { .max_tasks = 8, .max_pairs = 4 } },
	[LB_SCN_CULPRIT_AMID] = { .name = "culprit_amid_herd", .tasks = lb_scn_tasks_herd,
				  .steps = lb_scn_steps_culprit_amid,
				  .epilogue = lb_scn_steps_culprit_exact,
				  .limits = { .max_tasks = 8, .max_pairs = 4 } },
	[LB_SCN_CULPRIT_AFTER_HEAVY] = { .name = "culprit_after_heavy", .tasks = lb_scn_tasks_herd,
					 .steps = lb_scn_steps_culprit_after_heavy,
					 .epilogue = lb_scn_steps_culprit_exact,
					 .limits = { .max_tasks = 16 } },
	[LB_SCN_HERD_AFTER_CULPRIT] = { .name = "herd_after_culprit", .tasks = lb_scn_tasks_herd,
					.prologue = lb_scn_steps_culprit_round,
					.steps = lb_scn_steps_herd_after_culprit,
					.epilogue = lb_scn_steps_culprit_exact,
					.limits = { .max_tasks = 16, .max_pairs = 4 } },
	[LB_SCN_SCOPE_GIL] = LB_SCENARIO(scope_gil),
	[LB_SCN_SCOPE_SEMQ] = LB_SCENARIO(scope_semq),
	[LB_SCN_SCOPE_RELEASE] = LB_SCENARIO(scope_release),
	[LB_SCN_SCOPE_GIL_SWITCH] = LB_SCENARIO(scope_gil_switch),
	[LB_SCN_RENAMED] = LB_SCENARIO(renamed),
	[LB_SCN_STOLEN] = LB_SCENARIO(stolen),
	[LB_SCN_PAIRS_LIVE] = LB_SCENARIO(pairs_live),
	[LB_SCN_SCOPE_WORDS] = LB_SCENARIO(scope_words),
	[LB_SCN_SCOPE_SPAN] = LB_SCENARIO(scope_span),
	[LB_SCN_SPAN_CHAIN] = LB_SCENARIO(span_chain),
	[LB_SCN_FOLD_HOLDERS] = LB_SCENARIO(fold_holders, .max_locks = 8),
	[LB_SCN_FOLD_SETTLED] = { .name = "fold_settled", .limits = { .max_locks = 2 },
				   .tasks = lb_scn_tasks_span_chain,
				   .prologue = lb_scn_steps_span_chain,
				   .steps = lb_scn_steps_fold_settled },
	[LB_SCN_CHAIN_LATE_RELEASE] = LB_SCENARIO(chain_late_release),
	[LB_SCN_SPAN_DEBT] = LB_SCENARIO(span_debt),
	[LB_SCN_SPAN_SPLIT] = LB_SCENARIO(span_split),
	[LB_SCN_COUNTERS_COLLIDE] = LB_SCENARIO(counters_collide),
	[LB_SCN_WAKES_COLLIDE] = LB_SCENARIO(wakes_collide),
};

/* The verdict rule at its edges. */
const struct lb_verdict_case lb_verdict_cases[LB_VERDICT_CASES] = {
	{ "nothing", 0, 0, LB_VERDICT_NONE },
	{ "only_blame", 1, 0, LB_VERDICT_CAUSE },
	{ "only_wait", 0, 1, LB_VERDICT_VICTIM },
	{ "blame_twice_wait", 200, 100, LB_VERDICT_CAUSE },
	{ "blame_just_under_twice", 199, 100, LB_VERDICT_SHARED },
	{ "wait_twice_blame", 100, 200, LB_VERDICT_VICTIM },
	{ "wait_just_under_twice", 100, 199, LB_VERDICT_SHARED },
	{ "equal", 100, 100, LB_VERDICT_SHARED },
	{ "odd_blame", 3, 1, LB_VERDICT_CAUSE },
	{ "huge_no_overflow", ~0ULL, ~0ULL / 2, LB_VERDICT_CAUSE },
	{ "huge_shared", ~0ULL, ~0ULL / 2 + 1, LB_VERDICT_SHARED },
};
