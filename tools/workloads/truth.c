// SPDX-License-Identifier: GPL-2.0
/*
 * Records the workloads' own lock waits and holds and turns them into the
 * "truth" lines: per-task wait, contended hold, blame and root blame, per-lock
 * totals and per-pair blame, computed the way lockblame's ledger defines them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "truth.h"

uint64_t lb_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

uint64_t lb_thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * The second field of /proc/thread-self/schedstat is the scheduler's
 * run_delay for this thread: the kernel's own figure, read at each end of a
 * hold. The file exists with CONFIG_SCHED_INFO; without it the truth has no
 * runnable figures at all.
 */
bool lb_run_delay(const struct lb_actor *a, uint64_t *ns)
{
	char buf[128];
	uint64_t run;
	ssize_t n;

	if (a->schedstat_fd < 0)
		return false;
	n = pread(a->schedstat_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return sscanf(buf, "%" SCNu64 " %" SCNu64, &run, ns) == 2;
}

void lb_sleep_ns(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = ns / 1000000000ULL,
		.tv_nsec = ns % 1000000000ULL,
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
}

/* Computing, not sleeping: the thread stays on a CPU for @ns. */
void lb_spin_ns(uint64_t ns)
{
	uint64_t end = lb_now() + ns;

	while (lb_now() < end)
		;
}

void lb_die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, what,
		errno ? strerror(errno) : "failed");
	exit(1);
}

unsigned long lb_arg(const char *s, const char *opt)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end) {
		fprintf(stderr, "%s: option %s: not a number: '%s'\n",
			program_invocation_short_name, opt, s);
		exit(2);
	}
	return v;
}

void *lb_shared_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		lb_die("mmap shared");
	return p;
}

struct lb_truth *lb_truth_create_idle(unsigned int nactors,
				      unsigned int maxspans,
				      unsigned int nidle)
{
	unsigned int busy = nidle < nactors ? nactors - nidle : 0;
	size_t actors_off = sizeof(struct lb_truth);
	size_t spans_off = actors_off + nactors * sizeof(struct lb_actor);
	size_t size = spans_off + (size_t)busy * maxspans *
		      sizeof(struct lb_span);
	char *base = lb_shared_alloc(size);
	struct lb_truth *t = (struct lb_truth *)base;
	unsigned int i;

	t->nactors = nactors;
	t->size = size;
	t->actors = (struct lb_actor *)(base + actors_off);
	for (i = 0; i < busy; i++) {
		t->actors[i].maxspans = maxspans;
		t->actors[i].spans = (struct lb_span *)(base + spans_off) +
				     (size_t)i * maxspans;
	}
	return t;
}

struct lb_truth *lb_truth_create(unsigned int nactors, unsigned int maxspans)
{
	return lb_truth_create_idle(nactors, maxspans, 0);
}

void lb_truth_lock(struct lb_truth *t, unsigned int lock, const char *name,
		   const char *class)
{
	snprintf(t->locks[lock].name, LB_NAME_LEN, "%s", name);
	snprintf(t->locks[lock].class, LB_NAME_LEN, "%s", class);
	if (lock >= t->nlocks)
		t->nlocks = lock + 1;
}

struct lb_actor *lb_actor_start(struct lb_truth *t, unsigned int slot,
				const char *role, const char *comm,
				const char *expect)
{
	struct lb_actor *a = &t->actors[slot];

	snprintf(a->role, LB_NAME_LEN, "%s", role);
	snprintf(a->comm, LB_NAME_LEN, "%s", comm);
	snprintf(a->expect, LB_NAME_LEN, "%s", expect ? expect : "");
	prctl(PR_SET_NAME, a->comm);
	a->tgid = getpid();
	a->pid = gettid();
	a->schedstat_fd = -1;
	return a;
}

void lb_actor_track_run_delay(struct lb_actor *a)
{
	a->schedstat_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
}

bool lb_actor_room(const struct lb_actor *a)
{
	/* A round takes at most one wait and one hold per lock. */
	return a->nspans + 2 * LB_MAX_LOCKS <= a->maxspans;
}

