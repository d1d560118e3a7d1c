// SPDX-License-Identifier: GPL-2.0
/*
 * --dot: a graphviz graph of who made whom wait. Tasks are nodes coloured by
 * verdict inside one cluster per process; an edge runs from holder to victim
 * weighted by blame; chains are dashed; deadlocks are red. Event waits
 * (futex sleeps for a signal, not contention) are dotted grey edges from
 * signaller to waiter, the top -n of them by wait; a party with no task node
 * gets a grey one of its own.
 */
#include <stdlib.h>
#include <string.h>
#include "lockblame.h"

struct lbt_node {
	int32_t pid;
	int32_t tgid;		/* 0: no task record */
	bool deadlocked;
};

struct lbt_nodes {
	struct lbt_node *v;
	size_t n, cap;
};

static struct lbt_node *lbt_node_get(struct lbt_nodes *ns, const struct lbt_doc *doc, int32_t pid)
{
	const struct lbt_task *t;
	struct lbt_node *v;
	size_t i;

	for (i = 0; i < ns->n; i++)
		if (ns->v[i].pid == pid)
			return &ns->v[i];
	v = lbt_grow(ns->v, &ns->cap, ns->n + 1, sizeof(*v));
	if (!v)
		return NULL;
	ns->v = v;
	t = lbt_task_find(doc, pid);
	ns->v[ns->n] = (struct lbt_node){ .pid = pid, .tgid = t ? t->tgid : 0 };
	return &ns->v[ns->n++];
}

/* A DOT string body: the ledger's \xNN escaping, with backslash and quote escaped. */
static void lbt_dot_text(FILE *out, const unsigned char *b, unsigned int len)
{
	char buf[LBT_COMM_BUF];
	const char *p;

	for (p = lbt_comm_text(buf, sizeof(buf), b, len); *p; p++) {
		if (*p == '\\' || *p == '"')
			fputc('\\', out);
		fputc(*p, out);
	}
}

static const char *lbt_verdict_colour(const char *verdict)
{
	static const char *const names[LB_VERDICT_MAX] = LB_VERDICT_NAMES;
	static const char *const colours[LB_VERDICT_MAX] = {
		[LB_VERDICT_CAUSE] = "#f4a3a3",
		[LB_VERDICT_VICTIM] = "#a3c8f4",
		[LB_VERDICT_SHARED] = "#e0b0e8",
	};
	unsigned int v;

	for (v = 0; v < LB_VERDICT_MAX; v++)
		if (colours[v] && !strcmp(verdict, names[v]))
			return colours[v];
	return "#eeeeee";
}

static void lbt_dot_node(FILE *out, const struct lbt_doc *doc, const struct lbt_node *n)
{
	const struct lbt_task *t = lbt_task_find(doc, n->pid);
	char a[LBT_NS_BUF], b[LBT_NS_BUF];

	fprintf(out, "\t\tt%d [label=\"", n->pid);
	if (t) {
		lbt_dot_text(out, t->comm.b, t->comm.len);
		fprintf(out, "\\npid %d\\n%s: blame %s, wait %s\", fillcolor=\"%s\"", n->pid,
			*t->verdict ? t->verdict : "none", lbt_ns(a, sizeof(a), t->blame_ns),
			lbt_ns(b, sizeof(b), t->wait_ns), lbt_verdict_colour(t->verdict));
	} else {
		fprintf(out, "pid %d\\n(not in the ledger)\", fillcolor=\"white\"", n->pid);
	}
	if (n->deadlocked)
		fputs(", color=red, penwidth=3", out);
	fputs("];\n", out);
}

/* "\nlock ID" and, if it has one, its name. */
static void lbt_dot_lock(FILE *out, const struct lbt_doc *doc, uint64_t id)
{
	const struct lbt_lock *l = lbt_lock_find(doc, id);

	fprintf(out, "\\nlock %016llx", (unsigned long long)id);
	char buf[LBT_COMM_BUF];
	const char *p;

	if (!l || !l->name.len)
		return;
	fputc(' ', out);
	for (p = lbt_name_text(buf, sizeof(buf), &l->name); *p; p++) {
		if (*p == '\\' || *p == '"')
			fputc('\\', out);
		fputc(*p, out);
	}
}

