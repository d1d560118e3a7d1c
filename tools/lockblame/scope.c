// SPDX-License-Identifier: GPL-2.0
/*
 * lockblame scope add|list|clear|resolve: lock scopes, the functions a
 * caller runs to take a runtime's lock (docs/scopes.md). A symbol becomes the
 * file offset the module's "scope add PATH OFFSET" takes (elf.c); "auto" is
 * scope_auto.c's.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "lockblame.h"
#include "scope.h"

#define LBT_SCOPE_ARGS		6	/* x86-64: rdi rsi rdx rcx r8 r9 */
#define LBT_SCOPE_NAME_MAX	23
#define LBT_SCOPE_DEREF_OFF_MAX	4095	/* the module's deref=OFF:LEN */
#define LBT_SCOPE_DEREF_MAX	16

#define LBT_SCOPE_USAGE \
	"usage: lockblame [-d DIR] scope add BINARY SYMBOL [--else SYMBOL] [--lock-arg N]\n" \
	"                 [--deref OFF:LEN] [--shared] [--span] [--release SYMBOL [--release-arg N]]\n" \
	"                 [--name NAME]\n" \
	"       lockblame [-d DIR] scope add BINARY usdt:PROVIDER:START --done usdt:PROVIDER:DONE\n" \
	"                 [--lock-arg N] [--deref OFF:LEN] [--shared] [--span] [--name NAME]\n" \
	"       lockblame [-d DIR] scope list | clear\n" \
	"       lockblame [-d DIR] scope auto [--dry-run] [--profiles DIR]\n" \
	"       lockblame scope resolve BINARY SYMBOL\n"


int lbt_scope_usage(const char *what, const char *arg)
{
	fflush(stdout);
	fprintf(stderr, "lockblame: scope: %s%s\n%s", what, arg, LBT_SCOPE_USAGE);
	return LBT_EXIT_DATA;
}

static bool lbt_scope_name_ok(const char *name)
{
	size_t len = strlen(name);

	return len && len <= LBT_SCOPE_NAME_MAX &&
	       strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:-") ==
	       len;
}

