// SPDX-License-Identifier: GPL-2.0
/*
 * A "scope add" control line (scopes.c), parsed whole and checked before
 * anything changes: each option's bounds, and the options' combinations.
 */
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "lockblame.h"
#include "compat.h"

static bool lb_scope_name_ok(const char *name)
{
	size_t i, len = strlen(name);

	if (!len || len >= LB_SCOPE_NAME_LEN)
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum(name[i]) && !strchr("_.:-", name[i]))
			return false;
	return true;
}

/* "deref=OFF:LEN": LEN (1..16) bytes at the argument + OFF (0..4095). */
static int lb_scope_parse_deref(const char *v, struct lb_scope_args *a)
{
	unsigned int off, len;
	char end;

	if (sscanf(v, "%u:%u%c", &off, &len, &end) != 2 || off > LB_SCOPE_DEREF_OFF_MAX ||
	    !len || len > LB_SCOPE_DEREF_MAX)
		return -EINVAL;
	a->deref_off = off;
	a->deref_len = len;
	return 0;
}

/* An argument's number, 1..6, in @v; false if it is none. */
static bool lb_scope_parse_argn(const char *v, u8 *argn)
{
	return !kstrtou8(v, 10, argn) && *argn && *argn <= LB_USER_ARGS;
}

/*
 * What the options of a scope ask for together: "" if it is sound, else
 * why not.
 */
static const char *lb_scope_refuse(const struct lb_scope_args *a)
{
	if ((a->shared || a->deref_len) && !a->arg)
		return a->shared ? "scope shared needs arg=" : "scope deref= needs arg=";
	if (a->relarg && !a->release)
		return "scope relarg= needs release=";
	if (a->release && !a->arg != !a->relarg)
		return a->arg ? "scope release= with arg= needs relarg=, the lock it names" :
			"scope relarg= needs arg=: the scope's lock is its process's";
	if (a->release && a->rel_offset == a->offset)
		return "scope release= is the scope's own offset";
	return "";
}

/* One option word @tok of a "scope add" line into @a; 0, or -EINVAL with @err. */
static int lb_scope_parse_option(char *tok, struct lb_scope_args *a, const char **err)
{
	u64 v;

	if (!strncmp(tok, "arg=", 4) || !strncmp(tok, "relarg=", 7)) {
		bool rel = *tok == 'r';

		if (lb_scope_parse_argn(tok + (rel ? 7 : 4), rel ? &a->relarg : &a->arg))
			return 0;
		if (!LB_USER_ARGS)
			*err = "scope arg= and relarg= are not supported on this architecture";
		else
			*err = rel ? "scope relarg= takes 1..6" : "scope arg= takes 1..6";
	} else if (!strncmp(tok, "release=", 8)) {
		a->release = true;
		if (!kstrtou64(tok + 8, 0, &v) && v <= LLONG_MAX) {
			a->rel_offset = v;
			return 0;
		}
		*err = "bad scope release= offset";
	} else if (!strncmp(tok, "deref=", 6)) {
		if (!lb_scope_parse_deref(tok + 6, a))
			return 0;
		*err = "scope deref= takes OFF:LEN, OFF 0..4095, LEN 1..16";
	} else if (!strcmp(tok, "shared")) {
		a->shared = true;
		return 0;
	} else if (!strcmp(tok, "span")) {
		a->span = true;
		return 0;
	} else if (!strncmp(tok, "name=", 5)) {
		a->name = tok + 5;
		if (lb_scope_name_ok(a->name))
			return 0;
		*err = "scope name= takes 1..23 of A-Z a-z 0-9 _ . : -";
	} else {
		*err = "unknown scope option";
	}
	return -EINVAL;
}

/*
 * "PATH OFFSET [arg=N] [deref=OFF:LEN] [shared] [span] [release=OFFSET
 * [relarg=N]] [name=NAME]", whole, before anything changes.
 */
int lb_scope_parse(char *args, struct lb_scope_args *a, const char **err)
{
	char *tok, *off;
	u64 v;

	a->path = strsep(&args, " \t");
	off = args ? strsep(&args, " \t") : NULL;
	if (!a->path || a->path[0] != '/' || strlen(a->path) >= LB_SCOPE_PATH_LEN || !off) {
		*err = "scope add takes an absolute PATH and an OFFSET";
		return -EINVAL;
	}
	if (kstrtou64(off, 0, &v) || v > LLONG_MAX) {
		*err = "bad scope offset";
		return -EINVAL;
	}
	a->offset = v;
	a->name = "scope";
	while ((tok = strsep(&args, " \t")) != NULL)
		if (*tok && lb_scope_parse_option(tok, a, err))
			return -EINVAL;
	*err = lb_scope_refuse(a);
	return **err ? -EINVAL : 0;
}
