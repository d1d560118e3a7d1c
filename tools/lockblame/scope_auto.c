// SPDX-License-Identifier: GPL-2.0
/*
 * lockblame scope auto: plant the scopes of the profiles (profiles/NAME.scope,
 * lines "BINARY-GLOB SYMBOL [options]") whose binaries are on this host,
 * each binary once, none planted twice (docs/scopes.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lockblame.h"
#include "scope.h"

#define LBT_PROFILES_DIR	"/usr/share/lockblame/profiles"
#define LBT_PROFILE_WORDS	16

/* What one "scope auto" run did, and the scopes it must not plant twice. */
struct lbt_auto {
	const char *dir;
	bool dry_run;
	char **keys;		/* "PATH 0xOFFSET", planted before or by this run */
	size_t nkeys, cap;
	size_t nbefore;		/* keys[0..nbefore): from the scopes file */
	unsigned int added, planted;
};

/* The index of @key in the keys, or -1. */
static long lbt_auto_seen(const struct lbt_auto *a, const char *key)
{
	size_t i;

	for (i = 0; i < a->nkeys; i++)
		if (!strcmp(a->keys[i], key))
			return i;
	return -1;
}

static int lbt_auto_remember(struct lbt_auto *a, const char *key)
{
	char **v = lbt_grow(a->keys, &a->cap, a->nkeys + 1, sizeof(*a->keys));

	if (!v)
		return -1;
	a->keys = v;
	a->keys[a->nkeys] = strdup(key);
	if (!a->keys[a->nkeys])
		return -1;
	a->nkeys++;
	return 0;
}

/* The scopes planted already: "ID name=N offset=0xOFF ... path=PATH" lines. */
static int lbt_auto_planted(struct lbt_auto *a)
{
	char *path = lbt_path(a->dir, "scopes"), *line = NULL, *off, *p, key[PATH_MAX + 32];
	size_t cap = 0;
	FILE *f;
	int err = 0;

	f = path ? fopen(path, "re") : NULL;
	free(path);
	while (f && !err && getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		off = strstr(line, " offset=");
		p = strstr(line, " path=");
		if (!off || !p)
			continue;
		snprintf(key, sizeof(key), "%s %.*s", p + 6, (int)strcspn(off + 8, " "), off + 8);
		err = lbt_auto_remember(a, key);
	}
	free(line);
	if (f)
		fclose(f);
	a->nbefore = a->nkeys;
	return err;
}

static void lbt_auto_skip(const char *prof, const char *path, const struct lbt_elf_hit *hit,
			  int err, const char *symbol)
{
	if (err == LBT_ELF_NO_SYMBOL && !hit->minidebuginfo && !hit->usdt)
		lbt_warn("profile %s: %s: no %s (a different build?); skipped", prof, path, symbol);
	else
		lbt_warn("profile %s: %s: %s; skipped", prof, path, hit->why);
}

/* One binary a profile's glob matched: resolved, written (or printed). */
static int lbt_auto_binary(struct lbt_auto *a, const char *prof, const struct lbt_scope_req *r,
			   const char *match)
{
	char path[PATH_MAX], line[LBT_CONTROL_MAX + 64], why[160], key[PATH_MAX + 32];
	char pair[LBT_CONTROL_MAX];
	struct lbt_elf_hit hit = {};
	struct lbt_scope_req req;
	uint64_t off, rel;
	const char *what;
	long seen;
	int err;

	if (!realpath(match, path))
		return 0;	/* gone since the glob, or a dangling link */
	req = *r;	/* --else may change it, for this binary only */
	err = lbt_scope_offset_else(path, &req, &off, &rel, &hit, &what, pair, sizeof(pair));
	if (err) {
		lbt_auto_skip(prof, path, &hit, err, what);
		return 0;
	}
	snprintf(key, sizeof(key), "%s 0x%llx", path, (unsigned long long)off);
	seen = lbt_auto_seen(a, key);
	if (seen >= 0 && (size_t)seen < a->nbefore) {
		lbt_warn("profile %s: %s %s: planted already", prof, path, req.symbol);
		a->planted++;
	}
	if (seen >= 0)
		return 0;	/* or matched twice in this run (a symlink) */
	if (lbt_scope_line(line, sizeof(line), path, off, rel, pair, &req, why, sizeof(why))) {
		lbt_warn("profile %s: %s %s: %s; skipped", prof, path, req.symbol, why);
		return 0;
	}
	if (!a->dry_run && lbt_control(a->dir, line))
		return 0;
	printf("%s\n", line);
	a->added++;
	return lbt_auto_remember(a, key);
}

static int lbt_auto_glob(struct lbt_auto *a, const char *prof, const struct lbt_scope_req *r)
{
	glob_t g;
	size_t i;
	int err = 0;

	if (glob(r->binary, 0, NULL, &g))
		return 0;	/* not on this host */
	for (i = 0; i < g.gl_pathc && !err; i++)
		err = lbt_auto_binary(a, prof, r, g.gl_pathv[i]);
	globfree(&g);
	return err;
}