/* The value of option @opt at @argv[*i]: "--opt VALUE" or "--opt=VALUE". */
const char *lbt_scope_value(int argc, char **argv, int *i, const char *opt)
{
	size_t len = strlen(opt);

	if (!strncmp(argv[*i], opt, len) && argv[*i][len] == '=')
		return argv[*i] + len + 1;
	if (!strcmp(argv[*i], opt) && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

bool lbt_scope_is(const char *word, const char *opt)
{
	size_t len = strlen(opt);

	return !strncmp(word, opt, len) && (!word[len] || word[len] == '=');
}

/* "OFF:LEN" of --deref, in decimal, as the module's deref= takes it; false if not. */
static bool lbt_scope_deref(const char *v, struct lbt_scope_req *r)
{
	unsigned long off, len;
	char *end;

	if (*v < '0' || *v > '9')
		return false;
	off = strtoul(v, &end, 10);
	if (*end != ':' || end[1] < '0' || end[1] > '9')
		return false;
	len = strtoul(end + 1, &end, 10);
	if (*end || off > LBT_SCOPE_DEREF_OFF_MAX || !len || len > LBT_SCOPE_DEREF_MAX)
		return false;
	r->deref_off = off;
	r->deref_len = len;
	return true;
}

/* "--lock-arg N" or "--release-arg N" at @argv[*i]: 1..6 in @argn; 0, or -1 with @why. */
static int lbt_scope_argn(int argc, char **argv, int *i, const char *opt, unsigned int *argn,
			  char *why, size_t size)
{
	const char *v = lbt_scope_value(argc, argv, i, opt);

	if (!v || strlen(v) != 1 || *v < '1' || *v > '0' + LBT_SCOPE_ARGS) {
		snprintf(why, size, "%s takes 1..%d (%s), not '%s'", opt, LBT_SCOPE_ARGS,
			 "rdi rsi rdx rcx r8 r9", v ? v : "");
		return -1;
	}
	*argn = *v - '0';
	return 0;
}

/* One option word of a scope at @argv[*i]; 0, or -1 with @why. */
static int lbt_scope_option(struct lbt_scope_req *r, int argc, char **argv, int *i, char *why,
			    size_t size)
{
	const char *v;

	if (!strcmp(argv[*i], "--shared")) {
		r->shared = true;
	} else if (!strcmp(argv[*i], "--span")) {
		r->span = true;
	} else if (lbt_scope_is(argv[*i], "--deref")) {
		v = lbt_scope_value(argc, argv, i, "--deref");
		if (!v || !lbt_scope_deref(v, r)) {
			snprintf(why, size, "--deref takes OFF:LEN, OFF 0..%d, LEN 1..%d, not '%s'",
				 LBT_SCOPE_DEREF_OFF_MAX, LBT_SCOPE_DEREF_MAX, v ? v : "");
			return -1;
		}
	} else if (lbt_scope_is(argv[*i], "--lock-arg")) {
		if (lbt_scope_argn(argc, argv, i, "--lock-arg", &r->arg, why, size))
			return -1;
	} else if (lbt_scope_is(argv[*i], "--release-arg")) {
		if (lbt_scope_argn(argc, argv, i, "--release-arg", &r->relarg, why, size))
			return -1;
	} else if (lbt_scope_is(argv[*i], "--done")) {
		v = lbt_scope_value(argc, argv, i, "--done");
		if (!v || strncmp(v, "usdt:", 5)) {
			snprintf(why, size, "--done takes the USDT probe where the wait ends, usdt:PROVIDER:NAME");
			return -1;
		}
		r->done = v;
	} else if (lbt_scope_is(argv[*i], "--else")) {
		v = lbt_scope_value(argc, argv, i, "--else");
		if (!v || !*v || *v == '-' || !strncmp(v, "usdt:", 5)) {
			snprintf(why, size, "--else takes the function to take when SYMBOL is not found");
			return -1;
		}
		r->fallback = v;
	} else if (lbt_scope_is(argv[*i], "--release")) {
		v = lbt_scope_value(argc, argv, i, "--release");
		if (!v || !*v || *v == '-') {
			snprintf(why, size, "--release takes the release function's SYMBOL");
			return -1;
		}
		r->release = v;
	} else if (lbt_scope_is(argv[*i], "--name")) {
		v = lbt_scope_value(argc, argv, i, "--name");
		if (!v || !lbt_scope_name_ok(v)) {
			snprintf(why, size, "--name takes 1..23 of A-Z a-z 0-9 _ . : -, not '%s'",
				 v ? v : "");
			return -1;
		}
		r->name = v;
	} else {
		snprintf(why, size, "unknown option '%s'", argv[*i]);
		return -1;
	}
	return 0;
}

/*
 * "BINARY SYMBOL [--else SYMBOL] [--lock-arg N] [--deref OFF:LEN] [--shared]
 * [--span] [--release SYMBOL [--release-arg N]] [--name NAME]"; 0, or -1 with
 * @why.
 */
int lbt_scope_words(struct lbt_scope_req *r, int argc, char **argv, char *why, size_t size)
{
	int i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1]) {
			if (lbt_scope_option(r, argc, argv, &i, why, size))
				return -1;
		} else if (!r->binary) {
			r->binary = argv[i];
		} else if (!r->symbol) {
			r->symbol = argv[i];
		} else {
			snprintf(why, size, "unexpected argument '%s'", argv[i]);
			return -1;
		}
	}
	if (!r->symbol) {
		snprintf(why, size, "a BINARY and a SYMBOL are needed");
		return -1;
	}
	if (r->shared && !r->arg) {
		snprintf(why, size, "--shared needs --lock-arg: the argument is what is shared");
		return -1;
	}
	if (r->deref_len && !r->arg) {
		snprintf(why, size, "--deref needs --lock-arg: the bytes are read through it");
		return -1;
	}
	if (r->fallback && r->done) {
		snprintf(why, size, "--else names a function: a USDT pair has none to fall back to");
		return -1;
	}
	if (r->relarg && !r->release) {
		snprintf(why, size, "--release-arg needs --release");
		return -1;
	}
	if (!strncmp(r->symbol, "usdt:", 5) != !!r->done) {
		snprintf(why, size, r->done ? "--done needs a USDT SYMBOL, usdt:PROVIDER:START" :
			 "a USDT scope is a pair: add --done usdt:PROVIDER:NAME, the probe where the wait ends");
		return -1;
	}
	if (r->release && !r->arg != !r->relarg) {
		snprintf(why, size, r->arg ?
			 "--release with --lock-arg needs --release-arg: the lock the release names" :
			 "--release-arg needs --lock-arg: without it the lock is the process's");
		return -1;
	}
	return 0;
}

