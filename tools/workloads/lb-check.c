// SPDX-License-Identifier: GPL-2.0
/*
 * lb-check: holds lockblame's ledger dump against a workload's own truth
 * lines and prints one TAP line per check.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../lockblame/lockblame.h"

#define MAX_FIELDS	64
#define MAX_CHECKS	64
#define MS		1e6

struct field {
	const char *key;
	const char *val;
};

/*
 * A truth record is a type and key=value strings; a ledger record is one the
 * reader's parser made (tools/lockblame/parse.c), read through its key table.
 */
struct record {
	const char *type;
	int lt;			/* a ledger record: its type in lbt_types */
	const void *rec;	/* a ledger record: as parsed, else NULL */
	unsigned int nfields;
	struct field f[MAX_FIELDS];
};

struct doc {
	const char *path;
	char *text;
	struct lbt_doc parsed;	/* the ledger's records */
	struct record *r;
	unsigned int n, cap;
};

enum check_kind {
	CK_VERDICTS,
	CK_COMPARE,
	CK_SUM,
	CK_PAIRS,
	CK_PAIRS_OF,
	CK_LOCK,
	CK_CROSS_PROCESS,
	CK_ATTRIBUTED,
	CK_BLAMED,
	CK_ROOT_CAUSE,
	CK_CHAIN_ROOT,
	CK_SELF,
	CK_IDLE,
	CK_SPLIT,
};

struct check {
	enum check_kind kind;
	const char *arg;
};

static const char *name;
static const char *stage = "input";	/* what die() failed to read */
static double tolerance = 10.0;
static unsigned int failures;
static struct doc truth, ledger;
static char diagbuf[1 << 16];
static size_t diaglen;

/*
 * Output: a TAP line per check, its diagnostics just before it (the QEMU
 * harness attaches the lines preceding a result to that result).
 */