static struct lb_span *lb_add_span(struct lb_actor *a, enum lb_span_kind kind,
				   unsigned int lock, uint64_t start, uint64_t end,
				   uint64_t cpu)
{
	struct lb_span *s;

	if (a->nspans >= a->maxspans) {
		errno = ENOSPC;
		lb_die("span table full (call lb_actor_room each round)");
	}
	s = &a->spans[a->nspans++];
	s->start_ns = start;
	s->end_ns = end;
	s->end_late_ns = end;
	s->cpu_ns = cpu;
	s->run_delay_ns = 0;
	s->cpu_late_ns = cpu;
	s->run_delay_late_ns = 0;
	s->lock = lock;
	s->kind = kind;
	s->fast = 0;
	return s;
}

/* @a holds @lock from @now: the clocks its hold is measured from. */
void lb_hold_begin(struct lb_actor *a, unsigned int lock, uint64_t now)
{
	a->acquired_ns[lock] = now;
	a->acquired_fast[lock] = 0;
	a->acquired_cpu_ns[lock] = lb_thread_cpu();
	if (!lb_run_delay(a, &a->acquired_run_delay_ns[lock]))
		a->acquired_run_delay_ns[lock] = UINT64_MAX;
}

/* @a waited for @lock from @start_ns until now. */
void lb_wait_span(struct lb_actor *a, unsigned int lock, uint64_t start_ns)
{
	lb_add_span(a, LB_SPAN_WAIT, lock, start_ns, lb_now(), 0);
}

/*
 * A wait is only what follows a failed trylock, so uncontended acquisitions
 * count as no waiting at all, as in the kernel, where only contended
 * acquisitions reach futex_wait.
 */
void lb_lock(struct lb_actor *a, unsigned int lock, pthread_mutex_t *m)
{
	uint64_t start, now;
	bool waited;
	int err;

	err = pthread_mutex_trylock(m);
	waited = err == EBUSY;
	if (waited) {
		start = lb_now();
		err = pthread_mutex_lock(m);
		now = lb_now();
		if (!err)
			lb_add_span(a, LB_SPAN_WAIT, lock, start, now, 0);
	} else {
		now = lb_now();
	}
	if (err) {
		errno = err;
		lb_die("pthread_mutex_lock");
	}
	lb_hold_begin(a, lock, now);
	a->acquired_fast[lock] = !waited;
}

/* The actor's run_delay since it took @lock, or UINT64_MAX if unknown. */
static uint64_t lb_hold_run_delay(const struct lb_actor *a, unsigned int lock)
{
	uint64_t start = a->acquired_run_delay_ns[lock], now;

	if (start == UINT64_MAX || !lb_run_delay(a, &now))
		return UINT64_MAX;
	return now >= start ? now - start : 0;
}

/*
 * Each end of a hold reads run_delay first, then the CPU clock, then the
 * time: the reading's own cost falls inside the CPU clock's span, as the
 * start's does (lb_lock reads the time, the CPU clock, then run_delay).
 */
struct lb_span *lb_hold_end(struct lb_actor *a, unsigned int lock)
{
	uint64_t rd = lb_hold_run_delay(a, lock);
	uint64_t cpu = lb_thread_cpu() - a->acquired_cpu_ns[lock];
	struct lb_span *s;

	s = lb_add_span(a, LB_SPAN_HOLD, lock, a->acquired_ns[lock], lb_now(), cpu);
	s->run_delay_ns = rd;
	s->run_delay_late_ns = rd;
	s->fast = a->acquired_fast[lock];
	return s;
}

void lb_unlock(struct lb_actor *a, unsigned int lock, pthread_mutex_t *m)
{
	struct lb_span *s = lb_hold_end(a, lock);
	int err;

	err = pthread_mutex_unlock(m);
	if (err) {
		errno = err;
		lb_die("pthread_mutex_unlock");
	}
	/*
	 * The lock was let go somewhere inside the call (its atomic exchange,
	 * just before futex_wake): if the thread lost its CPU there, the
	 * release is as late as this, and so is its CPU time and run_delay.
	 */
	s->end_late_ns = lb_now();
	s->cpu_late_ns = lb_thread_cpu() - a->acquired_cpu_ns[lock];
	s->run_delay_late_ns = lb_hold_run_delay(a, lock);
}

void lb_actor_op(struct lb_actor *a, uint64_t start_ns, uint64_t bytes)
{
	a->ops++;
	a->op_ns += lb_now() - start_ns;
	a->bytes += bytes;
}

