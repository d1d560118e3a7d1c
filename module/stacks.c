// SPDX-License-Identifier: GPL-2.0
/*
 * Stack store: each distinct kernel or user stack seen at a wait or release
 * is stored once, in a fixed table claimed lock-free, and events carry its id.
 * Used only while stacks are switched on (module parameter or "control").
 */
#include <linux/kprobes.h>
#include <linux/stacktrace.h>
#include <linux/jhash.h>
#include <linux/module.h>
#include <linux/vmalloc.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <linux/sched/task_stack.h>
#include <linux/kallsyms.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include "lockblame.h"

#define LB_STACK_DEPTH		16
#define LB_STACK_PROBES		8
#define LB_STACK_SPINS		10000
/* A return address this close after a probed function's start is in it. */
#define LB_STACK_ENTRY_SPAN	64

struct lb_stack {
	u32 hash;		/* 0: free; claimed with cmpxchg */
	u8 ready;		/* ips written (release/acquire) */
	u8 user;
	u16 depth;
	unsigned long ips[LB_STACK_DEPTH];
};

static struct lb_stack *lb_stack_table;	/* NULL until stacks are first on */
static unsigned int lb_stack_cap;
static unsigned int lb_stack_want;		/* stack_entries */
static atomic64_t lb_stack_full = ATOMIC64_INIT(0);
/*
 * A stack id is its slot + 1, with the table's generation above bit 21
 * (capacity is at most 2^20: config_list.h): a wait that took its stack
 * before a reset and ends after it carries an id of the old generation,
 * which names nothing in "stacks" rather than some other stack stored in the
 * same slot since.
 */
#define LB_STACK_GEN_SHIFT	21
#define LB_STACK_GEN_MASK	((1U << (32 - LB_STACK_GEN_SHIFT)) - 1)
static_assert(LB_STACK_ENTRIES_MAX < (1U << LB_STACK_GEN_SHIFT));
static u32 lb_stack_gen;
/* Set while the table is being cleared: probes store no stack meanwhile. */
static bool lb_stacks_frozen;
/* Serialises clearing with the "stacks" file. */
static DEFINE_MUTEX(lb_stacks_mutex);

void lb_stacks_init(unsigned int entries)
{
	lb_stack_want = entries;
}

/*
 * The table, allocated when stacks are first switched on (stacks=1, or
 * "stacks on"); it stays until the module goes. Published with its size
 * before any probe may look (lb_stack_intern() acquires the pointer).
 */
int lb_stacks_alloc(void)
{
	struct lb_stack *table;
	int err = 0;

	mutex_lock(&lb_stacks_mutex);
	if (lb_stack_table)
		goto out;
	table = vzalloc(array_size(lb_stack_want, sizeof(*table)));
	if (!table) {
		err = -ENOMEM;
		goto out;
	}
	lb_stack_cap = lb_stack_want;
	/* The size before the pointer: pairs with lb_stack_intern()'s acquire. */
	smp_store_release(&lb_stack_table, table);
out:
	mutex_unlock(&lb_stacks_mutex);
	return err;
}

void lb_stacks_free(void)
{
	vfree(lb_stack_table);
	lb_stack_table = NULL;
	lb_stack_cap = 0;
}

u64 lb_stacks_bytes(void)
{
	return (u64)READ_ONCE(lb_stack_cap) * sizeof(*lb_stack_table);
}

static u32 __kprobes lb_stack_id(unsigned int idx)
{
	return (READ_ONCE(lb_stack_gen) << LB_STACK_GEN_SHIFT) | (idx + 1);
}

/* Find or store a stack; its id (lb_stack_id()), 0 when the table is full. */
static u32 __kprobes lb_stack_intern(const unsigned long *ips, unsigned int depth, bool user)
{
	u32 hash = jhash(ips, depth * sizeof(*ips), user) | 1;
	/* Pairs with lb_stacks_alloc(): the size is set before the pointer. */
	struct lb_stack *table = smp_load_acquire(&lb_stack_table);
	unsigned int i, idx, spins;

	if (!table || READ_ONCE(lb_stacks_frozen))
		return 0;
	for (i = 0; i < LB_STACK_PROBES; i++) {
		struct lb_stack *s;

		idx = (hash + i) % lb_stack_cap;
		s = &table[idx];
		if (READ_ONCE(s->hash) == 0 && cmpxchg(&s->hash, 0, hash) == 0) {
			memcpy(s->ips, ips, depth * sizeof(*ips));
			s->depth = depth;
			s->user = user;
			/* Readers check ready before they read ips. */
			smp_store_release(&s->ready, 1);
			return lb_stack_id(idx);
		}
		if (READ_ONCE(s->hash) != hash)
			continue;
		spins = 0;
		/*
		 * Same hash, perhaps being written on another CPU right now (it
		 * has preemption off for a few stores): wait for it, so that one
		 * stack is not stored twice. Pairs with the release above.
		 */
		while (!smp_load_acquire(&s->ready) && ++spins < LB_STACK_SPINS)
			cpu_relax();
		if (spins < LB_STACK_SPINS && s->user == user && s->depth == depth &&
		    !memcmp(s->ips, ips, depth * sizeof(*ips)))
			return lb_stack_id(idx);
	}
	atomic64_inc(&lb_stack_full);
	return 0;
}