static void lbt_dot_clusters(FILE *out, const struct lbt_doc *doc, struct lbt_nodes *ns)
{
	char a[LBT_NS_BUF], b[LBT_NS_BUF];
	size_t i, j;

	for (i = 0; i < ns->n; i++) {
		const struct lbt_process *p = NULL;
		bool seen = false;

		if (!ns->v[i].tgid) {
			lbt_dot_node(out, doc, &ns->v[i]);
			continue;
		}
		for (j = 0; j < i && !seen; j++)
			seen = ns->v[j].tgid == ns->v[i].tgid;
		if (seen)
			continue;
		for (j = 0; j < LBT_ROWS(doc, LBT_T_PROCESS); j++) {
			const struct lbt_process *q;

			q = LBT_REC(doc, LBT_T_PROCESS, struct lbt_process, j);
			if (q->tgid == ns->v[i].tgid)
				p = q;
		}
		fprintf(out, "\tsubgraph cluster_%d {\n\t\tstyle=\"rounded,dashed\"; color=grey50;\n"
			"\t\tlabel=\"", ns->v[i].tgid);
		if (p) {
			lbt_dot_text(out, p->comm.b, p->comm.len);
			fprintf(out, " (tgid %d)\\n%s: blame %s, wait %s\";\n", p->tgid,
				*p->verdict ? p->verdict : "none",
				lbt_ns(a, sizeof(a), p->blame_ns),
				lbt_ns(b, sizeof(b), p->wait_ns));
		} else {
			fprintf(out, "tgid %d\";\n", ns->v[i].tgid);
		}
		for (j = i; j < ns->n; j++)
			if (ns->v[j].tgid == ns->v[i].tgid)
				lbt_dot_node(out, doc, &ns->v[j]);
		fputs("\t}\n", out);
	}
}

/* Is there a deadlock holding both @x and @y? */
static bool lbt_same_deadlock(const struct lbt_doc *doc, int32_t x, int32_t y)
{
	size_t i;
	unsigned int j;

	for (i = 0; i < LBT_ROWS(doc, LBT_T_DEADLOCK); i++) {
		const struct lbt_deadlock *d = LBT_REC(doc, LBT_T_DEADLOCK, struct lbt_deadlock, i);
		bool hx = false, hy = false;

		if (!d->h.keep)
			continue;
		for (j = 0; j < d->tasks.n; j++) {
			hx |= d->tasks.v[j] == x;
			hy |= d->tasks.v[j] == y;
		}
		if (hx && hy)
			return true;
	}
	return false;
}

static bool lbt_dot_collect(const struct lbt_doc *doc, struct lbt_nodes *ns)
{
	size_t i;
	unsigned int j;

	for (i = 0; i < LBT_ROWS(doc, LBT_T_TASK); i++) {
		const struct lbt_task *t = LBT_REC(doc, LBT_T_TASK, struct lbt_task, i);

		if (t->h.keep && !lbt_node_get(ns, doc, t->pid))
			return false;
	}
	for (i = 0; i < LBT_ROWS(doc, LBT_T_PAIR); i++) {
		const struct lbt_pair *p = LBT_REC(doc, LBT_T_PAIR, struct lbt_pair, i);

		if (p->h.keep && p->holder > 0 && p->victim > 0 &&
		    (!lbt_node_get(ns, doc, p->holder) || !lbt_node_get(ns, doc, p->victim)))
			return false;
	}
	for (i = 0; i < LBT_ROWS(doc, LBT_T_CHAIN); i++) {
		const struct lbt_chain *c = LBT_REC(doc, LBT_T_CHAIN, struct lbt_chain, i);

		if (c->h.keep && c->holder > 0 && c->root > 0 &&
		    (!lbt_node_get(ns, doc, c->holder) || !lbt_node_get(ns, doc, c->root)))
			return false;
	}
	for (i = 0; i < LBT_ROWS(doc, LBT_T_DEADLOCK); i++) {
		const struct lbt_deadlock *d = LBT_REC(doc, LBT_T_DEADLOCK, struct lbt_deadlock, i);

		for (j = 0; d->h.keep && j < d->tasks.n; j++) {
			struct lbt_node *n = lbt_node_get(ns, doc, d->tasks.v[j]);

			if (!n)
				return false;
			n->deadlocked = true;
		}
	}
	return true;
}