void lb_mutex_init(pthread_mutex_t *m, bool pshared)
{
	pthread_mutexattr_t attr;

	pthread_mutexattr_init(&attr);
	if (pshared)
		pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	errno = pthread_mutex_init(m, &attr);
	if (errno)
		lb_die("pthread_mutex_init");
	pthread_mutexattr_destroy(&attr);
}

void lb_start_init(struct lb_start *s, unsigned int count)
{
	atomic_init(&s->arrived, 0);
	s->count = count;
}

void lb_start_wait(struct lb_start *s)
{
	atomic_fetch_add(&s->arrived, 1);
	while (atomic_load(&s->arrived) < s->count)
		lb_sleep_ns(100000);
}

void lb_thread(pthread_t *th, void *(*fn)(void *), void *arg)
{
	errno = pthread_create(th, NULL, fn, arg);
	if (errno)
		lb_die("pthread_create");
}

void lb_join(pthread_t *th, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		while (pthread_tryjoin_np(th[i], NULL) == EBUSY)
			lb_sleep_ns(1000000);
}

/* One end of a span, for the sweep over time. */
struct lb_edge {
	uint64_t t;
	uint32_t span;		/* index into the flat span list */
	uint8_t start;
};

struct lb_flat_span {
	const struct lb_span *s;
	uint32_t actor;
	uint64_t contended_ns;	/* holds: time with at least one waiter */
};

struct lb_figures {
	uint64_t wait_ns, waits, hold_ns, holds, hold_on_cpu_ns;
	uint64_t hold_total_ns, acquisitions, blame_ns, root_blame_ns;
	uint64_t hold_max_ns;	/* the longest single hold, contended or not */
	uint64_t wait_max_ns;	/* the longest single wait */
	uint64_t kept_ns;	/* blame kept: inflicted while running, or reached as root */
	uint64_t hold_runnable_ns;	/* contended holds runnable, not running */
	bool run_delay_unknown;		/* some hold's run_delay could not be read */
};

struct lb_sweep {
	const struct lb_truth *t;
	bool late;			/* holds end when unlock returned */
	bool unseen;			/* chains stop at holds the kernel cannot see */
	struct lb_flat_span *spans;
	struct lb_figures *fig;		/* per actor */
	uint64_t *pair;			/* [holder * nactors + victim] */
	int *waiting_on;		/* per actor: lock index or -1 */
	int holder[LB_MAX_LOCKS];	/* actor index or -1 */
	bool hidden[LB_MAX_LOCKS];	/* unseen: its hold is one the kernel cannot see */
	uint32_t hold_span[LB_MAX_LOCKS];
	uint64_t lock_wait[LB_MAX_LOCKS], lock_blame[LB_MAX_LOCKS];
	uint64_t lock_gap[LB_MAX_LOCKS], lock_waits[LB_MAX_LOCKS];
};

static int lb_edge_cmp(const void *pa, const void *pb)
{
	const struct lb_edge *a = pa, *b = pb;

	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	/* A wait ends at the instant its hold starts: ends go first. */
	return (int)a->start - (int)b->start;
}

/*
 * Charge @dt of the current state: each waiter's time goes to the holder
 * (blame), and on to the end of the holder-waits-on chain (root blame).
 */
static void lb_sweep_account(struct lb_sweep *sw, uint64_t dt)
{
	unsigned int n = sw->t->nactors, a, depth;
	bool contended[LB_MAX_LOCKS] = { false };
	int lock, h, cur, root;

	for (a = 0; a < n; a++) {
		lock = sw->waiting_on[a];
		if (lock < 0)
			continue;
		sw->lock_wait[lock] += dt;
		h = sw->holder[lock];
		if (h < 0 || h == (int)a) {
			sw->lock_gap[lock] += dt;
			continue;
		}
		sw->fig[h].blame_ns += dt;
		sw->lock_blame[lock] += dt;
		sw->pair[(size_t)h * n + a] += dt;
		contended[lock] = true;

		root = -1;
		cur = h;
		for (depth = 0; depth < n; depth++) {
			int next_lock = sw->waiting_on[cur];
			int next;

			if (next_lock < 0)
				break;
			next = sw->holder[next_lock];
			if (next < 0 || next == cur || sw->hidden[next_lock])
				break;
			root = next;
			cur = next;
		}
		if (root >= 0)
			sw->fig[root].root_blame_ns += dt;
		sw->fig[root >= 0 ? root : h].kept_ns += dt;
	}
	for (lock = 0; lock < LB_MAX_LOCKS; lock++) {
		if (!contended[lock])
			continue;
		sw->fig[sw->holder[lock]].hold_ns += dt;
		sw->spans[sw->hold_span[lock]].contended_ns += dt;
	}
}

