/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Declarations shared by the lockblame reader's files: the parsed ledger,
 * the options, and one entry point per output.
 */
#ifndef LOCKBLAME_TOOL_H
#define LOCKBLAME_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <lockblame/abi.h>
#include <lockblame/ledger_format.h>

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define __printf(a, b)		__attribute__((format(printf, a, b)))
#define fallthrough		__attribute__((__fallthrough__))

#define LBT_DEFAULT_DIR		"/sys/kernel/debug/lockblame"
#define LBT_DEBUGFS		"/sys/kernel/debug"
#define LBT_CONTROL_MAX		LB_CONTROL_MAX	/* the module's control write, newline and all, is shorter */
#define LBT_COMM_MAX		64	/* decoded comm bytes kept (the kernel's are 15) */
#define LBT_WORD_MAX		16	/* class, verdict, role */

/* Exit codes: runtime trouble (module, permissions, I/O); usage or bad input. */
#define LBT_EXIT_RUNTIME	1
#define LBT_EXIT_DATA		2

/* A task name as bytes: the dump escapes it as \xNN, this is the decoded form. */
struct lbt_comm {
	unsigned char b[LBT_COMM_MAX];
	unsigned int len;
};

struct lbt_s32_list {
	int32_t *v;
	unsigned int n;
};

struct lbt_id_list {
	uint64_t *v;
	unsigned int n;
};

/* Every record starts with this: which fields the line carried, filter result. */
struct lbt_head {
	uint64_t have;		/* bit i: field i of the record's type was present */
	bool keep;		/* selected by the filters */
	unsigned int line;	/* line number in the ledger */
};

/*
 * The records of the ledger dump: the members a record type's keys
 * (include/lockblame/ledger_list.h) are parsed into, named as the keys.
 */
struct lbt_totals {
	struct lbt_head h;
	uint64_t events, wait_ns, blame_ns, pending_ns, unattributed_ns, late, unmatched;
	uint64_t evicted_locks, evicted_tasks, dropped_waiters, dropped_pairs, window_ns;
	uint64_t invalid, dropped_holders, dropped_chains, deadlocks;
	char futex_kinds[LBT_WORD_MAX];
	uint64_t futex_lock_waits, futex_counters;
	uint64_t event_wait_ns, event_waits, event_errors, event_dropped;
	uint64_t evicted_sleepers, dropped_signals, asleep;
	uint64_t outlier_ns, outliers_missed;
};

struct lbt_lock {
	struct lbt_head h;
	uint64_t id;
	char class[LBT_WORD_MAX];
	uint64_t acq, wait_ns, hold_ns, blame_ns, pending_ns, unattributed_ns;
	uint64_t wait_p50, wait_p99, wait_max, hold_p50, hold_p99, hold_max;
	uint64_t errors, waiters;
	int32_t holder;
	uint64_t util_ppm, sat_milli;
	uint64_t holders;
	int32_t probable;	/* heuristic owner (glibc __owner): never blamed */
	uint64_t holds, holds_lower_bound, holds_at_release;
	int32_t top_cause;	/* only if the ledger provides it */
	uint64_t holds_unended;	/* holds whose release was not seen */
	/* Its name (empty: unnamed); a futex's word and process (ABI 3 on). */
	int32_t tgid;
	uint64_t uaddr;
	struct lbt_comm name;
	/* Why its holders were slow, as a task's hold (ledgers of this stop on) */
	uint64_t hold_on_cpu_ns, hold_runnable_ns, hold_sleeping_ns;
	uint64_t hold_cpu_unknown_ns, hold_runnable_unknown_ns;
};

struct lbt_task {
	struct lbt_head h;
	int32_t pid, tgid;
	struct lbt_comm comm;
	uint64_t wait_ns, waits, hold_ns, hold_on_cpu_ns, holds, blame_ns, root_blame_ns;
	uint64_t errors;
	char verdict[LBT_WORD_MAX];
	uint64_t kthread, holds_lower_bound, hold_cpu_unknown_ns;
	uint64_t event_wait_ns, event_waits;	/* futex waits for an event: not contention */
	/* why the holds were slow, beside hold_on_cpu_ns (ledgers of ABI 2 on) */
	uint64_t hold_runnable_ns, hold_sleeping_ns, hold_runnable_unknown_ns;
	uint64_t holds_unended;	/* holds whose release was not seen */
	uint64_t cgroup;	/* cgroup v2 id, 0: not known (ledgers of ABI 3 on) */
};

