// SPDX-License-Identifier: GPL-2.0
/*
 * Scopes: the user names a function whose caller is acquiring a lock that
 * a runtime builds above futexes (CPython's PyEval_RestoreThread, PostgreSQL's
 * LWLockAcquire), by file and offset; a uprobe at its entry and a uretprobe
 * at its return record LB_EV_SCOPE_ENTER and LB_EV_SCOPE_EXIT, and the
 * ledger makes the futex sleeps between them waits on the scope's lock
 * (ledger_scopes.c). The lock is the scope's name in the caller's process,
 * or the address an argument names (in every process with "shared").
 *
 * A scope may name its lock's release function too ("release=OFFSET", in
 * the same file: LWLockRelease): a uprobe at its entry (no return probe)
 * records an LB_EV_RELEASE of the scope's lock, named by its argument
 * "relarg=N" as the scope's by "arg=N", and the ledger ends the caller's
 * hold there, exactly, instead of inferring it from a wake.
 *
 * A span scope ("span": PostgreSQL's ProcSleep) is a function called only
 * to wait, whatever its caller sleeps on: a latch's epoll, a pipe, a
 * futex. The ledger makes the whole call one wait, and a task that wakes
 * the caller from task context (the scheduler's sched_waking: the waker is
 * current) releases the lock. The tracepoint is registered while a span
 * scope is planted; its probe looks the woken task up in lb_span_pids, the
 * tasks inside a span scope, which the entry and return handlers fill and
 * empty without a lock (each task writes only its own pid).
 *
 * Scopes are added and cleared from "control" (process context, under a
 * mutex); a uprobe covers the file in every process, running or started
 * later. The handlers only fill an event, like the kprobe handlers: no
 * allocation, no sleeping, no lock.
 */
#include <linux/fs.h>
#include <linux/jhash.h>
#include <linux/namei.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/stringify.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include "lockblame.h"
#include "compat.h"

/*
 * Scopes planted at once. scope auto plants one per binary a profile
 * matches: a host with python3.11 and its shared library, two JVMs and
 * PostgreSQL (three scopes) already needed 7 of the 8 there were.
 */
#define LB_SCOPES_MAX		16
#define LB_SPAN_BITS		9	/* tasks inside span scopes at once */
#define LB_SPAN_PROBES		8

struct lb_scope;

/*
 * Where a scope's uprobes are: a function's entry (with a uretprobe at its
 * return), or a probe pair's start and done sites (uprobes alone).
 */
struct lb_scope_site {
	struct uprobe_consumer uc;
	struct lb_uprobe up;
	loff_t offset;
	struct lb_scope *s;
};

struct lb_scope {
	bool used;
	u8 arg;			/* 1..6: the lock is this argument's value; 0: none */
	bool shared;		/* the argument names one lock in every process */
	bool span;		/* the whole call is a wait; wakes release */
	u16 deref_off;		/* deref_len > 0: the lock is deref_len bytes ... */
	u8 deref_len;		/* ... at the argument + deref_off, hashed */
	u8 relarg;		/* the release function's argument naming the lock */
	bool release;		/* a release function is planted at rel_offset */
	u32 name_id;		/* "NAME (scope)" in names */
	u64 name_key;		/* the name, hashed: scopes of one name are one lock */
	struct inode *inode;	/* held (igrab) while the uprobe is planted */
	loff_t rel_offset;
	struct lb_uprobe rel_up;
	struct uprobe_consumer rel_uc;
	/*
	 * site[0..nr_start) enter the scope; the rest, a probe pair's done
	 * sites, leave it (a function's uretprobe does: nr_sites == nr_start).
	 */
	u8 nr_start, nr_sites;
	u8 reg_size;		/* its lock: reg_size bytes of the register at reg_off */
	u16 reg_off;
	const char *reg;
	loff_t sema, donesema;
	struct lb_scope_site site[2 * LB_SCOPE_SITES];
	atomic64_t enters, exits, releases;
	char name[LB_SCOPE_NAME_LEN];
	char path[LB_SCOPE_PATH_LEN];
};

static DEFINE_MUTEX(lb_scopes_mutex);
static struct lb_scope lb_scopes[LB_SCOPES_MAX];

/*
 * Tasks inside a span scope: pids, 0 free; probed from a hash of the pid;
 * and the user stack pointer at the entry. Any frame inside the function
 * is at or below it; once the function is left (by its return, or by a
 * longjmp past its uretprobe: PostgreSQL's errors out of ProcSleep), the
 * task's stack pointer is above it.
 */
