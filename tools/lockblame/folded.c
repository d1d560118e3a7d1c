// SPDX-License-Identifier: GPL-2.0
/*
 * --folded: "frame;frame;frame value" lines for flame graphs. Causes are
 * weighted by the blame charged at their stacks, victims by their waiting;
 * with no stack records, one line per task instead, and a note saying so.
 * --role event folds the event waits instead (futex sleeps for a signal, not
 * contention): process;waiter-pid;[event wait];signaller-pid, by wait.
 */
#include <stdlib.h>
#include <string.h>
#include "lockblame.h"

struct lbt_fold {
	char *stack;
	uint64_t value;
};

struct lbt_folds {
	struct lbt_fold *v;
	size_t n, cap;
};

struct lbt_sbuf {
	char *s;
	size_t len, cap;
};

static bool lbt_sb_put(struct lbt_sbuf *sb, const char *s, size_t n)
{
	char *v = lbt_grow(sb->s, &sb->cap, sb->len + n + 1, 1);

	if (!v)
		return false;
	sb->s = v;
	memcpy(sb->s + sb->len, s, n);
	sb->len += n;
	sb->s[sb->len] = '\0';
	return true;
}

/* A frame: bytes that would break the format (';', controls, non-ASCII) as \xNN. */
static bool lbt_sb_frame(struct lbt_sbuf *sb, const unsigned char *b, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	if (sb->len && !lbt_sb_put(sb, ";", 1))
		return false;
	for (i = 0; i < len; i++) {
		char e[4] = { '\\', 'x', hex[b[i] >> 4], hex[b[i] & 15] };
		bool esc = b[i] < 0x20 || b[i] >= 0x7f || b[i] == ';' || b[i] == '\\';

		if (!lbt_sb_put(sb, esc ? e : (const char *)&b[i], esc ? 4 : 1))
			return false;
	}
	return true;
}

/* "comm-pid" (or "pid" without a task record) as a frame. */
static bool lbt_sb_task(struct lbt_sbuf *sb, const struct lbt_comm *c, int32_t id)
{
	char num[16];
	struct lbt_comm tmp = { .len = 0 };
	int n;

	if (c && c->len) {
		tmp = *c;
		n = snprintf(num, sizeof(num), "-%d", id);
	} else {
		n = snprintf(num, sizeof(num), "%d", id);
	}
	if (tmp.len + n > LBT_COMM_MAX)
		tmp.len = LBT_COMM_MAX - n;
	memcpy(tmp.b + tmp.len, num, n);
	return lbt_sb_frame(sb, tmp.b, tmp.len + n);
}

/*
 * A kernel frame without its offset and size ("func+0x1c/0x40 [mod]" is
 * "func [mod]"), so that one function is one frame; user addresses as they are.
 */
static bool lbt_sb_code_frame(struct lbt_sbuf *sb, const char *f)
{
	const char *plus = strstr(f, "+0x");
	const char *slash = plus ? strstr(plus, "/0x") : NULL;
	char buf[512];

	if (!plus || !slash)
		return lbt_sb_frame(sb, (const unsigned char *)f, strlen(f));
	slash += strcspn(slash, " ");
	snprintf(buf, sizeof(buf), "%.*s%s", (int)(plus - f), f, slash);
	return lbt_sb_frame(sb, (const unsigned char *)buf, strlen(buf));
}

static bool lbt_fold_add(struct lbt_folds *fs, char *stack, uint64_t value)
{
	struct lbt_fold *v = lbt_grow(fs->v, &fs->cap, fs->n + 1, sizeof(*v));

	if (!v)
		return false;
	fs->v = v;
	fs->v[fs->n++] = (struct lbt_fold){ .stack = stack, .value = value };
	return true;
}

static int lbt_fold_name_cmp(const void *a, const void *b)
{
	return strcmp(((const struct lbt_fold *)a)->stack, ((const struct lbt_fold *)b)->stack);
}

