/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What scope.c (add, resolve) and scope_auto.c (the profiles) share: a scope
 * asked for, parsed, resolved in a binary and written as a control line.
 */
#ifndef LBT_SCOPE_H
#define LBT_SCOPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lockblame.h"

/* One scope asked for: on the command line or a profile's line. */
struct lbt_scope_req {
	const char *binary;	/* a path, or a profile's path glob */
	const char *symbol;	/* a function, usdt:PROVIDER:NAME, or a file offset */
	const char *done;	/* NULL, or the USDT probe where the wait ends */
	const char *fallback;	/* NULL, or the function to take if @symbol is not found */
	unsigned int arg;	/* 0: none, else 1..LBT_SCOPE_ARGS */
	unsigned int deref_off, deref_len;	/* deref_len 0: the argument itself */
	bool shared;
	bool span;		/* the whole call is a wait; a wake of it releases */
	const char *release;	/* NULL, or the release function: a symbol or a file offset */
	unsigned int relarg;	/* 0: none, else the release function's argument, 1..6 */
	const char *name;	/* NULL: the module's default, "scope" */
};

int lbt_scope_usage(const char *what, const char *arg);
const char *lbt_scope_value(int argc, char **argv, int *i, const char *opt);
bool lbt_scope_is(const char *word, const char *opt);
int lbt_scope_words(struct lbt_scope_req *r, int argc, char **argv, char *why, size_t size);
int lbt_scope_offset_else(const char *path, struct lbt_scope_req *r, uint64_t *off,
			  uint64_t *rel, struct lbt_elf_hit *hit, const char **what, char *pair,
			  size_t psize);
int lbt_scope_line(char *line, size_t size, const char *path, uint64_t off, uint64_t rel,
		   const char *pair, const struct lbt_scope_req *r, char *why, size_t wsize);

/* scope_auto.c: "scope auto [--dry-run] [--profiles DIR]". */
int lbt_scope_auto(const char *dir, int argc, char **argv);

#endif /* LBT_SCOPE_H */