static void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void diag(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (diaglen >= sizeof(diagbuf) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(diagbuf + diaglen, sizeof(diagbuf) - diaglen, fmt, ap);
	va_end(ap);
	if (n > 0)
		diaglen += n;
	if (diaglen >= sizeof(diagbuf) - 1)
		diaglen = sizeof(diagbuf) - 2;
	diagbuf[diaglen++] = '\n';
}

/*
 * A statistical check (a figure within a tolerance under TCG) is judged where
 * its margin was measured, the stock kernels. With LB_STATISTICAL=report
 * (lib.sh sets it on the debug lane) a miss is a skip that says what missed.
 */
static bool statistical_judged(void)
{
	const char *s = getenv("LB_STATISTICAL");

	return !s || strcmp(s, "report");
}

static void vtap(bool ok, bool statistical, const char *check, const char *fmt,
		 va_list ap)
{
	char reason[512] = "";
	const char *skip = "";
	char *line, *next;

	if (!ok) {
		vsnprintf(reason, sizeof(reason), fmt, ap);
		if (statistical && !statistical_judged()) {
			ok = true;
			skip = "SKIP statistical, judged on the stock lanes: ";
		} else {
			failures++;
		}
	}
	diagbuf[diaglen] = '\0';
	for (line = diagbuf; *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		printf("#   %s\n", line);
	}
	diaglen = 0;
	printf("%s - %s: %s%s%s%s\n", ok ? "ok" : "not ok", name, check,
	       reason[0] ? " # " : "", skip, reason);
}

/* @fmt says what is wrong; it is printed only when the check fails. */
static void tap(bool ok, const char *check, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void tap(bool ok, const char *check, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vtap(ok, false, check, fmt, ap);
	va_end(ap);
}

/* The same for a statistical check. */
static void stat_tap(bool ok, const char *check, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void stat_tap(bool ok, const char *check, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vtap(ok, true, check, fmt, ap);
	va_end(ap);
}

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void die(const char *fmt, ...)
{
	char reason[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	printf("not ok - %s: %s # %s\n", name ? name : "lb-check", stage,
	       reason);
	exit(2);
}

/* Parsing: records are a type and space-separated key=value fields. */

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t len = 0, cap = 1 << 16, n;
	char *buf = malloc(cap);

	if (!f)
		die("%s: %s", path, strerror(errno));
	if (!buf)
		die("out of memory");
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (len + 1 == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				die("out of memory");
		}
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
}

static struct record *doc_add(struct doc *d)
{
	if (d->n == d->cap) {
		d->cap = 2 * d->cap + 16;
		d->r = realloc(d->r, d->cap * sizeof(*d->r));
		if (!d->r)
			die("out of memory");
	}
	memset(&d->r[d->n], 0, sizeof(d->r[0]));
	return &d->r[d->n++];
}

/* Splits @line into fields of @r; false on a token without '='. */
static bool parse_fields(struct record *r, char *line)
{
	char *tok, *save = NULL, *eq;

	for (tok = strtok_r(line, " \t\r", &save); tok;
	     tok = strtok_r(NULL, " \t\r", &save)) {
		eq = strchr(tok, '=');
		if (!eq)
			return false;
		*eq = '\0';
		if (r->nfields < MAX_FIELDS)
			r->f[r->nfields++] = (struct field){ tok, eq + 1 };
	}
	return true;
}

static void load_ledger(const char *path)
{
	struct lbt_doc *doc = &ledger.parsed;
	struct record *r;
	size_t i;
	int t;

	stage = "ledger";
	ledger.path = path;
	ledger.text = slurp(path);
	if (lbt_parse_ledger(doc, ledger.text, strlen(ledger.text), path))
		die("%s: not a lockblame ledger of format v%d", path, LB_LEDGER_VERSION);
	for (t = 0; t < LBT_NTYPES; t++) {
		for (i = 0; i < LBT_ROWS(doc, t); i++) {
			r = doc_add(&ledger);
			r->type = lbt_types[t].name;
			r->lt = t;
			r->rec = (const char *)doc->tab[t].v + i * lbt_types[t].size;
		}
	}
	stage = "input";
}

/* Truth records are typed by their first key. */
static void load_truth(const char *path)
{
	static const char *const types[][2] = {
		{ "workload", "run" }, { "role", "task" },
		{ "lock", "lock" }, { "holder", "pair" },
	};
	struct record *r;
	char *line, *next;
	unsigned int i, lineno = 0;

	stage = "truth";
	truth.path = path;
	truth.text = slurp(path);
	for (line = truth.text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (strncmp(line, "truth ", 6))
			continue;
		r = doc_add(&truth);
		if (!parse_fields(r, line + 6) || !r->nfields)
			die("%s:%u: malformed truth line", path, lineno);
		for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
			if (!strcmp(r->f[0].key, types[i][0]))
				r->type = types[i][1];
		if (!r->type)
			truth.n--;
	}
	stage = "input";
}

/* A ledger record's value of @key as text: NULL if its line did not carry it. */
static const char *ledger_get(const struct record *r, const char *key)
{
	static char buf[4][4096];
	static unsigned int n;
	const struct lbt_field *f = lbt_field(r->lt, r->rec, key);
	const char *p = f ? (const char *)r->rec + f->off : NULL;
	const struct lbt_comm *c = (const void *)p;
	const struct lbt_s32_list *pl = (const void *)p;
	const struct lbt_id_list *il = (const void *)p;
	char *b = buf[n++ % 4];
	size_t len = 0, size = sizeof(buf[0]);
	unsigned int i, n_items;

	if (!f)
		return NULL;
	b[0] = '\0';
	switch (f->kind) {
	case LBT_U64:
		snprintf(b, size, "%" PRIu64, *(const uint64_t *)p);
		break;
	case LBT_U32:
		snprintf(b, size, "%" PRIu32, *(const uint32_t *)p);
		break;
	case LBT_S32:
		snprintf(b, size, "%" PRId32, *(const int32_t *)p);
		break;
	case LBT_ID:
		snprintf(b, size, "%016" PRIx64, *(const uint64_t *)p);
		break;
	case LBT_COMM:
	case LBT_NAME:
		snprintf(b, size, "%.*s", (int)c->len, (const char *)c->b);
		break;
	case LBT_WORD:
		return p;
	case LBT_S32_LIST:
	case LBT_ID_LIST:
		n_items = f->kind == LBT_S32_LIST ? pl->n : il->n;
		for (i = 0; i < n_items && len < size; i++)
			len += f->kind == LBT_S32_LIST ?
			       snprintf(b + len, size - len, "%s%" PRId32, i ? "," : "", pl->v[i]) :
			       snprintf(b + len, size - len, "%s%016" PRIx64, i ? "," : "", il->v[i]);
		break;
	}
	return b;
}

static const char *get(const struct record *r, const char *key)
{
	unsigned int i;

	if (r && r->rec)
		return ledger_get(r, key);
	for (i = 0; r && i < r->nfields; i++)
		if (!strcmp(r->f[i].key, key))
			return r->f[i].val;
	return NULL;
}

static bool get_u64(const struct record *r, const char *key, uint64_t *v)
{
	const char *s = get(r, key);
	char *end;

	if (!s || !*s)
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end;
}

static uint64_t u64(const struct record *r, const char *key)
{
	uint64_t v;

	return get_u64(r, key, &v) ? v : 0;
}

static long pid_of(const struct record *r, const char *key)
{
	const char *s = get(r, key);

	return s ? strtol(s, NULL, 10) : 0;
}

static bool is(const struct record *r, const char *type)
{
	return !strcmp(r->type, type);
}

static bool field_is(const struct record *r, const char *key, const char *val)
{
	const char *s = get(r, key);

	return s && !strcmp(s, val);
}

static const struct record *find(const struct doc *d, const char *type,
				 const char *key, long pid)
{
	unsigned int i;

	for (i = 0; i < d->n; i++)
		if (is(&d->r[i], type) && pid_of(&d->r[i], key) == pid)
			return &d->r[i];
	return NULL;
}

static const struct record *ledger_task(long pid)
{
	return find(&ledger, "task", "pid", pid);
}

static const struct record *truth_task(long pid)
{
	return find(&truth, "task", "pid", pid);
}

static const char *who(const struct record *t)
{
	static char buf[4][64];
	static unsigned int i;
	char *b = buf[i++ % 4];

	snprintf(b, sizeof(buf[0]), "%s pid %ld", get(t, "role"),
		 pid_of(t, "pid"));
	return b;
}

static double pct(uint64_t got, uint64_t want)
{
	return want ? 100.0 * ((double)got - (double)want) / want : 0;
}

/* Checks that always run. */

static bool conserved(const struct record *r, const char *what)
{
	uint64_t wait = u64(r, "wait_ns"), blame = u64(r, "blame_ns");
	uint64_t pending = u64(r, "pending_ns");
	uint64_t unattributed = u64(r, "unattributed_ns");

	if (blame + pending + unattributed == wait)
		return true;
	diag("%s: blame %" PRIu64 " + pending %" PRIu64 " + unattributed %" PRIu64 " != wait %" PRIu64,
	     what, blame, pending, unattributed, wait);
	return false;
}

static void check_conservation(void)
{
	const struct record *totals = NULL;
	unsigned int i;
	bool ok = true;

	for (i = 0; i < ledger.n; i++) {
		if (is(&ledger.r[i], "totals") && !totals)
			totals = &ledger.r[i];
		else if (is(&ledger.r[i], "lock"))
			ok &= conserved(&ledger.r[i], get(&ledger.r[i], "id") ?
					get(&ledger.r[i], "id") : "lock");
	}
	if (!totals) {
		tap(false, "conservation", "no totals record");
		return;
	}
	ok &= conserved(totals, "totals");
	diag("totals: events %" PRIu64 " late %" PRIu64 " unmatched %" PRIu64 " evicted locks/tasks %" PRIu64 "/%" PRIu64 " dropped waiters/pairs %" PRIu64 "/%" PRIu64,
	     u64(totals, "events"), u64(totals, "late"),
	     u64(totals, "unmatched"), u64(totals, "evicted_locks"),
	     u64(totals, "evicted_tasks"), u64(totals, "dropped_waiters"),
	     u64(totals, "dropped_pairs"));
	tap(ok, "conservation", "blame + pending + unattributed != wait");
}

/*
 * The verdict a truth task is expected to get, or NULL. An actor whose own
 * truth shows it never waited and never made anyone wait (a holder whose
 * turn came when nobody wanted the lock: the run's timing, not the design)
 * has no part in the contention: nothing is expected of it.
 */
static const char *expected_verdict(const struct record *t)
{
	uint64_t wait, blame;

	if (get_u64(t, "wait_ns", &wait) && get_u64(t, "blame_ns", &blame) && !wait && !blame)
		return NULL;
	return get(t, "expect");
}

/*
 * Every truth task the ledger lists must carry the same identity; every
 * task with an expected verdict must be listed at all.
 */
static void check_identity(void)
{
	const char *comm;
	unsigned int i, bad = 0, seen = 0;

	for (i = 0; i < truth.n; i++) {
		const struct record *t = &truth.r[i], *l;

		if (!is(t, "task"))
			continue;
		l = ledger_task(pid_of(t, "pid"));
		if (!l) {
			if (expected_verdict(t)) {
				diag("%s (%s) is not in the ledger", who(t),
				     get(t, "comm"));
				bad++;
			}
			continue;
		}
		seen++;
		comm = get(l, "comm") ? get(l, "comm") : "";
		if (pid_of(l, "tgid") != pid_of(t, "tgid") ||
		    strcmp(comm, get(t, "comm") ? get(t, "comm") : "")) {
			diag("%s: ledger says tgid %ld comm '%s', truth tgid %ld comm '%s'",
			     who(t), pid_of(l, "tgid"), comm,
			     pid_of(t, "tgid"), get(t, "comm"));
			bad++;
		}
	}
	tap(!bad && seen, "identity",
	    "%u task(s) missing or misnamed, %u of the truth's in the ledger",
	    bad, seen);
}

/*
 * The range of the truth's @field: between it and its twins, FIELD_late
 * (holds ending when unlock returned) and FIELD_unseen (chains stopped at
 * holds the kernel cannot see, taken on the fast path during a handoff:
 * truth.c). False if the truth has no @field.
 */
static bool truth_range(const struct record *t, const char *field, uint64_t *lo, uint64_t *hi)
{
	static const char *const twin[] = { "_late", "_unseen" };
	char name[128];
	uint64_t v;
	unsigned int i;

	if (!get_u64(t, field, &v))
		return false;
	*lo = v;
	*hi = v;
	for (i = 0; i < sizeof(twin) / sizeof(twin[0]); i++) {
		snprintf(name, sizeof(name), "%s%s", field, twin[i]);
		if (!get_u64(t, name, &v))
			continue;
		*lo = v < *lo ? v : *lo;
		*hi = v > *hi ? v : *hi;
	}
	return true;
}

/*
 * The verdicts the truth's own figures allow: kept blame and wait, each
 * anywhere within the tolerance (and between a figure and its twins),
 * through the ledger's rule (cause if wait <= kept / 2, victim if kept <=
 * wait / 2, else shared). A bit per verdict; 0 if the truth has no kept_ns
 * (kernel-lock workloads, old recordings): then the design's expect= rules.
 */
enum { V_CAUSE = 1, V_VICTIM = 2, V_SHARED = 4 };

static unsigned int truth_verdicts(const struct record *t)
{
	uint64_t kept_lo, kept_hi, wait;
	double klo, khi, wlo, whi, f = tolerance / 100;
	unsigned int set = 0;

	if (!truth_range(t, "kept_ns", &kept_lo, &kept_hi) || !get_u64(t, "wait_ns", &wait))
		return 0;
	klo = kept_lo * (1 - f);
	khi = kept_hi * (1 + f);
	wlo = wait * (1 - f);
	whi = wait * (1 + f);
	if (wlo <= khi / 2)
		set |= V_CAUSE;
	if (klo <= whi / 2)
		set |= V_VICTIM;
	/* Some point with kept / wait strictly between 1/2 and 2. */
	if (klo < 2 * whi && khi > wlo / 2)
		set |= V_SHARED;
	return set;
}

/* A verdict, or alternatives "a|b" (expect=victim|shared), as a set. */
static unsigned int verdict_bits(const char *v)
{
	static const char *const names[] = { "cause", "victim", "shared" };
	unsigned int set = 0, i;
	size_t len;

	while (v && *v) {
		len = strcspn(v, "|");
		for (i = 0; i < 3; i++)
			if (strlen(names[i]) == len && !strncmp(v, names[i], len))
				set |= 1u << i;
		v += len;
		v += *v == '|';
	}
	return set;
}

static const char *verdict_names(unsigned int set)
{
	static const char *const names[] = {
		"none", "cause", "victim", "cause or victim", "shared",
		"cause or shared", "victim or shared", "any",
	};

	return names[set & 7];
}

/*
 * --verdicts: each task with expect= must have the verdict the truth's
 * figures give. That is the design's expect= unless the run went otherwise
 * (a victim preempted for 180 ms inside its 50 us critical section really
 * made the others wait): then the truth's figures decide, and say so.
 */
static void check_verdicts(void)
{
	unsigned int i, n = 0, bad = 0;

	for (i = 0; i < truth.n; i++) {
		const struct record *t = &truth.r[i], *l;
		const char *want = expected_verdict(t), *got;
		unsigned int allowed;
		uint64_t lo, hi;

		if (!is(t, "task") || !want)
			continue;
		n++;
		l = ledger_task(pid_of(t, "pid"));
		got = l ? get(l, "verdict") : NULL;
		allowed = truth_verdicts(t);
		if (allowed && !(allowed & verdict_bits(want))) {
			truth_range(t, "kept_ns", &lo, &hi);
			diag("%s: the run went otherwise than designed: expected %s, the truth's figures say %s (kept %.3f ms, %.3f to %.3f ms with its twins, wait %.3f ms)",
			     who(t), want, verdict_names(allowed), u64(t, "kept_ns") / MS,
			     lo / MS, hi / MS, u64(t, "wait_ns") / MS);
		}
		if (!allowed)
			allowed = verdict_bits(want);
		if (!(allowed & verdict_bits(got))) {
			diag("%s: verdict %s, expected %s (ledger wait %.3f ms blame %.3f ms kept %.3f ms)",
			     who(t), got ? got : "(absent)", verdict_names(allowed),
			     u64(l, "wait_ns") / MS, u64(l, "blame_ns") / MS,
			     u64(l, "root_blame_ns") / MS);
			bad++;
		}
	}
	tap(n && !bad, "verdicts", "%u of %u wrong", bad, n);
}

/*
 * --compare ROLE:FIELD[,FIELD...] per task, --sum ROLE:FIELD[,...] over the
 * role. The parts of a hold (hold_on_cpu_ns, hold_runnable_ns,
 * hold_sleeping_ns) are compared as shares of hold_ns, in points.
 *
 * The truth may give a field twice: FIELD with every hold ending just before
 * pthread_mutex_unlock was called, FIELD_late with it ending when the call
 * returned. The release happened in between, so the ledger may be anywhere
 * in that range, give or take the tolerance.
 */
struct want {
	uint64_t v, late;		/* late == v: one value */
	uint64_t hold, hold_late;	/* for the on-CPU share */
};

static void want_add(struct want *w, const struct record *t, const char *field)
{
	char late[128];
	uint64_t v, l;

	if (!get_u64(t, field, &v))
		die("truth for %s has no %s", who(t), field);
	snprintf(late, sizeof(late), "%s_late", field);
	w->v += v;
	w->late += get_u64(t, late, &l) ? l : v;
	w->hold += u64(t, "hold_ns");
	w->hold_late += get_u64(t, "hold_ns_late", &l) ? l : u64(t, "hold_ns");
}

static double share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0;
}

/* The parts a hold divides into: on a CPU, runnable, asleep. */
static const struct hold_part {
	const char *field, *name;
} hold_parts[] = {
	{ "hold_on_cpu_ns", "on-CPU" },
	{ "hold_runnable_ns", "runnable" },
	{ "hold_sleeping_ns", "asleep" },
};

static const char *hold_part_name(const char *field)
{
	unsigned int i;

	for (i = 0; i < sizeof(hold_parts) / sizeof(hold_parts[0]); i++)
		if (!strcmp(field, hold_parts[i].field))
			return hold_parts[i].name;
	return NULL;
}

/* The truth's share of the hold in points, from the early and late figures. */
static void share_range(const struct want *w, double *lo, double *hi)
{
	*lo = share(w->v, w->hold);
	*hi = share(w->late, w->hold_late);
	if (*lo > *hi) {
		double x = *lo;

		*lo = *hi;
		*hi = x;
	}
}

static bool within(const char *what, const char *field, uint64_t got,
		   uint64_t got_hold, const struct want *w)
{
	const char *part = hold_part_name(field);
	double g, lo, hi;

	if (part) {
		g = share(got, got_hold);
		share_range(w, &lo, &hi);
		if (hi - lo < 0.05)
			diag("%s %s share of hold: ledger %.1f%%, truth %.1f%%",
			     what, part, g, lo);
		else
			diag("%s %s share of hold: ledger %.1f%%, truth %.1f%% to %.1f%%",
			     what, part, g, lo, hi);
		return got_hold && w->hold && g >= lo - tolerance && g <= hi + tolerance;
	}
	lo = w->v < w->late ? w->v : w->late;
	hi = w->v < w->late ? w->late : w->v;
	if (lo == hi)
		diag("%s %s: ledger %.3f ms, truth %.3f ms (%+.1f%%)", what, field,
		     got / MS, lo / MS, pct(got, lo));
	else
		diag("%s %s: ledger %.3f ms, truth %.3f to %.3f ms (%s)", what, field,
		     got / MS, lo / MS, hi / MS, got < lo ? "below" : got > hi ? "above" : "inside");
	return hi && got >= lo * (1 - tolerance / 100) && got <= hi * (1 + tolerance / 100);
}

static void check_compare(const char *spec, bool sum)
{
	char role[64], fields[256], check[320], *field, *save = NULL;
	const char *colon = strchr(spec, ':');
	unsigned int i;

	if (!colon || colon == spec || (size_t)(colon - spec) >= sizeof(role))
		die("--%s %s: want ROLE:FIELD[,FIELD...]",
		    sum ? "sum" : "compare", spec);
	snprintf(role, sizeof(role), "%.*s", (int)(colon - spec), spec);
	snprintf(fields, sizeof(fields), "%s", colon + 1);

	for (field = strtok_r(fields, ",", &save); field;
	     field = strtok_r(NULL, ",", &save)) {
		uint64_t got = 0, got_hold = 0;
		struct want all = { 0 };
		unsigned int n = 0, bad = 0;

		snprintf(check, sizeof(check), "%s%s %s", sum ? "sum " : "",
			 role, field);
		for (i = 0; i < truth.n; i++) {
			const struct record *t = &truth.r[i], *l;
			struct want one = { 0 };

			if (!is(t, "task") || !field_is(t, "role", role))
				continue;
			l = ledger_task(pid_of(t, "pid"));
			n++;
			if (!sum) {
				want_add(&one, t, field);
				if (!within(who(t), field, u64(l, field), u64(l, "hold_ns"), &one))
					bad++;
				continue;
			}
			want_add(&all, t, field);
			got += u64(l, field);
			got_hold += u64(l, "hold_ns");
		}
		if (!n)
			die("no truth task has role %s", role);
		if (sum && !within(role, field, got, got_hold, &all))
			bad++;
		stat_tap(!bad, check, "off by more than %.0f%%", tolerance);
	}
}

/*
 * --split ROLE: why each ROLE task's holds were slow, as the ledger splits
 * them. Its measured parts (on a CPU, runnable, asleep) must add up to its
 * own hold within the tolerance, so that what is not measured
 * (hold_cpu_unknown_ns, hold_runnable_unknown_ns) stays small; --compare
 * checks each part against the truth's. The hold itself must be the
 * truth's within SPLIT_HOLD_TOLERANCE: a victim that failed its trylock and
 * was preempted before its futex syscall waits where no kernel tracer sees
 * it, which under host load (TCG) cuts the contended part by a few percent.
 */
#define SPLIT_HOLD_TOLERANCE	10.0

static bool split_ok(const struct record *t, const struct record *l)
{
	uint64_t part[3], sum = 0, hold = u64(l, "hold_ns");
	struct want w = { 0 };
	double lo, hi;
	unsigned int i;

	for (i = 0; i < 3; i++) {
		if (!get_u64(l, hold_parts[i].field, &part[i]))
			die("ledger for %s has no %s", who(t), hold_parts[i].field);
		sum += part[i];
	}
	want_add(&w, t, "hold_ns");
	lo = w.v < w.late ? w.v : w.late;
	hi = w.v < w.late ? w.late : w.v;
	diag("%s: on-CPU %.1f%% + runnable %.1f%% + asleep %.1f%% = %.3f ms of its hold %.3f ms (within %.0f%%); truth hold %.3f to %.3f ms (within %.0f%%)",
	     who(t), share(part[0], hold), share(part[1], hold), share(part[2], hold),
	     sum / MS, hold / MS, tolerance, lo / MS, hi / MS, SPLIT_HOLD_TOLERANCE);
	return hi && hold && sum >= hold * (1 - tolerance / 100) &&
	       hold >= lo * (1 - SPLIT_HOLD_TOLERANCE / 100) &&
	       hold <= hi * (1 + SPLIT_HOLD_TOLERANCE / 100);
}

static void check_split(const char *role)
{
	unsigned int i, n = 0, bad = 0;
	char check[96];

	for (i = 0; i < truth.n; i++) {
		const struct record *t = &truth.r[i], *l;

		if (!is(t, "task") || !field_is(t, "role", role))
			continue;
		n++;
		l = ledger_task(pid_of(t, "pid"));
		if (!l) {
			diag("%s: not in the ledger", who(t));
			bad++;
		} else if (!split_ok(t, l)) {
			bad++;
		}
	}
	if (!n)
		die("no truth task has role %s", role);
	snprintf(check, sizeof(check), "%s hold split", role);
	stat_tap(!bad, check, "%u of %u off by more than %.0f%%", bad, n, tolerance);
}

/*
 * --pairs: for each task that waited at least 5 ms, three quarters of it on
 * one holder, the ledger must name the same holder as the main source of
 * that task's waiting. Smaller or evenly spread waiting is left alone: a
 * few microseconds of measurement difference could swap its top holder.
 */
static long top_holder(const struct doc *d, long victim, uint64_t *top,
		       uint64_t *total)
{
	unsigned int i;
	long holder = 0;

	*top = *total = 0;
	for (i = 0; i < d->n; i++) {
		const struct record *p = &d->r[i];
		uint64_t b = u64(p, "blame_ns");

		if (!is(p, "pair") || pid_of(p, "victim") != victim)
			continue;
		*total += b;
		if (b > *top) {
			*top = b;
			holder = pid_of(p, "holder");
		}
	}
	return holder;
}

/*
 * --pairs: every task that waited mostly on one holder in the truth has that
 * holder as its main one in the ledger. --pairs-of ROLE: only ROLE's tasks
 * (a herd fills the pair table, which rightly drops the smallest pairs,
 * such as a culprit's own brief waits).
 */
static void check_pairs(const char *role)
{
	unsigned int i, n = 0, bad = 0;
	uint64_t top, total, ltop, ltotal;
	char check[64];
	long want, got;

	for (i = 0; i < truth.n; i++) {
		const struct record *t = &truth.r[i];
		long pid = pid_of(t, "pid");

		if (!is(t, "task") || (role && !field_is(t, "role", role)))
			continue;
		want = top_holder(&truth, pid, &top, &total);
		if (total < 5 * MS || 4 * top < 3 * total)
			continue;
		n++;
		got = top_holder(&ledger, pid, &ltop, &ltotal);
		diag("%s waited mostly on pid %ld (%.3f of %.3f ms); ledger says pid %ld (%.3f of %.3f ms)",
		     who(t), want, top / MS, total / MS, got, ltop / MS,
		     ltotal / MS);
		if (got != want)
			bad++;
	}
	snprintf(check, sizeof(check), "pairs%s%s", role ? " of " : "",
		 role ? role : "");
	tap(n && !bad, check,
	    "%u of %u assessed victims blame the wrong holder", bad, n);
}

/* --lock CLASS[=N]: contended locks of a class (exactly N of them). */
static void check_lock(const char *spec)
{
	char class[32], check[64];
	unsigned int i, n = 0;
	int want = -1;
	const char *eq = strchr(spec, '=');

	snprintf(class, sizeof(class), "%.*s",
		 eq ? (int)(eq - spec) : (int)strlen(spec), spec);
	if (eq)
		want = atoi(eq + 1);
	snprintf(check, sizeof(check), "lock %s", spec);
	for (i = 0; i < ledger.n; i++) {
		const struct record *r = &ledger.r[i];

		if (!is(r, "lock") || !field_is(r, "class", class) ||
		    !u64(r, "acq"))
			continue;
		n++;
		diag("lock %s: acq %" PRIu64 " wait %.3f ms hold %.3f ms blame %.3f ms unattributed %.3f ms",
		     get(r, "id"), u64(r, "acq"), u64(r, "wait_ns") / MS,
		     u64(r, "hold_ns") / MS, u64(r, "blame_ns") / MS,
		     u64(r, "unattributed_ns") / MS);
	}
	if (want >= 0)
		tap(n == (unsigned int)want, check,
		    "%u contended %s locks, expected %d", n, class, want);
	else
		tap(n > 0, check, "no contended %s lock", class);
}

/*
 * --cross-process: one lock, several processes: the ledger charges a holder
 * in one process for a waiter in another.
 */
static void check_cross_process(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < ledger.n; i++) {
		const struct record *p = &ledger.r[i], *h, *v;

		if (!is(p, "pair") || !u64(p, "blame_ns"))
			continue;
		h = truth_task(pid_of(p, "holder"));
		v = truth_task(pid_of(p, "victim"));
		if (h && v && pid_of(h, "tgid") != pid_of(v, "tgid"))
			n++;
	}
	tap(n > 0, "cross-process",
	    "no holder is charged for a waiter in another process");
}

/*
 * The truth's waiting on CLASS locks while nobody held them (handoffs: from
 * a release to the woken waiter's return), the larger of the two ends of a
 * release's range. 0 if the truth has no such lock (kernel-lock workloads).
 */
static uint64_t truth_gap(const char *class)
{
	uint64_t gap = 0, g, late;
	unsigned int i;

	for (i = 0; i < truth.n; i++) {
		const struct record *r = &truth.r[i];

		if (!is(r, "lock") || !field_is(r, "class", class) || !get_u64(r, "gap_ns", &g))
			continue;
		if (get_u64(r, "gap_ns_late", &late) && late > g)
			g = late;
		gap += g;
	}
	return gap;
}

/*
 * --attributed CLASS: waiting on the class's locks has a known holder, but
 * for the time the truth says nobody held them, and the tolerance.
 */
static void check_attributed(const char *class)
{
	uint64_t wait = 0, unknown = 0, gap = truth_gap(class);
	char check[64];
	unsigned int i;

	for (i = 0; i < ledger.n; i++) {
		const struct record *r = &ledger.r[i];

		if (!is(r, "lock") || !field_is(r, "class", class))
			continue;
		wait += u64(r, "wait_ns");
		unknown += u64(r, "unattributed_ns") + u64(r, "pending_ns");
	}
	snprintf(check, sizeof(check), "attributed %s", class);
	diag("%s locks: %.3f ms of %.3f ms waiting has no known holder; the truth's lock was free for %.3f ms of it",
	     class, unknown / MS, wait / MS, gap / MS);
	stat_tap(wait && unknown <= gap + wait * tolerance / 100, check,
		 "%.3f of %.3f ms waiting has no known holder, %.3f ms free in truth",
		 unknown / MS, wait / MS, gap / MS);
}

/*
 * --blamed ROLE: a task of the role is among the causes: it inflicted
 * waiting on a named victim and is not judged a mere victim.
 */
static void check_blamed(const char *role)
{
	unsigned int i, n = 0, good = 0;
	char check[64];

	for (i = 0; i < truth.n; i++) {
		const struct record *t = &truth.r[i], *l;
		long pid = pid_of(t, "pid");
		bool holder = false;
		unsigned int j;

		if (!is(t, "task") || !field_is(t, "role", role))
			continue;
		n++;
		l = ledger_task(pid);
		for (j = 0; j < ledger.n; j++)
			holder |= is(&ledger.r[j], "pair") &&
				  pid_of(&ledger.r[j], "holder") == pid &&
				  u64(&ledger.r[j], "blame_ns");
		diag("%s: blame %.3f ms wait %.3f ms verdict %s%s", who(t),
		     u64(l, "blame_ns") / MS, u64(l, "wait_ns") / MS,
		     l && get(l, "verdict") ? get(l, "verdict") : "(absent)",
		     holder ? "" : ", holder in no pair");
		if (holder && u64(l, "blame_ns") &&
		    (field_is(l, "verdict", "cause") ||
		     field_is(l, "verdict", "shared")))
			good++;
	}
	if (!n)
		die("no truth task has role %s", role);
	snprintf(check, sizeof(check), "blamed %s", role);
	tap(good > 0, check, "no %s is among the causes", role);
}

/* None of the workloads deadlocks: the ledger must not report a cycle. */
static void check_no_deadlock(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < ledger.n; i++)
		if (is(&ledger.r[i], "deadlock")) {
			diag("deadlock tasks=%s locks=%s", get(&ledger.r[i], "tasks"),
			     get(&ledger.r[i], "locks"));
			n++;
		}
	tap(!n, "no deadlock", "%u deadlock records, the workload has none", n);
}