struct lbt_process {
	struct lbt_head h;
	int32_t tgid;
	struct lbt_comm comm;
	uint64_t wait_ns, hold_ns, blame_ns, root_blame_ns;
	char verdict[LBT_WORD_MAX];
	uint64_t tasks, waits, holds, hold_on_cpu_ns, errors;
	uint64_t hold_runnable_ns;
	uint64_t cgroup;
};

struct lbt_pair {
	struct lbt_head h;
	int32_t holder, victim;
	uint64_t blame_ns;
};

struct lbt_chain {
	struct lbt_head h;
	uint64_t victim_lock;
	int32_t holder;
	uint64_t waits_on;
	int32_t root;
	uint64_t blame_ns;
};

struct lbt_deadlock {
	struct lbt_head h;
	struct lbt_s32_list tasks;
	struct lbt_id_list locks;
};

struct lbt_stackref {
	struct lbt_head h;
	int32_t pid;
	char role[LBT_WORD_MAX];
	uint32_t id;
	uint64_t ns;
};

/* One task's futex waits for an event (condvar, semaphore, join, ...): never blamed. */
struct lbt_evwait {
	struct lbt_head h;
	int32_t pid, tgid;
	struct lbt_comm comm;
	uint64_t wait_ns, waits, errors;
	int32_t waker;		/* who ended its last wait, 0 if nobody seen */
	uint64_t asleep;	/* 1 while it sleeps in one now */
};

/* Who waited for whom to signal: a waiter and the task whose wake ended its waits. */
struct lbt_signal {
	struct lbt_head h;
	int32_t waiter, waiter_tgid;
	struct lbt_comm waiter_comm;
	int32_t waker, waker_tgid;	/* 0: ended by timeout, signal or exit */
	struct lbt_comm waker_comm;
	uint64_t wait_ns, waits, max_ns;
};

/* Blame summed by the holder's and the victim's cgroups. */
struct lbt_cgroup_pair {
	struct lbt_head h;
	uint64_t holder_cgroup, victim_cgroup, blame_ns;
};

/* A worst case kept whole: a wait or a hold past the threshold. */
struct lbt_outlier {
	struct lbt_head h;
	char kind[LBT_WORD_MAX];
	uint64_t ns, ts, lock;
	char class[LBT_WORD_MAX];
	int32_t victim, victim_tgid;
	struct lbt_comm victim_comm;
	int32_t holder, holder_tgid;	/* 0: not known */
	struct lbt_comm holder_comm;
	uint32_t victim_stack, victim_ustack, holder_stack, holder_ustack;
	uint64_t on_cpu_ns, runnable_ns, sleeping_ns, unknown_ns;
	int32_t root;
	struct lbt_comm name;
};

enum lbt_kind {
	LBT_U64, LBT_U32, LBT_S32, LBT_ID, LBT_COMM, LBT_WORD, LBT_S32_LIST, LBT_ID_LIST,
	LBT_NAME,	/* decoded like a comm; "-" is no name */
};

/* One key of a record type: its name in the dump and in JSON, and where it goes. */
struct lbt_field {
	const char *key;
	enum lbt_kind kind;
	size_t off;
};

#define LB_LEDGER_RECORD(name, json, index, reader)	LBT_T_##index,
#define LB_LEDGER_KEY(rec, key, kind)
#define LB_LEDGER_END(name)
enum lbt_type_index {
#include <lockblame/ledger_list.h>
	LBT_NTYPES
};
#undef LB_LEDGER_RECORD
#undef LB_LEDGER_KEY
#undef LB_LEDGER_END

struct lbt_type {
	const char *name;	/* record type in the dump */
	const char *json;	/* its array in the JSON document */
	const struct lbt_field *fields;
	unsigned int nfields;
	size_t size;
};

extern const struct lbt_type lbt_types[LBT_NTYPES];