/* Whether an actor other than @actor waits on @lock. */
static bool lb_sweep_waited(const struct lb_sweep *sw, int lock, int actor)
{
	unsigned int a;

	for (a = 0; a < sw->t->nactors; a++)
		if ((int)a != actor && sw->waiting_on[a] == lock)
			return true;
	return false;
}

/*
 * A hold taken by a trylock while another thread waits on the lock: its
 * releaser woke that waiter, and the lock was taken on the fast path before
 * the waiter ran. The kernel sees neither that acquisition nor, when it
 * wakes nobody, its release (docs/limits.md). The unseen sweep (the _unseen
 * figures) does not follow a chain past such a hold: its waiter, runnable,
 * is the chain's root there, as the kernel must take it.
 */
static void lb_sweep_apply(struct lb_sweep *sw, const struct lb_edge *e)
{
	const struct lb_flat_span *fs = &sw->spans[e->span];
	int lock = fs->s->lock, actor = fs->actor;

	if (fs->s->kind == LB_SPAN_WAIT) {
		if (e->start)
			sw->waiting_on[actor] = lock;
		else if (sw->waiting_on[actor] == lock)
			sw->waiting_on[actor] = -1;
	} else if (e->start) {
		sw->holder[lock] = actor;
		sw->hold_span[lock] = e->span;
		sw->hidden[lock] = sw->unseen && fs->s->fast && lb_sweep_waited(sw, lock, actor);
	} else if (sw->holder[lock] == actor) {
		sw->holder[lock] = -1;
		sw->hidden[lock] = false;
	}
}

static void *lb_calloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		lb_die("calloc");
	return p;
}

static uint64_t lb_span_end(const struct lb_sweep *sw, const struct lb_span *s)
{
	return sw->late ? s->end_late_ns : s->end_ns;
}

/*
 * CPU time and run_delay are known for the whole hold; charge the contended
 * part its proportional share of each. Asleep is the rest of it.
 */
static void lb_hold_shares(struct lb_figures *f, const struct lb_span *s, uint64_t len,
			   uint64_t contended, bool late)
{
	uint64_t cpu = late ? s->cpu_late_ns : s->cpu_ns;
	uint64_t rd = late ? s->run_delay_late_ns : s->run_delay_ns;

	if (cpu > len)
		cpu = len;
	if (!len)
		return;
	f->hold_on_cpu_ns += (uint64_t)((double)cpu * contended / len);
	if (rd == UINT64_MAX) {
		f->run_delay_unknown = true;
		return;
	}
	if (rd > len - cpu)
		rd = len - cpu;
	f->hold_runnable_ns += (uint64_t)((double)rd * contended / len);
}

static void lb_sweep_run(struct lb_sweep *sw)
{
	const struct lb_truth *t = sw->t;
	unsigned int a, i, nspans = 0, k = 0;
	struct lb_edge *edges;
	uint64_t prev;

	for (a = 0; a < t->nactors; a++)
		nspans += t->actors[a].nspans;
	sw->spans = lb_calloc(nspans, sizeof(*sw->spans));
	edges = lb_calloc(2 * (size_t)nspans, sizeof(*edges));
	for (a = 0; a < t->nactors; a++) {
		const struct lb_actor *ac = &t->actors[a];

		for (i = 0; i < ac->nspans; i++, k++) {
			sw->spans[k].s = &ac->spans[i];
			sw->spans[k].actor = a;
			edges[2 * k] = (struct lb_edge){ ac->spans[i].start_ns, k, 1 };
			edges[2 * k + 1] = (struct lb_edge){ lb_span_end(sw, &ac->spans[i]),
							     k, 0 };
		}
	}
	qsort(edges, 2 * (size_t)nspans, sizeof(*edges), lb_edge_cmp);

	prev = nspans ? edges[0].t : 0;
	for (i = 0; i < 2 * nspans; i++) {
		if (edges[i].t > prev)
			lb_sweep_account(sw, edges[i].t - prev);
		prev = edges[i].t;
		lb_sweep_apply(sw, &edges[i]);
	}

	for (k = 0; k < nspans; k++) {
		const struct lb_span *s = sw->spans[k].s;
		struct lb_figures *f = &sw->fig[sw->spans[k].actor];
		uint64_t len = lb_span_end(sw, s) - s->start_ns;

		if (s->kind == LB_SPAN_WAIT) {
			f->wait_ns += len;
			f->waits++;
			if (len > f->wait_max_ns)
				f->wait_max_ns = len;
			sw->lock_waits[s->lock]++;
			continue;
		}
		f->acquisitions++;
		f->hold_total_ns += len;
		if (len > f->hold_max_ns)
			f->hold_max_ns = len;
		if (!sw->spans[k].contended_ns)
			continue;
		f->holds++;
		lb_hold_shares(f, s, len, sw->spans[k].contended_ns, sw->late);
	}
	free(edges);
}

