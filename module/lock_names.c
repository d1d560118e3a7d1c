// SPDX-License-Identifier: GPL-2.0
/*
 * Naming a kernel lock when a task starts waiting on it, in probe context:
 * only what can be verified here and now, never a guess. In order:
 *   - the rwsem is exactly the mmap_lock of the waiter's or the owner's mm;
 *   - the lock lies in the kernel's or a module's static data: its symbol
 *     (kallsyms), the name only, remembered by lock id (a module unloaded
 *     and another loaded at its address could inherit a name: a limit);
 *   - a mutex that is the mutex of a pipe the waiter has open (a file in its
 *     fd table whose private data is that pipe, and whose inode's i_pipe too);
 *   - an rwsem that is the i_rwsem of an inode the waiter has open.
 * Else the lock stays unnamed (name id 0). No allocation, no sleeping lock,
 * no printk, no file reference: files and inodes are read under RCU, each
 * field of a file once and then re-validated (lb_name_find_file), strings
 * with nofault copies, and the name is interned in names.c.
 */
#include <linux/kprobes.h>
#include <linux/kallsyms.h>
#include <linux/fdtable.h>
#include <linux/fs.h>
#include <linux/mm_types.h>
#include <linux/pipe_fs_i.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include "lockblame.h"
#include "compat.h"

/* How many of the waiter's file descriptors are looked at, at most. */
#define LB_NAME_FDS		64
/* How much of a file's name an i_rwsem's name shows. */
#define LB_NAME_BASE_LEN	20

/*
 * Static locks named before, by lock id: kallsyms costs tens of microseconds
 * under TCG, and a static lock stays where it is. One u64 per entry (no torn
 * reads): the lock id's bits above LB_STATIC_ID_BITS, and the name id below.
 */
#define LB_STATIC_CACHE		256
#define LB_STATIC_ID_BITS	20
#define LB_STATIC_ID_MASK	(BIT_ULL(LB_STATIC_ID_BITS) - 1)
static u64 lb_static_cache[LB_STATIC_CACHE];
static_assert(LB_LOCK_NAMES_MAX <= LB_STATIC_ID_MASK);

static u32 __kprobes lb_static_cached(u64 lock_id)
{
	u64 e = READ_ONCE(lb_static_cache[lock_id % LB_STATIC_CACHE]);

	if ((e & ~LB_STATIC_ID_MASK) != (lock_id & ~LB_STATIC_ID_MASK))
		return 0;
	return e & LB_STATIC_ID_MASK;
}

static void __kprobes lb_static_remember(u64 lock_id, u32 name_id)
{
	if (name_id)
		WRITE_ONCE(lb_static_cache[lock_id % LB_STATIC_CACHE],
			   (lock_id & ~LB_STATIC_ID_MASK) | name_id);
}

/* kallsyms writes up to KSYM_SYMBOL_LEN: too much for a probe's stack. */
static DEFINE_PER_CPU(char [KSYM_SYMBOL_LEN], lb_ksym_buf);

/* Names are shown as text: any byte a terminal or a line parser minds becomes '?'. */
static void __kprobes lb_name_clean(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			*s = '?';
}

static bool __kprobes lb_name_mm(const void *lock, const struct lb_task_id *id,
				 struct mm_struct *mm, char *buf)
{
	if (!mm || lock != lb_mm_lock(mm) || id->tgid <= 0)
		return false;
	snprintf(buf, LB_LOCK_NAME_LEN, "mmap_lock of %d (%.*s)", id->tgid,
		 LB_COMM_LEN, id->pcomm);
	return true;
}

/* The mmap_lock of the waiter's mm, or of the owner's (read nofault). */
static bool __kprobes lb_name_mmap(const void *lock, struct lb_event *ev,
				   struct task_struct *owner, char *buf)
{
	struct mm_struct *mm = NULL;

	if (lb_name_mm(lock, &ev->task, current->mm, buf))
		return true;
	if (!owner || !ev->owner.pid ||
	    copy_from_kernel_nofault(&mm, &owner->mm, sizeof(mm)))
		return false;
	return lb_name_mm(lock, &ev->owner, mm, buf);
}

/*
 * A static lock: kallsyms knows only the kernel image and modules, so a
 * lock on the heap gets no symbol. sprint_symbol() writes "0x..." for an
 * address it has no symbol for: that never leaves this function.
 */
static bool __kprobes lb_name_static(const void *lock, char *buf)
{
	char *ksym = this_cpu_ptr(lb_ksym_buf);
	size_t len;

	ksym[0] = '\0';
	sprint_symbol(ksym, (unsigned long)lock);
	if (!ksym[0] || !strncmp(ksym, "0x", 2))
		return false;
	len = strcspn(ksym, "+ ");
	if (!len || len >= LB_LOCK_NAME_LEN)
		return false;
	memcpy(buf, ksym, len);
	buf[len] = '\0';
	return true;
}

/* What naming needs of a file the waiter has open, copied under RCU. */
struct lb_name_file {
	struct inode *inode;	/* its f_inode, the one matched */
	struct dentry *dentry;	/* its f_path.dentry, or NULL: not to be read */
};

/*
 * A file of the waiter's whose inode @match accepts, under RCU, copied into
 * @nf; false if none. No reference is taken (a probe cannot fput), and
 * since 6.7 a struct file is SLAB_TYPESAFE_BY_RCU: closed by a sibling
 * thread and reused by any open(), its fields are rewritten while we read
 * (f_inode NULL, f_path zeroed). So each field is loaded once, and the copy
 * counts only if the fd slot still holds the file and its f_inode is still
 * the inode matched. Inodes and (but for pseudo files) dentries are freed
 * by RCU, so what was copied stays readable until rcu_read_unlock().
 */