struct lbt_table {
	void *v;
	size_t n, cap;
};

/* One stack of the "stacks" file, frames innermost first as the file has them. */
struct lbt_stack {
	uint32_t id;
	bool user;
	char **frames;
	unsigned int n;
};

struct lbt_stacks {
	struct lbt_stack *v;
	size_t n, cap;
	bool loaded;		/* the file was there and read */
};

struct lbt_doc {
	struct lbt_table tab[LBT_NTYPES];
	struct lbt_stacks stacks;
	unsigned long bad_values;	/* values that did not parse: left out */
};

#define LBT_ROWS(doc, t)	((doc)->tab[t].n)
#define LBT_REC(doc, t, type, i) (&((type *)(doc)->tab[t].v)[i])

struct lbt_filter {
	bool pid_set, tgid_set, comm_set, lock_set;
	int32_t pid, tgid;
	struct lbt_comm comm;
	uint64_t lock;
	const char *role;	/* folded: cause or victim only */
};

enum lbt_mode {
	LBT_SUMMARY, LBT_JSON, LBT_FOLDED, LBT_DOT, LBT_EVENTS, LBT_REPORT, LBT_CONTROL,
	LBT_PROMETHEUS, LBT_BY_CGROUP, LBT_OUTLIERS, LBT_SCOPE,
};

#define LBT_MAX_CONTROL 8

struct lbt_opts {
	const char *dir;
	enum lbt_mode mode;
	unsigned int top;		/* -n */
	const char *events_path;	/* NULL: the live "events" file */
	double interval;		/* 0: one shot */
	unsigned long count;		/* samples in interval mode, 0: until killed */
	struct lbt_filter f;
	bool no_symbols;		/* --no-symbols: futexes not named from /proc */
	const char *control[LBT_MAX_CONTROL];
	unsigned int ncontrol;
	int sub_argc;			/* "scope": the words after it */
	char **sub_argv;
};

/* text.c */
int lbt_fail(int code, const char *fmt, ...) __printf(2, 3);
void lbt_warn(const char *fmt, ...) __printf(1, 2);
const char *lbt_ns(char *buf, size_t size, uint64_t ns);
#define LBT_NS_BUF 24
void lbt_comm_decode(struct lbt_comm *c, const char *s, size_t len);
const char *lbt_comm_text(char *buf, size_t size, const unsigned char *b, unsigned int len);
#define LBT_COMM_BUF (LBT_COMM_MAX * 4 + 1)
bool lbt_comm_eq(const struct lbt_comm *a, const struct lbt_comm *b);
void lbt_comm_from_bytes(struct lbt_comm *c, const char *b, size_t max);
void *lbt_grow(void *v, size_t *cap, size_t need, size_t size);

/* source.c */
char *lbt_path(const char *dir, const char *name);
int lbt_slurp(const char *dir, const char *name, bool optional, char **text, size_t *len);
int lbt_open_diag(const char *dir, const char *name, int err);
int lbt_control(const char *dir, const char *cmd);
int lbt_cat(const char *dir, const char *name);

/* parse.c */
int lbt_parse_ledger(struct lbt_doc *doc, char *text, size_t len, const char *path);
bool lbt_have(int type, const void *rec, size_t off);
const struct lbt_field *lbt_field(int type, const void *rec, const char *key);
const struct lbt_task *lbt_task_find(const struct lbt_doc *doc, int32_t pid);
const struct lbt_totals *lbt_totals(const struct lbt_doc *doc);
void lbt_doc_free(struct lbt_doc *doc);
int lbt_load(const struct lbt_opts *o, struct lbt_doc *doc, bool want_stacks);

/* symbolize.c */
bool lbt_symbolize_maps(const char *maps_path, const char *exe, uint64_t uaddr, char *buf,
			size_t size);
bool lbt_symbolize(int32_t tgid, const struct lbt_comm *comm, uint64_t uaddr, char *buf,
		   size_t size);
void lbt_names_resolve(struct lbt_doc *doc, bool off);
const struct lbt_lock *lbt_lock_find(const struct lbt_doc *doc, uint64_t id);
const char *lbt_name_text(char *buf, size_t size, const struct lbt_comm *name);