/* A file offset given as a number ("0x4a2b0"); false if @s is not one. */
static bool lbt_scope_number(const char *s, uint64_t *off)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*off = strtoull(s, &end, 0);
	return !errno && !*end;
}

/*
 * @symbol in @path as a file offset: LBT_ELF_OK, or the failure with
 * hit->why. A USDT probe is resolved and then refused.
 */
static int lbt_scope_symbol(const char *path, const char *symbol, uint64_t *off,
			    struct lbt_elf_hit *hit)
{
	int err;

	if (lbt_scope_number(symbol, off))
		return LBT_ELF_OK;
	if (*symbol >= '0' && *symbol <= '9') {
		snprintf(hit->why, sizeof(hit->why), "'%s' is not a file offset", symbol);
		return LBT_ELF_BAD;
	}
	err = lbt_elf_resolve(path, symbol, hit);
	if (err)
		return err;
	if (hit->usdt) {
		snprintf(hit->why, sizeof(hit->why), "%s: a USDT release is not supported", symbol);
		return LBT_ELF_BAD;
	}
	*off = hit->site[0].offset;
	return LBT_ELF_OK;
}

/*
 * @r's symbol, and its release function's if it names one (else @rel is
 * 0), in @path as file offsets: LBT_ELF_OK, or the failure with hit->why
 * and in @what the symbol that failed. @hit is freed. A USDT pair's
 * other words go to @pair ("" for a function).
 */
static int lbt_scope_offset(const char *path, const struct lbt_scope_req *r, uint64_t *off,
			    uint64_t *rel, struct lbt_elf_hit *hit, const char **what,
			    char *pair, size_t psize)
{
	int err;

	*rel = 0;
	*what = r->symbol;
	pair[0] = '\0';
	if (r->done)
		err = lbt_usdt_pair(path, r->symbol, r->done, r->arg, off, pair, psize, hit->why,
				    sizeof(hit->why));
	else
		err = lbt_scope_symbol(path, r->symbol, off, hit);
	lbt_elf_hit_free(hit);
	if (err || !r->release)
		return err;
	*what = r->release;
	err = lbt_scope_symbol(path, r->release, rel, hit);
	lbt_elf_hit_free(hit);
	if (!err && *rel == *off) {
		snprintf(hit->why, sizeof(hit->why), "the release function %s is the scope's own",
			 r->release);
		err = LBT_ELF_BAD;
	}
	return err;
}

/*
 * lbt_scope_offset(), and when a symbol of @r (its own or its release
 * function's) is not in @path, @r's --else function instead, alone: @r is
 * made that scope, with neither release function nor --else, and the
 * caller is told why on stderr.
 */
int lbt_scope_offset_else(const char *path, struct lbt_scope_req *r, uint64_t *off,
			  uint64_t *rel, struct lbt_elf_hit *hit, const char **what, char *pair,
			  size_t psize)
{
	int err = lbt_scope_offset(path, r, off, rel, hit, what, pair, psize);

	if (err != LBT_ELF_NO_SYMBOL || !r->fallback)
		return err;
	lbt_warn("%s: %s; %s instead%s", path, hit->why, r->fallback,
		 r->release ? ", without a release function" : "");
	r->symbol = r->fallback;
	r->fallback = NULL;
	r->release = NULL;
	r->relarg = 0;
	return lbt_scope_offset(path, r, off, rel, hit, what, pair, psize);
}

/*
 * "scope add PATH OFFSET [arg=N] [deref=OFF:LEN] [shared] [span]
 * [release=OFFSET [relarg=N]] [name=NAME]" in @line; 0, or -1 with @why.
 */
int lbt_scope_line(char *line, size_t size, const char *path, uint64_t off, uint64_t rel,
		   const char *pair, const struct lbt_scope_req *r, char *why, size_t wsize)
{
	char arg[16] = "", deref[32] = "", release[48] = "", relarg[24] = "";
	const unsigned char *c;
	int n;

	for (c = (const unsigned char *)path; *c; c++) {
		if (*c <= ' ' || *c > '~') {
			snprintf(why, wsize,
				 "the module takes a path of printable ASCII without spaces");
			return -1;
		}
	}
	if (r->arg && !*pair)
		snprintf(arg, sizeof(arg), " arg=%u", r->arg);
	if (r->deref_len)
		snprintf(deref, sizeof(deref), " deref=%u:%u", r->deref_off, r->deref_len);
	if (r->release)
		snprintf(release, sizeof(release), " release=0x%llx", (unsigned long long)rel);
	if (r->relarg)
		snprintf(relarg, sizeof(relarg), " relarg=%u", r->relarg);
	n = snprintf(line, size, "scope add %s 0x%llx%s%s%s%s%s%s%s%s%s", path,
		     (unsigned long long)off, pair, arg, deref, r->shared ? " shared" : "",
		     r->span ? " span" : "", release, relarg, r->name ? " name=" : "",
		     r->name ? r->name : "");
	if (n < 0 || (size_t)n + 1 >= LBT_CONTROL_MAX || (size_t)n >= size) {
		snprintf(why, wsize, "the control command would be %d bytes, the module takes %d",
			 n + 1, LBT_CONTROL_MAX - 1);
		return -1;
	}
	return 0;
}

