// SPDX-License-Identifier: GPL-2.0
/*
 * --interval: a live view in the manner of vmstat: every interval, read the
 * ledger and print how much blame and waiting each task added since the
 * sample before (the first sample counts from the start of the ledger).
 * With --json, each sample is one JSON object on one line (JSON Lines).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lockblame.h"

struct lbt_prev {
	int32_t pid;
	uint64_t blame_ns, wait_ns;
};

struct lbt_delta {
	const struct lbt_task *t;
	uint64_t blame_ns, wait_ns;
};

static int lbt_delta_cmp(const void *a, const void *b)
{
	const struct lbt_delta *x = a, *y = b;

	if (x->blame_ns != y->blame_ns)
		return x->blame_ns > y->blame_ns ? -1 : 1;
	if (x->wait_ns != y->wait_ns)
		return x->wait_ns > y->wait_ns ? -1 : 1;
	return x->t->pid < y->t->pid ? -1 : x->t->pid > y->t->pid;
}

/* The previous sample of @pid; @prev is sorted by pid, as the tasks are. */
static const struct lbt_prev *lbt_prev_find(const struct lbt_prev *prev, size_t n, int32_t pid)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (prev[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && prev[lo].pid == pid ? &prev[lo] : NULL;
}

/* Growth of a counter; a counter that went down was restarted (pid reused, evicted). */
static uint64_t lbt_growth(uint64_t now, uint64_t before)
{
	return now >= before ? now - before : now;
}

/* One sample as one line of JSON: the totals' growth, then the busiest tasks'. */
static void lbt_sample_json(const struct lbt_opts *o, const struct lbt_totals *t,
			    const struct lbt_totals *pt, unsigned long sample,
			    const struct lbt_delta *d, size_t k, FILE *out)
{
	size_t i;

	/* Counted from the ledger's start: the first sample, and the first after a reset. */
	fprintf(out, "{\"sample\": %lu, \"time\": %lld, \"since_start\": %s, ", sample,
		(long long)time(NULL), !pt->events && !pt->window_ns ? "true" : "false");
	fprintf(out, "\"wait_ns\": %llu, \"blame_ns\": %llu, \"unattributed_ns\": %llu, \"events\": %llu, \"tasks\": [",
		(unsigned long long)lbt_growth(t->wait_ns, pt->wait_ns),
		(unsigned long long)lbt_growth(t->blame_ns, pt->blame_ns),
		(unsigned long long)lbt_growth(t->unattributed_ns, pt->unattributed_ns),
		(unsigned long long)lbt_growth(t->events, pt->events));
	for (i = 0; i < k && i < o->top; i++) {
		fprintf(out, "%s{\"pid\": %d, \"tgid\": %d, \"comm\": ", i ? ", " : "",
			d[i].t->pid, d[i].t->tgid);
		lbt_json_string(out, d[i].t->comm.b, d[i].t->comm.len);
		fputs(", \"verdict\": ", out);
		lbt_json_string(out, (const unsigned char *)d[i].t->verdict, strlen(d[i].t->verdict));
		fprintf(out, ", \"blame_ns\": %llu, \"wait_ns\": %llu}",
			(unsigned long long)d[i].blame_ns, (unsigned long long)d[i].wait_ns);
	}
	fputs("]}\n", out);
	fflush(out);
}

static void lbt_sample(const struct lbt_opts *o, const struct lbt_doc *doc,
		       const struct lbt_prev *prev, size_t nprev, const struct lbt_totals *pt,
		       unsigned long sample, FILE *out)
{
	const struct lbt_totals *t = lbt_totals(doc);
	char a[LBT_NS_BUF], b[LBT_NS_BUF], c[LBT_NS_BUF], when[16], comm[LBT_COMM_BUF];
	size_t n = LBT_ROWS(doc, LBT_T_TASK), k = 0, i;
	struct lbt_delta *d = calloc(n + 1, sizeof(*d));
	bool json = o->mode == LBT_JSON;
	time_t now = time(NULL);
	struct tm tm;

	strftime(when, sizeof(when), "%H:%M:%S", localtime_r(&now, &tm));
	if (!json)
		fprintf(out, "%s  wait +%s  blame +%s  unattributed +%s  events +%llu%s\n", when,
			lbt_ns(a, sizeof(a), lbt_growth(t->wait_ns, pt->wait_ns)),
			lbt_ns(b, sizeof(b), lbt_growth(t->blame_ns, pt->blame_ns)),
			lbt_ns(c, sizeof(c), lbt_growth(t->unattributed_ns, pt->unattributed_ns)),
			(unsigned long long)lbt_growth(t->events, pt->events),
			sample ? "" : "  (since the ledger started)");
	if (!d) {
		lbt_warn("out of memory");
		return;
	}
	for (i = 0; i < n; i++) {
		const struct lbt_task *task = LBT_REC(doc, LBT_T_TASK, struct lbt_task, i);
		const struct lbt_prev *p = lbt_prev_find(prev, nprev, task->pid);

		if (!task->h.keep)
			continue;
		d[k].t = task;
		d[k].blame_ns = lbt_growth(task->blame_ns, p ? p->blame_ns : 0);
		d[k].wait_ns = lbt_growth(task->wait_ns, p ? p->wait_ns : 0);
		if (d[k].blame_ns || d[k].wait_ns)
			k++;
	}
	qsort(d, k, sizeof(*d), lbt_delta_cmp);
	if (json) {
		lbt_sample_json(o, t, pt, sample, d, k, out);
		free(d);
		return;
	}
	if (k)
		fprintf(out, "%7s %7s %-16s %-8s %10s %10s\n", "PID", "TGID", "COMM", "VERDICT",
			"+BLAME", "+WAIT");
	for (i = 0; i < k && i < o->top; i++)
		fprintf(out, "%7d %7d %-16s %-8s %10s %10s\n", d[i].t->pid, d[i].t->tgid,
			d[i].t->comm.len ? lbt_comm_text(comm, sizeof(comm), d[i].t->comm.b,
							 d[i].t->comm.len) : "-",
			*d[i].t->verdict ? d[i].t->verdict : "-",
			lbt_ns(a, sizeof(a), d[i].blame_ns), lbt_ns(b, sizeof(b), d[i].wait_ns));
	if (!k)
		fputs("  (no new contention)\n", out);
	fputc('\n', out);
	fflush(out);
	free(d);
}

static void lbt_ts_add(struct timespec *ts, double seconds)
{
	long long ns = (long long)(seconds * 1e9);

	ts->tv_sec += ns / 1000000000;
	ts->tv_nsec += ns % 1000000000;
	if (ts->tv_nsec >= 1000000000) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000;
	}
}

