// SPDX-License-Identifier: GPL-2.0
/*
 * --prometheus: the ledger as a node_exporter textfile (Prometheus text
 * format 0.0.4). Per-process series are bounded: the --top processes by
 * blame plus wait carry their own labels, the rest are summed under
 * tgid="other". Write it to a temporary file and rename it into the
 * collector's directory, so that a scrape never sees half of it.
 */
#include <stdlib.h>
#include <string.h>
#include "lockblame.h"

/* A label value: backslash, quote and newline escaped; other bytes outside ASCII as \\xNN. */
static void lbt_prom_label(FILE *out, const unsigned char *b, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (b[i] == '\\' || b[i] == '"')
			fprintf(out, "\\%c", b[i]);
		else if (b[i] == '\n')
			fputs("\\n", out);
		else if (b[i] < 0x20 || b[i] >= 0x7f)
			fprintf(out, "\\\\x%02x", b[i]);
		else
			fputc(b[i], out);
	}
}

static void lbt_prom_head(FILE *out, const char *name, const char *type, const char *help)
{
	fprintf(out, "# HELP lockblame_%s %s\n# TYPE lockblame_%s %s\n", name, help, name, type);
}

static void lbt_prom_value(FILE *out, const char *name, uint64_t ns, bool seconds)
{
	if (seconds)
		fprintf(out, "lockblame_%s %.9f\n", name, ns / 1e9);
	else
		fprintf(out, "lockblame_%s %llu\n", name, (unsigned long long)ns);
}

static uint64_t lbt_proc_weight(const struct lbt_process *p)
{
	return p->blame_ns + p->wait_ns;
}

static int lbt_proc_cmp(const void *a, const void *b)
{
	const struct lbt_process *x = *(const struct lbt_process * const *)a;
	const struct lbt_process *y = *(const struct lbt_process * const *)b;

	if (lbt_proc_weight(x) != lbt_proc_weight(y))
		return lbt_proc_weight(x) > lbt_proc_weight(y) ? -1 : 1;
	return x->tgid < y->tgid ? -1 : x->tgid > y->tgid;
}

/* One per-process counter: @off is the field's offset in struct lbt_process. */
static void lbt_prom_procs(FILE *out, const char *name, const char *help,
			   const struct lbt_process **p, size_t n, size_t top, size_t off)
{
	uint64_t rest = 0;
	size_t i;

	lbt_prom_head(out, name, "counter", help);
	for (i = 0; i < n; i++) {
		uint64_t ns = *(const uint64_t *)((const char *)p[i] + off);

		if (i >= top) {
			rest += ns;
			continue;
		}
		fprintf(out, "lockblame_%s{tgid=\"%d\",comm=\"", name, p[i]->tgid);
		lbt_prom_label(out, p[i]->comm.b, p[i]->comm.len);
		fprintf(out, "\"} %.9f\n", ns / 1e9);
	}
	if (n > top)
		fprintf(out, "lockblame_%s{tgid=\"other\",comm=\"other\"} %.9f\n", name, rest / 1e9);
}

static void lbt_prom_verdicts(FILE *out, const struct lbt_process **p, size_t n)
{
	static const char *const verdicts[] = { "cause", "victim", "shared", "none" };
	size_t i, v;

	lbt_prom_head(out, "processes", "gauge", "Processes in the ledger, by verdict.");
	for (v = 0; v < sizeof(verdicts) / sizeof(verdicts[0]); v++) {
		unsigned long k = 0;

		for (i = 0; i < n; i++)
			k += !strcmp(p[i]->verdict, verdicts[v]);
		fprintf(out, "lockblame_processes{verdict=\"%s\"} %lu\n", verdicts[v], k);
	}
}

/* Waiting per lock class, summed over the locks the ledger holds now. */
static void lbt_prom_classes(FILE *out, const struct lbt_doc *doc)
{
	static const char *const classes[] = { "futex", "futex_pi", "mutex", "rwsem" };
	size_t i, c, n = LBT_ROWS(doc, LBT_T_LOCK);

	lbt_prom_head(out, "lock_wait_seconds", "gauge",
		      "Waiting on the locks tracked now, by lock class.");
	for (c = 0; c < sizeof(classes) / sizeof(classes[0]); c++) {
		uint64_t ns = 0;

		for (i = 0; i < n; i++) {
			const struct lbt_lock *l = LBT_REC(doc, LBT_T_LOCK, struct lbt_lock, i);

			if (!strcmp(l->class, classes[c]))
				ns += l->wait_ns;
		}
		fprintf(out, "lockblame_lock_wait_seconds{class=\"%s\"} %.9f\n", classes[c],
			ns / 1e9);
	}
}