static void lbt_dot_edges(FILE *out, const struct lbt_doc *doc)
{
	char a[LBT_NS_BUF];
	uint64_t max = 1;
	unsigned int j;
	size_t i;
	bool red;

	for (i = 0; i < LBT_ROWS(doc, LBT_T_PAIR); i++) {
		const struct lbt_pair *p = LBT_REC(doc, LBT_T_PAIR, struct lbt_pair, i);

		if (p->h.keep && p->blame_ns > max)
			max = p->blame_ns;
	}
	for (i = 0; i < LBT_ROWS(doc, LBT_T_PAIR); i++) {
		const struct lbt_pair *p = LBT_REC(doc, LBT_T_PAIR, struct lbt_pair, i);

		if (!p->h.keep || p->holder <= 0 || p->victim <= 0)
			continue;
		red = lbt_same_deadlock(doc, p->holder, p->victim);
		fprintf(out, "\tt%d -> t%d [label=\"%s\", penwidth=%.2f, weight=%d%s];\n",
			p->holder, p->victim, lbt_ns(a, sizeof(a), p->blame_ns),
			1.0 + 5.0 * p->blame_ns / max, 1 + (int)(10.0 * p->blame_ns / max),
			red ? ", color=red, fontcolor=red" : "");
	}
	for (i = 0; i < LBT_ROWS(doc, LBT_T_CHAIN); i++) {
		const struct lbt_chain *c = LBT_REC(doc, LBT_T_CHAIN, struct lbt_chain, i);

		if (!c->h.keep || c->holder <= 0 || c->root <= 0)
			continue;
		fprintf(out, "\tt%d -> t%d [style=dashed, color=grey40, fontcolor=grey40, label=\"chain %s\\nvia",
			c->root, c->holder, lbt_ns(a, sizeof(a), c->blame_ns));
		lbt_dot_lock(out, doc, c->waits_on);
		fputs("\"];\n", out);
	}
	for (i = 0; i < LBT_ROWS(doc, LBT_T_DEADLOCK); i++) {
		const struct lbt_deadlock *d = LBT_REC(doc, LBT_T_DEADLOCK, struct lbt_deadlock, i);

		if (!d->h.keep)
			continue;
		fprintf(out, "\tdeadlock%zu [shape=octagon, style=filled, ", i);
		fputs("fillcolor=\"#ffdddd\", color=red, fontcolor=red, label=\"DEADLOCK", out);
		for (j = 0; j < d->locks.n; j++)
			lbt_dot_lock(out, doc, d->locks.v[j]);
		fputs("\"];\n", out);
		for (j = 0; j < d->tasks.n; j++)
			fprintf(out, "\tdeadlock%zu -> t%d [color=red, style=bold, arrowhead=none];\n",
				i, d->tasks.v[j]);
	}
}

static int lbt_signal_cmp(const void *a, const void *b)
{
	const struct lbt_signal *x = *(const struct lbt_signal * const *)a;
	const struct lbt_signal *y = *(const struct lbt_signal * const *)b;

	if (x->wait_ns != y->wait_ns)
		return x->wait_ns > y->wait_ns ? -1 : 1;
	return x->h.line < y->h.line ? -1 : x->h.line > y->h.line;
}

static bool lbt_dot_has(const struct lbt_nodes *ns, int32_t pid)
{
	size_t i;

	for (i = 0; i < ns->n; i++)
		if (ns->v[i].pid == pid)
			return true;
	return false;
}