static int lbt_fold_value_cmp(const void *a, const void *b)
{
	const struct lbt_fold *x = a, *y = b;

	if (x->value != y->value)
		return x->value > y->value ? -1 : 1;
	return strcmp(x->stack, y->stack);
}

/* Identical stacks summed, then the heaviest first. */
static void lbt_folds_print(struct lbt_folds *fs, FILE *out)
{
	size_t i, n = 0;

	qsort(fs->v, fs->n, sizeof(*fs->v), lbt_fold_name_cmp);
	for (i = 0; i < fs->n; i++) {
		if (n && !strcmp(fs->v[n - 1].stack, fs->v[i].stack)) {
			fs->v[n - 1].value += fs->v[i].value;
			free(fs->v[i].stack);
		} else {
			fs->v[n++] = fs->v[i];
		}
	}
	fs->n = n;
	qsort(fs->v, fs->n, sizeof(*fs->v), lbt_fold_value_cmp);
	for (i = 0; i < fs->n; i++)
		fprintf(out, "%s %llu\n", fs->v[i].stack, (unsigned long long)fs->v[i].value);
}

static bool lbt_fold_stackref(const struct lbt_doc *doc, const struct lbt_stackref *s,
			      struct lbt_folds *fs, unsigned long *missing)
{
	const struct lbt_task *t = lbt_task_find(doc, s->pid);
	const struct lbt_stack *st = lbt_stack_find(&doc->stacks, s->id);
	struct lbt_sbuf sb = { 0 };
	char role[LBT_WORD_MAX + 2], unknown[40];
	unsigned int i;
	bool ok;

	snprintf(role, sizeof(role), "[%s]", s->role);
	ok = lbt_sb_task(&sb, t ? &t->comm : NULL, s->pid) &&
	     lbt_sb_frame(&sb, (const unsigned char *)role, strlen(role));
	if (st) {
		for (i = st->n; ok && i > 0; i--)
			ok = lbt_sb_code_frame(&sb, st->frames[i - 1]);
	} else {
		(*missing)++;
		snprintf(unknown, sizeof(unknown), "[stack %u unknown]", s->id);
		ok = ok && lbt_sb_frame(&sb, (const unsigned char *)unknown, strlen(unknown));
	}
	if (ok && lbt_fold_add(fs, sb.s, s->ns))
		return true;
	free(sb.s);
	return false;
}

/* Without stacks: process;comm-pid;[cause] blame and ...;[victim] wait per task. */
static bool lbt_fold_task(const struct lbt_doc *doc, const struct lbt_opts *o,
			  const struct lbt_task *t, struct lbt_folds *fs)
{
	const struct lbt_comm *pcomm = &t->comm;
	static const char * const roles[] = LB_STACK_ROLE_NAMES;
	size_t i;
	int r;

	for (i = 0; i < LBT_ROWS(doc, LBT_T_PROCESS); i++) {
		const struct lbt_process *p = LBT_REC(doc, LBT_T_PROCESS, struct lbt_process, i);

		if (p->tgid == t->tgid && p->comm.len)
			pcomm = &p->comm;
	}
	for (r = 0; r < 2; r++) {
		uint64_t v = r ? t->wait_ns : t->blame_ns;
		struct lbt_sbuf sb = { 0 };
		char role[16];

		if (!v || (o->f.role && strcmp(o->f.role, roles[r])))
			continue;
		snprintf(role, sizeof(role), "[%s]", roles[r]);
		if (!lbt_sb_task(&sb, pcomm, t->tgid) || !lbt_sb_task(&sb, &t->comm, t->pid) ||
		    !lbt_sb_frame(&sb, (const unsigned char *)role, strlen(role)) ||
		    !lbt_fold_add(fs, sb.s, v)) {
			free(sb.s);
			return false;
		}
	}
	return true;
}

