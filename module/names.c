// SPDX-License-Identifier: GPL-2.0
/*
 * Names table: each distinct lock name (a string lock_names.c made from
 * something it verified) is stored once, in a fixed table claimed lock-free
 * like the stack store, and events carry its id. Strings are never changed
 * or removed while the module is loaded, so an id names one string for good;
 * a full table names nothing more, and says how often in "names".
 */
#include <linux/kprobes.h>
#include <linux/jhash.h>
#include <linux/vmalloc.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include "lockblame.h"

#define LB_NAMES_PROBES		8
#define LB_NAMES_SPINS		10000

struct lb_name {
	u32 hash;		/* 0: free; claimed with cmpxchg */
	u8 ready;		/* s written (release/acquire) */
	char s[LB_LOCK_NAME_LEN];
};

static struct lb_name *lb_names;
static atomic64_t lb_names_full = ATOMIC64_INIT(0);
/* The cost of naming in probes, by how it ended: calls, and their time. */
static atomic64_t lb_names_calls[LB_NAMED_MAX];
static atomic64_t lb_names_ns[LB_NAMED_MAX];
static const char *const lb_named_names[LB_NAMED_MAX] = {
	[LB_NAMED_NONE] = "unnamed",
	[LB_NAMED_MMAP] = "mmap_lock",
	[LB_NAMED_STATIC] = "static",
	[LB_NAMED_FILE] = "file",
	[LB_NAMED_CACHED] = "static_cached",
};

int lb_names_alloc(void)
{
	lb_names = vzalloc(array_size(LB_LOCK_NAMES_MAX, sizeof(*lb_names)));
	return lb_names ? 0 : -ENOMEM;
}

void lb_names_free(void)
{
	vfree(lb_names);
	lb_names = NULL;
}

u64 lb_names_bytes(void)
{
	return lb_names ? LB_LOCK_NAMES_MAX * sizeof(*lb_names) : 0;
}

void __kprobes lb_names_cost(enum lb_named how, u64 ns)
{
	atomic64_inc(&lb_names_calls[how]);
	atomic64_add(ns, &lb_names_ns[how]);
}

/* Find or store @s (NUL-terminated, shorter than LB_LOCK_NAME_LEN); 0 if full. */
u32 __kprobes lb_name_intern(const char *s)
{
	size_t len = strnlen(s, LB_LOCK_NAME_LEN - 1);
	u32 hash = jhash(s, len, 0) | 1;
	unsigned int i, idx, spins;
	struct lb_name *n;

	for (i = 0; i < LB_NAMES_PROBES; i++) {
		idx = (hash + i) % LB_LOCK_NAMES_MAX;
		n = &lb_names[idx];
		if (READ_ONCE(n->hash) == 0 && cmpxchg(&n->hash, 0, hash) == 0) {
			memcpy(n->s, s, len);
			n->s[len] = '\0';
			/* Readers check ready before they read s. */
			smp_store_release(&n->ready, 1);
			return idx + 1;
		}
		if (READ_ONCE(n->hash) != hash)
			continue;
		spins = 0;
		/* Being written on another CPU with preemption off: wait for it. */
		while (!smp_load_acquire(&n->ready) && ++spins < LB_NAMES_SPINS)
			cpu_relax();
		if (spins < LB_NAMES_SPINS && !strncmp(n->s, s, LB_LOCK_NAME_LEN))
			return idx + 1;
	}
	atomic64_inc(&lb_names_full);
	return 0;
}

/* The string of name @id, or NULL when @id names nothing (yet). */
const char *lb_name_of(u32 id)
{
	struct lb_name *n;

	if (!lb_names || !id || id > LB_LOCK_NAMES_MAX)
		return NULL;
	n = &lb_names[id - 1];
	/* Pairs with the release in lb_name_intern(): s is whole once ready. */
	return smp_load_acquire(&n->ready) ? n->s : NULL;
}

/*
 * debugfs "names": a line with the table's use, one with the cost of naming
 * by outcome (how many waits were named so, and the time it took in all),
 * then "id name".
 */
void lb_names_show(struct seq_file *m)
{
	unsigned int i, used = 0;

	for (i = 0; i < LB_LOCK_NAMES_MAX; i++)
		used += !!lb_name_of(i + 1);
	seq_printf(m, "# names %u of %u full %lld\n# cost", used, LB_LOCK_NAMES_MAX,
		   atomic64_read(&lb_names_full));
	for (i = 0; i < LB_NAMED_MAX; i++)
		seq_printf(m, " %s %lld/%lldns", lb_named_names[i],
			   atomic64_read(&lb_names_calls[i]), atomic64_read(&lb_names_ns[i]));
	seq_puts(m, "\n");
	for (i = 0; i < LB_LOCK_NAMES_MAX; i++) {
		const char *s = lb_name_of(i + 1);

		if (s)
			seq_printf(m, "%u %s\n", i + 1, s);
	}
}