static void lbt_prom_totals(FILE *out, const struct lbt_totals *t)
{
	lbt_prom_head(out, "window_seconds", "gauge", "How long the ledger has been counting.");
	lbt_prom_value(out, "window_seconds", t->window_ns, true);
	lbt_prom_head(out, "events_total", "counter", "Events the ledger took in.");
	lbt_prom_value(out, "events_total", t->events, false);
	lbt_prom_head(out, "contention_seconds_total", "counter",
		      "All waiting on contended locks.");
	lbt_prom_value(out, "contention_seconds_total", t->wait_ns, true);
	lbt_prom_head(out, "unattributed_seconds_total", "counter",
		      "Waiting whose holder could not be named.");
	lbt_prom_value(out, "unattributed_seconds_total", t->unattributed_ns, true);
	lbt_prom_head(out, "pending_seconds", "gauge",
		      "Waiting whose holder is not known yet (named at its release).");
	lbt_prom_value(out, "pending_seconds", t->pending_ns, true);
	lbt_prom_head(out, "event_wait_seconds_total", "counter",
		      "Futex sleeps that wait for an event (condition variables, idle pools), not a lock.");
	lbt_prom_value(out, "event_wait_seconds_total", t->event_wait_ns, true);
	lbt_prom_head(out, "ledger_dropped_total", "counter",
		      "What the ledger's tables had no room for: the figures are partial.");
	fprintf(out, "lockblame_ledger_dropped_total{table=\"waiters\"} %llu\n",
		(unsigned long long)t->dropped_waiters);
	fprintf(out, "lockblame_ledger_dropped_total{table=\"pairs\"} %llu\n",
		(unsigned long long)t->dropped_pairs);
	fprintf(out, "lockblame_ledger_dropped_total{table=\"holders\"} %llu\n",
		(unsigned long long)t->dropped_holders);
	fprintf(out, "lockblame_ledger_dropped_total{table=\"chains\"} %llu\n",
		(unsigned long long)t->dropped_chains);
	lbt_prom_head(out, "deadlocks", "gauge", "Distinct deadlock cycles seen.");
	lbt_prom_value(out, "deadlocks", t->deadlocks, false);
}

int lbt_prometheus(const struct lbt_opts *o, const struct lbt_doc *doc, FILE *out)
{
	size_t n = LBT_ROWS(doc, LBT_T_PROCESS), k = 0, i;
	const struct lbt_process **p = calloc(n + 1, sizeof(*p));

	if (!p)
		return lbt_fail(LBT_EXIT_RUNTIME, "out of memory");
	for (i = 0; i < n; i++) {
		const struct lbt_process *proc = LBT_REC(doc, LBT_T_PROCESS, struct lbt_process, i);

		if (proc->h.keep)
			p[k++] = proc;
	}
	qsort(p, k, sizeof(*p), lbt_proc_cmp);
	lbt_prom_totals(out, lbt_totals(doc));
	lbt_prom_procs(out, "wait_seconds_total",
		       "Time spent waiting on contended locks, per process (top N, the rest as other).",
		       p, k, o->top, offsetof(struct lbt_process, wait_ns));
	lbt_prom_procs(out, "blame_seconds_total",
		       "Waiting inflicted on others while holding a lock, per process.",
		       p, k, o->top, offsetof(struct lbt_process, blame_ns));
	lbt_prom_procs(out, "root_blame_seconds_total",
		       "Blame kept as the root cause, through chains of holders that waited.",
		       p, k, o->top, offsetof(struct lbt_process, root_blame_ns));
	lbt_prom_procs(out, "hold_seconds_total",
		       "Time holding a lock while others waited, per process.",
		       p, k, o->top, offsetof(struct lbt_process, hold_ns));
	lbt_prom_verdicts(out, p, k);
	lbt_prom_classes(out, doc);
	free(p);
	return 0;
}