/* stackfile.c */
int lbt_parse_stacks(struct lbt_stacks *s, char *text, size_t len, const char *path);
const struct lbt_stack *lbt_stack_find(const struct lbt_stacks *s, uint32_t id);
void lbt_stacks_free(struct lbt_stacks *s);

/* filter.c */
bool lbt_filter_active(const struct lbt_filter *f);
bool lbt_filter_tasks(const struct lbt_filter *f);
void lbt_filter_apply(const struct lbt_filter *f, struct lbt_doc *doc);
bool lbt_pid_kept(const struct lbt_doc *doc, const struct lbt_filter *f, int32_t pid);
bool lbt_filter_event_id(const struct lbt_filter *f, int32_t pid, int32_t tgid,
			 const struct lbt_comm *comm);

/* probes.c */
void lbt_probes_note(const char *dir, FILE *out);

/* cgroup.c */
const char *lbt_cgroup_name(char *buf, size_t size, uint64_t id);
/* A cgroup's tasks summed (lbt_cgroup_sums). */
struct lbt_cgroup_sum {
	uint64_t id, tasks, blame_ns, wait_ns, hold_ns;
};

struct lbt_cgroup_sum *lbt_cgroup_sums(const struct lbt_doc *doc, size_t *n);
bool lbt_inode_path(uint64_t ino, const char *name, char *path, size_t size);
int lbt_cgroup_parse(const char *arg, uint64_t *id);
bool lbt_cgroup_known(const struct lbt_doc *doc);
void lbt_cgroup_pairs(const struct lbt_opts *o, const struct lbt_doc *doc, FILE *out);
int lbt_by_cgroup(const struct lbt_opts *o, const struct lbt_doc *doc, FILE *out);
/* outliers.c */
int lbt_outliers(const struct lbt_opts *o, const struct lbt_doc *doc, FILE *out);

/* elf.c: a function or USDT probe of an ELF file as a file offset, for a uprobe. */
enum { LBT_ELF_OK, LBT_ELF_NO_SYMBOL, LBT_ELF_BAD };

struct lbt_elf_site {
	uint64_t offset;	/* file offset of the function's entry or the probe */
	uint64_t sema;		/* USDT: the semaphore's file offset, 0: none */
	char args[128];		/* USDT: the arguments' places, "8@%rax -4@%edx" */
};

struct lbt_elf_hit {
	struct lbt_elf_site *site;	/* a function: one; a USDT probe: each site */
	size_t n, cap;
	bool usdt;
	bool minidebuginfo;	/* not found, and the file has .gnu_debugdata */
	char why[256];		/* why not LBT_ELF_OK */
};

int lbt_elf_resolve(const char *path, const char *symbol, struct lbt_elf_hit *hit);
void lbt_elf_hit_free(struct lbt_elf_hit *hit);

/*
 * usdt.c: a USDT probe pair, START's sites to DONE's, as the module's
 * "site= done= sema= donesema= [reg=]" words (reg= from START's argument
 * @argn, 0: none) in @words, and START's first site in @off; LBT_ELF_OK, or
 * why not in @why.
 */
int lbt_usdt_pair(const char *path, const char *start, const char *done, unsigned int argn,
		  uint64_t *off, char *words, size_t size, char *why, size_t wsize);

/* scope.c: "lockblame scope ...", the words after "scope". */
int lbt_scope(const struct lbt_opts *o);

/* The outputs. */
int lbt_summary(const struct lbt_opts *o, const struct lbt_doc *doc, FILE *out);
int lbt_json(const struct lbt_opts *o, const struct lbt_doc *doc, FILE *out);
void lbt_json_string(FILE *out, const unsigned char *b, size_t len);
int lbt_dot(const struct lbt_opts *o, const struct lbt_doc *doc, FILE *out);
int lbt_prometheus(const struct lbt_opts *o, const struct lbt_doc *doc, FILE *out);
int lbt_folded(const struct lbt_opts *o, const struct lbt_doc *doc, FILE *out);
int lbt_events(const struct lbt_opts *o, FILE *out);
int lbt_interval(const struct lbt_opts *o, FILE *out);

#endif /* LOCKBLAME_TOOL_H */