/* --root-cause ROLE: the task with the most root blame is the role's. */
static void check_root_cause(const char *role)
{
	const struct record *want = NULL, *top = NULL;
	unsigned int i;
	char check[64];

	for (i = 0; i < truth.n; i++)
		if (is(&truth.r[i], "task") &&
		    field_is(&truth.r[i], "role", role)) {
			if (want)
				die("--root-cause %s: more than one such task",
				    role);
			want = &truth.r[i];
		}
	if (!want)
		die("no truth task has role %s", role);
	for (i = 0; i < ledger.n; i++)
		if (is(&ledger.r[i], "task") &&
		    (!top || u64(&ledger.r[i], "root_blame_ns") >
			     u64(top, "root_blame_ns")))
			top = &ledger.r[i];
	diag("most root blame: pid %ld (%.3f ms); %s has %.3f ms, truth %.3f ms",
	     pid_of(top, "pid"), u64(top, "root_blame_ns") / MS, who(want),
	     u64(ledger_task(pid_of(want, "pid")), "root_blame_ns") / MS,
	     u64(want, "root_blame_ns") / MS);
	snprintf(check, sizeof(check), "root-cause %s", role);
	tap(top && u64(top, "root_blame_ns") &&
	    pid_of(top, "pid") == pid_of(want, "pid"), check,
	    "the most root blame goes to pid %ld", pid_of(top, "pid"));
}