/*
 * The kernel stack at a probe on the function at @probe_addr. The walk starts
 * in the handler: the frames above the probed function (lockblame's, the
 * kprobe and ftrace trampolines) are cut; if the probed function is not
 * found, at least lockblame's own frames are.
 */
u32 __kprobes lb_stack_kernel(unsigned long probe_addr)
{
	unsigned long ips[LB_STACK_DEPTH + 12];
	unsigned int n, skip = 0, i;

	n = stack_trace_save(ips, ARRAY_SIZE(ips), 0);
	for (i = 0; i < n; i++) {
		if (ips[i] - probe_addr < LB_STACK_ENTRY_SPAN) {
			skip = i;
			break;
		}
	}
	while (i == n && skip < n && within_module(ips[skip], THIS_MODULE))
		skip++;
	if (skip == n)
		return 0;
	return lb_stack_intern(ips + skip, min_t(unsigned int, n - skip, LB_STACK_DEPTH),
			       false);
}

/* User stack by frame pointers, from the syscall's saved registers, in @p's handler. */
u32 __kprobes lb_stack_user(struct lb_probe *p)
{
	struct pt_regs *regs = task_pt_regs(current);
	unsigned long ips[LB_STACK_DEPTH];
	unsigned long fp, frame[2];
	unsigned int n = 0;

	if (!current->mm || !regs)
		return 0;
	ips[n++] = instruction_pointer(regs);
	fp = regs->bp;
	while (n < LB_STACK_DEPTH && fp && !(fp & (sizeof(long) - 1))) {
		if (lb_probe_read_user(p, frame, (void __user *)fp, sizeof(frame)) ||
		    !frame[1] || frame[0] <= fp)
			break;
		ips[n++] = frame[1];
		fp = frame[0];
	}
	return lb_stack_intern(ips, n, true);
}

/*
 * Forget every stored stack ("reset"). Probes intern with preemption off:
 * once they are told to stop, synchronize_rcu() waits out any still
 * writing a slot, and the table can be cleared under nobody's feet. Events
 * still holding old ids must be gone first (the drain discards them).
 */
void lb_stacks_freeze(void)
{
	mutex_lock(&lb_stacks_mutex);
	WRITE_ONCE(lb_stacks_frozen, true);
	synchronize_rcu();
}

void lb_stacks_clear_thaw(void)
{
	if (lb_stack_table)
		memset(lb_stack_table, 0, array_size(lb_stack_cap, sizeof(*lb_stack_table)));
	atomic64_set(&lb_stack_full, 0);
	WRITE_ONCE(lb_stack_gen, (lb_stack_gen + 1) & LB_STACK_GEN_MASK);
	/* The cleared slots are visible before any probe may claim one. */
	smp_store_release(&lb_stacks_frozen, false);
	mutex_unlock(&lb_stacks_mutex);
}

/* A kernel frame by name; never its address, even when no symbol is known. */
static void lb_stack_show_kernel(struct seq_file *m, unsigned long ip)
{
	char sym[KSYM_SYMBOL_LEN];

	sprint_symbol(sym, ip);
	/* sprint_symbol() falls back to "0x<address>" for unknown text. */
	if (!strncmp(sym, "0x", 2))
		seq_puts(m, "  [unknown]\n");
	else
		seq_printf(m, "  %s\n", sym);
}

void lb_stacks_show(struct seq_file *m)
{
	unsigned int i, j;

	mutex_lock(&lb_stacks_mutex);
	seq_printf(m, "# capacity %u full %lld\n", lb_stack_want,
		   (long long)atomic64_read(&lb_stack_full));
	for (i = 0; i < lb_stack_cap; i++) {
		struct lb_stack *s = &lb_stack_table[i];

		/* Pairs with lb_stack_intern(): skip slots still being written. */
		if (!smp_load_acquire(&s->ready))
			continue;
		seq_printf(m, "stack %u %s\n", lb_stack_id(i), s->user ? "user" : "kernel");
		for (j = 0; j < s->depth; j++) {
			if (s->user)
				seq_printf(m, "  0x%lx\n", s->ips[j]);
			else
				lb_stack_show_kernel(m, s->ips[j]);
		}
	}
	mutex_unlock(&lb_stacks_mutex);
}
