// SPDX-License-Identifier: GPL-2.0
/*
 * lb-kinds-check: holds one futex-kinds case (the kind-case and kind-waiter
 * lines of tools/workloads/kinds) against lockblame's ledger. Each thread
 * that truly blocked is classified by where the ledger put its time:
 *
 *   LOCK    ledger wait_ns >= event_wait_ns
 *   EVENT   event_wait_ns > wait_ns
 *   UNSEEN  both under 10% of the thread's own measured wait (or absent)
 *
 * and the case goes to the class that holds more than half of its waiting,
 * summed by the truth's clocks. It passes when that is the method's
 * prediction for the case (--predict), whatever the truth: the point is to
 * see where the module does what the method says, and to show beside it
 * where the method is wrong. Weighing by time, not by threads: in a
 * two-party barrier one thread can arrive last nearly every round, block
 * for a fraction of a millisecond in all and never sleep in the kernel;
 * counted as one vote of two, it made the case "mixed" (5.10, 2026-12-05:
 * 11.09 ms seen as event, 0.17 ms unseen). Prints a TAP line, and with
 * --row a row of the confusion table appended to a file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WAITERS	64
#define MS		1e6

enum kind_class { KC_LOCK, KC_EVENT, KC_UNSEEN, KC_NR };

static const char *const class_names[KC_NR] = { "lock", "event", "unseen" };

struct waiter {
	long pid;
	uint64_t truth_ns;
	bool seen;
	uint64_t wait_ns, event_ns;	/* the ledger's */
	enum kind_class class;
};

struct kind_case {
	char runtime[32], prim[48], truth[16];
	unsigned int n;
	struct waiter w[MAX_WAITERS];
	char futex_kinds[8];	/* the ledger's totals, or "" */
	bool ledger_header;
};

static const char *name = "kinds";

static void die(const char *fmt, const char *arg)
{
	printf("not ok - %s: input # ", name);
	printf(fmt, arg);
	printf("\n");
	exit(2);
}

/* The value of " key=" in @line, copied to @out; false if absent. */
static bool field(const char *line, const char *key, char *out, size_t size)
{
	size_t klen = strlen(key), n;
	const char *p = line;

	while ((p = strstr(p, key))) {
		if ((p == line || p[-1] == ' ') && p[klen] == '=') {
			p += klen + 1;
			n = strcspn(p, " \t\r\n");
			if (n >= size)
				n = size - 1;
			memcpy(out, p, n);
			out[n] = '\0';
			return true;
		}
		p += klen;
	}
	return false;
}

static uint64_t field_u64(const char *line, const char *key)
{
	char buf[32];

	return field(line, key, buf, sizeof(buf)) ?
	       strtoull(buf, NULL, 10) : 0;
}

static FILE *open_or_die(const char *path)
{
	FILE *f = fopen(path, "r");

	if (!f)
		die("cannot open %s", path);
	return f;
}

static void load_truth(struct kind_case *c, const char *path)
{
	FILE *f = open_or_die(path);
	char line[512];
	struct waiter *w;

	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "kind-case ", 10)) {
			field(line, "runtime", c->runtime, sizeof(c->runtime));
			field(line, "prim", c->prim, sizeof(c->prim));
			field(line, "truth", c->truth, sizeof(c->truth));
		} else if (!strncmp(line, "kind-waiter ", 12) &&
			   c->n < MAX_WAITERS) {
			w = &c->w[c->n++];
			w->pid = (long)field_u64(line, "pid");
			w->truth_ns = field_u64(line, "wait_ns");
		}
	}
	fclose(f);
	if (!c->prim[0] || !c->truth[0])
		die("%s: no kind-case line", path);
}

static struct waiter *waiter_of(struct kind_case *c, long pid)
{
	unsigned int i;

	for (i = 0; i < c->n; i++)
		if (c->w[i].pid == pid)
			return &c->w[i];
	return NULL;
}

/* Task and evwait records by pid; all other records and keys are ignored. */
static void load_ledger(struct kind_case *c, const char *path)
{
	FILE *f = open_or_die(path);
	char line[4096];
	struct waiter *w;

	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "# lockblame ledger v", 20))
			c->ledger_header = true;
		if (!strncmp(line, "totals ", 7))
			field(line, "futex_kinds", c->futex_kinds,
			      sizeof(c->futex_kinds));
		/*
		 * A task's lock waits are on its task record; its event waits
		 * on its evwait record (a task with only event waits has no
		 * task record: event waiters stay out of the lock ledger).
		 */
		if (!strncmp(line, "task ", 5)) {
			w = waiter_of(c, (long)field_u64(line, "pid"));
			if (!w)
				continue;
			w->seen = true;
			w->wait_ns = field_u64(line, "wait_ns");
		} else if (!strncmp(line, "evwait ", 7)) {
			w = waiter_of(c, (long)field_u64(line, "pid"));
			if (!w)
				continue;
			w->seen = true;
			w->event_ns = field_u64(line, "wait_ns");
		}
	}
	fclose(f);
	if (!c->ledger_header)
		die("%s: no '# lockblame ledger v' header", path);
}

static enum kind_class classify(const struct waiter *w)
{
	uint64_t floor = w->truth_ns / 10;

	if (!w->seen || (w->wait_ns < floor && w->event_ns < floor))
		return KC_UNSEEN;
	return w->wait_ns >= w->event_ns ? KC_LOCK : KC_EVENT;
}

/*
 * The class that holds more than half of the case's waiting by the truth's
 * clocks (by threads if the truth timed none), or NULL; @count is how many
 * threads it holds, @share its per mille of the waiting.
 */