/* Why the holds were slow: runnable and asleep beside on-CPU, when known. */
static void lb_print_split(const struct lb_figures *f, const struct lb_figures *fl)
{
	if (f->run_delay_unknown || fl->run_delay_unknown)
		return;
	printf(" hold_runnable_ns=%llu hold_sleeping_ns=%llu hold_runnable_ns_late=%llu hold_sleeping_ns_late=%llu",
	       (unsigned long long)f->hold_runnable_ns,
	       (unsigned long long)(f->hold_ns - f->hold_on_cpu_ns - f->hold_runnable_ns),
	       (unsigned long long)fl->hold_runnable_ns,
	       (unsigned long long)(fl->hold_ns - fl->hold_on_cpu_ns - fl->hold_runnable_ns));
}

/* Every span, in CLOCK_MONOTONIC ns (the kernel's event clock): for debugging. */
static void lb_print_spans(const struct lb_truth *t)
{
	unsigned int a, i;

	for (a = 0; a < t->nactors; a++) {
		const struct lb_actor *ac = &t->actors[a];

		for (i = 0; i < ac->nspans; i++) {
			const struct lb_span *s = &ac->spans[i];

			printf("span pid=%d kind=%s lock=%u start_ns=%llu end_ns=%llu end_late_ns=%llu cpu_ns=%llu run_delay_ns=%lld\n",
			       ac->pid, s->kind == LB_SPAN_WAIT ? "wait" : "hold", s->lock,
			       (unsigned long long)s->start_ns,
			       (unsigned long long)s->end_ns,
			       (unsigned long long)s->end_late_ns,
			       (unsigned long long)s->cpu_ns,
			       s->run_delay_ns == UINT64_MAX ? -1LL : (long long)s->run_delay_ns);
		}
	}
}

static void lb_sweep_init(struct lb_sweep *sw, const struct lb_truth *t, bool late,
			  bool unseen)
{
	unsigned int n = t->nactors, a, lock;

	memset(sw, 0, sizeof(*sw));
	sw->t = t;
	sw->late = late;
	sw->unseen = unseen;
	sw->fig = lb_calloc(n, sizeof(*sw->fig));
	sw->pair = lb_calloc((size_t)n * n, sizeof(*sw->pair));
	sw->waiting_on = lb_calloc(n, sizeof(*sw->waiting_on));
	for (a = 0; a < n; a++)
		sw->waiting_on[a] = -1;
	for (lock = 0; lock < LB_MAX_LOCKS; lock++)
		sw->holder[lock] = -1;
	lb_sweep_run(sw);
}

static void lb_sweep_free(struct lb_sweep *sw)
{
	free(sw->spans);
	free(sw->fig);
	free(sw->pair);
	free(sw->waiting_on);
}

/* LB_TRUTH_SPANS=1: every span too, to compare with the event stream. */
static void lb_truth_print_spans(const struct lb_truth *t)
{
	unsigned int a, i;

	if (!getenv("LB_TRUTH_SPANS"))
		return;
	for (a = 0; a < t->nactors; a++)
		for (i = 0; i < t->actors[a].nspans; i++) {
			const struct lb_span *s = &t->actors[a].spans[i];

			printf("truth span pid=%d kind=%s lock=%u start_ns=%llu end_ns=%llu\n",
			       t->actors[a].pid, s->kind == LB_SPAN_WAIT ? "wait" : "hold",
			       s->lock, (unsigned long long)s->start_ns,
			       (unsigned long long)s->end_ns);
		}
}