/*
 * --chain-root ROLE: the blame that flowed to the ROLE task past blocked
 * holders (the ledger's chain records with root=it) is the truth's root
 * blame, which counts exactly that, within the tolerance of its range with
 * its twins (truth_range: the kernel cannot follow a chain past a hold
 * taken on the fast path during a handoff).
 */
static void check_chain_root(const char *role)
{
	const struct record *want = NULL;
	uint64_t got = 0, lo, hi;
	unsigned int i;
	char check[64];

	for (i = 0; i < truth.n; i++)
		if (is(&truth.r[i], "task") && field_is(&truth.r[i], "role", role))
			want = &truth.r[i];
	if (!want)
		die("no truth task has role %s", role);
	for (i = 0; i < ledger.n; i++)
		if (is(&ledger.r[i], "chain") &&
		    pid_of(&ledger.r[i], "root") == pid_of(want, "pid"))
			got += u64(&ledger.r[i], "blame_ns");
	truth_range(want, "root_blame_ns", &lo, &hi);
	diag("%s: blame through chains %.3f ms, truth %.3f ms (%.3f to %.3f ms with its twins)",
	     who(want), got / MS, u64(want, "root_blame_ns") / MS, lo / MS, hi / MS);
	snprintf(check, sizeof(check), "chain-root %s", role);
	stat_tap(hi && got >= lo * (1 - tolerance / 100) && got <= hi * (1 + tolerance / 100),
		 check, "off by more than %.0f%%", tolerance);
}

