// SPDX-License-Identifier: GPL-2.0
/*
 * --outliers: the worst cases the ledger kept whole (its outlier records),
 * longest first, each with its victim and holder, why the holder was slow,
 * the chain's root, and both stacks symbolized from the "stacks" file:
 * kernel frames as the module named them, user frames from /proc/PID/maps
 * while the process runs.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "lockblame.h"

static int lbt_outlier_cmp(const void *a, const void *b)
{
	const struct lbt_outlier *x = *(const struct lbt_outlier *const *)a;
	const struct lbt_outlier *y = *(const struct lbt_outlier *const *)b;

	return x->ns > y->ns ? -1 : x->ns < y->ns;
}

/* The process name of @tgid the ledger knows, to check a pid was not reused. */
static const struct lbt_comm *lbt_process_comm(const struct lbt_doc *doc, int32_t tgid)
{
	size_t i;

	for (i = 0; i < LBT_ROWS(doc, LBT_T_PROCESS); i++) {
		const struct lbt_process *p = LBT_REC(doc, LBT_T_PROCESS, struct lbt_process, i);

		if (p->tgid == tgid)
			return &p->comm;
	}
	return NULL;
}

/* One frame: a user address named in @tgid if it can be, else as it is. */
static void lbt_outlier_frame(const struct lbt_opts *o, const struct lbt_doc *doc,
			      const struct lbt_stack *st, const char *frame, int32_t tgid,
			      FILE *out)
{
	char buf[256], *end;
	uint64_t uaddr;

	if (st->user && !o->no_symbols && tgid > 0 && !strncmp(frame, "0x", 2)) {
		uaddr = strtoull(frame, &end, 16);
		if (!*end && lbt_symbolize(tgid, lbt_process_comm(doc, tgid), uaddr, buf,
					   sizeof(buf))) {
			fprintf(out, "      %s\n", buf);
			return;
		}
	}
	fprintf(out, "      %s\n", frame);
}

static void lbt_outlier_stack(const struct lbt_opts *o, const struct lbt_doc *doc,
			      const char *what, uint32_t id, int32_t tgid, FILE *out)
{
	const struct lbt_stack *st;
	unsigned int i;

	if (!id)
		return;
	st = lbt_stack_find(&doc->stacks, id);
	fprintf(out, "    %s (stack %u):%s\n", what, id, st ? "" : " not in the stacks file");
	for (i = 0; st && i < st->n; i++)
		lbt_outlier_frame(o, doc, st, st->frames[i], tgid, out);
}

static const char *lbt_who(char *buf, size_t size, const struct lbt_comm *c, int32_t pid,
			   int32_t tgid)
{
	char comm[LBT_COMM_BUF];

	if (!pid)
		return "unknown";
	snprintf(buf, size, "%s/%d (tgid %d)", lbt_comm_text(comm, sizeof(comm), c->b, c->len),
		 pid, tgid);
	return buf;
}

static void lbt_outlier_print(const struct lbt_opts *o, const struct lbt_doc *doc,
			      const struct lbt_outlier *x, FILE *out)
{
	char ns[4][LBT_NS_BUF], dur[LBT_NS_BUF], victim[96], holder[96];
	char name[LBT_COMM_BUF];
	const struct lbt_task *root = x->root ? lbt_task_find(doc, x->root) : NULL;

	fprintf(out, "%s %s on %s %016" PRIx64 "%s%s\n", x->kind,
		lbt_ns(dur, sizeof(dur), x->ns), x->class, x->lock, x->name.len ? " " : "",
		x->name.len ? lbt_comm_text(name, sizeof(name), x->name.b, x->name.len) : "");
	fprintf(out, "  victim %s, holder %s\n",
		lbt_who(victim, sizeof(victim), &x->victim_comm, x->victim, x->victim_tgid),
		lbt_who(holder, sizeof(holder), &x->holder_comm, x->holder, x->holder_tgid));
	if (!x->on_cpu_ns && !x->runnable_ns && !x->sleeping_ns && !x->unknown_ns)
		fputs("  the hold: not measured (the release that ended the wait was not the holder's)\n",
		      out);
	else
		fprintf(out, "  the hold: on CPU %s, runnable %s, asleep %s, not known %s\n",
			lbt_ns(ns[0], sizeof(ns[0]), x->on_cpu_ns),
			lbt_ns(ns[1], sizeof(ns[1]), x->runnable_ns),
			lbt_ns(ns[2], sizeof(ns[2]), x->sleeping_ns),
			lbt_ns(ns[3], sizeof(ns[3]), x->unknown_ns));
	if (x->root)
		fprintf(out, "  root cause: %s (the holder itself waited)\n",
			root ? lbt_who(victim, sizeof(victim), &root->comm, root->pid, root->tgid) :
			"a task no longer tracked");
	if (!x->victim_stack && !x->victim_ustack && !x->holder_stack && !x->holder_ustack)
		fputs("    no stacks (stacks were off)\n", out);
	lbt_outlier_stack(o, doc, "victim's kernel stack", x->victim_stack, x->victim_tgid, out);
	lbt_outlier_stack(o, doc, "victim's user stack", x->victim_ustack, x->victim_tgid, out);
	lbt_outlier_stack(o, doc, "holder's kernel stack", x->holder_stack, x->holder_tgid, out);
	lbt_outlier_stack(o, doc, "holder's user stack", x->holder_ustack, x->holder_tgid, out);
}

int lbt_outliers(const struct lbt_opts *o, const struct lbt_doc *doc, FILE *out)
{
	const struct lbt_totals *t = lbt_totals(doc);
	size_t i, n = 0, rows = LBT_ROWS(doc, LBT_T_OUTLIER);
	const struct lbt_outlier **v = calloc(rows + 1, sizeof(*v));
	char thr[LBT_NS_BUF];

	if (!v)
		return lbt_fail(LBT_EXIT_RUNTIME, "out of memory");
	for (i = 0; i < rows; i++) {
		const struct lbt_outlier *x = LBT_REC(doc, LBT_T_OUTLIER, struct lbt_outlier, i);

		if (x->h.keep)
			v[n++] = x;
	}
	qsort(v, n, sizeof(*v), lbt_outlier_cmp);
	if (!t->outlier_ns)
		fprintf(out, "OUTLIERS: off (lockblame --outlier-ns N, or echo outlier_ns=N > control)\n");
	else
		fprintf(out, "OUTLIERS: waits and holds of %s or more, longest first (%zu shown; %" PRIu64 " not kept)\n",
			lbt_ns(thr, sizeof(thr), t->outlier_ns), n, t->outliers_missed);
	if (n && !doc->stacks.loaded)
		for (i = 0; i < n; i++)
			if (v[i]->victim_stack || v[i]->holder_stack) {
				lbt_warn("the outliers name stacks but %s/stacks is missing", o->dir);
				break;
			}
	for (i = 0; i < n; i++)
		lbt_outlier_print(o, doc, v[i], out);
	free(v);
	return 0;
}
