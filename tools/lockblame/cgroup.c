// SPDX-License-Identifier: GPL-2.0
/*
 * Cgroups: the ledger names a task's cgroup by its cgroup v2 id, which is
 * the inode number of the cgroup's directory under the cgroup2 mount. This
 * file finds that mount (/proc/self/mountinfo; LOCKBLAME_CGROUP2 overrides
 * it), turns ids into paths below it and a path into an id, and prints the
 * --by-cgroup view: blame and waiting per cgroup, and who-made-whom-wait
 * between cgroups.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include "lockblame.h"

#define T(buf, ns) lbt_ns(buf, sizeof(buf), ns)
#define LBT_CGROUP2_MAGIC	0x63677270	/* CGROUP2_SUPER_MAGIC, linux/magic.h */
#define LBT_CGROUP_BUF 4096

struct lbt_cgroup_name {
	uint64_t id;
	char *path;		/* below the mount: "/" is the root cgroup */
};

static struct {
	struct lbt_cgroup_name *v;
	size_t n, cap;
	size_t root_len;
	bool loaded;
} lbt_cg;

/* The cgroup2 mount point: LOCKBLAME_CGROUP2, else the first in mountinfo. */
static char *lbt_cgroup2_mount(void)
{
	const char *env = getenv("LOCKBLAME_CGROUP2");
	char line[4096], mnt[4096], *sep;
	FILE *f;

	if (env && *env)
		return strdup(env);
	f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		sep = strstr(line, " - ");
		if (!sep || strncmp(sep, " - cgroup2 ", 11))
			continue;
		/* id parent major:minor root mountpoint ... */
		if (sscanf(line, "%*s %*s %*s %*s %4095s", mnt) == 1) {
			fclose(f);
			return strdup(mnt);	/* octal escapes of odd names are kept */
		}
	}
	fclose(f);
	return NULL;
}

static int lbt_cgroup_visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	struct lbt_cgroup_name *grown;

	(void)ftw;
	if (type != FTW_D)
		return 0;
	grown = lbt_grow(lbt_cg.v, &lbt_cg.cap, lbt_cg.n + 1, sizeof(*grown));
	if (!grown)
		return -1;
	lbt_cg.v = grown;
	lbt_cg.v[lbt_cg.n].id = st->st_ino;
	lbt_cg.v[lbt_cg.n].path = strdup(path[lbt_cg.root_len] ? path + lbt_cg.root_len : "/");
	if (!lbt_cg.v[lbt_cg.n].path)
		return -1;
	lbt_cg.n++;
	return 0;
}

/* Walk the cgroup2 mount once; without one, every id prints as cgroup:ID. */
static void lbt_cgroup_load(void)
{
	char *root;

	if (lbt_cg.loaded)
		return;
	lbt_cg.loaded = true;
	root = lbt_cgroup2_mount();
	if (!root)
		return;
	lbt_cg.root_len = strlen(root);
	while (lbt_cg.root_len > 1 && root[lbt_cg.root_len - 1] == '/')
		root[--lbt_cg.root_len] = '\0';
	if (nftw(root, lbt_cgroup_visit, 16, FTW_PHYS | FTW_MOUNT))
		lbt_warn("cgroup2 at %s: not all of it could be read", root);
	free(root);
}

/* "-" for 0 (not known), the path below the cgroup2 mount, else "cgroup:ID". */
const char *lbt_cgroup_name(char *buf, size_t size, uint64_t id)
{
	size_t i;

	if (!id) {
		snprintf(buf, size, "-");
		return buf;
	}
	lbt_cgroup_load();
	for (i = 0; i < lbt_cg.n; i++) {
		if (lbt_cg.v[i].id == id) {
			snprintf(buf, size, "%s", lbt_cg.v[i].path);
			return buf;
		}
	}
	snprintf(buf, size, "cgroup:%llu", (unsigned long long)id);
	return buf;
}

