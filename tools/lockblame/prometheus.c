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

/* The per-process counters: each a field of struct lbt_process, in ns. */
struct lbt_prom_series {
	const char *name, *help;
	size_t off;
};

static const struct lbt_prom_series lbt_prom_proc_series[] = {
	{ "wait_seconds_total",
	  "Time spent waiting on contended locks, per process (top N, the rest as other).",
	  offsetof(struct lbt_process, wait_ns) },
	{ "blame_seconds_total", "Waiting inflicted on others while holding a lock, per process.",
	  offsetof(struct lbt_process, blame_ns) },
	{ "root_blame_seconds_total",
	  "Blame kept as the root cause, through chains of holders that waited.",
	  offsetof(struct lbt_process, root_blame_ns) },
	{ "hold_seconds_total", "Time holding a lock while others waited, per process.",
	  offsetof(struct lbt_process, hold_ns) },
};

/* One per-process counter: the @top processes by name, the rest summed as other. */
static void lbt_prom_procs(FILE *out, const struct lbt_prom_series *sr,
			   const struct lbt_process **p, size_t n, size_t top)
{
	uint64_t rest = 0;
	size_t i;

	lbt_prom_head(out, sr->name, "counter", sr->help);
	for (i = 0; i < n; i++) {
		uint64_t ns = *(const uint64_t *)((const char *)p[i] + sr->off);

		if (i >= top) {
			rest += ns;
			continue;
		}
		fprintf(out, "lockblame_%s{tgid=\"%d\",comm=\"", sr->name, p[i]->tgid);
		lbt_prom_label(out, p[i]->comm.b, p[i]->comm.len);
		fprintf(out, "\"} %.9f\n", ns / 1e9);
	}
	if (n > top)
		fprintf(out, "lockblame_%s{tgid=\"other\",comm=\"other\"} %.9f\n", sr->name,
			rest / 1e9);
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

/*
 * Per cgroup, when the ledger knows them: the @top cgroups by blame, by
 * path (cgroup:ID when not found, - when not known), the rest as other.
 */
static void lbt_prom_cgroups(FILE *out, const struct lbt_doc *doc, size_t top)
{
	static const struct {
		const char *name, *help;
		size_t off;
	} series[] = {
		{ "cgroup_wait_seconds_total", "Time spent waiting on contended locks, per cgroup v2.",
		  offsetof(struct lbt_cgroup_sum, wait_ns) },
		{ "cgroup_blame_seconds_total", "Waiting inflicted on others while holding a lock, per cgroup v2.",
		  offsetof(struct lbt_cgroup_sum, blame_ns) },
		{ "cgroup_hold_seconds_total", "Time holding a lock while others waited, per cgroup v2.",
		  offsetof(struct lbt_cgroup_sum, hold_ns) },
	};
	struct lbt_cgroup_sum *s;
	char path[4096];
	size_t n, i, k;

	if (!lbt_cgroup_known(doc))
		return;
	s = lbt_cgroup_sums(doc, &n);
	for (k = 0; s && k < sizeof(series) / sizeof(series[0]); k++) {
		uint64_t rest = 0;

		lbt_prom_head(out, series[k].name, "counter", series[k].help);
		for (i = 0; i < n; i++) {
			uint64_t ns = *(const uint64_t *)((const char *)&s[i] + series[k].off);

			if (i >= top) {
				rest += ns;
				continue;
			}
			lbt_cgroup_name(path, sizeof(path), s[i].id);
			fprintf(out, "lockblame_%s{cgroup=\"", series[k].name);
			lbt_prom_label(out, (const unsigned char *)path, strlen(path));
			fprintf(out, "\"} %.9f\n", ns / 1e9);
		}
		if (n > top)
			fprintf(out, "lockblame_%s{cgroup=\"other\"} %.9f\n", series[k].name,
				rest / 1e9);
	}
	free(s);
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

/* The ledger's totals: one sample each. */
static void lbt_prom_totals(FILE *out, const struct lbt_totals *t)
{
	static const char *const tables[] = { "waiters", "pairs", "holders", "chains" };
	const struct {
		const char *name, *type, *help;
		uint64_t v;
		bool seconds;
	} one[] = {
		{ "window_seconds", "gauge", "How long the ledger has been counting.",
		  t->window_ns, true },
		{ "events_total", "counter", "Events the ledger took in.", t->events, false },
		{ "contention_seconds_total", "counter", "All waiting on contended locks.",
		  t->wait_ns, true },
		{ "unattributed_seconds_total", "counter",
		  "Waiting whose holder could not be named.", t->unattributed_ns, true },
		{ "pending_seconds", "gauge",
		  "Waiting whose holder is not known yet (named at its release).",
		  t->pending_ns, true },
		{ "event_wait_seconds_total", "counter",
		  "Futex sleeps that wait for an event (condition variables, idle pools), not a lock.",
		  t->event_wait_ns, true },
		{ "deadlocks", "gauge", "Distinct deadlock cycles seen.", t->deadlocks, false },
	};
	const uint64_t dropped[] = {
		t->dropped_waiters, t->dropped_pairs, t->dropped_holders, t->dropped_chains,
	};
	size_t i;

	for (i = 0; i < sizeof(one) / sizeof(one[0]); i++) {
		lbt_prom_head(out, one[i].name, one[i].type, one[i].help);
		if (one[i].seconds)
			fprintf(out, "lockblame_%s %.9f\n", one[i].name, one[i].v / 1e9);
		else
			fprintf(out, "lockblame_%s %llu\n", one[i].name,
				(unsigned long long)one[i].v);
	}
	lbt_prom_head(out, "ledger_dropped_total", "counter",
		      "What the ledger's tables had no room for: the figures are partial.");
	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		fprintf(out, "lockblame_ledger_dropped_total{table=\"%s\"} %llu\n", tables[i],
			(unsigned long long)dropped[i]);
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
	for (i = 0; i < sizeof(lbt_prom_proc_series) / sizeof(lbt_prom_proc_series[0]); i++)
		lbt_prom_procs(out, &lbt_prom_proc_series[i], p, k, o->top);
	lbt_prom_verdicts(out, p, k);
	lbt_prom_cgroups(out, doc, o->top);
	lbt_prom_classes(out, doc);
	free(p);
	return 0;
}
