// SPDX-License-Identifier: GPL-2.0
/*
 * Parser of the ledger dump ("# lockblame ledger v1", then one key=value
 * record per line): the record types and their keys are described once here,
 * and the JSON output walks the same tables.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lockblame.h"

#define F(type, key, kind, member) { #key, kind, offsetof(type, member) }
#define TYPE(name, json, st, f) { name, json, f, ARRAY_SIZE(f), sizeof(st) }

static const struct lbt_field lbt_totals_fields[] = {
	F(struct lbt_totals, events, LBT_U64, events),
	F(struct lbt_totals, wait_ns, LBT_U64, wait_ns),
	F(struct lbt_totals, blame_ns, LBT_U64, blame_ns),
	F(struct lbt_totals, pending_ns, LBT_U64, pending_ns),
	F(struct lbt_totals, unattributed_ns, LBT_U64, unattributed_ns),
	F(struct lbt_totals, late, LBT_U64, late),
	F(struct lbt_totals, unmatched, LBT_U64, unmatched),
	F(struct lbt_totals, evicted_locks, LBT_U64, evicted_locks),
	F(struct lbt_totals, evicted_tasks, LBT_U64, evicted_tasks),
	F(struct lbt_totals, dropped_waiters, LBT_U64, dropped_waiters),
	F(struct lbt_totals, dropped_pairs, LBT_U64, dropped_pairs),
	F(struct lbt_totals, window_ns, LBT_U64, window_ns),
	F(struct lbt_totals, invalid, LBT_U64, invalid),
	F(struct lbt_totals, dropped_holders, LBT_U64, dropped_holders),
	F(struct lbt_totals, dropped_chains, LBT_U64, dropped_chains),
	F(struct lbt_totals, deadlocks, LBT_U64, deadlocks),
	F(struct lbt_totals, futex_kinds, LBT_WORD, futex_kinds),
	F(struct lbt_totals, futex_lock_waits, LBT_U64, futex_lock_waits),
	F(struct lbt_totals, event_wait_ns, LBT_U64, event_wait_ns),
	F(struct lbt_totals, event_waits, LBT_U64, event_waits),
	F(struct lbt_totals, event_errors, LBT_U64, event_errors),
	F(struct lbt_totals, event_dropped, LBT_U64, event_dropped),
	F(struct lbt_totals, evicted_sleepers, LBT_U64, evicted_sleepers),
	F(struct lbt_totals, dropped_signals, LBT_U64, dropped_signals),
	F(struct lbt_totals, asleep, LBT_U64, asleep),
};

static const struct lbt_field lbt_lock_fields[] = {
	F(struct lbt_lock, id, LBT_ID, id),
	F(struct lbt_lock, class, LBT_WORD, class),
	F(struct lbt_lock, acq, LBT_U64, acq),
	F(struct lbt_lock, wait_ns, LBT_U64, wait_ns),
	F(struct lbt_lock, hold_ns, LBT_U64, hold_ns),
	F(struct lbt_lock, blame_ns, LBT_U64, blame_ns),
	F(struct lbt_lock, pending_ns, LBT_U64, pending_ns),
	F(struct lbt_lock, unattributed_ns, LBT_U64, unattributed_ns),
	F(struct lbt_lock, wait_p50, LBT_U64, wait_p50),
	F(struct lbt_lock, wait_p99, LBT_U64, wait_p99),
	F(struct lbt_lock, wait_max, LBT_U64, wait_max),
	F(struct lbt_lock, hold_p50, LBT_U64, hold_p50),
	F(struct lbt_lock, hold_p99, LBT_U64, hold_p99),
	F(struct lbt_lock, hold_max, LBT_U64, hold_max),
	F(struct lbt_lock, errors, LBT_U64, errors),
	F(struct lbt_lock, waiters, LBT_U64, waiters),
	F(struct lbt_lock, holder, LBT_S32, holder),
	F(struct lbt_lock, util_ppm, LBT_U64, util_ppm),
	F(struct lbt_lock, sat_milli, LBT_U64, sat_milli),
	F(struct lbt_lock, holders, LBT_U64, holders),
	F(struct lbt_lock, probable, LBT_S32, probable),
	F(struct lbt_lock, holds, LBT_U64, holds),
	F(struct lbt_lock, holds_lower_bound, LBT_U64, holds_lower_bound),
	F(struct lbt_lock, holds_at_release, LBT_U64, holds_at_release),
	F(struct lbt_lock, top_cause, LBT_S32, top_cause),
	F(struct lbt_lock, holds_unended, LBT_U64, holds_unended),
};

static const struct lbt_field lbt_task_fields[] = {
	F(struct lbt_task, pid, LBT_S32, pid),
	F(struct lbt_task, tgid, LBT_S32, tgid),
	F(struct lbt_task, comm, LBT_COMM, comm),
	F(struct lbt_task, wait_ns, LBT_U64, wait_ns),
	F(struct lbt_task, waits, LBT_U64, waits),
	F(struct lbt_task, hold_ns, LBT_U64, hold_ns),
	F(struct lbt_task, hold_on_cpu_ns, LBT_U64, hold_on_cpu_ns),
	F(struct lbt_task, holds, LBT_U64, holds),
	F(struct lbt_task, blame_ns, LBT_U64, blame_ns),
	F(struct lbt_task, root_blame_ns, LBT_U64, root_blame_ns),
	F(struct lbt_task, errors, LBT_U64, errors),
	F(struct lbt_task, verdict, LBT_WORD, verdict),
	F(struct lbt_task, kthread, LBT_U64, kthread),
	F(struct lbt_task, holds_lower_bound, LBT_U64, holds_lower_bound),
	F(struct lbt_task, hold_cpu_unknown_ns, LBT_U64, hold_cpu_unknown_ns),
	F(struct lbt_task, event_wait_ns, LBT_U64, event_wait_ns),
	F(struct lbt_task, event_waits, LBT_U64, event_waits),
	F(struct lbt_task, hold_runnable_ns, LBT_U64, hold_runnable_ns),
	F(struct lbt_task, hold_sleeping_ns, LBT_U64, hold_sleeping_ns),
	F(struct lbt_task, hold_runnable_unknown_ns, LBT_U64, hold_runnable_unknown_ns),
	F(struct lbt_task, holds_unended, LBT_U64, holds_unended),
};

static const struct lbt_field lbt_process_fields[] = {
	F(struct lbt_process, tgid, LBT_S32, tgid),
	F(struct lbt_process, comm, LBT_COMM, comm),
	F(struct lbt_process, wait_ns, LBT_U64, wait_ns),
	F(struct lbt_process, hold_ns, LBT_U64, hold_ns),
	F(struct lbt_process, blame_ns, LBT_U64, blame_ns),
	F(struct lbt_process, root_blame_ns, LBT_U64, root_blame_ns),
	F(struct lbt_process, verdict, LBT_WORD, verdict),
	F(struct lbt_process, tasks, LBT_U64, tasks),
	F(struct lbt_process, waits, LBT_U64, waits),
	F(struct lbt_process, holds, LBT_U64, holds),
	F(struct lbt_process, hold_on_cpu_ns, LBT_U64, hold_on_cpu_ns),
	F(struct lbt_process, errors, LBT_U64, errors),
	F(struct lbt_process, hold_runnable_ns, LBT_U64, hold_runnable_ns),
};

static const struct lbt_field lbt_pair_fields[] = {
	F(struct lbt_pair, holder, LBT_S32, holder),
	F(struct lbt_pair, victim, LBT_S32, victim),
	F(struct lbt_pair, blame_ns, LBT_U64, blame_ns),
};

static const struct lbt_field lbt_chain_fields[] = {
	F(struct lbt_chain, victim_lock, LBT_ID, victim_lock),
	F(struct lbt_chain, holder, LBT_S32, holder),
	F(struct lbt_chain, waits_on, LBT_ID, waits_on),
	F(struct lbt_chain, root, LBT_S32, root),
	F(struct lbt_chain, blame_ns, LBT_U64, blame_ns),
};

static const struct lbt_field lbt_deadlock_fields[] = {
	F(struct lbt_deadlock, tasks, LBT_S32_LIST, tasks),
	F(struct lbt_deadlock, locks, LBT_ID_LIST, locks),
};

static const struct lbt_field lbt_stack_fields[] = {
	F(struct lbt_stackref, pid, LBT_S32, pid),
	F(struct lbt_stackref, role, LBT_WORD, role),
	F(struct lbt_stackref, id, LBT_U32, id),
	F(struct lbt_stackref, ns, LBT_U64, ns),
};

static const struct lbt_field lbt_evwait_fields[] = {
	F(struct lbt_evwait, pid, LBT_S32, pid),
	F(struct lbt_evwait, tgid, LBT_S32, tgid),
	F(struct lbt_evwait, comm, LBT_COMM, comm),
	F(struct lbt_evwait, wait_ns, LBT_U64, wait_ns),
	F(struct lbt_evwait, waits, LBT_U64, waits),
	F(struct lbt_evwait, errors, LBT_U64, errors),
	F(struct lbt_evwait, waker, LBT_S32, waker),
	F(struct lbt_evwait, asleep, LBT_U64, asleep),
};

static const struct lbt_field lbt_signal_fields[] = {
	F(struct lbt_signal, waiter, LBT_S32, waiter),
	F(struct lbt_signal, waiter_tgid, LBT_S32, waiter_tgid),
	F(struct lbt_signal, waiter_comm, LBT_COMM, waiter_comm),
	F(struct lbt_signal, waker, LBT_S32, waker),
	F(struct lbt_signal, waker_tgid, LBT_S32, waker_tgid),
	F(struct lbt_signal, waker_comm, LBT_COMM, waker_comm),
	F(struct lbt_signal, wait_ns, LBT_U64, wait_ns),
	F(struct lbt_signal, waits, LBT_U64, waits),
	F(struct lbt_signal, max_ns, LBT_U64, max_ns),
};

const struct lbt_type lbt_types[LBT_NTYPES] = {
	[LBT_T_TOTALS] = TYPE("totals", "totals", struct lbt_totals, lbt_totals_fields),
	[LBT_T_LOCK] = TYPE("lock", "locks", struct lbt_lock, lbt_lock_fields),
	[LBT_T_TASK] = TYPE("task", "tasks", struct lbt_task, lbt_task_fields),
	[LBT_T_PROCESS] = TYPE("process", "processes", struct lbt_process, lbt_process_fields),
	[LBT_T_PAIR] = TYPE("pair", "pairs", struct lbt_pair, lbt_pair_fields),
	[LBT_T_CHAIN] = TYPE("chain", "chains", struct lbt_chain, lbt_chain_fields),
	[LBT_T_DEADLOCK] = TYPE("deadlock", "deadlocks", struct lbt_deadlock, lbt_deadlock_fields),
	[LBT_T_STACK] = TYPE("stack", "stacks", struct lbt_stackref, lbt_stack_fields),
	[LBT_T_EVWAIT] = TYPE("evwait", "event_waits", struct lbt_evwait, lbt_evwait_fields),
	[LBT_T_SIGNAL] = TYPE("signal", "signals", struct lbt_signal, lbt_signal_fields),
};

bool lbt_have(int type, const void *rec, size_t off)
{
	const struct lbt_type *t = &lbt_types[type];
	const struct lbt_head *h = rec;
	unsigned int i;

	for (i = 0; i < t->nfields; i++)
		if (t->fields[i].off == off)
			return h->have & (1ULL << i);
	return false;
}

static bool lbt_u64(const char *s, size_t len, int base, uint64_t *v)
{
	char buf[32], *end;

	if (!len || len >= sizeof(buf) || s[0] == '-' || s[0] == '+')
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*v = strtoull(buf, &end, base);
	return !errno && *end == '\0';
}

static bool lbt_s32(const char *s, size_t len, int32_t *v)
{
	char buf[16], *end;
	long n;

	if (!len || len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	n = strtol(buf, &end, 10);
	if (errno || *end || n < INT32_MIN || n > INT32_MAX)
		return false;
	*v = n;
	return true;
}

/* A list "a,b,c" of decimal pids or hex ids. */
static bool lbt_list(const char *s, size_t len, bool ids, void *dst)
{
	struct lbt_s32_list *pl = dst;
	struct lbt_id_list *il = dst;
	unsigned int n = 1, k = 0;
	size_t i, start = 0;
	void *v;

	for (i = 0; i < len; i++)
		n += s[i] == ',';
	v = calloc(n, ids ? sizeof(uint64_t) : sizeof(int32_t));
	if (!v)
		return false;
	for (i = 0; i <= len; i++) {
		if (i < len && s[i] != ',')
			continue;
		if (ids ? !lbt_u64(s + start, i - start, 16, &((uint64_t *)v)[k]) :
			  !lbt_s32(s + start, i - start, &((int32_t *)v)[k])) {
			free(v);
			return false;
		}
		k++;
		start = i + 1;
	}
	if (ids) {
		free(il->v);
		il->v = v;
		il->n = k;
	} else {
		free(pl->v);
		pl->v = v;
		pl->n = k;
	}
	return true;
}

