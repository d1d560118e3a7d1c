// SPDX-License-Identifier: GPL-2.0
/*
 * A "scope add" control line (scopes.c), parsed whole and checked before
 * anything changes: each option's bounds, and the options' combinations.
 */
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
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

/* The user registers a USDT argument can be in, by name ("8@%rax": rax). */
struct lb_user_reg_name {
	const char *name;
	u16 off;
};

#ifdef CONFIG_X86_64
#define LB_REG(n, f)	{ n, offsetof(struct pt_regs, f) }
static const struct lb_user_reg_name lb_user_regs[] = {
	LB_REG("rax", ax), LB_REG("rbx", bx), LB_REG("rcx", cx), LB_REG("rdx", dx),
	LB_REG("rsi", si), LB_REG("rdi", di), LB_REG("rbp", bp), LB_REG("rsp", sp),
	LB_REG("r8", r8), LB_REG("r9", r9), LB_REG("r10", r10), LB_REG("r11", r11),
	LB_REG("r12", r12), LB_REG("r13", r13), LB_REG("r14", r14), LB_REG("r15", r15),
};

#undef LB_REG
#else
static const struct lb_user_reg_name lb_user_regs[] = { { "", 0 } };
#endif

/* "reg=NAME:SIZE": a register of the table, SIZE 1, 2, 4 or 8 bytes of it. */
static int lb_scope_parse_reg(const char *v, struct lb_scope_args *a)
{
	const char *colon = strchr(v, ':');
	size_t i;
	u8 size;

	if (!colon || kstrtou8(colon + 1, 10, &size) || !size || size > 8 || (size & (size - 1)))
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(lb_user_regs); i++) {
		if (*lb_user_regs[i].name && strlen(lb_user_regs[i].name) == colon - v &&
		    !strncmp(lb_user_regs[i].name, v, colon - v)) {
			a->reg = lb_user_regs[i].name;
			a->reg_off = lb_user_regs[i].off;
			a->reg_size = size;
			return 0;
		}
	}
	return -EINVAL;
}

/* "OFF[,OFF...]" appended to @v's @n sites, at most LB_SCOPE_SITES. */
static int lb_scope_parse_sites(char *v, loff_t *sites, u8 *n)
{
	char *tok;
	u64 off;

	while ((tok = strsep(&v, ",")) != NULL) {
		if (*n >= LB_SCOPE_SITES || kstrtou64(tok, 0, &off) || off > LLONG_MAX)
			return -EINVAL;
		sites[(*n)++] = off;
	}
	return 0;
}

/* An offset of @a's named twice, or its release's among its sites. */
static bool lb_scope_sites_clash(const struct lb_scope_args *a)
{
	loff_t all[2 * LB_SCOPE_SITES + 1];
	unsigned int n = 0, i, j;

	for (i = 0; i < a->nr_start; i++)
		all[n++] = a->start[i];
	for (i = 0; i < a->nr_done; i++)
		all[n++] = a->done[i];
	if (a->release)
		all[n++] = a->rel_offset;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (all[i] == all[j])
				return true;
	return false;
}

/* What a probe pair's options ask for together (lb_scope_refuse). */
static const char *lb_scope_refuse_pair(const struct lb_scope_args *a)
{
	bool pair = a->nr_done;

	if (!pair && (a->nr_start > 1 || a->sema || a->donesema || a->reg_size))
		return "scope site=, sema=, donesema=, reg= need done=, the wait's end";
	if (!pair)
		return "";
	if (a->arg)
		return "scope arg= is a function's argument: a probe pair's lock is reg=";
	if (lb_scope_sites_clash(a))
		return "scope sites: an offset is named twice";
	return "";
}

/*
 * What the options of a scope ask for together: "" if it is sound, else
 * why not.
 */
static const char *lb_scope_refuse(const struct lb_scope_args *a)
{
	bool has_arg = a->arg || a->reg_size;
	const char *why = lb_scope_refuse_pair(a);

	if (*why)
		return why;
	if ((a->shared || a->deref_len) && !has_arg)
		return a->shared ? "scope shared needs arg= (or reg=)" :
			"scope deref= needs arg= (or reg=)";
	if (a->relarg && !a->release)
		return "scope relarg= needs release=";
	if (a->release && !has_arg != !a->relarg)
		return has_arg ? "scope release= with arg= needs relarg=, the lock it names" :
			"scope relarg= needs arg=: the scope's lock is its process's";
	if (a->release && a->rel_offset == a->offset)
		return "scope release= is the scope's own offset";
	return "";
}

/* A probe pair's option word @tok into @a: 1 if it is none of theirs. */
static int lb_scope_parse_pair(char *tok, struct lb_scope_args *a, const char **err)
{
	u64 v;

	if (!strncmp(tok, "site=", 5) || !strncmp(tok, "done=", 5)) {
		bool done = *tok == 'd';

		if (!lb_scope_parse_sites(tok + 5, done ? a->done : a->start,
					  done ? &a->nr_done : &a->nr_start))
			return 0;
		*err = "scope site= and done= take offsets, OFF[,OFF...], 4 of each at most";
	} else if (!strncmp(tok, "sema=", 5) || !strncmp(tok, "donesema=", 9)) {
		bool done = *tok == 'd';

		if (!kstrtou64(tok + (done ? 9 : 5), 0, &v) && v && v <= LLONG_MAX) {
			*(done ? &a->donesema : &a->sema) = v;
			return 0;
		}
		*err = "bad scope sema= or donesema= offset";
	} else if (!strncmp(tok, "reg=", 4)) {
		if (!lb_scope_parse_reg(tok + 4, a))
			return 0;
		*err = LB_USER_ARGS ? "scope reg= takes NAME:SIZE: rax..r15, and 1, 2, 4 or 8" :
			"scope reg= is not supported on this architecture";
	} else {
		return 1;
	}
	return -EINVAL;
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
		int ret = lb_scope_parse_pair(tok, a, err);

		if (ret <= 0)
			return ret;
		*err = "unknown scope option";
	}
	return -EINVAL;
}

/*
 * "PATH OFFSET [arg=N] [deref=OFF:LEN] [shared] [span] [release=OFFSET
 * [relarg=N]] [name=NAME]", or a probe pair's "PATH OFFSET [site=OFF,...]
 * done=OFF[,...] [sema=OFF] [donesema=OFF] [reg=NAME:SIZE] ...", whole,
 * before anything changes.
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
	a->start[0] = v;
	a->nr_start = 1;
	a->name = "scope";
	while ((tok = strsep(&args, " \t")) != NULL)
		if (*tok && lb_scope_parse_option(tok, a, err))
			return -EINVAL;
	*err = lb_scope_refuse(a);
	return **err ? -EINVAL : 0;
}