static s32 lb_span_pids[1U << LB_SPAN_BITS];
static unsigned long lb_span_sp[1U << LB_SPAN_BITS];
static atomic64_t lb_span_untracked;	/* entries that found no free slot */
static unsigned int lb_span_scopes;	/* span scopes planted (lb_scopes_mutex) */
static struct tracepoint *lb_waking_tp;

static u32 lb_span_slot(s32 pid, u32 i)
{
	return (hash_32((u32)pid, LB_SPAN_BITS) + i) & ((1U << LB_SPAN_BITS) - 1);
}

/* The slot of @pid, or -1. */
static int lb_span_find(s32 pid)
{
	u32 i;

	for (i = 0; i < LB_SPAN_PROBES; i++)
		if (READ_ONCE(lb_span_pids[lb_span_slot(pid, i)]) == pid)
			return lb_span_slot(pid, i);
	return -1;
}

/* Current enters a span scope at user stack pointer @sp. */
static void lb_span_enter(s32 pid, unsigned long sp)
{
	int slot = lb_span_find(pid);
	u32 i;

	for (i = 0; slot < 0 && i < LB_SPAN_PROBES; i++)
		if (!cmpxchg(&lb_span_pids[lb_span_slot(pid, i)], 0, pid))
			slot = lb_span_slot(pid, i);
	if (slot < 0) {
		atomic64_inc(&lb_span_untracked);
		return;
	}
	WRITE_ONCE(lb_span_sp[slot], sp);
}

/* Current's slot freed: only it stores its own pid, so only it clears it. */
static void lb_span_exit(s32 pid)
{
	int slot = lb_span_find(pid);

	if (slot >= 0)
		WRITE_ONCE(lb_span_pids[slot], 0);
}

/*
 * Current, at user stack pointer @sp, enters a scope: if it is still in
 * the span table from an entry below @sp, it left that span without its
 * return (a longjmp). Its slot is freed, and true tells the caller to
 * record the span's end.
 */
static bool lb_span_left(s32 pid, unsigned long sp)
{
	int slot = lb_span_find(pid);

	if (slot < 0 || sp <= READ_ONCE(lb_span_sp[slot]))
		return false;
	WRITE_ONCE(lb_span_pids[slot], 0);
	return true;
}

/*
 * sched_waking, with @p's pi_lock held and interrupts off: a task woken
 * inside a span scope by another from task context. Wakes from interrupts
 * (a timer: a timed wait's timeout, a deadlock check's alarm) release
 * nothing and are left out here, as is the wake of a task asleep above the
 * span's entry: it left the span by a longjmp (and its next scope entry
 * tells the ledger so).
 */
static void lb_span_waking(void *data, struct task_struct *p)
{
	struct lb_event *ev;
	int slot;

	if (!in_task() || p == current || !lb_enabled())
		return;
	slot = lb_span_find(p->pid);
	if (slot < 0 || lb_user_sp_asleep(p) > READ_ONCE(lb_span_sp[slot]))
		return;
	ev = lb_event_begin(LB_EV_SCOPE_WAKE, LB_LOCK_SCOPE, 0);
	if (!ev)
		return;
	lb_task_id_fill(&ev->owner, p);
	lb_event_commit(ev, NULL);
}

/* The first span scope registers the probe on sched_waking (lb_scopes_mutex held). */
static int lb_span_get(const char **err)
{
	struct tracepoint *tp;
	int ret;

	if (lb_span_scopes++)
		return 0;
	tp = lb_tracepoint_find("sched_waking");
	ret = tp ? tracepoint_probe_register(tp, lb_span_waking, NULL) : -ENOENT;
	if (ret) {
		lb_span_scopes--;
		*err = "span scopes need the sched_waking tracepoint, which did not register";
		return ret;
	}
	lb_waking_tp = tp;
	return 0;
}

/* The last span scope gone: the probe too, and no call of it running. */
static void lb_span_put(void)
{
	if (--lb_span_scopes)
		return;
	tracepoint_probe_unregister(lb_waking_tp, lb_span_waking, NULL);
	tracepoint_synchronize_unregister();
	lb_waking_tp = NULL;
	memset(lb_span_pids, 0, sizeof(lb_span_pids));
}

/*
 * The key @s reads through argument @arg: deref_len bytes of the caller's
 * memory, hashed; 0 if they cannot be read now (a handler must not fault
 * pages in), which makes it the scope's lock in the caller's process.
 */
static u64 lb_scope_deref(const struct lb_scope *s, u64 arg)
{
	u8 key[LB_SCOPE_DEREF_MAX];

	if (copy_from_user_nofault(key, (const void __user *)(unsigned long)(arg + s->deref_off),
				   s->deref_len))
		return 0;
	return ((u64)jhash(key, s->deref_len, 0x5c0fe) << 32) | jhash(key, s->deref_len, 0x10cb);
}