/*
 * The figures twice: with each hold ending just before unlock was called,
 * and (the _late fields) when it returned. The release happened in between,
 * so a measurement of the release (the kernel's) may fall anywhere in the
 * range the two give; they differ by more than noise only when a thread
 * lost its CPU inside pthread_mutex_unlock. Root blame and kept blame a
 * third time (_unseen): with chains that stop where the kernel loses them,
 * at a hold taken on the fast path during a handoff (lb_sweep_apply). They
 * differ only when a woken waiter stayed runnable long enough for that.
 */
void lb_truth_print(const struct lb_truth *t)
{
	unsigned int n = t->nactors, a, v, lock;
	struct lb_sweep sw, late, unseen;

	lb_truth_print_spans(t);

	lb_sweep_init(&sw, t, false, false);
	lb_sweep_init(&late, t, true, false);
	lb_sweep_init(&unseen, t, false, true);

	for (lock = 0; lock < t->nlocks; lock++)
		printf("truth lock=%s class=%s wait_ns=%llu waits=%llu blame_ns=%llu gap_ns=%llu blame_ns_late=%llu gap_ns_late=%llu\n",
		       t->locks[lock].name, t->locks[lock].class,
		       (unsigned long long)sw.lock_wait[lock],
		       (unsigned long long)sw.lock_waits[lock],
		       (unsigned long long)sw.lock_blame[lock],
		       (unsigned long long)sw.lock_gap[lock],
		       (unsigned long long)late.lock_blame[lock],
		       (unsigned long long)late.lock_gap[lock]);

	for (a = 0; a < n; a++) {
		const struct lb_actor *ac = &t->actors[a];
		const struct lb_figures *f = &sw.fig[a], *fl = &late.fig[a];
		const struct lb_figures *fu = &unseen.fig[a];

		if (!ac->pid)
			continue;
		printf("truth role=%s pid=%d tgid=%d comm=%s", ac->role,
		       ac->pid, ac->tgid, ac->comm);
		if (ac->expect[0])
			printf(" expect=%s", ac->expect);
		if (t->nlocks) {
			printf(" wait_ns=%llu waits=%llu hold_ns=%llu holds=%llu hold_on_cpu_ns=%llu hold_total_ns=%llu acquisitions=%llu blame_ns=%llu root_blame_ns=%llu",
			       (unsigned long long)f->wait_ns,
			       (unsigned long long)f->waits,
			       (unsigned long long)f->hold_ns,
			       (unsigned long long)f->holds,
			       (unsigned long long)f->hold_on_cpu_ns,
			       (unsigned long long)f->hold_total_ns,
			       (unsigned long long)f->acquisitions,
			       (unsigned long long)f->blame_ns,
			       (unsigned long long)f->root_blame_ns);
			printf(" kept_ns=%llu", (unsigned long long)f->kept_ns);
			printf(" hold_ns_late=%llu hold_on_cpu_ns_late=%llu blame_ns_late=%llu root_blame_ns_late=%llu kept_ns_late=%llu",
			       (unsigned long long)fl->hold_ns,
			       (unsigned long long)fl->hold_on_cpu_ns,
			       (unsigned long long)fl->blame_ns,
			       (unsigned long long)fl->root_blame_ns,
			       (unsigned long long)fl->kept_ns);
			printf(" root_blame_ns_unseen=%llu kept_ns_unseen=%llu",
			       (unsigned long long)fu->root_blame_ns,
			       (unsigned long long)fu->kept_ns);
			lb_print_split(f, fl);
			printf(" hold_max_ns=%llu wait_max_ns=%llu",
			       (unsigned long long)f->hold_max_ns,
			       (unsigned long long)f->wait_max_ns);
		}
		if (ac->ops)
			printf(" ops=%llu op_ns=%llu bytes=%llu",
			       (unsigned long long)ac->ops,
			       (unsigned long long)ac->op_ns,
			       (unsigned long long)ac->bytes);
		printf("\n");
	}

	for (a = 0; a < n; a++)
		for (v = 0; v < n; v++)
			if (sw.pair[(size_t)a * n + v])
				printf("truth holder=%d victim=%d blame_ns=%llu\n",
				       t->actors[a].pid, t->actors[v].pid,
				       (unsigned long long)sw.pair[(size_t)a * n + v]);
	if (getenv("LB_TRUTH_SPANS"))
		lb_print_spans(t);
	fflush(stdout);

	lb_sweep_free(&sw);
	lb_sweep_free(&late);
	lb_sweep_free(&unseen);
}
