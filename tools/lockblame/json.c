// SPDX-License-Identifier: GPL-2.0
/*
 * --json: the ledger as one JSON document whose field names are the dump's
 * keys (see lockblame(8)); a key the dump did not carry is null.
 */
#include <string.h>
#include "lockblame.h"

#define LBT_JSON_VERSION 1

/* Length of the valid UTF-8 sequence at @b (1..4), or 0 if it is not one. */
static unsigned int lbt_utf8_len(const unsigned char *b, size_t left)
{
	unsigned int n, i;
	uint32_t cp;

	if (b[0] < 0x80)
		return 1;
	if (b[0] >= 0xc2 && b[0] <= 0xdf)
		n = 2, cp = b[0] & 0x1f;
	else if (b[0] >= 0xe0 && b[0] <= 0xef)
		n = 3, cp = b[0] & 0x0f;
	else if (b[0] >= 0xf0 && b[0] <= 0xf4)
		n = 4, cp = b[0] & 0x07;
	else
		return 0;
	if (left < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((b[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (b[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

/*
 * A JSON string of arbitrary bytes: valid UTF-8 passes through, control
 * characters are escaped, and a byte that is not part of valid UTF-8 stands
 * for the code point of the same value (U+0080..U+00FF).
 */
void lbt_json_string(FILE *out, const unsigned char *b, size_t len)
{
	size_t i = 0;

	fputc('"', out);
	while (i < len) {
		unsigned int n = lbt_utf8_len(b + i, len - i);

		if (n > 1) {
			fwrite(b + i, 1, n, out);
			i += n;
			continue;
		}
		switch (b[i]) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		default:
			if (b[i] < 0x20 || b[i] >= 0x7f)
				fprintf(out, "\\u%04x", b[i]);
			else
				fputc(b[i], out);
		}
		i++;
	}
	fputc('"', out);
}

static void lbt_json_cstr(FILE *out, const char *s)
{
	lbt_json_string(out, (const unsigned char *)s, strlen(s));
}

static void lbt_json_value(FILE *out, const struct lbt_field *f, const void *rec)
{
	const char *p = (const char *)rec + f->off;
	const struct lbt_s32_list *pl = (const void *)p;
	const struct lbt_id_list *il = (const void *)p;
	const struct lbt_comm *c = (const void *)p;
	unsigned int i;

	switch (f->kind) {
	case LBT_U64:
		fprintf(out, "%llu", (unsigned long long)*(const uint64_t *)p);
		break;
	case LBT_U32:
		fprintf(out, "%u", *(const uint32_t *)p);
		break;
	case LBT_S32:
		fprintf(out, "%d", *(const int32_t *)p);
		break;
	case LBT_ID:
		fprintf(out, "\"%016llx\"", (unsigned long long)*(const uint64_t *)p);
		break;
	case LBT_COMM:
		lbt_json_string(out, c->b, c->len);
		break;
	case LBT_NAME:
		if (c->len)
			lbt_json_string(out, c->b, c->len);
		else
			fputs("null", out);
		break;
	case LBT_WORD:
		lbt_json_cstr(out, p);
		break;
	case LBT_S32_LIST:
		fputc('[', out);
		for (i = 0; i < pl->n; i++)
			fprintf(out, "%s%d", i ? ", " : "", pl->v[i]);
		fputc(']', out);
		break;
	case LBT_ID_LIST:
		fputc('[', out);
		for (i = 0; i < il->n; i++)
			fprintf(out, "%s\"%016llx\"", i ? ", " : "", (unsigned long long)il->v[i]);
		fputc(']', out);
		break;
	}
}

/* The fields of one record, without the closing brace. */
static void lbt_json_fields(FILE *out, int type, const void *rec)
{
	const struct lbt_type *t = &lbt_types[type];
	const struct lbt_head *h = rec;
	unsigned int i;

	fputc('{', out);
	for (i = 0; i < t->nfields; i++) {
		fprintf(out, "%s\"%s\": ", i ? ", " : "", t->fields[i].key);
		if (h->have & (1ULL << i))
			lbt_json_value(out, &t->fields[i], rec);
		else
			fputs("null", out);
	}
}

/* A stack reference, with its kind and frames from the stacks file. */
static void lbt_json_stack(FILE *out, const struct lbt_doc *doc, const struct lbt_stackref *s)
{
	const struct lbt_stack *st = lbt_stack_find(&doc->stacks, s->id);
	unsigned int i;

	fputs(", \"kind\": ", out);
	if (st)
		lbt_json_cstr(out, st->user ? "user" : "kernel");
	else
		fputs("null", out);
	fputs(", \"frames\": [", out);
	for (i = 0; st && i < st->n; i++) {
		if (i)
			fputs(", ", out);
		lbt_json_cstr(out, st->frames[i]);
	}
	fputc(']', out);
}

/* ", "@key": [frames]" of stack @id, null when not known (0 or not in the file). */
static void lbt_json_frames(FILE *out, const struct lbt_doc *doc, const char *key, uint32_t id)
{
	const struct lbt_stack *st = id ? lbt_stack_find(&doc->stacks, id) : NULL;
	unsigned int i;

	fprintf(out, ", \"%s\": ", key);
	if (!st) {
		fputs("null", out);
		return;
	}
	fputc('[', out);
	for (i = 0; i < st->n; i++) {
		if (i)
			fputs(", ", out);
		lbt_json_cstr(out, st->frames[i]);
	}
	fputc(']', out);
}

/* An outlier's four stacks, symbolized as the stacks file has them. */
static void lbt_json_outlier_frames(FILE *out, const struct lbt_doc *doc,
				    const struct lbt_outlier *x)
{
	lbt_json_frames(out, doc, "victim_frames", x->victim_stack);
	lbt_json_frames(out, doc, "victim_user_frames", x->victim_ustack);
	lbt_json_frames(out, doc, "holder_frames", x->holder_stack);
	lbt_json_frames(out, doc, "holder_user_frames", x->holder_ustack);
}

static void lbt_json_filter(FILE *out, const struct lbt_filter *f)
{
	fputs("  \"filter\": {\"pid\": ", out);
	if (f->pid_set)
		fprintf(out, "%d", f->pid);
	else
		fputs("null", out);
	fputs(", \"tgid\": ", out);
	if (f->tgid_set)
		fprintf(out, "%d", f->tgid);
	else
		fputs("null", out);
	fputs(", \"comm\": ", out);
	if (f->comm_set)
		lbt_json_string(out, f->comm.b, f->comm.len);
	else
		fputs("null", out);
	fputs(", \"lock\": ", out);
	if (f->lock_set)
		fprintf(out, "\"%016llx\"", (unsigned long long)f->lock);
	else
		fputs("null", out);
	fputs(", \"role\": ", out);
	if (f->role)
		lbt_json_cstr(out, f->role);
	else
		fputs("null", out);
	fputs("},\n", out);
}

int lbt_json(const struct lbt_opts *o, const struct lbt_doc *doc, FILE *out)
{
	int type;

	fprintf(out, "{\n  \"format\": \"lockblame\",\n  \"version\": %d,\n  \"ledger_version\": %d,\n",
		LBT_JSON_VERSION, LB_LEDGER_VERSION);
	fputs("  \"source\": ", out);
	lbt_json_cstr(out, o->dir);
	fputs(",\n", out);
	lbt_json_filter(out, &o->f);
	fputs("  \"totals\": ", out);
	lbt_json_fields(out, LBT_T_TOTALS, lbt_totals(doc));
	fputs("}", out);
	for (type = LBT_T_TOTALS + 1; type < LBT_NTYPES; type++) {
		const struct lbt_type *t = &lbt_types[type];
		bool first = true;
		size_t i;

		fprintf(out, ",\n  \"%s\": [", t->json);
		for (i = 0; i < doc->tab[type].n; i++) {
			const struct lbt_head *h =
				(const void *)((const char *)doc->tab[type].v + i * t->size);

			if (!h->keep)
				continue;
			fputs(first ? "\n    " : ",\n    ", out);
			first = false;
			lbt_json_fields(out, type, h);
			if (type == LBT_T_STACK)
				lbt_json_stack(out, doc, (const void *)h);
			if (type == LBT_T_OUTLIER)
				lbt_json_outlier_frames(out, doc, (const void *)h);
			fputc('}', out);
		}
		fputs(first ? "]" : "\n  ]", out);
	}
	fputs("\n}\n", out);
	return 0;
}