/*
 * The lock of @s for current, at the entry (@regs) of its acquire function
 * (@argn: s->arg) or of its release function (s->relarg), or at a probe
 * pair's start (s->reg_size, @argn 0).
 */
static u64 lb_scope_lock(const struct lb_scope *s, struct pt_regs *regs, u8 argn, u64 *arg)
{
	bool reg = !argn && s->reg_size, shared = (argn || reg) && s->shared;

	*arg = argn ? lb_user_arg(regs, argn) : 0;
	if (reg)
		*arg = lb_user_reg(regs, s->reg_off, s->reg_size);
	if (s->deref_len && (argn || reg)) {
		*arg = lb_scope_deref(s, *arg);
		shared = shared && *arg;
	}
	return lb_lock_id3(s->name_key, *arg, shared ? 0 : current->tgid);
}

/* @result: LB_WAIT_ERROR on an exit the module saw without its return. */
static void lb_scope_record(struct lb_scope *s, u8 type, u64 lock, u64 arg, u8 result)
{
	struct lb_event *ev;

	ev = lb_event_begin(type, LB_LOCK_SCOPE, lock);
	if (!ev)
		return;
	ev->count = s - lb_scopes;
	if (s->shared)
		ev->flags |= LB_EF_SHARED_KEY;
	if (s->span)
		ev->flags |= LB_EF_SPAN;
	ev->name_id = s->name_id;
	ev->uaddr = arg;
	ev->result = result;
	lb_event_commit(ev, NULL);
}

/* Current enters scope @s (a function's entry, a probe pair's start). */
static void lb_scope_entered(struct lb_scope *s, struct pt_regs *regs)
{
	u64 arg, lock;

	atomic64_inc(&s->enters);
	/* A span left by a longjmp ends first, as an error. */
	if (READ_ONCE(lb_span_scopes) && lb_span_left(current->pid, user_stack_pointer(regs)))
		lb_scope_record(s, LB_EV_SCOPE_EXIT, s->name_key, 0, LB_WAIT_ERROR);
	lock = lb_scope_lock(s, regs, s->arg, &arg);
	lb_scope_record(s, LB_EV_SCOPE_ENTER, lock, arg, 0);
	if (s->span)
		lb_span_enter(current->pid, user_stack_pointer(regs));
}

/* A function's entry, or a probe pair's start: the wait may begin. */
static int lb_scope_enter(LB_UPROBE_HANDLER_ARGS)
{
	if (lb_enabled())
		lb_scope_entered(container_of(uc, struct lb_scope_site, uc)->s, regs);
	return 0;
}

/*
 * The exit names the scope (its name's key, never 0), not its lock: the
 * ledger knows which lock the task entered for, and the handler hashes
 * nothing on every return.
 */
static void lb_scope_left(struct lb_scope *s)
{
	/* Out of the table even when recording is off: no pid stays behind. */
	if (s->span)
		lb_span_exit(current->pid);
	if (!lb_enabled())
		return;
	atomic64_inc(&s->exits);
	lb_scope_record(s, LB_EV_SCOPE_EXIT, s->name_key, 0, 0);
}

static int lb_scope_exit(LB_URETPROBE_HANDLER_ARGS)
{
	lb_scope_left(container_of(uc, struct lb_scope_site, uc)->s);
	return 0;
}

/* A probe pair's done site: as a function's return, the task has the lock. */
static int lb_scope_done(LB_UPROBE_HANDLER_ARGS)
{
	lb_scope_left(container_of(uc, struct lb_scope_site, uc)->s);
	return 0;
}

/*
 * The release function's entry: current lets go of the scope's lock. The
 * ledger decides whether it held it (ledger_scopes.c).
 */
static int lb_scope_release(LB_UPROBE_HANDLER_ARGS)
{
	struct lb_scope *s = container_of(uc, struct lb_scope, rel_uc);
	u64 arg, lock;

	if (!lb_enabled())
		return 0;
	atomic64_inc(&s->releases);
	lock = lb_scope_lock(s, regs, s->relarg, &arg);
	lb_scope_record(s, LB_EV_RELEASE, lock, arg, 0);
	return 0;
}

/* The first @n sites of @s are planted: removed again. */
static void lb_scope_sites_remove(struct lb_scope *s, unsigned int n)
{
	while (n--)
		lb_uprobe_unregister(&s->site[n].up, s->inode, s->site[n].offset, &s->site[n].uc);
}

