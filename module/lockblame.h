/* SPDX-License-Identifier: GPL-2.0 */
/* Declarations shared by lockblame's stages: probes, rings, drain, interface. */
#ifndef _LOCKBLAME_H
#define _LOCKBLAME_H

/*
 * Every message says whose it is. The kernel's printk.h defines pr_fmt only
 * if nobody did; this header may come after it, so it replaces that one.
 */
#undef pr_fmt
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/types.h>
#include <linux/kprobes.h>
#include <lockblame/abi.h>
#include "compat.h"
#include "ledger.h"

struct seq_file;

/* Kbuild passes the version from the Makefile. */
#ifndef LB_VERSION
#define LB_VERSION "unknown"
#endif

/* ---- module parameters (config.c; bounds and defaults in config_list.h) ---- */
/* Bounds the ring and stack APIs enforce too; decimal, as modinfo shows them. */
#define LB_RING_EVENTS_MIN	64
#define LB_RING_EVENTS_MAX	1048576
#define LB_STACK_ENTRIES_MAX	1048576

/* The parameters, checked: one unsigned int per entry of config_list.h. */
struct lb_config {
#define LB_PARAM(name, ...) unsigned int name
#include "config_list.h"
#undef LB_PARAM
	bool stacks;			/* record stacks from the start */
};

int lb_config_check(void);
const struct lb_config *lb_config(void);
void lb_config_limits(const struct lb_config *cfg, struct lb_ledger_limits *limits);

/* ---- probe table (probes.c) ---- */
enum lb_probe_kind { LB_KPROBE, LB_KRETPROBE, LB_TRACEPOINT };

#define LB_MAX_CANDIDATES 5

/*
 * The arguments handlers read, by meaning. Where each one is passed is data
 * of the probe table: a role gives the positions for its candidates, and a
 * candidate whose function takes them elsewhere (a kernel that reordered
 * them) gives its own. Handlers never hard-code a position.
 */
enum lb_arg {
	LB_ARG_LOCK,		/* struct mutex * or struct rw_semaphore * */
	LB_ARG_UADDR,		/* futex: the word's user address */
	LB_ARG_VAL,		/* futex: the value the waiter expects */
	LB_ARG_FLAGS,		/* futex: the kernel's internal flags */
	LB_ARG_KEY,		/* futex: the union futex_key * being filled */
	LB_ARG_NR_WAKE,		/* futex: how many a wake may wake */
	LB_ARG_Q,		/* futex: the struct futex_q * */
	LB_NR_ARGS
};

/* at[a]: 1 + the position of argument a, 0 when the function has no such argument. */
struct lb_arg_layout {
	u8 at[LB_NR_ARGS];
};

#define LB_AT(name, pos)	.at[LB_ARG_##name] = (pos) + 1

struct lb_probe {
	const char *role;
	const char *candidates[LB_MAX_CANDIDATES];	/* tried in order */
	struct lb_arg_layout args;		/* where the candidates take what */
	/* a candidate's own layout where it differs from args, else NULL */
	const struct lb_arg_layout *cand_args[LB_MAX_CANDIDATES];
	enum lb_probe_kind kind;
	u8 lock_class;				/* the lock class it serves */
	bool required;
	/*
	 * A stand-in: planted only when the role it names found no symbol
	 * (an older kernel inlined it), and then that role is served.
	 */
	const char *stands_in_for;
	kprobe_pre_handler_t pre;		/* LB_KPROBE */
	kretprobe_handler_t entry;		/* LB_KRETPROBE */
	kretprobe_handler_t ret;		/* LB_KRETPROBE */
	size_t data_size;			/* LB_KRETPROBE per-instance data */
	void *tp_probe;				/* LB_TRACEPOINT: its probe function */
	/* state, filled at install */
	union {
		struct kprobe kp;
		struct kretprobe krp;
	};
	struct tracepoint *tp;			/* LB_TRACEPOINT: the one registered on */
	u8 int_candidates;			/* bit i: candidate i returns int */
	const char *attached;			/* symbol planted on, or NULL */
	const struct lb_arg_layout *layout;	/* the planted candidate's */
	bool returns_int;			/* the one planted on returns int */
	bool skipped;				/* named in skip=: never planted */
	int error;				/* 0, or why it is not planted */
	atomic64_t hits;			/* handler calls */
	atomic64_t mismatches;			/* arguments failed validation */
	atomic64_t faults;			/* misses that were faults (probe_misses.c) */
};

/* A probe family's table of roles (probe_futex.c, probe_mutex.c, probe_rwsem.c). */
struct lb_probe_family {
	struct lb_probe *table;
	unsigned int count;
};

extern const struct lb_probe_family lb_futex_family, lb_mutex_family, lb_rwsem_family;

