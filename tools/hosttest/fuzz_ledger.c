// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target for the ledger: decodes arbitrary bytes into a ledger size and
 * an event stream, and aborts if the ledger crashes, breaks conservation or
 * prints a line it should not, or if a second ledger that applies every
 * lock's time at every event (no_defer) dumps anything else. Built for libFuzzer (clang -fsanitize=fuzzer)
 * or, with LB_FUZZ_STANDALONE, as a time-bounded random driver.
 */
#include "ledger.h"
#include "ledger_scenarios.h"

#define LB_FUZZ_LOCKS	8
#define LB_FUZZ_RECORD	12
#define LB_FUZZ_TEXT	BIT(20)

static char fuzz_text[LB_FUZZ_TEXT], fuzz_ref[LB_FUZZ_TEXT];

static void fuzz_fail(const char *what, u64 a, u64 b)
{
	fprintf(stderr, "fuzz_ledger: %s (%llu vs %llu)\n", what, a, b);
	abort();
}

static void check_invariant(const struct lb_ledger *l)
{
	struct lb_ledger_totals t;
	struct lb_lock_stats ls;
	u32 i;

	lb_ledger_totals(l, &t);
	if (t.blame_ns + t.pending_ns + t.unattributed_ns != t.wait_ns)
		fuzz_fail("wait != blame + pending + unattributed", t.wait_ns,
			  t.blame_ns + t.pending_ns + t.unattributed_ns);
	for (i = 0; i < LB_FUZZ_LOCKS; i++) {
		if (!lb_ledger_lock(l, LB_LK(i), &ls))
			continue;
		if (ls.cnt.blame_ns + ls.cnt.pending_ns + ls.cnt.unattributed_ns != ls.cnt.wait_ns)
			fuzz_fail("lock: wait != blame + pending + unattributed", ls.cnt.wait_ns,
				  ls.cnt.blame_ns + ls.cnt.pending_ns + ls.cnt.unattributed_ns);
		if (ls.wait_p50_ns > ls.wait_max_ns || ls.wait_p99_ns > ls.wait_max_ns)
			fuzz_fail("lock: percentile above max", ls.wait_p99_ns, ls.wait_max_ns);
		if (ls.util_ppm > 1000000)
			fuzz_fail("lock: utilisation above 100%", ls.util_ppm, 1000000);
	}
}

static void check_outputs(const struct lb_ledger *l)
{
	struct lb_scn_text t;
	u32 bad;

	lb_scn_text_init(&t, fuzz_text, sizeof(fuzz_text));
	lb_ledger_report(l, &t.out);
	bad = lb_scn_text_bad_line(fuzz_text, 100);
	if (bad)
		fuzz_fail("report line too wide or not printable", bad, 100);
	lb_scn_text_init(&t, fuzz_text, sizeof(fuzz_text));
	lb_ledger_dump(l, &t.out);
	bad = lb_scn_text_bad_line(fuzz_text, 1 << 16);
	if (bad)
		fuzz_fail("dump line not printable", bad, 0);
}

