// SPDX-License-Identifier: GPL-2.0
/*
 * Parser of the ledger dump ("# lockblame ledger v1", then one key=value
 * record per line): its tables of record types and keys are made from
 * include/lockblame/ledger_format.h, and the JSON output walks them too.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lockblame.h"

/*
 * Every record type's keys (include/lockblame/ledger_list.h) in one table,
 * indexed by LBT_K_<record> (where a record's keys begin: no field) and
 * LBT_K_<record>_<key>. A key the reader leaves unread has neither.
 */
#define LBT_READ_U64(...)	__VA_ARGS__
#define LBT_READ_U32(...)	__VA_ARGS__
#define LBT_READ_S32(...)	__VA_ARGS__
#define LBT_READ_ID(...)	__VA_ARGS__
#define LBT_READ_COMM(...)	__VA_ARGS__
#define LBT_READ_WORD(...)	__VA_ARGS__
#define LBT_READ_S32_LIST(...)	__VA_ARGS__
#define LBT_READ_ID_LIST(...)	__VA_ARGS__
#define LBT_READ_NAME(...)	__VA_ARGS__
#define LBT_READ_UNREAD_U64(...)

#define LB_LEDGER_RECORD(name, json, index, reader)	LBT_K_##name,
#define LB_LEDGER_KEY(rec, key, kind)	LBT_READ_##kind(LBT_K_##rec##_##key,)
#define LB_LEDGER_END(name)		LBT_K_##name##_end,
enum lbt_key_index {
#include <lockblame/ledger_list.h>
};
#undef LB_LEDGER_RECORD
#undef LB_LEDGER_KEY
#undef LB_LEDGER_END

#define LB_LEDGER_RECORD(name, json, index, reader)	typedef struct reader lbt_rec_##name;
#define LB_LEDGER_KEY(rec, key, kind)
#define LB_LEDGER_END(name)
#include <lockblame/ledger_list.h>
#undef LB_LEDGER_RECORD
#undef LB_LEDGER_KEY
#undef LB_LEDGER_END

#define LB_LEDGER_RECORD(name, json, index, reader)	{ NULL },
#define LB_LEDGER_KEY(rec, key, kind)					\
	LBT_READ_##kind({ #key, LBT_##kind, offsetof(lbt_rec_##rec, key) },)
#define LB_LEDGER_END(name)		{ NULL },
static const struct lbt_field lbt_keys[] = {
#include <lockblame/ledger_list.h>
};
#undef LB_LEDGER_RECORD
#undef LB_LEDGER_KEY
#undef LB_LEDGER_END

#define LB_LEDGER_RECORD(name, json, index, reader)			\
	[LBT_T_##index] = { #name, json, &lbt_keys[LBT_K_##name + 1],	\
			    LBT_K_##name##_end - LBT_K_##name - 1, sizeof(struct reader) },
#define LB_LEDGER_KEY(rec, key, kind)
#define LB_LEDGER_END(name)
const struct lbt_type lbt_types[LBT_NTYPES] = {
#include <lockblame/ledger_list.h>
};
#undef LB_LEDGER_RECORD
#undef LB_LEDGER_KEY
#undef LB_LEDGER_END

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

/* The field @key of a record of @type, if its line carried it; else NULL. */
const struct lbt_field *lbt_field(int type, const void *rec, const char *key)
{
	const struct lbt_type *t = &lbt_types[type];
	const struct lbt_head *h = rec;
	unsigned int i;

	for (i = 0; i < t->nfields; i++)
		if (!strcmp(t->fields[i].key, key))
			return h->have & (1ULL << i) ? &t->fields[i] : NULL;
	return NULL;
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
	case LBT_NAME:
		if (len == 1 && s[0] == '-')
			((struct lbt_comm *)dst)->len = 0;
		else
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
	void *rec, *v = lbt_grow(tab->v, &tab->cap, tab->n + 1, t->size);

	if (!v)
		return NULL;
	tab->v = v;
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
			if (sscanf(line, LB_LEDGER_HEADER "%d", &v) != 1)
				return lbt_fail(LBT_EXIT_DATA,
						"%s: not a lockblame ledger (first line \"%.60s\", expected \"" LB_LEDGER_HEADER "%d\")",
						path, line, LB_LEDGER_VERSION);
			if (v != LB_LEDGER_VERSION)
				return lbt_fail(LBT_EXIT_DATA,
						"%s: ledger format v%d, this reader understands v%d: ABI mismatch between module and tools",
						path, v, LB_LEDGER_VERSION);
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
	if (want_stacks && (LBT_ROWS(doc, LBT_T_STACK) || LBT_ROWS(doc, LBT_T_OUTLIER))) {
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
	lbt_names_resolve(doc, o->no_symbols);
	lbt_filter_apply(&o->f, doc);
	return 0;
}