static bool lbt_value(const struct lbt_field *f, void *rec, const char *s, size_t len)
{
	char *dst = (char *)rec + f->off;
	uint64_t v;
	size_t i;

	switch (f->kind) {
	case LBT_U64:
		return lbt_u64(s, len, 10, (uint64_t *)dst);
	case LBT_U32:
		if (!lbt_u64(s, len, 10, &v) || v > UINT32_MAX)
			return false;
		*(uint32_t *)dst = v;
		return true;
	case LBT_S32:
		return lbt_s32(s, len, (int32_t *)dst);
	case LBT_ID:
		return len <= 16 && lbt_u64(s, len, 16, (uint64_t *)dst);
	case LBT_COMM:
		lbt_comm_decode((struct lbt_comm *)dst, s, len);
		return true;
	case LBT_WORD:
		if (!len || len >= LBT_WORD_MAX)
			return false;
		for (i = 0; i < len; i++) {
			char c = s[i];

			if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			      (c >= '0' && c <= '9') || c == '_' || c == '-'))
				return false;
			dst[i] = c;
		}
		dst[len] = '\0';
		return true;
	case LBT_S32_LIST:
		return lbt_list(s, len, false, dst);
	case LBT_ID_LIST:
		return lbt_list(s, len, true, dst);
	}
	return false;
}

