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
 * Scopes are added and cleared from "control" (process context, under a
 * mutex); a uprobe covers the file in every process, running or started
 * later. The handlers only fill an event, like the kprobe handlers: no
 * allocation, no sleeping, no lock.
 */
#include <linux/ctype.h>
#include <linux/fs.h>
#include <linux/jhash.h>
#include <linux/namei.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/slab.h>
#include "lockblame.h"
#include "compat.h"

#define LB_SCOPES_MAX		8
#define LB_SCOPE_NAME_LEN	24
#define LB_SCOPE_PATH_LEN	256

struct lb_scope {
	bool used;
	u8 arg;			/* 1..6: the lock is this argument's value; 0: none */
	bool shared;		/* the argument names one lock in every process */
	u32 name_id;		/* "NAME (scope)" in names */
	u64 name_key;		/* the name, hashed: scopes of one name are one lock */
	loff_t offset;
	struct inode *inode;	/* held (igrab) while the uprobe is planted */
	struct lb_uprobe up;
	struct uprobe_consumer uc;
	atomic64_t enters, exits;
	char name[LB_SCOPE_NAME_LEN];
	char path[LB_SCOPE_PATH_LEN];
};

static DEFINE_MUTEX(lb_scopes_mutex);
static struct lb_scope lb_scopes[LB_SCOPES_MAX];

/* The lock of @s for current, at its acquire function's entry (@regs). */
static u64 lb_scope_lock(const struct lb_scope *s, const struct pt_regs *regs, u64 *arg)
{
	*arg = s->arg ? lb_user_arg(regs, s->arg) : 0;
	return lb_lock_id3(s->name_key, *arg, s->arg && s->shared ? 0 : current->tgid);
}

static void lb_scope_record(struct lb_scope *s, u8 type, u64 lock, u64 arg)
{
	struct lb_event *ev;

	ev = lb_event_begin(type, LB_LOCK_SCOPE, lock);
	if (!ev)
		return;
	ev->count = s - lb_scopes;
	if (s->shared)
		ev->flags |= LB_EF_SHARED_KEY;
	ev->name_id = s->name_id;
	ev->uaddr = arg;
	lb_event_commit(ev, NULL);
}

static int lb_scope_enter(LB_UPROBE_HANDLER_ARGS)
{
	struct lb_scope *s = container_of(uc, struct lb_scope, uc);
	u64 arg, lock;

	if (!lb_enabled())
		return 0;
	atomic64_inc(&s->enters);
	lock = lb_scope_lock(s, regs, &arg);
	lb_scope_record(s, LB_EV_SCOPE_ENTER, lock, arg);
	return 0;
}

/*
 * The exit names the scope (its name's key, never 0), not its lock: the
 * ledger knows which lock the task entered for, and the handler hashes
 * nothing on every return.
 */
static int lb_scope_exit(LB_URETPROBE_HANDLER_ARGS)
{
	struct lb_scope *s = container_of(uc, struct lb_scope, uc);

	if (!lb_enabled())
		return 0;
	atomic64_inc(&s->exits);
	lb_scope_record(s, LB_EV_SCOPE_EXIT, s->name_key, 0);
	return 0;
}

static void lb_scope_remove(struct lb_scope *s)
{
	lb_uprobe_unregister(&s->up, s->inode, s->offset, &s->uc);
	iput(s->inode);
	memset(s, 0, sizeof(*s));
}

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

struct lb_scope_args {
	char *path;
	loff_t offset;
	u8 arg;
	bool shared;
	const char *name;
};

/* "PATH OFFSET [arg=N] [shared] [name=NAME]", whole, before anything changes. */
static int lb_scope_parse(char *args, struct lb_scope_args *a, const char **err)
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
	a->name = "scope";
	while ((tok = strsep(&args, " \t")) != NULL) {
		if (!*tok)
			continue;
		if (!strncmp(tok, "arg=", 4)) {
			if (kstrtou8(tok + 4, 10, &a->arg) || !a->arg || a->arg > LB_USER_ARGS) {
				*err = LB_USER_ARGS ? "scope arg= takes 1..6" :
					"scope arg= is not supported on this architecture";
				return -EINVAL;
			}
		} else if (!strcmp(tok, "shared")) {
			a->shared = true;
		} else if (!strncmp(tok, "name=", 5)) {
			a->name = tok + 5;
			if (!lb_scope_name_ok(a->name)) {
				*err = "scope name= takes 1..23 of A-Z a-z 0-9 _ . : -";
				return -EINVAL;
			}
		} else {
			*err = "unknown scope option";
			return -EINVAL;
		}
	}
	if (a->shared && !a->arg) {
		*err = "scope shared needs arg=";
		return -EINVAL;
	}
	return 0;
}

static struct lb_scope *lb_scope_slot(const struct lb_scope_args *a, struct inode *inode,
				      const char **err)
{
	struct lb_scope *s, *free = NULL;

	for (s = lb_scopes; s < lb_scopes + LB_SCOPES_MAX; s++) {
		if (!s->used) {
			free = free ?: s;
		} else if (s->inode == inode && s->offset == a->offset) {
			*err = "a scope is planted there already";
			return NULL;
		}
	}
	if (!free)
		*err = "no room for another scope (8 at most)";
	return free;
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
	s->offset = a->offset;
	s->inode = igrab(inode);
	s->uc.handler = lb_scope_enter;
	s->uc.ret_handler = lb_scope_exit;
	atomic64_set(&s->enters, 0);
	atomic64_set(&s->exits, 0);
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
	if (!s) {
		ret = -EINVAL;
		goto out;
	}
	lb_scope_fill(s, &a, inode);
	ret = lb_uprobe_register(&s->up, s->inode, s->offset, &s->uc);
	if (ret) {
		iput(s->inode);
		memset(s, 0, sizeof(*s));
		*err = "uprobe_register refused the offset";
		goto out;
	}
	s->used = true;
out:
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
	*err = "scope takes add PATH OFFSET [arg=N] [shared] [name=NAME], or clear";
	return -EINVAL;
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
	for (s = lb_scopes; s < lb_scopes + LB_SCOPES_MAX; s++) {
		if (!s->used)
			continue;
		seq_printf(m, "%td name=%s offset=0x%llx arg=%u shared=%d enters=%lld exits=%lld path=%s\n",
			   s - lb_scopes, s->name, (unsigned long long)s->offset, s->arg,
			   s->shared, atomic64_read(&s->enters), atomic64_read(&s->exits),
			   s->path);
	}
	mutex_unlock(&lb_scopes_mutex);
}
