// SPDX-License-Identifier: GPL-2.0
/*
 * Parser of the "stacks" file: "# capacity N full N", then "stack <id>
 * kernel|user" blocks of indented frames, innermost frame first.
 */
#include <stdlib.h>
#include <string.h>
#include "lockblame.h"

static int lbt_stack_cmp(const void *a, const void *b)
{
	const struct lbt_stack *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int lbt_add_frame(struct lbt_stack *st, const char *frame)
{
	char **v = realloc(st->frames, (st->n + 1) * sizeof(*v));

	if (!v)
		return -1;
	st->frames = v;
	v[st->n] = strdup(frame);
	if (!v[st->n])
		return -1;
	st->n++;
	return 0;
}

int lbt_parse_stacks(struct lbt_stacks *s, char *text, size_t len, const char *path)
{
	char *p = text, *end = text + len;
	struct lbt_stack *cur = NULL;
	bool header = false;

	while (p < end) {
		char *nl = memchr(p, '\n', end - p);
		char *line = p, kind[16];
		struct lbt_stack *v;
		unsigned int id;

		if (!nl)
			nl = end;
		*nl = '\0';
		p = nl + 1;
		if (!header) {
			if (!*line)
				continue;
			if (strncmp(line, "# capacity ", 11))
				return lbt_fail(LBT_EXIT_DATA,
						"%s: not a lockblame stacks file (first line \"%.60s\")",
						path, line);
			header = true;
			continue;
		}
		if (line[0] == ' ' || line[0] == '\t') {
			while (*line == ' ' || *line == '\t')
				line++;
			if (cur && *line && lbt_add_frame(cur, line))
				return lbt_fail(LBT_EXIT_RUNTIME, "out of memory");
			continue;
		}
		cur = NULL;
		if (sscanf(line, "stack %u %15s", &id, kind) != 2)
			continue;	/* a line this reader does not know */
		v = lbt_grow(s->v, &s->cap, s->n + 1, sizeof(*v));
		if (!v)
			return lbt_fail(LBT_EXIT_RUNTIME, "out of memory");
		s->v = v;
		cur = &s->v[s->n++];
		memset(cur, 0, sizeof(*cur));
		cur->id = id;
		cur->user = !strcmp(kind, "user");
	}
	if (!header)
		return lbt_fail(LBT_EXIT_DATA, "%s: empty, not a lockblame stacks file", path);
	qsort(s->v, s->n, sizeof(*s->v), lbt_stack_cmp);
	s->loaded = true;
	return 0;
}

const struct lbt_stack *lbt_stack_find(const struct lbt_stacks *s, uint32_t id)
{
	struct lbt_stack key = { .id = id };

	if (!s->n)
		return NULL;
	return bsearch(&key, s->v, s->n, sizeof(*s->v), lbt_stack_cmp);
}

void lbt_stacks_free(struct lbt_stacks *s)
{
	size_t i;
	unsigned int j;

	for (i = 0; i < s->n; i++) {
		for (j = 0; j < s->v[i].n; j++)
			free(s->v[i].frames[j]);
		free(s->v[i].frames);
	}
	free(s->v);
	memset(s, 0, sizeof(*s));
}