/* Every row of every family, in order: for (i = 0; (p = lb_probe_nth(i)); i++) */
struct lb_probe *lb_probe_nth(unsigned int i);
unsigned int lb_probes_total(void);

int lb_probes_install(void);
void lb_probes_remove(void);
int lb_probe_plant(struct lb_probe *p);
void lb_probe_unplant(struct lb_probe *p);
int lb_probes_install_table(struct lb_probe *table, unsigned int n);
void lb_probes_remove_table(struct lb_probe *table, unsigned int n);
int lb_probes_selftest(void);
unsigned int lb_probes_attached(void);
void lb_probes_show(struct seq_file *m);
/* The memory the kernel allocated for the planted kretprobes' instances. */
u64 lb_kretprobe_pools_bytes(void);
void lb_kretprobe_pools_show(struct seq_file *m);
unsigned long lb_probe_missed(const struct lb_probe *p);
unsigned long lb_probe_nested(const struct lb_probe *p);
/* Misses since the last lb_probes_mark() (the window); the probes table counts since load. */
unsigned long lb_probes_missed(void);
void lb_probes_mark(void);
unsigned long lb_probes_faults(void);
struct lb_probe *lb_probe_find(const char *role);
bool lb_probe_served(const struct lb_probe *p);
int lb_probes_skip(const char *list);
u32 lb_blind_classes(void);
u32 lb_partial_classes(void);
const char *lb_lock_class_name(u8 lock_class);
void lb_classes_show(struct seq_file *m, u32 classes);

static inline struct lb_probe *lb_probe_of_kp(struct kprobe *kp)
{
	return container_of(kp, struct lb_probe, kp);
}

/*
 * The probe @ri belongs to, or NULL: on 5.11 to 5.18 unregister_kretprobes()
 * clears the instance's kretprobe while handlers may still run (the kernel's
 * own dispatcher checks for NULL too). Every caller returns early on NULL.
 */
static inline struct lb_probe *lb_probe_of_ri(struct kretprobe_instance *ri)
{
	struct kretprobe *rp = lb_kretprobe_of(ri);

	return rp ? container_of(rp, struct lb_probe, krp) : NULL;
}

/*
 * Every handler's first step: count the hit; the probe, or NULL when tracing
 * is off and the handler has nothing to do.
 */
bool lb_enabled(void);

static inline struct lb_probe *lb_probe_enter(struct lb_probe *p)
{
	atomic64_inc(&p->hits);
	return lb_enabled() ? p : NULL;
}

static inline struct lb_probe *lb_kprobe_enter(struct kprobe *kp)
{
	return lb_probe_enter(lb_probe_of_kp(kp));
}

static inline struct lb_probe *lb_kret_enter(struct kretprobe_instance *ri)
{
	struct lb_probe *p = lb_probe_of_ri(ri);

	return p ? lb_probe_enter(p) : NULL;
}

/* A hit whose argument was not what the role expects, if @p is still there. */
static inline void lb_probe_mismatch(struct lb_probe *p)
{
	if (p)
		atomic64_inc(&p->mismatches);
}

/* Argument @a of the function @p is planted on, as its layout says; 0 if none. */
static inline unsigned long lb_probe_arg(const struct lb_probe *p, struct pt_regs *regs,
					 enum lb_arg a)
{
	u8 at = p->layout ? p->layout->at[a] : 0;

	return at ? lb_arg(regs, at - 1) : 0;
}

/* Probe handlers, one file per family. */
int lb_futex_init(void);
void lb_futex_exit(void);
u64 lb_futex_bytes(void);

/* Why an event never reached its ring (ring.c counts them). */
enum lb_drop_cause {
	LB_DROP_FULL,		/* ring full: the drain fell behind */
	LB_DROP_NESTED,		/* a probe fired inside a probe on this CPU */
	LB_DROP_NOKEY,		/* futex: the key of the operation was lost */
	LB_DROP_CAUSE_MAX
};

/* ---- events (event.c): identity capture and emission ---- */
struct lb_ringset;

bool lb_enabled(void);
void lb_set_enabled(bool on);
bool lb_stacks_wanted(void);
void lb_set_stacks(bool on);
void lb_drop_locks_show(struct seq_file *m);
void lb_drop_locks_clear(void);