/* "scope add BINARY SYMBOL ...": resolved, then one write to control. */
static int lbt_scope_add(const char *dir, int argc, char **argv)
{
	char path[PATH_MAX], line[LBT_CONTROL_MAX + 64], why[160], pair[LBT_CONTROL_MAX];
	struct lbt_elf_hit hit = {};
	struct lbt_scope_req r;
	uint64_t off, rel;
	const char *what;
	int err;

	if (lbt_scope_words(&r, argc, argv, why, sizeof(why)))
		return lbt_scope_usage("add: ", why);
	if (!realpath(r.binary, path))
		return lbt_fail(LBT_EXIT_DATA, "scope add: %s: %s (symbol %s)", r.binary,
				strerror(errno), r.symbol);
	err = lbt_scope_offset_else(path, &r, &off, &rel, &hit, &what, pair, sizeof(pair));
	if (err)
		return lbt_fail(LBT_EXIT_DATA, "scope add: %s: %s", path, hit.why);
	if (lbt_scope_line(line, sizeof(line), path, off, rel, pair, &r, why, sizeof(why)))
		return lbt_fail(LBT_EXIT_DATA, "scope add: %s %s: %s", path, r.symbol, why);
	return lbt_control(dir, line);
}

/* "scope resolve BINARY SYMBOL": "PATH OFFSET" per site, USDT with its semaphore. */
static int lbt_scope_resolve(int argc, char **argv)
{
	struct lbt_elf_hit hit = {};
	char path[PATH_MAX];
	uint64_t off;
	size_t i;
	int err;

	if (argc != 2)
		return lbt_scope_usage("resolve takes BINARY SYMBOL", "");
	if (!realpath(argv[0], path))
		return lbt_fail(LBT_EXIT_DATA, "scope resolve: %s: %s (symbol %s)", argv[0],
				strerror(errno), argv[1]);
	if (lbt_scope_number(argv[1], &off)) {
		printf("%s 0x%llx\n", path, (unsigned long long)off);
		return 0;
	}
	err = lbt_elf_resolve(path, argv[1], &hit);
	if (err) {
		lbt_elf_hit_free(&hit);
		return lbt_fail(LBT_EXIT_DATA, "scope resolve: %s: %s", path, hit.why);
	}
	for (i = 0; i < hit.n; i++) {
		printf("%s 0x%llx", path, (unsigned long long)hit.site[i].offset);
		if (hit.usdt && hit.site[i].sema)
			printf(" semaphore=0x%llx", (unsigned long long)hit.site[i].sema);
		else if (hit.usdt)
			printf(" semaphore=none");
		putchar('\n');
	}
	lbt_elf_hit_free(&hit);
	return 0;
}

int lbt_scope(const struct lbt_opts *o)
{
	const char *verb = o->sub_argc ? o->sub_argv[0] : "";
	int argc = o->sub_argc - 1;
	char **argv = o->sub_argv + 1;

	if (!strcmp(verb, "add"))
		return lbt_scope_add(o->dir, argc, argv);
	if (!strcmp(verb, "resolve"))
		return lbt_scope_resolve(argc, argv);
	if (!strcmp(verb, "auto"))
		return lbt_scope_auto(o->dir, argc, argv);
	if ((!strcmp(verb, "list") || !strcmp(verb, "clear")) && argc > 0)
		return lbt_scope_usage("unexpected argument ", argv[0]);
	if (!strcmp(verb, "list"))
		return lbt_cat(o->dir, "scopes");
	if (!strcmp(verb, "clear"))
		return lbt_control(o->dir, "scope clear");
	return lbt_scope_usage(*verb ? "unknown subcommand " : "a subcommand is needed", verb);
}