static const char *majority(const struct kind_case *c, unsigned int *count,
			    unsigned int *share)
{
	unsigned int votes[KC_NR] = { 0 }, i;
	uint64_t ns[KC_NR] = { 0 }, total = 0;

	for (i = 0; i < c->n; i++) {
		votes[c->w[i].class]++;
		ns[c->w[i].class] += c->w[i].truth_ns;
		total += c->w[i].truth_ns;
	}
	for (i = 0; i < KC_NR; i++) {
		if (total ? 2 * ns[i] > total : 2 * votes[i] > c->n) {
			*count = votes[i];
			*share = total ? (unsigned int)(ns[i] * 1000 / total) :
				 votes[i] * 1000 / c->n;
			return class_names[i];
		}
	}
	*count = 0;
	*share = 0;
	return NULL;
}

static void header(void)
{
	printf("%-30s %-5s %-9s %-10s %s\n", "runtime/prim", "truth",
	       "predicted", "classified", "waiters(lock/event/unseen)");
}

static void row(FILE *f, const struct kind_case *c, const char *predict,
		const char *got)
{
	unsigned int votes[KC_NR] = { 0 }, i;
	char label[96];

	for (i = 0; i < c->n; i++)
		votes[c->w[i].class]++;
	snprintf(label, sizeof(label), "%s/%s", c->runtime, c->prim);
	fprintf(f, "%-30s %-5s %-9s %-10s %u/%u/%u%s\n", label, c->truth,
		predict, got ? got : "mixed", votes[KC_LOCK], votes[KC_EVENT],
		votes[KC_UNSEEN],
		strcmp(c->truth, predict) ? "  (method wrong)" : "");
}

/* The rows' counts: cases by truth and classification, and the method's. */
static void summary(const char *path)
{
	static const char *const cols[] = { "lock", "event", "unseen", "mixed" };
	unsigned int m[2][4] = { { 0 } }, right = 0, agree = 0, truthful = 0;
	unsigned int cases = 0, t, k;
	char label[96], truth[16], predicted[16], got[16], line[256];
	FILE *f = open_or_die(path);

	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%95s %15s %15s %15s", label, truth, predicted,
			   got) != 4)
			continue;
		t = !strcmp(truth, "event");
		for (k = 0; k < 4 && strcmp(got, cols[k]); k++)
			;
		if (k == 4)
			continue;
		cases++;
		m[t][k]++;
		right += !strcmp(truth, predicted);
		agree += !strcmp(got, predicted);
		truthful += !strcmp(got, truth);
	}
	fclose(f);
	printf("%-12s %6s %6s %6s %6s\n", "truth \\ got", cols[0], cols[1],
	       cols[2], cols[3]);
	for (t = 0; t < 2; t++)
		printf("%-12s %6u %6u %6u %6u\n", cols[t], m[t][0], m[t][1],
		       m[t][2], m[t][3]);
	printf("%u cases: the method is right on %u; the module does what the method says on %u; the ledger tells the truth on %u\n",
	       cases, right, agree, truthful);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: lb-kinds-check --header | --summary ROWS\n"
		"       lb-kinds-check --truth FILE --ledger FILE --predict lock|event\n"
		"                      [--name NAME] [--row FILE]\n"
		"Prints one TAP line: ok when the threads classified as predicted hold\n"
		"most of the case's waiting by the truth's clocks; --row appends the\n"
		"case's confusion-table row to FILE.\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "truth", required_argument, NULL, 't' },
		{ "ledger", required_argument, NULL, 'l' },
		{ "predict", required_argument, NULL, 'p' },
		{ "name", required_argument, NULL, 'n' },
		{ "row", required_argument, NULL, 'r' },
		{ "header", no_argument, NULL, 'H' },
		{ "summary", required_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 },
	};
	const char *truth = NULL, *ledger = NULL, *predict = NULL;
	const char *rowfile = NULL, *got;
	static struct kind_case c;
	unsigned int i, count, share;
	FILE *f;
	int opt;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 't':
			truth = optarg;
			break;
		case 'l':
			ledger = optarg;
			break;
		case 'p':
			predict = optarg;
			break;
		case 'n':
			name = optarg;
			break;
		case 'r':
			rowfile = optarg;
			break;
		case 'H':
			header();
			return 0;
		case 'S':
			summary(optarg);
			return 0;
		default:
			usage();
		}
	}
	if (optind != argc || !truth || !ledger || !predict ||
	    (strcmp(predict, "lock") && strcmp(predict, "event")))
		usage();

	load_truth(&c, truth);
	load_ledger(&c, ledger);
	if (!c.n)
		die("%s: no kind-waiter line: nothing blocked", truth);
	if (strcmp(c.futex_kinds, "on"))
		printf("#   ledger totals say futex_kinds=%s\n",
		       c.futex_kinds[0] ? c.futex_kinds : "(absent)");
	for (i = 0; i < c.n; i++) {
		struct waiter *w = &c.w[i];

		w->class = classify(w);
		printf("#   pid %ld: truth %s %.3f ms; ledger lock %.3f ms, event %.3f ms%s: %s\n",
		       w->pid, c.truth, w->truth_ns / MS, w->wait_ns / MS,
		       w->event_ns / MS, w->seen ? "" : " (absent)",
		       class_names[w->class]);
	}
	got = majority(&c, &count, &share);
	if (rowfile) {
		f = fopen(rowfile, "a");
		if (!f)
			die("cannot append to %s", rowfile);
		row(f, &c, predict, got);
		fclose(f);
	}
	if (got && !strcmp(got, predict))
		printf("ok - %s: kinds\n", name);
	else
		printf("not ok - %s: kinds # predicted %s, classified %s (%u of %u waiters, %u.%u%% of the waiting)\n",
		       name, predict, got ? got : "mixed", count, c.n,
		       share / 10, share % 10);
	return got && !strcmp(got, predict) ? 0 : 1;
}