/* @path's inode number, if it is a directory (on a cgroup2 file system if @cgroup2). */
static int lbt_cgroup_dir(const char *path, bool cgroup2, uint64_t *id)
{
	struct statfs sf;
	struct stat st;

	if (stat(path, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (cgroup2 && (statfs(path, &sf) || sf.f_type != LBT_CGROUP2_MAGIC))
		return -EINVAL;
	*id = st.st_ino;
	return 0;
}

/*
 * A cgroup named by its id (decimal) or by a path: below the cgroup2 mount
 * (/system.slice), else absolute and on a cgroup2 file system
 * (/sys/fs/cgroup/system.slice); the directory's inode number is the id.
 */
int lbt_cgroup_parse(const char *arg, uint64_t *id)
{
	char *end, *root, *path = NULL;
	int err = -ENOENT;

	errno = 0;
	*id = strtoull(arg, &end, 10);
	if (*arg >= '0' && *arg <= '9' && !*end && !errno && *id)
		return 0;
	if (*arg != '/')
		return -EINVAL;
	root = lbt_cgroup2_mount();
	if (root && asprintf(&path, "%s%s", root, arg) > 0)
		err = lbt_cgroup_dir(path, false, id);
	free(root);
	free(path);
	return err ? lbt_cgroup_dir(arg, true, id) : 0;
}

static int lbt_cgroup_sum_cmp(const void *a, const void *b)
{
	const struct lbt_cgroup_sum *x = a, *y = b;

	if (x->blame_ns != y->blame_ns)
		return x->blame_ns < y->blame_ns ? 1 : -1;
	if (x->wait_ns != y->wait_ns)
		return x->wait_ns < y->wait_ns ? 1 : -1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* The kept tasks summed by cgroup: @n rows, most blame first (free() it). */
struct lbt_cgroup_sum *lbt_cgroup_sums(const struct lbt_doc *doc, size_t *n)
{
	struct lbt_cgroup_sum *s = calloc(LBT_ROWS(doc, LBT_T_TASK) + 1, sizeof(*s));
	size_t i, j;

	*n = 0;
	for (i = 0; s && i < LBT_ROWS(doc, LBT_T_TASK); i++) {
		const struct lbt_task *t = LBT_REC(doc, LBT_T_TASK, struct lbt_task, i);

		if (!t->h.keep || (!t->wait_ns && !t->blame_ns && !t->hold_ns))
			continue;
		for (j = 0; j < *n && s[j].id != t->cgroup; j++)
			;
		if (j == *n)
			s[(*n)++].id = t->cgroup;
		s[j].tasks++;
		s[j].blame_ns += t->blame_ns;
		s[j].wait_ns += t->wait_ns;
		s[j].hold_ns += t->hold_ns;
	}
	if (s)
		qsort(s, *n, sizeof(*s), lbt_cgroup_sum_cmp);
	return s;
}

static int lbt_cgroup_pair_cmp(const void *a, const void *b)
{
	const struct lbt_cgroup_pair *x = *(const void * const *)a, *y = *(const void * const *)b;

	if (x->blame_ns != y->blame_ns)
		return x->blame_ns < y->blame_ns ? 1 : -1;
	return x->h.line < y->h.line ? -1 : x->h.line > y->h.line;
}

/* "HOLDER CGROUP -> VICTIM CGROUP  BLAME": one line per pair, most blame first. */
void lbt_cgroup_pairs(const struct lbt_opts *o, const struct lbt_doc *doc, FILE *out)
{
	char h[LBT_CGROUP_BUF], v[LBT_CGROUP_BUF], a[LBT_NS_BUF];
	size_t i, n = LBT_ROWS(doc, LBT_T_CGROUP_PAIR);
	const void **p = calloc(n + 1, sizeof(*p));

	if (!p)
		return;
	for (i = 0; i < n; i++)
		p[i] = LBT_REC(doc, LBT_T_CGROUP_PAIR, struct lbt_cgroup_pair, i);
	qsort(p, n, sizeof(*p), lbt_cgroup_pair_cmp);
	fprintf(out, "\nBLAME BETWEEN CGROUPS by blame, %zu of %zu\n", n < o->top ? n : o->top,
		n);
	fprintf(out, "%-30s    %-30s %10s\n", "HOLDER CGROUP", "VICTIM CGROUP", "BLAME");
	for (i = 0; i < n && i < o->top; i++) {
		const struct lbt_cgroup_pair *cp = p[i];

		fprintf(out, "%-30s -> %-30s %10s\n", lbt_cgroup_name(h, sizeof(h), cp->holder_cgroup),
			lbt_cgroup_name(v, sizeof(v), cp->victim_cgroup), T(a, cp->blame_ns));
	}
	if (!n)
		fputs("  (none: no blame charged yet)\n", out);
	free(p);
}

/* Whether the ledger knows any task's cgroup (a kernel with cgroups, ABI 3 on). */
bool lbt_cgroup_known(const struct lbt_doc *doc)
{
	size_t i;

	for (i = 0; i < LBT_ROWS(doc, LBT_T_CGROUP_PAIR); i++) {
		const struct lbt_cgroup_pair *cp =
			LBT_REC(doc, LBT_T_CGROUP_PAIR, struct lbt_cgroup_pair, i);

		if (cp->holder_cgroup || cp->victim_cgroup)
			return true;
	}
	return false;
}

/* --by-cgroup: the tasks summed by cgroup, then blame between cgroups. */
int lbt_by_cgroup(const struct lbt_opts *o, const struct lbt_doc *doc, FILE *out)
{
	char name[LBT_CGROUP_BUF], a[LBT_NS_BUF], b[LBT_NS_BUF], c[LBT_NS_BUF];
	struct lbt_cgroup_sum *s;
	size_t n, i;

	s = lbt_cgroup_sums(doc, &n);
	if (!s)
		return lbt_fail(LBT_EXIT_RUNTIME, "out of memory");
	fprintf(out, "CGROUPS by blame, %zu of %zu (tasks in the ledger, summed)\n",
		n < o->top ? n : o->top, n);
	fprintf(out, "%-30s %6s %10s %10s %10s\n", "CGROUP", "TASKS", "BLAME", "WAIT", "HOLD");
	for (i = 0; i < n && i < o->top; i++)
		fprintf(out, "%-30s %6llu %10s %10s %10s\n", lbt_cgroup_name(name, sizeof(name), s[i].id),
			(unsigned long long)s[i].tasks, T(a, s[i].blame_ns), T(b, s[i].wait_ns),
			T(c, s[i].hold_ns));
	if (!n)
		fputs("  (no task matches)\n", out);
	free(s);
	lbt_cgroup_pairs(o, doc, out);
	fputs("  cgroups are cgroup v2 paths below the cgroup2 mount; cgroup:ID an id not found there; -: not known\n",
	      out);
	return 0;
}