/* Per-instance data of every lock-wait kretprobe. */
struct lb_wait_data {
	u64 lock;		/* lock id of the wait the entry recorded */
	u8 lock_class;
	u16 flags;
	union {				/* what one family's entry keeps for its return */
		struct {		/* get_futex_key */
			unsigned long key;	/* where it writes the key */
			unsigned long uaddr;	/* the futex word's user address */
		} futex_key;
		struct {		/* futex_wait_setup */
			unsigned long uaddr;	/* the futex word's user address */
			unsigned long q;	/* the waiter's struct futex_q * */
			u32 word;		/* the value the waiter expected */
		} futex_setup;
		struct {		/* futex_wake */
			unsigned long uaddr;	/* the futex word's user address */
			bool shared;		/* not FUTEX_PRIVATE_FLAG: keyed by the kernel */
			bool many;		/* more than one waiter asked to wake */
			bool word_read;		/* @word could be read */
			u32 word;		/* the word as the waker left it */
		} futex_wake;
		unsigned long futex_q;	/* futex_wait_queue_me: the waiter's futex_q */
	};
	u64 begin_ns;		/* when the entry handler ran */
	u32 stack_id, ustack_id;	/* stacks taken at entry, for the return */
};

u64 lb_lock_id(const void *lock);
bool lb_own_lock(const void *lock);
u64 lb_lock_id3(u64 a, u64 b, u64 c);
void lb_task_id_fill(struct lb_task_id *id, struct task_struct *t);
struct tracepoint *lb_tracepoint_find(const char *name);
bool lb_owner_fill(struct lb_event *ev, struct task_struct *owner, u8 source);
struct lb_event *lb_event_begin(u8 type, u8 lock_class, u64 lock);
void lb_event_commit(struct lb_event *ev, struct lb_probe *p);
void lb_event_stacks(struct lb_probe *p, bool user, u32 *kstack, u32 *ustack);
int lb_probe_read_user(struct lb_probe *p, void *dst, const void __user *src, size_t n);
void lb_event_drop(enum lb_drop_cause cause);
void lb_event_init(struct lb_ringset *rings, bool stacks);

/* ---- per-CPU rings (ring.c) ---- */
struct lb_ring_counts {
	u64 generated;		/* events the probes tried to record */
	u64 recorded;		/* events committed to the ring */
	u64 dropped[LB_DROP_CAUSE_MAX];
	u64 by_type[LB_EV_TYPE_MAX];
	u64 identities;		/* task identities written to the ring beside them */
	u64 fill;		/* events in the ring now */
};

struct lb_ringset *lb_ringset_create(unsigned int events_per_cpu, void (*filling)(bool urgent));
void lb_ringset_destroy(struct lb_ringset *set);
struct lb_event *lb_ring_reserve(struct lb_ringset *set);
bool lb_ring_commit(struct lb_ringset *set, struct lb_event *ev);
void lb_ring_drop(struct lb_ringset *set, enum lb_drop_cause cause);
unsigned int lb_ring_avail(struct lb_ringset *set, int cpu);
const struct lb_event *lb_ring_next(struct lb_ringset *set, int cpu, unsigned int *i,
				    unsigned int avail);
void lb_ring_release(struct lb_ringset *set, int cpu, unsigned int n);
void lb_ring_consume(struct lb_ringset *set, int cpu, unsigned int n);
void lb_ring_counts(struct lb_ringset *set, int cpu, struct lb_ring_counts *c);
void lb_rings_mark(struct lb_ringset *set);
u64 lb_ring_dropped(const struct lb_ring_counts *c);
void lb_rings_sum(struct lb_ringset *set, struct lb_ring_counts *sum);
u64 lb_rings_bytes(struct lb_ringset *set);
void lb_rings_show(struct lb_ringset *set, struct seq_file *m);

/* ---- lock names (names.c: the table; lock_names.c: naming in probes) ---- */
int lb_names_alloc(void);
void lb_names_free(void);
u64 lb_names_bytes(void);
/* Capacity of the names table: name ids are 1..LB_LOCK_NAMES_MAX. */
#define LB_LOCK_NAMES_MAX	1024
/* How a naming ended, for its cost in "names". */
enum lb_named {
	LB_NAMED_NONE, LB_NAMED_MMAP, LB_NAMED_STATIC, LB_NAMED_FILE,
	LB_NAMED_CACHED,	/* a static lock named before */
	LB_NAMED_MAX
};

void lb_names_cost(enum lb_named how, u64 ns);
u32 lb_name_intern(const char *s);
const char *lb_name_of(u32 id);
void lb_names_show(struct seq_file *m);
void lb_name_kernel_lock(struct lb_event *ev, const void *lock, struct task_struct *owner);

/* ---- stacks (stacks.c) ---- */
void lb_stacks_init(unsigned int entries);
int lb_stacks_alloc(void);
void lb_stacks_free(void);
u32 lb_stack_kernel(unsigned long probe_addr);
u32 lb_stack_user(struct lb_probe *p);
void lb_stacks_show(struct seq_file *m);
void lb_stacks_freeze(void);
void lb_stacks_clear_thaw(void);
u64 lb_stacks_bytes(void);

/* ---- drain and ledger ownership (drain.c) ---- */
/* What "control" may filter on: the waiter's or the lock owner's identity. */
struct lb_filter {
	s32 tgid;		/* 0: any */
	char comm[LB_COMM_LEN];	/* "": any */
	u64 cgroup;		/* cgroup v2 id; 0: any */
};