/* The sites of @s, each with its probe's semaphore (a function has none). */
static int lb_scope_sites_plant(struct lb_scope *s, const char **err)
{
	unsigned int i;
	int ret;

	for (i = 0; i < s->nr_sites; i++) {
		ret = lb_uprobe_register(&s->site[i].up, s->inode, s->site[i].offset,
					 i < s->nr_start ? s->sema : s->donesema, &s->site[i].uc);
		if (ret) {
			lb_scope_sites_remove(s, i);
			*err = s->nr_sites == s->nr_start ? "uprobe_register refused the offset" :
				i < s->nr_start ?
				"uprobe_register refused a start site (or its sema=)" :
				"uprobe_register refused a done= site (or its donesema=)";
			return ret;
		}
	}
	return 0;
}

static void lb_scope_remove(struct lb_scope *s)
{
	if (s->release)
		lb_uprobe_unregister(&s->rel_up, s->inode, s->rel_offset, &s->rel_uc);
	lb_scope_sites_remove(s, s->nr_sites);
	if (s->span)
		lb_span_put();
	iput(s->inode);
	memset(s, 0, sizeof(*s));
}

static struct lb_scope *lb_scope_slot(const struct lb_scope_args *a, struct inode *inode,
				      const char **err)
{
	struct lb_scope *s, *free = NULL;

	for (s = lb_scopes; s < lb_scopes + LB_SCOPES_MAX; s++) {
		if (!s->used) {
			free = free ?: s;
		} else if (s->inode == inode && s->site[0].offset == a->offset) {
			*err = "a scope is planted there already";
			return NULL;
		}
	}
	if (!free)
		*err = "no room for another scope (" __stringify(LB_SCOPES_MAX) " at most)";
	return free;
}

/*
 * The sites of @s from @a: a function's entry and return, or a probe pair's
 * start and done sites and the register naming its lock.
 */
static void lb_scope_fill_sites(struct lb_scope *s, const struct lb_scope_args *a)
{
	unsigned int i;

	s->nr_start = a->nr_start;
	s->nr_sites = a->nr_start + a->nr_done;
	s->sema = a->sema;
	s->donesema = a->donesema;
	s->reg = a->reg;
	s->reg_off = a->reg_off;
	s->reg_size = a->reg_size;
	for (i = 0; i < s->nr_sites; i++) {
		struct lb_scope_site *site = &s->site[i];

		site->s = s;
		site->offset = i < a->nr_start ? a->start[i] : a->done[i - a->nr_start];
		site->uc.handler = i < a->nr_start ? lb_scope_enter : lb_scope_done;
		if (!a->nr_done)
			site->uc.ret_handler = lb_scope_exit;
	}
}

/* Slot @s takes the scope @a asks for, on @inode (a reference is taken). */
static void lb_scope_fill(struct lb_scope *s, const struct lb_scope_args *a,
			  struct inode *inode)
{
	char label[LB_LOCK_NAME_LEN];

	strscpy(s->name, a->name, sizeof(s->name));
	strscpy(s->path, a->path, sizeof(s->path));
	scnprintf(label, sizeof(label), "%s (scope)", s->name);
	s->name_id = lb_name_intern(label);
	s->name_key = lb_lock_id3(0x5c09e, jhash(s->name, strlen(s->name), 0), 0);
	s->arg = a->arg;
	s->shared = a->shared;
	s->span = a->span;
	s->deref_off = a->deref_off;
	s->deref_len = a->deref_len;
	s->release = a->release;
	s->rel_offset = a->rel_offset;
	s->relarg = a->relarg;
	s->inode = igrab(inode);
	s->rel_uc.handler = lb_scope_release;
	lb_scope_fill_sites(s, a);
	atomic64_set(&s->enters, 0);
	atomic64_set(&s->exits, 0);
	atomic64_set(&s->releases, 0);
}

/* Slot @s takes the scope @a asks for and plants it (lb_scopes_mutex held). */
static int lb_scope_plant(struct lb_scope *s, const struct lb_scope_args *a,
			  struct inode *inode, const char **err)
{
	/* The wakes are watched before the first entry can fire. */
	int ret = a->span ? lb_span_get(err) : 0;

	if (ret)
		return ret;
	lb_scope_fill(s, a, inode);
	ret = lb_scope_sites_plant(s, err);
	if (ret)
		goto fail;
	ret = s->release ?
		lb_uprobe_register(&s->rel_up, s->inode, s->rel_offset, 0, &s->rel_uc) : 0;
	if (ret) {
		lb_scope_sites_remove(s, s->nr_sites);
		*err = "uprobe_register refused the release= offset";
		goto fail;
	}
	s->used = true;
	return 0;
fail:
	if (a->span)
		lb_span_put();
	iput(s->inode);
	memset(s, 0, sizeof(*s));
	return ret;
}