int lbt_interval(const struct lbt_opts *o, FILE *out)
{
	struct lbt_totals pt = { 0 };
	struct lbt_prev *prev = NULL;
	size_t nprev = 0, i;
	struct timespec next;
	unsigned long s;
	int err = 0;

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (s = 0; !o->count || s < o->count; s++) {
		const struct lbt_totals *t;
		struct lbt_doc doc;

		if (s) {
			lbt_ts_add(&next, o->interval);
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next,
					       NULL) == EINTR)
				;
		}
		err = lbt_load(o, &doc, false);
		if (err) {
			lbt_doc_free(&doc);
			break;
		}
		t = lbt_totals(&doc);
		if (s && (t->events < pt.events || t->window_ns < pt.window_ns)) {
			if (o->mode != LBT_JSON)
				fputs("(the ledger was reset: counting from zero)\n", out);
			memset(&pt, 0, sizeof(pt));
			nprev = 0;
		}
		lbt_sample(o, &doc, prev, nprev, &pt, s, out);
		pt = *t;
		free(prev);
		nprev = LBT_ROWS(&doc, LBT_T_TASK);
		prev = calloc(nprev + 1, sizeof(*prev));
		if (!prev) {
			lbt_doc_free(&doc);
			err = lbt_fail(LBT_EXIT_RUNTIME, "out of memory");
			break;
		}
		for (i = 0; i < nprev; i++) {
			const struct lbt_task *task = LBT_REC(&doc, LBT_T_TASK, struct lbt_task, i);

			prev[i] = (struct lbt_prev){ task->pid, task->blame_ns, task->wait_ns };
		}
		lbt_doc_free(&doc);
	}
	free(prev);
	return err;
}