int lb_drain_init(struct lb_ringset *rings, const struct lb_config *cfg);
void lb_drain_start(void);
void lb_drain_periodic(void);
int lb_drain_threads_init(const struct lb_config *cfg);
void lb_drain_threads_exit(void);
const char *lb_drain_where(void);
u64 lb_drain_kicks(void);
void lb_drain_waits(u64 *kick_wait, u64 *rescue_wait, u64 *rescue_run);
u64 lb_drain_rescues(void);
const char *lb_drain_rescuer(void);
void lb_drain_exit(void);
void lb_drain_now(void);
void lb_drain_kick(bool urgent);
void lb_drain_lock(void);
void lb_drain_unlock(void);
struct lb_ledger *lb_drain_ledger(void);
void lb_drain_reset(void);
void lb_drain_set_opts(const struct lb_ledger_opts *o);
void lb_drain_opts(struct lb_ledger_opts *o);
u64 lb_drain_start_ns(void);
void lb_drain_set_filter(const struct lb_filter *f);
void lb_drain_filter(struct lb_filter *f);
u64 lb_filter_bytes(void);
/* drain_filter.c: which waits the ledger sees (the drain lock held) */
void lb_filter_begin(struct lb_filter *f);
bool lb_filter_admit(const struct lb_filter *f, const struct lb_event *ev);
void lb_filter_clear(void);
u64 lb_filter_evicted(void);
void lb_filter_evicted_clear(void);
void lb_filter_show(struct seq_file *m);
int lb_filter_init(u32 max_waiters);
void lb_filter_exit(void);
void lb_drain_show(struct seq_file *m);
/* A test may watch every drained event; called under the drain mutex. */
typedef void (*lb_drain_tap_t)(const struct lb_event *ev, void *priv);
void lb_drain_set_tap(lb_drain_tap_t tap, void *priv);

/* Events lost before the ledger, by cause; total 0 means the data is exact. */
struct lb_loss {
	u64 ring[LB_DROP_CAUSE_MAX];	/* ring drops: full, nested, nokey */
	u64 kretprobe_missed;		/* waits whose return was never seen */
	u64 filter_evicted;		/* waits or locks the filter tables evicted */
	u64 ledger_dropped;		/* records the ledger's tables had no room for */
	u64 total;
};

u64 lb_loss_get(struct lb_loss *loss);
bool lb_data_exact(void);

/* ---- the binary stream, debugfs "events" (stream.c) ---- */
void lb_stream_init(unsigned int events, void (*catch_up)(void));
void lb_stream_exit(void);
void lb_stream_push(const struct lb_event *ev);
void lb_stream_discard(u64 start_ns);
u64 lb_stream_bytes(void);
void lb_stream_show(struct seq_file *m);
extern const struct file_operations lb_stream_fops;

/* ---- control (control.c): parses commands for the stages that own them ---- */
int lb_control_exec(char *cmd);
/* ---- scopes (scopes.c): runtime locks, by the function that takes them ---- */
#define LB_SCOPE_NAME_LEN	24
#define LB_SCOPE_PATH_LEN	256
#define LB_SCOPE_DEREF_MAX	16	/* bytes of a key read through an argument */
#define LB_SCOPE_DEREF_OFF_MAX	4095

#define LB_SCOPE_SITES		4	/* a probe pair's start sites, and its done sites */

/*
 * What a "scope add" line asks for (scopes_parse.c); strings point into the
 * line. A probe pair (USDT: "done="): the wait starts at offset and the
 * start[] sites, and ends at the done[] sites; sema and donesema are the
 * probes' semaphores (0: none); the lock is reg_size bytes of the register
 * at reg_off in struct pt_regs, where reg_size is not 0.
 */
struct lb_scope_args {
	char *path;
	loff_t offset;
	u8 arg;
	bool shared;
	bool span;
	u16 deref_off;
	u8 deref_len;
	bool release;
	loff_t rel_offset;
	u8 relarg;
	u8 nr_start, nr_done;
	loff_t start[LB_SCOPE_SITES], done[LB_SCOPE_SITES];
	loff_t sema, donesema;
	u16 reg_off;
	u8 reg_size;
	const char *reg;	/* its name, for "scopes" */
	const char *name;
};

int lb_scope_parse(char *args, struct lb_scope_args *a, const char **err);
int lb_scope_control(char *args, const char **err);
void lb_scopes_clear(void);
void lb_scopes_show(struct seq_file *m);
void lb_control_show(struct seq_file *m);

/* ---- debugfs (debugfs.c) ---- */
int lb_debugfs_init(struct lb_ringset *rings);
void lb_debugfs_exit(void);

#endif /* _LOCKBLAME_H */