static void *lbt_new_record(struct lbt_table *tab, const struct lbt_type *t)
{
	void *rec;

	if (tab->n == tab->cap) {
		size_t cap = tab->cap ? tab->cap * 2 : 16;
		void *v = realloc(tab->v, cap * t->size);

		if (!v)
			return NULL;
		tab->v = v;
		tab->cap = cap;
	}
	rec = (char *)tab->v + tab->n++ * t->size;
	memset(rec, 0, t->size);
	return rec;
}

/* The key=value tokens of @s into @rec; unknown keys are skipped. */
static void lbt_fields(struct lbt_doc *doc, int type, void *rec, const char *s,
		       const char *path, unsigned int lineno)
{
	const struct lbt_type *t = &lbt_types[type];
	struct lbt_head *h = rec;

	while (*s) {
		const char *tok, *eq;
		size_t klen, vlen;
		unsigned int i;

		while (*s == ' ' || *s == '\t')
			s++;
		tok = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		eq = memchr(tok, '=', s - tok);
		if (!eq)
			continue;
		klen = eq - tok;
		vlen = s - eq - 1;
		for (i = 0; i < t->nfields; i++) {
			if (strlen(t->fields[i].key) != klen ||
			    memcmp(t->fields[i].key, tok, klen))
				continue;
			if (lbt_value(&t->fields[i], rec, eq + 1, vlen)) {
				h->have |= 1ULL << i;
			} else {
				if (!doc->bad_values++)
					lbt_warn("%s:%u: bad value for %s %.*s, left out", path,
						 lineno, t->name, (int)(s - tok), tok);
			}
			break;
		}
	}
}