static int lb_scope_add(char *args, const char **err)
{
	struct lb_scope_args a = {};
	struct inode *inode;
	struct lb_scope *s;
	struct path path;
	int ret;

	if (!IS_ENABLED(CONFIG_UPROBES)) {
		*err = "this kernel has no uprobes (CONFIG_UPROBES)";
		return -EOPNOTSUPP;
	}
	ret = lb_scope_parse(args, &a, err);
	if (ret)
		return ret;
	ret = kern_path(a.path, LOOKUP_FOLLOW, &path);
	if (ret) {
		*err = "scope path not found";
		return ret;
	}
	if (!d_is_reg(path.dentry)) {
		path_put(&path);
		*err = "scope path is not a regular file";
		return -EINVAL;
	}
	mutex_lock(&lb_scopes_mutex);
	/*
	 * The inode the file's mappings have: an overlay (a container's
	 * root, the 9p guest's) maps its lower file, whose inode is what a
	 * uprobe must be planted on (as kernel/trace/trace_uprobe.c does).
	 */
	inode = d_real_inode(path.dentry);
	s = lb_scope_slot(&a, inode, err);
	ret = s ? lb_scope_plant(s, &a, inode, err) : -EINVAL;
	mutex_unlock(&lb_scopes_mutex);
	path_put(&path);
	return ret;
}

void lb_scopes_clear(void)
{
	struct lb_scope *s;

	mutex_lock(&lb_scopes_mutex);
	for (s = lb_scopes; s < lb_scopes + LB_SCOPES_MAX; s++)
		if (s->used)
			lb_scope_remove(s);
	mutex_unlock(&lb_scopes_mutex);
}

/* "add PATH OFFSET ..." or "clear": the words after "scope". */
int lb_scope_control(char *args, const char **err)
{
	char *verb = args ? strsep(&args, " \t") : NULL;

	if (verb && !strcmp(verb, "add") && args)
		return lb_scope_add(strim(args), err);
	if (verb && !strcmp(verb, "clear") && !(args && *strim(args))) {
		lb_scopes_clear();
		return 0;
	}
	*err = "scope: add PATH OFFSET [OPTION=...] (docs/scopes.md), or clear";
	return -EINVAL;
}

/* A probe pair's " site=OFF,... done=OFF,... sema= donesema= reg=NAME:SIZE". */
static void lb_scope_show_pair(struct seq_file *m, const struct lb_scope *s)
{
	unsigned int i;

	for (i = 0; i < s->nr_sites; i++)
		seq_printf(m, "%s0x%llx", !i ? " site=" : i == s->nr_start ? " done=" : ",",
			   (unsigned long long)s->site[i].offset);
	seq_printf(m, " sema=0x%llx donesema=0x%llx reg=%s:%u", (unsigned long long)s->sema,
		   (unsigned long long)s->donesema, s->reg_size ? s->reg : "none", s->reg_size);
}

/* debugfs "scopes": one line per scope planted. */
void lb_scopes_show(struct seq_file *m)
{
	const struct lb_scope *s;
	unsigned int n = 0;

	mutex_lock(&lb_scopes_mutex);
	for (s = lb_scopes; s < lb_scopes + LB_SCOPES_MAX; s++)
		n += s->used;
	seq_printf(m, "# scopes %u of %u\n", n, LB_SCOPES_MAX);
	/* Tasks in a span scope whose wakes were not watched: no room. */
	seq_printf(m, "# span_untracked %lld\n", atomic64_read(&lb_span_untracked));
	for (s = lb_scopes; s < lb_scopes + LB_SCOPES_MAX; s++) {
		if (!s->used)
			continue;
		seq_printf(m, "%td name=%s offset=0x%llx arg=%u shared=%d span=%d deref=%u:%u enters=%lld exits=%lld",
			   s - lb_scopes, s->name, (unsigned long long)s->site[0].offset, s->arg,
			   s->shared, s->span, s->deref_off, s->deref_len,
			   atomic64_read(&s->enters), atomic64_read(&s->exits));
		if (s->release)
			seq_printf(m, " release=0x%llx relarg=%u releases=%lld",
				   (unsigned long long)s->rel_offset, s->relarg,
				   atomic64_read(&s->releases));
		if (s->nr_sites > s->nr_start)
			lb_scope_show_pair(m, s);
		seq_printf(m, " path=%s\n", s->path);
	}
	mutex_unlock(&lb_scopes_mutex);
}