/*
 * --self: the truth alone is consistent and as clear-cut as its design
 * claims, so that a ledger disagreeing with it is the ledger's fault.
 */
static bool clear_cut(const struct record *t)
{
	const char *expect = get(t, "expect");
	uint64_t wait = u64(t, "wait_ns"), blame = u64(t, "blame_ns");
	unsigned int set = verdict_bits(expect);
	bool ok = false;

	if (!expect)
		return true;
	/* The verdict weighs the blame kept: a chain's middle passes its own on. */
	get_u64(t, "kept_ns", &blame);
	if (set & V_CAUSE)
		ok |= blame && blame >= 2 * wait;
	if (set & V_VICTIM)
		ok |= wait && wait >= 2 * blame;
	if (set & V_SHARED)
		ok |= wait && blame && wait <= 2 * blame && blame <= 2 * wait;
	return ok;
}

static void check_self(void)
{
	uint64_t lock_wait = 0, lock_blame = 0, task_wait = 0, task_blame = 0;
	uint64_t pair_blame = 0;
	unsigned int i, tasks = 0, bad = 0, unbalanced = 0;

	for (i = 0; i < truth.n; i++) {
		const struct record *r = &truth.r[i];

		if (is(r, "lock")) {
			lock_wait += u64(r, "wait_ns");
			lock_blame += u64(r, "blame_ns");
			if (u64(r, "wait_ns") != u64(r, "blame_ns") +
						 u64(r, "gap_ns"))
				unbalanced++;
		} else if (is(r, "pair")) {
			pair_blame += u64(r, "blame_ns");
		} else if (is(r, "task")) {
			bool locks = get(r, "wait_ns");

			tasks++;
			task_wait += u64(r, "wait_ns");
			task_blame += u64(r, "blame_ns");
			if (pid_of(r, "pid") <= 0 || pid_of(r, "tgid") <= 0 ||
			    !get(r, "comm") || (locks ? !clear_cut(r) :
						!u64(r, "ops"))) {
				diag("%s: wait %.3f ms blame %.3f ms hold %.3f of %.3f ms ops %" PRIu64 ", expect %s",
				     who(r), u64(r, "wait_ns") / MS,
				     u64(r, "blame_ns") / MS,
				     u64(r, "hold_ns") / MS,
				     u64(r, "hold_total_ns") / MS,
				     u64(r, "ops"), get(r, "expect") ?
				     get(r, "expect") : "-");
				bad++;
			}
		}
	}
	tap(tasks && !bad, "truth tasks",
	    "%u of %u task(s) not as the design claims", bad, tasks);
	diag("locks: wait %" PRIu64 " blame %" PRIu64 "; tasks: wait %" PRIu64 " blame %" PRIu64 "; pairs: blame %" PRIu64,
	     lock_wait, lock_blame, task_wait, task_blame, pair_blame);
	tap(!unbalanced && lock_wait == task_wait && lock_blame == task_blame &&
	    lock_blame == pair_blame, "truth conservation",
	    "%u lock(s) with wait != blame + gap, or lock, task and pair sums differ",
	    unbalanced);
}