int lbt_parse_ledger(struct lbt_doc *doc, char *text, size_t len, const char *path)
{
	char *p = text, *end = text + len;
	unsigned int lineno = 0;
	int cur_type = -1;
	size_t cur = 0;
	bool header = false;

	while (p < end) {
		char *nl = memchr(p, '\n', end - p);
		char *line = p;
		size_t n;
		int v, type;

		if (!nl)
			nl = end;
		*nl = '\0';
		p = nl + 1;
		lineno++;
		n = strlen(line);
		if (!header) {
			if (!n)
				continue;
			if (sscanf(line, "# lockblame ledger v%d", &v) != 1)
				return lbt_fail(LBT_EXIT_DATA,
						"%s: not a lockblame ledger (first line \"%.60s\", expected \"# lockblame ledger v%d\")",
						path, line, LBT_LEDGER_VERSION);
			if (v != LBT_LEDGER_VERSION)
				return lbt_fail(LBT_EXIT_DATA,
						"%s: ledger format v%d, this reader understands v%d: ABI mismatch between module and tools",
						path, v, LBT_LEDGER_VERSION);
			header = true;
			continue;
		}
		if (!n || line[0] == '#')
			continue;
		/* An indented line continues the record before it. */
		if (line[0] == ' ' || line[0] == '\t') {
			if (cur_type >= 0)
				lbt_fields(doc, cur_type, (char *)doc->tab[cur_type].v +
					   cur * lbt_types[cur_type].size, line, path, lineno);
			continue;
		}
		cur_type = -1;
		for (type = 0; type < LBT_NTYPES; type++) {
			size_t tl = strlen(lbt_types[type].name);

			if (!strncmp(line, lbt_types[type].name, tl) &&
			    (line[tl] == ' ' || line[tl] == '\t' || !line[tl]))
				break;
		}
		if (type == LBT_NTYPES)
			continue;	/* a record type this reader does not know */
		{
			struct lbt_head *h = lbt_new_record(&doc->tab[type], &lbt_types[type]);

			if (!h)
				return lbt_fail(LBT_EXIT_RUNTIME, "out of memory");
			h->line = lineno;
			cur_type = type;
			cur = doc->tab[type].n - 1;
			lbt_fields(doc, type, h, line + strlen(lbt_types[type].name), path, lineno);
		}
	}
	if (!header)
		return lbt_fail(LBT_EXIT_DATA, "%s: empty, not a lockblame ledger", path);
	return 0;
}