/* The process name of @tgid from its process record, or @fallback. */
static const struct lbt_comm *lbt_proc_comm(const struct lbt_doc *doc, int32_t tgid,
					    const struct lbt_comm *fallback)
{
	size_t i;

	for (i = 0; i < LBT_ROWS(doc, LBT_T_PROCESS); i++) {
		const struct lbt_process *p = LBT_REC(doc, LBT_T_PROCESS, struct lbt_process, i);

		if (p->tgid == tgid && p->comm.len)
			return &p->comm;
	}
	return fallback;
}

static bool lbt_fold_signal(const struct lbt_doc *doc, const struct lbt_signal *g,
			    struct lbt_folds *fs)
{
	static const char mark[] = "[event wait]", nobody[] = "[nobody seen]";
	struct lbt_sbuf sb = { 0 };
	bool ok;

	ok = lbt_sb_task(&sb, lbt_proc_comm(doc, g->waiter_tgid, &g->waiter_comm),
			 g->waiter_tgid) &&
	     lbt_sb_task(&sb, &g->waiter_comm, g->waiter) &&
	     lbt_sb_frame(&sb, (const unsigned char *)mark, strlen(mark));
	if (ok && g->waker)
		ok = lbt_sb_task(&sb, &g->waker_comm, g->waker);
	else if (ok)
		ok = lbt_sb_frame(&sb, (const unsigned char *)nobody, strlen(nobody));
	if (ok && lbt_fold_add(fs, sb.s, g->wait_ns))
		return true;
	free(sb.s);
	return false;
}

int lbt_folded(const struct lbt_opts *o, const struct lbt_doc *doc, FILE *out)
{
	struct lbt_folds fs = { 0 };
	unsigned long missing = 0;
	bool ok = true;
	size_t i;

	if (o->f.role && !strcmp(o->f.role, "event")) {
		for (i = 0; ok && i < LBT_ROWS(doc, LBT_T_SIGNAL); i++) {
			const struct lbt_signal *g = LBT_REC(doc, LBT_T_SIGNAL, struct lbt_signal, i);

			if (g->h.keep && g->wait_ns)
				ok = lbt_fold_signal(doc, g, &fs);
		}
	} else if (LBT_ROWS(doc, LBT_T_STACK)) {
		if (!doc->stacks.loaded)
			lbt_warn("the ledger names stacks but %s/stacks is missing: frames unknown",
				 o->dir);
		for (i = 0; ok && i < LBT_ROWS(doc, LBT_T_STACK); i++) {
			const struct lbt_stackref *s =
				LBT_REC(doc, LBT_T_STACK, struct lbt_stackref, i);

			if (s->h.keep && s->ns)
				ok = lbt_fold_stackref(doc, s, &fs, &missing);
		}
		if (missing && doc->stacks.loaded)
			lbt_warn("%lu stack records name stacks not in the stacks file", missing);
	} else {
		lbt_warn("no stack records in the ledger (stacks were off: lockblame --stacks on, or load the module with stacks=1); folding per task instead");
		for (i = 0; ok && i < LBT_ROWS(doc, LBT_T_TASK); i++) {
			const struct lbt_task *t = LBT_REC(doc, LBT_T_TASK, struct lbt_task, i);

			if (t->h.keep)
				ok = lbt_fold_task(doc, o, t, &fs);
		}
	}
	if (ok) {
		if (!fs.n)
			lbt_warn("nothing to fold: no %s recorded%s",
				 o->f.role && !strcmp(o->f.role, "event") ? "event wait" :
				 "blame or waiting",
				 lbt_filter_active(&o->f) || o->f.role ? " for this filter" : "");
		lbt_folds_print(&fs, out);
	}
	for (i = 0; i < fs.n; i++)
		free(fs.v[i].stack);
	free(fs.v);
	return ok ? 0 : lbt_fail(LBT_EXIT_RUNTIME, "out of memory");
}