/* 12 bytes make one event; the ts mostly moves forward, sometimes back. */
static void decode_event(const u8 *b, u64 *ts, struct lb_event *ev)
{
	u16 dt = b[5] | b[6] << 8;

	memset(ev, 0, sizeof(*ev));
	if (b[5] & 1)
		ev->ts_ns = *ts - min_t(u64, *ts, dt % 64);
	else
		ev->ts_ns = (*ts += dt);
	/* Every type, scopes' too; now and then one out of range. */
	ev->type = b[0] == 0xff ? b[1] : LB_EV_WAIT_BEGIN + b[0] % (LB_EV_TYPE_MAX - 1);
	ev->lock = LB_LK(b[1] % LB_FUZZ_LOCKS);
	ev->lock_class = (b[1] >> 3) % (LB_LOCK_CLASS_MAX + 1);
	ev->task.pid = b[2] == 0xff ? -1 : 1 + b[2] % 16;
	ev->task.tgid = b[2] & 0x40 ? ev->task.pid : 1 + (b[2] % 16) / 4;
	ev->task.comm[0] = 'a' + b[2] % 16;
	ev->task.comm[1] = b[11];
	ev->owner.pid = b[3] % 18 - 1;
	ev->owner.tgid = b[3] & 0x80 ? 0 : 1 + (b[3] % 18) / 4;
	ev->owner.comm[0] = b[10];
	ev->owner_source = (b[3] >> 4) % (LB_OWNER_SOURCE_MAX + 1);
	ev->result = b[4] % (LB_WAIT_RESULT_MAX + 1);
	ev->flags = (b[4] >> 1) & 0x7f;
	/* A futex word, as the waiter expected it or the waker found it. */
	if (b[10] & 1) {
		ev->flags |= LB_EF_WORD;
		ev->word = b[11] % 5;
	}
	ev->count = b[7] % 4;
	ev->stack_id = (b[7] >> 4) % 4;
	ev->cpu_ns = (u64)b[8] * 1000 + b[9];
	ev->owner_cpu_ns = (u64)b[9] * 1000 + b[8];
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/* The number after each "@key=" in @text, masked as one '#'. */
static void mask_value(char *text, const char *key)
{
	char *p = text, *q;

	while ((p = strstr(p, key))) {
		p += strlen(key);
		for (q = p; *q >= '0' && *q <= '9'; q++)
			;
		*p++ = '#';
		memmove(p, q, strlen(q) + 1);
	}
}

/*
 * @text's lines, sorted in place (table order is insertion order); how
 * many. With @full pair tables, which pair or stack found room depends on
 * the order they came in: those records, their drop counts and the blame
 * the dropped pairs held are left out.
 */
static size_t sort_lines(char *text, char **line, size_t max, bool full)
{
	size_t n = 0;
	char *p;

	if (full) {
		mask_value(text, " dropped_pairs=");
		mask_value(text, " dropped_pair_ns=");
		mask_value(text, " dropped_stacks=");
	}
	for (p = strtok(text, "\n"); p && n < max; p = strtok(NULL, "\n")) {
		if (full && (!strncmp(p, "pair ", 5) || !strncmp(p, "cgroup_pair ", 12) ||
			     !strncmp(p, "stack ", 6)))
			continue;
		line[n++] = p;
	}
	qsort(line, n, sizeof(*line), cmp_line);
	return n;
}

/*
 * Both ledgers brought up to date dump the same records: the same lines,
 * in any order (a record is added to its table when first touched).
 */
static void check_same(struct lb_ledger *l, struct lb_ledger *ref)
{
	static char *a[LB_FUZZ_TEXT / 16], *b[LB_FUZZ_TEXT / 16];
	struct lb_scn_text t;
	size_t na, nb, i;
	bool full;

	lb_ledger_advance(l, 0);
	lb_ledger_advance(ref, 0);
	lb_scn_text_init(&t, fuzz_text, sizeof(fuzz_text));
	lb_ledger_dump(l, &t.out);
	lb_scn_text_init(&t, fuzz_ref, sizeof(fuzz_ref));
	lb_ledger_dump(ref, &t.out);
	if (getenv("LB_FUZZ_SHOW"))
		fprintf(stderr, "==deferred\n%s==every\n%s==end\n", fuzz_text, fuzz_ref);
	full = !strstr(fuzz_ref, " dropped_pairs=0 ") || !strstr(fuzz_ref, " dropped_stacks=0 ");
	na = sort_lines(fuzz_text, a, ARRAY_SIZE(a), full);
	nb = sort_lines(fuzz_ref, b, ARRAY_SIZE(b), full);
	for (i = 0; i < na && i < nb && !strcmp(a[i], b[i]); i++)
		;
	if (i < na || i < nb) {
		fprintf(stderr, "deferred: %s\nevery event: %s\n", i < na ? a[i] : "-",
			i < nb ? b[i] : "-");
		fuzz_fail("a ledger that defers dumps other than one that does not", i, 0);
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct lb_ledger_limits lim = { 0 };
	struct lb_ledger_opts opts;
	struct lb_ledger *l, *ref;
	struct lb_event ev;
	u64 ts = 1000;
	size_t off;

	if (size < 5)
		return 0;
	/* Small tables, so that eviction and drops happen; 0 takes defaults. */
	lim.max_locks = data[0] == 0xff ? 0 : 1 + data[0] % 6;
	lim.max_tasks = data[1] == 0xff ? 0 : 1 + data[1] % 12;
	lim.max_waiters = data[2] == 0xff ? 0 : 1 + data[2] % 10;
	lim.max_pairs = data[3] == 0xff ? 0 : 1 + data[3] % 20;
	lim.max_chain_depth = data[4] % 20;
	l = lb_ledger_create(&lim);
	ref = lb_ledger_create(&lim);
	if (!l || !ref)
		fuzz_fail("create failed", 0, 0);
	lb_ledger_opts(ref, &opts);
	opts.no_defer = true;
	lb_ledger_set_opts(ref, &opts);
	for (off = 5; off + LB_FUZZ_RECORD <= size; off += LB_FUZZ_RECORD) {
		const u8 *b = data + off;

		decode_event(b, &ts, &ev);
		lb_ledger_feed(l, &ev);
		lb_ledger_feed(ref, &ev);
		if (b[7] & 0x80) {
			lb_ledger_advance(l, ts + b[9]);
			lb_ledger_advance(ref, ts + b[9]);
			check_same(l, ref);
		}
		check_invariant(l);
		if (b[0] == 0xfe) {
			lb_ledger_reset(l);
			lb_ledger_reset(ref);
		}
	}
	check_same(l, ref);
	check_outputs(l);
	lb_ledger_destroy(l);
	lb_ledger_destroy(ref);
	return 0;
}

#ifdef LB_FUZZ_STANDALONE
#include <time.h>

/* Without libFuzzer: replay the given files, or random inputs for N seconds. */
int main(int argc, char **argv)
{
	static u8 buf[4096];
	u64 state = 0x2545f4914f6cdd1dULL;
	unsigned long runs = 0;
	time_t end;
	int i, secs = 20;

	for (i = 1; i < argc; i++) {
		FILE *f;
		size_t n;

		if (!strncmp(argv[i], "-max_total_time=", 16)) {
			secs = atoi(argv[i] + 16);
			continue;
		}
		if (argv[i][0] == '-')
			continue;
		f = fopen(argv[i], "rb");
		if (!f)
			continue;
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
		runs++;
	}
	end = time(NULL) + secs;
	while (time(NULL) < end) {
		size_t n = lb_scn_rand(&state) % sizeof(buf), j;

		for (j = 0; j < n; j++)
			buf[j] = lb_scn_rand(&state) >> 24;
		LLVMFuzzerTestOneInput(buf, n);
		runs++;
	}
	printf("fuzz_ledger: %lu runs, no failure\n", runs);
	return 0;
}
#endif