static bool __kprobes lb_name_find_file(bool (*match)(struct file *f, struct inode *inode,
						      const void *lock),
					const void *lock, struct lb_name_file *nf)
{
	struct files_struct *files = current->files;
	struct super_block *sb;
	struct fdtable *fdt;
	unsigned int fd, max;

	if (!files)
		return false;
	fdt = rcu_dereference_raw(files->fdt);
	max = min_t(unsigned int, READ_ONCE(fdt->max_fds), LB_NAME_FDS);
	for (fd = 0; fd < max; fd++) {
		struct file *f = rcu_dereference_raw(fdt->fd[fd]);
		struct inode *inode;

		if (!f)
			continue;
		inode = READ_ONCE(f->f_inode);
		if (!inode || !match(f, inode, lock))
			continue;
		nf->dentry = READ_ONCE(f->f_path.dentry);
		/* The copies before the recheck that vouches for them. */
		smp_rmb();
		if (rcu_dereference_raw(fdt->fd[fd]) != f || READ_ONCE(f->f_inode) != inode)
			continue;
		/* Pseudo files' dentries (pipes, sockets) are freed without RCU. */
		sb = READ_ONCE(inode->i_sb);
		if (!sb || (READ_ONCE(sb->s_flags) & SB_NOUSER))
			nf->dentry = NULL;
		nf->inode = inode;
		return true;
	}
	return false;
}

static bool __kprobes lb_file_is_pipe(struct file *f, struct inode *inode, const void *lock)
{
	struct pipe_inode_info *pipe = container_of((struct mutex *)lock,
						    struct pipe_inode_info, mutex);

	return READ_ONCE(f->private_data) == pipe && READ_ONCE(inode->i_pipe) == pipe;
}

static bool __kprobes lb_file_is_inode(struct file *f, struct inode *inode, const void *lock)
{
	return inode == container_of((struct rw_semaphore *)lock, struct inode, i_rwsem);
}

/*
 * The first bytes of a dentry's name (it may be renamed meanwhile: read no
 * more than its length said, nofault, and cut at a NUL).
 */
static void __kprobes lb_name_dentry(struct dentry *dentry, char *base)
{
	const unsigned char *name = READ_ONCE(dentry->d_name.name);
	u32 len = min_t(u32, READ_ONCE(dentry->d_name.len), LB_NAME_BASE_LEN - 1);

	if (!name || copy_from_kernel_nofault(base, name, len))
		len = 0;
	base[len] = '\0';
}

/* A pipe's mutex or an inode's i_rwsem, confirmed by a file the waiter has open. */
static bool __kprobes lb_name_file_lock(const void *lock, u8 lock_class, char *buf)
{
	char base[LB_NAME_BASE_LEN] = "";
	struct lb_name_file nf;
	bool named = false;

	rcu_read_lock();
	if (lock_class == LB_LOCK_MUTEX && lb_name_find_file(lb_file_is_pipe, lock, &nf)) {
		/* i_ino is unsigned long until 7.x, u64 after: printed as the wider. */
		snprintf(buf, LB_LOCK_NAME_LEN, "pipe mutex of pipe:[%llu]",
			 (unsigned long long)READ_ONCE(nf.inode->i_ino));
		named = true;
	} else if (lock_class != LB_LOCK_MUTEX && lb_name_find_file(lb_file_is_inode, lock, &nf)) {
		if (nf.dentry)
			lb_name_dentry(nf.dentry, base);
		snprintf(buf, LB_LOCK_NAME_LEN, "i_rwsem of inode %llu (%s)",
			 (unsigned long long)READ_ONCE(nf.inode->i_ino), base[0] ? base : "?");
		named = true;
	}
	rcu_read_unlock();
	return named;
}

/*
 * Name the kernel lock @lock that @ev (a wait beginning) is about; @owner is
 * the task read from the lock word, or NULL. Sets ev->name_id.
 */
void __kprobes lb_name_kernel_lock(struct lb_event *ev, const void *lock,
				   struct task_struct *owner)
{
	u64 t0 = ktime_get_mono_fast_ns();
	char buf[LB_LOCK_NAME_LEN];
	enum lb_named how;

	/* Cheapest first: a cache, a pointer compare, a walk of a few fds, kallsyms. */
	ev->name_id = lb_static_cached(ev->lock);
	if (ev->name_id) {
		lb_names_cost(LB_NAMED_CACHED, ktime_get_mono_fast_ns() - t0);
		return;
	}
	if (ev->lock_class == LB_LOCK_RWSEM && lb_name_mmap(lock, ev, owner, buf))
		how = LB_NAMED_MMAP;
	else if (lb_name_file_lock(lock, ev->lock_class, buf))
		how = LB_NAMED_FILE;
	else if (lb_name_static(lock, buf))
		how = LB_NAMED_STATIC;
	else
		how = LB_NAMED_NONE;
	if (how != LB_NAMED_NONE) {
		lb_name_clean(buf);
		ev->name_id = lb_name_intern(buf);
	}
	if (how == LB_NAMED_STATIC)
		lb_static_remember(ev->lock, ev->name_id);
	lb_names_cost(how, ktime_get_mono_fast_ns() - t0);
}