/*
 * --idle ROLE: the role's tasks only ever waited for events (a pool parked
 * in a condvar): none keeps blame above 1% of all lock waiting in the truth
 * (no cause that matters), and their lock wait and blame together stay
 * within PCT of it. Not zero: a woken worker that finds the condvar's mutex
 * taken really waits for it, briefly, inside pthread_cond_wait where its
 * truth cannot time it, and the worker holding it is then its cause.
 */
static void check_idle(const char *role)
{
	uint64_t total = 0, wait = 0, blame = 0, event = 0;
	unsigned int i, n = 0, seen = 0, causes = 0;
	char check[64];

	for (i = 0; i < truth.n; i++)
		if (is(&truth.r[i], "task"))
			total += u64(&truth.r[i], "wait_ns");
	for (i = 0; i < truth.n; i++) {
		const struct record *t = &truth.r[i], *l;

		if (!is(t, "task") || !field_is(t, "role", role))
			continue;
		n++;
		l = ledger_task(pid_of(t, "pid"));
		if (!l)
			continue;
		seen++;
		wait += u64(l, "wait_ns");
		blame += u64(l, "blame_ns");
		event += u64(l, "event_wait_ns");
		if (field_is(l, "verdict", "cause") && u64(l, "root_blame_ns") * 100 > total) {
			causes++;
			diag("%s: judged a cause: blame %.3f ms wait %.3f ms",
			     who(t), u64(l, "blame_ns") / MS,
			     u64(l, "wait_ns") / MS);
		}
	}
	if (!n)
		die("no truth task has role %s", role);
	diag("%u %s task(s), %u in the ledger: lock wait %.3f ms, blame %.3f ms, event wait %.3f ms; truth lock wait %.3f ms",
	     n, role, seen, wait / MS, blame / MS, event / MS, total / MS);
	snprintf(check, sizeof(check), "idle %s", role);
	/* A cause among them is exact; their share of the waiting is not. */
	if (causes)
		tap(false, check, "%u judged cause(s); lock wait + blame %.3f ms of %.3f ms",
		    causes, (wait + blame) / MS, total / MS);
	else
		stat_tap((wait + blame) * 100.0 <= tolerance * total, check,
			 "lock wait + blame %.3f ms over %.0f%% of %.3f ms",
			 (wait + blame) / MS, tolerance, total / MS);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: lb-check --truth FILE [--ledger FILE] [--name NAME] [--tolerance PCT] CHECK...\n"
		"Prints one TAP line per check; exits 1 if any fails, 2 on bad input.\n"
		"With --ledger, ledger/identity/conservation always run, then:\n"
		"  --verdicts               tasks with expect= have that verdict\n"
		"  --compare ROLE:F[,F...]  each ROLE task's ledger field F within PCT of truth\n"
		"                           (F: wait_ns hold_ns blame_ns root_blame_ns\n"
		"                           hold_on_cpu_ns hold_runnable_ns hold_sleeping_ns,\n"
		"                           the last three as shares of hold_ns)\n"
		"  --sum ROLE:F[,F...]      the same, summed over the ROLE tasks\n"
		"  --split ROLE             each ROLE task's hold split on CPU + runnable +\n"
		"                           asleep adds up to the truth's hold within PCT\n"
		"  --pairs                  each victim's main holder matches the truth\n"
		"  --pairs-of ROLE          the same for the ROLE tasks only\n"
		"  --lock CLASS[=N]         contended CLASS locks exist (exactly N)\n"
		"  --cross-process          a holder is charged for a waiter in another process\n"
		"  --attributed CLASS       at most PCT of CLASS waiting has no known holder\n"
		"  --blamed ROLE            a ROLE task is among the causes\n"
		"  --root-cause ROLE        the ROLE task has the most root_blame_ns\n"
		"  --chain-root ROLE        blame reaching ROLE through chains matches its truth\n"
		"  --idle ROLE              ROLE tasks are no cause, and their lock wait and\n"
		"                           blame stay within PCT of the truth's lock wait\n"
		"Without --ledger:\n"
		"  --self                   the truth is consistent and as clear-cut as designed\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "truth", required_argument, NULL, 't' },
		{ "ledger", required_argument, NULL, 'l' },
		{ "name", required_argument, NULL, 'n' },
		{ "tolerance", required_argument, NULL, 'T' },
		{ "verdicts", no_argument, NULL, CK_VERDICTS + 256 },
		{ "compare", required_argument, NULL, CK_COMPARE + 256 },
		{ "sum", required_argument, NULL, CK_SUM + 256 },
		{ "pairs", no_argument, NULL, CK_PAIRS + 256 },
		{ "pairs-of", required_argument, NULL, CK_PAIRS_OF + 256 },
		{ "lock", required_argument, NULL, CK_LOCK + 256 },
		{ "cross-process", no_argument, NULL, CK_CROSS_PROCESS + 256 },
		{ "attributed", required_argument, NULL, CK_ATTRIBUTED + 256 },
		{ "blamed", required_argument, NULL, CK_BLAMED + 256 },
		{ "root-cause", required_argument, NULL, CK_ROOT_CAUSE + 256 },
		{ "chain-root", required_argument, NULL, CK_CHAIN_ROOT + 256 },
		{ "self", no_argument, NULL, CK_SELF + 256 },
		{ "idle", required_argument, NULL, CK_IDLE + 256 },
		{ "split", required_argument, NULL, CK_SPLIT + 256 },
		{ NULL, 0, NULL, 0 },
	};
	const char *truth_path = NULL, *ledger_path = NULL;
	struct check checks[MAX_CHECKS];
	unsigned int nchecks = 0, i;
	bool self = false;
	char *end;
	int opt;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 't':
			truth_path = optarg;
			break;
		case 'l':
			ledger_path = optarg;
			break;
		case 'n':
			name = optarg;
			break;
		case 'T':
			tolerance = strtod(optarg, &end);
			if (*end || tolerance < 0)
				usage();
			break;
		default:
			if (opt < 256 || nchecks == MAX_CHECKS)
				usage();
			self |= opt == CK_SELF + 256;
			checks[nchecks++] = (struct check){ opt - 256, optarg };
		}
	}
	if (optind != argc || !truth_path || !nchecks ||
	    (!ledger_path && !(self && nchecks == 1)))
		usage();

	load_truth(truth_path);
	if (!name) {
		for (i = 0; i < truth.n && !name; i++)
			if (is(&truth.r[i], "run"))
				name = get(&truth.r[i], "workload");
		if (!name)
			name = "lb-check";
	}
	if (ledger_path) {
		load_ledger(ledger_path);
		tap(true, "ledger", "unreadable");
		check_conservation();
		check_identity();
		check_no_deadlock();
	}

	for (i = 0; i < nchecks; i++) {
		const char *arg = checks[i].arg;

		switch (checks[i].kind) {
		case CK_VERDICTS:
			check_verdicts();
			break;
		case CK_COMPARE:
			check_compare(arg, false);
			break;
		case CK_SUM:
			check_compare(arg, true);
			break;
		case CK_PAIRS:
			check_pairs(NULL);
			break;
		case CK_PAIRS_OF:
			check_pairs(arg);
			break;
		case CK_LOCK:
			check_lock(arg);
			break;
		case CK_CROSS_PROCESS:
			check_cross_process();
			break;
		case CK_ATTRIBUTED:
			check_attributed(arg);
			break;
		case CK_BLAMED:
			check_blamed(arg);
			break;
		case CK_ROOT_CAUSE:
			check_root_cause(arg);
			break;
		case CK_CHAIN_ROOT:
			check_chain_root(arg);
			break;
		case CK_SELF:
			check_self();
			break;
		case CK_IDLE:
			check_idle(arg);
			break;
		case CK_SPLIT:
			check_split(arg);
			break;
		}
	}
	return failures ? 1 : 0;
}