static int lbt_task_cmp(const void *a, const void *b)
{
	const struct lbt_task *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->h.line < y->h.line ? -1 : x->h.line > y->h.line;
}

/* Tasks are kept sorted by pid (lbt_load sorts them) for this lookup. */
const struct lbt_task *lbt_task_find(const struct lbt_doc *doc, int32_t pid)
{
	size_t lo = 0, hi = LBT_ROWS(doc, LBT_T_TASK);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct lbt_task *t = LBT_REC(doc, LBT_T_TASK, struct lbt_task, mid);

		if (t->pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < LBT_ROWS(doc, LBT_T_TASK) &&
	    LBT_REC(doc, LBT_T_TASK, struct lbt_task, lo)->pid == pid)
		return LBT_REC(doc, LBT_T_TASK, struct lbt_task, lo);
	return NULL;
}

/* The totals record (the last one if several), or zeros. */
const struct lbt_totals *lbt_totals(const struct lbt_doc *doc)
{
	static const struct lbt_totals none;
	size_t n = LBT_ROWS(doc, LBT_T_TOTALS);

	return n ? LBT_REC(doc, LBT_T_TOTALS, struct lbt_totals, n - 1) : &none;
}

void lbt_doc_free(struct lbt_doc *doc)
{
	size_t i;
	int t;

	for (i = 0; i < LBT_ROWS(doc, LBT_T_DEADLOCK); i++) {
		struct lbt_deadlock *d = LBT_REC(doc, LBT_T_DEADLOCK, struct lbt_deadlock, i);

		free(d->tasks.v);
		free(d->locks.v);
	}
	for (t = 0; t < LBT_NTYPES; t++)
		free(doc->tab[t].v);
	lbt_stacks_free(&doc->stacks);
	memset(doc, 0, sizeof(*doc));
}

/* Read, parse and filter the ledger (and the stacks file if asked). */
int lbt_load(const struct lbt_opts *o, struct lbt_doc *doc, bool want_stacks)
{
	char *text, *path;
	size_t len;
	int err;

	memset(doc, 0, sizeof(*doc));
	err = lbt_slurp(o->dir, "ledger", false, &text, &len);
	if (err)
		return err;
	path = lbt_path(o->dir, "ledger");
	err = lbt_parse_ledger(doc, text, len, path);
	free(path);
	free(text);
	if (err)
		return err;
	qsort(doc->tab[LBT_T_TASK].v, LBT_ROWS(doc, LBT_T_TASK), sizeof(struct lbt_task),
	      lbt_task_cmp);
	if (want_stacks && LBT_ROWS(doc, LBT_T_STACK)) {
		err = lbt_slurp(o->dir, "stacks", true, &text, &len);
		if (err > 0)
			return err;
		if (!err) {
			path = lbt_path(o->dir, "stacks");
			err = lbt_parse_stacks(&doc->stacks, text, len, path);
			free(path);
			free(text);
			if (err)
				return err;
		}
	}
	lbt_filter_apply(&o->f, doc);
	return 0;
}