/* One line of profile @file: "BINARY-GLOB SYMBOL [options]", '#' comments. */
static int lbt_auto_line(struct lbt_auto *a, const char *prof, const char *file,
			 unsigned int lineno, char *line)
{
	char *words[LBT_PROFILE_WORDS], *w, *save, why[160];
	struct lbt_scope_req r;
	int n = 0;

	line[strcspn(line, "#")] = '\0';
	for (w = strtok_r(line, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == LBT_PROFILE_WORDS) {
			lbt_warn("%s:%u: more than %d words; line skipped", file, lineno, n);
			return 0;
		}
		words[n++] = w;
	}
	if (!n)
		return 0;
	if (lbt_scope_words(&r, n, words, why, sizeof(why))) {
		lbt_warn("%s:%u: %s; line skipped", file, lineno, why);
		return 0;
	}
	if (r.binary[0] != '/') {
		lbt_warn("%s:%u: '%s' is not an absolute path; line skipped", file, lineno,
			 r.binary);
		return 0;
	}
	return lbt_auto_glob(a, prof, &r);
}

static int lbt_auto_profile(struct lbt_auto *a, const char *file)
{
	char *line = NULL, *copy = strdup(file), *prof, *dot;
	unsigned int lineno = 0;
	size_t cap = 0;
	int err = 0;
	FILE *f;

	if (!copy)
		return -1;
	prof = basename(copy);
	dot = strrchr(prof, '.');
	if (dot)
		*dot = '\0';
	f = fopen(file, "re");
	if (!f)
		lbt_warn("profile %s: %s: %s; skipped", prof, file, strerror(errno));
	while (f && !err && getline(&line, &cap, f) > 0)
		err = lbt_auto_line(a, prof, file, ++lineno, line);
	free(line);
	free(copy);
	if (f)
		fclose(f);
	return err;
}

static bool lbt_is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/*
 * Where the profiles are: --profiles, $LOCKBLAME_PROFILES, the package's
 * directory, then beside this executable (installed under a prefix, or the
 * source tree's tools/lockblame/profiles).
 */
static const char *lbt_profiles_dir(const char *arg, char *buf, size_t size)
{
	const char *env = getenv("LOCKBLAME_PROFILES");
	char exe[PATH_MAX];
	const char *bin;
	ssize_t n;

	if (arg)
		return arg;
	if (env && *env)
		return env;
	if (lbt_is_dir(LBT_PROFILES_DIR))
		return LBT_PROFILES_DIR;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return LBT_PROFILES_DIR;
	exe[n] = '\0';
	bin = dirname(exe);
	snprintf(buf, size, "%s/../share/lockblame/profiles", bin);
	if (lbt_is_dir(buf))
		return buf;
	snprintf(buf, size, "%s/profiles", bin);
	return lbt_is_dir(buf) ? buf : LBT_PROFILES_DIR;
}

static int lbt_auto_run(struct lbt_auto *a, const char *dir)
{
	char *pattern = lbt_path(dir, "*.scope");
	glob_t g;
	size_t i;
	int err = 0;

	if (!pattern)
		return lbt_fail(LBT_EXIT_RUNTIME, "out of memory");
	err = glob(pattern, 0, NULL, &g);
	free(pattern);
	if (err)
		return lbt_fail(LBT_EXIT_RUNTIME, "scope auto: no *.scope profiles in %s", dir);
	for (i = 0; i < g.gl_pathc && !err; i++)
		err = lbt_auto_profile(a, g.gl_pathv[i]);
	globfree(&g);
	if (err)
		return lbt_fail(LBT_EXIT_RUNTIME, "out of memory");
	if (!a->added && !a->planted)
		return lbt_fail(LBT_EXIT_RUNTIME, "scope auto: no scope %s from the profiles in %s",
				a->dry_run ? "to add" : "added", dir);
	return 0;
}

/* Without --dry-run the module must be there: say so once, not once per scope. */
static int lbt_auto_control_ok(const char *dir)
{
	char *path = lbt_path(dir, "control");
	int fd, err;

	if (!path)
		return lbt_fail(LBT_EXIT_RUNTIME, "out of memory");
	fd = open(path, O_WRONLY | O_CLOEXEC);
	err = errno;
	free(path);
	if (fd < 0)
		return lbt_open_diag(dir, "control", err);
	close(fd);
	return 0;
}

/* "scope auto [--dry-run] [--profiles DIR]". */
int lbt_scope_auto(const char *dir, int argc, char **argv)
{
	struct lbt_auto a = { .dir = dir };
	const char *profiles = NULL;
	char buf[PATH_MAX + 64];
	size_t k;
	int i, err;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--dry-run")) {
			a.dry_run = true;
			continue;
		}
		if (!lbt_scope_is(argv[i], "--profiles"))
			return lbt_scope_usage("auto: unexpected argument ", argv[i]);
		profiles = lbt_scope_value(argc, argv, &i, "--profiles");
		if (!profiles || !*profiles)
			return lbt_scope_usage("auto: --profiles needs a directory", "");
	}
	if (!a.dry_run) {
		err = lbt_auto_control_ok(dir);
		if (err)
			return err;
		if (lbt_auto_planted(&a))
			return lbt_fail(LBT_EXIT_RUNTIME, "out of memory");
	}
	err = lbt_auto_run(&a, lbt_profiles_dir(profiles, buf, sizeof(buf)));
	for (k = 0; k < a.nkeys; k++)
		free(a.keys[k]);
	free(a.keys);
	return err;
}