/* An event-wait party: its task node if it has one, else a grey node once. */
static void lbt_dot_party(FILE *out, const struct lbt_nodes *ns, int32_t pid,
			  const struct lbt_comm *c, int32_t *done, size_t *ndone)
{
	size_t i;

	if (lbt_dot_has(ns, pid))
		return;
	for (i = 0; i < *ndone; i++)
		if (done[i] == pid)
			return;
	done[(*ndone)++] = pid;
	fprintf(out, "	t%d [label=\"", pid);
	lbt_dot_text(out, c->b, c->len);
	fprintf(out, "\\npid %d\\nevent waits only\", fillcolor=\"#f4f4f4\", color=grey60, fontcolor=grey30];\n",
		pid);
}

static bool lbt_dot_events(const struct lbt_opts *o, const struct lbt_doc *doc,
			   const struct lbt_nodes *ns, FILE *out)
{
	size_t i, n = 0, shown, ndone = 0;
	char a[LBT_NS_BUF];
	const struct lbt_signal **v;
	int32_t *done;

	v = calloc(LBT_ROWS(doc, LBT_T_SIGNAL) + 1, sizeof(*v));
	done = calloc(2 * LBT_ROWS(doc, LBT_T_SIGNAL) + 1, sizeof(*done));
	if (!v || !done) {
		free(v);
		free(done);
		return false;
	}
	for (i = 0; i < LBT_ROWS(doc, LBT_T_SIGNAL); i++) {
		const struct lbt_signal *g = LBT_REC(doc, LBT_T_SIGNAL, struct lbt_signal, i);

		if (g->h.keep && g->waker > 0 && g->waiter > 0 && g->wait_ns)
			v[n++] = g;
	}
	qsort(v, n, sizeof(*v), lbt_signal_cmp);
	shown = n < o->top ? n : o->top;
	for (i = 0; i < shown; i++) {
		lbt_dot_party(out, ns, v[i]->waker, &v[i]->waker_comm, done, &ndone);
		lbt_dot_party(out, ns, v[i]->waiter, &v[i]->waiter_comm, done, &ndone);
	}
	for (i = 0; i < shown; i++)
		fprintf(out, "\tt%d -> t%d [style=dotted, color=grey50, fontcolor=grey50, constraint=false, label=\"signalled: %s\\n%llu waits\"];\n",
			v[i]->waker, v[i]->waiter, lbt_ns(a, sizeof(a), v[i]->wait_ns),
			(unsigned long long)v[i]->waits);
	free(v);
	free(done);
	return true;
}

int lbt_dot(const struct lbt_opts *o, const struct lbt_doc *doc, FILE *out)
{
	const struct lbt_totals *t = lbt_totals(doc);
	char a[LBT_NS_BUF], b[LBT_NS_BUF], c[LBT_NS_BUF];
	struct lbt_nodes ns = { 0 };

	if (!lbt_dot_collect(doc, &ns)) {
		free(ns.v);
		return lbt_fail(LBT_EXIT_RUNTIME, "out of memory");
	}
	fputs("digraph lockblame {\n", out);
	fprintf(out, "\tgraph [rankdir=LR, labelloc=t, fontname=\"Helvetica\", label=\"lockblame: holder -> victim, weighted by blame; dashed: chain to the root cause; red: deadlock; dotted: event waits (signaller -> waiter, not contention)\\nwait %s = blamed %s + unattributed %s\"];\n",
		lbt_ns(a, sizeof(a), t->wait_ns), lbt_ns(b, sizeof(b), t->blame_ns),
		lbt_ns(c, sizeof(c), t->unattributed_ns));
	fputs("\tnode [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10];\n"
	      "\tedge [fontname=\"Helvetica\", fontsize=9];\n", out);
	lbt_dot_clusters(out, doc, &ns);
	lbt_dot_edges(out, doc);
	if (!lbt_dot_events(o, doc, &ns, out)) {
		free(ns.v);
		return lbt_fail(LBT_EXIT_RUNTIME, "out of memory");
	}
	if (!ns.n && !LBT_ROWS(doc, LBT_T_SIGNAL))
		fputs("\tempty [shape=plaintext, label=\"no contention recorded\"];\n", out);
	fputs("}\n", out);
	free(ns.v);
	return 0;
}
